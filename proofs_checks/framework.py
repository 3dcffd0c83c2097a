"""Registering and running proof checks.

A proof check is a function that verifies one step of one statement's proof (a simplification, an
inequality, an integral, a limit, a derivative's sign) or the agreement of spec and reference. It
returns normally when the step holds and raises `CheckFailed` saying what failed otherwise.

No check depends on `assert`: `python -O` strips assert statements, and a checker that `-O` turns into
"everything passes" would be no checker. A step is written `require(condition, message)` or through
the helpers below, which raise `CheckFailed` explicitly (tests/checks/test_checker_fails_false_statements.py runs planted
false statements under `python -O`).

Modules that generate checks (the spec-vs-reference agreement) hand a generator to
`register_check_source` when imported; this module imports them by name only (`CHECK_MODULES`), so
there is no import cycle between this module and theirs.
"""

from __future__ import annotations

import importlib
import time
import traceback
from dataclasses import dataclass
from typing import Callable, Union

import sympy as sp

__all__ = [
    "CheckFailed",
    "CheckResult",
    "ProofCheck",
    "all_checks",
    "proof_check",
    "run_check",
    "assert_identity",
    "assert_nonnegative",
    "register_check_source",
    "require",
]

CHECK_MODULES: tuple[str, ...] = (
    "shuffle_spec.proofs_checks.papers.efmrtt19",
    "shuffle_spec.proofs_checks.papers.bbgn19",
    "shuffle_spec.proofs_checks.papers.fmt21",
    "shuffle_spec.proofs_checks.papers.fmt21_clones",
    "shuffle_spec.proofs_checks.papers.fmt23",
    "shuffle_spec.proofs_checks.papers.efmrstt20",
    "shuffle_spec.proofs_checks.derived.exact_finite",
    "shuffle_spec.proofs_checks.derived.exact_binary_rr",
    "shuffle_spec.proofs_checks.derived.compose",
    "shuffle_spec.proofs_checks.derived.compose_mechanism",
    "shuffle_spec.proofs_checks.derived.compose_blanket",
    "shuffle_spec.proofs_checks.derived.compose_directional",
    "shuffle_spec.proofs_checks.derived.blanket_exact_krr",
    "shuffle_spec.proofs_checks.derived.blanket_exact_randomizer",
    "shuffle_spec.proofs_checks.derived.blanket_exact_laplace",
    "shuffle_spec.proofs_checks.derived.randomizers",
    "shuffle_spec.proofs_checks.derived.piecewise",
    "shuffle_spec.proofs_checks.agreement",
)

_CHECKS: list["ProofCheck"] = []
_CHECK_SOURCES: list[Callable[[], tuple["ProofCheck", ...]]] = []


class CheckFailed(AssertionError):
    """A proof step or agreement check does not hold (raised explicitly, so `python -O` cannot drop it).

    A subclass of `AssertionError` only so that code written against the old convention still sees a
    failure as one; checks raise it with `require`, never with `assert`.
    """


Message = Union[str, Callable[[], str]]


def require(condition: object, message: Message = "check failed") -> None:
    """Raise `CheckFailed(message)` unless `condition` is true.

    `message` may be a zero-argument callable, evaluated only on failure (for messages that cost a
    simplification). A SymPy relation whose truth SymPy cannot decide raises `TypeError` from `bool`,
    which `run_check` reports as a failed check, as an undecided step must be.
    """
    if not condition:
        raise CheckFailed(message() if callable(message) else message)


@dataclass(frozen=True)
class ProofCheck:
    statement_id: str
    name: str
    function: Callable[[], None]


@dataclass(frozen=True)
class CheckResult:
    statement_id: str
    name: str
    passed: bool
    detail: str
    seconds: float


def proof_check(statement_id: str, name: str) -> Callable[[Callable[[], None]], Callable[[], None]]:
    """Register the decorated function as a check of statement `statement_id`."""

    def register(function: Callable[[], None]) -> Callable[[], None]:
        _CHECKS.append(ProofCheck(statement_id, name, function))
        return function

    return register


def register_check_source(source: Callable[[], tuple[ProofCheck, ...]]) -> None:
    """Register a generator of checks (called by `all_checks`); registering the same one twice is a no-op."""
    if source not in _CHECK_SOURCES:
        _CHECK_SOURCES.append(source)


def all_checks() -> tuple[ProofCheck, ...]:
    """Every registered check, in module order (importing the check modules registers them), then the generated ones."""
    for module_name in CHECK_MODULES:
        importlib.import_module(module_name)
    generated: tuple[ProofCheck, ...] = ()
    for source in _CHECK_SOURCES:
        generated += source()
    return tuple(_CHECKS) + generated


def run_check(check: ProofCheck) -> CheckResult:
    """Run one check: passed only if it returns normally; `CheckFailed` (or any other exception) is a failure."""
    start = time.perf_counter()
    try:
        check.function()
    except AssertionError as failure:  # CheckFailed, or an assert in a caller's own check
        return CheckResult(check.statement_id, check.name, False, str(failure) or "assertion failed", time.perf_counter() - start)
    except Exception:  # a crash in a check is a failed check, with its traceback as the detail
        detail = traceback.format_exc(limit=3).strip().splitlines()[-1]
        return CheckResult(check.statement_id, check.name, False, f"error: {detail}", time.perf_counter() - start)
    return CheckResult(check.statement_id, check.name, True, "", time.perf_counter() - start)


def assert_identity(lhs: sp.Expr, rhs: sp.Expr, what: str) -> None:
    """lhs == rhs as expressions (their difference simplifies to 0)."""
    difference = sp.simplify(sp.expand(lhs - rhs))
    if difference != 0:
        raise CheckFailed(f"{what}: {sp.sstr(lhs)} - ({sp.sstr(rhs)}) simplifies to {sp.sstr(difference)}, not 0")


def assert_nonnegative(expr: sp.Expr, what: str) -> None:
    """SymPy proves expr >= 0 under the symbols' assumptions.

    SymPy cannot see that e^x - 1 >= 0 for x >= 0; when its direct attempt is undecided, each
    non-negative symbol x with e^x in the expression is written x = log(1 + w) with w >= 0, so e^x
    becomes 1 + w, and the attempt is repeated.
    """
    verdict = sp.simplify(expr).is_nonnegative
    if verdict is None:
        verdict = _nonnegative_with_exponentials_expanded(expr)
    if verdict is not True:
        raise CheckFailed(f"{what}: cannot show {sp.sstr(expr)} >= 0 (SymPy says {verdict})")


def _nonnegative_with_exponentials_expanded(expr: sp.Expr) -> bool | None:
    substitution = {}
    for symbol in expr.free_symbols:
        if symbol.is_nonnegative and expr.has(sp.exp(symbol)):
            substitution[symbol] = sp.log(1 + sp.Symbol(f"w_{symbol}", nonnegative=True))
    if not substitution:
        return None
    rewritten = sp.simplify(sp.expand(expr.subs(substitution)))
    return rewritten.is_nonnegative
