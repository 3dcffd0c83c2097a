"""Invalid inputs of the composed lower bounds of Laplace, finite matrices and the structured randomizers
(shuffle_spec.reference.composition.count_pairs, .laplace_pairs, .finite_pairs, .blanket_lower, and the trinomial
pairs of .krr_pairs), of the piecewise mechanism's cell pairs and of the binned k-RR pair."""

from fractions import Fraction

from invalid_inputs import Case
from shuffle_spec.reference.composition import blanket_lower, count_pairs, finite_pairs, laplace_pairs
from shuffle_spec.reference.composition.blanket_rounds import BlanketRound
from shuffle_spec.reference.composition.krr_pairs import trinomial_pair_finest_step, trinomial_pair_grids, trinomial_pair_moments

HALF = Fraction(1, 2)
PAIR = count_pairs.count_pair([Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)], [HALF, HALF], "binary RR at e^eps0 = 3")
ONE = (Fraction(1), Fraction(1))

CASES = [
    Case(count_pairs.count_pair, ([HALF, HALF], [HALF, HALF], [Fraction(1, 3), Fraction(1, 3)], "x"), fragment="z"),
    Case(count_pairs.count_pair, ([Fraction(1)], [Fraction(1)], [Fraction(1)], "one bin"), fragment="bins"),
    Case(count_pairs.count_pair, ([Fraction(1), Fraction(0)], [HALF, HALF], [HALF, HALF], "a zero bin"), fragment="bin probability"),
    Case(count_pairs.count_pair_from_intervals, ([0.5], [0.5], [0.5], "floats"), fragment="mpf"),
    Case(count_pairs.krr_count_pair, (), {"eps0": 31.0, "k": 10}, fragment="eps0"),
    Case(count_pairs.krr_count_pair, (), {"eps0": 1.0, "k": 1}, fragment="k"),
    Case(count_pairs.count_pair_chi_square, ("not a pair",), fragment="pair"),
    Case(count_pairs.count_pair_finest_step, (PAIR,), {"n": 0}, fragment="n"),
    Case(count_pairs.count_pair_moments, (PAIR,), {"n": 10**9}, fragment="n"),
    Case(count_pairs.count_pair_grids, (PAIR,), {"n": 10, "step": 0.3, "tail": 0.0}, fragment="step"),
    Case(count_pairs.count_pair_grids, (PAIR,), {"n": 10, "step": 0.25, "tail": 1.0}, fragment="tail"),
    Case(trinomial_pair_finest_step, (), {"cells": (ONE,) * 8, "n": 10}, fragment="cells"),
    Case(trinomial_pair_moments, (), {"cells": (ONE,) * 9, "n": 0}, fragment="n"),
    Case(trinomial_pair_grids, (), {"cells": (ONE,) * 9, "n": 10, "step": 1.0, "tail": 0.0, "eps0": -1.0}, fragment="eps0"),
    Case(laplace_pairs.laplace_count_pairs, (), {"eps0": 9.0}, fragment="eps0"),
    Case(laplace_pairs.laplace_candidate_thresholds, (), {"eps0": 0.0}, fragment="eps0"),
    Case(laplace_pairs.laplace_binned_laws, (), {"eps0": 1.0, "thresholds": (0.7, 0.2)}, fragment="thresholds"),
    Case(finite_pairs.partitions, (9,), fragment="m"),
    Case(finite_pairs.matrix_count_pairs, ([[HALF, HALF], [HALF, HALF]],), fragment="matrix"),
    Case(finite_pairs.structured_count_pairs, (), {"randomizer": "duchi", "eps0": 1.0, "d": 4}, fragment="randomizer"),
    Case(finite_pairs.structured_count_pairs, (), {"randomizer": "oue", "eps0": 1.0, "d": 1}, fragment="d"),
    Case(finite_pairs.piecewise_count_pairs, (), {"eps0": 41.0}, fragment="eps0"),
    Case(blanket_lower.lower_groups, ([],), fragment="rounds"),
    Case(blanket_lower.blanket_lower_epsilon, ([BlanketRound("laplace", 1.0, 10)],), {"delta": 0.0}, fragment="delta"),
    Case(blanket_lower.blanket_lower_delta, ([BlanketRound("laplace", 1.0, 10)],), {"eps": -1.0, "delta_hint": 1e-6}, fragment="eps"),
]
