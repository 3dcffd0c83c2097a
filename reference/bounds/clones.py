"""The FMT21 numerical clone bound (`FMT21.clones_numeric`), certified, with work O(sqrt(n)).

Reduction (FMT21 full version, Appendix E; `shared/statements/fmt21.md`): with C ~ Bin(n-1, q) clones
(q = e^-eps0), A | C ~ Bin(C, 1/2), Delta ~ Bern(alpha0), alpha0 = e^eps0/(e^eps0+1), the pair
P = (A+Delta, C-A+1-Delta), Q = (A+1-Delta, C-A+Delta) dominates every shuffled eps0-LDP protocol, and

    delta(eps) = sum_c Bin(c; n-1, q) B(c),   B(c) = D_{e^eps}(P_c || Q_c)   (= D_{e^eps}(Q_c || P_c)).

Per count c (Algorithm B, "onestep"): P_c(a)/Q_c(a) is non-increasing in a, so with
beta = (e^eps0 - e^eps)/((e^eps+1)(e^eps0-1)) (the statements file's 1/(e^eps_q + 1)), t = floor(beta(c+1))
and b_c, F_c the pmf and cdf of Bin(c, 1/2):

    B(c) = (e^eps0 - e^eps)/(e^eps0 + 1) b_c(t) - (e^eps - 1) F_c(t - 1).

B is non-increasing in c: P_{c+1}, Q_{c+1} are the same Markov kernel (one more clone, a fair coin
choosing the coordinate it adds to) applied to P_c, Q_c, and the hockey-stick divergence cannot
grow under post-processing (used only to cap B where its floats underflow).

Certified evaluation (round 2): B(c) for every count c of the central Bin(n-1, q) window, by a walk in c
that updates b_c(t_c) and F_c(t_c - 1) with exact identities (`_walk`), from anchors computed in
interval arithmetic (`reference.binomial.certified_half_binomial`); every float carries a proven error
bound (model and derivation in `reference.binomial`). The window's pmf is certified the same way, the
Chernoff tail is added to the upper end (B <= 1), and the bisection for eps keeps both bracket ends
verified (lower end: certified delta above target; upper end: certified delta at most target). The
interval returned contains the exact value of the bound. Work: O(window) = O(sqrt(n log(1/delta))) per
delta evaluation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
from reference.binomial import TINY, UNIT, CertifiedWindow, ProbabilityPair, certified_half_binomial, certified_window, exp_upper, iv_context, probability_pair
from reference.errors import ParameterError, require_integer, require_positive, require_probability
from reference.inversion import largest_argument_within
from reference.results import BoundValue
from reference.rounding import round_down, round_up

__all__ = [
    "clone_pair_delta",
    "clones_delta",
    "clones_eps0_for_eps",
    "clones_numeric",
    "per_count_divergence",
    "per_count_divergence_bounds",
    "solve_epsilon",
]

STATEMENT = "FMT21.clones_numeric"
# The binomial window drops at most this fraction of the target delta (added to the upper end), and
# at most DEFAULT_TAIL, so that delta evaluations without a target use the same window.
TAIL_FRACTION = 1e-7
DEFAULT_TAIL = 1e-30


def window_tail(delta: float) -> float:
    """The tail mass the binomial window may drop when the target is `delta`."""
    return max(min(DEFAULT_TAIL, delta * TAIL_FRACTION), 1e-300)
# Bisection stops when the eps bracket is this narrow relative to its upper end.
EPS_REL_TOL = 1e-7
NO_AMPLIFICATION = "no amplification provable at these parameters: the local eps0 is returned"


def _check_eps0(eps0: float) -> None:
    require_positive("eps0", eps0)
    if eps0 > 700:
        raise ParameterError("eps0", eps0, "0 < eps0 <= 700 (e^eps0 must be a finite float)")


def _coefficients(eps0: float, eps: float) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
    """[lo, hi] float brackets (interval arithmetic) of a1 = (e^eps0 - e^eps)/(e^eps0 + 1), e^eps - 1 and
    beta = (e^eps0 - e^eps)/((e^eps+1)(e^eps0-1))."""
    iv = iv_context()
    e0, e = iv.exp(iv.mpf(eps0)), iv.exp(iv.mpf(eps))
    out = []
    for x in ((e0 - e) / (e0 + 1), e - 1, (e0 - e) / ((e + 1) * (e0 - 1))):
        out.append((max(round_down(float(x.a), 1), 0.0), round_up(float(x.b), 1)))
    return out[0], out[1], out[2]


def _cutoff_paths(c: np.ndarray, beta: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper candidates for t_c = floor(beta (c+1)) (the exact beta lies in the bracket; the
    float products carry <= 2 roundings, covered by the 4u margins). Both paths are non-decreasing in c
    with steps 0 or 1 (beta < 1/2)."""
    t_low = np.floor(beta[0] * (c + 1.0) * (1.0 - 4 * UNIT))
    t_high = np.floor(beta[1] * (c + 1.0) * (1.0 + 4 * UNIT))
    return np.maximum(t_low, 0.0), np.minimum(t_high, np.floor((c + 1.0) / 2.0))


def _walk(c0: int, t: np.ndarray, a1: tuple[float, float], em1: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """`_walk_once` from c0, restarted with a fresh certified anchor wherever the running error bound of
    F exceeds 1e-9 of F (F has fallen far below its earlier values, whose rounding errors it inherits)."""
    lowers, uppers = [], []
    start = 0
    while start < len(t):
        lower, upper, stop = _walk_once(c0 + start, t[start:], a1, em1)
        lowers.append(lower[:stop])
        uppers.append(upper[:stop])
        start += stop
    return np.concatenate(lowers), np.concatenate(uppers)


def _walk_once(c0: int, t: np.ndarray, a1: tuple[float, float], em1: tuple[float, float]) -> tuple[np.ndarray, np.ndarray, int]:
    """Certified [lower, upper] of G_c(t_c) = a1 b_c(t_c) - (e^eps - 1) F_c(t_c - 1) (= Gamma_P(t_c) -
    e^eps Gamma_Q(t_c), the hockey-stick objective at the cutoff t_c) for c = c0, c0+1, ..., along a
    path t with steps 0 or 1.

    From c to c+1 (F_{c+1}(a) = F_c(a) - b_c(a)/2, b_{c+1}(a) = b_c(a) (c+1)/(2(c+1-a)),
    b_{c+1}(a+1) = b_c(a) (c+1)/(2(a+1))): with u_c = b_c(t_c), F_c = F_c(t_c - 1),
      same t:   u_{c+1} = u_c (c+1)/(2(c+1-t)),  F_{c+1} = F_c - u_c t/(2(c-t+1));
      t -> t+1: u_{c+1} = u_c (c+1)/(2(t+1)),    F_{c+1} = F_c + u_c/2.
    Returns the brackets and how many leading entries to keep (the walk stops where F's error grows).
    Errors (module doc of reference.binomial for the model): u after j steps has relative error
    <= expm1(b_rel + (2j + 1) u'); each increment adds 2 roundings; the running sum (np.cumsum, sequential)
    has absolute error <= u' sum_i |F_i| + sum_i rel_i |incr_i| + the anchor's error. Once u falls below
    1e-280 the rest is bounded by monotonicity of B in c (the caller clips)."""
    n_steps = len(t) - 1
    anchor = certified_half_binomial(c0, int(t[0]))
    c = c0 + np.arange(len(t), dtype=float)
    if anchor.b == 0.0:  # b_c0(t0) below 1e-280: G <= a1 b, certified upper bound only
        upper = np.full(len(t), a1[1] * exp_upper(anchor.log_b_upper))
        return np.full(len(t), -math.inf), upper, len(t)
    tc, cc = t[:-1], c[:-1]
    same = t[1:] == tc
    ratio = np.where(same, (cc + 1.0) / (2.0 * (cc + 1.0 - tc)), (cc + 1.0) / (2.0 * (tc + 1.0)))
    u = anchor.b * np.concatenate(([1.0], np.cumprod(ratio)))
    steps = np.arange(len(t), dtype=float)
    u_rel = np.expm1(anchor.b_rel + (2.0 * steps + 2.0) * 1.001 * UNIT) * 1.01
    with np.errstate(invalid="ignore", divide="ignore"):
        incr = np.where(same, -u[:-1] * (tc / (2.0 * (cc - tc + 1.0))), 0.5 * u[:-1])
    f = np.cumsum(np.concatenate(([anchor.f], incr)))
    incr_err = np.abs(incr) * (u_rel[:-1] + 2.001 * UNIT)
    anchor_err = max(anchor.f - anchor.f_lo, anchor.f_hi - anchor.f)
    f_err = (anchor_err + np.concatenate(([0.0], np.cumsum(incr_err))) + 1.001 * UNIT * np.cumsum(np.abs(f))) * (1 + 4 * (n_steps + 4) * UNIT)
    f_err += (steps + 1.0) * 2.0**-1070  # subnormal absolute errors
    f_lo, f_hi = np.maximum(f - f_err, 0.0), f + f_err
    u_lo, u_hi = u * (1.0 - u_rel), u * (1.0 + u_rel)
    upper = (a1[1] * u_hi - em1[0] * f_lo) * (1 + 4 * UNIT) + 4 * UNIT * em1[0] * f_lo
    lower = (a1[0] * u_lo - em1[1] * f_hi) - 4 * UNIT * (a1[0] * u_lo + em1[1] * f_hi)
    # Below TINY the relative bounds of u no longer hold: from there on B(c) <= B(last good c) (monotone).
    bad = np.nonzero(u < TINY)[0]
    if len(bad):
        first = int(bad[0])
        cap = upper[first - 1] if first > 0 else a1[1] * exp_upper(anchor.log_b_upper)
        upper[first:] = max(cap, 0.0)
        lower[first:] = -math.inf
        f_err[first:] = 0.0
    # Restart where the accumulated error of F is no longer small relative to F (always keep >= 1 entry).
    loose = np.nonzero(f_err > 1e-9 * np.abs(f) + 1e-300)[0]
    stop = int(loose[0]) if len(loose) and loose[0] > 0 else len(t)
    return lower, upper, stop


def _divergence_range(c_first: int, c_last: int, *, eps0: float, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """Certified [lower, upper] of B(c) = D_{e^eps}(P_c || Q_c) for every c in c_first..c_last (one walk,
    or two where the cutoff floor is ambiguous), clipped to [0, 1]."""
    count = c_last - c_first + 1
    if eps >= eps0:
        # max_a P_c(a)/Q_c(a) = alpha0/(1-alpha0) = e^eps0: the divergence is exactly 0.
        return np.zeros(count), np.zeros(count)
    a1, em1, beta = _coefficients(eps0, eps)
    c = np.arange(c_first, c_last + 1, dtype=float)
    t_low, t_high = _cutoff_paths(c, beta)
    lower, upper = _walk(c_first, t_low, a1, em1)
    if np.any(t_high != t_low):
        # The exact cutoff is one of the two candidates: G at any cutoff is a lower bound on B, and B
        # equals G at the exact one, so the max of the two brackets' ends brackets B.
        lower2, upper2 = _walk(c_first, t_high, a1, em1)
        lower, upper = np.maximum(lower, lower2), np.maximum(upper, upper2)
    return np.clip(lower, 0.0, 1.0), np.clip(upper, 0.0, 1.0)


def per_count_divergence_bounds(c: np.ndarray, *, eps0: float, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """Certified [lower, upper] of B(c) = D_{e^eps}(P_c || Q_c) for each clone count c (FMT21.clones_numeric,
    Algorithm B): the cutoff formula, evaluated by the certified walk over min(c)..max(c)."""
    _check_eps0(eps0)
    require_positive("eps", eps, allow_zero=True)
    cc = np.atleast_1d(np.asarray(c, dtype=float))
    if np.any(cc < 0) or np.any(cc != np.floor(cc)):
        raise ParameterError("c", c, "integer clone counts c >= 0")
    first, last = int(cc.min()), int(cc.max())
    lower, upper = _divergence_range(first, last, eps0=eps0, eps=eps)
    index = (cc - first).astype(np.int64)
    return lower[index], upper[index]


def per_count_divergence(c: np.ndarray, *, eps0: float, eps: float) -> np.ndarray:
    """B(c) = D_{e^eps}(P_c || Q_c) as floats (midpoint of the certified bracket; FMT21.clones_numeric)."""
    lower, upper = per_count_divergence_bounds(c, eps0=eps0, eps=eps)
    return 0.5 * (lower + upper)


@dataclass(frozen=True)
class _ClonePair:
    """The clone-count distribution Bin(n-1, q) on its certified central window."""

    eps0: float
    window: CertifiedWindow

    def delta_bounds(self, eps: float) -> tuple[float, float]:
        """Certified [lower, upper] of delta(eps) = sum_c Bin(c; n-1, q) B(c): every count of the window
        (no blocks), the window's proven pmf bounds, the Chernoff tails added to the upper end (B <= 1)."""
        w = self.window
        b_low, b_up = _divergence_range(w.lo, w.hi, eps0=self.eps0, eps=eps)
        size = len(b_low)
        # Sums of non-negative floats: relative error <= size u'.
        upper = float(np.sum(w.upper * b_up)) * (1.0 + 1.001 * (size + 2) * UNIT) + w.dropped
        lower = float(np.sum(w.lower * b_low)) * (1.0 - 1.001 * (size + 2) * UNIT)
        return max(round_down(lower, 4), 0.0), min(round_up(upper, 4), 1.0)


def _clone_pair(eps0: float, n: int, pair: ProbabilityPair, tail: float) -> _ClonePair:
    return _ClonePair(eps0, certified_window(n - 1, pair, tail))


def clone_pair_delta(*, eps0: float, n: int, eps: float, kind: str = "fmt21", tail: float = DEFAULT_TAIL) -> BoundValue:
    """Certified delta(eps) of the clone pair with clone counts Bin(n-1, q): kind "fmt21" q = e^-eps0
    (FMT21.clones_numeric), "fmt23" q = 2/(e^eps0+1) (FMT23.stronger_clones)."""
    _check_eps0(eps0)
    require_integer("n", n, minimum=1)
    require_positive("eps", eps, allow_zero=True)
    if kind not in ("fmt21", "fmt23"):
        raise ParameterError("kind", kind, "'fmt21' or 'fmt23'")
    require_probability("tail", tail)
    pair = _clone_pair(eps0, int(n), probability_pair(kind, eps0), tail)
    lower, upper = pair.delta_bounds(eps)
    return BoundValue(lower, upper)


def clones_delta(*, eps0: float, n: int, eps: float) -> BoundValue:
    """Certified delta(eps) of the FMT21 numerical clone bound (FMT21.clones_numeric)."""
    _check_eps0(eps0)
    return clone_pair_delta(eps0=eps0, n=n, eps=eps, kind="fmt21")


def solve_epsilon(delta_bounds: Callable[[float], tuple[float, float]], *, eps0: float, delta: float, rel_tol: float = EPS_REL_TOL) -> BoundValue:
    """The certified interval of min{eps in [0, eps0] : delta(eps) <= delta} for a non-increasing
    delta(eps) with delta(eps0) = 0, given certified brackets of delta(eps).

    Both ends stay verified: delta's upper end <= target at `upper` (so the exact eps <= upper), delta's
    lower end > target at `lower` (so the exact eps > lower), or lower = 0. Bisection in eps, with
    steps placed by interpolating log delta once the bracket is known on both sides.
    """
    require_positive("eps0", eps0)
    require_probability("delta", delta)
    require_positive("rel_tol", rel_tol)
    low_end, high_end = 0.0, float(eps0)
    d_low0, d_up0 = delta_bounds(0.0)
    if d_up0 <= delta:
        return BoundValue(0.0, 0.0, "delta(0) <= delta: eps = 0")
    log_target = math.log(delta)
    # log of a point estimate of delta at the bracket ends, for interpolated steps.
    f_low = math.log(max(0.5 * (d_low0 + d_up0), 1e-300)) - log_target
    f_high = None
    side = 0
    for _ in range(200):
        width = high_end - low_end
        if width <= rel_tol * high_end:
            break
        mid = low_end + 0.5 * width
        if f_high is not None and f_low > 0 > f_high:
            guess = low_end + width * f_low / (f_low - f_high)
            # Keep the guess inside the bracket's middle and push it a little past the estimated root
            # alternately, so that both ends move (the Illinois idea).
            nudge = 0.25 * rel_tol * high_end * (1 if side <= 0 else -1)
            guess = min(max(guess + nudge, low_end + 0.02 * width), high_end - 0.02 * width)
            mid = guess
        d_low, d_up = delta_bounds(mid)
        estimate = math.log(max(0.5 * (d_low + d_up), 1e-300)) - log_target
        if d_up <= delta:
            high_end, f_high = mid, estimate
            side = 1 if side <= 0 else side + 1
        elif d_low > delta:
            low_end, f_low = mid, estimate
            side = -1 if side >= 0 else side - 1
        else:
            # Ambiguous at mid: delta's bracket straddles the target; tighten each side separately.
            step = 0.25 * (high_end - low_end)
            for _ in range(40):
                if step <= 0.5 * rel_tol * high_end:
                    break
                probe_up, probe_low = mid + step, mid - step
                if probe_up < high_end and delta_bounds(probe_up)[1] <= delta:
                    high_end = probe_up
                if probe_low > low_end and delta_bounds(probe_low)[0] > delta:
                    low_end = probe_low
                step *= 0.5
            break
    note = NO_AMPLIFICATION if high_end >= eps0 else ""
    return BoundValue(low_end, high_end, note)


def _validate_amplification(eps0: float, n: int, delta: float) -> None:
    _check_eps0(eps0)
    require_integer("n", n, minimum=1)
    require_probability("delta", delta)


def clone_pair_epsilon(eps0: float, n: int, delta: float, kind: str) -> BoundValue:
    """Certified eps(delta) of the clone pair with clone counts Bin(n-1, q), q of `kind` (clone_pair_delta)."""
    pair = _clone_pair(eps0, int(n), probability_pair(kind, eps0), window_tail(delta))
    return solve_epsilon(pair.delta_bounds, eps0=eps0, delta=delta)


def clones_numeric(*, eps0: float, n: int, delta: float) -> BoundValue:
    """FMT21.clones_numeric: the smallest eps with delta_clones(eps) <= delta, as a certified interval.

    delta_clones(eps) = sum_c Bin(c; n-1, e^-eps0) D_{e^eps}(P_c || Q_c) (see the module docstring);
    valid for every eps0-LDP local randomizer (FMT21, reduction to the clone pair). Returns eps0 with a
    note when no eps < eps0 is certified.
    """
    _validate_amplification(eps0, n, delta)
    return clone_pair_epsilon(eps0, int(n), delta, "fmt21")


def clones_eps0_for_eps(*, eps: float, n: int, delta: float, eps0_max: float = 30.0) -> float:
    """FMT21.clones_numeric inverted: the largest eps0 (to 1e-9 relative) whose clone bound certifies
    (eps, delta)-DP, i.e. whose certified delta_clones(eps) is at most delta; verified at the returned point."""
    require_positive("eps", eps)
    require_integer("n", n, minimum=1)
    require_probability("delta", delta)
    require_positive("eps0_max", eps0_max)

    def certified_delta(eps0: float) -> float:
        if eps0 <= eps:
            return 0.0  # delta_clones(eps) = 0 for eps >= eps0
        pair = _clone_pair(eps0, int(n), probability_pair("fmt21", eps0), window_tail(delta))
        return pair.delta_bounds(eps)[1]

    return largest_argument_within(certified_delta, delta, eps, max(eps0_max, eps * 2), name="eps0", rel_tol=1e-9)
