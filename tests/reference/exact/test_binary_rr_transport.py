"""The transport bound of exact.shuffled_binary_rr (the flat regime; reference/exact/binary_rr_transport.py).

Checked against independent float computations of the exact curves G(k, s) = a Pr[S_k >= s-1] - b Pr[S_k >= s]
(scipy binomial pmfs, direct convolution): the error of both mixtures stays below the bound at every s and
every sampled j, and reaches a sizeable fraction of it (the bound is not vacuous); the block check never
certifies a block whose largest pair is above delta, and certifies it once delta is a little above that pair.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support.brute_sums import float_scan_pairs

from shuffle_spec.reference.exact import binary_rr as ebr
from shuffle_spec.reference.exact import binary_rr_transport as transport




def _binom_pmf(x, m, p):
    """scipy.stats.binom's pmf, imported on first use: SciPy's stats package costs every test worker ~1 s to
    collect, and only this file's tests need it."""
    from scipy.stats import binom

    return binom.pmf(x, m, p)

def _keep(eps0: float) -> tuple[float, float]:
    return math.exp(eps0) / (1 + math.exp(eps0)), 1 / (1 + math.exp(eps0))


def _curve(m: int, k: int, p: float, a: float, b: float):
    """s -> G(k, s) for integer arrays s (T(t) = 1 for t <= 0 and 0 above m)."""
    f = np.convolve(_binom_pmf(np.arange(k + 1), k, p), _binom_pmf(np.arange(m - k + 1), m - k, 1 - p))
    tail = np.concatenate([np.cumsum(f[::-1])[::-1], [0.0]])

    def tails(t: np.ndarray) -> np.ndarray:
        inside = np.clip(t, 0, len(tail) - 1)
        return np.where(t <= 0, 1.0, np.where(t >= len(tail), 0.0, tail[inside]))

    return lambda s: a * tails(s - 1) - b * tails(s)


def _quadratic(curve, y: np.ndarray) -> np.ndarray:
    """Interpolant through the three counts nearest y (nodes round(y) - 1, round(y), round(y) + 1)."""
    t0 = np.round(y).astype(int)
    u = y - t0
    return curve(t0 - 1) * u * (u - 1) / 2 + curve(t0) * (1 - u * u) + curve(t0 + 1) * u * (u + 1) / 2


def _linear(curve, y: np.ndarray) -> np.ndarray:
    """Two-point mixture: weight ceil(y) - y on floor(y), the rest on ceil(y) (exactly the convex mixture)."""
    low = np.floor(y).astype(int)
    frac = y - low
    return (1 - frac) * curve(low) + frac * curve(low + 1)


def _worst_ratio(n: int, eps0: float, eps: float, k0: int, k1: int, *, quadratic: bool, smooth: bool = True, samples: int = 13) -> float:
    """max over sampled j and every s of |G(k0 + j, s) - mixture| / bound."""
    m, (p, q) = n - 1, _keep(eps0)
    e = math.exp(eps)
    a, b = p - e * q, e * p - q
    width = k1 - k0
    ends = (_curve(m, k0, p, a, b), _curve(m, k1, p, a, b))
    target = math.log(b / a)  # the kernel's zero: near the tilt that the check uses
    taus = [target * f for f in (0.25, 0.5, 0.7, 0.85, 1.0, 1.15, 1.3, 1.6, 2.0) if target * f < 0.45 * eps0]
    table = [(t, transport.log_error_constant(eps0=eps0, p=p, q=q, eps=eps, m=m, ones=k0, width=width, tau=t, smooth=smooth, quadratic=quadratic)) for t in taus]
    s = np.arange(-1, m + 3)
    interpolate = _quadratic if quadratic else _linear
    worst = 0.0
    for j in sorted({int(x) for x in np.linspace(0, width, samples)}):
        lam = 1 - j / width
        s_prime = s - j * (p - q)
        mixture = lam * interpolate(ends[0], s_prime) + (1 - lam) * interpolate(ends[1], s_prime + width * (p - q))
        error = np.abs(_curve(m, k0 + j, p, a, b)(s) - mixture)
        bound = np.min([np.exp(np.minimum(log_c - t * s_prime, 700.0)) for t, log_c in table], axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            worst = max(worst, float(np.max(np.where(error == 0, 0.0, error / bound))))
    return worst


CASES = [(3000, 1.0, 0.08), (3000, 4.0, 0.2), (3000, 0.1, 0.003)]
BLOCKS = [(0, 2999), (1000, 1010), (0, 300)]


@pytest.mark.parametrize("quadratic", [False, True])
@pytest.mark.parametrize("n, eps0, eps", CASES)
def test_mixture_error_is_within_the_bound_on_exact_curves(n, eps0, eps, quadratic):
    ratios = [_worst_ratio(n, eps0, eps, k0, k1, quadratic=quadratic) for k0, k1 in BLOCKS]
    assert max(ratios) <= 1.0, ratios
    # Not vacuous: somewhere the true error is a sizeable part of the bound.
    assert max(ratios) >= 0.2, ratios


@pytest.mark.parametrize("quadratic", [False, True])
def test_the_smooth_term_is_needed_for_wide_blocks(quadratic):
    # Without the B^2 term the bound fails on the widest block: the check above can tell a wrong bound.
    assert _worst_ratio(3000, 1.0, 0.08, 0, 2999, quadratic=quadratic, smooth=False) > 1.0


def test_quadratic_cell_upper_bounds_every_quadratic_through_the_intervals():
    rng = np.random.default_rng(7)
    u = np.linspace(-0.5, 0.5, 401)
    gap = 0.0
    for _ in range(300):
        mid, half = rng.normal(size=3), np.abs(rng.normal(size=3)) * rng.choice([0.0, 0.1])
        lo, up = mid - half, mid + half
        bound = transport.quadratic_cell_upper((lo[0], up[0]), (lo[1], up[1]), (lo[2], up[2]))
        for _ in range(4):
            g = lo + (up - lo) * rng.random(3)
            q = g[0] * u * (u - 1) / 2 + g[1] * (1 - u * u) + g[2] * u * (u + 1) / 2
            assert q.max() <= bound
        if not half.any():
            gap = max(gap, bound - float((mid[0] * u * (u - 1) / 2 + mid[1] * (1 - u * u) + mid[2] * u * (u + 1) / 2).max()))
    assert gap < 1e-4  # exact values: the bound is the quadratic's maximum (up to the grid of u above)


def test_max_pmf_bound_is_the_scaled_bessel_function_with_its_margin():
    """max_pmf_bound = e^-x I_0(x) (1 + 1e-12), x = m p q (1 - 8u), by mpmath at 30 digits (no SciPy on the k = 2
    `tightest` path): against scipy's i0e (within 1e-14 relative, its documented accuracy) from x = 0 to 2.5e9."""
    from scipy.special import i0e

    for m in (0, 1, 2, 7, 100, 12_345, 10**6, 10**8, 10**10):
        for eps0 in (1e-6, 0.5, 1.0, 4.0, 8.0):
            p, q = _keep(eps0)
            x = m * p * q * (1 - 8 * 2.0**-53)
            bound = transport.max_pmf_bound(p=p, q=q, m=m)
            assert abs(bound / (float(i0e(x)) * (1 + 1e-12)) - 1) <= 1e-14, (m, eps0)


@pytest.mark.parametrize("m, eps0", [(10, 1.0), (1000, 0.1), (1000, 4.0), (20_000, 1.0)])
def test_max_pmf_bound_is_above_every_pmf_and_close(m, eps0):
    p, q = _keep(eps0)
    bound = transport.max_pmf_bound(p=p, q=q, m=m)
    largest = 0.0
    for k in sorted({0, m // 3, m // 2, m}):
        lo, hi = max(0, int(m * q + k * (p - q) - 10 * math.sqrt(m) - 10)), min(m, int(m * q + k * (p - q) + 10 * math.sqrt(m) + 10))
        x = np.arange(lo, hi + 1)
        pmf = np.convolve(_binom_pmf(np.arange(k + 1), k, p), _binom_pmf(np.arange(m - k + 1), m - k, q))[x]
        largest = max(largest, float(pmf.max()))
    assert largest <= bound
    if m * p * q > 100:
        assert bound <= 1.02 * largest


# Each case scans all n = 8000 pairs independently (3-4 s of CPU): eps0 = 0.1 in the default tier, the same
# check at eps0 = 1 in the second tier.
@pytest.mark.parametrize("eps0, eps", [(0.1, 0.00308), pytest.param(1.0, 0.0403, marks=pytest.mark.slow)])
def test_block_check_never_certifies_a_block_above_delta(eps0, eps):
    # n = 8000, eps ~ the worst case at delta = 1e-6 (0.0030817, 0.0402789). delta is set just below / above the
    # largest pair of each block (an independent float scan over every k).
    n = 8_000
    d = float_scan_pairs(n, eps0, [eps])[0]
    outcomes = []
    for k0, k1 in [(0, n - 1), (3_999, n - 1), (n - 201, n - 1), (5, 60)]:
        top = float(d[k0 : k1 + 1].max())
        below = ebr._transport_block(ebr._Pairs(eps0, top * (1 - 1e-6), n), n, k0, k1, eps)[0]
        assert below != "pass", (k0, k1)
        outcomes.append(ebr._transport_block(ebr._Pairs(eps0, top * (1 + 1e-2), n), n, k0, k1, eps)[0])
    assert outcomes.count("pass") >= 3, outcomes


@pytest.mark.parametrize("eps0, delta", [(0.1, 1e-6), (1.0, 1e-12)])
def test_transport_and_the_removal_sweep_certify_overlapping_intervals(eps0, delta, monkeypatch):
    n = 1_000_000
    with_transport = ebr.worst_case(eps0=eps0, n=n, delta=delta)
    assert with_transport.route == "transport"
    monkeypatch.setattr(ebr, "_transport_certify", lambda *args, **kwargs: None)
    sweep = ebr.worst_case(eps0=eps0, n=n, delta=delta, rel_tol=1e-4)
    assert sweep.route == "removal"
    # Both are certified intervals around the same maximum.
    assert with_transport.upper >= sweep.lower and sweep.upper >= with_transport.lower
    assert with_transport.upper - with_transport.lower <= 1e-6 * with_transport.upper
    # Pairs spread over [0, n-1] (certified lower ends) all lie below the transport's upper end.
    for k in (0, 1, 17, n // 3, n // 2, n - 40, n - 2, n - 1):
        assert ebr.binary_rr_pair_epsilon(eps0=eps0, n=n, delta=delta, k=k).lower <= with_transport.upper


def test_small_variance_falls_back_to_the_removal_sweep():
    # eps0 = 8, n = 2e4: n p q ~ 7, the lattice term alone exceeds any margin; the sweep certifies.
    result = ebr.worst_case(eps0=8.0, n=20_000, delta=1e-6)
    assert result.route == "removal"
    assert result.upper - result.lower <= 1e-6 * result.upper




@pytest.mark.deep  # randomized block soundness against full float scans: ~3.5 min (the two fixed cases above run by default)
@settings(max_examples=40, deadline=None)
@given(
    eps0=st.sampled_from([0.05, 0.2, 0.5, 1.0, 2.0, 3.0, 5.0]),
    n=st.sampled_from([4000, 6000, 10000, 15000]),
    delta=st.sampled_from([1e-3, 1e-5, 1e-7, 1e-9]),
    scale=st.sampled_from([0.98, 1.0, 1.02]),
    start=st.floats(0.0, 1.0),
    span=st.sampled_from([2, 50, 1000, None]),
)
def test_block_check_soundness_randomized(eps0, n, delta, scale, start, span):
    # Offline, 240 such blocks (seeds 5 and 11): no block passed below its largest pair; 60% passed at +1%.
    eps = ebr.worst_case(eps0=eps0, n=n, delta=delta, rel_tol=1e-4).upper * scale
    d = float_scan_pairs(n, eps0, [eps])[0]
    k0 = int(start * (n - 2))
    k1 = n - 1 if span is None else min(n - 1, k0 + span)
    top = float(d[k0 : k1 + 1].max())
    if top < 1e-12:  # the float scan's absolute error (~1e-16) is not small enough below
        return
    assert ebr._transport_block(ebr._Pairs(eps0, top * (1 - 1e-6), n), n, k0, k1, eps)[0] != "pass"


# --- small eps0: the smooth term's denominator |Q|^2 and the tilted kernel without cancellation ---------------


@pytest.mark.parametrize("eps0", [1e-9, 1e-6, 1e-3, 0.5, 4.0, 20.0])
def test_q_modulus_squared_lower_is_below_the_exact_modulus_and_close(eps0):
    # |p + q e^tau e^{i theta}|^2 for the floats p, q, at 60 digits (mpmath, the definition); at theta = pi it is
    # (p - q e^tau)^2, about (eps0 / 2)^2, the difference of two numbers near 1 in the other form of it.
    p, q = _keep(eps0)
    theta = np.array([0.0, 1e-3, 1.0, 2.0, 3.0, 3.14159, math.pi])
    for tau in (0.45 * eps0, 0.01 * eps0, 1e-6 * eps0):
        bound = transport.q_modulus_squared_lower(p=p, q=q, tau=tau, theta=theta)
        with mpmath.workdps(60):
            exact = [abs(mpmath.mpf(p) + mpmath.mpf(q) * mpmath.exp(mpmath.mpf(tau)) * mpmath.expj(mpmath.mpf(float(t)))) ** 2 for t in theta]
            for value, truth in zip(bound, exact, strict=True):
                assert value <= truth, (eps0, tau, value, truth)
                assert value >= truth * (1 - 1e-12), (eps0, tau, value, truth)


def test_tiny_eps0_certifies_without_a_float_warning():
    # eps0 = 1e-9: the smooth term's denominator was computed as 0 at theta = pi (numpy: divide by zero, turned into
    # an error here since warnings are errors); the transport bound now has a finite constant there, and the answer
    # is still the exact one (delta(0) = TV of two pairs below 1e-6: eps = 0).
    p, q = _keep(1e-9)
    constant = transport.log_error_constant(eps0=1e-9, p=p, q=q, eps=5e-10, m=999, ones=333, width=19, tau=4e-10)
    assert math.isfinite(constant)
    result = ebr.worst_case(eps0=1e-9, n=1000, delta=1e-6)
    assert result.lower == result.upper == 0.0


@pytest.mark.parametrize(("eps0", "m", "ones", "width", "eps", "tau"), [
    (4.0, 999_999, 0, 999_999, 0.024, 0.02), (0.5, 99_999_999, 1_000, 5_000_000, 8e-5, 3e-4), (1.0, 2_000, 17, 300, 0.05, 0.3),
])
def test_the_shared_tilt_factors_give_the_floats_of_a_fresh_computation(eps0, m, ones, width, eps, tau):
    """The transport check bounds every block and tilt with two mixtures, which share the mixture-independent factors
    (`_tilt_factors`, cached): each mixture's constant, computed after the other one filled the cache, is the same
    float as computed from an empty cache; the cached factors are those of an uncached computation on the same grid."""
    p, q = _keep(eps0)
    inputs = {"eps0": eps0, "p": p, "q": q, "eps": eps, "m": m, "ones": ones, "width": width, "tau": tau}
    mixtures = [(True, True), (True, False), (False, True), (False, False)]
    fresh = {}
    for smooth, quadratic in mixtures:
        transport._tilt_factors.cache_clear()
        fresh[(smooth, quadratic)] = transport.log_error_constant(**inputs, smooth=smooth, quadratic=quadratic)
    transport._tilt_factors.cache_clear()
    for smooth, quadratic in mixtures:  # one filling, the others reading the cache
        assert transport.log_error_constant(**inputs, smooth=smooth, quadratic=quadratic) == fresh[(smooth, quadratic)]
    assert transport._tilt_factors.cache_info().hits >= 2 * len(mixtures) - 1
    shared = transport._tilt_factors(eps0, p, q, eps, m, ones, width, tau)
    again = transport._tilt_factors.__wrapped__(eps0, p, q, eps, m, ones, width, tau, shared.theta.copy())
    for name in ("log_damp", "kern_num", "kern_inv", "q_abs2", "zabs"):
        assert getattr(shared, name).tobytes() == getattr(again, name).tobytes(), name
    assert math.isfinite(fresh[(True, True)]) and fresh[(True, False)] != fresh[(True, True)]


def test_the_checked_blocks_that_pass_tile_every_count(monkeypatch):
    # eps0 = 4, n = 1e6, delta = 1e-6: the whole range fails with the prediction that ~33 blocks are needed; the half
    # holding the worse end (the top) inherits the prediction and is halved again without a check while it is >= 2.
    # Whatever is skipped, the blocks that were checked and passed must cover [0, n - 1] (consecutive blocks share
    # their end count), and fewer blocks are checked than plain halving needs (13 there: 7 pass, 6 fail).
    checked: list[tuple[int, int, str]] = []
    original = ebr._transport_block

    def recording(pairs, n, k0, k1, eps):
        outcome = original(pairs, n, k0, k1, eps)
        checked.append((k0, k1, outcome[0]))
        return outcome

    monkeypatch.setattr(ebr, "_transport_block", recording)
    n = 1_000_000
    result = ebr.worst_case(eps0=4.0, n=n, delta=1e-6)
    assert result.route == "transport"
    passed = sorted((k0, k1) for k0, k1, outcome in checked if outcome == "pass")
    assert passed[0][0] == 0 and passed[-1][1] == n - 1
    assert all(nxt[0] == prev[1] for prev, nxt in zip(passed[:-1], passed[1:], strict=True))
    assert any(outcome == "split" for _, _, outcome in checked)
    assert len(checked) < 2 * len(passed) - 1


def test_within_answers_as_the_least_bound_over_every_tilt():
    # `_TransportBlock.within` tries few tilts (from the last one that answered, downhill) and falls back to the least
    # bound over all of them: its answer must be that of base + error(u) <= limit at every u and limit, including the
    # limits one ulp either side of the exact sum. Each question goes to a block whose tilts are not yet computed
    # and to one that has seen the previous questions (its `last` tilt set by them).
    eps0, n = 4.0, 1_000_000
    keep, _ = ebr._keep_pair(eps0)
    k0, k1, eps = 900_000, 950_000, 0.0240139887
    taus = [0.02 * 0.8**i for i in range(ebr.TRANSPORT_TILTS)]

    def block() -> ebr._TransportBlock:
        made = ebr._TransportBlock(ebr._Pairs(eps0, 1e-6, n), n, k0, k1, eps)
        made.taus = list(taus)
        return made

    exact, seasoned = block(), block()
    mean = k0 * keep.p + (n - 1 - k0) * keep.q
    sigma = math.sqrt((n - 1) * keep.p * keep.q)
    answers = []
    for z in (8.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0, -1.0, -2.0):
        u = math.floor(mean + z * sigma)
        for smooth, quadratic in ((True, False), (True, True), (False, False)):
            bound = exact.error(u, smooth, quadratic)
            base = 3e-7
            total = base + bound
            for limit in (total, math.nextafter(total, 0.0), math.nextafter(total, math.inf), 2 * total, 0.5 * total):
                expected = base + bound <= limit
                assert block().within(base, u, limit, smooth, quadratic) == expected
                assert seasoned.within(base, u, limit, smooth, quadratic) == expected
                answers.append(expected)
    assert True in answers and False in answers
    # A question with room to spare is answered by the first tilt tried: one log C_tau computed, not all of them.
    fresh = block()
    assert fresh.within(3e-7, math.floor(mean + 4 * sigma), 1.0)
    assert sum(value is not None for value in fresh.tables[(True, False)]) == 1
