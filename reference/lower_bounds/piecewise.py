"""Certified lower bound on the central epsilon of the shuffled piecewise mechanism (Wang et al., ICDE 2019,
Sec. III-B): the exact epsilon of an explicit neighbouring pair whose reports are coarsened to three cells
(statement exact.piecewise_partition_pair; the rows are built in `shuffle_spec.reference.randomizers.piecewise`).

User 1 holds -1 vs 1 (or any other ordered pair of the rows), the other n - 1 users hold one input (each of the
rows is tried, the third input or one of the pair's).
Coarsening every report to a cell of a fixed partition of the output range, and then a fixed channel on the
cells, are post-processings of the shuffled output (the multiset of cells is a function of the multiset of
reports), so the coarsened pair's divergence is at most the pair's, at most the central delta: the coarsened
pair's epsilon is a LOWER bound on the central epsilon. A coarsened randomizer has 3 inputs and 3 outputs: its pair
epsilon is the certified lattice sum of `shuffle_spec.reference.lower_bounds.randomizer` (exact.randomizer_pair),
whose interval's lower end is reported. Why not a finer partition: more than 3 cells take the lattice route only
after merging back to 3 (or the FFT route, which has no certified lower end).

Range: rows a 3 x 3 (inputs -1, 1, 0) or 2 x 3 (inputs -1, 1) row-stochastic matrix of exact Fractions with positive entries, n in [1, 1e8],
delta in [1e-300, 1). Neighbouring relation: replace-one.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ..core.errors import ParameterError
from ..core.results import BoundValue
from .structured import pattern_pair_epsilon

__all__ = ["partition_pair_epsilon", "LABELS"]

STATEMENT = "exact.piecewise_partition_pair"
LABELS = ("-1", "1", "0")


def partition_pair_epsilon(*, rows: Sequence[Sequence[Fraction]], n: int, delta: float) -> BoundValue:
    """exact.piecewise_partition_pair: a certified lower bound (the interval's lower end, direction
    "lower_bound") on the central eps of n shuffled reports of the piecewise mechanism, from its coarsened rows
    for the inputs -1, 1 and (when three rows are given) 0 (module doc). Range: see the module doc."""
    if not isinstance(rows, Sequence) or len(rows) not in (2, 3) or not all(isinstance(r, Sequence) and len(r) == 3 and all(isinstance(v, Fraction) and v > 0 for v in r) for r in rows):
        raise ParameterError("rows", repr(rows)[:60], "2 or 3 rows of 3 positive Fractions (inputs -1, 1[, 0]; three cells)")
    if any(sum(r, Fraction(0)) != 1 for r in rows):
        raise ParameterError("rows", repr(rows)[:60], "rows summing to exactly 1")
    value = pattern_pair_epsilon(rows=rows, n=n, delta=delta, labels=list(LABELS[: len(rows)]))
    note = value.note.replace("(reports projected to the pattern)", "(reports coarsened to three cells of the output range)")
    return BoundValue(value.lower, value.upper, note, direction="lower_bound")
