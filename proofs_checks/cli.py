"""The `shuffle-spec` command-line tool.

Subcommands live in `proofs_checks/commands/`, one module each, discovered at start-up: each defines
`NAME`, `HELP`, `add_arguments(parser)` and `run(args) -> int`. Stdout carries data only; errors go
to stderr. Exit codes: 0 ok, 1 a check or audit failed, 2 usage error.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re
import sys
from typing import Sequence

from shuffle_spec.proofs_checks import commands
from shuffle_spec.proofs_checks.bridge import UsageError
from shuffle_spec.proofs_checks.limits import TimeLimitExceeded

__all__ = ["main", "build_parser"]


def _command_modules():
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        if not info.name.startswith("_"):
            yield importlib.import_module(f"{commands.__name__}.{info.name}")


def build_parser() -> tuple[argparse.ArgumentParser, dict]:
    parser = argparse.ArgumentParser(
        prog="shuffle-spec",
        description="Formally-checked reference specification of privacy amplification by shuffling. "
        "With no command: a short report for the default scenario.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    runners = {}
    for module in _command_modules():
        command_parser = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP, epilog=getattr(module, "EPILOG", None))
        module.add_arguments(command_parser)
        runners[module.NAME] = module.run
    return parser, runners


# A token such as -1e-6, -.5, -1/2 or -inf: a (negative) value, not an option.
_NEGATIVE_VALUE = re.compile(r"-(?:\.?\d|inf|nan)", re.IGNORECASE)


def _join_negative_values(argv: Sequence[str]) -> list[str]:
    """`--delta -1e-6` -> `--delta=-1e-6`: argparse would read -1e-6 as an unknown option ("expected one
    argument"); joined, the value reaches the command, which rejects it with the parameter's range."""
    out: list[str] = []
    for token in argv:
        previous = out[-1] if out else ""
        if _NEGATIVE_VALUE.match(token) and previous.startswith("-") and not _NEGATIVE_VALUE.match(previous) and "=" not in previous:
            out[-1] = f"{previous}={token}"
        else:
            out.append(token)
    return out


def _one_line(message: object) -> str:
    return " ".join(str(message).split())


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit code (0 ok, 1 a check or audit failed, 2 usage error).
    Never a traceback: any failure is one line on stderr."""
    parser, runners = build_parser()
    args = parser.parse_args(_join_negative_values(sys.argv[1:] if argv is None else list(argv)))
    name = f"shuffle-spec {args.command or ''}".rstrip()
    try:
        if args.command is None:
            from shuffle_spec.proofs_checks.report import run_default_report

            return run_default_report()
        return runners[args.command](args)
    except (UsageError, KeyError) as failure:
        message = failure.args[0] if failure.args else str(failure)
        print(f"{name}: error: {_one_line(message)}", file=sys.stderr)
        return 2
    except ValueError as failure:
        print(f"{name}: error: {_one_line(failure)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader (e.g. `head`) stopped early: not an error of ours
        sys.stderr.close()
        return 0
    except TimeLimitExceeded as failure:
        print(f"{name}: error: the computation took too long ({_one_line(failure)})", file=sys.stderr)
        return 2
    except (ArithmeticError, RecursionError, MemoryError, OSError) as failure:
        print(f"{name}: error: cannot compute this ({type(failure).__name__}: {_one_line(failure)})", file=sys.stderr)
        return 2
    except Exception as failure:  # noqa: BLE001 - a bug of ours: still one line, and say so
        print(f"{name}: internal error: {type(failure).__name__}: {_one_line(failure)} (please report this)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
