"""The shape check of a heterogeneous schedule of rounds, shared by the mechanism rounds (`mechanism_rounds`,
compose.binary_rr / compose.krr) and the blanket rounds (`blanket_rounds`, compose.laplace / compose.finite /
compose.randomizer): a non-empty list of at most COMPOSE_SCHEDULE_MAX entries (repeated rounds are given once,
with their count), each checked by the caller's own entry check, whose rounds add up to at most
COMPOSE_ROUNDS_MAX (reference.core.limits: the composed loss grid and the work grow with the total).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from ..core.errors import ParameterError
from ..core.limits import COMPOSE_ROUNDS_MAX, COMPOSE_SCHEDULE_MAX

__all__ = ["checked_schedule"]


class _Counted(Protocol):
    @property
    def rounds(self) -> int: ...


Entry = TypeVar("Entry", bound=_Counted)


def checked_schedule(rounds: object, check_entry: Callable[[Any], Entry], *, entry: str) -> list[Entry]:
    """The checked entries of `rounds` (module doc): `check_entry` checks and normalises one entry; `entry` names
    the entry type in the message. Range: a non-empty list (not a string) of at most 1000 entries, at most 1e6
    rounds in all; a one-line ParameterError naming `rounds` otherwise."""
    if isinstance(rounds, (str, bytes)) or not isinstance(rounds, Sequence) or len(rounds) == 0:
        raise ParameterError("rounds", repr(rounds)[:60], f"a non-empty list of {entry}")
    if len(rounds) > COMPOSE_SCHEDULE_MAX:
        raise ParameterError("rounds", f"a list of {len(rounds)} entries", f"at most {COMPOSE_SCHEDULE_MAX} entries (repeated rounds once, with their count)")
    out = [check_entry(r) for r in rounds]
    total = sum(r.rounds for r in out)
    if total > COMPOSE_ROUNDS_MAX:
        raise ParameterError("rounds", total, f"a total of at most {COMPOSE_ROUNDS_MAX:.0e} rounds")
    return out
