"""The variation-ratio reduction of Wang et al. (PVLDB 17(8), 2024, "Privacy amplification via shuffling:
unified, simplified, and tightened"), evaluated exactly in Fractions, to check it against exact shuffled deltas.

The reduction. A randomizer is summarised by parameters (p, beta, q) (their Sec. 4; the repository README of
wangsw/PrivacyAmplification tabulates them for about twenty randomizers, every LDP row with p = q = e^eps0), and
its shuffled delta is claimed to be at most that of a three-symbol "simple" mechanism: with alpha = beta/(p - 1)
and r = alpha p / q,

    user 1 under x0: symbol 0 w.p. p alpha, 1 w.p. alpha, a neutral symbol w.p. 1 - alpha - p alpha
                     (under x1: 0 and 1 swapped),
    users 2..n:      symbol 0 w.p. r, 1 w.p. r, a neutral symbol w.p. 1 - 2 r,

the adversary seeing the counts (h0, h1) of the symbols 0 and 1 (`Delta` in their unifiedamplification module
computes the same divergence with binomial tails). `reduction_delta` computes D_e(P0 || P1) of these counts
exactly (the two directions are mirror images). With p = q = e0 this is the exact delta of k-ary-randomized-
response-like datasets: user 1 at x0 vs x1, every other user at a third input of a 3-output randomizer with rows
(p alpha, alpha, .), (alpha, p alpha, .), (alpha, alpha, .): a LOWER bound-type object, not an upper bound, unless
the reduction's theorem holds for the randomizer.

What this module is for: the tabulated parameters (`tabulated_parameters`) plugged into `reduction_delta` and
compared with the exact shuffled delta of the randomizer by full enumeration (`exact_shuffled_delta` of
`shuffle_spec.reference.finite.shuffling`) at small n: where the reduction is below, the reduction with those parameters is
not an upper bound (tests/reference/finite/test_variation_ratio.py; docs/audits/wang.md). Written by hand: the
simple mechanism's counts are a trinomial sum of O(n^2) exact terms, and their code is read and run, never copied.

Ranges: p > 1, 0 < beta, alpha (1 + p) <= 1, 0 < r <= 1/2, n an integer in [1, 200] (exact Fractions),
e >= 1 an exact Fraction. Neighbouring relation: replace-one (the reduction's).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ..core.errors import ParameterError, require_integer

__all__ = ["ReductionParameters", "tabulated_parameters", "reduction_delta", "reduction_rows", "MAX_N"]

MAX_N = 200


@dataclass(frozen=True)
class ReductionParameters:
    """(p, beta, q) of the variation-ratio reduction, exact (module doc)."""

    p: Fraction
    beta: Fraction
    q: Fraction

    def __post_init__(self) -> None:
        for name in ("p", "beta", "q"):
            if not isinstance(getattr(self, name), Fraction):
                raise ParameterError(name, str(getattr(self, name)), "an exact Fraction")
        if self.p <= 1:
            raise ParameterError("p", str(self.p), "p > 1 (the variation ratio)")
        if self.beta <= 0 or self.alpha * (1 + self.p) > 1:
            raise ParameterError("beta", str(self.beta), f"0 < beta <= (p - 1)/(p + 1) = {(self.p - 1) / (self.p + 1)} (alpha (1 + p) <= 1)")
        if self.q <= 0 or not 0 < self.r <= Fraction(1, 2):
            raise ParameterError("q", str(self.q), f"q with 0 < r = alpha p / q <= 1/2 (here r = {self.alpha * self.p / self.q if self.q > 0 else 'undefined'})")

    @property
    def alpha(self) -> Fraction:
        return self.beta / (self.p - 1)

    @property
    def r(self) -> Fraction:
        return self.alpha * self.p / self.q


def tabulated_parameters(name: str, *, e0: Fraction | None = None, h: Fraction | None = None, d: int | None = None) -> ReductionParameters:
    """The (p, beta, q) of the wangsw/PrivacyAmplification README's LDP table for `name`, at an exact e0 = e^eps0
    (or h = e^(eps0/2) for the rows stated in e^(eps/2); then e0 = h^2):

    - "general" (every eps0-LDP randomizer), "binary_rr", "duchi": beta = (e0 - 1)/(e0 + 1);
    - "krr" (general RR on d options), "local_hash" (length l = d; BLH: d = 2): beta = (e0 - 1)/(e0 + d - 1);
    - "rappor" ("binary RR (RAPPOR) on d options"), from h: beta = (h - 1)/(h + 1);
    - "piecewise", "laplace" (on [0, 1] / [-1, 1]), from h: beta = 1 - 1/h;
    - "oue": NOT in the table; the same recipe (beta = the largest total-variation distance between two inputs'
      report laws, which gives the rows above) gives (e0 - 1)/(2 (e0 + 1)).

    p = q = e0 in every row. Range: e0 > 1 or h > 1 exact Fractions (as the row needs), d an integer >= 2."""
    rows_e0 = {"general", "binary_rr", "duchi", "krr", "local_hash", "oue"}
    rows_h = {"rappor", "piecewise", "laplace"}
    if name not in rows_e0 | rows_h:
        raise ParameterError("name", name, "one of " + ", ".join(sorted(rows_e0 | rows_h)))
    if name in rows_h:
        if not isinstance(h, Fraction) or h <= 1:
            raise ParameterError("h", str(h), f"an exact Fraction > 1 (e^(eps0/2)) for {name}")
        half: Fraction = h
        ratio = half * half
        beta = (half - 1) / (half + 1) if name == "rappor" else 1 - 1 / half
    else:
        if not isinstance(e0, Fraction) or e0 <= 1:
            raise ParameterError("e0", str(e0), f"an exact Fraction > 1 (e^eps0) for {name}")
        ratio = e0
        if name in ("krr", "local_hash"):
            require_integer("d", d, minimum=2)
            beta = (ratio - 1) / (ratio + int(d) - 1)  # type: ignore[arg-type]  # an integer: checked just above
        elif name == "oue":
            beta = (ratio - 1) / (2 * (ratio + 1))
        else:
            beta = (ratio - 1) / (ratio + 1)
    return ReductionParameters(ratio, beta, ratio)


def reduction_rows(parameters: ReductionParameters) -> list[list[Fraction]]:
    """The simple mechanism as a 3 x 3 randomizer (outputs 0, 1, neutral; rows x0, x1 and the others' input)
    when r equals alpha (p = q): its pair (x0 vs x1, the others at the third row) has the reduction's delta."""
    if not isinstance(parameters, ReductionParameters):
        raise ParameterError("parameters", repr(parameters)[:40], "a ReductionParameters")
    a, p, r = parameters.alpha, parameters.p, parameters.r
    return [[p * a, a, 1 - a - p * a], [a, p * a, 1 - a - p * a], [r, r, 1 - 2 * r]]


def reduction_delta(parameters: ReductionParameters, n: int, e: Fraction) -> Fraction:
    """D_e(P0 || P1) of the simple mechanism's counts (h0, h1) with n users (module doc), exact.
    Range: n an integer in [1, 200], e >= 1 an exact Fraction."""
    if not isinstance(parameters, ReductionParameters):
        raise ParameterError("parameters", repr(parameters)[:40], "a ReductionParameters")
    require_integer("n", n, minimum=1)
    if n > MAX_N:
        raise ParameterError("n", n, f"an integer 1 <= n <= {MAX_N} (exact Fractions)")
    if not isinstance(e, Fraction) or e < 1:
        raise ParameterError("e", str(e), "an exact Fraction >= 1 (e^eps)")
    a, p, r = parameters.alpha, parameters.p, parameters.r
    first0 = (p * a, a, 1 - a - p * a)
    first1 = (a, p * a, 1 - a - p * a)
    m = n - 1
    total = Fraction(0)
    # P_b(h0, h1) = sum over user 1's symbol s of first_b[s] * W(h - e_s), W = Mult(m; r, r, 1 - 2r) on (c0, c1).
    def others(c0: int, c1: int) -> Fraction:
        if c0 < 0 or c1 < 0 or c0 + c1 > m:
            return Fraction(0)
        ways = math.factorial(m) // (math.factorial(c0) * math.factorial(c1) * math.factorial(m - c0 - c1))
        return ways * r ** (c0 + c1) * (1 - 2 * r) ** (m - c0 - c1)

    for h0 in range(n + 1):
        for h1 in range(n + 1 - h0):
            weights = (others(h0 - 1, h1), others(h0, h1 - 1), others(h0, h1))
            p0 = sum((f * w for f, w in zip(first0, weights, strict=True)), Fraction(0))
            p1 = sum((f * w for f, w in zip(first1, weights, strict=True)), Fraction(0))
            total += max(Fraction(0), p0 - e * p1)
    return total
