"""Every command that lists statements or bounds shows each row's direction (upper_bound, lower_bound or exact),
in its text and in its JSON (an added field "direction"), so that a lower bound is never read as an upper one."""

import json

import pytest

from shuffle_spec.spec.catalog import resolve
from support.cli import call
from support.paths import EXAMPLES

DIRECTIONS = {"upper_bound", "lower_bound", "exact"}
POINT = ["--eps0", "1", "--n", "1000", "--delta", "1e-6"]


def _json(argv: list[str]):
    code, out, err, _ = call(argv + ["--json"])
    assert code == 0, err
    return json.loads(out)


def _text(argv: list[str]) -> str:
    code, out, err, _ = call(argv)
    assert code == 0, err
    return out


def _direction_of(statement_id: str) -> str:
    return resolve(statement_id).direction.value


def test_bounds_rows_and_exact_rows_carry_their_direction():
    report = _json(["bounds", "--randomizer", "krr", "--k", "4", *POINT])
    point = report["points"][0]
    assert point["bounds"] and all(row["direction"] == _direction_of(row["id"]) for row in point["bounds"])
    assert point["exact"] and all(row["direction"] == "exact" for row in point["exact"])
    text = _text(["bounds", "--randomizer", "krr", "--k", "4", *POINT])
    header = text.splitlines()[0].split()
    assert header[:2] == ["id", "direction"]


def test_compare_rows_carry_their_direction():
    report = _json(["compare", *POINT])
    assert report["bounds"] and all(row["direction"] == _direction_of(row["id"]) for row in report["bounds"])
    lines = _text(["compare", *POINT]).splitlines()
    header = next(line for line in lines if line.startswith("bound (* tightest)"))
    assert "direction" in header.split()
    first_row = lines[lines.index(header) + 2]
    assert first_row.split()[2] in DIRECTIONS  # "*", the id, then its direction


def test_calibrate_shows_the_direction_of_the_bound_it_inverts():
    argv = ["calibrate", "FMT21.clones_numeric", "--eps", "0.5", "--n", "1000", "--delta", "1e-6"]
    assert _json(argv)["direction"] == "upper_bound"
    assert "(FMT21.clones_numeric, upper_bound)" in _text(argv).splitlines()[0]


@pytest.mark.slow  # two calibrations over every binary-RR candidate (~5 s of CPU); the default tier keeps the directions of
# bounds, compose and the randomizer audit (the other tests of this file)
def test_calibrate_with_a_randomizer_shows_every_candidates_direction():
    argv = ["calibrate", "--randomizer", "binary_rr", "--eps", "0.5", "--n", "1000", "--delta", "1e-6", "--time-budget", "30"]
    report = _json(argv)
    assert report["direction"] == _direction_of(report["id"])
    assert report["candidates"] and all(c["direction"] == _direction_of(c["id"]) for c in report["candidates"])
    candidates = [line for line in _text(argv).splitlines() if line.startswith("candidate ")]
    assert candidates and all(f"({_direction_of(line.split()[1])}):" in line for line in candidates)


@pytest.mark.parametrize("statement_id, direction", [("compose.clones", "upper_bound"), ("compose.exact_binary_rr", "lower_bound")])
def test_compose_shows_the_direction_of_the_composed_statement(statement_id, direction):
    argv = ["compose", statement_id, "--rounds", "3", *POINT]
    assert _direction_of(statement_id) == direction
    assert _json(argv)["direction"] == direction
    assert f"direction: {direction}" in _text(argv).splitlines()


def test_the_randomizer_audit_lists_lower_and_upper_bounds_with_their_direction():
    argv = ["audit", "randomizer", str(EXAMPLES / "rr3.json"), "--n", "4", "--delta", "0.01"]
    report = _json(argv)
    directions = {row["id"]: row["direction"] for row in report["bounds"]}
    assert all(direction == _direction_of(row_id) for row_id, direction in directions.items())
    assert {"upper_bound", "lower_bound"} <= set(directions.values())  # k-RR's pair lower bounds are listed too
    lines = _text(argv).splitlines()
    header = next(line for line in lines if line.startswith("id "))
    assert header.split()[:2] == ["id", "direction"]
    rows = {line.split()[0]: line.split()[1] for line in lines[lines.index(header) + 2:] if line.strip() and not line.startswith(("gap:", "lower-bound", " "))}
    assert rows["exact.krr_pair_x0"] == "lower_bound" and rows["BBGN19.Lem5.3.exact_krr"] == "upper_bound" and rows["exact"] == "exact"


def test_show_and_list_keep_the_direction():
    assert _json(["show", "exact.krr_pair_x0"])["direction"] == "lower_bound"
    assert "[Thm, upper_bound]" in _text(["show", "FMT21.Thm2.1"]).splitlines()[0]
    listing = _json(["list"])
    assert all(entry["direction"] == _direction_of(entry["id"]) for entry in listing)
