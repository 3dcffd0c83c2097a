"""reference/composition/enclosures.py: exact rational enclosures read as outward mpmath intervals and as floats
with a relative error bound (shared by the count pairs and the trinomial pairs)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from shuffle_spec.reference.composition.enclosures import enclosure_float_with_error, enclosure_interval, fraction_of_end

F = Fraction
CASES = [(F(1, 3), F(1, 3)), (F(1, 10**30), F(2, 10**30 + 1)), (F(2, 7), F(5, 7)), (F(10**40 + 1, 10**40), F(10**40 + 3, 10**40))]


def _exact(end: object) -> Fraction:
    # The end's own bits (mpmath.mpf(end) would round a 100-bit end to the 53 bits of mpmath.mp).
    sign, man, exp, _ = end._mpi_[0]  # type: ignore[attr-defined]
    return (-1 if sign else 1) * F(int(man)) * F(2) ** int(exp)


@pytest.mark.parametrize("e", CASES)
def test_the_interval_contains_the_enclosure(e: tuple[Fraction, Fraction]) -> None:
    lo, hi = e
    interval = enclosure_interval(e)
    # The ends as exact Fractions (mpf man * 2^exp) against the exact enclosure ends.
    a, b = _exact(interval.a), _exact(interval.b)
    assert a <= lo and hi <= b


@pytest.mark.parametrize("e", CASES)
def test_the_float_is_within_its_relative_error_of_every_point(e: tuple[Fraction, Fraction]) -> None:
    lo, hi = e
    value, err = enclosure_float_with_error(e)
    for y in (lo, (lo + hi) / 2, hi):  # |y - x| / y is largest at an end; the middle checks the float itself
        assert abs(y - F(value)) / y <= F(err)


@pytest.mark.parametrize("e", CASES)
def test_fraction_of_end_reads_the_ends_bits_exactly(e: tuple[Fraction, Fraction]) -> None:
    interval = enclosure_interval(e)
    assert (fraction_of_end(interval.a), fraction_of_end(interval.b)) == (_exact(interval.a), _exact(interval.b))
    assert fraction_of_end(-interval.a) == -_exact(interval.a)
