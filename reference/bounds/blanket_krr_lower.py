"""A certified LOWER bound on the delta(eps) of BBGN19's Lemma 5.3 for k-RR (BBGN19.Lem5.3.exact_krr) from one
blanket size: what a caller needs to show that the statement's eps lies above a given eps (its delta is
non-increasing in eps), at a small fraction of the cost of the exact evaluation.

Balle, Bell, Gascon, Nissim, "The Privacy Blanket of the Shuffle Model" (CRYPTO 2019, arXiv:1903.02837), Lemma 5.3;
its exact evaluation and the notation are those of `shuffle_spec.reference.bounds.blanket_exact_krr` (module doc):

    delta(eps) = sum_{N >= 1} Pr[Bin(n-1, gamma) = N - 1] D_N,   D_N = (gamma / N) G(N),
    G(N) = E[((e0 - e) a - (e e0 - 1) b - (e - 1) R)_+],   (a, b, R) | N ~ Mult(N; 1/k, 1/k, (k-2)/k),

with gamma = k / (e0 + k - 1), e0 = e^eps0, e = e^eps. Every term is non-negative and D_N is non-increasing in N
(adding an independent blanket draw is a post-processing; proven and checked there), so for every N* in [1, n]

    delta(eps) >= sum_{N <= N*} Pr[Bin(n-1, gamma) = N - 1] D_N >= Pr[Bin(n-1, gamma) <= N* - 1] D_{N*}.

N* - 1 is placed QUANTILE_SDS standard deviations above the mean of Bin(n-1, gamma) (or at n - 1, where the
probability is 1), and Pr[Bin(n-1, gamma) >= N*] <= exp(-(n-1) KL(N*/(n-1) || gamma_hi)) (Chernoff; Bin(n-1, gamma)
is stochastically increasing in gamma, so the upper end gamma_hi of gamma's bracket serves), evaluated at 40
digits and taken with a margin far above their error. G(N*) is bounded below by the certified lattice sum
`shuffle_spec.reference.numerics.lattice_sums.positive_part_expectations` (its lower end; the mass outside its
window dropped), D_{N*} >= gamma_lo G_lo(N*) / N* rounded down; at k = 2 the third class is empty (R = 0,
b = N - a) and G(N*) is one expectation over a ~ Bin(N*, 1/2), bounded below on its certified window
(`shuffle_spec.reference.numerics.binomial.certified_window`, `_binary_g_lower`) instead. At n = 1e8 the bound is
about 1.1% below the exact delta (the probability ~0.989, D_{N*} within ~0.5% of D at the mean) and costs one
lattice sum of b (a few milliseconds to ~50 ms; at k = 2 one window, ~15 ms with its first use in a process)
where the exact evaluation sums the blocked N grid (0.1-0.2 s).
"""

from __future__ import annotations

import math

import mpmath

import numpy as np

from .blanket_exact_krr import MIN_EPS0, PER_SD, bracket, check_krr_inputs
from ..core.errors import require_positive, require_probability
from ..numerics.binomial import ProbabilityPair, certified_window, iv_context
from ..numerics.lattice_sums import U1, Coefficients, binomial_law, positive_part_expectations

__all__ = ["blanket_krr_delta_lower", "QUANTILE_SDS"]

# N* - 1 sits this many standard deviations of Bin(n-1, gamma) above its mean: Pr[N - 1 >= N*] <= e^-4.5 ~ 1.1%
# (Chernoff), while D_{N*} stays within ~0.5% of D at the mean at n = 1e8 (measured on the `tightest` grid).
QUANTILE_SDS = 3.0
# The 40-digit Chernoff exponent is lowered by this much relative (plus the same absolute) before use: far above
# the error of mpmath's log at 40 digits.
EXPONENT_MARGIN = 1e-25


def _probability_at_most(m: int, top: int, gamma_hi: float) -> float:
    """A float <= Pr[Bin(m, gamma) <= top] for every gamma <= gamma_hi, given top >= m gamma_hi (Chernoff)."""
    if top >= m:
        return 1.0
    with mpmath.workdps(40):
        x, g = mpmath.mpf(top + 1), mpmath.mpf(gamma_hi)
        exponent = x * mpmath.log(x / (m * g))  # m KL(x/m || g) >= 0; its second term vanishes at x = m
        if m - x > 0:
            exponent += (m - x) * mpmath.log((m - x) / (m * (1 - g)))
        exponent = exponent * (1 - EXPONENT_MARGIN) - EXPONENT_MARGIN
        if exponent <= 0:
            return 0.0
        return max(bracket(-mpmath.expm1(-exponent))[0], 0.0)


def _binary_g_lower(size: int, c0: tuple[float, float], c1: tuple[float, float], tail: float) -> float:
    """k = 2: a certified lower bound on G(N) = E[(c0 a + c1 (N - a))_+], a ~ Bin(N, 1/2) (the third class is empty:
    (k - 2)/k = 0, so R = 0 and b = N - a), from the certified window of Bin(N, 1/2) (`certified_window`, each tail
    <= tail/2; the counts outside it are dropped: every term is >= 0), with c0 > 0 and c1 <= 0 at their lower ends (the
    linear form only falls: a, N - a >= 0). One window instead of a lattice sum (~1 ms where the lattice sum took
    25-60 ms at n = 1e8).

    Roundings: x = c0 a and y = c1 (N - a) (a, N - a exact integers below 2^53) and their sum cost three roundings,
    at most 2u (|x| + |y|) + u^2 (...) together, covered by the slack 8 u' (|x| + |y|) subtracted (which, with its own
    roundings and that of the subtraction, stays above them); each product with the pmf's lower end one more
    rounding, the sum of the non-negative terms (terms) u, the scaling below one more (margin (terms + 4) 2 u');
    a subnormal product may round up by 2^-1075: (terms) 2^-1074 is subtracted."""
    iv = iv_context()
    half = iv.mpf(0.5)  # exact: p = q = 1/2, no error
    window = certified_window(size, ProbabilityPair(half, half, 0.5, 0.5, 0.0, 0.0), tail)
    a = window.support
    x = c0[0] * a
    y = c1[0] * (float(size) - a)
    linear = (x + y) - 8 * U1 * (np.abs(x) + np.abs(y))
    terms = np.maximum(linear, 0.0) * window.lower
    count = len(terms)
    total = float(np.sum(terms)) * (1 - (count + 4) * 2 * U1) - count * 2.0**-1074
    return max(total, 0.0)


def blanket_krr_delta_lower(*, eps0: float, n: int, k: int, eps: float, delta_hint: float = 1e-6) -> float:
    """A certified lower bound on BBGN19.Lem5.3.exact_krr's delta(eps) (BBGN19 Lemma 5.3 for k-RR, the exact blanket
    bound; module doc): Pr[Bin(n-1, gamma) <= N* - 1] D_{N*} at one blanket size N*. 0.0 where eps >= eps0 (there
    delta(eps) = 0) or eps0 < MIN_EPS0 (the lattice sums do not resolve it). `delta_hint` (the target delta) only sets
    the lattice sum's dropped tail (1e-12 of it). Range: that of BBGN19.Lem5.3.exact_krr (eps0 in (0, 50], n in
    [1, 1e8], k in [2, 1e6]), eps >= 0, delta_hint in (0, 1); else ParameterError."""
    check_krr_inputs(eps0, n, 0.5, k)
    require_positive("eps", eps, allow_zero=True)
    require_probability("delta_hint", delta_hint)
    n, k = int(n), int(k)
    if eps >= eps0 or eps0 < MIN_EPS0:
        return 0.0
    with mpmath.workdps(40):
        e0, e = mpmath.exp(mpmath.mpf(eps0)), mpmath.exp(mpmath.mpf(eps))
        c0, c1, c2 = bracket(e0 - e), bracket(-(e * e0 - 1)), bracket(-(e - 1))
        gamma = bracket(mpmath.mpf(k) / (e0 + k - 1))
        law_b, law_a = binomial_law(mpmath.mpf(1) / k), binomial_law(mpmath.mpf(1) / (k - 1))
    if not c0[0] > 0:  # eps within rounding of eps0: nothing certified but 0
        return 0.0
    m = n - 1
    top = min(m, math.ceil(m * gamma[1] + QUANTILE_SDS * math.sqrt(m * gamma[1] * (1 - gamma[0]))))  # N* - 1 >= m gamma_hi
    probability = _probability_at_most(m, top, gamma[1])
    size = top + 1  # N*
    tail = max(min(1e-18, delta_hint * 1e-12), 1e-300)
    if k == 2:  # one binomial (no third class): its certified window, not a lattice sum
        g_lower = _binary_g_lower(size, c0, c1, tail)
    else:
        g_lo, _ = positive_part_expectations([size], law_b, law_a, Coefficients(c0, c1, c2), tail=tail, per_sd=PER_SD, upper=False)
        g_lower = float(g_lo[0])
    # D_{N*} >= gamma_lo G_lo / N* (two roundings, 4 u' of margin as in the exact evaluation), then the product.
    d_lo = gamma[0] * g_lower / size / (1 + 4 * U1)
    return max(probability * d_lo / (1 + 2 * U1), 0.0)
