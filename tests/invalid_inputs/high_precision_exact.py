"""Invalid inputs of the high-precision paths (`<function>_mp`) of the exact statements."""

from fractions import Fraction

from invalid_inputs import Case
from shuffle_spec.reference.exact import binary_rr as exact_binary_rr, krr as exact_krr
from shuffle_spec.reference.lower_bounds import krr as lower_bounds
from shuffle_spec.reference.numerics import high_precision_exact as hp
from shuffle_spec.reference.bounds import blanket_exact_krr as blanket_exact

FP = hp.FixedPoint(128)
POINT = {"eps0": 1.0, "n": 10, "delta": 1e-3, "dps": 40}

CASES = [
    Case(hp.high_precision_context, (2,), fragment="bits"),
    Case(hp.bits_for, (3, 1e-6), fragment="dps"),
    Case(hp.binomial_window, (FP, -1, FP.iv.mpf(0.5), 0), fragment="m"),
    Case(hp.binomial_window, (FP, 10, FP.iv.mpf(0), 0), fragment="p"),
    Case(hp.pair_e_eps, ([1], [1, 2], [1], [1]), {"dropped_p": 0, "dropped_q": 0, "delta": Fraction(1), "e_cap": Fraction(3), "dps": 40}, fragment="p_hi"),
    Case(hp.pair_e_eps, ([1], [1], [1], [1]), {"dropped_p": 0, "dropped_q": 0, "delta": -1, "e_cap": Fraction(3), "dps": 40}, fragment="delta"),
    Case(hp.log_bracket, (FP, Fraction(3), Fraction(2)), fragment="e_lo"),
    Case(hp.binary_rr_direction_e_eps, (), {**POINT, "k": 10}, fragment="k"),
    Case(hp.binary_rr_eps_bracket, (), {**POINT, "eps0": -1.0, "k": 0, "both": True}, fragment="eps0"),
    Case(hp.krr_pair_eps_bracket, (), {**POINT, "k": 2, "pair": "third"}, fragment="k"),
    Case(hp.krr_pair_eps_bracket, (), {**POINT, "k": 3, "pair": "zz"}, fragment="pair"),
    Case(hp.blanket_krr_eps_bracket, (), {**POINT, "delta": 1.5, "k": 3}, fragment="delta"),
    Case(exact_binary_rr.shuffled_binary_rr_mp, (), {**POINT, "n": 0}, fragment="n"),
    Case(exact_binary_rr.shuffled_binary_rr_pair_mp, (), {**POINT, "k": 10}, fragment="k"),
    Case(exact_binary_rr.mp_candidates, (), {"eps0": 1.0, "n": 10, "delta": 2.0, "threshold": 0.1}, fragment="delta"),
    Case(exact_krr.exact_shuffled_krr_epsilon_mp, (), {**POINT, "k": 1}, fragment="k"),
    Case(lower_bounds.krr_pair_third_epsilon_mp, (), {**POINT, "k": 2}, fragment="k"),
    Case(lower_bounds.krr_pair_x0_epsilon_mp, (), {**POINT, "eps0": 0.0, "k": 3}, fragment="eps0"),
    Case(blanket_exact.exact_blanket_krr_epsilon_mp, (), {**POINT, "n": 10**9, "k": 3}, fragment="n"),
]
