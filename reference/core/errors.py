"""Errors raised by the reference implementations.

Every bad input is a `ValueError` that names the parameter, the value received and what is allowed,
in the style `eps0 = -1 is out of range: expected eps0 > 0`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Integral, Real
from typing import Mapping, cast

__all__ = [
    "HypothesisViolation",
    "ParameterError",
    "TimeLimitExceeded",
    "TimeLimitInterrupt",
    "require_flag",
    "require_in_range",
    "require_integer",
    "require_multiplier",
    "require_positive",
    "require_probability",
]


class ParameterError(ValueError):
    """A parameter is outside its allowed range."""

    def __init__(self, name: str, value: object, allowed: str, *, statement_id: str | None = None):
        self.name = name
        self.value = value
        self.allowed = allowed
        self.statement_id = statement_id  # set by the API when the error concerns one statement
        super().__init__(f"{name} = {value!r} is out of range: expected {allowed}")


class HypothesisViolation(ValueError):
    """A statement's hypotheses fail at the given parameters, so it certifies nothing there."""

    def __init__(self, statement: str, hypothesis: str, values: Mapping[str, object]):
        self.statement = statement
        self.statement_id = statement
        self.hypothesis = hypothesis
        self.values = dict(values)
        shown = ", ".join(f"{k}={v!r}" for k, v in values.items())
        super().__init__(f"{statement}: hypothesis {hypothesis} fails for {shown}")


class TimeLimitExceeded(Exception):
    """A computation did not finish within its time limit (what a limited block raises to its caller)."""


class TimeLimitInterrupt(BaseException):
    """The expiry of a time limit, raised INSIDE the limited block by the interface's `time_limit` (SIGALRM).

    A BaseException, as KeyboardInterrupt, so that no `except Exception` (nor `contextlib.suppress(Exception)`) in the
    code it interrupts swallows it: the timer fires once, and a swallowed expiry let `tightest --time-budget 0.05` run
    its 90 s computation to the end. The limit turns it into TimeLimitExceeded where its block ends. Defined here, at
    the bottom of the layers, so that a reference computation with optional refinements can drop one that its
    caller's limit interrupts and keep the certified ends in hand (`reference.composition.solve.refinement_within`)."""


def _is_real_number(value: object) -> bool:
    return isinstance(value, (Real, Fraction)) and not isinstance(value, bool)


def require_real(name: str, value: object) -> float:
    """`value` is a real number (not NaN, not a bool); returned typed as a float-like for comparisons.

    The returned object is `value` itself (an int, a Fraction, a numpy scalar ...), never a rounded copy.
    """
    if not _is_real_number(value) or (isinstance(value, float) and math.isnan(value)):
        raise ParameterError(name, value, "a real number")
    return cast(float, value)


def require_positive(name: str, value: object, *, allow_zero: bool = False, finite: bool = True) -> None:
    """`value > 0` (or `>= 0` with `allow_zero`), a real number, finite unless told otherwise."""
    real = require_real(name, value)
    bad = real < 0 if allow_zero else real <= 0
    if bad or (finite and math.isinf(float(real))):
        op = ">=" if allow_zero else ">"
        raise ParameterError(name, value, f"a finite real {name} {op} 0" if finite else f"{name} {op} 0")


def require_probability(name: str, value: object, *, open_low: bool = True, open_high: bool = True) -> None:
    """`value` in the interval (0, 1), with each end open or closed as asked."""
    real = require_real(name, value)
    low_ok = real > 0 if open_low else real >= 0
    high_ok = real < 1 if open_high else real <= 1
    if not (low_ok and high_ok):
        interval = f"{'(' if open_low else '['}0, 1{')' if open_high else ']'}"
        raise ParameterError(name, value, f"{name} in {interval}")


def require_integer(name: str, value: object, *, minimum: int = 1) -> None:
    """An integer (an integral float such as 1e6 is accepted) at least `minimum`.

    A numpy integer is refused with the fix named rather than used: the callers do arithmetic on the value
    as given, and int64 products such as n * n wrap around silently (the API and the CLI convert for you)."""
    if isinstance(value, Integral) and not isinstance(value, (int, bool)):
        raise ParameterError(name, value, f"a Python int {name} >= {minimum} (a {type(value).__module__}.{type(value).__name__}: pass int({name}))")
    integral = isinstance(value, int) and not isinstance(value, bool)
    if isinstance(value, float) and value.is_integer():
        integral = True
    if not integral or cast(float, value) < minimum:
        raise ParameterError(name, value, f"an integer {name} >= {minimum}")


def require_flag(name: str, value: object) -> None:
    """`value` is True or False (a switch): a string such as "no", a number or None is refused, not read by its
    truthiness."""
    if not isinstance(value, bool):
        raise ParameterError(name, value, f"True or False ({name} is a switch)")


def require_in_range(name: str, value: object, low: float, high: float) -> None:
    """`low <= value <= high`."""
    real = require_real(name, value)
    if not (low <= real <= high):
        raise ParameterError(name, value, f"{low} <= {name} <= {high}")


def require_multiplier(name: str, value: object, *, finite: bool = False) -> None:
    """`value` is a multiplier e^eps >= 1 (eps >= 0): an int, a float or a Fraction (not a bool), finite
    when asked. The one check behind every function taking an `e_eps`."""
    # An int or a Fraction is finite however large: math.isfinite would convert it to a float and overflow
    # above 1.8e308 (an exact multiplier of a matrix with 1e-999 entries).
    infinite = isinstance(value, float) and not math.isfinite(value)
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)) or not value >= 1 or (finite and infinite):
        raise ParameterError(name, value, f"a {'finite ' if finite else ''}multiplier e^eps >= 1 (eps >= 0)")
