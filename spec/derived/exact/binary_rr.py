"""Exact privacy of shuffled binary randomized response (`exact.shuffled_binary_rr`) and a lower bound from one
neighbouring pair (`exact.shuffled_binary_rr.pair`); derived here, proofs in `proofs_checks/derived/exact_binary_rr.py`.

Binary RR keeps the bit w.p. p = e^eps0/(e^eps0+1). With m ones among the other n-1 users,
S_m = Bin(m, p) + Bin(n-1-m, 1-p), P_m = Bern(p) + S_m, Q_m = Bern(1-p) + S_m, and the exact privacy curve is
the max over m of both hockey-stick divergences. `removal_bound` states the post-processing step that the
certified worst case rests on.
"""

from __future__ import annotations

import sympy as sp

from ...statement import Direction, Kind, Source, Statement
from ...symbols import delta, eps, eps0, m, n

__all__ = ["STATEMENTS", "pair_pmfs", "pair_divergence", "keep_probability"]

s = sp.Symbol("s", integer=True)  # number of ones in the shuffled output
i = sp.Symbol("i", integer=True)  # ones among the m users holding 1

keep_probability = sp.exp(eps0) / (sp.exp(eps0) + 1)


def _others_pmf(ones: sp.Expr, at: sp.Expr) -> sp.Expr:
    """Pr[S_m = at], S_m = Bin(m, p) + Bin(n-1-m, 1-p), as a finite convolution sum."""
    p = keep_probability
    term = sp.binomial(ones, i) * p**i * (1 - p) ** (ones - i) * sp.binomial(n - 1 - ones, at - i) * (1 - p) ** (at - i) * p ** (n - 1 - ones - at + i)
    return sp.Sum(term, (i, 0, ones))


def pair_pmfs(ones: sp.Expr = m, at: sp.Expr = s) -> tuple[sp.Expr, sp.Expr]:
    """P_m(s), Q_m(s)."""
    p = keep_probability
    here, prev = _others_pmf(ones, at), _others_pmf(ones, at - 1)
    return p * prev + (1 - p) * here, (1 - p) * prev + p * here


def pair_divergence(ones: sp.Expr = m) -> sp.Expr:
    """max(D_{e^eps}(P_m||Q_m), D_{e^eps}(Q_m||P_m)) as sums over s in 0..n."""
    p_m, q_m = pair_pmfs(ones, s)
    # evaluate=False: the same expression (Max cannot order these symbolic sums), without the ~1 s of SymPy's
    # attempts to compare them, which every process loading the registry paid at import.
    forward = sp.Sum(sp.Max(p_m - sp.exp(eps) * q_m, 0, evaluate=False), (s, 0, n))
    backward = sp.Sum(sp.Max(q_m - sp.exp(eps) * p_m, 0, evaluate=False), (s, 0, n))
    return sp.Max(forward, backward, evaluate=False)


def removal_bound(start: sp.Expr, width: sp.Expr) -> sp.Expr:
    """The divergence of the population of n - width users with `start` ones: for every m in
    [start, start + width], pair_divergence(m) <= removal_bound(start, width) (users removed = post-processing)."""
    return pair_divergence(start).subs(n, n - width)


SHUFFLED_BINARY_RR = Statement(
    id="exact.shuffled_binary_rr",
    kind=Kind.PROCEDURE,
    title="Exact central eps of n shuffled binary randomized-response reports",
    source=Source(
        "BBGN19",
        "hockey-stick divergence (Theorem 5.2) of the shuffled count, worst over the neighbouring pairs (the setting of Cheu et al. EUROCRYPT 2019, arXiv 1808.01394; FMT21 arXiv 2012.12803 Fig. 1 '2RR, exact'); derived here, proof in proofs_checks/derived/exact_binary_rr.py",
        "derived",
        "high",
    ),
    symbols=(eps0, n, delta, m, eps),
    hypotheses=(sp.Lt(delta, 1), sp.Le(m, n - 1)),
    # evaluate=False here and below: the same unevaluated relation (SymPy cannot decide it), without the
    # 0.1-1 s its assumption system spends trying, which every process loading the registry paid.
    conclusion=(sp.Le(pair_divergence(m), delta, evaluate=False),),
    direction=Direction.EXACT,
    reference="shuffle_spec.reference.exact.binary_rr:shuffled_binary_rr",
    # The reference certifies an interval of relative width <= 1e-6 and returns its upper end.
    rtol=2e-6,
    inputs=(eps0, n, delta),
    output=eps,
    value=None,
    mechanism="binary_rr",
    tags=frozenset({"amplification"}),
    examples=(
        {"eps0": 1.0, "n": 10_000, "delta": 1e-6},
        {"eps0": 4.0, "n": 10_000, "delta": 1e-6},
        {"eps0": 2.0, "n": 100_000, "delta": 1e-6},
        {"eps0": 2.0, "n": 8, "delta": 0.01},
        {"eps0": 6.0, "n": 100_000, "delta": 1e-6},
    ),
    invalid_examples=(
        {"eps0": 1.0, "n": 100, "delta": 1.0},
        {"eps0": -2.0, "n": 100, "delta": 1e-6},
        {"eps0": 1.0, "n": 0, "delta": 1e-6},
    ),
    notes=(
        "eps(delta) = min{eps >= 0 : pair_divergence(m) <= delta for every m in 0..n-1} (the conclusion, for "
        "each m = number of ones among the other n-1 users; direction exact). The bit flip maps P_m, Q_m to "
        "Q_{n-1-m}, P_{n-1-m}, so D(Q_m||P_m) = D(P_{n-1-m}||Q_{n-1-m}): the worst case is the max over m of the "
        "one-direction divergence D(P_m||Q_m). The worst m is often far from 0 (eps0=6, n=1e5: m=89 mirrored; "
        "eps0=8, n=1e6: m~300). The reference CERTIFIES the max over every m: removal of users is "
        "post-processing (`removal_bound`: for m in [K, K+B] the pair divergence is at most that of the population "
        "of n-B users with K ones), so one evaluation bounds a block; branch and bound over blocks at the upper "
        "end. Where every pair is almost equally private (large n: the count's variance (n-1)pq does not depend on m) a "
        "transport bound certifies a whole block against its two end pairs instead: the ends shifted by the mean transport "
        "j(p-q), mixed, plus an error bounded by tilted Fourier inversion (the transport checks of proofs_checks/derived/exact_binary_rr.py). It returns the interval's upper end as the value; the interval [lower, upper] (relative width <= "
        "1e-6, stated in the note with the worst m found) contains the exact worst-case eps. Soundness tests must "
        "use the LOWER end (a bound below it is unsound), tightness ratios the upper end. Supported: 0 < eps0 <= "
        "100, 1 <= n <= 1e12, 1e-300 <= delta < 1, within the time and memory limits stated in the reference "
        "(MAX_WINDOW; an evaluation budget that widens the interval, stated in the note, up to MAX_TOLERANCE = 1%); outside, it refuses with the reason. Checks: eps0=6, n=1e5, "
        "delta=1e-6: 0.26784003; eps0=8, n=1e6: 0.2250117; eps0=1, n=1e4, delta=1e-300: 0.43636; at delta=1e-6, n=1e4, "
        "eps0=1: 0.0357; n=1e4, eps0=4: 0.315; n=1e5, eps0=2: 0.0247."
    ),
)

# k ones among the other n-1 users of the explicit pair (0 allowed, unlike the shared domain-size symbol k).
k_ones = sp.Symbol("k", integer=True, nonnegative=True)

SHUFFLED_BINARY_RR_PAIR = Statement(
    id="exact.shuffled_binary_rr.pair",
    kind=Kind.PROCEDURE,
    title="Lower bound: the central eps of one neighbouring pair of shuffled binary RR (k ones among the others), exact for that pair",
    source=Source(
        "BBGN19",
        "hockey-stick divergence (Theorem 5.2) of the shuffled count of one neighbouring pair; derived here, proof in "
        "proofs_checks/derived/exact_binary_rr.py",
        "derived",
        "high",
    ),
    symbols=(eps0, n, delta, k_ones, eps),
    hypotheses=(sp.Lt(delta, 1), sp.Le(k_ones, n - 1)),
    conclusion=(sp.Le(pair_divergence(k_ones), delta, evaluate=False),),
    direction=Direction.LOWER_BOUND,
    reference="shuffle_spec.reference.exact.binary_rr:shuffled_binary_rr_pair",
    # The reference returns the lower end of an interval certified to 1e-7 relative.
    rtol=2e-7,
    inputs=(eps0, n, delta, k_ones),
    output=eps,
    value=None,
    mechanism="binary_rr",
    examples=(
        {"eps0": 1.0, "n": 10_000, "delta": 1e-6, "k": 0},
        {"eps0": 6.0, "n": 100_000, "delta": 1e-6, "k": 89},
        {"eps0": 2.0, "n": 8, "delta": 0.01, "k": 3},
    ),
    invalid_examples=(
        {"eps0": 1.0, "n": 100, "delta": 1e-6, "k": 100},
        {"eps0": 1.0, "n": 100, "delta": 1.0, "k": 0},
    ),
    notes=(
        "The smallest eps with max(D(P_k||Q_k), D(Q_k||P_k)) <= delta for the ONE neighbouring pair with k ones "
        "among the other n-1 users (its mirror n-1-k is the other direction), certified to 1e-7 relative. This is "
        "exact for that pair and a LOWER bound on the worst case `exact.shuffled_binary_rr` (the worst k "
        "is often far from 0, so a scan of the pairs with small k is not the worst case). k is required here; the Python reference defaults to "
        "k = 0. Not tagged as an amplification bound: it bounds the truth from below."
    ),
)

STATEMENTS: tuple[Statement, ...] = (SHUFFLED_BINARY_RR, SHUFFLED_BINARY_RR_PAIR)
