"""The negligible blocks of the exact k-RR blanket bound's N grid (`blanket_exact_krr` module doc, "negligible
blocks") and the engine's `needed` flags they use (`positive_part_expectations(..., needed=...)`).

- Engine: an m flagged needed gets the SAME floats as in the call without flags (compared with ==); an m left out
  gets a certified interval (around the term-by-term trinomial sum) that is never sharper than the full one.
- Blanket bound: skip_negligible=True (the default) returns the same upper end as skip_negligible=False bit for bit,
  and the same lower end where the lower ends are sharpened (sharp_lower=True); with sharp_lower=False the lower end
  of a left-out block is the bound without rows, never above the full one (module doc). Both branches run: the
  blocks left out for good (at n = 1e8 the last block holds about 1e-30 of the mass) and summed after all (where
  delta is so small that 1e-30 would show in its float).
"""

import math

import mpmath
import numpy as np
import pytest

from shuffle_spec.reference.bounds import blanket_exact_krr as blanket_exact
from shuffle_spec.reference.numerics import lattice_sums


def _law(p: float) -> lattice_sums.BinomialLaw:
    return lattice_sums.binomial_law(mpmath.mpf(p))


def _trinomial_sum(m: int, p_b: float, p_a: float, c: tuple[float, float, float]) -> float:
    """E[(c0 a + c1 b + c2 (m - a - b))_+], b ~ Bin(m, p_b), a | b ~ Bin(m - b, p_a), every (a, b) summed (exact
    binomial coefficients, float64 products: relative error far below the 1e-9 used)."""
    total = 0.0
    for b in range(m + 1):
        w_b = math.comb(m, b) * p_b**b * (1 - p_b) ** (m - b)
        for a in range(m - b + 1):
            g = c[0] * a + c[1] * b + c[2] * (m - a - b)
            if g > 0:
                total += w_b * math.comb(m - b, a) * p_a**a * (1 - p_a) ** (m - b - a) * g
    return total


@pytest.mark.parametrize("lower", [True, False])
def test_needed_flags_leave_the_other_m_bit_identical_and_the_left_out_certified(lower):
    # k = 3 at eps0 = 1, eps = 0.3 (coefficients e0 - e, -(e e0 - 1), -(e - 1)); windows of more than EVERY_B_MAX values
    # of b at m = 2000 (grid rows, shifted queries) and every b at m = 40 and 60, which are summed term by term.
    c = blanket_exact._krr_coefficients(1.0, 0.3)
    law_b, law_a = _law(1 / 3), _law(1 / 2)
    ms = [40, 2000, 60]
    full_lo, full_hi = lattice_sums.positive_part_expectations(ms, law_b, law_a, c, tail=1e-18, lower=lower)
    part_lo, part_hi = lattice_sums.positive_part_expectations(ms, law_b, law_a, c, tail=1e-18, lower=lower, needed=[False, True, False])
    assert part_lo[1] == full_lo[1] and part_hi[1] == full_hi[1]
    e0, e = math.e, math.exp(0.3)
    for i in (0, 2):
        exact = _trinomial_sum(ms[i], 1 / 3, 1 / 2, (e0 - e, -(e * e0 - 1), -(e - 1)))
        assert part_lo[i] <= exact * (1 + 1e-9) and exact <= part_hi[i] * (1 + 1e-9)
        assert part_lo[i] <= full_lo[i] and part_hi[i] >= full_hi[i]
        assert part_hi[i] == pytest.approx(c.c0[1] * ms[i], rel=1e-12)  # the trivial end c0 m
    # Every m left out: no row summed, the ends without rows.
    none_lo, none_hi = lattice_sums.positive_part_expectations(ms, law_b, law_a, c, tail=1e-18, lower=lower, needed=[False, False, False])
    assert np.all(none_hi >= full_hi) and np.all(none_lo <= full_lo)


def _spy(monkeypatch):
    calls = []
    original = blanket_exact.positive_part_expectations

    def spy(*args, **kwargs):
        calls.append(kwargs.get("needed"))
        return original(*args, **kwargs)

    monkeypatch.setattr(blanket_exact, "positive_part_expectations", spy)
    return calls


@pytest.mark.parametrize("sharp_lower", [False, True])
def test_left_out_last_block_at_n_1e8_gives_the_same_floats(monkeypatch, sharp_lower):
    # k = 10, eps0 = 0.5, n = 1e8, delta = 1e-6 (the slowest point of benchmarks/TIGHTEST_SPEED.md): two grid points,
    # the second block's upper mass ~4e-36 (left out when only the upper ends are sharpened); near the root
    # (eps ~ 3.978e-5, benchmarks/TIGHTEST_SPEED.md) the sum is ~1e-6 and 4e-36 cannot change its float.
    eps0, n, k, delta, eps = 0.5, 10**8, 10, 1e-6, 3.98e-5
    full = blanket_exact.exact_blanket_krr_delta(eps0=eps0, n=n, k=k, eps=eps, delta_hint=delta, sharp_lower=sharp_lower, skip_negligible=False)
    calls = _spy(monkeypatch)
    fast = blanket_exact.exact_blanket_krr_delta(eps0=eps0, n=n, k=k, eps=eps, delta_hint=delta, sharp_lower=sharp_lower)
    assert fast.upper == full.upper and 0 < full.upper < 1
    if sharp_lower:
        # Each grid point carries one end's mass (upper: at its block's smallest N, lower: at its largest): none left out.
        assert calls == [None] and fast.lower == full.lower
    else:
        assert calls == [[True, False]]  # one evaluation, the last block left out for good
        assert fast.lower <= full.lower and fast.lower == pytest.approx(full.lower, rel=1e-9)


def test_blocks_summed_after_all_where_they_show_in_the_float(monkeypatch):
    # The same grid (delta_hint 1e-3 keeps it) at eps = 0.3, far above the root: the upper end is about 1.8e-23 there
    # (the windows' tails), and the left-out block's 4e-36 of mass times D_N <= 1 could change its float, so the block
    # must be summed after all (a second engine call): the same floats.
    eps0, n, k, hint, eps = 0.5, 10**8, 10, 1e-3, 0.3
    full = blanket_exact.exact_blanket_krr_delta(eps0=eps0, n=n, k=k, eps=eps, delta_hint=hint, sharp_lower=False, skip_negligible=False)
    calls = _spy(monkeypatch)
    fast = blanket_exact.exact_blanket_krr_delta(eps0=eps0, n=n, k=k, eps=eps, delta_hint=hint, sharp_lower=False)
    assert 0 < full.upper < 1e-20
    assert calls == [[True, False], [False, True]]
    assert (fast.lower, fast.upper) == (full.lower, full.upper)


def test_upper_search_unchanged_by_left_out_blocks(monkeypatch):
    # The statement's eps (its upper end, the value) at the point above and at k = 100, eps0 = 4, n = 1e8: the same
    # interval as the search over deltas with every block summed.
    original = blanket_exact.exact_blanket_krr_delta
    for eps0, k in ((0.5, 10), (4.0, 100)):
        fast = blanket_exact.exact_blanket_krr_epsilon(eps0=eps0, n=10**8, delta=1e-6, k=k)
        monkeypatch.setattr(blanket_exact, "exact_blanket_krr_delta", lambda **kwargs: original(**kwargs, skip_negligible=False))
        full = blanket_exact.exact_blanket_krr_epsilon(eps0=eps0, n=10**8, delta=1e-6, k=k)
        monkeypatch.setattr(blanket_exact, "exact_blanket_krr_delta", original)
        assert (fast.lower, fast.upper) == (full.lower, full.upper)
