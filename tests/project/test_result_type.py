"""One result type: every registered statement's reference, called at the statement's first example point,
returns a `BoundValue` whose `direction` is the statement's direction and whose `value` is its certified end in
that direction (the upper end for an upper bound or an exact enclosure, the lower end for a lower bound).

The references that still return a plain number are listed by id below: each is an exact value, none an upper or
lower bound (nor an amplification bound), and the list is checked both ways, so that converting one of them
means taking it off the list, and no new plain-number reference can appear unlisted.
"""

from __future__ import annotations

import numbers

import pytest

from shuffle_spec.proofs_checks.bridge import reference_function
from shuffle_spec.reference.core.results import BoundValue
from shuffle_spec.spec.registry import registry

# Statements whose references return a plain real number (float, int or Fraction): every one is an exact value
# (direction "exact"), never an upper or lower bound (the bridge refuses a plain number from a bound, and the
# test below checks the directions); each keeps its own rounding argument in its docstring.
PLAIN_NUMBER = frozenset({
    "BBGN19.Lem4.3",  # an exact rational minimum over the k midpoints (a Fraction), an equality
    "BBGN19.Lem5.1.gaussian",  # the Gaussian mechanism's blanket TV similarity: an equality
    "BBGN19.Lem5.1.krr",  # k-RR's blanket TV similarity: an equality
    "BBGN19.Lem5.1.laplace",  # the Laplace mechanism's blanket TV similarity: an equality
    "EFMRSTT20.Alg1.bits",  # the expected number of 1-bits in a k-RAPPOR report: an equality
    "EFMRSTT20.Alg1.variance",  # the variance of one debiased bit: an equality
    "EFMRSTT20.Alg5",  # the server scale B that makes LDP-SGD unbiased: a defining constant
    "EFMRSTT20.DefII.4.binary_rr",  # binary RR's removal LDP epsilon: an exact value
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


def test_no_upper_or_lower_bound_returns_a_plain_number() -> None:
    bounds = {s.id for s in _evaluable() if s.direction.value in ("upper_bound", "lower_bound")}
    assert not PLAIN_NUMBER & bounds, sorted(PLAIN_NUMBER & bounds)


def test_every_amplification_bound_is_checked() -> None:
    amplification = [s for s in registry().values() if "amplification" in s.tags]
    assert len(amplification) >= 27  # the registry's amplification bounds, each evaluable with an example
    assert all(s.is_evaluable and s.examples and s.id not in PLAIN_NUMBER for s in amplification)
