"""Certified LOWER bounds on the epsilon (and delta) of composed shuffled rounds of binary RR and k-RR: the
explicit neighbouring dataset pairs of one round, composed over the rounds with the OPTIMISTIC path of the
certified FFT engine (`reference/numerics/pld.py`): losses rounded down, masses' lower ends, aliasing,
round-off and tails subtracted. The lower end of `compose.binary_rr` / `compose.krr` (module doc of
`mechanism_rounds`, L1-L2).

Neighbouring relation: replace one user's input (n fixed) in every round; over T rounds the datasets differ in
one user's inputs (module doc of `mechanism_rounds`).

Why each composed pair is realised by ONE pair of neighbouring T-round datasets (so its exact epsilon is at most
the worst case, and its certified lower end is a lower bound on the worst case):
- binary RR, (P_k, Q_k) (`binary_rr_pairs`): user 1 holds 1 in D and 0 in D', the others hold k ones; the
  mirrored round (Q_k, P_k) is realised by the user holding 0 in D and 1 in D' with the others' bits flipped
  (flipping every bit is a bijection of the outputs under which binary RR is symmetric).
- k-RR "x0" (`krr_pairs`): user 1 holds x0 in D and x1 in D', the others x0, realises (P_x0, P_x1); the
  mirrored round (P_x1, P_x0) is realised by the user holding x0 in D and x1 in D' with the others at x1
  (exchange the labels x0 and x1: a bijection of the histograms under which k-RR is symmetric).
- k-RR "third" (`krr_pairs`): user 1 holds x0 in D and x1 in D', the others a third value; symmetric.
In every case user 1 is the only user whose inputs differ, and the other users' inputs may differ from round to
round; so a choice of pair and direction per round, any number of rounds of each, is one neighbouring pair of
T-round datasets. The product of the rounds' output laws is the law of the T-round output (independent
randomness per round), and its privacy-loss distribution is the convolution of the rounds' (composition of a
FIXED pair: no adaptivity is needed for a lower bound). The k-RR "third" pair keeps only the counts of x0, x1
and the rest: a post-processing, so its composition's delta is at most the pair's.

- k-RR "third" in diagonal blocks (`krr_pairs`, stride > 1, only where both trinomial pairs exceed their cell
  budget, `krr_pairs.MAX_CELLS`: n = 1e7 at eps0 = 2, k = 10): the third pair's counts merged into diagonal
  blocks (a post-processing of the third pair's kept counts); symmetric, as the third pair.
- k-RR "binned" (`count_pairs.krr_count_pair`, beside the blocked third pair): user 1 holds x0 in D and x1 in D',
  the others x1, every report merged into {x0} and the rest (a post-processing); the mirrored round is user 1 at
  x1 in D and x0 in D' (the same others), as for the count groups below.
- "count" groups (`count_pairs`: the rounds of Laplace, a finite matrix or a structured randomizer, `blanket_lower`):
  user 1 holds x in D and x' in D', the others z, the reports merged into 2 or 3 bins; the mirrored round is user
  1 at x' in D and x in D' (the same others). Merging is a post-processing, so the binned composition's delta is at
  most the unbinned pair's.
Candidates: binary RR, k = n - 1 - j for j in OFFSETS, a fraction f in FRACTIONS of each group's rounds in the
first direction; k-RR, the x0 pair with those fractions and the third pair (beyond their cell budget the third
pair in diagonal blocks and the binned pair with those fractions); a count group, its best-ranked
pair with those fractions and its other pairs in one direction or the other. The maximum over the candidates of
their certified lower ends is returned: each is a lower bound.

The grid: T h <= GRID_FRACTION x (a float estimate of the composed eps) (the optimistic rounding costs about
T h / 2), coarsened while the FFT window does not fit (a candidate that never fits is skipped).

Monotone in delta: the true eps(delta) is non-increasing, but each composed curve is a lower bound of delta(eps)
for EVERY eps, read at the delta asked, and the grid and tails are chosen from that delta; below the engine's
round-off floor (delta < DELTA_FLOOR = 1e-12, where the curve's certified delta is limited by the FFT's error
bound, about 1e-13 of the mass) that choice made the lower end jump up and down with delta (binary RR, eps0 = 4,
n = 1e4, T = 2: 0.7073 at 1.78e-13, 0.7227 at 3.16e-13, 0.7166 at 1e-30). `lower_epsilon` composes at
max(delta, DELTA_FLOOR) and reads the curves at delta: below the floor one set of curves serves every delta, so
eps(delta) read off them is non-increasing (up to the search's relative tolerance EPS_REL_TOL, and each curve's
certified delta is non-increasing in eps up to its round-off slack); at and above the floor nothing changes (there
the grids follow delta; no upward jump was seen on a dense delta grid from 1e-7 to 1e-5 nor at the decades
from 1e-12 to 1e-3, k-RR and binary RR at n = 1e3, 1e4).
Below the floor: those curves' own certified delta cannot go below their round-off (~1e-13 of the mass), so the
lower end stayed at its delta = 1e-12 value for every smaller delta (sound, but wide: binary RR eps0 = 1, n = 100,
T = 2: 1.0804 at 1e-15 ... 1e-100 while the upper end is 1.33 at 1e-15). Below TILT_BELOW = 1e-10 (`solve`) each candidate's
lower end is also searched on the same grids tilted at each eps judged (`solve.tilted_lower_epsilon`: the
optimistic grids tilted at the saddle of that eps, read there, each a certified lower bound of delta(eps)), from
the larger of its curves' lower end and the best candidate's so far up to the caller's upper end; the answer is
the larger, so it is never below the untilted value and keeps its monotonicity up to the grid's width. The grids
and tails are those of max(delta, DELTA_FLOOR) (their dropped top tails, at most 1e-18 / 4T per round, only lower
every delta(eps)). At delta >= 1e-10 nothing changes (there a many-round composition's round-off floor can also
be above delta, T = 1000 at 1e-9: a tilted lower search would raise binary RR eps0 = 1, n = 1e3 from 6.092 to
6.449 (upper end 6.555), at twice the time; not done).
Written by hand: no library composes lower ends of explicit pairs with certified round-off (module doc of `pld`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

from ..core.errors import ParameterError, require_positive, require_probability
from ..numerics.pld import ComposedPLD, GridPLD, compose
from ..numerics.solver import solve_epsilon
from .binary_rr_pairs import binary_rr_pair_plds
from .count_pairs import CountPair, count_pair_finest_step, count_pair_grids, count_pair_moments, krr_count_pair
from .krr_pairs import MAX_CELLS as KRR_MAX_CELLS
from .krr_pairs import PAIRS as KRR_PAIRS
from .krr_pairs import krr_pair_cells, krr_pair_finest_step, krr_pair_grids, krr_pair_moments, krr_pair_stride
from .solve import TILT_BELOW, tilted_lower_epsilon

__all__ = ["Group", "OFFSETS", "FRACTIONS", "GRID_FRACTION", "DELTA_FLOOR", "lower_delta", "lower_epsilon"]

OFFSETS = (0, 1)
FRACTIONS = (1.0, 0.5, 0.0)
GRID_FRACTION = 0.003
EPS_REL_TOL = 1e-6
# Coarsening attempts when the FFT window does not fit.
COARSENINGS = 6
# The grid and the tails of a composition asked at delta < DELTA_FLOOR are those of DELTA_FLOOR (module doc).
DELTA_FLOOR = 1e-12


@dataclass(frozen=True)
class Group:
    """`rounds` rounds of `mechanism` ("binary_rr" or "krr") with eps0, n and k (validated by the caller); or
"count": rounds of any randomizer through its candidate binned pairs `pairs` (`count_pairs`, built by
`laplace_pairs` / `finite_pairs`), eps0 its LDP level (not used by the composition)."""

    mechanism: str
    eps0: float
    n: int
    rounds: int
    k: int = 2
    pairs: tuple[CountPair, ...] = ()


@dataclass(frozen=True)
class _Option:
    """One round's pair: binary RR with offset j, or k-RR pair "x0" / "third"; `fraction` of the rounds forward."""

    pair: str
    offset: int
    fraction: float
    stride: int = 1


def _check(groups: Sequence[Group], delta: float) -> list[Group]:
    """The groups as the callers (`mechanism_rounds`) validated them: here only their kind is checked."""
    if isinstance(groups, (str, bytes)) or not isinstance(groups, Sequence) or not groups or not all(isinstance(g, Group) for g in groups):
        raise ParameterError("groups", groups, "a non-empty list of Group(mechanism, eps0, n, rounds, k)")
    if any(g.mechanism not in ("binary_rr", "krr", "count") for g in groups):
        raise ParameterError("mechanism", [g.mechanism for g in groups], "binary_rr, krr or count")
    if any(g.mechanism == "count" and (not g.pairs or not all(isinstance(p, CountPair) for p in g.pairs)) for g in groups):
        raise ParameterError("pairs", [len(g.pairs) for g in groups], "a non-empty tuple of CountPair for a count group")
    require_probability("delta", delta)
    return list(groups)


def _options(g: Group) -> list[_Option]:
    if g.mechanism == "count":
        # The first candidate (the best ranked) in every direction mix; the others forward and backward only.
        first = [_Option("count", 0, f) for f in FRACTIONS]
        return first + [_Option("count", i, f) for i in range(1, len(g.pairs)) for f in (FRACTIONS[0], FRACTIONS[-1])]
    if g.mechanism == "binary_rr" or g.k == 2:
        return [_Option("binary", j, f) for j in OFFSETS for f in FRACTIONS]
    try:
        beyond = all(krr_pair_cells(pair, eps0=g.eps0, n=g.n, k=g.k) > KRR_MAX_CELLS for pair in KRR_PAIRS)
    except ParameterError:
        beyond = False  # outside the pairs' ranges: the trinomial candidates are skipped as before
    if beyond:
        # The third pair in diagonal blocks (`krr_pairs`), and the binned pair, cheap, beside it.
        blocked = [_Option("third", 0, 1.0, krr_pair_stride("third", eps0=g.eps0, n=g.n, k=g.k))]
        return blocked + [_Option("krr_binned", 0, f) for f in FRACTIONS]
    return [_Option("x0", 0, f) for f in FRACTIONS] + [_Option("third", 0, 1.0)]


def _count_pair(g: Group, o: _Option) -> CountPair:
    """The count pair of a "count" option, or the binned k-RR pair."""
    return krr_count_pair(eps0=g.eps0, k=g.k) if o.pair == "krr_binned" else g.pairs[o.offset]


def _describe(o: _Option, g: Group | None = None) -> str:
    if o.pair in ("count", "krr_binned") and g is not None:
        return f"{_count_pair(g, o).description} ({o.fraction:.0%} of the rounds x vs x')"
    if o.pair == "binary":
        return f"binary-RR pair with k = n-1-{o.offset} ones among the others ({o.fraction:.0%} of the rounds P_k vs Q_k)"
    if o.pair == "x0":
        return f"k-RR pair x0, the others at x0 ({o.fraction:.0%} of the rounds x0 vs x1)"
    if o.stride > 1:
        return f"k-RR pair third, the others at a third value, counts merged in diagonal blocks of {o.stride}"
    return "k-RR pair third, the others at a third value"


def _moments(g: Group, o: _Option) -> tuple[float, float]:
    if o.pair in ("count", "krr_binned"):
        return count_pair_moments(_count_pair(g, o), n=g.n)
    if o.pair == "binary":
        return binary_rr_pair_plds(g.eps0, g.n, max(g.n - 1 - o.offset, 0))[0].moments()
    return krr_pair_moments(o.pair, eps0=g.eps0, n=g.n, k=g.k, stride=o.stride)


def _finest(g: Group, o: _Option) -> float:
    """The finest grid step the option's grids serve (0.0: any power of 2)."""
    if o.pair in ("count", "krr_binned"):
        return count_pair_finest_step(_count_pair(g, o), n=g.n)
    if o.pair == "binary":
        return 0.0
    return krr_pair_finest_step(o.pair, eps0=g.eps0, n=g.n, k=g.k, stride=o.stride)


def _grids(g: Group, o: _Option, step: float, tail: float) -> tuple[GridPLD, GridPLD]:
    if o.pair in ("count", "krr_binned"):
        return count_pair_grids(_count_pair(g, o), n=g.n, step=step, tail=tail)
    if o.pair == "binary":
        forward, backward = binary_rr_pair_plds(g.eps0, g.n, max(g.n - 1 - o.offset, 0))
        return forward.discretise(step, False, tail), backward.discretise(step, False, tail)
    return krr_pair_grids(o.pair, eps0=g.eps0, n=g.n, k=g.k, step=step, tail=tail, stride=o.stride)


def _composed_pairs(groups: Sequence[Group], delta: float) -> list[tuple[str, ComposedPLD]]:
    """The optimistic composed PLDs of the candidates (module doc), each with its description; `delta` only
    sets the grid and the tails dropped (delta x 1e-6)."""
    options = [_options(g) for g in groups]
    total = sum(g.rounds for g in groups)
    tail = max(delta * 1e-6, 1e-300)
    per_round_tail = tail / (4 * total)
    out = []
    for c in range(max(len(o) for o in options)):
        chosen = [o[min(c, len(o) - 1)] for o in options]
        try:
            moments = [_moments(g, o) for g, o in zip(groups, chosen, strict=True)]
            finest = max([_finest(g, o) for g, o in zip(groups, chosen, strict=True)], default=0.0)
        except ParameterError:
            continue  # a pair beyond its evaluation range (too many cells): this candidate is skipped
        mean = sum(g.rounds * m[0] for g, m in zip(groups, moments, strict=True))
        var = sum(g.rounds * m[1] for g, m in zip(groups, moments, strict=True))
        scale = max(mean + math.sqrt(var) * math.sqrt(2 * math.log(1.25 / delta)), math.sqrt(var), 1e-12)
        step = max(2.0 ** math.floor(math.log2(min(GRID_FRACTION * scale / total, scale / 2**14))), finest)
        label = "; ".join(_describe(o, g) for g, o in zip(groups, chosen, strict=True))
        for _ in range(COARSENINGS):
            grids, powers = [], []
            for g, o in zip(groups, chosen, strict=True):
                a = int(round(o.fraction * g.rounds))
                forward, backward = _grids(g, o, step, per_round_tail)
                for grid, power in ((forward, a), (backward, g.rounds - a)):
                    if power > 0:
                        grids.append(grid)
                        powers.append(power)
            if any(float(grid.masses.max()) <= 0 for grid in grids):
                break  # an empty window (no certified mass): nothing to compose for this candidate
            try:
                out.append((label, compose(grids, powers, tail=tail)))
                break
            except ParameterError:
                step *= 2  # the FFT window is too wide for this grid: coarser (the bound only loosens)
    return out


def lower_epsilon(groups: Sequence[Group], *, delta: float, stop: float | None = None) -> tuple[float, str]:
    """The largest certified lower end of eps(delta) over the candidates (module doc), and which one gave it
    ("" when none could be composed: then 0.0); below DELTA_FLOOR read off the curves composed at DELTA_FLOOR
    (module doc: monotone in delta) and raised by the tilted lower search of the same grids (module doc, Below the
    floor). `stop` (None: each composition's eps_max): an eps at or above the composed pairs' true eps(delta), e.g.
    the caller's certified upper end of the worst case; it only aims that search. groups: validated rounds
    (`mechanism_rounds`); 0 < delta < 1, stop None or finite >= 0."""
    groups = _check(groups, delta)
    if stop is not None and not (isinstance(stop, (int, float)) and math.isfinite(stop) and stop >= 0):
        raise ParameterError("stop", stop, "None or a finite eps >= 0 (an upper end of the composed eps)")
    best, which = 0.0, ""
    # Below the engine's round-off floor one set of curves serves every delta (module doc: monotone in delta).
    for label, composed in _composed_pairs(groups, max(delta, DELTA_FLOOR)):

        def bounds(eps: float, c: ComposedPLD = composed) -> tuple[float, float]:
            value = c.delta(eps)
            return value, value

        result = solve_epsilon(bounds, eps0=composed.eps_max, delta=delta, rel_tol=EPS_REL_TOL)
        low = result.lower
        if delta < TILT_BELOW and composed.grids:
            # Below the floor (module doc): the same grids tilted at each eps the search judges, from the best end so
            # far (a candidate that cannot beat it costs two tilted compositions); certified points only.
            start = max(low, best)
            top = composed.eps_max if stop is None else min(max(float(stop), start), composed.eps_max)
            low = max(low, tilted_lower_epsilon(composed, delta=delta, rel_tol=EPS_REL_TOL, start=min(start, top), stop=top))
        if low > best:
            best, which = low, label
    return best, which


def lower_delta(groups: Sequence[Group], *, eps: float, delta_hint: float = 1e-6) -> tuple[float, str]:
    """The largest certified lower end of delta(eps) over the candidates (module doc), and which one gave it.
    `delta_hint` sets the grid (the composed eps near it) and the tails dropped. eps >= 0, 0 < delta_hint < 1."""
    groups = _check(groups, delta_hint)
    require_positive("eps", eps, allow_zero=True)
    best, which = 0.0, ""
    value_at: Callable[[ComposedPLD], float] = lambda c: c.delta(float(eps))  # noqa: E731
    for label, composed in _composed_pairs(groups, delta_hint):
        value = value_at(composed)
        if value > best:
            best, which = value, label
    return best, which
