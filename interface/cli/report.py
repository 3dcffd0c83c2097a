"""The default report of a bare `shuffle-spec`: what is covered, and every amplification bound in the
default scenario (eps0 = 1, n = 10^4, delta = 10^-6).

Safe by default: the first number printed is the generic certified answer (the tightest valid upper bound that
holds for every eps0-LDP randomizer, FMT21 Theorem 3.2's numerical clone bound at these parameters), then every
generic upper bound, and only then, in a section of their own and labelled with the one randomizer they hold
for, the mechanism-specific truths (the exact worst case of shuffled binary randomized response): a number that
holds for binary RR only must never be the first one a user reads and copies. Neighbouring datasets differ in
one user's data, n fixed (the replace-one relation of the source papers).
"""

from __future__ import annotations

from collections import Counter
from typing import TypedDict

from ..amplification import EXACT_BINARY_RR_ID, evaluate_bounds
from ...proofs_checks.bridge import evaluate
from ...spec.catalog import all_statements as list_statements  # no SymPy when the catalog applies
from .output import GENERIC_LABEL, format_number, holds_for, print_table


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
    print(f"Central epsilon of a shuffled eps0-LDP randomizer at {scenario} (neighbours: replace one user's data):")
    # A row not certified at the scenario's delta (an epsilon at a larger delta') shows no eps, only its reason.
    rows = evaluate_bounds(**DEFAULT_SCENARIO)
    generic = [[r.id, r.eps if r.valid else None, r.reason] for r in rows if r.direction == "upper_bound"]
    # A generic statement that is no upper bound (none is registered today) is never listed among them.
    others = [[r.id, GENERIC_LABEL, r.direction, r.eps if r.valid else None, r.reason] for r in rows if r.direction != "upper_bound"]
    generic.sort(key=lambda r: (r[1] is None, r[1] if r[1] is not None else 0.0))
    best = generic[0] if generic and generic[0][1] is not None else None
    if best is not None:
        print(f"certified upper bound, every eps0-LDP randomizer: {format_number(best[1])} ({best[0]})")
    else:
        print("certified upper bound, every eps0-LDP randomizer: none at these parameters")
    print()
    if generic:
        print("Generic upper bounds (hold for every eps0-LDP randomizer), tightest first:")
        print_table(["id", "eps", "note"], generic)
    else:
        print("  (no amplification bound registered yet)")
    by_id = {s.id: s for s in statements}
    if others:
        print()
        print("Not upper bounds (never a privacy guarantee):")
        print_table(["id", "holds for", "direction", "eps", "note"], others)
    if EXACT_BINARY_RR_ID in by_id:
        exact = evaluate(by_id[EXACT_BINARY_RR_ID], DEFAULT_SCENARIO)
        print()
        print("Mechanism-specific (holds only for the randomizer named; not a bound for any other):")
        # The value is the upper end of the certified worst case (its note gives the interval's width).
        print_table(["id", "holds for", "direction", "eps", "note"],
                    [[EXACT_BINARY_RR_ID, holds_for("binary_rr"), "exact", exact.value if exact.valid else None, exact.reason]])
    print()
    print("More: shuffle-spec list | show ID | eval ID --param NAME=VALUE | check")
    return 0
