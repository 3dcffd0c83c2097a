"""A lower-bound statement reports its certified LOWER end as its value (the upper end may lie above the
truth), in every place that shows one: the composition API and the points `audit bound` judges."""

import pytest

from shuffle_spec.interface import api
from shuffle_spec.interface.audit.bound import _classify_point
from shuffle_spec.spec.registry import get_statement
from shuffle_spec.spec.terms import Direction


@pytest.mark.parametrize("statement_id", ["compose.exact_binary_rr", "compose.clones"])
def test_composition_value_is_the_end_its_direction_allows(statement_id):
    result = api.composed_epsilon(statement_id, rounds=3, eps0=1.0, n=50, delta=1e-6)
    low, high = result.interval
    assert low < high  # a certified interval of positive width: the two ends are distinguishable
    lower_bound = get_statement(statement_id).direction is Direction.LOWER_BOUND
    assert result.value == (low if lower_bound else high)


def test_audit_expected_value_of_a_lower_bound_is_its_lower_end(monkeypatch):
    """The registered lower-bound references return their lower end on both sides, so a reference that
    returns a genuine interval is planted: the judged expected value must be the lower end."""
    from shuffle_spec.interface.audit import bound as audit
    from shuffle_spec.reference.core.results import BoundValue

    statement = get_statement("compose.exact_binary_rr")
    assert statement.direction is Direction.LOWER_BOUND
    monkeypatch.setattr(audit, "reference_function", lambda s: lambda **kw: BoundValue(lower=1.0, upper=2.0, note="", direction="lower_bound"))
    # The planted reference has no high-precision path (the statement's own would narrow the planted interval).
    monkeypatch.setattr(audit, "high_precision_enclosure", lambda statement, point: None)
    inside, expected, interval, _ = _classify_point(statement, {"eps0": 1.0, "n": 50, "delta": 1e-6, "rounds": 3})
    assert inside and float(expected) == 1.0
    assert float(interval[0]) < 1.0 and float(interval[1]) >= 2.0


@pytest.mark.parametrize("eps0", [36.0, 50.0])
def test_krr_pair_x0_answers_at_the_top_of_its_range(eps0):
    """eps0 in (0, 50] is documented; from about 36 the backward direction's coefficient brackets overlap and
    the engine used to raise an internal 'coefficients out of range' error."""
    from shuffle_spec.reference.bounds.blanket_exact_krr import exact_blanket_krr_epsilon
    from shuffle_spec.reference.lower_bounds.krr import krr_pair_x0_epsilon

    lower = krr_pair_x0_epsilon(eps0=eps0, n=1000, delta=1e-6, k=3).value
    upper = exact_blanket_krr_epsilon(eps0=eps0, n=1000, delta=1e-6, k=3).value
    assert 0 < lower <= upper <= eps0
