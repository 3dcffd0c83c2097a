"""BBGN19.Lem5.3.exact_laplace's root search in two phases at every eps0 (module doc of
reference.bounds.blanket_exact_laplace): the upper end (the statement's value) is the one the former search of both
ends together gave below eps0 = 2 (recomputed here by switching the threshold back), and the interval's lower end
moves only within the search tolerance EPS_REL_TOL."""

from __future__ import annotations

import pytest

from shuffle_spec.reference.bounds import blanket_exact_laplace as module


@pytest.mark.parametrize("eps0, n", [(0.5, 10**3), pytest.param(1.0, 10**4, marks=pytest.mark.slow), pytest.param(2.0, 10**3, marks=pytest.mark.slow)])
def test_two_phases_give_the_former_upper_end_and_a_lower_end_within_the_tolerance(monkeypatch, eps0, n):
    now = module.exact_blanket_laplace_epsilon(eps0=eps0, n=n, delta=1e-6)
    monkeypatch.setattr(module, "TWO_PHASE_MIN_EPS0", 2.0)  # the former threshold: both ends together up to eps0 = 2
    before = module.exact_blanket_laplace_epsilon(eps0=eps0, n=n, delta=1e-6)
    assert now.upper == before.upper
    assert 0 < now.lower <= now.upper
    assert abs(now.lower - before.lower) <= module.EPS_REL_TOL * before.upper
