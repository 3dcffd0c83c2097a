"""The exact blanket bound and certified pair lower bounds for shuffled k-ary randomized response (issue 15).

- `BBGN19.Lem5.3.exact_krr`: BBGN19 Lemma 5.3's (1/(gamma n)) E[(L_1 + ... + L_M)_+], M ~ Bin(n, gamma),
  evaluated exactly for k-RR instead of relaxed by Hoeffding (Thm 5.3) or Bennett (Lemma 5.6): an upper
  bound on the central delta(eps) of n shuffled k-RR reports.
- `exact.krr_pair_third`, `exact.krr_pair_x0`: the divergence of explicit neighbouring pairs (the others all at
  a third value, or all at x0), lower bounds on the worst case.

The conclusions are written as the finite sums they are (e0 = e^eps0, e = e^eps, D = e0 + k - 1):

    Lemma 5.3 exact:  sum_{N=1}^{n} C(n-1, N-1) gamma^(N-1) (1-gamma)^(n-N) (gamma/N) *
                      sum_{a+b<=N} N!/(a! b! (N-a-b)!) k^-N (k-2)^(N-a-b) ((e0-e) a - (e e0-1) b - (e-1)(N-a-b))_+
    pair (third):     (1/n) sum_{h0+h1<=n} Mult(n; h0, h1; 1/D, 1/D) ((e0-e) h0 - (e e0-1) h1 - (e-1) tau (n-h0-h1))_+,
                      tau = (k-2)/(e0+k-3)   (the counts of x0, x1 and the rest kept: a post-processing)
    pair (x0):        max of (1/n) sum Mult(n; h0, h1; e0/D, 1/D) (a0 h0 + a1 h1 + (1-e)(n-h0-h1))_+ with
                      (a0, a1) = ((e0-e)/e0, 1-e e0) and (1/e0-e, e0-e)   (both directions)
"""

from __future__ import annotations

import sympy as sp

from shuffle_spec.spec.statement import Direction, Kind, Source, Statement
from shuffle_spec.spec.symbols import delta, eps, eps0, k, n

__all__ = ["STATEMENTS", "EXACT_KRR", "PAIR_THIRD", "PAIR_X0", "blanket_krr_delta", "pair_third_delta", "pair_x0_delta"]

AMP = frozenset({"amplification"})
MAX_N = 10**8
MAX_EPS0 = 50
MAX_K = 10**6

N_ = sp.Symbol("N", integer=True, positive=True)  # users in the blanket plus the distinguished one
a = sp.Symbol("a", integer=True, nonnegative=True)
b = sp.Symbol("b", integer=True, nonnegative=True)

E0 = sp.exp(eps0)
E = sp.exp(eps)
D = E0 + k - 1
GAMMA = k / D


def _multinomial(total: sp.Expr, x: sp.Expr, y: sp.Expr) -> sp.Expr:
    return sp.factorial(total) / (sp.factorial(x) * sp.factorial(y) * sp.factorial(total - x - y))


def blanket_krr_delta() -> sp.Expr:
    """Lemma 5.3's expression for k-RR, as the exact finite sum (module doc)."""
    inner = _multinomial(N_, a, b) * k**-N_ * (k - 2) ** (N_ - a - b) * sp.Max((E0 - E) * a - (E * E0 - 1) * b - (E - 1) * (N_ - a - b), 0)
    d_n = GAMMA / N_ * sp.Sum(sp.Sum(inner, (b, 0, N_ - a)), (a, 0, N_))
    return sp.Sum(sp.binomial(n - 1, N_ - 1) * GAMMA ** (N_ - 1) * (1 - GAMMA) ** (n - N_) * d_n, (N_, 1, n))


def _pair_sum(p0: sp.Expr, p1: sp.Expr, c0: sp.Expr, c1: sp.Expr, cr: sp.Expr) -> sp.Expr:
    weight = _multinomial(n, a, b) * p0**a * p1**b * (1 - p0 - p1) ** (n - a - b)
    return sp.Sum(sp.Sum(weight * sp.Max(c0 * a + c1 * b + cr * (n - a - b), 0), (b, 0, n - a)), (a, 0, n)) / n


def pair_third_delta() -> sp.Expr:
    tau = (k - 2) / (E0 + k - 3)
    return _pair_sum(1 / D, 1 / D, E0 - E, 1 - E * E0, (1 - E) * tau)


def pair_x0_delta() -> tuple[sp.Expr, sp.Expr]:
    """(D(P_x0 || P_x1), D(P_x1 || P_x0)) of the kept counts; the pair's delta is their max."""
    forward = _pair_sum(E0 / D, 1 / D, (E0 - E) / E0, 1 - E * E0, 1 - E)
    backward = _pair_sum(E0 / D, 1 / D, 1 / E0 - E, E0 - E, 1 - E)
    return forward, backward


def _range(min_k: int) -> tuple[sp.Basic, ...]:
    return (sp.Lt(delta, 1), sp.Ge(k, min_k), sp.Le(k, MAX_K), sp.Le(n, MAX_N), sp.Le(eps0, MAX_EPS0))


EXAMPLES = (
    {"eps0": 1.0, "n": 10_000, "delta": 1e-6, "k": 10},
    {"eps0": 4.0, "n": 1_000, "delta": 1e-6, "k": 100},
    {"eps0": 2.0, "n": 50, "delta": 1e-3, "k": 3},
    # Small enough for the high-precision paths (`<function>_mp`) of all three statements.
    {"eps0": 1.0, "n": 30, "delta": 1e-2, "k": 5},
    {"eps0": 0.5, "n": 20, "delta": 0.05, "k": 10},
)
# The references solve for eps to 1e-3 relative (EPS_REL_TOL) on certified delta brackets whose blocking adds a
# little more: the upper bound returns its upper end, the pair lower bounds their lower end.
LATTICE_RTOL = 5e-3
INVALID = (
    {"eps0": 1.0, "n": 10_000, "delta": 1.5, "k": 3},
    {"eps0": -1.0, "n": 10_000, "delta": 1e-6, "k": 3},
    {"eps0": 1.0, "n": 10**9, "delta": 1e-6, "k": 3},
    {"eps0": 60.0, "n": 100, "delta": 1e-6, "k": 3},
    {"eps0": 1.0, "n": 100, "delta": 1e-6, "k": 1},
)

EXACT_KRR = Statement(
    id="BBGN19.Lem5.3.exact_krr",
    kind=Kind.PROCEDURE,
    title="Exact blanket bound for k-ary randomized response (Lemma 5.3 without the Hoeffding/Bennett relaxation), certified",
    source=Source("BBGN19", "Lemma 5.3 and Section 5.2 (privacy amplification random variable), evaluated exactly", "v2", "high"),
    symbols=(eps0, n, delta, k, eps),
    hypotheses=_range(2),
    conclusion=(sp.Le(blanket_krr_delta(), delta), sp.Le(eps, eps0)),
    direction=Direction.UPPER_BOUND,
    reference="reference.bounds.blanket_exact:exact_blanket_krr_epsilon",
    rtol=LATTICE_RTOL,
    inputs=(eps0, n, delta, k),
    output=eps,
    value=None,
    mechanism="krr",
    tags=AMP,
    examples=EXAMPLES,
    invalid_examples=INVALID,
    notes=(
        "For k-RR, L takes the values k(e0-e)/D, k(1-e e0)/D, k(1-e)/D with probabilities 1/k, 1/k, (k-2)/k "
        "under the uniform blanket, so the sum of M copies is a function of the multinomial counts (a, b, R) of "
        "the blanket draws; C(n,N) gamma^N (1-gamma)^(n-N)/(gamma n) = C(n-1,N-1) gamma^(N-1) (1-gamma)^(n-N)/N "
        "gives the conclusion's form (checked in proofs_checks/tight.py). Its inner term is also exactly "
        "D_{e^eps}(Y_{N-1} || Y'_{N-1}) of Lemma A.3 (equality when mu_x << omega), which is non-increasing in N "
        "(adding a blanket draw is a post-processing): the reference blocks the N-sum and the b-sum on grids by "
        "this monotonicity (upper end at each block's left point), sums a | b exactly with a geometric tail bound, "
        "and bounds the binomial tails by Chernoff. Value: the smallest eps whose certified delta(eps) <= delta "
        "(relative tolerance 1e-3 on the safe side), or eps0 with a note. Range n <= 1e8, eps0 <= 50, "
        "k <= 1e6 (hypotheses), refused beyond. Worst case over the pair (x, x'): k-RR is symmetric, every pair "
        "gives the same L."
    ),
)

PAIR_THIRD = Statement(
    id="exact.krr_pair_third",
    kind=Kind.PROCEDURE,
    title="Certified lower bound: k-RR pair with the other users all at a third value (counts of x0, x1, rest)",
    source=Source("BBGN19", "issue 15 construction (neighbouring pair x0 vs x1, others at z)", "derived", "high"),
    symbols=(eps0, n, delta, k, eps),
    hypotheses=_range(3),
    conclusion=(sp.Le(pair_third_delta(), delta),),
    direction=Direction.LOWER_BOUND,
    reference="reference.lower_bounds:krr_pair_third_epsilon",
    rtol=LATTICE_RTOL,
    inputs=(eps0, n, delta, k),
    output=eps,
    value=None,
    mechanism="krr",
    tags=AMP,
    examples=EXAMPLES,
    invalid_examples=INVALID + ({"eps0": 1.0, "n": 100, "delta": 1e-6, "k": 2},),
    notes=(
        "eps(delta) of the counts (h0, h1, rest) of the shuffled histogram of the pair: a post-processing of the "
        "pair's output, so its eps is <= the pair's and <= the worst case: a LOWER bound on the central eps. "
        "Under the others' n-draw law W, P_x(h) = W(h)(mu_x(x0) h0/pi0 + mu_x(x1) h1/pi1 + mu_x(rest) R/pir)/n "
        "(checked in proofs_checks/tight.py and on exact shuffled distributions). The certified lower bound is "
        "the lower end of the returned interval (what `tightest` uses)."
    ),
)

PAIR_X0 = Statement(
    id="exact.krr_pair_x0",
    kind=Kind.PROCEDURE,
    title="Certified lower bound: k-RR pair with the other users all at x0 (both directions)",
    source=Source("BBGN19", "issue 15 construction (neighbouring pair x0 vs x1, others at x0)", "derived", "high"),
    symbols=(eps0, n, delta, k, eps),
    hypotheses=_range(2),
    conclusion=tuple(sp.Le(direction, delta) for direction in pair_x0_delta()),
    direction=Direction.LOWER_BOUND,
    reference="reference.lower_bounds:krr_pair_x0_epsilon",
    rtol=LATTICE_RTOL,
    inputs=(eps0, n, delta, k),
    output=eps,
    value=None,
    mechanism="krr",
    tags=AMP,
    examples=EXAMPLES,
    invalid_examples=INVALID,
    notes=(
        "The exact eps of this pair (the values other than x0, x1 are exchangeable here, so the counts "
        "(h0, h1, rest) are sufficient); for k = 2 it is shuffled binary RR with all others at one bit "
        "(= exact.shuffled_binary_rr's pair m = n-1, tested). A LOWER bound on the worst-case central eps; the "
        "certified lower bound is the lower end of the returned interval."
    ),
)

STATEMENTS: tuple[Statement, ...] = (EXACT_KRR, PAIR_THIRD, PAIR_X0)
