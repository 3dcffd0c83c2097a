"""Exact output distributions of the shuffle model for small finite randomizers.

The shuffler outputs the multiset of the n reports; a multiset over the randomizer's outputs
y_1, ..., y_m is represented by its count vector (c_1, ..., c_m). The shuffled output depends on the
dataset only through its multiset of inputs, so neighbouring datasets are (common multiset of n-1
inputs, x, x'). The worst case over all of them gives the exact central (eps, delta) of the
shuffled randomizer.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any, Hashable, Iterable, Iterator, Sequence

from .distributions import Distribution, Probability
from .divergences import min_e_eps_for_delta, privacy_profile, safe_log
from ..core.errors import ParameterError, require_integer
from .randomizers import Randomizer

__all__ = [
    "shuffled_distribution",
    "neighbouring_datasets",
    "neighbouring_distributions",
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
    laws = _ReportLaws(randomizer, dataset)
    counts = laws.start()
    for x in dataset:
        counts = _add_report(counts, laws.law(x), len(dataset))
    return laws.distribution(counts, len(dataset))


class _ReportLaws:
    """The law of one report of each input, as (index of the output in the count vector, weight) pairs in the
    randomizer's order, read once rather than once per count vector a report is added to.

    Exact laws (every probability a Fraction) are integer weights over one common denominator D: the counts' weights
    stay integers, D^j times the probabilities after j reports, and become the same Fractions at the end (exact
    arithmetic: the values cannot differ, only Fraction's normalisation at every step is saved). Laws with a float
    keep their probabilities and the counts start at Fraction(1) as they always did: the same float operations in
    the same order, so the same floats."""

    def __init__(self, randomizer: Randomizer, inputs: Iterable[Hashable]):
        self._randomizer = randomizer
        self._position = {y: i for i, y in enumerate(randomizer.outputs)}
        self._laws: dict[Hashable, list[tuple[int, Probability]]] = {}
        for x in inputs:
            if x not in self._laws:
                self._laws[x] = [(self._position[y], py) for y, py in randomizer(x).items()]
        weights = [py for law in self._laws.values() for _, py in law]
        exact = [w for w in weights if isinstance(w, Fraction)]
        self._denominator = math.lcm(*(w.denominator for w in exact)) if len(exact) == len(weights) else None
        if self._denominator is not None:
            for x, law in self._laws.items():
                self._laws[x] = [(index, int(py * self._denominator)) for index, py in law]

    def law(self, x: Hashable) -> list[tuple[int, Probability]]:
        return self._laws[x]

    def start(self) -> dict[tuple[int, ...], Probability]:
        """The count-vector distribution of no report."""
        return {tuple([0] * len(self._position)): 1 if self._denominator is not None else Fraction(1)}

    def distribution(self, counts: dict[tuple[int, ...], Probability], reports: int) -> Distribution:
        """The distribution of `counts`, the weights after `reports` reports."""
        if self._denominator is None:
            return Distribution(counts)
        scale = self._denominator**reports
        return Distribution({vector: Fraction(int(weight), scale) for vector, weight in counts.items()})  # integer weights here


def _add_report(
    counts: dict[tuple[int, ...], Probability], law: list[tuple[int, Probability]], dataset_size: int
) -> dict[tuple[int, ...], Probability]:
    """The count-vector distribution after one more report with law `law` (a new dict: `counts` is left as it is,
    so a shared prefix's distribution can be extended by several reports)."""
    nxt: dict[tuple[int, ...], Probability] = {}
    for vector, p in counts.items():
        for index, py in law:
            moved = list(vector)
            moved[index] += 1
            key = tuple(moved)
            nxt[key] = nxt.get(key, 0) + p * py
    if len(nxt) > MAX_SUPPORT:
        raise ParameterError("len(dataset)", dataset_size, "a size whose shuffled support stays below 2e6 count vectors")
    return nxt


def neighbouring_datasets(inputs: Sequence[Hashable], n: int) -> Iterator[tuple[tuple[Any, ...], tuple[Any, ...]]]:
    """Every pair of neighbouring datasets of size n up to order: (rest + (x,), rest + (x',)), x != x'.

    `rest` runs over the multisets of size n - 1; each unordered pair {x, x'} is listed once, since
    the privacy profile is symmetric in the pair.
    """
    require_integer("n", n, minimum=1)
    for rest in itertools.combinations_with_replacement(inputs, int(n) - 1):
        for x, x2 in itertools.combinations(inputs, 2):
            yield rest + (x,), rest + (x2,)


def neighbouring_distributions(randomizer: Randomizer, n: int) -> Iterator[tuple[Distribution, Distribution]]:
    """The shuffled distributions (P, Q) of every pair `neighbouring_datasets(randomizer.inputs, n)` lists, in its
    order: the same distributions as `shuffled_distribution` of each dataset (the same operations in the same order,
    so the same floats for a float randomizer), with the distribution of each common prefix of the datasets computed
    once (the datasets come in lexicographic order, so consecutive ones share most of their prefix)."""
    laws = _ReportLaws(randomizer, randomizer.inputs)
    size = int(n)
    # prefixes[j] is the count-vector distribution of the first j inputs of `rest`, the last dataset's common part.
    rest: tuple[Hashable, ...] = ()
    prefixes = [laws.start()]
    for d, d2 in neighbouring_datasets(randomizer.inputs, n):
        new_rest = d[:-1]
        shared = 0
        while shared < len(rest) and shared < len(prefixes) - 1 and rest[shared] == new_rest[shared]:
            shared += 1
        del prefixes[shared + 1 :]
        for x in new_rest[shared:]:
            prefixes.append(_add_report(prefixes[-1], laws.law(x), size))
        rest = new_rest
        yield (
            laws.distribution(_add_report(prefixes[-1], laws.law(d[-1]), size), size),
            laws.distribution(_add_report(prefixes[-1], laws.law(d2[-1]), size), size),
        )


def exact_shuffled_delta(randomizer: Randomizer, n: int, e_eps: Fraction | float) -> Probability:
    """The exact delta(eps) of the shuffled randomizer over all neighbouring datasets of size n."""
    worst: Probability = Fraction(0)
    for p, q in neighbouring_distributions(randomizer, n):
        worst = max(worst, privacy_profile(p, q, e_eps))
    return worst


def exact_shuffled_e_eps(randomizer: Randomizer, n: int, delta: Probability) -> Probability:
    """The exact smallest e^eps for which the shuffled randomizer on n users is (eps, delta)-DP."""
    worst: Probability = Fraction(1)
    for p, q in neighbouring_distributions(randomizer, n):
        worst = max(worst, min_e_eps_for_delta(p, q, delta))
    return worst


def exact_shuffled_epsilon(randomizer: Randomizer, n: int, delta: Probability) -> float:
    """The exact central epsilon of the shuffled randomizer at `delta`, as a float rounded up."""
    return safe_log(exact_shuffled_e_eps(randomizer, n, delta))
