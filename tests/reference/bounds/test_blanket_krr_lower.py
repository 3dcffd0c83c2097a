"""The lower bound on BBGN19 Lemma 5.3's delta for k-RR from one blanket size (`reference/bounds/blanket_krr_lower.py`):
below Lemma 5.3 computed by exact convolution (small n, both the probability-1 case and the Chernoff case), below the
upper end of the certified exact evaluation everywhere on a grid, and within a few percent of it at large n (what makes
it useful to `tightest`'s skip test)."""

import math

import pytest

from shuffle_spec.reference.bounds.blanket_exact_krr import exact_blanket_krr_delta
from shuffle_spec.reference.bounds.blanket_krr_lower import QUANTILE_SDS, blanket_krr_delta_lower
from shuffle_spec.reference.finite.blanket import lemma_5_3_divergence_bound
from shuffle_spec.reference.finite.randomizers import k_randomized_response


def _uses_chernoff(eps0: float, n: int, k: int) -> bool:
    """Whether N* - 1 (QUANTILE_SDS sd above the mean of Bin(n-1, gamma)) lies below n - 1 (the Chernoff case)."""
    gamma = k / (math.exp(eps0) + k - 1)
    return (n - 1) * gamma + QUANTILE_SDS * math.sqrt((n - 1) * gamma * (1 - gamma)) + 1 < n - 1


@pytest.mark.parametrize(("k", "n", "eps0", "eps"), [(2, 7, 1.0, 0.2), (2, 30, 1.0, 0.3), (3, 12, 2.0, 0.5)])
def test_below_lemma_5_3_by_exact_convolution(k, n, eps0, eps):
    exact = float(lemma_5_3_divergence_bound(k_randomized_response(k, math.exp(eps0)), 0, 1, n, math.exp(eps)))
    lower = blanket_krr_delta_lower(eps0=eps0, n=n, k=k, eps=eps)
    # The convolution is a float sum (relative error far below 1e-11); the bound keeps a probability mass and one D_N.
    assert 0 < lower <= exact * (1 + 1e-11)
    assert lower >= 0.2 * exact  # not vacuous: the instances' single size keeps 30-60% of the sum


def test_the_small_instances_cover_both_cases():
    assert not _uses_chernoff(1.0, 7, 2) and _uses_chernoff(1.0, 30, 2)


# k = 3 is the second tier's (its lattice sums cost ~3 s over the grid); k = 2 stays in the default tier.
@pytest.mark.parametrize("k", [2, pytest.param(3, marks=pytest.mark.slow)])
def test_below_the_certified_exact_evaluation_on_a_grid(k):
    for eps0 in (0.1, 8.0):
        for n in (1, 50, 10**4):
            for eps in (0.0, 0.01, 0.3, 2.0):
                exact = exact_blanket_krr_delta(eps0=eps0, n=n, k=k, eps=eps)
                lower = blanket_krr_delta_lower(eps0=eps0, n=n, k=k, eps=eps)
                assert 0 <= lower <= exact.upper, (eps0, n, eps, lower, exact)
                if eps >= eps0:
                    assert lower == 0.0  # every privacy loss is <= 0 there: Lemma 5.3's delta is 0


@pytest.mark.parametrize(("eps0", "eps", "delta"), [(0.5, 0.0012658, 1e-6), (8.0, 0.2250119, 1e-6)])
def test_within_a_few_percent_of_the_exact_delta_at_large_n(eps0, eps, delta):
    # eps: exact.shuffled_binary_rr's upper end at n = 1e6 (what tightest's skip test asks at); the exact delta there
    # is 2.4x and 47x delta. One size keeps ~98.9% of the probability, and D_{N*} is ~1% below D at the mean (eps0 =
    # 0.5; at eps0 = 8, gamma n ~ 670, the sd is a larger share of N: about half).
    n = 10**6
    exact = exact_blanket_krr_delta(eps0=eps0, n=n, k=2, eps=eps, delta_hint=delta, path="estimate")
    lower = blanket_krr_delta_lower(eps0=eps0, n=n, k=2, eps=eps, delta_hint=delta)
    assert lower <= exact.upper
    assert lower >= (0.97 if eps0 < 1 else 0.4) * exact.lower
    assert lower > delta  # what lets the skip test pass without the exact evaluation


# k = 2: G(N*) from the certified window of Bin(N*, 1/2) (`_binary_g_lower`), not a lattice sum.
@pytest.mark.parametrize(("eps0", "eps", "size"), [(1.0, 0.01, 600), (0.5, 0.01, 400), (6.0, 0.02, 300)])
def test_the_binary_expectation_is_below_the_50_digit_sum_and_close(eps0, eps, size):
    # G(N) = E[((e0 - e) a - (e e0 - 1)(N - a))_+], a ~ Bin(N, 1/2): every term of the sum at 50 digits. The points put
    # the form's root (a / N = 0.505 there) inside the window, as at the skip test's eps (near 0 relative to eps0).
    import mpmath

    from shuffle_spec.reference.bounds.blanket_exact_krr import bracket
    from shuffle_spec.reference.bounds.blanket_krr_lower import _binary_g_lower

    with mpmath.workdps(50):
        e0, e = mpmath.exp(mpmath.mpf(eps0)), mpmath.exp(mpmath.mpf(eps))
        c0, c1 = e0 - e, -(e * e0 - 1)
        pmf, terms = mpmath.mpf(1) / mpmath.mpf(2) ** size, []
        for a in range(size + 1):  # Pr[a] by the exact ratio (size - a) / (a + 1), at 50 digits
            terms.append(pmf * max(c0 * a + c1 * (size - a), 0))
            pmf = pmf * (size - a) / (a + 1)
        exact = mpmath.fsum(terms)
        lower = _binary_g_lower(size, bracket(c0), bracket(c1), 1e-30)
        assert 0 < lower <= exact
        assert lower >= exact * (1 - 1e-9)  # sharp: the window drops 1e-30, the roundings ~1e-12 relative


def test_the_binary_route_agrees_with_the_lattice_sum_it_replaces():
    # The lattice sum of the three-class law with an empty third class is an independent computation of the same
    # lower bound on G(N*): the two agree to its resolution (~3e-4 at n = 1e8; closer at small n).
    import mpmath

    from shuffle_spec.reference.bounds import blanket_krr_lower as module
    from shuffle_spec.reference.numerics.lattice_sums import Coefficients, binomial_law, positive_part_expectations

    eps0, n, eps, delta = 0.5, 10**4, 0.0162, 1e-6
    window_route = blanket_krr_delta_lower(eps0=eps0, n=n, k=2, eps=eps, delta_hint=delta)

    def lattice(size, c0, c1, tail):
        with mpmath.workdps(40):
            law_b, law_a = binomial_law(mpmath.mpf(1) / 2), binomial_law(mpmath.mpf(1))
            c2 = module.bracket(-(mpmath.exp(mpmath.mpf(eps)) - 1))
        g, _ = positive_part_expectations([size], law_b, law_a, Coefficients(c0, c1, c2), tail=tail, per_sd=module.PER_SD, upper=False)
        return float(g[0])

    original = module._binary_g_lower
    try:
        module._binary_g_lower = lattice
        lattice_route = blanket_krr_delta_lower(eps0=eps0, n=n, k=2, eps=eps, delta_hint=delta)
    finally:
        module._binary_g_lower = original
    assert abs(window_route - lattice_route) <= 1e-6 * lattice_route
    assert window_route <= exact_blanket_krr_delta(eps0=eps0, n=n, k=2, eps=eps, delta_hint=delta).upper
