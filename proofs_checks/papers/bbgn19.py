"""Proof checks for BBGN19: Lemma 5.1's Laplace and Gaussian closed forms by integration, Lemma 4.3's
minimum and inequality, Lemma 5.4/5.7 algebra, Lemma A.4's applications in Lemmas 5.5 and 5.6, Thm 3.1's
eps0 identity, Thm 4.2's balance, and spec-vs-reference agreement of the numeric amplification bounds
(the SymPy delta(eps) evaluated at the reference's eps)."""

from __future__ import annotations

from functools import partial

import sympy as sp

from ..bridge import evaluate
from ..framework import CheckFailed, assert_identity, proof_check, require
from ...spec.papers import bbgn19 as S
from ...spec.registry import get_statement
from ...spec.symbols import eps, eps0, k, n, sigma

_y = sp.Symbol("y", real=True)


@proof_check("BBGN19.Lem5.1.laplace", "gamma = 2 int_{-inf}^{1/2} (eps0/2) e^{-eps0 (1 - y)} dy = e^{-eps0/2}")
def laplace_blanket_integral() -> None:
    # For y <= 1/2 the inf over x in [0, 1] of e^{-eps0 |y - x|} is at x = 1; the other half is symmetric.
    value = 2 * sp.integrate(eps0 / 2 * sp.exp(-eps0 * (1 - _y)), (_y, -sp.oo, sp.Rational(1, 2)))
    assert_identity(value, S.LAPLACE_GAMMA, "Laplace TV similarity")


@proof_check("BBGN19.Lem5.1.gaussian", "gamma = 2 int_{-inf}^{1/2} N(y; 1, sigma^2) dy = erfc(1/(2 sqrt 2 sigma))")
def gaussian_blanket_integral() -> None:
    density = sp.exp(-((_y - 1) ** 2) / (2 * sigma**2)) / (sigma * sp.sqrt(2 * sp.pi))
    value = 2 * sp.integrate(density, (_y, -sp.oo, sp.Rational(1, 2)))
    assert_identity(sp.simplify(value.rewrite(sp.erfc)), S.LEM5_1_GAUSSIAN.value, "Gaussian TV similarity")


@proof_check("BBGN19.Lem5.1.krr", "sum_y min_x mu_x(y) = k / (e^eps0 + k - 1)")
def krr_column_minima() -> None:
    assert_identity(k * (1 / (sp.exp(eps0) + k - 1)), S.KRR_GAMMA, "k-RR column minima")


@proof_check("BBGN19.Lem4.3", "sum of odd squares and the closed-form minimum >= (k-1)(k-2)/(12k)")
def lemma_4_3_minimum() -> None:
    ell, L = sp.symbols("l L", integer=True, positive=True)
    assert_identity(sp.summation((2 * ell - 1) ** 2, (ell, 1, L)), L * (4 * L**2 - 1) / 3, "sum_{l<=L} (2l-1)^2")
    j = sp.Symbol("j", integer=True, positive=True)
    # Odd k = 2j+1, central point: two sides of j terms each.
    odd = 2 * (j * (4 * j**2 - 1) / 3) / (4 * (2 * j + 1) ** 2)
    assert_identity(odd, ((k - 1) * (k - 2) / (12 * k)).subs(k, 2 * j + 1), "odd k minimum")
    # Even k = 2j, point j: j - 1 terms on one side, j on the other.
    even = ((j - 1) * (4 * (j - 1) ** 2 - 1) / 3 + j * (4 * j**2 - 1) / 3) / (4 * (2 * j) ** 2)
    assert_identity(even, ((k - 1) * (k**2 - 2 * k + 3) / (12 * k**2)).subs(k, 2 * j), "even k minimum")
    gap = (k - 1) * (k**2 - 2 * k + 3) / (12 * k**2) - (k - 1) * (k - 2) / (12 * k)
    assert_identity(gap, (k - 1) / (4 * k**2), "even minimum exceeds the odd formula by (k-1)/(4k^2) >= 0")


@proof_check("BBGN19.Lem5.4", "range width = gamma (e^eps + 1)(e^eps0 - e^-eps0); generic Bennett c >= Lemma 5.4(3)")
def lemma_5_4_algebra() -> None:
    g = sp.Symbol("g", positive=True)
    assert_identity(S.generic_upper(g) - S.generic_lower(g), g * (sp.exp(eps) + 1) * (sp.exp(eps0) - sp.exp(-eps0)), "width")
    # gamma (A - 2 gamma B) <= 1 * (A - 2 e^-eps0 B) for gamma in [e^-eps0, 1] since A - 2 gamma B >= 0:
    # the difference is (1 - gamma)(A - 2 gamma B) + 2 (gamma - e^-eps0) B, both terms >= 0.
    A = sp.exp(eps0) * (sp.exp(2 * eps) + 1)
    B = sp.exp(eps - 2 * eps0)
    diff = S.GENERIC_BENNETT_C - S.generic_second_moment(g)
    assert_identity(diff, (1 - g) * (A - 2 * g * B) + 2 * (g - sp.exp(-eps0)) * B, "c decomposition")


@proof_check("BBGN19.Lem5.7", "k-RR: width (1-gamma) k (e^eps + 1) and E[L] = 1 - e^eps")
def lemma_5_7_algebra() -> None:
    assert_identity(S.KRR_UPPER - S.KRR_LOWER, (1 - S.KRR_GAMMA) * k * (sp.exp(eps) + 1), "width")
    g = S.KRR_GAMMA
    # L = gamma(1-e^eps) + k(1-gamma)([W=x] - e^eps [W=x']), W uniform on k values.
    mean = g * (1 - sp.exp(eps)) + k * (1 - g) * (1 - sp.exp(eps)) / k
    assert_identity(mean, 1 - sp.exp(eps), "E[L]")
    second = (k - 2) / k * (g * (1 - sp.exp(eps))) ** 2 + (S.KRR_UPPER**2 + S.KRR_LOWER**2) / k
    assert_identity(second, S.KRR_SECOND, "E[L^2]")


@proof_check("BBGN19.Lem5.5", "Lemma A.4 with f(t) = 2(t + ma)^2/(m b^2): f(0) = 2ma^2/b^2, f'(0) = 4a/b^2")
def lemma_5_5_from_a4() -> None:
    t, a, b, m = sp.Symbol("t", nonnegative=True), S.a_sym, S.b_sym, S.m_pos
    f = 2 * (t + m * a) ** 2 / (m * b**2)
    bound = sp.exp(-f.subs(t, 0)) / sp.diff(f, t).subs(t, 0)
    assert_identity(bound, S.LEM5_5.value, "Lemma A.4 applied")
    require(sp.simplify(sp.diff(f, t, 2)).is_nonnegative, "f' must be increasing")


@proof_check("BBGN19.Lem5.6", "Lemma A.4 with f(t) = (mc/b+^2) phi(b+(t+ma)/(mc)): f(0) = m alpha phi(beta), f'(0) = log(1+beta)/b+")
def lemma_5_6_from_a4() -> None:
    t, a, bp, c, m = sp.Symbol("t", nonnegative=True), S.a_sym, S.b_plus, S.c_sym, S.m_pos
    f = m * c / bp**2 * S._phi(bp * (t + m * a) / (m * c))
    beta = a * bp / c
    assert_identity(f.subs(t, 0), m * c / bp**2 * S._phi(beta), "f(0)")
    assert_identity(sp.diff(f, t).subs(t, 0), sp.log(1 + beta) / bp, "f'(0)")
    assert_identity(sp.exp(-f.subs(t, 0)) / sp.diff(f, t).subs(t, 0), S.LEM5_6.value, "Lemma A.4 applied (corrected form)")
    require(sp.simplify(sp.diff(f, t, 2)).is_positive, "f' must be increasing")


@proof_check("BBGN19v1.Thm3.1", "log(1 + k(1-gamma)/gamma) = log(k/gamma - k + 1) with k/gamma = min{...}")
def theorem_3_1_eps0_identity() -> None:
    g = sp.Symbol("g", positive=True)
    assert_identity(1 + k * (1 - g) / g, k / g - k + 1, "eps0 argument")
    d = sp.Symbol("d", positive=True)
    u, v = 14 * k * sp.log(2 / d) / ((n - 1) * eps**2), 27 * k / ((n - 1) * eps)
    # k / max{u, v} = min{k/u, k/v}, checked on each branch.
    assert_identity(k / u, (n - 1) * eps**2 / (14 * sp.log(2 / d)), "branch u")
    assert_identity(k / v, (n - 1) * eps / 27, "branch v")


@proof_check("BBGN19.Thm4.2", "n min{1/k^2, k/n} at k = n^{1/3} equals n^{1/3}")
def theorem_4_2_balance() -> None:
    value = S.THM4_2.conclusion[1]
    assert_identity(sp.simplify(value), n ** sp.Rational(1, 3), "balance")


@proof_check("BBGN19.Alg3", "E[z] = sum x_i: (E[sum y/k] - gamma n/2)/(1 - gamma) with E[y/k] = (1-gamma)x + gamma/2")
def debiasing() -> None:
    g, x = sp.symbols("g x", positive=True)
    assert_identity(((1 - g) * x + g / 2 - g / 2) / (1 - g), x, "per-user debiasing")
    # A uniform message on {0..k} has mean k/2, so E[y/k] = (1-g) E[xbar/k] + g/2.
    j = sp.Symbol("j", integer=True, nonnegative=True)
    assert_identity(sp.summation(j, (j, 0, k)) / (k + 1) / k, sp.Rational(1, 2), "uniform message mean")


# Spec-vs-reference for the numeric bounds: SymPy's delta(eps) at the reference's eps is <= delta, and
# (unless no amplification was provable) exceeds delta slightly below it.
_NUMERIC = {
    "BBGN19.Thm5.3": S.THM5_3_DELTA,
    "BBGN19.bennett_generic": S.BENNETT_GENERIC_DELTA,
    "BBGN19.hoeffding_krr": S.HOEFFDING_KRR_DELTA,
    "BBGN19.bennett_krr": S.BENNETT_KRR_DELTA,
    "BBGN19.hoeffding_laplace": S.HOEFFDING_LAPLACE_DELTA,
    "BBGN19.bennett_laplace": S.BENNETT_LAPLACE_DELTA,
}


def _numeric_agreement(statement_id: str, example: dict) -> None:
    statement = get_statement(statement_id)
    result = evaluate(statement, example)
    require(result.valid, result.reason)
    if result.value is None:  # a valid evaluation has a value
        raise CheckFailed(f"{statement_id} gave no value at {example}")
    subs = {s: sp.nsimplify(v) if isinstance(v, int) else sp.Float(v, 40) for s, v in statement.substitution(example).items()}
    expr = _NUMERIC[statement_id].subs(subs)
    target = sp.Float(example["delta"], 40)
    if result.reason:
        require(result.value == example["eps0"], "no-amplification answer must be eps0")
        return
    at = sp.N(expr.subs(eps, sp.Float(result.value, 40)), 40)
    require(at <= target, f"spec delta at the reference eps {result.value} is {at} > {target}")
    below = sp.N(expr.subs(eps, sp.Float(result.value * (1 - 1e-7), 40)), 40)
    require(below > target, f"spec delta at eps (1 - 1e-7) is {below} <= {target}: the reference is not tight")


for _id in _NUMERIC:
    for _i, _example in enumerate(get_statement(_id).examples):
        proof_check(_id, f"spec delta(eps) at reference eps, example {_i}")(partial(_numeric_agreement, _id, dict(_example)))
