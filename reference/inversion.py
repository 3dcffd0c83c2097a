"""Bracketing root finding that errs on the safe side.

Inverting a bound (eps0 for a target eps, eps for a target delta, n for a target eps) must never
return a value that the bound does not certify. Both functions bisect a bracket and return the end
of the final bracket at which the condition was *verified* by evaluating the function there, so the
answer is safe whatever the tolerance; the tolerance only limits how conservative it is.
"""

from __future__ import annotations

import math
from typing import Callable

from shuffle_spec.reference.errors import ParameterError

__all__ = ["largest_argument_within", "smallest_argument_within"]


def _check_bracket(lo: float, hi: float, name: str) -> None:
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ParameterError(f"bracket for {name}", (lo, hi), "finite lo < hi")


def _bracket_is_narrow(lo: float, hi: float, rel_tol: float, abs_tol: float) -> bool:
    """Relative to the bracket's magnitude (so small answers keep their relative precision)."""
    return hi - lo <= max(rel_tol * max(abs(lo), abs(hi)), abs_tol)


def _bisect_boundary(
    holds: Callable[[float], bool], good: float, bad: float, rel_tol: float, abs_tol: float, max_iter: int
) -> float:
    """Shrink [good, bad] (either order) around the boundary of `holds`, keeping holds(good) true;
    return `good`, a point where the condition was evaluated and holds."""
    for _ in range(max_iter):
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


def largest_argument_within(
    f: Callable[[float], float], target: float, lo: float, hi: float, *, name: str, rel_tol: float = 1e-10, abs_tol: float = 0.0, max_iter: int = 200
) -> float:
    """The largest x in [lo, hi] with f(x) <= target (to `rel_tol`), for f non-decreasing in x.

    Returns a point at which f(x) <= target was evaluated and holds. Raises ValueError naming `name`
    when even f(lo) exceeds the target.
    """
    _check_bracket(lo, hi, name)
    if not f(lo) <= target:
        raise ParameterError(name, lo, f"a value in [{lo}, {hi}] whose bound is at most {target}; even {name} = {lo} gives {f(lo)}")
    if f(hi) <= target:
        return hi
    return _bisect_boundary(lambda x: f(x) <= target, lo, hi, rel_tol, abs_tol, max_iter)


def smallest_argument_within(
    f: Callable[[float], float], target: float, lo: float, hi: float, *, name: str, rel_tol: float = 1e-10, abs_tol: float = 0.0, max_iter: int = 200
) -> float:
    """The smallest x in [lo, hi] with f(x) <= target (to `rel_tol`), for f non-increasing in x.

    Returns a point at which f(x) <= target was evaluated and holds (the upper end of the final
    bracket). Raises ValueError naming `name` when even f(hi) exceeds the target.
    """
    _check_bracket(lo, hi, name)
    if not f(hi) <= target:
        raise ParameterError(name, hi, f"a value in [{lo}, {hi}] whose bound is at most {target}; even {name} = {hi} gives {f(hi)}")
    if f(lo) <= target:
        return lo
    return _bisect_boundary(lambda x: f(x) <= target, hi, lo, rel_tol, abs_tol, max_iter)
