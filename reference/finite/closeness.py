"""Parameters of (eps, delta)-closeness under the operations of EFMRTT19 Lemma 3.

The checks themselves are `shuffle_spec.reference.finite.divergences.is_close`; these functions give the parameters the
lemma promises, so tests can confirm them on exact distributions.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Iterable

from .distributions import Distribution
from .divergences import is_close
from ..core.errors import require_positive, require_probability

__all__ = ["triangle_parameters", "is_dp_on_neighbours"]


def triangle_parameters(eps1: float, delta1: float, eps2: float, delta2: float) -> tuple[float, float]:
    """(eps1 + eps2, delta1 + e^{eps1} delta2): EFMRTT19 Lemma 3 (triangle inequality).

    The seed most likely prints delta1 + delta2; that is only valid when delta1 = delta2 = 0 (the case
    its proofs use). With the two-sided closeness definition the valid delta is delta1 + e^{eps1} delta2
    (recorded in spec `EFMRTT19.Lem3.triangle`).
    """
    for name, value in (("eps1", eps1), ("eps2", eps2)):
        require_positive(name, value, allow_zero=True)
    for name, value in (("delta1", delta1), ("delta2", delta2)):
        require_probability(name, value, open_low=False, open_high=False)
    return eps1 + eps2, delta1 + math.exp(eps1) * delta2


def is_dp_on_neighbours(
    output_pairs: Iterable[tuple[Distribution, Distribution]], e_eps: Fraction | float, delta: Fraction | float
) -> bool:
    """EFMRTT19 Def 1 via BBGN19 Thm 5.2: (eps, delta)-DP iff every neighbouring pair of output
    distributions has hockey-stick divergence <= delta in both directions."""
    return all(is_close(p, q, e_eps, delta) for p, q in output_pairs)
