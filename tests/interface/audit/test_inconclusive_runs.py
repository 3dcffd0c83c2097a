"""`audit bound`'s result when no call inside the hypotheses was decided: every one INCONCLUSIVE (the reference could not
separate the claims there) proves nothing, and must not look like a pass to CI (exit 0). Its own result
"inconclusive", exit code 3, a summary and a result line saying so; a run with one decided call (PASS, ABOVE BOUND) is
judged as before, and a failure still fails (exit 1)."""

from __future__ import annotations

import pytest

from shuffle_spec.interface.audit.bound import BoundAudit
from shuffle_spec.interface.audit.verdicts import ABOVE_BOUND, BELOW_BOUND, INCONCLUSIVE, PASS, REJECTS, Finding
from shuffle_spec.interface.cli.commands.audit import bound_exit_code, print_bound_report

SEVERITY = {INCONCLUSIVE: "warning", PASS: "pass", ABOVE_BOUND: "warning", BELOW_BOUND: "failure", REJECTS: "pass"}


def _finding(verdict: str, *, inside: bool = True) -> Finding:
    got = None if verdict == REJECTS else 0.5
    return Finding("grid", {"eps0": 1.0, "n": 10_000, "delta": 1e-6}, inside, verdict, SEVERITY[verdict], "a stand-in", got=got)


def _report(*verdicts: str) -> BoundAudit:
    # Every run below also has a refused invalid input (REJECTS, outside the hypotheses): a pass that decides nothing
    # about the values.
    return BoundAudit("FMT21.Thm2.1", "stand_in", [_finding(v) for v in verdicts] + [_finding(REJECTS, inside=False)])


@pytest.mark.parametrize(
    ("verdicts", "result", "code"),
    [
        ((INCONCLUSIVE, INCONCLUSIVE), "inconclusive", 3),
        ((INCONCLUSIVE, PASS), "warn", 0),  # mixed: one claim decided, as before
        ((INCONCLUSIVE, ABOVE_BOUND), "warn", 0),  # looser than the theorem: decided (safe), as before
        ((PASS, PASS), "pass", 0),
        ((INCONCLUSIVE, BELOW_BOUND), "fail", 1),  # a failure is a failure whatever else
        ((), "fail", 1),  # nothing inside the hypotheses checked, as before
    ],
)
def test_the_result_and_exit_code_of_a_run_say_whether_anything_was_decided(verdicts, result, code):
    report = _report(*verdicts)
    assert report.result == result
    assert bound_exit_code(report) == code
    assert report.ok == (code == 0)
    document = report.to_json()
    assert document["result"] == result
    assert document["inside_decided"] == sum(v != INCONCLUSIVE for v in verdicts)


def test_an_undecided_run_says_so_in_its_summary_and_result_line(capsys):
    print_bound_report(_report(INCONCLUSIVE, INCONCLUSIVE))
    lines = capsys.readouterr().out.splitlines()
    assert "NOTHING decided inside the hypotheses" in lines[-2], lines
    assert lines[-1].startswith("result: INCONCLUSIVE"), lines
    print_bound_report(_report(INCONCLUSIVE, PASS))
    lines = capsys.readouterr().out.splitlines()
    assert "NOTHING decided" not in lines[-2] and lines[-1].startswith("result: PASS WITH WARNINGS"), lines
