"""Invalid inputs of the high-precision paths `<function>_mp` (the test vectors' enclosures) and of the
mpmath bracketing they share (`reference/numerics/inversion_mp.py`)."""

import mpmath

from invalid_inputs import Case
from shuffle_spec.reference.numerics import inversion_mp
from shuffle_spec.reference.bounds import bennett, hoeffding, shuffled_rr_cheu
from shuffle_spec.reference.composition import bun_steinke as composition_bun_steinke

AMP = {"eps0": 1.0, "n": 10_000, "delta": 1e-6}

CASES = [
    Case(inversion_mp.relative_tolerance_mp, (10,), fragment="dps"),
    Case(inversion_mp.relative_tolerance_mp, (40.5,), fragment="dps"),
    Case(inversion_mp.bracket_boundary_mp, (lambda x: x <= 1, mpmath.mpf(2), mpmath.mpf(3)), {"dps": 40}, fragment="good end"),
    Case(inversion_mp.bracket_boundary_mp, (lambda x: x <= 1, mpmath.mpf(0), mpmath.mpf(3)), {"dps": 40}, fragment="positive"),
    Case(inversion_mp.bracket_boundary_mp, (lambda x: x <= 1, mpmath.mpf(1) / 2, mpmath.mpf(1)), {"dps": 40}, fragment="bad end"),
    Case(inversion_mp.bracket_boundary_mp, (lambda x: x <= 1, mpmath.mpf(1) / 2, mpmath.mpf(3)), {"dps": 5}, fragment="dps"),
    Case(hoeffding.hoeffding_generic_epsilon_mp, (), {"dps": 40, **AMP, "delta": 1.0}, fragment="delta"),
    Case(hoeffding.hoeffding_generic_epsilon_mp, (), {"dps": 12, **AMP}, fragment="dps"),
    Case(hoeffding.hoeffding_krr_epsilon_mp, (), {"dps": 40, **AMP, "k": 1}, fragment="k"),
    Case(hoeffding.hoeffding_laplace_epsilon_mp, (), {"dps": 40, **AMP, "eps0": -1.0}, fragment="eps0"),
    Case(bennett.bennett_generic_epsilon_mp, (), {"dps": 40, **AMP, "n": 0}, fragment="n"),
    Case(bennett.bennett_krr_epsilon_mp, (), {"dps": 40, **AMP, "k": 2.5}, fragment="k"),
    Case(bennett.bennett_laplace_epsilon_mp, (), {"dps": 40, **AMP, "delta": 0}, fragment="delta"),
    Case(shuffled_rr_cheu.shuffled_rr_largest_eps0_mp, (), {"dps": 40, "eps": 0.001, "n": 10_000, "delta": 1e-6}, fragment="eps"),
    Case(shuffled_rr_cheu.shuffled_rr_largest_eps0_mp, (), {"dps": 40, "eps": 1.0, "n": 100, "delta": 1e-6}, fragment="14 log(4/delta)"),
    Case(shuffled_rr_cheu.shuffled_rr_largest_eps0_mp, (), {"dps": 40, "eps": 1.0, "n": 10_000, "delta": 1.5}, fragment="delta"),
    Case(composition_bun_steinke.advanced_composition_largest_eps_mp, (), {"dps": 40, "eps_total": 1e-12, "k": 10, "delta_prime": 1e-3}, fragment="eps_total"),
    Case(composition_bun_steinke.advanced_composition_largest_eps_mp, (), {"dps": 40, "eps_total": 1.0, "k": 0, "delta_prime": 1e-3}, fragment="k"),
]
