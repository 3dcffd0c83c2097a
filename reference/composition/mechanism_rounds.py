"""Mechanism-specific certified composition of shuffled rounds: binary randomized response (`compose.binary_rr`)
and k-ary randomized response (`compose.krr`), each round's worst-case privacy profile bounded for THAT
mechanism instead of the generic clone pairs of `shuffled_rounds`.

Neighbouring relation: replace one user's input, n fixed (symmetric), in every round; over T rounds the
neighbouring datasets differ in one user's inputs (any of its T inputs may change; the other users' inputs
may differ from round to round). The upper bound is valid under ADAPTIVE composition: each round's
randomizer input may be chosen after seeing the earlier rounds' outputs.

Upper bound (steps U1-U4; checked in `proofs_checks/derived/compose_mechanism.py`):

U1 Envelope. Certified upper bounds h_i >= delta*(eps_i) = sup over ordered neighbouring pairs of
   H_{e^eps_i}(M(D) || M(D')) of one round, at grid nodes eps_i = i h (h a power of 2) from 0 until the bound
   is below a floor (far below the target delta) or eps_i reaches eps0.
   - Binary RR: the exact profile is max_k d_k(eps), d_k = D_{e^eps}(P_k || Q_k) with k ones among the other
     n-1 users, and D(Q_k || P_k) = d_{n-1-k} (module doc of `reference.exact.binary_rr`), so max over k in
     [0, n-1] covers every ordered pair. The range [0, n-1] is covered by k = n-1, k = 0 and blocks [K, K + B]
     swept down from the worst end: by thinned removal (proof checks of exact.shuffled_binary_rr) every d_k of
     a block is <= d(population n - j, K ones) + Pr[Bin(B, 1 - e^-eps0) > j] at EVERY eps (the argument is
     pair-level: one Markov kernel and joint convexity), so one certified evaluation per node bounds the block.
     A block is accepted when its bound is within a relative ENVELOPE_TOLERANCE of the best single-pair value
     at every node (tightness only); h_i is the MAX over all accepted blocks and single pairs, so h_i >=
     delta*(eps_i) whatever the acceptance rule. The next block's width is predicted from the share of the
     tolerance the last block used (speed only). Each pair is evaluated at all nodes in one pass
     (`pair_delta_evaluator_many`: its windows and pmf values are shared by the nodes; the same certified
     bounds as the per-node evaluator).
   - k-RR: BBGN19 Lemma 5.3 bounds H_{e^eps} of EVERY neighbouring pair of n shuffled k-RR reports by
     (1/(gamma n)) E[(L_1 + ... + L_M)_+]; `reference.bounds.blanket_exact_krr` evaluates it exactly to a
     certified interval (statement BBGN19.Lem5.3.exact_krr); its upper end is h_i.
U2 Dominating pair. `connect_the_dots` turns the h_i into an explicit pair (P', Q') with H_alpha(M(D) || M(D'))
   <= H_alpha(P' || Q') at every alpha > 0 (its module doc, C1-C5: convexity and symmetry of the worst-case
   profile, the chord argument of Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022, certified in interval
   arithmetic). Its losses are exact multiples of h.
U3 Composition. Dominating pairs compose under adaptive composition (Zhu, Dong, Wang 2022, Thm 10; Dong, Roth,
   Su 2019, through trade-off functions): the product of the rounds' pairs dominates the T rounds, also with
   different eps0, n and mechanism per round (heterogeneous). The product's delta(eps) is bounded from above
   by the certified FFT engine (`reference/numerics/pld.py`: the losses are already on the grid, so its upward
   rounding moves nothing; masses are upper bounds; aliasing, round-off and tails are bounded).
U4 eps(delta): `solve_epsilon` on the certified upper curve: its returned upper end has certified
   delta <= target. Every eps0-LDP round is eps0-DP, so the answer never exceeds sum_r eps0_r (returned with a
   note when nothing smaller is certified).
U5 Binary RR, one group of T >= 2 rounds: the one dominating pair of U2 carries the SYMMETRISED profile (the
   relation is symmetric, so it must dominate (P_k, Q_k) and (Q_k, P_k) at once), while binary RR is asymmetric:
   (P_{n-1}, Q_{n-1}) has a far heavier upper tail than its reverse. The sweep of U1 also keeps two halves:
   forward[i] >= max d_k(eps_i) over k >= floor(n/2) and reverse[i] >= max d_k(eps_i) over k <= ceil(n/2) - 1
   (every single pair and every accepted block goes to the halves whose range of k it meets, so
   max(forward, reverse) is U1's envelope). `connect_the_dots(forward, h_reverse=reverse)` gives a pair A that
   dominates every (P_k, Q_k) with k >= floor(n/2); its reverse dominates the others ((P_k, Q_k) with
   k < floor(n/2) is the reverse of (P_{n-1-k}, Q_{n-1-k}) up to flipping every bit). The T rounds, each
   dominated by A or by its reverse as the adversary chooses adaptively, are composed by the dynamic programme
   of `directional_rounds` (its module doc, D1-D4): a certified upper bound under adaptive composition. The
   answer is the smaller of U4's and U5's (both certified); U5 is skipped when its work (T x window x atoms)
   exceeds DIRECTIONAL_WORK after DIRECTIONAL_COARSENINGS coarsenings (then U4's stands).
   Measured (delta = 1e-6, eps0 = 4, n = 1e4): T = 1000 13.42 -> 13.31 (lower end 13.07), T = 100 3.510 -> 3.494
   (lower end 3.447); U4 cannot go below 13.33 at T = 1000 even with the exact profile values, while the
   adaptive worst case is within 0.01 of the composed exact forward pair (13.09).

Lower bound (the interval's lower end; a certified LOWER bound on the composed mechanism's worst case):
L1 Explicit neighbouring datasets realise explicit pairs in one round (binary RR: user 1 holding 1 vs 0 with k
   ones among the others; k-RR: user 1 holding x0 vs x1 with the others at x0 or at a third value), and the
   mirrored datasets realise the reverse direction; any choice of pair and direction per round is ONE pair of
   neighbouring T-round datasets, so the exact eps of the product pair is a lower bound on the worst case.
L2 The optimistic path of the engine (losses rounded down, masses' lower ends, aliasing and round-off
   subtracted) gives a certified lower end of that eps; the maximum over a few candidates is taken
   (`explicit_pairs`, whose module doc gives the realisation of each pair).

Nodes: every grid node while the upper value is above TAIL_LEVEL, then strides of 2, 4, ..., 16 nodes (the
chord argument C3 of `connect_the_dots` takes any ascending grid nodes; the tail of one round's profile
carries almost nothing of the composed value: `_next_node`). k-RR schedules of MANY_ROUNDS = 100 rounds or more in
all take a coarser envelope (`MANY`: thinned from 1e-5 down with strides doubling every decade, each node's lattice
sum to the precision of 1e-2 of the previous node's value in powers of 1e3): about half the lattice sums' work,
and many rounds depend on the bulk of each round's privacy loss, not on its far tail. Measured against the fine
envelope (n = 1e6, delta = 1e-6; every value certified either way, the coarser one higher): T = 1000: k = 3 eps0 =
4 / 1 / 0.5 +1.0e-4 / +3.5e-4 / +3.6e-4 relative, k = 10 eps0 = 4 / 1 +1.1e-4 / +4.7e-4, k = 100 eps0 = 0.5
+1.1e-3; at T = 2 the same coarsening would cost 0.16-0.36%, so shorter schedules keep `FINE`. Both are tightness
choices only: a node's value is a certified upper bound whatever its precision hint, and C3 takes any nodes.

Speed: the envelope costs O(nodes x blocks) certified pair evaluations (binary RR) or O(nodes) lattice sums
(k-RR), and is cached per (mechanism, eps0, n, k, floor); the composition itself is one FFT (milliseconds to a
second), plus U5's dynamic programme for binary RR (at most DIRECTIONAL_WORK multiply-adds, about a second). Times per cell: benchmarks/COMPOSE_MECHANISM_RESULTS.md.
Where the k-RR seconds go (n = 1e6, T = 1000, delta = 1e-6, cProfile): over 95% in the envelope's 56-76 lattice
sums (0.05-0.2 s each: the rows of the trinomial sum and the shifted bounds of every b between them), the dominating
pair and the FFT about 0.15 s, the eps search milliseconds. The envelope asks the lattice sums for their upper ends
only (`sharp_lower=False`: the same upper floats, about a third less work) and decides the node step's point beyond
the profile's end by the Bennett bound where that is already below the floor (`_node_step`'s `below_floor`).
Per lattice sum at n = 1e6 (eps0 = 4, k = 3; `benchmarks/compose.py --krr-nodes`): 51 grid values of N (71 at the
finest precision hint), about 2800 rows (N, b) with 1e6 summed values of a, and 1.3e5 values of b bounded between
the rows; about 60% of its time goes to the rows' sums over a (pmf ratio products, their suffix sums), 25-30% to
the per-b bounds, the rest to layout. Every node is a vertex of the dominating pair's hull (the values are upper
bounds of a convex profile sampled finely), so no node can be dropped without moving the composed value.
Written by hand: no library composes certified upper envelopes of a profile (dp_accounting's connect-the-dots
takes exact floats and its FFT has no certified round-off; module docs of `connect_the_dots` and `pld`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Callable, Sequence

import numpy as np

from ..bounds.blanket_exact_krr import MAX_K as KRR_MAX_K
from ..bounds.blanket_exact_krr import MAX_N as KRR_MAX_N
from ..bounds.bennett import bennett_krr_delta
from ..bounds.blanket_exact_krr import exact_blanket_krr_delta
from ..core.errors import HypothesisViolation, ParameterError, require_integer, require_positive, require_probability
from ..core.limits import COMPOSE_EPS0_MAX, COMPOSE_ROUNDS_MAX
from ..core.parameters import check_eps0, check_n, check_rounds
from ..core.results import NO_AMPLIFICATION, NO_COMPOSITION_GAIN, BoundValue
from ..exact.binary_rr import pair_delta_evaluator_many, thinned_removal
from ..numerics.binomial import UNIT
from ..numerics.lattice_sums import normal_guess
from ..numerics.pld import ComposedPLD, GridPLD, compose
from ..numerics.solver import solve_epsilon
from .connect_the_dots import DominatingPair, connect_the_dots
from .directional_rounds import DirectionalComposition, compose_directional
from .explicit_pairs import Group, lower_delta, lower_epsilon
from .schedule import checked_schedule
from .solve import UNEVALUATED_BY_DEADLINE, before_deadline, composition_tail, refinement_within, small_delta, upper_curve_epsilon

__all__ = [
    "MECHANISMS",
    "Envelope",
    "MechanismRound",
    "compose_binary_rr",
    "compose_krr",
    "composed_delta",
    "composed_epsilon",
    "composed_lower_epsilon",
    "dominating_pair",
    "profile_envelope",
]

MECHANISMS = ("binary_rr", "krr")
# Binary RR's envelope sweeps the counts: ~10 s at n = 1e6 and ~2 min at n = 1e7 on a loaded 2-core machine
# (the sweep is not budgeted, so larger n are refused rather than left to run for many minutes).
BINARY_RR_MAX_N = 10**7
MAX_N = {"binary_rr": BINARY_RR_MAX_N, "krr": KRR_MAX_N}
MIN_EPS0 = 1e-3
MAX_EPS0 = COMPOSE_EPS0_MAX
MAX_ROUNDS = COMPOSE_ROUNDS_MAX
# Nodes per envelope: the grid step is the power of 2 just below (range of the profile) / NODES, the range
# ending where the envelope falls below the floor (DGKKM22: tens of nodes per unit of spread suffice).
NODES = 64
# Nodes below this certified upper value are thinned (`_next_node`): strides 2, 4, ... up to TAIL_MAX_STRIDE,
# doubling every TAIL_DECADES decades further down (the composed values moved by < 1e-4 relative).
TAIL_LEVEL = 1e-8
TAIL_DECADES = 2.0
TAIL_MAX_STRIDE = 16
# Binary RR sweep: a block is accepted when within this relative margin of the best single pair (tightness).
ENVELOPE_TOLERANCE = 1e-2
# The node step's search from an estimate moves at most this many exponents each way (then bisection).
ESTIMATE_MOVES = 4
# k-RR: the lattice sum at a node is evaluated to the precision of this fraction of the previous node's value.
HINT_FRACTION = 1e-3
# ... rounded down to a power of 10^HINT_DECADES (nodes then share the sum's cached layout).
HINT_DECADES = 6
# k-RR schedules of at least MANY_ROUNDS rounds in all: a coarser envelope (`Resolution`, module doc "Nodes").
MANY_ROUNDS = 100
# Binary RR sweep: the next block's width aims at this share of the tolerance (from the last block's share).
WIDTH_AIM = 0.85
# Binary RR sweep: counts up to this n are evaluated one by one (no blocks).
ALL_COUNTS_UP_TO = 64
# The envelope stops below this floor (and below FLOOR_FRACTION x delta / rounds): the mass left at +inf.
FLOOR = 1e-17
FLOOR_FRACTION = 1e-4
# Thinned removal: the neglected Bin(B, lambda) tail per block, far below the floor: THIN_TAIL at the default
# FLOOR, THIN_TAIL_FRACTION of the floor below it (a fixed 1e-22 above a floor of 1e-24 failed every block at the
# tail nodes: the sweep fell back to single counts, 58762 pair evaluations at n = 1e4 instead of 9696).
THIN_TAIL = 1e-22
THIN_TAIL_FRACTION = 1e-5
EPS_REL_TOL = 1e-6
# U5 (binary RR, one group of rounds): the dynamic programme's multiply-adds at most this (about a second);
# the grid is coarsened once (coarser envelope nodes: still dominating) if it does not fit, else U5 is skipped
# (coarser grids measured looser than U4: eps0 = 4, n = 1e4, T = 1000: 13.36 at 2x, 13.54 at 4x against 13.41).
DIRECTIONAL_WORK = 12 * 10**8
DIRECTIONAL_COARSENINGS = 2
# U5's window (tightness only: outside it W = 1 below, W(top) above, both valid): from
# e = -min(log(1 / DIRECTIONAL_FLOOR), max(1, DIRECTIONAL_LOW_SDS sd sqrt(T))) (below it 1 - e^e <= V <= 1,
# and the paths from eps rarely get there) to the symmetric answer plus DIRECTIONAL_SDS sd sqrt(T), sd the
# standard deviation of one round's loss under A.
DIRECTIONAL_FLOOR = 1e-4
DIRECTIONAL_LOW_SDS = 10.0
DIRECTIONAL_SDS = 3.0


@dataclass(frozen=True)
class MechanismRound:
    """`rounds` shuffled rounds of `mechanism` ("binary_rr" or "krr") with local eps0, n users and k
    categories (k-RR; binary RR is k = 2)."""

    mechanism: str
    eps0: float
    n: int
    rounds: int = 1
    k: int = 2


@dataclass(frozen=True)
class Resolution:
    """How densely an envelope samples the profile and how precisely a k-RR node's lattice sum is evaluated
    (tightness and speed only, never validity: every node's value is a certified upper bound whatever these are).
    tail_level, tail_decades: `_next_node`'s thinning; hint_fraction, hint_decades: a k-RR node's precision hint."""

    tail_level: float
    tail_decades: float
    hint_fraction: float
    hint_decades: int


# The envelope of every single round and short schedule.
FINE = Resolution(TAIL_LEVEL, TAIL_DECADES, HINT_FRACTION, HINT_DECADES)
# k-RR schedules of MANY_ROUNDS rounds or more (module doc, "Nodes"): thinned from 1e-5 down, strides doubling every
# decade, each sum to 1e-2 of the previous node's value in powers of 1e3 (about half the lattice sums' work).
MANY = Resolution(1e-5, 1.0, 1e-2, 3)


def _resolution_for(mechanism: str, total_rounds: int) -> Resolution:
    """MANY for k-RR schedules of at least MANY_ROUNDS rounds in all, FINE otherwise (binary RR's envelope is a
    sweep of explicit pairs whose cost does not depend on it; its ratios are the tightest to keep)."""
    return MANY if mechanism == "krr" and total_rounds >= MANY_ROUNDS else FINE


@dataclass(frozen=True)
class Envelope:
    """Certified upper bounds `upper[i]` of one round's worst-case profile delta*(eps) at nodes[i] = i step."""

    mechanism: str
    eps0: float
    n: int
    k: int
    step: float
    nodes: np.ndarray
    upper: np.ndarray
    evaluations: int
    seconds: float
    # Binary RR only (module doc, U5): upper bounds of max d_k over k >= floor(n/2) and over k <= ceil(n/2) - 1.
    forward: np.ndarray | None = None
    reverse: np.ndarray | None = None


def _validate(r: MechanismRound) -> MechanismRound:
    if not isinstance(r, MechanismRound):
        raise ParameterError("rounds", r, "MechanismRound(mechanism, eps0, n, rounds, k) entries")
    if r.mechanism not in MECHANISMS:
        raise ParameterError("mechanism", r.mechanism, f"one of {', '.join(MECHANISMS)}")
    check_eps0(r.eps0, maximum=MAX_EPS0, why="mechanism-specific composition")
    if r.eps0 < MIN_EPS0:
        raise ParameterError("eps0", r.eps0, f"{MIN_EPS0:g} <= eps0 <= {MAX_EPS0:g} (mechanism-specific composition)")
    check_n(r.n, maximum=MAX_N[r.mechanism], why=f"the {r.mechanism} envelope")
    check_rounds(r.rounds, maximum=MAX_ROUNDS)
    require_integer("k", r.k, minimum=2)
    if r.mechanism == "binary_rr" and r.k != 2:
        raise ParameterError("k", r.k, "2 for binary_rr (k-RR with k = 2 is binary RR)")
    if r.k > KRR_MAX_K:
        raise ParameterError("k", r.k, f"2 <= k <= {KRR_MAX_K:.0e}")
    return MechanismRound(r.mechanism, float(r.eps0), int(r.n), int(r.rounds), int(r.k))


def _validate_schedule(rounds: Sequence[MechanismRound]) -> list[MechanismRound]:
    return checked_schedule(rounds, _validate, entry="MechanismRound(mechanism, eps0, n, rounds, k)")


# ---------------------------------------------------------------------------------------------------
# U1: envelopes.


def _floor_for(delta: float, total_rounds: int) -> float:
    """The envelope's floor: FLOOR, or lower when delta / rounds asks for it (a power of 10, so that schedules
    share cached envelopes)."""
    want = min(FLOOR, FLOOR_FRACTION * delta / total_rounds)
    return 10.0 ** math.floor(math.log10(max(want, 1e-290)))


Bounds = Callable[[float, float], tuple[float, float]]


def _node_step(bounds_at: Bounds, eps0: float, floor: float, estimate: float | None = None,
               below_floor: Callable[[float], bool] | None = None) -> tuple[float, dict[float, tuple[float, float]]]:
    """The power-of-2 node step h: the largest with NODES h < eps0 and the certified upper value at NODES h
    above `floor` (so that the profile above the floor spans at least NODES nodes), by bisection over the
    exponent; 2^floor(log2(eps0 / NODES)) when the value at 0.999 eps0 is still above the floor. The choice
    only affects tightness, never validity. Also returns the values evaluated, {eps: (lower, upper)}: the
    points NODES 2^j are multiples of h (j >= log2 h - log2 NODES), so the walk over the nodes reuses them.
    `estimate` (uncertified: where the profile reaches the floor) starts a local search instead of the
    bisection: the exponent moves down while the value at NODES 2^j is not above the floor, then up while the
    next one is (the same step when the certified values are non-increasing, in two or three evaluations near
    the end instead of evaluations far beyond it, where the k-RR lattice sums are the most expensive).
    `below_floor(eps)` (optional): True only where a cheap certified upper bound of the profile at eps is <= floor;
    there the point counts as not above the floor without `bounds_at` (the step rule then reads "the certified
    value or that cheap bound above the floor": still a rule on certified values, so the step stays a power of
    2 whose choice only affects tightness). Such points are not put in the returned values."""
    seen: dict[float, tuple[float, float]] = {}

    def upper(eps: float) -> float:
        if eps not in seen:
            if below_floor is not None and below_floor(eps):
                return floor  # not above the floor (the comparisons below are strict)
            seen[eps] = bounds_at(eps, floor)
        return seen[eps][1]

    top = math.floor(math.log2(eps0 / NODES))
    if NODES * 2.0**top >= eps0:
        top -= 1
    if estimate is not None and math.isfinite(estimate) and estimate > 0:
        # At most ESTIMATE_MOVES moves each way (an estimate far off falls back to the bisection below, which
        # reuses the values seen).
        j = min(math.floor(math.log2(estimate / NODES)), top)
        if j == top and upper(eps0 * 0.999) > floor:
            return 2.0**top, seen
        moves = 0
        while moves < ESTIMATE_MOVES and not upper(NODES * 2.0**j) > floor:
            j, moves = j - 1, moves + 1
        if upper(NODES * 2.0**j) > floor:
            moves = 0
            while moves < ESTIMATE_MOVES and j < top and upper(NODES * 2.0 ** (j + 1)) > floor:
                j, moves = j + 1, moves + 1
            if j < top and not upper(NODES * 2.0 ** (j + 1)) > floor:
                return 2.0**j, seen
            if j == top and not upper(eps0 * 0.999) > floor:
                return 2.0**j, seen
    if upper(eps0 * 0.999) > floor:
        return 2.0**top, seen
    high = top + 1  # upper(NODES 2^high) <= floor (NODES 2^high >= 0.999 eps0 would do; the value there is below)
    low = top - 20
    while low > -1000 and not upper(NODES * 2.0**low) > floor:
        high, low = low, low - 20
    while high - low > 1:
        mid = (low + high) // 2
        if upper(NODES * 2.0**mid) > floor:
            low = mid
        else:
            high = mid
    return 2.0**low, seen


def _next_node(i: int, value: float, resolution: Resolution = FINE) -> int:
    """The index of the node after node i (value: its certified upper bound): i + 1 while the value is above
    TAIL_LEVEL, then strides of 2, 4, ... (doubling every TAIL_DECADES decades below it, at most
    TAIL_MAX_STRIDE), aligned to multiples of the stride. Only tightness depends on it: connect_the_dots takes
    any ascending multiples of the step (module doc of `connect_the_dots`, C3). Measured effect: the composed
    eps at delta = 1e-6 moved by less than 3e-5 relative (binary RR eps0 = 1 and k-RR k = 10 eps0 = 4, n = 1e4,
    T in {2, 100, 1000, 10000}; tests/reference/composition/test_envelope_nodes.py checks n = 200)."""
    if not value < resolution.tail_level:
        return i + 1
    decades = math.log10(resolution.tail_level / max(value, 1e-300))
    stride = int(min(2 ** (1 + int(decades // resolution.tail_decades)), TAIL_MAX_STRIDE))
    return (i // stride + 1) * stride


def _walk_nodes(bounds_at: Bounds, step: float, eps0: float, floor: float, seen: dict[float, tuple[float, float]],
                resolution: Resolution = FINE) -> tuple[list[float], list[float], list[float]]:
    """Nodes from 0 by `_next_node` until the upper value falls below `floor` or eps0 is reached:
    (nodes, certified lower ends, certified upper ends). bounds_at(eps, previous node's upper value) (the
    k-RR sum uses it as its precision hint); `seen`: values already evaluated."""
    nodes: list[float] = []
    lower: list[float] = []
    upper: list[float] = []
    i = 0
    while i * step < eps0:
        eps = i * step
        low, high = seen[eps] if eps in seen else bounds_at(eps, upper[-1] if upper else floor)
        nodes.append(eps)
        lower.append(low)
        upper.append(high)
        if high < floor:
            break
        i = _next_node(i, high, resolution)
    return nodes, lower, upper


def _binary_rr_envelope(eps0: float, n: int, floor: float) -> tuple[float, np.ndarray, np.ndarray, int, np.ndarray, np.ndarray]:
    """U1 for binary RR (module doc): nodes, certified upper bounds, evaluations, and the two halves of U5
    (forward: every k >= floor(n/2); reverse: every k <= ceil(n/2) - 1), each the maximum over the single pairs
    and accepted blocks that meet its range of k. Each pair (population, ones) is evaluated at all nodes in
    one pass (`pair_delta_evaluator_many`: windows and pmf values shared)."""
    bound = pair_delta_evaluator_many(eps0)
    count = [0]

    def many(population: int, ones: int, eps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        count[0] += len(eps)
        return bound(population, ones, eps)

    def ends_at(eps: float, hint: float) -> tuple[float, float]:
        values = [many(n, k, np.array([eps])) for k in sorted({n - 1, 0})]
        return max(float(v[0][0]) for v in values), max(float(v[1][0]) for v in values)

    step, seen = _node_step(ends_at, eps0, floor)
    nodes, single_lower, upper = _walk_nodes(ends_at, step, eps0, floor, seen)
    node_array = np.array(nodes)
    best = np.array(single_lower)
    envelope = np.array(upper)
    # U5's halves: k = n-1 is forward, k = 0 reverse (for n = 1 the one pair is both).
    middle, top_reverse = n // 2, (n + 1) // 2 - 1
    forward = many(n, n - 1, node_array)[1]
    reverse = many(n, 0, node_array)[1]

    def add(low: int, high: int, values: np.ndarray) -> None:
        nonlocal forward, reverse
        if high >= middle:
            forward = np.maximum(forward, values)
        if low <= top_reverse:
            reverse = np.maximum(reverse, values)

    if n <= ALL_COUNTS_UP_TO:
        for k in range(1, n - 1):
            values = many(n, k, node_array)[1]
            envelope = np.maximum(envelope, values)
            add(k, k, values)
        return step, node_array, envelope, count[0], forward, reverse
    # The sweep (module doc, U1): blocks [K, k_top] from the worst end down, k = n-1 and k = 0 done above.
    # Nodes where the worst-end pairs' own certified interval is wider than the tolerance (values at the pair
    # evaluator's resolution, far below any delta that matters: their lower ends are 0 at floors near 1e-40) cannot
    # judge a block against the tolerance: they are left out of the acceptance test (the block's values still
    # enter the envelope there, so validity is untouched). Without this, floors below ~1e-38 (delta < 1e-30 at
    # T = 2) made every block fail at those nodes and the sweep fell back to single pairs: minutes at n = 1e4.
    judged = envelope <= (1 + ENVELOPE_TOLERANCE) * best
    thin_tail = THIN_TAIL if floor >= FLOOR else max(min(THIN_TAIL, THIN_TAIL_FRACTION * floor), 1e-300)
    k_top, width = n - 2, 1
    while k_top >= 1:
        width = max(0, min(width, k_top - 1))
        start = k_top - width
        removed, extra = thinned_removal(eps0, width, thin_tail)
        lower_ends, upper_ends = many(n - removed, start, node_array)
        values = np.minimum((upper_ends + extra) * (1 + 4 * UNIT), 1.0)
        target = (1 + ENVELOPE_TOLERANCE) * best + floor * 1e-3
        # The share of the tolerance the block used (its bound exceeds the best pair by about a multiple of
        # the users removed, ~ width): the next width aims at WIDTH_AIM of it (speed only, never validity).
        with np.errstate(divide="ignore", invalid="ignore"):
            used = float(np.max(np.where(judged & (target > best), (values - best) / (target - best), 0.0)))
        aim = WIDTH_AIM / used if used > 0 else 2.0
        if width > 0 and np.any((values > target) & judged):
            width = int(width * min(0.5, aim))
            continue
        if width == 0:  # a single pair: its certified lower ends sharpen the acceptance target
            best = np.maximum(best, lower_ends)
        envelope = np.maximum(envelope, values)
        add(start, k_top, values)
        k_top = start - 1
        width = max(1, int(width * min(2.0, max(aim, 1.0))))
    return step, node_array, envelope, count[0], forward, reverse


def _krr_envelope(eps0: float, n: int, k: int, floor: float, resolution: Resolution = FINE) -> tuple[float, np.ndarray, np.ndarray, int]:
    """U1 for k-RR (module doc): the certified upper end of BBGN19 Lemma 5.3's exact delta at each node."""
    count = [0]

    def bounds_at(eps: float, previous: float) -> tuple[float, float]:
        count[0] += 1
        # The hint only sets the lattice sum's blocking grid and windows (its precision), never validity:
        # HINT_FRACTION of the previous node's value (the profile is non-increasing) instead of the floor.
        # A power of 1e3: nodes share the sum's cached layout (its plan is keyed by the precision).
        wanted = min(max(floor, resolution.hint_fraction * previous), 1e-6)
        decades = resolution.hint_decades
        hint = max(10.0 ** (decades * math.floor(math.log10(wanted) / decades)), floor)
        # Only the upper end enters the envelope (U1): the lattice sums skip their lower queries (same upper float).
        value = exact_blanket_krr_delta(eps0=eps0, n=n, k=k, eps=eps, delta_hint=hint, sharp_lower=False)
        return value.lower, value.upper

    e0 = math.exp(eps0)
    d = e0 + k - 1

    def terms(x: float) -> list[tuple[float, float]]:  # the summands of BBGN19 Lemma 5.3 (blanket_exact_krr)
        return [(e0 - math.exp(x), 1 / d), (1 - math.exp(x) * e0, 1 / d), (1 - math.exp(x), (k - 2) / d)]

    estimate = normal_guess(terms, n=n, eps0=eps0, delta=floor)
    cheap: set[float] = set()

    def below_floor(eps: float) -> bool:
        # BBGN19's Bennett relaxation (Lemmas 5.3, 5.6, 5.7) bounds the same expectation from above, rounded up,
        # in about a millisecond against a tenth of a second for the lattice sum far in the tail: where it is
        # already <= floor the step search needs no lattice sum (measured: the search's point beyond the end,
        # 1e-20 to 1e-35, is decided this way at n = 1e6).
        if not 0 < eps < eps0:
            return False
        try:
            below = bennett_krr_delta(eps=eps, eps0=eps0, n=n, k=k) <= floor
        except (ParameterError, HypothesisViolation):  # outside Bennett's range: the lattice sum decides
            return False
        if below:
            cheap.add(eps)
        return below

    def walk_bounds(eps: float, previous: float) -> tuple[float, float]:
        # A node the step search decided by the cheap bound gets the search's precision (the floor), as when the
        # search evaluated it: the envelope's values do not depend on which way the search decided.
        return bounds_at(eps, floor if eps in cheap else previous)

    step, seen = _node_step(bounds_at, eps0, floor, estimate, below_floor)
    nodes, _, upper = _walk_nodes(walk_bounds, step, eps0, floor, seen, resolution)
    return step, np.array(nodes), np.array(upper), count[0]


def _envelope(mechanism: str, eps0: float, n: int, k: int, floor: float, resolution: Resolution = FINE) -> Envelope:
    # One cache key per envelope whether or not the caller names the resolution (lru_cache keys on the arguments
    # as given: a defaulted and an explicit FINE would be two entries, and the envelope computed twice).
    return _envelope_cached(mechanism, eps0, n, k, floor, resolution)


@lru_cache(maxsize=64)
def _envelope_cached(mechanism: str, eps0: float, n: int, k: int, floor: float, resolution: Resolution) -> Envelope:
    started = time.perf_counter()
    if mechanism == "binary_rr":
        step, nodes, upper, evaluations, forward, reverse = _binary_rr_envelope(eps0, n, floor)
        return Envelope(mechanism, eps0, n, k, step, nodes, np.minimum(upper, 1.0), evaluations, time.perf_counter() - started,
                        np.minimum(forward, 1.0), np.minimum(reverse, 1.0))
    step, nodes, upper, evaluations = _krr_envelope(eps0, n, k, floor, resolution)
    return Envelope(mechanism, eps0, n, k, step, nodes, np.minimum(upper, 1.0), evaluations, time.perf_counter() - started)


def profile_envelope(mechanism: str, *, eps0: float, n: int, k: int = 2, floor: float = FLOOR) -> Envelope:
    """Certified upper bounds of one shuffled round's worst-case privacy profile delta*(eps) (replace-one) at
    grid nodes (module doc, U1). mechanism "binary_rr" (n <= 1e7) or "krr" (2 <= k <= 1e6, n <= 1e8);
    1e-3 <= eps0 <= 30; floor in (0, 1e-6]."""
    r = _validate(MechanismRound(mechanism, eps0, n, 1, k))
    require_probability("floor", floor)
    if floor > 1e-6:
        raise ParameterError("floor", floor, "0 < floor <= 1e-6")
    return _envelope(r.mechanism, r.eps0, r.n, r.k, float(floor))


def _pair_on(mechanism: str, eps0: float, n: int, k: int, floor: float, step: float, resolution: Resolution = FINE) -> DominatingPair:
    return _pair_on_cached(mechanism, eps0, n, k, floor, step, resolution)  # one cache key (as `_envelope`)


@lru_cache(maxsize=256)
def _pair_on_cached(mechanism: str, eps0: float, n: int, k: int, floor: float, step: float, resolution: Resolution) -> DominatingPair:
    """U2 on a grid step >= the envelope's (nodes at multiples of `step` only: each value is still an upper
    bound at its node, so the pair is still dominating, only coarser)."""
    env = _envelope(mechanism, eps0, n, k, floor, resolution)
    stride = max(int(round(step / env.step)), 1)
    index = np.rint(env.nodes / env.step).astype(np.int64)
    keep = np.nonzero(index % stride == 0)[0]  # the nodes that are multiples of `step` (0 among them)
    return connect_the_dots(step, env.nodes[keep], env.upper[keep], eps0=eps0)


@lru_cache(maxsize=64)
def _directional_pair_on(eps0: float, n: int, floor: float, step: float) -> DominatingPair:
    """U5's pair A (module doc): connect the dots of the forward half with the reverse half as the reversed
    family's values, on the envelope nodes that are multiples of `step`."""
    env = _envelope("binary_rr", eps0, n, 2, floor)
    if env.forward is None or env.reverse is None:  # binary RR envelopes always carry both halves (U5)
        raise ParameterError("mechanism", env.mechanism, "binary_rr (the halves of U5)")
    stride = max(int(round(step / env.step)), 1)
    index = np.rint(env.nodes / env.step).astype(np.int64)
    keep = np.nonzero(index % stride == 0)[0]
    return connect_the_dots(step, env.nodes[keep], env.forward[keep], eps0=eps0, h_reverse=env.reverse[keep])


def dominating_pair(mechanism: str, *, eps0: float, n: int, k: int = 2, floor: float = FLOOR) -> DominatingPair:
    """A dominating pair of one shuffled round of `mechanism` (module doc, U1-U2; replace-one relation): for
    every ordered pair of neighbouring datasets and every alpha > 0, H_alpha(M(D) || M(D')) <=
    H_alpha(P' || Q'). Range as `profile_envelope`."""
    env = profile_envelope(mechanism, eps0=eps0, n=n, k=k, floor=floor)
    return _pair_on(env.mechanism, env.eps0, env.n, env.k, float(floor), env.step)


# ---------------------------------------------------------------------------------------------------
# U3-U4: composition.


def _composed_upper(rounds: list[MechanismRound], delta_or_floor: float, tail: float) -> ComposedPLD:
    total = sum(r.rounds for r in rounds)
    floor = _floor_for(delta_or_floor, total)
    resolutions = [_resolution_for(r.mechanism, total) for r in rounds]
    envelopes = [_envelope(r.mechanism, r.eps0, r.n, r.k, floor, res) for r, res in zip(rounds, resolutions, strict=True)]
    step = min(e.step for e in envelopes)
    for _ in range(40):
        grids: list[GridPLD] = []
        for r, env, res in zip(rounds, envelopes, resolutions, strict=True):
            own = max(step, env.step)
            pair = _pair_on(r.mechanism, r.eps0, r.n, r.k, floor, own, res)
            grids.append(pair.grid_pld(step))
        try:
            return compose(grids, [r.rounds for r in rounds], tail=tail)
        except ParameterError:
            step *= 2  # the FFT window is too wide: coarser nodes are still dominating (`_pair_on`)
    raise ParameterError("rounds", total, "a composition whose loss window fits the FFT")


def _directional_composition(r: MechanismRound, delta: float, guess: float) -> DirectionalComposition | None:
    """U5 (module doc): the dynamic programme of r.rounds adaptive rounds of binary RR, each dominated by the pair A
    or its reverse (`directional_rounds`), whose delta(eps) is a certified upper bound; None when the work budget is
    exceeded. `guess` (an eps near the one asked) and `delta` only place the window and the atoms moved to +inf."""
    floor = _floor_for(delta, r.rounds)
    env = _envelope("binary_rr", r.eps0, r.n, 2, floor)
    step = env.step
    for _ in range(DIRECTIONAL_COARSENINGS):
        pair = _directional_pair_on(r.eps0, r.n, floor, step)
        loss = pair.index * pair.step
        mass = pair.p_mass
        mean = float(np.sum(mass * loss))
        sd = math.sqrt(max(float(np.sum(mass * loss**2)) - mean**2, 0.0)) + step
        spread = sd * math.sqrt(r.rounds)
        lo = -math.ceil(min(math.log(1 / DIRECTIONAL_FLOOR), max(1.0, DIRECTIONAL_LOW_SDS * spread)) / step) - 1
        hi = math.ceil((guess + DIRECTIONAL_SDS * spread) / step) + 2
        if 2 * r.rounds * (hi - lo + 1) * len(pair.index) <= DIRECTIONAL_WORK:  # multiply-adds (two kernels)
            negligible = DIRECTIONAL_FLOOR * 1e-2 * delta / r.rounds  # per atom, moved to +inf (U5)
            return compose_directional(pair, rounds=r.rounds, step=step, lo=lo, hi=hi, negligible=negligible)
        step *= 2
    return None


def _directional_epsilon(r: MechanismRound, delta: float, guess: float) -> float | None:
    """U5's certified upper bound on eps(delta) (`_directional_composition`), None when it is skipped."""
    composed = _directional_composition(r, delta, guess)
    if composed is None:
        return None

    def bounds(eps: float, c: DirectionalComposition = composed) -> tuple[float, float]:
        value = c.delta(eps)
        return value, value

    return solve_epsilon(bounds, eps0=r.eps0 * r.rounds, delta=delta, rel_tol=EPS_REL_TOL).upper


def _uses_directional(rounds: list[MechanismRound]) -> bool:
    """U5 applies to one group of T >= 2 binary-RR rounds (module doc)."""
    return len(rounds) == 1 and rounds[0].mechanism == "binary_rr" and rounds[0].rounds > 1


def composed_lower_epsilon(rounds: Sequence[MechanismRound], *, delta: float, stop: float | None = None) -> BoundValue:
    """A certified LOWER bound on the worst-case eps(delta) of the composed rounds (module doc, L1): the largest
    certified lower end over the explicit dataset pairs tried (`explicit_pairs`: binary RR and k-RR rounds). `stop`
    (None: none): a certified upper end of the same eps(delta); below delta = 1e-12 it aims the tilted lower search
    (`explicit_pairs.lower_epsilon`), never the validity. Range: 0 < delta < 1, stop None or finite >= 0."""
    rounds = _validate_schedule(rounds)
    require_probability("delta", delta)
    groups = [Group(r.mechanism, r.eps0, r.n, r.rounds, r.k) for r in rounds]
    best, which = lower_epsilon(groups, delta=delta, stop=stop)
    if best <= 0 and not which:
        return BoundValue(0.0, 0.0, "no explicit composed pair could be evaluated for these rounds", direction="lower_bound")
    note = f"composed explicit dataset pairs (module doc of explicit_pairs); the largest: {which}"
    return BoundValue(best, best, note, direction="lower_bound")


def composed_epsilon(rounds: Sequence[MechanismRound], *, delta: float, lower: bool = True, deadline: float | None = None) -> BoundValue:
    """compose.binary_rr / compose.krr: a certified upper bound on eps(delta) after the rounds (heterogeneous
    allowed; replace-one relation; valid under adaptive composition), module doc U1-U4. The interval's lower
    end is the certified lower bound L1-L2 on the same worst case (0 with lower=False or when no explicit pair could
    be composed). `deadline` (a `time.monotonic()` value, None: none): the lower end's pairs are a refinement, not
    started after it and dropped when the caller's limit interrupts them at it (`solve`, A caller's deadline: the
    lower end is then 0 and the note says so). Supported: 1e-3 <= eps0 <= 30, n <= 1e7 (binary RR) or 1e8 (k-RR), 2 <= k <= 1e6 (k-RR), total rounds <= 1e6,
    0 < delta < 1."""
    rounds = _validate_schedule(rounds)
    require_probability("delta", delta)
    result = upper_curve_epsilon(_composed_upper(rounds, delta, composition_tail(delta)), delta=delta, rel_tol=EPS_REL_TOL)
    upper = result.upper
    # Also where the FFT certified no gain (upper = eps0 x T): below delta ~ 1e-12 its round-off bound keeps its
    # curve above delta, while U5 (no FFT) still certifies (eps0 = 4, n = 1e4, T = 2, delta = 1e-15: 8 -> 0.892).
    if _uses_directional(rounds) and 0 < upper <= rounds[0].eps0 * rounds[0].rounds:
        directional = _directional_epsilon(rounds[0], delta, upper)
        if directional is not None:
            upper = min(upper, directional)  # both certified (U4, U5): the smaller one
    dropped = -1.0  # the lower end's marker where the deadline dropped it (a lower end is never negative)
    low = refinement_within(lambda: composed_lower_epsilon(rounds, delta=delta, stop=upper).lower, deadline, dropped) if lower else 0.0
    unevaluated = f"lower end 0: {UNEVALUATED_BY_DEADLINE}" if low == dropped else "lower end 0 (no lower bound evaluated)"
    low = min(max(low, 0.0), upper)
    # The FFT's note speaks for its own value only (a no-gain note must not follow U5's smaller one).
    note = result.note.replace(NO_AMPLIFICATION, NO_COMPOSITION_GAIN) if upper == result.upper else ""
    if upper > 0 and (upper - low) > 0.01 * upper:
        width = unevaluated if low == 0 else f"certified interval {(upper - low) / upper:.1%} wide"
        note = f"{note}; {width}" if note else width
    return BoundValue(low, upper, note, direction="upper_bound")


def composed_delta(rounds: Sequence[MechanismRound], *, eps: float, deadline: float | None = None) -> BoundValue:
    """A certified interval of the worst-case delta(eps) after the rounds: the upper end from the composed
    dominating pairs (U1-U3; for one group of binary-RR rounds also U5, the smaller value), the lower end the largest certified lower end of delta(eps) over the composed
    explicit dataset pairs (L1-L2, `explicit_pairs.lower_delta`; 0 with a note saying so when none could be
    composed). `deadline` (a `time.monotonic()` value, None: none): the small-delta recompositions, U5 and the lower
    end's pairs do not start after it and are dropped when the caller's limit interrupts them at it (`solve`, A
    caller's deadline: the certified ends in hand stand; a lower end dropped is 0 and the note says so). eps >= 0;
    ranges as composed_epsilon."""
    rounds = _validate_schedule(rounds)
    require_positive("eps", eps, allow_zero=True)
    if Fraction(eps) >= sum((Fraction(r.eps0) * r.rounds for r in rounds), Fraction(0)):
        # Basic composition: every eps0-LDP round is eps0-DP centrally, so at eps >= sum_r T_r eps0_r (exact rational
        # comparison) the worst-case delta is exactly 0 (also no grid step from eps: eps up to 1e308 overflowed it).
        return BoundValue(0.0, 0.0, direction="upper_bound")
    # Below delta 1e-10 also composed for smaller targets and tilted (solve.small_delta); U5 then for that target.
    _, upper, target = small_delta(lambda d: (_composed_upper(rounds, d, composition_tail(d)), None), (_composed_upper(rounds, 1e-6, 1e-18), None), eps=float(eps),
                                   deadline=deadline)
    if _uses_directional(rounds) and upper > 0:
        # U5 is a refinement: dropped at the caller's deadline, U3's certified end stands (solve: A caller's deadline).
        directional = refinement_within(lambda: _directional_composition(rounds[0], target or 1e-6, float(eps)), deadline, None)
        if directional is not None:
            upper = min(upper, directional.delta(float(eps)))  # both certified (U3, U5): the smaller one
    groups = [Group(r.mechanism, r.eps0, r.n, r.rounds, r.k) for r in rounds]
    hint = min(max(upper, 1e-300), 0.5)
    low, which = refinement_within(lambda: lower_delta(groups, eps=float(eps), delta_hint=hint), deadline, (0.0, ""))
    low = min(low, upper)
    if not which:
        why = "no explicit composed pair could be evaluated for these rounds" if before_deadline(deadline) else UNEVALUATED_BY_DEADLINE
        return BoundValue(0.0, float(upper), f"lower end 0: {why}", direction="upper_bound")
    # float(): the explicit pairs' lower end is a numpy scalar; the result carries Python floats.
    return BoundValue(float(low), float(upper), f"lower end: composed explicit dataset pairs, the largest {which}", direction="upper_bound")


def compose_binary_rr(*, eps0: float, n: int, delta: float, rounds: int) -> BoundValue:
    """compose.binary_rr: certified eps(delta) after `rounds` rounds of n shuffled eps0-binary-RR reports
    (mechanism-specific dominating pair, module doc). 1e-3 <= eps0 <= 30, 1 <= n <= 1e7, 0 < delta < 1,
    1 <= rounds <= 1e6."""
    return composed_epsilon([MechanismRound("binary_rr", eps0, n, rounds)], delta=delta)


def compose_krr(*, eps0: float, n: int, delta: float, rounds: int, k: int) -> BoundValue:
    """compose.krr: certified eps(delta) after `rounds` rounds of n shuffled eps0-k-RR reports (BBGN19 Lemma
    5.3 envelope, module doc). 1e-3 <= eps0 <= 30, 1 <= n <= 1e8, 2 <= k <= 1e6, 0 < delta < 1,
    1 <= rounds <= 1e6."""
    return composed_epsilon([MechanismRound("krr", eps0, n, rounds, k)], delta=delta)
