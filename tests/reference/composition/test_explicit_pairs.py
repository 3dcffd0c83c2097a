"""The lower end of composed_delta for compose.binary_rr and compose.krr (reference/composition/explicit_pairs.py,
mechanism_rounds.composed_delta), against exact products of realised pairs (Fractions, full enumeration), and its
reading through the front door (interface composed_delta)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

import shuffle_spec
from shuffle_spec.reference.composition.mechanism_rounds import MechanismRound, composed_delta

SLACK = 1e-9


def _binary_pair(e0: Fraction, n: int, ones: int) -> tuple[dict, dict]:
    """Exact counts of n shuffled binary-RR reports: user 1 at 1 vs 0, `ones` ones among the others."""
    keep = e0 / (e0 + 1)
    others: dict[int, Fraction] = {0: Fraction(1)}
    for bit in [1] * ones + [0] * (n - 1 - ones):
        others = _add(others, keep if bit else 1 - keep)
    return _add(others, keep), _add(others, 1 - keep)


def _add(law: dict[int, Fraction], p1: Fraction) -> dict[int, Fraction]:
    """The law of the count plus one more report that is 1 w.p. p1."""
    out: dict[int, Fraction] = {}
    for s, v in law.items():
        out[s + 1] = out.get(s + 1, Fraction(0)) + v * p1
        out[s] = out.get(s, Fraction(0)) + v * (1 - p1)
    return out


def _product_hockey(pairs: list[tuple[dict, dict]], alpha: Fraction) -> Fraction:
    """H_alpha of the product of the rounds' pairs (the sequence of the rounds' counts is kept)."""
    pp: dict = {(): Fraction(1)}
    qq: dict = {(): Fraction(1)}
    for p, q in pairs:
        pp = {key + (y,): v * w for key, v in pp.items() for y, w in p.items()}
        qq = {key + (y,): v * w for key, v in qq.items() for y, w in q.items()}
    return sum((max(v - alpha * qq.get(y, Fraction(0)), Fraction(0)) for y, v in pp.items()), Fraction(0))


def _realised_worst(e0: Fraction, n: int, rounds: int, alpha: Fraction) -> Fraction:
    """The largest exact H_alpha over the realised T-round pairs of the candidates: k = n-1 or n-2 ones among
    the others, a rounds P_k vs Q_k and the rest mirrored (Q_k vs P_k: the user's and the others' bits flipped)."""
    worst = Fraction(0)
    for ones in (n - 1, n - 2):
        p, q = _binary_pair(e0, n, ones)
        # The mirrored datasets: user 1 at 0 vs 1 and the others' bits flipped, written out (not assumed).
        mirrored_d, mirrored_d2 = _binary_pair_mirrored(e0, n, ones)
        for a in range(rounds + 1):
            worst = max(worst, _product_hockey([(p, q)] * a + [(mirrored_d, mirrored_d2)] * (rounds - a), alpha))
    return worst


def _binary_pair_mirrored(e0: Fraction, n: int, ones: int) -> tuple[dict, dict]:
    """User 1 at 0 (in D) vs 1 (in D'), the others holding n-1-ones ones."""
    keep = e0 / (e0 + 1)
    others: dict[int, Fraction] = {0: Fraction(1)}
    for bit in [0] * ones + [1] * (n - 1 - ones):
        others = _add(others, keep if bit else 1 - keep)
    return _add(others, 1 - keep), _add(others, keep)


@pytest.mark.parametrize("eps", [0.0, 0.2, 0.6])
def test_binary_rr_delta_lower_end_is_below_the_realised_pair_and_the_upper_end(eps):
    """n = 4, T = 2, eps0 = log 3: lower end <= the largest exact delta of the realised T-round pairs (module doc
    of explicit_pairs), lower <= upper, and lower > 0 (the interval is no longer [0, upper])."""
    n, rounds = 4, 2
    value = composed_delta([MechanismRound("binary_rr", math.log(3), n, rounds)], eps=eps)
    exact = _realised_worst(Fraction(3), n, rounds, Fraction(math.exp(eps)) * (1 - Fraction(1, 10**14)))
    assert 0 < value.lower <= float(exact) * (1 + SLACK)
    assert value.lower <= value.upper


@pytest.mark.slow
def test_front_door_reads_the_lower_end_and_says_where_none_exists():
    """compose.binary_rr and compose.krr: a positive certified lower end, named in `reason`; compose.clones:
    the reason says its lower end is not a lower bound on a mechanism's delta."""
    rounds = {"rounds": 2, "eps0": 1.0, "n": 20}
    binary = shuffle_spec.composed_delta("compose.binary_rr", eps=0.2, **rounds)
    krr = shuffle_spec.composed_delta("compose.krr", eps=0.2, k=4, **rounds)
    for result in (binary, krr):
        assert 0 < result.lower <= result.upper and "explicit dataset pairs" in result.reason
    clones = shuffle_spec.composed_delta("compose.clones", eps=0.2, **rounds)
    assert "not a lower bound" in clones.reason


@pytest.mark.parametrize(
    "mechanism, eps0, n, rounds, k, deltas",
    [
        ("binary_rr", 4.0, 10**4, 2, 2, (1e-30, 1.78e-13, 3.16e-13, 1e-6)),
        pytest.param("krr", 1.0, 10**4, 10, 10, (1e-30, 1e-20, 1e-15, 1e-12, 1e-6), marks=pytest.mark.slow),
    ],
)
def test_composed_lower_end_is_monotone_in_delta_and_below_the_upper_end(mechanism, eps0, n, rounds, k, deltas):
    """eps(delta) is non-increasing in delta, so a lower end at delta' >= delta is one at delta: the lower end
    returned is non-increasing over the deltas (below the engine's round-off floor, delta < 1e-12, it was not:
    binary RR 1.78e-13 -> 0.7073 but 3.16e-13 -> 0.7227; k-RR 1e-30 -> 0.1316 but 1e-20 -> 0.1332), and at most
    the composed upper end (at the largest delta: the others' are larger)."""
    from shuffle_spec.reference.composition.mechanism_rounds import MechanismRound, composed_epsilon, composed_lower_epsilon

    schedule = [MechanismRound(mechanism, eps0, n, rounds, k)]
    ordered = sorted(deltas)
    lowers = [composed_lower_epsilon(schedule, delta=d).lower for d in ordered]
    assert all(lowers[i] >= lowers[i + 1] for i in range(len(lowers) - 1)), list(zip(ordered, lowers, strict=True))
    assert all(value > 0 for value in lowers)
    assert lowers[-1] <= composed_epsilon(schedule, delta=ordered[-1], lower=False).upper
