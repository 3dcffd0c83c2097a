"""reference/composition/solve.py: eps(delta) from a composition's certified upper delta curve (the step shared
by compose.binary_rr / compose.krr and the blanket rounds)."""

from __future__ import annotations

import pytest

from shuffle_spec.reference.composition import mechanism_rounds
from shuffle_spec.reference.composition.mechanism_rounds import MechanismRound, composed_epsilon
from shuffle_spec.reference.composition.solve import composition_tail, upper_curve_epsilon


def test_composition_tail_is_a_millionth_of_delta_and_never_below_1e_300() -> None:
    assert composition_tail(1e-6) == 1e-12
    assert composition_tail(1e-300) == 1e-300


@pytest.mark.parametrize("delta", [1e-6, 1e-3])
def test_upper_curve_epsilon_brackets_the_root_of_the_curve(delta: float) -> None:
    # Three 3-RR rounds at n = 200: the solver's upper end has delta <= target on the certified curve, its lower
    # end (when positive) has delta > target, so the root of the curve lies between (solver contract).
    rounds = [MechanismRound("krr", 1.0, 200, 3, 3)]
    composed = mechanism_rounds._composed_upper(rounds, delta, composition_tail(delta))
    result = upper_curve_epsilon(composed, delta=delta, rel_tol=1e-6)
    assert result.direction == "upper_bound"
    assert 0 < result.upper < composed.eps_max
    assert composed.delta(result.upper) <= delta
    assert result.lower == 0 or composed.delta(result.lower) > delta
    # The front door's upper end is this value (no other certified curve applies to k-RR rounds).
    assert composed_epsilon(rounds, delta=delta, lower=False).upper == result.upper


def test_upper_curve_epsilon_refuses_a_bad_target_naming_it() -> None:
    from shuffle_spec.reference.core.errors import ParameterError

    composed = mechanism_rounds._composed_upper([MechanismRound("krr", 1.0, 50, 1, 3)], 1e-6, 1e-12)
    for kwargs, name in (({"delta": 1.0, "rel_tol": 1e-6}, "delta"), ({"delta": 1e-6, "rel_tol": 0.0}, "rel_tol")):
        with pytest.raises(ParameterError, match=name):
            upper_curve_epsilon(composed, **kwargs)
