"""BBGN19's Hoeffding amplification bounds: Lemma 5.5, Theorem 5.3 (generic) and the k-RR and Laplace
bounds from Lemmas 5.7 / 5.8 (BBGN19.Lem5.5, BBGN19.Thm5.3, BBGN19.hoeffding_krr, BBGN19.hoeffding_laplace).

All of them are Lemma 5.3 + Lemma 5.5 summed in closed form over M ~ Bin(n, gamma):

    delta(eps) = (1/(gamma n)) * b^2/(4a) * (1 - gamma (1 - exp(-2 a^2 / b^2)))^n,   a = e^eps - 1,

with b the width of the range of L (the m = 0 term, b^2/(4a) (1-gamma)^n, is included: it only adds).
For generic randomizers b is Lemma 5.4's width at gamma = 1 and the prefactor uses gamma = e^{-eps0}
(Lemma 5.2): the expression is decreasing in gamma and increasing in b, so both substitutions are safe.

`*_delta` is evaluated in mpmath and rounded up; `*_epsilon` is the smallest eps whose delta is at most
the target, verified at the returned point; `*_eps0` the largest eps0 whose delta is at most the target.
`*_epsilon_mp(*, dps, ...)` encloses the exact value `*_epsilon` approximates, in mpmath at `dps` digits
(the test vectors' high-precision path, `interface/vectors/files.py`).

Supported range (`shuffle_spec.reference.core.limits.RANGES`, refused with ParameterError before any work outside it):
0 < eps0 <= 1e4, 1 <= n <= 1e18, 1e-300 <= delta < 1 (eps <= 1e4 for the inversions).
"""

from __future__ import annotations


import mpmath

from .blanket_parameters import (
    DPS,
    SHARED_RANGE,
    check_eps_within_eps0,
    delta_rounded_up,
    generic_parameters_mp,
    krr_parameters_mp,
    laplace_parameters_mp,
    upper_bound_with_margin,
)
from ..core.parameters import check_amplification_inputs, check_inverse_inputs
from ..numerics.solver import closed_form_epsilon, closed_form_epsilon_mp, closed_form_largest_eps0
from ..core.errors import require_integer, require_positive
from ..core.results import BoundValue

__all__ = [
    "hoeffding_expectation_bound",
    "hoeffding_generic_delta",
    "hoeffding_generic_epsilon",
    "hoeffding_generic_epsilon_mp",
    "hoeffding_generic_eps0",
    "hoeffding_krr_delta",
    "hoeffding_krr_epsilon",
    "hoeffding_krr_epsilon_mp",
    "hoeffding_krr_eps0",
    "hoeffding_laplace_delta",
    "hoeffding_laplace_epsilon",
    "hoeffding_laplace_epsilon_mp",
    "hoeffding_laplace_eps0",
]


def hoeffding_expectation_bound(*, a: float, b: float, m: int) -> BoundValue:
    """E[(L_1 + ... + L_m)_+] <= b^2/(4a) exp(-2 m a^2 / b^2) for i.i.d. L_i with mean -a < 0 and range
    width b (BBGN19.Lem5.5), for a, b > 0 and m >= 1. An upper bound: the 80-digit value enclosed with
    RELATIVE_MARGIN on either side, `value` its upper end."""
    require_positive("a", a)
    require_positive("b", b)
    require_integer("m", m, minimum=1)
    with mpmath.workdps(DPS):
        a_, b_ = mpmath.mpf(a), mpmath.mpf(b)
        return upper_bound_with_margin(b_**2 / (4 * a_) * mpmath.exp(-2 * m * a_**2 / b_**2))


def _amplification_delta_mp(gamma: mpmath.mpf, one_minus_gamma: mpmath.mpf, width: mpmath.mpf, eps: float | mpmath.mpf, n: int) -> mpmath.mpf:
    a = mpmath.expm1(eps)
    q = one_minus_gamma + gamma * mpmath.exp(-2 * a**2 / width**2)
    return width**2 / (4 * a * gamma * n) * q**n


def hoeffding_generic_delta(*, eps: float, eps0: float, n: int, statement: str = "BBGN19.Thm5.3") -> float:
    """Theorem 5.3 (generic eps0-LDP): delta(eps) = e^eps0 (e^eps+1)^2 (e^eps0 - e^-eps0)^2 / (4 n (e^eps-1))
    * (1 - e^-eps0 (1 - exp(-2 (e^eps-1)^2 / ((e^eps+1)^2 (e^eps0-e^-eps0)^2))))^n, for 0 < eps <= eps0
    (BBGN19.Thm5.3); rounded up."""
    check_amplification_inputs(eps0, n, 0.5, statement=SHARED_RANGE)
    check_eps_within_eps0(eps, eps0, statement=statement, strict=False)

    return delta_rounded_up(lambda: _generic_delta_mp(eps, eps0, n), eps, eps0)


def _generic_delta_mp(eps: float | mpmath.mpf, eps0: float, n: int) -> mpmath.mpf:
    """Theorem 5.3's delta(eps) in the current mpmath context (not rounded)."""
    gamma = mpmath.exp(-eps0)
    width = generic_parameters_mp(eps, eps0, mpmath.mpf(1)).width
    return _amplification_delta_mp(gamma, -mpmath.expm1(-eps0), width, eps, int(n))


def hoeffding_generic_epsilon(*, eps0: float, n: int, delta: float) -> BoundValue:
    """The smallest eps with Theorem 5.3's delta(eps) <= delta (BBGN19.Thm5.3), or eps0 when none.
    Supported range: shuffle_spec.reference.core.limits.RANGES['BBGN19.Thm5.3'] (module docstring); refused outside it."""
    check_amplification_inputs(eps0, n, delta, statement=SHARED_RANGE)
    return closed_form_epsilon(lambda e: hoeffding_generic_delta(eps=e, eps0=eps0, n=n), eps0=eps0, delta=delta, eps_max=eps0)


def hoeffding_generic_eps0(*, eps: float, n: int, delta: float) -> float:
    """The largest eps0 (>= eps) for which Theorem 5.3 certifies (eps, delta)-DP (BBGN19.Thm5.3)."""
    check_inverse_inputs(eps, n, delta, statement=SHARED_RANGE)
    return closed_form_largest_eps0(lambda e0: hoeffding_generic_delta(eps=eps, eps0=e0, n=n), eps=eps, delta=delta, strict=False)


def hoeffding_krr_delta(*, eps: float, eps0: float, n: int, k: int, statement: str = "BBGN19.hoeffding_krr") -> float:
    """Lemma 5.3 + 5.5 + 5.7 for eps0-LDP k-ary RR: gamma = k/(e^eps0+k-1), b = (1-gamma) k (e^eps+1),
    0 < eps <= eps0 (BBGN19.hoeffding_krr); rounded up."""
    check_amplification_inputs(eps0, n, 0.5, statement=SHARED_RANGE)
    require_integer("k", k, minimum=2)
    check_eps_within_eps0(eps, eps0, statement=statement, strict=False)

    return delta_rounded_up(lambda: _krr_delta_mp(eps, eps0, n, k), eps, eps0)


def _krr_delta_mp(eps: float | mpmath.mpf, eps0: float, n: int, k: int) -> mpmath.mpf:
    """The k-RR Hoeffding delta(eps) in the current mpmath context (not rounded)."""
    p = krr_parameters_mp(eps, eps0, int(k))
    one_minus = mpmath.expm1(eps0) / (mpmath.exp(eps0) + int(k) - 1)
    return _amplification_delta_mp(p.gamma, one_minus, p.width, eps, int(n))


def hoeffding_krr_epsilon(*, eps0: float, n: int, delta: float, k: int) -> BoundValue:
    """The smallest eps with the k-RR Hoeffding delta(eps) <= delta (BBGN19.hoeffding_krr), or eps0.
    Supported range: shuffle_spec.reference.core.limits.RANGES['BBGN19.hoeffding_krr'] (module docstring); refused outside it."""
    check_amplification_inputs(eps0, n, delta, statement=SHARED_RANGE)
    require_integer("k", k, minimum=2)
    return closed_form_epsilon(lambda e: hoeffding_krr_delta(eps=e, eps0=eps0, n=n, k=k), eps0=eps0, delta=delta, eps_max=eps0)


def hoeffding_krr_eps0(*, eps: float, n: int, delta: float, k: int) -> float:
    """The largest eps0 (>= eps) for which the k-RR Hoeffding bound certifies (eps, delta)-DP
    (BBGN19.hoeffding_krr)."""
    check_inverse_inputs(eps, n, delta, statement=SHARED_RANGE)
    require_integer("k", k, minimum=2)
    return closed_form_largest_eps0(lambda e0: hoeffding_krr_delta(eps=eps, eps0=e0, n=n, k=k), eps=eps, delta=delta, strict=False)


def hoeffding_laplace_delta(*, eps: float, eps0: float, n: int, statement: str = "BBGN19.hoeffding_laplace") -> float:
    """Lemma 5.3 + 5.5 + 5.8 for the eps0-LDP Laplace mechanism on [0, 1]: gamma = e^{-eps0/2},
    b = (e^eps+1)(e^{eps0/2} - e^{-eps0/2}), 0 < eps <= eps0 (BBGN19.hoeffding_laplace); rounded up."""
    check_amplification_inputs(eps0, n, 0.5, statement=SHARED_RANGE)
    check_eps_within_eps0(eps, eps0, statement=statement, strict=False)

    return delta_rounded_up(lambda: _laplace_delta_mp(eps, eps0, n), eps, eps0)


def _laplace_delta_mp(eps: float | mpmath.mpf, eps0: float, n: int) -> mpmath.mpf:
    """The Laplace Hoeffding delta(eps) in the current mpmath context (not rounded)."""
    p = laplace_parameters_mp(eps, eps0)
    return _amplification_delta_mp(p.gamma, -mpmath.expm1(-mpmath.mpf(eps0) / 2), p.width, eps, int(n))


def hoeffding_laplace_epsilon(*, eps0: float, n: int, delta: float) -> BoundValue:
    """The smallest eps with the Laplace Hoeffding delta(eps) <= delta (BBGN19.hoeffding_laplace), or eps0.
    Supported range: shuffle_spec.reference.core.limits.RANGES['BBGN19.hoeffding_laplace'] (module docstring); refused outside it."""
    check_amplification_inputs(eps0, n, delta, statement=SHARED_RANGE)
    return closed_form_epsilon(lambda e: hoeffding_laplace_delta(eps=e, eps0=eps0, n=n), eps0=eps0, delta=delta, eps_max=eps0)


def hoeffding_laplace_eps0(*, eps: float, n: int, delta: float) -> float:
    """The largest eps0 (>= eps) for which the Laplace Hoeffding bound certifies (eps, delta)-DP
    (BBGN19.hoeffding_laplace)."""
    check_inverse_inputs(eps, n, delta, statement=SHARED_RANGE)
    return closed_form_largest_eps0(lambda e0: hoeffding_laplace_delta(eps=eps, eps0=e0, n=n), eps=eps, delta=delta, strict=False)


# --- high-precision paths for the test vectors (`<function>_mp`, interface/vectors/files.py) ----------



def hoeffding_generic_epsilon_mp(*, dps: int, eps0: float, n: int, delta: float) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Enclosure (low, high) at `dps` digits of the smallest eps with Theorem 5.3's delta(eps) <= delta,
    or eps0 when none (BBGN19.Thm5.3; what `hoeffding_generic_epsilon` returns to 1e-9). Same inputs and
    refusals as `hoeffding_generic_epsilon`; dps an integer >= 20."""
    check_amplification_inputs(eps0, n, delta, statement=SHARED_RANGE)
    return closed_form_epsilon_mp(lambda e: _generic_delta_mp(e, eps0, n), eps0=eps0, delta=delta, eps_max=eps0, dps=dps)


def hoeffding_krr_epsilon_mp(*, dps: int, eps0: float, n: int, delta: float, k: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Enclosure (low, high) at `dps` digits of the smallest eps with the k-RR Hoeffding delta(eps) <= delta,
    or eps0 when none (BBGN19.hoeffding_krr; what `hoeffding_krr_epsilon` returns to 1e-9). Same inputs
    and refusals as `hoeffding_krr_epsilon`; dps an integer >= 20."""
    check_amplification_inputs(eps0, n, delta, statement=SHARED_RANGE)
    require_integer("k", k, minimum=2)
    return closed_form_epsilon_mp(lambda e: _krr_delta_mp(e, eps0, n, k), eps0=eps0, delta=delta, eps_max=eps0, dps=dps)


def hoeffding_laplace_epsilon_mp(*, dps: int, eps0: float, n: int, delta: float) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Enclosure (low, high) at `dps` digits of the smallest eps with the Laplace Hoeffding delta(eps) <=
    delta, or eps0 when none (BBGN19.hoeffding_laplace; what `hoeffding_laplace_epsilon` returns to 1e-9).
    Same inputs and refusals as `hoeffding_laplace_epsilon`; dps an integer >= 20."""
    check_amplification_inputs(eps0, n, delta, statement=SHARED_RANGE)
    return closed_form_epsilon_mp(lambda e: _laplace_delta_mp(e, eps0, n), eps0=eps0, delta=delta, eps_max=eps0, dps=dps)
