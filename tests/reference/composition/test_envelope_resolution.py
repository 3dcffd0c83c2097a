"""compose.krr's envelope resolution (reference/composition/mechanism_rounds.py, module doc "Nodes"): k-RR schedules
of MANY_ROUNDS rounds or more take the coarser `MANY` envelope (fewer nodes, coarser precision hints), shorter ones
and binary RR the `FINE` one. Both are certified upper envelopes (replace-one relation), so the composed value
stays above the composed lower bound and near the fine one; the choice is tightness and speed only."""

from __future__ import annotations

import pytest

from shuffle_spec.reference.composition import mechanism_rounds as mech

EPS0, N, K = 1.0, 2000, 3


def test_the_resolution_follows_the_mechanism_and_the_total_rounds() -> None:
    assert mech._resolution_for("krr", mech.MANY_ROUNDS) is mech.MANY
    assert mech._resolution_for("krr", mech.MANY_ROUNDS - 1) is mech.FINE
    assert mech._resolution_for("binary_rr", 10**4) is mech.FINE


def test_many_rounds_thin_earlier_than_the_fine_walk() -> None:
    # Below MANY's tail level (1e-5) the walk strides; FINE strides only below 1e-8 (_next_node's rule).
    assert mech._next_node(10, 1e-6, mech.MANY) > 11
    assert mech._next_node(10, 1e-6, mech.FINE) == 11
    assert mech._next_node(10, 1e-3, mech.MANY) == 11


def test_the_coarse_envelope_has_fewer_nodes_and_values_near_the_fine_ones() -> None:
    floor = mech._floor_for(1e-6, 100)
    fine = mech._envelope("krr", EPS0, N, K, floor, mech.FINE)
    coarse = mech._envelope("krr", EPS0, N, K, floor, mech.MANY)
    assert coarse.evaluations < fine.evaluations
    assert coarse.step == fine.step  # the same grid: only the thinning and the precision differ
    # At shared nodes both are certified upper ends of the same Lemma 5.3 delta: a coarser precision hint can only
    # loosen them, within the lattice sums' tolerance of the precision asked (1e-2 of the previous value).
    shared = {float(e): u for e, u in zip(fine.nodes, fine.upper, strict=True)}
    for e, u in zip(coarse.nodes, coarse.upper, strict=True):
        if float(e) in shared and shared[float(e)] > 1e-6:
            assert u == pytest.approx(shared[float(e)], rel=1e-3)


def test_a_schedule_of_many_rounds_stays_above_its_lower_bound_and_near_the_fine_envelope(monkeypatch: pytest.MonkeyPatch) -> None:
    rounds = [mech.MechanismRound("krr", EPS0, N, mech.MANY_ROUNDS, K)]
    coarse = mech.composed_epsilon(rounds, delta=1e-6)
    assert coarse.lower <= coarse.upper
    monkeypatch.setattr(mech, "_resolution_for", lambda mechanism, total: mech.FINE)
    fine = mech.composed_epsilon(rounds, delta=1e-6, lower=False)
    # Both certified; measured at n = 1e6 the coarse one is 1e-4 to 1.1e-3 above the fine one (module doc, "Nodes").
    assert coarse.upper == pytest.approx(fine.upper, rel=5e-3)
