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

Diagonal blocks (stride w > 1; where the window exceeds MAX_CELLS: n = 1e7 and 1e8 at eps0 = 2, k = 10). The
output is coarsened: the counts (A, B, R) are mapped to the block of the start (A - j, B - j), j = (B - b_lo) mod w,
i.e. the block {(A0 + j, B0 + j, R0 - 2j): 0 <= j < w} of a start (A0, B0) on a row B0 = b_lo + w i. Every cell is
in exactly one block (cells whose start is outside its row's window are dropped). A function of the histogram is
a post-processing, so the blocked pair's delta(eps), composed, is at most the pair's. For the "third" pair the
loss is nearly constant along a block: g_x0 - g_x1 = (e0 - 1)(A - B) is constant on it, and g changes by a
relative ~ w/n, so the blocks keep almost all the information (the "x0" pair's is not; only "third" is blocked).
The block's lower ends (j = 0..J, J = min(w - 1, floor(R0 / 2)): the cells with R >= 0):
- loss: P_x0(block)/P_x1(block) = sum W g_x0 / sum W g_x1 >= min_j g_x0/g_x1 (a mediant), and g_x0/g_x1 is a
  ratio of affine functions of j, monotone, so its minimum is at j = 0 or J: the smaller end's lower end (the
  reverse direction: the smaller of the negated ones);
- mass: g_x is affine in j, so g_x >= its smaller end on the block; W along the diagonal has the ratios
  r_i = W(A0+i+1, B0+i+1)/W(A0+i, B0+i) = R_i (R_i - 1) / ((A0+i+1)(B0+i+1)) (pi_A/pi_R)(pi_B/pi_R), R_i = R0 - 2i,
  decreasing in i (W is log-concave along the diagonal), so W(A0+j, B0+j) >= W(A0, B0) r_(J-1)^j and
  sum_j W >= W(A0, B0) sum_(j<=J) r_(J-1)^j = W(A0, B0) expm1((J+1) t)/expm1(t), t = log r_(J-1) (the sum is
  increasing in t: t is taken at its lower end, the float ratio's 5 roundings and rho's errors and the libm
  margin subtracted; the closed form gets a relative 1e-11 for expm1's and the division's roundings) (the
  tangent bound); and, where the next row of starts holds (A0 + w, B0 + w) (the next block's start on the same
  diagonal, so every cell j = 0..w exists), log W lies above its chord on j in [0, w] (concave), so
  sum_j W >= sum_(j<w) W(A0, B0)^(1 - j/w) W(A0+w, B0+w)^(j/w) = W(A0, B0) expm1(w t)/expm1(t),
  t = (log W(A0+w, B0+w) - log W(A0, B0)) / w at its lower end (both W at their certified lower ends, the sum
  increasing in each; libm logs, 4e-12 (1 + |logs|) / w subtracted) (the chord bound). The larger one is kept.
The tangent bound loses about kappa J^2 / 3 of a block's mass, the chord kappa w^2 / 12 (kappa ~ 2D/n, the
curvature of log W along the diagonal): ~ 1e-5 at n = 1e7 (w = 7), ~ 1e-4 at n = 1e8 (w = 62), eps0 = 2, k = 10;
g's smaller end ~ w e0 / n; the loss bound ~ w/n of a loss. Block starts are BLOCK_CELLS at most
(`krr_pair_stride` picks the smallest w): ~ 3-5 CPU s for a composed lower end.

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
    "BLOCK_CELLS",
    "MAX_STRIDE",
    "FINE_BINS",
    "FINE_PER_SD",
    "Enclosure",
    "krr_pair_cells",
    "krr_pair_finest_step",
    "krr_pair_grids",
    "krr_pair_moments",
    "krr_pair_stride",
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
# Block starts evaluated at most where the pair's cells exceed MAX_CELLS (diagonal blocks, module doc: a few seconds
# of numpy work), and the longest block.
BLOCK_CELLS = 3 * 10**7
MAX_STRIDE = 10**4


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


def _cells(s: _Setup, n: int, stride: int = 1) -> tuple[int, int, list[int], list[int], list[int], int]:
    """The windows of the trinomial pair `s` at n (module doc): B's, its rows (every `stride`-th B: the rows of the
    block starts, module doc), A's per row, and the number of cells evaluated."""
    b_lo, b_hi = _window(n, s.law_b.p)
    rows = list(range(b_lo, b_hi + 1, stride))
    a_lo = [_window(n - b, s.law_a.p)[0] for b in rows]
    a_hi = [_window(n - b, s.law_a.p)[1] for b in rows]
    return b_lo, b_hi, rows, a_lo, a_hi, sum(hi - lo + 1 for lo, hi in zip(a_lo, a_hi, strict=True))


def krr_pair_cells(pair: str, *, eps0: float, n: int, k: int, stride: int = 1) -> int:
    """The number of cells of the pair's window at n (module doc) evaluated with diagonal blocks of `stride` cells
    (1: every cell), counted before any work: above MAX_CELLS the pair is refused. Ranges as `krr_pair_grids`."""
    eps0, n, k = _check(pair, eps0, n, k)
    return _cells(_setup(pair, eps0, k), n, _check_stride(stride))[5]


def krr_pair_stride(pair: str, *, eps0: float, n: int, k: int) -> int:
    """The diagonal block length the pair is evaluated with (module doc): 1 (every cell) where its window fits
    MAX_CELLS, else the smallest length whose block starts fit BLOCK_CELLS. Ranges as `krr_pair_grids`."""
    eps0, n, k = _check(pair, eps0, n, k)
    s = _setup(pair, eps0, k)
    cells = _cells(s, n)[5]
    if cells <= MAX_CELLS:
        return 1
    stride = max(2, cells // BLOCK_CELLS)
    while _cells(s, n, stride)[5] > BLOCK_CELLS:
        stride += 1
    return stride


def _check_stride(stride: object) -> int:
    if not (isinstance(stride, int) and not isinstance(stride, bool) and 1 <= stride <= MAX_STRIDE):
        raise ParameterError("stride", stride, f"an integer 1 <= stride <= {MAX_STRIDE} (the diagonal block length)")
    return stride


@lru_cache(maxsize=4)
def _fine(pair: str, eps0: float, n: int, k: int, stride: int = 1) -> _Fine:
    return _fine_from(_setup(pair, eps0, k), n, stride)


def _block_sum(t: np.ndarray, last: np.ndarray) -> np.ndarray:
    """A lower end of sum_{j=0}^{last} e^(j t) (increasing in t: t is a lower end), from its closed form
    expm1((last + 1) t) / expm1(t) with the libm margin (module doc); 1 where last = 0, where t = 0 the count."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        ratio = np.expm1((last + 1.0) * t) / np.expm1(t)
    ratio = np.where(t == 0.0, last + 1.0, ratio) * (1.0 - 1e-11)
    # A non-finite ratio (overflow at small n, where the ratios are far from 1): the first term alone.
    return np.where((last == 0) | ~np.isfinite(ratio), 1.0, np.maximum(ratio, 1.0))


def _fine_from(s: _Setup, n: int, stride: int = 1) -> _Fine:
    """Both directions' optimistic masses on the fine grid of the trinomial pair `s` at n (module doc), every cell
    (stride 1) or the diagonal blocks of `stride` cells (module doc)."""
    b_lo, b_hi, rows, a_lo, a_hi, cells = _cells(s, n, stride)
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
    scale = (1 - rel_g) * (1 - 4 * UNIT) / n
    # The diagonal ratio's float (module doc): 3 roundings of exact integers, rho_A rho_B's product and errors.
    rho_ab = s.rho_a * s.rho_b
    e_ratio = 1.01 * (6 * UNIT + 2 * s.rho_err)
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
    previous: _BlockRow | None = None  # blocks: a row's masses wait for the next row's starts (the chord, module doc)

    def flush() -> None:
        # One bincount over many rows (a per-row one would cost the whole grid's length each time).
        if pending:
            for out, j in ((forward, 0), (backward, 2)):
                index = np.concatenate([part[j] for part in pending])
                weights = np.concatenate([part[j + 1] for part in pending])
                out += np.bincount(index, weights=weights, minlength=size)[:size]
            pending.clear()

    def emit(w: np.ndarray, directions: list[tuple[np.ndarray, np.ndarray]]) -> None:
        # The masses' lower ends w g / n on the grid, both directions (losses' lower ends rounded down).
        nonlocal held
        parts = []
        for low_value, g in directions:
            index = np.floor(low_value / step).astype(np.int64) - base
            # Always inside the range above; one below would be dropped, one above moved down.
            keep = index >= 0
            parts += [np.minimum(index[keep], size - 1), (w * g)[keep] * scale]
        pending.append((parts[0], parts[1], parts[2], parts[3]))
        held += len(w)
        if held > 1 << 22:
            flush()
            held = 0

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
        directions = [(loss - margin, g0), (-loss - margin, g1)]
        if stride > 1:
            # The block (a + j, b + j, R - 2j), j = 0..last (module doc): the loss's lower end at its two ends, g's
            # smaller end, W's sum from the start cell and the block's last ratio.
            last = np.minimum(float(stride - 1), np.floor((n - b - a) / 2.0))
            end_g0, end_g1, end_log0, end_log1 = _losses(s, a + last, float(b) + last, n)
            end_margin = 2.02 * rel_g + 1e-12 * (1.0 + np.abs(end_log0) + np.abs(end_log1))
            directions = [(np.minimum(loss - margin, end_log0 - end_log1 - end_margin), np.minimum(g0, end_g0)),
                          (np.minimum(-loss - margin, end_log1 - end_log0 - end_margin), np.minimum(g1, end_g1))]
            before = np.maximum(last - 1.0, 0.0)  # the block's last ratio: from j = last - 1 to last
            r_before = n - b - a - 2.0 * before
            ratio = (r_before * (r_before - 1.0)) / ((a + before + 1.0) * (b + before + 1.0)) * rho_ab
            with np.errstate(divide="ignore"):
                log_ratio = np.log(ratio)
            t = log_ratio - e_ratio - 1e-12 * (1.0 + np.abs(log_ratio))
            tangent = _block_sum(np.where(ratio > 0, t, 0.0), np.where(ratio > 0, last, 0.0))
            row = _BlockRow(b, lo, w, tangent, last, directions)
            if previous is not None:
                emit(*_chord(previous, row, stride))
            previous = row
            continue
        emit(w, directions)
    if previous is not None:
        emit(*_chord(previous, None, stride))
    flush()
    lowered = 1 - 1.001 * UNIT * (cells + len(rows) + 4)
    forward, backward = forward * lowered, backward * lowered
    x = (base + np.arange(size)) * step
    total = float(np.sum(forward))
    mean = float(np.sum(forward * x)) / total if total > 0 else 0.0
    var = float(np.sum(forward * (x - mean) ** 2)) / total if total > 0 else 0.0
    return _Fine(step, base, forward, backward, mean, var)


@dataclass(frozen=True)
class _BlockRow:
    """One row of block starts (module doc): its B, first A, the lower ends of W at the starts, the tangent
    bound's factor, the blocks' last j, and both directions' (loss lower end, g lower end)."""

    b: int
    lo: int
    w: np.ndarray
    tangent: np.ndarray
    last: np.ndarray
    directions: list[tuple[np.ndarray, np.ndarray]]


def _chord(row: _BlockRow, following: _BlockRow | None, stride: int) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """The lower ends of the row's block sums of W (module doc): the larger of the tangent bound and, where the
    next row of starts holds the cell (A + w, B + w) (the next block's start on the same diagonal), the chord
    bound W(A, B) sum_(j<w) e^(j t), t = (log W(A+w, B+w) - log W(A, B)) / w taken at its lower end."""
    factor = row.tangent
    if following is not None and following.b == row.b + stride:
        at = np.arange(len(row.w)) + row.lo + stride - following.lo
        inside = (at >= 0) & (at < len(following.w)) & (row.last == stride - 1) & (row.w > 0)
        ahead = np.where(inside, following.w[np.clip(at, 0, len(following.w) - 1)], 0.0)
        inside &= ahead > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            log_start, log_ahead = np.log(np.where(inside, row.w, 1.0)), np.log(np.where(inside, ahead, 1.0))
        # libm logs (1e-12 relative each) and the subtraction's and division's roundings, far below this margin.
        t = (log_ahead - log_start) / stride - 4e-12 * (1.0 + np.abs(log_ahead) + np.abs(log_start)) / stride
        chord = _block_sum(t, np.full(len(t), float(stride - 1)))
        factor = np.maximum(factor, np.where(inside, chord, 0.0))
    return row.w * factor, row.directions


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


def krr_pair_finest_step(pair: str, *, eps0: float, n: int, k: int, stride: int = 1) -> float:
    """The fine grid step of the pair (module doc): `krr_pair_grids` serves this step and its power-of-2
    multiples. Ranges as `krr_pair_grids`; ParameterError beyond MAX_CELLS cells."""
    eps0, n, k = _check(pair, eps0, n, k)
    return _fine(pair, eps0, n, k, _check_stride(stride)).step


def krr_pair_moments(pair: str, *, eps0: float, n: int, k: int, stride: int = 1) -> tuple[float, float]:
    """Float mean and variance of the loss of "x0 vs x1" of the pair, from its fine grid (uncertified: used to
    choose a grid step only). Ranges as `krr_pair_grids`."""
    eps0, n, k = _check(pair, eps0, n, k)
    fine = _fine(pair, eps0, n, k, _check_stride(stride))
    return fine.mean, fine.var


def krr_pair_grids(pair: str, *, eps0: float, n: int, k: int, step: float, tail: float, stride: int = 1) -> tuple[GridPLD, GridPLD]:
    """OPTIMISTIC grid PLDs (losses rounded down to step * Z, masses' certified lower ends, cells outside the
    window dropped; module doc) of "x0 vs x1" and "x1 vs x0" of the explicit pair `pair` ("x0" or "third") of n
    shuffled eps0-k-RR reports (replace-one relation), or of its diagonal blocks of `stride` cells (a
    post-processing of the pair; module doc). The delta(eps) of any composition of them is at most the exact one
    of the same composition of the pair. For "third" both are the same (the pair is symmetric).
    Range: 0 < eps0 <= 30, 1 <= n <= 1e8, 3 <= k <= 1e6, step = krr_pair_finest_step times a power of 2
    (>= 1), 0 <= tail < 1 (top and bottom grid mass <= tail/2 moved down or dropped), 1 <= stride <= MAX_STRIDE
    (`krr_pair_stride` gives the one used); ParameterError beyond MAX_CELLS evaluated cells."""
    eps0, n, k = _check(pair, eps0, n, k)
    return _coarse(_fine(pair, eps0, n, k, _check_stride(stride)), step, tail, eps0)


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
