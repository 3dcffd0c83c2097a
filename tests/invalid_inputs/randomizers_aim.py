"""Invalid inputs of the aims of the structured randomizers' certified searches: the rounded-up aim, the corrected
second aim, and the solver's `reaim`."""

from fractions import Fraction

from invalid_inputs import Case
from shuffle_spec.reference.numerics import solver
from shuffle_spec.reference.randomizers import piecewise, structured

PAIR = piecewise.piecewise_mechanism(1.0).replace_pairs()[0]

CASES = [
    Case(structured.aim_above, (-1.0,), fragment="root"),
    Case(structured.aim_above, (float("nan"),), fragment="root"),
    Case(structured.rescaled_aim, (Fraction(3, 2), PAIR.groups), {"n": 10, "delta": 1e-6, "eps0": 1.0}, fragment="gamma"),
    Case(structured.rescaled_aim, (PAIR.gamma, "x"), {"n": 10, "delta": 1e-6, "eps0": 1.0}, fragment="groups"),
    Case(structured.rescaled_aim, (PAIR.gamma, PAIR.groups), {"n": 0, "delta": 1e-6, "eps0": 1.0}, fragment="n"),
    Case(structured.rescaled_aim, (PAIR.gamma, PAIR.groups), {"n": 10, "delta": 1.5, "eps0": 1.0}, fragment="delta"),
    Case(structured.rescaled_aim, (PAIR.gamma, PAIR.groups), {"n": 10, "delta": 1e-6, "eps0": -1.0}, fragment="eps0"),
    Case(solver.solve_certified_epsilon, (lambda e: (0.0, 0.0),), {"eps0": 1.0, "delta": 1e-6, "rel_tol": 1e-3, "reaim": "x"}, fragment="reaim"),
]
