"""Invalid inputs of the BBGN19 references: blanket, blanket parameters, Hoeffding/Bennett bounds,
shuffled k-RR, summation protocol, lower-bound chain, restated bounds."""

from fractions import Fraction

import numpy as np

from invalid_inputs import Case
from shuffle_spec.reference.finite import blanket
from shuffle_spec.reference.bounds import blanket_parameters as bp
from shuffle_spec.reference.protocols import summation_lower_bound as slb
from shuffle_spec.reference.bounds import bennett, hoeffding, restated
from shuffle_spec.reference.finite.distributions import Distribution
from shuffle_spec.reference.protocols import shuffled_krr, summation
from shuffle_spec.reference.finite.randomizers import k_randomized_response

RR3 = k_randomized_response(3, Fraction(3))
DISJOINT = shuffled_krr.blanket_krr_randomizer(2, Fraction(0))  # gamma = 0: no blanket
RNG = np.random.default_rng(0)
AMP = {"eps0": 1.0, "n": 1000, "delta": 1e-6}
PRIOR = Distribution({Fraction(1, 4): Fraction(1, 2), Fraction(3, 4): Fraction(1, 2)})

CASES = [
    Case(blanket.total_variation_similarity, ("not a randomizer",), fragment="randomizer"),
    Case(blanket.blanket_distribution, (DISJOINT,), fragment="gamma > 0"),
    Case(blanket.mixture_decomposition, (DISJOINT,), fragment="gamma > 0"),
    Case(blanket.amplification_variable, (RR3, 0, 0, Fraction(2)), fragment="x2"),
    Case(blanket.amplification_variable, (RR3, 0, 1, Fraction(1, 2)), fragment="e_eps"),
    Case(blanket.expected_positive_part_of_sum, (Distribution({1: Fraction(1)}), -1), fragment="m"),
    Case(blanket.expected_positive_part_of_sum, ([1, 2], 2), fragment="variable"),
    Case(blanket.lemma_5_3_divergence_bound, (RR3, 0, 1, 0, Fraction(2)), fragment="n"),
    Case(blanket.blanket_multiset_divergence, (RR3, 0, 1, -1, Fraction(2)), fragment="m"),
    Case(blanket.blanket_multiset_divergence, (RR3, 0, 1, 1, 0.5), fragment="e_eps"),
    Case(blanket.lemma_a1_conditioned_bound, (RR3, [0, 1], 0, 0, Fraction(2)), fragment="x2"),
    Case(blanket.lemma_a1_conditioned_bound, (RR3, [0] * 13, 0, 1, Fraction(2)), fragment="len(rest)"),
    Case(blanket.lemma_a2_blanket_bound, (RR3, 0, 1, 0, Fraction(2)), fragment="n"),
    Case(bp.krr_tv_similarity, (), {"eps0": 1.0, "k": 1}, fragment="k"),
    Case(bp.krr_tv_similarity, (), {"eps0": 0.0, "k": 2}, fragment="eps0"),
    Case(bp.laplace_tv_similarity, (), {"eps0": -1.0}, fragment="eps0"),
    Case(bp.gaussian_tv_similarity, (), {"sigma": 0.0}, fragment="sigma"),
    Case(bp.generic_tv_similarity_lower_bound, (), {"eps0": float("nan")}, fragment="eps0"),
    Case(bp.generic_amplification_parameters, (), {"eps": 0.5, "eps0": 1.0, "gamma": 0.1}, fragment="gamma"),
    Case(bp.generic_amplification_parameters, (), {"eps": -0.5, "eps0": 1.0, "gamma": 0.5}, fragment="eps"),
    Case(bp.krr_amplification_parameters, (), {"eps": 0.5, "eps0": 1.0, "k": 1}, fragment="k"),
    Case(bp.laplace_amplification_parameters, (), {"eps": 0.5, "eps0": -1.0}, fragment="eps0"),
    Case(hoeffding.hoeffding_expectation_bound, (), {"a": 0.0, "b": 1.0, "m": 1}, fragment="a"),
    Case(hoeffding.hoeffding_expectation_bound, (), {"a": 1.0, "b": 1.0, "m": 0}, fragment="m"),
    Case(hoeffding.hoeffding_generic_delta, (), {"eps": 2.0, "eps0": 1.0, "n": 100}, fragment="eps <= eps0"),
    Case(hoeffding.hoeffding_generic_delta, (), {"eps": 0.5, "eps0": 1.0, "n": 0}, fragment="n"),
    Case(hoeffding.hoeffding_generic_epsilon, (), {**AMP, "delta": 1.0}, fragment="delta"),
    Case(hoeffding.hoeffding_generic_eps0, (), {"eps": 0.0, "n": 1000, "delta": 1e-6}, fragment="eps"),
    Case(hoeffding.hoeffding_krr_delta, (), {"eps": 0.5, "eps0": 1.0, "n": 100, "k": 1}, fragment="k"),
    Case(hoeffding.hoeffding_krr_epsilon, (), {**AMP, "k": 1}, fragment="k"),
    Case(hoeffding.hoeffding_krr_eps0, (), {"eps": 0.5, "n": 1000, "delta": 0.0, "k": 2}, fragment="delta"),
    Case(hoeffding.hoeffding_laplace_delta, (), {"eps": 1.5, "eps0": 1.0, "n": 100}, fragment="eps <= eps0"),
    Case(hoeffding.hoeffding_laplace_epsilon, (), {**AMP, "eps0": -1.0}, fragment="eps0"),
    Case(hoeffding.hoeffding_laplace_eps0, (), {"eps": 0.5, "n": 0, "delta": 1e-6}, fragment="n"),
    Case(bennett.bennett_expectation_bound, (), {"a": 2.0, "b_plus": 1.0, "c": 1.0, "m": 1}, fragment="c"),
    Case(bennett.bennett_expectation_bound, (), {"a": 1.0, "b_plus": 0.0, "c": 1.0, "m": 1}, fragment="b_plus"),
    Case(bennett.bennett_generic_delta, (), {"eps": 2.0, "eps0": 1.0, "n": 100}, fragment="eps <= eps0"),
    Case(bennett.bennett_generic_epsilon, (), {**AMP, "n": 0}, fragment="n"),
    Case(bennett.bennett_generic_eps0, (), {"eps": -1.0, "n": 1000, "delta": 1e-6}, fragment="eps"),
    Case(bennett.bennett_krr_delta, (), {"eps": 1.0, "eps0": 1.0, "n": 100, "k": 2}, fragment="eps < eps0"),
    Case(bennett.bennett_krr_epsilon, (), {**AMP, "k": 0}, fragment="k"),
    Case(bennett.bennett_krr_eps0, (), {"eps": 0.5, "n": 1000, "delta": 1e-6, "k": 1}, fragment="k"),
    Case(bennett.bennett_laplace_delta, (), {"eps": 1.0, "eps0": 1.0, "n": 100}, fragment="eps < eps0"),
    Case(bennett.bennett_laplace_epsilon, (), {**AMP, "delta": -1.0}, fragment="delta"),
    Case(bennett.bennett_laplace_eps0, (), {"eps": 0.5, "n": 1000, "delta": 2.0}, fragment="delta"),
    Case(shuffled_krr.blanket_krr_randomizer, (1, Fraction(1, 2)), fragment="k"),
    Case(shuffled_krr.blanket_krr_randomizer, (3, Fraction(3, 2)), fragment="gamma"),
    Case(shuffled_krr.theorem_3_1_gamma, (), {"eps": 2.0, "n": 10_000, "delta": 1e-6, "k": 2}, fragment="eps <= 1"),
    Case(shuffled_krr.theorem_3_1_gamma, (), {"eps": 1.0, "n": 20, "delta": 1e-6, "k": 2}, fragment="gamma <= 1"),
    Case(shuffled_krr.theorem_3_1_eps0, (), {"eps": 1.0, "n": 10_000, "delta": 0.0, "k": 2}, fragment="delta"),
    Case(summation.randomized_rounding, ([0.5, 1.5],), {"k": 4, "rng": RNG}, fragment="x"),
    Case(summation.summation_randomizer, ([0.5],), {"gamma": 1.0, "k": 4, "rng": RNG}, fragment="gamma"),
    Case(summation.summation_analyzer, ([0, 7],), {"gamma": 0.5, "k": 4}, fragment="y"),
    Case(summation.summation_protocol, ([],), {"gamma": 0.5, "k": 4, "rng": RNG}, fragment="x"),
    Case(summation.summation_gamma, (), {"eps": 1.0, "delta": 1e-6, "n": 10_000, "k": 0}, fragment="k"),
    Case(summation.summation_mse_bound, (), {"n": 0, "gamma": 0.5, "k": 4}, fragment="n"),
    Case(summation.summation_accuracy_bound, (), {"eps": 1.0, "delta": 1e-6, "n": 100, "k": 20}, fragment="gamma"),
    Case(summation.statistical_query_std_bound, (), {"eps": 0.0, "delta": 1e-6, "n": 10_000, "k": 4}, fragment="eps"),
    Case(slb.midpoints, (0,), fragment="k"),
    Case(slb.interval_probabilities, (RR3, 2), fragment="randomizer.inputs"),
    Case(slb.posterior_mean_map, (RR3, PRIOR), fragment="prior"),
    Case(slb.iid_summation_mse, (RR3, PRIOR, 0), fragment="n"),
    Case(slb.lemma_4_3_minimum, (), {"k": 1}, fragment="k"),
    Case(slb.lemma_4_4_bound, (RR3, 3), fragment="randomizer.inputs"),
    Case(slb.lemma_4_5_cross_probability_floor, (), {"n": 1}, fragment="n"),
    Case(restated.bbgn19_theorem_5_1_epsilon, (), {"eps0": 0.6, "n": 10_000, "delta": 1e-6}, fragment="BBGN19.Thm5.1"),
    Case(restated.corollary_5_3_1_epsilon, (), {"eps0": 5.0, "n": 1000, "delta": 1e-6}, fragment="eps0 <= log(n/log(1/delta))/2"),
    Case(restated.corollary_5_3_1_epsilon, (), {"eps0": 3.0, "n": 10**7, "delta": 1e-6}, fragment="certified by Thm 5.3"),
]

EXEMPT: set[str] = set()
