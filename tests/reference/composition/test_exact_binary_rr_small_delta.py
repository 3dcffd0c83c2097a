"""compose.exact_binary_rr (a LOWER bound: the exact binary-RR pairs (P_k, Q_k) composed T times, replace-one relation)
below delta ~ 1e-24. The pairs' binomial windows dropped a tail of 1e-24 whatever the delta, so the optimistic curves
lost every outcome rarer than that (eps0 = 1, n = 100, k = 0, P vs Q: the largest loss kept was 0.871 of eps0 = 1);
below TILT_BELOW the window now follows the tail budget (as the clone pairs'). A lower end certified at a larger delta
holds at every smaller one (eps(delta) is non-increasing), so the composed lower end should not fall as delta falls:
where the upper end is not certified below eps0 x T the lower end has its own tilted search
(`solve.tilted_lower_epsilon`; it was the untilted curve's crossing, 1.0939 at 1e-50 against 1.9983 at 1e-30)."""

from __future__ import annotations

import pytest

from shuffle_spec.reference.composition.binary_rr_pairs import binary_rr_pair_plds
from shuffle_spec.reference.composition.shuffled_rounds import compose_exact_binary_rr, compose_exact_binary_rr_mp


def test_a_small_window_tail_keeps_the_rare_outcomes_of_the_pair() -> None:
    # k = 0 (the other n - 1 users hold 0): the count of ones n has loss exactly eps0 (P/Q = e^eps0 there) and
    # probability ~2.5e-57; with a window tail of 1e-60 it is listed, and nothing but subnormal dust is dropped.
    forward, _ = binary_rr_pair_plds(1.0, 100, 0, window_tail=1e-60)
    assert float(forward.loss_hi.max()) >= 1.0 - 1e-9
    assert forward.dropped <= 1e-280
    assert float(forward.mass_hi.sum()) + forward.dropped >= 1.0  # every outcome is listed or accounted
    default, _ = binary_rr_pair_plds(1.0, 100, 0)
    assert float(default.loss_hi.max()) < 0.9  # the default window (1e-24) stops below the rare outcomes


@pytest.mark.slow
def test_the_composed_exact_pair_lower_end_does_not_fall_below_its_value_at_a_larger_delta() -> None:
    larger = compose_exact_binary_rr(eps0=1.0, n=100, delta=1e-30, rounds=2)
    smaller = compose_exact_binary_rr(eps0=1.0, n=100, delta=1e-50, rounds=2)
    assert larger.direction == smaller.direction == "lower_bound"
    # Both are certified lower ends; the search's grid step (~1e-4 here) may move the smaller-delta one by a few steps.
    assert smaller.value >= larger.value - 1e-3, (smaller.value, larger.value)


def test_the_composed_exact_pair_lower_end_at_1e_50_is_within_the_grid_of_the_enumerated_truth() -> None:
    # eps0 = 1, n = 100, T = 2 at delta = 1e-50: the (Q_0, P_0) direction has loss exactly 2 (Q/P = e per round at
    # count 0) with Q-mass (e/(e+1))^200 ~ 7e-28, so its exact eps is 2 - O(1e-23) (the 40-digit enumeration of
    # compose_exact_binary_rr_mp, an independent computation with exact composed losses, encloses it). The
    # certified lower end must lie below that truth and, the grid step being 2^-13, within 2 x T x 2^-13 of it
    # (it was 1.0939: the untilted curve's crossing near delta ~ 1e-13).
    result = compose_exact_binary_rr(eps0=1.0, n=100, delta=1e-50, rounds=2)
    truth_low, _ = compose_exact_binary_rr_mp(dps=40, eps0=1.0, n=100, delta=1e-50, rounds=2)
    assert result.direction == "lower_bound"
    assert result.value <= float(truth_low)
    assert result.value >= float(truth_low) - 4 * 2.0**-13, (result.value, float(truth_low))
