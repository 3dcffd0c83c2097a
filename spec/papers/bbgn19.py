"""BBGN19: Balle, Bell, Gascon, Nissim, "The privacy blanket of the shuffle model" (CRYPTO 2019,
arXiv:1903.02837).

Versions: arXiv 1903.02837v1 (ids `BBGN19v1.*` where it differs; version label "seed 001") and v2 (= CRYPTO 2019,
ids `BBGN19.*`; version label "seed 002"); "the seed" in a note is the version its statement cites.
"""

from __future__ import annotations

import sympy as sp

from ..statement import Direction, Kind, Source, Statement
from ..symbols import eps

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
    reference="shuffle_spec.reference.finite.divergences:hockey_stick_divergence",
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
    reference="shuffle_spec.reference.finite.closeness:is_dp_on_neighbours",
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
    reference="shuffle_spec.reference.finite.operations:post_process",
    notes=(
        "If M is (eps, delta)-DP then A o M is (eps, delta)-DP for every randomized A: the protocol is DP "
        "whenever the shuffled mechanism is. Tested on exact distributions and random kernels."
    ),
)

# ---------------------------------------------------------------------------------------------------
# Symbols of the remaining statements. The amplification bounds use the positive `delta_pos`
# (ASCII name "delta", as everywhere).
from ..symbols import delta as delta_pos  # noqa: E402
from ..symbols import eps0, gamma, k, n, sigma  # noqa: E402

V1 = "v1 (arXiv v1), seed 001"
x_in, xp_in = sp.symbols("x x_prime", nonnegative=True)  # inputs / midpoints in [0, 1]
y_out = sp.Symbol("y", real=True)
a_sym = sp.Symbol("a", positive=True)  # -E[L]
b_sym = sp.Symbol("b", positive=True)  # width of the range of L
b_plus = sp.Symbol("b_plus", positive=True)  # upper end of the range of L
c_sym = sp.Symbol("c", positive=True)  # bound on E[L^2]
m_pos = sp.Symbol("m", integer=True, positive=True)  # number of summands
i_idx = sp.Symbol("i", integer=True, positive=True)
mse, mse_prime, err1, err2 = sp.symbols("MSE MSE_prime E_e E_e2", nonnegative=True)
p_xx, p_xpx = sp.symbols("p_xx p_xpx", nonnegative=True)  # p_{x,x}, p_{x',x}
div_sym, bound_sym = sp.symbols("D_eps bound", nonnegative=True)
l_val = sp.Symbol("L", real=True)
E_XBAR, E_Y, VAR_XBAR = sp.symbols("E_xbar_over_k E_y_over_k Var_xbar_over_k", nonnegative=True)
z_out, s_y = sp.symbols("z sum_y_over_k", real=True)
sum_x = sp.Symbol("sum_x", nonnegative=True)
mu_x_w, mu_xp_w, omega_w = sp.symbols("mu_x_w mu_xp_w omega_w", positive=True)


def _a(e):
    return sp.exp(e) - 1


def hoeffding_delta_expr(g, width, e, users):
    """(1/(g n)) b^2/(4a) (1 - g (1 - exp(-2 a^2/b^2)))^n: Lemma 5.3 + Lemma 5.5 summed over Bin(n, g)."""
    a = _a(e)
    return width**2 / (4 * a * g * users) * (1 - g * (1 - sp.exp(-2 * a**2 / width**2))) ** users


def _phi(u):
    return (1 + u) * sp.log(1 + u) - u


def bennett_delta_expr(g, bplus, csec, e, users):
    """(1/(g n)) b+/log(1+beta) [(1 - g + g e^{-alpha phi(beta)})^n - (1-g)^n]: Lemma 5.3 + Lemma 5.6."""
    a = _a(e)
    beta = a * bplus / csec
    s = csec / bplus**2 * _phi(beta)
    return bplus / sp.log(1 + beta) * ((1 - g + g * sp.exp(-s)) ** users - (1 - g) ** users) / (g * users)


def thm_3_1_gamma_expr(kk):
    return sp.Max(14 * kk * sp.log(2 / delta) / ((n - 1) * eps**2), 27 * kk / ((n - 1) * eps))


def thm_3_1_gamma_within_one(kk, *, strict=False):
    """thm_3_1_gamma_expr(kk) <= 1 (< 1 if strict) as two relations without dividing by n - 1 or delta:
    14 kk log(2/delta) <= (n-1) eps^2 iff delta e^{(n-1) eps^2/(14 kk)} >= 2, and 27 kk <= (n-1) eps.
    The Max form is zoo at n = 1 or delta = 0, where comparing it raised instead of failing."""
    relation = sp.Gt if strict else sp.Ge
    return (relation(delta * sp.exp((n - 1) * eps**2 / (14 * kk)), 2), relation((n - 1) * eps, 27 * kk))


# Lemma 5.4 (generic), at TV similarity g.
def generic_upper(g, e=eps):
    return g * sp.exp(eps0) * (1 - sp.exp(e - 2 * eps0))


def generic_lower(g, e=eps):
    return -g * sp.exp(eps0) * (sp.exp(e) - sp.exp(-2 * eps0))


def generic_second_moment(g, e=eps):
    return g * sp.exp(eps0) * (sp.exp(2 * e) + 1) - 2 * g**2 * sp.exp(e - 2 * eps0)


KRR_GAMMA = k / (sp.exp(eps0) + k - 1)
KRR_UPPER = KRR_GAMMA * (1 - sp.exp(eps)) + (1 - KRR_GAMMA) * k
KRR_LOWER = KRR_GAMMA * (1 - sp.exp(eps)) - (1 - KRR_GAMMA) * k * sp.exp(eps)
KRR_SECOND = KRR_GAMMA * (2 - KRR_GAMMA) * (sp.exp(eps) - 1) ** 2 + (1 - KRR_GAMMA) ** 2 * k * (sp.exp(2 * eps) + 1)
LAPLACE_GAMMA = sp.exp(-eps0 / 2)
LAPLACE_UPPER = sp.exp(eps0 / 2) * (1 - sp.exp(eps - eps0))
LAPLACE_LOWER = sp.exp(-eps0 / 2) - sp.exp(eps + eps0 / 2)
LAPLACE_SECOND = (sp.exp(2 * eps) + 1) / 3 * (2 * sp.exp(eps0 / 2) + sp.exp(-eps0)) - 2 * sp.exp(eps) * (
    2 * sp.exp(-eps0 / 2) - sp.exp(-eps0)
)
GENERIC_GAMMA_LB = sp.exp(-eps0)
# Generic Bennett: b+ at gamma = 1; c = gamma_ub (e^eps0 (e^2eps + 1) - 2 gamma_lb e^{eps - 2 eps0}) with
# gamma_ub = 1, gamma_lb = e^-eps0 (the authors' code), >= Lemma 5.4(3) for every gamma in [e^-eps0, 1].
GENERIC_BENNETT_C = sp.exp(eps0) * (sp.exp(2 * eps) + 1) - 2 * sp.exp(eps - 3 * eps0)

THM5_3_DELTA = hoeffding_delta_expr(GENERIC_GAMMA_LB, generic_upper(1) - generic_lower(1), eps, n)
BENNETT_GENERIC_DELTA = bennett_delta_expr(GENERIC_GAMMA_LB, generic_upper(1), GENERIC_BENNETT_C, eps, n)
HOEFFDING_KRR_DELTA = hoeffding_delta_expr(KRR_GAMMA, KRR_UPPER - KRR_LOWER, eps, n)
BENNETT_KRR_DELTA = bennett_delta_expr(KRR_GAMMA, KRR_UPPER, KRR_SECOND, eps, n)
HOEFFDING_LAPLACE_DELTA = hoeffding_delta_expr(LAPLACE_GAMMA, LAPLACE_UPPER - LAPLACE_LOWER, eps, n)
BENNETT_LAPLACE_DELTA = bennett_delta_expr(LAPLACE_GAMMA, LAPLACE_UPPER, LAPLACE_SECOND, eps, n)

AMPLIFICATION_EXAMPLES = (
    {"eps0": 1.0, "n": 10_000, "delta": 1e-6},
    {"eps0": 0.5, "n": 1_000, "delta": 1e-3},
    {"eps0": 2.0, "n": 100_000, "delta": 1e-8},
)
AMPLIFICATION_INVALID = ({"eps0": 1.0, "n": 10_000, "delta": 1.5}, {"eps0": -1.0, "n": 10_000, "delta": 1e-6})
AMP = frozenset({"amplification"})

ALG1 = Statement(
    id="BBGN19.Alg1",
    kind=Kind.ALGORITHM,
    title="k-ary randomized response with blanket probability gamma (the privacy-blanket randomizer)",
    source=Source(PAPER, "Algorithm 1 (Section 3)", V2, "high"),
    symbols=(gamma, k),
    hypotheses=(sp.Le(gamma, 1), sp.Ge(k, 2)),
    conclusion=((1 - gamma) + gamma / k, gamma / k),
    direction=Direction.DEFINITION,
    reference="shuffle_spec.reference.protocols.shuffled_krr:blanket_krr_randomizer",
    notes=(
        "With probability 1-gamma report x, otherwise a uniform element of [k] (possibly x): mu_x(x) = "
        "1-gamma+gamma/k and mu_x(y) = gamma/k for y != x (the two conclusion entries). The reference labels "
        "[k] as {0..k-1}. The analyzer outputs the histogram. Implied LDP level: eps0 = log(1+k(1-gamma)/gamma)."
    ),
)

THM3_1 = Statement(
    id="BBGN19.Thm3.1",
    kind=Kind.THEOREM,
    title="Shuffled k-RR with blanket probability gamma = max{14k log(2/delta)/((n-1)eps^2), 27k/((n-1)eps)} is (eps, delta)-DP",
    source=Source(PAPER, "Theorem 3.1", V2, "medium-high"),
    symbols=(eps, n, delta, k, gamma),
    hypotheses=(sp.Gt(eps, 0), sp.Le(eps, 1), sp.Gt(delta, 0), sp.Le(delta, 1), sp.Ge(n, 2), sp.Ge(k, 2), *thm_3_1_gamma_within_one(k)),
    conclusion=(sp.Eq(gamma, thm_3_1_gamma_expr(k)),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.shuffled_krr:theorem_3_1_gamma",
    inputs=(eps, n, delta, k),
    output=gamma,
    value=thm_3_1_gamma_expr(k),
    examples=({"eps": 1.0, "n": 10_000, "delta": 1e-6, "k": 2}, {"eps": 0.5, "n": 100_000, "delta": 1e-9, "k": 10}, {"eps": 1.0, "n": 60, "delta": 1.0, "k": 2}),
    invalid_examples=({"eps": 2.0, "n": 10_000, "delta": 1e-6, "k": 2}, {"eps": 1.0, "n": 20, "delta": 1e-6, "k": 2}, {"eps": 1.0, "n": 10_000, "delta": 2.0, "k": 2}),
    notes=(
        "v2 phrasing: M = S o R^n is (eps, delta)-DP for eps <= 1, delta in (0, 1] 'such that gamma = max{...}'; "
        "the theorem implicitly needs gamma <= 1 (a hypothesis here). The value is the sufficient gamma; the "
        "reference rounds it up (a larger gamma is a post-processing of a smaller one, so it is private too). "
        "The 27k/((n-1)eps) term handles the +1 in N_1 + 1. Checked against the exact shuffled k-RR for k = 2 "
        "at the smallest n where gamma <= 1 (tests/reference/protocols/test_bbgn19_protocols.py): very conservative."
    ),
)

THM3_1_V1 = Statement(
    id="BBGN19v1.Thm3.1",
    kind=Kind.THEOREM,
    title="Shuffled k-RR is (eps, delta)-DP when gamma = gamma*, and then R is eps0-LDP with eps0 = log(1 + k(1-gamma)/gamma)",
    source=Source("BBGN19v1", "Theorem 3.1", V1, "low"),
    symbols=(eps, n, delta, k),
    hypotheses=(sp.Gt(eps, 0), sp.Le(eps, 1), sp.Gt(delta, 0), sp.Le(delta, 1), sp.Ge(n, 2), sp.Ge(k, 2), *thm_3_1_gamma_within_one(k)),
    conclusion=(
        sp.Eq(sp.log(1 + k * (1 - thm_3_1_gamma_expr(k)) / thm_3_1_gamma_expr(k)),
              sp.log(sp.Min((n - 1) * eps**2 / (14 * sp.log(2 / delta)), (n - 1) * eps / 27) - k + 1)),
    ),
    direction=Direction.LOWER_BOUND,
    reference="shuffle_spec.reference.protocols.shuffled_krr:theorem_3_1_eps0",
    inputs=(eps, n, delta, k),
    output=eps0,
    value=sp.log(sp.Min((n - 1) * eps**2 / (14 * sp.log(2 / delta)), (n - 1) * eps / 27) - k + 1),
    examples=({"eps": 1.0, "n": 10_000, "delta": 1e-6, "k": 2}, {"eps": 0.5, "n": 100_000, "delta": 1e-9, "k": 10}, {"eps": 1.0, "n": 60, "delta": 1.0, "k": 2}),
    invalid_examples=({"eps": 2.0, "n": 10_000, "delta": 1e-6, "k": 2}, {"eps": 1.0, "n": 20, "delta": 1e-6, "k": 2}),
    rtol=1e-9,
    notes=(
        "Version difference: in v1 the eps0-LDP claim is part of the theorem ('Furthermore, with this choice "
        "of gamma the local randomizer satisfies eps0-LDP'); in v2 it is a remark after the proof (the v2 "
        "theorem is BBGN19.Thm3.1). v1's gamma* display is lost and whether it already had the 27k/((n-1)eps) "
        "term cannot be read (low confidence); the spec uses v2's gamma, which is valid, so the value is "
        "eps0 = log(1 + k(1-gamma)/gamma) = log(min{(n-1)eps^2/(14 log(2/delta)), (n-1)eps/27} - k + 1) "
        "(identity checked in proofs_checks). The reference evaluates it at the rounded-up gamma and rounds "
        "down, so k-RR run at the returned eps0 has a blanket probability >= Theorem 3.1's gamma."
    ),
)

ALG2 = Statement(
    id="BBGN19.Alg2",
    kind=Kind.ALGORITHM,
    title="Summation randomizer: randomized rounding to {0..k}, then k-RR with blanket probability gamma",
    source=Source(PAPER, "Algorithm 2 (Section 4.1)", V2, "high"),
    symbols=(x_in, gamma, k, E_XBAR, E_Y, VAR_XBAR),
    hypotheses=(sp.Le(x_in, 1), sp.Le(gamma, 1)),
    conclusion=(sp.Eq(E_XBAR, x_in), sp.Eq(E_Y, (1 - gamma) * x_in + gamma / 2), sp.Le(VAR_XBAR, 1 / (4 * k**2))),
    direction=Direction.DEFINITION,
    reference="shuffle_spec.reference.protocols.summation:summation_randomizer",
    notes=(
        "xbar = floor(xk) + Ber(xk - floor(xk)) (E[xbar/k] = x, variance <= 1/(4k^2)); y = xbar w.p. 1-gamma, "
        "uniform on {0..k} (k+1 values) w.p. gamma, so E[y/k] = (1-gamma) x + gamma/2. The name R^PS is "
        "uncertain. The conclusion's E_*/Var_* stand for those moments."
    ),
)

ALG3 = Statement(
    id="BBGN19.Alg3",
    kind=Kind.ALGORITHM,
    title="Summation analyzer: z = (sum_i y_i/k - gamma n/2) / (1 - gamma), unbiased for sum_i x_i",
    source=Source(PAPER, "Algorithm 3 (Section 4.1)", V2, "high"),
    symbols=(gamma, n, s_y, z_out, sum_x),
    hypotheses=(sp.Lt(gamma, 1),),
    conclusion=(sp.Eq(z_out, (s_y - gamma * n / 2) / (1 - gamma)), sp.Eq(((1 - gamma) * sum_x + gamma * n / 2 - gamma * n / 2) / (1 - gamma), sum_x)),
    direction=Direction.DEFINITION,
    reference="shuffle_spec.reference.protocols.summation:summation_analyzer",
    notes=(
        "Debiasing: E[sum y_i/k] = (1-gamma) sum x_i + gamma n/2 (Alg. 2), so E[z] = sum x_i (second "
        "conclusion entry). Corroborated by Cobalt's integer_encoder GetDebiasedSum. Exact layout of the "
        "pseudocode is medium confidence."
    ),
)

_SUM_GAMMA = thm_3_1_gamma_expr(k + 1)
_MSE_BOUND = n / (1 - _SUM_GAMMA) ** 2 * (1 / (4 * k**2) + _SUM_GAMMA / 2)
_SUM_HYPOTHESES = (sp.Gt(eps, 0), sp.Le(eps, 1), sp.Gt(delta, 0), sp.Le(delta, 1), sp.Ge(n, 2), *thm_3_1_gamma_within_one(k + 1, strict=True))
_SUM_EXAMPLES = ({"eps": 1.0, "delta": 1e-6, "n": 100_000, "k": 20}, {"eps": 0.5, "delta": 1e-8, "n": 1_000_000, "k": 30}, {"eps": 1.0, "delta": 1e-3, "n": 10_000, "k": 5})
_SUM_INVALID = ({"eps": 2.0, "delta": 1e-6, "n": 100_000, "k": 20}, {"eps": 1.0, "delta": 1e-6, "n": 100, "k": 20})

THM4_1 = Statement(
    id="BBGN19.Thm4.1",
    kind=Kind.THEOREM,
    title="The shuffled summation protocol is (eps, delta)-DP with MSE <= n/(1-gamma)^2 (1/(4k^2) + gamma/2) = O(eps^{-4/3} log^{2/3}(1/delta) n^{1/3})",
    source=Source(PAPER, "Theorem 4.1 and the MSE display before it (v1) / in its proof (v2)", V2, "medium-high"),
    symbols=(eps, delta, n, k, mse),
    hypotheses=_SUM_HYPOTHESES,
    conclusion=(sp.Le(mse, _MSE_BOUND), eps ** sp.Rational(-4, 3) * sp.log(1 / delta) ** sp.Rational(2, 3) * n ** sp.Rational(1, 3)),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.summation:summation_accuracy_bound",
    inputs=(eps, delta, n, k),
    output=mse,
    value=_MSE_BOUND,
    examples=_SUM_EXAMPLES,
    invalid_examples=_SUM_INVALID,
    notes=(
        "Concrete form: gamma is Theorem 3.1's with k+1 in place of k, because Algorithm 2's randomized "
        "response runs on the k+1 values {0..k}; the paper writes k (immaterial asymptotically; k+1 is the "
        "conservative reading). MSE <= n/(1-gamma)^2 (1/(4k^2) + gamma/2): rounding variance <= 1/(4k^2) and "
        "a blanket message's squared error <= 1/2 (exact per-user variance is smaller, checked in tests). "
        "Choosing k = Theta((eps^2 n / log(1/delta))^{1/3}) gives the O(.) of the theorem (second conclusion "
        "entry; constant unknown). Versions: v1 states the display in the body ('expected squared error'), "
        "v2 in the proof ('mean squared error'); same theorem. Unbiasedness and the MSE bound are checked by "
        "simulation with a stated false-failure probability."
    ),
)

COR4_1_1 = Statement(
    id="BBGN19.Cor4.1.1",
    kind=Kind.COROLLARY,
    title="Statistical queries: an unbiased (eps, delta)-DP shuffled estimate of sum q(x_i) with standard deviation O(n^{1/6} log^{1/3}(1/delta) / eps^{2/3})",
    source=Source(PAPER, "Corollary 4.1.1", V2, "medium-high"),
    symbols=(eps, delta, n, k),
    hypotheses=_SUM_HYPOTHESES,
    conclusion=(n ** sp.Rational(1, 6) * sp.log(1 / delta) ** sp.Rational(1, 3) / eps ** sp.Rational(2, 3),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.summation:statistical_query_std_bound",
    inputs=(eps, delta, n, k),
    output=sp.Symbol("std", nonnegative=True),
    value=sp.sqrt(_MSE_BOUND),
    examples=_SUM_EXAMPLES,
    invalid_examples=_SUM_INVALID,
    notes="Run the summation protocol on q(x_i) in [0, 1]; unbiased, so std = sqrt(MSE) (Theorem 4.1's concrete bound). The delta range may be (0, 1] in the paper; (0, 1) here as in Thm 4.1.",
)

LEM4_1 = Statement(
    id="BBGN19.Lem4.1",
    kind=Kind.LEMMA,
    title="Reduction: post-processing by the posterior mean E[D | R(D) = y] and summing does not increase the MSE",
    source=Source(PAPER, "Lemma 4.1", V2, "high"),
    symbols=(mse, mse_prime),
    hypotheses=(),
    conclusion=(sp.Le(mse_prime, mse),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.summation_lower_bound:posterior_mean_map",
    notes=(
        "R'(x) = f(R(x)) with f(y) = E[D | R(D) = y], A' = summation: Im(R') in [0,1], MSE(P', D) <= MSE(P, D), "
        "and S o R'^n is DP whenever S o R^n is (post-processing). Version difference: the proof says "
        "'satisfying claim 1' in v1 and 'claim 2' in v2 (a numbering slip; same content)."
    ),
)

LEM4_2 = Statement(
    id="BBGN19.Lem4.2",
    kind=Kind.LEMMA,
    title="For a summing analyzer and i.i.d. inputs, MSE(P, D) >= n E[(R(D) - D)^2]",
    source=Source(PAPER, "Lemma 4.2", V2, "medium-high"),
    symbols=(n, mse, err1, err2),
    hypotheses=(),
    conclusion=(sp.Eq(mse, n * err2 + n * (n - 1) * err1**2), sp.Ge(mse, n * err2)),
    direction=Direction.LOWER_BOUND,
    reference="shuffle_spec.reference.protocols.summation_lower_bound:iid_summation_mse",
    notes="E[(sum (R(x_i) - x_i))^2] = n E[e^2] + n(n-1) E[e]^2 >= n E[e^2] with e = R(D) - D (E_e, E_e2 its moments); the paper may state the inequality only.",
)

_LEM4_3_MIN = sp.Piecewise(((k - 1) * (k - 2) / (12 * k), sp.Eq(sp.Mod(k, 2), 1)), ((k - 1) * (k**2 - 2 * k + 3) / (12 * k**2), True))
LEM4_3 = Statement(
    id="BBGN19.Lem4.3",
    kind=Kind.LEMMA,
    title="min over x in X_k of sum_{x' != x} (|x - x'| - 1/(2k))^2 >= (k-1)(k-2)/(12k)",
    source=Source(PAPER, "Lemma 4.3", V2, "low"),
    symbols=(k,),
    hypotheses=(sp.Ge(k, 2),),
    conclusion=(sp.Ge(_LEM4_3_MIN, (k - 1) * (k - 2) / (12 * k)),),
    direction=Direction.EXACT,
    reference="shuffle_spec.reference.protocols.summation_lower_bound:lemma_4_3_minimum",
    inputs=(k,),
    output=sp.Symbol("minimum", nonnegative=True),
    value=_LEM4_3_MIN,
    examples=({"k": 2}, {"k": 7}, {"k": 10}, {"k": 33}),
    invalid_examples=({"k": 1},),
    notes=(
        "The paper's constant is lost (low confidence); reconstructed: with x = (2i-1)/(2k) the sum is "
        "(1/(4k^2)) sum_{j != i} (2|i-j| - 1)^2; by sum_{l<=L} (2l-1)^2 = L(4L^2-1)/3 its minimum (central i) is "
        "(k-1)(k-2)/(12k) for odd k and (k-1)(k^2-2k+3)/(12k^2) for even k (the value), which is >= "
        "(k-1)(k-2)/(12k) >= k/24 for k >= 6 (order k, as the proof needs). Checked symbolically."
    ),
)

LEM4_4 = Statement(
    id="BBGN19.Lem4.4",
    kind=Kind.LEMMA,
    title="E[(R(D) - D)^2] >= min{(1/k) sum_x (1-p_xx)/(4k^2), (1/k) sum_x sum_{x'!=x} p_{x,x'} (|x-x'| - 1/(2k))^2} for D uniform on X_k",
    source=Source(PAPER, "Lemma 4.4", V2, "low"),
    symbols=(err2, bound_sym),
    hypotheses=(),
    conclusion=(sp.Ge(err2, bound_sym),),
    direction=Direction.LOWER_BOUND,
    reference="shuffle_spec.reference.protocols.summation_lower_bound:lemma_4_4_bound",
    notes=(
        "Low-confidence reconstruction (the condition on k was stripped): R(x) outside I_x costs >= 1/(4k^2), "
        "inside I_x' (x' != x) costs >= (|x-x'| - 1/(2k))^2; each term alone is a valid lower bound, the "
        "paper takes the minimum. Checked on exact random randomizers with outputs in [0, 1]."
    ),
)

LEM4_5 = Statement(
    id="BBGN19.Lem4.5",
    kind=Kind.LEMMA,
    title="If S o R^n is (eps, delta)-DP with delta <= 1/8 and p_xx >= 1 - e^{-eps}/2, then p_{x',x} >= min{1/4, 1/(2(n-1))}",
    source=Source(PAPER, "Lemma 4.5 and its inequality (1)", V2, "low"),
    symbols=(n, eps, delta, p_xx, p_xpx),
    hypotheses=(sp.Ge(n, 2),),
    conclusion=(
        sp.Le((1 - p_xpx) ** n, sp.exp(eps) * (1 - p_xx) * (1 - p_xpx) ** (n - 1) + delta),
        sp.Ge(p_xpx, sp.Min(sp.Rational(1, 4), 1 / (2 * (n - 1)))),
    ),
    direction=Direction.LOWER_BOUND,
    reference="shuffle_spec.reference.protocols.summation_lower_bound:lemma_4_5_cross_probability_floor",
    inputs=(n,),
    output=p_xpx,
    value=sp.Min(sp.Rational(1, 4), 1 / (2 * (n - 1))),
    examples=({"n": 2}, {"n": 3}, {"n": 1000}),
    invalid_examples=({"n": 1},),
    notes=(
        "Inequality (1) (high confidence; datasets (x',...,x') vs (x, x',...,x'), event 'no output in I_x') is "
        "the first conclusion. The paper's constants are stripped (low confidence); the spec states a derived "
        "instantiation (delta <= 1/8, p_xx >= 1 - e^-eps/2 => p_{x',x} >= min{1/4, 1/(2(n-1))}, using "
        "(1-p)^{n-1} >= 1 - (n-1)p), whose floor is the value. v1's text stops inside this lemma."
    ),
)

THM4_2 = Statement(
    id="BBGN19.Thm4.2",
    kind=Kind.THEOREM,
    title="Every (eps, delta)-DP single-message shuffle protocol for real summation has MSE = Omega(n^{1/3})",
    source=Source(PAPER, "Theorem 4.2", V2, "low"),
    symbols=(n, k, mse),
    hypotheses=(),
    conclusion=(sp.Ge(mse, n * sp.Min(1 / k**2, k / n)), n * sp.Min(1 / k**2, k / n).subs(k, n ** sp.Rational(1, 3))),
    direction=Direction.LOWER_BOUND,
    reference="shuffle_spec.reference.protocols.summation_lower_bound:iid_summation_mse",
    notes=(
        "High confidence for Omega(n^{1/3}); the exact hypotheses (eps = O(1), delta below a constant) are "
        "stripped. Chain: Lemmas 4.1-4.5 give MSE(P, D) >= n min{Omega(1/k^2), Omega(k/n)} (up to constants), "
        "k = n^{1/3} balances the two (second conclusion entry = n^{1/3}, checked symbolically), and "
        "MSE(P) = sup_x MSE(P, x) >= E_D MSE(P, x)."
    ),
)

TV_SIMILARITY = Statement(
    id="BBGN19.tv_similarity",
    kind=Kind.DEFINITION,
    title="Total variation similarity gamma = int inf_x mu_x(y) dy, blanket omega = inf_x mu_x / gamma, and the maximal decomposition mu_x = gamma omega + (1-gamma) nu_x",
    source=Source(PAPER, "Section 5.1 (definitions, equation (2))", V2, "high"),
    symbols=(gamma, mu_y, nu_y),
    hypotheses=(sp.Le(gamma, 1),),
    conclusion=(sp.Min(mu_y, nu_y), 1 - (sp.Abs(mu_y - nu_y) / 2)),
    direction=Direction.DEFINITION,
    reference="shuffle_spec.reference.finite.blanket:total_variation_similarity",
    notes=(
        "For two distributions 1 - TV(mu, mu') = sum_y min{mu(y), mu'(y)} (equation (2); the two conclusion "
        "entries are the summands: min(a,b) = (a+b)/2 - |a-b|/2). For a family: gamma = sum_y min_x mu_x(y); "
        "omega(y) = min_x mu_x(y)/gamma; nu_x = (mu_x - gamma omega)/(1-gamma). gamma is maximal: for each y "
        "some nu_x(y) = 0. The symbol Delta for the similarity is uncertain; gamma is used."
    ),
)

LEM5_1_KRR = Statement(
    id="BBGN19.Lem5.1.krr",
    kind=Kind.LEMMA,
    title="TV similarity of eps0-LDP k-ary randomized response: gamma = k / (e^eps0 + k - 1), blanket uniform",
    source=Source(PAPER, "Lemma 5.1 (1)", V2, "high"),
    symbols=(eps0, k),
    hypotheses=(sp.Ge(k, 2),),
    conclusion=(KRR_GAMMA,),
    direction=Direction.EXACT,
    reference="shuffle_spec.reference.bounds.blanket_parameters:krr_tv_similarity",
    inputs=(eps0, k),
    output=gamma,
    value=KRR_GAMMA,
    examples=({"eps0": 1.0, "k": 2}, {"eps0": 0.1, "k": 10}, {"eps0": 4.0, "k": 100}),
    invalid_examples=({"eps0": 1.0, "k": 1}, {"eps0": -1.0, "k": 2}),
    notes="Column minima of the RR matrix: k * 1/(e^eps0 + k - 1). Checked exactly against shuffle_spec.reference.finite.blanket on Fraction k-RR.",
)

LEM5_1_LAPLACE = Statement(
    id="BBGN19.Lem5.1.laplace",
    kind=Kind.LEMMA,
    title="TV similarity of the eps0-LDP Laplace mechanism on [0, 1]: gamma = e^{-eps0/2}, blanket Lap(1/2, 1/eps0)",
    source=Source(PAPER, "Lemma 5.1 (2)", V2, "high"),
    symbols=(eps0,),
    hypotheses=(),
    conclusion=(LAPLACE_GAMMA,),
    direction=Direction.EXACT,
    reference="shuffle_spec.reference.bounds.blanket_parameters:laplace_tv_similarity",
    inputs=(eps0,),
    output=gamma,
    value=LAPLACE_GAMMA,
    examples=({"eps0": 0.1}, {"eps0": 1.0}, {"eps0": 4.0}),
    invalid_examples=({"eps0": -1.0},),
    notes="R(x) = x + Lap(1/eps0), x in [0,1]; inf_x is at the endpoint farther from y; the integral is derived symbolically in proofs_checks and compared with quadrature in tests.",
)

LEM5_1_GAUSSIAN = Statement(
    id="BBGN19.Lem5.1.gaussian",
    kind=Kind.LEMMA,
    title="TV similarity of the Gaussian mechanism N(x, sigma^2) on [0, 1]: gamma = 2 Phi(-1/(2 sigma))",
    source=Source(PAPER, "Lemma 5.1 (3)", V2, "high"),
    symbols=(sigma,),
    hypotheses=(),
    conclusion=(sp.erfc(1 / (2 * sp.sqrt(2) * sigma)),),
    direction=Direction.EXACT,
    reference="shuffle_spec.reference.bounds.blanket_parameters:gaussian_tv_similarity",
    inputs=(sigma,),
    output=gamma,
    value=sp.erfc(1 / (2 * sp.sqrt(2) * sigma)),
    examples=({"sigma": 0.2}, {"sigma": 1.0}, {"sigma": 3.0}),
    invalid_examples=({"sigma": -1.0},),
    notes="2 Pr[N(0, sigma^2) <= -1/2] = 2 Phi(-1/(2 sigma)) = erfc(1/(2 sqrt(2) sigma)); derived by integration in proofs_checks.",
)

LEM5_2 = Statement(
    id="BBGN19.Lem5.2",
    kind=Kind.LEMMA,
    title="Every eps0-LDP randomizer has TV similarity gamma >= e^{-eps0}",
    source=Source(PAPER, "Lemma 5.2", V2, "high"),
    symbols=(eps0,),
    hypotheses=(),
    conclusion=(GENERIC_GAMMA_LB,),
    direction=Direction.LOWER_BOUND,
    reference="shuffle_spec.reference.bounds.blanket_parameters:generic_tv_similarity_lower_bound",
    inputs=(eps0,),
    output=gamma,
    value=GENERIC_GAMMA_LB,
    examples=({"eps0": 0.1}, {"eps0": 1.0}, {"eps0": 5.0}),
    invalid_examples=({"eps0": -0.5},),
    notes="gamma = int inf_x mu_x >= int e^{-eps0} mu_{x0} = e^{-eps0}. Checked on random exact eps0-LDP randomizers.",
)

AMPLIFICATION_VARIABLE = Statement(
    id="BBGN19.amplification_variable",
    kind=Kind.DEFINITION,
    title="Privacy amplification random variable L = (mu_x(W) - e^eps mu_x'(W)) / omega(W), W ~ omega",
    source=Source(PAPER, "Section 5.2 (definition before Lemma 5.3)", V2, "high"),
    symbols=(eps, mu_x_w, mu_xp_w, omega_w),
    hypotheses=(),
    conclusion=((mu_x_w - sp.exp(eps) * mu_xp_w) / omega_w,),
    direction=Direction.DEFINITION,
    reference="shuffle_spec.reference.finite.blanket:amplification_variable",
    notes="E[L] = 1 - e^eps (Lemma 5.4(1)). Computed as an exact distribution for finite randomizers.",
)

LEM5_3 = Statement(
    id="BBGN19.Lem5.3",
    kind=Kind.LEMMA,
    title="D_{e^eps}(M(x) || M(x')) <= (1/(gamma n)) sum_{m=1}^n C(n,m) gamma^m (1-gamma)^{n-m} E[(L_1 + ... + L_m)_+]",
    source=Source(PAPER, "Lemma 5.3 (equation (3))", V2, "high"),
    symbols=(eps, n, gamma, div_sym, bound_sym),
    hypotheses=(sp.Le(gamma, 1),),
    conclusion=(sp.Le(div_sym, bound_sym),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.finite.blanket:lemma_5_3_divergence_bound",
    notes=(
        "bound = (1/(gamma n)) E[(sum_{i<=M} L_i)_+], M ~ Bin(n, gamma). Derived via Lemmas A.1-A.3 and "
        "C(n-1, m-1)/m = C(n, m)/n. Checked against the exact divergence of small shuffled instances of random "
        "eps0-LDP randomizers (exact Fractions)."
    ),
)

LEM5_4 = Statement(
    id="BBGN19.Lem5.4",
    kind=Kind.LEMMA,
    title="Generic eps0-LDP: E[L] = 1 - e^eps, range [-gamma e^eps0 (e^eps - e^-2eps0), gamma e^eps0 (1 - e^{eps-2eps0})], E[L^2] <= gamma e^eps0 (e^2eps + 1) - 2 gamma^2 e^{eps-2eps0}",
    source=Source(PAPER, "Lemma 5.4", V2, "medium-high"),
    symbols=(eps, eps0, gamma),
    hypotheses=(sp.Le(eps, eps0), sp.Le(gamma, 1)),
    conclusion=(1 - sp.exp(eps), generic_lower(gamma), generic_upper(gamma), generic_second_moment(gamma)),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.blanket_parameters:generic_amplification_parameters",
    notes=(
        "Paper forms inferred from the authors' code (factored as gamma_ub e^eps0 (1 - e^{eps-2eps0}) etc.), "
        "from gamma e^-eps0 <= mu_x/omega <= gamma e^eps0. Range width gamma (e^eps+1)(e^eps0 - e^-eps0). "
        "Tighter valid forms (not the paper's): L in [gamma(1 - e^{eps+eps0}), gamma(e^eps0 - e^eps)], "
        "E[L^2] <= gamma e^eps0 (1+e^2eps) - 2 gamma e^eps. Checked exactly on random eps0-LDP randomizers."
    ),
)

LEM5_5 = Statement(
    id="BBGN19.Lem5.5",
    kind=Kind.LEMMA,
    title="Hoeffding: E[(L_1 + ... + L_m)_+] <= b^2/(4a) exp(-2 m a^2 / b^2) for i.i.d. L with mean -a and range width b",
    source=Source(PAPER, "Lemma 5.5", V2, "high"),
    symbols=(a_sym, b_sym, m_pos),
    hypotheses=(),
    conclusion=(b_sym**2 / (4 * a_sym) * sp.exp(-2 * m_pos * a_sym**2 / b_sym**2),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.hoeffding:hoeffding_expectation_bound",
    inputs=(a_sym, b_sym, m_pos),
    output=sp.Symbol("expectation", nonnegative=True),
    value=b_sym**2 / (4 * a_sym) * sp.exp(-2 * m_pos * a_sym**2 / b_sym**2),
    examples=({"a": 0.5, "b": 3.0, "m": 10}, {"a": 1.0, "b": 1.0, "m": 1}, {"a": 0.01, "b": 2.0, "m": 1000}),
    invalid_examples=({"a": -0.5, "b": 3.0, "m": 10}, {"a": 0.5, "b": 3.0, "m": 0}),
    notes="E[Z] = int_0^inf Pr[Z >= t] dt, Hoeffding Pr[sum L >= t] <= exp(-2(t+ma)^2/(m b^2)), then Lemma A.4 with f(0) = 2ma^2/b^2, f'(0) = 4a/b^2 (checked symbolically). Hypothesis wording medium confidence.",
)

THM5_3 = Statement(
    id="BBGN19.Thm5.3",
    kind=Kind.THEOREM,
    title="Generic Hoeffding amplification bound: (eps, delta)-DP whenever delta >= e^eps0 (e^eps+1)^2 (e^eps0-e^-eps0)^2/(4n(e^eps-1)) (1 - e^-eps0 (1 - e^{-2(e^eps-1)^2/((e^eps+1)^2 (e^eps0-e^-eps0)^2)}))^n",
    source=Source(PAPER, "Theorem 5.3 (equation (4))", V2, "high"),
    symbols=(eps0, n, delta_pos, eps),
    hypotheses=(sp.Lt(delta_pos, 1),),
    conclusion=(sp.Le(THM5_3_DELTA, delta_pos), sp.Le(eps, eps0)),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.hoeffding:hoeffding_generic_epsilon",
    inputs=(eps0, n, delta_pos),
    output=eps,
    tags=AMP,
    mechanism="generic",
    examples=AMPLIFICATION_EXAMPLES,
    invalid_examples=AMPLIFICATION_INVALID,
    notes=(
        "Value: the smallest eps in (0, eps0] with the left side <= delta (bisection, verified at the returned "
        "point, relative tolerance 1e-9 on the safe side); eps0 with a note when none. Content from (3) + "
        "Lemma 5.5 + Lemma 5.4(1,2) at gamma = 1 inside b + Lemma 5.2 in the prefactor (the expression "
        "decreases in gamma); the m = 0 term is included (harmless). Typography: the seed shows '(4) where "
        "[stripped]', the paper abbreviated part of (4); the content is what the authors' code computes. "
        "Spec-vs-reference: proofs_checks evaluates this SymPy left side at the reference's eps."
    ),
)

_COR_EXPR = 4 * sp.Min(eps0, 1) * sp.exp(eps0) * sp.sqrt(sp.log(1 / delta_pos) / n)
COR5_3_1 = Statement(
    id="BBGN19.Cor5.3.1",
    kind=Kind.COROLLARY,
    title="If eps0 <= log(n/log(1/delta))/2, shuffling gives eps = O(min{eps0, 1} e^eps0 sqrt(log(1/delta)/n)); here with constant 4",
    source=Source(PAPER, "Corollary 5.3.1", V2, "medium"),
    symbols=(eps0, n, delta_pos),
    hypotheses=(
        sp.Lt(delta_pos, 1),
        sp.Le(eps0, sp.log(n / sp.log(1 / delta_pos)) / 2),
        sp.Le(sp.Piecewise((0, _COR_EXPR >= eps0), (THM5_3_DELTA.subs(eps, _COR_EXPR), True)), delta_pos),
    ),
    conclusion=(_COR_EXPR,),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.restated:corollary_5_3_1_epsilon",
    inputs=(eps0, n, delta_pos),
    output=eps,
    value=_COR_EXPR,
    tags=AMP,
    mechanism="generic",
    examples=({"eps0": 1.0, "n": 10_000, "delta": 1e-6}, {"eps0": 0.5, "n": 1_000, "delta": 1e-3}, {"eps0": 0.1, "n": 100_000, "delta": 1e-8}),
    invalid_examples=({"eps0": 5.0, "n": 1_000, "delta": 1e-6}, {"eps0": 2.0, "n": 100, "delta": 1e-3}, {"eps0": 3.0, "n": 10**7, "delta": 1e-6}),
    hypothesis_names=("delta < 1", "regime eps0 <= log(n / log(1/delta)) / 2", "Thm 5.3 certifies the closed form at delta (or it is >= eps0)"),
    notes=(
        "The paper states only O(.). The constant 4 is ours, and the closed form is registered with the "
        "hypothesis that Thm 5.3 certifies it (or that it is >= eps0, trivially valid): a scan over eps0 <= 1 "
        "finds Thm5.3's eps / (min{eps0,1} e^eps0 sqrt(log(1/delta)/n)) <= 2.39. Finding: the corollary does "
        "NOT follow from Thm 5.3 as stated for large eps0: with gamma = 1 inside b, Thm 5.3 only gives "
        "eps = O(e^{3eps0/2} sqrt(log(1/delta)/n)) (e.g. eps0 = 3, n = 1e7, delta = 1e-6 is refused); the "
        "e^eps0 rate needs the gamma-dependent range of Lemma 5.4 (width proportional to gamma) in Lemma 5.5. "
        "The hypothesis constant /2 is medium confidence."
    ),
)

LEM5_6 = Statement(
    id="BBGN19.Lem5.6",
    kind=Kind.LEMMA,
    title="Bennett: E[(L_1 + ... + L_m)_+] <= b+/log(1+beta) exp(-m alpha phi(beta)), alpha = c/b+^2, beta = a b+/c (corrected form)",
    source=Source(PAPER, "Lemma 5.6", V2, "high"),
    symbols=(a_sym, b_plus, c_sym, m_pos),
    hypotheses=(sp.Ge(c_sym, a_sym**2),),
    conclusion=(b_plus / sp.log(1 + a_sym * b_plus / c_sym) * sp.exp(-m_pos * c_sym / b_plus**2 * _phi(a_sym * b_plus / c_sym)),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.bennett:bennett_expectation_bound",
    inputs=(a_sym, b_plus, c_sym, m_pos),
    output=sp.Symbol("expectation", nonnegative=True),
    value=b_plus / sp.log(1 + a_sym * b_plus / c_sym) * sp.exp(-m_pos * c_sym / b_plus**2 * _phi(a_sym * b_plus / c_sym)),
    examples=({"a": 0.5, "b_plus": 3.0, "c": 2.0, "m": 10}, {"a": 1.0, "b_plus": 1.0, "c": 1.0, "m": 1}, {"a": 0.1, "b_plus": 5.0, "c": 4.0, "m": 200}),
    invalid_examples=({"a": 2.0, "b_plus": 3.0, "c": 1.0, "m": 10}, {"a": 0.5, "b_plus": 3.0, "c": 2.0, "m": 0}),
    notes=(
        "ERRATUM / version difference: the authors' initial code (2019-05-31) computed "
        "b+/(m a log(1+beta)) e^{-m alpha phi(beta)} (an extra factor 1/(m a/b+)); commit 7994ad3 (2020-07-06, "
        "'Fixed typo in Bennett bounds') changed it to the form here. The paper's printed display is stripped "
        "and may match the pre-fix version. The pre-fix form is NOT an upper bound: tests compare both with "
        "the exact E[(sum L)_+] of k-RR and find the pre-fix value below the truth; the spec and reference use "
        "the fixed form only. Derivation: [BLM13, Thm 2.9] Pr[sum L >= t] <= exp(-(mc/b+^2) phi(b+(t+ma)/(mc))) "
        "and Lemma A.4 with f(0) = m alpha phi(beta), f'(0) = log(1+beta)/b+ (checked symbolically). "
        "Hypothesis c >= a^2 holds for every second moment of a variable with mean -a."
    ),
)


def _amplification(id_, title, locator, delta_expr, reference, notes, *, mechanism, strict, extra=(), confidence="high"):
    k_inputs = (k,) if mechanism == "krr" else ()
    examples = tuple({**e, **({"k": 2} if mechanism == "krr" else {})} for e in AMPLIFICATION_EXAMPLES)
    if mechanism == "krr":
        examples = examples + ({"eps0": 4.0, "n": 100_000, "delta": 1e-6, "k": 10},)
    invalid = tuple({**e, **({"k": 2} if mechanism == "krr" else {})} for e in AMPLIFICATION_INVALID)
    if mechanism == "krr":
        invalid = invalid + ({"eps0": 1.0, "n": 10_000, "delta": 1e-6, "k": 1},)
    return Statement(
        id=id_,
        kind=Kind.PROCEDURE,
        title=title,
        source=Source(PAPER, locator, V2, confidence),
        symbols=(eps0, n, delta_pos, *k_inputs, eps),
        hypotheses=(sp.Lt(delta_pos, 1), *((sp.Ge(k, 2),) if mechanism == "krr" else ()), *extra),
        # evaluate=False here and below: the same unevaluated relation (SymPy cannot decide it), without the
        # 0.1-1 s its assumption system spends trying, which every process loading the registry paid.
        conclusion=(sp.Le(delta_expr, delta_pos, evaluate=False), (sp.Lt if strict else sp.Le)(eps, eps0)),
        direction=Direction.UPPER_BOUND,
        reference=reference,
        inputs=(eps0, n, delta_pos, *k_inputs),
        output=eps,
        tags=AMP,
        mechanism=mechanism,
        examples=examples,
        invalid_examples=invalid,
        notes=notes
        + " Value: the smallest eps with the left side <= delta (bisection, verified at the returned point, relative "
        "tolerance 1e-9 on the safe side), or eps0 with a note when none; the SymPy left side is evaluated at the "
        "reference's eps in proofs_checks.",
    )


BENNETT_GENERIC = _amplification(
    "BBGN19.bennett_generic",
    "Generic Bennett amplification bound (Lemmas 5.2, 5.3, 5.4, 5.6)",
    "Section 5.3 and Section 6, Figure 3 'Bennett, Generic'",
    BENNETT_GENERIC_DELTA,
    "shuffle_spec.reference.bounds.bennett:bennett_generic_epsilon",
    "gamma = e^-eps0 in the prefactor and binomial (the expression decreases in gamma), b+ = e^eps0 (1 - e^{eps-2eps0}) "
    "(Lemma 5.4(2) at gamma = 1), c = e^eps0 (e^2eps+1) - 2 e^{eps-3eps0} (the authors' code; >= Lemma 5.4(3) for all "
    "gamma in [e^-eps0, 1]); Bennett increases in b+ and c. The m >= 1 binomial sum is in closed form "
    "(q^n - (1-gamma)^n)/(gamma n) since the corrected Lemma 5.6 has no 1/m factor. Uses the corrected Lemma 5.6 "
    "(the pre-2020 code version is invalid).",
    mechanism="generic",
    strict=False,
)

HOEFFDING_KRR = _amplification(
    "BBGN19.hoeffding_krr",
    "Hoeffding amplification bound for k-ary randomized response (Lemmas 5.3, 5.5, 5.7)",
    "Section 5.3 and Section 6, Figure 3",
    HOEFFDING_KRR_DELTA,
    "shuffle_spec.reference.bounds.hoeffding:hoeffding_krr_epsilon",
    "gamma = k/(e^eps0+k-1) (Lemma 5.1), b = (1-gamma) k (e^eps+1) (Lemma 5.7(1)).",
    mechanism="krr",
    strict=False,
)

BENNETT_KRR = _amplification(
    "BBGN19.bennett_krr",
    "Bennett amplification bound for k-ary randomized response (Lemmas 5.3, 5.6, 5.7)",
    "Section 5.3 and Section 6, Figure 3",
    BENNETT_KRR_DELTA,
    "shuffle_spec.reference.bounds.bennett:bennett_krr_epsilon",
    "gamma = k/(e^eps0+k-1), b+ = gamma(1-e^eps) + (1-gamma)k, c = gamma(2-gamma)(e^eps-1)^2 + (1-gamma)^2 k (e^2eps+1) "
    "(Lemma 5.7, exact second moment). b+ > 0 needs eps < eps0. Corrected Lemma 5.6.",
    mechanism="krr",
    strict=True,
)

HOEFFDING_LAPLACE = _amplification(
    "BBGN19.hoeffding_laplace",
    "Hoeffding amplification bound for the Laplace mechanism on [0, 1] (Lemmas 5.3, 5.5, 5.8)",
    "Section 5.3 and Section 6, Figure 3",
    HOEFFDING_LAPLACE_DELTA,
    "shuffle_spec.reference.bounds.hoeffding:hoeffding_laplace_epsilon",
    "gamma = e^{-eps0/2} (Lemma 5.1), b = (e^eps+1)(e^{eps0/2} - e^{-eps0/2}) (Lemma 5.8(1)).",
    mechanism="laplace",
    strict=False,
)

BENNETT_LAPLACE = _amplification(
    "BBGN19.bennett_laplace",
    "Bennett amplification bound for the Laplace mechanism on [0, 1] (Lemmas 5.3, 5.6, 5.8)",
    "Section 5.3 and Section 6, Figure 3",
    BENNETT_LAPLACE_DELTA,
    "shuffle_spec.reference.bounds.bennett:bennett_laplace_epsilon",
    "gamma = e^{-eps0/2}, b+ = e^{eps0/2}(1 - e^{eps-eps0}), c = (e^2eps+1)/3 (2e^{eps0/2} + e^-eps0) - "
    "2e^eps (2e^{-eps0/2} - e^-eps0) (Lemma 5.8). Corrected Lemma 5.6.",
    mechanism="laplace",
    strict=True,
)

LEM5_7 = Statement(
    id="BBGN19.Lem5.7",
    kind=Kind.LEMMA,
    title="k-RR: range and (exact) second moment of the privacy amplification random variable",
    source=Source(PAPER, "Lemma 5.7", V2, "high"),
    symbols=(eps, eps0, k),
    hypotheses=(sp.Ge(k, 2),),
    conclusion=(KRR_LOWER, KRR_UPPER, KRR_SECOND, sp.Eq(KRR_UPPER - KRR_LOWER, (1 - KRR_GAMMA) * k * (sp.exp(eps) + 1))),
    direction=Direction.EXACT,
    reference="shuffle_spec.reference.bounds.blanket_parameters:krr_amplification_parameters",
    notes="L = gamma(1-e^eps) + k(1-gamma)([W=x] - e^eps [W=x']), W uniform; the ends are attained and E[L^2] is an equality. Checked exactly on Fraction k-RR.",
)

LEM5_8 = Statement(
    id="BBGN19.Lem5.8",
    kind=Kind.LEMMA,
    title="Laplace on [0, 1]: range and second-moment bound of the privacy amplification random variable",
    source=Source(PAPER, "Lemma 5.8", V2, "high"),
    symbols=(eps, eps0),
    hypotheses=(),
    conclusion=(LAPLACE_LOWER, LAPLACE_UPPER, LAPLACE_SECOND),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.blanket_parameters:laplace_amplification_parameters",
    notes=(
        "mu_x(W)/omega(W) in [e^{-eps0/2}, e^{eps0/2}]; E[(mu_x/omega)^2] <= (2e^{eps0/2} + e^-eps0)/3 (at x in {0,1}) "
        "and E[mu_x mu_x'/omega^2] >= 2e^{-eps0/2} - e^-eps0 (at {x,x'} = {0,1}); both ends and the moment bound are "
        "tight. Checked by numeric integration on a grid of (x, x')."
    ),
)

THM5_1 = Statement(
    id="BBGN19.Thm5.1",
    kind=Kind.THEOREM,
    title="EFMRTT19's bound restated for randomize-then-shuffle: eps = 12 eps0 sqrt(log(1/delta)/n)",
    source=Source(PAPER, "Theorem 5.1 (citing EFMRTT19)", V2, "high"),
    symbols=(eps0, n, delta_pos),
    hypotheses=(sp.Lt(eps0, sp.Rational(1, 2)), sp.Ge(n, 1000), sp.Lt(delta_pos, sp.Rational(1, 100))),
    conclusion=(12 * eps0 * sp.sqrt(sp.log(1 / delta_pos) / n),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.restated:bbgn19_theorem_5_1_epsilon",
    inputs=(eps0, n, delta_pos),
    output=eps,
    value=12 * eps0 * sp.sqrt(sp.log(1 / delta_pos) / n),
    tags=AMP,
    mechanism="generic",
    examples=({"eps0": 0.4, "n": 10_000, "delta": 1e-6}, {"eps0": 0.1, "n": 1_000, "delta": 1e-3}, {"eps0": 0.25, "n": 10**6, "delta": 1e-9}),
    invalid_examples=({"eps0": 0.6, "n": 10_000, "delta": 1e-6}, {"eps0": 0.4, "n": 999, "delta": 1e-6}, {"eps0": 0.4, "n": 10_000, "delta": 0.05}),
    notes=(
        "Version difference: v2 says it is stated 'for the randomize-then-shuffle setting' (EFMRTT19 analyses "
        "shuffle-then-randomize); v1 has no Section 5 and cites only eps = O(eps0 sqrt(log(1/delta)/n)). The "
        "authors' code also asserts eps <= eps0."
    ),
)

_SUM_TERM = sp.Symbol("E_pos_sum", nonnegative=True)
LEM_A1 = Statement(
    id="BBGN19.LemA.1",
    kind=Kind.LEMMA,
    title="Conditioning on the set B of blanket users: D(M(x) || M(x')) <= sum_B Pr[B] D(Y_B || Y'_B)",
    source=Source(PAPER, "Appendix A, Lemma A.1 (equation (5))", V2, "high"),
    symbols=(div_sym, bound_sym),
    hypotheses=(),
    conclusion=(sp.Le(div_sym, bound_sym),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.finite.blanket:lemma_a1_conditioned_bound",
    notes="Pr[B] = gamma^|B| (1-gamma)^{n-1-|B|}; joint convexity of the hockey-stick divergence. Checked exactly on small shuffled instances.",
)

LEM_A2 = Statement(
    id="BBGN19.LemA.2",
    kind=Kind.LEMMA,
    title="Adding common independent elements does not increase the divergence: D(Y + Z || Y' + Z) <= D(Y || Y')",
    source=Source(PAPER, "Appendix A, Lemma A.2 and equation (6)", V2, "high"),
    symbols=(div_sym, bound_sym),
    hypotheses=(),
    conclusion=(sp.Le(div_sym, bound_sym),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.finite.blanket:lemma_a2_blanket_bound",
    notes="Gives D <= sum_m C(n-1,m) gamma^m (1-gamma)^{n-1-m} D(Y_m || Y'_m) (the reference computes this right side). Checked exactly.",
)

LEM_A3 = Statement(
    id="BBGN19.LemA.3",
    kind=Kind.LEMMA,
    title="D(Y_m || Y'_m) = E[(L_1 + ... + L_{m+1})_+] / (m + 1)",
    source=Source(PAPER, "Appendix A, Lemma A.3", V2, "high"),
    symbols=(div_sym, _SUM_TERM, m_pos),
    hypotheses=(),
    conclusion=(sp.Eq(div_sym, _SUM_TERM / m_pos),),
    direction=Direction.EXACT,
    reference="shuffle_spec.reference.finite.blanket:blanket_multiset_divergence",
    notes="Stated with m+1 summands written m here (m >= 1 summands). An exact equality (the paper may write <=); checked exactly with Fractions.",
)

_f0, _fp0, _t = sp.symbols("f0 fprime0 t", positive=True)
LEM_A4 = Statement(
    id="BBGN19.LemA.4",
    kind=Kind.LEMMA,
    title="For differentiable f with f'(0) > 0 and f' increasing: int_0^inf e^{-f(t)} dt <= e^{-f(0)} / f'(0)",
    source=Source(PAPER, "Appendix A, Lemma A.4", V2, "medium"),
    symbols=(_f0, _fp0),
    hypotheses=(),
    conclusion=(sp.exp(-_f0) / _fp0,),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.hoeffding:hoeffding_expectation_bound",
    notes="Proof: convexity gives f(t) >= f(0) + f'(0) t. The first hypothesis was stripped; f'(0) > 0 is what the proof needs. Its two applications (Lemmas 5.5, 5.6) are checked symbolically; the reference is its Hoeffding application.",
)

STATEMENTS: tuple[Statement, ...] = (
    HOCKEY_STICK, THM5_2, POST_PROCESSING,
    ALG1, THM3_1, THM3_1_V1, ALG2, ALG3, THM4_1, COR4_1_1,
    LEM4_1, LEM4_2, LEM4_3, LEM4_4, LEM4_5, THM4_2,
    THM5_1, TV_SIMILARITY, LEM5_1_KRR, LEM5_1_LAPLACE, LEM5_1_GAUSSIAN, LEM5_2, AMPLIFICATION_VARIABLE,
    LEM5_3, LEM5_4, LEM5_5, THM5_3, COR5_3_1, LEM5_6, BENNETT_GENERIC, LEM5_7, LEM5_8,
    HOEFFDING_KRR, BENNETT_KRR, HOEFFDING_LAPLACE, BENNETT_LAPLACE,
    LEM_A1, LEM_A2, LEM_A3, LEM_A4,
)
