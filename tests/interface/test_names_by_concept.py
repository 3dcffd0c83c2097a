"""The interface, its benchmarks, tools, examples, tests and the README name things by concept: no references to
work items ("issue 15", "item 4", "work package") or to internal files a user does not have (the statements'
drafting notes, their seed labels such as "S003"). A reader cites a paper, a section, an equation.

The README's statements table is generated from the statements (spec/) and is left to them: only the text
around it is checked here."""

import re
from pathlib import Path

import pytest

from shuffle_spec.interface.cli.readme_table import BEGIN, END

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ["interface", "benchmarks", "tools", "examples", "tests/interface", "tests/properties", "tests/invalid_inputs", "tests/support"]
SUFFIXES = {".py", ".md", ".json", ".txt"}
WORK_ITEMS = re.compile(r"[Ii]ssue[ -][0-9]|[Ii]tem ?[0-9]|work package|shared/statements|\bS00[0-9]")


def _files() -> list[Path]:
    found = [p for folder in FOLDERS for p in sorted((ROOT / folder).rglob("*")) if p.suffix in SUFFIXES and p.is_file()]
    return [p for p in found if p != Path(__file__).resolve()]


def _readme_outside_the_generated_table() -> str:
    text = (ROOT / "README.md").read_text()
    return text[: text.index(BEGIN)] + text[text.index(END):]


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_work_item_references(path):
    hits = [f"{number}: {line.strip()[:100]}" for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1) if WORK_ITEMS.search(line)]
    assert hits == [], f"{path.relative_to(ROOT)} cites work items or internal files (say the concept or cite the paper)"


def test_no_work_item_references_in_the_readme_text():
    hits = [line.strip()[:100] for line in _readme_outside_the_generated_table().splitlines() if WORK_ITEMS.search(line)]
    assert hits == []


@pytest.mark.parametrize("line", ["see issue 15", "Issue 11 item 3", "the tight work package", "S003 Sec. 3", "(shared/statements/fmt21.md)", "test_item4_"])
def test_the_pattern_sees_work_items(line):
    assert WORK_ITEMS.search(line)


@pytest.mark.parametrize("line", ["round 0 of the schedule", "an interval around 0", "one item of the list", "the issue's"])
def test_the_pattern_leaves_concepts_alone(line):
    assert not WORK_ITEMS.search(line)
