"""Invalid inputs of the transport bound of exact.shuffled_binary_rr (reference/exact/binary_rr_transport.py)."""

import math

from invalid_inputs import Case
from shuffle_spec.reference.exact import binary_rr_transport as transport

P, Q = math.exp(1) / (1 + math.exp(1)), 1 / (1 + math.exp(1))
BLOCK = {"eps0": 1.0, "p": P, "q": Q, "eps": 0.01, "m": 1000, "ones": 0, "width": 10, "tau": 0.01}

CASES = [
    Case(transport.log_error_constant, (), {**BLOCK, "tau": 0.0}, fragment="tau"),
    Case(transport.log_error_constant, (), {**BLOCK, "tau": 0.6}, fragment="tau"),
    Case(transport.log_error_constant, (), {**BLOCK, "eps": 1.5}, fragment="eps"),
    Case(transport.log_error_constant, (), {**BLOCK, "width": 0}, fragment="width"),
    Case(transport.log_error_constant, (), {**BLOCK, "ones": 995}, fragment="width"),
    Case(transport.log_error_constant, (), {**BLOCK, "eps0": 0.0}, fragment="eps0"),
    Case(transport.log_error_constant, (), {**BLOCK, "p": Q, "q": P}, fragment="p"),
    Case(transport.nu_hat_bound, (), {**BLOCK, "theta": [0.1], "tau": -1.0}, fragment="tau"),
    Case(transport.q_modulus_squared_lower, (), {"p": P, "q": Q, "tau": -1.0, "theta": [0.1]}, fragment="tau"),
    Case(transport.q_modulus_squared_lower, (), {"p": P, "q": Q, "tau": math.nan, "theta": [0.1]}, fragment="tau"),
    Case(transport.q_modulus_squared_lower, (), {"p": P, "q": Q, "tau": 0.1, "theta": [math.nan]}, fragment="theta"),
    Case(transport.q_modulus_squared_lower, (), {"p": Q, "q": P, "tau": 0.1, "theta": [0.1]}, fragment="p"),
    Case(transport.max_pmf_bound, (), {"p": P, "q": Q, "m": -1}, fragment="m"),
    Case(transport.saddle_tilt, (), {"p": P, "q": Q, "m": 10, "ones": 11, "target": 5.0}, fragment="ones"),
    Case(transport.saddle_tilt, (), {"p": P, "q": Q, "m": 10, "ones": 1, "target": math.nan}, fragment="target"),
    Case(transport.quadratic_cell_upper, ((0.0, 1.0), (2.0, 1.0), (0.0, 0.0)), fragment="at"),
    Case(transport.quadratic_cell_upper, ((0.0, math.inf), (1.0, 1.0), (0.0, 0.0)), fragment="below"),
    Case(transport.n_series_coefficients, (-1.0,), fragment="eps0"),
    Case(transport.n_series_coefficients, (math.nan,), fragment="eps0"),
]
