"""A certified lower bound on the central epsilon of the shuffled Laplace mechanism on [0, 1]: the exact
epsilon of an explicit neighbouring pair (exact.laplace_pair_x0).

The pair: user 1 holds 0 vs 1, the other n-1 users all hold 0; each reports x + Lap(1/eps0) (density
mu_x(v) = (eps0/2) e^{-eps0 |v - x|}) and the analyzer sees the multiset of reports. Relative to mu_0^n the
shuffled output has density (1/n) sum_i mu_x(v_i) / mu_0(v_i) (symmetrised over the n positions), so with
R = mu_1(V) / mu_0(V), V ~ mu_0 (checked in proofs_checks/derived/blanket_exact_laplace.py),

    D_{e^eps}(P_0 || P_1) = (1/n) E[(Z_1 + ... + Z_n)_+],   Z = 1 - e^eps R,
    D_{e^eps}(P_1 || P_0) = (1/n) E[(Z'_1 + ... + Z'_n)_+], Z' = R - e^eps,

i.i.d. copies, V ~ mu_0. This is the EXACT divergence of this pair of continuous shuffled outputs (no binning,
no relaxation); its epsilon is at most the worst case's, so it is a LOWER bound on the truth that every valid
upper bound must respect. (Binning the reports at 1/2 is a post-processing giving binary randomized response
with flip probability e^{-eps0/2}/2, a weaker lower bound in general: see `binned_binary_rr_eps0`; the
interval's lower end is the larger of the two, both certified lower bounds on this pair's eps.)

The law of R (C = e^{eps0}): an atom 1/C of mass 1/2 (V <= 0), an atom C of mass 1/(2C) (V >= 1) and in
between Pr[R >= r] = (1/2)(C r)^{-1/2}: R is 1/2 (atom at 1/C) + 1/2 X_C with X_C the law of
`reference.bounds.blanket_exact_laplace` at parameter C (Pr[X_C >= x] = (C x)^{-1/2} on [1/C, C], atom 1/C at C).

Certification: the same lattice machinery as BBGN19.Lem5.3.exact_laplace (module doc there): the lower end
contracts mean-exact groups of Z's law to lattice points (a law dominated by Z in convex order, then moved
down), the upper end spreads every lattice cell to its end points (dominating Z); the n-fold sum by tilted FFT
with Chernoff window tails and the FFT round-off bound. The reported value is the LOWER end of the certified
eps interval of the pair.

The far tail (forward direction, large eps0). Z = 1 - e^eps R reaches 1 - e^eps C (about -e^{2 eps0}) while its
top is z_max = 1 - e^eps / C < 1, so a lattice step chosen from Z's variance (dominated by that tail) cannot resolve
the bulk near z_max (at eps0 = 8, n = 1e3 the step was 8192 for a bulk of width 1, and no eps < eps0 was
certified). But one report with Z_i <= -M, M = (n - 1) z_max, already makes the sum <= 0: with any cut -M' <= -M,

    E[(S)_+] = E[(S)_+ ; every Z_i > -M'] = E[(S')_+],   S' the sum of the copies of max(Z, -M'),

so both ends may work on the truncated law without loss: the lower end keeps only the (defective) law of Z on
(-M', z_max] (dropping mass only lowers E[(S)_+], so this is a lower bound for EVERY cut), the upper end moves the
mass below -M' to -M' (moving mass up only raises it: an upper bound for every cut); the step follows the
truncated law's variance. Exactness needs M' >= M; validity does not.

The search (`laplace_pair_x0_interval`). Up to eps0 = 2 one certified root search evaluates both ends of the pair's
delta at every point it tries (from the normal approximation's root and slope). Beyond, the 30-digit lower groups
dominate the cost (about 0.05 s per group walk forward and 0.8 s backward at eps0 = 8, against a few hundredths
for the spread law), so the search runs in two phases: the upper end from the forward direction's spread law
alone (confirmed at the end point for both directions, searched again on their maximum if the backward one
exceeds delta there), then the lower end by a few evaluations of the lower groups just below it (`_lower_end`).
In `laplace_pair_delta` the backward lower groups are built only when the backward upper end exceeds the forward
lower end (else they cannot raise the maximum: the same interval). The reported ends are evaluated points either
way: the search decides tightness, never validity.

Supported range: eps0 in (0, 8], n in [1, 10^6], delta in [1e-300, 1).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import mpmath
import numpy as np

from ..bounds.blanket_exact_laplace import (
    MASS_MARGIN,
    MIN_EPS0,
    TINY_EPS0,
    check_laplace_inputs,
    laplace_delta_at_edges,
    single_report_epsilon,
    single_report_epsilon_mp,
)
from ..numerics.tilted_lattice import (
    EXP_MARGIN,
    UNIT,
    laplace_x_masses,
    lattice_law,
    lattice_step,
    leftover_groups,
    log_positive_part_expectation,
)
from ..core.errors import ParameterError, require_positive
from ..exact.binary_rr import binary_rr_pair_epsilon
from ..numerics.lattice_sums import search_start
from ..numerics.lower_end import lower_end_search
from ..numerics.solver import solve_certified_epsilon
from ..core.results import BoundValue

__all__ = ["laplace_pair_delta", "laplace_pair_x0_epsilon", "laplace_pair_x0_interval", "laplace_pair_x0_epsilon_mp", "binned_binary_rr_eps0", "DIRECTIONS"]

DIRECTIONS = ("forward", "backward")
EPS_REL_TOL = 1e-3
BISECTION_STEPS = 70
# The pair's root search starts from the normal approximation up to this eps0 (`laplace_pair_x0_interval`).
NORMAL_HINT_MAX_EPS0 = 2.0


@dataclass(frozen=True)
class _PairLaw:
    """Z = alpha + beta X_C on the weight-1/2 half (continuous part and X_C's atom at C), plus the atom of the
    other half; floats for the upper spread, mpmath (30 digits) for the lower groups."""

    alpha: float
    beta: float
    big_c: float
    atom_value: float  # the other half's atom (mass 1/2)

    @property
    def values(self) -> tuple[float, float]:
        """Z at X = 1/C and at X = C."""
        return self.alpha + self.beta / self.big_c, self.alpha + self.beta * self.big_c


def _shift(eps0: float, eps: float, direction: str) -> float:
    """A float at most the heavy atom's exact value (1 - e^eps/C forward, 1/C - e^eps backward) and within a
    few ulps of it: Z - shift has that atom at (or a hair above) the lattice point 0, so that the lower groups
    need not smear it (the sum is then compared with -n shift instead of 0)."""
    with mpmath.workdps(40):
        big_c, e = mpmath.exp(mpmath.mpf(eps0)), mpmath.exp(mpmath.mpf(eps))
        exact = 1 - e / big_c if direction == "forward" else 1 / big_c - e
        value = float(exact)
        if value > exact:
            value = math.nextafter(value, -math.inf)
    return value


def _cluster_shift(eps0: float, eps: float, direction: str, h: float) -> float:
    """The shift that puts the mean of the heavy end of Z's law (the last step [z_max - h, z_max] forward, the
    first [z_min, z_min + h] backward: the heavy atom and the dense mass next to it) on the lattice point 0, up to
    a hair above it (a float at most that mean): the lower groups then contract that cluster in place instead of
    dragging it a step (which would lose a mean of order h per user). It only decides tightness: every shift is
    exact in the sum (the sum is compared with -n shift)."""
    with mpmath.workdps(30):
        law = _Groups(eps0, eps, direction)
        hh = mpmath.mpf(h)
        if direction == "forward":
            z_max = law.atoms[-1][0]
            f0, g0 = law.cumulative(z_max - hh)
            f1, g1 = law.cumulative(z_max)
        else:
            z_min = law.atoms[0][0]
            f0, g0 = mpmath.mpf(0), mpmath.mpf(0)
            f1, g1 = law.cumulative(z_min + hh)
        if not f1 > f0:  # a step too fine for 30 digits: no shift (any shift is exact, this one only tightens)
            return 0.0
        mean = (g1 - g0) / (f1 - f0)
        value = float(mean)
        if value > mean:
            value = math.nextafter(value, -math.inf)
    return value


def _law(eps0: float, eps: float, direction: str, shift: float = 0.0) -> _PairLaw:
    """Z - shift (floats)."""
    big_c, e = math.exp(eps0), math.exp(eps)
    if direction == "forward":  # Z = 1 - e R: the atom 1/C of R gives 1 - e/C (the top of Z's support)
        return _PairLaw(1.0 - shift, -e, big_c, 1 - e / big_c - shift)
    return _PairLaw(-e - shift, 1.0, big_c, 1 / big_c - e - shift)  # Z' = R - e: 1/C - e is the bottom


def _moments(law: _PairLaw) -> float:
    """Float variance of Z (uncertified: chooses the step)."""
    c = law.big_c
    ex, ex2 = 2 - 1 / c, c + (c - c**-2) / 3
    half = law.alpha**2 + 2 * law.alpha * law.beta * ex + law.beta**2 * ex2
    second = 0.5 * law.atom_value**2 + 0.5 * half
    mean = 0.5 * law.atom_value + 0.5 * (law.alpha + law.beta * ex)
    return max(second - mean * mean, 0.0)


def _step(law: _PairLaw, cut: float | None = None) -> float:
    return lattice_step(_moments(law) if cut is None else _clamped_variance(law, cut))


# The smallest lattice step, relative to the truncation depth, at which the truncated law is used (the lower
# groups work at 30 digits).
MIN_RELATIVE_STEP = 1e-12
# The truncation point sits this far (relative) beyond -(n - 1) z_max, so that float rounding of the cut
# cannot make it cut into the sums that reach 0 (tightness only: every cut is valid, module doc).
CUT_MARGIN = 1e-6


def _cut_depth(eps0: float, eps: float, direction: str, n: int) -> float | None:
    """M' >= (n - 1) z_max (1 + CUT_MARGIN) for the forward direction (z_max = 1 - e^eps / C, unshifted), doubled
    until max(Z, -M') has a mean <= -z_max (the tilt of the sum needs a negative mean; Z's own is 1 - e^eps),
    when it lies strictly inside the continuous part of Z's law (above its bottom 1 - e^eps C); None otherwise
    (n = 1, the backward direction, or nothing to cut). Uncertified floats: any cut is valid (module doc)."""
    if direction != "forward" or n < 2:
        return None
    big_c, e = math.exp(eps0), math.exp(eps)
    z_max = 1 - e / big_c
    if not 0 < z_max:
        return None
    law = _law(eps0, eps, direction)
    depth = (n - 1) * z_max * (1 + CUT_MARGIN)
    while -depth > 1 - e * big_c * (1 - 1e-9):
        if _clamped_moments(law, -depth)[0] <= -z_max:
            return depth if -depth < z_max * (1 - 1e-9) else None
        depth *= 2
    return None


def _clamped_variance(law: _PairLaw, cut: float) -> float:
    return _clamped_moments(law, cut)[1]


def _clamped_moments(law: _PairLaw, cut: float) -> tuple[float, float]:
    """Float mean and variance of max(Z, cut) for the forward law (beta < 0; uncertified: they choose the cut and
    the step). X's half has density C^{-1/2} x^{-3/2} / 2 on [1/C, C) (atom 1/C at C); the part with X > x_cut
    (Z < cut) sits at the cut."""
    c, alpha, beta = law.big_c, law.alpha, law.beta
    x_cut = min(max((cut - alpha) / beta, 1 / c), c)
    rc = math.sqrt(c)
    m_cut = 0.5 / math.sqrt(c * x_cut)
    m0 = 0.5 - m_cut
    m1 = 0.5 * (math.sqrt(x_cut) - 1 / rc) / rc
    m2 = 0.5 * (x_cut**1.5 - c**-1.5) / (3 * rc)
    mean = alpha * m0 + beta * m1 + m_cut * cut + 0.5 * law.atom_value
    second = alpha * alpha * m0 + 2 * alpha * beta * m1 + beta * beta * m2 + m_cut * cut * cut + 0.5 * law.atom_value**2
    return mean, max(second - mean * mean, 0.0)


def _aligned_cut(depth: float, shift: float, h: float) -> float:
    """The cut in shifted coordinates on the lattice, at or below -depth - shift (deeper: still exact)."""
    return math.floor((-depth - shift) / h) * h


def _spread(law: _PairLaw, h: float, cut: float | None = None) -> tuple[int, np.ndarray]:
    """Mean-preserving spread of Z onto h Z, masses rounded up (as in blanket_exact_laplace). With `cut` (a
    lattice point inside the continuous part, forward law only): of max(Z, cut), the mass below the cut at the
    cut (module doc, "The far tail")."""
    c, beta = law.big_c, law.beta
    z_lo, z_hi = sorted(law.values)
    bottom = (law.alpha + beta * c, 0.5 / c)  # X's atom at C: the bottom of the forward law, the top backward
    x_cut = c
    if cut is not None:
        if not (beta < 0 and z_lo < cut < z_hi):
            raise ParameterError("cut", cut, f"a point inside the continuous part ({z_lo!r}, {z_hi!r}) of the forward law")
        x_cut = (cut - law.alpha) / beta
        z_lo = cut
        bottom = (cut, 0.5 / math.sqrt(c * x_cut))  # Pr[X >= x_cut] / 2: the continuous tail and the atom
    points = sorted([z_lo, z_hi, law.atom_value])
    lo = math.floor(points[0] / h) - 1
    hi = math.ceil(points[-1] / h) + 1
    w = np.zeros(hi - lo + 2)
    j0, j1 = math.floor(z_lo / h), math.floor(z_hi / h)
    cuts = np.concatenate(([z_lo], np.arange(j0 + 1, j1 + 1, dtype=float) * h, [z_hi]))
    cuts = cuts[np.concatenate(([True], np.diff(cuts) > 0))]
    a_l, b_l = cuts[:-1], cuts[1:]
    j = np.floor(a_l / h).astype(np.int64)
    if beta > 0:
        xa, xb = np.clip((a_l - law.alpha) / beta, 1 / c, c), np.clip((b_l - law.alpha) / beta, 1 / c, c)
        xa[0], xb[-1] = 1 / c, c
    else:
        xa, xb = np.clip((b_l - law.alpha) / beta, 1 / c, c), np.clip((a_l - law.alpha) / beta, 1 / c, c)
        xb[0], xa[-1] = x_cut, 1 / c
    mass, up_x, down_x = laplace_x_masses(c, xa, xb)
    size = abs(beta)
    rise = size * (up_x if beta > 0 else down_x)  # int (Z - a_l) over the cell
    fall = size * (down_x if beta > 0 else up_x)  # int (b_l - Z)
    hi_w = 0.5 * (rise + mass * (a_l - j * h)) / h
    lo_w = 0.5 * (fall + mass * ((j + 1) * h - b_l)) / h
    np.add.at(w, j - lo, lo_w)
    np.add.at(w, j + 1 - lo, hi_w)
    for value, m in (bottom, (law.atom_value, 0.5)):
        k = math.floor(value / h)
        frac = value / h - k
        w[k + 1 - lo] += m * frac
        w[k - lo] += m * (1 - frac)
    margin = MASS_MARGIN * (4 + (abs(points[0]) + abs(points[-1])) / h)
    return lo, w * (1 + margin)


class _Groups:
    """Z's law in mpmath (30 digits) for the lower groups: cumulative mass F(z) = Pr[Z <= z] and moment
    G(z) = E[Z; Z <= z] (atoms included at z), from the exact parameters e^{eps0}, e^eps."""

    def __init__(self, eps0: float, eps: float, direction: str, shift: float = 0.0):
        self.big_c = mpmath.exp(mpmath.mpf(eps0))
        e = mpmath.exp(mpmath.mpf(eps))
        sh = mpmath.mpf(shift)
        if direction == "forward":
            self.alpha, self.beta, self.other = 1 - sh, -e, 1 - e / self.big_c - sh
        else:
            self.alpha, self.beta, self.other = -e - sh, mpmath.mpf(1), 1 / self.big_c - e - sh
        c = self.big_c
        self.top_x = self.alpha + self.beta * c  # Z at X_C's atom
        self.atoms = sorted([(self.other, mpmath.mpf(1) / 2), (self.top_x, 1 / (2 * c))])
        ends = sorted([self.alpha + self.beta / c, self.top_x])
        self.cont_lo, self.cont_hi = ends
        # The constants `cumulative` uses at every call (the walks call it thousands of times), computed once at the
        # same precision (the callers' 30 digits): the same mpmath numbers as computed in place.
        self.root_c = mpmath.sqrt(c)
        self.inv_c = 1 / c
        self.inv_root_c = 1 / self.root_c

    def _x_of(self, z: mpmath.mpf) -> mpmath.mpf:
        return (z - self.alpha) / self.beta

    def cumulative(self, z: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
        c, rc = self.big_c, self.root_c
        mass, mom = mpmath.mpf(0), mpmath.mpf(0)
        for value, m in self.atoms:
            if value <= z:
                mass, mom = mass + m, mom + m * value
        if z < self.cont_lo:  # below the continuous part: its mass and moment are 0
            mx, ex = mpmath.mpf(0), mpmath.mpf(0)
            return mass + mx / 2, mom + (self.alpha * mx + self.beta * ex) / 2
        zz = min(max(z, self.cont_lo), self.cont_hi)
        x = min(max(self._x_of(zz), self.inv_c), c)
        root_x = mpmath.sqrt(x)
        if self.beta > 0:  # Z <= z  <=>  X <= x
            mx, ex = 1 - 1 / (rc * root_x), (root_x - self.inv_root_c) / rc
        else:  # X >= x (continuous part, X < C)
            mx, ex = 1 / (rc * root_x) - self.inv_c, (rc - root_x) / rc
        return mass + mx / 2, mom + (self.alpha * mx + self.beta * ex) / 2


def _lower_groups(eps0: float, eps: float, direction: str, h: float, shift: float = 0.0, cut: float | None = None) -> tuple[int, np.ndarray]:
    """A lattice law dominated by Z (convex order, then moved down; module doc of blanket_exact_laplace). Z's
    law is an atom at each end of its support with a continuous part between (module doc), so: the top group
    (z_last, z_max] (top atom included) has mean exactly the lattice point `top` below z_max (bisection); from
    the bottom (bottom atom in the first group) groups with exact lattice means are cut by bisection on the
    cumulative moments; the leftover below z_last joins a fraction of the top group. With `cut` (module doc, "The
    far tail"): only the part of the law above the cut is grouped (a defective law: its total mass is
    Pr[Z > cut]); the walk starts at the cut."""
    with mpmath.workdps(30):
        law = _Groups(eps0, eps, direction, shift)
        hh = mpmath.mpf(h)
        z_min, z_max = law.atoms[0][0], law.atoms[-1][0]
        tol = (abs(z_min) + abs(z_max) + 1) * mpmath.mpf(10) ** -25
        if not (z_min <= law.cont_lo + tol and law.cont_hi <= z_max + tol):
            raise ParameterError("pair law", float(z_min), "atoms at both ends of the support")
        law.cont_lo, law.cont_hi = max(law.cont_lo, z_min), min(law.cont_hi, z_max)
        f_base, g_base = mpmath.mpf(0), mpmath.mpf(0)  # the part left out (at or below the cut)
        if cut is not None:
            cut_mp = mpmath.mpf(cut)
            if not law.cont_lo < cut_mp < z_max:
                raise ParameterError("cut", cut, "a point inside the support of the pair's law")
            f_base, g_base = law.cumulative(cut_mp)
            z_min = cut_mp
        f_all, g_all = law.cumulative(z_max)
        top = mpmath.floor(z_max / hh)
        target_top = top * hh
        groups: list[tuple[mpmath.mpf, mpmath.mpf]] = []
        if g_all - g_base >= target_top * (f_all - f_base):  # one group: everything, contracted to its mean, moved down
            groups.append((f_all - f_base, mpmath.floor((g_all - g_base) / (f_all - f_base) / hh)))
        else:
            low, high = z_min, z_max  # mean of (z, z_max] is non-decreasing in z
            for _ in range(BISECTION_STEPS):
                mid = (low + high) / 2
                fm, gm = law.cumulative(mid)
                if (g_all - gm) >= target_top * (f_all - fm):
                    high = mid
                else:
                    low = mid
            z_last = high
            f_last, g_last = law.cumulative(z_last)
            final_mass, final_mom = f_all - f_last, g_all - g_last
            if not final_mom >= target_top * final_mass:
                raise ParameterError("lower lattice law", float(target_top), "a top group whose mean reaches its point")
            f_b, g_b = f_base, g_base  # cumulative at the current start (the first group: nothing, or the cut's)
            b = z_min
            t = mpmath.floor(z_min / hh)
            if z_min - t * hh > hh * mpmath.mpf(10) ** -10:  # the bottom atom is not (nearly) on a lattice point
                t += 1
            first = True
            while True:
                target = t * hh
                mass, mom = f_last - f_b, g_last - g_b
                if mass <= 0 or mom < target * mass:  # the leftover below z_last
                    groups.extend(leftover_groups(mass, mom, final_mass, top, hh))
                    break
                high = _closed_form_end(law, b, target) if not first else None
                if high is not None and high <= z_last:
                    f_z, g_z = law.cumulative(high)  # reused below when the closed-form end is kept
                    if not (g_z - g_b) >= target * (f_z - f_b):
                        high = None
                else:
                    high = None
                if high is None:
                    low, high = b, z_last
                    for _ in range(BISECTION_STEPS):
                        mid = (low + high) / 2
                        fm, gm = law.cumulative(mid)
                        if (gm - g_b) >= target * (fm - f_b):
                            high = mid
                        else:
                            low = mid
                    f_z, g_z = law.cumulative(high)
                first = False
                mass, mom = f_z - f_b, g_z - g_b
                if not mom >= target * mass:
                    raise ParameterError("lower lattice law", float(target), "a group whose mean reaches its point")
                groups.append((mass, t))
                f_b, g_b, b = f_z, g_z, high
                if b >= z_last:
                    groups.append((final_mass, top))
                    break
                t = mpmath.floor(b / hh) + 1
        lo, w = lattice_law(groups)
    return lo, w * (1 - MASS_MARGIN * 4)


def _closed_form_end(law: "_Groups", b: mpmath.mpf, target: mpmath.mpf) -> mpmath.mpf | None:
    """The end z of the group (b, z] inside the continuous part with mean exactly `target` (the conditional mean
    of X on [x0, x1] is sqrt(x0 x1)), nudged so that the mean is >= target; None outside the continuous part."""
    c = law.big_c
    if not law.cont_lo <= b < law.cont_hi:
        return None
    x_b = (b - law.alpha) / law.beta
    x_t = (target - law.alpha) / law.beta
    if law.beta > 0:
        x_end = x_t * x_t / x_b * (1 + mpmath.mpf(10) ** -24)
    else:
        x_end = x_t * x_t / x_b * (1 - mpmath.mpf(10) ** -24)
    if not 1 / c <= x_end < c:
        return None
    return law.alpha + law.beta * x_end


def _direction_setup(eps0: float, eps: float, direction: str, n: int) -> tuple[float, float, float | None]:
    """(h, shift, cut) of one direction's lattice at eps (module doc: the step, the cluster shift, the far-tail cut
    or None). Uncertified floats: they decide tightness only."""
    depth = _cut_depth(eps0, eps, direction, n)
    h = _step(_law(eps0, eps, direction), None if depth is None else -depth)
    if depth is not None and not h >= MIN_RELATIVE_STEP * max(depth, 1.0):
        # The truncated law is nearly a point (eps near eps0, z_max tiny): a step that fine is below what the
        # 30-digit groups resolve. Untruncated, as before (tightness only).
        depth = None
        h = _step(_law(eps0, eps, direction))
    shift = _cluster_shift(eps0, eps, direction, h)
    law = _law(eps0, eps, direction, shift)
    cut = None if depth is None else _aligned_cut(depth, shift, h)
    if cut is not None and not sorted(law.values)[0] < cut < law.atom_value - h:
        cut = None  # the lattice-aligned cut left the continuous part: no truncation (tightness only)
    return h, shift, cut


def _direction_upper(eps0: float, eps: float, direction: str, n: int, setup: tuple[float, float, float | None]) -> float:
    """A certified upper bound on (1/n) E[(sum of n copies of Z)_+] of one direction (the spread law)."""
    h, shift, cut = setup
    log_n = math.log(n)
    offset, w_up = _spread(_law(eps0, eps, direction, shift), h, cut)
    log_up = log_positive_part_expectation(offset, w_up, (1.0, 1.0), h, n, True, eps0, shift)
    return 1.0 if log_up - log_n >= 0 else min(1.0, math.exp(log_up - log_n + 4 * UNIT * log_n) * (1 + EXP_MARGIN))


def _direction_lower(eps0: float, eps: float, direction: str, n: int, setup: tuple[float, float, float | None]) -> float:
    """A certified lower bound on the same quantity (the lower groups)."""
    h, shift, cut = setup
    log_n = math.log(n)
    offset_lo, w_lo = _lower_groups(eps0, eps, direction, h, shift, cut)
    log_lo = log_positive_part_expectation(offset_lo, w_lo, (1.0, 1.0), h, n, False, eps0, shift)
    return 0.0 if log_lo == -math.inf else math.exp(log_lo - log_n - 4 * UNIT * log_n) * (1 - EXP_MARGIN)


def laplace_pair_delta(*, eps0: float, n: int, eps: float) -> BoundValue:
    """exact.laplace_pair_x0: a certified interval of max(D(P_0||P_1), D(P_1||P_0)) at e^eps for the pair "user 1
    holds 0 vs 1, the other n-1 users hold 0" of n shuffled eps0-Laplace reports on [0, 1] (module doc).
    Range: 0 < eps0 <= 8, 1 <= n <= 1e6, eps >= 0."""
    edge = laplace_delta_at_edges(eps0=eps0, n=n, eps=eps)
    if edge is not None:
        return edge
    n = int(n)
    setups = {direction: _direction_setup(eps0, eps, direction, n) for direction in DIRECTIONS}
    uppers = {direction: _direction_upper(eps0, eps, direction, n, setups[direction]) for direction in DIRECTIONS}
    lowers = {"forward": _direction_lower(eps0, eps, "forward", n, setups["forward"])}
    # max(lower ends) is the interval's lower end; a direction whose upper end is already <= the other's lower
    # end cannot raise it, so its lower groups are not built (the same value either way).
    if uppers["backward"] > lowers["forward"]:
        lowers["backward"] = _direction_lower(eps0, eps, "backward", n, setups["backward"])
    lower, upper = max(lowers.values()), max(uppers.values())
    return BoundValue(min(lower, upper), upper, direction="exact")


class _PairDeltas:
    """The ends of `laplace_pair_delta`, per direction, evaluated separately and cached per eps (the same numbers):
    the root search at large eps0 needs the upper end where it searches and the lower end (the 30-digit lower
    groups, the costly part there) only near the root."""

    def __init__(self, eps0: float, n: int):
        self.eps0, self.n = eps0, int(n)
        self.setups: dict[tuple[float, str], tuple[float, float, float | None]] = {}
        self.uppers: dict[tuple[float, str], float] = {}
        self.lowers: dict[float, float] = {}

    def _setup(self, eps: float, direction: str) -> tuple[float, float, float | None]:
        if (eps, direction) not in self.setups:
            self.setups[eps, direction] = _direction_setup(self.eps0, eps, direction, self.n)
        return self.setups[eps, direction]

    def upper(self, eps: float, directions: tuple[str, ...] = DIRECTIONS) -> float:
        """The certified upper end of the pair's delta at eps, maximised over `directions` (both: the pair's)."""
        edge = laplace_delta_at_edges(eps0=self.eps0, n=self.n, eps=eps)
        if edge is not None:
            return edge.upper
        for d in directions:
            if (eps, d) not in self.uppers:
                self.uppers[eps, d] = _direction_upper(self.eps0, eps, d, self.n, self._setup(eps, d))
        return max(self.uppers[eps, d] for d in directions)

    def lower(self, eps: float) -> float:
        """The certified lower end of the pair's delta at eps (as `laplace_pair_delta`)."""
        edge = laplace_delta_at_edges(eps0=self.eps0, n=self.n, eps=eps)
        if edge is not None:
            return edge.lower
        if eps not in self.lowers:
            value = _direction_lower(self.eps0, eps, "forward", self.n, self._setup(eps, "forward"))
            if self.upper(eps, ("backward",)) > value:  # else the backward lower end cannot raise the maximum
                value = max(value, _direction_lower(self.eps0, eps, "backward", self.n, self._setup(eps, "backward")))
            self.lowers[eps] = min(value, self.upper(eps))
        return self.lowers[eps]

    def log_slope(self, near: float) -> float | None:
        """d log delta / d eps of the forward upper end, a secant through the two evaluated points nearest `near`
        with 0 < delta < 1 (uncertified: it only places the lower end's evaluations); None without two."""
        points = sorted((abs(x - near), x) for (x, d), v in self.uppers.items() if d == "forward" and 0 < v < 1)
        if len(points) < 2:
            return None
        (_, x1), (_, x2) = points[:2]
        slope = (math.log(self.uppers[x2, "forward"]) - math.log(self.uppers[x1, "forward"])) / (x2 - x1)
        return slope if slope < 0 and math.isfinite(slope) else None


# Evaluations of the lower end in the second phase of the pair's root search (`laplace_pair_x0_interval`).
LOWER_END_EVALUATIONS = 8
# Its tolerance: a quarter of the search's, so that the lower end is about as tight as the one-phase search's
# (which stops within EPS_REL_TOL of both roots); the lower groups it evaluates are few.
LOWER_END_REL_TOL = EPS_REL_TOL / 4


def _lower_end(deltas: _PairDeltas, upper: float, delta: float) -> float:
    """The largest evaluated eps below `upper` whose certified lower delta exceeds `delta` (0 if none):
    `shuffle_spec.reference.numerics.lower_end.lower_end_search` on the pair's lower end, started with the forward
    upper end's slope, to LOWER_END_REL_TOL in at most LOWER_END_EVALUATIONS evaluations."""
    return lower_end_search(deltas.lower, upper, delta, slope=deltas.log_slope(upper), rel_tol=LOWER_END_REL_TOL, evaluations=LOWER_END_EVALUATIONS)


def _upper_end(deltas: _PairDeltas, eps0: float, delta: float) -> tuple[float, bool]:
    """(upper, found) of the pair's eps from the upper ends alone: searched on the forward direction (the larger
    one wherever measured) from the normal approximation's root (its slope is not used: Z's law is skewed here)
    and confirmed there for both directions; if the backward one exceeds delta at that point, the search is run
    again on the pair's maximum. Only evaluated points are returned: tightness, not validity."""
    hint, _ = search_start(_normal_terms(eps0, deltas.n), eps0=eps0, n=deltas.n, delta=delta, fallback=lambda: 0.5 * eps0)
    _, upper, found = solve_certified_epsilon(
        lambda eps: (0.0, deltas.upper(eps, ("forward",))), eps0=eps0, delta=delta, rel_tol=EPS_REL_TOL, tight="upper", hint=hint
    )
    if deltas.upper(upper) <= delta:
        return upper, found
    _, upper, found = solve_certified_epsilon(lambda eps: (0.0, deltas.upper(eps)), eps0=eps0, delta=delta, rel_tol=EPS_REL_TOL, tight="upper", hint=hint)
    return upper, found


def _normal_terms(eps0: float, n: int) -> Callable[[float], list[tuple[float, float]]]:
    """terms(eps) for `search_start`: a two-point law (mean -+ sd, 1/2 each) with the mean and variance of the
    forward Z (the larger variance of the two directions; truncated as in the lattice where that applies).
    Uncertified: it only places the root search."""

    def terms(eps: float) -> list[tuple[float, float]]:
        law = _law(eps0, eps, "forward")
        depth = _cut_depth(eps0, eps, "forward", n)
        if depth is None:
            mean, var = 1 - math.exp(eps), _moments(law)
        else:
            mean, var = _clamped_moments(law, -depth)
        sd = math.sqrt(max(var, 0.0))
        return [(mean - sd, 0.5), (mean + sd, 0.5)]

    return terms


def laplace_pair_x0_interval(*, eps0: float, n: int, delta: float) -> BoundValue:
    """A certified interval containing the exact eps of the pair "user 1 holds 0 vs 1, the other n-1 users hold
    0" of n shuffled eps0-Laplace reports on [0, 1] (both directions; exact.laplace_pair_x0). Range: as
    `laplace_pair_x0_epsilon`."""
    check_laplace_inputs(eps0, n, delta)
    if int(n) == 1:  # the pair is one report: both directions are the profile 1 - e^{(eps - eps0)/2}
        return single_report_epsilon(eps0, delta)
    if eps0 < MIN_EPS0:  # no lattice (module doc of reference.bounds.blanket_exact_laplace): eps in [0, eps0]
        return BoundValue(0.0, float(eps0), f"{TINY_EPS0}: the pair's eps is only bracketed by [0, eps0]", direction="exact")

    # Up to NORMAL_HINT_MAX_EPS0 the search starts where the normal approximation of the forward sum crosses delta
    # (with its slope; else at the binned bound's eps): a third to a half of the evaluations there. Beyond, Z's law
    # is too skewed for it (its root was 30% off at eps0 = 8, n = 1e3, and the search took longer), so the search
    # starts as before. Either way this only decides where delta is evaluated.
    binned = binary_rr_pair_epsilon(eps0=binned_binary_rr_eps0(eps0=eps0), n=int(n), delta=delta, k=0).lower
    if eps0 <= NORMAL_HINT_MAX_EPS0:
        hint, slope = search_start(_normal_terms(eps0, int(n)), eps0=eps0, n=int(n), delta=delta, fallback=lambda: binned)

        def bounds(eps: float) -> tuple[float, float]:
            value = laplace_pair_delta(eps0=eps0, n=n, eps=eps)
            return value.lower, value.upper

        lower, upper, found = solve_certified_epsilon(bounds, eps0=eps0, delta=delta, rel_tol=EPS_REL_TOL, hint=hint, slope=slope)
    else:
        # Two phases: the upper end from the spread laws alone (`_upper_end`), then the lower end near it
        # (`_lower_end`): the 30-digit lower groups, most of the time at large eps0, are built at one to three
        # points instead of at every point of the search, and the backward direction only where it could matter.
        deltas = _PairDeltas(eps0, int(n))
        upper, found = _upper_end(deltas, eps0, delta)
        lower = _lower_end(deltas, upper, delta)
    # Binning the reports at 1/2 is a post-processing of this same pair (binary RR, the others' bits all 0): its
    # certified eps is also a lower bound on the pair's, and the better one where the lattice contraction is
    # coarse (large eps0, eps near eps0).
    lower = min(max(lower, binned), upper)
    return BoundValue(lower, upper, "" if found else "no eps < eps0 certified for this pair: eps0 is the upper end", direction="exact")


def laplace_pair_x0_epsilon(*, eps0: float, n: int, delta: float) -> BoundValue:
    """exact.laplace_pair_x0 (direction lower_bound): the LOWER end of the certified interval of the pair's exact
    eps (`laplace_pair_x0_interval`) as the value: a lower bound on the central eps of n shuffled eps0-Laplace
    reports on [0, 1] at delta; the interval is in the note. Range: 0 < eps0 <= 8, 1 <= n <= 1e6,
    1e-300 <= delta < 1."""
    pair = laplace_pair_x0_interval(eps0=eps0, n=n, delta=delta)
    note = f"exact eps of the pair (others at 0) in [{pair.lower!r}, {pair.upper!r}]; its lower end is a lower bound on the worst case"
    # The value is the lower end (BoundValue.value of a lower bound); the interval, the pair's, holds its exact eps.
    return BoundValue(pair.lower, pair.upper, (pair.note + "; " + note) if pair.note else note, direction="lower_bound")


def laplace_pair_x0_epsilon_mp(*, dps: int, eps0: float, n: int, delta: float) -> tuple[mpmath.mpf, mpmath.mpf]:
    """High-precision value of exact.laplace_pair_x0 (COMMON protocol): at n = 1 the pair is the Laplace
    mechanism itself, both directions have delta(eps) = 1 - e^{(eps - eps0)/2} (proofs_checks/derived/blanket_exact_laplace.py),
    so eps = max(0, eps0 + 2 log(1 - delta)) exactly; ValueError (outside the high-precision range) for n > 1."""
    return single_report_epsilon_mp(dps=dps, eps0=eps0, n=n, delta=delta, statement="exact.laplace_pair_x0")


def binned_binary_rr_eps0(*, eps0: float) -> float:
    """The local epsilon of the binary randomized response obtained by binning eps0-Laplace reports on [0, 1]
    at 1/2 (flip probability q = e^{-eps0/2}/2, so e^{eps0'} = (1 - q)/q = 2 e^{eps0/2} - 1), rounded DOWN (a
    smaller eps0' is a post-processing of the binned randomizer, so lower bounds stay valid). Range eps0 > 0."""
    require_positive("eps0", eps0)
    with mpmath.workdps(40):
        exact = mpmath.log(2 * mpmath.exp(mpmath.mpf(eps0) / 2) - 1)
        value = float(exact)
        if value > exact:
            value = math.nextafter(value, 0.0)
    return value
