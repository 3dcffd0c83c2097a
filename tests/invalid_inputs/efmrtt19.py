"""Invalid inputs of the EFMRTT19 references: advanced composition, subsampling, the v2 / swapping /
Cor 9 bounds, the tree counter (Algs 1-2) and the swapping protocols (Algs 3-5)."""

from fractions import Fraction

import numpy as np

from invalid_inputs import Case
from shuffle_spec.reference.finite import subsampling
from shuffle_spec.reference.composition import advanced as ac
from shuffle_spec.reference.bounds import erlingsson
from shuffle_spec.reference.finite.distributions import Distribution
from shuffle_spec.reference.protocols import swapping, tree_counter
from shuffle_spec.reference.finite.randomizers import binary_randomized_response

P = Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)})
RR = swapping.fixed_randomizers(binary_randomized_response(Fraction(3)))
RNG = np.random.default_rng(0)
GOOD = {"eps0": 0.3, "n": 1000, "delta": 1e-6}

CASES = [
    # Thm 2
    Case(ac.advanced_composition_epsilon, (), {"eps": -0.1, "k": 3, "delta_prime": 1e-5}, fragment="eps"),
    Case(ac.advanced_composition_epsilon, (), {"eps": 0.1, "k": 0, "delta_prime": 1e-5}, fragment="k"),
    Case(ac.advanced_composition_epsilon, (), {"eps": 0.1, "k": 3, "delta_prime": 1.0}, fragment="delta_prime"),
    Case(ac.advanced_composition_delta, (), {"delta": 1.5, "k": 3, "delta_prime": 1e-5}, fragment="delta"),
    Case(ac.advanced_composition_delta, (), {"delta": 0.0, "k": 2.5, "delta_prime": 1e-5}, fragment="k"),
    Case(ac.advanced_composition_per_step_epsilon, (), {"eps": 0.0, "k": 3, "delta_prime": 1e-5}, fragment="eps"),
    Case(ac.advanced_composition_per_step_epsilon, (), {"eps": 1.0, "k": 3, "delta_prime": 0.0}, fragment="delta_prime"),
    # Lemma 4
    Case(subsampling.subsampled_epsilon, (), {"eps": 1.0, "q": 1.5}, fragment="q"),
    Case(subsampling.subsampled_epsilon, (), {"eps": float("nan"), "q": 0.5}, fragment="eps"),
    Case(subsampling.subsampled_delta, (), {"delta": -0.1, "q": 0.5}, fragment="delta"),
    Case(subsampling.subsampled_e_eps, (Fraction(1, 2), Fraction(1, 2)), fragment="e_eps"),
    Case(subsampling.subsampled_e_eps, (Fraction(2), Fraction(3, 2)), fragment="q"),
    Case(subsampling.subsample_mixture, (P, P, Fraction(-1, 2)), fragment="q"),
    # Thms 7, 8 (v2), Cor 9
    Case(erlingsson.erlingsson_eps1, (), {"eps0": 0.0, "n": 10}, fragment="eps0"),
    Case(erlingsson.erlingsson_eps1, (), {"eps0": 1.0, "n": 0}, fragment="n"),
    Case(erlingsson.erlingsson_v2_epsilon, (), {"eps0": 1.0, "n": 1, "delta": 1e-6}, fragment="n > 1"),
    Case(erlingsson.erlingsson_v2_epsilon, (), {"eps0": 1.0, "n": 100, "delta": 1.0}, fragment="delta"),
    Case(erlingsson.erlingsson_v2_epsilon, (), {"eps0": float("inf"), "n": 100, "delta": 0.1}, fragment="eps0"),
    Case(erlingsson.erlingsson_v2_refined_epsilon, (), {"eps0": 2.0, "n": 100, "delta": 1e-6}, fragment="eps0 <= log(n/4)/3"),
    Case(erlingsson.erlingsson_v2_refined_epsilon, (), {"eps0": 0.1, "n": 2.5, "delta": 1e-6}, fragment="n"),
    Case(erlingsson.swapping_v1_epsilon, (), {**GOOD, "n": 999}, fragment="n >= 1000"),
    Case(erlingsson.swapping_v1_epsilon, (), {**GOOD, "eps0": 0.5}, fragment="eps0 < 1/2"),
    Case(erlingsson.swapping_v2_epsilon, (), {**GOOD, "n": 1}, fragment="EFMRTT19.Thm8.v2"),
    Case(erlingsson.shuffled_reports_v1_epsilon, (), {**GOOD, "eps0": 0.3, "delta": 0.01}, fragment="delta < 1/100"),
    # Tree counter (Algs 1-2, Thms 5-6)
    Case(tree_counter.tree_depth, (6,), fragment="T"),
    Case(tree_counter.tree_depth, (0,), fragment="T"),
    Case(tree_counter.default_levels, (12,), fragment="T"),
    Case(tree_counter.changes_of, ([0, 2, 1],), fragment="states[1]"),
    Case(tree_counter.changes_of, ([],), fragment="states"),
    Case(tree_counter.cover, (9,), {"T": 8}, fragment="t"),
    Case(tree_counter.cover, (3,), {"T": 8, "levels": 5}, fragment="levels"),
    Case(tree_counter.estimate_from_node_sums, ({}, 1), {"T": 4, "k": 0, "e_a": 2}, fragment="k"),
    Case(tree_counter.estimate_from_node_sums, ({}, 1), {"T": 4, "k": 1, "e_a": 1}, fragment="e_a"),
    Case(tree_counter.client_output_distribution, ([0, 1, 1],), {"k": 1, "e_a": Fraction(2)}, fragment="T"),
    Case(tree_counter.client_output_distribution, ([0, 1, 1, 0],), {"k": 1, "e_a": Fraction(1, 2)}, fragment="e_a"),
    Case(tree_counter.client_output_distribution, ([0] * 32,), {"k": 1, "e_a": Fraction(2)}, fragment="len(states)"),
    Case(tree_counter.client_randomizer, ([],), {"k": 1, "e_a": Fraction(2)}, fragment="inputs"),
    Case(tree_counter.run_tree_counter, (np.zeros((3, 8)),), {"eps": 0.0, "k": 1, "rng": RNG}, fragment="eps"),
    Case(tree_counter.run_tree_counter, (np.zeros((3, 6)),), {"eps": 1.0, "k": 1, "rng": RNG}, fragment="T"),
    Case(tree_counter.run_tree_counter, (np.array([[0, 1, 0, 1]]),), {"eps": 1.0, "k": 2, "rng": RNG}, fragment="states[0]"),
    Case(tree_counter.run_tree_counter, (np.full((2, 4), 2),), {"eps": 1.0, "k": 2, "rng": RNG}, fragment="states"),
    Case(tree_counter.run_tree_counter, (np.zeros((3, 8)),), {"eps": 1.0, "k": 1, "rng": 7}, fragment="rng"),
    Case(tree_counter.simulate_node_sums, (np.zeros((3, 8)),), {"eps": 1.0, "k": 0, "rng": RNG}, fragment="k"),
    Case(tree_counter.tree_counter_error_bound, (), {"n": 10, "T": 1, "k": 1, "eps": 1.0, "beta": 0.1}, fragment="T"),
    Case(tree_counter.tree_counter_error_bound, (), {"n": 10, "T": 8, "k": 1, "eps": 1.0, "beta": 1.0}, fragment="beta"),
    Case(tree_counter.TreeCounterClient, (), {"T": 8, "k": 1, "eps": 1.0, "rng": RNG, "levels": 5}, fragment="levels"),
    Case(tree_counter.TreeCounterServer, (), {"T": 8, "k": 1, "eps": -1.0}, fragment="eps"),
    # Algs 3-5, Cor 9
    Case(swapping.fixed_randomizers, (P,), fragment="randomizer"),
    Case(swapping.local_responses, ([], RR, RNG), fragment="dataset"),
    Case(swapping.local_responses, ([0, 1], "RR", RNG), fragment="randomizers"),
    Case(swapping.shuffled_responses, ([0, 1], RR, None), fragment="rng"),
    Case(swapping.swapped_responses, ([], RR, RNG), fragment="dataset"),
    Case(swapping.shuffled_reports, ([0, 1], RR, 3), fragment="rng"),
    Case(swapping.local_responses_distribution, ([0] * 11, RR), fragment="len(dataset)"),
    Case(swapping.shuffled_responses_distribution, ([0] * 8, RR), fragment="len(dataset)"),
    Case(swapping.swapped_responses_distribution, ([], RR), fragment="dataset"),
    Case(swapping.shuffled_reports_distribution, ([0] * 8, RR), fragment="len(dataset)"),
    Case(swapping.protocol_ldp_ratio, (RR, 0), fragment="n"),
    Case(swapping.index_neighbour_laws, (swapping.swapped_responses_distribution, RR, [0, 1], 3), {"index": 4}, fragment="index"),
    Case(swapping.index_neighbour_laws, (swapping.swapped_responses_distribution, RR, [0], 3), fragment="inputs"),
    Case(swapping.exact_e_eps_at_index, (swapping.swapped_responses_distribution, RR, [0, 1], 3, Fraction(3, 2)), fragment="delta"),
]
