"""The certified delta interval of the clone pairs where the true delta is exactly 0 (eps >= eps0: each
clone pair's divergence vanishes, the pair is eps0-DP) and where the window leaves no tail (tiny n).

There the computed sums are 0, and the ends must still be an interval of non-negative numbers:
0 <= lower <= upper. It is the outward rounding of the upper end that keeps it so: rounded down
(mutant `cl.upround` of `tools/mutate.py`), 0 becomes a negative number below the lower end.
"""

from __future__ import annotations

import math

import pytest
from shuffle_spec.reference.bounds.clones import clone_pair_delta, clones_delta


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
