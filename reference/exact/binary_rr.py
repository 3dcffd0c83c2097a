"""Exact central privacy of shuffled binary randomized response: the certified worst neighbouring pair
(`exact.shuffled_binary_rr`) and the exact privacy of explicit pairs (`exact.shuffled_binary_rr.pair`).

Binary RR keeps its bit w.p. p = e^eps0/(e^eps0+1) (q = 1 - p = 1/(e^eps0+1)). The shuffled output is
equivalent to the number of ones. For neighbours differing in user 1 (1 vs 0) with k ones among the other
n-1 users, S_k = Bin(k, p) + Bin(n-1-k, q), P_k = Bern(p) + S_k, Q_k = Bern(q) + S_k. The bit flip maps
P_k, Q_k to Q_{n-1-k}, P_{n-1-k} (mirrored), so D(Q_k||P_k) = D(P_{n-1-k}||Q_{n-1-k}) and the exact
privacy curve is

    delta(eps) = max_{0 <= k <= n-1} d_k(eps),   d_k(eps) = D_{e^eps}(P_k || Q_k),
    eps(delta) = min{eps : delta(eps) <= delta} = max_k eps_k(delta).

Certified worst case (proof in `proofs_checks/derived/exact_binary_rr.py`):
- Removal (post-processing): for every k in a block [K, K+B], S_k = S' + R with S' the count of a
  population of K ones and n-1-K-B zeros and R = Bin(k-K, p) + Bin(K+B-k, q) independent of user 1. Adding
  R is the same Markov kernel on both P' and Q', so d_k <= d'_K, the divergence of the pair of population
  n - B with K ones. One evaluation bounds a whole block.
- Thinned removal (sharper; proof checks "thinned removal" in `proofs_checks/derived/exact_binary_rr.py`): Bern(p) =
  lambda delta_1 + (1 - lambda) Bern(q), lambda = 1 - e^-eps0, so each of the k - K ones of the block acts,
  independently w.p. e^-eps0, as a zero. Given which ones are deterministic (J of them, J ~ Bin(k-K, lambda)),
  S_k is a shift of the count of the population K ones, n-1-K-J zeros; joint convexity and shift invariance
  give d_k <= E_J d(K, n-1-K-J) <= d(K, n-1-K-j) + Pr[Bin(B, lambda) > j] (d is non-decreasing in J and
  Bin(k-K, lambda) is stochastically below Bin(B, lambda)). With j the (1 - THIN_FRACTION delta) quantile
  (certified Chernoff bound), a block of B removes about lambda B users instead of B: ~10x fewer at eps0 = 0.1.
- Guide (uncertified: it only chooses which pairs are solved; the lower end is the certified eps of the best
  one): a scan of d_k at a fixed eps over a geometric grid of k from both ends, refined by a ternary search, twice
  (`_classic_start`). Where the variance (n-1) p q is at least LATTICE_GUIDE_MIN_VARIANCE (the flat regime, long
  windows: the scan's ~200 window set-ups were most of a call at n = 1e8), the lattice-phase guide instead
  (`_lattice_start`, `_lattice_guide`): every even cumulant of S_k is the same for all k and every odd one linear
  in k, so log d_k is a slow trend plus a lattice term -kappa dist(mu_k + t, Z)^2 (the threshold is an integer);
  the phase t is fitted to ~8 pairs near the top end and the predicted best ones evaluated (~20 set-ups). Where the
  transport then cannot certify, the sweeps run from a fresh classic start (work counted from 0).
- Sweep: then at eps_U = lower end times (1 + 0.9 rel_tol), [0, n-1] is covered left to right
  by blocks [K, K+B], each bounded by its thinned removal population: a block whose bound is <= delta is
  passed, else narrowed; the next width is predicted from the measured cost per removed user (uncertified:
  it only chooses which blocks are tried). A single pair (B = 0) above delta is solved, which raises eps_U.
  The cost is ~ 1/tolerance blocks where eps_k is flat in k (eps0 <= 4 at large n: eps_k varies by ~1e-4
  relative over all k at n = 1e6, shrinking like 1/sqrt(n)), each O(sqrt(n)).
- Budget (deterministic: work counted in window points, never seconds; WORK_BUDGET ~ 5 s of one core):
  the guide may spend GUIDE_SHARE of it; a coarse sweep at COARSE_TOLERANCE (= MAX_TOLERANCE, 1%: few, wide
  blocks) certifies an interval first; a sweep at rel_tol then refines it with the work left, widening by
  TOLERANCE_GROWTH or more (from its pace) when a level has spent LEVEL_SHARE of what is left (blocks passed
  at a smaller eps_U stay passed at a larger one; NOT the other way round, which is why the refinement
  starts again from k = 0), and is abandoned at half the coarse width. The finest completed sweep gives the
  upper end, every solved pair counts for the lower end. Refuses only when the coarse sweep does not finish
  or the best lower end stays more than MAX_TOLERANCE below the upper end (eps near 0).
  Order (`_removal_sweeps`): the refinement runs first and pauses once it has counted FINE_FIRST_SHARE of the
  budget; where it has covered [0, n-1] by then (every removal-route point of the tightest benchmark's k = 2 grid),
  that is the result and no coarse sweep runs; else the coarse sweep runs and the refinement resumes where it
  paused, counted as if started after it (the same blocks at the same eps_U as coarse-then-refine; from k = 0
  where the coarse sweep solved a pair).
  The result [lower, eps_U] contains max_k eps_k and its width is <= tolerance * eps_U (tolerance = rel_tol
  unless widened).
- Window anchors in floats (`_log_pmf_float`): Stirling's series with its remainder enclosed and the
  divergence term from exact integer ratios (no cancellation), ~100x cheaper than 100-bit intervals, error
  <= 2e-14 at the mode (tested against 50-digit mpmath); the interval route remains for small counts.

Per pair (`_Pair`): S_k's pmf f is log-concave (sum of independent Bernoullis), so P_k/Q_k is
non-decreasing in s and d_k = H(s*) with H(s') = P(S+B >= s') - e Q(S+B >= s') = a T(s'-1) - b T(s'),
T(t) = Pr[S_k >= t], a = p - e q, b = e p - q, s* = min{s : a f(s-1) - b f(s) >= 0}. s* is bracketed from
a guess (the mean of S_k tilted by b/a with its skew correction, `_Pair._guess`: exact for one binomial), then found by bisection on certified values of g(s) = a f(s-1) - b f(s), each f(s) or T(t) a single dot product over
the shorter of the two binomial windows (no convolution), so a delta evaluation costs
O(window log window) after an O(window) set-up, window = O(sqrt(n pq log(1/delta))).
At many eps at once (`pair_delta_evaluator_many`, the profile envelope of compose.binary_rr): the same g and
H bounds as arrays, s* bracketed among a few counts around the guess (then around the guess corrected by its
error at the nearest bracketed eps), the f values of those counts by one einsum over a sliding view of the
zero-padded long window; an eps not bracketed there takes the path above.

Certified arithmetic: both binomials are certified windows (interval anchor + ratio recurrence with the
floating-point model of `shuffle_spec.reference.numerics.binomial`, tails by Chernoff in interval arithmetic), computed SCALED
by e^{-L/2} each (L = log(delta) clamped to [-690, 0]) so that every value that matters for a delta of
order e^L is a normal float: delta down to 1e-300 stays certified. Dot products of
non-negative terms have relative error <= (terms) u whatever the order; every dropped tail is added to
the upper end.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from fractions import Fraction
from typing import Any, Iterator

import numpy as np

from ..numerics.binomial import ProbabilityPair, iv_context, log_binomial_pmf_interval
from . import binary_rr_transport as transport
from ..numerics.solver import solve_epsilon
from ..core.errors import ParameterError, require_integer, require_positive, require_probability
from ..core.limits import RANGES
from ..core.parameters import check_delta, check_eps0, check_n
from ..core.results import NO_AMPLIFICATION, BoundValue

__all__ = [
    "MAX_EPS0",
    "MIN_DELTA",
    "binary_rr_pair_delta",
    "binary_rr_pair_epsilon",
    "block_delta_bound",
    "counts_evaluated",
    "one_direction_delta",
    "pair_delta_evaluator",
    "pair_delta_evaluator_many",
    "shuffled_binary_rr",
    "shuffled_binary_rr_delta",
    "shuffled_binary_rr_pair",
    "thinned_block_delta_bound",
    "thinned_removal",
    "WorstCase",
    "worst_case",
]

STATEMENT = "exact.shuffled_binary_rr"
PAIR_STATEMENT = "exact.shuffled_binary_rr.pair"
UNIT = 2.0**-53
TINY = 1e-280
# The supported range, from its one source (`shuffle_spec.reference.core.limits.RANGES`): eps0 <= 100, n <= 1e12,
# delta >= 1e-300.
MIN_DELTA = RANGES[STATEMENT].delta_min
MAX_EPS0 = RANGES[STATEMENT].eps0_max
MAX_N = RANGES[STATEMENT].n_max
# Largest binomial window (points) held in memory: 8 arrays of this many floats, ~ 0.5 GB at most.
MAX_WINDOW = 8_000_000
DEFAULT_REL_TOL = 1e-6
PAIR_REL_TOL = 1e-7
# The windows drop at most this fraction of delta (scaled); far below the certified width.
TAIL_FRACTION = 1e-9
THIN_FRACTION = 1e-7
# Bounded time: after this much work at one tolerance the sweep widens the tolerance by TOLERANCE_GROWTH (the
# interval returned says the width reached); it refuses past MAX_TOLERANCE. Work is counted in binomial window
# points of the evaluated pairs (deterministic, roughly proportional to time), never in seconds.
# A level may spend LEVEL_SHARE of the work left; the whole call at most WORK_BUDGET (~ 5-7 s of one core of
# the reference machine with wide windows: ~ 5-7e-9 s per unit). Each evaluation counts its window points
# plus EVALUATION_WORK (its fixed cost, ~ 0.1-0.5 ms).
WORK_BUDGET = 1_000_000_000
LEVEL_SHARE = 0.3
EVALUATION_WORK = 20_000
TOLERANCE_GROWTH = 4.0
MAX_TOLERANCE = 0.01
# Coarse-first: the guide may spend GUIDE_SHARE of the budget; a sweep at COARSE_TOLERANCE
# certifies an interval first (cheap: few, wide blocks), then the sweep at the requested tolerance refines it
# if the work left is at least REFINE_MIN times what was spent so far.
GUIDE_SHARE = 0.1
# eps_U = (1 + TARGET_SHARE tolerance) x the best lower end (the width stays <= tolerance: solved pairs are
# certified to PAIR_REL_TOL <= tolerance / 10); the step prediction aims at STEP_MARGIN of the room left.
TARGET_SHARE = 0.9
STEP_MARGIN = 0.92
COARSE_TOLERANCE = 1e-2
REFINE_MIN = 1.0
# The refinement runs first, pausing once it has counted this share of WORK_BUDGET (`_removal_sweeps`): where it
# completes by then, no coarse sweep runs. Below LEVEL_SHARE / (1 + REFINE_MIN), the least level share of a refinement.
FINE_FIRST_SHARE = 0.1
# Counts stepped one by one past the bisection's bracket before `_Pair._ambiguous_range` takes over.
AMBIGUOUS_STEPS = 64
# Passes of `_Pair.scaled_delta_bounds_many` before an eps takes the scalar path.
MANY_PASSES = 4

# ---------------------------------------------------------------- certified scaled binomial windows


@lru_cache(maxsize=64)
def _keep_pair(eps0: float) -> tuple[ProbabilityPair, ProbabilityPair]:
    """(keep, flip): p = 1/(1+r), q = r/(1+r), r = e^-eps0, as intervals and floats with relative errors.
    q is computed as r/(1+r), not 1 - p, so that it stays accurate for large eps0."""
    iv = iv_context()
    r = iv.exp(-iv.mpf(eps0))
    p, q = 1 / (1 + r), r / (1 + r)
    pf, pe = _float_with_error(p)
    qf, qe = _float_with_error(q)
    return ProbabilityPair(p, q, pf, qf, pe, qe), ProbabilityPair(q, p, qf, pf, qe, pe)


def _float_with_error(x: Any) -> tuple[float, float]:  # x: an mpmath interval (untyped)
    """A float near the positive interval x and a bound on its relative distance to every point of x."""
    value = float(x.mid)
    if not (value > 0.0 and math.isfinite(value)) or not x.a > 0:
        raise ParameterError("probability", value, "a positive normal float")
    worst = max(abs(x.b - value), abs(value - x.a)) / x.a
    return value, float(worst.b) * (1 + 1e-6) + 2.0**-1074


def _exp_up(x: float) -> float:
    """A float >= e^x (libm exp within far less than the 1e-12 margin), never 0."""
    return max(math.exp(min(x, 709.0)) * (1 + 1e-12), 2.0**-1074)


def _log_tail(x: int, m: int, pair: ProbabilityPair) -> float:
    """An upper bound on -m KL(x/m || p): log of the Chernoff bound on Pr[X <= x] (x <= mp) or Pr[X >= x]
    (x >= mp). Computed in floats: t1 = x log(x/(m p)), t2 = (m-x) log((m-x)/(m q)); each argument carries
    2 roundings and the error of p (q), i.e. an absolute error <= 3u + p_err in its log, times x; libm's log
    is assumed within 1 ulp (a 4x margin is added: 8u |t|), the products and the sum 2 more roundings."""
    t1 = x * math.log(x / (m * pair.p)) if x > 0 else 0.0
    t2 = (m - x) * math.log((m - x) / (m * pair.q)) if m - x > 0 else 0.0
    margin = 4.0 * (m * (3 * UNIT + pair.p_err + pair.q_err) + 8 * UNIT * (abs(t1) + abs(t2))) + 1e-300
    return -(t1 + t2) + margin


def _log_tail_function(m: int, pair: ProbabilityPair, memo: dict[int, float]) -> Callable[[int], float]:
    """x -> `_log_tail(x, m, pair)`, the same float for every x (the same operations in the same order), kept in
    `memo` by x and read from there when asked again; the parts that do not depend on x (m p, m q, the margin's m
    term) are computed once: the window edges' bisections ask for a dozen counts of one (m, pair)."""
    mp, mq = m * pair.p, m * pair.q
    fixed = m * (3 * UNIT + pair.p_err + pair.q_err)
    scale = 8 * UNIT
    log = math.log

    def log_tail(x: int) -> float:
        value = memo.get(x)
        if value is None:
            t1 = x * log(x / mp) if x > 0 else 0.0
            rest = m - x
            t2 = rest * log(rest / mq) if rest > 0 else 0.0
            value = memo[x] = -(t1 + t2) + (4.0 * (fixed + scale * (abs(t1) + abs(t2))) + 1e-300)
        return value

    return log_tail


def _edge(m: int, pair: ProbabilityPair, log_target: float, direction: int, memo: dict[int, float] | None = None) -> int:
    """A window edge beyond which the certified Chernoff tail is <= e^log_target (bisection on the certified
    exponent `_log_tail`, which is monotone in x on each side of the mean up to its margin; the returned edge
    is verified). `memo` (optional) receives every `_log_tail(x, m, pair)` computed, by x: a pure function, so the
    verification and the caller (the dropped mass just outside the edge) read the values again instead of
    recomputing them (the same floats)."""
    tail = _log_tail_function(m, pair, {} if memo is None else memo)
    mean = m * pair.p
    if direction < 0:
        inner, outer = math.floor(mean), -1  # the edge x has tail(x - 1) <= target; x - 1 in (outer, inner)
        if inner < 1:
            return 0
    else:
        inner, outer = math.ceil(mean), m + 1
        if inner > m - 1:
            return m
    # Bracket from the normal approximation (uncertified: it only shortens the bisection, whose invariants
    # are checked values), and stop within `slack` points of the tightest edge (the window is then at most
    # ~1.5% wider; its dropped mass is bounded again where the window is built).
    spread = math.sqrt(max(-2.0 * log_target, 1.0) * m * pair.p * pair.q)
    slack = max(1, int(spread / 64))
    guess = int(mean + direction * spread)
    if min(inner, outer) < guess < max(inner, outer):
        step = max(int(spread / 16), 1)
        if tail(guess) <= log_target:
            outer = guess
            while True:
                probe = outer - direction * step
                if not min(inner, outer) < probe < max(inner, outer) or tail(probe) > log_target:
                    if min(inner, outer) < probe < max(inner, outer):
                        inner = probe
                    break
                outer, step = probe, 2 * step
        else:
            inner = guess
            while True:
                probe = inner + direction * step
                if not min(inner, outer) < probe < max(inner, outer):
                    break
                if tail(probe) <= log_target:
                    outer = probe
                    break
                inner, step = probe, 2 * step
    while abs(outer - inner) > slack:
        mid = (inner + outer) // 2
        if tail(mid) <= log_target:
            outer = mid
        else:
            inner = mid
    x = outer
    if x < 0:
        return 0
    if x > m:
        return m
    if tail(x) > log_target:  # the bisection's last step verified this: never reached unless a bug
        raise ArithmeticError("exact binary RR: the certified tail bound does not hold at the bisection's end")
    return int(x) + 1 if direction < 0 else int(x) - 1


@dataclass(frozen=True)
class _Window:
    """e^-log_scale Pr[Bin(m, p) = lo + i] = pmf[i] (1 + r_i), |r_i| <= rel, up to `absolute` per value for
    values below TINY; `dropped` >= e^-log_scale Pr[X outside the window] (all proven, module doc)."""

    lo: int
    pmf: np.ndarray
    rel: float
    dropped: float
    absolute: float

    @cached_property
    def hi(self) -> int:
        """The window's last count (read at every pmf value of a pair: kept)."""
        return self.lo + len(self.pmf) - 1

    @cached_property
    def total(self) -> float:
        """float(np.sum(pmf)), computed once: a pair's set-up and its point bound read it up to four times (the
        same reduction of the same array: the same float each time)."""
        return float(np.sum(self.pmf))

    @cached_property
    def largest(self) -> float:
        """float(np.max(pmf)), computed once (exact: no rounding in a maximum)."""
        return float(np.max(self.pmf))


# Largest number of steps in m over which an anchor is carried (relative error grows by 3u + q_err each).
MAX_ANCHOR_STEPS = 5_000
# Base anchors sit at the multiples of ANCHOR_GRID: the one nearest to m is at most MAX_ANCHOR_STEPS away.
ANCHOR_GRID = 2 * MAX_ANCHOR_STEPS
# Cache of base anchors, (pair, log_scale, m0) -> (k0, value, relative error): each is a pure function of its
# key, so the cache only saves time (cleared when it holds ANCHOR_CACHE_SIZE of them) and never changes a value.
_ANCHORS: dict[tuple[Any, ...], tuple[int, float, float]] = {}
ANCHOR_CACHE_SIZE = 4096


def _path_factors(m_from: int, k_from: int, m_to: int, k_to: int, pair: ProbabilityPair, lead: int = 0) -> np.ndarray:
    """Ratios along a path from (m_from, k_from) up to (m_to, k_to), m_to > m_from, 0 <= k_to - k_from <=
    m_to - m_from, of Pr[Bin(i, p) = k]: a step (i-1, k) -> (i, k) multiplies by q i/(i - k), a step
    (i-1, k-1) -> (i, k) by p i/k (exact identities). The k-steps are spread evenly so the path follows the
    mode line and every value on it stays of the order of the pmf near the mode. The ratios follow `lead`
    entries left for the caller (the anchor's value: one array for the running product, no copy).

    Each ratio is fl(fl(i / max(den, 1)) * c), den = k and c = p on a k-step, den = i - k and c = q otherwise (integers
    below 2^53: exact in floats), computed in place (`tests/reference/exact/test_binary_rr_same_floats.py` compares
    them with the two-branch form)."""
    d = m_to - m_from
    ks = np.arange(1, d + 1, dtype=np.int64)
    ks *= k_to - k_from
    ks //= d
    ks += k_from  # the count after step j: k_from + floor(j (k_to - k_from) / d)
    up = np.empty(d, dtype=bool)
    up[0] = ks[0] > k_from
    np.greater(ks[1:], ks[:-1], out=up[1:])
    out = np.empty(d + lead)
    ratios = out[lead:]
    kf = ks.astype(float)
    i = np.arange(m_from + 1, m_to + 1, dtype=float)
    np.subtract(i, kf, out=ratios)
    np.copyto(ratios, kf, where=up)
    np.maximum(ratios, 1.0, out=ratios)
    np.divide(i, ratios, out=ratios)
    np.multiply(ratios, np.where(up, pair.p, pair.q), out=ratios)
    return out


# The float anchor needs both counts at least this large (Stirling's remainder enclosed within 1e-15).
FLOAT_ANCHOR_MIN = 50
FLOAT_ANCHOR_ERROR = 1e-13


def _stirling_r(x: float, side: int) -> float:
    """Upper (side = 1) or lower (side = -1) end of Stirling's remainder r(x) = log x! - (x log x - x +
    log(2 pi x)/2), x >= 1, before rounding: the series 1/(12x) - 1/(360x^3) + 1/(1260x^5) - 1/(1680x^7) + ...
    encloses r between consecutive partial sums (the remainder has the sign and at most the size of the first
    omitted term), so r in [S3 - 1/(1680x^7), S3], S3 = the first three terms. Width 1/(1680 x^7): 7.6e-16 at
    x = 50 (FLOAT_ANCHOR_MIN)."""
    s3 = 1 / (12 * x) - 1 / (360 * x**3) + 1 / (1260 * x**5)
    return s3 if side > 0 else s3 - 1 / (1680 * x**7)


def _stirling_r_ends(x: float) -> tuple[float, float]:
    """(`_stirling_r(x, -1)`, `_stirling_r(x, 1)`): the same two floats, the series' three terms computed once."""
    s3 = 1 / (12 * x) - 1 / (360 * x**3) + 1 / (1260 * x**5)
    return s3 - 1 / (1680 * x**7), s3


def _log_pmf_float(k: int, m: int, pair: ProbabilityPair) -> tuple[float, float] | None:
    """(v, e): |log Pr[Bin(m, p) = k] - v| <= e, in floats and Python integers (no interval arithmetic:
    ~100x faster than the interval route), or None when a count is below FLOAT_ANCHOR_MIN or e is not small.
    With s the smaller of p, q and j its count (j = k for s = p, else m - k: Bin(m, p) = k iff Bin(m, q) =
    m - k) and Stirling's log x! = x log x - x + log(2 pi x)/2 + r(x) (r enclosed by `_stirling_r`), exactly

        log Pr = -F(s) + c + r(m) - r(j) - r(m-j),   c = log(m / (2 pi j (m-j))) / 2,
        F(t) = j log1p(y1(t)) + (m-j) log1p(y2(t)),  y1 = (j - m t)/(m t),  y2 = (m t - j)/(m (1 - t)).

    F is evaluated at the float s^ = a/b of s (b a power of 2): y1, y2 are ratios of exact integers, one
    correct rounding each (CPython's int / int), so the only float errors are: log1p's (libm within 1 ulp, taken
    as 2u: the assumption of `_log_tail`) and the input's u |y| through log1p (<= u |y| / (1 + y - u |y|)), the
    products and sums (4u of the magnitudes); c's argument carries <= 5 roundings and pi's, so c is within
    6u + 2u |c|. The distance |s - s^| <= D (the pair's relative error bound) moves F by at most
    D max |F'(t)| over t between them, F'(t) = (m t - j)/(t (1 - t)), |m t - j| <= |m s^ - j| + m D."""
    if pair.p <= pair.q:
        s, s_err, j = pair.p, pair.p_err, k
    else:
        s, s_err, j = pair.q, pair.q_err, m - k
    if j < FLOAT_ANCHOR_MIN or m - j < FLOAT_ANCHOR_MIN or not 0.0 < s < 0.75:
        return None
    num, den = s.as_integer_ratio()
    y1 = (j * den - m * num) / (m * num)
    y2 = (m * num - j * den) / (m * (den - num))
    if not (y1 > -0.5 and y2 > -0.5):
        return None
    l1, l2 = math.log1p(y1), math.log1p(y2)
    t1, t2 = j * l1, (m - j) * l2
    err_t = j * (UNIT * abs(y1) / (1.0 + y1 - UNIT * abs(y1)) + 2 * UNIT * abs(l1))
    err_t += (m - j) * (UNIT * abs(y2) / (1.0 + y2 - UNIT * abs(y2)) + 2 * UNIT * abs(l2))
    err_t += 4 * UNIT * (abs(t1) + abs(t2))
    # F(s) - F(s^): D = s_err s^ (1 + 2 s_err) >= |s - s^|.
    dist = s_err * s * (1 + 2 * s_err)
    slope = (abs(y1) * m * s * (1 + 4 * UNIT) + m * dist) / ((s - dist) * (1.0 - s - dist))
    err_s = dist * slope * 1.01
    mf, jf, rf = float(m), float(j), float(m - j)
    c = 0.5 * math.log(mf / (2.0 * math.pi * jf * rf))
    err_c = 12 * UNIT + 4 * UNIT * abs(c)
    (m_lo, m_hi), (j_lo, j_hi), (r_lo_end, r_hi_end) = _stirling_r_ends(mf), _stirling_r_ends(jf), _stirling_r_ends(rf)
    r_hi = m_hi - j_lo - r_lo_end
    r_lo = m_lo - j_hi - r_hi_end
    r_mid, r_half = 0.5 * (r_hi + r_lo), 0.5 * (r_hi - r_lo)
    err_r = r_half + 16 * UNIT * (1 / jf + 1 / rf + 1 / mf)
    value = -(t1 + t2) + c + r_mid
    err = (err_t + err_s + err_c + err_r + 4 * UNIT * (abs(t1 + t2) + abs(c) + abs(r_mid) + abs(value))) * 1.01
    if not (math.isfinite(value) and math.isfinite(err)):
        return None
    return value, err


def _interval_anchor(k: int, m: int, pair: ProbabilityPair, log_scale: float) -> tuple[float, float]:
    """(e^-log_scale Pr[Bin(m, p) = k] as a float, its relative error bound), by 100-bit interval arithmetic."""
    iv = iv_context()
    log_anchor = log_binomial_pmf_interval(k, m, iv.log(pair.p_iv), iv.log(pair.q_iv)) - iv.mpf(log_scale)
    return _float_with_error(iv.exp(log_anchor))


def _base_anchor(m0: int, pair: ProbabilityPair, log_scale: float) -> tuple[int, float, float]:
    """(k0, e^-log_scale Pr[Bin(m0, p) = k0], its relative error) at the mode k0 = floor((m0 + 1) p) of Bin(m0, p)
    (interval arithmetic): a pure function of its arguments, cached in _ANCHORS."""
    key = (pair, log_scale, m0)
    base = _ANCHORS.get(key)
    if base is None:
        k0 = min(max(int(math.floor((m0 + 1) * pair.p)), 0), m0)
        base = (k0, *_interval_anchor(k0, m0, pair, log_scale))
        if len(_ANCHORS) >= ANCHOR_CACHE_SIZE:
            _ANCHORS.clear()
        _ANCHORS[key] = base
    return base


def _anchor(m: int, pair: ProbabilityPair, lo: int, hi: int, log_scale: float) -> tuple[int, float, float]:
    """(k0, e^-log_scale Pr[Bin(m, p) = k0] as a float, its relative error bound), lo <= k0 <= hi: a pure function
    of its arguments (the same bits whatever was computed before in the process; caches only save time).

    In floats (`_log_pmf_float`, its error bound through libm's exp) when both counts are not small. Else from
    the base anchor (m0, k0') of the same p and scale (`_base_anchor`), m0 the multiple of ANCHOR_GRID nearest
    to m (|m - m0| <= MAX_ANCHOR_STEPS; a deterministic function of m only, never whichever anchor happened to be
    cached), along the path of `_path_factors` (exact ratios); each factor costs 2 roundings plus the error of
    p or q, the running product 1 more, the final division (going down in m) 1 more. The values on the path are
    checked to stay normal floats. Otherwise in interval arithmetic at (m, k0) itself."""
    k1 = min(max(int(math.floor((m + 1) * pair.p)), lo), hi)
    fast = _log_pmf_float(k1, m, pair)
    if fast is not None:
        value, err = fast
        exponent = value - log_scale
        # exponent: 1 rounding; libm exp within 1 ulp (2u with margin): relative error of the anchor.
        err_exp = err + UNIT * abs(exponent) + 2.0**-1074
        anchor = math.exp(exponent) if -690.0 < exponent < 690.0 else 0.0
        # Sharp anchors only (the hockey-stick divergence is a difference of much larger sums: a relative
        # error of 1e-7 would widen the certified eps ~1e-4); else the exact routes below.
        if 1e-280 < anchor < 1e300 and err_exp < FLOAT_ANCHOR_ERROR:
            return k1, anchor, math.expm1(err_exp + 2.0 * UNIT) * 1.01
    m0 = (m + ANCHOR_GRID // 2) // ANCHOR_GRID * ANCHOR_GRID
    k0, value0, err0 = _base_anchor(m0, pair, log_scale)
    if m == m0 and k1 == k0:
        return k1, value0, err0
    steps = float(abs(m - m0))
    factors = None
    if m > m0 and 0 <= k1 - k0 <= m - m0:
        factors = _path_factors(m0, k0, m, k1, pair, lead=1)
        factors[0] = value0
        values = np.cumprod(factors, out=factors)  # the running product of [value0, ratios...]
        value = float(values[-1])
    elif m < m0 and 0 <= k0 - k1 <= m0 - m:
        factors = _path_factors(m, k1, m0, k0, pair)
        values = np.cumprod(factors, out=factors)
        value = value0 / float(values[-1])
    # The values are products of positive factors (a NaN fails the first test, an overflow the second): every value
    # finite and above 1e-250 in absolute value.
    if factors is not None and values.min() > 1e-250 and values.max() < math.inf and 1e-200 < value < 1e300:
        err = math.expm1(err0 + (steps + 1.0) * (3.003 * UNIT + 1.001 * max(pair.p_err, pair.q_err))) * 1.01
        return k1, value, err
    return (k1, *_interval_anchor(k1, m, pair, log_scale))


def _scaled_window(m: int, pair: ProbabilityPair, log_tail: float, log_scale: float) -> _Window:
    """Certified window of Bin(m, pair.p) scaled by e^-log_scale, each tail <= e^log_tail (unscaled)."""
    if m == 0:
        iv = iv_context()
        value, err = _float_with_error(iv.exp(-iv.mpf(log_scale)))
        return _Window(0, np.array([value]), err, 0.0, 0.0)
    tails: dict[int, float] = {}  # _log_tail(x, m, pair) by x, as the edge searches computed them (both sides: one m)
    target = log_tail - math.log(2)
    lo = _edge(m, pair, target, -1, tails)
    hi = _edge(m, pair, target, +1, tails)
    if hi - lo + 1 > MAX_WINDOW:
        raise ParameterError("n", m, f"a population whose binomial window has at most {MAX_WINDOW} points (here {hi - lo + 1}): reduce n or increase eps0")
    below = 0.0 if lo == 0 else _exp_up((tails[lo - 1] if lo - 1 in tails else _log_tail(lo - 1, m, pair)) - log_scale)
    above = 0.0 if hi == m else _exp_up((tails[hi + 1] if hi + 1 in tails else _log_tail(hi + 1, m, pair)) - log_scale)
    k0, anchor, eps_a = _anchor(m, pair, lo, hi, log_scale)
    rho_up, rho_down = pair.p / pair.q, pair.q / pair.p
    # Running products include the anchor, so a value is subnormal only when it is itself below 2^-1022.
    # Built in place (the same products in the same order as cumprod over [anchor, ratios...]): upwards the
    # ratio of k is ((m + 1 - k) / k) rho_up, downwards ((k + 1) / (m - k)) rho_down (the subtractions are
    # exact: integers below 2^53), then a running product from the anchor outwards on each side.
    pmf = np.empty(hi - lo + 1)
    at = k0 - lo
    pmf[at] = anchor
    if hi > k0:
        part = pmf[at + 1 :]
        ks = np.arange(k0 + 1, hi + 1, dtype=float)
        np.subtract(float(m + 1), ks, out=part)
        np.divide(part, ks, out=part)
        np.multiply(part, rho_up, out=part)
        np.cumprod(pmf[at:], out=pmf[at:])
    if k0 > lo:
        part = pmf[at - 1 :: -1]  # k = k0 - 1 down to lo
        ks = np.arange(k0 - 1, lo - 1, -1, dtype=float)
        np.subtract(float(m), ks, out=part)
        np.divide(ks + 1.0, part, out=part)
        np.multiply(part, rho_down, out=part)
        np.cumprod(pmf[at::-1], out=pmf[at::-1])
    steps = float(max(k0 - lo, hi - k0))
    # Per step: 2 roundings in the ratio, 1 in the running product, and the error of fl(p/q) (module
    # doc of shuffle_spec.reference.numerics.binomial); anchor error eps_a.
    e_rho = 1.001 * (pair.p_err + pair.q_err + UNIT)
    rel = math.expm1(eps_a + (3.0 * steps + 1.0) * 1.001 * UNIT + steps * e_rho) * 1.01
    smallest, largest = float(pmf.min()), float(pmf.max())  # NaN propagates through both: then not finite
    if not (rel < 1e-3 and math.isfinite(smallest) and math.isfinite(largest)):
        raise ParameterError("n", m, "a population small enough for the certified window (error bound exceeded)")
    # Subnormal values: absolute error <= (steps + 1) 2^-1073 each (the recurrence moves away from the mode).
    absolute = (steps + 1.0) * 2.0**-1073 if smallest < TINY else 0.0
    window = _Window(lo, pmf, rel, below + above, absolute)
    window.__dict__["largest"] = largest  # its cached float(np.max(pmf)): the same float, not computed again
    return window


_WINDOWS: "OrderedDict[tuple[Any, ...], _Window]" = OrderedDict()
# Memory bound of the window cache (bytes of pmf arrays held); the least recently used windows are dropped.
WINDOW_CACHE_BYTES = 256 * 2**20
# Window points held by the cache of set-up pairs (each holds ~5 arrays of its long window: <= ~250 MB).
PAIR_CACHE_POINTS = 6_000_000
_WINDOW_BYTES = 0  # bytes held in _WINDOWS (kept incrementally: summing the cache per call was quadratic)


def _cached_window(eps0: float, m: int, ones: bool, log_tail: float, log_scale: float) -> _Window:
    """Bin(m, p) (ones) or Bin(m, q) (zeros) scaled by e^-(log_scale/2): blocks of the branch and bound share
    one of their two windows with their parent. LRU cache bounded by WINDOW_CACHE_BYTES."""
    key = (eps0, m, ones, log_tail, log_scale)
    if key in _WINDOWS:
        _WINDOWS.move_to_end(key)
        return _WINDOWS[key]
    keep, flip = _keep_pair(eps0)
    window = _scaled_window(m, keep if ones else flip, log_tail, 0.5 * log_scale)
    _WINDOWS[key] = window
    global _WINDOW_BYTES
    _WINDOW_BYTES += window.pmf.nbytes
    while len(_WINDOWS) > 1 and _WINDOW_BYTES > WINDOW_CACHE_BYTES:
        _WINDOW_BYTES -= _WINDOWS.popitem(last=False)[1].pmf.nbytes
    return window


@lru_cache(maxsize=1024)
def _coefficients(eps0: float, eps: float) -> tuple[float, float, float, float]:
    """Float brackets of a = p - e^eps q and b = e^eps p - q (interval arithmetic, then a few ulps outward:
    interval ends are converted to floats by nearest rounding)."""
    iv = iv_context()
    keep, _ = _keep_pair(eps0)
    e = iv.exp(iv.mpf(eps))
    a_iv, b_iv = keep.p_iv - e * keep.q_iv, e * keep.p_iv - keep.q_iv
    a_lo, a_hi, b_lo, b_hi = float(a_iv.a), float(a_iv.b), float(b_iv.a), float(b_iv.b)
    return a_lo - abs(a_lo) * 4 * UNIT, a_hi + abs(a_hi) * 4 * UNIT, b_lo - abs(b_lo) * 4 * UNIT, b_hi + abs(b_hi) * 4 * UNIT


@lru_cache(maxsize=64)
def _thinning_pair(eps0: float) -> ProbabilityPair:
    """lambda = 1 - e^-eps0 = (p - q)/p and 1 - lambda = e^-eps0, as intervals and floats with errors:
    Bern(p) = lambda delta_1 + (1 - lambda) Bern(q) (a user holding 1 is, w.p. 1 - lambda, a user holding 0)."""
    iv = iv_context()
    r = iv.exp(-iv.mpf(eps0))
    lam = 1 - r
    lf, le = _float_with_error(lam)
    rf, re = _float_with_error(r)
    return ProbabilityPair(lam, r, lf, rf, le, re)


@lru_cache(maxsize=4096)
def _thinned_removal(eps0: float, width: int, log_tail: float) -> tuple[int, float]:
    """(j, tail) with j <= width and tail >= Pr[Bin(width, lambda) > j] (certified Chernoff bound), or
    (width, 0). Thinned removal (module doc): every d_k of the block [K, K + width] is <= the divergence of
    the population with K ones and n - 1 - K - j zeros, plus tail."""
    if width == 0:
        return 0, 0.0
    j = _edge(width, _thinning_pair(eps0), log_tail, +1)
    if j >= width:
        return width, 0.0
    return j, _exp_up(log_tail)


# ---------------------------------------------------------------- one pair, one direction


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    """sum a_i b_i of non-negative floats. einsum, not np.dot: BLAS ddot goes multi-threaded above ~1e4
    points, which is 100x slower on a loaded machine; the error bound (terms) u holds in any order."""
    return float(np.einsum("i,i->", a, b))


def _scaled_product(c_lo: float, c_hi: float, x: tuple[float, float]) -> tuple[float, float]:
    """[min, max] of c x over c in [c_lo, c_hi], x in [x[0], x[1]] (before rounding: callers add a slack)."""
    x_lo, x_hi = x
    if 0 < c_lo <= c_hi and 0 < x_lo <= x_hi:
        # Both intervals positive (most calls): rounding is monotone, so the least and the largest of the four
        # products below are these two (the same floats).
        return c_lo * x_lo, c_hi * x_hi
    products = (c_lo * x_lo, c_lo * x_hi, c_hi * x_lo, c_hi * x_hi)
    return min(products), max(products)


@dataclass
class _Pair:
    """D_{e^eps}(P || Q) for P = Bern(p) + S, Q = Bern(q) + S, S = Bin(ones, p) + Bin(zeros, q), certified,
    in units of e^log_scale."""

    eps0: float
    ones: int
    zeros: int
    log_tail: float
    log_scale: float
    # Floats multiplied so far (set-up and dot products): the deterministic cost measure of the work budget.
    work: int = 0
    _memo_f: dict[int, float] = field(default_factory=dict, repr=False)
    _memo_t: dict[int, float] = field(default_factory=dict, repr=False)
    _brackets: dict[float, tuple[int, int]] = field(default_factory=dict, repr=False)

    @cached_property
    def _setup(self) -> tuple[Any, ...]:
        keep, _ = _keep_pair(self.eps0)
        w1 = _cached_window(self.eps0, self.ones, True, self.log_tail, self.log_scale)
        w2 = _cached_window(self.eps0, self.zeros, False, self.log_tail, self.log_scale)
        # The shorter window is summed over (dot products of its length).
        short, long_ = (w1, w2) if len(w1.pmf) <= len(w2.pmf) else (w2, w1)
        # Tail sums of `long_` from the top (tail_long[i] = sum of long_.pmf[i:], tail_long[len] = 0), held
        # reversed and contiguous (the slices of `_t` are then contiguous), and the reversed pmf likewise. The
        # running sums are filled on demand (`_reversed_tail`): a pair's queries sit near its threshold, about half
        # way down the window from the top, and the full pass over the long window was the largest cost of a set-up
        # at large n (the guide of the worst case sets up ~200 pairs at n = 1e8).
        reversed_long = long_.pmf[::-1].copy()
        reversed_tail = np.empty(len(reversed_long) + 1)
        reversed_tail[0] = 0.0
        self._tail_filled = 1
        self.work += 4 * (len(short.pmf) + len(long_.pmf))
        size = len(short.pmf) + len(long_.pmf) + 4
        # Relative error of a term: both factors' bounds and 1 rounding; of a sum of non-negative terms of
        # length <= size: (size) u (any summation order). Tail sums of `long_`: (len) u.
        rel_term = math.expm1(short.rel + long_.rel + 2.002 * UNIT) * 1.01
        rel_sum = 1.01 * size * UNIT
        rel = (rel_term + rel_sum) * 1.01 + (rel_term * rel_sum) * 2
        total_short = short.total * (1 + rel) + len(short.pmf) * short.absolute
        total_long = long_.total * (1 + rel) + len(long_.pmf) * long_.absolute
        # Mass outside the product of windows, scaled (e^-L/2 e^-L/2): dropped_1 * (mass_2) + dropped_2 * (mass_1).
        # Each factor's full mass is <= its window mass + its dropped mass.
        dropped = (short.dropped * (total_long + long_.dropped) + long_.dropped * (total_short + short.dropped)) * (1 + 1e-12)
        # Absolute errors of subnormal factors: <= absolute * (other factor's total) per term.
        absolute = (short.absolute * total_long + long_.absolute * total_short) * 2 + size * 2.0**-1073
        # Reversed copies: the convolution slices below are then contiguous (fast dot products); the values and
        # hence the certified error bounds are the same (any summation order).
        self._reversed = (reversed_long, reversed_tail)
        return keep, short, long_, None, rel, dropped + absolute

    def _reversed_tail(self, stop: int) -> np.ndarray:
        """The reversed tail sums of the long window (`_setup`: entry i = the sum of its top i values, added from the
        top one by one), valid at least at the indices below `stop`. Filled on demand, growing geometrically: entry i
        is fl(entry (i - 1) + value i) whichever call computes it (numpy's cumsum adds in sequence), so every entry is
        the same float as one cumulative sum over the whole window would give, in the order the queries come."""
        reversed_long, reversed_tail = self._reversed
        filled = self._tail_filled
        if stop > filled:
            stop = min(len(reversed_tail), max(stop, 2 * filled))
            # Entry filled - 1 is known; the running sum continues from it over values filled - 1 .. stop - 2.
            start = reversed_tail[filled - 1 : filled]
            np.cumsum(np.concatenate((start, reversed_long[filled - 1 : stop - 1])), out=reversed_tail[filled - 1 : stop])
            self._tail_filled = stop
        return reversed_tail

    def _f(self, s: int) -> float:
        """Float value of the windowed sum e^-L Pr[S = s] (restricted to both windows), memoised: the
        bracketing, the bisection and the final steps of one evaluation, and the evaluations of one pair
        at several eps (solving its eps), read the same values again."""
        value = self._memo_f.get(s)
        if value is None:
            value = self._memo_f[s] = self._f_compute(s)
        return value

    def _t(self, t: int) -> float:
        """Float value of the windowed e^-L Pr[S >= t], memoised like `_f`."""
        value = self._memo_t.get(t)
        if value is None:
            value = self._memo_t[t] = self._t_compute(t)
        return value

    def _f_compute(self, s: int) -> float:
        _, short, long_, _, _, _ = self._setup
        j_lo, j_hi = max(short.lo, s - long_.hi), min(short.hi, s - long_.lo)
        if j_lo > j_hi:
            return 0.0
        self.work += j_hi - j_lo + 1
        a = short.pmf[j_lo - short.lo : j_hi - short.lo + 1]
        # long_.pmf[s - j_hi - lo .. s - j_lo - lo] reversed, read forward from the reversed copy.
        last = len(long_.pmf) - 1
        b = self._reversed[0][last - (s - j_lo - long_.lo) : last - (s - j_hi - long_.lo) + 1]
        return _dot(a, b)

    def _t_compute(self, t: int) -> float:
        """e^-L Pr[S >= t] = sum_j short(j) Pr_window[long >= t - j] (windowed)."""
        _, short, long_, _, _, _ = self._setup
        w_short, w_long = len(short.pmf), len(long_.pmf)
        self.work += w_short
        # Window index i of `short` needs long index t - short.lo - i - long_.lo: full tail where that is <= 0,
        # nothing where it is >= w_long, the tail array in between. tail_long[j] (the sum of long_.pmf[j:]) is entry
        # last - j of the reversed tail sums, last = w_long.
        last = w_long
        base = t - short.lo - long_.lo
        i_full = min(max(base + 1, 0), w_short)  # i >= i_full: index <= 0 -> whole long window (tail_long[0])
        i_none = min(max(base - w_long + 1, 0), w_short)  # i < i_none: index >= w_long -> 0
        value = 0.0
        if i_full < w_short:
            value += float(short.pmf[i_full:].sum()) * float(self._reversed_tail(last + 1)[last])
        if i_none < i_full:
            idx_hi, idx_lo = base - i_none, base - (i_full - 1)  # long indices for i = i_none .. i_full - 1
            # tail_long[idx_lo .. idx_hi] reversed, from the reversed tail sums
            value += _dot(short.pmf[i_none:i_full], self._reversed_tail(last - idx_lo + 1)[last - idx_hi : last - idx_lo + 1])
        return value

    def _bounds(self, value: float) -> tuple[float, float]:
        """Bounds of a windowed TAIL sum (or any sum over many counts): the whole dropped mass is added."""
        _, _, _, _, rel, dropped = self._setup
        return value * (1 - rel), value * (1 + rel) + dropped

    def _bounds_f(self, value: float) -> tuple[float, float]:
        """Bounds of one windowed pmf value f(s): only what one count can miss is added (`_point_dropped`)."""
        _, _, _, _, rel, _ = self._setup
        return value * (1 - rel), value * (1 + rel) + self._point_dropped

    @cached_property
    def _point_dropped(self) -> float:
        """Upper bound of f(s) - (windowed f(s)) for any single s (scaled), plus the subnormal absolute terms.

        The missing part of f(s) = sum_j short(j) long(s - j) has j outside the short window (at most
        short's dropped mass times sup long, and at most sup of short outside its window times long's total
        mass) or s - j outside the long window (likewise). When a window's largest value is certified above
        both of its end values, the binomial's mode lies inside it (unimodal), so outside the window the pmf
        is at most the larger end value; otherwise that term uses the mass (a pmf value is at most its total).
        At n ~ 1e10 and tiny delta this is ~1e5 times smaller than the whole dropped mass that `_bounds`
        adds, which otherwise swamps f in the tails and leaves the threshold's sign uncertain there."""
        _, short, long_, _, rel, dropped_total = self._setup

        def mass(w: _Window) -> float:
            return float((w.total * (1 + rel) + len(w.pmf) * w.absolute + w.dropped) * (1 + 4 * UNIT))

        def sup_and_edge(w: _Window, total: float) -> tuple[float, float]:
            largest = w.largest * (1 + w.rel) + w.absolute
            end = max(float(w.pmf[0]), float(w.pmf[-1])) * (1 + w.rel) + w.absolute
            inside = w.largest * (1 - w.rel) > end * (1 + 4 * UNIT)
            return (largest, end) if inside else (total, total)

        mass_short, mass_long = mass(short), mass(long_)  # each read three times below: computed once
        sup_short, edge_short = sup_and_edge(short, mass_short)
        sup_long, edge_long = sup_and_edge(long_, mass_long)
        from_short = min(short.dropped * sup_long, edge_short * mass_long) if short.dropped > 0 else 0.0
        from_long = min(long_.dropped * sup_short, edge_long * mass_short) if long_.dropped > 0 else 0.0
        absolute = (short.absolute * mass_long + long_.absolute * mass_short) * 2 + (len(short.pmf) + len(long_.pmf) + 4) * 2.0**-1073
        return float(min((from_short + from_long) * (1 + 1e-12) + absolute, dropped_total))

    @property
    def support(self) -> tuple[int, int]:
        _, short, long_, _, _, _ = self._setup
        return short.lo + long_.lo, short.hi + long_.hi

    def _guess(self, a: float, b: float) -> int | None:
        """Uncertified guess of s* = min{s : a f(s-1) >= b f(s)}, i.e. where f(s-1)/f(s) reaches r = b/a: the point
        where the tilted pmf f(s) r^s has equal values at s - 1 and s. Tilting by r turns each Bernoulli(x) of S into
        a Bernoulli(x r / (1 - x + x r)); the tilted sum's mean K'(log r) plus (1 - kappa_3 / kappa_2) / 2 (its
        tilted cumulants: the mode's skew correction and the half step) is exact for one binomial (s* - 1 < (m + 1)
        x_r <= s*) and within a count or so for the sum (the normal guess mu + 1/2 + v log r, its first order, was
        ~10 counts off at eps0 = 4, n = 1e6, where the zeros' Bin(n, q) is skewed). Only shortens the bracketing of
        `scaled_delta_bounds` (any bracket gives the same certified result). None when a, b are not both > 0."""
        keep, _ = _keep_pair(self.eps0)
        p, q = keep.p, keep.q
        if not (a > 0 and b > 0 and p * q > 0):
            return None
        r = b / a
        if not (math.isfinite(r) and 1e-150 < r < 1e150):
            return None
        p_r, q_r = p * r / (q + p * r), q * r / (p + q * r)  # a one's and a zero's tilted probability of 1
        v_ones, v_zeros = p_r * (1.0 - p_r), q_r * (1.0 - q_r)
        k2 = self.ones * v_ones + self.zeros * v_zeros
        k3 = self.ones * v_ones * (1.0 - 2.0 * p_r) + self.zeros * v_zeros * (1.0 - 2.0 * q_r)
        value = self.ones * p_r + self.zeros * q_r + 0.5 * (1.0 - (k3 / k2 if k2 > 0 else 0.0))
        return int(math.ceil(value)) if math.isfinite(value) and abs(value) < 2.0**62 else None

    def h_bounds(self, eps: float, s: int) -> tuple[float, float]:
        """Certified [lower, upper] of e^-L H(s), H(s) = a T(s-1) - b T(s) = a f(s-1) - (e - 1) T(s): both forms,
        intersected. Near the mean (eps near 0 at large n: T ~ 0.2, H ~ 1e-6) the first cancels about T / H-fold
        and its bounds are T / H times T's relative width apart; the second cancels only a few-fold."""
        a_lo, a_hi, b_lo, b_hi = _coefficients(self.eps0, float(eps))
        # e - 1 = b - a (p + q = 1), from libm's expm1 (within 1 ulp, as the module assumes of exp and log1p).
        em1 = math.expm1(float(eps))
        em1_lo, em1_hi = em1 * (1 - 4 * UNIT), em1 * (1 + 4 * UNIT)
        t_before, t_at = self._bounds(self._t(s - 1)), self._bounds(self._t(s))
        x = _scaled_product(a_lo, a_hi, t_before)
        y = _scaled_product(b_lo, b_hi, t_at)
        slack = 4 * UNIT * (abs(x[1]) + abs(y[1]))
        u = _scaled_product(a_lo, a_hi, self._bounds_f(self._f(s - 1)))
        v = _scaled_product(em1_lo, em1_hi, t_at)
        slack2 = 4 * UNIT * (abs(u[1]) + abs(v[1]))
        return max(x[0] - y[1] - slack, u[0] - v[1] - slack2), min(x[1] - y[0] + slack, u[1] - v[0] + slack2)

    def threshold_bracket(self, eps: float) -> tuple[int, int]:
        """(low, high): the threshold s* = min{s : a f(s-1) >= b f(s)} at eps lies in (low, high] (certified,
        from `scaled_delta_bounds`). H(s) <= H(s+1) for s < s* and H(s) >= H(s+1) for s >= s* (module doc)."""
        key = float(eps)
        if key not in self._brackets:
            self.scaled_delta_bounds(eps)
        return self._brackets[key]

    def scaled_delta_bounds(self, eps: float) -> tuple[float, float]:
        """[lower, upper] of e^-L D_{e^eps}(P || Q)."""
        a_lo, a_hi, b_lo, b_hi = _coefficients(self.eps0, float(eps))

        # `_bounds_f`'s factors and point term, read once per evaluation (the same floats).
        rel = self._setup[4]
        low_factor, high_factor, point = 1 - rel, 1 + rel, self._point_dropped
        positive = a_lo > 0 and b_lo > 0
        f = self._f

        def g(s: int) -> tuple[float, float]:
            """Bounds of a f(s-1) - b f(s) (= P(s) - e Q(s) in the scaled units): `_scaled_product` of the coefficients'
            and the pmf values' bounds. Where all of them are positive (most counts), the least of the four products is
            the product of the lower ends and the largest that of the upper ends (rounding is monotone): those two
            are computed, the same floats."""
            fa, fb = f(s - 1), f(s)
            fa_lo, fa_hi = fa * low_factor, fa * high_factor + point
            fb_lo, fb_hi = fb * low_factor, fb * high_factor + point
            if positive and fa_lo > 0 and fb_lo > 0:
                x0, x1, y0, y1 = a_lo * fa_lo, a_hi * fa_hi, b_lo * fb_lo, b_hi * fb_hi
            else:
                x0, x1 = _scaled_product(a_lo, a_hi, (fa_lo, fa_hi))
                y0, y1 = _scaled_product(b_lo, b_hi, (fb_lo, fb_hi))
            slack = 4 * UNIT * (abs(x1) + abs(y1))
            return x0 - y1 - slack, x1 - y0 + slack

        def h(s: int) -> tuple[float, float]:
            return self.h_bounds(eps, s)

        bottom, top = self.support
        # Bracket, then bisection: `low` has g certified < 0 (or is below the window: bottom - 1), `high` has
        # not (or is above it: top + 2). Any bracket with these invariants gives the same certified result;
        # the guess (`_guess`) only makes it short (a few evaluations of g instead of log(window)).
        low, high = bottom - 1, top + 2
        guess = self._guess(a_lo, b_lo)
        if guess is not None:
            s0, step = min(max(guess, bottom), top + 1), 1
            if g(s0)[1] < 0:
                low = s0
                while low + step < top + 2 and g(low + step)[1] < 0:
                    low, step = low + step, 2 * step
                high = min(low + step, top + 2)
            else:
                high = s0
                while high - step > bottom - 1 and not g(high - step)[1] < 0:
                    high, step = high - step, 2 * step
                low = max(high - step, bottom - 1)
        while high - low > 1:
            mid = (low + high) // 2
            if g(mid)[1] < 0:
                low = mid
            else:
                high = mid
        # s* in (low, s_b]: step up to the first s with g certified >= 0.
        s_b, extra = low + 1, 0.0
        while s_b <= top + 1 and g(s_b)[0] < 0:
            s_b += 1
            if s_b - low > AMBIGUOUS_STEPS:
                # A wide ambiguous range (the ratio f(s-1)/f(s) moves by ~1/variance per count, which at
                # n ~ 1e10 and eps near 0 is below the pmf's certified relative width over ~100 counts).
                s_b, extra = self._ambiguous_range(low, s_b - 1, top, g, a_lo, a_hi, b_lo, b_hi)
                break
        if extra == 0.0:
            extra = sum(max(g(s)[1], 0.0) for s in range(low + 1, s_b))
        self._brackets[float(eps)] = (low, s_b)
        _, dropped = self._bounds(0.0)
        # h is a pure function of s here (memoised pmf and tail values, the same arithmetic): each count once.
        at_threshold = h(s_b)
        upper = max(at_threshold[1], 0.0) + extra + dropped
        lower = max(at_threshold[0], (at_threshold if low + 1 == s_b else h(low + 1))[0], 0.0)
        return lower, upper

    def _ambiguous_range(self, low: int, failed: int, top: int, g: Callable[[int], tuple[float, float]], a_lo: float, a_hi: float, b_lo: float, b_hi: float) -> tuple[int, float]:
        """(s_b, extra) for `scaled_delta_bounds` when g is not certified >= 0 at any s in (low, failed]:
        s_b > failed with g certified >= 0 there (doubling steps, then bisection; any such s_b is valid,
        since then s* <= s_b), and extra >= sum of g(s)_+ over [A, B] = [low + 1, s_b - 1].

        Why the bound holds: g(s) = f(s) (a r(s) - b) with r(s) = f(s-1)/f(s) non-decreasing (f is
        log-concave), so |a r(s) - b| <= its larger value at the two ends of [A, B], and the sum of f over
        [A, B] is T(A) - T(B + 1). With r's bounds from the certified f bounds at A - 1, A, B - 1, B this needs
        four pmf and two tail values instead of one pmf per count. When no s_b is found in the window, or an
        end's pmf is not certified positive, the former bound: every H(s'), s' >= low + 1, is at most
        T(low), with s_b = top + 2 (where the windowed H is 0)."""
        step, found = 1, None
        while failed + step <= top + 1:
            if g(failed + step)[0] >= 0:
                found = failed + step
                break
            failed, step = failed + step, 2 * step
        if found is None:
            return top + 2, self._bounds(self._t(low))[1]
        while found - failed > 1:
            mid = (failed + found) // 2
            if g(mid)[0] >= 0:
                found = mid
            else:
                failed = mid
        first, last = low + 1, found - 1

        def distance(s: int) -> float | None:
            """Upper bound of |a r(s) - b|, or None when f(s) is not certified positive."""
            before, at = self._bounds_f(self._f(s - 1)), self._bounds_f(self._f(s))
            if not at[0] > 0:
                return None
            r_lo, r_hi = before[0] / at[1] * (1 - 2 * UNIT), before[1] / at[0] * (1 + 2 * UNIT)
            return max(a_hi * r_hi - b_lo, b_hi - a_lo * r_lo, 0.0) * (1 + 4 * UNIT)

        ends = [distance(first), distance(last)]
        if any(d is None for d in ends):
            return top + 2, self._bounds(self._t(low))[1]
        mass = max(self._bounds(self._t(first))[1] - self._bounds(self._t(last + 1))[0], 0.0) * (1 + 2 * UNIT)
        return found, mass * max(d for d in ends if d is not None) * (1 + 2 * UNIT)

    @cached_property
    def _padded_view(self) -> np.ndarray:
        """Sliding windows of len(short) over the reversed long window with len(short) zeros on each side
        (`_f_block`; a view, no copy)."""
        _, short, _, _, _, _ = self._setup
        pad = np.zeros(len(short.pmf))
        return np.lib.stride_tricks.sliding_window_view(np.concatenate((pad, self._reversed[0], pad)), len(short.pmf))

    def _f_block(self, first: int, size: int) -> np.ndarray:
        """The windowed f(s) for first <= s < first + size, bottom <= first and first + size - 1 <= top
        (`support`): one einsum over a sliding view of the zero-padded reversed long window. Each value is
        the sum of non-negative products of `_f_compute` plus products with exact zeros (which add exactly
        0), so the same error bound (terms) u holds in any order."""
        _, short, long_, _, _, _ = self._setup
        w = len(short.pmf)
        last_long = len(long_.pmf) - 1
        # f(s) = sum_i short[i] reversed[last_long - (s - short.lo - long_.lo) + i]: the start falls as s rises.
        start_lo = last_long - (first + size - 1 - short.lo - long_.lo) + w
        view = self._padded_view[start_lo : start_lo + size]
        self.work += size * w
        out: np.ndarray = np.einsum("ij,j->i", view, short.pmf)[::-1]
        return out

    def scaled_delta_bounds_many(self, eps_values: np.ndarray, reach: int = 4) -> tuple[np.ndarray, np.ndarray]:
        """`scaled_delta_bounds` at many eps at once (the profile at grid nodes), evaluated as arrays with the
        same certified g bounds, the same bound H(s_b) + sum_{low < s < s_b} g(s)_+ (+ the dropped mass) and
        the same H bounds (`h_bounds`) as the scalar path. The threshold s* of each eps is bracketed among the
        2 reach + 1 counts around a centre: the normal-approximation guess, then (for the eps not bracketed
        there) the guess moved by the error it had at the nearest bracketed eps (the approximation's error
        varies slowly with eps; up to MANY_PASSES passes); an eps still not bracketed takes the scalar path.
        The centres only decide where g is evaluated: any bracket with g certified < 0 at low and >= 0 at
        s_b contains s* (g changes sign once: module doc, "Per pair")."""
        eps_values = np.asarray(eps_values, dtype=float)
        count = len(eps_values)
        lower = np.zeros(count)
        upper = np.zeros(count)
        if count == 0:
            return lower, upper
        coefficients = np.array([_coefficients(self.eps0, float(e)) for e in eps_values])
        a_lo, a_hi, b_lo, b_hi = (coefficients[:, i] for i in range(4))
        bottom, top = self.support
        keep, _ = _keep_pair(self.eps0)
        variance = (self.ones + self.zeros) * keep.p * keep.q
        mean = self.ones * keep.p + self.zeros * keep.q
        _, _, _, _, rel, dropped = self._setup
        point = self._point_dropped
        width = 2 * reach + 1
        em1 = np.expm1(eps_values)
        em1_lo, em1_hi = em1 * (1 - 4 * UNIT), em1 * (1 + 4 * UNIT)

        def product(c_lo: np.ndarray, c_hi: np.ndarray, x_lo: np.ndarray, x_hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            """`_scaled_product` elementwise."""
            p = (c_lo * x_lo, c_lo * x_hi, c_hi * x_lo, c_hi * x_hi)
            return np.minimum.reduce(p), np.maximum.reduce(p)

        def h(rows: np.ndarray, t_before: np.ndarray, t_at: np.ndarray, f_before: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            """`h_bounds` for the eps of `rows`, from T(s - 1), T(s) and f(s - 1)."""
            tb_lo, tb_hi = t_before * (1 - rel), t_before * (1 + rel) + dropped
            ta_lo, ta_hi = t_at * (1 - rel), t_at * (1 + rel) + dropped
            x0, x1 = product(a_lo[rows], a_hi[rows], tb_lo, tb_hi)
            y0, y1 = product(b_lo[rows], b_hi[rows], ta_lo, ta_hi)
            sl = 4 * UNIT * (np.abs(x1) + np.abs(y1))
            u0, u1 = product(a_lo[rows], a_hi[rows], f_before * (1 - rel), f_before * (1 + rel) + point)
            v0, v1 = product(em1_lo[rows], em1_hi[rows], ta_lo, ta_hi)
            sl2 = 4 * UNIT * (np.abs(u1) + np.abs(v1))
            return np.maximum(x0 - y1 - sl, u0 - v1 - sl2), np.minimum(x1 - y0 + sl, u1 - v0 + sl2)

        def attempt(rows: np.ndarray, centre: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            """Bracket s* among centre - reach .. centre + reach for the eps of `rows`: (bracketed rows, s_b)."""
            first = centre - reach
            f = np.array([self._f_block(int(c) - 1, width + 1) for c in first]).reshape(len(rows), width + 1)
            f_lo, f_hi = f * (1 - rel), f * (1 + rel) + point  # f[r, t] = f(first_r - 1 + t)
            # g(s) = a f(s-1) - b f(s) for s = first + t, t < width.
            x_lo, x_hi = product(a_lo[rows, None], a_hi[rows, None], f_lo[:, :-1], f_hi[:, :-1])
            y_lo, y_hi = product(b_lo[rows, None], b_hi[rows, None], f_lo[:, 1:], f_hi[:, 1:])
            slack = 4 * UNIT * (np.abs(x_hi) + np.abs(y_hi))
            g_lo, g_hi = x_lo - y_hi - slack, x_hi - y_lo + slack
            negative = g_hi < 0
            seen = np.logical_or.accumulate(negative, axis=1)
            closing = (g_lo >= 0) & np.concatenate((np.zeros((len(rows), 1), dtype=bool), seen[:, :-1]), axis=1)
            found = closing.any(axis=1)
            rows, first, f, g_hi, negative, closing = rows[found], first[found], f[found], g_hi[found], negative[found], closing[found]
            index = np.arange(width)
            j_b = np.argmax(closing, axis=1)
            j_low = np.max(np.where(negative & (index[None, :] < j_b[:, None]), index[None, :], -1), axis=1)
            between = (index[None, :] > j_low[:, None]) & (index[None, :] < j_b[:, None])
            extra = np.sum(np.where(between, np.maximum(g_hi, 0.0), 0.0), axis=1) * (1 + width * UNIT)
            s_b, low = first + j_b, first + j_low
            # T from the memoised `_t` (T(low + 1) = T(s_b - 1) and T(low) when the bracket is tight).
            t = np.array([(self._t(int(a)), self._t(int(a) + 1), self._t(int(b) - 1), self._t(int(b))) for a, b in zip(low, s_b, strict=True)]).reshape(len(rows), 4)
            pick = np.arange(len(rows))
            h_b = h(rows, t[:, 2], t[:, 3], f[pick, j_b])  # f(s_b - 1) = f[r, j_b]
            h_first = h(rows, t[:, 0], t[:, 1], f[pick, j_low + 1])  # f(low) = f[r, j_low + 1]
            upper[rows] = (np.maximum(h_b[1], 0.0) + extra + dropped) * (1 + 4 * UNIT)
            lower[rows] = np.maximum(np.maximum(h_b[0], h_first[0]), 0.0)
            for r, a, b in zip(rows, low, s_b, strict=True):
                self._brackets[float(eps_values[r])] = (int(a), int(b))
            return rows, s_b

        with np.errstate(divide="ignore", invalid="ignore"):
            guess = mean + 0.5 + variance * np.log(b_lo / a_lo)
        valid = (a_lo > 0) & (b_lo > 0) & np.isfinite(guess) & (variance > 0) & (np.abs(guess) < 2.0**52)
        start = np.ceil(np.where(valid, guess, 0.0)).astype(np.int64)
        error = np.full(count, np.nan)  # s_b - start where bracketed
        pending = np.nonzero(valid)[0]
        centre = start.copy()
        for _ in range(MANY_PASSES):
            inside = (centre[pending] - reach - 1 >= bottom) & (centre[pending] + reach <= top)
            rows, s_b = attempt(pending[inside], centre[pending[inside]])
            error[rows] = s_b - start[rows]
            pending = np.setdiff1d(pending, rows)
            known = np.nonzero(np.isfinite(error))[0]
            if len(pending) == 0 or len(known) == 0:
                break
            # The error of the nearest bracketed eps (by position), for the next pass.
            nearest = known[np.argmin(np.abs(pending[:, None] - known[None, :]), axis=1)]
            moved = start[pending] + error[nearest].astype(np.int64)
            if np.all(moved == centre[pending]):
                break
            centre[pending] = moved
        done = np.isfinite(error)
        for i in np.nonzero(~done)[0]:
            lower[i], upper[i] = self.scaled_delta_bounds(float(eps_values[i]))
        return lower, upper

    def delta_bounds_many(self, eps_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`delta_bounds` at many eps at once (`scaled_delta_bounds_many`), unscaled."""
        lower, upper = self.scaled_delta_bounds_many(eps_values)
        # Scaled by 1/delta (up to e^690), a divergence near 1 overflows the products to inf - inf = nan at tiny
        # delta and large eps0: nan is no bound. The divergence is in [0, 1]: nan ends become the trivial 0 and 1.
        lower = np.where(np.isnan(lower), 0.0, lower)
        upper = np.where(np.isnan(upper), np.inf, upper)
        factor = math.exp(self.log_scale)
        low = np.maximum(lower * factor * (1 - 1e-12), 0.0)
        high = np.minimum(np.where(upper > 0, np.maximum(upper * factor * (1 + 1e-12), 2.0**-1074), 0.0), 1.0)
        return low, high

    def delta_bounds(self, eps: float) -> tuple[float, float]:
        """[lower, upper] of D_{e^eps}(P || Q) (unscaled)."""
        lower, upper = self.scaled_delta_bounds(eps)
        # nan ends (`delta_bounds_many`'s comment) become the trivial bounds 0 and 1.
        lower = 0.0 if math.isnan(lower) else lower
        upper = math.inf if math.isnan(upper) else upper
        factor = math.exp(self.log_scale)
        return max(lower * factor * (1 - 1e-12), 0.0), min(max(upper * factor * (1 + 1e-12), 2.0**-1074 if upper > 0 else 0.0), 1.0)


# ---------------------------------------------------------------- validation and helpers


def _validate(eps0: float, n: int, delta: float | None = None) -> None:
    check_eps0(eps0, maximum=MAX_EPS0, why="the supported range of the certified computation")
    check_n(n, maximum=MAX_N)
    if delta is not None:
        check_delta(delta, minimum=MIN_DELTA)


def _log_scale(delta: float) -> float:
    return min(max(math.log(delta), -690.0), 0.0)


def _tail_for(delta: float) -> float:
    """log of the tail mass each window may drop: TAIL_FRACTION * delta."""
    return math.log(delta) + math.log(TAIL_FRACTION)


class _BudgetSpent(Exception):
    """WORK_BUDGET is spent (internal: the certified worst case returns its best certified result or refuses)."""


class _Pairs:
    """Cache of one-direction pairs (population size, ones) at one (eps0, delta)."""

    def __init__(self, eps0: float, delta: float, n: int = 0, limited: bool = False):
        # limited: refuse (ParameterError) once WORK_BUDGET is spent (the certified worst case only).
        self.eps0, self.delta, self.n, self.limited = float(eps0), float(delta), int(n), limited
        self.log_scale = _log_scale(delta)
        self.log_tail = _tail_for(delta)
        # Thinned removal: the tail of Bin(width, lambda) it neglects is at most THIN_FRACTION delta.
        self.log_thin = math.log(delta) + math.log(THIN_FRACTION)
        self.cache: dict[tuple[int, int], _Pair] = {}
        self.evaluations = 0
        self.work = 0

    def get(self, population: int, ones: int) -> _Pair:
        key = (population, ones)
        if key not in self.cache:
            # Bounded memory: a set-up pair holds ~5 arrays of its window size; the others are dropped when the
            # cached pairs' windows exceed PAIR_CACHE_POINTS in total (or there are more than 64 of them).
            held = 0
            if len(self.cache) % 8 == 7:  # checked every 8 insertions (summing at every one was ~5% of the time)
                held = sum(len(p._setup[2].pmf) + len(p._setup[1].pmf) for p in self.cache.values() if "_setup" in p.__dict__)
            if len(self.cache) > 64 or held > PAIR_CACHE_POINTS:
                self.cache.clear()
            self.cache[key] = _Pair(self.eps0, ones, population - 1 - ones, self.log_tail, self.log_scale)
        return self.cache[key]

    def bound(self, population: int, ones: int, eps: float) -> tuple[float, float]:
        if self.limited and self.work > WORK_BUDGET:
            raise _BudgetSpent()
        self.evaluations += 1
        pair = self.get(population, ones)
        before = pair.work
        bounds = pair.delta_bounds(eps)
        self.work += pair.work - before + EVALUATION_WORK
        return bounds

    def epsilon(self, population: int, ones: int, rel_tol: float = PAIR_REL_TOL) -> BoundValue:
        return solve_epsilon(lambda eps: self.bound(population, ones, eps), eps0=self.eps0, delta=self.delta, rel_tol=rel_tol)


def _guide(pairs: _Pairs, n: int, eps: float, limit: float) -> tuple[int, tuple[int, int]]:
    """Uncertified guide: the count k whose certified d_k(eps) is largest on a geometric grid of k near
    both ends of [0, n-1] and the middle, refined by a local integer search. Only decides which pair is
    solved first; the branch and bound certifies the result whatever it returns. Stops evaluating once
    pairs.work passes `limit` (deterministic: work is counted) and returns the best count seen; the grid is
    visited from both ends inwards (the worst pair of binary RR sits near an end). Returns the count and
    its grid bracket."""
    score: dict[int, float] = {}
    grid: set[int] = {0, n - 1, (n - 1) // 2}
    step = 1
    while step < n:
        grid.update({step, n - 1 - step})
        step = step * 2 if step < 4 else int(step * 1.5)
    grid = {k for k in grid if 0 <= k <= n - 1}
    for k in sorted(grid, key=lambda j: (min(j, n - 1 - j), j)):
        if score and pairs.work > limit:
            break
        score[k] = pairs.bound(n, k, eps)[1]
    ordered = sorted(score)
    best = max(ordered, key=lambda k: score[k])
    i = ordered.index(best)
    low, high = ordered[max(i - 1, 0)], ordered[min(i + 1, len(ordered) - 1)]
    found = (low, high)
    # Ternary search on integers in [low, high] (the pair divergence is close to unimodal in k there).
    while high - low > 2 and pairs.work <= limit:
        m1, m2 = low + (high - low) // 3, high - (high - low) // 3
        d1, d2 = pairs.bound(n, m1, eps)[1], pairs.bound(n, m2, eps)[1]
        score[m1], score[m2] = d1, d2
        if d1 < d2:
            low = m1
        else:
            high = m2
    if high - low <= 2:
        for k in range(low, high + 1):
            if k not in score:
                score[k] = pairs.bound(n, k, eps)[1]
    return max(score, key=lambda k: score[k]), found


# The lattice-phase guide (`_lattice_guide`): used where the count's variance (n - 1) p q is at least
# LATTICE_GUIDE_MIN_VARIANCE (the flat regime, where the pairs' windows are long and the scan of `_guide`, ~200
# window set-ups, was most of the time of a call); the pairs j = 0 .. reach below the top end are searched, reach
# LATTICE_GUIDE_PERIODS lattice periods (at least LATTICE_GUIDE_MIN_REACH counts); LATTICE_GUIDE_SAMPLES phases are
# sampled first, then up to LATTICE_GUIDE_ROUNDS rounds of LATTICE_GUIDE_PROPOSALS predicted pairs each; the phase
# of the lattice term is fitted on LATTICE_GUIDE_GRID points of [0, 1).
LATTICE_GUIDE_MIN_VARIANCE = 20_000.0
LATTICE_GUIDE_PERIODS = 4
LATTICE_GUIDE_MIN_REACH = 256
LATTICE_GUIDE_SAMPLES = 8
LATTICE_GUIDE_ROUNDS = 4
LATTICE_GUIDE_PROPOSALS = 2
LATTICE_GUIDE_GRID = 2048
# Where the phase moves by at most LATTICE_GUIDE_SMALL_STEP per count, the best pair found is improved by a local
# climb of at most LATTICE_GUIDE_CLIMB steps.
LATTICE_GUIDE_SMALL_STEP = 1.0 / 16.0
LATTICE_GUIDE_CLIMB = 16


def _lattice_guide_applies(eps0: float, n: int) -> bool:
    """Is the lattice-phase guide used at (eps0, n)? Where the variance (n - 1) p q of the others' count is at
    least LATTICE_GUIDE_MIN_VARIANCE (every count's, it does not depend on k) and the searched band is a small
    part of [0, n - 1]."""
    keep, _ = _keep_pair(float(eps0))
    if not (n >= 3 and (n - 1) * keep.p * keep.q >= LATTICE_GUIDE_MIN_VARIANCE):
        return False
    return 8 * _lattice_reach(keep.p - keep.q, n) <= n


def _lattice_reach(c: float, n: int) -> int:
    """The last j searched below the top end: LATTICE_GUIDE_PERIODS periods of the lattice phase (it moves by
    c = p - q per count, modulo 1), at least LATTICE_GUIDE_MIN_REACH, at most n - 1."""
    step = min(c, 1.0 - c)
    period = 1.0 / step if step > 0 else math.inf
    return int(min(max(LATTICE_GUIDE_PERIODS * period, LATTICE_GUIDE_MIN_REACH), n - 1))


def _circular_distance(x: np.ndarray, centre: np.ndarray | float) -> np.ndarray:
    """|x - centre| on the circle [0, 1)."""
    out: np.ndarray = np.abs(np.mod(x - centre + 0.5, 1.0) - 0.5)
    return out


def _fit_lattice(phases: np.ndarray, values: np.ndarray) -> tuple[float, float, float] | None:
    """Least-squares fit of values ~ C - kappa dist(phase, phi)^2 (kappa > 0) over phi on a grid of [0, 1): (C, kappa,
    phi) of the best fit, or None when no phi gives kappa > 0 (no lattice term visible) or too few points."""
    if len(values) < 4:
        return None
    grid = np.arange(LATTICE_GUIDE_GRID, dtype=float) / LATTICE_GUIDE_GRID
    squares = _circular_distance(phases[None, :], grid[:, None]) ** 2
    centred = squares - squares.mean(axis=1, keepdims=True)
    spread = np.sum(centred * centred, axis=1)
    y = values - values.mean()
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa = -np.sum(centred * y[None, :], axis=1) / spread
        residual = np.sum(y * y) - kappa * kappa * spread
    usable = (kappa > 0) & (spread > 0) & np.isfinite(residual)
    if not np.any(usable):
        return None
    best = int(np.argmin(np.where(usable, residual, np.inf)))
    constant = float(values.mean() + kappa[best] * squares[best].mean())
    return constant, float(kappa[best]), float(grid[best])


def _lattice_guide(pairs: _Pairs, n: int, eps: float, limit: float) -> int | None:
    """Uncertified guide of the flat regime (`_lattice_guide_applies`): the count k whose certified d_k(eps) (lower
    end: the solved pair's certified lower end of eps is what the worst case reports, and near eps = 0 the upper ends
    carry a slack that differs from pair to pair by more than the pairs differ) is the largest found among the pairs
    k = n - 1 - j, 0 <= j <= reach, or None (the caller then uses `_classic_start`) when the bottom end k = 0 is not
    below the top end. Only decides which pair is solved; the certification holds whatever it returns.

    Why there: every even cumulant of the others' count S_k is the same for all k and every odd one is linear in k
    (a user holding 1 and one holding 0 are mirror images), so log d_k(eps) is a slow trend in k (its slope measured
    between the two ends) plus a lattice term: the threshold is an integer, and d_k is largest when the continuous
    optimum of the divergence sits on one, so the lattice term is about -kappa dist(mu_k + t, Z)^2 with mu_k =
    k p + (n - 1 - k) q the mean (moving by p - q per count) and t the same for every k. The phase is fitted to a few
    sampled pairs (LATTICE_GUIDE_SAMPLES phases spread over [0, 1), the smallest j of each), and the pairs that the
    fitted trend and lattice term predict highest are evaluated, a few per round, until the predicted best one has
    been evaluated. About 20 window set-ups where `_guide` made about 200."""
    keep, _ = _keep_pair(pairs.eps0)
    p, q = keep.p, keep.q
    reach = _lattice_reach(p - q, n)
    score: dict[int, float] = {}  # j -> certified lower end of d_{n-1-j}(eps)

    def evaluate(j: int) -> float:
        if j not in score:
            score[j] = pairs.bound(n, n - 1 - j, eps)[0]
        return score[j]

    top, bottom = evaluate(0), pairs.bound(n, 0, eps)[0]
    if not (top > 0 and bottom > 0 and top > bottom):
        return None
    slope = (math.log(top) - math.log(bottom)) / (n - 1)  # the trend of log d per count, from the two ends
    js = np.arange(reach + 1, dtype=float)
    phases = np.mod(math.fmod((n - 1) * p, 1.0) - js * (p - q), 1.0)
    for i in range(1, LATTICE_GUIDE_SAMPLES):
        near = np.nonzero(_circular_distance(phases, phases[0] + i / LATTICE_GUIDE_SAMPLES) <= 0.5 / LATTICE_GUIDE_SAMPLES)[0]
        if len(near) and pairs.work <= limit:
            evaluate(int(near[0]))
    for _ in range(LATTICE_GUIDE_ROUNDS):
        known = np.array(sorted(score))
        values = np.array([math.log(score[j]) if score[j] > 0 else -math.inf for j in known])
        if not np.all(np.isfinite(values)) or pairs.work > limit:
            break
        fit = _fit_lattice(phases[known], values + slope * known)
        if fit is None:
            break
        constant, kappa, phase = fit
        predicted = constant - kappa * _circular_distance(phases, phase) ** 2 - slope * js
        ranked = np.argsort(-predicted, kind="stable")
        if int(ranked[0]) in score:
            break
        for j in [int(j) for j in ranked[: 4 * LATTICE_GUIDE_PROPOSALS] if int(j) not in score][:LATTICE_GUIDE_PROPOSALS]:
            evaluate(j)
    best = max(sorted(score), key=lambda j: score[j])
    if min(p - q, 1.0 - (p - q)) <= LATTICE_GUIDE_SMALL_STEP:
        # The phase moves little per count (eps0 small or large): the neighbours of the best pair are its neighbours
        # in phase too, and the fitted phase (a grid of LATTICE_GUIDE_GRID points, a model) may miss the best by a
        # few counts: climb while a neighbour is higher.
        for _ in range(LATTICE_GUIDE_CLIMB):
            if pairs.work > limit:
                break
            higher = [j for j in (best - 1, best + 1) if 0 <= j <= reach and evaluate(j) > score[best]]
            if not higher:
                break
            best = max(higher, key=lambda j: score[j])
    return n - 1 - best


@dataclass(frozen=True)
class WorstCase:
    """The certified worst case: eps in [lower, upper], attained (lower end) at `worst_k` ones among the
    other users (one direction, k in [0, n-1]); `evaluations`: certified delta evaluations spent;
    `tolerance`: the relative width the branch and bound reached (the requested one unless the evaluation
    budget widened it); `route`: what certified the upper end, "transport" (blocks against their end pairs),
    "removal" (the removal sweeps), "pairs" (n = 1: the one pair) or "total_variation" (eps0 <= delta: eps = 0,
    no evaluation)."""

    lower: float
    upper: float
    worst_k: int
    evaluations: int
    pairs_solved: int
    tolerance: float
    route: str = "removal"


def _target(pairs: _Pairs, solved: dict[int, BoundValue], tolerance: float) -> float:
    """eps_U of a sweep at `tolerance`: as far above the best certified lower end as the tolerance allows
    (fewer, wider blocks pass), and never below a solved pair's upper end."""
    lower = max(r.lower for r in solved.values())
    upper = max(r.upper for r in solved.values())
    return min(max(lower * (1 + TARGET_SHARE * tolerance), upper), float(pairs.eps0))


def _sweep(pairs: _Pairs, n: int, solved: dict[int, BoundValue], rel_tol: float, pair_tol: float, limit: float, give_up: float) -> tuple[float, float] | None:
    """Certify max_k eps_k <= eps_u; returns (eps_u, the tolerance reached), or None when the tolerance would
    have to pass `give_up` or pairs.work passes `limit` first (nothing is certified then). eps_u starts at
    (1 + 0.9 tol) times the best certified lower end in `solved` and only grows. A sweep covers [0, n-1] left
    to right by blocks [K, K+B], each bounded by its removal population (n - B users, K ones; module doc) at
    the current eps_u: a block whose bound is <= delta is passed and the sweep moves on with a wider block;
    otherwise the block is narrowed. A single pair (B = 0) above delta is solved (added to `solved`), which
    raises eps_u. A block passed at a smaller eps_u stays passed (d_k is non-increasing in eps), so when a
    tolerance level spends its share of the work (LEVEL_SHARE of what is left up to `limit`, deterministic)
    the tolerance is multiplied by TOLERANCE_GROWTH or more (from the sweep's pace) and the sweep continues
    where it is (bounded time; the reached tolerance is reported). (A block passed at a larger eps_u is NOT
    passed at a smaller one: a finer sweep starts again from k = 0.)"""
    result = _Sweep(pairs, n, solved, rel_tol, pair_tol, limit, give_up).run()
    return result if isinstance(result, tuple) else None  # never paused: no pause_at


class _Sweep:
    """The state of one sweep (`_sweep`), so that it can pause and resume: `run(pause_at)` stops before the next
    block once pairs.work passes pause_at (no widening before that: the caller guarantees the level's share is not
    reached), and `resume_after(spent_before)` restarts its work accounting as if the sweep had started when the
    work was `spent_before` plus what the sweep itself counted (`_fine_first`: a coarse sweep runs in between)."""

    PAUSED = "paused"

    def __init__(self, pairs: _Pairs, n: int, solved: dict[int, BoundValue], rel_tol: float, pair_tol: float, limit: float, give_up: float):
        self.pairs, self.n, self.solved, self.pair_tol, self.limit, self.give_up = pairs, n, solved, pair_tol, limit, give_up
        self.tolerance = rel_tol
        self.eps_u = _target(pairs, solved, self.tolerance)
        self.level_start: float = pairs.work
        self.level_budget = LEVEL_SHARE * (limit - pairs.work)
        if self.tolerance >= give_up:
            self.level_budget = limit - pairs.work
        self.start, self.width = 0, 0  # the next block [start, start + width]
        self.level_k = 0
        # Step prediction only (uncertified, decides which blocks are tried): log(bound / delta) ~ lam + slope
        # width, with slope (the removal cost per user) measured from two evaluations at the same start, first
        # guessed from eps' ~ eps (1 + j / 2n) for j removed
        # users and d log(delta) / d log(eps) ~ -2 log(1/delta), halved (measured ~2-5x lower).
        self.slope = 0.5 * math.log(1 / pairs.delta) * -math.expm1(-pairs.eps0) / n
        self.last: tuple[int, int, float] | None = None  # (start, width, log(bound / delta))
        self.ramp = True  # the slope is the first guess (no two evaluations at one start yet): faster growth
        self.previous = 0
        self.passed_at: tuple[int, float] | None = None  # (start, lam) of the last block passed with a measured slope
        self.failed_at = -1  # the start of the last block that failed (-1: the last one passed)

    def resume_after(self, spent_before: float) -> None:
        """Work accounting as if the sweep had started when the work was `spent_before` (pairs.work less what the
        sweep has counted so far): its level started there, with LEVEL_SHARE of what was left then (all of it at
        give_up)."""
        self.level_start = spent_before
        self.level_budget = LEVEL_SHARE * (self.limit - spent_before)
        if self.tolerance >= self.give_up:
            self.level_budget = self.limit - spent_before

    def run(self, pause_at: float | None = None) -> tuple[float, float] | None | str:
        """Sweep on from where it stopped: (eps_u, the tolerance reached) when [0, n-1] is covered, None when it gives
        up (`_sweep`), PAUSED (its state kept) before the next block once pairs.work passes `pause_at`, where given;
        then its tolerance never widens (the caller's share is below the level's)."""
        pairs, n, solved = self.pairs, self.n, self.solved
        start, width, slope, last, ramp, previous = self.start, self.width, self.slope, self.last, self.ramp, self.previous
        passed_at, failed_at, eps_u, tolerance = self.passed_at, self.failed_at, self.eps_u, self.tolerance
        limit, give_up, pair_tol = self.limit, self.give_up, self.pair_tol
        try:
            while start <= n - 1 and eps_u < pairs.eps0:
                if pause_at is not None and pairs.work > pause_at:
                    self.start, self.width, self.slope, self.last, self.ramp, self.previous = start, width, slope, last, ramp, previous
                    self.passed_at, self.failed_at, self.eps_u, self.tolerance = passed_at, failed_at, eps_u, tolerance
                    return self.PAUSED
                if pause_at is None and pairs.work - self.level_start > self.level_budget:
                    # Grow by TOLERANCE_GROWTH, or more when the sweep's pace predicts that the rest of [0, n-1] needs
                    # more than the work left (the number of blocks falls about like 1/sqrt(tolerance)).
                    done = max(start - self.level_k, 1)
                    predicted = (pairs.work - self.level_start) * (n - start) / done
                    left = max(limit - pairs.work, 1.0)
                    grown = tolerance * max(TOLERANCE_GROWTH, min((predicted / (LEVEL_SHARE * left)) ** 2, 1e4))
                    if tolerance >= give_up or pairs.work > limit:
                        return None
                    tolerance = min(grown, give_up)  # the last level (at give_up) may spend all that is left
                    eps_u, last = _target(pairs, solved, tolerance), None
                    self.level_start, self.level_budget, self.level_k = pairs.work, LEVEL_SHARE * (limit - pairs.work), start
                    if tolerance >= give_up:
                        self.level_budget = limit - pairs.work
                width = min(width, n - 1 - start)
                # Population n - removed: `start` ones and n - 1 - start - removed zeros, plus the thinning tail
                # (module doc: thinned removal; removed = width is the plain removal).
                removed, tail = _thinned_removal(pairs.eps0, width, pairs.log_thin)
                bound = (pairs.bound(n - removed, start, eps_u)[1] + tail) * (1 + 4 * UNIT)
                ratio = math.log(bound / pairs.delta) if bound > 0 else -math.inf
                if last is not None and last[0] == start and last[1] != width and math.isfinite(ratio) and math.isfinite(last[2]):
                    measured = (ratio - last[2]) / (width - last[1])
                    if measured > 0:
                        slope, ramp = measured, False
                last = (start, width, ratio)
                passed = bound <= pairs.delta
                lam = ratio - slope * width
                block_start = start
                overshot = failed_at == start  # a wider block at this start failed first
                failed_at = -1 if passed else start
                if passed:
                    start += width + 1
                    previous = width
                elif width == 0:
                    if start in solved:  # pragma: no cover - its certified eps is <= eps_u
                        raise ParameterError("delta", pairs.delta, "a point where the pair certification is consistent")
                    solved[start] = pairs.epsilon(n, start, pair_tol)
                    eps_u, last = _target(pairs, solved, tolerance), None
                    start += 1  # its certified eps is <= eps_u now
                    continue
                if slope > 0 and math.isfinite(lam):
                    # The widest block predicted to pass with a margin: lam (log(bound / delta) at width 0) at the next
                    # start is this start's; where this start's first block failed, plus its drift between the last two
                    # passed blocks where it rises (towards the worst pairs it can climb by a sizeable part of the room
                    # per block: without it every other block failed first at eps0 = 8, n = 1e6), at most half way to 0.
                    aim = lam
                    if passed and not ramp:
                        if overshot and passed_at is not None and passed_at[0] < block_start:
                            drift = (lam - passed_at[1]) / (block_start - passed_at[0])
                            if drift > 0:
                                aim = min(lam + drift * (start - block_start), 0.5 * lam)
                        passed_at = (block_start, lam)
                    guess = max(int(min(-STEP_MARGIN * aim / slope, 4.0 * n)), 0) if aim < 0 else 0
                    if passed:
                        width = min(guess, (64 if ramp else 4) * width + 3)
                    elif not ramp and guess < width:
                        width = guess  # aimed from this start's own value, with the measured slope
                    else:
                        width = min(guess, width // 2)
                elif passed:
                    width = 4 * previous + 3 if bound <= 0.25 * pairs.delta else previous + previous // 2 + 1
                else:
                    width = width // 8 if bound > 2 * pairs.delta else width // 2
        except _BudgetSpent:
            return None
        return eps_u, tolerance


# ---------------------------------------------------------------- transport certification (the flat regime)

# A block [K, K+B] is certified against its two end pairs (`shuffle_spec.reference.exact.binary_rr_transport`); blocks whose
# smooth (B^2) term is too large are halved, at most TRANSPORT_MAX_BLOCKS of them; an end pair above delta is
# solved (raising eps_U) and the certification restarts, at most TRANSPORT_RESTARTS times.
TRANSPORT_MAX_BLOCKS = 64
TRANSPORT_RESTARTS = 3
# Work the transport may spend (a share of WORK_BUDGET, on top of it: when it gives up, the sweeps still get
# the whole budget).
TRANSPORT_SHARE = 0.2
# Tilts tried (a geometric grid below the saddle point of the top of the scan), the scan's step cap and the
# half-widths (counts) of the window around the ends' thresholds where the three-point bound is used.
TRANSPORT_TILTS = 24
TRANSPORT_TILT_RATIO = 0.8
TRANSPORT_SCAN_STEPS = 400
TRANSPORT_WINDOWS = (4, 16, 64)
# Below mu - CANTELLI_T sigma every pair's H is at most a max_pmf - (e - 1) t^2/(1 + t^2) (Cantelli).
CANTELLI_T = 2.0


def _unscaled_upper(pair: _Pair, value: float) -> float:
    """An unscaled upper bound from a scaled upper bound `value` of the pair (units e^log_scale)."""
    factor = math.exp(pair.log_scale)
    return value * factor * (1 + 1e-12) if value >= 0 else value * factor * (1 - 1e-12)


class _TransportBlock:
    """The transport check of one block [k0, k1] at eps (`_transport_block`): the ends' certified H values
    (memoised), the tilts and the error constants of the two mixtures."""

    def __init__(self, pairs: _Pairs, n: int, k0: int, k1: int, eps: float):
        self.pairs, self.n, self.k0, self.k1, self.eps = pairs, n, k0, k1, float(eps)
        keep, _ = _keep_pair(pairs.eps0)
        self.p, self.q = keep.p, keep.q
        self.m = n - 1
        self.shift = (k1 - k0) * (self.p - self.q)  # end k1's count t is the point s' = t - shift (error << 1)
        self.ends = (pairs.get(n, k0), pairs.get(n, k1))
        self.memo: dict[tuple[int, int], tuple[float, float]] = {}
        self.tables: dict[tuple[bool, bool], list[float | None]] = {}
        self.last: dict[tuple[bool, bool], int] = {}  # per mixture: the tilt that last answered `within`
        self.taus: list[float] = []

    def h(self, end: int, t: int) -> tuple[float, float]:
        """Certified unscaled [lower, upper] of H(t) of end 0 (k0) or 1 (k1) at eps."""
        key = (end, t)
        if key not in self.memo:
            if self.pairs.limited and self.pairs.work > WORK_BUDGET:
                # Bounded time inside a block too (each value costs a window's dot product; caught by worst_case).
                raise _BudgetSpent()
            pair = self.ends[end]
            before = pair.work
            lo, up = pair.h_bounds(self.eps, t)
            self.pairs.work += pair.work - before
            factor = math.exp(pair.log_scale)
            self.memo[key] = (lo * factor * (1 - 1e-12) if lo >= 0 else lo * factor * (1 + 1e-12), _unscaled_upper(pair, up))
        return self.memo[key]

    def table(self, smooth: bool, quadratic: bool) -> list[float | None]:
        """log C_tau of the mixture (`smooth`, `quadratic`) at each tilt of `taus`, filled on demand (`_term`). Its
        work is counted in full when the table is first asked for, whatever is filled (the budget's checks see the
        same counts as when every tilt was computed at once)."""
        key = (smooth, quadratic)
        if key not in self.tables:
            self.tables[key] = [None] * len(self.taus)
            self.pairs.work += EVALUATION_WORK * len(self.taus) // 4
        return self.tables[key]

    def _term(self, i: int, u: float, smooth: bool, quadratic: bool) -> float:
        """The bound e^{log C_tau - tau u} of tilt i (`transport.log_error_constant`, computed once per mixture)."""
        table = self.table(smooth, quadratic)
        log_c = table[i]
        if log_c is None:
            log_c = table[i] = transport.log_error_constant(eps0=self.pairs.eps0, p=self.p, q=self.q, eps=self.eps, m=self.m, ones=self.k0, width=self.k1 - self.k0, tau=self.taus[i], smooth=smooth, quadratic=quadratic)
        return math.exp(min(log_c - self.taus[i] * u, 700.0))

    def error(self, u: float, smooth: bool = True, quadratic: bool = False) -> float:
        """Upper bound of |G(k, s) - mixture| for every k of the block and every s with s' >= u: the least bound over
        the tilts."""
        return min(self._term(i, u, smooth, quadratic) for i in range(len(self.taus)))

    def within(self, base: float, u: float, limit: float, smooth: bool = True, quadratic: bool = False) -> bool:
        """Is base + error(u) <= limit (the same answer, as floats, as computing `error`)? Any tilt's bound is at least
        the least one and float addition is monotone, so a tilt with base + bound <= limit answers yes; the tilts are
        tried from the one that answered last, downhill; where none does, the least bound over all tilts answers.
        (The scan below the peak asks at many u: most answers take one or two tilts instead of all of them.)"""
        key = (smooth, quadratic)
        count = len(self.taus)
        i = self.last.get(key, 0)
        value = self._term(i, u, smooth, quadratic)
        if base + value <= limit:
            return True
        for step in (-1, 1):
            j, current = i + step, value
            while 0 <= j < count:
                candidate = self._term(j, u, smooth, quadratic)
                if base + candidate <= limit:
                    self.last[key] = j
                    return True
                if candidate >= current:
                    break
                j, current = j + step, candidate
        return base + self.error(u, smooth, quadratic) <= limit


def _transport_block(pairs: _Pairs, n: int, k0: int, k1: int, eps: float) -> tuple[str, int]:
    """Is every pair k in [k0, k1] certified to have d_k(eps) <= delta by the transport bound against the pairs
    k0 and k1? Returns ("pass", 0); ("split", b) when a narrower block may pass (the smooth term is what
    fails; b: the number of blocks a split is predicted to need, uncertified); ("end", k) when the end pair k
    is itself above delta; ("fail", 0) when no split can help.

    Proof (module doc of `shuffle_spec.reference.exact.binary_rr_transport`; proof checks "transport"): for k = k0 + j, every
    integer s and s' = s - j (p - q), G(k, s) is at most
    - (two-point mixture) the largest of G(k0, .) at the two counts around s' and of G(k1, .) at the two counts
      around s' + B (p - q), plus E2(s') = min over tilts of e^{-tau s'} C_tau;
    - (three-point mixture) the larger of the quadratic interpolants of G(k0, .) at s' and of G(k1, .) at
      s' + B (p - q) through the three nearest counts, plus E3(s') (third-order lattice term).
    Both hold for every s', and E2, E3 decrease in s'. The scan of s' has three parts:
    - around both ends' thresholds s*_e (brackets (low_e, high_e], widened by `window` counts): the
      three-point bound, cell by cell (`transport.quadratic_cell_upper`);
    - above: H_e decreases from s*_e on, so both ends are at most their value at the window's top;
    - below, down to mu_k0 - t sigma: H_e increases up to s*_e, so over an interval of s' each end is at most
      its value at the interval's top count; intervals grow while they pass (two-point bound).
    For s' below mu_k0 - t sigma (s below mu_k - t sigma), Cantelli's inequality gives T_k(s) >= t^2/(1 + t^2)
    and so H_k(s) = a f_k(s-1) - (e - 1) T_k(s) <= a max_pmf - (e - 1) t^2 / (1 + t^2) directly."""
    delta = pairs.delta
    a_lo, a_hi, b_lo, b_hi = _coefficients(pairs.eps0, float(eps))
    if not (a_lo > 0 and 0 <= eps < pairs.eps0):
        return "fail", 0
    for k in (k0, k1):
        if pairs.bound(n, k, eps)[1] > delta:
            return "end", k
    block = _TransportBlock(pairs, n, k0, k1, eps)
    p, q, m = block.p, block.q, block.m
    sigma = math.sqrt(m * p * q)
    em1_lo = math.expm1(float(eps)) * (1 - 4 * UNIT)
    low_bound = a_hi * transport.max_pmf_bound(p=p, q=q, m=m) * (1 + 4 * UNIT) - em1_lo * CANTELLI_T**2 / (1 + CANTELLI_T**2) * (1 - 4 * UNIT)
    if low_bound > delta:
        return "fail", 0
    mean0 = k0 * p + (m - k0) * q
    u_lo = math.floor(mean0 - CANTELLI_T * sigma) - 1  # one count below: mean0 and sigma carry float errors << 1
    (low0, high0), (low1, high1) = (end.threshold_bracket(eps) for end in block.ends)
    shift = block.shift
    tau_top = transport.saddle_tilt(p=p, q=q, m=m, ones=k0, target=max(min(low0, low1 - shift), mean0 + 1.0))
    block.taus = [t for t in (min(tau_top, 0.45 * pairs.eps0) * TRANSPORT_TILT_RATIO**i for i in range(TRANSPORT_TILTS)) if t > 0]
    if not block.taus:
        return "fail", 0
    verdict: tuple[str, int] = ("fail", 0)

    def split_or_fail(ends_value: float, full: float, lattice: float) -> tuple[str, int]:
        """("split", blocks a split is predicted to need) when the lattice term alone would pass, else ("fail", 0).
        The smooth term scales like B^2 (prediction only: it chooses whether to split, never what passes)."""
        room = delta - ends_value - lattice
        if room <= 0:
            return "fail", 0
        return "split", max(2, math.ceil(math.sqrt(max(full - lattice, 0.0) / room)))

    for window in TRANSPORT_WINDOWS:
        # Peak window of s': [peak_lo, peak_hi]; end 0's counts there and end 1's (shifted) with one spare each side.
        peak_lo = min(low0, math.floor(low1 - shift)) - window
        peak_hi = max(high0, math.ceil(high1 - shift)) + window
        if peak_hi - peak_lo > TRANSPORT_SCAN_STEPS:
            # The ends' transported thresholds are far apart (third-order skew over a wide block, deep tails):
            # a narrower block brings them together.
            return "split", 2
        block.table(True, True)  # its work counted here, before the cells' (the budget's checks as before)
        cells = [
            transport.quadratic_cell_upper(block.h(end, t - 1), block.h(end, t), block.h(end, t + 1))
            for end, (first, last) in ((0, (peak_lo - 1, peak_hi + 1)), (1, (math.floor(peak_lo + shift) - 1, math.ceil(peak_hi + shift) + 1)))
            for t in range(first, last + 1)
        ]
        if not block.within(max(cells), peak_lo, delta, quadratic=True):
            return split_or_fail(max(cells), block.error(peak_lo, quadratic=True), block.error(peak_lo, smooth=False, quadratic=True))
        # Above: both ends decrease; the largest values are at the lowest counts used.
        above_ends = max(block.h(0, peak_hi)[1], block.h(1, math.floor(peak_hi + shift) - 1)[1])
        if not block.within(above_ends, peak_hi, delta):
            verdict = split_or_fail(above_ends, block.error(peak_hi), block.error(peak_hi, smooth=False))
            continue
        # Below: intervals [u1, u2] of s' (end 0's counts up to u2 + 1, end 1's up to floor(u2 + shift) + 3).
        u2, length, steps, passed = peak_lo - 1, 1, 0, True
        while u2 >= u_lo and passed:
            steps += 1
            if steps > TRANSPORT_SCAN_STEPS:
                return "fail", 0
            u1 = max(u2 - length + 1, u_lo)
            top = max(block.h(0, u2 + 1)[1], block.h(1, math.floor(u2 + shift) + 3)[1])
            if block.within(top, u1, delta):
                u2, length = u1 - 1, 2 * length
            elif length > 1:
                length //= 2
            else:
                # Deep tails: the smooth term's relative size grows with z; a narrower block may pass.
                verdict = split_or_fail(top, block.error(u1), block.error(u1, smooth=False))
                passed = False
        if passed:
            return "pass", 0
    return verdict


def _transport_certify(pairs: _Pairs, n: int, solved: dict[int, BoundValue], rel_tol: float, pair_tol: float) -> tuple[float, float] | None:
    """(eps_u, rel_tol) with every pair certified to have eps_k <= eps_u by transport blocks (halving blocks
    whose smooth term is too large), or None when the transport bound cannot certify (small variance: the
    lattice term alone exceeds the margin) within TRANSPORT_MAX_BLOCKS blocks; the sweep takes over then.

    A block that fails with the prediction that b narrower blocks would pass is halved; the half holding its
    worse end (the larger certified d_k at eps_u) inherits the prediction ceil(b / 2) and, while that is 2 or
    more, is halved again without being checked (its room is that of the block: it would fail the same way),
    the other halves are checked. So a worst pair at an end costs about one check per halving, not two. The
    prediction only chooses which blocks are checked: every count lies in a checked block that passed."""
    limit = pairs.work + TRANSPORT_SHARE * WORK_BUDGET
    for _ in range(TRANSPORT_RESTARTS + 1):
        eps_u = _target(pairs, solved, rel_tol)
        if eps_u >= pairs.eps0:
            return None
        stack: list[tuple[int, int, int]] = [(0, n - 1, 0)]  # (k0, k1, blocks predicted for it by its parent)
        blocks, restart = 0, False
        while stack:
            k0, k1, predicted = stack.pop()
            if predicted >= 2 and k1 - k0 >= 2:
                stack.extend(_halves(pairs, n, k0, k1, predicted, eps_u))
                continue
            blocks += 1
            if blocks > TRANSPORT_MAX_BLOCKS or pairs.work > limit:
                return None
            outcome, k = _transport_block(pairs, n, k0, k1, eps_u)
            if outcome == "end":
                solved[k] = pairs.epsilon(n, k, pair_tol)
                restart = True
                break
            if outcome == "split" and k > TRANSPORT_MAX_BLOCKS:
                return None  # predicted hopeless (the smooth term would need more blocks than allowed)
            if outcome == "split" and k1 - k0 >= 2:
                stack.extend(_halves(pairs, n, k0, k1, k, eps_u))
            elif outcome != "pass":
                return None
        if not restart:
            return eps_u, rel_tol
    return None


def _halves(pairs: _Pairs, n: int, k0: int, k1: int, predicted: int, eps: float) -> list[tuple[int, int, int]]:
    """The two halves of the block [k0, k1] for the stack of `_transport_certify` (the lower half on top, checked
    first): the one holding the worse end (the larger certified upper end of d_k(eps)) with the prediction
    ceil(predicted / 2), the other with none (0: checked)."""
    middle = (k0 + k1) // 2
    worse_top = pairs.bound(n, k1, eps)[1] >= pairs.bound(n, k0, eps)[1]
    inherited = (predicted + 1) // 2
    return [(middle, k1, inherited if worse_top else 0), (k0, middle, 0 if worse_top else inherited)]


@contextmanager
def _named_by_the_users_n(n: int) -> Iterator[None]:
    """A window refused for its size names the count it was built for (the ones or zeros among the others,
    n - 1 - k ...): the user gave n, so the refusal quotes n (same range and advice)."""
    try:
        yield
    except ParameterError as failure:
        if failure.name == "n" and failure.value != n:
            raise ParameterError("n", n, failure.allowed) from None
        raise


def _budget_refusal(pairs: _Pairs, n: int) -> ParameterError:
    return ParameterError("n", n, f"a size whose worst case certifies to {MAX_TOLERANCE:g} relative within the work budget (eps0 = {pairs.eps0}, delta = {pairs.delta})")


def _classic_start(pairs: _Pairs, n: int, pair_tol: float) -> dict[int, BoundValue]:
    """The solved pairs the sweeps start from: the pair k = 0, then twice the pair `_guide` finds at the best eps so
    far (it only orders the work)."""
    solved = {0: pairs.epsilon(n, 0, pair_tol)}
    guide_limit = GUIDE_SHARE * WORK_BUDGET
    for _ in range(2):
        best = max(r.upper for r in solved.values())
        if n == 1 or best >= pairs.eps0 or pairs.work > guide_limit:
            break
        k, _ = _guide(pairs, n, best, guide_limit)
        if k in solved:
            break
        solved[k] = pairs.epsilon(n, k, pair_tol)
    return solved


def _lattice_start(pairs: _Pairs, n: int, pair_tol: float) -> dict[int, BoundValue] | None:
    """The flat regime's solved pairs (`_lattice_guide_applies`): the top end's pair k = n - 1 (the worst pairs sit
    near it), then the pair `_lattice_guide` finds at its eps, once (that eps is within the lattice term of the
    worst: the ranking needs no second round). None when the guide declines (`_classic_start` then)."""
    solved = {n - 1: pairs.epsilon(n, n - 1, pair_tol)}
    best = solved[n - 1].upper
    if best >= pairs.eps0 or pairs.work > GUIDE_SHARE * WORK_BUDGET:
        return solved
    k = _lattice_guide(pairs, n, best, GUIDE_SHARE * WORK_BUDGET)
    if k is None:
        return None
    if k not in solved:
        solved[k] = pairs.epsilon(n, k, pair_tol)
    return solved


def _transport_attempt(pairs: _Pairs, n: int, solved: dict[int, BoundValue], rel_tol: float, pair_tol: float) -> tuple[float, float] | None:
    """`_transport_certify`, or None when it cannot certify or the work budget is spent; then the work it spent is
    not counted (the sweeps keep their whole budget: a call does at most (1 + TRANSPORT_SHARE) WORK_BUDGET of work,
    and where the transport cannot certify, the result is what the sweeps alone give)."""
    before = pairs.work
    try:
        transported = _transport_certify(pairs, n, solved, rel_tol, pair_tol)
    except _BudgetSpent:
        transported = None
    if transported is None:
        pairs.work = before
    return transported


def _removal_sweeps(pairs: _Pairs, n: int, solved: dict[int, BoundValue], rel_tol: float, coarse_tol: float, pair_tol: float) -> tuple[dict[int, BoundValue], list[tuple[float, float]]]:
    """The removal route's sweeps (`worst_case`): the solved pairs and the (eps_u, tolerance) of each certified sweep.

    The refinement at rel_tol runs first, pausing once it has counted FINE_FIRST_SHARE of WORK_BUDGET: where it
    covers [0, n - 1] by then, it is the result and no coarse sweep runs (18-45 evaluations saved per call at
    n = 1e4-1e6). Else its work is set aside and the coarse sweep runs as it would have first, then the refinement
    resumes where it paused, its work accounting as if it had started after the coarse sweep (`_Sweep.resume_after`);
    it starts again from k = 0 instead where the coarse sweep solved a pair (a new eps_u). Every block of the
    refinement is thus tried at the eps_u and in the order of the coarse-then-refine sequence, and its level's share
    (LEVEL_SHARE of what the coarse sweep leaves, at least LEVEL_SHARE / (1 + REFINE_MIN) of WORK_BUDGET when the
    refinement runs at all) is above FINE_FIRST_SHARE: the pause never stands in for a widening. The work counts can
    differ a little (cached pairs count no set-up), which matters only where the budget widens a sweep. Soundness
    needs none of this: every completed sweep certifies its eps_u (module doc)."""
    results: list[tuple[float, float]] = []
    first, counted = None, 0
    if rel_tol < coarse_tol:
        trial_start = pairs.work
        first = _Sweep(pairs, n, dict(solved), rel_tol, pair_tol, WORK_BUDGET, coarse_tol / 2)
        outcome = first.run(pause_at=trial_start + FINE_FIRST_SHARE * WORK_BUDGET)
        if isinstance(outcome, tuple):
            results.append(outcome)
            return first.solved, results
        counted = pairs.work - trial_start
        pairs.work = trial_start  # set aside: the coarse sweep sees the work it would have seen first
        if outcome is None:  # the budget ran out in the refinement (not reached at FINE_FIRST_SHARE <= 0.1)
            first = None
    before_coarse = len(solved)
    coarse = _sweep(pairs, n, solved, coarse_tol, pair_tol, WORK_BUDGET, max(MAX_TOLERANCE, coarse_tol))
    if coarse is None:
        raise _budget_refusal(pairs, n)
    results.append(coarse)
    if rel_tol < coarse_tol:
        # Refinement: started only when the work left is at least REFINE_MIN times what was spent so far (a finer
        # sweep costs more); abandoned when its tolerance would reach the coarse one's.
        spent = pairs.work
        if WORK_BUDGET - spent >= REFINE_MIN * spent:
            if first is not None and len(solved) == before_coarse:  # the coarse sweep solved no pair
                pairs.work += counted
                first.give_up = coarse[1] / 2
                first.resume_after(spent)
                fine = first.run()
                solved = first.solved
            else:
                fine = _sweep(pairs, n, solved, rel_tol, pair_tol, WORK_BUDGET, coarse[1] / 2)
            if isinstance(fine, tuple):
                results.append(fine)
    return solved, results


def worst_case(*, eps0: float, n: int, delta: float, rel_tol: float = DEFAULT_REL_TOL) -> WorstCase:
    """exact.shuffled_binary_rr: certified [lower, upper] containing max over all neighbouring pairs of
    their exact eps, width <= rel_tol * upper (or upper = eps0), with the worst count found.

    Deterministic work budget (WORK_BUDGET, counted, never seconds): the guide may spend GUIDE_SHARE of it;
    a coarse sweep at COARSE_TOLERANCE (growing up to MAX_TOLERANCE if its work demands) certifies an
    interval first; the sweep at rel_tol then refines it with the work left (growing too, and abandoned once
    it would not beat the coarse one). The finest certified sweep gives the upper end; every solved pair
    counts for the lower end. Refuses (ParameterError) only when not even MAX_TOLERANCE is certified. The
    refinement is tried first (`_removal_sweeps`): where it completes within FINE_FIRST_SHARE of the budget, the
    coarse sweep is not needed and does not run (the same result).

    The flat regime (`_lattice_guide_applies`: large variance) first tries the transport from the pairs of
    `_lattice_start` (about 20 window set-ups where `_classic_start` makes about 200); where it cannot certify, the
    sweeps run as elsewhere, from a fresh `_classic_start` (its work counted from 0: how far the budget-limited
    sweeps widen depends on the work spent) without a second transport attempt. Their result is then the classic
    one, except that the pairs a transport attempt set up no longer come free to the sweeps: where the budget
    widens a sweep, its width can differ a little (n = 1e8, eps0 = 0.05, delta = 1e-300: 5.09e-4 -> 5.26e-4)."""
    _validate(eps0, n, delta)
    require_positive("rel_tol", rel_tol)
    if not 1e-9 <= rel_tol <= 0.1:
        raise ParameterError("rel_tol", rel_tol, "1e-9 <= rel_tol <= 0.1")
    n = int(n)
    if eps0 <= delta:
        # Every pair's delta at eps = 0 is its total variation, at most that of the one report that differs (the
        # shuffled output is a post-processing of it and the others' reports): tanh(eps0/2) < eps0 <= delta, so the
        # worst case is exactly 0 at every n. (The sweeps resolved deltas far below the doubles there and ran out
        # of their budget: eps0 = 1e-100, n = 1e4, delta = 1e-6 was refused naming n.)
        return WorstCase(0.0, 0.0, 0, 0, 0, float(rel_tol), route="total_variation")
    pair_tol = min(PAIR_REL_TOL, rel_tol / 10)
    transported, attempted, spent = None, False, 0
    solved: dict[int, BoundValue] = {}
    if _lattice_guide_applies(eps0, n):
        pairs = _Pairs(eps0, delta, n, limited=True)
        try:
            start = _lattice_start(pairs, n, pair_tol)
        except _BudgetSpent:
            raise _budget_refusal(pairs, n) from None
        if start is not None:
            solved = start
            transported, attempted = _transport_attempt(pairs, n, solved, rel_tol, pair_tol), True
        spent = pairs.evaluations  # reported with the evaluations of the fresh start below, when there is one
    if transported is None:
        pairs = _Pairs(eps0, delta, n, limited=True)
        pairs.evaluations = spent
        try:
            solved = _classic_start(pairs, n, pair_tol)
        except _BudgetSpent:
            raise _budget_refusal(pairs, n) from None
        if n >= 3 and not attempted:
            transported = _transport_attempt(pairs, n, solved, rel_tol, pair_tol)
    results: list[tuple[float, float]] = []  # (eps_u, tolerance) of each certified sweep
    if n == 1:
        results.append((max(r.upper for r in solved.values()), rel_tol))
    elif transported is not None:
        results.append(transported)
    else:
        coarse_tol = max(COARSE_TOLERANCE, rel_tol)
        solved, results = _removal_sweeps(pairs, n, solved, rel_tol, coarse_tol, pair_tol)
    best_upper = max(r.upper for r in solved.values())
    eps_u, tolerance = min(results)
    eps_u = max(eps_u, best_upper)
    lower_k = max(solved, key=lambda j: solved[j].lower)
    upper = min(eps_u, float(eps0))
    if upper - solved[lower_k].lower > MAX_TOLERANCE * upper:
        # The sweeps certified the upper end, but no pair reached a lower end within MAX_TOLERANCE of it (eps
        # near 0 at large n and small eps0: the pairs' own intervals are wide there): refused, as documented.
        raise _budget_refusal(pairs, n)
    route = "pairs" if n == 1 else "transport" if transported is not None else "removal"
    return WorstCase(solved[lower_k].lower, upper, lower_k, pairs.evaluations, len(solved), tolerance, route)


def shuffled_binary_rr(*, eps0: float, n: int, delta: float) -> BoundValue:
    """exact.shuffled_binary_rr: the exact central eps of n shuffled eps0-binary-RR reports at delta, the
    worst case over every neighbouring pair, as a certified interval of relative width <= 1e-6
    (value = upper end). Supported: 0 < eps0 <= MAX_EPS0, 1 <= n <= 1e12 (within MAX_WINDOW and
    MAX_TOLERANCE: the work budget, ~ 10 s, widens the width, stated in the note; else ParameterError), 1e-300 <= delta < 1. Returns eps0 with a note when no
    eps < eps0 is certified."""
    with _named_by_the_users_n(n):
        result = worst_case(eps0=eps0, n=n, delta=delta)
    width = (result.upper - result.lower) / result.upper if result.upper > 0 else 0.0
    note = f"certified worst case over every pair (worst k = {result.worst_k} ones among the others), relative width {width:.1e}"
    if result.tolerance > DEFAULT_REL_TOL:
        note += f" (widened from {DEFAULT_REL_TOL:g} to stay within the work budget)"
    if result.upper >= eps0:
        note = NO_AMPLIFICATION + "; " + note
    return BoundValue(result.lower, result.upper, note, direction="exact")


def shuffled_binary_rr_delta(*, eps0: float, n: int, eps: float) -> BoundValue:
    """Certified delta(eps) = max_k d_k(eps) of shuffled binary RR (exact.shuffled_binary_rr) for n <= 2000,
    by evaluating every pair (one direction, k in [0, n-1])."""
    _validate(eps0, n, None)
    require_positive("eps", eps, allow_zero=True)
    if n > 2000:
        raise ParameterError("n", n, "1 <= n <= 2000 (every pair is evaluated; use shuffled_binary_rr for eps at large n)")
    pairs = _Pairs(eps0, 1e-30)
    bounds = [pairs.bound(int(n), k, float(eps)) for k in range(int(n))]
    return BoundValue(max(b[0] for b in bounds), max(b[1] for b in bounds), direction="exact")


def one_direction_delta(*, eps0: float, n: int, k: int, eps: float) -> BoundValue:
    """Certified D_{e^eps}(P_k || Q_k), k ones among the other n - 1 users (one direction; proof checks)."""
    _validate(eps0, n, None)
    require_integer("k", k, minimum=0)
    if k > n - 1:
        raise ParameterError("k", k, f"0 <= k <= n-1 = {n - 1}")
    require_positive("eps", eps, allow_zero=True)
    pair = _Pair(float(eps0), int(k), int(n) - 1 - int(k), _tail_for(1e-30), 0.0)
    return BoundValue(*pair.delta_bounds(float(eps)), direction="exact")


def block_delta_bound(*, eps0: float, n: int, start: int, width: int, eps: float) -> BoundValue:
    """The removal bound of the block k in [start, start + width]: the certified d of the population
    n - width with `start` ones (exact.shuffled_binary_rr; an upper bound on every d_k of the block)."""
    require_integer("width", width, minimum=0)
    if width > n - 1:
        raise ParameterError("width", width, f"0 <= width <= n-1 = {n - 1}")
    require_integer("start", start, minimum=0)
    if start + width > n - 1:
        raise ParameterError("start", start, f"0 <= start <= n-1-width = {n - 1 - width}")
    return one_direction_delta(eps0=eps0, n=int(n) - int(width), k=start, eps=eps)


def thinned_block_delta_bound(*, eps0: float, n: int, start: int, width: int, eps: float, tail: float = 1e-12) -> BoundValue:
    """The thinned removal bound of the block k in [start, start + width] (exact.shuffled_binary_rr): with
    j the (1 - tail) quantile of Bin(width, 1 - e^-eps0), the certified d of the population n - j with
    `start` ones, plus the tail (an upper bound on every d_k of the block; upper end). j <= width, so it is
    never worse than `block_delta_bound` by more than the tail. Supported: as block_delta_bound, 1e-300 <= tail < 1."""
    _validate(eps0, n, None)
    require_integer("width", width, minimum=0)
    if width > n - 1:
        raise ParameterError("width", width, f"0 <= width <= n-1 = {n - 1}")
    require_integer("start", start, minimum=0)
    if start + width > n - 1:
        raise ParameterError("start", start, f"0 <= start <= n-1-width = {n - 1 - width}")
    require_probability("tail", tail)
    if tail < MIN_DELTA:
        raise ParameterError("tail", tail, f"{MIN_DELTA:g} <= tail < 1")
    removed, extra = _thinned_removal(float(eps0), int(width), math.log(tail))
    value = one_direction_delta(eps0=eps0, n=int(n) - removed, k=start, eps=eps)
    return BoundValue(value.lower, min((value.upper + extra) * (1 + 4 * UNIT), 1.0), f"population n - {removed} (thinned from {int(width)} removed), tail {extra:.1e}", direction="upper_bound")


def binary_rr_pair_delta(*, eps0: float, n: int, k: int, eps: float, delta_hint: float | None = None) -> BoundValue:
    """Certified max(D(P_k||Q_k), D(Q_k||P_k)) at e^eps for the pair with k ones among the other
    n-1 users (exact.shuffled_binary_rr.pair, one neighbouring pair; D(Q_k||P_k) = D(P_{n-1-k}||Q_{n-1-k})).

    `delta_hint` (the target delta of a caller that compares the result with it): the binomial windows are then the
    ones exact.shuffled_binary_rr uses at that delta (tails TAIL_FRACTION delta_hint, values scaled by delta_hint),
    shared with its window cache, so after its worst case at the same (eps0, n, delta) this costs a few dot products
    instead of two window set-ups; without it, tails of 1e-39 and no scaling. Certified at every eps either way (the
    dropped tails are added to the upper end); only the width near delta_hint is what the hint is for. Range: eps0 in
    (0, MAX_EPS0], 1 <= n <= MAX_N, 0 <= k <= n - 1, eps >= 0, delta_hint None or in [MIN_DELTA, 1)."""
    _validate(eps0, n, None)
    require_integer("k", k, minimum=0)
    if k > n - 1:
        raise ParameterError("k", k, f"0 <= k <= n-1 = {n - 1}")
    if delta_hint is not None:
        require_probability("delta_hint", delta_hint)
        if delta_hint < MIN_DELTA:
            raise ParameterError("delta_hint", delta_hint, f"{MIN_DELTA:g} <= delta_hint < 1")
    if delta_hint is None:
        a = one_direction_delta(eps0=eps0, n=n, k=k, eps=eps)
        b = one_direction_delta(eps0=eps0, n=n, k=int(n) - 1 - int(k), eps=eps)
        return BoundValue(max(a.lower, b.lower), max(a.upper, b.upper), direction="exact")
    require_positive("eps", eps, allow_zero=True)
    pairs = _Pairs(eps0, delta_hint)
    with _named_by_the_users_n(int(n)):
        ends = [pairs.get(int(n), ones).delta_bounds(float(eps)) for ones in sorted({int(k), int(n) - 1 - int(k)})]
    return BoundValue(max(lo for lo, _ in ends), max(up for _, up in ends), direction="exact")


def binary_rr_pair_epsilon(*, eps0: float, n: int, delta: float, k: int = 0) -> BoundValue:
    """exact.shuffled_binary_rr.pair: the exact eps of the neighbouring pair with k ones among the other n-1
    users (both directions), certified to 1e-7 relative. A LOWER bound on the worst case over all pairs."""
    _validate(eps0, n, delta)
    require_integer("k", k, minimum=0)
    if k > n - 1:
        raise ParameterError("k", k, f"0 <= k <= n-1 = {n - 1}")
    pairs = _Pairs(eps0, delta)
    n, k = int(n), int(k)
    with _named_by_the_users_n(n):
        results = [pairs.epsilon(n, k)]
        mirror = n - 1 - k
        if mirror != k and pairs.bound(n, mirror, results[0].upper)[1] > delta:
            results.append(pairs.epsilon(n, mirror))
    lower, upper = max(r.lower for r in results), max(r.upper for r in results)
    note = NO_AMPLIFICATION if upper >= eps0 else ""
    return BoundValue(lower, upper, note, direction="exact")


def shuffled_binary_rr_pair(*, eps0: float, n: int, delta: float, k: int = 0) -> BoundValue:
    """exact.shuffled_binary_rr.pair (statement reference, direction lower_bound): the LOWER end of
    `binary_rr_pair_epsilon` as the value (a lower bound on the worst case must be at most the truth);
    the pair's certified interval is in the note."""
    pair = binary_rr_pair_epsilon(eps0=eps0, n=n, delta=delta, k=k)
    note = f"exact eps of the pair k = {int(k)} (and its mirror) in [{pair.lower!r}, {pair.upper!r}]; a lower bound on the worst case"
    if pair.note:
        note = pair.note + "; " + note
    # The value is the lower end (BoundValue.value of a lower bound); the interval, the pair's, holds its exact eps.
    return BoundValue(pair.lower, pair.upper, note, direction="lower_bound")


def counts_evaluated(n: int) -> tuple[int, ...]:
    """Every count k in [0, n-1] enters the certified worst case (kept for compatibility: the counts whose
    pairs `exact.shuffled_binary_rr` covers, through the removal blocks)."""
    require_integer("n", n, minimum=1)
    if int(n) > 10**6:
        raise ParameterError("n", n, "n <= 1e6 for the explicit list (every k in [0, n-1] is covered)")
    return tuple(range(int(n)))


# ---------------------------------------------------------------- high-precision path (bit-reproducible test vectors)

# The certified worst case at high precision: the float branch and bound only EXCLUDES counts (its bounds are
# certified); at most MP_MAX_CANDIDATES counts remain and are evaluated exactly (shuffle_spec.reference.numerics.high_precision_exact).
MP_MAX_CANDIDATES = 200
MP_MAX_N = 10**6
MP_SWEEP_EVALUATIONS = 20_000
# The exclusion threshold sits this far (relative) below the best pair's exact eps.
MP_GAP = 1e-7


def _mp_validate(eps0: float, n: int, delta: float) -> None:
    _validate(eps0, n, delta)
    if n > MP_MAX_N:
        raise ValueError(f"n = {n} > {MP_MAX_N}: outside the high-precision range of this _mp path")


def mp_candidates(*, eps0: float, n: int, delta: float, threshold: float) -> list[int]:
    """Every count k in [0, n-1] whose one-direction eps_k may exceed `threshold`: each other k lies in a block
    [K, K + B] whose thinned removal bound (module doc, certified floats) at eps = threshold is <= delta, so
    its eps_k <= threshold. A sweep left to right with doubling / halving block widths; ValueError (outside
    the high-precision range) past MP_MAX_CANDIDATES candidates or MP_SWEEP_EVALUATIONS evaluations."""
    _mp_validate(eps0, n, delta)
    pairs = _Pairs(eps0, delta, n)
    candidates: list[int] = []
    start, width = 0, 0
    while start <= n - 1:
        if pairs.evaluations > MP_SWEEP_EVALUATIONS or len(candidates) > MP_MAX_CANDIDATES:
            raise ValueError(f"eps0 = {eps0}, n = {n}, delta = {delta}: the float certificate leaves too many candidate pairs; outside the high-precision range of this _mp path")
        width = min(width, n - 1 - start)
        removed, tail = _thinned_removal(pairs.eps0, width, pairs.log_thin)
        bound = (pairs.bound(n - removed, start, threshold)[1] + tail) * (1 + 4 * UNIT)
        if bound <= pairs.delta:
            start += width + 1
            width = 2 * width + 1
        elif width == 0:
            candidates.append(start)
            start += 1
        else:
            width //= 2
    return candidates


@lru_cache(maxsize=32)
def _mp_worst_candidates(eps0: float, n: int, delta: float) -> tuple[float, tuple[int, ...]]:
    """(threshold, the counts to evaluate exactly): float work only, shared by the calls at several precisions.
    The worst count of the float branch and bound is evaluated exactly (40 digits); the threshold sits MP_GAP
    below it, and every k the float certificate cannot exclude there is a candidate."""
    from ..numerics.high_precision_exact import binary_rr_eps_bracket

    guide = worst_case(eps0=eps0, n=n, delta=delta).worst_k
    best_lo, _ = binary_rr_eps_bracket(eps0=eps0, n=n, k=guide, delta=delta, dps=40, both=False)
    threshold = float(best_lo) * (1 - MP_GAP)
    if not threshold > 0:  # eps = 0 at the guide: every count is a candidate (small n only)
        if n > MP_MAX_CANDIDATES:
            raise ValueError(f"eps0 = {eps0}, n = {n}, delta = {delta}: no positive exclusion threshold; outside the high-precision range of this _mp path")
        return 0.0, tuple(range(n))
    found = mp_candidates(eps0=eps0, n=n, delta=delta, threshold=threshold)
    return threshold, tuple(sorted(set(found) | {guide}))


def shuffled_binary_rr_mp(*, dps: int, eps0: float, n: int, delta: float) -> tuple[Any, Any]:
    """exact.shuffled_binary_rr at `dps` digits: a certified enclosure (Fractions) of max_k eps_k, the exact
    worst case over every neighbouring pair. The float branch and bound (certified bounds) excludes every k
    whose eps_k is at most a threshold MP_GAP under the best pair's exact eps (`mp_candidates`); the candidates
    left are evaluated exactly (shuffle_spec.reference.numerics.high_precision_exact) and, once their best certified lower end is
    checked to be >= the threshold (so the excluded counts cannot hold the max), the max of their brackets is
    returned. Declines (ValueError, "outside the high-precision range") for n > MP_MAX_N or when more than
    MP_MAX_CANDIDATES candidates (or MP_SWEEP_EVALUATIONS float evaluations) remain."""
    from ..numerics.high_precision_exact import binary_rr_eps_bracket

    _mp_validate(eps0, n, delta)
    n = int(n)
    threshold, candidates = _mp_worst_candidates(float(eps0), n, float(delta))
    brackets = [binary_rr_eps_bracket(eps0=eps0, n=n, k=k, delta=delta, dps=dps, both=False) for k in candidates]
    lower = max(b[0] for b in brackets)
    upper = max(b[1] for b in brackets)
    if not lower >= Fraction(threshold):
        raise ValueError(f"eps0 = {eps0}, n = {n}, delta = {delta}: the candidates' exact eps is below the exclusion threshold; outside the high-precision range of this _mp path")
    return lower, upper


def shuffled_binary_rr_pair_mp(*, dps: int, eps0: float, n: int, delta: float, k: int = 0) -> tuple[Any, Any]:
    """exact.shuffled_binary_rr.pair at `dps` digits: a certified enclosure (Fractions) of the exact eps of the
    pair with k ones among the others, both directions (shuffle_spec.reference.numerics.high_precision_exact). Declines (ValueError)
    above MP_MAX_N users."""
    from ..numerics.high_precision_exact import binary_rr_eps_bracket

    _mp_validate(eps0, n, delta)
    require_integer("k", k, minimum=0)
    if k > n - 1:
        raise ParameterError("k", k, f"0 <= k <= n-1 = {n - 1}")
    return binary_rr_eps_bracket(eps0=eps0, n=int(n), k=int(k), delta=delta, dps=dps, both=True)


# ---------------------------------------------------------------- per-pair evaluations shared with the composition


def pair_delta_evaluator(eps0: float) -> Callable[[int, int, float], tuple[float, float]]:
    """A cached evaluator (population, ones, eps) -> certified [lower, upper] of D_{e^eps}(P || Q) for
    P = Bern(p) + S, Q = Bern(q) + S, S = Bin(ones, p) + Bin(population - 1 - ones, q) (one direction; the
    per-pair evaluation of exact.shuffled_binary_rr, module doc "Per pair"). Used by the mechanism-specific
    composition (`reference.composition.mechanism_rounds`) to bound the worst-case profile at grid nodes.
    Range: eps0 as exact.shuffled_binary_rr; population an integer in [1, 1e12] (exact.shuffled_binary_rr's n,
    reference.core.limits) and 0 <= ones <= population - 1."""
    _validate(eps0, 1, None)
    pairs = _Pairs(float(eps0), 1e-30)

    def bound(population: int, ones: int, eps: float) -> tuple[float, float]:
        return pairs.bound(*_counts(population, ones), eps)

    return bound


def _count(name: str, value: object, minimum: int) -> int:
    """`value` as a Python int >= minimum. Numpy integers are accepted and converted here: the pmf's float anchor
    multiplies the counts by 53-bit integers, which wraps or overflows in int64 (`_log_pmf_float`)."""
    if isinstance(value, np.integer):
        value = int(value)
    require_integer(name, value, minimum=minimum)
    return int(value) if isinstance(value, int) else int(float(value))  # type: ignore[arg-type]  # an int or an integral float: checked just above


def _counts(population: object, ones: object) -> tuple[int, int]:
    """The evaluators' (population, ones) as Python ints: 1 <= population <= MAX_N (the statement's n: a larger
    population is outside the certified range, even where its window would be small) and 0 <= ones <= population - 1."""
    people = _count("population", population, 1)
    if people > MAX_N:
        raise ParameterError("population", people, f"1 <= population <= {MAX_N:.0e} (the n range of {STATEMENT}, reference.core.limits)")
    count = _count("ones", ones, 0)
    if count > people - 1:
        raise ParameterError("ones", count, f"0 <= ones <= population - 1 = {people - 1}")
    return people, count


def pair_delta_evaluator_many(eps0: float) -> Callable[[int, int, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """`pair_delta_evaluator` at many eps at once: (population, ones, eps array) -> certified [lower, upper]
    arrays of D_{e^eps}(P || Q), one pair's windows and pmf values shared by all eps (`_Pair.delta_bounds_many`).
    population an integer in [1, 1e12] and 0 <= ones <= population - 1 (Python or numpy integers, or integral floats).
    Used by the mechanism-specific composition to bound the worst-case profile at all grid nodes in one pass."""
    _validate(eps0, 1, None)
    pairs = _Pairs(float(eps0), 1e-30)

    def bound(population: int, ones: int, eps_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        population, ones = _counts(population, ones)
        pairs.evaluations += len(eps_values)
        return pairs.get(population, ones).delta_bounds_many(np.asarray(eps_values, dtype=float))

    return bound


def thinned_removal(eps0: float, width: int, tail: float) -> tuple[int, float]:
    """(j, t): every d_k of a block [K, K + width] is <= d(population n - j, K ones) + t (thinned removal,
    module doc), with t >= Pr[Bin(width, 1 - e^-eps0) > j] a certified Chernoff bound (or (width, 0))."""
    _validate(eps0, 1, None)
    require_integer("width", width, minimum=0)
    require_probability("tail", tail)
    return _thinned_removal(float(eps0), int(width), math.log(tail))
