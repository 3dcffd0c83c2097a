"""Invalid inputs of the foundation: distributions, randomizers, divergences, composition, shuffling."""

from fractions import Fraction

import numpy as np

from invalid_inputs import Case
from shuffle_spec.reference.finite import (
    closeness,
    operations as composition,
    distributions,
    divergences,
    randomizers,
    shuffling,
)
from shuffle_spec.reference.core import errors, rounding
from shuffle_spec.reference.finite.distributions import Distribution

P = Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)})
RR = randomizers.binary_randomized_response(Fraction(3))

CASES = [
    Case(distributions.Distribution, ({0: Fraction(1, 2)},), fragment="sum of probabilities"),
    Case(distributions.Distribution, ({0: Fraction(3, 2), 1: Fraction(-1, 2)},), fragment="probability of outcome 1"),
    Case(distributions.Distribution, ({0: float("nan")},), fragment="probability of outcome 0"),
    Case(distributions.Distribution, ({0: "abc"},), fragment="probability of outcome 0"),
    Case(distributions.as_probability, (True,), fragment="probability"),
    Case(distributions.uniform, ([],), fragment="outcomes"),
    Case(randomizers.Randomizer, ({},), fragment="randomizer"),
    Case(randomizers.Randomizer.from_matrix, ([],), fragment="matrix"),
    Case(randomizers.Randomizer.from_matrix, ([[Fraction(1, 2), Fraction(1, 3)]],), fragment="sum of matrix row 0"),
    Case(randomizers.k_randomized_response, (1, Fraction(2)), fragment="k"),
    Case(randomizers.k_randomized_response, (3, Fraction(1, 2)), fragment="e_eps0"),
    Case(randomizers.binary_randomized_response, (1,), fragment="e_eps0"),
    Case(randomizers.binary_randomized_response, (float("inf"),), fragment="e_eps0"),
    Case(randomizers.e_eps_from_eps, (0.0,), fragment="eps0"),
    Case(divergences.hockey_stick_divergence, (P, P, Fraction(1, 2)), fragment="e_eps"),
    Case(divergences.privacy_profile, (P, P, -1), fragment="e_eps"),
    Case(divergences.is_close, (P, P, 2, Fraction(3, 2)), fragment="delta"),
    Case(divergences.min_e_eps_for_delta, (P, P, -0.1), fragment="delta"),
    Case(divergences.epsilon_for_delta, (P, P, 2), fragment="delta"),
    Case(divergences.approximate_ldp_epsilon, (RR, 1.5), fragment="delta"),
    Case(divergences.delta_for_epsilon, (P, P, -1.0), fragment="eps"),
    Case(closeness.triangle_parameters, (-1.0, 0.0, 0.0, 0.0), fragment="eps1"),
    Case(closeness.triangle_parameters, (1.0, 0.0, 1.0, 2.0), fragment="delta2"),
    Case(closeness.is_dp_on_neighbours, ([(P, P)], 2, -1), fragment="delta"),
    Case(composition.mixture, ([],), fragment="components"),
    Case(composition.mixture, ([(Fraction(-1), P), (Fraction(2), P)],), fragment="weight 0"),
    Case(composition.compose_randomizers, (), fragment="randomizers"),
    Case(composition.compose_randomizers, (RR, randomizers.k_randomized_response(3, 2)), fragment="randomizers[1].inputs"),
    Case(shuffling.shuffled_distribution, (RR, []), fragment="dataset"),
    Case(shuffling.neighbouring_datasets, ([0, 1], 0), fragment="n"),
    Case(shuffling.neighbouring_distributions, (RR, 0), fragment="n"),
    Case(shuffling.exact_shuffled_e_eps, (RR, 3, 2), fragment="delta"),
    Case(shuffling.exact_shuffled_delta, (RR, 3, 0), fragment="e_eps"),
    Case(shuffling.exact_shuffled_epsilon, (RR, 0, Fraction(1, 10)), fragment="n"),
    Case(errors.require_positive, ("eps0", float("nan")), fragment="eps0"),
    Case(errors.require_positive, ("eps0", float("inf")), fragment="eps0"),
    Case(errors.require_probability, ("delta", 1.0), fragment="delta in (0, 1)"),
    Case(errors.require_integer, ("n", 2.5), fragment="n"),
    Case(errors.require_integer, ("n", True), fragment="n"),
    # A numpy integer is refused (never silently used: int64 arithmetic on n overflows) with the fix named.
    Case(errors.require_integer, ("n", np.int64(1000)), fragment="pass int(n)"),
    Case(errors.require_in_range, ("lam", 3.0, 0.0, 1.0), fragment="lam"),
    Case(errors.require_flag, ("lower", "yes"), fragment="lower"),
    Case(errors.require_flag, ("lower", 1), fragment="lower"),
]

# Public functions with nothing to validate (their inputs are already-validated objects).
EXEMPT = {
    "shuffle_spec.reference.finite.operations.product",
    "shuffle_spec.reference.finite.operations.post_process",
    "shuffle_spec.reference.finite.operations.compose_adaptively",
    "shuffle_spec.reference.finite.distributions.point_mass",
    "shuffle_spec.reference.finite.divergences.ldp_ratio",
    "shuffle_spec.reference.finite.divergences.ldp_epsilon",
    "shuffle_spec.reference.finite.divergences.removal_ldp_ratio",
    "shuffle_spec.reference.finite.divergences.removal_ldp_epsilon",
    "shuffle_spec.reference.finite.divergences.safe_log",
    "shuffle_spec.reference.core.rounding.round_up",
    "shuffle_spec.reference.core.rounding.round_down",
    "shuffle_spec.reference.core.rounding.mpf_to_float_up",
    "shuffle_spec.reference.core.rounding.mpf_to_float_down",
}
del rounding

from shuffle_spec.reference.numerics import inversion  # noqa: E402

CASES += [
    Case(inversion.largest_argument_within, (lambda x: x, 0.5, 1.0, 2.0), {"name": "eps0"}, fragment="eps0"),
    Case(inversion.largest_argument_within, (lambda x: x, 0.5, 2.0, 1.0), {"name": "eps0"}, fragment="bracket for eps0"),
    Case(inversion.smallest_argument_within, (lambda x: 1 / x, 0.1, 1.0, 2.0), {"name": "eps"}, fragment="eps"),
]

from shuffle_spec.reference.bounds import erlingsson  # noqa: E402

CASES += [
    Case(erlingsson.erlingsson_v1_epsilon, (), {"eps0": 0.6, "n": 10_000, "delta": 1e-6}, fragment="eps0 < 1/2"),
    Case(erlingsson.erlingsson_v1_epsilon, (), {"eps0": 0.3, "n": 999, "delta": 1e-6}, fragment="n >= 1000"),
    Case(erlingsson.erlingsson_v1_epsilon, (), {"eps0": 0.3, "n": 10_000, "delta": 0.05}, fragment="delta < 1/100"),
    Case(erlingsson.erlingsson_v1_epsilon, (), {"eps0": -1.0, "n": 10_000, "delta": 1e-6}, fragment="eps0"),
]
