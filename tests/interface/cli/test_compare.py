"""`shuffle-spec compare`: the JSON contract, ratios to the exact binary-RR value, the tightest bound, usage
errors, and the path where the exact statement is missing."""

import json

import pytest

from shuffle_spec.interface.amplification import EXACT_BINARY_RR_ID, evaluate_bounds
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.cli.commands import compare
from shuffle_spec.spec.registry import registry


def _run_json(capsys, *args):
    code = main(["compare", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_json_has_exactly_the_public_keys(capsys):
    code, out = _run_json(capsys, "--eps0", "1", "--n", "1e4", "--delta", "1e-6")
    assert code == 0
    assert set(out) == {"params", "bounds", "exact"}
    assert out["params"] == {"eps0": 1.0, "n": 10_000, "delta": 1e-6}
    assert out["bounds"], "no bound listed"
    for bound in out["bounds"]:
        assert set(bound) == {"id", "eps", "valid", "reason", "ratio_to_exact", "direction", "neighbouring"}
    ids = {b["id"] for b in out["bounds"]}
    assert {"FMT21.Thm2.1", "FMT21.Thm2.1.focs"} <= ids
    # The same bounds as the shared evaluation core (generic bounds at these parameters).
    assert ids == {r.id for r in evaluate_bounds(1.0, 10_000, 1e-6)}


def test_bounds_sorted_valid_first_by_eps_and_tightest_is_first(capsys):
    _, out = _run_json(capsys, "--eps0", "4", "--n", "100000", "--delta", "1e-6")
    valid = [b for b in out["bounds"] if b["valid"]]
    assert [b["eps"] for b in valid] == sorted(b["eps"] for b in valid)
    assert out["bounds"][: len(valid)] == valid
    assert compare.tightest_id(out) == valid[0]["id"]
    for b in out["bounds"][len(valid) :]:
        assert b["reason"] and b["ratio_to_exact"] is None


def test_ratios_against_a_stand_in_exact_value():
    # Any registered statement evaluable at (eps0, n, delta) can stand in for the exact one: the ratios are
    # then eps / eps_standin, so the stand-in itself has ratio 1 and looser bounds ratio > 1.
    out = compare.comparison(1.0, 10_000, 1e-6, exact_id="FMT21.Thm2.1.focs")
    assert out["exact"]["id"] == "FMT21.Thm2.1.focs"
    by_id = {b["id"]: b for b in out["bounds"]}
    assert by_id["FMT21.Thm2.1.focs"]["ratio_to_exact"] == 1.0
    seed = by_id["FMT21.Thm2.1"]
    assert seed["ratio_to_exact"] == pytest.approx(seed["eps"] / out["exact"]["eps"]) and seed["ratio_to_exact"] > 1


def test_exact_missing_gives_null_exact_and_null_ratios(capsys, monkeypatch):
    out = compare.comparison(1.0, 10_000, 1e-6, exact_id="exact.not_registered")
    assert out["exact"] is None
    assert all(b["ratio_to_exact"] is None for b in out["bounds"])
    # The text form says so instead of failing.
    monkeypatch.setattr(compare, "EXACT_BINARY_RR_ID", "exact.not_registered")
    assert main(["compare", "--eps0", "1", "--n", "10000", "--delta", "1e-6"]) == 0
    assert "unavailable" in capsys.readouterr().out
    code, out = _run_json(capsys, "--eps0", "1", "--n", "10000", "--delta", "1e-6")
    assert code == 0 and out["exact"] is None and all(b["ratio_to_exact"] is None for b in out["bounds"])


@pytest.mark.skipif(EXACT_BINARY_RR_ID not in registry(), reason="exact.shuffled_binary_rr not registered yet")
def test_real_exact_value_and_every_valid_ratio_at_least_one(capsys):
    code, out = _run_json(capsys, "--eps0", "1", "--n", "10000", "--delta", "1e-6")
    assert code == 0 and out["exact"]["id"] == EXACT_BINARY_RR_ID and out["exact"]["eps"] > 0
    for b in out["bounds"]:
        if b["valid"]:
            # Binary RR is eps0-LDP, so every sound generic bound is >= its exact eps (ratio >= 1).
            assert b["ratio_to_exact"] == pytest.approx(b["eps"] / out["exact"]["eps"]) and b["ratio_to_exact"] >= 1


def test_text_output_marks_the_tightest(capsys):
    assert main(["compare", "--eps0", "1", "--n", "10000", "--delta", "1e-6"]) == 0
    text = capsys.readouterr().out
    best = compare.tightest_id(compare.comparison(1.0, 10_000, 1e-6))
    marked = [line for line in text.splitlines() if line.startswith("* ")]
    assert len(marked) == 1 and marked[0].split()[1] == best


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--eps0", "0", "--n", "100", "--delta", "1e-6"], "eps0"),
        (["--eps0", "1", "--n", "10.5", "--delta", "1e-6"], "n"),
        (["--eps0", "1", "--n", "100", "--delta", "1"], "delta"),
        (["--eps0", "x", "--n", "100", "--delta", "1e-6"], "eps0"),
    ],
)
def test_usage_errors_exit_2_on_stderr(capsys, args, fragment):
    assert main(["compare", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and fragment in captured.err
