"""reference/composition/solve.py, Small delta, the direct delta(eps): where a composition's first certified delta at
eps is below 1e-10, its delta(eps) path also composes for smaller targets and tilts (`solve.small_delta`), so that
the certified delta is resolved far below the untilted round-off floor (~1e-13 of the mass). Against exact composed
deltas (high-precision enumeration of the composed pairs), against the eps(delta) path as its inverse, and
unchanged to the bit where the first certified delta is >= 1e-10."""

from __future__ import annotations

import time
from typing import Callable

from fractions import Fraction

import numpy as np
import pytest

from shuffle_spec.reference.bounds.clones_high_precision import composed_delta_bounds_mp
from shuffle_spec.reference.composition import mechanism_rounds as mech
from shuffle_spec.reference.composition.blanket_rounds import BlanketRound, composed_delta as blanket_delta
from shuffle_spec.reference.composition.shuffled_rounds import Round, compose_clones, composed_delta, pair_pld
from shuffle_spec.reference.composition.solve import TILT_BELOW, composition_tail, small_delta, tilted_delta
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.numerics.pld import GridPLD, compose, cut_top


def test_clones_delta_brackets_the_exact_composed_delta_of_the_pair() -> None:
    # compose.clones at eps0 = 0.5, n = 60, T = 2 (one clone count per block there, so the float composition's pair
    # is the clone pair itself): the exact composed delta(eps) of the FMT21 clone pair by the high-precision
    # enumeration (`composed_delta_bounds_mp`, an independent Fraction / mpmath computation) lies inside the certified
    # interval, which is within 2% of it. eps = 0.964 is where the eps(delta) path puts delta = 1e-20 (before: the
    # upper end stayed at the untilted floor, ~1e-13).
    eps = 0.964035882984091
    low, high = composed_delta_bounds_mp("clones", dps=60, eps0=0.5, n=60, eps=eps, rounds=2)
    result = composed_delta([Round("clones", 0.5, 60, 2)], eps=eps)
    assert Fraction(result.lower) <= low <= high <= Fraction(result.upper)
    assert result.upper <= float(high) * 1.02
    assert result.upper < TILT_BELOW


@pytest.mark.slow
@pytest.mark.parametrize("mechanism, k, within", [("binary_rr", 2, 1.2), ("krr", 2, 3.0)])
def test_mechanism_delta_is_above_the_exact_composed_explicit_pairs(mechanism: str, k: int, within: float) -> None:
    # compose.binary_rr and compose.krr (k = 2: k-RR with two categories is binary RR) at eps0 = 0.5, n = 60, T = 2,
    # eps = 0.8: the worst-case delta is at least that of every explicit neighbouring pair composed; the exact
    # binary-RR pairs (k ones among the other n-1 users, k in {0, 1, 59}, both directions) composed twice, by the
    # high-precision enumeration (`composed_delta_bounds_mp`), give ~5e-18. The certified upper end is above each
    # and, from the envelopes' dominating pairs, within `within` of the largest (before: ~1e-13, the round-off floor).
    eps = 0.8
    exact = max(composed_delta_bounds_mp("exact_binary_rr", dps=60, eps0=0.5, n=60, eps=eps, rounds=2, k=ones, direction=d)[1]
                for ones in (0, 1, 59) for d in (0, 1))
    value = mech.composed_delta([mech.MechanismRound(mechanism, 0.5, 60, 2, k)], eps=eps)
    assert Fraction(value.upper) >= exact
    assert value.upper <= float(exact) * within


# Values of the delta(eps) paths before the small-delta path (main at commit 656898f), at eps = eps(1e-6) of the
# eps(delta) path (eps0 = 4, n = 1e4, T = 2; Laplace eps0 = 2): the first certified delta is >= 1e-10 there, so
# nothing may move.
UNCHANGED = [
    pytest.param("clones", 0.8580792399744469, 9.974160545065619e-07, 1.0000039336288143e-06, marks=pytest.mark.slow),
    ("clones", 1.2392765366904928, 8.762446679329235e-11, 1.0468432434510722e-10),
    pytest.param("krr", 0.5487175963778634, 9.87485480134185e-07, 9.999998357376116e-07, marks=pytest.mark.slow),
    pytest.param("binary_rr", 0.44214787322154014, 9.68807833963563e-07, 9.999999994726703e-07, marks=pytest.mark.slow),
    pytest.param("laplace", 0.13736555243039042, 2.6928170428950836e-09, 9.999999280258994e-07, marks=pytest.mark.slow),
]


@pytest.mark.parametrize("pair, eps, lower, upper", UNCHANGED)
def test_values_with_a_first_delta_at_1e_10_and_above_unchanged(pair: str, eps: float, lower: float, upper: float) -> None:
    if pair == "clones":
        value = composed_delta([Round("clones", 4.0, 10_000, 2)], eps=eps)
    elif pair == "laplace":
        value = blanket_delta([BlanketRound("laplace", 2.0, 10_000, 2)], eps=eps)
    else:
        value = mech.composed_delta([mech.MechanismRound(pair, 4.0, 10_000, 2, 10 if pair == "krr" else 2)], eps=eps)
    # To 1e-9 relative, not bit for bit: the FFT's last bits differ between machines (its SIMD code paths), and these
    # values move by ~1e-11 relative between them; a change of the method moves them by far more.
    assert (float(value.lower), float(value.upper)) == pytest.approx((lower, upper), rel=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("delta", [1e-12, 1e-15, 1e-20, 1e-30])
def test_delta_of_eps_and_eps_of_delta_are_inverses_on_the_safe_side(delta: float) -> None:
    # compose.krr (k = 10) and compose.clones, eps0 = 4, n = 1e4, T = 2: at eps = eps(delta) (certified: its true
    # delta is <= delta) the certified delta(eps) is within 2% of delta (the two paths' grids differ), and its
    # certified lower end (clones: the optimistic composition) is at most delta.
    if delta in (1e-15, 1e-30):  # clones at two of the points (the second tier's time)
        eps = compose_clones(eps0=4.0, n=10_000, delta=delta, rounds=2).upper
        clones = composed_delta([Round("clones", 4.0, 10_000, 2)], eps=eps)
        assert clones.lower <= delta <= clones.upper * 1.02 and clones.upper <= delta * 1.02
    eps = mech.composed_epsilon([mech.MechanismRound("krr", 4.0, 10_000, 2, 10)], delta=delta, lower=False).upper
    krr = mech.composed_delta([mech.MechanismRound("krr", 4.0, 10_000, 2, 10)], eps=eps)
    assert delta * 0.98 <= krr.upper <= delta * 1.02


def _clone_grids(pessimistic: bool, tail: float) -> tuple:
    raw = pair_pld("clones", eps0=4.0, n=10_000, pessimistic=pessimistic)
    grid = raw.discretise(2.0**-10, pessimistic, tail / 8, precise_tail=True)
    return compose([grid], [2], tail=tail)


def test_small_delta_keeps_the_first_composition_at_1e_10_and_above() -> None:
    # The first composition's values are returned unchanged (no target) where its upper end is >= TILT_BELOW.
    first = (_clone_grids(True, 1e-18), _clone_grids(False, 1e-18))
    calls: list[float] = []

    def compose_for(target: float) -> tuple:
        calls.append(target)
        return first

    eps = 0.5
    low, high, target = small_delta(compose_for, first, eps=eps)
    assert high >= TILT_BELOW and target is None and not calls
    assert (low, high) == (first[1].delta(eps), first[0].delta(eps))


def _recomposing_clones() -> tuple[tuple, Callable[[float], tuple], list[float]]:
    """The clone grids composed for delta ~ 1e-6 (tail 1e-18), a `compose_for` that recomposes them with the tail
    budget of each target (as `shuffled_rounds.composed_delta` does), and the list of targets it was called with."""
    first = (_clone_grids(True, 1e-18), _clone_grids(False, 1e-18))
    targets: list[float] = []

    def compose_for(target: float) -> tuple:
        targets.append(target)
        tail = composition_tail(target)
        return _clone_grids(True, tail), _clone_grids(False, tail)

    return first, compose_for, targets


def test_small_delta_recomposes_for_smaller_targets_and_tightens_both_ends() -> None:
    # At eps = 1.63 (compose.clones' eps(1e-15) at eps0 = 4, n = 1e4, T = 2) the untilted curves certify only
    # [0, ~1e-12]; the recomposed, tilted ones bracket the pair's delta within 10% (both ends certified; the 2^-10
    # grid's rounding).
    first, compose_for, targets = _recomposing_clones()
    eps = 1.626499567457316
    start = (first[1].delta(eps), first[0].delta(eps))
    low, high, target = small_delta(compose_for, first, eps=eps)
    assert start[1] > 1e-13 and high < 1e-14
    assert start[0] <= low <= high <= start[1]
    assert high <= low * 1.1
    assert targets and target == targets[-1] and all(b < a for a, b in zip(targets, targets[1:], strict=False))


def test_tilted_delta_refuses_an_optimistic_upper_curve_and_bad_ends() -> None:
    lower = _clone_grids(False, 1e-18)
    with pytest.raises(ParameterError, match="upper"):
        tilted_delta(lower, None, eps=1.0, start=(0.0, 1.0))
    upper = _clone_grids(True, 1e-18)
    with pytest.raises(ParameterError, match="start"):
        tilted_delta(upper, None, eps=1.0, start=(0.5, 0.1))


def test_cut_top_moves_the_top_mass_to_infinity_or_drops_it() -> None:
    # Masses 0.5, 0.25, 0.125, 2^-20, 2^-30 (exact in floats): a budget of 2^-19 takes the two top entries (their sum
    # 2^-20 + 2^-30 <= 2^-19 while adding 0.125 exceeds it). The pessimistic grid puts at least that mass at +inf
    # (point 6 of the pld module doc), the optimistic grid drops it; the rest is untouched.
    masses = np.array([0.5, 0.25, 0.125, 2.0**-20, 2.0**-30])
    for pessimistic in (True, False):
        grid = GridPLD(0.5, -1, masses, 0.0, pessimistic, 2.0)
        cut = cut_top(grid, 2.0**-19)
        assert list(cut.masses) == [0.5, 0.25, 0.125]
        assert cut.offset == -1 and cut.step == 0.5
        if pessimistic:
            assert 2.0**-20 + 2.0**-30 <= cut.inf_mass <= (2.0**-20 + 2.0**-30) * (1 + 1e-12)
        else:
            assert cut.inf_mass == 0.0
        assert cut_top(grid, 2.0**-31) is grid  # nothing fits: the grid itself
    with pytest.raises(ParameterError, match="budget"):
        cut_top(GridPLD(0.5, 0, masses, 0.0, True, 2.0), -1.0)


def test_small_delta_starts_no_recomposition_after_its_deadline() -> None:
    # A deadline already past: the first tilt runs (its ends certified), no recomposition starts; the ends are those
    # of the first tilt alone, inside the untilted ones, and no tighter than the unlimited answer's (same eps as above).
    first, compose_for, targets = _recomposing_clones()
    eps = 1.626499567457316
    start = (first[1].delta(eps), first[0].delta(eps))
    low, high, target = small_delta(compose_for, first, eps=eps, deadline=time.monotonic() - 1.0)
    assert not targets and target is None
    assert (low, high) == tilted_delta(first[0], first[1], eps=eps, start=start)
    assert start[0] <= low <= high <= start[1]
    unlimited = small_delta(compose_for, first, eps=eps)
    assert high >= unlimited[1] and low <= unlimited[0]
