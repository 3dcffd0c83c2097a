"""The EFMRTT19 amplification-by-shuffling bound (Thm 7, v1 = SODA 2019), also restated as BBGN19 Thm 5.1.

eps = 12 eps0 sqrt(log(1/delta) / n) for n >= 1000, 0 < eps0 < 1/2, 0 < delta < 1/100.
"""

from __future__ import annotations

import math

from reference.errors import HypothesisViolation, require_integer, require_positive, require_probability
from reference.rounding import round_up

__all__ = ["erlingsson_v1_epsilon"]


def erlingsson_v1_epsilon(*, eps0: float, n: int, delta: float, statement: str = "EFMRTT19.Thm7") -> float:
    """12 eps0 sqrt(log(1/delta)/n): EFMRTT19 Thm 7 (v1) = BBGN19 Thm 5.1; rounded up by 8 ulps
    (four correctly rounded operations, each off by at most half an ulp)."""
    require_positive("eps0", eps0)
    require_integer("n", n, minimum=1)
    require_probability("delta", delta)
    values = {"eps0": eps0, "n": n, "delta": delta}
    if not eps0 < 0.5:
        raise HypothesisViolation(statement, "eps0 < 1/2", values)
    if not n >= 1000:
        raise HypothesisViolation(statement, "n >= 1000", values)
    if not delta < 0.01:
        raise HypothesisViolation(statement, "delta < 1/100", values)
    return round_up(12.0 * eps0 * math.sqrt(-math.log(delta) / n), 8)
