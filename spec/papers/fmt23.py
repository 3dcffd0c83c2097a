"""FMT23: Feldman, McMillan, Talwar, "Stronger privacy amplification by shuffling for Renyi and approximate
differential privacy" (SODA 2023, arXiv 2208.04591), with the errata printed at the start of the arXiv version.

The stronger clone reduction: each other user is a clone of x0 and of x1 w.p. 1/(e^eps0+1) each (total
2/(e^eps0+1) >= e^-eps0), with the same per-count pair as FMT21 (shuffle_spec.spec.papers.fmt21.clones). The errata restricts
the general upper bounds to a class of randomizers; this spec states them for the sufficient condition
R(x) >= (R(x0) + R(x1))/(e^eps0+1) pointwise (x0 != x1), which k-ary RR satisfies, and registers the scalar
evaluation for k-RR only.
"""

from __future__ import annotations

import sympy as sp

from .fmt21.clones import clone_delta
from ..statement import Direction, Kind, Source, Statement
from ..symbols import delta, eps, eps0, k, n

__all__ = ["STATEMENTS", "STRONGER_CLONE_PROBABILITY", "class_condition"]

# Output probabilities of one output y under inputs x, x0, x1 of the randomizer.
R_x, R_x0, R_x1 = sp.symbols("R_x R_x0 R_x1", nonnegative=True)

STRONGER_CLONE_PROBABILITY = 2 / (sp.exp(eps0) + 1)
DELTA_STRONGER_CLONES = clone_delta(STRONGER_CLONE_PROBABILITY)


def class_condition() -> sp.Basic:
    """The errata's class (a sufficient condition for the decomposition): R(x) >= (R(x0) + R(x1))/(e^eps0+1)."""
    return sp.Ge(R_x, (R_x0 + R_x1) / (sp.exp(eps0) + 1))


STRONGER_CLONES = Statement(
    id="FMT23.stronger_clones",
    kind=Kind.PROCEDURE,
    title="Stronger clones: eps with sum_c Bin(c; n-1, 2/(e^eps0+1)) D_{e^eps}(P_c||Q_c) <= delta (k-RR)",
    source=Source(
        "FMT23",
        "Lemma 3.5 / Sec. 3 numerical bound, with the errata (arXiv 2208.04591)",
        "errata of arXiv 2208.04591 + github.com/wangsw/PrivacyAmplification (unifiedamplification.py, strong_clone)",
        "medium",
    ),
    symbols=(eps0, n, delta, k, eps),
    hypotheses=(sp.Lt(delta, 1), sp.Ge(k, 2)),
    conclusion=(sp.Le(DELTA_STRONGER_CLONES, delta),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.stronger_clones:stronger_clones",
    inputs=(eps0, n, delta, k),
    output=eps,
    value=None,
    mechanism="krr",
    tags=frozenset({"amplification"}),
    # The certified float reference resolves eps to 1e-7 relative (reference.bounds.clones EPS_REL_TOL);
    # the vectors carry the exact value (its high-precision path), so answers may lie that far above it.
    rtol=1e-6,
    examples=(
        {"eps0": 4.0, "n": 100_000, "delta": 1e-6, "k": 2},
        {"eps0": 1.0, "n": 10_000, "delta": 1e-6, "k": 3},
        {"eps0": 0.5, "n": 100_000, "delta": 1e-8, "k": 10},
    ),
    invalid_examples=(
        {"eps0": 1.0, "n": 10_000, "delta": 2.0, "k": 2},
        {"eps0": 1.0, "n": 10_000, "delta": 1e-6, "k": 1},
        {"eps0": 0.0, "n": 10_000, "delta": 1e-6, "k": 2},
    ),
    notes=(
        "Clone probability 2/(e^eps0+1) (github.com/wangsw/PrivacyAmplification strong_clone; medium), the per-count "
        "pair and cutoff of FMT21.clones_numeric unchanged. Errata (arXiv 2208.04591): the proof of Lemma 3.5 was wrong when "
        "p < 1/(e^eps0+1); the general upper bounds (Thm 3.1, 3.2, Cor 4.3, Thm 5.2) hold only for a restricted "
        "class of randomizers, which the errata does not define in the recovered text. This spec uses the "
        "sufficient condition R(x)(y) >= (R(x0)(y) + R(x1)(y))/(e^eps0+1) for all x, all x0 != x1 and all y "
        "(the decomposition R(x) = (Q0 + Q1)/(e^eps0+1) + (1 - 2/(e^eps0+1)) LO(x) then exists); k-RR and "
        "binary RR satisfy it with equality, a generic eps0-LDP randomizer need not (Laplace). Hence the scalar "
        "evaluation is registered for mechanism krr (any k >= 2; the value does not depend on k); "
        "reference.bounds.stronger_clones.stronger_clones_for_randomizer refuses randomizers outside the class. "
        "For binary RR the pair is the blanket-revealed pair of BBGN's decomposition (as for exact.shuffled_binary_rr). "
        "The candidate closed form (LOW confidence) is not registered as "
        "FMT23.stronger_clones_closed_form: it is a substitution of 2/(e^eps0+1) into FMT21's constants, and no "
        "proof sketch was derived here (FMT21's closed-form proof uses the e^-eps0 clone probability in its "
        "Hoeffding step; the substitution is unproven), so the registration criteria (>= this numeric bound on "
        "a dense grid AND a proof sketch) are not met; it has not been checked on a grid."
    ),
)

STATEMENTS: tuple[Statement, ...] = (STRONGER_CLONES,)
