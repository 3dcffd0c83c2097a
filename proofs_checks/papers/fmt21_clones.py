"""Proof checks for FMT21.clones_numeric: the cutoff identities of Algorithm B, the monotone likelihood
ratio of the per-count pair, and the spec's Sum against the reference at small n."""

from __future__ import annotations

import sympy as sp

from ..framework import assert_identity, proof_check, require
from ...reference.bounds.clones import clones_delta
from ...spec.papers.fmt21 import clones as spec
from ...spec.symbols import eps, eps0, n

ID = "FMT21.clones_numeric"
x = sp.Symbol("x", nonnegative=True)  # b_c(a-1)/b_c(a) = a/(c-a+1)


@proof_check(ID, "beta = 1/(e^eps_q + 1) (the cutoff of Algorithm B, simplified)")
def _beta_is_the_eps_q_cutoff() -> None:
    assert_identity(spec.beta_cutoff, 1 / (sp.exp(spec.eps_q) + 1), "beta_+ = 1/(e^eps_q+1)")


@proof_check(ID, "P_c(a)/Q_c(a) is non-increasing in a (derivative in x = b(a-1)/b(a) is (1-2 alpha0)/(...)^2 < 0)")
def _likelihood_ratio_is_monotone() -> None:
    a0 = spec.alpha0
    ratio = (a0 + (1 - a0) * x) / ((1 - a0) + a0 * x)
    assert_identity(sp.diff(ratio, x), (1 - 2 * a0) / ((1 - a0) + a0 * x) ** 2, "d ratio/dx")
    # 1 - 2 alpha0 = (1 - e^eps0)/(e^eps0 + 1): negative, with e^eps0 = 1 + u, u > 0.
    u = sp.Symbol("u", positive=True)
    require(sp.simplify((1 - 2 * a0).subs(sp.exp(eps0), 1 + u)).is_negative, "1 - 2 alpha0 < 0 needs eps0 > 0")


@proof_check(ID, "ratio > e^eps exactly when x < x*, and x < x* iff a < beta (c+1)")
def _cutoff_solves_the_ratio_equation() -> None:
    a0 = spec.alpha0
    x_star = sp.solve(sp.Eq((a0 + (1 - a0) * x), sp.exp(eps) * ((1 - a0) + a0 * x)), x)[0]
    assert_identity(x_star / (1 + x_star), spec.beta_cutoff, "x*/(1+x*) = beta")


@proof_check(ID, "Gamma_P(t) - e^eps Gamma_Q(t) = (e^eps0-e^eps)/(e^eps0+1) b(t) - (e^eps-1) F(t-1)")
def _cutoff_closed_form() -> None:
    a0 = spec.alpha0
    F_t, F_prev = sp.symbols("F_t F_prev")
    gamma_p = a0 * F_t + (1 - a0) * F_prev
    gamma_q = (1 - a0) * F_t + a0 * F_prev
    b_t = F_t - F_prev
    closed = (sp.exp(eps0) - sp.exp(eps)) / (sp.exp(eps0) + 1) * b_t - (sp.exp(eps) - 1) * F_prev
    assert_identity(gamma_p - sp.exp(eps) * gamma_q, closed, "cutoff form")


@proof_check(ID, "cutoff formula = hockey-stick definition for c = 0..6 (eps0 = 2, eps = 1/2; 30 digits)")
def _cutoff_matches_definition() -> None:
    point = {eps0: 2, eps: sp.Rational(1, 2)}
    for count in range(7):
        formula = sp.N(spec.per_count_divergence(sp.Integer(count)).subs(point).doit(), 30)
        brute = sp.N(spec.per_count_divergence_brute(sp.Integer(count)).subs(point).doit(), 30)
        require(abs(formula - brute) < sp.Float(10) ** -25, f"c={count}: {formula} vs {brute}")


@proof_check(ID, "spec Sum over c = reference certified delta at n = 6, 9 (eps0 = 1, eps = 3/10)")
def _spec_sum_matches_reference() -> None:
    for size in (6, 9):
        exact = sp.N(spec.DELTA_CLONES.subs({n: size, eps0: 1, eps: sp.Rational(3, 10)}).doit(), 30)
        got = clones_delta(eps0=1.0, n=size, eps=0.3)
        require(got.lower <= float(exact) * (1 + 1e-15) and float(exact) * (1 - 1e-15) <= got.upper, f"n={size}: {exact} not in [{got.lower}, {got.upper}]")
