"""Invalid inputs of the (eps0, n, delta) validator shared by the certified exact k-RR and Laplace bounds
(`shuffle_spec.reference.bounds.blanket_exact_krr.check_eps0_n_delta`)."""

from invalid_inputs import Case
from shuffle_spec.reference.bounds.blanket_exact_krr import check_eps0_n_delta

LIMITS = {"max_eps0": 2.0, "max_n": 10}

CASES = [
    Case(check_eps0_n_delta, (0.0, 5, 1e-6), LIMITS, fragment="eps0"),
    Case(check_eps0_n_delta, (2.5, 5, 1e-6), LIMITS, fragment="eps0 = 2.5 is out of range: expected 0 < eps0 <= 2"),
    Case(check_eps0_n_delta, (1.0, 1.5, 1e-6), LIMITS, fragment="n"),
    # The caller's note on what to use beyond max_n follows the range, in parentheses.
    Case(check_eps0_n_delta, (1.0, 11, 1e-6), {**LIMITS, "n_beyond": "use X beyond"}, fragment="n = 11 is out of range: expected 1 <= n <= 1e+01 (use X beyond)"),
    Case(check_eps0_n_delta, (1.0, 5, 1.0), LIMITS, fragment="delta"),
    Case(check_eps0_n_delta, (1.0, 5, 1e-301), {**LIMITS, "delta_why": "why"}, fragment="delta = 1e-301 is out of range: expected 1e-300 <= delta < 1 (why)"),
]
