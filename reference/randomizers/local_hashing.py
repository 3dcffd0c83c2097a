"""Local hashing: binary local hashing (BLH) and optimized local hashing (OLH), first-class and certified after
shuffling.

The mechanism (Wang, Blocki, Li, Jha, USENIX Security 2017, Section 4.4): a client draws a hash function H from a
family mapping [d] to [g] and reports (H, y), y = H(x) with probability e0 / (e0 + g - 1) and each other value of
[g] with probability 1 / (e0 + g - 1) (k-ary randomized response on H(x)), e0 = e^eps0. BLH: g = 2; OLH:
g = round(e^eps0) + 1 (WBLJ17 Eq. (21), the integer nearest e^eps0 plus one). The LDP ratio is e0 (replace-one).

The hash family. The bounds hold for a family whose values at any two inputs are independent and uniform on [g]
(2-wise independent; the upper bound) and at any three inputs (3-wise independent; the lower bound's pattern). The
exact small-domain object (tests, proof checks) is the family of all functions [d] -> [g], which is both.
Deployed implementations hash with a seeded fast hash (xxhash in WBLJ17's code), modelled as such a family.

Blanket decomposition (proof). omega uniform on the pairs (H, y): mu_x(H, y) = omega(H, y) g e0^[y = H(x)] / D,
D = e0 + g - 1, so gamma = g / D (the column minima as d grows; at small d a hash function may map
several inputs to one value and the matrix's column minima can be larger: still a valid decomposition). For a pair (x, x') the ratios (alpha, beta)
= (g e0^[y=H(x)] / D, g e0^[y=H(x')] / D) depend on the two indicators [y = H(x)], [y = H(x')], independent
Bern(1/g) under omega for a 2-wise independent family: four groups (g e0^i / D, g e0^j / D, b(i) b(j)),
b(1) = 1/g, b(0) = 1 - 1/g, whatever d is.

Lower bound: every report (H, y) is mapped to the indicators ([y = H(x)], [y = H(x')], [y = H(z)]) (a
post-processing): for the owner w of the report its own indicator is Bern(e0 / D) and, for a 3-wise independent
family, the other two are independent Bern(1/g): the 3 x 8 pattern randomizer of
`shuffle_spec.reference.lower_bounds.structured`. With d = 2 there is no third input z (nobody can hold it): the
indicators ([y = H(x)], [y = H(x')]) only, 2 x 4, the others at x or x' (at d = 2 the 2-wise independent family is
the family of all functions [2] -> [g], and the two indicators are independent under it).

Rounding: the upper bound uses a rational e' >= e^eps0, the lower a rational e' <= e^eps0, with g fixed (OLH's g is
computed from eps0 as the paper states, then held fixed): k-ary randomized response on g values at a smaller e is
a post-processing of the one at a larger e (with probability t replace y by a uniform value of [g]: the ratio
falls continuously from e to 1), applied to every report.

Ranges: eps0 in [1e-12, 40], d an integer in [2, 1e9], g an integer in [2, 1e6] (OLH: g = round(e^eps0) + 1 <= 1e6,
so eps0 <= 13.8 for OLH), n in [1, 1e8], delta in [1e-300, 1). Neighbouring relation: replace-one.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

from ..core.errors import ParameterError, require_integer
from ..core.results import BoundValue
from ..lower_bounds.structured import pattern_pair_epsilon
from .common import cap_at_eps0, check_domain, check_randomizer_inputs, eps0_rounded_up
from .structured import BlanketPair, blanket_pair, exp_bracket, structured_blanket_epsilon

__all__ = [
    "LocalHashing",
    "local_hashing",
    "olh_range",
    "local_hashing_epsilon_upper",
    "local_hashing_epsilon_lower",
    "blh_epsilon_upper",
    "blh_epsilon_lower",
    "olh_epsilon_upper",
    "olh_epsilon_lower",
    "STATEMENTS",
]

STATEMENTS = {"upper": "BBGN19.Lem5.3.exact_local_hashing", "lower": "exact.local_hashing_pattern_pair"}
MAX_G = 10**6
MAX_FULL = 4096  # the full matrix (g^d hash functions times g values) only for small d and g


@dataclass(frozen=True)
class LocalHashing:
    """Local hashing with exact e0 = e^eps0 > 1, g hash values and d inputs (module doc)."""

    e0: Fraction
    g: int
    d: int

    def __post_init__(self) -> None:
        if not isinstance(self.e0, Fraction) or self.e0 <= 1:
            raise ParameterError("e0", str(self.e0), "an exact Fraction > 1 (e^eps0)")
        require_integer("g", self.g, minimum=2)
        if self.g > MAX_G:
            raise ParameterError("g", self.g, f"an integer 2 <= g <= {MAX_G:.0e}")
        check_domain(self.d)

    @property
    def ratio(self) -> Fraction:
        return self.e0

    def _own(self, hit: int) -> Fraction:
        return (self.e0 if hit else Fraction(1)) / (self.e0 + self.g - 1)

    def rows(self) -> list[list[Fraction]]:
        """The full matrix over (H, y), H every function [d] -> [g] (uniform), small d and g only."""
        functions = list(itertools.product(range(self.g), repeat=self.d))
        if len(functions) * self.g > MAX_FULL:
            raise ParameterError("(d, g)", (self.d, self.g), f"g^d * g <= {MAX_FULL} for the full matrix")
        weight = Fraction(1, len(functions))
        return [[weight * self._own(int(h[x] == y)) for h in functions for y in range(self.g)] for x in range(self.d)]

    def pattern_rows(self) -> list[list[Fraction]]:
        """The indicators ([y = H(x)], [y = H(x')], [y = H(z)]) (module doc): 3 x 8, one row per holder x, x', z. With
        d = 2 there is no third input: ([y = H(x)], [y = H(x')]), 2 x 4 (a pair may put the others only at x or x')."""
        b = {1: Fraction(1, self.g), 0: 1 - Fraction(1, self.g)}
        roles = 2 if self.d == 2 else 3
        out = []
        for w in range(roles):
            row = []
            for pattern in itertools.product((0, 1), repeat=roles):
                own = self._own(pattern[w]) * (1 if pattern[w] else self.g - 1)
                row.append(own * math.prod((b[pattern[j]] for j in range(roles) if j != w), start=Fraction(1)))
            out.append(row)
        return out

    def replace_pairs(self) -> list[BlanketPair]:
        d_ = self.e0 + self.g - 1
        b = {1: Fraction(1, self.g), 0: 1 - Fraction(1, self.g)}
        alpha = {1: self.g * self.e0 / d_, 0: self.g / d_}
        return [blanket_pair(self.g / d_, [(alpha[i], alpha[j], b[i] * b[j]) for i in (1, 0) for j in (1, 0)])]


def olh_range(eps0: float) -> int:
    """OLH's number of hash values, g = round(e^eps0) + 1 (WBLJ17 Eq. (21)). Range: eps0 in (0, 13.8]."""
    check_randomizer_inputs(eps0, 1, 0.5)
    g = round(math.exp(eps0)) + 1
    if g > MAX_G:
        raise ParameterError("eps0", eps0, f"OLH needs g = round(e^eps0) + 1 <= {MAX_G:.0e} (eps0 <= 13.8)")
    return g


def local_hashing(eps0: float, d: int, g: int, *, side: str = "upper") -> LocalHashing:
    """Local hashing at eps0 with g values on d inputs, e^eps0 rounded to an exact rational on `side` ("upper":
    >= e^eps0, "lower": <=; module doc). Range: eps0 in [1e-12, 40], d in [2, 1e9], g in [2, 1e6]."""
    check_randomizer_inputs(eps0, 1, 0.5)
    if side not in ("upper", "lower"):
        raise ParameterError("side", side, "'upper' or 'lower'")
    e0 = exp_bracket(eps0)[1 if side == "upper" else 0]
    return LocalHashing(e0, g, check_domain(d))


def local_hashing_epsilon_upper(mechanism: LocalHashing, *, n: int, delta: float, tight: str = "upper") -> BoundValue:
    """BBGN19.Lem5.3.exact_local_hashing: certified upper bound on the central eps of n shuffled reports of the
    exact local hashing mechanism (module doc), replace-one. `tight` = "upper" (default) or "both": see `structured.structured_blanket_epsilon` (both ends narrowed, for audits). Range: n in [1, 1e8], delta in
    [1e-300, 1)."""
    if not isinstance(mechanism, LocalHashing):
        raise ParameterError("mechanism", repr(mechanism)[:40], "a LocalHashing")
    check_randomizer_inputs(1.0, n, delta)
    return structured_blanket_epsilon(mechanism.replace_pairs(), n=n, delta=delta, eps0=eps0_rounded_up(mechanism.ratio), tight=tight)


def local_hashing_epsilon_lower(mechanism: LocalHashing, *, n: int, delta: float) -> BoundValue:
    """exact.local_hashing_pattern_pair: certified lower bound (the interval's lower end) on the central eps of n
    shuffled reports of the exact local hashing mechanism (module doc), replace-one. Range: as the upper bound."""
    if not isinstance(mechanism, LocalHashing):
        raise ParameterError("mechanism", repr(mechanism)[:40], "a LocalHashing")
    check_randomizer_inputs(1.0, n, delta)
    labels = ["x", "x'"] if mechanism.d == 2 else ["x", "x'", "z"]
    return pattern_pair_epsilon(rows=mechanism.pattern_rows(), n=n, delta=delta, labels=labels)


def blh_epsilon_upper(*, eps0: float, n: int, delta: float, d: int, tight: str = "upper") -> BoundValue:
    """BBGN19.Lem5.3.exact_local_hashing for BLH (g = 2) at eps0: certified upper bound, replace-one. `tight` = "upper" (default) or "both": see `structured.structured_blanket_epsilon` (both ends narrowed, for audits).
    Range: eps0 in [1e-12, 40], n in [1, 1e8], delta in [1e-300, 1), d in [2, 1e9]."""
    check_randomizer_inputs(eps0, n, delta)
    return cap_at_eps0(local_hashing_epsilon_upper(local_hashing(eps0, d, 2), n=n, delta=delta, tight=tight), eps0)


def blh_epsilon_lower(*, eps0: float, n: int, delta: float, d: int) -> BoundValue:
    """exact.local_hashing_pattern_pair for BLH (g = 2): certified lower bound, replace-one. Range: as blh_epsilon_upper."""
    check_randomizer_inputs(eps0, n, delta)
    return local_hashing_epsilon_lower(local_hashing(eps0, d, 2, side="lower"), n=n, delta=delta)


def olh_epsilon_upper(*, eps0: float, n: int, delta: float, d: int, tight: str = "upper") -> BoundValue:
    """BBGN19.Lem5.3.exact_local_hashing for OLH (g = round(e^eps0) + 1) at eps0: certified upper bound,
    replace-one. `tight` = "upper" (default) or "both": see `structured.structured_blanket_epsilon` (both ends narrowed, for audits). Range: eps0 in (0, 13.8], n in [1, 1e8], delta in [1e-300, 1), d in [2, 1e9]."""
    check_randomizer_inputs(eps0, n, delta)
    return cap_at_eps0(local_hashing_epsilon_upper(local_hashing(eps0, d, olh_range(eps0)), n=n, delta=delta, tight=tight), eps0)


def olh_epsilon_lower(*, eps0: float, n: int, delta: float, d: int) -> BoundValue:
    """exact.local_hashing_pattern_pair for OLH: certified lower bound, replace-one. Range: as olh_epsilon_upper."""
    check_randomizer_inputs(eps0, n, delta)
    return local_hashing_epsilon_lower(local_hashing(eps0, d, olh_range(eps0), side="lower"), n=n, delta=delta)
