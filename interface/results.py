"""One family of typed results for the public API: every answer says what it certifies.

Each result carries

- `value`: the number to report (an upper bound's upper end, a lower bound's lower end);
- `interval`: (lower, upper), certified: the true quantity lies inside;
- `direction`: "upper" (the truth is at most `value`), "lower" (at least `value`), "exact" (`interval` encloses
  the exact value, `value` its upper end) or "interval" (a certified upper and a certified lower bound from two
  statements: the front door `certify`, `tightest`);
- `statement_id`: the statement behind `value`;
- `reason`: why the interval is what it is; an interval wider than 1% (relative to its upper end) says so here;
- `neighbouring`: the neighbouring relation the statement is for ("replace-one" or "add-remove").

The shapes the API had before are kept (extended, never broken): `shuffled_epsilon` returns an `EpsilonBound`, a
`float` carrying the fields; `composed_delta` a `DeltaInterval`, a `(lower, upper)` tuple carrying them;
`Calibration`, `Composition`, `Gap` and `RandomizerGap` keep their attributes and gain the fields as properties.

Neighbouring relation: every statement registered today but one is for REPLACE-ONE neighbours (n users, one
user's input changed): EFMRTT19 Sec. 2 (their (eps, delta)-DP definition, `spec/papers/efmrtt19.py`: "replacement
neighbours"), BBGN19 Sec. 2 (datasets of n users differing in one user's data; the privacy blanket), FMT21
Sec. 2 and FMT23 Sec. 2 (the clone reductions replace user 1's input x_1^0 by x_1^1), EFMRSTT20 Sec. II
(Lemma II.6 is Cheu et al. EUROCRYPT 2019 Cor. 17, replacement; its removal notions are mostly about the LOCAL
randomizer, `EFMRSTT20.removal_*`), the project's exact
statements and lower bounds (explicit pairs x vs x' with the n - 1 others fixed: `spec/derived/`) and the
compositions (`spec/derived/compose.py`: "replace one user's input, n fixed"). `NEIGHBOURING` lists it per
statement family (the first matching prefix wins); a statement of a family not listed is refused rather than
guessed (`neighbouring_of`). The exception is EFMRSTT20 Theorem III.1 (attribute fragmenting of k-RAPPOR): it
certifies REMOVAL central DP ("a respondent's removal changes one bit per shuffler", Sec. III and Appendix A),
so it is "add-remove".
"""

from __future__ import annotations

import math
from typing import Any, Literal, Mapping, cast

from ..reference.core.errors import ParameterError

__all__ = [
    "BracketFields",
    "DeltaInterval",
    "EpsilonBound",
    "NEIGHBOURING",
    "Neighbouring",
    "ResultDirection",
    "WIDE_INTERVAL",
    "neighbouring_of",
    "recorded_neighbouring",
    "result_direction",
    "width_note",
]

ResultDirection = Literal["upper", "lower", "exact", "interval"]
Neighbouring = Literal["replace-one", "add-remove"]

# The statement families (id prefixes) and their neighbouring relation (module doc: papers and sections).
NEIGHBOURING: dict[str, Neighbouring] = {
    "EFMRSTT20.ThmIII.1": "add-remove",  # its notes: removal DP locally AND centrally (a respondent's removal)
    "EFMRTT19.": "replace-one",
    "BBGN19.": "replace-one",
    "FMT21.": "replace-one",
    "FMT23.": "replace-one",
    "EFMRSTT20.": "replace-one",
    "exact.": "replace-one",
    "compose.": "replace-one",
}

# An interval wider than this (relative to its upper end) says so in `reason`.
WIDE_INTERVAL = 0.01


def neighbouring_of(statement_id: str) -> Neighbouring:
    """The neighbouring relation of a statement (module doc); ParameterError for a family not in NEIGHBOURING."""
    for prefix, relation in NEIGHBOURING.items():
        if statement_id.startswith(prefix):
            return relation
    raise ParameterError("statement_id", statement_id, f"a statement of a family whose neighbouring relation is recorded ({', '.join(NEIGHBOURING)})")


def recorded_neighbouring(statement_id: str) -> Neighbouring | None:
    """`neighbouring_of`, or None for a statement of a family with no recorded relation (a protocol's calibration
    statement such as BBGN19v1.Thm3.1): a JSON answer then says null, never a guess."""
    try:
        return neighbouring_of(statement_id)
    except ParameterError:
        return None


def result_direction(direction: str) -> ResultDirection:
    """A statement's direction (`spec.terms.Direction` value: upper_bound, lower_bound, exact) in the results' words."""
    words: dict[str, ResultDirection] = {"upper_bound": "upper", "lower_bound": "lower", "exact": "exact"}
    if direction not in words:
        raise ParameterError("direction", direction, "upper_bound, lower_bound or exact")
    return words[direction]


def width_note(lower: float, upper: float, *, what: str = "certified interval") -> str:
    """"" when [lower, upper] is at most WIDE_INTERVAL wide relative to `upper`; otherwise a sentence saying how wide."""
    if not (math.isfinite(lower) and math.isfinite(upper)) or upper <= 0:
        return ""
    width = (upper - lower) / upper
    if width <= WIDE_INTERVAL:
        return ""
    return f"the {what} [{lower:.6g}, {upper:.6g}] is {100 * width:.3g}% wide (more than {100 * WIDE_INTERVAL:g}%): the truth may be anywhere in it"


def join_reasons(*parts: str) -> str:
    return "; ".join(part for part in parts if part)


class EpsilonBound(float):
    """A central epsilon as a `float` (what `shuffled_epsilon` returned before, unchanged bit for bit) carrying
    the result fields: `value` (= float(self)), `interval`, `direction`, `statement_id`, `reason`,
    `neighbouring` (module doc). Arithmetic gives plain floats. Immutable."""

    value: float
    interval: tuple[float, float]
    direction: ResultDirection
    statement_id: str
    reason: str
    neighbouring: Neighbouring

    def __new__(cls, value: float, *, interval: tuple[float, float], direction: ResultDirection, statement_id: str, reason: str = "",
                neighbouring: Neighbouring = "replace-one") -> "EpsilonBound":
        self = super().__new__(cls, value)
        fields = {"value": float(value), "interval": (float(interval[0]), float(interval[1])), "direction": direction,
                  "statement_id": statement_id, "reason": reason, "neighbouring": neighbouring}
        for name, field_value in fields.items():
            object.__setattr__(self, name, field_value)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_epsilon, (float(self), self.fields()))

    def fields(self) -> dict[str, Any]:
        return {"interval": self.interval, "direction": self.direction, "statement_id": self.statement_id, "reason": self.reason,
                "neighbouring": self.neighbouring}

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, **self.fields(), "interval": list(self.interval)}


def _rebuild_epsilon(value: float, fields: Mapping[str, Any]) -> EpsilonBound:
    return EpsilonBound(value, **fields)


class DeltaInterval(tuple[float, float]):
    """The certified (lower, upper) of a composed delta(eps) (what `composed_delta` returned before: a 2-tuple,
    unpacked as `lower, upper = ...`) carrying the result fields: `value` (the upper end for an upper-bound pair,
    the lower end for the exact binary-RR pairs, a lower bound), `interval`, `direction`, `statement_id`, `reason`,
    `neighbouring`. Immutable."""

    direction: ResultDirection
    statement_id: str
    reason: str
    neighbouring: Neighbouring

    def __new__(cls, lower: float, upper: float, *, direction: ResultDirection, statement_id: str, reason: str = "",
                neighbouring: Neighbouring = "replace-one") -> "DeltaInterval":
        self = super().__new__(cls, (float(lower), float(upper)))
        for name, field_value in (("direction", direction), ("statement_id", statement_id), ("reason", reason), ("neighbouring", neighbouring)):
            object.__setattr__(self, name, field_value)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_delta, (self[0], self[1], {"direction": self.direction, "statement_id": self.statement_id, "reason": self.reason,
                                                   "neighbouring": self.neighbouring}))

    @property
    def lower(self) -> float:
        return self[0]

    @property
    def upper(self) -> float:
        return self[1]

    @property
    def interval(self) -> tuple[float, float]:
        return (self[0], self[1])

    @property
    def value(self) -> float:
        return self[0] if self.direction == "lower" else self[1]


def _rebuild_delta(lower: float, upper: float, fields: Mapping[str, Any]) -> DeltaInterval:
    return DeltaInterval(lower, upper, **fields)


class BracketFields:
    """The result fields of a bracket between a tightest certified upper bound and a largest certified lower
    bound (`Gap`, `RandomizerGap`), from their attributes `upper_eps`, `upper_id`, `lower_eps`, `lower_id`."""

    upper_eps: float | None
    upper_id: str | None
    lower_eps: float | None
    lower_id: str | None

    @property
    def value(self) -> float | None:
        """The tightest certified upper bound (None when no statement certifies one here)."""
        return self.upper_eps

    @property
    def interval(self) -> tuple[float, float] | None:
        """(largest certified lower end, tightest certified upper end); a missing lower side is 0 (eps >= 0);
        None when no upper bound is certified."""
        if self.upper_eps is None:
            return None
        return (0.0 if self.lower_eps is None else self.lower_eps, self.upper_eps)

    @property
    def direction(self) -> ResultDirection:
        return "interval" if self.lower_id is not None and self.upper_id is not None else "lower" if self.upper_id is None else "upper"

    @property
    def statement_id(self) -> str | None:
        return self.upper_id

    @property
    def neighbouring(self) -> Neighbouring:
        """The relation of the upper bound's statement (`interface/results.py`, NEIGHBOURING); replace-one, the
        relation of every statement ranked here, when there is none."""
        return neighbouring_of(self.upper_id) if self.upper_id is not None and self.upper_id.split(".")[0] + "." in NEIGHBOURING else "replace-one"

    @property
    def reason(self) -> str:
        """Which statements give the two ends, and how wide the interval between them is."""
        if self.upper_id is None:
            return "no registered statement certifies an upper bound here" + (f"; largest certified lower bound {self.lower_eps:.6g} ({self.lower_id})" if self.lower_id else "")
        lower = f"lower end by {self.lower_id}" if self.lower_id else "no certified lower bound (lower end 0)"
        interval = cast(tuple[float, float], self.interval)
        return join_reasons(f"upper end by {self.upper_id}, {lower}", width_note(*interval, what="interval between the certified upper and lower bounds"))

