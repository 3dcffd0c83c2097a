"""`shuffle-spec tightest --randomizer matrix --matrix FILE --n N --delta D [--json]`: the gap
of a finite randomizer on the command line, the same answer as the API `tightest_randomizer` and as the gap
of `audit randomizer`; every misuse is a one-line error with exit 2 (`interface/cli/commands/tightest.py`)."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

import shuffle_spec
from shuffle_spec.interface.cli.main import main

from support.paths import ROOT
CIRCULANT = ROOT / "examples" / "circulant3.json"  # [[1/2, 3/10, 1/5], [1/5, 1/2, 3/10], [3/10, 1/5, 1/2]]
MATRIX = [["1/2", "3/10", "1/5"], ["1/5", "1/2", "3/10"], ["3/10", "1/5", "1/2"]]
POINT = ["--n", "20", "--delta", "1e-2"]  # small: the exact blanket bound of this matrix takes ~1 s here


@pytest.fixture(scope="module")
def api_gap():
    return shuffle_spec.tightest_randomizer(MATRIX, n=20, delta=1e-2)


def call(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:  # argparse's own usage errors
            code = stop.code if isinstance(stop.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def test_the_example_file_is_the_matrix_used_here():
    assert json.loads(CIRCULANT.read_text())["matrix"] == MATRIX


def test_json_is_the_api_gap_and_is_consistent(api_gap):
    code, out, err = call(["tightest", "--randomizer", "matrix", "--matrix", str(CIRCULANT), *POINT, "--json"])
    assert code == 0, err
    data = json.loads(out)
    api = api_gap.to_json()
    # Same computation: the same ids and numbers (the rows' timings differ).
    for key in ("n", "delta", "eps0", "upper", "lower", "ratio", "pair"):
        assert data[key] == api[key], key
    assert [row["id"] for row in data["bounds"]] == [row["id"] for row in api["bounds"]]
    # The documented fields, and a sound gap: upper >= lower > 0, ratio = upper / lower.
    assert set(data) == {"n", "delta", "eps0", "upper", "lower", "ratio", "pair", "bounds", "neighbouring"}
    assert data["upper"]["eps"] >= data["lower"]["eps"] > 0
    assert data["ratio"] == pytest.approx(data["upper"]["eps"] / data["lower"]["eps"], rel=1e-12)
    assert set(data["pair"]) == {"x", "x2", "z", "bins", "description"}
    for row in data["bounds"]:
        assert {"id", "direction", "eps", "interval", "valid", "reason", "seconds"} <= set(row)


def test_text_is_the_gap_line_and_the_pair(api_gap):
    code, out, _ = call(["tightest", "--randomizer", "matrix", "--matrix", str(CIRCULANT), *POINT])
    assert code == 0
    gap = api_gap
    assert gap.line() in out.splitlines()
    assert f"lower-bound pair: {gap.pair['description']}" in out.splitlines()


def test_a_matrix_with_no_finite_eps0_is_a_problem_not_a_crash(tmp_path):
    path = tmp_path / "identity.json"
    path.write_text("[[1, 0], [0, 1]]")
    code, out, err = call(["tightest", "--randomizer", "matrix", "--matrix", str(path), *POINT])
    assert code == 1 and err == ""
    assert "none valid" in out and "PROBLEM: no amplification bound applies" in out


MALFORMED = {
    "not_json.json": b"[[0.5, 0.5], [0.5, 0.5]",
    "binary.json": b"\x89PNG\r\n\x1a\n\x00\xff",
    "row_sum.json": b'[["1/2", "1/2"], ["1/2", "3/5"]]',
    "negative.json": b"[[1.5, -0.5], [0.5, 0.5]]",
    "ragged.json": b"[[0.5, 0.5], [1]]",
    "object.json": b'{"matrix": 5}',
    "unknown_field.json": b'{"matrix": [[1]], "eps0": 1}',
}

# (argv after "tightest", a fragment of the one-line error). File paths: CIRCULANT or the MALFORMED files.
INVALID = [
    (["--randomizer", "matrix", *POINT], "--matrix"),
    (["--randomizer", "krr", "--k", "3", "--eps0", "1", "--matrix", str(CIRCULANT), *POINT], "--matrix"),
    (["--randomizer", "laplace", "--eps0", "1", "--matrix", str(CIRCULANT), *POINT], "--matrix"),
    (["--randomizer", "matrix", "--matrix", str(CIRCULANT), "--k", "3", *POINT], "--k"),
    (["--randomizer", "matrix", "--matrix", str(CIRCULANT), "--eps0", "1", *POINT], "--eps0"),
    (["--randomizer", "matrix", "--matrix", "/nonexistent/randomizer.json", *POINT], "cannot read"),
    (["--randomizer", "matrix", "--matrix", str(CIRCULANT), "--n", "0", "--delta", "1e-4"], "n"),
    (["--randomizer", "matrix", "--matrix", str(CIRCULANT), "--n", "200", "--delta", "1"], "delta"),
    (["--randomizer", "matrix", "--matrix", str(CIRCULANT), "--n", "1.5", "--delta", "1e-4"], "n"),
    (["--randomizer", "krr", "--k", "3", *POINT], "--eps0"),  # --eps0 is required except for matrix
    (["--randomizer", "gaussian", "--eps0", "1", *POINT], "randomizer"),
] + [(["--randomizer", "matrix", "--matrix", name, *POINT], name) for name in sorted(MALFORMED)]


@pytest.mark.parametrize("argv, fragment", INVALID, ids=[" ".join(a[:4]) + f" [{f}]" for a, f in INVALID])
def test_invalid_uses_are_one_line_errors_with_exit_2(tmp_path, argv, fragment):
    for name, content in MALFORMED.items():
        (tmp_path / name).write_bytes(content)
    argv = [str(tmp_path / a) if a in MALFORMED else a for a in argv]
    code, out, err = call(["tightest", *argv])
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert "Traceback" not in err and fragment in err
    # One line from the command; argparse's own refusals (an unknown --randomizer) print its usage first.
    errors = [line for line in lines if line.startswith("shuffle-spec tightest: error:")]
    assert len(errors) == 1 and (len(lines) == 1 or lines[0].startswith("usage:")), err
    assert fragment in errors[0]
