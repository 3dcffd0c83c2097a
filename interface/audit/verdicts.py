"""Verdicts of a bound audit, by consequence: what one call of an audited bound function
means for someone who relies on it.

| verdict           | when                                                                 | severity |
|-------------------|----------------------------------------------------------------------|----------|
| `PASS`            | inside the hypotheses and inside the statement's acceptance interval, | pass    |
|                   | where the reference's certified interval is within the tolerance     |          |
| `REJECTS`         | outside the hypotheses and refused (raised, or returned nan / inf)   | pass     |
|                   | or refused inside them where the statement's value is >= eps0        | warning  |
|                   | (T x eps0 for a composition of T rounds: `no_amplification_level`)   |          |
| `ABOVE BOUND`     | above the interval: looser than the theorem, but safe                | warning  |
|                   | (a LOWER-bound statement: a larger lower bound than it proves; within | failure  |
|                   | 1e-9 relative, float rounding: warning)                               |          |
| `BELOW BOUND (rounding)` | below the interval by < 1e-9 relative: float rounding of a     | warning  |
|                   | correct formula evaluated without outward rounding                   |          |
| `INCONCLUSIVE`    | inside the acceptance interval where the reference cannot separate   | warning  |
|                   | claims: its certified interval of the statement's value is wider     |          |
|                   | than the statement's tolerance (`bound` module doc), or it has no    |          |
|                   | value there (it failed); the claim may be wrong by more than the     |          |
|                   | tolerance, so it is never a PASS                                     |          |
| `ACCEPTS INVALID` | a number outside the hypotheses: a failure when it claims more        | warning / failure |
|                   | privacy than any registered statement certifies there (below eps0     |          |
|                   | and below every valid bound; any negative number), else a warning     |          |
|                   | (eps0, or anything at delta >= 1, is harmless); `strict`: failure     |          |
| `BELOW BOUND`     | below the interval: claims more privacy than the theorem proves      | failure  |
|                   | (a LOWER-bound statement: looser than it proves, safe)               | warning  |
| `UNSOUND`         | below a lower bound on the true epsilon (see `truth_lower_bound`)    | failure  |
| `CRASH`           | raised inside the hypotheses, exited, or its process died            | failure  |
| `NON-NUMBER`      | returned something that is not a number (or nan inside the hypotheses) | failure |
| `TIMEOUT`         | no answer within the time limit                                      | failure  |

This module judges one call; it never imports `shuffle_spec.interface.vectors.files` or `shuffle_spec.interface.audit.randomizer`
(both import it), so there is no import cycle.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

from ..amplification import EXACT_BINARY_RR_ID, GENERIC, evaluate_bounds
from ...proofs_checks.bridge import evaluate
from ..certified import Candidate, best_certified
from .sandbox import CallOutcome, call_in_process
from ...reference.finite.randomizers import binary_randomized_response
from ...reference.core.rounding import round_down
from ...spec.registry import get_statement, list_statements
from ...spec.statement import Direction, Statement

__all__ = [
    "ABOVE_BOUND",
    "ACCEPTS_INVALID",
    "BELOW_BOUND",
    "BELOW_BOUND_ROUNDING",
    "CRASH",
    "INCONCLUSIVE",
    "NON_NUMBER",
    "PASS",
    "REJECTS",
    "TIMEOUT",
    "UNSOUND",
    "VERDICT_ORDER",
    "Finding",
    "certified_bound",
    "judge",
    "judge_group",
    "remembered_truths",
    "truth_lower_bound",
    "krr_lower_bound_ids",
]

PASS, REJECTS, ABOVE_BOUND, ACCEPTS_INVALID = "PASS", "REJECTS", "ABOVE BOUND", "ACCEPTS INVALID"
BELOW_BOUND, UNSOUND, CRASH, NON_NUMBER, TIMEOUT = "BELOW BOUND", "UNSOUND", "CRASH", "NON-NUMBER", "TIMEOUT"
BELOW_BOUND_ROUNDING = "BELOW BOUND (rounding)"
INCONCLUSIVE = "INCONCLUSIVE"
# Worst first: the summary and the exit code follow this order. INCONCLUSIVE before the other warnings: it may hide a
# BELOW BOUND.
VERDICT_ORDER = (UNSOUND, BELOW_BOUND, ACCEPTS_INVALID, CRASH, NON_NUMBER, TIMEOUT, INCONCLUSIVE, BELOW_BOUND_ROUNDING, ABOVE_BOUND, REJECTS, PASS)
# Below the interval by less than this (relative) is what evaluating a correct formula in double
# precision without outward rounding can give (log(1 + x) for x ~ 1e-5 loses ~1e-11): a warning.
ROUNDING_TOLERANCE = 1e-9
SEVERITY_ORDER = ("failure", "warning", "pass")

# n up to which exact shuffled binary RR is computed by enumeration when no registered truth applies.
BINARY_RR_ENUMERATION_MAX_N = 40
# Lower bounds on the truth: registered statements about the worst case of shuffled binary RR, whose
# interval's lower end (EXACT) or value (LOWER_BOUND) the true central epsilon is at least.
TRUTH_IDS = (EXACT_BINARY_RR_ID, f"{EXACT_BINARY_RR_ID}.pair")
# Where each truth is computed: the certified worst case costs ~0.1 s up to n = 1e4 but seconds to minutes
# beyond (branch and bound over k); the k = 0 pair (a weaker lower bound, still a lower bound on the truth)
# costs milliseconds up to n = 1e7 and seconds at 1e9. An audit sweeps hundreds of points, so it uses each
# only where it is cheap; beyond 1e7 a call is held to the statement's interval alone.
TRUTH_MAX_N = {EXACT_BINARY_RR_ID: 10**4, f"{EXACT_BINARY_RR_ID}.pair": 10**7}
EXACT_KRR_ID = "exact.shuffled_krr"
# A value within this relative distance of a certificate is the certificate up to float rounding.
CERTIFICATE_SLACK = 1e-9


@dataclass
class Finding:
    """One call and what it means."""

    source: str  # "vector 12", "grid", "edge", "degenerate"
    inputs: dict[str, Any]
    inside: bool  # inside the statement's hypotheses
    verdict: str
    severity: str  # pass | warning | failure
    reason: str
    got: float | None = None
    expected: str | None = None
    interval: list[str] | None = None
    truth: float | None = None
    truth_source: str | None = None
    relative_gap: float | None = None
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = {
            "source": self.source, "inputs": self.inputs, "inside_hypotheses": self.inside, "verdict": self.verdict,
            "severity": self.severity, "reason": self.reason, "got": _json_float(self.got), "expected": self.expected,
            "interval": self.interval, "truth": _json_float(self.truth), "truth_source": self.truth_source,
            "relative_gap": _json_float(self.relative_gap), "seconds": round(self.seconds, 4),
        }
        out.update(self.extra)
        return out


def _json_float(x: float | None) -> float | str | None:
    return x if x is None or math.isfinite(x) else repr(x)


def _registered_ids() -> set[str]:
    return {s.id for s in list_statements()}


def krr_lower_bound_ids() -> list[str]:
    """Registered certified lower bounds on the shuffled epsilon of k-RR (inputs eps0, n, delta, k)."""
    return sorted(
        s.id for s in list_statements()
        if s.direction is Direction.LOWER_BOUND and s.mechanism == "krr" and s.is_amplification_bound and set(s.input_names) == {"eps0", "n", "delta", "k"}
    )


def _covers_binary_rr(statement: Statement, inputs: Mapping[str, Any]) -> bool:
    """Whether the statement's claim includes shuffled binary RR (so its truth bounds the claim)."""
    if not statement.is_amplification_bound or (statement.output is not None and str(statement.output) != "eps"):
        return False
    return statement.mechanism in ("", GENERIC, "binary_rr") or (statement.mechanism == "krr" and inputs.get("k") == 2)


def _amplification_point(inputs: Mapping[str, Any]) -> tuple[float, int, float] | None:
    """(eps0, n, delta) when they are numbers in the range where amplification is meaningful."""
    try:
        eps0, n, delta = float(inputs["eps0"]), float(inputs["n"]), float(inputs["delta"])
    except (KeyError, TypeError, ValueError):
        return None
    if not (math.isfinite(eps0) and math.isfinite(n) and math.isfinite(delta)) or eps0 <= 0 or n < 1 or n != int(n) or not 0 < delta < 1:
        return None
    return eps0, int(n), delta


_TRUTH_CACHE: dict[tuple[int, str, tuple[tuple[str, str], ...]], dict[str, Any] | None] | None = None


@contextmanager
def remembered_truths() -> Iterator[None]:
    """Inside this block `truth_lower_bound` remembers its answers per (statement, inputs): a registry run
    judges the same points for several implementations, and one certified truth costs up to seconds. Off
    outside it (tests swap registries and statements under the same ids)."""
    global _TRUTH_CACHE
    previous, _TRUTH_CACHE = _TRUTH_CACHE, {}
    try:
        yield
    finally:
        _TRUTH_CACHE = previous


def truth_lower_bound(statement: Statement, inputs: Mapping[str, Any]) -> dict[str, Any] | None:
    """`_truth_lower_bound`, remembered inside `remembered_truths()`."""
    if _TRUTH_CACHE is None:
        return _truth_lower_bound(statement, inputs)
    key = (id(statement), statement.id, tuple(sorted((str(k), repr(v)) for k, v in inputs.items())))
    if key not in _TRUTH_CACHE:
        _TRUTH_CACHE[key] = _truth_lower_bound(statement, inputs)
    found = _TRUTH_CACHE[key]
    return None if found is None else dict(found)


def _truth_lower_bound(statement: Statement, inputs: Mapping[str, Any]) -> dict[str, Any] | None:
    """A number the true central epsilon is at least, where the statement's claim covers binary RR:
    the largest lower end among the registered truths (`exact.shuffled_binary_rr`'s certified
    interval; `exact.shuffled_binary_rr.pair`, a lower bound, when registered) valid at the point, or
    exact enumeration of shuffled binary RR for n <= 40; for a k-RR statement at k > 2, the lower end
    of `exact.shuffled_krr` where it computes (small n) and the registered certified lower bounds for k-RR
    (explicit neighbouring pairs: `exact.krr_pair_x0`, `exact.krr_pair_third`). None when none applies."""
    point = _amplification_point(inputs)
    if point is None:
        return None
    eps0, n, delta = point
    candidates: list[tuple[str, dict[str, Any]]] = []
    if _covers_binary_rr(statement, inputs):
        candidates += [
            (truth_id, {"eps0": eps0, "n": n, "delta": delta, **({"k": 0} if truth_id.endswith(".pair") else {})})
            for truth_id in TRUTH_IDS
            if n <= TRUTH_MAX_N[truth_id]
        ]
    elif statement.mechanism == "krr" and isinstance(inputs.get("k"), int) and inputs["k"] >= 2 and statement.is_amplification_bound:
        # A bound for k-RR is held to the exact shuffled k-RR (small n only: it refuses larger ones) and to
        # the registered certified lower bounds for k-RR (explicit neighbouring pairs, any n).
        params = {"eps0": eps0, "n": n, "delta": delta, "k": inputs["k"]}
        candidates.append((EXACT_KRR_ID, params))
        candidates += [(truth_id, params) for truth_id in krr_lower_bound_ids()]
    if not candidates:
        return None
    evaluated: list[Candidate] = []
    registered = _registered_ids()
    for truth_id, params in candidates:
        if truth_id not in registered:
            continue
        truth = get_statement(truth_id)
        try:
            evaluation = evaluate(truth, params)
        except Exception:  # noqa: BLE001 - a truth that cannot be computed here is simply not used
            continue
        evaluated.append((truth_id, truth.direction, evaluation.valid, evaluation.value, evaluation.interval))
    found = best_certified(evaluated, side="lower")
    best: dict[str, Any] | None = None
    if found is not None:
        exact = get_statement(found[1]).direction is Direction.EXACT
        best = {"eps": found[0], "source": f"{found[1]} (lower end)" if exact else found[1]}
    if best is not None or not _covers_binary_rr(statement, inputs):
        return best
    if n <= BINARY_RR_ENUMERATION_MAX_N:
        # Binary RR at a rational e' <= e^eps0 is eps0-LDP, and its shuffled epsilon is at most that at
        # e^eps0 (it is a post-processing of it): a valid lower bound on the truth either way.
        ceiling = Fraction(round_down(math.exp(eps0), 4))
        e_low = ceiling.limit_denominator(10**6)
        while e_low > ceiling:
            e_low -= Fraction(1, 10**6)
        if e_low <= 1:
            return None
        from ...reference.finite.shuffling import exact_shuffled_e_eps

        # Fraction in, Fraction out: the randomizer and delta are exact here.
        ratio = cast(Fraction, exact_shuffled_e_eps(binary_randomized_response(e_low), n, Fraction(delta)))
        eps = 0.0 if ratio <= 1 else round_down(math.log(ratio.numerator) - math.log(ratio.denominator), 16)
        return {"eps": eps, "source": "exact enumeration of shuffled binary RR"}
    return None


def certified_bound(statement: Statement, inputs: Mapping[str, Any]) -> tuple[float, str]:
    """The smallest epsilon anything registered certifies at `inputs` for the statement's class of
    randomizers (a number at or above it claims nothing unproven): 0 at delta >= 1 or eps0 <= 0 (every
    mechanism is (0, 1)-DP; no eps0 < 0 randomizer exists and eps0 = 0 ones are 0-DP); eps0 otherwise
    (shuffling is post-processing), lowered by every registered amplification bound valid at
    (eps0, ceil(n), delta) (a value for a non-integer n is held to the valid claim at ceil(n)); for a composition
    of T rounds (a `rounds` input), T eps0 (basic composition) lowered only by the statement itself at
    (eps0, ceil(n), delta, ceil(T)): the one-round bounds certify one round."""
    try:
        eps0, n, delta = float(inputs["eps0"]), float(inputs["n"]), float(inputs["delta"])
    except (KeyError, TypeError, ValueError):
        return 0.0, "not an amplification point"
    if any(math.isnan(x) for x in (eps0, n, delta)):
        return 0.0, "nan input: nothing is claimed"
    if delta >= 1:
        return 0.0, "delta >= 1: every mechanism is (0, 1)-DP"
    if eps0 <= 0:
        return 0.0, "eps0 <= 0: no such randomizer, or a 0-LDP one (0-DP)"
    k = inputs.get("k")
    if statement.mechanism == "krr" and isinstance(k, (int, float)) and not isinstance(k, bool) and k <= 1:
        # k-RR on one value reports it always (its output does not depend on its input: 0-DP); k < 1: none.
        return 0.0, "k <= 1: a k-RR with one value is 0-DP (or no such randomizer)"
    if delta < 0 or n < 1:
        return eps0, "no statement applies (delta < 0 or n < 1): only eps0 is certified"
    if not math.isfinite(eps0) or not math.isfinite(n):
        return eps0, "infinite input: only eps0 is certified"
    # A non-integer n is no population; a number between the values at floor(n) and ceil(n) claims no
    # more than the valid claim at ceil(n), so ceil(n) is the reference point.
    users = int(math.ceil(n))
    mechanism = statement.mechanism if statement.mechanism and statement.mechanism != GENERIC else GENERIC
    # An integer parameter such as k given as 2.5 is held, like n, to the claim at its ceiling.
    extra = {k: (math.ceil(v) if isinstance(v, float) and math.isfinite(v) and v != int(v) and k == "k" else v) for k, v in inputs.items() if k not in ("eps0", "n", "delta")}
    rounds = _rounds(inputs)
    if rounds is not None:
        # T rounds: basic composition certifies T eps0; the one-round bounds below certify one round only, so only
        # the composition statement itself (at ceil(n)) may certify less.
        best, source = eps0 * rounds, "rounds x eps0 (basic composition)"
        if statement.direction is Direction.UPPER_BOUND:
            try:
                evaluation = evaluate(statement, {**inputs, "n": users, "rounds": rounds})
            except Exception:  # noqa: BLE001 - no certificate beyond T eps0 then
                evaluation = None
            if evaluation is not None and evaluation.valid and evaluation.value is not None and math.isfinite(evaluation.value) and evaluation.value < best:
                best, source = evaluation.value, f"{statement.id} at n = {users}, rounds = {rounds}"
        return best, source
    best, source = eps0, "eps0 (shuffling is post-processing)"
    try:
        rows = evaluate_bounds(eps0, users, delta, mechanism=GENERIC, extra=dict(extra))
        if mechanism != GENERIC:
            rows += evaluate_bounds(eps0, users, delta, mechanism=mechanism, extra=dict(extra))
    except Exception:  # noqa: BLE001 - no certificate beyond eps0 then
        rows = []
    for row in rows:
        if row.valid and row.eps is not None and math.isfinite(row.eps) and row.eps < best and get_statement(row.id).direction is Direction.UPPER_BOUND:
            best, source = row.eps, f"{row.id} at n = {users}"
    return best, source


def judge(
    statement: Statement,
    inputs: Mapping[str, Any],
    outcome: CallOutcome,
    *,
    inside: bool,
    expected: str | None = None,
    interval: list[str] | None = None,
    strict: bool = False,
    source: str = "",
    hypothesis: str = "",
    check_truth: bool = True,
    wide_interval: list[str] | None = None,
) -> Finding:
    """The verdict on one call (see the module docstring). `wide_interval`: the reference's certified interval of the
    statement's value where it is too wide to separate claims (`bound.AuditPoint.wide_interval`): a claim inside
    `interval` is then INCONCLUSIVE, not PASS."""
    base: dict[str, Any] = dict(source=source, inputs=dict(inputs), inside=inside, got=outcome.value, expected=expected, interval=interval, seconds=outcome.seconds)
    if outcome.kind == "timeout":
        return Finding(verdict=TIMEOUT, severity="failure", reason=outcome.text, **base)
    if outcome.kind in ("crash", "exit"):
        return Finding(verdict=CRASH, severity="failure", reason=outcome.text, **base)
    if outcome.kind == "nonnumber":
        return Finding(verdict=NON_NUMBER, severity="failure", reason=outcome.text, **base)
    if outcome.kind not in ("value", "raised"):
        # `sandbox` produces only the kinds above; anything else came from elsewhere and proves nothing.
        return Finding(verdict=CRASH, severity="failure", reason=f"no answer (outcome {outcome.kind!r}): {outcome.text}", **base)
    if outcome.kind == "value" and (isinstance(outcome.value, bool) or not isinstance(outcome.value, (int, float))):
        return Finding(verdict=NON_NUMBER, severity="failure", reason=f"returned {outcome.value!r}"[:300], **base)
    got = outcome.value
    if not inside:
        return _judge_outside(statement, inputs, outcome, strict, hypothesis, check_truth, base)
    refused = outcome.kind == "raised" or (got is not None and math.isnan(got))
    if refused and _no_amplification_claimed(inputs, expected):
        what = outcome.text if outcome.kind == "raised" else "returned nan"
        return Finding(verdict=REJECTS, severity="warning", reason=f"refused inside the hypotheses ({what}) where the theorem itself gives no amplification (expected {expected} >= {'eps0' if _rounds(inputs) is None else 'rounds x eps0'}): nothing is lost", **base)
    if outcome.kind == "raised":
        return Finding(verdict=CRASH, severity="failure", reason=f"raised inside the hypotheses: {outcome.text}", **base)
    if got is None:  # callers pass only answered calls
        raise ValueError("a verdict needs the call's value")
    if math.isnan(got):
        return Finding(verdict=NON_NUMBER, severity="failure", reason="returned nan inside the hypotheses", **base)
    truth = truth_lower_bound(statement, inputs) if check_truth and statement.direction is Direction.UPPER_BOUND else None
    if truth is not None:
        base.update(truth=truth["eps"], truth_source=truth["source"])
    if got < 0:
        return Finding(verdict=UNSOUND, severity="failure", reason=f"negative epsilon {got!r}: no mechanism is better than 0-DP", **base)
    if truth is not None and got < truth["eps"]:
        return Finding(verdict=UNSOUND, severity="failure", reason=f"below a lower bound on the true epsilon ({truth['source']} = {truth['eps']!r})", **base)
    if interval is None:
        # Nothing to separate the claim from a wrong one but the truth (the reference failed here): never a PASS.
        why = f"no expected value here ({hypothesis})" if hypothesis else "no expected value here"
        return Finding(verdict=INCONCLUSIVE, severity="warning", reason=f"{why}; not below the truth, nothing more is checked" if truth else f"{why}: nothing is checked", **base)
    low, high = float(interval[0]), float(interval[1])
    reference = float(expected) if expected is not None else high
    gap = (got - reference) / reference if reference not in (0.0,) else (math.inf if got > 0 else 0.0)
    base["relative_gap"] = gap
    if statement.direction is Direction.LOWER_BOUND:
        # A lower bound's unsafe side is above it: a claim above the interval asserts a larger lower bound than the
        # theorem proves (the true epsilon may lie below it); a claim below is only looser.
        if got > high and got <= high + ROUNDING_TOLERANCE * abs(reference):
            return Finding(verdict=ABOVE_BOUND, severity="warning", reason=f"above the lower bound's interval by {gap:.3g} (relative), within float rounding of a correct formula (< {ROUNDING_TOLERANCE:g}); a lower bound should round down", **base)
        if got > high:
            return Finding(verdict=ABOVE_BOUND, severity="failure", reason=f"above the lower bound's interval by {gap:.3g} (relative): claims a larger lower bound than the theorem proves", **base)
        if got < low:
            return Finding(verdict=BELOW_BOUND, severity="warning", reason=f"below the lower bound's interval by {-gap:.3g} (relative): looser than the theorem, safe", **base)
    if got < low and got >= low - ROUNDING_TOLERANCE * abs(reference):
        return Finding(verdict=BELOW_BOUND_ROUNDING, severity="warning", reason=f"below the statement's interval by {-gap:.3g} (relative), within float rounding of a correct formula (< {ROUNDING_TOLERANCE:g}); an upper bound should round up", **base)
    if got < low:
        return Finding(verdict=BELOW_BOUND, severity="failure", reason=f"below the statement's interval by {-gap:.3g} (relative): claims more privacy than the theorem proves", **base)
    if got > high:
        return Finding(verdict=ABOVE_BOUND, severity="warning", reason=f"above the statement's interval by {gap:.3g} (relative): looser than the theorem, safe", **base)
    if wide_interval is not None:
        return Finding(verdict=INCONCLUSIVE, severity="warning", reason=_unseparated(statement, got, wide_interval), extra={"certified_interval": list(wide_interval)}, **base)
    return Finding(verdict=PASS, severity="pass", reason="", **base)


def _unseparated(statement: Statement, got: float, wide_interval: list[str]) -> str:
    """Why a claim inside the acceptance interval is INCONCLUSIVE where the reference's certified interval [L, H] of
    the statement's value is wider than its tolerance, and how far on the unsafe side of the value it may lie."""
    low, high = float(wide_interval[0]), float(wide_interval[1])
    scale = max((abs(x) for x in (low, high) if math.isfinite(x)), default=0.0)  # an end may be infinite
    width = (high - low) / scale if scale else math.inf
    head = f"the reference certifies the statement's value only in [{low!r}, {high!r}] ({width:.3g} wide, relative), wider than its tolerance {statement.rtol:g}"
    if statement.direction is Direction.UPPER_BOUND:
        if got >= high:
            return f"{head}: not below the value (safe), but whether it is within the tolerance above it cannot be told here"
        return f"{head}: the claim may lie up to {(high - got) / scale:.3g} (relative) below the value, claiming more privacy than the theorem proves; it cannot be told from a correct one here"
    if statement.direction is Direction.LOWER_BOUND:
        if got <= low:
            return f"{head}: not above the value (safe), but whether it is within the tolerance below it cannot be told here"
        return f"{head}: the claim may lie up to {(got - low) / scale:.3g} (relative) above the value, more than the lower bound proves; it cannot be told from a correct one here"
    return f"{head}: the claim may lie up to {max(got - low, high - got) / scale:.3g} (relative) from the value; it cannot be told from a correct one here"


def _rounds(inputs: Mapping[str, Any]) -> int | None:
    """The number of rounds T of a composition's inputs (a non-integer T held, like n, to the claim at its
    ceiling); None for one-round statements (no `rounds` input) or a T that is no number >= 1."""
    rounds = inputs.get("rounds")
    if isinstance(rounds, bool) or not isinstance(rounds, (int, float)) or not (math.isfinite(rounds) and rounds >= 1):
        return None
    return math.ceil(rounds)


def no_amplification_level(inputs: Mapping[str, Any]) -> float:
    """The epsilon that proves no amplification at `inputs`: eps0 for one round (shuffling is post-processing),
    T x eps0 after T rounds (basic composition of T eps0-DP rounds, Dwork-Roth Thm 3.16 at delta = 0); a composed
    value between eps0 and T eps0 is an amplification claim. nan when eps0 is no number."""
    eps0 = inputs.get("eps0")
    if isinstance(eps0, bool) or not isinstance(eps0, (int, float)):
        return math.nan
    rounds = _rounds(inputs)
    return float(eps0) * (1 if rounds is None or float(eps0) <= 0 else rounds)


def _no_amplification_claimed(inputs: Mapping[str, Any], expected: str | None) -> bool:
    """Whether the statement's own value here is at least the no-amplification level (eps0, or T eps0 after T
    rounds: `no_amplification_level`): it proves nothing beyond it."""
    level = no_amplification_level(inputs)
    if expected is None or math.isnan(level):
        return False
    try:
        return float(expected) >= level
    except ValueError:
        return False


def _judge_outside(statement: Statement, inputs: Mapping[str, Any], outcome: CallOutcome, strict: bool, hypothesis: str, check_truth: bool, base: dict[str, Any]) -> Finding:
    outside = f"outside the hypotheses ({hypothesis})" if hypothesis else "outside the hypotheses"
    got = outcome.value
    if outcome.kind == "raised":
        return Finding(verdict=REJECTS, severity="pass", reason=f"refused: {outcome.text}", **base)
    if got is None:  # callers pass only answered calls
        raise ValueError("a verdict needs the call's value")
    if not math.isfinite(got):
        return Finding(verdict=REJECTS, severity="pass", reason=f"returned {got!r} (no claim)", **base)
    eps0_given = inputs.get("eps0")
    eps0_value = float(eps0_given) if isinstance(eps0_given, (int, float)) and not isinstance(eps0_given, bool) else math.nan
    if got < 0:
        if eps0_value < 0 and got >= eps0_value:
            # The rule for negative answers: not below eps0, so it claims nothing about any real randomizer (none is
            # eps0-LDP for eps0 < 0); still shown, since a negative epsilon must never reach an accountant.
            severity = "failure" if strict else "warning"
            return Finding(verdict=ACCEPTS_INVALID, severity=severity, reason=f"negative epsilon {got!r} {outside}: vacuous (no randomizer is eps0-LDP for eps0 < 0), but it would lower a composed budget", **base)
        return Finding(verdict=ACCEPTS_INVALID, severity="failure", reason=f"negative epsilon {got!r} {outside}", **base)
    truth = truth_lower_bound(statement, inputs) if check_truth and statement.direction is Direction.UPPER_BOUND else None
    if truth is not None:
        base.update(truth=truth["eps"], truth_source=truth["source"])
        if got < truth["eps"]:
            return Finding(verdict=UNSOUND, severity="failure", reason=f"{outside} and below a lower bound on the true epsilon ({truth['source']})", **base)
    level = no_amplification_level(inputs)  # eps0, or T eps0 after T rounds
    eps0 = level if not math.isnan(level) else math.inf
    if got >= eps0 or float(inputs.get("delta", 0)) >= 1:
        certificate, why = (0.0, "delta >= 1") if got < eps0 else (eps0, "eps0 (shuffling is post-processing)" if _rounds(inputs) is None else "rounds x eps0 (basic composition)")
    else:
        certificate, why = certified_bound(statement, inputs)
    base["extra"] = {"certified": _json_float(certificate), "certified_by": why}
    if got < certificate * (1 - CERTIFICATE_SLACK):
        return Finding(verdict=ACCEPTS_INVALID, severity="failure", reason=f"{got!r} {outside} claims more than anything registered certifies there ({why}: {certificate!r})", **base)
    severity = "failure" if strict else "warning"
    return Finding(verdict=ACCEPTS_INVALID, severity=severity, reason=f"a number {outside}; harmless: not below {why} = {certificate!r}", **base)


def judge_group(function: Callable[..., Any], statement: Statement, group: Mapping[str, Any], *, strict: bool = True) -> list[Finding]:
    """Every test of a vector group, called in this process (for trusted functions such as the
    project's own reference; `shuffle-spec audit bound` runs untrusted code through `sandbox`)."""
    order = list(group["inputs"])
    findings = []
    for test in group["tests"]:
        outcome = call_in_process(function, test["inputs"], order)
        findings.append(judge(statement, test["inputs"], outcome, inside=test["result"] != "invalid", expected=test.get("expected"), interval=test.get("interval"), strict=strict, source=f"vector {test['tcId']}", hypothesis=test.get("comment", "")))
    return findings
