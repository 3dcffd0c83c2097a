"""Privacy-loss distributions on a grid, composed by FFT with certified error: the engine of every
composition and of the FFT-based blanket bounds.

A pair (P, Q) of distributions has the privacy-loss distribution of L = log(P/Q)(Y), Y ~ P (L = +inf where
Q = 0), and delta_P||Q(eps) = E[(1 - e^{eps - L})_+]; for a product pair, delta(eps) = E[(1 - e^{eps - S})_+]
with S = L_1 + ... + L_T, independent L_r (S = +inf if some L_r is). g(s) = (1 - e^{eps - s})_+ is
non-decreasing in s and lies in [0, 1]. Hence (the steps are checked in `proofs_checks/derived/compose.py`):

1. Pessimistic discretisation (`PairPLD.discretise`): replace each L_r by L'_r = h ceil(L_r / h) >= L_r (grid
   step h a power of 2, so the grid values are exact floats). Coupled, S' >= S, so E g(S') >= E g(S): an upper
   bound. Optimistic: h floor(L/h) <= L gives a lower bound. Mass whose loss is not represented (the tails of
   the binomial windows) goes to +inf (upper bound) or is dropped (lower bound: g >= 0).
2. Masses: the upper bound uses proven upper bounds on every probability (the convolution of non-negative
   measures is monotone in each of them, and g >= 0), the lower bound proven lower bounds.
3. Convolution by FFT (`compose`) on a window of N = 2^j grid points. The cyclic convolution equals the
   linear one plus the mass aliased from outside the window (non-negative): so the cyclic values are >= the
   true ones (upper bound unaffected) and exceed them by at most the mass outside (subtracted for the lower
   bound). That mass is bounded by Chernoff: Pr[S >= s] <= e^{-lam s} prod_r M_r(lam)^{T_r},
   Pr[S < s] <= e^{lam s} prod_r M_r(-lam)^{T_r}, M_r the moment generating function of the discretised
   (sub-probability) measure, minimised over a grid of lam.
4. Round-off of the FFT: we ASSUME numpy's pocketfft satisfies Higham's bound (Accuracy and Stability,
   Thm 24.2) ||fl(F x) - F x||_2 <= eps_f ||F x||_2, eps_f = C_FFT log2(N) u with C_FFT = 16 (about
   2.5 times Higham's eta/u = gamma_4 (sqrt(2) + mu)/u + mu/u ~ 5.7 + mu/u for twiddles accurate to mu ~ u;
   an ASSUMPTION about pocketfft, not proven here: checked against long-double FFTs in the tests). Powers
   z^T are taken by binary exponentiation (complex products have relative error <= sqrt(5) u, Brent,
   Percival, Zimmermann 2007), relative error <= (1 + sqrt(5) u)^(T + 2 log2 T + 2) - 1. With
   |z|, |z_hat| <= R: |z_hat^T - z^T| <= T R^(T-1) |z_hat - z|. The 2-norm error of the result bounds every
   entry and gives |sum_j g_j (c_hat_j - c_j)| <= ||g||_2 ||c_hat - c||_2 (Cauchy-Schwarz), which is added
   (upper) or subtracted (lower) by `ComposedPLD.delta`.

Written by hand rather than with dp_accounting's PLD: every step above is a proven bound in one direction,
where dp_accounting's discretisation is pessimistic but its FFT round-off and truncation are not accounted for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Sequence, cast

import numpy as np

from ..core.errors import ParameterError, require_integer, require_probability
from ..core.rounding import fraction_to_float_up
from .binomial import UNIT

__all__ = ["C_FFT", "MAX_FFT", "ComposedPLD", "GridPLD", "PairPLD", "compose"]

# FFT error constant (module doc, point 4: FFT round-off) and the largest FFT size.
C_FFT = 16.0


MAX_FFT = 2**22


# The largest argument of math.exp that does not overflow a double (e^709.78 is the largest finite double).
MAX_EXP_ARGUMENT = 709.0


@dataclass(frozen=True)
class PairPLD:
    """The privacy-loss distribution of a pair, on its certified windows: loss values in
    [loss_lo, loss_hi] with masses in [mass_lo, mass_hi]; `dropped` bounds the mass of outputs not listed
    (any loss, +inf included); `inf_mass` bounds the mass at loss +inf (Q = 0) among those listed."""

    loss_lo: np.ndarray
    loss_hi: np.ndarray
    mass_lo: np.ndarray
    mass_hi: np.ndarray
    dropped: float
    inf_mass: float
    eps0: float
    description: str

    def moments(self) -> tuple[float, float]:
        """Float mean and variance of the finite loss (uncertified: used to choose the grid only)."""
        w = self.mass_hi
        total = float(np.sum(w))
        if total <= 0:
            return 0.0, 0.0
        mean = float(np.sum(w * self.loss_hi)) / total
        return mean, float(np.sum(w * (self.loss_hi - mean) ** 2)) / total

    def discretise(self, step: float, pessimistic: bool, tail: float) -> "GridPLD":
        """The grid PLD on step * Z: losses rounded up (pessimistic) or down, masses' upper or lower
        bounds; for the upper bound the top tail of mass <= tail/2 goes to +inf and the bottom tail of mass
        <= tail/2 is moved up to the lowest kept grid point; for the lower bound both are moved inward."""
        if pessimistic:
            index = np.ceil(self.loss_hi / step)
            mass = self.mass_hi
        else:
            index = np.floor(self.loss_lo / step)
            mass = self.mass_lo
        keep = mass > 0
        index, mass = index[keep].astype(np.int64), mass[keep]
        if len(index) == 0:
            inf_mass = (self.inf_mass + self.dropped) if pessimistic else 0.0
            return GridPLD(step, 0, np.zeros(1), min(inf_mass, 1.0), pessimistic, self.eps0)
        lo = int(index.min())
        masses: np.ndarray = np.bincount(index - lo, weights=mass)
        # bincount sums non-negative terms: relative error <= (terms) u'.
        sum_rel = 1.001 * UNIT * (len(mass) + 2)
        masses = masses * (1 + sum_rel) if pessimistic else masses * (1 - sum_rel)
        inf_mass = (self.inf_mass + self.dropped) * (1 + 4 * UNIT) if pessimistic else 0.0
        # Trim the tails of the grid (they only widen the FFT window).
        cum = np.cumsum(masses)
        total = cum[-1]
        low_cut = int(np.searchsorted(cum, tail / 2, side="right"))  # entries [0, low_cut) hold mass <= tail/2
        rcum = total - np.concatenate(([0.0], cum[:-1]))  # mass at indices >= j
        high_cut = int(np.searchsorted(-rcum, -tail / 2, side="left"))  # first j with rcum[j] <= tail/2
        high_cut = max(high_cut, low_cut + 1)
        low_cut = min(low_cut, len(masses) - 1)
        high_cut = min(max(high_cut, low_cut + 1), len(masses))
        low_mass = float(np.sum(masses[:low_cut]))
        high_mass = float(np.sum(masses[high_cut:]))
        kept = masses[low_cut:high_cut].copy()
        if pessimistic:
            kept[0] += low_mass * (1 + 4 * UNIT)  # moved up: the loss only grows
            inf_mass += high_mass * (1 + 4 * UNIT)
        else:
            kept[-1] += high_mass * (1 - 4 * UNIT)  # moved down; the low tail is dropped (g >= 0)
        return GridPLD(step, lo + low_cut, kept, min(inf_mass, 1.0), pessimistic, self.eps0)


@dataclass(frozen=True)
class GridPLD:
    """A discretised PLD: masses[i] at loss (offset + i) * step, plus `inf_mass` at +inf."""

    step: float
    offset: int
    masses: np.ndarray
    inf_mass: float
    pessimistic: bool
    eps0: float

    def log_mgf(self, lam: np.ndarray) -> np.ndarray:
        """Upper bounds of log sum_i masses[i] e^{lam step (offset+i)} for each lam (log-sum-exp;
        1e-9 relative + 1e-12 absolute margin over its few-ulp float error)."""
        positive = self.masses > 0
        logs = np.log(self.masses[positive])
        grid = (self.offset + np.nonzero(positive)[0]).astype(float) * self.step
        expo = logs[None, :] + lam[:, None] * grid[None, :]
        top = np.max(expo, axis=1)
        value = top + np.log(np.sum(np.exp(expo - top[:, None]), axis=1))
        bound: np.ndarray = value + 1e-9 * np.abs(value) + 1e-12
        return bound


def _fft_power_product(spectra: list[np.ndarray], powers: list[int]) -> np.ndarray:
    """prod_r spectra[r] ** powers[r] by binary exponentiation (module doc, point 4: FFT round-off)."""
    result = None
    for z, t in zip(spectra, powers, strict=True):
        base, acc = z, None
        while t:
            if t & 1:
                acc = base if acc is None else acc * base
            t >>= 1
            if t:
                base = base * base
        result = acc if result is None else result * acc
    if result is None:  # callers pass at least one grid with a positive power
        raise ParameterError("powers", powers, "at least one positive power")
    return result


@dataclass
class ComposedPLD:
    """The composed (discretised) PLD: values[j] ~ mass at loss (start + j) * step, with the bounds that
    make delta(eps) certified (module doc): 2-norm round-off bound, Chernoff tails outside the window,
    the infinite-loss atom."""

    step: float
    start: int
    values: np.ndarray
    error_2norm: float
    tail_above: float
    tail_below: float
    inf_mass: float
    pessimistic: bool
    eps_max: float
    _cache: dict[str, tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=dict)

    def _suffix_sums(self) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Suffix sums over the window points with loss s > 0 (eps >= 0 only looks there) of v, v e^{-s},
        |v| and |v e^{-s}|, each with a trailing 0; computed once."""
        if "suffix" not in self._cache:
            first = max(-self.start + 1, 0)  # s_j = (start + j) step > 0
            v = self.values[first:]
            s = (self.start + np.arange(first, first + len(v), dtype=float)) * self.step
            w = v * np.exp(-s)

            def suffix(x: np.ndarray) -> np.ndarray:
                return np.concatenate((np.cumsum(x[::-1])[::-1], [0.0]))

            self._cache["suffix"] = (first, suffix(v), suffix(w), suffix(np.abs(v)), suffix(np.abs(w)))
        return self._cache["suffix"]

    def delta(self, eps: float) -> float:
        """Upper (pessimistic) or lower (optimistic) bound of the composed pair's delta(eps), eps >= 0:
        sum_{s_j > eps} v_j (1 - e^{eps - s_j}) = A - e^eps B from suffix sums A of v_j and B of v_j e^{-s_j}
        (float error <= (N + 4) u' (sum |v_j| + e^eps sum |v_j| e^{-s_j}), e^{-s} and e^eps with few-ulp
        error: 1e-12 relative margin), plus ||g||_2 <= sqrt(terms) times the FFT error bound."""
        size = len(self.values)
        top = (self.start + size) * self.step  # first loss above the window
        base, sum_v, sum_w, abs_v, abs_w = self._suffix_sums()
        first = max(int(math.floor(eps / self.step)) + 1 - self.start, base) - base
        if first < len(sum_v) - 1 and eps > MAX_EXP_ARGUMENT:
            # e^eps overflows a double: the terms v_j (1 - e^{eps - s_j}) = -v_j expm1(eps - s_j) are summed
            # directly (each within a few ulps of |v_j|, so the same float-error bound as the suffix sums').
            index = base + first
            s = (self.start + np.arange(index, size, dtype=float)) * self.step
            total = float(np.sum(self.values[index:] * -np.expm1(eps - s)))
            slack = ((size + 4) * 1.001 * UNIT + 1e-12) * abs_v[first] * 4
            slack += math.sqrt(len(sum_v) - 1 - first) * 1.0001 * self.error_2norm
        elif first < len(sum_v) - 1:
            e = math.exp(eps)
            total = sum_v[first] - e * sum_w[first]
            slack = ((size + 4) * 1.001 * UNIT + 1e-12) * (abs_v[first] + e * abs_w[first]) * 4
            slack += math.sqrt(len(sum_v) - 1 - first) * 1.0001 * self.error_2norm
        else:
            total, slack = 0.0, 0.0
        if self.pessimistic:
            value = total + slack + self.tail_above + self.inf_mass
            if eps < self.start * self.step:
                value += self.tail_below
            upper: float = min(value * (1 + 8 * UNIT), 1.0)
            return upper
        value = total - slack - self.tail_above - self.tail_below + self.inf_mass
        if eps >= top:
            value = self.inf_mass
        lower: float = max(value * (1 - 8 * UNIT), 0.0)
        return lower


def _chernoff_log_tails(grids: list[GridPLD], powers: list[int], lam: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sum_r T_r log M_r(lam) and sum_r T_r log M_r(-lam) (upper bounds)."""
    # Arrays: there is at least one grid (sum's start 0 only types the empty case).
    up = cast(np.ndarray, sum(t * g.log_mgf(lam) for g, t in zip(grids, powers, strict=True)))
    down = cast(np.ndarray, sum(t * g.log_mgf(-lam) for g, t in zip(grids, powers, strict=True)))
    return up, down


def _window(grids: list[GridPLD], powers: list[int], tail: float, scale: float) -> tuple[float, float, np.ndarray, np.ndarray, np.ndarray]:
    """Chernoff window [s_lo, s_hi] of the composed loss outside which each side has mass <= tail."""
    lam = np.geomspace(1e-3, 1e3, 25) / max(scale, 1e-12)
    lam = np.concatenate((lam, [1.0]))
    up, down = _chernoff_log_tails(grids, powers, lam)
    log_inv = math.log(1.0 / tail)
    s_hi = float(np.min((up + log_inv) / lam))
    s_lo = float(np.max(-(down + log_inv) / lam))
    return s_lo, s_hi, lam, up, down


def _tail_bound(lam: np.ndarray, log_m: np.ndarray, s: float, above: bool) -> float:
    """min over lam of e^{-lam s} M(lam) (above) or e^{lam s} M(-lam) (below), rounded up."""
    expo = (log_m - lam * s) if above else (log_m + lam * s)
    value = float(np.min(expo))
    return min(math.exp(value) * (1 + 1e-12), 1.0) if value < 700 else 1.0


def compose(grids: Sequence[GridPLD], powers: Sequence[int], *, tail: float, max_fft: int = MAX_FFT) -> ComposedPLD:
    """The T-fold / heterogeneous composition of grid PLDs sharing one step (module doc, items 3-4)."""
    if not grids or len(grids) != len(powers) or not all(isinstance(g, GridPLD) for g in grids):
        raise ParameterError("grids", grids, "a non-empty list of GridPLD, one power (rounds >= 1) each")
    for t in powers:
        require_integer("powers", t, minimum=1)
    require_probability("tail", tail)
    grids, powers = list(grids), [int(t) for t in powers]
    step = grids[0].step
    pessimistic = grids[0].pessimistic
    if any(g.step != step or g.pessimistic != pessimistic for g in grids):
        raise ParameterError("grids", len(grids), "grid PLDs with one step and one rounding direction")
    mean_sd = _grid_scale(grids, powers)
    s_lo, s_hi, lam, up, down = _window(grids, powers, tail, mean_sd)
    lo_index = int(math.floor(s_lo / step)) - 1
    hi_index = int(math.ceil(s_hi / step)) + 1
    need = max(hi_index - lo_index + 1, max(len(g.masses) for g in grids), 16)
    size = 1 << (need - 1).bit_length()
    if size > max_fft:
        raise ParameterError("grid", size, f"an FFT of at most {max_fft} points (a coarser grid step)")
    spare = size - (hi_index - lo_index + 1)
    lo_index -= spare // 4  # a little room below, the rest above
    spectra, a_norms2, a_norms1 = [], [], []
    for g in grids:
        padded = np.zeros(size)
        padded[: len(g.masses)] = g.masses
        spectra.append(np.fft.rfft(padded))
        a_norms2.append(float(np.sqrt(np.sum(g.masses**2))) * (1 + 1e-12))
        a_norms1.append(float(np.sum(g.masses)) * (1 + 1e-12) * (1 + (len(g.masses) + 2) * UNIT))
    product = _fft_power_product(spectra, powers)
    cyclic = np.fft.irfft(product, n=size)
    offset_sum = sum(g.offset * t for g, t in zip(grids, powers, strict=True))
    # cyclic[p] holds the mass at S-index offset_sum + p (mod size); window S-index lo_index + j.
    values = np.roll(cyclic, -((lo_index - offset_sum) % size))
    # Round-off (module doc, point 4: FFT round-off).
    eps_f = C_FFT * math.log2(size) * UNIT
    sqrt_n = math.sqrt(size)
    z_err = [eps_f * sqrt_n * n2 for n2 in a_norms2]  # 2-norm (hence entrywise) error of each spectrum
    radius = max(n1 + ze for n1, ze in zip(a_norms1, z_err, strict=True))
    total_power = sum(powers)
    log_r = (total_power - 1) * math.log(max(radius, 1e-300))
    r_pow = math.exp(log_r) * (1 + 1e-12) if log_r < 700 else math.inf
    theta = 1.02 * math.sqrt(5) * UNIT * (total_power + sum(2 * math.log2(t) + 2 for t in powers))
    p_norm = float(np.sqrt(np.sum(np.abs(product) ** 2))) * (1 + 1e-12)
    e_power = r_pow * sum(t * ze for t, ze in zip(powers, z_err, strict=True)) + theta * p_norm
    mass_total = math.exp(sum(t * math.log(n1) for t, n1 in zip(powers, a_norms1, strict=True) if n1 > 0)) * (1 + 1e-12)
    error = math.sqrt(2.0 / size) * e_power * (1 + eps_f) + eps_f * (mass_total + math.sqrt(2.0 / size) * e_power) + size * 2.0**-1070
    top = (lo_index + size) * step
    tail_above = _tail_bound(lam, up, top, True)
    tail_below = _tail_bound(lam, down, lo_index * step, False)
    inf_finite = 1.0
    for g, t in zip(grids, powers, strict=True):
        inf_finite *= (1.0 - g.inf_mass) ** t
    if pessimistic:
        inf_mass = min(sum(t * g.inf_mass for g, t in zip(grids, powers, strict=True)) * (1 + 8 * UNIT), 1.0)
    else:
        inf_mass = 0.0
    # Basic composition's sum of eps0 over the rounds, rounded up (every eps0-LDP round is eps0-DP centrally).
    eps_max = fraction_to_float_up(sum((Fraction(g.eps0) * t for g, t in zip(grids, powers, strict=True)), Fraction(0)))
    return ComposedPLD(step, lo_index, values, error, tail_above, tail_below, inf_mass, pessimistic, eps_max)


def _grid_scale(grids: list[GridPLD], powers: list[int]) -> float:
    """Float standard deviation of the composed grid loss (to place the lam grid only)."""
    var = 0.0
    for g, t in zip(grids, powers, strict=True):
        w = g.masses / max(float(np.sum(g.masses)), 1e-300)
        x = (g.offset + np.arange(len(w))) * g.step
        mean = float(np.sum(w * x))
        var += t * float(np.sum(w * (x - mean) ** 2))
    return max(math.sqrt(var), grids[0].step)
