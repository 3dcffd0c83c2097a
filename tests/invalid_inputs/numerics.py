"""Invalid inputs of the numeric engine: binomial windows, FMT21 clones, FMT23 stronger clones, exact binary RR."""

from fractions import Fraction

from invalid_inputs import Case
from shuffle_spec.reference.numerics import binomial
from shuffle_spec.reference.exact import binary_rr as exact_binary_rr
from shuffle_spec.reference.bounds import clones, stronger_clones
from shuffle_spec.reference.finite.randomizers import Randomizer, k_randomized_response

NOT_IN_CLASS = Randomizer.from_matrix(
    [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 4), Fraction(3, 4)], [Fraction(1, 8), Fraction(7, 8)]]
)

CASES = [
    Case(binomial.probability_pair, ("fmt21", -1.0), fragment="eps0"),
    Case(binomial.probability_pair, ("other", 1.0), fragment="kind"),
    Case(binomial.certified_window, (-1, binomial.probability_pair("fmt21", 1.0), 1e-9), fragment="m"),
    Case(binomial.certified_window, (10, binomial.probability_pair("fmt21", 1.0), 1.5), fragment="tail"),
    Case(binomial.certified_window, (10, 0.5, 1e-9), fragment="pair"),
    Case(binomial.log_binomial_pmf_interval, (11, 10, 0, 0), fragment="k"),
    Case(binomial.certified_half_binomial, (10, 7), fragment="t"),
    Case(binomial.certified_half_binomial, (-1, 0), fragment="c"),
    Case(clones.per_count_divergence_bounds, ([1, 2],), {"eps0": 0.0, "eps": 0.1}, fragment="eps0"),
    Case(clones.per_count_divergence_bounds, ([-1],), {"eps0": 1.0, "eps": 0.1}, fragment="c"),
    Case(clones.per_count_divergence, ([1],), {"eps0": 1.0, "eps": -0.1}, fragment="eps"),
    Case(clones.clone_pair_delta, (), {"eps0": 1.0, "n": 10, "eps": 0.1, "kind": "other"}, fragment="kind"),
    Case(clones.clones_delta, (), {"eps0": 1.0, "n": 0, "eps": 0.1}, fragment="n"),
    Case(clones.clones_numeric, (), {"eps0": 1.0, "n": 100, "delta": 0.0}, fragment="delta"),
    Case(clones.clones_numeric, (), {"eps0": float("nan"), "n": 100, "delta": 1e-6}, fragment="eps0"),
    Case(clones.clones_numeric, (), {"eps0": 1.0, "n": 2.5, "delta": 1e-6}, fragment="n"),
    Case(clones.clones_eps0_for_eps, (), {"eps": 0.0, "n": 100, "delta": 1e-6}, fragment="eps"),
    Case(clones.solve_epsilon, (lambda e: (0.0, 0.0),), {"eps0": 1.0, "delta": 2.0}, fragment="delta"),
    Case(clones.solve_epsilon, (lambda e: (0.0, 0.0),), {"eps0": 1.0, "delta": 1e-6, "guess": float("nan")}, fragment="guess"),
    Case(stronger_clones.stronger_clone_probabilities, (-1.0,), fragment="eps0"),
    Case(stronger_clones.is_in_stronger_clone_class, ("not a randomizer",), fragment="randomizer"),
    Case(stronger_clones.is_in_stronger_clone_class, (k_randomized_response(3, Fraction(2)), Fraction(1, 2)), fragment="e_eps0"),
    Case(stronger_clones.stronger_clones, (), {"eps0": 1.0, "n": 100, "delta": 1e-6, "k": 1}, fragment="k"),
    Case(stronger_clones.stronger_clones, (), {"eps0": 1.0, "n": 100, "delta": 1.0}, fragment="delta"),
    Case(stronger_clones.stronger_clones_delta, (), {"eps0": 1.0, "n": 0, "eps": 0.1}, fragment="n"),
    Case(stronger_clones.stronger_clones_for_randomizer, (NOT_IN_CLASS,), {"n": 10, "delta": 1e-3}, fragment="errata class"),
    Case(stronger_clones.stronger_clones_for_randomizer, (k_randomized_response(3, Fraction(2)),), {"n": 10, "delta": 0.0}, fragment="delta"),
    Case(exact_binary_rr.counts_evaluated, (0,), fragment="n"),
    Case(exact_binary_rr.binary_rr_pair_delta, (), {"eps0": 1.0, "n": 10, "k": 10, "eps": 0.1}, fragment="k"),
    Case(exact_binary_rr.binary_rr_pair_delta, (), {"eps0": 1.0, "n": 10, "k": 0, "eps": 0.1, "delta_hint": 0.0}, fragment="delta_hint"),
    Case(exact_binary_rr.binary_rr_pair_delta, (), {"eps0": 1.0, "n": 10, "k": 0, "eps": 0.1, "delta_hint": 1e-301}, fragment="delta_hint"),
    Case(exact_binary_rr.binary_rr_pair_delta, (), {"eps0": 1.0, "n": 10, "k": 0, "eps": -0.1, "delta_hint": 1e-6}, fragment="eps"),
    Case(exact_binary_rr.shuffled_binary_rr_delta, (), {"eps0": 1.0, "n": 10, "eps": -1.0}, fragment="eps"),
    Case(exact_binary_rr.shuffled_binary_rr, (), {"eps0": 1.0, "n": 10, "delta": 1.5}, fragment="delta"),
    Case(exact_binary_rr.shuffled_binary_rr, (), {"eps0": 0.0, "n": 10, "delta": 1e-3}, fragment="eps0"),
]

EXEMPT = {"shuffle_spec.reference.numerics.binomial.iv_context", "shuffle_spec.reference.numerics.binomial.exp_upper"}  # no inputs / any float
