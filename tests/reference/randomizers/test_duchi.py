"""Duchi et al.'s one-dimensional mechanism: its shuffled central epsilon is shuffled binary randomized
response's. Checked against exact Fractions by full enumeration over real inputs at small n."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from shuffle_spec.reference.finite.randomizers import Randomizer
from shuffle_spec.reference.finite.shuffling import exact_shuffled_e_eps
from shuffle_spec.reference.randomizers import duchi

F = Fraction


def _duchi_rows(e0: Fraction, inputs: list[Fraction]) -> list[list[Fraction]]:
    # Pr[+B | t] = 1/2 + t (e0 - 1) / (2 (e0 + 1)) (DJW18 Sec. 4.2.3).
    return [[F(1, 2) + t * (e0 - 1) / (2 * (e0 + 1)), F(1, 2) - t * (e0 - 1) / (2 * (e0 + 1))] for t in inputs]


@pytest.mark.parametrize("n, delta", [(3, F(1, 10)), (4, F(1, 100))])
def test_enclosure_brackets_exact_real_input_datasets(n, delta):
    # e0 = the float e^1 as an exact rational (the mechanism at eps0 = 1 as a float computes it); inputs +-1 and
    # two interior points. The exact worst case over all datasets of these inputs is <= the upper end, and with the
    # inputs +-1 (binary RR) it is >= the lower end (both up to 1e-12 relative: e0 vs e^1.0 differ by < 1 ulp).
    e0 = F(math.exp(1.0))
    value = duchi.duchi_epsilon(eps0=1.0, n=n, delta=float(delta))
    mixed = math.log(exact_shuffled_e_eps(Randomizer.from_matrix(_duchi_rows(e0, [F(-1), F(-1, 3), F(1, 2), F(1)])), n, delta))
    extremes = math.log(exact_shuffled_e_eps(Randomizer.from_matrix(_duchi_rows(e0, [F(-1), F(1)])), n, delta))
    assert mixed <= value.upper * (1 + 1e-12)
    assert value.lower <= extremes * (1 + 1e-12)
    assert extremes <= value.upper * (1 + 1e-12) and mixed <= extremes * (1 + 1e-12)


def test_registry_upper_and_lower_are_the_enclosure_ends():
    upper, lower = duchi.duchi_epsilon_upper(eps0=2.0, n=100, delta=1e-3), duchi.duchi_epsilon_lower(eps0=2.0, n=100, delta=1e-3)
    assert upper.direction == "upper_bound" and lower.direction == "lower_bound"
    assert 0 < lower.value <= upper.value <= lower.value * (1 + 1e-3) < 2.0
