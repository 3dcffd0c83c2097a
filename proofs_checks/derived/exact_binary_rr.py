"""Proof checks for exact.shuffled_binary_rr: the bit-flip symmetry of the pair, the monotone likelihood
ratio that makes a threshold set optimal, the spec's sums against the reference at small n, and the
removal step of the certified worst case: removing users is post-processing, so the population
of n - B users with K ones bounds every pair with k in [K, K + B] ones."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp

from fractions import Fraction
from typing import cast

from ..framework import assert_identity, proof_check, require

from ...reference.finite.divergences import hockey_stick_divergence
from ...reference.exact.binary_rr import binary_rr_pair_delta, block_delta_bound, shuffled_binary_rr_pair
from ...reference.finite.randomizers import binary_randomized_response
from ...reference.finite.shuffling import shuffled_distribution
from ...spec.derived.exact import binary_rr as spec
from ...spec.symbols import eps0, n

ID = "exact.shuffled_binary_rr"
PAIR_ID = "exact.shuffled_binary_rr.pair"
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



def _spec_pair_delta(size: int, ones: int, e0: sp.Expr, e_eps: sp.Expr) -> sp.Float:
    """max(D(P_m||Q_m), D(Q_m||P_m)) of the spec's pmfs at 40 digits (n = size, m = ones, e^eps0 = e0)."""
    p_m, q_m = spec.pair_pmfs(sp.Integer(ones), spec.s)
    point = {n: size, eps0: sp.log(e0)}
    p_values = [sp.N(_expand_finite_sums(p_m.subs(point).subs(spec.s, at)), 40) for at in range(size + 1)]
    q_values = [sp.N(_expand_finite_sums(q_m.subs(point).subs(spec.s, at)), 40) for at in range(size + 1)]
    forward = sum(max(a - e_eps * b, 0) for a, b in zip(p_values, q_values, strict=True))
    backward = sum(max(b - e_eps * a, 0) for a, b in zip(p_values, q_values, strict=True))
    return max(forward, backward)


@proof_check(PAIR_ID, "the pair's value is a lower bound on its exact eps and within 1e-6 of it: the spec's pair divergence is "
             ">= delta at the value and <= delta 1e-6 above it (n = 6, m = 0..5, eps0 = 2, delta = 1e-2)")
def _pair_value_brackets_the_spec() -> None:
    size, delta_target = 6, 0.01
    for ones in range(size):
        value = float(shuffled_binary_rr_pair(eps0=2.0, n=size, delta=delta_target, k=ones).value)
        at_value = _spec_pair_delta(size, ones, sp.exp(2), sp.N(sp.exp(sp.Float(value, 40)), 40))
        if value > 0:
            require(at_value >= delta_target * (1 - 1e-12), f"m={ones}: spec delta {at_value} < {delta_target} at the value {value}: above the exact eps")
        else:
            require(at_value <= delta_target, f"m={ones}: value 0 but the spec delta at eps = 0 is {at_value} > {delta_target}")
        above = _spec_pair_delta(size, ones, sp.exp(2), sp.N(sp.exp(sp.Float(value * (1 + 1e-6) + 1e-12, 40)), 40))
        require(above <= delta_target, f"m={ones}: spec delta {above} > {delta_target} just above the value {value}: not tight")


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


# ---------------------------------------------------------------- transport bound (the flat regime)

_pp = sp.Symbol("p", positive=True)  # keep probability, 1/2 <= p < 1; q = 1 - p
_u = sp.Symbol("u")


@proof_check(ID, "transport: N(u) = (q + p e^u) e^{-(p-q)u} - (p + q e^u) = q e^{-(p-q)u} + p e^{2qu} - p - q e^u = Q (w - 1); "
             "its Taylor coefficients (times r!) are c_r = q (q-p)^r + p (2q)^r - q, with c_1 = c_2 = 0 and c_3 = -2pq(p-q) "
             "(the two users' laws differ in odd cumulants only, the first being the transport p - q)")
def _transport_n_series() -> None:
    p, q = _pp, 1 - _pp
    big_p, big_q = q + p * sp.exp(_u), p + q * sp.exp(_u)
    n_u = big_p * sp.exp(-(p - q) * _u) - big_q
    assert_identity(sp.expand(n_u), sp.expand(q * sp.exp(-(p - q) * _u) + p * sp.exp(2 * q * _u) - p - q * sp.exp(_u)), "two forms of N")
    series = sp.series(n_u, _u, 0, 7).removeO()
    for r in range(0, 7):
        coefficient = series.coeff(_u, r) * sp.factorial(r)
        expected = (q * (q - p) ** r + p * (2 * q) ** r - q) if r > 0 else sp.Integer(0)
        assert_identity(coefficient, expected, f"c_{r}")
    assert_identity(series.coeff(_u, 1), sp.Integer(0), "c_1")
    assert_identity(series.coeff(_u, 2), sp.Integer(0), "c_2")
    assert_identity(series.coeff(_u, 3) * 6, -2 * p * q * (p - q), "c_3")


@proof_check(ID, "transport: t(w) = w^j - (1 - j/B) - (j/B) w^B = -(w-1)^2 sum_{i<=B-2} D_i w^i, D_i = min(i+1, j) - j(i+1)/B >= 0, "
             "sum D_i = j(B-j)/2 (so |t(w)| <= |w-1|^2 (B^2/8) max(1, |w|^B)); every B <= 12, 0 <= j <= B")
def _transport_interpolation() -> None:
    w = sp.Symbol("w")
    for big_b in range(1, 13):
        for j in range(big_b + 1):
            weights = [sp.Integer(min(i + 1, j)) - sp.Rational(j * (i + 1), big_b) for i in range(big_b - 1)]
            require(all(d >= 0 for d in weights), f"B={big_b}, j={j}: a negative D_i")
            require(sum(weights, sp.Integer(0)) == sp.Rational(j * (big_b - j), 2), f"B={big_b}, j={j}: sum D_i")
            lhs = w**j - (1 - sp.Rational(j, big_b)) - sp.Rational(j, big_b) * w**big_b
            rhs = -((w - 1) ** 2) * sum((d * w**i for i, d in enumerate(weights)), sp.Integer(0))
            require(sp.expand(lhs - rhs) == 0, f"B={big_b}, j={j}: t(w) identity")


@proof_check(ID, "transport: the mixtures' lattice offsets. Two points (weights 1-f, f at -f, 1-f): mean 0, variance f(1-f) <= 1/4, "
             "so |E e^{izX} - 1| <= |z|^2 e^tau / 8. Three points (quadratic Lagrange weights L_d(u) at offsets d - u, d in {-1, 0, 1}, "
             "|u| <= 1/2): sum L = 1, mean 0, second moment 0, and max_u sum |L_d| |d - u|^3 = 9/16 (LAGRANGE_CUBE), so "
             "|E e^{izX} - 1| <= |z|^3 e^{1.5 tau} 9/96")
def _transport_lattice_offsets() -> None:
    from ...reference.exact.binary_rr_transport import LAGRANGE_CUBE

    f = sp.Symbol("f", nonnegative=True)
    two = [(1 - f, -f), (f, 1 - f)]
    assert_identity(sum(wt * x_ for wt, x_ in two), sp.Integer(0), "two-point mean")
    assert_identity(sum(wt * x_**2 for wt, x_ in two), f * (1 - f), "two-point variance")
    require(sp.maximum(f * (1 - f), f, sp.Interval(0, 1)) == sp.Rational(1, 4), "f(1-f) <= 1/4")
    weights = {-1: _u * (_u - 1) / 2, 0: 1 - _u**2, 1: _u * (_u + 1) / 2}
    for power, value in ((0, 1), (1, 0), (2, 0)):
        assert_identity(sum((weights[d] * (d - _u) ** power for d in weights), sp.Integer(0)), sp.Integer(value), f"moment {power}")
    # On [0, 1/2]: L_{-1} <= 0, L_0, L_1 >= 0 and |d - u| = 1 + u, u, 1 - u; on [-1/2, 0] the mirror image (u -> -u).
    cube = -weights[-1] * (1 + _u) ** 3 + weights[0] * _u**3 + weights[1] * (1 - _u) ** 3
    half = sp.Interval(0, sp.Rational(1, 2))
    top = sp.maximum(cube, _u, half)
    require(top == sp.Rational(9, 16) and LAGRANGE_CUBE == 9 / 16, f"max of the cube sum on [0, 1/2] is {top}")
    mirrored = weights[1].subs(_u, -_u)  # L_1(-u) = L_{-1}(u): the sum is even in u
    assert_identity(mirrored, weights[-1], "symmetry of the weights")


@proof_check(ID, "transport: moduli on Im z = -tau: |P|^2 - |Q|^2 = (p-q)(e^tau - 1)(M_p + M_q) (independent of theta), |Q|^2 = M_q^2 - 2pq e^tau "
             "(1 - cos theta) = (p - q e^tau)^2 + 4pq e^tau cos^2(theta/2), |1 - e^{-tau-i theta}|^2 = (1 - e^-tau)^2 + 2 e^-tau (1 - cos theta); the kernel (a - b)/(1 - e^-zeta) + a e^zeta = (a e^zeta - b)/(1 - e^-zeta) and |a e^{tau+i theta} - b|^2 = "
             "(a e^tau - b)^2 + 2ab e^tau (1 - cos theta)")
def _transport_moduli() -> None:
    p, q = _pp, 1 - _pp
    tau, theta, a, b, zeta = sp.symbols("tau theta a b zeta", real=True)
    growth = sp.exp(tau)
    p_abs2 = q**2 + p**2 * growth**2 + 2 * p * q * growth * sp.cos(theta)
    q_abs2 = p**2 + q**2 * growth**2 + 2 * p * q * growth * sp.cos(theta)
    m_p, m_q = q + p * growth, p + q * growth
    assert_identity(p_abs2 - q_abs2, (p - q) * (growth - 1) * (m_p + m_q), "|P|^2 - |Q|^2")
    assert_identity(q_abs2, m_q**2 - 2 * p * q * growth * (1 - sp.cos(theta)), "|Q|^2")
    # The form the reference evaluates (`q_modulus_squared_lower`): two non-negative terms, no cancellation at small eps0.
    assert_identity(q_abs2, (p - q * growth) ** 2 + 4 * p * q * growth * sp.cos(theta / 2) ** 2, "|Q|^2 as a sum of two squares")
    # The kernel's denominator |1 - e^{-tau - i theta}|^2, evaluated as hypot(1 - e^-tau, sqrt(2 e^-tau (1 - cos theta))).
    denominator = (1 - sp.exp(-tau) * sp.cos(theta)) ** 2 + (sp.exp(-tau) * sp.sin(theta)) ** 2
    assert_identity(denominator, (1 - sp.exp(-tau)) ** 2 + 2 * sp.exp(-tau) * (1 - sp.cos(theta)), "|1 - e^{-tau - i theta}|^2")
    assert_identity((a - b) / (1 - sp.exp(-zeta)) + a * sp.exp(zeta), (a * sp.exp(zeta) - b) / (1 - sp.exp(-zeta)), "kernel")
    numerator = (a * growth * sp.cos(theta) - b) ** 2 + (a * growth * sp.sin(theta)) ** 2
    assert_identity(numerator, (a * growth - b) ** 2 + 2 * a * b * growth * (1 - sp.cos(theta)), "|a e^{tau + i theta} - b|^2")
    # Direct: the moduli of P(theta - i tau) = q + p e^tau e^{i theta}.
    direct = sp.expand((q + p * growth * sp.cos(theta)) ** 2 + (p * growth * sp.sin(theta)) ** 2)
    assert_identity(direct, p_abs2, "|P|^2 directly")


def _exact_curve(e_eps0: Fraction, ones: int, zeros: int, e_eps: Fraction) -> dict[int, Fraction]:
    """G(s) = a Pr[S >= s-1] - b Pr[S >= s] for S = Bin(ones, p) + Bin(zeros, q), every s within 2 (ones + zeros) + 4 of
    the support (the shifted ends of the mixtures are read that far)."""
    p = e_eps0 / (1 + e_eps0)
    q = 1 - p
    pmf = {0: Fraction(1)}
    for chance in [p] * ones + [q] * zeros:
        nxt: dict[int, Fraction] = {}
        for value, weight in pmf.items():
            nxt[value] = nxt.get(value, Fraction(0)) + weight * (1 - chance)
            nxt[value + 1] = nxt.get(value + 1, Fraction(0)) + weight * chance
        pmf = nxt
    size = ones + zeros
    a, b = p - e_eps * q, e_eps * p - q

    def tail(t: int) -> Fraction:
        return sum((w for x_, w in pmf.items() if x_ >= t), Fraction(0))

    return {s: a * tail(s - 1) - b * tail(s) for s in range(-2 * size - 4, 2 * size + 6)}


@proof_check(ID, "transport bound on exact instances (Fourier inversion along Im z = -tau and the kernel): for n = 13, e^eps0 = 3 "
             "(p - q = 1/2, rational transports), e^eps = 11/10, the blocks [0, 12], [2, 9], [5, 7]: every pair's exact G(k, s) minus the "
             "two-point and the three-point mixtures of the ends is within the reference's e^{-tau s'} C_tau at every s and tau on a grid "
             "(Fractions against the float bound; the pointwise check below is the sharp one)")
def _transport_exact_instances() -> None:
    from ...reference.exact.binary_rr_transport import log_error_constant

    size, e_eps0, e_eps = 13, Fraction(3), Fraction(11, 10)
    m = size - 1
    p = e_eps0 / (1 + e_eps0)
    q = 1 - p
    curves = {k: _exact_curve(e_eps0, k, m - k, e_eps) for k in range(size)}
    taus = [0.05, 0.1, 0.2, 0.3, 0.45]
    for k0, k1 in [(0, m), (2, 9), (5, 7)]:
        width = k1 - k0
        for quadratic in (False, True):
            table = [(t, log_error_constant(eps0=math.log(3), p=0.75, q=0.25, eps=math.log(1.1), m=m, ones=k0, width=width, tau=t, quadratic=quadratic)) for t in taus]
            for j in range(width + 1):
                lam = 1 - Fraction(j, width)
                transport_0, transport_1 = j * (p - q), -(width - j) * (p - q)
                for s in range(-1, m + 3):
                    s_prime = s - transport_0
                    if quadratic:
                        mixture = lam * _lagrange(curves[k0], s_prime) + (1 - lam) * _lagrange(curves[k1], s - transport_1)
                    else:
                        mixture = lam * _two_point(curves[k0], s_prime) + (1 - lam) * _two_point(curves[k1], s - transport_1)
                    error = abs(curves[k0 + j][s] - mixture)
                    bound = min(math.exp(log_c - t * float(s_prime)) for t, log_c in table)
                    require(float(error) <= bound, f"block ({k0}, {k1}), j={j}, s={s}, quadratic={quadratic}: {float(error)} > {bound}")


@proof_check(ID, "transport, pointwise: |nu^(theta - i tau)| e^{-tau j (p-q)} <= the reference's bound (`nu_hat_bound`: damping x "
             "[(B^2/8) |N|^2/|Q|^2 + lattice term]) for every j of the blocks, both mixtures, theta in [0, pi], tau on a grid "
             "(n = 13 and 41, e^eps0 = 3, e^eps = 11/10; 40-digit transforms of the exact mixtures); the bound is within 2x of "
             "|nu^| somewhere (sharp: a wrong factor would show)")
def _transport_pointwise() -> None:
    from ...reference.exact.binary_rr_transport import nu_hat_bound

    thetas = [0.0, 0.01, 0.05, 0.1, 0.3, 0.7, 1.2, 2.0, 3.0, math.pi]
    worst = 0.0
    with mpmath.workdps(40):
        p = mpmath.mpf(3) / 4
        q = 1 - p
        for size, blocks, taus in ((13, [(0, 12), (2, 9), (5, 7), (3, 4)], [0.05, 0.2, 0.45]), (41, [(0, 40), (10, 14)], [0.02, 0.1, 0.3])):
            m = size - 1
            for k0, k1 in blocks:
                width = k1 - k0
                for quadratic in (False, True):
                    for tau in taus:
                        bounds = nu_hat_bound(eps0=math.log(3), p=0.75, q=0.25, eps=math.log(1.1), m=m, ones=k0, width=width, tau=tau, theta=np.array(thetas), quadratic=quadratic)
                        for j in range(width + 1):
                            lam = 1 - mpmath.mpf(j) / width
                            for theta, bound in zip(thetas, bounds, strict=True):
                                z = mpmath.mpf(theta) - 1j * mpmath.mpf(tau)
                                value = abs(_nu_hat(z, p, q, m, k0, width, j, lam, quadratic)) * mpmath.exp(-tau * j * (p - q))
                                require(float(value) <= float(bound), f"n={size} block ({k0}, {k1}) j={j} theta={theta} tau={tau}: {value} > {bound}")
                                worst = max(worst, float(value) / float(bound))
    require(worst >= 0.5, f"the pointwise bound is never within 2x of |nu^| ({worst})")


def _nu_hat(z, p, q, m: int, k0: int, width: int, j: int, lam, quadratic: bool):  # mpmath values (untyped)
    """Fourier transform at z of f_{k0+j} minus the mixture of the ends' shifted pmfs (two or three points each)."""
    big_p, big_q = q + p * mpmath.exp(1j * z), p + q * mpmath.exp(1j * z)

    def phi(k: int):
        return big_p**k * big_q ** (m - k)

    def shifted(x, weight, k: int):
        if quadratic:
            r0 = int(mpmath.nint(x))
            u = r0 - x
            lagrange = {-1: u * (u - 1) / 2, 0: 1 - u * u, 1: u * (u + 1) / 2}
            return weight * sum(lagrange[d] * mpmath.exp(1j * z * (r0 - d)) for d in lagrange) * phi(k)
        r0 = int(mpmath.floor(x))
        frac = x - r0
        return weight * ((1 - frac) * mpmath.exp(1j * z * r0) + frac * mpmath.exp(1j * z * (r0 + 1))) * phi(k)

    return phi(k0 + j) - shifted(j * (p - q), lam, k0) - shifted(-(width - j) * (p - q), 1 - lam, k0 + width)


def _two_point(curve: dict[int, Fraction], y: Fraction) -> Fraction:
    low = math.floor(y)
    frac = y - low
    return (1 - frac) * curve[low] + frac * curve[low + 1]


def _lagrange(curve: dict[int, Fraction], y: Fraction) -> Fraction:
    t0 = round(y)
    u = y - t0
    return curve[t0 - 1] * u * (u - 1) / 2 + curve[t0] * (1 - u * u) + curve[t0 + 1] * u * (u + 1) / 2
