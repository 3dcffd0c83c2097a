"""Proof checks for the exact blanket bound and the k-RR pair lower bounds (issue 15): the rewriting of
Lemma 5.3 as a sum over N with Pr[Bin(n-1, gamma) = N-1]/N, the k-RR amplification variable as a function
of the blanket counts, the multinomial identity behind the pair formula, the coefficient orders that make
the b-blocking monotone, and the spec's finite sums against the reference at small n."""

from __future__ import annotations

import sympy as sp

from shuffle_spec.proofs_checks.framework import assert_identity, assert_nonnegative, proof_check, require
from shuffle_spec.reference.bounds.blanket_exact import exact_blanket_krr_delta
from shuffle_spec.reference.lower_bounds import krr_pair_delta
from shuffle_spec.spec import blanket_exact as spec
from shuffle_spec.spec.symbols import eps, eps0, k, n

EXACT = "BBGN19.Lem5.3.exact_krr"
THIRD = "exact.krr_pair_third"
X0 = "exact.krr_pair_x0"

N_ = sp.Symbol("N", integer=True, positive=True)
g = sp.Symbol("g", positive=True)
a, b, r = sp.symbols("a b r", integer=True, nonnegative=True)
h0, h1 = sp.symbols("h0 h1", integer=True, positive=True)
p0, p1, pr = sp.symbols("pi0 pi1 pir", positive=True)


@proof_check(EXACT, "C(n,N) g^N (1-g)^(n-N) / (g n) = C(n-1,N-1) g^(N-1) (1-g)^(n-N) / N")
def _binomial_rewrite() -> None:
    lhs = sp.factorial(n) / (sp.factorial(N_) * sp.factorial(n - N_)) * g**N_ * (1 - g) ** (n - N_) / (g * n)
    rhs = sp.factorial(n - 1) / (sp.factorial(N_ - 1) * sp.factorial(n - N_)) * g ** (N_ - 1) * (1 - g) ** (n - N_) / N_
    require(sp.simplify(sp.combsimp(lhs / rhs)) == 1, "Lemma 5.3's weight rewritten")


@proof_check(EXACT, "k-RR: sum of L over the blanket counts = (k/D)((e0-e) a - (e e0-1) b - (e-1) R), and k/D = gamma")
def _krr_sum_of_l() -> None:
    e0, e = sp.exp(eps0), sp.exp(eps)
    d = e0 + k - 1
    mu = {"x": e0 / d, "x2": 1 / d, "other": 1 / d}  # mu_x at W = x, x', other
    mu2 = {"x": 1 / d, "x2": e0 / d, "other": 1 / d}
    value = {w: k * (mu[w] - e * mu2[w]) for w in mu}  # L = (mu_x - e mu_x')/omega, omega = 1/k
    total = a * value["x"] + b * value["x2"] + r * value["other"]
    assert_identity(total, k / d * ((e0 - e) * a - (e * e0 - 1) * b - (e - 1) * r), "sum of L")
    # The form of the issue: (e0-1)(a - e b) - (e-1) N with N = a + b + r.
    assert_identity((e0 - 1) * (a - e * b) - (e - 1) * (a + b + r), (e0 - e) * a - (e * e0 - 1) * b - (e - 1) * r, "(e0-1)(a-eb)-(e-1)N")
    assert_identity(k / d, spec.GAMMA, "k/D = gamma")


@proof_check(THIRD, "Mult(n-1; h0-1, h1, R) pi0^(h0-1) pi1^h1 pir^R = Mult(n; h0, h1, R) pi^h h0/(n pi0)")
def _multinomial_shift() -> None:
    rest = n - h0 - h1
    shifted = sp.factorial(n - 1) / (sp.factorial(h0 - 1) * sp.factorial(h1) * sp.factorial(rest)) * p0 ** (h0 - 1) * p1**h1 * pr**rest
    full = sp.factorial(n) / (sp.factorial(h0) * sp.factorial(h1) * sp.factorial(rest)) * p0**h0 * p1**h1 * pr**rest
    require(sp.simplify(sp.combsimp(shifted / (full * h0 / (n * p0)))) == 1, "multinomial shift")


def _order(c1: sp.Expr, c2: sp.Expr, factored: sp.Expr, what: str) -> None:
    """c2 - c1 equals `factored` (a form SymPy can sign) and that is >= 0."""
    assert_identity(c2 - c1, factored, what)
    assert_nonnegative(factored, what)


@proof_check(EXACT, "blocking in b is monotone: c1 = -(e e0-1) <= c2 = -(e-1) <= 0 < c0 = e0-e for eps < eps0")
def _order_blanket() -> None:
    e0, e = sp.exp(eps0), sp.exp(eps)
    _order(-(e * e0 - 1), -(e - 1), e * (e0 - 1), "c2 - c1 = e(e0 - 1)")
    assert_nonnegative(e - 1, "e - 1")


@proof_check(THIRD, "blocking in b is monotone: 1 - e e0 <= (1-e)(k-2)/(e0+k-3)")
def _order_third() -> None:
    e0, e = sp.exp(eps0), sp.exp(eps)
    kk = sp.Symbol("kk", nonnegative=True)  # k - 3 >= 0
    tau = (kk + 1) / (e0 + kk)
    # c2 - c1 = e (e0 - 1) + (e - 1)(1 - tau), 1 - tau = (e0 - 1)/(e0 + kk): both parts >= 0.
    assert_identity((1 - e) * tau - (1 - e * e0), e * (e0 - 1) + (e - 1) * (e0 - 1) / (e0 + kk), "c2 - c1 (third)")
    assert_nonnegative(e * (e0 - 1), "e (e0 - 1)")
    assert_nonnegative((e - 1) * (e0 - 1) / (e0 + kk), "(e - 1)(1 - tau)")


@proof_check(X0, "blocking in b is monotone in both directions: 1 - e e0 <= 1 - e and 1/e0 - e <= 1 - e")
def _order_x0() -> None:
    e0, e = sp.exp(eps0), sp.exp(eps)
    _order(1 - e * e0, 1 - e, e * (e0 - 1), "forward")
    _order(1 / e0 - e, 1 - e, (e0 - 1) / e0, "backward")


def _expand(expr: sp.Basic) -> sp.Basic:
    """Nested finite sums written out term by term (outer limits substituted before inner ones)."""
    if isinstance(expr, sp.Sum):
        (var, low, high), inner = expr.limits[-1], expr.limits[:-1]  # the last limit is the outermost
        body = sp.Sum(expr.function, *inner) if inner else expr.function
        return sp.Add(*[_expand(body.subs(var, i)) for i in range(int(low), int(high) + 1)])
    if expr.args:
        return expr.func(*[_expand(arg) for arg in expr.args])
    return expr


def _spec_value(expr: sp.Expr, point: dict) -> float:
    return float(sp.N(_expand(expr.subs(point)), 30))


@proof_check(EXACT, "spec sum = reference interval at n = 5, k = 3, eps0 = 1, eps = 0.2 and n = 4, k = 4, eps0 = 2, eps = 0.5")
def _spec_vs_reference_blanket() -> None:
    for size, kk, e0v, ev in ((5, 3, 1.0, 0.2), (4, 4, 2.0, 0.5)):
        value = _spec_value(spec.blanket_krr_delta(), {n: size, k: kk, eps0: sp.Float(e0v, 30), eps: sp.Float(ev, 30)})
        got = exact_blanket_krr_delta(eps0=e0v, n=size, k=kk, eps=ev)
        require(got.lower * (1 - 1e-12) <= value <= got.upper * (1 + 1e-12), f"spec {value} outside {got}")


@proof_check(THIRD, "spec sum = reference interval at n = 5, k = 3, eps0 = 1, eps = 0.2")
def _spec_vs_reference_third() -> None:
    value = _spec_value(spec.pair_third_delta(), {n: 5, k: 3, eps0: sp.Float(1, 30), eps: sp.Float(0.2, 30)})
    got = krr_pair_delta(eps0=1.0, n=5, k=3, eps=0.2, pair="third")
    require(got.lower * (1 - 1e-12) <= value <= got.upper * (1 + 1e-12), f"spec {value} outside {got}")


@proof_check(X0, "spec sum = reference interval at n = 5, k = 3 and k = 2, eps0 = 1, eps = 0.2")
def _spec_vs_reference_x0() -> None:
    for kk in (3, 2):
        point = {n: 5, k: kk, eps0: sp.Float(1, 30), eps: sp.Float(0.2, 30)}
        value = max(_spec_value(direction, point) for direction in spec.pair_x0_delta())
        got = krr_pair_delta(eps0=1.0, n=5, k=kk, eps=0.2, pair="x0")
        require(got.lower * (1 - 1e-12) <= value <= got.upper * (1 + 1e-12), f"spec {value} outside {got} (k = {kk})")
