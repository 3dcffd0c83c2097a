"""High-precision bracketing of the boundary of a monotone condition, for the `<function>_mp` paths.

The test vectors (`interface/vectors/files.py`) carry 20 significant digits of each statement's value.
For a statement defined as the root (or the largest / smallest feasible point) of its own equation, the
reference module's `<function>_mp(*, dps, **inputs)` finds that point here, in mpmath at `dps` digits:
bisection of a bracket [good, bad] whose ends were evaluated, the condition holding at `good` and failing
at `bad`, until the bracket is narrower than 10^-(3 dps / 4) relative. The pair returned is the final
bracket, sorted: an enclosure of the boundary, exact up to the evaluation error of the condition at `dps`
digits (the callers' conditions lose at most ~20 of them), which the vectors' check at two precisions
(40 and 80 digits must give the same 20-digit strings) confirms.

Deterministic: pure mpmath arithmetic from inputs that do not depend on any floating-point computation
(no starting point taken from a double), so the same call gives the same bracket on every machine.
"""

from __future__ import annotations

from typing import Callable

import mpmath

from ..core.errors import require_integer

__all__ = ["bracket_boundary_mp", "relative_tolerance_mp"]

# Enough for any use here: the geometric phase needs log2(log2(ratio)) steps (< 15 for any bracket
# between 1e-300 and 1e300), the arithmetic one log2(10^(3 dps / 4)) ~ 2.5 dps.
_MAX_STEPS_PER_DIGIT = 4
_MAX_STEPS_FLOOR = 100


def relative_tolerance_mp(dps: int) -> mpmath.mpf:
    """10^-(3 dps / 4): the relative width at which `bracket_boundary_mp` stops. Far below the 20 digits
    written into the vectors, and far above the working precision's own resolution (10^-dps)."""
    require_integer("dps", dps, minimum=20)
    return mpmath.mpf(10) ** (-(3 * int(dps)) // 4)


def bracket_boundary_mp(holds: Callable[[mpmath.mpf], bool], good: mpmath.mpf, bad: mpmath.mpf, *, dps: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """The final bracket (low, high), sorted, of the bisection of [good, bad] (either order, both > 0) on
    the boundary of `holds`, which must hold at `good` and fail at `bad` (ValueError otherwise).

    Midpoints are geometric while the ends are more than a factor 2 apart (a bracket spanning decades
    shrinks in log scale), arithmetic after. Runs in the caller's mpmath context; `dps` sets the
    stopping tolerance (`relative_tolerance_mp`)."""
    tolerance = relative_tolerance_mp(dps)
    good, bad = mpmath.mpf(good), mpmath.mpf(bad)
    if not (good > 0 and bad > 0 and good != bad):
        raise ValueError(f"bracket ends {good}, {bad}: expected two different positive numbers")
    if not holds(good):
        raise ValueError(f"the condition fails at the bracket's good end {good}")
    if holds(bad):
        raise ValueError(f"the condition holds at the bracket's bad end {bad}")
    for _ in range(max(_MAX_STEPS_FLOOR, _MAX_STEPS_PER_DIGIT * int(dps))):
        low, high = min(good, bad), max(good, bad)
        if high - low <= tolerance * high:
            return low, high
        middle = mpmath.sqrt(low * high) if high > 2 * low else (low + high) / 2
        if not low < middle < high:  # cannot happen above the working precision's resolution
            return low, high
        if holds(middle):
            good = middle
        else:
            bad = middle
    raise ValueError(f"the bracket [{min(good, bad)}, {max(good, bad)}] did not narrow to {tolerance} relative")
