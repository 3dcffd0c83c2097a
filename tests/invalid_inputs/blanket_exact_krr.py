"""Invalid inputs of the exact blanket bound, the k-RR pair lower bounds and their lattice-sum engine."""

import mpmath

from invalid_inputs import Case
from shuffle_spec.reference.numerics import lattice_sums
from shuffle_spec.reference.lower_bounds import krr as lower_bounds
from shuffle_spec.reference.bounds import blanket_exact_krr as blanket_exact

LAW = lattice_sums.binomial_law(mpmath.mpf(1) / 3)
GOOD = lattice_sums.Coefficients((1.0, 1.0), (-2.0, -2.0), (-0.5, -0.5))
WRONG_ORDER = lattice_sums.Coefficients((1.0, 1.0), (-0.1, -0.1), (-0.5, -0.5))  # c1 > c2: F not monotone

CASES = [
    Case(lattice_sums.binomial_law, (mpmath.mpf(0),), fragment="p"),
    Case(lattice_sums.binomial_law, (1.5,), fragment="p"),
    Case(lattice_sums.binomial_window, (-1, LAW, 1e-9), fragment="m"),
    Case(lattice_sums.binomial_window, (10, 0.5, 1e-9), fragment="law"),
    Case(lattice_sums.binomial_window, (10, LAW, 0.0), fragment="tail"),
    Case(lattice_sums.positive_part_expectation, (10, LAW, LAW, WRONG_ORDER), {"tail": 1e-9}, fragment="coefficients"),
    Case(lattice_sums.positive_part_expectation, (10, LAW, LAW, "c"), {"tail": 1e-9}, fragment="coefficients"),
    Case(lattice_sums.positive_part_expectation, (-3, LAW, LAW, GOOD), {"tail": 1e-9}, fragment="m"),
    Case(lattice_sums.positive_part_expectation, (10, LAW, LAW, GOOD), {"tail": 1e-9, "per_sd": 0}, fragment="per_sd"),
    Case(lattice_sums.solve_certified_epsilon, (lambda e: (0.0, 0.0),), {"eps0": 1.0, "delta": 1.5, "rel_tol": 1e-3}, fragment="delta"),
    Case(lattice_sums.solve_certified_epsilon, (lambda e: (0.0, 0.0),), {"eps0": -1.0, "delta": 1e-6, "rel_tol": 1e-3}, fragment="eps0"),
    Case(blanket_exact.bracket, (float("nan"),), fragment="x"),
    Case(blanket_exact.check_krr_inputs, (1.0, 10, 1e-6, 1), fragment="k"),
    Case(blanket_exact.exact_blanket_krr_epsilon, (), {"eps0": 1.0, "n": 10**9, "delta": 1e-6, "k": 3}, fragment="n"),
    Case(blanket_exact.exact_blanket_krr_epsilon, (), {"eps0": 51.0, "n": 100, "delta": 1e-6, "k": 3}, fragment="eps0"),
    Case(blanket_exact.exact_blanket_krr_epsilon, (), {"eps0": 1.0, "n": 100, "delta": 0.0, "k": 3}, fragment="delta"),
    Case(blanket_exact.exact_blanket_krr_epsilon, (), {"eps0": 1.0, "n": 100, "delta": 1e-6, "k": 10**7}, fragment="k"),
    # Below eps0 = 1e-12 only [0, eps0] is certified: an interval narrowed at both ends is refused.
    Case(blanket_exact.exact_blanket_krr_epsilon, (), {"eps0": 1e-13, "n": 20, "delta": 1e-16, "k": 3, "tight": "both"}, fragment="eps0"),
    Case(blanket_exact.exact_blanket_krr_delta, (), {"eps0": 1.0, "n": 100, "k": 3, "eps": -0.1}, fragment="eps"),
    Case(blanket_exact.exact_blanket_krr_delta, (), {"eps0": 1.0, "n": 0, "k": 3, "eps": 0.1}, fragment="n"),
    Case(lower_bounds.krr_pair_delta, (), {"eps0": 1.0, "n": 100, "k": 3, "eps": 0.1, "pair": "other"}, fragment="pair"),
    Case(lower_bounds.krr_pair_delta, (), {"eps0": 1.0, "n": 100, "k": 2, "eps": 0.1, "pair": "third"}, fragment="k"),
    Case(blanket_exact.exact_blanket_krr_delta, (), {"eps0": 1.0, "n": 100, "k": 3, "eps": 0.1, "path": "grid"}, fragment="path"),
    Case(lower_bounds.krr_pair_delta, (), {"eps0": 1.0, "n": 100, "k": 3, "eps": 0.1, "pair": "x0", "tail": 0.0}, fragment="tail"),
    Case(lower_bounds.krr_pair_delta, (), {"eps0": 1.0, "n": 100, "k": 3, "eps": 0.1, "pair": "x0", "tail": 1.0}, fragment="tail"),
    Case(lower_bounds.krr_pair_delta, (), {"eps0": 1.0, "n": 100, "k": 3, "eps": 0.1, "pair": "x0", "per_sd": 0}, fragment="per_sd"),
    Case(lower_bounds.krr_pair_delta, (), {"eps0": 1.0, "n": 100, "k": 3, "eps": 0.1, "pair": "third", "sharp_upper": 1}, fragment="sharp_upper"),
    # The switches take True or False only (a string or a number was read by its truthiness: "no" meant True).
    Case(blanket_exact.exact_blanket_krr_delta, (), {"eps0": 1.0, "n": 100, "k": 3, "eps": 0.1, "sharp_lower": "no"}, fragment="sharp_lower"),
    Case(blanket_exact.exact_blanket_krr_delta, (), {"eps0": 1.0, "n": 100, "k": 3, "eps": 0.1, "sharp_lower": None}, fragment="sharp_lower"),
    Case(blanket_exact.exact_blanket_krr_delta, (), {"eps0": 1.0, "n": 100, "k": 3, "eps": 0.1, "skip_negligible": "no"}, fragment="skip_negligible"),
    Case(lower_bounds.krr_pair_delta, (), {"eps0": 1.0, "n": 100, "k": 3, "eps": 0.1, "pair": "x0", "sharp_lower": float("nan")}, fragment="sharp_lower"),
    Case(lower_bounds.krr_pair_third_split_delta, (), {"eps0": 8.0, "n": 100, "k": 10, "eps": 0.5, "skip_negligible": "False"}, fragment="skip_negligible"),
    Case(lower_bounds.krr_pair_third_split_delta, (), {"eps0": 8.0, "n": 100, "k": 10, "eps": 0.5, "skip_negligible": 0}, fragment="skip_negligible"),
    Case(lower_bounds.krr_pair_x0_chernoff_delta, (), {"eps0": 1.0, "n": 100, "k": 3, "eps": -0.1}, fragment="eps"),
    Case(lower_bounds.krr_pair_x0_chernoff_delta, (), {"eps0": 1.0, "n": 100, "k": 1, "eps": 0.1}, fragment="k"),
    Case(lower_bounds.krr_pair_x0_chernoff_delta, (), {"eps0": 1.0, "n": 10**9, "k": 3, "eps": 0.1}, fragment="n"),
    Case(lower_bounds.krr_pair_third_epsilon, (), {"eps0": 1.0, "n": 100, "delta": 1e-6, "k": 2}, fragment="k"),
    Case(lower_bounds.krr_pair_x0_epsilon, (), {"eps0": 1.0, "n": 2.5, "delta": 1e-6, "k": 3}, fragment="n"),
    Case(lower_bounds.krr_pair_third_split_epsilon, (), {"eps0": 8.0, "n": 100, "delta": 1e-6, "k": 3}, fragment="k"),
    Case(lower_bounds.krr_pair_third_split_epsilon, (), {"eps0": 1.0, "n": 10**6, "delta": 1e-6, "k": 10}, fragment="n"),
    Case(lower_bounds.krr_pair_third_split_delta, (), {"eps0": 8.0, "n": 100, "k": 10, "eps": -0.5}, fragment="eps"),
    Case(lower_bounds.check_split_range, (1.0, 10**4, 10), fragment="n"),
    Case(lower_bounds.krr_pair_third_split_epsilon_mp, (), {"dps": 40, "eps0": 8.0, "n": 100, "delta": 1e-6, "k": 3}, fragment="k"),
]
