"""`shuffle-spec audit randomizer FILE.json [--n N --delta D]` and
`shuffle-spec audit bound MODULE:FUNCTION --id ID [--rtol R]`.

- randomizer: replacement and removal LDP epsilon, blanket gamma and distribution, every applicable
  shuffled bound at (n, delta) and the exact central epsilon when n is small. The file format is in
  `proofs_checks/audit.py`. A malformed file is a usage error (exit 2) naming the row and column; a
  bound found below the exact value is an audit failure (exit 1).
- bound: calls FUNCTION(eps0, n, delta) (by keyword when it names its parameters that way) over the
  test vectors of statement ID; exit 1 on a value outside the expected interval, on a value below the
  exact truth (an unsound bound), or on a number returned for inputs outside the hypotheses.
  MODULE may be an importable module or a path to a .py file.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from shuffle_spec.proofs_checks.audit import audit_bound, audit_matrix, load_bound_function, load_randomizer_file
from shuffle_spec.proofs_checks.bridge import UsageError
from shuffle_spec.proofs_checks.output import format_number, print_json, print_table
from shuffle_spec.reference.errors import ParameterError

NAME = "audit"
HELP = "audit a finite randomizer (matrix file) or a third-party bound function against the spec"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="what", metavar="WHAT", required=True)
    randomizer = sub.add_parser("randomizer", help="LDP epsilons, blanket and shuffled bounds of a randomizer matrix", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    randomizer.add_argument("file", help="JSON file: {\"matrix\": [[\"3/4\", \"1/4\"], ...]} (rows inputs, columns outputs)")
    randomizer.add_argument("--n", type=int, help="number of users for the shuffled bounds")
    randomizer.add_argument("--delta", type=float, help="central delta for the shuffled bounds")
    randomizer.add_argument("--json", action="store_true", help="print JSON")
    bound = sub.add_parser("bound", help="check another implementation's bound f(eps0, n, delta) -> eps over the test vectors")
    bound.add_argument("function", help="MODULE:FUNCTION or path/to/file.py:FUNCTION")
    bound.add_argument("--id", required=True, help="the statement it claims to implement")
    bound.add_argument("--rtol", type=float, help="relative tolerance (default: the statement's)")
    bound.add_argument("--vectors", help="directory of vectors to use instead of generating them (e.g. tests/vectors)")
    bound.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    return _run_randomizer(args) if args.what == "randomizer" else _run_bound(args)


def _run_randomizer(args: argparse.Namespace) -> int:
    document = load_randomizer_file(args.file)
    try:
        report = audit_matrix(document, n=args.n, delta=args.delta, name=Path(args.file).stem)
    except ParameterError as failure:  # row/column errors of the matrix: a malformed file
        raise UsageError(f"{args.file}: {failure}") from None
    if args.json:
        print_json(report.to_json())
        return 1 if report.problems else 0
    print(f"randomizer {report.name}: {len(report.inputs)} inputs x {len(report.outputs)} outputs" + (f" ({report.mechanism}, k = {report.k})" if report.k else ""))
    print(f"replacement LDP epsilon: {report.ldp_epsilon!r}  (max likelihood ratio {report.ldp_ratio})")
    print(f"removal LDP epsilon:     {report.removal_epsilon!r}  (reference {report.removal_reference_kind}: [{', '.join(report.removal_reference)}])")
    print(f"blanket gamma:           {report.gamma}  (~ {format_number(report.gamma_float)})")
    print(f"blanket distribution:    [{', '.join(report.blanket_distribution) or 'none: gamma = 0'}]")
    if report.n is not None:
        print(f"\nshuffled, n = {report.n}, delta = {report.delta:g}, eps0 = {report.ldp_epsilon:.6g}:")
        rows = [[b["id"], b["mechanism"], b["eps"], b["reason"]] for b in sorted(report.bounds, key=lambda b: (not b["valid"], b["eps"] or 0.0))]
        if report.exact is not None:
            rows.append(["exact", report.mechanism, report.exact["eps"], report.exact["method"]])
        else:
            rows.append(["exact", report.mechanism, None, "not computed: n too large for enumeration"])
        print_table(["id", "mechanism", "eps", "note"], rows)
    for problem in report.problems:
        print(f"PROBLEM: {problem}")
    return 1 if report.problems else 0


def _run_bound(args: argparse.Namespace) -> int:
    function = load_bound_function(args.function)
    vectors = None
    if args.vectors:
        path = Path(args.vectors) / f"{args.id}.json"
        if not path.is_file():
            raise UsageError(f"no vectors for {args.id} in {args.vectors}")
        vectors = json.loads(path.read_text())["testGroups"][0]
    report = audit_bound(function, args.id, rtol=args.rtol, vectors=vectors, label=args.function)
    if args.json:
        print_json(report.to_json())
        return 0 if report.ok else 1
    print(f"{args.function} as {args.id}: {report.passed}/{report.tests} vectors pass; truth checked at {report.truth_checked}")
    for item in report.unsound:
        print(f"UNSOUND tcId {item['tcId']} {item['inputs']}: got {item['got']!r} < exact {item['truth']!r} ({item['truth_source']})")
    for item in report.mismatches:
        shown = f"got {item['got']!r}" if item["got"] is not None else f"refused ({item['error']})"
        print(f"MISMATCH tcId {item['tcId']} {item['inputs']}: {shown}, expected {item['expected']} ({item['reason']})")
    for item in report.accepted_invalid:
        print(f"ACCEPTED INVALID tcId {item['tcId']} {item['inputs']}: got {item['got']!r} ({item['reason']})")
    print("result: pass" if report.ok else "result: FAIL")
    return 0 if report.ok else 1
