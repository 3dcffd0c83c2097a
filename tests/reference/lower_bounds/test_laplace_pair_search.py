"""The root search of the Laplace pair lower bound (exact.laplace_pair_x0) at large eps0: the upper end from the
spread laws alone, then the lower end near it (`shuffle_spec.reference.lower_bounds.laplace`, `_upper_end`,
`_lower_end`), and the backward direction's lower groups left out where they cannot raise the maximum. Each
property below is checked against an independent evaluation of the same certified deltas."""

from __future__ import annotations

import math

import pytest

from shuffle_spec.reference.lower_bounds import laplace as pair


@pytest.mark.parametrize("eps0,n,eps", [(4.0, 300, 0.5), (6.0, 30, 3.0), (0.5, 50, 0.01)])
def test_skipping_the_backward_lower_groups_leaves_the_interval_unchanged(eps0, n, eps):
    """laplace_pair_delta's lower end is max over both directions of their lower ends; it builds the backward one
    only when the backward upper end exceeds the forward lower end. Recomputed here with both built."""
    got = pair.laplace_pair_delta(eps0=eps0, n=n, eps=eps)
    setups = {d: pair._direction_setup(eps0, eps, d, n) for d in pair.DIRECTIONS}
    lowers = [pair._direction_lower(eps0, eps, d, n, setups[d]) for d in pair.DIRECTIONS]
    uppers = [pair._direction_upper(eps0, eps, d, n, setups[d]) for d in pair.DIRECTIONS]
    assert got.lower == min(max(lowers), max(uppers))
    assert got.upper == max(uppers)


def test_the_skip_is_taken_where_the_forward_direction_dominates():
    # Where it saves the most: at eps0 = 8 the backward lower groups cost about 15 times the forward ones, and the
    # backward delta is far below the forward one. (At every point measured the forward direction dominated; the
    # other branch builds both, as before.)
    eps0, n, eps = 8.0, 30, 4.0
    setups = {d: pair._direction_setup(eps0, eps, d, n) for d in pair.DIRECTIONS}
    forward_low = pair._direction_lower(eps0, eps, "forward", n, setups["forward"])
    assert pair._direction_upper(eps0, eps, "backward", n, setups["backward"]) <= forward_low


@pytest.mark.parametrize("eps0,n,delta", [(4.0, 100, 1e-6), (8.0, 50, 1e-6)])
def test_two_phase_interval_is_certified_at_both_ends(eps0, n, delta):
    assert eps0 > pair.NORMAL_HINT_MAX_EPS0  # the two-phase path
    got = pair.laplace_pair_x0_interval(eps0=eps0, n=n, delta=delta)
    assert 0 < got.lower < got.upper < eps0
    # The ends, re-evaluated: the upper end's certified upper delta is <= delta; the lower end is a point whose
    # certified lower delta exceeds delta, unless it is the binned bound (another certified lower bound).
    assert pair.laplace_pair_delta(eps0=eps0, n=n, eps=got.upper).upper <= delta
    binned = pair.binary_rr_pair_epsilon(eps0=pair.binned_binary_rr_eps0(eps0=eps0), n=n, delta=delta, k=0).lower
    assert got.lower == binned or pair.laplace_pair_delta(eps0=eps0, n=n, eps=got.lower).lower > delta
    assert got.upper - got.lower <= 1e-2 * got.upper


@pytest.mark.slow
@pytest.mark.parametrize("eps0,n,delta", [(4.0, 100, 1e-6), (8.0, 200, 1e-9), (6.0, 50, 1e-4)])
def test_two_phase_interval_overlaps_the_one_phase_search(eps0, n, delta, monkeypatch):
    """Both searches enclose the same exact eps of the pair: their intervals intersect."""
    got = pair.laplace_pair_x0_interval(eps0=eps0, n=n, delta=delta)
    monkeypatch.setattr(pair, "NORMAL_HINT_MAX_EPS0", 10.0)
    one_phase = pair.laplace_pair_x0_interval(eps0=eps0, n=n, delta=delta)
    assert max(got.lower, one_phase.lower) <= min(got.upper, one_phase.upper)


class _Model:
    """A stand-in for the pair's deltas with a known root: lower(eps) = a e^{-b eps^2} (upper a bit above)."""

    def __init__(self, a: float, b: float):
        self.a, self.b, self.calls = a, b, 0

    def lower(self, eps: float) -> float:
        self.calls += 1
        return self.a * math.exp(-self.b * eps * eps)

    def log_slope(self, near: float) -> float:
        return -2 * self.b * near * 1.3  # deliberately off by 30%: the search must not rely on it


@pytest.mark.parametrize("a,b,upper", [(1.0, 400.0, 0.19), (0.5, 1.5, 3.1), (1.0, 400.0, 0.1862)])
def test_lower_end_search_returns_a_success_within_its_tolerance_of_the_root(a, b, upper):
    delta = 1e-6
    model = _Model(a, b)
    root = math.sqrt(math.log(a / delta) / b)
    assert root < upper
    got = pair._lower_end(model, upper, delta)  # type: ignore[arg-type]
    assert model.lower(got) > delta  # only successes are returned
    assert got >= root * (1 - pair.LOWER_END_REL_TOL) or model.calls > pair.LOWER_END_EVALUATIONS
    assert got >= root * (1 - 2 * pair.LOWER_END_REL_TOL) or upper > 1.2 * root


def test_lower_end_search_returns_zero_when_nothing_succeeds():
    model = _Model(1e-9, 1.0)  # below delta everywhere
    assert pair._lower_end(model, 1.0, 1e-6) == 0.0  # type: ignore[arg-type]
