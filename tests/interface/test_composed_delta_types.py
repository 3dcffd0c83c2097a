"""The ends of a composed delta(eps) are Python floats at every layer that hands them on (`json.dumps` refuses
nothing here, but a numpy scalar prints as `np.float64(...)` in reprs and reasons and is not `type(x) is float`
in a consumer's schema check): the interface's `composed_delta` and the reference's
`mechanism_rounds.composed_delta`, whose lower end comes from the composed explicit pairs (a numpy reduction)."""

import json

import pytest

from shuffle_spec.interface.api import composed_delta
from shuffle_spec.reference.composition.mechanism_rounds import MechanismRound, composed_delta as mechanism_composed_delta


@pytest.mark.parametrize("statement_id, k", [("compose.binary_rr", None), ("compose.krr", 3)])
def test_interface_ends_are_python_floats(statement_id, k):
    result = composed_delta(statement_id, rounds=3, eps0=1.0, n=100, eps=0.5, k=k)
    assert all(type(x) is float for x in (result.lower, result.upper, result.value, *result.interval))
    assert 0 < result.lower <= result.upper < 1  # a non-trivial interval: the lower end is a composed pair's
    assert json.loads(json.dumps(list(result))) == list(result)


@pytest.mark.parametrize("mechanism, k", [("binary_rr", 2), ("krr", 3)])
def test_reference_ends_are_python_floats(mechanism, k):
    value = mechanism_composed_delta([MechanismRound(mechanism, 1.0, 100, 3, k)], eps=0.5)
    assert 0 < value.lower <= value.upper < 1
    assert type(value.lower) is float and type(value.upper) is float
    assert "np.float64" not in repr(value)


def test_reference_ends_are_python_floats_when_no_explicit_pair_is_composed():
    """The other return of `mechanism_rounds.composed_delta` (lower end 0 with a note): k-RR at eps0 = 0.5,
    n = 1000, T = 10, eps = 0.3, where the composed explicit pairs give nothing (measured: lower end 0)."""
    value = mechanism_composed_delta([MechanismRound("krr", 0.5, 1000, 10, 3)], eps=0.3)
    assert value.lower == 0.0 and 0 < value.upper < 1
    assert type(value.lower) is float and type(value.upper) is float
