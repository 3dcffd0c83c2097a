"""The lattice sums' log-pmf terms formed in place (`laws.log_gamma`'s series, `laws.log_pmf`, `expectations._log_ratio`)
are the same floats, bit for bit, as the plain expressions of the package doc's error model written out here (each
a left-to-right evaluation with its temporaries): the in-place forms are a speed change only, so every certified
end of the lattice sums stays the same float."""

import mpmath
import numpy as np
import pytest

from shuffle_spec.reference.numerics.lattice_sums.expectations import _log_ratio
from shuffle_spec.reference.numerics.lattice_sums.laws import LOG_MARGIN, _HALF_LOG_2PI, binomial_law, log_gamma, log_pmf


def plain_stirling(x: np.ndarray) -> np.ndarray:
    inv = 1.0 / x
    inv2 = inv * inv
    series = inv * (1.0 / 12 - inv2 * (1.0 / 360 - inv2 * (1.0 / 1260 - inv2 / 1680)))
    out: np.ndarray = (x - 0.5) * np.log(x) - x + (_HALF_LOG_2PI + series)
    return out


def plain_log_pmf(m, j, law):
    t1, t2, t3 = log_gamma(m + 1.0), log_gamma(j + 1.0), log_gamma(m - j + 1.0)
    t4 = j * law.log_p
    t5 = np.where(m - j > 0, (m - j) * law.log_q, 0.0)
    value = t1 - t2 - t3 + t4 + t5
    err = LOG_MARGIN * (np.abs(t1) + np.abs(t2) + np.abs(t3) + np.abs(t4) + np.abs(t5)) + law.err * (j + np.abs(m - j)) + 1e-15
    return value, err


def plain_log_ratio(m_from, m_to, a, law, log_gamma_from=None):
    t1, t2 = log_gamma(m_to + 1.0), log_gamma(m_to - a + 1.0)
    t3, t4 = (log_gamma(m_from + 1.0) if log_gamma_from is None else log_gamma_from), log_gamma(m_from - a + 1.0)
    t5 = (m_to - m_from) * law.log_q
    value = t1 - t2 - t3 + t4 + t5
    err = LOG_MARGIN * (np.abs(t1) + np.abs(t2) + np.abs(t3) + np.abs(t4) + np.abs(t5)) + law.err * np.abs(m_to - m_from) + 1e-15
    return value, err


def same_bits(x, y) -> bool:
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    return x.shape == y.shape and np.array_equal(x.view(np.int64), y.view(np.int64))


def test_stirling_in_place_is_the_expression_bit_for_bit():
    rng = np.random.default_rng(7)
    for size in (1, 7, 1000, 20000):
        xs = np.floor(np.exp(rng.uniform(np.log(256), np.log(1e15), size)))
        assert same_bits(log_gamma(xs), plain_stirling(xs))
        mixed = np.concatenate((xs, np.arange(1.0, 300.0)))  # the masked path: the same floats for the series part
        assert same_bits(log_gamma(mixed)[:size], plain_stirling(xs))


@pytest.mark.parametrize("p", ["0.5", "0.1", "0.0101"])
def test_log_pmf_and_log_ratio_in_place_are_the_expressions_bit_for_bit(p):
    law = binomial_law(mpmath.mpf(p))
    rng = np.random.default_rng(11)
    for size in (1, 40, 5000):
        m = np.floor(np.exp(rng.uniform(0.0, np.log(1e8), size)))
        j = np.floor(m * rng.uniform(0.0, 1.0, size))
        for got, want in zip(log_pmf(m, j, law), plain_log_pmf(m, j, law), strict=True):
            assert same_bits(got, want)
        # Broadcast rows (the split sums' anchors: m a read-only view across the columns).
        mb = np.broadcast_to(m[:, None], (size, 3))
        jb = np.minimum(j[:, None] + np.arange(3.0)[None, :], mb)
        for got, want in zip(log_pmf(mb, jb, law), plain_log_pmf(mb, jb, law), strict=True):
            assert same_bits(got, want)
        m_from = m + 100.0
        m_to = m_from + np.floor(rng.uniform(-50.0, 50.0, size))
        a = np.minimum(j, np.minimum(m_from, m_to))
        for given in (None, log_gamma(m_from + 1.0)):
            for got, want in zip(_log_ratio(m_from, m_to, a, law, given), plain_log_ratio(m_from, m_to, a, law, given), strict=True):
                assert same_bits(got, want)
        # log Gamma(m_to + 1) passed in (the window's log((m - b)!)): the same floats as computed here.
        for got, want in zip(_log_ratio(m_from, m_to, a, law, None, log_gamma(m_to + 1.0)), plain_log_ratio(m_from, m_to, a, law), strict=True):
            assert same_bits(got, want)


def test_binomial_window_with_m_broadcast_is_the_full_arrays_window_bit_for_bit():
    """binomial_window evaluates log Gamma(m + 1) once, broadcast over the window: the pmf brackets are those of log_pmf
    over a full array of m, and the kept log((m - j)!) are log_gamma(m - j + 1) (what the shifted rows read)."""
    from shuffle_spec.reference.numerics.lattice_sums.laws import binomial_window, exp_bounds

    for m, p, tail in ((10**8, "0.1", 1e-21), (12345, "0.0101", 1e-30), (300, "0.5", 1e-18), (40, "0.3", 1e-12)):
        law = binomial_law(mpmath.mpf(p))
        window = binomial_window(m, law, tail)
        js = np.arange(window.lo, window.hi + 1, dtype=float)
        lower, upper = exp_bounds(*plain_log_pmf(np.full_like(js, float(m)), js, law))
        assert same_bits(window.lower, lower) and same_bits(window.upper, upper)
        assert same_bits(window.log_factorial_rest, log_gamma(m - js + 1.0))


@pytest.mark.parametrize("seed", range(4))
def test_suffix_sums_of_ordered_queries_merge_their_cuts_bit_for_bit(seed):
    """Ordered queries (as the lattice sums make them) merge their starts with the rows' starts instead of sorting and
    searching: the same cuts, so every suffix sum is the same float as for the same queries in any order (sorted)."""
    from shuffle_spec.reference.numerics.lattice_sums.expectations import _cuts, _suffix_sums_at

    rng = np.random.default_rng(seed)
    n_rows, length = int(rng.integers(1, 7)), int(rng.integers(1, 200))
    values = 10.0 ** rng.uniform(-30, 5, size=(n_rows, length)) * (rng.random((n_rows, length)) > 0.2)
    steps = np.arange(length, dtype=float)
    queries = int(rng.integers(1, 300))
    rows = np.sort(rng.integers(0, n_rows, size=queries))
    idx = np.concatenate([np.sort(rng.integers(0, length + 1, size=int(np.sum(rows == r)))) for r in range(n_rows)])  # some at the end: empty
    inside = idx < length
    cuts, where = _cuts(rows[inside].astype(np.int64), idx[inside].astype(np.int64), n_rows, length)
    starts = rows[inside] * length + idx[inside]
    sorted_cuts = np.unique(np.concatenate((np.arange(n_rows) * length, starts)))
    assert np.array_equal(cuts, sorted_cuts) and np.array_equal(where, np.searchsorted(sorted_cuts, starts))
    order = rng.permutation(queries)  # the same queries unordered: the sorted path
    merged = _suffix_sums_at((values,), (None, steps, steps * steps), rows, idx)[0]
    shuffled = _suffix_sums_at((values,), (None, steps, steps * steps), rows[order], idx[order])[0]
    for got, other in zip(merged, shuffled, strict=True):
        assert same_bits(got[order], other)
