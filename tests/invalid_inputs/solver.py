"""Invalid inputs of the certified epsilon solver's closed-form inversions and root placement
(`shuffle_spec.reference.numerics.solver`; its certified search is in `numerics.py`, `limits.py` and `blanket_exact_krr.py`),
and of the lattice helpers the exact blanket bounds and the pair lower bounds share (`numerics.lattice_sums`,
`numerics.tilted_lattice`)."""

from invalid_inputs import Case
from shuffle_spec.reference.numerics import lattice_sums, lower_end, solver, tilted_lattice


def _flat(eps: float) -> float:
    return 0.5


CASES = [
    Case(solver.closed_form_epsilon, (_flat,), {"eps0": 1.0, "delta": 1.5, "eps_max": 1.0}, fragment="delta = 1.5"),
    Case(solver.closed_form_epsilon, (_flat,), {"eps0": -1.0, "delta": 1e-6, "eps_max": 1.0}, fragment="eps0 = -1.0"),
    Case(solver.closed_form_epsilon, (_flat,), {"eps0": 1.0, "delta": 1e-6, "eps_max": 0.0}, fragment="eps_max = 0.0"),
    Case(solver.closed_form_largest_eps0, (_flat,), {"eps": 0.0, "delta": 1e-6, "strict": False}, fragment="eps = 0.0"),
    Case(solver.closed_form_largest_eps0, (_flat,), {"eps": 1.0, "delta": 0.0, "strict": False}, fragment="delta = 0.0"),
    Case(solver.closed_form_epsilon_mp, (lambda e: e,), {"eps0": 1.0, "delta": 1e-6, "eps_max": 1.0, "dps": 5}, fragment="dps"),
    # No sign change of the function on the bracket: there is no root to place.
    Case(solver.uncertified_root, (lambda x: -1.0, 0.0, 1.0, 1e-3), fragment="bracket"),
    Case(lattice_sums.blocking_offsets, (0, 10, 5.0, 1.0, 0.0), fragment="delta = 0.0"),
    Case(lattice_sums.search_start, (lambda e: [(1.0, 0.5)],), {"eps0": 1.0, "n": 0, "delta": 1e-6, "fallback": lambda: 1.0}, fragment="n = 0"),
    Case(tilted_lattice.lattice_law, ([(-1.0, 0), (1.0, 1)],), fragment="lower lattice law"),
    Case(lower_end.lower_end_search, (_flat, 0.0, 1e-6), {"slope": None, "rel_tol": 1e-3, "evaluations": 4}, fragment="upper = 0.0"),
    Case(lower_end.lower_end_search, (_flat, 1.0, 1.0), {"slope": None, "rel_tol": 1e-3, "evaluations": 4}, fragment="delta = 1.0"),
    Case(lower_end.lower_end_search, (_flat, 1.0, 1e-6), {"slope": None, "rel_tol": 1.0, "evaluations": 4}, fragment="rel_tol = 1.0"),
    Case(lower_end.lower_end_search, (_flat, 1.0, 1e-6), {"slope": None, "rel_tol": 1e-3, "evaluations": 0}, fragment="evaluations = 0"),
]

EXEMPT = {
    # Inputs built by their callers from validated parameters: numpy arrays of cell ends inside [1/c, c], mpmath
    # group masses, a float variance, lattice laws (`shuffle_spec.reference.bounds.blanket_exact_laplace` checks eps0, n
    # and eps before building any of them).
    "shuffle_spec.reference.numerics.tilted_lattice.laplace_x_masses",
    "shuffle_spec.reference.numerics.tilted_lattice.leftover_groups",
    "shuffle_spec.reference.numerics.tilted_lattice.lattice_step",
    "shuffle_spec.reference.numerics.tilted_lattice.log_positive_part_expectation",
    "shuffle_spec.reference.numerics.tilted_lattice.tilted_step",
}
