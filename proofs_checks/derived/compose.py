"""Proof checks for the composition of shuffled rounds (compose.clones, compose.stronger_clones,
compose.exact_binary_rr; shuffle_spec.reference.composition.shuffled_rounds): the facts the certified PLD composition relies on.

- the hockey-stick divergence is the expectation of max(0, 1 - e^{eps - L}) under P (so delta is a
  function of the loss distribution only), checked exactly on the clone pair and the binary-RR pair;
- that integrand is non-decreasing in the loss (rounding losses up can only increase delta);
- the clone pair's loss has the closed form the reference evaluates, and the pair is symmetric
  (P_c(a) = Q_c(c+1-a)), so one direction of the loss suffices;
- the FFT error algebra: z^T - w^T = (z - w) sum_i z^i w^(T-1-i) (so |z^T - w^T| <= T R^(T-1) |z - w|), and the
  unitary scaling of the DFT (||F^-1 v||_2 = ||v||_2 / sqrt(N)) used to carry 2-norm errors through;
- the reference's grid losses bracket the spec's loss at small instances;
- the tilted composition at small delta (reference/numerics/pld.py point 5): the tilt identity T5.1 (a product of
  tilted masses is the tilted product, and g(s) c(s) = e^{Lambda - lam eps} G(s - eps) c~(s)), the trimmed-entry
  bound T5.3 ((k + d)^T - k^T <= T d (k + d)^(T-1)) and the weight bounds T5.4 (G's maximum 1/(1 + lam)
  (lam/(1 + lam))^lam <= 1/(1 + lam), G(u) <= e^{-lam u}).
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from ..framework import assert_identity, assert_nonnegative, proof_check, require
from ...reference.composition import shuffled_rounds as pld
from ...spec.derived import compose as spec
from ...spec.derived.exact.binary_rr import pair_pmfs as binary_rr_pmfs
from ...spec.papers.fmt21.clones import a, c, pair_pmfs
from ...spec.symbols import eps, eps0, m, n

CLONES = "compose.clones"
EXACT = "compose.exact_binary_rr"
# e^eps0 = 3 and e^eps = 3/2: every probability is rational, so the exact sums are fast.
EPS0_VALUE = sp.log(3)
EPS_VALUE = sp.log(sp.Rational(3, 2))


def _clone_pmfs(count: int) -> tuple[list[sp.Expr], list[sp.Expr]]:
    p, q = pair_pmfs(count, a)
    sub = {eps0: EPS0_VALUE}
    return [p.subs(a, x).subs(sub) for x in range(count + 2)], [q.subs(a, x).subs(sub) for x in range(count + 2)]


def _hockey_both_ways(p: list[sp.Expr], q: list[sp.Expr]) -> tuple[sp.Expr, sp.Expr]:
    """(sum max(P - e^eps Q, 0), E_P max(0, 1 - e^{eps - L})) at eps = EPS_VALUE, exactly."""
    e = sp.exp(EPS_VALUE)
    require(e.is_Rational, "e is rational")
    direct = sum(sp.Max(pi - e * qi, 0) for pi, qi in zip(p, q, strict=True))
    via_loss = sum(pi * spec.hockey_stick_from_loss(sp.log(pi / qi), EPS_VALUE) for pi, qi in zip(p, q, strict=True) if pi != 0)
    return direct, via_loss


@proof_check(CLONES, "D_{e^eps}(P_c||Q_c) = E_P[max(0, 1 - e^{eps - L})] for c = 0..5 (e^eps0 = 3, e^eps = 3/2)")
def _divergence_is_a_loss_expectation() -> None:
    for count in range(6):
        p, q = _clone_pmfs(count)
        direct, via_loss = _hockey_both_ways(p, q)
        require(abs(sp.N(direct - via_loss, 40)) < sp.Float(1e-35), f"c={count}: {sp.N(direct)} vs {sp.N(via_loss)}")


@proof_check(EXACT, "D_{e^eps}(P_m||Q_m) = E_P[max(0, 1 - e^{eps - L})] for n = 3, m = 0..2, both directions (e^eps0 = 3)")
def _binary_rr_divergence_is_a_loss_expectation() -> None:
    s = sp.Symbol("s", integer=True)
    for ones in range(3):
        pm, qm = binary_rr_pmfs(ones, s)
        sub = {n: 3, eps0: EPS0_VALUE}
        p = [sp.nsimplify(pm.subs(sub).subs(s, value).doit()) for value in range(4)]
        q = [sp.nsimplify(qm.subs(sub).subs(s, value).doit()) for value in range(4)]
        for first, second in ((p, q), (q, p)):
            direct, via_loss = _hockey_both_ways(first, second)
            require(abs(sp.N(direct - via_loss, 40)) < sp.Float(1e-35), f"m={ones}: {sp.N(direct)} vs {sp.N(via_loss)}")


@proof_check(CLONES, "max(0, 1 - e^{eps - s}) is non-decreasing in the loss s (pessimistic rounding is safe)")
def _integrand_is_monotone() -> None:
    s = spec.s_loss
    inner = 1 - sp.exp(eps - s)
    derivative = sp.diff(inner, s)
    assert_identity(derivative, sp.exp(eps - s), "d/ds (1 - e^{eps - s})")
    require(derivative.is_positive, "e^{eps - s} > 0")


@proof_check(CLONES, "clone loss log(P_c(a)/Q_c(a)) = closed form, and P_c(a) = Q_c(c+1-a) (symmetric pair), c = 0..6, e^eps0 in {3, 5}")
def _clone_loss_closed_form_and_symmetry() -> None:
    for e0 in (3, 5):
        sub = {eps0: sp.log(e0)}
        for count in range(7):
            p, q = pair_pmfs(count, a)
            for x in range(count + 2):
                ratio = sp.nsimplify((p / q).subs(a, x).subs(sub))
                closed = sp.nsimplify(sp.exp(spec.clone_loss_closed_form(count, x)).subs(sub))
                require(ratio == closed, f"P_c/Q_c at c={count}, a={x}: {ratio} != {closed}")
                require(sp.nsimplify(p.subs(a, x).subs(sub)) == sp.nsimplify(q.subs(a, count + 1 - x).subs(sub)), f"symmetry at c={count}, a={x}")


@proof_check(CLONES, "z^T - w^T = (z - w) sum_{i<T} z^i w^(T-1-i) (T = 1..6): |z^T - w^T| <= T R^(T-1) |z - w|")
def _power_difference() -> None:
    z, w = sp.symbols("z w")
    for power in range(1, 7):
        assert_identity(z**power - w**power, (z - w) * sum(z**i * w ** (power - 1 - i) for i in range(power)), f"T={power}")


@proof_check(CLONES, "DFT scaling: F^* F = N I for N = 2, 4 (so ||F^-1 v||_2 = ||v||_2 / sqrt(N))")
def _dft_scaling() -> None:
    for size in (2, 4):
        omega = sp.exp(-2 * sp.pi * sp.I / size)
        f = sp.Matrix(size, size, lambda j, k, root=omega: root ** (j * k))
        gram = sp.simplify(f.H * f)
        require(gram == size * sp.eye(size), f"N={size}: F^* F != N I")


@proof_check(CLONES, "reference grid losses bracket the spec loss (c = 0..8, e^eps0 = 3)")
def _reference_losses_bracket_spec() -> None:
    for count in range(9):
        x = np.arange(0, count + 2, dtype=float)
        lo, hi = pld._clone_losses(x, count, 3.0)
        for index, value in enumerate(range(count + 2)):
            # The reference's first coordinate is the mirror a -> c+1-a of the spec's (symmetric pair).
            exact = sp.N(spec.clone_loss_closed_form(count, count + 1 - value).subs(eps0, EPS0_VALUE), 30)
            require(lo[index] <= float(exact) <= hi[index], f"c={count}, x={value}: {exact} not in [{lo[index]}, {hi[index]}]")


@proof_check(CLONES, "tilt identity (pld point 5, T5.1): tilted masses multiply to the tilted composite, and g(s) c(s) = e^{Lambda - lam eps} G(s - eps) c~(s)")
def _tilt_identity() -> None:
    lam, s, eps_, big_l1, big_l2 = sp.symbols("lam s epsilon L_1 L_2", real=True)
    m1, m2, x1, x2 = sp.symbols("m_1 m_2 x_1 x_2", positive=True)
    # Two factors (rounds) at losses x1, x2: the product of their tilted masses is the composite's mass tilted at
    # x1 + x2 with scale L_1 + L_2 (so T-fold products tilt by the sum, Lambda = sum_r T_r L_r).
    tilted = (m1 * sp.exp(lam * x1 - big_l1)) * (m2 * sp.exp(lam * x2 - big_l2))
    assert_identity(sp.expand(tilted), sp.expand(m1 * m2 * sp.exp(lam * (x1 + x2) - (big_l1 + big_l2))), "product of tilted masses")
    # c(s) = e^{Lambda - lam s} c~(s) and g(s) = 1 - e^{eps - s} for s > eps: g c = e^{Lambda - lam eps} G(s - eps) c~.
    c_tilde = sp.Symbol("c_tilde", positive=True)
    big_lambda = big_l1 + big_l2
    lhs = (1 - sp.exp(eps_ - s)) * sp.exp(big_lambda - lam * s) * c_tilde
    u = s - eps_
    rhs = sp.exp(big_lambda - lam * eps_) * (1 - sp.exp(-u)) * sp.exp(-lam * u) * c_tilde
    assert_identity(sp.expand(sp.powsimp(lhs)), sp.expand(sp.powsimp(rhs)), "g(s) c(s) = e^{Lambda - lam eps} G(s - eps) c~(s)")


@proof_check(CLONES, "trimmed tilted entries (pld point 5, T5.3): (k + d)^T - k^T <= T d (k + d)^(T-1) for k, d >= 0, T = 1..6")
def _trimmed_entry_bound() -> None:
    k, d = sp.symbols("k d", nonnegative=True)
    for power in range(1, 7):
        gap = sp.expand(power * d * (k + d) ** (power - 1) - ((k + d) ** power - k**power))
        # A polynomial in k, d >= 0 with non-negative coefficients is non-negative.
        coefficients = sp.Poly(gap, k, d).coeffs() if gap != 0 else []
        require(all(coefficient >= 0 for coefficient in coefficients), f"T={power}: {gap}")


@proof_check(CLONES, "tilted weight (pld point 5, T5.4): G(u) = (1 - e^{-u}) e^{-lam u} has G' = 0 at e^{-u} = lam/(1 + lam), max 1/(1 + lam) (lam/(1 + lam))^lam <= 1/(1 + lam), and G(u) <= e^{-lam u}")
def _tilted_weight_bounds() -> None:
    lam = sp.Symbol("lam", positive=True)
    u = sp.Symbol("u", nonnegative=True)
    weight = (1 - sp.exp(-u)) * sp.exp(-lam * u)
    derivative = sp.diff(weight, u)
    # G' = e^{-lam u} (e^{-u} (1 + lam) - lam): positive before the stationary point, negative after (a maximum).
    assert_identity(derivative, sp.exp(-lam * u) * (sp.exp(-u) * (1 + lam) - lam), "G'(u)")
    at = sp.log((1 + lam) / lam)  # e^{-u*} = lam / (1 + lam)
    assert_identity(sp.simplify(derivative.subs(u, at)), sp.Integer(0), "G'(u*) = 0")
    peak = sp.simplify(weight.subs(u, at))
    assert_identity(sp.simplify(peak * (1 + lam) / (lam / (1 + lam)) ** lam), sp.Integer(1), "G(u*) = 1/(1 + lam) (lam/(1 + lam))^lam")
    # (lam/(1 + lam))^lam <= 1 for lam > 0, as 0 < lam/(1 + lam) <= 1.
    assert_nonnegative(1 - lam / (1 + lam), "1 - lam/(1 + lam)")
    assert_nonnegative(sp.exp(-lam * u) - weight, "e^{-lam u} - G(u) = e^{-u} e^{-lam u}")
    for value in (sp.Rational(1, 10), 1, 7, 100):
        numeric = float(peak.subs(lam, value))
        require(0 < numeric <= 1 / (1 + float(value)) * (1 + 1e-15), f"G max at lam={value}: {numeric}")


# The remaining symbols of the spec module are used by its statements only.
_ = (m, c)
