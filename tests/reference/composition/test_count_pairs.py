"""reference/composition/count_pairs.py: the bin laws given as mpmath intervals are read exactly."""

from __future__ import annotations

from fractions import Fraction

from shuffle_spec.reference.composition.count_pairs import count_pair_from_intervals
from shuffle_spec.reference.numerics.binomial import iv_context


def test_interval_laws_are_enclosed_exactly_not_rounded_to_53_bits() -> None:
    # iv_context works at 100 bits: the interval 1/3 has ends within 2^-100 of 1/3. Rounding an end to the
    # nearest 53-bit float (mpmath's default context) can land on the wrong side of 1/3: the enclosure must still
    # contain the exact probabilities 1/3, 2/3 and 1/2.
    iv = iv_context()
    third, two_thirds, half = iv.mpf(1) / 3, iv.mpf(2) / 3, iv.mpf(1) / 2
    pair = count_pair_from_intervals([third, two_thirds], [two_thirds, third], [half, half], "test pair")
    for law, exact in ((pair.x, (Fraction(1, 3), Fraction(2, 3))), (pair.x2, (Fraction(2, 3), Fraction(1, 3))), (pair.z, (Fraction(1, 2),) * 2)):
        for (lo, hi), value in zip(law, exact, strict=True):
            assert lo <= value <= hi
            assert hi - lo <= value * Fraction(1, 2**90)  # and still as tight as the 100-bit interval
