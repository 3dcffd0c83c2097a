"""Invalid inputs of the many-round composition (shuffle_spec.reference.composition.shuffled_rounds, reference.protocols.ldp_sgd.ldp_sgd_epsilon)."""

from fractions import Fraction

import mpmath

from invalid_inputs import Case
from shuffle_spec.reference.composition import shuffled_rounds as pld
from shuffle_spec.reference.composition import enclosures, schedule, solve
from shuffle_spec.reference.composition.shuffled_rounds import Round
from shuffle_spec.reference.protocols import ldp_sgd

CASES = [
    Case(schedule.checked_schedule, ("x" * 10**6, lambda r: r), {"entry": "Round"}, fragment="rounds = \"'xxxx"),
    Case(schedule.checked_schedule, ([Round("clones", 1.0, 100, 2)] * 1001, lambda r: r), {"entry": "Round"}, fragment="1001 entries"),
    Case(schedule.checked_schedule, ([Round("clones", 1.0, 100, 10**6)] * 2, lambda r: r), {"entry": "Round"}, fragment="rounds = 2000000"),
    Case(enclosures.enclosure_interval, ((0.5, 0.75),), fragment="enclosure"),
    Case(enclosures.fraction_of_end, (0.5,), fragment="end"),
    Case(enclosures.fraction_of_end, (mpmath.mpf("inf"),), fragment="end"),
    Case(enclosures.enclosure_float_with_error, ((Fraction(3, 4), Fraction(1, 2)),), fragment="enclosure"),
    Case(enclosures.enclosure_float_with_error, ((Fraction(0), Fraction(1, 2)),), fragment="enclosure"),
    Case(solve.composition_tail, (0.0,), fragment="delta"),
    Case(solve.composition_tail, (float("nan"),), fragment="delta"),
    Case(solve.upper_curve_epsilon, ("a curve",), {"delta": 1e-6, "rel_tol": 1e-6}, fragment="composed"),
    Case(solve.round_off_floor, ("a curve",), fragment="composed"),
    Case(solve.tilt_wanted, ("a curve", 1e-6), fragment="composed"),
    Case(solve.before_deadline, ("soon",), fragment="deadline"),
    Case(solve.stopped_by_deadline, (float("nan"),), fragment="deadline"),
    Case(solve.refinement_within, (lambda: 1.0, True, 0.0), fragment="deadline"),
    Case(solve.refinement_within, ("a refinement", None, 0.0), fragment="compute"),
    Case(pld.composed_epsilon, ([Round("clones", 1.0, 100, 0)],), {"delta": 1e-6}, fragment="rounds"),
    Case(pld.composed_epsilon, ([Round("clones", 1.0, 100, 2)],), {"delta": 1.0}, fragment="delta"),
    Case(pld.composed_epsilon, ([Round("nope", 1.0, 100, 2)],), {"delta": 1e-6}, fragment="pair"),
    Case(pld.composed_epsilon, ([Round("clones", -1.0, 100, 2)],), {"delta": 1e-6}, fragment="eps0"),
    Case(pld.composed_epsilon, ([Round("clones", 31.0, 100, 2)],), {"delta": 1e-6}, fragment="eps0"),
    Case(pld.composed_epsilon, ([Round("clones", 1.0, 0, 2)],), {"delta": 1e-6}, fragment="n"),
    Case(pld.composed_epsilon, ([Round("clones", 1.0, 10**10, 2)],), {"delta": 1e-6}, fragment="n"),
    Case(pld.composed_epsilon, ([],), {"delta": 1e-6}, fragment="rounds"),
    Case(pld.composed_epsilon, ([Round("clones", 1.0, 100, 2)],), {"delta": 1e-6, "refine": 0}, fragment="refine"),
    Case(pld.composed_epsilon, ([Round("clones", 1.0, 100, 2), Round("exact_binary_rr", 1.0, 100, 2)],), {"delta": 1e-6}, fragment="rounds"),
    Case(pld.composed_epsilon, ([Round("exact_binary_rr", 1.0, 100, 2), Round("exact_binary_rr", 2.0, 100, 2)],), {"delta": 1e-6}, fragment="rounds"),
    Case(pld.composed_delta, ([Round("clones", 1.0, 100, 2)],), {"eps": -1.0}, fragment="eps"),
    Case(pld.compose_clones, (), {"eps0": 1.0, "n": 100, "delta": 1e-6, "rounds": 2.5}, fragment="rounds"),
    Case(pld.compose_stronger_clones, (), {"eps0": 1.0, "n": 100, "delta": 0.0, "rounds": 2}, fragment="delta"),
    Case(pld.compose_exact_binary_rr, (), {"eps0": 1.0, "n": 0, "delta": 1e-6, "rounds": 2}, fragment="n"),
    Case(pld.pair_pld, ("exact_binary_rr",), {"eps0": 1.0, "n": 10, "k": 10}, fragment="k"),
    Case(pld.pair_pld, ("exact_binary_rr",), {"eps0": 1.0, "n": 10, "k": 1, "direction": 2}, fragment="direction"),
    Case(pld.rounds_from_json, ({"x": 1},), fragment="rounds"),
    Case(pld.rounds_from_json, ([{"pair": "clones", "eps0": 1.0}],), fragment="rounds"),
    Case(pld.binary_rr_counts, (0,), fragment="n"),
    Case(ldp_sgd.ldp_sgd_epsilon, (), {"eps0": 1.0, "n": 100, "delta": 1e-6, "T": 0}, fragment="rounds"),
]
CASES += [
    Case(pld.compose, ([], []), {"tail": 1e-9}, fragment="grids"),
    Case(pld.compose, ([pld.pair_pld("clones", eps0=1.0, n=10).discretise(2.0**-10, True, 1e-12)], [0]), {"tail": 1e-9}, fragment="powers"),
    Case(pld.compose, ([pld.pair_pld("clones", eps0=1.0, n=10).discretise(2.0**-10, True, 1e-12)], [1]), {"tail": 2.0}, fragment="tail"),
]

from shuffle_spec.reference.numerics import pld as grid_pld  # noqa: E402
from shuffle_spec.reference.numerics.solver import solve_epsilon  # noqa: E402

_GRID = pld.pair_pld("clones", eps0=1.0, n=10).discretise(2.0**-10, True, 1e-12)
_UPPER = grid_pld.compose([_GRID], [2], tail=1e-12)
_LOWER = grid_pld.compose([pld.pair_pld("clones", eps0=1.0, n=10, pessimistic=False).discretise(2.0**-10, False, 1e-12)], [2], tail=1e-12)
_START = solve_epsilon(lambda e: (0.0, 1.0), eps0=2.0, delta=1e-15, rel_tol=1e-6)
CASES += [
    Case(grid_pld.compose_tilted, ([_GRID], [2], -1.0), fragment="lam"),
    Case(grid_pld.compose_tilted, ([_GRID], [2], float("nan")), fragment="lam"),
    Case(grid_pld.compose_tilted, ([], [], 1.0), fragment="grids"),
    Case(grid_pld.compose_tilted, ([_GRID], [0], 1.0), fragment="powers"),
    Case(grid_pld.compose_tilted, ([_GRID], [2], 1.0), {"coarser": -1}, fragment="coarser"),
    Case(grid_pld.compose_tilted, ([_GRID], [2], 1.0), {"coarser": 10**6}, fragment="coarser"),
    Case(grid_pld.compose_tilted, ([_GRID], [2], 1.0), {"coarser": float("nan")}, fragment="coarser"),
    Case(grid_pld.coarsen, ("a grid",), fragment="g"),
    Case(grid_pld.saddle_tilt, ([_GRID], [2], float("inf")), fragment="eps"),
    Case(grid_pld.saddle_tilt, ([_GRID], [2.5], 1.0), fragment="powers"),
    Case(grid_pld.chernoff_epsilon, ([_GRID], [2], 0.0), fragment="delta"),
    Case(grid_pld.spectrum_power, (_GRID.masses, 0), fragment="t"),
    Case(grid_pld.spectrum_power, (_GRID.masses, 2.5), fragment="t"),
    Case(grid_pld.chernoff_epsilon, (["a grid"], [2], 1e-15), fragment="grids"),
    Case(solve.tilted_epsilon, (_UPPER, None), {"delta": 1.5, "rel_tol": 1e-6, "start": _START}, fragment="delta"),
    Case(solve.tilt_wanted, (_UPPER, 1.5), fragment="delta"),
    Case(solve.tilted_epsilon, (_UPPER, None), {"delta": 1e-15, "rel_tol": 0.0, "start": _START}, fragment="rel_tol"),
    Case(solve.tilted_delta, ("a curve", None), {"eps": 1.0, "start": (0.0, 1.0)}, fragment="upper"),
    Case(solve.tilted_delta, (_UPPER, _UPPER), {"eps": 1.0, "start": (0.0, 1.0)}, fragment="lower"),
    Case(solve.tilted_delta, (_UPPER, None), {"eps": -1.0, "start": (0.0, 1.0)}, fragment="eps"),
    Case(solve.tilted_delta, (_UPPER, None), {"eps": 1.0, "start": (0.5, 0.25)}, fragment="start"),
    Case(solve.small_delta, (lambda d: (_UPPER, None), (_UPPER, None)), {"eps": float("nan")}, fragment="eps"),
    Case(solve.small_delta, ("no function", (_UPPER, None)), {"eps": 1.0}, fragment="compose_for"),
    Case(solve.small_delta, (lambda d: (_UPPER, None), ("a curve", None)), {"eps": 1.0}, fragment="first"),
    Case(solve.tilted_lower_epsilon, (_UPPER,), {"delta": 1e-15, "rel_tol": 1e-6, "start": 0.0, "stop": 1.0}, fragment="lower"),
    Case(solve.tilted_lower_epsilon, (_LOWER,), {"delta": 0.0, "rel_tol": 1e-6, "start": 0.0, "stop": 1.0}, fragment="delta"),
    Case(solve.tilted_lower_epsilon, (_LOWER,), {"delta": 1e-15, "rel_tol": -1.0, "start": 0.0, "stop": 1.0}, fragment="rel_tol"),
    Case(solve.tilted_lower_epsilon, (_LOWER,), {"delta": 1e-15, "rel_tol": 1e-6, "start": 1.5, "stop": 1.0}, fragment="start"),
    Case(solve.tilted_lower_epsilon, (_LOWER,), {"delta": 1e-15, "rel_tol": 1e-6, "start": 0.0, "stop": float("inf")}, fragment="stop"),
    Case(grid_pld.cut_top, ("a grid", 1e-3), fragment="g"),
    Case(grid_pld.cut_top, (_GRID, float("nan")), fragment="budget"),
    Case(grid_pld.cut_top, (_GRID, 2.0), fragment="budget"),
]

from shuffle_spec.reference.protocols import tree_counter  # noqa: E402

CASES += [
    Case(tree_counter.shuffled_tree_counter_epsilon, (), {"eps": 0.0, "n": 100, "delta": 1e-6}, fragment="eps"),
    Case(tree_counter.shuffled_tree_counter_epsilon, (), {"eps": 1.0, "n": 0, "delta": 1e-6}, fragment="n"),
]
