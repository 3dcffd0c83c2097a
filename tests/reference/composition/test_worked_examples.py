"""The worked example of docs/composition.md (a year of daily 10-RR reports): the page's table, written by
`python3 benchmarks/compose.py --worked`, against the code."""

from __future__ import annotations

import importlib.util
import re

import pytest

from support.paths import ROOT

PAGE = ROOT / "docs" / "composition.md"


def _rows() -> list[tuple[float, int, float, float, float]]:
    text = PAGE.read_text()
    section = text.split("### Worked example: a year of daily k-RR reports", 1)[1].split("###", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and re.fullmatch(r"[0-9.]+", cells[0]):
            rows.append((float(cells[0]), int(float(cells[1])), float(cells[2]), float(cells[3]), float(cells[4])))
    return rows


def test_the_table_has_every_cell_and_its_columns_are_ordered():
    """Six rows (eps0 in {2, 4, 8} x n in {1e7, 1e8}); lower bound <= mechanism-specific <= generic in each (the
    mechanism-specific pair is at least as tight as the generic one and above any lower bound)."""
    rows = _rows()
    assert sorted((r[0], r[1]) for r in rows) == [(e, n) for e in (2.0, 4.0, 8.0) for n in (10**7, 10**8)]
    for _, _, generic, specific, lower in rows:
        assert lower <= specific <= generic


@pytest.mark.slow
def test_one_row_is_what_the_code_prints_today():
    """The generic and lower-bound cells of the row eps0 = 2, n = 1e7, recomputed with the benchmark's rounding (the
    lower bound: compose.krr's composed explicit pairs, here the third pair in diagonal blocks)."""
    spec = importlib.util.spec_from_file_location("compose_benchmark", ROOT / "benchmarks" / "compose.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    from shuffle_spec.reference.composition.mechanism_rounds import MechanismRound, composed_lower_epsilon
    from shuffle_spec.reference.composition.shuffled_rounds import Round, composed_epsilon

    row = next(r for r in _rows() if r[:2] == (2.0, 10**7))
    generic = composed_epsilon([Round("stronger_clones", 2.0, 10**7, 365)], delta=1e-6).upper
    lower = composed_lower_epsilon([MechanismRound("krr", 2.0, 10**7, 365, 10)], delta=1e-6).lower
    assert float(bench._digits(generic)) == row[2]
    assert float(bench._digits(lower, up=False)) == row[4]
