"""Exact privacy of shuffled mechanisms: the truth every bound is measured against.

`binary_rr`: exact privacy profile of shuffled binary randomized response at any n
(`exact.shuffled_binary_rr`); `finite`: exact central (eps, delta) of any small finite randomizer from
its full shuffled output distribution, and of shuffled k-RR for moderate n.
"""

from shuffle_spec.spec.exact.binary_rr import STATEMENTS as _BINARY_RR
from shuffle_spec.spec.exact.finite import STATEMENTS as _FINITE
from shuffle_spec.spec.statement import Statement

STATEMENTS: tuple[Statement, ...] = _FINITE + _BINARY_RR
