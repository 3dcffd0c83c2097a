"""The FFT path of BBGN19 Lemma 5.3's blanket sum with every blanket size in one inverse FFT
(`reference.bounds.blanket_powers`, statement BBGN19.Lem5.3.exact_randomizer): above the exact weighted sum of
E[(L_1 + ... + L_N)_+] (enumeration of the multinomial counts, `brute_force_expectation`), and against the
per-size path it replaces (one certified FFT per size, `fft_count_expectation_upper`): both are upper bounds of the
same sum; the batched one is not bit-identical (one grid step, window and cutoff for all sizes) and stays within
the stated tolerance of it. Replace-one relation (the Lemma's)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from shuffle_spec.proofs_checks.derived.blanket_exact_randomizer import brute_force_expectation
from shuffle_spec.reference.bounds import blanket_exact_randomizer as ber
from shuffle_spec.reference.bounds.blanket_powers import mixture_positive_part_upper, rounded_grid
from shuffle_spec.reference.numerics.binomial import UNIT
from shuffle_spec.reference.numerics.lattice_sums import U1

# Four groups (not product form): the FFT path.
MU_X = [Fraction(4, 10), Fraction(3, 10), Fraction(2, 10), Fraction(1, 10)]
MU_X2 = [Fraction(1, 10), Fraction(2, 10), Fraction(3, 10), Fraction(4, 10)]
OMEGA = [Fraction(2, 10), Fraction(2, 10), Fraction(3, 10), Fraction(3, 10)]
# The 5 x 5 "next value" matrix (keep w.p. 2/5, next w.p. 3/10, each other value 1/10): 4 groups per pair.
NEXT = [[Fraction(2, 5) if j == i else Fraction(3, 10) if j == (i + 1) % 5 else Fraction(1, 10) for j in range(5)] for i in range(5)]


def _inputs(groups, eps):
    brackets = ber._coefficient_brackets(groups, eps)
    return [hi for _, hi, _ in brackets], ber._probability_upper(groups)


@pytest.mark.parametrize("eps", [0.0, 0.1, 0.4])
def test_weighted_sum_is_above_the_enumerated_one(eps):
    groups = ber.group_outputs(MU_X, MU_X2, OMEGA)
    assert len(groups) == 4
    sizes = [1, 2, 4, 7, 12]
    weights = [0.3, 0.05, 0.2, 0.1, 0.35]
    exact = sum(w * brute_force_expectation(n, groups, eps) for n, w in zip(sizes, weights, strict=True))
    l_hi, p_hi = _inputs(groups, eps)
    upper = mixture_positive_part_upper(l_hi, p_hi, sizes, weights)
    assert upper is not None
    # Randomized rounding adds a small variance (as the per-size path's test: 2e-3 relative).
    assert exact <= upper <= exact * (1 + 2e-3) + 1e-10


def test_pair_delta_contains_the_lemma_at_tiny_n():
    """Lemma 5.3's sum from its definition, sum_N C(n, N) gamma^N (1 - gamma)^(n - N) E[(L_1 + ... + L_N)_+] /
    (gamma n), by enumeration, is below the batched FFT path's certified upper end."""
    randomizer = ber.finite_randomizer(NEXT)
    gamma = float(randomizer.gamma)
    n = 7
    for eps in (0.05, 0.3):
        groups = ber.pair_groups(randomizer, 0, 1)
        assert len(groups) > 3 and ber.product_form(groups) is None
        value = sum(math.comb(n, m) * gamma**m * (1 - gamma) ** (n - m) * brute_force_expectation(m, groups, eps) for m in range(1, n + 1)) / (gamma * n)
        got = ber.blanket_pair_delta(randomizer, 0, 1, n=n, eps=eps)
        assert value <= got.upper * (1 + 1e-12)
        assert got.upper <= value * (1 + 2e-3) + 1e-10


@pytest.mark.parametrize("n", [40, 100])
def test_batched_blanket_sum_against_the_per_size_sum(n, monkeypatch):
    """The same certified blanket sum through the per-size FFTs (blanket_sum without the mixture) and the batched
    one: both upper bounds; within 1e-5 relative where the value is far above the FFT round-off floor (~1e-10 here),
    and at most 10% above it near the floor (measured: the batched one is 0-36% below there)."""
    randomizer = ber.finite_randomizer(NEXT)
    original = ber.blanket_sum

    def per_size(*args, mixture=None, **kwargs):
        return original(*args, **kwargs)

    for eps in (0.0, 0.2, 0.5):
        batched = ber.blanket_pair_delta(randomizer, 0, 1, n=n, eps=eps, delta_hint=1e-17).upper
        monkeypatch.setattr(ber, "blanket_sum", per_size)
        single = ber.blanket_pair_delta(randomizer, 0, 1, n=n, eps=eps, delta_hint=1e-17).upper
        monkeypatch.setattr(ber, "blanket_sum", original)
        if single > 1e-7:
            assert abs(batched / single - 1) <= 1e-5, (eps, batched, single)
        else:
            assert batched <= single * 1.1, (eps, batched, single)


def test_no_positive_coefficient_gives_zero():
    assert mixture_positive_part_upper([-0.5, -0.1], [0.5, 0.5], [3, 5], [0.5, 0.5]) == 0.0


def test_zero_weights_are_skipped_but_the_powers_continue():
    groups = ber.group_outputs(MU_X, MU_X2, OMEGA)
    l_hi, p_hi = _inputs(groups, 0.1)
    both = mixture_positive_part_upper(l_hi, p_hi, [3, 6], [0.0, 1.0])
    alone = mixture_positive_part_upper(l_hi, p_hi, [6], [1.0])
    exact = brute_force_expectation(6, groups, 0.1)
    assert both is not None and alone is not None
    assert exact <= both <= exact * (1 + 2e-3) + 1e-10
    assert exact <= alone <= exact * (1 + 2e-3) + 1e-10


def test_sizes_in_any_order():
    groups = ber.group_outputs(MU_X, MU_X2, OMEGA)
    l_hi, p_hi = _inputs(groups, 0.2)
    forward = mixture_positive_part_upper(l_hi, p_hi, [2, 5, 9], [0.2, 0.3, 0.5])
    backward = mixture_positive_part_upper(l_hi, p_hi, np.array([9, 5, 2]), [0.5, 0.3, 0.2])
    assert forward == backward


# The circulant 3 x 3 matrix (examples/circulant3.json): the pair (0, 2) has two positive coefficients for
# eps < log(3/2); its lattice interval cancels at the larger blanket sizes, whose part of the sum then comes from
# the batched FFT.
CIRCULANT = [[Fraction(5, 10), Fraction(3, 10), Fraction(2, 10)], [Fraction(2, 10), Fraction(5, 10), Fraction(3, 10)], [Fraction(3, 10), Fraction(2, 10), Fraction(5, 10)]]


def test_cancelled_lattice_sizes_are_marked():
    groups = ber.group_outputs(CIRCULANT[0], CIRCULANT[2], [Fraction(1, 3)] * 3)
    opened: list[int] = []
    lo, hi = ber.count_expectations([5, 40], groups, 0.4, opened=opened)
    assert opened == [1]  # N = 40 cancels, N = 5 does not
    exact = brute_force_expectation(40, groups, 0.4)
    assert lo[1] <= exact <= hi[1]


def test_cancelled_sizes_through_the_batched_fft_contain_the_lemma(monkeypatch):
    """Lemma 5.3's sum at n = 60 from its definition (enumeration, as above) is below the certified upper end with
    the cancelled sizes batched; that end is within 2e-4 relative of the per-size one (each cancelled size its own
    FFT; the same floats as before the batching) or below it."""
    randomizer = ber.finite_randomizer(CIRCULANT)
    gamma = float(randomizer.gamma)
    n, eps = 60, 0.4
    groups = ber.pair_groups(randomizer, 0, 2)
    value = sum(math.comb(n, m) * gamma**m * (1 - gamma) ** (n - m) * brute_force_expectation(m, groups, eps) for m in range(1, n + 1)) / (gamma * n)
    batched = ber.blanket_pair_delta(randomizer, 0, 2, n=n, eps=eps).upper
    original = ber.blanket_sum

    def per_size(*args, mixture=None, **kwargs):
        return original(*args, **kwargs)

    monkeypatch.setattr(ber, "blanket_sum", per_size)
    single = ber.blanket_pair_delta(randomizer, 0, 2, n=n, eps=eps).upper
    assert value <= batched * (1 + 1e-12)
    assert batched <= single * (1 + 2e-4)


@pytest.mark.parametrize("eps", [0.05, 0.4])
def test_fft_only_pair_value_contains_the_lemma(eps):
    """blanket_pair_fft_delta (the batched FFT for every size, also for 3 groups) is above Lemma 5.3's sum from
    its definition (enumeration) and within 5e-3 relative of it (the randomized rounding's variance: 2.0e-3 measured
    at eps = 0.4) where the value is far above the round-off floor."""
    randomizer = ber.finite_randomizer(CIRCULANT)
    gamma = float(randomizer.gamma)
    n = 30
    for x2 in (1, 2):
        groups = ber.pair_groups(randomizer, 0, x2)
        value = sum(math.comb(n, m) * gamma**m * (1 - gamma) ** (n - m) * brute_force_expectation(m, groups, eps) for m in range(1, n + 1)) / (gamma * n)
        got = ber.blanket_pair_fft_delta(randomizer, 0, x2, n=n, eps=eps).upper
        assert value <= got * (1 + 1e-12)
        assert ber.groups_fft_delta(n, randomizer.gamma, groups, eps=eps).upper == got  # the same sum from gamma and the groups
        assert got <= value * (1 + 5e-3) + 1e-10


@pytest.mark.parametrize("eps", [0.3, 1.2])
def test_the_one_rounded_grid_dominates_l_in_convex_order_for_both_callers_units(eps):
    # The randomized rounding of the two callers (this module's batched sum: unit = UNIT; the per-size FFT path of
    # blanket_exact_randomizer: unit = U1 = 1.001 UNIT) on the four groups of (MU_X, MU_X2, OMEGA): each group's
    # rounded law has total mass at least its p_hi and conditional mean at least its l_hi (E[L' | L] >= L, module doc
    # of blanket_exact_randomizer), both in exact Fractions of the floats; the grid of all groups is the sum of the
    # groups' (the same points); the U1 grid is the UNIT one's or above point by point (the per-size path's floats
    # at or above the batched one's: the safe side).
    groups = ber.group_outputs(MU_X, MU_X2, OMEGA)
    l_hi, p_hi = _inputs(groups, eps)
    l_hi, p_hi = np.asarray(l_hi, dtype=float), np.asarray(p_hi, dtype=float)
    h = 2.0**-12
    for unit in (UNIT, U1):
        for value, mass in zip(l_hi, p_hi, strict=True):
            lo, masses = rounded_grid(np.array([value]), np.array([mass]), h, unit=unit)
            total = sum(Fraction(float(m)) for m in masses)
            assert total >= Fraction(float(mass))
            mean = sum(Fraction(float(m)) * (lo + i) * Fraction(h) for i, m in enumerate(masses)) / total
            assert mean >= Fraction(float(value))
    (lo_u, m_u), (lo_1, m_1) = (rounded_grid(l_hi, p_hi, h, unit=unit) for unit in (UNIT, U1))
    assert lo_u == lo_1 and len(m_u) == len(m_1) and bool(np.all(m_1 >= m_u))
