"""EFMRSTT20 protocols: attribute fragmenting (Alg. 1, Thms III.1-III.2), randomized report deletion
(Alg. 3, Thms V.1-V.2) and LDP-SGD (Algs. 4-5)."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shuffle_spec.reference.finite.divergences import ldp_ratio
from shuffle_spec.reference.protocols.attribute_fragmenting import (
    attribute_fragmenting_estimate,
    attribute_fragmenting_report,
    attribute_fragmenting_run,
    attribute_fragmenting_sums,
    estimator_variance,
    k_rappor_absent_reference,
    k_rappor_randomizer,
)
from shuffle_spec.reference.protocols.ldp_sgd import (
    client_density,
    client_randomizer_1d,
    gradient_scale,
    ldp_sgd,
    ldp_sgd_client,
    printed_gradient_scale,
    sphere_sign_constant,
)
from shuffle_spec.reference.protocols.report_deletion import (
    deletion_bound,
    deletion_bound_failure_probability,
    randomized_report_deletion,
    released_counts_distribution,
    report_deletion_delta,
)
from shuffle_spec.reference.finite.divergences import removal_ldp_ratio

# ---------------------------------------------------------------- attribute fragmenting


@pytest.mark.parametrize("e", [Fraction(2), Fraction(7, 3)])
def test_debiased_bit_is_unbiased_with_the_exact_variance(e):
    # zeta = ((e+1) xhat - 1)/(e-1): E zeta = x, Var zeta = e/(e-1)^2 for x in {0, 1} (exact Fractions).
    keep = e / (1 + e)
    for x in (0, 1):
        law = {x: keep, 1 - x: 1 - keep}
        zeta = {b: ((e + 1) * b - 1) / (e - 1) for b in (0, 1)}
        mean = sum(law[b] * zeta[b] for b in (0, 1))
        variance = sum(law[b] * (zeta[b] - mean) ** 2 for b in (0, 1))
        assert mean == x
        assert variance == e / (e - 1) ** 2
    assert math.isclose(estimator_variance(eps0=math.log(e)), float(e / (e - 1) ** 2), rel_tol=1e-12)


def test_k_rappor_theorem_iii1_local_part():
    # Thm III.1: att-frag(k-RAPPOR) is removal eps0-LDP with R_0 = RR(all zeros) (exact, k = 5).
    e = Fraction(5, 2)
    assert removal_ldp_ratio(k_rappor_randomizer(5, e), k_rappor_absent_reference(5, e)) == e


def test_report_bits_match_the_onehot_rr():
    # 4000 reports of x = 2 in k = 5 with eps0 = 1: bit 2 is 1 w.p. e/(1+e), others w.p. 1/(1+e);
    # tolerance 6 binomial std (false failure < 1e-8 per coordinate).
    reports = np.array([attribute_fragmenting_report(2, k=5, eps0=1.0, seed=s) for s in range(4000)])
    keep = math.e / (1 + math.e)
    for j in range(5):
        target = keep if j == 2 else 1 - keep
        assert abs(reports[:, j].mean() - target) < 6 * math.sqrt(target * (1 - target) / 4000)


# 2 x 3000 simulated runs cost ~3.5 s of CPU: 1000 runs each in the default tier (the variance check's 0.15 is
# then 3.3 of its standard deviations, sqrt(2/1000)), 3000 in the second tier.
@pytest.mark.parametrize("runs", [1000, pytest.param(3000, marks=pytest.mark.slow)])
def test_binomial_sums_match_per_respondent_simulation_in_distribution(runs):
    # The per-attribute binomial sampling (how large domains run) has the same mean and variance as the
    # sum of per-respondent reports: n = 30 respondents, histogram (20, 10, 0); `runs` runs each, 6 std.
    hist = [20, 10, 0]
    keep = math.exp(1.5) / (1 + math.exp(1.5))
    fast = np.array([attribute_fragmenting_sums(hist, eps0=1.5, seed=s) for s in range(runs)])
    slow = np.array([sum(attribute_fragmenting_report(x, k=3, eps0=1.5, seed=10_000 + 97 * s + i) for i, x in enumerate([0] * 20 + [1] * 10)) for s in range(runs)])
    for j, c in enumerate(hist):
        mean = c * keep + (30 - c) * (1 - keep)
        var = 30 * keep * (1 - keep)
        for sample in (fast[:, j], slow[:, j]):
            assert abs(sample.mean() - mean) < 6 * math.sqrt(var / runs)
            assert abs(sample.var() - var) < 0.15 * var


def test_estimator_is_unbiased_on_a_large_histogram():
    # Map-sized run (Table II: 236,559,063 respondents over 2,795,520 cells) in seconds; the mean error
    # over cells is ~0 (std of the mean <= sqrt(e/(e-1)^2 / n / k)), and alpha is of Thm III.2's order.
    rng = np.random.default_rng(0)
    k, n = 2_795_520, 236_559_063
    hist = rng.multinomial(n, rng.dirichlet(np.ones(k) * 0.5))
    eps0 = 7.385
    estimate, alpha = attribute_fragmenting_run(hist, eps0=eps0, seed=1)
    errors = estimate - hist / n
    sd = math.sqrt(estimator_variance(eps0=eps0) / n)  # per-cell std (upper bound: flips dominate)
    assert abs(errors.mean()) < 6 * sd / math.sqrt(k)
    # Thm III.2 (Theta form, proof's reading): alpha ~ sqrt(log(k/beta)/(n e^eps0)); the per-cell std is
    # sqrt(e^eps0/(e^eps0-1)^2 / n) ~ sqrt(1/(n e^eps0)), so alpha lies between 1 and 3 x sd sqrt(2 log k).
    assert sd <= alpha <= 3 * sd * math.sqrt(2 * math.log(k))


def test_thm_iii2_error_scales_as_one_over_sqrt_n_e_eps():
    # Doubling eps0 by log(4) divides alpha by ~2 (alpha ~ e^{-eps0/2}); quadrupling n halves it.
    hist = np.full(10_000, 1_000)
    a = np.mean([attribute_fragmenting_run(hist, eps0=4.0, seed=s)[1] for s in range(10)])
    b = np.mean([attribute_fragmenting_run(hist, eps0=4.0 + math.log(4), seed=s)[1] for s in range(10)])
    c = np.mean([attribute_fragmenting_run(hist * 4, eps0=4.0, seed=s)[1] for s in range(10)])
    assert 1.7 < a / b < 2.3
    assert 1.7 < a / c < 2.3


def test_estimate_from_given_sums():
    # h = ((e+1)/(e-1)) S/n - 1/(e-1): S = n keep (the expected sum for x = 1 everywhere) gives 1.
    e = math.exp(2.0)
    n = 1000
    estimate = attribute_fragmenting_estimate([n * e / (1 + e), n / (1 + e)], n=n, eps0=2.0)
    assert np.allclose(estimate, [1.0, 0.0], atol=1e-12)


# ---------------------------------------------------------------- report deletion


def test_released_count_distribution_is_a_distribution_with_the_stated_abort_probability():
    # Abort iff Lap >= s + 1 (floor rounding): probability (delta/4) e^{-eps/2}.
    eps_cr, delta_cr = 1.0, 0.1
    law = released_counts_distribution(4, eps_cr=eps_cr, delta_cr=delta_cr)
    assert abs(float(sum(law.values())) - 1) < 1e-40
    assert math.isclose(float(law["abort"]), delta_cr / 4 * math.exp(-eps_cr / 2), rel_tol=1e-12)


@settings(max_examples=15)
@given(
    counts=st.lists(st.integers(0, 6), min_size=2, max_size=3),
    eps_cr=st.floats(0.2, 3.0),
    delta_cr=st.floats(1e-4, 0.5),
    data=st.data(),
)
def test_thm_v1_privacy_of_the_counts_exact(counts, eps_cr, delta_cr, data):
    # Neighbours: one report moves between two crowds, or one is added/removed. Exact delta at eps_cr <= delta_cr.
    i, j = data.draw(st.lists(st.integers(0, len(counts) - 1), min_size=2, max_size=2, unique=True))
    moved = list(counts)
    if moved[i] == 0:
        moved[i] += 1  # add one report instead
    else:
        moved[i] -= 1
        moved[j] += 1
    assert report_deletion_delta(counts, moved, eps_cr=eps_cr, delta_cr=delta_cr) <= delta_cr


def test_thm_v1_is_not_pure_dp():
    # The delta is needed: a crowd of 1 report can release n_hat = 1, impossible for a crowd of 0 (n_hat <= n_i
    # or abort), so delta(eps_cr) > 0 between these neighbours.
    assert report_deletion_delta([0, 3], [1, 3], eps_cr=1.0, delta_cr=0.1) > 0


def test_thm_v2_exact_failure_probability_and_simulation():
    # Exact bound on the failure probability <= delta_cr (here e^{eps/2} <= 4P), and a simulation: 2000
    # runs, P = 5 crowds, count of runs where some crowd loses more than the bound; the exact bound
    # 0.0082 gives at most ~16 expected; we allow the binomial 6-std upper tail.
    eps_cr, delta_cr, P = 1.0, 0.1, 5
    failure = deletion_bound_failure_probability(eps_cr=eps_cr, delta_cr=delta_cr, P=P)
    assert failure <= delta_cr
    bound = deletion_bound(eps_cr=eps_cr, delta_cr=delta_cr, P=P).value
    crowds = [list(range(c)) for c in (40, 50, 60, 70, 80)]
    violations = 0
    aborts = 0
    for seed in range(2000):
        kept = randomized_report_deletion(crowds, eps_cr=eps_cr, delta_cr=delta_cr, seed=seed)
        if kept is None:
            aborts += 1
            continue
        if any(len(c) - len(k) > bound for c, k in zip(crowds, kept, strict=True)):
            violations += 1
        assert all(set(k) <= set(c) for c, k in zip(crowds, kept, strict=True))
    assert violations <= 2000 * failure + 6 * math.sqrt(2000 * failure)
    # Abort rate: 1 - (1 - (delta/4) e^{-eps/2})^5 = 0.0748; 6-std band.
    abort_p = 1 - (1 - delta_cr / 4 * math.exp(-eps_cr / 2)) ** P
    assert abs(aborts - 2000 * abort_p) < 6 * math.sqrt(2000 * abort_p)


# ---------------------------------------------------------------- LDP-SGD


@pytest.mark.parametrize("e", [Fraction(3, 2), Fraction(4)])
def test_ldp_sgd_client_exact_in_one_dimension(e):
    # d = 1: the client is a finite randomizer on gradients in [-L, L] (and beyond: clipped); exactly
    # eps0-LDP, with ratio e attained at x = +-L, and B zhat unbiased for the clipped gradient.
    inputs = [Fraction(-3), Fraction(-1), Fraction(-1, 3), Fraction(0), Fraction(2, 5), Fraction(1), Fraction(7)]
    randomizer = client_randomizer_1d(inputs, L=1, e_eps0=e)
    assert ldp_ratio(randomizer) == e
    scale = (e + 1) / (e - 1)  # B for d = 1, L = 1: c_1 = 1
    assert math.isclose(gradient_scale(eps0=math.log(e), L=1.0, d=1), float(scale), rel_tol=1e-12)
    for x in inputs:
        law = randomizer(x)
        assert scale * (law[1] - law[-1]) == max(Fraction(-1), min(Fraction(1), x))


@settings(max_examples=30)
@given(
    d=st.integers(2, 6),
    eps0=st.floats(0.1, 5.0),
    g1=st.lists(st.floats(-3, 3), min_size=6, max_size=6),
    g2=st.lists(st.floats(-3, 3), min_size=6, max_size=6),
    w=st.lists(st.floats(-1, 1), min_size=6, max_size=6),
)
def test_ldp_sgd_client_density_ratio(d, eps0, g1, g2, w):
    # Alg. 4's output density at any unit w: ratio between two gradients <= e^eps0.
    wv = np.array(w[:d])
    if np.linalg.norm(wv) < 1e-3:
        return
    wv = wv / np.linalg.norm(wv)
    p1 = client_density(wv, g1[:d], eps0=eps0, L=1.0)
    p2 = client_density(wv, g2[:d], eps0=eps0, L=1.0)
    assert p1 <= math.exp(eps0) * p2 * (1 + 1e-12)


def test_sphere_constant_exact_values():
    # c_d = E|v_1|: d = 1 -> 1, d = 2 -> 2/pi, d = 3 -> 1/2 (v_1 uniform on [-1, 1]).
    assert math.isclose(sphere_sign_constant(1), 1.0, rel_tol=1e-14)
    assert math.isclose(sphere_sign_constant(2), 2 / math.pi, rel_tol=1e-14)
    assert math.isclose(sphere_sign_constant(3), 0.5, rel_tol=1e-14)
    # The printed Alg. 5 constant is 1/d of the unbiased one.
    for d in (1, 2, 5, 100):
        assert math.isclose(gradient_scale(eps0=1.0, L=2.0, d=d), d * printed_gradient_scale(eps0=1.0, L=2.0, d=d), rel_tol=1e-12)


# N = 20000 in the default tier: the printed constant's error (2/3 x 0.48 = 0.32 at the second coordinate) is
# still above 6 B/sqrt(N) = 0.184 (B = 4.33 at eps0 = 1, d = 3); N = 200000 (tolerance 0.058) in the second tier.
@pytest.mark.parametrize("N", [20_000, pytest.param(200_000, marks=pytest.mark.slow)])
def test_ldp_sgd_debiased_client_is_unbiased_by_simulation(N):
    # d = 3, |x| = 0.6 L: mean of B zhat over N reports; each coordinate of B zhat has std <= B,
    # so the mean is within 6 B/sqrt(N) of x except with probability < 2e-9 per coordinate. The printed
    # (1/d) constant fails the same test: its mean is x/3.
    rng = np.random.default_rng(11)
    x = np.array([0.36, -0.48, 0.0])
    eps0, L = 1.0, 1.0
    reports = np.array([ldp_sgd_client(x, eps0=eps0, L=L, seed=rng) for _ in range(N)])
    B = gradient_scale(eps0=eps0, L=L, d=3)
    mean = B * reports.mean(axis=0)
    tol = 6 * B / math.sqrt(N)
    assert np.all(np.abs(mean - x) < tol)
    printed = printed_gradient_scale(eps0=eps0, L=L, d=3) * reports.mean(axis=0)
    assert np.abs(printed - x).max() > tol


@pytest.mark.slow  # 4000 users x 30 steps (~4 s of CPU); the default tier keeps LDP-SGD's accounting (tests/interface/cli/test_compose.py) and its refusals
def test_ldp_sgd_server_decreases_a_convex_loss():
    # Alg. 5 on mean estimation, loss |theta - a_i|^2/2 clipped: the private model moves towards the
    # mean (1/2, 0) of the data from theta_0 = 0 (n = 4000, T = 30, eps0 = 2). Gradients th - a_i have norm
    # <= 1 near the optimum, so clipping at L = 1 leaves the optimum (1/2, 0) unchanged; noise of the final
    # step ~ c B/(sqrt(n) sqrt(T)) ~ 0.03 per coordinate, tolerance 0.1.
    points = np.array([[1.0, 0.0], [0.0, 0.0]] * 2000)
    theta = ldp_sgd(lambda th, i: th - points[i], n=4000, d=2, T=30, eps0=2.0, L=1.0, radius=1.0, seed=3)
    assert np.linalg.norm(theta - np.array([0.5, 0.0])) < 0.1
