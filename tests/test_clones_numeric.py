"""FMT21.clones_numeric: the per-count cutoff (check F1), the certified interval against a 50-digit
mpmath recomputation, the APPLE / check F3 values, soundness against exact shuffled privacy,
monotonicity, the eps0 inversion and robustness. Expected numbers: shared/statements/fmt21.md."""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.bounds.clones import (
    clones_delta,
    clones_eps0_for_eps,
    clones_numeric,
    per_count_divergence,
    per_count_divergence_bounds,
)
from reference.shuffling import exact_shuffled_e_eps
from strategies import ldp_randomizers

mpmath.mp.dps = 50


def mp_per_count(c: int, eps0, eps) -> mpmath.mpf:
    """D_{e^eps}(P_c || Q_c) by the definition: sum over a of the positive parts (50 digits)."""
    e0, e = mpmath.exp(eps0), mpmath.exp(eps)
    alpha = e0 / (e0 + 1)
    b = [mpmath.binomial(c, a) / mpmath.mpf(2) ** c for a in range(c + 1)]
    total = mpmath.mpf(0)
    for a in range(c + 2):
        here = b[a] if a <= c else 0
        prev = b[a - 1] if a >= 1 else 0
        p, q = alpha * here + (1 - alpha) * prev, (1 - alpha) * here + alpha * prev
        total += max(p - e * q, 0)
    return total


def mp_clones_delta(n: int, eps0, eps, clone_probability=None) -> mpmath.mpf:
    q = mpmath.exp(-mpmath.mpf(eps0)) if clone_probability is None else clone_probability
    return mpmath.fsum(mpmath.binomial(n - 1, c) * q**c * (1 - q) ** (n - 1 - c) * mp_per_count(c, eps0, eps) for c in range(n))


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


@pytest.mark.parametrize("eps0, n, delta", [(30.0, 10**12, 1e-30), (0.1, 10**12, 1e-6), (30.0, 10, 1e-30), (0.01, 2, 0.5)])
def test_robust_at_extreme_parameters(eps0, n, delta):
    result = clones_numeric(eps0=eps0, n=n, delta=delta)
    assert math.isfinite(result.upper) and 0 <= result.lower <= result.upper <= eps0
