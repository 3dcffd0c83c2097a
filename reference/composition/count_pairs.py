"""Explicit neighbouring pairs of a shuffled randomizer whose reports are merged into m = 2 or 3 bins, as
OPTIMISTIC grid privacy-loss distributions: the building block of the composed LOWER bounds of Laplace, finite
matrices and the structured randomizers (`laplace_pairs`, `finite_pairs`, composed by `explicit_pairs`).

The pair (replace-one relation): user 1 holds x in D and x' in D', the other n - 1 users all hold z; every report
is mapped by one fixed function to one of m bins, and the analyzer is given the histogram h of the n bins. With
a = mu_x, b = mu_x', c = mu_z the bin laws (every c_y > 0) and W = Mult(n; c), the multinomial shift
(proofs_checks/derived/blanket_exact_krr.py) gives

    P_x(h) = W(h) g_x(h) / n,   g_x(h) = sum_y (a_y / c_y) h_y   (and P_x' with b),

so the loss of "x vs x'" at h is log g_x(h) - log g_x'(h), with mass W(h) g_x(h) / n; of "x' vs x" the negated
loss with mass W(h) g_x'(h) / n. Mapping every report by one fixed function before shuffling is a
post-processing of the shuffled output (the multiset of bins is a function of the multiset of reports): the
binned pair's delta(eps), after any number of rounds, is at most the unbinned pair's, at most the worst case's.
So the certified lower end of a composition of these laws is a lower bound on the composed worst case.

Certified lower ends: the bin probabilities and the coefficients a_y / c_y are exact rational enclosures
(`CountPair`; a mechanism with irrational probabilities, Laplace, gives interval enclosures).
- m = 3: the trinomial law of `krr_pairs` (`trinomial_pair_grids`: interval anchor, certified recurrences, losses
  rounded down, lower ends of the masses, cells outside mean +- 9 sd dropped). The bins are ordered so that the
  rarest under z is B, the next A, the most frequent R (the fewest cells).
- m = 2: one count S (bin 1) with W = Bin(n, c_1) on its certified window (`numerics.binomial.certified_window`:
  proven lower ends, tails dropped); g from the exact integer count and float coefficients with proven relative
  errors (positive terms: the coefficients' error plus 3 roundings), libm log with the house margin
  1e-12 (1 + |log g_x| + |log g_x'|); the PairPLD's optimistic discretisation (`PairPLD.discretise`) rounds the
  lower loss ends down and keeps the lower mass ends.
Every step only lowers delta(eps) of any composition (delta is non-decreasing in every mass and loss).

k-RR at large n (`krr_count_pair`): the trinomial pairs of `krr_pairs` need O(n pi_A) x O(n pi_B) cells (about 4e8 at
n = 1e7, k = 10, eps0 = 2; refused beyond their MAX_CELLS). Their two-bin coarsening is one binomial count at any
n <= 1e8: user 1 holds x0 in D and x1 in D', the other n - 1 users hold x1 (or any value other than x0: the bin
laws are the same), every report merged into {x0} and the rest. With e0 = e^eps0, D = e0 + k - 1 the bin laws of
({rest}, {x0}) are ((D - e0)/D, e0/D) under x0 and ((D - 1)/D, 1/D) under every other value (k-RR reports its
input w.p. e0/D, each other value w.p. 1/D). Among all two-bin coarsenings of all k-RR pairs it has the largest
chi-square distance, (e0 - 1)^2/(D - 1) (a bin holding x0 but not x1 has c >= 1/D under the others; more values in
it only raise c and leave the difference e0/D - 1/D): about 0.53 of the trinomial "third" pair's 2 (e0 - 1)^2/D at
k = 10, so its composed epsilon is about 0.73 of that pair's in the Gaussian regime (module doc of `explicit_pairs`).
The probabilities are 100-bit interval enclosures (e0 is irrational).

Written by hand: no library gives the privacy-loss law of a shuffled explicit pair with certified masses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from ..core.errors import ParameterError
from ..core.parameters import check_eps0, check_n
from ..numerics.binomial import UNIT, ProbabilityPair, certified_window, iv_context
from ..numerics.pld import GridPLD, PairPLD
from .enclosures import Enclosure, enclosure_float_with_error, enclosure_interval, fraction_of_end
from .krr_pairs import trinomial_pair_finest_step, trinomial_pair_grids, trinomial_pair_moments

__all__ = ["MAX_CELLS", "CountPair", "count_pair", "count_pair_from_intervals", "krr_count_pair", "count_pair_chi_square", "count_pair_finest_step", "count_pair_moments", "count_pair_grids", "WINDOW_TAIL"]

# Tail mass of Bin(n, c_1) dropped on each side in the two-bin case (a lower bound loses at most it).
WINDOW_TAIL = 1e-30
# Cells of a three-bin pair at most (its counts' windows, estimated before any work: about a second of numpy work);
# beyond, the three-bin candidate is refused (ParameterError) and the two-bin ones (one count) serve.
MAX_CELLS = 4 * 10**6


@dataclass(frozen=True)
class CountPair:
    """User 1 at x vs x', the other n - 1 users at z, reports merged into m = len(x) bins (2 or 3): exact
    enclosures (lo, hi) of the bins' probabilities under x, x' and z (every one positive); `eps0` a float >= the
    largest |log(mu_x(y) / mu_x'(y))| (the grids' eps_max); `description` names the pair for notes."""

    x: tuple[Enclosure, ...]
    x2: tuple[Enclosure, ...]
    z: tuple[Enclosure, ...]
    eps0: float
    description: str


def _enclosure(x: Any) -> Enclosure:
    ends = getattr(x, "_mpi_", None)
    if not (isinstance(ends, tuple) and len(ends) == 2):
        raise ParameterError("bin probability", repr(x)[:40], "an mpmath interval (mpf) enclosing the probability")
    return (fraction_of_end(x.a), fraction_of_end(x.b))


def _eps0_up(x: Sequence[Enclosure], x2: Sequence[Enclosure]) -> float:
    """A float >= max_y |log(mu_x(y) / mu_x'(y))| (interval logs, then rounded up)."""
    iv = iv_context()
    top = iv.mpf(0)
    for (a_lo, a_hi), (b_lo, b_hi) in zip(x, x2, strict=True):
        for num, den in ((a_hi, b_lo), (b_hi, a_lo)):
            top = iv.mpf([top.a, max(top.b, iv.log(iv.mpf(num.numerator) / num.denominator / (iv.mpf(den.numerator) / den.denominator)).b)])
    value = float(top.b)
    if value < top.b:
        value = math.nextafter(value, math.inf)
    return max(value, 2.0**-40)


def _check_laws(x: Sequence[Enclosure], x2: Sequence[Enclosure], z: Sequence[Enclosure]) -> None:
    if not (len(x) == len(x2) == len(z) and len(x) in (2, 3)):
        raise ParameterError("bins", len(x), "2 or 3 bins, the same for x, x' and z")
    for e in (*x, *x2, *z):
        if not (isinstance(e, tuple) and len(e) == 2 and all(isinstance(v, Fraction) for v in e) and 0 < e[0] <= e[1] <= 1):
            raise ParameterError("bin probability", repr(e)[:60], "an enclosure (lo, hi) of Fractions with 0 < lo <= hi <= 1")


def count_pair(x: Sequence[Fraction], x2: Sequence[Fraction], z: Sequence[Fraction], description: str) -> CountPair:
    """The CountPair of exact rational bin laws (each a list of 2 or 3 positive Fractions summing to 1; module doc)."""
    laws = []
    for name, law in (("x", x), ("x2", x2), ("z", z)):
        values = [Fraction(v) for v in law]
        if sum(values) != 1:
            raise ParameterError(name, [str(v) for v in values], "bin probabilities summing to 1")
        laws.append(tuple((v, v) for v in values))
    _check_laws(*laws)
    return CountPair(laws[0], laws[1], laws[2], _eps0_up(laws[0], laws[1]), description)


def count_pair_from_intervals(x: Sequence[Any], x2: Sequence[Any], z: Sequence[Any], description: str) -> CountPair:
    """The CountPair of bin laws given as mpmath intervals enclosing the exact probabilities (module doc)."""
    laws = [tuple(_enclosure(v) for v in law) for law in (x, x2, z)]
    _check_laws(*laws)
    return CountPair(laws[0], laws[1], laws[2], _eps0_up(laws[0], laws[1]), description)


@lru_cache(maxsize=32)
def krr_count_pair(*, eps0: float, k: int) -> CountPair:
    """The two-bin k-RR pair of the module doc (user 1 at x0 vs x1, the others at x1, reports merged into the rest
    and {x0}; replace-one), bin probabilities as exact enclosures of 100-bit intervals. Range: 0 < eps0 <= 30,
    2 <= k <= 1e6 (k = 2: binary RR's own pair, the others' bit opposite to user 1's first input)."""
    check_eps0(eps0, maximum=30.0, why="the two-bin k-RR pair")
    if not (isinstance(k, int) and not isinstance(k, bool) and 2 <= k <= 10**6):
        raise ParameterError("k", k, "an integer 2 <= k <= 1e6 (the two-bin k-RR pair)")
    iv = iv_context()
    e0 = iv.exp(iv.mpf(float(eps0)))
    d = e0 + (k - 1)
    x = ((d - e0) / d, e0 / d)
    others = ((d - 1) / d, 1 / d)
    description = f"k-RR pair x0 vs x1, the others at x1, reports merged into {{x0}} and the rest (k = {k})"
    return count_pair_from_intervals(x, others, others, description)


def count_pair_chi_square(pair: CountPair) -> float:
    """sum_y (mu_x(y) - mu_x'(y))^2 / mu_z(y) in floats (uncertified: it ranks candidate pairs only: the loss's
    variance is about this over n). Range: a CountPair."""
    pair, _ = _checked(pair, 1)
    mid = [[float((lo + hi) / 2) for lo, hi in law] for law in (pair.x, pair.x2, pair.z)]
    return float(sum((a - b) ** 2 / c for a, b, c in zip(*mid, strict=True)))


def _ratio(num: Enclosure, den: Enclosure) -> Enclosure:
    return (num[0] / den[1], num[1] / den[0])


def _trinomial_cells(pair: CountPair) -> tuple[Enclosure, ...]:
    """(pi_A, pi_B, pi_R, g_x on (A, B, R), g_x' on (A, B, R)): B the rarest bin under z, R the most frequent."""
    order = sorted(range(3), key=lambda y: pair.z[y][0])
    b, a, r = order
    cells = [pair.z[a], pair.z[b], pair.z[r]]
    for law in (pair.x, pair.x2):
        cells += [_ratio(law[y], pair.z[y]) for y in (a, b, r)]
    return tuple(cells)


@lru_cache(maxsize=16)
def _binomial_plds(pair: CountPair, n: int) -> tuple[PairPLD, PairPLD]:
    """The two-bin pair's PLDs, both directions (module doc)."""
    p_iv, q_iv = enclosure_interval(pair.z[1]), enclosure_interval(pair.z[0])
    (p, p_err), (q, q_err) = enclosure_float_with_error(pair.z[1]), enclosure_float_with_error(pair.z[0])
    window = certified_window(n, ProbabilityPair(p_iv, q_iv, p, q, p_err, q_err), 2 * WINDOW_TAIL)
    s = window.support
    coefficients = [[enclosure_float_with_error(_ratio(law[y], pair.z[y])) for y in (0, 1)] for law in (pair.x, pair.x2)]
    rel_g = 1.01 * (max(err for row in coefficients for _, err in row) + 3 * UNIT)
    g = [row[1][0] * s + row[0][0] * (n - s) for row in coefficients]
    logs = [np.log(v) for v in g]
    margin = 2.02 * rel_g + 1e-12 * (1.0 + np.abs(logs[0]) + np.abs(logs[1]))
    loss = logs[0] - logs[1]
    out = []
    for value, weight, label in ((loss, g[0], "x vs x'"), (-loss, g[1], "x' vs x")):
        m_lo = np.where(window.lower > 0, window.lower * weight * (1 - rel_g) * (1 - 4 * UNIT) / n, 0.0)
        m_hi = window.upper * weight * (1 + rel_g) * (1 + 4 * UNIT) / n
        out.append(PairPLD(value - margin, value + margin, m_lo, m_hi, float(window.dropped) * 1.01, 0.0, pair.eps0, f"{pair.description} ({label}), n={n}"))
    return out[0], out[1]


def _checked(pair: object, n: object) -> tuple[CountPair, int]:
    if not isinstance(pair, CountPair):
        raise ParameterError("pair", repr(pair)[:60], "a CountPair (count_pair or count_pair_from_intervals)")
    check_n(n, maximum=10**8, why="the count pair PLDs")
    users: int = int(n)  # type: ignore[call-overload]
    if len(pair.x) == 3:
        # The trinomial windows (mean +- 9 sd of B, then of A given B; `krr_pairs`), estimated from the floats.
        c = sorted(float(lo) for lo, _ in pair.z)
        sd_b = math.sqrt(users * c[0] * (1 - c[0]))
        share = c[1] / (c[1] + c[2])
        sd_a = math.sqrt(users * (1 - c[0]) * share * (1 - share))
        cells = (18 * sd_b + 9) * (18 * sd_a + 9)
        if cells > MAX_CELLS:
            raise ParameterError("n", users, f"a three-bin pair of at most {MAX_CELLS:.0e} cells (here about {cells:.1e}; the two-bin pairs serve larger n)")
    return pair, users


def count_pair_finest_step(pair: CountPair, *, n: int) -> float:
    """The finest grid step `count_pair_grids` serves (it serves its power-of-2 multiples; 0.0: any power of 2).
    Ranges as `count_pair_grids`."""
    pair, n = _checked(pair, n)
    return trinomial_pair_finest_step(cells=_trinomial_cells(pair), n=n) if len(pair.x) == 3 else 0.0


def count_pair_moments(pair: CountPair, *, n: int) -> tuple[float, float]:
    """Float mean and variance of the loss of "x vs x'" (uncertified: grid choice only). Ranges as
    `count_pair_grids`."""
    pair, n = _checked(pair, n)
    if len(pair.x) == 3:
        return trinomial_pair_moments(cells=_trinomial_cells(pair), n=n)
    return _binomial_plds(pair, n)[0].moments()


def count_pair_grids(pair: CountPair, *, n: int, step: float, tail: float) -> tuple[GridPLD, GridPLD]:
    """OPTIMISTIC grid PLDs of "x vs x'" and "x' vs x" of the count pair at n users (module doc, replace-one):
    the delta(eps) of any composition of them is at most the exact one of the same composition of the binned pair,
    hence of the mechanism's worst case. Range: 1 <= n <= 1e8; step a power of 2 (a power-of-2 multiple of
    `count_pair_finest_step` for three bins); 0 <= tail < 1; ParameterError beyond the trinomial cell budget."""
    pair, n = _checked(pair, n)
    if not (isinstance(step, float) and step > 0 and math.log2(step) == int(math.log2(step))):
        raise ParameterError("step", step, "a power of 2")
    if not 0 <= tail < 1:
        raise ParameterError("tail", tail, "0 <= tail < 1")
    if len(pair.x) == 3:
        return trinomial_pair_grids(cells=_trinomial_cells(pair), n=n, step=step, tail=tail, eps0=pair.eps0)
    forward, backward = _binomial_plds(pair, n)
    return forward.discretise(step, False, tail), backward.discretise(step, False, tail)
