"""EFMRTT19: Erlingsson, Feldman, Mironov, Raghunathan, Talwar, Thakurta, "Amplification by shuffling:
from local to central differential privacy via anonymity" (SODA 2019; arXiv:1811.12469).

Seed: `shared/seeds/EFMRTT19-amplification-by-shuffling.txt` (v1 = SODA, formulas lost in extraction).
Recovered statements: `shared/statements/efmrtt19.md`; each statement's source records its confidence.
"""

from __future__ import annotations

import sympy as sp

from spec.statement import Direction, Kind, Source, Statement
from spec.symbols import delta1, delta2, eps, eps1, eps2, rho

# delta may be 0 here (pure DP); the amplification bounds use the positive `spec.symbols.delta`.
delta = sp.Symbol("delta", nonnegative=True)

PAPER = "EFMRTT19"
SEED = "v1 (SODA 2019), seed 000"

# Probabilities of one event S under the two neighbouring output distributions.
P_S, Q_S = sp.symbols("P_S Q_S", nonnegative=True)
P0_S, P1_S, Q0_S, Q1_S = sp.symbols("P0_S P1_S Q0_S Q1_S", nonnegative=True)

DEF1 = Statement(
    id="EFMRTT19.Def1",
    kind=Kind.DEFINITION,
    title="(eps, delta)-differential privacy (replacement neighbours)",
    source=Source(PAPER, "Definition 1", SEED, "high"),
    symbols=(eps, delta, P_S, Q_S),
    hypotheses=(sp.Le(delta, 1),),
    conclusion=(sp.Le(P_S, sp.exp(eps) * Q_S + delta),),
    direction=Direction.DEFINITION,
    reference="reference.closeness:is_dp_on_neighbours",
    notes=(
        "For all events S and adjacent datasets D, D' (differing in one element): "
        "Pr[A(D) in S] <= e^eps Pr[A(D') in S] + delta. P_S, Q_S stand for the two probabilities of S. "
        "Checked on finite mechanisms through BBGN19 Thm 5.2 (hockey-stick form)."
    ),
)

CLOSENESS = Statement(
    id="EFMRTT19.closeness",
    kind=Kind.DEFINITION,
    title="(eps, delta)-DP closeness of two distributions",
    source=Source(PAPER, "Section 2 (definition of DP-closeness)", SEED, "medium-high"),
    symbols=(eps, delta, P_S, Q_S),
    hypotheses=(sp.Le(delta, 1),),
    conclusion=(sp.Le(sp.exp(-eps) * (Q_S - delta), P_S), sp.Le(P_S, sp.exp(eps) * Q_S + delta)),
    direction=Direction.DEFINITION,
    reference="reference.divergences:is_close",
    notes=(
        "mu ~(eps,delta) mu' iff for all events A: e^-eps (mu'(A) - delta) <= mu(A) <= e^eps mu'(A) + delta, "
        "i.e. both hockey-stick divergences D_{e^eps} are at most delta."
    ),
)

LEM3_MONOTONICITY = Statement(
    id="EFMRTT19.Lem3.monotonicity",
    kind=Kind.LEMMA,
    title="DP-closeness is monotone in (eps, delta)",
    source=Source(PAPER, "Lemma 3 (monotonicity)", SEED, "high"),
    symbols=(eps1, delta1, eps2, delta2),
    hypotheses=(sp.Ge(eps2, eps1), sp.Ge(delta2, delta1)),
    conclusion=(sp.Ge(eps2, eps1), sp.Ge(delta2, delta1)),
    direction=Direction.UPPER_BOUND,
    reference="reference.divergences:is_close",
    notes="mu ~(eps1,delta1) mu' implies mu ~(eps2,delta2) mu' for eps2 >= eps1, delta2 >= delta1.",
)

LEM3_TRIANGLE = Statement(
    id="EFMRTT19.Lem3.triangle",
    kind=Kind.LEMMA,
    title="Triangle inequality for DP-closeness",
    source=Source(PAPER, "Lemma 3 (triangle inequality)", SEED, "medium"),
    symbols=(eps1, delta1, eps2, delta2),
    hypotheses=(sp.Le(delta1, 1), sp.Le(delta2, 1)),
    conclusion=(eps1 + eps2, delta1 + sp.exp(eps1) * delta2),
    direction=Direction.UPPER_BOUND,
    reference="reference.closeness:triangle_parameters",
    notes=(
        "mu1 ~(eps1,delta1) mu2 and mu2 ~(eps2,delta2) mu3 imply mu1 ~(eps1+eps2, delta') mu3. The seed most "
        "likely prints delta' = delta1 + delta2, which is false in general for two-sided closeness (a "
        "counterexample is found by tests/test_closeness.py); the valid value, implemented here, is "
        "delta' = delta1 + e^eps1 delta2. Both coincide for delta1 = delta2 = 0, the only case the paper's "
        "proofs use."
    ),
)

LEM3_QUASICONVEXITY = Statement(
    id="EFMRTT19.Lem3.quasiconvexity",
    kind=Kind.LEMMA,
    title="Quasiconvexity of DP-closeness under mixtures",
    source=Source(PAPER, "Lemma 3 (quasiconvexity)", SEED, "high"),
    symbols=(eps, delta, rho, P0_S, P1_S, Q0_S, Q1_S),
    hypotheses=(sp.Le(rho, 1), sp.Le(delta, 1)),
    conclusion=(
        sp.Le((1 - rho) * P0_S + rho * P1_S, sp.exp(eps) * ((1 - rho) * Q0_S + rho * Q1_S) + delta),
    ),
    direction=Direction.UPPER_BOUND,
    reference="reference.composition:mixture",
    notes=(
        "mu0 ~(eps,delta) mu0' and mu1 ~(eps,delta) mu1' imply (1-rho) mu0 + rho mu1 ~(eps,delta) "
        "(1-rho) mu0' + rho mu1' for every rho in [0, 1]."
    ),
)

STATEMENTS: tuple[Statement, ...] = (
    DEF1,
    CLOSENESS,
    LEM3_MONOTONICITY,
    LEM3_TRIANGLE,
    LEM3_QUASICONVEXITY,
)
