"""Bounds BBGN19 restates or derives in closed form: Thm 5.1 (EFMRTT19's bound, randomize-then-shuffle)
and Cor 5.3.1 (the asymptotic form of Thm 5.3, with an explicit constant certified by Thm 5.3).

Supported range (`shuffle_spec.reference.core.limits.RANGES`, refused with ParameterError before any work outside it):
0 < eps0 <= 1e4, 1 <= n <= 1e18, 1e-300 <= delta < 1 (eps <= 1e4 for the inversions).
"""

from __future__ import annotations

import math

import mpmath

from .erlingsson import erlingsson_v1_epsilon
from .hoeffding import hoeffding_generic_delta
from ..core.errors import HypothesisViolation, ParameterError, require_integer, require_positive
from ..core.limits import check_range
from ..core.results import BoundValue
from ..core.rounding import round_down, round_up

__all__ = ["bbgn19_theorem_5_1_epsilon", "corollary_5_3_1_epsilon", "corollary_5_3_1_regime_holds", "COROLLARY_5_3_1_CONSTANT"]

# The O(.) constant of Cor 5.3.1 is not in the seed; 4 is the smallest round constant for which the closed
# form is certified by Thm 5.3 on the whole region eps0 <= 1 of a scan (worst ratio found: 2.39).
COROLLARY_5_3_1_CONSTANT = 4
# Precisions (bits) tried when deciding the regime inequality; undecided after the last is refused.
_DECISION_BITS = (128, 512, 2048)


def corollary_5_3_1_regime_holds(eps0: float, n: int, delta: float) -> bool:
    """Whether eps0 <= log(n/log(1/delta))/2, i.e. log(1/delta) e^{2 eps0} <= n (which implies
    n > log(1/delta)), decided exactly for the binary inputs: the gap is evaluated at rising precision
    and a gap too close to 0 to be signed counts as a failure (refusing is the safe side). A double
    evaluation of the right side accepts points a few ulps outside the regime."""
    for bits in _DECISION_BITS:
        with mpmath.workprec(bits):
            gap = mpmath.mpf(int(n)) + mpmath.log(mpmath.mpf(delta)) * mpmath.exp(2 * mpmath.mpf(eps0))
            if abs(gap) > mpmath.mpf(2) ** (16 - bits) * max(mpmath.mpf(1), mpmath.mpf(int(n))):
                return bool(gap >= 0)
    return False


def bbgn19_theorem_5_1_epsilon(*, eps0: float, n: int, delta: float) -> BoundValue:
    """12 eps0 sqrt(log(1/delta)/n) for eps0 < 1/2, n >= 1000, delta < 1/100 (BBGN19.Thm5.1, restating
    EFMRTT19 Thm 7 for randomize-then-shuffle); errors name BBGN19.Thm5.1.
    Supported range: shuffle_spec.reference.core.limits.RANGES['BBGN19.Thm5.1'] (module docstring); refused outside it."""
    return erlingsson_v1_epsilon(eps0=eps0, n=n, delta=delta, statement="BBGN19.Thm5.1")


def corollary_5_3_1_epsilon(*, eps0: float, n: int, delta: float) -> BoundValue:
    """eps = 4 min(eps0, 1) e^eps0 sqrt(log(1/delta)/n) for eps0 <= log(n/log(1/delta))/2 (BBGN19.Cor5.3.1),
    returned only where it is a proven bound: either eps >= eps0 (trivial) or Thm 5.3's delta at eps is at
    most delta (checked here, rounded up); otherwise HypothesisViolation. An upper bound (value = upper end).

    Evaluated in doubles and widened by 16 ulps each way, which encloses the exact expression: eight operations
    (the constant times min(eps0, 1), exp, log, float(n), the quotient, sqrt, two products), each within one ulp
    (2u relative, u = 2^-53; libm's exp and log within one ulp), accumulate at most 16u, and 16 ulps of the
    result are at least 16u of it. The certification by Thm 5.3 is made at the upper end, the value returned.
    Supported range: shuffle_spec.reference.core.limits.RANGES['BBGN19.Cor5.3.1'] (module docstring); refused outside it."""
    require_positive("eps0", eps0)
    require_integer("n", n, minimum=1)
    require_positive("delta", delta)
    if not delta < 1:
        raise ParameterError("delta", delta, "delta in (0, 1)")
    check_range("BBGN19.Cor5.3.1", eps0=eps0, n=n, delta=delta)
    values = {"eps0": eps0, "n": n, "delta": delta}
    log_inv_delta = -math.log(delta)
    if not corollary_5_3_1_regime_holds(eps0, n, delta):
        raise HypothesisViolation("BBGN19.Cor5.3.1", "eps0 <= log(n/log(1/delta))/2", values)
    value = COROLLARY_5_3_1_CONSTANT * min(eps0, 1.0) * math.exp(eps0) * math.sqrt(log_inv_delta / n)
    eps = round_up(value, 16)
    if eps >= eps0 or hoeffding_generic_delta(eps=eps, eps0=eps0, n=n) <= delta:
        return BoundValue(round_down(value, 16), eps, direction="upper_bound")
    raise HypothesisViolation("BBGN19.Cor5.3.1", "the closed form is certified by Thm 5.3 (delta_Thm5.3(eps) <= delta)", values)
