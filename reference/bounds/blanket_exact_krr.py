"""The exact blanket bound for k-ary randomized response, certified (BBGN19.Lem5.3.exact_krr).

BBGN19 Lemma 5.3 bounds the hockey-stick divergence of every neighbouring pair of shuffled datasets by

    delta(eps) = (1/(gamma n)) E[(L_1 + ... + L_M)_+],   M ~ Bin(n, gamma),

L_i i.i.d. copies of the privacy amplification variable L = (mu_x(W) - e^eps mu_x'(W)) / omega(W), W ~ omega.
The Hoeffding and Bennett bounds (BBGN19.hoeffding_krr, .bennett_krr) relax the expectation; here it is
evaluated exactly (to a certified interval). For k-RR (e0 = e^eps0, e = e^eps, D = e0 + k - 1, gamma = k/D,
omega uniform on [k]), L takes the values k(e0 - e)/D (W = x), k(1 - e e0)/D (W = x') and k(1 - e)/D (else).
Writing N = M and (a, b, R) for the numbers of blanket draws equal to x, x' and neither,
(a, b, R) | N ~ Mult(N; 1/k, 1/k, (k-2)/k), and using C(n, N) gamma^N (1-gamma)^(n-N) / (gamma n) =
Pr[Bin(n-1, gamma) = N-1] / N,

    delta(eps) = sum_{N >= 1} Pr[Bin(n-1, gamma) = N - 1] D_N,
    D_N = (gamma / N) E[((e0 - e) a - (e e0 - 1) b - (e - 1) R)_+].

D_N is also exactly BBGN19's D_{e^eps}(Y_{N-1} || Y'_{N-1}) (Lemma A.3 holds with equality when mu_x << omega,
checked on exact instances in tests/reference/bounds/test_blanket_exact_krr.py), the divergence of "one user's report plus N-1
blanket draws". Adding an independent blanket draw is a post-processing, so D_N is non-increasing in N: the
N-sum is blocked on a grid (upper end: each block at its smallest N; lower end: at its largest), the mass
outside a Chernoff window counted as 1 (upper) or dropped (lower). Each D_N is the certified lattice sum of
`shuffle_spec.reference.numerics.lattice_sums` (b ~ Bin(N, 1/k), a | b ~ Bin(N - b, 1/(k-1))).

Negligible blocks: a block of the N grid whose mass is below NEGLIGIBLE_BLOCK delta_hint in the sums that are
sharpened (at n = 1e8, k = 10 the last grid point carries about 4e-36 of the upper sum's mass, which puts each block
at its smallest N, yet costs as many lattice rows as the first) is first left out of the lattice sums, with D_N in
[0, 1] there. When the float sums (upper: block masses times upper ends of D_N; lower, where sharpened: the same
with lower ends) come out the same with 0 and with 1 in the left-out blocks, they are the sums with every block
summed: every certified end of D_N lies in [0, 1], a product with a non-negative float is monotone in it, and so
is a float sum of non-negative terms (each rounding is monotone), so the full sums lie between the two equal ones.
Otherwise the left-out blocks are summed as well (`positive_part_expectations`, `needed`). So the upper end is the
same float as with every block summed (skip_negligible=False), and so is the lower end with sharp_lower=True, as far
as the kept rows' floats do not depend on the rows left out: they do not, except where a chunk of rows shared with a
left-out row takes its branch for underflowed ratio products from that row (not observed on any grid tested: 180
`tightest` answers and 1387 intervals identical); either way every end is certified, only that float identity would
fail. With sharp_lower=False the lower end of a
left-out block (whose lower mass is not negligible: the lower sum puts each block at its largest N) is the bound the
engine gives without rows, E[g | b]_+ per b: certified, never above the one from summed rows (every term it takes a
maximum of is no larger), in practice the same float (428 of 432 evaluations at k in {3, 10, 100}, n in {1e6, 1e8};
the other four 2e-11 relative lower, 1e15 times below the target delta, where only the upper end is read).

Small n ("split sum"): the same delta equals (1/n) E[(c0 a + c1 b + c2 R)_+] with (a, b, R, rest) ~
Mult(n; 1/D, 1/D, (k-2)/D, (e0-1)/D) (the blanket counts over all n users; gamma/k = 1/D). Writing s = a + b ~
Bin(n, 2/D), a | s ~ Bin(s, 1/2), R | s ~ Bin(n - s, (k-2)/(D-2)) independent of a, this is
E[((c0 - c1) a + c1 s - (e - 1) R)_+]: `shuffle_spec.reference.numerics.lattice_sums.split_positive_part` sums it without any
blocking. Both evaluations are certified; the cheaper one (by the array work each needs) is used, and the
tests force each against exact Lemma 5.3 convolutions and against the other.

The root search (`shuffle_spec.reference.numerics.solver.solve_certified_epsilon`) starts at the eps where the normal
approximation of the same expectation equals delta (Bennett's eps when it finds none).

Supported range: eps0 in (0, 50], k in [2, 10^6], n in [1, 10^8], delta in (0, 1); larger n are refused
(the work grows like sqrt(n) per grid point and the time like n^(1/2) overall).

Tiny eps0 (below MIN_EPS0 = 1e-12) is answered without the lattice, from two facts about the same lemma: at
eps = 0 every L is at most k (e0 - 1)/D, and E[M] = gamma n, so delta(0) <= k (e0 - 1)/D = gamma (e0 - 1)
(`krr_blanket_delta_cap`); and at eps = eps0 every L is <= 0, so delta(eps0) = 0. The answer is eps = 0 when
that bound is within the target, else eps0 (with the usual note): both certified, the second loose.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import mpmath
import numpy as np

from .bennett import bennett_krr_epsilon
from .blanket_parameters import krr_blanket_delta_cap
from ..core.errors import ParameterError, require_flag, require_integer, require_positive, require_probability
from ..core.limits import DELTA_MIN, RANGES
from ..numerics.lattice_sums import (
    U1,
    BinomialLaw,
    Coefficients,
    Window,
    binomial_law,
    binomial_window,
    positive_part_expectations,
    split_cost,
    split_positive_part,
    blocking_offsets,
    search_start,
)
from ..numerics.solver import solve_certified_epsilon
from ..core.results import NO_AMPLIFICATION, BoundValue

__all__ = ["PATHS", "exact_blanket_krr_delta", "exact_blanket_krr_epsilon", "check_krr_inputs", "check_eps0_n_delta", "bracket", "MAX_N", "MAX_EPS0", "MAX_K", "MIN_EPS0"]

STATEMENT = "BBGN19.Lem5.3.exact_krr"
# The supported range, from its one source (`shuffle_spec.reference.core.limits.RANGES`): n <= 1e8, eps0 <= 50.
MAX_N = RANGES[STATEMENT].n_max
MAX_EPS0 = RANGES[STATEMENT].eps0_max
MAX_K = 10**6
# Relative tolerance of the eps bracket; the returned upper end is verified whatever it is.
EPS_REL_TOL = 3e-4
# Blocking of the N-sum: D_N varies like exp(-c N) with c N ~ log(1/delta); grid steps of
PER_SD = 4
# The unblocked split sum (module doc, "small n") is used while it touches at most this many array elements.
SPLIT_COST_MAX = 4e7
# A block of the N grid whose mass is below this times delta_hint is first left out of the sums (module doc,
# "negligible blocks"): 2^-64 keeps it below half an ulp of sums near delta_hint, where the search evaluates.
NEGLIGIBLE_BLOCK = 2.0**-64
# Below this eps0 the lattice sums are not evaluated (module doc, "Tiny eps0"): their coefficients
# (e^eps0 - e^eps ~ eps0, at 40 digits) and the float blanket probability (1 - gamma ~ eps0 / k) no longer
# resolve the privacy loss (at eps0 = 1e-16, k = 2 the law of N was refused; at 1e-300 the coefficients
# rounded to 0).
MIN_EPS0 = 1e-12
# tight = "both" (what `audit bound` asks for): an interval still wider than this relative to its upper end after the
# search is refused (ParameterError) instead of returned: an audit accepts claims down to its lower end, and the
# statement grants rtol = 0.5% (spec BBGN19.Lem5.3.exact_krr); the search's own tolerance is EPS_REL_TOL.
BOTH_MAX_WIDTH = 5e-3
TINY_EPS0 = f"eps0 < {MIN_EPS0:g}: the lattice sums do not resolve a privacy loss this small"


def check_eps0_n_delta(eps0: float, n: int, delta: float, *, max_eps0: float, max_n: int, n_beyond: str = "", delta_why: str = "") -> None:
    """The (eps0, n, delta) checks shared by the certified exact bounds (k-RR here, the Laplace mechanism in
    `reference.bounds.blanket_exact_laplace`): eps0 a finite real in (0, max_eps0], n an integer in [1, max_n],
    delta in [DELTA_MIN, 1) (`shuffle_spec.reference.core.limits`); ParameterError naming the parameter, its value and the range,
    followed by `n_beyond` (what to use for larger n) or `delta_why` in parentheses when given."""
    require_positive("eps0", eps0)
    if eps0 > max_eps0:
        raise ParameterError("eps0", eps0, f"0 < eps0 <= {max_eps0:g}")
    require_integer("n", n, minimum=1)
    if n > max_n:
        raise ParameterError("n", n, f"1 <= n <= {max_n:.0e}" + (f" ({n_beyond})" if n_beyond else ""))
    require_probability("delta", delta)
    if delta < DELTA_MIN:
        raise ParameterError("delta", delta, f"{DELTA_MIN:g} <= delta < 1" + (f" ({delta_why})" if delta_why else ""))


def check_krr_inputs(eps0: float, n: int, delta: float, k: int, *, min_k: int = 2) -> None:
    """Validate the public parameters of the k-RR bounds of this family (ParameterError on each)."""
    check_eps0_n_delta(eps0, n, delta, max_eps0=MAX_EPS0, max_n=MAX_N, n_beyond="exact lattice sums; use the closed-form bounds beyond",
                       delta_why="shuffle_spec.reference.core.limits: tails below it are not negligible")
    require_integer("k", k, minimum=min_k)
    if k > MAX_K:
        raise ParameterError("k", k, f"{min_k} <= k <= {MAX_K}")


def bracket(x: mpmath.mpf) -> tuple[float, float]:
    """A float interval containing the mpmath number x (computed at 40 digits: its error is far below 4u)."""
    if not isinstance(x, (mpmath.mpf, int, float)) or isinstance(x, bool) or not mpmath.isfinite(x):
        raise ParameterError("x", x, "a finite real number (mpmath)")
    if x == 0:
        return 0.0, 0.0
    f = float(x)
    pad = abs(f) * 4 * U1 + 1e-300
    return f - pad, f + pad


def _krr_coefficients(eps0: float, eps: float) -> Coefficients:
    with mpmath.workdps(40):
        e0, e = mpmath.exp(mpmath.mpf(eps0)), mpmath.exp(mpmath.mpf(eps))
        return Coefficients(bracket(e0 - e), bracket(-(e * e0 - 1)), bracket(-(e - 1)))


def _blanket_laws(eps0: float, k: int) -> tuple[BinomialLaw, BinomialLaw, BinomialLaw, tuple[float, float]]:
    """(N-1 ~ Bin(n-1, gamma), b ~ Bin(N, 1/k), a | b ~ Bin(N-b, 1/(k-1))) and gamma as a bracket."""
    with mpmath.workdps(40):
        gamma = mpmath.mpf(k) / (mpmath.exp(mpmath.mpf(eps0)) + k - 1)
        return binomial_law(gamma), binomial_law(mpmath.mpf(1) / k), binomial_law(mpmath.mpf(1) / (k - 1)), bracket(gamma)



def _split_is_cheaper(cost_split: float, cost_n: float, k: int = 3) -> bool:
    """Whether the split sum is used: whenever its arrays stay within SPLIT_COST_MAX (measured on a grid of
    k, eps0 and n <= 1e5: with its r summed in segments it was the faster of the two in every cell within that
    size, up to 50x the N grid's estimate; and it has no blocking slack), else when it is the cheaper by
    the estimates; both are exact evaluations of the same sum."""
    if k == 2:  # a | b is degenerate there: the N grid has no rows to sum and is the cheaper unless n is small
        return cost_split <= min(4 * cost_n, SPLIT_COST_MAX)
    return cost_split <= SPLIT_COST_MAX or cost_split <= min(cost_n, 4 * SPLIT_COST_MAX)


def _split_setup(eps0: float, k: int) -> tuple[BinomialLaw, BinomialLaw, BinomialLaw | None]:
    """Laws of s = a + b ~ Bin(n, 2/D), a | s ~ Bin(s, 1/2), R | s ~ Bin(n - s, (k-2)/(D-2)) (None for k = 2)."""
    with mpmath.workdps(40):
        d = mpmath.exp(mpmath.mpf(eps0)) + k - 1
        law_r = binomial_law((k - 2) / (d - 2)) if k > 2 else None
        return binomial_law(2 / d), binomial_law(mpmath.mpf(1) / 2), law_r


def _blanket_delta_split(eps0: float, n: int, eps: float, laws: tuple[BinomialLaw, BinomialLaw, BinomialLaw | None], tail: float) -> BoundValue:
    """delta(eps) = (1/n) E[(c0 a + c1 b + c2 R)_+] over (a, b, R, rest) ~ Mult(n; 1/D, 1/D, (k-2)/D, (e0-1)/D)
    (module doc, "small n"), summed without blocking as E[((c0 - c1) a + c1 s - (e - 1) R)_+]."""
    with mpmath.workdps(40):
        e0, e = mpmath.exp(mpmath.mpf(eps0)), mpmath.exp(mpmath.mpf(eps))
        lam, kappa, tau = bracket(e0 - e + e * e0 - 1), bracket(-(e * e0 - 1)), bracket(e - 1)
    law_s, law_a, law_r = laws
    # The s tails are charged lam n <= (e0 + e0^2) n: the tail shrinks by that (eps-independent, so cached).
    tail = max(tail / max(math.exp(eps0) * (1 + math.exp(eps0)), 1.0), 1e-300)
    lo, hi = split_positive_part(n, law_s, law_a, law_r, lam, kappa, (max(tau[0], 0.0), max(tau[1], 0.0)), tail=tail)
    upper = min(1.0, hi / n * (1 + 2 * U1))
    return BoundValue(max(0.0, min(lo / n / (1 + 2 * U1), upper)), upper, direction="upper_bound")



@dataclass(frozen=True)
class _NGrid:
    """The eps-independent part of the N-grid evaluation (module doc): the laws, the N window and its blocking."""

    law_b: BinomialLaw
    law_a: BinomialLaw
    gamma: tuple[float, float]
    tail: float
    window: Window
    offsets: np.ndarray
    big_n: np.ndarray
    step: int
    block_hi: np.ndarray
    block_lo: np.ndarray
    split: tuple[BinomialLaw, BinomialLaw, BinomialLaw | None]
    cost_n: float


@lru_cache(maxsize=16)
def _n_grid(eps0: float, n: int, k: int, delta_hint: float) -> _NGrid:
    law_n, law_b, law_a, gamma = _blanket_laws(eps0, k)
    # Each tail mass left out costs at most about tail * max(1, k) in delta (D_N <= 1; gamma c0 <= k; the split
    # sum scales its own): 1e-12 of the target delta relative, so the windows need not reach 1e-30.
    tail = max(min(1e-18, delta_hint * 1e-12), 1e-300)
    # The N window keeps the 1e-30 tail: it places the blocking grid (its slack moves with the grid's origin).
    window = binomial_window(n - 1, law_n, max(min(1e-30, delta_hint * 1e-12), 1e-300))  # the law of N - 1
    offsets = blocking_offsets(window.lo, window.hi, (n - 1) * law_n.p, math.sqrt((n - 1) * law_n.p * (1 - law_n.p)), delta_hint)
    # Two exact evaluations of the same sum; the cheaper one (by the array elements each touches) is used.
    split = _split_setup(eps0, k)
    mean_n = float(window.lo + np.mean(offsets) + 1)
    sd_small = math.sqrt(max(mean_n / k, 1.0))
    cost_n = len(offsets) * (10 * PER_SD + 20) * (6 * sd_small + 16) * 6
    step = int(np.max(np.diff(offsets))) if len(offsets) > 1 else 1
    big_n = (window.lo + offsets + 1).astype(np.int64)
    block_hi = np.add.reduceat(window.upper, offsets) * (1 + (step + 2) * U1)
    block_hi[-1] += window.above  # N above the window: D_N <= D at the last grid point
    block_hi.setflags(write=False)
    starts = np.concatenate(([0], offsets[:-1] + 1))
    block_lo = np.add.reduceat(window.lower, starts) / (1 + (step + 2) * U1)
    block_lo.setflags(write=False)
    return _NGrid(law_b, law_a, gamma, tail, window, offsets, big_n, step, block_hi, block_lo, split, cost_n)


def _split_cost_at(grid: _NGrid, n: int, eps: float, coefficients: Coefficients) -> float:
    """The split sum's array elements at eps (`_split_is_cheaper`)."""
    p_r = grid.split[2].p if grid.split[2] is not None else 0.0
    # The largest R (about n (1 - 2/D) p_r + 12 sd) moves the zero of the a-row by (e - 1) R / (c0 - c1).
    r_top = n * (1 - grid.split[0].p) * p_r + 12 * math.sqrt(max(n * p_r, 1.0))
    shift_a = math.expm1(eps) * r_top / max(coefficients.c0[0] - coefficients.c1[1], 1e-300)
    return float(split_cost(n, grid.split[0].p, 0.5, p_r, min(shift_a, 1e15)))


PATHS = ("auto", "estimate")


def exact_blanket_krr_delta(*, eps0: float, n: int, k: int, eps: float, delta_hint: float = 1e-6, sharp_lower: bool = True, path: str = "auto",
                            skip_negligible: bool = True) -> BoundValue:
    """BBGN19.Lem5.3.exact_krr: a certified interval of Lemma 5.3's delta(eps) for k-RR, evaluated exactly
    (module doc); an upper bound on D_{e^eps} of every neighbouring pair of n shuffled k-RR reports.
    `delta_hint` (the target delta) only sets the blocking grid. sharp_lower=False: callers that use only the
    upper end (the composition's envelope) skip the lattice sums' lower queries; the upper end is the same
    float, the lower end is still certified but looser. `path` chooses between the two exact evaluations of the
    same sum (module doc: the split sum and the N grid, each a certified interval of the same delta): "auto" (the
    statement's own rule, `_split_is_cheaper`; its numbers are those of every release) or "estimate" (the one with
    the smaller array-work estimate alone: for a caller that needs one certified interval and not the statement's
    floats, e.g. the one-evaluation test of `interface/tightest.py` at k = 2, where "auto" takes the split sum at
    eps0 = 4, n = 1e6 for about ten times the N grid's time). skip_negligible (default): the N grid's blocks whose mass
    cannot change the sums are not summed (module doc, "negligible blocks": the same floats as skip_negligible=False,
    which sums every block). Range: see the module doc; 0 <= eps; path in PATHS; skip_negligible True or False."""
    check_krr_inputs(eps0, n, 0.5, k)
    require_positive("eps", eps, allow_zero=True)
    require_probability("delta_hint", delta_hint)
    if path not in PATHS:
        raise ParameterError("path", path, "'auto' or 'estimate'")
    require_flag("sharp_lower", sharp_lower)
    require_flag("skip_negligible", skip_negligible)
    n, k = int(n), int(k)
    if eps >= eps0:
        return BoundValue(0.0, 0.0, direction="upper_bound")  # L <= 0 everywhere: the positive part vanishes
    if eps0 < MIN_EPS0:
        return BoundValue(0.0, krr_blanket_delta_cap(eps0, k), TINY_EPS0, direction="upper_bound")
    coefficients = _krr_coefficients(eps0, eps)
    grid = _n_grid(eps0, n, k, delta_hint)
    cost_split = _split_cost_at(grid, n, eps, coefficients)
    if (cost_split <= grid.cost_n) if path == "estimate" else _split_is_cheaper(cost_split, grid.cost_n, k):
        return _blanket_delta_split(eps0, n, eps, grid.split, grid.tail)
    law_b, law_a, gamma, window, offsets, big_n = grid.law_b, grid.law_a, grid.gamma, grid.window, grid.offsets, grid.big_n
    block_hi, block_lo = grid.block_hi, grid.block_lo
    ms = big_n.tolist()

    def d_ends(needed: list[bool] | None) -> tuple[np.ndarray, np.ndarray]:
        g_lo, g_hi = positive_part_expectations(ms, law_b, law_a, coefficients, tail=grid.tail, per_sd=PER_SD, lower=sharp_lower, needed=needed)
        return gamma[0] * g_lo / big_n / (1 + 4 * U1), np.minimum(1.0, gamma[1] * g_hi / big_n * (1 + 4 * U1))

    def sums(d_lo: np.ndarray, d_hi: np.ndarray) -> tuple[float, float]:
        return float(np.sum(block_lo * d_lo)), float(np.sum(block_hi * d_hi))

    negligible = block_hi < NEGLIGIBLE_BLOCK * delta_hint
    if sharp_lower:
        negligible &= block_lo < NEGLIGIBLE_BLOCK * delta_hint
    skip = skip_negligible and bool(np.any(negligible))
    d_lo, d_hi = d_ends((~negligible).tolist() if skip else None)
    if skip:
        # The negligible blocks (module doc, "negligible blocks") were not summed: D_N in [0, 1] there. When that
        # interval cannot change the float sums, they are the sums with every block summed.
        d_hi[negligible] = 0.0
        if sharp_lower:
            d_lo[negligible] = 0.0
        at_zero = sums(d_lo, d_hi)
        d_hi[negligible] = 1.0
        if sharp_lower:
            d_lo[negligible] = 1.0
        if sums(d_lo, d_hi) == at_zero:
            if sharp_lower:
                d_lo[negligible] = 0.0
        else:
            # It can: the left-out blocks are summed as well (the same floats as in one batch with the others).
            rest_lo, rest_hi = d_ends(negligible.tolist())
            d_lo[negligible], d_hi[negligible] = rest_lo[negligible], rest_hi[negligible]
    lower_sum, upper_sum = sums(d_lo, d_hi)
    upper = upper_sum * (1 + (len(offsets) + 4) * U1) + window.below  # N below: D_N <= 1
    lower = lower_sum / (1 + (len(offsets) + 4) * U1)
    return BoundValue(max(0.0, min(lower, upper)), min(upper, 1.0), direction="upper_bound")



def exact_blanket_krr_epsilon(*, eps0: float, n: int, delta: float, k: int, tight: str = "upper") -> BoundValue:
    """BBGN19.Lem5.3.exact_krr: the smallest eps with Lemma 5.3's exact delta(eps) <= delta for n shuffled
    eps0-k-RR reports, as a certified interval (value = its upper end, verified); eps0 with a note when
    none below eps0 is. `tight` = "upper" narrows the upper end alone (the bound; the lower end is certified but
    may be a few percent below the root), "both" narrows both ends to the search tolerance (what an audit needs
    to call a claim below the theorem's value). Range: eps0 in (0, 50], 2 <= k <= 1e6, 1 <= n <= 1e8,
    0 < delta < 1, tight in {"upper", "both"}; tight = "both" needs eps0 >= MIN_EPS0 = 1e-12 where amplification is
    in question (below it only [0, eps0] is certified: refused) and is refused where the narrowed interval stays wider
    than BOTH_MAX_WIDTH = 0.5% of its upper end (tiny answers, e.g. eps0 = 1e-11, n = 1e8, delta = 1e-16)."""
    check_krr_inputs(eps0, n, delta, k)
    if tight not in ("upper", "both"):
        raise ParameterError("tight", tight, "'upper' or 'both'")
    if eps0 < MIN_EPS0:
        if krr_blanket_delta_cap(eps0, int(k)) <= delta:
            return BoundValue(0.0, 0.0, f"delta(0) <= gamma (e^eps0 - 1) <= delta: eps = 0 ({TINY_EPS0})", direction="upper_bound")
        if tight == "both":
            # [0, eps0] is certified but not narrowed (the lattice sums are not used below MIN_EPS0): an interval
            # narrowed at both ends cannot be given here, so it is refused rather than returned wide (an audit would
            # otherwise accept claims far below the theorem's value).
            raise ParameterError("eps0", eps0, f"eps0 >= {MIN_EPS0:g} for tight='both' (below it only [0, eps0] is certified)")
        return BoundValue(0.0, float(eps0), f"{NO_AMPLIFICATION} ({TINY_EPS0})", direction="upper_bound")

    # tight = "upper": the search aims at the upper end alone (solver: the lower deltas only end it early, when a
    # point certified below the root lies within rel_tol), so the lattice sums skip their lower queries (half the
    # time of an evaluation at n = 1e8); the upper deltas are the same floats, the interval's lower end is still
    # certified (it can only move down, often to 0). tight = "both" keeps the sharp lower deltas it narrows.
    sharp_lower = tight == "both"

    def bounds(eps: float) -> tuple[float, float]:
        value = exact_blanket_krr_delta(eps0=eps0, n=n, k=k, eps=eps, delta_hint=delta, sharp_lower=sharp_lower)
        return value.lower, value.upper

    # BBGN19's Bennett relaxation of the same expectation is an upper bound on it: its eps is a good first
    # upper end of the bracket (verified by evaluating the exact bound there, like every point).
    # The normal approximation of the same expectation gives the first point (Bennett's eps, an upper bound on
    # the answer, when it finds none): it only decides where delta is evaluated.
    e0 = math.exp(eps0)
    d = e0 + k - 1
    def terms(x: float) -> list[tuple[float, float]]:
        return [(e0 - math.exp(x), 1 / d), (1 - math.exp(x) * e0, 1 / d), (1 - math.exp(x), (k - 2) / d)]

    hint, slope = search_start(terms, eps0=eps0, n=n, delta=delta, fallback=lambda: bennett_krr_epsilon(eps0=eps0, n=n, delta=delta, k=k).value)
    # Only the upper end is the bound (its value): the search narrows that end alone (usually two evaluations
    # besides eps0 instead of three). The lower end of the interval is the largest evaluated point whose certified
    # lower delta exceeds the target (or 0): still a certified end, only less tight than a search for it would give.
    lower, upper, found = solve_certified_epsilon(bounds, eps0=eps0, delta=delta, rel_tol=EPS_REL_TOL, hint=hint, tight=tight, slope=slope)
    if tight == "both" and found and upper - lower > BOTH_MAX_WIDTH * upper:
        # The certified delta brackets themselves are too wide here to narrow the eps interval (eps0 = 1e-11, n = 1e8,
        # k = 10, delta = 1e-16: 0.61% wide, eps ~ 1.9e-16): refused rather than returned wide, as below MIN_EPS0.
        raise ParameterError("tight", tight, f"'upper' at these inputs (the interval narrowed at both ends stays {(upper - lower) / upper:.2%} wide, more than {BOTH_MAX_WIDTH:.1%})")
    return BoundValue(lower, upper, "" if found else NO_AMPLIFICATION, direction="upper_bound")


# ---------------------------------------------------------------- high-precision path (bit-reproducible test vectors)


def exact_blanket_krr_epsilon_mp(*, dps: int, eps0: float, n: int, delta: float, k: int) -> tuple[object, object]:
    """BBGN19.Lem5.3.exact_krr at `dps` digits: a certified enclosure (Fractions) of the smallest eps with
    Lemma 5.3's exact delta(eps) <= delta (shuffle_spec.reference.numerics.high_precision_exact: every (N, a, b) of the lattice
    enumerated, integer brackets, the N tails outside a certified window bounded). Declines (ValueError,
    outside the high-precision range) above MAX_LATTICE_POINTS points (about n <= 60 at eps0 = 2, k = 3)."""
    from ..numerics.high_precision_exact import blanket_krr_eps_bracket

    check_krr_inputs(eps0, n, delta, k)
    return blanket_krr_eps_bracket(eps0=float(eps0), n=int(n), k=int(k), delta=float(delta), dps=dps)
