"""`shuffle-spec show ID [--latex] [--json]`: a statement's hypotheses and conclusion."""

from __future__ import annotations

import argparse

from ..output import print_json

# SymPy and the statement modules are imported by `run` only: `shuffle-spec show --help` needs neither.

NAME = "show"
HELP = "show a statement's source, parameters, hypotheses and conclusion (pretty, --latex or --json)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", help="statement id, e.g. BBGN19.Thm5.3")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--latex", action="store_true", help="hypotheses and conclusion as LaTeX")
    form.add_argument("--json", action="store_true", help="print JSON (expressions in SymPy's string form and LaTeX)")


def _render(expr, statement, latex: bool) -> str:
    import sympy as sp

    from ....spec.symbols import latex_names

    if latex:
        return sp.latex(expr, symbol_names=latex_names(statement.symbols))
    return sp.pretty(expr, use_unicode=True)


def run(args: argparse.Namespace) -> int:
    import sympy as sp

    from .list import statement_summary
    from ....spec.registry import get_statement
    from ....spec.statement import assumption_text
    from ....spec.symbols import latex_names

    statement = get_statement(args.id)
    if args.json:
        summary = statement_summary(statement)
        names = latex_names(statement.symbols)
        summary.update(
            {
                "symbols": [{"name": str(s), "assumption": assumption_text(s)} for s in statement.symbols],
                "hypotheses": [sp.sstr(h) for h in statement.hypotheses],
                "conclusion": [sp.sstr(c) for c in statement.conclusion],
                "hypotheses_latex": [sp.latex(h, symbol_names=names) for h in statement.hypotheses],
                "conclusion_latex": [sp.latex(c, symbol_names=names) for c in statement.conclusion],
                "value": None if statement.value is None else sp.sstr(statement.value),
                "notes": statement.notes,
            }
        )
        if statement.effective_delta is not None:  # the conclusion holds at a delta other than the input delta
            summary["effective_delta"] = statement.effective_delta.to_json()
        print_json(summary)
        return 0
    print(f"{statement.id}  [{statement.kind.value}, {statement.direction.value}]  {statement.title}")
    print(f"source: {statement.source} (confidence: {statement.source.confidence})")
    print(f"reference: {statement.reference}")
    if statement.inputs:
        print(f"parameters (for eval): {', '.join(statement.input_names)}")
    print(f"assumptions: {', '.join(statement.assumptions)}")
    print("hypotheses:" if statement.hypotheses else "hypotheses: none beyond the assumptions")
    for h in statement.hypotheses:
        print("  " + _render(h, statement, args.latex).replace("\n", "\n  "))
    print("conclusion:")
    for c in statement.conclusion:
        print("  " + _render(c, statement, args.latex).replace("\n", "\n  "))
    if statement.effective_delta is not None:
        print(f"holds at: {statement.effective_delta.formula}")
    if statement.notes:
        print(f"notes: {statement.notes}")
    return 0

