"""The work of `shuffle-spec derive` (its name, help and options are in `derive.py`, which imports this module only
when the command runs: `derive --help` loads no SymPy).

`shuffle-spec derive ID [--expr EXPRESSION] [--subs NAME=VALUE ...] [--solve NAME] [--series NAME=POINT] [--latex | --python | --json]`.

Works on the statement's closed form `value` (or its conclusion when it has none): integrals and
other unevaluated operations are carried out (`doit`) and the result simplified under the
substitutions; `--solve NAME` solves `output = value` for NAME where SymPy can (and says plainly
when it cannot); `--series NAME=oo` (or a finite point) gives the leading asymptotic term;
`--python` prints a stand-alone Python module whose function returns the closed form as a certified
float (interval arithmetic, rounded outward; hypotheses proved at each call: `interface/derive/python_export.py`)
and `--latex` LaTeX. `--expr EXPRESSION` derives an expression of the user's in the statement's
parameters instead (the integral a closed form comes from, say) and says whether it equals the
statement's closed form. Exit 1 when SymPy cannot do what was asked (no solution found, integral not
evaluated).

Substitutions are checked before anything is derived, as `eval` checks a point: each value must be a
finite real number, within its symbol's assumptions (eps0 > 0, n an integer >= 1, delta > 0, ...), and
no hypothesis may be false there. A hypothesis that SymPy decides false, or that interval arithmetic
proves false for every value of the symbols still free (within their assumptions and the hypotheses
bounding a single one of them, e.g. delta <= 1), is refused: a one-line error naming the hypothesis and
the values, exit 2, and no expression at all. Refusing is the safer contract than showing the
expression with the failure listed: a closed form evaluated outside its hypotheses can be far below
the truth (FMT21 Thm 2.1 at eps0 = 10, n = 100, delta = 1/2 gives ~7.57 where shuffled binary RR alone
needs ~9.30), and a caller that reads only the expression must never receive it. A check that cannot
finish within the time limit refuses too.

`--python` exports only the statement's own closed form (with the substitutions): a `--solve`
solution, a `--series` leading term or an `--expr` expression is not what the statement certifies,
and is refused with `--python` (exit 2).
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass, field
from typing import Any, Mapping

import sympy as sp

from ...version import __version__
from ...derive import enclosure
from ....proofs_checks.bridge import UsageError, check_supported_range
from .eval import parse_assignments
from ...derive.expressions import parse_user_expression
from ...limits import TimeLimitExceeded, time_limit
from ..output import print_json
from ...derive.python_export import ExportError, assumption_relations, enclose, interval_between
from ...derive.python_export import python_function as _export
from ....spec.registry import get_statement
from ....spec.statement import Statement, assumption_text
from ....spec.symbols import latex_names
from ....spec.terms import HypothesisError


TIME_LIMIT_SECONDS = 60
# Reading the user's expressions (bounded by the grammar already) and the whole command.
PARSE_SECONDS = 10
TOTAL_SECONDS = 200


@dataclass
class Derivation:
    """What `derive` found; `failures` says plainly what SymPy could not do."""

    id: str
    subs: dict[str, str]
    expression: sp.Basic
    solve_for: str | None = None
    solutions: list[sp.Basic] | None = None
    series_at: tuple[str, str] | None = None
    leading_term: sp.Basic | None = None
    failures: list[str] = field(default_factory=list)
    statement: Statement | None = None
    matches_value: bool | None = None
    # The parsed substitutions (symbol -> exact value); not part of the JSON (`subs` has the texts).
    substitution: dict[sp.Symbol, sp.Basic] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        names = latex_names(self.statement.symbols) if self.statement else {}
        out: dict[str, Any] = {
            "id": self.id,
            "subs": self.subs,
            "expression": sp.sstr(self.expression),
            "latex": sp.latex(self.expression, symbol_names=names),
        }
        if self.solve_for is not None:
            out["solve_for"] = self.solve_for
            out["solutions"] = None if self.solutions is None else [sp.sstr(s) for s in self.solutions]
            out["solutions_latex"] = None if self.solutions is None else [sp.latex(s, symbol_names=names) for s in self.solutions]
        if self.series_at is not None:
            out["series_at"] = {"name": self.series_at[0], "point": self.series_at[1]}
            out["leading_term"] = None if self.leading_term is None else sp.sstr(self.leading_term)
            out["leading_term_latex"] = None if self.leading_term is None else sp.latex(self.leading_term, symbol_names=names)
        if self.matches_value is not None:
            out["matches_value"] = self.matches_value
        out["failures"] = self.failures
        return out


class OutsideHypotheses(HypothesisError, UsageError):
    """Substituted values at which a hypothesis (or a symbol's assumption) of the statement is false:
    a `HypothesisError` with its fields, and a usage error (exit 2) on the command line."""

    def __init__(self, statement_id: str, hypothesis: str, values: Mapping[str, object], *, free: str = ""):
        super().__init__(statement_id, hypothesis, values)
        if free:
            self.args = (f"{self.args[0]} {free}",)


# The time limit lives in the library module `shuffle_spec.interface.limits` (library code never imports a
# command module); these names stay importable from here for existing callers.
DerivationTimeout = TimeLimitExceeded


def target_expression(statement: Statement) -> sp.Basic:
    """The closed form `value`, else the conclusion (a single item, or a Tuple of them)."""
    if statement.value is not None:
        return statement.value
    if not statement.conclusion:
        raise UsageError(f"{statement.id} has neither a closed form nor a conclusion to derive from")
    return statement.conclusion[0] if len(statement.conclusion) == 1 else sp.Tuple(*statement.conclusion)


def _names(statement: Statement) -> dict[str, sp.Symbol]:
    return {str(s): s for s in statement.symbols}


def parse_subs(statement: Statement, items: Mapping[str, str]) -> dict[sp.Symbol, sp.Basic]:
    """NAME=VALUE with VALUE an expression in the restricted grammar of `shuffle_spec.interface.derive.expressions`
    (`1/2`, `log(2)`, `0.1` read as 1/10, the statement's symbols): never evaluated as Python."""
    subs = {}
    for name, text in items.items():
        try:
            symbol = statement.symbol(name)
        except KeyError as failure:
            raise UsageError(failure.args[0]) from None
        subs[symbol] = parse_user_expression(text, option=f"--subs {name}=", symbols=_names(statement), allow_new_names=False)
    return subs


def simplify(expr: sp.Basic) -> sp.Basic:
    """Carry out integrals/sums/limits, then simplify (element-wise for tuples and relations)."""
    done = expr.doit()
    if isinstance(done, sp.Tuple):
        return sp.Tuple(*(simplify(e) for e in done))
    if isinstance(done, sp.core.relational.Relational):
        return done.func(sp.simplify(done.lhs), sp.simplify(done.rhs))
    return sp.simplify(done)


def leading_term(expr: sp.Expr, symbol: sp.Symbol, point: sp.Basic) -> sp.Expr:
    """The leading asymptotic term of `expr` as `symbol` -> `point` (oo handled by symbol = 1/x)."""
    x = sp.Symbol("x_lead", positive=True)
    if point is sp.oo:
        moved = expr.subs(symbol, 1 / x)
        return sp.simplify(moved.as_leading_term(x).subs(x, 1 / symbol))
    moved = expr.subs(symbol, point + x)
    return sp.simplify(moved.as_leading_term(x).subs(x, symbol - point))


def parse_expression(statement: Statement, text: str) -> sp.Basic:
    """A user's expression in the statement's parameters (other names become real symbols, e.g. an
    integration variable): `2*Integral(eps0/2*exp(-eps0*(1-y)), (y, -oo, 1/2))`."""
    # Other names become real symbols inside the restricted reader (never Python evaluation).
    return parse_user_expression(text, option="--expr", symbols=_names(statement), allow_new_names=True)


def derive(
    statement: Statement,
    *,
    subs: Mapping[str, str] | None = None,
    solve: str | None = None,
    series: str | None = None,
    expression: str | None = None,
) -> Derivation:
    """Run the derivation on `statement` (see the module docstring). With `expression`, derive that
    expression instead (e.g. the integral a closed form comes from) and record whether it equals the
    statement's closed form `value`. User text is read by the restricted reader
    (`shuffle_spec.interface.derive.expressions`) under a time limit; the whole call is limited to `TOTAL_SECONDS`
    (`TimeLimitExceeded` beyond it)."""
    with time_limit(TOTAL_SECONDS):
        return _derive(statement, dict(subs or {}), solve, series, expression)


def _derive(statement: Statement, subs: dict[str, str], solve: str | None, series: str | None, expression: str | None) -> Derivation:
    with time_limit(PARSE_SECONDS):
        substitution = parse_subs(statement, subs)
        source = parse_expression(statement, expression) if expression is not None else target_expression(statement)
        point = _series_point(statement, series) if series is not None else None
    check_substitution(statement, subs, substitution)
    expr = source.subs(substitution)
    derivation = Derivation(statement.id, subs, expr, statement=statement, substitution=substitution)
    try:
        with time_limit(TIME_LIMIT_SECONDS):
            derivation.expression = simplify(expr)
    except DerivationTimeout:
        derivation.failures.append(f"simplification took over {TIME_LIMIT_SECONDS} s; shown unsimplified")
    if derivation.expression.has(sp.Integral):
        derivation.failures.append("SymPy could not evaluate the integral in closed form; it is shown unevaluated")
    elif expression is not None and statement.value is not None:
        difference = sp.simplify(derivation.expression - statement.value.subs(substitution))
        derivation.matches_value = bool(difference == 0)
    if solve is not None:
        _solve(statement, derivation, solve)
    if series is not None and point is not None:
        _series(statement, derivation, series, point)
    return derivation


def check_substitution(statement: Statement, texts: Mapping[str, str], substitution: Mapping[sp.Symbol, sp.Basic]) -> None:
    """Refuse substitutions outside the statement's assumptions and hypotheses (see the module
    docstring): `UsageError` for a value that is not a finite real number, `OutsideHypotheses` for a
    hypothesis or assumption that is false there (or false for every value of the symbols left free).
    Within `TIME_LIMIT_SECONDS`; a check that cannot finish refuses."""
    if not substitution:
        return
    try:
        with time_limit(TIME_LIMIT_SECONDS):
            for symbol, value in substitution.items():
                text = texts.get(str(symbol), sp.sstr(value))
                if value.has(sp.oo, -sp.oo, sp.zoo, sp.nan) or value.is_finite is False:
                    raise UsageError(f"--subs {symbol}={text}: not a finite number ({sp.sstr(value)[:40]})")
                if value.is_extended_real is False or (not value.free_symbols and not _numerically_real(value)):
                    raise UsageError(f"--subs {symbol}={text}: not a real number ({sp.sstr(value)[:40]})")
                _check_supported(str(symbol), text, value)
            failed = statement.failed_hypotheses({str(symbol): value for symbol, value in substitution.items()}, first_only=True)
            if failed:
                raise OutsideHypotheses(statement.id, statement.hypothesis_name(failed[0]), texts)
            _check_free_symbols(statement, texts, substitution)
    except DerivationTimeout:
        raise UsageError(
            f"{statement.id}: the hypotheses could not be checked at {_shown(texts)} within {TIME_LIMIT_SECONDS} s; "
            "refused rather than derived unchecked"
        ) from None


def _check_supported(name: str, text: str, value: sp.Basic) -> None:
    """A number substituted for eps0, n, delta or k beyond the supported range (`check_supported_range`, as `eval`
    and every command refuse it) is refused before any SymPy work: eps0 = 1e999, a number of a thousand digits, kept
    the simplification busy for about 45 s before the expression was shown. Values below a parameter's assumptions
    (eps0 <= 0, ...) are left to the hypotheses, which name the one that fails."""
    if name not in ("eps0", "n", "delta", "k") or value.free_symbols:
        return
    number = sp.N(value, 30)
    approximate = float(number)  # overflows to inf beyond a double: refused as above the range
    if approximate == 0 and number > 0:  # below the doubles (delta = 1e-999): as small as a double can say
        approximate = math.ulp(0.0)
    try:
        check_supported_range(name, approximate)
    except ValueError as failure:
        allowed = getattr(failure, "allowed", str(failure))
        raise UsageError(f"--subs {name}={text}: out of the supported range: expected {allowed}") from None


def _numerically_real(value: sp.Basic) -> bool:
    try:
        real, imaginary = sp.N(value, 30).as_real_imag()
    except (TypeError, ValueError):
        return False
    return bool(imaginary == 0) and real.is_finite is not False


def _shown(texts: Mapping[str, str]) -> str:
    return ", ".join(f"{name}={text}" for name, text in texts.items())


def _check_free_symbols(statement: Statement, texts: Mapping[str, str], substitution: Mapping[sp.Symbol, sp.Basic]) -> None:
    """Hypotheses (and assumptions of values written in other symbols) that still have free symbols
    after the substitution: refused when interval arithmetic proves them false over every allowed value
    of those symbols (a box from their assumptions and the hypotheses that bound a single symbol)."""
    relations: list[tuple[str, sp.Basic]] = []
    for symbol, value in substitution.items():
        if value.free_symbols:
            relations += [(name, relation) for name, relation in assumption_relations(symbol, value) if "integer" not in name]
    relations += [(statement.hypothesis_name(h), h.subs(substitution)) for h in statement.hypotheses]
    relations = [(name, relation) for name, relation in relations if isinstance(relation, sp.Basic) and relation.free_symbols]
    if not relations:
        return
    free = sorted(set().union(*(relation.free_symbols for _, relation in relations)), key=lambda s: [str(x) for x in statement.symbols].index(str(s)) if s in statement.symbols else len(statement.symbols))
    ctx = enclosure.context()
    saved = ctx.prec
    try:
        ctx.prec = 128
        box, constraints = _box(free, [relation for _, relation in relations])
        for name, relation in relations:
            try:
                holds = enclose(relation, box)
            except (enclosure.Undecided, ExportError, ArithmeticError, ValueError, TypeError):
                holds = None
            if holds is False:
                names = ", ".join(str(s) for s in free)
                raise OutsideHypotheses(statement.id, name, texts, free=f"and every {names} allowed ({', '.join(constraints)})")
    finally:
        ctx.prec = saved


def _box(symbols: list[sp.Symbol], relations: list[sp.Basic]) -> tuple[dict[sp.Symbol, Any], list[str]]:
    """Intervals containing every value of `symbols` allowed by their assumptions and by the relations
    that bound a single symbol by a number (closed, so a superset), and the constraints used, as text."""
    box: dict[sp.Symbol, Any] = {}
    constraints: list[str] = []
    for symbol in symbols:
        low: Any = sp.Integer(1) if symbol.is_integer and symbol.is_positive else sp.Integer(0) if symbol.is_nonnegative else None
        high: Any = None
        if symbol.is_positive or symbol.is_nonnegative:
            constraints.append(assumption_text(symbol))
        for relation in relations:
            if not isinstance(relation, (sp.StrictLessThan, sp.LessThan, sp.StrictGreaterThan, sp.GreaterThan)) or relation.free_symbols != {symbol}:
                continue
            small, big = relation.lts, relation.gts
            try:
                if small == symbol and _finite_real(big) and (high is None or bool(big < high)):
                    high = big
                    constraints.append(sp.sstr(relation))
                elif big == symbol and _finite_real(small) and (low is None or bool(small > low)):
                    low = small
                    constraints.append(sp.sstr(relation))
            except TypeError:  # SymPy cannot order the two numbers: keep the bound already found
                continue
        box[symbol] = interval_between(_end(low, -math.inf), _end(high, math.inf))
    return box, constraints


def _finite_real(value: sp.Basic) -> bool:
    return bool(value.is_number and value.is_finite and value.is_extended_real)


def _end(bound: sp.Basic | None, unbounded: float) -> Any:
    """An enclosure of a numeric bound (`interval_between` takes its outer end), or `unbounded` when
    there is none or it cannot be enclosed (a wider box is still a superset)."""
    if bound is None:
        return unbounded
    try:
        return enclosure.iv_hull(enclose(bound, {}))
    except (enclosure.Undecided, ExportError, ArithmeticError, ValueError, TypeError):
        return unbounded


def _equation(statement: Statement, expr: sp.Basic) -> sp.Basic:
    if isinstance(expr, sp.core.relational.Relational):
        return sp.Eq(expr.lhs, expr.rhs)
    if isinstance(expr, sp.Tuple):
        raise UsageError(f"{statement.id}'s conclusion has {len(expr)} parts; --solve needs a single expression")
    output = statement.output if statement.output is not None else sp.Symbol("value")
    return sp.Eq(output, expr)


def _solve(statement: Statement, derivation: Derivation, name: str) -> None:
    symbol = statement.symbol(name) if name in {str(s) for s in statement.symbols} else None
    if statement.output is not None and str(statement.output) == name:
        symbol = statement.output
    if symbol is None:
        raise UsageError(f"{statement.id} has no parameter {name!r}; it has {[str(s) for s in statement.symbols]}")
    derivation.solve_for = name
    equation = _equation(statement, derivation.expression)
    try:
        with time_limit(TIME_LIMIT_SECONDS):
            solutions = sp.solve(equation, symbol, dict=False)
    except (NotImplementedError, DerivationTimeout) as failure:
        derivation.failures.append(f"SymPy cannot solve {sp.sstr(equation)} for {name}" + (" (timed out)" if isinstance(failure, DerivationTimeout) else ""))
        return
    if not solutions:
        derivation.failures.append(f"SymPy found no closed-form solution of {sp.sstr(equation)} for {name}")
        return
    derivation.solutions = [sp.simplify(s) for s in solutions]


def _series_point(statement: Statement, text: str) -> sp.Basic:
    """POINT of `--series NAME=POINT`: a number, oo or a constant expression (restricted reader)."""
    name, sep, point_text = text.partition("=")
    if not sep or not name.strip() or not point_text.strip():
        raise UsageError(f"--series expects NAME=POINT (e.g. n=oo), got {text[:60]!r}")
    if name.strip() not in _names(statement):
        raise UsageError(f"--series {name.strip()[:40]!r}: {statement.id} has no parameter of that name; it has {', '.join(_names(statement))}")
    return parse_user_expression(point_text.strip(), option=f"--series {name.strip()}=", symbols={}, allow_new_names=False)


def _series(statement: Statement, derivation: Derivation, text: str, point: sp.Basic) -> None:
    name = text.partition("=")[0]
    symbol = statement.symbol(name.strip())
    derivation.series_at = (name.strip(), str(point))
    expr = derivation.expression
    if isinstance(expr, sp.core.relational.Relational):
        expr = expr.rhs
    if isinstance(expr, sp.Tuple):
        raise UsageError(f"{statement.id}'s conclusion has {len(expr)} parts; --series needs a single expression")
    try:
        with time_limit(TIME_LIMIT_SECONDS):
            derivation.leading_term = leading_term(expr, symbol, point)
    except (NotImplementedError, ValueError, DerivationTimeout, sp.PoleError) as failure:
        derivation.failures.append(f"SymPy cannot find the leading term as {name} -> {point}: {type(failure).__name__} {failure}")


def python_function(
    statement: Statement,
    expr: sp.Expr | None = None,
    *,
    substitution: Mapping[sp.Symbol, sp.Basic] | None = None,
    function_name: str | None = None,
) -> str:
    """A stand-alone Python module whose keyword-only function returns the statement's closed form (with
    `substitution` applied) as a certified float, its hypotheses proved at each call, ValueError outside
    them (`interface/derive/python_export.py`). `expr`, when given, must be that closed form."""
    return _export(statement, expr, substitution=substitution, function_name=function_name, version=f"shuffle-spec {__version__}")


def run(args: argparse.Namespace) -> int:
    if args.python and (args.solve or args.series or args.expr):
        raise UsageError(
            "--python exports the statement's own closed form (with --subs) as a certified function; a --solve solution, "
            "a --series leading term or an --expr expression is not what the statement certifies (use --latex or the default output)"
        )
    statement = get_statement(args.id)
    derivation = derive(statement, subs=parse_assignments(args.subs), solve=args.solve, series=args.series, expression=args.expr)
    if args.json:
        print_json(derivation.to_json())
        return 1 if derivation.failures else 0
    shown = derivation.expression
    if derivation.solutions:
        shown = derivation.solutions[0] if len(derivation.solutions) == 1 else sp.Tuple(*derivation.solutions)
    if derivation.leading_term is not None:
        shown = derivation.leading_term
    if args.python:
        print(python_function(statement, substitution=derivation.substitution), end="")
    elif args.latex:
        print(sp.latex(shown, symbol_names=latex_names(statement.symbols)))
    else:
        label = "--expr" if args.expr else ("value" if statement.value is not None else "conclusion")
        print(f"{statement.id} {label}" + (f" with {', '.join(f'{k}={v}' for k, v in derivation.subs.items())}" if derivation.subs else "") + ":")
        print("  " + sp.pretty(derivation.expression, use_unicode=True).replace("\n", "\n  "))
        if derivation.solutions:
            for solution in derivation.solutions:
                print(f"solved for {derivation.solve_for}:")
                print("  " + sp.pretty(solution, use_unicode=True).replace("\n", "\n  "))
        if derivation.leading_term is not None:
            name, point = derivation.series_at or ("", "")
            print(f"leading term as {name} -> {point}:")
            print("  " + sp.pretty(derivation.leading_term, use_unicode=True).replace("\n", "\n  "))
        if derivation.matches_value is not None:
            print(f"equals the statement's closed form: {'yes' if derivation.matches_value else 'NO'}")
    for failure in derivation.failures:
        print(f"cannot: {failure}")
    return 1 if derivation.failures or derivation.matches_value is False else 0
