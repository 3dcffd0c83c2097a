"""The scaled complementary error function of the saddlepoint estimates (`_erfcx`, written so that the estimates
that aim every structured randomizer's search load no SciPy): SciPy's erfcx is the independent reference, and the
estimates built on it are the same numbers."""

from __future__ import annotations

import math

import numpy as np
from scipy.special import erfcx

from shuffle_spec.reference.bounds.blanket_exact_randomizer import _erfcx


def test_erfcx_matches_scipy_across_the_ranges_of_both_branches():
    # math.erfc up to 25, the asymptotic series above; negative arguments down to where e^(x^2) overflows.
    x = np.concatenate([np.linspace(-26.5, 30.0, 4001), np.geomspace(24.0, 1e8, 400), [0.0, 25.0, np.nextafter(25.0, 30.0)]])
    ours, theirs = _erfcx(x), erfcx(x)
    assert np.all(np.isfinite(ours))
    assert float(np.max(np.abs(ours / theirs - 1))) < 1e-13


def test_saddle_estimates_of_one_size_equal_scipys_to_rounding():
    # The one-size estimates (the pair searches' aims) use `_erfcx`; the same estimate on the path of long size grids
    # (`_erfcx_many`, which replaced SciPy's erfcx there) agrees to 1e-12 relative.
    from fractions import Fraction

    from shuffle_spec.reference.bounds import blanket_exact_randomizer as module

    # a pair of three outputs, user 1 at rows (1/2, 1/4, 1/4) vs (1/4, 1/4, 1/2), the others at the uniform row
    groups = module.group_outputs([Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)], [Fraction(1, 3)] * 3)
    for eps in (0.001, 0.01, 0.03, 0.05):  # deeper in the tail (delta ~ 1e-60) the Gaussian term cancels and 1e-12 is lost
        one = module.saddle_expectations(np.array([10.0**4]), groups, eps)[0]
        grid = module.saddle_expectations(np.array([10.0**4] * (module.SMALL_SADDLE + 1)), groups, eps)[0]
        assert one > 0 and abs(one - grid) <= 1e-12 * abs(grid)


def test_erfcx_overflows_like_scipy_and_keeps_the_shape():
    assert _erfcx(np.array([-30.0]))[0] == math.inf == erfcx(-30.0)
    assert _erfcx(np.zeros((2, 3))).shape == (2, 3)
    # erfcx(0) = 1; erfcx(x) = (1 - 1/(2 x^2) + O(x^-4)) / (x sqrt(pi)) for large x (the series' first two terms)
    assert _erfcx(np.array([0.0]))[0] == 1.0
    assert abs(_erfcx(np.array([1e6]))[0] * 1e6 * math.sqrt(math.pi) - (1 - 0.5e-12)) < 1e-15
