"""The gap for a finite randomizer given as a matrix: the tightest certified upper bound and the largest
certified lower bound on its shuffled central epsilon, and their ratio (`audit randomizer`,
`shuffle_spec.tightest_randomizer`).

Upper bounds: BBGN19.Lem5.3.exact_randomizer (its value, the upper end of its certified interval) and every
registered amplification bound that applies at the randomizer's eps0 (generic ones, and those of its
mechanism when the matrix is k-RR), as `audit randomizer` evaluates them. Lower bounds: exact.randomizer_pair
(the LOWER end of its certified interval), the lower-bound statements of the recognised mechanism (lower ends),
and the exact central epsilon when `audit randomizer` enumerated it (rounded down). ratio = upper / lower.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..reference.bounds.blanket_exact_randomizer import exact_blanket_randomizer_epsilon, finite_randomizer
from ..reference.core.rounding import round_down
from ..reference.lower_bounds.randomizer import best_randomizer_pair
from ..spec.registry import get_statement
from ..spec.terms import Direction
from .results import BracketFields
from .audit.sandbox import InProcessTimeout, in_process_time_limit

__all__ = ["LOWER_ID", "UPPER_ID", "RandomizerGap", "randomizer_gap"]

UPPER_ID = "BBGN19.Lem5.3.exact_randomizer"
LOWER_ID = "exact.randomizer_pair"

# Seconds allowed to each of the two computations in an audit (like the registered exact statements).
SECONDS = 60


@dataclass(frozen=True)
class RandomizerGap(BracketFields):
    """The tightest certified upper bound and the largest certified lower bound for a matrix at (n, delta)."""

    n: int
    delta: float
    eps0: float
    upper_id: str | None = None
    upper_eps: float | None = None
    lower_id: str | None = None
    lower_eps: float | None = None
    pair: dict | None = None
    rows: list[dict] = field(default_factory=list)

    @property
    def ratio(self) -> float | None:
        if self.upper_eps is None or self.lower_eps is None or not self.lower_eps > 0:
            return None
        return self.upper_eps / self.lower_eps

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "delta": self.delta,
            "eps0": self.eps0,
            "upper": None if self.upper_id is None else {"id": self.upper_id, "eps": self.upper_eps},
            "lower": None if self.lower_id is None else {"id": self.lower_id, "eps": self.lower_eps},
            "ratio": self.ratio,
            "pair": self.pair,
            "bounds": self.rows,
            "neighbouring": self.neighbouring,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "RandomizerGap":
        upper, lower = data.get("upper"), data.get("lower")
        return cls(
            data["n"], data["delta"], data["eps0"],
            None if upper is None else upper["id"], None if upper is None else upper["eps"],
            None if lower is None else lower["id"], None if lower is None else lower["eps"],
            data.get("pair"), list(data.get("bounds", [])),
        )

    def line(self) -> str:
        up = "none valid" if self.upper_id is None else f"{self.upper_eps:.6g} ({self.upper_id})"
        low = "none valid" if self.lower_id is None else f"{self.lower_eps:.6g} ({self.lower_id})"
        ratio = "-" if self.ratio is None else f"{self.ratio:.4f}"
        return f"gap: tightest certified upper {up}, largest certified lower {low}, ratio {ratio}"


def _timed(function: Any, **kwargs: Any) -> tuple[Any, str, float]:
    start = time.perf_counter()
    try:
        with in_process_time_limit(SECONDS):
            return function(**kwargs), "", time.perf_counter() - start
    except InProcessTimeout:
        return None, f"not computed: over {SECONDS} s", time.perf_counter() - start
    except ValueError as failure:  # ParameterError / HypothesisViolation: outside the supported range
        return None, str(failure), time.perf_counter() - start


def randomizer_gap(
    matrix: object, *, n: int, delta: float, bound_rows: Sequence[dict] = (), exact: dict | None = None, eps0: float | None = None
) -> RandomizerGap:
    """The gap for the finite randomizer `matrix` at (n, delta) (module doc). `bound_rows`: the registered
    bounds already evaluated at its eps0 (`BoundRow.to_json()` dicts, as `audit randomizer` has them);
    `exact`: the enumerated exact central eps ({"eps": ...}) when known. For a matrix
    outside the supported range of the two statements (module doc of reference.bounds.blanket_exact_randomizer):
    then only the registered rows count (the two rows say why)."""
    refused = ""
    try:
        randomizer = finite_randomizer(matrix)
    except ValueError as failure:  # outside the matrix range of the two statements: the registered rows only
        randomizer, refused = None, str(failure)
    gap = RandomizerGap(int(n), float(delta), (randomizer.eps0 if randomizer is not None else math.nan) if eps0 is None else eps0)
    best_up: tuple[float, str] | None = None
    best_low: tuple[float, str] | None = None

    def offer(eps: float | None, statement_id: str, lower: bool) -> None:
        nonlocal best_up, best_low
        if eps is None or not math.isfinite(eps):
            return
        if lower and (best_low is None or eps > best_low[0]):
            best_low = (eps, statement_id)
        if not lower and (best_up is None or eps < best_up[0]):
            best_up = (eps, statement_id)

    if randomizer is None:
        for statement_id, direction in ((UPPER_ID, "upper_bound"), (LOWER_ID, "lower_bound")):
            gap.rows.append({"id": statement_id, "direction": direction, "eps": None, "interval": None, "valid": False, "reason": refused, "seconds": 0.0})
        return _registered(gap, bound_rows, exact, offer, lambda: (best_up, best_low))
    found, reason, seconds = _timed(best_randomizer_pair, matrix=randomizer, n=n, delta=delta)
    value, choice = (None, None) if found is None else found
    lower_row = ({"id": LOWER_ID, "direction": "lower_bound", "eps": None if value is None else value.value,
                     "interval": None if value is None else [value.lower, value.upper], "valid": value is not None,
                     "reason": reason, "seconds": round(seconds, 3)})
    if choice is not None:
        gap = replace(gap, pair={**choice.to_json(), "description": choice.describe()})
    offer(None if value is None else value.value, LOWER_ID, True)
    # The pair first: a little above its eps is where the upper bound's root search starts (verified there).
    hint = 1.25 * value.lower if value is not None and value.lower > 0 else None
    upper, reason, seconds = _timed(exact_blanket_randomizer_epsilon, matrix=randomizer, n=n, delta=delta, hint=hint)
    gap.rows.append({"id": UPPER_ID, "direction": "upper_bound", "eps": None if upper is None else upper.value,
                     "interval": None if upper is None else [upper.lower, upper.upper], "valid": upper is not None,
                     "reason": reason or (upper.note if upper is not None else ""), "seconds": round(seconds, 3)})
    offer(None if upper is None else upper.value, UPPER_ID, False)
    gap.rows.append(lower_row)
    return _registered(gap, bound_rows, exact, offer, lambda: (best_up, best_low))


def _registered(gap: RandomizerGap, bound_rows: Sequence[dict], exact: dict | None, offer: Any, best: Any) -> RandomizerGap:
    """Offer the registered rows and the enumerated exact value, then record the best of each side."""
    for row in bound_rows:
        if not row.get("valid") or row.get("eps") is None:
            continue
        try:
            direction = get_statement(row["id"]).direction
        except KeyError:
            continue
        if direction is Direction.UPPER_BOUND:
            offer(float(row["eps"]), row["id"], False)
        elif direction is Direction.LOWER_BOUND:
            interval = row.get("interval")
            offer(float(interval[0]) if interval else float(row["eps"]), row["id"], True)
    if exact is not None and exact.get("eps") is not None and math.isfinite(exact["eps"]):
        if exact.get("interval"):  # a registered certified exact statement (exact.shuffled_binary_rr): both ends
            offer(float(exact["interval"][0]), exact.get("id", "exact"), True)
            offer(float(exact["interval"][1]), exact.get("id", "exact"), False)
        else:
            offer(round_down(float(exact["eps"]), 15), "exact (enumeration)", True)
    best_up, best_low = best()
    if best_up is not None:
        gap = replace(gap, upper_eps=best_up[0], upper_id=best_up[1])
    if best_low is not None:
        gap = replace(gap, lower_eps=best_low[0], lower_id=best_low[1])
    return gap
