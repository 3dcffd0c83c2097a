"""The one result type (`shuffle_spec.reference.core.results.BoundValue`): its direction is stated at every
construction, is one of spec's statement directions, and decides which certified end is the value."""

from __future__ import annotations

import pytest

from shuffle_spec.reference.core.results import DIRECTIONS, BoundValue
from shuffle_spec.spec.terms import Direction


def test_directions_are_specs_statement_directions_of_a_number() -> None:
    assert set(DIRECTIONS) == {d.value for d in Direction} - {Direction.DEFINITION.value}


def test_direction_must_be_stated() -> None:
    with pytest.raises(TypeError, match="direction"):
        BoundValue(1.0, 2.0)  # type: ignore[call-arg]


def test_direction_outside_the_three_is_refused() -> None:
    with pytest.raises(ValueError, match="direction"):
        BoundValue(1.0, 2.0, direction="definition")  # type: ignore[arg-type]


@pytest.mark.parametrize(("direction", "end"), [("upper_bound", 2.0), ("exact", 2.0), ("lower_bound", 1.0)])
def test_value_is_the_certified_end_in_its_direction(direction, end) -> None:
    result = BoundValue(1.0, 2.0, "note", direction=direction)
    assert result.value == end and float(result) == end
    assert (result.lower, result.upper, result.note) == (1.0, 2.0, "note") and result.contains(1.5)


def test_in_direction_keeps_the_interval_and_note() -> None:
    root = BoundValue(1.0, 2.0, "n", direction="exact")
    claimed = root.in_direction("lower_bound")
    assert (claimed.lower, claimed.upper, claimed.note, claimed.direction, claimed.value) == (1.0, 2.0, "n", "lower_bound", 1.0)
    with pytest.raises(ValueError, match="direction"):
        root.in_direction("sideways")  # type: ignore[arg-type]
