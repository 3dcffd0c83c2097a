"""The one input checker of the reference implementations: eps0, n, delta, k, eps, dps, rounds.

Each checker raises `ParameterError` (a ValueError) with ONE line naming the parameter, the value received
and the allowed range, in the style `n = 0 is out of range: expected an integer n >= 1`. The ranges come from
`reference/core/limits.py`: with `statement`, the statement's supported range (`limits.RANGES`); with
`maximum` / `minimum`, a module's own tighter limit (stated in that module, with `why` saying what limits it).
A statement's hypotheses (the regime of a theorem, e.g. eps0 < 1/2) are not parameter ranges: they stay with
the statement's reference and raise `HypothesisViolation` there, after these checks.
"""

from __future__ import annotations

from typing import cast

from .errors import ParameterError, require_integer, require_positive, require_probability
from .limits import K_MAX, RANGES

__all__ = [
    "check_amplification_inputs",
    "check_inverse_inputs",
    "check_delta",
    "check_dps",
    "check_eps",
    "check_eps0",
    "check_k",
    "check_n",
    "check_rounds",
]


def _because(why: str) -> str:
    return f" ({why})" if why else ""


def check_eps0(eps0: object, *, statement: str | None = None, maximum: float | None = None, why: str = "") -> None:
    """eps0 a finite real > 0; at most `statement`'s supported eps0 (`limits.RANGES`) and at most `maximum`
    when given (message `0 < eps0 <= maximum (why)`)."""
    require_positive("eps0", eps0)
    if statement is not None:
        RANGES[statement].check(eps0=eps0)
    if maximum is not None and eps0 > maximum:  # type: ignore[operator]  # a real number: checked just above
        raise ParameterError("eps0", eps0, f"0 < eps0 <= {maximum:g}{_because(why)}")


def check_eps(eps: object, *, allow_zero: bool = False, statement: str | None = None) -> None:
    """eps a finite real > 0 (>= 0 with `allow_zero`); at most `statement`'s supported eps0 when given (a
    target eps is never above the eps0 range of the bound it inverts)."""
    require_positive("eps", eps, allow_zero=allow_zero)
    if statement is not None:
        RANGES[statement].check(eps=eps)


def check_n(n: object, *, statement: str | None = None, maximum: int | None = None, why: str = "") -> None:
    """n an integer >= 1 (a Python int or an integral float); at most `statement`'s supported n
    (`limits.RANGES`) and at most `maximum` when given (message `an integer 1 <= n <= maximum (why)`)."""
    require_integer("n", n, minimum=1)
    if statement is not None:
        RANGES[statement].check(n=n)
    if maximum is not None and n > maximum:  # type: ignore[operator]  # an integer: checked just above
        raise ParameterError("n", n, f"an integer 1 <= n <= {maximum:.0e}{_because(why)}")


def check_delta(
    delta: object, *, name: str = "delta", statement: str | None = None, minimum: float | None = None, closed_high: bool = False, why: str = ""
) -> None:
    """delta (or the probability called `name`) in (0, 1), or (0, 1] with `closed_high`; at least
    `statement`'s supported delta (`limits.RANGES`, DELTA_MIN = 1e-300 for every bound) and at least
    `minimum` when given (message `minimum <= delta < 1 (why)`)."""
    require_probability(name, delta, open_high=not closed_high)
    if statement is not None:
        RANGES[statement].check(delta=delta)
    if minimum is not None and delta < minimum:  # type: ignore[operator]  # a real number: checked just above
        raise ParameterError(name, delta, f"{minimum:g} <= {name} < 1{_because(why)}")


def check_k(k: object, *, minimum: int = 2, maximum: int = K_MAX, why: str = "") -> int:
    """k (a domain size, a number of compositions) an integer in [minimum, maximum]; by default the
    supported domain sizes of k-ary randomized response, 2 <= k <= K_MAX = 1e9 (`limits.K_MAX`); a module's
    own tighter limit comes from `limits` with `why` saying what limits it. Returned as an int."""
    require_integer("k", k, minimum=minimum)
    value = cast(int, k)  # an integer (a Python int or an integral float): checked just above
    if value > maximum:
        raise ParameterError("k", k, f"{minimum} <= k <= {maximum}{_because(why)}")
    return int(value)


def check_rounds(rounds: object, *, maximum: int) -> None:
    """rounds (a number of composed rounds) an integer in [1, maximum]."""
    require_integer("rounds", rounds, minimum=1)
    if rounds > maximum:  # type: ignore[operator]  # an integer: checked just above
        raise ParameterError("rounds", rounds, f"1 <= rounds <= {maximum:.0e}")


def check_dps(dps: object, *, low: int = 15, high: int = 400) -> int:
    """dps (decimal digits of a high-precision enclosure) a Python int in [low, high]; returned as an int."""
    if isinstance(dps, bool) or not isinstance(dps, int) or not low <= dps <= high:
        raise ParameterError("dps", dps, f"an integer number of decimal digits, {low} <= dps <= {high}")
    return dps


def check_amplification_inputs(eps0: object, n: object, delta: object, *, statement: str, closed_high: bool = False) -> None:
    """The inputs of an amplification bound (eps0, n, delta): each checked for its kind first (eps0 > 0, n an
    integer >= 1, delta in (0, 1), or (0, 1] with `closed_high`), then all against `statement`'s supported
    range (`limits.RANGES`: eps0 <= eps0_max, n <= n_max, delta >= DELTA_MIN)."""
    require_positive("eps0", eps0)
    require_integer("n", n, minimum=1)
    require_probability("delta", delta, open_high=not closed_high)
    RANGES[statement].check(eps0=eps0, n=n, delta=delta)


def check_inverse_inputs(eps: object, n: object, delta: object, *, statement: str) -> None:
    """The inputs of a bound inverted in eps0 (eps, n, delta): eps a finite real > 0, n an integer >= 1, delta in
    (0, 1), then n, delta and eps (as a target it is at most the eps0 range) against `statement`'s supported
    range (`limits.RANGES`)."""
    require_positive("eps", eps)
    require_integer("n", n, minimum=1)
    require_probability("delta", delta)
    RANGES[statement].check(n=n, delta=delta, eps=eps)
