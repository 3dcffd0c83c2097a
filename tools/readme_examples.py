"""Regenerate (or check) the example outputs in README.md from the code: never edited by hand.

Every fenced block of README.md is scanned for lines `$ shuffle-spec ARGS` (a trailing `# comment` is
not part of the command). A command followed by output lines is run in-process (stdout and stderr, as a
terminal shows them, from the repository root) and its output lines are replaced:

- when the README shows the whole output (no `...` line), by the whole output;
- when it shows a selection (`...` marks left-out lines), each shown line by the next line of the
  real output with the same key (its words before the first number), in order, so the selection is
  kept; a trailing `# comment` on a shown line is kept.

Commands shown without output (`vectors generate`, `plot -o`, `pip install`, redirections) are not run.

    python3 tools/readme_examples.py --check    # exit 1 and the differences when the README is stale
    python3 tools/readme_examples.py --write    # rewrite README.md
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PROMPT = "$ shuffle-spec"
ELLIPSIS = "..."
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
_NUMBER_TOKEN = re.compile(r"[(\[{]*[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?[)\]},:;]*")


@dataclass
class Example:
    """One `$ shuffle-spec ...` line of the README and the output lines shown under it."""

    command: str
    line: int  # index of the `$` line in the README's lines
    shown: list[int] = field(default_factory=list)  # indices of its output lines

    @property
    def argv(self) -> list[str]:
        text = self.command[len(PROMPT):]
        return shlex.split(text, comments=True)


def examples(lines: list[str]) -> list[Example]:
    """Every `$ shuffle-spec` line inside a fenced block, with the output lines under it."""
    found: list[Example] = []
    inside = False
    current: Example | None = None
    for index, line in enumerate(lines):
        if line.startswith("```"):
            inside = not inside
            current = None
            continue
        if not inside:
            continue
        if line.startswith("$ "):
            current = Example(line, index) if line.startswith(PROMPT) and (line == PROMPT or line[len(PROMPT)] == " ") else None
            if current is not None:
                found.append(current)
        elif current is not None:
            current.shown.append(index)
    return [e for e in found if e.shown]


def run(argv: list[str]) -> list[str]:
    """The command's output lines as a terminal shows them (stdout, then stderr), run from the root."""
    from shuffle_spec.interface.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    previous = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(argv)
            except SystemExit:
                pass
    finally:
        os.chdir(previous)
    return (out.getvalue() + err.getvalue()).rstrip("\n").split("\n")


def _split_comment(line: str) -> tuple[str, str]:
    """(text, trailing comment with its leading spaces) of a shown output line."""
    match = re.search(r"\s{2,}# .*$", line)
    return (line[: match.start()], line[match.start():]) if match else (line, "")


def key(line: str) -> tuple[str, ...]:
    """The words of a line before its first number: what identifies the line across versions."""
    words = []
    for word in line.split():
        if _NUMBER_TOKEN.fullmatch(word):
            break
        words.append(word)
    return tuple(words)


def numbers(line: str) -> list[str]:
    """The numeric tokens of a line, as written, ignoring those inside identifiers (FMT21, eps0)."""
    return [m.group(0) for m in NUMBER.finditer(line) if (m.start() == 0 or not (line[m.start() - 1].isalnum() or line[m.start() - 1] in "._"))]


def regenerate(text: str, runner=run) -> tuple[str, list[str]]:
    """(README with every example's output regenerated, problems found such as a shown line the
    command no longer prints). Examples are rewritten from the last one up, so that a block whose
    length changes does not move the lines of those still to do."""
    lines = text.split("\n")
    problems: list[str] = []
    for example in reversed(examples(lines)):
        real = runner(example.argv)
        shown = [lines[i] for i in example.shown]
        first, last = example.shown[0], example.shown[-1]
        if ELLIPSIS not in (_split_comment(s)[0].strip() for s in shown):
            _, comment = _split_comment(lines[last])
            lines[first : last + 1] = real[:-1] + [real[-1] + comment] if comment else real
            continue
        cursor = 0
        for index in example.shown:
            body, comment = _split_comment(lines[index])
            if body.strip() == ELLIPSIS:
                continue
            wanted = key(body)
            for position in range(cursor, len(real)):
                if key(real[position]) == wanted:
                    new = real[position]
                    lines[index] = (new.ljust(len(body)) + comment) if comment else new
                    cursor = position + 1
                    break
            else:
                problems.append(f"README line {index + 1}: {example.command!r} no longer prints a line like {body.strip()[:80]!r}")
    return "\n".join(lines), problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="exit 1 when an example's output is stale")
    mode.add_argument("--write", action="store_true", help="rewrite README.md")
    args = parser.parse_args(argv)
    text = README.read_text()
    new, problems = regenerate(text)
    for problem in problems:
        print(problem, file=sys.stderr)
    if args.write:
        README.write_text(new)
        print(f"README.md: {'rewritten' if new != text else 'already current'}")
        return 1 if problems else 0
    if new != text:
        import difflib

        sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True), "README.md", "regenerated"))
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
