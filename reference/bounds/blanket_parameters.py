"""Closed-form blanket parameters of specific randomizers and of generic eps0-LDP ones (BBGN19 Sec. 5).

- Lemma 5.1: total variation similarity gamma of k-ary randomized response, the Laplace mechanism on
  [0, 1] and the Gaussian mechanism on [0, 1];
- Lemma 5.2: gamma >= e^{-eps0} for every eps0-LDP randomizer;
- Lemmas 5.4, 5.7, 5.8: range and second moment of the privacy amplification random variable L
  (generic, k-RR, Laplace).

Public functions return floats (nearest to the exact value, which is all a parameter needs); the
bounds in `reference.bounds.hoeffding` / `.bennett` use the `_mp` versions, evaluated in mpmath at
`DPS` significant digits and rounded outward only at the end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import mpmath

from ..core.errors import HypothesisViolation, ParameterError, require_integer, require_positive
from ..core.parameters import check_eps, check_eps0
from ..core.results import BoundValue
from ..core.rounding import mpf_to_float_down, mpf_to_float_up

__all__ = [
    "AmplificationParameters",
    "SHARED_RANGE",
    "check_eps_within_eps0",
    "delta_rounded_up",
    "generic_parameters_mp",
    "krr_parameters_mp",
    "laplace_parameters_mp",
    "round_up_with_margin",
    "krr_tv_similarity",
    "laplace_tv_similarity",
    "gaussian_tv_similarity",
    "generic_tv_similarity_lower_bound",
    "generic_amplification_parameters",
    "krr_amplification_parameters",
    "krr_blanket_delta_cap",
    "laplace_amplification_parameters",
]

# 80 significant digits: the bounds below take at most ~40 correctly rounded mpmath operations, and the
# worst conditioning (n * log(q) with n <= 1e18) costs 18 digits, leaving a relative error far below
# RELATIVE_MARGIN, which is added before rounding up to a float.
DPS = 80
RELATIVE_MARGIN = mpmath.mpf(10) ** -40
# The range the Hoeffding and Bennett bounds share (`shuffle_spec.reference.core.limits.RANGES`); their delta forms are
# checked at delta = 0.5, which checks eps0 and n against it.
SHARED_RANGE = "BBGN19.Thm5.3"


@dataclass(frozen=True)
class AmplificationParameters:
    """gamma (or its lower bound for generic randomizers), and for L^eps_{x,x'}: a range [lower, upper]
    and an upper bound on E[L^2]; all as mpmath numbers for exact downstream use."""

    gamma: mpmath.mpf
    lower: mpmath.mpf
    upper: mpmath.mpf
    second_moment: mpmath.mpf

    @property
    def width(self) -> mpmath.mpf:
        return self.upper - self.lower


def _krr_gamma_mp(eps0: float, k: int) -> mpmath.mpf:
    return mpmath.mpf(k) / (mpmath.exp(eps0) + k - 1)


def krr_tv_similarity(*, eps0: float, k: int) -> float:
    """gamma = k / (e^eps0 + k - 1) of eps0-LDP k-ary randomized response (BBGN19.Lem5.1.krr)."""
    check_eps0(eps0)
    require_integer("k", k, minimum=2)
    with mpmath.workdps(DPS):
        return float(_krr_gamma_mp(eps0, int(k)))


def laplace_tv_similarity(*, eps0: float) -> float:
    """gamma = e^{-eps0/2} of the Laplace mechanism x + Lap(1/eps0) on [0, 1] (BBGN19.Lem5.1.laplace)."""
    check_eps0(eps0)
    return math.exp(-eps0 / 2)


def gaussian_tv_similarity(*, sigma: float) -> float:
    """gamma = 2 Phi(-1/(2 sigma)) = erfc(1/(2 sqrt(2) sigma)) of the Gaussian mechanism N(x, sigma^2)
    on [0, 1] (BBGN19.Lem5.1.gaussian)."""
    require_positive("sigma", sigma)
    return math.erfc(1.0 / (2.0 * math.sqrt(2.0) * sigma))


def generic_tv_similarity_lower_bound(*, eps0: float) -> BoundValue:
    """e^{-eps0}: every eps0-LDP randomizer has gamma >= e^{-eps0} (BBGN19.Lem5.2), for eps0 in the range of
    `check_eps0`. A lower bound: evaluated at DPS digits and rounded to the doubles on either side, `value` the
    one below (the double exp used before was rounded to nearest, so it could exceed e^{-eps0} by an ulp)."""
    check_eps0(eps0)
    with mpmath.workdps(DPS):
        value = mpmath.exp(-mpmath.mpf(eps0))
        return BoundValue(mpf_to_float_down(value), mpf_to_float_up(value), direction="lower_bound")


def check_eps_within_eps0(eps: float, eps0: float, *, statement: str, strict: bool) -> None:
    """The hypothesis 0 < eps <= eps0 (eps < eps0 with `strict`) of the delta forms of the Hoeffding and Bennett
    bounds (BBGN19 Lemma 5.3 at eps <= eps0): ParameterError for eps not a positive real, HypothesisViolation
    of `statement` otherwise."""
    check_eps(eps)
    if (eps >= eps0) if strict else (eps > eps0):
        raise HypothesisViolation(statement, "eps < eps0" if strict else "eps <= eps0", {"eps": eps, "eps0": eps0})


def generic_parameters_mp(eps: float, eps0: float, gamma: mpmath.mpf) -> AmplificationParameters:
    """BBGN19 Lemma 5.4 in mpmath at the caller's precision (`generic_amplification_parameters`): range, and a
    bound on the second moment, of L for an eps0-LDP randomizer with TV similarity gamma; 0 <= eps <= eps0."""
    eps, eps0 = mpmath.mpf(eps), mpmath.mpf(eps0)  # exponents such as eps - 2 eps0 in mpmath, not rounded as floats
    e, e0 = mpmath.exp(eps), mpmath.exp(eps0)
    lower = -gamma * e0 * (e - mpmath.exp(-2 * eps0))
    upper = gamma * e0 * (1 - mpmath.exp(eps - 2 * eps0))
    second = gamma * e0 * (e**2 + 1) - 2 * gamma**2 * mpmath.exp(eps - 2 * eps0)
    return AmplificationParameters(gamma, lower, upper, second)


def generic_amplification_parameters(*, eps: float, eps0: float, gamma: float) -> tuple[float, float, float]:
    """Lemma 5.4 for an eps0-LDP randomizer with TV similarity gamma, 0 <= eps <= eps0:
    -gamma e^eps0 (e^eps - e^{-2 eps0}) <= L <= gamma e^eps0 (1 - e^{eps - 2 eps0}) and
    E[L^2] <= gamma e^eps0 (e^{2 eps} + 1) - 2 gamma^2 e^{eps - 2 eps0}  (BBGN19.Lem5.4).
    Returns (lower, upper, second_moment_bound)."""
    check_eps0(eps0)
    require_positive("eps", eps, allow_zero=True)
    if not (isinstance(gamma, (int, float)) and not isinstance(gamma, bool) and math.exp(-eps0) * (1 - 1e-12) <= gamma <= 1):
        raise ParameterError("gamma", gamma, "the TV similarity of an eps0-LDP randomizer, in [e^-eps0, 1] (Lemma 5.2)")
    with mpmath.workdps(DPS):
        p = generic_parameters_mp(eps, eps0, mpmath.mpf(gamma))
        return float(p.lower), float(p.upper), float(p.second_moment)


def krr_parameters_mp(eps: float, eps0: float, k: int) -> AmplificationParameters:
    """BBGN19 Lemma 5.7 in mpmath at the caller's precision (`krr_amplification_parameters`): gamma, range and
    second moment of L for k-RR; 0 <= eps, eps0 > 0, k >= 2."""
    gamma = _krr_gamma_mp(eps0, k)
    e = mpmath.exp(eps)
    # 1 - gamma = (e^eps0 - 1)/(e^eps0 + k - 1), computed without cancellation.
    one_minus = mpmath.expm1(eps0) / (mpmath.exp(eps0) + k - 1)
    lower = gamma * (1 - e) - one_minus * k * e
    upper = gamma * (1 - e) + one_minus * k
    second = gamma * (2 - gamma) * (e - 1) ** 2 + one_minus**2 * k * (e**2 + 1)
    return AmplificationParameters(gamma, lower, upper, second)


def krr_amplification_parameters(*, eps: float, eps0: float, k: int) -> tuple[float, float, float, float]:
    """Lemma 5.7, k-RR with gamma = k/(e^eps0 + k - 1): gamma(1 - e^eps) - (1-gamma) k e^eps <= L <=
    gamma(1 - e^eps) + (1-gamma) k and E[L^2] = gamma(2-gamma)(e^eps-1)^2 + (1-gamma)^2 k (e^{2eps}+1)
    (BBGN19.Lem5.7). Returns (gamma, lower, upper, second_moment)."""
    check_eps0(eps0)
    require_positive("eps", eps, allow_zero=True)
    require_integer("k", k, minimum=2)
    with mpmath.workdps(DPS):
        p = krr_parameters_mp(eps, eps0, int(k))
        return float(p.gamma), float(p.lower), float(p.upper), float(p.second_moment)


def laplace_parameters_mp(eps: float, eps0: float) -> AmplificationParameters:
    """BBGN19 Lemma 5.8 in mpmath at the caller's precision (`laplace_amplification_parameters`): gamma, range and
    a bound on the second moment of L for the Laplace mechanism on [0, 1]; 0 <= eps, eps0 > 0."""
    gamma = mpmath.exp(-mpmath.mpf(eps0) / 2)
    e = mpmath.exp(eps)
    lower = mpmath.exp(-mpmath.mpf(eps0) / 2) - mpmath.exp(eps + mpmath.mpf(eps0) / 2)
    upper = mpmath.exp(mpmath.mpf(eps0) / 2) * (1 - mpmath.exp(eps - eps0))
    second = (e**2 + 1) / 3 * (2 * mpmath.exp(mpmath.mpf(eps0) / 2) + mpmath.exp(-eps0)) - 2 * e * (
        2 * mpmath.exp(-mpmath.mpf(eps0) / 2) - mpmath.exp(-eps0)
    )
    return AmplificationParameters(gamma, lower, upper, second)


def laplace_amplification_parameters(*, eps: float, eps0: float) -> tuple[float, float, float, float]:
    """Lemma 5.8, Laplace on [0, 1] with gamma = e^{-eps0/2}, blanket Lap(1/2, 1/eps0):
    e^{-eps0/2} - e^{eps + eps0/2} <= L <= e^{eps0/2}(1 - e^{eps - eps0}) and
    E[L^2] <= (e^{2eps}+1)/3 (2 e^{eps0/2} + e^{-eps0}) - 2 e^eps (2 e^{-eps0/2} - e^{-eps0})
    (BBGN19.Lem5.8). Returns (gamma, lower, upper, second_moment_bound)."""
    check_eps0(eps0)
    require_positive("eps", eps, allow_zero=True)
    with mpmath.workdps(DPS):
        p = laplace_parameters_mp(eps, eps0)
        return float(p.gamma), float(p.lower), float(p.upper), float(p.second_moment)


def krr_blanket_delta_cap(eps0: float, k: int) -> float:
    """A float >= gamma (e^eps0 - 1) = k (e^eps0 - 1)/(e^eps0 + k - 1) >= Lemma 5.3's delta(eps) for k-RR at
    every eps >= 0 (`shuffle_spec.reference.bounds.blanket_exact_krr` module doc, "Tiny eps0"), at 40 digits without
    cancellation, rounded up. Range: eps0 > 0, k >= 2."""
    check_eps0(eps0)
    require_integer("k", k, minimum=2)
    with mpmath.workdps(40):
        e0m1 = mpmath.expm1(mpmath.mpf(eps0))
        return min(mpf_to_float_up(k * e0m1 / (e0m1 + k) * (1 + mpmath.mpf(10) ** -30)), 1.0)


# --- shared machinery of the Hoeffding and Bennett amplification bounds ---------------------------


def round_up_with_margin(value: mpmath.mpf) -> float:
    """A float >= value: the relative margin covers the mpmath evaluation error (see DPS)."""
    return mpf_to_float_up(value * (1 + RELATIVE_MARGIN))


def upper_bound_with_margin(value: mpmath.mpf) -> BoundValue:
    """An upper bound enclosing the exact quantity that `value` approximates (see DPS): [the float below
    value (1 - RELATIVE_MARGIN), `round_up_with_margin(value)`], the latter its `value`."""
    return BoundValue(mpf_to_float_down(value * (1 - RELATIVE_MARGIN)), round_up_with_margin(value), direction="upper_bound")


def _working_dps(*small: float) -> int:
    """DPS plus the decimal digits the cancellations lose at tiny arguments: e^eps - e^(-2 eps0) (the width of
    L) has relative size eps0, Lemma 5.8's second moment of L relative size eps0^2, so twice the digits of the
    smallest argument: a bound at eps0 = 1e-300 is evaluated at 680 digits instead of 80 (at 80 the width and
    the second moment rounded to 0 and the bound divided by them)."""
    smallest = min((abs(float(v)) for v in small if v), default=1.0)
    return DPS + (2 * math.ceil(-math.log10(smallest)) if smallest < 1 else 0)


def delta_rounded_up(delta_mp: Callable[[], mpmath.mpf], *small: float) -> float:
    """delta_mp() rounded up, evaluated at `_working_dps(*small)` digits (small: the bound's eps, eps0)."""
    with mpmath.workdps(_working_dps(*small)):
        return round_up_with_margin(delta_mp())
