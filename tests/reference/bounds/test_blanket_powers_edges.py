"""`reference.bounds.blanket_powers.mixture_positive_part_upper` at its edges (statement BBGN19.Lem5.3.exact_randomizer,
replace-one relation): a weighted sum below the smallest double (the Chernoff terms beyond the cutoff underflow to
0 in float, and the upper bound must still be above the exact sum, i.e. positive)."""

from __future__ import annotations

from fractions import Fraction

from shuffle_spec.reference.bounds.blanket_powers import mixture_positive_part_upper

# L = 2^-20 w.p. 2^-13, else -2^-7 (exact floats). S_N = a 2^-20 - (N - a) 2^-7 > 0 only when a > (N - a) 2^13,
# i.e. a = N for N <= 8193: E[(S_N)_+] = (2^-13)^N N 2^-20 exactly.
L_HI = [2.0**-20, -(2.0**-7)]
P_HI = [2.0**-13, 1 - 2.0**-13]


def _exact(n: int) -> Fraction:
    return Fraction(1, 2**13) ** n * n * Fraction(1, 2**20)


def test_a_sum_below_the_smallest_double_is_bounded_by_a_positive_float() -> None:
    # N = 90: 90 2^-1190 ~ 1e-357, below the smallest subnormal double 2^-1074: the float bound must not be 0.
    for sizes, weights in (([90], [1.0]), ([90, 91], [1.0, 1.0]), ([90], [3e-4])):
        exact = sum((Fraction(w) * _exact(n) for n, w in zip(sizes, weights, strict=True)), Fraction(0))
        assert 0 < exact < Fraction(2.0**-1074)
        value = mixture_positive_part_upper(L_HI, P_HI, sizes, weights)
        assert value is not None and Fraction(value) >= exact, (sizes, weights, value)


def test_a_representable_sum_is_still_bounded_above() -> None:
    # N = 30: 30 2^-410 ~ 1e-122, a normal double: the bound is above it (and the underflow margin does not matter).
    value = mixture_positive_part_upper(L_HI, P_HI, [30], [1.0])
    assert value is not None and Fraction(value) >= _exact(30)


def test_a_constant_privacy_loss_is_bounded_not_a_traceback() -> None:
    # One group (the range admits 1 to 64): L = 1/2 surely, so S_N = N/2 and sum_b w_b E[(S_N)_+] = 1 x 3/2 + 1/2 x 10/2
    # = 4. Its standard deviation is 0: the grid step was ~1e-152 and the grid index ~1e151 overflowed a C long in
    # GridPLD.log_mgf (an OverflowError). Now the step is at least 2^-40 |L|; the window of the sizes 3..10 then needs
    # more than MAX_FFT points, so the answer may be None (the documented "does not fit": the caller's per-size path).
    for sizes, weights, exact in (([3, 10], [1.0, 0.5], Fraction(4)), ([10**8], [1.0], Fraction(10**8, 2))):
        value = mixture_positive_part_upper([0.5], [1.0], sizes, weights)
        assert value is None or Fraction(value) >= exact
    # Two values 1 ulp apart: S_N <= N (1 + 2^-52), E[S_N] = N (1 + 2^-53) (exact: the probabilities are 1/2 each).
    value = mixture_positive_part_upper([1.0, 1.0 + 2.0**-52], [0.5, 0.5], [3, 10], [1.0, 0.5])
    assert value is None or Fraction(value) >= (3 + Fraction(1, 2) * 10) * (1 + Fraction(1, 2**53))


def test_the_largest_coefficients_accepted_give_a_bound_without_overflow() -> None:
    # |L| = MAX_VALUE = 1e100 (beyond: ParameterError; the window's squared points overflowed, a RuntimeWarning and
    # None): L = +-1e100 w.p. 1/2, N = 5, E[(S_5)_+] = 1e100 sum_{a >= 3} C(5, a) (2a - 5) / 32 = 1e100 x 30/32.
    value = mixture_positive_part_upper([1e100, -1e100], [0.5, 0.5], [5], [1.0])
    assert value is not None and Fraction(value) >= Fraction(1e100) * Fraction(30, 32)
