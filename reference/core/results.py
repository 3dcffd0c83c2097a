"""The value a numeric bound returns: the reported number with the interval it certifies.

`value` is what a user should use: for an upper bound on epsilon it is the interval's upper end,
so rounding errors and truncated tails can only make it larger than the exact value of the bound.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["BoundValue"]


@dataclass(frozen=True)
class BoundValue:
    """A certified evaluation: the exact value of the bound lies in [lower, upper]; value == upper.

    `note` says how it was obtained when that matters to the user (for instance "no amplification
    provable at these parameters: the local eps0 is returned").
    """

    lower: float
    upper: float
    note: str = ""

    def __post_init__(self) -> None:
        if math.isnan(self.lower) or math.isnan(self.upper) or self.lower > self.upper:
            raise ValueError(f"invalid certified interval [{self.lower}, {self.upper}]")

    @property
    def value(self) -> float:
        return self.upper

    def __float__(self) -> float:
        return self.upper

    def contains(self, x: float) -> bool:
        return self.lower <= x <= self.upper
