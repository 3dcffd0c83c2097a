"""Duchi, Jordan and Wainwright's one-dimensional mechanism, first-class and certified after shuffling: its
central epsilon is EXACTLY that of shuffled binary randomized response at the same eps0.

The mechanism (Duchi, Jordan, Wainwright, "Minimax optimal procedures for locally private estimation", JASA
113(521), 2018, Sec. 4.2.3, one dimension; as restated in Wang et al., ICDE 2019, Algorithm 1): an input t in
[-1, 1] is reported as +B with probability pi(t) = 1/2 + t (e0 - 1) / (2 (e0 + 1)) and as -B otherwise,
B = (e0 + 1) / (e0 - 1), e0 = e^eps0. pi ranges over [q, p], q = 1 / (e0 + 1), p = e0 / (e0 + 1): the LDP ratio
is e0 (t = 1 vs t = -1), replace-one.

Reduction to binary randomized response (proof; the steps are proof checks). The shuffled output is the number of
+B reports. (1) The inputs +-1 give exactly binary randomized response at eps0, so the central epsilon of Duchi's
mechanism is at least that of shuffled binary RR on the datasets of +-1 inputs (a lower bound, and every
binary RR dataset is one). (2) Conversely, every report is Bern(pi_i), pi_i in [q, p], a mixture
lambda_i Bern(p) + (1 - lambda_i) Bern(q): the others' count S is a mixture over configurations of +-1 inputs,
common to both neighbours, so by joint convexity of the hockey-stick divergence D_e(P || Q) is at most the
largest D_e over the configurations. For user 1 at t vs t' (lambda >= lambda', else swap the roles of A and B),
with A = Bern(p) + S' and B = Bern(q) + S', P - e Q = c (A - B) + (1 - e) M with c = lambda - lambda' and
M = lambda' A + (1 - lambda') B >= c B (c <= 1 - lambda'), so P - e Q <= c (A - e B) pointwise and
D_e(P || Q) <= c D_e(A || B) <= D_e(A || B), the divergence of binary RR inputs 1 vs 0 (and B vs A the mirror).
Hence the worst case over all datasets in [-1, 1]^n equals shuffled binary RR's: `exact.shuffled_binary_rr`
(certified worst case over every configuration) gives both ends.

Ranges: eps0 in [1e-12, 40], n in [1, 1e8], delta in [1e-300, 1). No domain size (real inputs in [-1, 1]).
"""

from __future__ import annotations

from functools import lru_cache

from ..core.results import BoundValue
from .common import check_randomizer_inputs

__all__ = ["duchi_epsilon", "duchi_epsilon_upper", "duchi_epsilon_lower", "STATEMENTS"]

STATEMENTS = {"upper": "exact.shuffled_duchi", "lower": "exact.shuffled_duchi"}


def duchi_epsilon(*, eps0: float, n: int, delta: float) -> BoundValue:
    """exact.shuffled_duchi: the certified enclosure (direction "exact") of the central eps of n shuffled reports
    of Duchi et al.'s one-dimensional mechanism at eps0, replace-one: shuffled binary RR's (module doc).
    Range: eps0 in [1e-12, 40], n in [1, 1e8], delta in [1e-300, 1)."""
    check_randomizer_inputs(eps0, n, delta)
    return _duchi_epsilon(float(eps0), int(n), float(delta))


@lru_cache(maxsize=16)
def _duchi_epsilon(eps0: float, n: int, delta: float) -> BoundValue:
    # Kept: the front door asks for the upper end and then the lower end of the same enclosure (one evaluation of
    # exact.shuffled_binary_rr, up to half a second at n = 1e6). BoundValue is frozen.
    from ..exact.binary_rr import shuffled_binary_rr  # here, not at the top: it loads SciPy, which the other mechanisms never need

    value = shuffled_binary_rr(eps0=eps0, n=n, delta=delta)
    return BoundValue(value.lower, value.upper, "equal to shuffled binary randomized response at eps0; " + value.note, direction="exact")


def duchi_epsilon_upper(*, eps0: float, n: int, delta: float) -> BoundValue:
    """exact.shuffled_duchi, its upper end as a certified upper bound (module doc). Range: as duchi_epsilon."""
    return duchi_epsilon(eps0=eps0, n=n, delta=delta).in_direction("upper_bound")


def duchi_epsilon_lower(*, eps0: float, n: int, delta: float) -> BoundValue:
    """exact.shuffled_duchi, its lower end as a certified lower bound (module doc). Range: as duchi_epsilon."""
    return duchi_epsilon(eps0=eps0, n=n, delta=delta).in_direction("lower_bound")
