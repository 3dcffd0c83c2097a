"""Binomial laws and their certified windows (the first concept of the lattice sums, package doc).

Part of `shuffle_spec.reference.numerics.lattice_sums` (its package doc states the model and the proofs)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import mpmath
import numpy as np

from ...core.errors import ParameterError, require_integer

__all__ = ["BinomialLaw", "Window", "binomial_law", "binomial_window", "log_gamma", "N_STEP_LOG"]



UNIT = 2.0**-53
# The blocking grid (`blocking_offsets`): steps of N_STEP_LOG * N / log(1/delta) keep the blocking slack of delta
# near N_STEP_LOG (here 3%, about 0.1% in eps).
N_STEP_LOG = 0.03
U1 = 1.001 * UNIT
LOG_MARGIN = 1e-13
EXP_MARGIN = 1e-12
TINY = 1e-280
# Rows x length doubles per temporary array of the row sums (bounds the memory at n = 1e8). 2^16 (half a megabyte
# per array) keeps a chunk's temporaries in cache: measured 1.2-1.4x faster than 2^19 at n = 1e6 to 1e8 (k = 3, 10).
# Only the grouping of rows depends on it (a row's length is its chunk's longest): the bounds hold for any value.
CHUNK_ELEMENTS = 1 << 16
# Rows whose widths lie within this factor share a chunk of the row sums.
WIDTH_CLASS = 1.5
# Grid rows per standard deviation of b within the zone that carries the sum (`_fine_zone`), wider beyond.
PER_SD = 4
# A row is summed upwards from its zero unless that lies more than UPWARD_SD sd of a below the mean.
UPWARD_SD = 3.0
# Values of b per batch of lattice sums (bounds the memory of the per-b arrays).
QUERY_BATCH = 400_000
# Values of b per block of the elementwise passes over a batch's queries (`expectations._row_bounds`): 2^14 doubles
# (128 KB per temporary) stay in cache; only the speed depends on it (the passes are elementwise).
QUERY_BLOCK = 1 << 14
# Windows of at most this many b values get a row at every b.
EVERY_B_MAX = 160
# Row length past the start (or past the zero, upward rows) in sd of a | b; beyond it the geometric bound.
ROW_SD = 3.0
# Upward rows whose zero lies less than NEAR_SD sd above the mean reach ROW_SD_NEAR sd past it instead: there
# the geometric bound on the rest of the row costs about phi(x)/x of the row's sum at x sd (1e-3 at 3 sd,
# 3e-7 at 5 sd). Only tightness depends on these.
NEAR_SD = 2.0
ROW_SD_NEAR = 5.0


# log Gamma by hand (`log_gamma`): scipy.special would cost about 0.2 s to import (it pulls numpy.f2py), more than
# a whole k-RR evaluation at small n, and the lattice sums need log Gamma only at integer arguments.
# log(m!) for m < LOG_FACTORIAL_TABLE from the exact integer m! (math.log of an int: within an ulp or two).
LOG_FACTORIAL_TABLE = 256
_LOG_FACTORIAL = np.array([math.log(math.factorial(m)) for m in range(LOG_FACTORIAL_TABLE)])
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def _stirling(x: np.ndarray) -> np.ndarray:
    """(x - 1/2) log x - x + (log(2 pi)/2 + series(1/x)) for a 1-D float array x >= LOG_FACTORIAL_TABLE (`log_gamma`):
    every operation in place on three buffers, in the order of the expression
    (x - 0.5) * log(x) - x + (_HALF_LOG_2PI + inv * (1/12 - inv2 * (1/360 - inv2 * (1/1260 - inv2 / 1680)))),
    so the same floats as that expression without its ten temporaries of x's size (the lattice sums call this on
    10^5 values per evaluation at n = 1e8)."""
    inv = np.divide(1.0, x)
    inv2 = np.multiply(inv, inv)
    series = np.divide(inv2, 1680)
    np.subtract(1.0 / 1260, series, out=series)
    series *= inv2
    np.subtract(1.0 / 360, series, out=series)
    series *= inv2
    np.subtract(1.0 / 12, series, out=series)
    series *= inv
    series += _HALF_LOG_2PI
    result: np.ndarray = np.log(x, out=inv)
    result *= np.subtract(x, 0.5, out=inv2)
    result -= x
    result += series
    return result


def log_gamma(x: np.ndarray | float) -> np.ndarray:
    """log Gamma(x) elementwise for x >= 1 (float arrays), within 1e-14 of |log Gamma(x)| (the margin the error model
    takes is 1e-13 of the magnitudes, package doc): integers below LOG_FACTORIAL_TABLE from the table of log(m!);
    x >= LOG_FACTORIAL_TABLE by Stirling's series (x - 1/2) log x - x + log(2 pi)/2 + 1/(12x) - 1/(360x^3) +
    1/(1260x^5) - 1/(1680x^7), whose truncation error is below the first omitted term 1/(1188 x^9) < 1e-24 (the
    series alternates with decreasing terms for x >= 1) and whose float error is a few ulps of (x - 1/2) log x + x,
    at most 1.25 times log Gamma(x) there (log x >= 5.5); other x (non-integers below the table) by math.lgamma.
    Range: finite x >= 1 (ParameterError otherwise: the lattice sums never ask below 1)."""
    values = np.asarray(x, dtype=float)
    flat = np.atleast_1d(values).ravel()
    # Two reductions decide the range (a NaN makes the minimum NaN, an infinity the maximum infinite); the lattice
    # sums call this thousands of times on short rows, where the checks and masks cost more than the series.
    lowest, highest = (float(flat.min()), float(flat.max())) if flat.size else (1.0, 1.0)
    if not (lowest >= 1 and highest < math.inf):
        bad = flat[~((flat >= 1) & np.isfinite(flat))][0]
        raise ParameterError("x", float(bad), "finite x >= 1 (log Gamma of the lattice sums)")
    if lowest >= LOG_FACTORIAL_TABLE:  # every x by the series: the same operations as below, without the masks
        result: np.ndarray = _stirling(flat).reshape(values.shape)
        return result
    out = np.empty(flat.shape)
    big = flat >= LOG_FACTORIAL_TABLE
    if np.any(big):
        out[big] = _stirling(flat[big])
    small = np.nonzero(~big)[0]
    if len(small):
        xs = flat[small]
        whole = xs == np.floor(xs)
        out[small[whole]] = _LOG_FACTORIAL[xs[whole].astype(np.int64) - 1]
        out[small[~whole]] = [math.lgamma(float(v)) for v in xs[~whole]]
    return out.reshape(values.shape)


@dataclass(frozen=True)
class BinomialLaw:
    """Success probability p of a binomial as logs (log p, log q, q = 1 - p) and rho = p/q, each within
    `err` (absolute for the logs, relative for rho) of the exact value; p = 1 is the degenerate law."""

    log_p: float
    log_q: float
    rho: float
    err: float
    p: float

    @property
    def degenerate(self) -> bool:
        # q = 0 exactly (built only from p == 1), not `p == 1.0`: a p within 2^-54 of 1 (1 - 2e-22, say) rounds
        # to the float 1.0 while its failures still carry the mass that decides a bound (log q stays finite).
        return self.log_q == -math.inf


def binomial_law(p: mpmath.mpf | Fraction) -> BinomialLaw:
    """A BinomialLaw from p given as an mpmath number computed at >= 30 digits (its error is far below
    the 4u stated) or as an exact Fraction; p = 1 exactly gives the degenerate law (every trial succeeds).
    A p within 1e-30 of 1 must be a Fraction: q = 1 - p is then exact (at 40 digits, 1 - 1e-45 is 1 and its
    failures, which can carry a whole delta, would vanish)."""
    if not isinstance(p, (mpmath.mpf, int, float, Fraction)) or isinstance(p, bool) or not 0 < p <= 1:
        raise ParameterError("p", p, "a probability in (0, 1] (an mpmath number computed at >= 30 digits, or a Fraction)")
    if p == 1:
        return BinomialLaw(0.0, -math.inf, math.inf, 0.0, 1.0)
    with mpmath.workdps(40):
        if isinstance(p, Fraction):
            q_exact = 1 - p
            p_mp, q = mpmath.mpf(p.numerator) / p.denominator, mpmath.mpf(q_exact.numerator) / q_exact.denominator
        else:
            p_mp, q = p, 1 - p
        return BinomialLaw(float(mpmath.log(p_mp)), float(mpmath.log(q)), float(p_mp / q), 4 * UNIT, float(p_mp))


def log_pmf(m: np.ndarray, j: np.ndarray, law: BinomialLaw) -> tuple[np.ndarray, np.ndarray]:
    """log Pr[Bin(m, p) = j] (float) and a bound on its absolute error (module doc)."""
    value, err, _ = _log_pmf_terms(m, j, law)
    return value, err


def combine_log_terms(t1: np.ndarray, t2: np.ndarray, t3: np.ndarray, t4: np.ndarray, t5: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """t1 - t2 - t3 + t4 + t5 and LOG_MARGIN (|t1| + |t2| + |t3| + |t4| + |t5|), the value and the rounding part of the
    error of a log-pmf-shaped sum (`log_pmf`, the lattice sums' log ratios), each operation in place in the
    expression's order: the same floats as the expression without its temporaries. The inputs are not modified (a
    caller may pass cached arrays)."""
    value = np.subtract(t1, t2)
    value -= t3
    value += t4
    value += t5
    err = np.add(np.abs(t1), np.abs(t2))
    err += np.abs(t3)
    err += np.abs(t4)
    err += np.abs(t5)
    err *= LOG_MARGIN
    return value, err


def _log_pmf_terms(m: np.ndarray, j: np.ndarray, law: BinomialLaw) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`log_pmf` and its term log Gamma(m - j + 1) = log((m - j)!) (`binomial_window` keeps it for the lattice sums'
    shifted rows, whose log weights need exactly these values)."""
    t1, t2, t3 = log_gamma(m + 1.0), log_gamma(j + 1.0), log_gamma(m - j + 1.0)
    t4 = j * law.log_p
    rest = m - j
    t5 = np.where(rest > 0, rest * law.log_q, 0.0)
    # value and err = LOG_MARGIN (|t1| + ... + |t5|) + err_law (j + |m - j|) + 1e-15 (binomial windows and the lattice
    # sums' anchors call this on 10^4-10^5 values).
    value, err = combine_log_terms(t1, t2, t3, t4, t5)
    law_part = np.abs(rest)
    law_part += j
    law_part *= law.err
    err += law_part
    err += 1e-15
    return value, err, t3


def _log_chernoff_upper(x: float, m: int, law: BinomialLaw) -> float:
    """An upper bound on log of the Chernoff bound on Pr[X <= x] (x <= m p) or Pr[X >= x] (x >= m p)."""
    terms = []
    if x > 0:
        terms.append(x * (math.log(x) - math.log(m) - law.log_p))
    if m - x > 0:
        terms.append((m - x) * (math.log(m - x) - math.log(m) - law.log_q))
    total = sum(terms)
    margin = LOG_MARGIN * sum(abs(t) for t in terms) + law.err * m + 1e-15
    return -total + margin


@dataclass(frozen=True)
class Window:
    """Pr[Bin(m, p) = lo + i] in [lower[i], upper[i]] for i < len(lower); Pr[X < lo] <= below, Pr[X > hi] <= above."""

    m: int
    lo: int
    hi: int
    lower: np.ndarray
    upper: np.ndarray
    below: float
    above: float
    # log((m - j)!) for j = lo..hi, the same floats as log_gamma(m - j + 1.0) (None: not kept).
    log_factorial_rest: np.ndarray | None = None


def _edge(m: int, law: BinomialLaw, log_tail: float, direction: int) -> int:
    mean = m * law.p
    sd = math.sqrt(max(m * law.p * (1 - law.p), 1e-300))
    z = math.sqrt(max(-2.0 * log_tail, 1.0)) + 1.0
    step = max(1.0, 0.25 * z * sd)
    x = math.floor(mean - z * sd) if direction < 0 else math.ceil(mean + z * sd)
    while True:
        if direction < 0:
            if x <= 0:
                return 0
            if x - 1 < mean and _log_chernoff_upper(x - 1, m, law) <= log_tail:
                return int(x)
            x = math.floor(x - step)
        else:
            if x >= m:
                return m
            if x + 1 > mean and _log_chernoff_upper(x + 1, m, law) <= log_tail:
                return int(x)
            x = math.ceil(x + step)
        step *= 2


def exp_bounds(log_value: np.ndarray, log_err: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    upper = np.exp(log_value + log_err) * (1 + EXP_MARGIN)
    lower = np.exp(log_value - log_err) * (1 - EXP_MARGIN)
    lower = np.where(lower < TINY, 0.0, lower)
    upper = np.where(upper < TINY, TINY, upper)
    return lower, upper


@lru_cache(maxsize=1024)
def binomial_window(m: int, law: BinomialLaw, tail: float) -> Window:
    """The central window of Bin(m, p) with each certified tail <= tail and certified pmf brackets."""
    require_integer("m", m, minimum=0)
    if not isinstance(law, BinomialLaw):
        raise ParameterError("law", law, "a BinomialLaw from binomial_law()")
    if not (isinstance(tail, (int, float)) and 0 < tail < 1):
        raise ParameterError("tail", tail, "0 < tail < 1")
    m = int(m)
    if law.degenerate:
        return Window(m, m, m, np.ones(1), np.ones(1), 0.0, 0.0, log_gamma(np.ones(1)))
    log_tail = math.log(tail)
    lo = 0 if m == 0 else _edge(m, law, log_tail, -1)
    hi = m if m == 0 else _edge(m, law, log_tail, +1)
    below = 0.0 if lo == 0 else math.exp(_log_chernoff_upper(lo - 1, m, law)) * (1 + EXP_MARGIN)
    above = 0.0 if hi == m else math.exp(_log_chernoff_upper(hi + 1, m, law)) * (1 + EXP_MARGIN)
    js = np.arange(lo, hi + 1, dtype=float)
    # m as one value broadcast over the window: log Gamma(m + 1) evaluated once (elementwise, the same floats as over
    # a full array of m).
    value, err, log_factorial_rest = _log_pmf_terms(np.array([float(m)]), js, law)
    lower, upper = exp_bounds(value, err)
    log_factorial_rest.setflags(write=False)
    return Window(m, lo, hi, lower, upper, below, above, log_factorial_rest)
