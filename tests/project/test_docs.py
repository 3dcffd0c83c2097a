"""The documentation site builds with warnings as errors, and every example in its guides is what the code
does today.

- The build: `python3 -m sphinx -W --keep-going -b html docs OUT` (the command of `docs/conf.py`), into a
  temporary folder; docutils' own messages, which some extensions print without going through Sphinx's
  warnings, fail it too. The generated pages must carry every statement id of the catalog, every public
  name of the face and every command of the CLI.
- The examples: `docs/examples.py --check` page by page: every `$ shuffle-spec ...` console example is run and
  its shown output compared, every python session run with doctest; numbers must agree to 1e-9 relative,
  so a changed number fails.

Second tier (`slow`): the build takes about 20 s, the guides' commands about a minute (they audit, compose
and check).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from support.paths import ROOT

pytestmark = pytest.mark.slow

DOCS = ROOT / "docs"
BUILD_MODULES = ("sphinx", "myst_parser", "sphinxarg", "furo")


def _examples_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_examples", DOCS / "examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["docs_examples"] = module
    spec.loader.exec_module(module)
    return module


TOOL = _examples_tool()


def _missing_build_modules() -> list[str]:
    return [name for name in BUILD_MODULES if importlib.util.find_spec(name) is None]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    missing = _missing_build_modules()
    if missing and os.environ.get("CI"):  # CI installs the docs extra (.ci/run): a missing module is a failure there
        pytest.fail(f"the docs extra is not installed in CI (missing {', '.join(missing)})")
    if missing:
        pytest.skip(f"the docs extra is not installed (missing {', '.join(missing)}): python3 -m pip install -e '.[docs]'")
    out = tmp_path_factory.mktemp("docs") / "html"
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=900, check=False,
    )
    assert result.returncode == 0, f"the docs build failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    messages = re.findall(r"^.*\((?:INFO|WARNING|ERROR|SEVERE)/\d\).*$", result.stderr, flags=re.MULTILINE)
    assert messages == [], f"docutils reported problems the build did not count as warnings: {messages[:5]}"
    return out


def test_the_site_builds_with_warnings_as_errors(site):
    for page in ("index", "soundness", "guides/start", "guides/audit", "guides/vectors", "guides/derive", "guides/compose", "reference/statements",
                 "reference/api", "reference/cli", "audits/README", "audits/balle", "benchmarks/tightness", "benchmarks/composition", "benchmarks/speed",
                 "commands", "composition", "exact_binary_rr", "tight_bounds", "testing"):
        assert (site / f"{page}.html").is_file(), page


def test_the_catalogue_page_lists_every_statement(site):
    statements = json.loads((ROOT / "spec" / "catalog.json").read_text())["statements"]
    page = (site / "reference" / "statements.html").read_text()
    missing = [s["id"] for s in statements if f">{s['id']}<" not in page]
    assert missing == []
    # Upper bounds come first: what is safe to rely on is what a reader meets first.
    assert page.index("direction-upper-bound") < page.index("direction-exact") < page.index("direction-lower-bound")


def test_the_api_page_documents_every_public_name(site):
    import shuffle_spec

    page = (site / "reference" / "api.html").read_text()
    missing = [name for name in shuffle_spec.__all__ if f'id="shuffle_spec.{name}"' not in page]
    assert missing == []


def test_the_cli_page_documents_every_command(site):
    from shuffle_spec.interface.cli.main import _command_names

    page = (site / "reference" / "cli.html").read_text()
    assert [name for name in _command_names() if f"<h3>{name}<" not in page] == []  # a section per command


def test_the_pages_do_not_depend_on_the_machine(site):
    """No absolute path of the build machine and no build date in what a reader gets."""
    for page in site.rglob("*.html"):
        text = page.read_text()
        assert str(ROOT) not in text, page
        assert "Last updated" not in text, page


def test_nothing_generated_is_committed():
    listing = subprocess.run(["git", "ls-files", "docs"], cwd=ROOT, capture_output=True, text=True, check=False)
    if listing.returncode != 0:
        pytest.skip("not a git checkout")
    assert [name for name in listing.stdout.split() if name.startswith("docs/_build/")] == []


@pytest.mark.parametrize("page", TOOL.pages(), ids=lambda page: str(page.relative_to(DOCS)))
def test_guide_examples_are_what_the_code_does_today(page):
    """Regenerate with `python3 docs/examples.py --write` (console outputs; python outputs by hand)."""
    text = page.read_text(encoding="utf-8")
    _, problems = TOOL.console_problems(page, text, TOOL._readme_examples())
    problems += TOOL.python_problems(page, text)
    assert problems == [], "\n".join(problems)


def test_every_guide_shows_checked_examples():
    tool = TOOL._readme_examples()
    for page in (DOCS / "guides").glob("*.md"):
        text = page.read_text(encoding="utf-8")
        run = tool.examples(text.split("\n"))
        sessions = [body for language, _, body in TOOL.fences(text) if language == "python"]
        assert run or sessions, f"{page.name} shows no example that the tests run"


def test_the_checker_fails_on_a_changed_number():
    assert TOOL.same_text("interval: [0.1803233098198223, 0.1831937775670482]", "interval: [0.1803233098198223, 0.1831937775670482]")
    assert TOOL.same_text("eps 0.1831937775670482", "eps 0.18319377756704825")  # the last digits of a float
    assert not TOOL.same_text("eps 0.1831937775670482", "eps 0.1832")  # a changed number
    assert not TOOL.same_text("eps 0.1831937775670482", "delta 0.1831937775670482")  # a changed word
    assert not TOOL.same_text("FMT21.Thm2.1 0.5", "FMT23.Thm2.1 0.5")  # digits inside an id are text
    checker = TOOL.NumberTolerantChecker()
    assert not checker.check_output("(0.18, 0.19)\n", "(0.18, 0.2)\n", 0)


def test_the_checker_refuses_unchecked_examples():
    page = DOCS / "guides" / "unchecked.md"  # a name only: nothing is written under docs/
    session_without_prompt = "```python\nimport shuffle_spec\n```\n"
    assert any("without `>>> `" in p for p in TOOL.python_problems(page, session_without_prompt))
    output_of_unrun_command = "```console\n$ python3 -c 'print(1)'\n1\n```\n"
    _, problems = TOOL.console_problems(page, output_of_unrun_command, TOOL._readme_examples())
    assert any("which is not run" in p for p in problems)
