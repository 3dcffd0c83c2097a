"""reference/composition/solve.py, Small delta: below delta = 1e-10 the compositions also search the tilted
compositions of their grids (reference/numerics/pld.py point 5), where the untilted curve's round-off (~1e-13 of
the whole mass) certified only the sum of the rounds' eps0; at delta >= 1e-10 the untilted search alone, except
where the untilted curve's round-off floor is above 1% of delta (`solve.tilt_wanted`): there the tilted search too,
whose ends are at least as tight."""

from __future__ import annotations

import pytest

from shuffle_spec.reference.composition import mechanism_rounds as mech
from shuffle_spec.reference.composition.blanket_rounds import compose_laplace
from shuffle_spec.reference.composition.shuffled_rounds import compose_clones, compose_clones_mp, compose_stronger_clones, pair_pld
from shuffle_spec.reference.composition.solve import (
    ROUND_OFF_SHARE,
    TILT_BELOW,
    composition_tail,
    round_off_floor,
    tilt_wanted,
    tilted_epsilon,
    tilted_lower_epsilon,
    upper_curve_epsilon,
)
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.core.results import NO_COMPOSITION_GAIN
from shuffle_spec.reference.numerics.pld import ComposedPLD, compose, compose_tilted, saddle_tilt
from shuffle_spec.reference.numerics.solver import solve_epsilon


def _clone_composition(delta: float, pessimistic: bool = True) -> ComposedPLD:
    """Two FMT21 clone rounds at eps0 = 4, n = 1e4 on a 2^-12 grid (the pair's own PLD, module doc of
    shuffled_rounds)."""
    raw = pair_pld("clones", eps0=4.0, n=10_000, pessimistic=pessimistic)
    grid = raw.discretise(2.0**-12, pessimistic, composition_tail(delta) / 8, precise_tail=True)
    return compose([grid], [2], tail=composition_tail(delta))


@pytest.mark.parametrize("delta", [1e-6, 1e-10])
def test_at_delta_1e_10_and_above_the_tilt_runs_only_where_the_round_off_floor_sets_the_answer(delta: float) -> None:
    # At 1e-6 the round-off floor (~1e-12) is far below delta: the untilted curve's own search, to the bit. At 1e-10
    # it is above 1% of delta: the tilted search runs too, and its certified upper end is no looser.
    composed = _clone_composition(delta)
    plain = solve_epsilon(lambda e: (composed.delta(e),) * 2, eps0=composed.eps_max, delta=delta, rel_tol=1e-6)
    assert delta >= TILT_BELOW
    result = upper_curve_epsilon(composed, delta=delta, rel_tol=1e-6).upper
    assert tilt_wanted(composed, delta) == (round_off_floor(composed) > ROUND_OFF_SHARE * delta)
    if tilt_wanted(composed, delta):
        assert result <= plain.upper
        assert composed.delta(result) > delta or result == plain.upper  # the gain is where the floor sat
    else:
        assert result == plain.upper


def test_clones_values_at_delta_1e_6_unchanged_and_at_1e_10_inside_the_untilted_interval() -> None:
    # compose.clones at eps0 = 4, n = 1e4, T = 2 as on main before the tilted path (commit fc79626, the untilted
    # certified search): unchanged to the bit at 1e-6; at 1e-10 (round-off floor above 1% of delta) both ends
    # tighten inside the untilted interval [1.2364400945228178, 1.2392765366904928].
    at_1e_6 = compose_clones(eps0=4.0, n=10_000, delta=1e-6, rounds=2)
    at_1e_10 = compose_clones(eps0=4.0, n=10_000, delta=1e-10, rounds=2)
    assert (at_1e_6.lower, at_1e_6.upper) == (0.8579566963402603, 0.8580792399744469)
    assert 1.2364400945228178 <= at_1e_10.lower <= at_1e_10.upper <= 1.2392765366904928
    assert at_1e_10.upper < 1.2392765366904928


@pytest.mark.parametrize("delta", [1e-15, pytest.param(1e-20, marks=pytest.mark.slow), pytest.param(1e-30, marks=pytest.mark.slow)])
def test_small_delta_gains_and_the_two_certified_ends_meet(delta: float) -> None:
    # Before: the untilted curve certified nothing below eps0 x T = 8 (upper end 8, lower end ~1.33). Now the
    # tilted pessimistic and optimistic compositions bracket the pair's exact eps: the upper end is at least the
    # lower end (each is certified on its own side) and both lie within 1e-3 of each other (the grid's rounding).
    result = compose_clones(eps0=4.0, n=10_000, delta=delta, rounds=2)
    assert result.upper < 8.0
    assert NO_COMPOSITION_GAIN not in result.note
    assert 0 < result.lower <= result.upper <= result.lower * (1 + 1e-3)


def test_tilted_epsilon_keeps_the_tighter_certified_ends() -> None:
    # Two-sided brackets: the answer's upper end is at most start's and its lower end at least start's.
    delta = 1e-15
    upper, lower = _clone_composition(delta), _clone_composition(delta, pessimistic=False)
    start = solve_epsilon(lambda e: (lower.delta(e), upper.delta(e)), eps0=upper.eps_max, delta=delta, rel_tol=1e-6)
    result = tilted_epsilon(upper, lower, delta=delta, rel_tol=1e-6, start=start)
    assert start.lower <= result.lower <= result.upper < start.upper
    # The untilted curve alone stays far from the pair's eps (4.85 measured on this grid) where the tilted ones
    # meet within 1e-3 (their ends are certified on opposite sides).
    assert result.upper <= result.lower * (1 + 1e-3) < start.upper / 2


def test_tilted_epsilon_refuses_an_optimistic_or_gridless_upper_curve() -> None:
    lower = _clone_composition(1e-15, pessimistic=False)
    start = solve_epsilon(lambda e: (0.0, 1.0), eps0=8.0, delta=1e-15, rel_tol=1e-6)
    with pytest.raises(ParameterError, match="upper"):
        tilted_epsilon(lower, None, delta=1e-15, rel_tol=1e-6, start=start)


@pytest.mark.slow
def test_clones_monotone_in_delta_down_to_1e_50() -> None:
    # eps(delta) is non-increasing in delta (an eps certified at a smaller delta is certified at a larger one), also
    # across TILT_BELOW where the search changes.
    deltas = [1e-8, 1e-10, 1e-11, 1e-12, 1e-15, 1e-20, 1e-30, 1e-50]
    results = [compose_clones(eps0=4.0, n=10_000, delta=d, rounds=2) for d in deltas]
    uppers = [r.upper for r in results]
    assert all(a <= b for a, b in zip(uppers, uppers[1:], strict=False)), uppers
    assert all(r.lower <= r.upper for r in results)


def test_the_clone_lower_end_at_1e_50_has_its_own_tilted_search_and_stays_below_the_enumerated_truth() -> None:
    # compose.clones, eps0 = 1, n = 20, T = 2: the upper end is not certified below eps0 x T = 2 at delta = 1e-50, so
    # no tilt was aimed near the root and the lower end was the untilted curve's crossing. The exact composed eps of
    # the clone pair, by the 40-digit enumeration of compose_clones_mp (exact composed losses, an independent
    # computation), is 2 - O(1e-12) or closer; the certified lower end must be below it and, the grid step being
    # 2^-12 here, within 2 x T steps of it.
    result = compose_clones(eps0=1.0, n=20, delta=1e-50, rounds=2)
    truth_low, _ = compose_clones_mp(dps=40, eps0=1.0, n=20, delta=1e-50, rounds=2)
    assert result.lower <= float(truth_low)
    assert result.lower >= float(truth_low) - 4 * 2.0**-12, (result.lower, float(truth_low))


def test_the_tilted_lower_search_is_certified_and_below_the_certified_upper_end() -> None:
    # On the clone compositions of `_clone_composition` at delta = 1e-30: the answer above `start` has a certified
    # lower delta above delta there (the untilted curve or the optimistic grids tilted at its saddle, as the search
    # judged it), and it lies below the certified upper end of the pessimistic composition of the same pair (a lower
    # end above an upper end would be a wrong claim). With stop = start there is nothing to search: start itself.
    lower = _clone_composition(1e-30, pessimistic=False)
    upper = _clone_composition(1e-30)
    found = tilted_lower_epsilon(lower, delta=1e-30, rel_tol=1e-6, start=0.5, stop=lower.eps_max)
    tilted = compose_tilted(list(lower.grids), lower.powers, saddle_tilt(list(lower.grids), lower.powers, found))
    assert found > 0.5
    assert lower.delta(found) > 1e-30 or (tilted is not None and tilted.delta(found) > 1e-30)
    assert found <= upper_curve_epsilon(upper, delta=1e-30, rel_tol=1e-6).upper
    assert tilted_lower_epsilon(lower, delta=1e-30, rel_tol=1e-6, start=0.5, stop=0.5) == 0.5


@pytest.mark.slow
def test_the_lower_ends_do_not_fall_as_delta_falls_below_1e_30() -> None:
    # A lower end certified at a larger delta is one at every smaller delta (eps(delta) is non-increasing). Before the
    # lower end's own search, compose.clones eps0 = 4, n = 1e3, T = 10 gave 31.45 at 1e-30 and 14.05 at 1e-50; the
    # stronger clones eps0 = 1, n = 100, T = 2 gave 1.998 at 1e-30 and 1.146 at 1e-50. Each later lower end may sit
    # one grid step (2 T h, the grid chosen per delta) below the earlier one, never more.
    for compose_at, eps0, n, rounds in ((compose_clones, 4.0, 1000, 10), (compose_stronger_clones, 1.0, 100, 2)):
        lowers = [compose_at(eps0=eps0, n=n, delta=d, rounds=rounds).lower for d in (1e-30, 1e-50, 1e-100)]
        assert all(b >= a - 2e-3 * eps0 * rounds for a, b in zip(lowers, lowers[1:], strict=False)), lowers


@pytest.mark.slow
def test_krr_monotone_in_delta_and_below_basic_composition_at_small_delta() -> None:
    # compose.krr at k = 10, eps0 = 4, n = 1e4, T = 2: before, 0.967 at 1e-12 and 8 (no gain) at 1e-15, 1e-20.
    deltas = [1e-6, 1e-10, 1e-12, 1e-15, 1e-20, 1e-30]
    uppers = [mech.compose_krr(eps0=4.0, n=10_000, delta=d, rounds=2, k=10).upper for d in deltas]
    assert all(a <= b for a, b in zip(uppers, uppers[1:], strict=False)), uppers
    assert uppers[3] < 8.0 and uppers[4] < 8.0
    # The untilted value at delta = 1e-6 as on main before the tilted path (commit fc79626); at 1e-10 the untilted
    # curve's round-off floor is above 1% of delta, so the tilted search runs too: at most the untilted 0.7925590237191462.
    # To 1e-9 relative: the FFT's last bits differ between machines (~1e-11 relative here).
    assert uppers[0] == pytest.approx(0.5487175963778634, rel=1e-9)
    assert uppers[1] <= 0.7925590237191462


@pytest.mark.slow
def test_untilted_values_at_delta_1e_6_unchanged_for_binary_rr_and_laplace() -> None:
    # compose.binary_rr (eps0 = 4) and compose.laplace (eps0 = 2), n = 1e4, T = 2, delta = 1e-6: the values of main
    # before the tilted path (commit fc79626).
    # (to 1e-9 relative: the FFT's last bits differ between machines, ~1e-11 relative)
    assert mech.compose_binary_rr(eps0=4.0, n=10_000, delta=1e-6, rounds=2).upper == pytest.approx(0.44214787322154014, rel=1e-9)
    assert compose_laplace(eps0=2.0, n=10_000, delta=1e-6, rounds=2).upper == pytest.approx(0.13736555243039042, rel=1e-9)
