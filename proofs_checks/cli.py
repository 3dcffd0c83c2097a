"""The `shuffle-spec` command-line tool.

Subcommands live in `proofs_checks/commands/`, one module each, discovered at start-up: each defines
`NAME`, `HELP`, `add_arguments(parser)` and `run(args) -> int`. Stdout carries data only; errors go
to stderr. Exit codes: 0 ok, 1 a check or audit failed, 2 usage error.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from typing import Sequence

from shuffle_spec.proofs_checks import commands
from shuffle_spec.proofs_checks.bridge import UsageError

__all__ = ["main", "build_parser"]


def _command_names() -> list[str]:
    return sorted(info.name for info in pkgutil.iter_modules(commands.__path__) if not info.name.startswith("_"))


def _command_modules(only: str | None = None):
    # With a command named on the command line only its module is imported: the others pull in SymPy
    # and the registry, which a fast `eval` must not pay for.
    for name in _command_names():
        if only is None or name == only:
            yield importlib.import_module(f"{commands.__name__}.{name}")


def build_parser(only: str | None = None) -> tuple[argparse.ArgumentParser, dict]:
    parser = argparse.ArgumentParser(
        prog="shuffle-spec",
        description="Formally-checked reference specification of privacy amplification by shuffling. "
        "With no command: a short report for the default scenario.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    runners = {}
    for module in _command_modules(only):
        command_parser = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(command_parser)
        runners[module.NAME] = module.run
    return parser, runners


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not arguments:  # the main job: the default report needs no command module (nor SymPy)
        from shuffle_spec.proofs_checks.report import run_default_report

        try:
            return run_default_report()
        except BrokenPipeError:
            sys.stderr.close()
            return 0
    named = arguments[0] if arguments[0] in _command_names() else None
    parser, runners = build_parser(only=named) if named is not None else build_parser()
    args = parser.parse_args(arguments)
    try:
        if args.command is None:
            from shuffle_spec.proofs_checks.report import run_default_report

            return run_default_report()
        return runners[args.command](args)
    except (UsageError, KeyError) as failure:
        message = failure.args[0] if failure.args else str(failure)
        print(f"shuffle-spec {args.command or ''}: error: {message}", file=sys.stderr)
        return 2
    except ValueError as failure:
        print(f"shuffle-spec {args.command or ''}: error: {failure}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader (e.g. `head`) stopped early: not an error of ours
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
