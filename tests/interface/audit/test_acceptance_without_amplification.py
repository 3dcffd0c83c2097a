"""The acceptance interval of `audit bound` where a statement certifies no amplification (its value is eps0): the
interval's lower end must still be near the theorem's value, else a claim far below it PASSes. Each point below has
an independent certified lower end of the statement's value far above the claim judged; the references answer the
interval [0, eps0] there (their lower end not searched when the upper end is eps0)."""

from __future__ import annotations


from shuffle_spec.interface.audit.bound import audit_point
from shuffle_spec.interface.audit.sandbox import CallOutcome
from shuffle_spec.interface.audit.verdicts import BELOW_BOUND, INCONCLUSIVE, PASS, judge
from shuffle_spec.reference.randomizers.subset_selection import subset_epsilon_lower
from shuffle_spec.spec.registry import get_statement


def _verdicts(statement_id: str, inputs: dict, *claims: float) -> list[str]:
    statement = get_statement(statement_id)
    point = audit_point(statement, inputs, "grid")
    assert point is not None and point.inside and point.expected is not None and point.interval is not None
    return [judge(statement, inputs, CallOutcome("value", claim), inside=True, expected=point.expected, interval=point.interval, wide_interval=point.wide_interval).verdict
            for claim in claims]


def test_a_claim_of_zero_fails_the_subset_audit_where_no_amplification_is_certified():
    # eps0 = 8, n = 2, d = 1e6, delta = 1e-100: the pattern pair (exact.subset_pattern_pair, a certified LOWER bound on
    # the true eps, which the statement's upper bound is above) certifies eps >= 7.9946, so the statement's value is
    # at least that; a claim of 0 claims more privacy than the theorem proves.
    inputs = {"eps0": 8.0, "n": 2, "delta": 1e-100, "d": 10**6}
    certified = subset_epsilon_lower(**inputs).lower
    assert certified > 7.99
    assert _verdicts("BBGN19.Lem5.3.exact_subset", inputs, 0.0) != [PASS]


def test_a_claim_far_below_the_laplace_value_fails_the_audit_where_no_amplification_is_certified():
    # eps0 = 2, n = 10, delta = 1e-16: Lemma 5.3's delta for Laplace is certified above delta at eps = 1.5 (its lower
    # end 0.019), and it is non-increasing in eps, so the statement's value is above 1.5; a claim of 1 is below it.
    from shuffle_spec.reference.bounds.blanket_exact_laplace import exact_blanket_laplace_delta

    inputs = {"eps0": 2.0, "n": 10, "delta": 1e-16}
    assert exact_blanket_laplace_delta(eps0=2.0, n=10, eps=1.5).lower > inputs["delta"]
    below, at = _verdicts("BBGN19.Lem5.3.exact_laplace", inputs, 1.0, 2.0)
    assert below == BELOW_BOUND
    # The value itself (eps0, the certified upper end) is safe; the certified interval [1.647, 2] is wider than the
    # statement's rtol (1%), so the audit cannot tell whether it is within the tolerance: INCONCLUSIVE, not a failure.
    assert at == INCONCLUSIVE
