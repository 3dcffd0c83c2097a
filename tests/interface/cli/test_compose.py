"""`shuffle-spec compose` (single and heterogeneous form), the API functions and the LDP-SGD
re-accounting."""

from __future__ import annotations

import json

import pytest

from shuffle_spec.interface import api
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.limits import TimeLimitExceeded
from shuffle_spec.reference.composition.advanced import advanced_composition_epsilon
from shuffle_spec.reference.bounds.clones import clones_numeric
from shuffle_spec.reference.composition.shuffled_rounds import Round, composed_epsilon
from shuffle_spec.reference.protocols.ldp_sgd import ldp_sgd_epsilon


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_compose_json_fields_and_value(capsys):
    code, out, _ = _run(capsys, "compose", "compose.clones", "--rounds", "5", "--eps0", "1", "--n", "500", "--delta", "1e-6", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"id", "rounds", "params", "value", "interval", "valid", "reason", "direction", "neighbouring"}
    assert data["direction"] == "upper_bound"
    assert data["id"] == "compose.clones" and data["rounds"] == 5 and data["valid"] is True
    assert data["params"] == {"eps0": 1.0, "n": 500, "delta": 1e-6}
    direct = composed_epsilon([Round("clones", 1.0, 500, 5)], delta=1e-6)
    assert data["value"] == direct.upper and data["interval"] == [direct.lower, direct.upper]


def test_compose_heterogeneous_file(capsys, tmp_path):
    schedule = [{"eps0": 1.0, "n": 500, "rounds": 3}, {"eps0": 0.5, "n": 800, "rounds": 2}]
    path = tmp_path / "rounds.json"
    path.write_text(json.dumps(schedule))
    code, out, _ = _run(capsys, "compose", "compose.clones", "--rounds-file", str(path), "--delta", "1e-6", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["rounds"] == 5
    direct = composed_epsilon([Round("clones", 1.0, 500, 3), Round("clones", 0.5, 800, 2)], delta=1e-6)
    assert data["value"] == direct.upper
    # The API gives the same answer.
    assert api.composed_epsilon("compose.clones", delta=1e-6, schedule=schedule).value == direct.upper


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["compose.clones", "--rounds", "0", "--eps0", "1", "--n", "100", "--delta", "1e-6"], "rounds"),
        (["compose.clones", "--rounds", "2", "--eps0", "1", "--n", "100", "--delta", "1.5"], "delta"),
        (["compose.clones", "--rounds", "2", "--eps0", "-1", "--n", "100", "--delta", "1e-6"], "eps0"),
        (["compose.nope", "--rounds", "2", "--eps0", "1", "--n", "100", "--delta", "1e-6"], "compose.nope"),
        (["FMT21.clones_numeric", "--rounds", "2", "--eps0", "1", "--n", "100", "--delta", "1e-6"], "compose."),
        (["compose.clones", "--eps0", "1", "--n", "100", "--delta", "1e-6"], "--rounds"),
        (["compose.clones", "--rounds-file", "/nonexistent/rounds.json", "--delta", "1e-6"], "rounds-file"),
    ],
)
def test_compose_bad_input_exits_2_with_one_line(capsys, argv, fragment):
    code, out, err = _run(capsys, "compose", *argv)
    assert code == 2 and out == ""
    assert fragment in err and len(err.strip().splitlines()) == 1


def test_api_composed_delta_brackets_and_matches_epsilon():
    """delta at the composed epsilon's upper end is certified <= the target (the inversion's safe side)."""
    value = api.composed_epsilon("compose.stronger_clones", rounds=4, eps0=2.0, n=300, delta=1e-4)
    low, up = api.composed_delta("compose.stronger_clones", rounds=4, eps0=2.0, n=300, eps=value.value)
    assert 0 <= low <= up <= 1e-4 * 1.000001


def test_ldp_sgd_reaccounted_is_below_advanced_composition():
    """EFMRSTT20 Thm VI.1 re-accounted: T epochs by the composed clone pair are below advanced
    composition of the single-epoch clone bound (per-epoch delta/(2T), delta' = delta/2) and above one epoch."""
    eps0, n, delta, epochs = 1.0, 2000, 1e-6, 20
    value = ldp_sgd_epsilon(eps0=eps0, n=n, delta=delta, T=epochs)
    single = clones_numeric(eps0=eps0, n=n, delta=delta / (2 * epochs)).upper
    assert value.upper <= advanced_composition_epsilon(eps=single, k=epochs, delta_prime=delta / 2).value
    assert value.upper >= clones_numeric(eps0=eps0, n=n, delta=delta).lower


def test_shuffled_tree_counter_is_one_round():
    """The tree counter's transcript is one eps-LDP randomizer (EFMRTT19 Thm 5): its shuffled central eps
    is the single-round clone bound, below composing the T periods' bounds (here T = 8 periods)."""
    from shuffle_spec.reference.protocols.tree_counter import shuffled_tree_counter_epsilon

    value = shuffled_tree_counter_epsilon(eps=1.0, n=1000, delta=1e-6)
    assert value.upper == clones_numeric(eps0=1.0, n=1000, delta=1e-6).upper
    assert value.upper < composed_epsilon([Round("clones", 1.0, 1000, 8)], delta=1e-6).lower


def test_api_unknown_compose_id_is_a_key_error_naming_it():
    # Regression: the id check called a name that was not imported (NameError instead of KeyError).
    with pytest.raises(KeyError, match="compose.nope"):
        api.composed_epsilon("compose.nope", rounds=2, eps0=1.0, n=1000, delta=1e-6)
    with pytest.raises(api.ParameterError, match="id"):
        api.composed_epsilon("FMT21.clones_numeric", rounds=2, eps0=1.0, n=1000, delta=1e-6)


# --- Numbers on the command line: the project's one parser (`bridge.parse_number`) --------------------


@pytest.mark.parametrize(
    "flag, text, fragment",
    [
        ("--rounds", "1_0", "rounds = '1_0'"),
        ("--eps0", "1_0", "eps0 = '1_0'"),
        ("--n", "1_000", "n = '1_000'"),
        ("--delta", "1_0e-6", "delta = '1_0e-6'"),
        ("--rounds", "2.5", "rounds = '2.5'"),
        ("--n", "0x10", "n = '0x10'"),
        ("--eps0", "inf", "eps0 = 'inf'"),
        ("--delta", "nan", "delta = 'nan'"),
        ("--rounds", "2000000", "rounds"),
        ("--eps0", "31", "eps0"),
        ("--n", "2e9", "n"),
        ("--delta", "1e-320", "delta"),
    ],
)
def test_compose_numbers_are_parsed_strictly_with_one_line_errors(capsys, flag, text, fragment):
    argv = {"--rounds": "2", "--eps0": "1", "--n": "100", "--delta": "1e-6"}
    argv[flag] = text
    code, out, err = _run(capsys, "compose", "compose.clones", *[part for item in argv.items() for part in item])
    assert code == 2 and out == "" and "usage:" not in err
    assert len(err.strip().splitlines()) == 1 and fragment in err and "expected" in err, err


def test_compose_accepts_the_number_forms_of_the_other_commands(capsys):
    """`--n 1e3`, `--rounds 5/1` and `--eps0 1/2` are numbers as in `bounds` / `eval` / `calibrate`."""
    code, out, err = _run(capsys, "compose", "compose.clones", "--rounds", "5/1", "--eps0", "1/2", "--n", "1e3", "--delta", "1e-6", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["rounds"] == 5 and data["params"] == {"eps0": 0.5, "n": 1000, "delta": 1e-6}
    assert data["value"] == composed_epsilon([Round("clones", 0.5, 1000, 5)], delta=1e-6).upper


# --- a time budget: a small file must not start a computation of minutes -------------------------------------

def _distinct_rounds(count: int) -> list[dict]:
    """`count` rounds that share nothing (each builds its own pair: about 0.1-0.3 s apiece)."""
    return [{"eps0": 0.5 + 0.001 * i, "n": 1000 + i, "rounds": 1} for i in range(count)]


def test_compose_stops_at_its_time_budget_with_one_line(capsys, tmp_path):
    """A 3 kB file of 100 distinct rounds cost 26 s with no limit (a 60 kB one of 1000 rounds, minutes); with a time
    budget the command ends at it: exit 2, one line naming the budget and how to allow more."""
    path = tmp_path / "rounds.json"
    path.write_text(json.dumps(_distinct_rounds(100)))
    code, out, err = _run(capsys, "compose", "compose.clones", "--rounds-file", str(path), "--delta", "1e-6", "--time-budget", "0.5")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "time budget" in err and "0.5 s" in err and "--time-budget" in err


def test_compose_time_budget_is_a_number_of_seconds(capsys):
    for bad in ("0", "-1", "nan", "2e6", "soon"):
        code, out, err = _run(capsys, "compose", "compose.clones", "--rounds", "2", "--eps0", "1", "--n", "500", "--delta", "1e-6", "--time-budget", bad)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "time_budget" in err, (bad, err)
    code, out, _ = _run(capsys, "compose", "compose.clones", "--rounds", "2", "--eps0", "1", "--n", "500", "--delta", "1e-6", "--time-budget", "600")
    assert code == 0 and "upper bound" in out


def test_composed_epsilon_takes_a_time_budget():
    with pytest.raises(TimeLimitExceeded) as stopped:
        api.composed_epsilon("compose.clones", delta=1e-6, schedule=_distinct_rounds(100), time_budget=0.5)
    message = str(stopped.value)
    assert "time_budget" in message and "\n" not in message
    # A budget that suffices changes nothing.
    assert api.composed_epsilon("compose.clones", delta=1e-6, schedule=_distinct_rounds(2), time_budget=600) == api.composed_epsilon(
        "compose.clones", delta=1e-6, schedule=_distinct_rounds(2))
