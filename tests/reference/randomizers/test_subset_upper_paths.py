"""Subset selection's upper bound (BBGN19.Lem5.3.exact_subset) through its two evaluations: the four-group FFT and one
group raised (BBGN19.Lem5.3.exact_raised, `reference.randomizers.raised_candidate.raised_candidate_epsilon`), chosen by the
saddlepoint estimates: above the exact shuffled epsilon by full enumeration, above the certified lower bound, and at
the large-eps0 cells at most the four-group evaluation alone (the smaller of two certified upper bounds)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.finite.randomizers import Randomizer
from shuffle_spec.reference.finite.shuffling import exact_shuffled_e_eps
from shuffle_spec.reference.randomizers import subset_selection
from shuffle_spec.reference.randomizers.raised_candidate import raised_candidate_epsilon, raised_groups
from shuffle_spec.reference.randomizers.structured import structured_blanket_epsilon

F = Fraction


@pytest.mark.parametrize("eps0, d, k, n, delta", [(1.1, 4, 2, 2, F(1, 10)), (2.0, 5, 1, 2, F(1, 10)), pytest.param(1.5, 5, 2, 3, F(1, 20), marks=pytest.mark.slow)])
def test_subset_upper_is_above_the_exact_shuffled_epsilon(eps0, d, k, n, delta):
    # The registry function builds the mechanism at e' >= e^eps0 (side "upper"); the exact value is for that
    # mechanism at e', whose central epsilon is at least the one at e^eps0 (module doc: a post-processing).
    mechanism = subset_selection.subset_selection(eps0, d, k)
    exact = math.log(exact_shuffled_e_eps(Randomizer.from_matrix(mechanism.rows()), n, delta))
    upper = subset_selection.subset_epsilon_upper(eps0=eps0, n=n, delta=float(delta), d=d, k=k)
    assert exact <= upper.value <= eps0


def test_raised_candidate_refuses_groups_that_are_not_a_raise_of_the_pair():
    pair = subset_selection.subset_selection(2.0, 10, 3).replace_pairs()[0]
    with pytest.raises(ParameterError, match="groups"):
        raised_candidate_epsilon(pair, pair.groups, n=100, delta=1e-6, eps0=2.0 + 1e-9)


def test_raised_candidate_is_above_the_exact_shuffled_epsilon():
    # Every admissible raise gives an upper bound: each one at d = 4, k = 2, n = 2 against full enumeration.
    mechanism = subset_selection.SubsetSelection(F(3), 4, 2)
    pair = mechanism.replace_pairs()[0]
    exact = math.log(exact_shuffled_e_eps(Randomizer.from_matrix(mechanism.rows()), 2, F(1, 10)))
    candidates = raised_groups(pair.groups)
    assert candidates
    for _, _, groups in candidates:
        assert raised_candidate_epsilon(pair, groups, n=2, delta=0.1, eps0=math.nextafter(math.log(3), 9.0)).value >= exact


@pytest.mark.slow
@pytest.mark.parametrize("eps0, n", [(8.0, 10**5), (4.0, 10**6)])
def test_large_eps0_cells_take_the_smaller_certified_upper_bound(eps0, n):
    # d = 1e6: the (1, 1) group has probability ~ (k/d)^2, the raise costs little and the FFT is 1-4% loose there
    # (benchmarks/RANDOMIZERS_RAISED.md); the registry's bound is at most the four-group evaluation's and at least the
    # certified lower bound.
    d = 10**6
    mechanism = subset_selection.subset_selection(eps0, d, subset_selection.optimal_subset_size(eps0, d))
    four = structured_blanket_epsilon(mechanism.replace_pairs(), n=n, delta=1e-6, eps0=math.nextafter(float(math.log(mechanism.ratio)), 99.0))
    upper = subset_selection.subset_epsilon_upper(eps0=eps0, n=n, delta=1e-6, d=d)
    lower = subset_selection.subset_epsilon_lower(eps0=eps0, n=n, delta=1e-6, d=d)
    assert lower.value <= upper.value <= four.value * (1 + 1e-9)


def _raised_alone(eps0: float, n: int, d: int, delta: float = 1e-6) -> float:
    """The raised evaluation with the smallest estimated root, solved on its own (the evaluation the registry runs
    alone where the raise is estimated within RAISED_CLOSE, or RAISED_NEAR from RAISED_ONLY_N_MIN)."""
    from shuffle_spec.reference.bounds.blanket_exact_randomizer import saddle_blanket_root
    from shuffle_spec.reference.randomizers.common import eps0_rounded_up
    from shuffle_spec.reference.randomizers.structured import aim_above

    mechanism = subset_selection.subset_selection(eps0, d, subset_selection.optimal_subset_size(eps0, d))
    pair = mechanism.replace_pairs()[0]
    top = eps0_rounded_up(mechanism.ratio)
    roots = [(r, g) for _, _, g in raised_groups(pair.groups) if (r := saddle_blanket_root(n, pair.gamma, [g], delta=delta, eps0=top)) is not None]
    root, groups = min(roots, key=lambda item: item[0])
    return raised_candidate_epsilon(pair, groups, n=n, delta=delta, eps0=top, guess=aim_above(root)).upper


def _best_raised_root(eps0: float, n: int, d: int, delta: float) -> float:
    from shuffle_spec.reference.bounds.blanket_exact_randomizer import saddle_blanket_root
    from shuffle_spec.reference.randomizers.common import eps0_rounded_up

    mechanism = subset_selection.subset_selection(eps0, d, subset_selection.optimal_subset_size(eps0, d))
    pair = mechanism.replace_pairs()[0]
    top = eps0_rounded_up(mechanism.ratio)
    return min(r for _, _, g in raised_groups(pair.groups) if (r := saddle_blanket_root(n, pair.gamma, [g], delta=delta, eps0=top)) is not None)


@pytest.mark.slow
def test_a_skipped_four_group_search_gives_the_number_both_evaluations_gave():
    # eps0 = 3, d = 1e3, n = 300, delta = 1e-9: the four-group FFT's certified delta at e* = (raised estimate)
    # (1 + FFT_SLACK) exceeds delta, so the registry stops the four-group search after its first evaluation and runs
    # the raised one alone. The rule before the skip ran both (the four-group end lies above e*, so the raised one ran
    # too) and kept the smaller: here the raised end, the same float as the registry's now.
    from shuffle_spec.reference.randomizers.structured import structured_blanket_delta

    from shuffle_spec.reference.randomizers.common import eps0_rounded_up

    eps0, d, n, delta = 3.0, 1000, 300, 1e-9
    mechanism = subset_selection.subset_selection(eps0, d, subset_selection.optimal_subset_size(eps0, d))
    pair = mechanism.replace_pairs()[0]
    top = eps0_rounded_up(mechanism.ratio)
    mark = _best_raised_root(eps0, n, d, delta) * (1 + subset_selection.FFT_SLACK)
    assert structured_blanket_delta([pair], n=n, eps=mark, delta_hint=delta).upper > delta  # the skip applies here
    four = structured_blanket_epsilon([pair], n=n, delta=delta, eps0=top)
    raised = _raised_alone(eps0, n, d, delta)
    assert four.value > mark  # the previous rule then ran the raised evaluation too
    upper = subset_selection.subset_epsilon_upper(eps0=eps0, n=n, delta=delta, d=d)
    assert upper.value == min(four.value, raised) == raised
    assert "raised" in upper.note


def test_from_a_million_reports_a_raise_within_one_percent_is_evaluated_alone():
    # eps0 = 4, d = 1e6, n = 1e6: the raised estimate is 0.9% above the four-group one (between RAISED_CLOSE and
    # RAISED_NEAR): the registry's number is the raised evaluation's own certified end, with the raised note.
    upper = subset_selection.subset_epsilon_upper(eps0=4.0, n=10**6, delta=1e-6, d=10**6)
    assert upper.value == _raised_alone(4.0, 10**6, 10**6)
    assert "raised" in upper.note
    assert subset_selection.RAISED_CLOSE < subset_selection.RAISED_NEAR and subset_selection.RAISED_ONLY_N_MIN == 10**6


@pytest.mark.slow
@pytest.mark.parametrize("eps0, n, d", [(4.0, 10**6, 1000), (5.0, 10**6, 10**6)])
def test_raised_alone_is_the_number_both_evaluations_gave(eps0, n, d):
    # Where the raised evaluation now runs alone, the four-group FFT evaluation's certified end lies above it (so the
    # smaller of the two, which both paths report, is the raised one: the same float as before the rule).
    mechanism = subset_selection.subset_selection(eps0, d, subset_selection.optimal_subset_size(eps0, d))
    four = structured_blanket_epsilon(mechanism.replace_pairs(), n=n, delta=1e-6, eps0=math.nextafter(float(math.log(mechanism.ratio)), 99.0))
    upper = subset_selection.subset_epsilon_upper(eps0=eps0, n=n, delta=1e-6, d=d)
    assert upper.value == _raised_alone(eps0, n, d) < four.value


def test_batched_raised_sum_is_the_per_size_sum_up_to_float_padding():
    # Up to BATCH_N_MAX the raised candidate's blanket sum takes every size's lattice sum in one batch: two certified
    # upper bounds of the same sum D'_N (computed with different row layouts), so they agree to far below the search
    # tolerance; subset selection at d = 1e6, eps0 = 8, n = 300 (the raised evaluation alone, about 100 blanket sizes),
    # eps = 4.2, where delta is near 1e-6.
    from shuffle_spec.reference.bounds.blanket_exact_randomizer import blanket_sum, count_expectation
    from shuffle_spec.reference.numerics.lattice_sums import U1
    from shuffle_spec.reference.randomizers import raised_candidate

    mechanism = subset_selection.subset_selection(8.0, 10**6, subset_selection.optimal_subset_size(8.0, 10**6))
    pair = mechanism.replace_pairs()[0]
    # The raise of the least likely group (the (1, 1) membership, probability ~ (k / d)^2): the one the registry runs.
    groups = min(raised_groups(pair.groups), key=lambda c: pair.groups.p[c[0]])[2]
    tail, eps = 1e-18, 4.2
    batched = raised_candidate._candidate_delta_upper(pair, groups, n=300, eps=eps, delta_hint=1e-6, tail=tail)

    def d_n(big_n: int) -> tuple[float, float]:
        return 0.0, min(1.0, count_expectation(big_n, groups, eps, tail=tail)[1] / big_n * (1 + 2 * U1))

    single = blanket_sum(300, pair.gamma, d_n, 1e-6).upper
    assert 300 <= raised_candidate.BATCH_N_MAX
    assert 1e-9 < single < 1e-3
    assert abs(batched / single - 1) < 1e-8


def test_the_skip_check_needs_a_mark_inside_the_search_range():
    # The check speaks for the four-group search over (0, eps0) only: a mark at 0, at eps0 or above never skips,
    # whatever the evaluations it is shown (here a certified delta of 1, far above delta).
    mechanism = subset_selection.subset_selection(3.0, 1000, subset_selection.optimal_subset_size(3.0, 1000))
    pair = mechanism.replace_pairs()[0]
    for mark in (0.0, 3.0 + 1e-9, 5.0):
        watch = subset_selection._SkipWatch(pair, n=300, delta=1e-9, mark=mark, eps0=3.0 + 1e-9)
        for eps in (0.5, 1.2, 2.9):
            watch(eps, 1.0)
        assert watch.done
