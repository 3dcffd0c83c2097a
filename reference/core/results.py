"""The value a numeric bound returns: the reported number with the interval it certifies.

`value` is what a user should use: for an upper bound on epsilon it is the interval's upper end,
so rounding errors and truncated tails can only make it larger than the exact value of the bound.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["NO_AMPLIFICATION", "NO_COMPOSITION_GAIN", "BoundValue"]

# The note of a bound that certifies nothing below eps0: every eps0-LDP protocol is eps0-DP after shuffling,
# so eps0 itself is the answer (EFMRTT19, the post-processing remark before Thm 7).
NO_AMPLIFICATION = "no amplification provable at these parameters: the local eps0 is returned"
# The same for a composition of shuffled rounds: basic composition's sum of the rounds' eps0 is the answer.
NO_COMPOSITION_GAIN = "no amplification provable at these parameters: the sum of eps0 over the rounds is returned"


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
