"""The product-form path of BBGN19.Lem5.3.exact_randomizer (`product_count_expectation`, `ProductSums`): groups whose
coefficient is alpha(I) - e^eps beta(J) with I, J independent under the blanket (unary encodings, local hashing,
Hadamard response), summed exactly over two independent binomial counts.

Checked against the exact expectation by enumeration of the multinomial counts at 40 digits (independent of both
engines), against the randomized-rounding FFT upper bound (also certified: never below the exact one), and on the
form detection (exact Fractions). Speed is not tested here (benchmarks/randomizers.py)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_spec.reference.bounds.blanket_exact_randomizer import (
    Groups,
    ProductForm,
    fft_count_expectation_upper,
    product_count_expectation,
    product_form,
)
from shuffle_spec.reference.randomizers import hadamard, local_hashing, subset_selection, unary
from shuffle_spec.reference.randomizers.structured import structured_blanket_delta


def _exact_expectation(big_n: int, groups: Groups, eps: float) -> mpmath.mpf:
    """E[(sum_g l_g h_g)_+], h ~ Mult(N; p), l_g = alpha_g - e^eps beta_g: every count vector enumerated at 40 digits."""
    with mpmath.workdps(40):
        e = mpmath.exp(mpmath.mpf(eps))
        coefficients = [mpmath.mpf(a.numerator) / a.denominator - e * mpmath.mpf(b.numerator) / b.denominator for a, b in zip(groups.alpha, groups.beta, strict=True)]
        probabilities = [mpmath.mpf(p.numerator) / p.denominator for p in groups.p]
        total = mpmath.mpf(0)
        for head in itertools.product(range(big_n + 1), repeat=len(probabilities) - 1):
            if sum(head) > big_n:
                continue
            counts = (*head, big_n - sum(head))
            weight = mpmath.mpf(math.factorial(big_n))
            for c, p in zip(counts, probabilities, strict=True):
                weight *= p**c / math.factorial(c)
            s = sum(c * coefficient for c, coefficient in zip(counts, coefficients, strict=True))
            if s > 0:
                total += weight * s
        return total


def _groups(pairs: list) -> Groups:
    return pairs[0].groups


PRODUCT_PAIRS = {
    "rappor eps0=1": _groups(unary.symmetric_rappor(1.0, 8).replace_pairs()),
    "oue eps0=2": _groups(unary.optimized_unary_encoding(2.0, 8).replace_pairs()),
    "olh eps0=3": _groups(local_hashing.local_hashing(3.0, 100, local_hashing.olh_range(3.0)).replace_pairs()),
    "hadamard eps0=0.5": _groups(hadamard.hadamard_response(0.5, 30).replace_pairs()),
}


def test_the_product_mechanisms_have_product_form_and_subset_selection_does_not():
    # Unary encodings, local hashing and Hadamard response: two independent indicators per pair (their module docs).
    for name, groups in PRODUCT_PAIRS.items():
        form = product_form(groups)
        assert form is not None, name
        assert form.a0 < form.a1 and form.b0 < form.b1 and 0 < form.p_i < 1 and 0 < form.p_j < 1
    # Subset selection: the memberships of x and x' in a k-subset are dependent (p11 = k(k-1)/(d(d-1)) != (k/d)^2).
    subset = _groups(subset_selection.subset_selection(2.0, 20, 3).replace_pairs())
    assert len(subset) == 4 and product_form(subset) is None


def test_product_form_refuses_what_is_not_an_exact_product():
    half, quarter = Fraction(1, 2), Fraction(1, 4)
    # Four groups, two alpha and two beta values, but Pr[(a1, b1)] != Pr[a1] Pr[b1].
    skewed = Groups((half, half, Fraction(3, 2), Fraction(3, 2)), (half, Fraction(3, 2), half, Fraction(3, 2)), (Fraction(3, 8), Fraction(1, 8), Fraction(1, 8), Fraction(3, 8)))
    assert product_form(skewed) is None
    product = Groups((half, half, Fraction(3, 2), Fraction(3, 2)), (half, Fraction(3, 2), half, Fraction(3, 2)), (quarter, quarter, quarter, quarter))
    assert product_form(product) == ProductForm(half, Fraction(3, 2), half, Fraction(3, 2), half, half)
    assert product_form(Groups((half,), (half,), (Fraction(1),))) is None  # one group: not four


@pytest.mark.parametrize("name", sorted(PRODUCT_PAIRS))
@pytest.mark.parametrize("big_n", [1, 3, 7])
def test_product_sums_bracket_the_enumerated_expectation(name, big_n):
    groups = PRODUCT_PAIRS[name]
    form = product_form(groups)
    for eps in (0.0, 0.05, 0.3, 1.0):
        exact = _exact_expectation(big_n, groups, eps)
        lower, upper = product_count_expectation(big_n, form, eps)
        assert lower <= exact <= upper
        # Exact up to the float pads (a few hundred ulps of the terms' magnitudes, here at most N e^eps alpha ~ 10^2).
        assert upper - lower <= 1e-9 * float(exact) + 1e-12


@settings(max_examples=25, deadline=None)
@given(
    a=st.fractions(min_value=Fraction(1, 20), max_value=3, max_denominator=30),
    gap=st.fractions(min_value=Fraction(1, 20), max_value=3, max_denominator=30),
    p_i=st.fractions(min_value=Fraction(1, 30), max_value=Fraction(29, 30), max_denominator=30),
    p_j=st.fractions(min_value=Fraction(1, 30), max_value=Fraction(29, 30), max_denominator=30),
    big_n=st.integers(min_value=1, max_value=5),
    eps=st.floats(min_value=0.0, max_value=2.0),
)
def test_product_sums_bracket_enumeration_on_random_product_laws(a, gap, p_i, p_j, big_n, eps):
    # Any two-valued alpha and beta (not necessarily mean 1: the sum does not use that identity).
    form = ProductForm(a, a + gap, a, a + gap, p_i, p_j)
    groups = Groups(
        tuple(x for x in (form.a0, form.a0, form.a1, form.a1)),
        (form.b0, form.b1, form.b0, form.b1),
        ((1 - p_i) * (1 - p_j), (1 - p_i) * p_j, p_i * (1 - p_j), p_i * p_j),
    )
    exact = _exact_expectation(big_n, groups, eps)
    lower, upper = product_count_expectation(big_n, form, eps)
    assert lower <= exact <= upper


@pytest.mark.parametrize("big_n,eps", [(50, 0.05), (400, 0.2), (3000, 0.02)])
def test_product_sums_never_above_the_fft_upper_bound(big_n, eps):
    # Both are certified upper bounds of the same expectation; the FFT one adds the randomized-rounding variance.
    groups = PRODUCT_PAIRS["oue eps0=2"]
    lower, upper = product_count_expectation(big_n, product_form(groups), eps)
    fft = fft_count_expectation_upper(big_n, groups, eps)
    assert lower <= fft
    assert upper <= fft * (1 + 1e-9)


def test_structured_delta_is_non_increasing_in_eps_and_keeps_its_lower_end_below():
    pairs = unary.optimized_unary_encoding(1.0, 1000).replace_pairs()
    values = [structured_blanket_delta(pairs, n=5000, eps=eps, delta_hint=1e-6) for eps in (0.02, 0.04, 0.08)]
    assert all(v.lower <= v.upper for v in values)
    assert values[0].upper >= values[1].upper >= values[2].upper
    assert values[2].lower > 0  # the exact path certifies a lower end too (the FFT path's is 0)
