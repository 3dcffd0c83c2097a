"""Certified composition of shuffled rounds by privacy-loss distributions (`compose.clones`,
`compose.stronger_clones`, `compose.exact_binary_rr`).

Neighbouring relation: replace one user's input (n fixed), as in every single-round statement of the
project. A pair (P, Q) of distributions DOMINATES a mechanism M when, for every neighbouring pair of
datasets (D, D') and every eps, D_{e^eps}(M(D) || M(D')) <= D_{e^eps}(P || Q). Dominating pairs compose:
the adaptive composition of mechanisms dominated by (P_r, Q_r) is dominated by the product pair
(prod P_r, prod Q_r) (Zhu, Dong, Wang, AISTATS 2022, Thm 10). Which pair (module doc of each builder):

- FMT21 clones (`compose.clones`): the clone pair over (a, b) counts with clone counts Bin(n-1, e^-eps0).
  FMT21 build M(D), M(D') as ONE post-processing of (P, Q) for every eps0-LDP randomizer and every
  neighbouring pair, so (P, Q) dominates every round (at all eps at once), and the pair does not
  depend on the randomizer, so adaptively chosen randomizers are covered. The pair is symmetric (swapping
  the two coordinates maps P to Q), so D(P||Q) = D(Q||P): one direction suffices.
- FMT23 stronger clones (`compose.stronger_clones`): the same pair with clone probability 2/(e^eps0+1),
  valid for randomizers in the FMT23 errata class (k-RR).
- Exact binary RR (`compose.exact_binary_rr`): the exact pair (P_k, Q_k) of one neighbouring dataset
  pair (k ones among the other n-1 users), both directions. Composing it T times gives the EXACT eps of
  T rounds of shuffled binary RR on those two fixed datasets, so its value is a LOWER bound on the
  worst case of the composed mechanism (the worst single-round k need not be the worst for
  composition, so no dominating claim is made); it is the yardstick the upper bounds are tested against.

Composition: each round's pair is turned into its privacy-loss distribution on certified windows
(`PairPLD`), discretised on one grid pessimistically and optimistically, and the rounds are composed by the
certified FFT engine of `reference/numerics/pld.py` (its module doc gives the argument step by step). Then
eps(delta) by `reference.numerics.solver.solve_epsilon` on the certified [lower, upper] delta brackets: the
returned upper end has certified upper delta <= target. Below delta = 1e-10 the same grids are also composed
exponentially tilted (`reference/numerics/pld.py` point 5, `solve.tilted_epsilon`): the bracket is then the
pointwise tighter of the untilted and tilted curves, both certified; there the grids' top tails are cut by
suffix sums and the binomial windows leave out at most the tail budget (both go to +inf), so that delta is
resolved far below 1e-12. The result's interval contains the exact composed eps of the pair (pessimistic end
upper, optimistic end lower).
Every eps0-LDP round is eps0-DP centrally (post-processing), so T rounds are T eps0-DP: the search runs on
[0, sum_r eps0_r] and returns that with a note when nothing smaller is certified.

Speed: the clone pair is a mixture over clone counts c of pairs (P_c, Q_c) with c visible in the output
(a + b = c + 1). P_{c+1}, Q_{c+1} are one Markov kernel applied to P_c, Q_c (module doc of
`reference.bounds.clones`), so replacing every c of a block [c_j, c_{j+1}) by its smallest count c_j gives a
pair from which the true one is a post-processing (apply the kernel c - c_j times, c is known): a
dominating pair whose PLD needs one Bin(c_j, 1/2) window per block (relative block width BLOCK_WIDTH).
For the lower bound the first count after each block is used (dominated the other way); a block of
one count is exact in both passes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Sequence

import numpy as np

from ..numerics.binomial import (
    UNIT,
    CertifiedWindow,
    ProbabilityPair,
    certified_window,
    iv_context,
    probability_pair,
)
from ..numerics.solver import solve_epsilon
from ..core.parameters import check_eps0, check_n, check_rounds
from ..core.errors import ParameterError, require_integer, require_positive, require_probability
from ..core.limits import COMPOSE_EPS0_MAX, COMPOSE_N_MAX, COMPOSE_ROUNDS_MAX, COMPOSE_SCHEDULE_MAX
from ..core.results import NO_AMPLIFICATION, NO_COMPOSITION_GAIN, BoundDirection, BoundValue
from ..numerics.pld import ComposedPLD, PairPLD, compose
from .binary_rr_pairs import WINDOW_TAIL, binary_rr_pair_plds
from .solve import TILT_BELOW, composition_tail, small_delta, tilt_wanted, tilted_epsilon

__all__ = [
    "binary_rr_counts",
    "PAIRS",
    "Round",
    "compose_clones",
    "compose_exact_binary_rr",
    "compose_stronger_clones",
    "composed_delta",
    "composed_epsilon",
    "pair_pld",
    "rounds_from_json",
]

PAIRS = ("clones", "stronger_clones", "exact_binary_rr", "binary_rr", "krr")
# The mechanism-specific pairs (compose.binary_rr, compose.krr): composed by `mechanism_rounds`.
MECHANISM_PAIRS = ("binary_rr", "krr")
# Relative width of the clone-count blocks (speed; module doc). The pair's losses scale like 1/sqrt(c),
# so a block moves eps by at most ~BLOCK_WIDTH/2 relative (0.1%).
BLOCK_WIDTH = 2e-3
# Grid step target: T * h <= GRID_FRACTION * (the composed epsilon's estimate), so the upward rounding
# moves the composed epsilon by about GRID_FRACTION / 2.
GRID_FRACTION = 0.01
# Exact binary RR: counts composed (k ones among the other n-1), both directions.
BINARY_RR_ALL_COUNTS_UP_TO = 40
# Bin(c, 1/2) windows from exact integers up to this count (faster than the interval anchors).
EXACT_HALF_UP_TO = 1000
BINARY_RR_COUNTS = 3
EPS_REL_TOL = 1e-6
# A certified interval wider than this (relative to its upper end) is said so in the note.
WIDE_INTERVAL = 0.01
# The supported range of one round group (`_validate_round`, `_validate_rounds`; the CLI states it).
MAX_EPS0 = COMPOSE_EPS0_MAX
MAX_N = COMPOSE_N_MAX
MAX_ROUNDS = COMPOSE_ROUNDS_MAX


# ---------------------------------------------------------------------------------------------------
# Raw PLDs: losses as float brackets with their masses' proven brackets.



# ---------------------------------------------------------------------------------------------------
# The pairs.


def _half_pair() -> ProbabilityPair:
    iv = iv_context()
    return ProbabilityPair(iv.mpf(0.5), iv.mpf(0.5), 0.5, 0.5, 0.0, 0.0)


def _half_window(c: int, tail: float = WINDOW_TAIL) -> CertifiedWindow:
    """The certified window of Bin(c, 1/2) (cached: both rounding directions and repeated calls share it).
    Up to EXACT_HALF_UP_TO the whole support from exact integers, the same window for every tail (cached by c alone:
    the small-delta recompositions ask again with smaller tails); above it `certified_window` for the tail."""
    if c <= EXACT_HALF_UP_TO:
        return _exact_half_window(c)
    return _tail_half_window(c, tail)


@lru_cache(maxsize=1024)
def _exact_half_window(c: int) -> CertifiedWindow:
    """The whole support of Bin(c, 1/2): C(c, x) / 2^c as an int / int division is correctly rounded (relative error
    <= u; every value >= 2^-1000 is a normal float). The binomial coefficients by the exact integer recurrence
    C(c, x + 1) = C(c, x) (c - x) / (x + 1) (the same integers as math.comb, in O(c) big-integer steps)."""
    coefficients = [1] * (c + 1)
    for x in range(c):
        coefficients[x + 1] = coefficients[x] * (c - x) // (x + 1)
    scale = 2**c
    pmf = np.array([b / scale for b in coefficients])
    rel = np.full(c + 1, UNIT)
    return _read_only(CertifiedWindow(c, 0, c, pmf, rel, pmf * (1 - 2 * UNIT), pmf * (1 + 2 * UNIT), 0.0, 0.0))


@lru_cache(maxsize=4096)
def _tail_half_window(c: int, tail: float) -> CertifiedWindow:
    """`certified_window` of Bin(c, 1/2) leaving out at most `tail` (c > EXACT_HALF_UP_TO)."""
    return _read_only(certified_window(c, _half_pair(), tail))


def _read_only(window: CertifiedWindow) -> CertifiedWindow:
    """The window with its arrays made read-only: it is cached and shared by every later call, so an edit in place
    would change what those calls certify."""
    for values in (window.pmf, window.rel, window.lower, window.upper):
        values.setflags(write=False)
    return window


def _clone_losses(x: np.ndarray, c: int, e0: float) -> tuple[np.ndarray, np.ndarray]:
    """Brackets of L(x) = log((e0 x + c+1-x) / (x + e0 (c+1-x))) (P_c vs Q_c at first coordinate x):
    log of each side (each a few roundings from e0's float, <= 4 u relative) and an absolute margin
    1e-11 (1 + |log num| + |log den|), far above the float error of the two logs and the difference."""
    rest = (c + 1.0) - x
    num = e0 * x + rest
    den = x + e0 * rest
    with np.errstate(divide="ignore"):
        log_num, log_den = np.log(num), np.log(den)
    loss = log_num - log_den
    margin = 1e-11 * (1.0 + np.abs(log_num) + np.abs(log_den))
    return loss - margin, loss + margin


def _clone_pair_pld(eps0: float, n: int, kind: str, pessimistic_blocks: bool = True, window_tail: float = WINDOW_TAIL) -> PairPLD:
    """PLD of the FMT21 / FMT23 clone pair (one direction suffices: the pair is symmetric), with the
    clone counts grouped in blocks (module doc). `pessimistic_blocks`: each block represented by its
    smallest count (dominating pair, for the upper bound) or its largest (dominated, for the lower bound).
    `window_tail`: the binomial windows' tail (their dropped mass goes to +inf: a floor under delta)."""
    counts = certified_window(n - 1, probability_pair(kind, eps0), window_tail)
    iv = iv_context()
    e0_iv = iv.exp(iv.mpf(eps0))
    alpha_iv = e0_iv / (e0_iv + 1)
    alpha_hi, alpha_lo = float(alpha_iv.b) * (1 + 2 * UNIT), float(alpha_iv.a) * (1 - 2 * UNIT)
    beta_iv = 1 / (e0_iv + 1)
    beta_hi, beta_lo = float(beta_iv.b) * (1 + 2 * UNIT), float(beta_iv.a) * (1 - 2 * UNIT)
    e0 = math.exp(eps0)
    losses_lo, losses_hi, masses_lo, masses_hi = [], [], [], []
    dropped = counts.dropped
    c = counts.lo
    while c <= counts.hi:
        end = min(max(c + 1, int(math.ceil(c * (1 + BLOCK_WIDTH)))), counts.hi + 1)
        block = slice(c - counts.lo, end - counts.lo)
        terms = end - c
        w_hi = float(np.sum(counts.upper[block])) * (1 + 1.001 * UNIT * (terms + 2))
        w_lo = float(np.sum(counts.lower[block])) * (1 - 1.001 * UNIT * (terms + 2))
        # Upper bound: the block's smallest count; lower bound: the next block's first count (larger than
        # every count of the block), so that both passes share the windows (`_half_window`, cached). A
        # block of one count is that count in both passes (no coarsening).
        rep = c if (pessimistic_blocks or end == c + 1) else end
        xs = _half_window(rep, window_tail)
        dropped += xs.dropped * w_hi
        # x in lo..hi+1: P(x) = alpha b(x-1) + beta b(x), b zero outside the window (that mass is dropped).
        b_hi = np.concatenate(([0.0], xs.upper, [0.0]))
        b_lo = np.concatenate(([0.0], xs.lower, [0.0]))
        p_hi = (alpha_hi * b_hi[:-1] + beta_hi * b_hi[1:]) * (1 + 3 * UNIT) * w_hi * (1 + UNIT)
        p_lo = (alpha_lo * b_lo[:-1] + beta_lo * b_lo[1:]) * (1 - 3 * UNIT) * w_lo * (1 - UNIT)
        x = np.arange(xs.lo, xs.hi + 2, dtype=float)
        l_lo, l_hi = _clone_losses(x, rep, e0)
        losses_lo.append(l_lo)
        losses_hi.append(l_hi)
        masses_lo.append(np.maximum(p_lo, 0.0))
        masses_hi.append(p_hi)
        c = end
    name = "FMT21 clone pair" if kind == "fmt21" else "FMT23 stronger-clone pair"
    return PairPLD(
        np.concatenate(losses_lo), np.concatenate(losses_hi), np.concatenate(masses_lo), np.concatenate(masses_hi),
        float(dropped) * (1 + 1e-12), 0.0, float(eps0), f"{name}, eps0={eps0}, n={n}",
    )


def binary_rr_counts(n: int) -> tuple[int, ...]:
    """The counts k composed for the exact binary-RR pair: every k <= (n-1)/2 for n <= 40 (both
    directions cover the mirrors k -> n-1-k), else k = 0, 1, 2."""
    require_integer("n", n, minimum=1)
    if n <= BINARY_RR_ALL_COUNTS_UP_TO:
        return tuple(range(0, (n - 1) // 2 + 1))
    return tuple(range(0, min(BINARY_RR_COUNTS, n)))


def pair_pld(pair: str, *, eps0: float, n: int, k: int = 0, direction: int = 0, pessimistic: bool = True, window_tail: float = WINDOW_TAIL) -> PairPLD:
    """The privacy-loss distribution of one round's pair (module doc): `pair` in PAIRS; for
    "exact_binary_rr" the count k (ones among the other n-1 users) and direction 0 (P_k vs Q_k) or 1.
    `window_tail` (clone pairs): the mass the binomial windows may leave out (it goes to +inf; smaller at
    small delta). Supported: 0 < eps0 <= 30, 1 <= n <= 1e9, 0 < window_tail <= 1e-24."""
    _validate_round(pair, eps0, n)
    if pair in MECHANISM_PAIRS:
        raise ParameterError("pair", pair, "clones, stronger_clones or exact_binary_rr (the mechanism pairs are built by mechanism_rounds.dominating_pair)")
    if pair == "exact_binary_rr":
        require_integer("k", k, minimum=0)
        if k > n - 1:
            raise ParameterError("k", k, f"0 <= k <= n-1 = {n - 1}")
        if direction not in (0, 1):
            raise ParameterError("direction", direction, "0 (P_k vs Q_k) or 1 (Q_k vs P_k)")
        return binary_rr_pair_plds(float(eps0), int(n), int(k))[direction]
    if not (isinstance(window_tail, float) and 0 < window_tail <= WINDOW_TAIL):
        raise ParameterError("window_tail", window_tail, f"a float in (0, {WINDOW_TAIL}]")
    return _clone_pair_pld(float(eps0), int(n), "fmt21" if pair == "clones" else "fmt23", pessimistic, window_tail)


# ---------------------------------------------------------------------------------------------------
# Public entry points.


@dataclass(frozen=True)
class Round:
    """`rounds` rounds of the shuffled protocol with local eps0 and n users, accounted by `pair`; k: the
    number of categories of a "krr" round (2 otherwise)."""

    pair: str
    eps0: float
    n: int
    rounds: int = 1
    k: int = 2


def _validate_round(pair: str, eps0: float, n: int) -> None:
    if pair not in PAIRS:
        raise ParameterError("pair", pair, f"one of {', '.join(PAIRS)}")
    check_eps0(eps0, maximum=MAX_EPS0, why="composition")
    check_n(n, maximum=MAX_N, why="composition")


def _validate_rounds(rounds: Sequence[Round]) -> list[Round]:
    if isinstance(rounds, (str, bytes)) or not isinstance(rounds, Sequence) or len(rounds) == 0:
        raise ParameterError("rounds", rounds, "a non-empty list of Round(pair, eps0, n, rounds)")
    if len(rounds) > COMPOSE_SCHEDULE_MAX:
        raise ParameterError("rounds", f"a list of {len(rounds)} entries", f"at most {COMPOSE_SCHEDULE_MAX} entries (give repeated rounds once, with their count)")
    out = []
    for r in rounds:
        if not isinstance(r, Round):
            raise ParameterError("rounds", r, "Round(pair, eps0, n, rounds) entries")
        _validate_round(r.pair, r.eps0, r.n)
        check_rounds(r.rounds, maximum=MAX_ROUNDS)
        require_integer("k", r.k, minimum=2)
        if r.pair != "krr" and r.k != 2:
            raise ParameterError("k", r.k, f"2 for a {r.pair} round (k is the number of categories of a krr round)")
        out.append(Round(r.pair, float(r.eps0), int(r.n), int(r.rounds), int(r.k)))
    if sum(r.rounds for r in out) > MAX_ROUNDS:
        raise ParameterError("rounds", sum(r.rounds for r in out), f"a total of at most {MAX_ROUNDS:.0e} rounds")
    if len({r.pair in MECHANISM_PAIRS for r in out}) > 1:
        raise ParameterError("rounds", [r.pair for r in out], "binary_rr and krr rounds only with binary_rr or krr rounds (they are composed by their own dominating pairs)")
    if len({r.pair == "exact_binary_rr" for r in out}) > 1:
        raise ParameterError("rounds", [r.pair for r in out], "exact_binary_rr rounds only with other exact_binary_rr rounds (a lower bound does not mix with upper bounds)")
    if out[0].pair == "exact_binary_rr" and len({(r.eps0, r.n) for r in out}) > 1:
        raise ParameterError("rounds", [(r.eps0, r.n) for r in out], "exact_binary_rr rounds with one (eps0, n) (the dataset pair is fixed across rounds)")
    return out


class _Composer:
    """Builds the pair PLDs once and composes them on a grid chosen for the target."""

    def __init__(self, rounds: list[Round], plds: list[tuple[PairPLD, PairPLD]], tail: float, precise_tail: bool = False):
        self.rounds = rounds
        self.plds = plds  # (pessimistic raw, optimistic raw) per round group
        self.tail = tail
        # Below TILT_BELOW the grids' top tails are cut by suffix sums (`PairPLD.discretise`): the tilted
        # composition resolves delta below the ~1e-16 that total - prefix sums would move to +inf. It also sets
        # the binomial windows' left-out mass by the tail budget (`_composer`).
        self.precise_tail = precise_tail
        self.total = sum(r.rounds for r in rounds)

    def scale(self, delta: float) -> float:
        """Float estimate of the composed epsilon (Gaussian approximation), to choose the grid step."""
        mean = var = 0.0
        for r, (raw, _) in zip(self.rounds, self.plds, strict=True):
            m, v = raw.moments()
            mean += r.rounds * m
            var += r.rounds * v
        return max(mean + math.sqrt(var) * math.sqrt(2 * math.log(1.25 / delta)), math.sqrt(var), 1e-12)

    def step_for(self, target: float, refine: int = 1) -> float:
        """A power of 2 with T h <= GRID_FRACTION target, and at most target / 2^14 (few rounds: the
        FFT is cheap, so the grid is made finer than the accuracy target)."""
        step = min(GRID_FRACTION * target / self.total, target / 2**14) / refine
        return 2.0 ** math.floor(math.log2(step))

    def composed(self, step: float, pessimistic: bool, suffix_tail: bool = False) -> ComposedPLD:
        """The composition on `step * Z`; `suffix_tail`: the grids' top tails cut by suffix sums also above
        TILT_BELOW (`_solve`: the tilted search there)."""
        grids, powers = [], []
        per_round_tail = self.tail / (4 * self.total)
        for r, (raw_p, raw_o) in zip(self.rounds, self.plds, strict=True):
            raw = raw_p if pessimistic else raw_o
            grids.append(raw.discretise(step, pessimistic, per_round_tail, precise_tail=self.precise_tail or suffix_tail))
            powers.append(r.rounds)
        for _ in range(40):
            try:
                return compose(grids, powers, tail=self.tail)
            except ParameterError:
                # Window too wide for MAX_FFT: a coarser grid is still sound (only less tight).
                step *= 2
                grids = [
                    (raw_p if pessimistic else raw_o).discretise(step, pessimistic, per_round_tail, precise_tail=self.precise_tail or suffix_tail)
                    for (raw_p, raw_o) in self.plds
                ]
        raise ParameterError("rounds", self.total, "a composition whose loss window fits an FFT of MAX_FFT points")


def _composer(rounds: list[Round], tail: float, precise_tail: bool = False) -> list[_Composer]:
    """One composer per evaluated neighbouring pair: one for the clone pairs; for the exact binary-RR
    pair one per (k, direction)."""
    # Small delta (precise_tail): the windows' left-out mass (at +inf; dropped by the lower curves) kept below the
    # tail budget too.
    window = max(min(WINDOW_TAIL, tail / (4 * sum(r.rounds for r in rounds))), 1e-300) if precise_tail else WINDOW_TAIL
    if rounds[0].pair != "exact_binary_rr":
        plds = [(pair_pld(r.pair, eps0=r.eps0, n=r.n, window_tail=window), pair_pld(r.pair, eps0=r.eps0, n=r.n, pessimistic=False, window_tail=window)) for r in rounds]
        return [_Composer(rounds, plds, tail, precise_tail)]
    eps0, n = rounds[0].eps0, rounds[0].n
    out = []
    for k in binary_rr_counts(n):
        both = binary_rr_pair_plds(eps0, n, k, window_tail=window)
        for direction in (0, 1):
            out.append(_Composer(rounds, [(both[direction], both[direction])] * len(rounds), tail, precise_tail))
    return out


def _solve(composer: _Composer, delta: float, refine: int) -> BoundValue:
    step = composer.step_for(composer.scale(delta), refine)
    upper = composer.composed(step, True)
    lower = composer.composed(step, False)

    def bounds(eps: float) -> tuple[float, float]:
        return lower.delta(eps), upper.delta(eps)

    eps_max = upper.eps_max
    result = solve_epsilon(bounds, eps0=eps_max, delta=delta, rel_tol=EPS_REL_TOL)
    if tilt_wanted(upper, delta):
        # Below the untilted round-off floor: the tilted compositions of the same grids too (solve.py, Small delta).
        # Above TILT_BELOW the tilted search composes grids whose top tails are cut by suffix sums: total - prefix
        # sums cancel and move ~1e-16 of a round's mass to +inf, which T rounds add up (4e-12 at T = 1000, 4% of
        # delta = 1e-10) and which the tilt cannot remove. The untilted answer `result` stays the start, so the
        # ends can only tighten.
        if not composer.precise_tail:
            upper = composer.composed(step, True, suffix_tail=True)
        result = tilted_epsilon(upper, lower, delta=delta, rel_tol=EPS_REL_TOL, start=result)
    return result


def _direction(rounds: Sequence[Round]) -> BoundDirection:
    """The claim of a composition: the clone pairs dominate every eps0-LDP round (an upper bound); the exact
    binary-RR pairs are explicit neighbouring pairs (their composition is a lower bound on the worst case)."""
    return "lower_bound" if rounds[0].pair == "exact_binary_rr" else "upper_bound"


def composed_epsilon(rounds: Sequence[Round], *, delta: float, refine: int = 1, deadline: float | None = None) -> BoundValue:
    """compose.<pair>: the certified eps(delta) of the composition of `rounds` (heterogeneous allowed),
    as an interval containing the exact composed eps of the pair (module doc): for the clone pairs the
    upper end bounds the composed mechanism's true eps; for exact_binary_rr the value is the max over
    binary_rr_counts(n) and both directions (a lower bound on the worst case). `refine` makes the grid
    finer by that factor (accuracy checks). `deadline`: compose.binary_rr / compose.krr drop their lower end's
    pairs at it (`mechanism_rounds.composed_epsilon`); the other pairs have no refinement to drop.
    Supported: 0 < delta < 1, sum of rounds <= 1e6."""
    rounds = _validate_rounds(rounds)
    require_probability("delta", delta)
    require_integer("refine", refine, minimum=1)
    if rounds[0].pair in MECHANISM_PAIRS:
        from . import mechanism_rounds  # lazy: it builds on this module

        return mechanism_rounds.composed_epsilon(_mechanism_rounds(rounds), delta=delta, deadline=deadline)
    results = [_solve(c, delta, int(refine)) for c in _composer(rounds, composition_tail(delta), precise_tail=delta < TILT_BELOW)]
    worst = max(results, key=lambda r: r.upper)
    lower = max(r.lower for r in results)
    note = worst.note.replace(NO_AMPLIFICATION, NO_COMPOSITION_GAIN)
    if rounds[0].pair == "exact_binary_rr":
        extra = f"exact pairs k in {list(binary_rr_counts(rounds[0].n))}, both directions: a lower bound on the worst case"
        note = f"{note}; {extra}" if note else extra
    if worst.upper > 0 and worst.upper - lower > WIDE_INTERVAL * worst.upper:
        extra = f"certified interval {(worst.upper - lower) / worst.upper:.1%} wide (the rounding of the grid: the true value of the pair lies inside)"
        note = f"{note}; {extra}" if note else extra
    return BoundValue(lower, worst.upper, note, direction=_direction(rounds))


def composed_delta(rounds: Sequence[Round], *, eps: float, refine: int = 1, deadline: float | None = None) -> BoundValue:
    """compose.<pair>: the certified delta(eps) of the composition of `rounds`, as an interval
    (pessimistic upper end, optimistic lower end; max over the evaluated pairs for exact_binary_rr). Where the
    first composition's certified delta is below 1e-10, also the tilted compositions for smaller targets
    (`solve.small_delta`: certified far below the untilted round-off floor ~1e-13); elsewhere unchanged.
    `deadline` (a `time.monotonic()` value, None: none) bounds those recompositions (`solve.small_delta`).
    Supported: as composed_epsilon, eps >= 0."""
    rounds = _validate_rounds(rounds)
    require_positive("eps", eps, allow_zero=True)
    require_integer("refine", refine, minimum=1)
    if rounds[0].pair in MECHANISM_PAIRS:
        from . import mechanism_rounds  # lazy: it builds on this module

        return mechanism_rounds.composed_delta(_mechanism_rounds(rounds), eps=eps, deadline=deadline)
    if Fraction(eps) >= sum((Fraction(r.eps0) * r.rounds for r in rounds), Fraction(0)):
        # Basic composition (module doc): every eps0-LDP round is eps0-DP centrally, so at eps >= sum_r T_r eps0_r
        # (exact rational comparison) delta is exactly 0, for the mechanism and for every pair composed here (each
        # round's privacy loss lies in [-eps0, eps0]). Also no grid step from eps (eps up to 1e308 overflowed it).
        return BoundValue(0.0, 0.0, direction=_direction(rounds))
    lows, ups = [], []
    for index, composer in enumerate(_composer(rounds, 1e-18)):
        step = composer.step_for(max(eps, composer.scale(1e-6)), int(refine))

        def compose_for(target: float, index: int = index, step: float = step) -> tuple[ComposedPLD, ComposedPLD]:
            # Small delta (solve.small_delta): the tail budget and the binomial windows for `target`, the grids'
            # top tails cut by suffix sums, as the eps(delta) search composes at that delta.
            small = _composer(rounds, composition_tail(target), precise_tail=True)[index]
            return small.composed(step, True), small.composed(step, False)

        low, high, _ = small_delta(compose_for, (composer.composed(step, True), composer.composed(step, False)), eps=float(eps), deadline=deadline)
        ups.append(high)
        lows.append(low)
    return BoundValue(max(lows), max(ups), direction=_direction(rounds))


def _mechanism_rounds(rounds: list[Round]) -> list[Any]:
    from .mechanism_rounds import MechanismRound  # lazy: it builds on this module

    return [MechanismRound(r.pair, r.eps0, r.n, r.rounds, r.k) for r in rounds]


def rounds_from_json(data: object) -> list[Round]:
    """Rounds from parsed JSON: a list of {"pair": str, "eps0": float, "n": int, "rounds": int[, "k": int]}
    (or {"rounds": [...]}) for the heterogeneous form of `shuffle-spec compose` (k: categories of a krr round)."""
    if isinstance(data, dict) and "rounds" in data:
        data = data["rounds"]
    if not isinstance(data, list) or not data:
        raise ParameterError("rounds", data, "a non-empty JSON list of {pair, eps0, n, rounds} objects")
    out = []
    for item in data:
        if not isinstance(item, dict) or not {"pair", "eps0", "n"} <= set(item) or set(item) - {"pair", "eps0", "n", "rounds", "k"}:
            raise ParameterError("rounds", item, "objects with keys pair, eps0, n and optional rounds, k")
        if item["pair"] == "krr" and "k" not in item:
            raise ParameterError("k", None, "the number of categories of every krr round, an integer 2 <= k <= 1e6")
        out.append(Round(item["pair"], item["eps0"], item["n"], item.get("rounds", 1), item.get("k", 2)))
    return _validate_rounds(out)


# ---------------------------------------------------------------------------------------------------
# The registered statements' scalar entry points.


def compose_clones(*, eps0: float, n: int, delta: float, rounds: int) -> BoundValue:
    """compose.clones: certified eps(delta) after `rounds` rounds of a shuffled eps0-LDP protocol with n
    users, by the FMT21 clone pair composed `rounds` times. 0 < eps0 <= 30, 1 <= n <= 1e9, 0 < delta < 1,
    1 <= rounds <= 1e6."""
    return composed_epsilon([Round("clones", eps0, n, rounds)], delta=delta)


def compose_stronger_clones(*, eps0: float, n: int, delta: float, rounds: int) -> BoundValue:
    """compose.stronger_clones: as compose_clones with the FMT23 stronger-clone pair (k-RR, errata class)."""
    return composed_epsilon([Round("stronger_clones", eps0, n, rounds)], delta=delta)


def compose_exact_binary_rr(*, eps0: float, n: int, delta: float, rounds: int) -> BoundValue:
    """compose.exact_binary_rr (statement direction lower_bound): the LOWER end of the certified eps(delta) of
    the exact binary-RR pairs composed `rounds` times (max over binary_rr_counts(n), both directions) as the
    value, as exact.shuffled_binary_rr.pair does: a lower bound on the worst case must be at most the truth
    (the PLD interval's upper end lies above it); the certified interval is in the note."""
    result = composed_epsilon([Round("exact_binary_rr", eps0, n, rounds)], delta=delta)
    note = f"exact composed eps of the pairs in [{result.lower!r}, {result.upper!r}]; {result.note}"
    # The value is the lower end (BoundValue.value of a lower bound); the interval holds the pairs' exact composed eps.
    return BoundValue(result.lower, result.upper, note, direction="lower_bound")


# ---------------------------------------------------------------------------------------------------
# High-precision paths (test vectors; `shuffle_spec.reference.bounds.clones_high_precision`): exact enumeration of the composed
# losses, small n and rounds only; the float answer seeds Newton's iteration.


def _composed_mp(pair: str, float_path: Callable[..., BoundValue], dps: int, eps0: float, n: int, delta: float, rounds: int) -> tuple[Any, Any]:
    from ..bounds.clones_high_precision import composed_epsilon_mp  # lazy: keeps imports fast

    _validate_round(pair, eps0, n)
    require_probability("delta", delta)
    require_integer("rounds", rounds, minimum=1)

    def seed() -> tuple[float, float]:
        answer = float_path(eps0=eps0, n=n, delta=delta, rounds=rounds)
        return answer.lower, answer.upper

    return composed_epsilon_mp(pair, dps=dps, eps0=eps0, n=n, delta=delta, rounds=rounds, seed=seed)


def compose_clones_mp(*, dps: int, eps0: float, n: int, delta: float, rounds: int) -> tuple[Any, Any]:
    """compose.clones in high precision: a certified enclosure (lower, upper) of the exact composed eps of the
    FMT21 clone pair at `dps` digits, by exact enumeration of the composed losses; ValueError ("outside the
    high-precision range") beyond 2e5 composites per half (e.g. n <= 20 with rounds <= 4)."""
    return _composed_mp("clones", compose_clones, dps, eps0, n, delta, rounds)


def compose_stronger_clones_mp(*, dps: int, eps0: float, n: int, delta: float, rounds: int) -> tuple[Any, Any]:
    """compose.stronger_clones in high precision (as compose_clones_mp, FMT23 stronger-clone pair)."""
    return _composed_mp("stronger_clones", compose_stronger_clones, dps, eps0, n, delta, rounds)


def compose_exact_binary_rr_mp(*, dps: int, eps0: float, n: int, delta: float, rounds: int) -> tuple[Any, Any]:
    """compose.exact_binary_rr in high precision: a certified enclosure of the max over the counts k of
    binary_rr_counts(n) and both directions of the exact composed eps (as compose_clones_mp)."""
    return _composed_mp("exact_binary_rr", compose_exact_binary_rr, dps, eps0, n, delta, rounds)
