"""shuffle_spec.reference.numerics.binomial: the proven pmf / cdf brackets contain 50-digit mpmath values, including the worst
cases of the recurrence (window edges, far from the anchor, p near 0 or 1, m up to 1e9), and the
Chernoff tail bounds really bound the dropped mass."""

import math

import mpmath
import numpy as np
import pytest

from shuffle_spec.reference.numerics.binomial import certified_half_binomial, certified_window, probability_pair


@pytest.fixture(autouse=True)
def _fifty_digits():
    """This module's mpmath computations run at 50 digits; the precision is restored after each test."""
    with mpmath.workdps(50):
        yield


def mp_probability(kind: str, eps0: float) -> mpmath.mpf:
    r = mpmath.exp(-mpmath.mpf(eps0))
    return {"fmt21": r, "fmt23": 2 * r / (1 + r), "keep": 1 / (1 + r)}[kind]


def mp_log_pmf(k: int, m: int, p: mpmath.mpf) -> mpmath.mpf:
    return mpmath.loggamma(m + 1) - mpmath.loggamma(k + 1) - mpmath.loggamma(m - k + 1) + k * mpmath.log(p) + (m - k) * mpmath.log1p(-p)


@pytest.mark.parametrize(
    "kind, eps0, m, tail",
    [("fmt21", 1.0, 10**4, 1e-13), ("fmt23", 0.1, 10**7, 1e-15), ("keep", 8.0, 1000, 1e-30), ("fmt21", 3.0, 50, 0.0),
     ("fmt21", 0.01, 10**9, 1e-13), ("keep", 30.0, 10**6, 1e-30), ("fmt23", 1.0986, 10**9, 1e-20)],
)
def test_window_brackets_contain_the_mpmath_pmf(kind, eps0, m, tail):
    window = certified_window(m, probability_pair(kind, eps0), tail)
    p = mp_probability(kind, eps0)
    size = len(window.pmf)
    # Both edges (farthest from the anchor: the worst case of the recurrence bound) and 30 interior points.
    for i in sorted({0, 1, size - 2, size - 1, *np.linspace(0, size - 1, 30).astype(int)}):
        if not 0 <= i < size:
            continue
        exact = mpmath.exp(mp_log_pmf(window.lo + int(i), m, p))
        assert window.lower[i] <= exact <= window.upper[i], (i, window.lo + i)
        if exact > 1e-250:
            # the proven relative bound is far below the 1e-12 + 1e-13 sqrt(m) of the earlier measured (unproven) budget
            assert window.rel[i] <= 1e-8


@pytest.mark.parametrize("kind, eps0, m, tail", [("fmt21", 1.0, 2000, 1e-6), ("keep", 2.0, 500, 1e-9)])
def test_dropped_tails_are_upper_bounds(kind, eps0, m, tail):
    window = certified_window(m, probability_pair(kind, eps0), tail)
    p = mp_probability(kind, eps0)
    below = mpmath.fsum(mpmath.exp(mp_log_pmf(k, m, p)) for k in range(0, window.lo))
    above = mpmath.fsum(mpmath.exp(mp_log_pmf(k, m, p)) for k in range(window.hi + 1, m + 1))
    assert below <= window.below and above <= window.above
    assert window.below <= tail / 2 * 1.0001 and window.above <= tail / 2 * 1.0001


# c = 1e9: the same check and code path as at c = 1e6 (the downward ratio sum, ~1.3e5 terms there against ~4e3),
# whose 50-digit reference walk takes seconds: the second tier.
@pytest.mark.parametrize("c, t", [(0, 0), (1, 1), (5, 2), (37, 10), (1000, 400), (1000, 500), (10**6, 499_000), pytest.param(10**9, 499_990_000, marks=pytest.mark.slow), (10**5, 3)])
def test_half_binomial_anchor_contains_mpmath(c, t):
    anchor = certified_half_binomial(c, t)
    b = mpmath.exp(mp_log_pmf(t, c, mpmath.mpf(0.5)))
    if anchor.b == 0.0:  # negligible (< 1e-280): certified only from above
        assert mpmath.log(b) <= anchor.log_b_upper and anchor.f_lo == 0.0 and mp_lower_tail(c, t) <= anchor.f_hi
        return
    assert b * (1 - anchor.b_rel) <= anchor.b * (1 + 1e-15) and anchor.b * (1 - 1e-15) <= b * (1 + anchor.b_rel)
    if t == 0:
        assert anchor.f_lo == anchor.f_hi == 0.0
        return
    exact = mp_lower_tail(c, t)
    assert anchor.f_lo <= exact <= anchor.f_hi
    assert anchor.f_hi - anchor.f_lo <= 1e-9 * float(exact)


def mp_lower_tail(c: int, t: int) -> mpmath.mpf:
    """F_c(t-1) = sum_{a < t} b_c(a) in 50 digits: downward ratio recurrence until the terms are < 1e-40
    of the sum (the remaining terms decrease at least geometrically with the last ratio < 1)."""
    term = mpmath.exp(mp_log_pmf(t - 1, c, mpmath.mpf(0.5)))
    total, a = term, t - 1
    while a > 0 and term > mpmath.mpf(10) ** -40 * total:
        term *= mpmath.mpf(a) / (c - a + 1)
        total += term
        a -= 1
    return total


def test_probability_pair_errors_are_honest():
    for kind in ("fmt21", "fmt23", "keep"):
        for eps0 in (1e-6, 0.1, 4.0, 30.0):
            pair = probability_pair(kind, eps0)
            p = mp_probability(kind, eps0)
            assert abs(pair.p - p) <= pair.p_err * p and abs(pair.q - (1 - p)) <= pair.q_err * (1 - p)
            assert pair.p_err <= 2.0**-52 and pair.q_err <= 2.0**-52
            assert math.isfinite(pair.p) and pair.p > 0
