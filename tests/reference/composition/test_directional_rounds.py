"""The adaptive composition by dynamic programming over a pair and its reverse
(reference/composition/directional_rounds.py) and its use as the upper end of compose.binary_rr (U5 in the module
doc of mechanism_rounds).

The exact yardstick is the ADAPTIVE worst case, computed with Fractions by the chain rule (D1 of the module doc):
V_t(alpha) = max over the round's ordered neighbouring pairs (P, Q) of sum_y P(y) V_{t-1}(alpha Q(y) / P(y)),
V_0(alpha) = (1 - alpha)_+: every round's pair (the other users' bits and the direction) chosen after seeing the
earlier outputs. It is at least the worst product of fixed pairs (test_mechanism_rounds.py), and the upper end
must still cover it.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

from shuffle_spec.reference.composition import mechanism_rounds as mech
from shuffle_spec.reference.composition.directional_rounds import compose_directional
from shuffle_spec.reference.composition.mechanism_rounds import MechanismRound, compose_binary_rr, composed_delta

from .test_mechanism_rounds import _alpha_below, binary_rr_pairs, exact_worst_delta


def adaptive_worst_delta(pairs: list[tuple[dict, dict]], rounds: int, alpha: Fraction) -> Fraction:
    """V_rounds(alpha) of the module doc (exact, Fractions)."""

    @lru_cache(maxsize=None)
    def value(t: int, a: Fraction) -> Fraction:
        if t == 0:
            return max(1 - a, Fraction(0))
        best = Fraction(0)
        for p, q in pairs:
            total = Fraction(0)
            for y, py in p.items():
                if py == 0:
                    continue
                qy = q.get(y, Fraction(0))
                total += py * (value(t - 1, a * qy / py) if qy > 0 else 1)
            best = max(best, total)
        return best

    return value(rounds, alpha)


@pytest.mark.parametrize("n, rounds", [(3, 2), (3, 3), (4, 2)])
def test_binary_rr_upper_covers_the_exact_adaptive_worst_case(n, rounds):
    """compose.binary_rr's upper end (U5 used: one group of binary-RR rounds) >= the exact ADAPTIVE worst case:
    V_T at e^upper is <= delta; and the certified curve is above V_T at a few eps."""
    pairs = binary_rr_pairs(Fraction(3), n)
    delta = 1e-2
    result = compose_binary_rr(eps0=math.log(3), n=n, delta=delta, rounds=rounds)
    assert adaptive_worst_delta(pairs, rounds, _alpha_below(result.upper)) <= delta * (1 + 1e-9)
    for eps in (0.1, 0.5, 1.0):
        exact = adaptive_worst_delta(pairs, rounds, Fraction(math.exp(eps)) * (1 + Fraction(1, 10**9)))
        assert composed_delta([MechanismRound("binary_rr", math.log(3), n, rounds)], eps=eps).upper >= float(exact) * (1 - 1e-9)


@pytest.mark.slow
def test_adaptivity_is_what_the_yardstick_measures():
    """The adaptive yardstick is not the fixed-pair one in disguise: at n = 3, T = 3 it is strictly larger at
    some eps (else the test above would not test adaptivity)."""
    pairs = binary_rr_pairs(Fraction(3), 3)
    gaps = []
    for eps in (0.2, 0.6, 1.0, 1.4):
        alpha = Fraction(math.exp(eps))
        gaps.append(adaptive_worst_delta(pairs, 3, alpha) - exact_worst_delta([pairs] * 3, alpha))
    assert all(g >= 0 for g in gaps) and any(g > 0 for g in gaps)


def test_dynamic_programme_covers_the_exact_adaptive_composition_of_its_pair():
    """compose_directional's delta(eps) >= the exact adaptive worst case over {A, reverse A}, A the dominating
    pair itself (its masses as rationals: the float masses are upper ends, so the exact family is below)."""
    eps0, n, rounds = math.log(3), 6, 3
    floor = 1e-17
    env = mech.profile_envelope("binary_rr", eps0=eps0, n=n, floor=floor)
    pair = mech._directional_pair_on(env.eps0, env.n, floor, env.step)
    p = {int(i): Fraction(float(m)) for i, m in zip(pair.index, pair.p_mass, strict=True)}
    q = {int(i): Fraction(float(m)) for i, m in zip(pair.index, pair.q_mass, strict=True)}
    # As distributions on the loss indices (P'/Q' = e^(i step), the exact masses); the +inf atom separately.
    step = Fraction(pair.step)
    forward = ({**p, "inf": Fraction(float(pair.inf_mass))}, q)
    backward = ({**q, "-inf": Fraction(float(pair.q_inf))}, p)
    composed = compose_directional(pair, rounds=rounds, step=pair.step, lo=-400, hi=400)

    @lru_cache(maxsize=None)
    def value(t: int, e: float) -> float:  # floats suffice: the comparison below has a 1e-9 slack
        if t == 0:
            return max(-math.expm1(e), 0.0)
        best = 0.0
        for pp, _ in (forward, backward):
            sign = 1 if pp is forward[0] else -1
            total = 0.0
            for key, mass in pp.items():
                if isinstance(key, str):
                    total += float(mass)
                else:
                    total += float(mass) * value(t - 1, e - sign * key * float(step))
            best = max(best, total)
        return best

    for eps in np.linspace(0.0, 2.0, 9):
        assert composed.delta(float(eps)) >= value(rounds, float(eps)) * (1 - 1e-9) - 1e-15


def test_one_round_is_the_pair_or_its_reverse():
    """T = 1: delta(eps) >= H_{e^eps} of A and of its reverse at any eps (the chord between grid points is
    above the convex curve), and within 1e-3 relative of the larger one at the grid nodes."""
    floor = 1e-17
    env = mech.profile_envelope("binary_rr", eps0=1.0, n=50, floor=floor)
    pair = mech._directional_pair_on(env.eps0, env.n, floor, env.step)
    composed = compose_directional(pair, rounds=1, step=pair.step, lo=-2000, hi=2000)
    loss = pair.index * pair.step
    for eps in np.linspace(0.0, 0.9, 37):
        forward = pair.delta(float(eps))
        backward = float(pair.q_inf + np.sum(np.where(-loss > eps, pair.q_mass * -np.expm1(np.minimum(eps + loss, 0.0)), 0.0)))
        value = composed.delta(float(eps))
        assert value >= max(forward, backward) * (1 - 1e-12)
    for eps in env.nodes[:20]:
        assert composed.delta(float(eps)) <= max(pair.delta(float(eps)), 1e-300) * 1.001 + 1e-15


@pytest.mark.slow
def test_directional_is_below_the_symmetrised_pair():
    """The point of U5: at eps0 = 4, n = 1000, T = 100 the upper end is below the composition of the
    symmetrised dominating pair (U4 alone), still above the certified lower end, and composed_delta agrees."""
    schedule = [MechanismRound("binary_rr", 4.0, 1000, 100)]
    symmetric = mech._composed_upper(schedule, 1e-6, 1e-12)
    sym_eps = mech.solve_epsilon(lambda e: (symmetric.delta(e), symmetric.delta(e)), eps0=400.0, delta=1e-6, rel_tol=1e-6).lower
    result = mech.composed_epsilon(schedule, delta=1e-6)
    assert result.lower <= result.upper < sym_eps - 0.01
    # composed_delta takes the same smaller curve: at the returned eps its upper end is within delta.
    assert composed_delta(schedule, eps=result.upper).upper <= 1e-6 * (1 + 1e-9)
