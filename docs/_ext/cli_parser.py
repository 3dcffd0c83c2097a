"""The `shuffle-spec` argument parser for sphinx-argparse.

`interface/cli/main.py` builds the parser together with the commands' runners (`build_parser()` returns
both); sphinx-argparse needs a function returning the parser alone, which this is. The CLI reference is thus
generated from the parser that the command line itself uses.

sphinx-argparse reads descriptions and epilogs as reStructuredText. A command whose text is laid out by hand
(formatter `RawDescriptionHelpFormatter`: aligned columns, indented paragraphs, as `--help` shows them) is
not valid reStructuredText, so such a text is handed over as a literal block: the page shows it exactly as
`--help` prints it.
"""

from __future__ import annotations

import argparse
import textwrap

from shuffle_spec.interface.cli.main import build_parser


def _literal(text: str) -> str:
    return "::\n\n" + textwrap.indent(text, "    ")


def _keep_layout(parser: argparse.ArgumentParser) -> None:
    formatter = parser.formatter_class
    if isinstance(formatter, type) and issubclass(formatter, argparse.RawDescriptionHelpFormatter):
        if parser.description and "\n" in parser.description:
            parser.description = _literal(parser.description)
        if parser.epilog and "\n" in parser.epilog:
            parser.epilog = _literal(parser.epilog)
    for action in parser._actions:  # argparse offers no public walk over its subcommands
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                _keep_layout(child)


def parser() -> argparse.ArgumentParser:
    """The parser of `shuffle-spec` with every subcommand, hand-laid-out texts kept as literal blocks."""
    built = build_parser()[0]
    _keep_layout(built)
    return built
