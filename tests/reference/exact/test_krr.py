"""exact.shuffled_krr: the symmetry-reduced computation equals the full enumeration over all neighbouring
datasets (shuffle_spec.reference.finite.shuffling), the canonical configurations cover every orbit, and the float path brackets."""

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_spec.reference.exact.krr import canonical_rest_counts, exact_shuffled_krr_delta, exact_shuffled_krr_e_eps, exact_shuffled_krr_epsilon
from shuffle_spec.reference.finite.randomizers import k_randomized_response
from shuffle_spec.reference.finite.shuffling import exact_shuffled_delta, exact_shuffled_e_eps


def _orbit_representative(counts):
    """The canonical form of a rest count vector with the pair (0, 1): sort labels 2.., then swap 0/1."""
    head, tail = counts[:2], tuple(sorted(counts[2:], reverse=True))
    return (max(head), min(head)) + tail


@pytest.mark.parametrize("k, n", [(2, 1), (2, 6), (3, 1), (3, 5), (4, 4), (5, 3)])
def test_canonical_counts_are_one_per_orbit(k, n):
    canonical = list(canonical_rest_counts(k, n))
    assert len(canonical) == len(set(canonical))
    every = [c for c in itertools.product(range(n), repeat=k) if sum(c) == n - 1]
    assert set(canonical) == {_orbit_representative(c) for c in every}


small_cases = st.tuples(
    st.sampled_from([(2, 1), (2, 2), (2, 5), (3, 2), (3, 3), (3, 4), (4, 2), (4, 3)]),
    st.fractions(min_value=Fraction(7, 6), max_value=8, max_denominator=6),
    st.fractions(min_value=0, max_value=Fraction(1, 2), max_denominator=40),
)


@settings(max_examples=25)
@given(small_cases)
def test_equals_full_enumeration(case):
    (k, n), e_eps0, delta = case
    randomizer = k_randomized_response(k, e_eps0)
    assert exact_shuffled_krr_e_eps(k, e_eps0, n, delta) == exact_shuffled_e_eps(randomizer, n, delta)
    multiplier = 1 + (e_eps0 - 1) / 3
    assert exact_shuffled_krr_delta(k, e_eps0, n, multiplier) == exact_shuffled_delta(randomizer, n, multiplier)


def test_recovery_table_f4_deltas():
    # The statements' cross-check F4 (FMT21's k-RR example): exact worst-case shuffled delta of k-RR, (k, eps0, n, eps).
    for k, eps0, n, eps, expected in [(3, 2.0, 6, 0.3, 0.3818), (2, 1.5, 8, 0.2, 0.1913), (4, 3.0, 5, 0.5, 0.6632)]:
        got = float(exact_shuffled_krr_delta(k, math.exp(eps0), n, math.exp(eps)))
        assert got == pytest.approx(expected, abs=6e-5)


def test_float_path_brackets_the_exact_value_at_nearby_rationals():
    # e^1 lies between the two rationals below; by monotonicity in e^eps0 the exact eps at e^1 lies between
    # their exact values, and the certified interval must overlap that range.
    k, n, delta = 3, 5, Fraction(1, 100)
    low = math.log(exact_shuffled_krr_e_eps(k, Fraction(2718, 1000), n, delta))
    high = math.log(exact_shuffled_krr_e_eps(k, Fraction(2719, 1000), n, delta))
    result = exact_shuffled_krr_epsilon(eps0=1.0, n=n, delta=0.01, k=k)
    assert low <= result.upper and result.lower <= high
    assert result.lower <= result.upper <= result.lower + 1e-12


def test_monotone_in_eps0_and_n():
    by_eps0 = [exact_shuffled_krr_e_eps(3, Fraction(e), 4, Fraction(1, 20)) for e in (2, 3, 5, 8)]
    assert by_eps0 == sorted(by_eps0)
    by_n = [exact_shuffled_krr_e_eps(3, Fraction(3), n, Fraction(1, 20)) for n in (2, 4, 6, 8)]
    assert by_n == sorted(by_n, reverse=True) and by_n[0] > by_n[-1]


def test_at_most_the_local_epsilon():
    # Shuffling is post-processing of the n local reports, so the central eps never exceeds eps0.
    for k, n in [(2, 10), (3, 6), (4, 4)]:
        assert exact_shuffled_krr_e_eps(k, Fraction(4), n, Fraction(1, 1000)) <= 4
        # One user: the shuffled output is the report itself, so at delta = 0 eps is exactly eps0.
        assert exact_shuffled_krr_e_eps(k, Fraction(4), 1, 0) == 4
