"""`shuffle-spec derive --python`: a statement's closed form as a stand-alone Python function whose
number is certified, and the interval evaluation of SymPy expressions that `derive` uses to check
substitutions.

An exported file holds
1. the runtime `interface/derive/enclosure.py`, copied verbatim (it imports only the standard library
   and mpmath);
2. the statement's hypotheses and closed form, written by `to_code` as calls of that runtime
   (`iv_log(iv_div(n, 16 * iv_log(iv_div(2, delta))))`, ...);
3. one keyword-only function that reads every input exactly and checks the symbols' assumptions
   (`exact_input`), proves every hypothesis in interval arithmetic and returns the certified float
   (`certified_value`): for an upper bound, a float >= the exact value of the formula at that point
   (the enclosure's upper end rounded up); ValueError outside the assumptions and hypotheses, and at a
   point too close to a hypothesis's boundary to decide.

Only a statement's own closed form `value` is exported (with `--subs` values substituted, which then
are checked as hypotheses too): a solution (`--solve`), a leading term (`--series`) or a user's
expression (`--expr`) is not what the statement certifies. Refused with an `ExportError` (a usage
error): a statement without a closed form; a function the runtime has no certified interval
evaluation of (erfc, gamma, integrals, sums: BBGN19.Lem5.1.gaussian, EFMRSTT20.Alg5); an equation
between non-polynomial expressions among the hypotheses (interval arithmetic cannot prove an equality
such as EFMRTT19.Thm6.explicit's T = 2^floor(log2 T)); a symbol whose name is not a plain identifier
or clashes with the runtime's names.

`enclose` evaluates a SymPy expression or relation over a box of intervals in this process, with the
same runtime but extended semantics (a divisor interval containing 0 gives the whole line, the
logarithm of [0, x] is [-inf, log x]): the result encloses every value at the box's points where the
expression is defined, which is what proving a hypothesis false over a box needs.
"""

from __future__ import annotations

import inspect
import keyword
import math
from fractions import Fraction
from typing import Any, Mapping

import sympy as sp

from . import enclosure as runtime
from ...proofs_checks.bridge import UsageError
from ...spec.statement import Direction, Statement, assumption_text

__all__ = ["ExportError", "assumption_relations", "enclose", "exportable_problem", "interval_between", "python_function", "to_code"]


class ExportError(UsageError):
    """The statement (or expression) cannot be exported as a certified function."""


_FUNCTIONS = {
    sp.exp: "iv_exp",
    sp.log: "iv_log",
    sp.Abs: "iv_abs",
    sp.floor: "iv_floor",
    sp.ceiling: "iv_ceiling",
    sp.Min: "iv_min",
    sp.Max: "iv_max",
    sp.Mod: "iv_mod",
}
SUPPORTED = "numbers, pi, E, + - * /, powers, exp, log, sqrt, Abs, floor, ceiling, Min, Max, Mod, Piecewise, relations, And, Or, Not"
# Names an exported function's body uses besides its parameters.
_BODY_NAMES = {"inputs", "Fraction", "lambda", "True", "False", "None"}


# --- SymPy -> code of the runtime -----------------------------------------------------------------

def to_code(expr: sp.Basic) -> str:
    """Python source evaluating `expr` with the runtime's interval functions (the symbols by name)."""
    if expr is sp.true:
        return "True"
    if expr is sp.false:
        return "False"
    if isinstance(expr, sp.Float):
        return to_code(sp.Rational(expr))  # the binary number it is
    if isinstance(expr, sp.Integer):
        return str(int(expr)) if expr >= 0 else f"({int(expr)})"
    if isinstance(expr, sp.Rational):
        return f"iv_q({expr.p}, {expr.q})"
    if isinstance(expr, sp.Symbol):
        return _name(expr)
    if expr is sp.pi:
        return "iv_pi()"
    if expr is sp.E:
        return "iv_exp(1)"
    if isinstance(expr, sp.Add):
        terms = expr.as_ordered_terms()
        parts = [to_code(terms[0])]
        for term in terms[1:]:
            if term.as_coeff_Mul()[0].is_negative:
                parts.append(f"- {to_code(-term)}")
            else:
                parts.append(f"+ {to_code(term)}")
        return "(" + " ".join(parts) + ")"
    if isinstance(expr, sp.Mul):
        return _mul_code(expr)
    if isinstance(expr, sp.Pow):
        base, exponent = expr.base, expr.exp
        if base is sp.E:
            return f"iv_exp({to_code(exponent)})"
        if exponent == sp.Rational(1, 2):
            return f"iv_sqrt({to_code(base)})"
        if exponent == -sp.Rational(1, 2):
            return f"iv_div(1, iv_sqrt({to_code(base)}))"
        if isinstance(exponent, sp.Integer):
            return f"iv_pow({to_code(base)}, {int(exponent)})"
        return f"iv_pow({to_code(base)}, {to_code(exponent)})"
    if expr.func in _FUNCTIONS:
        return f"{_FUNCTIONS[expr.func]}({', '.join(to_code(a) for a in expr.args)})"
    if isinstance(expr, sp.Piecewise):
        branches = ", ".join(f"(lambda: {to_code(condition)}, lambda: {to_code(value)})" for value, condition in expr.args)
        return f"iv_piecewise({branches})"
    if isinstance(expr, sp.core.relational.Relational):
        lhs, rhs = to_code(expr.lhs), to_code(expr.rhs)
        if isinstance(expr, sp.StrictLessThan):
            return f"iv_lt({lhs}, {rhs})"
        if isinstance(expr, sp.LessThan):
            return f"iv_le({lhs}, {rhs})"
        if isinstance(expr, sp.StrictGreaterThan):
            return f"iv_lt({rhs}, {lhs})"
        if isinstance(expr, sp.GreaterThan):
            return f"iv_le({rhs}, {lhs})"
        if isinstance(expr, sp.Equality):
            return f"iv_eq({lhs}, {rhs})"
        if isinstance(expr, sp.Unequality):
            return f"iv_ne({lhs}, {rhs})"
    if isinstance(expr, (sp.And, sp.Or)):
        name = "iv_and" if isinstance(expr, sp.And) else "iv_or"
        return f"{name}({', '.join(f'lambda: {to_code(a)}' for a in expr.args)})"
    if isinstance(expr, sp.Not):
        return f"iv_not({to_code(expr.args[0])})"
    raise ExportError(f"{_what(expr)} has no certified interval evaluation here (supported: {SUPPORTED})")


def _mul_code(expr: sp.Mul) -> str:
    coefficient, factors = expr.as_coeff_mul()
    coefficient = sp.Rational(coefficient) if isinstance(coefficient, sp.Float) else coefficient
    negative = bool(coefficient.is_negative)
    coefficient = -coefficient if negative else coefficient
    numerator: list[str] = []
    denominator: list[str] = []
    if coefficient.p != 1:
        numerator.append(str(coefficient.p))
    if coefficient.q != 1:
        denominator.append(str(coefficient.q))
    for factor in factors:
        if isinstance(factor, sp.Pow) and factor.exp.is_Rational and factor.exp.is_negative:
            denominator.append(to_code(sp.Pow(factor.base, -factor.exp)))
        else:
            numerator.append(to_code(factor))
    text = " * ".join(numerator) or "1"
    if denominator:
        text = f"iv_div({text}, {' * '.join(denominator)})"
    return f"(-{text})" if negative else text


def _what(expr: sp.Basic) -> str:
    if expr.has(sp.oo, -sp.oo, sp.zoo, sp.nan) and not expr.free_symbols:
        return f"{sp.sstr(expr)[:40]} (not a finite number)"
    return getattr(expr.func, "__name__", type(expr).__name__)


def _name(symbol: sp.Symbol) -> str:
    name = symbol.name
    if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("iv_") or name.startswith("_") or name in _runtime_names() or name in _BODY_NAMES:
        raise ExportError(f"the parameter name {name!r} cannot be a Python parameter of the exported function")
    return name


def _runtime_names() -> set[str]:
    return {name for name in vars(runtime) if not name.startswith("__")}


# --- in-process evaluation over a box (extended semantics) -----------------------------------------

def enclose(expr: sp.Basic, box: Mapping[sp.Symbol, Any]) -> Any:
    """An interval containing every value of `expr` at the points of `box` (symbol -> interval of the
    runtime's context) where it is defined, or a three-valued truth (True / False / None) for a relation:
    False means false (or undefined) at every point of the box. Raises `runtime.Undecided` (or
    `ExportError` for an unsupported function) when it cannot tell."""
    if expr is sp.true:
        return True
    if expr is sp.false:
        return False
    if isinstance(expr, sp.Symbol):
        if expr not in box:
            raise runtime.Undecided(f"no interval for {expr}")
        return box[expr]
    if isinstance(expr, (sp.Rational, sp.Float)):
        exact = sp.Rational(expr)
        return runtime.iv_q(int(exact.p), int(exact.q))
    if expr is sp.pi:
        return runtime.iv_pi()
    if expr is sp.E:
        return runtime.iv_exp(1)
    if isinstance(expr, sp.Add):
        total = runtime.iv_q(0)
        for term in expr.args:
            total = total + runtime._interval(enclose(term, box))
        return total
    if isinstance(expr, sp.Mul):
        product = runtime.iv_q(1)
        for factor in expr.args:
            product = product * runtime._interval(enclose(factor, box))
        return product
    if isinstance(expr, sp.Pow):
        base, exponent = expr.base, expr.exp
        if base is sp.E:
            return runtime.iv_exp(enclose(exponent, box))
        if exponent == sp.Rational(1, 2):
            return _sqrt_extended(enclose(base, box))
        if isinstance(exponent, sp.Integer):
            raised = runtime._interval(enclose(base, box)) ** abs(int(exponent))
            return raised if exponent >= 0 else _div_extended(runtime.iv_q(1), raised)
        return runtime.iv_exp(runtime._interval(enclose(exponent, box)) * _log_extended(enclose(base, box)))
    if expr.func is sp.log:
        return _log_extended(enclose(expr.args[0], box))
    if expr.func in _FUNCTIONS:
        function = getattr(runtime, _FUNCTIONS[expr.func])
        return function(*(enclose(a, box) for a in expr.args))
    if isinstance(expr, sp.Piecewise):
        return runtime.iv_piecewise(*((_thunk(condition, box), _thunk(value, box)) for value, condition in expr.args))
    if isinstance(expr, sp.core.relational.Relational):
        lhs, rhs = enclose(expr.lhs, box), enclose(expr.rhs, box)
        if isinstance(expr, sp.StrictLessThan):
            return runtime.iv_lt(lhs, rhs)
        if isinstance(expr, sp.LessThan):
            return runtime.iv_le(lhs, rhs)
        if isinstance(expr, sp.StrictGreaterThan):
            return runtime.iv_lt(rhs, lhs)
        if isinstance(expr, sp.GreaterThan):
            return runtime.iv_le(rhs, lhs)
        if isinstance(expr, sp.Equality):
            return runtime.iv_eq(lhs, rhs)
        if isinstance(expr, sp.Unequality):
            return runtime.iv_ne(lhs, rhs)
    if isinstance(expr, sp.And):
        return runtime.iv_and(*(_thunk(a, box) for a in expr.args))
    if isinstance(expr, sp.Or):
        return runtime.iv_or(*(_thunk(a, box) for a in expr.args))
    if isinstance(expr, sp.Not):
        return runtime.iv_not(enclose(expr.args[0], box))
    raise ExportError(f"{_what(expr)} has no certified interval evaluation here (supported: {SUPPORTED})")


def _thunk(expr: sp.Basic, box: Mapping[sp.Symbol, Any]) -> Any:
    return lambda: enclose(expr, box)


def _div_extended(a: Any, b: Any) -> Any:
    # mpmath's interval division: a divisor interval containing 0 gives a half-line or the whole line,
    # which still encloses every value at the points where the divisor is not 0.
    return runtime._interval(a) / runtime._interval(b)


def _log_extended(x: Any) -> Any:
    lo, hi = runtime._ends(x)
    if not runtime.mpf_lt(runtime.fzero, hi):
        raise runtime.Undecided("the logarithm of an interval with no positive point")
    if not runtime.mpf_lt(runtime.fzero, lo):
        x = runtime._make(runtime.fzero, hi)  # log over (0, hi]: [-inf, log hi]
    return runtime.context().log(runtime._interval(x))


def _sqrt_extended(x: Any) -> Any:
    lo, hi = runtime._ends(x)
    if runtime.mpf_lt(hi, runtime.fzero):
        raise runtime.Undecided("the square root of an interval with no point >= 0")
    if runtime.mpf_lt(lo, runtime.fzero):
        x = runtime._make(runtime.fzero, hi)
    return runtime.context().sqrt(runtime._interval(x))


def interval_between(low: Any, high: Any) -> Any:
    """The runtime interval [low, high] for endpoints that are ints, Fractions, -inf / inf (floats), or
    runtime intervals (their outer ends)."""
    ctx = runtime.context()

    def end(value: Any, upper: bool) -> Any:
        if isinstance(value, float) and math.isinf(value):
            return ctx.mpf("inf" if value > 0 else "-inf")._mpi_[0]
        if isinstance(value, (float, Fraction)):
            value = runtime.iv_point(Fraction(value))
        return runtime._interval(value)._mpi_[1 if upper else 0]

    return runtime._make(end(low, False), end(high, True))


# --- the exported file ------------------------------------------------------------------------------

def exportable_problem(statement: Statement) -> str:
    """Why the statement's closed form cannot be exported ("" when it can)."""
    if statement.value is None:
        return f"{statement.id} has no closed form to export"
    try:
        to_code(statement.value)
        for hypothesis in statement.hypotheses:
            to_code(hypothesis)
            _check_decidable(statement, hypothesis)
        for symbol in statement.symbols:
            _name(symbol)
    except ExportError as failure:
        return str(failure)
    return ""


def _check_decidable(statement: Statement, hypothesis: sp.Basic) -> None:
    """Refuse an equation (or inequation) between non-polynomial expressions at the top of a hypothesis
    (or inside its And / Or / Not): intervals never prove such an equality. Inside a Piecewise condition
    an undecided equation only widens the enclosure (both branches are joined), so it is allowed."""
    if isinstance(hypothesis, (sp.And, sp.Or, sp.Not)):
        for argument in hypothesis.args:
            _check_decidable(statement, argument)
        return
    if isinstance(hypothesis, (sp.Equality, sp.Unequality)):
        sides = (hypothesis.lhs, hypothesis.rhs)
        if not all(side.is_polynomial(*side.free_symbols) for side in sides):
            raise ExportError(
                f"{statement.id}'s hypothesis {sp.sstr(hypothesis)[:80]} is an equation between non-polynomial expressions, "
                "which interval arithmetic cannot prove"
            )


def assumption_relations(symbol: sp.Symbol, value: sp.Basic) -> list[tuple[str, sp.Basic]]:
    """(name, relation) of the assumptions of `symbol` (> 0, >= 0, integer) applied to `value`."""
    relations: list[tuple[str, sp.Basic]] = []
    if symbol.is_positive:
        relations.append((f"{symbol} > 0", sp.Gt(value, 0)))
    elif symbol.is_nonnegative:
        relations.append((f"{symbol} >= 0", sp.Ge(value, 0)))
    if symbol.is_integer:
        relations.append((f"{symbol} integer", sp.Eq(value, sp.floor(value))))
    return relations


def _hypotheses_for_export(statement: Statement, substitution: Mapping[sp.Symbol, sp.Basic]) -> list[tuple[str, sp.Basic]]:
    """(name, relation) to prove: the statement's hypotheses and, for a symbol substituted by an
    expression in other symbols, its assumptions on that expression; substituted, those SymPy already
    decides true dropped (a false one is an ExportError: `derive` refuses such substitutions first)."""
    items: list[tuple[str, sp.Basic]] = []
    for symbol, value in substitution.items():
        if value.free_symbols:
            items += assumption_relations(symbol, value)
    for hypothesis in statement.hypotheses:
        items.append((statement.hypothesis_name(hypothesis), hypothesis.subs(substitution)))
    kept = []
    for name, relation in items:
        if relation is sp.true or relation == sp.true:
            continue
        if relation is sp.false or relation == sp.false:
            raise ExportError(f"{statement.id}: hypothesis {name} fails for the substituted values")
        kept.append((name, relation))
    return kept


def python_function(
    statement: Statement,
    expr: sp.Expr | None = None,
    *,
    substitution: Mapping[sp.Symbol, sp.Basic] | None = None,
    function_name: str | None = None,
    version: str = "",
) -> str:
    """The source of a stand-alone module defining one keyword-only function that returns the
    statement's closed form `value` (with `substitution` applied) as a certified float: see the module
    docstring. `expr`, when given, must be that closed form (the one `derive` shows); anything else is
    an `ExportError`, as is a statement that `exportable_problem` refuses."""
    substitution = dict(substitution or {})
    if statement.value is None:
        raise ExportError(f"{statement.id} has no closed form to export (--python exports a statement's closed form)")
    target = statement.value.subs(substitution)
    if expr is not None and expr != target and expr != statement.value:
        raise ExportError("--python exports the statement's own closed form (with --subs) only: a solution, a leading term or another expression is not what the statement certifies")
    problem = exportable_problem(statement)
    if problem:
        raise ExportError(f"cannot export {statement.id}: {problem}")
    hypotheses = _hypotheses_for_export(statement, substitution)
    value_code = to_code(target)
    hypothesis_codes = [(name, to_code(relation), relation) for name, relation in hypotheses]
    substituted_symbols = set(substitution)
    # The reference's parameters (those not substituted), then any other symbol the formula uses (one a
    # substituted value brings in): a hypothesis on any other symbol cannot be checked here (as in `eval`).
    params = [s for s in statement.inputs if s not in substituted_symbols]
    params += sorted(target.free_symbols - set(params), key=lambda s: (s not in statement.symbols, str(s)))
    checked = [(name, code) for name, code, relation in hypothesis_codes if relation.free_symbols <= set(params)]
    unchecked = [name for name, code, relation in hypothesis_codes if not relation.free_symbols <= set(params)]
    name = function_name or statement.id.replace(".", "_").lower()
    if not name.isidentifier() or keyword.iskeyword(name) or name in _runtime_names():
        raise ExportError(f"the function name {name!r} is not usable")
    arguments = ", ".join(_name(s) for s in params)
    direction = statement.direction.value if isinstance(statement.direction, Direction) else str(statement.direction)
    prefix = f"_{name}"
    lines: list[str] = []
    lines.append(f'"""{statement.id}: {_docstring_text(statement.title)}.')
    lines.append("")
    lines.append(f"Exported by `shuffle-spec derive --python`{f' ({version})' if version else ''}: the certified closed form of")
    lines.append(f"{statement.id} ({statement.source}) as the function `{name}`; the interval runtime below is")
    lines.append("shuffle-spec's `interface/derive/enclosure.py`, copied verbatim. Needs only Python and mpmath.")
    lines.append('"""')
    lines.append("")
    lines.append(_runtime_source())
    lines.append("")
    lines.append("")
    lines.append(f"# {statement.id}: the hypotheses, each proved in interval arithmetic before the value is computed.")
    lines.append(f"{prefix}_hypotheses = (")
    for hyp_name, code in checked:
        lines.append(f"    ({hyp_name!r}, lambda {arguments}: {code}),")
    lines.append(")")
    lines.append("")
    lines.append(f"# {statement.id}: the closed form{', with ' + ', '.join(f'{s} = {sp.sstr(v)}' for s, v in substitution.items()) if substitution else ''}.")
    lines.append(f"{prefix}_value = lambda {arguments}: {value_code}  # noqa: E731")
    lines.append("")
    lines.append("")
    signature = ", ".join(f"{_name(s)}: {'int' if s.is_integer else 'float'}" for s in params)
    lines.append(f"def {name}({'*, ' + signature if signature else ''}) -> float:")
    lines.extend("    " + line if line else "" for line in _function_docstring(statement, direction, params, checked, unchecked, substitution))
    lines.append("    inputs = {")
    for symbol in params:
        flags = []
        if symbol.is_integer:
            flags.append("integer=True")
        if symbol.is_positive:
            flags.append("positive=True")
        elif symbol.is_nonnegative:
            flags.append("nonnegative=True")
        lines.append(f"        {symbol.name!r}: exact_input({symbol.name!r}, {symbol.name}{''.join(', ' + f for f in flags)}),")
    lines.append("    }")
    lines.append(f"    return certified_value({statement.id!r}, inputs, {prefix}_hypotheses, {prefix}_value, {direction!r})")
    return "\n".join(lines) + "\n"


def _docstring_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"""', "'''")


def _function_docstring(statement: Statement, direction: str, params: list[sp.Symbol], checked: list[tuple[str, str]], unchecked: list[str], substitution: Mapping[sp.Symbol, sp.Basic]) -> list[str]:
    meaning = {
        "upper_bound": "an upper bound: the returned float is >= the exact value of the closed form at the given point",
        "lower_bound": "a lower bound: the returned float is <= the exact value of the closed form at the given point",
    }.get(direction, "the float nearest the exact value of the closed form (within one unit in the last place)")
    text = [
        f'"""{statement.id}: {_docstring_text(statement.title)}.',
        "",
        f"Returns {meaning}.",
        "How: every input is taken exactly (a float as the binary number it is); the formula is evaluated in",
        "mpmath interval arithmetic (every operation rounded outward) at 64 bits, doubled up to 8192 bits",
        "until the enclosure is at most 2^-60 of its magnitude wide; "
        + ("its upper end is rounded up to a float." if direction == "upper_bound" else "its lower end is rounded down to a float." if direction == "lower_bound" else "the float nearest its midpoint is returned."),
        "",
        "Raises TypeError for a non-number and ValueError for nan, an infinity, a value outside a parameter's",
        f"assumptions ({', '.join(_param_assumptions(params)) or 'none'}), a hypothesis that fails or",
        "that interval arithmetic cannot decide at 8192 bits (a point on its boundary), or a point where the",
        "formula is undefined. Hypotheses proved at each call:",
    ]
    text += [f"  {name}" for name, _ in checked] or ["  (none)"]
    if unchecked:
        text.append("Not checked here (they involve symbols that are not parameters of this function):")
        text += [f"  {name}" for name in unchecked]
    if substitution:
        text.append("Substituted: " + ", ".join(f"{s} = {sp.sstr(v)}" for s, v in substitution.items()) + ".")
    text.append('"""')
    return text


def _param_assumptions(params: list[sp.Symbol]) -> list[str]:
    return [assumption_text(s) for s in params if s.is_positive or s.is_nonnegative or s.is_integer]


def _runtime_source() -> str:
    """The runtime module's source without its docstring and its `from __future__` line (the exported
    file has its own docstring; annotations there are strings already when the import is kept)."""
    source = inspect.getsource(runtime)
    tree_docstring = runtime.__doc__ or ""
    start = source.index('"""') if tree_docstring else 0
    end = source.index('"""', start + 3) + 3 if tree_docstring else 0
    body = source[end:].lstrip("\n")
    body = body.replace("from __future__ import annotations\n", "", 1)
    header = "from __future__ import annotations\n\n# --- interval runtime: shuffle-spec interface/derive/enclosure.py (verbatim) ---\n"
    return header + body.rstrip("\n") + "\n# --- end of the interval runtime ---"
