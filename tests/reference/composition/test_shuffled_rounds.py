"""Certified composition of shuffled rounds (compose.clones, compose.stronger_clones,
compose.exact_binary_rr; shuffle_spec.reference.composition.shuffled_rounds): the issue's properties on exact small instances and on
monotonicity / comparison with the single-round bounds and advanced composition."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from shuffle_spec.reference.composition import shuffled_rounds as pld
from shuffle_spec.reference.numerics import pld as pld_engine
from shuffle_spec.reference.composition.advanced import advanced_composition_epsilon
from shuffle_spec.reference.bounds.clones import clones_numeric
from shuffle_spec.reference.bounds.stronger_clones import stronger_clones
from shuffle_spec.reference.finite.operations import product
from shuffle_spec.reference.finite.divergences import ldp_ratio, min_e_eps_for_delta
from shuffle_spec.reference.exact.binary_rr import shuffled_binary_rr
from shuffle_spec.reference.composition.shuffled_rounds import Round, composed_delta, composed_epsilon
from shuffle_spec.reference.finite.randomizers import Randomizer, binary_randomized_response, k_randomized_response
from shuffle_spec.reference.finite.shuffling import neighbouring_datasets, shuffled_distribution

DELTA = 1e-6


def _eps0_of(randomizer: Randomizer) -> float:
    """The randomizer's exact LDP eps0 as a float rounded up (an eps0-LDP randomizer is eps0'-LDP for eps0' >= eps0)."""
    ratio = ldp_ratio(randomizer)
    return math.nextafter(math.nextafter(math.log(ratio.numerator) - math.log(ratio.denominator), math.inf), math.inf)


def _exact_composed_e_eps(randomizer: Randomizer, n: int, rounds: int, delta: Fraction) -> Fraction:
    """The exact e^eps of `rounds` shuffled rounds on fixed neighbouring datasets, worst over all pairs:
    the T-fold product of the exact shuffled output distributions, by full enumeration."""
    worst = Fraction(1)
    for d, d2 in neighbouring_datasets(randomizer.inputs, n):
        p, q = shuffled_distribution(randomizer, d), shuffled_distribution(randomizer, d2)
        pt, qt = product(*([p] * rounds)), product(*([q] * rounds))
        worst = max(worst, min_e_eps_for_delta(pt, qt, delta))
    return worst


GENERIC = Randomizer.from_matrix([["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/6", "1/3", "1/2"]])


@pytest.mark.parametrize(
    "randomizer, n, rounds, delta",
    [
        (binary_randomized_response(Fraction(3)), 4, 3, Fraction(1, 20)),
        (k_randomized_response(3, Fraction(3)), 5, 2, Fraction(1, 10)),
        (GENERIC, 5, 2, Fraction(1, 10)),
    ],
    ids=["binary_rr", "3rr", "generic"],
)
def test_composed_pairs_bound_the_exact_composition(randomizer, n, rounds, delta):
    """Soundness: the composed clone pair (any eps0-LDP randomizer) and, for k-RR, the composed
    stronger-clone pair are >= the exact eps of the T-fold product of the exact shuffled outputs."""
    exact = math.log(_exact_composed_e_eps(randomizer, n, rounds, delta))
    eps0 = _eps0_of(randomizer)
    clones = composed_epsilon([Round("clones", eps0, n, rounds)], delta=float(delta))
    assert clones.upper >= exact
    assert clones.upper < 0.8 * rounds * eps0  # the instance is one where the pair amplifies (not the trivial T eps0)
    if randomizer is not GENERIC:
        stronger = composed_epsilon([Round("stronger_clones", eps0, n, rounds)], delta=float(delta))
        assert stronger.upper >= exact
        assert stronger.upper <= clones.upper * (1 + 1e-3)  # the stronger pair is the tighter one


@pytest.mark.parametrize("n, rounds", [(3, 2), (4, 3)])
def test_exact_binary_rr_interval_contains_the_exact_composition(n, rounds):
    """For n <= 40 every count k and both directions are composed: the interval contains the exact
    eps of the T-fold product (worst over all fixed neighbouring datasets), computed by enumeration."""
    e0 = Fraction(3)
    delta = Fraction(1, 20)
    exact = math.log(_exact_composed_e_eps(binary_randomized_response(e0), n, rounds, delta))
    value = composed_epsilon([Round("exact_binary_rr", math.log(3), n, rounds)], delta=float(delta))
    assert value.lower <= exact * (1 + 1e-12) and exact <= value.upper
    assert value.upper - value.lower <= 0.02 * value.upper


@pytest.mark.parametrize("eps0, n", [(1.0, 1000), (4.0, 1000)])
def test_one_round_reproduces_the_single_round_bound(eps0, n):
    """T = 1: the composed interval contains the single-round certified value and its upper end is
    within the discretisation (1%) above it."""
    single = clones_numeric(eps0=eps0, n=n, delta=DELTA)
    one = composed_epsilon([Round("clones", eps0, n, 1)], delta=DELTA)
    assert one.lower <= single.upper and single.lower <= one.upper
    assert one.upper <= single.upper * 1.01
    single_sc = stronger_clones(eps0=eps0, n=n, delta=DELTA)
    one_sc = composed_epsilon([Round("stronger_clones", eps0, n, 1)], delta=DELTA)
    assert one_sc.lower <= single_sc.upper and single_sc.lower <= one_sc.upper
    assert one_sc.upper <= single_sc.upper * 1.01


def test_one_round_of_the_exact_binary_rr_pair():
    """T = 1 at n <= 40 (every count composed): the interval meets the single-round exact value."""
    single = shuffled_binary_rr(eps0=2.0, n=30, delta=1e-3)
    one = composed_epsilon([Round("exact_binary_rr", 2.0, 30, 1)], delta=1e-3)
    assert one.lower <= single.upper and single.lower <= one.upper


@pytest.fixture(scope="module")
def clone_curve():
    rounds = (1, 3, 10, 30)
    return {t: composed_epsilon([Round("clones", 1.0, 2000, t)], delta=DELTA) for t in rounds}


def test_monotone_in_rounds_and_below_basic_and_advanced_composition(clone_curve):
    """Monotone in T; never above T eps0; never above advanced composition (EFMRTT19 Thm 2) of the same
    single-round bound (per-round delta/(2T), delta' = delta/2)."""
    values = [clone_curve[t].upper for t in sorted(clone_curve)]
    assert values == sorted(values)
    for t, value in clone_curve.items():
        assert value.upper <= t * 1.0
        single = clones_numeric(eps0=1.0, n=2000, delta=DELTA / (2 * t)).upper
        assert value.upper <= advanced_composition_epsilon(eps=single, k=t, delta_prime=DELTA / 2).value


# n up to 2000 in the default tier (0.9 s of CPU); up to 8000 in the second (n = 8000 alone takes 3.3 s).
@pytest.mark.parametrize("ns", [(500, 1000, 2000), pytest.param((2000, 4000, 8000), marks=pytest.mark.slow)], ids=["to_2000", "to_8000"])
def test_decreasing_in_n(ns):
    values = [composed_epsilon([Round("clones", 2.0, n, 20)], delta=DELTA).upper for n in ns]
    assert values[0] > values[1] > values[2]


def test_exact_binary_rr_lies_below_every_composed_generic_bound():
    for eps0, n, t in ((1.0, 1000, 10), (3.0, 2000, 30)):
        exact = composed_epsilon([Round("exact_binary_rr", eps0, n, t)], delta=DELTA)
        for pair in ("clones", "stronger_clones"):
            assert exact.lower <= composed_epsilon([Round(pair, eps0, n, t)], delta=DELTA).upper


def test_heterogeneous_rounds_agree_with_homogeneous_ones():
    """5 + 5 rounds = 10 rounds (the intervals meet); mixing eps0 lands between the homogeneous values."""
    ten = composed_epsilon([Round("clones", 1.0, 1000, 10)], delta=DELTA)
    split = composed_epsilon([Round("clones", 1.0, 1000, 5), Round("clones", 1.0, 1000, 5)], delta=DELTA)
    assert split.lower <= ten.upper and ten.lower <= split.upper
    mixed = composed_epsilon([Round("clones", 0.5, 1000, 5), Round("clones", 1.0, 1000, 5)], delta=DELTA)
    low = composed_epsilon([Round("clones", 0.5, 1000, 10)], delta=DELTA)
    assert low.upper < mixed.upper < ten.upper


def test_delta_interval_brackets_the_exact_delta():
    """composed_delta's interval contains the exact delta of the T-fold product (binary RR, every k)."""
    n, rounds, e0 = 4, 2, Fraction(3)
    randomizer = binary_randomized_response(e0)
    eps = 1.0
    exact = Fraction(0)
    from shuffle_spec.reference.finite.divergences import privacy_profile

    for d, d2 in neighbouring_datasets(randomizer.inputs, n):
        p, q = shuffled_distribution(randomizer, d), shuffled_distribution(randomizer, d2)
        pt, qt = product(*([p] * rounds)), product(*([q] * rounds))
        exact = max(exact, privacy_profile(pt, qt, math.exp(eps)))
    value = composed_delta([Round("exact_binary_rr", math.log(3), n, rounds)], eps=eps)
    assert value.lower <= float(exact) <= value.upper
    generic = composed_delta([Round("clones", _eps0_of(randomizer), n, rounds)], eps=eps)
    assert generic.upper >= float(exact)


def test_finer_grid_moves_the_value_by_less_than_one_percent():
    coarse = composed_epsilon([Round("clones", 1.0, 1000, 30)], delta=DELTA)
    fine = composed_epsilon([Round("clones", 1.0, 1000, 30)], delta=DELTA, refine=10)
    # A finer power-of-2 grid contains the coarse one, so its rounded-up losses are pointwise smaller: never
    # looser, up to the root finder's relative tolerance (the returned ends are verified points 1e-6 apart).
    assert fine.upper <= coarse.upper * (1 + 2 * pld.EPS_REL_TOL)
    assert coarse.upper <= fine.upper * 1.01


def test_clone_pair_is_symmetric():
    """The clone pair's loss distribution is the same in both directions (swap maps P to Q): the loss
    values at a and c+1-a are opposite and P(a) = Q(c+1-a), checked on the reference's arrays."""
    for c in (0, 1, 7, 50):
        x = np.arange(0, c + 2, dtype=float)
        lo, hi = pld._clone_losses(x, c, math.exp(1.3))
        mid = 0.5 * (lo + hi)
        assert np.allclose(mid, -mid[::-1], atol=1e-12)
        assert np.all(lo <= hi)


def test_fft_round_off_assumption_holds_with_margin():
    """The FFT error model (module doc of reference/numerics/pld.py, point 4): ||fl(F x) - F x||_2 <= C_FFT log2(N) u ||F x||_2, checked
    against a long-double FFT (scipy.fft) on random non-negative vectors; the measured constant is far below."""
    scipy_fft = pytest.importorskip("scipy.fft")
    rng = np.random.default_rng(7)
    for size in (2**10, 2**14, 2**16):
        x = rng.random(size) ** 8
        x /= x.sum()
        ref = scipy_fft.rfft(x.astype(np.longdouble))
        got = np.fft.rfft(x)
        err = float(np.sqrt(np.sum(np.abs(got.astype(np.clongdouble) - ref) ** 2)))
        scale = float(np.sqrt(np.sum(np.abs(ref) ** 2)))
        bound = pld_engine.C_FFT * math.log2(size) * 2.0**-53 * scale
        assert err <= bound / 4


def _exact_clone_pair(n: int, e0: Fraction, clone_probability: Fraction):
    """The clone pair (P, Q) over outputs (c, x) as exact distributions: c ~ Bin(n-1, q), then
    P_c(x) = alpha b_c(x-1) + (1-alpha) b_c(x), Q_c(x) = (1-alpha) b_c(x-1) + alpha b_c(x), alpha = e0/(e0+1)."""
    from shuffle_spec.reference.finite.distributions import Distribution

    alpha = e0 / (e0 + 1)
    p, q = {}, {}
    for c in range(n):
        weight = math.comb(n - 1, c) * clone_probability**c * (1 - clone_probability) ** (n - 1 - c)

        def b(x: int) -> Fraction:
            return Fraction(math.comb(c, x), 2**c) if 0 <= x <= c else Fraction(0)

        for x in range(c + 2):
            p[(c, x)] = weight * (alpha * b(x - 1) + (1 - alpha) * b(x))
            q[(c, x)] = weight * ((1 - alpha) * b(x - 1) + alpha * b(x))
    return Distribution(p), Distribution(q)


@pytest.mark.parametrize("pair, clone_probability", [("clones", Fraction(1, 3)), ("stronger_clones", Fraction(2, 4))])
def test_interval_contains_the_exact_composed_clone_pair(pair, clone_probability):
    """The whole pipeline on the pair itself: the exact eps of the T-fold product of the exact clone pair
    (e^eps0 = 3, n = 5, T = 3; FMT21 q = 1/3, FMT23 q = 2/(3+1)) lies in the certified interval."""
    n, rounds, delta = 5, 3, Fraction(1, 10)
    p, q = _exact_clone_pair(n, Fraction(3), clone_probability)
    exact = math.log(min_e_eps_for_delta(product(*([p] * rounds)), product(*([q] * rounds)), delta))
    value = composed_epsilon([Round(pair, math.log(3), n, rounds)], delta=float(delta))
    assert value.lower <= exact <= value.upper
    assert value.upper - value.lower <= 0.01 * value.upper


@pytest.mark.parametrize("pessimistic", [True, False])
def test_delta_at_an_epsilon_whose_exponential_overflows_is_the_exact_sum_within_its_error(pessimistic):
    """delta(eps) of a composed PLD at eps > 709 (e^eps overflows a double; T = 1e6 rounds reach it): the
    certified end against the sum of v_j (1 - e^{eps - s_j}) at 50 digits, and no OverflowError."""
    import mpmath

    from shuffle_spec.reference.numerics.pld import ComposedPLD

    values = np.array([0.25, 0.25, 0.125, 0.125, 0.25])
    start, step = 708, 1.0  # losses 708, 709, ..., 712
    composed = ComposedPLD(step, start, values, 0.0, 0.0, 0.0, 0.0, pessimistic, 1000.0)
    for eps in (708.5, 709.5, 710.25, 711.9, 712.5):
        with mpmath.workdps(50):
            exact = sum(mpmath.mpf(v) * (1 - mpmath.exp(mpmath.mpf(eps) - (start + j) * step)) for j, v in enumerate(values) if (start + j) * step > eps)
        got = composed.delta(eps)
        if pessimistic:
            assert got >= exact and got <= exact * (1 + 1e-9) + 1e-300, (eps, got, exact)
        else:
            assert got <= exact and got >= exact * (1 - 1e-9), (eps, got, exact)


@pytest.mark.slow  # ~11 s of CPU; the default tier composes the same pair at fewer rounds (tests above)
def test_a_million_rounds_compose_to_a_finite_certified_epsilon():
    """T = 1e6 rounds (the top of the supported range) of the clone pair at eps0 = 1, n = 10: a certified
    interval below basic composition's T eps0 (it used to end in OverflowError in delta(eps) at eps > 709)."""
    result = composed_epsilon([Round("clones", 1.0, 10, 10**6)], delta=1e-6)
    assert math.isfinite(result.upper) and 0 < result.lower <= result.upper < 10**6


def test_a_schedule_is_bounded_in_entries_and_in_total_rounds():
    """Every entry point (API, CLI file) meets the same limits, in the reference: at most 1000 entries (each
    costs its own pair PLD) and 1e6 rounds in all, refused in one line naming `rounds`."""
    from shuffle_spec.reference.core.errors import ParameterError

    with pytest.raises(ParameterError, match="at most 1000 entries"):
        composed_epsilon([Round("clones", 1.0, 10, 1)] * 1001, delta=1e-6)
    with pytest.raises(ParameterError, match="a total of at most"):
        composed_epsilon([Round("clones", 1.0, 10, 600_000)] * 2, delta=1e-6)


def test_the_cached_clone_windows_cannot_be_edited_in_place():
    """The Bin(c, 1/2) windows are cached and shared by later calls: an in-place edit would change what they certify."""
    from shuffle_spec.reference.composition import shuffled_rounds

    for window in (shuffled_rounds._exact_half_window(10), shuffled_rounds._tail_half_window(5000, 1e-30)):
        for values in (window.pmf, window.rel, window.lower, window.upper):
            with pytest.raises(ValueError, match="read-only"):
                values[0] = 1.0
