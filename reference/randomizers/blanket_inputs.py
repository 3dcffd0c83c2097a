"""The input check and the pairs worth evaluating of the two certified blanket deltas over a list of
`BlanketPair`: the exact product-form / lattice evaluation (`structured.structured_blanket_delta`, statement
BBGN19.Lem5.3.exact_randomizer) and the raised one (`raised.raised_blanket_delta`, BBGN19.Lem5.3.exact_raised).
Both take the same inputs (a non-empty list of BlanketPair, n in [1, 1e8], eps >= 0, delta_hint in (0, 1)), charge
the same tail mass to the bound (delta_hint * 1e-12, at most 1e-30, at least 1e-300) and skip the same pairs: a
pair whose delta is 0 at eps because every coefficient alpha - e^eps beta of Lemma 5.3 is <= 0 (gamma = 1, or
e^eps >= max alpha / beta, decided at DPS digits). Neighbouring relation: the one the pairs describe.

`BlanketPair` and the range live in `structured`, which imports this module: they are imported where used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import mpmath

from ..core.errors import ParameterError, require_positive, require_probability
from ..core.parameters import check_n

if TYPE_CHECKING:
    from .structured import BlanketPair

__all__ = ["check_blanket_pairs", "blanket_delta_inputs"]


def check_blanket_pairs(pairs: object) -> None:
    """ParameterError unless `pairs` is a non-empty sequence of BlanketPair (from `structured.blanket_pair`)."""
    from .structured import BlanketPair

    if not isinstance(pairs, Sequence) or not pairs or not all(isinstance(p, BlanketPair) for p in pairs):
        raise ParameterError("pairs", repr(pairs)[:60], "a non-empty list of BlanketPair (from blanket_pair)")


def blanket_delta_inputs(pairs: Sequence[BlanketPair], *, n: int, eps: float, delta_hint: float) -> tuple[int, float, list[BlanketPair]]:
    """Check the inputs of a blanket delta (module doc) and return (n as an int, the tail mass, the pairs whose
    delta may be positive at eps). Range: a non-empty list of BlanketPair, n in [1, 1e8], eps >= 0,
    delta_hint in (0, 1); a one-line ParameterError otherwise."""
    from .structured import DPS, MAX_N

    check_blanket_pairs(pairs)
    check_n(n, maximum=MAX_N)
    require_positive("eps", eps, allow_zero=True)
    require_probability("delta_hint", delta_hint)
    tail = max(min(1e-30, delta_hint * 1e-12), 1e-300)
    with mpmath.workdps(DPS):
        e = mpmath.exp(mpmath.mpf(eps))
    # gamma = 1 or e^eps >= max alpha / beta: every coefficient <= 0, the pair's delta is 0.
    live = [p for p in pairs if not (p.gamma == 1 or e >= mpmath.mpf(p.ratio.numerator) / p.ratio.denominator)]
    return int(n), tail, live
