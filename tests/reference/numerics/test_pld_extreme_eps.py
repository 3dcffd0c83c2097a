"""The certified delta(eps) curves of `numerics.pld` at eps far beyond their window (up to 1e308): the window's sum is
empty there (every loss s_j of the window is below eps, so g(s_j) = 0), so the curve is its tails and +inf atom, with
no float overflow (int(eps / step) of eps = 1e308 was an OverflowError)."""

from __future__ import annotations

import numpy as np
import pytest

from shuffle_spec.reference.numerics.pld import GridPLD, compose, compose_tilted


def _grids(pessimistic: bool) -> list[GridPLD]:
    # Losses -1/2, 0, 1/2 (step 1/2) with masses 1/4, 1/2, 1/4 (an exact distribution) and 1e-20 at +inf.
    return [GridPLD(0.5, -1, np.array([0.25, 0.5, 0.25]), 1e-20 if pessimistic else 0.0, pessimistic, 0.5)]


@pytest.mark.parametrize("eps", [1e3, 1e308])
def test_composed_curve_far_beyond_its_window_is_its_tails_and_atom(eps: float) -> None:
    upper = compose(_grids(True), [3], tail=1e-18)
    lower = compose(_grids(False), [3], tail=1e-18)
    top = (upper.start + len(upper.values)) * upper.step
    assert eps > top
    # Upper end: the +inf atom (3 rounds x 1e-20) plus the Chernoff tail above the window, both as at eps = top.
    assert upper.delta(eps) == upper.delta(top)
    assert 3e-20 <= upper.delta(eps) <= 1e-15
    assert lower.delta(eps) == 0.0


@pytest.mark.parametrize("eps", [1e3, 1e308])
def test_tilted_curve_far_beyond_its_window(eps: float) -> None:
    tilted = compose_tilted(_grids(True), [3], 2.0)
    low = compose_tilted(_grids(False), [3], 2.0)
    assert tilted is not None and low is not None
    # No finite composed loss reaches eps: the upper end is the +inf atom (3e-20) up to its rounding and the
    # smallest-double floor of the finite part, the lower end 0.
    assert 3e-20 <= tilted.delta(eps) <= 3e-20 * (1 + 1e-12) + 1e-300
    assert low.delta(eps) == 0.0
