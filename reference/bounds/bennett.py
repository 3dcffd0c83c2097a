"""BBGN19's Bennett amplification bounds: Lemma 5.6 (corrected form) and the generic, k-RR and Laplace
bounds (BBGN19.Lem5.6, BBGN19.bennett_generic, BBGN19.bennett_krr, BBGN19.bennett_laplace).

Lemma 5.6 (Bennett's inequality [BLM13, Thm 2.9] integrated with Lemma A.4): for i.i.d. L_i <= b+ with
E[L_i] = -a < 0 and E[L_i^2] <= c,

    E[(L_1 + ... + L_m)_+] <= b+ / log(1 + beta) * exp(-m alpha phi(beta)),
    phi(u) = (1+u) log(1+u) - u,  alpha = c / b+^2,  beta = a b+ / c.

This is the form of the authors' code after commit 7994ad3 ("Fixed typo in Bennett bounds", 2020). The
2019 release divided by an extra factor m a / b+; that version is below the true expectation (it is not
a bound; tests/reference/bounds/test_bbgn19_bounds.py shows it on exact k-RR instances) and is not implemented.

With Lemma 5.3 the sum over M ~ Bin(n, gamma), M >= 1, has a closed form:

    delta(eps) = (1/(gamma n)) * b+ / log(1+beta) * [(1 - gamma + gamma e^{-alpha phi(beta)})^n - (1-gamma)^n].

Generic randomizers: b+ and c are Lemma 5.4's bounds at gamma = 1 except the subtracted term of c, which
uses gamma >= e^{-eps0} (c = e^eps0 (e^{2eps}+1) - 2 e^{eps - 3 eps0}, as the authors' code); both only
grow, the Bennett bound increases in b+ and c, and the expression decreases in gamma, so gamma = e^{-eps0}
is safe in the prefactor and the binomial.

`*_epsilon_mp(*, dps, ...)` encloses the exact value `*_epsilon` approximates, in mpmath at `dps` digits
(the test vectors' high-precision path, `interface/vectors/files.py`), over the same search range.

Supported range (`shuffle_spec.reference.core.limits.RANGES`, refused with ParameterError before any work outside it):
0 < eps0 <= 1e4, 1 <= n <= 1e18, 1e-300 <= delta < 1 (eps <= 1e4 for the inversions).
"""

from __future__ import annotations

import mpmath

from .blanket_parameters import (
    DPS,
    SHARED_RANGE,
    AmplificationParameters,
    check_eps_within_eps0,
    delta_rounded_up,
    generic_parameters_mp,
    krr_parameters_mp,
    laplace_parameters_mp,
    upper_bound_with_margin,
)
from ..core.parameters import check_amplification_inputs, check_inverse_inputs
from ..numerics.solver import closed_form_epsilon, closed_form_epsilon_mp, closed_form_largest_eps0
from ..core.errors import ParameterError, require_integer, require_positive
from ..core.results import BoundValue

__all__ = [
    "bennett_expectation_bound",
    "bennett_generic_delta",
    "bennett_generic_epsilon",
    "bennett_generic_epsilon_mp",
    "bennett_generic_eps0",
    "bennett_krr_delta",
    "bennett_krr_epsilon",
    "bennett_krr_epsilon_mp",
    "bennett_krr_eps0",
    "bennett_laplace_delta",
    "bennett_laplace_epsilon",
    "bennett_laplace_epsilon_mp",
    "bennett_laplace_eps0",
]

# Just below eps0: the mechanism-specific b+ vanishes at eps = eps0, where delta = 0 trivially anyway.
_BELOW_EPS0 = 1 - 1e-12


def _phi(u: mpmath.mpf) -> mpmath.mpf:
    return (1 + u) * mpmath.log1p(u) - u


def bennett_expectation_bound(*, a: float, b_plus: float, c: float, m: int) -> BoundValue:
    """E[(L_1 + ... + L_m)_+] <= b+/log(1+beta) exp(-m alpha phi(beta)), alpha = c/b+^2,
    beta = a b+/c, for i.i.d. L_i <= b+ with mean -a < 0 and E[L^2] <= c (BBGN19.Lem5.6, corrected form);
    for a, b+, c > 0 with c >= a^2 and m >= 1. An upper bound: the 80-digit value enclosed with RELATIVE_MARGIN
    on either side, `value` its upper end."""
    require_positive("a", a)
    require_positive("b_plus", b_plus)
    require_positive("c", c)
    require_integer("m", m, minimum=1)
    if not c >= a * a:
        # E[L^2] >= (E L)^2 = a^2: a smaller c cannot be a second moment of a variable with mean -a.
        raise ParameterError("c", c, f"c >= a^2 = {a * a} (a second moment is at least the squared mean)")
    with mpmath.workdps(DPS):
        a_, b_, c_ = mpmath.mpf(a), mpmath.mpf(b_plus), mpmath.mpf(c)
        beta = a_ * b_ / c_
        return upper_bound_with_margin(b_ / mpmath.log1p(beta) * mpmath.exp(-m * c_ / b_**2 * _phi(beta)))


def _bennett_amplification_mp(gamma: mpmath.mpf, one_minus_gamma: mpmath.mpf, b_plus: mpmath.mpf, c: mpmath.mpf, eps: float | mpmath.mpf, n: int) -> mpmath.mpf:
    a = mpmath.expm1(eps)
    beta = a * b_plus / c
    s = c / b_plus**2 * _phi(beta)
    # q = 1 - gamma + gamma e^-s = 1 - u with u = gamma (1 - e^-s), and q - (1 - gamma) = gamma e^-s =: v q.
    # Both u and v are formed as products (no subtraction), because gamma ~ e^-eps0 is far below the
    # working precision at large eps0: the naive q^n - (1-gamma)^n cancels to 0 or a negative number
    # there (computed naively, eps0 * 1e-12 was returned above eps0 ~ 187).
    #   q^n - (1-gamma)^n = q^n (1 - (1 - v)^n) = exp(n log1p(-u)) * -expm1(n log1p(-v)).
    # q itself is a sum of two non-negative terms (1 - gamma comes from the caller without cancellation).
    u = gamma * -mpmath.expm1(-s)
    v = gamma * mpmath.exp(-s) / (one_minus_gamma + gamma * mpmath.exp(-s))
    difference = mpmath.exp(n * mpmath.log1p(-u)) * -mpmath.expm1(n * mpmath.log1p(-v))
    return b_plus / mpmath.log1p(beta) * difference / (gamma * n)


def _generic_bennett_parameters(eps: float | mpmath.mpf, eps0: float) -> AmplificationParameters:
    at_one = generic_parameters_mp(eps, eps0, mpmath.mpf(1))
    c = mpmath.exp(eps0) * (mpmath.exp(2 * eps) + 1) - 2 * mpmath.exp(eps - 3 * mpmath.mpf(eps0))
    return AmplificationParameters(mpmath.exp(-eps0), at_one.lower, at_one.upper, c)


def bennett_generic_delta(*, eps: float, eps0: float, n: int, statement: str = "BBGN19.bennett_generic") -> float:
    """Lemmas 5.2-5.4 + 5.6 for a generic eps0-LDP randomizer, 0 < eps <= eps0 (BBGN19.bennett_generic);
    rounded up."""
    check_amplification_inputs(eps0, n, 0.5, statement=SHARED_RANGE)
    check_eps_within_eps0(eps, eps0, statement=statement, strict=False)

    return delta_rounded_up(lambda: _generic_delta_mp(eps, eps0, n), eps, eps0)


def _generic_delta_mp(eps: float | mpmath.mpf, eps0: float, n: int) -> mpmath.mpf:
    """The generic Bennett delta(eps) in the current mpmath context (not rounded)."""
    p = _generic_bennett_parameters(eps, eps0)
    return _bennett_amplification_mp(p.gamma, -mpmath.expm1(-eps0), p.upper, p.second_moment, eps, int(n))


def bennett_generic_epsilon(*, eps0: float, n: int, delta: float) -> BoundValue:
    """The smallest eps with the generic Bennett delta(eps) <= delta (BBGN19.bennett_generic), or eps0.
    Supported range: shuffle_spec.reference.core.limits.RANGES['BBGN19.bennett_generic'] (module docstring); refused outside it."""
    check_amplification_inputs(eps0, n, delta, statement=SHARED_RANGE)
    return closed_form_epsilon(lambda e: bennett_generic_delta(eps=e, eps0=eps0, n=n), eps0=eps0, delta=delta, eps_max=eps0)


def bennett_generic_eps0(*, eps: float, n: int, delta: float) -> float:
    """The largest eps0 (>= eps) for which the generic Bennett bound certifies (eps, delta)-DP
    (BBGN19.bennett_generic)."""
    check_inverse_inputs(eps, n, delta, statement=SHARED_RANGE)
    return closed_form_largest_eps0(lambda e0: bennett_generic_delta(eps=eps, eps0=e0, n=n), eps=eps, delta=delta, strict=False)


def bennett_krr_delta(*, eps: float, eps0: float, n: int, k: int, statement: str = "BBGN19.bennett_krr") -> float:
    """Lemmas 5.3 + 5.6 + 5.7 for eps0-LDP k-ary RR, 0 < eps < eps0 (BBGN19.bennett_krr); rounded up."""
    check_amplification_inputs(eps0, n, 0.5, statement=SHARED_RANGE)
    require_integer("k", k, minimum=2)
    check_eps_within_eps0(eps, eps0, statement=statement, strict=True)

    return delta_rounded_up(lambda: _krr_delta_mp(eps, eps0, n, k), eps, eps0)


def _krr_delta_mp(eps: float | mpmath.mpf, eps0: float, n: int, k: int) -> mpmath.mpf:
    """The k-RR Bennett delta(eps) in the current mpmath context (not rounded)."""
    p = krr_parameters_mp(eps, eps0, int(k))
    one_minus = mpmath.expm1(eps0) / (mpmath.exp(eps0) + int(k) - 1)
    return _bennett_amplification_mp(p.gamma, one_minus, p.upper, p.second_moment, eps, int(n))


def bennett_krr_epsilon(*, eps0: float, n: int, delta: float, k: int) -> BoundValue:
    """The smallest eps with the k-RR Bennett delta(eps) <= delta (BBGN19.bennett_krr), or eps0.
    Supported range: shuffle_spec.reference.core.limits.RANGES['BBGN19.bennett_krr'] (module docstring); refused outside it."""
    check_amplification_inputs(eps0, n, delta, statement=SHARED_RANGE)
    require_integer("k", k, minimum=2)
    return closed_form_epsilon(
        lambda e: bennett_krr_delta(eps=e, eps0=eps0, n=n, k=k), eps0=eps0, delta=delta, eps_max=eps0 * _BELOW_EPS0
    )


def bennett_krr_eps0(*, eps: float, n: int, delta: float, k: int) -> float:
    """The largest eps0 (> eps) for which the k-RR Bennett bound certifies (eps, delta)-DP (BBGN19.bennett_krr)."""
    check_inverse_inputs(eps, n, delta, statement=SHARED_RANGE)
    require_integer("k", k, minimum=2)
    return closed_form_largest_eps0(lambda e0: bennett_krr_delta(eps=eps, eps0=e0, n=n, k=k), eps=eps, delta=delta, strict=True)


def bennett_laplace_delta(*, eps: float, eps0: float, n: int, statement: str = "BBGN19.bennett_laplace") -> float:
    """Lemmas 5.3 + 5.6 + 5.8 for the eps0-LDP Laplace mechanism on [0, 1], 0 < eps < eps0
    (BBGN19.bennett_laplace); rounded up."""
    check_amplification_inputs(eps0, n, 0.5, statement=SHARED_RANGE)
    check_eps_within_eps0(eps, eps0, statement=statement, strict=True)

    return delta_rounded_up(lambda: _laplace_delta_mp(eps, eps0, n), eps, eps0)


def _laplace_delta_mp(eps: float | mpmath.mpf, eps0: float, n: int) -> mpmath.mpf:
    """The Laplace Bennett delta(eps) in the current mpmath context (not rounded)."""
    p = laplace_parameters_mp(eps, eps0)
    return _bennett_amplification_mp(p.gamma, -mpmath.expm1(-mpmath.mpf(eps0) / 2), p.upper, p.second_moment, eps, int(n))


def bennett_laplace_epsilon(*, eps0: float, n: int, delta: float) -> BoundValue:
    """The smallest eps with the Laplace Bennett delta(eps) <= delta (BBGN19.bennett_laplace), or eps0.
    Supported range: shuffle_spec.reference.core.limits.RANGES['BBGN19.bennett_laplace'] (module docstring); refused outside it."""
    check_amplification_inputs(eps0, n, delta, statement=SHARED_RANGE)
    return closed_form_epsilon(
        lambda e: bennett_laplace_delta(eps=e, eps0=eps0, n=n), eps0=eps0, delta=delta, eps_max=eps0 * _BELOW_EPS0
    )


def bennett_laplace_eps0(*, eps: float, n: int, delta: float) -> float:
    """The largest eps0 (> eps) for which the Laplace Bennett bound certifies (eps, delta)-DP
    (BBGN19.bennett_laplace)."""
    check_inverse_inputs(eps, n, delta, statement=SHARED_RANGE)
    return closed_form_largest_eps0(lambda e0: bennett_laplace_delta(eps=eps, eps0=e0, n=n), eps=eps, delta=delta, strict=True)


# --- high-precision paths for the test vectors (`<function>_mp`, interface/vectors/files.py) ----------


def bennett_generic_epsilon_mp(*, dps: int, eps0: float, n: int, delta: float) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Enclosure (low, high) at `dps` digits of the smallest eps in (0, eps0] with the generic Bennett
    delta(eps) <= delta, or eps0 when none (BBGN19.bennett_generic; what `bennett_generic_epsilon` returns
    to 1e-9). Same inputs and refusals as `bennett_generic_epsilon`; dps an integer >= 20."""
    check_amplification_inputs(eps0, n, delta, statement=SHARED_RANGE)
    return closed_form_epsilon_mp(lambda e: _generic_delta_mp(e, eps0, n), eps0=eps0, delta=delta, eps_max=eps0, dps=dps)


def bennett_krr_epsilon_mp(*, dps: int, eps0: float, n: int, delta: float, k: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Enclosure (low, high) at `dps` digits of the smallest eps in (0, eps0 (1 - 1e-12)] with the k-RR
    Bennett delta(eps) <= delta, or eps0 when none (BBGN19.bennett_krr; what `bennett_krr_epsilon` returns
    to 1e-9, over its search range). Same inputs and refusals as `bennett_krr_epsilon`; dps an integer >= 20."""
    check_amplification_inputs(eps0, n, delta, statement=SHARED_RANGE)
    require_integer("k", k, minimum=2)
    return closed_form_epsilon_mp(lambda e: _krr_delta_mp(e, eps0, n, k), eps0=eps0, delta=delta, eps_max=eps0 * _BELOW_EPS0, dps=dps)


def bennett_laplace_epsilon_mp(*, dps: int, eps0: float, n: int, delta: float) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Enclosure (low, high) at `dps` digits of the smallest eps in (0, eps0 (1 - 1e-12)] with the Laplace
    Bennett delta(eps) <= delta, or eps0 when none (BBGN19.bennett_laplace; what `bennett_laplace_epsilon`
    returns to 1e-9, over its search range). Same inputs and refusals as `bennett_laplace_epsilon`; dps an
    integer >= 20."""
    check_amplification_inputs(eps0, n, delta, statement=SHARED_RANGE)
    return closed_form_epsilon_mp(lambda e: _laplace_delta_mp(e, eps0, n), eps0=eps0, delta=delta, eps_max=eps0 * _BELOW_EPS0, dps=dps)
