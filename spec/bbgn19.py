"""BBGN19: Balle, Bell, Gascon, Nissim, "The privacy blanket of the shuffle model" (CRYPTO 2019,
arXiv:1903.02837).

Seeds: `shared/seeds/BBGN19-privacy-blanket-v1.txt` (v1, ids `BBGN19v1.*` where it differs) and
`...-v2.txt` (v2 = CRYPTO, ids `BBGN19.*`). Recovered statements: `shared/statements/bbgn19.md`.
"""

from __future__ import annotations

import sympy as sp

from spec.statement import Direction, Kind, Source, Statement
from spec.symbols import eps

# delta may be 0 here (pure DP); the amplification bounds use the positive `spec.symbols.delta`.
delta = sp.Symbol("delta", nonnegative=True)

PAPER = "BBGN19"
V2 = "v2 (CRYPTO 2019), seed 002"

# Pointwise probabilities of one output y under the two distributions mu, mu'.
mu_y, nu_y = sp.symbols("mu_y nu_y", nonnegative=True)

HOCKEY_STICK = Statement(
    id="BBGN19.hockey_stick",
    kind=Kind.DEFINITION,
    title="Hockey-stick divergence D_{e^eps}(mu || mu')",
    source=Source(PAPER, "Section 5.2 (definition)", V2, "high"),
    symbols=(eps, mu_y, nu_y),
    hypotheses=(),
    conclusion=(sp.Max(mu_y - sp.exp(eps) * nu_y, 0),),
    direction=Direction.DEFINITION,
    reference="reference.divergences:hockey_stick_divergence",
    notes="D_{e^eps}(mu||mu') = sum_y [mu(y) - e^eps mu'(y)]_+ = sup_E mu(E) - e^eps mu'(E); the summand is shown.",
)

THM5_2 = Statement(
    id="BBGN19.Thm5.2",
    kind=Kind.THEOREM,
    title="DP iff hockey-stick divergence at most delta (Barthe-Olmedo)",
    source=Source(PAPER, "Theorem 5.2", V2, "high"),
    symbols=(eps, delta, mu_y, nu_y),
    hypotheses=(sp.Le(delta, 1),),
    conclusion=(sp.Le(sp.Max(mu_y - sp.exp(eps) * nu_y, 0), delta),),
    direction=Direction.EXACT,
    reference="reference.closeness:is_dp_on_neighbours",
    notes=(
        "M is (eps, delta)-DP iff D_{e^eps}(M(x) || M(x')) <= delta for all neighbouring x, x'. The "
        "conclusion shows the summand of the divergence; the sum over outputs is the divergence."
    ),
)

POST_PROCESSING = Statement(
    id="BBGN19.post_processing",
    kind=Kind.PROCEDURE,
    title="Post-processing: a randomized map cannot increase the hockey-stick divergence",
    source=Source(PAPER, "Section 2 (post-processing property used for the analyzer)", V2, "high"),
    symbols=(eps, delta),
    hypotheses=(sp.Le(delta, 1),),
    conclusion=(sp.Le(delta, 1),),
    direction=Direction.UPPER_BOUND,
    reference="reference.composition:post_process",
    notes=(
        "If M is (eps, delta)-DP then A o M is (eps, delta)-DP for every randomized A: the protocol is DP "
        "whenever the shuffled mechanism is. Tested on exact distributions and random kernels."
    ),
)

STATEMENTS: tuple[Statement, ...] = (HOCKEY_STICK, THM5_2, POST_PROCESSING)
