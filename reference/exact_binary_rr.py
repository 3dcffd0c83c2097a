"""Exact central privacy of shuffled binary randomized response (`exact.shuffled_binary_rr`).

Binary RR keeps its bit w.p. p = e^eps0/(e^eps0+1). The shuffled output is equivalent to the number S of
ones. For neighbours differing in one user (1 vs 0) with k ones among the other n-1 users,
S_k = Bin(k, p) + Bin(n-1-k, 1-p), and the pair is P_k = Bern(p) + S_k, Q_k = Bern(1-p) + S_k
(`shared/statements/bbgn19.md` section 8). The exact privacy curve is

    delta(eps) = max_k max(D_{e^eps}(P_k || Q_k), D_{e^eps}(Q_k || P_k)),   eps(delta) = min{eps: delta(eps) <= delta}.

What this module computes, honestly: the max over the counts `counts_evaluated(n)`: every k when
n <= ALL_COUNTS_UP_TO (then it is the exact worst case), otherwise k in {0, ..., SCANNED_COUNTS} (SCANNED_COUNTS_LARGE_N for n > LARGE_N) with both
directions (which by the bit-flip symmetry D(Q_k||P_k) = D(P_{n-1-k}||Q_{n-1-k}) also covers
k in {n-1-SCANNED_COUNTS, ..., n-1}). For large n that is a LOWER bound on the true worst case (the
worst k is near the extremes but not always 0: n=200, eps0=2 -> k=1; n=1000, eps0=4 -> k=10), still the
exact privacy of those neighbouring pairs, so no valid bound for eps0-LDP randomizers may be below it.
The certified interval contains the exact value of that max.

Per pair: S_k's pmf f is log-concave (a sum of independent Bernoullis), so the ratio of
A(s) = p f(s) + (1-p) f(s-1) (that is Bern(1-p) + S_k = Q_k) to B(s) = (1-p) f(s) + p f(s-1) (= P_k) is
non-increasing in s: D(A||B) = max_s' [A(S < s') - e^eps B(S < s')] is attained at the first s with
A/B <= e^eps, and D(B||A) on upper sets where A/B < e^-eps. Both are evaluated (their max is the pair's
delta); the crossing is located on the precomputed ratio array (two verified points bracket it), so each
delta evaluation costs O(log n) after an O(sqrt(n)) set-up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from shuffle_spec.reference.binomial import SUBNORMAL_CAP, ProbabilityPair, certified_window, probability_pair
from shuffle_spec.reference.bounds.clones import DEFAULT_TAIL, _check_eps0, solve_epsilon, window_tail
from shuffle_spec.reference.errors import ParameterError, require_integer, require_positive, require_probability
from shuffle_spec.reference.results import BoundValue
from shuffle_spec.reference.rounding import round_down, round_up

__all__ = ["binary_rr_pair_delta", "counts_evaluated", "shuffled_binary_rr", "shuffled_binary_rr_delta"]

STATEMENT = "exact.shuffled_binary_rr"
UNIT = 2.0**-52
ALL_COUNTS_UP_TO = 400
SCANNED_COUNTS = 16
# Above this n only k <= SCANNED_COUNTS_LARGE_N are scanned: there the eps of the pairs k = 0..16 differ by
# about 1e-5 relative (n = 1e7, eps0 in {0.1, 1, 4}), while each pair costs O(sqrt(n)) to set up.
LARGE_N = 10**6
SCANNED_COUNTS_LARGE_N = 4


def counts_evaluated(n: int) -> tuple[int, ...]:
    """The counts k (ones among the other n-1 users) whose pairs are evaluated in both directions:
    all k <= (n-1)/2 for n <= ALL_COUNTS_UP_TO (exact worst case, by symmetry), else 0..SCANNED_COUNTS
    (0..SCANNED_COUNTS_LARGE_N above LARGE_N)."""
    require_integer("n", n, minimum=1)
    n = int(n)
    if n <= ALL_COUNTS_UP_TO:
        return tuple(range(0, (n - 1) // 2 + 1))
    scanned = SCANNED_COUNTS if n <= LARGE_N else SCANNED_COUNTS_LARGE_N
    return tuple(range(0, min(scanned, n - 1) + 1))


def _rr_pairs(eps0: float) -> tuple[ProbabilityPair, ProbabilityPair]:
    """(keep, flip): Bin(., p) and Bin(., 1-p) parameters, p = e^eps0/(e^eps0+1), as certified pairs."""
    keep = probability_pair("keep", eps0)
    flip = ProbabilityPair(keep.q_iv, keep.p_iv, keep.q, keep.p, keep.q_err, keep.p_err)
    return keep, flip


@dataclass(frozen=True)
class _Pair:
    """P_k, Q_k on the window [start, start + len(p) - 1] of S, with cumulative sums for both directions."""

    cp: np.ndarray  # cp[i] = float sum of P over the first i window points
    cq: np.ndarray
    tp: np.ndarray  # tp[i] = float sum of P over window points i.. (upper sets)
    tq: np.ndarray
    neg_ratio: np.ndarray  # -P/Q on the interior (ascending when P/Q is non-increasing)
    interior: tuple[int, int]  # window indices [a, b) where P and Q are computed without truncation
    dropped: float
    rel_err: float

    def _direction(self, e_lo: float, e_hi: float, lower_sets: bool) -> tuple[float, float]:
        a, b = self.interior
        size = len(self.cp) - 1
        # Lower sets {S < s'} maximise P - e Q at the first s with P/Q <= e; upper sets {S >= s'} maximise
        # Q - e P at the first s with P/Q < 1/e. Locate that s on the ratio array and verify two points.
        threshold = e_lo if lower_sets else 1.0 / e_lo
        rho = 8 * self.rel_err + 16 * UNIT
        first, last = 0, size  # candidate cut indices (full range unless verified narrower)
        if b > a:
            ratio = -self.neg_ratio
            i_a = int(np.searchsorted(self.neg_ratio, -threshold * (1 + rho), side="left"))
            i_b = int(np.searchsorted(self.neg_ratio, -threshold * (1 - rho), side="right"))
            # ratio[i] is the ratio at window index a + i.
            if i_a >= 1 and i_a - 1 < len(ratio) and ratio[i_a - 1] > threshold * (1 + rho):
                first = a + i_a
            if i_b < len(ratio) and ratio[i_b] < threshold * (1 - rho):
                last = a + i_b + (0 if lower_sets else 1)
            first = min(first, last)
        xi = self.rel_err
        if lower_sets:
            mass_in, mass_out = self.cp[first : last + 1], self.cq[first : last + 1]
        else:
            mass_in, mass_out = self.tq[first : last + 1], self.tp[first : last + 1]
        upper = np.max(mass_in * (1 + xi) + self.dropped - e_lo * mass_out * (1 - xi))
        lower = np.max(mass_in * (1 - xi) - e_hi * (mass_out * (1 + xi) + self.dropped))
        return float(lower), float(upper)

    def delta_bounds(self, eps: float) -> tuple[float, float]:
        e = math.exp(eps)
        e_lo, e_hi = e * (1 - 4 * UNIT), e * (1 + 4 * UNIT)
        l1, u1 = self._direction(e_lo, e_hi, True)
        l2, u2 = self._direction(e_lo, e_hi, False)
        lower, upper = max(l1, l2), max(u1, u2)
        return max(round_down(lower, 4), 0.0), min(round_up(upper, 4), 1.0)


def _common_part(eps0: float, n: int, tail: float):
    """The part of S_k shared by every evaluated k <= K: Bin(n-1-K, 1-p) on its central window, with K
    the largest evaluated count (S_k = Bin(n-1-K, 1-p) + [Bin(k, p) + Bin(K-k, 1-p)])."""
    largest = max(counts_evaluated(n))
    return largest, certified_window(n - 1 - largest, _rr_pairs(eps0)[1], tail)


def _pair(eps0: float, n: int, k: int, tail: float, common=None) -> _Pair:
    keep, flip = _rr_pairs(eps0)
    p, q = keep.p, keep.q
    largest, window = _common_part(eps0, n, tail) if common is None else common
    if not 0 <= k <= largest:
        # A single pair outside the shared range: its own split (Bin(n-1-k, 1-p) windowed, Bin(k, p) in full).
        largest, window = k, certified_window(n - 1 - k, flip, tail)
    big_m = n - 1 - largest
    small_m = largest
    # The small part Bin(k, p) + Bin(largest - k, 1-p), exactly convolved (all terms positive).
    small = np.ones(1)
    small_rel = 0.0
    for count, pair in ((k, keep), (largest - k, flip)):
        if count > 0:
            part = certified_window(count, pair, 0.0)
            small = np.convolve(small, part.pmf)
            small_rel += part.max_rel
    f = np.convolve(window.pmf, small) if small_m > 0 else window.pmf.copy()
    # Window points s = lo .. lo + len(f): A(s) = p f(s) + q f(s-1), B(s) = q f(s) + p f(s-1) (module doc).
    f_s = np.append(f, 0.0)
    f_prev = np.insert(f, 0, 0.0)
    pp = p * f_s + q * f_prev
    qq = q * f_s + p * f_prev
    size = len(pp)
    cp = np.concatenate(([0.0], np.cumsum(pp)))
    cq = np.concatenate(([0.0], np.cumsum(qq)))
    tp = np.concatenate((np.cumsum(pp[::-1])[::-1], [0.0]))
    tq = np.concatenate((np.cumsum(qq[::-1])[::-1], [0.0]))
    # f(s) is complete (no truncated term of the convolution) for window indices small_m .. len(f)-1-small_m
    # relative to the big window, except at its own ends; P, Q at index i need f at i and i-1.
    a = small_m + 1 if window.lo > 0 else 1
    b = len(f) - small_m if window.hi < big_m else len(f)
    with np.errstate(divide="ignore", invalid="ignore"):
        neg_ratio = -(pp[a:b] / qq[a:b]) if b > a else np.array([])
    if not np.all(np.isfinite(neg_ratio)):
        neg_ratio, a, b = np.array([]), 0, 0
    # Proven: the window's and the small parts' pmf bounds (reference.binomial), then sums/convolutions
    # of non-negative terms (<= (terms) u each), p and q's own errors and the two-term mixtures.
    rel_err = 1.01 * (window.max_rel + small_rel + (small_m + size + 16) * UNIT + keep.p_err + keep.q_err)
    # Window values below 1e-280 are certified only as <= SUBNORMAL_CAP each: counted as dropped mass.
    dropped = window.dropped + len(window.pmf) * SUBNORMAL_CAP
    return _Pair(cp, cq, tp, tq, neg_ratio, (a, b), dropped, rel_err)


def _validate(eps0: float, n: int) -> None:
    _check_eps0(eps0)
    require_integer("n", n, minimum=1)


def binary_rr_pair_delta(*, eps0: float, n: int, k: int, eps: float) -> BoundValue:
    """Certified max(D(P_k||Q_k), D(Q_k||P_k)) at e^eps for the pair with k ones among the other
    n-1 users (exact.shuffled_binary_rr, one neighbouring pair)."""
    _validate(eps0, n)
    require_integer("k", k, minimum=0)
    if k > n - 1:
        raise ParameterError("k", k, f"0 <= k <= n-1 = {n - 1}")
    require_positive("eps", eps, allow_zero=True)
    lower, upper = _pair(eps0, int(n), int(k), DEFAULT_TAIL).delta_bounds(eps)
    return BoundValue(lower, upper)


def shuffled_binary_rr_delta(*, eps0: float, n: int, eps: float) -> BoundValue:
    """Certified delta(eps) of shuffled binary RR, max over `counts_evaluated(n)` (exact.shuffled_binary_rr)."""
    _validate(eps0, n)
    require_positive("eps", eps, allow_zero=True)
    common = _common_part(eps0, int(n), DEFAULT_TAIL)
    bounds = [_pair(eps0, int(n), k, DEFAULT_TAIL, common).delta_bounds(eps) for k in counts_evaluated(n)]
    return BoundValue(max(b[0] for b in bounds), max(b[1] for b in bounds))


def shuffled_binary_rr(*, eps0: float, n: int, delta: float) -> BoundValue:
    """exact.shuffled_binary_rr: the central eps of n shuffled binary-RR reports at delta, as a certified
    interval: min{eps : max_k delta_k(eps) <= delta} = max_k eps_k over k in `counts_evaluated(n)`.

    Exact worst case for n <= ALL_COUNTS_UP_TO; for larger n a lower bound on it (only the counts
    k <= SCANNED_COUNTS and their mirror images are evaluated), exact for those neighbouring pairs.
    Returns eps0 with a note when no eps < eps0 is reached.
    """
    _validate(eps0, n)
    require_probability("delta", delta)
    tail = window_tail(delta)
    common = _common_part(eps0, int(n), tail)
    counts = counts_evaluated(n)
    pairs = {k: _pair(eps0, int(n), k, tail, common) for k in counts}
    # eps = max_k eps_k. Solve k = 0 first; a count whose certified delta is already <= delta at the
    # current upper end cannot raise it (and the max of the lower ends stays a valid lower end).
    results = [solve_epsilon(pairs[counts[0]].delta_bounds, eps0=eps0, delta=delta)]
    for k in counts[1:]:
        if pairs[k].delta_bounds(max(r.upper for r in results))[1] > delta:
            results.append(solve_epsilon(pairs[k].delta_bounds, eps0=eps0, delta=delta))
    worst = max(results, key=lambda r: r.upper)
    lower = max(r.lower for r in results)
    note = worst.note
    if int(n) > ALL_COUNTS_UP_TO:
        note = (note + "; " if note else "") + f"max over k <= {max(counts)} and mirrors: a lower bound on the worst case"
    return BoundValue(lower, worst.upper, note)
