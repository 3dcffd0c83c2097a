"""`shuffle-spec eval ID --param NAME=VALUE ... [--json]`: evaluate a statement's reference.

JSON: {"id", "params", "value", "valid", "reason"} (plus "interval" for certified bounds). A failed
hypothesis is a valid answer (`valid: false` with the reason, exit 0), not an error. A statement whose value
holds at a delta other than its input `delta` (FMT21.Prop2.2 and .focs: delta' from delta0) adds
"delta_effective" (the delta' at which the value holds; `valid` then means valid at that delta') and
"delta_effective_formula"; the text output then reads `VALUE at delta' = D' (not at the requested delta = D)`.
A delta' >= 1 certifies nothing and is refused (`valid: false`).

Batch mode, `shuffle-spec eval --batch FILE.jsonl` (`-` reads stdin): one JSON object per input line,
`{"id": ID, "params": {NAME: VALUE, ...}}` (`id` may be left out when given on the command line), and
one compact JSON object per output line, in the same order: the evaluation as above, or
`{"line": k, "id": ..., "error": message}` for a line that cannot be evaluated (not JSON, unknown id or
parameter). Every line is answered; the exit code is 2 when any line was an error, else 0. Blank lines
are skipped. One process evaluates every line, so the start-up cost is paid once.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Iterable, TextIO

from shuffle_spec.proofs_checks.bridge import UsageError, evaluate
from shuffle_spec.proofs_checks.catalog import resolve
from shuffle_spec.proofs_checks.limits import RANGES_TEXT
from shuffle_spec.proofs_checks.output import print_json

NAME = "eval"
EPILOG = RANGES_TEXT + "; a parameter is written as 0.5, 1e-6, 10000 or 1/3 and given once"
HELP = "evaluate a statement's reference implementation at the given parameters (or a JSON-lines batch)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", nargs="?", help="statement id, e.g. FMT21.Thm2.1 (with --batch: the default id of the lines)")
    parser.add_argument("--param", "-p", action="append", default=[], metavar="NAME=VALUE", help="a parameter, repeated (see `show ID`)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--batch", metavar="FILE", help='JSON lines {"id": ..., "params": {...}} in, one JSON object per line out; - is stdin')


def parse_assignments(items: list[str], option: str = "--param") -> dict[str, str]:
    """NAME=VALUE items into a dict; a name given twice is an error (never silently one of them)."""
    params: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            raise UsageError(f"{option} expects NAME=VALUE, got {item!r}")
        if not name.isidentifier():
            raise UsageError(f"{option} {item!r}: {name!r} is not a parameter name")
        if name in params:
            raise UsageError(f"{option} {name} is given twice ({params[name]!r} and {value!r}); give it once")
        params[name] = value
    return params


def run(args: argparse.Namespace) -> int:
    if args.batch is not None:
        if args.param:
            raise UsageError("--batch takes the parameters from the lines, not from --param")
        if args.batch == "-":
            return run_batch(sys.stdin, default_id=args.id)
        try:
            with open(args.batch, encoding="utf-8") as lines:
                return run_batch(lines, default_id=args.id)
        except OSError as failure:
            raise UsageError(f"--batch {args.batch}: {failure.strerror}") from None
    if args.id is None:
        raise UsageError("eval needs a statement id (or --batch FILE)")
    statement = resolve(args.id)
    evaluation = evaluate(statement, parse_assignments(args.param))
    if args.json:
        print_json(evaluation.to_json())
    elif evaluation.valid:
        effective, requested = evaluation.delta_effective, evaluation.params.get("delta")
        if effective is not None and requested is not None and effective > requested:
            # The value holds at a larger delta' (FMT21 Prop 2.2): never printed as a bare number at delta.
            print(f"{evaluation.value!r} at delta' = {effective!r} (not at the requested delta = {requested!r})")
        else:
            print(repr(evaluation.value))
        if evaluation.reason:
            print(f"note: {evaluation.reason}")
    else:
        print(f"not valid: {evaluation.reason}")
    return 0


def evaluate_line(text: str, default_id: str | None) -> dict[str, Any]:
    """The answer to one batch line (an evaluation, or raises UsageError / KeyError / ValueError)."""
    try:
        request = json.loads(text)
    except json.JSONDecodeError as failure:
        raise UsageError(f"not JSON: {failure.msg}") from None
    if not isinstance(request, dict):
        raise UsageError("expected a JSON object {\"id\": ..., \"params\": {...}}")
    unknown = sorted(set(request) - {"id", "params"})
    if unknown:
        raise UsageError(f"unknown field(s) {', '.join(unknown)}; a line has \"id\" and \"params\"")
    statement_id = request.get("id", default_id)
    if not isinstance(statement_id, str):
        raise UsageError("no statement id (give \"id\" on the line or ID on the command line)")
    params = request.get("params", {})
    if not isinstance(params, dict) or not all(isinstance(v, (int, float, str)) and not isinstance(v, bool) for v in params.values()):
        raise UsageError("\"params\" must be an object of numbers (or number strings such as \"1/3\")")
    return evaluate(resolve(statement_id), params).to_json()


def run_batch(lines: Iterable[str], *, default_id: str | None = None, out: TextIO | None = None) -> int:
    """Answer every line of `lines` (see the module docstring); 2 when any line was an error."""
    from shuffle_spec.proofs_checks.output import _jsonable

    out = sys.stdout if out is None else out
    status = 0
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            answer = evaluate_line(text, default_id)
        except (UsageError, KeyError, ValueError) as failure:
            status = 2
            message = failure.args[0] if isinstance(failure, KeyError) and failure.args else str(failure)
            answer = {"line": number, "id": _line_id(text, default_id), "error": message}
        out.write(json.dumps(_jsonable(answer), separators=(",", ":")) + "\n")
        out.flush()
    return status


def _line_id(text: str, default_id: str | None) -> str | None:
    try:
        request = json.loads(text)
    except json.JSONDecodeError:
        return default_id
    found = request.get("id", default_id) if isinstance(request, dict) else default_id
    return found if isinstance(found, str) else None
