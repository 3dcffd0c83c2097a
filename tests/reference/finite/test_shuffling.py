"""Exact shuffled output distributions: multinomial structure and the central privacy they give."""

import itertools
import math
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from shuffle_spec.reference.finite.distributions import Distribution
from shuffle_spec.reference.finite.divergences import ldp_ratio, min_e_eps_for_delta
from shuffle_spec.reference.finite.randomizers import Randomizer, binary_randomized_response
from shuffle_spec.reference.finite.shuffling import (
    exact_shuffled_e_eps,
    neighbouring_datasets,
    neighbouring_distributions,
    shuffled_distribution,
)
from support.strategies import ldp_randomizers


@given(st.fractions(Fraction(11, 10), 10, max_denominator=10), st.lists(st.integers(0, 1), min_size=1, max_size=6))
def test_shuffled_binary_rr_count_is_a_sum_of_bernoullis(e, dataset):
    rr = binary_randomized_response(e)
    shuffled = shuffled_distribution(rr, dataset)
    p = e / (e + 1)
    ones = sum(dataset)
    zeros = len(dataset) - ones
    # Count of reported 1s: Bin(ones, p) + Bin(zeros, 1 - p), enumerated directly.
    expected: dict[int, Fraction] = {}
    for bits in itertools.product((0, 1), repeat=len(dataset)):
        prob = Fraction(1)
        for x, y in zip(dataset, bits, strict=True):
            prob *= p if x == y else 1 - p
        expected[sum(bits)] = expected.get(sum(bits), Fraction(0)) + prob
    outputs = rr.outputs
    one_index = outputs.index(1)
    assert shuffled.map(lambda c: c[one_index]) == Distribution(expected)
    del ones, zeros


@given(ldp_randomizers(max_inputs=3, max_outputs=3), st.data())
def test_shuffled_distribution_is_the_direct_sum_over_every_report_tuple(pair, data):
    """The count-vector law of a dataset's shuffled reports, for any exact randomizer (its rows with different
    denominators), equals the sum over every tuple of reports of the product of their probabilities, enumerated
    here directly in Fractions: an independent check of the integer-weight arithmetic of `shuffled_distribution`."""
    r, _ = pair
    dataset = data.draw(st.lists(st.sampled_from(list(r.inputs)), min_size=1, max_size=4))
    outputs = list(r.outputs)
    expected: dict[tuple[int, ...], Fraction] = {}
    for reports in itertools.product(outputs, repeat=len(dataset)):
        prob = Fraction(1)
        for x, y in zip(dataset, reports, strict=True):
            prob *= r(x).get(y, Fraction(0))
        if prob:
            counts = tuple(reports.count(y) for y in outputs)
            expected[counts] = expected.get(counts, Fraction(0)) + prob
    shuffled = shuffled_distribution(r, dataset)
    assert dict(shuffled.items()) == expected
    assert all(isinstance(p, Fraction) for p in shuffled.values())


@given(ldp_randomizers(max_inputs=3, max_outputs=3), st.integers(1, 3), st.fractions(0, Fraction(1, 2), max_denominator=20))
def test_shuffling_never_costs_more_than_the_local_epsilon(pair, n, delta):
    r, e = pair
    assert exact_shuffled_e_eps(r, n, delta) <= ldp_ratio(r) <= e


def test_neighbouring_datasets_cover_every_multiset_pair_once():
    pairs = list(neighbouring_datasets([0, 1, 2], 3))
    # multisets of size 2 over 3 symbols (6) times unordered distinct pairs (3)
    assert len(pairs) == 6 * 3
    assert all(d[:-1] == d2[:-1] and d[-1] != d2[-1] for d, d2 in pairs)


@given(ldp_randomizers(max_inputs=3, max_outputs=3), st.integers(1, 4), st.booleans())
def test_neighbouring_distributions_are_the_shuffled_distributions_of_the_listed_datasets(pair, n, as_floats):
    """The pairs' distributions, built with each common prefix computed once (and exact laws in integer weights),
    are exactly those built from scratch for each dataset `neighbouring_datasets` lists, in its order: the same
    Fractions, and for a float randomizer the same floats."""
    r, _ = pair
    if as_floats:
        r = Randomizer({x: Distribution({y: float(p) for y, p in r(x).items()}) for x in r.inputs})
    listed = [(shuffled_distribution(r, d), shuffled_distribution(r, d2)) for d, d2 in neighbouring_datasets(r.inputs, n)]
    built = list(neighbouring_distributions(r, n))
    assert [(list(p.items()), list(q.items())) for p, q in built] == [(list(p.items()), list(q.items())) for p, q in listed]
    assert all(p.is_exact != as_floats and q.is_exact != as_floats for p, q in built)


@given(st.fractions(Fraction(11, 10), 6, max_denominator=10), st.integers(2, 5), st.fractions(Fraction(1, 1000), Fraction(1, 3), max_denominator=1000))
def test_exact_shuffled_epsilon_is_the_max_over_neighbours(e, n, delta):
    rr = binary_randomized_response(e)
    worst = max(
        min_e_eps_for_delta(shuffled_distribution(rr, list(rest) + [x]), shuffled_distribution(rr, list(rest) + [1 - x]), delta)
        for rest in itertools.product((0, 1), repeat=n - 1)
        for x in (0, 1)
    )
    assert exact_shuffled_e_eps(rr, n, delta) == worst
    assert math.isfinite(worst)
