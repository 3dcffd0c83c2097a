"""The piecewise mechanism for a real value in [-1, 1], first-class and certified after shuffling.

The mechanism (Wang, Xiao, Yang, Zhao, Hui, Shin, Shin, Yu, "Collecting and analyzing multidimensional data with
local differential privacy", ICDE 2019, Section III-B, Algorithm 2 and the density of t* stated there): with
h = e^(eps0/2) and e0 = e^eps0 = h^2, an input t in [-1, 1] is reported as t* in [-C, C], C = (h + 1)/(h - 1),
with density

    p        on [l(t), r(t)],   l(t) = (C + 1)/2 t - (C - 1)/2,  r(t) = l(t) + C - 1,
    p / e0   on [-C, l(t)) and (r(t), C],                            p = (e0 - h)/(2 h + 2) = h (h - 1)/(2 (h + 1)).

The centre piece has probability p (C - 1) = h/(h + 1) (Algorithm 2's coin). The LDP ratio is p / (p / e0) = e0
(replace-one: any two inputs). Proof checks: proofs_checks/derived/piecewise.py.

Blanket decomposition (proof). The pieces of t = -1 and t = 1 are [-C, -1] and [1, C]: disjoint, so every output
lies outside some input's piece and inf_t density(t, y) = p / e0 on all of [-C, C]. So omega = uniform on [-C, C]
and gamma = 2 C p / e0 = 1/h (BBGN19 Lemma 5.1's blanket, in closed form), and mu_t = omega h on t's piece,
omega / h elsewhere. For the ordered pair (t, t') = (-1, 1) the ratios (alpha, beta) = (mu_t/omega, mu_t'/omega)
take three values (BBGN19 Lemma 5.3 evaluated exactly, the route of `shuffle_spec.reference.randomizers.structured`
with at most 3 coefficients: the exact lattice sums):

    (h, 1/h) on [-C, -1]  (omega-probability 1/(h+1)),   (1/h, 1/h) on (-1, 1)  ((h-1)/(h+1)),
    (1/h, h) on [1, C]    (1/(h+1)).

Worst pair (proof). For any (t, t') the two pieces have equal length; with m the omega-mass of t's piece outside
t''s, L = alpha - e beta takes h - e/h and 1/h - e h with mass m each, h (1 - e) on the overlap, (1 - e)/h
elsewhere. Raising m (the pair (-1, 1) has the largest, the pieces disjoint) moves equal masses from the two
middle values h (1 - e) and (1 - e)/h to the two outer ones with the same sum: a mean-preserving spread, so
L^(t,t') <=_cx L^(-1,1) and Lemma 5.3's E[(sum of i.i.d. copies)_+] is largest for (-1, 1) (and (1, -1), its mirror).

Rounding h (proof). h is irrational; the upper bound is computed at a rational h' >= h. With Z = h B L (B the
blanket coin; Lemma 5.3's delta is (1/n) E[(Z_1 + ... + Z_n)_+]) Z takes e0 - e, 1 - e, 1 - e e0 with
probabilities 1/(h(h+1)), (h-1)/(h(h+1)), 1/(h(h+1)) and 0 otherwise, mean 1 - e for every h; its stop-loss
transform E[(Z - s)_+] is non-decreasing in h for every s and every e >= 1 (each piece's derivative has a numerator
h^2 + 2 a h + a with a > 0: proof check), so Z(h) <=_cx Z(h') and the bound at h' is >= the bound at h.

Lower bound (explicit neighbouring datasets). User 1 holds -1 vs 1, the n - 1 others hold 0 (every other
assignment of the three roles to -1, 1, 0 is tried too: each is a neighbouring pair). Every report is
coarsened to the cell of (-inf, -tau), [-tau, tau], (tau, inf) it falls in, tau = max(1, (C - 1)/2) (a fixed
function of each report: a post-processing of the shuffled output). The cell laws are, exactly,

    input -1: (s + kappa, 1 - 2 s - kappa, s),  input 0: (s, 1 - 2 s, s),  input 1: (s, 1 - 2 s - kappa, s + kappa),
    h >= 2 (tau = 1):           s = 1/(h (h + 1)),  kappa = (h - 1)/h,
    h <= 2 (tau = (C - 1)/2):   s = 1/(2 (h + 1)),  kappa = (h - 1)/2,

and a further post-processing, shared by all three inputs (with probability t replace the cell by one drawn from a
fixed law pi), turns them into the same form with rational (s', kappa'), kappa' = (1 - t) kappa slightly below
kappa (`partition_rows`: each inequality is checked in exact rationals from a bracket of h). The pair's
epsilon of this 3 x 3 randomizer is computed by exact.randomizer_pair (certified lattice sums; its lower end is
reported): a lower bound on the central epsilon. The cells adapt to tau so that the centre cell contains the
others' piece: the cell laws are those of 3-ary randomized response with ratio e0 between the outer cells.
When h < 2 a second coarsening is tried as well: inputs -1 and 1 only (the others hold -1 or 1), cells cut at
+-1, whose laws are the h >= 2 formulas' rows -1 and 1 at every h (the piece of -1 is [-C, -1] exactly); the
larger of the two certified lower ends is reported (each is a lower bound).

Ranges: eps0 in [1e-12, 40], n in [1, 1e8], delta in [1e-300, 1). No domain size (real inputs in [-1, 1]).
Neighbouring relation: replace-one.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import mpmath

from ..core.errors import ParameterError
from ..core.results import BoundValue
from ..lower_bounds.piecewise import partition_pair_epsilon
from .common import cap_at_eps0, check_randomizer_inputs, eps0_rounded_up
from .structured import BlanketPair, blanket_pair, check_tight, exp_bracket, structured_blanket_epsilon

__all__ = [
    "PiecewiseMechanism",
    "piecewise_mechanism",
    "partition_rows",
    "cell_parameters",
    "piecewise_epsilon_upper",
    "piecewise_epsilon_lower",
    "STATEMENTS",
]

STATEMENTS = {"upper": "BBGN19.Lem5.3.exact_piecewise", "lower": "exact.piecewise_partition_pair"}
# kappa' = kappa(h_lo) (1 - SHRINK): the mixing probability t of the rounding channel is about SHRINK, far above
# the width of the 40-digit bracket of h, and far below what moves an epsilon (relative change ~ SHRINK).
SHRINK = Fraction(1, 2**30)


@dataclass(frozen=True)
class PiecewiseMechanism:
    """The piecewise mechanism with an exact parameter h = e^(eps0/2) > 1 (module doc)."""

    h: Fraction

    def __post_init__(self) -> None:
        if not isinstance(self.h, Fraction) or self.h <= 1:
            raise ParameterError("h", str(self.h), "an exact Fraction > 1 (e^(eps0/2))")

    @property
    def e0(self) -> Fraction:
        """The LDP ratio e^eps0 = h^2."""
        return self.h * self.h

    @property
    def c(self) -> Fraction:
        """The output range [-C, C], C = (h + 1)/(h - 1)."""
        return (self.h + 1) / (self.h - 1)

    @property
    def p(self) -> Fraction:
        """The density on the input's piece, (e0 - h)/(2 h + 2)."""
        return (self.e0 - self.h) / (2 * self.h + 2)

    def piece(self, t: Fraction) -> tuple[Fraction, Fraction]:
        """[l(t), r(t)] for an input t in [-1, 1] (exact)."""
        t = _check_input(t)
        left = (self.c + 1) / 2 * t - (self.c - 1) / 2
        return left, left + self.c - 1

    def density(self, t: Fraction, y: Fraction) -> Fraction:
        """The density of the report y given the input t (0 outside [-C, C])."""
        left, right = self.piece(t)
        if not -self.c <= y <= self.c:
            return Fraction(0)
        return self.p if left <= y <= right else self.p / self.e0

    def cell_probabilities(self, t: Fraction, cuts: list[Fraction]) -> list[Fraction]:
        """The exact probabilities of the cells [-C, c_1), [c_1, c_2), ..., [c_k, C] of the report of t (cuts
        strictly increasing inside (-C, C)): the integral of a piecewise-constant density."""
        bounds = [-self.c, *cuts, self.c]
        if any(not isinstance(b, Fraction) for b in cuts) or any(a >= b for a, b in zip(bounds, bounds[1:], strict=False)):
            raise ParameterError("cuts", [str(c) for c in cuts], f"increasing Fractions strictly inside (-C, C), C = {self.c}")
        left, right = self.piece(t)
        out = []
        for a, b in zip(bounds, bounds[1:], strict=False):
            inside = max(Fraction(0), min(b, right) - max(a, left))
            out.append(self.p * inside + self.p / self.e0 * (b - a - inside))
        return out

    def replace_pairs(self) -> list[BlanketPair]:
        """The worst pair (-1, 1) (its mirror has the same law of L): gamma = 1/h, three groups (module doc)."""
        h = self.h
        return [blanket_pair(1 / h, [(h, 1 / h, 1 / (h + 1)), (1 / h, 1 / h, (h - 1) / (h + 1)), (1 / h, h, 1 / (h + 1))])]


def _check_input(t: object) -> Fraction:
    if not isinstance(t, Fraction) or not -1 <= t <= 1:
        raise ParameterError("t", str(t), "an exact Fraction in [-1, 1] (the input)")
    return t


def piecewise_mechanism(eps0: float, *, side: str = "upper") -> PiecewiseMechanism:
    """The piecewise mechanism at eps0 with h = e^(eps0/2) rounded to an exact rational on `side` ("upper": >= h,
    the safe side of the upper bound, module doc; "lower": <= h). Range: eps0 in [1e-12, 40]."""
    check_randomizer_inputs(eps0, 1, 0.5)
    if side not in ("upper", "lower"):
        raise ParameterError("side", side, "'upper' or 'lower'")
    return PiecewiseMechanism(exp_bracket(eps0 / 2)[1 if side == "upper" else 0])


def _half_exp_bracket(eps0: float) -> tuple[Fraction, Fraction]:
    """Exact rationals lo <= e^(eps0/2) <= hi, 1e-50 apart relatively (mpmath at 60 digits, widened by 1e-50): a
    narrower bracket than `exp_bracket`'s (4 ulps of a double) so that only an e^(eps0/2) within 1e-49 of 2 leaves
    the cells' regime undecided (none does: ln 2 is irrational and no double is that close to it)."""
    with mpmath.workdps(60):
        value = mpmath.exp(mpmath.mpf(eps0) / 2)
        lo, hi = value * (1 - mpmath.mpf(10) ** -50), value * (1 + mpmath.mpf(10) ** -50)
        return _fraction(lo), _fraction(hi)


def _fraction(x: mpmath.mpf) -> Fraction:
    mantissa, exponent = x.man_exp
    return Fraction(int(mantissa)) * Fraction(2) ** int(exponent)


def cell_parameters(h: Fraction, wide: bool) -> tuple[Fraction, Fraction]:
    """(s, kappa) of the coarsened cell laws at an exact h > 1 (module doc); `wide`: the h <= 2 cells (cut at
    +-(C - 1)/2), else the h >= 2 cells (cut at +-1)."""
    if not isinstance(h, Fraction) or h <= 1:
        raise ParameterError("h", str(h), "an exact Fraction > 1 (e^(eps0/2))")
    if wide:
        return 1 / (2 * (h + 1)), (h - 1) / 2
    return 1 / (h * (h + 1)), (h - 1) / h


def partition_rows(eps0: float, *, cells: str = "adaptive") -> list[list[Fraction]]:
    """The rows of the coarsened piecewise mechanism at eps0 after the rounding channel (module doc): exact
    Fractions, each a post-processing of the true cell laws, every inequality that makes the channel a channel
    checked exactly. cells = "adaptive": inputs -1, 1, 0, cells cut at +-tau; "unit": inputs -1, 1 only, cells cut
    at +-1 (the h >= 2 formulas hold for these two rows at every h). Range: eps0 in [1e-12, 40]."""
    check_randomizer_inputs(eps0, 1, 0.5)
    if cells not in ("adaptive", "unit"):
        raise ParameterError("cells", cells, "'adaptive' or 'unit'")
    h_lo, h_hi = _half_exp_bracket(eps0)
    if cells == "unit" or h_lo >= 2:
        wide = False
    elif h_hi <= 2:
        wide = True
    else:  # e^(eps0/2) = 2 to 49 digits: not a double's exponential (log 4 is irrational)
        raise ParameterError("eps0", eps0, "eps0 not within 1e-49 of log 4 (the cells change there)")
    s_lo_h, kappa_lo_h = cell_parameters(h_lo, wide)  # s is decreasing and kappa increasing in h: these bound s above, kappa below
    s_hi_h, kappa_hi_h = cell_parameters(h_hi, wide)
    kappa2 = kappa_lo_h * (1 - SHRINK)
    t_lo = 1 - kappa2 / kappa_lo_h  # t = 1 - kappa2 / kappa(h) >= t_lo
    scaled_s_hi = kappa2 * s_lo_h / kappa_lo_h  # (1 - t) s(h) = kappa2 s(h)/kappa(h), decreasing in h
    scaled_s_lo = kappa2 * s_hi_h / kappa_hi_h
    s2 = scaled_s_hi + t_lo / 4
    # The channel's masses: t pi_outer = s2 - (1 - t) s >= t_lo/4 > 0 and t pi_centre = t - 2 (s2 - (1 - t) s).
    if not (t_lo > 0 and t_lo - 2 * (s2 - scaled_s_lo) > 0 and 1 - 2 * s2 - kappa2 > 0):
        raise ParameterError("eps0", eps0, "a value whose rounding channel is a channel (check failed)")
    outer, centre = s2 + kappa2, 1 - 2 * s2 - kappa2
    rows = [[outer, centre, s2], [s2, centre, outer]]
    return rows if cells == "unit" else rows + [[s2, 1 - 2 * s2, s2]]


# The upper bound's three-group lattice sums (one per blanket size, rebuilt at each eps of the search) grow with
# log(1/delta): at eps0 = 1, n = 1e4 about 6 s at delta = 1e-12, 49 s at 1e-100 and more than 6 minutes at 1e-300 on the
# shared 2-core machine. Below this delta the bound is refused rather than left to run.
UPPER_DELTA_MIN = 1e-100


def piecewise_epsilon_upper(*, eps0: float, n: int, delta: float, tight: str = "upper") -> BoundValue:
    """BBGN19.Lem5.3.exact_piecewise: certified upper bound on the central eps of n shuffled reports of the
    piecewise mechanism at eps0 (module doc: the blanket gamma = e^(-eps0/2), the worst pair (-1, 1), h rounded up),
    replace-one; at most eps0. `tight` = "upper" (default) or "both": see `structured.structured_blanket_epsilon` (both ends narrowed, for audits).
    Range: eps0 in [1e-12, 40], n in [1, 1e8], delta in [1e-100, 1) (UPPER_DELTA_MIN)."""
    check_randomizer_inputs(eps0, n, delta)
    check_tight(tight)
    if delta < UPPER_DELTA_MIN:
        raise ParameterError("delta", delta, f"{UPPER_DELTA_MIN:g} <= delta < 1 (the piecewise upper bound's lattice sums take minutes below)")
    mechanism = piecewise_mechanism(eps0)
    value = structured_blanket_epsilon(mechanism.replace_pairs(), n=n, delta=delta, eps0=eps0_rounded_up(mechanism.e0), tight=tight)
    return cap_at_eps0(value, eps0)


def piecewise_epsilon_lower(*, eps0: float, n: int, delta: float) -> BoundValue:
    """exact.piecewise_partition_pair: certified lower bound (the interval's lower end) on the central eps of n
    shuffled reports of the piecewise mechanism at eps0: user 1 at -1 vs 1 (or another ordered pair of -1, 1, 0),
    the others at the third input or at -1 or 1, reports coarsened to three cells (module doc), replace-one; when
    e^(eps0/2) < 2 also the coarsening with cells at +-1 and inputs -1, 1 only, the larger certified lower end
    reported. Range: as piecewise_epsilon_upper."""
    check_randomizer_inputs(eps0, n, delta)
    best = partition_pair_epsilon(rows=partition_rows(eps0), n=n, delta=delta)
    if _half_exp_bracket(eps0)[0] < 2:  # below, the adaptive cells differ from the unit cells: try both
        unit = partition_pair_epsilon(rows=partition_rows(eps0, cells="unit"), n=n, delta=delta)
        if unit.lower > best.lower:
            best = BoundValue(unit.lower, unit.upper, unit.note + "; cells cut at -1 and 1", direction="lower_bound")
    return best
