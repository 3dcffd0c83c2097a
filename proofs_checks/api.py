"""The public Python API of shuffle-spec: one function per `shuffle-spec` command.

    >>> from proofs_checks.api import shuffled_epsilon, calibrate_epsilon0
    >>> shuffled_epsilon("EFMRTT19.Thm7", eps0=0.4, n=10_000, delta=1e-6)   # doctest: +SKIP
    >>> calibrate_epsilon0("EFMRTT19.Thm7", eps=0.2, n=10_000, delta=1e-6).value   # doctest: +SKIP

Every function takes a statement id first and keyword-only parameters after it, named as everywhere
else (`eps0` local epsilon, `eps` / `delta` central, `n` users, `k` domain size). A statement used
outside its hypotheses raises `reference.errors.HypothesisViolation` (a `ValueError`) naming the
failed hypothesis: no function returns a number the statement does not certify.

Inversions (`calibrate_*`, `shuffled_delta` by inversion) go through `reference.inversion`: the
returned point is one at which the bound was evaluated and found within the target, so it is on the
safe side whatever the tolerance; `bracket` is the final bracket, whose other end was evaluated and
found outside the target (or is the edge of the search range).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from shuffle_spec.proofs_checks.bridge import Evaluation, UsageError, evaluate
from shuffle_spec.reference.errors import HypothesisViolation, ParameterError
from shuffle_spec.reference.inversion import largest_argument_within, smallest_argument_within
from shuffle_spec.spec.registry import get_statement
from shuffle_spec.spec.registry import list_statements as _registered
from shuffle_spec.spec.statement import Statement

from shuffle_spec.proofs_checks.tightest import tightest  # noqa: E402  (issue 15: the certified gap)

__all__ = [
    "Calibration",
    "tightest",
    "StatementInfo",
    "audit_randomizer",
    "calibrate_epsilon0",
    "calibrate_n",
    "delta_provider",
    "list_statements",
    "shuffled_delta",
    "shuffled_epsilon",
]

# Search ranges of the inversions. eps0 beyond 100 or n beyond 1e15 is outside every regime the
# papers discuss; the answer then says it hit the edge rather than extrapolating.
EPS0_SEARCH_MAX = 100.0
N_SEARCH_MAX = 10**15
DELTA_SEARCH_MIN = 1e-300
REL_TOL = 1e-9


@dataclass(frozen=True)
class StatementInfo:
    """One registered statement, as `shuffle-spec list --json` prints it."""

    id: str
    kind: str
    title: str
    direction: str
    paper: str
    locator: str
    version: str
    confidence: str
    parameters: tuple[str, ...]
    mechanism: str
    tags: tuple[str, ...]
    reference: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "title": self.title,
            "direction": self.direction,
            "source": {"paper": self.paper, "locator": self.locator, "version": self.version, "confidence": self.confidence},
            "parameters": list(self.parameters),
            "mechanism": self.mechanism,
            "tags": list(self.tags),
            "reference": self.reference,
        }


@dataclass(frozen=True)
class Calibration:
    """The answer of an inversion: `value` is certified (`bound_at_value` is the bound there, within
    the target); the true optimum lies in `bracket` (one end is `value`)."""

    id: str
    target: str
    value: float | int
    bracket: tuple[float | int, float | int]
    bound_at_value: float
    params: dict[str, float | int]
    note: str = ""
    method: str = "bisection (reference.inversion)"
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = {
            "id": self.id,
            "target": self.target,
            "value": self.value,
            "bracket": list(self.bracket),
            "bound_at_value": self.bound_at_value,
            "params": self.params,
            "method": self.method,
            "note": self.note,
        }
        out.update(self.extra)
        return out


def list_statements(*, paper: str | None = None, tag: str | None = None) -> list[StatementInfo]:
    """Every registered statement (optionally of one paper key, or with one tag such as "amplification")."""
    found = []
    for s in _registered():
        if (paper is None or s.paper == paper) and (tag is None or tag in s.tags):
            found.append(
                StatementInfo(
                    s.id, s.kind.value, s.title, s.direction.value, s.source.paper, s.source.locator, s.source.version,
                    s.source.confidence, s.input_names, s.mechanism or "", tuple(sorted(s.tags)), s.reference,
                )
            )
    return found


def _statement(statement_id: str | Statement) -> Statement:
    return statement_id if isinstance(statement_id, Statement) else get_statement(statement_id)


def _require_value(evaluation: Evaluation, statement: Statement, params: Mapping[str, object]) -> float:
    if not evaluation.valid or evaluation.value is None:
        # The reason reads "<id>: hypothesis <h> fails for ..."; keep only <h> for the new message.
        match = re.search(r"hypothesis (.*) fails for", evaluation.reason)
        raise HypothesisViolation(statement.id, match.group(1) if match else evaluation.reason, dict(params))
    return evaluation.value


def _evaluate(statement: Statement, params: Mapping[str, object]) -> float:
    try:
        evaluation = evaluate(statement, params)
    except UsageError as failure:
        raise ParameterError("parameters", dict(params), str(failure)) from None
    return _require_value(evaluation, statement, params)


def shuffled_epsilon(statement_id: str | Statement, *, eps0: float, n: int, delta: float, **params: float) -> float:
    """The central epsilon the amplification bound `statement_id` gives at (eps0, n, delta) (+ mechanism
    parameters such as k): an upper bound also in floating point (`shuffle-spec eval`)."""
    statement = _statement(statement_id)
    return _evaluate(statement, {"eps0": eps0, "n": n, "delta": delta, **params})


def delta_provider(statement_id: str | Statement) -> Statement | None:
    """The statement giving delta(eps) directly for the bound `statement_id`, if one is registered.

    Convention: a statement whose output is `delta`, whose inputs contain `eps`, and which is either
    the bound itself or registered as `<id>.delta` or tagged `delta_of:<id>`.
    """
    statement = _statement(statement_id)

    def gives_delta(s: Statement) -> bool:
        return s.output is not None and str(s.output) == "delta" and "eps" in s.input_names

    if gives_delta(statement):
        return statement
    for s in _registered():
        if gives_delta(s) and (s.id == f"{statement.id}.delta" or f"delta_of:{statement.id}" in s.tags):
            return s
    return None


class _Recorder:
    """Wraps a bound for bisection: +inf where it certifies nothing; remembers every evaluation so
    the final bracket can be reported from points actually evaluated."""

    def __init__(self, function: Callable[[float], float], target: float):
        self.function = function
        self.target = target
        self.cache: dict[float, float] = {}

    def __call__(self, x: float) -> float:
        if x not in self.cache:
            try:
                self.cache[x] = self.function(x)
            except ValueError:  # outside the hypotheses: nothing certified there
                self.cache[x] = math.inf
        return self.cache[x]

    def nearest_failing(self, x: float, *, above: bool) -> float | None:
        """The evaluated point nearest to x on one side where the bound exceeded the target."""
        side = [p for p, v in self.cache.items() if not v <= self.target and (p > x if above else p < x)]
        if not side:
            return None
        return min(side) if above else max(side)


def calibrate_epsilon0(statement_id: str | Statement, *, eps: float, n: int, delta: float, **params: float) -> Calibration:
    """The largest local eps0 whose bound on the central epsilon is at most `eps` (for bounds
    non-decreasing in eps0). The returned eps0 is verified: the bound evaluated there is <= eps."""
    statement = _statement(statement_id)
    _positive("eps", eps)
    recorder = _Recorder(lambda e0: shuffled_epsilon(statement, eps0=e0, n=n, delta=delta, **params), eps)
    lo, hi = _initial_bracket_increasing(recorder, start=min(eps, 1.0), name="eps0")
    note = ""
    if hi is None:
        value = EPS0_SEARCH_MAX
        note = f"the bound stays <= eps up to eps0 = {EPS0_SEARCH_MAX:g}, the edge of the search range"
    else:
        value = largest_argument_within(recorder, eps, lo, hi, name="eps0", rel_tol=REL_TOL)
    failing = recorder.nearest_failing(value, above=True)
    upper_end = failing if failing is not None else EPS0_SEARCH_MAX
    return Calibration(statement.id, "eps0", value, (value, upper_end), recorder(value), {"eps": eps, "n": n, "delta": delta, **params}, note)


def calibrate_n(statement_id: str | Statement, *, eps: float, eps0: float, delta: float, **params: float) -> Calibration:
    """The smallest number of users n whose bound on the central epsilon is at most `eps` (for bounds
    non-increasing in n). The returned n is verified: the bound evaluated there is <= eps."""
    statement = _statement(statement_id)
    _positive("eps", eps)
    recorder = _Recorder(lambda x: shuffled_epsilon(statement, eps0=eps0, n=math.ceil(x), delta=delta, **params), eps)
    if not recorder(float(N_SEARCH_MAX)) <= eps:
        raise ParameterError("eps", eps, f"a target the bound reaches for some n <= {N_SEARCH_MAX:.0e} (at n = {N_SEARCH_MAX:.0e} it gives {recorder(float(N_SEARCH_MAX))})")
    hi = 1.0
    while not recorder(hi) <= eps:  # doubling keeps the bisection bracket tight and cheap
        hi *= 2
    lo = max(1.0, hi / 2)
    # Bisection over reals with f(x) = bound(ceil(x)); widths below 1 are integers already decided.
    x = smallest_argument_within(recorder, eps, lo, hi, name="n", rel_tol=0.5 / hi) if lo < hi else hi
    value = math.ceil(x)
    below = recorder.nearest_failing(x, above=False)
    failing = math.ceil(below) if below is not None else 0
    note = "" if failing else "the bound is within the target already at n = 1"
    return Calibration(statement.id, "n", value, (failing, value), recorder(float(value)), {"eps": eps, "eps0": eps0, "delta": delta, **params}, note)


def shuffled_delta(statement_id: str | Statement, *, eps: float, eps0: float, n: int, **params: float) -> Calibration:
    """The delta for which `statement_id` certifies (eps, delta)-DP at (eps0, n): read from a statement
    giving delta(eps) where one is registered (`delta_provider`), otherwise the smallest delta whose
    bound on epsilon is at most `eps`, found by a verified bisection on log10(delta)."""
    statement = _statement(statement_id)
    _positive("eps", eps)
    provider = delta_provider(statement)
    base = {"eps": eps, "eps0": eps0, "n": n, **params}
    if provider is not None:
        value = _evaluate(provider, {k: v for k, v in base.items() if k in provider.input_names})
        return Calibration(statement.id, "delta", value, (value, value), eps, base, method=f"direct ({provider.id})")
    used: dict[float, float] = {}

    def bound_at(log10_delta: float) -> float:
        d = 10.0**log10_delta
        used[log10_delta] = d
        return shuffled_epsilon(statement, eps0=eps0, n=n, delta=d, **params)

    recorder = _Recorder(bound_at, eps)
    lo = math.log10(DELTA_SEARCH_MIN)
    hi = _largest_valid_log10_delta(recorder, lo)
    if recorder(lo) <= eps:
        x = lo
    elif hi is None or not recorder(hi) <= eps:
        largest = "none" if hi is None else f"{used[hi]!r}, where the bound is {recorder(hi)!r}"
        raise ParameterError("eps", eps, f"a target the bound reaches for some delta its hypotheses allow (largest such delta found: {largest})")
    else:
        x = smallest_argument_within(recorder, eps, lo, hi, name="delta", rel_tol=1e-12)
    value = used[x]
    below = recorder.nearest_failing(x, above=False)
    failing = used[below] if below is not None else 0.0
    return Calibration(statement.id, "delta", value, (failing, value), recorder(x), base, method="bisection on log10(delta) (reference.inversion)")


def audit_randomizer(
    matrix: Sequence[Sequence[object]] | Mapping[str, Any],
    *,
    n: int | None = None,
    delta: float | None = None,
    removal_reference: Sequence[object] | None = None,
) -> "Any":
    """Audit a finite randomizer given as a row-stochastic matrix (rows inputs, columns outputs;
    decimals or "p/q" strings) or as the JSON object of `shuffle-spec audit randomizer`: replacement
    and removal LDP epsilon, blanket gamma and distribution, and (with n and delta) every applicable
    shuffled bound plus the exact central epsilon when n is small. Returns a `RandomizerAudit`."""
    from shuffle_spec.proofs_checks.audit import audit_matrix

    return audit_matrix(matrix, n=n, delta=delta, removal_reference=removal_reference)


def _positive(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise ParameterError(name, value, f"a finite {name} > 0")


def _largest_valid_log10_delta(f: _Recorder, lo: float) -> float | None:
    """The largest log10(delta) < 0 found where the bound holds at all (hypotheses such as
    delta < 1/100 make it +inf above some delta): a step down by decades, then bisection on validity."""
    top = math.nextafter(0.0, -math.inf)  # delta < 1
    if math.isfinite(f(top)):
        return top
    invalid = top
    valid = None
    x = math.floor(top)
    while x >= lo:
        if math.isfinite(f(x)):
            valid = x
            break
        invalid, x = x, x - 1
    if valid is None:
        return None
    for _ in range(60):
        mid = valid + (invalid - valid) / 2
        if math.isfinite(f(mid)):
            valid = mid
        else:
            invalid = mid
    return valid


def _initial_bracket_increasing(f: Callable[[float], float], *, start: float, name: str) -> tuple[float, float | None]:
    """[lo, hi] with f(lo) <= target < f(hi) for f non-decreasing, searching by halving and doubling;
    hi is None when f stays within the target up to the edge of the search range."""
    target = f.target  # type: ignore[attr-defined]
    x = start
    if f(x) <= target:
        lo = x
        while lo < EPS0_SEARCH_MAX:
            nxt = min(lo * 2, EPS0_SEARCH_MAX)
            if not f(nxt) <= target:
                return lo, nxt
            lo = nxt
        return lo, None
    hi = x
    for _ in range(200):
        x /= 2
        if f(x) <= target:
            return x, hi
        hi = x
    raise ParameterError(name, x, f"a value whose bound is at most {target}; none found down to {name} = {x:g}")
