"""exact.shuffled_binary_rr: exact against the full shuffled distribution (Fractions) for small n, the
check N10 values, the worst count k (bbgn19.md section 8), certified intervals, robustness."""

import math
from fractions import Fraction

import mpmath
import pytest

from shuffle_spec.reference.exact_binary_rr import binary_rr_pair_delta, counts_evaluated, shuffled_binary_rr, shuffled_binary_rr_delta
from shuffle_spec.reference.randomizers import binary_randomized_response
from shuffle_spec.reference.shuffling import exact_shuffled_delta, exact_shuffled_e_eps

mpmath.mp.dps = 50


@pytest.mark.parametrize("n, eps0, delta", [(2, 1.0, 0.1), (3, 2.0, 0.1), (5, 1.0, 0.05), (8, 1.5, 0.01), (6, 3.0, 0.2), (9, 0.5, 0.02)])
def test_matches_the_exact_shuffled_distribution(n, eps0, delta):
    # e^eps0 as the float it is: the Fraction randomizer then has exactly the float p used by the reference.
    exact_e = exact_shuffled_e_eps(binary_randomized_response(math.exp(eps0)), n, Fraction(delta))
    result = shuffled_binary_rr(eps0=eps0, n=n, delta=delta)
    exact = math.log(exact_e)
    assert result.lower - 1e-12 <= exact <= result.upper + 1e-12
    assert result.upper - result.lower <= 1e-6 * exact


def test_delta_matches_the_exact_shuffled_delta_at_rational_e_eps():
    randomizer = binary_randomized_response(Fraction(3))
    for n in (3, 6):
        exact = exact_shuffled_delta(randomizer, n, Fraction(3, 2))
        got = shuffled_binary_rr_delta(eps0=math.log(3), n=n, eps=math.log(1.5))
        assert got.lower - 1e-12 <= float(exact) <= got.upper + 1e-12


@pytest.mark.parametrize("n, eps0, expected", [(10_000, 1.0, 0.0357), (10_000, 4.0, 0.315), (100_000, 2.0, 0.0247)])
def test_check_n10_values(n, eps0, expected):
    # bbgn19.md check N10 (delta = 1e-6), printed to 3 significant digits: tolerance half a unit of the last digit.
    result = shuffled_binary_rr(eps0=eps0, n=n, delta=1e-6)
    half_unit = 0.5 * 10 ** (math.floor(math.log10(expected)) - 2)
    assert abs(result.upper - expected) <= half_unit


def test_worst_count_is_not_always_zero():
    # bbgn19.md section 8: n=200, eps0=2, eps=0.3: the worst k is 1, not 0.
    by_k = [binary_rr_pair_delta(eps0=2.0, n=200, k=k, eps=0.3) for k in range(4)]
    assert by_k[1].lower > by_k[0].upper
    assert max(range(4), key=lambda k: by_k[k].upper) == 1


def test_all_counts_for_small_n_and_a_scan_with_a_note_for_large_n():
    assert counts_evaluated(9) == (0, 1, 2, 3, 4)
    large = shuffled_binary_rr(eps0=1.0, n=100_000, delta=1e-6)
    assert "lower bound" in large.note


def mp_pair_delta(n, k, eps0, eps):
    """max of both divergences for pair k, all in 50-digit mpmath (full sums)."""
    p = mpmath.exp(eps0) / (mpmath.exp(eps0) + 1)
    f = [mpmath.mpf(0)] * n
    for i in range(k + 1):
        wi = mpmath.binomial(k, i) * p**i * (1 - p) ** (k - i)
        for j in range(n - k):
            f[i + j] += wi * mpmath.binomial(n - 1 - k, j) * (1 - p) ** j * p ** (n - 1 - k - j)
    e = mpmath.exp(eps)
    forward = backward = mpmath.mpf(0)
    for s in range(n + 1):
        here = f[s] if s < n else 0
        prev = f[s - 1] if s >= 1 else 0
        pp, qq = p * prev + (1 - p) * here, (1 - p) * prev + p * here
        forward += max(pp - e * qq, 0)
        backward += max(qq - e * pp, 0)
    return max(forward, backward)


@pytest.mark.parametrize("n, k, eps0, eps", [(30, 0, 1.0, 0.2), (60, 3, 2.0, 0.5), (120, 7, 0.5, 0.05), (50, 49, 3.0, 1.0)])
def test_certified_pair_delta_contains_mpmath_value(n, k, eps0, eps):
    got = binary_rr_pair_delta(eps0=eps0, n=n, k=k, eps=eps)
    exact = mp_pair_delta(n, k, mpmath.mpf(eps0), mpmath.mpf(eps))
    assert got.lower <= exact <= got.upper


def test_monotone_in_n_eps0_delta():
    base = shuffled_binary_rr(eps0=2.0, n=20_000, delta=1e-6).upper
    assert shuffled_binary_rr(eps0=2.0, n=40_000, delta=1e-6).upper <= base
    assert shuffled_binary_rr(eps0=2.5, n=20_000, delta=1e-6).upper >= base
    assert shuffled_binary_rr(eps0=2.0, n=20_000, delta=1e-5).upper <= base


@pytest.mark.parametrize("eps0, n, delta", [(30.0, 10**6, 1e-30), (0.5, 10**7, 1e-30), (30.0, 3, 1e-3)])
def test_robust_at_extreme_parameters(eps0, n, delta):
    result = shuffled_binary_rr(eps0=eps0, n=n, delta=delta)
    assert math.isfinite(result.upper) and 0 <= result.lower <= result.upper <= eps0
