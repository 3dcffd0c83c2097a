"""Proof checks for the directional composition of compose.binary_rr (T adaptive rounds, each dominated by a pair A
or by its reverse B; shuffle_spec.reference.composition.directional_rounds, module doc D1-D4, and the halves of
mechanism_rounds' U5), on exact instances (Fractions; shuffled binary RR with e^eps0 = 3, replace-one):

- D1: the chain rule H_a(P1 x P2|y1 || Q1 x Q2|y1) = sum_{y1: P1(y1) > 0} P1(y1) H_{a Q1(y1)/P1(y1)}(P2|y1 || Q2|y1)
  on a two-round adaptive example (the second round's pair chosen by y1), with an output of Q1-mass 0 (H_0 = 1)
  and one of P1-mass 0 (no contribution);
- D2: the worst-case profile V(a) = max over the ordered neighbouring pairs of H_a is midpoint convex on a grid
  of a, and the perspective functional sum_y P(y) phi(Q(y)/P(y)), phi(r) = V(c r), does not increase under a
  fixed stochastic matrix (data processing);
- D3: the bit-flip identity (Q_k, P_k) = (P_{n-1-k}, Q_{n-1-k}) up to relabelling y -> n - y, and the module's A
  (`connect_the_dots` of `profile_envelope`'s forward and reverse halves) dominates every (P_k, Q_k) with
  k >= floor(n/2) and its reverse B every other one, at alphas below and above 1 (n = 4);
- D4: the programme's W_T (`compose_directional`) is >= the exact adaptive worst case V_T at n = 3, T = 2 and 3
  (D1's recursion; at n = 2, T = 2 it equals the supremum over every adaptive strategy, enumerated), and the reversal identity H_a(P || Q) = 1 - a + a H_{1/a}(Q || P) on the two-round product laws.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from math import comb

import numpy as np

from ..framework import CheckFailed, proof_check, require
from ...reference.composition.connect_the_dots import DominatingPair, connect_the_dots
from ...reference.composition.directional_rounds import compose_directional
from ...reference.composition.mechanism_rounds import profile_envelope

BINARY = "compose.binary_rr"
KEEP = Fraction(3, 4)  # binary RR with e^eps0 = 3
Law = list[Fraction]
Pair = tuple[Law, Law]


def _convolve(a: Law, b: Law) -> Law:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _binomial(count: int, prob: Fraction) -> Law:
    return [comb(count, x) * prob**x * (1 - prob) ** (count - x) for x in range(count + 1)]


def _forward(n: int, k: int) -> Pair:
    """(P_k, Q_k): the count of ones among n shuffled reports, user 1 holding 1 vs 0, k ones among the others."""
    others = _convolve(_binomial(k, KEEP), _binomial(n - 1 - k, 1 - KEEP))
    return _convolve([1 - KEEP, KEEP], others), _convolve([KEEP, 1 - KEEP], others)


def _family(n: int) -> list[Pair]:
    """Every ordered neighbouring pair of one round (both directions of every k)."""
    out = []
    for k in range(n):
        p, q = _forward(n, k)
        out += [(p, q), (q, p)]
    return out


def _hockey(p: Law, q: Law, alpha: Fraction) -> Fraction:
    return sum((max(x - alpha * y, Fraction(0)) for x, y in zip(p, q, strict=True)), Fraction(0))


def _profile(family: list[Pair], alpha: Fraction) -> Fraction:
    return max(_hockey(p, q, alpha) for p, q in family)


def _adaptive_product(first: Pair, second: list[Pair]) -> Pair:
    """The two-round laws (flattened over (y1, y2)) when the second round's pair is second[y1]."""
    p1, q1 = first
    p = [p1[y] * x for y in range(len(p1)) for x in second[y][0]]
    q = [q1[y] * x for y in range(len(q1)) for x in second[y][1]]
    return p, q


def _pair_curve(pair: DominatingPair, alpha: float) -> float:
    """H_alpha(A) from the pair's outward-rounded masses (Q'-masses at the exact grid losses, P' = e^loss Q')."""
    losses = pair.index * pair.step
    return float(pair.inf_mass + np.sum(np.maximum(pair.q_mass * (np.exp(losses) - alpha), 0.0)))


def _reverse_curve(pair: DominatingPair, alpha: float) -> float:
    """H_alpha(B), B = (Q', P'), through the reversal identity: 1 - alpha + alpha H_{1/alpha}(A)."""
    return 1 - alpha + alpha * _pair_curve(pair, 1 / alpha)


def _pair_a(n: int) -> DominatingPair:
    """The module's A for n users at e^eps0 = 3: connect the dots of the forward half with the reverse half as the
    reversed family's values (mechanism_rounds, U5)."""
    env = profile_envelope("binary_rr", eps0=math.log(3), n=n)
    if env.forward is None or env.reverse is None:
        raise CheckFailed("a binary-RR envelope carries both halves (U5)")
    return connect_the_dots(env.step, env.nodes, env.forward, eps0=math.log(3), h_reverse=env.reverse)


ALPHAS = [Fraction(i, 8) for i in range(1, 33)]  # (0, 4], below and above 1


@proof_check(BINARY, "D1: chain rule of the hockey-stick divergence on a two-round adaptive example (outputs of P1- and Q1-mass 0, 32 alphas)")
def _chain_rule() -> None:
    # First round: 4 outputs, the third has Q1-mass 0, the fourth P1-mass 0.
    first = ([Fraction(1, 2), Fraction(1, 4), Fraction(1, 4), Fraction(0)], [Fraction(1, 3), Fraction(1, 2), Fraction(0), Fraction(1, 6)])
    pairs = _family(3)
    # Chosen by y1 (adaptive): (P_0, Q_0) after y1 = 0, its reverse (a different profile) after y1 = 1.
    second = [pairs[0], pairs[1], pairs[3], pairs[4]]
    p, q = _adaptive_product(first, second)
    require(sum(p) == 1 and sum(q) == 1, "the product laws are distributions")
    p1, q1 = first
    for alpha in ALPHAS:
        chained = sum((p1[y] * _hockey(*second[y], alpha * q1[y] / p1[y]) for y in range(4) if p1[y] > 0), Fraction(0))
        require(_hockey(p, q, alpha) == chained, f"alpha={alpha}: H of the product {_hockey(p, q, alpha)} != chained sum {chained}")
    require(_hockey(*second[2], Fraction(0)) == 1, "H_0 = 1 (the output of Q1-mass 0)")


# A fixed stochastic matrix with rows summing to 1 (4 outputs of shuffled binary RR at n = 3 -> 3 outputs).
KERNEL = [[Fraction(5, 11), Fraction(4, 11), Fraction(2, 11)], [Fraction(1, 7), Fraction(3, 7), Fraction(3, 7)],
          [Fraction(2, 13), Fraction(0), Fraction(11, 13)], [Fraction(9, 10), Fraction(1, 20), Fraction(1, 20)]]


def _push(law: Law) -> Law:
    return [sum((law[y] * KERNEL[y][z] for y in range(len(law))), Fraction(0)) for z in range(len(KERNEL[0]))]


@proof_check(BINARY, "D2: the worst-case profile is midpoint convex in alpha, and sum_y P phi(Q/P) (phi from it) does not grow under a stochastic matrix (n = 3)")
def _convexity_and_data_processing() -> None:
    family = _family(3)
    require(all(sum(row) == 1 and min(row) >= 0 for row in KERNEL), "the matrix is stochastic")
    grid = [Fraction(i, 16) for i in range(0, 65)]  # [0, 4], equispaced (midpoints are grid points)
    values = [_profile(family, a) for a in grid]
    for i in range(len(grid)):
        for j in range(i + 2, len(grid), 2):
            mid = values[(i + j) // 2]
            require(2 * mid <= values[i] + values[j], f"V({grid[(i + j) // 2]}) above the chord of {grid[i]}, {grid[j]}")

    def functional(p: Law, q: Law, c: Fraction) -> Fraction:
        # P(y) = 0 contributes nothing (phi is bounded, so the perspective's limit is 0), as in D1.
        return sum((x * _profile(family, c * y / x) for x, y in zip(p, q, strict=True) if x > 0), Fraction(0))

    for p, q in family[::2] + [family[1]]:
        for c in (Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3)):
            before, after = functional(p, q, c), functional(_push(p), _push(q), c)
            require(after <= before, f"c={c}: data processing fails ({after} > {before})")


@proof_check(BINARY, "D3: bit flip (Q_k, P_k) = (P_{n-1-k}, Q_{n-1-k}) relabelled; A dominates k >= floor(n/2), its reverse the others (n = 4, 32 alphas)")
def _directional_domination() -> None:
    n = 4
    for k in range(n):
        p, q = _forward(n, k)
        pf, qf = _forward(n, n - 1 - k)
        require(q[::-1] == pf and p[::-1] == qf, f"k={k}: the bit flip does not map (Q_k, P_k) to (P_(n-1-k), Q_(n-1-k))")
    pair = _pair_a(n)
    for k in range(n):
        p, q = _forward(n, k)
        curve = _pair_curve if k >= n // 2 else _reverse_curve
        for alpha in ALPHAS:
            exact = float(_hockey(p, q, alpha))
            value = curve(pair, float(alpha))
            # e^eps0 of the float log(3) is 3 within 1e-15 relative: a 1e-9 relative slack covers it.
            require(value >= exact * (1 - 1e-9) - 1e-15, f"k={k}, alpha={alpha}: {'A' if k >= n // 2 else 'B'} gives {value} < {exact}")


def _recursive_worst(family: list[Pair], rounds: int, alpha: Fraction) -> Fraction:
    """V_rounds(alpha) by D1's recursion: V_0(a) = (1 - a)_+, V_t(a) = max over the first round's pair of
    sum_{P(y) > 0} P(y) V_{t-1}(a Q(y)/P(y))."""
    if rounds == 0:
        return max(1 - alpha, Fraction(0))
    return max(sum((x * _recursive_worst(family, rounds - 1, alpha * y / x) for x, y in zip(p, q, strict=True) if x > 0), Fraction(0))
               for p, q in family)


def _enumerated_worst_two_rounds(family: list[Pair], alpha: Fraction) -> Fraction:
    """V_2(alpha) as a supremum over every adaptive strategy (a first pair, then a pair for each first output):
    the maximum of H_alpha of the product laws, enumerated (independent of D1)."""
    best = Fraction(0)
    outputs = len(family[0][0])
    for first in family:
        # The second choice may differ per y1: the product's H_alpha is the sum over y1 of separate terms,
        # but here the whole product is formed for every strategy (no use of that separability).
        for second in itertools.product(family, repeat=outputs):
            best = max(best, _hockey(*_adaptive_product(first, list(second)), alpha))
    return best


@proof_check(BINARY, "D4: the programme's W_T >= the exact adaptive worst case V_T (n = 3, T = 2 and 3; D1's recursion = the enumerated supremum at n = 2) and the reversal identity")
def _programme_above_worst_case() -> None:
    n = 3
    family = _family(n)
    pair = _pair_a(n)
    # The enumeration at n = 2 (4 ordered pairs, 3 outputs: 256 strategies; at n = 3 it takes a second per alpha).
    small = _family(2)
    for alpha in (Fraction(1, 3), Fraction(1), Fraction(2)):
        enumerated = _enumerated_worst_two_rounds(small, alpha)
        require(enumerated == _recursive_worst(small, 2, alpha), f"alpha={alpha}: D1's recursion != the enumerated V_2 (n = 2)")
    step = pair.step
    points = {2: (-0.5, 0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0), 3: (-0.5, 1.0, 2.0)}  # T = 3's recursion: 0.2 s a point
    for rounds in (2, 3):
        composed = compose_directional(pair, rounds=rounds, step=step, lo=-math.ceil(6 / step), hi=math.ceil((rounds * math.log(3) + 1) / step))
        for eps in points[rounds]:
            # V_T is non-increasing in alpha: V_T at a rational just below e^eps bounds V_T(e^eps) from above
            # (a wider gap than 1e-15 would itself move V_T by more than the programme's slack near alpha = 1).
            alpha = Fraction(math.exp(eps)) * (1 - Fraction(1, 10**15))  # libm exp: within 1 ulp
            exact = _recursive_worst(family, rounds, alpha)
            value = composed.delta(eps)
            require(value >= float(exact) * (1 - 1e-9), f"T={rounds}, eps={eps}: W_T {value} < V_T {float(exact)}")
    first = (family[0][0], family[0][1])
    p, q = _adaptive_product(first, [family[3], family[0], family[5], family[2]])
    for alpha in ALPHAS[::3]:
        require(_hockey(p, q, alpha) == 1 - alpha + alpha * _hockey(q, p, 1 / alpha), f"alpha={alpha}: reversal identity")
