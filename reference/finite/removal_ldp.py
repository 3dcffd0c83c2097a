"""Replacement vs removal differential privacy on exact finite objects (EFMRSTT20 Defs II.1-II.4).

Replacement LDP compares the output distributions of two inputs; removal LDP compares each input's
output distribution with one reference distribution R_0 (the output when the respondent is absent).
`shuffle_spec.reference.finite.divergences` already computes the ratios for a given R_0; this module adds the *optimal*
R_0 of a finite randomizer, exactly, and the generalized removal DP of Def II.3 for finite mechanisms.

Optimal R_0 (proof). For pure DP the event-wise condition of Def II.4 is equivalent to the pointwise
one, e^{-eps} r(y) <= P_x(y) <= e^{eps} r(y) for every input x and output y. With a_y = min_x P_x(y)
and b_y = max_x P_x(y) this says r(y) in [b_y e^{-eps}, a_y e^{eps}] for every y, and r must sum to 1.
Boxes with a sum constraint are feasible iff every box is non-empty and sum of lower ends <= 1 <=
sum of upper ends, i.e. iff E := e^{eps} satisfies
    E^2 >= b_y / a_y (every y),   E >= sum_y b_y,   E >= 1 / sum_y a_y.
So the optimal removal epsilon is log(E*) with E*^2 = max(max_y b_y/a_y, (sum b)^2, (1/sum a)^2), an
exact Fraction for an exact randomizer (infinite when some output has a_y = 0 < b_y); a feasible r
for any E >= E* is the convex combination of the lower and upper ends that sums to 1.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Callable, Hashable, Sequence

import mpmath

from .distributions import Distribution, Probability
from .divergences import is_close, ldp_ratio, removal_ldp_ratio, safe_log
from ..core.errors import ParameterError, require_multiplier, require_positive
from .randomizers import Randomizer
from ..core.rounding import mpf_to_float_up

__all__ = [
    "is_replacement_ldp",
    "is_removal_ldp",
    "optimal_removal_e_eps_squared",
    "optimal_removal_epsilon",
    "optimal_removal_reference",
    "is_generalized_removal_dp",
    "standard_removal_mechanism",
    "binary_rr_removal_epsilon",
]


def _check_multiplier(e_eps: object) -> None:
    require_multiplier("e_eps", e_eps, finite=True)


def is_replacement_ldp(randomizer: Randomizer, e_eps: Fraction | float) -> bool:
    """Whether `randomizer` is a replacement eps-DP local randomizer, e^eps = `e_eps` (EFMRSTT20.DefII.2)."""
    _check_multiplier(e_eps)
    return ldp_ratio(randomizer) <= e_eps


def is_removal_ldp(randomizer: Randomizer, reference: Distribution, e_eps: Fraction | float) -> bool:
    """Whether `randomizer` is removal eps-DP w.r.t. the absent-respondent output `reference` (EFMRSTT20.DefII.4)."""
    _check_multiplier(e_eps)
    if not isinstance(reference, Distribution):
        raise ParameterError("reference", reference, "a Distribution (the output R_0 of an absent respondent)")
    return removal_ldp_ratio(randomizer, reference) <= e_eps


def _column_extremes(randomizer: Randomizer) -> tuple[dict[Hashable, Probability], dict[Hashable, Probability]]:
    lows: dict[Hashable, Probability] = {}
    highs: dict[Hashable, Probability] = {}
    for y in randomizer.outputs:
        column = [dist[y] for _, dist in randomizer.items()]
        lows[y], highs[y] = min(column), max(column)
    return lows, highs


def optimal_removal_e_eps_squared(randomizer: Randomizer) -> Probability:
    """(e^{eps*})^2 for the smallest removal epsilon eps* over all reference distributions R_0
    (EFMRSTT20.DefII.4; module docstring has the proof). Exact for an exact randomizer; inf when some
    output is impossible for one input and possible for another."""
    if not isinstance(randomizer, Randomizer):
        raise ParameterError("randomizer", randomizer, "a Randomizer")
    lows, highs = _column_extremes(randomizer)
    if any(lows[y] == 0 for y in lows):
        return math.inf
    pointwise = max(highs[y] / lows[y] for y in lows)
    sum_high: Probability = sum(highs.values(), Fraction(0) if randomizer.is_exact else 0.0)
    sum_low: Probability = sum(lows.values(), Fraction(0) if randomizer.is_exact else 0.0)
    return max(pointwise, sum_high * sum_high, 1 / (sum_low * sum_low))


def optimal_removal_epsilon(randomizer: Randomizer) -> float:
    """The smallest removal LDP epsilon of `randomizer` over all R_0, rounded up (EFMRSTT20.DefII.4).

    half of log((e^{eps*})^2): `safe_log` rounds the log up; halving a float is exact."""
    return safe_log(optimal_removal_e_eps_squared(randomizer)) / 2


def optimal_removal_reference(randomizer: Randomizer, e_eps: Fraction | float) -> Distribution:
    """A reference distribution R_0 for which `randomizer` is removal log(e_eps)-DP (EFMRSTT20.DefII.4).

    Feasible iff e_eps^2 >= `optimal_removal_e_eps_squared` (module docstring); then r(y) is the
    convex combination of b_y / e_eps and a_y e_eps that sums to 1. Exact for exact inputs."""
    _check_multiplier(e_eps)
    needed = optimal_removal_e_eps_squared(randomizer)
    if not e_eps * e_eps >= needed:
        raise ParameterError("e_eps", e_eps, f"e_eps^2 >= {needed} (no R_0 makes the randomizer removal log(e_eps)-DP below that)")
    lows, highs = _column_extremes(randomizer)
    lower = {y: highs[y] / e_eps for y in lows}
    upper = {y: lows[y] * e_eps for y in lows}
    zero = Fraction(0) if randomizer.is_exact and isinstance(e_eps, (int, Fraction)) else 0.0
    sum_lower, sum_upper = sum(lower.values(), zero), sum(upper.values(), zero)
    theta = (1 - sum_lower) / (sum_upper - sum_lower) if sum_upper != sum_lower else zero
    return Distribution({y: lower[y] + theta * (upper[y] - lower[y]) for y in lows})


Mechanism = Callable[[tuple[Hashable, ...]], Distribution]


def standard_removal_mechanism(mechanism: Mechanism) -> Callable[[tuple[Hashable, ...], frozenset[int]], Distribution]:
    """M'(D, I) := M((x_i)_{i in I}): the standard removal mechanism that Def II.3 generalizes
    (EFMRSTT20.DefII.3). `mechanism` maps a tuple of records (possibly empty) to a Distribution."""
    if not callable(mechanism):
        raise ParameterError("mechanism", mechanism, "a callable from a tuple of records to a Distribution")

    def restricted(dataset: tuple[Hashable, ...], indices: frozenset[int]) -> Distribution:
        return mechanism(tuple(dataset[i] for i in sorted(indices)))

    return restricted


def is_generalized_removal_dp(
    extended: Callable[[tuple[Hashable, ...], frozenset[int]], Distribution],
    mechanism: Mechanism,
    datasets: Sequence[tuple[Hashable, ...]],
    e_eps: Fraction | float,
    delta: Probability,
) -> bool:
    """Conditions 1 and 3 of generalized removal (eps, delta)-DP (EFMRSTT20.DefII.3) on `datasets`.

    1: M'(D, [n]) equals M(D) in distribution; 3: M'(D, I) and M'(D, I') are (eps, delta)-close
    whenever I and I' differ in one index. Condition 2 (M'(D, I) depends only on D's records in I)
    is a property of how `extended` is built, e.g. by `standard_removal_mechanism`.
    """
    _check_multiplier(e_eps)
    if isinstance(delta, bool) or not isinstance(delta, (int, float, Fraction)) or not 0 <= delta <= 1:
        raise ParameterError("delta", delta, "a number in [0, 1]")
    if len(datasets) == 0:
        raise ParameterError("datasets", datasets, "at least one dataset")
    for dataset in datasets:
        n = len(dataset)
        everyone = frozenset(range(n))
        if extended(tuple(dataset), everyone) != mechanism(tuple(dataset)):
            return False
        for size in range(n):
            for subset in itertools.combinations(range(n), size):
                smaller = frozenset(subset)
                base = extended(tuple(dataset), smaller)
                for i in everyone - smaller:
                    if not is_close(base, extended(tuple(dataset), smaller | {i}), e_eps, delta):
                        return False
    return True


def binary_rr_removal_epsilon(*, eps0: float) -> float:
    """The optimal removal epsilon of binary randomized response with replacement epsilon eps0:
    ln((1 + e^eps0)/2) (EFMRSTT20.DefII.4.binary_rr).

    With a = 1/(1+e), b = e/(1+e) in both columns, E*^2 = max(e, (2e/(1+e))^2, ((1+e)/2)^2) =
    ((1+e)/2)^2 (AM-GM), attained by the uniform R_0. The ratio eps0 / ln((1+e^eps0)/2) tends to 2 as
    eps0 -> 0 (the factor 2 of Def II.4 is tight in the limit) and to 1 as eps0 -> infinity.
    Evaluated in mpmath at 60 digits (the subtraction of ln 2 cancels for small eps0 in doubles) and
    rounded up to the next double.
    """
    require_positive("eps0", eps0)
    with mpmath.workdps(60):
        return mpf_to_float_up(mpmath.log((1 + mpmath.exp(mpmath.mpf(eps0))) / 2))
