"""exact.shuffled_binary_rr's faster forms of its certified arithmetic give the floats of the plain forms they stand for,
bit for bit (a window edge, an anchor or a dropped mass one ulp off would move a certified end): the edge searches'
Chernoff exponent with its per-population constants computed once (`_log_tail_function` against `_log_tail`),
Stirling's remainder enclosed from one series evaluation (`_stirling_r_ends` against `_stirling_r`), the window's
largest value kept from its build (against a fresh maximum of its pmf) and the anchor's path checked by its least and
largest values (against finiteness and the least absolute value), the path's ratios computed in place (against the
two-branch form `np.where(k-step, p i / k, q i / (i - k))`) and the product of two positive intervals from their
ends (against the least and largest of the four products)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shuffle_spec.reference.exact import binary_rr as ebr


@pytest.mark.parametrize("eps0", [0.05, 1.0, 4.0, 20.0, 100.0])
def test_the_tail_function_is_the_fresh_tail_at_every_count(eps0):
    keep, flip = ebr._keep_pair(eps0)
    for pair in (keep, flip, ebr._thinning_pair(eps0)):
        for m in (1, 2, 7, 50, 9_999, 1_000_003):
            memo: dict[int, float] = {}
            tail = ebr._log_tail_function(m, pair, memo)
            xs = sorted(x for x in {0, 1, 2, m // 5, m // 3, m // 2, int(m * pair.p), m - 2, m - 1, m} if 0 <= x <= m)
            for x in xs:
                assert tail(x).hex() == ebr._log_tail(x, m, pair).hex()
            assert sorted(memo) == xs  # each count computed once and kept
            assert all(tail(x) == memo[x] for x in xs)


def test_the_stirling_ends_are_the_two_sides_of_the_remainder():
    for x in (50.0, 51.0, 77.0, 1234.0, 1e6 + 3.0, 9.9e11):
        low, high = ebr._stirling_r_ends(x)
        assert (low.hex(), high.hex()) == (ebr._stirling_r(x, -1).hex(), ebr._stirling_r(x, 1).hex())


@pytest.mark.parametrize("eps0, m, ones, delta", [(4.0, 999_999, False, 1e-9), (4.0, 1_066, True, 1e-9), (0.5, 3_000, True, 1e-50), (8.0, 30, True, 1e-6), (1.0, 0, False, 1e-6)])
def test_a_window_keeps_the_maximum_of_its_own_values(eps0, m, ones, delta):
    keep, flip = ebr._keep_pair(eps0)
    window = ebr._scaled_window(m, keep if ones else flip, ebr._tail_for(delta), 0.5 * ebr._log_scale(delta))
    assert window.largest.hex() == float(np.max(window.pmf)).hex()


@pytest.mark.parametrize("values, plain", [
    (np.array([3.0, 1e-3, 2.0]), True), (np.array([1.0, 1e-251]), False), (np.array([1.0, math.inf]), False),
    (np.array([1.0, math.nan, 2.0]), False), (np.array([0.0, 1.0]), False),
])
def test_the_path_check_by_least_and_largest_is_the_finite_and_least_absolute_check(values, plain):
    # `_anchor`'s path values are products of positive factors: the two forms of its check agree on such arrays
    # (and on the NaN an overflow times zero would give).
    assert bool(np.all(np.isfinite(values)) and np.min(np.abs(values)) > 1e-250) == plain
    assert bool(values.min() > 1e-250 and values.max() < math.inf) == plain


@pytest.mark.parametrize("eps0", [0.05, 4.0, 100.0])
def test_the_path_ratios_are_the_two_branch_form(eps0):
    for pair in ebr._keep_pair(eps0):
        for m_from, k_from, steps, k_steps in [(0, 0, 1, 0), (0, 0, 1, 1), (0, 0, 4_999, 91), (10_000, 9_821, 3_000, 2_960), (20_000, 7, 5_000, 0), (123, 45, 777, 777)]:
            j = np.arange(1, steps + 1, dtype=np.int64)
            ks = k_from + (j * k_steps) // steps
            up = np.diff(np.concatenate(([k_from], ks))) > 0
            i, kf = (m_from + j).astype(float), ks.astype(float)
            plain = np.where(up, pair.p * (i / np.maximum(kf, 1.0)), pair.q * (i / np.maximum(i - kf, 1.0)))
            fast = ebr._path_factors(m_from, k_from, m_from + steps, k_from + k_steps, pair, lead=1)
            assert fast[1:].tobytes() == plain.tobytes()
            assert ebr._path_factors(m_from, k_from, m_from + steps, k_from + k_steps, pair).tobytes() == plain.tobytes()


def test_a_product_of_positive_intervals_is_the_least_and_largest_of_the_four_products():
    rng = np.random.default_rng(3)
    ends = np.concatenate((rng.uniform(-2.0, 2.0, 60), 10.0 ** rng.uniform(-320, 300, 60), [0.0, -0.0, 5e-324, 1e308, math.inf]))
    for _ in range(2000):
        c_lo, c_hi, x_lo, x_hi = (float(v) for v in rng.choice(ends, 4))
        if c_lo > c_hi:
            c_lo, c_hi = c_hi, c_lo
        if x_lo > x_hi:
            x_lo, x_hi = x_hi, x_lo
        products = (c_lo * x_lo, c_lo * x_hi, c_hi * x_lo, c_hi * x_hi)
        got = ebr._scaled_product(c_lo, c_hi, (x_lo, x_hi))
        assert (got[0].hex(), got[1].hex()) == (min(products).hex(), max(products).hex())
