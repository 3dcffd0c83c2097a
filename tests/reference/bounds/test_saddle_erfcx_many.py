"""The scaled complementary error function of the saddlepoint estimates over long size grids (`_erfcx_many`, NumPy,
so that a structured randomizer's upper bound loads no SciPy): mpmath's e^(x^2) erfc(x) at 40 digits is the
independent reference, on each of its ranges (series below 1.5, continued fraction of each depth above)."""

from __future__ import annotations

import math
import subprocess
import sys

import mpmath
import numpy as np
import pytest

from shuffle_spec.reference.bounds import blanket_exact_randomizer as module


def _exact(x: np.ndarray) -> np.ndarray:
    with mpmath.workdps(40):
        return np.array([float(mpmath.exp(mpmath.mpf(float(v)) ** 2) * mpmath.erfc(mpmath.mpf(float(v)))) for v in x])


@pytest.mark.parametrize("low, high", [(0.0, 1.5), (1.5, 2.0), (2.0, 3.0), (3.0, 6.0), (6.0, 15.0), (15.0, 40.0), (40.0, 1e8)])
def test_erfcx_many_matches_mpmath_on_each_range(low, high):
    # Each array's depth is chosen by its smallest element: the ranges are run alone (the depth of their edge) and
    # the whole range at once.
    x = np.geomspace(low, high, 120) if low > 0 else np.linspace(low, high, 120)
    x = np.concatenate([x, [np.nextafter(high, 0.0)]])
    exact = _exact(x)
    assert float(np.max(np.abs(module._erfcx_many(x) / exact - 1))) < 1e-13
    for value, reference in zip(x[::20], exact[::20], strict=True):  # one element alone: the depth of that element
        assert abs(module._erfcx_many(np.array([value]))[0] / reference - 1) < 1e-13


def test_erfcx_many_mixed_and_negative_arguments_and_shape():
    # A mixed array takes both ranges; negative arguments go to the scalar `_erfcx` (inf where e^(x^2) overflows).
    x = np.array([[-30.0, -1.0, 0.0], [0.7, 1.5, 20.0]])
    out = module._erfcx_many(x)
    assert out.shape == (2, 3)
    assert out[0, 0] == np.inf
    assert abs(out[1, 0] / _exact(np.array([0.7]))[0] - 1) < 1e-13
    assert abs(out[0, 1] / module._erfcx(np.array([-1.0]))[0] - 1) < 1e-15
    assert out[0, 2] == 1.0  # erfcx(0) = 1: the series' sum is 0
    assert float(np.max(np.abs(out[1, 1:] / _exact(np.array([1.5, 20.0])) - 1))) < 1e-13


def test_erfcx_many_at_huge_and_infinite_arguments_is_finite_like_the_scalar_one():
    # 2 x^2 overflows a double above ~1.34e154: the continued fraction gave 0 there (x / inf) and nan at x = 1.7e308 and
    # +inf (inf / inf), where erfcx(x) = 1/(x sqrt(pi)) (1 - 1/(2 x^2) + ...) and the scalar `_erfcx` agrees. Nine
    # elements or more take this path in the estimates (SMALL_SADDLE); the array here has one huge element among them.
    huge = [1e154, 1e200, 1e300, 1.7e308, np.inf]
    for value in huge:
        out = module._erfcx_many(np.array([2.0] * 8 + [value]))
        alone = module._erfcx_many(np.array([value]))
        for got in (out[-1], alone[0]):
            assert np.isfinite(got) and got >= 0.0, (value, got)
            leading = 1.0 / float(value) / math.sqrt(math.pi)
            assert abs(got - leading) <= 1e-13 * leading + 1e-300, (value, got, leading)
        assert out[0] == module._erfcx_many(np.array([2.0]))[0]  # the other elements as before


def test_long_size_grids_load_no_scipy():
    # A subset selection pair's blanket root over its 1e3-odd blanket sizes (the long-grid path), in a fresh interpreter.
    code = (
        "import sys\n"
        "from shuffle_spec.reference.randomizers import subset_selection as s\n"
        "pair = s.subset_selection(1.0, 1000, s.optimal_subset_size(1.0, 1000)).replace_pairs()[0]\n"
        "from shuffle_spec.reference.bounds.blanket_exact_randomizer import saddle_blanket_root\n"
        "root = saddle_blanket_root(10**4, pair.gamma, [pair.groups], delta=1e-6, eps0=1.0)\n"
        "assert root is not None and 0 < root < 1, root\n"
        "print(sorted(m for m in sys.modules if m == 'scipy' or m.startswith('scipy.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"
