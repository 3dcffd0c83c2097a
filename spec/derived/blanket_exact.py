"""An upper bound (BBGN19 Lemma 5.3 evaluated exactly) and certified pair lower bounds on the central eps of
shuffled k-ary randomized response and of the shuffled Laplace mechanism on [0, 1]; derived here, proofs in
`proofs_checks/derived/blanket_exact_krr.py` and `proofs_checks/derived/blanket_exact_laplace.py`.

- `BBGN19.Lem5.3.exact_krr`: BBGN19 Lemma 5.3's (1/(gamma n)) E[(L_1 + ... + L_M)_+], M ~ Bin(n, gamma),
  evaluated exactly for k-RR instead of relaxed by Hoeffding (Thm 5.3) or Bennett (Lemma 5.6): an upper
  bound on the central delta(eps) of n shuffled k-RR reports.
- `exact.krr_pair_third`, `exact.krr_pair_x0`: the divergence of explicit neighbouring pairs (the others all at
  a third value, or all at x0), lower bounds on the worst case; `exact.krr_pair_third_split`: the third pair's
  exact divergence (the count of the third value kept apart from the unheld values').
- `BBGN19.Lem5.3.exact_laplace` (upper bound) and `exact.laplace_pair_x0` (lower bound): the same two sides for
  the Laplace mechanism on [0, 1] (below, with their own notes).

The conclusions are written as the finite sums they are (e0 = e^eps0, e = e^eps, D = e0 + k - 1):

    Lemma 5.3 exact:  sum_{N=1}^{n} C(n-1, N-1) gamma^(N-1) (1-gamma)^(n-N) (gamma/N) *
                      sum_{a+b<=N} N!/(a! b! (N-a-b)!) k^-N (k-2)^(N-a-b) ((e0-e) a - (e e0-1) b - (e-1)(N-a-b))_+
    pair (third):     (1/n) sum_{h0+h1<=n} Mult(n; h0, h1; 1/D, 1/D) ((e0-e) h0 - (e e0-1) h1 - (e-1) tau (n-h0-h1))_+,
                      tau = (k-2)/(e0+k-3)   (the counts of x0, x1 and the rest kept: a post-processing)
    pair (third, split): (1/n) sum_{h0+h1+r<=n} Mult(n; h0, h1, r; 1/D, 1/D, (k-3)/D) (e0/D)^(n-h0-h1-r) *
                      ((e0-e) h0 - (e e0-1) h1 - (e-1) r - (e-1)/e0 (n-h0-h1-r))_+
    pair (x0):        max of (1/n) sum Mult(n; h0, h1; e0/D, 1/D) (a0 h0 + a1 h1 + (1-e)(n-h0-h1))_+ with
                      (a0, a1) = ((e0-e)/e0, 1-e e0) and (1/e0-e, e0-e)   (both directions)
"""

from __future__ import annotations

import sympy as sp

from ..statement import Direction, Kind, Source, Statement
from ..symbols import delta, eps, eps0, k, n

__all__ = [
    "STATEMENTS",
    "EXACT_KRR",
    "PAIR_THIRD",
    "PAIR_X0",
    "PAIR_THIRD_SPLIT",
    "EXACT_LAPLACE",
    "LAPLACE_PAIR_X0",
    "blanket_krr_delta",
    "pair_third_delta",
    "pair_x0_delta",
    "pair_third_split_delta",
    "blanket_laplace_delta",
    "laplace_pair_delta",
    "laplace_blanket_single",
]

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


def pair_third_split_delta() -> sp.Expr:
    """The third pair's divergence from its sufficient counts (h0, h1, r, h_z = n - h0 - h1 - r): four classes with
    pi = (1/D, 1/D, (k-3)/D, e0/D) and coefficients (e0 - e, 1 - e e0, 1 - e, (1 - e)/e0)."""
    r_ = sp.Symbol("r", integer=True, nonnegative=True)
    rest = n - a - b - r_
    weight = sp.factorial(n) / (sp.factorial(a) * sp.factorial(b) * sp.factorial(r_) * sp.factorial(rest))
    weight = weight * (1 / D) ** (a + b) * ((k - 3) / D) ** r_ * (E0 / D) ** rest
    term = sp.Max((E0 - E) * a + (1 - E * E0) * b + (1 - E) * r_ + (1 - E) / E0 * rest, 0)
    return sp.Sum(sp.Sum(sp.Sum(weight * term, (r_, 0, n - a - b)), (b, 0, n - a)), (a, 0, n)) / n


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


# The fields the five statements of this module share, and those each family (k-RR, Laplace) shares: every one
# is a certified numerical procedure for the central eps of a shuffled randomizer, evaluated from its inputs.
_FAMILIES: dict[str, dict] = {
    "krr": {"inputs": (eps0, n, delta, k), "rtol": LATTICE_RTOL},
    "laplace": {"inputs": (eps0, n, delta), "rtol": 1e-2},  # rtol: see EXACT_LAPLACE's and LAPLACE_PAIR_X0's notes
}


def _procedure(mechanism: str, *, examples: tuple, invalid_examples: tuple, **fields) -> Statement:
    """A certified numerical procedure for the central eps of the shuffled `mechanism` (k-RR or Laplace on [0, 1]):
    `fields` are the statement's own (id, title, source, hypotheses, conclusion, direction, reference, notes)."""
    family = _FAMILIES[mechanism]
    return Statement(
        kind=Kind.PROCEDURE,
        symbols=(*family["inputs"], eps),
        inputs=family["inputs"],
        output=eps,
        value=None,
        mechanism=mechanism,
        tags=AMP,
        rtol=family["rtol"],
        examples=examples,
        invalid_examples=invalid_examples,
        **fields,
    )


EXACT_KRR = _procedure(
    "krr",
    id="BBGN19.Lem5.3.exact_krr",
    title="Upper bound: the blanket bound for k-ary randomized response computed exactly (Lemma 5.3 without the Hoeffding/Bennett relaxation), certified",
    source=Source("BBGN19", "Lemma 5.3 and Section 5.2 (privacy amplification random variable), evaluated exactly", "v2", "high"),
    hypotheses=_range(2),
    # evaluate=False here and below: the same unevaluated relation (SymPy cannot decide it), without the
    # 0.1-1 s its assumption system spends trying, which every process loading the registry paid.
    conclusion=(sp.Le(blanket_krr_delta(), delta, evaluate=False), sp.Le(eps, eps0)),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.blanket_exact_krr:exact_blanket_krr_epsilon",
    examples=EXAMPLES,
    invalid_examples=INVALID,
    notes=(
        "For k-RR, L takes the values k(e0-e)/D, k(1-e e0)/D, k(1-e)/D with probabilities 1/k, 1/k, (k-2)/k "
        "under the uniform blanket, so the sum of M copies is a function of the multinomial counts (a, b, R) of "
        "the blanket draws; C(n,N) gamma^N (1-gamma)^(n-N)/(gamma n) = C(n-1,N-1) gamma^(N-1) (1-gamma)^(n-N)/N "
        "gives the conclusion's form (checked in proofs_checks/derived/blanket_exact_krr.py). Its inner term is also exactly "
        "D_{e^eps}(Y_{N-1} || Y'_{N-1}) of Lemma A.3 (equality when mu_x << omega), which is non-increasing in N "
        "(adding a blanket draw is a post-processing): the reference blocks the N-sum and the b-sum on grids by "
        "this monotonicity (upper end at each block's left point), sums a | b exactly with a geometric tail bound, "
        "and bounds the binomial tails by Chernoff. Value: the smallest eps whose certified delta(eps) <= delta "
        "(relative tolerance 1e-3 on the safe side), or eps0 with a note. Range n <= 1e8, eps0 <= 50, "
        "k <= 1e6 (hypotheses), refused beyond. Worst case over the pair (x, x'): k-RR is symmetric, every pair "
        "gives the same L."
    ),
)

PAIR_THIRD = _procedure(
    "krr",
    id="exact.krr_pair_third",
    title="Lower bound (certified): k-RR pair with the other users all at a third value (counts of x0, x1, rest)",
    source=Source(
        "BBGN19",
        "neighbouring pair x0 vs x1 with the n - 1 others at a third value z (exact divergence of the kept counts; derived here, proof in proofs_checks/derived/blanket_exact_krr.py)",
        "derived",
        "high",
    ),
    hypotheses=_range(3),
    conclusion=(sp.Le(pair_third_delta(), delta, evaluate=False),),
    direction=Direction.LOWER_BOUND,
    reference="shuffle_spec.reference.lower_bounds.krr:krr_pair_third_epsilon",
    examples=EXAMPLES,
    invalid_examples=INVALID + ({"eps0": 1.0, "n": 100, "delta": 1e-6, "k": 2},),
    notes=(
        "eps(delta) of the counts (h0, h1, rest) of the shuffled histogram of the pair: a post-processing of the "
        "pair's output, so its eps is <= the pair's and <= the worst case: a LOWER bound on the central eps. "
        "Under the others' n-draw law W, P_x(h) = W(h)(mu_x(x0) h0/pi0 + mu_x(x1) h1/pi1 + mu_x(rest) R/pir)/n "
        "(checked in proofs_checks/derived/blanket_exact_krr.py and on exact shuffled distributions). The certified lower bound is "
        "the lower end of the returned interval (what `tightest` uses)."
    ),
)

PAIR_X0 = _procedure(
    "krr",
    id="exact.krr_pair_x0",
    title="Lower bound (certified): k-RR pair with the other users all at x0 (both directions)",
    source=Source(
        "BBGN19",
        "neighbouring pair x0 vs x1 with the n - 1 others at x0 (exact divergence of the kept counts, both directions; derived here, proof in proofs_checks/derived/blanket_exact_krr.py)",
        "derived",
        "high",
    ),
    hypotheses=_range(2),
    conclusion=tuple(sp.Le(direction, delta, evaluate=False) for direction in pair_x0_delta()),
    direction=Direction.LOWER_BOUND,
    reference="shuffle_spec.reference.lower_bounds.krr:krr_pair_x0_epsilon",
    examples=EXAMPLES,
    invalid_examples=INVALID,
    notes=(
        "The exact eps of this pair (the values other than x0, x1 are exchangeable here, so the counts "
        "(h0, h1, rest) are sufficient); for k = 2 it is shuffled binary RR with all others at one bit "
        "(= exact.shuffled_binary_rr's pair m = n-1, tested). A LOWER bound on the worst-case central eps; the "
        "certified lower bound is the lower end of the returned interval."
    ),
)

# The split pair's range beyond the lattice's: the expected count n/D of x1 at most this (the reference's
# SPLIT_MAX_MEAN; its window, one lattice sum per value, stays short).
SPLIT_MAX_MEAN = 8
# Points where the split pair's window of h1 is short (large eps0 or small n; its range, module doc of the reference).
SPLIT_EXAMPLES = (
    {"eps0": 6.0, "n": 300, "delta": 1e-6, "k": 10},
    {"eps0": 1.0, "n": 30, "delta": 1e-2, "k": 5},
    {"eps0": 0.5, "n": 20, "delta": 0.05, "k": 10},
)

PAIR_THIRD_SPLIT = _procedure(
    "krr",
    id="exact.krr_pair_third_split",
    title="Lower bound (certified): k-RR pair with the other users all at a third value, its exact divergence (counts of x0, x1, the third value, the rest)",
    source=Source(
        "BBGN19",
        "neighbouring pair x0 vs x1 with the n - 1 others at a third value z (exact divergence: the values other than x0, x1, z are exchangeable; derived here, proof in proofs_checks/derived/blanket_exact_krr.py)",
        "derived",
        "high",
    ),
    hypotheses=(*_range(4), sp.Le(n / D, SPLIT_MAX_MEAN)),
    hypothesis_names=("", "", "", "", "", "n/(e^eps0 + k - 1) <= 8 (x1 a rare report: a short window of its count)"),
    conclusion=(sp.Le(pair_third_split_delta(), delta, evaluate=False),),
    direction=Direction.LOWER_BOUND,
    reference="shuffle_spec.reference.lower_bounds.krr:krr_pair_third_split_epsilon",
    examples=SPLIT_EXAMPLES,
    invalid_examples=INVALID + ({"eps0": 1.0, "n": 100, "delta": 1e-6, "k": 3}, {"eps0": 1.0, "n": 10**4, "delta": 1e-6, "k": 10}),
    notes=(
        "The same pair as exact.krr_pair_third, but the count of the third value z is kept apart from the count of "
        "the k - 3 values nobody holds (exact.krr_pair_third merges them: a post-processing of these counts, so "
        "this eps is >= that one); the values outside {x0, x1, z} are exchangeable, so these counts are sufficient "
        "and this is the pair's EXACT eps, a LOWER bound on the worst case. Summed over the count of x1, "
        "h1 ~ Bin(n, 1/D), on a certified window, one three-class lattice sum per value (none once every "
        "coefficient is <= 0); refused when n/D > 8 (x1 no longer a rare report: larger n or smaller eps0, where "
        "the merged counts lose little). The certified lower bound is the lower end of the returned interval."
    ),
)

# --- the Laplace mechanism on [0, 1] ----------------------------------------------------------------------
# c = e^{eps0/2}; X on [1/c, c]: density c^{-1/2} x^{-3/2}/2 below c, an atom 1/c at c (Pr[X >= x] = (c x)^{-1/2}).
# Blanket amplification variable of the pair (0, 1): L = X - e/c (left side) or 1/c - e X (right side), each
# w.p. 1/2. Pair (others at 0): R = mu_1/mu_0 (V ~ mu_0) is 1/2 atom at 1/C + 1/2 X_C (C = e^{eps0}).
MAX_N_LAPLACE = 10**6
MAX_EPS0_LAPLACE = 8
x = sp.Symbol("x", positive=True)
m_ = sp.Symbol("m", integer=True, nonnegative=True)
LAP_C = sp.exp(eps0 / 2)
LAP_GAMMA = sp.exp(-eps0 / 2)
# E[(L_1 + ... + L_m)_+] for i.i.d. L (blanket) and E[(Z_1 + ... + Z_n)_+] (pair): stated by name, the law of
# one summand is given below (checked in proofs_checks/derived/blanket_exact_laplace.py).
SUM_POSITIVE_PART_L = sp.Function("E_pos_sum_L")
SUM_POSITIVE_PART_Z = sp.Function("E_pos_sum_Z")


def x_density(cc: sp.Expr) -> sp.Expr:
    """Density of X's continuous part on [1/cc, cc)."""
    return cc ** sp.Rational(-1, 2) * x ** sp.Rational(-3, 2) / 2


def laplace_blanket_single() -> sp.Expr:
    """E[L_+] (Lemma 5.3 at n = 1) as integrals over X's law: (1/2)(left side) + (1/2)(right side)."""
    c = LAP_C
    f = x_density(c)
    left = sp.Integral(sp.Max(x - E / c, 0) * f, (x, 1 / c, c)) + sp.Max(c - E / c, 0) / c
    right = sp.Integral(sp.Max(1 / c - E * x, 0) * f, (x, 1 / c, c)) + sp.Max(1 / c - E * c, 0) / c
    return (left + right) / 2


def blanket_laplace_delta() -> sp.Expr:
    """Lemma 5.3 for the Laplace mechanism: (1/(gamma n)) sum_m Pr[Bin(n, gamma) = m] E[(L_1 + ... + L_m)_+]."""
    g = LAP_GAMMA
    return sp.Sum(sp.binomial(n, m_) * g**m_ * (1 - g) ** (n - m_) * SUM_POSITIVE_PART_L(m_), (m_, 1, n)) / (g * n)


def laplace_pair_delta() -> sp.Expr:
    """The pair's divergence (one direction; the other has Z' = R - e^eps): (1/n) E[(Z_1 + ... + Z_n)_+]."""
    return SUM_POSITIVE_PART_Z(n) / n


def _laplace_range() -> tuple[sp.Basic, ...]:
    return (sp.Lt(delta, 1), sp.Le(n, MAX_N_LAPLACE), sp.Le(eps0, MAX_EPS0_LAPLACE))


# Examples at n = 1: the high-precision path is exact there (the Laplace profile; the reference's epsilon uses
# the same closed form at n = 1, its lattice path is tested on it); the boundary n = 1e6 is run by the float
# reference only (the vectors' generation time). Larger n are exercised by tests/reference/bounds/test_blanket_exact_laplace.py and the benchmark.
LAPLACE_EXAMPLES = ({"eps0": 0.5, "n": 1, "delta": 0.1}, {"eps0": 0.25, "n": 1, "delta": 0.05})
LAPLACE_INVALID = (
    {"eps0": 1.0, "n": 1_000, "delta": 1.5},
    {"eps0": -1.0, "n": 1_000, "delta": 1e-6},
    {"eps0": 1.0, "n": 10**7, "delta": 1e-6},
    {"eps0": 25.0, "n": 100, "delta": 1e-6},
)

EXACT_LAPLACE = _procedure(
    "laplace",
    id="BBGN19.Lem5.3.exact_laplace",
    title="Upper bound: the blanket bound for the Laplace mechanism on [0, 1] computed exactly (Lemma 5.3 without the Hoeffding/Bennett relaxation), certified",
    source=Source("BBGN19", "Lemma 5.3 with Lemma 5.1 (2) (Laplace blanket), evaluated exactly", "v2", "medium-high"),
    hypotheses=_laplace_range(),
    conclusion=(sp.Le(blanket_laplace_delta(), delta, evaluate=False), sp.Le(eps, eps0)),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.blanket_exact_laplace:exact_blanket_laplace_epsilon",
    examples=LAPLACE_EXAMPLES,
    invalid_examples=LAPLACE_INVALID,
    notes=(
        "Blanket omega = Lap(1/2, 1/eps0) = mu_{1/2}, gamma = e^{-eps0/2} (BBGN19.Lem5.1.laplace). For the pair "
        "(0, 1), L = X - e/c or 1/c - e X (each side w.p. 1/2), c = e^{eps0/2}, Pr[X >= x] = (cx)^{-1/2} on [1/c, c] "
        "(checked in proofs_checks/derived/blanket_exact_laplace.py). Worst pair: the statement uses (0, 1); that it dominates every "
        "pair (x, x') in convex order of L (for every eps) is proven in proofs_checks/derived/blanket_exact_laplace.py (radial garbling "
        "by self-decomposability, derivative arguments on the edges of the square, closed forms on the last edge). "
        "Certified evaluation: mean-preserving spread of L onto a lattice (upper end; convex order), mean-exact "
        "groups contracted to lattice points (lower end), n-fold sum by exponentially tilted FFT with Chernoff "
        "window tails and the FFT round-off bound of shuffle_spec.reference.composition.shuffled_rounds. Value: the smallest eps whose certified "
        "delta(eps) <= delta (relative tolerance 1e-3 on the safe side), or eps0 with a note. rtol 1e-2: the "
        "float reference's answer lies above the mathematical value by the lattice spread (about h^2/4 of "
        "variance, h = sd(L)/8) and the eps tolerance. At n = 1 the expression is E[L_+] = 1 - e^{(eps - eps0)/2} "
        "(the high-precision path; larger n are left to the float reference). Range n <= 1e6, eps0 <= 8 (hypotheses; the lattice grows like e^{eps0/4})."
    ),
)

LAPLACE_PAIR_X0 = _procedure(
    "laplace",
    id="exact.laplace_pair_x0",
    title="Lower bound (certified): shuffled Laplace on [0, 1], user 1 holds 0 vs 1, the other users all hold 0",
    source=Source(
        "BBGN19",
        "neighbouring pair: user 1 holds 0 vs 1, the n - 1 others hold 0 (exact divergence of the continuous outputs; derived here, proof in proofs_checks/derived/blanket_exact_laplace.py)",
        "derived",
        "high",
    ),
    hypotheses=_laplace_range(),
    conclusion=(sp.Le(laplace_pair_delta(), delta, evaluate=False),),
    direction=Direction.LOWER_BOUND,
    reference="shuffle_spec.reference.lower_bounds.laplace:laplace_pair_x0_epsilon",
    examples=LAPLACE_EXAMPLES,
    invalid_examples=LAPLACE_INVALID,
    notes=(
        "The shuffled output has density (1/n) sum_i mu_x(v_i)/mu_0(v_i) relative to mu_0^n, so D(P_0||P_1) = "
        "(1/n) E[(sum Z_i)_+], Z = 1 - e^eps R, R = mu_1/mu_0 (V ~ mu_0), and D(P_1||P_0) the same with Z' = R - e^eps; "
        "the pair's delta is their max (checked in proofs_checks/derived/blanket_exact_laplace.py and against direct integration "
        "at n = 1). Exact for this pair of CONTINUOUS outputs (no binning); a LOWER bound on the worst-case "
        "central eps; the reference returns the LOWER end of the pair's certified eps interval as its value (the "
        "interval in the note; convex-order lattice contraction). At n = 1 both directions equal the Laplace "
        "profile 1 - e^{(eps - eps0)/2} (the high-precision path). rtol 1e-2: the value lies below the pair's "
        "exact eps by the eps tolerance 1e-3 and the lattice contraction. Binning at 1/2 is a post-processing of the "
        "same pair giving binary RR with e^{eps0'} = 2 e^{eps0/2} - 1 (the others' bits all 0; "
        "exact.shuffled_binary_rr.pair k = 0): its certified lower end is also a lower bound on this pair's eps, and "
        "the reported lower end is the larger of the two (the binned one wins where the lattice contraction is "
        "coarse: large eps0 with small n)."
    ),
)

STATEMENTS: tuple[Statement, ...] = (EXACT_KRR, PAIR_THIRD, PAIR_X0, PAIR_THIRD_SPLIT, EXACT_LAPLACE, LAPLACE_PAIR_X0)
