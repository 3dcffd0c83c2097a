"""Advanced composition as sharpened by Bun and Steinke: EFMRSTT20 Theorem II.7 ([33, Cor. 8.11]).

k adaptively composed (eps, delta)-DP mechanisms are (eps_total, delta' + k delta)-DP with
    eps_total = k eps^2 / 2 + sqrt(k) eps sqrt(2 log(sqrt(pi k / 2) eps / delta')).
(From zCDP: eps-DP is eps^2/2-zCDP, k-fold composition is rho = k eps^2/2-zCDP, and rho-zCDP gives
(rho + 2 sqrt(rho log(sqrt(pi rho)/delta')), delta')-DP.) The square root needs
sqrt(pi k / 2) eps >= delta' (log argument >= 1); outside that the statement is undefined and refused.

Soundness: evaluated in mpmath at 60 digits and rounded up to the next double. eps_total is
increasing in eps on the domain (both terms are), so the inverse (largest per-step eps for a target
eps_total) uses the verified bisection of `shuffle_spec.reference.numerics.inversion`; `advanced_composition_largest_eps_mp(*, dps,
...)` encloses the exact largest eps in mpmath at `dps` digits (the test vectors' high-precision path,
`interface/vectors/files.py`).
"""

from __future__ import annotations

import mpmath

from ..core.errors import HypothesisViolation, ParameterError, require_integer, require_positive, require_probability
from ..numerics.inversion import largest_argument_within
from ..numerics.inversion_mp import bracket_boundary_mp, relative_tolerance_mp
from ..core.results import BoundValue
from ..core.rounding import mpf_to_float_down, mpf_to_float_up

__all__ = ["advanced_composition_epsilon", "advanced_composition_largest_eps", "advanced_composition_largest_eps_mp"]

_DIGITS = 60
# The precision of the inversion's upper end: the smallest the high-precision path accepts, far finer than a double.
_ENCLOSURE_DIGITS = 20
STATEMENT = "EFMRSTT20.ThmII.7"


def _log_argument(eps: float, k: int, delta_prime: float) -> mpmath.mpf:
    return mpmath.sqrt(mpmath.pi * int(k) / 2) * mpmath.mpf(eps) / mpmath.mpf(delta_prime)


def _check(k: int, delta_prime: float) -> None:
    require_integer("k", k, minimum=1)
    require_probability("delta_prime", delta_prime)


def advanced_composition_epsilon(*, eps: float, k: int, delta_prime: float) -> BoundValue:
    """eps_total of the k-fold adaptive composition of (eps, delta)-DP mechanisms at failure
    probability delta' + k delta (EFMRSTT20.ThmII.7), for eps > 0, k >= 1, delta' in (0, 1). An upper
    bound: the 60-digit value rounded to the doubles on either side (its error is far below the 1-ulp step),
    `value` the next double above it. HypothesisViolation when sqrt(pi k/2) eps < delta' (the log's
    argument is below 1)."""
    require_positive("eps", eps)
    _check(k, delta_prime)
    with mpmath.workdps(_DIGITS):
        argument = _log_argument(eps, k, delta_prime)
        if not argument >= 1:
            raise HypothesisViolation(STATEMENT, "sqrt(pi k/2) eps >= delta_prime", {"eps": eps, "k": k, "delta_prime": delta_prime})
        e = mpmath.mpf(eps)
        value = int(k) * e**2 / 2 + mpmath.sqrt(int(k)) * e * mpmath.sqrt(2 * mpmath.log(argument))
        return BoundValue(mpf_to_float_down(value), mpf_to_float_up(value), direction="upper_bound")


def advanced_composition_largest_eps(*, eps_total: float, k: int, delta_prime: float) -> BoundValue:
    """The largest per-mechanism eps (to rel. 1e-12) whose k-fold composition Thm II.7 certifies
    (eps_total, delta' + k delta)-DP (EFMRSTT20.ThmII.7.inverse), for eps_total > 0, k >= 1, delta' in (0, 1).
    A lower bound: its lower end (the `value`) is an eps verified with the forward bound (rounded up, so the
    exact eps_total there is at most the target, and the largest eps is at least it); its upper end is the
    upper end of the 20-digit enclosure `advanced_composition_largest_eps_mp`, rounded up to a double (that
    bracket's high end is above the root, by at most 1e-15 relative, and evaluated far below it).

    ParameterError when even the smallest eps of the theorem's domain, delta'/sqrt(pi k/2), exceeds it.
    """
    require_positive("eps_total", eps_total)
    _check(k, delta_prime)
    with mpmath.workdps(_DIGITS):
        smallest = float(mpmath.mpf(delta_prime) / mpmath.sqrt(mpmath.pi * int(k) / 2))
    while True:  # the domain's smallest point, made exactly admissible after float rounding
        try:
            at_smallest = advanced_composition_epsilon(eps=smallest, k=k, delta_prime=delta_prime).value
            break
        except HypothesisViolation:
            smallest = smallest * (1 + 2**-50)
    if not at_smallest <= eps_total:
        raise ParameterError("eps_total", eps_total, f"at least {at_smallest!r}, Thm II.7's value at the smallest eps of its domain")
    # eps_total >= sqrt(k) eps sqrt(2 log(...)) >= ... and >= k eps^2/2, so eps <= sqrt(2 eps_total / k) brackets the root.
    hi = max(2 * smallest, (2 * eps_total / int(k)) ** 0.5 * 1.01)
    lower = largest_argument_within(
        lambda e: advanced_composition_epsilon(eps=e, k=k, delta_prime=delta_prime).value, eps_total, smallest, hi, name="eps", rel_tol=1e-12
    )
    _, high = advanced_composition_largest_eps_mp(dps=_ENCLOSURE_DIGITS, eps_total=eps_total, k=k, delta_prime=delta_prime)
    return BoundValue(lower, mpf_to_float_up(high), direction="lower_bound")


def _eps_total_mp(eps: mpmath.mpf, k: int, delta_prime: float) -> mpmath.mpf:
    """Thm II.7's eps_total at eps >= delta'/sqrt(pi k/2), in the current mpmath context. The log's
    argument is >= 1 there; rounding can put it a unit below 1 at the domain's end, so log is clamped at 0."""
    logarithm = mpmath.log(mpmath.sqrt(mpmath.pi * int(k) / 2) * eps / mpmath.mpf(delta_prime))
    return int(k) * eps**2 / 2 + mpmath.sqrt(int(k)) * eps * mpmath.sqrt(2 * max(logarithm, mpmath.mpf(0)))


def advanced_composition_largest_eps_mp(*, dps: int, eps_total: float, k: int, delta_prime: float) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Enclosure (low, high) at `dps` digits of the largest eps >= delta'/sqrt(pi k/2) with Thm II.7's
    k eps^2/2 + sqrt(k) eps sqrt(2 log(sqrt(pi k/2) eps/delta')) <= eps_total (EFMRSTT20.ThmII.7.inverse;
    what `advanced_composition_largest_eps` returns to 1e-12, from below). Same inputs and refusals as
    `advanced_composition_largest_eps` (ParameterError when eps_total is below delta'^2/pi, the value at
    the domain's smallest eps); dps an integer >= 20."""
    require_positive("eps_total", eps_total)
    _check(k, delta_prime)
    tolerance = relative_tolerance_mp(dps)  # validates dps
    with mpmath.workdps(int(dps)):
        target = mpmath.mpf(eps_total)
        smallest = mpmath.mpf(delta_prime) / mpmath.sqrt(mpmath.pi * int(k) / 2)
        at_smallest = int(k) * smallest**2 / 2  # the log term vanishes there: delta'^2 / pi
        if not at_smallest <= target:
            raise ParameterError("eps_total", eps_total, f"at least {float(at_smallest)!r}, Thm II.7's value at the smallest eps of its domain")
        # eps_total >= k eps^2 / 2 with equality only at the domain's smallest eps: sqrt(2 eps_total / k) brackets the root.
        largest = mpmath.sqrt(2 * target / int(k))
        if largest <= smallest:  # eps_total = delta'^2/pi to the working precision: the domain's end is the answer
            margin = smallest * mpmath.mpf(10) ** (3 - int(dps))
            return smallest - margin, smallest + margin
        low, high = bracket_boundary_mp(lambda e: _eps_total_mp(e, k, delta_prime) <= target, smallest, largest, dps=int(dps))
        if not high - low <= tolerance * high:
            raise ValueError(f"eps_total = {eps_total!r}: the bracket did not narrow, outside the high-precision range")
        return low, high
