"""Safe-side bracketing: the returned point always satisfies the condition it was asked for."""

import math

from hypothesis import given
from hypothesis import strategies as st

from shuffle_spec.reference.numerics.inversion import largest_argument_within, smallest_argument_within


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


# --- ITP steps (`interpolate=True`): same safety, fewer evaluations on smooth functions ------------------


class _Counted:
    def __init__(self, f):
        self.f, self.calls = f, 0

    def __call__(self, x):
        self.calls += 1
        return self.f(x)


@given(st.floats(0.01, 10), st.floats(0.1, 5))
def test_itp_largest_argument_is_verified_and_close(scale, target):
    f = lambda x: scale * x * x  # noqa: E731
    x = largest_argument_within(f, target, 0.0, 100.0, name="x", interpolate=True)
    assert f(x) <= target
    assert x >= math.sqrt(target / scale) * (1 - 1e-8)


@given(st.floats(0.01, 10), st.floats(0.01, 5))
def test_itp_smallest_argument_is_verified_and_close(scale, target):
    f = lambda x: scale / x  # noqa: E731
    x = smallest_argument_within(f, target, 1e-3, 1e6, name="x", interpolate=True)
    assert f(x) <= target
    assert x <= max(scale / target, 1e-3) * (1 + 1e-8)


def test_itp_needs_far_fewer_evaluations_on_a_smooth_function_and_survives_a_step():
    for smooth, lo, hi in ((math.exp, 0.0, 4.0), (lambda x: x * x, 0.0, 100.0)):
        bisect, itp = _Counted(smooth), _Counted(smooth)
        a = largest_argument_within(bisect, 2.0, lo, hi, name="x", rel_tol=1e-12)
        b = largest_argument_within(itp, 2.0, lo, hi, name="x", rel_tol=1e-12, interpolate=True)
        assert smooth(a) <= 2.0 and smooth(b) <= 2.0 and abs(a - b) <= 4e-12
        assert itp.calls <= bisect.calls // 2  # ~45 bisection steps; ITP settles these in about 15
    # A step function (interpolation useless) and +inf outside a domain: no worse than bisection plus one.
    step, stepped = (lambda x: 0.0 if x < 0.3 else (math.inf if x > 0.9 else 1.0)), None
    bisect, itp = _Counted(step), _Counted(step)
    stepped = largest_argument_within(itp, 0.5, 0.0, 1.0, name="x", rel_tol=1e-9, interpolate=True)
    largest_argument_within(bisect, 0.5, 0.0, 1.0, name="x", rel_tol=1e-9)
    assert step(stepped) <= 0.5 and stepped >= 0.3 * (1 - 1e-9) - 1e-9 and itp.calls <= bisect.calls + 2
