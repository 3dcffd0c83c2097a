"""The bridge takes a reference's answer by its one result type: a `BoundValue` in the statement's direction (its
`value` is what is shown, its ends the interval), required of every upper or lower bound; a plain real number
from the other scalar statements (exact values); anything else, or a result claiming another direction than its statement's,
is a typed error naming the statement and its reference, never a number shown."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

import support.statements as fx
from shuffle_spec.proofs_checks import bridge
from shuffle_spec.proofs_checks.bridge import ReferenceResultError, evaluate
from shuffle_spec.reference.core.results import BoundValue
from shuffle_spec.spec.statement import Direction

POINT = {"eps0": 1.0, "n": 5, "delta": 1e-3}


def _answering(monkeypatch, result) -> None:
    monkeypatch.setattr(bridge, "reference_function", lambda statement: lambda **kw: result)


def test_an_amplification_bound_returning_a_float_is_an_error(monkeypatch) -> None:
    _answering(monkeypatch, 0.5)
    with pytest.raises(ReferenceResultError, match=r"exact\.trivial_tooltest.*float.*BoundValue"):
        evaluate(fx.TRIVIAL, POINT)


def test_a_result_in_another_direction_than_its_statements_is_an_error(monkeypatch) -> None:
    _answering(monkeypatch, BoundValue(0.4, 0.5, direction="lower_bound"))
    with pytest.raises(ReferenceResultError, match=r"lower_bound.*upper_bound"):
        evaluate(fx.TRIVIAL, POINT)


@pytest.mark.parametrize(("direction", "shown"), [("upper_bound", 0.5), ("lower_bound", 0.4), ("exact", 0.5)])
def test_the_value_shown_is_the_results_value_and_the_interval_its_ends(monkeypatch, direction, shown) -> None:
    statement = dataclasses.replace(fx.TRIVIAL, direction=Direction(direction))
    _answering(monkeypatch, BoundValue(0.4, 0.5, "how", direction=direction))
    answer = evaluate(statement, POINT)
    assert answer.valid and answer.value == shown and answer.interval == (0.4, 0.5) and answer.reason == "how"


@pytest.mark.parametrize("number", [0.25, Fraction(1, 4)])
def test_an_exact_scalar_statement_may_return_a_plain_number(monkeypatch, number) -> None:
    _answering(monkeypatch, number)
    exact = dataclasses.replace(fx.DELTA_OF_V1, direction=Direction.EXACT)
    answer = evaluate(exact, {"eps0": 0.25, "n": 10_000, "eps": 0.1})
    assert answer.valid and answer.value == 0.25 and answer.interval is None


@pytest.mark.parametrize("direction", ["upper_bound", "lower_bound"])
@pytest.mark.parametrize("number", [0.25, Fraction(1, 4), 1])
def test_a_bound_that_is_no_amplification_bound_returning_a_plain_number_is_an_error(monkeypatch, direction, number) -> None:
    _answering(monkeypatch, number)
    bound = dataclasses.replace(fx.DELTA_OF_V1, direction=Direction(direction))
    assert "amplification" not in bound.tags
    with pytest.raises(ReferenceResultError, match=rf"EFMRTT19\.Thm97\.delta.*not a BoundValue \(every {direction.replace('_', ' ')} returns one\)"):
        evaluate(bound, {"eps0": 0.25, "n": 10_000, "eps": 0.1})


@pytest.mark.parametrize("wrong", ["0.25", None, True, (0.2, 0.3)])
def test_anything_else_is_an_error(monkeypatch, wrong) -> None:
    _answering(monkeypatch, wrong)
    with pytest.raises(ReferenceResultError, match=r"EFMRTT19\.Thm97\.delta"):
        evaluate(fx.DELTA_OF_V1, {"eps0": 0.25, "n": 10_000, "eps": 0.1})
