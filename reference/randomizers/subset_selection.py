"""k-subset selection, first-class and certified after shuffling.

The mechanism (Ye, Barg, "Optimal schemes for discrete distribution estimation under locally differential
privacy", IEEE Trans. Inf. Theory 64(8), 2018; Wang, Wu, Hu, "Using randomized response for differential privacy
preserving data collection", EDBT/ICDT workshops 2016): the report is a k-subset S of [d] with probability
e0 / Z if x in S and 1 / Z otherwise, Z = e0 C(d-1, k-1) + C(d-1, k), e0 = e^eps0; Ye and Barg's choice is
k = ceil(d / (e0 + 1)). The LDP ratio is e0 (replace-one), for 1 <= k <= d - 1.

Blanket decomposition (proof). omega uniform on the k-subsets: mu_x(S) = omega(S) C(d, k) e0^[x in S] / Z, and
C(d, k) / Z = d / (e0 k + d - k), so gamma = d / (e0 k + d - k) (the column-minimum mass whenever every subset misses some input, and a valid
blanket in every case). For a pair
(x, x') the ratios depend on ([x in S], [x' in S]) of a uniform k-subset: probabilities k(k-1) / (d(d-1)),
k(d-k) / (d(d-1)) twice, (d-k)(d-k-1) / (d(d-1)): four groups (three when k = 1 or k = d - 1), exact rationals
of size log d whatever C(d, k) is.

Lower bound: every report S is mapped to ([x in S], [x' in S], [z in S]) (a post-processing); the uniform
k-subset's membership pattern b of three fixed elements has probability
(k)_s (d-k)_(3-s) / (d)_3, s = |b| (falling factorials), and the owner w's pattern law is that times
gamma e0^b_w: the 3 x 8 pattern randomizer. d = 2: the full 2 x 2 matrix (k = 1: binary randomized response).

Which evaluation (upper bound). The four groups are dependent (two memberships of one k-subset), so the exact
product-form sum of the unary encodings does not apply; Lemma 5.3's sum is bounded either by the randomized-rounding
FFT (`reference.randomizers.structured`: tight at small eps0, 1-4% in eps above the sum at large eps0 and n, and
0.3-1 s per evaluated eps) or with one group raised to another's coefficient (statement BBGN19.Lem5.3.exact_raised,
`reference.randomizers.raised_candidate`: exact lattice sums of a larger L, hence a larger delta; the raised delta <= delta
implies this statement's). When k (k - 1) / (d (d - 1)), the probability of the pair's (1, 1) group, is small
(large eps0 and d) the raise costs almost nothing. The saddlepoint estimates of both roots decide (uncertified:
they only choose which certified evaluation runs): the raised one alone when its root is within RAISED_CLOSE of the
four-group one; else the FFT's, and the raised one as well when the FFT's certified end lies more than FFT_SLACK
above the raised estimate, the smaller certified end kept (the smaller of two upper bounds is one). Each search is
aimed at its estimate (2-3 evaluations). From n = RAISED_ONLY_N_MIN = 1e6 the raised one alone runs also when its
estimated root is within RAISED_NEAR = 1% of the four-group one: there the FFT's certified end lies 0.4-4% above the
four-group root (its grid step grows with n) and was above the raised certified end at every such point measured (the
grid of benchmarks/randomizers_cli.py and eps0 in {3, 4, 5, 6, 8}, n in {1e6, 1e7}, d in {100, 1e3, 1e6}: the
reported number is the same float as when both were computed), at 1-2 s of CPU per call. Either evaluation is a
certified upper bound (BBGN19.Lem5.3.exact_raised's delta bounds this statement's), so the choice decides tightness,
never validity.

Skipping the four-group search. Where, after its first evaluation, the four-group search's certified delta at
e* = (the raised estimate) (1 + FFT_SLACK) exceeds delta, the search would end above e* (its certified delta is
non-increasing in eps, the solver's assumption), so the raised evaluation would run after it and the smaller end be
kept: the search stops and the raised one runs alone. Its end is then the same float whenever it lies at or below e*
(the usual case: the aimed raised search stops within 1e-3 of its estimate), and never lower than the smaller of the
two otherwise (the safe side). The check costs one per-size evaluation where the rest of the search takes 2-6 (delta =
1e-9, d = 1e6, n = 1e3, eps0 = 4: 1.5 s -> 0.6 s of CPU), and runs only where the first evaluation, scaled by the
saddlepoint estimates and then by the batched FFT bounds (`groups_fft_delta`, a tenth of the cost) at e* and there,
predicts it (SKIP_ROUGH, SKIP_TRY).

Rounding: the upper bound at a rational e' >= e^eps0, the lower at e' <= e^eps0 (k held fixed): the mechanism at a
smaller e is a post-processing of the one at a larger e (with probability t replace S by a uniform k-subset: the
mixture has the form a + b [x in S] with a ratio falling continuously from e to 1).

Ranges: eps0 in [1e-12, 40], d an integer in [2, 1e9], k an integer in [1, d - 1], n in [1, 1e8], delta in
[1e-300, 1). Replace-one.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

from ..bounds.blanket_exact_randomizer import groups_fft_delta, saddle_blanket_delta, saddle_blanket_root
from ..core.errors import ParameterError, require_integer
from ..core.results import BoundValue
from ..lower_bounds.structured import pattern_pair_epsilon
from .common import cap_at_eps0, check_domain, check_randomizer_inputs, eps0_rounded_up
from .raised_candidate import raised_candidate_epsilon, raised_groups
from .lowered import lowered_epsilon_lower
from .structured import BlanketPair, aim_above, blanket_pair, check_tight, exp_bracket, structured_blanket_delta, structured_blanket_epsilon

__all__ = ["SubsetSelection", "subset_selection", "optimal_subset_size", "subset_epsilon_upper", "subset_epsilon_lower", "STATEMENTS"]

STATEMENTS = {"upper": "BBGN19.Lem5.3.exact_subset", "lower": "exact.subset_pattern_pair"}
MAX_FULL = 4096
# Which evaluation (module doc): the raised one alone when its estimated root is within RAISED_CLOSE of the
# four-group estimate; the raised one besides the FFT's when the FFT's certified end is above the raised estimate
# by more than FFT_SLACK.
RAISED_CLOSE = 1e-3
FFT_SLACK = 2e-3
# From this n, the raised evaluation alone also when its estimated root is within RAISED_NEAR of the four-group one
# (module doc: the FFT's certified end lies further above the four-group root as n grows).
RAISED_ONLY_N_MIN = 10**6
RAISED_NEAR = 1e-2
# The per-size check of "Skipping" (module doc) is tried where the search's first certified delta, scaled by the ratio
# of the batched FFT bounds at the mark and there, exceeds this times delta (the ratio of the per-size and batched
# values changed by less than 2% between the two points at the points measured).
SKIP_TRY = 0.95
# Before the batched FFT bounds, the saddlepoint estimates' ratio must predict more than SKIP_ROUGH delta (it predicted
# the per-size value 1-10% low at the points measured).
SKIP_ROUGH = 0.8
RAISED_NOTE = "evaluated with one group raised (BBGN19.Lem5.3.exact_raised: its delta bounds this statement's from above)"


def _falling(a: int, j: int) -> int:
    return math.prod(range(a - j + 1, a + 1)) if j > 0 else 1


@dataclass(frozen=True)
class SubsetSelection:
    """k-subset selection with exact e0 = e^eps0 > 1 on d inputs (module doc)."""

    e0: Fraction
    d: int
    k: int

    def __post_init__(self) -> None:
        if not isinstance(self.e0, Fraction) or self.e0 <= 1:
            raise ParameterError("e0", str(self.e0), "an exact Fraction > 1 (e^eps0)")
        check_domain(self.d)
        require_integer("k", self.k, minimum=1)
        if self.k > self.d - 1:
            raise ParameterError("k", self.k, f"an integer 1 <= k <= d - 1 = {self.d - 1}")

    @property
    def ratio(self) -> Fraction:
        return self.e0

    @property
    def gamma(self) -> Fraction:
        return Fraction(self.d) / (self.e0 * self.k + self.d - self.k)

    def rows(self) -> list[list[Fraction]]:
        """The full d x C(d, k) matrix (small d)."""
        subsets = list(itertools.combinations(range(self.d), self.k))
        if len(subsets) > MAX_FULL:
            raise ParameterError("(d, k)", (self.d, self.k), f"C(d, k) <= {MAX_FULL} for the full matrix")
        z = self.e0 * math.comb(self.d - 1, self.k - 1) + math.comb(self.d - 1, self.k)
        return [[(self.e0 if x in s else 1) / z for s in subsets] for x in range(self.d)]

    def membership(self, pattern: tuple[int, ...]) -> Fraction:
        """Pr[the membership of len(pattern) fixed distinct elements in a uniform k-subset is `pattern`]."""
        s, m = sum(pattern), len(pattern)
        return Fraction(_falling(self.k, s) * _falling(self.d - self.k, m - s), _falling(self.d, m))

    def pattern_rows(self) -> list[list[Fraction]]:
        """The membership pattern of (x, x', z) (module doc): 3 x 8 (patterns of probability 0 dropped by the
        matrix check: all rows are 0 there); the full matrix when d = 2."""
        if self.d == 2:
            return self.rows()
        patterns = list(itertools.product((0, 1), repeat=3))
        return [[self.membership(b) * self.gamma * (self.e0 if b[w] else 1) for b in patterns] for w in range(3)]

    def replace_pairs(self) -> list[BlanketPair]:
        alpha = {1: self.gamma * self.e0, 0: self.gamma}
        return [blanket_pair(self.gamma, [(alpha[i], alpha[j], self.membership((i, j))) for i in (1, 0) for j in (1, 0)])]


def optimal_subset_size(eps0: float, d: int) -> int:
    """Ye and Barg's subset size k = ceil(d / (e^eps0 + 1)), at least 1 and at most d - 1. Range: eps0 in [1e-12, 40],
    d in [2, 1e9]."""
    check_randomizer_inputs(eps0, 1, 0.5)
    d = check_domain(d)
    return max(1, min(d - 1, math.ceil(d / (math.exp(eps0) + 1))))


def subset_selection(eps0: float, d: int, k: int, *, side: str = "upper") -> SubsetSelection:
    """k-subset selection at eps0 on d inputs, e^eps0 rounded to an exact rational on `side` (module doc).
    Range: eps0 in [1e-12, 40], d in [2, 1e9], k in [1, d - 1]."""
    check_randomizer_inputs(eps0, 1, 0.5)
    if side not in ("upper", "lower"):
        raise ParameterError("side", side, "'upper' or 'lower'")
    return SubsetSelection(exp_bracket(eps0)[1 if side == "upper" else 0], check_domain(d), k)


def subset_epsilon_upper(*, eps0: float, n: int, delta: float, d: int, k: int | None = None, tight: str = "upper") -> BoundValue:
    """BBGN19.Lem5.3.exact_subset: certified upper bound on the central eps of n shuffled k-subset selections at
    eps0 (module doc; k defaults to Ye and Barg's ceil(d / (e^eps0 + 1))), replace-one: the smaller of the four-group
    evaluation and the raised one where both are computed (module doc, "Which evaluation"). `tight` = "upper"
    (default) narrows the upper end alone; "both" also narrows the interval's lower end (for `audit bound`): with
    three groups by the lattice sums' lower ends, with four by the larger of the lowered sum's certified root
    (`reference.randomizers.lowered`: one group lowered, a sum below the four-group one) and the certified pattern-pair
    lower bound (below the true eps, itself below the statement's value); the upper end is the same float as with
    "upper" for four groups. Range: eps0 in [1e-12, 40], n in [1, 1e8], delta in [1e-300, 1), d in [2, 1e9], k in
    [1, d - 1], tight in {"upper", "both"}."""
    check_randomizer_inputs(eps0, n, delta)
    check_tight(tight)
    size = optimal_subset_size(eps0, d) if k is None else k
    mechanism = subset_selection(eps0, d, size)
    pairs = mechanism.replace_pairs()
    solver_eps0 = eps0_rounded_up(mechanism.ratio)
    pair = pairs[0]
    if len(pair.groups) <= 3:  # k = 1 or k = d - 1: three groups, the exact lattice sums
        return cap_at_eps0(structured_blanket_epsilon(pairs, n=n, delta=delta, eps0=solver_eps0, tight=tight), eps0)
    value = _four_groups_upper(pair, n=n, delta=delta, solver_eps0=solver_eps0)
    if tight == "both":
        lowered = lowered_epsilon_lower(pair, n=n, delta=delta, eps0=solver_eps0)
        pattern = subset_epsilon_lower(eps0=eps0, n=n, delta=delta, d=d, k=size).lower
        value = BoundValue(min(max(value.lower, lowered, pattern), value.upper), value.upper, value.note, direction="upper_bound")
    return cap_at_eps0(value, eps0)


def _four_groups_upper(pair: BlanketPair, *, n: int, delta: float, solver_eps0: float) -> BoundValue:
    """The four-group upper bound (module doc, "Which evaluation"), not yet capped at eps0."""
    exact_root = saddle_blanket_root(int(n), pair.gamma, [pair.groups], delta=delta, eps0=solver_eps0)
    raised = [(root, groups) for _, _, groups in raised_groups(pair.groups) if (root := saddle_blanket_root(int(n), pair.gamma, [groups], delta=delta, eps0=solver_eps0)) is not None]
    best = min(raised, key=lambda item: item[0]) if raised else None
    near = RAISED_NEAR if n >= RAISED_ONLY_N_MIN else RAISED_CLOSE
    if exact_root is not None and best is not None and best[0] <= exact_root * (1 + near):
        # The raise costs at most RAISED_CLOSE of the estimated root (RAISED_NEAR from RAISED_ONLY_N_MIN, where the
        # FFT's own slack is larger, module doc): the raised evaluation alone.
        value = raised_candidate_epsilon(pair, best[1], n=n, delta=delta, eps0=solver_eps0, guess=aim_above(best[0]))
        return BoundValue(value.lower, value.upper, value.note or RAISED_NOTE, direction="upper_bound")
    if best is None:
        return structured_blanket_epsilon([pair], n=n, delta=delta, eps0=solver_eps0)
    root, lifted = best
    mark = root * (1 + FFT_SLACK)
    try:
        value = structured_blanket_epsilon([pair], n=n, delta=delta, eps0=solver_eps0, watch=_SkipWatch(pair, n=n, delta=delta, mark=mark, eps0=solver_eps0))
    except _Skipped:
        # The four-group search would end above mark, so the raised evaluation would run after it and the smaller end
        # be kept (below): the raised one alone (module doc, "Skipping").
        value = raised_candidate_epsilon(pair, lifted, n=n, delta=delta, eps0=solver_eps0, guess=aim_above(root))
        return BoundValue(value.lower, value.upper, value.note or RAISED_NOTE, direction="upper_bound")
    if value.upper > mark:
        # The four-group FFT evaluation stopped well above the raised estimate: the raised one too, the smaller kept.
        second = raised_candidate_epsilon(pair, lifted, n=n, delta=delta, eps0=solver_eps0, guess=aim_above(root))
        if second.upper < value.upper:
            value = BoundValue(second.lower, second.upper, second.note or RAISED_NOTE, direction="upper_bound")
    return value


class _Skipped(Exception):
    """Raised by `_SkipWatch` inside the four-group search: that search would end above its mark."""


class _SkipWatch:
    """The check of "Skipping" (module doc), run once, after the four-group search's first evaluation below `mark`
    (the raised estimate times 1 + FFT_SLACK; 0: never): when that evaluation's certified delta, scaled by the ratio
    of the saddlepoint estimates at mark and there, exceeds SKIP_ROUGH delta, and scaled by the ratio of the batched
    FFT bounds (`groups_fft_delta`, a tenth of the cost) exceeds SKIP_TRY delta (both only predictors), the search's
    own certified delta at mark is evaluated, and `_Skipped` is raised when it exceeds
    delta (the search, whose certified delta is non-increasing in eps, would then end above mark)."""

    def __init__(self, pair: BlanketPair, *, n: int, delta: float, mark: float, eps0: float) -> None:
        self.pair, self.n, self.delta, self.mark = pair, int(n), float(delta), float(mark)
        self.done = not 0 < self.mark < eps0

    def __call__(self, eps: float, upper: float) -> None:
        if self.done or not 0 < eps < self.mark:
            return
        self.done = True
        if upper <= self.delta:
            return  # already certified below mark: the search ends there
        # First the saddlepoint estimates' ratio (a few milliseconds), then the batched FFT bounds' (10-70 ms).
        rough_there = saddle_blanket_delta(self.n, self.pair.gamma, [self.pair.groups], eps, self.delta)
        rough_mark = saddle_blanket_delta(self.n, self.pair.gamma, [self.pair.groups], self.mark, self.delta)
        if not rough_there > 0 or upper * (rough_mark / rough_there) <= SKIP_ROUGH * self.delta:
            return
        there = groups_fft_delta(self.n, self.pair.gamma, self.pair.groups, eps=eps, delta_hint=self.delta).upper
        at_mark = groups_fft_delta(self.n, self.pair.gamma, self.pair.groups, eps=self.mark, delta_hint=self.delta).upper
        if not there > 0 or upper * (at_mark / there) <= SKIP_TRY * self.delta:
            return
        if structured_blanket_delta([self.pair], n=self.n, eps=self.mark, delta_hint=self.delta).upper > self.delta:
            raise _Skipped


def subset_epsilon_lower(*, eps0: float, n: int, delta: float, d: int, k: int | None = None) -> BoundValue:
    """exact.subset_pattern_pair: certified lower bound (the interval's lower end) on the central eps of n shuffled
    k-subset selections at eps0 (module doc), replace-one. Range: as subset_epsilon_upper."""
    check_randomizer_inputs(eps0, n, delta)
    size = optimal_subset_size(eps0, d) if k is None else k
    mechanism = subset_selection(eps0, d, size, side="lower")
    labels = ["x", "x'", "z"] if d > 2 else ["x", "x'"]
    return pattern_pair_epsilon(rows=mechanism.pattern_rows(), n=n, delta=delta, labels=labels)
