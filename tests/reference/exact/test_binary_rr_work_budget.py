"""exact.shuffled_binary_rr within its deterministic work budget: the coarse-first
certification returns a certified (widened) interval where the call used to refuse, checked against an
independent float scan over every k, the pair values (exact.shuffled_binary_rr.pair) and the full-budget
result; and the float anchors of the binomial windows against 50-digit mpmath."""

import math

import mpmath
import numpy as np
import pytest

from support.brute_sums import float_scan_pairs

import shuffle_spec.reference.exact.binary_rr as ebr
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.exact.binary_rr import binary_rr_pair_epsilon, shuffled_binary_rr, shuffled_binary_rr_pair, worst_case

UNIT = 2.0**-53


# ---------------------------------------------------------------- float anchors (Stirling, integer ratios)


def _mp_log_pmf(k: int, m: int, eps0: float, keep: bool) -> mpmath.mpf:
    """log Pr[Bin(m, p) = k] in 50 digits; p = e^eps0/(e^eps0+1) (keep) or 1/(e^eps0+1) (flip)."""
    with mpmath.workdps(50):
        r = mpmath.exp(-mpmath.mpf(eps0))
        p, q = 1 / (1 + r), r / (1 + r)
        if not keep:
            p, q = q, p
        return mpmath.loggamma(m + 1) - mpmath.loggamma(k + 1) - mpmath.loggamma(m - k + 1) + k * mpmath.log(p) + (m - k) * mpmath.log(q)


@pytest.mark.parametrize("eps0", [0.05, 1.0, 4.0, 10.0, 15.0])
def test_float_log_pmf_encloses_the_50_digit_value(eps0):
    # Counts at the mode (where the windows anchor: the bound must be below FLOAT_ANCHOR_ERROR there, else the
    # slower routes are taken) and 3 and 30 standard deviations away (the enclosure must still hold).
    keep, flip = ebr._keep_pair(eps0)
    used = 0
    for is_keep, pair in ((True, keep), (False, flip)):
        for m in (120, 777, 10_003, 10**7 + 1, 12_345_678_901, 10**12):
            sd = math.sqrt(m * pair.p * pair.q)
            mode = int(math.floor((m + 1) * pair.p))
            for shift in (0.0, -3.0, 3.0, -30.0, 30.0):
                k = min(max(int(mode + shift * sd), 0), m)
                got = ebr._log_pmf_float(k, m, pair)
                if got is None:  # small counts, or far in a tail (y < -1/2): the other routes are taken
                    assert min(k, m - k) < ebr.FLOAT_ANCHOR_MIN or shift != 0.0
                    continue
                used += 1
                value, err = got
                exact = _mp_log_pmf(k, m, eps0, is_keep)
                assert abs(exact - mpmath.mpf(value)) <= err
                if shift == 0.0:
                    assert err < ebr.FLOAT_ANCHOR_ERROR / 4
    assert used >= 8


def test_stirling_remainder_is_enclosed():
    # r(x) = log x! - (x log x - x + log(2 pi x)/2) between the two partial sums (up to the float rounding
    # the caller adds: 16u / x).
    for x in (50, 51, 99, 1000, 10**6, 10**12):
        with mpmath.workdps(60):
            xx = mpmath.mpf(x)
            exact = mpmath.loggamma(xx + 1) - (xx * mpmath.log(xx) - xx + mpmath.log(2 * mpmath.pi * xx) / 2)
        lo, hi = ebr._stirling_r(float(x), -1), ebr._stirling_r(float(x), 1)
        assert lo - 16 * UNIT / x <= exact <= hi + 16 * UNIT / x
        assert hi - lo <= 1 / (1680 * x**7) * 1.01


def test_float_anchored_window_agrees_with_the_interval_route(monkeypatch):
    # The same certified window built from the float anchor and from the 100-bit interval anchor: every value
    # within the sum of both certified relative errors, which are both tiny.
    keep, flip = ebr._keep_pair(4.0)
    for pair, m in ((keep, 1_000_003), (flip, 2_000_017), (keep, 10**10 + 7)):
        fast = ebr._scaled_window(m, pair, math.log(1e-15), -6.9)
        monkeypatch.setattr(ebr, "FLOAT_ANCHOR_MIN", 10**15)
        ebr._ANCHORS.clear()
        slow = ebr._scaled_window(m, pair, math.log(1e-15), -6.9)
        monkeypatch.undo()
        assert fast.lo == slow.lo and len(fast.pmf) == len(slow.pmf)
        assert fast.rel < 1e-10 and slow.rel < 1e-10
        assert np.all(np.abs(fast.pmf - slow.pmf) <= (fast.rel + slow.rel) * slow.pmf + 1e-300)


# ---------------------------------------------------------------- coarse-first certification within the budget


# The same refusal-then-widened-certificate at a second budget: the second tier.
@pytest.mark.parametrize("budget", [1_000_000, pytest.param(1_600_000, marks=pytest.mark.slow)])
def test_a_budget_that_refused_now_certifies_a_widened_interval(monkeypatch, budget):
    # eps0 = 1, n = 4000, delta = 1e-6 with WORK_BUDGET = 1e6 or 1.6e6 (in the units of EVALUATION_WORK =
    # 5000): a fine-first sweep refused ("0.01 not reached"); the coarse-first one certifies
    # an interval within 1% (widened), containing the truth:
    # the independent scan has every pair within delta at its upper end and some pair above delta at its
    # lower end; the explicit pairs' exact eps are below its upper end; it intersects the full-budget result.
    eps0, n, delta = 1.0, 4000, 1e-6
    full = worst_case(eps0=eps0, n=n, delta=delta)
    assert full.tolerance == 1e-6
    monkeypatch.setattr(ebr, "WORK_BUDGET", budget)
    monkeypatch.setattr(ebr, "EVALUATION_WORK", 5000)
    limited = worst_case(eps0=eps0, n=n, delta=delta)
    note = shuffled_binary_rr(eps0=eps0, n=n, delta=delta).note
    again = worst_case(eps0=eps0, n=n, delta=delta)
    monkeypatch.undo()
    assert 1e-6 < limited.tolerance <= ebr.MAX_TOLERANCE
    assert 0 < limited.upper - limited.lower <= limited.tolerance * limited.upper
    assert "widened from 1e-06" in note
    assert again == limited  # deterministic: work is counted, never seconds
    assert limited.lower <= full.upper and full.lower <= limited.upper
    at_upper, at_lower = float_scan_pairs(n, eps0, [limited.upper, limited.lower])
    assert at_upper.max() <= delta * (1 + 1e-9)
    assert at_lower[limited.worst_k] >= delta * (1 - 1e-9)
    for k in (0, 1, n // 2, n - 2, n - 1, limited.worst_k):
        assert shuffled_binary_rr_pair(eps0=eps0, n=n, delta=delta, k=k).upper <= limited.upper
    assert limited.lower <= binary_rr_pair_epsilon(eps0=eps0, n=n, delta=delta, k=limited.worst_k).upper


def test_a_budget_below_the_coarse_level_refuses_with_the_reason(monkeypatch):
    monkeypatch.setattr(ebr, "WORK_BUDGET", 200_000)
    with pytest.raises(ParameterError, match="0.01 relative within the work budget"):
        worst_case(eps0=1.0, n=4000, delta=1e-6)


def test_guide_respects_its_work_limit():
    # The guide stops evaluating once its limit is passed (it evaluated at least one count).
    pairs = ebr._Pairs(4.0, 1e-6, 10**6, limited=True)
    k, _ = ebr._guide(pairs, 10**6, 0.02, limit=1.0)
    assert pairs.evaluations == 1 and 0 <= k < 10**6


def test_n_1e10_eps0_6_is_certified_not_refused():
    # A fine-first sweep refused ("1% not reached within the work budget"); the coarse-first one gives a certified
    # interval within 1%, above the exact eps of the worst pair found and of the pair k = 0 (both directions).
    eps0, n, delta = 6.0, 10**10, 1e-6
    result = worst_case(eps0=eps0, n=n, delta=delta)
    assert 0 < result.upper - result.lower <= ebr.MAX_TOLERANCE * result.upper
    for k in (0, result.worst_k):
        pair = binary_rr_pair_epsilon(eps0=eps0, n=n, delta=delta, k=k)
        assert pair.upper <= result.upper
    assert result.lower <= binary_rr_pair_epsilon(eps0=eps0, n=n, delta=delta, k=result.worst_k).upper


def test_an_interval_wider_than_max_tolerance_is_refused_not_returned(monkeypatch):
    # eps0 = 1, n = 1e10, delta = 1e-6 with pairs whose certified delta brackets have no lower end (0: valid,
    # uninformative): the sweeps certify an upper end, but no pair certifies a lower end above 0; a 93% wide
    # interval was returned by an earlier draft (there with pmf values bounded by the whole dropped mass, whose
    # pair lower ends the certified search now narrows to 3e-6 relative). The documented contract: refuse
    # beyond MAX_TOLERANCE.
    original = ebr._Pair.delta_bounds
    monkeypatch.setattr(ebr._Pair, "delta_bounds", lambda self, eps: (0.0, original(self, eps)[1]))
    with pytest.raises(ParameterError, match="0.01 relative within the work budget"):
        worst_case(eps0=1.0, n=10**10, delta=1e-6)


def test_eps0_1_at_n_1e10_is_certified_and_contains_the_pair_of_zeros():
    """The cell that refused above: with pointwise pmf bounds it is certified (1% at most), and its interval
    holds the pair "others all 0" computed independently (scipy floats) as a lower bound on the worst case."""
    result = worst_case(eps0=1.0, n=10**10, delta=1e-6)
    assert result.upper - result.lower <= 0.01 * result.upper
    assert _independent_pair_zero_epsilon(1.0, 10**10, 1e-6) <= result.upper * (1 + 1e-9)


def _independent_pair_zero_epsilon(eps0: float, n: int, delta: float) -> float:
    """eps of the pair "user 1 holds 1 vs 0, the other n-1 users hold 0" from scipy's binomial pmf on a
    +-12 sd window (an independent float computation: no certified arithmetic), both directions."""
    from scipy.optimize import brentq
    from scipy.stats import binom

    q = 1 / (1 + math.exp(eps0))
    p = 1 - q
    m = n - 1
    sd = math.sqrt(m * p * q)
    s = np.arange(max(int(m * q - 12 * sd), 0), int(m * q + 12 * sd) + 2)
    f = binom.pmf(s, m, q)
    f_before = np.concatenate([[0.0], f[:-1]])  # Pr[S = s - 1]

    def excess(eps: float) -> float:
        ones, zero = p * f_before + q * f, q * f_before + p * f  # user 1 at 1 / at 0, total count s
        e = math.exp(eps)
        return max(np.maximum(ones - e * zero, 0).sum(), np.maximum(zero - e * ones, 0).sum()) - delta

    return brentq(excess, 0.0, eps0, xtol=1e-15, rtol=1e-12)


@pytest.mark.parametrize("eps0, delta", [(1.0, 1e-6), (1.0, 1e-12), (0.1, 1e-12)])
def test_a_pair_with_eps_near_0_at_n_1e10_is_solved_to_its_tolerance(eps0, delta):
    """At n = 1e10 and small eps0 the threshold's sign is ambiguous over more than 64 counts (the ratio
    f(s-1)/f(s) moves by 1/variance per count, below the pmf's certified relative width); the upper end
    then fell back to the whole tail T(low) and the pair's eps interval was [2e-7, 5.3e-5] for an eps of
    ~3.5e-5 (eps0 = 1), so the worst case refused. Now that range is bounded through the monotone ratio."""
    value = binary_rr_pair_epsilon(eps0=eps0, n=10**10, delta=delta, k=0)
    lower, upper = value.lower, value.upper
    assert upper - lower <= 1e-6 * upper
    independent = _independent_pair_zero_epsilon(eps0, 10**10, delta)
    assert lower * (1 - 1e-9) <= independent <= upper * (1 + 1e-9)


def _scipy_count_pmf(eps0: float, ones: int, zeros: int) -> np.ndarray:
    """Pr[Bin(ones, p) + Bin(zeros, q) = s] for s = 0 .. ones + zeros by direct convolution of scipy pmfs
    (independent of the certified windows)."""
    from scipy.stats import binom

    q = 1 / (1 + math.exp(eps0))
    first = binom.pmf(np.arange(ones + 1), ones, 1 - q)
    second = binom.pmf(np.arange(zeros + 1), zeros, q)
    return np.convolve(first, second)


@pytest.mark.parametrize("eps0, ones, zeros, delta", [(1.0, 1500, 2500, 1e-6), (0.5, 0, 6000, 1e-12), (3.0, 300, 5000, 1e-9)])
def test_pointwise_pmf_bounds_enclose_the_exact_pmf_where_the_windows_cut(eps0, ones, zeros, delta):
    """`_bounds_f` adds only what one count can miss outside the windows (`_point_dropped`), not the whole
    dropped mass: at every count of the support the true scaled pmf must lie in the bounds, including the
    counts just outside the windows (windowed value 0). The windows here are far narrower than the support."""
    pairs = ebr._Pairs(eps0, delta)
    pair = pairs.get(ones + zeros + 1, ones)
    bottom, top = pair.support
    assert top - bottom < (ones + zeros) / 2  # the windows really cut
    exact = _scipy_count_pmf(eps0, ones, zeros)
    scale = math.exp(ebr._log_scale(delta))  # the windows hold e^-L Pr[...], L = log(delta) clamped
    for s in range(max(bottom - 40, 0), min(top + 41, ones + zeros + 1)):
        low, high = pair._bounds_f(pair._f(s))
        true = exact[s] / scale
        assert low * (1 - 1e-12) <= true <= high * (1 + 1e-12) + 1e-300, (s, low, true, high)
    assert pair._point_dropped <= pair._bounds(0.0)[1]


@pytest.mark.parametrize("eps0, ones, zeros, delta", [(1.0, 0, 40000, 1e-6), (0.5, 700, 20000, 1e-9)])
def test_the_ambiguous_threshold_range_bound_encloses_the_exact_divergence(monkeypatch, eps0, ones, zeros, delta):
    """Force the monotone-ratio bound of a wide ambiguous threshold range (AMBIGUOUS_STEPS = 0: taken at every
    evaluation) and check the certified delta against the exact one from scipy pmfs, at several eps near the
    root (where the ambiguous range sits in the bulk) and away from it."""
    monkeypatch.setattr(ebr, "AMBIGUOUS_STEPS", 0)
    exact_pmf = _scipy_count_pmf(eps0, ones, zeros)
    q = 1 / (1 + math.exp(eps0))
    p = 1 - q
    before = np.concatenate([[0.0], exact_pmf])
    at = np.concatenate([exact_pmf, [0.0]])
    pair = ebr._Pairs(eps0, delta).get(ones + zeros + 1, ones)
    for eps in (1e-5, 1e-3, 0.02, 0.1):
        e = math.exp(eps)
        one, zero = p * before + q * at, q * before + p * at  # user 1 at 1 / at 0: P, Q of the count
        exact = float(np.maximum(one - e * zero, 0).sum())
        low, high = pair.delta_bounds(eps)
        assert low * (1 - 1e-9) <= exact <= high * (1 + 1e-9), (eps, low, exact, high)
        # Width: relative, plus the mass the windows may drop (TAIL_FRACTION delta each, module doc).
        assert high - low <= 1e-3 * exact + 4 * ebr.TAIL_FRACTION * delta
