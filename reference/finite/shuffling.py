"""Exact output distributions of the shuffle model for small finite randomizers.

The shuffler outputs the multiset of the n reports; a multiset over the randomizer's outputs
y_1, ..., y_m is represented by its count vector (c_1, ..., c_m). The shuffled output depends on the
dataset only through its multiset of inputs, so neighbouring datasets are (common multiset of n-1
inputs, x, x'). The worst case over all of them gives the exact central (eps, delta) of the
shuffled randomizer.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any, Hashable, Iterator, Sequence

from .distributions import Distribution, Probability
from .divergences import min_e_eps_for_delta, privacy_profile, safe_log
from ..core.errors import ParameterError, require_integer
from .randomizers import Randomizer

__all__ = [
    "shuffled_distribution",
    "neighbouring_datasets",
    "exact_shuffled_delta",
    "exact_shuffled_e_eps",
    "exact_shuffled_epsilon",
]

# The number of count vectors is C(n + m - 1, m - 1); beyond this the exact computation is refused.
MAX_SUPPORT = 2_000_000


def shuffled_distribution(randomizer: Randomizer, dataset: Sequence[Hashable]) -> Distribution:
    """The exact distribution of the shuffled reports of `dataset`, as output-count vectors."""
    if len(dataset) == 0:
        raise ParameterError("dataset", dataset, "at least one input")
    outputs = randomizer.outputs
    position = {y: i for i, y in enumerate(outputs)}
    counts: dict[tuple[int, ...], Probability] = {tuple([0] * len(outputs)): Fraction(1)}
    for x in dataset:
        step = randomizer(x)
        nxt: dict[tuple[int, ...], Probability] = {}
        for vector, p in counts.items():
            for y, py in step.items():
                moved = list(vector)
                moved[position[y]] += 1
                key = tuple(moved)
                nxt[key] = nxt.get(key, 0) + p * py
        counts = nxt
        if len(counts) > MAX_SUPPORT:
            raise ParameterError("len(dataset)", len(dataset), "a size whose shuffled support stays below 2e6 count vectors")
    return Distribution(counts)


def neighbouring_datasets(inputs: Sequence[Hashable], n: int) -> Iterator[tuple[tuple[Any, ...], tuple[Any, ...]]]:
    """Every pair of neighbouring datasets of size n up to order: (rest + (x,), rest + (x',)), x != x'.

    `rest` runs over the multisets of size n - 1; each unordered pair {x, x'} is listed once, since
    the privacy profile is symmetric in the pair.
    """
    require_integer("n", n, minimum=1)
    for rest in itertools.combinations_with_replacement(inputs, int(n) - 1):
        for x, x2 in itertools.combinations(inputs, 2):
            yield rest + (x,), rest + (x2,)


def exact_shuffled_delta(randomizer: Randomizer, n: int, e_eps: Fraction | float) -> Probability:
    """The exact delta(eps) of the shuffled randomizer over all neighbouring datasets of size n."""
    worst: Probability = Fraction(0)
    for d, d2 in neighbouring_datasets(randomizer.inputs, n):
        worst = max(worst, privacy_profile(shuffled_distribution(randomizer, d), shuffled_distribution(randomizer, d2), e_eps))
    return worst


def exact_shuffled_e_eps(randomizer: Randomizer, n: int, delta: Probability) -> Probability:
    """The exact smallest e^eps for which the shuffled randomizer on n users is (eps, delta)-DP."""
    worst: Probability = Fraction(1)
    for d, d2 in neighbouring_datasets(randomizer.inputs, n):
        worst = max(worst, min_e_eps_for_delta(shuffled_distribution(randomizer, d), shuffled_distribution(randomizer, d2), delta))
    return worst


def exact_shuffled_epsilon(randomizer: Randomizer, n: int, delta: Probability) -> float:
    """The exact central epsilon of the shuffled randomizer at `delta`, as a float rounded up."""
    return safe_log(exact_shuffled_e_eps(randomizer, n, delta))
