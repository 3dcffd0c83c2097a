"""BBGN19 Sec. 5.1-5.2 and App. A on exact randomizers: TV similarity, blanket, decomposition (maximal),
Lemma 5.1 (k-RR exactly; Laplace and Gaussian by quadrature), Lemma 5.2, Lemma 5.4, Lemma 5.7, Lemma 5.8,
Lemma 5.3 against exact shuffled divergences, and the Appendix A chain."""

import itertools
import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_spec.reference.finite.blanket import (
    amplification_variable,
    blanket_distribution,
    blanket_multiset_divergence,
    expected_positive_part_of_sum,
    lemma_5_3_divergence_bound,
    lemma_a1_conditioned_bound,
    lemma_a2_blanket_bound,
    mixture_decomposition,
    total_variation_similarity,
)
from shuffle_spec.reference.bounds.blanket_parameters import (
    gaussian_tv_similarity,
    generic_amplification_parameters,
    krr_amplification_parameters,
    krr_tv_similarity,
    laplace_amplification_parameters,
    laplace_tv_similarity,
)
from shuffle_spec.reference.finite.distributions import Distribution
from shuffle_spec.reference.finite.divergences import hockey_stick_divergence
from shuffle_spec.reference.finite.randomizers import k_randomized_response
from shuffle_spec.reference.finite.shuffling import exact_shuffled_delta, shuffled_distribution
from support.strategies import e_eps_values, ldp_randomizers

small_e_eps = st.fractions(min_value=1, max_value=3, max_denominator=6)


@given(ldp_randomizers(max_inputs=3, max_outputs=4))
def test_decomposition_reassembles_and_is_maximal(pair):
    r, _ = pair
    d = mixture_decomposition(r)
    assert d.gamma == sum(min(mu[y] for _, mu in r.items()) for y in r.outputs)
    for x, mu in r.items():
        for y in r.outputs:
            assert mu[y] == d.gamma * d.blanket[y] + (1 - d.gamma) * d.residuals[x][y]
    if d.gamma < 1:
        # Maximality (Sec. 5.1): every output has some residual at 0, so no common part is left over.
        assert all(min(d.residuals[x][y] for x in r.inputs) == 0 for y in r.outputs)


@given(st.integers(2, 6), st.fractions(Fraction(11, 10), 20, max_denominator=10))
def test_lemma_5_1_krr_exact(k, e):
    r = k_randomized_response(k, e)
    assert total_variation_similarity(r) == k / (e + k - 1)
    assert blanket_distribution(r) == Distribution({y: Fraction(1, k) for y in range(k)})
    assert math.isclose(krr_tv_similarity(eps0=math.log(e), k=k), float(k / (e + k - 1)), rel_tol=1e-12)



def _quad(*args, **kwargs):
    """scipy.integrate.quad, imported on first use: SciPy's integrate package costs every test worker ~0.4 s to
    collect, and only this file's tests need it."""
    from scipy import integrate

    return integrate.quad(*args, **kwargs)

def _tv_similarity_by_quadrature(density, far_points):
    """int inf_{x in [0,1]} density(y - x) dy; the inf over x is at an endpoint (checked on a grid)."""
    grid = np.linspace(0, 1, 41)

    def inf_density(y):
        at_ends = min(density(y), density(y - 1))
        assert at_ends <= min(density(y - x) for x in grid) + 1e-15
        return at_ends

    return sum(_quad(inf_density, lo, hi, epsabs=1e-13, epsrel=1e-12)[0] for lo, hi in far_points)


def test_lemma_5_1_laplace_and_gaussian_by_quadrature():
    # Tolerance 1e-9: quad's requested accuracy is 1e-12 relative on each piece.
    for eps0 in (0.1, 1.0, 4.0):
        lap = lambda u, e=eps0: e / 2 * math.exp(-e * abs(u))
        pieces = [(-60 / eps0, 0.5), (0.5, 1 + 60 / eps0)]
        assert math.isclose(_tv_similarity_by_quadrature(lap, pieces), laplace_tv_similarity(eps0=eps0), rel_tol=1e-9)
    for sigma in (0.2, 0.5, 1.0, 3.0):
        gauss = lambda u, s=sigma: math.exp(-u * u / (2 * s * s)) / (s * math.sqrt(2 * math.pi))
        pieces = [(-40 * sigma, 0.5), (0.5, 1 + 40 * sigma)]
        assert math.isclose(_tv_similarity_by_quadrature(gauss, pieces), gaussian_tv_similarity(sigma=sigma), rel_tol=1e-9)


@given(ldp_randomizers(max_inputs=4, max_outputs=5))
def test_lemma_5_2_gamma_at_least_e_minus_eps0(pair):
    r, e = pair
    assert total_variation_similarity(r) * e >= 1


@given(ldp_randomizers(max_inputs=3, max_outputs=4), small_e_eps)
def test_lemma_5_4_on_exact_randomizers(pair, e_eps):
    r, e = pair
    gamma = total_variation_similarity(r)
    eps0 = math.log(e)
    for x in r.inputs:
        for x2 in r.inputs:
            if x == x2:
                continue
            L = amplification_variable(r, x, x2, e_eps)
            assert L.expectation(lambda v: v) == 1 - e_eps  # Lemma 5.4(1), exactly
            # Lemma 5.4(2), (3) in exact arithmetic: mu/omega in [gamma/e, gamma e].
            lower = -gamma * e * (e_eps - 1 / e**2)
            upper = gamma * e * (1 - e_eps / e**2)
            second = gamma * e * (e_eps**2 + 1) - 2 * gamma**2 * e_eps / e**2
            assert all(lower <= v <= upper for v in L.support)
            assert L.expectation(lambda v: v * v) <= second
            if e_eps <= e:
                lo, hi, sec = generic_amplification_parameters(eps=math.log(e_eps), eps0=eps0, gamma=float(gamma))
                assert math.isclose(hi, float(upper), rel_tol=1e-9, abs_tol=1e-12) and math.isclose(sec, float(second), rel_tol=1e-9)
                assert math.isclose(lo, float(lower), rel_tol=1e-9, abs_tol=1e-12)


@given(st.integers(2, 6), st.fractions(Fraction(11, 10), 12, max_denominator=10), small_e_eps)
def test_lemma_5_7_krr_exact(k, e, e_eps):
    r = k_randomized_response(k, e)
    gamma = Fraction(k) / (e + k - 1)
    L = amplification_variable(r, 0, 1, e_eps)
    assert min(L.support) == gamma * (1 - e_eps) - (1 - gamma) * k * e_eps
    assert max(L.support) == gamma * (1 - e_eps) + (1 - gamma) * k
    assert L.expectation(lambda v: v * v) == gamma * (2 - gamma) * (e_eps - 1) ** 2 + (1 - gamma) ** 2 * k * (e_eps**2 + 1)
    g, lo, hi, sec = krr_amplification_parameters(eps=math.log(e_eps), eps0=math.log(e), k=k)
    assert math.isclose(sec, float(L.expectation(lambda v: v * v)), rel_tol=1e-9)
    assert math.isclose(hi - lo, float((1 - gamma) * k * (e_eps + 1)), rel_tol=1e-9)


def test_lemma_5_8_laplace_by_quadrature_on_a_grid():
    """Range and second moment of L for Laplace over a 11x11 grid of (x, x'): inside Lemma 5.8's bounds,
    with both range ends and the moment bound attained at {x, x'} = {0, 1} (tolerance 1e-7 from quad)."""
    for eps0, eps in ((1.0, 0.3), (3.0, 1.0)):
        _, lo, hi, sec = laplace_amplification_parameters(eps=eps, eps0=eps0)
        omega = lambda w: eps0 / 2 * math.exp(-eps0 * abs(w - 0.5))
        worst_second, worst_lo, worst_hi = -math.inf, math.inf, -math.inf
        for x in np.linspace(0, 1, 11):
            for x2 in np.linspace(0, 1, 11):
                if x == x2:
                    continue
                ell = lambda w: (math.exp(-eps0 * abs(w - x)) - math.exp(eps) * math.exp(-eps0 * abs(w - x2))) / math.exp(-eps0 * abs(w - 0.5))
                breaks = sorted({x, x2, 0.5})
                pieces = [(-40 / eps0, breaks[0])] + list(itertools.pairwise(breaks)) + [(breaks[-1], 1 + 40 / eps0)]
                second = sum(_quad(lambda w: ell(w) ** 2 * omega(w), a, b, epsabs=1e-12)[0] for a, b in pieces)
                values = [ell(w) for w in np.linspace(-5, 6, 1101)]
                worst_second, worst_lo, worst_hi = max(worst_second, second), min(worst_lo, min(values)), max(worst_hi, max(values))
        assert worst_second <= sec + 1e-7 and math.isclose(worst_second, sec, rel_tol=1e-6)
        assert lo - 1e-12 <= worst_lo and math.isclose(worst_lo, lo, rel_tol=1e-9)
        assert worst_hi <= hi + 1e-12 and math.isclose(worst_hi, hi, rel_tol=1e-9)


@settings(max_examples=25)
@given(ldp_randomizers(max_inputs=3, max_outputs=3), st.integers(1, 4), small_e_eps)
def test_lemma_5_3_bounds_the_exact_shuffled_divergence(pair, n, e_eps):
    r, _ = pair
    exact = exact_shuffled_delta(r, n, e_eps)
    bound = max(lemma_5_3_divergence_bound(r, x, x2, n, e_eps) for x in r.inputs for x2 in r.inputs if x != x2)
    assert exact <= bound


@settings(max_examples=20)
@given(ldp_randomizers(max_inputs=3, max_outputs=3), st.lists(st.integers(0, 2), min_size=0, max_size=3), small_e_eps)
def test_appendix_a_chain_on_exact_instances(pair, rest_indices, e_eps):
    r, _ = pair
    inputs = r.inputs
    rest = [inputs[i % len(inputs)] for i in rest_indices]
    x, x2 = inputs[0], inputs[1]
    n = len(rest) + 1
    divergence = hockey_stick_divergence(shuffled_distribution(r, rest + [x]), shuffled_distribution(r, rest + [x2]), e_eps)
    a1 = lemma_a1_conditioned_bound(r, rest, x, x2, e_eps)
    a2 = lemma_a2_blanket_bound(r, x, x2, n, e_eps)
    assert divergence <= a1 <= a2  # Lemma A.1, then Lemma A.2
    assert a2 == lemma_5_3_divergence_bound(r, x, x2, n, e_eps)  # Lemma A.3 + change of variables = (3)


@given(ldp_randomizers(max_inputs=3, max_outputs=3), st.integers(0, 3), e_eps_values)
def test_lemma_a3_is_an_exact_equality(pair, m, e_eps):
    r, _ = pair
    L = amplification_variable(r, r.inputs[0], r.inputs[1], e_eps)
    assert blanket_multiset_divergence(r, r.inputs[0], r.inputs[1], m, e_eps) == expected_positive_part_of_sum(L, m + 1) / (m + 1)
