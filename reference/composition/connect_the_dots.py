"""A dominating pair from certified upper bounds of a worst-case privacy profile ("connect the dots",
Doroshenko, Ghazi, Kamath, Kumar, Manurangsi, PETS 2022, Sec. 3, here fed with upper bounds instead of exact
values).

Input: grid nodes 0 = eps_0 < eps_1 < ... < eps_m (multiples of a power-of-2 step h) and numbers h_i with
h_i >= delta*(eps_i) := sup over ordered neighbouring pairs (D, D') of H_{e^eps_i}(M(D) || M(D')), where
H_alpha(P || Q) = sum_y (P(y) - alpha Q(y))_+ is the hockey-stick divergence. The neighbouring relation must be
symmetric (replace one user's input, as every statement of the project) unless the reversed family's values
are given too. Optionally eps0 with delta*(eps0) = 0 (every shuffled eps0-LDP round is eps0-DP).

Output: an explicit pair (P', Q') on the losses h Z (plus a P'-atom at loss +inf and a Q'-atom at -inf) with
H_alpha(M(D) || M(D')) <= H_alpha(P' || Q') for EVERY alpha > 0 and every ordered neighbouring pair: a
dominating pair in the sense of Zhu, Dong, Wang (AISTATS 2022, Def. 7). The argument (its steps are checked
in `proofs_checks/derived/compose_mechanism.py`):

C1 (standard) For any pair, alpha -> H_alpha(P || Q) is convex and non-increasing on alpha >= 0 with H(0) = 1
   and H(alpha) >= (1 - alpha)_+. A supremum of such functions has the same properties, so delta* does.
C2 (standard) H_alpha(P || Q) = 1 - alpha + alpha H_{1/alpha}(Q || P). For a symmetric relation the family of
   ordered pairs is closed under reversal, so for eps < 0: delta*(eps) = 1 - e^eps + e^eps delta*(-eps), an
   increasing function of delta*(-eps): an upper bound at -eps gives one at eps.
C3 (the connect-the-dots argument with upper bounds) Let H be convex and piecewise linear on [0, inf) with
   H(0) = 1, breakpoints alpha_v and H(alpha_v) >= delta*(alpha_v), constant beyond its last breakpoint. Then
   H >= delta* on (0, inf): between adjacent breakpoints H is the chord through values >= delta* at both ends
   and delta* is convex (C1), so delta* <= its own chord <= H; beyond the last breakpoint delta* is
   non-increasing. Only the breakpoints' values are used: the lower convex hull of the points (0, 1) and
   (alpha_i, h_i) is such an H (its vertices carry values h_v) and the smallest one; the h_i need not be
   convex themselves (upper bounds of a convex function rarely are). A running minimum along increasing alpha
   keeps every h_i an upper bound (delta* is non-increasing).
C4 (algebra) Every such H with first slope >= -1 and last slope <= 0 is the curve of the pair with
   Q'(v) = (slope right of v) - (slope left of v) >= 0 at each breakpoint (loss log alpha_v),
   P'(v) = alpha_v Q'(v), P'(+inf) = H(alpha_last), Q'(-inf) = 1 - sum_v Q'(v): H_alpha(P' || Q') =
   P'(+inf) + sum_v Q'(v) (alpha_v - alpha)_+, and H(0) = 1 makes P' a probability distribution.
C5 Hence H_alpha(M(D) || M(D')) <= delta*(alpha) <= H(alpha) = H_alpha(P' || Q') for all alpha > 0 and all
   ordered neighbours: (P', Q') dominates one round. Dominating pairs compose under ADAPTIVE composition
   (Zhu, Dong, Wang 2022, Thm 10; equivalently Dong, Roth, Su 2019/2022, Prop. 2.12 and Thm 3.2 through the
   trade-off function of (P', Q'), which lies below every T(M(D), M(D'))), so the product of the per-round
   pairs dominates T rounds whose mechanisms are chosen after seeing earlier outputs, as long as each round's
   pair is fixed in advance (it depends only on the round's (eps0, n), not on the data).

Numerics: the hull and the masses at DPS digits (mpmath), then every claim that C3 and C4 need is re-verified
in interval arithmetic (mpmath.iv): each kink Q'(v) certifiably > 0, H(alpha_v) >= h_v, H(0) = 1, first slope
>= -1, last slope <= 0; a breakpoint whose kink is not certifiably positive is removed (that only raises H,
so C3 still holds). The float masses are the intervals' upper ends rounded outward: the engine's pessimistic
path (`reference/numerics/pld.py`) needs only upper bounds of the P' masses at exact grid losses.
Written by hand: dp_accounting's `from_privacy_parameters`-style connect-the-dots takes exact profile values
in floats and certifies neither the hull nor the masses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import mpmath
import numpy as np
from mpmath.ctx_iv import MPIntervalContext

from ..core.errors import ParameterError
from ..numerics.pld import GridPLD

__all__ = ["DominatingPair", "connect_the_dots"]

DPS = 50
# Each hull vertex is raised by this much (an absolute amount far below any delta that matters) so that a node
# lying on a chord up to the 50-digit rounding still sits below H.
RAISE = mpmath.mpf(10) ** -45
# A kink must be certifiably above this to stay a breakpoint (removing a breakpoint only raises H).
KINK_MIN = mpmath.mpf(10) ** -38


@dataclass(frozen=True)
class DominatingPair:
    """The pair (P', Q') of the module doc: P'(index[j] * step) <= p_mass[j], Q'(index[j] * step) <= q_mass[j]
    (upper bounds, rounded outward), P'(+inf) <= inf_mass, Q'(-inf) <= q_inf; losses log(P'/Q') are the grid
    values index * step exactly (step a power of 2). eps0: the largest finite loss bound of the round (the
    composition's fallback, basic composition)."""

    step: float
    index: np.ndarray
    p_mass: np.ndarray
    q_mass: np.ndarray
    inf_mass: float
    q_inf: float
    eps0: float

    def grid_pld(self, step: float | None = None) -> GridPLD:
        """The pessimistic grid PLD of P' for the certified FFT engine, on `step` (a power of 2 dividing this
        pair's step: the losses stay exact grid values, nothing is rounded)."""
        step = self.step if step is None else step
        ratio = self.step / step
        if ratio < 1 or ratio != int(ratio) or math.frexp(step)[0] != 0.5:
            raise ParameterError("step", step, f"a power of 2 that divides the pair's step {self.step!r}")
        index = self.index * int(ratio)
        lo, hi = int(index.min()), int(index.max())
        masses = np.zeros(hi - lo + 1)
        np.add.at(masses, index - lo, self.p_mass)  # distinct indices: no sum, no rounding
        return GridPLD(step, lo, masses, float(self.inf_mass), True, float(self.eps0))

    def delta(self, eps: float) -> float:
        """H_{e^eps}(P' || Q') in floats (uncertified: plots and comparisons only)."""
        loss = self.index * self.step
        terms = np.where(loss > eps, self.p_mass * -np.expm1(np.minimum(eps - loss, 0.0)), 0.0)
        return float(self.inf_mass + np.sum(terms))

    def renyi_divergence(self, order: float) -> float:
        """D_order(P' || Q') from the masses' upper ends (order > 1): E_{Q'}[(P'/Q')^order] summed over the atoms
        in log space; +inf when P' has an atom at +inf. The masses are upper bounds of a pair whose totals are 1,
        so this sum is an upper bound of the sum of the exact pair (each term is increasing in its masses as
        written, q^(1-order) p^order = q e^{order L} with the loss L exact): an upper bound of the pair's Renyi
        divergence, up to the float error of the log-sum-exp (a relative 1e-12 margin is added)."""
        if not order > 1:
            raise ParameterError("order", order, "a Renyi order > 1")
        if self.inf_mass > 0:
            return math.inf
        loss = self.index * self.step
        logs = np.log(self.q_mass) + order * loss
        top = float(np.max(logs))
        total = top + math.log(float(np.sum(np.exp(logs - top))))
        total = total + 1e-12 * abs(total) + 1e-15
        return max(total, 0.0) / (order - 1)


def _precision(*families: Sequence[float]) -> tuple[int, mpmath.mpf, mpmath.mpf]:
    """(digits, raise, kink minimum) of the hull for the upper bounds of each family (forward, reverse): DPS, RAISE,
    KINK_MIN while each family's positive values but its smallest are >= 1e-30 (an envelope stops at its first node
    below its floor, by any amount: the others lie above the floor, 1e-17 by default); each decade below adds a digit
    and lowers RAISE and KINK_MIN tenfold, so the margins stay those of the default relative to the floor (an
    envelope floored at 1e-55 for delta = 1e-50 is no longer cut at the kink minimum 1e-38, which put ~1e-44 at
    +inf). Tightness only: any precision, raise >= the hull's rounding and kink minimum > 0 keep C3-C5."""
    scale = 1.0
    for values in families:
        positive = sorted(v for v in values if v > 0)
        scale = min(scale, positive[1] if len(positive) > 1 else (positive[0] if positive else 1.0))
    extra = max(0, -math.floor(math.log10(scale)) - 30)
    return DPS + extra, RAISE * mpmath.mpf(10) ** -extra, KINK_MIN * mpmath.mpf(10) ** -extra


@lru_cache(maxsize=16)
def _interval_context(digits: int) -> MPIntervalContext:
    """A private mpmath interval context at `digits` decimal digits (set as `mpmath.iv.dps = digits` sets them: the
    same precision). Not the global `mpmath.iv`, which is the caller's: setting its precision here left a caller's
    interval arithmetic at 169 bits instead of 53 after one composition. Shared per precision; nothing changes it."""
    iv = MPIntervalContext()
    iv.dps = digits
    return iv


def _lower_hull(xs: Sequence[mpmath.mpf], ys: Sequence[mpmath.mpf]) -> list[int]:
    """Indices of the lower convex hull of points sorted by x (Andrew's monotone chain at DPS digits; the
    result is re-checked in interval arithmetic by the caller, so this only has to be nearly right)."""
    hull: list[int] = []
    for i in range(len(xs)):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            cross = (xs[b] - xs[a]) * (ys[i] - ys[a]) - (ys[b] - ys[a]) * (xs[i] - xs[a])
            if cross <= 0:  # b on or above the chord a-i: not a vertex of the lower hull
                hull.pop()
            else:
                break
        hull.append(i)
    return hull


def connect_the_dots(step: float, eps_nodes: Sequence[float] | np.ndarray, h_upper: Sequence[float] | np.ndarray, *,
                     eps0: float | None = None, h_reverse: Sequence[float] | np.ndarray | None = None) -> DominatingPair:
    """The dominating pair of the module doc (C1-C5) from upper bounds h_upper[i] >= delta*(eps_nodes[i]):
    eps_nodes[0] = 0, ascending multiples of `step` (a power of 2), values in [0, 1]. eps0: the round is
    eps0-DP (delta*(eps0) = 0; a node at the first grid point >= eps0 closes the curve). h_reverse: upper
    bounds of the reversed family's profile at the same nodes (C2 fixes the negative half from it); None for a
    symmetric neighbouring relation (replace-one), where it equals h_upper."""
    if not (step > 0 and math.isfinite(step) and math.frexp(step)[0] == 0.5):
        raise ParameterError("step", step, "a positive power of 2")
    nodes = np.asarray(eps_nodes, dtype=float)
    values = np.asarray(h_upper, dtype=float)
    if nodes.ndim != 1 or len(nodes) == 0 or values.shape != nodes.shape:
        raise ParameterError("eps_nodes", len(nodes), "a non-empty list of nodes with one upper bound each")
    index = np.rint(nodes / step).astype(np.int64)
    if index[0] != 0 or np.any(np.diff(index) <= 0) or np.any(index * step != nodes):
        raise ParameterError("eps_nodes", nodes[:3].tolist(), "0 first, then ascending exact multiples of step")
    if not np.all((values >= 0) & (values <= 1)):
        raise ParameterError("h_upper", values.tolist()[:3], "upper bounds of delta in [0, 1]")
    reverse = values if h_reverse is None else np.asarray(h_reverse, dtype=float)
    if reverse.shape != values.shape or not np.all((reverse >= 0) & (reverse <= 1)):
        raise ParameterError("h_reverse", len(reverse), "one upper bound in [0, 1] per node")
    # C1: delta* is non-increasing, so a running minimum keeps every value an upper bound.
    forward = np.minimum.accumulate(values)
    reverse = np.minimum.accumulate(reverse)
    grid = [int(i) for i in index]
    fwd = [float(v) for v in forward]
    rev = [float(v) for v in reverse]
    if eps0 is not None:
        top = int(math.ceil(eps0 / step))  # a grid point >= eps0: delta* = 0 there (non-increasing, >= 0)
        if top * step < eps0:
            top += 1
        if top > grid[-1]:
            grid.append(top)
            fwd.append(0.0)
            rev.append(0.0)
    digits, raise_by, kink_min = _precision(fwd, rev)
    iv = _interval_context(digits)
    with mpmath.workdps(digits):
        # C2: node -i carries the upper end of 1 - e^{-eps_i} + e^{-eps_i} h_rev(eps_i).
        points = [(g, mpmath.mpf(v)) for g, v in zip(grid, fwd, strict=True)]
        for g, v in zip(grid[1:], rev[1:], strict=True):
            e = iv.exp(-iv.mpf(g) * iv.mpf(step))
            points.append((-g, mpmath.mpf((1 - e + e * iv.mpf(v)).b)))
        points.sort()
        locations = [p[0] for p in points]
        xs = [mpmath.mpf(0)] + [mpmath.exp(g * mpmath.mpf(step)) for g in locations]
        ys = [mpmath.mpf(1)] + [p[1] for p in points]
        for j in range(1, len(ys)):  # C1: non-increasing in alpha
            ys[j] = min(ys[j], ys[j - 1])
        if ys[-1] == 0:  # beyond the first zero delta* is 0: later points add nothing (H stays flat at 0)
            first_zero = ys.index(mpmath.mpf(0))
            xs, ys, locations = xs[: first_zero + 1], ys[: first_zero + 1], locations[:first_zero]
        vertices = _lower_hull(xs, ys)[1:]
    # Certification in interval arithmetic (module doc, Numerics).
    x_iv = [iv.mpf(0)] + [iv.exp(iv.mpf(g) * iv.mpf(step)) for g in locations]
    # H's value at each vertex: the upper bound raised a little (an exact 0 stays 0: delta* is 0 there).
    y_iv = [iv.mpf(y) + raise_by if y > 0 else iv.mpf(0) for y in ys]
    while True:
        chain = [0] + vertices
        slopes = []
        for a, b in zip(chain[:-1], chain[1:], strict=True):
            start = iv.mpf(1) if a == 0 else y_iv[a]
            slopes.append((y_iv[b] - start) / (x_iv[b] - x_iv[a]))
        slopes.append(iv.mpf(0))  # flat beyond the last vertex
        kinks = [slopes[t + 1] - slopes[t] for t in range(len(vertices))]
        bad = [t for t, q in enumerate(kinks) if not q.a > kink_min]
        if not bad or len(vertices) == 1:
            break
        del vertices[bad[0]]
    if not slopes[0].a >= -1:
        raise ParameterError("h_upper", fwd[:3], "values whose hull starts with slope >= -1 (delta*(alpha) >= 1 - alpha)")
    if not kinks[-1].a >= 0 or not all(q.a >= 0 for q in kinks):
        raise ParameterError("h_upper", fwd[:3], "values with a certified convex hull")
    # C4: masses.
    q = kinks
    p = [x_iv[v] * q[t] for t, v in enumerate(vertices)]
    # P'(+inf) = H(alpha_last) (C4): 0 when the curve reaches 0 at its last vertex (the eps0 node).
    inf_mass = y_iv[vertices[-1]]
    total = sum(p, iv.mpf(0)) + inf_mass
    if not abs(total.mid - 1) < mpmath.mpf(10) ** (-digits + 10):
        raise ParameterError("h_upper", fwd[:3], "values whose dominating pair has total mass 1")

    def up(z: object) -> float:
        return float(mpmath.mpf(z.b)) * (1 + 2.0**-50)  # type: ignore[attr-defined]

    q_inf = 1 - sum(q, iv.mpf(0))
    return DominatingPair(
        float(step),
        np.array([locations[v - 1] for v in vertices], dtype=np.int64),
        np.array([up(z) for z in p]),
        np.array([up(z) for z in q]),
        up(inf_mass) if inf_mass.b > 0 else 0.0,
        up(q_inf) if q_inf.b > 0 else 0.0,
        float(eps0) if eps0 is not None else float(max(grid) * step),
    )
