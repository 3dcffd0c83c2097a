"""One admissible raise of a structured randomizer's blanket pair, evaluated on its own (statement
BBGN19.Lem5.3.exact_raised; the argument and the ranges are those of `shuffle_spec.reference.randomizers.raised`, which
tries the two raises with the smallest increase of the mean at every eps and takes the smaller bound).

Here one raise is fixed for the whole search (any admissible raise gives an upper bound), so that the search can be
aimed at the saddlepoint estimate of that raise's root: subset selection's upper bound uses it
(`shuffle_spec.reference.randomizers.subset_selection`, "Which evaluation"). A module of its own so that the mechanism
modules can use it without importing `raised` (which builds every registry mechanism by name).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable

import mpmath

import numpy as np

from ..bounds.blanket_exact_randomizer import Groups, blanket_sum, count_expectation, count_expectations, fft_count_expectation_upper
from ..core.errors import ParameterError
from ..core.results import NO_AMPLIFICATION, BoundValue
from ..numerics.lattice_sums import U1
from ..numerics.solver import solve_certified_epsilon
from .blanket_pairs import DPS
from .structured import EPS_REL_TOL, BlanketPair, check_blanket_search, rescaled_aim

__all__ = ["STATEMENT", "BATCH_N_MAX", "raised_groups", "moved_groups", "one_positive", "raised_candidate_epsilon"]

STATEMENT = "BBGN19.Lem5.3.exact_raised"
# Up to this n the lattice sums of every blanket size run as one batch (`count_expectations`) instead of one call per
# size: at n = 1e3 the blanket sum has about 200 sizes and one batch costs what 10-20 single calls do (subset
# selection at d = 1e6, eps0 = 8: 0.84 -> 0.07 s of CPU per bound). Above it (n = 1e8: a few dozen blocks whose sizes
# lie far apart) one batch's shared row layout is wider than the single calls' and costs more.
BATCH_N_MAX = 10**6


def raised_groups(groups: Groups) -> list[tuple[int, int, Groups]]:
    """BBGN19.Lem5.3.exact_raised: every admissible raise (i, j) of `groups` (module doc: beta_j <= beta_i and
    alpha_j - beta_j >= alpha_i - beta_i, so c_j >= c_i for every e^eps >= 1) that leaves at most 3 groups, as
    (i, j, the merged Groups). Range: Groups with exact Fraction entries."""
    def raises(i: int, j: int) -> bool:
        return groups.beta[j] <= groups.beta[i] and groups.alpha[j] - groups.beta[j] >= groups.alpha[i] - groups.beta[i]

    return moved_groups(groups, raises)


def moved_groups(groups: Groups, admissible: Callable[[int, int], bool]) -> list[tuple[int, int, Groups]]:
    """Every (i, j), i != j, with admissible(i, j) whose move of group i's mass onto group j's coefficients
    (alpha_j, beta_j) leaves at most 3 groups, as (i, j, the merged Groups): the raise (`raised_groups`) and its
    mirror, the lowering (`lowered.lowered_groups`), differ only in `admissible`. Range: Groups with exact Fraction
    entries."""
    if not isinstance(groups, Groups):
        raise ParameterError("groups", repr(groups)[:60], "a Groups (alpha, beta, p) of exact Fractions")
    out = []
    size = len(groups)
    for i in range(size):
        for j in range(size):
            if i == j or not admissible(i, j):
                continue
            merged: dict[tuple[Fraction, Fraction], Fraction] = {}
            for g in range(size):
                key = (groups.alpha[j], groups.beta[j]) if g == i else (groups.alpha[g], groups.beta[g])
                merged[key] = merged.get(key, Fraction(0)) + groups.p[g]
            if len(merged) > 3:
                continue
            keys = sorted(merged)
            out.append((i, j, Groups(tuple(k[0] for k in keys), tuple(k[1] for k in keys), tuple(merged[k] for k in keys))))
    return out


def one_positive(groups: Groups, e_hi: float) -> bool:
    """At most one coefficient can be positive at any e^eps >= e_lo: checked with e_hi >= e^eps rounded up by a
    relative 1e-12 in the direction that makes a coefficient larger (beta >= 0, so a smaller e is the larger
    coefficient: the caller passes e_lo, which is just below 1 at eps = 0, where the solver starts). Range: groups a
    Groups, e_hi a finite float > 0."""
    if not isinstance(groups, Groups):
        raise ParameterError("groups", repr(groups)[:60], "a Groups (alpha, beta, p) of exact Fractions")
    if not (isinstance(e_hi, (int, float)) and not isinstance(e_hi, bool) and math.isfinite(e_hi) and e_hi > 0):
        raise ParameterError("e_hi", e_hi, "a finite float > 0 (a bound on e^eps)")
    positive = [a - Fraction(e_hi) * b for a, b in zip(groups.alpha, groups.beta, strict=True)]
    return sum(1 for c in positive if c > 0) <= 1


def _candidate_delta_upper(pair: BlanketPair, groups: Groups, *, n: int, eps: float, delta_hint: float, tail: float) -> float:
    """Lemma 5.3's sum with one fixed raise `groups` of the pair's groups (the lattice path when at most one
    coefficient can be positive, every blanket size in one batch up to BATCH_N_MAX; else the FFT bound of the
    original groups, as `_pair_delta_upper`)."""
    with mpmath.workdps(DPS):
        e = float(mpmath.exp(mpmath.mpf(eps)))
    if not one_positive(groups, e * (1 - 1e-12)):
        def d_n_fft(big_n: int) -> tuple[float, float]:
            return 0.0, min(1.0, fft_count_expectation_upper(big_n, pair.groups, eps, tail=tail) / big_n * (1 + 2 * U1))

        return blanket_sum(n, pair.gamma, d_n_fft, delta_hint).upper

    def d_n(big_n: int) -> tuple[float, float]:
        _, hi = count_expectation(big_n, groups, eps, tail=tail)
        return 0.0, min(1.0, hi / big_n * (1 + 2 * U1))

    def d_ns(big_ns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        # The same certified upper ends as d_n's, one batched lattice call for all sizes (the rows' float padding
        # differs in the last digits: both are upper bounds of the same D'_N).
        _, hi = count_expectations(big_ns.tolist(), groups, eps, tail=tail)
        return np.zeros(len(big_ns)), np.minimum(1.0, hi / big_ns * (1 + 2 * U1))

    return blanket_sum(n, pair.gamma, d_n, delta_hint, batch=d_ns if n <= BATCH_N_MAX else None).upper


def raised_candidate_epsilon(pair: BlanketPair, groups: Groups, *, n: int, delta: float, eps0: float, guess: float | None = None) -> BoundValue:
    """BBGN19.Lem5.3.exact_raised with one fixed raise: `groups` must be one of `raised_groups(pair.groups)` (every
    admissible raise gives an upper bound, module doc). The smallest eps whose certified raised delta is <= delta,
    an upper bound on the central eps of n shuffled reports (the pair's relation); eps0 with the no-amplification
    note when nothing below it is certified. `guess` (uncertified) only aims the search (re-aimed by `structured.rescaled_aim` when its first evaluation is not certified). Range: n in [1, 1e8],
    delta in [1e-300, 1), eps0 > 0 at least the pair's log(alpha/beta)."""
    check_blanket_search([pair], n=n, delta=delta, eps0=eps0)
    if not any(groups == candidate for _, _, candidate in raised_groups(pair.groups)):
        raise ParameterError("groups", repr(groups)[:60], "one of raised_groups(pair.groups) (an admissible raise of the pair)")
    n = int(n)
    tail = max(min(1e-30, delta * 1e-12), 1e-300)

    def bounds(eps: float) -> tuple[float, float]:
        with mpmath.workdps(DPS):
            e = mpmath.exp(mpmath.mpf(eps))
        if pair.gamma == 1 or e >= mpmath.mpf(pair.ratio.numerator) / pair.ratio.denominator:
            return 0.0, 0.0  # every coefficient <= 0: the pair's delta is 0
        return 0.0, min(_candidate_delta_upper(pair, groups, n=n, eps=float(eps), delta_hint=delta, tail=tail), 1.0)

    reaim = rescaled_aim(pair.gamma, groups, n=n, delta=delta, eps0=eps0) if guess is not None and pair.gamma < 1 else None
    _, upper, found = solve_certified_epsilon(bounds, eps0=float(eps0), delta=delta, rel_tol=EPS_REL_TOL, tight="upper", guess=guess, reaim=reaim)
    if not found:
        return BoundValue(0.0, float(eps0), NO_AMPLIFICATION, direction="upper_bound")
    return BoundValue(0.0, upper, direction="upper_bound")
