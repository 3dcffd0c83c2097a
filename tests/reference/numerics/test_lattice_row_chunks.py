"""The bookkeeping of the row chunks of the lattice sums (`reference/numerics/lattice_sums/expectations.py`) that
avoids work without changing a float: the queries of a chunk found from per-row ranges instead of a scan over every
query (`_query_ranges`, `_queries_of`), the rows' range test from their two ends instead of a rows x length mask
(`_rows_inside`), and the anchors' log-pmf evaluated once per chunk (`summed`). Each is checked against the
computation it replaces: the same integer arrays, the same boolean, and bit-identical sums (the scan and the
per-row anchors restored by monkeypatching)."""

import numpy as np
import pytest
import mpmath

from shuffle_spec.reference.numerics.lattice_sums import Coefficients, binomial_law, positive_part_expectations
from shuffle_spec.reference.numerics.lattice_sums import expectations


@pytest.mark.parametrize("seed", range(4))
def test_queries_of_equals_the_scan_over_every_query(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n_rows = int(rng.integers(1, 40))
    query_row = np.sort(rng.integers(0, n_rows, size=int(rng.integers(1, 300))))  # non-decreasing, as _plan builds it
    ranges = expectations._query_ranges(query_row, n_rows)
    assert ranges is not None
    for _ in range(5):
        rows = np.sort(rng.choice(n_rows, size=int(rng.integers(0, n_rows + 1)), replace=False))
        mask = np.zeros(n_rows, dtype=bool)
        mask[rows] = True
        expected = np.nonzero(mask[query_row])[0]
        got = expectations._queries_of(rows, ranges)
        assert got.dtype == np.int64 and np.array_equal(got, expected)


def test_query_ranges_decline_an_unsorted_query_row() -> None:
    # Not non-decreasing: the callers must fall back to the scan.
    assert expectations._query_ranges(np.array([0, 2, 1]), 3) is None


@pytest.mark.parametrize("seed", range(4))
def test_rows_inside_equals_the_mask(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(50):
        rows, length = int(rng.integers(1, 6)), int(rng.integers(1, 40))
        m_a = rng.integers(0, 60, size=rows).astype(float)
        first = np.clip(rng.integers(-5, 65, size=rows), 0, m_a).astype(float)
        for direction in (+1, -1):
            a = first[:, None] + direction * np.arange(length, dtype=float)[None, :]
            expected = bool(np.all((a >= 0) & (a <= m_a[:, None])))
            assert expectations._rows_inside(first, m_a, direction, length) == expected


def _krr(eps0: float, eps: float, k: int) -> tuple[Coefficients, object, object]:
    """BBGN19 Lemma 5.3's coefficients and laws (as `reference/bounds/blanket_exact_krr.py` builds them)."""
    with mpmath.workdps(40):
        e0, e = mpmath.exp(mpmath.mpf(eps0)), mpmath.exp(mpmath.mpf(eps))

        def br(x: mpmath.mpf) -> tuple[float, float]:
            f = float(x)
            return f - abs(f) * 1e-15, f + abs(f) * 1e-15

        return Coefficients(br(e0 - e), br(-(e * e0 - 1)), br(-(e - 1))), binomial_law(mpmath.mpf(1) / k), binomial_law(mpmath.mpf(1) / (k - 1))


@pytest.mark.parametrize(("eps0", "eps", "k", "ms"), [(4.0, 0.03, 3, [300, 2000, 2100]), (1.0, 0.01, 10, [60, 5000]), (0.5, 0.0, 3, [4000])])
def test_chunk_bookkeeping_leaves_every_sum_bit_identical(eps0: float, eps: float, k: int, ms: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    c, law_b, law_a = _krr(eps0, eps, k)
    for lower in (True, False):
        expectations._plan.cache_clear()
        fast = positive_part_expectations(ms, law_b, law_a, c, tail=1e-20, lower=lower)
        with monkeypatch.context() as patch:
            # The scan over every query and the anchors per call (the computation the bookkeeping replaces).
            patch.setattr(expectations, "_query_ranges", lambda query_row, n_rows: None)
            direction_rows = expectations._direction_rows

            def per_call_anchors(*args: object, **kwargs: object) -> None:
                kwargs.pop("summed", None)
                direction_rows(*args, **kwargs)  # type: ignore[arg-type]

            patch.setattr(expectations, "_direction_rows", per_call_anchors)
            expectations._plan.cache_clear()
            plain = positive_part_expectations(ms, law_b, law_a, c, tail=1e-20, lower=lower)
        assert np.array_equal(fast[0], plain[0]) and np.array_equal(fast[1], plain[1])
        assert np.all(fast[1] > 0)
