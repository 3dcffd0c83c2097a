"""Invalid inputs of the k-RR exact blanket bound's root search: the slope hint of the root search."""

from invalid_inputs import Case
from shuffle_spec.reference.numerics import lattice_sums

CASES = [
    Case(lattice_sums.normal_elasticity, (lambda eps: [(1.0, 0.5)],), {"n": 0, "eps": 0.1}, fragment="n"),
    Case(lattice_sums.normal_elasticity, (lambda eps: [(1.0, 0.5)],), {"n": 10, "eps": -1.0}, fragment="eps"),
    Case(lattice_sums.solve_certified_epsilon, (lambda e: (0.0, 0.0),), {"eps0": 1.0, "delta": 1e-6, "rel_tol": 1e-3, "slope": 2.0}, fragment="slope"),
]
