"""`shuffle-spec eval ID --param NAME=VALUE ... [--json]`: evaluate a statement's reference.

JSON: {"id", "params", "value", "valid", "reason"} (plus "interval" for certified bounds). A failed
hypothesis is a valid answer (`valid: false` with the reason, exit 0), not an error.
"""

from __future__ import annotations

import argparse

from shuffle_spec.proofs_checks.bridge import UsageError, evaluate
from shuffle_spec.proofs_checks.limits import RANGES_TEXT
from shuffle_spec.proofs_checks.output import print_json
from shuffle_spec.spec.registry import get_statement

NAME = "eval"
EPILOG = RANGES_TEXT + "; a parameter is written as 0.5, 1e-6, 10000 or 1/3 and given once"
HELP = "evaluate a statement's reference implementation at the given parameters"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", help="statement id, e.g. FMT21.Thm2.1")
    parser.add_argument("--param", "-p", action="append", default=[], metavar="NAME=VALUE", help="a parameter, repeated (see `show ID`)")
    parser.add_argument("--json", action="store_true", help="print JSON")


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
    statement = get_statement(args.id)
    evaluation = evaluate(statement, parse_assignments(args.param))
    if args.json:
        print_json(evaluation.to_json())
    elif evaluation.valid:
        print(repr(evaluation.value))
        if evaluation.reason:
            print(f"note: {evaluation.reason}")
    else:
        print(f"not valid: {evaluation.reason}")
    return 0
