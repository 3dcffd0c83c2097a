"""Invalid inputs of the piecewise mechanism (its reference module and its lower bound)."""

from fractions import Fraction

from invalid_inputs import Case
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
    Case(piecewise.cell_parameters, (F(1, 2), True), fragment="h"),
    Case(piecewise.piecewise_epsilon_upper, (), {"eps0": float("nan"), "n": 10, "delta": 1e-6}, fragment="eps0"),
    Case(piecewise.piecewise_epsilon_upper, (), {"eps0": 1.0, "n": 10**9, "delta": 1e-6}, fragment="n"),
    Case(piecewise.piecewise_epsilon_lower, (), {"eps0": 1.0, "n": 10, "delta": 0.0}, fragment="delta"),
    Case(piecewise.piecewise_epsilon_lower, (), {"eps0": -1.0, "n": 10, "delta": 1e-6}, fragment="eps0"),
    Case(lower_piecewise.partition_pair_epsilon, (), {"rows": ROWS[:2], "n": 10, "delta": 1e-6}, fragment="rows"),
    Case(lower_piecewise.partition_pair_epsilon, (), {"rows": [[F(1, 2), F(1, 4), F(1, 3)]] + ROWS[1:], "n": 10, "delta": 1e-6}, fragment="rows"),
    Case(lower_piecewise.partition_pair_epsilon, (), {"rows": ROWS, "n": 0, "delta": 1e-6}, fragment="n"),
]
