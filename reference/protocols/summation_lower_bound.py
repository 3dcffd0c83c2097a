"""The lower-bound chain for real summation in the single-message shuffle model (BBGN19 Sec. 4.2:
Lemmas 4.1-4.5, Thm 4.2), on finite randomizers with exact `Fraction`s.

Inputs are the midpoints X_k = {(2i-1)/(2k)}, I_x the width-1/k interval centred at x, and
p_{x,x'} = Pr[R(x) in I_x'] for a randomizer whose outputs are reals in [0, 1].
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import partial
from typing import Hashable, Mapping, cast

from ..finite.distributions import Distribution, Probability
from ..core.errors import ParameterError, require_integer
from ..core.limits import SUMMATION_INTERVALS_K_MAX
from ..core.parameters import check_k
from ..finite.randomizers import Randomizer
from ..core.results import BoundValue
from ..core.rounding import fraction_to_float_up

__all__ = [
    "midpoints",
    "interval_probabilities",
    "posterior_mean_map",
    "iid_summation_mse",
    "lemma_4_3_minimum",
    "lemma_4_4_bound",
    "lemma_4_5_cross_probability_floor",
]


def midpoints(k: int) -> tuple[Fraction, ...]:
    """X_k = {(2i - 1)/(2k) : i = 1..k} (BBGN19.Lem4.3 set-up)."""
    check_k(k, minimum=1, maximum=SUMMATION_INTERVALS_K_MAX, why="k exact midpoints")
    return tuple(Fraction(2 * i - 1, 2 * int(k)) for i in range(1, int(k) + 1))


def _in_interval(y: object, *, index: int, k: int) -> bool:
    return _interval_index(y, k) == index


def _interval_index(y: object, k: int) -> int:
    if isinstance(y, bool) or not isinstance(y, (int, Fraction, float)) or not 0 <= y <= 1:
        raise ParameterError("randomizer output", y, "a real number in [0, 1]")
    return min(int(Fraction(y) * k), k - 1)  # [j/k, (j+1)/k), the last interval closed


def interval_probabilities(randomizer: Randomizer, k: int) -> dict[tuple[Fraction, Fraction], Probability]:
    """p_{x,x'} = Pr[R(x) in I_x'] for x, x' in X_k; the randomizer's inputs must be X_k (BBGN19.Lem4.4)."""
    points = midpoints(k)
    if set(randomizer.inputs) != set(points):
        raise ParameterError("randomizer.inputs", randomizer.inputs, f"the midpoints X_k = {list(points)}")
    table: dict[tuple[Fraction, Fraction], Probability] = {}
    for x in points:
        mu = randomizer(x)
        for j, x2 in enumerate(points):
            table[(x, x2)] = mu.probability_of(partial(_in_interval, index=j, k=int(k)))
    return table


def _check_prior(randomizer: Randomizer, prior: Distribution) -> None:
    if not isinstance(prior, Distribution) or not set(prior.support) <= set(randomizer.inputs):
        raise ParameterError("prior", prior, "a Distribution over the randomizer's inputs")


def posterior_mean_map(randomizer: Randomizer, prior: Distribution) -> dict[Hashable, Probability]:
    """f(y) = E[D | R(D) = y], the post-processing of Lemma 4.1's reduction (BBGN19.Lem4.1); it minimises
    E[(g(R(D)) - D)^2] over all maps g."""
    _check_prior(randomizer, prior)
    weight: dict[Hashable, Probability] = {}
    moment: dict[Hashable, Probability] = {}
    for x, px in prior.items():
        value = cast(Fraction | float, x)  # the inputs are the real data values
        for y, py in randomizer(x).items():
            weight[y] = weight.get(y, 0) + px * py
            moment[y] = moment.get(y, 0) + px * py * value
    return {y: moment[y] / weight[y] for y in weight if weight[y] != 0}


def iid_summation_mse(randomizer: Randomizer, prior: Distribution, n: int, estimate: Mapping[Hashable, object] | None = None) -> Probability:
    """E[(sum_i g(R(x_i)) - sum_i x_i)^2] for x_i ~ prior i.i.d., g = `estimate` (identity by default):
    n E[e^2] + n(n-1) E[e]^2 with e = g(R(D)) - D (BBGN19.Lem4.2, where MSE >= n E[e^2])."""
    require_integer("n", n, minimum=1)
    _check_prior(randomizer, prior)
    first: Probability = Fraction(0)
    second: Probability = Fraction(0)
    for x, px in prior.items():
        for y, py in randomizer(x).items():
            value = y if estimate is None else estimate[y]
            # Data values and estimates are real numbers; Fraction(...) reads them exactly.
            error = Fraction(cast(Fraction | float, value)) - Fraction(cast(Fraction | float, x))
            first += px * py * error
            second += px * py * error * error
    return int(n) * second + int(n) * (int(n) - 1) * first * first


def lemma_4_3_minimum(*, k: int) -> Fraction:
    """min over x in X_k of sum_{x' != x} (|x - x'| - 1/(2k))^2, exactly (BBGN19.Lem4.3): (k-1)(k-2)/(12k)
    for odd k, (k-1)(k^2-2k+3)/(12k^2) for even k."""
    check_k(k, maximum=SUMMATION_INTERVALS_K_MAX, why="an exact O(k^2) minimum")
    points = midpoints(k)
    half = Fraction(1, 2 * int(k))
    return min(sum(((abs(x - x2) - half) ** 2 for x2 in points if x2 != x), Fraction(0)) for x in points)


def lemma_4_4_bound(randomizer: Randomizer, k: int) -> Probability:
    """min{(1/k) sum_x (1 - p_xx)/(4k^2), (1/k) sum_x sum_{x'!=x} p_{x,x'} (|x - x'| - 1/(2k))^2}, a lower
    bound on E[(R(D) - D)^2] for D uniform on X_k (BBGN19.Lem4.4, reconstructed form)."""
    p = interval_probabilities(randomizer, k)
    points = midpoints(k)
    k = int(k)
    half = Fraction(1, 2 * k)
    first = sum((1 - p[(x, x)]) / (4 * k * k) for x in points) / k
    second = sum(p[(x, x2)] * (abs(x - x2) - half) ** 2 for x in points for x2 in points if x2 != x) / k
    return min(first, second)


def lemma_4_5_cross_probability_floor(*, n: int) -> BoundValue:
    """min{1/4, 1/(2(n-1))}: if S o R^n is (eps, delta)-DP with delta <= 1/8 and p_xx >= 1 - e^{-eps}/2,
    then p_{x',x} >= this for every x' != x (BBGN19.Lem4.5, derived instantiation of inequality (1)), for
    n >= 2. A lower bound: the exact rational between the doubles on either side (equal when it is a double),
    `value` the one below."""
    require_integer("n", n, minimum=2)
    floor = min(Fraction(1, 4), Fraction(1, 2 * (int(n) - 1)))
    below = float(floor)
    if Fraction(below) > floor:  # float() rounds to nearest: step down to the double below the rational
        below = math.nextafter(below, -math.inf)
    return BoundValue(below, fraction_to_float_up(floor), direction="lower_bound")
