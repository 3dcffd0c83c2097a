"""Shuffled k-ary randomized response with blanket probability gamma (BBGN19 Sec. 3: Alg. 1, Thm 3.1).

Algorithm 1: on input x in [k] (here {0, ..., k-1}), with probability 1 - gamma report x, otherwise
report a uniformly random element of [k] (possibly x). Its output pmf is
mu_x(y) = (1 - gamma) [y = x] + gamma / k, and it is eps0-LDP with eps0 = log(1 + k (1 - gamma)/gamma).
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..finite.distributions import Distribution
from ..core.errors import HypothesisViolation, ParameterError, require_integer, require_positive, require_probability
from ..core.limits import EXACT_RANDOMIZER_K_MAX
from ..core.parameters import check_k
from ..finite.randomizers import Randomizer
from ..core.results import BoundValue
from ..core.rounding import round_down, round_up

__all__ = ["blanket_krr_randomizer", "theorem_3_1_gamma", "theorem_3_1_eps0"]


def blanket_krr_randomizer(k: int, gamma: Fraction | float) -> Randomizer:
    """Algorithm 1 (BBGN19.Alg1) on {0, ..., k-1}: mu_x(y) = (1 - gamma)[y = x] + gamma/k; exact for a
    Fraction gamma. Range: 2 <= k <= EXACT_RANDOMIZER_K_MAX (`shuffle_spec.reference.core.limits`), 0 <= gamma <= 1."""
    check_k(k, maximum=EXACT_RANDOMIZER_K_MAX, why="an exact k x k table")
    if isinstance(gamma, bool) or not isinstance(gamma, (int, float, Fraction)) or not 0 <= gamma <= 1:
        raise ParameterError("gamma", gamma, "a blanket probability gamma in [0, 1]")
    gamma = Fraction(gamma) if isinstance(gamma, int) else gamma
    k = int(k)
    share = gamma / k
    return Randomizer({x: Distribution({y: (1 - gamma) * (y == x) + share for y in range(k)}) for x in range(k)})


def _check_theorem_3_1(eps: float, n: int, delta: float, k: int, statement: str) -> None:
    require_positive("eps", eps)
    require_integer("n", n, minimum=2)
    require_probability("delta", delta, open_high=False)
    check_k(k)
    if not eps <= 1:
        raise HypothesisViolation(statement, "eps <= 1", {"eps": eps, "n": n, "delta": delta, "k": k})


def _gamma_enclosure(eps: float, n: int, delta: float, k: int) -> tuple[float, float]:
    chernoff = 14 * k * math.log(2 / delta) / ((n - 1) * eps * eps)
    plus_one = 27 * k / ((n - 1) * eps)
    # Each is a handful of correctly rounded operations (at most six, and libm's log within one ulp): 8 ulps
    # either way covers them. The upper end is the gamma used (a larger gamma is a post-processing of a
    # smaller one, so rounding up is the safe side).
    gamma = max(chernoff, plus_one)
    return round_down(gamma, 8), round_up(gamma, 8)


def theorem_3_1_gamma(*, eps: float, n: int, delta: float, k: int, statement: str = "BBGN19.Thm3.1") -> BoundValue:
    """gamma = max{14 k log(2/delta) / ((n-1) eps^2), 27 k / ((n-1) eps)} makes the shuffled Algorithm 1
    (eps, delta)-DP for eps <= 1, delta in (0, 1] (BBGN19.Thm3.1); refused when this gamma exceeds 1.
    An upper bound (any larger gamma is also private, by post-processing): the double evaluation widened by
    8 ulps each way, `value` the upper end."""
    _check_theorem_3_1(eps, n, delta, k, statement)
    lower, upper = _gamma_enclosure(eps, int(n), delta, int(k))
    if upper > 1:
        raise HypothesisViolation(statement, "gamma <= 1 (n large enough)", {"eps": eps, "n": n, "delta": delta, "k": k})
    return BoundValue(lower, upper, direction="upper_bound")


def theorem_3_1_eps0(*, eps: float, n: int, delta: float, k: int) -> BoundValue:
    """eps0 = log(1 + k (1 - gamma)/gamma) = log(min{(n-1) eps^2/(14 log(2/delta)), (n-1) eps/27} - k + 1):
    the local epsilon of Algorithm 1 with Theorem 3.1's gamma (BBGN19v1.Thm3.1). A lower bound: eps0 falls
    as gamma grows, so its lower end (the `value`) is taken at gamma's upper end and rounded down, so that
    k-RR run at the returned eps0 has a blanket probability at least Theorem 3.1's gamma; its upper end at
    gamma's lower end, rounded up (8 ulps each: four correctly rounded operations and log1p)."""
    gamma = theorem_3_1_gamma(eps=eps, n=n, delta=delta, k=k, statement="BBGN19v1.Thm3.1")
    k = int(k)
    lower = max(0.0, round_down(math.log1p(k * (1 - gamma.upper) / gamma.upper), 8))
    upper = max(lower, round_up(math.log1p(k * (1 - gamma.lower) / gamma.lower), 8))
    return BoundValue(lower, upper, direction="lower_bound")
