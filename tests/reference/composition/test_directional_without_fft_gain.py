"""compose.binary_rr where the untilted FFT composition certifies no gain: the float FFT's round-off bound (about
1e-13 of the total mass, reference/numerics/pld.py point 4) keeps its certified delta(eps) curve above deltas near
1e-15, so at eps0 = 4, n = 1e4, T = 2, delta = 1e-15 it alone returns eps0 x T = 8 (basic composition); the
tilted composition (point 5, used by reference/composition/solve.py below delta = 1e-10) and the directional
programme (U5, reference/composition/directional_rounds.py: a dynamic programme with outward rounding, no FFT)
certify far less. The smaller of the certified upper ends is returned, and eps(delta) must not increase as delta
grows (an eps certified at a smaller delta is certified at every larger one)."""

from shuffle_spec.reference.composition import mechanism_rounds as mech
from shuffle_spec.reference.composition.solve import composition_tail, upper_curve_epsilon
from shuffle_spec.reference.core.results import NO_COMPOSITION_GAIN
from shuffle_spec.reference.numerics.solver import solve_epsilon


def test_directional_answers_where_the_fft_certifies_no_gain():
    r = mech.MechanismRound("binary_rr", 4.0, 10_000, 2)
    composed = mech._composed_upper([r], 1e-15, composition_tail(1e-15))
    untilted = solve_epsilon(lambda e: (composed.delta(e),) * 2, eps0=composed.eps_max, delta=1e-15, rel_tol=mech.EPS_REL_TOL)
    assert untilted.upper == 8.0  # the case this test is about: the untilted FFT curve alone gives no gain here
    fft = upper_curve_epsilon(composed, delta=1e-15, rel_tol=mech.EPS_REL_TOL)
    assert fft.upper < 1.0  # with the tilted composition (0.8922 measured)
    result = mech.composed_epsilon([r], delta=1e-15, lower=False)
    assert result.upper <= fft.upper  # the smaller certified end (the directional programme's 0.8922037 measured)
    assert result.upper < 1.0  # not basic composition's 8
    assert NO_COMPOSITION_GAIN not in result.note  # the FFT's no-gain note does not follow the smaller value
    assert result.upper <= mech.composed_epsilon([r], delta=1e-30, lower=False).upper


def test_binary_rr_composed_epsilon_does_not_grow_with_delta():
    r = mech.MechanismRound("binary_rr", 4.0, 10_000, 2)
    values = [mech.composed_epsilon([r], delta=d, lower=False).upper for d in (1e-30, 1e-20, 1e-15, 1e-12)]
    assert all(later <= earlier for earlier, later in zip(values, values[1:], strict=False)), values
