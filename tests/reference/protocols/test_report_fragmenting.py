"""EFMRSTT20 Cor A.2 (composition of two pure randomizers), Lemma A.1 (reduction to binary), Thm IV.1
and Alg. 2 (report fragmenting), on exact distributions."""

import math
from fractions import Fraction

import mpmath
import pytest
import numpy as np
from hypothesis import given, settings, strategies as st

from shuffle_spec.reference.finite.distributions import Distribution
from shuffle_spec.reference.finite.divergences import hockey_stick_divergence, ldp_ratio, removal_ldp_ratio
from shuffle_spec.reference.protocols.report_fragmenting import (
    binary_reduction,
    chain_randomizers,
    composed_epsilon,
    composed_ratio,
    report_fragment_epsilon,
    report_fragment_randomizer,
    report_fragmenting_bits,
)
from shuffle_spec.reference.finite.randomizers import Randomizer, binary_randomized_response
from shuffle_spec.reference.core.rounding import round_up
from support.strategies import ldp_randomizers, randomizers

E_VALUES = st.fractions(min_value=Fraction(11, 10), max_value=6, max_denominator=10)


def _second_on(first: Randomizer, second: Randomizer) -> Randomizer:
    """`second` re-indexed to take the outputs of `first` as inputs: y -> second(j(y)) for a fixed map j.
    Pre-composition with a deterministic map keeps a randomizer's LDP ratio (it can only drop pairs)."""
    inputs = second.inputs
    return Randomizer({y: second(inputs[i % len(inputs)]) for i, y in enumerate(first.outputs)})


@settings(max_examples=40)
@given(E_VALUES, E_VALUES, st.data())
def test_cor_a2_holds_for_random_pairs_of_pure_randomizers(e1, e2, data):
    r1, _ = data.draw(ldp_randomizers(max_inputs=3, max_outputs=4, e_eps0=e1))
    r2, _ = data.draw(ldp_randomizers(max_inputs=4, max_outputs=4, e_eps0=e2))
    r2 = _second_on(r1, r2)
    assert ldp_ratio(r1) <= e1 and ldp_ratio(r2) <= e2
    chain = chain_randomizers(r1, r2)
    bound = composed_ratio(e1, e2)
    assert ldp_ratio(chain) <= bound
    # The paper's remark (issue: "<= min of the two"): the composed multiplier is <= min(e1, e2).
    assert bound <= min(e1, e2)


@settings(max_examples=30)
@given(E_VALUES, E_VALUES, st.data())
def test_cor_a2_removal_version(e1, e2, data):
    # R_1 removal eps1-DP w.r.t. R_0 => R_2 o R_1 removal eps-DP w.r.t. R_2(R_0).
    r1, _ = data.draw(ldp_randomizers(max_inputs=3, max_outputs=4, e_eps0=e1))
    r2, _ = data.draw(ldp_randomizers(max_inputs=4, max_outputs=4, e_eps0=e2))
    r2 = _second_on(r1, r2)
    reference = r1(r1.inputs[0])  # replacement e1 => removal e1 w.r.t. an output distribution
    assert removal_ldp_ratio(r1, reference) <= e1
    pushed = {}
    for y, p in reference.items():
        for z, q in r2(y).items():
            pushed[z] = pushed.get(z, 0) + p * q
    assert removal_ldp_ratio(chain_randomizers(r1, r2), Distribution(pushed)) <= composed_ratio(e1, e2)


@given(E_VALUES, E_VALUES)
def test_binary_rr_attains_cor_a2(e1, e2):
    # Tight: RR(e2) o RR(e1) has LDP ratio exactly (e1 e2 + 1)/(e1 + e2).
    chain = chain_randomizers(binary_randomized_response(e1), binary_randomized_response(e2))
    assert ldp_ratio(chain) == composed_ratio(e1, e2)


@given(st.floats(1e-4, 30), st.floats(1e-4, 30))
def test_composed_epsilon_float_is_an_upper_bound_and_below_the_min(eps1, eps2):
    result = composed_epsilon(eps1=eps1, eps2=eps2)
    assert result.direction == "upper_bound" and result.value == result.upper
    value = result.value
    # e^eps is irrational, so compare with a 50-digit evaluation (the sum eps1 + eps2 taken in mpmath, not
    # in doubles): the float must not be below it.
    with mpmath.workdps(50):
        a, b = mpmath.mpf(eps1), mpmath.mpf(eps2)
        exact = mpmath.log((mpmath.exp(a + b) + 1) / (mpmath.exp(a) + mpmath.exp(b)))
    assert result.lower <= exact <= value <= exact * (1 + 1e-14)
    assert value <= min(eps1, eps2) * (1 + 1e-15)


@settings(max_examples=40)
@given(randomizers(max_inputs=3, max_outputs=3), st.data())
def test_lemma_a1_binary_reduction(r1, data):
    # The binary pair of Lemma A.1's proof: Q_1, Q_2 are no less private than R_1, R_2, and Q_2 o Q_1's
    # divergence at (0, 1) is at least R_2 o R_1's at (x, x'), for a random multiplier.
    r2 = _second_on(r1, data.draw(randomizers(max_inputs=3, max_outputs=3)))
    x, x2 = data.draw(st.sampled_from([(a, b) for a in r1.inputs for b in r1.inputs if a != b]))
    e = data.draw(st.fractions(min_value=1, max_value=4, max_denominator=8))
    q1, q2 = binary_reduction(r1, r2, x, x2, e)
    assert ldp_ratio(q1) <= ldp_ratio(r1)
    assert ldp_ratio(q2) <= ldp_ratio(r2)
    chain = chain_randomizers(r1, r2)
    binary = chain_randomizers(q1, q2)
    assert hockey_stick_divergence(binary(0), binary(1), e) >= hockey_stick_divergence(chain(x), chain(x2), e)


@settings(max_examples=20)
@given(E_VALUES, E_VALUES, st.integers(1, 3))
def test_thm_iv1_on_exact_report_fragments(eb, ef, t):
    # t fragments of r-frag with RR backstop and RR fragments: exact LDP ratio <= Cor A.2 at (eb, ef^t).
    m_j = report_fragment_randomizer(binary_randomized_response(eb), binary_randomized_response(ef), t)
    bound = composed_ratio(eb, ef**t)
    assert ldp_ratio(m_j) <= bound
    assert bound <= min(eb, ef**t)
    # Float inputs at or above the exact log(e) (rounded up), so the float bound must dominate the exact log.
    eps_b, eps_f = round_up(math.log(eb), 2), round_up(math.log(ef), 2)
    ratio = ldp_ratio(m_j)
    with mpmath.workdps(50):
        exact = mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)
    assert report_fragment_epsilon(eps_b=eps_b, eps_f=eps_f, t=t).value >= exact


def test_thm_iv1_one_fragment_is_tight():
    # t = 1 with binary RR: the chain RR(ef) o RR(eb) attains the bound exactly.
    eb, ef = Fraction(5), Fraction(3)
    assert ldp_ratio(report_fragment_randomizer(binary_randomized_response(eb), binary_randomized_response(ef), 1)) == composed_ratio(eb, ef)


def test_report_fragmenting_bits_flip_rates():
    # Alg. 2 on 20000 one-hot coordinates: the fragment rows agree with the true bit w.p.
    # (1-fb)(1-ff) + fb ff; binomial std of the mean ~ 0.0035, tolerance 6 std (false failure < 1e-8).
    bits = np.zeros(20000, dtype=np.int64)
    bits[::2] = 1
    eb, ef = 2.0, 1.0
    matrix = report_fragmenting_bits(bits, eps_b=eb, eps_f=ef, tau=4, seed=7)
    assert matrix.shape == (4, 20000)
    fb, ff = 1 / (1 + math.exp(eb)), 1 / (1 + math.exp(ef))
    agree = (1 - fb) * (1 - ff) + fb * ff
    for row in matrix:
        assert abs(float(np.mean(row == bits)) - agree) < 6 * math.sqrt(agree * (1 - agree) / bits.size)
    # Two rows share the backstop: they agree with each other more often than independent RR would.
    same = float(np.mean(matrix[0] == matrix[1]))
    assert abs(same - ((1 - ff) ** 2 + ff**2)) < 0.02


def _exact_fragment_epsilon(eps_b: float, eps_f: float, t: int) -> mpmath.mpf:
    """EFMRSTT20 Thm IV.1 = Cor A.2 at eps1 = eps_b, eps2 = t eps_f, with t eps_f taken exactly (80 digits)."""
    with mpmath.workdps(80):
        a, b = mpmath.mpf(eps_b), mpmath.mpf(t) * mpmath.mpf(eps_f)
        return mpmath.log((mpmath.exp(a + b) + 1) / (mpmath.exp(a) + mpmath.exp(b)))


# Points where the double product t * eps_f rounds below the exact product by enough for the certified
# upper end computed from it to fall below the exact value (found by a random search of 3,000 points).
@pytest.mark.parametrize(
    ("eps_b", "eps_f", "t"),
    [(0.1142778377865289, 0.3397907452238996, 3), (2.349550026435957, 0.042483393643867697, 7), (2.1035152254305127, 0.2512491972004881, 5)],
)
def test_fragment_epsilon_takes_t_times_eps_f_exactly(eps_b, eps_f, t):
    result = report_fragment_epsilon(eps_b=eps_b, eps_f=eps_f, t=t)
    with mpmath.workdps(80):
        assert mpmath.mpf(result.lower) <= _exact_fragment_epsilon(eps_b, eps_f, t) <= mpmath.mpf(result.upper)
