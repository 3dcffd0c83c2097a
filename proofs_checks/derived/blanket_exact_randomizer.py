"""Proof checks of the exact blanket bound of a finite randomizer given as a matrix
(BBGN19.Lem5.3.exact_randomizer) and of its pair lower bound (exact.randomizer_pair)."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy as sp

from ..framework import assert_identity, assert_nonnegative, proof_check, require
from ...reference.bounds.blanket_exact_randomizer import (
    blanket_pair_delta,
    exact_blanket_randomizer_delta,
    fft_count_expectation_upper,
    finite_randomizer,
    group_outputs,
    product_count_expectation,
    product_form,
)
from ...reference.lower_bounds.randomizer import randomizer_pair_delta


UPPER_ID = "BBGN19.Lem5.3.exact_randomizer"
LOWER_ID = "exact.randomizer_pair"


# ---------------------------------------------------------------------------------------------------
# Proof checks


def _random_matrix(seed: int, k: int, m: int) -> list[list[Fraction]]:
    rng = random.Random(seed)
    rows = []
    for _ in range(k):
        weights = [Fraction(rng.randint(1, 9)) for _ in range(m)]
        total = sum(weights)
        rows.append([w / total for w in weights])
    return rows


@proof_check(UPPER_ID, "best blanket: mu_x = gamma omega + (1 - gamma) nu_x with nu_x >= 0 summing to 1; no decomposition has a larger gamma")
def _decomposition() -> None:
    # Symbolically: with c_y = min_x mu_x(y) = mu_x(y) - d_y (d_y >= 0), gamma = sum c, omega = c / gamma,
    # nu_x = d / (1 - gamma): the mixture gives mu_x back, nu_x sums to 1 when mu_x does.
    size = 4
    mus = sp.symbols(f"mu0:{size}", positive=True)
    ds = sp.symbols(f"d0:{size}", nonnegative=True)
    cs = [mu - d for mu, d in zip(mus, ds, strict=True)]
    gamma = sp.Add(*cs)
    for y in range(size):
        omega, nu = cs[y] / gamma, ds[y] / (1 - gamma)
        assert_identity(gamma * omega + (1 - gamma) * nu, mus[y], f"mixture at output {y}")
        assert_nonnegative(ds[y], "nu_x(y) (1 - gamma) = mu_x(y) - min_x' mu_x'(y)")
    total_nu = sp.Add(*ds) / (1 - gamma)
    assert_identity(total_nu.subs(mus[-1], 1 - sp.Add(*mus[:-1])), 1, "nu_x sums to 1 when mu_x does")
    # Exact instances: any decomposition mu_x = g w + (1 - g) v_x has g w(y) <= min_x mu_x(y), so g <= gamma.
    for seed, (k, m) in enumerate(((2, 2), (3, 3), (3, 5), (4, 4))):
        rows = _random_matrix(seed, k, m)
        mins = [min(r[y] for r in rows) for y in range(m)]
        gamma_exact = sum(mins, Fraction(0))
        require(finite_randomizer(rows).gamma == gamma_exact, "reference gamma = sum of column minima")
        for r in rows:
            nu = [(r[y] - mins[y]) / (1 - gamma_exact) for y in range(m)]
            require(all(v >= 0 for v in nu) and sum(nu) == 1, f"nu_x is a distribution (seed {seed})")


@proof_check(UPPER_ID, "sum_y omega(y) l_y = 1 - e^eps, so E[L_1 + ... + L_N] = N (1 - e^eps); (s)_+ = s + (-s)_+")
def _mean_and_complement() -> None:
    e = sp.Symbol("e", positive=True)
    size = 4
    mu_x = sp.symbols(f"a0:{size}", positive=True)
    mu_x2 = sp.symbols(f"b0:{size}", positive=True)
    omega = sp.symbols(f"w0:{size}", positive=True)
    mean = sp.Add(*[w * (a - e * b) / w for a, b, w in zip(mu_x, mu_x2, omega, strict=True)])
    constraints = {mu_x[-1]: 1 - sp.Add(*mu_x[:-1]), mu_x2[-1]: 1 - sp.Add(*mu_x2[:-1])}
    assert_identity(mean.subs(constraints), 1 - e, "E[L] = 1 - e^eps")
    s = sp.Symbol("s", positive=True)
    assert_identity(sp.Max(s, 0), s + sp.Max(-s, 0), "(s)_+ = s + (-s)_+ for s > 0")
    assert_identity(sp.Max(-s, 0), -s + sp.Max(s, 0), "(s)_+ = s + (-s)_+ for s < 0")


@proof_check(UPPER_ID, "randomized rounding: E[L' | L] = h floor(l/h) + q h >= l when q >= (l - h floor(l/h))/h (convex order)")
def _randomized_rounding() -> None:
    h, t, slack = sp.symbols("h t slack", positive=True)  # l = h b + t, 0 <= t < h; q = t/h + slack
    b = sp.Symbol("b", integer=True)
    q = t / h + slack
    conditional_mean = (1 - q) * (h * b) + q * (h * (b + 1))
    assert_nonnegative(sp.simplify(conditional_mean - (h * b + t)), "E[L' | L] - L = slack h >= 0")
    # Jensen + monotonicity: f(s) = (s)_+ is convex and non-decreasing, so E f(sum L) <= E f(sum E[L'|L]) <= E f(sum L').
    # Checked on an exact instance: the FFT upper bound is >= the brute-force expectation (4 groups, N = 6).
    mu_x = [Fraction(4, 10), Fraction(3, 10), Fraction(2, 10), Fraction(1, 10)]
    mu_x2 = [Fraction(1, 10), Fraction(2, 10), Fraction(3, 10), Fraction(4, 10)]
    omega = [Fraction(2, 10), Fraction(2, 10), Fraction(3, 10), Fraction(3, 10)]
    groups = group_outputs(mu_x, mu_x2, omega)
    for eps in (0.05, 0.4):
        exact = brute_force_expectation(6, groups, eps)
        upper = fft_count_expectation_upper(6, groups, eps)
        require(exact <= upper <= exact * (1 + 1e-6) + 1e-12, f"FFT upper {upper} vs exact {exact} at eps {eps}")



@proof_check(UPPER_ID, "product groups: sum_t (alpha(I_t) - e beta(J_t)) = N (a0 - e b0) + (a1 - a0) K_I - e (b1 - b0) K_J; the counts of I and J are independent binomials")
def _product_groups() -> None:
    a0, a1, b0, b1, e = sp.symbols("a0 a1 b0 b1 e", positive=True)
    big_n = 3
    for values in itertools.product((0, 1), repeat=2 * big_n):
        i, j = values[:big_n], values[big_n:]
        direct = sp.Add(*[(a0 + (a1 - a0) * x) - e * (b0 + (b1 - b0) * y) for x, y in zip(i, j, strict=True)])
        counted = big_n * (a0 - e * b0) + (a1 - a0) * sum(i) - e * (b1 - b0) * sum(j)
        assert_identity(direct, counted, f"S at labels {values}")
    # Under a product law the N draws' (I_t, J_t) are i.i.d. with independent coordinates, so K_I = sum I_t and
    # K_J = sum J_t are independent binomials; the certified sum brackets the enumeration (float, N = 6).
    # omega uniform on the outputs (I, J) = (0, 0), (0, 1), (1, 0), (1, 1); alpha = 1/2 or 3/2 by I, beta by J.
    eighth, three = Fraction(1, 8), Fraction(3, 8)
    groups = group_outputs([eighth, eighth, three, three], [eighth, three, eighth, three], [Fraction(1, 4)] * 4)
    form = product_form(groups)
    if form is None:
        require(False, f"a product of two fair labels is a product form: {groups}")
        return
    for eps in (0.0, 0.3):
        exact = brute_force_expectation(6, groups, eps)
        lower, upper = product_count_expectation(6, form, eps)
        require(lower <= exact * (1 + 1e-12) + 1e-15 and exact <= upper * (1 + 1e-12) + 1e-15, f"product sum [{lower}, {upper}] vs enumeration {exact} at eps {eps}")


def brute_force_expectation(big_n: int, groups: Any, eps: float) -> float:
    """E[(sum_g l_g c_g)_+], c ~ Mult(N; p), by enumeration of the counts (float, for small N; independent of
    the lattice and FFT engines it checks; the tests of the exact blanket bound use it too)."""
    e = math.exp(eps)
    coefficients = [float(a) - e * float(b) for a, b in zip(groups.alpha, groups.beta, strict=True)]
    probs = [float(p) for p in groups.p]
    total = 0.0
    for counts in itertools.product(range(big_n + 1), repeat=len(probs) - 1):
        rest = big_n - sum(counts)
        if rest < 0:
            continue
        full = (*counts, rest)
        weight = float(math.factorial(big_n))
        for c, p in zip(full, probs, strict=True):
            weight *= p**c / math.factorial(c)
        total += weight * max(0.0, sum(c * coef for c, coef in zip(full, coefficients, strict=True)))
    return total


@proof_check(LOWER_ID, "multinomial shift, m = 4: Mult(n-1; h - e_1) prod p^(h - e_1) = Mult(n; h) prod p^h h_1 / (n p_1)")
def _multinomial_shift() -> None:
    n = sp.Symbol("n", integer=True, positive=True)
    h = sp.symbols("h0:4", integer=True, positive=True)
    p = sp.symbols("p0:4", positive=True)
    rest = n - h[0] - h[1] - h[2]
    shifted = sp.factorial(n - 1) / (sp.factorial(h[0] - 1) * sp.factorial(h[1]) * sp.factorial(h[2]) * sp.factorial(rest)) * p[0] ** (h[0] - 1) * p[1] ** h[1] * p[2] ** h[2] * p[3] ** rest
    full = sp.factorial(n) / (sp.factorial(h[0]) * sp.factorial(h[1]) * sp.factorial(h[2]) * sp.factorial(rest)) * p[0] ** h[0] * p[1] ** h[1] * p[2] ** h[2] * p[3] ** rest
    require(sp.simplify(sp.combsimp(shifted / (full * h[0] / (n * p[0])))) == 1, "multinomial shift")


def _exact_pair_delta(rows: Sequence[Sequence[Fraction]], x: int, x2: int, z: int, n: int, eps: float) -> float:
    from ...reference.finite.divergences import hockey_stick_divergence
    from ...reference.finite.randomizers import Randomizer
    from ...reference.finite.shuffling import shuffled_distribution

    randomizer = Randomizer.from_matrix([[str(v) for v in row] for row in rows])
    inputs = randomizer.inputs
    rest = (inputs[z],) * (n - 1)
    p = shuffled_distribution(randomizer, rest + (inputs[x],))
    q = shuffled_distribution(randomizer, rest + (inputs[x2],))
    return float(hockey_stick_divergence(p, q, math.exp(eps)))  # one direction, as the reference's


@proof_check(LOWER_ID, "reference pair delta = exact shuffled divergence (Fractions) at n = 5, random 3 x 3 and 2 x 2 matrices")
def _pair_vs_exact() -> None:
    for seed, (k, m) in enumerate(((3, 3), (2, 2), (3, 2))):
        rows = _random_matrix(seed + 10, k, m)
        for x, x2, z in ((0, 1, 2 % k), (1, 0, 0)):
            value = _exact_pair_delta(rows, x, x2, z, 5, 0.1)
            got = randomizer_pair_delta(matrix=rows, n=5, eps=0.1, x=x, x2=x2, z=z)
            require(got.lower * (1 - 1e-9) - 1e-15 <= value <= got.upper * (1 + 1e-9) + 1e-15, f"exact {value} outside {got} (seed {seed}, {x}, {x2}, {z})")


@proof_check(UPPER_ID, "reference blanket delta >= exact shuffled delta of every neighbouring dataset (n = 4, random 3 x 3 and 3 x 4)")
def _blanket_vs_exact() -> None:
    from ...reference.finite.randomizers import Randomizer
    from ...reference.finite.shuffling import exact_shuffled_delta

    for seed, (k, m) in enumerate(((3, 3), (3, 4))):
        rows = _random_matrix(seed + 20, k, m)
        randomizer = Randomizer.from_matrix([[str(v) for v in row] for row in rows])
        for eps in (0.05, 0.3):
            exact = float(exact_shuffled_delta(randomizer, 4, math.exp(eps)))
            got = exact_blanket_randomizer_delta(matrix=rows, n=4, eps=eps)
            require(got.upper >= exact * (1 - 1e-12), f"blanket {got} below the exact {exact} (seed {seed}, eps {eps})")


@proof_check(UPPER_ID, "equals BBGN19.Lem5.3.exact_krr on k-RR matrices (k = 3, 5) at n = 200, eps = 0.2 (certified intervals overlap)")
def _equals_krr() -> None:
    from ...reference.bounds.blanket_exact_krr import exact_blanket_krr_delta

    for k in (3, 5):
        e0 = math.exp(1.0)
        d = e0 + k - 1
        rows = [[e0 / d if i == j else 1 / d for j in range(k)] for i in range(k)]
        krr = exact_blanket_krr_delta(eps0=1.0, n=200, k=k, eps=0.2)
        exact_rows = finite_randomizer(rows)
        mine = blanket_pair_delta(exact_rows, 0, 1, n=200, eps=0.2)
        require(mine.lower <= krr.upper * (1 + 1e-9) and krr.lower <= mine.upper * (1 + 1e-9), f"k = {k}: {mine} vs exact_krr {krr}")
        require(len(group_outputs(exact_rows.rows[0], exact_rows.rows[1], exact_rows.column_min())) == 3, "k-RR groups into 3")
