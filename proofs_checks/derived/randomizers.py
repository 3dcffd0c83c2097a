"""Proof checks of the structured randomizers' statements (spec/derived/randomizers.py): the LDP level of each
mechanism checked exactly on small domains by full enumeration of its matrix, the closed-form blanket
decomposition against the matrix, the exact identities of the groups, and the post-processing channels that make
rounding e^eps0 to a rational safe."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import sympy as sp

from ..framework import assert_identity, assert_nonnegative, proof_check, require
from ...reference.randomizers.hadamard import HadamardResponse
from ...reference.randomizers.local_hashing import LocalHashing
from ...reference.randomizers.subset_selection import SubsetSelection
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


LH_UPPER, LH_LOWER = "BBGN19.Lem5.3.exact_local_hashing", "exact.local_hashing_pattern_pair"
HR_UPPER, HR_LOWER = "BBGN19.Lem5.3.exact_hadamard", "exact.hadamard_pattern_pair"
SS_UPPER, SS_LOWER = "BBGN19.Lem5.3.exact_subset", "exact.subset_pattern_pair"


def _structured_cases() -> list[tuple[str, Any]]:
    return [
        (LH_UPPER, LocalHashing(F(3), 2, 3)),
        (LH_UPPER, LocalHashing(F(5), 3, 3)),
        (HR_UPPER, HadamardResponse(F(3), 4)),
        (HR_UPPER, HadamardResponse(F(7, 2), 3)),
        (HR_UPPER, HadamardResponse(F(2), 7)),
        (SS_UPPER, SubsetSelection(F(3), 4, 2)),
        (SS_UPPER, SubsetSelection(F(4), 5, 2)),
        (SS_UPPER, SubsetSelection(F(9, 4), 6, 1)),
    ]


def _check_structured(statement: str) -> None:
    for sid, mechanism in _structured_cases():
        if sid != statement:
            continue
        rows = mechanism.rows()
        ratio = _max_ratio(rows)
        require(ratio == mechanism.ratio, f"{mechanism!r}: matrix LDP ratio {ratio}")
        w = F(1, len(rows[0]))  # omega is uniform on the outputs in the three closed forms
        pair = mechanism.replace_pairs()[0]
        require(all(pair.gamma * w <= v for row in rows for v in row), f"{mechanism!r}: gamma omega <= mu_x")
        closed = dict(zip(zip(pair.groups.alpha, pair.groups.beta, strict=True), pair.groups.p, strict=True))
        for x, x2 in itertools.permutations(range(mechanism.d), 2):
            merged: dict[tuple[Fraction, Fraction], Fraction] = {}
            for y in range(len(rows[0])):
                key = (rows[x][y] / w, rows[x2][y] / w)
                merged[key] = merged.get(key, F(0)) + w
            require(merged == closed, f"{mechanism!r}: groups of ({x}, {x2})")


@proof_check(LH_UPPER, "local hashing (all functions [d] -> [g]): LDP ratio e0 by full enumeration; gamma = g/(e0+g-1) with uniform omega is valid; every pair's groups are the closed form")
def _local_hashing() -> None:
    _check_structured(LH_UPPER)
    e, gg = sp.symbols("e gg", positive=True)
    b = {1: 1 / gg, 0: 1 - 1 / gg}
    alpha = {1: gg * e / (e + gg - 1), 0: gg / (e + gg - 1)}
    assert_identity(sum(b[i] * b[j] * alpha[i] for i in (0, 1) for j in (0, 1)), 1, "sum p alpha")


@proof_check(HR_UPPER, "Hadamard response: LDP ratio e0 by full enumeration (d = 3, 4, 7); gamma = 2/(1+e0) with uniform omega is valid; every pair's groups are four of mass 1/4")
def _hadamard() -> None:
    _check_structured(HR_UPPER)
    e = sp.Symbol("e", positive=True)
    alpha = {1: 2 * e / (1 + e), 0: 2 / (1 + e)}
    assert_identity(sum(sp.Rational(1, 4) * alpha[i] for i in (0, 1) for _ in (0, 1)), 1, "sum p alpha")


@proof_check(SS_UPPER, "subset selection: LDP ratio e0 by full enumeration; gamma = d/(e0 k + d - k) with uniform omega is valid; the groups are the hypergeometric membership of (x, x')")
def _subset() -> None:
    _check_structured(SS_UPPER)
    e, dd, kk = sp.symbols("e dd kk", positive=True)
    gamma = dd / (e * kk + dd - kk)
    law = {(1, 1): kk * (kk - 1) / (dd * (dd - 1)), (1, 0): kk * (dd - kk) / (dd * (dd - 1)), (0, 1): kk * (dd - kk) / (dd * (dd - 1)), (0, 0): (dd - kk) * (dd - kk - 1) / (dd * (dd - 1))}
    assert_identity(sum(law.values()), 1, "sum p")
    assert_identity(sum(p * gamma * (e if i else 1) for (i, _), p in law.items()), 1, "sum p alpha")


PATTERNS = list(itertools.product((0, 1), repeat=3))


@proof_check(LH_LOWER, "local hashing: the pattern rows ([y = H(x)], [y = H(x')], [y = H(z)]) are a projection of the full matrix (all functions [3] -> [2])")
def _local_hashing_pattern() -> None:
    lh = LocalHashing(F(3), 2, 3)
    functions = list(itertools.product(range(2), repeat=3))
    outputs = [(h, y) for h in functions for y in range(2)]
    rows = lh.rows()
    projected = [[sum((rows[w][i] for i, (h, y) in enumerate(outputs) if tuple(int(h[j] == y) for j in range(3)) == b), F(0)) for b in PATTERNS] for w in range(3)]
    require(projected == lh.pattern_rows(), "local hashing pattern rows")


@proof_check(HR_LOWER, "Hadamard response: the pattern rows (membership in C for Sylvester rows 1, 2, 4) are a projection of the full matrix (d = 4)")
def _hadamard_pattern() -> None:
    hr = HadamardResponse(F(3), 4)
    rows = hr.rows()
    chosen = (0, 1, 3)  # inputs whose Sylvester rows are 1, 2, 4
    projected = [[sum((rows[w][y] for y in range(hr.size) if tuple(int(bin((r + 1) & y).count("1") % 2 == 0) for r in chosen) == b), F(0)) for b in PATTERNS] for w in chosen]
    require(projected == hr.pattern_rows(), "Hadamard pattern rows")


@proof_check(HR_LOWER, "Hadamard response: the dependent triple (Sylvester rows 1, 2, 3 = 1 XOR 2): membership in C_z is [b_x = b_x'] and the 3 x 4 rows are a projection of the full matrix (d = 4, 7, 9)")
def _hadamard_dependent_pattern() -> None:
    for d in (4, 7, 9):
        hr = HadamardResponse(F(5, 2), d)
        rows = hr.rows()
        member = [[bin((w + 1) & y).count("1") % 2 == 0 for y in range(hr.size)] for w in range(3)]
        require(all(member[2][y] == (member[0][y] == member[1][y]) for y in range(hr.size)), f"C_z determined by C_x, C_x' at d = {d}")
        projected = [[sum((rows[w][y] for y in range(hr.size) if (int(member[0][y]), int(member[1][y])) == b), F(0)) for b in itertools.product((0, 1), repeat=2)] for w in range(3)]
        require(projected == hr.dependent_pattern_rows(), f"Hadamard dependent pattern rows at d = {d}")


@proof_check(UNARY_LOWER, "the third-bit partitions of the 3-bit patterns are partitions (merging them is a function of one report: a post-processing), bins A and B hold only z-unset patterns, and merging commutes with projecting: the merged pattern law of the full matrix is the merged pattern rows")
def _third_bit_partitions() -> None:
    from ...reference.lower_bounds.structured import PATTERNS as COLUMNS, third_bit_partitions

    encoding = UnaryEncoding(F(4, 5), F(1, 5), 4)
    rows = encoding.rows()
    outputs = list(itertools.product((0, 1), repeat=4))
    pattern = encoding.pattern_rows()
    for x, x2, z in itertools.permutations(range(3)):
        for bins in third_bit_partitions(x, x2, z, list(COLUMNS)):
            require(sorted(i for b in bins for i in b) == list(range(8)), f"a partition at roles {(x, x2, z)}")
            require(all(COLUMNS[i][z] == 0 for b in bins[:2] for i in b), "bins A, B hold only patterns with the bit at z unset")
            for w in range(3):
                merged_full = [sum((rows[w][i] for i, y in enumerate(outputs) if PATTERNS.index(y[:3]) in b), F(0)) for b in bins]
                merged_pattern = [sum((pattern[w][i] for i in b), F(0)) for b in bins]
                require(merged_full == merged_pattern, "merging the projected patterns = merging the full reports")


@proof_check(SS_LOWER, "subset selection: the pattern rows (membership of x, x', z) are a projection of the full matrix (d = 5, k = 2)")
def _subset_pattern() -> None:
    ss = SubsetSelection(F(4), 5, 2)
    subsets = list(itertools.combinations(range(5), 2))
    rows = ss.rows()
    projected = [[sum((rows[w][i] for i, s in enumerate(subsets) if tuple(int(j in s) for j in range(3)) == b), F(0)) for b in PATTERNS] for w in range(3)]
    require(projected == ss.pattern_rows(), "subset selection pattern rows")


RAISED = "BBGN19.Lem5.3.exact_raised"


@proof_check(RAISED, "raising: c_j - c_i = (alpha_j - alpha_i) - e (beta_j - beta_i) is >= 0 for every e >= 1 under the hypotheses, and (s + c_j)_+ >= (s + c_i)_+ then (the coupled sums)")
def _raised_monotone() -> None:
    a_i, b_i, a_j, b_j, e, s = sp.symbols("a_i b_i a_j b_j e s", real=True)
    u, v, w = sp.symbols("u v w", nonnegative=True)  # beta_i - beta_j = u, (alpha_j - beta_j) - (alpha_i - beta_i) = v, e - 1 = w
    difference = ((a_j - e * b_j) - (a_i - e * b_i)).subs({b_i: b_j + u, a_j: a_i - b_i + b_j + v}).subs({e: 1 + w})
    assert_nonnegative(sp.expand(difference), "c_j - c_i = v + u w >= 0")
    for c_i, c_j in ((-3, -1), (-1, 2), (1, 4)):
        for total in (-5, -1, 0, 2):
            require(max(total + c_j, 0) >= max(total + c_i, 0), "s -> s_+ non-decreasing")


@proof_check(RAISED, "D'_N = E[(S_N)_+] / N is non-increasing in N for i.i.d. terms (exchangeability and convexity), checked exactly on the raised unary groups for N <= 6")
def _raised_decreasing() -> None:
    from ...reference.randomizers.raised import raised_groups

    groups = UnaryEncoding(F(1, 2), F(1, 11), 4).replace_pairs()[0].groups
    for _, _, raised in raised_groups(groups):
        for e in (F(3, 2), F(4)):
            previous = None
            for big_n in range(1, 7):
                total = F(0)
                for counts in itertools.product(range(big_n + 1), repeat=len(raised.p)):
                    if sum(counts) != big_n:
                        continue
                    weight = F(math.factorial(big_n))
                    for c, prob in zip(counts, raised.p, strict=True):
                        weight = weight / math.factorial(c) * prob**c
                    total += weight * max(sum(((a - e * b) * c for a, b, c in zip(raised.alpha, raised.beta, counts, strict=True)), F(0)), F(0))
                value = total / big_n
                require(previous is None or value <= previous, f"D'_N non-increasing at N = {big_n}")
                previous = value


DUCHI = "exact.shuffled_duchi"


@proof_check(DUCHI, "Duchi's mechanism: Pr[+B | t] spans [q, p] (binary RR at t = +-1), LDP ratio e0")
def _duchi_rows() -> None:
    e, tt = sp.symbols("e tt", positive=True)
    pi = sp.Rational(1, 2) + tt * (e - 1) / (2 * (e + 1))
    assert_identity(pi.subs(tt, 1), e / (e + 1), "t = 1 keeps the bit w.p. e0/(e0+1)")
    assert_identity(pi.subs(tt, -1), 1 / (e + 1), "t = -1 gives 1/(e0+1)")
    assert_identity((pi.subs(tt, 1) / pi.subs(tt, -1)), e, "LDP ratio e0")


@proof_check(DUCHI, "Duchi's mechanism: P - e Q = c (A - B) + (1 - e) M <= c (A - e B) with M >= c B (c = lambda - lambda' <= 1 - lambda')")
def _duchi_mixture() -> None:
    lam, lam2, e, a, b = sp.symbols("lam lam2 e a b", nonnegative=True)
    p_minus_eq = (lam * a + (1 - lam) * b) - e * (lam2 * a + (1 - lam2) * b)
    c = lam - lam2
    m = lam2 * a + (1 - lam2) * b
    assert_identity(p_minus_eq, c * (a - b) + (1 - e) * m, "the decomposition of P - eQ")
    # c (A - eB) - (P - eQ) = (e - 1) (M - c B) >= 0 when e >= 1 and M >= cB; M - cB = lam2 A + (1 - lam) B.
    assert_identity(c * (a - e * b) - p_minus_eq, (e - 1) * (m - c * b), "gap = (e - 1)(M - cB)")
    assert_identity(m - c * b, lam2 * a + (1 - lam) * b, "M - cB = lam' A + (1 - lam) B >= 0")
