"""exact.shuffled_binary_rr, one pair: the guess of the threshold s* = min{s : a f(s-1) >= b f(s)} that starts the
bracketing of `_Pair.scaled_delta_bounds` (the tilted mean with its skew correction, `_Pair._guess`).

The guess only shortens the bracketing: the certified interval must be the same floats whatever the guess (checked by
replacing it with None, the bisection over the whole window, and with guesses far off). Its accuracy is what the
speed rests on: it is compared with the threshold computed independently at 50 digits from the binomial pmfs (exact
for one binomial, within a count for the sums, including the skewed ones at large eps0 where the normal guess
mu + 1/2 + v log(b/a) was about ten counts off)."""

from __future__ import annotations

import functools
import math

import mpmath
import pytest

from shuffle_spec.reference.exact import binary_rr as ebr


def _threshold_50_digits(eps0: float, ones: int, zeros: int, eps: float, near: int) -> int:
    """s* of S = Bin(ones, p) + Bin(zeros, q), p = e^eps0 / (1 + e^eps0), from the pmf of S at 50 digits (each f(s)
    a convolution sum of the two binomials' pmfs; independent of the module's windows and guess), searched from the
    count `near`: g(s) = a f(s-1) - b f(s) changes sign once (f is log-concave), so s* is where it turns >= 0."""
    with mpmath.workdps(50):
        p = mpmath.exp(eps0) / (1 + mpmath.exp(eps0))
        q = 1 - p
        e = mpmath.exp(eps)
        a, b = p - e * q, e * p - q

        @functools.lru_cache(maxsize=None)
        def first(j: int) -> mpmath.mpf:
            return mpmath.binomial(ones, j) * p**j * q ** (ones - j)

        @functools.lru_cache(maxsize=None)
        def second(j: int) -> mpmath.mpf:
            return mpmath.binomial(zeros, j) * q**j * p ** (zeros - j)

        def g(s: int) -> mpmath.mpf:
            def f(t: int) -> mpmath.mpf:
                return mpmath.fsum(first(j) * second(t - j) for j in range(max(0, t - zeros), min(ones, t) + 1))

            return a * f(s - 1) - b * f(s)

        s = near
        if g(s) >= 0:
            while s > 1 and g(s - 1) >= 0:
                s -= 1
            return s
        while g(s) < 0:
            s += 1
        return s


def _guess(eps0: float, ones: int, zeros: int, eps: float) -> int | None:
    pair = ebr._Pair(eps0, ones, zeros, ebr._tail_for(1e-9), ebr._log_scale(1e-9))
    a_lo, _, b_lo, _ = ebr._coefficients(eps0, eps)
    return pair._guess(a_lo, b_lo)


@pytest.mark.parametrize("eps0, ones, zeros, eps", [(4.0, 0, 300, 0.3), (4.0, 250, 0, 0.3), (8.0, 0, 400, 1.0), (0.5, 0, 300, 0.05)])
def test_the_guess_is_the_threshold_of_one_binomial(eps0, ones, zeros, eps):
    # One binomial Bin(m, x): f(s-1)/f(s) = s (1 - x) / ((m - s + 1) x) reaches b/a at s = (m + 1) x_r exactly,
    # x_r the tilted probability, which is what the guess computes (up to the floats of p, q, a, b).
    assert abs(_guess(eps0, ones, zeros, eps) - _threshold_50_digits(eps0, ones, zeros, eps, near=_guess(eps0, ones, zeros, eps))) <= 1


@pytest.mark.parametrize("eps0, ones, zeros, eps", [(2.0, 100, 2000, 0.2), (3.0, 50, 3000, 0.3), (6.0, 20, 5000, 1.0), (0.5, 20, 280, 0.05)])
def test_the_guess_is_within_a_count_of_the_threshold_of_a_sum(eps0, ones, zeros, eps):
    assert abs(_guess(eps0, ones, zeros, eps) - _threshold_50_digits(eps0, ones, zeros, eps, near=_guess(eps0, ones, zeros, eps))) <= 1


def test_the_guess_is_on_the_certified_threshold_where_the_normal_guess_was_ten_counts_off():
    # eps0 = 4, the top end's pair at n = 1e6 (the zeros' count is Bin(~1e6, 0.018), skewed): the certified bracket
    # (low, high] of s* is one count wide there; the normal approximation's guess was 10-11 counts below it.
    eps0, n, eps = 4.0, 10**6, 0.0354
    pair = ebr._Pair(eps0, n - 1, 0, ebr._tail_for(1e-9), ebr._log_scale(1e-9))
    low, high = pair.threshold_bracket(eps)
    assert high == low + 1
    a_lo, _, b_lo, _ = ebr._coefficients(eps0, eps)
    assert abs(pair._guess(a_lo, b_lo) - high) <= 1
    keep, _ = ebr._keep_pair(eps0)
    variance = (n - 1) * keep.p * keep.q
    normal = math.ceil((n - 1) * keep.p + 0.5 + variance * math.log(b_lo / a_lo))
    assert abs(normal - high) >= 5  # the case this guess is for: the first-order guess is far off here


@pytest.mark.parametrize("eps0, ones, zeros, eps", [(4.0, 999_999, 0, 0.0354), (0.5, 200, 9_799, 0.0162), (8.0, 10, 5_000, 1.5), (1.0, 3, 2, 0.2)])
def test_the_certified_interval_does_not_depend_on_the_guess(eps0, ones, zeros, eps, monkeypatch):
    def bits(guess_shift: int | None) -> tuple[str, str]:
        pair = ebr._Pair(eps0, ones, zeros, ebr._tail_for(1e-9), ebr._log_scale(1e-9))
        if guess_shift is None:
            monkeypatch.setattr(pair, "_guess", lambda a, b: None)  # the bisection over the whole window
        else:
            true_guess = ebr._Pair._guess
            monkeypatch.setattr(pair, "_guess", lambda a, b: None if true_guess(pair, a, b) is None else true_guess(pair, a, b) + guess_shift)
        low, up = pair.delta_bounds(eps)
        return low.hex(), up.hex()

    reference = bits(0)
    for shift in (None, -40, -3, 3, 40):
        assert bits(shift) == reference
