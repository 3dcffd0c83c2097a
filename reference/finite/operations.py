"""Post-processing, mixtures, products and composition of exact distributions and randomizers.

These are the operations under which DP statements are closed: post-processing (any DP statement),
mixtures (EFMRTT19 Lemma 3, quasiconvexity), products and sequential (adaptive) composition
(EFMRTT19 Thm 2; EFMRSTT20 Cor A.2).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Hashable, Sequence

from .distributions import Distribution, Probability, as_probability
from ..core.errors import ParameterError
from .randomizers import Randomizer

__all__ = [
    "mixture",
    "product",
    "post_process",
    "compose_randomizers",
    "compose_adaptively",
]


def mixture(components: Sequence[tuple[object, Distribution]]) -> Distribution:
    """sum_i w_i P_i for weights w_i >= 0 summing to 1 (sample P_i with probability w_i)."""
    if not components:
        raise ParameterError("components", components, "at least one (weight, distribution) pair")
    out: dict[Hashable, Probability] = {}
    for index, (raw_weight, dist) in enumerate(components):
        weight = as_probability(raw_weight, f"weight {index}")
        if weight < 0:
            raise ParameterError(f"weight {index}", raw_weight, "a non-negative number")
        for outcome, p in dist.items():
            out[outcome] = out.get(outcome, 0) + weight * p
    return Distribution(out)


def product(*dists: Distribution) -> Distribution:
    """The joint distribution of independent draws, outcomes as tuples."""
    joint: dict[tuple[Any, ...], Probability] = {(): Fraction(1)}
    for dist in dists:
        joint = {prefix + (o,): pp * p for prefix, pp in joint.items() for o, p in dist.items()}
    return Distribution(joint)


def post_process(dist: Distribution, kernel: Callable[[Hashable], Distribution]) -> Distribution:
    """The output of a randomized map `kernel` applied to a draw from `dist`."""
    return mixture([(p, kernel(o)) for o, p in dist.items()])


def compose_randomizers(*randomizers: Randomizer) -> Randomizer:
    """Non-adaptive composition: x -> (R_1(x), ..., R_k(x)) with independent coins."""
    if not randomizers:
        raise ParameterError("randomizers", randomizers, "at least one randomizer")
    inputs = randomizers[0].inputs
    for index, r in enumerate(randomizers[1:], start=1):
        if set(r.inputs) != set(inputs):
            raise ParameterError(f"randomizers[{index}].inputs", r.inputs, f"the same inputs as randomizers[0], {inputs}")
    return Randomizer({x: product(*(r(x) for r in randomizers)) for x in inputs})


def compose_adaptively(first: Randomizer, choose_second: Callable[[Hashable], Randomizer]) -> Randomizer:
    """Adaptive composition: x -> (y1, y2) with y1 ~ R_1(x) and y2 ~ R_2^{(y1)}(x).

    The second randomizer is chosen from the first one's output, as in EFMRTT19 Thm 2 ("Moreover A_i
    may be chosen adaptively").
    """
    table = {}
    for x in first.inputs:
        joint: dict[tuple[Any, ...], Probability] = {}
        for y1, p1 in first(x).items():
            for y2, p2 in choose_second(y1)(x).items():
                joint[(y1, y2)] = joint.get((y1, y2), 0) + p1 * p2
        table[x] = Distribution(joint)
    return Randomizer(table)
