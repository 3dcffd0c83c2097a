"""`shuffle-spec compose compose.binary_rr` / `compose.krr` (the mechanism-specific pairs), and what the
headline says its value is."""

from __future__ import annotations

import json

import pytest

from shuffle_spec.interface import api
from shuffle_spec.interface.cli.main import main
from shuffle_spec.reference.composition.mechanism_rounds import MechanismRound, composed_epsilon
from shuffle_spec.reference.composition.shuffled_rounds import Round
from shuffle_spec.reference.composition.shuffled_rounds import composed_epsilon as generic_epsilon


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_compose_krr_json_matches_the_reference_and_lists_k(capsys):
    code, out, err = _run(capsys, "compose", "compose.krr", "--rounds", "4", "--eps0", "1", "--n", "2e2", "--k", "3", "--delta", "1e-6", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["params"] == {"eps0": 1.0, "n": 200, "k": 3, "delta": 1e-6} and data["direction"] == "upper_bound"
    direct = composed_epsilon([MechanismRound("krr", 1.0, 200, 4, 3)], delta=1e-6)
    assert data["value"] == direct.upper and data["interval"] == [direct.lower, direct.upper]


def test_compose_krr_without_k_is_refused_in_one_line(capsys):
    code, out, err = _run(capsys, "compose", "compose.krr", "--rounds", "4", "--eps0", "1", "--n", "200", "--delta", "1e-6")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "missing parameter k" in err


def test_k_is_refused_for_the_other_pairs(capsys):
    code, _, err = _run(capsys, "compose", "compose.clones", "--rounds", "4", "--eps0", "1", "--n", "200", "--k", "3", "--delta", "1e-6")
    assert code == 2 and "k = 3" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("statement_id, label", [("compose.exact_binary_rr", "lower bound"), ("compose.binary_rr", "upper bound")])
def test_headline_names_what_the_value_is(capsys, statement_id, label):
    code, out, _ = _run(capsys, "compose", statement_id, "--rounds", "2", "--eps0", "1", "--n", "5", "--delta", "1e-6")
    first = out.splitlines()[0]
    assert code == 0 and first.endswith(f"({label} on the composed eps)")
    assert float(first.split()[0]) > 0


@pytest.mark.slow
def test_binary_rr_rounds_file_with_two_groups(capsys, tmp_path):
    path = tmp_path / "rounds.json"
    path.write_text(json.dumps([{"eps0": 1, "n": 100, "rounds": 2}, {"eps0": 0.5, "n": 200, "rounds": 3}]))
    code, out, _ = _run(capsys, "compose", "compose.binary_rr", "--rounds-file", str(path), "--delta", "1e-6", "--json")
    assert code == 0
    data = json.loads(out)
    direct = composed_epsilon([MechanismRound("binary_rr", 1.0, 100, 2), MechanismRound("binary_rr", 0.5, 200, 3)], delta=1e-6)
    assert data["rounds"] == 5 and data["value"] == direct.upper


def test_api_dispatches_the_new_ids():
    result = api.composed_epsilon("compose.binary_rr", rounds=2, eps0=1, n=20, delta=1e-6)
    assert result.value == composed_epsilon([MechanismRound("binary_rr", 1.0, 20, 2)], delta=1e-6).upper
    low, up = api.composed_delta("compose.binary_rr", rounds=2, eps0=1, n=20, eps=0.5)
    assert 0 < low <= up < 1  # the lower end: composed explicit dataset pairs (was 0, none evaluated)


@pytest.mark.slow
def test_a_wide_certified_interval_says_so_in_the_reason():
    """compose.clones at eps0 = 1, n = 100, T = 1e5: the interval is > 1% wide (2.9%: the grid), and the note says
    it (at T = 1e4 the certified search narrows it below 1%)."""
    result = generic_epsilon([Round("clones", 1.0, 100, 100_000)], delta=1e-6)
    width = (result.upper - result.lower) / result.upper
    assert width > 0.01 and f"certified interval {width:.1%} wide" in result.note
