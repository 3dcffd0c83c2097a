"""compose.laplace, compose.finite, compose.randomizer (reference/composition/blanket_rounds.py).

The exact yardsticks: for small n and T the shuffled outputs of explicit neighbouring datasets are enumerated
(exact Fractions for the matrix and the structured randomizer, mpmath at 50 digits for the binned Laplace
mechanism) and the T-fold product's hockey-stick divergence is evaluated at the certified composed epsilon: it
must be at most delta. Products mix the pair and its reverse across rounds (a valid pair of T-round neighbouring
datasets: the same user changes its input in every round). For Laplace the output binned to {Y <= 1/2, Y > 1/2}
is a post-processing of the Laplace report, so the binned mechanism's exact epsilon is a LOWER bound on
Laplace's: the certified upper bound must be above it.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from math import comb

import mpmath
import pytest

from shuffle_spec.reference.bounds.blanket_exact_laplace import exact_blanket_laplace_delta, exact_blanket_laplace_epsilon
from shuffle_spec.reference.bounds.blanket_exact_randomizer import exact_blanket_randomizer_epsilon
from shuffle_spec.reference.composition.blanket_rounds import (
    BlanketRound,
    compose_finite,
    compose_laplace,
    compose_randomizer,
    composed_delta,
    composed_epsilon,
    round_dominating_pair,
    round_envelope,
)
from shuffle_spec.reference.composition.mechanism_rounds import MechanismRound
from shuffle_spec.reference.composition.mechanism_rounds import composed_epsilon as mechanism_composed_epsilon
from shuffle_spec.reference.composition.shuffled_rounds import Round
from shuffle_spec.reference.composition.shuffled_rounds import composed_epsilon as clones_composed_epsilon
from shuffle_spec.reference.finite.randomizers import Randomizer
from shuffle_spec.reference.finite.shuffling import neighbouring_datasets, shuffled_distribution
from shuffle_spec.reference.randomizers.unary import UnaryEncoding

# Rows proportional to (4, 2, 1), cyclically shifted: LDP ratio 4, not k-RR.
MATRIX = [[Fraction(4, 7), Fraction(2, 7), Fraction(1, 7)], [Fraction(1, 7), Fraction(4, 7), Fraction(2, 7)], [Fraction(2, 7), Fraction(1, 7), Fraction(4, 7)]]
DELTA = 0.01


def _hockey_product(pairs: list[tuple[dict, dict]], eps: float) -> mpmath.mpf:
    """H_{e^eps}(P_1 x ... x P_T || Q_1 x ... x Q_T) at 50 digits (the distributions' values exact or mpf)."""
    with mpmath.workdps(50):
        alpha = mpmath.exp(mpmath.mpf(eps))
        total = mpmath.mpf(0)
        for outcome in itertools.product(*[list(p) for p, _ in pairs]):
            p = mpmath.mpf(1)
            q = mpmath.mpf(1)
            for (pp, qq), y in zip(pairs, outcome, strict=True):
                p *= _mp(pp[y])
                q *= _mp(qq.get(y, 0))
            total += max(p - alpha * q, 0)
        return total


def _mp(x: object) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else mpmath.mpf(x)  # type: ignore[arg-type]


def _worst_product_delta(randomizer: Randomizer, n: int, rounds: int, eps: float, *, mixed: bool = True) -> float:
    """max over neighbouring datasets and over the number a of rounds in the forward direction of the T-fold
    product's hockey-stick divergence at eps (exact distributions, evaluated at 50 digits); mixed=False: a = T
    and a = 0 only (the teeth checks: one pair above delta suffices there)."""
    worst = mpmath.mpf(0)
    for d, d2 in neighbouring_datasets(randomizer.inputs, n):
        p = dict(shuffled_distribution(randomizer, d).items())
        q = dict(shuffled_distribution(randomizer, d2).items())
        for a in (range(rounds + 1) if mixed else (0, rounds)):
            worst = max(worst, _hockey_product([(p, q)] * a + [(q, p)] * (rounds - a), eps))
    return float(worst)


@pytest.mark.slow  # the 3 x 3 envelope and enumeration: 2-3 s (the proof checks cover the one-round pair by default)
def test_matrix_composed_upper_is_above_the_exact_composed_epsilon():
    rounds, n = 2, 3
    value = composed_epsilon([BlanketRound("matrix", None, n, rounds, matrix=MATRIX)], delta=DELTA, generic=False)
    exact = _worst_product_delta(Randomizer.from_matrix(MATRIX), n, rounds, value.upper)
    assert exact <= DELTA * (1 + 1e-12), (value.upper, exact)
    # Teeth: at 60% of the certified value the exact composed delta exceeds delta (the bound is not vacuous).
    assert _worst_product_delta(Randomizer.from_matrix(MATRIX), n, rounds, 0.6 * value.upper, mixed=False) > DELTA


def _oue_soundness(d: int, rounds: int) -> None:
    # OUE with q = 1/4 (e^eps0 = 3 exactly); the reference builds e^eps0 rounded UP from eps0 = log 3, so this
    # rational mechanism is a post-processing of the one analysed.
    encoding = UnaryEncoding(Fraction(1, 2), Fraction(1, 4), d)
    n = 2
    value = composed_epsilon([BlanketRound("oue", math.log(3), n, rounds, d=d)], delta=DELTA, generic=False)
    exact = _worst_product_delta(Randomizer.from_matrix(encoding.rows()), n, rounds, value.upper)
    assert exact <= DELTA * (1 + 1e-12), (value.upper, exact)
    assert _worst_product_delta(Randomizer.from_matrix(encoding.rows()), n, rounds, 0.6 * value.upper, mixed=False) > DELTA


def test_structured_composed_upper_is_above_the_exact_composed_epsilon():
    _oue_soundness(2, 2)


@pytest.mark.slow
def test_structured_composed_upper_is_above_the_exact_composed_epsilon_three_values():
    _oue_soundness(3, 2)


def _binned_laplace_count(eps0: float, n: int, user: int) -> dict[int, mpmath.mpf]:
    """The count of reports above 1/2 when user 1 holds `user` in {0, 1} and the others hold 0: one report of
    input x is above 1/2 with probability e^{-eps0/2}/2 (x = 0) or 1 - e^{-eps0/2}/2 (x = 1)."""
    with mpmath.workdps(50):
        low = mpmath.exp(-mpmath.mpf(eps0) / 2) / 2
        own = 1 - low if user == 1 else low
        others = {j: comb(n - 1, j) * low**j * (1 - low) ** (n - 1 - j) for j in range(n)}
        out: dict[int, mpmath.mpf] = {}
        for j, pj in others.items():
            out[j + 1] = out.get(j + 1, 0) + pj * own
            out[j] = out.get(j, 0) + pj * (1 - own)
        return out


def test_laplace_composed_upper_is_above_the_binned_laplace_lower_bound():
    eps0, n, rounds = 2.0, 3, 3
    value = composed_epsilon([BlanketRound("laplace", eps0, n, rounds)], delta=DELTA, generic=False)
    p, q = _binned_laplace_count(eps0, n, 1), _binned_laplace_count(eps0, n, 0)
    at = max(_hockey_product([(p, q)] * a + [(q, p)] * (rounds - a), value.upper) for a in range(rounds + 1))
    assert at <= DELTA, (value.upper, at)
    # Teeth: the binned mechanism's composed delta at a third of the certified value is above delta.
    third = max(_hockey_product([(p, q)] * a + [(q, p)] * (rounds - a), value.upper / 3) for a in range(rounds + 1))
    assert third > DELTA


def test_one_round_reproduces_the_single_round_value_on_the_safe_side():
    composed = composed_epsilon([BlanketRound("laplace", 2.0, 3)], delta=DELTA, generic=False).upper
    # The dominating pair's curve is >= the envelope >= Lemma 5.3's value at every hull vertex, so at the composed
    # T = 1 value Lemma 5.3's certified delta (lower end) is <= delta: the single-round eps is not above it; and
    # the hull between nodes costs at most a few percent: 6% below it, Lemma 5.3's delta is certified above delta.
    assert exact_blanket_laplace_delta(eps0=2.0, n=3, eps=composed).lower <= DELTA
    assert exact_blanket_laplace_delta(eps0=2.0, n=3, eps=composed / 1.06).upper > DELTA


@pytest.mark.slow  # the single-round solves
@pytest.mark.parametrize("mechanism", ["laplace", "matrix"])
def test_one_round_lies_within_the_single_round_interval(mechanism):
    if mechanism == "laplace":
        r, one = BlanketRound("laplace", 2.0, 3), exact_blanket_laplace_epsilon(eps0=2.0, n=3, delta=DELTA)
    else:
        r, one = BlanketRound("matrix", None, 3, matrix=MATRIX), exact_blanket_randomizer_epsilon(matrix=MATRIX, n=3, delta=DELTA)
    composed = composed_epsilon([r], delta=DELTA, generic=False).upper
    assert one.lower <= composed <= one.upper * 1.06, (composed, one)


def test_monotone_in_rounds_and_the_generic_minimum():
    values = [composed_epsilon([BlanketRound("laplace", 2.0, 3, t)], delta=DELTA, generic=False).upper for t in (1, 2, 5, 20)]
    assert all(a < b for a, b in zip(values[:-1], values[1:], strict=True)), values
    clones = clones_composed_epsilon([Round("clones", 2.0, 3, 20)], delta=DELTA).upper
    both = compose_laplace(eps0=2.0, n=3, delta=DELTA, rounds=20)
    assert both.upper == min(values[-1], clones)
    assert both.direction == "upper_bound" and 0.0 < both.lower <= both.upper  # the lower end: composed explicit pairs


@pytest.mark.slow  # the 3 x 3 envelope
def test_generic_value_is_kept_where_it_is_smaller():
    # A tiny n: Lemma 5.3's blanket carries little mass, the clone pair may be better; whichever is smaller is kept.
    specific = composed_epsilon([BlanketRound("matrix", None, 3, 4, matrix=MATRIX)], delta=DELTA, generic=False).upper
    clones = clones_composed_epsilon([Round("clones", math.log(4) * (1 + 1e-15), 3, 4)], delta=DELTA).upper
    both = compose_finite(matrix=MATRIX, n=3, delta=DELTA, rounds=4)
    assert both.upper <= specific and both.upper == pytest.approx(min(specific, clones), rel=1e-9)
    if clones < specific:
        assert "compose.clones" in both.note


def test_heterogeneous_schedule_is_above_each_part():
    laplace = BlanketRound("laplace", 2.0, 3, 2)
    oue = BlanketRound("oue", math.log(3), 2, 1, d=2)
    mixed = composed_epsilon([laplace, oue], delta=DELTA, generic=False).upper
    parts = [composed_epsilon([r], delta=DELTA, generic=False).upper for r in (laplace, oue)]
    # Composing more rounds never lowers epsilon (dropping rounds is a post-processing); basic composition caps it.
    assert max(parts) < mixed <= 2 * 2.0 + math.log(3) * (1 + 1e-12)


@pytest.mark.slow
def test_heterogeneous_schedule_with_structured_and_krr_rounds_is_above_each_part():
    laplace = BlanketRound("laplace", 1.0, 100, 3)
    oue = BlanketRound("oue", 0.5, 50, 2, d=50)
    krr = BlanketRound("krr", 1.0, 50, 2, k=4)
    mixed = composed_epsilon([laplace, oue, krr], delta=1e-6, generic=False).upper
    parts = [composed_epsilon([r], delta=1e-6, generic=False).upper for r in (laplace, oue)]
    parts.append(mechanism_composed_epsilon([MechanismRound("krr", 1.0, 50, 2, 4)], delta=1e-6, lower=False).upper)
    assert max(parts) < mixed <= 3 * 1.0 + 2 * 0.5 + 2 * 1.0


def test_composed_delta_agrees_with_composed_epsilon():
    r = BlanketRound("laplace", 2.0, 3, 5)
    eps = composed_epsilon([r], delta=DELTA, generic=False).upper
    assert composed_delta([r], eps=eps).upper <= DELTA
    assert composed_delta([r], eps=eps * 0.9).upper > DELTA


def test_envelope_and_pair_shapes():
    env = round_envelope(BlanketRound("laplace", 2.0, 3))
    assert env.nodes[0] == 0 and math.frexp(env.step)[0] == 0.5 and env.eps0_bound == 2.0
    assert env.upper[-1] < 1e-17 or env.nodes[-1] + env.step >= 2.0
    pair = round_dominating_pair(BlanketRound("laplace", 2.0, 3))
    # P' is a probability distribution up to the outward rounding of its masses (C4 of connect the dots).
    total = float(pair.p_mass.sum()) + pair.inf_mass
    assert 1 - 1e-9 <= total <= 1 + 1e-9
    # Closed at the round's eps0 (an eps0-LDP round is eps0-DP after shuffling: no loss above it), positive below.
    assert pair.delta(2.0) == 0.0 and pair.delta(float(env.step)) > 0.0 and pair.index.max() * pair.step <= 2.0


@pytest.mark.slow
@pytest.mark.parametrize("name, d", [("hadamard", 20), ("subset", 20), ("duchi", None)])
def test_structured_randomizers_compose_below_the_generic_pair(name, d):
    # docs/composition.md's table has every structured randomizer at n = 1e4 and 1e6 (benchmarks/compose_blanket.py);
    # n = 50 keeps the envelope to seconds.
    specific = composed_epsilon([BlanketRound(name, 1.0, 50, 10, d=d)], delta=1e-6, generic=False).upper
    clones = clones_composed_epsilon([Round("clones", 1.0, 50, 10)], delta=1e-6).upper
    assert 0 < specific < clones
    assert compose_randomizer(randomizer=name, eps0=1.0, n=50, delta=1e-6, rounds=10, d=d).upper == specific
