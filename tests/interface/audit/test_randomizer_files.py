"""Randomizer matrices written by an attacker or a careless user (`audit randomizer FILE`, `tightest --randomizer
matrix --matrix FILE`, the API `audit_randomizer` / `tightest_randomizer`, `Randomizer.from_matrix`).

The contract: a valid answer, or a one-line error (exit 2 on the command line, a `ValueError` naming the field
in the API) within a stated time; never a row silently dropped or merged (a repeated label), never an eps0
below the largest likelihood ratio of the rows given, never an upper bound below the exact value.
The limits on the size of the numbers are those of `shuffle_spec.reference.core.limits` (MATRIX_ENTRY_MAX_DIGITS,
MATRIX_DENOMINATOR_LCM_MAX_DIGITS) and `shuffle_spec.interface.limits` (EXACT_WORK_LIMIT).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import random
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from shuffle_spec.interface import api
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.limits import TimeLimitExceeded, time_limit
from shuffle_spec.reference.finite.randomizers import Randomizer
from shuffle_spec.spec.registry import list_statements
from shuffle_spec.spec.statement import Direction

# Seconds a hostile document may take before the test calls it a hang (the fixed code answers in about 1 s).
HANG_SECONDS = 60
THREE_ROWS_TWO_LABELLED_A = {"matrix": [["9/10", "1/10"], ["1/2", "1/2"], ["1/10", "9/10"]], "inputs": ["a", "b", "a"]}
# 1 - 2e-22 rounds to the double 1.0: the failures of that binomial carry the whole delta.
NEAR_ONE = [["1e-22", "0.9999999999999999999999"], ["1/2", "1/2"]]


def call(argv: list[str], seconds: float = HANG_SECONDS) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            with time_limit(seconds):
                code = main(argv)
        except SystemExit as stop:  # argparse's own usage errors
            code = stop.code if isinstance(stop.code, int) else 2
        except TimeLimitExceeded:
            pytest.fail(f"over {seconds} s: {argv!r}")
    return code, out.getvalue(), err.getvalue()


def one_line_error(code: int, out: str, err: str) -> str:
    assert code == 2, (code, out, err)
    assert "Traceback" not in err and "internal error" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "error: " in lines[0], err
    return lines[0]


def write(tmp_path: Path, document: object, name: str = "randomizer.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return str(path)


COMMANDS = {
    "audit": lambda path: ["audit", "randomizer", path, "--n", "5", "--delta", "1e-3"],
    "tightest": lambda path: ["tightest", "--randomizer", "matrix", "--matrix", path, "--n", "5", "--delta", "1e-3"],
}


UPPER_BOUND_IDS = {statement.id for statement in list_statements() if statement.direction is Direction.UPPER_BOUND}


# ---------------------------------------------------------------------------------------------------
# Labels


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_repeated_input_label_is_refused_not_a_dropped_row(tmp_path, command):
    # Before: row 2 replaced row 0 and the audit covered the rows [1/2, 1/2], [1/10, 9/10] (eps0 log 5).
    line = one_line_error(*call(COMMANDS[command](write(tmp_path, THREE_ROWS_TWO_LABELLED_A))))
    assert "inputs[2]" in line and "'a'" in line and "inputs[0]" in line


def test_two_rows_with_one_label_are_not_a_0_dp_randomizer(tmp_path):
    # Before: "exact: eps = 0.0 (0-DP)", exit 0: the two rows had become one.
    document = {"matrix": [["9/10", "1/10"], ["1/10", "9/10"]], "inputs": ["a", "a"]}
    line = one_line_error(*call(COMMANDS["tightest"](write(tmp_path, document))))
    assert "inputs[1]" in line and "inputs[0]" in line


@pytest.mark.parametrize("function", [api.audit_randomizer, api.tightest_randomizer])
def test_the_api_refuses_a_repeated_input_label(function):
    with pytest.raises(ValueError, match=r"inputs\[2\].*'a'.*inputs\[0\]"):
        function(THREE_ROWS_TWO_LABELLED_A, n=5, delta=1e-3)


def test_from_matrix_refuses_repeated_labels():
    rows = [["1/2", "1/2"], ["1/4", "3/4"]]
    with pytest.raises(ValueError, match=r"inputs\[1\].*inputs\[0\]"):
        Randomizer.from_matrix(rows, inputs=["x", "x"])
    with pytest.raises(ValueError, match=r"outputs\[1\] = 'y'.*outputs\[0\]"):
        Randomizer.from_matrix(rows, outputs=["y", "y"])


def test_a_repeated_output_label_names_the_label_and_both_positions(tmp_path):
    document = {"matrix": [["1/2", "1/4", "1/4"], ["1/4", "1/4", "1/2"]], "outputs": ["u", "v", "u"]}
    line = one_line_error(*call(["audit", "randomizer", write(tmp_path, document)]))
    assert "outputs[2]" in line and "'u'" in line and "outputs[0]" in line


@pytest.mark.parametrize("labels", [[1, "1"], ["1", 1], [7, 7]])
def test_labels_printed_alike_are_refused(labels):
    # 1 and "1" are different dict keys but the same label in every report: one of the rows would be unnamed.
    with pytest.raises(ValueError, match=r"inputs\[1\]"):
        api.audit_randomizer({"matrix": [["1/2", "1/2"], ["1/4", "3/4"]], "inputs": labels})


@pytest.mark.parametrize(
    "document, fragment",
    [
        ({"matrix": [["1/2", "1/2"], ["1/4", "3/4"]], "inputs": ["a"]}, "inputs"),
        ({"matrix": [["1/2", "1/2"], ["1/4", "3/4"]], "inputs": ["a", "b", "c"]}, "inputs"),
        ({"matrix": [["1/2", "1/2"], ["1/4", "3/4"]], "outputs": ["a", "b", "c"]}, "outputs"),
        ({"matrix": [["1/2", "1/2"], ["1/4", "3/4"]], "outputs": []}, "outputs"),
    ],
)
def test_the_number_of_labels_must_match_the_matrix(tmp_path, document, fragment):
    line = one_line_error(*call(["audit", "randomizer", write(tmp_path, document)]))
    assert fragment in line


# ---------------------------------------------------------------------------------------------------
# Malformed-but-JSON documents

MATRIX = [["1/2", "1/2"], ["1/4", "3/4"]]
MALFORMED = {
    "unhashable input labels": ({"matrix": MATRIX, "inputs": [[1], [2]]}, "inputs[0]"),
    "object output label": ({"matrix": MATRIX, "outputs": [{"a": 1}, 2]}, "outputs[0]"),
    "null label": ({"matrix": MATRIX, "inputs": [None, "b"]}, "inputs[0]"),
    "boolean labels": ({"matrix": MATRIX, "inputs": [True, False]}, "inputs[0]"),
    "labels as a string": ({"matrix": MATRIX, "inputs": "ab"}, "inputs"),
    "labels as an object": ({"matrix": MATRIX, "outputs": {"a": 0, "b": 1}}, "outputs"),
    "labels as a number": ({"matrix": MATRIX, "outputs": 2}, "outputs"),
    "name not a string": ({"matrix": MATRIX, "name": ["x"]}, "name"),
    "name null": ({"matrix": MATRIX, "name": None}, "name"),
    "removal reference too short": ({"matrix": MATRIX, "removal_reference": ["1"]}, "removal_reference"),
    "removal reference a string": ({"matrix": MATRIX, "removal_reference": "1/2"}, "removal_reference"),
    "removal reference an object": ({"matrix": MATRIX, "removal_reference": {"0": "1/2", "1": "1/2"}}, "removal_reference"),
    "removal reference of lists": ({"matrix": MATRIX, "removal_reference": [[1], [2]]}, "removal_reference[0]"),
    "removal reference not a number": ({"matrix": MATRIX, "removal_reference": ["1/2", "abc"]}, "removal_reference[1]"),
    "removal reference null": ({"matrix": MATRIX, "removal_reference": ["1/2", None]}, "removal_reference[1]"),
    "removal reference negative": ({"matrix": MATRIX, "removal_reference": ["-1/2", "3/2"]}, "removal_reference[0]"),
    "removal reference not summing to 1": ({"matrix": MATRIX, "removal_reference": ["3/4", "3/4"]}, "removal_reference"),
    "removal reference huge exponent": ({"matrix": MATRIX, "removal_reference": ["1e-99999999", "1"]}, "removal_reference[0]"),
    "ragged rows": ({"matrix": [["1/2", "1/2"], ["1"]]}, "row 1"),
    "empty row": ({"matrix": [[], []]}, "row 0"),
    "one empty row": ({"matrix": [["1"], []]}, "row 1"),
    "empty matrix": ({"matrix": []}, "matrix"),
    "matrix an object": ({"matrix": {"a": 1}}, "matrix"),
    "matrix a string": ({"matrix": "1/2"}, "matrix"),
    "null entry": ({"matrix": [[None, "1"], ["1", None]]}, "matrix[0][0]"),
    "object entry": ({"matrix": [[{"p": 1}, "0"], ["1", "0"]]}, "matrix[0][0]"),
    "list entry": ({"matrix": [[[1], "0"], ["1", "0"]]}, "matrix[0][0]"),
    "negative entry": ({"matrix": [["-1/2", "3/2"], ["1/2", "1/2"]]}, "matrix[0][0]"),
    "row not summing to 1": ({"matrix": [["1/2", "1/4"], ["1/2", "1/2"]]}, "row 0"),
    "division by zero": ({"matrix": [["1/0", "1"], ["1/2", "1/2"]]}, "matrix[0][0]"),
    "nan": ({"matrix": [["nan", "1"], ["1/2", "1/2"]]}, "matrix[0][0]"),
    "infinity": ({"matrix": [["Infinity", "0"], ["1/2", "1/2"]]}, "matrix[0][0]"),
    "hexadecimal": ({"matrix": [["0x1", "0"], ["1/2", "1/2"]]}, "matrix[0][0]"),
    "underscores": ({"matrix": [["1_0/2_0", "1/2"], ["1/2", "1/2"]]}, "matrix[0][0]"),
    "huge exponent": ({"matrix": [["1e-999999999", "1"], ["1/2", "1/2"]]}, "matrix[0][0]"),
    "huge positive exponent": ({"matrix": [["1e+999999999", "1"], ["1/2", "1/2"]]}, "matrix[0][0]"),
    "exponent of many digits": ({"matrix": [["1e-" + "9" * 5000, "1"], ["1/2", "1/2"]]}, "matrix[0][0]"),
    "5000-digit integer": ({"matrix": [["1" + "0" * 5000, "1"], ["1/2", "1/2"]]}, "matrix[0][0]"),
    "5000-digit denominator": ({"matrix": [["1/" + "3" * 5000, "1"], ["1/2", "1/2"]]}, "matrix[0][0]"),
    "long decimal": ({"matrix": [["0." + "1" * 5000, "1"], ["1/2", "1/2"]]}, "matrix[0][0]"),
    "leading zeros": ({"matrix": [["0" * 100_000 + "1/2", "1/2"], ["1/2", "1/2"]]}, "matrix[0][0]"),
    "whitespace padding": ({"matrix": [[" " * 100_000 + "1/2", "1/2"], ["1/2", "1/2"]]}, "matrix[0][0]"),
    "not an object": (["matrix"], "matrix row 0"),
    "a number": (5, "object"),
    "unknown field": ({"matrix": MATRIX, "matrx": MATRIX}, "matrx"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_documents_are_one_line_errors_naming_the_field(tmp_path, case):
    document, fragment = MALFORMED[case]
    line = one_line_error(*call(["audit", "randomizer", write(tmp_path, document)], seconds=20))
    assert fragment in line, line


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_the_api_refuses_malformed_documents_with_a_value_error(case):
    document, fragment = MALFORMED[case]
    with time_limit(20):
        with pytest.raises(ValueError) as failure:
            api.audit_randomizer(document)
    assert fragment in str(failure.value) and len(str(failure.value).splitlines()) == 1


def test_the_api_refuses_entries_that_are_too_large_as_numbers():
    with pytest.raises(ValueError, match=r"matrix\[0\]\[0\].*digits"):
        api.audit_randomizer([[Fraction(1, 10**5000), 1 - Fraction(1, 10**5000)], [Fraction(1, 2), Fraction(1, 2)]])
    with pytest.raises(ValueError, match=r"inputs\[0\]"):
        api.audit_randomizer({"matrix": MATRIX, "inputs": [10**5000, 1]})
    with pytest.raises(ValueError, match=r"inputs\[0\]"):
        api.audit_randomizer({"matrix": MATRIX, "inputs": [0.5, 1]})


def test_a_document_that_is_fine_still_passes(tmp_path):
    # The checks refuse what they should and nothing else: labels, comment, name and reference all given.
    document = {
        "name": "skewed", "comment": ["anything", {"goes": 1}], "inputs": ["a", 2], "outputs": ["x", "y"],
        "matrix": [["0.25", "0.75"], ["1/2", "1/2"]], "removal_reference": ["1/3", "2/3"],
    }
    code, out, err = call(["audit", "randomizer", write(tmp_path, document), "--json"])
    assert code == 0, err
    report = json.loads(out)
    assert report["inputs"] == ["a", "2"] and report["outputs"] == ["x", "y"] and report["ldp_ratio"] == "2"


# ---------------------------------------------------------------------------------------------------
# Hangs: huge exponents (one C call: only a subprocess can time it out), huge denominators, tiny entries


def test_a_fifty_byte_file_with_a_huge_exponent_is_refused_at_once(tmp_path):
    path = write(tmp_path, {"matrix": [["1e-999999999", "1"], ["1/2", "1/2"]]})
    script = textwrap.dedent(
        f"""
        import contextlib, io
        from shuffle_spec.interface.cli.main import main
        from shuffle_spec.reference.finite.randomizers import Randomizer
        for argv in (["audit", "randomizer", {path!r}], ["tightest", "--randomizer", "matrix", "--matrix", {path!r}, "--n", "10", "--delta", "1e-6"]):
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                code = main(argv)
            print(code, err.getvalue().strip())
        try:
            Randomizer.from_matrix([["1e-999999999", "1"], ["1/2", "1/2"]])
        except ValueError as failure:
            print("refused", failure)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG_SECONDS, check=False)
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 3, (done.stdout, done.stderr)
    for line in lines[:2]:
        assert line.startswith("2 ") and "error: " in line and "matrix[0][0]" in line and "internal error" not in line, line
    assert lines[2].startswith("refused matrix[0][0]"), lines[2]


def thousand_digit_matrix(seed: int = 1) -> list[list[str]]:
    """3 x 3, each row over one random 1000-digit denominator (numerators and denominators <= 1000 digits)."""
    rng = random.Random(seed)
    rows = []
    for _ in range(3):
        d = rng.randrange(10**999, 10**1000)
        a, b = rng.randrange(d // 4, d // 3), rng.randrange(d // 4, d // 3)
        rows.append([str(Fraction(a, d)), str(Fraction(b, d)), str(Fraction(d - a - b, d))])
    return rows


@pytest.mark.parametrize("n", [6, 10])
def test_thousand_digit_denominators_skip_the_enumeration_with_a_reason(n):
    # Before: 95 s at n = 6, over 10 minutes at n = 10 (the work limit counted operations, not digits). The
    # enumeration is what `audit randomizer --n` runs first; the rest of the audit takes ~3 s here (the gap).
    from shuffle_spec.interface.audit.randomizer import exact_small_n_epsilon

    randomizer = Randomizer.from_matrix(thousand_digit_matrix())
    with time_limit(HANG_SECONDS):
        assert exact_small_n_epsilon(randomizer, n, 1e-3) is None
    from shuffle_spec.interface.audit.randomizer import exact_enumeration_refusal

    reason = exact_enumeration_refusal(randomizer, n)
    assert f"n = {n}" in reason and "digits" in reason and "EXACT_WORK_LIMIT" in reason, reason


def test_tiny_entries_do_not_stall_the_audit_and_give_a_sound_gap(tmp_path):
    # Before: 60 s of Fraction arithmetic in the enumeration (7,400-bit denominators at n = 100) and an upper
    # bound of 0.69 below the exact 45.48 (the binomial law of 1 - 2e-22 was taken for the point mass at 1).
    # `tightest --randomizer matrix` prints the gap of this same audit (`audit_matrix`).
    code, out, err = call(["audit", "randomizer", write(tmp_path, {"matrix": NEAR_ONE}), "--n", "100", "--delta", "1e-6", "--json"])
    assert code == 0, err
    report = json.loads(out)
    assert report["exact"] is None and "digits" in report["exact_reason"], report["exact_reason"]
    gap = report["gap"]
    assert gap["upper"]["eps"] >= gap["lower"]["eps"]
    # The truth is at least the one-output-event bound: the output 0 appears among the n reports w.p.
    # 1 - (1/2)(1 - 1e-22)^99 with the first user at input 1, 1 - (1 - 1e-22)^100 with every user at input 0.
    with mpmath.workdps(50):
        tiny = mpmath.mpf(10) ** -22
        p = 1 - (1 - tiny) ** 99 / 2
        q = 1 - (1 - tiny) ** 100
        truth_at_least = float(mpmath.log((p - mpmath.mpf("1e-6")) / q))
    assert gap["upper"]["eps"] >= truth_at_least > 45
    assert all(row["eps"] >= truth_at_least for row in report["bounds"] if row["valid"] and row["id"] in UPPER_BOUND_IDS)


def test_a_binomial_law_rounding_to_one_is_not_the_point_mass():
    from shuffle_spec.reference.numerics.lattice_sums import binomial_law, binomial_window

    with mpmath.workdps(40):
        law = binomial_law(1 - mpmath.mpf("2e-22"))
    assert law.p == 1.0 and not law.degenerate  # the double rounds; the law does not
    window = binomial_window(5, law, 1e-30)
    # Pr[Bin(5, 1 - 2e-22) = 4] = 5 (2e-22) (1 - 2e-22)^4: inside the window, with its mass.
    assert window.lo <= 4 and window.lower[4 - window.lo] <= 1e-21 * (1 - 2e-22) ** 4 <= window.upper[4 - window.lo]


def test_the_blanket_bound_with_a_probability_rounding_to_one_is_above_the_exact_value():
    from shuffle_spec.reference.bounds.blanket_exact_randomizer import exact_blanket_randomizer_epsilon
    from shuffle_spec.reference.finite.shuffling import exact_shuffled_epsilon

    exact = exact_shuffled_epsilon(Randomizer.from_matrix(NEAR_ONE), 4, Fraction(1, 10**6))
    bound = exact_blanket_randomizer_epsilon(matrix=NEAR_ONE, n=4, delta=1e-6)
    assert exact > 40 and bound.value >= exact


@pytest.mark.parametrize("n", [2, 3])
def test_a_complement_below_the_working_precision_keeps_both_bounds_sound(n):
    # Rows (1e-45, 1 - 1e-45) and (2e-45, 1 - 2e-45): at 40 digits the group of probability 1 - 1e-45 was taken
    # for a sure one and the rare output vanished: upper bound 0.0 against the exact 0.405 (n = 2, delta = 1e-60).
    from shuffle_spec.reference.bounds.blanket_exact_randomizer import exact_blanket_randomizer_epsilon
    from shuffle_spec.reference.lower_bounds.randomizer import best_randomizer_pair
    from shuffle_spec.reference.finite.shuffling import exact_shuffled_epsilon

    tiny = Fraction(1, 10**45)
    rows = [[tiny, 1 - tiny], [2 * tiny, 1 - 2 * tiny]]
    delta = Fraction(1, 10**60)
    exact = exact_shuffled_epsilon(Randomizer.from_matrix(rows), n, delta)
    upper = exact_blanket_randomizer_epsilon(matrix=rows, n=n, delta=float(delta))
    lower, _ = best_randomizer_pair(matrix=rows, n=n, delta=float(delta))
    assert exact > 0.25 and lower.lower <= exact <= upper.value


def test_entries_below_the_float_range_are_outside_the_finite_randomizer_bounds():
    # An entry of 1e-400 underflows in the certified float sums (before: ZeroDivisionError from the pair bound);
    # the two statements refuse it, and the audit still answers with the registered bounds and says why.
    from shuffle_spec.reference.lower_bounds.randomizer import best_randomizer_pair

    tiny = Fraction(1, 10**400)
    rows = [[tiny, Fraction(1, 2) - tiny, Fraction(1, 2)], [2 * tiny, Fraction(1, 4) - 2 * tiny, Fraction(3, 4)]]
    with pytest.raises(ValueError, match="smallest positive entry"):
        best_randomizer_pair(matrix=rows, n=2, delta=1e-300)
    gap = api.tightest_randomizer([[str(v) for v in row] for row in rows], n=2, delta=1e-6)
    assert all("smallest positive entry" in row["reason"] for row in gap.rows if row.get("id") in {"BBGN19.Lem5.3.exact_randomizer", "exact.randomizer_pair"})


def test_the_enumeration_cost_counts_the_digits():
    from shuffle_spec.interface.audit.randomizer import exact_enumeration_work
    from shuffle_spec.interface.limits import EXACT_WORK_LIMIT

    small = Randomizer.from_matrix([["3/4", "1/4"], ["1/4", "3/4"]])
    tiny = Randomizer.from_matrix(NEAR_ONE)
    assert exact_enumeration_work(small, 100) <= EXACT_WORK_LIMIT < exact_enumeration_work(tiny, 100)
    # The same operations (k = m = 2, n = 20) on numbers of 20 x 74 bits instead of 20 x 3: several times the work.
    assert exact_enumeration_work(tiny, 20) > 4 * exact_enumeration_work(small, 20)


def test_an_exact_value_too_long_to_print_is_reported_not_crashed():
    # 1000-digit entries at n = 10: within the work limit, but e^eps has ~20,000 digits (more than Python prints).
    d = 10**999 + 7
    rows = [[str(Fraction(1, d)), str(1 - Fraction(1, d))], ["1/2", "1/2"]]
    with time_limit(HANG_SECONDS):
        report = api.audit_randomizer(rows, n=3, delta=1e-3)
    text = json.dumps(report.to_json())
    assert report.exact is not None and isinstance(report.exact["e_eps"], str) and len(text) < 100_000
    # Shuffling is post-processing of eps0-LDP reports: the exact central eps is at most eps0.
    assert 0 < report.exact["eps"] <= report.ldp_epsilon


# ---------------------------------------------------------------------------------------------------
# Fuzz: random documents


def ratio_of_rows(rows: list[list[str]]) -> Fraction | float:
    """max over columns and pairs of rows of P_x(y) / P_x'(y), from the rows as given (an independent
    computation: exact Fractions of the entry strings, every row counted, labels ignored)."""
    matrix = [[Fraction(entry) for entry in row] for row in rows]
    worst: Fraction | float = Fraction(1)
    for y in range(len(matrix[0])):
        column = [row[y] for row in matrix]
        if max(column) > 0 and min(column) == 0:
            return math.inf
        if max(column) > 0:
            worst = max(worst, max(column) / min(column))
    return worst


def exact_log(ratio: Fraction) -> mpmath.mpf:
    """log of an exact ratio at 60 digits (math.log would round the ratio to a double first)."""
    with mpmath.workdps(60):
        return mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)


ENTRIES = st.one_of(
    st.fractions(min_value=0, max_value=1, max_denominator=10**6).map(str),
    st.sampled_from(["0", "1", "1/2", "0.25", "1e-22", "1e-300", "1e-999", "1e-1001", "1e-100000", "1e5", "-0", "-1/2", "nan", "1/0", "", " ", "abc"]),
    st.integers(-3, 100_000).map(lambda e: f"1e-{e}"),
    st.integers(0, 3000).map(lambda d: "1/" + "7" * max(d, 1)),
    st.none(), st.booleans(), st.just([]), st.just({}),
)
LABELS = st.one_of(st.text(max_size=3), st.integers(-5, 5), st.none(), st.booleans(), st.just([1]), st.just({"a": 1}), st.just(2**70))
GOOD_LABELS = st.one_of(st.text(max_size=3), st.integers(-(2**62), 2**62))


@st.composite
def valid_row(draw: st.DrawFn, m: int, scale: int | None = None) -> list[str]:
    """m entries summing to exactly 1: small fractions, or the first entry scaled down by `scale` (1e20, 1e45,
    1e300: a rare output whose complement is below the working precision; against unscaled rows eps0 ~ 46 or
    ~ 690, inside and far outside the finite-randomizer bounds' range)."""
    weights = [draw(st.integers(1, 9)) for _ in range(m)]
    if scale is None:
        scale = draw(st.sampled_from([1, 1, 10**20, 10**300]))
    total = weights[0] + scale * sum(weights[1:])
    return [str(Fraction(w * (scale if i else 1), total)) for i, w in enumerate(weights)]


@st.composite
def documents(draw: st.DrawFn) -> object:
    """A randomizer document: valid (a third), valid but for one hostile field or entry (a third), or hostile
    throughout (random JSON shapes, labels, entries of huge and tiny exponents)."""
    k, m = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    mode = draw(st.sampled_from(["valid", "mutated", "hostile"]))
    # One scale for every row (a rare output in every row: eps0 stays small) or one per row.
    scale = draw(st.sampled_from([None, None, 10**20, 10**45, 10**300]))
    rows: list[list[object]] = []
    for _ in range(k):
        if mode != "hostile" or draw(st.booleans()):
            rows.append(draw(valid_row(m, scale)))
        else:
            rows.append(draw(st.lists(ENTRIES, min_size=max(m - 1, 0), max_size=m + 1)))
    document: dict[str, object] = {"matrix": rows}
    for field, size in (("inputs", k), ("outputs", m)):
        if draw(st.integers(0, 2)) == 0:
            labels = GOOD_LABELS if mode != "hostile" else LABELS
            unique = mode != "hostile" and draw(st.booleans())
            document[field] = draw(st.lists(labels, min_size=size, max_size=size, unique_by=str if unique else None))
    if draw(st.integers(0, 4)) == 0:
        document["removal_reference"] = draw(valid_row(m)) if mode != "hostile" else draw(st.lists(ENTRIES, max_size=m + 1))
    if draw(st.integers(0, 4)) == 0:
        document["name"] = draw(st.text(max_size=5)) if mode != "hostile" else draw(st.one_of(st.text(max_size=5), st.none(), st.integers()))
    if mode == "mutated":
        i, j = draw(st.integers(0, k - 1)), draw(st.integers(0, m - 1))
        rows[i][j] = draw(ENTRIES)
    return document if draw(st.integers(0, 9)) else rows


@settings(max_examples=40)
@given(document=documents(), n=st.sampled_from([None, None, 2, 3]), delta=st.sampled_from(["1e-3", "1e-60", "1e-250"]))
def test_fuzz_randomizer_documents(tmp_path_factory, document, n, delta):
    # The stated time: HANG_SECONDS per document (valid ones take 0.1-0.5 s at n <= 3, refusals milliseconds).
    path = write(tmp_path_factory.mktemp("fuzz"), document)
    argv = ["audit", "randomizer", path, "--json"] + (["--n", str(n), "--delta", delta] if n else [])
    code, out, err = call(argv, seconds=HANG_SECONDS)
    event(f"exit {code}")
    if code == 2:
        one_line_error(code, out, err)
        return
    assert code in (0, 1) and "internal error" not in err, (code, err)
    report = json.loads(out)
    event("exact value enumerated" if report.get("exact") else "no exact value")
    rows = document["matrix"] if isinstance(document, dict) else document
    assert len(report["inputs"]) == len(rows)  # no row merged or dropped
    true_ratio = ratio_of_rows(rows)  # type: ignore[arg-type]
    if true_ratio == math.inf:
        assert report["ldp_epsilon"] == math.inf
    else:
        truth = exact_log(true_ratio)  # type: ignore[arg-type]
        assert report["ldp_epsilon"] >= truth, (report["ldp_epsilon"], truth)
    # The audit compares every certified bound with the exact value and the two sides of the gap: none of
    # those comparisons may find an unsound number.
    assert not any("unsound" in problem for problem in report["problems"]), report["problems"]
