"""ShuffleBound.delta_calibration of a composition below delta ~ 1e-12 (the direct delta(eps) path: the composition
recomposed for smaller targets and tilted, `reference.composition.solve.small_delta`): it resolves the delta that
the eps(delta) path certifies at the same eps, where it returned the untilted round-off floor (~1e-13)."""

from __future__ import annotations

import pytest

from shuffle_spec.interface import api
from shuffle_spec.reference.composition import mechanism_rounds as mech


def _check_inverse(calibration: api.Calibration, delta: float) -> None:
    # At eps = eps(delta) of the eps(delta) path (certified: the true delta there is <= delta), the direct certified
    # delta is within 1e-3 above delta and 1% below it (the two certified paths are inverses up to their grids); the
    # bracket's lower end is a certified lower bound (0 here: the explicit pairs are composed down to 1e-12 only).
    assert delta * (1 - 1e-2) <= calibration.value <= delta * (1 + 1e-3)
    assert calibration.bracket[0] <= calibration.value == calibration.bracket[1]


def test_krr_delta_at_the_eps_of_1e_15_at_n_300() -> None:
    # compose.krr, eps0 = 4, n = 300, T = 2, k = 10: eps(1e-15) of the eps(delta) path is 6.216618439922874
    # (ShuffleBound.get_epsilon(1e-15).value, the upper end of mechanism_rounds.composed_epsilon; recomputed in the slow test
    # below).
    bound = api.ShuffleBound("compose.krr", eps0=4.0, n=300, rounds=2, k=10)
    _check_inverse(bound.delta_calibration(6.216618439922874), 1e-15)


@pytest.mark.slow
def test_krr_delta_at_the_eps_of_1e_15() -> None:
    # compose.krr, eps0 = 4, n = 1e4, T = 2, k = 10: before, the direct delta at eps(1e-15) = 1.0318 was 9.7e-13.
    # eps(1e-15): the eps(delta) path's certified upper end (get_epsilon's value; its lower end is not needed here).
    eps = mech.composed_epsilon([mech.MechanismRound("krr", 4.0, 10_000, 2, 10)], delta=1e-15, lower=False).upper
    bound = api.ShuffleBound("compose.krr", eps0=4.0, n=10_000, rounds=2, k=10)
    _check_inverse(bound.delta_calibration(eps), 1e-15)
    # To 1e-9 relative: the FFT's last bits differ between machines (~1e-12 relative here).
    assert mech.composed_epsilon([mech.MechanismRound("krr", 4.0, 300, 2, 10)], delta=1e-15, lower=False).upper == pytest.approx(6.216618439922874, rel=1e-9)
