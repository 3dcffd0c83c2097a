"""The exact central epsilon of a small shuffled finite randomizer over every pair of neighbouring datasets,
and the work of that enumeration, estimated before it starts.

`shuffling.neighbouring_datasets` lists every pair of neighbouring datasets of size n up to order (a common
multiset of n - 1 inputs, x != x'); `shuffling.neighbouring_distributions` gives the exact distribution of each
dataset's shuffled reports (output-count vectors; the same as `shuffling.shuffled_distribution`, each common prefix
computed once), and `divergences.min_e_eps_for_delta` the smallest e^eps
with the pair (eps, delta)-close, exactly (BBGN19 Thm 5.2: DP iff the hockey-stick divergence is at most
delta). The largest over all pairs is the exact central e^eps of the shuffled randomizer (the shuffled
output depends on a dataset only through its multiset of inputs, so no other pair can do worse).

The enumeration costs, in exact `Fraction` operations, (pairs) x (shuffled support) x (n reports) x
(m outputs), with pairs = C(n + k - 2, k - 1) C(k, 2) and support C(n + m - 1, m - 1); the numbers it
meets have denominators of up to n x B bits, B the bits of the least common multiple of a row's
denominators (a product of n reports' probabilities). `enumeration_work` turns that into units of about
WORK_UNIT_SECONDS of one core each, so that a caller can refuse before starting (the audit of a randomizer
matrix does, within its own work limit).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from ..core.errors import ParameterError, require_integer
from .distributions import Probability
from .divergences import min_e_eps_for_delta
from .randomizers import Randomizer
from .shuffling import neighbouring_distributions

__all__ = [
    "EnumerationWork",
    "WORK_UNIT_SECONDS",
    "enumeration_work",
    "exact_shuffled_e_eps_enumerated",
    "neighbouring_pair_count",
]

# One unit of enumeration work is about this many seconds of one core (a Fraction operation on one-word numbers).
WORK_UNIT_SECONDS = 3e-6
# Beyond e^690 a count is not converted to an int (a float would overflow): it is reported as about e^690.
_LOG_COUNT_CAP = 690.0


@dataclass(frozen=True)
class EnumerationWork:
    """The size of the exact enumeration at one n: `operations` (exact Fraction operations), `bits` (bits of
    the largest denominator it can meet; 0 when not counted because `operations` alone is over the limit it
    was asked about) and `units` = operations x (1 + w/8 + w^2/400), w = ceil(bits / 64) the machine words of
    the largest numbers (the cost of a Fraction operation grows with the size of its numbers)."""

    operations: int
    bits: int
    units: int


def _check_randomizer(randomizer: object) -> Randomizer:
    if not isinstance(randomizer, Randomizer):
        raise ParameterError("randomizer", type(randomizer).__name__, "a Randomizer (shuffle_spec.reference.finite.randomizers)")
    return randomizer


def neighbouring_pair_count(inputs: int, n: int) -> int:
    """The number of pairs `shuffling.neighbouring_datasets` lists for `inputs` >= 1 distinct inputs and
    datasets of size n >= 1: C(n + inputs - 2, inputs - 1) multisets of the n - 1 others times C(inputs, 2)
    unordered pairs {x, x'}."""
    require_integer("inputs", inputs, minimum=1)
    require_integer("n", n, minimum=1)
    k, size = int(inputs), int(n)
    return math.comb(size - 1 + k - 1, k - 1) * math.comb(k, 2)


def _log_comb(a: int, b: int) -> float:
    return math.lgamma(a + 1) - math.lgamma(b + 1) - math.lgamma(a - b + 1)


def enumeration_work(randomizer: Randomizer, n: int, *, limit: int) -> EnumerationWork:
    """The estimated work of `exact_shuffled_e_eps_enumerated(randomizer, n, ...)` (module docstring), for
    n >= 1 users. `limit` (an integer >= 1, the caller's budget in units) only saves time: when the operations
    alone are over it, the size of the numbers is not computed (`bits` = 0) and, far beyond it (more than
    e^10 times), the count is estimated in logarithms (at n = 1e12 with 10^5 inputs the exact binomials have
    millions of bits); the answer is then over `limit` either way."""
    _check_randomizer(randomizer)
    require_integer("n", n, minimum=1)
    require_integer("limit", limit, minimum=1)
    k, m = len(randomizer.inputs), len(randomizer.outputs)
    size = int(n)
    log_operations = _log_comb(size + k - 2, k - 1) + math.log(max(math.comb(k, 2), 1)) + _log_comb(size + m - 1, m - 1) + math.log(size * max(m, 1))
    if log_operations > math.log(limit) + 10:
        operations = int(math.exp(min(log_operations, _LOG_COUNT_CAP)))
        return EnumerationWork(operations, 0, operations)
    operations = neighbouring_pair_count(k, size) * math.comb(size + m - 1, m - 1) * size * max(m, 1)
    bits = 0
    if operations <= limit:  # over it, the size of the numbers (and the cost of finding it) is not needed
        row_bits = 0
        for _, distribution in randomizer.items():
            if distribution.is_exact:
                row_bits = max(row_bits, math.lcm(*(p.denominator for p in distribution.values())).bit_length())  # type: ignore[union-attr]
        bits = size * row_bits
    words = -(-bits // 64)
    return EnumerationWork(operations, bits, operations * (3200 + 400 * words + 8 * words * words) // 3200)


def exact_shuffled_e_eps_enumerated(
    randomizer: Randomizer, n: int, delta: Probability, *, progress: Callable[[int, int], None] | None = None
) -> Probability:
    """The exact smallest e^eps >= 1 for which n shuffled reports of `randomizer` are (eps, delta)-DP, the
    largest over every pair of neighbouring datasets (module docstring; the same number as
    `shuffling.exact_shuffled_e_eps`). n >= 1; delta in [0, 1]: a float delta is read exactly (Fraction(delta)),
    so an exact randomizer gives an exact Fraction. `progress(done, total)` is called after each pair.
    Check `enumeration_work` first: the work grows like n^(k + m - 2)."""
    _check_randomizer(randomizer)
    require_integer("n", n, minimum=1)
    if isinstance(delta, bool) or not isinstance(delta, (int, float, Fraction)) or not 0 <= delta <= 1:
        raise ParameterError("delta", delta, "a number in [0, 1]")
    target = Fraction(delta)
    total = neighbouring_pair_count(len(randomizer.inputs), int(n))
    worst: Probability = Fraction(1)
    for index, (p, q) in enumerate(neighbouring_distributions(randomizer, int(n)), start=1):
        worst = max(worst, min_e_eps_for_delta(p, q, target))
        if progress is not None:
            progress(index, total)
    return worst
