"""eps(delta) of a composition from its certified upper delta curve: the one step that the mechanism rounds
(`mechanism_rounds`, compose.binary_rr / compose.krr, module doc U4) and the blanket rounds (`blanket_rounds`,
compose.laplace / compose.finite / compose.randomizer, module doc B4) share.

Both compose per-round dominating pairs (connect the dots, `connect_the_dots` C5) into a `ComposedPLD` whose
`delta(eps)` is a certified UPPER bound on the composed worst-case delta(eps) (pessimistic grids). The search of
`numerics.solver.solve_epsilon` is then fed that one curve as both ends of its bracket: the returned upper end
eps has a certified delta(eps) <= delta, so it is an upper bound on the composed eps(delta); the lower end of a
one-sided curve says nothing about the true eps (the callers put their own certified lower bound there). The
composition's tail budget (the probability mass the discretisation may drop, charged to delta) is delta * 1e-6,
at least 1e-300 (the smallest tail the grids carry). Neighbouring relation: that of the composed pairs (replace
one user's input, for both callers).
"""

from __future__ import annotations

from dataclasses import replace

from ..core.errors import ParameterError, require_positive, require_probability
from ..core.results import BoundValue
from ..numerics.pld import ComposedPLD
from ..numerics.solver import solve_epsilon

__all__ = ["composition_tail", "upper_curve_epsilon"]


def composition_tail(delta: float) -> float:
    """The tail mass a composition at target delta may drop (charged to its delta): delta * 1e-6, at least
    1e-300. Range: 0 < delta < 1."""
    require_probability("delta", delta)
    return max(delta * 1e-6, 1e-300)


def upper_curve_epsilon(composed: ComposedPLD, *, delta: float, rel_tol: float) -> BoundValue:
    """The smallest eps in [0, composed.eps_max] whose certified upper delta(eps) is <= delta (module doc), by
    `solve_epsilon` with the one curve as both bracket ends (its note: the no-amplification note where nothing
    below eps_max is certified). Only the upper end is a claim (an upper bound on the composed eps(delta)).
    Range: a ComposedPLD, 0 < delta < 1, rel_tol > 0."""
    if not isinstance(composed, ComposedPLD):
        raise ParameterError("composed", repr(composed)[:60], "a ComposedPLD (numerics.pld.compose)")
    require_probability("delta", delta)
    require_positive("rel_tol", rel_tol)

    def bounds(eps: float) -> tuple[float, float]:
        value = composed.delta(eps)
        return value, value

    return replace(solve_epsilon(bounds, eps0=composed.eps_max, delta=delta, rel_tol=rel_tol), direction="upper_bound")
