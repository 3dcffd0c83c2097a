"""EFMRSTT20: Erlingsson, Feldman, Mironov, Raghunathan, Song, Talwar, Thakurta, "Encode, Shuffle,
Analyze Privacy Revisited: Formalizations and Empirical Evaluation" (arXiv:2001.03618).

Version: arXiv 2001.03618v1 (10 Jan 2020; no later version compared, so no version differences are known);
each statement's source records its confidence. The paper's eps_l is `eps0` here, eps_c is `eps`.
"""

from __future__ import annotations

import sympy as sp

from ..statement import Direction, EffectiveDelta, Kind, Source, Statement
from ..symbols import beta, delta, delta_prime, eps, eps0, eps1, eps2, eps_b, eps_f, k, lam, n, t, tau

PAPER = "EFMRSTT20"
SEED = "arXiv v1 (10 Jan 2020), seed 004"

# Paper-specific symbols (ASCII names are the public parameter names).
delta0 = sp.Symbol("delta", nonnegative=True)  # a delta that may be 0 (definitions, composed mechanisms)
eps_total = sp.Symbol("eps_total", positive=True)  # epsilon of the k-fold composition (Thm II.7)
delta_total = sp.Symbol("delta_total", nonnegative=True)  # its delta
eps_rem = sp.Symbol("eps_rem", nonnegative=True)  # removal LDP epsilon
eps_rep = sp.Symbol("eps_rep", nonnegative=True)  # replacement LDP epsilon
eps_cr = sp.Symbol("eps_cr", positive=True)  # Crowd-ID privacy of Alg. 3
delta_cr = sp.Symbol("delta_cr", positive=True)
P = sp.Symbol("P", integer=True, positive=True)  # number of crowds
L = sp.Symbol("L", positive=True)  # l2 clipping norm of LDP-SGD
d = sp.Symbol("d", integer=True, positive=True)  # model dimension
T = sp.Symbol("T", integer=True, positive=True)  # epochs / SGD steps
diam = sp.Symbol("diam", positive=True)  # l2 diameter |C|_2 of the parameter set
c = sp.Symbol("c", positive=True)  # SGD step constant (eta_t = c / sqrt(t))
G = sp.Symbol("G", positive=True)  # gradient second-moment bound
alpha = sp.Symbol("alpha", nonnegative=True)  # l_inf error of a histogram estimate
S_sum = sp.Symbol("S", integer=True, nonnegative=True)  # a shuffler's sum of reported bits
h_hat = sp.Symbol("h_hat", real=True)  # a frequency estimate
P_S, Q_S, R0_S = sp.symbols("P_S Q_S R0_S", nonnegative=True)  # probabilities of one event S
D_R, D_Q = sp.symbols("D_R D_Q", nonnegative=True)  # hockey-stick divergences (Lemma A.1)

E0 = sp.exp(eps0)
L4 = sp.log(4 / delta)
L2 = sp.log(2 / delta)


def _eq1(lam_expr: sp.Expr) -> sp.Expr:
    """Eq. (1) of Lemma II.6 as a function of lambda."""
    m = lam_expr - sp.sqrt(2 * lam_expr * L2)
    return sp.sqrt(32 * L4 / m) * (1 - m / n)


LAMBDA_OF_EPS0 = 2 * n / (1 + E0)

_T_A = (
    "Table reproduction: the eps_l_inf of attribute fragmenting in Tables I, III rows 2-3, IV, "
    "VIII, IX and X rows 2-3 are the inverse of this Eq. (1) at lambda = 2n/(1+e^eps_l) with the table's n and delta_c "
    "(all within 0.012 of the printed values; tests/checks/test_efmrstt20_tables.py)."
)

# ---------------------------------------------------------------- Section II: definitions

DEF_II_1 = Statement(
    id="EFMRSTT20.DefII.1",
    kind=Kind.DEFINITION,
    title="Replacement (eps, delta)-DP",
    source=Source(PAPER, "Definition II.1", SEED, "high"),
    symbols=(eps, delta0, P_S, Q_S),
    hypotheses=(sp.Le(delta0, 1),),
    conclusion=(sp.Le(P_S, sp.exp(eps) * Q_S + delta0),),
    direction=Direction.DEFINITION,
    reference="shuffle_spec.reference.finite.closeness:is_dp_on_neighbours",
    notes=(
        "For all S, i and D, D' differing only in position i: Pr[M(D) in S] <= e^eps Pr[M(D') in S] + delta. "
        "P_S, Q_S are the probabilities of S under M(D), M(D'). Same as EFMRTT19.Def1."
    ),
)

DEF_II_2 = Statement(
    id="EFMRSTT20.DefII.2",
    kind=Kind.DEFINITION,
    title="Replacement (eps, delta)-DP local randomizer",
    source=Source(PAPER, "Definition II.2", SEED, "high"),
    symbols=(eps, delta0, P_S, Q_S),
    hypotheses=(sp.Le(delta0, 1),),
    conclusion=(sp.Le(P_S, sp.exp(eps) * Q_S + delta0),),
    direction=Direction.DEFINITION,
    reference="shuffle_spec.reference.finite.removal_ldp:is_replacement_ldp",
    notes=(
        "For all S and inputs x, x': Pr[R(x) in S] <= e^eps Pr[R(x') in S] + delta (P_S, Q_S). The paper prints "
        "Pr[R(x) in S] on the right-hand side (typo); R(x') is meant. Checked on exact finite randomizers by the "
        "largest likelihood ratio (pure case)."
    ),
)

DEF_II_3 = Statement(
    id="EFMRSTT20.DefII.3",
    kind=Kind.DEFINITION,
    title="Generalized removal (eps, delta)-DP",
    source=Source(PAPER, "Definition II.3", SEED, "high"),
    symbols=(eps, delta0, P_S, Q_S),
    hypotheses=(sp.Le(delta0, 1),),
    conclusion=(sp.Le(P_S, sp.exp(eps) * Q_S + delta0),),
    direction=Direction.DEFINITION,
    reference="shuffle_spec.reference.finite.removal_ldp:is_generalized_removal_dp",
    notes=(
        "M is removal (eps, delta)-DP if some M'(D, I), I subset of [n], has (1) M'(D, [n]) = M(D) in distribution, "
        "(2) M'(D, I) depends only on D's records in I, (3) Pr[M'(D,I) in S] <= e^eps Pr[M'(D,I') in S] + delta "
        "(P_S, Q_S) whenever |I symmetric-difference I'| = 1. Standard removal DP is M'(D, I) = M((x_i)_{i in I}) "
        "(shuffle_spec.reference.finite.removal_ldp.standard_removal_mechanism)."
    ),
)

DEF_II_4 = Statement(
    id="EFMRSTT20.DefII.4",
    kind=Kind.DEFINITION,
    title="Removal eps-DP local randomizer",
    source=Source(PAPER, "Definition II.4", SEED, "high"),
    symbols=(eps, P_S, R0_S),
    hypotheses=(),
    conclusion=(sp.Le(sp.exp(-eps) * R0_S, P_S), sp.Le(P_S, sp.exp(eps) * R0_S)),
    direction=Direction.DEFINITION,
    reference="shuffle_spec.reference.finite.removal_ldp:is_removal_ldp",
    notes=(
        "There is a random variable R_0 (the output of an absent respondent) with e^-eps Pr[R_0 in S] <= Pr[R(x) in S] "
        "<= e^eps Pr[R_0 in S] for all S and x (P_S, R0_S). Removal eps => replacement 2 eps (chain the two "
        "inequalities); replacement eps => removal eps (R_0 = R(x_0)). The optimal R_0 of a finite randomizer is "
        "computed exactly by shuffle_spec.reference.finite.removal_ldp.optimal_removal_e_eps_squared: (e^eps*)^2 = max(max_y b_y/a_y, "
        "(sum_y b_y)^2, (1/sum_y a_y)^2), a_y/b_y the column min/max (feasibility of boxes with a sum constraint)."
    ),
)

REMOVAL_REPLACEMENT = Statement(
    id="EFMRSTT20.removal_replacement_factor",
    kind=Kind.PROPOSITION,
    title="Removal and replacement LDP agree up to a factor 2",
    source=Source(PAPER, "Section II-A, after Definition II.4; Section VII-C", SEED, "high"),
    symbols=(eps_rem, eps_rep),
    hypotheses=(),
    conclusion=(sp.Le(eps_rem, eps_rep), sp.Le(eps_rep, 2 * eps_rem)),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.finite.removal_ldp:optimal_removal_epsilon",
    notes=(
        "For a randomizer with replacement epsilon eps_rep and optimal removal epsilon eps_rem (over all R_0): "
        "eps_rem <= eps_rep <= 2 eps_rem (Sec. VII-C: eps_Add/Remove <= eps_Replace <= 2 eps_Add/Remove). Both ends "
        "are attained: k-RR with k -> infinity, and the 3-output randomizer of tests/reference/finite/test_removal_ldp.py."
    ),
)

REMOVAL_BINARY_RR = Statement(
    id="EFMRSTT20.DefII.4.binary_rr",
    kind=Kind.DEFINITION,
    title="Optimal removal epsilon of binary randomized response",
    source=Source(PAPER, "Definition II.4 applied to binary RR (derived here)", SEED, "high"),
    symbols=(eps0, eps),
    hypotheses=(),
    conclusion=(sp.Eq(eps, sp.log((1 + E0) / 2)),),
    direction=Direction.EXACT,
    reference="shuffle_spec.reference.finite.removal_ldp:binary_rr_removal_epsilon",
    inputs=(eps0,),
    output=eps,
    value=sp.log((1 + E0) / 2),
    examples=({"eps0": 0.5}, {"eps0": 1.0}, {"eps0": 8.0}),
    invalid_examples=({"eps0": -1.0}, {"eps0": 0.0}),
    notes=(
        "Binary RR with replacement epsilon eps0 has optimal removal epsilon ln((1+e^eps0)/2), attained by the uniform "
        "R_0 (derived from the box-feasibility characterization of DefII.4's notes; not printed in the paper). "
        "eps0 / ln((1+e^eps0)/2) -> 2 as eps0 -> 0: the factor 2 between the definitions, shown on RR. On k-RAPPOR "
        "(Alg. 1) the factor is exactly 2 for the paper's R_0 = RR(all zeros): replacement 2 eps0, removal eps0 "
        "(Table III row 1's 'eps_l = 2.0' is this replacement epsilon of per-bit RR at 1.0)."
    ),
)

LEM_II_5 = Statement(
    id="EFMRSTT20.LemII.5",
    kind=Kind.LEMMA,
    title="Amplification by shuffling of general eps0-LDP randomizers (asymptotic, O(.))",
    source=Source(PAPER, "Lemma II.5 (cites [29] = BBGN19, Corollary 5.3.1)", SEED, "high"),
    symbols=(eps0, n, delta, eps),
    hypotheses=(sp.Lt(delta, 1), sp.Le(eps0, sp.log(n / sp.log(1 / delta)) / 2)),
    conclusion=(sp.Eq(eps, sp.Order((E0 - 1) * sp.sqrt(sp.log(1 / delta) / n), (n, sp.oo))),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.shuffled_rr_cheu:lemma_ii5_hypotheses_hold",
    notes=(
        "Asymptotic only: eps = O((e^eps0 - 1) sqrt(log(1/delta)/n)) with no constant, so it is not evaluable; the "
        "reference checks the hypothesis eps0 <= log(n/log(1/delta))/2. The SymPy Order is in n -> infinity. The "
        "paper states delta in [0, 1]; delta < 1 is needed for log(1/delta) > 0. For numbers use BBGN19's explicit "
        "Theorem 5.3 / Corollary 5.3.1. Appendix Thm A.3 cites the same source as '[29, Corollary 5.1]' with the "
        "different condition eps0 <= log(n)/4 (EFMRSTT20.ThmA.3); both registered as printed."
    ),
)

LEM_II_6 = Statement(
    id="EFMRSTT20.LemII.6",
    kind=Kind.LEMMA,
    title="Shuffled binary randomized response (Cheu et al. Cor. 17), in terms of the local eps0",
    source=Source(PAPER, "Lemma II.6 (cites [13] = Cheu et al. EUROCRYPT'19, Corollary 17) with lambda = 2n/(1+e^eps0)", SEED, "high"),
    symbols=(eps0, n, delta, eps),
    hypotheses=(sp.Le(delta, 1), sp.Ge(LAMBDA_OF_EPS0, 14 * L4)),
    conclusion=(sp.Le(eps, _eq1(LAMBDA_OF_EPS0)),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.shuffled_rr_cheu:shuffled_rr_epsilon",
    inputs=(eps0, n, delta),
    output=eps,
    value=_eq1(LAMBDA_OF_EPS0),
    mechanism="binary_rr",
    tags=frozenset({"amplification"}),
    examples=(
        {"eps0": 1.0, "n": 10000, "delta": 1e-6},
        {"eps0": 0.5, "n": 1000, "delta": 1e-3},
        {"eps0": 4.0, "n": 1000000, "delta": 1e-8},
        {"eps0": 12.99, "n": 203950512, "delta": 5e-10},
    ),
    invalid_examples=(
        {"eps0": 5.0, "n": 1000, "delta": 1e-6},
        {"eps0": 1.0, "n": 10000, "delta": 2.0},
        {"eps0": 1.0, "n": 10, "delta": 0.5},
    ),
    notes=(
        "Each bit flipped w.p. lambda/(2n); for delta in [0,1], lambda in [14 log(4/delta), n] the count is (eps, delta)-DP "
        "with eps = sqrt(32 log(4/delta)/m)(1 - m/n), m = lambda - sqrt(2 lambda log(2/delta)) (Eq. (1)). Binary RR "
        "with local eps0 flips w.p. 1/(1+e^eps0), i.e. lambda = 2n/(1+e^eps0) (proof of Thm III.1); lambda <= n holds "
        "automatically and the range condition becomes e^eps0 <= 2n/(14 log(4/delta)) - 1. The lambda form is "
        "EFMRSTT20.LemII.6.lam, the inverse EFMRSTT20.LemII.6.inverse. Checked against the exact central epsilon of "
        "shuffled binary RR for n <= 40. " + _T_A
    ),
)

LEM_II_6_LAM = Statement(
    id="EFMRSTT20.LemII.6.lam",
    kind=Kind.LEMMA,
    title="Shuffled binary randomized response (Cheu et al. Cor. 17), in terms of lambda",
    source=Source(PAPER, "Lemma II.6, Eq. (1)", SEED, "high"),
    symbols=(lam, n, delta, eps),
    hypotheses=(sp.Le(delta, 1), sp.Ge(lam, 14 * L4), sp.Le(lam, n)),
    conclusion=(sp.Le(eps, _eq1(lam)),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.shuffled_rr_cheu:shuffled_rr_epsilon_for_lambda",
    inputs=(lam, n, delta),
    output=eps,
    value=_eq1(lam),
    examples=({"lam": 500.0, "n": 10000, "delta": 1e-6}, {"lam": 1000.0, "n": 1000, "delta": 1e-3}, {"lam": 30.0, "n": 40, "delta": 0.5}),
    invalid_examples=({"lam": 100.0, "n": 10000, "delta": 1e-6}, {"lam": 2000.0, "n": 1000, "delta": 1e-3}),
    notes="Eq. (1) with lambda as the parameter (flip probability lambda/(2n)); lambda in [14 log(4/delta), n].",
)

LEM_II_6_INVERSE = Statement(
    id="EFMRSTT20.LemII.6.inverse",
    kind=Kind.PROCEDURE,
    title="Largest local eps0 whose shuffled binary RR Lemma II.6 certifies (eps, delta)-DP",
    source=Source(PAPER, "Lemma II.6 inverted (how Tables I, III, IV, VIII, IX choose eps_l_inf)", SEED, "high"),
    symbols=(eps, n, delta, eps0),
    hypotheses=(
        sp.Le(delta, 1),
        sp.Gt(2 * n / (14 * L4) - 1, 1),
        sp.Ge(eps, _eq1(n)),
    ),
    conclusion=(sp.Le(_eq1(LAMBDA_OF_EPS0), eps),),
    direction=Direction.LOWER_BOUND,
    reference="shuffle_spec.reference.bounds.shuffled_rr_cheu:shuffled_rr_largest_eps0",
    inputs=(eps, n, delta),
    output=eps0,
    value=None,
    examples=({"eps": 1.0, "n": 203950512, "delta": 5e-10}, {"eps": 0.05, "n": 1914589, "delta": 5e-8}, {"eps": 0.5, "n": 10000, "delta": 1e-6}),
    invalid_examples=({"eps": 0.001, "n": 10000, "delta": 1e-6}, {"eps": 1.0, "n": 100, "delta": 1e-6}),
    hypothesis_names=("", "", "eps >= Eq. (1) at lambda = n (the smallest eps Lemma II.6 certifies at this n)"),
    notes=(
        "The largest eps0 in Lemma II.6's range with Eq.(1)(lambda = 2n/(1+e^eps0)) <= eps, found by verified bisection "
        "(Eq. (1) increases with eps0). A lower bound on the exact root (direction lower_bound): the returned eps0 is "
        "certified. Refused when the range is empty (2n/(14 log(4/delta)) - 1 <= 1) or the target is below the value "
        "at lambda = n (eps0 -> 0). No closed form; agreement is checked in proofs_checks/papers/efmrstt20.py. " + _T_A
    ),
)

_BS_LOG = sp.log(sp.sqrt(sp.pi * k / 2) * eps / delta_prime)
_BS_VALUE = k * eps**2 / 2 + sp.sqrt(k) * eps * sp.sqrt(2 * _BS_LOG)
# Thm II.7's conclusion holds at delta' + k delta, delta the per-mechanism delta, which is not an input.
_BS_DELTA = EffectiveDelta(
    "", "delta_prime + k*delta, delta the per-mechanism delta of the composed mechanisms (not an input; k*delta = 0 for pure eps-DP mechanisms)"
)
_BS_REPORTED = (
    " Reported: the value with the delta the composition holds at, delta_prime + k*delta (field effective_delta); the "
    "per-mechanism delta is not an input, so no number is given for it."
)

THM_II_7 = Statement(
    id="EFMRSTT20.ThmII.7",
    kind=Kind.THEOREM,
    title="Advanced composition, Bun-Steinke sharpening",
    source=Source(PAPER, "Theorem II.7 (cites [33] = Bun-Steinke, Corollary 8.11)", SEED, "medium-high"),
    symbols=(eps, k, delta_prime, delta0, eps_total, delta_total),
    hypotheses=(sp.Gt(eps, 0), sp.Lt(delta_prime, 1), sp.Ge(sp.sqrt(sp.pi * k / 2) * eps, delta_prime)),
    conclusion=(sp.Le(eps_total, _BS_VALUE), sp.Eq(delta_total, delta_prime + k * delta0)),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.composition.bun_steinke:advanced_composition_epsilon",
    inputs=(eps, k, delta_prime),
    output=eps_total,
    value=_BS_VALUE,
    examples=({"eps": 0.1, "k": 10, "delta_prime": 1e-6}, {"eps": 1.0, "k": 1, "delta_prime": 0.5}, {"eps": 0.01, "k": 1000, "delta_prime": 1e-9}),
    invalid_examples=({"eps": 1e-9, "k": 1, "delta_prime": 1e-3}, {"eps": 0.1, "k": 10, "delta_prime": 1.5}),
    notes=(
        "k adaptively composed mechanisms, each (eps, delta)-DP for every previous output, are "
        "(k eps^2/2 + sqrt(k) eps sqrt(2 log(sqrt(pi k/2) eps/delta')), delta' + k delta)-DP for every delta' > 0. "
        "The extraction 'sqrt(2 log(sqrt(k pi/2) eps/delta'))' is read as sqrt(pi k eps^2/2)/delta' inside the log "
        "(= Bun-Steinke's rho-zCDP conversion at rho = k eps^2/2; medium-high). Hypothesis added: the log's argument "
        "is >= 1 (otherwise the square root is undefined); delta' < 1. Checked against the exact composition of "
        "binary RR (the worst case for pure composition). Inverse: EFMRSTT20.ThmII.7.inverse." + _BS_REPORTED
    ),
    effective_delta=_BS_DELTA,
)

THM_II_7_INVERSE = Statement(
    id="EFMRSTT20.ThmII.7.inverse",
    kind=Kind.PROCEDURE,
    title="Largest per-step eps whose k-fold composition Thm II.7 certifies at eps_total",
    source=Source(PAPER, "Theorem II.7 inverted", SEED, "medium-high"),
    symbols=(eps_total, k, delta_prime, eps),
    hypotheses=(sp.Lt(delta_prime, 1), sp.Ge(eps_total, _BS_VALUE.subs(eps, delta_prime / sp.sqrt(sp.pi * k / 2)))),
    conclusion=(sp.Le(_BS_VALUE, eps_total),),
    direction=Direction.LOWER_BOUND,
    reference="shuffle_spec.reference.composition.bun_steinke:advanced_composition_largest_eps",
    inputs=(eps_total, k, delta_prime),
    output=eps,
    value=None,
    examples=({"eps_total": 1.0, "k": 10, "delta_prime": 1e-6}, {"eps_total": 5.0, "k": 256, "delta_prime": 1e-9}, {"eps_total": 0.5, "k": 1, "delta_prime": 0.1}),
    invalid_examples=({"eps_total": 1e-12, "k": 10, "delta_prime": 1e-3}, {"eps_total": 1.0, "k": 10, "delta_prime": 2.0}),
    notes=(
        "Verified bisection on the forward bound (increasing in eps on the domain eps >= delta'/sqrt(pi k/2)); refused "
        "when eps_total is below the value at the smallest eps of the domain." + _BS_REPORTED
    ),
    effective_delta=_BS_DELTA,
)

# ---------------------------------------------------------------- Section III: attribute fragmenting

ALG_1 = Statement(
    id="EFMRSTT20.Alg1",
    kind=Kind.ALGORITHM,
    title="Attribute fragmenting of k-RAPPOR, with its estimator",
    source=Source(PAPER, "Algorithm 1 and Section III-A (estimator)", SEED, "high"),
    symbols=(eps0, n, S_sum, h_hat),
    hypotheses=(sp.Le(S_sum, n),),
    conclusion=(sp.Eq(h_hat, (E0 + 1) / (E0 - 1) * S_sum / n - 1 / (E0 - 1)),),
    direction=Direction.EXACT,
    reference="shuffle_spec.reference.protocols.attribute_fragmenting:attribute_fragmenting_run",
    notes=(
        "One-hot encode x in {0,1}^k; send bit j randomized by RR(eps0) (keep w.p. e^eps0/(1+e^eps0)) to shuffler S_j. "
        "Shuffler S_j's sum S gives the unbiased estimate h_hat. Per respondent zeta = ((e+1) xhat - 1)/(e-1) has "
        "E zeta = x and Var zeta = e^eps0/(e^eps0-1)^2 (EFMRSTT20.Alg1.variance); the paper prints "
        "'Var = (e+1)/(e-1) - 1' (= 2/(e-1), not the variance; same order Theta(e^-eps0)). The reference runs on a "
        "histogram, sampling each shuffler's sum as Binomial(c_j, keep) + Binomial(n - c_j, flip) (exact in "
        "distribution), so n ~ 2e8 and k ~ 3e6 run in seconds."
    ),
)

_P_FLIP = 1 / (1 + E0)

ALG_1_BITS = Statement(
    id="EFMRSTT20.Alg1.bits",
    kind=Kind.ALGORITHM,
    title="Expected number of 1-bits in a k-RAPPOR report",
    source=Source(PAPER, "Section II-B; #bits rows of Tables I and III", SEED, "high"),
    symbols=(k, eps0, sp.Symbol("bits", nonnegative=True)),
    hypotheses=(),
    conclusion=(sp.Eq(sp.Symbol("bits", nonnegative=True), _P_FLIP * (k - 1) + (1 - _P_FLIP)),),
    direction=Direction.EXACT,
    reference="shuffle_spec.reference.protocols.attribute_fragmenting:expected_reported_bits",
    inputs=(k, eps0),
    output=sp.Symbol("bits", nonnegative=True),
    value=_P_FLIP * (k - 1) + (1 - _P_FLIP),
    examples=({"k": 1778120, "eps0": 12.99}, {"k": 65536, "eps0": 1.78}, {"k": 87680, "eps0": 2.0}),
    invalid_examples=({"k": 0, "eps0": 1.0}, {"k": 10, "eps0": -1.0}),
    notes=(
        "p (k-1) + (1-p), p = 1/(1+e^eps0): the k-1 zero bits each flip to 1 w.p. p, the one bit stays 1 w.p. 1-p. "
        "k is the domain size for one-hot reports and 65,536 for the count-mean-sketch reports. Reproduces all 23 "
        "#bits of Tables I and III (tests/checks/test_efmrstt20_tables.py); Table III row 1 uses per-bit eps 2.0 for #bits."
    ),
)

ALG_1_VARIANCE = Statement(
    id="EFMRSTT20.Alg1.variance",
    kind=Kind.ALGORITHM,
    title="Variance of one respondent's debiased bit in attribute fragmenting",
    source=Source(PAPER, "Section III-A (Var[zeta]; printed expression corrected)", SEED, "medium"),
    symbols=(eps0, sp.Symbol("variance", nonnegative=True)),
    hypotheses=(),
    conclusion=(sp.Eq(sp.Symbol("variance", nonnegative=True), E0 / (E0 - 1) ** 2),),
    direction=Direction.EXACT,
    reference="shuffle_spec.reference.protocols.attribute_fragmenting:estimator_variance",
    inputs=(eps0,),
    output=sp.Symbol("variance", nonnegative=True),
    value=E0 / (E0 - 1) ** 2,
    examples=({"eps0": 0.5}, {"eps0": 2.0}, {"eps0": 10.0}),
    invalid_examples=({"eps0": 0.0},),
    notes="((e+1)/(e-1))^2 x p(1-p) with p = e/(1+e): e/(e-1)^2, for either true bit. The paper prints (e+1)/(e-1) - 1.",
)

THM_III_1 = Statement(
    id="EFMRSTT20.ThmIII.1",
    kind=Kind.THEOREM,
    title="Attribute fragmenting of k-RAPPOR: removal eps0-LDP and removal central eps in the shuffle model",
    source=Source(PAPER, "Theorem III.1 (proof in Appendix A)", SEED, "high"),
    symbols=(eps0, n, delta, eps),
    hypotheses=(
        sp.Le(delta, 1),
        sp.Ge(eps0, 1),
        sp.Le(eps0, sp.log(n) - sp.log(14 * L4)),
        sp.Ge(delta, n ** (-sp.log(n))),
    ),
    conclusion=(sp.Le(eps, sp.sqrt(64 * E0 * L4 / n)),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.attribute_fragmenting:att_frag_central_epsilon",
    inputs=(eps0, n, delta),
    output=eps,
    value=sp.sqrt(64 * E0 * L4 / n),
    mechanism="k_rappor_attribute_fragmenting",
    tags=frozenset({"amplification"}),
    examples=({"eps0": 1.0, "n": 10000, "delta": 1e-6}, {"eps0": 2.0, "n": 1000000, "delta": 1e-8}, {"eps0": 12.99, "n": 203950512, "delta": 5e-10}),
    invalid_examples=({"eps0": 0.5, "n": 10000, "delta": 1e-6}, {"eps0": 5.0, "n": 10000, "delta": 1e-6}, {"eps0": 1.0, "n": 10000, "delta": 1e-40}),
    notes=(
        "Removal DP, both locally (R_0 = RR of the all-zeros vector) and centrally (a respondent's removal changes one "
        "bit per shuffler). Proof: Lemma II.6 with lambda = 2n/(1+e^eps0); the upper end of the eps0 range, "
        "e^eps0 <= n/(14 log(4/delta)), gives lambda >= n/e^eps0 >= 14 log(4/delta) (as 1 + e^eps0 <= 2 e^eps0); "
        "then lambda - sqrt(2 lambda log(2/delta)) >= lambda/2 "
        "and (1+e)/2 <= e (checked in proofs_checks/papers/efmrstt20.py). At the tables' parameters the closed form is "
        "1.8-2.2x Eq. (1): the tables use Eq. (1) (EFMRSTT20.LemII.6), not this closed form."
    ),
)

THM_III_2 = Statement(
    id="EFMRSTT20.ThmIII.2",
    kind=Kind.THEOREM,
    title="Attribute fragmenting: utility/privacy tradeoff (Theta(.))",
    source=Source(PAPER, "Theorem III.2 (radical placement resolved by its proof)", SEED, "medium"),
    symbols=(eps0, n, k, beta, delta, eps, alpha),
    hypotheses=(sp.Lt(beta, 1),),
    conclusion=(
        sp.Eq(alpha, sp.Order(sp.sqrt(sp.log(k / beta) / (n * E0)), (n, sp.oo))),
        sp.Eq(alpha, sp.Order(sp.sqrt(sp.log(k / beta) * sp.log(1 / delta)) / (n * eps), (n, sp.oo))),
    ),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.attribute_fragmenting:attribute_fragmenting_run",
    notes=(
        "With probability >= 1 - beta the l_inf error is alpha = Theta(sqrt(log(k/beta)/(n e^eps0))) = "
        "Theta(sqrt(log(k/beta) log(1/delta))/(n eps)), eps the central epsilon of Thm III.1. Theta, registered with "
        "SymPy's Order (the upper half). The extraction's literal 'sqrt(log(k/beta)/(n e^{eps0/2}))' contradicts the "
        "proof and the eps form; the proof's reading is used. Checked by simulation (Hoeffding/Bernstein-level "
        "constants) in tests/test_efmrstt20_attribute_fragmenting.py."
    ),
)

# ---------------------------------------------------------------- Section IV: report fragmenting

_COMPOSED = sp.log((sp.exp(eps1 + eps2) + 1) / (sp.exp(eps1) + sp.exp(eps2)))
_FRAGMENTS = _COMPOSED.subs({eps1: eps_b, eps2: t * eps_f}, simultaneous=True)

ALG_2 = Statement(
    id="EFMRSTT20.Alg2",
    kind=Kind.ALGORITHM,
    title="Report fragmenting with a backstop randomizer, r-frag(R_b, R_f, eps_b, eps_f, tau)",
    source=Source(PAPER, "Algorithm 2 and Section IV (histograms: M(x))", SEED, "high"),
    symbols=(eps_b, eps_f, tau),
    hypotheses=(),
    conclusion=(1 / (1 + sp.exp(eps_b)), 1 / (1 + sp.exp(eps_f))),
    direction=Direction.EXACT,
    reference="shuffle_spec.reference.protocols.report_fragmenting:report_fragmenting_bits",
    notes=(
        "x' = R_b(x; eps_b) once (backstop), then tau fragments y_i = R_f(x'; eps_f), fragment i to shuffler S_i. For "
        "histograms both are binary RR on each one-hot coordinate (flip probabilities 1/(1+e^eps_b), 1/(1+e^eps_f), the "
        "conclusion), giving the tau x k matrix M(x). Exact randomizer of t fragments: "
        "shuffle_spec.reference.protocols.report_fragmenting.report_fragment_randomizer."
    ),
)

THM_IV_1 = Statement(
    id="EFMRSTT20.ThmIV.1",
    kind=Kind.THEOREM,
    title="LDP of any t fragments of report fragmenting",
    source=Source(PAPER, "Theorem IV.1", SEED, "high"),
    symbols=(eps_b, eps_f, t, eps),
    hypotheses=(),
    conclusion=(sp.Le(eps, _FRAGMENTS), sp.Le(_FRAGMENTS, sp.Min(eps_b, t * eps_f))),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.report_fragmenting:report_fragment_epsilon",
    inputs=(eps_b, eps_f, t),
    output=eps,
    value=_FRAGMENTS,
    examples=({"eps_b": 8.55, "eps_f": 8.55 - 1.3862943611198906, "t": 4}, {"eps_b": 7.235, "eps_f": 2.0, "t": 1}, {"eps_b": 1.0, "eps_f": 0.1, "t": 256}),
    invalid_examples=({"eps_b": 1.0, "eps_f": 1.0, "t": 0}, {"eps_b": -1.0, "eps_f": 1.0, "t": 2}),
    notes=(
        "The fragments y_J, |J| = t, of r-frag with an eps_b-DP backstop and eps_f-DP fragments form an eps-DP local "
        "randomizer, eps = ln((e^{eps_b + t eps_f} + 1)/(e^{eps_b} + e^{t eps_f})) <= min(eps_b, t eps_f) (Cor A.2 with "
        "eps1 = eps_b, eps2 = t eps_f, since t fragments of R_f form a (t eps_f)-DP randomizer of x'). Replacement DP; "
        "removal if R_b is removal DP. t <= tau (t = tau: the tables' eps_l_inf; t = 1: eps_l1). Tables: "
        "eps_b = the attribute-fragmenting eps_l_inf of the same eps_c; eps_f is not stated; eps_f = eps_b - ln(tau) "
        "reproduces eps_l1 within 0.01 wherever eps_l1 >= 2.4."
    ),
)

THM_IV_2 = Statement(
    id="EFMRSTT20.ThmIV.2",
    kind=Kind.THEOREM,
    title="Report fragmenting of attribute-fragmented k-RAPPOR: utility/privacy tradeoff (as printed)",
    source=Source(PAPER, "Theorem IV.2 (proof in Appendix B)", SEED, "medium"),
    symbols=(eps_b, eps_f, tau, n, delta, eps, alpha, k, beta),
    hypotheses=(sp.Gt(eps_f, 1), sp.Lt(delta, sp.Rational(1, 2))),
    conclusion=(
        sp.Le(eps, _FRAGMENTS.subs(t, tau)),
        sp.Le(eps, sp.Min(sp.sqrt(8 * tau * eps_f * sp.log(tau * eps_f / delta) ** 2 / n), sp.sqrt(64 * sp.exp(eps_b) * L4 / n))),
        sp.Eq(alpha, sp.Order(sp.sqrt(sp.log(k / beta) / (n * tau * eps_f)) + sp.sqrt(sp.log(k / beta) / (n * sp.exp(eps_b))), (n, sp.oo))),
    ),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.report_fragmenting:report_fragment_epsilon",
    notes=(
        "First conclusion: removal LDP of all tau fragments (Thm IV.1, t = tau; the reference implements this part). "
        "Second: the central eps_c as printed, registered but NOT implemented as a bound: 'log2' read as log^2; the "
        "printed first term sqrt(8 tau eps_f log^2(tau eps_f/delta)/n) is not what the proof's derivation (Lemma II.6 "
        "per row of M(x), then Thm II.7 over tau rows) yields, which carries e^{eps_f} and larger constants, and the "
        "second term is Thm III.1's, valid only in Thm III.1's eps range, while the proof cites Lemma II.5. Third: the "
        "accuracy as printed (first term with tau eps_f, no exponential). 'Corollary IV.2', cited in Sec. IV for the "
        "error factor sqrt(exp(eps/2)/eps) of splitting a budget into eps/eps_f reports, does not exist in the paper; "
        "recorded here as an informal claim only."
    ),
)

LEM_A_1 = Statement(
    id="EFMRSTT20.LemA.1",
    kind=Kind.LEMMA,
    title="Composition of two local randomizers reduces to binary domains",
    source=Source(PAPER, "Lemma A.1 (Appendix B)", SEED, "high"),
    symbols=(eps, delta0, D_R, D_Q),
    hypotheses=(),
    conclusion=(sp.Ge(D_Q, D_R),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.report_fragmenting:binary_reduction",
    notes=(
        "If every Q_2 o Q_1 with Q_i: {0,1} -> {0,1} replacement (eps_i, delta_i)-DP is (eps, delta)-DP, so is every "
        "R_2 o R_1. Proof (constructive): for the worst event S and inputs x, x', the binary Q_1 (indicator of "
        "P_1 = {y: R_1(x)(y) > e^eps R_1(x')(y)}) and Q_2 (Bernoulli of Pr[R_2(y_b) in S], y_0/y_1 the minimizer/"
        "maximizer) are post-processings of R_1, R_2 with Pr[Q_2Q_1(0)=1] - e^eps Pr[Q_2Q_1(1)=1] = D_Q >= D_R = "
        "Pr[R_2R_1(x) in S] - e^eps Pr[R_2R_1(x') in S]. Checked on random exact instances."
    ),
)

COR_A_2 = Statement(
    id="EFMRSTT20.CorA.2",
    kind=Kind.COROLLARY,
    title="Tight LDP of the composition R_2 o R_1 of two pure local randomizers",
    source=Source(PAPER, "Corollary A.2 (Appendix B)", SEED, "high"),
    symbols=(eps1, eps2, eps),
    hypotheses=(sp.Gt(eps1, 0), sp.Gt(eps2, 0)),
    conclusion=(sp.Le(eps, _COMPOSED), sp.Le(_COMPOSED, sp.Min(eps1, eps2))),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.report_fragmenting:composed_epsilon",
    inputs=(eps1, eps2),
    output=eps,
    value=_COMPOSED,
    examples=({"eps1": 1.0, "eps2": 2.0}, {"eps1": 0.01, "eps2": 0.02}, {"eps1": 13.14, "eps2": 5.0}),
    invalid_examples=({"eps1": 0.0, "eps2": 1.0}, {"eps1": 1.0, "eps2": -2.0}),
    notes=(
        "For replacement eps1-DP R_1: X -> Y and eps2-DP R_2: Y -> Z, R_2 o R_1 is replacement eps-DP with "
        "eps = ln((e^{eps1+eps2}+1)/(e^{eps1}+e^{eps2})); removal eps-DP if R_1 is removal eps1-DP (R_0 -> R_2(R_0)). "
        "Tight: binary RR with eps1 and eps2 attains it. The paper remarks (e^{eps1+eps2}+1)/(e^{eps1}+e^{eps2}) <= "
        "min(e^{eps1}, e^{eps2}), i.e. eps <= min(eps1, eps2) (the second conclusion); "
        "eps = O(eps1 eps2) for eps1, eps2 <= 1."
    ),
)

# ---------------------------------------------------------------- Section V: crowds

_SHIFT = 2 / eps_cr * sp.log(2 / delta_cr)
n_i = sp.Symbol("n_i", integer=True, nonnegative=True)
lap = sp.Symbol("Lap", real=True)

ALG_3 = Statement(
    id="EFMRSTT20.Alg3",
    kind=Kind.ALGORITHM,
    title="Randomized report deletion per Crowd ID",
    source=Source(PAPER, "Algorithm 3", SEED, "high"),
    symbols=(eps_cr, delta_cr, n_i, lap),
    hypotheses=(sp.Lt(delta_cr, 1),),
    conclusion=(sp.Max(n_i + lap - _SHIFT, 0),),
    direction=Direction.EXACT,
    reference="shuffle_spec.reference.protocols.report_deletion:randomized_report_deletion",
    notes=(
        "Per crowd: n_hat = max(n_i + Lap(2/eps_cr) - (2/eps_cr) log(2/delta_cr), 0) (the conclusion; Lap has density "
        "e^{-|x|/b}/(2b)); abort if n_hat > n_i, else delete n_i - n_hat uniformly chosen reports. n_hat is real as "
        "printed; the reference rounds it down (post-processing), so abort iff Lap >= s + 1."
    ),
)

THM_V_1 = Statement(
    id="EFMRSTT20.ThmV.1",
    kind=Kind.THEOREM,
    title="Randomized report deletion is (eps_cr, delta_cr)-DP on the crowd counts",
    source=Source(PAPER, "Theorem V.1 (proof in Appendix C)", SEED, "high"),
    symbols=(eps_cr, delta_cr, delta0),
    hypotheses=(sp.Lt(delta_cr, 1),),
    conclusion=(sp.Le(delta0, delta_cr),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.report_deletion:report_deletion_delta",
    notes=(
        "Neighbouring datasets change at most two crowd counts by one; each n_hat is eps_cr/2-DP (Laplace, scale "
        "2/eps_cr), no abort w.p. >= 1 - delta_cr/2 (exactly: abort w.p. delta_cr/4 per crowd for real n_hat), so "
        "(eps_cr/2, delta_cr/2) per crowd, composed over two crowds. The conclusion: the exact delta (delta) of the "
        "released counts at eps_cr is <= delta_cr; computed exactly (60-digit Laplace CDF) on small count vectors."
    ),
)

THM_V_2 = Statement(
    id="EFMRSTT20.ThmV.2",
    kind=Kind.THEOREM,
    title="Randomized report deletion deletes few reports per crowd",
    source=Source(PAPER, "Theorem V.2", SEED, "high"),
    symbols=(eps_cr, delta_cr, P, sp.Symbol("deleted", nonnegative=True)),
    hypotheses=(sp.Lt(delta_cr, 1),),
    conclusion=(sp.Le(sp.Symbol("deleted", nonnegative=True), 4 / eps_cr * sp.log(2 * P / delta_cr)),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.report_deletion:deletion_bound",
    inputs=(eps_cr, delta_cr, P),
    output=sp.Symbol("deleted", nonnegative=True),
    value=4 / eps_cr * sp.log(2 * P / delta_cr),
    examples=({"eps_cr": 1.0, "delta_cr": 0.1, "P": 5}, {"eps_cr": 0.5, "delta_cr": 1e-6, "P": 1000}, {"eps_cr": 2.0, "delta_cr": 0.5, "P": 1}),
    invalid_examples=({"eps_cr": 1.0, "delta_cr": 1.5, "P": 5}, {"eps_cr": 1.0, "delta_cr": 0.1, "P": 0}),
    notes=(
        "With probability >= 1 - delta_cr, every crowd i has |R_i minus R'_i| <= (4/eps_cr) log(2P/delta_cr). The "
        "proof text uses other symbols (2T = (4/eps_cr) log(4/delta_cr), 'xi crowds'); the statement is registered. "
        "Check: deleted = s - Lap (s = (2/eps_cr) log(2/delta_cr)) exceeds the bound only if -Lap > "
        "(2/eps_cr) log(2P^2/delta_cr), probability delta_cr/(4P^2) per crowd; a union bound over P crowds gives "
        "delta_cr/(4P) <= delta_cr. "
        "With this package's rounding down of n_hat, one more report may be deleted; the bound still holds with "
        "failure probability <= delta_cr e^{eps_cr/2}/(4P) <= delta_cr when e^{eps_cr/2} <= 4P "
        "(reference.protocols.report_deletion.deletion_bound_failure_probability)."
    ),
)

# ---------------------------------------------------------------- Section VI: LDP-SGD

_P_KEEP = E0 / (1 + E0)
_C_D = sp.gamma(d / 2) / (sp.sqrt(sp.pi) * sp.gamma((d + 1) / 2))
_B = L * (E0 + 1) / (E0 - 1) / _C_D

ALG_4 = Statement(
    id="EFMRSTT20.Alg4",
    kind=Kind.ALGORITHM,
    title="LDP-SGD client: eps0-LDP randomized gradient on the unit sphere",
    source=Source(PAPER, "Algorithm 4", SEED, "high"),
    symbols=(eps0,),
    hypotheses=(),
    conclusion=(sp.Eq(_P_KEEP / (1 - _P_KEEP), E0),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.ldp_sgd:ldp_sgd_client",
    notes=(
        "Clip the gradient to norm L (x); z = +-L x/|x| w.p. 1/2 +- |x|/(2L) (E z = x); v uniform on the unit sphere; "
        "send sgn(<z,v>) v w.p. p = e^eps0/(1+e^eps0), else its negative. The output's density at w is 2p or 2(1-p) by "
        "the sign of <z,w>, for any input, so the density ratio is at most p/(1-p) = e^eps0 (the conclusion): eps0-LDP. "
        "Step 2 is printed with 'z_i'. Communication: sign + 128-bit PRG seed = 129 bits."
    ),
)

ALG_5 = Statement(
    id="EFMRSTT20.Alg5",
    kind=Kind.ALGORITHM,
    title="LDP-SGD server: the unbiased gradient scale",
    source=Source(PAPER, "Algorithm 5, step 5 (constant corrected by the factor d)", SEED, "medium-high"),
    symbols=(eps0, L, d, sp.Symbol("B", positive=True)),
    hypotheses=(),
    conclusion=(sp.Eq(sp.Symbol("B", positive=True), _B),),
    direction=Direction.EXACT,
    reference="shuffle_spec.reference.protocols.ldp_sgd:gradient_scale",
    inputs=(eps0, L, d),
    output=sp.Symbol("B", positive=True),
    value=_B,
    examples=({"eps0": 1.0, "L": 1.0, "d": 1}, {"eps0": 2.0, "L": 0.5, "d": 10}, {"eps0": 0.5, "L": 3.0, "d": 1000}),
    invalid_examples=({"eps0": 1.0, "L": -1.0, "d": 3}, {"eps0": 1.0, "L": 1.0, "d": 0}),
    notes=(
        "g_t = B (1/n) sum_i zhat_i, theta_{t+1} = Pi_C(theta_t - eta_t g_t). Since E[sgn(<u,v>) v] = c_d u, c_d = "
        "Gamma(d/2)/(sqrt(pi) Gamma((d+1)/2)), E g_t = mean clipped gradient (App. D's claim) needs "
        "B = L ((e+1)/(e-1)) sqrt(pi) Gamma((d+1)/2)/Gamma(d/2) = d x the printed L (sqrt(pi)/2) "
        "Gamma((d-1)/2+1)/Gamma(d/2+1) (e+1)/(e-1) (printed: biased by 1/d; Duchi et al. have the d). The spec "
        "registers B; reference.protocols.ldp_sgd.printed_gradient_scale keeps the printed one. eta_t is printed "
        "without the 1/sqrt(t) of Thm A.4 and with App. D's G = O(L sqrt(d)/sqrt(n) (e+1)/(e-1)), which omits the "
        "true gradient's contribution L^2 to E|g_t|^2 <= L^2 + B^2/n: that step is ~sqrt(n) too long unless gradients "
        "are small (found by simulation). The reference's ldp_sgd uses c/sqrt(t), c = |C|_2/sqrt(L^2 + B^2/n)."
    ),
)

THM_VI_1 = Statement(
    id="EFMRSTT20.ThmVI.1",
    kind=Kind.THEOREM,
    title="LDP-SGD in the shuffle model: privacy and convex utility (O(.))",
    source=Source(PAPER, "Theorem VI.1 (proof in Appendix D)", SEED, "medium"),
    symbols=(eps0, n, delta, T, L, diam, d, eps),
    hypotheses=(sp.Le(eps0, sp.log(n) / 4), sp.Lt(delta, 1)),
    conclusion=(
        sp.Eq(eps, sp.Order((E0 - 1) / sp.sqrt(n) * sp.sqrt(T * sp.log(T / delta) ** 2), (n, sp.oo))),
        sp.Order(L * diam * sp.sqrt(d) * sp.log(n) ** 2 / n * (E0 + 1) / (E0 - 1), (n, sp.oo)),
    ),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.ldp_sgd:theorem_a3_hypotheses_hold",
    notes=(
        "Per-epoch local budget eps0 <= log(n)/4. (1) Over T epochs, (eps, delta)-central DP with eps = "
        "O((e^eps0 - 1)/sqrt(n) sqrt(T log^2(T/delta))) (Thm A.3 per epoch, then advanced composition). (2) With "
        "T = n/log^2 n, convex L-Lipschitz loss: excess empirical risk O(L |C|_2 sqrt(d) log^2(n)/n (e+1)/(e-1)) "
        "(second conclusion; radical extent medium: 'sqrt d log2 n' read as sqrt(d) log^2 n, which the derivation via "
        "Thm A.4 gives, but only with App. D's G, which omits the L^2 term of E|g_t|^2; with a valid G >= L Thm A.4 "
        "gives O(L |C|_2 log^2(n)/sqrt(n)) plus the private term, so the printed 1/n rate is not supported by the "
        "proof as written). Asymptotic, no constants: not evaluable; the reference checks eps0 <= log(n)/4."
    ),
)

THM_A_3 = Statement(
    id="EFMRSTT20.ThmA.3",
    kind=Kind.THEOREM,
    title="Amplification by shuffling for eps0 <= log(n)/4 (asymptotic, as cited in Appendix D)",
    source=Source(PAPER, "Theorem A.3 (cites [29, 'Corollary 5.1'])", SEED, "high"),
    symbols=(eps0, n, delta, eps),
    hypotheses=(sp.Le(eps0, sp.log(n) / 4), sp.Lt(delta, 1)),
    conclusion=(sp.Eq(eps, sp.Order((E0 - 1) * sp.sqrt(sp.log(1 / delta)) / sp.sqrt(n), (n, sp.oo))),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.ldp_sgd:theorem_a3_hypotheses_hold",
    notes=(
        "Shuffling n reports of an eps0-LDP randomizer with eps0 <= log(n)/4 is (O((e^eps0-1) sqrt(log(1/delta))/sqrt(n)), "
        "delta)-DP. Inconsistent with Lemma II.5's citation of the same source ('Corollary 5.3.1', condition "
        "eps0 <= log(n/log(1/delta))/2); both registered as printed. Not evaluable (no constant)."
    ),
)

_SZ = (diam**2 / c + c * G**2) * (2 + sp.log(T)) / sp.sqrt(T)

THM_A_4 = Statement(
    id="EFMRSTT20.ThmA.4",
    kind=Kind.THEOREM,
    title="Projected SGD on a convex function (Shamir-Zhang Thm 2)",
    source=Source(PAPER, "Theorem A.4 (cites [50] = Shamir-Zhang 2013, Theorem 2)", SEED, "high"),
    symbols=(diam, c, G, T, sp.Symbol("excess", nonnegative=True)),
    hypotheses=(sp.Gt(T, 1),),
    conclusion=(sp.Le(sp.Symbol("excess", nonnegative=True), _SZ),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.ldp_sgd:shamir_zhang_bound",
    inputs=(diam, c, G, T),
    output=sp.Symbol("excess", nonnegative=True),
    value=_SZ,
    examples=({"diam": 1.0, "c": 1.0, "G": 1.0, "T": 100}, {"diam": 2.0, "c": 0.5, "G": 10.0, "T": 10000}, {"diam": 1.0, "c": 3.0, "G": 0.1, "T": 2}),
    invalid_examples=({"diam": 1.0, "c": 1.0, "G": 1.0, "T": 1}, {"diam": -1.0, "c": 1.0, "G": 1.0, "T": 10}),
    notes=(
        "F convex on convex C, theta_{t+1} = Pi_C(theta_t - (c/sqrt t) g_t), E g_t = grad F(theta_t), E|g_t|^2 <= G^2 "
        "(printed '='): E F(theta_T) - min_C F <= (|C|_2^2/c + c G^2)(2 + log T)/sqrt(T) for T > 1. App. D instantiates "
        "G = O(L sqrt(d)/sqrt(n) (e+1)/(e-1)), c = |C|_2/G, T = n/log^2 n."
    ),
)

STATEMENTS: tuple[Statement, ...] = (
    DEF_II_1,
    DEF_II_2,
    DEF_II_3,
    DEF_II_4,
    REMOVAL_BINARY_RR,
    REMOVAL_REPLACEMENT,
    LEM_II_5,
    LEM_II_6,
    LEM_II_6_LAM,
    LEM_II_6_INVERSE,
    THM_II_7,
    THM_II_7_INVERSE,
    ALG_1,
    ALG_1_BITS,
    ALG_1_VARIANCE,
    THM_III_1,
    THM_III_2,
    ALG_2,
    THM_IV_1,
    THM_IV_2,
    LEM_A_1,
    COR_A_2,
    ALG_3,
    THM_V_1,
    THM_V_2,
    ALG_4,
    ALG_5,
    THM_VI_1,
    THM_A_3,
    THM_A_4,
)
