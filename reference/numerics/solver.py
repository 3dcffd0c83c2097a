"""The certified epsilon solver: the smallest eps whose certified delta bracket is at most the target delta.

Every numeric amplification bound defined through a privacy profile (the clone bounds FMT21.clones_numeric and
FMT23.stronger_clones, exact binary randomized response, the composition of shuffled rounds, the exact blanket
bounds BBGN19.Lem5.3.exact_*, the pair lower bounds exact.*_pair_*) states eps(delta) = min{eps in [0, eps0] :
delta(eps) <= delta} for a delta(eps) that is non-increasing in eps with delta(eps0) = 0, and can only evaluate
certified brackets [lower, upper] of delta(eps). This module finds that eps from such brackets by ONE search,
`solve_certified_epsilon`, with the one contract every bound relies on:

- the returned upper end u was evaluated and delta's certified upper end at u is <= delta (so the exact eps
  of the bound is <= u); eps0 itself is evaluated first, and when even its upper end exceeds delta nothing is
  claimed below eps0 (found = False, u = eps0: the caller's floor, e.g. no amplification, a shuffled eps0-LDP
  randomizer being eps0-DP), while the lower end is still searched;
- the returned lower end l was evaluated and delta's certified lower end at l is > delta (so the exact eps
  is > l), or l = 0;
- both ends are read off the evaluated points when the search stops (`_verified_ends`): the search (its
  start, secant and interpolation steps, tolerances, budget) decides only WHERE delta is evaluated, never
  whether an end is valid, so a search cut short (the evaluation budget) returns a wider, equally sound interval.

The search: secant steps on (log eps, log delta) from a start point (a caller's estimate of the root), each
aimed a quarter tolerance past the predicted root on the side being certified, so that usually two or three
evaluations settle both ends; Illinois regula falsi on log delta finishes when they do not settle. At most
`max_evaluations` evaluations in all (bounded time).

`solve_epsilon` is a thin alias of the same search for the callers that want a `BoundValue` (the clone windows,
exact binary randomized response, the composition of shuffled rounds): its `guess` is the search's start point.
`uncertified_root` places guesses (it never certifies anything).

Bounds with a closed-form delta(eps) (a float already rounded up, so the bracket is a single point) are
inverted by `closed_form_epsilon` (and `closed_form_epsilon_mp`, its high-precision enclosure for the test
vectors) with the same contract; `closed_form_largest_eps0` inverts them in eps0 instead.

Written by hand rather than with scipy.optimize: the root finders there return one point and stop on a
tolerance of their own, while the contract needs the two ends verified by the caller's certified brackets
(two different functions, the lower and the upper end of delta) and a hard bound on the number of evaluations.
"""

from __future__ import annotations

import math
from collections.abc import Callable
import mpmath

from ..core.errors import ParameterError, require_integer, require_positive, require_probability
from ..core.results import NO_AMPLIFICATION, BoundValue
from .inversion import largest_argument_within, smallest_argument_within
from .inversion_mp import bracket_boundary_mp, relative_tolerance_mp

__all__ = [
    "CLOSED_FORM_REL_TOL",
    "DEFAULT_REL_TOL",
    "EPS0_SEARCH_SPAN",
    "ILLINOIS_STEPS",
    "MAX_CERTIFIED_EVALUATIONS",
    "closed_form_epsilon",
    "closed_form_epsilon_mp",
    "closed_form_largest_eps0",
    "solve_certified_epsilon",
    "solve_epsilon",
    "uncertified_root",
]

# `solve_epsilon`'s default tolerance (the clone bounds'): each end within it of its root.
DEFAULT_REL_TOL = 1e-7
# Certified delta evaluations per search unless the caller sets its own budget (the clone bounds derive theirs
# from the work of one evaluation: `shuffle_spec.reference.bounds.clones.CERTIFIED_WORK`).
MAX_CERTIFIED_EVALUATIONS = 400
# Illinois steps per end in the finishing bracketing (each converges in ~10 on these smooth log deltas).
ILLINOIS_STEPS = 60
# The closed-form inversions (`closed_form_epsilon`, `closed_form_largest_eps0`): relative tolerance of their
# bisections (the returned point is always one where the bound was verified), and the largest distance above
# eps that the eps0 inversion searches (e^40 is far beyond any useful local epsilon).
CLOSED_FORM_REL_TOL = 1e-9
EPS0_SEARCH_SPAN = 40.0


def uncertified_root(function: Callable[[float], float], low: float, high: float, rtol: float) -> float:
    """A root of `function` in [low, high] (function(low) > 0 >= function(high), decreasing) to relative
    tolerance `rtol`, by regula falsi with the Illinois step and a bisection every third step.
    Uncertified: it only places the certified search (`solve_epsilon`'s guess)."""
    f_low, f_high = function(low), function(high)
    if not (f_low > 0 >= f_high):
        raise ValueError("no sign change in the bracket")
    side = 0
    for step in range(200):
        if high - low <= rtol * abs(high):
            break
        if step % 3 == 2 or not (math.isfinite(f_low) and math.isfinite(f_high)) or f_low == f_high:
            mid = 0.5 * (low + high)
        else:
            mid = high - f_high * (high - low) / (f_high - f_low)
            if not low < mid < high:
                mid = 0.5 * (low + high)
        f_mid = function(mid)
        if f_mid > 0:
            low, f_low = mid, f_mid
            if side == -1:
                f_high *= 0.5
            side = -1
        else:
            high, f_high = mid, f_mid
            if side == 1:
                f_low *= 0.5
            side = 1
    return 0.5 * (low + high)


class _BudgetSpent(Exception):
    """Raised inside `solve_certified_epsilon` when its evaluation budget has been used."""


def solve_epsilon(
    delta_bounds: Callable[[float], tuple[float, float]], *, eps0: float, delta: float, rel_tol: float = DEFAULT_REL_TOL, guess: float | None = None,
    max_evaluations: int = MAX_CERTIFIED_EVALUATIONS,
) -> BoundValue:
    """The certified interval of min{eps in [0, eps0] : delta(eps) <= delta} for a non-increasing
    delta(eps) with delta(eps0) = 0, given certified brackets of delta(eps): a thin alias of
    `solve_certified_epsilon` (the one search, same evaluations, same ends) returning a `BoundValue`.

    `guess` (an uncertified estimate of the root, e.g. the root of a float estimate of delta) is the search's
    start point; it only decides where delta is evaluated. The value (direction "exact" for the caller to
    re-label) is [lower, upper] with delta's certified upper end <= delta at `upper` and its lower end > delta
    at `lower` (or lower = 0); upper = eps0 with the no-amplification note when nothing below eps0 is
    certified, (0, 0) when delta(0) is. At most `max_evaluations` certified evaluations (when they run out,
    the verified ends reached so far). Range: eps0 > 0, 0 < delta < 1, rel_tol > 0, max_evaluations >= 1,
    guess None or a finite float (outside (0, eps0) it is ignored)."""
    if guess is not None and not (isinstance(guess, (int, float)) and not isinstance(guess, bool) and math.isfinite(guess)):
        raise ParameterError("guess", guess, "None or a finite float")
    lower, upper, _ = solve_certified_epsilon(delta_bounds, eps0=eps0, delta=delta, rel_tol=rel_tol, max_evaluations=max_evaluations, guess=guess)
    if upper == 0:
        return BoundValue(0.0, 0.0, "delta(0) <= delta: eps = 0", direction="exact")
    return BoundValue(lower, upper, NO_AMPLIFICATION if upper >= eps0 else "", direction="exact")


def solve_certified_epsilon(
    delta_bounds: Callable[[float], tuple[float, float]], *, eps0: float, delta: float, rel_tol: float, max_evaluations: int = MAX_CERTIFIED_EVALUATIONS,
    hint: float | None = None, tight: str = "both", slope: float | None = None, guess: float | None = None,
    reaim: Callable[[float, float], float | None] | None = None,
) -> tuple[float, float, bool]:
    """The certified epsilon search (module doc): (lower, upper, found) with delta's certified upper end <= delta
    at `upper` (so the exact eps of the bound is <= upper) and its lower end > delta at `lower` (or lower = 0).
    `found` is False when even eps0 is not certified (then upper = eps0, and the lower end is still certified
    by regula falsi on delta's lower end over [0, eps0]). Only evaluated points are returned, so
    the tolerance, the start point and the budget decide tightness, never validity. delta_bounds(eps) ->
    (lower, upper) must be non-increasing in eps with delta(eps0) = 0; its own exceptions propagate.

    The search: eps0 first; then secant steps on (log eps, log delta) from `hint` (an eps believed to be near
    the answer, e.g. a looser bound's; else eps0 / 2), each aimed rel_tol/4 beyond the predicted root on the
    side being certified, so that usually 3-4 evaluations settle both ends. `guess` (instead of `hint`: an
    estimate of the root itself, accurate to about rel_tol, e.g. the root of an uncertified float estimate of
    delta) is trusted over the models: the first two steps are aimed at guess (1 +- rel_tol/4), and two
    evaluations settle both ends when it is that accurate; `tight` = "upper" / "lower" / "both" says which end must be within rel_tol of its root (the
    other is the best evaluated point). If that does not settle within FAST_EVALUATIONS, Illinois regula falsi
    on the brackets found so far finishes, one end after the other. `slope` (d log delta / d log eps near the
    root, negative; e.g. `normal_elasticity` at the hint) replaces the Gaussian-tail model in the step from a
    single evaluated point: usually one evaluation fewer. `reaim` (with `guess` and tight = "upper"): called as
    reaim(x, upper delta at x) when the first aimed evaluation, at x = guess (1 + rel_tol/4), is not certified; it
    returns a corrected estimate of the root (e.g. the estimate rescaled by what that evaluation found) or None, and
    the second evaluation is aimed at it (1 + rel_tol/4) instead of at the lower end's guess (1 - rel_tol/4), which
    would lie below the root as well: two evaluations settle the upper end where the estimate was low. At most
    `max_evaluations` evaluations in all.
    Range: eps0 > 0, 0 < delta < 1, rel_tol > 0, max_evaluations >= 1, slope None or finite and < 0, reaim None or a
    callable."""
    require_positive("eps0", eps0)
    require_probability("delta", delta)
    require_positive("rel_tol", rel_tol)
    require_integer("max_evaluations", max_evaluations, minimum=1)
    if tight not in ("upper", "lower", "both"):
        raise ParameterError("tight", tight, "'upper', 'lower' or 'both'")
    if slope is not None and not (isinstance(slope, (int, float)) and math.isfinite(slope) and slope < 0):
        raise ParameterError("slope", slope, "a finite negative number (d log delta / d log eps) or None")
    if reaim is not None and not callable(reaim):
        raise ParameterError("reaim", repr(reaim)[:60], "None or a callable (eps, upper delta) -> estimate of the root or None")
    cache: dict[float, tuple[float, float]] = {}

    def at(x: float) -> tuple[float, float]:
        if x not in cache:
            if len(cache) >= max_evaluations:
                raise _BudgetSpent
            cache[x] = delta_bounds(x)
        return cache[x]

    top = float(eps0)
    if at(top)[1] > delta:
        # Nothing is claimed below eps0; the lower end is still certified where it can be.
        try:
            _lower_end_search(at, cache, top, delta=delta, rel_tol=rel_tol)
        except _BudgetSpent:
            pass
        return max((x for x, (d_low, _) in cache.items() if d_low > delta and x < top), default=0.0), top, False
    try:
        if not _secant_search(at, cache, eps0=float(eps0), delta=delta, rel_tol=rel_tol, hint=hint, tight=tight, slope=slope, guess=guess, reaim=reaim):
            _bracketing_search(at, cache, delta=delta, rel_tol=rel_tol)
    except _BudgetSpent:
        pass  # the ends below are read off the points evaluated so far: a wider, still sound interval
    return _verified_ends(cache, delta)


def _verified_ends(cache: dict[float, tuple[float, float]], delta: float) -> tuple[float, float, bool]:
    """The contract, read off the evaluated points: the smallest eps whose certified upper delta is <= delta
    (eps0 is one: checked first), and the largest eps below it whose certified lower delta is > delta (or 0)."""
    upper = min(x for x, (_, d_up) in cache.items() if d_up <= delta)
    lower = max((x for x, (d_low, _) in cache.items() if d_low > delta and x <= upper), default=0.0)
    return lower, upper, True


FAST_EVALUATIONS = 8


def _log(value: float) -> float:
    return math.log(value) if value > 0 else -745.0


def _secant_search(
    at: Callable[[float], tuple[float, float]], cache: dict[float, tuple[float, float]], *, eps0: float, delta: float, rel_tol: float, hint: float | None, tight: str,
    slope: float | None = None, guess: float | None = None, reaim: Callable[[float, float], float | None] | None = None,
) -> bool:
    """The fast steps of the search: True when they settle the ends `tight` asks for (the caller then reads
    them off the cache), False when they do not (the caller brackets)."""
    log_target = math.log(delta)
    x = float(hint) if hint is not None and math.isfinite(hint) and 0 < hint < eps0 else 0.5 * eps0
    order: list[float] = []
    trusted = True  # the model has not pointed outside the bracket (below)
    if guess is not None and math.isfinite(guess) and 0 < guess < eps0:
        # The aims of both ends at an accurate estimate of the root: the upper end's now, the lower end's next.
        first = guess * (1 + rel_tol / 4)
        x = guess * (1 - rel_tol / 4)
        if first < eps0:
            at(first)
            order.append(first)
            if reaim is not None and tight == "upper" and cache[first][1] > delta:
                # The root lies above the upper end's aim, so the lower end's aim would too: aim again above it.
                better = reaim(first, cache[first][1])
                if better is not None and math.isfinite(better) and first < better * (1 + rel_tol / 4) < eps0:
                    x = better * (1 + rel_tol / 4)
    for _ in range(FAST_EVALUATIONS):
        at(x)
        order.append(x)
        # Upper side: points with hi <= delta; lower side: points with lo > delta.
        up = [p for p, (_, hi) in cache.items() if hi <= delta]
        down_hi = [p for p, (_, hi) in cache.items() if hi > delta]
        low = [p for p, (lo, _) in cache.items() if lo > delta]
        up_lo = [p for p, (lo, _) in cache.items() if lo <= delta]
        x_up = min(up) if up else None
        x_low = max(low) if low else None
        root_hi, two_hi = _predict(cache, 1, log_target, max(down_hi) if down_hi else None, x_up, slope)
        root_lo, two_lo = _predict(cache, 0, log_target, x_low, min(up_lo) if up_lo else None, slope)
        close = x_up is not None and x_low is not None and x_up - x_low <= rel_tol * x_up
        # A prediction settles an end only when it comes from two evaluated points and that end's own delta is
        # a real evaluation (not the trivial delta(eps0) = 0). The lower end's prediction may rest on points all
        # below its root (an extrapolation); it settles that end only while the model has never pointed outside
        # the bracket (`trusted`) or where a real evaluation above the root brackets it: where the model has
        # pointed outside, delta is not shaped as it assumes (near eps0 at small n it falls to 0 like a
        # polynomial), and such an extrapolation settled the lower end of exact.krr_pair_x0 1.1% low (eps0 = 4,
        # n = 50, k = 3, delta = 0.01: 3.8925 for the pair's exact 3.9377).
        bracketed_low = any(0 < cache[p][0] <= delta for p in up_lo)
        done_up = x_up is not None and (close or (two_hi and root_hi is not None and cache[x_up][1] > 0 and x_up <= root_hi * (1 + rel_tol)))
        done_low = x_low is not None and (close or ((trusted or bracketed_low) and two_lo and root_lo is not None and x_low >= root_lo * (1 - rel_tol)))
        need_up = tight in ("upper", "both")
        need_low = tight in ("lower", "both")
        if x_up is not None and (done_up or not need_up) and (done_low or not need_low):
            return True
        # An end whose next aim would not improve on its best point (the point already lies within rel_tol/4 of
        # its predicted root) waits for the other end's evaluation, which gives it a two-point prediction.
        aim_up = need_up and not done_up and not (x_up is not None and root_hi is not None and root_hi * (1 + rel_tol / 4) >= x_up and need_low and not done_low)
        if aim_up:
            target, bracket_lo, bracket_hi, side = root_hi, (max(down_hi) if down_hi else 0.0), (x_up if x_up is not None else eps0), +1
        else:
            target, bracket_lo, bracket_hi, side = root_lo, (x_low if x_low is not None else 0.0), (min(up_lo) if up_lo else eps0), -1
        if target is None or not math.isfinite(target):
            return False
        x = target * (1 + side * rel_tol / 4)
        # Stay strictly inside the bracket (a geometric or plain midpoint when the model points outside, or when
        # the last two points fell on the same side of the target: the model is not converging there).
        sides = [cache[p][1 if side > 0 else 0] > delta for p in order[-2:]]
        stalled = len(sides) == 2 and sides[0] == sides[1] and bracket_lo > 0 and bracket_hi < eps0
        if stalled:
            x = 0.5 * (bracket_lo + bracket_hi)
        elif not bracket_lo < x < bracket_hi:
            trusted = False
            x = math.sqrt(bracket_lo * bracket_hi) if bracket_lo > 0 else 0.5 * bracket_hi
        if x in cache or not 0 < x < eps0:
            return False
    return False


def _predict(
    cache: dict[float, tuple[float, float]], side: int, log_target: float, below: float | None, above: float | None, slope: float | None = None
) -> tuple[float | None, bool]:
    """(predicted root of log delta_side(eps) = log_target, whether it rests on two or more points).
    Three points nearest the target (in log delta): inverse quadratic interpolation of eps^2 in log delta,
    kept when it falls inside the bracket [below, above]; two: a secant on (eps^2, log delta) (delta ~
    exp(-c eps^2) has Gaussian tails); one: log delta = log delta(x1) + slope log(eps / x1) when `slope` is
    given, else log delta = -c eps^2 through it."""
    points = [p for p in cache if p > 0 and cache[p][side] > 0]
    ranked = sorted(points, key=lambda p: abs(_log(cache[p][side]) - log_target))
    lo_end = below if below is not None else 0.0
    hi_end = above if above is not None else math.inf
    if len(ranked) >= 3:
        xs = ranked[:3]
        ls = [_log(cache[x][side]) for x in xs]
        if len(set(ls)) == 3:
            y = 0.0
            for i in range(3):
                term = xs[i] * xs[i]
                for j in range(3):
                    if j != i:
                        term *= (log_target - ls[j]) / (ls[i] - ls[j])
                y += term
            if y > 0 and lo_end < math.sqrt(y) < hi_end:
                return math.sqrt(y), True
    if len(ranked) >= 2:
        pair = [below, above] if below is not None and above is not None and below in ranked and above in ranked else ranked[:2]
        (x1, x2) = pair
        l1, l2 = _log(cache[x1][side]), _log(cache[x2][side])
        squares = x2 * x2 - x1 * x1  # 0 for distinct points below ~1e-154, where eps^2 underflows: no secant there
        if squares != 0 and l1 != l2:
            slope = (l2 - l1) / squares
            if slope < 0:
                y = x2 * x2 + (log_target - l2) / slope
                if y > 0:
                    return math.sqrt(y), True
        return None, False
    if not ranked:
        return None, False
    x1 = ranked[0]
    l1 = _log(cache[x1][side])
    if slope is not None and l1 > -745.0:
        return x1 * math.exp(max(min((log_target - l1) / slope, 5.0), -5.0)), False
    if l1 >= 0 or log_target >= 0:
        return None, False
    return x1 * math.sqrt(log_target / l1), False


def _illinois(at: Callable[[float], tuple[float, float]], side: int, lo: float, hi: float, *, delta: float, rel_tol: float) -> tuple[float, float]:
    """[lo, hi] with delta's bracket end `side` (0 lower, 1 upper) > delta at lo and <= delta at hi, narrowed
    to rel_tol; returns (lo, hi). Secant steps on log delta (Illinois: the end kept twice in a row has its value
    halved); bisection while delta(hi) = 0. At most ILLINOIS_STEPS evaluations."""
    log_target = math.log(delta)

    def f(x: float) -> float:
        value = at(x)[side]
        return (math.log(value) if value > 0 else -800.0) - log_target

    f_lo, f_hi = f(lo), f(hi)
    last = 0
    for _ in range(ILLINOIS_STEPS):
        if hi - lo <= rel_tol * hi:
            break
        if at(hi)[side] <= 0:
            x = 0.5 * (lo + hi)
        else:
            x = hi - f_hi * (hi - lo) / (f_hi - f_lo)
            x = min(max(x, lo + 1e-4 * (hi - lo)), hi - 1e-4 * (hi - lo))
        fx = f(x)
        if fx > 0:
            lo, f_lo = x, fx
            if last == +1:
                f_hi /= 2
            last = +1
        else:
            hi, f_hi = x, fx
            if last == -1:
                f_lo /= 2
            last = -1
    return lo, hi


def _bracketing_search(at: Callable[[float], tuple[float, float]], cache: dict[float, tuple[float, float]], *, delta: float, rel_tol: float) -> None:
    """The finishing steps of the search: Illinois regula falsi on log delta, first on delta's certified upper
    end (narrowing the bracket of the upper end found so far to rel_tol), then on its lower end. It only
    evaluates; the caller reads the ends off the cache (eps0, certified, is in it)."""
    # The bracket of the upper end from the points already evaluated (the fast steps'), else [0, eps0].
    high_start = min(x for x, (_, d_hi) in cache.items() if d_hi <= delta)
    below = [x for x, (_, d_hi) in cache.items() if d_hi > delta and x < high_start]
    if below:
        low_start = max(below)
    else:
        if at(0.0)[1] <= delta:
            return  # eps = 0 is certified
        low_start = 0.0
    _, upper = _illinois(at, 1, low_start, high_start, delta=delta, rel_tol=rel_tol)
    _lower_end_search(at, cache, upper, delta=delta, rel_tol=rel_tol)


def _lower_end_search(at: Callable[[float], tuple[float, float]], cache: dict[float, tuple[float, float]], upper: float, *, delta: float, rel_tol: float) -> None:
    """The lower end: from the largest evaluated point below `upper` whose certified lower delta exceeds the
    target (else 0), Illinois on delta's lower end up to `upper` (whose lower delta is <= the target)."""
    candidates = [x for x, (d_lo, _) in cache.items() if d_lo > delta and x <= upper]
    lower = max(candidates) if candidates else 0.0
    if at(lower)[0] > delta and at(upper)[0] <= delta:
        _illinois(at, 0, lower, upper, delta=delta, rel_tol=rel_tol)


def closed_form_epsilon(delta_of_eps: Callable[[float], float], *, eps0: float, delta: float, eps_max: float) -> BoundValue:
    """The smallest eps in (0, eps_max] at which a bound's delta(eps) <= delta, verified there; eps0
    with a note when none is (no amplification provable: a shuffled eps0-LDP randomizer is eps0-DP).

    For bounds whose delta(eps) is a float already rounded up (an upper bound in floating point, non-increasing
    in eps): the point returned is one where delta(eps) <= delta was evaluated (bisection,
    `shuffle_spec.reference.numerics.inversion.smallest_argument_within`, to CLOSED_FORM_REL_TOL). Range:
    0 < delta < 1, 0 < eps_max <= eps0 (the BBGN19 Hoeffding and Bennett bounds)."""
    require_positive("eps0", eps0)
    require_probability("delta", delta)
    require_positive("eps_max", eps_max)
    if not delta_of_eps(eps_max) <= delta:
        return BoundValue(eps0, eps0, NO_AMPLIFICATION, direction="upper_bound")
    # The search starts 12 decades below eps_max; eps_max * 1e-12 underflows to 0 below eps_max ~ 5e-312 (a subnormal
    # eps0 is in range), and delta(eps) is defined for eps > 0 only: the smallest positive double then.
    lo = max(eps_max * 1e-12, math.ulp(0.0))
    if lo >= eps_max:  # eps_max is that double: delta(eps_max) <= delta was verified above, nothing lies between
        return BoundValue(0.0, eps_max, direction="upper_bound")
    eps = smallest_argument_within(delta_of_eps, delta, lo, eps_max, name="eps", rel_tol=CLOSED_FORM_REL_TOL)
    lower = lo if eps == lo else max(lo, eps - CLOSED_FORM_REL_TOL * max(1.0, eps))
    return BoundValue(min(lower, eps), eps, direction="upper_bound")


def closed_form_largest_eps0(delta_of_eps0: Callable[[float], float], *, eps: float, delta: float, strict: bool) -> float:
    """The largest eps0 >= eps at which the bound's delta(eps, eps0) <= delta, verified there; eps itself
    when none above it is (an eps-LDP randomizer is trivially (eps, 0)-DP after shuffling). Searched in
    [eps, eps + EPS0_SEARCH_SPAN] (above eps itself with `strict`, for bounds whose hypothesis is eps < eps0),
    delta(eps, eps0) a float upper bound non-decreasing in eps0."""
    require_positive("eps", eps)
    require_probability("delta", delta)
    lo = eps * (1 + 1e-12) if strict else eps
    hi = eps + EPS0_SEARCH_SPAN
    if not delta_of_eps0(lo) <= delta:
        return eps
    return largest_argument_within(delta_of_eps0, delta, lo, hi, name="eps0", rel_tol=CLOSED_FORM_REL_TOL)


def closed_form_epsilon_mp(
    delta_of_eps: Callable[[mpmath.mpf], mpmath.mpf], *, eps0: float, delta: float, eps_max: float, dps: int
) -> tuple[mpmath.mpf, mpmath.mpf]:
    """An enclosure (low, high), in mpmath at `dps` digits, of the quantity `closed_form_epsilon`
    approximates: the smallest eps in (0, eps_max] with delta(eps) <= delta (delta(eps) decreases in eps),
    or eps0 when delta(eps_max) > delta. The same search range as the float inversion (eps_max is the
    same double): a root below its floor eps_max 1e-12, where the float returns the floor, is declined
    (ValueError) rather than enclosed. Used by the `_mp` paths of `reference.bounds.hoeffding` and `.bennett`."""
    tolerance = relative_tolerance_mp(dps)  # validates dps
    with mpmath.workdps(int(dps)):
        target = mpmath.mpf(delta)
        top = mpmath.mpf(eps_max)
        if not delta_of_eps(top) <= target:
            value = mpmath.mpf(eps0)  # no amplification provable: the statement's value is eps0 itself
            return value, value
        floor = mpmath.mpf(eps_max * 1e-12)  # the float inversion's lower end, the same double
        if delta_of_eps(floor) <= target:
            raise ValueError(
                f"eps0 = {eps0!r}: the smallest eps lies below the search floor eps0 * 1e-12, outside the high-precision range"
            )
        low, high = bracket_boundary_mp(lambda e: delta_of_eps(e) <= target, top, floor, dps=int(dps))
        if not high - low <= tolerance * high:
            raise ValueError(f"eps0 = {eps0!r}: the bracket did not narrow, outside the high-precision range")
        return low, high
