"""Invalid inputs of the exact blanket bound and the pair lower bound for a finite randomizer."""

from fractions import Fraction

from invalid_inputs import Case
from shuffle_spec.reference.lower_bounds import randomizer as pair
from shuffle_spec.reference.bounds import blanket_exact_randomizer as blanket

GOOD = [["1/2", "3/10", "1/5"], ["1/5", "1/2", "3/10"], ["3/10", "1/5", "1/2"]]
RANDOMIZER = blanket.finite_randomizer(GOOD)
GROUPS = blanket.group_outputs(RANDOMIZER.rows[0], RANDOMIZER.rows[1], [Fraction(1, 3)] * 3)
PRODUCT = blanket.ProductForm(Fraction(1, 2), Fraction(3, 2), Fraction(1, 2), Fraction(3, 2), Fraction(1, 2), Fraction(1, 2))
WIDE = [[Fraction(1, 70)] * 70, [Fraction(1, 70)] * 70]

CASES = [
    Case(blanket.finite_randomizer, ([[1.0, 0.0]],), fragment="matrix"),  # one row
    Case(blanket.finite_randomizer, ("abc",), fragment="matrix"),
    Case(blanket.finite_randomizer, ([[0.5, 0.5], [0.5]],), fragment="matrix[1]"),
    Case(blanket.finite_randomizer, ([[0.5, 0.5], [0.5, "x"]],), fragment="matrix[1][1]"),
    Case(blanket.finite_randomizer, ([[0.5, 0.5], [1.5, -0.5]],), fragment="matrix[1][0]"),
    Case(blanket.finite_randomizer, ([[0.5, 0.5], [True, 0.5]],), fragment="matrix[1][0]"),
    Case(blanket.finite_randomizer, ([[0.5, 0.6], [0.5, 0.5]],), fragment="sum of matrix[0]"),
    Case(blanket.finite_randomizer, ([[0.5, 0.5], [1.0, 0.0]],), fragment="column 1"),
    Case(blanket.finite_randomizer, ([[0.5, 0.5]] * 17,), fragment="matrix"),
    Case(blanket.finite_randomizer, (WIDE,), fragment="outputs"),
    Case(blanket.finite_randomizer, ([[Fraction(1, 10**30), 1 - Fraction(1, 10**30)], [Fraction(1, 2), Fraction(1, 2)]],), fragment="eps0"),
    Case(blanket.group_outputs, ([Fraction(1, 2)], [Fraction(1, 2), Fraction(1, 2)], [Fraction(1)]), fragment="weight"),
    Case(blanket.group_outputs, ([Fraction(1, 2)], [Fraction(1, 2)], [Fraction(0)]), fragment="weight"),
    Case(blanket.count_expectation, (-1, GROUPS, 0.1), fragment="N"),
    Case(blanket.count_expectation, (10, GROUPS, -0.1), fragment="eps"),
    Case(blanket.fft_count_expectation_upper, (0, GROUPS, 0.1), fragment="N"),
    Case(blanket.count_expectations, ([10, -1], GROUPS, 0.1), fragment="N"),
    Case(blanket.count_expectations, ([10], GROUPS, -0.1), fragment="eps"),
    Case(blanket.pair_groups, ("r", 0, 1), fragment="randomizer"),
    Case(blanket.pair_groups, (RANDOMIZER, 0, 3), fragment="x2"),
    Case(blanket.check_pair_indices, (RANDOMIZER, -1, 1), fragment="x"),
    Case(blanket.product_form, ("abc",), fragment="groups"),
    Case(blanket.product_count_expectation, (0, PRODUCT, 0.1), fragment="N"),
    Case(blanket.product_count_expectation, (5, PRODUCT, -0.1), fragment="eps"),
    Case(blanket.product_count_expectation, (5, GROUPS, 0.1), fragment="form"),
    Case(blanket.product_count_expectation, (5, PRODUCT, 0.1), {"tail": 1.0}, fragment="tail"),
    Case(blanket.blanket_pair_delta, ("r", 0, 1), {"n": 10, "eps": 0.1}, fragment="randomizer"),
    Case(blanket.blanket_pair_delta, (RANDOMIZER, 0, 3), {"n": 10, "eps": 0.1}, fragment="x2"),
    Case(blanket.blanket_pair_delta, (RANDOMIZER, 0, 1), {"n": 10**9, "eps": 0.1}, fragment="n"),
    Case(blanket.blanket_pair_delta, (RANDOMIZER, 0, 1), {"n": 10, "eps": -1.0}, fragment="eps"),
    Case(blanket.exact_blanket_randomizer_delta, (), {"matrix": GOOD, "n": 0, "eps": 0.1}, fragment="n"),
    Case(blanket.exact_blanket_randomizer_delta, (), {"matrix": GOOD, "n": 10, "eps": float("nan")}, fragment="eps"),
    Case(blanket.exact_blanket_randomizer_epsilon, (), {"matrix": GOOD, "n": 10**9, "delta": 1e-6}, fragment="n"),
    Case(blanket.exact_blanket_randomizer_epsilon, (), {"matrix": GOOD, "n": 100, "delta": 1.0}, fragment="delta"),
    Case(blanket.exact_blanket_randomizer_epsilon, (), {"matrix": [[1, 0], [0, 1]], "n": 100, "delta": 1e-6}, fragment="column"),
    Case(blanket.exact_blanket_randomizer_epsilon, (), {"matrix": GOOD, "n": 100, "delta": 1e-6, "hint": float("nan")}, fragment="hint"),
    Case(blanket.solve_over_pairs, ([(0, 1)], lambda x, y, e: blanket.BoundValue(0.0, 0.0, direction="upper_bound")), {"eps0": 1.0, "delta": 2.0}, fragment="delta"),
    Case(pair.randomizer_pair_delta, (), {"matrix": GOOD, "n": 10, "eps": 0.1, "x": 0, "x2": 1, "z": 5}, fragment="z"),
    Case(pair.randomizer_pair_delta, (), {"matrix": GOOD, "n": 10, "eps": 0.1, "x": 0, "x2": 1, "z": 2, "bins": [[0], [1]]}, fragment="bins"),
    Case(pair.randomizer_pair_delta, (), {"matrix": GOOD, "n": 10, "eps": 0.1, "x": 0, "x2": 1, "z": 2, "bins": "abc"}, fragment="bins"),
    Case(pair.randomizer_pair_delta, (), {"matrix": GOOD, "n": 10, "eps": -0.1, "x": 0, "x2": 1, "z": 2}, fragment="eps"),
    Case(pair.randomizer_pair_epsilon, (), {"matrix": GOOD, "n": 10, "delta": 0.0}, fragment="delta"),
    Case(pair.randomizer_pair_epsilon, (), {"matrix": GOOD, "n": -1, "delta": 1e-6}, fragment="n"),
    Case(pair.best_randomizer_pair, (), {"matrix": [[0.5]], "n": 10, "delta": 1e-6}, fragment="matrix"),
    Case(pair.ranked_candidates, ([[0.5, 0.5], [0.5, 0.5]],), fragment="randomizer"),
    Case(pair.candidate_bins, ("r", 0, 1), fragment="randomizer"),
    Case(pair.candidate_bins, (RANDOMIZER, 0, 7), fragment="x2"),
]

# The API's gap for a matrix refuses a delta outside [1e-300, 1) (it used to return a gap with no side valid).
from shuffle_spec.interface.api import tightest_randomizer  # noqa: E402

CASES += [
    Case(tightest_randomizer, (GOOD,), {"n": 100, "delta": 2.0}, fragment="delta"),
    Case(tightest_randomizer, (GOOD,), {"n": 100, "delta": 1e-301}, fragment="delta"),
]
