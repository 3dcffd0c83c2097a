"""EFMRSTT20 Lemma II.6 (shuffled binary RR), its inverse, Thm III.1's closed form, and Thm II.7
(Bun-Steinke advanced composition) with its inverse: soundness against exact privacy."""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shuffle_spec.reference.composition.bun_steinke import advanced_composition_epsilon, advanced_composition_largest_eps
from shuffle_spec.reference.bounds.shuffled_rr_cheu import (
    lemma_ii5_hypotheses_hold,
    shuffled_rr_epsilon,
    shuffled_rr_epsilon_for_lambda,
    shuffled_rr_largest_eps0,
    shuffled_rr_max_eps0,
)
from shuffle_spec.reference.core.errors import HypothesisViolation
from shuffle_spec.reference.protocols.attribute_fragmenting import att_frag_central_epsilon
from shuffle_spec.reference.finite.randomizers import binary_randomized_response
from shuffle_spec.reference.finite.shuffling import exact_shuffled_delta



def _binom_pmf(x, m, p):
    """scipy.stats.binom's pmf, imported on first use: SciPy's stats package costs every test worker ~1 s to
    collect, and only this file's tests need it."""
    from scipy.stats import binom

    return binom.pmf(x, m, p)

def _shuffled_rr_delta(n: int, e_eps0: float, eps: float) -> float:
    """delta(eps) of n shuffled binary RR reports, worst case over the neighbouring datasets
    (m ones + 0) vs (m ones + 1): the count is Bin(m, keep) + Bin(n-1-m, flip) + the differing bit.
    Float convolutions; the values compared against are far from the rounding error (~1e-15)."""
    keep = e_eps0 / (1 + e_eps0)
    worst = 0.0
    multiplier = math.exp(eps)
    # Every binomial pmf in two calls (row m: Bin(m, keep) and Bin(n-1-m, flip) at 0..n-1, 0 beyond the size): the
    # same elementwise values as one call per m, without SciPy's per-call overhead (half of the draw's time).
    sizes, counts = np.arange(n)[:, None], np.arange(n)[None, :]
    kept, flipped = _binom_pmf(counts, sizes, keep), _binom_pmf(counts, sizes[::-1], 1 - keep)
    for m in range(n):
        base = np.convolve(kept[m, : m + 1], flipped[m, : n - m])
        with_zero = np.convolve(base, [keep, 1 - keep])  # the differing bit is 0: reports 1 w.p. flip
        with_one = np.convolve(base, [1 - keep, keep])
        worst = max(worst, np.maximum(with_zero - multiplier * with_one, 0).sum(), np.maximum(with_one - multiplier * with_zero, 0).sum())
    return float(worst)


def test_lemma_ii6_against_exact_fractions_small_n():
    # n = 60, e^eps0 = 2, delta = 0.3: inside the range (lambda = 40 >= 14 log(4/0.3) = 36.3). The exact
    # delta of the shuffled RR at Lemma II.6's eps (exact Fractions, rational e^eps below the bound) <= delta.
    n, e, delta = 60, Fraction(2), 0.3
    bound = shuffled_rr_epsilon(eps0=math.log(2), n=n, delta=delta).value
    e_bound = Fraction(math.exp(bound) * (1 - 1e-12))  # a rational multiplier below e^bound: delta only grows
    assert exact_shuffled_delta(binary_randomized_response(e), n, e_bound) <= Fraction(delta)


LEMMA_II6_POINTS = dict(
    n=st.integers(300, 1500),
    e_eps0=st.floats(1.05, 6.0),
    log10_delta=st.floats(-6, -1),
)


# Each draw convolves n pairs of binomials (~0.25 s): 5 derandomized draws in the default tier (beside the exact
# Fractions at n = 60 above), 12 in the second tier (the same check, more points).
@settings(max_examples=5)
@given(**LEMMA_II6_POINTS)
def test_lemma_ii6_is_an_upper_bound_on_exact_shuffled_rr(n, e_eps0, log10_delta):
    _assert_lemma_ii6_above_the_float_delta(n, e_eps0, log10_delta)


@pytest.mark.slow
@settings(max_examples=12)
@given(**LEMMA_II6_POINTS)
def test_lemma_ii6_is_an_upper_bound_on_exact_shuffled_rr_at_more_points(n, e_eps0, log10_delta):
    _assert_lemma_ii6_above_the_float_delta(n, e_eps0, log10_delta)


def _assert_lemma_ii6_above_the_float_delta(n, e_eps0, log10_delta) -> None:
    delta = 10**log10_delta
    try:
        eps = shuffled_rr_epsilon(eps0=math.log(e_eps0), n=n, delta=delta).value
    except HypothesisViolation:
        return  # outside the lambda range: nothing is claimed
    assert _shuffled_rr_delta(n, e_eps0, eps) <= delta


def test_lemma_ii6_refuses_outside_the_lambda_range_and_accepts_its_edge():
    n, delta = 10_000, 1e-6
    top = shuffled_rr_max_eps0(n=n, delta=delta)
    lam_min = 14 * math.log(4 / delta)
    assert abs(2 * n / (1 + math.exp(top)) - lam_min) < 1e-6 * lam_min
    shuffled_rr_epsilon(eps0=top * (1 - 1e-9), n=n, delta=delta)
    with pytest.raises(HypothesisViolation, match="14 log"):
        shuffled_rr_epsilon(eps0=top * (1 + 1e-9), n=n, delta=delta)


@given(eps0=st.floats(0.01, 8.0), n=st.integers(10**4, 10**9), delta=st.floats(1e-12, 1e-3))
def test_lemma_ii6_is_increasing_in_eps0_and_the_lambda_form_agrees(eps0, n, delta):
    try:
        low = shuffled_rr_epsilon(eps0=eps0, n=n, delta=delta).value
        high = shuffled_rr_epsilon(eps0=eps0 * 1.01, n=n, delta=delta).value
    except HypothesisViolation:
        return
    assert low <= high
    lam = 2 * n / (1 + math.exp(eps0))
    assert math.isclose(shuffled_rr_epsilon_for_lambda(lam=lam, n=n, delta=delta).value, low, rel_tol=1e-9)


@given(eps=st.floats(0.01, 2.0), n=st.integers(10**4, 10**9), delta=st.floats(1e-12, 1e-4))
def test_inverse_is_certified_and_nearly_tight(eps, n, delta):
    try:
        result = shuffled_rr_largest_eps0(eps=eps, n=n, delta=delta)
    except (HypothesisViolation, ValueError):
        return
    assert result.direction == "lower_bound" and result.value == result.lower <= result.upper <= result.lower * (1 + 1e-11)
    eps0 = result.value
    assert shuffled_rr_epsilon(eps0=eps0, n=n, delta=delta).value <= eps
    if eps0 < shuffled_rr_max_eps0(n=n, delta=delta) * (1 - 1e-9):
        assert shuffled_rr_epsilon(eps0=eps0 * (1 + 1e-9), n=n, delta=delta).value > eps * (1 - 1e-6)


@given(n=st.integers(10**3, 10**9), log10_delta=st.floats(-12, -2), u=st.floats(0, 1))
def test_thm_iii1_closed_form_dominates_eq1(n, log10_delta, u):
    # Thm III.1's proof: inside its hypotheses sqrt(64 e^eps0 log(4/delta)/n) >= Eq. (1) at lambda = 2n/(1+e^eps0).
    delta = 10**log10_delta
    top = math.log(n) - math.log(14 * math.log(4 / delta))
    if top <= 1:
        return
    eps0 = 1 + u * (top - 1) * (1 - 1e-9)
    assert att_frag_central_epsilon(eps0=eps0, n=n, delta=delta).value >= shuffled_rr_epsilon(eps0=eps0, n=n, delta=delta).value


def test_lemma_ii5_hypothesis():
    # eps0 <= log(n / log(1/delta)) / 2: n = 10^6, delta = 1e-6 -> log(10^6/13.8)/2 = 5.59.
    assert lemma_ii5_hypotheses_hold(eps0=5.5, n=10**6, delta=1e-6)
    assert not lemma_ii5_hypotheses_hold(eps0=5.7, n=10**6, delta=1e-6)


def _composed_rr_delta(eps: float, k: int, eps_total: float) -> mpmath.mpf:
    """Exact delta(eps_total) of k composed binary RR(eps) on inputs 0 vs 1 (the worst case of pure
    eps-DP composition): j agreements ~ Bin(k, p) vs Bin(k, 1-p), p = e^eps/(1+e^eps)."""
    with mpmath.workdps(50):
        p = mpmath.exp(eps) / (1 + mpmath.exp(eps))
        e = mpmath.exp(eps_total)
        total = mpmath.mpf(0)
        for j in range(k + 1):
            a = mpmath.binomial(k, j) * p**j * (1 - p) ** (k - j)
            b = mpmath.binomial(k, j) * (1 - p) ** j * p ** (k - j)
            total += max(a - e * b, 0)
        return total


@settings(max_examples=25)
@given(eps=st.floats(0.005, 1.0), k=st.integers(1, 300), log10_dp=st.floats(-9, -1))
def test_advanced_composition_is_sound_on_composed_rr(eps, k, log10_dp):
    delta_prime = 10**log10_dp
    try:
        total = advanced_composition_epsilon(eps=eps, k=k, delta_prime=delta_prime).value
    except HypothesisViolation:
        return
    assert _composed_rr_delta(eps, k, total) <= delta_prime


@given(eps_total=st.floats(0.05, 10.0), k=st.integers(1, 10_000), log10_dp=st.floats(-12, -1))
def test_advanced_composition_inverse_is_certified(eps_total, k, log10_dp):
    delta_prime = 10**log10_dp
    try:
        eps = advanced_composition_largest_eps(eps_total=eps_total, k=k, delta_prime=delta_prime).value
    except ValueError:
        return
    assert advanced_composition_epsilon(eps=eps, k=k, delta_prime=delta_prime).value <= eps_total
    assert advanced_composition_epsilon(eps=eps * (1 + 1e-9), k=k, delta_prime=delta_prime).value > eps_total * (1 - 1e-6)


def test_advanced_composition_value():
    # Thm II.7 at eps = 0.1, k = 10, delta' = 1e-6: 10*0.01/2 + sqrt(10)*0.1*sqrt(2 log(sqrt(5 pi)*0.1/1e-6)).
    expected = 0.05 + math.sqrt(10) * 0.1 * math.sqrt(2 * math.log(math.sqrt(math.pi * 10 / 2) * 0.1 / 1e-6))
    assert math.isclose(advanced_composition_epsilon(eps=0.1, k=10, delta_prime=1e-6).value, expected, rel_tol=1e-12)
