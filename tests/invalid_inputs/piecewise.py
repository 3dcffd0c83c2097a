"""Invalid inputs of the piecewise mechanism (its reference module and its lower bound) and of the exact
variation-ratio reduction (`reference.finite.variation_ratio`)."""

from fractions import Fraction

from invalid_inputs import Case
from shuffle_spec.reference.finite import variation_ratio
from shuffle_spec.reference.lower_bounds import piecewise as lower_piecewise
from shuffle_spec.reference.randomizers import piecewise

F = Fraction
ROWS = [[F(1, 2), F(1, 4), F(1, 4)], [F(1, 4), F(1, 4), F(1, 2)], [F(1, 4), F(1, 2), F(1, 4)]]

CASES = [
    Case(piecewise.PiecewiseMechanism, (F(1),), fragment="h"),
    Case(piecewise.PiecewiseMechanism, (2.0,), fragment="h"),
    Case(piecewise.PiecewiseMechanism(F(2)).piece, (F(2),), fragment="t"),
    Case(piecewise.PiecewiseMechanism(F(2)).cell_probabilities, (F(0), [F(1), F(-1)]), fragment="cuts"),
    Case(piecewise.piecewise_mechanism, (1.0,), {"side": "x"}, fragment="side"),
    Case(piecewise.piecewise_mechanism, (0.0,), fragment="eps0"),
    Case(piecewise.partition_rows, (41.0,), fragment="eps0"),
    Case(piecewise.partition_rows, (1.0,), {"cells": "x"}, fragment="cells"),
    Case(piecewise.cell_parameters, (F(1, 2), True), fragment="h"),
    Case(piecewise.piecewise_epsilon_upper, (), {"eps0": float("nan"), "n": 10, "delta": 1e-6}, fragment="eps0"),
    Case(piecewise.piecewise_epsilon_upper, (), {"eps0": 1.0, "n": 10**9, "delta": 1e-6}, fragment="n"),
    Case(piecewise.piecewise_epsilon_lower, (), {"eps0": 1.0, "n": 10, "delta": 0.0}, fragment="delta"),
    Case(piecewise.piecewise_epsilon_lower, (), {"eps0": -1.0, "n": 10, "delta": 1e-6}, fragment="eps0"),
    Case(lower_piecewise.partition_pair_epsilon, (), {"rows": ROWS[:1], "n": 10, "delta": 1e-6}, fragment="rows"),
    Case(lower_piecewise.partition_pair_epsilon, (), {"rows": [[F(1, 2), F(1, 4), F(1, 3)]] + ROWS[1:], "n": 10, "delta": 1e-6}, fragment="rows"),
    Case(lower_piecewise.partition_pair_epsilon, (), {"rows": ROWS, "n": 0, "delta": 1e-6}, fragment="n"),
]

GOOD = variation_ratio.ReductionParameters(F(3), F(1, 2), F(3))
CASES += [
    Case(variation_ratio.ReductionParameters, (F(1), F(1, 2), F(3)), fragment="p"),
    Case(variation_ratio.ReductionParameters, (F(3), F(3, 4), F(3)), fragment="beta"),
    Case(variation_ratio.ReductionParameters, (F(3), F(1, 2), F(1, 2)), fragment="q"),
    Case(variation_ratio.ReductionParameters, (3.0, F(1, 2), F(3)), fragment="p"),
    Case(variation_ratio.tabulated_parameters, ("nope",), {"e0": F(3)}, fragment="name"),
    Case(variation_ratio.tabulated_parameters, ("rappor",), {"e0": F(3)}, fragment="h"),
    Case(variation_ratio.tabulated_parameters, ("krr",), {"e0": F(3), "d": 1}, fragment="d"),
    Case(variation_ratio.tabulated_parameters, ("oue",), {"e0": 3.0}, fragment="e0"),
    Case(variation_ratio.reduction_delta, (GOOD, 201, F(2)), fragment="n"),
    Case(variation_ratio.reduction_delta, (GOOD, 3, F(1, 2)), fragment="e"),
    Case(variation_ratio.reduction_delta, ("x", 3, F(2)), fragment="parameters"),
    Case(variation_ratio.reduction_rows, ("x",), fragment="parameters"),
]
