"""eps(delta) of a composition from its certified upper delta curve: the one step that the mechanism rounds
(`mechanism_rounds`, compose.binary_rr / compose.krr, module doc U4) and the blanket rounds (`blanket_rounds`,
compose.laplace / compose.finite / compose.randomizer, module doc B4) share; its small-delta part
(`tilted_epsilon`) also serves the clone compositions (`shuffled_rounds`).

Both compose per-round dominating pairs (connect the dots, `connect_the_dots` C5) into a `ComposedPLD` whose
`delta(eps)` is a certified UPPER bound on the composed worst-case delta(eps) (pessimistic grids). The search of
`numerics.solver.solve_epsilon` is then fed that one curve as both ends of its bracket: the returned upper end
eps has a certified delta(eps) <= delta, so it is an upper bound on the composed eps(delta); the lower end of a
one-sided curve says nothing about the true eps (the callers put their own certified lower bound there). The
composition's tail budget (the probability mass the discretisation may drop, charged to delta) is delta * 1e-6,
at least 1e-300 (the smallest tail the grids carry). Neighbouring relation: that of the composed pairs (replace
one user's input, for both callers).

Small delta. The FFT round-off of the untilted composition is bounded relative to the whole mass (about 1e-13 of
it, `numerics.pld` point 4), so below delta ~ 1e-12 its certified curve stays above delta and the search returns
the sum of the rounds' eps0. Below TILT_BELOW the same grids are also composed exponentially tilted
(`numerics.pld` point 5: the round-off relative to delta itself) at the Chernoff saddle of the eps the search
needs: first at the eps where the Chernoff bound of the composed loss reaches delta (or at the untilted upper end
when that certified a gain), then at the root found (at most TILT_PASSES compositions, a few FFTs). Each curve is a
certified upper (lower) bound of delta(eps) at every eps, so their pointwise minimum (maximum) is one too, and
the search runs on it. The passes run on the grids as composed, then again on the grids with their top mass
<= CUT_FRACTION x delta / rounds moved to +inf (dropped from the optimistic ones; `numerics.pld.cut_top`, point 6:
an envelope's last chord puts a tiny mass at loss eps0 that a steep tilt blows up past the mass near eps), starting
from the first search's ends and keeping the tighter: no end is looser than the uncut search's. At delta >=
TILT_BELOW the tilted passes run only where the untilted curve's round-off floor (`round_off_floor`: its 2-norm
error bound times the square root of the window) is above ROUND_OFF_SHARE x delta (`tilt_wanted`): many rounds or
wide windows put that floor above 1e-10, and an upper end certified at a smaller delta, where the tilt ran, was
then tighter than the one returned at the larger delta (binary RR eps0 = 4, n = 1e4, T = 3000: 63.98 at 1e-9 against
33.65 at 9.9e-11). Elsewhere the untilted search alone, as before.

Small delta, the lower end (`tilted_lower_epsilon`). The passes above aim every tilt at the UPPER end's root; the
lower end is then the largest evaluated eps whose certified lower delta is above delta. Away from its saddle a
tilted lower curve falls to 0 (its round-off is relative to the tilted mass there, not to delta), so where the
upper end is not certified below eps_max (no root to aim at) the lower end was the untilted curve's crossing,
near delta ~ 1e-13: compose.exact_binary_rr (eps0 = 1, n = 100, T = 2) gave 1.0939 at delta = 1e-50 and 1.9983 at
1e-30, though a lower end at a larger delta is one at every smaller delta (eps(delta) is non-increasing). Where
the interval is still wider than the grid's rounding (2 x rounds x step, or rel_tol of its upper end), the lower
end is searched on its own: a bisection of [lower end, upper end] (first probes just below the upper end, then
just above the lower end, which stays when that one fails) in which each eps x is judged by the optimistic
grids tilted at `saddle_tilt(x)` (a curve accurate relative to delta(x) itself near x), read at x. Each value is
a certified lower bound of delta(x) whatever the tilt, so every x with a value above delta is a certified lower
end; the bisection (at most LOWER_PASSES compositions) only chooses where to look. Where the interval is already
as narrow as the grid allows, and at delta >= TILT_BELOW, nothing changes (the same floats).

Small delta, the direct delta(eps) (`small_delta`, `tilted_delta`). A caller's delta(eps) path composes once for
delta ~ 1e-6 (its grids' tail and floor far above a delta below 1e-12, where the untilted curve's round-off floor
sits anyway). When that certified delta at eps is below TILT_BELOW, the caller's composition is redone for a target
delta (`compose_for(target)`: its tail budget composition_tail(target), its envelopes' floors chosen from target, as
the eps(delta) search does at that delta) and tilted at eps: first on the first composition's grids, then for the
target = the best certified upper end so far, at most DELTA_PASSES compositions, until the new end is not below
SETTLED_DELTA of the target (the target's floor and tail were then far enough below). Each tilt is aimed at
`saddle_tilt(eps)` of the grids with their top cut (`numerics.pld.cut_top`, point 6: mass <= CUT_FRACTION x the
best upper end / rounds moved to +inf, dropped from the optimistic grids). Every value taken is a certified upper
(lower) end of the same delta(eps) (each composition dominates, or is dominated by, the pair), so their minimum
(maximum) is one too. At eps whose first certified delta is >= TILT_BELOW nothing changes.

A caller's deadline (`deadline`, a `time.monotonic()` value). The direct delta(eps) of a composition is one
mandatory composition and optional refinements (these recompositions; a caller's own lower end or directional
end). The interface bounds the whole call with a time limit whose expiry interrupts the computation
(`TimeLimitInterrupt`, SIGALRM) at the same moment as the deadline it passes down; a refinement interrupted by it, or not started because the deadline has
passed, is dropped and the certified ends in hand stand (`stopped_by_deadline`, `before_deadline`). A limit that is
not the caller's own (an enclosing one, expiring earlier) still propagates.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Callable, TypeVar

import numpy as np

from ..core.errors import ParameterError, TimeLimitInterrupt, require_positive, require_probability
from ..core.results import BoundValue
from ..numerics.pld import ComposedPLD, GridPLD, chernoff_epsilon, compose_tilted, cut_top, saddle_tilt
from ..numerics.solver import solve_epsilon

__all__ = ["DEADLINE_SLACK", "UNEVALUATED_BY_DEADLINE", "before_deadline", "refinement_within", "stopped_by_deadline", "CUT_FRACTION", "DELTA_PASSES", "LOWER_PASSES", "ROUND_OFF_SHARE", "TILT_BELOW", "TILT_COARSER", "TILT_PASSES", "composition_tail", "small_delta", "round_off_floor", "tilt_wanted",
           "tilted_delta", "tilted_epsilon", "tilted_lower_epsilon", "upper_curve_epsilon"]

Refined = TypeVar("Refined")

# A TimeLimitInterrupt caught within this many seconds before the caller's deadline is the caller's own (its timer and
# time.monotonic() are different clocks started a few microseconds apart); one caught earlier is an enclosing limit's.
DEADLINE_SLACK = 0.05


# The note of a lower end not evaluated because the caller's time budget ran out first.
UNEVALUATED_BY_DEADLINE = "its explicit pairs were not composed within the time budget (allow more time for a lower end)"


def _check_deadline(deadline: object) -> None:
    if deadline is not None and (isinstance(deadline, bool) or not isinstance(deadline, (int, float)) or not math.isfinite(deadline)):
        raise ParameterError("deadline", deadline, "None or a finite time.monotonic() value")


def stopped_by_deadline(deadline: float | None) -> bool:
    """Whether a `TimeLimitInterrupt` caught now comes from the caller's own limit at `deadline` (module doc, A caller's
    deadline): then an optional refinement it interrupted is dropped; otherwise it propagates. Range: deadline None
    or a finite time.monotonic() value."""
    _check_deadline(deadline)
    return deadline is not None and time.monotonic() >= deadline - DEADLINE_SLACK


def before_deadline(deadline: float | None) -> bool:
    """Whether an optional refinement may still start (no deadline, or the deadline not reached). Range: deadline
    None or a finite time.monotonic() value."""
    _check_deadline(deadline)
    return deadline is None or time.monotonic() < deadline


def refinement_within(compute: Callable[[], Refined], deadline: float | None, dropped: Refined) -> Refined:
    """`compute()`, an optional refinement, or `dropped` where the caller's deadline has passed before it starts or
    the caller's own limit interrupts it (module doc, A caller's deadline); any other limit propagates. Range:
    compute a callable of no arguments, deadline None or a finite time.monotonic() value."""
    if not callable(compute):
        raise ParameterError("compute", repr(compute)[:60], "a callable of no arguments (the refinement)")
    if not before_deadline(deadline):
        return dropped
    try:
        return compute()
    except TimeLimitInterrupt:
        if not stopped_by_deadline(deadline):
            raise
        return dropped


# Below this target delta the tilted composition is tried too (module doc: the untilted curve's round-off floor
# is near 1e-12; at 1e-10 and above every value is the untilted search's alone).
TILT_BELOW = 1e-10
# At delta >= TILT_BELOW the tilted composition is tried too where the untilted curve's round-off term (2-norm error
# bound times the square root of the window, `numerics.pld.ComposedPLD.delta`) exceeds this share of delta: there
# the untilted answer is set by the round-off floor, not by the composition (large T, wide windows), and an end
# certified at a smaller delta would otherwise be tighter than the one returned at a larger delta.
ROUND_OFF_SHARE = 1e-2
# Tilted compositions per search: at the Chernoff (or untilted) estimate, then at the root found, at most.
TILT_PASSES = 3
# A tilt aimed within this relative distance of the root found is not redone (the saddle barely moves).
SETTLED = 0.02
# The direct delta(eps) (module doc): compositions for smaller targets at most DELTA_PASSES times, until the new
# certified end is at least SETTLED_DELTA of its target; each tilt with the grids' top mass <= CUT_FRACTION x the
# best upper end (over the rounds) moved to +inf.
DELTA_PASSES = 6
SETTLED_DELTA = 0.1
CUT_FRACTION = 1e-3
# The lower end's own search (module doc, Small delta, the lower end): at most this many tilted compositions of the
# optimistic grids, each aimed at the eps it is read at.
LOWER_PASSES = 12
# Where a tilted window does not fit MAX_FFT points (many rounds: the untilted window of compose.clones at n = 1e6,
# T = 10000 already fills it), the tilted composition is tried on grids of up to 2^TILT_COARSER times the step
# (`numerics.pld.compose_tilted(coarser=)`, each a certified curve on its side); without it the tilt was skipped and
# the answer was the untilted round-off floor's (an upper end 2.5 times the lower one, falling as delta fell).
TILT_COARSER = 4


def round_off_floor(composed: ComposedPLD) -> float:
    """The largest round-off term of `composed`'s certified delta(eps) (its 2-norm FFT error bound times the square
    root of the window's length): below about this value the untilted curve certifies nothing. Range: a
    ComposedPLD (numerics.pld.compose)."""
    if not isinstance(composed, ComposedPLD):
        raise ParameterError("composed", repr(composed)[:60], "a ComposedPLD (numerics.pld.compose)")
    return math.sqrt(len(composed.values)) * 1.0001 * composed.error_2norm


def tilt_wanted(composed: ComposedPLD, delta: float) -> bool:
    """Whether the search at target `delta` also composes tilted (module doc, Small delta): below TILT_BELOW, or
    where the untilted curve's round-off floor is above ROUND_OFF_SHARE x delta. Range: a ComposedPLD, 0 < delta < 1."""
    require_probability("delta", delta)
    return delta < TILT_BELOW or round_off_floor(composed) > ROUND_OFF_SHARE * delta


def composition_tail(delta: float) -> float:
    """The tail mass a composition at target delta may drop (charged to its delta): delta * 1e-6, at least
    1e-300. Range: 0 < delta < 1."""
    require_probability("delta", delta)
    return max(delta * 1e-6, 1e-300)


def tilted_epsilon(upper: ComposedPLD, lower: ComposedPLD | None, *, delta: float, rel_tol: float, start: BoundValue) -> BoundValue:
    """The search of `start` (the untilted one, on upper.delta and lower.delta) redone on the pointwise minimum
    (maximum) of the untilted upper (lower) curve and the tilted compositions of the same grids (module doc, Small
    delta): an interval [lower end, upper end] with both ends at least as tight as start's and as certified
    (direction "exact", as solve_epsilon's). `upper` must carry its pessimistic grids (numerics.pld.compose keeps
    them), `lower` its optimistic ones (None: one-sided, the lower end is start's). Range: 0 < delta < 1,
    rel_tol > 0."""
    require_probability("delta", delta)
    require_positive("rel_tol", rel_tol)
    if not upper.grids or not upper.pessimistic:
        raise ParameterError("upper", "a ComposedPLD", "the pessimistic composition of numerics.pld.compose (it keeps its grids)")
    best = start
    # The grids as composed, then (when something fits) with their top mass <= CUT_FRACTION x delta / rounds moved to
    # +inf and dropped from the optimistic grids (numerics.pld point 6; each curve stays certified): the second
    # search starts from the first's ends and keeps the tighter, so no end is looser than the uncut search's.
    budget = CUT_FRACTION * delta / sum(upper.powers)
    cut_up = [cut_top(g, budget) for g in upper.grids]
    cut_low = [cut_top(g, budget) for g in lower.grids] if lower is not None else []
    variants = [(list(upper.grids), list(lower.grids) if lower is not None else [])]
    if any(a is not b for a, b in zip(cut_up, upper.grids, strict=True)) and all(np.any(g.masses > 0) for g in cut_up):
        variants.append((cut_up, cut_low if all(np.any(g.masses > 0) for g in cut_low) else []))
    for up_grids, low_grids in variants:
        best = _tilt_passes(upper, lower, up_grids, low_grids, delta=delta, rel_tol=rel_tol, best=best)
    if delta < TILT_BELOW and lower is not None and lower.grids and best.upper - best.lower > _grid_width(lower, rel_tol, best.upper):
        # The lower end's own search (module doc, Small delta, the lower end): certified points only, so it can
        # only raise the lower end.
        found = tilted_lower_epsilon(lower, delta=delta, rel_tol=rel_tol, start=best.lower, stop=best.upper)
        if found > best.lower:
            best = replace(best, lower=found)
    return best


def _grid_width(composed: ComposedPLD, rel_tol: float, top: float) -> float:
    """The width a certified interval keeps from the grid's rounding alone: each round's losses move by at most one
    step each way (pessimistic up, optimistic down), and the search's relative tolerance."""
    return max(2.0 * sum(composed.powers) * composed.step, rel_tol * top)


def tilted_lower_epsilon(lower: ComposedPLD, *, delta: float, rel_tol: float, start: float, stop: float) -> float:
    """The largest eps found in [start, stop) whose certified lower delta(eps) is above `delta` (module doc, Small
    delta, the lower end): `start` itself when none is found. Each eps x is judged by the untilted curve and by
    the optimistic grids of `lower` tilted at `saddle_tilt(x)`, read at x (each a certified lower bound of the
    composed pair's delta(x), so the answer is a certified lower end of eps(delta) when it is above `start`);
    a bisection of [start, stop] (first probes just below stop, then just above start: when that one fails, start
    is kept) with at most LOWER_PASSES tilted compositions, until the bracket is as narrow as the grid's rounding. `start` must be a certified lower end (or 0) and
    `stop` at or above the true eps(delta) (a certified upper end, or the composition's eps_max) for the
    bisection to aim well; validity does not depend on either. Range: an optimistic ComposedPLD with its grids
    (numerics.pld.compose), 0 < delta < 1, rel_tol > 0, 0 <= start <= stop finite."""
    if not isinstance(lower, ComposedPLD) or lower.pessimistic or not lower.grids:
        raise ParameterError("lower", repr(lower)[:60], "the optimistic composition of numerics.pld.compose (it keeps its grids)")
    require_probability("delta", delta)
    require_positive("rel_tol", rel_tol)
    if not (isinstance(start, (int, float)) and isinstance(stop, (int, float)) and math.isfinite(stop) and 0 <= start <= stop):
        raise ParameterError("start, stop", (start, stop), "finite 0 <= start <= stop")
    grids = list(lower.grids)
    if not all(np.any(g.masses > 0) for g in grids):
        return float(start)  # a round without finite mass: its optimistic composition certifies nothing
    top = min(float(stop), lower.eps_max)
    low, high = float(start), top
    width = _grid_width(lower, rel_tol, top)

    def above(x: float) -> bool:
        if lower.delta(x) > delta:
            return True
        # saddle_tilt's bracket may end just above compose_tilted's largest tilt (1e6); any tilt is a valid choice.
        tilted = compose_tilted(grids, lower.powers, min(saddle_tilt(grids, lower.powers, x), 1e6), coarser=TILT_COARSER)
        return tilted is not None and tilted.delta(x) > delta

    # First just below stop (the search's end when the truth is near the upper end), then just above start (when
    # that fails the crossing is within the grid's width of start: nothing to gain), then bisection.
    probes = [max(high - width, low), low + width]
    for index in range(LOWER_PASSES):
        probe = probes[index] if index < len(probes) else 0.5 * (low + high)
        if high - low <= width or not low < probe < high:
            break
        if above(probe):
            low = probe
        else:
            high = probe
            if index == 1:
                break
    return low


def _tilt_passes(upper: ComposedPLD, lower: ComposedPLD | None, up_grids: list[GridPLD], low_grids: list[GridPLD], *, delta: float, rel_tol: float,
                 best: BoundValue) -> BoundValue:
    """`tilted_epsilon`'s passes on the given grids (those of `upper` and `lower`, or their top-cut versions)."""
    # The first tilt aims at the smaller of the Chernoff estimate and the untilted end (each at or above the root,
    # up to the Chernoff bound's neglect of the +inf atom); the next ones at the root found.
    guess = min(best.upper, chernoff_epsilon(up_grids, upper.powers, delta))
    for _ in range(TILT_PASSES):
        lam = saddle_tilt(up_grids, upper.powers, min(guess, upper.eps_max))
        tilted_up = compose_tilted(up_grids, upper.powers, lam, coarser=TILT_COARSER)
        if tilted_up is None:
            break
        # Each pass searches the untilted curves with its own tilted ones (each search certified on its own).
        ups: list[Callable[[float], float]] = [upper.delta, tilted_up.delta]
        lows: list[Callable[[float], float]] = [lower.delta] if lower is not None else []
        if lower is not None and low_grids:
            tilted_low = compose_tilted(low_grids, lower.powers, lam, coarser=TILT_COARSER)
            if tilted_low is not None:
                lows.append(tilted_low.delta)

        def bounds(eps: float, ups: list[Callable[[float], float]] = ups, lows: list[Callable[[float], float]] = lows) -> tuple[float, float]:
            high = min(f(eps) for f in ups)
            low = max((f(eps) for f in lows), default=high)
            return min(low, high), high

        result = solve_epsilon(bounds, eps0=upper.eps_max, delta=delta, rel_tol=rel_tol)
        if lower is not None:
            # Both searches' ends are certified (two-sided brackets): keep the tighter of each.
            note = result.note if result.upper < best.upper else best.note
            best = BoundValue(max(best.lower, result.lower), min(best.upper, result.upper), note, direction=best.direction)
        elif result.upper < best.upper:
            best = result  # one-sided: only the upper end is a claim, and the search's whole answer goes with it
        if result.upper >= upper.eps_max or abs(result.upper - guess) <= SETTLED * guess:
            break  # nothing certified below the basic composition (no root to aim at), or the tilt was aimed there
        guess = result.upper
    return best


def upper_curve_epsilon(composed: ComposedPLD, *, delta: float, rel_tol: float) -> BoundValue:
    """The smallest eps in [0, composed.eps_max] whose certified upper delta(eps) is <= delta (module doc), by
    `solve_epsilon` with the one curve as both bracket ends (its note: the no-amplification note where nothing
    below eps_max is certified); below delta = TILT_BELOW also on the tilted compositions of the same grids
    (`tilted_epsilon`, the smaller certified end). Only the upper end is a claim (an upper bound on the composed
    eps(delta)). Range: a ComposedPLD, 0 < delta < 1, rel_tol > 0."""
    if not isinstance(composed, ComposedPLD):
        raise ParameterError("composed", repr(composed)[:60], "a ComposedPLD (numerics.pld.compose)")
    require_probability("delta", delta)
    require_positive("rel_tol", rel_tol)

    def bounds(eps: float) -> tuple[float, float]:
        value = composed.delta(eps)
        return value, value

    result = solve_epsilon(bounds, eps0=composed.eps_max, delta=delta, rel_tol=rel_tol)
    if tilt_wanted(composed, delta) and composed.grids and composed.pessimistic:
        result = tilted_epsilon(composed, None, delta=delta, rel_tol=rel_tol, start=result)
    return replace(result, direction="upper_bound")


def tilted_delta(upper: ComposedPLD, lower: ComposedPLD | None, *, eps: float, start: tuple[float, float]) -> tuple[float, float]:
    """(lower end, upper end) of delta(eps): `start` (certified ends of the same delta(eps), e.g. the untilted
    curves') tightened by the compositions of the same grids tilted at eps (module doc, Small delta, the direct
    delta(eps)), once as composed and once with the pessimistic grids' top mass <= CUT_FRACTION x start's upper end
    / rounds moved to +inf and the optimistic grids' dropped (`numerics.pld.cut_top`), each at the tilt
    `saddle_tilt(eps)` of its pessimistic grids.
    `upper` must carry its pessimistic grids, `lower` (None: start's lower end stays) its optimistic ones.
    Range: eps >= 0 finite, 0 <= start[0] <= start[1] <= 1."""
    if not isinstance(upper, ComposedPLD) or not upper.grids or not upper.pessimistic:
        raise ParameterError("upper", repr(upper)[:60], "the pessimistic composition of numerics.pld.compose (it keeps its grids)")
    if lower is not None and (not isinstance(lower, ComposedPLD) or lower.pessimistic):
        raise ParameterError("lower", repr(lower)[:60], "None or the optimistic composition of numerics.pld.compose")
    require_positive("eps", eps, allow_zero=True)
    low, high = float(start[0]), float(start[1])
    if not (0 <= low <= high <= 1):
        raise ParameterError("start", start, "certified ends 0 <= lower <= upper <= 1")
    if high == 0:
        return low, high
    budget = CUT_FRACTION * high / sum(upper.powers)
    cut = [cut_top(g, budget) for g in upper.grids]
    # The grids as composed, then with the top cut (when it moved anything): each tilt certified, the tighter kept.
    variants = [list(upper.grids)] + ([cut] if any(a is not b for a, b in zip(cut, upper.grids, strict=True)) else [])
    for grids in variants:
        if not all(np.any(g.masses > 0) for g in grids):
            continue
        lam = saddle_tilt(grids, upper.powers, min(eps, upper.eps_max))
        tilted = compose_tilted(grids, upper.powers, lam, coarser=TILT_COARSER)
        if tilted is not None:
            high = min(high, tilted.delta(eps))
        if lower is not None and lower.grids:
            optimistic = [cut_top(g, budget) for g in lower.grids] if grids is cut else list(lower.grids)
            tilted_low = compose_tilted(optimistic, lower.powers, lam, coarser=TILT_COARSER) if all(np.any(g.masses > 0) for g in optimistic) else None
            if tilted_low is not None:
                low = max(low, tilted_low.delta(eps))
    return min(low, high), high


def small_delta(compose_for: Callable[[float], tuple[ComposedPLD, ComposedPLD | None]], first: tuple[ComposedPLD, ComposedPLD | None], *,
                eps: float, deadline: float | None = None) -> tuple[float, float, float | None]:
    """(lower end, upper end, target) of a composition's certified delta(eps) (module doc, Small delta, the direct
    delta(eps)): `first` = (pessimistic, optimistic or None) composed for delta ~ 1e-6, read at eps; when its upper
    end is below TILT_BELOW, tilted (`tilted_delta`) and recomposed by `compose_for(target)` for the best upper end
    so far (at most DELTA_PASSES times). `target` is the last target composed for (None: the first composition
    alone, the untilted values unchanged to the bit). `deadline` (a `time.monotonic()` value, None: none): no new
    recomposition starts after it, and one interrupted by the caller's limit at it is dropped (module doc, A caller's
    deadline: the ends in hand are certified). Range: eps >= 0 finite."""
    require_positive("eps", eps, allow_zero=True)
    if not callable(compose_for):
        raise ParameterError("compose_for", repr(compose_for)[:60], "a function of the target delta returning (pessimistic, optimistic or None)")
    if not (isinstance(first, tuple) and len(first) == 2 and isinstance(first[0], ComposedPLD) and first[0].pessimistic):
        raise ParameterError("first", repr(first)[:60], "a pair (pessimistic ComposedPLD, optimistic ComposedPLD or None)")
    upper, lower = first
    high = upper.delta(eps)
    low = lower.delta(eps) if lower is not None else 0.0
    if not high < TILT_BELOW or not upper.grids:
        return low, high, None
    target: float | None = None
    try:
        for passes in range(DELTA_PASSES + 1):
            low, high = tilted_delta(upper, lower, eps=eps, start=(low, high))
            if high <= 0 or passes == DELTA_PASSES or (target is not None and not high < SETTLED_DELTA * target):
                break
            if not before_deadline(deadline):
                break  # the caller's time budget: the certified ends in hand stand
            target = max(high, 1e-300)
            upper, lower = compose_for(target)
            high = min(high, upper.delta(eps))
            if lower is not None:
                low = min(max(low, lower.delta(eps)), high)
    except TimeLimitInterrupt:
        if not stopped_by_deadline(deadline):
            raise
        # Interrupted by the caller's limit (module doc, A caller's deadline): (low, high) are the ends of the last
        # finished step, each certified (an assignment interrupted never happened).
    return low, high, target
