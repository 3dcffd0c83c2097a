"""`krr_pair_delta(..., sharp_lower=False)` (the x0 test of `interface/tightest.py` reads the upper end alone): the
lattice sums skip their lower queries, and the upper end must be the same float as the full evaluation's (the skip
decision, hence the certified answer, rests on it), the lower end still below the full one's (certified, looser)."""

import pytest

from shuffle_spec.reference.lower_bounds.krr import krr_pair_delta


@pytest.mark.parametrize(("pair", "k", "eps0", "n", "eps"), [
    ("x0", 10, 1.0, 10_000, 0.02), ("x0", 3, 4.0, 2_000, 0.3), ("third", 10, 0.5, 100_000, 0.005), ("x0", 100, 8.0, 1_000, 4.0),
])
def test_the_upper_end_is_the_full_evaluations_float(pair, k, eps0, n, eps):
    full = krr_pair_delta(eps0=eps0, n=n, k=k, eps=eps, pair=pair, delta_hint=1e-6)
    upper_only = krr_pair_delta(eps0=eps0, n=n, k=k, eps=eps, pair=pair, delta_hint=1e-6, sharp_lower=False)
    assert full.upper > 0 and upper_only.upper == full.upper
    assert 0 <= upper_only.lower <= full.lower <= full.upper
