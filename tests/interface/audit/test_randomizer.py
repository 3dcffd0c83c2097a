"""`shuffle_spec.interface.audit.randomizer`: randomizer files, LDP epsilons, blanket, exact small-n, third-party bounds."""

import json
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support import statements as fx
from shuffle_spec.interface import api
from shuffle_spec.interface.audit.bound import audit_bound, load_bound_function
from shuffle_spec.interface.audit.randomizer import blanket, exact_small_n_epsilon, smallest_removal_ratio
from shuffle_spec.interface.cli.main import main
from shuffle_spec.reference.finite.distributions import Distribution
from shuffle_spec.reference.finite.divergences import ldp_ratio, removal_ldp_ratio
from shuffle_spec.reference.finite.randomizers import Randomizer, k_randomized_response
from shuffle_spec.reference.finite.shuffling import exact_shuffled_epsilon
from support.strategies import stochastic_matrices

from support.paths import EXAMPLES


def test_krr_blanket_is_bbgn19_lemma_5_1():
    # BBGN19 Lemma 5.1: k-RR has gamma = k / (e^eps0 + k - 1) and a uniform blanket.
    for k, e in [(2, Fraction(3)), (3, Fraction(3)), (5, Fraction(7, 2))]:
        gamma, omega = blanket(k_randomized_response(k, e))
        assert gamma == Fraction(k) / (e + k - 1)
        assert set(omega.values()) == {Fraction(1, k)}


def test_removal_epsilon_of_binary_rr():
    # Binary RR with e^eps0 = 3: rows (3/4, 1/4), (1/4, 3/4). M_y = 3/4, m_y = 1/4, so
    # a* = max(sqrt(3), sum M = 3/2, 1 / sum m = 2) = 2, reached by R_0 = (1/2, 1/2).
    optimum, witness = smallest_removal_ratio(k_randomized_response(2, Fraction(3)))
    assert optimum == 2 and witness == Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)})


@settings(max_examples=25)
@given(stochastic_matrices(max_inputs=3, max_outputs=4), st.data())
def test_smallest_removal_ratio_is_optimal_and_witnessed(rows, data):
    randomizer = Randomizer.from_matrix(rows)
    optimum, witness = smallest_removal_ratio(randomizer)
    achieved = removal_ldp_ratio(randomizer, witness)
    assert optimum <= achieved <= optimum * (1 + 1e-5)  # the witness is built at a rational a >= a*
    # No other reference does better: try random ones.
    weights = data.draw(st.lists(st.integers(1, 20), min_size=len(randomizer.outputs), max_size=len(randomizer.outputs)))
    other = Distribution({y: Fraction(w, sum(weights)) for y, w in zip(randomizer.outputs, weights, strict=True)})
    assert removal_ldp_ratio(randomizer, other) >= optimum
    # Removal and replacement are related by the triangle inequality: ratio <= optimum^2.
    assert ldp_ratio(randomizer) <= optimum * optimum * (1 + 1e-12)  # optimum may be a float sqrt


def test_audit_of_the_rr3_example_file(capsys):
    code = main(["audit", "randomizer", str(EXAMPLES / "rr3.json"), "--n", "4", "--delta", "0.01", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["ldp_ratio"] == "3" and report["ldp_epsilon"] == pytest.approx(math.log(3), rel=1e-15)
    assert report["ldp_epsilon"] >= math.log(3)
    assert report["blanket_gamma"] == "3/5"  # 3 / (3 + 3 - 1), BBGN19 Lemma 5.1
    assert report["blanket_distribution"] == ["1/3", "1/3", "1/3"]
    assert report["mechanism"] == "krr" and report["k"] == 3
    rr3 = k_randomized_response(3, Fraction(3))
    assert report["exact"]["eps"] == exact_shuffled_epsilon(rr3, 4, Fraction(0.01))
    assert report["exact"]["eps"] <= report["ldp_epsilon"]  # shuffling is post-processing of eps0-LDP reports


@pytest.mark.parametrize(
    "matrix, fragment",
    [
        ([["1/2", "1/2"], ["1/2"]], "matrix row 1"),
        ([["1/2", "1/2"], ["3/2", "-1/2"]], "matrix[1][0]"),
        ([["1/2", "abc"], ["1/2", "1/2"]], "matrix[0][1]"),
        ([["1/2", "1/2"], ["0.7", "0.4"]], "sum of matrix row 1"),
        ([["1/2", "1/2"], [True, 0]], "matrix[1][0]"),
        ([["1/2", "1/2"], "row"], "matrix row 1"),
    ],
)
def test_malformed_randomizer_files_name_row_and_column(tmp_path, capsys, matrix, fragment):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"matrix": matrix}))
    code = main(["audit", "randomizer", str(path)])
    _, err = capsys.readouterr()
    assert code == 2 and fragment in err


def test_invalid_json_reports_line_and_column(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text('{"matrix": [["1/2", "1/2"],\n  ["1/2" "1/2"]]}')
    code = main(["audit", "randomizer", str(path)])
    assert code == 2 and "line 2 column" in capsys.readouterr().err


def test_decimals_in_files_are_exact(tmp_path, capsys):
    path = tmp_path / "dec.json"
    path.write_text('{"matrix": [[0.1, 0.9], [0.9, 0.1]]}')
    assert main(["audit", "randomizer", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ldp_ratio"] == "9" and report["blanket_gamma"] == "1/5"


def test_exact_small_n_refuses_large_work():
    assert exact_small_n_epsilon(k_randomized_response(3, Fraction(3)), 500, 1e-6) is None


def test_api_audit_randomizer_accepts_a_plain_matrix():
    report = api.audit_randomizer([["3/4", "1/4"], ["1/4", "3/4"]])
    assert report.mechanism == "binary_rr" and report.removal_epsilon == pytest.approx(math.log(2)) and report.removal_epsilon >= math.log(2)


class TestBoundAudit:
    """In-process audits of trusted callables (the sandboxed path is in test_tool_audit_bound.py)."""

    @pytest.fixture(autouse=True)
    def registry(self, monkeypatch):
        fx.install(monkeypatch)

    def test_the_reference_itself_passes(self):
        from shuffle_spec.reference.bounds.erlingsson import erlingsson_v1_epsilon

        report = audit_bound(erlingsson_v1_epsilon, fx.V1.id, quiet=True)
        assert report.result == "pass" and report.passed == report.tests > 10

    def test_a_wrong_constant_is_below_the_bound(self):
        def eleven(eps0, n, delta):  # 11 instead of 12: 8 % below, claims more privacy than proven
            if not (0 < eps0 < 0.5 and n >= 1000 and 0 < delta < 0.01 and n == int(n)):
                raise ValueError("outside")
            return 11 * eps0 * math.sqrt(math.log(1 / delta) / n)

        report = audit_bound(eleven, fx.V1.id, quiet=True)
        assert report.result == "fail" and report.worst == "BELOW BOUND" and not report.accepted_invalid
        assert all(f.relative_gap == pytest.approx(-1 / 12) for f in report.findings if f.verdict == "BELOW BOUND")

    def test_a_looser_constant_is_a_warning(self):
        def thirteen(eps0, n, delta):
            if not (0 < eps0 < 0.5 and n >= 1000 and 0 < delta < 0.01 and n == int(n)):
                raise ValueError("outside")
            return 13 * eps0 * math.sqrt(math.log(1 / delta) / n)

        report = audit_bound(thirteen, fx.V1.id, quiet=True)
        assert report.result == "warn" and report.worst == "ABOVE BOUND" and report.ok

    def test_a_bound_below_the_exact_truth_is_unsound(self):
        # TRIVIAL's vectors are at n <= 8, where shuffled binary RR is enumerated exactly; eps0 / 10
        # is below it (at eps0 = 1, n = 5, delta = 1e-3 binary RR stays close to eps0).
        report = audit_bound(lambda eps0, n, delta: eps0 / 10 if 0 < delta < 1 and eps0 > 0 and n >= 1 and n == int(n) else 1 / 0, fx.TRIVIAL.id, quiet=True)
        assert report.unsound and report.truth_checked >= 3
        assert all(item["got"] < item["truth"] for item in report.unsound)

    def test_the_trivial_bound_is_sound(self):
        report = audit_bound(fx.trivial_bound, fx.TRIVIAL.id, quiet=True)
        assert report.ok and not report.unsound and report.truth_checked >= 3

    def test_answering_outside_the_hypotheses_is_reported(self):
        report = audit_bound(lambda eps0, n, delta: 12 * eps0 * math.sqrt(math.log(1 / delta) / n) if delta > 0 and n > 0 else 0.0, fx.V1.id, quiet=True)
        inputs = [item["inputs"] for item in report.accepted_invalid]
        assert {"eps0": 0.6, "n": 10_000, "delta": 1e-6} in inputs and not report.ok

    def test_cli_exit_codes_and_file_loading(self, capsys):
        wrong = f"{EXAMPLES / 'wrong_bound.py'}:fmt21_epsilon"
        assert callable(load_bound_function(wrong))
        assert main(["audit", "bound", "shuffle_spec.reference.bounds.erlingsson:erlingsson_v1_epsilon", "--id", fx.V1.id]) == 0
        assert main(["audit", "bound", "math:nope", "--id", fx.V1.id]) == 2
        assert main(["audit", "bound", "no_such_module_xyz:f", "--id", fx.V1.id]) == 2
        capsys.readouterr()


def test_the_wrong_example_bound_is_caught_on_the_real_statement(capsys):
    from shuffle_spec.spec.registry import list_statements

    if "FMT21.Thm2.1" not in {s.id for s in list_statements()}:
        pytest.skip("FMT21.Thm2.1 not registered")
    code = main(["audit", "bound", f"{EXAMPLES / 'wrong_bound.py'}:fmt21_epsilon", "--id", "FMT21.Thm2.1", "--json"])
    report = json.loads(capsys.readouterr().out)
    verdicts = {f["verdict"] for f in report["findings"]}
    assert code == 1 and "BELOW BOUND" in verdicts and "UNSOUND" in verdicts and "ACCEPTS INVALID" in verdicts
    fixed = main(["audit", "bound", f"{EXAMPLES / 'wrong_bound.py'}:fmt21_epsilon_fixed", "--id", "FMT21.Thm2.1"])
    assert fixed == 0


# Hostile randomizer files are one-line usage errors, big matrices are fast or refused.


def test_deeply_nested_json_is_a_usage_error(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    code = main(["audit", "randomizer", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and "nested too deeply" in err and str(path) in err and "Traceback" not in err


def test_a_binary_file_is_named_in_the_error(tmp_path, capsys):
    path = tmp_path / "binary.json"
    path.write_bytes(bytes(range(256)))
    code = main(["audit", "randomizer", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and str(path) in err and "UTF-8" in err


def test_a_matrix_above_the_size_limit_is_refused_before_any_work(tmp_path, capsys):
    from shuffle_spec.interface.audit.randomizer import MAX_MATRIX_ENTRIES

    side = int(math.isqrt(MAX_MATRIX_ENTRIES)) + 1
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"matrix": [[f"1/{side}"] * side] * side}))
    code = main(["audit", "randomizer", str(path)])
    assert code == 2 and f"at most {MAX_MATRIX_ENTRIES}" in capsys.readouterr().err


def _brute_ldp_ratio(randomizer):
    """EFMRSTT20 Def II.2 literally: max over x != x' and y of P_x(y) / P_x'(y) (O(k^2 m))."""
    worst = Fraction(1)
    for x, px in randomizer.items():
        for x2, px2 in randomizer.items():
            if x == x2:
                continue
            for y in randomizer.outputs:
                if px[y] == 0:
                    continue
                if px2[y] == 0:
                    return math.inf
                worst = max(worst, px[y] / px2[y])
    return worst


def _brute_removal_ratio(randomizer, reference):
    """EFMRSTT20 Def II.4 literally: max over x, y of both ratios to R_0."""
    worst = Fraction(1)
    for _, px in randomizer.items():
        for y in set(randomizer.outputs) | set(reference):
            for a, b in ((px[y], reference[y]), (reference[y], px[y])):
                if a == 0:
                    continue
                if b == 0:
                    return math.inf
                worst = max(worst, a / b)
    return worst


@settings(max_examples=40)
@given(stochastic_matrices(max_inputs=4, max_outputs=4), st.data())
def test_ldp_and_removal_ratios_equal_the_definitions_by_brute_force(rows, data):
    randomizer = Randomizer.from_matrix(rows)
    assert ldp_ratio(randomizer) == _brute_ldp_ratio(randomizer)
    weights = data.draw(st.lists(st.integers(0, 5), min_size=len(randomizer.outputs), max_size=len(randomizer.outputs)).filter(any))
    reference = Distribution({y: Fraction(w, sum(weights)) for y, w in zip(randomizer.outputs, weights, strict=True) if w})
    assert removal_ldp_ratio(randomizer, reference) == _brute_removal_ratio(randomizer, reference)
