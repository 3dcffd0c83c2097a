"""Certified lower bounds on the central epsilon of a shuffled finite randomizer: the exact epsilon of
explicit neighbouring pairs at large n (exact.randomizer_pair).

The pair: user 1 holds x vs x', the other n - 1 users all hold z (each (x, x', z) is tried, z = x and
z = x' included). The shuffled output is the histogram h of the n reports. With W = Mult(n; mu_z) the law
of n draws from mu_z (every mu_z(y) > 0: a finite eps0 makes every kept column positive),

    P_x(h) = W(h) sum_y mu_x(y) h_y / (n mu_z(y))     (the multinomial shift, proofs_checks/derived/blanket_exact_krr.py),

so D_{e^eps}(P_x || P_x') = (1/n) E_W[(sum_y a_y h_y)_+], a_y = (mu_x(y) - e^eps mu_x'(y)) / mu_z(y): the
same count expectation as one term of the blanket bound (`reference.bounds.blanket_exact_randomizer`,
`count_expectation`), with mu_z for omega and N = n. It is certified exactly (lattice sums) when the
coefficients take at most 3 distinct values: every randomizer with m <= 3 outputs (m = 2: a binary
asymmetric mechanism, a 1-D sum) and those whose outputs group so.

More outputs: merge them into 3 bins first. Merging is a post-processing of the randomizer, so the merged
randomizer's pair epsilon is <= the original pair's, <= the central epsilon: still a lower bound. The bins
tried are contiguous in the order of the likelihood ratio mu_x(y)/mu_x'(y) (where the optimal binary test
cuts), at most MAX_SPLITS split pairs per (x, x'); the 2-bin cuts are tried too (for m = 3 as well): with one
positive coefficient their lattice sum has no cancellation, which the 3-output sum with two positive
coefficients suffers at large n.

Search: the candidates (x, x', z, bins) are ranked by the chi-square distance of the merged pair w.r.t.
mu_z (only decides the order); the first is solved; each later one is solved only when its certified
delta's lower end at the current best eps exceeds delta (so that its eps is certainly larger). The result
is a certified interval of the best pair's epsilon; its LOWER end is the certified lower bound.

Screening the candidates (Chernoff). Most candidates are far from the best one, and their check costs one
lattice sum at n. Before it, `pair_delta_chernoff_upper` bounds the candidate's exact delta from above: with
S = L_1 + ... + L_n (L_i i.i.d., L = a_y with probability mu_z(y)) and any lam > 0, s_+ <= e^(lam s - 1) / lam
for every real s (t <= e^(t - 1)), so E[S_+] <= M(lam)^n / (e lam), M(lam) = sum_y mu_z(y) e^(lam a_y)
(tests/reference/lower_bounds/test_chernoff_screen.py checks it against full enumeration). When that is <= delta the candidate's certified lower
end (<= its exact delta) is <= delta too, so the check would skip it: skipping it on the screen gives the same
result, without the lattice sum. Candidates the Chernoff bound does not rule out (their delta within a factor 3-4
of the target) meet a second screen: the certified upper end of the same lattice sum on a coarser grid (a third to
a fifth of the work, 5-10% looser); at most delta there means at most delta exactly, again the same skip. Each candidate that is solved has its certified search aimed at the
saddlepoint estimate of its root (`pair_guess`, uncertified: `reference.bounds.blanket_exact_randomizer`, "Aiming
the search"): 2-4 lattice sums instead of 8-15; the certified ends are read off the evaluated points as before. The screen is evaluated at 40 digits and rounded up; lam is chosen in floats
(any lam > 0 gives a bound, the choice only decides how often the screen skips).

Supported range: as `reference.bounds.blanket_exact_randomizer` (k <= 16, m <= 64, eps0 <= 50),
n in [1, 10^8], delta in [1e-300, 1).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from ..bounds.blanket_exact_randomizer import (
    EPS_REL_TOL,
    FiniteRandomizer,
    Groups,
    check_count_and_delta,
    count_expectation,
    saddle_expectations,
    finite_randomizer,
    group_outputs,
)
from ..core.errors import ParameterError, require_integer, require_positive, require_probability
from ..numerics.lattice_sums import U1
from ..numerics.solver import solve_certified_epsilon, uncertified_root
from ..core.results import BoundValue

__all__ = ["PairChoice", "randomizer_pair_delta", "randomizer_pair_epsilon", "best_randomizer_pair", "ranked_candidates", "candidate_bins", "pair_delta_chernoff_upper", "screened_out", "pair_guess", "MAX_SPLITS"]

PER_SD = 48
SCREEN_PER_SD = 8  # the second screen's grid: 3-5 times cheaper than PER_SD, its upper end 5-10% looser
MAX_SPLITS = 10
MAX_CANDIDATES = 2000
NOTE = "the certified lower bound on the truth is the interval's lower end"


@dataclass(frozen=True)
class PairChoice:
    """The pair whose epsilon is reported: inputs x, x' (row indices), the others' input z, the output bins."""

    x: int
    x2: int
    z: int
    bins: tuple[tuple[int, ...], ...]

    def describe(self) -> str:
        merged = "" if all(len(b) == 1 for b in self.bins) else " outputs merged into " + " | ".join(",".join(map(str, b)) for b in self.bins)
        return f"user 1 at input {self.x} vs {self.x2}, the other n-1 users at input {self.z}{merged}"

    def to_json(self) -> dict[str, Any]:
        return {"x": self.x, "x2": self.x2, "z": self.z, "bins": [list(b) for b in self.bins]}


def _merged(row: Sequence[Fraction], bins: Sequence[Sequence[int]]) -> list[Fraction]:
    return [sum((row[y] for y in b), Fraction(0)) for b in bins]


@dataclass(frozen=True)
class _ChoiceTerms:
    """The exact merged rows of one candidate (x, x', z, bins) and what every evaluation derives from them alone
    (the groups of its coefficients, their floats for the Chernoff screen's choice of lam): the same values the
    search formerly recomputed at each eps it tried."""

    px: tuple[Fraction, ...]
    px2: tuple[Fraction, ...]
    pz: tuple[Fraction, ...]
    groups: Groups
    floats: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]


# The candidate terms, kept per (rows object, choice): a search evaluates each candidate at several eps (screens, the
# certified solve), and exact Fraction sums and group merging cost more than a screen's float work. The key holds
# the id of the rows, the value the rows themselves, so an id is never reused while its entry exists; the cache is
# emptied when it reaches TERMS_CACHE_MAX entries (the values are deterministic: a recomputed entry is equal).
TERMS_CACHE_MAX = 4096
_TERMS: dict[tuple[int, PairChoice], tuple[tuple[tuple[Fraction, ...], ...], _ChoiceTerms]] = {}


def _choice_terms(rows: tuple[tuple[Fraction, ...], ...], choice: PairChoice) -> _ChoiceTerms:
    """The `_ChoiceTerms` of `choice` on `rows` (exact; cached, module doc of the cache above)."""
    key = (id(rows), choice)
    hit = _TERMS.get(key)
    if hit is not None and hit[0] is rows:
        return hit[1]
    px, px2, pz = (tuple(_merged(rows[i], choice.bins)) for i in (choice.x, choice.x2, choice.z))
    terms = _ChoiceTerms(px, px2, pz, group_outputs(px, px2, pz), (tuple(map(float, px)), tuple(map(float, px2)), tuple(map(float, pz))))
    if len(_TERMS) >= TERMS_CACHE_MAX:
        _TERMS.clear()
    _TERMS[key] = (rows, terms)
    return terms


def _check_bins(bins: object, m: int) -> tuple[tuple[int, ...], ...]:
    if not isinstance(bins, Sequence) or isinstance(bins, (str, bytes)) or not bins:
        raise ParameterError("bins", bins, f"a partition of the outputs 0..{m - 1} into lists")
    out = []
    for b in bins:
        if not isinstance(b, Sequence) or isinstance(b, (str, bytes)) or not b or not all(isinstance(y, int) and not isinstance(y, bool) for y in b):
            raise ParameterError("bins", bins, f"a partition of the outputs 0..{m - 1} into non-empty lists of indices")
        out.append(tuple(int(y) for y in b))
    if sorted(y for b in out for y in b) != list(range(m)):
        raise ParameterError("bins", bins, f"a partition of the outputs 0..{m - 1} (each exactly once)")
    return tuple(out)


def _pair_delta(randomizer: FiniteRandomizer, choice: PairChoice, n: int, eps: float, tail: float) -> BoundValue:
    if eps >= randomizer.eps0 or choice.x == choice.x2:
        return BoundValue(0.0, 0.0, direction="exact")
    groups = _choice_terms(randomizer.rows, choice).groups
    lo, hi = count_expectation(n, groups, eps, tail=tail, per_sd=PER_SD)
    return BoundValue(min(lo / n / (1 + 2 * U1), min(1.0, hi / n * (1 + 2 * U1))), min(1.0, hi / n * (1 + 2 * U1)), direction="exact")


CHERNOFF_DPS = 40
CHERNOFF_LAMBDAS = np.geomspace(1e-4, 1e4, 161)  # lam in units of 1 / (sd(L) sqrt(n)): the grid only decides tightness


def _chernoff(rows: tuple[tuple[Fraction, ...], ...], choice: PairChoice, n: int, eps: float) -> float:
    terms = _choice_terms(rows, choice)
    px, px2, pz = terms.px, terms.px2, terms.pz
    fx, fx2, fz = terms.floats
    e_float = math.exp(eps)
    a = np.array([(u - e_float * v) / w for u, v, w in zip(fx, fx2, fz, strict=True)])
    weights = np.array(fz)
    if float(np.max(a)) <= 0:
        return 0.0  # every coefficient <= 0 (up to rounding: the exact check follows at 40 digits)
    spread = math.sqrt(max(float(np.sum(weights * (a - np.sum(weights * a)) ** 2)), 1e-300)) * math.sqrt(n)
    lams = CHERNOFF_LAMBDAS / spread
    with np.errstate(over="ignore"):
        log_m = np.log(np.sum(weights[None, :] * np.exp(np.minimum(lams[:, None] * a[None, :], 700.0)), axis=1))
    lam = float(lams[int(np.argmin(n * log_m - np.log(lams)))])
    with mpmath.workdps(CHERNOFF_DPS):
        e = mpmath.exp(mpmath.mpf(eps))
        coefficients = [(mpmath.mpf(u.numerator) / u.denominator - e * mpmath.mpf(v.numerator) / v.denominator) / (mpmath.mpf(w.numerator) / w.denominator) for u, v, w in zip(px, px2, pz, strict=True)]
        if max(coefficients) <= 0:
            return 0.0  # S <= 0 surely: E[S_+] = 0
        big_m = mpmath.fsum(mpmath.mpf(w.numerator) / w.denominator * mpmath.exp(mpmath.mpf(lam) * c) for w, c in zip(pz, coefficients, strict=True))
        log_bound = n * mpmath.log(big_m) - mpmath.log(mpmath.mpf(lam)) - 1 - mpmath.log(n)
        if log_bound > 700:
            return math.inf
        # 40 digits: the exact bound is within a relative 1e-30 of this (n <= 1e8 amplifies log M's error to
        # 1e-31 absolute); the factor rounds it up.
        return float(mpmath.exp(log_bound)) * (1 + 1e-12)


def pair_delta_chernoff_upper(*, matrix: object, n: int, eps: float, x: int, x2: int, z: int, bins: object = None) -> float:
    """exact.randomizer_pair's screen (module doc): an upper bound on the exact D_{e^eps}(P_x || P_x') of n shuffled
    reports of `matrix` (outputs merged into `bins`), user 1 at x vs x', the other n - 1 at z: the Chernoff bound
    min over a grid of lam of M(lam)^n / (e lam n), rounded up. Range: as randomizer_pair_delta."""
    randomizer = finite_randomizer(matrix)
    check_count_and_delta(n, 0.5)
    require_positive("eps", eps, allow_zero=True)
    for name, value in (("x", x), ("x2", x2), ("z", z)):
        require_integer(name, value, minimum=0)
        if value >= randomizer.k:
            raise ParameterError(name, value, f"an input index in [0, {randomizer.k - 1}]")
    chosen = tuple((y,) for y in range(randomizer.m)) if bins is None else _check_bins(bins, randomizer.m)
    if eps >= randomizer.eps0 or x == x2:
        return 0.0
    return _chernoff(randomizer.rows, PairChoice(int(x), int(x2), int(z), chosen), int(n), float(eps))


def _check_candidate(randomizer: object, choice: object, n: int, delta: float) -> None:
    if not isinstance(randomizer, FiniteRandomizer):
        raise ParameterError("randomizer", repr(randomizer)[:40], "a FiniteRandomizer from finite_randomizer()")
    if not isinstance(choice, PairChoice) or max(choice.x, choice.x2, choice.z) >= randomizer.k or min(choice.x, choice.x2, choice.z) < 0:
        raise ParameterError("choice", repr(choice)[:60], f"a PairChoice of input indices in [0, {randomizer.k - 1}]")
    check_count_and_delta(n, delta)


def screened_out(randomizer: FiniteRandomizer, choice: PairChoice, n: int, eps: float, delta: float) -> bool:
    """Whether the screens (module doc) show that the candidate's exact delta at eps is <= delta (then its
    certified lower end is too, and the search skips it as the lattice-sum check would): the Chernoff bound, then
    the certified upper end of the lattice sum on a coarser grid (SCREEN_PER_SD rows per sd instead of PER_SD).
    Range: as pair_guess, eps >= 0."""
    _check_candidate(randomizer, choice, n, delta)
    require_positive("eps", eps, allow_zero=True)
    if eps <= 0 or eps >= randomizer.eps0 or choice.x == choice.x2:
        return False
    if _chernoff(randomizer.rows, choice, n, eps) <= delta:
        return True
    groups = _choice_terms(randomizer.rows, choice).groups
    tail = max(min(1e-30, delta * 1e-12), 1e-300)
    try:
        _, hi = count_expectation(n, groups, eps, tail=tail, per_sd=SCREEN_PER_SD)
    except ParameterError:
        return False  # more than 3 distinct coefficients: no lattice sum (the caller's check decides)
    return min(1.0, hi / n * (1 + 2 * U1)) <= delta


def pair_guess(randomizer: FiniteRandomizer, choice: PairChoice, n: int, delta: float) -> float | None:
    """Uncertified (module doc): the eps in (0, eps0) where the saddlepoint estimate of the candidate's delta crosses
    delta, or None. Only decides where the certified search evaluates. Range: randomizer a FiniteRandomizer, choice a
    PairChoice of its inputs, n in [1, 1e8], delta in [1e-300, 1)."""
    _check_candidate(randomizer, choice, n, delta)
    if randomizer.eps0 <= 0 or choice.x == choice.x2:
        return None
    groups = _choice_terms(randomizer.rows, choice).groups
    sizes = np.array([float(n)])
    log_target = math.log(delta)

    def f(eps: float) -> float:
        value = float(saddle_expectations(sizes, groups, eps)[0]) / n
        return (math.log(value) if value > 0 else -800.0) - log_target

    low, high = randomizer.eps0 * 1e-9, randomizer.eps0 * (1 - 1e-9)
    try:
        if not f(low) > 0 >= f(high):
            return None
        return uncertified_root(f, low, high, 1e-6)
    except (ValueError, OverflowError, FloatingPointError):
        return None


def randomizer_pair_delta(*, matrix: object, n: int, eps: float, x: int, x2: int, z: int, bins: object = None, delta_hint: float = 1e-6) -> BoundValue:
    """exact.randomizer_pair: a certified interval of D_{e^eps}(P_x || P_x') for n shuffled reports of `matrix`
    (after merging the outputs into `bins`, a partition of the kept output indices; default: none merged),
    user 1 at x vs x', the other n - 1 at z (module doc). The merged coefficients must take at most 3
    distinct values. Range: see the module doc; eps >= 0."""
    randomizer = finite_randomizer(matrix)
    check_count_and_delta(n, 0.5)
    require_positive("eps", eps, allow_zero=True)
    require_probability("delta_hint", delta_hint)
    for name, value in (("x", x), ("x2", x2), ("z", z)):
        require_integer(name, value, minimum=0)
        if value >= randomizer.k:
            raise ParameterError(name, value, f"an input index in [0, {randomizer.k - 1}]")
    chosen = tuple((y,) for y in range(randomizer.m)) if bins is None else _check_bins(bins, randomizer.m)
    tail = max(min(1e-30, delta_hint * 1e-12), 1e-300)
    return _pair_delta(randomizer, PairChoice(int(x), int(x2), int(z), chosen), int(n), float(eps), tail)


def candidate_bins(randomizer: FiniteRandomizer, x: int, x2: int) -> list[tuple[tuple[int, ...], ...]]:
    """exact.randomizer_pair: the output partitions tried for (x, x'): none merged when m <= 3, else 3 bins
    contiguous in the order of mu_x(y)/mu_x'(y) (at most MAX_SPLITS split pairs, spread over the order); and
    the 2-bin contiguous cuts (m >= 3)."""
    if not isinstance(randomizer, FiniteRandomizer):
        raise ParameterError("randomizer", repr(randomizer)[:40], "a FiniteRandomizer from finite_randomizer()")
    for name, value in (("x", x), ("x2", x2)):
        require_integer(name, value, minimum=0)
        if value >= randomizer.k:
            raise ParameterError(name, value, f"an input index in [0, {randomizer.k - 1}]")
    m = randomizer.m
    order = sorted(range(m), key=lambda y: randomizer.rows[x][y] / randomizer.rows[x2][y], reverse=True)
    # Two bins (contiguous, every cut): one positive coefficient, so no cancellation in the lattice sum
    # (three outputs with two positive coefficients lose digits through (S)_+ = S + (-S)_+).
    Partition = tuple[tuple[int, ...], ...]
    two: list[Partition] = []
    for i in range(1, min(m, MAX_SPLITS + 1)):
        two.append((tuple(order[:i]), tuple(order[i:])))
    if m <= 3:
        identity: list[Partition] = [tuple((y,) for y in range(m))]
        return identity + (two if m == 3 else [])
    splits = list(itertools.combinations(range(1, m), 2))
    if len(splits) > MAX_SPLITS:
        positions = sorted({max(1, min(m - 1, round(m * q))) for q in (0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9)} | {1, m - 1})
        splits = [(i, j) for i, j in itertools.combinations(positions, 2)][: MAX_SPLITS * 2]
    three: list[Partition] = [(tuple(order[:i]), tuple(order[i:j]), tuple(order[j:])) for i, j in splits]
    return three + two


def _chi_square(randomizer: FiniteRandomizer, choice: PairChoice) -> float:
    terms = _choice_terms(randomizer.rows, choice)
    px, px2, pz = terms.px, terms.px2, terms.pz
    return sum(float((a - b) ** 2 / c) for a, b, c in zip(px, px2, pz, strict=True))


def ranked_candidates(randomizer: FiniteRandomizer) -> list[PairChoice]:
    """exact.randomizer_pair's candidates in the order they are tried: every (x, x', z) with every partition of
    `candidate_bins`, one per distinct (coefficients, law) (the same epsilon), by decreasing chi-square distance of
    the merged pair w.r.t. mu_z (ties in the order found), at most MAX_CANDIDATES. Range: a FiniteRandomizer (from
    finite_randomizer)."""
    if not isinstance(randomizer, FiniteRandomizer):
        raise ParameterError("randomizer", repr(randomizer)[:60], "a FiniteRandomizer from finite_randomizer()")
    rows = randomizer.rows
    ranked: list[tuple[float, int, PairChoice]] = []
    seen = set()
    for x in range(randomizer.k):
        for x2 in range(randomizer.k):
            if x == x2:
                continue
            for bins in candidate_bins(randomizer, x, x2):
                for z in range(randomizer.k):
                    choice = PairChoice(x, x2, z, bins)
                    key = _choice_terms(rows, choice).groups
                    if key in seen:
                        continue  # the same coefficients and law: the same epsilon
                    seen.add(key)
                    ranked.append((-_chi_square(randomizer, choice), len(ranked), choice))
    ranked.sort()
    return [choice for _, _, choice in ranked[:MAX_CANDIDATES]]


def best_randomizer_pair(*, matrix: object, n: int, delta: float) -> tuple[BoundValue, PairChoice | None]:
    """exact.randomizer_pair: the best pair found (module doc) and the certified interval of its epsilon
    (lower end: the certified lower bound on the central eps of n shuffled reports of `matrix` at delta).
    Range: see the module doc."""
    randomizer = finite_randomizer(matrix)
    check_count_and_delta(n, delta)
    n = int(n)
    if randomizer.eps0 == 0 or randomizer.gamma == 1:
        return BoundValue(0.0, 0.0, "the output does not depend on the input: 0-DP", direction="lower_bound"), None
    tail = max(min(1e-30, delta * 1e-12), 1e-300)
    best: tuple[float, float, PairChoice] | None = None
    for choice in ranked_candidates(randomizer):
        def bounds(eps: float, choice: PairChoice = choice) -> tuple[float, float]:
            value = _pair_delta(randomizer, choice, n, eps, tail)
            return value.lower, value.upper

        if best is not None and (screened_out(randomizer, choice, n, best[0], delta) or bounds(best[0])[0] <= delta):
            continue
        try:
            lower, upper, found = solve_certified_epsilon(bounds, eps0=randomizer.eps0, delta=delta, rel_tol=EPS_REL_TOL, guess=pair_guess(randomizer, choice, n, delta))
        except ParameterError:
            continue  # more than 3 distinct coefficients after merging (cannot happen with 3 bins)
        if best is None or lower > best[0]:
            best = (lower, max(upper, lower), choice)
    if best is None:
        return BoundValue(0.0, 0.0, NOTE, direction="lower_bound"), None
    return BoundValue(best[0], best[1], f"{NOTE}; pair: {best[2].describe()}", direction="lower_bound"), best[2]


def randomizer_pair_epsilon(*, matrix: object, n: int, delta: float) -> BoundValue:
    """exact.randomizer_pair: the certified interval of the epsilon of the best explicit neighbouring pair
    found (module doc); its lower end is a lower bound on the central eps of n shuffled reports of `matrix`
    at delta. Range: 2 <= k <= 16, 2 <= m <= 64, eps0 <= 50, 1 <= n <= 1e8, 1e-300 <= delta < 1."""
    value, _ = best_randomizer_pair(matrix=matrix, n=n, delta=delta)
    return value
