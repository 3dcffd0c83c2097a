"""Rows of the lattice sums that need no sum over a (`expectations._one_sided_rows`) against the summed rows.

A row F(beta) = E[g(a; beta)_+], a ~ Bin(m - beta, p_a), is closed in O(1) when g <= 0 on its whole support
(g_hi(M) <= 0: F = 0) or when every term the summed path would add lies below TINY (the start's pmf certified
below it: the geometric series from the start). Checked here:
- each row's bracket (closed and summed) contains F computed term by term (float64 with gammaln, relative
  error far below REL), and F = 0 exactly gives an upper end 0 (g <= 0 everywhere);
- the closed rows move the summed path's bounds only to the safe side (upper ends up, lower ends down) and by
  at most float padding plus TINY-scale absolute amounts (the geometric tail of terms below TINY);
- rows touching the zero exactly at their end a = M (g(M) = 0) and rows just past it.
"""

import math

import mpmath
import numpy as np
import pytest
from scipy.special import gammaln

from shuffle_spec.reference.lower_bounds import krr
from shuffle_spec.reference.numerics import lattice_sums
from shuffle_spec.reference.numerics.lattice_sums import expectations

REL = 1e-9  # the term-by-term sums are float64 with gammaln (relative error far below this)
PADDING = 1e-12  # relative: the float padding of the summed rows is ~1e-13 at these sizes
TINY_SCALE = 1e-250  # absolute: the closed tail rows' upper ends are TINY (1e-280) times a geometric sum


def _summed_only(upward: np.ndarray, *args: object) -> np.ndarray:
    """The one-sided rows switched off: every row summed (the path before they existed)."""
    return np.zeros(len(upward), dtype=bool)


def _row_f(m: int, beta: int, p_a: float, c: tuple[float, float, float]) -> float:
    """F(beta) = E[(c0 a + c1 beta + c2 (m - a - beta))_+], a ~ Bin(m - beta, p_a), term by term."""
    big_m = m - beta
    a = np.arange(big_m + 1, dtype=float)
    g = c[0] * a + c[1] * beta + c[2] * (m - a - beta)
    log_pmf = gammaln(big_m + 1) - gammaln(a + 1) - gammaln(big_m - a + 1) + a * math.log(p_a) + (big_m - a) * math.log1p(-p_a)
    return float(np.sum(np.maximum(g, 0.0) * np.exp(log_pmf)))


def _rows(
    m: int, betas: list[int], p_a: float, c: tuple[float, float, float], monkeypatch: pytest.MonkeyPatch, one_sided: bool, back: float = 0.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row_lo, row_hi, closed mask) of `_row_bounds` for rows (m, beta), each queried at its own b; `back`: the
    number of b below each row that it serves (0: a row at every b)."""
    seen: list[np.ndarray] = []
    real = expectations._one_sided_rows

    def spy(*args: object) -> np.ndarray:
        mask = real(*args) if one_sided else _summed_only(*args)  # type: ignore[arg-type]
        seen.append(mask)
        return mask

    monkeypatch.setattr(expectations, "_one_sided_rows", spy)
    n_rows = len(betas)
    index = np.arange(n_rows)
    queries = expectations._Queries(index, np.zeros(n_rows), index, np.zeros(n_rows))
    coefficients = lattice_sums.Coefficients((c[0], c[0]), (c[1], c[1]), (c[2], c[2]))
    law = lattice_sums.binomial_law(mpmath.mpf(p_a))
    row_lo, row_hi, _, _ = expectations._row_bounds(np.full(n_rows, float(m)), np.array(betas, dtype=float), np.full(n_rows, back), law, coefficients, queries)
    return row_lo, row_hi, seen[0]


# g = 1.5 a - beta - m/2 (c0 = 1, c1 = -1.5, c2 = -0.5); its zero a* = (beta + m/2)/1.5 reaches M = m - beta at
# beta = 0.4 m: there g(M) = 0 exactly (touching the zero at the row's end), beyond it g < 0 on the whole row.
C = (1.0, -1.5, -0.5)
CASES = [
    # m = 2000, p_a = 0.2: the zero 13-130 sd above the mean of a; beta = 800 touches it at a = M (pmf 0.2^1200,
    # below TINY: the tail form), beta >= 801 lie entirely below it (F = 0), beta = 2000 has M = 0.
    (2000, 0.2, [300, 400, 450, 500, 700, 799, 800, 801, 1000, 2000], {500, 700, 799, 800, 801, 1000, 2000}, {300, 400}),
    # m = 2000, p_a = 0.95: the zero far below the mean (downward rows, F = E[g] + a negative part below TINY).
    (2000, 0.95, [0, 100, 200], {0, 100, 200}, set()),
    # m = 100, p_a = 0.5: beta = 40 touches the zero at a = M with pmf 2^-60 (summed: its padded g_hi(M) is > 0),
    # beta = 41 lies below it (closed, F = 0), beta = 39 crosses it (summed).
    (100, 0.5, [39, 40, 41], {41}, {39, 40}),
]


@pytest.mark.parametrize("m, p_a, betas, must_close, must_sum", CASES)
def test_one_sided_rows_contain_the_exact_row_and_move_only_to_the_safe_side(monkeypatch, m, p_a, betas, must_close, must_sum):
    lo_new, hi_new, closed = _rows(m, betas, p_a, C, monkeypatch, one_sided=True)
    lo_old, hi_old, none = _rows(m, betas, p_a, C, monkeypatch, one_sided=False)
    assert not none.any()
    closed_betas = {b for b, shut in zip(betas, closed, strict=True) if shut}
    assert must_close <= closed_betas and not (must_sum & closed_betas), closed_betas
    for i, beta in enumerate(betas):
        exact = _row_f(m, beta, p_a, C)
        for lo, hi in ((lo_new[i], hi_new[i]), (lo_old[i], hi_old[i])):
            assert lo <= exact * (1 + REL) and exact <= hi * (1 + REL), (beta, lo, exact, hi)
        if m - beta <= 0.6 * m:  # beta >= 0.4 m: g <= 0 on the whole row (touching 0 at a = M when equal)
            assert exact == 0.0 and lo_new[i] == 0.0
            if beta > 0.4 * m:
                assert hi_new[i] == 0.0
        # The safe side: upper ends only up, lower ends only down ...
        assert hi_new[i] >= hi_old[i] and lo_new[i] <= lo_old[i], (beta, lo_old[i], lo_new[i], hi_old[i], hi_new[i])
        # ... and by no more than the padding (relative) plus the TINY-scale tail (absolute).
        assert hi_new[i] - hi_old[i] <= PADDING * hi_old[i] + TINY_SCALE
        assert lo_old[i] - lo_new[i] <= PADDING * lo_old[i] + TINY_SCALE


def _x0_forward(monkeypatch: pytest.MonkeyPatch, *, eps0: float, n: int, k: int, eps: float, one_sided: bool) -> tuple[float, float]:
    """The certified [lo, hi] of the k-RR x0 pair's forward lattice sum (exact.krr_pair_x0) at eps."""
    monkeypatch.setattr(expectations, "_one_sided_rows", expectations._one_sided_rows if one_sided else _summed_only)
    expectations._plan.cache_clear()
    law_b, law_a, coefficients = krr._setups("x0", eps0, k, eps)[0]
    return lattice_sums.positive_part_expectation(n, law_b, law_a, coefficients, tail=1e-21)


def _compare_x0_forward(monkeypatch: pytest.MonkeyPatch, *, eps0: float, n: int, k: int, eps: float, some_closed: bool = True) -> None:
    real = expectations._one_sided_rows
    closed: list[int] = []

    def counting(*args: object) -> np.ndarray:
        mask: np.ndarray = real(*args)  # type: ignore[arg-type]
        closed.append(int(np.sum(mask)))
        return mask

    monkeypatch.setattr(expectations, "_one_sided_rows", counting)
    lo_new, hi_new = _x0_forward(monkeypatch, eps0=eps0, n=n, k=k, eps=eps, one_sided=True)
    assert (sum(closed) > 0) == some_closed  # whether closed rows are used at this point
    monkeypatch.setattr(expectations, "_one_sided_rows", real)
    lo_old, hi_old = _x0_forward(monkeypatch, eps0=eps0, n=n, k=k, eps=eps, one_sided=False)
    assert 0 < lo_new <= lo_old <= hi_old <= hi_new
    if not some_closed:  # every row summed: the same rows, chunks and sums
        assert (lo_new, hi_new) == (lo_old, hi_old)
    assert hi_new - hi_old <= PADDING * hi_old and lo_old - lo_new <= PADDING * lo_old


def test_x0_forward_sum_with_one_sided_rows_equals_the_summed_path(monkeypatch):
    # n = 1e6, k = 100, eps0 = 8 at eps = 0.123 (near the pair's eps at delta = 1e-9): most rows of b lie far
    # from the zero of g (closed), a few straddle it (summed, with their chunks' lengths and error bounds).
    _compare_x0_forward(monkeypatch, eps0=8.0, n=10**6, k=100, eps=0.123)


@pytest.mark.slow
@pytest.mark.parametrize("eps0, k, eps, some_closed", [(8.0, 100, 0.02525, True), (8.0, 10, 0.0262, True), (1.0, 10, 1.0e-4, False)])
def test_x0_forward_sum_at_n_1e8_equals_the_summed_path(monkeypatch, eps0, k, eps, some_closed):
    # n = 1e8 (the summed path: about 0.8 s at k = 100, eps0 = 8). At eps0 = 1, k = 10 every row lies within a
    # few tens of sd of the zero of g: nothing is closed and the two paths must agree exactly.
    _compare_x0_forward(monkeypatch, eps0=eps0, n=10**8, k=k, eps=eps, some_closed=some_closed)


def test_a_row_below_the_zero_serving_b_below_it_stays_summed(monkeypatch):
    # m = 100, p_a = 0.5, beta = 41: g <= 0 on the whole row (F = 0), closed when it serves no other b; serving
    # 5 values of b below it (where g is larger by up to 5 (c2 - c1)), it starts 3 values lower, at a pmf far above
    # TINY: its sums give the shifted lower bounds there, so it stays summed.
    _, hi, closed = _rows(100, [41], 0.5, C, monkeypatch, one_sided=True)
    assert closed[0] and hi[0] == 0.0
    _, hi, closed = _rows(100, [41], 0.5, C, monkeypatch, one_sided=True, back=5.0)
    assert not closed[0] and hi[0] >= 0.0
