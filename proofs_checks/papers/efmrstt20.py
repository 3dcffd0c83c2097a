"""Proof checks for EFMRSTT20 (ESA revisited): symbolic steps of the proofs and spec-vs-reference
agreement for the numeric inversions that have no closed form."""

from __future__ import annotations

import sympy as sp

from ..bridge import evaluate, reference_function
from ..framework import CheckFailed, assert_identity, assert_nonnegative, proof_check, require
from ...spec.papers import efmrstt20 as S
from ...spec.registry import get_statement

_e, _e1, _e2 = sp.symbols("e e1 e2", positive=True)  # multipliers e^eps >= 1 (substituted as 1 + u)
_u, _v = sp.symbols("u v", nonnegative=True)


@proof_check("EFMRSTT20.Alg5", "d x printed constant = 1/c_d (unbiased scale)")
def check_ldp_sgd_constant() -> None:
    d = sp.Symbol("d", integer=True, positive=True)
    printed = sp.sqrt(sp.pi) / 2 * sp.gamma((d - 1) / 2 + 1) / sp.gamma(d / 2 + 1)
    c_d = sp.gamma(d / 2) / (sp.sqrt(sp.pi) * sp.gamma((d + 1) / 2))
    require(sp.simplify(sp.gammasimp(d * printed * c_d)) == 1, "d * printed constant is not 1/c_d")
    # c_d = E|v_1| on the unit sphere: 1 (d = 1), 2/pi (d = 2), 1/2 (d = 3, v_1 uniform on [-1, 1]).
    require([sp.simplify(c_d.subs(d, j)) for j in (1, 2, 3)] == [1, 2 / sp.pi, sp.Rational(1, 2)], "c_d at d = 1, 2, 3 is not 1, 2/pi, 1/2")
    # The d = 3 value from the integral of |t| dt/2 over [-1, 1].
    t = sp.Symbol("t", real=True)
    require(sp.integrate(sp.Abs(t) / 2, (t, -1, 1)) == sp.Rational(1, 2), "integral of |t|/2 over [-1, 1] is not 1/2")


@proof_check("EFMRSTT20.Alg4", "keep/flip ratio is e^eps0 and (2p - 1) = (e-1)/(e+1)")
def check_ldp_sgd_client() -> None:
    p = _e / (1 + _e)
    assert_identity(p / (1 - p), _e, "p/(1-p)")
    assert_identity(2 * p - 1, (_e - 1) / (_e + 1), "2p - 1")


@proof_check("EFMRSTT20.CorA.2", "maximizer of the binary ratio gives (e1 e2 + 1)/(e1 + e2)")
def check_cor_a2_maximizer() -> None:
    alpha = _e2
    p0, p1 = _e1 / (1 + _e1), 1 / (1 + _e1)
    ratio = (1 + (alpha - 1) * p0) / (1 + (alpha - 1) * p1)
    assert_identity(ratio, (_e1 * _e2 + 1) / (_e1 + _e2), "binary RR ratio")


@proof_check("EFMRSTT20.CorA.2", "composed multiplier <= min(e1, e2) and >= 1")
def check_cor_a2_below_min() -> None:
    e1, e2 = 1 + _u, 1 + _v
    composed = (e1 * e2 + 1) / (e1 + e2)
    # e1 - composed = (e1^2 - 1)/(e1 + e2) >= 0, symmetric in the two.
    assert_identity(e1 - composed, (e1**2 - 1) / (e1 + e2), "e1 - composed")
    assert_nonnegative(sp.factor(e1 - composed), "e1 - composed")
    assert_nonnegative(sp.factor(e2 - composed), "e2 - composed")
    assert_nonnegative(sp.factor(composed - 1), "composed - 1")


@proof_check("EFMRSTT20.ThmIV.1", "Thm IV.1 = Cor A.2 at (eps_b, t eps_f)")
def check_thm_iv1_is_cor_a2() -> None:
    thm, cor = get_statement("EFMRSTT20.ThmIV.1"), get_statement("EFMRSTT20.CorA.2")
    if thm.value is None or cor.value is None:
        raise CheckFailed("EFMRSTT20.ThmIV.1 and CorA.2 need closed-form values")
    substituted = cor.value.subs({S.eps1: S.eps_b, S.eps2: S.t * S.eps_f}, simultaneous=True)
    require(sp.simplify(thm.value - substituted) == 0, "the theorem's value is not the substituted form")


@proof_check("EFMRSTT20.LemII.6", "lambda = 2n/(1+e^eps0) is RR's flip probability and the range condition")
def check_lambda_substitution() -> None:
    n, eps0, delta = S.n, S.eps0, S.delta
    lam = S.LAMBDA_OF_EPS0
    assert_identity(lam / (2 * n), 1 / (1 + sp.exp(eps0)), "flip probability lambda/(2n)")
    # lambda >= 14 log(4/delta)  <=>  e^eps0 <= 2n/(14 log(4/delta)) - 1: both sides of the equivalence at
    # the boundary e^eps0 = 2n/(14 log(4/delta)) - 1 give lambda = 14 log(4/delta).
    boundary = 2 * n / (14 * sp.log(4 / delta)) - 1
    assert_identity(lam.subs(sp.exp(eps0), boundary), 14 * sp.log(4 / delta), "lambda at the range boundary")
    # and lambda <= n for every eps0 >= 0: n - lambda = n (e - 1)/(e + 1) >= 0.
    assert_identity(n - lam, n * (sp.exp(eps0) - 1) / (sp.exp(eps0) + 1), "n - lambda")
    # The lambda form at lambda = 2n/(1+e^eps0) is the eps0 form.
    lam_value = get_statement("EFMRSTT20.LemII.6.lam").value
    if lam_value is None:
        raise CheckFailed("EFMRSTT20.LemII.6.lam needs a closed-form value")
    lam_form = lam_value.subs(S.lam, lam)
    require(sp.simplify(lam_form - get_statement("EFMRSTT20.LemII.6").value) == 0, "the lambda form is not LemII.6's value")


@proof_check("EFMRSTT20.ThmIII.1", "closed form >= Eq. (1): the proof's two inequalities")
def check_thm_iii1_chain() -> None:
    lam, l2 = sp.symbols("lam l2", positive=True)
    # Step 1: lambda >= 8 log(2/delta)  =>  lambda - sqrt(2 lambda log(2/delta)) >= lambda/2, i.e.
    # lambda/2 - sqrt(2 lambda l2) >= 0. Write lambda = 8 l2 (1 + w)^2 with w >= 0 (every lambda >= 8 l2):
    w = sp.Symbol("w", nonnegative=True)
    step1 = (lam / 2 - sp.sqrt(2 * lam * l2)).subs(lam, 8 * l2 * (1 + w) ** 2)
    assert_identity(step1, 4 * l2 * w * (1 + w), "lambda/2 - sqrt(2 lambda l2) at lambda = 8 l2 (1+w)^2")
    assert_nonnegative(sp.simplify(step1), "lambda/2 - sqrt(2 lambda log(2/delta))")
    # 14 log(4/delta) >= 14 log(2/delta) >= 8 log(2/delta): the range gives step 1's hypothesis.
    # Step 2: sqrt(32 L4/(lambda/2)) = sqrt(64 L4/lambda) and 64 (1+e)/(2n) <= 64 e/n for e >= 1.
    assert_nonnegative(sp.factor(64 * (1 + _u) / 1 - 64 * (2 + _u) / 2), "64 e - 64 (1+e)/2 at e = 1 + u")
    # Numeric: the closed form dominates Eq. (1) at points inside Thm III.1's hypotheses (60 digits).
    thm, lem = get_statement("EFMRSTT20.ThmIII.1"), get_statement("EFMRSTT20.LemII.6")
    for point in ({"eps0": 1, "n": 10**4, "delta": sp.Rational(1, 10**6)}, {"eps0": 3, "n": 10**6, "delta": sp.Rational(1, 10**9)}, {"eps0": 12, "n": 203950512, "delta": sp.Rational(1, 2 * 10**9)}):
        thm.check_hypotheses(point)
        lem.check_hypotheses(point)
        require(thm.evaluate_value(point, 60) >= lem.evaluate_value(point, 60), f"closed form below Eq. (1) at {point}")


@proof_check("EFMRSTT20.DefII.4.binary_rr", "((1+e)/2)^2 dominates e and (2e/(1+e))^2 (uniform R_0 optimal)")
def check_binary_rr_removal() -> None:
    e = 1 + _u
    assert_nonnegative(sp.factor(((1 + e) / 2) ** 2 - e), "((1+e)/2)^2 - e")
    assert_nonnegative(sp.factor((1 + e) / 2 - 2 * e / (1 + e)), "(1+e)/2 - 2e/(1+e)")


@proof_check("EFMRSTT20.Alg1.variance", "Var of the debiased bit is e/(e-1)^2")
def check_variance() -> None:
    p = _e / (1 + _e)
    assert_identity(((_e + 1) / (_e - 1)) ** 2 * p * (1 - p), _e / (_e - 1) ** 2, "c^2 p (1-p)")
    # Unbiased: E zeta = x for x = 1 (keep p) and x = 0 (report 1 w.p. 1 - p).
    assert_identity(((_e + 1) * p - 1) / (_e - 1), 1, "E zeta | x = 1")
    assert_identity(((_e + 1) * (1 - p) - 1) / (_e - 1), 0, "E zeta | x = 0")


@proof_check("EFMRSTT20.ThmV.1", "abort probability per crowd: Pr[Lap(2/eps) > (2/eps) log(2/delta)] = delta/4")
def check_abort_probability() -> None:
    x = sp.Symbol("x", real=True)
    eps, delta = sp.symbols("eps delta", positive=True)
    b = 2 / eps
    shift = b * sp.log(2 / delta)
    tail = sp.integrate(sp.exp(-x / b) / (2 * b), (x, shift, sp.oo))
    require(sp.simplify(tail - delta / 4) == 0, f"tail = {tail}")


@proof_check("EFMRSTT20.ThmV.2", "union-bound algebra: 2 log(2P/delta) - log(2/delta) = log(2 P^2/delta)")
def check_deletion_algebra() -> None:
    P, delta = sp.symbols("P delta", positive=True)
    require(sp.simplify(sp.expand_log(2 * sp.log(2 * P / delta) - sp.log(2 / delta) - sp.log(2 * P**2 / delta), force=True)) == 0, "2 log(2P/delta) - log(2/delta) != log(2 P^2/delta)")


def _check_inverse(statement_id: str, forward_id: str, output: str, target: str) -> None:
    statement, forward = get_statement(statement_id), get_statement(forward_id)
    for example in statement.examples:
        result = evaluate(statement, example)
        require(result.valid, f"{statement_id} refused {example}: {result.reason}")
        if result.value is None:  # a valid evaluation has a value
            raise CheckFailed(f"{statement_id} gave no value at {example}")
        point = {k: v for k, v in example.items() if k != target}
        point[output] = result.value
        value = forward.evaluate_value(point, 40)
        require(value <= example[target], f"{forward_id} at the returned {output} = {result.value} is {value} > {example[target]}")
        # Nearly tight: 1e-9 more of the output already exceeds the target (unless at the range end).
        point[output] = result.value * (1 + 1e-9)
        if not forward.failed_hypotheses(point, first_only=True):
            require(forward.evaluate_value(point, 40) > example[target] * (1 - 1e-6), f"{statement_id} not tight at {example}")
    for example in statement.invalid_examples:
        require(statement.failed_hypotheses(example, first_only=True), f"spec accepts invalid {example}")
        try:
            reference_function(statement)(**example)
        except ValueError:
            continue
        raise CheckFailed(f"reference accepted {example}")


@proof_check("EFMRSTT20.LemII.6.inverse", "spec forward at the reference's eps0 <= target, nearly tight")
def check_lemma_ii6_inverse() -> None:
    _check_inverse("EFMRSTT20.LemII.6.inverse", "EFMRSTT20.LemII.6", "eps0", "eps")


@proof_check("EFMRSTT20.ThmII.7.inverse", "spec forward at the reference's eps <= target, nearly tight")
def check_thm_ii7_inverse() -> None:
    _check_inverse("EFMRSTT20.ThmII.7.inverse", "EFMRSTT20.ThmII.7", "eps", "eps_total")
