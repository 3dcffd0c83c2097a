"""The evaluation path of the exact k-RR blanket bound that the composition's envelope uses (`compose.krr`).

- Upper ends only (`positive_part_expectations(..., lower=False)`, `exact_blanket_krr_delta(...,
  sharp_lower=False)`): the lower queries are skipped, and the upper end must be the SAME float as the full
  evaluation's (compared with ==, bit for bit), the lower end still a certified lower bound (below the
  brute-force trinomial sum, and never above the full evaluation's lower end: it only loses sharpness).
"""

import math

import mpmath
import numpy as np
import pytest

from shuffle_spec.reference.bounds import blanket_exact_krr as blanket_exact
from shuffle_spec.reference.finite.blanket import lemma_5_3_divergence_bound
from shuffle_spec.reference.finite.randomizers import k_randomized_response
from shuffle_spec.reference.numerics import lattice_sums


def _law(p: float) -> lattice_sums.BinomialLaw:
    return lattice_sums.binomial_law(mpmath.mpf(p))


def _brute_trinomial(m: int, p_b: float, p_a: float, c0: float, c1: float, c2: float) -> float:
    """E[(c0 a + c1 b + c2 (m - a - b))_+], b ~ Bin(m, p_b), a | b ~ Bin(m - b, p_a), term by term (log pmf by
    math.lgamma; float64, relative error far below the 1e-9 the test allows)."""
    total = 0.0
    for b in range(m + 1):
        a = np.arange(m - b + 1, dtype=float)
        g = c0 * a + c1 * b + c2 * (m - a - b)
        if not np.any(g > 0):
            continue
        log_b = math.lgamma(m + 1) - math.lgamma(b + 1) - math.lgamma(m - b + 1) + b * math.log(p_b) + (m - b) * math.log1p(-p_b)
        log_a = np.array([math.lgamma(m - b + 1) - math.lgamma(x + 1) - math.lgamma(m - b - x + 1) for x in a]) + a * math.log(p_a) + (m - b - a) * math.log1p(-p_a)
        total += float(np.sum(np.maximum(g, 0.0) * np.exp(log_b + log_a)))
    return total


# (m, p_b, p_a, c0, c1, c2): the zero of g above the mean of a (upward rows, shifted queries), far below it
# (downward rows: negative parts), and near it; m large enough that the grid skips rows (sd of b > per_sd).
CASES = [
    (500, 0.3, 0.5, 1.0, -1.6, -0.3),
    (400, 0.2, 0.4, 1.0, -1.2, -0.01),
    (600, 0.4, 0.6, 2.0, -2.5, -0.4),
    (300, 0.25, 0.5, 1.0, -0.2, -0.05),
]


@pytest.mark.parametrize("m, p_b, p_a, c0, c1, c2", CASES)
def test_upper_only_expectations_are_the_same_upper_floats(m, p_b, p_a, c0, c1, c2):
    coefficients = lattice_sums.Coefficients((c0, c0), (c1, c1), (c2, c2))
    ms = [m, m + 37, 2 * m]
    full_lo, full_hi = lattice_sums.positive_part_expectations(ms, _law(p_b), _law(p_a), coefficients, tail=1e-30)
    lo, hi = lattice_sums.positive_part_expectations(ms, _law(p_b), _law(p_a), coefficients, tail=1e-30, lower=False)
    assert np.array_equal(hi, full_hi), (hi, full_hi)
    assert np.all(lo <= full_lo), (lo, full_lo)
    exact = _brute_trinomial(m, p_b, p_a, c0, c1, c2)
    assert lo[0] * (1 - 1e-9) <= exact <= hi[0] * (1 + 1e-9), (lo[0], exact, hi[0])


# The N grid (not the split sum) at sizes where it is the path the envelope takes (n = 2e5, 3e5); below, a small n
# forced onto the N grid where Lemma 5.3's exact value is known by convolution.
@pytest.mark.parametrize(
    "k, n, eps0, eps, hint",
    [(3, 3 * 10**5, 0.5, 0.001, 1e-12), (10, 2 * 10**5, 4.0, 0.02, 1e-17)],
)
def test_envelope_path_upper_end_is_the_full_evaluations(k, n, eps0, eps, hint):
    full = blanket_exact.exact_blanket_krr_delta(eps0=eps0, n=n, k=k, eps=eps, delta_hint=hint)
    fast = blanket_exact.exact_blanket_krr_delta(eps0=eps0, n=n, k=k, eps=eps, delta_hint=hint, sharp_lower=False)
    assert fast.upper == full.upper, (fast, full)
    assert 0 <= fast.lower <= full.lower, (fast, full)


@pytest.mark.parametrize("k, n, eps0, eps", [(3, 12, 1.0, 0.3), (4, 10, 2.0, 0.5)])
def test_envelope_path_contains_lemma_5_3(monkeypatch, k, n, eps0, eps):
    """Forced onto the N grid: the upper-only evaluation still contains Lemma 5.3's value (exact convolution)."""
    exact = lemma_5_3_divergence_bound(k_randomized_response(k, math.exp(eps0)), 0, 1, n, math.exp(eps))
    monkeypatch.setattr(blanket_exact, "_split_is_cheaper", lambda *costs: False)
    got = blanket_exact.exact_blanket_krr_delta(eps0=eps0, n=n, k=k, eps=eps, sharp_lower=False)
    assert got.lower * (1 - 1e-11) <= exact <= got.upper * (1 + 1e-11), (exact, got)
