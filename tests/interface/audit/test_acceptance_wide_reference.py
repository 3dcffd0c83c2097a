"""`audit bound` where the reference's certified interval of the statement's value is wider than the statement's
tolerance: the acceptance interval then reaches further below the value (for an upper bound) than the tolerance allows,
so a claim inside it cannot be told from a wrong one. Such a claim is never a PASS (it is INCONCLUSIVE); a claim
outside the certified interval still fails."""

from __future__ import annotations

import dataclasses
import math

from support import statements as fx

from shuffle_spec.interface.audit.bound import audit_bound, audit_point
from shuffle_spec.interface.audit.sandbox import CallOutcome
from shuffle_spec.interface.cli.commands.audit import bound_exit_code
from shuffle_spec.interface.audit.verdicts import ABOVE_BOUND, BELOW_BOUND, INCONCLUSIVE, PASS, judge
from shuffle_spec.reference.bounds.hoeffding import hoeffding_generic_epsilon_mp
from shuffle_spec.spec.registry import get_statement
from shuffle_spec.spec.terms import Direction

# Inside V1's hypotheses (eps0 < 1/2, n >= 1000, delta < 1/100); V1's value there is 12 eps0 sqrt(log(1/delta) / n).
POINT = {"eps0": 0.25, "n": 10_000, "delta": 1e-6}
WIDE_UPPER = dataclasses.replace(fx.V1, reference="support.statements:wide_upper_reference")
WIDE_LOWER = dataclasses.replace(fx.V1, id="EFMRTT19.Thm97.lower_tooltest", direction=Direction.LOWER_BOUND, reference="support.statements:wide_lower_reference")


def _value(eps0: float, n: int, delta: float) -> float:
    """V1's value from its formula (BBGN19 Thm 5.1), independent of the references."""
    return 12 * eps0 * math.sqrt(math.log(1 / delta) / n)


def _verdict(statement, claim: float, inputs=POINT, point=None) -> str:
    """The verdict on `claim` at `inputs` (classified by the audit, or the given `point` of the audit there)."""
    point = point or audit_point(statement, dict(inputs), "grid")
    assert point is not None and point.inside and point.interval is not None
    # No truth check: these claims are judged against the statement alone (the truth's lower bounds are below them).
    finding = judge(statement, inputs, CallOutcome("value", claim), inside=True, expected=point.expected, interval=point.interval,
                    wide_interval=point.wide_interval, check_truth=False)
    return finding.verdict


def test_a_claim_below_an_upper_bound_inside_a_wide_certified_interval_is_not_a_pass():
    # The reference certifies [0.9 v, v]: a claim of 0.95 v claims 5% more privacy than the theorem proves (rtol 1e-9).
    value = _value(**POINT)
    assert _verdict(WIDE_UPPER, 0.95 * value) == INCONCLUSIVE
    # The value itself is not below the statement's value, but the reference cannot tell whether it is within rtol.
    assert _verdict(WIDE_UPPER, value) == INCONCLUSIVE
    # Outside the certified interval the verdicts stand whatever its width: below its lower end claims more than
    # the theorem proves, above the widened upper end is looser than it.
    assert _verdict(WIDE_UPPER, 0.85 * value) == BELOW_BOUND
    assert _verdict(WIDE_UPPER, 1.2 * value) == ABOVE_BOUND
    # The reference's own narrow interval separates claims: the value passes, 1e-6 below it does not.
    assert _verdict(fx.V1, value) == PASS
    assert _verdict(fx.V1, value * (1 - 1e-6)) == BELOW_BOUND


def test_a_claim_above_a_lower_bound_inside_a_wide_certified_interval_is_not_a_pass():
    # The mirror image: the reference certifies a lower bound's value in [v, 1.1 v]; a claim of 1.05 v may be above it.
    value = _value(**POINT)
    assert _verdict(WIDE_LOWER, 1.05 * value) == INCONCLUSIVE
    # Outside the acceptance interval [v (1 - rtol), 1.1 v (1 + 1e-12)]: judged as anywhere else, never PASS.
    assert _verdict(WIDE_LOWER, 1.15 * value) not in (PASS, INCONCLUSIVE)
    assert _verdict(WIDE_LOWER, 0.85 * value) not in (PASS, INCONCLUSIVE)


def test_a_certified_interval_with_an_infinite_end_separates_no_claims():
    # A reference interval [v, +inf] (a lower bound whose upper end is not bounded) or [-inf, v] is as wide as an interval
    # gets, but its width inf - v is not above rtol x max(|ends|) = inf: every claim, 1e6 above a lower bound's value or 0
    # below an upper bound's, was a PASS (the acceptance interval was [-inf, inf]).
    value = _value(**POINT)
    unbounded_lower = dataclasses.replace(WIDE_LOWER, id="EFMRTT19.Thm97.unbounded_lower_tooltest", reference="support.statements:unbounded_lower_reference")
    unbounded_upper = dataclasses.replace(WIDE_UPPER, id="EFMRTT19.Thm97.unbounded_upper_tooltest", reference="support.statements:unbounded_upper_reference")
    for claim in (value, 10 * value, 1e6):
        assert _verdict(unbounded_lower, claim) == INCONCLUSIVE, claim
    for claim in (0.0, 0.5 * value, value):
        assert _verdict(unbounded_upper, claim) == INCONCLUSIVE, claim
    # Outside, on the side the finite end bounds: a lower bound's claim below v is looser (safe), an upper bound's
    # claim above v is looser (safe).
    assert _verdict(unbounded_lower, 0.5 * value) == BELOW_BOUND
    assert _verdict(unbounded_upper, 2 * value) == ABOVE_BOUND


def _five_percent_low(eps0, n, delta):
    if not (0 < eps0 < 0.5 and n >= 1000 and n == int(n) and 0 < delta < 0.01):
        raise ValueError("outside the regime")
    return 0.95 * _value(eps0, n, delta)


def test_the_audit_of_a_claim_five_percent_low_is_not_a_pass_where_the_reference_is_wide(monkeypatch):
    """The whole audit, in process: at the sweep's points inside the hypotheses (eps0 = 0.05 and the bisected regime
    edge at n = 1e9, delta = 1e-12; the degenerate eps0 = 1e-300) the claim lies inside the wide interval and passed;
    the report counts them."""
    fx.install(monkeypatch, (WIDE_UPPER,))
    audit = audit_bound(_five_percent_low, WIDE_UPPER.id, grid=True, grid_shape=(2, 2, 2), vectors={**_no_valid_vectors()}, quiet=True)
    inside = [f for f in audit.findings if f.inside and f.got is not None]
    assert inside, "the sweep has points inside the hypotheses"
    assert all(f.verdict == INCONCLUSIVE for f in inside), [(f.inputs, f.verdict) for f in inside]
    # A run in which no call inside the hypotheses was decided proves nothing: its own result (not "warn", exit 0, which
    # CI reads as a pass), exit code 3, and the summary and the JSON say so.
    assert audit.result == "inconclusive" and not audit.ok
    assert bound_exit_code(audit) == 3
    assert "NOTHING decided inside the hypotheses" in audit.summary()
    report = audit.to_json()
    assert report["result"] == "inconclusive" and report["inside_decided"] == 0 and report["inside_checked"] == len(inside)
    assert report["counts"].get(INCONCLUSIVE) == len(inside)
    assert all(f["certified_interval"] for f in report["findings"] if f["verdict"] == INCONCLUSIVE)
    # A tolerance granted by the caller that covers the width (10%) makes the points separate claims again.
    lenient = audit_bound(_five_percent_low, WIDE_UPPER.id, grid=True, grid_shape=(2, 2, 2), vectors={**_no_valid_vectors()}, rtol=0.2, quiet=True)
    assert {f.verdict for f in lenient.findings if f.inside and f.got is not None} == {PASS}
    assert lenient.result in ("pass", "warn") and bound_exit_code(lenient) == 0 and lenient.to_json()["inside_decided"] > 0


def _no_valid_vectors() -> dict:
    """WIDE_UPPER's vector group without its tests (the vectors come from V1's closed form, not from the reference)."""
    from shuffle_spec.interface.vectors.files import generate_group

    group = generate_group(WIDE_UPPER)
    return {**group, "tests": [t for t in group["tests"] if t["result"] == "invalid"]}


def test_a_claim_of_half_the_hoeffding_bound_fails_where_its_float_reference_is_wide():
    # BBGN19.Thm5.3 at a point of the default sweep (eps0 = 0.05, n = 1e9, delta = 0.5): the float reference's
    # bisection stops at an absolute width of ~1e-9, so its certified interval [5e-14, 2.1043e-11] is 400 times wider
    # than the value, against rtol 1e-9; a claim of half the value passed. The value, enclosed at 40 digits by the
    # high-precision path (what the test vectors are generated from), is 2.1042948953676705e-11: the audit narrows the
    # interval with it, so half of it (claiming twice the privacy) fails and the value itself passes.
    statement = get_statement("BBGN19.Thm5.3")
    inputs = {"eps0": 0.05, "n": 10**9, "delta": 0.5}
    low, high = hoeffding_generic_epsilon_mp(dps=40, **inputs)
    assert 2.1e-11 < float(low) <= float(high) < 2.11e-11
    point = audit_point(statement, dict(inputs), "grid")
    assert point is not None and point.wide_interval is None
    assert _verdict(statement, float(low) / 2, inputs, point) == BELOW_BOUND
    assert _verdict(statement, 0.0, inputs, point) == BELOW_BOUND
    assert _verdict(statement, float(high) * (1 + 1e-12), inputs, point) == PASS


def test_a_claim_inside_a_wide_interval_the_high_precision_path_cannot_narrow_is_not_a_pass():
    # FMT21.clones_numeric at eps0 = 1, n = 1e4, delta = 1e-300 (a degenerate point of every sweep): the float
    # reference certifies [0.5747, 0.7711] (34% wide, rtol 1e-6) and the high-precision path declines below delta =
    # 1e-200, so a claim inside cannot be told from one more than the tolerance below the value.
    statement = get_statement("FMT21.clones_numeric")
    inputs = {"eps0": 1.0, "n": 10_000, "delta": 1e-300}
    point = audit_point(statement, dict(inputs), "degenerate")
    assert point is not None and point.wide_interval is not None
    low, high = (float(x) for x in point.wide_interval)
    assert (high - low) / high > 0.1
    assert _verdict(statement, (low + high) / 2, inputs, point) == INCONCLUSIVE
    assert _verdict(statement, high, inputs, point) == INCONCLUSIVE
    assert _verdict(statement, low * 0.99, inputs, point) == BELOW_BOUND


def test_a_lower_bound_claim_between_the_certified_ends_of_the_truth_is_not_a_pass():
    # The registry judges a claimed LOWER bound on the Laplace mechanism's shuffled epsilon against the certified
    # bracket of the truth (`tightest`; `shuffle-spec tightest --randomizer laplace --eps0 1 --n 100 --delta 1e-6`):
    # [0.4084, 0.4470] (exact.laplace_pair_x0, BBGN19.Lem5.3.exact_laplace), 9% wide against their rtol of 1%. A claim
    # of 0.44 may lie above the truth (then it is no lower bound): it passed as "not above the certified upper bound".
    from shuffle_spec.interface.audit import registry
    from shuffle_spec.interface.audit.adapters import implementation

    inputs = {"eps0": 1.0, "n": 100, "delta": 1e-6}
    [finding] = registry._judge_lower_claim(implementation("wang_laplace_lower"), [(inputs, "grid", CallOutcome("value", 0.44))])
    assert 0.44 < float(finding.expected) < 0.45  # the certified upper end: the claim is not above it
    assert finding.verdict == INCONCLUSIVE, finding.reason


def _severity(statement, claim: float) -> str:
    point = audit_point(statement, dict(POINT), "grid")
    assert point is not None and point.interval is not None
    return judge(statement, POINT, CallOutcome("value", claim), inside=True, expected=point.expected, interval=point.interval,
                 wide_interval=point.wide_interval, check_truth=False).severity


def test_above_a_lower_bound_is_the_failure_and_below_it_the_safe_side():
    """For a LOWER bound the unsafe side is above the statement's value (a larger lower bound than the theorem proves:
    the true epsilon may lie below the claim); below it is merely looser. Upper bounds: the other way round."""
    narrow_lower = dataclasses.replace(WIDE_LOWER, id="EFMRTT19.Thm97.narrow_lower_tooltest", reference="support.statements:v1_lower_reference")
    value = _value(**POINT)
    assert _severity(narrow_lower, 1.5 * value) == "failure"
    assert _severity(narrow_lower, 0.5 * value) == "warning"
    assert _severity(fx.V1, 1.5 * value) == "warning"
    assert _severity(fx.V1, 0.5 * value) == "failure"
