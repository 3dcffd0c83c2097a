"""`spec.statement`: a Statement refuses to be built malformed, its hypotheses are decided exactly where they
can be (symbol assumptions first), and `to_exact` takes a float as the binary number it is."""

from fractions import Fraction

import pytest
import sympy as sp

from shuffle_spec.spec.statement import (
    Direction,
    EffectiveDelta,
    HypothesisError,
    Kind,
    Source,
    Statement,
    assumption_text,
    to_exact,
)
from shuffle_spec.spec.symbols import delta, eps, eps0, n

SOURCE = Source("BBGN19", "Lemma 5.3", "v2", "high")


def _statement(**changes) -> Statement:
    fields = dict(
        id="BBGN19.Lem5.3.test_only",
        kind=Kind.LEMMA,
        title="A statement built by this test",
        source=SOURCE,
        symbols=(eps0, n, delta, eps),
        hypotheses=(sp.Lt(delta, 1), sp.Ge(n, 2)),
        conclusion=(sp.Le(eps, eps0),),
        direction=Direction.UPPER_BOUND,
        reference="shuffle_spec.reference.bounds.clones:clones_numeric",
        inputs=(eps0, n, delta),
        output=eps,
        value=eps0 / 2,
    )
    fields.update(changes)
    return Statement(**fields)


def test_a_well_formed_statement_is_built():
    statement = _statement()
    assert statement.paper == "BBGN19"
    assert statement.input_names == ("eps0", "n", "delta")
    assert statement.is_evaluable


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"id": "BBGN19.Lemma5.3"}, "id scheme"),
        ({"reference": "shuffle_spec.reference.bounds.clones.clones_numeric"}, "module:function"),
        ({"inputs": (eps0, n, sp.Symbol("k"))}, "input k"),
        ({"hypotheses": (sp.Gt(eps0, 0),)}, "evaluated to True"),
        ({"hypothesis_names": ("only one",)}, "1 hypothesis names for 2"),
        ({"hypothesis_names": ("delta < 1", "x" * 121)}, "not a short human name"),
        ({"conclusion": (sp.Le(eps, sp.Symbol("undeclared")),)}, "undeclared"),
        ({"effective_delta": EffectiveDelta("BBGN19.Lem5.3.test_only", "delta' itself")}, "another statement's id"),
        ({"effective_delta": EffectiveDelta("", "")}, "needs a formula"),
    ],
)
def test_a_malformed_statement_is_refused_saying_why(changes, message):
    with pytest.raises(ValueError, match=message):
        _statement(**changes)


def test_hypotheses_fail_by_assumption_first_then_in_order():
    statement = _statement()
    assert statement.failed_hypotheses({"eps0": 1, "n": 10, "delta": 0.5}) == []
    assert statement.failed_hypotheses({"eps0": 1, "n": 1, "delta": 2}) == [sp.Lt(delta, 1), sp.Ge(n, 2)]
    assert statement.failed_hypotheses({"eps0": 1, "n": 1, "delta": 2}, first_only=True) == [sp.Lt(delta, 1)]
    # A value outside a symbol's domain is reported as the violated assumption (n integer), not a hypothesis.
    (violated,) = statement.failed_hypotheses({"eps0": 1, "n": 2.5, "delta": 0.5})
    assert statement.hypothesis_name(violated) == "n integer"


def test_a_hypothesis_at_its_boundary_is_decided_exactly():
    statement = _statement()
    assert statement.failed_hypotheses({"eps0": 1, "n": 2, "delta": 0.5}) == []  # n >= 2 at n = 2 holds
    nearly_one = 1 - 2.0**-53  # the largest double below 1 is below 1
    assert statement.failed_hypotheses({"eps0": 1, "n": 2, "delta": nearly_one}) == []
    assert statement.failed_hypotheses({"eps0": 1, "n": 2, "delta": 1.0}) == [sp.Lt(delta, 1)]


def test_check_hypotheses_names_the_hypothesis_and_the_values():
    statement = _statement(hypothesis_names=("delta below 1", ""))
    with pytest.raises(HypothesisError) as raised:
        statement.check_hypotheses({"eps0": 1, "n": 10, "delta": 3})
    assert raised.value.hypothesis == "delta below 1" and raised.value.statement_id == statement.id
    assert "delta=3" in str(raised.value)
    with pytest.raises(HypothesisError, match="n >= 2"):  # an unnamed short hypothesis is its own text
        statement.check_hypotheses({"eps0": 1, "n": 1, "delta": 0.5})


def test_evaluate_value_checks_the_hypotheses_first():
    statement = _statement()
    assert statement.evaluate_value({"eps0": 3, "n": 10, "delta": 0.5}) == sp.Float(1.5, 30)
    with pytest.raises(HypothesisError):
        statement.evaluate_value({"eps0": 3, "n": 10, "delta": 1.5})
    with pytest.raises(ValueError, match="no closed-form value"):
        _statement(value=None).evaluate_value({"eps0": 3, "n": 10, "delta": 0.5})


def test_to_exact_keeps_every_bit():
    assert to_exact(0.1) == sp.Rational(3602879701896397, 36028797018963968)  # the double nearest 1/10
    assert to_exact(0.1) != sp.Rational(1, 10)
    assert to_exact(Fraction(2, 3)) == sp.Rational(2, 3)
    assert to_exact(7) == sp.Integer(7)
    for bad, error in ((True, TypeError), (float("nan"), ValueError), (float("inf"), ValueError)):
        with pytest.raises(error):
            to_exact(bad)


@pytest.mark.parametrize(
    "symbol, text",
    [(n, "n integer >= 1"), (eps0, "eps0 > 0"), (eps, "eps >= 0"), (sp.Symbol("m", integer=True, nonnegative=True), "m integer >= 0"),
     (sp.Symbol("x", real=True), "x real")],
)
def test_assumption_text(symbol, text):
    assert assumption_text(symbol) == text
