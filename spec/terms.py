"""The vocabulary shared by statements and the catalog, without SymPy.

`Kind`, `Direction`, `Source` and `HypothesisError` are used by code that must stay fast (the catalog, the
`eval` path, the public API), so they live here, free of SymPy; `spec.statement` re-exports them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Mapping

__all__ = ["Direction", "HypothesisError", "Kind", "Source"]


class Kind(str, Enum):
    DEFINITION = "Def"
    LEMMA = "Lem"
    THEOREM = "Thm"
    COROLLARY = "Cor"
    PROPOSITION = "Prop"
    ALGORITHM = "Alg"
    PROCEDURE = "Procedure"


class Direction(str, Enum):
    """What the statement's value is relative to the true quantity it speaks of."""

    UPPER_BOUND = "upper_bound"
    LOWER_BOUND = "lower_bound"
    EXACT = "exact"
    DEFINITION = "definition"


@dataclass(frozen=True)
class Source:
    paper: str
    locator: str
    version: str = ""
    confidence: str = "high"

    def __str__(self) -> str:
        version = f", {self.version}" if self.version else ""
        return f"{self.paper} {self.locator}{version}"


class HypothesisError(ValueError):
    """A statement was used outside its hypotheses.

    Fields: `statement_id`; `hypothesis`, the hypothesis's short human name (`Statement.hypothesis_names`,
    or its text when short, or the violated assumption such as `delta > 0`); `values`, the parameters.
    """

    def __init__(self, statement_id: str, hypothesis: str, values: Mapping[str, object]):
        self.statement_id = statement_id
        self.hypothesis = hypothesis
        self.values = dict(values)
        shown = ", ".join(f"{k}={v}" for k, v in self.values.items())
        super().__init__(f"{statement_id}: hypothesis {hypothesis} fails for {shown}")
