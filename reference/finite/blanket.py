"""The privacy blanket of a finite randomizer (BBGN19 Sec. 5.1-5.2, App. A), exactly.

For a finite randomizer with output distributions mu_x:
- total variation similarity gamma = sum_y min_x mu_x(y)                       (BBGN19.tv_similarity)
- blanket distribution omega(y) = min_x mu_x(y) / gamma
- mixture decomposition mu_x = gamma omega + (1 - gamma) nu_x, with gamma maximal
- privacy amplification random variable L = (mu_x(W) - e^eps mu_x'(W)) / omega(W), W ~ omega
                                                                               (BBGN19.amplification_variable)
- Lemma 5.3's bound (1/(gamma n)) E[(L_1 + ... + L_M)_+], M ~ Bin(n, gamma), from the exact L
                                                                               (BBGN19.Lem5.3)
- Lemma A.3's divergence D(Y_m || Y'_m) of the blanket multisets, computed directly (BBGN19.LemA.3)

With exact (`Fraction`) randomizers and a rational e^eps every quantity is an exact `Fraction`.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Hashable, Mapping, Sequence, cast

from .distributions import Distribution, Probability
from .divergences import hockey_stick_divergence
from ..core.errors import ParameterError, require_integer, require_multiplier
from .randomizers import Randomizer
from .shuffling import shuffled_distribution

__all__ = [
    "BlanketDecomposition",
    "total_variation_similarity",
    "blanket_distribution",
    "mixture_decomposition",
    "amplification_variable",
    "expected_positive_part_of_sum",
    "lemma_5_3_divergence_bound",
    "blanket_multiset_divergence",
    "lemma_a1_conditioned_bound",
    "lemma_a2_blanket_bound",
]


def _zero(exact: bool) -> Probability:
    return Fraction(0) if exact else 0.0


def _check_e_eps(e_eps: object) -> None:
    require_multiplier("e_eps", e_eps, finite=True)


def _pointwise_minimum(randomizer: Randomizer) -> dict[Hashable, Probability]:
    return {y: min(mu[y] for _, mu in randomizer.items()) for y in randomizer.outputs}


def total_variation_similarity(randomizer: Randomizer) -> Probability:
    """gamma = sum_y min_x mu_x(y), the total variation similarity of the randomizer's output
    distributions (BBGN19.tv_similarity; equation (2): 1 - TV for two distributions)."""
    if not isinstance(randomizer, Randomizer):
        raise ParameterError("randomizer", randomizer, "a shuffle_spec.reference.finite.randomizers.Randomizer")
    return sum(_pointwise_minimum(randomizer).values(), _zero(randomizer.is_exact))


def blanket_distribution(randomizer: Randomizer) -> Distribution:
    """omega(y) = min_x mu_x(y) / gamma (BBGN19.tv_similarity); refused when gamma = 0 (no blanket)."""
    gamma = total_variation_similarity(randomizer)
    if gamma == 0:
        raise ParameterError("randomizer", randomizer, "a randomizer with total variation similarity gamma > 0")
    return Distribution({y: m / gamma for y, m in _pointwise_minimum(randomizer).items() if m != 0})


@dataclass(frozen=True)
class BlanketDecomposition:
    """mu_x = gamma * blanket + (1 - gamma) * residuals[x] for every input x."""

    gamma: Probability
    blanket: Distribution
    residuals: Mapping[Hashable, Distribution]


def mixture_decomposition(randomizer: Randomizer) -> BlanketDecomposition:
    """The decomposition mu_x = gamma omega + (1 - gamma) nu_x with gamma the TV similarity
    (BBGN19.tv_similarity, Sec. 5.1). It is maximal: for every output y some nu_x(y) = 0, so no
    larger weight on a common component is possible. When gamma = 1 (all mu_x equal) the residuals
    carry weight 0 and are taken equal to mu_x."""
    gamma = total_variation_similarity(randomizer)
    omega = blanket_distribution(randomizer)
    residuals = {}
    for x, mu in randomizer.items():
        if gamma == 1:
            residuals[x] = mu
        else:
            residuals[x] = Distribution({y: (mu[y] - gamma * omega[y]) / (1 - gamma) for y in mu})
    return BlanketDecomposition(gamma, omega, residuals)


def amplification_variable(randomizer: Randomizer, x: Hashable, x2: Hashable, e_eps: Fraction | float) -> Distribution:
    """The distribution of L^eps_{x,x'} = (mu_x(W) - e^eps mu_x'(W)) / omega(W), W ~ omega
    (BBGN19.amplification_variable), as a distribution over its values."""
    _check_e_eps(e_eps)
    if x == x2:
        raise ParameterError("x2", x2, f"an input different from x = {x!r}")
    mu, mu2 = randomizer(x), randomizer(x2)
    omega = blanket_distribution(randomizer)
    return omega.map(lambda w: (mu[w] - e_eps * mu2[w]) / omega[w])


def expected_positive_part_of_sum(variable: Distribution, m: int) -> Probability:
    """E[(L_1 + ... + L_m)_+] for m i.i.d. copies of a finite real random variable (0 for m = 0),
    by exact convolution (BBGN19.Lem5.3 / LemA.3)."""
    require_integer("m", m, minimum=0)
    if not isinstance(variable, Distribution):
        raise ParameterError("variable", variable, "a Distribution over real values")
    total: dict[Fraction | float, Probability] = {0: Fraction(1) if variable.is_exact else 1.0}
    for _ in range(int(m)):
        nxt: dict[Fraction | float, Probability] = {}
        for s, p in total.items():
            for outcome, q in variable.items():
                v = cast(Fraction | float, outcome)  # the variable's outcomes are real values
                nxt[s + v] = nxt.get(s + v, 0) + p * q
        total = nxt
    return sum((p * s for s, p in total.items() if s > 0), _zero(variable.is_exact))


def lemma_5_3_divergence_bound(randomizer: Randomizer, x: Hashable, x2: Hashable, n: int, e_eps: Fraction | float) -> Probability:
    """(1/(gamma n)) sum_{m=1}^n C(n,m) gamma^m (1-gamma)^(n-m) E[(sum_{i<=m} L_i)_+] (BBGN19.Lem5.3),
    an upper bound on D_{e^eps}(M(X) || M(X')) for every pair of neighbouring datasets of n users whose
    differing user holds x in X and x2 in X'. Computed from the exact distribution of L."""
    require_integer("n", n, minimum=1)
    variable = amplification_variable(randomizer, x, x2, e_eps)
    gamma = total_variation_similarity(randomizer)
    total = _zero(variable.is_exact)
    for m in range(1, int(n) + 1):
        weight = math.comb(int(n), m) * gamma**m * (1 - gamma) ** (int(n) - m)
        if weight != 0:
            total += weight * expected_positive_part_of_sum(variable, m)
    return total / (gamma * int(n))


def blanket_multiset_divergence(randomizer: Randomizer, x: Hashable, x2: Hashable, m: int, e_eps: Fraction | float) -> Probability:
    """D_{e^eps}(Y_m || Y'_m) with Y_m = {X} + {W_1..W_m}, X ~ mu_x, W_i ~ omega i.i.d. (and Y'_m with
    mu_x2), computed on the exact multiset distributions (BBGN19.LemA.3's left-hand side)."""
    require_integer("m", m, minimum=0)
    _check_e_eps(e_eps)
    if x == x2:
        raise ParameterError("x2", x2, f"an input different from x = {x!r}")
    omega = blanket_distribution(randomizer)
    # A randomizer whose inputs are 'x', 'x2' and 'blanket' lets the shuffler build the multisets.
    table = Randomizer({("user", 0): randomizer(x), ("user", 1): randomizer(x2), ("blanket",): omega})
    common: list[tuple[str, ...] | tuple[str, int]] = [("blanket",)] * int(m)
    p = shuffled_distribution(table, [("user", 0), *common])
    q = shuffled_distribution(table, [("user", 1), *common])
    return hockey_stick_divergence(p, q, e_eps)


def lemma_a1_conditioned_bound(randomizer: Randomizer, rest: Sequence[Hashable], x: Hashable, x2: Hashable, e_eps: Fraction | float) -> Probability:
    """sum_B Pr[B] D_{e^eps}(Y_B || Y'_B) over the sets B of blanket users among the first n - 1 (inputs
    `rest`); Y_B has omega-draws for B, nu_{x_i}-draws for the others and mu_x (resp. mu_x2) for the last
    user; Pr[B] = gamma^|B| (1-gamma)^(n-1-|B|) (BBGN19.LemA.1, equation (5)). Exponential in len(rest)."""
    _check_e_eps(e_eps)
    if x == x2:
        raise ParameterError("x2", x2, f"an input different from x = {x!r}")
    rest = list(rest)
    if len(rest) > 12:
        raise ParameterError("len(rest)", len(rest), "at most 12 other users (2^(n-1) blanket sets are enumerated)")
    decomposition = mixture_decomposition(randomizer)
    gamma = decomposition.gamma
    table: dict[tuple[Hashable, ...], Distribution] = {
        ("blanket",): decomposition.blanket, ("user", 0): randomizer(x), ("user", 1): randomizer(x2)
    }
    for xi in rest:
        randomizer(xi)  # validates the input
        table[("residual", xi)] = decomposition.residuals[xi]
    draws = Randomizer(table)
    total = _zero(randomizer.is_exact)
    for size in range(len(rest) + 1):
        weight = gamma**size * (1 - gamma) ** (len(rest) - size)
        if weight == 0:
            continue
        for blanket_users in itertools.combinations(range(len(rest)), size):
            common = [("blanket",) if i in blanket_users else ("residual", xi) for i, xi in enumerate(rest)]
            p = shuffled_distribution(draws, common + [("user", 0)])
            q = shuffled_distribution(draws, common + [("user", 1)])
            total += weight * hockey_stick_divergence(p, q, e_eps)
    return total


def lemma_a2_blanket_bound(randomizer: Randomizer, x: Hashable, x2: Hashable, n: int, e_eps: Fraction | float) -> Probability:
    """sum_{m=0}^{n-1} C(n-1, m) gamma^m (1-gamma)^(n-1-m) D_{e^eps}(Y_m || Y'_m): the bound after dropping
    the non-blanket users by Lemma A.2 (BBGN19.LemA.2, equation (6))."""
    require_integer("n", n, minimum=1)
    gamma = total_variation_similarity(randomizer)
    total = _zero(randomizer.is_exact)
    for m in range(int(n)):
        weight = math.comb(int(n) - 1, m) * gamma**m * (1 - gamma) ** (int(n) - 1 - m)
        if weight != 0:
            total += weight * blanket_multiset_divergence(randomizer, x, x2, m, e_eps)
    return total
