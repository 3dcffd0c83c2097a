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

from ..core.errors import ParameterError
from ..core.results import BoundValue
from .randomizer import best_randomizer_pair

__all__ = ["pattern_pair_epsilon"]

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
