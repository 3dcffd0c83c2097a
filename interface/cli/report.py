"""The default report of a bare `shuffle-spec`: what is covered, and every amplification bound in the
default scenario (eps0 = 1, n = 10^4, delta = 10^-6)."""

from __future__ import annotations

from collections import Counter
from typing import TypedDict

from ..amplification import EXACT_BINARY_RR_ID, evaluate_bounds
from ...proofs_checks.bridge import evaluate
from ...spec.catalog import all_statements as list_statements  # no SymPy when the catalog applies
from .output import print_table


class _Scenario(TypedDict):
    eps0: float
    n: int
    delta: float


DEFAULT_SCENARIO: _Scenario = {"eps0": 1.0, "n": 10_000, "delta": 1e-6}


def run_default_report() -> int:
    statements = list_statements()
    per_paper = Counter(s.paper for s in statements)
    print("shuffle-spec: privacy amplification by shuffling, specified and checked")
    print(f"{len(statements)} statements: " + ", ".join(f"{p} {c}" for p, c in per_paper.items()))
    print()
    scenario = ", ".join(f"{k}={v:g}" for k, v in DEFAULT_SCENARIO.items())
    print(f"Central epsilon of a shuffled eps0-LDP randomizer at {scenario}:")
    # A row not certified at the scenario's delta (an epsilon at a larger delta') shows no eps, only its reason.
    rows = [[r.id, r.mechanism, r.eps if r.valid else None, r.reason] for r in evaluate_bounds(**DEFAULT_SCENARIO)]
    by_id = {s.id: s for s in statements}
    if EXACT_BINARY_RR_ID in by_id:
        exact = evaluate(by_id[EXACT_BINARY_RR_ID], DEFAULT_SCENARIO)
        # The value is the upper end of the certified worst case (its note gives the interval's width).
        rows.append([EXACT_BINARY_RR_ID, "binary_rr (exact truth)", exact.value, exact.reason])
    rows.sort(key=lambda r: (r[2] is None, r[2] if r[2] is not None else 0.0))
    if rows:
        print_table(["id", "randomizer", "eps", "note"], rows)
    else:
        print("  (no amplification bound registered yet)")
    print()
    print("More: shuffle-spec list | show ID | eval ID --param NAME=VALUE | check")
    return 0
