"""`shuffle-spec compare --eps0 E --n N --delta D [--json]`: every amplification bound that holds for generic
eps0-LDP randomizers, next to the exact central eps of shuffled binary randomized response.

Binary RR is itself an eps0-LDP randomizer, so no valid generic bound may be below its exact value; the
ratio bound / exact says how loose each bound is (>= 1 for every sound bound). The tightest valid bound is
marked. JSON: {"params", "bounds": [{"id", "eps", "valid", "reason", "ratio_to_exact", "direction"}], "exact": {"id", "eps", "interval"}}
(exact "eps" is the upper end of the certified interval, used for the ratios; "interval" is [lower, upper])
with `exact` null (and every ratio null) when `exact.shuffled_binary_rr` is not registered or refuses the point.
Bounds are listed valid first, by increasing eps, so the first one is the tightest.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from ...amplification import EXACT_BINARY_RR_ID, evaluate_bounds
from ....proofs_checks.bridge import Evaluation, evaluate, parse_number
from ...limits import DELTA_MIN, EPS0_MAX, N_MAX, RANGES_TEXT
from ..output import format_number, holds_for, print_json, print_table
from ..points import parse_params  # noqa: F401  (also this module's name for it, as before)
from ...results import recorded_neighbouring
from ....spec.catalog import resolve  # no SymPy when the catalog applies

NAME = "compare"
EPILOG = RANGES_TEXT
HELP = "every generic amplification bound at (eps0, n, delta), its ratio to the exact shuffled binary RR eps, tightest marked"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--eps0", required=True, help=f"local epsilon, 0 < eps0 <= {EPS0_MAX:g}")
    parser.add_argument("--n", required=True, help=f"number of users, an integer 1 <= n <= {N_MAX:.0e} (1e6 is accepted)")
    parser.add_argument("--delta", required=True, help=f"central delta, {DELTA_MIN:g} <= delta < 1")
    parser.add_argument("--randomizer", choices=("krr", "binary_rr"), help="also the certified gap for this randomizer (tightest upper, largest lower bound)")
    parser.add_argument("--k", help="domain size of k-RR, with --randomizer krr")
    parser.add_argument("--json", action="store_true", help="print JSON")


def _ratio(eps: float | None, exact: float | None) -> float | None:
    if eps is None or exact is None or not exact > 0:
        return None
    return eps / exact


def exact_evaluation(eps0: float, n: int, delta: float, exact_id: str | None = None) -> Evaluation | None:
    """`exact_id` (default exact.shuffled_binary_rr) evaluated at (eps0, n, delta), or None when it is not
    registered. `run` evaluates it once per point and hands the result to both the table and the gap."""
    exact_id = EXACT_BINARY_RR_ID if exact_id is None else exact_id
    try:
        statement = resolve(exact_id)
    except KeyError:
        return None
    return evaluate(statement, {"eps0": eps0, "n": n, "delta": delta})


def comparison(eps0: float, n: int, delta: float, *, exact_id: str | None = None, evaluated: Evaluation | None = None) -> dict:
    """The compare command's JSON object at (eps0, n, delta); `exact_id` defaults to exact.shuffled_binary_rr.
    `evaluated`: `exact_evaluation(eps0, n, delta, exact_id)` already computed by the caller (else computed here)."""
    exact_id = EXACT_BINARY_RR_ID if exact_id is None else exact_id
    exact: dict[str, Any] | None = None
    if evaluated is None:
        evaluation = exact_evaluation(eps0, n, delta, exact_id)
    else:
        point = {"eps0": eps0, "n": n, "delta": delta}
        if not (evaluated.id == exact_id and evaluated.params == point):
            from ....proofs_checks.framework import CheckFailed  # imports SymPy: only on this failure

            raise CheckFailed(f"the evaluation passed in is {evaluated.id} at {evaluated.params}, not {exact_id} at {point}")
        evaluation = evaluated
    if evaluation is not None and evaluation.valid:
        # Ratios (tightness) use the UPPER end of the certified worst case; a bound below the LOWER end
        # ("interval"[0]) is unsound (exact.shuffled_binary_rr: interval of relative width <= 1e-6).
        exact = {"id": exact_id, "eps": evaluation.value, "interval": list(evaluation.interval) if evaluation.interval else None}
    exact_eps = None if exact is None else exact["eps"]
    rows = evaluate_bounds(eps0, n, delta)
    rows.sort(key=lambda r: (not r.valid or r.eps is None, r.eps if r.eps is not None else math.inf, r.id))
    # `valid`: certified at this delta (`BoundRow`); a statement whose eps holds at another delta also gives it.
    bounds = [
        {"id": r.id, "eps": r.eps, "valid": r.valid, "reason": r.reason, "ratio_to_exact": _ratio(r.eps if r.valid else None, exact_eps),
         **({"delta_effective": r.delta_effective, "delta_effective_formula": r.delta_effective_formula} if r.delta_effective_formula else {}),
         "direction": r.direction, "neighbouring": recorded_neighbouring(r.id)}
        for r in rows
    ]
    return {"params": {"eps0": eps0, "n": n, "delta": delta}, "bounds": bounds, "exact": exact}


def tightest_id(result: dict) -> str | None:
    """The id of the valid bound with the smallest eps (the first listed), or None when none is valid."""
    valid = [b for b in result["bounds"] if b["valid"] and b["eps"] is not None]
    return min(valid, key=lambda b: b["eps"])["id"] if valid else None


def run(args: argparse.Namespace) -> int:
    params = parse_params(args.eps0, args.n, args.delta)
    # The exact worst case costs seconds at large n: evaluated once, shown in the table and used by the gap.
    evaluated = exact_evaluation(**params)
    result = comparison(**params, evaluated=evaluated)
    gap = None
    if getattr(args, "randomizer", None):
        from ...tightest import tightest  # the certified gap

        k = None if args.k is None else parse_number("k", args.k, integer=True)
        gap = tightest(randomizer=args.randomizer, k=k, exact_evaluation=evaluated, **params)
        result["gap"] = {key: value for key, value in gap.to_json().items() if key != "bounds"}
    if args.json:
        print_json(result)
        return 0
    best = tightest_id(result)
    exact = result["exact"]
    print(f"eps0={params['eps0']:g}, n={params['n']}, delta={params['delta']:g}")
    # Safe by default: the headline is the generic certified answer; the exact binary-RR value (the yardstick of the
    # ratios) holds for binary RR only and comes after the table, labelled so.
    if best is not None:
        chosen = next(b for b in result["bounds"] if b["id"] == best)
        print(f"certified upper bound, every eps0-LDP randomizer: {format_number(chosen['eps'])} ({best})")
    else:
        print("certified upper bound, every eps0-LDP randomizer: none valid at these parameters")
    rows = [
        [("* " if b["id"] == best else "  ") + b["id"], b["direction"], b["eps"] if b["valid"] else None, b["ratio_to_exact"], "valid" if b["valid"] else "not valid: " + b["reason"]]
        for b in result["bounds"]
    ]
    print_table(["bound (* tightest)", "direction", "eps", "ratio_to_exact", "status"], rows)
    if exact is None:
        print("exact: shuffled binary RR unavailable (not registered or refused); ratios not computed")
    else:
        print(f"exact ({exact['id']}, {holds_for('binary_rr')}, the ratios' yardstick): eps = {format_number(exact['eps'])}")
    if gap is not None:
        print(gap.line() + f" [{holds_for(args.randomizer)}]")
    return 0
