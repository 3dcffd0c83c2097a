"""The gap between the tightest certified upper bound and the largest certified lower bound on the central
epsilon of a shuffled randomizer: `tightest(...)`, used by `shuffle-spec tightest` and the gap
lines of `bounds`, `compare` and `calibrate --randomizer`.

Upper bounds: every registered amplification statement with direction upper_bound that applies to the
randomizer (generic ones and those of its mechanism), valid at the point; the reported eps is each one's
value (the upper end of its certified interval); statements in NOT_FULLY_PROVEN (a step only checked
numerically) are left out. Lower bounds: the registered statements with direction
lower_bound for the mechanism (k-RR: exact.krr_pair_third, exact.krr_pair_x0); each contributes the LOWER end
of its certified interval. ratio = upper / lower (>= 1 whenever both are sound).

k = 2 (binary RR, = k-RR with k = 2): exact.shuffled_binary_rr is the CERTIFIED worst case over every
neighbouring pair (direction exact): an interval [lower, upper] of relative width <= 1e-6 (or the
wider one stated in its note when its work budget widened it) that contains the true eps. It is evaluated
once and competes on BOTH sides: its lower end as a lower bound, its upper end as an upper bound, so the
ratio there is at most 1 / (1 - the stated width). Where it refuses (outside its range or work budget), both
of its rows say why and the gap is the one of the other bounds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from .results import BracketFields

from .amplification import EXACT_BINARY_RR_ID, GENERIC, amplification_statements
from ..proofs_checks.bridge import BadParameter, Evaluation, evaluate
from .mechanisms import MECHANISMS, describe
from .certified import Candidate, best_certified, certified_end
from ..spec.catalog import Entry, all_statements, resolve  # no SymPy when the catalog applies
from ..spec.terms import Direction

if TYPE_CHECKING:  # the SymPy statement type, for the annotation only
    from ..spec.statement import Statement

__all__ = ["Gap", "NOT_FULLY_PROVEN", "RANDOMIZERS", "tightest", "candidate_upper_bounds", "gap_from_rows"]

RANDOMIZERS = tuple(MECHANISMS)  # the registry of interface/mechanisms.py
# Upper bounds whose certificate rests on a step that is only checked numerically, not proven: they stay
# registered (eval, bounds, compare show them) but are never chosen as "the tightest certified" bound, so the
# gap and `calibrate --randomizer` rely on proven bounds only (soundness first).
NOT_FULLY_PROVEN: dict[str, str] = {}


@dataclass(frozen=True)
class Gap(BracketFields):
    """The tightest certified upper bound and the largest certified lower bound at one point."""

    randomizer: str
    params: dict
    upper_id: str | None
    upper_eps: float | None
    lower_id: str | None
    lower_eps: float | None
    rows: list = field(default_factory=list)

    @property
    def ratio(self) -> float | None:
        if self.upper_eps is None or self.lower_eps is None or not self.lower_eps > 0:
            return None
        return self.upper_eps / self.lower_eps

    def to_json(self) -> dict:
        return {
            "randomizer": self.randomizer,
            "params": self.params,
            "upper": None if self.upper_id is None else {"id": self.upper_id, "eps": self.upper_eps},
            "lower": None if self.lower_id is None else {"id": self.lower_id, "eps": self.lower_eps},
            "ratio": self.ratio,
            "bounds": self.rows,
        }

    def line(self) -> str:
        """One line for the text output of bounds / compare / tightest."""
        up = "none valid" if self.upper_id is None else f"{self.upper_eps:.6g} ({self.upper_id})"
        low = "none valid" if self.lower_id is None else f"{self.lower_eps:.6g} ({self.lower_id})"
        ratio = "-" if self.ratio is None else format_ratio(self.ratio)
        return f"gap: tightest certified upper {up}, largest certified lower {low}, ratio {ratio}"


def format_ratio(ratio: float) -> str:
    """4 decimals, or `1 + 9.0e-07` when that would print 1.0000 for a ratio above 1 (k = 2: the exact
    interval's width), so the line still says how far apart the two ends are."""
    return f"1 + {ratio - 1:.1e}" if 1 < ratio < 1.00005 else f"{ratio:.4f}"


def _mechanism(randomizer: str, k: int | None) -> tuple[str, dict]:
    """(mechanism, its extra parameters) from the front door's registry (`interface/mechanisms.py`). Errors name the
    Python parameter (`randomizer`, `k`), never a flag: the command line shows them as they are (its parameters
    have the same names)."""
    mechanism, extra = describe(randomizer, {} if k is None else {"k": k})
    if mechanism == "matrix":  # a matrix has its own gap (`tightest_randomizer`, `interface/randomizer_gap.py`)
        raise BadParameter("randomizer", "matrix", "a named randomizer here (a matrix: tightest_randomizer / certify)")
    return mechanism, extra


def candidate_upper_bounds(randomizer: str, k: int | None = None) -> list:
    """The registered upper bounds that apply to the randomizer (generic + its mechanism; k = 2 also binary RR).
    `calibrate --randomizer` inverts each of them. exact.shuffled_binary_rr (direction exact) is not among them
    on purpose: its upper end is certified, but one evaluation costs 0.1 s to tens of seconds (its deterministic
    work budget; more at n >= 1e6 and under load) and an inversion needs 20-40 evaluations or more, so for k = 2
    calibrate it explicitly (`calibrate exact.shuffled_binary_rr --eps E --n N --delta D`); `tightest` and the
    gap lines use it (one evaluation, module doc)."""
    mechanism, extra = _mechanism(randomizer, k)
    mechanisms = {mechanism} | ({"binary_rr", "krr"} if extra.get("k") == 2 else set())
    found = {}
    for m in mechanisms:
        for statement in amplification_statements(m):
            if statement.direction is Direction.UPPER_BOUND and statement.id not in found and statement.id not in NOT_FULLY_PROVEN:
                found[statement.id] = statement
    return list(found.values())


def _exact_statement() -> Entry | Statement:
    """exact.shuffled_binary_rr from the catalog: evaluating it needs neither SymPy nor the registry, whose first
    build takes seconds to a minute (the exact statements' symbolic forms)."""
    return resolve(EXACT_BINARY_RR_ID)


def _lower_statements(mechanism: str, k: int | None) -> list:
    if mechanism == GENERIC:
        # Binary RR is an eps0-LDP randomizer, so its certified worst case is a lower bound on the worst case over
        # every eps0-LDP randomizer (what a generic bound bounds): a mechanism-specific lower bound, used for its
        # lower end only (its upper end bounds binary RR alone).
        return [_exact_statement()]
    out = [s for s in amplification_statements(mechanism) if s.direction is Direction.LOWER_BOUND and s.mechanism == mechanism]
    if k == 2:
        out.append(_exact_statement())
    return out


def _exact_k2(params: dict, evaluated: Evaluation | None = None) -> tuple[Candidate, str]:
    """exact.shuffled_binary_rr evaluated ONCE at the point (eps0, n, delta): the candidate (direction exact,
    both ends certified) and the refusal reason ("" when valid). `evaluated`: the caller's own evaluation of it
    at the same point (`bounds` and `compare` show it too; one evaluation costs seconds at large n), used as is."""
    point = {name: params[name] for name in ("eps0", "n", "delta")}
    if evaluated is None:
        result = evaluate(_exact_statement(), point)
    else:
        if not (evaluated.id == EXACT_BINARY_RR_ID and evaluated.params == point):
            from ..proofs_checks.framework import CheckFailed  # imports SymPy: only on this failure

            raise CheckFailed(f"the evaluation passed in is {evaluated.id} at {evaluated.params}, not {EXACT_BINARY_RR_ID} at {point}")
        result = evaluated
    return (EXACT_BINARY_RR_ID, Direction.EXACT, result.valid, result.value, result.interval), result.reason


def _exact_rows(candidate: Candidate, reason: str, *, include_upper: bool) -> list[dict]:
    """The exact statement's rows in the gap's table: one per side it certifies (same evaluation)."""
    statement_id, direction, valid, value, interval = candidate
    sides: tuple[Literal["lower", "upper"], ...] = ("lower", "upper") if include_upper else ("lower",)
    return [
        {"id": statement_id, "direction": f"{side}_bound", "eps": certified_end(direction, side=side, valid=valid, value=value, interval=interval),
         "valid": valid, "reason": reason, "interval": None if interval is None else list(interval)}
        for side in sides
    ]


def tightest(*, randomizer: str = "krr", eps0: float, n: int, delta: float, k: int | None = None, include_upper: bool = True,
             exact_evaluation: Evaluation | None = None, include_lower: bool = True) -> Gap:
    """The tightest certified upper bound and the largest certified lower bound on the central eps of n
    shuffled eps0-LDP reports of `randomizer` ("krr" with domain size k >= 2, "binary_rr", or "laplace": the
    Laplace mechanism on [0, 1], no k) at delta, and
    their ratio (module doc; for k = 2 exact.shuffled_binary_rr takes part on both sides). Refuses
    (UsageError) an unknown randomizer or a bad k; a point outside every statement's range gives None for
    that side. Each row: {"id", "direction" (the side it certifies), "eps" (that side's certified end),
    "valid", "reason", "interval" (the certified interval, or None)}. `exact_evaluation`: the caller's
    evaluation of exact.shuffled_binary_rr at this (eps0, n, delta), used instead of evaluating it again.
    `include_lower=False`: the upper rows only (a caller that has its own lower bounds skips the lower statements'
    evaluation, e.g. exact.shuffled_binary_rr for the generic randomizer, seconds at large n)."""
    mechanism, extra = _mechanism(randomizer, k)
    params = {"eps0": eps0, "n": n, "delta": delta, **extra}
    # Generic: the exact binary-RR worst case is a lower bound only (its upper end holds for binary RR alone).
    exact_upper = include_upper and mechanism != GENERIC
    rows = []
    evaluated: list[Candidate] = []
    uppers = candidate_upper_bounds(randomizer, k) if include_upper else []
    for statement in uppers + (_lower_statements(mechanism, extra.get("k")) if include_lower else []):
        inputs = {name: params[name] for name in statement.input_names if name in params}
        if set(inputs) != set(statement.input_names):
            continue
        if statement.direction is Direction.EXACT:  # k = 2: the certified worst case, both ends
            candidate, reason = _exact_k2(params, exact_evaluation)
            evaluated.append(candidate if exact_upper else candidate[:1] + (Direction.LOWER_BOUND,) + candidate[2:])
            rows.extend(_exact_rows(candidate, reason, include_upper=exact_upper))
            continue
        result = evaluate(statement, inputs)
        is_lower = statement.direction is not Direction.UPPER_BOUND
        # Certified at this delta only: an epsilon that holds at a larger delta' is no bound here.
        valid = result.holds_at_requested_delta
        evaluated.append((statement.id, statement.direction, valid, result.value, result.interval))
        eps = certified_end(statement.direction, side="lower" if is_lower else "upper", valid=valid, value=result.value, interval=result.interval)
        rows.append({"id": statement.id, "direction": "lower_bound" if is_lower else "upper_bound", "eps": eps, "valid": valid,
                     "reason": result.reason, "interval": None if result.interval is None else list(result.interval)})
    best_up = best_certified([c for c in evaluated if c[1] is not Direction.LOWER_BOUND], side="upper")
    best_low = best_certified(evaluated, side="lower")
    return Gap(
        randomizer,
        params,
        None if best_up is None else best_up[1],
        None if best_up is None else best_up[0],
        None if best_low is None else best_low[1],
        None if best_low is None else best_low[0],
        rows,
    )


def gap_from_rows(randomizer: str, params: dict, rows: list, *, exact_evaluation: Evaluation | None = None) -> Gap:
    """The gap from already evaluated `BoundRow`s (the `bounds` command's rows at one point): upper bounds give
    their value, lower bounds the lower end of their interval; for k = 2 exact.shuffled_binary_rr is
    evaluated here once (or `exact_evaluation`, the caller's evaluation of it at this point, is used) and
    competes on both sides (module doc)."""
    evaluated: list[Candidate] = [(row.id, resolve(row.id).direction, row.valid, row.eps, row.interval) for row in rows if row.id not in NOT_FULLY_PROVEN]
    # Only upper bounds (and the exact worst case) on the upper side; only lower bounds (and it) on the lower.
    uppers = [c for c in evaluated if c[1] is Direction.UPPER_BOUND]
    lowers = [c for c in evaluated if c[1] is Direction.LOWER_BOUND]
    if params.get("k") == 2 and any(s.id == EXACT_BINARY_RR_ID for s in all_statements()):
        candidate, _ = _exact_k2(params, exact_evaluation)
        uppers.append(candidate)
        lowers.append(candidate)
    best_up = best_certified(uppers, side="upper")
    best_low = best_certified(lowers, side="lower")
    return Gap(
        randomizer, params,
        None if best_up is None else best_up[1], None if best_up is None else best_up[0],
        None if best_low is None else best_low[1], None if best_low is None else best_low[0],
    )
