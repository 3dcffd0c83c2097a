"""Proof checks of the structured randomizers' statements (spec/derived/randomizers.py): the LDP level of each
mechanism checked exactly on small domains by full enumeration of its matrix, the closed-form blanket
decomposition against the matrix, the exact identities of the groups, and the post-processing channels that make
rounding e^eps0 to a rational safe."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import sympy as sp

from ..framework import assert_identity, assert_nonnegative, proof_check, require
from ...reference.randomizers.unary import UnaryEncoding

UNARY_UPPER = "BBGN19.Lem5.3.exact_unary"
UNARY_LOWER = "exact.unary_pattern_pair"

F = Fraction
# Exact unary encodings: symmetric RAPPOR with per-bit ratios 2, 4, 9 (p = h/(h+1)); OUE with e^eps0 = 3, 7.
UNARY_CASES = [(F(2, 3), F(1, 3)), (F(4, 5), F(1, 5)), (F(9, 10), F(1, 10)), (F(1, 2), F(1, 4)), (F(1, 2), F(1, 8))]


def _max_ratio(rows: list[list[Fraction]]) -> Fraction:
    return max(a[y] / b[y] for a in rows for b in rows for y in range(len(a)))


@proof_check(UNARY_UPPER, "unary encoding: the LDP ratio of the full d x 2^d matrix is p(1-q)/((1-p)q) (d = 2..4, exact)")
def _unary_ldp_ratio() -> None:
    for p, q in UNARY_CASES:
        for d in (2, 3, 4):
            encoding = UnaryEncoding(p, q, d)
            ratio = _max_ratio(encoding.rows())
            require(ratio == p * (1 - q) / ((1 - p) * q) == encoding.ratio, f"p={p}, q={q}, d={d}: matrix ratio {ratio}")
    # The literature's parameters: SUE / symmetric RAPPOR p = h/(h+1), q = 1/(h+1) gives h^2 = e^eps0 with
    # h = e^(eps0/2); OUE p = 1/2, q = 1/(e0+1) gives e0.
    h, e0 = sp.symbols("h e0", positive=True)
    def closed(pp: sp.Expr, qq: sp.Expr) -> sp.Expr:
        return pp * (1 - qq) / ((1 - pp) * qq)

    assert_identity(closed(h / (h + 1), 1 / (h + 1)), h**2, "SUE ratio")
    assert_identity(closed(sp.Rational(1, 2), 1 / (e0 + 1)), e0, "OUE ratio")


@proof_check(UNARY_UPPER, "unary encoding: gamma omega <= mu_x (gamma = g(0), omega = all-zero report) and the pair groups of the full matrix are (g(i), g(j), b(i) b(j))")
def _unary_decomposition() -> None:
    for p, q in UNARY_CASES:
        for d in (2, 3, 4):
            encoding = UnaryEncoding(p, q, d)
            rows = encoding.rows()
            outputs = list(itertools.product((0, 1), repeat=d))
            omega = [math.prod(((q if b else 1 - q) for b in y), start=F(1)) for y in outputs]
            require(sum(omega) == 1, "omega sums to 1")
            pair = encoding.replace_pairs()[0]
            require(all(pair.gamma * w <= row[i] for row in rows for i, w in enumerate(omega)), f"gamma omega <= mu_x fails at p={p}, q={q}, d={d}")
            for x, x2 in itertools.permutations(range(d), 2):
                merged: dict[tuple[Fraction, Fraction], Fraction] = {}
                for i, w in enumerate(omega):
                    key = (rows[x][i] / w, rows[x2][i] / w)
                    merged[key] = merged.get(key, F(0)) + w
                closed = dict(zip(zip(pair.groups.alpha, pair.groups.beta, strict=True), pair.groups.p, strict=True))
                require(merged == closed, f"groups of ({x}, {x2}) at p={p}, q={q}, d={d}: {merged} vs {closed}")
    # Symbolically: sum p = sum p alpha = sum p beta = 1.
    p, q = sp.symbols("p q", positive=True)
    g = {1: p / q, 0: (1 - p) / (1 - q)}
    b = {1: q, 0: 1 - q}
    cells = [(i, j) for i in (0, 1) for j in (0, 1)]
    assert_identity(sum(b[i] * b[j] for i, j in cells), 1, "sum p")
    assert_identity(sum(b[i] * b[j] * g[i] for i, j in cells), 1, "sum p alpha")
    assert_identity(sum(b[i] * b[j] * g[j] for i, j in cells), 1, "sum p beta")


@proof_check(UNARY_UPPER, "unary encoding, rounding: the mechanism at a smaller e^eps0 is a per-bit post-processing of the one at a larger")
def _unary_monotone_channels() -> None:
    # Symmetric RAPPOR: flip probabilities a then t compose to a(1-t) + (1-a)t, which runs over [a, 1/2] as t runs over [0, 1/2].
    a, t = sp.symbols("a t", nonnegative=True)
    composed = a * (1 - t) + (1 - a) * t
    assert_identity(composed.subs(t, 0), a, "no second flip")
    assert_identity(composed.subs(t, sp.Rational(1, 2)), sp.Rational(1, 2), "a fair second flip")
    assert_nonnegative(sp.diff(composed, t).subs(a, sp.Rational(1, 2) - sp.Symbol("s", nonnegative=True)), "composed flip increases in t when a <= 1/2")
    # OUE from q to q' (q <= q' <= 1/2): Pr[1|1] = (1-q-q')/(1-2q), Pr[1|0] = 1 - Pr[1|1].
    q, q2 = sp.symbols("q q2", positive=True)
    keep = (1 - q - q2) / (1 - 2 * q)
    assert_identity(sp.Rational(1, 2) * keep + sp.Rational(1, 2) * (1 - keep), sp.Rational(1, 2), "the hot bit stays Bern(1/2)")
    assert_identity(q * keep + (1 - q) * (1 - keep), q2, "the cold bit becomes Bern(q')")
    for qq, qq2 in ((F(1, 8), F(1, 4)), (F(1, 100), F(49, 100)), (F(1, 3), F(1, 3))):
        value = (1 - qq - qq2) / (1 - 2 * qq)
        require(0 <= value <= 1, f"channel probability {value} at q={qq}, q'={qq2}")


@proof_check(UNARY_LOWER, "unary encoding: the pattern rows are the bits at (x, x', z) of the full matrix (a post-processing)")
def _unary_pattern() -> None:
    for p, q in UNARY_CASES[:3]:
        encoding = UnaryEncoding(p, q, 4)
        rows = encoding.rows()
        outputs = list(itertools.product((0, 1), repeat=4))
        patterns = list(itertools.product((0, 1), repeat=3))
        projected = [[sum((row[i] for i, y in enumerate(outputs) if y[:3] == b), F(0)) for b in patterns] for row in rows[:3]]
        require(projected == encoding.pattern_rows(), f"pattern rows at p={p}, q={q}")
