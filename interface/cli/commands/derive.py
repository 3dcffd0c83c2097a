"""`shuffle-spec derive ID [--expr EXPRESSION] [--subs NAME=VALUE ...] [--solve NAME] [--series NAME=POINT] [--latex | --python | --json]`:
simplify, solve, expand or export a statement's closed form with SymPy.

This module is the command's front: its name, help and options, so that `shuffle-spec derive --help` imports no
SymPy. The work, and every name the tests and the documentation use (`derive`, `python_function`,
`parse_expression`, ...), is in `_derive.py` (its docstring describes the command), imported when the command runs
or one of those names is asked for.
"""

from __future__ import annotations

import argparse
from typing import Any

NAME = "derive"
HELP = "simplify, solve, expand asymptotically or export (LaTeX / Python) a statement's closed form"
EPILOG = None  # build_parser asks for it: an answer here, not from _derive (which would import SymPy)

# The grammar of --expr, as the help states it: the function names and the length limit of
# `interface/derive/expressions.py` (FUNCTIONS, MAX_CHARS), written out here because that module imports SymPy;
# tests/interface/cli/test_startup.py checks that they agree.
EXPRESSION_FUNCTIONS = (
    "exp", "log", "sqrt", "Abs", "Max", "Min", "sin", "cos", "tan", "sinh", "cosh", "tanh", "erf", "floor", "ceiling", "sign", "Integral", "Sum",
)
EXPRESSION_MAX_CHARS = 500


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", help="statement id")
    parser.add_argument("--expr", metavar="EXPRESSION", help="derive this expression in the statement's parameters instead (e.g. the integral its closed form comes from) and compare with the closed form; "
                        f"a restricted grammar (numbers, names, + - * / ** ^, functions {', '.join(EXPRESSION_FUNCTIONS)}), at most {EXPRESSION_MAX_CHARS} characters, never evaluated as Python")
    parser.add_argument("--subs", action="append", default=[], metavar="NAME=VALUE", help="substitute a value (repeatable; exact: 0.1 is 1/10)")
    parser.add_argument("--solve", metavar="NAME", help="solve output = value for this parameter")
    parser.add_argument("--series", metavar="NAME=POINT", help="leading asymptotic term, e.g. n=oo")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--latex", action="store_true", help="print LaTeX")
    form.add_argument("--python", action="store_true", help="print a stand-alone Python module: the closed form as a certified float (interval arithmetic, hypotheses proved)")
    form.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    from . import _derive

    return _derive.run(args)


def __getattr__(name: str) -> Any:
    """Every other name of the command (`derive`, `python_function`, `parse_expression`, ...) is `_derive`'s."""
    if name.startswith("__"):
        raise AttributeError(name)
    from . import _derive

    return getattr(_derive, name)
