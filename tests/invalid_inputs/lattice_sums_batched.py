"""Invalid inputs of the batched lattice sums."""

import mpmath
import numpy as np

from invalid_inputs import Case
from shuffle_spec.reference.numerics import lattice_sums
from shuffle_spec.reference.numerics.lattice_sums import laws

LAW = lattice_sums.binomial_law(mpmath.mpf(1) / 3)
GOOD = lattice_sums.Coefficients((1.0, 1.0), (-2.0, -2.0), (-0.5, -0.5))
WRONG_ORDER = lattice_sums.Coefficients((1.0, 1.0), (-0.1, -0.1), (-0.5, -0.5))  # c1 > c2: F not monotone

CASES = [
    Case(lattice_sums.positive_part_expectations, ([10, 20], LAW, LAW, WRONG_ORDER), {"tail": 1e-9}, fragment="coefficients"),
    Case(lattice_sums.positive_part_expectations, ([10, -1], LAW, LAW, GOOD), {"tail": 1e-9}, fragment="m"),
    Case(lattice_sums.positive_part_expectations, ([10], LAW, 0.5, GOOD), {"tail": 1e-9}, fragment="law"),
    Case(lattice_sums.positive_part_expectations, ([10], LAW, LAW, GOOD), {"tail": 2.0}, fragment="tail"),
    Case(lattice_sums.positive_part_expectations, ([10], LAW, LAW, GOOD), {"tail": 1e-9, "upper": "no"}, fragment="upper"),
    # Both switches through core.errors.require_flag, as every switch of the package: a NumPy boolean, a number or a
    # string is refused, not read by its truthiness ("no" was read as True).
    Case(lattice_sums.positive_part_expectations, ([10], LAW, LAW, GOOD), {"tail": 1e-9, "upper": np.bool_(False)}, fragment="upper = "),
    Case(lattice_sums.positive_part_expectations, ([10], LAW, LAW, GOOD), {"tail": 1e-9, "lower": "no"}, fragment="lower = 'no'"),
    Case(lattice_sums.positive_part_expectations, ([10], LAW, LAW, GOOD), {"tail": 1e-9, "lower": 0}, fragment="lower = 0"),
    Case(lattice_sums.positive_part_expectations, ([10], LAW, LAW, GOOD), {"tail": 1e-9, "lower": np.bool_(True)}, fragment="lower = "),
    # needed: one True/False per m.
    Case(lattice_sums.positive_part_expectations, ([10, 20], LAW, LAW, GOOD), {"tail": 1e-9, "needed": [True]}, fragment="needed"),
    Case(lattice_sums.positive_part_expectations, ([10, 20], LAW, LAW, GOOD), {"tail": 1e-9, "needed": [True, "no"]}, fragment="needed = 'no'"),
    Case(lattice_sums.positive_part_expectations, ([10], LAW, LAW, GOOD), {"tail": 1e-9, "needed": np.array([True])}, fragment="needed"),
]
CASES += [
    Case(lattice_sums.split_cost, (0, 0.5, 0.5, 0.5), fragment="n"),
    Case(lattice_sums.split_cost, (10, 1.5, 0.5, 0.5), fragment="p_s"),
    Case(lattice_sums.split_positive_part, (10, LAW, LAW, LAW, (1.0, 1.0), (-1.0, -1.0), (0.5, 0.5)), {"tail": 0.0}, fragment="tail"),
    Case(lattice_sums.split_positive_part, (10, LAW, LAW, LAW, (-1.0, 1.0), (-1.0, -1.0), (0.5, 0.5)), {"tail": 1e-9}, fragment="coefficients"),
    Case(lattice_sums.split_positive_part, (10, LAW, LAW, LAW, (1.0, 1.0), (-1.0, -1.0), (0.5,)), {"tail": 1e-9}, fragment="tau"),
    Case(lattice_sums.split_positive_part, (0, LAW, LAW, LAW, (1.0, 1.0), (-1.0, -1.0), (0.5, 0.5)), {"tail": 1e-9}, fragment="n"),
]
CASES += [
    Case(laws.log_gamma, (np.array([3.0, 0.5]),), fragment="x"),
    Case(laws.log_gamma, (float("nan"),), fragment="x"),
    Case(laws.log_gamma, (float("inf"),), fragment="x"),
]
CASES += [
    Case(lattice_sums.normal_guess, (lambda eps: [(1.0, 0.5)],), {"n": 0, "eps0": 1.0, "delta": 1e-6}, fragment="n"),
    Case(lattice_sums.normal_guess, (lambda eps: [(1.0, 0.5)],), {"n": 10, "eps0": 1.0, "delta": 0.0}, fragment="delta"),
]
