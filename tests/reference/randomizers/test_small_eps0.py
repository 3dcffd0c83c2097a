"""The structured randomizers at tiny eps0: their own bound applies (no refusal from a rounded-down eps0), and the
rounded-up LDP level is at least the exact log of the exact ratio (40-digit mpmath, outward)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from shuffle_spec.reference.randomizers import RANDOMIZERS
from shuffle_spec.reference.randomizers.common import eps0_rounded_up


@pytest.mark.parametrize("ratio", [Fraction(10**9 + 1, 10**9), Fraction(2**60 + 1, 2**60), Fraction(3, 2), Fraction(10**30 + 7, 10**30)])
def test_eps0_rounded_up_is_at_least_the_exact_log(ratio):
    # math.log of a Fraction rounds the ratio to a double first: near 1 that loses most digits of log(ratio).
    with mpmath.workdps(60):
        exact = mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)
        assert mpmath.mpf(eps0_rounded_up(ratio)) >= exact
        assert mpmath.mpf(eps0_rounded_up(ratio)) <= exact * (1 + mpmath.mpf(2) ** -48)


@pytest.mark.parametrize("name", ["rappor", "oue", "olh", "hadamard", "subset"])
def test_structured_upper_bound_applies_at_tiny_eps0(name):
    # Every eps0 in (0, 40] is in the registry's range: the bound answers (here: no amplification needed, a tiny
    # eps), it does not refuse because of its own rounding of e^eps0.
    value = RANDOMIZERS[name].upper(eps0=1e-9, n=100, delta=1e-6, d=100)
    assert value.direction == "upper_bound"
    assert 0 <= value.upper <= 1.1e-9
