"""`shuffle-spec tightest --randomizer krr --k K --eps0 E --n N --delta D [--json]` (or `--randomizer laplace`,
the Laplace mechanism on [0, 1], no --k): the tightest certified upper bound, the largest certified lower bound
on the central epsilon and their ratio (issue 15).

JSON: {"randomizer", "params", "upper": {"id", "eps"} | null, "lower": {"id", "eps"} | null, "ratio",
"bounds": [{"id", "direction", "eps", "valid", "reason", "interval"}]}: one row per statement and side it
certifies ("direction" lower_bound or upper_bound; "eps" the certified end on that side; "interval" the
certified interval or null). For k = 2 (krr --k 2, binary_rr) exact.shuffled_binary_rr, the certified worst
case, has two rows from one evaluation: its lower end as a lower bound and its upper end as an upper bound.
"""

from __future__ import annotations

import argparse

from shuffle_spec.proofs_checks.bridge import parse_number
from shuffle_spec.proofs_checks.commands.compare import parse_params
from shuffle_spec.proofs_checks.output import print_json, print_table
from shuffle_spec.proofs_checks.tightest import RANDOMIZERS, tightest

NAME = "tightest"
HELP = "tightest certified upper bound, largest certified lower bound on the central eps of a randomizer, and their ratio"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--randomizer", default="krr", choices=RANDOMIZERS, help="the local randomizer (default krr)")
    parser.add_argument("--k", help="domain size of k-RR (k >= 2)")
    parser.add_argument("--eps0", required=True, help="local epsilon eps0 > 0")
    parser.add_argument("--n", required=True, help="number of users, an integer >= 1 (1e6 is accepted)")
    parser.add_argument("--delta", required=True, help="central delta in (0, 1)")
    parser.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    params = parse_params(args.eps0, args.n, args.delta)
    k = None if args.k is None else parse_number("k", args.k, integer=True)
    gap = tightest(randomizer=args.randomizer, k=k, **params)
    if args.json:
        print_json(gap.to_json())
        return 0
    extra = f", k={gap.params['k']}" if "k" in gap.params else ""
    print(f"{gap.randomizer}{extra}, eps0={params['eps0']:g}, n={params['n']}, delta={params['delta']:g}")
    rows = [[r["id"], r["direction"], r["eps"], "valid" if r["valid"] else "not valid: " + r["reason"]] for r in gap.rows]
    rows.sort(key=lambda r: (r[1], r[2] is None, r[2] if r[2] is not None else 0.0))
    print_table(["statement", "direction", "certified eps (lower end for lower bounds, upper end for upper bounds)", "status"], rows)
    print(gap.line())
    return 0
