"""`shuffle-spec calibrate ID --eps E --n N --delta D [--target eps0|n|delta] [--json]`: invert a bound.

- `--target eps0` (default; needs --eps --n --delta): the largest local eps0 whose bound is <= eps;
- `--target n` (needs --eps --eps0 --delta): the smallest number of users whose bound is <= eps;
- `--target delta` (needs --eps --eps0 --n): the delta certified for eps (read from a statement giving
  delta(eps) where one is registered, else the smallest delta whose bound is <= eps).

The answer is a point where the bound was evaluated and found within the target (`reference.inversion`),
with the final bracket: the other end was evaluated and found outside it (or is the search edge).
"""

from __future__ import annotations

import argparse

from shuffle_spec.proofs_checks.api import calibrate_epsilon0, calibrate_n, shuffled_delta
from shuffle_spec.proofs_checks.bridge import UsageError
from shuffle_spec.proofs_checks.commands.eval import parse_assignments
from shuffle_spec.proofs_checks.output import print_json
from shuffle_spec.spec.registry import get_statement

NAME = "calibrate"
HELP = "largest eps0 (or smallest n, or delta) for which a bound certifies a target central epsilon"

NEEDS = {"eps0": ("eps", "n", "delta"), "n": ("eps", "eps0", "delta"), "delta": ("eps", "eps0", "n")}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", nargs="?", help="an amplification bound's statement id (see `shuffle-spec list`); omit with --randomizer")
    parser.add_argument("--randomizer", choices=("krr", "binary_rr"), help="pick the tightest certified bound for this randomizer automatically (issue 15)")
    parser.add_argument("--target", choices=tuple(NEEDS), default="eps0", help="what to solve for (default eps0)")
    parser.add_argument("--eps", type=float, help="target central epsilon")
    parser.add_argument("--eps0", type=float, help="local epsilon (for --target n or delta)")
    parser.add_argument("--n", type=float, help="number of users (for --target eps0 or delta)")
    parser.add_argument("--delta", type=float, help="central delta (for --target eps0 or n)")
    parser.add_argument("--k", type=int, help="domain size, for k-RR bounds")
    parser.add_argument("--param", "-p", action="append", default=[], metavar="NAME=VALUE", help="another mechanism parameter")
    parser.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    if args.id is None:
        if args.randomizer is None:
            raise UsageError("give a statement id, or --randomizer krr --k K to use the tightest certified bound")
        return _run_best(args)
    statement = get_statement(args.id)
    if not statement.is_amplification_bound:
        raise UsageError(f"{statement.id} is not an amplification bound (inputs eps0, n, delta); calibrate inverts those")
    missing = [name for name in NEEDS[args.target] if getattr(args, name) is None]
    if missing:
        raise UsageError(f"--target {args.target} needs {', '.join('--' + m for m in missing)}")
    extra = {name: float(value) for name, value in parse_assignments(args.param).items()}
    if args.k is not None:
        extra["k"] = args.k
    n = None
    if args.n is not None:
        if args.n != int(args.n) or args.n < 1:
            raise UsageError(f"--n {args.n!r} must be an integer >= 1")
        n = int(args.n)
    if args.target == "eps0":
        result = calibrate_epsilon0(statement, eps=args.eps, n=n, delta=args.delta, **extra)
    elif args.target == "n":
        result = calibrate_n(statement, eps=args.eps, eps0=args.eps0, delta=args.delta, **extra)
    else:
        result = shuffled_delta(statement, eps=args.eps, eps0=args.eps0, n=n, **extra)
    if args.json:
        print_json(result.to_json())
        return 0
    low, high = result.bracket
    print(f"{result.target} = {result.value!r}")
    print(f"bound there: eps = {result.bound_at_value!r} (target {args.eps!r})")
    print(f"bracket: [{min(low, high)!r}, {max(low, high)!r}]  ({result.method})")
    if result.note:
        print(f"note: {result.note}")
    return 0


def _calibrate(statement, args: argparse.Namespace, n, extra: dict):
    if args.target == "eps0":
        return calibrate_epsilon0(statement, eps=args.eps, n=n, delta=args.delta, **extra)
    if args.target == "n":
        return calibrate_n(statement, eps=args.eps, eps0=args.eps0, delta=args.delta, **extra)
    return shuffled_delta(statement, eps=args.eps, eps0=args.eps0, n=n, **extra)


def _run_best(args: argparse.Namespace) -> int:
    """Issue 15: calibrate with every certified numeric upper bound that applies to the randomizer and keep
    the best answer (largest eps0, smallest n, smallest delta); each candidate's answer is verified."""
    from shuffle_spec.proofs_checks.tightest import candidate_upper_bounds

    missing = [name for name in NEEDS[args.target] if getattr(args, name) is None]
    if missing:
        raise UsageError(f"--target {args.target} needs {', '.join('--' + m for m in missing)}")
    k = 2 if args.randomizer == "binary_rr" else args.k
    extra = {"k": k}
    n = None
    if args.n is not None:
        if args.n != int(args.n) or args.n < 1:
            raise UsageError(f"--n {args.n!r} must be an integer >= 1")
        n = int(args.n)
    candidates = [s for s in candidate_upper_bounds(args.randomizer, k) if s.value is None and set(s.input_names) <= {"eps0", "n", "delta", "k"}]
    answers, failures = [], []
    for statement in candidates:
        params = {name: value for name, value in extra.items() if name in statement.input_names}
        try:
            answers.append(_calibrate(statement, args, n, params))
        except ValueError as error:
            failures.append(f"{statement.id}: {error}")
    if not answers:
        raise UsageError("no certified bound answers: " + "; ".join(failures))
    if args.target == "eps0":
        best = max(answers, key=lambda r: r.value)
    else:
        best = min(answers, key=lambda r: r.value)
    if args.json:
        print_json(dict(best.to_json(), candidates=[{"id": r.id, "value": r.value} for r in answers], refused=failures))
        return 0
    low, high = best.bracket
    print(f"{best.target} = {best.value!r}  (tightest certified bound for {args.randomizer}{'' if k is None else f', k={k}'}: {best.id})")
    print(f"bound there: eps = {best.bound_at_value!r} (target {args.eps!r})")
    print(f"bracket: [{min(low, high)!r}, {max(low, high)!r}]  ({best.method})")
    for r in answers:
        print(f"candidate {r.id}: {best.target} = {r.value!r}")
    return 0
