"""`shuffle-spec limits [--json]`: the supported parameter ranges, from the one range table.

Every statement's supported range (eps0, n, delta) and the other limits (the high-precision enclosures, exact
k-ary randomized response, the protocols' domain sizes k), each with why it is what it is: the rows of
`shuffle_spec.reference.core.limits` (`RANGES`, `PARAMETER_LIMITS`), which every bound and checker reads. A point
outside them is refused before any work, in one line naming the parameter, its value and the range (exit 2).
"""

from __future__ import annotations

import argparse

from ..output import print_json, print_table
from ....reference.core.limits import PARAMETER_LIMITS, RANGES

NAME = "limits"
HELP = "list the supported parameter ranges: every statement's, the high-precision paths', the protocols' k"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    statements = [
        {"statement": statement, "eps0_max": r.eps0_max, "n_max": r.n_max, "delta_min": r.delta_min, "why": r.why}
        for statement, r in sorted(RANGES.items())
    ]
    others = [{"where": row.where, "parameter": row.parameter, "allowed": row.allowed, "why": row.why} for row in PARAMETER_LIMITS]
    if args.json:
        print_json({"statements": statements, "other_limits": others})
        return 0
    print_table(
        ["statement", "eps0 <=", "n <=", "delta >=", "why"],
        [[s["statement"], f"{s['eps0_max']:g}", f"{s['n_max']:.0e}", f"{s['delta_min']:g}", s["why"]] for s in statements],
    )
    print()
    print_table(["where", "parameter", "allowed", "why"], [[o["where"], o["parameter"], o["allowed"], o["why"]] for o in others])
    return 0
