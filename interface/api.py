"""The public Python API of shuffle-spec: one function per `shuffle-spec` command.

    >>> import shuffle_spec
    >>> shuffle_spec.shuffled_epsilon("EFMRTT19.Thm7", eps0=0.4, n=10_000, delta=1e-6)   # doctest: +SKIP
    >>> shuffle_spec.calibrate_epsilon0("EFMRTT19.Thm7", eps=0.2, n=10_000, delta=1e-6).value   # doctest: +SKIP
    >>> bound = shuffle_spec.ShuffleBound("FMT21.clones_numeric", eps0=1.0, n=10_000)   # doctest: +SKIP
    >>> bound.get_epsilon(1e-6), bound.get_delta(0.1), bound.interval(1e-6)   # doctest: +SKIP

Every function takes a statement id first and keyword-only parameters after it, named as everywhere
else (`eps0` local epsilon, `eps` / `delta` central, `n` users, `k` domain size). A statement used
outside its hypotheses raises `HypothesisViolation` (a `ValueError`; fields `statement_id`,
`hypothesis` (its short name), `values`), a parameter outside its range `ParameterError` (fields
`statement_id`, `name`, `value`, `allowed`): no function returns a number the statement does not certify.
Statements are resolved through the catalog (`shuffle_spec.spec.catalog`), so a call on a closed form
needs neither SymPy nor the registry.

Inversions (`calibrate_*`, `shuffled_delta` by inversion) go through `shuffle_spec.reference.numerics.inversion`: the
returned point is one at which the bound was evaluated and found within the target, so it is on the
safe side whatever the tolerance; `bracket` is the final bracket, whose other end was evaluated and
found outside the target (or is the edge of the search range). The target eps may be 0. Each inversion has
an overall time budget (`time_budget=`, seconds, default INVERSION_TIME_BUDGET = 60, at most
INVERSION_TIME_BUDGET_MAX = 1e6; None: no limit): when
it runs out, the best verified point found so far is returned with `stopped_early` and a note (the optimum
lies in `bracket`), or `InversionTimeout` is raised when no point was verified yet.
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
import warnings
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, Union, cast

from ..proofs_checks.bridge import BadParameter, Evaluation, UsageError, evaluate, parse_number, require_supported, supported_point
from ..spec.catalog import Entry, all_statements, resolve
from .limits import EPS0_MAX, INVERSION_TIME_BUDGET, INVERSION_TIME_BUDGET_MAX, N_MAX, TimeLimitExceeded, budget_exceeded_message, time_limit
from .parameter_names import ParameterNameError, check_parameter_names
from .entry_points import entry_point
from .results import DeltaInterval, EpsilonBound, Neighbouring, ResultDirection, join_reasons, neighbouring_of, recorded_neighbouring, result_direction, width_note
from ..reference.core.errors import HypothesisViolation, ParameterError, require_flag
from ..reference.numerics.inversion import largest_argument_within, smallest_argument_within
from ..spec.terms import Direction, HypothesisError

if TYPE_CHECKING:  # SymPy is loaded only when a statement is not in the catalog
    from ..spec.statement import Statement

from .mechanisms import KRR, BinaryRR, FiniteMatrix, Generic, Laplace

if TYPE_CHECKING:
    from .audit.randomizer import RandomizerAudit
    from .randomizer_gap import RandomizerGap
    from .tightest import Gap

# Result types whose modules load the SymPy registry or the audit: loaded on first use (PEP 562). The front door
# `certify` (`interface/certify.py`) is built on the functions here and imports this module, not the reverse.
_LAZY_TYPES = {"Gap": ".tightest", "RandomizerGap": ".randomizer_gap", "RandomizerAudit": ".audit.randomizer"}


def __getattr__(name: str) -> Any:
    if name in _LAZY_TYPES:
        import importlib

        return getattr(importlib.import_module(_LAZY_TYPES[name], __package__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@entry_point
def tightest(
    *, randomizer: str = "krr", eps0: float, n: int, delta: float, k: int | None = None, include_upper: bool = True,
    time_budget: float | None = None,
) -> Gap:
    """The tightest certified upper bound, the largest certified lower bound on the central epsilon of n
    shuffled eps0-LDP reports of `randomizer` ("krr" with domain size k, "binary_rr", "laplace" on [0, 1], or
    "generic": any eps0-LDP randomizer, whose lower bound is binary RR's certified worst case) at delta, and their
    ratio (`interface/tightest.py`); the structured randomizers (rappor, oue, blh, olh, hadamard, subset, duchi,
    piecewise) are refused here, naming `certify`, which computes them; a `Gap` with the result fields (`value` the upper bound, `interval`,
    `direction`, `statement_id`, `reason`, `neighbouring`). One round; `certify` is the front door that also
    composes rounds. Loaded on first use: it needs the SymPy registry, which a closed-form call must not pay for.
    Ranges as `shuffle-spec tightest` checks them (`bridge.supported_point`): 0 < eps0 <= EPS0_MAX, n an integer in
    [1, N_MAX], DELTA_MIN <= delta < 1, k an integer >= 2, `include_upper` True or False, `time_budget` None (no
    limit, the default) or seconds in (0, INVERSION_TIME_BUDGET_MAX], and None outside the main thread (SIGALRM
    enforces it); a value outside them raises `ParameterError` naming it (never a gap with no side valid). A
    computation still running when its time budget runs out raises `TimeLimitExceeded` (most points take well under
    a second; k = 3 at n = 1e12 takes tens of seconds)."""
    from .mechanisms import STRUCTURED
    from .tightest import tightest as compute_tightest

    if randomizer in STRUCTURED:  # its statements (and its domain size d) are certify's: the generic rows alone here would mislead
        raise ParameterError("randomizer", randomizer, f"krr, binary_rr, laplace or generic here; {randomizer} through certify(\"{randomizer}\", eps0=..., n=..., delta=...{', d=...' if randomizer not in ('duchi', 'piecewise') else ''}) (as shuffle-spec tightest --randomizer {randomizer} does)")
    point = supported_point(eps0, n, delta)
    require_flag("include_upper", include_upper)
    budget = _check_budget(time_budget)
    if budget is not None and threading.current_thread() is not threading.main_thread():  # it could not be enforced
        raise ParameterError("time_budget", time_budget, "None outside the main thread (the budget is enforced by SIGALRM, which only the main thread receives): call tightest from the main thread, or without a budget")
    arguments: dict[str, Any] = dict(randomizer=randomizer, eps0=float(point["eps0"]), n=int(point["n"]), delta=float(point["delta"]), k=k,
                                     include_upper=include_upper)
    if budget is None:
        return compute_tightest(**arguments)
    try:
        with time_limit(budget):
            return compute_tightest(**arguments)
    except TimeLimitExceeded:
        raise TimeLimitExceeded(budget_exceeded_message("tightest", budget)) from None

__all__ = [
    "BinaryRR",
    "DeltaInterval",
    "EpsilonBound",
    "FiniteMatrix",
    "Gap",
    "Generic",
    "KRR",
    "Laplace",
    "ParameterNameError",
    "RandomizerAudit",
    "RandomizerGap",
    "tightest_randomizer",
    "Calibration",
    "INVERSION_TIME_BUDGET",
    "InversionTimeout",
    "HypothesisViolation",
    "ParameterError",
    "ShuffleBound",
    "tightest",
    "StatementInfo",
    "audit_randomizer",
    "calibrate_epsilon0",
    "calibrate_n",
    "Composition",
    "composed_delta",
    "composed_epsilon",
    "delta_provider",
    "list_statements",
    "shuffled_delta",
    "shuffled_epsilon",
    # "tightest",  # RESERVED: shuffle_spec.tightest(eps0=, n=, delta=, randomizer=), the certified gap at the face
]

# A statement as the API takes it: its id, a SymPy `Statement`, or a catalog `Entry`.
StatementLike = Union[str, "Statement", Entry]

# Search ranges of the inversions. eps0 beyond 100 or n beyond 1e15 is outside every regime the
# papers discuss; the answer then says it hit the edge rather than extrapolating.
EPS0_SEARCH_MAX = min(100.0, EPS0_MAX)
N_SEARCH_MAX = N_MAX  # the supported range (shuffle_spec.interface.limits)
DELTA_SEARCH_MIN = 1e-300
REL_TOL = 1e-9
# shuffled_delta narrows log10(delta) to this relative width (delta itself to about 1e-9 relative).
REL_TOL_LOG_DELTA = 1e-12
# Every inversion stops after INVERSION_TIME_BUDGET seconds by default (`time_budget=`, `--time-budget`;
# `interface/limits.py`, at most INVERSION_TIME_BUDGET_MAX): it then returns the best certified answer found, marked
# `stopped_early`, or raises InversionTimeout when it has none.


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
    method: str = "bisection (ITP steps, shuffle_spec.reference.numerics.inversion)"
    extra: dict[str, Any] = field(default_factory=dict)
    # True when the time budget ran out first: `value` is certified, the optimum lies in `bracket`.
    stopped_early: bool = False

    # The result fields (`interface/results.py`), from the attributes above.
    @property
    def statement_id(self) -> str:
        return self.id

    @property
    def interval(self) -> tuple[float, float]:
        """The bracket, ordered: the optimum of the inversion lies in it."""
        low, high = self.bracket
        return (float(min(low, high)), float(max(low, high)))

    @property
    def direction(self) -> ResultDirection:
        """"lower" for eps0 (`value` is at most the largest eps0 the statement certifies), "upper" for n and delta
        (`value` is at least the smallest one)."""
        return "lower" if self.target == "eps0" else "upper"

    @property
    def reason(self) -> str:
        return join_reasons(self.note, width_note(*self.interval, what="bracket of the optimum"))

    @property
    def neighbouring(self) -> Neighbouring:
        return neighbouring_of(self.id)

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
            "stopped_early": self.stopped_early,
            "neighbouring": recorded_neighbouring(self.id),
        }
        out.update(self.extra)
        return out


def list_statements(*, paper: str | None = None, tag: str | None = None) -> list[StatementInfo]:
    """Every registered statement (optionally of one paper key, or with one tag such as "amplification")."""
    found = []
    for s in all_statements():
        if (paper is None or s.paper == paper) and (tag is None or tag in s.tags):
            found.append(
                StatementInfo(
                    s.id, s.kind.value, s.title, s.direction.value, s.source.paper, s.source.locator, s.source.version,
                    s.source.confidence, s.input_names, s.mechanism or "", tuple(sorted(s.tags)), s.reference,
                )
            )
    return found


def _statement(statement_id: StatementLike) -> Statement | Entry:
    """The fast catalog entry for an id (the SymPy statement when the catalog does not apply)."""
    return resolve(statement_id) if isinstance(statement_id, str) else statement_id


def refusal(evaluation: Evaluation, statement: Statement | Entry, params: Mapping[str, object]) -> ValueError:
    """The typed error for a refused evaluation, built from the refusal's own fields (never parsed
    from its message): `HypothesisViolation` (statement, hypothesis, values) for a failed hypothesis
    on either side, `ParameterError` (name, value, allowed) for a parameter outside its range; both
    carry `statement_id`."""
    error = evaluation.error
    typed: ValueError
    if isinstance(error, HypothesisError):
        typed = HypothesisViolation(statement.id, error.hypothesis, error.values)
    elif isinstance(error, (HypothesisViolation, ParameterError)):
        typed = error
    else:  # a reference refusing with a plain ValueError: its message is the hypothesis it names
        typed = HypothesisViolation(statement.id, evaluation.reason or str(error), dict(params))
    typed.statement_id = statement.id  # type: ignore[union-attr]
    return typed


class AtLargerDelta(HypothesisViolation):
    """The statement's value holds only at a delta' above the requested delta (FMT21 Prop 2.2 with delta0 > 0):
    a function returning a bare epsilon refuses it (`ShuffleBound.evaluation` gives the pair, `shuffled_delta`
    the total delta')."""


def _require_value(evaluation: Evaluation, statement: Statement | Entry, params: Mapping[str, object]) -> float:
    if not evaluation.valid or evaluation.value is None:
        raise refusal(evaluation, statement, params)
    if not evaluation.holds_at_requested_delta:
        mark = getattr(statement, "effective_delta", None)
        formula = mark.formula if mark is not None else "its effective delta"
        raise AtLargerDelta(
            statement.id,
            f"delta' <= delta (its epsilon {evaluation.value!r} holds at {formula} = {evaluation.delta_effective!r}, above the requested "
            f"delta = {params.get('delta')!r}; ShuffleBound(...).evaluation(delta) gives the pair, shuffled_delta / get_delta the total delta')",
            dict(params),
        )
    return evaluation.value


def _evaluation(statement: Statement | Entry, params: Mapping[str, object], *, with_effective_delta: bool = True) -> Evaluation:
    for name, value in params.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise ParameterError(name, value, f"a finite number {name}", statement_id=statement.id)
    try:
        return evaluate(statement, params) if with_effective_delta else evaluate(statement, params, with_effective_delta=False)
    except BadParameter as failure:  # names the parameter already; say which statement it was for
        if failure.statement_id is None:
            failure.statement_id = statement.id
        raise
    except UsageError as failure:
        raise ParameterError("parameters", dict(params), str(failure), statement_id=statement.id) from None


def _evaluate(statement: Statement | Entry, params: Mapping[str, object]) -> float:
    return _require_value(_evaluation(statement, params), statement, params)


@entry_point
def shuffled_epsilon(statement_id: StatementLike, *, eps0: float, n: int, delta: float, **params: float) -> EpsilonBound:
    """The central epsilon the amplification bound `statement_id` gives at (eps0, n, delta) (+ mechanism
    parameters such as k; `rounds` for a compose.<pair> statement): an upper bound also in floating point
    (`shuffle-spec eval`); for a lower-bound statement the lower end of its certified interval. Returns an
    `EpsilonBound`: the float as before, carrying `interval`, `direction`, `statement_id`, `reason` and
    `neighbouring` (`interface/results.py`). Ranges: eps0 > 0 finite, n an integer >= 1, 0 < delta < 1, and the
    statement's hypotheses (`HypothesisViolation` outside them, `ParameterError` outside a range,
    `ParameterNameError` for a missing or stray parameter)."""
    statement = _statement(statement_id)
    _check_names(statement, ("eps0", "n", "delta", *params), params)
    params_all = {"eps0": eps0, "n": n, "delta": delta, **params}
    evaluation = _evaluation(statement, params_all)
    value = _require_value(evaluation, statement, params_all)
    interval = evaluation.interval if evaluation.interval is not None else (value, value)
    direction = result_direction(statement.direction.value)
    try:
        relation = neighbouring_of(statement.id)
    except ParameterError:  # a statement object of a family not recorded (a test's own): the project's relation
        relation = "replace-one"
    return EpsilonBound(value, interval=interval, direction=direction, statement_id=statement.id,
                        reason=join_reasons(evaluation.reason if evaluation.valid else "", width_note(*interval)), neighbouring=relation)


def _check_names(statement: Statement | Entry, given: Sequence[str], values: Mapping[str, object], searched: str | None = None, caller: str = "") -> None:
    """The call's parameter names against the statement's inputs, before any value is looked at
    (`interface/parameter_names.py`): a missing or stray name is named as such, never blamed on a range."""
    note = f"; {caller} searches {searched}" if searched else ""
    for name in ("eps0", "n", "delta"):  # given explicitly (or searched): once more among the statement's extras is a mistake
        if name in values:
            where = f"{caller} searches {name}" if name == searched else "it is given at the call" if name == "delta" else f"{name} is a parameter of its own"
            raise ParameterNameError(name, values[name], statement.input_names, missing=False, owner=statement.id, statement_id=statement.id, note=f"; {where}")
    check_parameter_names(statement.id, statement.input_names, given, values=dict(values), statement_id=statement.id, extra_note=note)


def delta_provider(statement_id: StatementLike) -> Statement | Entry | None:
    """The statement giving delta(eps) directly for the bound `statement_id`, if one is registered.

    Convention: a statement whose output is `delta`, whose inputs contain `eps`, and which is either
    the bound itself or registered as `<id>.delta` or tagged `delta_of:<id>`.
    """
    statement = _statement(statement_id)

    def gives_delta(s: Statement | Entry) -> bool:
        return s.output is not None and str(s.output) == "delta" and "eps" in s.input_names

    if gives_delta(statement):
        return statement
    for s in all_statements():
        if gives_delta(s) and (s.id == f"{statement.id}.delta" or f"delta_of:{statement.id}" in s.tags):
            return s
    return None


class _BudgetSpent(Exception):
    """Raised by `_Recorder` when an inversion's time budget is spent before a new evaluation."""


class _Recorder:
    """Wraps a bound for an inversion: +inf where it certifies nothing; remembers every evaluation so that
    the final bracket (and, when the time budget runs out, the best verified point) is reported from points
    actually evaluated; refuses to start a new evaluation once `deadline` (time.monotonic()) has passed; keeps
    the first refusal because the value holds only at a larger delta' (`AtLargerDelta`), so that a search that
    finds nothing says why."""

    def __init__(self, function: Callable[[float], float], target: float, deadline: float | None = None, *, searched: str = ""):
        self.function = function
        self.target = target
        self.deadline = deadline
        self.searched = searched
        self.cache: dict[float, float] = {}
        self.at_larger_delta: AtLargerDelta | None = None
        # The first refusal of the searched parameter's own value (the statement's range ends there).
        self.out_of_range: ParameterError | None = None

    def __call__(self, x: float) -> float:
        if x not in self.cache:
            if self.deadline is not None and time.monotonic() >= self.deadline:
                raise _BudgetSpent
            try:
                self.cache[x] = self.function(x)
            except AtLargerDelta as failure:  # certified only at a larger delta': nothing at the requested one
                self.at_larger_delta = self.at_larger_delta or failure  # the first (at the search's start) says it best
                self.cache[x] = math.inf
            except ParameterNameError:  # the call is wrong, not the point (checked first; kept as a guard)
                raise
            except ParameterError as failure:
                if failure.name == "parameters":  # the call is wrong (bridge usage error), not the point
                    raise
                if failure.name == self.searched:  # the statement's range of the searched parameter ends here
                    self.out_of_range = self.out_of_range or failure
                self.cache[x] = math.inf  # outside a range that depends on the point: nothing certified here
            except HypothesisViolation:  # outside the hypotheses: nothing certified there
                self.cache[x] = math.inf
        return self.cache[x]

    def explain(self, failure: ParameterError) -> ValueError:
        """The error to raise when the search found nothing: the delta' refusal when there was one."""
        return self.at_larger_delta if self.at_larger_delta is not None else failure

    def verified(self) -> list[float]:
        """The evaluated points where the bound was found within the target (the safe side)."""
        return [p for p, v in self.cache.items() if v <= self.target]

    def nearest_failing(self, x: float, *, above: bool) -> float | None:
        """The evaluated point nearest to x on one side where the bound exceeded the target."""
        side = [p for p, v in self.cache.items() if not v <= self.target and (p > x if above else p < x)]
        if not side:
            return None
        return min(side) if above else max(side)


class InversionTimeout(TimeLimitExceeded):
    """An inversion (`calibrate_*`, `shuffled_delta`, `ShuffleBound.get_delta`) ran out of its time budget.

    Fields: `statement_id`, `target` ("eps0", "n" or "delta"), `budget` (seconds) and `calibration`: the best
    certified answer found before it stopped (a `Calibration` with `stopped_early`), or None when no point
    had been verified yet. `shuffled_delta` and the `calibrate_*` functions return that answer rather than
    raise when there is one; `ShuffleBound.get_delta`, whose float cannot carry the note, raises."""

    def __init__(self, statement_id: str, target: str, budget: float, calibration: "Calibration | None" = None):
        self.statement_id = statement_id
        self.target = target
        self.budget = budget
        self.calibration = calibration
        if calibration is None:
            message = f"{statement_id}: the inversion for {target} ran out of its time budget ({budget:g} s) before any point was certified; allow more time (time_budget / --time-budget)"
        else:
            low, high = calibration.bracket
            message = (
                f"{statement_id}: the inversion for {target} stopped at its time budget ({budget:g} s): {target} = {calibration.value!r} is certified, "
                f"the optimum lies in [{min(low, high)!r}, {max(low, high)!r}]"
            )
        super().__init__(message)


def _stopped_note(budget: float) -> str:
    return f"stopped early: the time budget of {budget:g} s ran out; the value is certified (evaluated within the target) and the optimum lies in the bracket"


def _check_budget(time_budget: float | None) -> float | None:
    """None (no limit) or a number of seconds in (0, INVERSION_TIME_BUDGET_MAX] (parsed as every number:
    `parse_number`)."""
    if time_budget is None:
        return None
    value = _as_float("time_budget", parse_number("time_budget", time_budget))
    if not (0 < value <= INVERSION_TIME_BUDGET_MAX):
        raise ParameterError("time_budget", time_budget, f"a number of seconds in (0, {INVERSION_TIME_BUDGET_MAX:g}] (or None: no limit)")
    return value


def _require_certifying(statement: Statement | Entry) -> None:
    """Refuse to invert a lower bound: its value is at most the true epsilon, so where it meets a target the truth
    may be larger, and the eps0, n or delta found certifies nothing (an upper bound's or an exact value's does)."""
    if statement.direction is Direction.LOWER_BOUND:
        raise ParameterError(
            "statement_id", statement.id,
            "an upper bound or an exact statement: this one is a lower bound on the true epsilon, and inverting it certifies no eps0, n or delta",
            statement_id=statement.id,
        )


@entry_point
def calibrate_epsilon0(statement_id: StatementLike, *, eps: float, n: int, delta: float, time_budget: float | None = INVERSION_TIME_BUDGET, **params: float) -> Calibration:
    """The largest local eps0 whose bound on the central epsilon is at most `eps` (eps >= 0; for bounds
    non-decreasing in eps0). The returned eps0 is verified: the bound evaluated there is <= eps.
    `time_budget` (seconds, default INVERSION_TIME_BUDGET; None: no limit): when it runs out, the largest
    verified eps0 so far is returned with `stopped_early` and a note (InversionTimeout if there is none)."""
    statement = _statement(statement_id)
    _check_names(statement, ("eps0", "n", "delta", *params), params, "eps0", "calibrate_epsilon0")
    _require_certifying(statement)
    eps = _nonnegative("eps", eps)
    fixed = _fixed(n=n, delta=delta)
    n, delta = int(fixed["n"]), float(fixed["delta"])
    budget = _check_budget(time_budget)
    given = {"eps": eps, "n": n, "delta": delta, **params}
    recorder = _Recorder(lambda e0: shuffled_epsilon(statement, eps0=e0, n=n, delta=delta, **params), eps, searched="eps0")
    note = ""

    def search() -> float:
        nonlocal note
        try:
            lo, hi = _initial_bracket_increasing(recorder, start=min(eps, 1.0) if eps > 0 else 1.0, name="eps0")
        except ParameterError as failure:
            raise recorder.explain(failure) from None
        if hi is None:
            note = f"the bound stays <= eps up to eps0 = {EPS0_SEARCH_MAX:g}, the edge of the search range"
            return EPS0_SEARCH_MAX
        return largest_argument_within(recorder, eps, lo, hi, name="eps0", rel_tol=REL_TOL, interpolate=True)

    stopped = _run_within_budget(search, recorder, budget)
    good = recorder.verified()
    if stopped and not good:
        raise InversionTimeout(statement.id, "eps0", cast(float, budget))
    value = max(good)  # the best verified point: a numeric bound is monotone only to its own tolerance
    failing = recorder.nearest_failing(value, above=True)
    upper_end = failing if failing is not None else EPS0_SEARCH_MAX
    if stopped:
        return Calibration(statement.id, "eps0", value, (value, upper_end), recorder.cache[value], given, _stopped_note(cast(float, budget)), stopped_early=True)
    return Calibration(statement.id, "eps0", value, (value, upper_end), recorder.cache[value], given, note)


@entry_point
def calibrate_n(statement_id: StatementLike, *, eps: float, eps0: float, delta: float, time_budget: float | None = INVERSION_TIME_BUDGET, **params: float) -> Calibration:
    """The smallest number of users n whose bound on the central epsilon is at most `eps` (eps >= 0; for
    bounds non-increasing in n). The returned n is verified: the bound evaluated there is <= eps. The search
    doubles n from 1 (never evaluating far beyond the answer: the work of several bounds grows with n), then
    narrows the last doubling. `time_budget` as in `calibrate_epsilon0` (the smallest verified n so far)."""
    statement = _statement(statement_id)
    _check_names(statement, ("eps0", "n", "delta", *params), params, "n", "calibrate_n")
    _require_certifying(statement)
    eps = _nonnegative("eps", eps)
    fixed = _fixed(eps0=eps0, delta=delta)
    eps0, delta = float(fixed["eps0"]), float(fixed["delta"])
    budget = _check_budget(time_budget)
    given = {"eps": eps, "eps0": eps0, "delta": delta, **params}
    recorder = _Recorder(lambda x: shuffled_epsilon(statement, eps0=eps0, n=math.ceil(x), delta=delta, **params), eps, searched="n")

    def search() -> float:
        hi = 1.0
        while not recorder(hi) <= eps:  # doubling keeps the bracket tight and the evaluations cheap
            if recorder.out_of_range is not None:  # the statement's own range of n ends below hi: say so, not "inf"
                tried = [p for p, v in recorder.cache.items() if math.isfinite(v)]
                last = f"; at n = {math.ceil(max(tried))}, the largest n tried within it, it gives {recorder.cache[max(tried)]!r}" if tried else ""
                raise recorder.explain(ParameterError(
                    "eps", eps, f"a target {statement.id} reaches within its range of n ({recorder.out_of_range.allowed}; it refuses n = {math.ceil(hi)}{last})",
                    statement_id=statement.id))
            if hi >= N_SEARCH_MAX:
                raise recorder.explain(ParameterError("eps", eps, f"a target the bound reaches for some n <= {N_SEARCH_MAX:.0e} (at n = {N_SEARCH_MAX:.0e} it gives {recorder(float(N_SEARCH_MAX))})"))
            hi = min(hi * 2, float(N_SEARCH_MAX))
        lo = max(1.0, hi / 2)
        # Over reals with f(x) = bound(ceil(x)); widths below 1 are integers already decided.
        return smallest_argument_within(recorder, eps, lo, hi, name="n", rel_tol=0.5 / hi, interpolate=True) if lo < hi else hi

    stopped = _run_within_budget(search, recorder, budget)
    good = recorder.verified()
    if stopped and not good:
        raise InversionTimeout(statement.id, "n", cast(float, budget))
    x = min(good)  # the best verified point (see calibrate_epsilon0)
    value = math.ceil(x)
    below = recorder.nearest_failing(x, above=False)
    failing = math.ceil(below) if below is not None else 0
    if stopped:
        return Calibration(statement.id, "n", value, (failing, value), recorder.cache[x], given, _stopped_note(cast(float, budget)), stopped_early=True)
    note = "" if failing else "the bound is within the target already at n = 1"
    return Calibration(statement.id, "n", value, (failing, value), recorder.cache[x], given, note)


@entry_point
def shuffled_delta(statement_id: StatementLike, *, eps: float, eps0: float, n: int, time_budget: float | None = INVERSION_TIME_BUDGET, **params: float) -> Calibration:
    """The delta for which `statement_id` certifies (eps, delta)-DP at (eps0, n), eps >= 0: read from a
    statement giving delta(eps) where one is registered (`delta_provider`), otherwise the smallest delta whose
    bound on epsilon is at most `eps`, found by a verified search on log10(delta): from delta just below 1
    downwards in growing steps to a point outside the target, then ITP steps (`shuffle_spec.reference.numerics.inversion`) to
    relative width 1e-12 of log10(delta) (delta to ~1e-9 relative). eps = 0 is answered where the bound
    certifies (0, delta)-DP for some delta, refused (ParameterError naming eps) where it never reaches 0.
    `time_budget` as in `calibrate_epsilon0` (the smallest verified delta so far).

    Round trip: for a bound monotone in delta (closed forms, mpmath bisections), get_delta(get_epsilon(d))
    <= d up to the search's tolerance (~1e-9 relative). A numeric bound whose own solver has a tolerance is
    monotone in delta only up to it (BBGN19.Lem5.3.exact_krr: 3e-4 in eps, up to ~1% in delta; the clone
    bounds: 1e-7 in eps, ~1e-8 in delta), and so is the round trip; the returned delta is verified either way."""
    statement = _statement(statement_id)
    _check_names(statement, ("eps0", "n", "delta", *params), params, "delta", "shuffled_delta")
    _require_certifying(statement)
    eps = _nonnegative("eps", eps)
    fixed = _fixed(eps0=eps0, n=n)
    eps0, n = float(fixed["eps0"]), int(fixed["n"])
    budget = _check_budget(time_budget)
    base = {"eps": eps, "eps0": eps0, "n": n, **params}
    if statement.id.startswith("compose."):  # the composed PLD gives delta(eps) directly, certified (no search)
        return _composed_delta_calibration(statement.id, eps=eps, eps0=eps0, n=n, rounds=params["rounds"], base=base, k=params.get("k"), budget=budget)
    mark = getattr(statement, "effective_delta", None)
    if mark is not None:
        return _total_delta(statement, mark, eps, eps0, n, params, base, budget)
    provider = delta_provider(statement)
    if provider is not None:
        value = _evaluate(provider, {k: v for k, v in base.items() if k in provider.input_names})
        return Calibration(statement.id, "delta", value, (value, value), eps, base, method=f"direct ({provider.id})")
    used: dict[float, float] = {}

    def bound_at(log10_delta: float) -> float:
        d = 10.0**log10_delta
        used[log10_delta] = d
        return shuffled_epsilon(statement, eps0=eps0, n=n, delta=d, **params)

    method = "bisection (ITP steps) on log10(delta) (shuffle_spec.reference.numerics.inversion)"
    recorder = _Recorder(bound_at, eps, searched="delta")
    stopped = _run_within_budget(lambda: _smallest_log10_delta(recorder, used, eps), recorder, budget)
    good = recorder.verified()
    if stopped and not good:
        raise InversionTimeout(statement.id, "delta", cast(float, budget))
    x = min(good)  # the best verified point (see calibrate_epsilon0)
    below = recorder.nearest_failing(x, above=False)
    bracket = (used[below] if below is not None else 0.0, used[x])
    if stopped:
        return Calibration(statement.id, "delta", used[x], bracket, recorder.cache[x], base, _stopped_note(cast(float, budget)), method, stopped_early=True)
    return Calibration(statement.id, "delta", used[x], bracket, recorder.cache[x], base, method=method)


def _composed_delta_calibration(statement_id: str, *, eps: float, eps0: float, n: int, rounds: object, base: dict[str, Any], k: object = None,
                                budget: float | None = None) -> Calibration:
    """`shuffled_delta` of a compose.<pair> statement: the certified delta(eps) of the composed privacy-loss
    distribution (`reference.composition.shuffled_rounds.composed_delta`: its upper end is from the pessimistic
    discretisation, an upper bound on the pair's composed delta(eps)), read directly instead of inverting eps(delta)
    by bisection (one PLD composition instead of tens; where its certified delta is below 1e-10, a few more,
    recomposed for smaller targets and tilted: `reference.composition.solve.small_delta`, certified down to ~1e-300
    instead of the untilted round-off floor ~1e-13). `bracket` is that [lower, upper]: the pair's exact composed
    delta(eps) lies in it, and `value` is its upper end. k: compose.krr's number of categories; budget: seconds for
    the whole call, as `composed_delta`'s time_budget (None: no limit); a first composition that does not finish
    within it raises InversionTimeout, as every inversion that has no certified point when its budget runs out."""
    try:
        lower, upper = composed_delta(statement_id, rounds=cast(int, rounds), eps0=eps0, n=n, eps=eps, k=cast("int | None", k), time_budget=budget)
    except TimeLimitExceeded:
        raise InversionTimeout(statement_id, "delta", cast(float, budget)) from None
    if not upper < 1:
        raise ParameterError("eps", eps, f"a target {statement_id} certifies with some delta < 1 (its certified delta(eps) is {upper!r})", statement_id=statement_id)
    method = "direct: certified delta(eps) of the composed privacy-loss distribution (shuffle_spec.reference.composition.shuffled_rounds.composed_delta)"
    return Calibration(statement_id, "delta", float(upper), (float(lower), float(upper)), eps, base, method=method)


def _run_within_budget(search: Callable[[], object], recorder: _Recorder, budget: float | None) -> bool:
    """Run an inversion's search within `budget` seconds; True when it stopped early (the recorder refused a
    new evaluation after the deadline, or the time limit interrupted one). Handled outside the time limit, so
    a late alarm cannot fire while the answer is assembled from the recorder's verified points."""
    try:
        if budget is None:
            search()
        else:
            # The deadline (time.monotonic()) is checked between evaluations; in the main thread a SIGALRM limit also
            # interrupts an evaluation still running at it (`limits.time_limit`). The limit is entered here, not in a
            # generator around it: an expiry landing between such a generator's yield and its caller's block escaped
            # the limit as TimeLimitInterrupt and left its handler installed.
            recorder.deadline = time.monotonic() + budget
            with time_limit(budget):
                search()
    except (_BudgetSpent, TimeLimitExceeded):
        return True
    finally:
        recorder.deadline = None
    return False


def _smallest_log10_delta(f: _Recorder, used: dict[float, float], eps: float) -> float:
    """The smallest x = log10(delta) in [log10(DELTA_SEARCH_MIN), 0) with f(x) <= eps (to REL_TOL_LOG_DELTA
    relative), f non-increasing where the bound holds (+inf where its hypotheses fail, e.g. delta < 1/100).

    From the largest delta below 1 downwards: first the largest valid x (a step down by decades while the
    bound certifies nothing, then, only if the first valid decade is already outside the target, bisection on
    validity between it and the invalid decade above); then steps down from the verified point, doubling
    (1, 2, 4, ... decades), to a point outside the target (or the edge 1e-300); then ITP steps. Small deltas,
    where the numeric bounds are slowest, are evaluated only as far as the answer needs."""
    lo = math.log10(DELTA_SEARCH_MIN)
    top = math.log10(math.nextafter(1.0, 0.0))  # the largest delta < 1 (10 ** top < 1)
    while not 10.0**top < 1.0:
        top = math.nextafter(top, -math.inf)
    good: float | None = None
    if math.isfinite(f(top)):
        valid = top
    else:
        invalid, valid_or_none = top, None
        x = -1.0
        while x >= lo:
            if math.isfinite(f(x)):
                valid_or_none = x
                break
            invalid, x = x, x - 1
        if valid_or_none is None:
            raise ParameterError("eps", eps, "a target the bound reaches for some delta its hypotheses allow (none of delta = 10^-1, ..., 1e-300 is allowed)")
        valid = valid_or_none
        if not f(valid) <= eps:
            # The answer may lie between this decade and the edge of validity above it.
            for _ in range(60):
                mid = valid + (invalid - valid) / 2
                if not valid < mid < invalid:
                    break
                if math.isfinite(f(mid)):
                    valid = mid
                else:
                    invalid = mid
    if not f(valid) <= eps:
        raise ParameterError("eps", eps, f"a target the bound reaches for some delta its hypotheses allow (largest such delta found: {used[valid]!r}, where the bound is {f(valid)!r})")
    good = valid
    step = 1.0
    bad: float | None = None
    while bad is None:
        x = max(good - step, lo)
        if f(x) <= eps:
            good = x
            if x <= lo:
                return lo
            step *= 2
        else:
            bad = x
    return smallest_argument_within(f, eps, bad, good, name="delta", rel_tol=REL_TOL_LOG_DELTA, interpolate=True)


GOLDEN_STEPS = 80  # golden-section steps on log10(input delta): the interval shrinks by 0.618^80 ~ 2e-17


def _total_delta(statement: Statement | Entry, mark: Any, eps: float, eps0: float, n: int, params: Mapping[str, float], base: dict, budget: float | None) -> Calibration:
    """`shuffled_delta` for a statement whose epsilon holds at a delta' other than its input delta (FMT21 Prop
    2.2: delta' = delta + (e^eps + 1) c n delta0): the smallest TOTAL delta' found at which the target eps is
    certified, never the input delta.

    The input deltas whose epsilon is <= eps are found by the verified search on log10(delta) of any bound
    (`_smallest_log10_delta`); delta'(input) is then minimised over them by a golden-section search on
    log10(input delta) (for Prop 2.2 delta' = d + A (e^{eps(d)} + 1) is unimodal in d; every candidate is
    evaluated, its epsilon checked <= eps and its delta' computed by the provider, so the answer is certified
    whatever the shape). The bracket's lower end is the largest input delta found failing the target: every
    certified total is above it (delta' >= its input delta, checked in proofs_checks/papers/fmt21.py). Refused
    (`HypothesisViolation`) when the statement gives no provider or when the smallest total found is >= 1:
    nothing is certified then. Within `budget` seconds: when it runs out, the smallest certified total so far
    is returned with `stopped_early` (InversionTimeout when there is none)."""
    values = dict(base)
    if not mark.provider:
        raise HypothesisViolation(statement.id, f"its epsilon holds at {mark.formula}, which cannot be computed from the inputs: no delta is certified", values)
    provider = _statement(mark.provider)
    used: dict[float, float] = {}

    def point(log10_delta: float) -> dict[str, float | int]:
        used[log10_delta] = 10.0**log10_delta
        return {"eps0": eps0, "n": n, "delta": used[log10_delta], **params}

    def eps_at(log10_delta: float) -> float:
        inputs = point(log10_delta)
        return _require_value(_evaluation(statement, inputs, with_effective_delta=False), statement, inputs)

    recorder = _Recorder(eps_at, eps, searched="delta")
    totals: dict[float, float] = {}

    def total(x: float) -> float:
        if x not in totals:
            totals[x] = math.inf
            if recorder(x) <= eps:  # the target eps is certified at this input delta
                inputs = point(x)
                # A provider that refuses this point (ValueError) certifies no total delta there: it stays inf.
                with contextlib.suppress(ValueError):
                    totals[x] = _evaluate(provider, {name: inputs[name] for name in provider.input_names})
        return totals[x]

    def search() -> None:
        first = _smallest_log10_delta(recorder, used, eps)
        hi = max(recorder.verified())  # the search starts at the largest valid input delta, verified
        a, b = first, hi
        ratio = (math.sqrt(5) - 1) / 2
        c, d = b - ratio * (b - a), a + ratio * (b - a)
        total(a), total(b)
        for _ in range(GOLDEN_STEPS):
            if total(c) <= total(d):
                b, d = d, c
                c = b - ratio * (b - a)
            else:
                a, c = c, d
                d = a + ratio * (b - a)

    stopped = _run_within_budget(search, recorder, budget)
    finite = {x: t for x, t in totals.items() if math.isfinite(t)}
    if stopped and not finite:
        raise InversionTimeout(statement.id, "delta", cast(float, budget))
    if not finite:
        raise ParameterError("eps", eps, "a target the bound reaches for some delta its hypotheses allow")
    best = min(finite, key=lambda x: (finite[x], x))
    if not finite[best] < 1:
        raise HypothesisViolation(
            statement.id,
            f"delta' < 1 (the smallest total delta' found at which it certifies eps = {eps!r} is {finite[best]!r}, by {provider.id}: "
            f"{mark.formula}; nothing is certified)",
            values,
        )
    below = recorder.nearest_failing(best, above=False)
    return Calibration(
        statement.id, "delta", finite[best], (used[below] if below is not None else 0.0, finite[best]), recorder.cache[best], base,
        note=(_stopped_note(cast(float, budget)) + "; " if stopped else "") + f"the total delta' ({mark.formula}) at the statement's input delta = {used[best]!r}, not that input delta",
        method=f"total delta' by {provider.id}, minimised over the input deltas whose eps <= target (ITP and golden-section steps on log10(delta))",
        extra={"input_delta": used[best], "delta_effective_by": provider.id},
        stopped_early=stopped,
    )


# The generic composition statement that certifies T rounds of a randomizer the single-round statements of a
# mechanism cover (`ShuffleBound.compose`; spec/derived/compose.py): the clone pair dominates every eps0-LDP round
# (FMT21), the stronger clone pair every round of the FMT23 errata class, which contains k-RR (binary RR is
# 2-RR). It is the fallback where the mechanism's own composition (MECHANISM_COMPOSITION) does not reach.
COMPOSITION_OF_MECHANISM = {"generic": "compose.clones", "laplace": "compose.clones", "krr": "compose.stronger_clones", "binary_rr": "compose.stronger_clones"}
# The mechanism's own composition (a certified envelope of ITS round's worst-case privacy profile, connect the
# dots, composed: spec/derived/compose.py) for the statements of a mechanism (their `mechanism` field). Structured
# randomizers (compose.randomizer) and matrices (compose.finite) have no single-round statement with inputs eps0,
# n, delta, so no ShuffleBound of theirs exists to compose: `composed_epsilon` composes them directly.
MECHANISM_COMPOSITION = {"krr": "compose.krr", "binary_rr": "compose.binary_rr", "laplace": "compose.laplace"}


def _mechanism_composition_range(mechanism: str, eps0: float, n: int, k: object) -> str:
    """"" when the mechanism's own composition covers one round at (eps0, n, k); else why not (its range, from
    the reference's own limits: `mechanism_rounds` for binary RR and k-RR, `blanket_rounds` for Laplace)."""
    from ..reference.composition import blanket_rounds, mechanism_rounds

    if mechanism == "laplace":
        low, high, most = blanket_rounds.MIN_EPS0, blanket_rounds.MAX_EPS0["laplace"], blanket_rounds.MAX_N["laplace"]
    else:
        low, high, most = mechanism_rounds.MIN_EPS0, mechanism_rounds.MAX_EPS0, mechanism_rounds.MAX_N[mechanism]
    if not low <= eps0 <= high:
        return f"eps0 = {eps0!r} is outside its range {low:g} <= eps0 <= {high:g}"
    if n > most:
        return f"n = {n!r} is outside its range n <= {most:.0e}"
    if mechanism == "krr" and k is None:
        return "k (the number of categories) is not given"
    if mechanism == "krr" and not (isinstance(k, (int, float)) and not isinstance(k, bool) and float(k).is_integer() and 2 <= k <= mechanism_rounds.KRR_MAX_K):
        return f"k = {k!r} is outside its range: an integer 2 <= k <= {mechanism_rounds.KRR_MAX_K:.0e}"
    return ""


def _renamed(method: str, name: str, value: float | None, old: str, old_value: float | None) -> float:
    """The value of a parameter renamed to dp_accounting's name, given by its new name (positionally or not) or
    by its old keyword (a DeprecationWarning), exactly once."""
    if old_value is not None:
        if value is not None:
            raise ParameterNameError(old, old_value, (name,), missing=False, owner=f"ShuffleBound.{method}", note=f" (give {name} only; {old} is its old name)")
        warnings.warn(f"ShuffleBound.{method}({old}=...) is deprecated: use {method}({name}=...) or pass it positionally", DeprecationWarning, stacklevel=3)
        return old_value
    if value is None:
        raise ParameterNameError(name, None, (name,), missing=True, owner=f"ShuffleBound.{method}")
    return value


class ShuffleBound:
    """One amplification bound at a fixed local eps0 and number of users n, in the style of
    dp_accounting's accountants: ask for epsilon at a delta, or delta at an epsilon.

        >>> bound = ShuffleBound("FMT21.clones_numeric", eps0=1.0, n=10_000)   # doctest: +SKIP
        >>> bound.get_epsilon(1e-6)      # an upper bound on the central epsilon, also in floating point
        >>> bound.get_delta(0.1)         # the delta at which eps = 0.1 is certified (safe side)
        >>> bound.compose(1000).get_epsilon(target_delta=1e-6)   # after 1000 rounds (compose.clones)
        >>> bound.interval(1e-6)         # (lower, upper) around the statement's exact quantity
        >>> bound.hypotheses             # the assumptions and hypotheses, by their short names

    dp_accounting's names: `get_epsilon(target_delta)`, `get_delta(target_epsilon)` (the old keywords `delta=` and
    `eps=` still work, with a DeprecationWarning), `compose(rounds)`.

    `statement_id` is an amplification bound: a statement with inputs eps0, n and delta (see
    `list_statements(tag="amplification")`); mechanism parameters such as `k` are given as keywords.
    Ranges: eps0 > 0 finite, n an integer >= 1, delta in (0, 1), eps > 0, and whatever the statement's
    hypotheses require (a call outside them raises `HypothesisViolation`; the constructor already
    refuses eps0 and n outside their ranges with `ParameterError`).
    """

    def __init__(self, statement_id: StatementLike, *, eps0: float, n: int, **params: float):
        self.statement = _statement(statement_id)
        self.statement_id: str = self.statement.id
        names = set(self.statement.input_names)
        if not {"eps0", "n", "delta"} <= names:
            raise ParameterError("statement_id", self.statement_id, "an amplification bound with inputs eps0, n, delta (list_statements(tag='amplification'))", statement_id=self.statement_id)
        _check_names(self.statement, ("eps0", "n", "delta", *params), params)
        try:
            _positive("eps0", eps0)
        except ParameterError as failure:
            failure.statement_id = self.statement_id
            raise
        if isinstance(n, bool) or not isinstance(n, (int, float)) or not float(n).is_integer() or n < 1:
            raise ParameterError("n", n, "an integer n >= 1", statement_id=self.statement_id)
        self.eps0 = eps0
        self.n = int(n)
        self.params: dict[str, float] = dict(params)
        # Set by `compose`: which composition statement certifies the rounds, and why (empty otherwise).
        self.composition_note = ""

    def __repr__(self) -> str:
        extra = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"ShuffleBound({self.statement_id!r}, eps0={self.eps0!r}, n={self.n!r}{extra})"

    @property
    def hypotheses(self) -> tuple[str, ...]:
        """The symbols' assumptions and the statement's hypotheses, by their short names."""
        statement = self.statement
        if isinstance(statement, Entry):
            own = statement.hypothesis_names
            assumptions = tuple(
                f"{p.name} integer >= 1" if p.is_integer and p.is_positive else f"{p.name} > 0" if p.is_positive else f"{p.name} >= 0" if p.is_nonnegative else f"{p.name} real"
                for p in statement.inputs
            )
        else:
            from ..spec.statement import assumption_text

            own = tuple(statement.hypothesis_name(h) for h in statement.hypotheses)
            assumptions = tuple(assumption_text(s) for s in statement.inputs)
        return assumptions + own

    @entry_point
    def evaluation(self, delta: float) -> Evaluation:
        """The full answer at `delta` (value, certified interval, note), refusals included (`valid`); for a
        bound made by `compose`, the reason starts with its `composition_note`."""
        evaluation = _evaluation(self.statement, {"eps0": self.eps0, "n": self.n, "delta": delta, **self.params})
        return replace(evaluation, reason=join_reasons(self.composition_note, evaluation.reason)) if self.composition_note else evaluation

    @entry_point
    def get_epsilon(self, target_delta: float | None = None, *, delta: float | None = None) -> float:
        """The central epsilon at `target_delta` (dp_accounting's name): an upper bound, also in floating point
        (`shuffled_epsilon`). `delta=` is the old keyword, still accepted (DeprecationWarning)."""
        target_delta = _renamed("get_epsilon", "target_delta", target_delta, "delta", delta)
        value = shuffled_epsilon(self.statement, eps0=self.eps0, n=self.n, delta=target_delta, **self.params)
        return _with_reason(value, self.composition_note)

    @entry_point
    def get_delta(self, target_epsilon: float | None = None, *, eps: float | None = None, time_budget: float | None = INVERSION_TIME_BUDGET) -> float:
        """The delta at which the bound certifies `target_epsilon` >= 0 (dp_accounting's name; `shuffled_delta`:
        on the safe side, verified; for a compose.<pair> statement read directly from the composed privacy-loss
        distribution, no search). `eps=` is the old keyword, still accepted (DeprecationWarning).
        Raises `InversionTimeout` when `time_budget` seconds (default INVERSION_TIME_BUDGET; None: no limit)
        run out first: a bare float cannot say that it stopped early, so the best certified answer found is
        given in the error (`calibration`) instead of returned."""
        target_epsilon = _renamed("get_delta", "target_epsilon", target_epsilon, "eps", eps)
        result = shuffled_delta(self.statement, eps=target_epsilon, eps0=self.eps0, n=self.n, time_budget=time_budget, **self.params)
        if result.stopped_early:
            raise InversionTimeout(self.statement_id, "delta", cast(float, _check_budget(time_budget)), result)
        return result.value

    @entry_point
    def delta_calibration(self, target_epsilon: float, *, time_budget: float | None = INVERSION_TIME_BUDGET) -> Calibration:
        """`get_delta` with its bracket and note (`shuffled_delta`): when the time budget runs out, the best
        certified answer with `stopped_early` set."""
        return shuffled_delta(self.statement, eps=target_epsilon, eps0=self.eps0, n=self.n, time_budget=time_budget, **self.params)

    def compose(self, rounds: int) -> "ShuffleBound":
        """A new `ShuffleBound` for `rounds` rounds of this one (dp_accounting's `compose`): each round n users
        report once with the same eps0-LDP randomizer, composed adaptively (replace-one relation). The T-round
        bound is a composition statement, not T times this statement's number (docs/composition.md); the one
        chosen is the tightest that covers the statement's mechanism (its `mechanism` field):

        - a compose.<pair> statement: the same statement with `rounds` times its rounds;
        - a k-RR statement: compose.krr (BBGN19 Lemma 5.3's exact bound as k-RR's profile envelope; eps0 in
          [1e-3, 30], n <= 1e8, k <= 1e6), else compose.stronger_clones (FMT23's stronger clone pair, for the
          errata class that contains k-RR);
        - a binary-RR statement: compose.binary_rr (the exact per-pair profile's envelope; eps0 in [1e-3, 30],
          n <= 1e7: about 10 s at n = 1e6, 2 min at n = 1e7 for the envelope, cached), else
          compose.stronger_clones;
        - a Laplace statement: compose.laplace (Lemma 5.3's exact bound for Laplace on [0, 1]; eps0 in [1e-3, 8],
          n <= 1e6; the clone pair's value where smaller), else compose.clones;
        - a generic statement: compose.clones (FMT21's clone pair dominates every eps0-LDP round);
        - a lower bound, or a statement of another mechanism: refused (`ParameterError` naming statement_id).

        The returned bound's `composition_note` says which composition was used and why (the mechanism's own, or
        the generic pair outside its range); its `evaluation` and `get_epsilon` carry it in their reason. The
        mechanism's own composition is tighter (on a grid of eps0 in {0.5, 1, 4}, n in {1e3, 1e4, 1e5}, T in
        {10, 1000}: 0.14 to 0.99 times the generic value) but slower: its round envelope takes seconds to a
        minute (cached per eps0, n, k), where the generic pair takes about a second.
        `rounds`: an integer >= 1; the composition's own range (rounds in total <= 1e6, n <= 1e9, eps0 <= 30) is
        checked when a bound is asked for."""
        count = parse_number("rounds", rounds, integer=True)
        if count < 1:
            raise ParameterError("rounds", rounds, "an integer rounds >= 1", statement_id=self.statement_id)
        statement = self.statement
        if statement.id.startswith("compose."):
            again = dict(self.params)
            again["rounds"] = int(again["rounds"]) * count
            return _composition_bound(statement.id, self.eps0, self.n, again, self.composition_note)
        if statement.direction is Direction.LOWER_BOUND:
            raise ParameterError("statement_id", statement.id, "an upper bound or an exact statement (composing a lower bound certifies no upper bound)", statement_id=statement.id)
        mechanism = statement.mechanism or "generic"
        target = COMPOSITION_OF_MECHANISM.get(mechanism)
        if target is None:
            raise ParameterError(
                "statement_id", statement.id,
                f"a statement of a randomizer a composition statement covers ({', '.join(sorted(COMPOSITION_OF_MECHANISM))}); this one is for {statement.mechanism}",
                statement_id=statement.id,
            )
        own = MECHANISM_COMPOSITION.get(mechanism)
        params: dict[str, float] = {"rounds": count}
        if own is None:
            note = f"{target}: the generic composition of any eps0-LDP randomizer (no mechanism-specific composition for {statement.id})"
        else:
            outside = _mechanism_composition_range(mechanism, float(self.eps0), self.n, self.params.get("k"))
            if outside:
                note = f"{target}: the generic pair, since {own} (the {mechanism} mechanism's own composition) does not reach here: {outside}"
            else:
                target = own
                note = f"{own}: the {mechanism} mechanism's own composition"
                if own == "compose.krr":
                    params["k"] = int(self.params["k"])
        return _composition_bound(target, self.eps0, self.n, params, note)

    @entry_point
    def interval(self, delta: float) -> tuple[float, float]:
        """(lower, upper): a certified enclosure of the statement's exact quantity at `delta` (for a
        bound computed numerically, the exact epsilon of the bound's own formula lies inside); a
        closed form evaluated with outward rounding gives a degenerate or ulp-wide interval."""
        params = {"eps0": self.eps0, "n": self.n, "delta": delta, **self.params}
        evaluation = self.evaluation(delta)
        value = _require_value(evaluation, self.statement, params)
        return evaluation.interval if evaluation.interval is not None else (value, value)

    def check(self, delta: float) -> None:
        """Raise `HypothesisViolation` / `ParameterError` when the bound certifies nothing at `delta`."""
        self.get_epsilon(delta)


def _with_reason(value: EpsilonBound, note: str) -> EpsilonBound:
    """`value` with `note` first in its reason (a composed bound says which composition certified it)."""
    if not note:
        return value
    return EpsilonBound(float(value), interval=value.interval, direction=value.direction, statement_id=value.statement_id,
                        reason=join_reasons(note, value.reason), neighbouring=value.neighbouring)


# The composition statements without scalar inputs in the catalogue (procedures over a mechanism's envelope) that
# `ShuffleBound.compose` routes to: answered by `composed_epsilon` and the reference's composed delta.
BLANKET_COMPOSITION_BOUNDS = ("compose.laplace",)


class _BlanketCompositionBound(ShuffleBound):
    """`rounds` rounds of the shuffled Laplace mechanism on [0, 1] by compose.laplace (BBGN19 Lemma 5.3's exact
    bound as the round's profile envelope, connect the dots, composed; the clone pair's value where smaller:
    `reference/composition/blanket_rounds.py`), as `ShuffleBound.compose` returns it for a Laplace statement.
    The statement is a procedure (no scalar inputs in the catalogue), so the answers come from
    `composed_epsilon` and `blanket_rounds.composed_delta` instead of the statement evaluator. Ranges: as
    compose.laplace (1e-3 <= eps0 <= 8, 1 <= n <= 1e6, rounds <= 1e6, 0 < delta < 1)."""

    def __init__(self, statement_id: StatementLike, *, eps0: float, n: int, **params: float):
        self.statement = _statement(statement_id)
        self.statement_id = self.statement.id
        if self.statement_id not in BLANKET_COMPOSITION_BOUNDS or set(params) != {"rounds"}:
            raise ParameterError("statement_id", self.statement_id, f"one of {', '.join(BLANKET_COMPOSITION_BOUNDS)} with rounds", statement_id=self.statement_id)
        self.eps0 = eps0
        self.n = int(n)
        self.params = dict(params)
        self.composition_note = ""

    @entry_point
    def evaluation(self, delta: float) -> Evaluation:
        result = composed_epsilon(self.statement_id, rounds=int(self.params["rounds"]), eps0=self.eps0, n=self.n, delta=delta)
        params: dict[str, float | int] = {"eps0": self.eps0, "n": self.n, "delta": float(delta), "rounds": int(self.params["rounds"])}
        return Evaluation(self.statement_id, params, result.value, True, join_reasons(self.composition_note, result.reason), result.interval)

    @entry_point
    def get_epsilon(self, target_delta: float | None = None, *, delta: float | None = None) -> float:
        target_delta = _renamed("get_epsilon", "target_delta", target_delta, "delta", delta)
        evaluation = self.evaluation(target_delta)
        interval = cast(tuple[float, float], evaluation.interval)
        return EpsilonBound(cast(float, evaluation.value), interval=interval, direction="upper", statement_id=self.statement_id,
                            reason=evaluation.reason, neighbouring=neighbouring_of(self.statement_id))

    @entry_point
    def delta_calibration(self, target_epsilon: float, *, time_budget: float | None = INVERSION_TIME_BUDGET) -> Calibration:
        """The certified delta(eps) of the composed envelope pair, read directly (no search): `value` its upper end.
        `time_budget` bounds only its small-delta recompositions (below 1e-10: `reference.composition.solve.small_delta`)."""
        from ..reference.composition.blanket_rounds import BlanketRound, composed_delta as _blanket_delta

        eps = _nonnegative("target_epsilon", target_epsilon)
        budget = _check_budget(time_budget)
        deadline = None if budget is None else time.monotonic() + budget
        value = _blanket_delta([BlanketRound("laplace", float(self.eps0), self.n, int(self.params["rounds"]))], eps=eps, deadline=deadline)
        lower, upper = float(value.lower), float(value.upper)
        if not upper < 1:
            raise ParameterError("eps", eps, f"a target {self.statement_id} certifies with some delta < 1 (its certified delta(eps) is {upper!r})", statement_id=self.statement_id)
        params: dict[str, float | int] = {"eps0": self.eps0, "n": self.n, "rounds": int(self.params["rounds"])}
        method = "direct: certified delta(eps) of the composed envelope pair (shuffle_spec.reference.composition.blanket_rounds.composed_delta)"
        return Calibration(self.statement_id, "delta", upper, (lower, upper), eps, params, note=self.composition_note, method=method)

    @entry_point
    def get_delta(self, target_epsilon: float | None = None, *, eps: float | None = None, time_budget: float | None = INVERSION_TIME_BUDGET) -> float:
        target_epsilon = _renamed("get_delta", "target_epsilon", target_epsilon, "eps", eps)
        return float(self.delta_calibration(target_epsilon).value)

    @entry_point
    def interval(self, delta: float) -> tuple[float, float]:
        return cast(tuple[float, float], self.evaluation(delta).interval)


def _composition_bound(statement_id: str, eps0: float, n: int, params: Mapping[str, float], note: str) -> ShuffleBound:
    """The ShuffleBound of a composition statement (ShuffleBound.compose), its `composition_note` set."""
    cls = _BlanketCompositionBound if statement_id in BLANKET_COMPOSITION_BOUNDS else ShuffleBound
    bound = cls(statement_id, eps0=eps0, n=n, **params)
    bound.composition_note = note
    return bound


def _rows(matrix: Any) -> Any:
    """A numpy array as nested lists of Python numbers (`tolist()`: float64 entries become the same doubles, read
    exactly), anything else as given."""
    return matrix.tolist() if hasattr(matrix, "tolist") and hasattr(matrix, "shape") else matrix


@entry_point
def tightest_randomizer(matrix: Sequence[Sequence[object]] | Mapping[str, Any] | Any, *, n: int, delta: float) -> RandomizerGap:
    """The tightest certified upper bound and the largest certified lower bound on the central epsilon of n
    shuffled reports of a finite randomizer given as a matrix (rows inputs, columns outputs), and their
    ratio: BBGN19.Lem5.3.exact_randomizer and every registered bound at the matrix's eps0 above,
    exact.randomizer_pair (and the exact value when n is small) below. Returns a
    `shuffle_spec.proofs_checks.derived.blanket_exact_randomizer.RandomizerGap` (fields upper_id, upper_eps, lower_id, lower_eps, ratio,
    pair, rows; `to_json()`). The matrix is read as `audit_randomizer` reads it (labels, digit and work limits:
    `shuffle_spec.interface.limits.MATRIX_LIMITS_TEXT`); a malformed one raises ValueError naming the field."""
    from .audit.randomizer import audit_matrix
    from .randomizer_gap import RandomizerGap

    n = int(parse_number("n", n, integer=True))
    delta = float(parse_number("delta", delta))
    if not 1e-300 <= delta < 1:  # refused here, not reported as a gap with neither side valid
        raise ParameterError("delta", delta, "1e-300 <= delta < 1")
    audit = audit_matrix(_rows(matrix), n=n, delta=delta)  # every registered bound at the matrix's eps0, and the gap
    if audit.gap is None:  # no finite eps0 > 0: nothing to bound (the audit says why)
        return RandomizerGap(n, delta, audit.ldp_epsilon, rows=[{"reason": "; ".join(audit.problems)}])
    return RandomizerGap.from_json(audit.gap)


@entry_point
def audit_randomizer(
    matrix: Sequence[Sequence[object]] | Mapping[str, Any] | Any,
    *,
    n: int | None = None,
    delta: float | None = None,
    removal_reference: Sequence[object] | None = None,
) -> RandomizerAudit:
    """Audit a finite randomizer given as a row-stochastic matrix (rows inputs, columns outputs;
    decimals or "p/q" strings) or as the JSON object of `shuffle-spec audit randomizer`: replacement
    and removal LDP epsilon, blanket gamma and distribution, and (with n and delta) every applicable
    shuffled bound plus the exact central epsilon when n is small. Returns a `RandomizerAudit`. A numpy array is read as its rows.
    Labels (`inputs`, `outputs`) are strings or integers, one per row / column, all different (also as printed);
    entries have at most 1000 digits in numerator and denominator, checked on their text before a number is built
    (`shuffle_spec.interface.limits.MATRIX_LIMITS_TEXT`). A malformed matrix raises ValueError (ParameterError or
    UsageError) naming the field: `inputs[2]`, `matrix[0][1]`, `removal_reference[1]`. The exact small-n value is
    enumerated only within its work limit (operations times the size of the numbers); otherwise `exact` is None
    and `exact_reason` says why."""
    from .audit.randomizer import audit_matrix

    n = None if n is None else int(parse_number("n", n, integer=True))  # numpy / Fraction / Decimal numbers too
    delta = None if delta is None else float(parse_number("delta", delta))
    return audit_matrix(_rows(matrix), n=n, delta=delta, removal_reference=_rows(removal_reference))


def _fixed(**values: object) -> dict[str, float | int]:
    """The parameters an inversion holds fixed, parsed (numpy, Fraction, Decimal accepted; None and
    bool refused) and checked against the supported range before the search, so that a bad one is
    named itself rather than blamed on the searched parameter."""
    out: dict[str, float | int] = {}
    for name, value in values.items():
        number = parse_number(name, value, integer=name == "n")
        out[name] = cast(int, number) if name == "n" else _as_float(name, number)  # integer=True for n: an int
        require_supported(name, out[name])
    return out


def _nonnegative(name: str, value: object) -> float:
    """`value` as a float, checked finite and >= 0 (a target epsilon: 0 asks for (0, delta)-DP)."""
    number = parse_number(name, value)
    if not number >= 0 or not math.isfinite(_as_float(name, number)):
        raise ParameterError(name, value, f"a finite {name} >= 0")
    return float(number)


def _positive(name: str, value: object) -> float:
    """`value` as a float, checked finite and > 0 (numpy, Fraction and Decimal numbers accepted)."""
    number = parse_number(name, value)
    if not number > 0 or not math.isfinite(_as_float(name, number)):
        raise ParameterError(name, value, f"a finite {name} > 0")
    return float(number)


def _as_float(name: str, number: object) -> float:
    try:
        return float(number)  # type: ignore[arg-type]
    except OverflowError:  # an int or Fraction beyond a double
        raise ParameterError(name, number, "a number within the range of a double") from None


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


# Many rounds: certified composition of shuffled rounds by privacy-loss distributions.


@dataclass(frozen=True)
class Composition:
    """A composed epsilon (`shuffle-spec compose`): `value` = the interval's upper end; for
    compose.exact_binary_rr a lower bound on the worst case (see the statement's notes)."""

    id: str
    rounds: list[dict[str, Any]]
    delta: float
    value: float
    interval: tuple[float, float]
    valid: bool
    reason: str

    # The result fields (`interface/results.py`) beside the attributes above.
    @property
    def statement_id(self) -> str:
        return self.id

    @property
    def direction(self) -> ResultDirection:
        """"upper" for the clone pairs, "lower" for compose.exact_binary_rr (`value` is then the lower end)."""
        return "lower" if self.id == "compose.exact_binary_rr" else "upper"

    @property
    def neighbouring(self) -> Neighbouring:
        return neighbouring_of(self.id)

    def to_json(self) -> dict[str, Any]:
        total = sum(r["rounds"] for r in self.rounds)
        params: dict[str, Any] = dict(self.rounds[0]) if len(self.rounds) == 1 else {"rounds": self.rounds}
        params.pop("pair", None)
        params.pop("rounds", None) if len(self.rounds) == 1 else None
        params["delta"] = self.delta
        return {"id": self.id, "rounds": total, "params": params, "value": self.value, "interval": list(self.interval), "valid": self.valid, "reason": self.reason,
                "neighbouring": self.neighbouring}


# The pairs whose composition certifies each compose.<pair> statement (docs/composition.md, "Which pair, which
# relation"): the clone pair dominates every eps0-LDP round, so it also bounds the k-RR rounds of
# stronger_clones; no other pair may stand in (the exact binary-RR pairs give a lower bound, so their
# composition is no upper bound, and an upper bound's lower end is no lower bound).
CERTIFYING_PAIRS = {"clones": ("clones",), "stronger_clones": ("stronger_clones", "clones"), "exact_binary_rr": ("exact_binary_rr",)}


def _compose_pair(statement_id: str) -> str:
    if not statement_id.startswith("compose."):
        raise ParameterError("id", statement_id, "a compose.<pair> statement id (compose.clones, compose.stronger_clones, compose.exact_binary_rr)")
    resolve(statement_id)  # KeyError with near matches when unknown
    return statement_id.split(".", 1)[1]


@entry_point
def composed_epsilon(statement_id: str, *, rounds: int | None = None, eps0: float | None = None, n: int | None = None, delta: float, schedule: Sequence[Mapping[str, Any]] | None = None, k: int | None = None,
                     d: int | None = None, randomizer: str | None = None, matrix: object = None, time_budget: float | None = None) -> Composition:
    """The certified epsilon after `rounds` shuffled rounds at (eps0, n) by the pair of `statement_id`
    (compose.clones, compose.stronger_clones, compose.exact_binary_rr), or after the heterogeneous
    `schedule` (a list of {"eps0", "n", "rounds"[, "pair"]}; pair defaults to the statement's and may
    only be one of CERTIFYING_PAIRS[the statement's pair]). k: the number of categories of compose.krr.
    compose.laplace, compose.finite (`matrix`, no eps0) and compose.randomizer (`randomizer` one of rappor, oue,
    blh, olh, hadamard, subset with the domain size `d`, duchi or piecewise): `_blanket_composition`.
    `time_budget` (seconds in (0, INVERSION_TIME_BUDGET_MAX], or None: no limit, the default): the lower end's
    explicit pairs (compose.binary_rr, .krr, .laplace, .finite, .randomizer) are a refinement, dropped when it runs
    out (the lower end is then 0 and `reason` says so); a composition of the upper end still running then raises
    TimeLimitExceeded (a schedule's distinct rounds each build their own pair, so a small schedule can ask for
    minutes). Parameters outside the supported range raise ParameterError naming them."""
    budget = _check_budget(time_budget)
    arguments: dict[str, Any] = dict(rounds=rounds, eps0=eps0, n=n, delta=delta, schedule=schedule, k=k, d=d, randomizer=randomizer, matrix=matrix)
    if budget is None:
        return _composed_epsilon(statement_id, **arguments, deadline=None)
    deadline = time.monotonic() + budget  # the refinements' deadline, the limit's moment (as composed_delta)
    try:
        with time_limit(budget):
            return _composed_epsilon(statement_id, **arguments, deadline=deadline)
    except TimeLimitExceeded:
        raise TimeLimitExceeded(budget_exceeded_message(f"{statement_id}: the composition", budget, " or list fewer distinct rounds")) from None


def _composed_epsilon(statement_id: str, *, rounds: int | None, eps0: float | None, n: int | None, delta: float, schedule: Sequence[Mapping[str, Any]] | None, k: int | None,
                      d: int | None, randomizer: str | None, matrix: object, deadline: float | None) -> Composition:
    from ..reference.composition.shuffled_rounds import composed_epsilon as _composed, rounds_from_json

    pair = _compose_pair(statement_id)
    delta = _compose_delta(delta)
    if pair in BLANKET_PAIRS:
        return _blanket_composition(statement_id, rounds=rounds, eps0=eps0, n=n, delta=delta, schedule=schedule, k=k, d=d, randomizer=randomizer, matrix=matrix,
                                    deadline=deadline)
    for name, given in (("d", d), ("randomizer", randomizer), ("matrix", matrix)):
        if given is not None:
            raise ParameterError(name, "given", f"no {name} for {statement_id} (compose.finite takes a matrix, compose.randomizer a randomizer and d)")
    if schedule is None:
        for name, given in (("rounds", rounds), ("eps0", eps0), ("n", n)):
            if given is None:
                raise ParameterNameError(name, None, ("rounds", "eps0", "n", "delta"), missing=True, owner=statement_id, statement_id=statement_id, note=" (or a schedule and delta)")
        single = _compose_round(rounds=rounds, eps0=eps0, n=n)
        if k is None and pair == "krr":
            raise ParameterNameError("k", None, ("rounds", "eps0", "n", "k", "delta"), missing=True, owner=statement_id, statement_id=statement_id, note=" (or a schedule and delta)")
        if k is not None:
            single["k"] = parse_number("k", k, integer=True)
        schedule = [single]
    elif rounds is not None or eps0 is not None or n is not None or k is not None:
        raise ParameterError("schedule", "given", "either a schedule or rounds/eps0/n, not both")
    allowed = CERTIFYING_PAIRS.get(pair, (pair,))
    for item in schedule:
        if isinstance(item, Mapping) and "pair" in item and item["pair"] not in allowed:
            raise ParameterError("pair", item["pair"], f"{' or '.join(allowed)} in a round of {statement_id} (another pair's composition certifies another claim)")
    parsed = rounds_from_json([{"pair": pair, **dict(item)} if isinstance(item, Mapping) else item for item in schedule])
    result = _composed(parsed, delta=delta, deadline=deadline)
    listed = [{"pair": r.pair, "eps0": r.eps0, "n": r.n, "rounds": r.rounds, **({"k": r.k} if r.pair == "krr" else {})} for r in parsed]
    # The result's own direction is its pair's (the explicit binary-RR pairs: a lower bound, reported by its lower
    # end; the clone pairs: an upper bound, by its upper end), the statement's by CERTIFYING_PAIRS.
    # An interval wider than 1% says so (`interface/results.py`): the value is its certified end, the rest is slack.
    # The reference's note already says so where it knows why (the rounding of the grid): not twice.
    reason = result.note if " wide" in result.note else join_reasons(result.note, width_note(float(result.lower), float(result.upper)))
    return Composition(statement_id, listed, float(delta), result.value, (result.lower, result.upper), True, reason)


# The statements composed by BBGN19 Lemma 5.3's envelope (`reference/composition/blanket_rounds.py`), and the
# schedule fields of their rounds.
BLANKET_PAIRS = ("laplace", "finite", "randomizer")
BLANKET_ROUND_FIELDS = ("mechanism", "eps0", "n", "rounds", "d", "k", "matrix")


def _blanket_composition(statement_id: str, *, rounds: object, eps0: object, n: object, delta: float, schedule: Sequence[Mapping[str, Any]] | None,
                         k: object, d: object, randomizer: object, matrix: object, deadline: float | None = None) -> Composition:
    """compose.laplace / compose.finite / compose.randomizer: one round group (rounds, eps0, n and the mechanism's
    own parameters), or a `schedule` of {"mechanism", "eps0", "n", "rounds"[, "d", "k", "matrix"]} mixing laplace,
    matrix, the structured randomizers, binary_rr and krr rounds. The value is the certified upper end (the
    generic clone pair's when smaller, said in the reason); the lower end the certified lower bound of the composed
    explicit dataset pairs (`reference.composition.blanket_lower`). Ranges: `blanket_rounds.composed_epsilon`."""
    from ..reference.composition.blanket_rounds import BlanketRound, composed_epsilon as _blanket

    pair = statement_id.split(".", 1)[1]
    if schedule is None:
        if k is not None:
            raise ParameterError("k", k, f"no k for {statement_id} (k-RR rounds: a schedule with \"mechanism\": \"krr\")")
        if pair == "finite" and eps0 is not None:
            raise ParameterError("eps0", eps0, "no eps0 for compose.finite (the matrix's own LDP epsilon is used)")
        required: dict[str, object] = {"rounds": rounds, "n": n, **({"matrix": matrix} if pair == "finite" else {"eps0": eps0}),
                                       **({"randomizer": randomizer} if pair == "randomizer" else {})}
        for name, given in required.items():
            if given is None:
                raise ParameterNameError(name, None, (*required, "delta"), missing=True, owner=statement_id, statement_id=statement_id, note=" (or a schedule and delta)")
        mechanism = {"laplace": "laplace", "finite": "matrix"}.get(pair, randomizer)
        group: dict[str, Any] = {"mechanism": mechanism, "rounds": rounds, "n": n, "eps0": eps0, "d": d, "matrix": matrix}
        schedule = [{key: value for key, value in group.items() if value is not None}]
    elif any(given is not None for given in (rounds, eps0, n, k, d, randomizer, matrix)):
        raise ParameterError("schedule", "given", "either a schedule or rounds/eps0/n/d/randomizer/matrix, not both")
    parsed = []
    for index, item in enumerate(schedule):
        if not isinstance(item, Mapping) or "mechanism" not in item or set(item) - set(BLANKET_ROUND_FIELDS):
            raise ParameterError(f"schedule[{index}]", repr(item)[:60], f"an object with \"mechanism\" and fields among {', '.join(BLANKET_ROUND_FIELDS)}")
        table = _matrix_rows(item.get("matrix"), "matrix" if len(schedule) == 1 else f"schedule[{index}].matrix")
        parsed.append(BlanketRound(
            str(item["mechanism"]),
            None if item.get("eps0") is None else _as_float("eps0", parse_number("eps0", item["eps0"])),
            parse_number("n", item.get("n"), integer=True),
            parse_number("rounds", item.get("rounds", 1), integer=True),
            None if item.get("d") is None else parse_number("d", item["d"], integer=True),
            None if item.get("k") is None else parse_number("k", item["k"], integer=True),
            table,
        ))
    result = _blanket(parsed, delta=delta, deadline=deadline)
    listed = [{"mechanism": r.mechanism, **({"eps0": r.eps0} if r.eps0 is not None else {}), "n": r.n, "rounds": r.rounds, **({"d": r.d} if r.d is not None else {}), **({"k": r.k} if r.k is not None else {})}
              for r in parsed]
    return Composition(statement_id, listed, float(delta), result.value, (result.lower, result.upper), True, result.note)


def _matrix_rows(table: object, name: str) -> object:
    """The rows of a matrix given as rows or as a randomizer document ({"matrix": rows, ...}, as `audit randomizer`
    and `tightest --matrix` read it): a document's other fields must be that file's (name, labels, removal
    reference, comment: none changes the replacement composition), so that a field the composition does not read
    (a misspelt second table, a parameter written into the file) is refused in one line, as those commands refuse
    it, instead of dropped without a word."""
    from ..reference.bounds.blanket_exact_randomizer import FiniteRandomizer
    from ..reference.finite.randomizers import Randomizer
    from .audit.randomizer import RANDOMIZER_FILE_FIELDS

    if isinstance(table, Mapping):
        unknown = sorted(str(key) for key in table if key not in RANDOMIZER_FILE_FIELDS)
        if unknown:
            shown = ", ".join(unknown) if sum(map(len, unknown)) <= 80 else ", ".join(unknown)[:77] + "..."
            raise ParameterError(name, f"a document with unknown field(s) {shown}", f"a list of rows, or a randomizer document with fields among {', '.join(RANDOMIZER_FILE_FIELDS)}")
        table = table.get("matrix")
    if table is not None and not isinstance(table, FiniteRandomizer):
        # The one rule of every matrix reader (`Randomizer.from_matrix`, as `audit randomizer` and `tightest --matrix`
        # read a matrix): exact entries sum to exactly 1 (a row holding a Python float: 1 up to float rounding).
        Randomizer.from_matrix(_rows(table))
    return table


@entry_point
def composed_delta(statement_id: str, *, rounds: int, eps0: float | None = None, n: int, eps: float, k: int | None = None, d: int | None = None,
                   randomizer: str | None = None, matrix: object = None, time_budget: float | None = None) -> DeltaInterval:
    """The certified [lower, upper] of delta(eps) after `rounds` rounds at (eps0, n) by the pair of `statement_id`:
    a `DeltaInterval`, the (lower, upper) tuple as before, carrying `value` (the upper end; the lower end for
    compose.exact_binary_rr, a lower bound), `direction`, `statement_id`, `reason`, `neighbouring`. For
    compose.binary_rr and compose.krr (k: its number of categories) the lower end is a certified LOWER bound on the
    mechanism's worst-case delta (composed explicit dataset pairs); for compose.clones and compose.stronger_clones
    it is the lower end of the generic pair's own delta (no lower bound on a mechanism's delta: `reason` says so).
    compose.laplace, compose.finite (`matrix`, no eps0) and compose.randomizer (`randomizer` and `d`): the upper end
    from the mechanism's envelope, the lower end a certified LOWER bound on its worst-case delta (its composed
    explicit dataset pairs, `reference.composition.blanket_lower`).
    Where the first composition's certified delta is below 1e-10 it is recomposed for smaller targets and tilted
    (`reference.composition.solve.small_delta`). `time_budget` (seconds, None: no limit, the default) bounds the
    whole call: the refinements (those recompositions, compose.binary_rr's directional end, the lower end's explicit
    pairs) stop when it runs out and the certified ends in hand are returned (a lower end not evaluated is 0 and
    `reason` says so); a first composition still running then raises TimeLimitExceeded (one line).
    Ranges: those of the composition (0 < eps0 <= 30, 1 <= n <= 1e9, 1 <= rounds <= 1e6; compose.krr:
    2 <= k <= 1e6; compose.laplace, .finite, .randomizer: `blanket_rounds.composed_epsilon`), eps >= 0,
    time_budget None or in (0, 1e6]."""
    budget = _check_budget(time_budget)
    arguments: dict[str, Any] = dict(rounds=rounds, eps0=eps0, n=n, eps=eps, k=k, d=d, randomizer=randomizer, matrix=matrix)
    if budget is None:
        return _composed_delta(statement_id, **arguments, deadline=None)
    # The refinements' deadline and the limit are the same moment (reference.composition.solve, A caller's
    # deadline): a refinement the limit interrupts is dropped there, a first composition ends the call.
    deadline = time.monotonic() + budget
    try:
        with time_limit(budget):
            return _composed_delta(statement_id, **arguments, deadline=deadline)
    except TimeLimitExceeded:
        raise TimeLimitExceeded(budget_exceeded_message(f"{statement_id}: the composition", budget)) from None


def _composed_delta(statement_id: str, *, rounds: object, eps0: object, n: object, eps: object, k: object, d: object, randomizer: object, matrix: object,
                    deadline: float | None) -> DeltaInterval:
    from ..reference.composition.shuffled_rounds import Round, composed_delta as _delta

    pair = _compose_pair(statement_id)
    eps = _as_float("eps", parse_number("eps", eps))
    if pair in BLANKET_PAIRS:
        return _blanket_delta(statement_id, pair, rounds=rounds, eps0=eps0, n=n, eps=eps, d=d, randomizer=randomizer, matrix=matrix, deadline=deadline)
    for name, given in (("d", d), ("randomizer", randomizer), ("matrix", matrix)):
        if given is not None:
            raise ParameterError(name, "given", f"no {name} for {statement_id} (compose.finite takes a matrix, compose.randomizer a randomizer and d)")
    if eps0 is None:
        raise ParameterNameError("eps0", None, ("rounds", "eps0", "n", "eps"), missing=True, owner=statement_id, statement_id=statement_id)
    single = _compose_round(rounds=rounds, eps0=eps0, n=n)
    if pair == "krr":
        if k is None:
            raise ParameterNameError("k", None, ("rounds", "eps0", "n", "k", "eps"), missing=True, owner=statement_id, statement_id=statement_id)
        single["k"] = parse_number("k", k, integer=True)
    value = _delta([Round(pair, **single)], eps=eps, deadline=deadline)
    lower, upper = float(value.lower), float(value.upper)
    direction: ResultDirection = "lower" if pair == "exact_binary_rr" else "upper"
    if pair in ("clones", "stronger_clones"):
        what = "the generic pair's own delta (not a lower bound on a mechanism's delta: no explicit pair of a mechanism is composed here)"
        reason = join_reasons(f"lower end: {what}", width_note(lower, upper))
    else:
        reason = join_reasons(value.note if pair in ("binary_rr", "krr") else "", width_note(lower, upper))
    return DeltaInterval(lower, upper, direction=direction, statement_id=statement_id, reason=reason, neighbouring=neighbouring_of(statement_id))


def _blanket_delta(statement_id: str, pair: str, *, rounds: object, eps0: object, n: object, eps: float, d: object, randomizer: object, matrix: object,
                   deadline: float | None = None) -> DeltaInterval:
    """composed_delta of compose.laplace / compose.finite / compose.randomizer: one round group (module doc of
    `reference.composition.blanket_rounds`; the lower end from `blanket_lower`)."""
    from ..reference.composition.blanket_rounds import BlanketRound, composed_delta as _delta

    if pair == "finite" and eps0 is not None:
        raise ParameterError("eps0", eps0, "no eps0 for compose.finite (the matrix's own LDP epsilon is used)")
    if pair != "finite" and eps0 is None:
        raise ParameterNameError("eps0", None, ("rounds", "eps0", "n", "eps"), missing=True, owner=statement_id, statement_id=statement_id)
    if pair == "randomizer" and randomizer is None:
        raise ParameterNameError("randomizer", None, ("rounds", "eps0", "n", "eps", "randomizer", "d"), missing=True, owner=statement_id, statement_id=statement_id)
    mechanism = {"laplace": "laplace", "finite": "matrix"}.get(pair, str(randomizer))
    value = _delta([BlanketRound(
        mechanism,
        None if eps0 is None else _as_float("eps0", parse_number("eps0", eps0)),
        parse_number("n", n, integer=True),
        parse_number("rounds", rounds, integer=True),
        None if d is None else parse_number("d", d, integer=True),
        None,
        None if matrix is None else _matrix_rows(matrix, "matrix"),  # rows or a randomizer document, as composed_epsilon reads it
    )], eps=eps, deadline=deadline)
    lower, upper = float(value.lower), float(value.upper)
    return DeltaInterval(lower, upper, direction="upper", statement_id=statement_id, reason=join_reasons(value.note, width_note(lower, upper)),
                         neighbouring=neighbouring_of(statement_id))


def _compose_round(*, rounds: object, eps0: object, n: object) -> dict[str, Any]:
    """rounds, eps0 and n of one round group parsed as every command parses numbers (`parse_number`:
    "1e3" and "1/2" are numbers, "1_0" and "0x10" are not); their ranges are the composition's own
    (`shuffle_spec.reference.composition.shuffled_rounds`: 0 < eps0 <= 30, 1 <= n <= 1e9, 1 <= rounds <= 1e6), checked there."""
    return {
        "eps0": _as_float("eps0", parse_number("eps0", eps0)),
        "n": parse_number("n", n, integer=True),
        "rounds": parse_number("rounds", rounds, integer=True),
    }


def _compose_delta(delta: object) -> float:
    """The central delta after all rounds, parsed (`parse_number`) and within the supported range
    (1e-300 <= delta < 1, `shuffle_spec.interface.limits`)."""
    value = _as_float("delta", parse_number("delta", delta))
    require_supported("delta", value)
    return value
