"""Amplification by subsampling (EFMRTT19 Lemma 4, after KLNRS08 / BBG18).

If mu1 ~(eps, delta) mu0 and mu = (1 - q) mu0 + q mu1 (sample mu1 with probability q), then
mu ~(log(1 + q (e^eps - 1)), q delta) mu0. Both directions of closeness hold (checked by the tests
on exact mixtures; the algebra is in `proofs_checks/papers/efmrtt19.py`).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

from .operations import mixture
from .distributions import Distribution
from ..core.errors import require_multiplier, require_positive, require_probability
from ..core.results import BoundValue
from ..core.rounding import mpf_to_float_down, mpf_to_float_up

__all__ = ["subsampled_epsilon", "subsampled_delta", "subsampled_e_eps", "subsample_mixture"]

_DIGITS = 50


def subsampled_epsilon(*, eps: float, q: float) -> BoundValue:
    """log(1 + q (e^eps - 1)): the eps of EFMRTT19.Lem4, for eps >= 0 and q in [0, 1]. An upper bound: the
    50-digit value (its error far below the 1-ulp step) rounded to the doubles on either side, `value` the
    next double above it."""
    require_positive("eps", eps, allow_zero=True)
    require_probability("q", q, open_low=False, open_high=False)
    with mpmath.workdps(_DIGITS):
        value = mpmath.log1p(mpmath.mpf(q) * mpmath.expm1(mpmath.mpf(eps)))
        return BoundValue(mpf_to_float_down(value), mpf_to_float_up(value), direction="upper_bound")


def subsampled_delta(*, delta: float, q: float) -> float:
    """q delta: the delta of EFMRTT19.Lem4 (rounded up)."""
    require_probability("delta", delta, open_low=False, open_high=False)
    require_probability("q", q, open_low=False, open_high=False)
    with mpmath.workdps(_DIGITS):
        return mpf_to_float_up(mpmath.mpf(q) * mpmath.mpf(delta))


def subsampled_e_eps(e_eps: Fraction | float, q: Fraction | float) -> Fraction | float:
    """1 + q (e^eps - 1), the multiplier e^{eps'} of EFMRTT19.Lem4; exact for rational inputs."""
    require_multiplier("e_eps", e_eps)
    require_probability("q", q, open_low=False, open_high=False)
    return 1 + q * (e_eps - 1)


def subsample_mixture(mu0: Distribution, mu1: Distribution, q: Fraction | float) -> Distribution:
    """(1 - q) mu0 + q mu1: the subsampled distribution of EFMRTT19.Lem4."""
    require_probability("q", q, open_low=False, open_high=False)
    return mixture([(1 - q, mu0), (q, mu1)])
