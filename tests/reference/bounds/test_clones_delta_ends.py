"""The certified delta interval of the clone pairs where the true delta is exactly 0 (eps >= eps0: each
clone pair's divergence vanishes, the pair is eps0-DP) and where the window leaves no tail (tiny n).

There the computed sums are 0, and the ends must still be an interval of non-negative numbers:
0 <= lower <= upper. It is the outward rounding of the upper end that keeps it so: rounded down
(mutant `cl.upround` of `tools/mutate.py`), 0 becomes a negative number below the lower end.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from shuffle_spec.reference.bounds.clones import (
    DEFAULT_TAIL,
    _clone_pair,
    _divergence_range,
    clone_pair_delta,
    clones_delta,
    probability_pair,
)


@pytest.mark.parametrize("kind", ["fmt21", "fmt23"])
@pytest.mark.parametrize("n", [1, 2, 5])
def test_delta_ends_at_eps_at_least_eps0_are_a_non_negative_interval(kind, n):
    for eps0, eps in ((1.0, 1.0), (1.0, 2.0), (0.3, 5.0)):
        result = clone_pair_delta(eps0=eps0, n=n, eps=eps, kind=kind)
        assert 0.0 <= result.lower <= result.upper <= 1.0, (kind, n, eps0, eps, result)
        assert result.upper < 1e-300  # the truth is 0: only rounding is left


def test_delta_ends_bracket_the_exact_single_user_value():
    """n = 1 (no clones): the clone pair is one user's eps0-RR-like pair, delta(eps) = (e^eps0 - e^eps) /
    (e^eps0 + 1) for eps <= eps0 (FMT21's pair at c = 0 clones), computed here in exact terms by mpmath."""
    import mpmath

    for eps0, eps in ((1.0, 0.5), (2.0, 0.1), (0.5, 0.0)):
        result = clones_delta(eps0=eps0, n=1, eps=eps)
        with mpmath.workdps(40):
            truth = (mpmath.exp(eps0) - mpmath.exp(eps)) / (mpmath.exp(eps0) + 1)
        assert result.lower <= truth <= result.upper, (eps0, eps, result, truth)
        assert result.upper - result.lower <= 1e-12 * float(truth) and math.isfinite(result.upper)


def _exact_certified_sum(eps0: float, n: int, eps: float, kind: str) -> Fraction:
    """The bound the module proves, delta(eps) <= sum_c pmf_upper(c) B_upper(c) + (mass dropped outside the
    window), evaluated exactly in rationals from the same certified per-count floats."""
    pair = _clone_pair(eps0, n, probability_pair(kind, eps0), DEFAULT_TAIL)
    total = Fraction(0)
    for part in pair._blocks():
        _, b_up = _divergence_range(part.lo, part.hi, eps0=eps0, eps=eps)
        total += sum((Fraction(float(p)) * Fraction(float(b)) for p, b in zip(part.upper, b_up, strict=True)), Fraction(0))
    return total + Fraction(pair.edges.dropped)


@pytest.mark.parametrize("kind", ["fmt21", "fmt23"])
def test_the_upper_end_is_at_least_the_exact_sum_of_its_certified_terms(kind):
    """The float evaluation of the upper end (a sum of products, then the error factor) is rounded up, so the
    returned upper end is never below the exact rational value of the bound it evaluates (rounded down by a
    few ulps instead, mutant `cl.upround`, it falls below that value where the window has few terms)."""
    for n in (2, 3, 5, 10, 30, 100, 1000):
        for eps0 in (0.5, 1.0, 2.0, 4.0):
            for fraction in (0.05, 0.2, 0.5, 0.9):
                eps = fraction * eps0
                result = clone_pair_delta(eps0=eps0, n=n, eps=eps, kind=kind)
                assert Fraction(result.upper) >= _exact_certified_sum(eps0, n, eps, kind), (kind, n, eps0, eps)
