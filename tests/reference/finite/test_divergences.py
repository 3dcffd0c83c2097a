"""Hockey-stick divergence, closeness, privacy profiles, LDP epsilons: against brute force over events.

BBGN19 Sec. 5.2 defines D_{e^eps}(P||Q) = sup_E P(E) - e^eps Q(E); EFMRTT19 defines closeness by
events. Both are checked here by enumerating every event of small exact distributions.
"""

import itertools
import math
from fractions import Fraction

from hypothesis import assume, given
from hypothesis import strategies as st

from shuffle_spec.reference.finite.distributions import Distribution
from shuffle_spec.reference.finite.divergences import (
    epsilon_for_delta,
    hockey_stick_divergence,
    is_close,
    ldp_ratio,
    min_e_eps_for_delta,
    privacy_profile,
    removal_ldp_ratio,
)
from shuffle_spec.reference.finite.randomizers import binary_randomized_response, k_randomized_response
from support.strategies import distribution_pairs, e_eps_values, ldp_randomizers, randomizers


def events(outcomes):
    outcomes = list(outcomes)
    for size in range(len(outcomes) + 1):
        yield from itertools.combinations(outcomes, size)


def sup_over_events(p, q, e_eps):
    outcomes = set(p) | set(q)
    return max(sum(p[o] for o in event) - e_eps * sum(q[o] for o in event) for event in events(outcomes))


@given(distribution_pairs(), e_eps_values)
def test_hockey_stick_is_the_sup_over_events(pair, e_eps):
    p, q = pair
    assert hockey_stick_divergence(p, q, e_eps) == max(Fraction(0), sup_over_events(p, q, e_eps))


@given(distribution_pairs(), e_eps_values, st.fractions(0, 1, max_denominator=30))
def test_closeness_matches_its_event_definition(pair, e_eps, delta):
    p, q = pair
    outcomes = set(p) | set(q)
    by_events = all(
        sum(p[o] for o in ev) <= e_eps * sum(q[o] for o in ev) + delta
        and sum(q[o] for o in ev) <= e_eps * sum(p[o] for o in ev) + delta
        for ev in events(outcomes)
    )
    assert is_close(p, q, e_eps, delta) == by_events


@given(distribution_pairs(), st.fractions(0, 1, max_denominator=40))
def test_min_e_eps_is_exact_threshold(pair, delta):
    p, q = pair
    a = min_e_eps_for_delta(p, q, delta)
    if a == math.inf:
        assert privacy_profile(p, q, Fraction(10**9)) > delta
        return
    assert isinstance(a, Fraction)
    assert privacy_profile(p, q, a) <= delta
    if a > 1:
        # Any smaller multiplier violates delta: the threshold is exact, not a bracket.
        assert privacy_profile(p, q, a - Fraction(1, 10**12)) > delta


@given(distribution_pairs(full_support=True), st.fractions(0, 1, max_denominator=40), st.fractions(0, 1, max_denominator=40))
def test_epsilon_for_delta_is_non_increasing_in_delta(pair, d1, d2):
    p, q = pair
    lo, hi = sorted((d1, d2))
    assert epsilon_for_delta(p, q, hi) <= epsilon_for_delta(p, q, lo)


@given(distribution_pairs(), e_eps_values, e_eps_values)
def test_privacy_profile_is_non_increasing_in_eps(pair, a, b):
    p, q = pair
    lo, hi = sorted((a, b))
    assert privacy_profile(p, q, hi) <= privacy_profile(p, q, lo)


@given(st.integers(2, 6), st.fractions(Fraction(11, 10), 20, max_denominator=10))
def test_krr_ldp_ratio_is_e_eps0_exactly(k, e):
    assert ldp_ratio(k_randomized_response(k, e)) == e


@given(ldp_randomizers())
def test_ldp_randomizers_strategy_respects_its_ratio(pair):
    r, e = pair
    assert ldp_ratio(r) <= e


@given(randomizers())
def test_ldp_ratio_is_the_pure_dp_threshold(r):
    """eps0-LDP (replacement) is (eps0, 0)-closeness of every pair of output distributions."""
    a = ldp_ratio(r)
    assume(a != math.inf)
    for x, x2 in itertools.permutations(r.inputs, 2):
        assert is_close(r(x), r(x2), a, 0)


@given(st.fractions(Fraction(11, 10), 20, max_denominator=10))
def test_removal_ldp_of_rr_against_uniform_reference(e):
    """EFMRSTT20 Def II.4 on binary RR with e^eps0 = e and the uniform R_0: the removal ratio is
    max(2e/(e+1), (e+1)/2) = (e+1)/2, and replacement eps0 <= 2 * removal eps (the factor-2 relation)."""
    rr = binary_randomized_response(e)
    removal = removal_ldp_ratio(rr, Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)}))
    assert removal == (e + 1) / 2
    assert ldp_ratio(rr) <= removal**2
