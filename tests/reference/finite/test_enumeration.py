"""`shuffle_spec.reference.finite.enumeration`: the exact central e^eps of a small shuffled randomizer over every
pair of neighbouring datasets, and its work estimate, against brute force on tiny cases.

The brute force shares nothing with the module but the `Randomizer` type: it lists every ordered dataset in
inputs^n and every dataset that differs from it in one position (both orders), builds the shuffled output
distribution by summing over every sequence of n outputs, and checks the defining property of the answer
(BBGN19 Thm 5.2): the hockey-stick divergence at e^eps is at most delta for every pair, and above delta just
below it for some pair.
"""

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from shuffle_spec.reference.finite.enumeration import (
    enumeration_work,
    exact_shuffled_e_eps_enumerated,
    neighbouring_pair_count,
)
from shuffle_spec.reference.finite.randomizers import Randomizer, k_randomized_response
from shuffle_spec.reference.finite.shuffling import exact_shuffled_e_eps, neighbouring_datasets

TINY = [
    ("binary RR e^eps0 = 3", k_randomized_response(2, Fraction(3)), [1, 2, 3]),
    ("3-RR e^eps0 = 2", k_randomized_response(3, Fraction(2)), [1, 2]),
    ("2 inputs, 3 outputs", Randomizer.from_matrix([["1/2", "1/3", "1/6"], ["1/5", "2/5", "2/5"]]), [1, 2, 3]),
    ("3 inputs, 2 outputs", Randomizer.from_matrix([["3/4", "1/4"], ["1/2", "1/2"], ["1/8", "7/8"]]), [1, 2]),
    ("a zero entry", Randomizer.from_matrix([["1", "0"], ["1/3", "2/3"]]), [1, 2]),
]
DELTAS = [Fraction(0), Fraction(1, 100), Fraction(1, 7), Fraction(1, 2)]


def _brute_shuffled(randomizer: Randomizer, dataset: tuple) -> dict[tuple, Fraction]:
    """The distribution of the sorted reports, summed over every sequence of outputs."""
    out: Counter = Counter()
    for ys in itertools.product(randomizer.outputs, repeat=len(dataset)):
        p = Fraction(1)
        for x, y in zip(dataset, ys, strict=True):
            p *= randomizer(x)[y]
        out[tuple(sorted(ys, key=randomizer.outputs.index))] += p
    return dict(out)


def _hockey_stick(p: dict, q: dict, e_eps: Fraction) -> Fraction:
    return sum((max(p.get(y, Fraction(0)) - e_eps * q.get(y, Fraction(0)), Fraction(0)) for y in set(p) | set(q)), Fraction(0))


def _brute_pairs(randomizer: Randomizer, n: int):
    for dataset in itertools.product(randomizer.inputs, repeat=n):
        for i, other in itertools.product(range(n), randomizer.inputs):
            if other != dataset[i]:
                yield dataset, dataset[:i] + (other,) + dataset[i + 1:]


@pytest.mark.parametrize("name, randomizer, sizes", TINY, ids=[case[0] for case in TINY])
def test_the_enumerated_e_eps_is_the_smallest_that_holds_for_every_ordered_neighbouring_pair(name, randomizer, sizes):
    for n in sizes:
        pairs = [(_brute_shuffled(randomizer, d), _brute_shuffled(randomizer, d2)) for d, d2 in _brute_pairs(randomizer, n)]
        for delta in DELTAS:
            e_eps = exact_shuffled_e_eps_enumerated(randomizer, n, delta)
            if e_eps == math.inf:  # no finite e^eps: an output one dataset can give and its neighbour cannot, delta too small
                assert any(_hockey_stick(p, q, Fraction(10**12)) > delta for p, q in pairs), (n, delta)
                continue
            assert isinstance(e_eps, Fraction) and e_eps >= 1
            assert all(_hockey_stick(p, q, e_eps) <= delta for p, q in pairs), (n, delta)
            if e_eps > 1:  # the smallest: a little below it, some pair is not (eps, delta)-close
                below = e_eps * (1 - Fraction(1, 10**12))
                assert any(_hockey_stick(p, q, below) > delta for p, q in pairs), (n, delta)


@pytest.mark.parametrize("name, randomizer, sizes", TINY, ids=[case[0] for case in TINY])
def test_it_is_the_shuffling_modules_exact_value(name, randomizer, sizes):
    for n in sizes:
        for delta in DELTAS:
            assert exact_shuffled_e_eps_enumerated(randomizer, n, delta) == exact_shuffled_e_eps(randomizer, n, delta)


def test_a_float_delta_is_read_exactly():
    rr = k_randomized_response(2, Fraction(3))
    assert exact_shuffled_e_eps_enumerated(rr, 3, 0.01) == exact_shuffled_e_eps_enumerated(rr, 3, Fraction(0.01))
    assert exact_shuffled_e_eps_enumerated(rr, 3, 0.01) != exact_shuffled_e_eps_enumerated(rr, 3, Fraction(1, 100))


@pytest.mark.parametrize("inputs, n", [(1, 1), (2, 1), (2, 4), (3, 3), (4, 2), (5, 3)])
def test_the_pair_count_is_the_number_of_pairs_listed(inputs, n):
    assert neighbouring_pair_count(inputs, n) == len(list(neighbouring_datasets(list(range(inputs)), n)))


def test_progress_is_called_once_per_pair_up_to_the_total():
    calls: list[tuple[int, int]] = []
    exact_shuffled_e_eps_enumerated(k_randomized_response(3, Fraction(2)), 3, Fraction(1, 10), progress=lambda done, total: calls.append((done, total)))
    total = neighbouring_pair_count(3, 3)
    assert calls == [(i, total) for i in range(1, total + 1)]


@pytest.mark.parametrize("name, randomizer, sizes", TINY, ids=[case[0] for case in TINY])
def test_the_work_counts_pairs_support_reports_and_outputs(name, randomizer, sizes):
    m = len(randomizer.outputs)
    for n in sizes:
        supports = math.comb(n + m - 1, m - 1)
        operations = neighbouring_pair_count(len(randomizer.inputs), n) * supports * n * m
        work = enumeration_work(randomizer, n, limit=10**9)
        assert work.operations == operations
        lcm_bits = max(math.lcm(*(p.denominator for p in d.values())).bit_length() for _, d in randomizer.items())
        assert work.bits == n * lcm_bits
        words = -(-work.bits // 64)
        assert work.units == operations * (3200 + 400 * words + 8 * words * words) // 3200 >= operations


def test_over_the_limit_the_size_of_the_numbers_is_not_counted():
    rr = k_randomized_response(3, Fraction(2))
    work = enumeration_work(rr, 50, limit=10)
    assert work.bits == 0 and work.units == work.operations > 10
    huge = enumeration_work(rr, 10**12, limit=10)  # estimated in logarithms: no million-bit binomials
    assert huge.units > 10**30
