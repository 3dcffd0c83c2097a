"""Audits of randomizers with a single input (k = 1): trivially private, never an audit failure.

A randomizer whose output does not depend on its input (one input; or equal rows, eps0 = 0) gives every
dataset the same shuffled output distribution, so its central epsilon is exactly 0 at every n and delta.
- `audit randomizer` used to report "PROBLEM: no amplification bound applies ... it is 0-DP" and exit 1
  (an audit failure) for such a matrix.
- `audit bound` used to flag a k-RR bound answering at k = 1 (outside its hypotheses k >= 2) as ACCEPTS
  INVALID failure whenever the number was below the generic certificate, though a 1-ary randomized
  response is 0-DP: any epsilon >= 0 claims nothing false there.
"""

from __future__ import annotations

import json

import pytest
from shuffle_spec.interface.audit.randomizer import audit_matrix
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.audit.sandbox import CallOutcome
from shuffle_spec.interface.audit.verdicts import certified_bound, judge
from shuffle_spec.reference.finite.randomizers import Randomizer
from shuffle_spec.reference.finite.shuffling import exact_shuffled_e_eps
from shuffle_spec.spec.registry import get_statement

ONE_INPUT = [["1/3", "2/3"]]
EQUAL_ROWS = [["1/4", "3/4"], ["1/4", "3/4"]]


@pytest.mark.parametrize("matrix", [ONE_INPUT, [["1"]], EQUAL_ROWS])
def test_a_randomizer_independent_of_its_input_is_0_dp_not_a_problem(matrix):
    report = audit_matrix(matrix, n=100, delta=1e-6)
    assert report.ldp_epsilon == 0.0
    assert report.problems == []
    assert report.exact is not None and report.exact["eps"] == 0.0


def test_the_zero_is_the_exact_value_on_a_small_instance():
    """The 0 reported is what exact enumeration gives where it runs (equal rows, n = 3)."""
    randomizer = Randomizer.from_matrix(EQUAL_ROWS)
    from fractions import Fraction

    from shuffle_spec.reference.finite.shuffling import neighbouring_datasets, shuffled_distribution

    for d, d2 in neighbouring_datasets(randomizer.inputs, 3):
        assert shuffled_distribution(randomizer, d) == shuffled_distribution(randomizer, d2)
    assert exact_shuffled_e_eps(randomizer, 3, Fraction(1, 10**6)) == 1


def test_cli_one_input_randomizer_exits_0_with_a_clear_verdict(tmp_path, capsys):
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"matrix": ONE_INPUT}))
    code = main(["audit", "randomizer", str(path), "--n", "100", "--delta", "1e-6"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "PROBLEM" not in out and "0-DP" in out
    code = main(["audit", "randomizer", str(path), "--n", "100", "--delta", "1e-6", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["exact"]["eps"] == 0.0 and report["problems"] == []


@pytest.mark.parametrize("k", [1, 0])
def test_a_krr_bound_answering_at_k_below_2_claims_nothing_false(k):
    statement = get_statement("BBGN19.hoeffding_krr")
    inputs = {"eps0": 1.0, "n": 10_000, "delta": 1e-6, "k": k}
    certificate, why = certified_bound(statement, inputs)
    assert certificate == 0.0 and "k" in why
    finding = judge(statement, inputs, CallOutcome("value", 0.001), inside=False, hypothesis="k >= 2")
    assert finding.verdict == "ACCEPTS INVALID" and finding.severity == "warning", finding.reason
    # Still a failure for a negative number, and at k = 2 for a number below what is certified there.
    assert judge(statement, inputs, CallOutcome("value", -0.5), inside=False).severity == "failure"
    at_two = {**inputs, "k": 2, "delta": 1.5}
    assert certified_bound(statement, at_two)[0] == 0.0  # delta >= 1 is harmless anyway (unchanged)
    assert certified_bound(statement, {**inputs, "k": 2})[0] > 0.001
