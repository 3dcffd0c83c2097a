"""The structured randomizers' blanket bound with one group raised: BBGN19 Lemma 5.3 with the four groups of a
closed-form decomposition reduced to three by raising one group's coefficient to another's, then evaluated with
the exact lattice sums (statement BBGN19.Lem5.3.exact_raised).

Why. The decomposition of `shuffle_spec.reference.randomizers.structured` gives, for a pair (x, x'), four groups
(alpha_g, beta_g, p_g), and D_N = (1/N) E[(L_1 + ... + L_N)_+] with L_i i.i.d., L = c_g = alpha_g - e^eps beta_g
with probability p_g. Four distinct coefficients are beyond the lattice sums, so that module bounds D_N by the
randomized-rounding FFT upper bound. At large eps0 and large n that bound is far above the sum it bounds (OUE at
eps0 = 8, n = 1e6, eps = 0.25: delta <= 2.7e-6 from the FFT bound, 2.9e-8 from the route here), and the
certified epsilon follows it (0.43 where the lower bound is 0.208).

The argument (a larger sum, proved here). Replace group i's coefficient by group j's where c_j >= c_i for every
e^eps >= 1, i.e. beta_j <= beta_i and alpha_j - beta_j >= alpha_i - beta_i (c_j - c_i is linear in e^eps: at
least 0 at e^eps = 1 and non-decreasing). Coupling each L_i with its raised copy L'_i >= L_i, and s -> s_+ being
non-decreasing, E[(sum L_i)_+] <= E[(sum L'_i)_+] = D'_N N for every N: Lemma 5.3's sum with D'_N is an upper
bound on delta(eps). L' takes three values (groups i and j merged), so D'_N is the certified lattice sum of
`count_expectation` when exactly one coefficient is positive (that path uses no identity of the mean, which
raising changes); otherwise this module falls back to the FFT bound of the four original groups. The blocking
of the N-sum needs D'_N non-increasing in N, which holds for every i.i.d. sequence: S_{N+1} = (1/N) sum_i
S^{(-i)} (S^{(-i)}: the sum without term i, N terms), so by convexity (S_{N+1})_+ <= (1/N) sum_i (S^{(-i)})_+
and E[(S_{N+1})_+] / (N + 1) <= E[(S_N)_+] / N (proof check in `proofs_checks/derived/randomizers.py`).

Which group is raised: every admissible (i, j) is valid; the two with the smallest increase of the mean,
sum p_i (c_j - c_i) at the eps evaluated, are tried, and the smaller certified upper end is kept (the smaller of
two upper bounds is one). For the unary encodings that is the (1, 1) group (probability q^2).

The upper bound is for the mechanism at a rational e' >= e^eps0 (the mechanism modules' `side="upper"`), as the
registry's upper bounds; neighbouring relation: replace-one. This module does not replace the registry's upper
bound (`RANDOMIZERS[name].upper`); it is a second certified upper bound, and the smaller of the two is one.

tight="both" (for `audit bound`: its acceptance interval must be sharp at both ends). The statement's value is
then read as the root of rho(eps) = max over the pairs of min over EVERY admissible raise of its sum: non-increasing
(a minimum of non-increasing sums), at most the two tried raises' (so the upper end bounds it), its lower end the
smallest of the raises' certified lattice lower ends (0 where a raise is off the lattice path: nothing narrowed).
Where the FFT fallback gives the upper end (no tried raise on the lattice path) that end bounds the four-group sum,
below rho: the interval then only says that the value is at least its lower end.

Ranges: as the mechanisms (eps0 in [1e-12, 40], d in [2, 1e9], OLH eps0 <= 13.8), n in [1, 1e8], delta in
[1e-300, 1), tight in {"upper", "both"}.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import mpmath

import numpy as np

from ..bounds.blanket_exact_randomizer import Groups, blanket_sum, count_expectation, count_expectations, fft_count_expectation_upper
from ..core.errors import ParameterError
from ..core.results import NO_AMPLIFICATION, BoundValue
from ..numerics.lattice_sums import U1
from ..numerics.solver import solve_certified_epsilon
from .blanket_pairs import DPS, blanket_delta_inputs
from .common import check_randomizer_inputs, eps0_rounded_up
from .raised_candidate import one_positive, raised_candidate_epsilon, raised_groups
from .structured import EPS_REL_TOL, BlanketPair, check_blanket_search, check_tight

__all__ = ["STATEMENT", "raised_groups", "raised_blanket_delta", "raised_blanket_epsilon", "raised_epsilon_upper", "raised_candidate_epsilon", "MECHANISMS"]

STATEMENT = "BBGN19.Lem5.3.exact_raised"
TRIED = 2  # raised candidates evaluated per pair and eps
MECHANISMS = ("rappor", "oue", "blh", "olh", "hadamard", "subset")


def _increase(groups: Groups, i: int, j: int, e: float) -> float:
    return float(groups.p[i]) * ((float(groups.alpha[j]) - e * float(groups.beta[j])) - (float(groups.alpha[i]) - e * float(groups.beta[i])))


def _pair_delta_lower(pair: BlanketPair, *, n: int, eps: float, delta_hint: float, tail: float) -> float:
    """A certified lower end of min over EVERY admissible raise of its Lemma 5.3 sum (module doc, "tight"): the
    smallest of the raises' lattice lower ends (every blanket size in one batch), 0 when a raise is off the lattice
    path (two coefficients may be positive)."""
    with mpmath.workdps(DPS):
        e = float(mpmath.exp(mpmath.mpf(eps)))
    low = math.inf
    for _, _, groups in raised_groups(pair.groups):
        if not one_positive(groups, e * (1 - 1e-12)):
            return 0.0

        def d_n(big_n: int, groups: Groups = groups) -> tuple[float, float]:
            lo, hi = count_expectation(big_n, groups, eps, tail=tail)
            return min(1.0, lo / big_n / (1 + 2 * U1)), min(1.0, hi / big_n * (1 + 2 * U1))  # both capped: D_N <= 1 is not needed, min(lo, 1) <= lo

        def d_ns(big_ns: np.ndarray, groups: Groups = groups) -> tuple[np.ndarray, np.ndarray]:
            lo, hi = count_expectations(big_ns.tolist(), groups, eps, tail=tail)
            return np.minimum(1.0, lo / big_ns / (1 + 2 * U1)), np.minimum(1.0, hi / big_ns * (1 + 2 * U1))

        low = min(low, blanket_sum(n, pair.gamma, d_n, delta_hint, batch=d_ns).lower)
    return 0.0 if low == math.inf else low


def _pair_delta_upper(pair: BlanketPair, *, n: int, eps: float, delta_hint: float, tail: float) -> float:
    with mpmath.workdps(DPS):
        e = float(mpmath.exp(mpmath.mpf(eps)))
    e_lo = e * (1 - 1e-12)
    original = pair.groups
    candidates = sorted(raised_groups(original), key=lambda c: _increase(original, c[0], c[1], e))[:TRIED]
    best = math.inf
    for _, _, groups in candidates:
        if not one_positive(groups, e_lo):
            continue

        def d_n(big_n: int, groups: Groups = groups) -> tuple[float, float]:
            _, hi = count_expectation(big_n, groups, eps, tail=tail)
            return 0.0, min(1.0, hi / big_n * (1 + 2 * U1))

        best = min(best, blanket_sum(n, pair.gamma, d_n, delta_hint).upper)
    if best == math.inf:
        def d_n_fft(big_n: int) -> tuple[float, float]:
            return 0.0, min(1.0, fft_count_expectation_upper(big_n, original, eps, tail=tail) / big_n * (1 + 2 * U1))

        best = blanket_sum(n, pair.gamma, d_n_fft, delta_hint).upper
    return best


def raised_blanket_delta(pairs: Sequence[BlanketPair], *, n: int, eps: float, delta_hint: float = 1e-6, tight: str = "upper") -> BoundValue:
    """BBGN19.Lem5.3.exact_raised: a certified upper bound on max over `pairs` of Lemma 5.3's delta(eps) with one
    group raised (module doc): an upper bound on the central delta(eps) of n shuffled reports (the pairs'
    neighbouring relation). The interval's lower end is 0 with tight="upper" (only the upper end is certified);
    with tight="both" it is a certified lower end of max over the pairs of min over every admissible raise of its
    sum (module doc, "tight"). Range: n in [1, 1e8], eps >= 0, delta_hint in (0, 1), tight in {"upper", "both"}."""
    check_tight(tight)
    n, tail, live = blanket_delta_inputs(pairs, n=n, eps=eps, delta_hint=delta_hint)
    lower = upper = 0.0
    for pair in live:
        upper = max(upper, _pair_delta_upper(pair, n=n, eps=float(eps), delta_hint=delta_hint, tail=tail))
        if tight == "both":
            lower = max(lower, _pair_delta_lower(pair, n=n, eps=float(eps), delta_hint=delta_hint, tail=tail))
    return BoundValue(min(lower, upper), min(upper, 1.0), direction="upper_bound")


def raised_blanket_epsilon(pairs: Sequence[BlanketPair], *, n: int, delta: float, eps0: float, tight: str = "upper") -> BoundValue:
    """BBGN19.Lem5.3.exact_raised: the smallest eps whose certified raised delta (max over `pairs`) is <= delta,
    an upper bound on the central eps of n shuffled reports; `eps0` with the no-amplification note when nothing
    below it is certified. `tight` = "upper" (default: lower end 0) or "both" (the lower end narrowed too, module
    doc "tight"; for `audit bound`). Range: n in [1, 1e8], delta in [1e-300, 1), eps0 > 0 at least the pairs'
    largest log(alpha/beta), tight in {"upper", "both"}."""
    check_tight(tight)
    check_blanket_search(pairs, n=n, delta=delta, eps0=eps0)

    def bounds(eps: float) -> tuple[float, float]:
        value = raised_blanket_delta(pairs, n=n, eps=eps, delta_hint=delta, tight=tight)
        return value.lower, value.upper

    lower, upper, found = solve_certified_epsilon(bounds, eps0=float(eps0), delta=delta, rel_tol=EPS_REL_TOL, tight=tight)
    low = lower if tight == "both" else 0.0  # the default keeps its interval's lower end at 0, as before
    if not found:
        return BoundValue(min(low, float(eps0)), float(eps0), NO_AMPLIFICATION, direction="upper_bound")
    return BoundValue(min(low, upper), upper, direction="upper_bound")


def _pairs(name: str, eps0: float, d: int) -> tuple[list[BlanketPair], Fraction]:
    from . import hadamard, local_hashing, subset_selection, unary

    if name == "rappor":
        mechanism: object = unary.symmetric_rappor(eps0, d, side="upper")
    elif name == "oue":
        mechanism = unary.optimized_unary_encoding(eps0, d, side="upper")
    elif name == "blh":
        mechanism = local_hashing.local_hashing(eps0, d, 2)
    elif name == "olh":
        mechanism = local_hashing.local_hashing(eps0, d, local_hashing.olh_range(eps0))
    elif name == "hadamard":
        mechanism = hadamard.hadamard_response(eps0, d)
    else:
        mechanism = subset_selection.subset_selection(eps0, d, subset_selection.optimal_subset_size(eps0, d))
    return mechanism.replace_pairs(), mechanism.ratio  # type: ignore[attr-defined]


def raised_epsilon_upper(name: str, *, eps0: float, n: int, delta: float, d: int, tight: str = "upper") -> BoundValue:
    """BBGN19.Lem5.3.exact_raised for the registry's mechanism `name` (one of MECHANISMS) at replace-one level
    eps0 on d inputs, parameters as the registry states them (e^eps0 rounded up): a certified upper bound on the
    central eps of n shuffled reports, never above eps0. `tight` = "upper" (default) or "both" (module doc,
    "tight": the interval's lower end narrowed too, for `audit bound`). Range: eps0 in [1e-12, 40] (OLH: <= 13.8),
    n in [1, 1e8], delta in [1e-300, 1), d in [2, 1e9], tight in {"upper", "both"}."""
    if name not in MECHANISMS:
        raise ParameterError("name", name, "one of " + ", ".join(MECHANISMS))
    check_randomizer_inputs(eps0, n, delta)
    check_tight(tight)
    pairs, ratio = _pairs(name, eps0, d)
    solver_eps0 = eps0_rounded_up(ratio)
    value = raised_blanket_epsilon(pairs, n=n, delta=delta, eps0=solver_eps0, tight=tight)
    if value.upper >= eps0:
        return BoundValue(min(value.lower, float(eps0)), float(eps0), NO_AMPLIFICATION, direction="upper_bound")
    return value
