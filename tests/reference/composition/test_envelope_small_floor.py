"""The envelope compositions below delta ~ 1e-35 (compose.binary_rr, compose.krr, compose.laplace / finite /
randomizer through `connect_the_dots`): the hull's precision, raise and kink minimum follow the profile's floor
(`connect_the_dots` Numerics), so a profile floored far below 1e-38 keeps its tail instead of putting ~1e-44 at
+inf, and the compositions certify amplification at delta = 1e-50 (they returned eps0 x T there)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from shuffle_spec.reference.composition import mechanism_rounds as mech
from shuffle_spec.reference.composition.connect_the_dots import connect_the_dots


def _gaussian_profile(mu: float, eps: mpmath.mpf) -> mpmath.mpf:
    """The exact privacy profile of the Gaussian mechanism with sensitivity / sigma = mu (Balle, Wang 2018, Thm 8):
    delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), a convex function of e^eps."""
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)


def test_a_profile_down_to_1e_60_keeps_its_tail() -> None:
    # Nodes i / 8 up to where the exact profile (mu = 1, 60 digits) falls below 1e-60, each value rounded up: the
    # dominating pair's curve is >= every value at its node (C3), and its +inf atom, H at the last vertex, is below
    # the last values (before, every vertex whose kink was not certifiably above 1e-38 was removed: the atom was
    # ~1e-40 and no composition of the pair certified a delta below it).
    step = 2.0**-3
    nodes, values = [], []
    with mpmath.workdps(60):
        i = 0
        while True:
            value = _gaussian_profile(1.0, mpmath.mpf(i) * mpmath.mpf(step))
            nodes.append(i * step)
            values.append(min(float(value) * (1 + 2.0**-50), 1.0))
            if value < mpmath.mpf(10) ** -60:
                break
            i += 1
    pair = connect_the_dots(step, np.array(nodes), np.array(values))
    assert values[-2] >= 1e-60 > values[-1] > 0
    assert pair.inf_mass <= values[-2]
    assert pair.inf_mass < 1e-55
    curve = np.array([pair.delta(e) for e in nodes])
    assert np.all(curve >= np.array(values) * (1 - 1e-9))


@pytest.mark.slow
def test_krr_at_delta_1e_50_certifies_amplification() -> None:
    # compose.krr, eps0 = 4, n = 1e4, T = 2, k = 10: below eps0 x T = 8 (returned before) and above its certified
    # lower end (the composed explicit pairs: a lower bound on the worst case at the same delta).
    result = mech.compose_krr(eps0=4.0, n=10_000, delta=1e-50, rounds=2, k=10)
    assert result.upper < 8.0 and math.isfinite(result.upper)
    assert 0 < result.lower <= result.upper
    # eps(delta) is non-increasing in delta: at 1e-50 at least the value at 1e-30.
    assert result.upper >= mech.compose_krr(eps0=4.0, n=10_000, delta=1e-30, rounds=2, k=10).upper
