"""The shared truth-selection rule `interface/certified.py` (used by `interface/audit/verdicts.py` and
`interface/tightest.py`): which end of an answer is certified, and the best of several."""

from __future__ import annotations

import math

import pytest
from shuffle_spec.interface.certified import best_certified, certified_end
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.spec.statement import Direction

UP, LOW, EXACT = Direction.UPPER_BOUND, Direction.LOWER_BOUND, Direction.EXACT


@pytest.mark.parametrize(
    ("direction", "side", "value", "interval", "expected"),
    [
        (UP, "upper", 0.5, (0.4, 0.5), 0.5),  # an upper bound vouches for its value
        (UP, "lower", 0.5, (0.4, 0.5), None),  # ... and for nothing below
        (LOW, "lower", 0.3, (0.3, 0.9), 0.3),  # a lower bound: the lower end of its interval
        (LOW, "lower", 0.9, (0.3, 0.9), 0.3),  # even when a caller shows the upper end as its value
        (LOW, "lower", 0.3, None, 0.3),
        (LOW, "upper", 0.3, (0.3, 0.9), None),
        (EXACT, "lower", 0.5, (0.49, 0.51), 0.49),
        (EXACT, "upper", 0.5, (0.49, 0.51), 0.51),
    ],
)
def test_the_certified_end_by_direction_and_side(direction, side, value, interval, expected):
    assert certified_end(direction, side=side, valid=True, value=value, interval=interval) == expected


def test_an_exact_plain_number_is_rounded_outward():
    low = certified_end(EXACT, side="lower", valid=True, value=0.5, interval=None)
    high = certified_end(EXACT, side="upper", valid=True, value=0.5, interval=None)
    assert low is not None and high is not None and low < 0.5 < high
    assert math.nextafter(low, 1.0) < 0.5  # by more than one unit in the last place


@pytest.mark.parametrize(("valid", "value"), [(False, 0.5), (True, None), (True, math.inf), (True, math.nan)])
def test_invalid_or_non_finite_answers_certify_nothing(valid, value):
    for direction in (UP, LOW, EXACT):
        for side in ("lower", "upper"):
            assert certified_end(direction, side=side, valid=valid, value=value, interval=None) is None


def test_best_takes_the_largest_lower_and_the_smallest_upper_end_first_on_ties():
    candidates = [
        ("a", LOW, True, 0.2, (0.2, 0.4)),
        ("b", EXACT, True, 0.31, (0.3, 0.31)),
        ("c", LOW, True, 0.3, None),  # ties with b's lower end: b came first
        ("d", UP, True, 0.5, None),
        ("e", UP, False, 0.1, None),  # invalid: ignored
        ("f", UP, True, 0.45, (0.4, 0.45)),
    ]
    assert best_certified(candidates, side="lower") == (0.3, "b")
    assert best_certified(candidates, side="upper") == (0.31, "b")  # exact's upper end counts on that side
    assert best_certified([c for c in candidates if c[1] is UP], side="upper") == (0.45, "f")
    assert best_certified([], side="lower") is None


def test_a_bad_side_is_refused():
    with pytest.raises(ParameterError, match="^side = "):
        certified_end(UP, side="middle", valid=True, value=0.5, interval=None)  # type: ignore[arg-type]
