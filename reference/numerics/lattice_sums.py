"""Certified positive-part expectations over trinomial counts: the engine of the exact blanket bound
(`shuffle_spec.reference.bounds.blanket_exact_krr`) and of the k-RR pair lower bounds (`shuffle_spec.reference.lower_bounds.krr`).

The quantity. For counts b ~ Bin(m, p_b) and, given b, a ~ Bin(m - b, p_a), with R = m - a - b,

    G = E[(c0 a + c1 b + c2 R)_+],        c0 > 0 >= c2 >= c1.

(That is the trinomial (a, b, R) ~ Mult(m; p_a (1 - p_b), p_b, ...).) With g(a; b) = c0 a + c1 b + c2 R and
F(b) = E[g(a; b)_+ | b], G = sum_b Pr[b] F(b).

Why it can be blocked in b: F is non-increasing in b. g(a; b) decreases in b for fixed a (its b-slope is
c1 - c2 <= 0) and increases in a (slope c0 - c2 > 0), and a | b = Bin(m - b, p_a) is stochastically
non-increasing in b; so E[g_+ | b] can only fall as b grows (checked in `proofs_checks/derived/blanket_exact_krr.py`, tested on
exact instances). Rows (exact sums over a) are computed on a grid beta_0 < beta_1 < ... of b values only
(per_sd per standard deviation of b where the normal approximation puts the mass, one per sd elsewhere,
spacing capped as said below), and every b of the window gets its own certified bracket of F(b):

- monotone: F(beta_{i+1}) <= F(b) <= F(beta_i) for beta_i <= b <= beta_{i+1};
- shifted rows (upward rows): for b = beta + j, g(a; b) = g(a; beta) - j (c2 - c1) and Pr[Bin(M - j) = a] =
  Pr[Bin(M) = a] w_j(a), w_j(a) = prod_{i<j} (M - a - i)/((M - i) q) (M = m - beta), log-concave and
  non-increasing in a: with a0 the first a with a positive term, w_j(a) <= w_j(a0) e^{-sigma (a - a0)},
  sigma = j/(M - a0) <= -(log w_j)'(a0), and e^{-x} <= 1 - x + x^2/2. So F(b) <= w_j(a0) times a polynomial
  combination of the row's suffix moments sum_{a' >= a} g rel a'^k, sum_{a' >= a} rel a'^k (k = 0, 1, 2),
  one cumulative sum serving every j. From the row at beta' = b + j' the same with v(a) =
  Pr[Bin(M' + j') = a] / Pr[Bin(M') = a], log-convex and non-decreasing, e^x >= 1 + x + x^2/2, gives
  F(b) >= v(a0) sum_{a >= a0} (g(a; beta') + j' (c2 - c1)) rel (1 + x + x^2/2) over the row. Row spacing is
  capped so that the zero of g moves by at most about one sd of a between rows and x stays below about
  1/4 over a standard deviation (there these bounds lose about 1e-4 relative);
- mean plus negative part (any two rows): F(b) = E[g | b] + E[g_- | b], E[g | b] exact at every b, and
  E[g_- | b] non-decreasing in b (g falls and a falls stochastically as b grows) lies between its values at
  the two rows (summed for downward rows, F - E[g] from the row's bracket otherwise).

The tightest of these is kept; the b tails outside the window are bounded by F <= c0 m (upper) or dropped
(lower). F(beta) itself is a finite sum over a of g_+ times binomial probabilities: summed upwards from the zero of
g when that lies above the mean of a (the terms beyond the summed range are bounded by a geometric series:
the ratio pmf(a+1)/pmf(a) is non-increasing (log-concavity), so pmf(e+i) <= pmf(e) r^i and
sum_{i>=1} (g(e) + lambda i) r^i = g(e) r/(1-r) + lambda r/(1-r)^2, valid for every shift s >= 0 of g too), or
as E[g] + E[g_-] when the zero lies below the mean (E[g] in closed form, the negative part summed downwards
the same way). Whether a row really starts below every positive term (upward) or above every negative one
(downward) is verified on its first value; a row failing that is charged its cap c0 (m - beta).

Split sums (`split_positive_part`, the exact blanket bound at small n): E[(lam a + kappa s - tau r)_+] with
s ~ Bin(n, p_s), a | s ~ Bin(s, p_a), r | s ~ Bin(n - s, p_r) independent of a: no blocking at all. For each s
one row of a carries suffix sums of X pmf and pmf (X = lam a + kappa s), and each r is an exact shift of the
threshold: E[(X - t)_+] = sum_{X > t} X pmf - t sum_{X > t} pmf, t = tau r (the multinomial split behind it
is checked in `proofs_checks/derived/blanket_exact_krr.py`). The crossing index c(r) = #{X <= t(r)} is non-decreasing in r, so the
r of a row with the same c form segments (breakpoints found exactly on the float thresholds) and
sum_r w(r) (P[c] - t(r) Q[c]) = P[c] sum w - Q[c] sum w t(r) per segment, from eps-independent sums of w and w r
(t(r) bracketed by tau_end r (1 -/+ 2u')^2: a smaller threshold only raises an upper term, a larger one only
lowers a lower term). The r windows of every s are built at once, their pmf anchored by gammaln every
ANCHOR_STEP values and carried by the ratio recurrence in between (the error model below).

Floating-point model and margins (every one on the safe side):
- IEEE binary64, round to nearest: +, -, *, / carry relative error <= u = 2^-53 (normal range).
- scipy.special.gammaln at integer arguments, libm log and exp: relative error <= 1e-14 (their documented
  accuracy is a few ulps); the log-pmf margin is 1e-13 times the sum of the magnitudes of its terms, exp
  gets a 1e-12 relative margin.
- The ratio recurrence pmf(a+1) = pmf(a) (m-a)/(a+1) rho costs 2 roundings per ratio and 1 per running
  product, rho = p/q carries relative error <= e_rho: j steps from the anchor the relative error is
  <= expm1(e_anchor + (3j + 2) u' + j e_rho), u' = 1.001 u, taken with 1% extra.
- Sums of n non-negative floats: relative error <= n u' (applied as a factor). Row sums over the float ratio
  products rel (true products within rel (1 +- rel_err_j), rel_err increasing in j) are taken over rel itself
  and scaled once by 1 +- (the row's largest rel_err + 4u') when every term is non-negative.
- Values below 1e-280 are certified only as lying in [0, 1e-280].
- Binomial tails outside a window by the Chernoff bound exp(-m KL(x/m || p)), evaluated with the same
  log margin.
- Suffix (reverse cumulative) sums of L non-negative floats: relative error <= (L + 2) u'; a difference
  A - s B of two such suffixes (the threshold shift) or a polynomial combination sum_k c_k A_k is padded by
  (L + 16) u' times sum_k |c_k| (A_k + s B_k) (every term's magnitude), the float errors of the c_k included.
- The weights w_j, v: log of a ratio of binomial pmfs by gammaln, margin 1e-13 times the sum of the
  magnitudes of its terms plus |j| times the error of log q, then exp with the 1e-12 margin; a lower weight
  is capped below overflow (a smaller weight keeps a lower bound). The shift s = j (c2 - c1) is taken from
  the brackets' safe ends, rounded down (upper queries subtract it, lower queries add it).
- The exact index where a row crosses a threshold is found from the affine form of g and verified on the
  row's own float values (they are non-decreasing), else searched: the suffix used is exactly the set of
  terms on the right side of the threshold.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import mpmath
import numpy as np
from scipy.special import gammaln

from ..core.errors import ParameterError, require_integer, require_positive, require_probability
from .solver import solve_certified_epsilon  # the certified epsilon solver; re-exported where it was first defined

__all__ = ["BinomialLaw", "Coefficients", "Window", "binomial_law", "binomial_window", "positive_part_expectation", "positive_part_expectations", "split_cost", "split_positive_part", "normal_guess", "normal_elasticity", "solve_certified_epsilon", "N_STEP_LOG", "blocking_offsets", "search_start"]

UNIT = 2.0**-53
# The blocking grid (`blocking_offsets`): steps of N_STEP_LOG * N / log(1/delta) keep the blocking slack of delta
# near N_STEP_LOG (here 3%, about 0.1% in eps).
N_STEP_LOG = 0.03
U1 = 1.001 * UNIT
LOG_MARGIN = 1e-13
EXP_MARGIN = 1e-12
TINY = 1e-280
# Rows x length doubles per temporary array of the row sums (bounds the memory at n = 1e8).
CHUNK_ELEMENTS = 1 << 19
# Rows whose widths lie within this factor share a chunk of the row sums.
WIDTH_CLASS = 1.5
# Grid rows per standard deviation of b within the zone that carries the sum (`_fine_zone`), wider beyond.
PER_SD = 4
# A row is summed upwards from its zero unless that lies more than UPWARD_SD sd of a below the mean.
UPWARD_SD = 3.0
# Values of b per batch of lattice sums (bounds the memory of the per-b arrays).
QUERY_BATCH = 400_000
# Windows of at most this many b values get a row at every b.
EVERY_B_MAX = 160
# Row length past the start (or past the zero, upward rows) in sd of a | b; beyond it the geometric bound.
ROW_SD = 3.0
# Upward rows whose zero lies less than NEAR_SD sd above the mean reach ROW_SD_NEAR sd past it instead: there
# the geometric bound on the rest of the row costs about phi(x)/x of the row's sum at x sd (1e-3 at 3 sd,
# 3e-7 at 5 sd). Only tightness depends on these.
NEAR_SD = 2.0
ROW_SD_NEAR = 5.0


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


def _log_pmf(m: np.ndarray, j: np.ndarray, law: BinomialLaw) -> tuple[np.ndarray, np.ndarray]:
    """log Pr[Bin(m, p) = j] (float) and a bound on its absolute error (module doc)."""
    t1, t2, t3 = gammaln(m + 1.0), gammaln(j + 1.0), gammaln(m - j + 1.0)
    t4 = j * law.log_p
    t5 = np.where(m - j > 0, (m - j) * law.log_q, 0.0)
    value = t1 - t2 - t3 + t4 + t5
    err = LOG_MARGIN * (np.abs(t1) + np.abs(t2) + np.abs(t3) + np.abs(t4) + np.abs(t5)) + law.err * (j + np.abs(m - j)) + 1e-15
    return value, err


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


def _exp_bounds(log_value: np.ndarray, log_err: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
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
        return Window(m, m, m, np.ones(1), np.ones(1), 0.0, 0.0)
    log_tail = math.log(tail)
    lo = 0 if m == 0 else _edge(m, law, log_tail, -1)
    hi = m if m == 0 else _edge(m, law, log_tail, +1)
    below = 0.0 if lo == 0 else math.exp(_log_chernoff_upper(lo - 1, m, law)) * (1 + EXP_MARGIN)
    above = 0.0 if hi == m else math.exp(_log_chernoff_upper(hi + 1, m, law)) * (1 + EXP_MARGIN)
    js = np.arange(lo, hi + 1, dtype=float)
    value, err = _log_pmf(np.full_like(js, float(m)), js, law)
    lower, upper = _exp_bounds(value, err)
    return Window(m, lo, hi, lower, upper, below, above)


@dataclass(frozen=True)
class Coefficients:
    """[lo, hi] brackets of c0 > 0 >= c2 >= c1 (module doc)."""

    c0: tuple[float, float]
    c1: tuple[float, float]
    c2: tuple[float, float]

    def magnitude(self) -> float:
        return max(abs(v) for pair in (self.c0, self.c1, self.c2) for v in pair)


def _g(c: Coefficients, a: np.ndarray, b: np.ndarray, m: float | np.ndarray, upper: bool) -> np.ndarray:
    """g(a; b) = c0 a + c1 b + c2 (m - a - b) rounded to the safe side (a, b, R >= 0, so each coefficient's
    end decides; the float evaluation error <= 4u' times the sum of the magnitudes)."""
    i = 1 if upper else 0
    r = m - a - b
    value = c.c0[i] * a + c.c1[i] * b + c.c2[i] * r
    pad = 4 * U1 * (abs(c.c0[i]) * a + abs(c.c1[i]) * b + abs(c.c2[i]) * r) + 1e-300
    rounded: np.ndarray = value + pad if upper else value - pad
    return rounded


def _log_ratio(m_from: np.ndarray, m_to: np.ndarray, a: np.ndarray, law: BinomialLaw) -> tuple[np.ndarray, np.ndarray]:
    """log(Pr[Bin(m_to, p) = a] / Pr[Bin(m_from, p) = a]) = log(m_to!/(m_to-a)!) - log(m_from!/(m_from-a)!)
    + (m_to - m_from) log q (0 <= a <= min(m_from, m_to)), and a bound on its absolute error (module doc)."""
    t1, t2 = gammaln(m_to + 1.0), gammaln(m_to - a + 1.0)
    t3, t4 = gammaln(m_from + 1.0), gammaln(m_from - a + 1.0)
    t5 = (m_to - m_from) * law.log_q
    value = t1 - t2 - t3 + t4 + t5
    err = LOG_MARGIN * (np.abs(t1) + np.abs(t2) + np.abs(t3) + np.abs(t4) + np.abs(t5)) + law.err * np.abs(m_to - m_from) + 1e-15
    return value, err


def _mean_g(c: Coefficients, m: np.ndarray, b: np.ndarray, law_a: BinomialLaw) -> tuple[np.ndarray, np.ndarray]:
    """[lo, hi] of E[g | b] = (c0 - c2) E[a] + c1 b + c2 (m - b), E[a] = (m - b) p_a."""
    mean = (m - b) * law_a.p
    mean_hi = mean * (1 + law_a.err + 2 * U1)
    mean_lo = mean * (1 - law_a.err - 2 * U1)
    # Each term bounded on its own: c2 <= 0 multiplies R = m - b - E[a] >= 0.
    eg_hi = c.c0[1] * mean_hi + c.c1[1] * b + c.c2[1] * (m - b - mean_hi)
    eg_lo = c.c0[0] * mean_lo + c.c1[0] * b + c.c2[0] * (m - b - mean_lo)
    pad = 8 * U1 * (c.magnitude() * (mean_hi + b + m)) + 1e-300
    return eg_lo - pad, eg_hi + pad


def _count_at_most(values: np.ndarray, rows: np.ndarray, threshold: np.ndarray, estimate: np.ndarray) -> np.ndarray:
    """For each query q: the number of entries of the non-decreasing row values[rows[q]] that are <= threshold[q]
    (exact: `estimate`, the real index where the row crosses the threshold, only says where to look; each
    answer is verified on its two neighbours, else found in a window around the estimate, else searched)."""
    length = values.shape[1]
    flat = values.ravel()
    offset = rows * length
    guess = np.clip(np.floor(np.nan_to_num(estimate, nan=0.0, posinf=float(length), neginf=-1.0)) + 1.0, 0.0, float(length)).astype(np.int64)
    ok = ((guess == 0) | (np.take(flat, offset + np.maximum(guess - 1, 0)) <= threshold)) & (
        (guess == length) | (np.take(flat, offset + np.minimum(guess, length - 1)) > threshold)
    )
    count: np.ndarray = guess
    retry = np.nonzero(~ok)[0]
    if len(retry) == 0:
        return count
    r_rows, r_thr, r_off = rows[retry], threshold[retry], offset[retry]
    base = np.clip(guess[retry] - 3, 0, length)
    found = base.copy()
    for i in range(5):
        col = base + i
        found += (col < length) & (np.take(flat, r_off + np.minimum(col, length - 1)) <= r_thr)
    before_ok = (base == 0) | (np.take(flat, r_off + np.maximum(base - 1, 0)) <= r_thr)
    after = base + 5
    after_ok = (after >= length) | (np.take(flat, r_off + np.minimum(after, length - 1)) > r_thr)
    # Rows entirely above or at most the threshold (e.g. flat where a is clipped at m - beta) need no search.
    all_at_most = np.take(flat, r_off + length - 1) <= r_thr
    none_at_most = np.take(flat, r_off) > r_thr
    found = np.where(all_at_most, length, np.where(none_at_most, 0, found))
    for q in np.nonzero(~(before_ok & after_ok) & ~all_at_most & ~none_at_most)[0]:
        found[q] = int(np.searchsorted(values[r_rows[q]], r_thr[q], side="right"))
    count[retry] = found
    return count


@dataclass(frozen=True)
class _Queries:
    """Per b of a window: the row (grid point beta <= b) bounding F(b) from above, shift j = b - beta >= 0, and
    the row (beta' >= b) bounding it from below, shift j' = beta' - b >= 0."""

    up_row: np.ndarray
    up_shift: np.ndarray
    lo_row: np.ndarray
    lo_shift: np.ndarray


def _row_bounds(ms: np.ndarray, betas: np.ndarray, back: np.ndarray, law_a: BinomialLaw, c: Coefficients, queries: _Queries) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Certified bounds on F(beta) = E[g(a; beta)_+ | b = beta], a ~ Bin(m - beta, p_a), per row (m, beta), and
    on F(b) for the b between rows (`queries`): (row_lo, row_hi, query_hi, query_lo).

    Between rows (upward rows, module doc "shifted rows"): for b = beta + j, g(a; b) = g(a; beta) - j (c2 - c1)
    and Pr[Bin(M - j, p) = a] = Pr[Bin(M, p) = a] w_j(a) with w_j(a) = prod_{i<j} (M - a - i) / ((M - i) q)
    non-increasing in a (M = m - beta); so F(b) <= w_j(a_j) E_M[(g(a; beta) - j (c2 - c1))_+], a_j the first a
    with a positive term; the sum is a suffix sum of the row (one cumulative sum serves every j). For
    b = beta' - j' the row at beta' gives F(b) >= v(a_j') E_M'[(g(a; beta') + j' (c2 - c1))_+] over the row's
    terms, v(a) = Pr[Bin(M' + j') = a] / Pr[Bin(M') = a] non-decreasing in a. A query on a downward row (or one
    whose shifted bound is not finite) takes the row's own value: F is non-increasing in b."""
    n_rows = len(ms)
    row_lo = np.zeros(n_rows)
    row_hi = np.zeros(n_rows)
    n_up, n_lo = len(queries.up_row), len(queries.lo_row)
    query_hi = np.full(n_up, np.inf)
    query_lo = np.zeros(n_lo)
    ma = ms - betas
    cap = np.maximum(c.c0[1] * ma * (1 + 4 * U1), 0.0)  # F <= max_a g_+ <= c0 (m - beta)
    if law_a.degenerate:  # a = m - beta exactly, R = 0: no rows needed
        row_lo = np.maximum(_g(c, ma, betas, ms, False), 0.0)
        row_hi = np.maximum(_g(c, ma, betas, ms, True), 0.0)
        return row_lo, row_hi, row_hi[queries.up_row], row_lo[queries.lo_row]
    p = law_a.p
    mean = ma * p
    sd = np.sqrt(np.maximum(ma * p * (1 - p), 0.0))
    slope_hi = c.c0[1] - c.c2[0]
    slope_lo = c.c0[0] - c.c2[1]
    # The b-slope of g, a lower bound on c2 - c1 >= 0 (differences and products rounded down).
    shift_unit = max((c.c2[0] - c.c1[1]) * (1 - 2 * U1), 0.0) * (1 - 2 * U1)
    # The zero of g (within the brackets): a* = -(c1 beta + c2 (m - beta)) / (c0 - c2); start one below. Whether a
    # row really starts below every positive term (upward) or above every negative one (downward) is verified
    # on its first value below; a row failing that is charged its cap.
    kappa_hi = c.c1[1] * betas + c.c2[1] * (ms - betas)
    zero = np.where(kappa_hi >= 0, 0.0, -kappa_hi / max(slope_hi, 1e-300))
    unshifted_start = np.clip(np.floor(zero * (1 - 1e-9)) - 2.0, 0.0, ma)
    # Rows also serve b up to `back` below them (g larger by up to back (c2 - c1)): they start that much lower.
    back_a = back * (c.c2[1] - c.c1[0]) / max(slope_lo, 1e-300)
    start_up = np.clip(np.floor((zero - back_a) * (1 - 1e-9)) - 2.0, 0.0, ma)
    start_down = np.clip(np.ceil(zero * (1 + 1e-9)) + 2.0, 0.0, ma)
    # Upward rows (shifted bounds between them) unless the zero is more than UPWARD_SD sd below the mean.
    upward = unshifted_start >= mean - UPWARD_SD * sd
    # Downward rows: bounds on E[g_-] (non-decreasing in b: g falls and a | b falls stochastically as b grows).
    neg_lo = np.zeros(n_rows)
    neg_hi = np.full(n_rows, np.inf)
    reach = np.where(upward & (unshifted_start < mean + NEAR_SD * sd), ROW_SD_NEAR, ROW_SD) * sd
    for direction in (+1, -1):
        all_rows = np.nonzero(upward if direction > 0 else ~upward)[0]
        if len(all_rows) == 0:
            continue
        # Chunks of rows bound the memory (rows x length doubles per temporary).
        span = (np.maximum(unshifted_start[all_rows], mean[all_rows]) - start_up[all_rows]) if direction > 0 else np.zeros(len(all_rows))
        width = reach[all_rows] + np.abs(span) + 16.0
        # Rows of similar width share a chunk (a chunk's arrays are as wide as its widest row): width classes
        # a factor WIDTH_CLASS apart, each cut to CHUNK_ELEMENTS.
        width_class = np.floor(np.log(np.maximum(width, 1.0)) / math.log(WIDTH_CLASS)).astype(np.int64)
        chunks = []
        for value in np.unique(width_class):
            members = all_rows[width_class == value]
            per_chunk = max(1, int(CHUNK_ELEMENTS // max(float(np.max(width[width_class == value])), 1.0)))
            chunks += [members[i : i + per_chunk] for i in range(0, len(members), per_chunk)]
        for rows in chunks:
            _direction_rows(direction, rows, ms, betas, ma, mean, reach, start_up, start_down, unshifted_start, law_a, c, slope_hi, shift_unit, queries, row_lo, row_hi, query_hi, query_lo, neg_lo, neg_hi)
    row_hi = np.minimum(np.where(np.isfinite(row_hi), row_hi, cap), np.maximum(cap, 0.0))
    row_lo = np.minimum(row_lo, row_hi)
    # Between any two rows: F(b) = E[g | b] + E[g_- | b], the mean exact at b, the negative part between its
    # values at the two rows (it is non-decreasing in b: g falls and a | b falls stochastically as b grows).
    # A row's negative part: summed (downward rows), or F - E[g] from its bounds (any row).
    row_eg_lo, row_eg_hi = _mean_g(c, ms, betas, law_a)
    with np.errstate(invalid="ignore"):
        neg_hi = np.minimum(neg_hi, np.maximum(row_hi - row_eg_lo, 0.0) * (1 + 2 * U1))
    neg_lo = np.maximum(neg_lo, np.maximum(row_lo - row_eg_hi, 0.0) / (1 + 2 * U1))
    rows_left, rows_right = queries.up_row, queries.lo_row
    b = betas[rows_left] + queries.up_shift
    eg_lo, eg_hi = _mean_g(c, ms[rows_left], b, law_a)
    with np.errstate(invalid="ignore"):
        query_hi = np.minimum(query_hi, np.maximum(eg_hi + neg_hi[rows_right], 0.0) * (1 + 2 * U1))
    query_lo = np.maximum(query_lo, np.maximum(eg_lo + neg_lo[rows_left], 0.0) / (1 + 2 * U1))
    # Monotonicity: F(beta + j) <= F(beta), F(beta' - j') >= F(beta'); either bound is valid, keep the better.
    query_hi = np.minimum(np.where(np.isfinite(query_hi), query_hi, np.inf), row_hi[queries.up_row])
    query_lo = np.maximum(np.where(np.isfinite(query_lo), query_lo, 0.0), row_lo[queries.lo_row])
    return row_lo, row_hi, query_hi, query_lo


def _direction_rows(
    direction: int, rows: np.ndarray, ms: np.ndarray, betas: np.ndarray, ma_all: np.ndarray, mean_all: np.ndarray, reach_all: np.ndarray,
    start_up: np.ndarray, start_down: np.ndarray, unshifted_start: np.ndarray, law_a: BinomialLaw, c: Coefficients, slope_hi: float, shift_unit: float, queries: _Queries,
    row_lo: np.ndarray, row_hi: np.ndarray, query_hi: np.ndarray, query_lo: np.ndarray, neg_lo: np.ndarray, neg_hi: np.ndarray,
) -> None:
    """One chunk of upward (+1) or downward (-1) rows of `_row_bounds` (results written in place)."""
    beta, m_row, m_a = betas[rows], ms[rows], ma_all[rows]
    first = start_up[rows] if direction > 0 else start_down[rows]  # downward: a = start_down, start_down - 1, ...
    # Upward rows reach ROW_SD sd past the unshifted zero (or the mean, whichever is higher) however far below
    # it they start (their back span): past the mode, so that the geometric bound applies.
    span = np.maximum(np.maximum(unshifted_start[rows], mean_all[rows]) - first, 0.0) if direction > 0 else np.zeros(len(rows))
    length = int(math.ceil(float(np.max(reach_all[rows] + span, initial=0.0)))) + 16
    steps = np.arange(length, dtype=float)
    err_steps = (3.0 * steps + 2.0) * U1 + steps * law_a.err
    anchor, anchor_err = _log_pmf(m_a, first, law_a)
    a = first[:, None] + direction * steps[None, :]
    inside = (a >= 0) & (a <= m_a[:, None])
    a_safe = np.clip(a, 0.0, m_a[:, None])
    if direction > 0:
        ratio = (m_a[:, None] - a_safe[:, :-1]) / (a_safe[:, :-1] + 1.0) * law_a.rho
    else:
        ratio = a_safe[:, :-1] / ((m_a[:, None] - a_safe[:, :-1] + 1.0) * law_a.rho)
    everywhere = bool(np.all(inside))
    if not everywhere:
        ratio = np.where(inside[:, 1:], ratio, 0.0)
    rel = np.empty((len(rows), length))
    rel[:, 0] = 1.0
    with np.errstate(under="ignore"):
        np.cumprod(ratio, axis=1, out=rel[:, 1:])
    # The error bound of every row at once: the largest anchor error of the chunk (a larger error is still a bound).
    rel_err = np.expm1(float(np.max(anchor_err, initial=0.0)) + err_steps) * 1.01
    small = rel < TINY
    if np.any(small):
        rel_hi = rel * (1 + rel_err)
        rel_lo = rel * (1 - rel_err)
        rel_hi[small] = 2 * TINY  # an underflowed ratio is < TINY (1 + err) + 2^-1074
        rel_lo[small] = 0.0
        if not everywhere:
            rel_hi = np.where(inside, rel_hi, 0.0)
            rel_lo = np.where(inside, rel_lo, 0.0)
        scale_hi = scale_lo = 1.0
    else:
        # The true ratio products lie in rel (1 +- rel_err) with rel_err increasing along the row: every sum of
        # non-negative terms below uses rel itself and is scaled by 1 +- (its largest rel_err + 4u') at the end
        # (rel is already 0 past the row's end: its ratio there is 0).
        rel_hi = rel_lo = rel
        scale_hi = 1 + float(rel_err[-1]) + 4 * U1
        scale_lo = 1 - float(rel_err[-1]) - 4 * U1
    # g_hi(a) = (c0_hi - c2_hi) a + (c1_hi - c2_hi) beta + c2_hi m (= c0_hi a + c1_hi b + c2_hi R exactly),
    # evaluated per row as an affine function; its float error <= 12 u' max|c| m.
    pad = 12 * U1 * c.magnitude() * m_row + 1e-300
    lam_hi, lam_lo = c.c0[1] - c.c2[1], c.c0[0] - c.c2[0]
    k_hi = (c.c1[1] - c.c2[1]) * beta + c.c2[1] * m_row + pad
    k_lo = (c.c1[0] - c.c2[0]) * beta + c.c2[0] * m_row - pad
    g_hi = lam_hi * a_safe + k_hi[:, None]
    g_lo = lam_lo * a_safe + k_lo[:, None]
    if direction > 0:
        w_hi, w_lo = np.maximum(g_hi, 0.0), np.maximum(g_lo, 0.0)
        # Every positive term lies in the row: its first point has g_hi <= 0 (or is a = 0).
        starts_ok = (first <= 0) | (g_hi[:, 0] <= 0)
    else:
        w_hi, w_lo = np.maximum(-g_lo, 0.0), np.maximum(-g_hi, 0.0)
        # Every negative term lies in the row: its first point has g_lo >= 0 (or is a = m - beta).
        starts_ok = (first >= m_a) | (g_lo[:, 0] >= 0)
    sum_factor = 1 + (length + 2) * U1
    s_hi = np.sum(w_hi * rel_hi, axis=1) * (sum_factor * scale_hi)
    s_lo = np.sum(w_lo * rel_lo, axis=1) / sum_factor * scale_lo
    # Remainder beyond the last summed point e (geometric bound, module doc).
    last = a[:, -1]
    more = (last < m_a) if direction > 0 else (last > 0)
    if direction > 0:
        r_end = (m_a - last) / (last + 1.0) * law_a.rho
    else:
        r_end = np.where(last > 0, last / ((m_a - last + 1.0) * law_a.rho), 0.0)
    r_end = r_end * (1 + 4 * U1 + law_a.err)
    w_end = w_hi[:, -1]
    rel_end = rel_hi[:, -1] * scale_hi
    ok = r_end < 1
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        geometric = rel_end * (w_end * r_end / (1 - r_end) + slope_hi * r_end / (1 - r_end) ** 2)
    # No geometric bound (the end is not past the mode): the row is charged its cap (F <= max g_+).
    remainder = np.where(more, np.where(ok, geometric, np.inf), 0.0) * (1 + 8 * U1)
    s_hi = s_hi + remainder
    lo_anchor, hi_anchor = _exp_bounds(anchor, anchor_err)
    with np.errstate(over="ignore", invalid="ignore"):
        part_hi = np.where(s_hi > 0, hi_anchor * s_hi, 0.0) * (1 + 4 * U1)
    part_lo = lo_anchor * s_lo / (1 + 4 * U1)
    if direction < 0:
        # E[g_+] = E[g] + E[g_-]; E[g] = (c0 - c2) E[a] + c1 beta + c2 (m - beta), E[a] = (m - beta) p.
        eg_lo, eg_hi = _mean_g(c, m_row, beta, law_a)
        neg_hi[rows] = np.where(starts_ok, part_hi, np.inf)
        neg_lo[rows] = part_lo
        part_hi = np.maximum(eg_hi + part_hi, 0.0) * (1 + 2 * U1)
        part_lo = np.maximum(eg_lo + part_lo, 0.0) / (1 + 2 * U1)
    part_hi = np.where(starts_ok, part_hi, np.inf)
    part_lo = np.where(starts_ok, part_lo, 0.0)
    row_hi[rows] = part_hi
    row_lo[rows] = part_lo
    if direction < 0:
        return
    # Shifted rows (upward only, module doc "shifted rows"): suffix moments P_k = sum_{t' >= t} g rel t'^k and
    # Q_k = sum_{t' >= t} rel t'^k, k = 0, 1, 2 (a zero column at the end), for g_hi rel_hi (upper queries) and
    # g_lo rel_lo (lower queries). Sums of non-negative terms on the suffixes used: relative error <= (length + 2) u'.
    position = np.full(len(ms), -1, dtype=np.int64)
    position[rows] = np.arange(len(rows))
    powers = (None, steps, steps * steps)

    def suffix(values: np.ndarray) -> list[np.ndarray]:
        sums = []
        for power in powers:
            out = np.empty((len(rows), length + 1))
            out[:, length] = 0.0
            np.cumsum((values if power is None else values * power)[:, ::-1], axis=1, out=out[:, length - 1 :: -1])
            sums.append(out)
        return sums

    q_plain = suffix(rel) if rel_hi is rel else None  # serves both query sides when no ratio underflowed

    pad_factor = (length + 16) * U1
    sel = np.nonzero(position[queries.up_row] >= 0)[0]
    if len(sel):
        # F(beta + j) <= hi_anchor w_j(a0) sum_{t >= idx} (g_hi - s) rel_hi (1 - x + x^2/2) + remainder, with
        # s <= j (c2 - c1), a0 = the first a with a positive term, x = sigma (a - a0), sigma = j / (M - a0) <=
        # -(log w_j)'(a0) (log w_j is concave: its tangent lies above it; e^-x <= 1 - x + x^2/2 for x >= 0).
        p_up, q_up = suffix(g_hi * rel_hi), (q_plain if q_plain is not None else suffix(rel_hi))
        local = position[queries.up_row[sel]]
        j = queries.up_shift[sel]
        s = j * shift_unit * (1 - 2 * U1)
        idx = _count_at_most(g_hi, local, s, (s - k_hi[local]) / lam_hi - first[local])
        a_first = first[local] + idx
        m_from = m_a[local]
        m_to = m_from - j
        reach = a_first <= m_to
        with np.errstate(divide="ignore", invalid="ignore"):
            sigma = np.where(reach & (j > 0), j / np.maximum(m_from - a_first, 1.0), 0.0) * (1 - 4 * U1)
        ci = idx.astype(float)
        coef = (1 + sigma * ci + sigma * sigma * ci * ci / 2, -(sigma + sigma * sigma * ci), sigma * sigma / 2)
        poly = np.zeros(len(sel))
        size = np.zeros(len(sel))
        for kk in range(3):
            big_p, big_q = p_up[kk][local, idx], q_up[kk][local, idx]
            poly += coef[kk] * (big_p - s * big_q)
            size += np.abs(coef[kk]) * (big_p + s * big_q)
        # Every term of the combination is non-negative ((g_hi - s) > 0 and 1 - x + x^2/2 > 0): the plain-rel sum
        # times scale_hi bounds the sum with the ratio products' upper ends.
        h = np.maximum(poly + pad_factor * size, 0.0) * scale_hi + remainder[local]
        log_w, log_w_err = _log_ratio(m_from, m_to, np.minimum(a_first, m_to), law_a)
        with np.errstate(over="ignore", invalid="ignore"):
            weight = np.where(reach, np.exp(log_w + log_w_err) * (1 + EXP_MARGIN), 0.0)
            bound = np.where(h > 0, hi_anchor[local] * weight * h, 0.0) * (1 + 6 * U1)
        query_hi[sel] = np.where(starts_ok[local] & np.isfinite(bound), bound, np.inf)
    sel = np.nonzero(position[queries.lo_row] >= 0)[0]
    if len(sel):
        # F(beta' - j') >= lo_anchor v(a0) sum_{t >= idx} (g_lo + s') rel_lo (1 + x + x^2/2) over the row, with
        # s' <= j' (c2 - c1), x = sigma (a - a0), sigma = j' / (M' - a0 + j') <= (log v)'(a0) (log v is convex:
        # its tangent lies below it; e^x >= 1 + x + x^2/2 for x >= 0). Every term is non-negative.
        p_dn, q_dn = suffix(g_lo * rel_lo), (q_plain if q_plain is not None else suffix(rel_lo))
        local = position[queries.lo_row[sel]]
        j = queries.lo_shift[sel]
        s = j * shift_unit * (1 - 2 * U1)
        idx = _count_at_most(g_lo, local, -s, (-s - k_lo[local]) / lam_lo - first[local])
        a_first = np.minimum(first[local] + idx, m_a[local])
        sigma = j / (m_a[local] - a_first + j + 1.0) * (1 - 4 * U1)
        ci = idx.astype(float)
        coef = (1 - sigma * ci + sigma * sigma * ci * ci / 2, sigma - sigma * sigma * ci, sigma * sigma / 2)
        poly = np.zeros(len(sel))
        size = np.zeros(len(sel))
        for kk in range(3):
            value = p_dn[kk][local, idx] + s * q_dn[kk][local, idx]
            poly += coef[kk] * value
            size += np.abs(coef[kk]) * value
        h = np.maximum(poly - pad_factor * size, 0.0) * scale_lo  # non-negative terms (g_lo + s' >= 0)
        log_v, log_v_err = _log_ratio(m_a[local], m_a[local] + j, a_first, law_a)
        with np.errstate(under="ignore"):  # a smaller weight keeps a lower bound: capped below overflow
            weight = np.exp(np.minimum(log_v - log_v_err, 700.0)) * (1 - EXP_MARGIN)
        bound = lo_anchor[local] * weight * h / (1 + 6 * U1)
        query_lo[sel] = np.where(starts_ok[local], bound, 0.0)


@dataclass(frozen=True)
class _Plan:
    """The eps-independent layout of a batch of lattice sums (one group per m): rows (m, beta), and per b of each
    group's window its probability bracket and the rows bounding F(b) (`_Queries`)."""

    ms: np.ndarray
    betas: np.ndarray
    back: np.ndarray
    queries: _Queries
    group: np.ndarray
    p_lo: np.ndarray
    p_hi: np.ndarray
    group_m: np.ndarray
    group_size: np.ndarray
    below: np.ndarray
    above: np.ndarray
    last_query: np.ndarray


def _grid_offsets(size: int, mean: float, sd: float, per_sd: int, max_step: int, zone: tuple[float, float]) -> np.ndarray:
    """Row offsets in a window of `size` points: per_sd per standard deviation of b within `zone` (in sd of b
    from its mean: where P(b) F(b) is carried), one per sd elsewhere, and never more than max_step apart
    (the shift of the zero of g between rows stays within about one sd of a). The grid only decides how
    tight the bounds are, never whether they hold."""
    fine = max(1, min(int(sd // per_sd), max_step))
    coarse = max(fine, min(int(sd), 4 * max_step))
    points = [0]
    x = 0
    while x < size - 1:
        z = (x - mean) / max(sd, 1e-300)
        x = min(size - 1, x + (fine if zone[0] <= z <= zone[1] else coarse))
        points.append(x)
    return np.array(points, dtype=np.int64)


@lru_cache(maxsize=4)
def _plan(
    ms: tuple[int, ...], law_b: BinomialLaw, tail: float, per_sd: int, every_b: bool, sd_a_unit: float = math.inf, tangent_unit: float = math.inf,
    zone: tuple[float, float] = (-12.0, 3.0),
) -> _Plan:
    """The layout for `ms`: sqrt(m q_b) times sd_a_unit (the zero's shift) and times tangent_unit (the
    curvature of the binomial weights) bound the row spacing (`_grid_offsets`)."""
    row_m: list[np.ndarray] = []
    row_beta: list[np.ndarray] = []
    row_back: list[np.ndarray] = []
    up_row: list[np.ndarray] = []
    up_shift: list[np.ndarray] = []
    lo_row: list[np.ndarray] = []
    lo_shift: list[np.ndarray] = []
    group: list[np.ndarray] = []
    p_lo: list[np.ndarray] = []
    p_hi: list[np.ndarray] = []
    sizes, below, above, last = [], [], [], []
    n_rows = n_queries = 0
    for g_index, m in enumerate(ms):
        window = binomial_window(m, law_b, tail)
        size = window.hi - window.lo + 1
        sd_b = math.sqrt(max(m * law_b.p * (1 - law_b.p), 0.0))
        scale = math.sqrt(max(m * (1 - law_b.p), 0.0))
        max_step = int(min(max(scale * sd_a_unit, 1.0), max(scale * tangent_unit, 1.0), 1e15))
        # Small windows: a row at every b (cheap, and no slack at all).
        offsets = np.arange(size, dtype=np.int64) if every_b or size <= EVERY_B_MAX else _grid_offsets(size, m * law_b.p - window.lo, sd_b, per_sd, max_step, zone)
        positions = np.arange(size, dtype=np.int64)
        left = np.searchsorted(offsets, positions, side="right") - 1  # largest offset <= position
        right = np.searchsorted(offsets, positions, side="left")  # smallest offset >= position
        back = np.zeros(len(offsets))
        back[1:] = np.diff(offsets) - 1
        row_m.append(np.full(len(offsets), float(m)))
        row_beta.append((window.lo + offsets).astype(float))
        row_back.append(back)
        up_row.append(n_rows + left)
        up_shift.append((positions - offsets[left]).astype(float))
        lo_row.append(n_rows + right)
        lo_shift.append((offsets[right] - positions).astype(float))
        group.append(np.full(size, g_index, dtype=np.int64))
        p_lo.append(window.lower)
        p_hi.append(window.upper)
        sizes.append(size)
        below.append(window.below)
        above.append(window.above)
        n_queries += size
        last.append(n_queries - 1)
        n_rows += len(offsets)
    queries = _Queries(np.concatenate(up_row), np.concatenate(up_shift), np.concatenate(lo_row), np.concatenate(lo_shift))
    return _Plan(
        np.concatenate(row_m), np.concatenate(row_beta), np.concatenate(row_back), queries, np.concatenate(group),
        np.concatenate(p_lo), np.concatenate(p_hi), np.array(ms, dtype=float), np.array(sizes, dtype=float),
        np.array(below), np.array(above), np.array(last, dtype=np.int64),
    )


def _fine_zone(m_min: int, m_max: int, law_b: BinomialLaw, law_a: BinomialLaw, c: Coefficients) -> tuple[float, float]:
    """Where P(b) F(b) is carried, in sd of b from its mean: around E[b | g = 0] of the normal approximation
    (the counts are Mult(m; p_b, (1 - p_b) p_a, (1 - p_b)(1 - p_a))), -6 to +4 sd, rounded to halves so that
    the layout stays cached across nearby eps. Only tightness depends on it; (-12, 3) when degenerate."""
    pi = (law_b.p, (1 - law_b.p) * law_a.p, (1 - law_b.p) * (1 - law_a.p))
    coef = (0.5 * (c.c1[0] + c.c1[1]), 0.5 * (c.c0[0] + c.c0[1]), 0.5 * (c.c2[0] + c.c2[1]))
    mean1 = sum(p * x for p, x in zip(pi, coef, strict=True))
    var1 = sum(p * x * x for p, x in zip(pi, coef, strict=True)) - mean1 * mean1
    var_b = pi[0] * (1 - pi[0])
    if not (var1 > 0 and var_b > 0):
        return (-12.0, 3.0)
    cov1 = pi[0] * coef[0] - pi[0] * mean1
    centres = [-cov1 * mean1 * math.sqrt(m) / (var1 * math.sqrt(var_b)) for m in (m_min, m_max)]
    low, high = min(centres), max(centres)
    if not (math.isfinite(low) and math.isfinite(high)):
        return (-12.0, 3.0)
    return (math.floor(2 * (low - 6.0)) / 2, math.ceil(2 * (high + 4.0)) / 2)


def positive_part_expectations(ms: list[int], law_b: BinomialLaw, law_a: BinomialLaw, c: Coefficients, *, tail: float, per_sd: int = PER_SD) -> tuple[np.ndarray, np.ndarray]:
    """[lower, upper] (arrays, one entry per m) containing G(m) = E[(c0 a + c1 b + c2 (m - a - b))_+],
    b ~ Bin(m, p_b), a | b ~ Bin(m - b, p_a), for every m in `ms` (module doc), computed in one batch.
    `tail`: the b mass outside the summed window (each side); `per_sd`: grid rows per standard deviation of b
    (how tight the blocking is). Range: integers m >= 0, c0 > 0 >= c2 >= c1."""
    if not isinstance(c, Coefficients):
        raise ParameterError("coefficients", c, "a lattice_sums.Coefficients")
    require_integer("per_sd", per_sd, minimum=1)
    if not isinstance(law_b, BinomialLaw) or not isinstance(law_a, BinomialLaw):
        raise ParameterError("law", (law_b, law_a), "BinomialLaws from binomial_law()")
    if not (isinstance(tail, (int, float)) and 0 < tail < 1):
        raise ParameterError("tail", tail, "0 < tail < 1")
    for m in ms:
        require_integer("m", m, minimum=0)
    if not (c.c0[0] > 0 and c.c2[1] <= 0 and c.c1[1] <= c.c2[0]):
        raise ParameterError("coefficients", c, "c0 > 0 >= c2 >= c1 (the blocking needs F non-increasing in b)")
    total_lo = np.zeros(len(ms))
    total_hi = np.zeros(len(ms))
    nonzero = [i for i, m in enumerate(ms) if int(m) > 0]
    if not nonzero:
        return total_lo, total_hi
    # Row spacing: the zero of g moves by (c2 - c1)/(c0 - c2) values of a per unit of b; keep that within one sd
    # of a | b (sd = sqrt((m - b) p_a q_a), m - b ~ m q_b). A power of two keeps the layout cached across eps.
    ratio = (c.c0[0] - c.c2[1]) / max(c.c2[1] - c.c1[0], 1e-300)
    sd_a_unit = 2.0 ** math.floor(math.log2(max(ratio * math.sqrt(law_a.p * (1 - law_a.p)), 1e-300))) if not law_a.degenerate else 1.0
    # And keep the weights' exponent sigma (a - a0) ~ j sd_a / (M q_a) below about 1/4 over a standard deviation
    # (j <= sqrt(M q_a / p_a) / 4), where the quadratic bound on e^-x is tight.
    tangent_unit = 2.0 ** math.floor(math.log2(max(0.25 * math.sqrt((1 - law_a.p) / law_a.p), 1e-300))) if not law_a.degenerate else 1.0
    chosen = [int(ms[i]) for i in nonzero]
    zone = _fine_zone(min(chosen), max(chosen), law_b, law_a, c)
    # Batches of groups with at most QUERY_BATCH values of b in all: the memory stays bounded (one batch's
    # per-b arrays and one chunk of rows at a time).
    batches: list[list[int]] = [[]]
    load = 0
    for position, m in enumerate(chosen):
        window = binomial_window(m, law_b, float(tail))
        size = window.hi - window.lo + 1
        if batches[-1] and load + size > QUERY_BATCH:
            batches.append([])
            load = 0
        batches[-1].append(position)
        load += size
    for batch in batches:
        batch_ms = tuple(chosen[i] for i in batch)
        lo, hi = _batch_expectations(batch_ms, law_b, law_a, c, float(tail), int(per_sd), min(sd_a_unit, 2.0**60), min(tangent_unit, 2.0**60), zone)
        for j, position in enumerate(batch):
            total_lo[nonzero[position]] = lo[j]
            total_hi[nonzero[position]] = hi[j]
    return total_lo, total_hi


def _batch_expectations(
    ms: tuple[int, ...], law_b: BinomialLaw, law_a: BinomialLaw, c: Coefficients, tail: float, per_sd: int, sd_a_unit: float, tangent_unit: float, zone: tuple[float, float]
) -> tuple[np.ndarray, np.ndarray]:
    """`positive_part_expectations` for one batch of groups (all m >= 1)."""
    plan = _plan(ms, law_b, tail, per_sd, law_a.degenerate, sd_a_unit, tangent_unit, zone)
    _, _, f_hi, f_lo = _row_bounds(plan.ms, plan.betas, plan.back, law_a, c, plan.queries)
    groups = len(plan.group_m)
    # Sums of non-negative terms per group (relative error <= (size + 4) u'); b below the window: F <= c0 m;
    # above it: F <= F(window.hi).
    factor = 1 + (plan.group_size + 4) * U1
    hi = np.bincount(plan.group, weights=plan.p_hi * f_hi, minlength=groups) * factor
    hi = hi + plan.above * f_hi[plan.last_query] * (1 + 4 * U1)
    hi = hi + plan.below * max(c.c0[1], 0.0) * plan.group_m * (1 + 4 * U1)
    lo = np.bincount(plan.group, weights=plan.p_lo * f_lo, minlength=groups) / factor
    return np.maximum(np.minimum(lo, hi), 0.0), hi


def positive_part_expectation(m: int, law_b: BinomialLaw, law_a: BinomialLaw, c: Coefficients, *, tail: float, per_sd: int = PER_SD) -> tuple[float, float]:
    """[lower, upper] containing G = E[(c0 a + c1 b + c2 (m - a - b))_+], b ~ Bin(m, p_b), a | b ~ Bin(m - b, p_a)
    (module doc). `tail`: the b mass outside the summed window (each side); `per_sd`: grid rows per standard
    deviation of b (how tight the blocking is). Range: integer m >= 0, c0 > 0 >= c2 >= c1."""
    require_integer("m", m, minimum=0)
    lo, hi = positive_part_expectations([int(m)], law_b, law_a, c, tail=tail, per_sd=per_sd)
    return float(lo[0]), float(hi[0])


@dataclass(frozen=True)
class _SplitPlan:
    """The eps-independent layout of `split_positive_part`: the s window and, per s, the window of r (flat,
    row after row: r, its pmf bracket, and r times it; `r_start` the flat index of each row's first r)."""

    s: np.ndarray
    s_lo: np.ndarray
    s_hi: np.ndarray
    s_below: float
    s_above: float
    s_first: int
    r: np.ndarray
    r_group: np.ndarray
    r_lo: np.ndarray
    r_hi: np.ndarray
    r_sizes: np.ndarray
    r_below: np.ndarray
    r_above: np.ndarray
    r_last: np.ndarray
    r_start: np.ndarray
    r_first: np.ndarray
    rr_lo: np.ndarray
    rr_hi: np.ndarray


def _log_chernoff_upper_array(x: np.ndarray, m: np.ndarray, law: BinomialLaw) -> np.ndarray:
    """`_log_chernoff_upper` elementwise (the same terms and margin; 0 <= x <= m)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        t1 = np.where(x > 0, x * (np.log(np.maximum(x, 1.0)) - np.log(m) - law.log_p), 0.0)
        t2 = np.where(m - x > 0, (m - x) * (np.log(np.maximum(m - x, 1.0)) - np.log(m) - law.log_q), 0.0)
    return -(t1 + t2) + LOG_MARGIN * (np.abs(t1) + np.abs(t2)) + law.err * m + 1e-15


def _edges_array(m: np.ndarray, law: BinomialLaw, log_tail: float, direction: int) -> np.ndarray:
    """`_edge` for every m >= 1 at once (the same search: outward steps doubling until the Chernoff bound on the
    mass beyond the edge is <= e^log_tail)."""
    mean = m * law.p
    sd = np.sqrt(np.maximum(m * law.p * (1 - law.p), 1e-300))
    z = math.sqrt(max(-2.0 * log_tail, 1.0)) + 1.0
    step = np.maximum(1.0, 0.25 * z * sd)
    x = np.floor(mean - z * sd) if direction < 0 else np.ceil(mean + z * sd)
    result = np.full(len(m), -1.0)
    for _ in range(200):
        todo = result < 0
        if not np.any(todo):
            break
        if direction < 0:
            hit_end = todo & (x <= 0)
            beyond = np.clip(x - 1, 0.0, m)
            found = todo & ~hit_end & (x - 1 < mean) & (_log_chernoff_upper_array(beyond, m, law) <= log_tail)
            result = np.where(hit_end, 0.0, np.where(found, x, result))
            x = np.where(todo & ~hit_end & ~found, np.floor(x - step), x)
        else:
            hit_end = todo & (x >= m)
            beyond = np.clip(x + 1, 0.0, m)
            found = todo & ~hit_end & (x + 1 > mean) & (_log_chernoff_upper_array(beyond, m, law) <= log_tail)
            result = np.where(hit_end, m, np.where(found, x, result))
            x = np.where(todo & ~hit_end & ~found, np.ceil(x + step), x)
        step = step * 2
    if np.any(result < 0):  # cannot happen (the steps double up to the ends); refuse rather than guess
        raise ParameterError("tail", log_tail, "a tail the Chernoff window search reaches")
    return result


# Pmf anchors (gammaln) every ANCHOR_STEP values of r; the ratio recurrence in between (module doc).
ANCHOR_STEP = 32


def _window_rows(m: np.ndarray, law: BinomialLaw, tail: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`binomial_window(m_i, law, tail)` for every m_i >= 0 at once: (lo, size, lower, upper, below, above) with
    the pmf brackets as (rows, width) arrays (entries at or beyond each row's size are not part of it). The
    pmf is anchored by gammaln every ANCHOR_STEP values and carried between anchors by the ratio recurrence
    (module doc's error model; the two products after it cost 2 roundings, 4u' reserved)."""
    log_tail = math.log(tail)
    positive = m > 0
    mm = np.maximum(m, 1.0)
    lo = np.where(positive, _edges_array(mm, law, log_tail, -1), 0.0)
    hi = np.where(positive, _edges_array(mm, law, log_tail, +1), 0.0)
    with np.errstate(over="ignore"):
        below = np.where(lo > 0, np.exp(_log_chernoff_upper_array(np.maximum(lo - 1, 0.0), mm, law)) * (1 + EXP_MARGIN), 0.0)
        above = np.where(hi < m, np.exp(_log_chernoff_upper_array(np.minimum(hi + 1, mm), mm, law)) * (1 + EXP_MARGIN), 0.0)
    size = (hi - lo + 1).astype(np.int64)
    lower, upper = _pmf_rows(m, lo, int(np.max(size)), law)
    return lo, size, lower, upper, below, above


def _pmf_rows(m: np.ndarray, first: np.ndarray, width: int, law: BinomialLaw) -> tuple[np.ndarray, np.ndarray]:
    """Certified brackets (lower, upper), (rows, width) arrays, of Pr[Bin(m_i, p) = first_i + t], t < width,
    for 0 <= first_i: anchored by gammaln every ANCHOR_STEP values and carried between anchors by the ratio
    recurrence (module doc's error model; the two products after it cost 2 roundings, 4u' reserved). Entries
    with first_i + t > m_i are not brackets (the caller masks them); values below TINY as in binomial_window."""
    rows = len(m)
    blocks = max(1, int(math.ceil(width / ANCHOR_STEP)))
    full = blocks * ANCHOR_STEP
    steps = np.arange(ANCHOR_STEP, dtype=float)
    base = first[:, None] + (np.arange(blocks, dtype=float) * ANCHOR_STEP)[None, :]
    anchor, anchor_err = _log_pmf(np.broadcast_to(m[:, None], base.shape), np.minimum(base, m[:, None]), law)
    anchor_lo, anchor_hi = _exp_bounds(anchor, anchor_err)
    # Ratios pmf(j + 1) / pmf(j) (exact where j < m; entries past m are masked by the caller).
    j = base[:, :, None] + steps[None, None, :-1]
    ratio = (m[:, None, None] - j) / (j + 1.0)
    ratio *= law.rho
    rel = np.empty(base.shape + (ANCHOR_STEP,))
    rel[:, :, 0] = 1.0
    with np.errstate(under="ignore", invalid="ignore", over="ignore"):
        np.cumprod(ratio, axis=2, out=rel[:, :, 1:])
    rel_err = np.expm1((3.0 * steps + 2.0) * U1 + steps * law.err) * 1.01
    factor_hi = (1 + rel_err) * (1 + 4 * U1)
    factor_lo = (1 - rel_err) / (1 + 4 * U1)
    upper = ((rel * factor_hi) * anchor_hi[:, :, None]).reshape(rows, full)
    lower = ((rel * factor_lo) * anchor_lo[:, :, None]).reshape(rows, full)
    small = rel.reshape(rows, full) < TINY
    if np.any(small):  # an underflowed ratio product is < TINY (1 + err) + 2^-1074
        upper[small] = (2 * TINY * np.broadcast_to(anchor_hi[:, :, None], rel.shape)).reshape(rows, full)[small]
        lower[small] = 0.0
    deep = anchor_lo <= 0.0
    if np.any(deep):
        # Anchors below TINY (windows reaching below 1e-280, tails < 1e-270): their blocks by gammaln at every
        # point, as binomial_window (the recurrence from a clamped anchor would be valid but loose).
        rows_deep, blocks_deep = np.nonzero(deep)
        j_deep = base[rows_deep, blocks_deep][:, None] + steps[None, :]
        m_deep = np.broadcast_to(m[rows_deep][:, None], j_deep.shape)
        value, err = _log_pmf(m_deep, np.minimum(j_deep, m_deep), law)
        low_deep, high_deep = _exp_bounds(value, err)
        columns = blocks_deep[:, None] * ANCHOR_STEP + np.arange(ANCHOR_STEP)[None, :]
        upper[rows_deep[:, None], columns] = high_deep
        lower[rows_deep[:, None], columns] = low_deep
    upper = np.maximum(upper[:, :width], TINY)
    lower = lower[:, :width]
    lower = np.where(lower < TINY, 0.0, lower)
    return lower, upper


@lru_cache(maxsize=4)
def _split_plan(n: int, law_s: BinomialLaw, law_r: BinomialLaw | None, tail: float) -> _SplitPlan:
    window = binomial_window(n, law_s, tail)
    s = np.arange(window.lo, window.hi + 1, dtype=np.int64)
    rows = len(s)
    if law_r is None:  # r = 0 exactly
        lo_r, sizes = np.zeros(rows), np.ones(rows, dtype=np.int64)
        lower, upper, below, above = np.ones((rows, 1)), np.ones((rows, 1)), np.zeros(rows), np.zeros(rows)
    else:
        lo_r, sizes, lower, upper, below, above = _window_rows((n - s).astype(float), law_r, tail)
    inside = np.arange(lower.shape[1])[None, :] < sizes[:, None]
    r_values = (lo_r[:, None] + np.arange(lower.shape[1], dtype=float)[None, :])[inside]
    groups = np.broadcast_to(np.arange(rows, dtype=np.int64)[:, None], inside.shape)[inside]
    r_lo, r_hi = lower[inside], upper[inside]
    last = np.cumsum(sizes) - 1
    start = last - sizes + 1
    return _SplitPlan(
        s.astype(float), window.lower, window.upper, window.below, window.above, window.lo,
        r_values, groups, r_lo, r_hi, sizes.astype(float), below, above, last.astype(np.int64),
        start.astype(np.int64), lo_r, r_lo * r_values, r_hi * r_values,
    )


def _count_rows(values: np.ndarray, threshold: np.ndarray) -> np.ndarray:
    """For each row i of `values` (non-decreasing rows): the number of entries <= threshold[i], exactly (a
    vectorised bisection on the float values themselves)."""
    rows, length = values.shape
    lo = np.zeros(rows, dtype=np.int64)  # values[:lo] <= threshold
    hi = np.full(rows, length, dtype=np.int64)  # values[hi:] > threshold
    index = np.arange(rows)
    while True:
        active = lo < hi
        if not np.any(active):
            return lo
        mid = (lo + hi) // 2
        at_most = values[index, np.minimum(mid, length - 1)] <= threshold
        lo = np.where(active & at_most, mid + 1, lo)
        hi = np.where(active & ~at_most, mid, hi)


def _thresholds(scale: float, r: np.ndarray, side: int) -> np.ndarray:
    """The float threshold t(r) = fl(fl(tau_end r) (1 -/+ 2u')) of the split sums (tau_end (1 -/+ 2u') = scale:
    the safe end of tau); non-decreasing in r (rounding is monotone). Below (side +1) or above (-1) tau r."""
    factor = (1 - 2 * U1) if side > 0 else (1 + 2 * U1)
    tau_end = scale / factor
    result: np.ndarray = (tau_end * r) * factor
    return result


def _split_segments(
    plan: _SplitPlan, x: np.ndarray, p_suffix: np.ndarray, q_suffix: np.ndarray, scale: float, side: int, pad_factor: float, remainder: np.ndarray,
    starts_ok: np.ndarray, cap: np.ndarray,
) -> np.ndarray:
    """Per row s: the bound (side +1: upper, -1: lower) on F(s) = sum_r Pr[r | s] H(r), H(r) = E[(X - tau r)_+ | s],
    from the row's non-decreasing float values x (x_hi or x_lo) with suffix sums P = sum x pmf and Q = sum pmf.

    Per r the bound is P[c] - t Q[c] with c = #{x <= t}, t = t(r) (`_thresholds`) the threshold on the safe
    side of tau r (module doc). c is non-decreasing in r: the r with the same c are one segment, found exactly
    from the breakpoints r_c = min{r: t(r) >= x[c - 1]} (estimated, then verified on the float t). On a segment
    sum_r w(r) (P - t(r) Q) = P sum w - Q sum w t(r), and sum w t(r) is bracketed by tau_end (1 -/+ 2u')^2 sum w r
    (t(r) lies between tau_end r (1 -/+ 2u')^2 and tau r); upper: t smaller than t(r) only raises each term,
    lower: larger only lowers it. Sums of the plan's non-negative w and w r over a segment of length <= L carry
    relative error <= (L + 2) u' (w r itself one rounding)."""
    rows = len(plan.s)
    first, size = plan.r_first, plan.r_sizes.astype(np.int64)
    r_first, r_last = first, first + size - 1
    row_index = np.arange(rows)
    weights = plan.r_hi if side > 0 else plan.r_lo
    weighted = plan.rr_hi if side > 0 else plan.rr_lo

    c_first = _count_rows(x, _thresholds(scale, r_first, side))
    c_last = _count_rows(x, _thresholds(scale, r_last, side))
    # Breakpoints for c = c_first + 1 .. c_last of every row.
    extra = (c_last - c_first).astype(np.int64)
    seg_row = np.repeat(row_index, extra)
    seg_c = np.repeat(c_first, extra) + (np.arange(int(np.sum(extra))) - np.repeat(np.cumsum(extra) - extra, extra)) + 1
    target = x[seg_row, seg_c - 1]
    lo_r, hi_r = r_first[seg_row], r_last[seg_row]
    tau_end = scale / ((1 - 2 * U1) if side > 0 else (1 + 2 * U1))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        guess = np.ceil(target / (tau_end * ((1 - 2 * U1) if side > 0 else (1 + 2 * U1))))
    r_c = np.clip(np.nan_to_num(guess, nan=0.0, posinf=1e300, neginf=-1e300), lo_r, hi_r + 1)
    for _ in range(64):
        at_ok = (r_c > hi_r) | (_thresholds(scale, np.minimum(r_c, hi_r), side) >= target)
        before_ok = (r_c <= lo_r) | (_thresholds(scale, np.maximum(r_c - 1, lo_r), side) < target)
        if np.all(at_ok & before_ok):
            break
        r_c = np.where(~at_ok, r_c + 1, np.where(~before_ok, r_c - 1, r_c))
    else:
        # The float threshold is within a few ulps of tau_end r: the estimate is off by at most a couple of r.
        raise ParameterError("tau", tau_end, "a threshold whose breakpoints the segment search settles")
    # Segments: (row, c, first r), the row's own first segment included; empty ones (two x crossed at one r) dropped.
    all_row = np.concatenate((row_index, seg_row))
    all_c = np.concatenate((c_first, seg_c))
    all_r = np.concatenate((r_first, r_c))
    order = np.lexsort((all_c, all_r, all_row))
    all_row, all_c, all_r = all_row[order], all_c[order], all_r[order]
    # Keep, among segments starting at the same r of a row, the one with the largest c (the others are empty).
    keep = np.ones(len(all_row), dtype=bool)
    keep[:-1] = ~((all_row[1:] == all_row[:-1]) & (all_r[1:] == all_r[:-1]))
    keep &= all_r <= r_last[all_row]
    all_row, all_c, all_r = all_row[keep], all_c[keep], all_r[keep]
    starts = plan.r_start[all_row] + (all_r - r_first[all_row]).astype(np.int64)
    seg_len = np.diff(np.concatenate((starts, [len(weights)])))
    w_sum = np.add.reduceat(weights, starts)
    wr_sum = np.add.reduceat(weighted, starts)
    err = (seg_len + 4) * U1
    big_p, big_q = p_suffix[all_row, all_c], q_suffix[all_row, all_c]
    two = (1 - 2 * U1) ** 2 if side > 0 else (1 + 2 * U1) ** 2
    if side > 0:
        w_bound = w_sum * (1 + err)  # >= sum w
        t_bound = tau_end * two * wr_sum / (1 + err) * (1 - 4 * U1)  # <= sum w tau_end (1 - 2u')^2 r
        first_term = (big_p * (1 + pad_factor) + remainder[all_row]) * w_bound
        second_term = big_q * (1 - pad_factor) * t_bound
        value = first_term - second_term + 8 * U1 * (first_term + second_term)
        value = np.where(starts_ok[all_row], np.minimum(value, cap[all_row] * w_bound), cap[all_row] * w_bound)
        value = np.maximum(value, 0.0)
    else:
        w_bound = w_sum / (1 + err)  # <= sum w
        t_bound = tau_end * two * wr_sum * (1 + err) * (1 + 4 * U1)  # >= sum w tau_end (1 + 2u')^2 r
        first_term = big_p * (1 - pad_factor) * w_bound
        second_term = big_q * (1 + pad_factor) * t_bound
        value = np.maximum(first_term - second_term - 8 * U1 * (first_term + second_term), 0.0)
    counts = np.bincount(all_row, minlength=rows)
    total: np.ndarray = np.bincount(all_row, weights=value, minlength=rows).astype(float)
    if side > 0:
        total = total * (1 + (counts + 4) * U1)
        # r above the window: H <= H(r_last) (H is non-increasing in r), the last segment's per-r bound.
        c_end = c_last
        t_end = _thresholds(scale, r_last, side)
        h_end = p_suffix[row_index, c_end] * (1 + pad_factor) + remainder - q_suffix[row_index, c_end] * t_end * (1 - pad_factor)
        h_end = np.maximum(h_end + 8 * U1 * (p_suffix[row_index, c_end] + q_suffix[row_index, c_end] * t_end + remainder), 0.0)
        h_end = np.where(starts_ok, np.minimum(h_end, cap), cap)
        total = total + plan.r_above * h_end * (1 + 4 * U1)
        return total
    lower: np.ndarray = total / (1 + (counts + 4) * U1)
    return lower


def split_cost(n: int, p_s: float, p_a: float, p_r: float, shift_a: float = 0.0) -> float:
    """The number of array element operations `split_positive_part` performs (about): a cost estimate for
    choosing it; shift_a: how far (values of a) the largest threshold shift moves the zero. Range: integer
    n >= 1, probabilities p_s, p_a, p_r in [0, 1], shift_a >= 0."""
    require_integer("n", n, minimum=1)
    for name, value in (("p_s", p_s), ("p_a", p_a), ("p_r", p_r)):
        if not (isinstance(value, (int, float)) and 0 <= value <= 1):
            raise ParameterError(name, value, "a probability in [0, 1]")
    sd_s = math.sqrt(max(n * p_s * (1 - p_s), 1.0))
    mean_s = n * p_s
    sd_a = math.sqrt(max(mean_s * p_a * (1 - p_a), 1.0))
    sd_r = math.sqrt(max(n * (1 - p_s) * p_r * (1 - p_r), 1.0))
    return (24 * sd_s + 1) * (12 * (5 * sd_a + 16 + max(shift_a, 0.0)) + 20 * (24 * sd_r + 1))


def split_positive_part(
    n: int, law_s: BinomialLaw, law_a: BinomialLaw, law_r: BinomialLaw | None, lam: tuple[float, float], kappa: tuple[float, float], tau: tuple[float, float], *, tail: float
) -> tuple[float, float]:
    """[lower, upper] containing E[(lam a + kappa s - tau r)_+], s ~ Bin(n, p_s), a | s ~ Bin(s, p_a),
    r | s ~ Bin(n - s, p_r) (law_r None: r = 0) independent of a given s; lam > 0, kappa <= 0, tau >= 0 given as
    [lo, hi] brackets (module doc "split sums"). No blocking: for each s one row of a carries suffix sums, and
    every r is an exact shift t = tau r of its threshold (E[(X - t)_+] = sum_{X > t} X pmf - t sum_{X > t} pmf).
    Range: n >= 1, binomial laws from binomial_law(), 0 < tail < 1."""
    require_integer("n", n, minimum=1)
    for name, pair in (("lam", lam), ("kappa", kappa), ("tau", tau)):
        if not (isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(v, float) and math.isfinite(v) for v in pair) and pair[0] <= pair[1]):
            raise ParameterError(name, pair, "a bracket (lo, hi) of finite floats")
    if not (lam[0] > 0 and kappa[1] <= 0 and tau[0] >= 0):
        raise ParameterError("coefficients", (lam, kappa, tau), "lam > 0, kappa <= 0, tau >= 0")
    if not isinstance(law_s, BinomialLaw) or not isinstance(law_a, BinomialLaw) or not (law_r is None or isinstance(law_r, BinomialLaw)):
        raise ParameterError("law", (law_s, law_a, law_r), "BinomialLaws from binomial_law() (law_r may be None)")
    if not (isinstance(tail, (int, float)) and 0 < tail < 1):
        raise ParameterError("tail", tail, "0 < tail < 1")
    if law_a.degenerate or law_s.degenerate:
        raise ParameterError("law", (law_s, law_a), "non-degenerate laws of s and a")
    plan = _split_plan(int(n), law_s, law_r, float(tail))
    s = plan.s
    p = law_a.p
    mean = s * p
    sd = np.sqrt(np.maximum(s * p * (1 - p), 0.0))
    # X_hi(a) = lam_hi a + kappa_hi s (+ pad) >= X(a) for 0 <= a <= s; X_lo likewise below.
    pad_s = 6 * U1 * (lam[1] * s + abs(kappa[0]) * s) + 1e-300
    k_hi = kappa[1] * s + pad_s
    k_lo = kappa[0] * s - pad_s
    zero = np.maximum(-k_hi / lam[1], 0.0)
    start = np.clip(np.floor(zero * (1 - 1e-9)) - 2.0, 0.0, s)
    # The row reaches ROW_SD sd past the mode and past the largest threshold used (the zero moved up by
    # tau r / lam for the window's largest r), so that the shifted sums are summed, not bounded.
    top_zero = zero + tau[1] * plan.r[plan.r_last] / lam[0]
    end = np.minimum(np.ceil(np.maximum(mean, top_zero) + max(ROW_SD, 4.0) * sd) + 16.0, s)
    length = int(np.max(end - start, initial=0.0)) + 1
    steps = np.arange(length, dtype=float)
    a = start[:, None] + steps[None, :]
    inside = a <= s[:, None]
    a_safe = np.minimum(a, s[:, None])
    pmf_lo, pmf_hi = _pmf_rows(s, start, length, law_a)
    pmf_lo = np.where(inside, pmf_lo, 0.0)
    pmf_hi = np.where(inside, pmf_hi, 0.0)
    x_hi = lam[1] * a_safe + k_hi[:, None]
    x_lo = lam[0] * a_safe + k_lo[:, None]
    starts_ok = (start <= 0) | (x_hi[:, 0] <= 0)
    # Beyond the row end e (a > e): geometric bound, ratio pmf(a+1)/pmf(a) <= r_end < 1 past the mode.
    last = a_safe[:, -1]
    r_end = (s - last) / (last + 1.0) * law_a.rho * (1 + 4 * U1 + law_a.err)
    more = last < s
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        geometric = pmf_hi[:, -1] * (np.maximum(x_hi[:, -1], 0.0) * r_end / (1 - r_end) + lam[1] * r_end / (1 - r_end) ** 2)
    remainder = np.where(more, np.where(r_end < 1, geometric, np.inf), 0.0) * (1 + 8 * U1)
    zeros = np.zeros((len(s), 1))

    def suffix(values: np.ndarray) -> np.ndarray:
        return np.concatenate((np.cumsum(values[:, ::-1], axis=1)[:, ::-1], zeros), axis=1)

    p_hi, q_hi = suffix(x_hi * pmf_hi), suffix(pmf_hi)
    p_lo, q_lo = suffix(x_lo * pmf_lo), suffix(pmf_lo)
    pad_factor = (length + 8) * U1
    # Every r is an exact threshold shift; the r of a row with the same crossing index (the number of row values
    # <= t) form one segment, summed from the plan's eps-independent sums of pmf and r pmf (module doc).
    cap = lam[1] * s * (1 + 4 * U1)
    f_hi = _split_segments(plan, x_hi, p_hi, q_hi, tau[0] * (1 - 2 * U1), +1, pad_factor, remainder, starts_ok, cap)
    f_lo = _split_segments(plan, x_lo, p_lo, q_lo, tau[1] * (1 + 2 * U1), -1, pad_factor, remainder, starts_ok, cap)
    # r outside its window: H is non-increasing in r (below: H <= max X <= lam s; above: H <= H at the window's
    # last r, in `_split_segments`).
    f_hi = f_hi + plan.r_below * cap
    f_hi = np.minimum(np.where(np.isfinite(f_hi), f_hi, cap), cap)
    total_factor = 1 + (len(s) + 4) * U1
    upper = float(np.sum(plan.s_hi * f_hi)) * total_factor
    # s outside its window: F(s) <= lam s <= lam n.
    upper += (plan.s_below + plan.s_above) * lam[1] * n * (1 + 4 * U1)
    lower = float(np.sum(plan.s_lo * f_lo)) / total_factor
    return max(0.0, min(lower, upper)), upper


def normal_guess(terms: Callable[[float], list[tuple[float, float]]], *, n: int, eps0: float, delta: float) -> float | None:
    """A starting point for solve_certified_epsilon (never a bound): the eps at which the normal approximation
    of (1/n) E[(sum_i c_i X_i)_+], X ~ Mult(n; p), equals delta, where terms(eps) = [(c_i, p_i)]; found by
    bisection on log delta. None when the approximation gives no crossing in (0, eps0). Range: n >= 1,
    eps0 > 0, 0 < delta < 1."""
    require_integer("n", n, minimum=1)
    require_positive("eps0", eps0)
    require_probability("delta", delta)

    def approx(eps: float) -> float:
        return _normal_delta(terms, n, eps)

    lo, hi = 0.0, float(eps0)
    if not approx(lo) > delta:
        return None
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if approx(mid) > delta:
            lo = mid
        else:
            hi = mid
    return hi if 0 < hi < eps0 else None


def normal_elasticity(terms: Callable[[float], list[tuple[float, float]]], *, n: int, eps: float) -> float | None:
    """d log delta / d log eps at `eps` of the normal approximation used by `normal_guess` (a central
    difference): a slope for the first step of solve_certified_epsilon (never a bound; the root search checks
    every point it keeps). None when it is not finite and negative. Range: n >= 1, eps > 0."""
    require_integer("n", n, minimum=1)
    require_positive("eps", eps)
    h = 1e-4
    values = [_normal_delta(terms, n, eps * (1 + side * h)) for side in (-1, 1)]
    if not all(v > 0 and math.isfinite(v) for v in values):
        return None
    slope = (math.log(values[1]) - math.log(values[0])) / (math.log1p(h) - math.log1p(-h))
    return slope if math.isfinite(slope) and slope < 0 else None


def _normal_delta(terms: Callable[[float], list[tuple[float, float]]], n: int, eps: float) -> float:
    """(1/n) E[(Y)_+] for Y normal with the mean and variance of sum_i c_i X_i, X ~ Mult(n; p)."""
    pairs = terms(eps)
    mean = n * sum(c * p for c, p in pairs)
    var = n * (sum(c * c * p for c, p in pairs) - sum(c * p for c, p in pairs) ** 2)
    if not var > 0:
        return max(mean, 0.0) / n
    sd = math.sqrt(var)
    z = mean / sd
    return (mean * 0.5 * math.erfc(-z / math.sqrt(2)) + sd * math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)) / n


def blocking_offsets(lo: int, hi: int, mean: float, sd: float, delta: float) -> np.ndarray:
    """Grid offsets (from lo) of a blocked sum over a binomial count N in [lo, hi] with the given mean and sd
    (the exact blanket bounds of k-RR and of finite randomizers): steps of N_STEP_LOG * N / log(1/delta) (D_N falls by about
    that fraction of log(1/delta) per step: the blocking slack of delta near N_STEP_LOG) within 4 sd of the
    mean, four times that beyond (where little mass is); a block reaching into the central zone is at most
    one zone step long. The grid only decides how tight the certified
    upper end is, never whether it is an upper bound."""
    require_probability("delta", delta)
    slack_step = N_STEP_LOG * max(mean, 1.0) / max(math.log(1.0 / delta), 1.0)
    points = [lo]
    x = float(lo)
    zone_lo, zone_hi = mean - 4 * sd, mean + 4 * sd
    big_step = 4 * slack_step
    while x < hi:
        if x < zone_lo:  # below the central zone: big steps, but a block reaching into it is a zone block
            target = x + big_step
            if target > zone_lo:
                target = min(target, max(zone_lo, x + slack_step))
        elif x < zone_hi:
            target = x + slack_step
        else:
            target = x + big_step
        x = max(x + 1.0, math.floor(target))
        points.append(min(int(x), hi))
    return np.array(sorted(set(points)), dtype=np.int64) - lo


def search_start(
    terms: Callable[[float], list[tuple[float, float]]], *, eps0: float, n: int, delta: float, fallback: Callable[[], float]
) -> tuple[float | None, float | None]:
    """(hint, slope): where the certified eps search of a k-RR expectation E[(sum of n draws of `terms`(eps))_+]
    starts (`shuffle_spec.reference.bounds.blanket_exact_krr` and `shuffle_spec.reference.lower_bounds.krr`; it only decides
    where delta is evaluated, never the answer). The eps at which the normal approximation of the same expectation equals delta, and its local slope
    (d log delta / d log eps): the approximation's slope is within a few percent of the exact one where its root
    is close (measured), so 3 evaluations usually settle both ends. Where it finds none, `fallback()` (the callers
    give Bennett's k-RR eps, BBGN19.bennett_krr, an upper bound on the blanket bound, hence on every pair) and no
    slope; None when the fallback refuses too (ValueError). Range: n >= 1, eps0 > 0, 0 < delta < 1."""
    hint = normal_guess(terms, n=n, eps0=eps0, delta=delta)
    slope = normal_elasticity(terms, n=n, eps=hint) if hint is not None else None
    if hint is None:
        try:
            hint = fallback()
        except ValueError:
            hint = None
    return hint, slope
