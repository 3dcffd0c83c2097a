"""`shuffle-spec compose ID --rounds T --eps0 E --n N --delta D [--json]`: epsilon after T shuffled rounds,
certified by composing the pair of ID (compose.clones, compose.stronger_clones, compose.exact_binary_rr, and
the mechanism-specific compose.binary_rr, compose.krr with --k) with privacy-loss distributions (shuffle_spec.reference.composition.shuffled_rounds).
compose.laplace (--eps0), compose.finite (--matrix FILE, the JSON of `audit randomizer`; no --eps0) and
compose.randomizer (--randomizer NAME --d D): BBGN19 Lemma 5.3's envelope (shuffle_spec.reference.composition.blanket_rounds);
their --rounds-file rounds are {"mechanism", "eps0", "n"[, "rounds", "d", "k", "matrix"]}. Heterogeneous rounds: `--rounds-file FILE`, a JSON list
of {"eps0", "n"[, "rounds", "pair", "k"]} (or {"rounds": [...]}), with --delta. FILE is a regular file of at
most MAX_ROUNDS_FILE_BYTES bytes and MAX_SCHEDULE_ENTRIES rounds, no key given twice; a round's "pair"
must certify the statement (`shuffle_spec.interface.api.composed_epsilon`).

JSON: {"id", "rounds" (total), "params", "value" (= epsilon, the interval's upper end), "interval", "valid",
"reason", "direction" (the statement's: upper_bound, lower_bound or exact)}. Text: the first line is the
value with what it is ("upper bound" or "lower bound" on the composed eps), then the interval, the direction
and the note. Parameters outside the supported range: exit 2 with a one-line message. `--time-budget SECONDS` (default
60, at most 1e6): the lower end's explicit pairs are dropped when it runs out (lower end 0, the note says so); an
upper end still being composed then stops with exit 2 and one line saying so (a file of many distinct rounds can
ask for minutes).
"""

from __future__ import annotations

import argparse
from typing import Any

from ...api import INVERSION_TIME_BUDGET, INVERSION_TIME_BUDGET_MAX, composed_epsilon
from ....proofs_checks.bridge import UsageError
from ...input_files import load_json_file
from ...limits import DELTA_MIN
from ..output import print_json
from ....spec.catalog import resolve
from ....reference.core.limits import (
    COMPOSE_EPS0_MAX as MAX_EPS0,
    COMPOSE_N_MAX as MAX_N,
    COMPOSE_ROUNDS_MAX as MAX_ROUNDS,
    COMPOSE_SCHEDULE_MAX,
)

NAME = "compose"
HELP = "epsilon after many shuffled rounds (certified PLD composition of a dominating pair)"

# A round is about 50 bytes of JSON: 1 MiB holds far more rounds than are composed.
MAX_ROUNDS_FILE_BYTES = 1 << 20
# Every entry builds its own pair of privacy-loss distributions (about 0.1 s each at moderate n), so the
# number of entries, not the rounds they repeat, is what costs: 1000 entries take minutes.
MAX_SCHEDULE_ENTRIES = COMPOSE_SCHEDULE_MAX
ROUND_FIELDS = ("eps0", "n", "rounds", "pair", "k")
# The statements whose rounds are composed by BBGN19 Lemma 5.3's envelope (their own flags and round fields).
BLANKET_IDS = ("compose.laplace", "compose.finite", "compose.randomizer")
# The headline's label for each statement direction.
LABELS = {"upper_bound": "upper bound", "lower_bound": "lower bound", "exact": "exact"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", help="compose.clones, compose.stronger_clones, compose.exact_binary_rr, compose.binary_rr, compose.krr, compose.laplace, compose.finite or compose.randomizer")
    # Numbers are parsed by the project's one parser (`bridge.parse_number`, in `api.composed_epsilon`), as
    # in every other command: "1e3" and "1/2" are numbers, "1_0" and "0x10" are not; ranges are checked there.
    parser.add_argument("--rounds", help=f"number of rounds T, an integer 1 <= T <= {MAX_ROUNDS:.0e}")
    parser.add_argument("--eps0", help=f"local epsilon of each round, 0 < eps0 <= {MAX_EPS0:g}")
    parser.add_argument("--n", help=f"users per round, an integer 1 <= n <= {MAX_N:.0e}")
    parser.add_argument("--k", help="categories of k-RR (compose.krr), an integer 2 <= k <= 1e6")
    parser.add_argument("--randomizer", help="compose.randomizer: rappor, oue, blh, olh, hadamard, subset (with --d), duchi or piecewise")
    parser.add_argument("--d", help="compose.randomizer: the domain size, an integer 2 <= d <= 1e9")
    parser.add_argument("--matrix", help="compose.finite: JSON file of the randomizer, {\"matrix\": [[\"3/4\", \"1/4\"], ...]} (rows inputs)")
    parser.add_argument("--delta", required=True, help=f"central delta after all rounds, {DELTA_MIN:g} <= delta < 1")
    parser.add_argument("--rounds-file", help="JSON file of heterogeneous rounds: [{eps0, n, rounds[, pair]}, ...]")
    parser.add_argument("--time-budget", default=None, metavar="SECONDS",
                        help=f"after this many seconds drop the lower end still being composed (lower end 0, said in the note), and stop with "
                        f"exit 2 when the upper end is (default {INVERSION_TIME_BUDGET:g}, at most {INVERSION_TIME_BUDGET_MAX:g})")
    parser.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    extra: dict[str, Any] = {name: getattr(args, name) for name in ("randomizer", "d", "matrix") if getattr(args, name) is not None}
    # A small file can list many distinct rounds (each builds its own pair): the command stops at its time budget.
    budget = INVERSION_TIME_BUDGET if args.time_budget is None else args.time_budget
    if args.id in BLANKET_IDS:
        if "matrix" in extra:
            # Numbers as the exact decimals written (as `tightest --matrix` and `audit randomizer` read a matrix file).
            extra["matrix"] = load_json_file(extra["matrix"], what="--matrix", limit=MAX_ROUNDS_FILE_BYTES, exact_numbers=True)
        if args.rounds_file is not None:
            document = load_json_file(args.rounds_file, what="--rounds-file", limit=MAX_ROUNDS_FILE_BYTES, exact_numbers=True)
            schedule = document.get("rounds") if isinstance(document, dict) else document
            if not isinstance(schedule, list) or not schedule:
                raise UsageError(f"--rounds-file {args.rounds_file}: expected a non-empty list of rounds [{{\"mechanism\": ..., \"eps0\": ..., \"n\": ...}}, ...]")
            result = composed_epsilon(args.id, delta=args.delta, schedule=schedule, time_budget=budget, **extra)
        else:
            result = composed_epsilon(args.id, rounds=args.rounds, eps0=args.eps0, n=args.n, delta=args.delta, k=args.k, time_budget=budget, **extra)
        return _print(args, result)
    if extra:
        raise UsageError(f"--{', --'.join(extra)} only with {', '.join(BLANKET_IDS)}")
    if args.rounds_file is not None:
        if args.rounds is not None or args.eps0 is not None or args.n is not None or args.k is not None:
            raise UsageError("give either --rounds-file or --rounds/--eps0/--n/--k, not both")
        schedule = read_rounds_file(args.rounds_file)
        result = composed_epsilon(args.id, delta=args.delta, schedule=schedule, time_budget=budget)
    else:
        missing = [name for name in ("rounds", "eps0", "n") if getattr(args, name) is None]
        if missing:
            raise UsageError(f"compose needs --{', --'.join(missing)} (or --rounds-file)")
        result = composed_epsilon(args.id, rounds=args.rounds, eps0=args.eps0, n=args.n, delta=args.delta, k=args.k, time_budget=budget)
    return _print(args, result)


def _print(args: argparse.Namespace, result: Any) -> int:
    if args.json:
        print_json(dict(result.to_json(), direction=resolve(result.id).direction.value))
    else:
        direction = resolve(result.id).direction.value
        print(f"{result.value!r} ({LABELS.get(direction, direction)} on the composed eps)")
        print(f"interval: [{result.interval[0]!r}, {result.interval[1]!r}]")
        print(f"direction: {direction}")
        print(f"neighbouring: {result.neighbouring}")
        if result.reason:
            print(f"note: {result.reason}")
    return 0


def read_rounds_file(path: str) -> list[dict[str, Any]]:
    """The rounds of `--rounds-file PATH`: a non-empty JSON list of objects with "eps0" and "n" (numbers)
    and optionally "rounds" (a number) and "pair" (a string), or {"rounds": that list}. The shape is
    checked here, with the round's index in the error; the ranges by `shuffle_spec.reference.composition.shuffled_rounds`."""
    where = f"--rounds-file {path}"
    document = load_json_file(path, what="--rounds-file", limit=MAX_ROUNDS_FILE_BYTES)
    if isinstance(document, dict):
        if set(document) != {"rounds"}:
            found = ", ".join(sorted(map(repr, document))) or "no field"
            raise UsageError(f"{where}: an object holds only \"rounds\" (the list of rounds); found {_short(found)}")
        document = document["rounds"]
    if not isinstance(document, list) or not document:
        raise UsageError(f"{where}: expected a non-empty list of rounds [{{\"eps0\": ..., \"n\": ...[, \"rounds\": ..., \"pair\": ...]}}, ...], got {_kind(document)}")
    if len(document) > MAX_SCHEDULE_ENTRIES:
        raise UsageError(f"{where}: {len(document)} rounds listed; at most {MAX_SCHEDULE_ENTRIES} (give repeated rounds once, with \"rounds\": T)")
    for index, item in enumerate(document):
        if not isinstance(item, dict):
            raise UsageError(f"{where}: round {index} is {_kind(item)}; expected an object {{\"eps0\": ..., \"n\": ...[, \"rounds\": ..., \"pair\": ...]}}")
        unknown = sorted(set(item) - set(ROUND_FIELDS))
        if unknown:
            raise UsageError(f"{where}: round {index}: unknown field(s) {_short(', '.join(unknown))}; allowed: {', '.join(ROUND_FIELDS)}")
        missing = [name for name in ("eps0", "n") if name not in item]
        if missing:
            raise UsageError(f"{where}: round {index}: missing {', '.join(missing)}")
        for name in ("eps0", "n", "rounds", "k"):
            if name in item and (isinstance(item[name], bool) or not isinstance(item[name], (int, float))):
                raise UsageError(f"{where}: round {index}: \"{name}\" is {_kind(item[name])}; expected a number")
        if "pair" in item and not isinstance(item["pair"], str):
            raise UsageError(f"{where}: round {index}: \"pair\" is {_kind(item['pair'])}; expected a pair name such as \"clones\"")
    return document


def _kind(value: object) -> str:
    """What a JSON value is, in the file's terms, with the value itself when it is short."""
    if value is None:
        return "null"
    kind = {bool: "a boolean", dict: "an object", list: "a list", str: "a string"}.get(type(value), "a number")
    return f"{kind} ({_short(repr(value))})"


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
