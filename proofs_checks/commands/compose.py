"""`shuffle-spec compose ID --rounds T --eps0 E --n N --delta D [--json]`: epsilon after T shuffled rounds,
certified by composing the pair of ID (compose.clones, compose.stronger_clones, compose.exact_binary_rr)
with privacy-loss distributions (reference.pld). Heterogeneous rounds: `--rounds-file FILE`, a JSON list
of {"eps0", "n", "rounds"[, "pair"]} (or {"rounds": [...]}), with --delta.

JSON: {"id", "rounds" (total), "params", "value" (= epsilon, the interval's upper end), "interval", "valid",
"reason"}. Parameters outside the supported range: exit 2 with a one-line message.
"""

from __future__ import annotations

import argparse
import json

from shuffle_spec.proofs_checks.api import composed_epsilon
from shuffle_spec.proofs_checks.bridge import UsageError
from shuffle_spec.proofs_checks.limits import DELTA_MIN
from shuffle_spec.proofs_checks.output import print_json
from shuffle_spec.reference.limits import COMPOSE_EPS0_MAX as MAX_EPS0, COMPOSE_N_MAX as MAX_N, COMPOSE_ROUNDS_MAX as MAX_ROUNDS

NAME = "compose"
HELP = "epsilon after many shuffled rounds (certified PLD composition of a dominating pair)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", help="compose.clones, compose.stronger_clones or compose.exact_binary_rr")
    # Numbers are parsed by the project's one parser (`bridge.parse_number`, in `api.composed_epsilon`), as
    # in every other command: "1e3" and "1/2" are numbers, "1_0" and "0x10" are not; ranges are checked there.
    parser.add_argument("--rounds", help=f"number of rounds T, an integer 1 <= T <= {MAX_ROUNDS:.0e}")
    parser.add_argument("--eps0", help=f"local epsilon of each round, 0 < eps0 <= {MAX_EPS0:g}")
    parser.add_argument("--n", help=f"users per round, an integer 1 <= n <= {MAX_N:.0e}")
    parser.add_argument("--delta", required=True, help=f"central delta after all rounds, {DELTA_MIN:g} <= delta < 1")
    parser.add_argument("--rounds-file", help="JSON file of heterogeneous rounds: [{eps0, n, rounds[, pair]}, ...]")
    parser.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    if args.rounds_file is not None:
        if args.rounds is not None or args.eps0 is not None or args.n is not None:
            raise UsageError("give either --rounds-file or --rounds/--eps0/--n, not both")
        try:
            with open(args.rounds_file, encoding="utf-8") as handle:
                schedule = json.load(handle)
        except (OSError, json.JSONDecodeError) as failure:
            raise UsageError(f"--rounds-file {args.rounds_file}: {failure}") from None
        if isinstance(schedule, dict) and "rounds" in schedule:
            schedule = schedule["rounds"]
        if not isinstance(schedule, list):
            raise UsageError(f"--rounds-file {args.rounds_file}: expected a JSON list of rounds")
        result = composed_epsilon(args.id, delta=args.delta, schedule=schedule)
    else:
        missing = [name for name in ("rounds", "eps0", "n") if getattr(args, name) is None]
        if missing:
            raise UsageError(f"compose needs --{', --'.join(missing)} (or --rounds-file)")
        result = composed_epsilon(args.id, rounds=args.rounds, eps0=args.eps0, n=args.n, delta=args.delta)
    if args.json:
        print_json(result.to_json())
    else:
        print(repr(result.value))
        print(f"interval: [{result.interval[0]!r}, {result.interval[1]!r}]")
        if result.reason:
            print(f"note: {result.reason}")
    return 0
