"""The README is a current front page: it links to the statement catalogue instead of carrying a table
of statements, its two set-up commands are the ones `.ci/run` runs, and every example output is what the
command prints today."""

import importlib.util
import math
import re
import sys

from support.paths import ROOT
README = (ROOT / "README.md").read_text()

INSTALL_AND_RUN = "python3 -m pip install -e . && shuffle-spec"
INSTALL_AND_TEST = "python3 -m pip install -e '.[test]' && python3 -m pytest"


def test_readme_links_to_the_statement_catalogue():
    assert "(docs/reference/statements.md)" in README
    assert (ROOT / "docs" / "reference" / "statements.md").is_file()


def test_readme_has_no_statement_table_to_go_stale():
    """The catalogue page is generated from the registry at build time; a table of statement ids copied into
    the README would go stale as statements are added."""
    table_rows = [line for line in README.split("\n") if re.match(r"^\|\s*`[A-Za-z]+[0-9]*\.[^`]*`\s*\|", line)]
    assert table_rows == []
    assert "statements:begin" not in README


def test_readme_links_point_at_files_that_exist():
    targets = re.findall(r"\]\(([^)#:]+)\)", README)
    assert targets, "the front page links into the docs"
    assert [target for target in targets if not (ROOT / target).exists()] == []


def test_readme_gives_the_two_setup_commands():
    assert f"\n{INSTALL_AND_RUN}\n" in README
    assert f"\n{INSTALL_AND_TEST}\n" in README


def test_ci_runs_the_readme_test_command():
    assert INSTALL_AND_TEST in (ROOT / ".ci" / "run").read_text()


def _readme_examples():
    spec = importlib.util.spec_from_file_location("readme_examples", ROOT / "tools" / "readme_examples.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["readme_examples"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_readme_example_outputs_are_what_the_commands_print_today():
    """Every `$ shuffle-spec ...` example with output is run; each line shown must be printed today with
    the same numbers (regenerate with `python3 tools/readme_examples.py --write`)."""
    tool = _readme_examples()
    lines = README.split("\n")
    found = tool.examples(lines)
    assert len(found) >= 5  # the main job, one answer per user and a lower bound labelled as such
    regenerated, problems = tool.regenerate(README)
    assert problems == [], problems
    new_lines = regenerated.split("\n")
    stale = [
        (number + 1, old, new)
        for number, (old, new) in enumerate(zip(lines, new_lines, strict=True))
        if not _same_numbers(tool.numbers(old), tool.numbers(new))
    ]
    assert stale == [], f"stale README numbers (line, shown, printed today): {stale[:5]}"


def test_readme_python_session_is_what_the_api_returns_today():
    """The README's Python session is run as a doctest (numbers equal to 1e-9 relative), by the docs' tool."""
    spec = importlib.util.spec_from_file_location("docs_examples", ROOT / "docs" / "examples.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["docs_examples"] = module
    spec.loader.exec_module(module)
    assert ">>> " in README
    assert module.python_problems(ROOT / "README.md", README) == []


def _same_numbers(shown: list[str], printed: list[str]) -> bool:
    """Equal up to 1e-9 relative: the full-precision doubles that `eval --json` prints may differ in their
    last digits between machines (libm), far below any bound's certified tolerance; a stale figure
    differs by much more."""
    if len(shown) != len(printed):
        return False
    for a, b in zip(shown, printed, strict=True):
        try:
            x, y = float(a), float(b)
        except ValueError:
            if a != b:
                return False
            continue
        if not math.isclose(x, y, rel_tol=1e-9, abs_tol=0.0) and x != y:
            return False
    return True


def test_readme_example_tool_keeps_a_selection_and_replaces_whole_outputs():
    tool = _readme_examples()
    text = "\n".join([
        "```", "$ shuffle-spec bounds --x", "a.b  kind  0.5  True", "...", "c.d  kind  9  False  # why", "```",
        "```", "$ shuffle-spec eval x", "old 1", "```",
    ])
    outputs = {"bounds": ["a.b  kind  0.25  True", "z  kind  1", "c.d  kind  7  False"], "eval": ["new 2", "more 3"]}
    new, problems = tool.regenerate(text, runner=lambda argv: outputs[argv[0]])
    assert problems == []
    assert new.split("\n") == [
        "```", "$ shuffle-spec bounds --x", "a.b  kind  0.25  True", "...", "c.d  kind  7  False  # why", "```",
        "```", "$ shuffle-spec eval x", "new 2", "more 3", "```",
    ]
    assert tool.numbers("FMT21.Thm2.1  eps0=1.0 got 0.25, [1e-06]") == ["1.0", "0.25", "1e-06"]
    _, problems = tool.regenerate(text, runner=lambda argv: ["nothing like it"])
    assert len(problems) == 2
