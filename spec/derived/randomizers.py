"""Upper bounds (BBGN19 Lemma 5.3 evaluated exactly from a closed-form blanket decomposition) and certified pair
lower bounds (explicit neighbouring datasets, reports projected to a small pattern) on the central eps of the
structured randomizers people deploy; derived here, proofs in `proofs_checks/derived/randomizers.py`, references
in `shuffle_spec.reference.randomizers`.

The statements take the mechanism's parameters (eps0, the domain size d, ...) and are evaluated by the randomizer
registry (`shuffle_spec.reference.randomizers.RANDOMIZERS`), not by `eval` or the test vectors (each evaluation
is a certified sum of seconds). Neighbouring relation: replace-one (the unary statements also state the deletion
relation of the IETF draft's local claim).

- `BBGN19.Lem5.3.exact_unary` (symmetric RAPPOR / SUE, OUE; Wang, Blocki, Li, Jha, USENIX Security 2017,
  Sec. 4.3): bit j of the report is 1 w.p. p if j = x else q. With g(1) = p/q, g(0) = (1-p)/(1-q), gamma = g(0),
  omega = the all-zero vector's report law, every pair (x, x') has the four groups
  (alpha, beta, p) = (g(i), g(j), b(i) b(j)), b(1) = q, b(0) = 1 - q:

      delta(eps) <= sum_{N=1}^{n} C(n-1, N-1) gamma^(N-1) (1-gamma)^(n-N) D_N,
      D_N = (1/N) E_{c ~ Mult(N; b(i) b(j))}[(sum_{i,j} (g(i) - e^eps g(j)) c_ij)_+].

- `BBGN19.Lem5.3.exact_local_hashing`, `BBGN19.Lem5.3.exact_hadamard`, `BBGN19.Lem5.3.exact_subset`: the same
  with omega uniform on the outputs and four groups (alpha_i, alpha_j, law(i, j)) given in closed form
  (`four_group_blanket_delta`); their `exact.*_pattern_pair` lower bounds project each report to a 3-bit pattern.
- `exact.unary_pattern_pair`: user 1 at x vs x', the n - 1 others at z, every report projected to its bits at
  (x, x', z) (a post-processing): the pair's eps of the 3 x 8 pattern randomizer P_w(b) = prod_j
  (p if j = w else q)^b_j (1 - (p if j = w else q))^(1 - b_j) is a LOWER bound on the central eps.
- `BBGN19.Lem5.3.exact_piecewise` (the piecewise mechanism, Wang et al., ICDE 2019, Sec. III-B): omega uniform on
  [-C, C], gamma = e^(-eps0/2), the worst pair -1 vs 1 with three groups (exact lattice sums); its
  `exact.piecewise_partition_pair` lower bound coarsens every report to three cells of the output range.
"""

from __future__ import annotations

import sympy as sp

from ..statement import Direction, Kind, Source, Statement
from ..symbols import delta, eps, n

__all__ = [
    "STATEMENTS",
    "EXACT_UNARY",
    "UNARY_PATTERN_PAIR",
    "EXACT_LOCAL_HASHING",
    "LOCAL_HASHING_PATTERN_PAIR",
    "EXACT_HADAMARD",
    "HADAMARD_PATTERN_PAIR",
    "EXACT_SUBSET",
    "SUBSET_PATTERN_PAIR",
    "unary_blanket_delta",
    "unary_pattern_delta",
    "four_group_blanket_delta",
    "EXACT_DUCHI",
    "EXACT_PIECEWISE",
    "PIECEWISE_PARTITION_PAIR",
    "EXACT_RAISED",
]

MAX_N = 10**8
MAX_EPS0 = 40

d = sp.Symbol("d", integer=True, positive=True)  # domain size
p, q = sp.symbols("p q", positive=True)  # Pr[bit = 1 | hot], Pr[bit = 1 | cold]
N_ = sp.Symbol("N", integer=True, positive=True)
E = sp.exp(eps)
mult_positive_part = sp.Function("E_mult_positive_part")  # E_{c ~ Mult(N; law)}[(sum_g coefficient_g c_g)_+]


def _g(bit: int) -> sp.Expr:
    return p / q if bit else (1 - p) / (1 - q)


def _b(bit: int) -> sp.Expr:
    return q if bit else 1 - q


def unary_blanket_delta() -> sp.Expr:
    """Lemma 5.3's delta(eps) for a unary encoding with the closed-form decomposition (module doc)."""
    gamma = _g(0)
    cells = [(i, j) for i in (1, 0) for j in (1, 0)]
    law = sp.Tuple(*[_b(i) * _b(j) for i, j in cells])
    coefficients = sp.Tuple(*[_g(i) - E * _g(j) for i, j in cells])
    d_n = mult_positive_part(N_, law, coefficients) / N_
    return sp.Sum(sp.binomial(n - 1, N_ - 1) * gamma ** (N_ - 1) * (1 - gamma) ** (n - N_) * d_n, (N_, 1, n))


def unary_pattern_delta() -> sp.Expr:
    """The pattern pair's delta (module doc): (1/n) E_{h ~ Mult(n; P_z)}[(sum_b (P_x(b) - e^eps P_x'(b)) / P_z(b) h_b)_+]."""
    patterns = [(b0, b1, b2) for b0 in (1, 0) for b1 in (1, 0) for b2 in (1, 0)]

    def row(w: int) -> list[sp.Expr]:
        out = []
        for bits in patterns:
            term = sp.Integer(1)
            for j, bit in enumerate(bits):
                one = p if j == w else q
                term *= one if bit else 1 - one
            out.append(term)
        return out

    px, px2, pz = row(0), row(1), row(2)
    coefficients = sp.Tuple(*[(a - E * b) / c for a, b, c in zip(px, px2, pz, strict=True)])
    return mult_positive_part(n, sp.Tuple(*pz), coefficients) / n


RANGE = (sp.Lt(delta, 1), sp.Ge(d, 2), sp.Le(n, MAX_N), sp.Lt(q, p), sp.Lt(p, 1), sp.Le(sp.log(p * (1 - q) / ((1 - p) * q)), MAX_EPS0))
RANGE_NAMES = ("delta < 1", "d >= 2 values", "n <= 1e8", "q < p", "p < 1", "eps0 <= 40")

EXACT_UNARY = Statement(
    id="BBGN19.Lem5.3.exact_unary",
    kind=Kind.PROCEDURE,
    title="Upper bound: the blanket bound for unary encodings (symmetric RAPPOR / SUE, OUE) from their closed-form decomposition, any domain size, certified",
    source=Source("BBGN19", "Lemma 5.3, evaluated exactly with the decomposition gamma = (1-p)/(1-q), omega = the all-zero vector's report (derived here, proof in proofs_checks/derived/randomizers.py)", "v2", "high"),
    symbols=(n, delta, d, p, q, eps),
    hypotheses=RANGE,
    hypothesis_names=RANGE_NAMES,
    conclusion=(sp.Le(unary_blanket_delta(), delta),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.randomizers.unary:unary_epsilon_upper",
    notes=(
        "Parameters as WBLJ17 Sec. 4.3 state them: symmetric RAPPOR / SUE p = e^(eps0/2)/(e^(eps0/2)+1), q = 1 - p; "
        "OUE p = 1/2, q = 1/(e^eps0+1); the LDP ratio is p(1-q)/((1-p)q) = e^eps0 (replace-one). mu_x(y) = "
        "omega(y) g(y_x) >= g(0) omega(y): a valid blanket decomposition for every d >= 2; the pair's (alpha, beta) "
        "depend only on the bits x and x', independent under omega: four groups whatever d is, so domains of 1e6 "
        "values cost what d = 3 costs. Four coefficients: the certified randomized-rounding FFT upper bound of "
        "BBGN19.Lem5.3.exact_randomizer. Irrational e^eps0 is rounded up for the upper bound (the mechanism at a "
        "smaller parameter is a per-bit post-processing of the one at a larger parameter: proof check). Deletion "
        "relation (user 1's report from its input vs from the all-zero reference): the pairs (x, R), (R, x) with "
        "groups (g(i), 1, b(i)). Range: eps0 <= 40, d in [2, 1e9], n <= 1e8; refused beyond."
    ),
)

UNARY_PATTERN_PAIR = Statement(
    id="exact.unary_pattern_pair",
    kind=Kind.PROCEDURE,
    title="Lower bound (certified): explicit neighbouring pair of a unary encoding, reports projected to their bits at (x, x', z)",
    source=Source(
        "BBGN19",
        "neighbouring pair: user 1 holds x vs x', the n - 1 others hold z; the projection is a post-processing (derived here, proof in proofs_checks/derived/randomizers.py)",
        "derived",
        "high",
    ),
    symbols=(n, delta, d, p, q, eps),
    hypotheses=RANGE,
    hypothesis_names=RANGE_NAMES,
    conclusion=(sp.Le(unary_pattern_delta(), delta),),
    direction=Direction.LOWER_BOUND,
    reference="shuffle_spec.reference.randomizers.unary:unary_epsilon_lower",
    notes=(
        "The 3 x 8 pattern randomizer goes through exact.randomizer_pair (its output merging is one more "
        "post-processing); the certified lower bound is the lower end of the interval. Irrational e^eps0 is "
        "rounded down. Deletion relation: the reports projected to bit x (shuffled binary randomized response). "
        "Merging also keeps the third bit apart (shuffle_spec.reference.lower_bounds.structured: bins "
        "{b_x=1, b_x'=0, b_z=0}, {b_x'=1, b_z=0}, the rest; its mirror; {(1,0,0)}, {(0,1,0)}, the rest), each a "
        "function of one report; the largest certified lower end over every merging and role assignment is reported."
    ),
)

e0, g, k = sp.symbols("e0 g k", positive=True)  # e^eps0; hash values; subset size


def four_group_blanket_delta(gamma: sp.Expr, alpha: dict[int, sp.Expr], law: dict[tuple[int, int], sp.Expr]) -> sp.Expr:
    """Lemma 5.3's delta(eps) when omega-ratios take the values alpha[i] and the pair's groups are (alpha[i],
    alpha[j]) with probability law[(i, j)] (local hashing, Hadamard response, subset selection)."""
    cells = sorted(law)
    coefficients = sp.Tuple(*[alpha[i] - E * alpha[j] for i, j in cells])
    d_n = mult_positive_part(N_, sp.Tuple(*[law[c] for c in cells]), coefficients) / N_
    return sp.Sum(sp.binomial(n - 1, N_ - 1) * gamma ** (N_ - 1) * (1 - gamma) ** (n - N_) * d_n, (N_, 1, n))


PATTERN = sp.Function("pattern_pair_delta")  # exact.randomizer_pair's delta of the mechanism's 3 x 8 pattern randomizer
_lh_d = e0 + g - 1
_lh_b = {1: 1 / g, 0: 1 - 1 / g}
_hr_b = {1: sp.Rational(1, 2), 0: sp.Rational(1, 2)}
_ss_gamma = d / (e0 * k + d - k)
_ss_law = {(1, 1): k * (k - 1) / (d * (d - 1)), (1, 0): k * (d - k) / (d * (d - 1)), (0, 1): k * (d - k) / (d * (d - 1)), (0, 0): (d - k) * (d - k - 1) / (d * (d - 1))}
COMMON = (sp.Lt(delta, 1), sp.Ge(d, 2), sp.Le(n, MAX_N), sp.Gt(e0, 1), sp.Le(sp.log(e0), MAX_EPS0))
COMMON_NAMES = ("delta < 1", "d >= 2 values", "n <= 1e8", "e0 > 1", "eps0 <= 40")


def _pair(family: str, title: str, citation: str, symbols: tuple[sp.Symbol, ...], hypotheses: tuple[sp.Basic, ...], names: tuple[str, ...], upper: sp.Expr, reference: str, notes: tuple[str, str]) -> tuple[Statement, Statement]:
    up = Statement(
        id=f"BBGN19.Lem5.3.exact_{family}",
        kind=Kind.PROCEDURE,
        title=f"Upper bound: the blanket bound for {title} from its closed-form decomposition, any domain size, certified",
        source=Source("BBGN19", f"Lemma 5.3, evaluated exactly with the closed-form decomposition of {citation} (derived here, proof in proofs_checks/derived/randomizers.py)", "v2", "high"),
        symbols=(n, delta, d, e0, eps, *symbols),
        hypotheses=COMMON + hypotheses,
        hypothesis_names=COMMON_NAMES + names,
        # evaluate=False here and below: the same unevaluated relation (SymPy cannot decide it), without the
        # 0.1-1 s its assumption system spends trying, which every process loading the registry paid.
        conclusion=(sp.Le(upper, delta, evaluate=False),),
        direction=Direction.UPPER_BOUND,
        reference=f"shuffle_spec.reference.randomizers.{reference}_epsilon_upper",
        notes=notes[0],
    )
    low = Statement(
        id=f"exact.{family}_pattern_pair",
        kind=Kind.PROCEDURE,
        title=f"Lower bound (certified): explicit neighbouring pair of {title}, reports projected to a 3-bit pattern",
        source=Source("BBGN19", "neighbouring pair: user 1 holds x vs x', the n - 1 others hold z; the projection is a post-processing (derived here, proof in proofs_checks/derived/randomizers.py)", "derived", "high"),
        symbols=(n, delta, d, e0, eps, *symbols),
        hypotheses=COMMON + hypotheses,
        hypothesis_names=COMMON_NAMES + names,
        conclusion=(sp.Le(PATTERN(n, eps), delta),),
        direction=Direction.LOWER_BOUND,
        reference=f"shuffle_spec.reference.randomizers.{reference}_epsilon_lower",
        notes=notes[1],
    )
    return up, low


EXACT_LOCAL_HASHING, LOCAL_HASHING_PATTERN_PAIR = _pair(
    "local_hashing",
    "local hashing (BLH g = 2, OLH g = round(e^eps0) + 1)",
    "WBLJ17 Sec. 4.4: report (H, y), y = H(x) w.p. e0/(e0+g-1); omega uniform on (H, y), gamma = g/(e0+g-1)",
    (g,),
    (sp.Ge(g, 2),),
    ("g >= 2 hash values",),
    four_group_blanket_delta(g / _lh_d, {1: g * e0 / _lh_d, 0: g / _lh_d}, {(i, j): _lh_b[i] * _lh_b[j] for i in (0, 1) for j in (0, 1)}),
    "local_hashing:local_hashing",
    (
        "Hash family 2-wise independent and uniform ([y = H(x)], [y = H(x')] independent Bern(1/g) under omega): four groups, "
        "whatever d is; the certified randomized-rounding FFT upper bound. e^eps0 rounded up (k-RR on g values at a smaller e "
        "is a post-processing of the one at a larger e). Range: eps0 <= 40 (OLH: g <= 1e6), d in [2, 1e9], n <= 1e8.",
        "Pattern: ([y = H(x)], [y = H(x')], [y = H(z)]); for a 3-wise independent family the owner's indicator is Bern(e0/(e0+g-1)) "
        "and the other two independent Bern(1/g). e^eps0 rounded down; certified lower end of exact.randomizer_pair. Merging: as exact.unary_pattern_pair (the third bit kept apart too).",
    ),
)

EXACT_HADAMARD, HADAMARD_PATTERN_PAIR = _pair(
    "hadamard",
    "Hadamard response",
    "Acharya, Sun, Zhang (AISTATS 2019) Sec. 3: y uniform-weighted 2e0/(K(1+e0)) on C_x = {y : H_K[x+1, y] = +1}; omega uniform on [K], gamma = 2/(1+e0)",
    (),
    (),
    (),
    four_group_blanket_delta(2 / (1 + e0), {1: 2 * e0 / (1 + e0), 0: 2 / (1 + e0)}, {(i, j): _hr_b[i] * _hr_b[j] for i in (0, 1) for j in (0, 1)}),
    "hadamard:hadamard",
    (
        "Distinct non-zero Sylvester rows are orthogonal, so [y in C_x], [y in C_x'] are independent fair bits under the uniform omega: "
        "four groups of probability 1/4, every pair and every d. e^eps0 rounded up (mixing with the uniform output is a post-processing). "
        "Range: eps0 <= 40, d in [2, 1e9], n <= 1e8.",
        "Pattern: membership of y in C_x, C_x', C_z for rows 1, 2, 4 (independent over GF(2)): independent fair bits, the owner's "
        "weighted by e0; d <= 3: the full matrix. e^eps0 rounded down. Also (d >= 4) the dependent triple rows 1, 2, 3 = 1 XOR 2: "
        "Sylvester rows multiply, so [y in C_z] = [b_x = b_x'] and the pattern (b_x, b_x') has law e0^c_w / (2 (1 + e0)), "
        "c_z = [b_x = b_x'] (the 3 x 4 rows); the larger certified lower end of the two projections is reported. Both go "
        "through exact.randomizer_pair, the 3 x 8 one with the third bit kept apart as for the unary encodings.",
    ),
)

EXACT_SUBSET, SUBSET_PATTERN_PAIR = _pair(
    "subset",
    "k-subset selection",
    "Ye and Barg (IEEE T-IT 2018): Pr[S | x] = e0^[x in S] / (e0 C(d-1,k-1) + C(d-1,k)); omega uniform on k-subsets, gamma = d/(e0 k + d - k)",
    (k,),
    (sp.Ge(k, 1), sp.Le(k, d - 1)),
    ("k >= 1", "k <= d - 1"),
    four_group_blanket_delta(_ss_gamma, {1: _ss_gamma * e0, 0: _ss_gamma}, _ss_law),
    "subset_selection:subset",
    (
        "The pair's groups are the membership of x and x' in a uniform k-subset (hypergeometric probabilities, exact rationals of "
        "size log d). k defaults to Ye and Barg's ceil(d/(e0+1)). e^eps0 rounded up (mixing with the uniform subset is a "
        "post-processing). Range: eps0 <= 40, d in [2, 1e9], 1 <= k <= d - 1, n <= 1e8.",
        "Pattern: membership of x, x', z in S, probability (k)_s (d-k)_(3-s) / (d)_3 for s members, the owner's weighted by "
        "gamma e0^[w in S]. e^eps0 rounded down. Merging: as exact.unary_pattern_pair (the third bit kept apart too).",
    ),
)

t, t2 = sp.symbols("t t2", real=True)  # user 1's input vs its neighbour's, in [-1, 1]
EXACT_DUCHI = Statement(
    id="exact.shuffled_duchi",
    kind=Kind.PROCEDURE,
    title="Exact (certified): the central eps of Duchi et al.'s one-dimensional mechanism after shuffling equals shuffled binary randomized response's",
    source=Source(
        "exact",
        "the mechanism: Duchi, Jordan, Wainwright, JASA 2018, Sec. 4.2.3; its reduction to shuffled binary RR is derived here, proof in proofs_checks/derived/randomizers.py",
        "derived",
        "high",
    ),
    symbols=(n, delta, e0, eps, t, t2),
    hypotheses=(sp.Lt(delta, 1), sp.Le(n, MAX_N), sp.Gt(e0, 1), sp.Le(sp.log(e0), MAX_EPS0), sp.Le(sp.Abs(t), 1), sp.Le(sp.Abs(t2), 1)),
    hypothesis_names=("delta < 1", "n <= 1e8", "e0 > 1", "eps0 <= 40", "|t| <= 1", "|t2| <= 1"),
    conclusion=(sp.Eq(sp.Function("central_delta_duchi")(n, eps), sp.Function("central_delta_binary_rr")(n, eps)),),
    direction=Direction.EXACT,
    reference="shuffle_spec.reference.randomizers.duchi:duchi_epsilon",
    notes=(
        "Reports +-B with Pr[+B] = 1/2 + t (e0-1)/(2(e0+1)) in [1/(e0+1), e0/(e0+1)]. Inputs +-1 are binary RR (lower); every "
        "report is a mixture of the two binary RR rows, the others' mixture is common to both neighbours (joint convexity), "
        "and user 1's pair (t, t') gives P - eQ <= (lambda - lambda')(A - eB) pointwise (upper). Evaluated by "
        "exact.shuffled_binary_rr. Range: eps0 <= 40, n <= 1e8."
    ),
)

hp = sp.Symbol("h", positive=True)  # e^(eps0/2) of the piecewise mechanism
_pm_s = sp.Symbol("s", positive=True)  # outer-cell probability of the others' coarsened report
_pm_kappa = sp.Symbol("kappa", positive=True)  # the shift of user 1's outer-cell probability
PM_RANGE = (sp.Lt(delta, 1), sp.Le(n, MAX_N), sp.Gt(hp, 1), sp.Le(2 * sp.log(hp), MAX_EPS0))
PM_RANGE_NAMES = ("delta < 1", "n <= 1e8", "h = e^(eps0/2) > 1", "eps0 <= 40")
EXACT_PIECEWISE = Statement(
    id="BBGN19.Lem5.3.exact_piecewise",
    kind=Kind.PROCEDURE,
    title="Upper bound: the blanket bound for the piecewise mechanism on [-1, 1] (closed-form blanket gamma = e^(-eps0/2), worst pair -1 vs 1), certified",
    source=Source(
        "BBGN19",
        "Lemma 5.3, evaluated exactly with the closed-form decomposition of the piecewise mechanism of Wang, Xiao, Yang, Zhao, Hui, Shin, Shin, Yu (ICDE 2019, Sec. III-B, Alg. 2): omega uniform on [-C, C], gamma = 1/h (derived here, proof in proofs_checks/derived/piecewise.py)",
        "v2",
        "high",
    ),
    symbols=(n, delta, hp, eps),
    hypotheses=PM_RANGE,
    hypothesis_names=PM_RANGE_NAMES,
    conclusion=(sp.Le(four_group_blanket_delta(1 / hp, {1: hp, 0: 1 / hp}, {(1, 0): 1 / (hp + 1), (0, 0): (hp - 1) / (hp + 1), (0, 1): 1 / (hp + 1)}), delta, evaluate=False),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.randomizers.piecewise:piecewise_epsilon_upper",
    notes=(
        "Density p = h(h-1)/(2(h+1)) on t's piece [l(t), l(t) + C - 1], l(t) = (C+1)t/2 - (C-1)/2, and p/h^2 elsewhere on [-C, C], "
        "C = (h+1)/(h-1), h = e^(eps0/2): the LDP ratio is h^2 = e^eps0. The pieces of -1 and 1 are disjoint, so inf_t density = p/h^2 "
        "everywhere: omega uniform, gamma = 2Cp/h^2 = 1/h. The pair (-1, 1) has three groups (h, 1/h), (1/h, 1/h), (1/h, h) of omega-mass "
        "1/(h+1), (h-1)/(h+1), 1/(h+1) (exact lattice sums); every other pair's L is a mean-preserving contraction of it (convex order). "
        "h is rounded up: Lemma 5.3's value is non-decreasing in h (the stop-loss transform of h B L grows with h: proof check). "
        "Range: eps0 <= 40, n <= 1e8; refused beyond."
    ),
)

PIECEWISE_PARTITION_PAIR = Statement(
    id="exact.piecewise_partition_pair",
    kind=Kind.PROCEDURE,
    title="Lower bound (certified): explicit neighbouring pair of the piecewise mechanism (user 1 at -1 vs 1, the others at 0), reports coarsened to three cells",
    source=Source(
        "BBGN19",
        "neighbouring pair: user 1 holds -1 vs 1, the n - 1 others hold 0; coarsening each report to a cell, then a fixed channel on the cells, is a post-processing (derived here, proof in proofs_checks/derived/piecewise.py)",
        "derived",
        "high",
    ),
    symbols=(n, delta, hp, eps, _pm_s, _pm_kappa),
    hypotheses=PM_RANGE + (sp.Le(2 * _pm_s + _pm_kappa, 1),),
    hypothesis_names=PM_RANGE_NAMES + ("2 s + kappa <= 1",),
    conclusion=(sp.Le(mult_positive_part(n, sp.Tuple(_pm_s, 1 - 2 * _pm_s, _pm_s), sp.Tuple((_pm_s + _pm_kappa - E * _pm_s) / _pm_s, (1 - E) * (1 - 2 * _pm_s - _pm_kappa) / (1 - 2 * _pm_s), (_pm_s - E * (_pm_s + _pm_kappa)) / _pm_s)) / n, delta),),
    direction=Direction.LOWER_BOUND,
    reference="shuffle_spec.reference.randomizers.piecewise:piecewise_epsilon_lower",
    notes=(
        "Cells (-inf, -tau), [-tau, tau], (tau, inf), tau = max(1, (C-1)/2): input -1 gives (s + kappa, 1 - 2s - kappa, s), 0 gives "
        "(s, 1 - 2s, s), 1 the mirror of -1; h >= 2: s = 1/(h(h+1)), kappa = (h-1)/h; h <= 2: s = 1/(2(h+1)), kappa = (h-1)/2. "
        "Mixing every cell with a fixed law (probability about 2^-30) makes (s, kappa) rational. When h < 2 the coarsening with "
        "cells at +-1 and inputs -1, 1 only (the h >= 2 laws of those rows at every h) is tried as well. Each randomizer goes "
        "through exact.randomizer_pair; the certified lower bound is the larger lower end of the intervals."
    ),
)

alpha_i, beta_i, alpha_j, beta_j = sp.symbols("alpha_i beta_i alpha_j beta_j", nonnegative=True)
RAISED_DELTA = sp.Function("raised_blanket_delta")  # Lemma 5.3's sum with D'_N: group i's coefficient raised to group j's
EXACT_RAISED = Statement(
    id="BBGN19.Lem5.3.exact_raised",
    kind=Kind.PROCEDURE,
    title="Upper bound: the structured randomizers' blanket bound with one of the four groups raised to another's coefficient (three groups, exact lattice sums), certified",
    source=Source(
        "BBGN19",
        "Lemma 5.3 with the closed-form decompositions of BBGN19.Lem5.3.exact_unary / exact_local_hashing / exact_hadamard / exact_subset; the raise is derived here, proof in proofs_checks/derived/randomizers.py",
        "v2",
        "high",
    ),
    symbols=(n, delta, eps, alpha_i, beta_i, alpha_j, beta_j),
    hypotheses=(sp.Lt(delta, 1), sp.Le(n, MAX_N), sp.Le(beta_j, beta_i), sp.Ge(alpha_j - beta_j, alpha_i - beta_i)),
    hypothesis_names=("delta < 1", "n <= 1e8", "beta_j <= beta_i", "alpha_j - beta_j >= alpha_i - beta_i (c_j >= c_i for every e^eps >= 1)"),
    conclusion=(sp.Le(RAISED_DELTA(n, eps), delta),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.randomizers.raised:raised_epsilon_upper",
    notes=(
        "D_N = (1/N) E[(L_1 + ... + L_N)_+] with L = c_g = alpha_g - e^eps beta_g w.p. p_g; replacing c_i by c_j >= c_i "
        "(coupled, s -> s_+ non-decreasing) gives D'_N >= D_N, so Lemma 5.3's sum with D'_N bounds delta(eps). Three "
        "groups remain: the exact lattice sums (one positive coefficient; else the FFT bound of the four original "
        "groups). D'_N is non-increasing in N for any i.i.d. L (S_{N+1} is the mean of its N+1 leave-one-out sums; "
        "convexity), as the blocked N-sum needs. A second certified upper bound beside the registry's: tighter than the "
        "four-group FFT evaluation at large eps0 and n (OUE eps0 = 8, n = 1e6: 0.2079 against the FFT's 0.4285; the unary encodings now use the exact product-form sum, which gives the same 0.2079, so it matters for subset selection), looser at small eps0. "
        "e^eps0 rounded up as the mechanisms state. Range: eps0 <= 40 (OLH <= 13.8), d in [2, 1e9], n <= 1e8."
    ),
)

STATEMENTS: tuple[Statement, ...] = (
    EXACT_UNARY,
    UNARY_PATTERN_PAIR,
    EXACT_LOCAL_HASHING,
    LOCAL_HASHING_PATTERN_PAIR,
    EXACT_HADAMARD,
    HADAMARD_PATTERN_PAIR,
    EXACT_SUBSET,
    SUBSET_PATTERN_PAIR,
    EXACT_DUCHI,
    EXACT_PIECEWISE,
    PIECEWISE_PARTITION_PAIR,
    EXACT_RAISED,
)
