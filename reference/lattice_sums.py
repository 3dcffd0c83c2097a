"""Certified positive-part expectations over trinomial counts: the engine of the exact blanket bound
(`reference.bounds.blanket_exact`) and of the k-RR pair lower bounds (`reference.lower_bounds`).

The quantity. For counts b ~ Bin(m, p_b) and, given b, a ~ Bin(m - b, p_a), with R = m - a - b,

    G = E[(c0 a + c1 b + c2 R)_+],        c0 > 0 >= c2 >= c1.

(That is the trinomial (a, b, R) ~ Mult(m; p_a (1 - p_b), p_b, ...).) With g(a; b) = c0 a + c1 b + c2 R and
F(b) = E[g(a; b)_+ | b], G = sum_b Pr[b] F(b).

Why it can be blocked in b: F is non-increasing in b. g(a; b) decreases in b for fixed a (its b-slope is
c1 - c2 <= 0) and increases in a (slope c0 - c2 > 0), and a | b = Bin(m - b, p_a) is stochastically
non-increasing in b; so E[g_+ | b] can only fall as b grows (checked in `proofs_checks/tight.py`, tested on
exact instances). Hence on a grid beta_0 < beta_1 < ... of b values,

    sum_i Pr[beta_i <= b < beta_{i+1}] F(beta_i) >= G >= sum_i Pr[beta_{i-1} < b <= beta_i] F(beta_i),

and the b tails outside the grid are bounded by F <= c0 m (upper) or dropped (lower).

F(beta) itself is a finite sum over a of g_+ times binomial probabilities: summed upwards from the zero of
g when that lies above the mean of a (the terms beyond the summed range are bounded by a geometric series:
the ratio pmf(a+1)/pmf(a) is non-increasing (log-concavity), so pmf(e+i) <= pmf(e) r^i and
sum_{i>=1} (g(e) + lambda i) r^i = g(e) r/(1-r) + lambda r/(1-r)^2), or as E[g] + E[g_-] when the zero lies below
the mean (E[g] in closed form, the negative part summed downwards the same way).

Floating-point model and margins (every one on the safe side):
- IEEE binary64, round to nearest: +, -, *, / carry relative error <= u = 2^-53 (normal range).
- scipy.special.gammaln at integer arguments, libm log and exp: relative error <= 1e-14 (their documented
  accuracy is a few ulps); the log-pmf margin is 1e-13 times the sum of the magnitudes of its terms, exp
  gets a 1e-12 relative margin.
- The ratio recurrence pmf(a+1) = pmf(a) (m-a)/(a+1) rho costs 2 roundings per ratio and 1 per running
  product, rho = p/q carries relative error <= e_rho: j steps from the anchor the relative error is
  <= expm1(e_anchor + (3j + 2) u' + j e_rho), u' = 1.001 u, taken with 1% extra.
- Sums of n non-negative floats: relative error <= n u' (applied as a factor).
- Values below 1e-280 are certified only as lying in [0, 1e-280].
- Binomial tails outside a window by the Chernoff bound exp(-m KL(x/m || p)), evaluated with the same
  log margin.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import mpmath
import numpy as np
from scipy.special import gammaln

from shuffle_spec.reference.errors import ParameterError, require_integer, require_positive, require_probability

__all__ = ["BinomialLaw", "Coefficients", "Window", "binomial_law", "binomial_window", "positive_part_expectation", "solve_certified_epsilon"]

UNIT = 2.0**-53
U1 = 1.001 * UNIT
LOG_MARGIN = 1e-13
EXP_MARGIN = 1e-12
TINY = 1e-280


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
        return self.p == 1.0


def binomial_law(p: mpmath.mpf) -> BinomialLaw:
    """A BinomialLaw from p given as an mpmath number computed at >= 30 digits (its error is far below
    the 4u stated); p = 1 exactly gives the degenerate law (every trial succeeds)."""
    if not isinstance(p, (mpmath.mpf, int, float)) or isinstance(p, bool) or not 0 < p <= 1:
        raise ParameterError("p", p, "a probability in (0, 1] (an mpmath number computed at >= 30 digits)")
    if p == 1:
        return BinomialLaw(0.0, -math.inf, math.inf, 0.0, 1.0)
    with mpmath.workdps(40):
        q = 1 - p
        return BinomialLaw(float(mpmath.log(p)), float(mpmath.log(q)), float(p / q), 4 * UNIT, float(p))


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


@lru_cache(maxsize=8192)
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


def _g(c: Coefficients, a: np.ndarray, b: np.ndarray, m: float, upper: bool) -> np.ndarray:
    """g(a; b) = c0 a + c1 b + c2 (m - a - b) rounded to the safe side (a, b, R >= 0, so each coefficient's
    end decides; the float evaluation error <= 4u' times the sum of the magnitudes)."""
    i = 1 if upper else 0
    r = m - a - b
    value = c.c0[i] * a + c.c1[i] * b + c.c2[i] * r
    pad = 4 * U1 * (abs(c.c0[i]) * a + abs(c.c1[i]) * b + abs(c.c2[i]) * r) + 1e-300
    rounded: np.ndarray = value + pad if upper else value - pad
    return rounded


def _row_sums(m: int, betas: np.ndarray, law_a: BinomialLaw, c: Coefficients) -> tuple[np.ndarray, np.ndarray]:
    """[F_lo, F_hi] of F(beta) = E[g(a; beta)_+ | b = beta], a ~ Bin(m - beta, p_a), for each grid beta."""
    ma = m - betas
    if law_a.degenerate:  # a = m - beta exactly, R = 0
        return np.maximum(_g(c, ma, betas, m, False), 0.0), np.maximum(_g(c, ma, betas, m, True), 0.0)
    p = law_a.p
    mean = ma * p
    sd = np.sqrt(np.maximum(ma * p * (1 - p), 0.0))
    slope_hi = c.c0[1] - c.c2[0]
    # The zero of g (within the brackets): a* = -(c1 beta + c2 (m - beta)) / (c0 - c2); start one below.
    kappa_hi = c.c1[1] * betas + c.c2[1] * (m - betas)
    zero = np.where(kappa_hi >= 0, 0.0, -kappa_hi / max(slope_hi, 1e-300))
    # Every a with g_hi(a) > 0 is >= start_up; every a with g_lo(a) < 0 is <= start_down (the brackets'
    # zeros differ from this float one by far less than the 1e-9 relative + 2 slack).
    start_up = np.clip(np.floor(zero * (1 - 1e-9)) - 2.0, 0.0, ma)
    start_down = np.clip(np.ceil(zero * (1 + 1e-9)) + 2.0, 0.0, ma)
    upward = start_up >= mean - sd
    length = int(math.ceil(4.0 * float(np.max(sd, initial=0.0)))) + 16
    f_lo = np.zeros_like(betas)
    f_hi = np.zeros_like(betas)
    steps = np.arange(length, dtype=float)
    err_steps = (3.0 * steps + 2.0) * U1 + steps * law_a.err
    for direction in (+1, -1):
        rows = np.nonzero(upward if direction > 0 else ~upward)[0]
        if len(rows) == 0:
            continue
        beta, m_a = betas[rows], ma[rows]
        first = start_up[rows] if direction > 0 else start_down[rows]  # downward: a = start_down, start_down - 1, ...
        valid_first = first >= 0
        anchor, anchor_err = _log_pmf(m_a, first, law_a)
        a = first[:, None] + direction * steps[None, :]
        inside = (a >= 0) & (a <= m_a[:, None])
        a_safe = np.clip(a, 0.0, m_a[:, None])
        if direction > 0:
            ratio = (m_a[:, None] - a_safe[:, :-1]) / (a_safe[:, :-1] + 1.0) * law_a.rho
        else:
            ratio = a_safe[:, :-1] / ((m_a[:, None] - a_safe[:, :-1] + 1.0) * law_a.rho)
        ratio = np.where(inside[:, 1:], ratio, 0.0)
        with np.errstate(under="ignore"):
            rel = np.concatenate((np.ones((len(rows), 1)), np.cumprod(ratio, axis=1)), axis=1)
        rel_err = np.expm1(anchor_err[:, None] + err_steps[None, :]) * 1.01
        rel_hi = np.where(rel < TINY, 2 * TINY, rel * (1 + rel_err))  # an underflowed ratio is < TINY (1 + err) + 2^-1074
        rel_lo = np.where(rel < TINY, 0.0, rel * (1 - rel_err))
        rel_hi = np.where(inside, rel_hi, 0.0)
        rel_lo = np.where(inside, rel_lo, 0.0)
        # g_hi(a) = (c0_hi - c2_hi) a + (c1_hi - c2_hi) beta + c2_hi m (= c0_hi a + c1_hi b + c2_hi R exactly),
        # evaluated per row as an affine function; its float error <= 12 u' max|c| m.
        pad = 12 * U1 * c.magnitude() * m + 1e-300
        g_hi = (c.c0[1] - c.c2[1]) * a_safe + ((c.c1[1] - c.c2[1]) * beta + c.c2[1] * m + pad)[:, None]
        g_lo = (c.c0[0] - c.c2[0]) * a_safe + ((c.c1[0] - c.c2[0]) * beta + c.c2[0] * m - pad)[:, None]
        if direction > 0:
            w_hi, w_lo = np.maximum(g_hi, 0.0), np.maximum(g_lo, 0.0)
        else:
            w_hi, w_lo = np.maximum(-g_lo, 0.0), np.maximum(-g_hi, 0.0)
        sum_factor = 1 + (length + 2) * U1
        s_hi = np.sum(w_hi * rel_hi, axis=1) * sum_factor
        s_lo = np.sum(w_lo * rel_lo, axis=1) / sum_factor
        # Remainder beyond the last summed point e (geometric bound, module doc).
        last = a[:, -1]
        more = (last < m_a) if direction > 0 else (last > 0)
        if direction > 0:
            r_end = (m_a - last) / (last + 1.0) * law_a.rho
        else:
            r_end = np.where(last > 0, last / ((m_a - last + 1.0) * law_a.rho), 0.0)
        r_end = r_end * (1 + 4 * U1 + law_a.err)
        w_end = w_hi[:, -1]
        rel_end = rel_hi[:, -1]
        ok = r_end < 1
        with np.errstate(divide="ignore", invalid="ignore"):
            geometric = rel_end * (w_end * r_end / (1 - r_end) + slope_hi * r_end / (1 - r_end) ** 2)
        # No geometric bound (the end is not past the mode): the row is charged its cap below (F <= max g_+).
        crude = np.inf
        remainder = np.where(more, np.where(ok, geometric, crude), 0.0) * (1 + 8 * U1)
        s_hi = s_hi + remainder
        lo_anchor, hi_anchor = _exp_bounds(anchor, anchor_err)
        with np.errstate(over="ignore", invalid="ignore"):
            part_hi = np.where(s_hi > 0, hi_anchor * s_hi, 0.0) * (1 + 4 * U1)
        part_lo = lo_anchor * s_lo / (1 + 4 * U1)
        part_hi = np.where(valid_first, part_hi, 0.0)
        part_lo = np.where(valid_first, part_lo, 0.0)
        if direction < 0:
            # E[g_+] = E[g] + E[g_-]; E[g] = (c0 - c2) E[a] + c1 beta + c2 (m - beta), E[a] = (m - beta) p.
            mean_hi = mean[rows] * (1 + law_a.err + 2 * U1)
            mean_lo = mean[rows] * (1 - law_a.err - 2 * U1)
            # Each term bounded on its own: c2 <= 0 multiplies R = m - beta - E[a] >= 0.
            eg_hi = c.c0[1] * mean_hi + c.c1[1] * beta + c.c2[1] * (m - beta - mean_hi)
            eg_lo = c.c0[0] * mean_lo + c.c1[0] * beta + c.c2[0] * (m - beta - mean_lo)
            pad = 8 * U1 * (c.magnitude() * (mean_hi + beta + m)) + 1e-300
            eg_hi, eg_lo = eg_hi + pad, eg_lo - pad
            part_hi = np.maximum(eg_hi + part_hi, 0.0) * (1 + 2 * U1)
            part_lo = np.maximum(eg_lo + part_lo, 0.0) / (1 + 2 * U1)
        f_hi[rows] = part_hi
        f_lo[rows] = part_lo
    # A row with no usable bound (inf) is capped by the largest value of g: F <= max_a g_+ <= c0 (m - beta).
    cap = np.maximum(c.c0[1] * ma * (1 + 4 * U1), 0.0)
    f_hi = np.minimum(np.where(np.isfinite(f_hi), f_hi, cap), np.maximum(cap, 0.0))
    f_lo = np.minimum(f_lo, f_hi)
    return f_lo, f_hi


def _grid(size: int, step: int) -> np.ndarray:
    """0, step, 2 step, ... and size - 1 (offsets into a window of `size` points)."""
    offsets = np.arange(0, size, step, dtype=np.int64)
    if offsets[-1] != size - 1:
        offsets = np.append(offsets, size - 1)
    return offsets


def _coarse_grid(size: int, mean: float, sd: float) -> np.ndarray:
    """Offsets with 4 points per sd within 4 sd of the mean (offset units), one per sd beyond."""
    points = [0]
    x = 0
    while x < size - 1:
        z = abs(x - mean) / max(sd, 1e-300)
        x = min(size - 1, x + max(1, int(sd / 4 if z < 4 else sd)))
        points.append(x)
    return np.array(points, dtype=np.int64)


def positive_part_expectation(m: int, law_b: BinomialLaw, law_a: BinomialLaw, c: Coefficients, *, tail: float, per_sd: int = 24) -> tuple[float, float]:
    """[lower, upper] containing G = E[(c0 a + c1 b + c2 (m - a - b))_+], b ~ Bin(m, p_b), a | b ~ Bin(m - b, p_a)
    (module doc). `tail`: the b mass outside the summed window (each side); `per_sd`: grid points per
    standard deviation of b (how tight the monotone blocking is)."""
    require_integer("m", m, minimum=0)
    if not isinstance(c, Coefficients):
        raise ParameterError("coefficients", c, "a lattice_sums.Coefficients")
    require_integer("per_sd", per_sd, minimum=1)
    m = int(m)
    if not (c.c0[0] > 0 and c.c2[1] <= 0 and c.c1[1] <= c.c2[0]):
        raise ParameterError("coefficients", c, "c0 > 0 >= c2 >= c1 (the blocking needs F non-increasing in b)")
    if m == 0:
        return 0.0, 0.0
    window = binomial_window(m, law_b, tail)
    size = window.hi - window.lo + 1
    sd_b = math.sqrt(max(m * law_b.p * (1 - law_b.p), 0.0))
    values: dict[int, tuple[float, float]] = {}

    def evaluate(points: np.ndarray) -> None:
        new = np.array(sorted(set(int(x) for x in points) - set(values)), dtype=np.int64)
        if len(new):
            lo, hi = _row_sums(m, (window.lo + new).astype(float), law_a, c)
            values.update(zip(new.tolist(), zip(lo.tolist(), hi.tolist(), strict=True), strict=True))

    if law_a.degenerate:
        offsets = np.arange(size)
    else:
        # Coarse grid first (4 points per sd), then the blocks carrying the sum refined to per_sd per sd.
        coarse = _coarse_grid(size, m * law_b.p - window.lo, sd_b)
        evaluate(coarse)
        share = np.add.reduceat(window.upper, coarse) * np.array([values[int(o)][1] for o in coarse])
        total = float(np.sum(share))
        fine_step = max(1, int(sd_b // per_sd))
        extra: list[int] = []
        if total > 0:
            ends = np.append(coarse[1:], size)
            for start, stop, part in zip(coarse, ends, share, strict=True):
                if part > 1e-4 * total and stop - start > fine_step:
                    extra.extend(range(int(start), int(stop), fine_step))
        offsets = np.union1d(coarse, np.array(extra, dtype=np.int64)) if extra else coarse
    if not law_a.degenerate:
        evaluate(offsets)
    betas = (window.lo + offsets).astype(float)
    if law_a.degenerate:
        f_lo, f_hi = _row_sums(m, betas, law_a, c)
    else:
        f_lo = np.array([values[int(o)][0] for o in offsets])
        f_hi = np.array([values[int(o)][1] for o in offsets])
    step = int(np.max(np.diff(offsets))) if len(offsets) > 1 else 1
    # Block probabilities: [beta_i, beta_{i+1}) for the upper bound (the last grid point takes its own
    # probability and the upper tail), (beta_{i-1}, beta_i] for the lower bound.
    block_hi = np.add.reduceat(window.upper, offsets) * (1 + (step + 2) * U1)
    block_hi[-1] += window.above
    starts = np.concatenate(([0], offsets[:-1] + 1))
    block_lo = np.add.reduceat(window.lower, starts) / (1 + (step + 2) * U1)
    total_hi = float(np.sum(block_hi * f_hi)) * (1 + (len(betas) + 4) * U1)
    # The b values below the window: F <= F(0) <= c0 m.
    total_hi += window.below * max(c.c0[1], 0.0) * m * (1 + 4 * U1)
    total_lo = float(np.sum(block_lo * f_lo)) / (1 + (len(betas) + 4) * U1)
    return max(total_lo, 0.0), total_hi


def solve_certified_epsilon(
    delta_bounds: Callable[[float], tuple[float, float]], *, eps0: float, delta: float, rel_tol: float, max_evaluations: int = 60, hint: float | None = None
) -> tuple[float, float, bool]:
    """(lower, upper, found) with delta's certified upper end <= delta at `upper` (so the exact eps of the
    bound is <= upper) and its lower end > delta at `lower` (or lower = 0): Illinois regula falsi on
    log delta, first for the upper end, then for the lower end. `found` is False when even eps0 is not
    certified (then upper = eps0). Only evaluated points are returned, so the tolerance decides tightness,
    never validity. delta_bounds(eps) -> (lower, upper) must be non-increasing in eps with delta(eps0) = 0.
    `hint` (an eps believed to be above the answer, e.g. a looser bound's) narrows the first bracket to
    [hint/2, hint] when both ends are verified on the right sides; it only decides where delta is evaluated."""
    require_positive("eps0", eps0)
    require_probability("delta", delta)
    require_positive("rel_tol", rel_tol)
    log_target = math.log(delta)
    cache: dict[float, tuple[float, float]] = {}

    def at(x: float) -> tuple[float, float]:
        if x not in cache:
            cache[x] = delta_bounds(x)
        return cache[x]

    def f(x: float, side: int) -> float:
        value = at(x)[side]
        return (math.log(value) if value > 0 else -800.0) - log_target

    def illinois(side: int, lo: float, hi: float) -> tuple[float, float]:
        """[lo, hi] with f(lo) > 0 >= f(hi) narrowed to rel_tol; returns (lo, hi). Secant steps on log delta
        (Illinois: the end kept twice in a row has its value halved); bisection while delta(hi) = 0."""
        f_lo, f_hi = f(lo, side), f(hi, side)
        last = 0
        for _ in range(max_evaluations):
            if hi - lo <= rel_tol * hi:
                break
            if at(hi)[side] <= 0:
                x = 0.5 * (lo + hi)
            else:
                x = hi - f_hi * (hi - lo) / (f_hi - f_lo)
                x = min(max(x, lo + 1e-4 * (hi - lo)), hi - 1e-4 * (hi - lo))
            fx = f(x, side)
            if fx > 0:
                lo, f_lo = x, fx
                if last == +1:
                    f_hi /= 2
                last = +1
            else:
                hi, f_hi = x, fx
                if last == -1:
                    f_lo /= 2
                last = -1
        return lo, hi

    if at(float(eps0))[1] > delta:
        return 0.0, float(eps0), False
    if at(0.0)[1] <= delta:
        return 0.0, 0.0, True
    low_start, high_start = 0.0, float(eps0)
    if hint is not None and math.isfinite(hint) and 0 < hint < eps0:
        if 0 < at(float(hint))[1] <= delta:
            high_start = float(hint)
            if at(0.5 * hint)[1] > delta:
                low_start = 0.5 * hint
    _, upper = illinois(1, low_start, high_start)
    # The lower end: the largest evaluated point whose certified lower delta exceeds the target, refined.
    candidates = [x for x, (d_lo, _) in cache.items() if d_lo > delta and x <= upper]
    lower = max(candidates) if candidates else 0.0
    if at(lower)[0] > delta:
        lower, _ = illinois(0, lower, upper)
    return lower, upper, True
