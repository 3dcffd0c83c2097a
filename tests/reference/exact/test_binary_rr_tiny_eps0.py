"""exact.shuffled_binary_rr where eps0 <= delta: every neighbouring pair's delta at eps = 0 is its total variation,
at most that of the one report that differs (the shuffled output is a post-processing of it and of the others'
reports), |p - q| = tanh(eps0 / 2) < eps0 <= delta: the exact worst case is eps = 0, at every n."""

from __future__ import annotations

import math

import pytest

from shuffle_spec.interface import api
from shuffle_spec.reference.exact.binary_rr import worst_case


@pytest.mark.parametrize("eps0", [1e-307, 1e-100, 1e-20, 1e-6])
@pytest.mark.parametrize("n", [2, 10**4, 10**8])
def test_the_worst_case_is_zero_where_eps0_is_at_most_delta(eps0, n):
    # eps0 = 1e-100 and 1e-307 at n = 1e4 were refused, naming n ("a size whose worst case certifies to 0.01
    # relative within the work budget"), where 1e-20 answered 0.
    assert math.tanh(eps0 / 2) < eps0 <= 1e-6
    found = worst_case(eps0=eps0, n=n, delta=1e-6)
    assert (found.lower, found.upper) == (0.0, 0.0)
    assert api.shuffled_epsilon("exact.shuffled_binary_rr", eps0=eps0, n=n, delta=1e-6) == 0.0
