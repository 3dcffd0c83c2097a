"""Proof checks for exact.shuffled_binary_rr: the bit-flip symmetry of the pair, the monotone likelihood
ratio that makes a threshold set optimal, the spec's sums against the reference at small n, and the
removal step of the certified worst case (issue 14): removing users is post-processing, so the population
of n - B users with K ones bounds every pair with k in [K, K + B] ones."""

from __future__ import annotations

import math

import sympy as sp

from fractions import Fraction
from typing import cast

from shuffle_spec.proofs_checks.framework import assert_identity, proof_check, require

from shuffle_spec.reference.divergences import hockey_stick_divergence
from shuffle_spec.reference.exact_binary_rr import binary_rr_pair_delta, block_delta_bound
from shuffle_spec.reference.randomizers import binary_randomized_response
from shuffle_spec.reference.shuffling import shuffled_distribution
from shuffle_spec.spec.exact import binary_rr as spec
from shuffle_spec.spec.symbols import eps0, n

ID = "exact.shuffled_binary_rr"
r = sp.Symbol("r", positive=True)  # f(s-1)/f(s), non-decreasing in s for the log-concave S_m


@proof_check(ID, "P_m(s)/Q_m(s) is monotone in s: d/dr of the ratio is (2p-1)/((1-p) r + p)^2 > 0, r = f(s-1)/f(s)")
def _ratio_monotone() -> None:
    p = spec.keep_probability
    # P_m(s) = p f(s-1) + (1-p) f(s), Q_m(s) = (1-p) f(s-1) + p f(s), divided through by f(s).
    ratio = (p * r + (1 - p)) / ((1 - p) * r + p)
    assert_identity(sp.diff(ratio, r), (2 * p - 1) / ((1 - p) * r + p) ** 2, "d ratio/dr")
    u = sp.Symbol("u", positive=True)
    require(sp.simplify((2 * p - 1).subs(sp.exp(eps0), 1 + u)).is_positive, "2p - 1 > 0 needs eps0 > 0")
    # S_m is a sum of independent Bernoullis, so f is log-concave and r grows with s: P_m/Q_m is
    # non-decreasing in s, the optimal events are threshold sets, and the reference searches both
    # directions (lower and upper sets) on its ratio array.


@proof_check(ID, "bit flip: P_m(s) = Q_{n-1-m}(n-s) (n = 7, all m, s; eps0 = 1)")
def _bit_flip_symmetry() -> None:
    size = 7
    for ones in range(size):
        for at in range(size + 1):
            p_here, _ = spec.pair_pmfs(sp.Integer(ones), sp.Integer(at))
            _, q_mirror = spec.pair_pmfs(sp.Integer(size - 1 - ones), sp.Integer(size - at))
            point = {n: size, eps0: 1}
            diff = sp.N((p_here - q_mirror).subs(point).doit(), 30)
            require(abs(diff) < sp.Float(10) ** -25, f"m={ones}, s={at}: {diff}")


@proof_check(ID, "spec pmfs, summed as hockey-stick divergences = reference certified pair delta (n = 6, m = 0..5, eps0 = 2, eps = 1/2)")
def _spec_matches_reference() -> None:
    # The spec's P_m(s), Q_m(s) are evaluated term by term at 40 digits and the divergence sums
    # (`spec.pair_divergence`) formed from them; letting SymPy evaluate the Max of symbolic Sums
    # directly gives the same numbers but takes minutes.
    size, e_eps = 6, sp.N(sp.exp(sp.Rational(1, 2)), 40)
    for ones in range(size):
        p_m, q_m = spec.pair_pmfs(sp.Integer(ones), spec.s)
        point = {n: size, eps0: 2}
        p_values = [sp.N(_expand_finite_sums(p_m.subs(point).subs(spec.s, at)), 40) for at in range(size + 1)]
        q_values = [sp.N(_expand_finite_sums(q_m.subs(point).subs(spec.s, at)), 40) for at in range(size + 1)]
        forward = sum(max(a - e_eps * b, 0) for a, b in zip(p_values, q_values, strict=True))
        backward = sum(max(b - e_eps * a, 0) for a, b in zip(p_values, q_values, strict=True))
        exact = max(forward, backward)
        got = binary_rr_pair_delta(eps0=2.0, n=size, k=ones, eps=0.5)
        require(got.lower <= float(exact) * (1 + 1e-14) + 1e-300 and float(exact) * (1 - 1e-14) <= got.upper, f"m={ones}: {exact} not in [{got.lower}, {got.upper}]")
        require(math.isfinite(float(exact)), f"m={ones}: exact delta {exact} is not finite")


def _expand_finite_sums(expr: sp.Expr) -> sp.Expr:
    """Replace each Sum with concrete limits by the explicit sum of its terms."""

    def explicit(total: sp.Sum) -> sp.Expr:
        index, low, high = total.limits[0]
        return sp.Add(*[total.function.subs(index, j) for j in range(int(low), int(high) + 1)])

    return expr.replace(lambda e: isinstance(e, sp.Sum), explicit)


x = sp.Symbol("x")  # generating-function variable of the count of ones


@proof_check(ID, "removal step 1: S_k = S' + R with R independent (generating functions: (q+px)^k (p+qx)^(n-1-k) = "
             "[(q+px)^K (p+qx)^(n-1-K-B)] [(q+px)^(k-K) (p+qx)^(K+B-k)] for K <= k <= K+B)")
def _removal_decomposition() -> None:
    p = spec.keep_probability
    q = 1 - p
    big_k, big_b, j = sp.symbols("K B j", integer=True, nonnegative=True)  # k = K + j, 0 <= j <= B
    k = big_k + j
    whole = (q + p * x) ** k * (p + q * x) ** (n - 1 - k)
    reduced = (q + p * x) ** big_k * (p + q * x) ** (n - 1 - big_k - big_b)
    added = (q + p * x) ** (k - big_k) * (p + q * x) ** (big_k + big_b - k)
    # Exponents add up; the product of generating functions is the law of the sum of independent counts.
    assert_identity(sp.powsimp(whole / (reduced * added), force=True), sp.Integer(1), "S_k = S' + R")
    assert_identity(sp.expand(k - big_k + big_k + big_b - k), big_b, "R counts B users")


@proof_check(ID, "removal step 2: a common Markov kernel T cannot increase D_e: sum_y [sum_x T(y|x)(P(x) - e Q(x))]_+ "
             "<= sum_x [P(x) - e Q(x)]_+ ([.]_+ is subadditive and positively homogeneous; checked exactly on a 3x3 kernel)")
def _data_processing() -> None:
    # [sum_i a_i]_+ <= sum_i [a_i]_+ for any reals (the argument); an exact instance with mixed signs:
    e = sp.Rational(3, 2)
    P = [sp.Rational(1, 2), sp.Rational(1, 3), sp.Rational(1, 6)]
    Q = [sp.Rational(1, 6), sp.Rational(1, 3), sp.Rational(1, 2)]
    T = [[sp.Rational(1, 2), sp.Rational(1, 4), sp.Rational(1, 4)], [sp.Rational(1, 3), sp.Rational(1, 3), sp.Rational(1, 3)], [0, sp.Rational(1, 2), sp.Rational(1, 2)]]
    before = sum(max(P[i] - e * Q[i], 0) for i in range(3))
    after = sum(max(sum(T[i][y] * (P[i] - e * Q[i]) for i in range(3)), 0) for y in range(3))
    require(after <= before, f"{after} > {before}")
    # Subadditivity of [.]_+ holds sign pattern by sign pattern; SymPy checks all 8 patterns.
    for signs in range(8):
        values = [(1 if signs >> i & 1 else -1) * (i + 1) for i in range(3)]
        lhs = max(sum(values), 0)
        rhs = sum(max(v, 0) for v in values)
        require(lhs <= rhs, f"[sum]_+ > sum [.]_+ at {values}")


def _one_direction_exact(e_eps0: Fraction, ones: int, zeros: int, e_eps: Fraction) -> Fraction:
    """Exact D_{e^eps}(P || Q): user 1 holds 1 vs 0, others `ones` ones and `zeros` zeros (Fractions)."""
    rr = binary_randomized_response(e_eps0)
    rest = (1,) * ones + (0,) * zeros
    p = shuffled_distribution(rr, (1,) + rest)
    q = shuffled_distribution(rr, (0,) + rest)
    return cast(Fraction, hockey_stick_divergence(p, q, e_eps))  # exact in, exact out


@proof_check(ID, "removal bound on exact instances: every d_k, K <= k <= K+B, is <= the exact divergence of the population "
             "n-B with K ones, and the reference's certified block bound contains the latter (n = 6, e^eps0 = 3, e^eps = 3/2)")
def _removal_exact_instances() -> None:
    size, e_eps0, e_eps = 6, Fraction(3), Fraction(3, 2)
    exact_d = {k: _one_direction_exact(e_eps0, k, size - 1 - k, e_eps) for k in range(size)}
    for start in range(size):
        for width in range(size - start):
            reduced = _one_direction_exact(e_eps0, start, size - 1 - start - width, e_eps)
            for k in range(start, start + width + 1):
                require(exact_d[k] <= reduced, f"k={k} in block ({start}, {width}): {exact_d[k]} > {reduced}")
            got = block_delta_bound(eps0=math.log(3), n=size, start=start, width=width, eps=math.log(1.5))
            # e^eps0 = 3 and e^eps = 3/2 are the doubles' exact values up to 1 ulp: 1e-12 slack.
            require(got.lower - 1e-12 <= float(reduced) <= got.upper + 1e-12, f"block ({start}, {width}): exact {float(reduced)} outside {got}")


@proof_check(ID, "thinned removal step 1: Bern(p) = lambda delta_1 + (1 - lambda) Bern(q) with lambda = 1 - e^-eps0 = (p-q)/p "
             "in [0, 1] (a user holding 1 is, w.p. e^-eps0, distributed as a user holding 0)")
def _thinning_mixture() -> None:
    p = spec.keep_probability
    q = 1 - p
    lam = 1 - sp.exp(-eps0)
    assert_identity(sp.simplify(lam * 1 + (1 - lam) * q - p), sp.Integer(0), "mixture mean (a Bernoulli is its mean)")
    assert_identity(sp.simplify((p - q) / p - lam), sp.Integer(0), "lambda = (p - q)/p")


def _thinned_mixture_exact(e_eps0: Fraction, ones: int, zeros: int, width: int, e_eps: Fraction) -> Fraction:
    """E_{J ~ Bin(width, lambda)} of the exact divergence of the population `ones` ones, zeros + width - J zeros."""
    lam = 1 - 1 / e_eps0
    total = Fraction(0)
    for j in range(width + 1):
        weight = math.comb(width, j) * lam**j * (1 - lam) ** (width - j)
        total += weight * _one_direction_exact(e_eps0, ones, zeros + width - j, e_eps)
    return total


@proof_check(ID, "thinned removal step 2: for k in [K, K+B], conditioning on which of the k-K ones of the block act as "
             "deterministic (J ~ Bin(k-K, lambda)) makes S_k a shift of the population K ones, n-1-K-J zeros; joint "
             "convexity and shift invariance give d_k <= E_J d(K, n-1-K-J); d is non-decreasing in J (removal) and "
             "Bin(k-K, lambda) <= Bin(B, lambda) stochastically. Checked exactly: n = 7, e^eps0 = 2, e^eps = 5/4, every block")
def _thinned_exact_instances() -> None:
    size, e_eps0, e_eps = 7, Fraction(2), Fraction(5, 4)
    exact_d = {k: _one_direction_exact(e_eps0, k, size - 1 - k, e_eps) for k in range(size)}
    sharper = 0
    for start in range(size):
        for width in range(size - start):
            mixture = _thinned_mixture_exact(e_eps0, start, size - 1 - start - width, width, e_eps)
            removal = _one_direction_exact(e_eps0, start, size - 1 - start - width, e_eps)
            require(mixture <= removal, str((start, width)))
            for k in range(start, start + width + 1):
                require(exact_d[k] <= mixture, f"k={k} in block ({start}, {width}): {exact_d[k]} > {mixture}")
            sharper += mixture < removal
    require(sharper > 0, "the thinned bound is never sharper than removal on this instance")
