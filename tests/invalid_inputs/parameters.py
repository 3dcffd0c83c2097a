"""Invalid inputs of the one input checker (`shuffle_spec.reference.core.parameters`): each message names the
parameter, its value and the allowed range (from `reference/core/limits.py` or the caller's own limit)."""

from invalid_inputs import Case
from shuffle_spec.reference.core import parameters as p

CASES = [
    Case(p.check_eps0, (-1.0,), fragment="eps0"),
    Case(p.check_eps0, (5.0,), {"maximum": 2.0, "why": "composition"}, fragment="eps0 = 5.0 is out of range: expected 0 < eps0 <= 2 (composition)"),
    Case(p.check_eps0, (800.0,), {"statement": "FMT21.clones_numeric"}, fragment="eps0 = 800.0 is out of range: expected 0 < eps0 <= 700"),
    Case(p.check_eps, (float("nan"),), fragment="eps"),
    Case(p.check_eps, (0.0,), fragment="eps = 0.0"),
    Case(p.check_n, (0,), fragment="n = 0"),
    Case(p.check_n, (2.5,), fragment="n = 2.5"),
    Case(p.check_n, (11,), {"maximum": 10}, fragment="n = 11 is out of range: expected an integer 1 <= n <= 1e+01"),
    Case(p.check_n, (10**13,), {"statement": "FMT21.clones_numeric"}, fragment="n = 10000000000000 is out of range"),
    Case(p.check_delta, (1.0,), fragment="delta = 1.0"),
    Case(p.check_delta, (1.5,), {"closed_high": True}, fragment="delta = 1.5"),
    Case(p.check_delta, (1e-5,), {"minimum": 1e-4, "why": "w"}, fragment="delta = 1e-05 is out of range: expected 0.0001 <= delta < 1 (w)"),
    Case(p.check_delta, (1e-301,), {"statement": "FMT21.clones_numeric"}, fragment="delta = 1e-301 is out of range: expected 1e-300 <= delta < 1"),
    Case(p.check_delta, (0.0,), {"name": "delta_prime"}, fragment="delta_prime = 0.0"),
    Case(p.check_k, (1,), fragment="k = 1"),
    Case(p.check_k, (11,), {"maximum": 10}, fragment="k = 11 is out of range: expected 2 <= k <= 10"),
    Case(p.check_rounds, (0,), {"maximum": 5}, fragment="rounds = 0"),
    Case(p.check_rounds, (6,), {"maximum": 5}, fragment="rounds = 6 is out of range: expected 1 <= rounds <= 5e+00"),
    Case(p.check_dps, (10,), fragment="dps = 10 is out of range: expected an integer number of decimal digits, 15 <= dps <= 400"),
    Case(p.check_dps, (True,), fragment="dps = True"),
    Case(p.check_dps, (300,), {"high": 200}, fragment="dps = 300"),
    Case(p.check_amplification_inputs, (1.0, 5, 1e-301), {"statement": "BBGN19.Thm5.3"}, fragment="delta = 1e-301"),
    Case(p.check_amplification_inputs, (1.0, 0, 1e-6), {"statement": "BBGN19.Thm5.3"}, fragment="n = 0"),
    Case(p.check_amplification_inputs, (-1.0, 5, 1e-6), {"statement": "BBGN19.Thm5.3"}, fragment="eps0 = -1.0"),
    Case(p.check_inverse_inputs, (0.0, 5, 1e-6), {"statement": "BBGN19.Thm5.3"}, fragment="eps = 0.0"),
    Case(p.check_inverse_inputs, (1.0, 5, 0.0), {"statement": "BBGN19.Thm5.3"}, fragment="delta = 0.0"),
]
