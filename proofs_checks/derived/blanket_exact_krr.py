"""Proof checks for the exact blanket bound and the k-RR pair lower bounds: the rewriting of
Lemma 5.3 as a sum over N with Pr[Bin(n-1, gamma) = N-1]/N, the k-RR amplification variable as a function
of the blanket counts, the multinomial identity behind the pair formula, the coefficient orders that make
the b-blocking monotone, and the spec's finite sums against the reference at small n."""

from __future__ import annotations

import sympy as sp

from ..framework import assert_identity, assert_nonnegative, proof_check, require
from ...reference.bounds.blanket_exact_krr import exact_blanket_krr_delta
from ...reference.lower_bounds.krr import krr_pair_delta, krr_pair_third_split_delta
from ...spec.derived import blanket_exact as spec
from ...spec.symbols import eps, eps0, k, n

EXACT = "BBGN19.Lem5.3.exact_krr"
THIRD = "exact.krr_pair_third"
X0 = "exact.krr_pair_x0"
SPLIT = "exact.krr_pair_third_split"

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
    # The same sum written with the number of blanket draws N = a + b + r: (e0-1)(a - e b) - (e-1) N.
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


@proof_check(SPLIT, "four classes: Mult(n-1; h - e_j) pi^(h - e_j) = Mult(n; h) pi^h h_j/(n pi_j), and the coefficients (mu_x0(j) - e mu_x1(j))/pi_j")
def _split_counts() -> None:
    h2, h3 = sp.symbols("h2 h3", integer=True, positive=True)
    q0, q1, q2, q3 = sp.symbols("q0 q1 q2 q3", positive=True)
    total = h0 + h1 + h2 + h3
    full = sp.factorial(total) / (sp.factorial(h0) * sp.factorial(h1) * sp.factorial(h2) * sp.factorial(h3)) * q0**h0 * q1**h1 * q2**h2 * q3**h3
    shifted = sp.factorial(total - 1) / (sp.factorial(h0) * sp.factorial(h1) * sp.factorial(h2 - 1) * sp.factorial(h3)) * q0**h0 * q1**h1 * q2 ** (h2 - 1) * q3**h3
    require(sp.simplify(sp.combsimp(shifted / (full * h2 / (total * q2)))) == 1, "multinomial shift (four classes)")
    e0, e = sp.exp(eps0), sp.exp(eps)
    d = e0 + k - 1
    others = {"x0": 1 / d, "x1": 1 / d, "rest": (k - 3) / d, "z": e0 / d}  # the others (all at z) report j
    user0 = {"x0": e0 / d, "x1": 1 / d, "rest": (k - 3) / d, "z": 1 / d}
    user1 = {"x0": 1 / d, "x1": e0 / d, "rest": (k - 3) / d, "z": 1 / d}
    expected = {"x0": e0 - e, "x1": 1 - e * e0, "rest": 1 - e, "z": (1 - e) / e0}
    for j, value in expected.items():
        assert_identity((user0[j] - e * user1[j]) / others[j], value, f"coefficient of {j}")


@proof_check(SPLIT, "given h1 = j: a0 h0 + a1 j + az hz + ar r = sum (a + delta_j) over h0 + r + hz = n - j, delta_j = a1 j/(n - j); the engine's order 1 - e <= (1-e)/e0 <= 0")
def _split_rows() -> None:
    e0, e = sp.exp(eps0), sp.exp(eps)
    a0, a1, az, ar = e0 - e, 1 - e * e0, (1 - e) / e0, 1 - e
    j = sp.Symbol("j", integer=True, nonnegative=True)
    hz = n - j - h0 - r
    shift = a1 * j / (n - j)
    assert_identity(a0 * h0 + a1 * j + az * hz + ar * r, (a0 + shift) * h0 + (ar + shift) * r + (az + shift) * hz, "row form")
    # c2 - c1 = az - ar = (e - 1)(e0 - 1)/e0 >= 0 (the shift is common to both), and c2 <= 0.
    _order(ar, az, (e - 1) * (e0 - 1) / e0, "c2 - c1 (split)")
    assert_nonnegative((e - 1) / e0, "-c2 = (e - 1)/e0")


@proof_check(SPLIT, "spec sum = reference interval at n = 5, k = 4, eps0 = 1, eps = 0.2 and n = 4, k = 6, eps0 = 3, eps = 1")
def _spec_vs_reference_split() -> None:
    for size, kk, e0v, ev in ((5, 4, 1.0, 0.2), (4, 6, 3.0, 1.0)):
        value = _spec_value(spec.pair_third_split_delta(), {n: size, k: kk, eps0: sp.Float(e0v, 30), eps: sp.Float(ev, 30)})
        got = krr_pair_third_split_delta(eps0=e0v, n=size, k=kk, eps=ev)
        require(got.lower * (1 - 1e-12) <= value <= got.upper * (1 + 1e-12), f"spec {value} outside {got}")


# --- The split and shifted-row lattice sums: the facts `reference/numerics/lattice_sums/` rests on. ---

MM, jj = sp.symbols("M j", integer=True, positive=True)
x_pos = sp.Symbol("x", nonnegative=True)
q_ = sp.Symbol("q", positive=True)
p_, r_ = sp.symbols("p r", positive=True)


def _binom_pmf(m: sp.Expr, j: sp.Expr, prob: sp.Expr) -> sp.Expr:
    return sp.factorial(m) / (sp.factorial(j) * sp.factorial(m - j)) * prob**j * (1 - prob) ** (m - j)


@proof_check(EXACT, "split sum: Mult(n; p, p, r, 1-2p-r)(a, b, R) = Bin(n, 2p)(a+b) Bin(a+b, 1/2)(a) Bin(n-a-b, r/(1-2p))(R)")
def _split_decomposition() -> None:
    rest = n - a - b - r
    full = sp.factorial(n) / (sp.factorial(a) * sp.factorial(b) * sp.factorial(r) * sp.factorial(rest)) * p_ ** (a + b) * r_**r * (1 - 2 * p_ - r_) ** rest
    s = a + b
    split = _binom_pmf(n, s, 2 * p_) * _binom_pmf(s, a, sp.Rational(1, 2)) * _binom_pmf(n - s, r, r_ / (1 - 2 * p_))
    require(sp.simplify(sp.combsimp(sp.powsimp(sp.expand_power_base(full / split, force=True), force=True))) == 1, "multinomial split")


@proof_check(EXACT, "shifted rows: Pr[Bin(M-j) = a] / Pr[Bin(M) = a] = prod_{i<j} (M-a-i)/((M-i) q) (j = 1, 2, 3), log-concave in a")
def _shift_weights() -> None:
    for j in (1, 2, 3):
        ratio = _binom_pmf(MM - j, a, 1 - q_) / _binom_pmf(MM, a, 1 - q_)
        product = sp.Mul(*[(MM - a - i) / ((MM - i) * q_) for i in range(j)])
        require(sp.simplify(sp.combsimp(ratio / product)) == 1, f"weight identity, j = {j}")
        # d^2/da^2 log w_j = -sum 1/(M - a - i)^2 < 0: the tangent at a0 lies above log w_j (upper queries).
        real_a = sp.Symbol("a_real", real=True)
        log_w = sp.Add(*[sp.log(MM - real_a - i) for i in range(j)])
        assert_identity(sp.diff(log_w, real_a, 2), -sp.Add(*[1 / (MM - real_a - i) ** 2 for i in range(j)]), f"curvature, j = {j}")
        # First derivative -sum 1/(M - a - i) <= -j/(M - a): sigma = j/(M - a0) is a valid (smaller) slope.
        gap = sp.Symbol("g_gap", positive=True)  # M - a0 - i >= 1 for the a in range: M - a0 = gap + j - 1 + ...
        terms = sp.Add(*[1 / (gap + (j - 1) - i) for i in range(j)]) - sp.Rational(j) / (gap + (j - 1))
        assert_nonnegative(sp.together(terms), f"slope bound, j = {j}")


@proof_check(EXACT, "shifted rows: Pr[Bin(M+j) = a] / Pr[Bin(M) = a] is log-convex in a (lower queries), slope >= j/(M - a + j)")
def _shift_weights_lower() -> None:
    real_a = sp.Symbol("a_real", real=True)
    for j in (1, 2, 3):
        ratio = _binom_pmf(MM + j, a, 1 - q_) / _binom_pmf(MM, a, 1 - q_)
        product = sp.Mul(*[(MM + i) * q_ / (MM + i - a) for i in range(1, j + 1)])
        require(sp.simplify(sp.combsimp(ratio / product)) == 1, f"weight identity, j = {j}")
        log_v = -sp.Add(*[sp.log(MM + i - real_a) for i in range(1, j + 1)])
        assert_identity(sp.diff(log_v, real_a, 2), sp.Add(*[1 / (MM + i - real_a) ** 2 for i in range(1, j + 1)]), f"curvature, j = {j}")
        gap = sp.Symbol("g_gap", positive=True)  # M - a0 >= 0 written gap - 1 + ...: 1/(M - a0 + i) >= 1/(M - a0 + j)
        terms = sp.Add(*[1 / (gap + i) for i in range(1, j + 1)]) - sp.Rational(j) / (gap + j)
        assert_nonnegative(sp.together(terms), f"slope bound, j = {j}")


@proof_check(EXACT, "e^-x <= 1 - x + x^2/2 and e^x >= 1 + x + x^2/2 for x >= 0 (the tangent-weighted suffix sums)")
def _exponential_polynomials() -> None:
    upper = 1 - x_pos + x_pos**2 / 2 - sp.exp(-x_pos)
    lower = sp.exp(x_pos) - 1 - x_pos - x_pos**2 / 2
    for f, name in ((upper, "1 - x + x^2/2 - e^-x"), (lower, "e^x - 1 - x - x^2/2")):
        require(f.subs(x_pos, 0) == 0 and sp.diff(f, x_pos).subs(x_pos, 0) == 0, f"{name}: value and slope 0 at x = 0")
    # Second derivatives 1 - e^-x >= 0 and e^x - 1 >= 0: both functions are convex with a zero minimum at 0.
    assert_identity(sp.diff(upper, x_pos, 2), 1 - sp.exp(-x_pos), "second derivative (upper)")
    assert_nonnegative(sp.exp(x_pos) - 1, "e^x - 1")
    assert_nonnegative((sp.exp(x_pos) - 1) * sp.exp(-x_pos), "1 - e^-x")


@proof_check(THIRD, "E[g_- | b] is non-decreasing in b (exact instances): F(b) = E[g | b] + E[g_- | b] between two rows")
def _negative_part_monotone() -> None:
    from fractions import Fraction
    from math import comb

    for m, pa, coefficients in ((9, Fraction(1, 2), (3, -4, -1)), (12, Fraction(4, 5), (1, -2, Fraction(-1, 2)))):
        c0, c1, c2 = (Fraction(v) for v in coefficients)
        pa = Fraction(pa)
        previous = None
        for bb in range(m + 1):
            mb = m - bb
            negative = sum(comb(mb, aa) * pa**aa * (1 - pa) ** (mb - aa) * max(-(c0 * aa + c1 * bb + c2 * (mb - aa)), Fraction(0)) for aa in range(mb + 1))
            require(previous is None or negative >= previous, f"E[g_-|b] fell at b = {bb} (m = {m})")
            previous = negative
