"""FMT23.stronger_clones: the errata class, soundness on small k-RR against the full shuffled distribution,
the ordering exact binary RR <= stronger clones <= clones (checks F4, F6 / N10), the low-confidence closed form."""

import math
from fractions import Fraction

import pytest

from shuffle_spec.reference.bounds.clones import EPS_REL_TOL, clones_delta, clones_numeric
from shuffle_spec.reference.bounds.stronger_clones import (
    is_in_stronger_clone_class,
    stronger_clones,
    stronger_clones_delta,
    stronger_clones_for_randomizer,
)
from shuffle_spec.reference.core.errors import HypothesisViolation
from shuffle_spec.reference.exact.binary_rr import binary_rr_pair_epsilon, shuffled_binary_rr
from shuffle_spec.reference.finite.randomizers import Randomizer, binary_randomized_response, k_randomized_response
from shuffle_spec.reference.finite.shuffling import exact_shuffled_delta, exact_shuffled_e_eps


def test_krr_and_binary_rr_are_in_the_errata_class():
    for k in (2, 3, 5):
        for e in (Fraction(3, 2), Fraction(3), Fraction(20)):
            assert is_in_stronger_clone_class(k_randomized_response(k, e))


def test_a_randomizer_outside_the_class_is_refused():
    # e^eps0 = 4 (ratio 1/2 : 1/8 in column 0), but column 1 has min 1/2 * 5 = 5/2 < 3/4 + 7/8: fine;
    # column 0: min 1/8 * 5 = 5/8 < 1/2 + 1/4 = 3/4: outside the class.
    outside = Randomizer.from_matrix([[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 4), Fraction(3, 4)], [Fraction(1, 8), Fraction(7, 8)]])
    assert not is_in_stronger_clone_class(outside)
    with pytest.raises(HypothesisViolation, match="errata class"):
        stronger_clones_for_randomizer(outside, n=10, delta=1e-3)


@pytest.mark.parametrize("k, e_eps0, n, delta", [(2, Fraction(3), 4, Fraction(1, 20)), (3, Fraction(4), 3, Fraction(1, 10)), (3, Fraction(2), 4, Fraction(1, 50)), (4, Fraction(8), 3, Fraction(1, 10))])
def test_stronger_clones_at_least_the_exact_central_eps_of_krr(k, e_eps0, n, delta):
    randomizer = k_randomized_response(k, e_eps0)
    exact_e = exact_shuffled_e_eps(randomizer, n, delta)
    bound = stronger_clones_for_randomizer(randomizer, n=n, delta=float(delta))
    assert math.exp(bound.upper) * (1 + 1e-12) >= exact_e


@pytest.mark.parametrize(
    "k, eps0, n, eps, exact, sc, clones",
    [  # fmt21.md check F4 (4 decimals): exact shuffled k-RR delta <= stronger clones <= clones
        (3, 2.0, 6, 0.3, 0.3818, 0.4171, 0.5208),
        (2, 1.5, 8, 0.2, 0.1913, 0.2323, 0.3103),
        (4, 3.0, 5, 0.5, 0.6632, 0.7229, 0.7913),
    ],
)
def test_check_f4_delta_ordering(k, eps0, n, eps, exact, sc, clones):
    sc_delta = stronger_clones_delta(eps0=eps0, n=n, eps=eps)
    clone_delta = clones_delta(eps0=eps0, n=n, eps=eps)
    assert abs(sc_delta.upper - sc) <= 5e-5 and abs(clone_delta.upper - clones) <= 5e-5
    if k == 2:  # binary RR: the exact shuffled delta from the full distribution is small enough to compute here
        truth = exact_shuffled_delta(binary_randomized_response(math.exp(eps0)), n, math.exp(eps))
        assert abs(float(truth) - exact) <= 5e-5
    assert exact <= sc_delta.lower and sc_delta.upper <= clone_delta.lower


@pytest.mark.parametrize("eps0", [0.1, 1.0, 4.0, 8.0])
@pytest.mark.parametrize("n", [10**3, 10**5, 10**7])
@pytest.mark.parametrize("delta", [1e-6])
def test_exact_binary_rr_below_stronger_clones_below_clones(eps0, n, delta):
    # The certified worst case at n = 1e3; above, the exact pair k = 0 (a lower bound on it, cheap at any n).
    exact = shuffled_binary_rr(eps0=eps0, n=n, delta=delta) if n <= 10**3 else binary_rr_pair_epsilon(eps0=eps0, n=n, delta=delta)
    sc = stronger_clones(eps0=eps0, n=n, delta=delta)
    clones = clones_numeric(eps0=eps0, n=n, delta=delta)
    # The intervals are consistent with exact <= stronger clones <= clones (each lower end is below the next
    # upper end), and the upper ends are ordered up to the certified intervals' own width (EPS_REL_TOL
    # relative: near eps = eps0, e.g. n = 1e3, eps0 = 8, all three lie within 2e-7 of each other).
    assert exact.lower <= sc.upper and sc.lower <= clones.upper  # no valid bound below the truth
    # (exact.shuffled_binary_rr is certified to 1e-6 relative: its own width is allowed too.)
    assert exact.upper <= sc.upper * (1 + EPS_REL_TOL) + (exact.upper - exact.lower) and sc.upper <= clones.upper * (1 + EPS_REL_TOL)


@pytest.mark.parametrize("n, eps0, exact, sc, clones", [(10_000, 1.0, 0.0357, 0.0432, 0.0530), (10_000, 4.0, 0.3146, 0.4108, 0.6009), (100_000, 2.0, 0.0247, 0.0332, 0.0450)])
def test_check_f6_values(n, eps0, exact, sc, clones):
    # fmt21.md check F6 (delta = 1e-6), printed to 3-4 digits: half a unit of the last printed digit.
    for value, expected in ((shuffled_binary_rr(eps0=eps0, n=n, delta=1e-6), exact), (stronger_clones(eps0=eps0, n=n, delta=1e-6), sc), (clones_numeric(eps0=eps0, n=n, delta=1e-6), clones)):
        digits = 4 if expected >= 0.1 else 3
        half_unit = 0.5 * 10 ** (math.floor(math.log10(expected)) - digits + 1)
        assert value.lower - half_unit <= expected <= value.upper + half_unit


def test_apple_point_stronger_clones_check_f3():
    # fmt21.md check F3 column "sc num": n=1e5, eps0=4, delta=1e-6 -> 0.11815.
    result = stronger_clones(eps0=4.0, n=100_000, delta=1e-6)
    assert result.lower - 5e-6 <= 0.11815 <= result.upper + 5e-6


def test_monotone_in_n_eps0_delta():
    base = stronger_clones(eps0=2.0, n=20_000, delta=1e-6).upper
    assert stronger_clones(eps0=2.0, n=40_000, delta=1e-6).upper <= base
    assert stronger_clones(eps0=2.5, n=20_000, delta=1e-6).upper >= base
    assert stronger_clones(eps0=2.0, n=20_000, delta=1e-5).upper <= base
