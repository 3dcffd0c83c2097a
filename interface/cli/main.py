"""The `shuffle-spec` command-line tool.

Subcommands live in `interface/cli/commands/`, one module each, discovered at start-up: each defines
`NAME`, `HELP`, `add_arguments(parser)` and `run(args) -> int`. Stdout carries data only; errors go
to stderr. Exit codes: 0 ok, 1 a check or audit failed, 2 usage error, 3 an audit that decided nothing (`audit
bound`: every call inside the hypotheses INCONCLUSIVE), 130 interrupted (Ctrl-C: one
line on stderr, `shuffle-spec CMD: interrupted`; an audited child process is killed on the way out).
"""

from __future__ import annotations

import argparse
import ast
import errno
import gc
import importlib
import pkgutil
import signal
import sys
from pathlib import Path
from typing import Sequence

from . import commands
from ...proofs_checks.bridge import UsageError
from ..limits import TimeLimitExceeded, TimeLimitInterrupt, allow_worker_processes, fewer_collections, limit_memory, reuse_freed_memory, single_threaded_blas
from ..version import __version__
from .progress_bar import ENVIRONMENT_VARIABLE, FLAG, progress_bars

__all__ = ["main", "build_parser"]


def _command_names() -> list[str]:
    return sorted(info.name for info in pkgutil.iter_modules(commands.__path__) if not info.name.startswith("_"))


def _command_modules(only: str | None = None):
    # With a command named on the command line only its module is imported: the others pull in SymPy
    # and the registry, which a fast `eval` must not pay for.
    for name in _command_names():
        if only is None or name == only:
            yield importlib.import_module(f"{commands.__name__}.{name}")


def _command_summary(name: str) -> tuple[str, str]:
    """(NAME, HELP) of a command module read from its source, without importing it (its imports may pull in SymPy
    and NumPy: seconds that `shuffle-spec --help` must not pay). A module whose NAME or HELP is not a plain string
    literal is imported instead."""
    path = Path(commands.__path__[0]) / f"{name}.py"
    found: dict[str, str] = {}
    try:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and node.targets[0].id in ("NAME", "HELP"):
                if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                    found[node.targets[0].id] = node.value.value
    except (OSError, SyntaxError):
        # The source is not readable as a file here (e.g. a zip or a frozen install): importing the module below
        # gives the same NAME and HELP, only slower.
        found = {}
    if set(found) == {"NAME", "HELP"}:
        return found["NAME"], found["HELP"]
    module = importlib.import_module(f"{commands.__name__}.{name}")
    return module.NAME, module.HELP


def build_parser(only: str | None = None, *, summaries_only: bool = False) -> tuple[argparse.ArgumentParser, dict]:
    """The parser and the runners of the commands (`only`: that command's alone). `summaries_only`: every command
    listed by its name and help, none imported (for `shuffle-spec --help` and a misspelt command: no runners)."""
    parser = argparse.ArgumentParser(
        prog="shuffle-spec",
        description="Formally-checked reference specification of privacy amplification by shuffling. "
        "With no command: a short report for the default scenario.",
    )
    parser.add_argument("--version", action="version", version=f"shuffle-spec {__version__}")
    parser.add_argument(FLAG, action="store_true",
                        help=f"progress bars on stderr even when it is not a terminal (also {ENVIRONMENT_VARIABLE}=1; =0 turns them off); "
                        "may be given anywhere on the command line")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    runners: dict = {}
    if summaries_only:
        for name in _command_names():
            command_name, summary = _command_summary(name)
            sub.add_parser(command_name, help=summary, description=summary)
        return parser, runners
    for module in _command_modules(only):
        command_parser = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP, epilog=getattr(module, "EPILOG", None))
        module.add_arguments(command_parser)
        runners[module.NAME] = module.run
    return parser, runners


def _options(parser: argparse.ArgumentParser) -> tuple[set[str], set[str]]:
    """(every option string of the parser and its subcommands, those of them that take a value)."""
    every: set[str] = set()
    valued: set[str] = set()
    for action in parser._actions:  # noqa: SLF001 - argparse offers no public walk over its actions
        every.update(action.option_strings)
        if action.option_strings and action.nargs != 0:
            valued.update(action.option_strings)
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            for sub in action.choices.values():
                sub_every, sub_valued = _options(sub)
                every |= sub_every
                valued |= sub_valued
    return every, valued


def _join_negative_values(parser: argparse.ArgumentParser, argv: Sequence[str]) -> list[str]:
    """`--delta -1e-6` -> `--delta=-1e-6` (likewise `--expr -eps0`): argparse would read a value that
    starts with '-' as an unknown option ("expected one argument"); joined, it reaches the command,
    which rejects a negative number with the parameter's range."""
    every, valued = _options(parser)
    out: list[str] = []
    for token in argv:
        previous = out[-1] if out else ""
        if token.startswith("-") and token not in every and token != "--" and previous in valued:
            out[-1] = f"{previous}={token}"
        else:
            out.append(token)
    return out


def _one_line(message: object) -> str:
    return " ".join(str(message).split())


INTERRUPTED = 130  # the shell's code for a program ended by SIGINT (128 + 2)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit code (0 ok, 1 a check or audit failed, 2 usage error, 3 an audit that
    decided nothing, 130 interrupted). Never a traceback: any failure, and Ctrl-C, is one line on stderr."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    name = "shuffle-spec"
    try:
        named = [a for a in arguments if a != FLAG][:1]
        if named and named[0] in _command_names():
            name = f"shuffle-spec {named[0]}"
        return _main(argv, arguments)
    except KeyboardInterrupt:
        if argv is None:  # a program about to exit: a second Ctrl-C must not cut this line short
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        print(f"{name}: interrupted", file=sys.stderr)
        return INTERRUPTED
    finally:
        if argv is None:  # run as a program: the process ends when this returns
            _skip_the_collections_at_exit()


def _skip_the_collections_at_exit() -> None:
    """Exempt every object alive now from the garbage collector's passes (`gc.freeze`). The interpreter's shutdown
    runs full collections over every tracked object (30 000 after a k-RR `tightest`, NumPy's and mpmath's included):
    0.1-0.2 s of wall time that only returns memory to a process about to end (0.03-0.04 s frozen). Shutdown is
    otherwise the same: the standard streams are flushed, atexit handlers run, and an object that nothing refers to is
    still freed (and a file closed) when its module is cleared; only garbage held in reference cycles is left to the
    end of the process."""
    gc.freeze()


def _main(argv: Sequence[str] | None, arguments: list[str]) -> int:
    if argv is None:  # run as a program (console script, python -m): bound its memory, one BLAS thread, fewer collections
        limit_memory()
        single_threaded_blas()
        fewer_collections()
    # --progress is a switch of the whole tool, taken wherever it stands (before or after the command's name);
    # no command has an option or a value of that spelling.
    forced = FLAG in arguments
    arguments = [a for a in arguments if a != FLAG]
    with progress_bars(forced):
        return _run(arguments, as_program=argv is None)


# The errors of a write that found no room or no device: the output's fault, not the computation's.
_WRITE_ERRNOS = frozenset(getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG", "EIO") if hasattr(errno, name))


def _run(arguments: list[str], *, as_program: bool = False) -> int:
    if not arguments:  # the main job: the default report needs no command module (nor SymPy)
        from .report import run_default_report

        if as_program:
            reuse_freed_memory()
        try:
            return run_default_report()
        except BrokenPipeError:
            sys.stderr.close()
            return 0
    named = arguments[0] if arguments[0] in _command_names() else None
    # With no command named (`--help`, `--version`, a misspelt command) no command module is imported.
    parser, runners = build_parser(only=named) if named is not None else build_parser(summaries_only=True)
    args = parser.parse_args(_join_negative_values(parser, arguments))
    name = f"shuffle-spec {args.command or ''}".rstrip()
    if as_program:  # a command about to compute (`--help`, `--version` and usage errors have exited above)
        reuse_freed_memory()
        allow_worker_processes()
    try:
        if args.command is None:
            from .report import run_default_report

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
    except (TimeLimitExceeded, TimeLimitInterrupt) as failure:  # an interrupt only where it fires as its block ends
        message = _one_line(failure)
        # A time budget of the user's own (--time-budget) says so itself; a fixed internal limit is named here.
        print(f"{name}: error: {message}" if "time budget" in message else f"{name}: error: the computation took too long ({message})", file=sys.stderr)
        return 2
    except OSError as failure:
        # A full device or a failed disk under the output (stdout on /dev/full, a quota): the answer was computed but not
        # written, which "cannot compute this" would misreport.
        what = "cannot write the output" if failure.errno in _WRITE_ERRNOS else "cannot compute this"
        print(f"{name}: error: {what} ({type(failure).__name__}: {_one_line(failure)})", file=sys.stderr)
        return 2
    except (ArithmeticError, RecursionError, MemoryError) as failure:
        print(f"{name}: error: cannot compute this ({type(failure).__name__}: {_one_line(failure)})", file=sys.stderr)
        return 2
    except Exception as failure:  # noqa: BLE001 - a bug of ours: still one line, and say so
        print(f"{name}: internal error: {type(failure).__name__}: {_one_line(failure)} (please report this)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
