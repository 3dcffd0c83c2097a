"""Certified positive-part expectations over trinomial counts: the engine of the exact blanket bound
(`shuffle_spec.reference.bounds.blanket_exact_krr`) and of the k-RR pair lower bounds (`shuffle_spec.reference.lower_bounds.krr`).

The quantity. For counts b ~ Bin(m, p_b) and, given b, a ~ Bin(m - b, p_a), with R = m - a - b,

    G = E[(c0 a + c1 b + c2 R)_+],        c0 > 0 >= c2 >= c1.

(That is the trinomial (a, b, R) ~ Mult(m; p_a (1 - p_b), p_b, ...).) With g(a; b) = c0 a + c1 b + c2 R and
F(b) = E[g(a; b)_+ | b], G = sum_b Pr[b] F(b).

Why it can be blocked in b: F is non-increasing in b. g(a; b) decreases in b for fixed a (its b-slope is
c1 - c2 <= 0) and increases in a (slope c0 - c2 > 0), and a | b = Bin(m - b, p_a) is stochastically
non-increasing in b; so E[g_+ | b] can only fall as b grows (checked in `proofs_checks/derived/blanket_exact_krr.py`, tested on
exact instances). Rows (exact sums over a) are computed on a grid beta_0 < beta_1 < ... of b values only
(per_sd per standard deviation of b where the normal approximation puts the mass, one per sd elsewhere,
spacing capped as said below), and every b of the window gets its own certified bracket of F(b):

- monotone: F(beta_{i+1}) <= F(b) <= F(beta_i) for beta_i <= b <= beta_{i+1};
- shifted rows (upward rows): for b = beta + j, g(a; b) = g(a; beta) - j (c2 - c1) and Pr[Bin(M - j) = a] =
  Pr[Bin(M) = a] w_j(a), w_j(a) = prod_{i<j} (M - a - i)/((M - i) q) (M = m - beta), log-concave and
  non-increasing in a: with a0 the first a with a positive term, w_j(a) <= w_j(a0) e^{-sigma (a - a0)},
  sigma = j/(M - a0) <= -(log w_j)'(a0), and e^{-x} <= 1 - x + x^2/2. So F(b) <= w_j(a0) times a polynomial
  combination of the row's suffix moments sum_{a' >= a} g rel a'^k, sum_{a' >= a} rel a'^k (k = 0, 1, 2),
  one cumulative sum serving every j. From the row at beta' = b + j' the same with v(a) =
  Pr[Bin(M' + j') = a] / Pr[Bin(M') = a], log-convex and non-decreasing, e^x >= 1 + x + x^2/2, gives
  F(b) >= v(a0) sum_{a >= a0} (g(a; beta') + j' (c2 - c1)) rel (1 + x + x^2/2) over the row. Row spacing is
  capped so that the zero of g moves by at most about one sd of a between rows and x stays below about
  1/4 over a standard deviation (there these bounds lose about 1e-4 relative);
- mean plus negative part (any two rows): F(b) = E[g | b] + E[g_- | b], E[g | b] exact at every b, and
  E[g_- | b] non-decreasing in b (g falls and a falls stochastically as b grows) lies between its values at
  the two rows (summed for downward rows, F - E[g] from the row's bracket otherwise).

The tightest of these is kept; the b tails outside the window are bounded by F <= c0 m (upper) or dropped
(lower). F(beta) itself is a finite sum over a of g_+ times binomial probabilities: summed upwards from the zero of
g when that lies above the mean of a (the terms beyond the summed range are bounded by a geometric series:
the ratio pmf(a+1)/pmf(a) is non-increasing (log-concavity), so pmf(e+i) <= pmf(e) r^i and
sum_{i>=1} (g(e) + lambda i) r^i = g(e) r/(1-r) + lambda r/(1-r)^2, valid for every shift s >= 0 of g too), or
as E[g] + E[g_-] when the zero lies below the mean (E[g] in closed form, the negative part summed downwards
the same way). Whether a row really starts below every positive term (upward) or above every negative one
(downward) is verified on its first value; a row failing that is charged its cap c0 (m - beta). Rows that need no
sum (`expectations._one_sided_rows`, O(1) each): g <= 0 on the whole row (its padded value at a = m - beta is
<= 0, g increasing in a) gives F = 0 (when the row serves no b below it, or its start's pmf is below TINY); a row whose start's pmf is certified below TINY (and past the mode, g on the
right side of 0 there) gives [0, TINY times the geometric series from its start] (upward) or [E[g], E[g] + that]
(downward), the bounds the summed path gives such a row up to its float padding. (No row is entirely positive:
g(0) = c1 b + c2 (m - b) <= 0.)

Split sums (`split_positive_part`, the exact blanket bound at small n): E[(lam a + kappa s - tau r)_+] with
s ~ Bin(n, p_s), a | s ~ Bin(s, p_a), r | s ~ Bin(n - s, p_r) independent of a: no blocking at all. For each s
one row of a carries suffix sums of X pmf and pmf (X = lam a + kappa s), and each r is an exact shift of the
threshold: E[(X - t)_+] = sum_{X > t} X pmf - t sum_{X > t} pmf, t = tau r (the multinomial split behind it
is checked in `proofs_checks/derived/blanket_exact_krr.py`). The crossing index c(r) = #{X <= t(r)} is non-decreasing in r, so the
r of a row with the same c form segments (breakpoints found exactly on the float thresholds) and
sum_r w(r) (P[c] - t(r) Q[c]) = P[c] sum w - Q[c] sum w t(r) per segment, from eps-independent sums of w and w r
(t(r) bracketed by tau_end r (1 -/+ 2u')^2: a smaller threshold only raises an upper term, a larger one only
lowers a lower term). The r windows of every s are built at once, their pmf anchored by gammaln every
ANCHOR_STEP values and carried by the ratio recurrence in between (the error model below).

Floating-point model and margins (every one on the safe side):
- IEEE binary64, round to nearest: +, -, *, / carry relative error <= u = 2^-53 (normal range).
- log Gamma (`laws.log_gamma`: a table of log(m!) below 256, Stirling's series above) at integer arguments,
  libm log and exp: relative error <= 1e-14 (a few ulps; the log-gamma tested against mpmath); the log-pmf margin is 1e-13 times the sum of the magnitudes of its terms, exp
  gets a 1e-12 relative margin.
- The ratio recurrence pmf(a+1) = pmf(a) (m-a)/(a+1) rho costs 2 roundings per ratio and 1 per running
  product, rho = p/q carries relative error <= e_rho: j steps from the anchor the relative error is
  <= expm1(e_anchor + (3j + 2) u' + j e_rho), u' = 1.001 u, taken with 1% extra.
- Sums of n non-negative floats: relative error <= n u' (applied as a factor). Row sums over the float ratio
  products rel (true products within rel (1 +- rel_err_j), rel_err increasing in j) are taken over rel itself
  and scaled once by 1 +- (the row's largest rel_err + 4u') when every term is non-negative.
- Values below 1e-280 are certified only as lying in [0, 1e-280].
- Binomial tails outside a window by the Chernoff bound exp(-m KL(x/m || p)), evaluated with the same
  log margin.
- Suffix sums of L non-negative floats (formed at the queries' start indices only: the row cut there, its pieces
  summed and added from the row's end; any order of additions): relative error <= (L + 2) u'; a difference
  A - s B of two such suffixes (the threshold shift) or a polynomial combination sum_k c_k A_k is padded by
  (L + 16) u' times sum_k |c_k| (A_k + s B_k) (every term's magnitude), the float errors of the c_k included.
- The weights w_j, v: log of a ratio of binomial pmfs by gammaln, margin 1e-13 times the sum of the
  magnitudes of its terms plus |j| times the error of log q, then exp with the 1e-12 margin; a lower weight
  is capped below overflow (a smaller weight keeps a lower bound). The shift s = j (c2 - c1) is taken from
  the brackets' safe ends, rounded down (upper queries subtract it, lower queries add it).
- The exact index where a row crosses a threshold is found from the affine form of g and verified on the
  row's own float values (they are non-decreasing), else searched: the suffix used is exactly the set of
  terms on the right side of the threshold.

Layout (by concept; this package re-exports the public names of the module it replaced): `laws` (binomial laws,
their certified windows, the shared constants), `expectations` (the row sums and plans of E[g_+]), `split` (the
split and shifted-row sums at large n), `search` (the normal approximation's starting points, the blocking grid).
"""

from __future__ import annotations

from ..solver import solve_certified_epsilon  # the certified epsilon solver; re-exported where it was first defined
from .laws import (  # noqa: F401  (the public names of the module this package replaced)
    UNIT as UNIT,
    N_STEP_LOG,
    U1 as U1,
    LOG_MARGIN as LOG_MARGIN,
    EXP_MARGIN as EXP_MARGIN,
    TINY as TINY,
    CHUNK_ELEMENTS as CHUNK_ELEMENTS,
    WIDTH_CLASS as WIDTH_CLASS,
    PER_SD as PER_SD,
    UPWARD_SD as UPWARD_SD,
    QUERY_BATCH as QUERY_BATCH,
    EVERY_B_MAX as EVERY_B_MAX,
    ROW_SD as ROW_SD,
    NEAR_SD as NEAR_SD,
    ROW_SD_NEAR as ROW_SD_NEAR,
    BinomialLaw,
    binomial_law,
    Window,
    binomial_window,
)
from .expectations import (  # noqa: F401  (the public names of the module this package replaced)
    Coefficients,
    positive_part_expectations,
    positive_part_expectation,
)
from .split import (  # noqa: F401  (the public names of the module this package replaced)
    ANCHOR_STEP as ANCHOR_STEP,
    split_cost,
    split_positive_part,
)
from .search import (  # noqa: F401  (the public names of the module this package replaced)
    normal_guess,
    normal_elasticity,
    blocking_offsets,
    search_start,
)

__all__ = ["BinomialLaw", "Coefficients", "Window", "binomial_law", "binomial_window", "positive_part_expectation", "positive_part_expectations", "split_cost", "split_positive_part", "normal_guess", "normal_elasticity", "solve_certified_epsilon", "N_STEP_LOG", "blocking_offsets", "search_start"]
