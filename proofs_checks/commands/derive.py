"""`shuffle-spec derive ID [--expr EXPRESSION] [--subs NAME=VALUE ...] [--solve NAME] [--series NAME=POINT] [--latex | --python | --json]`.

Works on the statement's closed form `value` (or its conclusion when it has none): integrals and
other unevaluated operations are carried out (`doit`) and the result simplified under the
substitutions; `--solve NAME` solves `output = value` for NAME where SymPy can (and says plainly
when it cannot); `--series NAME=oo` (or a finite point) gives the leading asymptotic term;
`--python` prints a stand-alone Python function (hypotheses checked) and `--latex` LaTeX.
`--expr EXPRESSION` derives an expression of the user's in the statement's parameters instead (the
integral a closed form comes from, say) and says whether it equals the statement's closed form.
Exit 1 when SymPy cannot do what was asked (no solution found, integral not evaluated).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any, Mapping

import sympy as sp

from shuffle_spec.proofs_checks.bridge import UsageError
from shuffle_spec.proofs_checks.commands.eval import parse_assignments
from shuffle_spec.proofs_checks.expressions import FUNCTIONS, MAX_CHARS, parse_user_expression
from shuffle_spec.proofs_checks.limits import TimeLimitExceeded, time_limit
from shuffle_spec.proofs_checks.output import print_json
from shuffle_spec.spec.registry import get_statement
from shuffle_spec.spec.statement import Statement, assumption_text
from shuffle_spec.spec.symbols import latex_names

NAME = "derive"
HELP = "simplify, solve, expand asymptotically or export (LaTeX / Python) a statement's closed form"

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


# The time limit lives in the library module `proofs_checks.limits` (library code never imports a
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
    """NAME=VALUE with VALUE an expression in the restricted grammar of `proofs_checks.expressions`
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
    (`proofs_checks.expressions`) under a time limit; the whole call is limited to `TOTAL_SECONDS`
    (`TimeLimitExceeded` beyond it)."""
    with time_limit(TOTAL_SECONDS):
        return _derive(statement, dict(subs or {}), solve, series, expression)


def _derive(statement: Statement, subs: dict[str, str], solve: str | None, series: str | None, expression: str | None) -> Derivation:
    with time_limit(PARSE_SECONDS):
        substitution = parse_subs(statement, subs)
        source = parse_expression(statement, expression) if expression is not None else target_expression(statement)
        point = _series_point(statement, series) if series is not None else None
    expr = source.subs(substitution)
    derivation = Derivation(statement.id, subs, expr, statement=statement)
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


def python_function(statement: Statement, expr: sp.Expr, *, function_name: str | None = None) -> str:
    """A stand-alone Python function computing `expr`, keyword-only in the statement's parameter order,
    raising ValueError when an assumption or hypothesis fails (no directed rounding: a convenience
    export, not the certified reference)."""
    if expr.has(sp.Integral) or isinstance(expr, (sp.Tuple, sp.core.relational.Relational)):
        raise UsageError("--python needs a single closed-form expression (no unevaluated integral, no relation)")
    order = [s for s in statement.symbols if s in expr.free_symbols]
    name = function_name or statement.id.replace(".", "_").lower()
    lines = [
        "import math",
        "",
        "",
        f"def {name}(*, {', '.join(f'{s}: float' if not s.is_integer else f'{s}: int' for s in order)}) -> float:",
        f'    """{statement.id}: {statement.title}. Generated by `shuffle-spec derive --python`."""',
    ]
    for symbol in order:
        text = assumption_text(symbol)
        if symbol.is_positive:
            lines.append(f"    if not {symbol} > 0:\n        raise ValueError(f\"{symbol} = {{{symbol}!r}}: expected {text}\")")
        elif symbol.is_nonnegative:
            lines.append(f"    if not {symbol} >= 0:\n        raise ValueError(f\"{symbol} = {{{symbol}!r}}: expected {text}\")")
        if symbol.is_integer:
            lines.append(f"    if {symbol} != int({symbol}):\n        raise ValueError(f\"{symbol} = {{{symbol}!r}}: expected an integer\")")
    for hypothesis in statement.hypotheses:
        if hypothesis.free_symbols <= set(order):
            code = sp.pycode(hypothesis, fully_qualified_modules=True)
            lines.append(f"    if not ({code}):\n        raise ValueError(\"hypothesis {sp.sstr(hypothesis)} fails\")")
    lines.append(f"    return {sp.pycode(expr, fully_qualified_modules=True)}")
    return "\n".join(lines) + "\n"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", help="statement id")
    parser.add_argument("--expr", metavar="EXPRESSION", help="derive this expression in the statement's parameters instead (e.g. the integral its closed form comes from) and compare with the closed form; "
                        f"a restricted grammar (numbers, names, + - * / ** ^, functions {', '.join(FUNCTIONS)}), at most {MAX_CHARS} characters, never evaluated as Python")
    parser.add_argument("--subs", action="append", default=[], metavar="NAME=VALUE", help="substitute a value (repeatable; exact: 0.1 is 1/10)")
    parser.add_argument("--solve", metavar="NAME", help="solve output = value for this parameter")
    parser.add_argument("--series", metavar="NAME=POINT", help="leading asymptotic term, e.g. n=oo")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--latex", action="store_true", help="print LaTeX")
    form.add_argument("--python", action="store_true", help="print a Python function")
    form.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
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
        print(python_function(statement, shown), end="")
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
