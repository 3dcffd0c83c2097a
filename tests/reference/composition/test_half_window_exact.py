"""The exact Bin(c, 1/2) windows of the clone pairs (c <= EXACT_HALF_UP_TO): the same floats as C(c, x) / 2^c by
math.comb, and one window per c for every tail (the small-delta recompositions ask with smaller tails)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shuffle_spec.reference.composition.shuffled_rounds import EXACT_HALF_UP_TO, _half_window


@pytest.mark.parametrize("c", [0, 1, 2, 57, EXACT_HALF_UP_TO])
def test_exact_half_window_is_math_comb_over_two_to_the_c(c: int) -> None:
    window = _half_window(c, 1e-30)
    reference = np.array([math.comb(c, x) / 2**c for x in range(c + 1)])  # int / int: correctly rounded
    assert window.pmf.tobytes() == reference.tobytes()
    assert (window.lo, window.hi, window.dropped) == (0, c, 0.0)
    # The same window object whatever the tail: it does not depend on it.
    assert _half_window(c, 1e-300) is window is _half_window(c)
