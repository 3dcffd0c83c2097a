"""The bridge between a spec statement and its reference implementation.

It resolves a statement's paired reference function, turns command-line parameters into the
function's keyword arguments by the statement's symbols, checks the statement's hypotheses on the
spec side, and calls the reference (which checks its own hypotheses independently).
"""

from __future__ import annotations

import importlib
import math
import numbers
import re
from decimal import Decimal
from dataclasses import dataclass, field
from fractions import Fraction
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Literal, Mapping, overload

from ..reference.core.limits import DELTA_MIN, EPS0_MAX, K_MAX, N_MAX
from ..reference.core.errors import HypothesisViolation, ParameterError
from ..reference.core.results import BoundValue
from ..spec.terms import EffectiveDelta, HypothesisError

if TYPE_CHECKING:  # `Statement` or a catalog `Entry` (`shuffle_spec.spec.catalog`): SymPy only when needed
    from ..spec.catalog import Entry
    from ..spec.statement import Statement

__all__ = ["BadParameter", "Evaluation", "ReferenceResultError", "UsageError", "check_supported_range", "coerce_params", "evaluate", "parse_number", "reference_function", "require_supported", "supported_point"]


class UsageError(ValueError):
    """The call itself is wrong (unknown or missing parameter, non-number): exit code 2."""


class ReferenceResultError(TypeError):
    """A reference returned something other than its statement's result type (`reference_result`): a defect of
    the project, never a refusal of the point, so it is raised, not turned into an answer `valid: false`."""


@dataclass(frozen=True)
class Evaluation:
    id: str
    params: dict[str, float | int]
    value: float | None
    valid: bool
    reason: str
    interval: tuple[float, float] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    # The refusal itself (`HypothesisError` from the spec side, `HypothesisViolation` / `ParameterError`
    # from the reference), with its fields; not part of the JSON.
    error: ValueError | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "params": self.params, "value": self.value, "valid": self.valid, "reason": self.reason}
        if self.interval is not None:
            out["interval"] = list(self.interval)
        out.update(self.extra)
        return out

    @property
    def delta_effective(self) -> float | None:
        """The delta at which `value` holds, for a statement whose conclusion holds at a delta other than its
        input `delta` (`spec.terms.EffectiveDelta`, e.g. FMT21 Prop 2.2's delta'); None otherwise, or when
        that delta depends on a quantity that is not an input (then `extra["delta_effective_formula"]` says it)."""
        return self.extra.get("delta_effective")

    @property
    def holds_at_requested_delta(self) -> bool:
        """Valid, and certified at the requested `delta` itself: never for a value that holds only at a larger
        delta' (what `bounds`, `compare`, `tightest` and the API's bare epsilons require)."""
        if not self.valid:
            return False
        effective, requested = self.delta_effective, self.params.get("delta")
        return effective is None or requested is None or effective <= requested


def reference_module(statement: Statement | Entry) -> ModuleType:
    """The module of a statement's reference implementation: `statement.reference` is "module:function", the
    module's importable name (`shuffle_spec.reference.bounds.clones:clones_numeric`)."""
    module_name, _, _ = statement.reference.partition(":")
    return importlib.import_module(module_name)


def reference_function(statement: Statement | Entry) -> Callable:
    """The reference implementation of a statement (the function its `reference` names)."""
    function_name = statement.reference.partition(":")[2]
    try:
        return getattr(reference_module(statement), function_name)
    except AttributeError:
        raise LookupError(f"{statement.id}: reference {statement.reference} does not exist") from None


_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d{1,4})?")
_FRACTION = re.compile(r"[+-]?\d+/\d+")
NUMBER_FORMS = "a number written as 0.5, 1e-6, 10000 or 1/3"
# A number given as text has at most this many characters (a 10^6-digit string would cost seconds to parse).
MAX_NUMBER_CHARS = 100


class BadParameter(ParameterError, UsageError):
    """A parameter that is not a number, not finite, not an integer where one is needed, or outside the
    supported range: a `ParameterError` (names parameter, value, allowed range) and a usage error (exit 2)."""


@overload
def parse_number(name: str, value: object, *, integer: Literal[True]) -> int: ...
@overload
def parse_number(name: str, value: object, *, integer: bool = False) -> int | float | Fraction: ...
def parse_number(name: str, value: object, *, integer: bool = False) -> int | float | Fraction:
    """One number, strictly: a decimal or "p/q" string (no `1_0`, no hex, no `inf`/`nan`), or a Python,
    numpy, `Fraction` or `Decimal` number; never a bool or None. Finite; integral when `integer`.
    Returns an `int` when `integer`, else an `int`, `float` or `Fraction` equal to the input."""
    number: int | float | Fraction
    if isinstance(value, bool) or value is None:
        raise BadParameter(name, value, f"{'an integer' if integer else 'a number'} ({NUMBER_FORMS}), not {value!r}")
    if isinstance(value, str):
        text = value.strip()
        if len(text) > MAX_NUMBER_CHARS:
            raise BadParameter(name, value[:20] + "...", f"a number of at most {MAX_NUMBER_CHARS} characters")
        if _FRACTION.fullmatch(text):
            numerator, denominator = text.split("/")
            if int(denominator) == 0:
                raise BadParameter(name, value, "a fraction p/q with q != 0")
            number = Fraction(int(numerator), int(denominator))
        elif _DECIMAL.fullmatch(text):
            as_float = float(text)
            if not math.isfinite(as_float):
                raise BadParameter(name, value, "a finite number (this one overflows a double)")
            # Exact for integers (n = 12345678901234567891 is not rounded to a double first).
            number = Fraction(text) if integer else as_float
        elif text.lower().lstrip("+-") in ("nan", "inf", "infinity"):
            raise BadParameter(name, value, f"a finite number ({NUMBER_FORMS})")
        else:
            raise BadParameter(name, value, NUMBER_FORMS)
    elif isinstance(value, numbers.Integral):  # int, numpy integers
        number = int(value)
    elif isinstance(value, Fraction):
        number = value
    elif isinstance(value, Decimal):
        if not value.is_finite():
            raise BadParameter(name, value, "a finite number")
        # Exactly, unless the exponent is far outside a double's (Fraction(Decimal("1E+999999999"))
        # would build a billion-digit integer): such a value goes through float (inf or 0 / subnormal).
        number = Fraction(value) if abs(value.adjusted()) <= 400 else float(value)
        if not math.isfinite(number):
            raise BadParameter(name, value, "a finite number within the range of a double")
    elif isinstance(value, numbers.Real):  # float, numpy floats
        number = float(value)
        if not math.isfinite(number):
            raise BadParameter(name, value, "a finite number")
    else:
        raise BadParameter(name, value, f"a number ({NUMBER_FORMS}), not a {type(value).__name__}")
    if integer:
        if isinstance(number, float):
            if not number.is_integer():
                raise BadParameter(name, value, f"an integer {name}")
            return int(number)
        if isinstance(number, Fraction):
            if number.denominator != 1:
                raise BadParameter(name, value, f"an integer {name}")
            return int(number)
    return number


def check_supported_range(name: str, value: int | float) -> None:
    """Refuse, before any work, a value of eps0, n, delta or k beyond the supported range
    (`shuffle_spec.interface.limits`); values below a parameter's own assumptions (eps0 <= 0, ...) are left to
    the statement's hypotheses, which say which one fails."""
    if name == "eps0" and value > EPS0_MAX:
        raise BadParameter(name, value, f"0 < eps0 <= {EPS0_MAX:g} (the supported range)")
    if name == "n" and value > N_MAX:
        raise BadParameter(name, value, f"1 <= n <= {N_MAX:.0e} (the supported range)")
    if name == "delta" and 0 < value < DELTA_MIN:
        raise BadParameter(name, value, f"{DELTA_MIN:g} <= delta < 1 (the supported range)")
    if name == "k" and value > K_MAX:
        raise BadParameter(name, value, f"2 <= k <= {K_MAX:.0e} (the supported range)")


def require_supported(name: str, value: int | float) -> None:
    """The whole supported range of eps0, n, delta, k (below and above), for the commands that sweep
    bounds (`bounds`, `compare`, `plot`): they refuse a point outside it before doing any work."""
    check_supported_range(name, value)
    if name == "eps0" and not value > 0:
        raise BadParameter(name, value, f"0 < eps0 <= {EPS0_MAX:g} (the supported range)")
    if name == "n" and not value >= 1:
        raise BadParameter(name, value, f"1 <= n <= {N_MAX:.0e} (the supported range)")
    if name == "delta" and not DELTA_MIN <= value < 1:
        raise BadParameter(name, value, f"{DELTA_MIN:g} <= delta < 1 (the supported range)")
    if name == "k" and not value >= 2:
        raise BadParameter(name, value, f"2 <= k <= {K_MAX:.0e} (the supported range)")


def supported_point(eps0: object, n: object, delta: object) -> dict[str, float | int]:
    """(eps0, n, delta) parsed strictly (`parse_number`: eps0 and delta as floats, n as an int) and checked against
    the supported range (`require_supported`), for the entry points that rank or certify at one point (`tightest`,
    `certify`, the command line's point): a bad value is refused in one line naming it, before any work."""
    point: dict[str, float | int] = {
        "eps0": float(parse_number("eps0", eps0)),
        "n": parse_number("n", n, integer=True),
        "delta": float(parse_number("delta", delta)),
    }
    for name, value in point.items():
        require_supported(name, value)
    return point


def coerce_params(statement: Statement | Entry, raw: Mapping[str, object]) -> dict[str, float | int]:
    """Keyword arguments for the reference: integers for integer symbols, floats otherwise; every value
    parsed strictly (`parse_number`) and checked against the supported range (`check_supported_range`)."""
    allowed = statement.input_names
    unknown = sorted(set(raw) - set(allowed))
    if unknown:
        raise UsageError(f"{statement.id} has no parameter {', '.join(unknown)}; its parameters are {', '.join(allowed)}")
    missing = [name for name in allowed if name not in raw]
    if missing:
        raise UsageError(f"{statement.id} needs parameter(s) {', '.join(missing)} (all of: {', '.join(allowed)})")
    params: dict[str, float | int] = {}
    for name in allowed:
        value = parse_number(name, raw[name], integer=bool(statement.symbol(name).is_integer))
        if not isinstance(value, int):
            try:
                value = float(value)
            except OverflowError:
                raise BadParameter(name, raw[name], "a number within the range of a double") from None
        check_supported_range(name, value)
        params[name] = value
    return params


def reference_result(statement: Statement | Entry, result: object) -> tuple[float, tuple[float, float] | None, str]:
    """(value, interval, note) of what a statement's reference returned, by the one result type: a `BoundValue`
    whose direction is the statement's (its `value`, the certified end in that direction, is the number shown;
    its ends are the interval); it is required of every upper or lower bound. The other scalar statements (exact
    values: protocol bit counts and variances, similarities that are equalities) may return a plain real number
    (int, float, Fraction), shown as it is, without an interval. Anything else is a `ReferenceResultError`."""
    direction = statement.direction.value
    if isinstance(result, BoundValue):
        if result.direction != direction:
            raise ReferenceResultError(
                f"{statement.id}: its reference {statement.reference} returned a {result.direction} result, but the statement is a {direction}"
            )
        return float(result.value), (float(result.lower), float(result.upper)), result.note
    if direction in ("upper_bound", "lower_bound") or "amplification" in statement.tags:
        raise ReferenceResultError(
            f"{statement.id}: its reference {statement.reference} returned a {type(result).__name__}, not a BoundValue (every {direction.replace('_', ' ')} returns one)"
        )
    if isinstance(result, numbers.Real) and not isinstance(result, bool):
        return float(result), None, ""
    raise ReferenceResultError(
        f"{statement.id}: its reference {statement.reference} returned a {type(result).__name__}, neither a BoundValue nor a real number"
    )


def _unusable(statement: Statement | Entry, value: float, interval: tuple[float, float] | None) -> str:
    """Why a number the reference returned cannot be shown as an answer ("" when it can)."""
    shown = [value] + (list(interval) if interval is not None else [])
    if not all(math.isfinite(v) for v in shown):
        return f"the reference returned {value!r}, not a finite number: nothing certified here"
    if statement.is_amplification_bound and value < 0:
        return f"the reference returned a negative epsilon {value!r}: nothing certified here"
    return ""


def evaluate(statement: Statement | Entry, raw: Mapping[str, object], *, with_effective_delta: bool = True) -> Evaluation:
    """Evaluate the statement's reference at `raw` parameters, hypotheses checked on both sides.

    Parameters are parsed strictly and checked against the supported range first (`coerce_params`:
    `BadParameter`, before any work). A refusal of the reference (ValueError), an overflow inside it
    (ArithmeticError) or a number that is not a finite (for amplification bounds: non-negative)
    epsilon is an answer `valid: false` with the reason, never a traceback or a number shown.
    A statement whose conclusion holds at a delta other than its input `delta` (`effective_delta`) gets that
    delta with its value, or is refused (`_with_effective_delta`); `with_effective_delta=False` leaves that
    out, for the inversion that evaluates the delta' provider itself (`api.shuffled_delta`) only."""
    if not statement.is_evaluable:
        raise UsageError(f"{statement.id} is a {statement.kind.name.lower()} about distributions, not evaluable from scalar parameters")
    params = coerce_params(statement, raw)
    try:
        statement.check_hypotheses(params)
    except HypothesisError as failure:
        return Evaluation(statement.id, params, None, False, str(failure), error=failure)
    try:
        result = reference_function(statement)(**params)
        # Inside the try: a Fraction beyond a double's range overflows here, a refusal like any overflow.
        value, interval, note = reference_result(statement, result)
    except ValueError as failure:  # ParameterError / HypothesisViolation: the reference refuses
        return Evaluation(statement.id, params, None, False, str(failure), error=failure)
    except ArithmeticError as failure:  # overflow or the like inside the reference: a refusal, never a traceback
        return Evaluation(statement.id, params, None, False, f"the reference cannot compute this point ({type(failure).__name__}: {failure})")
    problem = _unusable(statement, value, interval)
    if problem:
        return Evaluation(statement.id, params, None, False, problem)
    evaluation = Evaluation(statement.id, params, value, True, note, interval)
    mark = getattr(statement, "effective_delta", None)
    return evaluation if mark is None or not with_effective_delta else _with_effective_delta(statement, mark, evaluation)


def _with_effective_delta(statement: Statement | Entry, mark: EffectiveDelta, evaluation: Evaluation) -> Evaluation:
    """A valid evaluation of a statement whose conclusion holds at a delta other than its input `delta`
    (`spec.terms.EffectiveDelta`): the value with that delta (JSON `delta_effective`, computed by the provider
    statement at the same inputs, its certified upper end) and its formula (`delta_effective_formula`), or a
    refusal where nothing is certified: the provider refuses, the delta is >= 1, or the statement takes a
    `delta` but its effective delta cannot be computed from the inputs."""
    from ..spec.catalog import Entry, resolve  # the provider as the statement itself was resolved

    params = evaluation.params
    extra: dict[str, Any] = {"delta_effective_formula": mark.formula}
    requested = params.get("delta")

    def refused(reason: str) -> Evaluation:
        # Typed like every refusal: the statement certifies nothing here, because its delta' is not < 1 or
        # not computable (the hypothesis it fails is that its conclusion holds at a usable delta).
        error = HypothesisViolation(statement.id, f"delta' < 1 ({mark.formula})", params)
        return Evaluation(statement.id, params, None, False, reason, extra=extra, error=error)

    if not mark.provider:
        if requested is not None:
            return refused(f"{statement.id}: its value holds at {mark.formula}, not at the requested delta = {requested!r}, and that delta cannot be computed from the inputs: nothing certified")
        note = f"holds at delta = {mark.formula}"
        return Evaluation(statement.id, params, evaluation.value, True, "; ".join(filter(None, (note, evaluation.reason))), evaluation.interval, extra)
    provider = resolve(mark.provider) if isinstance(statement, Entry) else _registered(mark.provider)
    answer = evaluate(provider, {name: params[name] for name in provider.input_names})
    if not answer.valid or answer.value is None:
        return refused(f"{statement.id}: the delta' at which its value holds ({mark.provider}) is not certified here: {answer.reason}")
    effective = answer.value
    if not effective < 1:
        return refused(
            f"{statement.id}: its value {evaluation.value!r} holds only at {mark.formula} = {effective!r} >= 1: nothing certified at these parameters"
        )
    extra = {"delta_effective": effective, **extra}
    if requested is not None and effective > requested:
        note = f"at delta' = {effective:.6g} ({mark.formula}), not at the requested delta = {requested:g}"
    else:
        note = f"at delta' = {effective:.6g} <= the requested delta ({mark.formula})"
    return Evaluation(statement.id, params, evaluation.value, True, "; ".join(filter(None, (note, evaluation.reason))), evaluation.interval, extra)


def _registered(statement_id: str) -> Statement:
    from ..spec.registry import get_statement

    return get_statement(statement_id)
