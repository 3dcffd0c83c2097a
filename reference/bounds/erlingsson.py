"""The EFMRTT19 amplification bounds: Thm 7 (shuffling), Thm 8 (swapping, at index 1), Cor 9
(shuffling after local randomization), in their v1 (SODA 2019, = seed) and v2 (arXiv v2) forms.

v1 (Thms 7, 8, Cor 9): eps = 12 eps0 sqrt(log(1/delta) / n) for n >= 1000, 0 < eps0 < 1/2,
0 < delta < 1/100 (also restated as BBGN19 Thm 5.1).

v2 (Thms 7, 8): for every integer n > 1, eps0 > 0, delta in (0, 1):
    eps <= eps1 sqrt(2 n log(1/delta)) + n eps1 (e^eps1 - 1),  eps1 = 2 e^{2 eps0} (e^eps0 - 1) / n,
i.e. advanced composition (Thm 2) of n steps that are each eps1-DP at index 1 (Lemma 4 applied with
subsampling probability at most e^{2 eps0}/n). Refined form, for eps0 <= log(n/4)/3:
    eps <= e^{2 eps0} (e^eps0 - 1) sqrt(8 log(1/delta) / n) + 6 e^{4 eps0} (e^eps0 - 1)^2 / n.

The v2 forms are evaluated in 60-digit mpmath and rounded outward; when a bound exceeds eps0 it
proves no amplification (every eps0-LDP protocol is eps0-DP after shuffling), which the returned
`BoundValue.note` says, and the value returned is eps0 (the bound is min(expression, eps0)).

Supported range (`shuffle_spec.reference.core.limits.RANGES`, refused with ParameterError before any work outside it):
0 < eps0 <= 1e4, 1 <= n <= 1e18, 1e-300 <= delta < 1 (eps <= 1e4 for the inversions).
"""

from __future__ import annotations

import math

import mpmath

from ..core.errors import HypothesisViolation, require_integer, require_positive, require_probability
from ..core.parameters import check_amplification_inputs
from ..core.limits import check_range
from ..core.results import NO_AMPLIFICATION, BoundValue
from ..core.rounding import mpf_to_float_down, mpf_to_float_up, round_down, round_up

__all__ = [
    "erlingsson_v1_epsilon",
    "erlingsson_eps1",
    "erlingsson_v2_epsilon",
    "erlingsson_v2_refined_epsilon",
    "swapping_v1_epsilon",
    "swapping_v2_epsilon",
    "shuffled_reports_v1_epsilon",
]

_DIGITS = 60


def erlingsson_v1_epsilon(*, eps0: float, n: int, delta: float, statement: str = "EFMRTT19.Thm7") -> BoundValue:
    """12 eps0 sqrt(log(1/delta)/n): EFMRTT19 Thm 7 (v1) = BBGN19 Thm 5.1, an upper bound (value = upper end).

    Evaluated in doubles, then widened by 8 ulps each way, which encloses the exact expression: with u = 2^-53,
    12 eps0 and float(n) are within u relative, log(delta) within 2u (libm's log is within one ulp), the
    quotient within u + 2u + u = 4u, its square root (correctly rounded, halving the error) within 3u, and the
    product within 5u of the truth; 8 ulps of the result are at least 8u of it (an ulp of x is > x u).
    Supported range: shuffle_spec.reference.core.limits.RANGES['EFMRTT19.Thm7'] (module docstring); refused outside it."""
    require_positive("eps0", eps0)
    require_integer("n", n, minimum=1)
    require_probability("delta", delta)
    check_range(statement, eps0=eps0, n=n, delta=delta)
    values = {"eps0": eps0, "n": n, "delta": delta}
    if not eps0 < 0.5:
        raise HypothesisViolation(statement, "eps0 < 1/2", values)
    if not n >= 1000:
        raise HypothesisViolation(statement, "n >= 1000", values)
    if not delta < 0.01:
        raise HypothesisViolation(statement, "delta < 1/100", values)
    value = 12.0 * eps0 * math.sqrt(-math.log(delta) / n)
    return BoundValue(round_down(value, 8), round_up(value, 8), direction="upper_bound")


def _validate_v2(eps0: float, n: int, delta: float, statement: str) -> None:
    check_amplification_inputs(eps0, n, delta, statement=statement)
    if not n > 1:
        raise HypothesisViolation(statement, "n > 1", {"eps0": eps0, "n": n, "delta": delta})


def _eps1_mp(eps0: float, n: int) -> mpmath.mpf:
    e0 = mpmath.mpf(eps0)
    return 2 * mpmath.exp(2 * e0) * mpmath.expm1(e0) / int(n)


def _certified(value: mpmath.mpf, eps0: float, *, at_least: bool = False) -> BoundValue:
    """The certified value of min(theorem's expression, eps0): shuffled eps0-LDP reports are always
    eps0-DP, so where the theorem proves no amplification the answer is eps0, with a note. With
    `at_least`, `value` is only a lower bound on the expression (enough to know it exceeds eps0)."""
    lower, upper = mpf_to_float_down(value), mpf_to_float_up(value)
    if upper <= eps0 and not at_least:
        return BoundValue(lower=lower, upper=upper, direction="upper_bound")
    relation = "is above" if at_least else "is"
    note = f"{NO_AMPLIFICATION} (the theorem's expression {relation} {mpmath.nstr(value, 6)})"
    return BoundValue(lower=min(lower, eps0), upper=eps0, note=note, direction="upper_bound")


def erlingsson_eps1(*, eps0: float, n: int) -> float:
    """eps1 = 2 e^{2 eps0} (e^eps0 - 1) / n: the per-step privacy at index 1 of the swapping
    decomposition in EFMRTT19 Thm 8's proof (v2), an upper bound on 2 log(1 + e^{2 eps0}(e^eps0 - 1)/n).
    Rounded up. Part of EFMRTT19.Thm7.v2 / EFMRTT19.Thm8.v2."""
    require_positive("eps0", eps0)
    require_integer("n", n, minimum=1)
    with mpmath.workdps(_DIGITS):
        return mpf_to_float_up(_eps1_mp(eps0, n))


def _general_v2_mp(eps0: float, n: int, delta: float) -> mpmath.mpf:
    eps1 = _eps1_mp(eps0, n)
    return eps1 * mpmath.sqrt(2 * int(n) * mpmath.log(1 / mpmath.mpf(delta))) + int(n) * eps1 * mpmath.expm1(eps1)


def erlingsson_v2_epsilon(*, eps0: float, n: int, delta: float, statement: str = "EFMRTT19.Thm7.v2") -> BoundValue:
    """eps1 sqrt(2 n log(1/delta)) + n eps1 (e^eps1 - 1), eps1 = 2 e^{2 eps0}(e^eps0 - 1)/n:
    EFMRTT19.Thm7.v2 (general bound, every integer n > 1, eps0 > 0, delta in (0, 1)).
    Supported range: shuffle_spec.reference.core.limits.RANGES['EFMRTT19.Thm7.v2'] (module docstring); refused outside it."""
    _validate_v2(eps0, n, delta, statement)
    with mpmath.workdps(_DIGITS):
        # Fast exit (without it 15-40 s at eps0 ~ 3000, spent in e^eps1 with eps1 ~ e^(3 eps0)/n): since
        # e^x - 1 >= x, the expression is >= n eps1^2; when that alone exceeds eps0 (with a relative
        # margin far above the 60-digit rounding error) the answer is eps0, without computing e^eps1.
        eps1 = _eps1_mp(eps0, n)
        floor = int(n) * eps1**2
        if floor > eps0 * (1 + mpmath.mpf(10) ** -30):
            return _certified(floor, eps0, at_least=True)
        return _certified(_general_v2_mp(eps0, n, delta), eps0)


def erlingsson_v2_refined_epsilon(*, eps0: float, n: int, delta: float) -> BoundValue:
    """e^{2 eps0}(e^eps0 - 1) sqrt(8 log(1/delta)/n) + 6 e^{4 eps0}(e^eps0 - 1)^2 / n for
    eps0 <= log(n/4)/3: EFMRTT19.Thm7.v2_refined (the "in particular" form of v2).
    Supported range: shuffle_spec.reference.core.limits.RANGES['EFMRTT19.Thm7.v2_refined'] (module docstring); refused outside it."""
    statement = "EFMRTT19.Thm7.v2_refined"
    _validate_v2(eps0, n, delta, statement)
    with mpmath.workdps(_DIGITS):
        e0 = mpmath.mpf(eps0)
        # The hypothesis is decided in 60 digits: eps0 is the exact binary value it holds.
        if not e0 <= mpmath.log(mpmath.mpf(int(n)) / 4) / 3:
            raise HypothesisViolation(statement, "eps0 <= log(n/4)/3", {"eps0": eps0, "n": n, "delta": delta})
        growth = mpmath.exp(2 * e0) * mpmath.expm1(e0)
        value = growth * mpmath.sqrt(8 * mpmath.log(1 / mpmath.mpf(delta)) / int(n)) + 6 * growth**2 / int(n)
        return _certified(value, eps0)


def swapping_v1_epsilon(*, eps0: float, n: int, delta: float) -> BoundValue:
    """12 eps0 sqrt(log(1/delta)/n) at index 1 for the one-swap algorithm A_swap: EFMRTT19.Thm8 (v1),
    same hypotheses n >= 1000, eps0 < 1/2, delta < 1/100 as Thm 7."""
    return erlingsson_v1_epsilon(eps0=eps0, n=n, delta=delta, statement="EFMRTT19.Thm8")


def swapping_v2_epsilon(*, eps0: float, n: int, delta: float) -> BoundValue:
    """The v2 general expression at index 1 for A_swap: EFMRTT19.Thm8.v2 (the proof's own result)."""
    return erlingsson_v2_epsilon(eps0=eps0, n=n, delta=delta, statement="EFMRTT19.Thm8.v2")


def shuffled_reports_v1_epsilon(*, eps0: float, n: int, delta: float) -> BoundValue:
    """12 eps0 sqrt(log(1/delta)/|S|) at every index of S, for reports shuffled after local
    randomization, |S| = n users sharing one randomizer: EFMRTT19.Cor9 (v1).
    Supported range: shuffle_spec.reference.core.limits.RANGES['EFMRTT19.Cor9'] (module docstring); refused outside it."""
    return erlingsson_v1_epsilon(eps0=eps0, n=n, delta=delta, statement="EFMRTT19.Cor9")
