"""The acceptance interval `audit bound` gives a statement at a grid point: the statement's certified interval
widened by its rtol. A claim is BELOW BOUND only under its lower end, so that end must be sharp."""

from __future__ import annotations


from shuffle_spec.interface.audit.bound import audit_point
from shuffle_spec.spec.registry import get_statement


def test_the_audit_acceptance_interval_of_the_exact_krr_bound_is_within_its_rtol():
    """An audit can only call a claim BELOW BOUND where the statement's certified interval is narrower than the
    slack it grants (the statement's rtol, 0.005 here): else a claim below the theorem's value passes."""
    statement = get_statement("BBGN19.Lem5.3.exact_krr")
    point = audit_point(statement, {"eps0": 4.0, "n": 1000, "delta": 1e-6, "k": 10}, "grid")
    assert point is not None and point.inside and point.expected is not None and point.interval is not None
    value, low = float(point.expected), float(point.interval[0])
    assert (value - low) / value <= statement.rtol, (low, value)
