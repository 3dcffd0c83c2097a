"""Certified enclosures of closed forms in interval arithmetic: the runtime of the functions that
`shuffle-spec derive --python` exports (`interface/derive/python_export.py` writes the formulas; this
module evaluates them).

Its source is copied verbatim into every exported file, so it imports only the standard library and
mpmath (1.3 or later) and nothing of shuffle_spec; it is also imported in-process by `derive` and the
tests, so the copy that runs in an exported file is the code tested here.

How a number is certified (`certified_value`)
- Inputs are converted exactly (`exact_input`): an int or a Fraction as it is, a float as the binary
  number it is; a bool, a nan or an infinity is refused (ValueError), and so is a value outside its
  symbol's assumptions (eps0 > 0, n an integer >= 1, ...).
- Formulas are evaluated in a private `mpmath.ctx_iv.MPIntervalContext` (one per thread), whose every
  operation rounds outward, so each interval contains the exact value of its sub-expression.
  `iv_div`, `iv_log`, `iv_sqrt` and `iv_pow` raise `Undecided` when their argument's interval reaches outside
  their domain (a divisor interval containing 0, a logarithm of an interval reaching 0, ...): a point
  where the exact formula is undefined is never given a value.
- A hypothesis is accepted only when its interval evaluation proves it true; proven false is a
  ValueError naming it; undecided (or undefined) is retried at twice the precision, from 64 up to
  8192 bits, and then refused as too close to its boundary to decide.
- The value is evaluated at rising precision until the enclosure's width is at most 2^-60 of its
  magnitude (or 8192 bits are reached). An upper bound returns the enclosure's upper end rounded up
  to a float (the float is compared exactly with the endpoint and moved up by one ulp when below it),
  a lower bound the lower end rounded down, an exact value the float nearest the enclosure's midpoint
  (within one ulp of the exact value when the enclosure is tight). So an exported upper bound is >= the
  exact value of the formula at the given point, never the float rounding of it.

Comparisons are three-valued (True, False, None = undecided) and exact on the endpoints.
"""

from __future__ import annotations

import math
import numbers
import threading
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

from mpmath.ctx_iv import MPIntervalContext
from mpmath.libmp import finf, fnan, fninf, fzero, mpf_le, mpf_lt

PRECISIONS = (64, 128, 256, 512, 1024, 2048, 4096, 8192)
# An enclosure is tight when its width is at most 2^-TIGHT_BITS of its magnitude.
TIGHT_BITS = 60
# Beyond these binary exponents an endpoint is certainly outside the range of a float.
_FLOAT_EXPONENT_LIMIT = 1100
_FLOAT_MAX = 1.7976931348623157e308

_LOCAL = threading.local()


class Undecided(ArithmeticError):
    """The interval evaluation cannot decide at this precision (an argument interval reaching outside a
    function's domain, a comparison within the rounding, no Piecewise branch certainly applying)."""


def context() -> Any:
    """This thread's interval context (its precision is set by `certified_value`)."""
    ctx = getattr(_LOCAL, "ctx", None)
    if ctx is None:
        ctx = _LOCAL.ctx = MPIntervalContext()
    return ctx


# --- inputs ---------------------------------------------------------------------------------------

def exact_input(name: str, value: object, *, integer: bool = False, positive: bool = False, nonnegative: bool = False) -> Fraction:
    """`value` as an exact Fraction, after checking that it is a finite real number (not a bool) within
    its symbol's assumptions: > 0 when `positive`, >= 0 when `nonnegative`, an integer when `integer`."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} = {value!r}: expected a real number")
    if isinstance(value, numbers.Integral):
        exact = Fraction(int(value))
    elif isinstance(value, numbers.Rational):
        exact = Fraction(int(value.numerator), int(value.denominator))
    else:
        as_float = float(value)
        if not math.isfinite(as_float):
            raise ValueError(f"{name} = {value!r}: expected a finite number")
        exact = Fraction(as_float)
    if positive and not exact > 0:
        raise ValueError(f"{name} = {value!r}: expected {name} > 0")
    if nonnegative and not exact >= 0:
        raise ValueError(f"{name} = {value!r}: expected {name} >= 0")
    if integer and exact.denominator != 1:
        raise ValueError(f"{name} = {value!r}: expected an integer {name}")
    return exact


def iv_point(value: Fraction | int) -> Any:
    """The interval of an exact rational at the current precision (a point when representable)."""
    ctx = context()
    if isinstance(value, int):
        return ctx.mpf(value)
    if value.denominator == 1:
        return ctx.mpf(value.numerator)
    return ctx.mpf(value.numerator) / value.denominator


def iv_q(numerator: int, denominator: int = 1) -> Any:
    """The rational numerator/denominator as an interval (outward-rounded when not representable)."""
    return iv_point(Fraction(numerator, denominator))


def _interval(x: Any) -> Any:
    if isinstance(x, (int, Fraction)):
        return iv_point(x)
    if not hasattr(x, "_mpi_"):  # a complex interval (a power of a negative base) or anything else
        raise Undecided(f"not a real interval: {type(x).__name__}")
    return x


def _ends(x: Any) -> tuple[Any, Any]:
    lo, hi = _interval(x)._mpi_
    if lo == fnan or hi == fnan:
        raise Undecided("an endpoint is not a number")
    return lo, hi


def _make(lo: Any, hi: Any) -> Any:
    return context().make_mpf((lo, hi))


# --- functions (domain-checked: an argument outside the domain is Undecided, never a value) -------------

def iv_div(a: Any, b: Any) -> Any:
    lo, hi = _ends(b)
    if not (mpf_lt(fzero, lo) or mpf_lt(hi, fzero)):
        raise Undecided("a divisor interval contains 0")
    return _interval(a) / _interval(b)


def iv_exp(x: Any) -> Any:
    return context().exp(_interval(x))


def iv_log(x: Any) -> Any:
    lo, _ = _ends(x)
    if not mpf_lt(fzero, lo):
        raise Undecided("the logarithm of an interval reaching 0 or below")
    return context().log(_interval(x))


def iv_sqrt(x: Any) -> Any:
    lo, _ = _ends(x)
    if mpf_lt(lo, fzero):
        raise Undecided("the square root of an interval reaching below 0")
    return context().sqrt(_interval(x))


def iv_pow(base: Any, exponent: Any) -> Any:
    """base**exponent: an int exponent by repeated multiplication (a negative one as 1 / base**-k, the
    base not containing 0); any other exponent as exp(exponent * log(base)), the base > 0."""
    if isinstance(exponent, int):
        if exponent >= 0:
            return _interval(base) ** exponent
        return iv_div(1, _interval(base) ** (-exponent))
    return iv_exp(_interval(exponent) * iv_log(base))


def iv_min(*xs: Any) -> Any:
    ends = [_ends(x) for x in xs]
    lo = min((e[0] for e in ends), key=_Key)
    hi = min((e[1] for e in ends), key=_Key)
    return _make(lo, hi)


def iv_max(*xs: Any) -> Any:
    ends = [_ends(x) for x in xs]
    lo = max((e[0] for e in ends), key=_Key)
    hi = max((e[1] for e in ends), key=_Key)
    return _make(lo, hi)


def iv_abs(x: Any) -> Any:
    return abs(_interval(x))


def _fraction(raw: Any) -> Fraction:
    if raw in (finf, fninf) or raw == fnan:
        raise Undecided("an infinite endpoint")
    sign, man, exponent, _ = raw
    if not man:
        return Fraction(0)
    if abs(exponent) > 100_000:
        raise Undecided("an endpoint too large to handle exactly")
    value = Fraction(man) * (Fraction(2) ** exponent)
    return -value if sign else value


def iv_floor(x: Any) -> Any:
    lo, hi = _ends(x)
    return _make(context().mpf(math.floor(_fraction(lo)))._mpi_[0], context().mpf(math.floor(_fraction(hi)))._mpi_[0])


def iv_ceiling(x: Any) -> Any:
    lo, hi = _ends(x)
    return _make(context().mpf(math.ceil(_fraction(lo)))._mpi_[0], context().mpf(math.ceil(_fraction(hi)))._mpi_[0])


def iv_mod(x: Any, m: Any) -> Any:
    """x mod m with the sign of m (SymPy's Mod): exact for point intervals, else [0, m] for a positive
    point m."""
    (xlo, xhi), (mlo, mhi) = _ends(x), _ends(m)
    if xlo == xhi and mlo == mhi:
        divisor = _fraction(mlo)
        if divisor == 0:
            raise Undecided("Mod by 0")
        return iv_point(_fraction(xlo) % divisor)
    if mlo == mhi and mpf_lt(fzero, mlo):
        return _make(fzero, mlo)
    raise Undecided("Mod of intervals")


def iv_hull(*xs: Any) -> Any:
    ends = [_ends(x) for x in xs]
    return _make(min((e[0] for e in ends), key=_Key), max((e[1] for e in ends), key=_Key))


def iv_piecewise(*branches: tuple[Callable[[], bool | None], Callable[[], Any]]) -> Any:
    """SymPy's Piecewise((value, condition), ...) with lazy (condition, value) thunks: the first branch
    whose condition is proven true, joined (hull) with every earlier branch whose condition is
    undecided; Undecided when no condition is proven true (the value may be undefined there)."""
    pending = []
    for condition, value in branches:
        holds = condition()
        if holds is False:
            continue
        pending.append(value())
        if holds is True:
            return iv_hull(*pending)
    raise Undecided("no branch of a Piecewise certainly applies")


# --- three-valued relations -------------------------------------------------------------------------

def iv_lt(a: Any, b: Any) -> bool | None:
    (alo, ahi), (blo, bhi) = _ends(a), _ends(b)
    if mpf_lt(ahi, blo):
        return True
    if mpf_le(bhi, alo):
        return False
    return None


def iv_le(a: Any, b: Any) -> bool | None:
    (alo, ahi), (blo, bhi) = _ends(a), _ends(b)
    if mpf_le(ahi, blo):
        return True
    if mpf_lt(bhi, alo):
        return False
    return None


def iv_eq(a: Any, b: Any) -> bool | None:
    (alo, ahi), (blo, bhi) = _ends(a), _ends(b)
    if alo == ahi == blo == bhi and alo not in (finf, fninf):
        return True
    if mpf_lt(ahi, blo) or mpf_lt(bhi, alo):
        return False
    return None


def iv_ne(a: Any, b: Any) -> bool | None:
    return iv_not(iv_eq(a, b))


def iv_not(x: bool | None) -> bool | None:
    return None if x is None else not x


def iv_and(*thunks: Callable[[], bool | None]) -> bool | None:
    result: bool | None = True
    for thunk in thunks:
        value = thunk()
        if value is False:
            return False
        if value is None:
            result = None
    return result


def iv_or(*thunks: Callable[[], bool | None]) -> bool | None:
    result: bool | None = False
    for thunk in thunks:
        value = thunk()
        if value is True:
            return True
        if value is None:
            result = None
    return result


def iv_pi() -> Any:
    return context().pi + 0


class _Key:
    """Sort key ordering raw mpf endpoints exactly (for min/max of endpoints)."""

    def __init__(self, raw: Any):
        self.raw = raw

    def __lt__(self, other: _Key) -> bool:
        return bool(mpf_lt(self.raw, other.raw))


# --- the driver -------------------------------------------------------------------------------------

def _tight(lo: Any, hi: Any) -> bool:
    """Whether [lo, hi] is at most 2^-TIGHT_BITS of its smaller endpoint's magnitude wide."""
    if lo == hi:
        return True
    if lo in (finf, fninf) or hi in (finf, fninf):
        return False
    width = _make(hi, hi) - _make(lo, lo)  # rounded outward: its upper end bounds the width
    magnitude = iv_min(iv_abs(_make(lo, lo)), iv_abs(_make(hi, hi)))
    return iv_le(width, magnitude * iv_q(1, 2**TIGHT_BITS)) is True


def _negate(raw: Any) -> Any:
    if raw == fzero:
        return fzero
    if raw == finf:
        return fninf
    if raw == fninf:
        return finf
    sign, man, exponent, bits = raw
    return (1 - sign, man, exponent, bits)


def float_up(raw: Any) -> float:
    """The smallest float >= the raw mpf endpoint `raw` (-max float for a negative one beyond range)."""
    if raw == fzero:
        return 0.0
    if raw == finf:
        return math.inf
    if raw == fninf:
        return -math.inf
    sign, _, exponent, bits = raw
    if exponent + bits > _FLOAT_EXPONENT_LIMIT:
        return -_FLOAT_MAX if sign else math.inf
    if exponent + bits < -_FLOAT_EXPONENT_LIMIT:
        return -0.0 if sign else math.nextafter(0.0, math.inf)
    exact = _fraction(raw)
    try:
        nearest = float(exact)  # correctly rounded to nearest
    except OverflowError:
        return -_FLOAT_MAX if sign else math.inf
    return nearest if Fraction(nearest) >= exact else math.nextafter(nearest, math.inf)


def float_down(raw: Any) -> float:
    """The largest float <= the raw mpf endpoint `raw`."""
    return -float_up(_negate(raw))


def _float_nearest(lo: Any, hi: Any) -> float:
    try:
        return float((_fraction(lo) + _fraction(hi)) / 2)
    except (Undecided, OverflowError):
        return float_up(hi)


def certified_value(
    name: str,
    inputs: Mapping[str, Fraction],
    hypotheses: Sequence[tuple[str, Callable[..., bool | None]]],
    value: Callable[..., Any],
    direction: str,
) -> float:
    """The certified float of `value` at the exact `inputs`, after proving every hypothesis (see the
    module docstring). `hypotheses` are (name, check) pairs, `check(**intervals)` three-valued;
    `value(**intervals)` returns an interval; `direction` is "upper_bound" (the result is >= the exact
    value), "lower_bound" (<=) or anything else (the nearest float). ValueError when a hypothesis is
    false or cannot be decided, or no finite enclosure exists."""
    shown = ", ".join(f"{key}={_show(inputs[key])}" for key in inputs)
    pending = list(hypotheses)
    ctx = context()
    saved = ctx.prec
    best: tuple[Any, Any] | None = None
    try:
        for precision in PRECISIONS:
            ctx.prec = precision
            intervals = {key: iv_point(v) for key, v in inputs.items()}
            undecided = []
            for hypothesis, check in pending:
                try:
                    holds = check(**intervals)
                except Undecided:
                    holds = None
                if holds is False:
                    raise ValueError(f"{name}: hypothesis {hypothesis} fails for {shown}")
                if holds is None:
                    undecided.append((hypothesis, check))
            pending = undecided
            if pending:
                continue
            try:
                lo, hi = _ends(value(**intervals))
            except Undecided:
                continue
            if lo in (finf, fninf) or hi in (finf, fninf):
                continue
            best = (lo, hi)
            if _tight(lo, hi):
                break
    finally:
        ctx.prec = saved
    if pending:
        raise ValueError(f"{name}: cannot decide hypothesis {pending[0][0]} at {shown} (undefined there, or too close to its boundary to decide at {PRECISIONS[-1]} bits)")
    if best is None:
        raise ValueError(f"{name}: the formula has no finite value at {shown} (undefined there, or no enclosure at {PRECISIONS[-1]} bits)")
    lo, hi = best
    if direction == "upper_bound":
        return float_up(hi)
    if direction == "lower_bound":
        return float_down(lo)
    return _float_nearest(lo, hi)


def _show(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else repr(float(value)) if Fraction(float(value)) == value else str(value)
