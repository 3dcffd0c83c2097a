"""Bracketing root finding that errs on the safe side.

Inverting a bound (eps0 for a target eps, eps for a target delta, n for a target eps) must never
return a value that the bound does not certify. Both functions bisect a bracket and return the end
of the final bracket at which the condition was *verified* by evaluating the function there, so the
answer is safe whatever the tolerance; the tolerance only limits how conservative it is.
"""

from __future__ import annotations

import math
from typing import Callable

from reference.errors import ParameterError

__all__ = ["largest_argument_within", "smallest_argument_within"]


def _check_bracket(lo: float, hi: float, name: str) -> None:
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ParameterError(f"bracket for {name}", (lo, hi), "finite lo < hi")


def _bracket_is_narrow(lo: float, hi: float, rel_tol: float, abs_tol: float) -> bool:
    """Relative to the bracket's magnitude (so small answers keep their relative precision)."""
    return hi - lo <= max(rel_tol * max(abs(lo), abs(hi)), abs_tol)


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
    for _ in range(max_iter):
        if _bracket_is_narrow(lo, hi, rel_tol, abs_tol):
            break
        mid = lo + (hi - lo) / 2
        if not lo < mid < hi:
            break  # the bracket is two adjacent floats
        if f(mid) <= target:
            lo = mid
        else:
            hi = mid
    return lo


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
    for _ in range(max_iter):
        if _bracket_is_narrow(lo, hi, rel_tol, abs_tol):
            break
        mid = lo + (hi - lo) / 2
        if not lo < mid < hi:
            break  # the bracket is two adjacent floats
        if f(mid) <= target:
            hi = mid
        else:
            lo = mid
    return hi
