"""Invalid inputs at the limits of the range table `shuffle_spec.reference.core.limits` that live outside the
statements' ranges: the high-precision enclosures (clone bounds, their composition, exact pairs), exact k-RR, and
the protocols' domain sizes k. Each refusal is one line naming the parameter, its value and the range, so the
fragment is the start of that line (`name = value is out of range`)."""

from fractions import Fraction

import numpy as np

from invalid_inputs import Case
from shuffle_spec.reference.bounds import clones, clones_high_precision
from shuffle_spec.reference.composition import shuffled_rounds
from shuffle_spec.reference.core import limits
from shuffle_spec.reference.exact import krr
from shuffle_spec.reference.numerics import high_precision_exact
from shuffle_spec.reference.protocols import attribute_fragmenting, frequency_estimation, shuffled_krr, summation_lower_bound, tree_counter

MP = {"dps": 40}

CASES = [
    # High precision: the clone bounds (n, eps0, delta), their composition (n per pair, rounds), exact pairs (n).
    Case(clones.clones_numeric_mp, (), {**MP, "eps0": 1.0, "n": 10**7, "delta": 1e-6}, fragment="n = 10000000 is out of range"),
    Case(clones.clones_numeric_mp, (), {**MP, "eps0": 31.0, "n": 100, "delta": 1e-6}, fragment="eps0 = 31.0 is out of range"),
    Case(clones.clones_numeric_mp, (), {**MP, "eps0": 1.0, "n": 100, "delta": 1e-250}, fragment="delta = 1e-250 is out of range"),
    Case(clones_high_precision.round_pld_mp, ("clones",), {"eps0": 1.0, "n": 61}, fragment="n = 61 is out of range"),
    Case(clones_high_precision.round_pld_mp, ("exact_binary_rr",), {"eps0": 40.0, "n": 10}, fragment="eps0 = 40.0 is out of range"),
    Case(shuffled_rounds.compose_clones_mp, (), {**MP, "eps0": 1.0, "n": 20, "delta": 1e-6, "rounds": 50}, fragment="rounds = 50 is out of range"),
    Case(shuffled_rounds.compose_clones_mp, (), {**MP, "eps0": 1.0, "n": 200, "delta": 1e-6, "rounds": 2}, fragment="n = 200 is out of range"),
    Case(high_precision_exact.krr_pair_eps_bracket, (), {**MP, "eps0": 1.0, "n": 10**6, "k": 3, "delta": 1e-6, "pair": "third"}, fragment="n = 1000000 is out of range"),
    Case(high_precision_exact.blanket_krr_eps_bracket, (), {**MP, "eps0": 1.0, "n": 10**5, "k": 3, "delta": 1e-6}, fragment="n = 100000 is out of range"),
    # Exact k-RR: eps0 (e^eps0 a double), the enumeration work of the high-precision path (n = 3, k = 14: 29,400 > 20,000).
    Case(krr.exact_shuffled_krr_epsilon, (), {"eps0": 710.0, "n": 3, "delta": 1e-6, "k": 2}, fragment="eps0 = 710.0 is out of range"),
    Case(krr.exact_shuffled_krr_epsilon_mp, (), {**MP, "eps0": 1.0, "n": 3, "delta": 1e-6, "k": 14}, fragment="n = 3 is out of range"),
    # The protocols' k.
    Case(attribute_fragmenting.k_rappor_randomizer, (13, 2), fragment="k = 13 is out of range"),
    Case(attribute_fragmenting.k_rappor_absent_reference, (13, 2), fragment="k = 13 is out of range"),
    Case(attribute_fragmenting.attribute_fragmenting_report, (0,), {"k": limits.PROTOCOL_ARRAY_K_MAX + 1, "eps0": 1.0}, fragment="k = 16777216 is out of range"),
    Case(frequency_estimation.hadamard_response_randomizer, (256, 2.0), fragment="k = 256 is out of range"),
    Case(frequency_estimation.krr_estimate, (np.zeros(3, dtype=np.int64), limits.PROTOCOL_ARRAY_K_MAX + 1, 1.0), fragment="k = 16777216 is out of range"),
    Case(frequency_estimation.krr_encode, (np.zeros(3, dtype=np.int64), 2, 710.0), fragment="eps0 = 710.0 is out of range"),
    Case(shuffled_krr.blanket_krr_randomizer, (256, Fraction(1, 2)), fragment="k = 256 is out of range"),
    Case(summation_lower_bound.midpoints, (1001,), fragment="k = 1001 is out of range"),
    Case(summation_lower_bound.lemma_4_3_minimum, (), {"k": 1001}, fragment="k = 1001 is out of range"),
    Case(tree_counter.client_output_distribution, ([0, 1],), {"k": 256, "e_a": 2}, fragment="k = 256 is out of range"),
]

EXEMPT = {
    "shuffle_spec.reference.core.limits.limits_table",  # no inputs: the table as text
}
