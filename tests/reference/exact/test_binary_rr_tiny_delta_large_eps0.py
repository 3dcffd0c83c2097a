"""exact shuffled binary RR at delta = 1e-300 and large eps0: the pair's values are scaled by 1/delta (up to e^690),
so at an eps where the divergence is near 1 the products overflowed to inf - inf = nan. nan is no bound: the pair's
certified interval came out as [0.0952, 1.8e-23] (an upper end far below the truth, eps0 = 50, n = 2, eps = 49.9) or
[lo, nan], and the worst case failed with a ValueError traceback ("min() arg is an empty sequence") or a
ParameterError naming an internal interval at eps0 >= 20, n >= 1e3. The nan ends are now the trivial bounds 0 and 1.
Replace-one relation."""

from __future__ import annotations

import math

import mpmath

from shuffle_spec.reference.exact.binary_rr import binary_rr_pair_delta, shuffled_binary_rr


def _enumerated_pair_delta(eps0: float, eps: float) -> float:
    """max of both hockey-stick divergences of the shuffled count, n = 2, the other user at 0 (60 digits)."""
    with mpmath.workdps(60):
        p = mpmath.e ** eps0 / (mpmath.e ** eps0 + 1)
        other = (p, 1 - p)  # Pr[report 0], Pr[report 1] of the other user, input 0

        def counts(x: int) -> list:
            own = (p, 1 - p) if x == 0 else (1 - p, p)
            return [own[0] * other[0], own[0] * other[1] + own[1] * other[0], own[1] * other[1]]

        a, b, e = counts(0), counts(1), mpmath.e ** eps
        forward = sum(max(x - e * y, 0) for x, y in zip(a, b, strict=True))
        backward = sum(max(y - e * x, 0) for x, y in zip(a, b, strict=True))
        return float(max(forward, backward))


def test_the_pair_interval_at_delta_hint_1e_300_contains_the_enumerated_divergence():
    for eps in (40.0, 49.0, 49.9):
        exact = _enumerated_pair_delta(50.0, eps)
        value = binary_rr_pair_delta(eps0=50.0, n=2, k=0, eps=eps, delta_hint=1e-300)
        assert not math.isnan(value.upper)
        assert value.lower * (1 - 1e-9) <= exact <= value.upper * (1 + 1e-9), (eps, exact, value)


def test_the_worst_case_at_delta_1e_300_and_eps0_20_answers():
    # n = 1000, eps0 = 20, all others at 0: the count 0 has probability p^n (p = e^20 / (e^20 + 1)) with user 1 at 0
    # and e^-20 times that with user 1 at 1, so delta(eps) >= p^n (1 - e^(eps - 20)) > 1e-300 for every eps below
    # 20 - 1e-6: the truth is within 1e-6 of eps0.
    value = shuffled_binary_rr(eps0=20.0, n=1000, delta=1e-300)
    assert value.upper == 20.0
    assert 20.0 - 1e-5 <= value.lower <= value.upper
