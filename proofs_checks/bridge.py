"""The bridge between a spec statement and its reference implementation.

It resolves a statement's paired reference function, turns command-line parameters into the
function's keyword arguments by the statement's symbols, checks the statement's hypotheses on the
spec side, and calls the reference (which checks its own hypotheses independently).
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Callable, Mapping

from shuffle_spec.spec.terms import HypothesisError

if TYPE_CHECKING:  # `Statement` or a catalog `Entry` (`proofs_checks.catalog`): SymPy only when needed
    from shuffle_spec.spec.statement import Statement

__all__ = ["Evaluation", "UsageError", "coerce_params", "evaluate", "reference_function"]


class UsageError(ValueError):
    """The call itself is wrong (unknown or missing parameter, non-number): exit code 2."""


@dataclass(frozen=True)
class Evaluation:
    id: str
    params: dict[str, float | int]
    value: float | None
    valid: bool
    reason: str
    interval: tuple[float, float] | None = None
    extra: dict = field(default_factory=dict)
    # The refusal itself (`HypothesisError` from the spec side, `HypothesisViolation` / `ParameterError`
    # from the reference), with its fields; not part of the JSON.
    error: ValueError | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict:
        out = {"id": self.id, "params": self.params, "value": self.value, "valid": self.valid, "reason": self.reason}
        if self.interval is not None:
            out["interval"] = list(self.interval)
        out.update(self.extra)
        return out


def reference_function(statement: Statement) -> Callable:
    module_name, _, function_name = statement.reference.partition(":")
    # Registered statements name their reference relative to the package (`reference.bounds.clones:...`);
    # any other module name (a test's own statements) is imported as it is.
    if module_name.split(".")[0] == "reference":
        module_name = f"shuffle_spec.{module_name}"
    module = importlib.import_module(module_name)
    try:
        return getattr(module, function_name)
    except AttributeError:
        raise LookupError(f"{statement.id}: reference {statement.reference} does not exist") from None


def _parse_number(name: str, text: str | float | int) -> float | int | Fraction:
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return text
    try:
        return Fraction(text) if "/" in text else float(text)
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"parameter {name} = {text!r} is not a number") from None


def coerce_params(statement: Statement, raw: Mapping[str, str | float | int]) -> dict[str, float | int]:
    """Keyword arguments for the reference: integers for integer symbols, floats otherwise."""
    allowed = statement.input_names
    unknown = sorted(set(raw) - set(allowed))
    if unknown:
        raise UsageError(f"{statement.id} has no parameter {', '.join(unknown)}; its parameters are {', '.join(allowed)}")
    missing = [name for name in allowed if name not in raw]
    if missing:
        raise UsageError(f"{statement.id} needs parameter(s) {', '.join(missing)} (all of: {', '.join(allowed)})")
    params: dict[str, float | int] = {}
    for name in allowed:
        value = _parse_number(name, raw[name])
        if statement.symbol(name).is_integer:
            as_float = float(value)
            if not math.isfinite(as_float) or as_float != int(as_float):
                raise UsageError(f"parameter {name} = {raw[name]!r} must be an integer")
            params[name] = int(value) if isinstance(value, (int, Fraction)) else int(as_float)
        else:
            params[name] = float(value)
    return params


def evaluate(statement: Statement, raw: Mapping[str, str | float | int]) -> Evaluation:
    """Evaluate the statement's reference at `raw` parameters, hypotheses checked on both sides."""
    if not statement.is_evaluable:
        raise UsageError(f"{statement.id} is a {statement.kind.name.lower()} about distributions, not evaluable from scalar parameters")
    params = coerce_params(statement, raw)
    try:
        statement.check_hypotheses(params)
    except HypothesisError as failure:
        return Evaluation(statement.id, params, None, False, str(failure), error=failure)
    try:
        result = reference_function(statement)(**params)
    except ValueError as failure:
        return Evaluation(statement.id, params, None, False, str(failure), error=failure)
    if hasattr(result, "upper"):
        note = getattr(result, "note", "")
        return Evaluation(statement.id, params, float(result.upper), True, note, (float(result.lower), float(result.upper)))
    return Evaluation(statement.id, params, float(result), True, "")
