"""EFMRSTT20 Defs II.1-II.4: replacement vs removal LDP on exact distributions, the optimal R_0, and
the factor between the two notions shown on randomized response and k-RAPPOR."""

from fractions import Fraction
import math

import pytest
from hypothesis import given, settings, strategies as st

from shuffle_spec.reference.finite.distributions import Distribution
from shuffle_spec.reference.finite.divergences import ldp_ratio, removal_ldp_ratio
from shuffle_spec.reference.protocols.attribute_fragmenting import k_rappor_absent_reference, k_rappor_randomizer
from shuffle_spec.reference.finite.randomizers import Randomizer, binary_randomized_response, k_randomized_response
from shuffle_spec.reference.finite.removal_ldp import (
    binary_rr_removal_epsilon,
    is_generalized_removal_dp,
    is_removal_ldp,
    is_replacement_ldp,
    optimal_removal_e_eps_squared,
    optimal_removal_reference,
    standard_removal_mechanism,
)
from support.strategies import randomizers


@given(randomizers(max_inputs=3, max_outputs=4))
def test_replacement_implies_removal_with_r0_an_output(randomizer):
    # Def II.4 remark: replacement eps => removal eps, taking R_0 = R(x_0).
    e = ldp_ratio(randomizer)
    for x in randomizer.inputs:
        assert is_removal_ldp(randomizer, randomizer(x), e)


@given(randomizers(max_inputs=3, max_outputs=4), st.data())
def test_removal_implies_replacement_with_twice_epsilon(randomizer, data):
    # Def II.4 remark: removal eps (w.r.t. any R_0) => replacement 2 eps: P_x <= e R0 <= e^2 P_x'.
    weights = data.draw(st.lists(st.integers(1, 9), min_size=len(randomizer.outputs), max_size=len(randomizer.outputs)))
    r0 = Distribution({y: Fraction(w, sum(weights)) for y, w in zip(randomizer.outputs, weights, strict=True)})
    e_removal = removal_ldp_ratio(randomizer, r0)
    assert ldp_ratio(randomizer) <= e_removal * e_removal
    assert is_replacement_ldp(randomizer, e_removal * e_removal)


@given(randomizers(max_inputs=3, max_outputs=4))
def test_optimal_reference_attains_the_optimum_and_nothing_beats_it(randomizer):
    e2 = optimal_removal_e_eps_squared(randomizer)
    # Removal <= replacement <= 2 removal (EFMRSTT20.removal_replacement_factor), exactly in squares.
    e_rep = ldp_ratio(randomizer)
    assert e2 <= e_rep * e_rep and e_rep <= e2
    # A rational multiplier just above sqrt(e2) is feasible, and the R_0 built for it works.
    e_up = Fraction(math.isqrt(int(e2 * 10**12)) + 1, 10**6)
    r0 = optimal_removal_reference(randomizer, e_up)
    assert removal_ldp_ratio(randomizer, r0) <= e_up
    # Below the optimum no R_0 works: the characterization refuses, and the uniform R_0 and every
    # output distribution (natural candidates) need at least sqrt(e2).
    for candidate in [*(randomizer(x) for x in randomizer.inputs)]:
        ratio = removal_ldp_ratio(randomizer, candidate)
        assert ratio * ratio >= e2


@settings(max_examples=25)
@given(randomizers(max_inputs=2, max_outputs=3), st.data())
def test_no_reference_distribution_beats_the_optimum(randomizer, data):
    # Random R_0 on the same outputs: its removal ratio squared is never below the exact optimum.
    outputs = randomizer.outputs
    weights = data.draw(st.lists(st.integers(1, 30), min_size=len(outputs), max_size=len(outputs)))
    r0 = Distribution({y: Fraction(w, sum(weights)) for y, w in zip(outputs, weights, strict=True)})
    ratio = removal_ldp_ratio(randomizer, r0)
    assert ratio * ratio >= optimal_removal_e_eps_squared(randomizer)


@pytest.mark.parametrize("e", [Fraction(11, 10), Fraction(2), Fraction(3), Fraction(20)])
def test_binary_rr_optimal_removal_is_log_of_one_plus_e_over_two(e):
    # EFMRSTT20.DefII.4.binary_rr: E*^2 = ((1+e)/2)^2 exactly, attained by the uniform R_0.
    rr = binary_randomized_response(e)
    assert optimal_removal_e_eps_squared(rr) == ((1 + e) / 2) ** 2
    uniform = Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)})
    assert removal_ldp_ratio(rr, uniform) == (1 + e) / 2
    assert binary_rr_removal_epsilon(eps0=math.log(e)) >= math.log((1 + e) / 2)


def test_factor_between_replacement_and_removal_on_rr_tends_to_two():
    # eps0 / ln((1+e^eps0)/2): -> 2 as eps0 -> 0, -> 1 as eps0 -> infinity, always in [1, 2].
    ratios = [eps0 / binary_rr_removal_epsilon(eps0=eps0) for eps0 in (1e-6, 1e-3, 0.1, 1.0, 5.0, 50.0)]
    assert all(1 <= r <= 2 for r in ratios)
    assert ratios == sorted(ratios, reverse=True)
    assert abs(ratios[0] - 2) < 1e-5 and abs(ratios[-1] - 1) < 0.02


def test_factor_two_is_attained_exactly():
    # A 3-output randomizer whose two rows are e^{+-1} x R_0 on two outputs: removal log e, replacement 2 log e.
    e, s = Fraction(2), Fraction(1, 10)
    rows = [[e * s, s / e, 1 - s * (e + 1 / e)], [s / e, e * s, 1 - s * (e + 1 / e)]]
    randomizer = Randomizer.from_matrix(rows)
    assert optimal_removal_e_eps_squared(randomizer) == e * e
    assert ldp_ratio(randomizer) == e * e


def test_large_k_rr_has_removal_close_to_replacement():
    # k-RR: E*^2 = max(e, (k e/(e+k-1))^2, ((e+k-1)/k)^2) -> e^2 as k grows (factor -> 1).
    e = Fraction(4)
    for k in (2, 5, 50):
        expected = max(e, (k * e / (e + k - 1)) ** 2, ((e + k - 1) / k) ** 2)
        assert optimal_removal_e_eps_squared(k_randomized_response(k, e)) == expected
    assert optimal_removal_e_eps_squared(k_randomized_response(50, e)) > Fraction(14)


@pytest.mark.parametrize("k", [2, 3, 4])
def test_k_rappor_is_replacement_2eps_and_removal_eps(k):
    # Thm III.1 / Table III row 1: per-bit RR(e) on a one-hot vector is replacement e^2 (two bits differ)
    # and removal e w.r.t. R_0 = RR(all zeros) (one bit differs); the optimal R_0 is no worse.
    e = Fraction(3)
    rappor = k_rappor_randomizer(k, e)
    assert ldp_ratio(rappor) == e * e
    assert removal_ldp_ratio(rappor, k_rappor_absent_reference(k, e)) == e
    assert optimal_removal_e_eps_squared(rappor) <= e * e


def _count_law(laws):
    """Exact law of the number of 1s among independent bits with the given laws."""
    law = {0: Fraction(1)}
    for bit_law in laws:
        nxt = {}
        for c, p in law.items():
            for y, q in bit_law.items():
                nxt[c + y] = nxt.get(c + y, 0) + p * q
        law = nxt
    return Distribution(law)


def test_generalized_removal_dp_of_a_count_of_rr_bits():
    # Def II.3: the standard M'(D, I) = M((x_i)_{i in I}) of a count of RR(e) bits is never pure removal
    # DP (with one record more the count can exceed every count of the smaller dataset), while the
    # generalized M'(D, I) that replaces each absent report by R_0 = uniform bit is removal log((1+e)/2)-DP
    # (Def II.4.binary_rr, post-processed by the count) and not better on a one-record dataset.
    e = Fraction(3)
    rr = binary_randomized_response(e)
    uniform = Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)})

    def mechanism(records):
        return _count_law([rr(x) for x in records])

    def generalized(dataset, present):
        return _count_law([rr(x) if i in present else uniform for i, x in enumerate(dataset)])

    datasets = [(0,), (1,), (0, 1, 1)]
    assert not is_generalized_removal_dp(standard_removal_mechanism(mechanism), mechanism, datasets, Fraction(1000), 0)
    assert is_generalized_removal_dp(generalized, mechanism, datasets, (1 + e) / 2, 0)
    assert not is_generalized_removal_dp(generalized, mechanism, datasets, (1 + e) / 2 - Fraction(1, 100), 0)
    # Condition 1 is checked too: an extension that ignores the records is refused.
    assert not is_generalized_removal_dp(lambda d, i: _count_law([uniform] * len(d)), mechanism, datasets, Fraction(1000), 0)


def test_an_output_no_input_produces_constrains_nothing():
    """A zero column (an output no input produces) forces r(y) = 0 in EFMRSTT20 Def II.4 and bounds no ratio:
    the optimum is that of the randomizer without the column (it was reported as infinity)."""
    with_zero = Randomizer.from_matrix([[Fraction(3, 4), Fraction(1, 4), 0], [Fraction(1, 4), Fraction(3, 4), 0]])
    without = Randomizer.from_matrix([[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]])
    assert optimal_removal_e_eps_squared(with_zero) == optimal_removal_e_eps_squared(without) == 4
    reference = optimal_removal_reference(with_zero, Fraction(2))
    assert reference[2] == 0 and removal_ldp_ratio(with_zero, reference) == 2
    # An output that one input produces and another never does still makes removal LDP impossible.
    partial = Randomizer.from_matrix([[Fraction(1, 2), Fraction(1, 2)], [1, 0]])
    assert optimal_removal_e_eps_squared(partial) == math.inf


def test_a_multiplier_beyond_the_doubles_is_accepted_exactly():
    """An exact randomizer with a 1e-999 entry next to 1/2 needs e^eps ~ 1e999, far beyond the doubles: the
    reference builds its R_0 exactly (the finiteness check converted the Fraction to a float and overflowed)."""
    d = 10**999 + 7
    randomizer = Randomizer.from_matrix([[Fraction(1, d), 1 - Fraction(1, d)], [Fraction(1, 2), Fraction(1, 2)]])
    square = optimal_removal_e_eps_squared(randomizer)
    multiplier = Fraction(math.isqrt(square.numerator // square.denominator) + 1)
    reference = optimal_removal_reference(randomizer, multiplier)
    assert removal_ldp_ratio(randomizer, reference) <= multiplier
