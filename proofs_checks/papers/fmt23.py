"""Proof checks for FMT23.stronger_clones: k-RR is in the errata class, the stronger clone probability
dominates FMT21's, and the spec's Sum agrees with the reference at small n."""

from __future__ import annotations

import sympy as sp

from ..framework import assert_identity, assert_nonnegative, proof_check, require
from ...reference.bounds.stronger_clones import stronger_clones_delta
from ...spec.papers import fmt23 as spec
from ...spec.symbols import eps, eps0, k, n

ID = "FMT23.stronger_clones"
e = sp.exp(eps0)
u = sp.Symbol("u", positive=True)  # e^eps0 = 1 + u for eps0 > 0


@proof_check(ID, "k-RR is in the errata class: min_x R(x)(y) (e^eps0+1) - max_{x0 != x1} (R(x0)(y)+R(x1)(y)) = 0")
def _krr_in_class() -> None:
    keep, other = e / (e + k - 1), 1 / (e + k - 1)
    # For output y the smallest probability is `other` (x != y); the largest sum over x0 != x1 is keep + other.
    slack = spec.class_condition().subs({spec.R_x: other, spec.R_x0: keep, spec.R_x1: other})
    assert_identity(slack.lhs - slack.rhs, 0, "k-RR class slack")
    # Any other choice of x0 != x1 has R(x0)+R(x1) <= keep + other.
    assert_nonnegative(((keep + other) - 2 * other).subs(sp.exp(eps0), 1 + u), "keep + other >= other + other")


@proof_check(ID, "2/(e^eps0+1) >= e^-eps0 (stronger clones have more clones)")
def _more_clones() -> None:
    difference = sp.together(spec.STRONGER_CLONE_PROBABILITY - sp.exp(-eps0))
    assert_identity(difference, (e - 1) / (e * (e + 1)), "2/(e+1) - 1/e")
    assert_nonnegative(((e - 1) / (e * (e + 1))).subs(sp.exp(eps0), 1 + u), "(e^eps0 - 1)/(e^eps0 (e^eps0 + 1)) >= 0")


@proof_check(ID, "spec Sum over c = reference certified delta at n = 5, 8 (eps0 = 3/2, eps = 1/5)")
def _spec_sum_matches_reference() -> None:
    for size in (5, 8):
        exact = sp.N(spec.DELTA_STRONGER_CLONES.subs({n: size, eps0: sp.Rational(3, 2), eps: sp.Rational(1, 5)}).doit(), 30)
        got = stronger_clones_delta(eps0=1.5, n=size, eps=0.2)
        require(got.lower <= float(exact) * (1 + 1e-15) and float(exact) * (1 - 1e-15) <= got.upper, f"n={size}: {exact} not in [{got.lower}, {got.upper}]")
