"""exact.shuffled_binary_rr / exact.shuffled_binary_rr.pair as an oracle: the same arguments give the same bits
whatever was computed before in the process. The module keeps per-process caches (binomial window anchors,
windows, lru caches); they may only save time, never change a value.

Before the fix, a window whose counts are too small for the float anchor (`_log_pmf_float`) took its anchor
from the NEAREST anchor already cached (any m within MAX_ANCHOR_STEPS), so its last bits -- and those of the
certified intervals built on it -- depended on the call history: `one_direction_delta(eps0=8, n=30000, k=100,
eps=0.5)` returned [0x1.0c4894ef3e640p-8, 0x1.0c4894ef43ef8p-8] after a cold start and
[0x1.0c4894ef38d80p-8, 0x1.0c4894ef497ecp-8] after the same call at n = 31000. Now every anchor comes from a
canonical base (the multiple of ANCHOR_GRID nearest to m, interval arithmetic), a pure function of m.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import _lru_cache_wrapper
from typing import Any

import mpmath
import numpy as np
import pytest

from shuffle_spec.reference.exact import binary_rr as ebr

# A scale and tail as the pairs use them at delta = 1e-6 (windows are scaled by e^-(log_scale / 2)).
DELTA = 1e-6
LOG_TAIL = ebr._tail_for(DELTA)
LOG_SCALE = ebr._log_scale(DELTA)


def _module_caches() -> list[str]:
    """Names of every per-process cache of the module: lru caches and module-level dicts (found, not listed,
    so that a cache added later is cleared too)."""
    names = []
    for name, value in vars(ebr).items():
        if isinstance(value, _lru_cache_wrapper) or (isinstance(value, dict) and name.startswith("_") and name.lstrip("_").isupper()):
            names.append(name)
    return sorted(names)


def _clear() -> None:
    for name in _module_caches():
        cache = getattr(ebr, name)
        if isinstance(cache, _lru_cache_wrapper):
            cache.cache_clear()
        else:
            cache.clear()
    ebr._WINDOW_BYTES = 0  # the byte count of _WINDOWS (kept incrementally)


def test_the_cache_finder_sees_the_known_caches():
    # The clearing helper is only as good as its finder: the caches known today must be among what it finds.
    found = set(_module_caches())
    assert {"_ANCHORS", "_WINDOWS", "_keep_pair", "_coefficients", "_thinning_pair", "_thinned_removal"} <= found


def _window_bits(eps0: float, m: int, ones: bool) -> tuple[Any, ...]:
    w = ebr._cached_window(eps0, m, ones, LOG_TAIL, LOG_SCALE)
    return (w.lo, tuple(float(x).hex() for x in w.pmf), w.rel.hex(), w.dropped.hex(), w.absolute.hex())


def _bits(value: Any) -> tuple[str, str]:
    return float(value.lower).hex(), float(value.upper).hex()


def _histories(first: Callable[[], Any], second: Callable[[], Any], unrelated: Callable[[], Any]) -> None:
    """first and second give the same bits cold, after each other in both orders, and after an unrelated call."""
    _clear()
    a1, b1 = first(), second()
    _clear()
    b2, a2 = second(), first()
    _clear()
    unrelated()
    a3 = first()
    unrelated()
    b3 = second()
    _clear()
    a4 = first()  # cold again, and warm (every cache filled by the same call)
    a5 = first()
    assert a1 == a2 == a3 == a4 == a5
    assert b1 == b2 == b3


@pytest.mark.parametrize(
    ("eps0", "m1", "m2", "ones"),
    [
        (8.0, 20_000, 21_000, False),  # zeros: m q ~ 7 (float anchor refused), the two within MAX_ANCHOR_STEPS
        (8.0, 14_999, 15_001, False),  # on both sides of a grid midpoint (different bases now)
        (15.0, 3_000, 90_001, False),  # q ~ 3e-7: a count of zeros of 0 or 1
        (15.0, 40_000, 44_000, True),  # ones: n - k tiny (the mirror image)
    ],
)
def test_windows_do_not_depend_on_the_call_history(eps0, m1, m2, ones):
    unrelated = lambda: (ebr._cached_window(eps0, (m1 + m2) // 2 + 7, ones, LOG_TAIL, LOG_SCALE), ebr._cached_window(4.0, 1234, True, LOG_TAIL, LOG_SCALE))  # noqa: E731
    _histories(lambda: _window_bits(eps0, m1, ones), lambda: _window_bits(eps0, m2, ones), unrelated)


def test_public_results_do_not_depend_on_the_call_history():
    # The case that failed before the fix (module doc), and the pair's certified eps at eps0 = 8.
    first = lambda: _bits(ebr.one_direction_delta(eps0=8.0, n=30_000, k=100, eps=0.5))  # noqa: E731
    second = lambda: _bits(ebr.one_direction_delta(eps0=8.0, n=31_000, k=100, eps=0.5))  # noqa: E731
    unrelated = lambda: ebr.one_direction_delta(eps0=8.0, n=33_333, k=3, eps=0.3)  # noqa: E731
    _histories(first, second, unrelated)
    pair_a = lambda: _bits(ebr.binary_rr_pair_epsilon(eps0=8.0, n=20_000, delta=DELTA, k=17))  # noqa: E731
    pair_b = lambda: _bits(ebr.binary_rr_pair_epsilon(eps0=8.0, n=24_000, delta=DELTA, k=17))  # noqa: E731
    _histories(pair_a, pair_b, second)


def test_the_worst_case_does_not_depend_on_the_call_history():
    # The certified worst case (the sweep builds windows at many populations, most of them small-count ones).
    # Before the fix the second call's interval moved by 4 ulps at both ends after the first (eps0 = 6).
    first = lambda: ebr.worst_case(eps0=6.0, n=20_000, delta=DELTA)  # noqa: E731
    second = lambda: ebr.worst_case(eps0=6.0, n=21_000, delta=DELTA)  # noqa: E731
    unrelated = lambda: ebr.one_direction_delta(eps0=6.0, n=22_000, k=5, eps=0.2)  # noqa: E731
    _histories(first, second, unrelated)


def _exact_scaled_pmf(m: int, k: int, eps0: float, ones: bool, log_scale: float) -> mpmath.mpf:
    """e^-log_scale Pr[Bin(m, p) = k] at 50 digits, p = e^eps0/(e^eps0+1) (ones) or 1/(e^eps0+1) (zeros)."""
    with mpmath.workdps(50):
        r = mpmath.exp(-mpmath.mpf(eps0))
        p = 1 / (1 + r) if ones else r / (1 + r)
        log_pmf = mpmath.log(mpmath.binomial(m, k)) + k * mpmath.log(p) + (m - k) * mpmath.log1p(-p)
        return mpmath.exp(log_pmf - mpmath.mpf(log_scale))


@pytest.mark.parametrize(
    ("eps0", "m", "ones"),
    [
        (8.0, 15_000, False),  # the longest paths: MAX_ANCHOR_STEPS from the base, up (15000 -> 20000 is down)
        (8.0, 25_000, False),
        (8.0, 14_999, False),
        (15.0, 5_001, True),
        (15.0, 1_000_000 + 4_999, False),
        (8.0, 3_217, False),  # base m0 = 0: the path starts at Pr[Bin(0, p) = 0] = 1
    ],
)
def test_anchors_are_pure_and_within_their_error_bound(eps0, m, ones):
    # The anchor after a cold start equals the anchor after every nearby population was anchored first (the
    # old cache would have carried one of those), and it lies within its certified relative error of the
    # 50-digit value, also at the longest path (|m - m0| = MAX_ANCHOR_STEPS).
    keep, flip = ebr._keep_pair(eps0)
    pair = keep if ones else flip
    scale = 0.5 * LOG_SCALE
    lo, hi = 0, m

    def anchor() -> tuple[int, str, str]:
        k, value, err = ebr._anchor(m, pair, lo, hi, scale)
        return k, value.hex(), err.hex()

    _clear()
    cold = anchor()
    for other in (m - 1, m + 1, m - 2_500, m + 2_500, m - ebr.MAX_ANCHOR_STEPS, m + ebr.MAX_ANCHOR_STEPS):
        if other >= 0:
            ebr._anchor(other, pair, 0, other, scale)
    assert anchor() == cold
    _clear()
    ebr._anchor(m + 3, pair, 0, m + 3, scale)
    assert anchor() == cold
    assert ebr._log_pmf_float(cold[0], m, pair) is None  # the case under test: the float anchor refuses
    k, value, err = cold[0], float.fromhex(cold[1]), float.fromhex(cold[2])
    exact = _exact_scaled_pmf(m, k, eps0, ones, scale)
    assert abs(mpmath.mpf(value) - exact) <= err * exact
    assert err < 1e-11  # sharp: at most MAX_ANCHOR_STEPS steps of ~5e-16 each


def test_dot_products_do_not_depend_on_memory_alignment():
    # The windowed sums are einsum / np.sum over slices whose memory alignment depends on the allocator (hence
    # on the history); their bits must not (numpy's SIMD loops could peel an unaligned head differently).
    rng = np.random.default_rng(7)
    x, y = rng.random(4099) * np.exp(rng.normal(0.0, 5.0, 4099)), rng.random(4099)
    buffer_x, buffer_y = np.empty(4099 + 16), np.empty(4099 + 16)
    dots, sums = set(), set()
    for offset in range(8):
        a, b = buffer_x[offset : offset + 4099], buffer_y[(3 * offset) % 8 : (3 * offset) % 8 + 4099]
        a[:], b[:] = x, y
        dots.add(ebr._dot(a, b).hex())
        sums.add(float(np.sum(a)).hex())
    assert len(dots) == 1 and len(sums) == 1
    assert math.isclose(float.fromhex(dots.pop()), float(np.dot(x, y)), rel_tol=1e-12)


def test_results_do_not_depend_on_the_global_mpmath_precision():
    # The interval anchors use the module's private 100-bit context; the _mp paths run under mpmath.workdps(40 or
    # 80), and a float call made inside such a block (or after a caller changed mpmath.mp) must not change.
    def compute() -> tuple[Any, ...]:
        _clear()
        return _window_bits(8.0, 20_000, False), _bits(ebr.one_direction_delta(eps0=8.0, n=30_000, k=100, eps=0.5))

    plain = compute()
    for dps in (5, 80):
        with mpmath.workdps(dps):
            assert compute() == plain


def test_cache_evictions_do_not_change_results(monkeypatch):
    # Caches that hold (almost) nothing: every window and every base anchor is rebuilt where it was reused; the
    # certified worst case and a pair's eps keep their bits (the caches only save time).
    def compute() -> tuple[Any, ...]:
        _clear()
        worst = ebr.worst_case(eps0=6.0, n=20_000, delta=DELTA)
        pair = ebr.binary_rr_pair_epsilon(eps0=8.0, n=24_000, delta=DELTA, k=17)
        return worst.lower.hex(), worst.upper.hex(), worst.worst_k, worst.evaluations, _bits(pair)

    plain = compute()
    monkeypatch.setattr(ebr, "WINDOW_CACHE_BYTES", 0)
    monkeypatch.setattr(ebr, "ANCHOR_CACHE_SIZE", 1)
    starved = compute()
    monkeypatch.undo()
    _clear()
    assert starved == plain


def test_the_flat_regime_start_keeps_its_bits_with_starved_caches(monkeypatch):
    # The lattice-phase guide's path (n p q >= LATTICE_GUIDE_MIN_VARIANCE: its window set-ups, the pairs it scores,
    # the fitted phase) is a pure function of the arguments too: with caches that hold nothing, the same bits.
    def compute() -> tuple[Any, ...]:
        _clear()
        worst = ebr.worst_case(eps0=1.0, n=10**6, delta=DELTA)
        return worst.lower.hex(), worst.upper.hex(), worst.worst_k, worst.evaluations, worst.route

    assert ebr._lattice_guide_applies(1.0, 10**6)
    plain = compute()
    monkeypatch.setattr(ebr, "WINDOW_CACHE_BYTES", 0)
    monkeypatch.setattr(ebr, "ANCHOR_CACHE_SIZE", 1)
    starved = compute()
    monkeypatch.undo()
    _clear()
    assert starved == plain and plain[4] == "transport"
