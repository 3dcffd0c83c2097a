"""Invalid inputs of the mechanism-specific composition (shuffle_spec.reference.composition.mechanism_rounds,
.connect_the_dots, .directional_rounds, .binary_rr_pairs, .krr_pairs) and of the per-pair helpers it uses from reference.exact.binary_rr."""

import numpy as np

from invalid_inputs import Case
from shuffle_spec.reference.composition import connect_the_dots as ctd
from shuffle_spec.reference.composition import mechanism_rounds as mech
from shuffle_spec.reference.composition.directional_rounds import compose_directional
from shuffle_spec.reference.composition.binary_rr_pairs import binary_rr_pair_plds
from shuffle_spec.reference.composition import explicit_pairs
from shuffle_spec.reference.composition.krr_pairs import krr_pair_cells, krr_pair_finest_step, krr_pair_grids, krr_pair_moments, krr_pair_stride
from shuffle_spec.reference.composition.mechanism_rounds import MechanismRound
from shuffle_spec.reference.exact import binary_rr

# A small dominating pair for the directional programme's cases (binary RR, eps0 = 1, n = 4).
PAIR = ctd.connect_the_dots(0.25, [0.0, 0.25, 0.5], [0.3, 0.1, 0.0], eps0=1.0)

CASES = [
    Case(ctd.connect_the_dots, (0.1, [0.0, 0.1], [0.5, 0.1]), fragment="step"),
    Case(ctd.connect_the_dots, (0.125, [0.125, 0.25], [0.5, 0.1]), fragment="eps_nodes"),
    Case(ctd.connect_the_dots, (0.125, [0.0, 0.125], [0.5, 1.5]), fragment="h_upper"),
    Case(mech.compose_binary_rr, (), {"eps0": 1.0, "n": 10**8, "delta": 1e-6, "rounds": 2}, fragment="n"),
    Case(mech.compose_krr, (), {"eps0": 1.0, "n": 100, "delta": 1e-6, "rounds": 2, "k": 1}, fragment="k"),
    Case(mech.composed_epsilon, ([MechanismRound("binary_rr", 1e-4, 100, 2)],), {"delta": 1e-6}, fragment="eps0"),
    Case(mech.composed_epsilon, ([MechanismRound("laplace", 1.0, 100, 2)],), {"delta": 1e-6}, fragment="mechanism"),
    Case(mech.composed_epsilon, ([MechanismRound("binary_rr", 1.0, 100, 2)],), {"delta": 1.0}, fragment="delta"),
    Case(mech.composed_epsilon, ([],), {"delta": 1e-6}, fragment="rounds"),
    Case(mech.composed_delta, ([MechanismRound("binary_rr", 1.0, 100, 2)],), {"eps": -1.0}, fragment="eps"),
    Case(mech.composed_lower_epsilon, ([MechanismRound("binary_rr", 1.0, 100, 0)],), {"delta": 1e-6}, fragment="rounds"),
    Case(mech.dominating_pair, ("krr",), {"eps0": 1.0, "n": 100, "k": 10**7}, fragment="k"),
    Case(mech.profile_envelope, ("binary_rr",), {"eps0": 1.0, "n": 100, "floor": 0.5}, fragment="floor"),
    Case(binary_rr.pair_delta_evaluator, (-1.0,), fragment="eps0"),
    Case(binary_rr.pair_delta_evaluator_many, (-1.0,), fragment="eps0"),
    # The evaluators' populations: at most exact.shuffled_binary_rr's n (reference.core.limits), at least 1; the
    # single evaluator checks its counts as the batched one does.
    Case(binary_rr.pair_delta_evaluator_many(30.0), (10**20, 10, np.array([0.1])), fragment="population = 100000000000000000000"),
    Case(binary_rr.pair_delta_evaluator_many(1.0), (10**12 + 1, 10, np.array([0.1])), fragment="population"),
    Case(binary_rr.pair_delta_evaluator(30.0), (10**20, 10, 0.1), fragment="population = 100000000000000000000"),
    Case(binary_rr.pair_delta_evaluator(1.0), (0, 0, 0.1), fragment="population"),
    Case(binary_rr.pair_delta_evaluator(1.0), (5, 7, 0.1), fragment="ones"),
    Case(binary_rr.pair_delta_evaluator(1.0), ("a", 1, 0.1), fragment="population"),
    Case(binary_rr.pair_delta_evaluator(1.0), (2.5, 1, 0.1), fragment="population"),
    Case(binary_rr.thinned_removal, (1.0, -1, 1e-12), fragment="width"),
    Case(binary_rr_pair_plds, (1.0, 10, 10), fragment="k"),
    Case(binary_rr_pair_plds, (1.0, 10, 3), {"window_tail": 1e-20}, fragment="window_tail"),
    Case(binary_rr_pair_plds, (1.0, 10, 3), {"window_tail": 0.0}, fragment="window_tail"),
    Case(krr_pair_finest_step, ("x0",), {"eps0": 1.0, "n": 0, "k": 3}, fragment="n"),
    Case(krr_pair_cells, ("third",), {"eps0": 1.0, "n": 10**9, "k": 3}, fragment="n"),
    Case(explicit_pairs.lower_epsilon, ([],), {"delta": 1e-6}, fragment="groups"),
    Case(explicit_pairs.lower_epsilon, ([explicit_pairs.Group("binary_rr", 1.0, 10, 2)],), {"delta": 0.0}, fragment="delta"),
    Case(explicit_pairs.lower_delta, ([explicit_pairs.Group("laplace", 1.0, 10, 2)],), {"eps": 0.5}, fragment="mechanism"),
    Case(explicit_pairs.lower_delta, ([explicit_pairs.Group("binary_rr", 1.0, 10, 2)],), {"eps": -0.5}, fragment="eps"),
    Case(krr_pair_moments, ("x1",), {"eps0": 1.0, "n": 10, "k": 3}, fragment="pair"),
    Case(krr_pair_moments, ("x0",), {"eps0": 1.0, "n": 10, "k": 2}, fragment="k"),
    Case(krr_pair_grids, ("third",), {"eps0": 1.0, "n": 10, "k": 3, "step": -1.0, "tail": 0.0}, fragment="step"),
    Case(krr_pair_grids, ("third",), {"eps0": 1.0, "n": 10, "k": 3, "step": 1.0, "tail": 1.5}, fragment="tail"),
    Case(krr_pair_grids, ("third",), {"eps0": 1.0, "n": 10, "k": 3, "step": 1.0, "tail": 0.0, "stride": 0}, fragment="stride"),
    Case(krr_pair_cells, ("third",), {"eps0": 1.0, "n": 10, "k": 3, "stride": 2.5}, fragment="stride"),
    Case(krr_pair_stride, ("x1",), {"eps0": 1.0, "n": 10, "k": 3}, fragment="pair"),
    Case(compose_directional, ("not a pair",), {"rounds": 2, "step": 0.5, "lo": -4, "hi": 4}, fragment="pair"),
    Case(compose_directional, (PAIR,), {"rounds": 0, "step": PAIR.step, "lo": -4, "hi": 4}, fragment="rounds"),
    Case(compose_directional, (PAIR,), {"rounds": 2, "step": PAIR.step, "lo": 3, "hi": 4}, fragment="lo"),
    Case(compose_directional, (PAIR,), {"rounds": 2, "step": PAIR.step * 2, "lo": -4, "hi": 4}, fragment="step"),
]
