"""Hockey-stick divergence, (eps, delta)-closeness and privacy profiles of finite distributions.

Divergences take the multiplier `e_eps = e^eps` rather than eps, so that with exact distributions and
a rational multiplier every quantity is an exact `Fraction`. The privacy profile of a pair is
piecewise linear in `e_eps` with breakpoints at the likelihood ratios, so its inverse (the smallest
e^eps with delta(eps) <= delta) is computed exactly too: no bisection, no tolerance.

Statements: BBGN19 Def of hockey-stick divergence and Thm 5.2; EFMRTT19 (eps, delta)-closeness (Def 1);
EFMRSTT20 Defs II.2 and II.4 (replacement and removal LDP).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Iterable

import mpmath

from .distributions import Distribution, Outcome, Probability
from ..core.errors import ParameterError, require_multiplier, require_positive
from .randomizers import Randomizer
from ..core.rounding import mpf_to_float_up, round_up

__all__ = [
    "hockey_stick_divergence",
    "privacy_profile",
    "is_close",
    "min_e_eps_for_delta",
    "epsilon_for_delta",
    "ldp_ratio",
    "ldp_epsilon",
    "approximate_ldp_epsilon",
    "removal_ldp_ratio",
    "removal_ldp_epsilon",
    "safe_log",
    "delta_for_epsilon",
]


def _check_e_eps(e_eps: object) -> None:
    require_multiplier("e_eps", e_eps)


def hockey_stick_divergence(p: Distribution, q: Distribution, e_eps: Fraction | float) -> Probability:
    """D_{e^eps}(P || Q) = sum_z [P(z) - e^eps Q(z)]_+  (BBGN19 Sec. 5.2)."""
    _check_e_eps(e_eps)
    terms = (p[z] - e_eps * q[z] for z in p)
    return sum((t for t in terms if t > 0), Fraction(0) if p.is_exact and q.is_exact else 0.0)


def privacy_profile(p: Distribution, q: Distribution, e_eps: Fraction | float) -> Probability:
    """delta(eps) of the pair: the larger of the two hockey-stick divergences."""
    return max(hockey_stick_divergence(p, q, e_eps), hockey_stick_divergence(q, p, e_eps))


def is_close(p: Distribution, q: Distribution, e_eps: Fraction | float, delta: Probability) -> bool:
    """Whether P and Q are (eps, delta)-close (EFMRTT19 Sec. 2): both divergences at most delta."""
    if isinstance(delta, bool) or not isinstance(delta, (int, float, Fraction)) or not 0 <= delta <= 1:
        raise ParameterError("delta", delta, "a number in [0, 1]")
    return privacy_profile(p, q, e_eps) <= delta


def _min_multiplier_one_way(p: Distribution, q: Distribution, delta: Probability) -> Probability:
    """The smallest a >= 1 with D_a(P||Q) <= delta; inf if none.

    D_a(P||Q) = P(Q = 0) + sum_{z: P(z) > a Q(z) > 0} (P(z) - a Q(z)) is non-increasing and
    piecewise linear in a, with breakpoints at the ratios r_z = P(z)/Q(z). Walking the ratios from
    the largest down keeps the active set and solves the linear piece exactly.
    """
    exact = p.is_exact and q.is_exact and isinstance(delta, (int, Fraction))
    zero = Fraction(0) if exact else 0.0
    mass_off_support = sum((p[z] for z in p if q[z] == 0), zero)
    if mass_off_support > delta:
        return math.inf
    ratios = sorted(((p[z] / q[z], p[z], q[z]) for z in p if q[z] != 0 and p[z] > q[z]), reverse=True)
    active_p, active_q = mass_off_support, zero
    for ratio, pz, qz in ratios:
        # On the piece a in [next ratio, ratio], the active set is the ratios before this one.
        if active_q > 0:
            a = (active_p - delta) / active_q
            if a >= ratio:
                return max(a, 1)
        active_p += pz
        active_q += qz
    if active_q > 0:
        a = (active_p - delta) / active_q
        return max(a, Fraction(1) if exact else 1.0)
    return Fraction(1) if exact else 1.0


def min_e_eps_for_delta(p: Distribution, q: Distribution, delta: Probability) -> Probability:
    """The smallest e^eps >= 1 with privacy_profile(P, Q, e^eps) <= delta (exact for exact inputs)."""
    if isinstance(delta, bool) or not isinstance(delta, (int, float, Fraction)) or not 0 <= delta <= 1:
        raise ParameterError("delta", delta, "a number in [0, 1]")
    return max(_min_multiplier_one_way(p, q, delta), _min_multiplier_one_way(q, p, delta))


def safe_log(ratio: Probability) -> float:
    """log(ratio) as a float rounded up (the safe side for an epsilon)."""
    if ratio == math.inf:
        return math.inf
    if ratio <= 1:
        return 0.0
    if isinstance(ratio, Fraction):
        # log1p of the exact excess ratio - 1, in mpmath: keeps precision for huge numerators and
        # denominators and for ratios within 1e-16 of 1 (log(num) - log(den) would cancel to ~0 there).
        with mpmath.workdps(40):
            return mpf_to_float_up(mpmath.log1p(mpmath.mpf(ratio.numerator - ratio.denominator) / ratio.denominator))
    return round_up(math.log(ratio), 4)


def epsilon_for_delta(p: Distribution, q: Distribution, delta: Probability) -> float:
    """The smallest eps >= 0 with P, Q (eps, delta)-close, as a float rounded up."""
    return safe_log(min_e_eps_for_delta(p, q, delta))


def _ratio_over_outputs(num: Distribution, den: Distribution, outputs: Iterable[Outcome]) -> Probability:
    worst: Probability = Fraction(1) if num.is_exact and den.is_exact else 1.0
    for y in outputs:
        if num[y] == 0:
            continue
        if den[y] == 0:
            return math.inf
        worst = max(worst, num[y] / den[y])
    return worst


def _column_extremes(randomizer: Randomizer) -> dict[Outcome, tuple[Probability, Probability]]:
    """y -> (max_x P_x(y), min_x P_x(y)): one pass over the matrix, no divisions (k x m comparisons)."""
    extremes: dict[Outcome, tuple[Probability, Probability]] = {}
    outputs = randomizer.outputs  # a property that walks the whole matrix: read it once
    for _, px in randomizer.items():
        for y in outputs:
            p = px[y]
            if y in extremes:
                high, low = extremes[y]
                extremes[y] = (p if p > high else high, p if p < low else low)
            else:
                extremes[y] = (p, p)
    return extremes


def ldp_ratio(randomizer: Randomizer) -> Probability:
    """e^{eps0} of a randomizer's replacement LDP: max over x, x', y of P_x(y) / P_x'(y) (EFMRSTT20 Def II.2).

    Computed as max_y (max_x P_x(y)) / (min_x P_x(y)), the same number (for each y the largest ratio
    of two rows is the largest entry over the smallest), in O(k m) comparisons and m divisions instead
    of O(k^2 m) divisions of exact fractions (a 200 x 200 matrix took minutes)."""
    worst: Probability = Fraction(1) if randomizer.is_exact else 1.0
    for high, low in _column_extremes(randomizer).values():
        if high == 0:
            continue
        if low == 0:
            return math.inf
        ratio = high / low
        if ratio > worst:
            worst = ratio
    return worst


def ldp_epsilon(randomizer: Randomizer) -> float:
    """The pure replacement LDP epsilon of a randomizer, rounded up (inf if supports differ)."""
    return safe_log(ldp_ratio(randomizer))


def approximate_ldp_epsilon(randomizer: Randomizer, delta: Probability) -> float:
    """The smallest eps with every pair of output distributions (eps, delta)-close, rounded up."""
    worst: Probability = 1
    for x, px in randomizer.items():
        for x2, px2 in randomizer.items():
            if x != x2:
                worst = max(worst, min_e_eps_for_delta(px, px2, delta))
    return safe_log(worst)


def removal_ldp_ratio(randomizer: Randomizer, reference: Distribution) -> Probability:
    """e^{eps} of removal LDP w.r.t. the absent-respondent output R_0 = `reference` (EFMRSTT20 Def II.4):
    the max over x and y of max(P_x(y)/R_0(y), R_0(y)/P_x(y)).

    For each y only the largest and the smallest P_x(y) matter, so this takes O(k m) comparisons and
    2m divisions (the same number as the max over all x)."""
    extremes = _column_extremes(randomizer)
    worst: Probability = Fraction(1) if randomizer.is_exact and reference.is_exact else 1.0
    for y in set(randomizer.outputs) | set(reference):
        high, low = extremes.get(y, (0, 0))
        r = reference[y]
        if high > 0:  # P_x(y) / R_0(y) for the largest P_x(y)
            if r == 0:
                return math.inf
            worst = max(worst, high / r)
        if r > 0:  # R_0(y) / P_x(y) for the smallest P_x(y)
            if low == 0:
                return math.inf
            worst = max(worst, r / low)
    return worst


def removal_ldp_epsilon(randomizer: Randomizer, reference: Distribution) -> float:
    """The removal LDP epsilon of a randomizer w.r.t. `reference`, rounded up."""
    return safe_log(removal_ldp_ratio(randomizer, reference))


def delta_for_epsilon(p: Distribution, q: Distribution, eps: float) -> float:
    """delta(eps) of the pair for a float eps (use `privacy_profile` with a rational e^eps for exactness)."""
    require_positive("eps", eps, allow_zero=True)
    return float(privacy_profile(p, q, math.exp(eps)))

