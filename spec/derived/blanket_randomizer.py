"""An upper bound (BBGN19 Lemma 5.3 evaluated exactly) and a certified pair lower bound on the central eps of any
shuffled finite randomizer given as a matrix; derived here, proofs in `proofs_checks/derived/blanket_exact_randomizer.py`.

The randomizer is a k x m row-stochastic matrix mu[x, y] (rows inputs, columns outputs, every column all
positive or all zero: a finite eps0). These statements take the matrix as input, not scalars: they are
registered for `show` / `list` and the catalog, and evaluated by `audit randomizer` and
`shuffle_spec.tightest_randomizer`, not by `eval` or the test vectors (not evaluable from scalars).

- `BBGN19.Lem5.3.exact_randomizer`: Lemma 5.3 with the best blanket decomposition
  gamma = sum_y min_x mu[x, y], omega[y] = min_x mu[x, y] / gamma, evaluated exactly, maximised over the
  ordered pairs (x, x'):

      delta(eps) <= max_{x != x'} sum_{N=1}^{n} C(n-1, N-1) gamma^(N-1) (1-gamma)^(n-N) D_N(x, x'),
      D_N(x, x') = (1/N) E_{c ~ Mult(N; omega)}[(sum_y l[y] c[y])_+],  l[y] = (mu[x, y] - e^eps mu[x', y]) / omega[y].

- `exact.randomizer_pair`: the divergence of user 1 at x vs x' with the n - 1 others at z, outputs merged into
  bins B (a post-processing), P = mu B:

      delta_pair(eps) = (1/n) E_{h ~ Mult(n; P[z])}[(sum_b a[b] h[b])_+],  a[b] = (P[x, b] - e^eps P[x', b]) / P[z, b],

  whose eps is a LOWER bound on the central eps of the shuffled randomizer.
"""

from __future__ import annotations

import sympy as sp

from ..statement import Direction, Kind, Source, Statement
from ..symbols import delta, eps, k, n

__all__ = ["STATEMENTS", "EXACT_RANDOMIZER", "RANDOMIZER_PAIR", "GAMMA", "OMEGA", "PAIR_WEIGHT", "blanket_delta", "pair_delta", "m"]

MAX_N = 10**8
MAX_K = 16
MAX_M = 64

m = sp.Symbol("m", integer=True, positive=True)  # outputs
N_ = sp.Symbol("N", integer=True, positive=True)
x, x2, z, y = sp.symbols("x x2 z y", integer=True, nonnegative=True)
mu = sp.Function("mu")  # mu(x, y): the randomizer matrix
E = sp.exp(eps)

column_min = sp.Function("min_rows")  # min_rows(y) = min_{r < k} mu[r, y]
GAMMA = sp.Sum(column_min(y), (y, 0, m - 1))
OMEGA = column_min(y) / GAMMA
# E_{c ~ Mult(N; w)}[(sum_y f(y) c[y])_+] as a named functional of the law and the coefficients.
mult_positive_part = sp.Function("E_mult_positive_part")
PAIR_WEIGHT = sp.Function("P")  # P(row, bin): the merged matrix mu B


def blanket_delta() -> sp.Expr:
    """Lemma 5.3's delta(eps) for the ordered pair (x, x2), as the finite sum over N (module doc)."""
    coefficient = sp.Lambda(y, (mu(x, y) - E * mu(x2, y)) / OMEGA)
    d_n = mult_positive_part(N_, sp.Lambda(y, OMEGA), coefficient) / N_
    return sp.Sum(sp.binomial(n - 1, N_ - 1) * GAMMA ** (N_ - 1) * (1 - GAMMA) ** (n - N_) * d_n, (N_, 1, n))


def pair_delta() -> sp.Expr:
    """delta of the pair (x vs x2, others at z) after merging the outputs into bins (module doc); y runs over bins."""
    coefficient = sp.Lambda(y, (PAIR_WEIGHT(x, y) - E * PAIR_WEIGHT(x2, y)) / PAIR_WEIGHT(z, y))
    return mult_positive_part(n, sp.Lambda(y, PAIR_WEIGHT(z, y)), coefficient) / n


RANGE = (sp.Lt(delta, 1), sp.Ge(k, 2), sp.Le(k, MAX_K), sp.Ge(m, 2), sp.Le(m, MAX_M), sp.Le(n, MAX_N))
RANGE_NAMES = ("delta < 1", "k >= 2 inputs", f"k <= {MAX_K} inputs", "m >= 2 outputs", f"m <= {MAX_M} outputs", "n <= 1e8")

EXACT_RANDOMIZER = Statement(
    id="BBGN19.Lem5.3.exact_randomizer",
    kind=Kind.PROCEDURE,
    title="Upper bound: the blanket bound for any finite randomizer computed exactly (Lemma 5.3 unrelaxed, best blanket decomposition), certified",
    source=Source("BBGN19", "Lemma 5.3 and Section 5.1 (blanket decomposition), evaluated exactly for a matrix", "v2", "high"),
    symbols=(n, delta, k, m, eps, x, x2),
    hypotheses=RANGE,
    hypothesis_names=RANGE_NAMES,
    conclusion=(sp.Le(sp.Max(blanket_delta(), 0), delta),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.blanket_exact_randomizer:exact_blanket_randomizer_epsilon",
    notes=(
        "Input: the matrix (keyword `matrix`), n and delta; not evaluable from scalars (use `audit randomizer` or "
        "shuffle_spec.tightest_randomizer). Decomposition: gamma = sum_y min_x mu[x, y], omega = column minima / "
        "gamma, so mu_x = gamma omega + (1 - gamma) nu_x with nu_x >= 0 summing to 1 (proofs_checks/derived/blanket_exact_randomizer.py): "
        "Lemma 5.3 applies, and no decomposition has a larger gamma. A finite eps0 makes every kept column positive, "
        "so mu_x << omega and D_N is exactly the divergence of one report plus N - 1 blanket draws, non-increasing "
        "in N (the N-sum is blocked on a grid as for BBGN19.Lem5.3.exact_krr). Outputs with equal (mu[x,y], mu[x',y]) / "
        "omega[y] are merged (k-RR gives 3 groups, so this equals BBGN19.Lem5.3.exact_krr on k-RR matrices, tested); "
        "at most 3 groups: exact certified lattice sums; more: randomized rounding of L to a power-of-2 grid with "
        "E[L' | L] >= L (convex order: an upper bound for the increasing convex (.)_+ ; error ~ N h^2) and the "
        "certified FFT of shuffle_spec.reference.composition.shuffled_rounds (lower end of the interval 0 on that path). eps: the largest over the "
        "ordered pairs of each pair's certified eps (relative tolerance 1e-3, safe side), or eps0 with a note. "
        "Range: 2 <= k <= 16, 2 <= m <= 64, eps0 <= 50, n <= 1e8; refused beyond."
    ),
)

RANDOMIZER_PAIR = Statement(
    id="exact.randomizer_pair",
    kind=Kind.PROCEDURE,
    title="Lower bound (certified): explicit neighbouring pair of a finite randomizer (others at one input, outputs merged to 3 bins)",
    source=Source(
        "BBGN19",
        "neighbouring pair: user 1 holds x vs x', the n - 1 others hold z (output merging is a post-processing; derived here, proof in proofs_checks/derived/blanket_exact_randomizer.py)",
        "derived",
        "high",
    ),
    symbols=(n, delta, k, m, eps, x, x2, z),
    hypotheses=RANGE,
    hypothesis_names=RANGE_NAMES,
    conclusion=(sp.Le(pair_delta(), delta),),
    direction=Direction.LOWER_BOUND,
    reference="shuffle_spec.reference.lower_bounds.randomizer:randomizer_pair_epsilon",
    notes=(
        "Input: the matrix, n and delta; not evaluable from scalars. P_x(h) = W(h) sum_y mu_x(y) h_y / (n mu_z(y)) "
        "under W = Mult(n; mu_z) (the multinomial shift, proofs_checks/derived/blanket_exact_randomizer.py), so the pair's divergence "
        "is the count expectation above: certified lattice sums when the coefficients take at most 3 values "
        "(m <= 3: m = 2 is a binary asymmetric mechanism). m > 3: outputs merged into 3 bins contiguous in the "
        "likelihood-ratio order of (x, x') (a post-processing: the merged pair's eps is still a lower bound). "
        "Every (x, x', z) is tried (ranked by a chi-square distance; one solved only when it certainly beats the "
        "best). The certified lower bound is the LOWER end of the returned interval (what the gap uses)."
    ),
)

STATEMENTS: tuple[Statement, ...] = (EXACT_RANDOMIZER, RANDOMIZER_PAIR)
