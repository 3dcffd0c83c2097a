"""The Laplace mechanism on [0, 1]: the exact blanket bound (BBGN19.Lem5.3.exact_laplace) and the pair
lower bound (exact.laplace_pair_x0) against exact values (n = 1: the Laplace profile 1 - e^{(eps - eps0)/2};
n = 2: Lemma 5.3 by quadrature), against each other, BBGN19's relaxations and the binned binary RR lower bound,
and the lattice laws' convex-order invariants."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_spec.reference.bounds import blanket_exact_laplace as blanket
from shuffle_spec.reference.bounds.bennett import bennett_laplace_delta, bennett_laplace_epsilon
from shuffle_spec.reference.bounds.hoeffding import hoeffding_laplace_epsilon
from shuffle_spec.reference.exact.binary_rr import binary_rr_pair_epsilon
from shuffle_spec.reference.lower_bounds import laplace as pair

REL = 1e-12


def profile(eps0: float, eps: float) -> float:
    """The Laplace mechanism's own privacy profile for inputs 0 vs 1: 1 - e^{(eps - eps0)/2} (eps <= eps0)."""
    return 1 - math.exp((eps - eps0) / 2)


def _e_pos(eps0: float, eps: float, a: mpmath.mpf) -> mpmath.mpf:
    """E[(L + a)_+] for the blanket L of the pair (0, 1), by its closed form in X (independent of the lattice
    code): E[(X - b)_+] = 2 - 2 sqrt(b/c) on [1/c, c], 2 - 1/c - b below, 0 above."""
    c, e = mpmath.exp(mpmath.mpf(eps0) / 2), mpmath.exp(mpmath.mpf(eps))

    def above(b):  # E[(X - b)_+]
        if b >= c:
            return mpmath.mpf(0)
        if b <= 1 / c:
            return 2 - 1 / c - b
        return 2 - 2 * mpmath.sqrt(b / c)

    def below(b):  # E[(b - X)_+] = b - E[X] + E[(X - b)_+]
        return b - (2 - 1 / c) + above(b)

    return (above(e / c - a) + e * below((1 / c + a) / e)) / 2


def _lemma_5_3_n2(eps0: float, eps: float) -> mpmath.mpf:
    """Lemma 5.3 at n = 2: (1/(2 gamma)) (2 gamma (1 - gamma) E[L_+] + gamma^2 E[(L_1 + L_2)_+]), the second term
    by quadrature over L_2's law (X density c^{-1/2} x^{-3/2}/2, atom 1/c at c)."""
    with mpmath.workdps(20):
        c, e = mpmath.exp(mpmath.mpf(eps0) / 2), mpmath.exp(mpmath.mpf(eps))
        g = 1 / c
        f = lambda x: x ** mpmath.mpf(-1.5) / (2 * mpmath.sqrt(c))
        kinks = sorted({1 / c, c} | {k for k in (e / c, 1 / (c * e), e * e / c, 1 / (c * e * e), (e + 1) / (c * e), (e + 1) / c) if 1 / c < k < c})
        left = mpmath.quad(lambda x: f(x) * _e_pos(eps0, eps, x - e / c), kinks) + _e_pos(eps0, eps, c - e / c) / c
        right = mpmath.quad(lambda x: f(x) * _e_pos(eps0, eps, 1 / c - e * x), kinks) + _e_pos(eps0, eps, 1 / c - e * c) / c
        pair_term = (left + right) / 2
        single = _e_pos(eps0, eps, mpmath.mpf(0))
        return (2 * g * (1 - g) * single + g * g * pair_term) / (2 * g)


@settings(max_examples=8, deadline=None)
@given(st.floats(min_value=0.1, max_value=5.0), st.floats(min_value=0.01, max_value=0.95))
def test_n1_both_intervals_contain_the_laplace_profile(eps0, fraction):
    eps = fraction * eps0
    exact = profile(eps0, eps)
    for got in (blanket.exact_blanket_laplace_delta(eps0=eps0, n=1, eps=eps), pair.laplace_pair_delta(eps0=eps0, n=1, eps=eps)):
        assert got.lower * (1 - REL) <= exact <= got.upper * (1 + REL), (exact, got)
        assert got.upper <= exact * 1.1 + 1e-300  # the lattice spread adds little (h = sd/8; most at n = 1)


@pytest.mark.parametrize("eps0,eps", [(1.0, 0.2), (3.0, 1.0)])
def test_n2_blanket_interval_contains_lemma_5_3_by_quadrature(eps0, eps):
    exact = float(_lemma_5_3_n2(eps0, eps))
    got = blanket.exact_blanket_laplace_delta(eps0=eps0, n=2, eps=eps)
    assert got.lower * (1 - 1e-9) <= exact <= got.upper * (1 + 1e-9), (exact, got)


@pytest.mark.parametrize("eps0,eps", [(8.0, 6.5)])
def test_n2_blanket_interval_on_the_tilted_step_contains_lemma_5_3_by_quadrature(eps0, eps):
    """Where the upper end's step follows the tilted law (much finer than the variance's: module doc, "The upper
    end's step"), its interval still contains the exact value, and is tight."""
    law = blanket._Law(math.exp(eps0 / 2), math.exp(eps))
    assert blanket._upper_step(law, blanket._step(law), math.exp(-eps0 / 2)) < blanket._step(law) / 4
    exact = float(_lemma_5_3_n2(eps0, eps))
    got = blanket.exact_blanket_laplace_delta(eps0=eps0, n=2, eps=eps)
    assert got.lower * (1 - 1e-9) <= exact <= got.upper * (1 + 1e-9), (exact, got)
    assert got.upper <= 1.05 * exact


@pytest.mark.parametrize("eps0,n,eps,gain", [(8.0, 1000, 5.0, 4.0), (8.0, 1000, 6.5, 100.0), (6.0, 300, 3.0, 1.2)])
def test_tilted_step_upper_end_between_the_lower_ends_and_the_variance_step(eps0, n, eps, gain):
    """Powers of 2: the variance's lattice is a sub-lattice of the tilted one, and spreading the finer spread law onto
    it is a further mean-preserving spread, so the variance step's upper end is at least the tilted one's (up to the
    margins); both are above the certified lower ends of the same delta and of the pair's."""
    law = blanket._Law(math.exp(eps0 / 2), math.exp(eps))
    h = blanket._step(law)
    gamma_lo, gamma_hi, _, log_norm_hi = blanket._brackets(eps0, n)
    offset, w = blanket._spread_masses(law, h)
    coarse = math.exp(blanket.log_positive_part_expectation(offset, w, (gamma_lo, gamma_hi), h, n, True, eps0) + log_norm_hi)
    got = blanket.exact_blanket_laplace_delta(eps0=eps0, n=n, eps=eps)
    assert got.upper <= coarse * (1 + 1e-9)
    assert got.upper < coarse / gain  # and the point of it (measured: 5.4x, 3000x and 1.3x tighter at these points)
    assert got.lower <= got.upper
    assert pair.laplace_pair_delta(eps0=eps0, n=n, eps=eps).lower <= got.upper


def test_closed_form_e_pos_agrees_with_the_profile():
    # The test's own helper against the n = 1 profile (so that a wrong helper cannot pass the n = 2 test).
    for eps0, eps in ((1.0, 0.3), (5.0, 2.0)):
        assert abs(float(_e_pos(eps0, eps, mpmath.mpf(0))) - profile(eps0, eps)) < 1e-14


@pytest.mark.parametrize("eps0,eps", [(0.5, 0.02), (1.0, 0.3), (4.0, 1.0), (8.0, 0.5)])
def test_lattice_laws_keep_mass_and_mean_and_order_the_variance(eps0, eps):
    """Upper law: a mean-preserving spread (same mean, variance up to h^2/4 more); lower law: mean-exact groups
    (same mean, variance not above the true one). The means are 1 - e^eps (shifted for the pair)."""
    law = blanket._Law(math.exp(eps0 / 2), math.exp(eps))
    h = blanket._step(law)
    mean, var = law.moments()
    for offset, w, upper in (blanket._spread_masses(law, h) + (True,), blanket._lower_masses(law, h, eps0, eps) + (False,)):
        s = (offset + np.arange(len(w))) * h
        m = float(np.sum(w * s))
        v = float(np.sum(w * s * s)) - m * m
        assert abs(float(np.sum(w)) - 1) < 1e-9
        assert abs(m - mean) < 1e-9 * max(1.0, abs(law.lmin))
        assert (var - 1e-9 <= v <= var + h * h / 4 + 1e-9) if upper else (v <= var + 1e-9)


@pytest.mark.parametrize("eps0,n,delta", [(1.0, 1000, 1e-6), (4.0, 300, 1e-4), (0.5, 20_000, 1e-8)])
def test_order_lower_bounds_exact_blanket_relaxations(eps0, n, delta):
    """binned binary RR <= pair lower end <= pair upper end <= exact blanket <= Bennett, Hoeffding (each a
    certified statement of the order: lower bounds below the truth, the relaxations above Lemma 5.3)."""
    up = blanket.exact_blanket_laplace_epsilon(eps0=eps0, n=n, delta=delta)
    low = pair.laplace_pair_x0_interval(eps0=eps0, n=n, delta=delta)
    binned = binary_rr_pair_epsilon(eps0=pair.binned_binary_rr_eps0(eps0=eps0), n=n, delta=delta).lower
    assert binned <= low.lower <= low.upper <= up.upper
    assert up.lower <= up.upper <= bennett_laplace_epsilon(eps0=eps0, n=n, delta=delta).value
    assert up.upper <= hoeffding_laplace_epsilon(eps0=eps0, n=n, delta=delta).value
    assert up.upper - up.lower <= 3e-2 * up.upper  # the certified interval is narrow
    assert pair.laplace_pair_x0_epsilon(eps0=eps0, n=n, delta=delta).value == low.lower


@settings(max_examples=6, deadline=None)
@given(st.floats(min_value=0.2, max_value=4.0), st.integers(min_value=2, max_value=3000), st.floats(min_value=0.05, max_value=0.9))
def test_delta_blanket_at_most_bennett_and_above_pair(eps0, n, fraction):
    eps = fraction * eps0
    up = blanket.exact_blanket_laplace_delta(eps0=eps0, n=n, eps=eps)
    low = pair.laplace_pair_delta(eps0=eps0, n=n, eps=eps)
    assert up.upper <= bennett_laplace_delta(eps=eps, eps0=eps0, n=n) * (1 + 1e-9) + 1e-300
    assert low.lower <= up.upper * (1 + 1e-9) + 1e-300


def test_monotone_in_eps_and_n():
    eps0 = 2.0
    deltas = [blanket.exact_blanket_laplace_delta(eps0=eps0, n=500, eps=e).upper for e in (0.1, 0.3, 0.6, 1.2)]
    assert all(a >= b for a, b in zip(deltas, deltas[1:], strict=False))
    epsilons = [blanket.exact_blanket_laplace_epsilon(eps0=eps0, n=m, delta=1e-6).upper for m in (100, 1000, 10_000)]
    assert epsilons[0] > epsilons[1] > epsilons[2]


def test_edges():
    assert blanket.exact_blanket_laplace_delta(eps0=1.0, n=100, eps=1.0).upper == 0.0
    assert blanket.exact_blanket_laplace_delta(eps0=1.0, n=100, eps=0.0).upper == 1.0
    assert pair.laplace_pair_delta(eps0=1.0, n=100, eps=1.5).upper == 0.0
    # delta so small that nothing certified below eps0: eps0 (never a smaller, unverified number).
    result = blanket.exact_blanket_laplace_epsilon(eps0=0.5, n=2, delta=1e-300)
    assert result.lower <= result.value == 0.5
    exact = 3.0 + 2 * math.log(1 - 1e-3)
    assert exact <= blanket.exact_blanket_laplace_epsilon(eps0=3.0, n=1, delta=1e-3).value <= 3.0


def test_high_precision_paths_at_n1_and_refusal_beyond():
    for fn in (blanket.exact_blanket_laplace_epsilon_mp, pair.laplace_pair_x0_epsilon_mp):
        low, high = fn(dps=40, eps0=0.5, n=1, delta=0.1)
        assert low == high and abs(float(low) - (0.5 + 2 * math.log(0.9))) < 1e-15
        with pytest.raises(ValueError, match="high-precision range"):
            fn(dps=40, eps0=0.5, n=2, delta=0.1)


def test_binned_binary_rr_eps0_matches_the_flip_probability():
    for eps0 in (0.5, 3.0):
        q = math.exp(-eps0 / 2) / 2
        value = pair.binned_binary_rr_eps0(eps0=eps0)
        assert value <= math.log((1 - q) / q) + 1e-15 and abs(value - math.log((1 - q) / q)) < 1e-13


def test_tightest_and_gap_for_laplace():
    from shuffle_spec.proofs_checks.bridge import UsageError
    from shuffle_spec.interface.tightest import tightest

    gap = tightest(randomizer="laplace", eps0=1.0, n=1000, delta=1e-6)
    # The worst-pair reduction is proven (proofs_checks/derived/blanket_exact_laplace.py): the exact blanket bound is a certified
    # upper bound and, being Lemma 5.3 unrelaxed, below Bennett/Hoeffding, so it is the tightest one chosen.
    assert gap.upper_id == "BBGN19.Lem5.3.exact_laplace"
    assert gap.lower_id == "exact.laplace_pair_x0"
    exact_upper = blanket.exact_blanket_laplace_epsilon(eps0=1.0, n=1000, delta=1e-6).upper
    assert gap.upper_eps == exact_upper
    others = [row["eps"] for row in gap.rows if row["valid"] and row["direction"] == "upper_bound" and row["id"] != gap.upper_id]
    assert all(exact_upper <= eps for eps in others)
    assert 1.0 <= gap.ratio < 1.25
    with pytest.raises(UsageError, match="unexpected parameter k"):
        tightest(randomizer="laplace", eps0=1.0, n=1000, delta=1e-6, k=3)


# The worst-pair reduction (proofs_checks/derived/blanket_exact_laplace.py, module doc): J_t(x, x') = E[(L^{x,x'} - t)_+] <= J_t(0, 1)
# for every t and pair. Tested in the ORIGINAL variables (t of both signs, e = e^eps >= 1: the t < 0 reduction is
# exercised too) on exact closed-form values, at points near the case boundaries of the proof.
def _j_orig(eps0: float, eps: float, x: float, xp: float, t: float) -> mpmath.mpf:
    from shuffle_spec.proofs_checks.derived.blanket_exact_laplace import exact_j

    # T = eps0 (w - 1/2): Lap(x, 1/eps0) -> Lap(eps0 (x - 1/2), 1), omega -> Lap(0, 1); J is invariant.
    return exact_j(mpmath.exp(mpmath.mpf(eps)), eps0 * (x - 0.5), eps0 * (xp - 0.5), t, dps=30)


def _boundary_points(eps0: float, eps: float) -> list[float]:
    """Pairs' first coordinates x near the proof's case boundaries on the edge x' = 1 (S1: e^{-m} = K, S2: e^m =
    e e^M + t), with the thresholds that put them in [0, 1]."""
    big_m, e = eps0 / 2, math.exp(eps)
    points = []
    for t in (0.0, 1e-6, 0.01, 0.3, 2.0):
        k = e * math.exp(-big_m) + t
        for m in (-math.log(k), math.log(e * math.exp(big_m) + t)):
            for shift in (-1e-7, 0.0, 1e-7):
                x = (m + shift) / eps0 + 0.5
                if 0 <= x <= 1:
                    points.append(x)
    return points


@pytest.mark.parametrize("eps0,eps", [(0.5, 0.0), (1.0, 0.3), (4.0, 1.0), (8.0, 0.05), (8.0, 7.9)])
def test_worst_pair_dominates_on_exact_values(eps0, eps):
    xs = sorted({0.0, 1e-9, 0.25, 0.5 - 1e-9, 0.5, 0.5 + 1e-9, 0.75, 1 - 1e-9, 1.0} | set(_boundary_points(eps0, eps)))
    e = math.exp(eps)
    # thresholds of both signs around the values of L for (0, 1) (range [1/c - e c, c - e/c], c = e^{eps0/2})
    c = math.exp(eps0 / 2)
    ts = [0.0, 1e-9, -1e-9, 0.5 * (c - e / c), (1 / c - e * c) * 0.5, -e, 1 - e, 0.99 * (c - e / c), 1 / c - e * c + 1e-6]
    with mpmath.workdps(30):
        for t in ts:
            worst = _j_orig(eps0, eps, 0.0, 1.0, t)
            assert _j_orig(eps0, eps, 1.0, 0.0, t) - worst == 0 or abs(_j_orig(eps0, eps, 1.0, 0.0, t) - worst) < mpmath.mpf(10) ** -25  # mirror
            for x in xs:
                for xp in (0.0, x, 1.0 - x, 1.0, 0.3):
                    value = _j_orig(eps0, eps, x, xp, t)
                    assert value <= worst * (1 + mpmath.mpf(10) ** -25) + mpmath.mpf(10) ** -28, (x, xp, t, value, worst)


def test_exact_j_against_quadrature_and_the_n1_profile():
    # The closed-form integral against the Laplace profile at t = 0 for the pair (0, 1): 1 - e^{(eps - eps0)/2}.
    for eps0, eps in ((1.0, 0.3), (6.0, 2.0)):
        assert abs(float(_j_orig(eps0, eps, 0.0, 1.0, 0.0)) - profile(eps0, eps)) < 1e-14
    # and against mpmath quadrature split at every kink and at the sign changes found by bisection-free sampling
    with mpmath.workdps(25):
        for eps0, eps, x, xp, t in ((2.0, 0.5, 0.8, 1.0, 0.1), (3.0, 0.2, 0.3, 0.1, -0.4)):
            m, mp_, e = eps0 * (x - 0.5), eps0 * (xp - 0.5), mpmath.exp(eps)
            f = lambda y: max(mpmath.exp(-abs(y - m)) / 2 - e * mpmath.exp(-abs(y - mp_)) / 2 - t * mpmath.exp(-abs(y)) / 2, 0)
            quad = mpmath.quad(f, sorted({-mpmath.inf, mpmath.inf} | {mpmath.mpf(k) / 32 for k in range(-160, 161)}))
            assert abs(quad - _j_orig(eps0, eps, x, xp, t)) < 1e-9


def test_edge_monotonicity_steps_of_the_proof():
    """Step 4 (J(-M, m') non-decreasing in m') and step 5 (J(m, M) non-increasing for m <= 0), for e above and
    below 1 (e < 1 is the t < 0 case after the swap) and t >= 0, on exact values."""
    from shuffle_spec.proofs_checks.derived.blanket_exact_laplace import exact_j

    big_m = 2.0
    grid = [-big_m + k * big_m / 20 for k in range(41)]
    for e in (math.exp(-3.5), 0.5, 1.0, 3.0):
        for t in (0.0, 0.05, 0.7):
            step4 = [exact_j(e, -big_m, mp_, t, dps=25) for mp_ in grid]
            step5 = [exact_j(e, m, big_m, t, dps=25) for m in grid if m <= 0]
            with mpmath.workdps(25):  # compare at the precision of the values (flat stretches are equal to ~1e-25)
                assert all(b >= a - mpmath.mpf(10) ** -20 for a, b in zip(step4, step4[1:], strict=False))
                assert all(b <= a + mpmath.mpf(10) ** -20 for a, b in zip(step5, step5[1:], strict=False))
                assert step4[-1] > step4[0] or step4[-1] == 0  # not trivially flat where the worst pair is positive
