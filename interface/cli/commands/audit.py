"""`shuffle-spec audit randomizer FILE.json [--n N --delta D]` and
`shuffle-spec audit bound TARGET --id ID [--grid] [--strict] [--time-limit S] [--json]`.

- randomizer: replacement and removal LDP epsilon, blanket gamma and distribution, every applicable
  shuffled bound at (n, delta) and the exact central epsilon when n is small. The file format is in
  `interface/audit/randomizer.py`. A malformed file is a usage error (exit 2) naming the field, row and column
  (a repeated label, an entry that is not a number or too long); a bound found below the exact value is
  an audit failure (exit 1). Limits (`interface/limits.py`, printed below the options): the entries
  of a matrix, the digits of each entry (checked on its text), the least common multiple of the
  denominators, and the work of the exact small-n value (operations times the size of the numbers; over
  it the value is not computed and the report says why).
- bound: calls TARGET's function f(eps0, n, delta[, k]) (by keyword when it names its parameters that
  way, else positionally) at the statement's test vectors and, with --grid, over a sweep of a few
  hundred points (eps0 in [0.05, 10], n in [10, 1e9], delta in [1e-12, 0.5], the statement's regime
  edges, degenerate inputs). Each call gets a verdict by consequence:
    UNSOUND          below a lower bound on the true epsilon (exact shuffled binary RR)   failure
    BELOW BOUND      below the statement's interval: claims more privacy than proven      failure
    ACCEPTS INVALID  a number outside the hypotheses: a failure when it claims more than  failure/warning
                     anything registered certifies there, else a warning (--strict: failure)
    CRASH / NON-NUMBER / TIMEOUT                                                          failure
    INCONCLUSIVE     inside the interval where the reference's certified interval of the  warning
                     value is wider than the statement's rtol: may be wrong by more than
                     the tolerance, cannot be told (or the reference failed there)
    ABOVE BOUND      above the interval: looser but safe (relative gap shown)             warning
    BELOW BOUND (rounding)  below by < 1e-9 relative: float rounding, no outward rounding  warning
    REJECTS          refused an invalid input (pass), or refused a valid one where the    pass/warning
                     statement gives no amplification (value >= eps0; T x eps0 after
                     T rounds) (warning)
    PASS             inside the interval, the reference's interval within the rtol        pass
  Exit 0 on pass or warnings only, 1 on any failure (or when nothing inside the hypotheses was
  checked), 2 on usage errors (unknown id, a target that cannot be imported), 3 when nothing inside the
  hypotheses was decided (no failure, every call there INCONCLUSIVE: result INCONCLUSIVE, the run proves
  nothing; JSON "result": "inconclusive", "inside_decided": 0).

  TARGET is MODULE:FUNCTION (imported as `python -c "import MODULE"` would: the current directory,
  then PYTHONPATH) or path/to/file.py:FUNCTION. For a method such as Class(...).method, write a
  two-line adapter file (see docs/audits/README.md).

  WARNING: `audit bound` imports and runs the given Python code with your user's rights. It runs in a
  child process with a time limit per call, memory, CPU and file-size limits, its whole process tree
  killed at the end, and its answers validated, so exits, hangs, crashes and garbage become verdicts;
  that is protection against accidents, not a security sandbox (no file-system or network isolation).
  Audit only code you would run yourself.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...audit.bound import BoundAudit

# The audits themselves (SymPy, NumPy, the registry) are imported where they run: `audit --help` needs none of them.
from ....proofs_checks.bridge import UsageError, parse_number
from ...limits import AUDIT_TOTAL_SECONDS as DEFAULT_TOTAL_TIME_LIMIT, MATRIX_LIMITS_TEXT
from ..output import format_number, print_json, print_table
from ...audit.sandbox import DEFAULT_MEMORY_MB, DEFAULT_TIME_LIMIT, MAX_TIME_LIMIT
from ....reference.core.errors import ParameterError

NAME = "audit"
HELP = "audit a finite randomizer (matrix file) or a third-party bound function against the spec"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="what", metavar="WHAT", required=True)
    randomizer = sub.add_parser("randomizer", help="LDP epsilons, blanket and shuffled bounds of a randomizer matrix", description=__doc__,
                                epilog=MATRIX_LIMITS_TEXT, formatter_class=argparse.RawDescriptionHelpFormatter)
    randomizer.add_argument("file", help="JSON file: {\"matrix\": [[\"3/4\", \"1/4\"], ...]} (rows inputs, columns outputs)")
    randomizer.add_argument("--n", help="number of users for the shuffled bounds")
    randomizer.add_argument("--delta", help="central delta for the shuffled bounds")
    randomizer.add_argument("--json", action="store_true", help="print JSON")
    bound = sub.add_parser(
        "bound",
        help="check another implementation's bound f(eps0, n, delta) -> eps (RUNS that code with your rights)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bound.add_argument("function", metavar="TARGET", help="MODULE:FUNCTION or path/to/file.py:FUNCTION (imported and run with your rights)")
    bound.add_argument("--id", required=True, help="the statement it claims to implement")
    bound.add_argument("--rtol", help="widen every acceptance interval by this relative amount on the safe side (above an upper bound, below a lower bound; never below an upper bound's value)")
    bound.add_argument("--vectors", help="directory of vectors (e.g. tests/vectors) or a vector file to use instead of generating them; refused unless it equals a fresh generation")
    bound.add_argument("--grid", action="store_true", help="also sweep a few hundred points, the regime edges and degenerate inputs")
    bound.add_argument("--grid-shape", default="8x9x5", metavar="ExNxD", help="grid points along eps0, n and delta (default 8x9x5 = 360; each 1 to 50)")
    bound.add_argument("--strict", action="store_true", help="every number returned outside the hypotheses is a failure")
    bound.add_argument("--time-limit", default=str(DEFAULT_TIME_LIMIT), help=f"seconds per call (default {DEFAULT_TIME_LIMIT:g}, at most {MAX_TIME_LIMIT:g})")
    bound.add_argument("--total-time-limit", default=str(DEFAULT_TOTAL_TIME_LIMIT), help=f"seconds for all calls (default {DEFAULT_TOTAL_TIME_LIMIT:g})")
    bound.add_argument("--memory-limit", default=str(DEFAULT_MEMORY_MB), help=f"MB of address space for the audited code (default {DEFAULT_MEMORY_MB})")
    bound.add_argument("--show", choices=("problems", "all"), default="problems", help="findings to list: failures and warnings (default) or every call")
    bound.add_argument("--json", action="store_true", help="print the JSON report (every call's inputs, value, verdict, reason)")


def run(args: argparse.Namespace) -> int:
    return _run_randomizer(args) if args.what == "randomizer" else _run_bound(args)


def _flag(name: str, text: str | None, *, integer: bool = False) -> Any:
    """A numeric flag read by the one number parser of every command (`bridge.parse_number`: `1e3`, `1/2`;
    never `1_0`, hex or `nan`), None when not given; the error names the flag."""
    return None if text is None else parse_number(name, text, integer=integer)


def _run_randomizer(args: argparse.Namespace) -> int:
    from ...audit.randomizer import audit_matrix, load_randomizer_file

    document = load_randomizer_file(args.file)
    n = _flag("--n", args.n, integer=True)
    delta = _flag("--delta", args.delta)
    try:
        report = audit_matrix(document, n=n, delta=None if delta is None else float(delta), name=Path(args.file).stem)
    except ParameterError as failure:  # row/column errors of the matrix: a malformed file
        raise UsageError(f"{args.file}: {failure}") from None
    if args.json:
        print_json(report.to_json())
        return 1 if report.problems else 0
    print_randomizer_report(report)
    return 1 if report.problems else 0


def print_randomizer_report(report: Any) -> None:
    """The text report of `audit randomizer`: one small function per block, so a block (e.g. a gap
    line between the best upper and lower bound) can be added without touching the others."""
    print_local_privacy(report)
    if report.n is not None:
        print_shuffled_bounds(report)
        print_gap(report)
    print_problems(report)


def print_local_privacy(report: Any) -> None:
    print(f"randomizer {report.name}: {len(report.inputs)} inputs x {len(report.outputs)} outputs" + (f" ({report.mechanism}, k = {report.k})" if report.k else ""))
    print(f"replacement LDP epsilon: {report.ldp_epsilon!r}  (max likelihood ratio {report.ldp_ratio})")
    print(f"removal LDP epsilon:     {report.removal_epsilon!r}  (reference {report.removal_reference_kind}: [{', '.join(report.removal_reference)}])")
    print(f"blanket gamma:           {report.gamma}  (~ {format_number(report.gamma_float)})")
    print(f"blanket distribution:    [{', '.join(report.blanket_distribution) or 'none: gamma = 0'}]")


def print_shuffled_bounds(report: Any) -> None:
    print(f"\nshuffled, n = {report.n}, delta = {report.delta:g}, eps0 = {report.ldp_epsilon:.6g}:")
    rows = [[b["id"], b["direction"], b["mechanism"], b["eps"], b["reason"]] for b in sorted(report.bounds, key=lambda b: (not b["valid"], b["eps"] or 0.0))]
    if report.exact is not None:
        rows.append(["exact", "exact", report.mechanism, report.exact["eps"], report.exact["method"]])
    else:
        rows.append(["exact", "exact", report.mechanism, None, getattr(report, "exact_reason", "") or "not computed: n too large for enumeration"])
    print_table(["id", "direction", "mechanism", "eps", "note"], rows)


def print_gap(report: Any) -> None:
    """The gap line: tightest certified upper bound, largest certified lower bound, their ratio,
    and the neighbouring pair behind the lower bound (`proofs_checks/derived/blanket_exact_randomizer.py`)."""
    gap = getattr(report, "gap", None)
    if not gap:
        return
    up = "none valid" if gap["upper"] is None else f"{gap['upper']['eps']:.6g} ({gap['upper']['id']})"
    low = "none valid" if gap["lower"] is None else f"{gap['lower']['eps']:.6g} ({gap['lower']['id']})"
    ratio = "-" if gap["ratio"] is None else f"{gap['ratio']:.4f}"
    print(f"\ngap: tightest certified upper {up}, largest certified lower {low}, ratio {ratio}")
    if gap.get("pair"):
        print(f"lower-bound pair: {gap['pair']['description']}")
    for row in gap["bounds"]:
        if not row["valid"]:
            print(f"  {row['id']}: not computed ({row['reason']})")


def print_problems(report: Any) -> None:
    for problem in report.problems:
        print(f"PROBLEM: {problem}")


def _run_bound(args: argparse.Namespace) -> int:
    from ...audit.bound import audit_bound

    time_limit = float(_flag("--time-limit", args.time_limit))
    total_time_limit = float(_flag("--total-time-limit", args.total_time_limit))
    memory_limit = _flag("--memory-limit", args.memory_limit, integer=True)
    rtol = _flag("--rtol", args.rtol)
    if not 0 < time_limit <= MAX_TIME_LIMIT:
        raise UsageError(f"--time-limit {args.time_limit!r} is out of range: expected seconds in (0, {MAX_TIME_LIMIT:g}]")
    if not 64 <= memory_limit <= 1 << 20:
        raise UsageError(f"--memory-limit {args.memory_limit!r} is out of range: expected MB in [64, 1048576]")
    shape = _grid_shape(args.grid_shape)
    # --vectors: read, checked against the JSON Schema and a fresh generation, or refused (audit_bound).
    report = audit_bound(
        args.function, args.id, rtol=None if rtol is None else float(rtol), vectors=args.vectors or None, grid=args.grid, grid_shape=shape,
        strict=args.strict, time_limit=time_limit, total_time_limit=total_time_limit, memory_mb=memory_limit, label=args.function,
    )
    if args.json:
        print_json(report.to_json())
    else:
        print_bound_report(report, show_all=args.show == "all")
    return bound_exit_code(report)


# The exit code of `audit bound` by the report's result: a run that decided nothing inside the hypotheses (every call
# there INCONCLUSIVE, no failure) has a code of its own, so that CI does not read it as a pass.
EXIT_INCONCLUSIVE = 3
BOUND_EXIT_CODES = {"pass": 0, "warn": 0, "fail": 1, "inconclusive": EXIT_INCONCLUSIVE}


def bound_exit_code(report: BoundAudit) -> int:
    """0 pass or warnings only, 1 a failure (or nothing checked inside the hypotheses), 3 nothing decided there."""
    return BOUND_EXIT_CODES[report.result]


def _grid_shape(text: str) -> tuple[int, int, int]:
    parts = text.lower().split("x")
    try:
        shape = tuple(int(p) for p in parts)
    except ValueError:
        shape = ()
    if len(shape) != 3 or not all(1 <= s <= 50 for s in shape):
        raise UsageError(f"--grid-shape {text!r} is out of range: expected ExNxD with each count in [1, 50], e.g. 8x9x5")
    return shape  # type: ignore[return-value]


def format_finding(finding: Any) -> str:
    """One line per finding: verdict, where, what it returned, what was expected, why."""
    inputs = ", ".join(f"{k}={v!r}" for k, v in finding.inputs.items())
    got = f"got {format_number(finding.got)}" if finding.got is not None else "no value"
    expected = f", expected {finding.expected}" if finding.expected is not None else ""
    truth = f", truth >= {format_number(finding.truth)}" if finding.truth is not None else ""
    return f"{finding.verdict:<16} {finding.source:<11} ({inputs}): {got}{expected}{truth}: {finding.reason}"


def print_bound_report(report: BoundAudit, *, show_all: bool = False) -> None:
    from ....spec.registry import get_statement

    print(f"{report.function} as {report.statement_id} ({get_statement(report.statement_id).direction.value})")
    for severity in ("failure", "warning") + (("pass",) if show_all else ()):
        for finding in report.by_severity(severity):
            print(format_finding(finding))
    print(f"summary: {report.summary()}")
    if report.result == "inconclusive":
        print("result: INCONCLUSIVE (no call inside the hypotheses reached PASS or a failure: the run proves nothing)")
        return
    word = {"pass": "PASS", "warn": "PASS WITH WARNINGS", "fail": "FAIL"}[report.result]
    print(f"result: {word}" + (f" (worst: {report.worst})" if report.result != "pass" else ""))
