"""The FMT21 numerical clone bound (`FMT21.clones_numeric`), certified, with work O(sqrt(n)).

Reduction (FMT21 full version, arXiv:2012.12803, Appendix E): with C ~ Bin(n-1, q) clones
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

Certified evaluation: B(c) for every count c of the central Bin(n-1, q) window, by a walk in c
that updates b_c(t_c) and F_c(t_c - 1) with exact identities (`_walk`), from anchors computed in
interval arithmetic (`shuffle_spec.reference.numerics.binomial.certified_half_binomial`); every float carries a proven error
bound (model and derivation in `shuffle_spec.reference.numerics.binomial`). The window's pmf is certified the same way, the
Chernoff tail is added to the upper end (B <= 1), and the bisection for eps keeps both bracket ends
verified (lower end: certified delta above target; upper end: certified delta at most target). The
interval returned contains the exact value of the bound. Work: O(window) = O(sqrt(n log(1/delta))) per
delta evaluation. The walk follows the lower candidate cutoff; where the floor of beta (c+1) is
ambiguous in floats, the other candidate t+1 is evaluated from the same walk (b_c(t+1) = b_c(t)(c-t)/(t+1),
F_c(t) = F_c(t-1) + b_c(t)), so one walk per evaluation.

Speed: the certified evaluations are placed by an UNcertified float estimate of delta(eps)
(`_ClonePair.estimate`: B(c) from Loader's binomial pmf and a summed binomial CDF, at every count
by a chunked float walk (above CDF_SUM_MAX clones F carried from one anchor), or from SAMPLED_FROM_COUNT
clones on at two adjacent counts per block of the window, where B(c) is smooth in c, taken from the same carried
walk; no SciPy), whose root (Brent's method, ~10 estimates of ~1 ms) is the guess
for the certified search `shuffle_spec.reference.numerics.solver.solve_epsilon`: after eps0 it certifies guess (1 +- EPS_REL_TOL/4),
steps by secants through the certified values if the root was missed, and falls back to regula falsi.
Typically 3 certified evaluations (eps0 and the two around the guess) instead of ~15. The estimate decides only WHERE delta is certified; every returned end is
verified, so the interval is exactly as sound as with bisection alone.

Supported range (`shuffle_spec.reference.core.limits.RANGES`, refused with ParameterError before any work outside it):
0 < eps0 <= 700, 1 <= n <= 1e12, 1e-300 <= delta < 1. Memory: the clone-count window is streamed in blocks of
at most `shuffle_spec.reference.numerics.binomial.BLOCK` counts, ~0.5 GB peak whatever n; time O(sqrt(n log(1/delta))), about a
minute at n = 1e12. Below delta ~ 1e-280 the certified float arithmetic (subnormal caps) widens the
returned interval: still sound, less tight, and slower (more certified evaluations).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Iterator

import numpy as np
from ..numerics.lattice_sums.laws import log_gamma
from ..numerics.binomial import (
    BLOCK,
    TINY,
    UNIT,
    ProbabilityPair,
    WindowBlock,
    WindowEdges,
    certified_half_binomial,
    certified_window_block,
    exp_upper,
    iv_context,
    probability_pair,
    window_blocks,
    window_edges,
)
from ..core.errors import ParameterError, require_integer, require_positive, require_probability
from ..numerics.inversion import largest_argument_within
from ..numerics.solver import DEFAULT_REL_TOL, MAX_CERTIFIED_EVALUATIONS, solve_epsilon, uncertified_root
from ..core.limits import RANGES
from ..core.parameters import check_delta, check_eps0, check_n
from ..core.results import BoundValue
from ..core.rounding import round_down, round_up

__all__ = [
    "check_clone_inputs",
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
# The certified search's tolerance: each end within it of its root.
EPS_REL_TOL = DEFAULT_REL_TOL
# Certified delta evaluations per solve: typical solves take 3-10, a bad guess up to ~100, and the
# search's own limits allow ~130. Where the certified bracket of delta cannot resolve the target (delta
# below ~1e-280, where subnormal caps dominate) it takes them all. So the clone bounds bound the total work
# of a solve: at most CERTIFIED_WORK clone counts summed over the certified evaluations (one evaluation walks
# every count of the window once: about 0.1 us a count, several times that where the walk restarts from
# fresh anchors), and at least MIN_CERTIFIED_EVALUATIONS evaluations: eps0 and the two aimed at an accurate
# guess, which settle a typical solve. Windows of up to 1e5 counts keep the search's own limit of 400 (n up
# to 1e7 at every delta); n = 1e8 at delta = 1e-300 (3.7e5 counts) gets 107, twice what its search takes;
# the largest windows, 4.2e7 counts (n = 1e12, eps0 near 1, delta = 1e-300), get 3 evaluations of ~3 s
# each, where the former floor of 24 (and 5e8 counts) let such a solve run for minutes. The interval
# returned when the budget runs out has both ends verified, as always, only wider, and its note says so
# (WORK_BUDGET_NOTE). (MAX_CERTIFIED_EVALUATIONS = 400: `shuffle_spec.reference.numerics.solver`.)
MIN_CERTIFIED_EVALUATIONS = 3
CERTIFIED_WORK = 4e7
WORK_BUDGET_NOTE = "work budget of the certified search reached (at most {work:.0e} clone counts walked over its delta evaluations): both ends verified, the interval wider than the search tolerance"


def certified_evaluation_budget(window_size: int) -> int:
    """How many certified delta evaluations a clone solve may make over a window of `window_size` counts: at
    most CERTIFIED_WORK counts walked in all, at least MIN_CERTIFIED_EVALUATIONS, at most the search's own
    MAX_CERTIFIED_EVALUATIONS."""
    require_integer("window_size", window_size, minimum=1)
    return max(MIN_CERTIFIED_EVALUATIONS, min(MAX_CERTIFIED_EVALUATIONS, int(CERTIFIED_WORK / window_size)))


_SUBNORMAL_SLACK = 2.0**-1070


def _expm1_iv(x: Any) -> Any:
    """An interval containing e^x - 1 for an interval x >= 0, with the context's relative width also for tiny
    x (no cancellation): for x <= 2^-30 the series' partial sum S_4 = x + x^2/2 + x^3/6 + x^4/24 is below it
    and S_4 + x^5/60 above it (the remainder sum_{k>=5} x^k/k! <= x^5/120 / (1 - x) <= x^5/60); e^x - 1 is
    increasing, so the ends of x give the ends of the result. Above 2^-30 e^x - 1 loses at most 30 of the
    context's 100 bits."""
    iv = iv_context()
    if x.b > 2.0**-30:
        return iv.exp(x) - 1
    lo, hi = iv.mpf(x.a), iv.mpf(x.b)
    low = lo + lo**2 / 2 + lo**3 / 6 + lo**4 / 24
    high = hi + hi**2 / 2 + hi**3 / 6 + hi**4 / 24 + hi**5 / 60
    return iv.mpf([low.a, high.b])


def _coefficients(eps0: float, eps: float) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
    """[lo, hi] float brackets (interval arithmetic) of a1 = (e^eps0 - e^eps)/(e^eps0 + 1), e^eps - 1 and
    beta = (e^eps0 - e^eps)/((e^eps+1)(e^eps0-1)).

    Written without cancellation (e^eps0 - e^eps = e^eps (e^(eps0 - eps) - 1), `_expm1_iv`), so that each
    bracket is relatively narrow (~2^-70) for every eps0 > 0: beta (c+1) must be located to within one
    integer for the cutoff (`_cutoff_paths`), at c up to 1e12. (As differences of 100-bit exponentials
    their brackets grew like 2^-100 / eps0: at eps0 = 1e-28 the cutoff candidates were 1e-2 (c+1) apart and
    the walk, which assumes they differ by at most one, returned a B(c) below the truth.)"""
    iv = iv_context()
    e = iv.exp(iv.mpf(eps))
    gap = _expm1_iv(iv.mpf(eps0) - iv.mpf(eps))  # e^(eps0 - eps) - 1 >= 0 (eps < eps0 where it is used)
    e0_minus_e = e * gap
    e0 = iv.exp(iv.mpf(eps0))
    out = []
    for x in (e0_minus_e / (e0 + 1), _expm1_iv(iv.mpf(eps)), e0_minus_e / ((e + 1) * _expm1_iv(iv.mpf(eps0)))):
        # All three are >= 0 for 0 <= eps < eps0; an exact 0 (e^eps - 1 at eps = 0) stays 0 rather than
        # rounding out to a subnormal, whose products make the array arithmetic ~100x slower.
        out.append((max(round_down(float(x.a), 1), 0.0), 0.0 if x.b <= 0 else round_up(float(x.b), 1)))
    return out[0], out[1], out[2]


def _cutoff_paths(c: np.ndarray, beta: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper candidates for t_c = floor(beta (c+1)) (the exact beta lies in the bracket; the
    float products carry <= 2 roundings, covered by the 4u margins). Both paths are non-decreasing in c
    with steps 0 or 1 (beta < 1/2)."""
    t_low = np.floor(beta[0] * (c + 1.0) * (1.0 - 4 * UNIT))
    t_high = np.floor(beta[1] * (c + 1.0) * (1.0 + 4 * UNIT))
    return np.maximum(t_low, 0.0), np.minimum(t_high, np.floor((c + 1.0) / 2.0))


def _walk(c0: int, t: np.ndarray, alt: np.ndarray, a1: tuple[float, float], em1: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """`_walk_once` from c0, restarted with a fresh certified anchor wherever the running error bound of
    F exceeds 1e-9 of F (F has fallen far below its earlier values, whose rounding errors it inherits)."""
    lowers, uppers = [], []
    start = 0
    while start < len(t):
        lower, upper, stop = _walk_once(c0 + start, t[start:], alt[start:], a1, em1)
        lowers.append(lower[:stop])
        uppers.append(upper[:stop])
        start += stop
    return np.concatenate(lowers), np.concatenate(uppers)


def _objective_bounds(u: np.ndarray, u_rel: np.ndarray, f: np.ndarray, f_err: np.ndarray, a1: tuple[float, float], em1: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """[lower, upper] of G = a1 b - (e^eps - 1) F from b in u (1 +- u_rel), F in [f - f_err, f + f_err]
    (each of the few float operations below costs <= 1 rounding; 4u margins cover them)."""
    f_lo, f_hi = np.maximum(f - f_err, 0.0), f + f_err
    u_lo, u_hi = u * (1.0 - u_rel), u * (1.0 + u_rel)
    upper = (a1[1] * u_hi - em1[0] * f_lo) * (1 + 4 * UNIT) + 4 * UNIT * em1[0] * f_lo
    lower = (a1[0] * u_lo - em1[1] * f_hi) - 4 * UNIT * (a1[0] * u_lo + em1[1] * f_hi)
    # A product in the subnormal range (tiny eps0: a1 ~ eps0 / 2) has an absolute error <= 2^-1074, which the
    # relative margins do not cover: 2^-1070 per entry covers the few operations.
    return lower - _SUBNORMAL_SLACK, upper + _SUBNORMAL_SLACK


def _walk_once(c0: int, t: np.ndarray, alt: np.ndarray, a1: tuple[float, float], em1: tuple[float, float]) -> tuple[np.ndarray, np.ndarray, int]:
    """Certified [lower, upper] of B(c) for c = c0, c0+1, ..., given that the exact cutoff is t_c, or
    t_c + 1 where alt: B(c) = max over those candidates of G_c(t) = a1 b_c(t) - (e^eps - 1) F_c(t - 1)
    (= Gamma_P(t) - e^eps Gamma_Q(t), the hockey-stick objective at cutoff t, which is <= B at every t
    and = B at the exact cutoff), along a path t with steps 0 or 1.

    From c to c+1 (F_{c+1}(a) = F_c(a) - b_c(a)/2, b_{c+1}(a) = b_c(a) (c+1)/(2(c+1-a)),
    b_{c+1}(a+1) = b_c(a) (c+1)/(2(a+1))): with u_c = b_c(t_c), F_c = F_c(t_c - 1),
      same t:   u_{c+1} = u_c (c+1)/(2(c+1-t)),  F_{c+1} = F_c - u_c t/(2(c-t+1));
      t -> t+1: u_{c+1} = u_c (c+1)/(2(t+1)),    F_{c+1} = F_c + u_c/2;
    and at the alternative cutoff t+1: b_c(t+1) = u_c (c-t)/(t+1), F_c(t) = F_c + u_c (2 roundings, 1).
    Returns the brackets and how many leading entries to keep (the walk stops where F's error grows).
    Errors (module doc of shuffle_spec.reference.numerics.binomial for the model): u after j steps has relative error
    <= expm1(b_rel + (2j + 1) u') <= 1.01 (b_rel + (2j + 2) u'); each increment adds 2 roundings; the running sum (np.cumsum, sequential) has absolute error
    <= u' sum_i |F_i| + sum_i rel_i |incr_i| + the anchor's error. Once u falls below 1e-280 the rest is
    bounded by monotonicity of B in c (B(c) <= the upper end of B at the last c with a good u)."""
    size = len(t)
    anchor = certified_half_binomial(c0, int(t[0]))
    # B(c) <= max over the candidate cutoffs of a1 b_c(t) (F >= 0); b_c(t+1) = b_c(t) (c-t)/(t+1).
    growth = max(1.0, (c0 - t[0]) / (t[0] + 1.0)) if alt[0] else 1.0
    anchor_cap = a1[1] * exp_upper(anchor.log_b_upper) * growth * (1 + 4 * UNIT)
    if anchor.b == 0.0:  # b_c0(t0) below 1e-280: certified upper bound only, for every later c (monotone)
        return np.full(size, -math.inf), np.full(size, anchor_cap), size
    tc = t[:-1]
    num = c0 + np.arange(1, size, dtype=float)  # c + 1 for the steps c -> c + 1 (exact integers)
    same = t[1:] == tc
    gap = num - tc  # c + 1 - t, exact
    u = np.empty(size)
    u[0] = 1.0
    np.cumprod(num / (2.0 * np.where(same, gap, tc + 1.0)), out=u[1:])
    u *= anchor.b
    # expm1(x) <= x (1 + x) <= 1.001 x for x <= 1e-3 (so the 1.01 margin covers it; windows are far
    # shorter than the 4e12 steps at which x would reach 1e-3, checked).
    x_last = anchor.b_rel + 2.0 * size * 1.001 * UNIT
    if x_last > 1e-3:
        raise ParameterError("window", size, "a walk short enough for its rounding-error bound (< 4e12 steps)")
    u_rel = (anchor.b_rel + np.arange(2.0, 2.0 * size + 1.0, 2.0) * (1.001 * UNIT)) * 1.01
    with np.errstate(invalid="ignore", divide="ignore"):
        incr = np.where(same, -(u[:-1] * (tc / (2.0 * gap))), 0.5 * u[:-1])
    f = np.empty(size)
    f[0] = anchor.f
    f[1:] = incr
    np.cumsum(f, out=f)
    anchor_err = max(anchor.f - anchor.f_lo, anchor.f_hi - anchor.f)
    f_err = np.empty(size)
    f_err[0] = 0.0
    np.cumsum(np.abs(incr) * ((u_rel[:-1] + 2.001 * UNIT) * (1 + 4 * UNIT)), out=f_err[1:])
    f_err += anchor_err + 1.001 * UNIT * np.cumsum(np.abs(f))
    f_err *= 1 + 4 * (size + 4) * UNIT
    f_err += size * 2.0**-1070  # subnormal absolute errors (<= 2^-1074 per operation, a few per step)
    lower, upper = _objective_bounds(u, u_rel, f, f_err, a1, em1)
    where = np.nonzero(alt)[0]
    if len(where):
        ua, ta, fa = u[where], t[where], f[where]
        u_alt = ua * ((c0 + where - ta) / (ta + 1.0))
        rel_alt = (u_rel[where] + 2.001 * UNIT) * 1.01  # (1 + rel)(1 + u)^2 - 1, rel <= 1e-3
        f_alt = fa + ua
        f_alt_err = (f_err[where] + 1.01 * u_rel[where] * ua + 1.001 * UNIT * np.abs(f_alt)) * (1 + 4 * UNIT)
        lower_alt, upper_alt = _objective_bounds(u_alt, rel_alt, f_alt, f_alt_err, a1, em1)
        lower[where] = np.maximum(lower[where], lower_alt)
        upper[where] = np.maximum(upper[where], upper_alt)
    # Below TINY the relative bounds of u no longer hold: from there on B(c) <= B(last good c) (monotone).
    bad = np.nonzero(u < TINY)[0]
    if len(bad):
        first = int(bad[0])
        cap = upper[first - 1] if first > 0 else anchor_cap
        upper[first:] = max(cap, 0.0)
        lower[first:] = -math.inf
        f_err[first:] = 0.0
    # Restart where the accumulated error of F is no longer small relative to F (always keep >= 1 entry).
    loose = np.nonzero(f_err > 1e-9 * np.abs(f) + 1e-300)[0]
    stop = int(loose[0]) if len(loose) and loose[0] > 0 else size
    return lower, upper, stop


def _divergence_range(c_first: int, c_last: int, *, eps0: float, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """Certified [lower, upper] of B(c) = D_{e^eps}(P_c || Q_c) for every c in c_first..c_last, clipped
    to [0, 1]: one walk along the lower cutoff candidate, with the upper candidate (one more, where the
    floor is ambiguous) evaluated from the same walk; two walks if the candidates ever differ by more."""
    count = c_last - c_first + 1
    if eps >= eps0:
        # max_a P_c(a)/Q_c(a) = alpha0/(1-alpha0) = e^eps0: the divergence is exactly 0.
        return np.zeros(count), np.zeros(count)
    a1, em1, beta = _coefficients(eps0, eps)
    c = np.arange(c_first, c_last + 1, dtype=float)
    t_low, t_high = _cutoff_paths(c, beta)
    step = t_high - t_low
    if np.all((step == 0) | (step == 1)):
        lower, upper = _walk(c_first, t_low, step == 1, a1, em1)
    else:
        # B equals G at the exact cutoff, one of the two candidates: the max of both brackets' ends.
        none = np.zeros(count, dtype=bool)
        lower, upper = _walk(c_first, t_low, none, a1, em1)
        lower2, upper2 = _walk(c_first, t_high, none, a1, em1)
        lower, upper = np.maximum(lower, lower2), np.maximum(upper, upper2)
    return np.clip(lower, 0.0, 1.0), np.clip(upper, 0.0, 1.0)


def per_count_divergence_bounds(c: np.ndarray, *, eps0: float, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """Certified [lower, upper] of B(c) = D_{e^eps}(P_c || Q_c) for each clone count c (FMT21.clones_numeric,
    Algorithm B): the cutoff formula, evaluated by the certified walk over min(c)..max(c)."""
    check_eps0(eps0, statement=STATEMENT)
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
    midpoint: np.ndarray = 0.5 * (lower + upper)
    return midpoint


# Uncertified estimates (used only to place the certified evaluations; module doc "Speed").
# Clone counts from which B(c) is smooth enough in c to be sampled per block rather than at every c: its
# lattice jitter (the cutoff floor(beta (c+1)) against the mean c/2) has relative size ~ 1/sqrt(c).
SAMPLED_FROM_COUNT = 5_000_000
ESTIMATE_BLOCKS = 256


def _estimate_coefficients(eps0: float, eps: float) -> tuple[float, float, float]:
    """Float a1, e^eps - 1 and beta (uncertified; `_coefficients` gives their certified brackets)."""
    r = math.exp(-eps0)
    em1, em1_0 = math.expm1(eps), -math.expm1(-eps0)  # e^eps - 1; (e^eps0 - 1)/e^eps0
    a1 = (1.0 - math.exp(eps - eps0)) / (1.0 + r)  # (e^eps0 - e^eps)/(e^eps0 + 1)
    beta = (1.0 - math.exp(eps - eps0)) / ((em1 + 2.0) * em1_0)
    return a1, em1, beta


def _stirling_error(n: np.ndarray) -> np.ndarray:
    """log(n!) - log(sqrt(2 pi n) (n/e)^n), n >= 1: log-gamma for small n, the asymptotic series above 15."""
    small = n <= 15
    ns = np.where(small, 16.0, n)
    exact = log_gamma(np.where(small, n, 1.0) + 1.0) - (np.where(small, n, 1.0) + 0.5) * np.log(np.where(small, n, 1.0)) + np.where(small, n, 1.0) - 0.5 * math.log(2 * math.pi)
    nn = ns * ns
    series = (1 / 12 - (1 / 360 - (1 / 1260 - (1 / 1680 - (1 / 1188) / nn) / nn) / nn) / nn) / ns
    error: np.ndarray = np.where(small, exact, series)
    return error


def _deviance(x: np.ndarray, mean: np.ndarray) -> np.ndarray:
    """x log(x / mean) + mean - x without cancellation (Loader's bd0), x > 0, mean > 0."""
    close = np.abs(x - mean) < 0.1 * (x + mean)
    v = np.where(close, (x - mean) / (x + mean), 0.0)
    total = (x - mean) * v
    term = 2.0 * x * v
    v2 = v * v
    for j in range(1, 40):  # |v| < 0.1: each term is below 1e-2 of the last; 40 terms reach far below 1 ulp
        term = term * v2
        total = total + term / (2 * j + 1)
    far = x * np.log(np.where(close, 1.0, x / mean)) + mean - x
    deviance: np.ndarray = np.where(close, total, far)
    return deviance


def _half_binomial_pmf(t: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Float Pr[Bin(c, 1/2) = t] by Loader's saddle-point form (what scipy's binomial pmf computes;
    relative error <= 64 u (1 + |log p|), u = 2^-53, at any c: 4.6e-14 measured in the bulk, 1.6e-12 at
    the underflow edge; tests/reference/bounds/test_clones_half_binomial_pmf.py), 0 outside 0 <= t <= c. Uncertified: it feeds the estimate only."""
    t = np.asarray(t, dtype=float)
    c = np.asarray(c, dtype=float)
    t, c = np.broadcast_arrays(t, c)
    inside = (t >= 0) & (t <= c)
    edge = inside & ((t == 0) | (t == c))
    interior = inside & ~edge
    ti = np.where(interior, t, 1.0)
    ci = np.where(interior, c, 2.0)
    half = 0.5 * ci
    log_core = _stirling_error(ci) - _stirling_error(ti) - _stirling_error(ci - ti) - _deviance(ti, half) - _deviance(ci - ti, half)
    value = np.exp(log_core) * np.sqrt(ci / (2 * math.pi * ti * (ci - ti)))
    at_edge = np.exp(-np.where(edge, c, 0.0) * math.log(2.0))
    return np.where(interior, value, np.where(edge, at_edge, 0.0))



# Counts up to which each chunk of the estimate's walk (`_estimate_walk`, chunks of L ~ sqrt(c)/8 counts) restarts its
# F from `_half_binomial_cdf`, which sums up to 7 sqrt(c) + 1 pmf ratios per point: the cost per estimate grows like
# the window times 56 (measured: cheap up to n ~ 2e5, dear from n ~ 1e6). Above it the walk restarts only its pmf per
# chunk and carries F over the whole window from ONE summed anchor (`_carried_walk`); the sampled grid (from
# SAMPLED_FROM_COUNT clones on) takes its points from the same carried walk. No SciPy at any c: scipy.special costs
# about 0.2-0.3 s to import, more than a whole k-RR `tightest` evaluation at n = 1e4.
CDF_SUM_MAX = 2e5


def _ratio_sums(m: np.ndarray, c: np.ndarray) -> np.ndarray:
    """1 + the sum of the running products of the ratios pmf(j-1)/pmf(j) = j/(c-j+1), j = m, m - 1, ..., over K
    terms, elementwise (integers 0 <= m < c/2 as floats), so that Pr[Bin(c, 1/2) <= m] = pmf(m) times it up to the
    terms left out. The ratios are at most r = m/(c-m+1) < 1, so those are below r^K/(1-r) of pmf(m) (the sum is at
    least pmf(m)): K >= 40/(1-r) leaves out less than e^-40 of it; K >= 7 sqrt(c) + 1 ends 14 standard deviations
    or more below the mean, where the terms are below e^-98 of the pmf at the mean. Float error: about K ulps.
    Points with the same K are summed together (one 2-D cumulative product per K, rows of at most 2^22 numbers)."""
    m = np.asarray(m, dtype=float)
    c = np.asarray(c, dtype=float)
    r = m / (c - m + 1.0)
    with np.errstate(divide="ignore"):
        terms = np.minimum(np.minimum(m + 1.0, np.ceil(40.0 / (1.0 - r))), np.ceil(7.0 * np.sqrt(c)) + 1.0).astype(np.int64)
    out = np.ones(m.shape)
    for k in sorted(set(terms.tolist())):  # (not np.unique: it imports numpy.ma, ~20 ms)
        if k <= 1:
            continue
        rows = np.nonzero(terms == k)[0]
        per = max(1, (1 << 22) // k)
        for start in range(0, len(rows), per):
            take = rows[start:start + per]
            j = m[take, None] - np.arange(k - 1, dtype=float)[None, :]
            out[take] = 1.0 + np.cumprod(j / (c[take, None] - j + 1.0), axis=1).sum(axis=1)
    return out


def _half_binomial_cdf(s: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Float Pr[Bin(c, 1/2) <= s] elementwise (integers s, c >= 1 as floats; 0 for s < 0, 1 for s >= c), what
    the regularised incomplete beta I_{1/2}(c - s, s + 1) is (within about 1e-11 of the smaller of F and 1 - F,
    tested against mpmath at 50 digits up to c = 1e8): the smaller tail as pmf(m) (Loader's form) times
    `_ratio_sums`, with Pr[Bin <= s] = 1 - Pr[Bin <= c - s - 1] for s >= c/2. Work O(sqrt(c)) per point.
    Uncertified: it feeds the estimate only."""
    s = np.asarray(s, dtype=float)
    c = np.asarray(c, dtype=float)
    s, c = np.broadcast_arrays(s, c)
    flat_s, flat_c = s.ravel(), c.ravel()
    out = np.where(flat_s < 0, 0.0, 1.0)
    inside = np.nonzero((flat_s >= 0) & (flat_s < flat_c))[0]
    if len(inside):
        si, ci = flat_s[inside], flat_c[inside]
        upper = si >= ci / 2
        m = np.where(upper, ci - si - 1.0, si)  # the smaller tail's last count (>= -1)
        pmf = _half_binomial_pmf(np.maximum(m, 0.0), ci)
        tails = np.where(m < 0, 0.0, pmf * _ratio_sums(np.maximum(m, 0.0), ci))
        out[inside] = np.where(upper, 1.0 - tails, tails)
    return out.reshape(s.shape)


def _estimate_points(c: np.ndarray, a1: float, em1: float, beta: float) -> np.ndarray:
    """Float B(c) at arbitrary counts by the cutoff formula with Loader's binomial pmf and `_half_binomial_cdf`
    (F_c(t-1) = I_{1/2}(c-t+1, t)); accurate to ~1e-11 relative before the cancellation. Work O(sqrt(c)) per
    count: for a few counts (`_carried_walk` places many)."""
    t = np.floor(beta * (c + 1.0))
    b = _half_binomial_pmf(t, c)
    f = _half_binomial_cdf(t - 1.0, c)
    estimate: np.ndarray = np.maximum(a1 * b - em1 * f, 0.0)
    return estimate


def _chunk_length(c_first: float) -> int:
    """L ~ sqrt(c)/8 counts per chunk of the walk (between 8 and 2048): F changes by a bounded factor within a chunk."""
    return int(min(2048, max(8, math.sqrt(max(c_first, 1.0)) / 8)))


def _walk_pmf(c: np.ndarray, beta: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(t, u, same, incr) at the consecutive counts c (float walk, no error terms): the cutoff t_c =
    min(floor(beta (c+1)), floor((c+1)/2)), u = b_c(t_c) by the ratio products of `_walk_once` within chunks of
    `_chunk_length` counts, each restarted from Loader's pmf, and the step of F_c(t_c - 1) from each count to the
    next (same = no step of t: F_{c+1} = F_c - u t/(2(c-t+1)); else F_{c+1} = F_c + u/2)."""
    size = len(c)
    length = _chunk_length(c[0])
    chunks = -(-size // length)
    extended = c[0] + np.arange(chunks * length, dtype=float)
    t = np.minimum(np.floor(beta * (extended + 1.0)), np.floor((extended + 1.0) / 2.0))
    same = t[1:] == t[:-1]
    # One division per count: the ratio b_{c+1}(t')/b_c(t) is (c+1)/(2(c+1-t)) on a step without t -> t+1,
    # (c+1)/(2(t+1)) with it; each chunk's first entry is its Loader pmf.
    below = np.where(same, extended[:-1] + 1.0 - t[:-1], t[:-1] + 1.0)
    flat = np.empty(chunks * length)
    np.divide(extended[:-1] + 1.0, 2.0 * below, out=flat[1:])
    ratio = flat.reshape(chunks, length)
    ratio[:, 0] = _half_binomial_pmf(t[::length], extended[::length])
    u = np.cumprod(ratio, axis=1).ravel()
    with np.errstate(invalid="ignore", divide="ignore"):
        incr = u[:-1] * np.where(same, -t[:-1] / (2.0 * (extended[:-1] - t[:-1] + 1.0)), 0.5)
    return t[:size], u[:size], same[: size - 1], incr[: size - 1]


def _estimate_walk(c: np.ndarray, a1: float, em1: float, beta: float) -> np.ndarray:
    """Float B(c) at every count of the consecutive counts c: the walk of `_walk_once` (no error terms), cut into
    chunks of L ~ sqrt(c)/8 counts whose pmf restarts from Loader's form. Up to CDF_SUM_MAX clones F restarts per
    chunk as well (`_half_binomial_cdf`); above, F is carried from one anchor (`_carried_walk`)."""
    size = len(c)
    if c[0] > CDF_SUM_MAX:
        u, f = _carried_walk(c, beta)
        carried: np.ndarray = np.maximum(a1 * u - em1 * f, 0.0)
        return carried
    length = _chunk_length(c[0])
    chunks = -(-size // length)
    t, u, _, incr = _walk_pmf(c[0] + np.arange(chunks * length, dtype=float), beta)
    t0, c0 = t.reshape(chunks, length)[:, 0], c[0] + length * np.arange(chunks, dtype=float)
    f0 = _half_binomial_cdf(t0 - 1.0, c0)
    steps = np.concatenate((incr, [0.0])).reshape(chunks, length)[:, :-1]  # the steps within each chunk
    f = f0[:, None] + np.concatenate((np.zeros((chunks, 1)), np.cumsum(steps, axis=1)), axis=1)
    estimate: np.ndarray = np.maximum(a1 * u.reshape(chunks, length) - em1 * f, 0.0).ravel()[:size]
    return estimate


def _carried_walk(c: np.ndarray, beta: float, start: tuple[float, float, float, float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(u, f) = (b_c(t_c), F_c(t_c - 1)) at the consecutive counts c (above CDF_SUM_MAX): u from `_walk_pmf`, F
    from one anchor, `_half_binomial_cdf` at c[0] (or carried one step from `start` = (c, t, u, f) of the count
    before c[0]), then its steps summed (np.cumsum). Why one anchor is enough there: over the window, +-8 standard
    deviations of the clone count (16 sqrt(c) counts at most), F_c(t_c - 1) ~ exp(-z^2/2) with z = (1 - 2 beta)
    sqrt(c) changes by a factor of at most exp(8 z^2/sqrt(c)) (a few at the root's z ~ 5 once c > 2e5), so the
    sum's rounding, about (counts) u' max F, stays near 1e-11 of F where the clone-count law has its mass."""
    t, u, _, incr = _walk_pmf(c, beta)
    if start is None:
        first = float(_half_binomial_cdf(np.array([t[0] - 1.0]), np.array([float(c[0])]))[0])
    else:
        c_prev, t_prev, u_prev, f_prev = start
        same = t[0] == t_prev
        first = f_prev - u_prev * (t_prev / (2.0 * (c_prev - t_prev + 1.0))) if same else f_prev + 0.5 * u_prev
    f = np.empty(len(c))
    f[0] = first
    f[1:] = incr
    np.cumsum(f, out=f)
    return u, f


def _estimate_sampled(counts: np.ndarray, a1: float, em1: float, beta: float, block: int = BLOCK) -> np.ndarray:
    """Float B(c) at the sampled counts (any order) from the carried walk over min(counts)..max(counts), streamed in
    pieces of at most `block` counts (memory O(block)), F carried from piece to piece. Work O(window), about the
    cost of one float pass over the window (n = 1e8: ~1e5 counts, a few ms)."""
    first, last = int(counts.min()), int(counts.max())
    out = np.empty(len(counts))
    start: tuple[float, float, float, float] | None = None
    for lo in range(first, last + 1, block):
        c = np.arange(lo, min(lo + block, last + 1), dtype=float)
        u, f = _carried_walk(c, beta, start)
        t_last = min(math.floor(beta * (c[-1] + 1.0)), math.floor((c[-1] + 1.0) / 2.0))
        start = (float(c[-1]), float(t_last), float(u[-1]), float(f[-1]))
        inside = np.nonzero((counts >= lo) & (counts <= c[-1]))[0]
        index = (counts[inside] - lo).astype(np.int64)
        out[inside] = np.maximum(a1 * u[index] - em1 * f[index], 0.0)
    return out


# The estimate's root by secant steps (`_ClonePair._secant_guess`): at most this many, to this step in log eps
# (1e-3 of the certified search's tolerance, as the bracketing search's, which remains the fallback).
SECANT_STEPS = 12
SECANT_TOL = 1e-3 * EPS_REL_TOL


# The guess's work budget, in window counts (each estimate is one float pass over the window, ~40 ns a count): at
# most GUESS_WORK // size estimates, then no guess. Windows up to 1e6 counts (n <= 1e9 at every delta) allow 200 or
# more, far more than a guess takes (5-40); n = 1e12 at delta = 1e-9 (1.2e7 counts) 16, where its guess takes 7; the
# largest, 4.2e7 counts (n = 1e12, eps0 near 1, delta = 1e-300), 4 (~2 s), where the guess took 38 estimates (20 s
# under load) for a root that the 3 certified evaluations its search may make there could not certify anyway.
GUESS_WORK = 2e8


class _GuessBudgetSpent(Exception):
    """The guess has walked its GUESS_WORK window counts (caught in `_ClonePair.guess_epsilon`)."""


@dataclass(frozen=True)
class _ClonePair:
    """The clone-count distribution Bin(n-1, q) on its certified central window, streamed in blocks of at
    most `block` counts (memory O(block) per call whatever n; module doc "Memory")."""

    eps0: float
    pair: ProbabilityPair
    edges: WindowEdges
    block: int = BLOCK

    @cached_property
    def _ranges(self) -> list[tuple[int, int]]:
        return window_blocks(self.edges, self.block)

    @cached_property
    def _single(self) -> WindowBlock | None:
        """The whole window when it is one block (kept: it is reused by every evaluation)."""
        if len(self._ranges) != 1:
            return None
        return certified_window_block(self.edges.m, self.pair, self.edges.lo, self.edges.hi)

    def _blocks(self) -> Iterator[WindowBlock]:
        """The window's certified blocks in order (recomputed per pass unless there is only one)."""
        if self._single is not None:
            yield self._single
            return
        for a, b in self._ranges:
            yield certified_window_block(self.edges.m, self.pair, a, b)

    @cached_property
    def _estimate_grid(self) -> tuple[np.ndarray, np.ndarray, bool]:
        """(counts, weights, sampled): every count of the window with its float pmf, or, from
        SAMPLED_FROM_COUNT clones on, two adjacent counts per block of ~ size/ESTIMATE_BLOCKS counts at the
        block's mean count, each with half the block's mass. The weights depend on (eps0, n) only, so they
        are computed once (streamed: accumulated block by block)."""
        e = self.edges
        if e.lo < SAMPLED_FROM_COUNT or e.size <= 4 * ESTIMATE_BLOCKS:
            if self._single is None:
                return np.empty(0), np.empty(0), False  # streamed walk estimate (see `estimate`)
            return self._single.support, self._single.pmf, False
        width = -(-e.size // ESTIMATE_BLOCKS)
        mass = np.zeros(ESTIMATE_BLOCKS)
        moment = np.zeros(ESTIMATE_BLOCKS)
        for part in self._blocks():
            c = part.support
            index = ((c - e.lo) // width).astype(np.int64)
            np.add.at(mass, index, part.pmf)
            np.add.at(moment, index, part.pmf * c)
        # Blocks below 1e-18 of the mass are left out: B varies across the window by a factor of at most
        # exp(8 z^2/sqrt(c)) (`_carried_walk`; a few hundred at z ~ 37, delta ~ 1e-300, c ~ 5e6), so they move the
        # estimate by less than 1e-15 of itself, and the carried walk (`_estimate_sampled`) spans ~20% fewer counts.
        used = mass > 1e-18 * mass.sum()
        mass, moment = mass[used], moment[used]
        centre = np.floor(moment / mass)
        return np.concatenate((centre, centre + 1.0)), np.concatenate((mass, mass)) / 2.0, True

    @cached_property
    def mean_count(self) -> float:
        """The window's float mean clone count (uncertified; places the estimate's first point)."""
        counts, weights, _ = self._estimate_grid
        if len(counts):
            return float(np.sum(weights * counts))
        return float(sum(np.sum(part.pmf * part.support) for part in self._blocks()))

    def estimate(self, eps: float) -> float:
        """An UNcertified float estimate of delta(eps) (window mass only), to place certified evaluations."""
        if eps >= self.eps0:
            return 0.0
        counts, weights, sampled = self._estimate_grid
        coefficients = _estimate_coefficients(self.eps0, eps)
        if sampled:
            return float(np.sum(weights * _estimate_sampled(counts, *coefficients)))
        if len(counts):
            return float(np.sum(weights * _estimate_walk(counts, *coefficients)))  # (not np.dot: BLAS threads cost ms)
        return float(sum(np.sum(part.pmf * _estimate_walk(part.support, *coefficients)) for part in self._blocks()))

    @cached_property
    def _guess_estimates(self) -> list[int]:
        """How many estimates the guess running now has made (one counter per pair, reset by each guess)."""
        return [0]

    def _counted_estimate(self, eps: float) -> float:
        """`estimate`, counted against the guess's work budget (GUESS_WORK window counts: one pass each)."""
        if (self._guess_estimates[0] + 1) * self.edges.size > max(GUESS_WORK, self.edges.size):
            raise _GuessBudgetSpent
        self._guess_estimates[0] += 1
        return self.estimate(eps)

    def guess_epsilon(self, delta: float) -> float | None:
        """The root of the estimate, log estimate(eps) = log delta, on (0, eps0) (Brent's method), or None
        when the estimate does not change sign there, or when the guess would walk more than GUESS_WORK window
        counts (one pass per estimate). Uncertified: `solve_epsilon` verifies around it."""
        self._guess_estimates[0] = 0
        try:
            return self._guess_epsilon(delta)
        except _GuessBudgetSpent:
            return None

    def _guess_epsilon(self, delta: float) -> float | None:
        log_target = math.log(delta)

        def gap(eps: float) -> float:
            return math.log(max(self._counted_estimate(eps), 1e-300)) - log_target

        # Start from the Gaussian-mechanism scale: P_c and Q_c differ by a shift of tanh(eps0/2) in the
        # mean of a count with standard deviation sqrt(c)/2, c ~ the window's mean count (within ~2x
        # of the root), then double or halve to a sign change. (eps = 0 itself is avoided: the
        # incomplete beta at the median of a huge count is slow, and nothing needs it.)
        mean_count = max(self.mean_count, 1.0)
        scale = 2.0 * math.tanh(self.eps0 / 2) * math.sqrt(2.0 * math.log(1.25 / delta) / mean_count)
        low = high = min(scale, 0.5 * self.eps0)
        if not low > 0.0:  # tanh(eps0/2) rounds to 0 at a subnormal eps0: no scale to start from, the bisection decides
            return None
        found = self._secant_guess(low, delta)
        if found is not None:
            return found
        if gap(low) > 0:
            while True:
                high = min(2.0 * high, self.eps0)
                if high >= self.eps0 or gap(high) <= 0:
                    break
                low = high
        else:
            while True:
                low *= 0.5
                if low < scale / 64:
                    # The root is far below the Gaussian scale (delta(0) is near or below the target):
                    # leave it to the certified bisection, which starts by certifying delta(0).
                    return None
                if gap(low) > 0:
                    break
                high = low
        try:
            return uncertified_root(gap, low, high, 1e-3 * EPS_REL_TOL)
        except ValueError:  # no sign change (delta below what the estimate resolves): no estimate, and
            return None  # the certified bisection decides (its message, not the root finder's, is shown)

    def _secant_guess(self, start: float, delta: float) -> float | None:
        """The root of the estimate by secant steps on y = log eps against h(y) = log(-log estimate) - log(-log delta),
        nearly linear in y where the estimate has a Gaussian-like tail (-log delta(eps) ~ eps^2: slope ~2), so that
        about 4-6 estimates reach SECANT_TOL instead of the ~20 of the bracketing search; None (the caller brackets)
        when a step leaves (0, eps0), an estimate is 0 or >= 1, h is not decreasing along the steps, or
        SECANT_STEPS run out. Uncertified, as the estimate: `solve_epsilon` verifies around it."""
        target = math.log(-math.log(delta))

        def h(y: float) -> float | None:
            value = self._counted_estimate(math.exp(y))
            return None if not 1e-300 < value < 1.0 else math.log(-math.log(value)) - target

        y0 = math.log(start)
        h0 = h(y0)
        if h0 is None:
            return None
        y1 = y0 - max(min(0.5 * h0, 1.0), -1.0)  # a first step on the Gaussian model (slope 2), at most a factor e
        h1 = h(y1)
        for _ in range(SECANT_STEPS):
            if h1 is None or h1 == h0 or (h1 - h0) / (y1 - y0) <= 0:
                return None
            y2 = y1 - h1 * (y1 - y0) / (h1 - h0)
            y2 = min(max(y2, y1 - 1.0), y1 + 1.0)  # at most a factor e per step
            if not y2 < math.log(self.eps0):
                return None
            # Secant errors shrink like the product of the last two steps (h is nearly linear: its curvature
            # constant is below 1), so a step below 1e-5 after one below SECANT_TOL / (that step) has landed.
            if abs(y2 - y1) <= SECANT_TOL or (abs(y2 - y1) <= 1e-5 and abs(y2 - y1) * abs(y1 - y0) <= SECANT_TOL):
                return math.exp(y2)
            y0, h0, y1, h1 = y1, h1, y2, h(y2)
        return None

    def delta_bounds(self, eps: float) -> tuple[float, float]:
        """Certified [lower, upper] of delta(eps) = sum_c Bin(c; n-1, q) B(c): every count of the window
        (block by block, each with its own certified walk anchor), the window's proven pmf bounds, the
        Chernoff tails added to the upper end (B <= 1)."""
        upper_sum = lower_sum = 0.0
        blocks = 0
        for part in self._blocks():
            b_low, b_up = _divergence_range(part.lo, part.hi, eps0=self.eps0, eps=eps)
            upper_sum += float(np.sum(part.upper * b_up))
            lower_sum += float(np.sum(part.lower * b_low))
            blocks += 1
        # Sums of non-negative floats: relative error <= (terms + partial sums) u'; products in the subnormal
        # range (tiny eps0) an absolute 2^-1074 each, covered by 2^-1070 per term.
        terms = self.edges.size + blocks + 2
        upper = upper_sum * (1.0 + 1.001 * terms * UNIT) + self.edges.dropped + terms * _SUBNORMAL_SLACK
        lower = lower_sum * (1.0 - 1.001 * terms * UNIT)
        return max(round_down(lower, 4), 0.0), min(round_up(upper, 4), 1.0)


def _clone_pair(eps0: float, n: int, pair: ProbabilityPair, tail: float, block: int = BLOCK) -> _ClonePair:
    return _ClonePair(eps0, pair, window_edges(n - 1, pair, tail), block)


def clone_pair_delta(*, eps0: float, n: int, eps: float, kind: str = "fmt21", tail: float = DEFAULT_TAIL) -> BoundValue:
    """Certified delta(eps) of the clone pair with clone counts Bin(n-1, q): kind "fmt21" q = e^-eps0
    (FMT21.clones_numeric), "fmt23" q = 2/(e^eps0+1) (FMT23.stronger_clones)."""
    check_eps0(eps0, statement=STATEMENT)
    check_n(n, statement=STATEMENT)
    require_positive("eps", eps, allow_zero=True)
    if kind not in ("fmt21", "fmt23"):
        raise ParameterError("kind", kind, "'fmt21' or 'fmt23'")
    require_probability("tail", tail)
    pair = _clone_pair(eps0, int(n), probability_pair(kind, eps0), tail)
    lower, upper = pair.delta_bounds(eps)
    return BoundValue(lower, upper, direction="upper_bound")


def clones_delta(*, eps0: float, n: int, eps: float) -> BoundValue:
    """Certified delta(eps) of the FMT21 numerical clone bound (FMT21.clones_numeric)."""
    check_eps0(eps0, statement=STATEMENT)
    return clone_pair_delta(eps0=eps0, n=n, eps=eps, kind="fmt21")



def check_clone_inputs(eps0: float, n: int, delta: float, *, statement: str = STATEMENT) -> None:
    """The inputs of a clone bound, each against `statement`'s supported range (`shuffle_spec.reference.core.limits`):
    eps0 <= 700 (e^eps0 a finite float), n <= 1e12 (work O(sqrt n), memory bounded by the block size),
    delta in [1e-300, 1)."""
    check_eps0(eps0, statement=statement)
    check_n(n, statement=statement)
    check_delta(delta, statement=statement)


def clone_pair_epsilon(eps0: float, n: int, delta: float, kind: str) -> BoundValue:
    """Certified eps(delta) of the clone pair with clone counts Bin(n-1, q), q of `kind` (clone_pair_delta)."""
    pair = _clone_pair(eps0, int(n), probability_pair(kind, eps0), window_tail(delta))
    budget = certified_evaluation_budget(pair.edges.size)
    evaluated: list[float] = []

    def delta_bounds(eps: float) -> tuple[float, float]:
        evaluated.append(eps)
        return pair.delta_bounds(eps)

    # The root encloses the clone pair's own eps; the clone pair dominates every eps0-LDP randomizer's, so it is
    # an upper bound on the shuffled protocol's eps.
    found = solve_epsilon(delta_bounds, eps0=eps0, delta=delta, guess=pair.guess_epsilon(delta), max_evaluations=budget)
    if len(evaluated) >= budget and found.upper - found.lower > EPS_REL_TOL * found.upper:
        # The search stopped on its budget, not on its tolerance: say so beside any other note.
        note = "; ".join(part for part in (found.note, WORK_BUDGET_NOTE.format(work=CERTIFIED_WORK)) if part)
        found = BoundValue(found.lower, found.upper, note, direction=found.direction)
    return found.in_direction("upper_bound")


def clones_numeric(*, eps0: float, n: int, delta: float) -> BoundValue:
    """FMT21.clones_numeric: the smallest eps with delta_clones(eps) <= delta, as a certified interval.

    delta_clones(eps) = sum_c Bin(c; n-1, e^-eps0) D_{e^eps}(P_c || Q_c) (see the module docstring);
    valid for every eps0-LDP local randomizer (FMT21, reduction to the clone pair). Returns eps0 with a
    note when no eps < eps0 is certified.
    Supported range: shuffle_spec.reference.core.limits.RANGES['FMT21.clones_numeric'] (module docstring); refused outside it.
    """
    check_clone_inputs(eps0, n, delta)
    return clone_pair_epsilon(eps0, int(n), delta, "fmt21")


def clones_eps0_for_eps(*, eps: float, n: int, delta: float, eps0_max: float = 30.0) -> float:
    """FMT21.clones_numeric inverted: the largest eps0 (to 1e-9 relative) whose clone bound certifies
    (eps, delta)-DP, i.e. whose certified delta_clones(eps) is at most delta; verified at the returned point."""
    require_positive("eps", eps)
    check_n(n, statement=STATEMENT)
    require_probability("delta", delta)
    RANGES[STATEMENT].check(delta=delta)
    require_positive("eps0_max", eps0_max)
    RANGES[STATEMENT].check(eps0=eps0_max)

    def certified_delta(eps0: float) -> float:
        if eps0 <= eps:
            return 0.0  # delta_clones(eps) = 0 for eps >= eps0
        pair = _clone_pair(eps0, int(n), probability_pair("fmt21", eps0), window_tail(delta))
        return pair.delta_bounds(eps)[1]

    return largest_argument_within(certified_delta, delta, eps, max(eps0_max, eps * 2), name="eps0", rel_tol=1e-9)


def clones_numeric_mp(*, dps: int, eps0: float, n: int, delta: float) -> tuple[Any, Any]:
    """FMT21.clones_numeric in high precision (test vectors): a certified enclosure (lower, upper), mpmath
    numbers, of the exact value at `dps` digits (`shuffle_spec.reference.bounds.clones_high_precision.clone_epsilon_mp`; the float
    answer of `clones_numeric` only seeds Newton's iteration). Supported: 0 < eps0 <= 30, 1 <= n <= 2e5,
    1e-200 <= delta < 1; ValueError ("outside the high-precision range") elsewhere."""
    from .clones_high_precision import clone_epsilon_mp  # lazy: keeps imports fast

    check_clone_inputs(eps0, n, delta)
    return clone_epsilon_mp(dps=dps, eps0=eps0, n=n, delta=delta, kind="fmt21", seed=lambda: clones_numeric(eps0=eps0, n=n, delta=delta).upper)
