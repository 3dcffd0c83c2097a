"""Proof checks for EFMRTT19: the algebra of Lemma 4, Thm 8's proof (composition bound -> v2 general
form -> refined form -> v1's constant 12), the tree counter's unbiasedness (Algs 1-2), Thm 5's
likelihood ratio and the Bernstein step of the explicit Thm 6 bound.

Inequalities on an interval are shown by the standard one-variable argument, each step checked by
SymPy: a function vanishing at the left end with a non-negative derivative is non-negative; a concave
function non-negative at both ends is non-negative in between.
"""

from __future__ import annotations

import sympy as sp

from ..framework import assert_identity, assert_nonnegative, proof_check, require
from ...spec.papers import efmrtt19 as S
from ...spec.symbols import delta as delta_pos
from ...spec.symbols import delta_prime, eps, eps0, k, n, q

x = sp.Symbol("x", nonnegative=True)
u = sp.Symbol("u", positive=True)  # e^eps >= 1, written u
a = S.a
LOG_INV_DELTA = sp.log(1 / delta_pos)
DIGITS = 50


W = sp.Symbol("w", nonnegative=True)


def _exp_as_one_plus_w(expr: sp.Expr, var: sp.Symbol) -> sp.Expr:
    """expr with e^var written 1 + w, w >= 0: valid since var >= 0 (SymPy cannot see e^var >= 1 itself)."""
    return sp.simplify(expr.subs(sp.exp(var), 1 + W))


def _assert_positive_number(expr: sp.Expr, what: str) -> None:
    value = sp.N(expr, DIGITS)
    require(value.is_comparable and value > 0, f"{what}: {sp.sstr(expr)} = {value} is not > 0")


def _assert_nonnegative_on(expr: sp.Expr, var: sp.Symbol, low: sp.Expr, high: sp.Expr, what: str) -> None:
    """expr(var) >= 0 on [low, high] for expr concave in var: both ends >= 0 and expr'' <= 0."""
    for end in (low, high):
        value = sp.N(expr.subs(var, end), DIGITS)
        require(value >= -sp.Float(10) ** (-(DIGITS - 5)), f"{what}: {sp.sstr(expr)} at {var} = {end} is {value}")
    second = sp.simplify(sp.diff(expr, var, 2))
    positive = sp.Symbol(str(var), positive=True)
    require(sp.simplify(-second.subs(var, positive)).is_nonnegative is True, f"{what}: not concave, second derivative {second}")


@proof_check("EFMRTT19.Lem4", "log(1 + x) <= x for x >= 0")
def log1p_below_identity() -> None:
    gap = x - sp.log(1 + x)
    require(gap.subs(x, 0) == 0, "x - log(1 + x) is not 0 at x = 0")
    assert_nonnegative(sp.diff(gap, x), "derivative of x - log(1+x)")


@proof_check("EFMRTT19.Lem4", "eps' = eps at q = 1, 0 at q = 0, non-decreasing in q")
def lemma4_endpoints() -> None:
    require(sp.simplify(S.LEM4_EPS.subs(q, 1) - eps) == 0, "Lemma 4's eps' at q = 1 is not eps")
    require(S.LEM4_EPS.subs(q, 0) == 0, "Lemma 4's eps' at q = 0 is not 0")
    assert_nonnegative(_exp_as_one_plus_w(sp.diff(S.LEM4_EPS, q), eps), "d eps'/dq")


@proof_check("EFMRTT19.Lem4", "two-sided closeness: the reverse direction holds with the same parameters")
def lemma4_reverse_direction() -> None:
    # mu >= (1 - q + q/u) mu0 - q delta/u, so mu0 <= e^{eps'} mu + q delta needs
    # (1 - q + q/u)(1 + q(u - 1)) >= 1 and u(1 - q) + q >= 1 (u = e^eps >= 1, q in [0, 1]).
    product_gap = (1 - q + q / u) * (1 + q * (u - 1)) - 1
    assert_identity(product_gap, q * (1 - q) * (u - 1) ** 2 / u, "(1-q+q/u)(1+q(u-1)) - 1")
    w = sp.Symbol("w", nonnegative=True)  # u - 1
    p_ = sp.Symbol("p", nonnegative=True)  # 1 - q
    assert_nonnegative(sp.expand(((1 + w) * p_ + (1 - p_)) - 1), "u(1-q) + q - 1 with u = 1 + w, q = 1 - p")


@proof_check("EFMRTT19.Thm8.v2", "per-step eps1: 2 Lemma-4 steps at q = e^{2 eps0}/n are at most eps1")
def per_step_eps1() -> None:
    step = S.LEM4_EPS.subs({q: sp.exp(2 * eps0) / n, eps: eps0})
    exact_eps1 = 2 * step
    assert_identity(exact_eps1, 2 * sp.log(1 + sp.exp(2 * eps0) * (sp.exp(eps0) - 1) / n), "2 Lem4(q = e^{2eps0}/n)")
    # log(1 + y) <= y at y = e^{2 eps0}(e^eps0 - 1)/n >= 0, times 2, is eps1.
    y = sp.exp(2 * eps0) * (sp.exp(eps0) - 1) / n
    assert_identity(2 * y, S.EPS1, "2 y = eps1")
    assert_nonnegative(_exp_as_one_plus_w(sp.exp(eps0) - 1, eps0), "e^eps0 - 1")
    # q_1 = 1/n is also covered: 1/n <= e^{2 eps0}/n.
    assert_nonnegative(_exp_as_one_plus_w((sp.exp(eps0) ** 2 - 1) / n, eps0), "e^{2eps0}/n - 1/n")


@proof_check("EFMRTT19.Thm8.v2", "Thm 2 with eps1, n steps, delta' = delta is the v2 general bound")
def composition_gives_v2() -> None:
    composed = S.THM2_EPS.subs({eps: S.EPS1, k: n, delta_prime: delta_pos})
    assert_identity(composed, S.V2_VALUE, "advanced composition of n eps1-steps")


@proof_check("EFMRTT19.Thm7.v2_refined", "first term: eps1 sqrt(2n log(1/delta)) = e^{2eps0}(e^eps0-1) sqrt(8 log(1/delta)/n)")
def refined_first_term() -> None:
    lhs = S.EPS1 * sp.sqrt(2 * n * LOG_INV_DELTA)
    rhs = sp.exp(2 * eps0) * (sp.exp(eps0) - 1) * sp.sqrt(8 * LOG_INV_DELTA / n)
    assert_identity(sp.powsimp(lhs**2), sp.powsimp(rhs**2), "squares of the first terms")
    assert_nonnegative(_exp_as_one_plus_w(sp.exp(eps0) - 1, eps0), "both sides are non-negative, so equal squares give equal terms")


@proof_check("EFMRTT19.Thm7.v2_refined", "second term: n eps1 (3/2) eps1 = 6 e^{4eps0}(e^eps0-1)^2/n")
def refined_second_term() -> None:
    assert_identity(n * S.EPS1 * sp.Rational(3, 2) * S.EPS1, 6 * sp.exp(4 * eps0) * (sp.exp(eps0) - 1) ** 2 / n, "second term")


@proof_check("EFMRTT19.Thm7.v2_refined", "e^x - 1 <= (3/2) x on [0, 1/2]")
def expm1_below_three_halves() -> None:
    _assert_nonnegative_on(sp.Rational(3, 2) * x - (sp.exp(x) - 1), x, 0, sp.Rational(1, 2), "(3/2)x - (e^x - 1)")


@proof_check("EFMRTT19.Thm7.v2_refined", "eps0 <= log(n/4)/3 implies eps1 <= 1/2")
def refined_region_eps1() -> None:
    # eps1 <= 2 e^{3 eps0}/n (drop the -1), increasing in eps0, equal to 1/2 at eps0 = log(n/4)/3.
    assert_nonnegative(2 * sp.exp(3 * eps0) / n - S.EPS1, "2e^{3eps0}/n - eps1")
    assert_nonnegative(sp.diff(2 * sp.exp(3 * eps0) / n, eps0), "d/deps0 of 2e^{3eps0}/n")
    at_edge = (2 * sp.exp(3 * eps0) / n).subs(eps0, sp.log(n / 4) / 3)
    require(sp.simplify(at_edge - sp.Rational(1, 2)) == 0, lambda: f"2e^(3eps0)/n at the edge is {sp.simplify(at_edge)}")


@proof_check("EFMRTT19.Thm8", "v1 constant: first term <= 4 sqrt(2) e (sqrt(e)-1) eps0 sqrt(log(1/delta)/n), ~9.975")
def v1_first_term() -> None:
    # e^{2 eps0} <= e and e^eps0 - 1 <= 2(sqrt(e) - 1) eps0 for eps0 in [0, 1/2] (chord of a convex function).
    _assert_nonnegative_on(2 * (sp.sqrt(sp.E) - 1) * x - (sp.exp(x) - 1), x, 0, sp.Rational(1, 2), "chord of e^x - 1")
    c1 = sp.E * 2 * (sp.sqrt(sp.E) - 1) * sp.sqrt(8)
    assert_identity(c1, 4 * sp.sqrt(2) * sp.E * (sp.sqrt(sp.E) - 1), "C1")
    _assert_positive_number(10 - c1, "C1 < 10")


@proof_check("EFMRTT19.Thm8", "v1 constant: second term <= 0.74 eps0 sqrt(log(1/delta)/n), total < 12")
def v1_second_term_and_total() -> None:
    # eps1 <= 2 e (2 (sqrt(e)-1) eps0)/n <= 2e(sqrt(e)-1)/1000 <= 1, where e^x - 1 <= (e-1) x <= 2x.
    eps1_max = 2 * sp.E * 2 * (sp.sqrt(sp.E) - 1) * sp.Rational(1, 2) / 1000
    _assert_positive_number(1 - eps1_max, "eps1 <= 1 on v1's region")
    _assert_nonnegative_on(2 * x - (sp.exp(x) - 1), x, 0, 1, "e^x - 1 <= 2x on [0, 1]")
    # n eps1 (e^eps1 - 1) <= 2 n eps1^2 <= 32 e^2 (sqrt(e)-1)^2 eps0^2 / n; in units of
    # eps0 sqrt(log(1/delta)/n) this is 32 e^2 (sqrt(e)-1)^2 eps0 / sqrt(n log(1/delta)), largest at
    # eps0 = 1/2, n = 1000, delta = 1/100.
    e0, nn, d = sp.symbols("e0 nn d", positive=True)
    eps1_bound = 2 * sp.E * 2 * (sp.sqrt(sp.E) - 1) * e0 / nn
    second_units = sp.simplify(2 * nn * eps1_bound**2 / (e0 * sp.sqrt(sp.log(1 / d) / nn)))
    expected = 32 * sp.E**2 * (sp.sqrt(sp.E) - 1) ** 2 * e0 / sp.sqrt(nn * sp.log(1 / d))
    assert_identity(second_units, expected, "second term in units of eps0 sqrt(log(1/delta)/n)")
    c2 = expected.subs({e0: sp.Rational(1, 2), nn: 1000, d: sp.Rational(1, 100)})
    c1 = 4 * sp.sqrt(2) * sp.E * (sp.sqrt(sp.E) - 1)
    _assert_positive_number(12 - c1 - c2, "C1 + C2 < 12")


@proof_check("EFMRTT19.Alg1", "randomized response mean: E[b | v] = v (e^a - 1)/(e^a + 1)")
def rr_mean() -> None:
    v = S.v
    assert_identity(S.RR_KEEP * v + (1 - S.RR_KEEP) * (-v), v * (sp.exp(a) - 1) / (sp.exp(a) + 1), "E[b | v]")


@proof_check("EFMRTT19.Alg2", "unbiasedness: c_a k L * (1/k)(1/L)(e^a - 1)/(e^a + 1) = 1")
def server_scale_unbiased() -> None:
    per_change = (1 / (k * S.L)) * (sp.exp(a) - 1) / (sp.exp(a) + 1)
    assert_identity(S.C_A * k * S.L * per_change, sp.Integer(1), "scale times expected contribution")


@proof_check("EFMRTT19.Thm5", "two changed nodes multiply the ratio by at most 2e^a/(1+e^a) * (1+e^a)/2 = e^a <= e^eps")
def thm5_ratio() -> None:
    keep, flip, half = S.RR_KEEP, 1 - S.RR_KEEP, sp.Rational(1, 2)
    assert_identity((keep / half) * (half / flip), sp.exp(a), "product of the two node ratios")
    for name, ratio in (("keep/half", keep / half), ("half/flip", half / flip), ("keep/flip", keep / flip)):
        assert_nonnegative(_exp_as_one_plus_w(sp.exp(a) - ratio, a), f"e^a - {name}")
    # With a = eps/2: e^eps - e^a = e^{2a} - e^a = (1 + w)^2 - (1 + w) >= 0.
    assert_nonnegative(_exp_as_one_plus_w(sp.exp(a) ** 2 - sp.exp(a), a), "e^eps - e^{eps/2} (a = eps/2)")
    require(S.ALG1.hypotheses[-1] == sp.Eq(a, S.eps_ldp / 2), "Alg. 1's a = eps/2 is what this check assumes")


@proof_check("EFMRTT19.Thm6.explicit", "Bernstein: s = 2l/3 + sqrt(4l^2/9 + 2Vl) solves s^2 = 2l(V + 2s/3), s <= sqrt(2Vl) + 4l/3")
def bernstein_step() -> None:
    ell, var = sp.symbols("ell V", positive=True)
    s = sp.Rational(2, 3) * ell + sp.sqrt(sp.Rational(4, 9) * ell**2 + 2 * var * ell)
    assert_identity(s**2, 2 * ell * (var + sp.Rational(2, 3) * s), "s solves the Bernstein equation")
    # sqrt(A + B) <= sqrt(A) + sqrt(B): square both sides.
    A, B = sp.Rational(4, 9) * ell**2, 2 * var * ell
    assert_nonnegative(sp.expand((sp.sqrt(A) + sp.sqrt(B)) ** 2 - (A + B)), "(sqrt A + sqrt B)^2 - (A + B)")


@proof_check("EFMRTT19.Thm6.explicit", "scaling: c k L (sqrt(2 n (|C|/L) l) + 4l/3) = k c (sqrt(2 n L |C| l) + 4 L l/3)")
def thm6_scaling() -> None:
    c, ell, size = sp.symbols("c ell C", positive=True)
    L = S.L
    lhs = c * k * L * (sp.sqrt(2 * n * size / L * ell) + sp.Rational(4, 3) * ell)
    rhs = k * c * (sp.sqrt(2 * n * L * size * ell) + sp.Rational(4, 3) * L * ell)
    assert_identity(sp.expand(lhs - rhs).rewrite(sp.sqrt), sp.Integer(0), "scaled Bernstein bound")
