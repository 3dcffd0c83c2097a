"""The faster evaluation paths of the exact k-RR blanket bound (split sums, batched rows, the search start) against
independent computations.

- The split sum now sums each row's r in segments (all r with the same crossing index at once, from the
  plan's sums of pmf and r pmf): against the exact sum over (a, b, R) term by term, in cases where the
  threshold shift tau r crosses many values of a per row (many segments), and k = 2 (r = 0).
- The split plan's r windows are built for every s at once (vectorised Chernoff edges, pmf anchored every
  ANCHOR_STEP values and carried by the ratio recurrence): the same edges and tails as `binomial_window`,
  and pmf brackets that contain the exact pmf (mpmath at 50 digits).
- The root search's slope hint: same certified sides, fewer evaluations on a function with a known root.
"""

import math

import mpmath
import numpy as np
import pytest

from support.brute_sums import brute_split
from shuffle_spec.reference.numerics import lattice_sums


def _law(p: float) -> lattice_sums.BinomialLaw:
    return lattice_sums.binomial_law(mpmath.mpf(p))


# (n, p1, p3, (c0, c1, c2)): -c2 comparable to c0 - c1, so that tau r moves the zero of a row by many values of
# a across the r window (many segments per row); and one with tau = 0 (a single segment).
MANY_SEGMENTS = [
    (80, 0.1, 0.4, (1.0, -1.5, -1.2)),
    (150, 0.05, 0.5, (2.0, -1.0, -2.5)),
    (60, 0.2, 0.3, (0.5, -0.6, -0.9)),
    (100, 0.08, 0.6, (3.0, -3.5, -0.01)),
    (50, 0.1, 0.3, (1.0, -1.2, 0.0)),
]


@pytest.mark.parametrize("n, p1, p3, coefficients", MANY_SEGMENTS)
def test_segmented_split_sum_contains_the_brute_force_sum(n, p1, p3, coefficients):
    c0, c1, c2 = coefficients
    exact = brute_split(n, p1, p3, c0, c1, c2)
    law_s, law_a, law_r = _law(2 * p1), _law(0.5), _law(p3 / (1 - 2 * p1))
    lo, hi = lattice_sums.split_positive_part(n, law_s, law_a, law_r, (c0 - c1, c0 - c1), (c1, c1), (-c2, -c2), tail=1e-30)
    assert lo * (1 - 1e-9) <= exact <= hi * (1 + 1e-9), (exact, lo, hi)
    assert hi <= exact * (1 + 1e-6) and lo >= exact * (1 - 1e-6), (exact, lo, hi)


def test_segmented_split_sum_without_r_contains_the_brute_force_sum():
    """k = 2 (law_r None: r = 0 exactly): one segment per row."""
    n, p1, c0, c1 = 70, 0.3, 1.0, -1.4
    exact = brute_split(n, p1, 0.0 + 1e-300, c0, c1, 0.0)
    lo, hi = lattice_sums.split_positive_part(n, _law(2 * p1), _law(0.5), None, (c0 - c1, c0 - c1), (c1, c1), (0.0, 0.0), tail=1e-30)
    assert lo * (1 - 1e-9) <= exact <= hi * (1 + 1e-9), (exact, lo, hi)
    assert hi <= exact * (1 + 1e-6), (exact, hi)


@pytest.mark.parametrize("p, ms, tail", [(0.37, [0, 1, 5, 40, 999, 5000], 1e-18), (0.02, [3, 100, 2500], 1e-30), (0.9, [10, 700], 1e-300)])
def test_vectorised_windows_match_binomial_window_and_contain_the_pmf(p, ms, tail):
    law = _law(p)
    m = np.array(ms, dtype=float)
    lo, size, lower, upper, below, above = lattice_sums.split._window_rows(m, law, tail)
    for i, value in enumerate(ms):
        window = lattice_sums.binomial_window(value, law, tail)
        # The same Chernoff edges and tails (the same search; logs by numpy instead of libm: within the margin).
        assert (int(lo[i]), int(lo[i] + size[i] - 1)) == (window.lo, window.hi), (value, lo[i], size[i], window.lo, window.hi)
        assert below[i] == pytest.approx(window.below, rel=1e-12, abs=1e-300) and above[i] == pytest.approx(window.above, rel=1e-12, abs=1e-300)
        # Brackets contain the exact pmf (every 7th point and both ends: mpmath, 50 digits).
        points = sorted({0, int(size[i]) - 1, *range(0, int(size[i]), 7)})
        with mpmath.workdps(50):
            for t in points:
                j = int(lo[i]) + t
                exact = mpmath.binomial(value, j) * mpmath.mpf(p) ** j * (1 - mpmath.mpf(p)) ** (value - j)
                assert lower[i, t] <= exact <= upper[i, t], (value, j, lower[i, t], exact, upper[i, t])
                if exact > 1e-270:  # as tight as binomial_window's own bracket (gammaln at every point), within 2x
                    width, old_width = upper[i, t] - lower[i, t], window.upper[t] - window.lower[t]
                    assert width <= 2 * old_width + 1e-11 * float(exact), (value, j, width, old_width)


def test_slope_hint_keeps_the_certified_sides_and_saves_evaluations():
    """delta(eps) = exp(-c eps^1.5) (bracket +-1e-9 relative): its root is known; the search with the true
    elasticity -1.5 c eps^1.5 at the hint must return the same kind of answer in fewer evaluations."""
    c, delta = 40.0, 1e-6
    root = (math.log(1 / delta) / c) ** (2 / 3)
    results = {}
    for use_slope in (False, True):
        calls = []

        def bounds(eps: float, calls=calls) -> tuple[float, float]:
            calls.append(eps)
            value = math.exp(-c * eps**1.5) if eps < 5.0 else 0.0
            return value * (1 - 1e-9), value * (1 + 1e-9)

        hint = root * 1.01
        slope = -1.5 * c * hint**1.5 if use_slope else None
        lower, upper, found = lattice_sums.solve_certified_epsilon(bounds, eps0=5.0, delta=delta, rel_tol=3e-4, hint=hint, slope=slope)
        assert found and lower <= root <= upper and upper <= root * (1 + 3e-4) and lower >= root * (1 - 3e-4), (use_slope, lower, root, upper)
        assert bounds(upper)[1] <= delta and bounds(lower)[0] > delta
        results[use_slope] = len([x for x in calls if x < 5.0])
    assert results[True] < results[False], results


def test_normal_elasticity_is_the_slope_of_the_normal_approximation():
    """Against a finite difference of normal_guess's own approximation, computed here independently."""
    terms = lambda eps: [(math.exp(1.0) - math.exp(eps), 0.1), (1 - math.exp(eps + 1.0), 0.1), (1 - math.exp(eps), 0.3)]  # noqa: E731
    n, eps = 10_000, 0.05

    def approx(x: float) -> float:
        pairs = terms(x)
        mean = n * sum(cc * pp for cc, pp in pairs)
        var = n * (sum(cc * cc * pp for cc, pp in pairs) - sum(cc * pp for cc, pp in pairs) ** 2)
        sd = math.sqrt(var)
        return (mean * 0.5 * math.erfc(-mean / sd / math.sqrt(2)) + sd * math.exp(-0.5 * (mean / sd) ** 2) / math.sqrt(2 * math.pi)) / n

    h = 1e-5
    expected = (math.log(approx(eps * (1 + h))) - math.log(approx(eps * (1 - h)))) / (math.log1p(h) - math.log1p(-h))
    got = lattice_sums.normal_elasticity(terms, n=n, eps=eps)
    assert got is not None and got < 0 and got == pytest.approx(expected, rel=1e-4)


# path="estimate" (the one-evaluation test of `interface/tightest.py`): the exact evaluation with the smaller work
# estimate, which at this point is the N grid where the statement's own rule ("auto") takes the split sum.
ESTIMATE_POINT = {"eps0": 0.5, "n": 1000, "k": 10, "eps": 0.05}


def test_path_estimate_is_the_n_grid_where_auto_takes_the_split_sum(monkeypatch):
    from shuffle_spec.reference.bounds import blanket_exact_krr as blanket_exact

    auto = blanket_exact.exact_blanket_krr_delta(**ESTIMATE_POINT)
    estimate = blanket_exact.exact_blanket_krr_delta(**ESTIMATE_POINT, path="estimate")
    with monkeypatch.context() as patch:
        patch.setattr(blanket_exact, "_split_is_cheaper", lambda *costs: False)
        grid = blanket_exact.exact_blanket_krr_delta(**ESTIMATE_POINT)
    with monkeypatch.context() as patch:
        patch.setattr(blanket_exact, "_split_is_cheaper", lambda *costs: True)
        split = blanket_exact.exact_blanket_krr_delta(**ESTIMATE_POINT)
    assert (estimate.lower, estimate.upper) == (grid.lower, grid.upper)
    assert (auto.lower, auto.upper) == (split.lower, split.upper)
    assert (grid.lower, grid.upper) != (split.lower, split.upper)  # two different evaluations ...
    assert max(grid.lower, split.lower) <= min(grid.upper, split.upper)  # ... of the same delta: the intervals meet
