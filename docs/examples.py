"""Check (or regenerate) the examples of the documentation's guides against what the code does today.

Pages checked: the pages at the top of `docs/` and `docs/guides/*.md`. (The worked audits in `docs/audits/` show other
projects' code and their audit runs, the benchmark pages their scripts' tables: neither is run here.)

- ```console blocks: every `$ shuffle-spec ARGS` line with output under it is run in-process from the
  repository root, by the rules of the README's examples (`tools/readme_examples.py`, reused as it is): a
  `...` line marks left-out output, the other shown lines are matched by their words before the first
  number. A command shown without output is not run; any other command (`$ python3 ...`) must be shown
  without output, since nothing checks it.
- ```python blocks: interactive sessions (`>>> ` lines and the output under them), run with doctest from the
  repository root, the blocks of one page in one namespace (a page's examples build on each other). A
  python block without `>>> ` is refused: its effect would be unchecked.

Shown and printed output must agree character for character except in the numbers, which must agree to
1e-9 relative (the last digits of a float may differ between machines' libm; a changed bound differs by far
more). So a changed number, a changed line and a missing line all fail.

    python3 docs/examples.py --check     # exit 1 and the problems when a guide is stale
    python3 docs/examples.py --write     # rewrite the console outputs (python outputs are written by hand)
"""

from __future__ import annotations

import argparse
import doctest
import importlib.util
import math
import os
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
RELATIVE = 1e-9
# A number as a token of its own: not the digits inside an identifier (FMT21, eps0, x0) or a version (2.1.apple).
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w])")


def pages() -> list[Path]:
    """The pages whose examples are run: the pages at the top of the site and every guide."""
    return [*sorted(DOCS.glob("*.md")), *sorted((DOCS / "guides").glob("*.md"))]


def _readme_examples() -> ModuleType:
    spec = importlib.util.spec_from_file_location("readme_examples", ROOT / "tools" / "readme_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["readme_examples"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def same_text(shown: str, printed: str) -> bool:
    """Equal but for numbers, and the numbers equal to `RELATIVE` (both infinite or nan alike)."""
    if NUMBER.sub("#", shown) != NUMBER.sub("#", printed):
        return False
    for a, b in zip(NUMBER.findall(shown), NUMBER.findall(printed), strict=True):
        x, y = float(a), float(b)
        if not (x == y or math.isclose(x, y, rel_tol=RELATIVE, abs_tol=0.0)):
            return False
    return True


def fences(text: str) -> list[tuple[str, int, list[str]]]:
    """(language, line number of the first body line (1-based), body lines) of every fenced block."""
    found: list[tuple[str, int, list[str]]] = []
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("```"):
            language = line[3:].strip()
            end = index + 1
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            found.append((language, index + 2, lines[index + 1 : end]))
            index = end + 1
        else:
            index += 1
    return found


def console_problems(path: Path, text: str, tool: ModuleType) -> tuple[str, list[str]]:
    """(the page with every console output regenerated, the problems found)."""
    name = path.relative_to(ROOT)
    problems: list[str] = []
    for language, first, body in fences(text):
        if language != "console":
            continue
        command: str | None = None
        for offset, line in enumerate(body):
            if line.startswith("$ "):
                command = line
            elif command is not None and command != tool.PROMPT and not command.startswith(tool.PROMPT + " "):
                problems.append(f"{name}:{first + offset}: output shown for {command!r}, which is not run: show none")
                command = None
    regenerated, found = tool.regenerate(text)
    problems += [f"{name}: {problem.removeprefix('README ')}" for problem in found]
    old, new = text.split("\n"), regenerated.split("\n")
    if len(old) != len(new):
        problems.append(f"{name}: a command's output has another number of lines today (run `python3 docs/examples.py --write`)")
    else:
        for number, (shown, printed) in enumerate(zip(old, new, strict=True), start=1):
            if shown != printed and not same_text(tool._split_comment(shown)[0].rstrip(), tool._split_comment(printed)[0].rstrip()):
                problems.append(f"{name}:{number}: shown {shown.strip()[:100]!r}, printed today {printed.strip()[:100]!r}")
    return regenerated, problems


class NumberTolerantChecker(doctest.OutputChecker):
    """doctest's comparison, but numbers agree to `RELATIVE` (see `same_text`)."""

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        return super().check_output(want, got, optionflags) or same_text(want.rstrip("\n"), got.rstrip("\n"))


def python_problems(path: Path, text: str) -> list[str]:
    """Run the page's python blocks as doctest sessions in one namespace; the failures as problems."""
    name = str(path.relative_to(ROOT))
    problems: list[str] = []
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    parser = doctest.DocTestParser()
    previous = os.getcwd()
    os.chdir(ROOT)
    try:
        for language, first, body in fences(text):
            if language != "python":
                continue
            source = "\n".join(body) + "\n"
            if ">>> " not in source:
                problems.append(f"{name}:{first}: a python block without `>>> `: write it as a session so its output is checked")
                continue
            test = parser.get_doctest(source, namespace, name, name, first - 1)
            report: list[str] = []
            runner = doctest.DocTestRunner(checker=NumberTolerantChecker(), optionflags=doctest.ELLIPSIS)
            runner.run(test, out=report.append, clear_globs=False)
            namespace = test.globs  # doctest runs on a copy of the namespace: the next block continues from this one
            problems += [f"{name}:{first}: {line}" for line in report]
    finally:
        os.chdir(previous)
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="exit 1 when an example's output is stale")
    mode.add_argument("--write", action="store_true", help="rewrite the console outputs of the pages")
    args = parser.parse_args(argv)
    tool = _readme_examples()
    problems: list[str] = []
    for path in pages():
        text = path.read_text(encoding="utf-8")
        regenerated, found = console_problems(path, text, tool)
        if args.write:
            if regenerated != text:
                path.write_text(regenerated, encoding="utf-8")
                print(f"{path.relative_to(ROOT)}: rewritten")
            found = [p for p in found if "is not run" in p or "no longer prints" in p]
        problems += found
        problems += python_problems(path, text)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
