"""Finite distributions and randomizers: validation, exactness, the basic operations."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shuffle_spec.reference.finite.operations import compose_adaptively, compose_randomizers, mixture, post_process, product
from shuffle_spec.reference.finite.distributions import Distribution, point_mass, uniform
from shuffle_spec.reference.finite.randomizers import Randomizer, k_randomized_response
from support.strategies import exact_distributions, randomizers


@given(exact_distributions())
def test_exact_distributions_sum_to_one_exactly(dist):
    assert sum(dist.values()) == 1
    assert dist.is_exact


@given(exact_distributions(), st.integers(1, 3))
def test_pushforward_keeps_mass_and_is_exact(dist, modulus):
    image = dist.map(lambda o: o % modulus)
    assert sum(image.values()) == 1 and image.is_exact
    for value in image:
        assert image[value] == dist.probability_of(lambda o: o % modulus == value)


@given(exact_distributions(3), exact_distributions(3), st.fractions(0, 1, max_denominator=20))
def test_mixture_is_pointwise_convex_combination(p, q, rho):
    mixed = mixture([(1 - rho, p), (rho, q)])
    for o in range(3):
        assert mixed[o] == (1 - rho) * p[o] + rho * q[o]


@given(exact_distributions(2), exact_distributions(3))
def test_product_marginals(p, q):
    joint = product(p, q)
    assert joint.map(lambda o: o[0]) == p
    assert joint.map(lambda o: o[1]) == q


@given(randomizers())
def test_post_process_by_identity_kernel_changes_nothing(r):
    for x in r.inputs:
        assert post_process(r(x), point_mass) == r(x)


def test_uniform_and_point_mass():
    assert uniform([0, 1, 2, 3])[2] == Fraction(1, 4)
    assert point_mass("a")["a"] == 1 and point_mass("a")["b"] == 0


def test_zero_probability_outcomes_are_not_in_the_support():
    assert Distribution({0: Fraction(1), 1: Fraction(0)}).support == frozenset({0})


def test_krr_matrix_is_exact_and_symmetric():
    r = k_randomized_response(3, Fraction(2))
    assert r.matrix() == [[Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(1, 2), Fraction(1, 4)], [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)]]


@given(randomizers(max_inputs=2, max_outputs=3), randomizers(max_inputs=2, max_outputs=2))
def test_composition_outputs_are_independent_pairs(r1, r2):
    composed = compose_randomizers(r1, r2)
    for x in composed.inputs:
        assert composed(x) == product(r1(x), r2(x))


@given(randomizers(max_inputs=2, max_outputs=3))
def test_adaptive_composition_with_a_fixed_second_randomizer_is_the_product(r1):
    second = Randomizer.from_matrix([[Fraction(1, 3), Fraction(2, 3)], [Fraction(1, 2), Fraction(1, 2)]], inputs=r1.inputs)
    adaptive = compose_adaptively(r1, lambda y: second)
    assert all(adaptive(x) == product(r1(x), second(x)) for x in r1.inputs)


@pytest.mark.parametrize(
    "rows, fragment",
    [
        ([[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 3)]], "matrix row 1"),
        ([[Fraction(1, 2), Fraction(1, 3)]], "sum of matrix row 0"),
        ([["1/2", "x"]], "matrix[0][1]"),
        ([[Fraction(3, 2), Fraction(-1, 2)]], "matrix[0][0]"),
        ([[0.5, -0.5, 1.0]], "matrix[0][1]"),
    ],
)
def test_from_matrix_errors_name_row_and_column(rows, fragment):
    with pytest.raises(ValueError, match=fragment.replace("[", r"\[").replace("]", r"\]")):
        Randomizer.from_matrix(rows)
