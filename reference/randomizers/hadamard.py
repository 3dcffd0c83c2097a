"""Hadamard response, first-class and certified after shuffling.

The mechanism (Acharya, Sun, Zhang, "Hadamard response: estimating distributions privately, efficiently, and
with little communication", AISTATS 2019, Sections 3 and 4.1): K = 2^ceil(log2(d + 1)) and H_K the Sylvester
Hadamard matrix (H[r, c] = (-1)^popcount(r & c)); input x in [d] owns the set C_x = {y : H[x + 1, y] = +1} of K/2
outputs (row 0, all +1, is skipped); the report y is drawn with probability 2 e0 / (K (1 + e0)) on C_x and
2 / (K (1 + e0)) elsewhere. The LDP ratio is e0 = e^eps0 (replace-one).

Blanket decomposition (proof). omega uniform on [K]: mu_x(y) = omega(y) 2 e0^[y in C_x] / (1 + e0), gamma =
2 / (1 + e0) (valid; the matrix's column minima can be larger: output 0 lies in every C_x). Two distinct non-zero rows of a Sylvester matrix are
orthogonal and so are their products with row 0: the indicators [y in C_x], [y in C_x'] of a uniform y are
independent fair bits. Four groups (2 e0^i / (1 + e0), 2 e0^j / (1 + e0), 1/4) for every pair and every d.

Lower bound: every report y is mapped to ([y in C_x], [y in C_x'], [y in C_z]) (a post-processing). When the rows
x + 1, x' + 1, z + 1 are linearly independent over GF(2) (z + 1 != (x + 1) XOR (x' + 1); possible when d >= 4, e.g.
rows 1, 2, 4), the three indicators of a uniform y are independent fair bits: the owner's pattern law is
2 e0^b_w / (8 (1 + e0)) per pattern b. d = 2 or 3 (K = 4): the full d x 4 matrix. And the dependent triple
(d >= 4): rows x + 1 = 1, x' + 1 = 2, z + 1 = 3 = 1 XOR 2. Sylvester rows multiply (H[r XOR s, y] =
H[r, y] H[s, y]), so [y in C_z] = [b_x = b_x'] and the pattern (b_x, b_x') of a uniform y is two independent fair
bits: the owner w's law is e0^c_w / (2 (1 + e0)) per pattern, c_x = b_x, c_x' = b_x', c_z = [b_x = b_x'] (the
3 x 4 matrix `dependent_pattern_rows`). The others at z put both (1, 0) and (0, 1) among the rare patterns, so
user 1's report is rare under both inputs (with independent rows only one of them is): at eps0 = 8, delta =
1e-6 the lower bound at n = 1e4 rises from 1.23 to 1.84. The larger of the two projections is returned.

Rounding: the upper bound at a rational e' >= e^eps0, the lower at e' <= e^eps0: Hadamard response at a smaller
e is a post-processing of the one at a larger e (with probability t replace y by a uniform output of [K]: the
mixture is Hadamard response with a ratio falling continuously from e to 1).

Ranges: eps0 in [1e-12, 40], d an integer in [2, 1e9], n in [1, 1e8], delta in [1e-300, 1). Replace-one.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

from ..core.errors import ParameterError
from ..core.results import BoundValue
from ..lower_bounds.structured import pattern_pair_epsilon
from .common import cap_at_eps0, check_domain, check_randomizer_inputs, eps0_rounded_up
from .structured import BlanketPair, blanket_pair, check_tight, exp_bracket, structured_blanket_epsilon

__all__ = ["HadamardResponse", "hadamard_response", "hadamard_epsilon_upper", "hadamard_epsilon_lower", "STATEMENTS"]

STATEMENTS = {"upper": "BBGN19.Lem5.3.exact_hadamard", "lower": "exact.hadamard_pattern_pair"}
MAX_FULL_D = 15  # the full matrix only for K <= 16


@dataclass(frozen=True)
class HadamardResponse:
    """Hadamard response with exact e0 = e^eps0 > 1 on d inputs (module doc)."""

    e0: Fraction
    d: int

    def __post_init__(self) -> None:
        if not isinstance(self.e0, Fraction) or self.e0 <= 1:
            raise ParameterError("e0", str(self.e0), "an exact Fraction > 1 (e^eps0)")
        check_domain(self.d)

    @property
    def ratio(self) -> Fraction:
        return self.e0

    @property
    def size(self) -> int:
        """K = 2^ceil(log2(d + 1))."""
        return 1 << self.d.bit_length()

    def rows(self) -> list[list[Fraction]]:
        """The full d x K matrix (d <= 15)."""
        if self.d > MAX_FULL_D:
            raise ParameterError("d", self.d, f"2 <= d <= {MAX_FULL_D} for the full matrix")
        k = self.size
        return [[2 * (self.e0 if bin((x + 1) & y).count("1") % 2 == 0 else 1) / (k * (1 + self.e0)) for y in range(k)] for x in range(self.d)]

    def pattern_rows(self) -> list[list[Fraction]]:
        """The membership pattern of rows 1, 2, 4 (module doc): 3 x 8; the full matrix when d <= 3."""
        if self.d <= 3:
            return self.rows()
        return [[2 * (self.e0 if b[w] else 1) / (8 * (1 + self.e0)) for b in itertools.product((0, 1), repeat=3)] for w in range(3)]

    def dependent_pattern_rows(self) -> list[list[Fraction]]:
        """The dependent triple rows 1, 2, 3 (module doc): 3 x 4, columns (b_x, b_x') in product order."""
        patterns = [(b[0], b[1], int(b[0] == b[1])) for b in itertools.product((0, 1), repeat=2)]
        return [[(self.e0 if c[w] else 1) / (2 * (1 + self.e0)) for c in patterns] for w in range(3)]

    def replace_pairs(self) -> list[BlanketPair]:
        alpha = {1: 2 * self.e0 / (1 + self.e0), 0: 2 / (1 + self.e0)}
        return [blanket_pair(2 / (1 + self.e0), [(alpha[i], alpha[j], Fraction(1, 4)) for i in (1, 0) for j in (1, 0)])]


def hadamard_response(eps0: float, d: int, *, side: str = "upper") -> HadamardResponse:
    """Hadamard response at eps0 on d inputs, e^eps0 rounded to an exact rational on `side` (module doc).
    Range: eps0 in [1e-12, 40], d in [2, 1e9]."""
    check_randomizer_inputs(eps0, 1, 0.5)
    if side not in ("upper", "lower"):
        raise ParameterError("side", side, "'upper' or 'lower'")
    return HadamardResponse(exp_bracket(eps0)[1 if side == "upper" else 0], check_domain(d))


def hadamard_epsilon_upper(*, eps0: float, n: int, delta: float, d: int, tight: str = "upper") -> BoundValue:
    """BBGN19.Lem5.3.exact_hadamard: certified upper bound on the central eps of n shuffled Hadamard responses
    at eps0 (module doc), replace-one. `tight` = "upper" (default) or "both": see `structured.structured_blanket_epsilon` (both ends narrowed, for audits). Range: eps0 in [1e-12, 40], n in [1, 1e8], delta in
    [1e-300, 1), d in [2, 1e9]."""
    check_randomizer_inputs(eps0, n, delta)
    check_tight(tight)
    mechanism = hadamard_response(eps0, d)
    value = structured_blanket_epsilon(mechanism.replace_pairs(), n=n, delta=delta, eps0=eps0_rounded_up(mechanism.ratio), tight=tight)
    return cap_at_eps0(value, eps0)


def hadamard_epsilon_lower(*, eps0: float, n: int, delta: float, d: int) -> BoundValue:
    """exact.hadamard_pattern_pair: certified lower bound (the interval's lower end) on the central eps of n
    shuffled Hadamard responses at eps0 (module doc), replace-one. Range: as hadamard_epsilon_upper."""
    check_randomizer_inputs(eps0, n, delta)
    mechanism = hadamard_response(eps0, d, side="lower")
    labels = ["x", "x'", "z"] if d > 3 else [f"input {i}" for i in range(d)]
    if d <= 3:
        return pattern_pair_epsilon(rows=mechanism.pattern_rows(), n=n, delta=delta, labels=labels)  # the full matrix: every projection is a post-processing of it
    # The dependent triple first (usually the larger); the independent rows' search then solves only candidates that can
    # beat it by more than the search tolerance (its `floor`): the larger of the two either way, up to that tolerance.
    dependent = pattern_pair_epsilon(rows=mechanism.dependent_pattern_rows(), n=n, delta=delta, labels=["x", "x'", "z = x XOR x' (rows 1, 2, 3)"])
    independent = pattern_pair_epsilon(rows=mechanism.pattern_rows(), n=n, delta=delta, labels=labels, floor=max(dependent.lower, 0.0))
    return dependent if dependent.lower >= independent.lower else independent
