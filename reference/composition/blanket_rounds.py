"""Mechanism-specific certified composition of shuffled rounds for the randomizers whose single round is certified
by BBGN19 Lemma 5.3 evaluated exactly on a blanket decomposition: the Laplace mechanism on [0, 1]
(`compose.laplace`), any finite randomizer matrix (`compose.finite`) and the structured randomizers of
`reference/randomizers/` (`compose.randomizer`: symmetric RAPPOR, OUE, BLH, OLH, Hadamard response, k-subset
selection, the piecewise mechanism; Duchi et al.'s mechanism through binary randomized response). A schedule may mix them, and mix them
with binary RR and k-RR rounds (`mechanism_rounds`), with different eps0 and n per round.

Neighbouring relation: replace one user's input, n fixed (symmetric), in every round; over T rounds the
neighbouring datasets differ in one user's inputs (any of its T inputs may change). The upper bound is valid
under ADAPTIVE composition: each round's input may be chosen after seeing the earlier rounds' outputs.

Upper bound (steps B1-B4; the new step B1 is checked in `proofs_checks/derived/compose_blanket.py`, B2-B4 are
steps U2-U4 of `mechanism_rounds`, checked in `proofs_checks/derived/compose_mechanism.py`):

B1 Envelope. h_i >= delta*(eps_i) := sup over ordered neighbouring pairs of datasets of
   H_{e^eps_i}(M(D) || M(D')) of one round, at nodes eps_i = i h (h a power of 2). BBGN19 Lemma 5.3 bounds
   H_{e^eps}(M(D) || M(D')) for EVERY pair of neighbouring datasets (user 1 at x vs x', any inputs of the others)
   by the Lemma's expression for the ordered pair of inputs (x, x'); each evaluator returns a certified interval
   of that expression (of its maximum over the pairs (x, x') it covers), and h_i is that interval's UPPER end:
   - Laplace on [0, 1]: `reference.bounds.blanket_exact_laplace.exact_blanket_laplace_delta` (statement
     BBGN19.Lem5.3.exact_laplace; the pair (0, 1) is the worst pair for every eps, proven there);
   - a finite matrix: `reference.bounds.blanket_exact_randomizer.exact_blanket_randomizer_delta` (the maximum
     over every ordered pair of rows; statement BBGN19.Lem5.3.exact_randomizer), evaluated node by node
     (`_MatrixNodes`): each pair's value is the smaller of its lattice path's and its batched FFT's certified upper
     ends (`blanket_pair_fft_delta`; pairs with more than 3 groups have the FFT only), and a pair is not evaluated
     (or, with at most 3 groups, not by its dear lattice path) where an upper bound of its delta at the node, its
     certified value at a smaller eps (delta is non-increasing in eps) or its FFT value, is already at most the
     node's maximum; so each node's value is that maximum or lower and still an upper bound;
   - a structured randomizer: `reference.randomizers.structured.structured_blanket_delta` over the mechanism's
     `replace_pairs()` (each module proves its list covers every ordered pair). The mechanism is built with
     e^eps0 rounded UP to a rational (`side="upper"`): the mechanism at the true e^eps0 is a post-processing of
     it (one channel per report; module docs of `unary`, `local_hashing`, `hadamard`, `subset_selection`), so
     its delta* is at most the rounded one's at every eps;
   - the piecewise mechanism (Wang et al., ICDE 2019): the same evaluation over its worst pair (-1, 1) and the
     mirror (1, -1) (`reference.randomizers.piecewise`, statement BBGN19.Lem5.3.exact_piecewise: the pair
     (-1, 1) dominates every (t, t') in the convex order at EVERY eps, and h = e^(eps0/2) rounded UP to a rational
     only raises Lemma 5.3's value at every eps >= 0, both proven there), so the upper end is an upper bound of
     delta* at each node; its LDP level bound is the rounded-up log of the rational e0 = h^2;
   - Duchi et al.'s mechanism: every neighbouring pair's profile is at most binary RR's worst-case profile at
     every eps (module doc of `reference.randomizers.duchi`, step (2)), so binary RR's envelope
     (`mechanism_rounds.profile_envelope`) is one for it.
   The nodes run from 0 until the upper end falls below a floor (far below delta / rounds) or reaches the
   round's eps0 bound e0 (a float >= the LDP level of the mechanism analysed), where delta* = 0 (an e0-LDP
   randomizer is e0-DP after shuffling). Where the nodes stop only affects tightness.
B2 Dominating pair: `connect_the_dots` (C1-C5 there) turns the h_i and the node e0 into an explicit pair
   (P', Q') with H_alpha(M(D) || M(D')) <= H_alpha(P' || Q') at every alpha > 0 and every ordered neighbouring
   pair. A subset of the nodes (a coarser grid when the FFT window needs it) gives a pair that still dominates.
B3 Composition: dominating pairs compose under adaptive composition (Zhu, Dong, Wang 2022, Thm 10; Dong, Roth,
   Su 2019): the product of the rounds' pairs dominates the schedule; the certified FFT engine
   (`reference/numerics/pld.py`) bounds the product's delta(eps) from above.
B4 eps(delta): `solve_epsilon` on that certified upper curve; never above sum_r e0_r (basic composition).
   With `generic=True` (the default) the FMT21 clone pair's certified composition (`compose.clones`, valid for
   every eps0-LDP round) is computed too and the smaller of the two certified upper ends is returned (the note
   says which): the minimum of two upper bounds is one.
Lower end (`blanket_lower`): the rounds' explicit neighbouring pairs (binned for Laplace, a matrix and the structured
randomizers), fixed over the rounds, composed by the optimistic path of the engine (`explicit_pairs`): a certified
LOWER bound on the same worst case, so the interval contains the truth.

Speed: the envelope costs one certified Lemma 5.3 evaluation per node (16-40 nodes, plus 6-8 to place them):
Laplace ~0.02-0.1 s each (its tilted lattice FFT); a matrix or a structured randomizer one blanket sum per ordered
pair (of distinct groups, not skipped), each over the blocks of the blanket size N: at most 3 groups, the lattice
sums of all blocks in one batched call (0.04 s per pair at n = 100, 0.3-0.6 s at n = 1e3..1e6: the blocks get
fewer as their N grow; the sizes where two positive coefficients cancel in it, and the whole sum where the FFT
settles a pair, by one batched FFT); a matrix's pairs with more groups one batched FFT for all blocks
(`reference.bounds.blanket_powers`: 5-20 ms at n <= 1e3, 40-90 ms at n = 1e4..1e6); a structured randomizer's
(subset selection) one randomized-rounding FFT per block (0.05 s at n = 100, 0.1-0.6 s beyond). Measured CPU of
one envelope (load average 10-12 on the 2-core machine; benchmarks/MATRIX_ROUNDS.md): a 3 x 3 matrix 16-17 s at
n = 1e3 (27 s with a per-size FFT for the cancelled sizes, 93 s before the batched lattice sums), 12-13 s at
n = 1e4..1e6; the 10 x 10 matrix of benchmarks/matrix_rounds.py 1.6 s at n = 1e3, 2.9 s at 1e4, 7.5 s at 1e6
(29-63 s per size); subset selection (d = 100) 8 s at n = 1e4.
`envelope_seconds` estimates it from the blanket sizes and pairs alone (the front door's test). The envelope is
cached per (mechanism, parameters, n, floor); the composition itself is one FFT (milliseconds to a second)
whatever T is. Written by hand: no library composes certified upper envelopes of a privacy profile (module docs
of `connect_the_dots` and `pld`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Callable, Sequence

import numpy as np

from ..bounds.blanket_exact_laplace import MAX_EPS0 as LAPLACE_MAX_EPS0
from ..bounds.blanket_exact_laplace import MAX_N as LAPLACE_MAX_N
from ..bounds.blanket_exact_laplace import exact_blanket_laplace_delta
from ..bounds.blanket_exact_randomizer import MAX_N as MATRIX_MAX_N
from ..bounds.blanket_powers import mixture_points
from ..bounds.blanket_exact_randomizer import (
    FiniteRandomizer, Groups, PairProfiles, blanket_pair_delta, blanket_pair_fft_delta, finite_randomizer, pair_groups, product_form,
)
from ..core.errors import ParameterError, require_integer, require_positive, require_probability
from ..core.limits import COMPOSE_EPS0_MAX, COMPOSE_ROUNDS_MAX
from ..core.parameters import check_eps0, check_n, check_rounds
from ..core.results import NO_AMPLIFICATION, NO_COMPOSITION_GAIN, BoundValue
from ..numerics.lattice_sums import binomial_law, binomial_window, blocking_offsets
from ..numerics.pld import ComposedPLD, GridPLD, compose
from ..randomizers.common import MAX_N as STRUCTURED_MAX_N
from ..randomizers.common import check_domain, eps0_rounded_up
from ..randomizers.hadamard import hadamard_response
from ..randomizers.local_hashing import local_hashing, olh_range
from ..randomizers.piecewise import piecewise_mechanism
from ..randomizers.structured import BlanketPair, structured_blanket_delta
from ..randomizers.subset_selection import optimal_subset_size, subset_selection
from ..randomizers.unary import optimized_unary_encoding, symmetric_rappor
from .blanket_lower import blanket_lower_delta, blanket_lower_epsilon
from .connect_the_dots import DominatingPair, connect_the_dots
from .mechanism_rounds import MAX_N as MECHANISM_MAX_N
from .mechanism_rounds import profile_envelope
from .schedule import checked_schedule
from .solve import UNEVALUATED_BY_DEADLINE, before_deadline, composition_tail, refinement_within, small_delta, upper_curve_epsilon

__all__ = [
    "MECHANISMS",
    "STRUCTURED",
    "BlanketRound",
    "RoundEnvelope",
    "round_envelope",
    "envelope_seconds",
    "round_dominating_pair",
    "composed_epsilon",
    "composed_delta",
    "compose_laplace",
    "compose_finite",
    "compose_randomizer",
]

STRUCTURED = ("rappor", "oue", "blh", "olh", "hadamard", "subset", "duchi", "piecewise")
# Structured randomizers without a domain size (real inputs in [-1, 1]).
NO_DOMAIN = ("duchi", "piecewise")
# binary_rr and krr rounds are accepted in a schedule (their envelopes are `mechanism_rounds`').
MECHANISMS = ("laplace", "matrix") + STRUCTURED + ("binary_rr", "krr")
MIN_EPS0 = 1e-3
MAX_EPS0 = {"laplace": LAPLACE_MAX_EPS0}  # the others: COMPOSE_EPS0_MAX
MAX_N = {"laplace": LAPLACE_MAX_N, "matrix": MATRIX_MAX_N, **{name: STRUCTURED_MAX_N for name in STRUCTURED}, "duchi": MECHANISM_MAX_N["binary_rr"],
         "binary_rr": MECHANISM_MAX_N["binary_rr"], "krr": MECHANISM_MAX_N["krr"]}
MAX_ROUNDS = COMPOSE_ROUNDS_MAX
# Nodes per envelope: the step is the power of 2 just below (range of the profile) / NODES (so between NODES and
# 2 NODES nodes). Fewer than `mechanism_rounds` (64): each node is a full Lemma 5.3 evaluation here (module doc,
# Speed); the hull of fewer upper bounds still dominates, only a little looser (Laplace, T = 10..1000: 32 instead
# of 64 costs 0.2-0.5% of the composed eps, 16 costs 1.5-3%; the structured and matrix evaluations are ten times
# dearer than Laplace's, so they take 16).
NODES = {"laplace": 32}
DEFAULT_NODES = 16
# The cost model of `envelope_seconds` (uncertified: it only decides whether the front door tries an envelope), measured
# on one core of the shared 2-core machine (niced, loaded: an upper end for an idle core) per ordered pair and blanket
# block (one D_N) at n = 1e2..1e6: the batched lattice sums (at most 3 groups; the product-form sums cost less)
# 0.36-1.5 ms at N <= 600, 4 ms at N = 6e3, 8-19 ms at N = 6e4, 27-31 ms at N = 6e5, modelled as a + b sqrt(N);
# the randomized-rounding FFT (subset selection, matrices with more than 3 groups) 0.6-1.3 ms at N <= 750, 2-3 ms at
# 7e3, 9-19 ms at 7e4, 9-31 ms at 7e5, modelled as a + b (points of the FFT window: about 600 sqrt(N), at most 2^18).
# An envelope takes 18-36 evaluations (nodes and the bisection placing them).
LATTICE_BLOCK_SECONDS = (2e-4, 5e-5)
# A finite matrix's pair with more than 3 groups: one batched FFT per evaluation (`blanket_powers`), measured (one
# core, load average 10 on the 2-core machine: an upper end for an idle core) at n = 1e2..1e8 as 5-20 ms at FFT
# lengths 8k-33k (81-231 blocks), 40-45 ms at 131k (107 blocks), 50 ms at 262k (33 blocks), 80-91 ms at 524k (12
# blocks), 31-37 ms at 262k (3-5 blocks); modelled as a + L (b + blocks c), L the length at eps = 0 (above every
# one of these measurements).
MIXTURE_SECONDS = (3e-3, 1.6e-7, 2e-9)
# A finite matrix's lattice path (at most 3 groups) costs this fraction of the lattice model above: its cancelled sizes
# take one batched FFT and a pair settled by its FFT value skips the lattice (`_MatrixNodes`). The 3 x 3 circulant
# measured (load average 11-12) 0.72 s at n = 100, 5.2 s at 300, 9.3 s at 500, 15.2 s at 1e3, 26.3 s at 3e3, 11.6 s
# at 1e4, 13.7 s at 1e6 against the model's 3.8, 12.2, 19.2, 36.2, 46.1, 38.6, 39.9 s: 0.6 keeps it above each.
MATRIX_LATTICE_FACTOR = 0.6
FFT_BLOCK_SECONDS = (4e-4, 1e-7)
FFT_POINTS_PER_ROOT = 600.0
FFT_POINTS_MAX = 2.0**18
ENVELOPE_EVALUATIONS = 32
# Placing the nodes: the end of the range is bisected on certified values to this relative width.
END_TOLERANCE = 0.05
FLOOR = 1e-17
FLOOR_FRACTION = 1e-4
EPS_REL_TOL = 1e-6


@dataclass(frozen=True)
class BlanketRound:
    """`rounds` shuffled rounds of `mechanism` with local eps0 and n users. mechanism: "laplace", "matrix" (then
    `matrix`, a validated FiniteRandomizer or a row-stochastic matrix; eps0 is the matrix's own LDP epsilon and
    may be None), a structured randomizer of STRUCTURED (then `d`, the domain size, except "duchi"), or
    "binary_rr" / "krr" (then `k`)."""

    mechanism: str
    eps0: float | None
    n: int
    rounds: int = 1
    d: int | None = None
    k: int | None = None
    matrix: object = None


@dataclass(frozen=True)
class RoundEnvelope:
    """Certified upper bounds `upper[i]` of one round's worst-case profile delta*(eps) at nodes[i] = i step (B1),
    `eps0_bound` a float >= the round's LDP level (delta* = 0 there); evaluations and seconds spent."""

    step: float
    nodes: np.ndarray
    upper: np.ndarray
    eps0_bound: float
    evaluations: int
    seconds: float


# ---------------------------------------------------------------------------------------------------
# Validation.


def _validate(r: BlanketRound) -> BlanketRound:
    if not isinstance(r, BlanketRound):
        raise ParameterError("rounds", repr(r)[:60], "BlanketRound(mechanism, eps0, n, rounds, d, k, matrix) entries")
    if r.mechanism not in MECHANISMS:
        raise ParameterError("mechanism", r.mechanism, f"one of {', '.join(MECHANISMS)}")
    check_rounds(r.rounds, maximum=MAX_ROUNDS)
    check_n(r.n, maximum=MAX_N[r.mechanism], why=f"the {r.mechanism} envelope")
    matrix: FiniteRandomizer | None = None
    eps0 = r.eps0
    if r.mechanism == "matrix":
        if r.matrix is None:
            raise ParameterError("matrix", None, "a row-stochastic matrix for a matrix round")
        matrix = finite_randomizer(r.matrix)
        if eps0 is not None and float(eps0) < matrix.eps0:
            raise ParameterError("eps0", eps0, f"None or at least the matrix's LDP epsilon {matrix.eps0!r}")
        eps0 = matrix.eps0
        if not eps0 > 0:
            raise ParameterError("matrix", "an input-independent matrix", "a matrix whose output depends on the input (eps0 > 0)")
    elif r.matrix is not None:
        raise ParameterError("matrix", "given", f"no matrix for a {r.mechanism} round")
    maximum = MAX_EPS0.get(r.mechanism, COMPOSE_EPS0_MAX)
    check_eps0(eps0, maximum=maximum, why="mechanism-specific composition")
    if float(eps0) < MIN_EPS0:  # type: ignore[arg-type]
        raise ParameterError("eps0", eps0, f"{MIN_EPS0:g} <= eps0 <= {maximum:g} (mechanism-specific composition)")
    d = r.d
    if r.mechanism in STRUCTURED and r.mechanism not in NO_DOMAIN:
        if d is None:
            raise ParameterError("d", None, f"the domain size of a {r.mechanism} round, an integer 2 <= d <= 1e9")
        d = check_domain(d)
    elif d is not None:
        raise ParameterError("d", d, f"no domain size for a {r.mechanism} round")
    k = r.k
    if r.mechanism == "krr":
        require_integer("k", k, minimum=2)
        k = int(k)  # type: ignore[arg-type]
    elif r.mechanism == "binary_rr":
        if k not in (None, 2):
            raise ParameterError("k", k, "2 (or none) for binary_rr")
        k = 2
    elif k is not None:
        raise ParameterError("k", k, f"no k for a {r.mechanism} round")
    if r.mechanism == "olh":
        olh_range(float(eps0))  # type: ignore[arg-type]  # refuses eps0 > 13.8 (too many hash values)
    return BlanketRound(r.mechanism, float(eps0), int(r.n), int(r.rounds), d, k, matrix)  # type: ignore[arg-type]


def _validate_schedule(rounds: Sequence[BlanketRound]) -> list[BlanketRound]:
    return checked_schedule(rounds, _validate, entry="BlanketRound(mechanism, eps0, n, rounds, ...)")


# ---------------------------------------------------------------------------------------------------
# B1: envelopes.


def _structured_mechanism(name: str, eps0: float, d: int | None) -> tuple[list[BlanketPair], Fraction]:
    """The blanket pairs (every ordered pair of inputs, or a worst pair that dominates them all) and the exact LDP
    ratio of the mechanism built with e^eps0 rounded up (module doc, B1)."""
    if name == "piecewise":
        piecewise = piecewise_mechanism(eps0)  # h = e^(eps0/2) rounded up (module doc, B1)
        return piecewise.replace_pairs(), piecewise.e0
    if d is None:  # _validate requires it for every other structured randomizer
        raise ParameterError("d", None, f"the domain size of a {name} round, an integer 2 <= d <= 1e9")
    if name == "rappor":
        unary = symmetric_rappor(eps0, d, side="upper")
        return unary.replace_pairs(), unary.ratio
    if name == "oue":
        unary = optimized_unary_encoding(eps0, d, side="upper")
        return unary.replace_pairs(), unary.ratio
    if name in ("blh", "olh"):
        hashing = local_hashing(eps0, d, 2 if name == "blh" else olh_range(eps0))
        return hashing.replace_pairs(), hashing.ratio
    if name == "hadamard":
        hadamard = hadamard_response(eps0, d)
        return hadamard.replace_pairs(), hadamard.ratio
    subset = subset_selection(eps0, d, optimal_subset_size(eps0, d))
    return subset.replace_pairs(), subset.ratio


def _floor_for(delta: float, total_rounds: int) -> float:
    """The envelope's floor: FLOOR, or lower when delta / rounds asks for it (a power of 10, so that schedules
    share cached envelopes)."""
    want = min(FLOOR, FLOOR_FRACTION * delta / total_rounds)
    return 10.0 ** math.floor(math.log10(max(want, 1e-290)))


def _nodes(upper_at: Callable[[float], float], eps0: float, floor: float, count: int) -> tuple[float, np.ndarray, np.ndarray]:
    """Nodes i h from 0 (h a power of 2, `count` to 2 `count` of them over the range where the certified upper value is
    above `floor`) and the certified upper values there; the last one is below the floor or the nodes reach eps0.
    The range is found by bisection on certified values: it only decides where the nodes are. Only the step
    floor(log2(end / count)) depends on where the bisection ends (end = its final hi, in (lo, hi] at every stage),
    so it stops as soon as every point of (lo, hi] gives the same step: the nodes are those of the full bisection,
    with fewer evaluations."""
    lo, hi = 0.0, eps0
    if upper_at(hi * 0.999) > floor:
        end = eps0
    else:
        while hi - lo > END_TOLERANCE * hi:
            if lo > 0 and math.floor(math.log2(lo / count)) == math.floor(math.log2(hi / count)):
                break  # log2 is monotone: every end in (lo, hi] gives this step
            mid = 0.5 * (lo + hi)
            if upper_at(mid) > floor:
                lo = mid
            else:
                hi = mid
        end = hi
    step = 2.0 ** math.floor(math.log2(end / count))
    nodes, upper = [], []
    i = 0
    while i * step < eps0:
        nodes.append(i * step)
        upper.append(min(upper_at(i * step), 1.0))
        i += 1
        if upper[-1] < floor:
            break
    return step, np.array(nodes), np.array(upper)


class _MatrixNodes:
    """The matrix envelope's node values (module doc, B1): at each eps the maximum over the ordered pairs of
    min(lattice path, batched FFT) of the pair's certified Lemma 5.3 value (both upper bounds of the same delta, so
    is their minimum), or lower: a pair is not evaluated (its lattice path, the dear one) where an upper bound of
    its delta at eps is already at most the maximum found, i.e. its certified value at an evaluated eps' <= eps
    (delta is non-increasing in eps, `PairProfiles`) or its batched FFT value at eps. Pairs with more than 3
    groups take the batched FFT in either call, once."""

    def __init__(self, matrix: FiniteRandomizer, *, n: int, floor: float) -> None:
        self.matrix = matrix
        self.pairs = PairProfiles(matrix, n=n, delta_hint=floor).pairs  # one of each set of pairs with equal groups
        self.lattice = {pair: len(pair_groups(matrix, *pair)) <= 3 for pair in self.pairs}
        self.n = int(n)
        self.floor = float(floor)
        self.seen: dict[tuple[int, int], list[tuple[float, float]]] = {pair: [] for pair in self.pairs}
        self.lattice_calls = 0

    def _known(self, pair: tuple[int, int], eps: float) -> float:
        """The smallest certified upper end of the pair at an evaluated eps' <= eps (inf when none)."""
        return min((upper for at, upper in self.seen[pair] if at <= eps), default=math.inf)

    def upper(self, eps: float) -> float:
        best = 0.0
        for pair in sorted(self.pairs, key=lambda q: -self._known(q, eps)):  # never evaluated (inf) first
            if self._known(pair, eps) <= best:
                continue  # its delta at eps is at most its certified value at a smaller eps, <= best
            value = blanket_pair_fft_delta(self.matrix, *pair, n=self.n, eps=eps, delta_hint=self.floor).upper
            if self.lattice[pair] and not (best > 0 and value <= best):
                # The lattice path (tighter where it does not cancel) unless the FFT's value already settles it.
                value = min(value, blanket_pair_delta(self.matrix, *pair, n=self.n, eps=eps, delta_hint=self.floor).upper)
                self.lattice_calls += 1
            self.seen[pair].append((eps, value))
            best = max(best, value)
        return best


@lru_cache(maxsize=64)
def _envelope(r: BlanketRound, floor: float) -> RoundEnvelope:
    started = time.perf_counter()
    count = [0]
    eps0 = float(r.eps0)  # type: ignore[arg-type]
    if r.mechanism in ("binary_rr", "krr", "duchi"):
        # Duchi: binary RR's envelope bounds its profile at every eps (module doc, B1).
        env = profile_envelope("krr" if r.mechanism == "krr" else "binary_rr", eps0=eps0, n=r.n, k=r.k or 2, floor=floor)
        return RoundEnvelope(env.step, env.nodes, env.upper, eps0, env.evaluations, time.perf_counter() - started)
    if r.mechanism == "laplace":
        bound = eps0

        def value(eps: float) -> float:
            return exact_blanket_laplace_delta(eps0=eps0, n=r.n, eps=eps).upper
    elif r.mechanism == "matrix":
        matrix = r.matrix
        if not isinstance(matrix, FiniteRandomizer):  # _validate made it one
            raise ParameterError("matrix", repr(matrix)[:60], "a validated FiniteRandomizer")
        bound = matrix.eps0
        value = _MatrixNodes(matrix, n=r.n, floor=floor).upper  # skips pairs dominated (module doc, B1)
    else:
        pairs, ratio = _structured_mechanism(r.mechanism, eps0, r.d)
        bound = eps0_rounded_up(ratio)

        def value(eps: float) -> float:
            return structured_blanket_delta(pairs, n=r.n, eps=eps, delta_hint=floor).upper

    def upper_at(eps: float) -> float:
        count[0] += 1
        return value(eps)

    step, nodes, upper = _nodes(upper_at, bound, floor, NODES.get(r.mechanism, DEFAULT_NODES))
    return RoundEnvelope(step, nodes, upper, float(bound), count[0], time.perf_counter() - started)


def _pair_seconds(n: int, gamma: Fraction, groups: Groups, floor: float, *, matrix: bool = False) -> float:
    """The cost model's seconds of one certified Lemma 5.3 evaluation of one pair (`envelope_seconds`); `matrix`: a
    finite matrix's pair (`blanket_pair_delta`: more than 3 groups take the batched FFT, one per evaluation)."""
    if gamma >= 1:
        return 0.0
    law = binomial_law(gamma)
    tail = max(min(1e-30, floor * 1e-12), 1e-300)  # as `blanket_sum` with delta_hint = floor
    window = binomial_window(n - 1, law, tail)
    mean = (n - 1) * law.p
    blocks = len(blocking_offsets(window.lo, window.hi, mean, math.sqrt(max(mean * (1 - law.p), 0.0)), floor))
    root = math.sqrt(mean + 1.0)
    if matrix and len(groups) > 3:
        # The batched FFT's length at eps = 0 (the coefficients alpha - beta; the measured costs are per this length).
        points = mixture_points([float(a - b) for a, b in zip(groups.alpha, groups.beta, strict=True)], [float(p) for p in groups.p], window.lo + 1, window.hi + 1)
        return MIXTURE_SECONDS[0] + points * (MIXTURE_SECONDS[1] + blocks * MIXTURE_SECONDS[2])
    if len(groups) <= 3 or product_form(groups) is not None:
        per_block = (LATTICE_BLOCK_SECONDS[0] + LATTICE_BLOCK_SECONDS[1] * root) * (MATRIX_LATTICE_FACTOR if matrix else 1.0)
    else:
        per_block = FFT_BLOCK_SECONDS[0] + FFT_BLOCK_SECONDS[1] * min(FFT_POINTS_PER_ROOT * root, FFT_POINTS_MAX)
    return blocks * per_block


def envelope_seconds(r: BlanketRound, *, floor: float = FLOOR) -> float:
    """Uncertified: the estimated CPU seconds (one core) of the profile envelope of a matrix round or a structured
    randomizer's round (B1: about ENVELOPE_EVALUATIONS certified Lemma 5.3 evaluations, each one blanket sum per
    ordered pair of distinct groups, each block of the sum one D_N), from the blanket sizes and pairs alone (no
    evaluation). It only decides whether a caller (the front door, `interface/certify.py`) tries the envelope,
    never a number. Range: a BlanketRound of "matrix" or a STRUCTURED
    mechanism (as `composed_epsilon`); floor in (0, 1e-6]."""
    r = _key(_validate(r))
    _check_floor(floor)
    if r.mechanism not in ("matrix",) + STRUCTURED:
        raise ParameterError("mechanism", r.mechanism, f"matrix or one of {', '.join(STRUCTURED)} (the envelopes with a cost model)")
    if r.mechanism == "duchi":
        return 0.0  # binary RR's envelope (module doc, B1): a few lattice sums
    if r.mechanism == "matrix":
        matrix = finite_randomizer(r.matrix)
        profiles = PairProfiles(matrix, n=r.n)
        pairs = [(matrix.gamma, pair_groups(matrix, *pair)) for pair in profiles.pairs]
    else:
        structured, _ = _structured_mechanism(r.mechanism, float(r.eps0), r.d)  # type: ignore[arg-type]
        pairs = [(pair.gamma, pair.groups) for pair in structured]
    return ENVELOPE_EVALUATIONS * sum(_pair_seconds(r.n, gamma, groups, float(floor), matrix=r.mechanism == "matrix") for gamma, groups in pairs)


def _check_floor(floor: float) -> None:
    require_probability("floor", floor)
    if floor > 1e-6:
        raise ParameterError("floor", floor, "0 < floor <= 1e-6")


def round_envelope(r: BlanketRound, *, floor: float = FLOOR) -> RoundEnvelope:
    """Certified upper bounds of one shuffled round's worst-case privacy profile delta*(eps) (replace-one) at grid
    nodes (module doc, B1). Ranges: as `composed_epsilon`; floor in (0, 1e-6]."""
    r = _key(_validate(r))
    _check_floor(floor)
    return _envelope(r, float(floor))


@lru_cache(maxsize=256)
def _pair_on(r: BlanketRound, floor: float, step: float) -> DominatingPair:
    """B2 on a grid step >= the envelope's (nodes at multiples of `step` only: each value is still an upper bound
    at its node, so the pair still dominates, only coarser)."""
    env = _envelope(r, floor)
    stride = max(int(round(step / env.step)), 1)
    keep = np.arange(0, len(env.nodes), stride)
    return connect_the_dots(env.step * stride, env.nodes[keep], env.upper[keep], eps0=env.eps0_bound)


def round_dominating_pair(r: BlanketRound, *, floor: float = FLOOR) -> DominatingPair:
    """A dominating pair of one shuffled round (module doc, B1-B2; replace-one): for every ordered pair of
    neighbouring datasets and every alpha > 0, H_alpha(M(D) || M(D')) <= H_alpha(P' || Q'). Ranges: as
    `round_envelope`."""
    env = round_envelope(r, floor=floor)
    return _pair_on(_key(_validate(r)), float(floor), env.step)


# ---------------------------------------------------------------------------------------------------
# B3-B4: composition.


def _key(r: BlanketRound) -> BlanketRound:
    """The round without its count (envelopes do not depend on it)."""
    return BlanketRound(r.mechanism, r.eps0, r.n, 1, r.d, r.k, r.matrix)


def _composed_upper(rounds: list[BlanketRound], delta_or_floor: float, tail: float) -> ComposedPLD:
    total = sum(r.rounds for r in rounds)
    floor = _floor_for(delta_or_floor, total)
    keys = [_key(r) for r in rounds]
    envelopes = [_envelope(key, floor) for key in keys]
    step = min(e.step for e in envelopes)
    for _ in range(40):
        grids: list[GridPLD] = []
        for key, env in zip(keys, envelopes, strict=True):
            pair = _pair_on(key, floor, max(step, env.step))
            grids.append(pair.grid_pld(step))
        try:
            return compose(grids, [r.rounds for r in rounds], tail=tail)
        except ParameterError:
            step *= 2  # the FFT window is too wide: coarser nodes still dominate (`_pair_on`)
    raise ParameterError("rounds", total, "a composition whose loss window fits the FFT")


def _generic_epsilon(rounds: list[BlanketRound], delta: float) -> float | None:
    """compose.clones' certified upper end for the same schedule (every round eps0-LDP at its eps0 bound), or None
    where the clone composition refuses (eps0 > 30)."""
    from .shuffled_rounds import Round, composed_epsilon as clones_epsilon  # lazy: heavy, and only for this

    try:
        value = clones_epsilon([Round("clones", float(r.eps0), r.n, r.rounds) for r in rounds], delta=delta)  # type: ignore[arg-type]
    except ParameterError:
        return None
    return float(value.upper)


def composed_epsilon(rounds: Sequence[BlanketRound], *, delta: float, generic: bool = True, lower: bool = True, deadline: float | None = None) -> BoundValue:
    """compose.laplace / compose.finite / compose.randomizer: a certified upper bound on eps(delta) after the rounds
    (heterogeneous allowed, binary_rr and krr rounds included; replace-one relation; valid under adaptive
    composition), module doc B1-B4. `generic`: also compose FMT21's clone pair and return the smaller certified
    upper end (the note says which). The interval's lower end is the certified lower bound of the composed explicit
    pairs (`blanket_lower`; 0 with lower=False or when none could be composed, the note says which). `deadline` (a
    `time.monotonic()` value, None: none): those pairs are a refinement, not started after it and dropped when the
    caller's limit interrupts them at it (`solve`, A caller's deadline: the lower end is then 0 and the note says so).
    Supported: 1e-3 <= eps0 <= 30 (Laplace <= 8; a matrix: its own LDP epsilon), n <= 1e6 (Laplace), 1e8
    (matrix, structured, k-RR), 1e7 (binary RR, Duchi); d in [2, 1e9] for the structured randomizers (OLH: eps0
    <= 13.8); total rounds <= 1e6; 0 < delta < 1."""
    rounds = _validate_schedule(rounds)
    require_probability("delta", delta)
    result = upper_curve_epsilon(_composed_upper(rounds, delta, composition_tail(delta)), delta=delta, rel_tol=EPS_REL_TOL)
    upper = float(result.upper)
    note = result.note.replace(NO_AMPLIFICATION, NO_COMPOSITION_GAIN)
    if generic:
        clones = _generic_epsilon(rounds, delta)
        if clones is not None and clones < upper:
            note = f"the generic clone pair (compose.clones) certifies less than the mechanism's own envelope ({upper!r}): its value is returned"
            upper = clones
    dropped: tuple[float, str | None] = (0.0, None)  # the deadline dropped the lower end's pairs
    low, which = refinement_within(lambda: blanket_lower_epsilon(rounds, delta=delta), deadline, dropped) if lower else (0.0, "")
    low = min(low, upper)
    if upper > 0:
        if which is None:
            end = f"lower end 0: {UNEVALUATED_BY_DEADLINE}"
        else:
            end = f"lower end: composed explicit dataset pairs, the largest {which}" if which else "lower end 0 (no lower bound evaluated)"
        note = f"{note}; {end}" if note else end
    return BoundValue(low, upper, note, direction="upper_bound")


def composed_delta(rounds: Sequence[BlanketRound], *, eps: float, deadline: float | None = None) -> BoundValue:
    """A certified interval of the worst-case delta(eps) after the rounds: the upper end from the composed dominating
    pairs (B1-B3), the lower end the largest certified lower end of delta(eps) over the composed explicit dataset
    pairs (`blanket_lower`; 0 with a note saying so when none could be composed). `deadline` (a `time.monotonic()`
    value, None: none): the small-delta recompositions and the lower end's pairs do not start after it and are dropped
    when the caller's limit interrupts them at it (`solve`, A caller's deadline: the certified upper end stands; a
    lower end dropped is 0 and the note says so). eps >= 0; ranges as composed_epsilon."""
    rounds = _validate_schedule(rounds)
    require_positive("eps", eps, allow_zero=True)
    # Below delta 1e-10 also composed for smaller targets and tilted (solve.small_delta).
    _, upper, _ = small_delta(lambda d: (_composed_upper(rounds, d, composition_tail(d)), None), (_composed_upper(rounds, 1e-6, 1e-18), None), eps=float(eps),
                              deadline=deadline)
    hint = min(max(upper, 1e-300), 0.5)
    low, which = refinement_within(lambda: blanket_lower_delta(rounds, eps=float(eps), delta_hint=hint), deadline, (0.0, ""))
    if not which:
        why = "no explicit composed pair could be evaluated for these rounds" if before_deadline(deadline) else UNEVALUATED_BY_DEADLINE
        return BoundValue(0.0, upper, f"lower end 0: {why}", direction="upper_bound")
    return BoundValue(min(low, upper), upper, f"lower end: composed explicit dataset pairs, the largest {which}", direction="upper_bound")


def compose_laplace(*, eps0: float, n: int, delta: float, rounds: int) -> BoundValue:
    """compose.laplace: certified eps(delta) after `rounds` rounds of n shuffled eps0-LDP Laplace reports on [0, 1]
    (BBGN19 Lemma 5.3 envelope, module doc; the generic clone pair's value when smaller). 1e-3 <= eps0 <= 8,
    1 <= n <= 1e6, 0 < delta < 1, 1 <= rounds <= 1e6."""
    return composed_epsilon([BlanketRound("laplace", eps0, n, rounds)], delta=delta)


def compose_finite(*, matrix: object, n: int, delta: float, rounds: int) -> BoundValue:
    """compose.finite: certified eps(delta) after `rounds` rounds of n shuffled reports of the finite randomizer
    `matrix` (k x m row-stochastic, 2 <= k <= 16, 2 <= m <= 64, its LDP epsilon in [1e-3, 30]; BBGN19 Lemma 5.3
    envelope, module doc; the generic clone pair's value when smaller). 1 <= n <= 1e8, 0 < delta < 1,
    1 <= rounds <= 1e6."""
    return composed_epsilon([BlanketRound("matrix", None, n, rounds, matrix=matrix)], delta=delta)


def compose_randomizer(*, randomizer: str, eps0: float, n: int, delta: float, rounds: int, d: int | None = None) -> BoundValue:
    """compose.randomizer: certified eps(delta) after `rounds` rounds of n shuffled reports of the structured
    randomizer `randomizer` (rappor, oue, blh, olh, hadamard, subset with the domain size d; duchi and piecewise
    without; module doc; the generic clone pair's value when smaller). 1e-3 <= eps0 <= 30 (OLH <= 13.8),
    1 <= n <= 1e8 (duchi 1e7), 2 <= d <= 1e9, 0 < delta < 1, 1 <= rounds <= 1e6."""
    if randomizer not in STRUCTURED:
        raise ParameterError("randomizer", randomizer, f"one of {', '.join(STRUCTURED)}")
    return composed_epsilon([BlanketRound(randomizer, eps0, n, rounds, d=d)], delta=delta)
