"""FMT21: the numerical clone bound (`FMT21.clones_numeric`), Appendix E of the full version.

The reduction pair (the extended abstract's Sec. 3 "Clones, empirical"; full version Appendix E): C ~ Bin(n-1, q)
clones, A | C ~ Bin(C, 1/2), Delta ~ Bern(alpha0); P = (A+Delta, C-A+1-Delta), Q = (A+1-Delta, C-A+Delta).
Given C = c the first coordinate a has P_c(a) = alpha0 b_c(a) + (1-alpha0) b_c(a-1) and
Q_c(a) = (1-alpha0) b_c(a) + alpha0 b_c(a-1), b_c the Bin(c, 1/2) pmf. The per-c hockey-stick divergence
has the closed-form cutoff of Algorithm B ("onestep"); the bound is its Bin(n-1, q) mixture.
`FMT23.stronger_clones` (shuffle_spec.spec.papers.fmt23) reuses these expressions with q = 2/(e^eps0+1).
"""

from __future__ import annotations

import sympy as sp

from ...statement import Direction, Kind, Source, Statement
from ...symbols import delta, eps, eps0, n

__all__ = [
    "STATEMENTS",
    "alpha0",
    "beta_cutoff",
    "clone_delta",
    "cutoff",
    "eps_q",
    "pair_pmfs",
    "per_count_divergence",
    "per_count_divergence_brute",
]

c = sp.Symbol("c", integer=True, nonnegative=True)  # number of clones
a = sp.Symbol("a", integer=True)  # first coordinate of the pair

alpha0 = sp.exp(eps0) / (sp.exp(eps0) + 1)
# The cutoff of Algorithm B (full version Appendix E; `onestep` in the authors' code): eps_q and
# beta_+ = 1/(e^eps_q + 1); beta_cutoff is its simplified form.
eps_q = sp.log(((sp.exp(eps) + 1) * alpha0 - 1) / ((sp.exp(eps) + 1) * alpha0 - sp.exp(eps)))
beta_cutoff = (sp.exp(eps0) - sp.exp(eps)) / ((sp.exp(eps) + 1) * (sp.exp(eps0) - 1))
cutoff = sp.floor(beta_cutoff * (c + 1))


def _half_pmf(count: sp.Expr, at: sp.Expr) -> sp.Expr:
    return sp.binomial(count, at) / 2**count


def _half_cdf(count: sp.Expr, upto: sp.Expr) -> sp.Expr:
    return sp.Sum(_half_pmf(count, a), (a, 0, upto))


def pair_pmfs(count: sp.Expr = c, at: sp.Expr = a) -> tuple[sp.Expr, sp.Expr]:
    """P_c(a), Q_c(a): the first coordinate of the clone pair given c clones."""
    b_here, b_prev = _half_pmf(count, at), _half_pmf(count, at - 1)
    return alpha0 * b_here + (1 - alpha0) * b_prev, (1 - alpha0) * b_here + alpha0 * b_prev


def per_count_divergence(count: sp.Expr = c) -> sp.Expr:
    """B(c) = D_{e^eps}(P_c || Q_c) by the cutoff t = floor(beta (c+1)), eps < eps0 (Algorithm B):
    Gamma_P(t) - e^eps Gamma_Q(t) = (e^eps0 - e^eps)/(e^eps0 + 1) b_c(t) - (e^eps - 1) F_c(t - 1)."""
    t = cutoff.subs(c, count)
    return (sp.exp(eps0) - sp.exp(eps)) / (sp.exp(eps0) + 1) * _half_pmf(count, t) - (sp.exp(eps) - 1) * _half_cdf(count, t - 1)


def per_count_divergence_brute(count: sp.Expr = c) -> sp.Expr:
    """B(c) as the hockey-stick sum over a in 0..c+1 (the definition)."""
    p_c, q_c = pair_pmfs(count, a)
    return sp.Sum(sp.Max(p_c - sp.exp(eps) * q_c, 0), (a, 0, count + 1))


def clone_delta(clone_probability: sp.Expr) -> sp.Expr:
    """delta(eps) = sum_c Bin(c; n-1, q) B(c) for clone probability q."""
    q = clone_probability
    return sp.Sum(sp.binomial(n - 1, c) * q**c * (1 - q) ** (n - 1 - c) * per_count_divergence(c), (c, 0, n - 1))


DELTA_CLONES = clone_delta(sp.exp(-eps0))

CLONES_NUMERIC = Statement(
    id="FMT21.clones_numeric",
    kind=Kind.PROCEDURE,
    title="Numerical clone bound: eps with sum_c Bin(c; n-1, e^-eps0) D_{e^eps}(P_c||Q_c) <= delta",
    source=Source(
        "FMT21",
        "full version (arXiv 2012.12803) Appendix E; extended abstract Sec. 3 'Clones, empirical'",
        "extended abstract (seed 003) + the authors' code github.com/apple/ml-shuffling-amplification (computeamplification.py, "
        "commit 993d285) and opendp/smartnoise-core (utilities/shuffling.rs)",
        "medium",
    ),
    symbols=(eps0, n, delta, eps),
    hypotheses=(sp.Lt(delta, 1),),
    # evaluate=False here and below: the same unevaluated relation (SymPy cannot decide it), without the
    # 0.1-1 s its assumption system spends trying, which every process loading the registry paid.
    conclusion=(sp.Le(DELTA_CLONES, delta, evaluate=False),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.clones:clones_numeric",
    inputs=(eps0, n, delta),
    output=eps,
    value=None,
    mechanism="generic",
    tags=frozenset({"amplification"}),
    # The certified float reference resolves eps to 1e-7 relative (reference.bounds.clones EPS_REL_TOL);
    # the vectors carry the exact value (its high-precision path), so answers may lie that far above it.
    rtol=1e-6,
    examples=(
        {"eps0": 4.0, "n": 100_000, "delta": 1e-6},
        {"eps0": 1.0, "n": 10_000, "delta": 1e-6},
        {"eps0": 0.5, "n": 100_000, "delta": 1e-8},
    ),
    invalid_examples=(
        {"eps0": 1.0, "n": 10_000, "delta": 1.5},
        {"eps0": -1.0, "n": 10_000, "delta": 1e-6},
        {"eps0": 1.0, "n": 0, "delta": 1e-6},
    ),
    notes=(
        "Every eps0-LDP randomizer (adaptive too): the shuffled output is (eps, delta)-DP for the smallest eps in "
        "[0, eps0] with delta_clones(eps) <= delta (the conclusion, with the Sum over clone counts c). Per c, "
        "P_c(a)/Q_c(a) is non-increasing in a, so D_{e^eps}(P_c||Q_c) is the cutoff formula with "
        "t = floor(beta (c+1)), beta = (e^eps0 - e^eps)/((e^eps+1)(e^eps0-1)) = 1/(e^eps_q + 1) (Algorithm B's "
        "eps_q; shuffle_spec.proofs_checks.papers.fmt21_clones checks the identity); D(P||Q) = D(Q||P) since Q is the "
        "coordinate swap of P; for eps >= eps0 it is 0. B(c) is non-increasing in c (one more clone is a common "
        "post-processing of both sides). The reference sums only the central Bin(n-1, e^-eps0) window, adds the "
        "Chernoff-bounded tail mass to delta (B <= 1), evaluates B at EVERY count of the window by a certified "
        "walk in c (F_{c+1}(a) = F_c(a) - b_c(a)/2; anchors in mpmath interval arithmetic, ratio recurrences "
        "with a proven rounding bound: shuffle_spec.reference.numerics.binomial), and returns a certified interval containing the "
        "exact eps of this sum (width <= 1e-7 relative); the certified points are placed around the root of an "
        "uncertified float estimate (scipy pmf / incomplete beta), which never enters the returned ends; "
        "eps0 with a note when no eps < "
        "eps0 is certified. The statement's theorem number in the full version is not verified (medium). "
        "Reproduces the example of the README of github.com/apple/ml-shuffling-amplification, n=1e5, eps0=4, "
        "delta=1e-6: 0.16977."
    ),
)

STATEMENTS: tuple[Statement, ...] = (CLONES_NUMERIC,)
