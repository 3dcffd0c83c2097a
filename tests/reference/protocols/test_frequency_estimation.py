"""FMT21 Thm 2.3: the frequency-estimation protocol's randomizers are eps0-LDP, its estimators are unbiased,
its error meets a Hoeffding bound at the calibrated privacy, and the error scale follows the theorem's rate."""

import math
from fractions import Fraction

import numpy as np
import pytest

from shuffle_spec.reference.bounds.clone_closed_forms import largest_eps0_for_epsilon, thm21_focs_epsilon
from shuffle_spec.reference.finite.divergences import ldp_ratio
from shuffle_spec.reference.protocols import frequency_estimation as fe
from shuffle_spec.reference.finite.randomizers import k_randomized_response


@pytest.mark.parametrize("k", [2, 3, 5, 8])
@pytest.mark.parametrize("e_eps0", [Fraction(3, 2), Fraction(5)])
def test_hadamard_response_is_exactly_eps0_ldp(k, e_eps0):
    randomizer = fe.hadamard_response_randomizer(k, e_eps0)
    assert ldp_ratio(randomizer) == e_eps0
    assert len(randomizer.outputs) == fe.hadamard_size(k) and fe.hadamard_size(k) > k


def _expected_estimate(randomizer, p, estimator_weights):
    """E[p_hat] = sum_x p_x sum_y R(x, y) w(y) for a linear estimator p_hat = mean of w(report)."""
    outputs = randomizer.outputs
    return [sum(p[x] * sum(randomizer(x)[y] * estimator_weights[y][j] for y in outputs) for x in range(len(p))) for j in range(len(p))]


@pytest.mark.parametrize("k", [3, 6])
def test_estimators_are_unbiased_exactly(k):
    e = Fraction(3)
    p = [Fraction(i + 1, k * (k + 1) // 2) for i in range(k)]
    # Hadamard: p_hat_j = 2(e+1)/(e-1) ([report in C_j] - 1/2), linear in each report.
    hr = fe.hadamard_response_randomizer(k, e)
    size = fe.hadamard_size(k)
    member = {y: [1 if bin((j + 1) & y).count("1") % 2 == 0 else 0 for j in range(k)] for y in range(size)}
    weights = {y: [2 * (e + 1) / (e - 1) * (member[y][j] - Fraction(1, 2)) for j in range(k)] for y in range(size)}
    assert _expected_estimate(hr, p, weights) == p
    # k-RR: p_hat_j = ([report = j] - q)/(p_keep - q).
    rr = k_randomized_response(k, e)
    keep, other = e / (e + k - 1), 1 / (e + k - 1)
    weights = {y: [((1 if y == j else 0) - other) / (keep - other) for j in range(k)] for y in range(k)}
    assert _expected_estimate(rr, p, weights) == p


def test_encoders_follow_their_distributions():
    # Empirical report frequencies vs the exact randomizer rows (5 standard deviations of a Bernoulli mean).
    rng = np.random.default_rng(7)
    k, eps0, n = 5, 1.2, 200_000
    values = np.full(n, 2)
    hr = fe.hadamard_response_randomizer(k, math.exp(eps0))
    reports = fe.hadamard_response_encode(values, k, eps0, rng)
    freq = np.bincount(reports, minlength=fe.hadamard_size(k)) / n
    for y in range(fe.hadamard_size(k)):
        prob = hr(2)[y]
        assert abs(freq[y] - prob) <= 5 * math.sqrt(prob * (1 - prob) / n)
    reports = fe.krr_encode(values, k, eps0, rng)
    freq = np.bincount(reports, minlength=k) / n
    rr = k_randomized_response(k, math.exp(eps0))
    for y in range(k):
        prob = rr(2)[y]
        assert abs(freq[y] - prob) <= 5 * math.sqrt(prob * (1 - prob) / n)


@pytest.mark.parametrize("method", ["hadamard", "krr", None])
@pytest.mark.parametrize("k, n, eps", [(16, 50_000, 1.0), (100, 200_000, 0.5)])
def test_error_within_hoeffding_bound_at_the_calibrated_privacy(method, k, n, eps):
    delta = 1e-6
    rng = np.random.default_rng(11)
    values = rng.zipf(1.5, size=n) % k
    truth = np.bincount(values, minlength=k) / n
    result = fe.shuffled_frequency_estimation(values, k, eps=eps, delta=delta, seed=3, method=method)
    # Privacy: the shuffled eps0-LDP reports are (eps, delta)-DP by FMT21 Thm 2.1 (full version).
    assert thm21_focs_epsilon(eps0=result.eps0, n=n, delta=delta).value <= eps
    assert result.bits_per_report <= math.ceil(math.log2(k + 1))
    assert sorted(result.reports.tolist()) != result.reports.tolist()  # shuffled, not sorted by user
    # Hoeffding + union bound over k coordinates, failure probability beta = 1e-3:
    # max_j |p_hat_j - p_j| <= L sqrt(log(2k/beta) / (2n)), L the range of one report's contribution.
    bound = fe.estimator_range(result.method, k, result.eps0) * math.sqrt(math.log(2 * k / 1e-3) / (2 * n))
    assert np.abs(result.estimate - truth).max() <= bound


def test_automatic_choice_has_the_smaller_variance():
    for eps0 in (0.2, 1.0, 3.0, 8.0):
        variances = {m: fe.estimator_variance_bound(m, 32, eps0, 10_000) for m in fe.METHODS}
        assert min(variances.values()) == variances[min(variances, key=variances.get)]
    # Small eps0: Hadamard ((e+1)/(e-1))^2/n vs k-RR ~ k/(n eps0^2); large eps0: k-RR ~ 1/(n e).
    assert fe.estimator_variance_bound("hadamard", 32, 0.2, 10) < fe.estimator_variance_bound("krr", 32, 0.2, 10)
    assert fe.estimator_variance_bound("krr", 32, 8.0, 10) < fe.estimator_variance_bound("hadamard", 32, 8.0, 10)


def test_error_scale_follows_the_theorem_rate():
    # FMT21 Thm 2.3: error O(sqrt(log k log(1/delta)) / (eps n)). The protocol's worst-case standard deviation
    # at the calibrated eps0, divided by that rate, must stay bounded as n grows (here over four decades); a protocol without amplification (eps0 = eps) would grow like sqrt(n).
    k, eps, delta = 16, 1.0, 1e-6
    ratios = []
    for n in (10**4, 10**5, 10**6, 10**7, 10**8):
        eps0 = largest_eps0_for_epsilon(eps=eps, n=n, delta=delta)
        std = min(math.sqrt(fe.estimator_variance_bound(m, k, eps0, n)) for m in fe.METHODS)
        ratios.append(std / (math.sqrt(math.log(k) * math.log(1 / delta)) / (eps * n)))
    # Flat to 5% over four decades of n: the error is Theta of the theorem's rate (its constant, ~11.5 here,
    # is the O's constant for this protocol at k = 16).
    assert max(ratios) <= 1.05 * min(ratios)
    without = [math.sqrt(fe.estimator_variance_bound("hadamard", k, eps, n)) / (1 / n) for n in (10**4, 10**8)]
    assert without[1] / without[0] > 50
