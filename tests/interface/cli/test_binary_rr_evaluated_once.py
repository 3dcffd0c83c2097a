"""`compare` and `bounds` with --randomizer binary_rr evaluate the certified worst case exact.shuffled_binary_rr
(seconds at large n) ONCE per point: the table's exact row and the gap line share one evaluation
(`interface/cli/commands/compare.py`, `interface/cli/commands/bounds.py`, `interface/tightest.py`).
Each test counts the calls of the reference function through the CLI entry in-process, and checks that the
output is the one computed the old way (the gap evaluating the exact worst case itself)."""

import json

import pytest

from shuffle_spec.interface.amplification import EXACT_BINARY_RR_ID
from shuffle_spec.proofs_checks.bridge import Evaluation, evaluate
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.cli.commands.bounds import rows_at
from shuffle_spec.proofs_checks.framework import CheckFailed
from shuffle_spec.interface.tightest import gap_from_rows, tightest
from shuffle_spec.reference.exact import binary_rr as exact_binary_rr
from shuffle_spec.spec.registry import registry

# Two points where one evaluation of the certified worst case takes well under a second.
POINTS = [{"eps0": 1.0, "n": 1000, "delta": 1e-6}, {"eps0": 2.0, "n": 2000, "delta": 1e-8}]


@pytest.fixture
def calls(monkeypatch):
    """The keyword arguments of every call of the reference function of exact.shuffled_binary_rr."""
    seen: list[dict] = []
    original = exact_binary_rr.shuffled_binary_rr

    def counting(**kwargs):
        seen.append(kwargs)
        return original(**kwargs)

    # The bridge resolves "shuffle_spec.reference.exact.binary_rr:shuffled_binary_rr" by getattr at each call.
    monkeypatch.setattr(exact_binary_rr, "shuffled_binary_rr", counting)
    return seen


def _cli_json(argv, capsys) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def _plain(obj):
    """As it reads back from the JSON output (tuples become lists)."""
    return json.loads(json.dumps(obj))


def _args(point) -> list[str]:
    return ["--eps0", repr(point["eps0"]), "--n", str(point["n"]), "--delta", repr(point["delta"])]


@pytest.mark.parametrize("point", POINTS, ids=lambda p: f"eps0={p['eps0']:g},n={p['n']}")
def test_compare_evaluates_the_exact_worst_case_once(point, calls, capsys):
    out = _cli_json(["compare", *_args(point), "--randomizer", "binary_rr", "--json"], capsys)
    assert calls == [point]
    # Unchanged output: the exact row and the gap as computed independently (tightest evaluates it itself).
    calls.clear()
    truth = evaluate(registry()[EXACT_BINARY_RR_ID], point)
    assert truth.valid and out["exact"] == {"id": EXACT_BINARY_RR_ID, "eps": truth.value, "interval": list(truth.interval)}
    gap = tightest(randomizer="binary_rr", **point).to_json()
    gap.pop("bounds")
    assert out["gap"] == _plain(gap)
    assert out["gap"]["upper"]["id"] == EXACT_BINARY_RR_ID  # the shared evaluation is the one the gap uses
    assert len(calls) == 2  # the independent path did evaluate it (once for `evaluate`, once in tightest)


def test_bounds_evaluates_the_exact_worst_case_once_per_point(calls, capsys):
    sweep = [{"eps0": 1.0, "n": n, "delta": 1e-6} for n in (300, 1000)]
    out = _cli_json(["bounds", "--eps0", "1", "--n", "300,1000", "--delta", "1e-6", "--randomizer", "binary_rr", "--json"], capsys)
    assert [{"eps0": p["eps0"], "n": p["n"], "delta": p["delta"]} for p in out["points"]] == sweep
    assert calls == sweep  # one call per point, at that point
    # Unchanged output at both points: the exact rows of rows_at, and the gap gap_from_rows computes when it
    # evaluates the exact worst case itself (as before).
    for point, got in zip(sweep, out["points"], strict=True):
        rows, exact = rows_at(point["eps0"], point["n"], point["delta"], "binary_rr", {})
        assert got["exact"] == [dict(row, direction="exact", holds_for="binary RR only") for row in _plain(exact)] and got["exact"][0]["valid"]
        assert got["gap"] == _plain(gap_from_rows("binary_rr", {**point, "k": 2}, rows).to_json())
        assert got["gap"]["upper"]["id"] == EXACT_BINARY_RR_ID


@pytest.mark.parametrize("command", ["bounds", "compare"])
def test_text_output_also_evaluates_it_once(command, calls, capsys):
    """The table and the gap line of the text output (bounds prints the gap lines in a loop of their own)."""
    point = POINTS[0]
    assert main([command, *_args(point), "--randomizer", "binary_rr"]) == 0
    assert "gap: tightest certified upper" in capsys.readouterr().out
    assert calls == [point]


def test_an_evaluation_at_another_point_is_refused():
    """The evaluation handed to the gap must be of exact.shuffled_binary_rr at the same point: else a
    CheckFailed, never a gap computed from another point's worst case."""
    point = {"eps0": 1.0, "n": 1000, "delta": 1e-6}
    elsewhere = Evaluation(EXACT_BINARY_RR_ID, {**point, "n": 999}, 0.1, True, "", (0.1, 0.1))
    with pytest.raises(CheckFailed, match="not exact.shuffled_binary_rr at"):
        gap_from_rows("binary_rr", {**point, "k": 2}, [], exact_evaluation=elsewhere)
    with pytest.raises(CheckFailed, match="not exact.shuffled_binary_rr at"):
        tightest(randomizer="binary_rr", exact_evaluation=elsewhere, **point)
    from shuffle_spec.interface.cli.commands.compare import comparison

    with pytest.raises(CheckFailed, match="not exact.shuffled_binary_rr at"):
        comparison(**point, evaluated=elsewhere)
