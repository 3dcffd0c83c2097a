"""Verdicts of `audit bound` for the composition statements (inputs eps0, n, delta, rounds).

After T rounds of an eps0-LDP randomizer, the level that proves no amplification is T x eps0 (basic composition
of T eps0-DP rounds; shuffling is post-processing), not eps0: a composed value between eps0 and T eps0 IS an
amplification claim. So a refusal where the statement's value lies below T eps0 loses a proven guarantee (a
failure, as for one round below eps0), and a number outside the hypotheses below T eps0 claims more than basic
composition certifies (a failure unless the statement itself certifies it at the point).

The judge is called directly with the expected value of the vector (`expected`): what is tested is the rule, not
the statement's number, so the expected values are placed on either side of T eps0 = 3 by hand.
"""

from __future__ import annotations

from shuffle_spec.interface.audit.sandbox import CallOutcome
from shuffle_spec.interface.audit.verdicts import ACCEPTS_INVALID, CRASH, REJECTS, judge
from shuffle_spec.spec.registry import get_statement

COMPOSED = get_statement("compose.clones")
POINT = {"eps0": 1.0, "n": 20, "delta": 1e-6, "rounds": 3}  # T eps0 = 3


def test_a_refusal_where_the_composed_value_is_below_rounds_times_eps0_is_a_failure():
    # 2.5 is above eps0 = 1 but below T eps0 = 3: the statement proves amplification there.
    finding = judge(COMPOSED, POINT, CallOutcome("raised", text="ValueError: no"), inside=True, expected="2.5", interval=["2.49", "2.51"], check_truth=False)
    assert finding.verdict == CRASH and finding.severity == "failure", finding.reason


def test_a_refusal_where_the_composed_value_is_at_rounds_times_eps0_loses_nothing():
    finding = judge(COMPOSED, POINT, CallOutcome("raised", text="ValueError: no"), inside=True, expected="3.0", interval=["3.0", "3.0"], check_truth=False)
    assert finding.verdict == REJECTS and finding.severity == "warning", finding.reason


def test_eps0_outside_the_hypotheses_of_a_composition_claims_more_than_basic_composition():
    # delta = 0 is outside the hypotheses; T rounds of binary RR at delta = 0 have central epsilon T eps0 = 3
    # (all-ones output, each round), so 1.0 (one round's eps0) is below the truth: a failure, not "harmless".
    outside = {**POINT, "delta": 0.0}
    finding = judge(COMPOSED, outside, CallOutcome("value", 1.0), inside=False, hypothesis="delta > 0 fails", check_truth=False)
    assert finding.verdict == ACCEPTS_INVALID and finding.severity == "failure", finding.reason
    harmless = judge(COMPOSED, outside, CallOutcome("value", 3.0), inside=False, hypothesis="delta > 0 fails", check_truth=False, strict=False)
    assert harmless.verdict == ACCEPTS_INVALID and harmless.severity == "warning", harmless.reason

