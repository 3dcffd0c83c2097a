"""Every number the CLI prints as JSON says which neighbouring relation it is for (`interface/results.py`,
NEIGHBOURING): replace-one for every statement used at these points (each paper's Sec. 2 and the derived
statements; the module doc of `interface/results.py` cites them). The Python results carry it as a property;
the JSON a CI job or an auditor stores must carry it too, or a number could be read for the wrong relation."""

from __future__ import annotations

import json

import pytest

from shuffle_spec.interface.api import Calibration
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.randomizer_gap import RandomizerGap

COMMANDS = {
    "compose": ["compose", "compose.clones", "--rounds", "2", "--eps0", "1", "--n", "20", "--delta", "1e-6", "--json"],
    "eval": ["eval", "FMT21.Thm2.1", "-p", "eps0=1", "-p", "n=100000", "-p", "delta=1e-6", "--json"],
    "tightest": ["tightest", "--randomizer", "krr", "--k", "3", "--eps0", "1", "--n", "100", "--delta", "1e-6", "--json"],
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_json_answer_names_its_neighbouring_relation(capsys, name):
    code = main(COMMANDS[name])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["neighbouring"] == "replace-one", data


def test_every_row_of_bounds_and_compare_names_its_relation(capsys):
    assert main(["bounds", "--eps0", "1", "--n", "1000", "--delta", "1e-6", "--json"]) == 0
    rows = [row for point in json.loads(capsys.readouterr().out)["points"] for row in point["bounds"]]
    assert rows and all(row["neighbouring"] == "replace-one" for row in rows)
    assert main(["compare", "--eps0", "1", "--n", "1000", "--delta", "1e-6", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["bounds"]
    assert rows and all(row["neighbouring"] == "replace-one" for row in rows)


def test_the_matrix_gap_and_a_calibration_name_their_relation():
    """What `tightest --randomizer matrix --json` and `calibrate --json` print (`to_json`), built directly: the
    relation is the upper end's statement's (no computation needed to check the field)."""
    gap = RandomizerGap(100, 1e-6, 1.0, upper_id="FMT21.clones_numeric", upper_eps=0.5)
    assert gap.to_json()["neighbouring"] == "replace-one"
    calibration = Calibration(id="FMT21.Thm2.1", target="eps0", value=1.0, bracket=(1.0, 1.1), bound_at_value=0.5, params={})
    assert calibration.to_json()["neighbouring"] == "replace-one"
    # a family with no recorded relation says null, never a guess
    assert Calibration(id="BBGN19v1.Thm3.1", target="eps0", value=1.0, bracket=(1.0, 1.1), bound_at_value=0.5, params={}).to_json()["neighbouring"] is None


def test_the_compose_text_names_its_relation(capsys):
    assert main(COMMANDS["compose"][:-1]) == 0
    assert "neighbouring: replace-one" in capsys.readouterr().out.splitlines()


def test_the_python_gap_json_names_its_relation():
    from shuffle_spec.interface.tightest import Gap

    gap = Gap(randomizer="krr", params={"eps0": 1.0, "n": 100, "delta": 1e-6, "k": 3}, upper_id="FMT21.clones_numeric", upper_eps=0.5, lower_id=None, lower_eps=None)
    assert gap.to_json()["neighbouring"] == "replace-one"
