"""Exact rational enclosures of positive probabilities and the two ways the count pairs (`count_pairs`) and the
trinomial pairs (`krr_pairs`) read them.

An `Enclosure` is (lo, hi), two Fractions with 0 < lo <= hi: the exact real lies in [lo, hi]. `enclosure_interval`
rounds it OUTWARD to an mpmath interval at the working precision of `numerics.binomial.iv_context` (what the
certified binomial and trinomial windows take); `enclosure_float_with_error` gives a float near it and a bound on
the float's relative distance to every point of [lo, hi], computed exactly in Fractions (the enclosure
counterpart of the interval helper in `numerics.binomial`, which reads an mpmath interval); `fraction_of_end`
reads an mpmath interval's end back EXACTLY (its own bits: `mpmath.mpf(end)` would round a 100-bit end to the 53
bits of mpmath's default context, to the nearest, so an enclosure built from it could miss the value). Written by hand:
mpmath has no Fraction endpoints, and the error bound must cover every point of the enclosure.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..core.errors import ParameterError
from ..numerics.binomial import iv_context

__all__ = ["Enclosure", "enclosure_interval", "enclosure_float_with_error", "fraction_of_end"]

# An exact enclosure [lo, hi] of a positive real (lo <= hi, both Fractions).
Enclosure = tuple[Fraction, Fraction]


def _checked(e: object) -> Enclosure:
    if not (isinstance(e, tuple) and len(e) == 2 and all(isinstance(v, Fraction) for v in e) and 0 < e[0] <= e[1]):
        raise ParameterError("enclosure", repr(e)[:60], "a pair (lo, hi) of Fractions with 0 < lo <= hi")
    return e


def enclosure_interval(e: Enclosure) -> Any:
    """The mpmath interval (iv_context) containing [lo, hi], its ends rounded outward. Range: an Enclosure
    (Fractions 0 < lo <= hi)."""
    lo, hi = _checked(e)
    iv = iv_context()
    return iv.mpf([(iv.mpf(lo.numerator) / lo.denominator).a, (iv.mpf(hi.numerator) / hi.denominator).b])


def enclosure_float_with_error(e: Enclosure) -> tuple[float, float]:
    """(x, r): the float x nearest the midpoint of [lo, hi] and r >= |y - x| / y for every y in [lo, hi] (the
    exact relative distance over lo, raised by a factor 1 + 1e-6 and the smallest subnormal for the rounding of
    its float). Range: an Enclosure (Fractions 0 < lo <= hi)."""
    lo, hi = _checked(e)
    value = float((lo + hi) / 2)
    worst = max(abs(Fraction(value) - lo), abs(hi - Fraction(value))) / lo
    return value, float(worst) * (1 + 1e-6) + 2.0**-1074



def fraction_of_end(end: Any) -> Fraction:
    """The exact value of an mpmath interval's end point (a point interval, at any precision) or of an mpf, read
    from its own mantissa and exponent. Range: a finite end point (ParameterError for an infinite or NaN one)."""
    raw = getattr(end, "_mpi_", None)
    raw = raw[0] if raw is not None else getattr(end, "_mpf_", None)
    if raw is None:
        raise ParameterError("end", repr(end)[:40], "an mpmath interval end point or mpf")
    sign, man, exp, _ = raw
    if man == 0 and exp != 0:
        raise ParameterError("end", repr(end)[:40], "a finite real number")
    value = Fraction(int(man)) * (Fraction(2) ** int(exp))
    return -value if sign else value
