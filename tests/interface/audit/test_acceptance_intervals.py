"""The acceptance interval `audit bound` gives a statement at a grid point: the statement's certified interval
widened by its rtol. A claim is BELOW BOUND only under its lower end, so that end must be sharp."""

from __future__ import annotations

import pytest

from shuffle_spec.interface.audit.bound import audit_point
from shuffle_spec.interface.audit.sandbox import CallOutcome
from shuffle_spec.interface.audit.verdicts import BELOW_BOUND, INCONCLUSIVE, judge
from shuffle_spec.spec.registry import get_statement


def test_the_audit_acceptance_interval_of_the_exact_krr_bound_is_within_its_rtol():
    """An audit can only call a claim BELOW BOUND where the statement's certified interval is narrower than the
    slack it grants (the statement's rtol, 0.005 here): else a claim below the theorem's value passes."""
    statement = get_statement("BBGN19.Lem5.3.exact_krr")
    point = audit_point(statement, {"eps0": 4.0, "n": 1000, "delta": 1e-6, "k": 10}, "grid")
    assert point is not None and point.inside and point.expected is not None and point.interval is not None
    value, low = float(point.expected), float(point.interval[0])
    assert (value - low) / value <= statement.rtol, (low, value)


# The structured randomizers' upper statements (evaluated through the randomizer registry, by the mechanism's keywords)
# narrow only their upper end by default; audit bound asks them for tight="both". Cheap points for the default tier:
# subset selection on its raised path (the lower end from one group lowered, `reference.randomizers.lowered`), Hadamard
# response (product form), the piecewise mechanism (three groups, lattice sums); the raised statement in the slow tier
# (its lower end takes every admissible raise's lattice sum at each evaluated eps: 7-10 s).
STRUCTURED_POINTS = [
    ("BBGN19.Lem5.3.exact_subset", {"eps0": 8.0, "n": 1000, "delta": 1e-6, "d": 10**6}),
    ("BBGN19.Lem5.3.exact_hadamard", {"eps0": 2.0, "n": 1000, "delta": 1e-6, "d": 1000}),
    ("BBGN19.Lem5.3.exact_piecewise", {"eps0": 2.0, "n": 1000, "delta": 1e-6}),
    pytest.param("BBGN19.Lem5.3.exact_raised", {"name": "oue", "eps0": 4.0, "n": 1000, "delta": 1e-6, "d": 1000}, marks=pytest.mark.slow),
]


@pytest.mark.parametrize("statement_id, inputs", STRUCTURED_POINTS)
def test_a_claim_just_below_a_structured_bound_fails_the_audit_and_one_at_it_is_safe(statement_id, inputs):
    """The acceptance interval's lower end lies within the search tolerance (1e-3) of the statement's value, so a claim
    0.2% below the value (below the theorem's value: its certified interval starts above the claim) is BELOW BOUND.
    With the upper end alone narrowed the lower end was 0 and such a claim passed. The value itself is safe, but these
    statements keep the default rtol of 1e-9, far below the search's 1e-3: the audit cannot certify it within the
    tolerance, so it is INCONCLUSIVE, not PASS (`interface/audit/bound.py`, module doc)."""
    statement = get_statement(statement_id)
    point = audit_point(statement, inputs, "grid")
    assert point is not None and point.inside and point.expected is not None and point.interval is not None
    value, low = float(point.expected), float(point.interval[0])
    assert 0 < (value - low) / value <= 1e-3, (low, value)
    claim = value * (1 - 2e-3)
    assert claim < low
    assert point.wide_interval is not None and statement.rtol < 1e-3
    below = judge(statement, inputs, CallOutcome("value", claim), inside=True, expected=point.expected, interval=point.interval, wide_interval=point.wide_interval)
    at = judge(statement, inputs, CallOutcome("value", value), inside=True, expected=point.expected, interval=point.interval, wide_interval=point.wide_interval)
    assert below.verdict == BELOW_BOUND, below.reason
    assert at.verdict == INCONCLUSIVE and "not below the value" in at.reason, at.reason


def test_the_structured_bounds_refuse_an_unknown_tight():
    from shuffle_spec.reference.core.errors import ParameterError
    from shuffle_spec.reference.randomizers.subset_selection import subset_epsilon_upper

    with pytest.raises(ParameterError, match="tight"):
        subset_epsilon_upper(eps0=1.0, n=100, delta=1e-6, d=10, tight="lower")


# The lower-bound statements of explicit neighbouring pairs, at points where their high-precision path (what the test
# vectors are generated from) is exact: the pair's exact eps enclosed at 40 digits (0.1-0.8 s of CPU each).
PAIR_POINTS = [
    ("exact.krr_pair_third", {"eps0": 1.0, "n": 20, "delta": 1e-3, "k": 3}),
    ("exact.krr_pair_x0", {"eps0": 1.0, "n": 20, "delta": 1e-3, "k": 3}),
    ("exact.shuffled_binary_rr.pair", {"eps0": 1.0, "n": 1000, "delta": 1e-6, "k": 0}),
    ("compose.exact_binary_rr", {"eps0": 1.0, "n": 10, "delta": 1e-6, "rounds": 2}),
]


@pytest.mark.parametrize("statement_id, inputs", PAIR_POINTS)
def test_the_exact_value_of_a_lower_bound_pair_is_no_failure_of_the_audit(statement_id, inputs):
    """A lower-bound statement's reference returns its value (the LOWER end of the pair's certified eps) with the pair's
    certified interval, which holds the exact value: the statement's value rounded down to a double (a correct claim,
    what the vectors carry) is no failure of `audit bound`. The references returned [lower end, lower end], an interval
    that does not hold the exact value; the audit judged a claim above it ABOVE BOUND, a failure for a lower bound:
    exact.shuffled_binary_rr.pair at (1, 1000, 1e-6, k = 0): exact 0.126614480960878, interval [0.126614480453788,
    same] (4e-9 relative above it); compose.exact_binary_rr at (1, 10, 1e-6, T = 2): 1.99947 against [1.99923, same]."""
    from shuffle_spec.interface.audit.bound import _float_down, _sharp_reference
    from shuffle_spec.interface.vectors.files import high_precision_enclosure

    statement = get_statement(statement_id)
    low, high = high_precision_enclosure(statement, inputs)
    result = _sharp_reference(statement)(**inputs)
    # The reference's certified interval holds the exact value; its value (the lower end) is a lower bound of it.
    assert result.lower <= low and high <= result.upper, (result.lower, result.upper, float(low), float(high))
    assert result.value == result.lower
    point = audit_point(statement, dict(inputs), "grid")
    assert point is not None and point.inside
    claim = _float_down(low)
    finding = judge(statement, inputs, CallOutcome("value", claim), inside=True, expected=point.expected, interval=point.interval,
                    wide_interval=point.wide_interval, check_truth=False)
    assert finding.severity != "failure", (finding.verdict, finding.reason, point.interval)
    # A claim well above the exact value still fails (a larger lower bound than the pair proves).
    above = judge(statement, inputs, CallOutcome("value", float(high) * 1.05), inside=True, expected=point.expected, interval=point.interval,
                  wide_interval=point.wide_interval, check_truth=False)
    assert above.severity == "failure", (above.verdict, above.reason, point.interval)
