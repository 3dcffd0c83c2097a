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
     delta*(eps_i) whatever the acceptance rule.
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

Lower bound (the interval's lower end; a certified LOWER bound on the composed mechanism's worst case):
L1 Explicit neighbouring datasets realise explicit pairs in one round (binary RR: user 1 holding 1 vs 0 with k
   ones among the others; k-RR: user 1 holding x0 vs x1 with the others at x0 or at a third value), and the
   mirrored datasets realise the reverse direction; any choice of pair and direction per round is ONE pair of
   neighbouring T-round datasets, so the exact eps of the product pair is a lower bound on the worst case.
L2 The optimistic path of the engine (losses rounded down, masses' lower ends, aliasing and round-off
   subtracted) gives a certified lower end of that eps; the maximum over a few candidates is taken
   (`explicit_pairs`, whose module doc gives the realisation of each pair).

Speed: the envelope costs O(nodes x blocks) certified pair evaluations (binary RR: ~10 s at n = 1e6, ~2 min at
n = 1e7, the largest n supported) and is
cached per (mechanism, eps0, n, k, floor); the composition itself is one FFT (milliseconds to a second).
Written by hand: no library composes certified upper envelopes of a profile (dp_accounting's connect-the-dots
takes exact floats and its FFT has no certified round-off; module docs of `connect_the_dots` and `pld`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Sequence

import numpy as np

from ..bounds.blanket_exact_krr import MAX_K as KRR_MAX_K
from ..bounds.blanket_exact_krr import MAX_N as KRR_MAX_N
from ..bounds.blanket_exact_krr import exact_blanket_krr_delta
from ..core.errors import ParameterError, require_integer, require_positive, require_probability
from ..core.limits import COMPOSE_EPS0_MAX, COMPOSE_ROUNDS_MAX, COMPOSE_SCHEDULE_MAX
from ..core.parameters import check_eps0, check_n, check_rounds
from ..core.results import NO_AMPLIFICATION, NO_COMPOSITION_GAIN, BoundValue
from ..exact.binary_rr import pair_delta_evaluator, thinned_removal
from ..numerics.binomial import UNIT
from ..numerics.pld import ComposedPLD, GridPLD, compose
from ..numerics.solver import solve_epsilon
from .connect_the_dots import DominatingPair, connect_the_dots
from .explicit_pairs import Group, lower_delta, lower_epsilon

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
# Binary RR sweep: a block is accepted when within this relative margin of the best single pair (tightness).
ENVELOPE_TOLERANCE = 1e-2
# Binary RR sweep: counts up to this n are evaluated one by one (no blocks).
ALL_COUNTS_UP_TO = 64
# The envelope stops below this floor (and below FLOOR_FRACTION x delta / rounds): the mass left at +inf.
FLOOR = 1e-17
FLOOR_FRACTION = 1e-4
# Thinned removal: the neglected Bin(B, lambda) tail per block, far below the floor.
THIN_TAIL = 1e-22
EPS_REL_TOL = 1e-6


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
    if isinstance(rounds, (str, bytes)) or not isinstance(rounds, Sequence) or len(rounds) == 0:
        raise ParameterError("rounds", rounds, "a non-empty list of MechanismRound(mechanism, eps0, n, rounds, k)")
    if len(rounds) > COMPOSE_SCHEDULE_MAX:
        raise ParameterError("rounds", f"a list of {len(rounds)} entries", f"at most {COMPOSE_SCHEDULE_MAX} entries (repeated rounds once, with their count)")
    out = [_validate(r) for r in rounds]
    total = sum(r.rounds for r in out)
    if total > MAX_ROUNDS:
        raise ParameterError("rounds", total, f"a total of at most {MAX_ROUNDS:.0e} rounds")
    return out


# ---------------------------------------------------------------------------------------------------
# U1: envelopes.


def _floor_for(delta: float, total_rounds: int) -> float:
    """The envelope's floor: FLOOR, or lower when delta / rounds asks for it (a power of 10, so that schedules
    share cached envelopes)."""
    want = min(FLOOR, FLOOR_FRACTION * delta / total_rounds)
    return 10.0 ** math.floor(math.log10(max(want, 1e-290)))


def _node_step(upper_at: Callable[[float], float], eps0: float, floor: float) -> float:
    """The power-of-2 node step: (the eps where the certified upper value first falls below `floor`, or eps0)
    / NODES. Bisection on certified values, but the choice only affects tightness, never validity."""
    lo, hi = 0.0, eps0
    if upper_at(hi * 0.999) > floor:
        end = eps0
    else:
        for _ in range(30):
            mid = 0.5 * (lo + hi)
            if upper_at(mid) > floor:
                lo = mid
            else:
                hi = mid
            if hi - lo < 0.02 * hi:
                break
        end = hi
    return 2.0 ** math.floor(math.log2(end / NODES))


def _binary_rr_envelope(eps0: float, n: int, floor: float) -> tuple[float, np.ndarray, np.ndarray, int]:
    """U1 for binary RR (module doc): nodes, certified upper bounds, evaluations."""
    bound = pair_delta_evaluator(eps0)
    count = [0]

    def one(population: int, ones: int, eps: float) -> tuple[float, float]:
        count[0] += 1
        return bound(population, ones, eps)

    def ends(eps: float) -> float:
        return max(one(n, k, eps)[1] for k in {n - 1, 0})

    step = _node_step(ends, eps0, floor)
    nodes, single_lower, upper = [], [], []
    i = 0
    while i * step < eps0:
        eps = i * step
        ends_now = [one(n, k, eps) for k in sorted({n - 1, 0})]
        nodes.append(eps)
        single_lower.append(max(v[0] for v in ends_now))
        upper.append(max(v[1] for v in ends_now))
        i += 1
        if upper[-1] < floor:
            break
    node_array = np.array(nodes)
    best = np.array(single_lower)
    envelope = np.array(upper)
    if n <= ALL_COUNTS_UP_TO:
        for k in range(1, n - 1):
            envelope = np.maximum(envelope, [one(n, k, e)[1] for e in nodes])
        return step, node_array, envelope, count[0]
    # The sweep (module doc, U1): blocks [K, k_top] from the worst end down, k = n-1 and k = 0 done above.
    k_top, width = n - 2, 1
    while k_top >= 1:
        width = max(0, min(width, k_top - 1))
        start = k_top - width
        removed, extra = thinned_removal(eps0, width, THIN_TAIL)
        values = np.empty(len(nodes))
        accepted = True
        target = (1 + ENVELOPE_TOLERANCE) * best + floor * 1e-3
        for j, eps in enumerate(nodes):
            values[j] = min((one(n - removed, start, eps)[1] + extra) * (1 + 4 * UNIT), 1.0)
            if width > 0 and values[j] > target[j]:
                accepted = False
                break
        if not accepted:
            width //= 2
            continue
        if width == 0:  # a single pair: its certified lower ends sharpen the acceptance target
            best = np.maximum(best, [one(n, start, e)[0] for e in nodes])
        envelope = np.maximum(envelope, values)
        k_top = start - 1
        width = max(1, 2 * width)
    return step, node_array, envelope, count[0]


def _krr_envelope(eps0: float, n: int, k: int, floor: float) -> tuple[float, np.ndarray, np.ndarray, int]:
    """U1 for k-RR (module doc): the certified upper end of BBGN19 Lemma 5.3's exact delta at each node."""
    count = [0]

    def upper_at(eps: float) -> float:
        count[0] += 1
        return exact_blanket_krr_delta(eps0=eps0, n=n, k=k, eps=eps, delta_hint=floor).upper

    step = _node_step(upper_at, eps0, floor)
    nodes, upper = [], []
    i = 0
    while i * step < eps0:
        nodes.append(i * step)
        upper.append(upper_at(i * step))
        i += 1
        if upper[-1] < floor:
            break
    return step, np.array(nodes), np.array(upper), count[0]


@lru_cache(maxsize=64)
def _envelope(mechanism: str, eps0: float, n: int, k: int, floor: float) -> Envelope:
    started = time.perf_counter()
    if mechanism == "binary_rr":
        step, nodes, upper, evaluations = _binary_rr_envelope(eps0, n, floor)
    else:
        step, nodes, upper, evaluations = _krr_envelope(eps0, n, k, floor)
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


@lru_cache(maxsize=256)
def _pair_on(mechanism: str, eps0: float, n: int, k: int, floor: float, step: float) -> DominatingPair:
    """U2 on a grid step >= the envelope's (nodes at multiples of `step` only: each value is still an upper
    bound at its node, so the pair is still dominating, only coarser)."""
    env = _envelope(mechanism, eps0, n, k, floor)
    stride = int(round(step / env.step))
    keep = np.arange(0, len(env.nodes), max(stride, 1))
    return connect_the_dots(step, env.nodes[keep], env.upper[keep], eps0=eps0)


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
    envelopes = [_envelope(r.mechanism, r.eps0, r.n, r.k, floor) for r in rounds]
    step = min(e.step for e in envelopes)
    for _ in range(40):
        grids: list[GridPLD] = []
        for r, env in zip(rounds, envelopes, strict=True):
            own = max(step, env.step)
            pair = _pair_on(r.mechanism, r.eps0, r.n, r.k, floor, own)
            grids.append(pair.grid_pld(step))
        try:
            return compose(grids, [r.rounds for r in rounds], tail=tail)
        except ParameterError:
            step *= 2  # the FFT window is too wide: coarser nodes are still dominating (`_pair_on`)
    raise ParameterError("rounds", total, "a composition whose loss window fits the FFT")


def composed_lower_epsilon(rounds: Sequence[MechanismRound], *, delta: float) -> BoundValue:
    """A certified LOWER bound on the worst-case eps(delta) of the composed rounds (module doc, L1): the largest
    certified lower end over the explicit dataset pairs tried (`explicit_pairs`: binary RR and k-RR rounds)."""
    rounds = _validate_schedule(rounds)
    require_probability("delta", delta)
    groups = [Group(r.mechanism, r.eps0, r.n, r.rounds, r.k) for r in rounds]
    best, which = lower_epsilon(groups, delta=delta)
    if best <= 0 and not which:
        return BoundValue(0.0, 0.0, "no explicit composed pair could be evaluated for these rounds", direction="lower_bound")
    note = f"composed explicit dataset pairs (module doc of explicit_pairs); the largest: {which}"
    return BoundValue(best, best, note, direction="lower_bound")


def composed_epsilon(rounds: Sequence[MechanismRound], *, delta: float, lower: bool = True) -> BoundValue:
    """compose.binary_rr / compose.krr: a certified upper bound on eps(delta) after the rounds (heterogeneous
    allowed; replace-one relation; valid under adaptive composition), module doc U1-U4. The interval's lower
    end is the certified lower bound L1-L2 on the same worst case (0 with lower=False or when no explicit pair could
    be composed). Supported: 1e-3 <= eps0 <= 30, n <= 1e7 (binary RR) or 1e8 (k-RR), 2 <= k <= 1e6 (k-RR), total rounds <= 1e6,
    0 < delta < 1."""
    rounds = _validate_schedule(rounds)
    require_probability("delta", delta)
    tail = max(delta * 1e-6, 1e-300)
    composed = _composed_upper(rounds, delta, tail)

    def bounds(eps: float) -> tuple[float, float]:
        value = composed.delta(eps)
        return value, value

    result = solve_epsilon(bounds, eps0=composed.eps_max, delta=delta, rel_tol=EPS_REL_TOL)
    upper = result.upper
    low = composed_lower_epsilon(rounds, delta=delta).lower if lower else 0.0
    low = min(low, upper)
    note = result.note.replace(NO_AMPLIFICATION, NO_COMPOSITION_GAIN)
    if upper > 0 and (upper - low) > 0.01 * upper:
        width = "lower end 0 (no lower bound evaluated)" if low == 0 else f"certified interval {(upper - low) / upper:.1%} wide"
        note = f"{note}; {width}" if note else width
    return BoundValue(low, upper, note, direction="upper_bound")


def composed_delta(rounds: Sequence[MechanismRound], *, eps: float) -> BoundValue:
    """A certified interval of the worst-case delta(eps) after the rounds: the upper end from the composed
    dominating pairs (U1-U3), the lower end the largest certified lower end of delta(eps) over the composed
    explicit dataset pairs (L1-L2, `explicit_pairs.lower_delta`; 0 with a note saying so when none could be
    composed). eps >= 0; ranges as composed_epsilon."""
    rounds = _validate_schedule(rounds)
    require_positive("eps", eps, allow_zero=True)
    composed = _composed_upper(rounds, 1e-6, 1e-18)
    upper = composed.delta(float(eps))
    groups = [Group(r.mechanism, r.eps0, r.n, r.rounds, r.k) for r in rounds]
    low, which = lower_delta(groups, eps=float(eps), delta_hint=min(max(upper, 1e-300), 0.5))
    low = min(low, upper)
    if not which:
        return BoundValue(0.0, upper, "lower end 0: no explicit composed pair could be evaluated for these rounds", direction="upper_bound")
    return BoundValue(low, upper, f"lower end: composed explicit dataset pairs, the largest {which}", direction="upper_bound")


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
