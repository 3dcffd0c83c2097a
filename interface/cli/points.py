"""The point (eps0, n, delta) and the time budget (`--time-budget`) as the commands read them from the command line
(`compare`, `tightest`; `calibrate`, `eval --batch`, `tightest`): one parser each, so that every command accepts and
refuses the same values, and a command imports it without importing another command."""

from __future__ import annotations

from ...proofs_checks.bridge import BadParameter, parse_number, supported_point
from ..limits import INVERSION_TIME_BUDGET, INVERSION_TIME_BUDGET_MAX

__all__ = ["parse_params", "parse_time_budget"]


def parse_params(eps0: str, n: str, delta: str) -> dict:
    """(eps0, n, delta) from the command line, parsed strictly and checked against the supported range
    (0 < eps0 <= EPS0_MAX, n an integer in [1, N_MAX], DELTA_MIN <= delta < 1; `shuffle_spec.interface.limits`): the
    same check as the API's `tightest` and `certify` (`bridge.supported_point`)."""
    return supported_point(eps0, n, delta)


def parse_time_budget(text: object) -> float:
    """--time-budget SECONDS (text, or a number) as a number in (0, INVERSION_TIME_BUDGET_MAX] (default
    INVERSION_TIME_BUDGET when None; `calibrate`, `eval --batch`, `tightest`)."""
    if text is None:
        return INVERSION_TIME_BUDGET
    value = float(parse_number("time_budget", text))
    if not (0 < value <= INVERSION_TIME_BUDGET_MAX):
        raise BadParameter("time_budget", text, f"a number of seconds in (0, {INVERSION_TIME_BUDGET_MAX:g}]")
    return value
