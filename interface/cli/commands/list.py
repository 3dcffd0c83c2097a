"""`shuffle-spec list [--json]`: every statement with its id, kind, title, source and direction."""

from __future__ import annotations

import argparse

from ....proofs_checks.bridge import UsageError
from ..output import print_json, print_table
from ....spec.catalog import all_statements as list_statements  # no SymPy when the catalog applies

NAME = "list"
HELP = "list every statement: id, kind, title, source, direction"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--paper", help="only the statements of this paper key (e.g. BBGN19)")


def statement_summary(statement) -> dict:
    return {
        "id": statement.id,
        "kind": statement.kind.value,
        "title": statement.title,
        "source": {
            "paper": statement.source.paper,
            "locator": statement.source.locator,
            "version": statement.source.version,
            "confidence": statement.source.confidence,
        },
        "direction": statement.direction.value,
        "parameters": list(statement.input_names),
        "reference": statement.reference,
    }


def run(args: argparse.Namespace) -> int:
    papers = sorted({s.paper for s in list_statements()})
    if args.paper is not None and args.paper not in papers:
        raise UsageError(f"--paper {args.paper[:40]!r} is not a paper key; the papers are {', '.join(papers)}")
    statements = [s for s in list_statements() if args.paper is None or s.paper == args.paper]
    if args.json:
        print_json([statement_summary(s) for s in statements])
    else:
        print_table(
            ["id", "kind", "direction", "source", "title"],
            [[s.id, s.kind.value, s.direction.value, str(s.source.locator), s.title] for s in statements],
        )
    return 0
