"""The point (eps0, n, delta) as the commands read it from the command line (`compare`, `tightest`): one parser, so that
every command accepts and refuses the same values, and a command imports it without importing another command."""

from __future__ import annotations

from ...proofs_checks.bridge import supported_point

__all__ = ["parse_params"]


def parse_params(eps0: str, n: str, delta: str) -> dict:
    """(eps0, n, delta) from the command line, parsed strictly and checked against the supported range
    (0 < eps0 <= EPS0_MAX, n an integer in [1, N_MAX], DELTA_MIN <= delta < 1; `shuffle_spec.interface.limits`): the
    same check as the API's `tightest` and `certify` (`bridge.supported_point`)."""
    return supported_point(eps0, n, delta)
