"""Proof checks for the exact blanket bound and the pair lower bound of the shuffled Laplace mechanism on
[0, 1]: the blanket and gamma, the law of the amplification variable L of the pair (0, 1), the law of the
pair ratio R, the closed forms used by the lattice discretisations (cell masses and moments, group means), the
mean-preserving spread, the worst-pair reduction (proven for every pair and every eps: below), and the spec
against the reference at n = 1.

The worst-pair reduction (PROVEN, every pair, every eps). Lemma 5.3 holds for every pair (x, x'); the
statement evaluates the pair (0, 1). Since E[L^{x,x'}] = 1 - e^eps for every pair, it suffices that
J_t(x, x') = E[(L^{x,x'} - t)_+] = int (mu_x - e mu_x' - t omega)_+ <= J_t(0, 1) for every real t (then
L^{x,x'} <=_cx L^{0,1}, sums of independent copies and the Bernoulli mixtures B_i L_i keep the order, and (.)_+ is
convex). Proof (each computational step is a proof check below, `_wp_*`):

0. Standard form. T = eps0 (w - 1/2) maps mu_x to Lap(m, 1), m = eps0 (x - 1/2) in [-M, M], M = eps0/2, and
   omega to Lap(0, 1); J is invariant. Write mu_m for Lap(m, 1), omega = mu_0, r_m = mu_m / omega =
   e^{|w| - |w - m|} (non-decreasing in w for m >= 0, non-increasing for m <= 0), and for ANY e > 0, t >= 0:
   J(m, m') = int (mu_m - e mu_m' - t omega)_+ dw. CLAIM U: J(m, m') <= J(-M, M) for all m, m' in [-M, M].
   U gives the reduction: t >= 0 is U with e = e^eps. For t < 0, (L - t)_+ = L - t + (t - L)_+ and the means are
   equal, so it suffices that int (e mu_m' - mu_m - s omega)_+ (s = -t > 0) = e J'(m', m) is largest at
   (m, m') = (-M, M), where J' is J with e' = 1/e, t' = s/e >= 0: U (for e') and the mirror below give
   J'(m', m) <= J'(-M, M) = J'(M, -M).
1. Mirror: w -> -w gives J(m, m') = J(-m, -m').
2. Derivative lemma: for one location theta (the other fixed), theta -> J is Lipschitz and
   J(theta_2) - J(theta_1) = int_{theta_1}^{theta_2} D(theta), D = int_{A} d/dtheta (integrand), A = {integrand > 0}
   (for each w, theta -> (g_theta(w))_+ is Lipschitz and its a.e. derivative is 1{g > 0} d g / d theta; Fubini with
   the integrable bound (1 + e) e^{M - |w|}). With d mu_m / dm = sign(w - m) mu_m:
   d/dm J = mu_m(A, w > m) - mu_m(A, w < m), d/dm' J = e (mu_m'(A, w < m') - mu_m'(A, w > m')); a half of mu_m
   lies on each side of m and mu_m((m, a)) = (1 - e^{-(a - m)})/2.
3. Radial garbling: for lambda in [0, 1], Lap(0, 1) = lambda Lap(0, 1) + Z, Z ~ lambda^2 delta_0 +
   (1 - lambda^2) Lap(0, 1) independent (characteristic functions), so the kernel w -> lambda w + Z maps mu_m to
   mu_{lambda m} and fixes omega. For every f: R -> [0, 1], int f d(mu_{lm} - e mu_{lm'} - t omega) =
   int (K f) d(mu_m - e mu_m' - t omega) with K f in [0, 1]; J is the supremum over such f, so
   J(lambda m, lambda m') <= J(m, m'). With lambda = max(|m|, |m'|)/M, every pair is the image of a pair on the
   boundary of the square ((0, 0) = 0 (-M, M)); by the mirror, of a pair with m = -M or m' = M.
4. Edge m = -M: J(-M, m') is non-decreasing in m' (so <= J(-M, M)). h = r_{-M} - e r_m' - t, A = {h > 0}. If
   m' >= 0, or m' < 0 and e^{-M} > e e^{m'}, h is non-increasing (on [m', 0] it is e^{-2w} (e^{-M} - e e^{m'}) - t),
   so A = (-inf, a): if a <= m' then mu_m'(A, w > m') = 0, else mu_m'(A, w > m') <= 1/2 = mu_m'(A, w < m'). If
   m' < 0 and e^{-M} <= e e^{m'}, h <= 0 on [m', inf) (h = e^{-M} - e e^{m'} - t on [0, inf)): again
   mu_m'(A, w > m') = 0. In all cases d/dm' J >= 0.
5. Edge m' = M, m in [-M, 0]: h = r_m - e r_M - t is non-increasing, A = (-inf, a), d/dm J = mu_m(A, w > m) -
   mu_m(A, w < m) <= 0 (as in 4), so J(m, M) <= J(-M, M).
6. Edge m' = M, m in (0, M]. Put alpha = e e^{m - M}, beta = t e^{-m}, K = e e^{-M} + t, and s(w) = 2 e^w g(w)
   (g the integrand). On w <= 0, g = e^w (e^{-m} - e e^{-M} - t)/2 (constant sign); on [0, m],
   s = (1 - alpha) e^{2w - m} - t (increasing when alpha < 1, <= 0 otherwise); on [m, M], s = e^m - t -
   e e^{2w - M} (decreasing); on w >= M, g = e^{-w} (e^m - e e^M - t)/2 (constant sign). Hence A is an interval
   (c, a) with c <= m <= a, or empty (g is continuous; if alpha >= 1, s <= 0 on [0, M] and A is empty). S1 = {m: e^{-m} > K} (then A = (-inf, a)) is an initial segment of [0, M],
   S2 = {m: e^m > e e^M + t} (then A = (c, +inf)) a final one.
   - m in S1: on [0, m] every point is in S1, so d/dm J = mu_m((m, a)) - 1/2 <= 0 there (= 0 when also a = inf):
     J(m, M) <= J(0, M) <= J(-M, M) by 5.
   - m in S2: on [m, M], d/dm J = 1/2 - mu_m((c, m)) >= 0: J(m, M) <= J(M, M) = J(-M, -M) <= J(-M, M) by 1, 4.
   - otherwise A = (c, a) with 0 <= c <= m <= a <= M, or empty (then J = 0). If A is non-empty, s(m) =
     e^m (1 - alpha - beta) > 0, so 1 - alpha > 0 and 1 - beta > 0, and with p = e^{m - c}, q = e^{a - m}:
     J = 1 - ((1 - alpha)/p + beta p)/2 - ((1 - beta)/q + alpha q)/2 <= 1 - sqrt(beta (1 - alpha)) -
     sqrt(alpha (1 - beta)) (AM-GM) <= 1 - sqrt(alpha + beta) (the square of the sum of roots minus
     alpha + beta is 2 sqrt(alpha beta) (sqrt((1 - alpha)(1 - beta)) - sqrt(alpha beta)), and
     (1 - alpha)(1 - beta) - alpha beta = 1 - alpha - beta > 0) <= 1 - sqrt(K e^{-M}) (alpha + beta - K e^{-M} =
     e e^{-M} (e^m - e^{-M}) + t (e^{-m} - e^{-M}) >= 0). The half-line (-inf, log z), z in [e^{-M}, 1], gives
     J(-M, M) >= 1 - (e^{-M}/z + K z)/2, equal to 1 - sqrt(K e^{-M}) at z = sqrt(e^{-M}/K); that z lies in
     [e^{-M}, 1] because K >= e^{-m} >= e^{-M} (m not in S1) and K e^{-M} <= alpha + beta < 1.
   So J(m, M) <= J(-M, M) on the whole boundary, hence everywhere (3), for every e > 0 and t >= 0: U holds.
The checks below verify each identity in SymPy and the claim itself on exact values (`exact_j`: the integral
in closed form, piece by piece, in mpmath) at random and boundary points.
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp

from ..framework import assert_identity, proof_check, require
from ...reference.bounds.blanket_exact_laplace import exact_blanket_laplace_delta
from ...reference.lower_bounds.laplace import binned_binary_rr_eps0, laplace_pair_delta
from ...spec.derived import blanket_exact as spec
from ...spec.symbols import eps, eps0

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


def exact_j(e_v: float | mpmath.mpf, m: float, mp_: float, t: float | mpmath.mpf, *, dps: int = 30) -> mpmath.mpf:
    """J(m, m') = int (mu_m - e mu_m' - t omega)_+ dw in the standard form (mu_m = Lap(m, 1), omega = Lap(0, 1)),
    exactly: on each piece between the kinks {m, m', 0} the integrand is A e^w + B e^{-w}, whose single sign
    change (e^{2w} = -B/A) and antiderivative A e^w - B e^{-w} are closed forms (mpmath at `dps` digits)."""
    with mpmath.workdps(dps):
        e_v, t = mpmath.mpf(e_v), mpmath.mpf(t)
        terms = ((mpmath.mpf(m), mpmath.mpf(1) / 2), (mpmath.mpf(mp_), -e_v / 2), (mpmath.mpf(0), -t / 2))
        edges = [-mpmath.inf] + sorted({loc for loc, _ in terms}) + [mpmath.inf]
        total = mpmath.mpf(0)
        for lo, hi in zip(edges[:-1], edges[1:], strict=True):
            if lo == hi:
                continue
            probe = hi - 1 if lo == -mpmath.inf else (lo + 1 if hi == mpmath.inf else (lo + hi) / 2)
            big_a = sum((c * mpmath.exp(-loc) for loc, c in terms if probe < loc), mpmath.mpf(0))
            big_b = sum((c * mpmath.exp(loc) for loc, c in terms if probe > loc), mpmath.mpf(0))
            cuts = [lo, hi]
            if big_a != 0 and -big_b / big_a > 0 and lo < mpmath.log(-big_b / big_a) / 2 < hi:
                cuts = [lo, mpmath.log(-big_b / big_a) / 2, hi]
            for x0, x1 in zip(cuts[:-1], cuts[1:], strict=True):
                mid = x1 - 1 if x0 == -mpmath.inf else (x0 + 1 if x1 == mpmath.inf else (x0 + x1) / 2)
                if big_a * mpmath.exp(mid) + big_b * mpmath.exp(-mid) > 0:
                    # positive on an unbounded piece only where the growing term vanishes (integrable tails)
                    upper = big_a * mpmath.exp(x1) - big_b * mpmath.exp(-x1) if x1 != mpmath.inf else mpmath.mpf(0)
                    lower = big_a * mpmath.exp(x0) - big_b * mpmath.exp(-x0) if x0 != -mpmath.inf else mpmath.mpf(0)
                    total += upper - lower
        return total


W, M_, lam, S_ = sp.symbols("W M lambda S", real=True)
e_, t_, m_, z_, p_, q_ = sp.symbols("e t m z p q", positive=True)


def _lap(at: sp.Expr, point: sp.Expr) -> sp.Expr:
    return sp.exp(-sp.Abs(point - at)) / 2


@proof_check(EXACT, "worst pair 0: T = eps0 (w - 1/2) maps Lap(x, 1/eps0) to Lap(eps0 (x - 1/2), 1) (Jacobian 1/eps0)")
def _wp_standard_form() -> None:
    tt = sp.Symbol("T", real=True)
    image = _mu(x, tt / eps0 + sp.Rational(1, 2)) / eps0
    assert_identity(image.rewrite(sp.exp), _lap(eps0 * (x - sp.Rational(1, 2)), tt).subs(tt, tt), "density of T")


@proof_check(EXACT, "worst pair 3: Lap(0,1) = lambda Lap(0,1) + Z, Z ~ lambda^2 delta_0 + (1 - lambda^2) Lap(0,1) (characteristic functions)")
def _wp_self_decomposable() -> None:
    cf = 1 / (1 + S_**2)  # characteristic function of Lap(0, 1)
    assert_identity(sp.integrate(sp.exp(-W) / 2 * sp.cos(S_ * W), (W, 0, sp.oo), conds="none") * 2, cf, "cf of Lap(0, 1)")
    assert_identity(cf.subs(S_, lam * S_) * (lam**2 + (1 - lam**2) * cf), cf, "self-decomposability")


@proof_check(EXACT, "worst pair 2: mu_m((m, m + d)) = (1 - e^{-d})/2, mu_m((-inf, m)) = 1/2, d mu_m/dm = sign(w - m) mu_m")
def _wp_masses() -> None:
    d = sp.Symbol("d", positive=True)
    assert_identity(sp.integrate(sp.exp(-(W - m_)) / 2, (W, m_, m_ + d)), (1 - sp.exp(-d)) / 2, "right mass")
    assert_identity(sp.integrate(sp.exp(W - m_) / 2, (W, -sp.oo, m_)), sp.Rational(1, 2), "left half")
    assert_identity(sp.diff(sp.exp(-(W - m_)) / 2, m_), sp.exp(-(W - m_)) / 2, "derivative right of m")
    assert_identity(sp.diff(sp.exp(W - m_) / 2, m_), -sp.exp(W - m_) / 2, "derivative left of m")


@proof_check(EXACT, "worst pair 4-6: the integrand on each piece (r_m monotone; h and s(w) on the pieces, s(m) = e^m (1 - alpha - beta))")
def _wp_pieces() -> None:
    mm = sp.Symbol("mm", real=True)
    # r_m = e^{|w| - |w - m|}: for m >= 0 the exponent's pieces are -m, 2w - m, m (non-decreasing); mirror for m <= 0.
    # Each piece parametrised so that SymPy resolves the absolute values: w = -u (u > 0), w = m v/(1 + v) in
    # (0, m) (v > 0), w = m + u.
    vp = sp.Symbol("v_p", positive=True)
    for point in (-vp, m_ * vp / (1 + vp), m_ + vp):
        expo = -m_ if point == -vp else (m_ if point == m_ + vp else 2 * point - m_)
        assert_identity((sp.Abs(W) - sp.Abs(W - m_)).subs(W, point), expo, "exponent of r_m on a piece")
    # Edge 4, m' < 0, w in [m', 0]: r_{-M} - e r_{m'} = e^{-2w} (e^{-M} - e e^{m'}).
    require(sp.simplify(sp.exp(-2 * W - M_) - e_ * sp.exp(mm - 2 * W) - sp.exp(-2 * W) * (sp.exp(-M_) - e_ * sp.exp(mm))) == 0, "edge 4 piece")
    # Edge 6 (0 <= m <= M): the integrand g = mu_m - e mu_M - t omega on the pieces.
    alpha, beta = e_ * sp.exp(m_ - M_), t_ * sp.exp(-m_)
    g_left = (sp.exp(W - m_) - e_ * sp.exp(W - M_) - t_ * sp.exp(W)) / 2  # w <= 0
    assert_identity(g_left, sp.exp(W) * (sp.exp(-m_) - e_ * sp.exp(-M_) - t_) / 2, "g on w <= 0")
    g_mid1 = (sp.exp(W - m_) - e_ * sp.exp(W - M_) - t_ * sp.exp(-W)) / 2  # [0, m]
    assert_identity(2 * sp.exp(W) * g_mid1, (1 - alpha) * sp.exp(2 * W - m_) - t_, "s on [0, m]")
    g_mid2 = (sp.exp(m_ - W) - e_ * sp.exp(W - M_) - t_ * sp.exp(-W)) / 2  # [m, M]
    assert_identity(2 * sp.exp(W) * g_mid2, sp.exp(m_) - t_ - e_ * sp.exp(2 * W - M_), "s on [m, M]")
    g_right = (sp.exp(m_ - W) - e_ * sp.exp(M_ - W) - t_ * sp.exp(-W)) / 2  # w >= M
    assert_identity(g_right, sp.exp(-W) * (sp.exp(m_) - e_ * sp.exp(M_) - t_) / 2, "g on w >= M")
    assert_identity((2 * sp.exp(W) * g_mid1).subs(W, m_), sp.exp(m_) * (1 - alpha - beta), "s(m)")


@proof_check(EXACT, "worst pair 6: J on an interval (c, a), 0 <= c <= m <= a <= M, = 1 - ((1-alpha)/p + beta p)/2 - ((1-beta)/q + alpha q)/2")
def _wp_interval_form() -> None:
    c, a = sp.symbols("c a", real=True)
    alpha, beta = e_ * sp.exp(m_ - M_), t_ * sp.exp(-m_)
    left = sp.integrate((sp.exp(W - m_) - e_ * sp.exp(W - M_) - t_ * sp.exp(-W)) / 2, (W, c, m_))
    right = sp.integrate((sp.exp(m_ - W) - e_ * sp.exp(W - M_) - t_ * sp.exp(-W)) / 2, (W, m_, a))
    pp, qq = sp.exp(m_ - c), sp.exp(a - m_)
    form = 1 - ((1 - alpha) / pp + beta * pp) / 2 - ((1 - beta) / qq + alpha * qq) / 2
    assert_identity(sp.expand(left + right), sp.expand(form), "interval value")


@proof_check(EXACT, "worst pair 6: half-line (-inf, log z), z in [e^{-M}, 1], has value 1 - (e^{-M}/z + K z)/2 for the pair (-M, M), K = e e^{-M} + t")
def _wp_half_line() -> None:
    zl = sp.Symbol("zl", real=True)  # log z in [-M, 0]
    below = sp.integrate((sp.exp(W + M_) - e_ * sp.exp(W - M_) - t_ * sp.exp(W)) / 2, (W, -sp.oo, -M_), conds="none")
    mid = sp.integrate((sp.exp(-W - M_) - e_ * sp.exp(W - M_) - t_ * sp.exp(W)) / 2, (W, -M_, zl))
    k = e_ * sp.exp(-M_) + t_
    assert_identity(sp.expand(below + mid), sp.expand(1 - (sp.exp(-M_) / sp.exp(zl) + k * sp.exp(zl)) / 2), "half-line value")
    zstar = sp.sqrt(sp.exp(-M_) / k)
    assert_identity(sp.expand(sp.exp(-M_) / zstar + k * zstar), 2 * sp.sqrt(sp.exp(-M_) * k), "value at the optimum")


@proof_check(EXACT, "worst pair 6: AM-GM, (sqrt(b(1-a)) + sqrt(a(1-b)))^2 - (a + b) = 2 sqrt(ab) (sqrt((1-a)(1-b)) - sqrt(ab)), alpha + beta >= K e^{-M}")
def _wp_inequalities() -> None:
    al, be = sp.symbols("a b", positive=True)
    y = sp.Symbol("y", positive=True)
    require(sp.expand((sp.sqrt(y) - sp.sqrt(al / y)) ** 2 - (y - 2 * sp.sqrt(al) + al / y)) == 0, "AM-GM square")
    # Square roots of the non-negative factors as positive symbols: ra = sqrt(a), sa = sqrt(1 - a), etc.
    ra, rb, sa, sb = sp.symbols("r_a r_b s_a s_b", positive=True)
    lhs = (rb * sa + ra * sb) ** 2 - (ra**2 + rb**2)
    rhs = 2 * ra * rb * (sa * sb - ra * rb)
    assert_identity(sp.expand(lhs - rhs).subs({sa**2: 1 - ra**2, sb**2: 1 - rb**2}).expand(), sp.Integer(0), "square of the sum of roots")
    # and sa sb - ra rb >= 0 iff (1 - a)(1 - b) >= a b iff a + b <= 1:
    assert_identity(sp.expand((1 - al) * (1 - be) - al * be), 1 - al - be, "(1-a)(1-b) - ab")
    alpha, beta, k = e_ * sp.exp(m_ - M_), t_ * sp.exp(-m_), e_ * sp.exp(-M_) + t_
    assert_identity(sp.expand(alpha + beta - k * sp.exp(-M_)), sp.expand(e_ * sp.exp(-M_) * (sp.exp(m_) - sp.exp(-M_)) + t_ * (sp.exp(-m_) - sp.exp(-M_))), "alpha + beta - K e^{-M}")


@proof_check(EXACT, "worst pair: J(m, m') <= J(-M, M) on exact values (random and edge points, every e in [e^{-2M}, e^{2M}], t >= 0)")
def _wp_exact_values() -> None:
    rng = np.random.default_rng(15)
    for big_m in (0.05, 0.5, 2.0, 4.0):
        for _ in range(15):
            e_v = mpmath.exp(mpmath.mpf(float(rng.uniform(-2 * big_m, 2 * big_m))))
            t_v = mpmath.mpf(0) if rng.random() < 0.2 else mpmath.exp(mpmath.mpf(float(rng.uniform(-8, big_m + 1))))
            m = float(rng.choice([-big_m, 0.0, big_m, rng.uniform(-big_m, big_m)]))
            mp_ = float(rng.choice([-big_m, big_m, rng.uniform(-big_m, big_m)]))
            worst = exact_j(e_v, -big_m, big_m, t_v)
            value = exact_j(e_v, m, mp_, t_v)
            with mpmath.workdps(30):
                ok = value <= worst * (1 + mpmath.mpf(10) ** -25) + mpmath.mpf(10) ** -28
            require(ok, f"J({m}, {mp_}) = {value} > {worst} (M {big_m}, e {e_v}, t {t_v})")
    # the closed form against quadrature (kinks and the sign change included in the split)
    with mpmath.workdps(30):
        for m, mp_, e_v, t_v in ((-0.3, 0.7, 1.5, 0.1), (0.2, -0.9, 0.5, 0.3), (-1.0, 1.0, 0.3, 0.05)):

            def f(y: mpmath.mpf, m: float = m, mp_: float = mp_, e_v: float = e_v, t_v: float = t_v) -> mpmath.mpf:
                return max(mpmath.exp(-abs(y - m)) / 2 - e_v * mpmath.exp(-abs(y - mp_)) / 2 - t_v * mpmath.exp(-abs(y)) / 2, 0)

            grid = sorted({-mpmath.inf, mpmath.inf} | {mpmath.mpf(k) / 16 for k in range(-48, 49)})
            quad = mpmath.quad(f, grid)
            require(abs(quad - exact_j(e_v, m, mp_, t_v)) < 1e-8, "exact_j against quadrature")


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
