"""`shuffle-spec calibrate ID --eps E --n N --delta D [--target eps0|n|delta] [--json]`: invert a bound.

- `--target eps0` (default; needs --eps --n --delta): the largest local eps0 whose bound is <= eps;
- `--target n` (needs --eps --eps0 --delta): the smallest number of users whose bound is <= eps;
- `--target delta` (needs --eps --eps0 --n): the delta certified for eps (read from a statement giving
  delta(eps) where one is registered, else the smallest delta whose bound is <= eps). For a statement whose
  epsilon holds at a delta' other than its input delta (FMT21.Prop2.2 and .focs, with --param delta0=...) it is
  the total delta' (JSON: also "input_delta", "delta_effective_by"), refused when no delta' < 1 certifies eps;
  --target eps0 / n then need delta' <= delta, i.e. delta0 = 0.

The answer is a point where the bound was evaluated and found within the target (`shuffle_spec.reference.numerics.inversion`),
with the final bracket: the other end was evaluated and found outside it (or is the search edge).

`--randomizer krr|binary_rr|laplace|generic` (no ID): every certified numeric upper bound registered for that
randomizer (generic: those valid for every eps0-LDP randomizer, as `tightest --randomizer generic` lists them) is
inverted and the best answer kept.

`--time-budget SECONDS` (default 60; with --randomizer, for all the candidates together): when it runs out,
the best certified answer found so far is printed with a note saying that it stopped early and the bracket
in which the optimum lies (JSON `stopped_early: true`); if no point was certified yet, a one-line error
(exit 2). The target eps may be 0 ((0, delta)-DP), where a bound certifies it.
"""

from __future__ import annotations

import argparse
import time

from ...api import INVERSION_TIME_BUDGET, INVERSION_TIME_BUDGET_MAX, InversionTimeout, calibrate_epsilon0, calibrate_n, shuffled_delta
from ....proofs_checks.bridge import BadParameter, UsageError, parse_number, require_supported
from ...limits import DELTA_MIN, EPS0_MAX, K_MAX, N_MAX, RANGES_TEXT
from .eval import parse_assignments
from ..output import print_json
from ..points import parse_time_budget
from ....reference.core.progress import report, silenced
from ....spec.registry import get_statement

NAME = "calibrate"
EPILOG = RANGES_TEXT
HELP = "largest eps0 (or smallest n, or delta) for which a bound certifies a target central epsilon"

# The randomizers whose registered upper bounds are inverted here (`tightest` has the same words; the structured
# randomizers and matrices have no registered numeric statements to invert).
RANDOMIZERS = ("krr", "binary_rr", "laplace", "generic")
NO_K = ("laplace", "generic")  # no domain size: --k is refused rather than ignored

NEEDS = {"eps0": ("eps", "n", "delta"), "n": ("eps", "eps0", "delta"), "delta": ("eps", "eps0", "n")}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", nargs="?", help="an amplification bound's statement id (see `shuffle-spec list`); omit with --randomizer")
    parser.add_argument("--randomizer", choices=RANDOMIZERS, help="pick the tightest certified bound for this randomizer automatically (laplace: the Laplace mechanism on "
                        "[0, 1], no --k; generic: any eps0-LDP randomizer, the generic bounds, no --k, as `tightest --randomizer generic`)")
    parser.add_argument("--target", choices=tuple(NEEDS), default="eps0", help="what to solve for (default eps0)")
    parser.add_argument("--eps", help="target central epsilon, a finite eps >= 0")
    parser.add_argument("--eps0", help=f"local epsilon, 0 < eps0 <= {EPS0_MAX:g} (for --target n or delta)")
    parser.add_argument("--n", help=f"number of users, an integer 1 <= n <= {N_MAX:.0e} (for --target eps0 or delta)")
    parser.add_argument("--delta", help=f"central delta, {DELTA_MIN:g} <= delta < 1 (for --target eps0 or n)")
    parser.add_argument("--k", help=f"domain size, for k-RR bounds (2 <= k <= {K_MAX:.0e})")
    parser.add_argument("--param", "-p", action="append", default=[], metavar="NAME=VALUE", help="another mechanism parameter")
    parser.add_argument("--time-budget", default=None, metavar="SECONDS", help=f"stop after this many seconds (default {INVERSION_TIME_BUDGET:g}, at most {INVERSION_TIME_BUDGET_MAX:g}) with the best certified answer so far, marked as stopped early")
    parser.add_argument("--json", action="store_true", help="print JSON")


def _budget(args: argparse.Namespace) -> float:
    """--time-budget as seconds: a number in (0, INVERSION_TIME_BUDGET_MAX] (default INVERSION_TIME_BUDGET)."""
    return parse_time_budget(args.time_budget)


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
    extra: dict = {name: float(parse_number(name, value)) for name, value in parse_assignments(args.param).items()}
    if args.k is not None:
        if "k" in extra:
            raise UsageError("k is given twice (--k and --param k=...); give it once")
        extra["k"] = args.k
    if "k" in extra:
        extra["k"] = parse_number("k", extra["k"], integer=True)
        require_supported("k", extra["k"])
    # Every given value parsed strictly and checked against the supported range before any search,
    # so a bad one is named itself (not blamed on the searched parameter or the target).
    given, eps = _given_values(args)
    result = _calibrate(statement, args.target, given, eps, extra, _budget(args))
    if args.json:
        print_json(dict(result.to_json(), direction=statement.direction.value))
        return 0
    low, high = result.bracket
    print(f"{result.target} = {result.value!r}  ({statement.id}, {statement.direction.value})")
    if "input_delta" in result.extra:  # an epsilon that holds at a delta' other than its input delta (FMT21 Prop 2.2)
        print(f"  (the total delta' at which eps is certified, by {result.extra['delta_effective_by']}; the statement's input delta there is {result.extra['input_delta']!r})")
    print(f"bound there: eps = {result.bound_at_value!r} (target {eps!r})")
    print(f"bracket: [{min(low, high)!r}, {max(low, high)!r}]  ({result.method})")
    if result.note:
        print(f"note: {result.note}")
    return 0


def _given_values(args: argparse.Namespace) -> tuple[dict, float]:
    """The given eps0 / n / delta (all but the target) and the target eps, parsed strictly and checked
    against the supported range before any search, so a bad one is named itself (not blamed on the
    searched parameter or the target)."""
    given: dict = {}
    for name in ("eps0", "n", "delta"):
        text = getattr(args, name)
        if text is not None and name != args.target:
            given[name] = parse_number(name, text, integer=name == "n")
            given[name] = given[name] if name == "n" else float(given[name])
            require_supported(name, given[name])
    eps = float(parse_number("eps", args.eps))
    if not eps >= 0:
        raise BadParameter("eps", args.eps, "a finite target eps >= 0")
    return given, eps


def _calibrate(statement, target: str, given: dict, eps: float, extra: dict, budget: float):
    if target == "eps0":
        return calibrate_epsilon0(statement, eps=eps, n=given["n"], delta=given["delta"], time_budget=budget, **extra)
    if target == "n":
        return calibrate_n(statement, eps=eps, eps0=given["eps0"], delta=given["delta"], time_budget=budget, **extra)
    return shuffled_delta(statement, eps=eps, eps0=given["eps0"], n=given["n"], time_budget=budget, **extra)


def _run_best(args: argparse.Namespace) -> int:
    """Calibrate with every certified numeric upper bound that applies to the randomizer and keep
    the best answer (largest eps0, smallest n, smallest delta); each candidate's answer is verified."""
    from ...tightest import candidate_upper_bounds

    missing = [name for name in NEEDS[args.target] if getattr(args, name) is None]
    if missing:
        raise UsageError(f"--target {args.target} needs {', '.join('--' + m for m in missing)}")
    if args.randomizer in NO_K and args.k is not None:
        raise UsageError(f"--k {args.k} does not apply to --randomizer {args.randomizer} (no domain size); drop --k")
    k = 2 if args.randomizer == "binary_rr" else (None if args.k is None else parse_number("k", args.k, integer=True))
    if k is not None:
        require_supported("k", k)
    extra = {} if args.randomizer in NO_K else {"k": k}
    given, eps = _given_values(args)
    # Numeric (no closed form) bounds only; a catalog Entry says so by has_value, a Statement by value.
    candidates = [
        s for s in candidate_upper_bounds(args.randomizer, k) if not (s.has_value if hasattr(s, "has_value") else s.value is not None) and set(s.input_names) <= {"eps0", "n", "delta", "k"}
    ]
    answers, failures = [], []
    budget = _budget(args)
    deadline = time.monotonic() + budget  # one budget for all the candidates together
    for index, statement in enumerate(candidates):
        # One step per candidate bound (each is a bisection of its own, seconds at large n; their steps are silenced).
        report("calibrate: candidate bounds", index, len(candidates))
        params = {name: value for name, value in extra.items() if name in statement.input_names}
        left = deadline - time.monotonic()
        if left <= 0:
            failures.append(f"{statement.id}: not tried, the time budget of {budget:g} s was spent")
            continue
        try:
            with silenced():
                answers.append(_calibrate(statement, args.target, given, eps, params, left))
        except ValueError as error:
            failures.append(f"{statement.id}: {error}")
        except InversionTimeout:
            failures.append(f"{statement.id}: no point certified within the time budget of {budget:g} s")
    report("calibrate: candidate bounds", len(candidates), len(candidates))
    if not answers:
        raise UsageError("no certified bound answers: " + "; ".join(failures))
    directions = {s.id: s.direction.value for s in candidates}
    if args.target == "eps0":
        best = max(answers, key=lambda r: r.value)
    else:
        best = min(answers, key=lambda r: r.value)
    if args.json:
        print_json(dict(best.to_json(), candidates=[{"id": r.id, "value": r.value, "stopped_early": r.stopped_early, "direction": directions[r.id]} for r in answers],
                        refused=failures, direction=directions[best.id]))
        return 0
    low, high = best.bracket
    print(f"{best.target} = {best.value!r}  (tightest certified bound for {args.randomizer}{'' if k is None else f', k={k}'}: {best.id}, {directions[best.id]})")
    print(f"bound there: eps = {best.bound_at_value!r} (target {eps!r})")
    print(f"bracket: [{min(low, high)!r}, {max(low, high)!r}]  ({best.method})")
    if best.note:
        print(f"note: {best.note}")
    for r in answers:
        print(f"candidate {r.id} ({directions[r.id]}): {best.target} = {r.value!r}{' (stopped early)' if r.stopped_early else ''}")
    for failure in failures:
        print(f"not used: {failure}")
    return 0
