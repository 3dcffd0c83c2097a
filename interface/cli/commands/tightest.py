"""`shuffle-spec tightest --randomizer krr --k K --eps0 E --n N --delta D [--rounds T] [--json]` (or `--randomizer
generic`, any eps0-LDP randomizer; `--randomizer binary_rr`; `--randomizer laplace`, the Laplace mechanism on [0, 1],
no --k; or `--randomizer matrix --matrix FILE --n N --delta D`, a finite randomizer): the tightest certified upper
bound, the largest certified lower bound on the central epsilon and their ratio (`shuffle_spec.certify`).

Text: the certified upper bound is the headline (first line after the point); the lower bound follows, labelled
"lower bound (not a guarantee)" and with the randomizer it is about when that is not the one asked for (generic:
binary RR's worst case); the table lists upper bounds first.

--rounds T > 1 (not with matrix files' JSON form below): the composition statements (compose.clones; for krr and
binary_rr also compose.stronger_clones; compose.exact_binary_rr as a LOWER bound for binary_rr and generic). JSON:
`Certification.to_json()` (`interface/certify.py`): {"randomizer", "params", "value", "interval", "direction",
"statement_id", "upper": {"id", "eps"}, "lower": {"id", "eps", "about", "is"} | null, "ratio", "neighbouring",
"reason", "bounds": [{"id", "side", "eps", "valid", "reason", "about", "skipped"}]} ("skipped" as below).

krr / binary_rr / laplace, JSON: {"randomizer", "params", "upper": {"id", "eps"} | null, "lower": {"id", "eps"} |
null, "ratio", "bounds": [{"id", "direction", "eps", "valid", "reason", "interval", "skipped"}]}: one row per statement
and side it certifies ("direction" lower_bound or upper_bound; "eps" the certified end on that side; "interval" the
certified interval or null; "skipped" true for a costly candidate that one certified delta evaluation showed cannot
beat the best end in hand, so it was not evaluated: "eps" null, "valid" false, "reason" the test; the answer is the
one of the full computation, `interface/tightest.py`; --all-bounds evaluates every candidate). For k = 2 (krr --k 2, binary_rr) exact.shuffled_binary_rr, the certified worst
case, has two rows from one evaluation: its lower end as a lower bound and its upper end as an upper bound.

matrix: FILE is a randomizer file as `audit randomizer` reads it (`interface/audit/randomizer.py`: {"matrix": [[...],
...]} or a bare list of rows, entries exact decimals or fractions, rows inputs, columns outputs); eps0 is the
matrix's own LDP epsilon (no --eps0, no --k). Text: the gap line and the neighbouring pair behind the lower
bound. JSON: `RandomizerGap.to_json()` (`proofs_checks/derived/blanket_exact_randomizer.py`, as the field "gap" of `audit
randomizer --json`): {"n", "delta", "eps0" (the matrix's LDP epsilon), "upper": {"id", "eps"} | null (the
tightest certified upper bound: BBGN19.Lem5.3.exact_randomizer or a registered bound valid at eps0), "lower":
{"id", "eps"} | null (the largest certified lower end: exact.randomizer_pair, a registered lower bound, or
"exact (enumeration)" at small n), "ratio" (upper / lower, or null), "pair": {"x", "x2", "z", "bins",
"description"} | null (the pair behind exact.randomizer_pair), "bounds": [{"id", "direction", "eps",
"interval", "valid", "reason", "seconds"}] (the two new statements' rows)}.
The matrix's limits (`interface/limits.py`, MATRIX_LIMITS_TEXT, printed at the end of --help): entries,
digits of each entry (checked on its text before a number is built), the least common multiple of the
denominators; the exact small-n value is enumerated only within its work limit (operations times the size of
the numbers), else "not computed" with the reason.
Exit codes: 0 answered; 1 the matrix's audit found a problem (no finite eps0 > 0, or a certified lower bound
above a certified upper bound), printed as PROBLEM lines (JSON: the gap as computed); 2 usage errors and a
computation still running at its `--time-budget` (one line): --matrix missing or given with another randomizer, --k or --eps0 with matrix, an unreadable or
malformed file, a bad n or delta.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from ....proofs_checks.bridge import UsageError, parse_number, require_supported
from ..points import parse_params, parse_time_budget  # shared with `compare` and `calibrate`, without importing them
from ...limits import INVERSION_TIME_BUDGET, INVERSION_TIME_BUDGET_MAX, MATRIX_LIMITS_TEXT, budget_exceeded_message, time_limit, TimeLimitExceeded, worker_processes_allowed
from ..output import print_json, print_table
from ...mechanisms import STRUCTURED
from ...parallel_sides import tightest_in_parallel
from ...tightest import RANDOMIZERS, tightest
from ....reference.core.errors import ParameterError

if TYPE_CHECKING:  # the front door (`certify`) is imported where it is used: k-RR, binary RR and Laplace at one round
    from ...certify import Certification  # go through `tightest` alone, without the API modules it pulls in

NAME = "tightest"
HELP = "tightest certified upper bound, largest certified lower bound on the central eps of a randomizer, and their ratio"
MATRIX = "matrix"  # a finite randomizer read from --matrix FILE (the `audit randomizer` format)
EPILOG = (
    "examples: `tightest --randomizer krr --k 10 --eps0 1 --n 1e4 --delta 1e-6`; `tightest --randomizer generic --eps0 1 "
    "--n 1e6 --delta 1e-6 --rounds 1000` (T rounds: the composition statements); `tightest --randomizer matrix "
    "--matrix examples/circulant3.json --n 10000 --delta 1e-6` (a finite randomizer: the gap of `audit randomizer`, "
    "eps0 from the matrix; --json prints its RandomizerGap: n, delta, eps0, upper, lower, ratio, pair, bounds). "
    "For k = 2 the certified worst case exact.shuffled_binary_rr is on both sides (ratio = its width, ~1e-6). "
    + MATRIX_LIMITS_TEXT
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--randomizer", default="krr", choices=RANDOMIZERS + (MATRIX,),
                        help="the local randomizer (default krr; matrix: a finite randomizer read from --matrix FILE)")
    parser.add_argument("--k", help="domain size of k-RR (k >= 2)")
    parser.add_argument("--d", help="domain size of the structured randomizers rappor, oue, blh, olh, hadamard, subset (d >= 2)")
    parser.add_argument("--matrix", metavar="FILE", help="with --randomizer matrix: JSON randomizer file as `audit randomizer` reads "
                        "({\"matrix\": [[\"3/4\", \"1/4\"], ...]}, rows inputs, columns outputs); eps0 is the matrix's LDP epsilon")
    parser.add_argument("--eps0", help="local epsilon eps0 > 0 (required, except with --randomizer matrix)")
    parser.add_argument("--n", required=True, help="number of users, an integer >= 1 (1e6 is accepted)")
    parser.add_argument("--delta", required=True, help="central delta in (0, 1)")
    parser.add_argument("--rounds", default="1", help="number of rounds T >= 1 (default 1; T > 1: the composition statements)")
    parser.add_argument("--all-bounds", action="store_true",
                        help="evaluate every candidate bound (default: the costly ones that a certified test shows cannot beat the best "
                        "end in hand are not evaluated; the answer is the same, their rows say 'not evaluated')")
    parser.add_argument("--time-budget", default=None, metavar="SECONDS",
                        help=f"stop with exit 2 when the computation is still running after this many seconds (default {INVERSION_TIME_BUDGET:g}, "
                        f"at most {INVERSION_TIME_BUDGET_MAX:g}; most points take well under a second, k = 3 at n = 1e12 tens of seconds)")
    parser.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    # Every computation of this command stops at its time budget: a point in range may still ask for tens of seconds
    # (k-RR, k = 3, n = 1e12; a matrix at its size limit), and a command must end. The output is printed after the
    # computation, so a stopped run prints nothing but its one-line error.
    budget = parse_time_budget(args.time_budget)
    try:
        with time_limit(budget):
            return _run(args)
    except TimeLimitExceeded:
        raise TimeLimitExceeded(budget_exceeded_message("the computation", budget)) from None


def _run(args: argparse.Namespace) -> int:
    rounds = parse_number("rounds", args.rounds, integer=True)
    if rounds < 1:
        raise UsageError(f"--rounds {args.rounds} is out of range: expected an integer >= 1")
    if args.randomizer == MATRIX:
        if rounds > 1:
            return _run_matrix_rounds(args, rounds)
        return _run_matrix(args)
    if args.matrix is not None:
        raise UsageError(f"--matrix applies only to --randomizer matrix (got --randomizer {args.randomizer}); drop --matrix or use --randomizer matrix")
    if args.eps0 is None:
        raise UsageError(f"--randomizer {args.randomizer} needs --eps0 E (the local epsilon, eps0 > 0)")
    params = parse_params(args.eps0, args.n, args.delta)
    k = None if args.k is None else parse_number("k", args.k, integer=True)
    d = None if args.d is None else parse_number("d", args.d, integer=True)
    if rounds > 1 or args.randomizer in STRUCTURED or d is not None:  # the structured randomizers: through the front door
        from ...certify import certify

        return _print_certification(certify(args.randomizer, k=k, d=d, rounds=rounds, **params), args.json)
    # The costly candidates that a certified test shows cannot beat the best end in hand are not evaluated (the answer
    # is the full computation's; `interface/tightest.py`, module doc); --all-bounds evaluates every one.
    # Run as a program on two cores or more, the lower side is computed in a second process at the same time (the same
    # answer: `interface/parallel_sides.py`).
    compute = tightest_in_parallel if worker_processes_allowed() else tightest
    gap = compute(randomizer=args.randomizer, k=k, skip_dominated=not args.all_bounds, **params)
    if args.json:
        print_json(dict(gap.to_json(), neighbouring=gap.neighbouring))  # the relation of the upper end
        return 0
    extra = f", k={gap.params['k']}" if "k" in gap.params else ""
    print(f"{gap.randomizer}{extra}, eps0={params['eps0']:g}, n={params['n']}, delta={params['delta']:g}")
    # The headline is the certified upper bound; a lower bound is labelled as one, never the headline.
    if gap.upper_id is None:
        print("certified upper bound: none valid at this point")
    else:
        print(f"certified upper bound: eps <= {gap.upper_eps:.6g} ({gap.upper_id}; {gap.neighbouring} neighbours)")
    if gap.lower_id is not None:
        about = " (binary RR's worst case: the worst eps0-LDP randomizer is at least this)" if gap.randomizer == "generic" else ""
        print(f"lower bound (not a guarantee): eps >= {gap.lower_eps:.6g} ({gap.lower_id}){about}")
    rows = [[r["id"], r["direction"], r["eps"], r["reason"] if r["skipped"] else "valid" if r["valid"] else "not valid: " + r["reason"]] for r in gap.rows]
    rows.sort(key=lambda r: (r[1] != "upper_bound", r[2] is None, r[2] if r[2] is not None else 0.0))  # upper bounds first
    print_table(["statement", "direction", "certified eps (lower end for lower bounds, upper end for upper bounds)", "status"], rows)
    print(gap.line())
    return 0


def _print_certification(result: Certification, as_json: bool) -> int:
    """A `certify` answer (rounds > 1): JSON, or the headline, the labelled lower bound and the table."""
    if as_json:
        print_json(result.to_json())
        return 0
    point = ", ".join(f"{key}={value:g}" if isinstance(value, float) else f"{key}={value}" for key, value in result.params.items())
    print(f"{result.randomizer}, {point}")
    for line in result.lines():
        print(line)
    rows = [[row.statement_id, f"{row.side}_bound", row.eps,
             (row.reason if row.skipped else "valid" if row.valid else "not valid: " + row.reason) + (f" (about {row.about})" if row.about else "")]
            for row in result.rows]
    print_table(["statement", "direction", "certified eps (lower end for lower bounds, upper end for upper bounds)", "status"], rows)
    return 0


def _run_matrix_rounds(args: argparse.Namespace, rounds: int) -> int:
    """--randomizer matrix --rounds T > 1: the matrix composed as an eps0-LDP randomizer at its LDP epsilon."""
    from ...audit.randomizer import load_randomizer_file

    if args.matrix is None:
        raise UsageError("--randomizer matrix needs --matrix FILE (a JSON randomizer file, as `audit randomizer` reads)")
    for flag, value in (("--k", args.k), ("--eps0", args.eps0)):
        if value is not None:
            raise UsageError(f"{flag} {value!r} does not apply to --randomizer matrix (eps0 is the matrix's own LDP epsilon)")
    n = parse_number("n", args.n, integer=True)
    delta = float(parse_number("delta", args.delta))
    require_supported("n", n)
    require_supported("delta", delta)
    document = load_randomizer_file(args.matrix)
    from ...certify import certify

    return _print_certification(certify(document, n=n, delta=delta, rounds=rounds), args.json)


def _run_matrix(args: argparse.Namespace) -> int:
    """--randomizer matrix: the gap of `audit randomizer FILE --n N --delta D` (same loader, same errors)."""
    from ...audit.randomizer import audit_matrix, load_randomizer_file
    from ...randomizer_gap import RandomizerGap

    if args.matrix is None:
        raise UsageError("--randomizer matrix needs --matrix FILE (a JSON randomizer file, as `audit randomizer` reads)")
    if args.k is not None:
        raise UsageError(f"--k {args.k!r} does not apply to --randomizer matrix (the matrix's rows are its inputs)")
    if args.eps0 is not None:
        raise UsageError(f"--eps0 {args.eps0!r} does not apply to --randomizer matrix (eps0 is the matrix's own LDP epsilon)")
    n = parse_number("n", args.n, integer=True)
    delta = float(parse_number("delta", args.delta))
    require_supported("n", n)
    require_supported("delta", delta)
    document = load_randomizer_file(args.matrix)
    try:
        report = audit_matrix(document, n=n, delta=delta, name=Path(args.matrix).stem)
    except ParameterError as failure:  # row/column errors of the matrix: a malformed file (as `audit randomizer`)
        raise UsageError(f"{args.matrix}: {failure}") from None
    if report.gap is not None:
        gap = RandomizerGap.from_json(report.gap)
    else:  # equal rows (eps = 0 exactly) or no finite eps0 > 0: no bound to compute (the audit says why)
        reason = "; ".join(report.problems) or (report.exact or {}).get("method", "")
        gap = RandomizerGap(n, delta, report.ldp_epsilon, rows=[{"reason": reason}] if reason else [])
    if args.json:
        print_json(gap.to_json())
        return 1 if report.problems else 0
    shape = f"{len(report.inputs)} inputs x {len(report.outputs)} outputs" + (f" ({report.mechanism}, k = {report.k})" if report.k else "")
    print(f"randomizer {report.name}: {shape}, eps0={report.ldp_epsilon:.6g}, n={n}, delta={delta:g}")
    if report.exact is not None and report.gap is None:
        print(f"exact: eps = {report.exact['eps']!r} ({report.exact['method']})")
    if report.exact is None and report.exact_reason:
        print(f"exact (enumeration): {report.exact_reason}")
    print(gap.line())
    if gap.pair:
        print(f"lower-bound pair: {gap.pair['description']}")
    for row in gap.rows:
        if "id" in row and not row.get("valid"):
            print(f"  {row['id']}: not computed ({row['reason']})")
    for problem in report.problems:
        print(f"PROBLEM: {problem}")
    return 1 if report.problems else 0
