"""Proof checks for exact.shuffled_binary_rr: the bit-flip symmetry of the pair, the monotone likelihood
ratio that makes a threshold set optimal, and the spec's sums against the reference at small n."""

from __future__ import annotations

import math

import sympy as sp

from shuffle_spec.proofs_checks.framework import assert_identity, proof_check, require
from shuffle_spec.reference.exact_binary_rr import binary_rr_pair_delta
from shuffle_spec.spec.exact import binary_rr as spec
from shuffle_spec.spec.symbols import eps, eps0, m, n

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
        forward = sum(max(a - e_eps * b, 0) for a, b in zip(p_values, q_values))
        backward = sum(max(b - e_eps * a, 0) for a, b in zip(p_values, q_values))
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
