"""A certified LOWER end for BBGN19 Lemma 5.3's sum where the lattice sums cannot take the groups (subset selection's
four dependent groups, evaluated above by the randomized-rounding FFT, whose lower end is 0): one group LOWERED to
another group's coefficient, the mirror of the raise of `shuffle_spec.reference.randomizers.raised`.

Why. `audit bound` asks a reference for an interval narrowed at both ends (`tight="both"`): the lower end of the
acceptance interval of BBGN19.Lem5.3.exact_subset must lie close to the statement's value, else an implementation
returning less than the theorem passes. The FFT bounds D_N from above only.

The argument (a smaller sum). With D_N = (1/N) E[(L_1 + ... + L_N)_+], L = c_g = alpha_g - e^eps beta_g with
probability p_g (module doc of `structured`), replace group i's coefficient by group j's where c_j <= c_i for every
e^eps >= 1, i.e. beta_j >= beta_i and alpha_j - beta_j <= alpha_i - beta_i (c_i - c_j is linear in e^eps: at least 0
at e^eps = 1 and non-decreasing, its slope beta_j - beta_i >= 0). Coupling each L_k with its lowered copy
L''_k <= L_k, and s -> s_+ being non-decreasing, E[(sum L''_k)_+] <= E[(sum L_k)_+]: D''_N <= D_N for every N, so
Lemma 5.3's sum with D''_N is at most the sum with D_N at every eps. D''_N is non-increasing in N (any i.i.d. sequence:
the leave-one-out convexity argument of `raised`), as the blocked lower end of `blanket_sum` needs. With three groups
and at most one positive coefficient the exact lattice sums give certified lower ends of D''_N (the path that uses
no identity of the mean, which lowering changes); other lowerings certify nothing (lower end 0).

So the lowered delta l(eps) = max over the admissible lowerings of their sums is <= the four-group delta at every
eps, both non-increasing; the certified search on l returns an eps whose certified lower end of l exceeds delta,
hence below the root of l, hence below the root of the four-group sum: a certified lower end of the statement's
value. For subset selection the cheap lowering is the (1, 1) membership group (probability k (k - 1) / (d (d - 1)),
small at large eps0 and d) lowered to the (0, 1) group's coefficient.

The mechanism is the one the upper bound evaluates (e^eps0 rounded up to a rational e'): the lower end is for the
statement at e', within a few ulps of e^eps0 (the value moves by far less than the audit's 1e-12 rounding slack).
Neighbouring relation: the pair's (replace-one for the registry's mechanisms). Ranges: n in [1, 1e8], delta in
[1e-300, 1), eps0 > 0 at least the pair's log(alpha/beta).
"""

from __future__ import annotations


import mpmath
import numpy as np

from ..bounds.blanket_exact_randomizer import Groups, blanket_sum, count_expectations, saddle_blanket_root
from ..numerics.lattice_sums import U1
from ..numerics.solver import solve_certified_epsilon
from .blanket_pairs import DPS, blanket_delta_inputs
from .raised_candidate import moved_groups, one_positive
from .structured import EPS_REL_TOL, BlanketPair, check_blanket_search

__all__ = ["lowered_groups", "lowered_delta_lower", "lowered_epsilon_lower"]


def lowered_groups(groups: Groups) -> list[tuple[int, int, Groups]]:
    """Every admissible lowering (i, j) of `groups` (module doc: beta_j >= beta_i and alpha_j - beta_j <=
    alpha_i - beta_i, so c_j <= c_i for every e^eps >= 1) that leaves at most 3 groups, as (i, j, the merged
    Groups). Range: Groups with exact Fraction entries."""
    def lowers(i: int, j: int) -> bool:
        return groups.beta[j] >= groups.beta[i] and groups.alpha[j] - groups.beta[j] <= groups.alpha[i] - groups.beta[i]

    return moved_groups(groups, lowers)


def lowered_delta_lower(pair: BlanketPair, *, n: int, eps: float, delta_hint: float) -> tuple[float, float]:
    """(certified lower end, certified upper end) of the lowered delta l(eps) of the module doc: the maximum over
    the admissible lowerings on the lattice path of their Lemma 5.3 sums (every blanket size in one batched lattice
    call). The lower end is a certified lower bound on the pair's four-group Lemma 5.3 delta at eps; (0, 0) when no
    lowering is on the lattice path. Range: n in [1, 1e8], eps >= 0, delta_hint in (0, 1)."""
    n, tail, live = blanket_delta_inputs([pair], n=n, eps=eps, delta_hint=delta_hint)
    if not live:
        return 0.0, 0.0  # every coefficient <= 0 (gamma = 1 or e^eps >= max alpha / beta): the pair's delta is 0
    with mpmath.workdps(DPS):
        e = float(mpmath.exp(mpmath.mpf(eps)))
    lower = upper = 0.0
    for _, _, groups in lowered_groups(pair.groups):
        if not one_positive(groups, e * (1 - 1e-12)):
            continue

        def d_n(big_n: int, groups: Groups = groups) -> tuple[float, float]:
            lo, hi = count_expectations([big_n], groups, float(eps), tail=tail)
            return min(1.0, float(lo[0]) / big_n / (1 + 2 * U1)), min(1.0, float(hi[0]) / big_n * (1 + 2 * U1))  # min(lo, 1) <= lo: still a lower end

        def d_ns(big_ns: np.ndarray, groups: Groups = groups) -> tuple[np.ndarray, np.ndarray]:
            lo, hi = count_expectations(big_ns.tolist(), groups, float(eps), tail=tail)
            return np.minimum(1.0, lo / big_ns / (1 + 2 * U1)), np.minimum(1.0, hi / big_ns * (1 + 2 * U1))

        value = blanket_sum(n, pair.gamma, d_n, delta_hint, batch=d_ns)
        lower, upper = max(lower, value.lower), max(upper, value.upper)
    return lower, upper


def lowered_epsilon_lower(pair: BlanketPair, *, n: int, delta: float, eps0: float) -> float:
    """A certified lower end of the smallest eps at which the pair's four-group Lemma 5.3 delta is <= delta (module
    doc: the certified search on the lowered delta, its lower end narrowed to the search tolerance); 0 where nothing
    above 0 is certified. Range: n in [1, 1e8], delta in [1e-300, 1), eps0 > 0 at least the pair's
    log(alpha/beta)."""
    check_blanket_search([pair], n=n, delta=delta, eps0=eps0)

    def bounds(eps: float) -> tuple[float, float]:
        return lowered_delta_lower(pair, n=n, eps=eps, delta_hint=delta)

    # Aimed at the largest saddlepoint estimate of the lowerings' roots (uncertified: it only places the evaluations;
    # without it the search starts at eps = 0, where the zero coefficients leave the lattice no certified lower end).
    roots = [saddle_blanket_root(int(n), pair.gamma, [groups], delta=delta, eps0=float(eps0)) for _, _, groups in lowered_groups(pair.groups)] if pair.gamma < 1 else []
    guess = max((r for r in roots if r is not None), default=None)
    lower, _, _ = solve_certified_epsilon(bounds, eps0=float(eps0), delta=delta, rel_tol=EPS_REL_TOL, tight="lower", guess=guess)
    return lower
