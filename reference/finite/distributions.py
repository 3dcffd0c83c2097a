"""Finite probability distributions, exact (`Fraction`) or floating.

A `Distribution` maps outcomes to probabilities. Exact ones are validated exactly (every probability
a non-negative `Fraction`, the sum exactly 1); float ones to a tolerance of 1e-9. Outcomes of
probability zero are dropped, so `support` is the true support.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any, Callable, Hashable, Iterable, Iterator, Mapping, Sequence, Union

from ..core.errors import ParameterError
from ..core.limits import MATRIX_ENTRY_MAX_CHARS, MATRIX_ENTRY_MAX_DIGITS

__all__ = ["Distribution", "Probability", "as_probability", "exact_number_from_text", "point_mass", "uniform"]

Probability = Union[Fraction, float]
Outcome = Hashable

FLOAT_SUM_TOLERANCE = 1e-9

# The written forms of an exact number: "p/q" or a decimal with an optional exponent. ASCII digits only: no
# "1_0" (Python's Fraction would read it as 10), no digits of other scripts.
_RATIO = re.compile(r"([+-]?)([0-9]+)/([0-9]+)", re.ASCII)
_DECIMAL = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?)([0-9]+))?", re.ASCII)
_NUMBER_FORMS = 'a number such as "0.25", "1e-3" or "1/4"'


def _digits(text: str) -> int:
    return len(text.lstrip("0"))


def exact_number_from_text(text: str, name: str = "probability") -> Fraction:
    """The exact rational written in `text` ("3/4", "0.25", "1e-3", "-2"), checked for size BEFORE it is built:
    the numerator and the denominator as written (a decimal m.f e x is m f / 10^(len f - x)) have at most
    `shuffle_spec.reference.core.limits.MATRIX_ENTRY_MAX_DIGITS` digits and the text at most MATRIX_ENTRY_MAX_CHARS characters
    (`Fraction("1e-999999999")` would build a billion-digit integer). ParameterError naming `name` otherwise."""
    shown: object = text if len(text) <= 40 else f"{text[:20]}...{text[-8:]} ({len(text)} characters)"
    if len(text) > MATRIX_ENTRY_MAX_CHARS:
        raise ParameterError(name, shown, f"{_NUMBER_FORMS} of at most {MATRIX_ENTRY_MAX_CHARS} characters")
    stripped = text.strip()
    too_big = f"{_NUMBER_FORMS} whose numerator and denominator have at most {MATRIX_ENTRY_MAX_DIGITS} digits each"
    ratio = _RATIO.fullmatch(stripped)
    if ratio is not None:
        sign, numerator, denominator = ratio.groups()
        if _digits(numerator) > MATRIX_ENTRY_MAX_DIGITS or _digits(denominator) > MATRIX_ENTRY_MAX_DIGITS:
            raise ParameterError(name, shown, too_big)
        if _digits(denominator) == 0:
            raise ParameterError(name, shown, f"{_NUMBER_FORMS} with a non-zero denominator")
        value = Fraction(int(numerator), int(denominator))
        return -value if sign == "-" else value
    decimal = _DECIMAL.fullmatch(stripped)
    if decimal is None or not (decimal.group(2) or decimal.group(3)):
        raise ParameterError(name, shown, _NUMBER_FORMS)
    sign, whole, fraction, exponent_sign, exponent = decimal.groups()
    fraction = fraction or ""
    if exponent is not None and _digits(exponent) > len(str(MATRIX_ENTRY_MAX_DIGITS)) + 1:
        raise ParameterError(name, shown, f"{too_big} (the exponent {exponent_sign}{exponent[:12]}... is far out of range)")
    shift = (int(exponent) if exponent else 0) * (-1 if exponent_sign == "-" else 1) - len(fraction)
    mantissa = (whole + fraction).lstrip("0")
    # As written: mantissa * 10^shift, i.e. (mantissa 0...0) / 1 or mantissa / 10^-shift (1 followed by -shift zeros).
    if len(mantissa) + max(shift, 0) > MATRIX_ENTRY_MAX_DIGITS or -shift + 1 > MATRIX_ENTRY_MAX_DIGITS:
        raise ParameterError(name, shown, too_big)
    value = Fraction(int(mantissa or "0") * 10 ** max(shift, 0), 10 ** max(-shift, 0))
    return -value if sign == "-" else value


def as_probability(value: object, name: str = "probability") -> Probability:
    """An exact `Fraction` for ints, Fractions and "p/q" or decimal strings (read by `exact_number_from_text`,
    size-limited); a float for floats."""
    if isinstance(value, bool):
        raise ParameterError(name, value, "a number in [0, 1]")
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    if isinstance(value, float):
        return value
    if isinstance(value, str):
        return exact_number_from_text(value, name)
    raise ParameterError(name, value, "a number in [0, 1]")


class Distribution(Mapping[Outcome, Probability]):
    """An immutable finite distribution; exact when every probability is a `Fraction`."""

    __slots__ = ("_probs", "_exact")

    def __init__(self, probs: Mapping[Any, object] | Iterable[tuple[Any, object]]):
        # `Any` keys: a dict[int, ...] is a Mapping[Hashable, ...] for us, though `dict` is invariant.
        items = probs.items() if isinstance(probs, Mapping) else probs
        table: dict[Outcome, Probability] = {}
        for outcome, raw in items:
            p = as_probability(raw, f"probability of outcome {outcome!r}")
            if isinstance(p, float) and (math.isnan(p) or math.isinf(p)):
                raise ParameterError(f"probability of outcome {outcome!r}", p, "a finite number in [0, 1]")
            if p < 0:
                raise ParameterError(f"probability of outcome {outcome!r}", p, "a non-negative number")
            table[outcome] = table.get(outcome, 0) + p
        exact = all(isinstance(p, Fraction) for p in table.values())
        total: Probability = sum(table.values(), Fraction(0)) if exact else math.fsum(table.values())
        if exact and total != 1:
            raise ParameterError("sum of probabilities", total, "exactly 1")
        if not exact and abs(float(total) - 1) > FLOAT_SUM_TOLERANCE:
            raise ParameterError("sum of probabilities", total, f"1 within {FLOAT_SUM_TOLERANCE}")
        self._probs = {o: p for o, p in table.items() if p != 0}
        self._exact = exact

    # Mapping protocol: missing outcomes have probability zero.
    def __getitem__(self, outcome: Outcome) -> Probability:
        return self._probs.get(outcome, Fraction(0) if self._exact else 0.0)

    def __iter__(self) -> Iterator[Outcome]:
        return iter(self._probs)

    def __len__(self) -> int:
        return len(self._probs)

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._probs

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        return self._probs == other._probs

    def __hash__(self) -> int:
        return hash(frozenset(self._probs.items()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{o!r}: {p}" for o, p in list(self._probs.items())[:8])
        more = ", ..." if len(self._probs) > 8 else ""
        return f"Distribution({{{shown}{more}}})"

    @property
    def is_exact(self) -> bool:
        return self._exact

    @property
    def support(self) -> frozenset[Outcome]:
        return frozenset(self._probs)

    def probability_of(self, event: Callable[[Outcome], bool]) -> Probability:
        """The probability of the set of outcomes where `event` holds."""
        zero: Probability = Fraction(0) if self._exact else 0.0
        return sum((p for o, p in self._probs.items() if event(o)), zero)

    def to_float(self) -> "Distribution":
        return Distribution({o: float(p) for o, p in self._probs.items()})

    def map(self, function: Callable[[Outcome], Outcome]) -> "Distribution":
        """The pushforward through a deterministic `function` (deterministic post-processing)."""
        out: dict[Outcome, Probability] = {}
        for o, p in self._probs.items():
            image = function(o)
            out[image] = out.get(image, 0) + p
        return Distribution(out)

    def expectation(self, function: Callable[[Outcome], Any]) -> Any:
        """E[function(X)], exact when the distribution and `function`'s values are exact."""
        zero: Probability = Fraction(0) if self._exact else 0.0
        return sum((p * function(o) for o, p in self._probs.items()), zero)


def point_mass(outcome: Outcome) -> Distribution:
    """The distribution putting probability 1 (an exact Fraction) on `outcome` (any hashable outcome)."""
    return Distribution({outcome: Fraction(1)})


def uniform(outcomes: Sequence[Outcome]) -> Distribution:
    """The uniform distribution on a non-empty sequence of outcomes, exact Fractions 1/len (a repeated outcome
    gets the sum of its shares); ParameterError for an empty sequence."""
    if len(outcomes) == 0:
        raise ParameterError("outcomes", outcomes, "a non-empty sequence")
    share = Fraction(1, len(outcomes))
    out: dict[Outcome, Fraction] = {}
    for o in outcomes:
        out[o] = out.get(o, Fraction(0)) + share
    return Distribution(out)
