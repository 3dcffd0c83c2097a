"""The envelope's evaluations of BBGN19.Lem5.3.exact_randomizer at many eps: the batched lattice sums over the
blanket sizes (`count_expectations`) and the pairs skipped where a value at a smaller eps already settles them
(`PairProfiles`). Checked against brute-force enumeration of E[(L_1 + ... + L_N)_+] (the proof module's
`brute_force_expectation`), against the per-N evaluation and the all-pairs maximum, and against the exact
central delta of the full shuffled distribution (Fractions)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from shuffle_spec.proofs_checks.derived.blanket_exact_randomizer import brute_force_expectation
from shuffle_spec.reference.bounds.blanket_exact_randomizer import (
    PairProfiles,
    count_expectation,
    count_expectations,
    exact_blanket_randomizer_delta,
    finite_randomizer,
    group_outputs,
)
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.finite.randomizers import Randomizer
from shuffle_spec.reference.finite.shuffling import exact_shuffled_delta
from shuffle_spec.reference.randomizers.structured import structured_blanket_delta
from shuffle_spec.reference.randomizers.subset_selection import subset_selection

CIRCULANT = [[Fraction(5, 10), Fraction(3, 10), Fraction(2, 10)], [Fraction(2, 10), Fraction(5, 10), Fraction(3, 10)], [Fraction(3, 10), Fraction(2, 10), Fraction(5, 10)]]
# Two pairs far apart: rows 0 and 1 differ a lot, row 2 is close to row 0 (its pairs with row 0 are dominated).
SKEWED = [[Fraction(6, 10), Fraction(3, 10), Fraction(1, 10)], [Fraction(1, 10), Fraction(3, 10), Fraction(6, 10)], [Fraction(55, 100), Fraction(3, 10), Fraction(15, 100)]]


@pytest.mark.parametrize("x2,eps", [(1, 0.02), (1, 0.3), (2, 0.02), (2, 0.3)])
def test_batched_count_expectations_contain_the_enumerated_value(x2, eps):
    """(0, 1): one positive coefficient; (0, 2) at eps = 0.02: two (the complement path). Every N of one batch
    brackets the brute-force sum over the multinomial counts."""
    groups = group_outputs(CIRCULANT[0], CIRCULANT[x2], [Fraction(1, 3)] * 3)
    big_ns = [0, 1, 4, 9, 17, 30]
    lo, hi = count_expectations(big_ns, groups, eps)
    for big_n, low, high in zip(big_ns, lo, hi, strict=True):
        exact = brute_force_expectation(big_n, groups, eps) if big_n > 0 else 0.0
        assert low * (1 - 1e-9) - 1e-300 <= exact <= high * (1 + 1e-9) + 1e-300, (big_n, low, exact, high)


def test_batched_count_expectations_agree_with_one_n_at_a_time():
    """At blanket sizes of n = 1e3 (the lattice rows differ between one batch and single calls only in their
    float padding): both are certified, so they must overlap, and agree to 1e-8."""
    groups = group_outputs(CIRCULANT[0], CIRCULANT[1], [Fraction(1, 3)] * 3)
    big_ns = [480, 560, 600, 640, 720]
    lo, hi = count_expectations(big_ns, groups, 0.1)
    for big_n, low, high in zip(big_ns, lo, hi, strict=True):
        one_lo, one_hi = count_expectation(big_n, groups, 0.1)
        assert max(low, one_lo) <= min(high, one_hi) * (1 + 1e-12)
        assert abs(high / one_hi - 1) < 1e-8


def test_count_expectations_refuse_a_bad_blanket_size():
    groups = group_outputs(CIRCULANT[0], CIRCULANT[1], [Fraction(1, 3)] * 3)
    with pytest.raises(ParameterError, match="N"):
        count_expectations([3, -1], groups, 0.1)


def test_pair_profiles_equal_the_all_pairs_maximum_where_nothing_is_skipped():
    randomizer = finite_randomizer(CIRCULANT)
    profiles = PairProfiles(randomizer, n=40, delta_hint=1e-17)
    eps = 0.1
    expected = exact_blanket_randomizer_delta(matrix=randomizer, n=40, eps=eps, delta_hint=1e-17).upper
    assert profiles.upper(eps) == expected
    assert profiles.skipped == 0


def test_pair_profiles_skip_dominated_pairs_and_stay_above_the_exact_delta():
    """SKEWED: the pairs (0, 2), (2, 0) are far below (0, 1), (1, 0). At increasing eps (the envelope's order) the
    dominated pairs are skipped, every value is at most the all-pairs maximum and at least the exact central delta
    of n shuffled reports (full enumeration at n = 4, Fractions)."""
    randomizer = finite_randomizer(SKEWED)
    exact_randomizer = Randomizer.from_matrix([[str(v) for v in row] for row in SKEWED])
    n = 4
    profiles = PairProfiles(randomizer, n=n, delta_hint=1e-17)
    for eps in (0.0, 0.15, 0.3, 0.5, 0.8):
        value = profiles.upper(float(eps))
        everything = exact_blanket_randomizer_delta(matrix=randomizer, n=n, eps=float(eps), delta_hint=1e-17).upper
        assert value <= everything
        assert value >= float(exact_shuffled_delta(exact_randomizer, n, math.exp(float(eps)))) * (1 - 1e-12)
    assert profiles.skipped > 0


def test_pair_profiles_refuse_bad_inputs():
    with pytest.raises(ParameterError, match="n"):
        PairProfiles(CIRCULANT, n=0)
    with pytest.raises(ParameterError, match="eps"):
        PairProfiles(CIRCULANT, n=10).upper(-0.1)


def test_structured_three_group_blanket_sum_brackets_lemma_5_3_by_enumeration():
    """A structured pair with 3 groups (1-subset selection on 4 values: its pair's groups) goes through the batched
    lattice sums; its interval contains Lemma 5.3's sum evaluated from the definition at n = 7:
    sum_N C(n-1, N-1) gamma^(N-1) (1-gamma)^(n-N) E[(L_1 + ... + L_N)_+] / N, E by enumeration."""
    pair = subset_selection(1.0, 4, 1).replace_pairs()[0]
    assert len(pair.groups) == 3
    gamma, n = float(pair.gamma), 7
    for eps in (0.05, 0.4):
        value = sum(math.comb(n - 1, big_n - 1) * gamma ** (big_n - 1) * (1 - gamma) ** (n - big_n) * brute_force_expectation(big_n, pair.groups, eps) / big_n for big_n in range(1, n + 1))
        got = structured_blanket_delta([pair], n=n, eps=eps, delta_hint=1e-12)
        assert got.lower * (1 - 1e-9) <= value <= got.upper * (1 + 1e-9), (eps, got, value)
