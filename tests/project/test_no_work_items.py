"""Names say what a thing is, not when or why it was written.

Nothing a user reads (code, docstrings, comments, statements' sources, README and docs, test names, CLI
output built from those texts, the committed vectors) names a work item of the project's tracker ("issue 15",
"work item", "work package") or a file that only its authors have (the recovered-statement notes and seed
texts kept outside the repository, "S003"). A user can find a paper, a section, an equation, a public
repository at a commit: those are what the project cites.

The CHANGELOG is the one exception: a change log is history by nature.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from support.paths import ROOT

# What gives a work item or an internal file away. Each pattern is anchored on words so that the concepts
# of the field stay free to use ("items" of a list, "rounds" of a composition, "S" of a set).
FORBIDDEN = {
    "tracker issue": re.compile(r"\b[Ii]ssues?[ -]#?\d+"),
    "work item": re.compile(r"\b[Ww]ork[ -](item|package)s?\b"),
    "numbered work item": re.compile(r"\b(test_)?item_?\d+[_ ]"),
    "internal notes": re.compile(r"\bshared/(statements|seeds|design)\b|\bstatements/\w+\.md\b"),
    "seed file label": re.compile(r"\bS00\d\b"),
}

# Text files a user reads; generated data included (a vector carries statements' sources and titles).
SUFFIXES = {".py", ".md", ".toml", ".json", ".jsonl", ".txt", ".cfg", ".rst", ".yml", ".yaml"}
# The change log, and the tests that spell the patterns out (this one; the statements' own texts are held to
# a stricter pattern in tests/spec/test_statement_texts.py).
EXEMPT = {"CHANGELOG.md", "tests/project/test_no_work_items.py", "tests/spec/test_statement_texts.py"}


def _tracked_text_files() -> list[str]:
    listing = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False)
    if listing.returncode != 0:  # not a git checkout (an sdist): walk the tree instead
        return sorted(str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file() and ".git" not in p.parts)
    return sorted(listing.stdout.split())


def _offences(text: str) -> list[tuple[str, str]]:
    found = []
    for kind, pattern in FORBIDDEN.items():
        for match in pattern.finditer(text):
            start = max(0, match.start() - 30)
            found.append((kind, text[start : match.end() + 30].replace("\n", " ")))
    return found


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("see issue 15 for the construction", "tracker issue"),
        ("(Issues 11 and 12)", "tracker issue"),
        ("as Issue-8 found", "tracker issue"),
        ("the audit work package", "work item"),
        ("def test_item9_refuses():", "numbered work item"),
        ("recovered in `shared/statements/fmt21.md`", "internal notes"),
        ('Source("FMT21", "S003 Sec. 3")', "seed file label"),
    ],
)
def test_each_pattern_catches_what_it_is_for(text, kind):
    assert kind in {k for k, _ in _offences(text)}


@pytest.mark.parametrize(
    "text",
    [
        "the items of a list: item 3 of the module doc",  # a numbered point of the same text, not a tracker
        "T = 1000 rounds, round 3 of the schedule",
        "Theorem 3.8 of arXiv 2012.12803v4, Sec. 5",
        "n = 1000 users, S = {x_1, ..., x_n}",
        "an interval around 0, the issue's point",
    ],
)
def test_the_field_s_words_stay_free(text):
    assert _offences(text) == []


def test_no_file_names_a_work_item_or_an_internal_file():
    files = [f for f in _tracked_text_files() if f not in EXEMPT and any(f.endswith(s) for s in SUFFIXES)]
    assert len(files) > 100, "the scan found too few files to be looking at the repository"
    offences = []
    for name in files:
        try:
            text = (ROOT / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        offences += [f"{name}: {kind}: ...{context}..." for kind, context in _offences(text)]
    assert offences == [], f"{len(offences)} references to work items or internal files:\n" + "\n".join(offences[:60])
