"""Proof checks for the blanket-envelope compositions (compose.laplace, compose.finite, compose.randomizer;
shuffle_spec.reference.composition.blanket_rounds, module doc B1-B4). B2-B4 are the steps of the mechanism
compositions (proofs_checks/derived/compose_mechanism.py: C1-C5 of connect the dots, on exact instances); the new
step is B1, the envelope, checked here on exact instances:

- B1 (finite matrix): BBGN19 Lemma 5.3's certified upper end at a node is >= the exact worst-case profile
  delta*(eps) of the shuffled matrix over EVERY neighbouring pair of datasets (full enumeration in Fractions,
  `reference.finite.shuffling`), for a 3 x 3 matrix that is not k-RR, n = 3, at every third node of its envelope;
- B1 + B2 (finite matrix): the round's dominating pair dominates that exact profile at 13 alphas in (0, 5]
  (alpha < 1 through C2: the relation is symmetric);
- B1 + B2 (structured randomizer, rounded parameter): the OUE pair (d = 3, e^eps0 rounded up as the reference
  builds it) dominates the exact profile of the same rational mechanism (its 3 x 8 matrix, n = 2), and the
  mechanism at the TRUE e^1 (a rational just below the rounded one, the post-processing argument of B1) has a
  profile at most the rounded one's at those alphas.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..framework import proof_check, require
from ...reference.composition.blanket_rounds import BlanketRound, round_dominating_pair, round_envelope
from ...reference.finite.randomizers import Randomizer
from ...reference.finite.shuffling import exact_shuffled_delta
from ...reference.randomizers.unary import UnaryEncoding, optimized_unary_encoding

FINITE = "compose.finite"
RANDOMIZER = "compose.randomizer"
# Rows proportional to (4, 2, 1), cyclically shifted: LDP ratio 4, not k-RR (three distinct values per row).
MATRIX = [[Fraction(4, 7), Fraction(2, 7), Fraction(1, 7)], [Fraction(1, 7), Fraction(4, 7), Fraction(2, 7)], [Fraction(2, 7), Fraction(1, 7), Fraction(4, 7)]]
N = 3
ALPHAS = [Fraction(i, 10) for i in range(1, 51)]  # (0, 5]


def _profile(randomizer: Randomizer, alpha: Fraction, n: int = N) -> Fraction:
    """delta*(alpha) over every ordered neighbouring pair of n users (both directions; C2 below alpha = 1)."""
    if alpha >= 1:
        return Fraction(exact_shuffled_delta(randomizer, n, alpha))
    return 1 - alpha + alpha * Fraction(exact_shuffled_delta(randomizer, n, 1 / alpha))


def _pair_curve(pair: object, alpha: Fraction) -> float:
    losses = pair.index * pair.step  # type: ignore[attr-defined]
    return float(pair.inf_mass + np.sum(np.maximum(pair.q_mass * (np.exp(losses) - float(alpha)), 0.0)))  # type: ignore[attr-defined]


@proof_check(FINITE, "B1: the Lemma 5.3 envelope is >= the exact worst-case profile at every third node (3 x 3 matrix, not k-RR, n = 3, full enumeration)")
def _matrix_envelope_above_profile() -> None:
    randomizer = Randomizer.from_matrix(MATRIX)
    env = round_envelope(BlanketRound("matrix", None, N, matrix=MATRIX))
    require(len(env.nodes) >= 8, f"{len(env.nodes)} nodes")
    for eps, upper in zip(env.nodes[::3], env.upper[::3], strict=True):
        # e^eps is irrational: the exact profile at a rational alpha just below e^eps is >= delta*(eps)
        # (non-increasing), so the check is the stronger one.
        alpha = Fraction(float(np.exp(eps))) * Fraction(999999, 1000000)
        exact = _profile(randomizer, max(alpha, Fraction(1)))
        require(upper >= float(exact), f"eps={eps}: envelope {upper} < exact delta* {float(exact)}")


@proof_check(FINITE, "B1 + B2: the matrix round's dominating pair dominates the exact profile at 13 alphas in (0, 5] (n = 3)")
def _matrix_pair_dominates() -> None:
    randomizer = Randomizer.from_matrix(MATRIX)
    pair = round_dominating_pair(BlanketRound("matrix", None, N, matrix=MATRIX))
    for alpha in ALPHAS[::4]:
        exact = float(_profile(randomizer, alpha))
        value = _pair_curve(pair, alpha)
        require(value >= exact * (1 - 1e-12), f"alpha={alpha}: pair {value} < exact delta* {exact}")


def _oue_rows(encoding: UnaryEncoding) -> Randomizer:
    return Randomizer.from_matrix(encoding.rows())


@proof_check(RANDOMIZER, "B1 + B2: the OUE round's pair (d = 3, e^eps0 rounded up) dominates the exact profile of that mechanism and of one at a smaller e^eps0 (n = 2, 5 alphas)")
def _structured_pair_dominates() -> None:
    rounded = optimized_unary_encoding(1.0, 3, side="upper")
    smaller = optimized_unary_encoding(1.0, 3, side="lower")
    require(smaller.q > rounded.q, "the lower side has a smaller e^eps0 (a larger q)")
    # n = 2: the rounded parameters' exact rationals are long, and the enumeration grows fast with n.
    pair = round_dominating_pair(BlanketRound("oue", 1.0, 2, d=3))
    exact_rounded, exact_smaller = _oue_rows(rounded), _oue_rows(smaller)
    for alpha in ALPHAS[::10]:
        top = _profile(exact_rounded, alpha, 2)
        require(_profile(exact_smaller, alpha, 2) <= top, f"alpha={alpha}: the smaller e^eps0's profile is above the rounded one's (post-processing)")
        value = _pair_curve(pair, alpha)
        require(value >= float(top) * (1 - 1e-12), f"alpha={alpha}: pair {value} < exact delta* {float(top)}")
