"""Spec-vs-reference agreement, generated for every registered statement.

- every statement's reference function exists;
- at each of a statement's `examples`, the closed form `value` (SymPy, 30 digits) and the reference
  agree to the statement's `rtol`, and an upper bound's reference is not below the closed form by
  more than floating rounding (the reference may only err upward);
- at each of its `invalid_examples`, the spec reports a failed hypothesis and the reference refuses.
"""

from __future__ import annotations

from functools import partial

from .bridge import evaluate, reference_function
from .framework import CheckFailed, ProofCheck, register_check_source, require
from ..spec.registry import list_statements
from ..spec.statement import Direction, Statement

__all__ = ["agreement_checks"]

# Relative slack below the exact closed form that float rounding of a correct upper bound cannot exceed.
ROUNDING_SLACK = 1e-12


def _check_reference_exists(statement: Statement) -> None:
    function = reference_function(statement)
    require(callable(function), f"{statement.reference} is not callable")


def _check_example(statement: Statement, example: dict) -> None:
    exact = float(statement.evaluate_value(example))
    evaluation = evaluate(statement, example)
    require(evaluation.valid, f"reference refused a point inside the hypotheses: {evaluation.reason}")
    got = evaluation.value
    if got is None:  # a valid evaluation has a value
        raise CheckFailed(f"reference gave no value at {example}")
    scale = max(abs(exact), 1e-300)
    require(abs(got - exact) <= statement.rtol * scale, f"reference {got!r} vs spec {exact!r} at {example} (rtol {statement.rtol})")
    if statement.direction is Direction.UPPER_BOUND:
        require(got >= exact * (1 - ROUNDING_SLACK) if exact >= 0 else got >= exact * (1 + ROUNDING_SLACK), f"reference {got!r} is below the exact upper bound {exact!r} at {example}")


def _check_invalid_example(statement: Statement, example: dict) -> None:
    failed = statement.failed_hypotheses(example, first_only=True)
    require(failed, f"spec finds no failed hypothesis at {example}")
    if not statement.is_evaluable:
        return  # its reference takes distributions, not these scalars: the spec side is what is checked
    evaluation = evaluate(statement, example)
    require(not evaluation.valid, f"spec rejects {example} but the reference returned {evaluation.value}")
    try:
        reference_function(statement)(**example)
    except ValueError:
        return
    raise CheckFailed(f"reference accepted {example}, outside the hypotheses {failed}")


def agreement_checks() -> tuple[ProofCheck, ...]:
    checks: list[ProofCheck] = []
    for statement in list_statements():
        checks.append(ProofCheck(statement.id, "reference exists", partial(_check_reference_exists, statement)))
        if statement.value is not None:
            for index, example in enumerate(statement.examples):
                checks.append(ProofCheck(statement.id, f"spec = reference at example {index}", partial(_check_example, statement, dict(example))))
        for index, example in enumerate(statement.invalid_examples):
            checks.append(ProofCheck(statement.id, f"both refuse invalid example {index}", partial(_check_invalid_example, statement, dict(example))))
    return tuple(checks)


# The framework imports this module by its dotted name (CHECK_MODULES) and collects these checks
# through this registration; it never imports this module's names, so the two form no import cycle.
register_check_source(agreement_checks)
