"""`BlanketPair` (one ordered pair's blanket data, BBGN19 Lemma 5.3 in closed form: module doc of `structured`), and
the input check and the pairs worth evaluating of the two certified blanket deltas over a list of them: the exact product-form / lattice evaluation (`structured.structured_blanket_delta`, statement
BBGN19.Lem5.3.exact_randomizer) and the raised one (`raised.raised_blanket_delta`, BBGN19.Lem5.3.exact_raised).
Both take the same inputs (a non-empty list of BlanketPair, n in [1, 1e8], eps >= 0, delta_hint in (0, 1)), charge
the same tail mass to the bound (delta_hint * 1e-12, at most 1e-30, at least 1e-300) and skip the same pairs: a
pair whose delta is 0 at eps because every coefficient alpha - e^eps beta of Lemma 5.3 is <= 0 (gamma = 1, or
e^eps >= max alpha / beta, decided at DPS digits). Neighbouring relation: the one the pairs describe.

The pair type lives here (and is re-exported by `structured`, which builds the pairs) so that both deltas share one
check without an import cycle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath

from ..bounds.blanket_exact_randomizer import Groups
from ..core.errors import ParameterError, require_positive, require_probability
from ..core.parameters import check_n
from .common import MAX_N

__all__ = ["BlanketPair", "check_blanket_pairs", "blanket_delta_inputs"]

DPS = 40  # digits of the exact comparisons e^eps vs max alpha / beta (and of `structured`'s)


@dataclass(frozen=True)
class BlanketPair:
    """One ordered pair's blanket data: the blanket mass gamma and its groups (alpha, beta, p)."""

    gamma: Fraction
    groups: Groups
    ratio: Fraction  # max alpha / beta: e^eps at which every coefficient is <= 0 (the pair's delta vanishes)


def check_blanket_pairs(pairs: object) -> None:
    """ParameterError unless `pairs` is a non-empty sequence of BlanketPair (from `structured.blanket_pair`)."""
    if not isinstance(pairs, Sequence) or not pairs or not all(isinstance(p, BlanketPair) for p in pairs):
        raise ParameterError("pairs", repr(pairs)[:60], "a non-empty list of BlanketPair (from blanket_pair)")


def blanket_delta_inputs(pairs: Sequence[BlanketPair], *, n: int, eps: float, delta_hint: float) -> tuple[int, float, list[BlanketPair]]:
    """Check the inputs of a blanket delta (module doc) and return (n as an int, the tail mass, the pairs whose
    delta may be positive at eps). Range: a non-empty list of BlanketPair, n in [1, 1e8], eps >= 0,
    delta_hint in (0, 1); a one-line ParameterError otherwise."""
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
