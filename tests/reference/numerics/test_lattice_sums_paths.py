"""The faster lattice sums (batched rows, split sums) against brute force and against each other.

- The batched engine (rows every few b, every b between them bounded by shifted rows and by E[g | b] plus a
  monotone negative part) against the exact trinomial sum computed term by term at sizes where the grid
  really skips rows (sd of b above the rows per sd), with random coefficients in the engine's range.
- The unblocked split sum (s = a + b outer) against the exact sum over (a, b, R) term by term.
- The two evaluations of the exact blanket bound (N grid / split sum) against each other and against exact
  Lemma 5.3 convolutions, each forced.
"""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import gammaln

from support.brute_sums import brute_split
from shuffle_spec.reference.numerics import lattice_sums
from shuffle_spec.reference.finite.blanket import lemma_5_3_divergence_bound
from shuffle_spec.reference.bounds import blanket_exact_krr as blanket_exact
from shuffle_spec.reference.finite.randomizers import k_randomized_response

REL = 1e-9  # the brute-force sums are float64 with gammaln (relative error far below this)


def _log_binom_pmf(m: np.ndarray, j: np.ndarray, p: float) -> np.ndarray:
    return gammaln(m + 1) - gammaln(j + 1) - gammaln(m - j + 1) + j * math.log(p) + (m - j) * math.log1p(-p)


def _brute_trinomial(m: int, p_b: float, p_a: float, c0: float, c1: float, c2: float) -> float:
    """E[(c0 a + c1 b + c2 (m - a - b))_+], b ~ Bin(m, p_b), a | b ~ Bin(m - b, p_a), term by term."""
    total = 0.0
    for b in range(m + 1):
        a = np.arange(m - b + 1, dtype=float)
        g = c0 * a + c1 * b + c2 * (m - a - b)
        if not np.any(g > 0):
            continue
        weights = np.exp(_log_binom_pmf(np.float64(m), np.float64(b), p_b) + _log_binom_pmf(np.float64(m - b), a, p_a))
        total += float(np.sum(np.maximum(g, 0.0) * weights))
    return total


def _law(p: float) -> lattice_sums.BinomialLaw:
    return lattice_sums.binomial_law(mpmath.mpf(p))


def _coefficients(c0: float, c1: float, c2: float) -> lattice_sums.Coefficients:
    return lattice_sums.Coefficients((c0, c0), (c1, c1), (c2, c2))


trinomial_cases = st.tuples(
    st.integers(min_value=300, max_value=600),  # sd of b >= 8 > rows per sd: rows are skipped
    st.floats(min_value=0.15, max_value=0.6),
    st.floats(min_value=0.05, max_value=0.95),
    st.floats(min_value=0.2, max_value=3.0),  # c0
    st.floats(min_value=0.0, max_value=1.0),  # c2 = -that * c0 / 2
    st.floats(min_value=0.0, max_value=2.0),  # c1 = c2 - that
    st.floats(min_value=-2.0, max_value=2.5),  # where the zero of g sits, in sd of the positive part
)


@settings(max_examples=8, deadline=None)
@given(trinomial_cases)
def test_batched_engine_contains_the_brute_force_trinomial_sum(case):
    m, p_b, p_a, c0, r2, r1, shift = case
    c2 = -r2 * c0 / 2
    c1 = c2 - r1
    # Move the threshold so that G sits anywhere from the bulk to the far tail.
    mean_g = c0 * m * (1 - p_b) * p_a + c1 * m * p_b + c2 * m * (1 - p_b) * (1 - p_a)
    sd_g = math.sqrt(m) * (abs(c0) + abs(c1) + abs(c2))
    c2_shifted = c2 - max(0.0, mean_g + shift * sd_g) / m  # keeps c2 <= 0 and c1 <= c2 after the move
    c1_shifted = c1 - max(0.0, mean_g + shift * sd_g) / m
    exact = _brute_trinomial(m, p_b, p_a, c0, c1_shifted, c2_shifted)
    lo, hi = lattice_sums.positive_part_expectation(m, _law(p_b), _law(p_a), _coefficients(c0, c1_shifted, c2_shifted), tail=1e-30, per_sd=4)
    assert lo * (1 - REL) - 1e-300 <= exact <= hi * (1 + REL) + 1e-300, (exact, lo, hi)
    if exact > 1e-20:  # far above the tail mass charged (1e-30 times c0 m): tight too (shifted rows)
        assert hi <= exact * 1.05 and lo >= exact / 1.05, (exact, lo, hi)


@pytest.mark.parametrize("m, p_b, p_a", [(400, 0.3, 0.5), (2000, 0.1, 0.3), (5000, 0.4, 0.9)])
def test_batched_grid_agrees_with_every_row(m, p_b, p_a):
    """The grid's enclosure and the every-b enclosure (a row at each b) of the same sum intersect, and the grid
    loses at most 1% against it."""
    coefficients = _coefficients(1.0, -1.6, -0.3)
    g_lo, g_hi = lattice_sums.positive_part_expectation(m, _law(p_b), _law(p_a), coefficients, tail=1e-30, per_sd=4)
    plan_every = lattice_sums.expectations._plan((m,), _law(p_b), 1e-30, 4, True)
    _, _, f_hi, f_lo = lattice_sums.expectations._row_bounds(plan_every.ms, plan_every.betas, plan_every.back, _law(p_a), coefficients, plan_every.queries)
    e_lo, e_hi = float(np.sum(plan_every.p_lo * f_lo)), float(np.sum(plan_every.p_hi * f_hi))
    assert g_lo <= e_hi * (1 + REL) and e_lo <= g_hi * (1 + REL)
    assert g_hi <= e_hi * 1.01 and g_lo >= e_lo / 1.01


@pytest.mark.parametrize("n, p1, p3, coefficients", [(60, 0.05, 0.3, (2.0, -2.5, -0.4)), (120, 0.02, 0.5, (5.0, -6.0, -0.2)), (40, 0.1, 0.2, (1.0, -1.1, -0.05))])
def test_split_sum_contains_the_brute_force_sum(n, p1, p3, coefficients):
    c0, c1, c2 = coefficients
    exact = brute_split(n, p1, p3, c0, c1, c2)
    law_s, law_a, law_r = _law(2 * p1), _law(0.5), _law(p3 / (1 - 2 * p1))
    lo, hi = lattice_sums.split_positive_part(n, law_s, law_a, law_r, (c0 - c1, c0 - c1), (c1, c1), (-c2, -c2), tail=1e-30)
    assert lo * (1 - REL) <= exact <= hi * (1 + REL), (exact, lo, hi)
    assert hi <= exact * (1 + 1e-6), (exact, hi)


@pytest.mark.parametrize("k, n, eps0, eps", [(3, 8, 1.0, 0.3), (4, 10, 2.0, 0.5), (5, 9, 0.5, 0.1), (3, 12, 4.0, 1.0), (2, 10, 1.0, 0.2)])
def test_both_blanket_evaluations_contain_lemma_5_3(monkeypatch, k, n, eps0, eps):
    """Each evaluation of the exact blanket bound, forced, contains Lemma 5.3's value by exact convolution."""
    exact = lemma_5_3_divergence_bound(k_randomized_response(k, math.exp(eps0)), 0, 1, n, math.exp(eps))
    for limit in (0.0, math.inf):  # 0: the N grid always; inf: the split sum always
        monkeypatch.setattr(blanket_exact, "_split_is_cheaper", lambda *costs: limit > 0)
        got = blanket_exact.exact_blanket_krr_delta(eps0=eps0, n=n, k=k, eps=eps)
        assert got.lower * (1 - 1e-11) <= exact <= got.upper * (1 + 1e-11), (limit, exact, got)


# The last two caught bugs: split rows too short for the largest threshold shift (4x loose), and an N grid
# jumping over the central zone of N (7% loose).
@pytest.mark.parametrize(
    "k, n, eps0, eps, delta",
    [(10, 3000, 1.0, 0.04, 1e-6), (3, 2000, 4.0, 0.8, 1e-6), (100, 1000, 4.0, 0.76, 1e-6), (3, 10000, 0.5, 0.0228, 1e-9), (100, 10000, 0.5, 0.00246, 1e-6)],
)
def test_n_grid_and_split_sum_agree(monkeypatch, k, n, eps0, eps, delta):
    values = []
    for limit in (0.0, math.inf):
        monkeypatch.setattr(blanket_exact, "_split_is_cheaper", lambda *costs: limit > 0)
        values.append(blanket_exact.exact_blanket_krr_delta(eps0=eps0, n=n, k=k, eps=eps, delta_hint=delta))
    grid, split = values
    assert grid.lower <= split.upper * (1 + 1e-12) and split.lower <= grid.upper * (1 + 1e-12), values
    assert split.upper <= split.lower * (1 + 1e-3)  # unblocked: tight
    assert grid.upper <= split.upper * 1.06  # the N blocking costs a few percent of delta at most
