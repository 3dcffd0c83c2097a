"""Certified lower bounds on the central epsilon of a shuffled structured randomizer (unary encodings, local
hashing, Hadamard response, subset selection): the exact epsilon of explicit neighbouring pairs, computed on a
projected pattern randomizer (statement exact.randomizer_pair, applied to the projection).

The pair: user 1 holds x vs x', the other n - 1 users all hold z. Every report is mapped by one fixed function
to a small pattern that depends only on (x, x', z) (for a unary encoding the three bits at coordinates x, x', z;
for local hashing whether the hash value's preimage contains x, x', z; ...). Applying one fixed function to
every report before shuffling is a post-processing of the shuffled output (the multiset of patterns is a
function of the multiset of reports), so the pattern histogram's divergence is at most the pair's, which is at
most the central delta: the pattern pair's epsilon is a lower bound on the central epsilon. The pattern
randomizer has 3 inputs (x, x', z) and a few outputs; its pair epsilon is the certified lattice sum of
`shuffle_spec.reference.lower_bounds.randomizer` (with its output merging, another post-processing), whose
interval's LOWER end is reported. Every (x, x', z) role assignment among the three rows is tried there, and
each is a replace-one pair of the original randomizer. Range: as `best_randomizer_pair` (k <= 16 rows, m <= 64
outputs, eps0 <= 50, n <= 1e8, delta in [1e-300, 1)).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ..bounds.blanket_exact_randomizer import EPS_REL_TOL, finite_randomizer
from ..core.errors import ParameterError, require_integer
from ..core.results import BoundValue
from ..numerics.solver import solve_certified_epsilon
from .randomizer import best_randomizer_pair, candidate_bins, randomizer_pair_delta

__all__ = ["pattern_pair_epsilon", "pattern_roles_epsilon"]

STATEMENT = "exact.randomizer_pair"


def pattern_pair_epsilon(*, rows: Sequence[Sequence[Fraction]], n: int, delta: float, labels: Sequence[str] | None = None) -> BoundValue:
    """exact.randomizer_pair on a projected pattern randomizer (module doc): a certified lower bound (the lower
    end of the interval) on the central eps of n shuffled reports of the randomizer whose projection `rows` is
    (one row per input role, exact Fractions). `labels` name the rows in the note. Range: see the module doc."""
    if labels is not None and (not isinstance(labels, Sequence) or len(labels) != len(rows)):
        raise ParameterError("labels", labels, "one label per row")
    value, choice = best_randomizer_pair(matrix=[list(r) for r in rows], n=n, delta=delta)
    if choice is None or labels is None:
        return BoundValue(value.lower, value.upper, value.note, direction="lower_bound")
    note = f"the certified lower bound is the interval's lower end; pair: user 1 at {labels[choice.x]} vs {labels[choice.x2]}, the other n-1 users at {labels[choice.z]} (reports projected to the pattern)"
    return BoundValue(value.lower, value.upper, note, direction="lower_bound")


def pattern_roles_epsilon(*, rows: Sequence[Sequence[Fraction]], roles: Sequence[tuple[int, int, int]], n: int, delta: float, labels: Sequence[str]) -> BoundValue:
    """exact.randomizer_pair on a projected pattern randomizer, restricted to the given role triples (x, x', z)
    (row indices: user 1 at row x vs row x', the other n - 1 at row z): for a neighbouring relation in which not
    every pair of rows is a neighbouring pair (the deletion relation: one row is the reference distribution, and
    only pairs with it are neighbours; the others must hold real inputs). Each triple is solved with every
    output partition of `candidate_bins` (merging is a post-processing); the largest certified lower end is
    returned. Range: as pattern_pair_epsilon; at least one triple."""
    if not isinstance(roles, Sequence) or not roles:
        raise ParameterError("roles", roles, "a non-empty list of (x, x', z) row-index triples")
    if not isinstance(labels, Sequence) or len(labels) != len(rows):
        raise ParameterError("labels", labels, "one label per row")
    randomizer = finite_randomizer([list(r) for r in rows])
    for triple in roles:
        if not (isinstance(triple, tuple) and len(triple) == 3):
            raise ParameterError("roles", triple, "(x, x', z) row-index triples")
        for value in triple:
            require_integer("roles", value, minimum=0)
            if value >= randomizer.k:
                raise ParameterError("roles", triple, f"row indices in [0, {randomizer.k - 1}]")
    best: tuple[float, float, str] | None = None
    for x, x2, z in roles:
        if x == x2:
            continue
        for bins in candidate_bins(randomizer, x, x2):
            def bounds(eps: float, x: int = x, x2: int = x2, z: int = z, bins: tuple[tuple[int, ...], ...] = bins) -> tuple[float, float]:
                value = randomizer_pair_delta(matrix=randomizer, n=n, eps=eps, x=x, x2=x2, z=z, bins=[list(b) for b in bins], delta_hint=delta)
                return value.lower, value.upper

            if best is not None and bounds(best[0])[0] <= delta:
                continue  # its eps cannot beat the best certified lower end (delta is non-increasing in eps)
            try:
                lower, upper, _ = solve_certified_epsilon(bounds, eps0=randomizer.eps0, delta=delta, rel_tol=EPS_REL_TOL)
            except ParameterError:
                continue  # more than 3 distinct coefficients for this partition
            if best is None or lower > best[0]:
                best = (lower, max(lower, upper), f"user 1 at {labels[x]} vs {labels[x2]}, the other n-1 users at {labels[z]}")
    if best is None:
        return BoundValue(0.0, 0.0, "no pair certified", direction="lower_bound")
    return BoundValue(best[0], best[1], f"the certified lower bound is the interval's lower end; pair: {best[2]} (reports projected to the pattern)", direction="lower_bound")
