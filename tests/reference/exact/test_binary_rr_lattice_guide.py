"""exact.shuffled_binary_rr in the flat regime (large variance n p q), where the worst pair is located by the
lattice-phase guide (`_lattice_guide`) instead of the scan of `_guide`: the certified interval against independent
float values of the pairs (scipy's binomial pmfs, no code shared with the reference), against the classic guide's
result, the guide's model on a synthetic landscape, and the fallback where the transport cannot certify."""

from __future__ import annotations

import math

import numpy as np
import pytest

from support.brute_sums import float_pair_deltas
from shuffle_spec.reference.exact import binary_rr as ebr


def _band_and_spread(n: int, eps0: float, band: int) -> list[int]:
    """The counts checked independently: the band of the `band` pairs below the top end (where the guide searches
    and the worst pairs sit), a geometric spread down to the bottom end, and the bottom end itself."""
    ks = {n - 1 - j for j in range(band)}
    j = band
    while j < n - 1:
        ks.add(n - 1 - j)
        j = int(j * 1.7) + 1
    ks.update({0, 1, n // 2})
    return sorted(ks)


def _check_against_independent_pairs(eps0: float, n: int, delta: float, band: int, monkeypatch: pytest.MonkeyPatch) -> None:
    assert ebr._lattice_guide_applies(eps0, n)
    result = ebr.worst_case(eps0=eps0, n=n, delta=delta)
    assert result.route == "transport"
    assert result.upper - result.lower <= 1e-6 * result.upper
    # The classic guide's certified interval (the scan of `_guide`, twice): both are certified, so they overlap.
    classic = _classic(eps0, n, delta, monkeypatch)
    assert result.lower <= classic.upper and classic.lower <= result.upper
    ks = sorted(set(_band_and_spread(n, eps0, band)) | {result.worst_k, classic.worst_k})
    at_lower, at_upper = float_pair_deltas(n, eps0, ks, [result.lower, result.upper])
    # The lower end is the certified eps of a real pair: that pair is above delta there (float noise ~1e-10 relative,
    # far below the ~3e-5 relative that the interval's width moves delta by).
    assert at_lower[ks.index(result.worst_k)] >= delta * (1 - 1e-9)
    # Every pair checked, the classic guide's worst among them, is within delta at the upper end.
    assert at_upper.max() <= delta * (1 + 1e-9)


def _classic(eps0: float, n: int, delta: float, monkeypatch: pytest.MonkeyPatch) -> ebr.WorstCase:
    """The worst case as computed before the lattice guide: the classic start everywhere."""
    with monkeypatch.context() as patch:
        patch.setattr(ebr, "_lattice_guide_applies", lambda eps0, n: False)
        return ebr.worst_case(eps0=eps0, n=n, delta=delta)


@pytest.mark.parametrize(
    "eps0, n, delta, band",
    [
        (4.0, 2 * 10**6, 1e-6, 64),  # phase period ~28 counts: the lattice term is large here (n p q ~ 3.5e4)
        pytest.param(0.5, 10**6, 1e-9, 64, marks=pytest.mark.slow),
        pytest.param(0.5, 10**8, 1e-6, 48, marks=pytest.mark.slow),
        pytest.param(8.0, 10**8, 1e-6, 200, marks=pytest.mark.slow),  # period ~1490 counts
    ],
)
def test_the_worst_case_holds_against_independent_pair_values(eps0, n, delta, band, monkeypatch):
    # The default tier keeps eps0 = 4, n = 2e6; n = 1e8 (independent pmfs of 1e5 points per pair) is the second tier's.
    _check_against_independent_pairs(eps0, n, delta, band, monkeypatch)


class _Landscape:
    """A stand-in for `_Pairs` whose pairs' delta at the guide's eps follows the model the guide fits: log d_k =
    -slope j - kappa dist(mu_k + t, Z)^2 for k = n - 1 - j (mu_k the mean of the others' count), plus a small
    irregular term; the bottom end's value sets the trend."""

    def __init__(self, eps0: float, n: int, slope: float, kappa: float, offset: float, ripple: float, bottom_above: bool = False):
        self.eps0, self.n, self.work, self.evaluations = eps0, n, 0, 0
        keep, _ = ebr._keep_pair(eps0)
        self.p, self.q = keep.p, keep.q
        self.slope, self.kappa, self.offset, self.ripple, self.bottom_above = slope, kappa, offset, ripple, bottom_above

    def log_value(self, j: int) -> float:
        mean = (self.n - 1 - j) * self.p + j * self.q
        distance = abs((mean + self.offset + 0.5) % 1.0 - 0.5)
        return -self.slope * j - self.kappa * distance**2 + self.ripple * math.sin(12.9898 * j)

    def bound(self, n: int, k: int, eps: float) -> tuple[float, float]:
        self.evaluations += 1
        if k == 0:
            value = 1e-6 * math.exp(0.1 if self.bottom_above else -self.slope * (n - 1))
        else:
            value = 1e-6 * math.exp(self.log_value(n - 1 - k))
        return value, value * (1 + 1e-12)


@pytest.mark.parametrize(
    "eps0, n, kappa, slope, offset",
    [
        (0.5, 10**8, 8e-8, 3e-12, 0.31),  # phase step 0.245 per count
        (1.0, 10**7, 2e-7, 5e-11, 0.77),  # phase step 0.462: two interleaved slow sequences
        (4.0, 10**8, 1e-6, 1e-10, 0.05),  # phase step 0.036 (period ~28)
        (8.0, 10**8, 3e-5, 1.5e-9, 0.6),  # phase step 6.7e-4 (period ~1490): the climb
        (0.05, 10**8, 4e-8, 3e-14, 0.4),  # phase step 0.025
    ],
)
def test_the_guide_finds_the_best_pair_of_a_landscape_of_its_model(eps0, n, kappa, slope, offset):
    land = _Landscape(eps0, n, slope, kappa, offset, ripple=kappa * 1e-4)
    k = ebr._lattice_guide(land, n, 0.001, limit=math.inf)  # type: ignore[arg-type]
    reach = ebr._lattice_reach(land.p - land.q, n)
    values = np.array([land.log_value(j) for j in range(reach + 1)])
    found = land.log_value(n - 1 - k)
    # Within a phase error of about 1e-3 of the best of the band (the fitted phase sits on a grid of 2048 points).
    assert found >= values.max() - kappa * 2e-3**2 - 3 * land.ripple
    assert land.evaluations <= 40  # the scan of `_guide` made ~100 per round


def test_the_guide_declines_where_the_bottom_end_is_not_below_the_top():
    land = _Landscape(1.0, 10**7, 5e-11, 2e-7, 0.1, 0.0, bottom_above=True)
    assert ebr._lattice_guide(land, 10**7, 0.001, limit=math.inf) is None  # type: ignore[arg-type]


def test_where_the_transport_cannot_certify_the_result_is_the_classic_one_bit_for_bit(monkeypatch):
    # eps0 = 1, n = 2e5, delta = 1e-30: the flat-regime start is tried, its transport does not certify (deep tail), and
    # the sweeps then start from the classic state (work counted from 0, as if the lattice guide did not exist): here
    # (no budget widening) the same bits.
    eps0, n, delta = 1.0, 2 * 10**5, 1e-30
    assert ebr._lattice_guide_applies(eps0, n)
    result = ebr.worst_case(eps0=eps0, n=n, delta=delta)
    assert result.route == "removal"
    classic = _classic(eps0, n, delta, monkeypatch)
    assert (result.lower.hex(), result.upper.hex(), result.worst_k, result.tolerance) == (classic.lower.hex(), classic.upper.hex(), classic.worst_k, classic.tolerance)


def test_the_lattice_guide_is_not_used_at_small_variance():
    # n p q below LATTICE_GUIDE_MIN_VARIANCE = 2e4 (every n <= 8e4; eps0 = 4 up to n ~ 1.1e6, eps0 = 8 up to n ~ 6e7):
    # the classic guide, unchanged.
    assert not ebr._lattice_guide_applies(1.0, 10**4)
    assert not ebr._lattice_guide_applies(4.0, 10**6)
    assert not ebr._lattice_guide_applies(8.0, 10**6)
    assert ebr._lattice_guide_applies(1.0, 10**6)
    assert ebr._lattice_guide_applies(4.0, 2 * 10**6)
    assert ebr._lattice_guide_applies(8.0, 10**8)
