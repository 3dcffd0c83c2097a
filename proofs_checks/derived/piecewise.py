"""Proof checks of the piecewise mechanism's statements (spec/derived/randomizers.py: BBGN19.Lem5.3.exact_piecewise,
exact.piecewise_partition_pair; reference `shuffle_spec.reference.randomizers.piecewise`, whose module doc states
the proof these steps make up): the constants of Wang et al. (ICDE 2019, Sec. III-B) and the LDP ratio, the
closed-form blanket, the worst pair by convex order, the monotonicity in h that makes rounding h up safe, and the
coarsened cell laws of the lower bound. Symbolic steps in SymPy, the rest in exact Fractions at rational h."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ..framework import assert_identity, assert_nonnegative, proof_check, require
from ...reference.randomizers.piecewise import PiecewiseMechanism, cell_parameters, partition_rows

UPPER = "BBGN19.Lem5.3.exact_piecewise"
LOWER = "exact.piecewise_partition_pair"
F = Fraction
H_CASES = [F(3, 2), F(7, 4), F(2), F(5, 2), F(3), F(7)]
T_GRID = [F(-1), F(-2, 3), F(-1, 5), F(0), F(1, 3), F(4, 5), F(1)]

h, e, a = sp.symbols("h e a", positive=True)
C = (h + 1) / (h - 1)
P = (h**2 - h) / (2 * h + 2)  # (e0 - e^(eps0/2)) / (2 e^(eps0/2) + 2) with e0 = h^2


def _left(t: sp.Expr) -> sp.Expr:
    return (C + 1) / 2 * t - (C - 1) / 2


def _y_grid(m: PiecewiseMechanism) -> list[Fraction]:
    return [-m.c + m.c * F(j, 40) for j in range(81)]


@proof_check(UPPER, "piecewise: the density integrates to 1, the centre piece has probability h/(h+1) (Algorithm 2's coin), the LDP ratio is h^2 = e^eps0, pieces inside [-C, C]")
def _constants() -> None:
    assert_identity(P * (C - 1) + P / h**2 * (C + 1), 1, "p (C - 1) + (p / e0) (C + 1) = 1")
    assert_identity(P * (C - 1), h / (h + 1), "centre probability e^(eps0/2)/(e^(eps0/2)+1)")
    assert_identity(P / (P / h**2), h**2, "density ratio on / off the piece")
    assert_identity(_left(-1), -C, "l(-1) = -C")
    assert_identity(_left(1) + C - 1, C, "r(1) = C")
    assert_identity(_left(-1) + C - 1, -1, "r(-1) = -1")
    assert_identity(_left(1), 1, "l(1) = 1")
    for m in map(PiecewiseMechanism, H_CASES):
        columns = [[m.density(t, y) for t in T_GRID] for y in _y_grid(m)[::4]]
        ratio = max(max(col) / min(col) for col in columns)
        require(ratio == m.e0, f"h = {m.h}: largest density ratio {ratio} on the grid, not e0")
        for t in T_GRID:
            require(sum(m.cell_probabilities(t, [F(-1), F(0), F(1)])) == 1, f"h = {m.h}, t = {t}: cells sum to 1")
            left, right = m.piece(t)
            require(-m.c <= left and right <= m.c, f"h = {m.h}, t = {t}: piece inside [-C, C]")


@proof_check(UPPER, "piecewise: inf_t density = p/e0 on [-C, C] (the pieces of -1 and 1 are disjoint), gamma = 2Cp/e0 = 1/h, the pair (-1, 1)'s three groups")
def _blanket() -> None:
    assert_identity(2 * C * P / h**2, 1 / h, "gamma = 2 C p / e0")
    assert_identity(2 * C * P, h, "alpha on the piece = p / omega")
    for m in map(PiecewiseMechanism, H_CASES):
        omega = 1 / (2 * m.c)
        for y in _y_grid(m):
            require(min(m.density(t, y) for t in (F(-1), F(1))) == m.p / m.e0, f"h = {m.h}, y = {y}: inf density")
        pair = m.replace_pairs()[0]
        require(pair.gamma == 2 * m.c * (m.p / m.e0) == 1 / m.h, f"h = {m.h}: gamma")
        # The groups from the densities: (alpha, beta) of each of the three intervals, omega-mass = length / 2C.
        built: dict[tuple[Fraction, Fraction], Fraction] = {}
        for lo, hi in ((-m.c, F(-1)), (F(-1), F(1)), (F(1), m.c)):
            mid = (lo + hi) / 2
            key = (m.density(F(-1), mid) / omega, m.density(F(1), mid) / omega)
            built[key] = built.get(key, F(0)) + (hi - lo) * omega
        groups = pair.groups
        require(built == {(groups.alpha[i], groups.beta[i]): groups.p[i] for i in range(len(groups.p))}, f"h = {m.h}: groups {built}")


def _l_law(m: PiecewiseMechanism, ee: Fraction, t: Fraction, t2: Fraction) -> list[tuple[Fraction, Fraction]]:
    """The law of L = (mu_t - e mu_t') / omega, W ~ omega uniform on [-C, C]: (value, probability) per interval."""
    omega = 1 / (2 * m.c)
    (l1, r1), (l2, r2) = m.piece(t), m.piece(t2)
    cuts = sorted({-m.c, m.c, l1, r1, l2, r2})
    return [((m.density(t, (x + y) / 2) - ee * m.density(t2, (x + y) / 2)) / omega, (y - x) * omega) for x, y in zip(cuts, cuts[1:], strict=False) if y > x]


@proof_check(UPPER, "piecewise: every pair (t, t')'s L is a mean-preserving contraction of the pair (-1, 1)'s (two-point spread; stop-loss transforms compared exactly)")
def _worst_pair() -> None:
    big, small = h, 1 / h  # mu / omega on and off the piece
    # Raising the non-overlap mass m moves equal masses from h(1 - e) and (1 - e)/h to h - e/h and 1/h - e h.
    assert_identity(big * (1 - e) + small * (1 - e), (big - e * small) + (small - e * big), "equal sums")
    assert_identity((big - e * small) - small * (1 - e), h - 1 / h, "outer top - inner top")
    assert_identity(big * (1 - e) - (small - e * big), h - 1 / h, "inner bottom - outer bottom")
    excess = sp.Symbol("excess", nonnegative=True)
    assert_nonnegative(sp.together((1 + excess) - 1 / (1 + excess)), "h - 1/h >= 0 for h = 1 + excess >= 1")
    for m in map(PiecewiseMechanism, H_CASES[:4]):
        for ee in (F(1), F(3, 2), m.e0 - F(1, 10)):
            worst = _l_law(m, ee, F(-1), F(1))
            points = sorted({v for v, _ in worst})
            for t, t2 in ((F(-1), F(1, 3)), (F(-1, 2), F(1, 2)), (F(0), F(1)), (F(1, 5), F(-4, 5))):
                other = _l_law(m, ee, t, t2)
                require(sum(v * w for v, w in other) == sum(v * w for v, w in worst) == 1 - ee, f"h = {m.h}: means")
                for s in points + [v for v, _ in other]:
                    mine = sum(((v - s) * w for v, w in other if v > s), F(0))
                    top = sum(((v - s) * w for v, w in worst if v > s), F(0))
                    require(mine <= top, f"h = {m.h}, e = {ee}, pair ({t}, {t2}), s = {s}: stop-loss {mine} > {top}")


def _z_law(hh: Fraction, ee: Fraction) -> list[tuple[Fraction, Fraction]]:
    """Z = h B L of Lemma 5.3 for the pair (-1, 1) (module doc of the reference): values and probabilities."""
    u, v = 1 / (hh * (hh + 1)), (hh - 1) / (hh * (hh + 1))
    return [(hh * hh - ee, u), (1 - ee, v), (1 - ee * hh * hh, u), (F(0), 1 - 2 * u - v)]


@proof_check(UPPER, "piecewise: Z = h B L has mean 1 - e for every h and its stop-loss transform is non-decreasing in h (rounding h up is safe)")
def _monotone_in_h() -> None:
    u, v = 1 / (h * (h + 1)), (h - 1) / (h * (h + 1))
    assert_identity(u * (h**2 - e) + v * (1 - e) + u * (1 - e * h**2), 1 - e, "E Z = 1 - e")
    assert_identity(1 - 2 * u - v, 1 - 1 / h, "mass of the atom at 0")
    # s >= 0: E(Z - s)_+ = u (h^2 - e - s)_+; s in [1 - e, 0]: + (1 - 1/h)|s|; below: E Z - s + u (s - 1 + e h^2)_+.
    # With a = e + s > 0 (resp. a = 1 - s > 0) each derivative's numerator is a positive polynomial in h.
    assert_identity(sp.together(sp.diff((h**2 - a) / (h**2 + h), h) * (h**2 + h) ** 2), h**2 + 2 * a * h + a, "d/dh of u (h^2 - a)")
    assert_identity(sp.together(sp.diff((e * h**2 - a) / (h**2 + h), h) * (h**2 + h) ** 2), e * h**2 + 2 * a * h + a, "d/dh of u (e h^2 - a)")
    assert_nonnegative(h**2 + 2 * a * h + a, "numerator >= 0")
    assert_nonnegative(e * h**2 + 2 * a * h + a, "numerator >= 0")
    assert_nonnegative(sp.diff(1 - 1 / h, h), "d/dh (1 - 1/h) >= 0")
    for h1, h2 in ((F(3, 2), F(7, 4)), (F(2), F(201, 100)), (F(5, 2), F(3)), (F(3), F(7))):
        for ee in (F(1), F(11, 10), F(2), F(9, 4), F(8)):
            z1, z2 = _z_law(h1, ee), _z_law(h2, ee)
            for s in sorted({v for v, _ in z1 + z2}):
                one = sum(((v - s) * w for v, w in z1 if v > s), F(0))
                two = sum(((v - s) * w for v, w in z2 if v > s), F(0))
                require(one <= two, f"h {h1} -> {h2}, e = {ee}, s = {s}: stop-loss falls")


@proof_check(LOWER, "piecewise: the coarsened cell laws of inputs -1, 0, 1 are (s+kappa, ., s), (s, ., s), (s, ., s+kappa) with the closed forms of each regime (and of the unit cells for -1, 1 at every h), and the rounded rows have that form")
def _cells() -> None:
    for m in map(PiecewiseMechanism, H_CASES):
        wide = m.h < 2
        tau = (m.c - 1) / 2 if wide else F(1)
        require(tau >= 1, f"h = {m.h}: tau >= 1")
        s, kappa = cell_parameters(m.h, wide)
        rows = [m.cell_probabilities(t, [-tau, tau]) for t in (F(-1), F(1), F(0))]
        expected = [[s + kappa, 1 - 2 * s - kappa, s], [s, 1 - 2 * s - kappa, s + kappa], [s, 1 - 2 * s, s]]
        require(rows == expected, f"h = {m.h}: cell laws {rows}")
        require((s + kappa) / s == m.e0, f"h = {m.h}: outer-cell ratio e0")
        # The unit cells (cut at +-1), inputs -1 and 1: the h >= 2 formulas at every h.
        s1, kappa1 = cell_parameters(m.h, False)
        unit = [m.cell_probabilities(t, [F(-1), F(1)]) for t in (F(-1), F(1))]
        require(unit == [[s1 + kappa1, 1 - 2 * s1 - kappa1, s1], [s1, 1 - 2 * s1 - kappa1, s1 + kappa1]], f"h = {m.h}: unit cell laws {unit}")
    for eps0 in (0.25, 1.0, 1.3862, 1.3863, 3.0, 12.0):
        rows = partition_rows(eps0)
        s2, kappa2 = rows[2][0], rows[0][0] - rows[2][0]
        require(rows[2] == [s2, 1 - 2 * s2, s2] and rows[1] == rows[0][::-1] and kappa2 > 0, f"eps0 = {eps0}: form")
        require(all(v > 0 for r in rows for v in r) and all(sum(r) == 1 for r in rows), f"eps0 = {eps0}: a row-stochastic matrix")
        unit = partition_rows(eps0, cells="unit")
        require(len(unit) == 2 and unit[1] == unit[0][::-1] and all(sum(r) == 1 and min(r) > 0 for r in unit), f"eps0 = {eps0}: unit rows")
