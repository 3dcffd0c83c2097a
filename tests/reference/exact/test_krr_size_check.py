"""exact.shuffled_krr refuses a large (n, k) at once: its size check never builds a huge binomial coefficient.

The check compares the enumeration's work n C(n+k-2, k-1) C(n+k-1, k-1)/2 with KRR_EXACT_MAX_WORK; it computed the
binomials exactly first, and at n = 1e8, k = 1e9 (both inside the declared ranges of n and k) C(1.1e9, 1e8) has
about 1.5e8 digits: the call ran for minutes before refusing. The work is counted here by the size of the
binomials asked for, never by time."""

import math

import pytest
import shuffle_spec.reference.exact.krr as exact_krr
from shuffle_spec.reference.core.errors import ParameterError


class _CountingMath:
    """`math` with comb limited to coefficients of at most a few thousand digits (min(j, m - j) <= 1000)."""

    def __getattr__(self, name):
        return getattr(math, name)

    @staticmethod
    def comb(m, j):
        if min(j, m - j) > 1000:
            raise AssertionError(f"C({m}, {j}) built for a size check")
        return math.comb(m, j)


@pytest.mark.parametrize("n, k", [(10**8, 10**9), (10**12, 10**9), (10**6, 10**6), (2000, 2000)])
def test_large_sizes_are_refused_without_building_the_binomials(monkeypatch, n, k):
    monkeypatch.setattr(exact_krr, "math", _CountingMath())
    with pytest.raises(ParameterError, match="^n = ") as raised:
        exact_krr.exact_shuffled_krr_epsilon(eps0=1.0, n=n, delta=1e-6, k=k)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("n, k", [(66, 2), (67, 2), (15, 3), (16, 3), (8, 4), (9, 4), (1, 300_000), (1, 300_002), (2, 273), (2, 274)])
def test_the_decision_at_the_edge_is_the_exact_count(n, k):
    """On both sides of the limit the decision is the exact work's (the doc's n <= 66 for k = 2, 15 for k = 3, 8
    for k = 4; n = 1 has work k/2; n = 2: k (k + 1) k / 2 * 2 / 2)."""
    work = math.comb(n + k - 2, k - 1) * math.comb(n + k - 1, k - 1) // 2 * n
    if work > exact_krr.MAX_WORK:
        with pytest.raises(ParameterError, match="^n = "):
            exact_krr._validate_size(k, n)
    else:
        assert exact_krr._validate_size(k, n) == (k, n)
