"""exact.shuffled_binary_rr: the certified worst case over every neighbouring pair, checked against
the full shuffled distribution (Fractions) for small n, an independent float scan over every k at moderate n
(a scan of k = 0 alone had missed the worst pair), a table of worst pairs, 50-digit mpmath pair values (also
at delta = 1e-300 and large eps0), the removal bound on exact instances, and exact.shuffled_binary_rr.pair."""

import math
from fractions import Fraction

import mpmath
import pytest

from support.brute_sums import float_scan_pairs
from shuffle_spec.reference.finite.divergences import hockey_stick_divergence
from shuffle_spec.reference.exact.binary_rr import (
    MAX_EPS0,
    binary_rr_pair_delta,
    binary_rr_pair_epsilon,
    block_delta_bound,
    one_direction_delta,
    thinned_block_delta_bound,
    shuffled_binary_rr,
    shuffled_binary_rr_delta,
    shuffled_binary_rr_pair,
    worst_case,
)
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.finite.randomizers import binary_randomized_response
from shuffle_spec.reference.finite.shuffling import exact_shuffled_delta, exact_shuffled_e_eps, shuffled_distribution


@pytest.fixture(autouse=True)
def _fifty_digits():
    """This module's mpmath computations run at 50 digits; the precision is restored after each test."""
    with mpmath.workdps(50):
        yield


@pytest.mark.parametrize("n, eps0, delta", [(2, 1.0, 0.1), (3, 2.0, 0.1), (5, 1.0, 0.05), (8, 1.5, 0.01), (6, 3.0, 0.2), (9, 0.5, 0.02)])
def test_matches_the_exact_shuffled_distribution(n, eps0, delta):
    # e^eps0 as the float it is: the Fraction randomizer then has exactly the float e^eps0 (p within 1 ulp).
    exact_e = exact_shuffled_e_eps(binary_randomized_response(math.exp(eps0)), n, Fraction(delta))
    result = shuffled_binary_rr(eps0=eps0, n=n, delta=delta)
    exact = math.log(exact_e)
    assert result.lower - 1e-12 <= exact <= result.upper + 1e-12
    assert result.upper - result.lower <= 1e-6 * exact


def test_delta_matches_the_exact_shuffled_delta_at_rational_e_eps():
    randomizer = binary_randomized_response(Fraction(3))
    for n in (3, 6):
        exact = exact_shuffled_delta(randomizer, n, Fraction(3, 2))
        got = shuffled_binary_rr_delta(eps0=math.log(3), n=n, eps=math.log(1.5))
        assert got.lower - 1e-12 <= float(exact) <= got.upper + 1e-12


# Each point scans every pair independently (1-3 s of CPU at n >= 4000): the two largest n in the second tier.
@pytest.mark.parametrize(
    "eps0, n, delta",
    [
        (4.0, 1000, 0.0044),
        pytest.param(6.0, 4000, 1e-6, marks=pytest.mark.slow),
        pytest.param(8.0, 20_000, 1e-6, marks=pytest.mark.slow),
        (1.0, 2000, 1e-6),
        (2.0, 401, 1e-3),
        pytest.param(0.1, 3000, 1e-6, marks=pytest.mark.slow),  # 2.3 s of CPU; eps0 = 1, n = 2000 stays in the default tier
    ],
)
def test_worst_case_agrees_with_an_independent_full_scan_over_k(eps0, n, delta):
    # Regression guard: a scan of k = 0 only returned 0.49893 instead of 0.49985 at the first point. eps0 = 0.1:
    # the thinned removal is active (blocks remove ~10% of their users).
    result = worst_case(eps0=eps0, n=n, delta=delta)
    assert result.upper - result.lower <= 1e-6 * result.upper
    at_upper, at_lower = float_scan_pairs(n, eps0, [result.upper, result.lower])
    # Every pair is within delta at the upper end; some pair is above it at the lower end (float noise << 1e-6:
    # a relative change of 1e-6 in eps moves delta by about 2 log(1/delta) 1e-6 relative).
    assert at_upper.max() <= delta * (1 + 1e-9)
    assert at_lower.max() >= delta * (1 - 1e-9)
    assert at_lower[result.worst_k] >= delta * (1 - 1e-9)


def test_worst_pair_at_eps0_6_n_1e5():
    # eps0 = 6, n = 1e5, delta = 1e-6: worst k = 89 (all k scanned, 60 digits), eps >= 0.2678400294;
    # the value under the old name (k <= 16) was 0.2677440809.
    result = worst_case(eps0=6.0, n=100_000, delta=1e-6)
    assert result.lower <= 0.2678400294 <= result.upper
    assert result.upper - result.lower <= 1e-6 * result.upper
    mirror = min(result.worst_k, 100_000 - 1 - result.worst_k)
    # The pairs around k = 89 are within 1e-6 of each other: the certified worst lies among them.
    assert 60 <= mirror <= 120
    assert shuffled_binary_rr_pair(eps0=6.0, n=100_000, delta=1e-6, k=0).upper < result.lower


def test_delta_1e_300_is_certified_not_eps0():
    # Regression guard: eps0 = 1, n = 1e4, delta = 1e-300 returned eps0; an independent log-space computation
    # gives 0.4364. The 50-digit pair value at the reported worst k confirms the lower end.
    result = worst_case(eps0=1.0, n=10_000, delta=1e-300)
    assert abs(result.upper - 0.4364) < 5e-5 and result.upper - result.lower <= 1e-6 * result.upper
    assert mp_one_direction(10_000, result.worst_k, 1, mpmath.mpf(result.lower)) > mpmath.mpf("1e-300")
    assert mp_one_direction(10_000, result.worst_k, 1, mpmath.mpf(result.upper)) <= mpmath.mpf("1e-300")


@pytest.mark.parametrize("eps0", [30.0, 50.0, MAX_EPS0])
def test_large_eps0_in_log_space(eps0):
    # Almost no one flips: eps is just below eps0; the 50-digit pair value confirms the lower end.
    n, delta = 1000, 1e-12
    result = worst_case(eps0=eps0, n=n, delta=delta)
    assert 0 < result.lower <= result.upper <= eps0 and result.upper - result.lower <= 1e-6 * result.upper
    assert mp_one_direction(n, result.worst_k, eps0, mpmath.mpf(result.lower)) > delta


def test_eps0_above_the_documented_maximum_is_refused():
    with pytest.raises(ParameterError, match="eps0"):
        shuffled_binary_rr(eps0=MAX_EPS0 * 1.01, n=100, delta=1e-6)
    with pytest.raises(ParameterError, match="delta"):
        shuffled_binary_rr(eps0=1.0, n=100, delta=1e-301)


@pytest.mark.parametrize("n, eps0, expected", [(10_000, 1.0, 0.0357), (10_000, 4.0, 0.315), (100_000, 2.0, 0.0247)])
def test_check_n10_values(n, eps0, expected):
    # bbgn19.md check N10 (delta = 1e-6), printed to 3 significant digits: tolerance half a unit of the last digit.
    result = shuffled_binary_rr(eps0=eps0, n=n, delta=1e-6)
    half_unit = 0.5 * 10 ** (math.floor(math.log10(expected)) - 2)
    assert abs(result.upper - expected) <= half_unit


def test_worst_count_is_not_always_zero():
    # bbgn19.md section 8: n=200, eps0=2, eps=0.3: the worst k is 1, not 0.
    by_k = [binary_rr_pair_delta(eps0=2.0, n=200, k=k, eps=0.3) for k in range(4)]
    assert by_k[1].lower > by_k[0].upper
    assert max(range(4), key=lambda k: by_k[k].upper) == 1


def _mp_binomial_pmf(m, r):
    """Pr[Bin(m, r) = i], i = 0..m, in mpmath by the exact ratio recurrence from the larger end term."""
    s = 1 - r
    if r <= s:
        out = [s**m]
        for i in range(m):
            out.append(out[-1] * (m - i) / (i + 1) * r / s)
        return out
    out = [r**m]  # from i = m downwards
    for i in range(m, 0, -1):
        out.append(out[-1] * i / (m - i + 1) * s / r)
    return out[::-1]


def mp_one_direction(n, k, eps0, eps):
    """D_{e^eps}(P_k || Q_k) in 50-digit mpmath (full sums): k ones among the other n-1 users."""
    e0 = mpmath.exp(mpmath.mpf(eps0))
    p, q = e0 / (e0 + 1), 1 / (e0 + 1)
    ones, zeros = _mp_binomial_pmf(k, p), _mp_binomial_pmf(n - 1 - k, q)
    if len(ones) > len(zeros):
        ones, zeros = zeros, ones
    f = [mpmath.mpf(0)] * n
    for i, wi in enumerate(ones):
        if wi == 0:
            continue
        for j, wj in enumerate(zeros):
            f[i + j] += wi * wj
    e = mpmath.exp(eps)
    total = mpmath.mpf(0)
    for s in range(n + 1):
        here = f[s] if s < n else 0
        prev = f[s - 1] if s >= 1 else 0
        total += max(p * prev + q * here - e * (q * prev + p * here), 0)
    return total


@pytest.mark.parametrize("n, k, eps0, eps", [(30, 0, 1.0, 0.2), (60, 3, 2.0, 0.5), (120, 7, 0.5, 0.05), (50, 49, 3.0, 1.0), (200, 100, 1.0, 0.3)])
def test_certified_pair_delta_contains_mpmath_value(n, k, eps0, eps):
    got = binary_rr_pair_delta(eps0=eps0, n=n, k=k, eps=eps)
    exact = max(mp_one_direction(n, k, eps0, mpmath.mpf(eps)), mp_one_direction(n, n - 1 - k, eps0, mpmath.mpf(eps)))
    assert got.lower <= exact <= got.upper
    assert got.upper - got.lower <= 1e-6 * exact


def _one_direction_fraction(e_eps0: Fraction, ones: int, zeros: int, e_eps: Fraction) -> Fraction:
    rr = binary_randomized_response(e_eps0)
    rest = (1,) * ones + (0,) * zeros
    return hockey_stick_divergence(shuffled_distribution(rr, (1,) + rest), shuffled_distribution(rr, (0,) + rest), e_eps)


def test_removal_bound_on_exact_instances():
    # Removing users is post-processing: every pair of the block [K, K+B] is below the population n-B with K
    # ones (exact Fractions), and the certified block bound contains that population's value.
    n, e_eps0, e_eps = 7, Fraction(2), Fraction(5, 4)
    exact = {k: _one_direction_fraction(e_eps0, k, n - 1 - k, e_eps) for k in range(n)}
    strict = 0
    for start in range(n):
        for width in range(1, n - start):
            reduced = _one_direction_fraction(e_eps0, start, n - 1 - start - width, e_eps)
            assert all(exact[k] <= reduced for k in range(start, start + width + 1))
            strict += all(exact[k] < reduced for k in range(start, start + width + 1))
            got = block_delta_bound(eps0=math.log(2), n=n, start=start, width=width, eps=math.log(1.25))
            assert got.lower - 1e-12 <= float(reduced) <= got.upper + 1e-12
    assert strict > 0  # the bound is not trivially an equality


def test_pair_is_a_lower_bound_and_exact_for_its_pair():
    # exact.shuffled_binary_rr.pair: its value (lower end) is below the worst case; its interval contains the
    # exact eps of that pair (both directions), located by the 50-digit values on either side.
    n, eps0, delta = 300, 2.0, 1e-3
    worst = worst_case(eps0=eps0, n=n, delta=delta)
    for k in (0, 5, 150):
        pair = binary_rr_pair_epsilon(eps0=eps0, n=n, delta=delta, k=k)
        value = shuffled_binary_rr_pair(eps0=eps0, n=n, delta=delta, k=k)
        # The value is the pair's lower end; the interval is the pair's certified one (it holds the pair's exact eps).
        assert value.value == value.lower == pair.lower <= worst.upper and (value.lower, value.upper) == (pair.lower, pair.upper)
        both = [mp_one_direction(n, j, eps0, mpmath.mpf(pair.lower)) for j in (k, n - 1 - k)]
        assert max(both) > delta
        both = [mp_one_direction(n, j, eps0, mpmath.mpf(pair.upper)) for j in (k, n - 1 - k)]
        assert max(both) <= delta


def test_monotone_in_n_eps0_delta():
    base = shuffled_binary_rr(eps0=2.0, n=5_000, delta=1e-6).upper
    assert shuffled_binary_rr(eps0=2.0, n=10_000, delta=1e-6).lower <= base
    assert shuffled_binary_rr(eps0=2.5, n=5_000, delta=1e-6).upper >= base
    assert shuffled_binary_rr(eps0=2.0, n=5_000, delta=1e-5).lower <= base


@pytest.mark.parametrize("eps0, n, delta", [(30.0, 10**6, 1e-30), (0.5, 3000, 1e-30), (30.0, 3, 1e-3), (1.0, 1, 0.5)])
def test_robust_at_extreme_parameters(eps0, n, delta):
    result = shuffled_binary_rr(eps0=eps0, n=n, delta=delta)
    assert math.isfinite(result.upper) and 0 <= result.lower <= result.upper <= eps0
    assert "worst k" in result.note


def test_one_direction_mirror_symmetry():
    # The bit flip: D(Q_k || P_k) = D(P_{n-1-k} || Q_{n-1-k}); the pair delta is the max of both directions.
    n, eps0, eps = 40, 1.5, 0.4
    for k in (0, 3, 20):
        both = binary_rr_pair_delta(eps0=eps0, n=n, k=k, eps=eps)
        a = one_direction_delta(eps0=eps0, n=n, k=k, eps=eps)
        b = one_direction_delta(eps0=eps0, n=n, k=n - 1 - k, eps=eps)
        assert both.upper == max(a.upper, b.upper)
        mirrored = binary_rr_pair_delta(eps0=eps0, n=n, k=n - 1 - k, eps=eps)
        assert abs(mirrored.upper - both.upper) <= 1e-9 * both.upper


def _thinned_mixture(e_eps0: Fraction, ones: int, zeros: int, width: int, e_eps: Fraction) -> Fraction:
    lam = 1 - 1 / e_eps0  # 1 - e^-eps0: a user holding 1 acts as one holding 0 w.p. e^-eps0
    return sum(
        (math.comb(width, j) * lam**j * (1 - lam) ** (width - j) * _one_direction_fraction(e_eps0, ones, zeros + width - j, e_eps) for j in range(width + 1)),
        Fraction(0),
    )


def test_thinned_removal_bound_on_exact_instances():
    # Thinned removal (exact Fractions): every pair of the block [K, K+B] is below E_{J ~ Bin(B, 1 - e^-eps0)} of
    # the population with K ones and n-1-K-J zeros, which is itself below the plain removal bound, strictly
    # somewhere; the certified thinned bound is above every pair of its block.
    n, e_eps0, e_eps = 7, Fraction(3), Fraction(6, 5)
    exact = {k: _one_direction_fraction(e_eps0, k, n - 1 - k, e_eps) for k in range(n)}
    strict = 0
    for start in range(n):
        for width in range(n - start):
            mixture = _thinned_mixture(e_eps0, start, n - 1 - start - width, width, e_eps)
            removal = _one_direction_fraction(e_eps0, start, n - 1 - start - width, e_eps)
            assert all(exact[k] <= mixture for k in range(start, start + width + 1))
            assert mixture <= removal
            strict += mixture < removal
            got = thinned_block_delta_bound(eps0=math.log(3), n=n, start=start, width=width, eps=math.log(1.2))
            assert got.upper + 1e-12 >= max(float(exact[k]) for k in range(start, start + width + 1))
    assert strict > 0


@pytest.mark.parametrize("eps0, n, start, width, eps", [(0.1, 600, 40, 500, 0.02), (1.0, 600, 0, 599, 0.1), (0.5, 3000, 1000, 1500, 0.04)])
def test_thinned_bound_removes_fewer_users_and_stays_above_every_pair(eps0, n, start, width, eps):
    # Where the thinning is active (j < width), the certified bound is still above the certified lower end of
    # every pair of the block (every k checked), and below the plain removal bound.
    got = thinned_block_delta_bound(eps0=eps0, n=n, start=start, width=width, eps=eps)
    removed = int(got.note.split("n - ")[1].split(" ")[0])
    assert removed < width
    worst = max(one_direction_delta(eps0=eps0, n=n, k=k, eps=eps).lower for k in range(start, start + width + 1))
    assert worst <= got.upper
    assert got.upper <= block_delta_bound(eps0=eps0, n=n, start=start, width=width, eps=eps).upper
