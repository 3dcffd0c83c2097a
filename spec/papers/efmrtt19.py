"""EFMRTT19: Erlingsson, Feldman, Mironov, Raghunathan, Talwar, Thakurta, "Amplification by shuffling:
from local to central differential privacy via anonymity" (SODA 2019; arXiv:1811.12469).

Versions: v1 (arXiv 1811.12469v1 = SODA 2019; the text these statements were recovered from had lost its
formulas, so several are reconstructions, said so in their notes; the notes call that text "the seed", its version
label "seed 000") and arXiv 1811.12469v2 (ids marked "arXiv v2"); each statement's source records its confidence.
"""

from __future__ import annotations

import sympy as sp

from ..statement import Direction, EffectiveDelta, Kind, Source, Statement
from ..symbols import T, beta, delta1, delta2, delta_prime, eps, eps0, eps1, eps2, k, n, q, rho
from ..symbols import delta as delta_pos

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
    reference="shuffle_spec.reference.finite.closeness:is_dp_on_neighbours",
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
    reference="shuffle_spec.reference.finite.divergences:is_close",
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
    reference="shuffle_spec.reference.finite.divergences:is_close",
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
    reference="shuffle_spec.reference.finite.closeness:triangle_parameters",
    notes=(
        "mu1 ~(eps1,delta1) mu2 and mu2 ~(eps2,delta2) mu3 imply mu1 ~(eps1+eps2, delta') mu3. The seed most "
        "likely prints delta' = delta1 + delta2, which is false in general for two-sided closeness (a "
        "counterexample is found by tests/reference/finite/test_closeness.py); the valid value, implemented here, is "
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
    reference="shuffle_spec.reference.finite.operations:mixture",
    notes=(
        "mu0 ~(eps,delta) mu0' and mu1 ~(eps,delta) mu1' imply (1-rho) mu0 + rho mu1 ~(eps,delta) "
        "(1-rho) mu0' + rho mu1' for every rho in [0, 1]."
    ),
)

# --- Section 2: composition and subsampling -------------------------------------------------------

eps_prime = sp.Symbol("eps_prime", nonnegative=True)  # the composed / amplified epsilon

THM2_EPS = sp.sqrt(2 * k * sp.log(1 / delta_prime)) * eps + k * eps * (sp.exp(eps) - 1)

THM2 = Statement(
    id="EFMRTT19.Thm2",
    kind=Kind.THEOREM,
    title="Advanced composition (DRV10, DR14)",
    source=Source(PAPER, "Theorem 2", SEED, "high"),
    symbols=(eps, delta, k, delta_prime, eps_prime),
    hypotheses=(sp.Le(delta, 1), sp.Lt(delta_prime, 1)),
    conclusion=(sp.Eq(eps_prime, THM2_EPS), k * delta + delta_prime),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.composition.advanced:advanced_composition_epsilon",
    notes=(
        "If A_1, ..., A_k are each (eps, delta)-DP (A_i possibly chosen adaptively from the outputs of "
        "A_1..A_{i-1}), their composition is (eps', k delta + delta')-DP for every delta' in (0, 1) with "
        "eps' = sqrt(2k log(1/delta')) eps + k eps (e^eps - 1). The seed lost the formula; this is the "
        "standard DR14 Thm 3.20 form, confirmed by its use in Thm 8's proof (per-step eps1, delta = 0, "
        "k = n, delta' = delta gives the v2 bound exactly; checked in proofs_checks/papers/efmrtt19.py). The "
        "follow-up remark (eps' = O(eps sqrt(k log(1/delta))) for eps <~ 1/sqrt(k)) is informal and its "
        "side condition lost (low confidence); it is not registered. Reference: the eps' value, "
        "`advanced_composition_delta` for k delta + delta', `advanced_composition_per_step_epsilon` for the "
        "inversion. Reported: eps' with the delta it holds at, k*delta + delta_prime (field effective_delta; JSON "
        "delta_effective_formula); the per-step delta is not an input, so no number is given for it."
    ),
    inputs=(eps, k, delta_prime),
    output=eps_prime,
    value=THM2_EPS,
    examples=({"eps": 0.1, "k": 10, "delta_prime": 1e-5}, {"eps": 1.0, "k": 1, "delta_prime": 0.5}, {"eps": 0.01, "k": 10000, "delta_prime": 1e-9}),
    invalid_examples=({"eps": 0.1, "k": 10, "delta_prime": 1.5}, {"eps": 0.1, "k": 0, "delta_prime": 1e-5}, {"eps": -0.1, "k": 3, "delta_prime": 1e-5}),
    effective_delta=EffectiveDelta(
        "", "k*delta + delta_prime, delta the per-step delta of the composed mechanisms (not an input; k*delta = 0 for pure eps-DP steps)"
    ),
)

LEM4_EPS = sp.log(1 + q * (sp.exp(eps) - 1))

LEM4 = Statement(
    id="EFMRTT19.Lem4",
    kind=Kind.LEMMA,
    title="Amplification by subsampling (KLNRS08, BBG18)",
    source=Source(PAPER, "Lemma 4", SEED + "; statement text lost, recovered from its use in Thm 8's proof", "medium"),
    symbols=(eps, delta, q, eps_prime),
    hypotheses=(sp.Le(q, 1), sp.Le(delta, 1)),
    conclusion=(sp.Eq(eps_prime, LEM4_EPS), q * delta),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.finite.subsampling:subsampled_epsilon",
    notes=(
        "If mu1 ~(eps, delta) mu0 and mu = (1 - q) mu0 + q mu1 with q in [0, 1], then "
        "mu ~(log(1 + q(e^eps - 1)), q delta) mu0. Reconstruction: the seed has no statement text; this "
        "standard form is the one Thm 8's proof needs (q <= e^{2 eps0}/n, eps = eps0, delta = 0 gives "
        "the v2 per-step eps1 after the triangle inequality and log(1+x) <= x). Both directions of the "
        "closeness hold (tests on exact mixtures; algebra in proofs_checks). Reported: eps' with the delta it holds "
        "at, q*delta (field effective_delta); delta is not an input, so no number is given for it."
    ),
    inputs=(eps, q),
    output=eps_prime,
    value=LEM4_EPS,
    examples=({"eps": 1.0, "q": 0.1}, {"eps": 0.5, "q": 1.0}, {"eps": 3.0, "q": 0.001}),
    invalid_examples=({"eps": 1.0, "q": 1.5}, {"eps": -1.0, "q": 0.5}),
    effective_delta=EffectiveDelta("", "q*delta, delta the closeness delta of mu1 and mu0 (not an input; 0 for pure eps-closeness)"),
)

# --- Section 3: the longitudinal tree counter -------------------------------------------------------

eps_ldp = sp.Symbol("eps", positive=True)  # the client's local epsilon (Alg. 1's parameter)
a = sp.Symbol("a", positive=True)  # per-node randomized-response parameter
v = sp.Symbol("v", integer=True)  # a node value in {-1, 0, 1}
L = sp.Symbol("L", integer=True, positive=True)  # number of tree levels
err = sp.Symbol("err", nonnegative=True)  # max_t |F^[t] - F[t]|

T_POWER_OF_TWO = sp.Eq(2 ** sp.floor(sp.log(T, 2)), T)
C_A = (sp.exp(a) + 1) / (sp.exp(a) - 1)
RR_KEEP = sp.exp(a) / (1 + sp.exp(a))
TREE_NOTES = (
    " Reconstruction (the recovered text of v1 lost every formula of Sec. 3): "
    "levels L = log2(T) + 1 (leaves are level 1, the root [1, T] is level L) for both client and server "
    "scale, which makes the estimate unbiased (the third-party implementation github.com/jcraver1021/dp-shuffle, longitudinal.py, scales by log2 T while sampling log2 T + 1 "
    "levels, which is biased; not copied); per-node randomized response a = eps/2; x[0] = 0, so the "
    "j-th change has sign (-1)^(j+1)."
)

ALG1 = Statement(
    id="EFMRTT19.Alg1",
    kind=Kind.ALGORITHM,
    title="A_cl: the client of the locally private tree counter",
    source=Source(PAPER, "Algorithm 1 (Sec. 3)", SEED, "medium"),
    symbols=(eps_ldp, a, v, k, T, L),
    hypotheses=(T_POWER_OF_TWO, sp.Eq(L, sp.log(T, 2) + 1), sp.Eq(a, eps_ldp / 2)),
    conclusion=(RR_KEEP, sp.Eq(RR_KEEP * v + (1 - RR_KEEP) * (-v), v * (sp.exp(a) - 1) / (sp.exp(a) + 1))),
    direction=Direction.DEFINITION,
    reference="shuffle_spec.reference.protocols.tree_counter:client_output_distribution",
    notes=(
        "Client state: four integers (j uniform in [k], h uniform in [L], change counter c, node value v). "
        "For t = 1..T: on a change, c += 1 and v = x~[t] if c = j; when t is a multiple of 2^(h-1) node "
        "T_h[t/2^(h-1)] is complete: report (h, t/2^(h-1), b) with b uniform +-1 if v = 0, else b = v w.p. "
        "e^a/(1+e^a) and -v w.p. 1/(1+e^a) (E[b] = v (e^a-1)/(e^a+1), shown in the conclusion); reset v. "
        "Report times depend only on h. Runnable: reference.protocols.tree_counter.TreeCounterClient "
        "(online) and run_tree_counter; exact transcript law: client_output_distribution." + TREE_NOTES
    ),
)

ALG2 = Statement(
    id="EFMRTT19.Alg2",
    kind=Kind.ALGORITHM,
    title="A_sv: the server of the locally private tree counter (interval cover and scaled estimates)",
    source=Source(PAPER, "Algorithm 2 (Sec. 3)", SEED, "medium"),
    symbols=(a, k, T, L),
    hypotheses=(T_POWER_OF_TWO, sp.Eq(L, sp.log(T, 2) + 1)),
    conclusion=(C_A * k * L,),
    direction=Direction.DEFINITION,
    reference="shuffle_spec.reference.protocols.tree_counter:estimate_from_node_sums",
    notes=(
        "Aggregate the reports per node; for time t take C = leaves T_1[1..t] and merge two siblings into "
        "their parent while both are in C (lines 7-10; the result is unique, |C| <= log2 T, at most one node "
        "per level, the subtrees partition [1, t]); output F^[t] = c_a k L sum_{C} T^_h[m], "
        "c_a = (e^a+1)/(e^a-1) (the paper's c_eps with a = eps/2). The conclusion is the scale; it undoes a "
        "user's expected contribution (1/(kL)) (e^a-1)/(e^a+1) per change (unbiasedness, proofs_checks). "
        "Runnable: TreeCounterServer, cover, run_tree_counter." + TREE_NOTES
    ),
)

ldp_ratio_sym = sp.Symbol("r", positive=True)  # max over outputs and input pairs of the probability ratio

THM5 = Statement(
    id="EFMRTT19.Thm5",
    kind=Kind.THEOREM,
    title="Privacy of the tree-counter client: eps-LDP of the whole transcript",
    source=Source(PAPER, "Theorem 5", SEED, "high"),
    symbols=(eps_ldp, k, T, ldp_ratio_sym),
    hypotheses=(T_POWER_OF_TWO,),
    conclusion=(sp.Le(ldp_ratio_sym, sp.exp(eps_ldp)),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.tree_counter:client_output_distribution",
    notes=(
        "The sequence of outputs of Alg. 1 (values and report times) is eps-LDP (pure) for input streams "
        "with at most k changes (in fact for every stream: only the j-th change, j <= k, is ever used). "
        "Proof: timing depends only on h; fixing j and h, two inputs differ in at most two level-h nodes, "
        "each by one. For the reconstruction the exact LDP level is a = eps/2: a node going 0 -> +-1 "
        "changes a probability by at most 2e^a/(1+e^a), the other node by at most (1+e^a)/2, product e^a "
        "(checked by exhaustive enumeration in tests/reference/protocols/test_tree_counter.py); Thm 5's eps is "
        "valid and 2x loose. The conclusion's r is the max probability ratio over outputs and input pairs."
    ),
)

THM6_RATE = sp.Symbol("C_6", positive=True)  # the unspecified constant of the O(.)
THM6 = Statement(
    id="EFMRTT19.Thm6",
    kind=Kind.THEOREM,
    title="Utility of the tree counter (paper's rate)",
    source=Source(PAPER, "Theorem 6", SEED + "; displayed formula lost", "low"),
    symbols=(n, T, k, eps_ldp, beta, err, THM6_RATE),
    hypotheses=(T_POWER_OF_TWO, sp.Lt(beta, 1)),
    conclusion=(
        sp.Le(
            err,
            THM6_RATE * (sp.exp(eps_ldp / 2) + 1) / (sp.exp(eps_ldp / 2) - 1) * k * sp.log(T, 2) ** sp.Rational(3, 2)
            * sp.sqrt(n * sp.log(T / beta)),
        ),
    ),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.tree_counter:tree_counter_error_bound",
    notes=(
        "With probability >= 1 - beta over Alg. 1 run on n users, max_t |F^[t] - F[t]| = "
        "O(c_eps k (log2 T)^{3/2} sqrt(n log(T/beta))), c_eps = (e^{eps/2}+1)/(e^{eps/2}-1) = O(1/eps): "
        "reconstructed from the proof (Chernoff per node, union bound, scale c_eps k log T, times log T for "
        "|C|); the printed display and its leading quantifier are lost (low). The intro's "
        "O((log T)^2 k sqrt(n)/eps) agrees for constant beta. C_6 is the unspecified constant. The "
        "reference is the explicit bound EFMRTT19.Thm6.explicit, an instance of this rate."
    ),
)

THM6_L = sp.log(T, 2) + 1
THM6_ELL = sp.log(2 * T / beta)
THM6_EXPLICIT_VALUE = (
    k * (sp.exp(eps_ldp / 2) + 1) / (sp.exp(eps_ldp / 2) - 1)
    * (sp.sqrt(2 * n * THM6_L * sp.log(T, 2) * THM6_ELL) + sp.Rational(4, 3) * THM6_L * THM6_ELL)
)

THM6_EXPLICIT = Statement(
    id="EFMRTT19.Thm6.explicit",
    kind=Kind.THEOREM,
    title="Utility of the tree counter: an explicit Bernstein bound (derived)",
    source=Source(PAPER, "Theorem 6 (explicit form derived here, not printed in the paper)", SEED, "medium"),
    symbols=(n, T, k, eps_ldp, beta, err),
    hypotheses=(T_POWER_OF_TWO, sp.Ge(T, 2), sp.Lt(beta, 1)),
    conclusion=(sp.Le(err, THM6_EXPLICIT_VALUE),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.tree_counter:tree_counter_error_bound",
    notes=(
        "For Algs 1-2 as reconstructed (L = log2 T + 1, a = eps/2, every user at most k changes): with "
        "probability >= 1 - beta, for all t in [T], |F^[t] - F[t]| <= k c_a (sqrt(2 n L log2(T) "
        "log(2T/beta)) + (4/3) L log(2T/beta)). Derivation: F^[t] - F[t] = c_a k L sum_i (Y_i - E Y_i) with "
        "Y_i in {-1, 0, 1} (a user reports at one level; C(t) has at most one node per level), "
        "Var Y_i <= |C(t)|/L <= log2(T)/L, |Y_i - E Y_i| <= 2; Bernstein at level beta/T and a union bound "
        "over t. It is O(c_eps k log T sqrt(n log(T/beta))), within the paper's rate. Checked by a "
        "vectorised simulation (tests/reference/protocols/test_tree_counter.py)."
    ),
    inputs=(n, T, k, eps_ldp, beta),
    output=err,
    value=THM6_EXPLICIT_VALUE,
    examples=(
        {"n": 10000, "T": 16, "k": 2, "eps": 1.0, "beta": 0.05},
        {"n": 1000000, "T": 1024, "k": 5, "eps": 0.5, "beta": 1e-3},
        {"n": 10, "T": 2, "k": 1, "eps": 4.0, "beta": 0.5},
    ),
    invalid_examples=(
        {"n": 10000, "T": 12, "k": 2, "eps": 1.0, "beta": 0.05},
        {"n": 10000, "T": 16, "k": 2, "eps": 1.0, "beta": 1.5},
        {"n": 10000, "T": 1, "k": 2, "eps": 1.0, "beta": 0.05},
    ),
)

# --- Section 4: amplification by shuffling ----------------------------------------------------------

H_NOTES = (
    "Hypothesis (H): A^(i): S^(1) x ... x S^(i-1) x D -> S^(i), i in [n], with A^(i)(z_{1:i-1}, .) "
    "eps0-DP (pure local DP) for every value of the auxiliary inputs z_{1:i-1}. "
)
perm_count = sp.Symbol("N_perm", integer=True, positive=True)

ALG3 = Statement(
    id="EFMRTT19.Alg3",
    kind=Kind.ALGORITHM,
    title="A_ldp: local responses (sequentially chosen local randomizers)",
    source=Source(PAPER, "Algorithm 3 (Sec. 4)", SEED, "high"),
    symbols=(n,),
    hypotheses=(),
    conclusion=(n,),
    direction=Direction.DEFINITION,
    reference="shuffle_spec.reference.protocols.swapping:local_responses_distribution",
    notes=H_NOTES + "For i = 1..n: z_i = A^(i)(z_{1:i-1}, x_i); return z_{1:n} (n responses, the conclusion). "
    "Runnable: local_responses; exact law: local_responses_distribution.",
)

ALG4 = Statement(
    id="EFMRTT19.Alg4",
    kind=Kind.ALGORITHM,
    title="A_sl: local responses with shuffling",
    source=Source(PAPER, "Algorithm 4 (Sec. 4)", SEED, "high"),
    symbols=(n,),
    hypotheses=(),
    conclusion=(1 / sp.factorial(n),),
    direction=Direction.DEFINITION,
    reference="shuffle_spec.reference.protocols.swapping:shuffled_responses_distribution",
    notes=H_NOTES + "pi uniform over the n! permutations (probability 1/n! each, the conclusion); then "
    "z_i = A^(i)(z_{1:i-1}, x_pi(i)). Runnable: shuffled_responses; exact law: shuffled_responses_distribution.",
)

ALG5 = Statement(
    id="EFMRTT19.Alg5",
    kind=Kind.ALGORITHM,
    title="A_swap: local responses with one swap",
    source=Source(PAPER, "Algorithm 5 (Sec. 4)", SEED, "high"),
    symbols=(n,),
    hypotheses=(),
    conclusion=(1 / n,),
    direction=Direction.DEFINITION,
    reference="shuffle_spec.reference.protocols.swapping:swapped_responses_distribution",
    notes=H_NOTES + "I uniform in [n] (probability 1/n, the conclusion); sigma = transposition (1 I) (identity "
    "if I = 1); z_i = A^(i)(z_{1:i-1}, x_sigma(i)). Runnable: swapped_responses; exact law: "
    "swapped_responses_distribution.",
)

V1_VALUE = 12 * eps0 * sp.sqrt(sp.log(1 / delta_pos) / n)
V1_HYPOTHESES = (sp.Ge(n, 1000), sp.Lt(eps0, sp.Rational(1, 2)), sp.Lt(delta_pos, sp.Rational(1, 100)))
V1_EXAMPLES = (
    {"eps0": 0.25, "n": 10000, "delta": 1e-6},
    {"eps0": 0.1, "n": 1000, "delta": 0.009},
    {"eps0": 0.49, "n": 1000000, "delta": 1e-10},
)
V1_INVALID = (
    {"eps0": 0.6, "n": 10000, "delta": 1e-6},
    {"eps0": 0.25, "n": 999, "delta": 1e-6},
    {"eps0": 0.25, "n": 10000, "delta": 0.05},
)
EPS1 = 2 * sp.exp(2 * eps0) * (sp.exp(eps0) - 1) / n
V2_VALUE = EPS1 * sp.sqrt(2 * n * sp.log(1 / delta_pos)) + n * EPS1 * (sp.exp(EPS1) - 1)
V2_HYPOTHESES = (sp.Gt(n, 1), sp.Lt(delta_pos, 1))
V2_EXAMPLES = (
    {"eps0": 1.0, "n": 10000, "delta": 1e-6},
    {"eps0": 0.5, "n": 1000, "delta": 1e-3},
    {"eps0": 0.1, "n": 2, "delta": 0.5},
)
V2_INVALID = (
    {"eps0": 1.0, "n": 1, "delta": 1e-6},
    {"eps0": 1.0, "n": 10000, "delta": 1.5},
    {"eps0": -1.0, "n": 10000, "delta": 1e-6},
)
REFINED_VALUE = sp.exp(2 * eps0) * (sp.exp(eps0) - 1) * sp.sqrt(8 * sp.log(1 / delta_pos) / n) + 6 * sp.exp(4 * eps0) * (
    sp.exp(eps0) - 1
) ** 2 / n
# The value the reference returns is min(theorem's expression, eps0): shuffled eps0-LDP reports are
# always eps0-DP, so where the expression exceeds eps0 (no amplification) eps0 is the answer.
VERSIONS_NOTE = (
    " Versions: v1 (SODA 2019, the seed) states eps = 12 eps0 sqrt(log(1/delta)/n) for n >= 1000, "
    "0 < eps0 < 1/2, 0 < delta < 1/100 (confidence high: BBGN19's restatement and its code). arXiv v2 states "
    "the general bound eps1 sqrt(2n log(1/delta)) + n eps1 (e^eps1 - 1), eps1 = 2e^{2eps0}(e^eps0 - 1)/n, for "
    "every integer n > 1, eps0 > 0, delta in (0, 1), its refined form for eps0 <= log(n/4)/3, and v1's "
    "constant as a special case (confidence medium: one third-party transcription; consistent with FMT21 "
    "and with our re-derivation of the proof, proofs_checks/papers/efmrtt19.py). On v1's region the general bound is "
    "below the v1 one. Where the expression exceeds eps0 it proves no amplification: the v2 references then return eps0 with a note (their value is min(expression, eps0)); the v1 references return the theorem's expression as printed (above eps0 when log(1/delta) > n/144), which is sound but pointless."
)

THM7 = Statement(
    id="EFMRTT19.Thm7",
    kind=Kind.THEOREM,
    title="Amplification by shuffling (v1 / SODA)",
    source=Source(PAPER, "Theorem 7", SEED, "high"),
    symbols=(eps0, n, delta_pos, eps_prime),
    hypotheses=V1_HYPOTHESES,
    conclusion=(sp.Le(eps_prime, V1_VALUE),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.erlingsson:erlingsson_v1_epsilon",
    notes=H_NOTES + "A_sl (Alg. 4) is (eps, delta)-DP in the central model with eps = 12 eps0 sqrt(log(1/delta)/n). "
    "For one fixed randomizer, shuffling the data before randomizing equals shuffling the reports (Cor 9)."
    + VERSIONS_NOTE,
    inputs=(eps0, n, delta_pos),
    output=eps_prime,
    value=V1_VALUE,
    mechanism="generic",
    examples=V1_EXAMPLES,
    invalid_examples=V1_INVALID,
    tags=frozenset({"amplification"}),
)

THM7_V2 = Statement(
    id="EFMRTT19.Thm7.v2",
    kind=Kind.THEOREM,
    title="Amplification by shuffling (arXiv v2, general bound)",
    source=Source(PAPER, "Theorem 7 (arXiv v2)", "arXiv:1811.12469v2 (not the seed)", "medium"),
    symbols=(eps0, n, delta_pos, eps_prime),
    hypotheses=V2_HYPOTHESES,
    conclusion=(sp.Le(eps_prime, V2_VALUE),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.erlingsson:erlingsson_v2_epsilon",
    notes=H_NOTES + "A_sl is (eps, delta)-DP with eps <= eps1 sqrt(2n log(1/delta)) + n eps1 (e^eps1 - 1), "
    "eps1 = 2 e^{2 eps0}(e^eps0 - 1)/n." + VERSIONS_NOTE,
    inputs=(eps0, n, delta_pos),
    output=eps_prime,
    value=sp.Min(V2_VALUE, eps0),
    mechanism="generic",
    examples=V2_EXAMPLES,
    invalid_examples=V2_INVALID,
    tags=frozenset({"amplification"}),
)

THM7_V2_REFINED = Statement(
    id="EFMRTT19.Thm7.v2_refined",
    kind=Kind.THEOREM,
    title="Amplification by shuffling (arXiv v2, refined form for eps0 <= log(n/4)/3)",
    source=Source(PAPER, "Theorem 7 (arXiv v2, 'in particular')", "arXiv:1811.12469v2 (not the seed)", "medium"),
    symbols=(eps0, n, delta_pos, eps_prime),
    hypotheses=(sp.Le(eps0, sp.log(n / 4) / 3), sp.Lt(delta_pos, 1)),
    conclusion=(sp.Le(eps_prime, REFINED_VALUE),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.erlingsson:erlingsson_v2_refined_epsilon",
    notes=H_NOTES + "For eps0 <= log(n/4)/3 (so eps1 <= 1/2 and e^eps1 - 1 <= (3/2) eps1): eps <= "
    "e^{2eps0}(e^eps0 - 1) sqrt(8 log(1/delta)/n) + 6 e^{4eps0}(e^eps0 - 1)^2/n, which dominates the general "
    "v2 bound (proofs_checks/papers/efmrtt19.py)." + VERSIONS_NOTE,
    inputs=(eps0, n, delta_pos),
    output=eps_prime,
    value=sp.Min(REFINED_VALUE, eps0),
    mechanism="generic",
    examples=({"eps0": 1.0, "n": 10000, "delta": 1e-6}, {"eps0": 0.3, "n": 100, "delta": 1e-3}, {"eps0": 2.0, "n": 1000000, "delta": 1e-8}),
    invalid_examples=({"eps0": 2.0, "n": 100, "delta": 1e-6}, {"eps0": 0.3, "n": 100, "delta": 1.5}),
    tags=frozenset({"amplification"}),
)

SWAP_NOTES = (
    "A_swap (Alg. 5) is (eps, delta)-DP at index 1 (only datasets differing in the first element) in the "
    "central model. Proof (reconstructed): decompose A_swap into M_1..M_n, M_i outputs z_i given z_{1:i-1}; "
    "M_i's law is (1 - q_i) mu_i^0 + q_i mu_i^1 with q_i = Pr[I = i | z_{1:i-1}] <= e^{2 eps0}/n (group "
    "privacy over the two swapped positions and quasiconvexity; q_1 = 1/n), so Lemma 4 and the triangle "
    "inequality make M_i (eps1, 0)-DP at index 1 with eps1 = 2 log(1 + e^{2eps0}(e^eps0 - 1)/n) <= "
    "2 e^{2eps0}(e^eps0 - 1)/n; Thm 2 with n steps and delta' = delta gives the v2 expression; for "
    "eps0 < 1/2, n >= 1000, delta < 1/100 it is at most 12 eps0 sqrt(log(1/delta)/n) (first term <= "
    "4 sqrt(2) e (sqrt(e) - 1) ~ 9.98, second <= 2, in units of eps0 sqrt(log(1/delta)/n); the v1 proof's "
    "printed intermediate constants are lost, low confidence; the chain is checked in proofs_checks). Not "
    "tagged as an amplification bound: it is about one swap at index 1; Thm 7 (every index, shuffling) "
    "follows by moving x_i first with a random injection and quasiconvexity. "
)

THM8 = Statement(
    id="EFMRTT19.Thm8",
    kind=Kind.THEOREM,
    title="Amplification by swapping, at index 1 (v1 / SODA)",
    source=Source(PAPER, "Theorem 8", SEED, "high"),
    symbols=(eps0, n, delta_pos, eps_prime),
    hypotheses=V1_HYPOTHESES,
    conclusion=(sp.Le(eps_prime, V1_VALUE),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.erlingsson:swapping_v1_epsilon",
    notes=H_NOTES + SWAP_NOTES + "v1: same hypotheses and eps as Thm 7 v1." + VERSIONS_NOTE,
    inputs=(eps0, n, delta_pos),
    output=eps_prime,
    value=V1_VALUE,
    examples=V1_EXAMPLES,
    invalid_examples=V1_INVALID,
)

THM8_V2 = Statement(
    id="EFMRTT19.Thm8.v2",
    kind=Kind.THEOREM,
    title="Amplification by swapping, at index 1 (arXiv v2, general bound)",
    source=Source(PAPER, "Theorem 8 (arXiv v2)", "arXiv:1811.12469v2 (not the seed)", "medium"),
    symbols=(eps0, n, delta_pos, eps_prime),
    hypotheses=V2_HYPOTHESES,
    conclusion=(sp.Le(eps_prime, V2_VALUE),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.erlingsson:swapping_v2_epsilon",
    notes=H_NOTES + SWAP_NOTES + "v2: the general expression, every integer n > 1, eps0 > 0, delta in (0, 1); "
    "checked against the exact law of A_swap for small n and binary randomizers "
    "(tests/reference/protocols/test_swapping.py)." + VERSIONS_NOTE,
    inputs=(eps0, n, delta_pos),
    output=eps_prime,
    value=sp.Min(V2_VALUE, eps0),
    examples=V2_EXAMPLES,
    invalid_examples=V2_INVALID,
)

COR9 = Statement(
    id="EFMRTT19.Cor9",
    kind=Kind.COROLLARY,
    title="Shuffling after local randomization: amplification at every index of a group S",
    source=Source(PAPER, "Corollary 9 (Sec. 4.1)", SEED, "high"),
    symbols=(eps0, n, delta_pos, eps_prime),
    hypotheses=V1_HYPOTHESES,
    conclusion=(sp.Le(eps_prime, V1_VALUE),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.erlingsson:shuffled_reports_v1_epsilon",
    notes=H_NOTES + "A computes z = A_ldp(D) (Alg. 3) and outputs the z's in a uniformly random order. For "
    "any S in [n] whose randomizers are identical (A^(i)(z_{1:i-1}, x) and A^(j)(z_{1:j-1}, x) have the same law "
    "for all z, x, hence do not depend on z), for |S| >= 1000, 0 < eps0 < 1/2, 0 < delta < 1/100 and every "
    "i in S, A is (eps, delta)-DP at index i with eps = 12 eps0 sqrt(log(1/delta)/|S|). The parameter n "
    "here is |S|. Shuffling the elements of S suffices. v2 presumably replaces eps by Thm 7 v2's "
    "expression in |S| (not verified, low; not registered)." + VERSIONS_NOTE,
    inputs=(eps0, n, delta_pos),
    output=eps_prime,
    value=V1_VALUE,
    mechanism="generic",
    examples=V1_EXAMPLES,
    invalid_examples=V1_INVALID,
    tags=frozenset({"amplification"}),
)

STATEMENTS: tuple[Statement, ...] = (
    DEF1,
    CLOSENESS,
    LEM3_MONOTONICITY,
    LEM3_TRIANGLE,
    LEM3_QUASICONVEXITY,
    THM2,
    LEM4,
    ALG1,
    ALG2,
    THM5,
    THM6,
    THM6_EXPLICIT,
    ALG3,
    ALG4,
    ALG5,
    THM7,
    THM7_V2,
    THM7_V2_REFINED,
    THM8,
    THM8_V2,
    COR9,
)
