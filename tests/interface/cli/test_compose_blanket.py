"""`shuffle-spec compose compose.laplace / compose.finite / compose.randomizer` and the front door's many-round
answer for Laplace, a matrix and the structured randomizers (reference/composition/blanket_rounds.py). Small n so
that the envelopes are cheap; the values are checked against the reference they come from, and the front door's
pick is checked to be the smaller of the certified candidates."""

from __future__ import annotations

import json

import pytest

import shuffle_spec
from shuffle_spec.interface.cli.main import main
from shuffle_spec.reference.composition.blanket_rounds import BlanketRound, composed_epsilon
from shuffle_spec.reference.composition.shuffled_rounds import Round
from shuffle_spec.reference.composition.shuffled_rounds import composed_epsilon as clones_epsilon

MATRIX = [["3/4", "1/4"], ["1/4", "3/4"]]  # LDP ratio 3: a cheap envelope at n = 2


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_compose_finite_from_a_matrix_file_matches_the_reference(capsys, tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"matrix": MATRIX}))
    code, out, _ = _run(capsys, "compose", "compose.finite", "--matrix", str(path), "--rounds", "2", "--n", "2", "--delta", "0.01", "--json")
    assert code == 0
    data = json.loads(out)
    expected = composed_epsilon([BlanketRound("matrix", None, 2, 2, matrix=MATRIX)], delta=0.01)
    assert data["value"] == expected.upper and data["direction"] == "upper_bound"
    # The interval's lower end: the matrix's composed explicit pairs (a certified lower bound, below the value).
    assert data["interval"][0] == expected.lower and 0 < expected.lower <= expected.upper


def test_compose_schedule_file_mixes_mechanisms(capsys, tmp_path):
    path = tmp_path / "rounds.json"
    path.write_text(json.dumps([{"mechanism": "oue", "eps0": 1, "d": 2, "n": 2, "rounds": 2}, {"mechanism": "matrix", "matrix": MATRIX, "n": 2}]))
    code, out, _ = _run(capsys, "compose", "compose.randomizer", "--rounds-file", str(path), "--delta", "0.01", "--json")
    assert code == 0
    data = json.loads(out)
    alone = composed_epsilon([BlanketRound("oue", 1.0, 2, 2, d=2)], delta=0.01).upper
    assert data["rounds"] == 3 and data["value"] > alone


@pytest.mark.parametrize("argv, fragment", [
    (("compose.laplace", "--eps0", "9", "--rounds", "2", "--n", "3"), "eps0"),
    (("compose.randomizer", "--randomizer", "oue", "--eps0", "1", "--rounds", "2", "--n", "3"), "d"),
    (("compose.randomizer", "--randomizer", "gaussian", "--eps0", "1", "--rounds", "2", "--n", "3"), "mechanism"),
    (("compose.clones", "--d", "3", "--eps0", "1", "--rounds", "2", "--n", "3"), "--d"),
])
def test_compose_blanket_bad_input_exits_2_with_one_line(capsys, argv, fragment):
    code, _, err = _run(capsys, "compose", *argv, "--delta", "0.01")
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow  # the Laplace envelope: 2-3 s
def test_certify_laplace_rounds_picks_the_smaller_certified_upper_bound():
    answer = shuffle_spec.certify("laplace", eps0=2.0, n=3, delta=0.01, rounds=5)
    uppers = {row.statement_id: row.eps for row in answer.rows if row.side == "upper"}
    assert set(uppers) == {"compose.laplace", "compose.clones"}
    assert answer.value == min(uppers.values()) and answer.neighbouring == "replace-one"
    assert uppers["compose.clones"] == clones_epsilon([Round("clones", 2.0, 3, 5)], delta=0.01).upper


def test_certify_structured_and_matrix_rounds_list_their_own_composition():
    oue = shuffle_spec.certify("oue", d=3, eps0=1.0, n=2, delta=0.01, rounds=2)
    assert any(row.statement_id == "compose.randomizer" and row.valid for row in oue.rows)
    # Not randomized response (MATRIX is binary RR, which the front door composes as binary RR): LDP ratio 2.
    matrix = shuffle_spec.certify([["3/4", "1/4"], ["1/2", "1/2"]], n=2, delta=0.01, rounds=2)
    assert any(row.statement_id == "compose.finite" and row.valid for row in matrix.rows)
    assert matrix.value <= min(row.eps for row in matrix.rows if row.side == "upper" and row.valid)


def test_certify_laplace_outside_the_envelope_range_falls_back_to_the_generic_pair():
    answer = shuffle_spec.certify("laplace", eps0=1.0, n=10**7, delta=1e-6, rounds=10)
    assert answer.statement_id == "compose.clones"
    row = next(row for row in answer.rows if row.statement_id == "compose.laplace")
    assert not row.valid and "n" in row.reason


def test_certify_tries_the_product_form_compositions_at_large_n_and_names_the_direct_call_for_subset():
    """The product-form randomizers' envelopes are cheap at any n (module comment of BLANKET_ROUNDS_FAST): OUE at
    n = 1e5 is composed by compose.randomizer, which is below the generic clone pair there; subset selection's FFT
    envelope is not tried above n = 100 and its row names the direct call."""
    oue = shuffle_spec.certify("oue", d=1000, eps0=1.0, n=10**5, delta=1e-6, rounds=10)
    rows = {row.statement_id: row for row in oue.rows}
    assert rows["compose.randomizer"].valid and oue.statement_id == "compose.randomizer"
    assert rows["compose.randomizer"].eps < rows["compose.clones"].eps
    subset = shuffle_spec.certify("subset", d=1000, eps0=1.0, n=10**5, delta=1e-6, rounds=10)
    row = next(row for row in subset.rows if row.statement_id == "compose.randomizer")
    assert not row.valid and "composed_epsilon('compose.randomizer'" in row.reason and subset.statement_id == "compose.clones"


def test_composed_delta_of_a_blanket_composition_has_a_certified_lower_end():
    """compose.randomizer through composed_delta: the upper end from the envelope, the lower end from the composed
    pattern pairs (a lower bound on the worst-case delta: below the upper end, positive where delta is)."""
    value = shuffle_spec.composed_delta("compose.randomizer", rounds=2, eps0=1.0, n=2, eps=0.5, randomizer="oue", d=2)
    assert 0 < value.lower <= value.upper and value.direction == "upper" and value.neighbouring == "replace-one"
    assert "oue pattern pair" in value.reason


@pytest.mark.parametrize("document", [
    {"matrix": MATRIX, "matirx": [["1", "0"], ["0", "1"]]},  # a misspelt second table beside the one used
    {"matrix": MATRIX, "rounds": 100},  # a field that reads like a parameter but is not one
])
def test_compose_matrix_file_refuses_unknown_fields_as_tightest_and_audit_do(capsys, tmp_path, document):
    # The same randomizer file is refused by `tightest --matrix` and `audit randomizer` (unknown field); compose
    # used to take its "matrix" and drop the rest without a word.
    path = tmp_path / "m.json"
    path.write_text(json.dumps(document))
    code, out, err = _run(capsys, "compose", "compose.finite", "--matrix", str(path), "--rounds", "2", "--n", "2", "--delta", "0.01")
    extra = sorted(set(document) - {"matrix"})[0]
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "unknown field" in err and extra in err
    for argv in (("tightest", "--randomizer", "matrix", "--matrix", str(path), "--n", "2", "--delta", "0.01"), ("audit", "randomizer", str(path))):
        code, _, other = _run(capsys, *argv)
        assert code == 2 and "unknown field" in other and extra in other


def test_composition_refuses_a_matrix_document_with_unknown_fields():
    # The API takes the matrix as rows or as the randomizer document; a document's other fields are the randomizer
    # file's (name, inputs, outputs, removal_reference, comment), anything else is refused.
    with pytest.raises(ValueError, match="unknown field.*junk"):
        shuffle_spec.composed_epsilon("compose.finite", matrix={"matrix": MATRIX, "junk": 1}, rounds=2, n=2, delta=0.01)
    with pytest.raises(ValueError, match="unknown field.*junk"):
        shuffle_spec.composed_epsilon("compose.randomizer", schedule=[{"mechanism": "matrix", "matrix": {"matrix": MATRIX, "junk": 1}, "n": 2}], delta=0.01)
    named = shuffle_spec.composed_epsilon("compose.finite", matrix={"matrix": MATRIX, "name": "rr3", "comment": "LDP ratio 3"}, rounds=2, n=2, delta=0.01)
    plain = shuffle_spec.composed_epsilon("compose.finite", matrix=MATRIX, rounds=2, n=2, delta=0.01)
    assert named.value == plain.value and named.interval == plain.interval


# Rows written to ten digits: each sums to 0.9999999999, 1e-10 short of 1.
NEARLY_STOCHASTIC = [[0.3333333333, 0.6666666666], [0.6666666666, 0.3333333333]]


def test_every_matrix_file_reader_refuses_rows_not_summing_to_exactly_one(capsys, tmp_path):
    """One rule for a matrix in a file: its numbers are the exact decimals written, each row sums to exactly 1.
    `tightest --matrix` and `audit randomizer` refused this file; `compose --matrix` and a matrix round of
    `--rounds-file` read the numbers as doubles, accepted row sums within 1e-9 and normalised the rows (exit 0)."""
    matrix_file = tmp_path / "m.json"
    matrix_file.write_text(json.dumps({"matrix": NEARLY_STOCHASTIC}))
    rounds_file = tmp_path / "rounds.json"
    rounds_file.write_text(json.dumps([{"mechanism": "matrix", "matrix": NEARLY_STOCHASTIC, "n": 2, "rounds": 2}]))
    for argv in (("compose", "compose.finite", "--matrix", str(matrix_file), "--rounds", "2", "--n", "2", "--delta", "0.01"),
                 ("compose", "compose.randomizer", "--rounds-file", str(rounds_file), "--delta", "0.01"),
                 ("tightest", "--randomizer", "matrix", "--matrix", str(matrix_file), "--n", "2", "--delta", "0.01"),
                 ("audit", "randomizer", str(matrix_file))):
        code, out, err = _run(capsys, *argv)
        assert code == 2 and out == "", (argv, out)
        # One line naming the row and its exact sum, and saying how to fix the file.
        assert len(err.strip().splitlines()) == 1 and "sum of matrix row 0" in err and "9999999999/10000000000" in err, (argv, err)
        assert "exactly 1" in err and '"1/3"' in err, (argv, err)


def test_every_api_matrix_reader_holds_exact_entries_to_an_exact_row_sum():
    """The API's matrix readers apply the same rule: exact entries (text, fractions) sum to exactly 1 (a Python float
    row is held to 1e-9, float rounding, as `audit_randomizer` and `tightest_randomizer` hold it)."""
    exact = [[str(x) for x in row] for row in NEARLY_STOCHASTIC]
    calls = (lambda m: shuffle_spec.composed_epsilon("compose.finite", matrix=m, rounds=2, n=2, delta=0.01),
             lambda m: shuffle_spec.composed_delta("compose.finite", matrix=m, rounds=2, n=2, eps=0.5),
             lambda m: shuffle_spec.composed_epsilon("compose.randomizer", schedule=[{"mechanism": "matrix", "matrix": m, "n": 2}], delta=0.01),
             shuffle_spec.audit_randomizer)
    for call in calls:
        for given in (exact, {"matrix": exact}):
            with pytest.raises(ValueError, match="sum of matrix row 0"):
                call(given)


def test_composed_delta_takes_a_randomizer_document_as_composed_epsilon_does():
    """composed_delta("compose.finite", matrix={"matrix": rows}) refused the document that composed_epsilon takes;
    now both take it (the same answer as the rows) and both refuse a field the randomizer file does not have."""
    as_rows = shuffle_spec.composed_delta("compose.finite", matrix=MATRIX, rounds=1, n=2, eps=0.5)
    as_document = shuffle_spec.composed_delta("compose.finite", matrix={"matrix": MATRIX, "name": "rr3"}, rounds=1, n=2, eps=0.5)
    assert tuple(as_document) == tuple(as_rows) and 0 < as_rows.lower <= as_rows.upper
    with pytest.raises(ValueError, match="unknown field.*junk"):
        shuffle_spec.composed_delta("compose.finite", matrix={"matrix": MATRIX, "junk": 1}, rounds=1, n=2, eps=0.5)
