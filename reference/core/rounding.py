"""Directed rounding for floats: the safe side of every reported bound.

A bound computed in floating point may be off by a few units in the last place; moving it outward
by a few ulps makes the reported number an upper (or lower) bound of the exactly computed one,
provided the computation's own error is below that margin. Each caller states its margin's reason.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath

__all__ = ["round_down", "round_up", "mpf_to_float_up", "mpf_to_float_down"]


def round_up(x: float, ulps: int = 4) -> float:
    """`x` moved up by `ulps` units in the last place (infinities and NaN unchanged)."""
    for _ in range(ulps):
        x = math.nextafter(x, math.inf)
    return x


def round_down(x: float, ulps: int = 4) -> float:
    """`x` moved down by `ulps` units in the last place."""
    for _ in range(ulps):
        x = math.nextafter(x, -math.inf)
    return x


def mpf_to_float_up(x: mpmath.mpf) -> float:
    """The smallest double >= the mpf `x` (to 1 ulp: nearest rounding, then one step up)."""
    return round_up(float(x), 1)


def mpf_to_float_down(x: mpmath.mpf) -> float:
    """The largest double <= the mpf `x` (to 1 ulp)."""
    return round_down(float(x), 1)


def fraction_to_float_up(x: Fraction) -> float:
    """The smallest float >= the exact rational x (float(x) rounds to nearest, possibly down by an ulp)."""
    value = float(x)
    return value if Fraction(value) >= x else math.nextafter(value, math.inf)
