"""Inputs shared by the structured randomizers: the one range table of their parameters (eps0, n, delta, the
domain size d) and the certified pattern lower bound's wrapper. Each check raises a one-line ParameterError
naming the parameter, its value and the range, before any work."""

from __future__ import annotations

from fractions import Fraction

import mpmath

from ..bounds.blanket_exact_krr import bracket
from ..core.errors import ParameterError, require_integer
from ..core.limits import DELTA_MIN, K_MAX
from ..core.parameters import check_delta, check_eps0, check_n
from ..core.results import NO_AMPLIFICATION, BoundValue

__all__ = ["MAX_EPS0", "MIN_EPS0", "MAX_N", "MAX_D", "check_randomizer_inputs", "check_domain", "cap_at_eps0", "eps0_rounded_up"]

# eps0 <= 40: e^eps0 and e^-eps0 and the products of the closed forms (up to e^(2 eps0) for unary encodings) stay
# far inside the certified sums' range of normal doubles (their entries >= 1e-200); beyond it nothing is amplified
# at n <= 1e8 anyway.
MAX_EPS0 = 40.0
# eps0 >= 1e-12: the mechanisms' probabilities are built from exact rational brackets of e^eps0 a few ulps of a double
# wide (`structured.exp_bracket`); below about 1e-15 the lower end is 1 and the probabilities coincide (p = q), so
# such an eps0 is refused naming eps0 rather than an internal parameter. Nothing is lost: at eps0 = 1e-12 every bound
# here is already 0 at delta >= 1e-300 (the total variation is below e^eps0 - 1).
MIN_EPS0 = 1e-12
MAX_N = 10**8  # the blanket sum and the pair lower bound (`reference.bounds.blanket_exact_randomizer`)
MAX_D = K_MAX  # the closed forms do not depend on d (unary, hashing, Hadamard) or only through exact ratios


def check_domain(d: object, *, minimum: int = 2, name: str = "d") -> int:
    """The domain size d (number of input values): an integer in [minimum, 1e9]; returned as an int."""
    require_integer(name, d, minimum=minimum)
    if d > MAX_D:  # type: ignore[operator]  # an integer: checked just above
        raise ParameterError(name, d, f"an integer {minimum} <= {name} <= {MAX_D:.0e}")
    return int(d)  # type: ignore[call-overload, no-any-return]


def check_randomizer_inputs(eps0: object, n: object, delta: object) -> None:
    """eps0 in [1e-12, 40], n an integer in [1, 1e8], delta in [1e-300, 1)."""
    check_eps0(eps0, maximum=MAX_EPS0, why="structured randomizers")
    if eps0 < MIN_EPS0:  # type: ignore[operator]  # a real number: checked just above
        raise ParameterError("eps0", eps0, f"{MIN_EPS0:g} <= eps0 <= {MAX_EPS0:g} (structured randomizers: e^eps0 must be distinguishable from 1 in its exact brackets)")
    check_n(n, maximum=MAX_N)
    check_delta(delta, minimum=DELTA_MIN, why="shuffle_spec.reference.core.limits")


def eps0_rounded_up(ratio: Fraction) -> float:
    """A float >= log(ratio) for an exact LDP ratio > 1: log1p(ratio - 1) of the exact excess at 40 digits, rounded
    outward (math.log of a Fraction rounds the ratio to a double first, which near 1 loses most digits of the log:
    at e^eps0 = 1 + 1e-9 the result fell below the exact log and the structured bounds refused)."""
    if not isinstance(ratio, Fraction) or ratio <= 1:
        raise ParameterError("ratio", ratio, "an exact Fraction > 1 (the LDP ratio e^eps0)")
    excess = ratio - 1
    with mpmath.workdps(40):
        return bracket(mpmath.log1p(mpmath.mpf(excess.numerator) / excess.denominator))[1]


def cap_at_eps0(value: BoundValue, eps0: float) -> BoundValue:
    """An upper bound never above the mechanism's eps0 (every eps0-LDP randomizer is eps0-DP after shuffling:
    EFMRTT19, the post-processing remark before Thm 7); the rounded-up parameter's eps0 is a hair above it.
    Range: eps0 > 0, value an upper-bound BoundValue."""
    if not isinstance(value, BoundValue) or value.direction != "upper_bound":
        raise ParameterError("value", repr(value)[:60], "an upper-bound BoundValue")
    if value.upper >= eps0:
        return BoundValue(min(value.lower, eps0), eps0, NO_AMPLIFICATION, direction="upper_bound")
    return value
