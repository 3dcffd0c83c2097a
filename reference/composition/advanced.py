"""Advanced composition of (eps, delta)-DP algorithms (EFMRTT19 Thm 2, after DRV10 / DR14 Thm 3.20).

k algorithms, each (eps, delta)-DP, possibly chosen adaptively from the previous outputs, compose to
(eps', k delta + delta')-DP for every delta' > 0, with

    eps' = sqrt(2 k log(1/delta')) eps + k eps (e^eps - 1).

eps' is evaluated in 60-digit mpmath and rounded outward to a double, so the returned float is an
upper bound of the exact eps' (and the returned delta an upper bound of k delta + delta').
"""

from __future__ import annotations

import math

import mpmath

from ..core.errors import require_integer, require_positive, require_probability
from ..core.parameters import check_delta, check_eps
from ..numerics.inversion import largest_argument_within
from ..core.results import BoundValue
from ..core.rounding import mpf_to_float_down, mpf_to_float_up

__all__ = [
    "advanced_composition_epsilon",
    "advanced_composition_delta",
    "advanced_composition_per_step_epsilon",
]

_DIGITS = 60


def _validate(eps: float, k: int, delta_prime: float) -> None:
    check_eps(eps, allow_zero=True)
    require_integer("k", k, minimum=1)  # any number of compositions (no domain-size range here)
    check_delta(delta_prime, name="delta_prime")


def _composed_epsilon_mp(eps: float, k: int, delta_prime: float) -> mpmath.mpf:
    with mpmath.workdps(_DIGITS):
        e, kk, dp = mpmath.mpf(eps), mpmath.mpf(int(k)), mpmath.mpf(delta_prime)
        return mpmath.sqrt(2 * kk * mpmath.log(1 / dp)) * e + kk * e * mpmath.expm1(e)


def advanced_composition_epsilon(*, eps: float, k: int, delta_prime: float) -> BoundValue:
    """eps' = sqrt(2k log(1/delta')) eps + k eps (e^eps - 1) of k-fold (adaptive) composition:
    EFMRTT19.Thm2, for eps >= 0, k >= 1, delta' in (0, 1). An upper bound: the 60-digit value (its error is
    far below the 1-ulp step) rounded to the doubles on either side, `value` the next double above it."""
    _validate(eps, k, delta_prime)
    value = _composed_epsilon_mp(eps, k, delta_prime)
    return BoundValue(mpf_to_float_down(value), mpf_to_float_up(value), direction="upper_bound")


def advanced_composition_delta(*, delta: float, k: int, delta_prime: float) -> float:
    """k delta + delta', the delta of EFMRTT19.Thm2, rounded up."""
    require_probability("delta", delta, open_low=False, open_high=False)
    require_integer("k", k, minimum=1)
    require_probability("delta_prime", delta_prime)
    with mpmath.workdps(_DIGITS):
        return mpf_to_float_up(int(k) * mpmath.mpf(delta) + mpmath.mpf(delta_prime))


def advanced_composition_per_step_epsilon(*, eps: float, k: int, delta_prime: float) -> float:
    """The largest per-step eps0 (to about 1e-10 relative for steps above 1e-6) whose k-fold composition is at most `eps`
    by EFMRTT19.Thm2: the inversion of `advanced_composition_epsilon` in its eps argument.

    The returned point was evaluated and certified: its composed eps' (rounded up) is <= `eps`.
    """
    require_positive("eps", eps)
    require_integer("k", k, minimum=1)
    require_probability("delta_prime", delta_prime)

    def composed(step: float) -> float:
        return advanced_composition_epsilon(eps=step, k=k, delta_prime=delta_prime).value

    # composed(x) >= k x (e^x - 1) >= x^2, so composed(x) <= eps forces x <= sqrt(eps).
    upper = max(eps, math.sqrt(eps)) + 1.0
    # The bisection's tolerance has an absolute floor (rel_tol * max(1, x)); per-step values are often
    # far below 1, so the tolerance is taken small enough to keep them accurate to ~1e-10 relative.
    return largest_argument_within(composed, eps, 0.0, upper, name="eps", rel_tol=1e-16)
