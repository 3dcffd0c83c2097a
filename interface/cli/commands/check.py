"""`shuffle-spec check [--json] [--id PREFIX]`: run every proof check and spec-vs-reference check."""

from __future__ import annotations

import argparse

from ..output import print_json, print_table, progress

NAME = "check"
HELP = "run every symbolic proof check and spec-vs-reference agreement check; exit 1 on any failure"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--id", default="", metavar="PREFIX", help="only checks of statements whose id starts with PREFIX")


def run(args: argparse.Namespace) -> int:
    from ....proofs_checks.framework import all_checks, run_check  # SymPy: not for `check --help`

    checks = [c for c in all_checks() if c.statement_id.startswith(args.id)]
    results = []
    for index, check in enumerate(checks, start=1):
        results.append(run_check(check))
        progress(index, len(checks), "checks")
    failed = sum(not r.passed for r in results)
    if args.json:
        print_json(
            {
                "passed": len(results) - failed,
                "failed": failed,
                "results": [
                    {"id": r.statement_id, "check": r.name, "result": "pass" if r.passed else "fail", "detail": r.detail, "seconds": round(r.seconds, 4)}
                    for r in results
                ],
            }
        )
    else:
        print_table(["id", "check", "result", "detail"], [[r.statement_id, r.name, "pass" if r.passed else "FAIL", r.detail] for r in results])
        print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0
