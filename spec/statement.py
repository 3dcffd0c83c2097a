"""The `Statement`: one definition, lemma, theorem, corollary, algorithm or numerical procedure.

A statement is data: SymPy symbols with their assumptions, hypotheses as relations, the conclusion as
expressions, its source and the name of the reference function that implements it independently.
Nothing here computes a bound numerically; that is `reference/`'s job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Mapping

import sympy as sp

from .terms import Direction, EffectiveDelta, HypothesisError, Kind, Source

__all__ = [
    "Direction",
    "EffectiveDelta",
    "HypothesisError",
    "Kind",
    "Source",
    "Statement",
    "assumption_text",
    "is_valid_statement_id",
    "to_exact",
]

PAPERS = ("EFMRTT19", "BBGN19", "BBGN19v1", "FMT21", "FMT23", "EFMRSTT20", "exact", "compose")

# `<PAPER>.<Kind><Number>[.<variant>]` or `<PAPER>.<descriptive_name>[.<variant>]`; numbers may carry
# a section prefix (`LemII.6`, `CorA.2`). `exact.` (exact values and certified bounds on the truth)
# and `compose.` (many-round accounting) are not papers and only have descriptive names.
_ID_PATTERN = re.compile(
    r"^(?P<paper>EFMRTT19|BBGN19v1|BBGN19|FMT21|FMT23|EFMRSTT20|exact|compose)\."
    r"(?:(?P<kind>Def|Lem|Thm|Cor|Prop|Alg)(?:[A-Z]+\.)?\d+(?:\.\d+)*(?:\.[a-z][a-z0-9_]*)?"
    r"|(?P<name>[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)?))$"
)


def is_valid_statement_id(statement_id: str) -> bool:
    """Whether `statement_id` follows the public id scheme (see docs/commands.md, "Statement ids")."""
    match = _ID_PATTERN.match(statement_id)
    if match is None:
        return False
    # Numbered kinds belong to the papers; `exact.` and `compose.` only have descriptive names.
    return not (match.group("paper") in ("exact", "compose") and match.group("kind"))


def to_exact(value: object) -> sp.Basic:
    """The exact SymPy number equal to `value` (a float is taken as the binary number it is)."""
    if isinstance(value, bool):
        raise TypeError(f"expected a number, got {value!r}")
    if isinstance(value, (int, Fraction)):
        return sp.Rational(value.numerator, value.denominator) if isinstance(value, Fraction) else sp.Integer(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"expected a finite number, got {value!r}")
        num, den = value.as_integer_ratio()
        return sp.Rational(num, den)
    return sp.sympify(value)


@dataclass(frozen=True)
class Statement:
    """One registered statement.

    `inputs` are the scalar parameters the paired reference function takes as keyword arguments
    (empty for statements about distributions or randomizers, which the CLI cannot evaluate from
    scalars). `value` is the expression of the quantity the reference function returns, in terms of
    `inputs`, where a closed form exists; `output` names that quantity (e.g. the central `eps`).
    `examples` are points inside the hypotheses at which spec and reference are compared;
    `invalid_examples` are points outside them, which both sides must refuse. `effective_delta` marks a
    statement whose conclusion holds at a delta other than its input `delta` (see `EffectiveDelta`).
    """

    id: str
    kind: Kind
    title: str
    source: Source
    symbols: tuple[sp.Symbol, ...]
    hypotheses: tuple[sp.Basic, ...]
    conclusion: tuple[sp.Basic, ...]
    direction: Direction
    reference: str
    notes: str = ""
    inputs: tuple[sp.Symbol, ...] = ()
    output: sp.Symbol | None = None
    value: sp.Expr | None = None
    mechanism: str = ""
    examples: tuple[Mapping[str, float], ...] = ()
    invalid_examples: tuple[Mapping[str, float], ...] = ()
    rtol: float = 1e-9
    tags: frozenset[str] = field(default_factory=frozenset)
    # Short human names of the hypotheses, in their order ("" keeps the default: the hypothesis's own
    # text when it is short and readable). A reason quotes the name, `show` the full expression.
    hypothesis_names: tuple[str, ...] = ()
    # Set when the conclusion holds at a delta other than the input `delta` (FMT21 Prop 2.2: delta' from
    # delta0; composition: k delta + delta'): the statement giving that delta, or its formula. Everything that
    # shows the value shows that delta with it, or refuses (`proofs_checks.bridge.evaluate`).
    effective_delta: EffectiveDelta | None = None

    def __post_init__(self) -> None:
        if not is_valid_statement_id(self.id):
            raise ValueError(f"statement id {self.id!r} does not follow the id scheme")
        if ":" not in self.reference:
            raise ValueError(f"{self.id}: reference must be 'module:function', got {self.reference!r}")
        known = set(self.symbols)
        for sym in self.inputs:
            if sym not in known:
                raise ValueError(f"{self.id}: input {sym} is not among the statement's symbols")
        for hypothesis in self.hypotheses:
            if hypothesis in (sp.true, sp.false):
                raise ValueError(
                    f"{self.id}: a hypothesis evaluated to {hypothesis} when built; one implied by a symbol's "
                    "assumptions is stated by that assumption, not repeated as a hypothesis"
                )
        if self.hypothesis_names and len(self.hypothesis_names) != len(self.hypotheses):
            raise ValueError(f"{self.id}: {len(self.hypothesis_names)} hypothesis names for {len(self.hypotheses)} hypotheses")
        for name in self.hypothesis_names:
            if len(name) > MAX_HYPOTHESIS_NAME or "Piecewise" in name:
                raise ValueError(f"{self.id}: hypothesis name {name[:40]!r}... is not a short human name (at most {MAX_HYPOTHESIS_NAME} characters)")
        if self.effective_delta is not None:
            mark = self.effective_delta
            if not mark.formula or (mark.provider and not is_valid_statement_id(mark.provider)) or mark.provider == self.id:
                raise ValueError(f"{self.id}: effective_delta needs a formula and, if any, another statement's id as provider")
        for expr in (*self.hypotheses, *self.conclusion, *(() if self.value is None else (self.value,))):
            stray = expr.free_symbols - known
            if stray:
                raise ValueError(f"{self.id}: symbols {sorted(map(str, stray))} are not declared")

    @property
    def paper(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def input_names(self) -> tuple[str, ...]:
        return tuple(str(s) for s in self.inputs)

    @property
    def is_evaluable(self) -> bool:
        """Whether the reference can be called with scalar parameters (`shuffle-spec eval`)."""
        return bool(self.inputs)

    @property
    def is_amplification_bound(self) -> bool:
        """A bound on central eps of a shuffled eps0-LDP randomizer, evaluable from (eps0, n, delta)."""
        names = set(self.input_names)
        return "amplification" in self.tags and {"eps0", "n", "delta"} <= names

    @property
    def assumptions(self) -> tuple[str, ...]:
        """The symbols' assumptions, as text such as `eps0 > 0` or `n integer >= 1`."""
        return tuple(assumption_text(s) for s in self.symbols)

    def symbol(self, name: str) -> sp.Symbol:
        for sym in self.symbols:
            if str(sym) == name:
                return sym
        raise KeyError(f"{self.id} has no parameter {name!r}; it has {[str(s) for s in self.symbols]}")

    def substitution(self, values: Mapping[str, object]) -> dict[sp.Symbol, sp.Basic]:
        return {self.symbol(name): to_exact(v) for name, v in values.items()}

    def failed_hypotheses(self, values: Mapping[str, object], first_only: bool = False) -> list[sp.Basic]:
        """The hypotheses that are definitely false at `values` (undecided ones are not listed), in their order;
        with first_only, at most the first of them (the later ones are not evaluated: deciding a Piecewise
        hypothesis can cost seconds of SymPy)."""
        subs = self.substitution(values)
        failed = _assumption_relations(subs)
        if failed:
            # Values outside the symbols' domains can make the other hypotheses meaningless
            # (log(1/delta) at delta = 0); the violated assumptions are the answer.
            return failed
        for hypothesis in self.hypotheses:
            try:
                # xreplace puts every value in at once; subs substitutes one symbol after another and asks SymPy's
                # assumptions about each partly substituted Piecewise (seconds where xreplace takes milliseconds).
                # The same truth values at every statement's examples and invalid examples (compared when changed).
                truth = hypothesis.xreplace(subs)
                if truth is sp.false or truth == sp.false:
                    failed.append(hypothesis)
                elif isinstance(truth, sp.core.relational.Relational) and not truth.free_symbols:
                    if _decide(truth) is False:
                        failed.append(hypothesis)
            except (TypeError, ValueError):
                # A side became non-real or infinite (the log of a negative number, a division by
                # zero giving zoo): the hypothesis, an inequality between reals, cannot hold.
                failed.append(hypothesis)
            if failed and first_only:
                break
        return failed

    def hypothesis_name(self, hypothesis: sp.Basic) -> str:
        """The short human name of one of the hypotheses (or of a violated symbol assumption).

        The name given in `hypothesis_names`, else the hypothesis's text when it is short and has no
        `Piecewise`, else `hypothesis <i> of <id>` (the full expression is in `show`)."""
        for index, own in enumerate(self.hypotheses):
            if own == hypothesis:
                if self.hypothesis_names and self.hypothesis_names[index]:
                    return self.hypothesis_names[index]
                text = sp.sstr(hypothesis)
                if len(text) <= MAX_HYPOTHESIS_NAME and "Piecewise" not in text:
                    return text
                return f"hypothesis {index + 1} of {self.id} (see `shuffle-spec show {self.id}`)"
        return _assumption_name(hypothesis)

    def check_hypotheses(self, values: Mapping[str, object]) -> None:
        """Raise `HypothesisError` naming (by its short name) the first hypothesis that is definitely
        false at `values`."""
        failed = self.failed_hypotheses(values, first_only=True)
        if failed:
            raise HypothesisError(self.id, self.hypothesis_name(failed[0]), values)

    def evaluate_value(self, values: Mapping[str, object], digits: int = 30) -> sp.Float:
        """The closed form `value` at `values`, to `digits` significant digits."""
        if self.value is None:
            raise ValueError(f"{self.id} has no closed-form value")
        self.check_hypotheses(values)
        return sp.N(self.value.xreplace(self.substitution(values)), digits)  # all at once, as in failed_hypotheses


# A hypothesis's default name is its text only when at most this long; longer ones need a name.
MAX_HYPOTHESIS_NAME = 120


def _assumption_name(relation: sp.Basic) -> str:
    """`n integer` for the integrality relation n = floor(n); the relation's text otherwise."""
    if isinstance(relation, sp.Eq) and isinstance(relation.rhs, sp.floor):
        return f"{relation.lhs} integer"
    return sp.sstr(relation)


def _decide(relation: sp.Basic) -> bool | None:
    """Decide a closed relation between real numbers numerically at rising precision."""
    lhs = relation.lhs - relation.rhs
    for digits in (30, 60, 120):
        approx = sp.N(lhs, digits)
        # The difference must stand clear of the rounding error of its two sides, which is relative
        # to their magnitude (n = 1e12 against a log is not decided to absolute 1e-20).
        scale = max(sp.Float(1), abs(sp.N(relation.lhs, digits)), abs(sp.N(relation.rhs, digits)))
        if approx.is_comparable and abs(approx) > scale * sp.Float(10) ** (-(digits - 10)):
            return bool(relation.func(approx, 0))
    # Equal to every digit we looked at: exact simplification decides.
    return bool(relation.func(sp.simplify(lhs), 0)) if sp.simplify(lhs).is_number else None


def assumption_text(symbol: sp.Symbol) -> str:
    """`n integer >= 1`, `eps0 > 0`, `eps >= 0` or `x real`: what the symbol's assumptions require."""
    if symbol.is_integer and symbol.is_positive:
        return f"{symbol} integer >= 1"
    if symbol.is_integer and symbol.is_nonnegative:
        return f"{symbol} integer >= 0"
    if symbol.is_positive:
        return f"{symbol} > 0"
    if symbol.is_nonnegative:
        return f"{symbol} >= 0"
    return f"{symbol} real"


def _assumption_relations(subs: Mapping[sp.Symbol, sp.Basic]) -> list[sp.Basic]:
    """The symbols' assumptions that the values violate, as relations on plain real symbols.

    A hypothesis implied by a symbol's assumptions (`eps0 > 0` for a positive `eps0`) evaluates to
    True when the statement is built and so cannot fail later; the assumptions are checked here.
    """
    violated: list[sp.Basic] = []
    for sym, value in subs.items():
        plain = sp.Symbol(sym.name, real=True)
        required = []
        if sym.is_positive:
            required.append(sp.Gt(plain, 0))
        elif sym.is_nonnegative:
            required.append(sp.Ge(plain, 0))
        if sym.is_integer:
            required.append(sp.Eq(plain, sp.floor(plain), evaluate=False))
        for relation in required:
            holds = relation.func(value, relation.rhs.subs(plain, value), evaluate=True)
            if holds is sp.false:
                violated.append(relation)
    return violated
