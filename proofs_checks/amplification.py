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

from shuffle_spec.proofs_checks.bridge import evaluate
from shuffle_spec.proofs_checks.catalog import all_statements as list_statements  # no SymPy when the catalog applies

if TYPE_CHECKING:
    from shuffle_spec.proofs_checks.catalog import Entry
    from shuffle_spec.spec.statement import Statement

__all__ = ["EXACT_BINARY_RR_ID", "BoundRow", "amplification_statements", "evaluate_bounds"]

EXACT_BINARY_RR_ID = "exact.shuffled_binary_rr"
GENERIC = "generic"


@dataclass(frozen=True)
class BoundRow:
    id: str
    mechanism: str
    eps: float | None
    valid: bool
    reason: str
    interval: tuple[float, float] | None
    seconds: float

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "mechanism": self.mechanism,
            "eps": self.eps,
            "valid": self.valid,
            "reason": self.reason,
            "interval": None if self.interval is None else list(self.interval),
            "seconds": self.seconds,
        }


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
            BoundRow(statement.id, statement.mechanism or GENERIC, result.value, result.valid, result.reason, result.interval, time.perf_counter() - start)
        )
    return rows
