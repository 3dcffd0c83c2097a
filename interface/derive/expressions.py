"""A restricted reader of user expressions (`derive --expr`, `--subs`, `--series`): never `eval`,
never `sympify` of user text.

SymPy's `sympify` / `parse_expr` evaluate Python, so `__import__('os').system(...)` in an argument
would run (a command-line argument must never execute). Here the text is only *parsed* by Python's own parser (`ast.parse`,
which evaluates nothing), every node is checked against a small grammar, and the SymPy object is
built from the checked tree by this module:

- numbers: decimal literals of at most `MAX_DIGITS` digits (read exactly: 0.1 is 1/10);
- names: the statement's symbols, the constants `oo`, `pi`, `E`, and (where allowed) other plain
  identifiers, which become real symbols (an integration variable); no dunder, no attribute access;
- operators `+ - * / **` (`^` is read as `**`, as SymPy reads it), unary `+ -`, parentheses, and tuples only as the
  limits of `Integral` / `Sum`;
- calls only of the functions in `FUNCTIONS`, with positional arguments;
- a power of two numbers is computed only when its result has at most `MAX_POWER_DIGITS` digits and
  a numeric exponent is at most `MAX_EXPONENT` in size (so `9**9**9**9` is refused at once: a huge
  integer power is one C call that no time limit can interrupt);
- at most `MAX_CHARS` characters and `MAX_DEPTH` levels of nesting.

Anything else is an `ExpressionError` (a `UsageError`: exit 2) naming the option and what is wrong.
"""

from __future__ import annotations

import ast
import math
import re
from fractions import Fraction
from typing import Callable, Mapping

import sympy as sp

from ...proofs_checks.bridge import UsageError

__all__ = ["ExpressionError", "FUNCTIONS", "MAX_CHARS", "MAX_DEPTH", "parse_user_expression"]

MAX_CHARS = 500
MAX_DEPTH = 40
MAX_DIGITS = 40
MAX_EXPONENT = 1000
MAX_POWER_DIGITS = 1000
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,40}")

FUNCTIONS: dict[str, Callable[..., sp.Basic]] = {
    "exp": sp.exp, "log": sp.log, "sqrt": sp.sqrt, "Abs": sp.Abs, "Max": sp.Max, "Min": sp.Min,
    "sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "sinh": sp.sinh, "cosh": sp.cosh, "tanh": sp.tanh,
    "erf": sp.erf, "floor": sp.floor, "ceiling": sp.ceiling, "sign": sp.sign,
    "Integral": sp.Integral, "Sum": sp.Sum,
}
CONSTANTS: dict[str, sp.Basic] = {"oo": sp.oo, "pi": sp.pi, "E": sp.E}
# Functions whose later arguments are (variable, low, high) limits: the only place a tuple may appear.
_WITH_LIMITS = {"Integral", "Sum"}


class ExpressionError(UsageError):
    """A user expression outside the restricted grammar."""


def parse_user_expression(text: str, *, option: str, symbols: Mapping[str, sp.Symbol], allow_new_names: bool = True) -> sp.Basic:
    """The SymPy expression written in `text` (see the module docstring for the grammar). Names in
    `symbols` are those symbols; other plain identifiers become real symbols when `allow_new_names`,
    else are refused. `option` (e.g. `--expr`) names the source in error messages."""
    if not isinstance(text, str):
        raise ExpressionError(f"{option}: expected an expression as text, got {type(text).__name__}")
    shown = text if len(text) <= 60 else text[:57] + "..."
    if len(text) > MAX_CHARS:
        raise ExpressionError(f"{option} {shown!r}: {len(text)} characters; at most {MAX_CHARS}")
    depth = 0
    for char in text:  # bound the nesting before Python's parser sees it (its recursion is bounded too)
        depth += char in "([{"
        depth -= char in ")]}"
        if depth > MAX_DEPTH:
            raise ExpressionError(f"{option} {shown!r}: nested deeper than {MAX_DEPTH} levels")
    # `^` is a power, as in SymPy (with the precedence and right associativity of `**`); no string
    # literal is allowed, so replacing the character cannot change the meaning of anything else.
    text = text.replace("^", "**")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as failure:
        reason = failure.msg if isinstance(failure, SyntaxError) else type(failure).__name__
        raise ExpressionError(f"{option} {shown!r}: not an expression ({reason})") from None
    builder = _Builder(text, option, shown, symbols, allow_new_names)
    return builder.build(tree.body, 0)


class _Builder:
    def __init__(self, text: str, option: str, shown: str, symbols: Mapping[str, sp.Symbol], allow_new_names: bool):
        self.text = text
        self.option = option
        self.shown = shown
        self.symbols = dict(symbols)
        self.allow_new_names = allow_new_names

    def fail(self, why: str) -> ExpressionError:
        return ExpressionError(f"{self.option} {self.shown!r}: {why}")

    def build(self, node: ast.AST, depth: int) -> sp.Basic:
        if depth > MAX_DEPTH:
            raise self.fail(f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(node, ast.Constant):
            return self.number(node)
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
            operand = self.build(node.operand, depth + 1)
            return -operand if isinstance(node.op, ast.USub) else operand
        if isinstance(node, ast.BinOp):
            left, right = self.build(node.left, depth + 1), self.build(node.right, depth + 1)
            if isinstance(node.op, ast.Add):
                return left + right
            if isinstance(node.op, ast.Sub):
                return left - right
            if isinstance(node.op, ast.Mult):
                return left * right
            if isinstance(node.op, ast.Div):
                if right == 0:
                    raise self.fail("division by zero")
                return left / right
            if isinstance(node.op, ast.Pow):
                return self.power(left, right)
            raise self.fail(f"the operator {type(node.op).__name__} is not allowed (only + - * / ** ^)")
        if isinstance(node, ast.Call):
            return self.call(node, depth)
        if isinstance(node, ast.Attribute):
            raise self.fail("attribute access (a.b) is not allowed")
        if isinstance(node, ast.Subscript):
            raise self.fail("subscripts (a[b]) are not allowed")
        raise self.fail(f"{type(node).__name__} is not allowed in an expression")

    def number(self, node: ast.Constant) -> sp.Basic:
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            raise self.fail(f"{node.value!r} is not a number (strings and other literals are not allowed)")
        source = ast.get_source_segment(self.text.strip(), node) or repr(node.value)
        mantissa = re.split(r"[eE]", source)[0]
        if "_" in source or sum(c.isdigit() for c in mantissa) > MAX_DIGITS or not re.fullmatch(r"(\d+\.?\d*|\.\d+)([eE][+-]?\d{1,3})?", source):
            raise self.fail(f"the number {source[:20]!r} is not a plain decimal of at most {MAX_DIGITS} digits (exponent at most 3 digits)")
        exact = Fraction(source)  # 0.1 is 1/10, exactly as written
        return sp.Rational(exact.numerator, exact.denominator)

    def name(self, identifier: str) -> sp.Basic:
        if identifier in self.symbols:
            return self.symbols[identifier]
        if identifier in CONSTANTS:
            return CONSTANTS[identifier]
        if identifier in FUNCTIONS:
            raise self.fail(f"{identifier} is a function: call it as {identifier}(...)")
        if "__" in identifier or not _NAME.fullmatch(identifier):
            raise self.fail(f"the name {identifier[:20]!r} is not allowed")
        if not self.allow_new_names:
            raise self.fail(f"unknown name {identifier!r}; allowed: {', '.join(sorted(self.symbols) + sorted(CONSTANTS))}")
        symbol = sp.Symbol(identifier, real=True)
        self.symbols[identifier] = symbol
        return symbol

    def power(self, base: sp.Basic, exponent: sp.Basic) -> sp.Basic:
        if exponent.is_Number:
            if exponent.is_infinite or abs(exponent) > MAX_EXPONENT:
                raise self.fail(f"a numeric exponent must be at most {MAX_EXPONENT} in size")
            if base.is_Number and base.is_finite and base != 0:
                size = max(abs(int(base.p)), abs(int(base.q)), 10) if base.is_Rational else 10
                digits = abs(float(exponent)) * math.log10(size)  # log10 of a Python int of any size
                if digits > MAX_POWER_DIGITS:
                    raise self.fail(f"the power has about {digits:.3g} digits; at most {MAX_POWER_DIGITS}")
        return base**exponent

    def call(self, node: ast.Call, depth: int) -> sp.Basic:
        if not isinstance(node.func, ast.Name):
            raise self.fail(f"only a function name can be called (here: {type(node.func).__name__.lower()}); functions: {', '.join(FUNCTIONS)}")
        if node.func.id not in FUNCTIONS:
            raise self.fail(f"calling {node.func.id[:20]!r} is not allowed; functions: {', '.join(FUNCTIONS)}")
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise self.fail("only positional arguments are allowed")
        function = node.func.id
        if not node.args:
            raise self.fail(f"{function}() needs an argument")
        arguments = []
        for position, argument in enumerate(node.args):
            if isinstance(argument, ast.Tuple):
                if function not in _WITH_LIMITS or position == 0 or not 1 <= len(argument.elts) <= 3:
                    raise self.fail(f"a tuple is allowed only as the limits (x, low, high) of {' or '.join(sorted(_WITH_LIMITS))}")
                items = [self.build(item, depth + 1) for item in argument.elts]
                if not isinstance(items[0], sp.Symbol):
                    raise self.fail(f"the variable of {function}'s limits must be a name")
                arguments.append(sp.Tuple(*items))
            else:
                arguments.append(self.build(argument, depth + 1))
        try:
            return FUNCTIONS[function](*arguments)
        except (TypeError, ValueError) as failure:
            raise self.fail(f"{function}: {' '.join(str(failure).split())[:120]}") from None
