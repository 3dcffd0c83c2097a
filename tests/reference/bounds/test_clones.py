"""FMT21.clones_numeric: the per-count cutoff (check F1), the certified interval against a 50-digit
mpmath recomputation, the APPLE / check F3 values, soundness against exact shuffled privacy,
monotonicity, the eps0 inversion and robustness. Expected numbers: the statements' recorded cross-checks of FMT21
(full version, arXiv:2012.12803: Thm 2.1 and the numerical bound of Appendix E), recomputed here where stated."""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_spec.reference.bounds.clones import (
    clones_delta,
    clones_eps0_for_eps,
    clones_numeric,
    per_count_divergence,
    per_count_divergence_bounds,
)
from shuffle_spec.reference.finite.shuffling import exact_shuffled_e_eps
from support.clones_mp import mp_clones_delta, mp_delta_by_walk, mp_per_count
from support.strategies import ldp_randomizers


@pytest.fixture(autouse=True)
def _fifty_digits():
    """This module's mpmath computations run at 50 digits; the precision is restored after each test."""
    with mpmath.workdps(50):
        yield


def test_cutoff_formula_matches_the_definition_check_f1():
    # fmt21.md check F1 grid: c in {0,1,2,5,17,100}, eps0 in {0.3,2,6}, eps in {0.01,0.1,0.29}.
    for c in (0, 1, 2, 5, 17, 100):
        for eps0 in (0.3, 2.0, 6.0):
            for eps in (0.01, 0.1, 0.29):
                lower, upper = per_count_divergence_bounds(np.array([c]), eps0=eps0, eps=eps)
                exact = mp_per_count(c, mpmath.mpf(eps0), mpmath.mpf(eps))
                assert lower[0] <= exact <= upper[0], (c, eps0, eps)
                # tightness of the proven bracket (B = a1 b - (e^eps - 1) F cancels up to ~z^2): 1e-8 relative
                assert upper[0] - lower[0] <= 1e-8 * max(float(exact), 1e-300) + 1e-290


def test_per_count_divergence_is_non_increasing_in_c_check_f2():
    c = np.arange(0, 3000)
    for eps0, eps in ((0.5, 0.05), (2.0, 0.3), (6.0, 1.0), (1.0, 0.001)):
        b = per_count_divergence(c, eps0=eps0, eps=eps)
        assert np.all(np.diff(b) <= 1e-12 * b[:-1] + 1e-300)


def test_divergence_vanishes_at_eps0():
    assert np.all(per_count_divergence(np.arange(50), eps0=1.5, eps=1.5) == 0)


@settings(max_examples=6)
@given(n=st.integers(2, 40), eps0=st.sampled_from([0.3, 1.0, 2.5]), frac=st.sampled_from([0.05, 0.3, 0.7]))
def test_certified_delta_contains_mpmath_value(n, eps0, frac):
    eps = eps0 * frac
    got = clones_delta(eps0=eps0, n=n, eps=eps)
    exact = mp_clones_delta(n, mpmath.mpf(eps0), mpmath.mpf(eps))
    assert got.lower <= exact <= got.upper


@settings(max_examples=5)
@given(n=st.integers(5, 60), eps0=st.sampled_from([0.5, 1.0, 3.0]), delta=st.sampled_from([1e-2, 1e-4]))
def test_certified_eps_interval_contains_the_exact_eps(n, eps0, delta):
    result = clones_numeric(eps0=eps0, n=n, delta=delta)
    # The exact eps is the crossing of the mpmath delta curve: above delta below the interval, at most delta at its top.
    assert mp_clones_delta(n, mpmath.mpf(eps0), mpmath.mpf(result.upper)) <= delta
    if result.lower > 0:
        assert mp_clones_delta(n, mpmath.mpf(eps0), mpmath.mpf(result.lower)) > delta


@pytest.mark.parametrize(
    "n, eps0, delta, expected",
    [  # fmt21.md check F3, column "clones num" (5 decimals)
        (100_000, 4.0, 1e-6, 0.16977),
        (10_000, 1.0, 1e-6, 0.05301),
        (1_000_000, 6.0, 1e-6, 0.14929),
        (100_000, 0.5, 1e-8, 0.00811),
        (10_000, 3.0, 1e-5, 0.27342),
        (1_000_000, 8.0, 1e-6, 0.44447),
    ],
)
def test_check_f3_values(n, eps0, delta, expected):
    result = clones_numeric(eps0=eps0, n=n, delta=delta)
    assert result.lower - 5e-6 <= expected <= result.upper + 5e-6
    assert result.upper - result.lower <= 5e-3 * result.upper


def test_apple_readme_example_inside_the_published_bracket():
    # APPLE README: n=1e5, eps0=4, delta=1e-6, T=10, S=100 gives eps in [0.16754, 0.17279].
    result = clones_numeric(eps0=4.0, n=100_000, delta=1e-6)
    assert 0.16754 <= result.lower <= result.upper <= 0.17279


@settings(max_examples=12)
@given(data=ldp_randomizers(max_inputs=3, max_outputs=3), n=st.integers(2, 3), delta=st.sampled_from([Fraction(1, 10), Fraction(1, 100)]))
def test_clones_bound_is_at_least_the_exact_central_eps(data, n, delta):
    randomizer, e_eps0 = data
    exact_e = exact_shuffled_e_eps(randomizer, n, delta)
    eps0 = math.nextafter(math.log(e_eps0), math.inf)  # the randomizer is e_eps0-LDP, so eps0-LDP
    bound = clones_numeric(eps0=eps0, n=n, delta=float(delta))
    assert math.exp(bound.upper) * (1 + 1e-12) >= exact_e


def test_monotone_in_n_eps0_delta():
    base = clones_numeric(eps0=2.0, n=20_000, delta=1e-6).upper
    assert clones_numeric(eps0=2.0, n=40_000, delta=1e-6).upper <= base
    assert clones_numeric(eps0=2.5, n=20_000, delta=1e-6).upper >= base
    assert clones_numeric(eps0=2.0, n=20_000, delta=1e-5).upper <= base


def test_eps0_inversion_is_verified_and_nearly_tight():
    eps0 = clones_eps0_for_eps(eps=0.1, n=100_000, delta=1e-6)
    # The returned eps0 certifies (0.1, 1e-6): its certified delta_clones(0.1) is at most 1e-6 ...
    assert clones_delta(eps0=eps0, n=100_000, eps=0.1).upper <= 1e-6
    # ... and it is nearly the largest: 1% more eps0 certifiably needs more than 1e-6.
    assert clones_delta(eps0=eps0 * 1.01, n=100_000, eps=0.1).lower > 1e-6


def test_almost_no_amplification_at_tiny_n():
    # delta_clones is continuous with delta_clones(eps0) = 0, so the exact eps is just below eps0 here.
    result = clones_numeric(eps0=8.0, n=50, delta=1e-6)
    assert 8.0 * (1 - 1e-5) <= result.upper <= 8.0


# (0.1, 1e12, 1e-6): a full solve over windows of ~1e7 counts, minutes on a loaded machine: slow tier. The default
# tier keeps a full solve at n = 1e12 (eps0 = 30) and one streamed evaluation of a window that size
# (test_clones_memory.test_memory_stays_bounded_at_n_1e12).
@pytest.mark.parametrize("eps0, n, delta", [(30.0, 10**12, 1e-30), pytest.param(0.1, 10**12, 1e-6, marks=pytest.mark.slow), (30.0, 10, 1e-30), (0.01, 2, 0.5)])
def test_robust_at_extreme_parameters(eps0, n, delta):
    result = clones_numeric(eps0=eps0, n=n, delta=delta)
    assert math.isfinite(result.upper) and 0 <= result.lower <= result.upper <= eps0


# ---- Speed: one walk for both cutoff candidates, certified points placed by an estimate ----

from shuffle_spec.reference.numerics.binomial import probability_pair  # noqa: E402
from shuffle_spec.reference.bounds.clones import _clone_pair, _coefficients, _cutoff_paths, solve_epsilon, window_tail  # noqa: E402


def test_ambiguous_cutoff_evaluated_from_the_same_walk_contains_the_definition():
    # eps0 = log 4, eps = log 1.5 make beta = (e^eps0 - e^eps)/((e^eps + 1)(e^eps0 - 1)) = 1/3 exactly in the
    # reals, so floor(beta (c+1)) is ambiguous in floats at every c+1 divisible by 3: the t+1 candidate path.
    eps0, eps = math.log(4.0), math.log(1.5)
    c = np.arange(0, 60)
    t_low, t_high = _cutoff_paths(c.astype(float), _coefficients(eps0, eps)[2])
    assert np.any(t_high == t_low + 1)  # the case under test really occurs
    lower, upper = per_count_divergence_bounds(c, eps0=eps0, eps=eps)
    for i in range(len(c)):
        exact = mp_per_count(int(c[i]), mpmath.mpf(eps0), mpmath.mpf(eps))
        assert lower[i] <= exact <= upper[i], int(c[i])
        assert upper[i] - lower[i] <= 1e-8 * max(float(exact), 1e-300) + 1e-290


# FMT21 at n = 1e6 (2-3 s of CPU) is the second tier's; the default tier keeps FMT23 at n = 1e6 and FMT21 at 3e5.
@pytest.mark.parametrize(
    "kind, n, eps0, delta",
    [pytest.param("fmt21", 10**6, 1.0, 1e-6, marks=pytest.mark.slow), ("fmt23", 10**6, 4.0, 1e-8), ("fmt21", 3 * 10**5, 0.3, 1e-7)],
)
def test_certified_interval_at_large_n_against_a_50_digit_walk(kind, n, eps0, delta):
    pair = _clone_pair(eps0, n, probability_pair(kind, eps0), window_tail(delta))
    result = solve_epsilon(pair.delta_bounds, eps0=eps0, delta=delta, guess=pair.guess_epsilon(delta))
    assert 0 < result.lower < result.upper < eps0 and result.upper - result.lower <= 1e-7 * result.upper
    # The exact crossing lies inside: delta(upper) <= target < delta(lower) in 50 digits (the sum over
    # +- 12 sd is within 1e-30 of the exact delta, far below the 1e-7 relative step between the two ends).
    assert mp_delta_by_walk(kind, n, eps0, result.upper) + mpmath.mpf(10) ** -30 <= delta
    assert mp_delta_by_walk(kind, n, eps0, result.lower) > delta
    # ... and the certified delta bracket at the returned upper end contains the 50-digit value.
    d_low, d_up = pair.delta_bounds(result.upper)
    exact = mp_delta_by_walk(kind, n, eps0, result.upper)
    assert d_low <= exact <= d_up


@pytest.mark.parametrize("n, eps0, delta", [(30, 1.0, 1e-3), (12, 3.0, 1e-2), (40, 0.5, 1e-4)])
def test_a_wrong_guess_never_changes_what_is_certified(n, eps0, delta):
    pair = _clone_pair(eps0, n, probability_pair("fmt21", eps0), window_tail(delta))
    plain = solve_epsilon(pair.delta_bounds, eps0=eps0, delta=delta)
    for guess in (None, pair.guess_epsilon(delta), 0.5 * plain.upper, 2.0 * plain.upper, eps0 * (1 - 1e-12), 1e-12):
        got = solve_epsilon(pair.delta_bounds, eps0=eps0, delta=delta, guess=guess)
        assert got.upper - got.lower <= 1e-7 * got.upper
        assert max(got.lower, plain.lower) <= min(got.upper, plain.upper)  # both contain the exact eps
        assert mp_clones_delta(n, mpmath.mpf(eps0), mpmath.mpf(got.upper)) <= delta
        assert got.lower == 0 or mp_clones_delta(n, mpmath.mpf(eps0), mpmath.mpf(got.lower)) > delta


@pytest.mark.parametrize("kind, n, eps0, eps", [("fmt21", 10**9, 1.0, 1.527e-4), ("fmt23", 10**6, 2.0, 0.012), ("fmt21", 10**7, 8.0, 0.16)])
def test_the_uncertified_estimate_tracks_the_certified_value(kind, n, eps0, eps):
    # Sampled (n = 1e9: two counts per block) and walked (every count) estimates: within 1e-6 relative of the
    # certified bracket, which is what lets two certified points around its root settle the answer.
    pair = _clone_pair(eps0, n, probability_pair(kind, eps0), 1e-20)
    d_low, d_up = pair.delta_bounds(eps)
    assert d_up > 1e-12
    assert abs(pair.estimate(eps) - 0.5 * (d_low + d_up)) <= 1e-6 * d_up


@pytest.mark.parametrize("eps0", [0.5, 4.0])
def test_at_most_four_certified_evaluations_at_n_1e7(eps0, monkeypatch):
    # Work per eps(delta): the estimate's root is certified by 2 evaluations (counted, not timed).
    import shuffle_spec.reference.bounds.clones as clones_module

    calls = []
    original = clones_module._ClonePair.delta_bounds
    monkeypatch.setattr(clones_module._ClonePair, "delta_bounds", lambda self, eps: calls.append(eps) or original(self, eps))
    result = clones_numeric(eps0=eps0, n=10**7, delta=1e-6)
    assert 0 < result.lower < result.upper < eps0
    assert len(calls) <= 4
