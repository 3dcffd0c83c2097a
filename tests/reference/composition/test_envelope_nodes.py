"""The profile envelope of compose.binary_rr / compose.krr (reference/composition/mechanism_rounds.py, U1):
the block sweep covers every count (checked count by count with the scalar pair evaluator, an independent
path, at n = 100 > ALL_COUNTS_UP_TO), the tail nodes are thinned on multiples of their stride, and the
thinning and the coarser steps of `_pair_on` keep the composed values (against the unthinned envelope)."""

import numpy as np
import pytest

from shuffle_spec.reference.composition import mechanism_rounds as mech
from support.caches import fresh_mechanism_round_caches  # noqa: F401 - the fixture, named in pytestmark
from shuffle_spec.reference.exact.binary_rr import pair_delta_evaluator


pytestmark = pytest.mark.usefixtures("fresh_mechanism_round_caches")


def test_sweep_envelope_is_above_every_count():
    eps0, n = 1.0, 100
    env = mech.profile_envelope("binary_rr", eps0=eps0, n=n)
    assert n > mech.ALL_COUNTS_UP_TO  # the block sweep, not the count-by-count path
    scalar = pair_delta_evaluator(eps0)
    for i in range(0, len(env.nodes), 6):
        eps = float(env.nodes[i])
        # Every ordered pair is some (P_k, Q_k), k ones among the n - 1 others (module doc, U1).
        worst = max(scalar(n, k, eps)[0] for k in range(n))
        assert env.upper[i] >= worst


def test_nodes_are_multiples_of_the_step_and_thinned_in_the_tail():
    env = mech.profile_envelope("krr", eps0=1.0, n=100, k=3)
    index = np.rint(env.nodes / env.step).astype(np.int64)
    assert index[0] == 0 and np.all(np.diff(index) > 0)
    assert np.all(index * env.step == env.nodes)
    gaps = np.diff(index)
    for i, gap in enumerate(gaps):
        if env.upper[i] >= mech.TAIL_LEVEL:
            assert gap == 1  # every node above the tail level
        else:
            assert gap & (gap - 1) == 0 and index[i + 1] % gap == 0  # a power of 2, aligned
    assert np.any(gaps > 1)  # the tail was thinned
    assert env.upper[-1] < mech.FLOOR  # and still reaches the floor


@pytest.mark.parametrize("mechanism, k", [("binary_rr", 2), pytest.param("krr", 10, marks=pytest.mark.slow)])
def test_thinning_keeps_the_composed_values(mechanism, k, monkeypatch):
    schedule = [mech.MechanismRound(mechanism, 1.0, 200, 100, k)]
    thinned = mech.composed_epsilon(schedule, delta=1e-6, lower=False).upper
    mech._envelope_cached.cache_clear()
    mech._pair_on_cached.cache_clear()
    monkeypatch.setattr(mech, "TAIL_LEVEL", 0.0)  # every node evaluated
    full = mech.composed_epsilon(schedule, delta=1e-6, lower=False).upper
    assert full <= thinned <= full * (1 + 1e-4)


def test_coarser_step_pair_keeps_only_grid_nodes_and_dominates_them():
    env = mech.profile_envelope("krr", eps0=4.0, n=100, k=3)
    pair = mech._pair_on("krr", 4.0, 100, 3, mech.FLOOR, 4 * env.step)
    assert np.all(pair.index % 1 == 0)
    for eps, h in zip(env.nodes, env.upper, strict=True):
        if round(eps / env.step) % 4 == 0:
            assert pair.delta(float(eps)) >= h * (1 - 1e-12)


@pytest.mark.parametrize("eps0, n", [(1.0, 300), (0.5, 5000), (4.0, 50)])
def test_node_step_is_the_largest_spanning_the_profile_above_the_floor(eps0, n):
    """The step h: NODES h below eps0 with the upper value there above the floor, and 2 h not (or 0.999 eps0
    still above the floor); the values it evaluated are reused as nodes (same numbers)."""
    from shuffle_spec.reference.exact.binary_rr import pair_delta_evaluator

    scalar = pair_delta_evaluator(eps0)

    def bounds_at(eps, hint):
        return max(scalar(n, k, eps)[0] for k in (0, n - 1)), max(scalar(n, k, eps)[1] for k in (0, n - 1))

    step, seen = mech._node_step(bounds_at, eps0, mech.FLOOR)
    assert mech.NODES * step < eps0
    if bounds_at(0.999 * eps0, 0.0)[1] > mech.FLOOR:
        assert mech.NODES * 2 * step >= eps0
    else:
        assert bounds_at(mech.NODES * step, 0.0)[1] > mech.FLOOR
        assert 2 * mech.NODES * step >= eps0 or bounds_at(2 * mech.NODES * step, 0.0)[1] <= mech.FLOOR
    for eps, value in seen.items():
        assert value == bounds_at(eps, 0.0)


@pytest.mark.parametrize("eps0, n, factor", [(1.0, 300, 1.0), (1.0, 300, 3.0), (1.0, 300, 0.2), (0.5, 5000, 1.7)])
def test_node_step_from_an_estimate_is_the_bisection_step(eps0, n, factor):
    """An uncertified estimate of the profile's end (here the bisection's own end times `factor`) only
    changes where the search evaluates: the step is the one the bisection finds, with fewer evaluations."""
    from shuffle_spec.reference.exact.binary_rr import pair_delta_evaluator

    scalar = pair_delta_evaluator(eps0)

    def bounds_at(eps, hint):
        return max(scalar(n, k, eps)[0] for k in (0, n - 1)), max(scalar(n, k, eps)[1] for k in (0, n - 1))

    step, seen = mech._node_step(bounds_at, eps0, mech.FLOOR)
    again, fewer = mech._node_step(bounds_at, eps0, mech.FLOOR, estimate=factor * mech.NODES * step * 1.5)
    assert again == step
    if factor == 1.0:
        assert len(fewer) < len(seen)


def test_node_step_from_a_far_estimate_falls_back_to_the_bisection():
    eps0, n = 1.0, 300
    from shuffle_spec.reference.exact.binary_rr import pair_delta_evaluator

    scalar = pair_delta_evaluator(eps0)

    def bounds_at(eps, hint):
        return max(scalar(n, k, eps)[0] for k in (0, n - 1)), max(scalar(n, k, eps)[1] for k in (0, n - 1))

    step, _ = mech._node_step(bounds_at, eps0, mech.FLOOR)
    for estimate in (1e-12, 1e-6, 1e3):
        assert mech._node_step(bounds_at, eps0, mech.FLOOR, estimate=estimate)[0] == step


def test_each_test_starts_with_empty_mechanism_round_caches():
    """The shared fixture (`tests/support/caches.py`) empties both caches before the test: what a fresh process sees."""
    assert mech._envelope_cached.cache_info().currsize == 0 and mech._pair_on_cached.cache_info().currsize == 0
