"""Shuffled binary randomized response: EFMRSTT20 Lemma II.6 (= Cheu et al., EUROCRYPT'19, Cor. 17).

Each bit is flipped with probability lambda / (2n); for lambda in [14 log(4/delta), n] the count is
(eps, delta)-DP with
    eps = sqrt(32 log(4/delta) / m) (1 - m/n),   m = lambda - sqrt(2 lambda log(2/delta))    (Eq. (1)).
Randomized response with local epsilon eps0 flips with probability 1/(1 + e^eps0), i.e.
lambda = 2n / (1 + e^eps0); the range condition becomes e^eps0 <= 2n / (14 log(4/delta)) - 1.
The shuffled reports of binary RR are equivalent to their count, so this bounds shuffled binary RR.

Soundness in floating point: Eq. (1) is evaluated in mpmath at 60 significant digits (the relative
error of a dozen operations is then below 1e-50) and the result rounded up to the next double.
The hypotheses are decided at the same precision. Eq. (1) is increasing in eps0 (m decreases in
lambda's decrease: dm/dlambda = 1 - sqrt(log(2/delta) / (2 lambda)) > 0 since lambda > log(2/delta)),
so the largest eps0 for a target eps is found by the verified bisection of `shuffle_spec.reference.numerics.inversion`;
`shuffled_rr_largest_eps0_mp(*, dps, ...)` encloses the exact largest eps0 in mpmath at `dps` digits (the
test vectors' high-precision path, `interface/vectors/files.py`).

Supported range (`shuffle_spec.reference.core.limits.RANGES`, refused with ParameterError before any work outside it):
0 < eps0 <= 1e4, 1 <= n <= 1e18, 1e-300 <= delta < 1 (eps <= 1e4 for the inversions).
"""

from __future__ import annotations

import math

import mpmath

from .restated import corollary_5_3_1_regime_holds
from ..core.errors import HypothesisViolation, ParameterError, require_integer, require_positive, require_probability
from ..core.parameters import check_delta, check_n
from ..numerics.inversion import largest_argument_within
from ..numerics.inversion_mp import bracket_boundary_mp, relative_tolerance_mp
from ..core.limits import check_range
from ..core.results import BoundValue
from ..core.rounding import mpf_to_float_down, mpf_to_float_up

__all__ = [
    "shuffled_rr_epsilon_for_lambda",
    "shuffled_rr_epsilon",
    "shuffled_rr_largest_eps0",
    "shuffled_rr_largest_eps0_mp",
    "shuffled_rr_max_eps0",
    "lemma_ii5_hypotheses_hold",
]

_DIGITS = 60
# The precision of the inversions' upper ends: the smallest the high-precision path accepts, far finer than a double.
_ENCLOSURE_DIGITS = 20
STATEMENT = "EFMRSTT20.LemII.6"


def _eq1(lam: mpmath.mpf, n: int, delta: float) -> mpmath.mpf:
    l4 = mpmath.log(4 / mpmath.mpf(delta))
    l2 = mpmath.log(2 / mpmath.mpf(delta))
    m = lam - mpmath.sqrt(2 * lam * l2)
    return mpmath.sqrt(32 * l4 / m) * (1 - m / n)


def shuffled_rr_epsilon_for_lambda(*, lam: float, n: int, delta: float) -> BoundValue:
    """Eq. (1) of EFMRSTT20.LemII.6.lam: central eps of the count of n bits each flipped w.p. lam/(2n),
    for 14 log(4/delta) <= lam <= n. An upper bound: the high-precision value rounded to the doubles on
    either side, `value` the next double above it."""
    require_positive("lam", lam)
    check_n(n, statement=STATEMENT)
    check_delta(delta, statement=STATEMENT, closed_high=True)
    values = {"lam": lam, "n": n, "delta": delta}
    with mpmath.workdps(_DIGITS):
        lam_mp = mpmath.mpf(lam)
        if not lam_mp >= 14 * mpmath.log(4 / mpmath.mpf(delta)):
            raise HypothesisViolation("EFMRSTT20.LemII.6.lam", "lam >= 14 log(4/delta)", values)
        if not lam_mp <= n:
            raise HypothesisViolation("EFMRSTT20.LemII.6.lam", "lam <= n", values)
        value = _eq1(lam_mp, int(n), delta)
        return BoundValue(mpf_to_float_down(value), mpf_to_float_up(value), direction="upper_bound")


def shuffled_rr_epsilon(*, eps0: float, n: int, delta: float) -> BoundValue:
    """Central eps of n shuffled reports of binary randomized response with local epsilon eps0
    (EFMRSTT20.LemII.6 with lambda = 2n/(1 + e^eps0)), an upper bound (value = upper end): Eq. (1) at 60
    digits (relative error below 1e-50), enclosed by the doubles one step below and above the nearest (module
    doc). Refuses (HypothesisViolation)
    when lambda < 14 log(4/delta), i.e. e^eps0 > 2n/(14 log(4/delta)) - 1.
    Supported range: shuffle_spec.reference.core.limits.RANGES['EFMRSTT20.LemII.6'] (module docstring); refused outside it."""
    require_positive("eps0", eps0)
    check_n(n, statement=STATEMENT)
    check_delta(delta, statement=STATEMENT, closed_high=True)
    check_range(STATEMENT, eps0=eps0)
    values = {"eps0": eps0, "n": n, "delta": delta}
    with mpmath.workdps(_DIGITS):
        lam = 2 * mpmath.mpf(int(n)) / (1 + mpmath.exp(mpmath.mpf(eps0)))
        if not lam >= 14 * mpmath.log(4 / mpmath.mpf(delta)):
            raise HypothesisViolation(STATEMENT, "2n/(1 + e^eps0) >= 14 log(4/delta)", values)
        eps = _eq1(lam, int(n), delta)
        return BoundValue(mpf_to_float_down(eps), mpf_to_float_up(eps), direction="upper_bound")


def shuffled_rr_max_eps0(*, n: int, delta: float) -> float:
    """The largest eps0 inside Lemma II.6's range, log(2n/(14 log(4/delta)) - 1), rounded down
    (EFMRSTT20.LemII.6). HypothesisViolation when no eps0 > 0 is inside the range."""
    check_n(n, statement=STATEMENT)
    check_delta(delta, statement=STATEMENT, closed_high=True)
    with mpmath.workdps(_DIGITS):
        e_max = 2 * mpmath.mpf(int(n)) / (14 * mpmath.log(4 / mpmath.mpf(delta))) - 1
        if not e_max > 1:
            raise HypothesisViolation(STATEMENT, "2n/(14 log(4/delta)) - 1 > 1 (some eps0 > 0 in range)", {"n": n, "delta": delta})
        return mpf_to_float_down(mpmath.log(e_max))


def shuffled_rr_largest_eps0(*, eps: float, n: int, delta: float) -> BoundValue:
    """The largest local eps0 (to rel. 1e-12) whose shuffled binary RR is certified (eps, delta)-DP by
    Lemma II.6 (EFMRSTT20.LemII.6.inverse), for eps > 0 and n, delta in Lemma II.6's range. A lower bound: its
    lower end (the `value`) is an eps0 checked with the forward bound (rounded up, so the exact Eq. (1) there
    is at most `eps` too, and the largest eps0 is at least it); its upper end is the upper end of the
    20-digit enclosure `shuffled_rr_largest_eps0_mp`, rounded up to a double (that bracket's high end is above the
    root, by at most 1e-15 relative, and evaluated far below it).

    ParameterError when even eps0 -> 0 gives a central epsilon above `eps`.
    """
    require_positive("eps", eps)
    check_n(n, statement=STATEMENT)
    check_delta(delta, statement=STATEMENT, closed_high=True)
    hi = shuffled_rr_max_eps0(n=n, delta=delta)
    # Rounding down may leave hi a hair outside the range where the lambda test is decided exactly.
    while True:
        try:
            shuffled_rr_epsilon(eps0=hi, n=n, delta=delta)
            break
        except HypothesisViolation:
            hi = math.nextafter(hi, 0.0)
    lo = min(1e-9, hi / 2)
    if not shuffled_rr_epsilon(eps0=lo, n=n, delta=delta).value <= eps:
        raise ParameterError("eps", eps, f"a target at least Lemma II.6's value at eps0 -> 0 ({shuffled_rr_epsilon(eps0=lo, n=n, delta=delta).value!r})")
    lower = largest_argument_within(lambda e0: shuffled_rr_epsilon(eps0=e0, n=n, delta=delta).value, eps, lo, hi, name="eps0", rel_tol=1e-12)
    _, high = shuffled_rr_largest_eps0_mp(dps=_ENCLOSURE_DIGITS, eps=eps, n=n, delta=delta)
    return BoundValue(lower, mpf_to_float_up(high), direction="lower_bound")


def _eq1_at_eps0(eps0: mpmath.mpf, n: int, delta: float) -> mpmath.mpf:
    """Eq. (1) at lambda = 2n / (1 + e^eps0), in the current mpmath context."""
    return _eq1(2 * mpmath.mpf(int(n)) / (1 + mpmath.exp(eps0)), int(n), delta)


def shuffled_rr_largest_eps0_mp(*, dps: int, eps: float, n: int, delta: float) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Enclosure (low, high) at `dps` digits of the largest eps0 in Lemma II.6's range (0, log(2n/(14
    log(4/delta)) - 1)] with Eq. (1) at lambda = 2n/(1 + e^eps0) at most `eps` (EFMRSTT20.LemII.6.inverse;
    what `shuffled_rr_largest_eps0` returns to 1e-12, from below). The range's end itself when Eq. (1)
    is below `eps` there. Same inputs and refusals as `shuffled_rr_largest_eps0` (its ParameterError when
    Eq. (1) exceeds `eps` at its lowest search point eps0 = 1e-9); dps an integer >= 20."""
    require_positive("eps", eps)
    check_n(n, statement=STATEMENT)
    check_delta(delta, statement=STATEMENT, closed_high=True)
    tolerance = relative_tolerance_mp(dps)  # validates dps
    with mpmath.workdps(int(dps)):
        e_max = 2 * mpmath.mpf(int(n)) / (14 * mpmath.log(4 / mpmath.mpf(delta))) - 1
        if not e_max > 1:
            raise HypothesisViolation(STATEMENT, "2n/(14 log(4/delta)) - 1 > 1 (some eps0 > 0 in range)", {"n": n, "delta": delta})
        top = mpmath.log(e_max)
        target = mpmath.mpf(eps)
        floor = mpmath.mpf(1e-9)  # the float inversion's lowest point (top > log 2 > 2e-9)
        if not _eq1_at_eps0(floor, n, delta) <= target:
            raise ParameterError("eps", eps, f"a target at least Lemma II.6's value at eps0 -> 0 ({float(_eq1_at_eps0(floor, n, delta))!r})")
        if _eq1_at_eps0(top, n, delta) <= target:
            # The range's end, known to the working precision: widened by a few units of it.
            margin = top * mpmath.mpf(10) ** (3 - int(dps))
            return top - margin, top + margin
        low, high = bracket_boundary_mp(lambda e0: _eq1_at_eps0(e0, n, delta) <= target, floor, top, dps=int(dps))
        if not high - low <= tolerance * high:
            raise ValueError(f"eps = {eps!r}: the bracket did not narrow, outside the high-precision range")
        return low, high


def lemma_ii5_hypotheses_hold(*, eps0: float, n: int, delta: float) -> bool:
    """Whether eps0 <= log(n / log(1/delta)) / 2, the range of EFMRSTT20.LemII.5 (asymptotic: the
    lemma gives only eps = O((e^eps0 - 1) sqrt(log(1/delta)/n)), no constant, so no number is returned)."""
    require_positive("eps0", eps0)
    require_integer("n", n, minimum=1)
    require_probability("delta", delta)
    # Decided exactly (the same regime as BBGN19.Cor5.3.1): in doubles, eps0 a few ulps above the edge passed.
    return corollary_5_3_1_regime_holds(eps0, n, delta)
