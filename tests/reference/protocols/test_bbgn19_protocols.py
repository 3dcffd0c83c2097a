"""BBGN19 Sec. 3-4: Algorithm 1 and Theorem 3.1 against exact shuffled binary RR; the summation protocol
(Algs 2-3) by exact per-user moments and by simulation with a stated false-failure probability; the
lower-bound chain (Lemmas 4.1-4.5) on exact randomizers."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_spec.reference.finite.distributions import Distribution, uniform
from shuffle_spec.reference.finite.divergences import ldp_ratio
from shuffle_spec.reference.protocols.shuffled_krr import blanket_krr_randomizer, theorem_3_1_eps0, theorem_3_1_gamma
from shuffle_spec.reference.protocols.summation import summation_mse_bound, summation_protocol, summation_randomizer
from shuffle_spec.reference.finite.randomizers import Randomizer
from shuffle_spec.reference.finite.shuffling import exact_shuffled_delta, shuffled_distribution
from shuffle_spec.reference.protocols.summation_lower_bound import (
    iid_summation_mse,
    interval_probabilities,
    lemma_4_4_bound,
    lemma_4_5_cross_probability_floor,
    midpoints,
    posterior_mean_map,
)


@given(st.integers(2, 6), st.fractions(Fraction(1, 20), 1, max_denominator=20))
def test_algorithm_1_pmf_and_its_ldp_level(k, gamma):
    r = blanket_krr_randomizer(k, gamma)
    for x in range(k):
        assert r(x)[x] == 1 - gamma + gamma / k and all(r(x)[y] == gamma / k for y in range(k) if y != x)
    assert ldp_ratio(r) == 1 + k * (1 - gamma) / gamma  # eps0 = log(1 + k(1-gamma)/gamma)


# delta = 1/2 repeats the exact check at the same n = 56 (54/(n-1) <= 1 decides n for both deltas) with another
# gamma: the second tier. The default tier keeps delta = 1.
@pytest.mark.parametrize("delta", [1.0, pytest.param(0.5, marks=pytest.mark.slow)])
def test_theorem_3_1_against_exact_shuffled_binary_rr(delta):
    """k = 2, eps = 1, delta in {1, 1/2}: at the smallest n with gamma <= 1 the exact delta at e^eps is far
    below delta. gamma is rounded up to a Fraction (a larger blanket is a post-processing, hence private)
    and e^eps is rounded down to 27/10 (delta(eps) is non-increasing in eps)."""
    # Smallest n with max{28 log(2/delta)/(n-1), 54/(n-1)} <= 1, plus one for the reference's upward rounding.
    n = next(n for n in range(2, 200) if 14 * 2 * math.log(2 / delta) / (n - 1) < 1 and 54 / (n - 1) < 1)
    gamma_bound = theorem_3_1_gamma(eps=1.0, n=n, delta=delta, k=2)
    assert gamma_bound.direction == "upper_bound" and gamma_bound.lower < gamma_bound.upper
    g = gamma_bound.value
    gamma = Fraction(g).limit_denominator(100) + Fraction(1, 100)
    r = blanket_krr_randomizer(2, min(gamma, Fraction(1)))
    assert exact_shuffled_delta(r, n, Fraction(27, 10)) <= Fraction(delta)
    eps0_bound = theorem_3_1_eps0(eps=1.0, n=n, delta=delta, k=2)
    assert eps0_bound.direction == "lower_bound" and eps0_bound.lower < eps0_bound.upper
    eps0 = eps0_bound.value
    # eps0 = log(1 + k(1-gamma)/gamma) at the reference's gamma, rounded down.
    assert eps0 <= math.log1p(2 * (1 - g) / g) and math.isclose(eps0, math.log1p(2 * (1 - g) / g), rel_tol=1e-12)


def test_summation_exact_moments_per_user():
    """For rational x, the per-user message distribution is finite: E[(y/k - gamma/2)/(1-gamma)] = x exactly
    (unbiasedness of Alg 3) and the per-user squared error is at most the Thm 4.1 bound's share."""
    for k, gamma in ((4, Fraction(3, 10)), (10, Fraction(1, 7))):
        for x in (Fraction(0), Fraction(1, 3), Fraction(7, 10), Fraction(1)):
            low = math.floor(x * k)
            frac = x * k - low
            rounded = {low: 1 - frac} if frac == 0 else {low: 1 - frac, low + 1: frac}
            message: dict[int, Fraction] = {}
            for v, p in rounded.items():
                for y in range(k + 1):
                    message[y] = message.get(y, Fraction(0)) + p * ((1 - gamma) * (y == v) + gamma / (k + 1))
            estimate = {y: (Fraction(y, k) - gamma / 2) / (1 - gamma) for y in message}
            dist = Distribution(message)
            assert dist.expectation(lambda y: estimate[y]) == x
            per_user = dist.expectation(lambda y: (estimate[y] - x) ** 2)
            assert per_user <= (Fraction(1, 4 * k * k) + gamma / 2) / (1 - gamma) ** 2


def test_summation_simulation_unbiased_and_within_mse_bound():
    """R runs x n users, fixed seed. Per-user errors e_i = (y_i/k - gamma/2)/(1-gamma) - x_i are independent,
    mean 0 and lie in an interval of width w = 1/(1-gamma); Hoeffding over N = R n of them gives
    Pr[|mean e| >= w sqrt(log(2/p)/(2N))] <= p. Their squares lie in [0, w^2], and MSE/n = E[e_i^2] on
    average, so Pr[mean e^2 >= bound/n + w^2 sqrt(log(1/p)/(2N))] <= p. With p = 1e-10 each, the test's
    false-failure probability is below 2e-10."""
    rng = np.random.default_rng(20190531)
    n, runs, k, gamma = 200, 2000, 8, 0.25
    x = rng.random(n)
    y = summation_randomizer(np.broadcast_to(x, (runs, n)), gamma=gamma, k=k, rng=rng)
    errors = (y / k - gamma / 2) / (1 - gamma) - x
    count, w, p = errors.size, 1 / (1 - gamma), 1e-10
    assert abs(errors.mean()) <= w * math.sqrt(math.log(2 / p) / (2 * count))
    bound = summation_mse_bound(n=n, gamma=gamma, k=k)
    assert (errors**2).mean() <= bound / n + w**2 * math.sqrt(math.log(1 / p) / (2 * count))
    # The protocol's output is the sum of the per-user estimates (Alg 3 = debiased sum).
    z = summation_protocol(x[:5], gamma=gamma, k=k, rng=np.random.default_rng(1))
    again = summation_randomizer(x[:5], gamma=gamma, k=k, rng=np.random.default_rng(1))
    assert math.isclose(z, float(((again / k - gamma / 2) / (1 - gamma)).sum()), rel_tol=1e-12)


def _unit_randomizers(k):
    """Exact randomizers from X_k to a grid of outputs in [0, 1]."""
    points = midpoints(k)
    outputs = [Fraction(j, 2 * k) for j in range(2 * k + 1)]
    return st.lists(st.lists(st.integers(0, 6), min_size=len(outputs), max_size=len(outputs)).filter(sum), min_size=k, max_size=k).map(
        lambda rows: Randomizer({x: Distribution({o: Fraction(w, sum(row)) for o, w in zip(outputs, row, strict=True)}) for x, row in zip(points, rows, strict=True)})
    )


@settings(max_examples=25)
@given(st.integers(2, 4).flatmap(lambda k: st.tuples(st.just(k), _unit_randomizers(k))))
def test_lemmas_4_1_4_2_4_4_on_exact_randomizers(case):
    k, r = case
    prior = uniform(list(midpoints(k)))
    # Lemma 4.4 (reconstructed): E[(R(D) - D)^2] >= min{...}.
    second = sum(p * (Fraction(y) - x) ** 2 for x in midpoints(k) for y, p in r(x).items()) / k
    assert second >= lemma_4_4_bound(r, k)
    # Lemma 4.2: n-user MSE = n E[e^2] + n(n-1) E[e]^2 >= n E[e^2], checked against enumeration at n = 2.
    brute = Fraction(0)
    for x1, x2 in itertools.product(midpoints(k), repeat=2):
        for (y1, p1), (y2, p2) in itertools.product(r(x1).items(), r(x2).items()):
            brute += Fraction(1, k * k) * p1 * p2 * (y1 + y2 - x1 - x2) ** 2
    assert iid_summation_mse(r, prior, 2) == brute >= 2 * second
    # Lemma 4.1: the posterior mean has the least MSE among post-processings (here: identity, 1/2).
    f = posterior_mean_map(r, prior)
    best = iid_summation_mse(r, prior, 3, f)
    assert best <= iid_summation_mse(r, prior, 3) and best <= iid_summation_mse(r, prior, 3, {y: Fraction(1, 2) for y in f})


@settings(max_examples=15)
@given(st.integers(2, 3).flatmap(lambda k: st.tuples(st.just(k), _unit_randomizers(k))), st.integers(2, 4), st.sampled_from([Fraction(1, 8), Fraction(1, 20)]))
def test_lemma_4_5_inequality_and_instantiation(case, n, delta):
    """Inequality (1) with datasets (x',...,x') vs (x, x',...,x') and the event 'no output in I_x', at the
    exact e^eps of the shuffled randomizer for this pair at delta; then the derived floor."""
    from shuffle_spec.reference.finite.divergences import min_e_eps_for_delta

    k, r = case
    p = interval_probabilities(r, k)
    points = midpoints(k)
    for x, xp in itertools.permutations(points, 2):
        d1 = shuffled_distribution(r, [xp] * n)
        d2 = shuffled_distribution(r, [x] + [xp] * (n - 1))
        e_eps = min_e_eps_for_delta(d1, d2, delta)
        if e_eps == math.inf:
            continue
        lhs = (1 - p[(xp, x)]) ** n
        assert lhs <= e_eps * (1 - p[(x, x)]) * (1 - p[(xp, x)]) ** (n - 1) + delta
        if p[(x, x)] >= 1 - 1 / (2 * e_eps):
            assert p[(xp, x)] >= lemma_4_5_cross_probability_floor(n=n).value
