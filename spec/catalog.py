"""Statements as the catalog describes them: what `eval`, `list` and the API need, without SymPy.

An `Entry` stands in for a `spec.statement.Statement` wherever only its description and its hypotheses
check are needed (`bridge.evaluate`, `shuffle-spec eval / list`, the default report, the API). Its
hypotheses are checked from the catalog's mpmath expressions (`spec/registry.py`, `build_catalog`):

- each symbol assumption (`eps0 > 0`, `n integer`) in plain Python, exactly;
- each hypothesis whose sides are rational functions of the inputs (`k >= 2`, `delta < 1`) exactly, in
  `Fraction`s (ties on a boundary included), and "x is a power of 2" in integers;
- any other hypothesis `lhs (op) rhs` evaluated in mpmath at 30 and at 60 significant digits; it is decided only when
  both precisions agree and the difference stands clear of the rounding error (relative 1e-20 of the
  sides' magnitude); a side that is not a finite real (log of a negative number, a division by zero)
  fails it, as in `Statement.failed_hypotheses`;
- anything not decided this way (a near tie, floor/ceiling, equalities) is decided by the SymPy
  statement itself (`Statement.check_hypotheses`), built on demand.

So an `Entry` refuses exactly where its statement does: `tests/spec/test_catalog.py` checks this over every
registered example and invalid example. The catalog is used only while it matches the spec's sources
(`spec.registry.catalog`); otherwise `resolve` returns the SymPy statement.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Mapping, cast

from . import registry as _registry
from .terms import Direction, EffectiveDelta, HypothesisError, Kind, Source

if TYPE_CHECKING:
    from .statement import Statement

__all__ = ["Entry", "Parameter", "entries", "entry", "resolve"]

PRECISIONS = (30, 60)
# A difference smaller than this fraction of the sides' magnitude is a near tie for SymPy to decide.
TIE = 1e-20


@dataclass(frozen=True)
class Parameter:
    """An input with its symbol's assumptions (the attribute names SymPy symbols use)."""

    name: str
    is_integer: bool
    is_positive: bool
    is_nonnegative: bool

    def __str__(self) -> str:
        return self.name

    def assumption_failure(self, value: object) -> str | None:
        """The assumption `value` violates, as text (`delta > 0`, `n integer`), or None."""
        if isinstance(value, float) and not math.isfinite(value):
            # As `spec.statement.to_exact`: a non-finite value is not a number any statement speaks of.
            raise ValueError(f"expected a finite number, got {value!r}")
        if self.is_positive and not value > 0:  # type: ignore[operator]
            return f"{self.name} > 0"
        if self.is_nonnegative and not self.is_positive and not value >= 0:  # type: ignore[operator]
            return f"{self.name} >= 0"
        if self.is_integer and not _is_integral(value):
            return f"{self.name} integer"
        return None


def _is_integral(value: object) -> bool:
    if isinstance(value, int):
        return True
    if isinstance(value, Fraction):
        return value.denominator == 1
    return isinstance(value, float) and value.is_integer()


@dataclass(frozen=True)
class _Hypothesis:
    name: str
    # "<", "<=", ">", ">=", "power_of_two" (exact, on an integer input), "open" (never decided on the
    # inputs) or None (SymPy decides)
    op: str | None
    lhs: str | None
    rhs: str | None
    exact: tuple[str, str] | None = None  # both sides as Fraction arithmetic (rational functions only)


_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "<": lambda d, z: d < z,
    "<=": lambda d, z: d <= z,
    ">": lambda d, z: d > z,
    ">=": lambda d, z: d >= z,
}


class Entry:
    """One catalogued statement (see the module docstring); the attributes mirror `Statement`'s."""

    def __init__(self, record: Mapping[str, Any]):
        self.id: str = record["id"]
        self.module: str = record["module"]
        self.kind = Kind(record["kind"])
        self.title: str = record["title"]
        self.source = Source(**record["source"])
        self.direction = Direction(record["direction"])
        self.reference: str = record["reference"]
        self.inputs = tuple(
            Parameter(p["name"], p["integer"], p["positive"], p["nonnegative"]) for p in record["inputs"]
        )
        self.output: str | None = record["output"]
        self.mechanism: str = record["mechanism"]
        self.tags = frozenset(record["tags"])
        self.rtol: float = record["rtol"]
        self.has_value: bool = record["has_value"]
        mark = record.get("effective_delta")
        self.effective_delta: EffectiveDelta | None = None if mark is None else EffectiveDelta(mark["provider"], mark["formula"])
        self._hypotheses = tuple(
            _Hypothesis(h["name"], h["op"], h["lhs"], h["rhs"], tuple(h["exact"]) if h.get("exact") else None)  # type: ignore[arg-type]
            for h in record["hypotheses"]
        )

    def __repr__(self) -> str:
        return f"Entry({self.id!r})"

    @property
    def paper(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def input_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.inputs)

    @property
    def is_evaluable(self) -> bool:
        return bool(self.inputs)

    @property
    def is_amplification_bound(self) -> bool:
        return "amplification" in self.tags and {"eps0", "n", "delta"} <= set(self.input_names)

    @property
    def hypothesis_names(self) -> tuple[str, ...]:
        return tuple(h.name for h in self._hypotheses)

    def symbol(self, name: str) -> Parameter:
        for parameter in self.inputs:
            if parameter.name == name:
                return parameter
        raise KeyError(f"{self.id} has no parameter {name!r}; it has {list(self.input_names)}")

    def statement(self) -> Statement:
        """The SymPy statement (built on demand: it imports the paper module)."""
        return _registry.get_statement(self.id)

    @cached_property
    def _exact(self) -> tuple[tuple[Callable[..., Any], Callable[..., Any]] | None, ...]:
        namespace = {"Fraction": Fraction}
        args = ", ".join(f"a{i}" for i in range(len(self.inputs)))
        return tuple(
            (eval(f"lambda {args}: {h.exact[0]}", namespace), eval(f"lambda {args}: {h.exact[1]}", namespace))
            if h.op in _OPS and h.exact is not None
            else None
            for h in self._hypotheses
        )

    @cached_property
    def _compiled(self) -> tuple[tuple[Callable[..., Any], Callable[..., Any]] | None, ...]:
        import mpmath

        namespace = {"mpmath": mpmath, "min": min, "max": max, "abs": abs}
        args = ", ".join(f"a{i}" for i in range(len(self.inputs)))
        compiled: list[tuple[Callable[..., Any], Callable[..., Any]] | None] = []
        for h in self._hypotheses:
            if h.op in _OPS and h.exact is None and h.lhs is not None and h.rhs is not None:
                compiled.append((eval(f"lambda {args}: {h.lhs}", namespace), eval(f"lambda {args}: {h.rhs}", namespace)))
            else:
                compiled.append(None)
        return tuple(compiled)

    def failed_hypothesis(self, values: Mapping[str, object]) -> str | None:
        """The short name of the first assumption or hypothesis that is definitely false at `values`
        (None when all hold or are undecided), decided as `Statement.check_hypotheses` decides it."""
        for parameter in self.inputs:
            if parameter.name in values:
                broken = parameter.assumption_failure(values[parameter.name])
                if broken is not None:
                    return broken
        undecided = False
        arguments = [values[p.name] for p in self.inputs]
        for h, sides, exact in zip(self._hypotheses, self._compiled, self._exact, strict=True):
            if h.op == "open":
                continue
            if exact is not None and h.op is not None:
                # A rational function of the inputs: decided exactly, ties included.
                try:
                    rationals = cast("list[Any]", arguments)  # numbers (assumptions checked above): Fraction() takes each exactly
                    holds = _OPS[h.op](exact[0](*map(Fraction, rationals)) - exact[1](*map(Fraction, rationals)), 0)
                except ZeroDivisionError:
                    holds = False  # a side is not a finite real: the inequality cannot hold
                if not holds:
                    return h.name
                continue
            if h.op == "power_of_two" and h.lhs is not None:
                # An integer input (its assumption is checked above): exact integer arithmetic.
                whole = int(values[self.inputs[int(h.lhs[1:])].name])  # type: ignore[call-overload]
                if whole < 1 or whole & (whole - 1):
                    return h.name
                continue
            verdict = None if sides is None or h.op is None else _decide(h.op, sides, arguments)
            if verdict is None:
                undecided = True
                break
            if verdict is False:
                return h.name
        if undecided:
            # SymPy decides (and its answer is the reference for the SymPy-free path's agreement test).
            try:
                self.statement().check_hypotheses(values)
            except HypothesisError as failure:
                return failure.hypothesis
        return None

    def check_hypotheses(self, values: Mapping[str, object]) -> None:
        """Raise `HypothesisError` naming the first hypothesis that is definitely false at `values`."""
        failed = self.failed_hypothesis(values)
        if failed is not None:
            raise HypothesisError(self.id, failed, values)


def _as_mpf(value: object) -> Any:
    import mpmath

    if isinstance(value, Fraction):
        return mpmath.mpf(value.numerator) / value.denominator
    return mpmath.mpf(value)  # exact for ints and floats


def _decide(op: str, sides: tuple[Callable[..., Any], Callable[..., Any]], values: list[object]) -> bool | None:
    """True / False when both precisions decide `lhs op rhs` the same way; None otherwise."""
    import mpmath

    verdicts = set()
    for digits in PRECISIONS:
        with mpmath.workdps(digits):
            args = [_as_mpf(v) for v in values]
            try:
                lhs, rhs = mpmath.mpmathify(sides[0](*args)), mpmath.mpmathify(sides[1](*args))
            except (ZeroDivisionError, ValueError, OverflowError, TypeError):
                verdicts.add(False)  # a side is not a finite real: the inequality cannot hold
                continue
            if not all(isinstance(x, mpmath.mpf) and mpmath.isfinite(x) for x in (lhs, rhs)):
                # Complex, nan or infinite sides: SymPy would decide an infinite side; leave it to SymPy.
                if any(isinstance(x, mpmath.mpc) and x.imag != 0 for x in (lhs, rhs)):
                    verdicts.add(False)
                else:
                    return None
                continue
            difference = lhs - rhs
            scale = max(mpmath.mpf(1), abs(lhs), abs(rhs))
            if abs(difference) <= scale * TIE:
                return None
            verdicts.add(bool(_OPS[op](difference, 0)))
    return verdicts.pop() if len(verdicts) == 1 else None


def entries() -> dict[str, Entry] | None:
    """id -> Entry for every catalogued statement, or None when the catalog does not apply (stale, or a
    test has replaced the registry)."""
    if not _registry.registry_is_default():
        return None
    index = _registry.catalog()
    if index is None:
        return None
    if _CACHE.get("index") is not index:
        _CACHE.clear()
        _CACHE.update(index=index, entries={statement_id: Entry(record) for statement_id, record in index.items()})
    return _CACHE["entries"]


_CACHE: dict[str, Any] = {}


def entry(statement_id: str) -> Entry | None:
    """The catalogued entry of `statement_id`, or None when the catalog does not apply or lacks it."""
    found = entries()
    return None if found is None else found.get(statement_id)


def resolve(statement_id: str) -> Entry | Statement:
    """The SymPy-free `Entry` when the catalog applies, else the SymPy statement (`KeyError` for an unknown id)."""
    found = entries()
    if found is not None:
        if statement_id in found:
            return found[statement_id]
        raise KeyError(_registry._unknown(statement_id, found))
    return _registry.get_statement(statement_id)


def all_statements() -> tuple[Entry | Statement, ...]:
    """Every registered statement: catalog entries when the catalog applies, else SymPy statements."""
    found = entries()
    return tuple(found.values()) if found is not None else _registry.list_statements()
