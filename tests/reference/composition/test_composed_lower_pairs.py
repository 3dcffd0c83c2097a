"""The composed LOWER bounds of compose.laplace, compose.finite and compose.randomizer (reference/composition/
count_pairs.py, laplace_pairs.py, finite_pairs.py, blanket_lower.py).

The exact yardsticks: at small n and T the shuffled outputs of neighbouring datasets are enumerated (exact
Fractions for a matrix and a structured randomizer, mpmath at 50 digits for a binned Laplace mechanism) and the
T-fold product's hockey-stick divergence is evaluated (float64 outer products of those values), maximised over the datasets and over the number a of rounds
in the forward direction (one pair of neighbouring T-round datasets each). That maximum is at most the worst
case, and the certified composed lower bound must be at most it: at the lower bound's eps the exact delta is
still above delta. For Laplace the reports binned by thresholds that refine the lower bound's bins are a
post-processing of Laplace's, so the binned mechanism's exact value is at most Laplace's and at least the binned
pairs' the lower bound composes.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from shuffle_spec.reference.bounds.blanket_exact_randomizer import exact_blanket_randomizer_epsilon
from shuffle_spec.reference.composition.blanket_lower import blanket_lower_delta, blanket_lower_epsilon
from shuffle_spec.reference.composition.blanket_rounds import BlanketRound, _validate_schedule, compose_laplace, composed_epsilon
from shuffle_spec.reference.composition.count_pairs import count_pair
from shuffle_spec.reference.composition.explicit_pairs import Group, lower_delta
from shuffle_spec.reference.composition.laplace_pairs import laplace_candidate_thresholds, laplace_count_pairs
from shuffle_spec.reference.composition.shuffled_rounds import Round
from shuffle_spec.reference.composition.shuffled_rounds import composed_epsilon as clones_composed_epsilon
from shuffle_spec.reference.finite.randomizers import Randomizer
from shuffle_spec.reference.finite.shuffling import neighbouring_datasets, shuffled_distribution
from shuffle_spec.reference.lower_bounds.laplace import laplace_pair_x0_interval
from shuffle_spec.reference.lower_bounds.randomizer import randomizer_pair_epsilon
from shuffle_spec.reference.randomizers.unary import optimized_unary_encoding, symmetric_rappor_epsilon_lower, symmetric_rappor_epsilon_upper

# Rows proportional to (4, 2, 1), cyclically shifted: LDP ratio 4, not k-RR (as in test_blanket_rounds).
MATRIX = [[Fraction(4, 7), Fraction(2, 7), Fraction(1, 7)], [Fraction(1, 7), Fraction(4, 7), Fraction(2, 7)], [Fraction(2, 7), Fraction(1, 7), Fraction(4, 7)]]
DELTA = 0.01


def _mp(x: object) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else mpmath.mpf(x)  # type: ignore[arg-type]


def _hockey_product(pairs: list[tuple[dict, dict]], eps: float) -> float:
    """H_{e^eps}(P_1 x ... x P_T || Q_1 x ... x Q_T): the product laws as outer products in float64 (relative error
    about T u = 1e-15 per outcome, far below the margins the assertions leave), the values given exact or at
    50 digits."""
    p, q = np.ones(1), np.ones(1)
    for pp, qq in pairs:
        keys = list(pp)
        p = np.outer(p, np.array([float(_mp(pp[y])) for y in keys])).ravel()
        q = np.outer(q, np.array([float(_mp(qq.get(y, 0))) for y in keys])).ravel()
    return float(np.maximum(p - math.exp(eps) * q, 0.0).sum())


def _mixed(p: dict, q: dict, rounds: int, eps: float) -> float:
    """max over a of the product with a rounds (P, Q) and rounds - a rounds (Q, P)."""
    return max(_hockey_product([(p, q)] * a + [(q, p)] * (rounds - a), eps) for a in range(rounds + 1))


def _worst_product_delta(rows: list[list[Fraction]], n: int, rounds: int, eps: float) -> float:
    randomizer = Randomizer.from_matrix(rows)
    worst = 0.0
    for d, d2 in neighbouring_datasets(randomizer.inputs, n):
        p = dict(shuffled_distribution(randomizer, d).items())
        q = dict(shuffled_distribution(randomizer, d2).items())
        worst = max(worst, _mixed(p, q, rounds, eps))
    return worst


def _histogram_law(own: list, others: list, n: int) -> dict[tuple[int, ...], mpmath.mpf]:
    """The law of the bin histogram of n reports: user 1's bin law `own`, the other n - 1 users' `others`."""
    with mpmath.workdps(50):
        law: dict[tuple[int, ...], mpmath.mpf] = {}
        for ys in itertools.product(range(len(own)), repeat=n):
            pr = _mp(own[ys[0]])
            for y in ys[1:]:
                pr *= _mp(others[y])
            h = tuple(ys.count(j) for j in range(len(own)))
            law[h] = law.get(h, 0) + pr
        return law


@pytest.mark.parametrize("bins", [2, 3])
def test_count_pair_composition_is_below_the_enumerated_pair_and_close_to_it(bins):
    # user 1 at x vs x', the other 3 at z, three outputs (or the first two merged); T = 3 rounds.
    x, x2, z = [Fraction(3, 5), Fraction(1, 4), Fraction(3, 20)], [Fraction(1, 5), Fraction(1, 2), Fraction(3, 10)], [Fraction(2, 5), Fraction(2, 5), Fraction(1, 5)]
    if bins == 2:
        x, x2, z = [x[0] + x[1], x[2]], [x2[0] + x2[1], x2[2]], [z[0] + z[1], z[2]]
    n, rounds = 4, 3
    p, q = _histogram_law(x, z, n), _histogram_law(x2, z, n)
    group = Group("count", 1.0, n, rounds, pairs=(count_pair(x, x2, z, "test pair"),))
    for eps in (0.0, 0.3, 0.6):
        low, which = lower_delta([group], eps=eps, delta_hint=1e-3)
        # The mixes the candidates compose: a = T, round(T/2), 0 rounds forward.
        exact = max(_hockey_product([(p, q)] * a + [(q, p)] * (rounds - a), eps) for a in (rounds, round(rounds / 2), 0))
        assert low <= exact, (eps, low, exact)
        assert low >= 0.99 * exact, (eps, low, exact, which)  # teeth: the optimistic grid loses little here


def test_matrix_composed_lower_is_below_the_exact_composed_epsilon_and_the_generic_upper():
    n, rounds = 3, 2
    low, which = blanket_lower_epsilon(_validate_schedule([BlanketRound("matrix", None, n, rounds, matrix=MATRIX)]), delta=DELTA)
    assert low > 0 and "matrix pair" in which
    # The exact worst-case composed delta just below the lower bound is still above delta: the truth is above it.
    assert _worst_product_delta(MATRIX, n, rounds, low * (1 - 1e-9)) > DELTA, low
    clones = clones_composed_epsilon([Round("clones", math.log(4) * (1 + 1e-15), n, rounds)], delta=DELTA).upper
    assert low <= clones


def test_structured_composed_lower_is_below_the_exact_composed_epsilon():
    # OUE at d = 3: the three bits at x, x', z are the whole report, so the pattern pair is a pair of the mechanism
    # itself. The lower bound is built at e^eps0 rounded down (side="lower"), the yardstick from those same rows.
    eps0, d, n, rounds = math.log(3), 3, 2, 2
    rows = optimized_unary_encoding(eps0, d, side="lower").rows()
    low, which = blanket_lower_epsilon(_validate_schedule([BlanketRound("oue", eps0, n, rounds, d=d)]), delta=DELTA)
    assert low > 0 and "oue pattern pair" in which
    assert _worst_product_delta([list(r) for r in rows], n, rounds, low * (1 - 1e-9)) > DELTA, low


def test_laplace_composed_lower_is_below_the_finer_binned_laplace_and_the_composed_upper():
    eps0, n, rounds = 2.0, 3, 2
    schedule = _validate_schedule([BlanketRound("laplace", eps0, n, rounds)])
    low, which = blanket_lower_epsilon(schedule, delta=DELTA)
    assert low > 0 and "Laplace pair" in which
    # Bins refining every candidate's (the union of their thresholds): a post-processing of Laplace, and the
    # candidates' bins are unions of these.
    cuts = sorted({c for thresholds in laplace_candidate_thresholds(eps0=eps0) for c in thresholds})
    assert len(laplace_count_pairs(eps0=eps0)) == 3
    with mpmath.workdps(50):
        fine_zero, fine_unit = _fine_laplace(eps0, cuts)
    p, q = _histogram_law(fine_zero, fine_zero, n), _histogram_law(fine_unit, fine_zero, n)
    assert _mixed(p, q, rounds, low * (1 - 1e-9)) > DELTA, low
    composed = compose_laplace(eps0=eps0, n=n, delta=DELTA, rounds=rounds)
    assert 0 < composed.lower == pytest.approx(low, rel=1e-12) and composed.lower <= composed.upper
    # delta(eps): the lower end is below the binned yardstick and the upper end.
    lower_d, _ = blanket_lower_delta(schedule, eps=0.5 * low, delta_hint=DELTA)
    assert 0 < lower_d <= _mixed(p, q, rounds, 0.5 * low)


def _fine_laplace(eps0: float, cuts: list[float]) -> tuple[list[mpmath.mpf], list[mpmath.mpf]]:
    """Bin probabilities of one eps0-Laplace report of input 0 and of input 1 between the sorted cuts (50 digits,
    the Laplace CDF written out independently of the reference)."""

    def cdf(x: int, t: float) -> mpmath.mpf:
        d = mpmath.mpf(t) - x
        return mpmath.exp(eps0 * d) / 2 if d <= 0 else 1 - mpmath.exp(-eps0 * d) / 2

    laws = []
    for x in (0, 1):
        values = [mpmath.mpf(0)] + [cdf(x, t) for t in cuts] + [mpmath.mpf(1)]
        laws.append([values[i + 1] - values[i] for i in range(len(values) - 1)])
    return laws[0], laws[1]


def test_one_round_reproduces_the_single_round_laplace_lower_bound_on_the_safe_side():
    # T = 1: the binned pair's certified eps is below the continuous pair's certified interval (a post-processing
    # of it) and within 5% of its lower end (the binning costs little).
    eps0, n, delta = 1.0, 100, 1e-6
    low, _ = blanket_lower_epsilon(_validate_schedule([BlanketRound("laplace", eps0, n, 1)]), delta=delta)
    single = laplace_pair_x0_interval(eps0=eps0, n=n, delta=delta)
    assert low <= single.upper and low >= 0.95 * single.lower, (low, single)


@pytest.mark.slow  # the single-round certified bounds: 5-15 s
@pytest.mark.parametrize("eps0", [1.0, 4.0])
def test_one_round_of_rappor_reproduces_its_single_round_bounds_on_the_safe_side(eps0):
    # T = 1: below the single-round certified upper bound, and within 10% of the single-round lower bound (the
    # pattern pair with its third-bit partitions; the composed one is ranked by chi-square and binned the same way).
    n, d, delta = 1000, 16, 1e-6
    low, _ = blanket_lower_epsilon(_validate_schedule([BlanketRound("rappor", eps0, n, 1, d=d)]), delta=delta)
    single_low = symmetric_rappor_epsilon_lower(eps0=eps0, n=n, delta=delta, d=d).lower
    single_up = symmetric_rappor_epsilon_upper(eps0=eps0, n=n, delta=delta, d=d).upper
    assert 0.9 * single_low <= low <= single_up, (low, single_low, single_up)


@pytest.mark.slow  # the matrix's Lemma 5.3 upper bound
def test_one_round_of_a_matrix_reproduces_its_single_round_bounds_on_the_safe_side():
    n, delta = 100, 1e-6
    low, _ = blanket_lower_epsilon(_validate_schedule([BlanketRound("matrix", None, n, 1, matrix=MATRIX)]), delta=delta)
    single_low = randomizer_pair_epsilon(matrix=MATRIX, n=n, delta=delta).lower
    single_up = exact_blanket_randomizer_epsilon(matrix=MATRIX, n=n, delta=delta).upper
    assert 0.99 * single_low <= low <= single_up, (low, single_low, single_up)


@pytest.mark.slow  # the k-RR envelope beside Laplace's: about a second
def test_a_mixed_schedule_lower_end_is_above_each_part_and_below_its_upper_end():
    # Dropping a part of the T-round output is a post-processing, so the mix's worst case is above each part's; the
    # mix tries each part's candidates (with the other part's), so its lower end is above each part's up to the
    # grid (1%). And it stays below the mix's certified upper end.
    laplace, krr = BlanketRound("laplace", 2.0, 3, 2), BlanketRound("krr", 1.0, 3, 2, k=3)
    parts = [blanket_lower_epsilon(_validate_schedule([r]), delta=DELTA)[0] for r in (laplace, krr)]
    mixed = composed_epsilon([laplace, krr], delta=DELTA, generic=False)
    assert mixed.lower >= 0.99 * max(parts) and 0 < mixed.lower <= mixed.upper, (parts, mixed)


def test_compose_laplace_answers_where_the_blanket_lower_end_cannot_be_evaluated():
    """compose.laplace at eps0 = 8, n = 1e6, T = 2: at some envelope node the single-round Laplace delta's LOWER end
    (its lower lattice groups) fails its own float check. The envelope needs only the upper end: the lower end
    must fall back to 0 (a valid lower end), not raise a ParameterError naming an internal "lower lattice law"
    that lost the certified upper bound."""
    from shuffle_spec.reference.composition.blanket_rounds import compose_laplace

    result = compose_laplace(eps0=8.0, n=10**6, delta=1e-6, rounds=2)
    assert 0.0 <= result.lower <= result.upper <= 16.0


def test_interval_bin_laws_are_enclosed_exactly():
    """count_pair_from_intervals keeps the 100-bit interval ends exactly: the third and two thirds in the interval
    context enclose 1/3 and 2/3 (their ends rounded to a double, the nearest doubles 0.333...31 and 0.666...63 both
    lie BELOW the truth, would be a point outside the interval)."""
    from shuffle_spec.reference.composition.count_pairs import count_pair_from_intervals
    from shuffle_spec.reference.numerics.binomial import iv_context

    iv = iv_context()
    third, two_thirds = iv.mpf(1) / 3, iv.mpf(2) / 3
    pair = count_pair_from_intervals((third, two_thirds), (two_thirds, third), (third, two_thirds), "test pair")
    for law in (pair.x, pair.x2, pair.z):
        for (lo, hi), truth in zip(law, (Fraction(1, 3), Fraction(2, 3)) if law is not pair.x2 else (Fraction(2, 3), Fraction(1, 3)), strict=True):
            assert lo < truth < hi, (lo, hi, truth)
            assert hi - lo < Fraction(1, 2**95)  # the interval's width, not a double's
