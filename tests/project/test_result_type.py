"""One result type: every registered statement's reference, called at the statement's first example point,
returns a `BoundValue` whose `direction` is the statement's direction and whose `value` is its certified end in
that direction (the upper end for an upper bound or an exact enclosure, the lower end for a lower bound).

The references that still return a plain number are listed by id below: none is an amplification bound (a bound
on the central epsilon of shuffled reports), and the list is checked both ways, so that converting one of them
means taking it off the list, and no new plain-number reference can appear unlisted.
"""

from __future__ import annotations

import numbers

import pytest

from shuffle_spec.proofs_checks.bridge import reference_function
from shuffle_spec.reference.core.results import BoundValue
from shuffle_spec.spec.registry import registry

# Statements whose references return a plain real number (float, int or Fraction): protocol accuracy and
# bit counts, blanket total-variation similarities, inversions (a largest eps0 or eps), delta(eps) of a
# protocol. Not amplification bounds; each keeps its own rounding argument in its docstring.
PLAIN_NUMBER = frozenset({
    "BBGN19.Cor4.1.1",
    "BBGN19.Lem4.3",
    "BBGN19.Lem4.5",
    "BBGN19.Lem5.1.gaussian",
    "BBGN19.Lem5.1.krr",
    "BBGN19.Lem5.1.laplace",
    "BBGN19.Lem5.2",
    "BBGN19.Lem5.5",
    "BBGN19.Lem5.6",
    "BBGN19.Thm3.1",
    "BBGN19.Thm4.1",
    "BBGN19v1.Thm3.1",
    "EFMRSTT20.Alg1.bits",
    "EFMRSTT20.Alg1.variance",
    "EFMRSTT20.Alg5",
    "EFMRSTT20.CorA.2",
    "EFMRSTT20.DefII.4.binary_rr",
    "EFMRSTT20.LemII.6.inverse",
    "EFMRSTT20.LemII.6.lam",
    "EFMRSTT20.ThmA.4",
    "EFMRSTT20.ThmII.7",
    "EFMRSTT20.ThmII.7.inverse",
    "EFMRSTT20.ThmIV.1",
    "EFMRSTT20.ThmV.2",
    "EFMRTT19.Lem4",
    "EFMRTT19.Thm2",
    "EFMRTT19.Thm6.explicit",
})


def _evaluable() -> list:
    return sorted((s for s in registry().values() if s.is_evaluable and s.examples), key=lambda s: s.id)


def _at_example(statement) -> object:
    point = statement.examples[0]
    return reference_function(statement)(**{name: point[name] for name in statement.input_names})


@pytest.mark.parametrize("statement", [s for s in _evaluable() if s.id not in PLAIN_NUMBER], ids=lambda s: s.id)
def test_reference_returns_a_bound_value_in_its_direction(statement) -> None:
    result = _at_example(statement)
    assert isinstance(result, BoundValue), f"{statement.id}: {statement.reference} returned a {type(result).__name__}, not a BoundValue"
    assert result.direction == statement.direction.value
    end = result.lower if statement.direction.value == "lower_bound" else result.upper
    assert result.value == end and float(result) == end
    assert result.lower <= result.upper


@pytest.mark.parametrize("statement", [s for s in _evaluable() if s.id in PLAIN_NUMBER], ids=lambda s: s.id)
def test_plain_number_references_are_listed_and_not_amplification_bounds(statement) -> None:
    assert "amplification" not in statement.tags
    result = _at_example(statement)
    assert isinstance(result, numbers.Real) and not isinstance(result, (bool, BoundValue)), f"{statement.id} returns a {type(result).__name__}: take it off PLAIN_NUMBER"


def test_plain_number_list_names_only_registered_evaluable_statements() -> None:
    assert PLAIN_NUMBER <= {s.id for s in _evaluable()}


def test_every_amplification_bound_is_checked() -> None:
    amplification = [s for s in registry().values() if "amplification" in s.tags]
    assert len(amplification) >= 27  # the registry's amplification bounds, each evaluable with an example
    assert all(s.is_evaluable and s.examples and s.id not in PLAIN_NUMBER for s in amplification)
