"""Invalid inputs of the helpers that several bounds share (the clone bounds' inputs, the blanket parameters of
the Hoeffding and Bennett bounds, the k-RR blanket cap, the Laplace bounds' edges, the finite-randomizer bounds'
inputs)."""

from invalid_inputs import Case
from shuffle_spec.reference.bounds import blanket_exact_laplace, blanket_exact_randomizer, blanket_parameters, clones

CASES = [
    Case(clones.check_clone_inputs, (0.0, 5, 1e-6), fragment="eps0 = 0.0"),
    Case(clones.check_clone_inputs, (1.0, 5, 1e-301), fragment="delta = 1e-301"),
    Case(blanket_parameters.check_eps_within_eps0, (-1.0, 1.0), {"statement": "BBGN19.Thm5.3", "strict": False}, fragment="eps = -1.0"),
    # eps above eps0 is outside the statement's hypothesis eps <= eps0 (HypothesisViolation, a ValueError).
    Case(blanket_parameters.check_eps_within_eps0, (2.0, 1.0), {"statement": "BBGN19.Thm5.3", "strict": False}, fragment="eps <= eps0"),
    Case(blanket_parameters.krr_blanket_delta_cap, (0.0, 3), fragment="eps0 = 0.0"),
    Case(blanket_parameters.krr_blanket_delta_cap, (1.0, 1), fragment="k = 1"),
    Case(blanket_exact_laplace.laplace_delta_at_edges, (), {"eps0": -1.0, "n": 5, "eps": 0.1}, fragment="eps0"),
    Case(blanket_exact_laplace.laplace_delta_at_edges, (), {"eps0": 1.0, "n": 5, "eps": -0.1}, fragment="eps = -0.1"),
    Case(blanket_exact_laplace.single_report_epsilon_mp, (), {"dps": 30, "eps0": -1.0, "n": 1, "delta": 1e-6, "statement": "exact.laplace_pair_x0"}, fragment="eps0"),
    Case(blanket_exact_laplace.single_report_epsilon_mp, (), {"dps": 30, "eps0": 1.0, "n": 2, "delta": 1e-6, "statement": "exact.laplace_pair_x0"}, fragment="n = 2"),
    Case(blanket_exact_randomizer.check_count_and_delta, (0, 1e-6), fragment="n = 0"),
    Case(blanket_exact_randomizer.check_count_and_delta, (5, 1e-301), fragment="delta = 1e-301"),
]

EXEMPT = {
    # a ProductForm built (and checked) by product_form; cached behind functools.lru_cache
    "shuffle_spec.reference.bounds.blanket_exact_randomizer.product_sums",
    # mpmath evaluations at parameters their callers validated (eps0, eps, k, n): the numbers of BBGN19 Lemmas
    # 5.4, 5.7 and 5.8, a certified rounding up, and the regime of BBGN19 Cor 5.3.1 decided exactly.
    "shuffle_spec.reference.bounds.blanket_parameters.delta_rounded_up",
    "shuffle_spec.reference.bounds.blanket_parameters.generic_parameters_mp",
    "shuffle_spec.reference.bounds.blanket_parameters.krr_parameters_mp",
    "shuffle_spec.reference.bounds.blanket_parameters.laplace_parameters_mp",
    "shuffle_spec.reference.bounds.blanket_parameters.round_up_with_margin",
    "shuffle_spec.reference.bounds.restated.corollary_5_3_1_regime_holds",
}
