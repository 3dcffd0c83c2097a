"""Safe-side bracketing: the returned point always satisfies the condition it was asked for."""

import math

from hypothesis import given
from hypothesis import strategies as st

from shuffle_spec.reference.inversion import largest_argument_within, smallest_argument_within


@given(st.floats(0.01, 10), st.floats(0.1, 5))
def test_largest_argument_is_verified_and_close(scale, target):
    f = lambda x: scale * x * x  # noqa: E731
    x = largest_argument_within(f, target, 0.0, 100.0, name="x")
    assert f(x) <= target
    assert x >= math.sqrt(target / scale) * (1 - 1e-8)


@given(st.floats(0.01, 10), st.floats(0.01, 5))
def test_smallest_argument_is_verified_and_close(scale, target):
    f = lambda x: scale / x  # noqa: E731
    x = smallest_argument_within(f, target, 1e-3, 1e6, name="x")
    assert f(x) <= target
    assert x <= max(scale / target, 1e-3) * (1 + 1e-8)
