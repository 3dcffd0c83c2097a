"""The vocabulary shared by statements and the catalog, without SymPy.

`Kind`, `Direction`, `Source` and `HypothesisError` are used by code that must stay fast (the catalog, the
`eval` path, the public API), so they live here, free of SymPy; `spec.statement` re-exports them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Mapping

__all__ = ["Direction", "EffectiveDelta", "HypothesisError", "Kind", "Source"]


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


@dataclass(frozen=True)
class EffectiveDelta:
    """The delta at which a statement's conclusion holds, for a statement where that is not its input `delta`.

    FMT21 Prop 2.2 (shuffled (eps0, delta0)-LDP randomizers) gives its epsilon at delta' = delta + (e^eps + 1)
    (1 + e^-eps0) n delta0, not at the delta it takes; advanced composition gives eps' at k delta + delta'.
    `provider`: the id of the registered statement whose value is that delta (an upper bound on it), evaluated
    at this statement's own inputs (its inputs are among them); "" when that delta depends on a quantity that is
    not an input (the per-step delta of a composition), and then only `formula` can be reported. `formula`: the
    delta in words, as shown next to the value (`eval`, `bounds`)."""

    provider: str
    formula: str

    def to_json(self) -> dict[str, str]:
        return {"provider": self.provider, "formula": self.formula}


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
