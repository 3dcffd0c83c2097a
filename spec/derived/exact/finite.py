"""Exact central privacy of small shuffled finite randomizers: the truth that bounds are tested against.

`exact.shuffled_finite`: any finite randomizer R and small n; the shuffled output is the histogram of the
n reports, its distribution is computed exactly, and the central (eps, delta) is the worst case over all
neighbouring datasets (a common multiset of n-1 inputs plus x vs x').
`exact.shuffled_krr`: the same quantity for k-ary randomized response at moderate n, using its symmetry.
"""

from __future__ import annotations

import sympy as sp

from ...statement import Direction, Kind, Source, Statement
from ...symbols import delta, eps, eps0, k, n

SOURCE_NOTE = (
    "derived here (hockey-stick form: BBGN19 Thm 5.2; compared with a brute force over every neighbouring dataset in "
    "proofs_checks/derived/exact_finite.py)"
)

# Hockey-stick divergence of the worst neighbouring pair of shuffled outputs at multiplier e^eps.
worst_profile = sp.Function("delta_shuffled")
worst_profile_krr = sp.Function("delta_shuffled_krr")
p_keep = sp.Symbol("p_keep", positive=True)
p_other = sp.Symbol("p_other", positive=True)

SHUFFLED_FINITE = Statement(
    id="exact.shuffled_finite",
    kind=Kind.PROCEDURE,
    title="Exact central (eps, delta) of a small shuffled finite randomizer",
    source=Source("exact", "shuffled output distribution, worst neighbouring pair", SOURCE_NOTE, "high"),
    symbols=(eps, delta, n),
    hypotheses=(sp.Le(delta, 1),),
    conclusion=(sp.Eq(eps, sp.log(sp.Function("min_e_eps")(delta, n))), sp.Le(worst_profile(sp.exp(eps), n), delta)),
    direction=Direction.EXACT,
    reference="shuffle_spec.reference.finite.shuffling:exact_shuffled_epsilon",
    notes=(
        "delta_shuffled(e^eps, n) = max over multisets S of n-1 inputs and x != x' of "
        "max(D_{e^eps}(P || Q), D_{e^eps}(Q || P)), P, Q the exact distributions of the histogram of the reports "
        "of S + {x} and S + {x'}; min_e_eps(delta, n) is the smallest e^eps >= 1 with delta_shuffled <= delta "
        "(solved exactly on the profile's linear pieces). Exact Fractions for rational randomizers. Not evaluable "
        "from scalars (it takes a randomizer); tests compare every registered bound against it."
    ),
)

SHUFFLED_KRR = Statement(
    id="exact.shuffled_krr",
    kind=Kind.PROCEDURE,
    title="Exact central eps of shuffled k-ary randomized response (moderate n, symmetry-reduced)",
    source=Source("exact", "shuffled k-RR histogram, canonical neighbouring pairs", SOURCE_NOTE, "high"),
    symbols=(eps0, n, delta, k, eps, p_keep, p_other),
    hypotheses=(sp.Le(delta, 1), sp.Ge(k, 2)),
    conclusion=(
        sp.Eq(p_keep, sp.exp(eps0) / (sp.exp(eps0) + k - 1)),
        sp.Eq(p_other, 1 / (sp.exp(eps0) + k - 1)),
        sp.Le(worst_profile_krr(sp.exp(eps), eps0, n, k), delta),
    ),
    direction=Direction.EXACT,
    reference="shuffle_spec.reference.exact.krr:exact_shuffled_krr_epsilon",
    notes=(
        "k-RR keeps x w.p. p_keep, else reports each other value w.p. p_other. eps is the smallest eps >= 0 with "
        "delta_shuffled_krr(e^eps) <= delta, the worst case over neighbouring datasets of n users. Symmetry: k-RR "
        "commutes with relabelling [k], so the pair is (rest + {0}, rest + {1}) with rest's counts m_0 >= m_1 and "
        "m_2 >= ... >= m_{k-1}; only those are enumerated. Exact rationals at the two doubles around e^eps0 "
        "bracket the value (eps is non-decreasing in eps0: k-RR at a smaller eps0 is a post-processing of k-RR "
        "at a larger one). Moderate n only: the reference enumerates EVERY canonical configuration of the others' "
        "counts (so it is the exact worst case, not a scan) while n C(n+k-2, k-1) C(n+k-1, k-1)/2 <= 1.5e5 (k = 2: n <= 66; "
        "k = 3: n <= 15; k = 4: n <= 8; a few seconds per call) and refuses beyond (for k = 2 at any n, exact.shuffled_binary_rr); a removal-based branch and bound over the count vectors "
        "(as for exact.shuffled_binary_rr) is not implemented (a stated limit). No closed form: "
        "proofs_checks/derived/exact_finite.py compares it with a brute-force SymPy evaluation over all neighbouring datasets."
    ),
    inputs=(eps0, n, delta, k),
    output=eps,
    value=None,
    mechanism="krr",
    examples=(
        {"eps0": 1.0, "n": 6, "delta": 0.01, "k": 3},
        {"eps0": 2.0, "n": 10, "delta": 1e-3, "k": 2},
        {"eps0": 0.5, "n": 4, "delta": 0.1, "k": 4},
    ),
    invalid_examples=(
        {"eps0": 1.0, "n": 6, "delta": 1.5, "k": 3},
        {"eps0": 1.0, "n": 6, "delta": 0.01, "k": 1},
    ),
)

STATEMENTS: tuple[Statement, ...] = (SHUFFLED_FINITE, SHUFFLED_KRR)
