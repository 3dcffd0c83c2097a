"""One group lowered (`reference.randomizers.lowered`) and the raised statement's lower end: certified LOWER ends of
BBGN19 Lemma 5.3's sum (statements BBGN19.Lem5.3.exact_subset and BBGN19.Lem5.3.exact_raised, `tight="both"`),
compared with the sum computed term by term (multinomial counts enumerated, mpmath at 40 digits) at small n."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import pytest

from shuffle_spec.reference.randomizers import raised, subset_selection
from shuffle_spec.reference.randomizers.lowered import lowered_delta_lower, lowered_groups
from shuffle_spec.reference.randomizers.raised_candidate import raised_groups

F = Fraction


def _lemma53_sum(gamma: Fraction, groups, n: int, eps: float) -> mpmath.mpf:
    """sum_{N=1}^{n} Pr[Bin(n-1, gamma) = N-1] (1/N) E[(sum_g c_g h_g)_+], h ~ Mult(N; p), c_g = alpha_g - e^eps beta_g:
    every count vector enumerated (BBGN19 Lemma 5.3, module doc of reference.randomizers.structured)."""
    with mpmath.workdps(40):
        e = mpmath.exp(mpmath.mpf(eps))
        c = [mpmath.mpf(a.numerator) / a.denominator - e * mpmath.mpf(b.numerator) / b.denominator for a, b in zip(groups.alpha, groups.beta, strict=True)]
        p = [mpmath.mpf(q.numerator) / q.denominator for q in groups.p]
        g = mpmath.mpf(gamma.numerator) / gamma.denominator
        total = mpmath.mpf(0)
        for big_n in range(1, n + 1):
            weight = mpmath.binomial(n - 1, big_n - 1) * g ** (big_n - 1) * (1 - g) ** (n - big_n)
            expectation = mpmath.mpf(0)
            for counts in itertools.product(range(big_n + 1), repeat=len(p)):
                if sum(counts) != big_n:
                    continue
                s = sum(ci * hi for ci, hi in zip(c, counts, strict=True))
                if s > 0:
                    prob = mpmath.factorial(big_n) * mpmath.fprod(pi**hi / mpmath.factorial(hi) for pi, hi in zip(p, counts, strict=True))
                    expectation += prob * s
            total += weight * expectation / big_n
        return total


def test_every_lowering_lowers_every_coefficient():
    # Admissible (module doc): beta_j >= beta_i and alpha_j - beta_j <= alpha_i - beta_i, so c_j <= c_i at every e^eps >= 1.
    pair = subset_selection.SubsetSelection(F(3), 6, 2).replace_pairs()[0]
    found = lowered_groups(pair.groups)
    assert found
    for i, j, groups in found:
        assert len(groups) <= 3
        for e in (F(1), F(2), F(10)):
            assert pair.groups.alpha[j] - e * pair.groups.beta[j] <= pair.groups.alpha[i] - e * pair.groups.beta[i]


@pytest.mark.parametrize("eps", [0.05, 0.3])
def test_lowered_and_raised_lower_ends_bracket_the_four_group_sum(eps):
    # d = 6, k = 2, e0 = 3, n = 4: the lowered sum's certified lower end is below the four-group sum (its exact value
    # term by term), which is below every raise's sum, whose smallest certified lower end is the raised statement's.
    mechanism = subset_selection.SubsetSelection(F(3), 6, 2)
    pair = mechanism.replace_pairs()[0]
    n = 4
    four = _lemma53_sum(pair.gamma, pair.groups, n, eps)
    lowered_low, lowered_high = lowered_delta_lower(pair, n=n, eps=eps, delta_hint=1e-6)
    assert 0 < lowered_low <= four * (1 + mpmath.mpf(10) ** -30)
    raised_value = raised.raised_blanket_delta([pair], n=n, eps=eps, delta_hint=1e-6, tight="both")
    smallest_raise = min(_lemma53_sum(pair.gamma, groups, n, eps) for _, _, groups in raised_groups(pair.groups))
    assert four <= smallest_raise
    assert 0 < raised_value.lower <= smallest_raise * (1 + mpmath.mpf(10) ** -30)
    assert math.isfinite(lowered_high) and lowered_low <= lowered_high
