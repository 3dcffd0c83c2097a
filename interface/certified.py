"""Which end of a statement's answer is certified, and the best of several answers at one point: the one
truth-selection rule shared by `interface/audit/verdicts.py` (the lower bound on the true epsilon an audited
bound is held to) and `interface/tightest.py` (the gap between the tightest upper and the largest lower
bound).

- An upper bound certifies that the true epsilon is at most its value (the upper end of its interval).
- A lower bound certifies that the true epsilon is at least the lower end of its interval (its value when it
  returns a plain number).
- An exact statement certifies both ends of its interval; when it returns a plain number, that number
  rounded down (up) by 16 units in the last place stands for its lower (upper) end.
An invalid answer, or one without a finite number, certifies nothing. Among several answers the largest
certified lower end and the smallest certified upper end win; on a tie the first one given.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Literal

from ..reference.core.errors import ParameterError
from ..reference.core.rounding import round_down, round_up
from ..spec.terms import Direction

__all__ = ["Candidate", "best_certified", "certified_end"]

Side = Literal["lower", "upper"]
# (statement id, its direction, valid, value, interval) as `bridge.evaluate` or a `BoundRow` gives them.
Candidate = tuple[str, Direction, bool, "float | None", "tuple[float, float] | None"]


def certified_end(direction: Direction, *, side: Side, valid: bool, value: float | None, interval: tuple[float, float] | None) -> float | None:
    """The number an answer certifies the true epsilon is at least (side "lower") or at most (side
    "upper"), or None when it certifies nothing on that side (module doc)."""
    if side not in ("lower", "upper"):
        raise ParameterError("side", side, "'lower' or 'upper'")
    if not valid or value is None or not math.isfinite(value):
        return None
    if side == "lower":
        if direction is Direction.LOWER_BOUND:
            return float(interval[0]) if interval is not None else float(value)
        if direction is Direction.EXACT:
            return float(interval[0]) if interval is not None else round_down(value, 16)
        return None
    if direction is Direction.UPPER_BOUND:
        return float(value)
    if direction is Direction.EXACT:
        return float(interval[1]) if interval is not None else round_up(value, 16)
    return None


def best_certified(candidates: Iterable[Candidate], *, side: Side) -> tuple[float, str] | None:
    """(eps, statement id) of the largest certified lower end (side "lower") or the smallest certified
    upper end (side "upper") among the candidates; None when none certifies anything on that side."""
    best: tuple[float, str] | None = None
    for statement_id, direction, valid, value, interval in candidates:
        end = certified_end(direction, side=side, valid=valid, value=value, interval=interval)
        if end is None:
            continue
        if best is None or (end > best[0] if side == "lower" else end < best[0]):
            best = (end, statement_id)
    return best
