"""Proof checks for FMT21's closed forms (Thm 2.1 variants, Prop 2.2). The exact shuffled statements that are
tested against FMT21's bounds have their own checks: `proofs_checks/derived/exact_finite.py`."""

from __future__ import annotations

import itertools
from functools import cache

import sympy as sp

from ..framework import assert_identity, proof_check, require
from ...spec.papers.fmt21 import closed_forms as cf
from ...spec.symbols import delta, delta0, eps0, n

# u = e^eps0 - 1 > 0 and v = G > 0 make every sign question a polynomial one with positive variables.
u, v = sp.symbols("u v", positive=True)
E0 = sp.exp(eps0)


def _in_u_v(expr: sp.Expr) -> sp.Expr:
    """expr with e^eps0 -> 1 + u and G -> v (the G inside the Apple prefactor included)."""
    return sp.simplify(expr.subs(cf.G, v).subs(sp.exp(-eps0), 1 / (1 + u)).subs(E0, 1 + u))


def _assert_positive_rational(expr: sp.Expr, what: str) -> None:
    """expr, rational in the positive u, v, is >= 0: numerator and denominator polynomials have only
    non-negative coefficients (so are non-negative for positive u, v)."""
    numerator, denominator = sp.fraction(sp.factor(sp.together(expr)))
    for part, name in ((numerator, "numerator"), (denominator, "denominator")):
        poly = sp.Poly(sp.expand(part), u, v)
        require(all(c >= 0 for c in poly.coeffs()), f"{what}: {name} {sp.sstr(part)} has a negative coefficient")


s_half = sp.Symbol("s", positive=True)


def _half_exponent(expr: sp.Expr) -> sp.Expr:
    """expr with eps0 = 2 log(s): every exp(a eps0) becomes the power s^(2a), so identities are rational."""
    return sp.simplify(sp.powsimp(sp.expand_power_exp(expr.subs(eps0, 2 * sp.log(s_half)))))


@cache
def _prefactors() -> dict[str, sp.Expr]:
    """The four prefactors in u, v; simplified when a check first needs them (not at import: every test worker
    imports this module to list the checks)."""
    return {
        "seed": _in_u_v(cf.PREFACTOR_SEED),
        "focs": _in_u_v(cf.PREFACTOR_FOCS),
        "apple": _in_u_v(cf.PREFACTOR_APPLE),
        "abstract": _in_u_v(1 - sp.exp(-eps0)),
    }


@proof_check("FMT21.Thm2.1.focs", "prefactor (e^eps0-1)/(e^eps0+1) = (1-e^-eps0)/(1+e^-eps0) = tanh(eps0/2)")
def focs_prefactor_forms() -> None:
    assert_identity(cf.PREFACTOR_FOCS, (1 - sp.exp(-eps0)) / (1 + sp.exp(-eps0)), "focs prefactor, e^-eps0 form")
    # With eps0 = 2 log(s), s = e^{eps0/2} > 1, both sides are rational functions of s.
    assert_identity(_half_exponent(cf.PREFACTOR_FOCS), _half_exponent(sp.tanh(eps0 / 2).rewrite(sp.exp)), "focs prefactor = tanh(eps0/2)")


@proof_check("FMT21.Thm2.1", "seed prefactor 1 - e^{-2 eps0} = (1 - e^-eps0)(1 + e^-eps0)")
def seed_prefactor_factorises() -> None:
    assert_identity(cf.PREFACTOR_SEED, (1 - sp.exp(-eps0)) * (1 + sp.exp(-eps0)), "seed prefactor")


@proof_check("FMT21.Thm2.1", "prefactor ordering focs <= apple <= 1 - e^-eps0 <= seed for all eps0 > 0, G > 0")
def prefactor_ordering() -> None:
    chain = ("focs", "apple", "abstract", "seed")
    for lower, upper in itertools.pairwise(chain):
        _assert_positive_rational(_prefactors()[upper] - _prefactors()[lower], f"{upper} - {lower}")
    _assert_positive_rational(_prefactors()["focs"], "focs prefactor > 0")


@proof_check("FMT21.Thm2.1", "the bound increases with the prefactor, so the ordering carries to eps")
def eps_monotone_in_prefactor() -> None:
    F = sp.Symbol("F", positive=True)
    derivative = sp.diff(sp.log(1 + F * v), F)
    _assert_positive_rational(derivative, "d eps / d F")


@proof_check("FMT21.Thm2.1.focs", "large-n rate: eps sqrt(n) -> 8 tanh(eps0/2) sqrt(e^eps0 log(4/delta))")
def large_n_rate() -> None:
    for variant, expr, prefactor in (("focs", cf.EPS_FOCS, cf.PREFACTOR_FOCS), ("seed", cf.EPS_SEED, cf.PREFACTOR_SEED)):
        # eps = log(1 + F G) with G = a / sqrt(n) + b / n: substitute n = 1/t^2 and expand at t = 0.
        t = sp.Symbol("t", positive=True)
        scaled = sp.series((expr * sp.sqrt(n)).subs(n, 1 / t**2), t, 0, 1).removeO()
        expected = prefactor * 8 * sp.sqrt(E0 * sp.log(4 / delta))
        assert_identity(_half_exponent(scaled.rewrite(sp.exp)), _half_exponent(expected), f"{variant}: limit of eps sqrt(n)")


@proof_check("FMT21.Thm2.1", "at the regime's edge e^eps0 = n/(16 log(2/delta)), G <= 2 sqrt(2) + 1/(2 log 2) for delta <= 1")
def bounded_at_the_edge() -> None:
    L = sp.Symbol("L", positive=True)  # L = log(2/delta) >= log 2 for delta <= 1
    at_edge = sp.simplify(cf.G.subs(E0, n / (16 * sp.log(2 / delta))).subs(sp.log(4 / delta), sp.log(2) + L).subs(sp.log(2 / delta), L))
    assert_identity(at_edge, 2 * sp.sqrt((sp.log(2) + L) / L) + 1 / (2 * L), "G at the edge")
    # Both terms decrease in L, so the largest value is at L = log 2.
    require(sp.diff(at_edge, L).subs(L, sp.log(2)).evalf() < 0 and sp.simplify(sp.diff((sp.log(2) + L) / L, L)) == -sp.log(2) / L**2, "the edge derivative is not negative at L = log 2, or d/dL (log 2 + L)/L != -log 2/L^2")
    assert_identity(at_edge.subs(L, sp.log(2)), 2 * sp.sqrt(2) + 1 / (2 * sp.log(2)), "G at the edge, delta = 1")


@proof_check("FMT21.Prop2.2.delta_prime", "delta' = delta at delta0 = 0 (pure LDP: Thm 2.1)")
def prop22_pure_case() -> None:
    assert_identity(cf.DELTA_PRIME_SEED.subs(delta0, 0), delta, "seed delta' at delta0 = 0")
    assert_identity(cf.DELTA_PRIME_FOCS.subs(delta0, 0), delta, "full-version delta' at delta0 = 0")


@proof_check("FMT21.Prop2.2.delta_prime", "delta' >= delta + 2 n delta0 >= delta for both versions (eps >= 0): the value is never certified below the input delta, and nothing is certified once 2 n delta0 >= 1")
def prop22_delta_prime_at_least_delta() -> None:
    # delta' - delta - 2 n delta0 = ((e^eps + 1) c - 2) n delta0 with c = 1 + e^-eps0 or 1 + e^-eps0 / 2 > 1
    # and e^eps + 1 >= 2 at eps >= 0: with w = e^eps - 1 >= 0 and t = e^-eps0 > 0 it is a polynomial in w, t
    # with non-negative coefficients times n delta0 >= 0.
    eps_sym = sp.Symbol("eps", nonnegative=True)
    w, t = sp.symbols("w t", nonnegative=True)
    for name, registered, c in (("seed", cf.DELTA_PRIME_SEED, 1 + sp.exp(-eps0)), ("full version", cf.DELTA_PRIME_FOCS, 1 + sp.exp(-eps0) / 2)):
        general = delta + (sp.exp(eps_sym) + 1) * c * n * delta0
        excess = sp.expand((general - delta - 2 * n * delta0) / (n * delta0))
        in_w_t = sp.expand(excess.subs(sp.exp(-eps0), t).subs(sp.exp(eps_sym), 1 + w))
        poly = sp.Poly(in_w_t, w, t)
        require(all(coefficient >= 0 for coefficient in poly.coeffs()), f"{name}: (delta' - delta - 2 n delta0)/(n delta0) = {in_w_t} has a negative coefficient")
        # The registered delta' is this general form at the statement's own eps (>= 0: a log of a number >= 1).
        cf_eps = cf.EPS_SEED if name == "seed" else cf.EPS_FOCS
        assert_identity(registered, general.subs(eps_sym, cf_eps), f"{name}: registered delta' is the general form at its eps")


@proof_check("FMT21.Prop2.2.focs_delta_prime", "full version's delta' <= seed's: (1 + e^-eps0/2) <= (1 + e^-eps0) and eps_focs <= eps_seed")
def prop22_versions_ordered() -> None:
    eps_sym = sp.Symbol("eps", nonnegative=True)
    seed_at = delta + (sp.exp(eps_sym) + 1) * (1 + sp.exp(-eps0)) * n * delta0
    focs_at = delta + (sp.exp(eps_sym) + 1) * (1 + sp.exp(-eps0) / 2) * n * delta0
    assert_identity(seed_at - focs_at, (sp.exp(eps_sym) + 1) * sp.exp(-eps0) * n * delta0 / 2, "difference at equal eps")
    # delta' increases with eps (d/d eps = e^eps c n delta0 >= 0), and eps_focs <= eps_seed (prefactor_ordering).
    assert_identity(sp.diff(focs_at, eps_sym), sp.exp(eps_sym) * (1 + sp.exp(-eps0) / 2) * n * delta0, "d delta'/d eps")
    assert_identity(cf.DELTA_PRIME_FOCS, focs_at.subs(eps_sym, cf.EPS_FOCS), "registered full-version delta'")
    assert_identity(cf.DELTA_PRIME_SEED, seed_at.subs(eps_sym, cf.EPS_SEED), "registered seed delta'")
