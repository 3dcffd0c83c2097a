"""The second phase of a two-phase certified epsilon search: the lower end near a known upper end.

Where a certified delta(eps) comes as two ends of different cost (the Laplace bounds: a vectorised spread law for
the upper end, 30-digit lower groups for the lower end; `shuffle_spec.reference.lower_bounds.laplace` and
`shuffle_spec.reference.bounds.blanket_exact_laplace`), the search first settles the upper end from the upper ends
alone (`shuffle_spec.reference.numerics.solver.solve_certified_epsilon` with the lower end set to 0), then calls
`lower_end_search` for the largest eps below it at which the lower end exceeds delta, with a handful of
evaluations. Written here rather than as an option of the solver: the solver evaluates both ends at every point by
contract, and the two callers differ only in their delta functions. Only evaluated points are returned: the
search decides tightness, never validity.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..core.errors import ParameterError, require_integer, require_positive, require_probability

__all__ = ["lower_end_search"]


def lower_end_search(
    lower: Callable[[float], float], upper: float, delta: float, *, slope: float | None, rel_tol: float, evaluations: int
) -> float:
    """The largest evaluated eps in (0, upper) with lower(eps) > delta (0.0 if none), lower(eps) a certified lower end
    of a delta(eps) non-increasing in eps. Searched on log delta: first at upper (1 - rel_tol/2) (the two ends of a
    tight delta are close), then from the predicted root (a secant through the bracket's ends, or `slope` = an
    estimate of d log delta / d eps before there is a bracket). After a failure the next point is a quarter
    tolerance below the prediction and at least 0.9 rel_tol below the failing point; after a success, a quarter
    tolerance below the prediction if that is further up, else 0.9 rel_tol above the success (a failure there
    closes the bracket). Stops when the bracket [success, failure] is within rel_tol or after `evaluations`.
    Range: upper > 0, 0 < delta < 1, rel_tol in (0, 1), evaluations >= 1, slope None or finite and < 0."""
    require_positive("upper", upper)
    require_probability("delta", delta)
    require_positive("rel_tol", rel_tol)
    if not rel_tol < 1:
        raise ParameterError("rel_tol", rel_tol, "0 < rel_tol < 1")
    require_integer("evaluations", evaluations, minimum=1)
    if slope is not None and not (math.isfinite(slope) and slope < 0):
        slope = None  # an estimate only: a useless one is dropped
    values: dict[float, float] = {}

    def at(x: float) -> float:
        if x not in values:
            values[x] = lower(x)
        return values[x]

    best, failed = 0.0, upper
    x = upper * (1 - rel_tol / 2)
    for _ in range(evaluations):
        value = at(x)
        success = value > delta
        if success:
            best = max(best, x)
        else:
            failed = min(failed, x)
        if failed - best <= rel_tol * failed:
            break
        lo_f = values.get(failed, 0.0)
        if best > 0 and lo_f > 0:  # a bracket: secant on log delta between its ends
            lo_b = values[best]
            root = best + (math.log(delta) - math.log(lo_b)) * (failed - best) / (math.log(lo_f) - math.log(lo_b))
        elif value > 0 and slope is not None:
            root = x + (math.log(delta) - math.log(value)) / slope
        else:
            root = 0.5 * (best + failed)
        if success:
            x = max(root * (1 - rel_tol / 4), best * (1 + 0.9 * rel_tol))
        else:
            x = min(root * (1 - rel_tol / 4), failed * (1 - 0.9 * rel_tol))
        if not best < x < failed:
            x = 0.5 * (best + failed)
    return best
