"""The one result type of the references: a certified interval, the direction of its claim, and its value.

`value` is the end a user should use, the certified end in the result's own direction (`direction`, the
same words as a statement's direction in spec: "upper_bound", "lower_bound", "exact"):
- an upper bound on epsilon (or delta) reports the interval's upper end, so rounding errors and truncated tails
  can only make it larger than the exact value of the bound;
- a lower bound reports the interval's lower end: its claim is "the truth is at least this", so the number
  shown must be at most the exact value of the bound;
- an exact value (an enclosure of the truth itself) reports the upper end: over-reporting an epsilon or a delta
  is the safe side of a privacy guarantee (a user who relies on it can only be told less privacy than holds).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Literal, get_args

__all__ = ["NO_AMPLIFICATION", "NO_COMPOSITION_GAIN", "BoundDirection", "BoundValue", "DIRECTIONS"]

# The note of a bound that certifies nothing below eps0: every eps0-LDP protocol is eps0-DP after shuffling,
# so eps0 itself is the answer (EFMRTT19, the post-processing remark before Thm 7).
NO_AMPLIFICATION = "no amplification provable at these parameters: the local eps0 is returned"
# The same for a composition of shuffled rounds: basic composition's sum of the rounds' eps0 is the answer.
NO_COMPOSITION_GAIN = "no amplification provable at these parameters: the sum of eps0 over the rounds is returned"

# The statement directions a numeric result can have (spec/terms.py's `Direction` values without
# "definition"); reference/ never imports spec/, so the words are repeated here and a test compares them.
BoundDirection = Literal["upper_bound", "lower_bound", "exact"]
DIRECTIONS: tuple[str, ...] = get_args(BoundDirection)


@dataclass(frozen=True)
class BoundValue:
    """A certified evaluation: the exact value of the computed quantity lies in [lower, upper]; `direction`
    says what that quantity is relative to the truth the statement speaks of, and `value` is the certified end
    in that direction (module doc): `lower` for a lower bound, `upper` for an upper bound or an exact value.

    `direction` has no default: every place that builds a result says which claim it makes. `note` says how it
    was obtained when that matters to the user (for instance "no amplification provable at these parameters:
    the local eps0 is returned").
    """

    lower: float
    upper: float
    note: str = ""
    direction: BoundDirection = field(kw_only=True)

    def __post_init__(self) -> None:
        if math.isnan(self.lower) or math.isnan(self.upper) or self.lower > self.upper:
            raise ValueError(f"invalid certified interval [{self.lower}, {self.upper}]")
        if self.direction not in DIRECTIONS:
            raise ValueError(f"direction = {self.direction!r}: expected one of {', '.join(DIRECTIONS)}")

    @property
    def value(self) -> float:
        """The certified end in the result's direction: `lower` for a lower bound, else `upper`."""
        return self.lower if self.direction == "lower_bound" else self.upper

    def __float__(self) -> float:
        return float(self.value)

    def contains(self, x: float) -> bool:
        return self.lower <= x <= self.upper

    def in_direction(self, direction: BoundDirection) -> BoundValue:
        """The same interval and note, claimed in `direction`: for a statement's reference that returns what a
        shared routine computed (the certified root of a delta function is an exact enclosure of that root; the
        statement says whether the root bounds the truth from above or below)."""
        return replace(self, direction=direction)
