"""The float binomial CDF `_half_binomial_cdf` of `reference/bounds/clones.py` (the clone estimate's
F_c(t - 1) = Pr[Bin(c, 1/2) <= t - 1], which only places the certified search) against 50-digit values and
scipy's regularised incomplete beta I_{1/2}(c - s, s + 1), which it replaces at every c so that a k-RR `tightest`
call does not import SciPy; the carried walk of the estimate above CDF_SUM_MAX and its sampled grid against the
pointwise formula; the secant root of the estimate against the certified root. Its docstring: within about 1e-11
of the smaller of F and 1 - F. (The certified tail of the certified walk, `certified_half_binomial`, is checked
against mpmath up to c = 1e9 in tests/reference/numerics/test_binomial.py.)"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import textwrap

import mpmath
import numpy as np
import pytest
from scipy.special import betainc
from shuffle_spec.reference.bounds.clones import (
    CDF_SUM_MAX,
    SECANT_TOL,
    _clone_pair,
    _estimate_coefficients,
    _estimate_points,
    _estimate_sampled,
    _estimate_walk,
    _half_binomial_cdf,
    window_tail,
)
from shuffle_spec.reference.numerics.binomial import probability_pair
from shuffle_spec.reference.numerics.solver import DEFAULT_REL_TOL, solve_epsilon

SCALE_BITS = 240  # fixed-point scale of the 50-digit reference's ratio products (2^-240 ~ 1e-72 per term)


def smaller_tail_50_digits(m: int, c: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """[lower, upper] of Pr[Bin(c, 1/2) <= m] (0 <= m < c/2) at 50 digits, independently of the code under test:
    pmf(m) = C(c, m) 2^-c from mpmath's log Gamma at 60 digits, times S = sum_i prod_{j<i} (m-j)/(c-m+1+j)
    in exact integer fixed point (each product floored: the sum of the floors is below S by at most one unit
    per term; the terms left out, once a term is below 2^-200 of the scale, are at most that term times
    1/(1 - its ratio) each, since the ratios decrease)."""
    one = 1 << SCALE_BITS
    term, total, j = one, one, 0
    while j < m:
        term = term * (m - j) // (c - m + 1 + j)
        j += 1
        total += term
        if term < one >> 200:
            break
    ratio_left = (m - j) / (c - m + 1 + j) if j < m else 0.0
    rest = 0 if j >= m else (term + 1) * math.ceil(1 / (1 - ratio_left) + 1)
    with mpmath.workdps(60):
        log_pmf = mpmath.loggamma(c + 1) - mpmath.loggamma(m + 1) - mpmath.loggamma(c - m + 1) - c * mpmath.log(2)
        pmf = mpmath.exp(log_pmf)
        low = pmf * mpmath.mpf(total) / one
        high = pmf * mpmath.mpf(total + j + 1 + rest) / one
    return low, high


@pytest.mark.parametrize("c", [1, 2, 3, 10, 57, 1000, 12345, int(CDF_SUM_MAX) + 1, 10**6, 10**8])
def test_the_cdf_matches_50_digit_values(c):
    sd = math.sqrt(c) / 2
    s = sorted({int(x) for x in np.clip(np.round(c / 2 - 0.5 + sd * np.array([-60.0, -30, -10, -5, -3, -1, -0.5, 0, 0.5, 1, 3, 10])), 0, c - 1)})
    ours = _half_binomial_cdf(np.array(s, dtype=float), np.full(len(s), float(c)))
    for si, value in zip(s, ours.tolist(), strict=True):
        upper = 2 * si >= c
        low, high = smaller_tail_50_digits(c - si - 1 if upper else si, c)  # the smaller tail, as the code takes it
        if upper and c - si - 1 < 0:
            low = high = mpmath.mpf(0)
        # Above the median the value is 1 - tail, rounded to a float near 1 (spacing 2^-53: the ulp term).
        tail, ulp = ((1 - value), 2.0**-53) if upper else (value, 0.0)
        scale = max(float(low), 1e-300)
        assert float(low) - 1e-11 * scale - ulp - 1e-300 <= tail <= float(high) + 1e-11 * scale + ulp + 1e-300, (c, si)
        assert high - low <= 1e-40 * high + mpmath.mpf(10) ** -320  # the reference itself is that narrow


def test_the_cdf_matches_the_incomplete_beta():
    rng = np.random.default_rng(20261126)
    for c in (1, 2, 3, 10, 57, 1000, 12345, 10**5, CDF_SUM_MAX, 3 * CDF_SUM_MAX):
        sd = np.sqrt(c) / 2
        s = np.round(c / 2 + sd * rng.normal(size=40) * 3)
        s = np.concatenate([s, [-1, 0, 1, c // 2 - 1, c // 2, c // 2 + 1, c - 1, c]])
        s = np.clip(s, -1, c + 1)
        ours = _half_binomial_cdf(s, np.full(s.shape, float(c)))
        inside = (s >= 0) & (s < c)
        theirs = np.where(s < 0, 0.0, np.where(s >= c, 1.0, betainc(np.maximum(c - s, 1.0), s + 1.0, 0.5)))
        scale = np.where(inside, np.maximum(np.minimum(theirs, 1.0 - theirs), 1e-300), 1.0)
        assert np.all(np.abs(ours - theirs) <= 1e-11 * scale + 1e-300), c
    assert _half_binomial_cdf(np.array([[0.0, 1.0]]), np.array([[1.0, 1.0]])).tolist() == [[0.5, 1.0]]  # shape kept


@pytest.mark.parametrize("eps0, n, eps_factor", [(1.0, 10**6, 1.0), (1.0, 10**8, 1.0), pytest.param(0.05, 10**8, 1.0, marks=pytest.mark.slow),
                                                  pytest.param(1.0, 10**8, 3.0, marks=pytest.mark.slow), pytest.param(0.5, 10**8, 0.3, marks=pytest.mark.slow)])
def test_the_carried_walk_matches_the_pointwise_formula(eps0, n, eps_factor):
    """Above CDF_SUM_MAX clones F is carried from one anchor over the whole window (`_estimate_walk`) and the
    sampled grid takes its points from that walk (`_estimate_sampled`): B(c) there equals the pointwise cutoff
    formula (`_estimate_points`: Loader's pmf and the summed CDF at each count) to 1e-9 of the largest B (the
    estimate sums B weighted by the clone-count law), at eps near the root (factor 1), below it and above it."""
    pair = _clone_pair(eps0, n, probability_pair("fmt21", eps0), window_tail(1e-6))
    counts, _, sampled = pair._estimate_grid
    eps = eps_factor * pair.guess_epsilon(1e-6)
    coefficients = _estimate_coefficients(eps0, eps)
    if sampled:
        walked = _estimate_sampled(counts, *coefficients)
    else:
        assert counts[0] > CDF_SUM_MAX
        walked = _estimate_walk(counts, *coefficients)
    index = np.linspace(0, len(counts) - 1, 200).astype(np.int64)
    pointwise = _estimate_points(counts[index], *coefficients)
    assert pointwise.max() > 0
    assert np.all(np.abs(walked[index] - pointwise) <= 1e-9 * pointwise.max())


@pytest.mark.parametrize("kind, eps0, n, delta", [("fmt21", 1.0, 10**4, 1e-6), ("fmt23", 4.0, 10**6, 1e-9), ("fmt21", 0.05, 10**6, 1e-6),
                                                  pytest.param("fmt21", 0.5, 10**8, 1e-9, marks=pytest.mark.slow),
                                                  pytest.param("fmt23", 8.0, 10**8, 1e-6, marks=pytest.mark.slow)])
def test_the_secant_guess_lands_on_the_certified_root(kind, eps0, n, delta):
    """The estimate's root by secant steps (`_ClonePair._secant_guess`) lies within the certified search's
    tolerance of the certified interval of the root (the search starts at guess (1 +- tol/4): a guess outside it
    costs extra certified evaluations), and agrees with the bracketing search's root to the steps' tolerance."""
    pair = _clone_pair(eps0, n, probability_pair(kind, eps0), window_tail(delta))
    guess = pair.guess_epsilon(delta)
    secant = pair._secant_guess(min(guess * 0.7, 0.5 * eps0), delta)
    certified = solve_epsilon(pair.delta_bounds, eps0=eps0, delta=delta)
    assert secant is not None and abs(secant - guess) <= 1e-9 * guess
    assert certified.lower * (1 - DEFAULT_REL_TOL / 4) <= guess <= certified.upper * (1 + DEFAULT_REL_TOL / 4)
    assert SECANT_TOL <= 1e-3 * DEFAULT_REL_TOL


def test_clone_bounds_and_krr_tightest_calls_import_no_scipy():
    code = textwrap.dedent(
        """
        import json, sys
        from shuffle_spec.interface.tightest import tightest
        from shuffle_spec.reference.bounds.clones import clones_numeric
        from shuffle_spec.reference.bounds.stronger_clones import stronger_clones
        tightest(eps0=1.0, n=10**4, delta=1e-6, randomizer="krr", k=10)
        tightest(eps0=1.0, n=10**4, delta=1e-6, randomizer="krr", k=2)  # exact.shuffled_binary_rr's transport bound too
        for n in (10**6, 10**8):  # the carried walk (c > 2e5) and the sampled grid (c > 5e6)
            clones_numeric(eps0=1.0, n=n, delta=1e-6)
            stronger_clones(eps0=0.5, n=n, delta=1e-9)
        print(json.dumps({"scipy": sorted(m for m in sys.modules if m.split(".")[0] == "scipy")}))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1])["scipy"] == []
