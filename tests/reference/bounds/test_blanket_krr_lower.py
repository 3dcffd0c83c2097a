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
