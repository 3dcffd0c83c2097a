"""Certified adaptive composition of T rounds each dominated by a pair (P', Q') OR by its reverse (Q', P'):
the tighter upper end of `compose.binary_rr` (module doc of `mechanism_rounds`, U5).

Why: one dominating pair per round must dominate every ordered neighbouring pair, and the neighbouring
relation (replace one user's input) is symmetric, so its profile is the SYMMETRISED worst case
max(delta_fwd, delta_rev) on both sides (`connect_the_dots`, C2). Shuffled binary RR is asymmetric: with k ones
among the others, (P_k, Q_k) has a much heavier upper tail than its reverse (Q_k, P_k) = (P_{n-1-k}, Q_{n-1-k})
(up to relabelling the outputs). Composing the symmetrised pair T times charges every round the heavy tail on
both sides: at eps0 = 4, n = 1e4, T = 1000, delta = 1e-6 it gives 13.33 even with exact profile values, while
composing the exact forward pair gives 13.09. Here each round may be either direction, chosen adaptively, and
the composition is computed by dynamic programming instead of one FFT power.

Setting: a family F of ordered pairs of output laws (one round's ordered neighbouring pairs) that splits as
F = F_1 u F_2 with every member of F_1 dominated by A = (P', Q') and every member of F_2 by B = (Q', P'), where
"dominated" means H_alpha(P || Q) <= H_alpha(A) for every alpha > 0 (Zhu, Dong, Wang, AISTATS 2022, Def. 7).
Binary RR (`mechanism_rounds`): F_1 = {(P_k, Q_k): k >= floor(n/2)}; its forward profile is bounded by the
sweep's blocks meeting [floor(n/2), n-1], its reverse family {(Q_k, P_k)} = {(P_j, Q_j): j <= n-1-floor(n/2)}
(bit flip) by the blocks meeting [0, ceil(n/2)-1]; `connect_the_dots(..., h_reverse=...)` gives A. The other
members (P_k, Q_k), k < floor(n/2), are reverses of members of F_1, so B dominates them.

Statement (steps D1-D4, checked on exact instances in `proofs_checks/derived/compose_directional.py`). For T rounds run adaptively (round t's ordered pair chosen from F after seeing the
earlier outputs), the worst case V_T(eps) = sup H_{e^eps}(M(D) || M(D')) satisfies V_T <= W_T on the grid,
where W_0(e) = (1 - e^e)_+ and
    W_t(e) = max over X in {A, B} of [ X's mass at loss +inf + sum_j X(l_j) W_{t-1}(e - l_j) ].
D1 (chain rule) H_alpha(P1 x P2|y1 || Q1 x Q2|y1) = sum_{y1} P1(y1) H_{alpha e^{-l(y1)}}(P2|y1 || Q2|y1), l the
   first round's loss (P1(y1) = 0 contributes nothing; Q1(y1) = 0 gives H_0 = 1). Taking the supremum over the
   later rounds' choices, which may depend on y1: V_t(e) = sup over the first round's pair of
   sum_y P(y) V_{t-1}(e - l(y)), with V_0(e) = (1 - e^e)_+ (no rounds: a point mass against itself).
D2 (convexity) V_{t-1}, as a function of alpha = e^e, is a supremum of hockey-stick divergences, each convex in
   alpha (`connect_the_dots`, C1); so phi(r) = V_{t-1}(e + log r) is convex in r >= 0, and
   sum_y P(y) phi(Q(y)/P(y)) is an f-divergence-type functional of (P, Q), jointly convex and non-increasing
   under post-processing (data processing).
D3 (domination) Dominance in every hockey-stick divergence is Blackwell dominance of binary experiments
   (Blackwell 1953; Dong, Roth, Su 2022, Prop. 2.12 through trade-off functions): each member of F_1 is a
   post-processing of A, of F_2 of B. By D2 the sup over F of D1's sum is at most its max over {A, B}.
D4 (induction and numerics) W_{t-1} >= V_{t-1} at every grid point and the sum is monotone in the values, so
   W_t >= V_t. A's losses are exact multiples of the grid step (`connect_the_dots`), so no loss is rounded.
   Outside the window: below it W = 1 (V <= 1); above it W = W(top) (V is non-increasing in e). Each entry
   is a sum of at most K non-negative products (one shifted slice per atom), so its float value is within
   gamma_{K+1} relative of the exact sum (Higham, Accuracy and Stability, (3.5)); it is raised by that bound
   plus the rounding of the raise itself, then capped at 1 (V <= 1) and replaced by the running minimum from
   the left (V non-increasing). Off the grid (the last round's evaluation at any eps): V_{T-1} is convex in
   alpha, so the chord in alpha between the neighbouring grid values of W_{T-1} bounds it from above.
Hence `DirectionalComposition.delta(eps)` >= V_T(eps) for every eps, and the solver's upper end is a certified
upper bound on eps(delta) under adaptive composition of T rounds (replace-one, as the rounds' pairs).

Cost: T sequential convolutions of the window (N grid points) with A's and B's masses (K atoms each, the hull's vertices): O(T N K)
(the dominating-pair FFT of `numerics.pld` is O(N log N) once, but cannot take a maximum between rounds);
the caller coarsens the grid (coarser nodes of the envelope: still dominating) to keep T N K within a budget.
Written by hand: no library composes with a per-round maximum over dominating pairs (dp_accounting's and
Opacus's accountants compose one fixed pair per mechanism).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core.errors import ParameterError, require_integer
from ..numerics.binomial import UNIT
from .connect_the_dots import DominatingPair

__all__ = ["DirectionalComposition", "compose_directional"]


@dataclass(frozen=True)
class _Kernel:
    """One direction's masses on the grid: mass[u] at loss index (first + u), plus the +inf atom."""

    first: int
    mass: np.ndarray
    inf_mass: float


def _kernels(pair: DominatingPair, step: float, negligible: float = 0.0) -> tuple[_Kernel, _Kernel]:
    """The forward kernel (P' on the losses) and the backward one (Q' on the negated losses); atoms below
    `negligible` are moved to the loss +inf (W(-inf) = 1 >= W anywhere: the sum only grows)."""
    ratio = pair.step / step
    if ratio < 1 or ratio != int(ratio) or math.frexp(step)[0] != 0.5:
        raise ParameterError("step", step, f"a power of 2 that divides the pair's step {pair.step!r}")
    index = pair.index * int(ratio)
    lo, hi = int(index.min()), int(index.max())
    forward = np.zeros(hi - lo + 1)
    forward[index - lo] = pair.p_mass  # distinct indices
    backward = np.zeros(hi - lo + 1)
    backward[hi - index] = pair.q_mass  # the reverse pair: Q'-mass at loss -index
    out = []
    for first, mass, inf_mass in ((lo, forward, float(pair.inf_mass)), (-hi, backward, float(pair.q_inf))):
        small = (mass > 0) & (mass < negligible)
        if np.any(small) and not np.all(small | (mass == 0)):
            inf_mass = (inf_mass + float(np.sum(mass[small]))) * (1 + (int(np.sum(small)) + 2) * UNIT)
            mass = np.where(small, 0.0, mass)
        out.append(_Kernel(first, mass, inf_mass))
    return out[0], out[1]


@dataclass(frozen=True)
class DirectionalComposition:
    """W_{T-1} (module doc) on the grid (lo + i) step, i < len(values), and the two kernels: `delta(eps)` is a
    certified upper bound on the worst-case delta(eps) of the T adaptively composed rounds."""

    step: float
    lo: int
    values: np.ndarray
    kernels: tuple[_Kernel, _Kernel]
    rounds: int

    def _chord(self, x: np.ndarray) -> np.ndarray:
        """Upper bounds of V_{T-1} at real points x (module doc, D4): on [a0, a1] (adjacent grid points with
        a0 <= x < a1, checked exactly) the chord in alpha = e^x, V <= v W(a0) + w W(a1) with the weights
        w = (e^x - e^a0) / (e^a1 - e^a0) = expm1(x - a0) / expm1(h) and v = 1 - w = e^(x - a0) expm1(a1 - x) /
        expm1(h), each from differences of floats (relative error u) and rounded up; 1 below the window, the top
        value above it (V non-increasing)."""
        step = self.step
        pos = np.floor(x / step).astype(np.int64)
        pos = np.where(pos * step > x, pos - 1, pos)
        pos = np.where((pos + 1) * step <= x, pos + 1, pos)
        a0 = pos * step
        i = pos - self.lo
        below = i < 0
        above = i >= len(self.values) - 1
        ic = np.clip(i, 0, len(self.values) - 2)
        left, right = self.values[ic], self.values[ic + 1]
        z = np.maximum(x - a0, 0.0)
        y = np.maximum((a0 + step) - x, 0.0)
        scale = math.expm1(step)
        w = np.expm1(z) / scale * (1 + 16 * UNIT)
        v = np.exp(z) * np.expm1(y) / scale * (1 + 16 * UNIT)
        out = (v * left + w * right) * (1 + 4 * UNIT)
        out = np.where(below, 1.0, np.where(above, self.values[-1], out))
        return np.minimum(out, 1.0)

    def delta(self, eps: float) -> float:
        """Certified upper bound on V_T(eps) (module doc)."""
        best = 0.0
        for kernel in self.kernels:
            loss = (kernel.first + np.arange(len(kernel.mass))) * self.step
            x = float(eps) - loss
            x = x - 2 * UNIT * np.abs(x) - 5e-324  # at most the exact eps - loss (V is non-increasing)
            terms = kernel.mass * self._chord(x)
            total = float(np.sum(terms)) * (1 + (len(terms) + 4) * UNIT * 2)
            best = max(best, total + kernel.inf_mass * (1 + 2 * UNIT))
        return min(best, 1.0)


# Atoms further apart than this start a new group; the largest group is convolved as one dense block.
GAP = 16


def _split(atoms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the atoms of the largest group of close atoms, the others): the hull's vertices are dense around loss 0
    and sparse in the tails (speed only: both parts are summed)."""
    breaks = np.nonzero(np.diff(atoms) > GAP)[0] + 1
    groups = np.split(atoms, breaks)
    core = max(groups, key=len)
    return core, np.setdiff1d(atoms, core)


def _advance(values: np.ndarray, kernels: tuple[_Kernel, ...]) -> np.ndarray:
    """One round of D1-D4 on the window: W_t from W_{t-1}. new[i] = sum over the kernel's atoms d of
    mass(d) W_{t-1}(i - d): the dense group by one direct convolution (np.convolve: a sum of products per
    entry, zeros exact), the other atoms by one shifted slice each."""
    size = len(values)
    out = np.zeros(size)  # every kernel's sum is >= 0: the maximum starts at 0
    for kernel in kernels:
        atoms = np.nonzero(kernel.mass)[0]
        dmin = kernel.first + int(atoms.min())
        dmax = kernel.first + int(atoms.max())
        # W_{t-1} at window offsets -dmax .. size-1-dmin: 1 below the window, the top value above it.
        below = max(dmax, 0)
        above = max(-dmin, 0)
        ext = np.concatenate([np.ones(below), values, np.full(above, values[-1])])
        core, far = _split(atoms)
        c_lo, c_hi = int(core.min()), int(core.max())
        start = below - (kernel.first + c_hi)  # ext offset of window index 0 - (largest core loss)
        summed = np.convolve(ext[start:start + size + c_hi - c_lo], kernel.mass[c_lo:c_hi + 1], mode="valid")
        for u in far:
            start = below - (kernel.first + int(u))  # ext offset of window index 0 - d
            summed += kernel.mass[u] * ext[start:start + size]
        terms = (c_hi - c_lo + 1) + len(far)
        raised = (summed * (1 + 2 * (terms + 2) * UNIT) + kernel.inf_mass) * (1 + 2 * UNIT)
        out = np.maximum(out, raised)
    return np.minimum.accumulate(np.minimum(out, 1.0))


def compose_directional(pair: DominatingPair, *, rounds: int, step: float, lo: int, hi: int, negligible: float = 0.0) -> DirectionalComposition:
    """The dynamic programme of the module doc for `rounds` rounds, each dominated by `pair` or by its reverse,
    on the grid indices lo..hi of `step` (a power of 2 dividing the pair's step; lo < 0 < hi): W_{T-1} and
    the kernels, whose `delta(eps)` bounds the worst case from above. Atoms of mass below `negligible` are moved to
    the loss +inf (speed; the bound only grows). 1 <= rounds <= 1e6."""
    if not isinstance(pair, DominatingPair):
        raise ParameterError("pair", repr(pair)[:60], "a DominatingPair (connect_the_dots)")
    require_integer("rounds", rounds, minimum=1)
    if rounds > 10**6:
        raise ParameterError("rounds", rounds, "1 <= rounds <= 1e6")
    if not (isinstance(lo, int) and isinstance(hi, int) and lo < 0 < hi):
        raise ParameterError("lo", (lo, hi), "grid indices lo < 0 < hi")
    kernels = _kernels(pair, step, negligible)
    e = (lo + np.arange(hi - lo + 1)) * step
    # W_0 = (1 - e^e)_+ raised by the expm1 error (a few ulps).
    values = np.minimum(np.where(e < 0, -np.expm1(np.minimum(e, 0.0)), 0.0) * (1 + 8 * UNIT), 1.0)
    for _ in range(rounds - 1):
        values = _advance(values, kernels)
    return DirectionalComposition(float(step), lo, values, kernels, rounds)
