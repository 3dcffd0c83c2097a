"""Invalid inputs of the FMT21 closed forms, exact shuffled k-RR and the frequency-estimation protocol."""

from fractions import Fraction

import numpy as np

from invalid_inputs import Case
from shuffle_spec.reference.exact import krr as exact_krr
from shuffle_spec.reference.bounds import clone_closed_forms as cf
from shuffle_spec.reference.protocols import frequency_estimation as fe

GOOD = {"eps0": 1.0, "n": 10_000, "delta": 1e-6}
GOOD_PROP = {**GOOD, "delta0": 1e-12}
THM21 = (cf.thm21_seed_epsilon, cf.thm21_focs_epsilon, cf.thm21_apple_epsilon)
PROP22 = (cf.prop22_seed_epsilon, cf.prop22_seed_delta_prime, cf.prop22_focs_epsilon, cf.prop22_focs_delta_prime)

CASES = []
for bound in THM21:
    CASES += [
        Case(bound, (), {**GOOD, "eps0": 0.0}, fragment="eps0"),
        Case(bound, (), {**GOOD, "eps0": float("nan")}, fragment="eps0"),
        Case(bound, (), {**GOOD, "n": 0}, fragment="n"),
        Case(bound, (), {**GOOD, "n": 10.5}, fragment="n"),
        Case(bound, (), {**GOOD, "delta": 0.0}, fragment="delta"),
        Case(bound, (), {**GOOD, "delta": 1.5}, fragment="delta"),
        # Outside the regime eps0 <= log(n/(16 log(c/delta))): log(1e4/(16 log 2e6)) = 3.76 < 8.
        Case(bound, (), {**GOOD, "eps0": 8.0}, fragment="eps0 <= log(n/(16*log("),
    ]
for bound in PROP22:
    CASES += [
        Case(bound, (), {**GOOD_PROP, "delta0": -0.1}, fragment="delta0"),
        Case(bound, (), {**GOOD_PROP, "delta0": 1.5}, fragment="delta0"),
        Case(bound, (), {**GOOD_PROP, "eps0": -1.0}, fragment="eps0"),
        Case(bound, (), {**GOOD_PROP, "n": 100}, fragment="eps0 <= log(n/(16*log(2/delta)))"),
    ]
CASES += [
    Case(cf.largest_eps0_for_epsilon, (), {"eps": 0.0, "n": 10_000, "delta": 1e-6}, fragment="eps"),
    Case(cf.largest_eps0_for_epsilon, (), {"eps": 1.0, "n": 10_000, "delta": 1e-6, "variant": "blog"}, fragment="variant"),
    Case(cf.largest_eps0_for_epsilon, (), {"eps": 1.0, "n": 100, "delta": 1e-6}, fragment="n"),
    # The smallest eps0 in the bracket already gives a bound above a tiny target.
    Case(cf.largest_eps0_for_epsilon, (), {"eps": 1e-15, "n": 10_000, "delta": 1e-6}, fragment="eps0"),
]

RR3 = Fraction(3)
CASES += [
    Case(exact_krr.canonical_rest_counts, (1, 3), fragment="k"),
    Case(exact_krr.canonical_rest_counts, (3, 0), fragment="n"),
    Case(exact_krr.exact_shuffled_krr_delta, (3, RR3, 3, Fraction(1, 2)), fragment="e_eps"),
    Case(exact_krr.exact_shuffled_krr_delta, (3, Fraction(1, 2), 3, 2), fragment="e_eps0"),
    Case(exact_krr.exact_shuffled_krr_delta, (1, RR3, 3, 2), fragment="k"),
    Case(exact_krr.exact_shuffled_krr_e_eps, (3, RR3, 3, Fraction(3, 2)), fragment="delta"),
    Case(exact_krr.exact_shuffled_krr_e_eps, (3, RR3, 0, Fraction(1, 2)), fragment="n"),
    # Too large for exact enumeration: C(n+k-2, k-1) C(n+k-1, k-1)/2 > MAX_WORK.
    Case(exact_krr.exact_shuffled_krr_e_eps, (5, RR3, 200, Fraction(1, 2)), fragment="n"),
    # Refused at once, not enumerated for minutes (n C(..) C(..)/2 > MAX_WORK; this point took > 7 min before).
    Case(exact_krr.exact_shuffled_krr_epsilon, (), {"eps0": 2.0, "n": 50, "delta": 1e-3, "k": 3}, fragment="n"),
    Case(exact_krr.exact_shuffled_krr_epsilon, (), {"eps0": 2.0, "n": 67, "delta": 1e-3, "k": 2}, fragment="n"),
    Case(exact_krr.exact_shuffled_krr_epsilon, (), {"eps0": 0.0, "n": 4, "delta": 0.1, "k": 3}, fragment="eps0"),
    Case(exact_krr.exact_shuffled_krr_epsilon, (), {"eps0": 1.0, "n": 4, "delta": 0.0, "k": 3}, fragment="delta"),
    Case(exact_krr.exact_shuffled_krr_epsilon, (), {"eps0": 1.0, "n": 4, "delta": 0.1, "k": 1}, fragment="k"),
    Case(exact_krr.exact_shuffled_krr_epsilon, (), {"eps0": 1.0, "n": 10**8, "delta": 1e-9, "k": 10**9}, fragment="n"),  # refused before any binomial is built
    Case(exact_krr.exact_shuffled_krr_epsilon, (), {"eps0": 800.0, "n": 4, "delta": 0.1, "k": 3}, fragment="eps0"),
]

VALUES = np.array([0, 1, 2, 1])
CASES += [
    Case(fe.hadamard_size, (1,), fragment="k"),
    Case(fe.hadamard_response_randomizer, (3, 1), fragment="e_eps0"),
    Case(fe.hadamard_response_randomizer, (0, 3), fragment="k"),
    Case(fe.hadamard_response_encode, (VALUES, 3, 0.0), fragment="eps0"),
    Case(fe.hadamard_response_encode, (np.array([0, 3]), 3, 1.0), fragment="values"),
    Case(fe.hadamard_response_encode, (np.array([0.5, 1.0]), 3, 1.0), fragment="values"),
    Case(fe.hadamard_response_encode, (np.array([], dtype=int), 3, 1.0), fragment="values"),
    Case(fe.hadamard_response_estimate, (np.array([0, 4]), 3, 1.0), fragment="values"),
    Case(fe.hadamard_response_estimate, (VALUES, 3, 1000.0), fragment="eps0"),
    Case(fe.krr_encode, (np.array([-1]), 3, 1.0), fragment="values"),
    Case(fe.krr_encode, (VALUES, 1, 1.0), fragment="k"),
    Case(fe.krr_estimate, (VALUES, 3, -1.0), fragment="eps0"),
    Case(fe.estimator_variance_bound, ("rappor", 3, 1.0, 10), fragment="method"),
    Case(fe.estimator_variance_bound, ("krr", 3, 1.0, 0), fragment="n"),
    Case(fe.estimator_range, ("krr", 3, 0.0), fragment="eps0"),
    Case(fe.estimator_range, ("unary", 3, 1.0), fragment="method"),
    Case(fe.shuffled_frequency_estimation, (VALUES, 3), {"eps": 0.0, "delta": 1e-6}, fragment="eps"),
    Case(fe.shuffled_frequency_estimation, (VALUES, 3), {"eps": 1.0, "delta": 1.0}, fragment="delta"),
    Case(fe.shuffled_frequency_estimation, (VALUES, 3), {"eps": 1.0, "delta": 1e-6, "method": "x"}, fragment="method"),
    # Four users are too few for the FMT21 regime to contain any eps0 > 0.
    Case(fe.shuffled_frequency_estimation, (VALUES, 3), {"eps": 1.0, "delta": 1e-6}, fragment="n"),
]
