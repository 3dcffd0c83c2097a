"""EFMRTT19 Lemma 3 (monotonicity, triangle inequality, quasiconvexity), BBGN19 Thm 5.2 and
post-processing, on exact distributions."""

import math
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from shuffle_spec.reference.finite.closeness import is_dp_on_neighbours, triangle_parameters
from shuffle_spec.reference.finite.operations import mixture, post_process
from shuffle_spec.reference.finite.distributions import Distribution
from shuffle_spec.reference.finite.divergences import is_close, min_e_eps_for_delta, privacy_profile
from shuffle_spec.reference.finite.randomizers import Randomizer
from support.strategies import distribution_pairs, e_eps_values, exact_distributions, randomizers, stochastic_matrices


@given(distribution_pairs(), e_eps_values, e_eps_values, st.fractions(0, 1, max_denominator=20), st.fractions(0, 1, max_denominator=20))
def test_lemma3_monotonicity(pair, a1, a2, d1, d2):
    p, q = pair
    (a_lo, a_hi), (d_lo, d_hi) = sorted((a1, a2)), sorted((d1, d2))
    if is_close(p, q, a_lo, d_lo):
        assert is_close(p, q, a_hi, d_hi)


@given(st.integers(1, 4).flatmap(lambda m: st.tuples(*(exact_distributions(m) for _ in range(3)))), st.fractions(0, Fraction(1, 2), max_denominator=20), st.fractions(0, Fraction(1, 2), max_denominator=20))
def test_lemma3_triangle_with_the_valid_delta(triple, d1, d2):
    """mu1 ~(eps1,d1) mu2 and mu2 ~(eps2,d2) mu3 give mu1 ~(eps1+eps2, d1 + e^eps1 d2) mu3, with the
    smallest eps1, eps2 that hold (exact multipliers)."""
    mu1, mu2, mu3 = triple
    a1, a2 = min_e_eps_for_delta(mu1, mu2, d1), min_e_eps_for_delta(mu2, mu3, d2)
    if math.inf in (a1, a2):
        return
    assert is_close(mu1, mu3, a1 * a2, min(Fraction(1), d1 + a1 * d2))


def test_lemma3_triangle_with_delta1_plus_delta2_is_false_in_general():
    """The seed's probable delta1 + delta2 fails: a counterexample (recorded in EFMRTT19.Lem3.triangle)."""
    mu1 = Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)})
    mu2 = Distribution({0: Fraction(1, 4), 1: Fraction(3, 4)})
    mu3 = Distribution({0: Fraction(0), 1: Fraction(1)})
    a1, d1, a2, d2 = Fraction(2), Fraction(0), Fraction(1), Fraction(1, 4)
    assert is_close(mu1, mu2, a1, d1) and is_close(mu2, mu3, a2, d2)
    assert not is_close(mu1, mu3, a1 * a2, d1 + d2)
    assert is_close(mu1, mu3, a1 * a2, min(Fraction(1), d1 + a1 * d2))
    eps, delta = triangle_parameters(math.log(2), 0.0, 0.0, 0.25)
    assert eps == math.log(2) and delta == 0.5


@given(st.integers(1, 4).flatmap(lambda m: st.tuples(*(exact_distributions(m) for _ in range(4)))), st.fractions(0, 1, max_denominator=20), st.fractions(0, 1, max_denominator=10))
def test_lemma3_quasiconvexity(quad, rho, delta):
    mu0, nu0, mu1, nu1 = quad
    a = max(min_e_eps_for_delta(mu0, nu0, delta), min_e_eps_for_delta(mu1, nu1, delta))
    if a == math.inf:
        return
    assert is_close(mixture([(1 - rho, mu0), (rho, mu1)]), mixture([(1 - rho, nu0), (rho, nu1)]), a, delta)


@given(distribution_pairs(max_size=4), stochastic_matrices(max_inputs=4, max_outputs=3, full_support=False), e_eps_values)
def test_post_processing_never_increases_the_divergence(pair, matrix, e_eps):
    p, q = pair
    rows = matrix + [matrix[-1]] * (len(p.support | q.support | set(range(4))) - len(matrix))
    kernel = Randomizer.from_matrix(rows)
    pp, qq = post_process(p, kernel), post_process(q, kernel)
    assert privacy_profile(pp, qq, e_eps) <= privacy_profile(p, q, e_eps)


@given(randomizers(max_inputs=3, max_outputs=3), e_eps_values, st.fractions(0, 1, max_denominator=20))
def test_thm5_2_dp_iff_every_neighbouring_divergence_is_small(r, e_eps, delta):
    """BBGN19 Thm 5.2 on a one-user mechanism: (eps, delta)-DP by events iff by divergences."""
    pairs = [(r(x), r(x2)) for x in r.inputs for x2 in r.inputs if x != x2]
    by_events = all(
        all(p.probability_of(lambda o: o in ev) <= e_eps * q.probability_of(lambda o: o in ev) + delta for ev in _events(r.outputs))
        for p, q in pairs
    )
    assert is_dp_on_neighbours(pairs, e_eps, delta) == by_events


def _events(outcomes):
    outcomes = list(outcomes)
    for mask in range(1 << len(outcomes)):
        yield {o for i, o in enumerate(outcomes) if mask >> i & 1}
