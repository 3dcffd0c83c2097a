"""Proof checks for the mechanism-specific composition (compose.binary_rr, compose.krr;
shuffle_spec.reference.composition.mechanism_rounds and .connect_the_dots): the steps C1-C5 of the
connect-the-dots construction from upper bounds, on exact instances.

- C1: the worst-case profile delta*(alpha) = max over ordered neighbouring pairs of H_alpha is convex and
  non-increasing in alpha, with delta*(0) = 1 (exact second differences, shuffled binary RR, n = 3 and 4);
- C2: H_alpha(P || Q) = 1 - alpha + alpha H_{1/alpha}(Q || P) (exact, every pair of the same instances);
- C4: the connect-the-dots masses (spec.derived.compose.ctd_pair_masses) make P' a probability distribution
  (telescoping identity, symbolic), and the pair's curve passes through the breakpoints;
- C3 + C5: from values ABOVE delta* at a few nodes (exact values raised, not convex), the hull's pair dominates
  delta* at every alpha checked (exact Fractions at 100 rational alphas), also when a node lies above the chord;
- the reference's float construction dominates the exact delta* of the same instance at those alphas, and the
  k-RR pair (BBGN19 Lemma 5.3 envelope) dominates the exact k-RR profile at k = 3, n = 3.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy as sp

from ..framework import assert_identity, proof_check, require
from ...reference.composition.connect_the_dots import connect_the_dots
from ...spec.derived import compose as spec

BINARY = "compose.binary_rr"
KRR = "compose.krr"
KEEP = Fraction(3, 4)  # binary RR with e^eps0 = 3


def _binomial(count: int, prob: Fraction) -> list[Fraction]:
    from math import comb

    return [comb(count, x) * prob**x * (1 - prob) ** (count - x) for x in range(count + 1)]


def _convolve(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _binary_rr_pairs(n: int) -> list[tuple[list[Fraction], list[Fraction]]]:
    """Every ordered neighbouring pair of n shuffled binary-RR counts (user 1 holds 1 vs 0, k ones among the
    others), both orders."""
    out = []
    for ones in range(n):
        others = _convolve(_binomial(ones, KEEP), _binomial(n - 1 - ones, 1 - KEEP))
        p = _convolve([1 - KEEP, KEEP], others)
        q = _convolve([KEEP, 1 - KEEP], others)
        out += [(p, q), (q, p)]
    return out


def _hockey(p: list[Fraction], q: list[Fraction], alpha: Fraction) -> Fraction:
    return sum((max(x - alpha * y, Fraction(0)) for x, y in zip(p, q, strict=True)), Fraction(0))


def _profile(pairs: list[tuple[list[Fraction], list[Fraction]]], alpha: Fraction) -> Fraction:
    return max(_hockey(p, q, alpha) for p, q in pairs)


ALPHAS = [Fraction(i, 80) for i in range(1, 401)]  # (0, 5]


@proof_check(BINARY, "C1: delta*(alpha) is non-increasing and convex in alpha, delta*(0) = 1 (exact, n = 3, 4, e^eps0 = 3, 200 alphas)")
def _profile_convex_non_increasing() -> None:
    for n in (3, 4):
        pairs = _binary_rr_pairs(n)
        # Equispaced from 0 (second differences test convexity only on an even grid).
        values = [_profile(pairs, Fraction(i, 40)) for i in range(201)]
        require(values[0] == 1, f"n={n}: delta*(0) = {values[0]}")
        require(all(values[i + 1] <= values[i] for i in range(len(values) - 1)), f"n={n}: not non-increasing")
        require(all(values[i] - 2 * values[i + 1] + values[i + 2] >= 0 for i in range(len(values) - 2)), f"n={n}: not convex")


@proof_check(BINARY, "C2: H_alpha(P||Q) = 1 - alpha + alpha H_{1/alpha}(Q||P) for every pair (exact, n = 3, 4)")
def _reversal_identity() -> None:
    for n in (3, 4):
        for p, q in _binary_rr_pairs(n):
            for alpha in ALPHAS[::20]:
                require(_hockey(p, q, alpha) == 1 - alpha + alpha * _hockey(q, p, 1 / alpha), f"n={n}, alpha={alpha}")


@proof_check(BINARY, "C4: sum_v P'(v) + P'(+inf) = 1 (telescoping) and the pair's curve passes through the breakpoints")
def _masses_are_a_distribution() -> None:
    xs = sp.symbols("x1:4", positive=True)
    ys = sp.symbols("y1:4", positive=True)
    p, q, top = spec.ctd_pair_masses(list(xs), list(ys))
    assert_identity(sum(p) + top, sp.Integer(1), "sum alpha_v Q'(v) + H(alpha_last)")
    # At rational breakpoints the curve equals the given values (Max is decided there).
    alphas = [sp.Rational(1, 2), sp.Integer(1), sp.Integer(3)]
    values = [sp.Rational(3, 5), sp.Rational(1, 4), sp.Rational(1, 50)]
    for alpha, value in zip(alphas, values, strict=True):
        require(spec.ctd_curve(alpha, alphas, values) == value, f"H({alpha}) != {value}")
    require(spec.ctd_curve(sp.Integer(0), alphas, values) == 1, "H(0) != 1")


def _lower_hull(points: list[tuple[Fraction, Fraction]]) -> list[tuple[Fraction, Fraction]]:
    hull: list[tuple[Fraction, Fraction]] = []
    for point in points:
        while len(hull) >= 2:
            (xa, ya), (xb, yb) = hull[-2], hull[-1]
            if (xb - xa) * (point[1] - ya) - (yb - ya) * (point[0] - xa) <= 0:
                hull.pop()
            else:
                break
        hull.append(point)
    return hull


@proof_check(BINARY, "C3 + C5: the hull pair of raised, non-convex node values dominates delta* at 100 alphas (exact, n = 4)")
def _hull_pair_dominates() -> None:
    pairs = _binary_rr_pairs(4)
    nodes = [Fraction(1), Fraction(6, 5), Fraction(3, 2), Fraction(2), Fraction(5, 2)]
    # Upper bounds: exact values raised by different amounts (so the points are not convex), then the mirror
    # points of C2 (replace-one is symmetric), then a running minimum (C1).
    raised = [_profile(pairs, x) * (1 + Fraction(j % 3, 10)) + Fraction(j % 2, 200) for j, x in enumerate(nodes)]
    points = [(1 / x, 1 - 1 / x + v / x) for x, v in zip(nodes[1:], raised[1:], strict=True)][::-1] + list(zip(nodes, raised, strict=True))
    points = [(Fraction(0), Fraction(1))] + points
    for j in range(1, len(points)):
        points[j] = (points[j][0], min(points[j][1], points[j - 1][1]))
    hull = _lower_hull(points)[1:]
    alphas = [sp.Rational(x.numerator, x.denominator) for x, _ in hull]
    values = [sp.Rational(y.numerator, y.denominator) for _, y in hull]
    p, q, top = spec.ctd_pair_masses(alphas, values)
    require(all(v >= 0 for v in q), "Q' masses >= 0 (convex hull)")
    require(sum(q) <= 1, "Q' total <= 1 (first slope >= -1)")
    for alpha in ALPHAS[::4]:
        curve = spec.ctd_curve(sp.Rational(alpha.numerator, alpha.denominator), alphas, values)
        exact = _profile(pairs, alpha)
        require(curve >= sp.Rational(exact.numerator, exact.denominator), f"alpha={alpha}: H = {curve} < delta* = {exact}")


@proof_check(BINARY, "the reference's certified construction dominates the exact delta* (n = 4, nodes eps = i/16, 200 alphas)")
def _reference_pair_dominates() -> None:
    pairs = _binary_rr_pairs(4)
    step = 1 / 16
    nodes = [i * step for i in range(18)]  # up to eps0 = log 3 ~ 1.0986
    import math

    # Exact values at e^eps are irrational: bound them above by delta* at a rational alpha just below e^eps
    # (delta* is non-increasing).
    upper = [float(_profile(pairs, Fraction(math.exp(x)) * Fraction(999999, 1000000))) * (1 + 1e-12) for x in nodes]
    pair = connect_the_dots(step, nodes, upper, eps0=math.log(3))
    losses = pair.index * pair.step
    for alpha in ALPHAS[::2]:
        exact = float(_profile(pairs, alpha))
        value = pair.inf_mass + float(np.sum(np.maximum(pair.q_mass * (np.exp(losses) - float(alpha)), 0.0)))
        require(value >= exact * (1 - 1e-12), f"alpha={alpha}: reference pair {value} < delta* = {exact}")


@proof_check(KRR, "the k-RR dominating pair (Lemma 5.3 envelope + connect the dots) dominates the exact profile (k = 3, n = 3, e^eps0 = 3, 50 alphas)")
def _krr_pair_dominates() -> None:
    import math

    from ...reference.composition.mechanism_rounds import dominating_pair
    from ...reference.exact.krr import exact_shuffled_krr_delta

    pair = dominating_pair("krr", eps0=math.log(3), n=3, k=3)
    losses = pair.index * pair.step
    for alpha in ALPHAS[::8]:
        # alpha < 1 through C2 (the relation is symmetric): delta*(alpha) = 1 - alpha + alpha delta*(1/alpha).
        inner = exact_shuffled_krr_delta(3, Fraction(3), 3, max(alpha, 1 / alpha))
        exact = float(inner if alpha >= 1 else 1 - alpha + alpha * inner)
        value = pair.inf_mass + float(np.sum(np.maximum(pair.q_mass * (np.exp(losses) - float(alpha)), 0.0)))
        # e^eps0 of the float log(3) is 3 within 1e-15 relative: a 1e-9 relative slack covers it.
        require(value >= exact * (1 - 1e-9), f"alpha={alpha}: pair {value} < exact k-RR delta* = {exact}")
