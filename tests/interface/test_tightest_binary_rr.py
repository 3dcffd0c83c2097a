"""The certified gap for k = 2: exact.shuffled_binary_rr is the certified worst case (an interval of relative
width <= 1e-6 containing the true eps), so its UPPER end competes as the tightest certified upper
bound in `tightest` and `gap_from_rows` (`bounds`, `compare`, the `tightest` command), its lower end as a
lower bound; where it refuses, the gap is the one of the other bounds (`interface/tightest.py`)."""

import dataclasses
import json

import pytest

from shuffle_spec.interface import tightest as tightest_module
from shuffle_spec.interface.amplification import EXACT_BINARY_RR_ID
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.tightest import gap_from_rows, tightest
from shuffle_spec.reference.exact.binary_rr import shuffled_binary_rr

# n = 1e3 and 1e4 at two eps0: each evaluation of the certified worst case is < 0.5 s there.
POINTS = [
    {"eps0": 4.0, "n": 1000, "delta": 1e-6},
    {"eps0": 1.0, "n": 10_000, "delta": 1e-6},
]


def _valid(rows, direction, *, exclude=()):
    return [r["eps"] for r in rows if r["direction"] == direction and r["valid"] and r["eps"] is not None and r["id"] not in exclude]


@pytest.mark.parametrize("point", POINTS, ids=lambda p: f"eps0={p['eps0']:g},n={p['n']}")
@pytest.mark.parametrize("randomizer", ["krr", "binary_rr"])
def test_k2_gap_is_the_exact_interval(point, randomizer):
    gap = tightest(randomizer=randomizer, k=2 if randomizer == "krr" else None, **point)
    truth = shuffled_binary_rr(**point)  # the reference itself: [lower, upper] around the true eps
    width = (truth.upper - truth.lower) / truth.upper
    assert width <= 1e-6  # the stated width at these points (the note would say when widened)
    assert gap.upper_id == EXACT_BINARY_RR_ID and gap.upper_eps == truth.upper
    assert gap.lower_eps >= truth.lower  # the exact lower end or a larger certified pair
    # The ratio is within the certified interval's relative width: 1 <= ratio <= 1 / (1 - width).
    assert 1 <= gap.ratio <= 1 / (1 - width) <= 1 + 2e-6
    # Soundness across the registry: the exact upper end is >= every registered lower bound, and it is the
    # smallest certified upper end (every other registered upper bound is >= it).
    assert gap.upper_eps >= max(_valid(gap.rows, "lower_bound"))
    others = _valid(gap.rows, "upper_bound", exclude=(EXACT_BINARY_RR_ID,))
    assert others and min(others) >= gap.upper_eps
    # One evaluation, two rows: the lower end on the lower side, the upper end on the upper side.
    exact_rows = {r["direction"]: r for r in gap.rows if r["id"] == EXACT_BINARY_RR_ID}
    assert set(exact_rows) == {"lower_bound", "upper_bound"}
    assert exact_rows["lower_bound"]["eps"] == truth.lower and exact_rows["upper_bound"]["eps"] == truth.upper
    assert exact_rows["upper_bound"]["interval"] == [truth.lower, truth.upper]


def test_k2_gap_from_rows_uses_the_exact_upper_end():
    """The `bounds` command's gap (gap_from_rows): same pair of ends as `tightest`."""
    point = POINTS[1]
    gap = gap_from_rows("krr", {**point, "k": 2}, [])
    truth = shuffled_binary_rr(**point)
    assert gap.upper_id == EXACT_BINARY_RR_ID and gap.upper_eps == truth.upper
    assert gap.lower_id == EXACT_BINARY_RR_ID and gap.lower_eps == truth.lower
    assert 1 <= gap.ratio <= 1 + 2e-6


def test_bounds_and_tightest_commands_show_the_k2_gap(capsys):
    argv = ["--eps0", "1", "--n", "1e4", "--delta", "1e-6"]
    assert main(["bounds", "--randomizer", "krr", "--k", "2", *argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    gap = data["points"][0]["gap"]
    assert gap["upper"]["id"] == EXACT_BINARY_RR_ID and 1 <= gap["ratio"] <= 1 + 2e-6
    # The other registered upper bounds at the point are all >= the exact upper end.
    assert min(b["eps"] for b in data["points"][0]["bounds"] if b["valid"] and b["direction"] == "upper_bound") >= gap["upper"]["eps"]
    assert main(["tightest", "--randomizer", "binary_rr", *argv]) == 0
    out = capsys.readouterr().out
    assert f"tightest certified upper {shuffled_binary_rr(eps0=1.0, n=10_000, delta=1e-6).upper:.6g} ({EXACT_BINARY_RR_ID})" in out


def _refusing_exact(monkeypatch):
    """Make exact.shuffled_binary_rr refuse (as it does past its work budget) wherever the gap evaluates it."""
    real = tightest_module.evaluate

    def evaluate(statement, inputs):
        result = real(statement, inputs)
        if statement.id != EXACT_BINARY_RR_ID:
            return result
        return dataclasses.replace(result, value=None, valid=False, interval=None, reason="refused (test)")

    monkeypatch.setattr(tightest_module, "evaluate", evaluate)


def test_when_exact_refuses_the_gap_is_the_other_bounds(monkeypatch):
    point = POINTS[1]
    _refusing_exact(monkeypatch)
    gap = tightest(randomizer="krr", k=2, **point)
    uppers = _valid(gap.rows, "upper_bound")
    lowers = _valid(gap.rows, "lower_bound")
    assert gap.upper_id != EXACT_BINARY_RR_ID and gap.upper_eps == min(uppers)
    assert gap.lower_id != EXACT_BINARY_RR_ID and gap.lower_eps == max(lowers)
    # Both rows of the exact statement say why; the truth still lies between the two sides.
    assert {r["direction"] for r in gap.rows if r["id"] == EXACT_BINARY_RR_ID and not r["valid"] and r["reason"] == "refused (test)"} == {"lower_bound", "upper_bound"}
    truth = shuffled_binary_rr(**point)
    assert gap.lower_eps <= truth.upper and gap.upper_eps >= truth.lower
    assert gap.ratio > 1 + 1e-3  # the relaxed bounds are visibly looser than the exact interval here
    from_rows = gap_from_rows("krr", {**point, "k": 2}, [])
    assert from_rows.upper_id is None and from_rows.lower_id is None  # no rows given, exact refused: nothing


def test_lower_side_only_does_not_use_the_exact_upper_end():
    gap = tightest(randomizer="binary_rr", include_upper=False, **POINTS[1])
    assert gap.upper_id is None and gap.lower_id is not None
    assert all(r["direction"] == "lower_bound" for r in gap.rows)


def test_ratio_format_keeps_the_excess_visible():
    from shuffle_spec.interface.tightest import format_ratio

    assert format_ratio(1 + 9e-7) == "1 + 9.0e-07"
    assert format_ratio(1.0) == "1.0000" and format_ratio(1.4275) == "1.4275"


def test_a_binary_rr_matrix_gets_the_exact_interval_on_both_sides():
    """`audit randomizer` / `tightest_randomizer` / `tightest --randomizer matrix` on a binary-RR matrix: the
    registered exact.shuffled_binary_rr (at the matrix's eps0) gives its LOWER end as the lower side (before: its
    upper end, labelled as an enumeration, i.e. a lower bound above what is certified) and its upper end as
    the upper side (before: FMT23.stronger_clones, 1.23x above)."""
    import shuffle_spec
    from shuffle_spec.interface.audit.randomizer import audit_matrix

    matrix = [["3/4", "1/4"], ["1/4", "3/4"]]  # binary RR with e^eps0 = 3
    report = audit_matrix(matrix, n=10_000, delta=1e-6)
    truth = shuffled_binary_rr(eps0=report.ldp_epsilon, n=10_000, delta=1e-6)
    gap = shuffle_spec.tightest_randomizer(matrix, n=10_000, delta=1e-6)
    assert gap.upper_id == EXACT_BINARY_RR_ID and gap.upper_eps == truth.upper
    assert gap.lower_eps <= truth.lower * (1 + 1e-12)  # never above the certified lower end
    assert gap.lower_id in (EXACT_BINARY_RR_ID, "exact.randomizer_pair", "exact.krr_pair_x0")
    assert 1 <= gap.ratio <= 1 + 2e-6
    assert report.problems == []


def test_candidate_order_does_not_depend_on_the_hash_seed():
    """The upper-bound candidates at k = 2 come from two mechanisms' lists; their order decides ties (the first in the
    list wins), so it must be the same in every process: string hashing is randomized per process (PYTHONHASHSEED),
    and iterating a set of mechanism names gave a different order under different seeds."""
    import os
    import subprocess
    import sys

    code = "from shuffle_spec.interface.tightest import candidate_upper_bounds as c; print([s.id for s in c('krr', 2)])"
    orders = set()
    for seed in ("0", "1", "2", "3", "4", "5"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        orders.add(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout)
    assert len(orders) == 1, orders
