"""Bracketing root finding that errs on the safe side.

Inverting a bound (eps0 for a target eps, eps for a target delta, n for a target eps) must never
return a value that the bound does not certify. Both functions shrink a bracket and return the end
of the final bracket at which the condition was *verified* by evaluating the function there, so the
answer is safe whatever the tolerance; the tolerance only limits how conservative it is.

Steps: bisection by default; with `interpolate=True`, the ITP method (Oliveira and Takahashi, "An
Enhancement of the Bisection Method Average Performance Preserving Minmax Optimality", ACM TOMS 47(1),
2020): a regula falsi point, truncated towards the midpoint and projected into a shrinking interval
around it, so that a smooth function is settled in a few evaluations (superlinear convergence) while
the number of steps never exceeds bisection's by more than one (n0 = 1). Only WHERE the function is
evaluated changes: every returned point is one where the condition was evaluated and holds.
"""

from __future__ import annotations

import math
from typing import Callable

from ..core.errors import ParameterError
from ..core.progress import report, silenced

__all__ = ["largest_argument_within", "smallest_argument_within"]


def _check_bracket(lo: float, hi: float, name: str) -> None:
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ParameterError(f"bracket for {name}", (lo, hi), "finite lo < hi")


def _silently(f: Callable[[float], float]) -> Callable[[float], float]:
    """f, evaluated without progress reports: the loops inside one evaluation (a bound's own bisection) are not the
    progress of the inversion that calls it (`reference.core.progress.silenced`)."""

    def quiet(x: float) -> float:
        with silenced():
            return f(x)

    return quiet


def _bracket_is_narrow(lo: float, hi: float, rel_tol: float, abs_tol: float) -> bool:
    """Relative to the bracket's magnitude (so small answers keep their relative precision)."""
    return hi - lo <= max(rel_tol * max(abs(lo), abs(hi)), abs_tol)


def _bisect_boundary(
    holds: Callable[[float], bool], good: float, bad: float, rel_tol: float, abs_tol: float, max_iter: int, stage: str = "bisection"
) -> float:
    """Shrink [good, bad] (either order) around the boundary of `holds`, keeping holds(good) true;
    return `good`, a point where the condition was evaluated and holds. Each step is reported to the progress
    listener (`reference.core.progress`; the number of steps is not known in advance)."""
    for step in range(max_iter):
        report(stage, step)
        low, high = min(good, bad), max(good, bad)
        if _bracket_is_narrow(low, high, rel_tol, abs_tol):
            break
        mid = low + (high - low) / 2
        if not low < mid < high:
            break  # the bracket is two adjacent floats
        if holds(mid):
            good = mid
        else:
            bad = mid
    return good


def _itp_boundary(
    f: Callable[[float], float], target: float, good: float, bad: float, rel_tol: float, abs_tol: float, max_iter: int,
    stage: str = "bisection",
) -> float:
    """`_bisect_boundary` with ITP steps (module doc) from the values of f: g = f - target is <= 0 at `good`
    and > 0 (or not finite) at `bad`. Where a value is not finite (a point outside the bound's hypotheses)
    the step is the midpoint. Returns `good`, a point where f <= target was evaluated and holds."""
    g_good, g_bad = f(good) - target, f(bad) - target
    width0 = abs(bad - good)
    # The ITP tolerance from the initial bracket; the stopping test is `_bracket_is_narrow` on the current one
    # (bisection steps once the projection radius is spent).
    epsilon = max(rel_tol * max(abs(good), abs(bad)), abs_tol, 1e-300) / 2
    n_max = max(0, math.ceil(math.log2(max(width0 / (2 * epsilon), 1.0)))) + 1
    kappa1 = 0.2 / width0
    for j in range(max_iter):
        report(stage, j)
        low, high = min(good, bad), max(good, bad)
        if _bracket_is_narrow(low, high, rel_tol, abs_tol):
            break
        width = high - low
        half = low + width / 2
        if not low < half < high:
            break  # the bracket is two adjacent floats
        point = half
        if math.isfinite(g_good) and math.isfinite(g_bad) and g_bad > g_good:
            # Regula falsi between (good, g_good) and (bad, g_bad) (g_good <= 0 < g_bad).
            falsi = good + (bad - good) * (-g_good) / (g_bad - g_good)
            sigma = 1.0 if half >= falsi else -1.0
            delta = kappa1 * width * width
            truncated = falsi + sigma * delta if delta <= abs(half - falsi) else half
            radius = max(epsilon * 2.0 ** (n_max - j) - width / 2, 0.0)
            point = truncated if abs(truncated - half) <= radius else half - sigma * radius
            if not low < point < high:
                point = half
        value = f(point) - target
        if value <= 0:
            good, g_good = point, value
        else:
            bad, g_bad = point, value
    return good


def largest_argument_within(
    f: Callable[[float], float], target: float, lo: float, hi: float, *, name: str, rel_tol: float = 1e-10, abs_tol: float = 0.0, max_iter: int = 200,
    interpolate: bool = False,
) -> float:
    """The largest x in [lo, hi] with f(x) <= target (to `rel_tol`), for f non-decreasing in x.

    Returns a point at which f(x) <= target was evaluated and holds. Raises ValueError naming `name`
    when even f(lo) exceeds the target. `interpolate`: ITP steps instead of bisection (module doc).
    """
    _check_bracket(lo, hi, name)
    f = _silently(f)
    if not f(lo) <= target:
        raise ParameterError(name, lo, f"a value in [{lo}, {hi}] whose bound is at most {target}; even {name} = {lo} gives {f(lo)}")
    if f(hi) <= target:
        return hi
    if interpolate:
        return _itp_boundary(f, target, lo, hi, rel_tol, abs_tol, max_iter, f"solving for {name}")
    return _bisect_boundary(lambda x: f(x) <= target, lo, hi, rel_tol, abs_tol, max_iter, f"solving for {name}")


def smallest_argument_within(
    f: Callable[[float], float], target: float, lo: float, hi: float, *, name: str, rel_tol: float = 1e-10, abs_tol: float = 0.0, max_iter: int = 200,
    interpolate: bool = False,
) -> float:
    """The smallest x in [lo, hi] with f(x) <= target (to `rel_tol`), for f non-increasing in x.

    Returns a point at which f(x) <= target was evaluated and holds (the upper end of the final
    bracket). Raises ValueError naming `name` when even f(hi) exceeds the target. `interpolate`: ITP
    steps instead of bisection (module doc).
    """
    _check_bracket(lo, hi, name)
    f = _silently(f)
    if not f(hi) <= target:
        raise ParameterError(name, hi, f"a value in [{lo}, {hi}] whose bound is at most {target}; even {name} = {hi} gives {f(hi)}")
    if f(lo) <= target:
        return lo
    if interpolate:
        return _itp_boundary(f, target, hi, lo, rel_tol, abs_tol, max_iter, f"solving for {name}")
    return _bisect_boundary(lambda x: f(x) <= target, hi, lo, rel_tol, abs_tol, max_iter, f"solving for {name}")
