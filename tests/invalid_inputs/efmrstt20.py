"""Invalid inputs of the EFMRSTT20 references: removal LDP, shuffled RR (Lemma II.6), Bun-Steinke
composition, attribute / report fragmenting, report deletion, LDP-SGD."""

from fractions import Fraction

from invalid_inputs import Case
from shuffle_spec.reference.finite import removal_ldp
from shuffle_spec.reference.composition import bun_steinke as bs
from shuffle_spec.reference.bounds import shuffled_rr_cheu as cheu
from shuffle_spec.reference.finite.distributions import Distribution
from shuffle_spec.reference.protocols import attribute_fragmenting as af
from shuffle_spec.reference.protocols import ldp_sgd
from shuffle_spec.reference.protocols import report_deletion as rd
from shuffle_spec.reference.protocols import report_fragmenting as rf
from shuffle_spec.reference.finite.randomizers import binary_randomized_response

RR = binary_randomized_response(Fraction(3))
HALF = Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)})
# A randomizer with an output impossible for one input: no R_0 makes it removal-DP.
DEGENERATE = RR.from_matrix([[1, 0], [Fraction(1, 2), Fraction(1, 2)]])

CASES = [
    # removal / replacement LDP
    Case(removal_ldp.is_replacement_ldp, (RR, Fraction(1, 2)), fragment="e_eps"),
    Case(removal_ldp.is_removal_ldp, (RR, HALF, 0), fragment="e_eps"),
    Case(removal_ldp.is_removal_ldp, (RR, [0.5, 0.5], 3), fragment="reference"),
    Case(removal_ldp.optimal_removal_e_eps_squared, ("not a randomizer",), fragment="randomizer"),
    Case(removal_ldp.optimal_removal_epsilon, (None,), fragment="randomizer"),
    Case(removal_ldp.optimal_removal_reference, (RR, Fraction(3, 2)), fragment="e_eps"),
    Case(removal_ldp.optimal_removal_reference, (DEGENERATE, 100), fragment="e_eps"),
    Case(removal_ldp.standard_removal_mechanism, (3,), fragment="mechanism"),
    Case(removal_ldp.is_generalized_removal_dp, (lambda d, i: HALF, lambda d: HALF, [(0,)], 2, Fraction(3, 2)), fragment="delta"),
    Case(removal_ldp.is_generalized_removal_dp, (lambda d, i: HALF, lambda d: HALF, [], 2, 0), fragment="datasets"),
    Case(removal_ldp.binary_rr_removal_epsilon, (), {"eps0": 0.0}, fragment="eps0"),
    # Lemma II.6 and its inverse
    Case(cheu.shuffled_rr_epsilon, (), {"eps0": 5.0, "n": 1000, "delta": 1e-6}, fragment="14 log(4/delta)"),
    Case(cheu.shuffled_rr_epsilon, (), {"eps0": 1.0, "n": 1000, "delta": 0.0}, fragment="delta"),
    Case(cheu.shuffled_rr_epsilon, (), {"eps0": 1.0, "n": 0, "delta": 1e-6}, fragment="n"),
    Case(cheu.shuffled_rr_epsilon_for_lambda, (), {"lam": 100.0, "n": 10000, "delta": 1e-6}, fragment="lam >= 14 log(4/delta)"),
    Case(cheu.shuffled_rr_epsilon_for_lambda, (), {"lam": 2000.0, "n": 1000, "delta": 1e-3}, fragment="lam <= n"),
    Case(cheu.shuffled_rr_epsilon_for_lambda, (), {"lam": -1.0, "n": 1000, "delta": 1e-3}, fragment="lam"),
    Case(cheu.shuffled_rr_max_eps0, (), {"n": 10, "delta": 1e-6}, fragment="some eps0 > 0 in range"),
    Case(cheu.shuffled_rr_largest_eps0, (), {"eps": 0.001, "n": 10000, "delta": 1e-6}, fragment="eps"),
    Case(cheu.shuffled_rr_largest_eps0, (), {"eps": -1.0, "n": 10000, "delta": 1e-6}, fragment="eps"),
    Case(cheu.lemma_ii5_hypotheses_hold, (), {"eps0": 1.0, "n": 100, "delta": 1.0}, fragment="delta"),
    # Theorem II.7
    Case(bs.advanced_composition_epsilon, (), {"eps": 1e-9, "k": 1, "delta_prime": 1e-3}, fragment="sqrt(pi k/2) eps >= delta_prime"),
    Case(bs.advanced_composition_epsilon, (), {"eps": 0.1, "k": 0, "delta_prime": 1e-3}, fragment="k"),
    Case(bs.advanced_composition_epsilon, (), {"eps": 0.1, "k": 3, "delta_prime": 0.0}, fragment="delta_prime"),
    Case(bs.advanced_composition_largest_eps, (), {"eps_total": 1e-12, "k": 10, "delta_prime": 1e-3}, fragment="eps_total"),
    Case(bs.advanced_composition_largest_eps, (), {"eps_total": 1.0, "k": 10, "delta_prime": 2.0}, fragment="delta_prime"),
    # attribute fragmenting
    Case(af.k_rappor_randomizer, (1, Fraction(2)), fragment="k"),
    Case(af.k_rappor_randomizer, (3, Fraction(1, 2)), fragment="e_eps0"),
    Case(af.k_rappor_randomizer, (13, Fraction(2)), fragment="k"),
    Case(af.k_rappor_absent_reference, (3, 1), fragment="e_eps0"),
    Case(af.attribute_fragmenting_report, (5,), {"k": 3, "eps0": 1.0}, fragment="x"),
    Case(af.attribute_fragmenting_report, (0,), {"k": 3, "eps0": 0.0}, fragment="eps0"),
    Case(af.attribute_fragmenting_sums, ([3, -1],), {"eps0": 1.0}, fragment="histogram"),
    Case(af.attribute_fragmenting_sums, ([0, 0],), {"eps0": 1.0}, fragment="histogram"),
    Case(af.attribute_fragmenting_sums, ([1.5, 2.0],), {"eps0": 1.0}, fragment="histogram"),
    Case(af.attribute_fragmenting_estimate, ([3, 11],), {"n": 10, "eps0": 1.0}, fragment="sums"),
    Case(af.attribute_fragmenting_estimate, ([3],), {"n": 0, "eps0": 1.0}, fragment="n"),
    Case(af.attribute_fragmenting_run, ([],), {"eps0": 1.0}, fragment="histogram"),
    Case(af.expected_reported_bits, (), {"k": 0, "eps0": 1.0}, fragment="k"),
    Case(af.estimator_variance, (), {"eps0": -1.0}, fragment="eps0"),
    Case(af.att_frag_central_epsilon, (), {"eps0": 0.5, "n": 10000, "delta": 1e-6}, fragment="eps0 >= 1"),
    Case(af.att_frag_central_epsilon, (), {"eps0": 5.0, "n": 10000, "delta": 1e-6}, fragment="log(n)"),
    Case(af.att_frag_central_epsilon, (), {"eps0": 1.0, "n": 10000, "delta": 1e-40}, fragment="n^(-log n)"),
    # report fragmenting
    Case(rf.composed_epsilon, (), {"eps1": 0.0, "eps2": 1.0}, fragment="eps1"),
    Case(rf.composed_epsilon, (), {"eps1": 1.0, "eps2": float("inf")}, fragment="eps2"),
    Case(rf.composed_ratio, (Fraction(1, 2), 2), fragment="e_eps1"),
    Case(rf.composed_ratio, (2, float("nan")), fragment="e_eps2"),
    Case(rf.chain_randomizers, (RR, RR.from_matrix([[1, 0], [0, 1]], inputs=["a", "b"])), fragment="second.inputs"),
    Case(rf.chain_randomizers, (af.k_rappor_randomizer(2, 2), RR), fragment="second.inputs"),
    Case(rf.report_fragment_epsilon, (), {"eps_b": 1.0, "eps_f": 1.0, "t": 0}, fragment="t"),
    Case(rf.report_fragment_epsilon, (), {"eps_b": -1.0, "eps_f": 1.0, "t": 1}, fragment="eps_b"),
    Case(rf.report_fragment_randomizer, (RR, RR, 0), fragment="t"),
    Case(rf.binary_reduction, (RR, RR, 0, 0, 2), fragment="x, x2"),
    Case(rf.binary_reduction, (RR, RR, 0, 1, Fraction(1, 2)), fragment="e_eps"),
    Case(rf.report_fragmenting_bits, ([0, 2],), {"eps_b": 1.0, "eps_f": 1.0, "tau": 2}, fragment="bits"),
    Case(rf.report_fragmenting_bits, ([0, 1],), {"eps_b": 1.0, "eps_f": 1.0, "tau": 0}, fragment="tau"),
    # report deletion
    Case(rd.randomized_report_deletion, ([],), {"eps_cr": 1.0, "delta_cr": 0.1}, fragment="crowds"),
    Case(rd.randomized_report_deletion, ([[1]],), {"eps_cr": 0.0, "delta_cr": 0.1}, fragment="eps_cr"),
    Case(rd.randomized_report_deletion, ([[1]],), {"eps_cr": 1.0, "delta_cr": 1.0}, fragment="delta_cr"),
    Case(rd.released_counts_distribution, (-1,), {"eps_cr": 1.0, "delta_cr": 0.1}, fragment="count"),
    Case(rd.report_deletion_delta, ([1, 2], [1]), {"eps_cr": 1.0, "delta_cr": 0.1}, fragment="counts2"),
    Case(rd.report_deletion_delta, ([1, -2], [1, 1]), {"eps_cr": 1.0, "delta_cr": 0.1}, fragment="count"),
    Case(rd.deletion_bound, (), {"eps_cr": 1.0, "delta_cr": 0.1, "P": 0}, fragment="P"),
    Case(rd.deletion_bound_failure_probability, (), {"eps_cr": 1.0, "delta_cr": 1.5, "P": 3}, fragment="delta_cr"),
    # LDP-SGD
    Case(ldp_sgd.sphere_sign_constant, (0,), fragment="d"),
    Case(ldp_sgd.gradient_scale, (), {"eps0": 1.0, "L": 0.0, "d": 3}, fragment="L"),
    Case(ldp_sgd.printed_gradient_scale, (), {"eps0": 1.0, "L": 1.0, "d": 0}, fragment="d"),
    Case(ldp_sgd.clip_gradient, ([float("nan")],), {"L": 1.0}, fragment="gradient"),
    Case(ldp_sgd.ldp_sgd_client, ([1.0, 0.0],), {"eps0": 0.0, "L": 1.0}, fragment="eps0"),
    Case(ldp_sgd.client_density, ([2.0, 0.0], [1.0, 0.0]), {"eps0": 1.0, "L": 1.0}, fragment="w"),
    Case(ldp_sgd.client_distribution_1d, (Fraction(1, 2),), {"L": 1, "e_eps0": 1}, fragment="e_eps0"),
    Case(ldp_sgd.client_distribution_1d, (0.5,), {"L": 1, "e_eps0": 2}, fragment="x"),
    Case(ldp_sgd.client_randomizer_1d, ([],), {"L": 1, "e_eps0": 2}, fragment="inputs"),
    Case(ldp_sgd.ldp_sgd_server_step, ([0.0, 0.0], [[1.0]]), {"eps0": 1.0, "L": 1.0, "lr": 0.1}, fragment="reports"),
    Case(ldp_sgd.ldp_sgd_server_step, ([0.0], [[1.0]]), {"eps0": 1.0, "L": 1.0, "lr": 0.0}, fragment="lr"),
    Case(ldp_sgd.ldp_sgd, (lambda th, i: th,), {"n": 2, "d": 1, "T": 0, "eps0": 1.0, "L": 1.0, "radius": 1.0}, fragment="T"),
    Case(ldp_sgd.theorem_a3_hypotheses_hold, (), {"eps0": 1.0, "n": 0}, fragment="n"),
    Case(ldp_sgd.shamir_zhang_bound, (), {"diam": 1.0, "c": 1.0, "G": 1.0, "T": 1}, fragment="T"),
]
