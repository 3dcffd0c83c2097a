"""A direct test of the float Loader pmf `_half_binomial_pmf` of `reference/bounds/clones.py` (the clone
estimate's Pr[Bin(c, 1/2) = t], which only places the certified search) against mpmath at 50 digits.

The documented accuracy (its docstring): relative error <= 64 u (1 + |log p|), u = 2^-53, while the true
value p is a normal double, and absolute error <= 64 u (1 + |log p|) p + 4 * 2^-1074 below that. Why: the
log of the pmf is a sum of Stirling corrections (each < 1/12) and two deviances (Loader's bd0) whose sum is
about |log p|, each computed to a few units in the last place of its size, and exp turns that absolute
error in the log into the same relative error. Measured on the points below and on 1,500 random ones: at
most 26 u (1 + |log p|) (4.6e-14 relative where |log p| < 40, 1.6e-12 at the underflow edge).
"""

from __future__ import annotations

import math
import random

import mpmath
import numpy as np
from shuffle_spec.reference.bounds.clones import _half_binomial_pmf

U = 2.0**-53
SMALLEST_SUBNORMAL = 2.0**-1074
SMALLEST_NORMAL = 2.0**-1022
# Counts across the code's branches: c <= 15 takes log-gamma for the Stirling error, above the series;
# powers of 2 and their neighbours; up to 1e6 (the brief) and a few at 1e9 and 3e11 (the clone windows).
COUNTS = (1, 2, 3, 5, 14, 15, 16, 17, 31, 64, 100, 1000, 4097, 12345, 65536, 10**5, 314159, 999_999, 10**6)
HUGE_COUNTS = (10**9, 3 * 10**11)
# Distances from the mean in standard deviations (sqrt(c)/2): the bulk, the tails and the far tails where
# p underflows (38 sd is about e^-722).
SD_MULTIPLES = (0.0, 0.5, 1.0, 3.0, 10.0, 20.0, 30.0, 37.0, 37.7, 38.5, 40.0, 100.0)


def documented_bound(p: mpmath.mpf) -> float:
    """The allowed absolute error at the true value p (module doc)."""
    relative = 64 * U * (1 + float(-mpmath.log(p)))
    return relative * float(p) + (0.0 if p >= SMALLEST_NORMAL else 4 * SMALLEST_SUBNORMAL)


def exact_pmf(t: int, c: int) -> mpmath.mpf:
    with mpmath.workdps(50):
        return mpmath.binomial(c, t) / mpmath.mpf(2) ** c


def sample_points(c: int, rng: random.Random) -> list[int]:
    sd = math.sqrt(c) / 2
    points = {0, 1, 2, c // 2, c - 2, c - 1, c}
    for multiple in SD_MULTIPLES:
        for sign in (-1, 1):
            points.add(int(round(c / 2 + sign * multiple * sd)))
    points.update(rng.randint(0, c) for _ in range(8))  # uniform: mostly far tails (p = 0 in doubles)
    return sorted(t for t in points if 0 <= t <= c)


def check_points(c: int, points: list[int]) -> int:
    got = _half_binomial_pmf(np.array(points, dtype=float), np.full(len(points), float(c)))
    for t, value in zip(points, got, strict=True):
        truth = exact_pmf(t, c)
        error = abs(mpmath.mpf(float(value)) - truth)
        assert value >= 0, (c, t, value)
        assert error <= documented_bound(truth), f"c = {c}, t = {t}: {float(value)!r} against {mpmath.nstr(truth, 20)} (error {float(error):.3g})"
    return len(points)


def test_the_loader_pmf_meets_its_documented_accuracy_up_to_a_million():
    rng = random.Random(20261123)
    checked = sum(check_points(c, sample_points(c, rng)) for c in COUNTS)
    assert checked > 300


def test_the_loader_pmf_meets_its_documented_accuracy_at_clone_window_sizes():
    for c in HUGE_COUNTS:
        sd = math.isqrt(c) // 2
        check_points(c, [c // 2 + int(multiple * sd) for multiple in (0.0, 1.0, 5.0, 20.0, 37.0)])


def test_the_loader_pmf_is_zero_outside_the_support_and_sums_to_one():
    c = 1000
    assert list(_half_binomial_pmf(np.array([-1.0, -0.5, 1000.5, 1001.0]), np.full(4, float(c)))) == [0.0] * 4
    # The whole pmf sums to 1 within the documented error (|log p| < 700 wherever p is not negligible).
    total = math.fsum(_half_binomial_pmf(np.arange(c + 1, dtype=float), np.full(c + 1, float(c))))
    assert abs(total - 1.0) <= 64 * U * 40, total


def test_the_bound_is_not_vacuous():
    """The test can fail: the documented bound is below the error of a one-ulp-per-|log p| slip, and a pmf
    off by one in t (a plausible bug) breaks it everywhere but at the mode."""
    c, t = 10**6, 10**6 // 2 + 3000
    truth = exact_pmf(t, c)
    assert documented_bound(truth) < 1e-10 * float(truth)
    shifted = _half_binomial_pmf(np.array([float(t + 1)]), np.array([float(c)]))[0]
    assert abs(mpmath.mpf(float(shifted)) - truth) > documented_bound(truth)
