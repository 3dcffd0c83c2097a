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
grow under post-processing. So a block [c_j, c_{j+1}) of clone counts contributes between
W_j B(c_{j+1}) and W_j B(c_j): delta is bracketed with B evaluated at O(blocks) points only.

Certification: every float probability carries the relative error budget of `reference.binomial`;
the binomial tail outside the central window is added to the upper end (B <= 1); the bisection for
eps keeps both bracket ends verified (lower end: certified delta above target; upper end: certified
delta at most target). The interval returned contains the exact value of the bound.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy.special import betainc

from reference.binomial import _log_pmf, central_window, relative_error_budget
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
UNIT = 2.0**-52
# At most this many evaluation points of B per delta evaluation; beyond it, blocks (see module doc).
MAX_POINTS = 512
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


def _scatter(values: np.ndarray, where: np.ndarray, default: np.ndarray) -> np.ndarray:
    out = default.copy()
    out[where] = values
    return out


def per_count_divergence_bounds(c: np.ndarray, *, eps0: float, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """Certified [lower, upper] of B(c) = D_{e^eps}(P_c || Q_c) for each clone count c (FMT21.clones_numeric,
    Algorithm B): the closed-form cutoff t = floor(beta (c+1)), evaluated with error bounds."""
    _check_eps0(eps0)
    require_positive("eps", eps, allow_zero=True)
    cc = np.atleast_1d(np.asarray(c, dtype=float))
    if np.any(cc < 0) or np.any(cc != np.floor(cc)):
        raise ParameterError("c", c, "integer clone counts c >= 0")
    if eps >= eps0:
        # max_a P_c(a)/Q_c(a) = alpha0/(1-alpha0) = e^eps0: the divergence is exactly 0.
        zero = np.zeros(cc.shape)
        return zero, zero
    e = math.exp(eps)
    em1 = math.expm1(eps)
    e0 = math.exp(eps0)
    # e^eps0 - e^eps = e^eps expm1(eps0 - eps); eps0 - eps is exact or within 1 ulp relative (Sterbenz).
    gap = e * math.expm1(eps0 - eps)
    a1 = gap / (e0 + 1.0)
    beta = gap / ((e + 1.0) * math.expm1(eps0))
    tau = beta * (cc + 1.0)
    # beta carries < 10 ulps of relative error: the true floor(tau) is floor(tau -+ slack).
    slack = 1e-14 * tau + 1e-300
    t_low, t_high = np.floor(tau - slack), np.floor(tau + slack)
    t_low = np.maximum(t_low, 0.0)
    coef_err = 64 * UNIT  # the float coefficients a1, em1 and the final operations
    # (the per-count budget below is reference.binomial.relative_error_budget(c), vectorised)
    lowers, uppers = [], []
    # t_high differs from t_low only where beta (c+1) is within rounding of an integer.
    differs = t_high != t_low
    for t, c_t in ((t_low, cc), (t_high[differs], cc[differs])):
        log_b = _log_pmf(t, c_t, -math.log(2.0), -math.log(2.0), 0.5, 0.5)
        b = np.exp(log_b)
        with np.errstate(invalid="ignore", divide="ignore"):
            cdf = np.where(t >= 1, betainc(np.maximum(c_t - t + 1.0, 1.0), np.maximum(t, 1.0), 0.5), 0.0)
        value = a1 * b - em1 * cdf
        scale = a1 * b + em1 * cdf
        err = (1e-12 + 1e-13 * np.sqrt(c_t) + coef_err) * scale + 1e-300
        lowers.append(value - err)
        uppers.append(value + err)
    lowers[1], uppers[1] = _scatter(lowers[1], differs, lowers[0]), _scatter(uppers[1], differs, uppers[0])
    lower = np.clip(np.maximum(lowers[0], lowers[1]), 0.0, 1.0)
    upper = np.clip(np.maximum(uppers[0], uppers[1]), 0.0, 1.0)
    return lower, upper


def per_count_divergence(c: np.ndarray, *, eps0: float, eps: float) -> np.ndarray:
    """B(c) = D_{e^eps}(P_c || Q_c) as floats (midpoint of the certified bracket; FMT21.clones_numeric)."""
    lower, upper = per_count_divergence_bounds(c, eps0=eps0, eps=eps)
    return 0.5 * (lower + upper)


@dataclass(frozen=True)
class _ClonePair:
    """The clone-count distribution Bin(n-1, q) on its central window, grouped into blocks."""

    eps0: float
    n: int
    starts: np.ndarray  # block starts (clone counts), ascending; the last block ends at `end`
    end: float  # one past the last count of the window
    masses: np.ndarray  # block masses (float sums of the window pmf)
    dropped: float  # proven bound on the mass outside the window
    rel_err: float  # relative error bound of each block mass
    singletons: bool  # every block is one count: both ends use B at that count

    def delta_bounds(self, eps: float) -> tuple[float, float]:
        """Certified [lower, upper] of delta(eps) = sum_c Bin(c; n-1, q) B(c)."""
        points = np.append(self.starts, self.end)
        b_low, b_up = per_count_divergence_bounds(points, eps0=self.eps0, eps=eps)
        # Block j holds counts [starts[j], starts[j+1]): B is non-increasing in c.
        upper = float(np.sum(self.masses * b_up[:-1]))
        lower = float(np.sum(self.masses * (b_low[:-1] if self.singletons else b_low[1:])))
        k = len(self.masses)
        upper = round_up(upper * (1.0 + self.rel_err + k * UNIT) + self.dropped, 4)
        lower = round_down(lower * (1.0 - self.rel_err - k * UNIT), 4)
        return max(lower, 0.0), min(upper, 1.0)


def _clone_pair(eps0: float, n: int, clone_p: float, clone_q: float, tail: float) -> _ClonePair:
    window = central_window(n - 1, clone_p, tail, clone_q)
    size = window.hi - window.lo + 1
    if size <= MAX_POINTS:
        starts = np.arange(window.lo, window.hi + 1, dtype=float)
        masses = window.pmf
        longest = 1
    else:
        offsets = np.unique(np.round(np.linspace(0, size, MAX_POINTS + 1)).astype(np.int64))[:-1]
        masses = np.add.reduceat(window.pmf, offsets)
        starts = (window.lo + offsets).astype(float)
        longest = int(np.max(np.diff(np.append(offsets, size))))
    rel_err = relative_error_budget(n - 1) + (longest + 2) * UNIT
    return _ClonePair(eps0, int(n), starts, float(window.hi + 1), masses, window.dropped, rel_err, longest == 1)


def clone_pair_delta(*, eps0: float, n: int, eps: float, clone_probability: float, clone_complement: float | None = None, tail: float = DEFAULT_TAIL) -> BoundValue:
    """Certified delta(eps) of the clone pair with clone counts Bin(n-1, clone_probability)
    (FMT21.clones_numeric with q = e^-eps0; FMT23.stronger_clones with q = 2/(e^eps0+1))."""
    _check_eps0(eps0)
    require_integer("n", n, minimum=1)
    require_positive("eps", eps, allow_zero=True)
    require_probability("clone_probability", clone_probability, open_low=False, open_high=False)
    require_probability("tail", tail)
    q_other = 1.0 - clone_probability if clone_complement is None else clone_complement
    pair = _clone_pair(eps0, int(n), clone_probability, q_other, tail)
    lower, upper = pair.delta_bounds(eps)
    return BoundValue(lower, upper)


def fmt21_clone_probabilities(eps0: float) -> tuple[float, float]:
    """q = e^-eps0 and 1 - q, both to full relative precision."""
    return math.exp(-eps0), -math.expm1(-eps0)


def clones_delta(*, eps0: float, n: int, eps: float) -> BoundValue:
    """Certified delta(eps) of the FMT21 numerical clone bound (FMT21.clones_numeric)."""
    _check_eps0(eps0)
    p, q = fmt21_clone_probabilities(eps0)
    return clone_pair_delta(eps0=eps0, n=n, eps=eps, clone_probability=p, clone_complement=q)


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


def clone_pair_epsilon(eps0: float, n: int, delta: float, clone_p: float, clone_q: float) -> BoundValue:
    """Certified eps(delta) of the clone pair with clone counts Bin(n-1, clone_p)."""
    pair = _clone_pair(eps0, int(n), clone_p, clone_q, window_tail(delta))
    return solve_epsilon(pair.delta_bounds, eps0=eps0, delta=delta)


def clones_numeric(*, eps0: float, n: int, delta: float) -> BoundValue:
    """FMT21.clones_numeric: the smallest eps with delta_clones(eps) <= delta, as a certified interval.

    delta_clones(eps) = sum_c Bin(c; n-1, e^-eps0) D_{e^eps}(P_c || Q_c) (see the module docstring);
    valid for every eps0-LDP local randomizer (FMT21, reduction to the clone pair). Returns eps0 with a
    note when no eps < eps0 is certified.
    """
    _validate_amplification(eps0, n, delta)
    p, q = fmt21_clone_probabilities(eps0)
    return clone_pair_epsilon(eps0, int(n), delta, p, q)


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
        p, q = fmt21_clone_probabilities(eps0)
        pair = _clone_pair(eps0, int(n), p, q, window_tail(delta))
        return pair.delta_bounds(eps)[1]

    return largest_argument_within(certified_delta, delta, eps, max(eps0_max, eps * 2), name="eps0", rel_tol=1e-9)
