"""Proof checks for the exact blanket bound and the pair lower bound of the shuffled Laplace mechanism on [0, 1]
(issue 15): the blanket and gamma, the law of the amplification variable L of the pair (0, 1), the law of the
pair ratio R, the closed forms used by the lattice discretisations (cell masses and moments, group means), the
mean-preserving spread, the worst-pair reduction (proof for the half-line cases, numerical check for the rest),
and the spec against the reference at n = 1.

The worst-pair reduction. Lemma 5.3 holds for every pair (x, x'); the statement evaluates the pair (0, 1). Since
E[L^{x,x'}] = 1 - e^eps for every pair, it suffices that J_t(x, x') = E[(L^{x,x'} - t)_+] =
int (mu_x - e mu_x' - t omega)_+ <= J_t(0, 1) for every t (then L^{x,x'} <=_cx L^{0,1}, sums of i.i.d. copies keep
the order and (.)_+ is convex). With A = {mu_x - e mu_x' - t omega > 0}, d/dx J_t = eps0 (mu_x(A, w > x) -
mu_x(A, w < x)) and d/dx' J_t = -e eps0 (mu_x'(A, w > x') - mu_x'(A, w < x')). For t >= 0 and x <= min(x', 1/2),
mu_x'/mu_x and omega/mu_x are non-decreasing in w (Laplace likelihood ratios), so A = {1 > e mu_x'/mu_x +
t omega/mu_x} is a half-line (-inf, a); then mu_x(A, w > x) <= 1/2 = mu_x(w < x) when a > x (and 0 otherwise), so
J_t decreases in x, and likewise increases in x': J_t(x, x') <= J_t(0, x') <= J_t(0, 1). The mirror case
(x >= max(x', 1/2)) follows by w -> 1 - w (omega is symmetric about 1/2). The remaining cases (t < 0, or x, x'
on the same side of 1/2 in the other order) are CHECKED NUMERICALLY here on a grid (`_worst_pair_grid`), not
proven: the statement's notes say so.
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp

from shuffle_spec.proofs_checks.framework import assert_identity, proof_check, require
from shuffle_spec.reference.bounds.blanket_exact_laplace import exact_blanket_laplace_delta
from shuffle_spec.reference.lower_bounds_laplace import binned_binary_rr_eps0, laplace_pair_delta
from shuffle_spec.spec import blanket_exact as spec
from shuffle_spec.spec.symbols import eps, eps0

EXACT = "BBGN19.Lem5.3.exact_laplace"
PAIR = "exact.laplace_pair_x0"

w, u, v = sp.symbols("w u v", real=True)
x, xa, xb, x0, x1, s = sp.symbols("x x_a x_b x_0 x_1 s", positive=True)
cc = sp.Symbol("c", positive=True)


def _mu(point: sp.Expr, at: sp.Expr) -> sp.Expr:
    return eps0 / 2 * sp.exp(-eps0 * sp.Abs(point - at))


@proof_check(EXACT, "blanket: inf_x mu_x = (eps0/2) e^{-eps0 max(|w|, |w-1|)} has mass e^{-eps0/2}, and omega = Lap(1/2, 1/eps0)")
def _blanket_mass() -> None:
    # For w <= 1/2 the farther end point is 1: inf = (eps0/2) e^{-eps0 (1 - w)}; mirror for w >= 1/2.
    half = sp.integrate(eps0 / 2 * sp.exp(-eps0 * (1 - w)), (w, -sp.oo, sp.Rational(1, 2)))
    assert_identity(2 * half, sp.exp(-eps0 / 2), "mass of the blanket")
    # Normalised: (eps0/2) e^{-eps0 (1 - w)} / e^{-eps0/2} = (eps0/2) e^{-eps0 (1/2 - w)} = Lap(1/2) for w <= 1/2.
    assert_identity(eps0 / 2 * sp.exp(-eps0 * (1 - w)) / sp.exp(-eps0 / 2), eps0 / 2 * sp.exp(-eps0 * (sp.Rational(1, 2) - w)), "omega")


@proof_check(EXACT, "pair (0, 1): mu_0/omega and mu_1/omega on the four regions of u = w - 1/2 give L = X - e/c or 1/c - e X")
def _l_values() -> None:
    c = sp.exp(eps0 / 2)
    e = sp.exp(eps)
    # Region u in (-1/2, 0): |u| = -u, |u + 1/2| = u + 1/2, |u - 1/2| = 1/2 - u.
    r0 = sp.exp(eps0 * (-u - (u + sp.Rational(1, 2))))  # mu_0 / omega = e^{eps0 (|u| - |u + 1/2|)}
    r1 = sp.exp(eps0 * (-u - (sp.Rational(1, 2) - u)))  # mu_1 / omega
    big_x = sp.exp(eps0 * (2 * (-u) - sp.Rational(1, 2)))  # X = e^{eps0 (2|u| - 1/2)}
    assert_identity(r0 - e * r1, big_x - e / c, "left side, |u| < 1/2")
    # Region u < -1/2: |u + 1/2| = -u - 1/2, X = c (the atom).
    r0 = sp.exp(eps0 * (-u - (-u - sp.Rational(1, 2))))
    r1 = sp.exp(eps0 * (-u - (sp.Rational(1, 2) - u)))
    assert_identity(r0 - e * r1, c - e / c, "left side, atom")
    # Region u in (0, 1/2) (mirror): mu_0/omega = 1/c, mu_1/omega = X.
    r0 = sp.exp(eps0 * (u - (u + sp.Rational(1, 2))))
    r1 = sp.exp(eps0 * (u - (sp.Rational(1, 2) - u)))
    big_x = sp.exp(eps0 * (2 * u - sp.Rational(1, 2)))
    assert_identity(r0 - e * r1, 1 / c - e * big_x, "right side, |u| < 1/2")


@proof_check(EXACT, "law of X: |U| ~ Exp(eps0) gives Pr[X >= x] = (c x)^{-1/2} on [1/c, c], E[X] = 2 - 1/c, E[L] = 1 - e^eps")
def _x_law() -> None:
    c = sp.exp(eps0 / 2)
    # X >= x  <=>  |U| >= log(c x) / (2 eps0); Pr[|U| >= y] = e^{-eps0 y}.
    tail = sp.exp(-eps0 * sp.log(c * x) / (2 * eps0))
    assert_identity(sp.powsimp(sp.expand_log(tail, force=True), force=True), sp.powsimp((c * x) ** sp.Rational(-1, 2), force=True), "tail")
    density = -sp.diff((cc * x) ** sp.Rational(-1, 2), x)
    assert_identity(density, spec.x_density(cc).subs(spec.x, x), "density")
    mean = sp.integrate(x * density, (x, 1 / cc, cc)) + cc * (1 / cc)  # the atom 1/c at c
    assert_identity(mean, 2 - 1 / cc, "E[X]")
    e = sp.Symbol("e", positive=True)
    mean_l = ((2 - 1 / cc) - e / cc) / 2 + (1 / cc - e * (2 - 1 / cc)) / 2
    assert_identity(mean_l, (1 - e) * (1 + 1 / cc) / 2 + (1 - e) * (1 - 1 / cc) / 2, "E[L] = 1 - e (halves)")
    assert_identity(mean_l, 1 - e, "E[L] = 1 - e")


@proof_check(EXACT, "cell closed forms: int f, int (x - xa) f, int (xb - x) f as products of positives (no cancellation)")
def _cell_forms() -> None:
    f = spec.x_density(cc).subs(spec.x, x)
    d = sp.sqrt(xb) - sp.sqrt(xa)
    assert_identity(sp.integrate(f, (x, xa, xb)), cc ** sp.Rational(-1, 2) * d / (sp.sqrt(xa) * sp.sqrt(xb)), "int f")
    assert_identity(sp.integrate((x - xa) * f, (x, xa, xb)), cc ** sp.Rational(-1, 2) * d**2 / sp.sqrt(xb), "int (x - xa) f")
    assert_identity(sp.integrate((xb - x) * f, (x, xa, xb)), cc ** sp.Rational(-1, 2) * d**2 / sp.sqrt(xa), "int (xb - x) f")
    assert_identity(d, (xb - xa) / (sp.sqrt(xa) + sp.sqrt(xb)), "sqrt xb - sqrt xa")


@proof_check(EXACT, "mean-preserving spread: weights (b - L)/h and (L - a)/h keep mass and mean; group means sqrt(x0 x1) and 2 s sqrt(c) - s^2")
def _spread_and_groups() -> None:
    a, h, ell = sp.symbols("a h ell", real=True)
    w_lo, w_hi = (a + h - ell) / h, (ell - a) / h
    assert_identity(w_lo + w_hi, sp.Integer(1), "spread keeps the mass")
    assert_identity(w_lo * a + w_hi * (a + h), ell, "spread keeps the mean")
    f = spec.x_density(cc).subs(spec.x, x)
    mean = sp.integrate(x * f, (x, x0, x1)) / sp.integrate(f, (x, x0, x1))
    require(sp.simplify(sp.powsimp(mean - sp.sqrt(x0 * x1), force=True)) == 0, "group mean of X on [x0, x1] is sqrt(x0 x1)")
    # [s^2, c) plus the atom 1/c at c.
    mass = sp.integrate(f, (x, s**2, cc)) + 1 / cc
    moment = sp.integrate(x * f, (x, s**2, cc)) + 1
    require(sp.simplify(moment / mass - (2 * s * sp.sqrt(cc) - s**2)) == 0, "top group mean 2 s sqrt(c) - s^2")


def _j_t(eps0_v: float, e_v: float, xx: float, xp: float, t: float) -> mpmath.mpf:
    """E[(L^{x,x'} - t)_+] = int (mu_x - e mu_x' - t omega)_+ dw by quadrature split at the kinks (mpmath)."""
    def mu(y: float, at: float) -> mpmath.mpf:
        return eps0_v / 2 * mpmath.exp(-eps0_v * abs(y - at))

    points = sorted({-mpmath.inf, mpmath.mpf(0), mpmath.mpf(xx), mpmath.mpf(xp), mpmath.mpf(0.5), mpmath.mpf(1), mpmath.inf})
    return mpmath.quad(lambda y: max(mu(y, xx) - e_v * mu(y, xp) - t * mu(y, 0.5), 0), points)


def _j_t_grid(eps0_v: float, e_v: float, pairs: list[tuple[float, float]], thresholds: np.ndarray) -> np.ndarray:
    """J_t(x, x') for every pair and threshold by the trapezoid rule on a fine grid (numpy floats: a numerical
    check, accurate to about 1e-5 relative; the tails beyond 40/eps0 hold less than e^-40)."""
    y = np.linspace(-40 / eps0_v, 1 + 40 / eps0_v, 40_001)
    omega = eps0_v / 2 * np.exp(-eps0_v * np.abs(y - 0.5))
    out = np.empty((len(pairs), len(thresholds)))
    for i, (xx, xp) in enumerate(pairs):
        diff = eps0_v / 2 * (np.exp(-eps0_v * np.abs(y - xx)) - e_v * np.exp(-eps0_v * np.abs(y - xp)))
        values = np.maximum(diff[None, :] - thresholds[:, None] * omega[None, :], 0.0)
        out[i] = np.trapz(values, y, axis=1) if hasattr(np, "trapz") else np.trapezoid(values, y, axis=1)
    return out


@proof_check(EXACT, "worst pair: J_t(x, x') <= J_t(0, 1) on a grid of pairs and thresholds (numerical check for the unproven cases)")
def _worst_pair_grid() -> None:
    grid = [0.0, 0.3, 0.5, 0.8, 1.0]
    pairs = [(a, b) for a in grid for b in grid]
    thresholds = np.array([-3.0, -1.0, -0.3, -0.05, 0.0, 0.05, 0.3, 1.0, 3.0])
    for eps0_v in (0.5, 1.0, 4.0, 8.0):
        for e_v in (1.0, 1.5):
            values = _j_t_grid(eps0_v, e_v, pairs, thresholds)
            worst = values[pairs.index((0.0, 1.0))]
            excess = values - worst[None, :] * (1 + 1e-5) - 1e-9
            worst_excess = float(np.max(excess))
            require(worst_excess <= 0, f"J_t(x, x') > J_t(0, 1) at eps0 {eps0_v}, e {e_v}: max excess {worst_excess}")


def _eval_spec(expr: sp.Expr, point: dict) -> mpmath.mpf:
    """The spec's expression with its integrals evaluated by mpmath quadrature (split where the Max switches)."""
    expr = expr.subs(point)

    def integral_value(integral: sp.Integral) -> sp.Float:
        (var, lo, hi), = integral.limits
        lo_v, hi_v = mpmath.mpf(sp.N(lo, 30)), mpmath.mpf(sp.N(hi, 30))
        e_v, c_v = mpmath.exp(mpmath.mpf(sp.N(point[eps], 30))), mpmath.exp(mpmath.mpf(sp.N(point[eps0], 30)) / 2)
        kinks = sorted({lo_v, hi_v} | {k for k in (e_v / c_v, 1 / (c_v * e_v)) if lo_v < k < hi_v})
        function = sp.lambdify(var, integral.function, "mpmath")
        return sp.Float(mpmath.quad(function, kinks), 30)

    with mpmath.workdps(30):
        evaluated = expr.replace(lambda e: isinstance(e, sp.Integral), integral_value)
        return mpmath.mpf(sp.N(evaluated, 30))


@proof_check(EXACT, "spec = reference at n = 1 (Lemma 5.3 is E[L_+] there): eps0 = 1, eps = 0.3 and eps0 = 4, eps = 1")
def _spec_vs_reference() -> None:
    for e0v, ev in ((1.0, 0.3), (4.0, 1.0)):
        value = float(_eval_spec(spec.laplace_blanket_single(), {eps0: sp.Float(e0v, 30), eps: sp.Float(ev, 30)}))
        got = exact_blanket_laplace_delta(eps0=e0v, n=1, eps=ev)
        require(got.lower * (1 - 1e-12) <= value <= got.upper * (1 + 1e-12), f"spec {value} outside {got}")


@proof_check(PAIR, "pair ratio R = mu_1/mu_0 (V ~ mu_0): atom 1/C (mass 1/2), atom C (mass 1/(2C)), Pr[R >= r] = (1/2)(C r)^{-1/2} between; E[R] = 1")
def _pair_law() -> None:
    big_c = sp.Symbol("C", positive=True)
    assert_identity(sp.integrate(eps0 / 2 * sp.exp(-eps0 * v), (v, 1, sp.oo)), sp.exp(-eps0) / 2, "Pr[V >= 1]")
    # On (0, 1): R = e^{eps0 (2v - 1)} >= r  <=>  v >= (log r / eps0 + 1)/2; Pr[V >= y] = e^{-eps0 y}/2 (y >= 0).
    r = sp.Symbol("r", positive=True)
    tail = sp.exp(-eps0 * (sp.log(r) / eps0 + 1) / 2) / 2
    require(sp.simplify(sp.powsimp(sp.expand_log(tail, force=True) - (sp.exp(eps0) * r) ** sp.Rational(-1, 2) / 2, force=True)) == 0, "tail of R")
    mean = sp.Rational(1, 2) / big_c + sp.Rational(1, 2) * (2 - 1 / big_c)  # 1/2 atom + 1/2 X_C (E[X_C] = 2 - 1/C)
    assert_identity(mean, sp.Integer(1), "E[R] = 1")


@proof_check(PAIR, "spec = reference at n = 1: max(int (mu_0 - e mu_1)_+, int (mu_1 - e mu_0)_+) by quadrature, eps0 = 1, eps = 0.3")
def _pair_vs_quadrature() -> None:
    with mpmath.workdps(25):
        forward = _j_t(1.0, mpmath.exp(mpmath.mpf(0.3)), 0.0, 1.0, 0.0)
        backward = _j_t(1.0, mpmath.exp(mpmath.mpf(0.3)), 1.0, 0.0, 0.0)
        value = max(forward, backward)
    got = laplace_pair_delta(eps0=1.0, n=1, eps=0.3)
    require(got.lower * (1 - 1e-12) <= value <= got.upper * (1 + 1e-12), f"quadrature {value} outside {got}")


@proof_check(PAIR, "binning at 1/2: flip probability q = e^{-eps0/2}/2 and e^{eps0'} = (1 - q)/q = 2 e^{eps0/2} - 1")
def _binning() -> None:
    q = sp.integrate(eps0 / 2 * sp.exp(-eps0 * v), (v, sp.Rational(1, 2), sp.oo))
    assert_identity(q, sp.exp(-eps0 / 2) / 2, "q")
    assert_identity((1 - q) / q, 2 * sp.exp(eps0 / 2) - 1, "e^{eps0'}")
    value = binned_binary_rr_eps0(eps0=1.0)
    exact = mpmath.log(2 * mpmath.exp(mpmath.mpf(0.5)) - 1)
    require(value <= exact and exact - value < 1e-15, f"eps0' {value} vs {exact}")
