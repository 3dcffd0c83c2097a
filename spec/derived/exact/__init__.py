"""Exact privacy of shuffled mechanisms: the truth every bound is measured against.

`binary_rr`: exact privacy profile of shuffled binary randomized response at any n
(`exact.shuffled_binary_rr`); `finite`: exact central (eps, delta) of any small finite randomizer from
its full shuffled output distribution, and of shuffled k-RR for moderate n.
"""

from .binary_rr import STATEMENTS as _BINARY_RR
from .finite import STATEMENTS as _FINITE
from ...statement import Statement

STATEMENTS: tuple[Statement, ...] = _FINITE + _BINARY_RR
