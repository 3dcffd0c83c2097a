"""Unary encodings: symmetric RAPPOR (= symmetric unary encoding, SUE) and optimized unary encoding (OUE),
first-class and certified after shuffling.

The mechanism (Wang, Blocki, Li, Jha, "Locally differentially private protocols for frequency estimation",
USENIX Security 2017, Section 4.3): an input x in [d] = {0, ..., d-1} is encoded as the one-hot vector e_x; bit j
of the report is 1 with probability p if j = x and q otherwise, independently over the d bits. The LDP ratio
(replace-one: x vs x' changes two bits) is e^eps0 = p (1 - q) / ((1 - p) q).
- Symmetric RAPPOR (Erlingsson, Pihur, Korolova, CCS 2014, "basic one-time RAPPOR" with one hash function and the
  permanent response only; WBLJ17's SUE; the IETF draft draft-wang-ppm-differential-privacy-00, Section
  "Symmetric RAPPOR"): p = e^(eps0/2) / (e^(eps0/2) + 1), q = 1 - p: each bit is binary randomized response at
  eps0/2. (The IETF draft's EPSILON_0 is that per-bit level: flip probability 1 / (e^EPSILON_0 + 1), so its
  replace-one LDP level is eps0 = 2 EPSILON_0.)
- OUE (WBLJ17 Section 4.3, Eq. (15)): p = 1/2, q = 1 / (e^eps0 + 1).

Blanket decomposition (proof). Let omega be the law of the report of the all-zero vector (every bit Bern(q)) and
g(b) = Pr[bit = b | hot] / Pr[bit = b | cold]: g(1) = p/q, g(0) = (1-p)/(1-q), g(0) < 1 < g(1) when p > q.
Then mu_x(y) = omega(y) g(y_x), and gamma = g(0) gives gamma omega <= mu_x for every x (g(y_x) >= g(0)): a valid
decomposition (BBGN19 Lemma 5.3 needs only that). For the ordered pair (x, x') the ratios (alpha, beta) =
(g(y_x), g(y_x')) depend on two bits, independent under omega: four groups (g(i), g(j), b(i) b(j)),
b(1) = q, b(0) = 1 - q, for every d >= 2 and every pair (so one pair is every pair); four distinct coefficients:
the certified FFT upper bound of `shuffle_spec.reference.randomizers.structured`.

Deletion relation (the IETF draft's local claim: "EPSILON_0-DP with deletion" against the reference R = the
report of the all-zero vector): neighbouring datasets differ in user 1's report being drawn from mu_x or from
R = omega. The same gamma and omega; the pair (x, R) has groups (g(i), 1, b(i)) and (R, x) the mirror, two
groups each (exact lattice sums). Its lower bound projects every report to its bit x: user 1 is Bern(p) vs
Bern(q), every other user Bern(p) (at x) or Bern(q) (elsewhere): shuffled binary randomized response, a
post-processing of the shuffled reports; and the pattern of bits (x, z) with pairs (x vs R) only, the others at
x or at z (`pattern_roles_epsilon`): the larger of the two.

What is observed. These bounds are for the shuffle model: the analyst sees the multiset of reports. A
secure-aggregation deployment (the IETF draft's DAP) releases only the per-coordinate sums, a post-processing:
the upper bounds hold for it too, the pattern lower bounds do not (they read several bits of one report);
`unary_coordinate_epsilon_lower` (one coordinate's count) is a lower bound for both releases.

Lower bound (replace-one): the pattern projection of `shuffle_spec.reference.lower_bounds.structured`: every report
is mapped to its three bits at coordinates (x, x', z): the 3 x 8 pattern randomizer, rows
P_w(b) = prod_j (p if j = w else q)^{b_j} (1 - ...)^{1 - b_j}. d = 2: the full 2 x 4 matrix.

Rounding: eps0 enters through e^eps0 (OUE) or e^(eps0/2) (RAPPOR), irrational; the upper bound is computed for
the mechanism at a rational e' >= the true value and the lower bound at a rational e' <= it (`exp_bracket`).
Both are sound because the mechanism at a smaller e is a post-processing (one fixed channel per bit, applied to
every report) of the mechanism at a larger e: RAPPOR, a further binary symmetric flip with probability t
(flip probabilities a and t compose to a(1-t) + (1-a)t, every value in [a, 1/2]); OUE from q to q' in [q, 1/2],
the bit channel Pr[1 | 1] = (1 - q - q') / (1 - 2q), Pr[1 | 0] = 1 - Pr[1 | 1] (maps Bern(1/2) to Bern(1/2) and
Bern(q) to Bern(q')). So the central epsilon is non-decreasing in e, and a bound at e' bounds the truth at e.

Ranges: eps0 in [1e-12, 40] (replace-one LDP level), d an integer in [2, 1e9] (nothing depends on d for d >= 3),
n in [1, 1e8], delta in [1e-300, 1). Neighbouring relation: replace-one unless the function says deletion.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

from ..core.errors import ParameterError
from ..core.results import NO_AMPLIFICATION, BoundValue
from ..lower_bounds.randomizer import best_randomizer_pair
from ..lower_bounds.structured import pattern_pair_epsilon, pattern_roles_epsilon
from .common import check_domain, check_randomizer_inputs, eps0_rounded_up
from .structured import BlanketPair, blanket_pair, exp_bracket, structured_blanket_epsilon

__all__ = [
    "UnaryEncoding",
    "symmetric_rappor",
    "optimized_unary_encoding",
    "unary_epsilon_upper",
    "unary_epsilon_lower",
    "unary_coordinate_epsilon_lower",
    "symmetric_rappor_sum_epsilon",
    "symmetric_rappor_epsilon_upper",
    "symmetric_rappor_epsilon_lower",
    "oue_epsilon_upper",
    "oue_epsilon_lower",
    "symmetric_rappor_deletion_epsilon_upper",
    "symmetric_rappor_deletion_epsilon_lower",
    "STATEMENTS",
]

STATEMENTS = {
    "upper": "BBGN19.Lem5.3.exact_unary",
    "lower": "exact.unary_pattern_pair",
}
MAX_FULL_D = 6  # the full matrix (2^d outputs) is built only for small d (exact checks)


@dataclass(frozen=True)
class UnaryEncoding:
    """A unary encoding with exact parameters: bit j is 1 w.p. p if j = x else q (0 < q < p < 1), d bits."""

    p: Fraction
    q: Fraction
    d: int

    def __post_init__(self) -> None:
        if not (isinstance(self.p, Fraction) and isinstance(self.q, Fraction) and 0 < self.q < self.p < 1):
            raise ParameterError("(p, q)", (str(self.p), str(self.q)), "exact Fractions with 0 < q < p < 1")
        check_domain(self.d)

    def g(self, bit: int) -> Fraction:
        return self.p / self.q if bit else (1 - self.p) / (1 - self.q)

    @property
    def ratio(self) -> Fraction:
        """The exact LDP ratio e^eps0 (replace-one): g(1) / g(0)."""
        return self.g(1) / self.g(0)

    @property
    def deletion_ratio(self) -> Fraction:
        """The exact deletion LDP ratio against the all-zero report law: max(g(1), 1 / g(0))."""
        return max(self.g(1), 1 / self.g(0))

    def _bit(self, b: int, hot: bool) -> Fraction:
        one = self.p if hot else self.q
        return one if b else 1 - one

    def rows(self) -> list[list[Fraction]]:
        """The full d x 2^d matrix (outputs in itertools.product order); d <= 6."""
        if self.d > MAX_FULL_D:
            raise ParameterError("d", self.d, f"2 <= d <= {MAX_FULL_D} for the full matrix (2^d outputs)")
        out = []
        for x in range(self.d):
            out.append([math.prod((self._bit(y[j], j == x) for j in range(self.d)), start=Fraction(1)) for y in itertools.product((0, 1), repeat=self.d)])
        return out

    def pattern_rows(self) -> list[list[Fraction]]:
        """The projection to the bits at (x, x', z) (module doc): 3 x 8; the full 2 x 4 matrix when d = 2."""
        if self.d == 2:
            return self.rows()
        return [[math.prod((self._bit(b[j], j == w) for j in range(3)), start=Fraction(1)) for b in itertools.product((0, 1), repeat=3)] for w in range(3)]

    def replace_pairs(self) -> list[BlanketPair]:
        """The blanket pair of every ordered replace-one pair (module doc)."""
        b = {1: self.q, 0: 1 - self.q}
        groups = [(self.g(i), self.g(j), b[i] * b[j]) for i in (1, 0) for j in (1, 0)]
        return [blanket_pair(self.g(0), groups)]

    def deletion_pairs(self) -> list[BlanketPair]:
        """The blanket pairs (x, R) and (R, x) of the deletion relation (module doc)."""
        b = {1: self.q, 0: 1 - self.q}
        one = Fraction(1)
        return [blanket_pair(self.g(0), [(self.g(i), one, b[i]) for i in (1, 0)]), blanket_pair(self.g(0), [(one, self.g(i), b[i]) for i in (1, 0)])]


def _side(side: str) -> int:
    if side not in ("upper", "lower"):
        raise ParameterError("side", side, "'upper' (parameters rounded up) or 'lower' (rounded down)")
    return 1 if side == "upper" else 0


def symmetric_rappor(eps0: float, d: int, *, side: str = "upper") -> UnaryEncoding:
    """Symmetric RAPPOR / SUE at replace-one level eps0 (EPK14; WBLJ17 Section 4.3): p = h/(h+1), q = 1/(h+1),
    h = e^(eps0/2) rounded to an exact rational on `side` (module doc). Range: eps0 in [1e-12, 40], d in [2, 1e9]."""
    check_randomizer_inputs(eps0, 1, 0.5)
    h = exp_bracket(eps0 / 2)[_side(side)]
    return UnaryEncoding(h / (h + 1), 1 / (h + 1), check_domain(d))


def optimized_unary_encoding(eps0: float, d: int, *, side: str = "upper") -> UnaryEncoding:
    """OUE at level eps0 (WBLJ17 Section 4.3): p = 1/2, q = 1/(e^eps0 + 1), e^eps0 rounded to an exact rational on
    `side` (module doc). Range: eps0 in [1e-12, 40], d in [2, 1e9]."""
    check_randomizer_inputs(eps0, 1, 0.5)
    e0 = exp_bracket(eps0)[_side(side)]
    return UnaryEncoding(Fraction(1, 2), 1 / (e0 + 1), check_domain(d))


def _eps0_of(ratio: Fraction) -> float:
    return eps0_rounded_up(ratio) if ratio < 2**1000 else math.inf


def unary_epsilon_upper(encoding: UnaryEncoding, *, n: int, delta: float, relation: str = "replace-one", tight: str = "upper") -> BoundValue:
    """BBGN19.Lem5.3.exact_unary: the certified upper bound on the central eps of n shuffled reports of
    the exact unary encoding (BBGN19 Lemma 5.3 with the closed-form decomposition of the module doc), under
    `relation` ("replace-one" or "deletion"). `tight` = "upper" (default) or "both": see `structured.structured_blanket_epsilon` (both ends narrowed, for audits). Range: n in [1, 1e8], delta in [1e-300, 1)."""
    if not isinstance(encoding, UnaryEncoding):
        raise ParameterError("encoding", repr(encoding)[:40], "a UnaryEncoding")
    if relation not in ("replace-one", "deletion"):
        raise ParameterError("relation", relation, "'replace-one' or 'deletion'")
    check_randomizer_inputs(1.0, n, delta)
    ratio = encoding.ratio if relation == "replace-one" else encoding.deletion_ratio
    pairs = encoding.replace_pairs() if relation == "replace-one" else encoding.deletion_pairs()
    # The solver's eps0 must be at least log ratio: the float log rounded up by one ulp (math.log is within 1 ulp).
    eps0 = math.nextafter(_eps0_of(ratio), math.inf)
    return structured_blanket_epsilon(pairs, n=n, delta=delta, eps0=eps0, tight=tight)


def unary_epsilon_lower(encoding: UnaryEncoding, *, n: int, delta: float, relation: str = "replace-one") -> BoundValue:
    """exact.unary_pattern_pair: a certified lower bound (the interval's lower end) on the central
    eps of n shuffled reports of the exact unary encoding under `relation` (module doc: the pattern projection
    for replace-one, the bit-x projection for deletion). Range: n in [1, 1e8], delta in [1e-300, 1)."""
    if not isinstance(encoding, UnaryEncoding):
        raise ParameterError("encoding", repr(encoding)[:40], "a UnaryEncoding")
    if relation not in ("replace-one", "deletion"):
        raise ParameterError("relation", relation, "'replace-one' or 'deletion'")
    check_randomizer_inputs(1.0, n, delta)
    if relation == "deletion":
        # Bits (x, z) of the reports; rows: input x, the all-zero reference R, input z. Neighbours: x vs R (both
        # directions); the others hold a real input (x or z), never R.
        bit = encoding._bit
        patterns = list(itertools.product((0, 1), repeat=2))
        rows = [[bit(b[0], True) * bit(b[1], False) for b in patterns], [bit(b[0], False) * bit(b[1], False) for b in patterns], [bit(b[0], False) * bit(b[1], True) for b in patterns]]
        roles = [(0, 1, 0), (0, 1, 2), (1, 0, 0), (1, 0, 2)]
        pattern = pattern_roles_epsilon(rows=rows, roles=roles, n=n, delta=delta, labels=["x", "the all-zero reference", "z"])
        coordinate = unary_coordinate_epsilon_lower(encoding, n=n, delta=delta)
        return pattern if pattern.lower >= coordinate.lower else coordinate
    labels = ["x", "x'"] if encoding.d == 2 else ["x", "x'", "z"]
    return pattern_pair_epsilon(rows=encoding.pattern_rows(), n=n, delta=delta, labels=labels)


def unary_coordinate_epsilon_lower(encoding: UnaryEncoding, *, n: int, delta: float) -> BoundValue:
    """exact.unary_pattern_pair, one coordinate: a certified lower bound on the central eps when the analyst sees
    only the count of ones at coordinate x (user 1's bit x is Bern(p) at input x and Bern(q) at x' or at the
    all-zero reference; every other user's is Bern(p) or Bern(q)): shuffled binary randomized response. That
    count is a post-processing of the shuffled reports AND of the per-coordinate sums a secure-aggregation
    deployment releases, so this lower bound holds for both releases, under replace-one and deletion.
    Range: n in [1, 1e8], delta in [1e-300, 1)."""
    if not isinstance(encoding, UnaryEncoding):
        raise ParameterError("encoding", repr(encoding)[:40], "a UnaryEncoding")
    check_randomizer_inputs(1.0, n, delta)
    rows = [[encoding.p, 1 - encoding.p], [encoding.q, 1 - encoding.q]]
    value, _ = best_randomizer_pair(matrix=rows, n=n, delta=delta)
    note = "the certified lower bound is the interval's lower end; pair: user 1's bit x from input x vs not, only the count of ones at x observed"
    return BoundValue(value.lower, value.upper, note, direction="lower_bound")


def symmetric_rappor_sum_epsilon(*, eps0: float, n: int, delta: float, relation: str = "deletion") -> BoundValue:
    """The central eps of symmetric RAPPOR when only the per-coordinate sums of the n reports are released (a
    secure-aggregation deployment such as the IETF draft's DAP), at replace-one level eps0 (per-bit eps0/2).
    - relation "deletion" (user 1's report from input x vs from the all-zero reference): only coordinate x
      changes, and its sum is the number of ones of n binary randomized responses at eps0/2 (user 1's bit 1 vs 0,
      every other user's bit its own input's): EXACTLY shuffled binary RR (`exact.shuffled_binary_rr`, certified
      worst case over the others' bits); returned with direction "exact".
    - relation "replace-one": x vs x' is two deletion steps (x -> reference -> x'), so group privacy gives
      (2 eps_1, delta' (1 + e^eps_1)) with eps_1 the deletion eps at delta' = delta / (1 + e^eps_a), eps_a the
      deletion eps at delta / (1 + e^(eps0/2)) (eps_1 <= eps_a, so delta' (1 + e^eps_1) <= delta): an upper
      bound, direction "upper_bound"; its lower end is the one-coordinate value (coordinate x alone).
    Range: eps0 in [1e-12, 40], n in [1, 1e8], delta in [1e-300, 1)."""
    check_randomizer_inputs(eps0, n, delta)
    if relation not in ("replace-one", "deletion"):
        raise ParameterError("relation", relation, "'replace-one' or 'deletion'")
    from ..exact.binary_rr import shuffled_binary_rr  # here, not at the top: it loads SciPy, which the other mechanisms never need

    per_bit = eps0 / 2
    one = shuffled_binary_rr(eps0=per_bit, n=n, delta=delta)
    if relation == "deletion":
        return one
    first = shuffled_binary_rr(eps0=per_bit, n=n, delta=delta / (1 + math.exp(per_bit) * (1 + 1e-12)))
    second = shuffled_binary_rr(eps0=per_bit, n=n, delta=delta / (1 + math.exp(first.upper) * (1 + 1e-12)))
    upper = min(2 * second.upper * (1 + 2**-50), eps0)
    return BoundValue(min(one.lower, upper), upper, "group privacy over two deletion steps; lower end: one coordinate alone", direction="upper_bound")


def _capped(value: BoundValue, eps0: float) -> BoundValue:
    """An upper bound never above the mechanism's eps0 (every eps0-LDP randomizer is eps0-DP after shuffling:
    EFMRTT19, the post-processing remark before Thm 7); the rounded-up parameter's eps0 is a hair above it."""
    if value.upper >= eps0:
        return BoundValue(min(value.lower, eps0), eps0, NO_AMPLIFICATION, direction="upper_bound")
    return value


def symmetric_rappor_epsilon_upper(*, eps0: float, n: int, delta: float, d: int, tight: str = "upper") -> BoundValue:
    """BBGN19.Lem5.3.exact_unary for symmetric RAPPOR / SUE at replace-one level eps0 (module doc):
    certified upper bound on the central eps, replace-one. `tight` = "upper" (default) or "both": see `structured.structured_blanket_epsilon` (both ends narrowed, for audits). Range: eps0 in [1e-12, 40], n in
    [1, 1e8], delta in [1e-300, 1), d in [2, 1e9]."""
    check_randomizer_inputs(eps0, n, delta)
    return _capped(unary_epsilon_upper(symmetric_rappor(eps0, d, side="upper"), n=n, delta=delta, tight=tight), eps0)


def symmetric_rappor_epsilon_lower(*, eps0: float, n: int, delta: float, d: int) -> BoundValue:
    """exact.unary_pattern_pair for symmetric RAPPOR / SUE (module doc): certified lower bound on
    the central eps, replace-one. Range: as symmetric_rappor_epsilon_upper."""
    check_randomizer_inputs(eps0, n, delta)
    return unary_epsilon_lower(symmetric_rappor(eps0, d, side="lower"), n=n, delta=delta)


def oue_epsilon_upper(*, eps0: float, n: int, delta: float, d: int, tight: str = "upper") -> BoundValue:
    """BBGN19.Lem5.3.exact_unary for OUE at level eps0 (module doc): certified upper bound on the central
    eps, replace-one. `tight` = "upper" (default) or "both": see `structured.structured_blanket_epsilon` (both ends narrowed, for audits). Range: eps0 in [1e-12, 40], n in [1, 1e8], delta in [1e-300, 1), d in
    [2, 1e9]."""
    check_randomizer_inputs(eps0, n, delta)
    return _capped(unary_epsilon_upper(optimized_unary_encoding(eps0, d, side="upper"), n=n, delta=delta, tight=tight), eps0)


def oue_epsilon_lower(*, eps0: float, n: int, delta: float, d: int) -> BoundValue:
    """exact.unary_pattern_pair for OUE (module doc): certified lower bound on the central eps,
    replace-one. Range: as oue_epsilon_upper."""
    check_randomizer_inputs(eps0, n, delta)
    return unary_epsilon_lower(optimized_unary_encoding(eps0, d, side="lower"), n=n, delta=delta)


def symmetric_rappor_deletion_epsilon_upper(*, eps0: float, n: int, delta: float, d: int) -> BoundValue:
    """BBGN19.Lem5.3.exact_unary, deletion relation (module doc: user 1's report drawn from its input vs
    from the all-zero reference), for symmetric RAPPOR at replace-one level eps0 (per-bit level eps0/2, the IETF
    draft's EPSILON_0): certified upper bound. Range: as symmetric_rappor_epsilon_upper."""
    check_randomizer_inputs(eps0, n, delta)
    return _capped(unary_epsilon_upper(symmetric_rappor(eps0, d, side="upper"), n=n, delta=delta, relation="deletion"), eps0 / 2)


def symmetric_rappor_deletion_epsilon_lower(*, eps0: float, n: int, delta: float, d: int) -> BoundValue:
    """exact.unary_pattern_pair, deletion relation (module doc), for symmetric RAPPOR at replace-one
    level eps0: certified lower bound. Range: as symmetric_rappor_epsilon_upper."""
    check_randomizer_inputs(eps0, n, delta)
    return unary_epsilon_lower(symmetric_rappor(eps0, d, side="lower"), n=n, delta=delta, relation="deletion")
