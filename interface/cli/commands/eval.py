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
parameter, a key given twice, not UTF-8). Every line is answered; the exit code is 2 when any line was
an error, else 0. Blank lines are skipped. One process evaluates every line, so the start-up cost is
paid once. FILE must be a regular file (a FIFO or a device is refused: pipe it to `--batch -`); a line
is at most MAX_BATCH_LINE_BYTES bytes and the input at most MAX_BATCH_BYTES (stdin included): beyond
either the batch stops with a one-line error (exit 2) after answering the lines before. The whole batch runs within
`--time-budget SECONDS` (default BATCH_TIME_BUDGET = 60, at most BATCH_TIME_BUDGET_MAX = 1e6, as `compose`'s and
`calibrate`'s): still running then, it stops the same way, the line in progress unanswered (a batch of 200,000 cheap
lines, 5.6 MB, takes over a minute; split a larger batch or allow more).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from typing import Any, Iterable, Iterator, TextIO

from ... import input_files
from ....proofs_checks.bridge import UsageError, evaluate
from ....spec.catalog import resolve
from ...input_files import loads_json, read_limited, read_lines_limited
from ...limits import INVERSION_TIME_BUDGET, INVERSION_TIME_BUDGET_MAX, RANGES_TEXT, TimeLimitExceeded, time_limit
from ..output import GENERIC_LABEL, holds_for, jsonable, print_json
from ..points import parse_time_budget
from ...results import recorded_neighbouring

NAME = "eval"
EPILOG = RANGES_TEXT + "; a parameter is written as 0.5, 1e-6, 10000 or 1/3 and given once"
HELP = "evaluate a statement's reference implementation at the given parameters (or a JSON-lines batch)"

# A batch line is {"id": ..., "params": {...}}: under a hundred bytes in practice; 1 MiB leaves room for
# long exact fractions while bounding what one line can make the JSON decoder hold.
MAX_BATCH_LINE_BYTES = 1 << 20
# The whole batch, from a file or stdin (about 700,000 lines of a hundred bytes).
MAX_BATCH_BYTES = input_files.MAX_INPUT_BYTES
# Seconds a batch may run (`--time-budget`), as `compose`, `calibrate` and `tightest` (`interface/limits.py`,
# INVERSION_TIME_BUDGET and its largest value, the interval timer's bound); the size limits above do not bound the
# time (one cheap line costs about 0.3 ms, a costly statement seconds).
BATCH_TIME_BUDGET = INVERSION_TIME_BUDGET
BATCH_TIME_BUDGET_MAX = INVERSION_TIME_BUDGET_MAX


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", nargs="?", help="statement id, e.g. FMT21.Thm2.1 (with --batch: the default id of the lines)")
    parser.add_argument("--param", "-p", action="append", default=[], metavar="NAME=VALUE", help="a parameter, repeated (see `show ID`)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--batch", metavar="FILE", help='JSON lines {"id": ..., "params": {...}} in, one JSON object per line out; - is stdin')
    parser.add_argument("--time-budget", default=None, metavar="SECONDS",
                        help=f"with --batch: stop with exit 2 when the batch is still running after this many seconds, the lines before answered "
                        f"(default {BATCH_TIME_BUDGET:g}, at most {BATCH_TIME_BUDGET_MAX:g})")


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
        budget = _batch_budget(BATCH_TIME_BUDGET if args.time_budget is None else args.time_budget)  # before the input is read
        return run_batch(_batch_lines(args.batch), default_id=args.id, time_budget=budget)
    if args.time_budget is not None:
        raise UsageError("--time-budget applies to --batch only (one evaluation is bounded by its statement's own limits)")
    if args.id is None:
        raise UsageError("eval needs a statement id (or --batch FILE)")
    statement = resolve(args.id)
    evaluation = evaluate(statement, parse_assignments(args.param))
    if args.json:
        print_json(dict(evaluation.to_json(), neighbouring=recorded_neighbouring(statement.id)))
    elif evaluation.valid:
        effective, requested = evaluation.delta_effective, evaluation.params.get("delta")
        if effective is not None and requested is not None and effective > requested:
            # The value holds at a larger delta' (FMT21 Prop 2.2): never printed as a bare number at delta.
            print(f"{evaluation.value!r} at delta' = {effective!r} (not at the requested delta = {requested!r})")
        else:
            print(repr(evaluation.value))
        if evaluation.reason:
            print(f"note: {evaluation.reason}")
        # A number that is no upper bound, or that holds for one mechanism only, never stands unlabelled: an
        # upper bound for every eps0-LDP randomizer (what may be published) is the one kind printed bare.
        direction = statement.direction.value
        if direction != "upper_bound" or holds_for(statement.mechanism) != GENERIC_LABEL:
            meaning = {"lower_bound": "a lower bound on the truth, never a privacy guarantee",
                       "exact": "the certified exact value"}.get(direction, "an upper bound")
            print(f"direction: {direction} ({meaning}), holds for: {holds_for(statement.mechanism)}")
    else:
        print(f"not valid: {evaluation.reason}")
    return 0


def _batch_lines(source: str) -> Iterator[bytes]:
    """The lines of `--batch SOURCE` (`-`: stdin, read as it comes), each at most MAX_BATCH_LINE_BYTES
    bytes, MAX_BATCH_BYTES in all; a FILE must be a regular file (`interface/input_files.py`)."""
    if source == "-":
        # Bytes, not text: a line that is not UTF-8 is that line's error, not the end of the batch.
        if sys.stdin is None:  # started without one (pythonw, a closed descriptor)
            raise UsageError("--batch -: there is no standard input to read")
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # stdin replaced by a text object (embedding, tests): its text, bounded
            stream = io.BytesIO(sys.stdin.read(MAX_BATCH_BYTES + 1).encode("utf-8", "surrogateescape"))
        what = "--batch -"
    else:
        stream = io.BytesIO(read_limited(source, what="--batch", limit=MAX_BATCH_BYTES))
        what = f"--batch {source}"
    return read_lines_limited(stream, what=what, line_limit=MAX_BATCH_LINE_BYTES, limit=MAX_BATCH_BYTES)


def evaluate_line(text: str, default_id: str | None) -> dict[str, Any]:
    """The answer to one batch line (an evaluation, or raises UsageError / KeyError / ValueError).
    A key given twice in the line is refused, as a repeated --param is."""
    request = _parse_line(text)
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
    statement = resolve(statement_id)
    return dict(evaluate(statement, params).to_json(), neighbouring=recorded_neighbouring(statement.id))


def _parse_line(text: str) -> Any:
    try:
        return loads_json(text, where="the line")
    except UsageError as failure:
        raise UsageError(str(failure).removeprefix("the line: ")) from None


def run_batch(lines: Iterable[str | bytes], *, default_id: str | None = None, out: TextIO | None = None, time_budget: object = None) -> int:
    """Answer every line of `lines` (text, or UTF-8 bytes; see the module docstring); 2 when any line
    was an error. `time_budget`: seconds in (0, BATCH_TIME_BUDGET_MAX] (None: no limit); a batch still running then
    raises UsageError naming the budget, after the lines answered so far (the line in progress is not)."""
    budget = _batch_budget(time_budget)
    if budget is None:
        return _answer_lines(lines, default_id, sys.stdout if out is None else out, None)
    try:
        with time_limit(budget):  # interrupts a line that runs past the budget (where SIGALRM works)
            return _answer_lines(lines, default_id, sys.stdout if out is None else out, time.monotonic() + budget)
    except TimeLimitExceeded:
        raise UsageError(f"--batch stopped at its time budget of {budget:g} s, the lines before answered above; "
                         f"allow more with --time-budget SECONDS (at most {BATCH_TIME_BUDGET_MAX:g}) or split the batch") from None


def _batch_budget(time_budget: object) -> float | None:
    """--time-budget / `time_budget` as seconds: None, or a number in (0, BATCH_TIME_BUDGET_MAX]."""
    return None if time_budget is None else parse_time_budget(time_budget)


def _answer_lines(lines: Iterable[str | bytes], default_id: str | None, out: TextIO, deadline: float | None) -> int:
    """`run_batch`'s loop; the `deadline` (time.monotonic) is checked before each line, so that a line whose
    statement took the timer's interruption for its own does not let the batch run on."""
    status = 0
    for number, line in enumerate(lines, start=1):
        if deadline is not None and time.monotonic() > deadline:
            raise TimeLimitExceeded("the batch's time budget")
        text = _line_text(line)
        if text is not None and not text.strip():
            continue
        try:
            if text is None:
                raise UsageError(_not_utf8(line))
            answer = evaluate_line(text, default_id)
        except (UsageError, KeyError, ValueError, ArithmeticError) as failure:
            status = 2
            message = failure.args[0] if isinstance(failure, KeyError) and failure.args else str(failure)
            if isinstance(failure, ArithmeticError):  # an overflow at an extreme point: that line's answer
                message = f"cannot compute this ({type(failure).__name__}: {failure})"
            answer = {"line": number, "id": _line_id(text, default_id), "error": " ".join(str(message).split())}
        out.write(json.dumps(jsonable(answer), separators=(",", ":")) + "\n")
        out.flush()
    return status


def _line_text(line: str | bytes) -> str | None:
    """The line as text; None for bytes that are not UTF-8."""
    if isinstance(line, str):
        return line
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _not_utf8(line: str | bytes) -> str:
    """The error of a line `_line_text` could not decode: where its first bad byte is."""
    data = line.encode("utf-8", "surrogateescape") if isinstance(line, str) else line
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as failure:
        return f"not UTF-8 text (byte {failure.start}: {data[failure.start:failure.start + 1]!r}); expected a JSON object"
    return "not UTF-8 text; expected a JSON object"


def _line_id(text: str | None, default_id: str | None) -> str | None:
    """The id a line asked for, for its error answer (the default id when the line cannot be read)."""
    if text is None:
        return default_id
    try:
        request = _parse_line(text)
    except UsageError:
        return default_id
    found = request.get("id", default_id) if isinstance(request, dict) else default_id
    return found if isinstance(found, str) else None
