"""Every registered amplification bound at one parameter point: the core of `bounds`, `compare`,
the default report and the soundness tests.

An amplification bound is a statement with tag "amplification" and inputs eps0, n, delta (plus
mechanism parameters such as k). Generic bounds hold for every eps0-LDP randomizer; a
mechanism-specific one only for its mechanism. The exact reference for binary randomized response is
`exact.shuffled_binary_rr`: no bound valid for generic eps0-LDP randomizers may be below it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..proofs_checks.bridge import evaluate
from ..spec.catalog import all_statements as list_statements  # no SymPy when the catalog applies
from .results import recorded_neighbouring

if TYPE_CHECKING:
    from ..spec.catalog import Entry
    from ..spec.statement import Statement

__all__ = ["EXACT_BINARY_RR_ID", "BoundRow", "amplification_statements", "evaluate_bounds"]

EXACT_BINARY_RR_ID = "exact.shuffled_binary_rr"
GENERIC = "generic"


@dataclass(frozen=True)
class BoundRow:
    """One bound at one point (eps0, n, delta). `valid`: the bound is certified AT the point's delta. A statement
    whose epsilon holds only at a larger delta' (FMT21 Prop 2.2 with delta0 > 0: `spec.terms.EffectiveDelta`) is
    no bound at delta: `valid` false, its eps kept with `delta_effective` (the delta' at which it holds) and a
    reason saying so; with delta' <= delta (delta0 = 0) it is valid. Every consumer that compares rows (the
    sort of `bounds`, the tightest of `compare`, the gap, `audit`'s certified bound) relies on `valid` alone."""

    id: str
    mechanism: str
    eps: float | None
    valid: bool
    reason: str
    interval: tuple[float, float] | None
    seconds: float
    delta_effective: float | None = None
    delta_effective_formula: str = ""
    # The statement's direction (`spec.terms.Direction` value): upper_bound, lower_bound or exact.
    direction: str = ""

    def to_json(self) -> dict:
        out = {
            "id": self.id,
            "mechanism": self.mechanism,
            "eps": self.eps,
            "valid": self.valid,
            "reason": self.reason,
            "interval": None if self.interval is None else list(self.interval),
            "seconds": self.seconds,
        }
        if self.delta_effective_formula:  # only for statements whose epsilon holds at another delta
            out.update(delta_effective=self.delta_effective, delta_effective_formula=self.delta_effective_formula)
        out["direction"] = self.direction
        out["neighbouring"] = recorded_neighbouring(self.id)  # the relation the row's number is for
        return out


def amplification_statements(mechanism: str | None = None) -> tuple[Statement | Entry, ...]:
    """Amplification bounds, excluding the exact reference; `mechanism=None` gives all of them,
    otherwise those for that mechanism plus the generic ones (which apply to every mechanism)."""
    found = []
    for statement in list_statements():
        if not statement.is_amplification_bound or statement.id == EXACT_BINARY_RR_ID:
            continue
        kind = statement.mechanism or GENERIC
        if mechanism is None or kind in (GENERIC, mechanism):
            found.append(statement)
    return tuple(found)


def evaluate_bounds(eps0: float, n: int, delta: float, *, mechanism: str | None = GENERIC, extra: dict | None = None) -> list[BoundRow]:
    """Each applicable bound at (eps0, n, delta); a bound needing a parameter not given is skipped."""
    given = {"eps0": eps0, "n": n, "delta": delta, **(extra or {})}
    rows = []
    for statement in amplification_statements(mechanism):
        if not set(statement.input_names) <= set(given):
            continue
        params = {name: given[name] for name in statement.input_names}
        start = time.perf_counter()
        result = evaluate(statement, params)
        rows.append(
            BoundRow(
                statement.id, statement.mechanism or GENERIC, result.value, result.holds_at_requested_delta, result.reason, result.interval,
                time.perf_counter() - start, result.delta_effective, result.extra.get("delta_effective_formula", ""),
                statement.direction.value,
            )
        )
    return rows
