"""The exact blanket bound for the Laplace mechanism on [0, 1], certified (BBGN19.Lem5.3.exact_laplace).

The randomizer: x in [0, 1] -> x + Lap(1/eps0), density mu_x(w) = (eps0/2) e^{-eps0 |w - x|}. Its blanket
(BBGN19 Lemma 5.1 (2)): inf_x mu_x(w) = (eps0/2) e^{-eps0 max(|w|, |w-1|)}, of total mass gamma = e^{-eps0/2},
so omega = Lap(1/2, 1/eps0) = mu_{1/2}. BBGN19 Lemma 5.3 bounds D_{e^eps} of every neighbouring pair of n
shuffled reports differing in one user's input (x vs x') by

    delta(eps) = (1/(gamma n)) E[(Y_1 + ... + Y_n)_+],   Y_i = B_i L_i,  B_i ~ Ber(gamma),

L_i i.i.d. copies of L = (mu_x(W) - e^eps mu_x'(W)) / omega(W), W ~ omega (the same expectation as
sum_N Pr[M = N] E[(L_1 + ... + L_N)_+], M ~ Bin(n, gamma)). BBGN19.hoeffding_laplace and .bennett_laplace
relax it; here it is evaluated to a certified interval.

The pair. Everything below is for the extreme pair (x, x') = (0, 1) (and (1, 0), its mirror image: the same
law of L). That it is the worst pair is the REDUCTION this statement relies on: E[(L^{x,x'} - t)_+] <=
E[(L^{0,1} - t)_+] for every t (convex order, equal means 1 - e^eps), hence the same for sums of i.i.d.
copies and for (.)_+. It is proven for every pair and every eps in `proofs_checks/derived/blanket_exact_laplace.py` (module
doc: radial garbling by the self-decomposability of the Laplace law, derivative arguments on the edges of the
square of pairs, closed forms on the last edge), each identity checked there in SymPy.

The law of L for (0, 1) (c = e^{eps0/2}, e = e^eps; checked in proofs_checks/derived/blanket_exact_laplace.py). With
U = W - 1/2 ~ Lap(0, 1/eps0), the side (U < 0 or U > 0) has probability 1/2 each and X = e^{eps0 (2 min(|U|,
1/2) - 1/2)} takes values in [1/c, c]: Pr[X >= x] = (c x)^{-1/2} on [1/c, c], an atom of mass 1/c at c
(density f(x) = c^{-1/2} x^{-3/2} / 2 below it). Then L = X - e/c on the left side, L = 1/c - e X on the right.

Discretisation (both directions certified, on the lattice h Z, h a power of 2):
- upper end: every lattice cell [jh, (j+1)h] of L's law is spread to its two end points preserving its mass
  and its mean (a mean-preserving spread). The spread variable L~ dominates L in convex order, so
  sum Y~_i dominates sum Y_i and E[(.)_+] can only grow. Cell masses and moments in closed form
  (in X: int f = c^{-1/2} (sqrt xb - sqrt xa) / (sqrt xa sqrt xb), int (x - xa) f = c^{-1/2} (sqrt xb -
  sqrt xa)^2 / sqrt xb, int (xb - x) f = c^{-1/2} (sqrt xb - sqrt xa)^2 / sqrt xa): sums and products of
  positive numbers, no cancellation.
- lower end: L's support is cut into consecutive groups whose conditional mean is >= a lattice point t_j
  (the conditional mean of X on [x0, x1] is sqrt(x0 x1): groups in closed form); contracting each group to
  its mean is dominated by L in convex order, and moving it down to t_j only lowers the sum (stochastic
  order). The groups containing an atom or the junction of the two sides are solved in mpmath.
The per-user law is (1 - gamma) delta_0 + gamma L~ (or the lower one). Its n-fold convolution is computed by
FFT after an exponential tilt e^{theta s} (theta minimises the tilted mass, so the tilted sum is centred near
0, where (.)_+ has its kink, and every error is relative to the size of delta): with r_j = w_j e^{theta j h},
Pr[S = kh] = e^{-theta k h} (r^{*n})_k, E[S_+] = h sum_{k>0} k e^{-theta k h} (r^{*n})_k. The convolution,
its window, the Chernoff bounds on the mass outside it and the FFT round-off bound are those of
`shuffle_spec.reference.composition.shuffled_rounds.compose` (module doc items 3-4 there; the FFT accuracy is the assumption stated there). Masses
carry relative margins (upper end: every mass rounded up, the convolution of non-negative measures being
monotone in each mass; lower end: down).

The upper end's step. The step h (a power of 2 near sd/8, `lattice_step`) follows L's variance, which at large
eps0 is dominated by its far negative tail (L reaches 1/c - e^eps c, about -e^{eps + 4} at eps0 = 8, with mass
1/(2c)): at eps0 = 8, n = 1e3, eps = 6 the step was 256 for a positive part of width about 50, and the spread
law's delta was 0.030 against a true 7e-5, so no eps below eps0 was certified. The sum's positive part is
resolved under the exponential tilt (which suppresses that tail), so the upper end takes the smaller of h and a
power of 2 near the TILTED per-user law's standard deviation / TILTED_STEPS (`_upper_step`: computed on the spread
law, recomputed on its own lattice while it keeps shrinking; one step per tilted sd above eps0 = 4, where L's
lattice is long, at most MAX_UPPER_POINTS points). Validity does not depend on the step (every step gives a
certified upper end of the same delta(eps)); and since steps are powers of 2, the variance's lattice is a
sub-lattice of the finer one and spreading the finer spread law onto it is a further mean-preserving spread, so the
finer step's upper end is never above the coarser one's (up to the margins; tested). The lower groups keep the
variance's step (their 30-digit walk is refused at much finer steps), so where the two differ the certified
interval of delta(eps) is wide, and the root search runs in two phases (at every eps0: below eps0 = 2 it chased
both ends together before, one evaluation of each end per step, 5 steps at n = 1e6; the two phases take 20-50%
less time there, the same upper end, the interval's lower end within the search tolerance of the former): the
upper end (the statement's value) from the upper ends alone, then at most LOWER_END_EVALUATIONS evaluations of
the lower end below it (`shuffle_spec.reference.numerics.lower_end`) for the interval's lower end (0 when none
succeeds).

Supported range: eps0 in (0, 8], n in [1, 10^6], delta in [1e-300, 1). Beyond, refused.

Tiny eps0 (below MIN_EPS0 = 1e-7, where the lattice step follows L's spread ~ eps0 and the arrays outgrow
numpy's limits): at n >= 2 the lattice is not built; delta(eps) is bracketed by [0, 1] and eps by [0, eps0]
(at eps = eps0 every L is <= 0: delta(eps0) = 0), so eps0 is returned with the usual note (certified, loose).
n = 1 keeps its closed form (`single_report_epsilon`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath
import numpy as np

from .blanket_exact_krr import check_eps0_n_delta
from ..core.errors import ParameterError, require_positive
from ..numerics.lower_end import lower_end_search
from ..numerics.solver import solve_certified_epsilon
from ..numerics.tilted_lattice import (
    EXP_MARGIN,
    UNIT,
    lattice_law,
    lattice_step,
    laplace_x_masses,
    leftover_groups,
    log_positive_part_expectation,
    tilted_step,
)
from ..core.limits import RANGES
from ..core.results import NO_AMPLIFICATION, BoundValue

__all__ = [
    "check_laplace_inputs",
    "laplace_l_law",
    "exact_blanket_laplace_delta",
    "exact_blanket_laplace_epsilon",
    "exact_blanket_laplace_epsilon_mp",
    "laplace_delta_at_edges",
    "single_report_epsilon",
    "single_report_epsilon_mp",
    "MAX_N",
    "MAX_EPS0",
    "MIN_EPS0",
]

STATEMENT = "BBGN19.Lem5.3.exact_laplace"
# The supported range, from its one source (`shuffle_spec.reference.core.limits.RANGES`): n <= 1e6, eps0 <= 8.
MAX_N = RANGES[STATEMENT].n_max
MAX_EPS0 = RANGES[STATEMENT].eps0_max
# Below it the lattice is not built (module doc, "Tiny eps0"): it worked down to 2e-8 and failed at 1e-8.
MIN_EPS0 = 1e-7
TINY_EPS0 = f"eps0 < {MIN_EPS0:g}: the lattice of L does not resolve a privacy loss this small"
EPS_REL_TOL = 1e-3
# Relative margin of the closed-form cell masses (a few dozen roundings of positive numbers).
MASS_MARGIN = 64 * UNIT


def check_laplace_inputs(eps0: float, n: int, delta: float) -> None:
    """Validate the public parameters (ParameterError naming the parameter and its range): 0 < eps0 <= 8,
    1 <= n <= 1e6, 1e-300 <= delta < 1."""
    check_eps0_n_delta(eps0, n, delta, max_eps0=MAX_EPS0, max_n=MAX_N, n_beyond="FFT of the tilted sum; use BBGN19.bennett_laplace beyond")


@dataclass(frozen=True)
class _Law:
    """Floats of the law of L for the pair (0, 1): c = e^{eps0/2}, e = e^eps (module doc)."""

    c: float
    e: float

    @property
    def atom(self) -> float:  # mass of each end atom of L (1/2 side times 1/c)
        return 0.5 / self.c

    @property
    def lmin(self) -> float:
        return 1 / self.c - self.e * self.c

    @property
    def lmax(self) -> float:
        return self.c - self.e / self.c

    def moments(self) -> tuple[float, float]:
        """Float mean and variance of L (uncertified: they choose h only)."""
        c, e = self.c, self.e
        ex = 2 - 1 / c
        ex2 = c + (c - c**-2) / 3
        left = ex2 - 2 * (e / c) * ex + (e / c) ** 2
        right = c**-2 - 2 * (e / c) * ex + e**2 * ex2
        mean = 1 - e
        return mean, max(0.5 * (left + right) - mean**2, 0.0)


def laplace_l_law(*, eps0: float, eps: float) -> dict[str, float]:
    """The law of BBGN19's amplification variable L for the Laplace mechanism on [0, 1] and the pair (0, 1)
    (module doc), as floats: c = e^{eps0/2}, e = e^eps, the end atoms' mass, the support [lmin, lmax], the
    mean (1 - e^eps) and the variance. Range: 0 < eps0 <= 8, 0 <= eps."""
    require_positive("eps0", eps0)
    if eps0 > MAX_EPS0:
        raise ParameterError("eps0", eps0, f"0 < eps0 <= {MAX_EPS0:g}")
    require_positive("eps", eps, allow_zero=True)
    law = _Law(math.exp(eps0 / 2), math.exp(eps))
    mean, var = law.moments()
    return {"c": law.c, "e": law.e, "atom": law.atom, "lmin": law.lmin, "lmax": law.lmax, "mean": mean, "variance": var}


# --- the lattice laws --------------------------------------------------------------------------------


def _spread_masses(law: _Law, h: float) -> tuple[int, np.ndarray]:
    """(offset, w): the mean-preserving spread of L onto h Z, w[i] the mass at (offset + i) h, every mass
    rounded UP (margins), including the two atoms. Sums to 1 up to the margins."""
    c, e = law.c, law.e
    lo = math.floor(law.lmin / h) - 1
    hi = math.ceil(law.lmax / h) + 1
    w = np.zeros(hi - lo + 2)
    junction = (1 - e) / c  # the two sides meet here: right side L <= junction <= left side L

    def add_cells(a_l: np.ndarray, b_l: np.ndarray, xa: np.ndarray, xb: np.ndarray, increasing: bool, j: np.ndarray) -> None:
        """Cells [a_l, b_l] of L (lattice cell j: [jh, (j+1)h] contains it) with X in [xa, xb]."""
        mass, up_x, down_x = laplace_x_masses(c, xa, xb)
        # Mean-preserving spread of the part on [a_l, b_l] to jh and (j+1)h: weight at (j+1)h = int (L - jh)/h.
        # L - jh = (L - a_l) + (a_l - jh); on the left side L - a_l = x - xa, on the right side e (xb - x).
        rise = up_x if increasing else e * down_x
        hi_w = 0.5 * (rise + mass * (a_l - j * h)) / h
        # int ((j+1)h - L)/h, again a sum of positives: ((j+1)h - b_l) mass + int (b_l - L).
        fall = e * up_x if not increasing else down_x
        lo_w = 0.5 * (fall + mass * ((j + 1) * h - b_l)) / h
        np.add.at(w, j - lo, lo_w)
        np.add.at(w, j + 1 - lo, hi_w)

    # Left side: L = X - e/c increasing in X on [1/c, c); cells cut at lattice points.
    for side in ("left", "right"):
        if side == "left":
            l_from, l_to = junction, law.lmax
        else:
            l_from, l_to = law.lmin, junction
        j0, j1 = math.floor(l_from / h), math.floor(l_to / h)
        cuts = np.concatenate(([l_from], np.arange(j0 + 1, j1 + 1, dtype=float) * h, [l_to]))
        cuts = cuts[np.concatenate(([True], np.diff(cuts) > 0))]
        a_l, b_l = cuts[:-1], cuts[1:]
        j = np.floor(a_l / h).astype(np.int64)
        # The X cells partition [1/c, c] exactly (end points set, inner cuts computed once each).
        if side == "left":
            xa, xb = np.clip(a_l + e / c, 1 / c, c), np.clip(b_l + e / c, 1 / c, c)
            xa[0], xb[-1] = 1 / c, c
            add_cells(a_l, b_l, xa, xb, True, j)
        else:
            xa, xb = np.clip((1 / c - b_l) / e, 1 / c, c), np.clip((1 / c - a_l) / e, 1 / c, c)
            xb[0], xa[-1] = c, 1 / c
            add_cells(a_l, b_l, xa, xb, False, j)
    for value in (law.lmin, law.lmax):
        cell = math.floor(value / h)
        frac = value / h - cell
        w[cell + 1 - lo] += law.atom * frac
        w[cell - lo] += law.atom * (1 - frac)
    return lo, w * (1 + _margin(law, h))


def _margin(law: _Law, h: float) -> float:
    """Relative margin of the float lattice masses: c and e are within 2u of e^{eps0/2}, e^eps, and each mass
    is a few dozen roundings of positive numbers whose condition number is at most about (|lmin| + |lmax|)/h
    (the cell end points and the atoms' position in their cell are differences of that size)."""
    return MASS_MARGIN * (4 + (abs(law.lmin) + abs(law.lmax)) / h)


def _lower_masses(law: _Law, h: float, eps0: float, eps: float) -> tuple[int, np.ndarray]:
    """(offset, w): a lattice law dominated by L (module doc, lower end): masses rounded DOWN. Built in
    mpmath at 30 digits group by group (closed forms, bisection only for the groups containing an atom or
    the junction); a float group mean is checked to be >= its lattice point before that point is used."""
    with mpmath.workdps(30):
        c, e = mpmath.exp(mpmath.mpf(eps0) / 2), mpmath.exp(mpmath.mpf(eps))
        rc = mpmath.sqrt(c)
        hh = mpmath.mpf(h)
        groups: list[tuple[mpmath.mpf, mpmath.mpf]] = []  # (mass, lattice point index)

        def part(x0: mpmath.mpf, x1: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
            """(mass, E[X; .]) of X's continuous part on [x0, x1] within one side (weight 1/2 included)."""
            if x1 <= x0:
                return mpmath.mpf(0), mpmath.mpf(0)
            return (1 / mpmath.sqrt(x0) - 1 / mpmath.sqrt(x1)) / rc / 2, (mpmath.sqrt(x1) - mpmath.sqrt(x0)) / rc / 2

        atom = 1 / (2 * c)
        # State: the remaining law is right side X in [1/c, xr] (+ atom at X = c if atom_r) and the whole left.
        # Walk L upwards: right side first (X decreasing), then the left side (X increasing).

        def right_moments(xr: mpmath.mpf, x_new: mpmath.mpf, with_atom: bool) -> tuple[mpmath.mpf, mpmath.mpf]:
            m, mx = part(x_new, xr)
            mass, mom = m, m / c - e * mx
            if with_atom:
                mass, mom = mass + atom, mom + atom * (1 / c - e * c)
            return mass, mom

        def left_moments(x0: mpmath.mpf, x1: mpmath.mpf, with_atom: bool) -> tuple[mpmath.mpf, mpmath.mpf]:
            m, mx = part(x0, x1)
            mass, mom = m, mx - e / c * m
            if with_atom:
                mass, mom = mass + atom, mom + atom * (c - e / c)
            return mass, mom

        def next_point(b: mpmath.mpf) -> mpmath.mpf:
            return mpmath.floor(b / hh) + 1

        lmax = c - e / c

        def last_groups(mass: mpmath.mpf, mom: mpmath.mpf) -> list[tuple[mpmath.mpf, mpmath.mpf]]:
            """The rest of the law (mass, moment; it contains the whole atom at lmax): a part beta of the atom is
            split off so that the remainder's mean is >= the lattice point t0 just below the rest's mean; the
            remainder goes to t0, the split-off atom part down to the lattice point below lmax."""
            if mass <= 0:
                return []
            mean = mom / mass
            t0 = mpmath.floor(mean / hh)
            top = mpmath.floor(lmax / hh)
            if lmax > t0 * hh:
                beta = mass * (mean - t0 * hh) / (lmax - t0 * hh) * (1 - mpmath.mpf(10) ** -20)
                if 0 <= beta <= atom and (mom - beta * lmax) >= t0 * hh * (mass - beta):
                    return [(mass - beta, t0), (beta, top)]
            return [(mass, t0)]

        lo_c = 1 / c
        # Phase 1: right side. Start: the atom at lmin.
        xr, atom_r = c, True
        b = 1 / c - e * c  # current lower edge of the remaining L law
        t = mpmath.ceil(b / hh)
        while True:
            target = t * hh
            full_mass, full_mom = right_moments(xr, lo_c, atom_r)
            if full_mom < target * full_mass:  # the rest of the right side cannot reach the point: junction
                break
            # Find x_new in [1/c, xr] with mean over [x_new, xr] (+atom) equal to target, by bisection on the
            # mean (increasing as x_new decreases: more mass at higher L); keep the end whose mean >= target.
            if not atom_r:
                # Closed form: mean of X on [x_new, xr] is sqrt(x_new xr) = (1/c - target)/e.
                tx = (1 / c - target) / e
                x_new = tx * tx / xr * (1 - mpmath.mpf(10) ** -25)  # a bit lower: mean of L a bit higher
                x_new = max(x_new, lo_c)
            else:
                low, high = lo_c, xr
                for _ in range(100):
                    mid = (low + high) / 2
                    mass, mom = right_moments(xr, mid, True)
                    if mom >= target * mass:
                        low = mid
                    else:
                        high = mid
                x_new = low
            mass, mom = right_moments(xr, x_new, atom_r)
            if not mom >= target * mass:
                raise ParameterError("lower lattice law", float(target), "a group whose mean reaches its point")
            groups.append((mass, t))
            xr, atom_r = x_new, False
            b = 1 / c - e * x_new
            t = next_point(b)
            if x_new <= lo_c:
                xr = lo_c
                break
        # Phase 2: the junction group (rest of the right side + start of the left side), then the left side.
        # The atom at lmax is kept for a final group [x_last, c) + atom whose mean is exactly the lattice point
        # `top` just below lmax (mean of X on [s^2, c) + atom = 2 s sqrt(c) - s^2; s rounded up: mean >= it).
        rest_mass, rest_mom = right_moments(xr, lo_c, atom_r)
        xl = lo_c
        top = mpmath.floor(lmax / hh)
        t_x = top * hh + e / c
        x_last = c
        if t_x <= c:
            s_last = (rc - mpmath.sqrt(c - t_x)) * (1 + mpmath.mpf(10) ** -25)
            x_last = min(max(s_last * s_last, lo_c), c)
        final_mass, final_mom = left_moments(x_last, c, True)
        if not final_mom >= top * hh * final_mass or x_last <= lo_c:
            x_last = c  # no such group: the rest is handled by last_groups
        t = max(t, next_point(b))
        while True:
            target = t * hh
            full_mass, full_mom = left_moments(xl, x_last, x_last >= c)
            tot_mass, tot_mom = rest_mass + full_mass, rest_mom + full_mom
            if tot_mom < target * tot_mass or tot_mass <= 0:  # the rest cannot reach the next point
                if x_last >= c:
                    groups.extend(last_groups(tot_mass, tot_mom))
                else:
                    groups.extend(leftover_groups(tot_mass, tot_mom, final_mass, top, hh))
                break
            if rest_mass == 0:
                tx = target + e / c  # mean of X on [xl, x1] is sqrt(xl x1)
                x1 = tx * tx / xl * (1 + mpmath.mpf(10) ** -25)
            else:
                low, high = xl, x_last
                for _ in range(100):
                    mid = (low + high) / 2
                    mass, mom = left_moments(xl, mid, False)
                    if rest_mom + mom >= target * (rest_mass + mass):
                        high = mid
                    else:
                        low = mid
                x1 = high
            if x1 >= x_last:  # cannot happen when the full rest reaches the target, but stay safe
                x1 = x_last
            mass, mom = left_moments(xl, x1, x1 >= c)
            mass, mom = rest_mass + mass, rest_mom + mom
            if not mom >= target * mass:
                raise ParameterError("lower lattice law", float(target), "a group whose mean reaches its point")
            groups.append((mass, t))
            rest_mass, rest_mom = mpmath.mpf(0), mpmath.mpf(0)
            xl = x1
            if xl >= x_last:
                if x_last < c:
                    groups.append((final_mass, top))
                break
            t = next_point(x1 - e / c)
        lo, w = lattice_law(groups)
    return lo, w * (1 - MASS_MARGIN)


# --- the tilted convolution ---------------------------------------------------------------------------


def _step(law: _Law) -> float:
    """The lattice step for L."""
    return lattice_step(law.moments()[1])


# Lattice steps per standard deviation of the TILTED per-user law for the upper end (module doc, "The upper end's
# step"), and the most lattice points of L's law that step may reach.
TILTED_STEPS = 2
MAX_UPPER_POINTS = 2**20
# Above this eps0 one step per tilted standard deviation (the lattice of L is long there: half the time per
# evaluation, the upper end about 1e-4 looser, measured at eps0 = 8, n = 1e3).
FINE_STEPS_MAX_EPS0 = 4.0
# Above this eps0 the root search runs in two phases (`exact_blanket_laplace_epsilon`), with at most
# LOWER_END_EVALUATIONS evaluations of the lower end in the second: at every eps0 (module doc).
TWO_PHASE_MIN_EPS0 = 0.0
LOWER_END_EVALUATIONS = 4
# tight = "both" (`audit bound`): the lower end is searched also where the upper end is eps0, with this many
# evaluations (an audit's acceptance interval starts at it: a claim above it passes).
TIGHT_LOWER_END_EVALUATIONS = 12


def _upper_step(law: _Law, h: float, gamma: float, steps: int = TILTED_STEPS) -> float:
    """The upper end's step: the smaller of h and the tilted law's step (`tilted_step`, recomputed on its own
    lattice while it keeps halving), at least (lmax - lmin) / MAX_UPPER_POINTS. Uncertified: tightness only."""
    step = h
    floor_step = 2.0 ** math.ceil(math.log2((law.lmax - law.lmin) / MAX_UPPER_POINTS))
    for _ in range(4):
        offset, w = _spread_masses(law, step)
        finer = max(tilted_step(offset, w, gamma, step, steps), floor_step)
        if not finer < step:
            break
        step = finer
    return step


def _brackets(eps0: float, n: int) -> tuple[float, float, float, float]:
    """(gamma_lo, gamma_hi, log_norm_lo, log_norm_hi): gamma = e^{-eps0/2} bracketed, and log(1/(gamma n)) bracketed."""
    gamma = math.exp(-eps0 / 2)
    gamma_lo, gamma_hi = gamma * (1 - 4 * UNIT), gamma * (1 + 4 * UNIT)
    log_norm_hi = -math.log(gamma_lo * n) + 4 * UNIT * abs(math.log(gamma_lo * n))
    log_norm_lo = -math.log(gamma_hi * n) - 4 * UNIT * abs(math.log(gamma_hi * n))
    return gamma_lo, gamma_hi, log_norm_lo, log_norm_hi


def _delta_upper(eps0: float, n: int, eps: float) -> float:
    """The certified upper end of delta(eps) (spread law on the upper end's step, TILTED_STEPS per tilted standard
    deviation up to eps0 = FINE_STEPS_MAX_EPS0, one beyond; inputs past the edges)."""
    law = _Law(math.exp(eps0 / 2), math.exp(eps))
    gamma_lo, gamma_hi, _, log_norm_hi = _brackets(eps0, n)
    h_up = _upper_step(law, _step(law), gamma_hi, TILTED_STEPS if eps0 <= FINE_STEPS_MAX_EPS0 else 1)
    offset, w_up = _spread_masses(law, h_up)
    log_up = log_positive_part_expectation(offset, w_up, (gamma_lo, gamma_hi), h_up, n, True, eps0)
    return 1.0 if log_up + log_norm_hi >= 0 else min(1.0, math.exp(log_up + log_norm_hi) * (1 + EXP_MARGIN))


def _delta_lower(eps0: float, n: int, eps: float) -> float:
    """The certified lower end of delta(eps) (the lower groups on the variance's step; inputs past the edges)."""
    law = _Law(math.exp(eps0 / 2), math.exp(eps))
    gamma_lo, gamma_hi, log_norm_lo, _ = _brackets(eps0, n)
    h = _step(law)
    offset_lo, w_lo = _lower_masses(law, h, eps0, eps)
    log_lo = log_positive_part_expectation(offset_lo, w_lo, (gamma_lo, gamma_hi), h, n, False, eps0)
    return 0.0 if log_lo == -math.inf else math.exp(log_lo + log_norm_lo) * (1 - EXP_MARGIN)


def exact_blanket_laplace_delta(*, eps0: float, n: int, eps: float) -> BoundValue:
    """BBGN19.Lem5.3.exact_laplace: a certified interval of Lemma 5.3's delta(eps) for n shuffled reports of
    the Laplace mechanism on [0, 1] (pair (0, 1), module doc), evaluated without relaxation. Range: see the
    module doc; 0 <= eps."""
    edge = laplace_delta_at_edges(eps0=eps0, n=n, eps=eps)
    if edge is not None:
        return edge
    upper = _delta_upper(eps0, int(n), eps)
    try:
        lower = _delta_lower(eps0, int(n), eps)
    except ParameterError:  # the lower groups' float check failed (eps0 = 8, n = 1e6 at some eps): 0 is a lower end
        lower = 0.0
    return BoundValue(min(lower, upper), upper, direction="upper_bound")


def laplace_delta_at_edges(*, eps0: float, n: int, eps: float) -> BoundValue | None:
    """The inputs of a delta(eps) of this module and of `shuffle_spec.reference.lower_bounds.laplace` validated (eps0, n as
    in `check_laplace_inputs`, eps >= 0), and its value where it needs no lattice: [0, 0] for eps >= eps0 (every
    summand, L here or Z there, is <= 0: the positive part vanishes), [0, 1] at eps = 0 (a mixture of
    divergences, <= 1); None otherwise."""
    check_laplace_inputs(eps0, n, 0.5)
    require_positive("eps", eps, allow_zero=True)
    if eps >= eps0:
        return BoundValue(0.0, 0.0, direction="exact")
    if eps == 0 or eps0 < MIN_EPS0:
        return BoundValue(0.0, 1.0, direction="exact")
    return None


def single_report_epsilon(eps0: float, delta: float) -> BoundValue:
    """n = 1: Lemma 5.3's expression is E[L_+] = 1 - e^{(eps - eps0)/2} (the Laplace mechanism's own profile for
    inputs 0 vs 1; proofs_checks/derived/blanket_exact_laplace.py), so eps = max(0, eps0 + 2 log(1 - delta)), evaluated at 40
    digits and bracketed outward. The lattice path gives an interval around the same value (tested)."""
    check_laplace_inputs(eps0, 1, delta)
    with mpmath.workdps(40):
        exact = max(mpmath.mpf(0), mpmath.mpf(eps0) + 2 * mpmath.log(1 - mpmath.mpf(delta)))
        value = float(exact)
        low = value if value <= exact else math.nextafter(value, -math.inf)
        high = value if value >= exact else math.nextafter(value, math.inf)
    return BoundValue(max(low, 0.0), min(high, float(eps0)), direction="exact")


def exact_blanket_laplace_epsilon(*, eps0: float, n: int, delta: float, tight: str = "upper") -> BoundValue:
    """BBGN19.Lem5.3.exact_laplace: the smallest eps with Lemma 5.3's exact delta(eps) <= delta for n shuffled
    eps0-LDP Laplace reports on [0, 1], as a certified interval (value = its upper end, verified); eps0 with a
    note when none below eps0 is. `tight` = "upper" (default): the interval's lower end from LOWER_END_EVALUATIONS
    evaluations below the upper end, 0 where the upper end is eps0; "both" (what `audit bound` asks, whose acceptance
    interval starts at the lower end): also searched where the upper end is eps0, with TIGHT_LOWER_END_EVALUATIONS
    evaluations; refused below MIN_EPS0 at n >= 2 (only [0, eps0] is certified there). The upper end is the same
    float either way. Range: 0 < eps0 <= 8, 1 <= n <= 1e6, 1e-300 <= delta < 1, tight in {"upper", "both"}."""
    check_laplace_inputs(eps0, n, delta)
    if tight not in ("upper", "both"):
        raise ParameterError("tight", tight, "'upper' or 'both'")
    if int(n) == 1:
        return single_report_epsilon(eps0, delta).in_direction("upper_bound")
    if eps0 < MIN_EPS0:
        if tight == "both":
            # [0, eps0] is certified but not narrowed (the lattice is not built below MIN_EPS0): refused rather than
            # returned wide, as exact_blanket_krr_epsilon does (an audit would accept claims far below the value).
            raise ParameterError("eps0", eps0, f"eps0 >= {MIN_EPS0:g} for tight='both' at n >= 2 (below it only [0, eps0] is certified)")
        return BoundValue(0.0, float(eps0), f"{NO_AMPLIFICATION} ({TINY_EPS0})", direction="upper_bound")

    def bounds(eps: float) -> tuple[float, float]:
        value = exact_blanket_laplace_delta(eps0=eps0, n=n, eps=eps)
        return value.lower, value.upper

    hint = None
    try:
        from .bennett import bennett_laplace_epsilon

        hint = bennett_laplace_epsilon(eps0=eps0, n=n, delta=delta).value
    except ValueError:
        hint = None
    if eps0 <= TWO_PHASE_MIN_EPS0:
        lower, upper, found = solve_certified_epsilon(bounds, eps0=eps0, delta=delta, rel_tol=EPS_REL_TOL, hint=hint)
        return BoundValue(lower, upper, "" if found else NO_AMPLIFICATION, direction="upper_bound")
    # Beyond, the upper end's step is often much finer than the lower groups' (module doc, "The upper end's step"):
    # the lower end of delta lags far behind, and chasing its root took most of the evaluations (22 at eps0 = 8,
    # n = 1e3). Two phases: the upper end (the statement's value) from the upper ends alone, then a few
    # evaluations of the lower end below it for the interval's lower end.
    uppers: dict[float, float] = {}

    def upper_only(eps: float) -> tuple[float, float]:
        if eps not in uppers:
            edge = laplace_delta_at_edges(eps0=eps0, n=n, eps=eps)
            uppers[eps] = edge.upper if edge is not None else _delta_upper(eps0, int(n), eps)
        return 0.0, uppers[eps]

    def lower_only(eps: float) -> float:
        edge = laplace_delta_at_edges(eps0=eps0, n=n, eps=eps)
        return edge.lower if edge is not None else _delta_lower(eps0, int(n), eps)

    _, upper, found = solve_certified_epsilon(upper_only, eps0=eps0, delta=delta, rel_tol=EPS_REL_TOL, hint=hint, tight="upper")
    near = sorted((abs(x - upper), x) for x, v in uppers.items() if 0 < v < 1)[:2]
    slope = None
    if len(near) == 2 and near[0][1] != near[1][1]:
        (_, x1), (_, x2) = near
        slope = (math.log(uppers[x2]) - math.log(uppers[x1])) / (x2 - x1)
    if tight == "both":
        # Also where the upper end is eps0 (no amplification certified): the audit's acceptance interval starts here.
        lower = lower_end_search(lower_only, upper, delta, slope=slope, rel_tol=EPS_REL_TOL, evaluations=TIGHT_LOWER_END_EVALUATIONS)
    else:
        lower = lower_end_search(lower_only, upper, delta, slope=slope, rel_tol=EPS_REL_TOL, evaluations=LOWER_END_EVALUATIONS) if upper < eps0 else 0.0
    return BoundValue(lower, upper, "" if found else NO_AMPLIFICATION, direction="upper_bound")


def exact_blanket_laplace_epsilon_mp(*, dps: int, eps0: float, n: int, delta: float) -> tuple[mpmath.mpf, mpmath.mpf]:
    """High-precision value of BBGN19.Lem5.3.exact_laplace (COMMON protocol): at n = 1 Lemma 5.3's expression is
    E[L_+] = 1 - e^{(eps - eps0)/2} (E[(X - a)_+] = 2 - 2 sqrt(a/c) on [1/c, c]; the right side is never positive;
    proofs_checks/derived/blanket_exact_laplace.py), so eps = max(0, eps0 + 2 log(1 - delta)) exactly; ValueError (outside the
    high-precision range) for n > 1."""
    return single_report_epsilon_mp(dps=dps, eps0=eps0, n=n, delta=delta, statement=STATEMENT)


def single_report_epsilon_mp(*, dps: int, eps0: float, n: int, delta: float, statement: str) -> tuple[mpmath.mpf, mpmath.mpf]:
    """eps = max(0, eps0 + 2 log(1 - delta)) at `dps` digits, exact (a point interval): the eps of one Laplace report
    on [0, 1] (profile 1 - e^{(eps - eps0)/2}), the n = 1 value of `statement` (this module's and
    exact.laplace_pair_x0's high-precision path); ValueError (outside the high-precision range) for n > 1."""
    check_laplace_inputs(eps0, n, delta)
    if int(n) != 1:
        raise ValueError(f"n = {n} is outside the high-precision range of {statement} (n = 1)")
    with mpmath.workdps(dps):
        value = max(mpmath.mpf(0), mpmath.mpf(eps0) + 2 * mpmath.log(1 - mpmath.mpf(delta)))
        return value, value
