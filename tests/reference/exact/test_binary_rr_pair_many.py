"""The binary-RR pair evaluated at many eps at once (`pair_delta_evaluator_many`, used for the profile
envelope of compose.binary_rr): against the exact divergence of the pair in Fractions (small populations) and
against the scalar path (`pair_delta_evaluator`, an independent bracketing of the same threshold) at moderate
ones, including both ends (a one-point window) and eps near eps0 (the far tail, where the normal guess of the
threshold is off and later passes or the scalar path take over)."""

import math
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from shuffle_spec.reference.exact import binary_rr as ebr
from shuffle_spec.reference.exact.binary_rr import pair_delta_evaluator, pair_delta_evaluator_many


def exact_pair_delta(e0: Fraction, population: int, ones: int, e: Fraction) -> Fraction:
    """D_e(P || Q), P = Bern(p) + S, Q = Bern(q) + S, S = Bin(ones, p) + Bin(population - 1 - ones, q), p = e0/(e0 + 1)."""
    p = e0 / (e0 + 1)
    q = 1 - p
    zeros = population - 1 - ones
    ones_pmf = [comb(ones, x) * p**x * q ** (ones - x) for x in range(ones + 1)]
    zeros_pmf = [comb(zeros, x) * q**x * p ** (zeros - x) for x in range(zeros + 1)]
    s_pmf = [Fraction(0)] * (population)
    for x, px in enumerate(ones_pmf):
        for y, py in enumerate(zeros_pmf):
            s_pmf[x + y] += px * py
    total = Fraction(0)
    for s in range(population + 1):
        before = s_pmf[s - 1] if s >= 1 else Fraction(0)
        at = s_pmf[s] if s < population else Fraction(0)
        big_p, big_q = p * before + q * at, q * before + p * at
        total += max(big_p - e * big_q, Fraction(0))
    return total


@pytest.mark.parametrize("population, ones", [(12, 0), (12, 5), (12, 11), (30, 17)])
def test_many_contains_the_exact_pair_divergence(population, ones):
    eps0 = math.log(3.0)
    e0 = Fraction(math.exp(eps0))  # the float e^eps0 as the evaluator sees it (p within 1 ulp)
    nodes = np.arange(18) * 2.0**-4
    lower, upper = pair_delta_evaluator_many(eps0)(population, ones, nodes)
    for eps, lo, hi in zip(nodes, lower, upper, strict=True):
        exact = float(exact_pair_delta(e0, population, ones, Fraction(math.exp(float(eps)))))
        assert lo <= exact * (1 + 1e-9) + 1e-300
        assert exact <= hi * (1 + 1e-9)


@pytest.mark.parametrize("eps0, population, ones", [(1.0, 10**4, 0), (1.0, 10**4, 10**4 - 1), (0.5, 20_000, 7_000), (4.0, 5_000, 4_000)])
def test_many_agrees_with_the_scalar_path_and_rarely_needs_it(eps0, population, ones, monkeypatch):
    """Both are certified intervals of the same divergence: they intersect, and the upper ends agree to float
    noise (the same bound H(s_b) at the same threshold). At 64 nodes from 0 to where the divergence falls to
    1e-17 (the envelope's floor), the array path brackets nearly every node itself."""
    scalar = pair_delta_evaluator(eps0)
    low, high = 0.0, eps0
    for _ in range(30):  # where the scalar upper end falls below 1e-17
        mid = 0.5 * (low + high)
        low, high = (mid, high) if scalar(population, ones, mid)[1] > 1e-17 else (low, mid)
    nodes = np.arange(64) * (low / 63)
    reference = np.array([scalar(population, ones, float(e)) for e in nodes])
    calls = []
    original = ebr._Pair.scaled_delta_bounds

    def counted(self, eps):
        calls.append(eps)
        return original(self, eps)

    monkeypatch.setattr(ebr._Pair, "scaled_delta_bounds", counted)
    lower, upper = pair_delta_evaluator_many(eps0)(population, ones, nodes)
    assert np.all(lower <= reference[:, 1]) and np.all(reference[:, 0] <= upper)
    assert np.all(upper <= reference[:, 1] * (1 + 1e-9) + 1e-300)
    assert np.all(lower >= reference[:, 0] * (1 - 1e-9))
    assert len(calls) <= len(nodes) // 10


@pytest.mark.parametrize("kind, offset", [(np.int64, 0), (np.int32, 1), (np.uint64, 2)])
def test_many_accepts_numpy_integer_counts(kind, offset):
    """A population and count of ones given as numpy integers (as produced by np.arange or array indexing) give
    the same certified interval as the Python ints: at n = 1e4 the pmf's float anchor multiplies the counts by a
    53-bit numerator, which overflowed int64 (OverflowError) before the counts were converted."""
    nodes = np.array([0.01, 0.02, 0.05])
    # The numpy call first: cached set-ups keyed by equal Python ints would otherwise be reused.
    got = pair_delta_evaluator_many(1.0)(kind(10**4), kind(5_000 + offset), nodes)
    expected = pair_delta_evaluator_many(1.0)(10**4, 5_000 + offset, nodes)
    assert np.array_equal(got[0], expected[0]) and np.array_equal(got[1], expected[1])


@pytest.mark.parametrize("population, ones, fragment", [(1000.5, 10, "population"), (np.float64(12.5), 3, "population"), (0, 0, "population"),
                                                        (10, 10, "ones"), (10, -1, "ones"), (10, 2.5, "ones")])
def test_many_refuses_counts_that_are_not_a_pair(population, ones, fragment):
    """population >= 1 and 0 <= ones <= population - 1, integers (a fractional population was silently
    evaluated as another distribution; ones = population divided by zero)."""
    from shuffle_spec.reference.core.errors import ParameterError

    with pytest.raises(ParameterError, match=fragment):
        pair_delta_evaluator_many(1.0)(population, ones, np.array([0.1]))
