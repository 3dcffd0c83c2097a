"""`shuffle-spec bounds --eps0 E --n N --delta D [--randomizer krr --k K] [--json | --csv]`: every
applicable amplification bound at one point or over a sweep, the exact value where one exists, and
which hypotheses fail and why.

Each of --eps0, --n, --delta takes a number, a comma list (`0.5,1,2`) or a log grid `LOW:HIGH[:COUNT]`
(`1e4:1e8:9`, COUNT default 9); n is rounded to integers. The sweep is their product.
Supported: 0 < eps0 <= EPS0_MAX, 1 <= n <= N_MAX, DELTA_MIN <= delta < 1, 2 <= k <= K_MAX, at most
MAX_GRID_COUNT values per parameter and MAX_POINTS points (`shuffle_spec.interface.limits`); outside them the
command refuses before computing anything.
"""

from __future__ import annotations

import argparse
import math
from typing import Any, Literal, cast, overload

from ...amplification import EXACT_BINARY_RR_ID, GENERIC, BoundRow, amplification_statements, evaluate_bounds
from ....proofs_checks.bridge import BadParameter, Evaluation, UsageError, evaluate, parse_number, require_supported
from ...limits import (
    DELTA_MIN,
    EPS0_MAX,
    K_MAX,
    N_MAX,
    MAX_GRID_COUNT,
    MAX_POINTS,
    RANGES_TEXT,
    TimeLimitExceeded,
    time_limit,
)
from .eval import parse_assignments
from ..output import holds_for, print_csv, print_json, print_table, progress
from ....spec.catalog import all_statements as list_statements, resolve as get_statement  # no SymPy when the catalog applies
from ....spec.terms import Direction

NAME = "bounds"
EPILOG = RANGES_TEXT
HELP = "every applicable central-epsilon bound for a shuffled eps0-LDP randomizer (sweeps with lists or LOW:HIGH:COUNT)"

KNOWN_MECHANISMS = (GENERIC, "krr", "binary_rr", "laplace")
DEFAULT_COUNT = 9
# Exact enumerations grow fast with n: each gets this long per point, and once one times out it is
# not tried again at larger n in the same run.
EXACT_SECONDS = 10
_EXACT_TIMED_OUT: dict[str, int] = {}
MAX_GRID_CHARS = 20_000


GAP_RANDOMIZERS = ("krr", "binary_rr", "laplace")  # randomizers with registered certified lower bounds


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--eps0", required=True, help=f"local epsilon (0 < eps0 <= {EPS0_MAX:g}): number, list a,b,c or log grid LOW:HIGH[:COUNT]")
    parser.add_argument("--n", required=True, help=f"number of users (an integer, 1 <= n <= {N_MAX:.0e}): number, list or log grid (e.g. 1e4:1e8:9)")
    parser.add_argument("--delta", required=True, help=f"central delta ({DELTA_MIN:g} <= delta < 1): number, list or log grid")
    parser.add_argument("--randomizer", default=GENERIC, metavar="NAME", help=f"mechanism-specific bounds too: {', '.join(KNOWN_MECHANISMS)} (default generic)")
    parser.add_argument("--k", help=f"domain size of k-ary randomized response, an integer 2 <= k <= {K_MAX:.0e}")
    parser.add_argument("--param", "-p", action="append", default=[], metavar="NAME=VALUE", help="another mechanism parameter")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print JSON")
    form.add_argument("--csv", action="store_true", help="print CSV (one row per point and bound)")


@overload
def parse_grid(text: str, name: str, *, integer: Literal[True], default_count: int = DEFAULT_COUNT) -> list[int]: ...
@overload
def parse_grid(text: str, name: str, *, integer: bool = False, default_count: int = DEFAULT_COUNT) -> list[float | int]: ...
def parse_grid(text: str, name: str, *, integer: bool = False, default_count: int = DEFAULT_COUNT) -> list[float | int] | list[int]:
    """`5`, `1,2,3` or `LOW:HIGH[:COUNT]` (COUNT points evenly spaced in log scale, ends included; for
    an integer parameter the grid points are rounded to integers and repeats dropped). Every value is
    parsed strictly (`bridge.parse_number`) and checked against the supported range; at most
    `MAX_GRID_COUNT` values. Raises `UsageError` naming the option."""
    if len(text) > MAX_GRID_CHARS:
        raise UsageError(f"--{name}: {len(text)} characters; at most {MAX_GRID_CHARS}")
    values: list[float | int]
    if ":" in text:
        parts = text.split(":")
        if len(parts) not in (2, 3):
            raise UsageError(f"--{name} expects a number, a list a,b,c or a log grid LOW:HIGH[:COUNT], got {text!r}")
        low = float(parse_number(name, parts[0], integer=integer))
        high = float(parse_number(name, parts[1], integer=integer))
        count = parse_number(f"{name} grid COUNT", parts[2], integer=True) if len(parts) == 3 else default_count
        if not 1 <= count <= MAX_GRID_COUNT:
            raise BadParameter(f"{name} grid COUNT", count, f"1 <= COUNT <= {MAX_GRID_COUNT} (the largest grid)")
        if not 0 < low <= high:
            raise UsageError(f"--{name} {text!r}: a log grid needs 0 < LOW <= HIGH and COUNT >= 1")
        if count == 1 or low == high:
            values = [low]
        else:
            step = (math.log(high) - math.log(low)) / (count - 1)
            values = [math.exp(math.log(low) + i * step) for i in range(count)]
            values[0], values[-1] = low, high
        if integer:
            values = [round(v) for v in values]
    else:
        items = text.split(",")
        if len(items) > MAX_GRID_COUNT:
            raise UsageError(f"--{name}: a list of {len(items)} values; at most {MAX_GRID_COUNT}")
        parsed = [parse_number(name, item, integer=integer) for item in items]
        values = [cast(int, v) if integer else float(v) for v in parsed]  # integer=True parses to ints
    unique = list(dict.fromkeys(values))
    for value in unique:
        require_supported(name, value)
    return unique


def exact_statements(mechanism: str) -> list:
    """Exact (not bound) statements about the shuffled `mechanism` evaluable from (eps0, n, delta)."""
    found = []
    for s in list_statements():
        if s.direction is not Direction.EXACT or not {"eps0", "n", "delta"} <= set(s.input_names):
            continue
        if (s.mechanism or GENERIC) == mechanism or (s.id == EXACT_BINARY_RR_ID and mechanism == "binary_rr"):
            found.append(s)
    return found


def rows_at(eps0: float, n: int, delta: float, mechanism: str, extra: dict[str, Any], *, evaluations: dict[str, Evaluation] | None = None) -> tuple[list[BoundRow], list[dict[str, Any]]]:
    """(bound rows, exact rows) at one point. Binary RR is k-RR with k = 2, so k-RR bounds apply to it.
    `evaluations`, when given, receives the evaluation of each exact statement that completed, by id: the gap
    line reuses exact.shuffled_binary_rr's (seconds at large n) instead of evaluating it a second time."""
    rows = evaluate_bounds(eps0, n, delta, mechanism=mechanism, extra=extra)
    if mechanism == "binary_rr":
        seen = {r.id for r in rows}
        rows += [r for r in evaluate_bounds(eps0, n, delta, mechanism="krr", extra={**extra, "k": 2}) if r.id not in seen]
    rows = [r for r in rows if get_statement(r.id).direction is not Direction.EXACT]
    exact = []
    for statement in exact_statements(mechanism):
        given = {"eps0": eps0, "n": n, "delta": delta, **extra}
        if not set(statement.input_names) <= set(given):
            continue
        too_slow_from = _EXACT_TIMED_OUT.get(statement.id)
        if too_slow_from is not None and n >= too_slow_from:
            exact.append({"id": statement.id, "eps": None, "valid": False, "reason": f"not computed: over {EXACT_SECONDS} s already at n = {too_slow_from}"})
            continue
        try:
            with time_limit(EXACT_SECONDS):
                result = evaluate(statement, {k: given[k] for k in statement.input_names})
        except TimeLimitExceeded:
            _EXACT_TIMED_OUT[statement.id] = n
            exact.append({"id": statement.id, "eps": None, "valid": False, "reason": f"not computed: over {EXACT_SECONDS} s at n = {n}"})
            continue
        if evaluations is not None:
            evaluations[statement.id] = result
        exact.append({"id": statement.id, "eps": result.value, "valid": result.valid, "reason": result.reason})
    return rows, exact


def not_applicable(mechanism: str, extra: dict[str, Any]) -> list[dict[str, str]]:
    """Amplification bounds left out at this mechanism, and why."""
    applicable = {s.id for s in amplification_statements(mechanism)}
    if mechanism == "binary_rr":
        applicable |= {s.id for s in amplification_statements("krr")}
    given = {"eps0", "n", "delta", *extra}
    if mechanism == "binary_rr":
        given.add("k")
    out = []
    for s in amplification_statements(None):
        if s.id not in applicable:
            out.append({"id": s.id, "reason": f"only for the {s.mechanism} mechanism (--randomizer {s.mechanism})"})
        elif not set(s.input_names) <= given:
            missing = sorted(set(s.input_names) - given)
            out.append({"id": s.id, "reason": f"needs {', '.join('--' + m if m == 'k' else '--param ' + m + '=...' for m in missing)}"})
    return out


# Safe by default: the upper bounds (what may be published) come first, then the exact values of one mechanism,
# then the lower bounds (the exact epsilon of particular neighbouring pairs: a yardstick, never a guarantee).
DIRECTION_ORDER = {"upper_bound": 0, "exact": 1, "lower_bound": 2}


def listing_order(item: tuple[str, bool, float | None, list[Any]]) -> tuple[int, bool, bool, float]:
    """The sort key of a listed row (direction, valid, eps, cells): upper bounds first, then exact values, then lower
    bounds; within each, the valid rows by eps (tightest first), then those without a number."""
    direction, valid, eps, _ = item
    return (DIRECTION_ORDER.get(direction, len(DIRECTION_ORDER)), not valid, eps is None, eps if eps is not None else 0.0)


def known_mechanisms() -> set[str]:
    """Every value --randomizer accepts."""
    return set(KNOWN_MECHANISMS) | {s.mechanism for s in list_statements() if s.mechanism}


def run(args: argparse.Namespace) -> int:
    mechanisms = known_mechanisms()
    if args.randomizer not in mechanisms:
        raise UsageError(f"--randomizer {args.randomizer!r} is not known; known: {', '.join(sorted(mechanisms))}")
    extra: dict[str, Any] = {name: float(parse_number(name, value)) for name, value in parse_assignments(args.param).items()}
    if args.k is not None:
        if "k" in extra:
            raise UsageError("k is given twice (--k and --param k=...); give it once")
        extra["k"] = parse_number("k", args.k, integer=True)
    if "k" in extra:
        extra["k"] = parse_number("k", extra["k"], integer=True)
        require_supported("k", extra["k"])
    if args.randomizer == "krr" and "k" not in extra:
        raise UsageError("--randomizer krr needs --k K (the domain size)")
    grid_eps0 = parse_grid(args.eps0, "eps0")
    grid_n = parse_grid(args.n, "n", integer=True)
    grid_delta = parse_grid(args.delta, "delta")
    size = len(grid_eps0) * len(grid_n) * len(grid_delta)
    if size > MAX_POINTS:
        raise UsageError(f"the sweep has {size} points; at most {MAX_POINTS} (the largest sweep)")
    points = [(e, n, d) for e in grid_eps0 for n in grid_n for d in grid_delta]
    results: list[dict[str, Any]] = []
    for index, (eps0, n, delta) in enumerate(points, start=1):
        evaluations: dict[str, Evaluation] = {}
        rows, exact = rows_at(eps0, n, delta, args.randomizer, extra, evaluations=evaluations)
        results.append({"eps0": eps0, "n": n, "delta": delta, "bounds": rows, "exact": exact, "evaluations": evaluations})
        progress(index, len(points), "points")
    skipped = not_applicable(args.randomizer, extra)
    if args.json:
        payload = [
            {
                "eps0": r["eps0"], "n": r["n"], "delta": r["delta"],
                "bounds": [
                    dict(row.to_json(), direction=get_statement(row.id).direction.value, holds_for=holds_for(row.mechanism))
                    for row in sorted(r["bounds"], key=lambda b: listing_order((get_statement(b.id).direction.value, b.valid, b.eps, [])))
                ],
                "exact": [dict(e, direction=Direction.EXACT.value, holds_for=holds_for(args.randomizer)) for e in r["exact"]],
                **({"gap": _gap(args.randomizer, r, extra).to_json()} if args.randomizer in GAP_RANDOMIZERS else {}),
            }
            for r in results
        ]
        print_json({"randomizer": args.randomizer, "params": extra, "points": payload, "not_applicable": skipped})
        return 0
    # The last column says which randomizers a row's number holds for ("every eps0-LDP randomizer" or one
    # mechanism only); the CSV gains it as its last column "holds_for", after the columns it always had.
    headers = ["eps0", "n", "delta", "id", "kind", "eps", "valid", "reason", "holds_for"]
    flat = []
    for r in results:
        listed = [
            (get_statement(row.id).direction.value, row.valid, row.eps, [row.id, get_statement(row.id).direction.value, row.eps, row.valid, row.reason, holds_for(row.mechanism)])
            for row in r["bounds"]
        ] + [("exact", e["valid"], e["eps"], [e["id"], "exact", e["eps"], e["valid"], e["reason"], holds_for(args.randomizer)]) for e in r["exact"]]
        for _, _, _, cells in sorted(listed, key=listing_order):
            flat.append([r["eps0"], r["n"], r["delta"], *cells])
    if args.csv:
        print_csv(headers, flat)
        return 0
    # The fifth column is each row's direction (upper_bound / lower_bound / exact); the CSV keeps its header "kind".
    # The text table shows "holds for" right after it, so that a number is never read without both labels.
    shown = headers[:4] + ["direction", "holds for"] + headers[5:8]
    table = [row[:5] + [row[8]] + row[5:8] for row in flat]
    if len(points) == 1:
        print_table(shown[3:], [row[3:] for row in table])
    else:
        print_table(shown, table)
    if not flat:
        print("(no amplification bound registered applies)")
    if args.randomizer in GAP_RANDOMIZERS:
        for r in results:
            where = "" if len(points) == 1 else f"eps0={r['eps0']:g}, n={r['n']}, delta={r['delta']:g}: "
            print(where + _gap(args.randomizer, r, extra).line() + f" [{holds_for(args.randomizer)}]")
    for item in skipped:
        print(f"not applicable: {item['id']}: {item['reason']}")
    return 0


def _gap(randomizer: str, result: dict, extra: dict[str, Any]):
    """The certified gap: tightest certified upper, largest certified lower bound and their ratio at one point. The
    exact worst case for k = 2 is the one already evaluated for the exact rows when it completed (else
    gap_from_rows evaluates it: it had timed out or was skipped there)."""
    params = {"eps0": result["eps0"], "n": result["n"], "delta": result["delta"], **extra}
    if randomizer == "binary_rr":
        params["k"] = 2
    from ...tightest import gap_from_rows  # imports SymPy: only where a gap is printed

    return gap_from_rows(randomizer, params, result["bounds"], exact_evaluation=result["evaluations"].get(EXACT_BINARY_RR_ID))
