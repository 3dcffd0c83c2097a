"""The certified epsilon solver: the smallest eps whose certified delta bracket is at most the target delta.

Every numeric amplification bound defined through a privacy profile (the clone bounds FMT21.clones_numeric and
FMT23.stronger_clones, exact binary randomized response, the composition of shuffled rounds, the exact blanket
bounds BBGN19.Lem5.3.exact_*, the pair lower bounds exact.*_pair_*) states eps(delta) = min{eps in [0, eps0] :
delta(eps) <= delta} for a delta(eps) that is non-increasing in eps with delta(eps0) = 0, and can only evaluate
certified brackets [lower, upper] of delta(eps). This module finds that eps from such brackets, with the one
contract every bound relies on:

- the returned upper end u was evaluated and delta's certified upper end at u is <= delta (so the exact eps
  of the bound is <= u);
- the returned lower end l was evaluated and delta's certified lower end at l is > delta (so the exact eps
  is > l), or l = 0;
- the search (guesses, secant and interpolation steps, tolerances, budgets) decides only WHERE delta is
  evaluated, never whether an end is valid: a search cut short returns a wider, equally sound interval.

Two searches share that contract, chosen by how expensive and how smooth the caller's brackets are:

- `solve_epsilon` (the clone windows, exact binary randomized response, composition): certifies a pair
  of points around an uncertified `guess` of the root (re-centred by secant steps), then bisects in eps
  with steps placed by interpolating log delta; bounded by a number of evaluations; returns a
  `BoundValue` (with the no-amplification note when nothing below eps0 is certified).
- `solve_certified_epsilon` (the lattice sums of the exact blanket bounds and of the pair lower bounds):
  secant steps on (log eps, log delta) from a `hint`, aimed just past the predicted root on the side being
  certified, then Illinois regula falsi; returns (lower, upper, found).

They are kept apart because their evaluation points differ, and so do the (equally certified) ends they
stop at: merging them would move every published value of the bounds that use them.
`uncertified_root` places guesses (it never certifies anything).

Bounds with a closed-form delta(eps) (a float already rounded up, so the bracket is a single point) are
inverted by `closed_form_epsilon` (and `closed_form_epsilon_mp`, its high-precision enclosure for the test
vectors) with the same contract; `closed_form_largest_eps0` inverts them in eps0 instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypedDict

import mpmath

from ..core.errors import ParameterError, require_integer, require_positive, require_probability
from ..core.results import NO_AMPLIFICATION, BoundValue
from .inversion import largest_argument_within, smallest_argument_within
from .inversion_mp import bracket_boundary_mp, relative_tolerance_mp

__all__ = [
    "CLOSED_FORM_REL_TOL",
    "DEFAULT_REL_TOL",
    "EPS0_SEARCH_SPAN",
    "GUESS_ROUNDS",
    "MAX_CERTIFIED_EVALUATIONS",
    "closed_form_epsilon",
    "closed_form_epsilon_mp",
    "closed_form_largest_eps0",
    "solve_certified_epsilon",
    "solve_epsilon",
    "uncertified_root",
]

# `solve_epsilon` stops when the eps bracket is this narrow relative to its upper end (the clone bounds' tolerance).
DEFAULT_REL_TOL = 1e-7
# Secant re-centrings of the certified pair of points around an estimated root before bisecting.
GUESS_ROUNDS = 3
# Certified delta evaluations per `solve_epsilon` call unless the caller sets its own budget (the clone bounds
# derive theirs from the work of one evaluation: `shuffle_spec.reference.bounds.clones.CERTIFIED_WORK`).
MAX_CERTIFIED_EVALUATIONS = 400
# The closed-form inversions (`closed_form_epsilon`, `closed_form_largest_eps0`): relative tolerance of their
# bisections (the returned point is always one where the bound was verified), and the largest distance above
# eps that the eps0 inversion searches (e^40 is far beyond any useful local epsilon).
CLOSED_FORM_REL_TOL = 1e-9
EPS0_SEARCH_SPAN = 40.0


def uncertified_root(function: Callable[[float], float], low: float, high: float, rtol: float) -> float:
    """A root of `function` in [low, high] (function(low) > 0 >= function(high), decreasing) to relative
    tolerance `rtol`, by regula falsi with the Illinois step and a bisection every third step.
    Uncertified: it only places a certified search (`solve_epsilon`'s guess)."""
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


class _Ends(TypedDict):
    """`solve_epsilon`'s verified ends and log(delta/target) estimates there (None: not yet known)."""

    low: float
    high: float
    f_low: float | None
    f_high: float | None


class _BudgetSpent(Exception):
    """Raised inside `solve_epsilon` when MAX_CERTIFIED_EVALUATIONS have been used."""


def solve_epsilon(
    delta_bounds: Callable[[float], tuple[float, float]], *, eps0: float, delta: float, rel_tol: float = DEFAULT_REL_TOL, guess: float | None = None,
    max_evaluations: int = MAX_CERTIFIED_EVALUATIONS,
) -> BoundValue:
    """The certified interval of min{eps in [0, eps0] : delta(eps) <= delta} for a non-increasing
    delta(eps) with delta(eps0) = 0, given certified brackets of delta(eps).

    Both ends stay verified: delta's upper end <= target at `upper` (so the exact eps <= upper), delta's
    lower end > target at `lower` (so the exact eps > lower), or lower = 0. With a `guess` (an
    uncertified estimate of the root), first the two points guess (1 +- 0.4 rel_tol) are certified,
    re-centred by a secant step through their certified values up to GUESS_ROUNDS times; whatever is
    not settled then goes to bisection in eps, with steps placed by interpolating log delta once the
    bracket is known on both sides. The guess only decides where delta is evaluated, never what is
    returned: every end returned was verified by `delta_bounds`. At most MAX_CERTIFIED_EVALUATIONS
    (`max_evaluations`) evaluations are made (bounded time); when they run out, the verified ends reached
    so far are returned.
    """
    require_positive("eps0", eps0)
    require_probability("delta", delta)
    require_positive("rel_tol", rel_tol)
    require_integer("max_evaluations", max_evaluations, minimum=1)
    if guess is not None and not (isinstance(guess, (int, float)) and math.isfinite(guess)):
        raise ParameterError("guess", guess, "None or a finite float")
    log_target = math.log(delta)
    ends: _Ends = {"low": 0.0, "high": float(eps0), "f_low": None, "f_high": None}
    certify = delta_bounds
    evaluations = [0]

    def counted_bounds(x: float) -> tuple[float, float]:
        if evaluations[0] >= max_evaluations:
            raise _BudgetSpent
        evaluations[0] += 1
        return certify(x)

    def probe(x: float) -> float:
        """Certify delta at x, move the verified ends, return log(midpoint of delta's bracket / target)."""
        d_low, d_up = counted_bounds(x)
        estimate = math.log(max(0.5 * (d_low + d_up), 1e-300)) - log_target
        if d_up <= delta and x < ends["high"]:
            ends["high"], ends["f_high"] = x, estimate
        elif d_low > delta and x > ends["low"]:
            ends["low"], ends["f_low"] = x, estimate
        return estimate

    def narrow() -> bool:
        return ends["high"] - ends["low"] <= rel_tol * ends["high"]

    def result() -> BoundValue:
        return BoundValue(ends["low"], ends["high"], NO_AMPLIFICATION if ends["high"] >= eps0 else "", direction="exact")

    try:
        if guess is not None and 0 < guess < eps0:
            x = float(guess)
            for _ in range(GUESS_ROUNDS):
                half = 0.4 * rel_tol * x
                above, below = min(x + half, float(eps0)), max(x - half, 0.0)
                f_above, f_below = probe(above), probe(below)
                if narrow():
                    return result()
                if not f_above < f_below:
                    break  # no usable slope: leave it to the bisection
                x = below - f_below * (above - below) / (f_above - f_below)  # secant root
                if not ends["low"] < x < ends["high"]:
                    break
        if ends["f_low"] is None:
            d_low0, d_up0 = counted_bounds(0.0)
            if d_up0 <= delta:
                return BoundValue(0.0, 0.0, "delta(0) <= delta: eps = 0", direction="exact")
            ends["f_low"] = math.log(max(0.5 * (d_low0 + d_up0), 1e-300)) - log_target
        side = 0
        for _ in range(200):
            low_end, high_end, f_low, f_high = ends["low"], ends["high"], ends["f_low"], ends["f_high"]
            if f_low is None:  # cannot happen: set just before the loop and never cleared
                raise RuntimeError("solve_epsilon: no estimate at the lower end")
            width = high_end - low_end
            if width <= rel_tol * high_end:
                break
            mid = low_end + 0.5 * width
            if f_high is not None and f_low > 0 > f_high:
                guess_step = low_end + width * f_low / (f_low - f_high)
                # Keep the step inside the bracket's middle and push it a little past the estimated root
                # alternately, so that both ends move (the Illinois idea).
                nudge = 0.25 * rel_tol * high_end * (1 if side <= 0 else -1)
                mid = min(max(guess_step + nudge, low_end + 0.02 * width), high_end - 0.02 * width)
            probe(mid)
            if ends["high"] == mid:
                side = 1 if side <= 0 else side + 1
            elif ends["low"] == mid:
                side = -1 if side >= 0 else side - 1
            else:
                # Ambiguous at mid: delta's bracket straddles the target; tighten each side separately.
                step = 0.25 * (high_end - low_end)
                for _ in range(40):
                    if step <= 0.5 * rel_tol * ends["high"]:
                        break
                    probe_up, probe_low = mid + step, mid - step
                    if probe_up < ends["high"] and counted_bounds(probe_up)[1] <= delta:
                        ends["high"] = probe_up
                    if probe_low > ends["low"] and counted_bounds(probe_low)[0] > delta:
                        ends["low"] = probe_low
                    step *= 0.5
                break
    except _BudgetSpent:
        pass  # both ends are verified: a wider, still sound interval
    return result()


def solve_certified_epsilon(
    delta_bounds: Callable[[float], tuple[float, float]], *, eps0: float, delta: float, rel_tol: float, max_evaluations: int = 60, hint: float | None = None,
    tight: str = "both", slope: float | None = None,
) -> tuple[float, float, bool]:
    """(lower, upper, found) with delta's certified upper end <= delta at `upper` (so the exact eps of the
    bound is <= upper) and its lower end > delta at `lower` (or lower = 0). `found` is False when even eps0 is
    not certified (then upper = eps0). Only evaluated points are returned, so the tolerance and the search
    decide tightness, never validity. delta_bounds(eps) -> (lower, upper) must be non-increasing in eps with
    delta(eps0) = 0.

    The search: secant steps on (log eps, log delta) from `hint` (an eps believed to be near the answer, e.g. a
    looser bound's), each aimed rel_tol/4 beyond the predicted root on the side being certified, so that
    usually 3-4 evaluations settle both ends; `tight` = "upper" / "lower" / "both" says which end must be
    within rel_tol of its root (the other is the best evaluated point). If that does not settle within
    FAST_EVALUATIONS, Illinois regula falsi on the brackets found so far finishes.
    `slope` (d log delta / d log eps near the root, negative; e.g. `normal_elasticity` at the hint) replaces
    the Gaussian-tail model in the step from a single evaluated point: usually one evaluation fewer."""
    require_positive("eps0", eps0)
    require_probability("delta", delta)
    require_positive("rel_tol", rel_tol)
    if tight not in ("upper", "lower", "both"):
        raise ParameterError("tight", tight, "'upper', 'lower' or 'both'")
    cache: dict[float, tuple[float, float]] = {}

    def at(x: float) -> tuple[float, float]:
        if x not in cache:
            cache[x] = delta_bounds(x)
        return cache[x]

    if at(float(eps0))[1] > delta:
        return 0.0, float(eps0), False
    if slope is not None and not (isinstance(slope, (int, float)) and math.isfinite(slope) and slope < 0):
        raise ParameterError("slope", slope, "a finite negative number (d log delta / d log eps) or None")
    settled = _secant_search(at, cache, eps0=float(eps0), delta=delta, rel_tol=rel_tol, hint=hint, tight=tight, slope=slope)
    if settled is not None:
        return settled
    return _bracketing_solve(delta_bounds, cache, eps0=eps0, delta=delta, rel_tol=rel_tol, max_evaluations=max_evaluations, hint=hint)


FAST_EVALUATIONS = 8


def _log(value: float) -> float:
    return math.log(value) if value > 0 else -745.0


def _secant_search(
    at: Callable[[float], tuple[float, float]], cache: dict[float, tuple[float, float]], *, eps0: float, delta: float, rel_tol: float, hint: float | None, tight: str,
    slope: float | None = None,
) -> tuple[float, float, bool] | None:
    """The fast path of solve_certified_epsilon; None when it does not settle (the caller then brackets)."""
    log_target = math.log(delta)
    x = float(hint) if hint is not None and math.isfinite(hint) and 0 < hint < eps0 else 0.5 * eps0
    order: list[float] = []
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
        # a real evaluation (not the trivial delta(eps0) = 0).
        done_up = x_up is not None and (close or (two_hi and root_hi is not None and cache[x_up][1] > 0 and x_up <= root_hi * (1 + rel_tol)))
        done_low = x_low is not None and (close or (two_lo and root_lo is not None and x_low >= root_lo * (1 - rel_tol)))
        need_up = tight in ("upper", "both")
        need_low = tight in ("lower", "both")
        if x_up is not None and (done_up or not need_up) and (done_low or not need_low):
            lower = x_low if x_low is not None and x_low <= x_up else 0.0
            return lower, x_up, True
        # An end whose next aim would not improve on its best point (the point already lies within rel_tol/4 of
        # its predicted root) waits for the other end's evaluation, which gives it a two-point prediction.
        aim_up = need_up and not done_up and not (x_up is not None and root_hi is not None and root_hi * (1 + rel_tol / 4) >= x_up and need_low and not done_low)
        if aim_up:
            target, bracket_lo, bracket_hi, side = root_hi, (max(down_hi) if down_hi else 0.0), (x_up if x_up is not None else eps0), +1
        else:
            target, bracket_lo, bracket_hi, side = root_lo, (x_low if x_low is not None else 0.0), (min(up_lo) if up_lo else eps0), -1
        if target is None or not math.isfinite(target):
            return None
        x = target * (1 + side * rel_tol / 4)
        # Stay strictly inside the bracket (a geometric or plain midpoint when the model points outside, or when
        # the last two points fell on the same side of the target: the model is not converging there).
        sides = [cache[p][1 if side > 0 else 0] > delta for p in order[-2:]]
        stalled = len(sides) == 2 and sides[0] == sides[1] and bracket_lo > 0 and bracket_hi < eps0
        if stalled:
            x = 0.5 * (bracket_lo + bracket_hi)
        elif not bracket_lo < x < bracket_hi:
            x = math.sqrt(bracket_lo * bracket_hi) if bracket_lo > 0 else 0.5 * bracket_hi
        if x in cache or not 0 < x < eps0:
            return None
    return None


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
        if x1 != x2 and l1 != l2:
            slope = (l2 - l1) / (x2 * x2 - x1 * x1)
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


def _bracketing_solve(
    delta_bounds: Callable[[float], tuple[float, float]], cache: dict[float, tuple[float, float]], *, eps0: float, delta: float, rel_tol: float, max_evaluations: int, hint: float | None
) -> tuple[float, float, bool]:
    """(lower, upper, found) with delta's certified upper end <= delta at `upper` (so the exact eps of the
    bound is <= upper) and its lower end > delta at `lower` (or lower = 0): Illinois regula falsi on
    log delta, first for the upper end, then for the lower end. `found` is False when even eps0 is not
    certified (then upper = eps0). Only evaluated points are returned, so the tolerance decides tightness,
    never validity. delta_bounds(eps) -> (lower, upper) must be non-increasing in eps with delta(eps0) = 0.
    `hint` (an eps believed to be above the answer, e.g. a looser bound's) narrows the first bracket to
    [hint/2, hint] when both ends are verified on the right sides; it only decides where delta is evaluated."""
    log_target = math.log(delta)

    def at(x: float) -> tuple[float, float]:
        if x not in cache:
            cache[x] = delta_bounds(x)
        return cache[x]

    def f(x: float, side: int) -> float:
        value = at(x)[side]
        return (math.log(value) if value > 0 else -800.0) - log_target

    def illinois(side: int, lo: float, hi: float) -> tuple[float, float]:
        """[lo, hi] with f(lo) > 0 >= f(hi) narrowed to rel_tol; returns (lo, hi). Secant steps on log delta
        (Illinois: the end kept twice in a row has its value halved); bisection while delta(hi) = 0."""
        f_lo, f_hi = f(lo, side), f(hi, side)
        last = 0
        for _ in range(max_evaluations):
            if hi - lo <= rel_tol * hi:
                break
            if at(hi)[side] <= 0:
                x = 0.5 * (lo + hi)
            else:
                x = hi - f_hi * (hi - lo) / (f_hi - f_lo)
                x = min(max(x, lo + 1e-4 * (hi - lo)), hi - 1e-4 * (hi - lo))
            fx = f(x, side)
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

    if at(float(eps0))[1] > delta:
        return 0.0, float(eps0), False
    # The bracket of the upper end from the points already evaluated (the fast search's), else [0, eps0].
    high_start = min(x for x, (_, d_hi) in cache.items() if d_hi <= delta)
    below = [x for x, (_, d_hi) in cache.items() if d_hi > delta and x < high_start]
    if below:
        low_start = max(below)
    else:
        if at(0.0)[1] <= delta:
            return 0.0, 0.0, True
        low_start = 0.0
    _, upper = illinois(1, low_start, high_start)
    # The lower end: the largest evaluated point whose certified lower delta exceeds the target, refined.
    candidates = [x for x, (d_lo, _) in cache.items() if d_lo > delta and x <= upper]
    lower = max(candidates) if candidates else 0.0
    if at(lower)[0] > delta:
        lower, _ = illinois(0, lower, upper)
    return lower, upper, True


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
    lo = eps_max * 1e-12
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
