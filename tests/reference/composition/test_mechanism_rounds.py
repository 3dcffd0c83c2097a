"""compose.binary_rr and compose.krr (reference/composition/mechanism_rounds.py, connect_the_dots.py).

The exact yardstick: for small n, every ordered neighbouring pair of one round is enumerated with Fractions
(binary RR: k ones among the others, both orders; k-RR: every multiset of the others' inputs, every ordered
pair of the user's inputs), and the T-round worst case is the largest hockey-stick divergence over the products
of per-round pairs (the other users' data and the direction may change from round to round; the upper bound
covers that, adaptively chosen rounds included). The floats eps0 = log(3), log(2) are within 1e-16 of the
rationals used, so comparisons allow a relative 1e-9.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from shuffle_spec.reference.bounds.blanket_exact_krr import exact_blanket_krr_epsilon
from shuffle_spec.reference.composition.connect_the_dots import connect_the_dots
from shuffle_spec.reference.composition.mechanism_rounds import (
    MechanismRound,
    compose_binary_rr,
    compose_krr,
    composed_delta,
    composed_epsilon,
    composed_lower_epsilon,
    dominating_pair,
    profile_envelope,
)
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.exact.binary_rr import shuffled_binary_rr

SLACK = 1e-9


def _binomial(count: int, prob: Fraction) -> dict[int, Fraction]:
    return {x: comb(count, x) * prob**x * (1 - prob) ** (count - x) for x in range(count + 1)}


def _convolve(a: dict, b: dict) -> dict:
    out: dict = {}
    for x, px in a.items():
        for y, py in b.items():
            key = tuple(i + j for i, j in zip(x, y, strict=True)) if isinstance(x, tuple) else x + y
            out[key] = out.get(key, Fraction(0)) + px * py
    return out


def binary_rr_pairs(e0: Fraction, n: int) -> list[tuple[dict, dict]]:
    """Every ordered neighbouring pair of n shuffled binary-RR counts (exact)."""
    keep = e0 / (e0 + 1)
    pairs = []
    for ones in range(n):
        others = _convolve(_binomial(ones, keep), _binomial(n - 1 - ones, 1 - keep))
        p = _convolve({1: keep, 0: 1 - keep}, others)
        q = _convolve({1: 1 - keep, 0: keep}, others)
        pairs += [(p, q), (q, p)]
    return pairs


def krr_pairs(e0: Fraction, n: int, k: int) -> list[tuple[dict, dict]]:
    """Every ordered neighbouring pair of n shuffled k-RR histograms (exact): others' input multisets x user pairs."""
    d = e0 + k - 1

    def report(x: int) -> dict:
        return {tuple(int(j == y) for j in range(k)): (e0 if y == x else Fraction(1)) / d for y in range(k)}

    pairs = []
    for rest in itertools.combinations_with_replacement(range(k), n - 1):
        others: dict = {tuple([0] * k): Fraction(1)}
        for x in rest:
            others = _convolve(others, report(x))
        for a, b in itertools.permutations(range(k), 2):
            pairs.append((_convolve(report(a), others), _convolve(report(b), others)))
    return pairs


def _product(pairs: tuple) -> tuple[dict, dict]:
    p: dict = {(): Fraction(1)}
    q: dict = {(): Fraction(1)}
    for pp, qq in pairs:
        p = {key + (y,): v * w for key, v in p.items() for y, w in pp.items()}
        q = {key + (y,): v * w for key, v in q.items() for y, w in qq.items()}
    return p, q


def _hockey(p: dict, q: dict, alpha: Fraction) -> Fraction:
    return sum((max(v - alpha * q.get(y, Fraction(0)), Fraction(0)) for y, v in p.items()), Fraction(0))


def exact_worst_delta(rounds: list[list[tuple[dict, dict]]], alpha: Fraction) -> Fraction:
    """max over one pair per round (each round's own list) of the product pair's H_alpha."""
    worst = Fraction(0)
    for choice in itertools.product(*rounds):
        worst = max(worst, _hockey(*_product(choice), alpha))
    return worst


def _alpha_below(eps: float) -> Fraction:
    """A rational <= e^eps (delta is non-increasing: its value there bounds delta(eps) from above). math.exp is
    within 1 ulp (2.2e-16 relative) of e^eps, so shaving 1e-14 is enough; a coarser shave (1e-9 was used) raises the
    exact delta by more than the test's slack where the certified upper end is within 1e-9 of the exact root (at
    n = 3, T = 2 the single certified search lands 3.3e-10 above it, still above: sound)."""
    return Fraction(math.exp(eps)) * (1 - Fraction(1, 10**14))


@pytest.mark.parametrize("n, rounds", [(3, 1), (4, 2), pytest.param(3, 2, marks=pytest.mark.slow), pytest.param(3, 3, marks=pytest.mark.slow)])
def test_binary_rr_upper_covers_the_exact_worst_product(n, rounds):
    """composed upper eps >= exact eps of the worst product of per-round pairs: delta_exact(e^upper) <= delta."""
    pairs = binary_rr_pairs(Fraction(3), n)
    delta = 1e-2
    result = compose_binary_rr(eps0=math.log(3), n=n, delta=delta, rounds=rounds)
    exact_at_upper = exact_worst_delta([pairs] * rounds, _alpha_below(result.upper))
    assert exact_at_upper <= delta * (1 + SLACK)
    # ... and the curve too, at eps where the exact worst case is not trivial.
    for eps in (0.1, 0.4, 0.9):
        upper = composed_delta([MechanismRound("binary_rr", math.log(3), n, rounds)], eps=eps).upper
        assert upper >= float(exact_worst_delta([pairs] * rounds, Fraction(math.exp(eps)) * (1 + Fraction(1, 10**9)))) * (1 - SLACK)


# (3, 3, 1) at 100 alphas of the profile is also a proof check (proofs_checks/derived/compose_mechanism.py).
@pytest.mark.parametrize("n, k, rounds", [pytest.param(3, 3, 1, marks=pytest.mark.slow), pytest.param(2, 3, 2, marks=pytest.mark.slow), pytest.param(3, 4, 1, marks=pytest.mark.slow)])
def test_krr_upper_covers_the_exact_worst_product(n, k, rounds):
    pairs = krr_pairs(Fraction(3), n, k)
    delta = 1e-2
    result = compose_krr(eps0=math.log(3), n=n, delta=delta, rounds=rounds, k=k)
    assert exact_worst_delta([pairs] * rounds, _alpha_below(result.upper)) <= delta * (1 + SLACK)


@pytest.mark.slow
def test_heterogeneous_rounds_cover_the_exact_worst_product():
    """Different eps0 and n per round (and both mechanisms): still above the exact worst product."""
    schedule = [MechanismRound("binary_rr", math.log(3), 3, 1), MechanismRound("binary_rr", math.log(2), 4, 1), MechanismRound("krr", math.log(3), 2, 1, 3)]
    exact_rounds = [binary_rr_pairs(Fraction(3), 3), binary_rr_pairs(Fraction(2), 4), krr_pairs(Fraction(3), 2, 3)]
    delta = 1e-2
    result = composed_epsilon(schedule, delta=delta)
    assert exact_worst_delta(exact_rounds, _alpha_below(result.upper)) <= delta * (1 + SLACK)
    assert result.lower <= result.upper


def test_lower_bound_is_below_the_exact_worst_product():
    """The composed explicit pairs' lower end: the exact worst product has delta > target just above it."""
    n, rounds, delta = 4, 2, 1e-2
    pairs = binary_rr_pairs(Fraction(3), n)
    lower = composed_lower_epsilon([MechanismRound("binary_rr", math.log(3), n, rounds)], delta=delta).lower
    assert lower > 0
    above = Fraction(math.exp(lower)) * (1 + Fraction(1, 10**9))  # a rational >= e^lower
    assert exact_worst_delta([pairs] * rounds, above) >= delta * (1 - SLACK)


@pytest.mark.slow
@pytest.mark.parametrize("eps0, n, rounds", [(1.0, 1000, 1), (1.0, 1000, 10), (0.5, 200, 50), (4.0, 1000, 10), (2.0, 300, 10)])
def test_upper_is_above_lower_and_close_to_it(eps0, n, rounds):
    """The certified interval: lower end (composed explicit pairs) <= upper end (dominating pair), within
    the benchmark's target 2% at these points (a tightness property of the construction: could fail)."""
    result = compose_binary_rr(eps0=eps0, n=n, delta=1e-6, rounds=rounds)
    assert 0 < result.lower <= result.upper <= 1.02 * result.lower


@pytest.mark.slow
def test_one_round_reproduces_the_single_round_certified_values():
    """T = 1: at least the single-round truth's lower end, within 1% of its certified upper end."""
    single = shuffled_binary_rr(eps0=1.0, n=1000, delta=1e-6)
    composed = compose_binary_rr(eps0=1.0, n=1000, delta=1e-6, rounds=1)
    assert single.lower <= composed.upper <= single.upper * 1.01
    blanket = exact_blanket_krr_epsilon(eps0=1.0, n=1000, delta=1e-6, k=5)
    krr = compose_krr(eps0=1.0, n=1000, delta=1e-6, rounds=1, k=5)
    # The envelope is Lemma 5.3's delta, convex in e^eps, so the chord between nodes stays above it.
    assert blanket.lower <= krr.upper <= blanket.upper * 1.01


@pytest.mark.slow
def test_monotone_in_the_number_of_rounds():
    values = [compose_binary_rr(eps0=1.0, n=500, delta=1e-6, rounds=t).upper for t in (1, 2, 5, 20, 100)]
    assert all(a < b for a, b in zip(values, values[1:], strict=False))
    krr = [compose_krr(eps0=1.0, n=500, delta=1e-6, rounds=t, k=4).upper for t in (1, 3, 30)]
    assert all(a < b for a, b in zip(krr, krr[1:], strict=False))


@pytest.mark.slow
def test_mechanism_specific_is_below_the_generic_pair():
    """The point of the mechanism-specific pair: below the stronger-clone pair (eps0 = 1, n = 1000, T = 10)."""
    from shuffle_spec.reference.composition.shuffled_rounds import compose_stronger_clones

    generic = compose_stronger_clones(eps0=1.0, n=1000, delta=1e-6, rounds=10).upper
    assert compose_binary_rr(eps0=1.0, n=1000, delta=1e-6, rounds=10).upper < generic
    assert compose_krr(eps0=1.0, n=1000, delta=1e-6, rounds=10, k=10).upper < generic


def test_connect_the_dots_dominates_its_nodes_and_is_a_distribution():
    env = profile_envelope("binary_rr", eps0=1.0, n=20)
    pair = dominating_pair("binary_rr", eps0=1.0, n=20)
    for eps, h in zip(env.nodes, env.upper, strict=True):
        assert pair.delta(float(eps)) >= h * (1 - 1e-12)
    total = float(np.sum(pair.p_mass)) + pair.inf_mass
    assert 1 <= total <= 1 + 1e-9  # masses are upper ends of a probability distribution
    assert float(np.sum(pair.q_mass)) <= 1 + 1e-9
    assert pair.inf_mass == 0.0  # the eps0 node closes the curve: no infinite loss


def test_connect_the_dots_takes_non_convex_upper_bounds():
    """Upper bounds raised by uneven amounts (not convex: some lie above their neighbours' chord): the pair
    still dominates the exact profile (binary RR, n = 5, e^eps0 = 3) at 60 points of [0, eps0]."""
    pairs = binary_rr_pairs(Fraction(3), 5)
    step = 2.0**-4
    nodes = [i * step for i in range(17)]  # below eps0 = log 3 ~ 1.0986
    exact = [float(exact_worst_delta([pairs], _alpha_below(e))) for e in nodes]
    raised = [min(1.0, v * (1 + 0.3 * (i % 3)) + 1e-3 * (i % 2)) for i, v in enumerate(exact)]
    pair = connect_the_dots(step, nodes, raised, eps0=math.log(3))
    for eps in np.linspace(0, math.log(3), 60):
        truth = float(exact_worst_delta([pairs], Fraction(math.exp(eps)) * (1 + Fraction(1, 10**9))))
        assert pair.delta(float(eps)) >= truth * (1 - 1e-12)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"step": 0.1, "eps_nodes": [0.0, 0.1], "h_upper": [0.5, 0.1]}, "step"),
        ({"step": 0.125, "eps_nodes": [0.125, 0.25], "h_upper": [0.5, 0.1]}, "eps_nodes"),
        ({"step": 0.125, "eps_nodes": [0.0, 0.125], "h_upper": [0.5, 1.5]}, "h_upper"),
        ({"step": 0.125, "eps_nodes": [0.0, 0.125], "h_upper": [0.5]}, "eps_nodes"),
    ],
)
def test_connect_the_dots_refuses_bad_input(kwargs, name):
    with pytest.raises(ParameterError, match=name):
        connect_the_dots(**kwargs)


@pytest.mark.parametrize(
    "round_, name",
    [
        (MechanismRound("laplace", 1.0, 100), "mechanism"),
        (MechanismRound("binary_rr", 1e-4, 100), "eps0"),
        (MechanismRound("binary_rr", 1.0, 10**7 + 1), "n"),
        (MechanismRound("krr", 1.0, 10**8 + 1, 1, 3), "n"),
        (MechanismRound("binary_rr", 1.0, 100, 1, 3), "k"),
        (MechanismRound("krr", 1.0, 100, 1, 1), "k"),
        (MechanismRound("krr", 1.0, 100, 0, 3), "rounds"),
    ],
)
def test_bad_rounds_are_refused_naming_the_parameter(round_, name):
    with pytest.raises(ParameterError, match=name):
        composed_epsilon([round_], delta=1e-6)
