"""The suffix sums of the shifted rows, formed only where the queries start (`_suffix_sums_at` in
`reference/numerics/lattice_sums/expectations.py`), against exact rational sums.

The engine pads every suffix sum of L non-negative floats by (L + 2) u' relative (package doc of
`lattice_sums`, "Suffix (reverse cumulative) sums"); the sums are now cut into pieces at the queries' start
indices and added piece by piece, so the bound must hold for that order of additions too. The exact value is
the Fraction sum of the float terms (each term values[r, t] * w[t] taken exactly)."""

from fractions import Fraction

import numpy as np
import pytest

from shuffle_spec.reference.numerics.lattice_sums.expectations import _suffix_sums_at
from shuffle_spec.reference.numerics.lattice_sums.laws import U1


def _exact_suffix(values: np.ndarray, power: np.ndarray | None, row: int, start: int) -> Fraction:
    weights = np.ones(values.shape[1]) if power is None else power
    return sum((Fraction(float(values[row, t])) * Fraction(float(weights[t])) for t in range(start, values.shape[1])), Fraction(0))


@pytest.mark.parametrize("seed", range(6))
def test_suffix_sums_at_query_starts_are_within_the_padded_bound(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n_rows, length = int(rng.integers(1, 6)), int(rng.integers(1, 120))
    # Non-negative terms of very different sizes, some exactly 0 (rows past their end), as the ratio products are.
    values = 10.0 ** rng.uniform(-40, 5, size=(n_rows, length)) * (rng.random((n_rows, length)) > 0.2)
    steps = np.arange(length, dtype=float)
    powers = (None, steps, steps * steps)
    queries = int(rng.integers(1, 40))
    rows = rng.integers(0, n_rows, size=queries)
    idx = rng.integers(0, length + 1, size=queries)  # the row's length itself: an empty suffix (0)
    idx[0] = length  # always one empty suffix
    if queries > 1:
        rows[1], idx[1] = rows[0], 0  # and a whole row
    (sums,) = _suffix_sums_at((values,), powers, rows, idx)
    bound = (length + 2) * U1
    for k, power in enumerate(powers):
        for q in range(queries):
            exact = _exact_suffix(values, power, int(rows[q]), int(idx[q]))
            got = Fraction(float(sums[k][q]))
            assert abs(got - exact) <= Fraction(bound) * exact, (seed, k, q, float(got), float(exact))
            if idx[q] == length:
                assert sums[k][q] == 0.0


def test_suffix_sums_at_serve_several_arrays_at_the_same_starts() -> None:
    # Two arrays at the same query starts (the engine's P and Q sums): each equals its own plain reverse sum.
    rng = np.random.default_rng(7)
    first, second = rng.random((3, 50)), rng.random((3, 50)) * 1e-3
    rows, idx = np.array([0, 2, 2, 1]), np.array([10, 0, 49, 50])
    sums_first, sums_second = _suffix_sums_at((first, second), (None,), rows, idx)
    for array, sums in ((first, sums_first), (second, sums_second)):
        for q in range(4):
            expected = float(sum(Fraction(float(x)) for x in array[rows[q], idx[q]:]))
            assert sums[0][q] == pytest.approx(expected, rel=60 * U1, abs=0.0)
