"""Explicit neighbouring pairs of shuffled k-ary randomized response as OPTIMISTIC grid privacy-loss
distributions: the pairs of `reference.lower_bounds.krr` (exact.krr_pair_x0, exact.krr_pair_third), each as the
exact law of a sufficient (or kept) statistic, ready for the certified FFT engine (`reference/numerics/pld.py`)
to compose into a certified LOWER bound on the epsilon of T shuffled k-RR rounds (`explicit_pairs`).

The pairs (e0 = e^eps0, D = e0 + k - 1; k-RR reports its input w.p. e0/D and each other value w.p. 1/D):
- "x0" (k >= 3): user 1 holds x0 vs x1, the other n-1 users all hold x0. The counts (A, B, R) of x0, x1 and of
  the k - 2 other values are sufficient (the other values are exchangeable under both inputs); both directions.
- "third" (k >= 3): user 1 holds x0 vs x1, the other n-1 users all hold a third value z; the counts (A, B, R)
  of x0, x1 and of every other value are KEPT (a post-processing: its divergence is at most the pair's, so the
  composed epsilon is still a lower bound; the split counts of exact.krr_pair_third_split are not used here).
  The pair is symmetric (swap x0 and x1): one direction.
(k = 2 is binary RR: `binary_rr_pairs`.)

The law (module doc of `reference.lower_bounds.krr`; checked in proofs_checks/derived/blanket_exact_krr.py):
with W = Mult(n; pi_A, pi_B, pi_R) the law of n reports of the OTHERS' value (the reference measure), the counts
under "user 1 holds x" have law P_x(h) = W(h) g_x(h) / n, g_x(h) = sum_j mu_x(j) h_j / pi_j, linear in h with
positive coefficients:
- x0: pi = (e0, 1, k-2)/D, g_x0 = A + B + R = n, g_x1 = A/e0 + e0 B + R;
- third: pi = (1, 1, D-2)/D, g_x0 = e0 A + B + gam R, g_x1 = A + e0 B + gam R, gam = (k-2)/(e0+k-3).
So the loss of "x0 vs x1" at h is log g_x0(h) - log g_x1(h), with mass W(h) g_x0(h)/n (and the reverse loss
with mass W(h) g_x1(h)/n for "x1 vs x0").

Certified lower ends, cell by cell (the proof of numerics.binomial, step 2, in two dimensions): W at one anchor
(A*, B*) near the mode is an interval (log W = log Pr[Bin(n, pi_B) = B*] + log Pr[Bin(n - B*, pi_A/(1-pi_B)) = A*]
by `log_binomial_pmf_interval`); every other cell is reached by the trinomial recurrences
W(A, B+1) = W(A, B) (R/(B+1)) (pi_B/pi_R), W(A+1, B) = W(A, B) (R/(A+1)) (pi_A/pi_R) (and their inverses), first
along B at A = A*, then along A in each row. Each step costs 3 roundings (a ratio of exact integers, the product
with the float rho, the running product) and rho's relative error (from its 100-bit interval), the final
scaling 2 more, so a cell j = |A - A*| + |B - B*| steps away has relative error at most
expm1(eps_anchor + (3 j + 2) u' + j e_rho'), evaluated with 1% margin; values below 1e-280 are taken as 0 (a
lower end). g comes from exact integer counts and coefficients carried as floats with proven relative errors,
all terms positive, so its relative error is at most the coefficients' plus 3 roundings; libm log gets the house
margin of 1e-12 (1 + |log g_x0| + |log g_x1|). Losses are rounded DOWN to the grid, masses take their lower
ends (the bincount sums lowered by their round-off), and the cells outside the window (mean +- SPREAD sd in
each count) are DROPPED: the delta of a composition is non-decreasing in every mass and every loss (it is
sum_i m_i (1 - e^(eps - l_i))_+ of the convolution), so each of these steps can only lower it. Nothing here is
an upper bound on anything.

The grid: the pair is evaluated once on a fine power-of-2 step (at most 2^-FINE_PER_SD of the loss's standard deviation
and at most FINE_BINS bins over the losses' range), cached, and coarsened to any power-of-2 multiple by summing
aligned bins (floor(floor(x/h)/2^j) = floor(x/(2^j h)): still rounded down). Coarser steps than the fine one
only are served; `krr_pair_finest_step` says which.

Cost: O(n pi_B) x O(n pi_A) cells, numpy work only (one interval anchor per pair): ~ 1e6 cells at n = 1e4
(a fraction of a second), ~ 5e7 at n = 1e6, k = 3 (tens of seconds); refused beyond MAX_CELLS. Written by hand:
no library gives the law of the privacy loss of a shuffled k-RR pair with certified masses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from ..core.errors import ParameterError, require_integer, require_positive
from ..core.parameters import check_eps0, check_n
from ..numerics.binomial import TINY, UNIT, ProbabilityPair, iv_context, log_binomial_pmf_interval
from ..numerics.pld import GridPLD
from .enclosures import Enclosure, enclosure_interval

__all__ = [
    "PAIRS",
    "SPREAD",
    "MAX_CELLS",
    "FINE_BINS",
    "FINE_PER_SD",
    "Enclosure",
    "krr_pair_cells",
    "krr_pair_finest_step",
    "krr_pair_grids",
    "krr_pair_moments",
    "trinomial_pair_finest_step",
    "trinomial_pair_grids",
    "trinomial_pair_moments",
]

PAIRS = ("x0", "third")
# Window of each count: mean +- SPREAD sd (+ a few counts). Cells outside are dropped (a lower bound loses at
# most their mass, far below the deltas asked for: a binomial tail at 9 sd is below 1e-15).
SPREAD = 9.0
# Cells evaluated per pair at most (memory and time: about a minute of numpy work on a loaded core).
MAX_CELLS = 10**8
# Bins of the fine grid at most (two float64 arrays of this length), and its step at most 2^-FINE_PER_SD loss
# standard deviations (the composition asks for ~ 0.016 sd / sqrt(T): this serves T up to ~ 1e5 as asked).
FINE_BINS = 1 << 23
FINE_PER_SD = 14


@dataclass(frozen=True)
class _Setup:
    """The laws of B and of A given B, the float ratios pi_A/pi_R and pi_B/pi_R with their relative errors,
    the coefficients of g_x0 and g_x1 on (A, B, R) as floats and the largest relative error of any of them."""

    law_b: ProbabilityPair
    law_a: ProbabilityPair
    rho_a: float
    rho_b: float
    rho_err: float
    g_x0: tuple[float, float, float]
    g_x1: tuple[float, float, float]
    coefficient_err: float


def _float_with_error(x: Any) -> tuple[float, float]:  # x: an mpmath interval (untyped)
    """A float near the positive interval x and a bound on its relative distance to every point of x (as in
    numerics.binomial, whose helper is private to it)."""
    value = float(x.mid)
    if not (value > 0.0 and math.isfinite(value)) or not x.a > 0:
        raise ParameterError("probability", value, "a positive normal float")
    worst = max(abs(x.b - value), abs(value - x.a)) / x.a
    return value, float(worst.b) * (1 + 1e-6) + 2.0**-1074


def _pair(p: Any, q: Any) -> ProbabilityPair:
    pf, pe = _float_with_error(p)
    qf, qe = _float_with_error(q)
    return ProbabilityPair(p, q, pf, qf, pe, qe)


@lru_cache(maxsize=64)
def _setup(pair: str, eps0: float, k: int) -> _Setup:
    iv = iv_context()
    e0 = iv.exp(iv.mpf(eps0))
    d = e0 + (k - 1)
    pi_b = 1 / d
    if pair == "x0":
        pi_a, pi_r = e0 / d, iv.mpf(k - 2) / d
        g0, g1 = (iv.mpf(1), iv.mpf(1), iv.mpf(1)), (1 / e0, e0, iv.mpf(1))
    else:
        pi_a, pi_r = 1 / d, (d - 2) / d
        gam = iv.mpf(k - 2) / (e0 + (k - 3))
        g0, g1 = (e0, iv.mpf(1), gam), (iv.mpf(1), e0, gam)
    return _setup_from(pi_a, pi_b, pi_r, g0, g1)


def _setup_from(pi_a: Any, pi_b: Any, pi_r: Any, g0: tuple[Any, Any, Any], g1: tuple[Any, Any, Any]) -> _Setup:
    """The _Setup of a trinomial pair from the interval cell probabilities (pi_A, pi_B, pi_R) of the reference
    law W and the interval coefficients of g_x0 and g_x1 on (A, B, R) (module doc; all positive)."""
    # B ~ Bin(n, pi_B); A | B ~ Bin(n - B, pi_A / (pi_A + pi_R)).
    law_b = _pair(pi_b, pi_a + pi_r)
    law_a = _pair(pi_a / (pi_a + pi_r), pi_r / (pi_a + pi_r))
    rho_a, err_a = _float_with_error(pi_a / pi_r)
    rho_b, err_b = _float_with_error(pi_b / pi_r)
    floats, errs = [], []
    for g in (g0, g1):
        values = []
        for c in g:
            value, err = _float_with_error(c)
            values.append(value)
            errs.append(err)
        floats.append((values[0], values[1], values[2]))
    return _Setup(law_b, law_a, rho_a, rho_b, max(err_a, err_b), floats[0], floats[1], max(errs))


def _check(pair: str, eps0: float, n: int, k: int) -> tuple[float, int, int]:
    if pair not in PAIRS:
        raise ParameterError("pair", pair, "'x0' or 'third'")
    check_eps0(eps0, maximum=30.0, why="the k-RR pair PLDs")
    check_n(n, maximum=10**8, why="the k-RR pair PLDs")
    require_integer("k", k, minimum=3)
    if k > 10**6:
        raise ParameterError("k", k, "3 <= k <= 1e6 (the k-RR pair PLDs; k = 2 is binary RR)")
    return float(eps0), int(n), int(k)


def _window(m: int, p: float) -> tuple[int, int]:
    mean, sd = m * p, math.sqrt(m * p * (1 - p))
    return max(0, int(math.floor(mean - SPREAD * sd)) - 4), min(m, int(math.ceil(mean + SPREAD * sd)) + 4)


def _losses(s: _Setup, a: np.ndarray, b: Any, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(g_x0, g_x1, log g_x0, log g_x1) at the counts (a, b, n - a - b), in floats (module doc)."""
    r = n - a - b
    g0 = s.g_x0[0] * a + s.g_x0[1] * b + s.g_x0[2] * r
    g1 = s.g_x1[0] * a + s.g_x1[1] * b + s.g_x1[2] * r
    return g0, g1, np.log(g0), np.log(g1)


def _walk(anchor: float, at: int, lo: int, hi: int, up: np.ndarray, down: np.ndarray) -> np.ndarray:
    """Values at lo..hi (lo <= at <= hi) from `anchor` at `at`: up[i] = the ratio from at + i to at + i + 1,
    down[i] = the ratio from at - i to at - i - 1 (module doc)."""
    above = anchor * np.cumprod(up[: hi - at])
    below = anchor * np.cumprod(down[: at - lo])
    return np.concatenate((below[::-1], [anchor], above))


def _cells(s: _Setup, n: int) -> tuple[int, int, list[int], list[int], list[int], int]:
    """The windows of the trinomial pair `s` at n (module doc): B's, its rows, A's per row, and the number of cells."""
    b_lo, b_hi = _window(n, s.law_b.p)
    rows = list(range(b_lo, b_hi + 1))
    a_lo = [_window(n - b, s.law_a.p)[0] for b in rows]
    a_hi = [_window(n - b, s.law_a.p)[1] for b in rows]
    return b_lo, b_hi, rows, a_lo, a_hi, sum(hi - lo + 1 for lo, hi in zip(a_lo, a_hi, strict=True))


def krr_pair_cells(pair: str, *, eps0: float, n: int, k: int) -> int:
    """The number of cells of the pair's window at n (module doc), counted before any work: above MAX_CELLS the pair
    is refused. Ranges as `krr_pair_grids`."""
    eps0, n, k = _check(pair, eps0, n, k)
    return _cells(_setup(pair, eps0, k), n)[5]


@lru_cache(maxsize=4)
def _fine(pair: str, eps0: float, n: int, k: int) -> _Fine:
    return _fine_from(_setup(pair, eps0, k), n)


def _fine_from(s: _Setup, n: int) -> _Fine:
    """Both directions' optimistic masses on the fine grid of the trinomial pair `s` at n (module doc)."""
    b_lo, b_hi, rows, a_lo, a_hi, cells = _cells(s, n)
    if cells > MAX_CELLS:
        raise ParameterError("n", n, f"a k-RR pair window of at most {MAX_CELLS:.0e} cells (here {cells:.1e}; smaller n)")
    # The anchor and the column A = a_star (module doc).
    iv = iv_context()
    b_star = min(max(int(round(n * s.law_b.p)), b_lo), b_hi)
    a_star = min(max(int(round((n - b_star) * s.law_a.p)), 0), n - b_star)
    log_anchor = log_binomial_pmf_interval(b_star, n, iv.log(s.law_b.p_iv), iv.log(s.law_b.q_iv))
    log_anchor += log_binomial_pmf_interval(a_star, n - b_star, iv.log(s.law_a.p_iv), iv.log(s.law_a.q_iv))
    anchor, eps_anchor = _float_with_error(iv.exp(log_anchor))
    # A row b may need A = a_star outside the column's range n - b: the column stops where R = n - a* - b hits 0.
    b_top = min(b_hi, n - a_star)
    xb = np.arange(b_star, b_top, dtype=float)
    up_b = ((n - a_star - xb) / (xb + 1)) * s.rho_b
    xb = np.arange(b_star, b_lo, -1, dtype=float)
    down_b = (xb / (n - a_star - xb + 1)) * (1 / s.rho_b)
    column = _walk(anchor, b_star, b_lo, b_top, up_b, down_b)
    inv_rho_a = 1 / s.rho_a  # its rounding: one more u per step, in e_rho below
    e_rho = 1.001 * (s.rho_err + UNIT)
    rel_g = 1.01 * (s.coefficient_err + 3 * UNIT)
    # The losses' range (each row's loss is monotone in A: a ratio of linear functions): the grid's ends.
    ends = []
    for a_end in (a_lo, a_hi):
        ends.append(_losses(s, np.array(a_end, dtype=float), np.array(rows, dtype=float), n)[2:])
    low = min(float(np.min(l0 - l1)) for l0, l1 in ends)
    high = max(float(np.max(l0 - l1)) for l0, l1 in ends)
    sd_guess = max(math.sqrt(max(_rough_variance(s, n), 0.0)), 1e-300)
    width = max(high - low, 2 * sd_guess) + 1e-9
    step = 2.0 ** math.floor(math.log2(max(sd_guess * 2.0**-FINE_PER_SD, width * 2 / FINE_BINS, 1e-300)))
    base = int(math.floor((-high - 1e-9) / step)) - 2  # both directions: losses in [-high, high] and [low, -low]
    top = int(math.ceil((max(high, -low) + 1e-9) / step)) + 2
    base = min(base, int(math.floor((low - 1e-9) / step)) - 2)
    size = top - base + 1
    forward, backward = np.zeros(size), np.zeros(size)
    pending: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    held = 0

    def flush() -> None:
        # One bincount over many rows (a per-row one would cost the whole grid's length each time).
        if pending:
            for out, j in ((forward, 0), (backward, 2)):
                index = np.concatenate([part[j] for part in pending])
                weights = np.concatenate([part[j + 1] for part in pending])
                out += np.bincount(index, weights=weights, minlength=size)[:size]
            pending.clear()

    for i, b in enumerate(rows):
        lo, hi = a_lo[i], min(a_hi[i], n - b)
        if lo > hi:
            continue
        start, stop = min(lo, a_star), max(hi, a_star)
        if b <= b_top and stop <= n - b:
            at, row_anchor, row_eps, row_steps = a_star, float(column[b - b_lo]), eps_anchor, abs(b - b_star)
        else:
            # A = a_star is outside this row's support (small n only): the row gets its own interval anchor.
            at = min(max(int(round((n - b) * s.law_a.p)), lo), hi)
            start, stop = lo, hi
            log_row = log_binomial_pmf_interval(b, n, iv.log(s.law_b.p_iv), iv.log(s.law_b.q_iv))
            log_row += log_binomial_pmf_interval(at, n - b, iv.log(s.law_a.p_iv), iv.log(s.law_a.q_iv))
            if float(log_row.b) < math.log(TINY):
                continue  # a lower end of 0 for the row
            row_anchor, row_eps = _float_with_error(iv.exp(log_row))
            row_steps = 0
        if row_anchor < TINY:
            continue  # a lower end of 0 for the row (module doc)
        xa = np.arange(at, stop, dtype=float)
        up_a = ((n - b - xa) / (xa + 1)) * s.rho_a
        xa = np.arange(at, start, -1, dtype=float)
        down_a = (xa / (n - b - xa + 1)) * inv_rho_a
        values = _walk(row_anchor, at, start, stop, up_a, down_a)[lo - start : hi - start + 1]
        a = np.arange(lo, hi + 1, dtype=float)
        steps = np.abs(a - at) + row_steps
        rel = np.expm1(row_eps + (3.0 * steps + 3.0) * 1.001 * UNIT + steps * e_rho) * 1.01
        w = np.where(values < TINY, 0.0, values * (1.0 - rel))
        g0, g1, log0, log1 = _losses(s, a, float(b), n)
        margin = 2.02 * rel_g + 1e-12 * (1.0 + np.abs(log0) + np.abs(log1))
        loss = log0 - log1
        scale = (1 - rel_g) * (1 - 4 * UNIT) / n
        parts = []
        for value, g in ((loss, g0), (-loss, g1)):
            index = np.floor((value - margin) / step).astype(np.int64) - base
            # Always inside the range above; one below would be dropped, one above moved down.
            keep = index >= 0
            parts += [np.minimum(index[keep], size - 1), (w * g)[keep] * scale]
        pending.append((parts[0], parts[1], parts[2], parts[3]))
        held += len(a)
        if held > 1 << 22:
            flush()
            held = 0
    flush()
    lowered = 1 - 1.001 * UNIT * (cells + len(rows) + 4)
    forward, backward = forward * lowered, backward * lowered
    x = (base + np.arange(size)) * step
    total = float(np.sum(forward))
    mean = float(np.sum(forward * x)) / total if total > 0 else 0.0
    var = float(np.sum(forward * (x - mean) ** 2)) / total if total > 0 else 0.0
    return _Fine(step, base, forward, backward, mean, var)


def _rough_variance(s: _Setup, n: int) -> float:
    """Float variance of the loss of "x0 vs x1" by the delta method (to size the fine grid only): the loss is
    about (g_x0 - g_x1)/g at the mean counts, linear in the trinomial counts."""
    p_b = s.law_b.p
    p_a = s.law_a.p * (1 - p_b)
    p_r = 1 - p_a - p_b
    c = np.array([s.g_x0[i] - s.g_x1[i] for i in range(3)])
    g = float(np.dot(s.g_x0, (p_a * n, p_b * n, p_r * n)))
    p = np.array([p_a, p_b, p_r])
    cov = n * (np.diag(p) - np.outer(p, p))
    return float(c @ cov @ c) / (g * g)


@dataclass(frozen=True)
class _Fine:
    """Both directions' optimistic masses on the fine grid (offset + i) * step; the float mean and variance of
    the forward loss (grid choice only)."""

    step: float
    offset: int
    forward: np.ndarray
    backward: np.ndarray
    mean: float
    var: float


def krr_pair_finest_step(pair: str, *, eps0: float, n: int, k: int) -> float:
    """The fine grid step of the pair (module doc): `krr_pair_grids` serves this step and its power-of-2
    multiples. Ranges as `krr_pair_grids`; ParameterError beyond MAX_CELLS cells."""
    eps0, n, k = _check(pair, eps0, n, k)
    return _fine(pair, eps0, n, k).step


def krr_pair_moments(pair: str, *, eps0: float, n: int, k: int) -> tuple[float, float]:
    """Float mean and variance of the loss of "x0 vs x1" of the pair, from its fine grid (uncertified: used to
    choose a grid step only). Ranges as `krr_pair_grids`."""
    eps0, n, k = _check(pair, eps0, n, k)
    fine = _fine(pair, eps0, n, k)
    return fine.mean, fine.var


def krr_pair_grids(pair: str, *, eps0: float, n: int, k: int, step: float, tail: float) -> tuple[GridPLD, GridPLD]:
    """OPTIMISTIC grid PLDs (losses rounded down to step * Z, masses' certified lower ends, cells outside the
    window dropped; module doc) of "x0 vs x1" and "x1 vs x0" of the explicit pair `pair` ("x0" or "third") of n
    shuffled eps0-k-RR reports (replace-one relation). The delta(eps) of any composition of them is at most the
    exact one of the same composition of the pair. For "third" both are the same (the pair is symmetric).
    Range: 0 < eps0 <= 30, 1 <= n <= 1e8, 3 <= k <= 1e6, step = krr_pair_finest_step times a power of 2
    (>= 1), 0 <= tail < 1 (top and bottom grid mass <= tail/2 moved down or dropped); ParameterError beyond
    MAX_CELLS cells."""
    eps0, n, k = _check(pair, eps0, n, k)
    return _coarse(_fine(pair, eps0, n, k), step, tail, eps0)


def _coarse(fine: _Fine, step: float, tail: float, eps0: float) -> tuple[GridPLD, GridPLD]:
    """Both directions of a fine grid summed onto `step` (a power-of-2 multiple of the fine step; rounded down)."""
    ratio = step / fine.step if isinstance(step, float) and step > 0 else 0.0
    if not (ratio >= 1 and math.log2(ratio) == int(math.log2(ratio)) and ratio <= 2.0**60):
        raise ParameterError("step", step, f"the pair's finest step {fine.step!r} times a power of 2 (>= 1)")
    if not 0 <= tail < 1:
        raise ParameterError("tail", tail, "0 <= tail < 1")
    shift = int(math.log2(ratio))
    made = []
    for masses in (fine.forward, fine.backward):
        index = (fine.offset + np.arange(len(masses), dtype=np.int64)) >> shift  # floor division: rounded down
        first = int(index[0])
        coarse = np.bincount(index - first, weights=masses) * (1 - 1.001 * UNIT * ((1 << shift) + 2))
        made.append(_trimmed(coarse, first, float(step), float(tail), eps0))
    return made[0], made[1]


def _trimmed(masses: np.ndarray, base: int, step: float, tail: float, eps0: float) -> GridPLD:
    """The grid without its empty ends; the low tail of mass <= tail/2 dropped and the high tail of mass
    <= tail/2 moved down to the highest kept point (both lower every delta: as PairPLD.discretise)."""
    nonzero = np.nonzero(masses > 0)[0]
    if len(nonzero) == 0:
        return GridPLD(step, 0, np.zeros(1), 0.0, False, eps0)
    masses = masses[nonzero[0] : nonzero[-1] + 1]
    offset = base + int(nonzero[0])
    cum = np.cumsum(masses)
    low_cut = min(int(np.searchsorted(cum, tail / 2, side="right")), len(masses) - 1)
    rcum = cum[-1] - np.concatenate(([0.0], cum[:-1]))
    high_cut = min(max(int(np.searchsorted(-rcum, -tail / 2, side="left")), low_cut + 1), len(masses))
    kept = masses[low_cut:high_cut].copy()
    kept[-1] += float(np.sum(masses[high_cut:])) * (1 - 1.001 * UNIT * (len(masses) + 2))
    return GridPLD(step, offset + low_cut, kept, 0.0, False, eps0)


# ---------------------------------------------------------------------------------------------------
# Any trinomial pair of the same form (the count pairs of `count_pairs`): W = Mult(n; pi_A, pi_B, pi_R) and
# g_x0, g_x1 linear in (A, B, R) with positive coefficients, every number given by an exact rational enclosure.


def _check_trinomial(cells: object, n: object) -> tuple[tuple[Enclosure, ...], int]:
    ok = isinstance(cells, tuple) and len(cells) == 9
    if isinstance(cells, tuple) and ok:
        for e in cells:
            if not (isinstance(e, tuple) and len(e) == 2 and all(isinstance(v, Fraction) for v in e) and 0 < e[0] <= e[1]):
                ok = False
    if not (ok and isinstance(cells, tuple)):
        raise ParameterError("cells", repr(cells)[:60], "9 enclosures (lo, hi) of positive Fractions: pi_A, pi_B, pi_R, g_x0 on (A, B, R), g_x1 on (A, B, R)")
    check_n(n, maximum=10**8, why="the trinomial pair PLDs")
    return cells, int(n)  # type: ignore[call-overload]


@lru_cache(maxsize=4)
def _fine_trinomial(cells: tuple[Enclosure, ...], n: int) -> _Fine:
    e = [enclosure_interval(c) for c in cells]
    return _fine_from(_setup_from(e[0], e[1], e[2], (e[3], e[4], e[5]), (e[6], e[7], e[8])), n)


def trinomial_pair_finest_step(*, cells: tuple[Enclosure, ...], n: int) -> float:
    """The fine grid step of the trinomial pair `cells` at n (as `krr_pair_finest_step`). Ranges as
    `trinomial_pair_grids`."""
    cells, n = _check_trinomial(cells, n)
    return _fine_trinomial(cells, n).step


def trinomial_pair_moments(*, cells: tuple[Enclosure, ...], n: int) -> tuple[float, float]:
    """Float mean and variance of the loss of "x0 vs x1" of the trinomial pair (uncertified: grid choice only).
    Ranges as `trinomial_pair_grids`."""
    cells, n = _check_trinomial(cells, n)
    fine = _fine_trinomial(cells, n)
    return fine.mean, fine.var


def trinomial_pair_grids(*, cells: tuple[Enclosure, ...], n: int, step: float, tail: float, eps0: float) -> tuple[GridPLD, GridPLD]:
    """OPTIMISTIC grid PLDs of "x0 vs x1" and "x1 vs x0" of a pair whose outputs have the law P_x(h) = W(h) g_x(h) / n
    (module doc), W = Mult(n; pi_A, pi_B, pi_R): `cells` holds exact enclosures of pi_A, pi_B, pi_R, then of the
    coefficients of g_x0 and of g_x1 on (A, B, R), all positive; the same certified lower ends as `krr_pair_grids`.
    eps0: a float >= every |loss| (the grids' eps_max). Range: 1 <= n <= 1e8, step = the finest step times a power
    of 2, 0 <= tail < 1; ParameterError beyond MAX_CELLS cells."""
    cells, n = _check_trinomial(cells, n)
    require_positive("eps0", eps0)
    return _coarse(_fine_trinomial(cells, n), step, tail, float(eps0))
