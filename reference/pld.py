"""Certified composition of shuffled rounds by privacy-loss distributions (`compose.clones`,
`compose.stronger_clones`, `compose.exact_binary_rr`).

Neighbouring relation: replace one user's input (n fixed), as in every single-round statement of the
project. A pair (P, Q) of distributions DOMINATES a mechanism M when, for every neighbouring pair of
datasets (D, D') and every eps, D_{e^eps}(M(D) || M(D')) <= D_{e^eps}(P || Q). Dominating pairs compose:
the adaptive composition of mechanisms dominated by (P_r, Q_r) is dominated by the product pair
(prod P_r, prod Q_r) (Zhu, Dong, Wang, AISTATS 2022, Thm 10). Which pair (module doc of each builder):

- FMT21 clones (`compose.clones`): the clone pair over (a, b) counts with clone counts Bin(n-1, e^-eps0).
  FMT21 build M(D), M(D') as ONE post-processing of (P, Q) for every eps0-LDP randomizer and every
  neighbouring pair, so (P, Q) dominates every round (at all eps at once), and the pair does not
  depend on the randomizer, so adaptively chosen randomizers are covered. The pair is symmetric (swapping
  the two coordinates maps P to Q), so D(P||Q) = D(Q||P): one direction suffices.
- FMT23 stronger clones (`compose.stronger_clones`): the same pair with clone probability 2/(e^eps0+1),
  valid for randomizers in the FMT23 errata class (k-RR).
- Exact binary RR (`compose.exact_binary_rr`): the exact pair (P_k, Q_k) of one neighbouring dataset
  pair (k ones among the other n-1 users), both directions. Composing it T times gives the EXACT eps of
  T rounds of shuffled binary RR on those two fixed datasets, so its value is a LOWER bound on the
  worst case of the composed mechanism (the worst single-round k need not be the worst for
  composition, so no dominating claim is made); it is the yardstick the upper bounds are tested against.

Privacy-loss distribution (PLD) and composition. With L = log(P/Q)(Y), Y ~ P (L = +inf where Q = 0),
    delta_P||Q(eps) = E[(1 - e^{eps - L})_+],  and for the product pair  delta(eps) = E[(1 - e^{eps - S})_+],
S = L_1 + ... + L_T with independent L_r (S = +inf if some L_r is). g(s) = (1 - e^{eps - s})_+ is
non-decreasing in s and lies in [0, 1]. Hence (checked in `proofs_checks/compose.py`):
1. Pessimistic discretisation: replace each L_r by L'_r = h ceil(L_r / h) >= L_r (grid step h a power of
   2, so the grid values are exact floats). Coupled, S' >= S, so E g(S') >= E g(S): an upper bound.
   Optimistic: h floor(L/h) <= L gives a lower bound. Mass whose loss is not represented (the tails of the
   binomial windows) goes to +inf (upper bound) or is dropped (lower bound: g >= 0).
2. Masses: the upper bound uses proven upper bounds on every probability (the convolution of non-negative
   measures is monotone in each of them, and g >= 0), the lower bound proven lower bounds.
3. Convolution by FFT on a window of N = 2^j grid points. The cyclic convolution equals the linear one
   plus the mass aliased from outside the window (non-negative): so the cyclic values are >= the true
   ones (upper bound unaffected) and exceed them by at most the mass outside (subtracted for the lower
   bound). That mass is bounded by Chernoff: Pr[S >= s] <= e^{-lam s} prod_r M_r(lam)^{T_r},
   Pr[S < s] <= e^{lam s} prod_r M_r(-lam)^{T_r}, M_r the moment generating function of the discretised
   (sub-probability) measure, minimised over a grid of lam.
4. Round-off of the FFT: we ASSUME numpy's pocketfft satisfies Higham's bound (Accuracy and Stability,
   Thm 24.2) ||fl(F x) - F x||_2 <= eps_f ||F x||_2, eps_f = C_FFT log2(N) u with C_FFT = 16 (about
   2.5 times Higham's eta/u = gamma_4 (sqrt(2) + mu)/u + mu/u ~ 5.7 + mu/u for twiddles accurate to mu ~ u;
   an ASSUMPTION about pocketfft, not proven here: checked against long-double FFTs in the tests). Powers
   z^T are taken by binary exponentiation (complex products have relative error <= sqrt(5) u, Brent,
   Percival, Zimmermann 2007), relative error <= (1 + sqrt(5) u)^(T + 2 log2 T + 2) - 1. With
   |z|, |z_hat| <= R: |z_hat^T - z^T| <= T R^(T-1) |z_hat - z|. The 2-norm error of the result (`_fft_error`)
   bounds every entry and gives |sum_j g_j (c_hat_j - c_j)| <= ||g||_2 ||c_hat - c||_2 (Cauchy-Schwarz),
   which is added (upper) or subtracted (lower).
5. eps(delta) by `reference.bounds.clones.solve_epsilon` on the certified [lower, upper] delta brackets:
   the returned upper end has certified upper delta <= target. The result's interval contains the exact
   composed eps of the pair (pessimistic end upper, optimistic end lower).
Every eps0-LDP round is eps0-DP centrally (post-processing), so T rounds are T eps0-DP: the search runs on
[0, sum_r eps0_r] and returns that with a note when nothing smaller is certified.

Speed: the clone pair is a mixture over clone counts c of pairs (P_c, Q_c) with c visible in the output
(a + b = c + 1). P_{c+1}, Q_{c+1} are one Markov kernel applied to P_c, Q_c (module doc of
`reference.bounds.clones`), so replacing every c of a block [c_j, c_{j+1}) by its smallest count c_j gives a
pair from which the true one is a post-processing (apply the kernel c - c_j times, c is known): a
dominating pair whose PLD needs one Bin(c_j, 1/2) window per block (relative block width BLOCK_WIDTH).
For the lower bound the first count after each block is used (dominated the other way); a block of
one count is exact in both passes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Sequence, cast

import numpy as np

from shuffle_spec.reference.binomial import SUBNORMAL_CAP, UNIT, CertifiedWindow, ProbabilityPair, certified_window, iv_context, probability_pair
from shuffle_spec.reference.bounds.clones import _check_eps0, solve_epsilon
from shuffle_spec.reference.errors import ParameterError, require_integer, require_positive, require_probability
from shuffle_spec.reference.limits import COMPOSE_EPS0_MAX, COMPOSE_N_MAX, COMPOSE_ROUNDS_MAX, COMPOSE_SCHEDULE_MAX
from shuffle_spec.reference.results import BoundValue

__all__ = [
    "ComposedPLD",
    "binary_rr_counts",
    "GridPLD",
    "PAIRS",
    "PairPLD",
    "Round",
    "compose",
    "compose_clones",
    "compose_exact_binary_rr",
    "compose_stronger_clones",
    "composed_delta",
    "composed_epsilon",
    "pair_pld",
    "rounds_from_json",
]

PAIRS = ("clones", "stronger_clones", "exact_binary_rr")
# Relative width of the clone-count blocks (speed; module doc). The pair's losses scale like 1/sqrt(c),
# so a block moves eps by at most ~BLOCK_WIDTH/2 relative (0.1%).
BLOCK_WIDTH = 2e-3
# Tail mass each binomial window may drop (it goes to the infinite-loss atom).
WINDOW_TAIL = 1e-24
# FFT error constant (module doc, item 4) and the largest FFT size.
C_FFT = 16.0
MAX_FFT = 2**22
# Grid step target: T * h <= GRID_FRACTION * (the composed epsilon's estimate), so the upward rounding
# moves the composed epsilon by about GRID_FRACTION / 2.
GRID_FRACTION = 0.01
# Exact binary RR: counts composed (k ones among the other n-1), both directions.
BINARY_RR_ALL_COUNTS_UP_TO = 40
# Bin(c, 1/2) windows from exact integers up to this count (faster than the interval anchors).
EXACT_HALF_UP_TO = 1000
BINARY_RR_COUNTS = 3
EPS_REL_TOL = 1e-6
# The largest argument of math.exp that does not overflow a double (e^709.78 is the largest finite double).
MAX_EXP_ARGUMENT = 709.0
# The supported range of one round group (`_validate_round`, `_validate_rounds`; the CLI states it).
MAX_EPS0 = COMPOSE_EPS0_MAX
MAX_N = COMPOSE_N_MAX
MAX_ROUNDS = COMPOSE_ROUNDS_MAX
NO_AMPLIFICATION = "nothing below sum of eps0 over the rounds certified: basic composition's sum of eps0 is returned"


# ---------------------------------------------------------------------------------------------------
# Raw PLDs: losses as float brackets with their masses' proven brackets.


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
    """prod_r spectra[r] ** powers[r] by binary exponentiation (module doc, item 4)."""
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
    # Round-off (module doc, item 4).
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
    eps_max = _sum_up([Fraction(g.eps0) * t for g, t in zip(grids, powers, strict=True)])
    return ComposedPLD(step, lo_index, values, error, tail_above, tail_below, inf_mass, pessimistic, eps_max)


def _sum_up(terms: list[Fraction]) -> float:
    """The smallest float >= the exact sum (basic composition's sum of eps0 over the rounds is returned as
    an upper bound: a float sum may round it down by an ulp)."""
    exact = sum(terms, Fraction(0))
    value = float(exact)
    return value if Fraction(value) >= exact else math.nextafter(value, math.inf)


def _grid_scale(grids: list[GridPLD], powers: list[int]) -> float:
    """Float standard deviation of the composed grid loss (to place the lam grid only)."""
    var = 0.0
    for g, t in zip(grids, powers, strict=True):
        w = g.masses / max(float(np.sum(g.masses)), 1e-300)
        x = (g.offset + np.arange(len(w))) * g.step
        mean = float(np.sum(w * x))
        var += t * float(np.sum(w * (x - mean) ** 2))
    return max(math.sqrt(var), grids[0].step)


# ---------------------------------------------------------------------------------------------------
# The pairs.


def _half_pair() -> ProbabilityPair:
    iv = iv_context()
    return ProbabilityPair(iv.mpf(0.5), iv.mpf(0.5), 0.5, 0.5, 0.0, 0.0)


@lru_cache(maxsize=4096)
def _half_window(c: int) -> CertifiedWindow:
    """The certified window of Bin(c, 1/2) (cached: both rounding directions and repeated calls share it).
    Up to EXACT_HALF_UP_TO the whole support from exact integers: C(c, x) / 2^c as an int / int division is
    correctly rounded (relative error <= u; every value >= 2^-1000 is a normal float)."""
    if c <= EXACT_HALF_UP_TO:
        pmf = np.array([math.comb(c, x) / 2**c for x in range(c + 1)])
        rel = np.full(c + 1, UNIT)
        return CertifiedWindow(c, 0, c, pmf, rel, pmf * (1 - 2 * UNIT), pmf * (1 + 2 * UNIT), 0.0, 0.0)
    return certified_window(c, _half_pair(), WINDOW_TAIL)


def _clone_losses(x: np.ndarray, c: int, e0: float) -> tuple[np.ndarray, np.ndarray]:
    """Brackets of L(x) = log((e0 x + c+1-x) / (x + e0 (c+1-x))) (P_c vs Q_c at first coordinate x):
    log of each side (each a few roundings from e0's float, <= 4 u relative) and an absolute margin
    1e-11 (1 + |log num| + |log den|), far above the float error of the two logs and the difference."""
    rest = (c + 1.0) - x
    num = e0 * x + rest
    den = x + e0 * rest
    with np.errstate(divide="ignore"):
        log_num, log_den = np.log(num), np.log(den)
    loss = log_num - log_den
    margin = 1e-11 * (1.0 + np.abs(log_num) + np.abs(log_den))
    return loss - margin, loss + margin


def _clone_pair_pld(eps0: float, n: int, kind: str, pessimistic_blocks: bool = True) -> PairPLD:
    """PLD of the FMT21 / FMT23 clone pair (one direction suffices: the pair is symmetric), with the
    clone counts grouped in blocks (module doc). `pessimistic_blocks`: each block represented by its
    smallest count (dominating pair, for the upper bound) or its largest (dominated, for the lower bound)."""
    counts = certified_window(n - 1, probability_pair(kind, eps0), WINDOW_TAIL)
    iv = iv_context()
    e0_iv = iv.exp(iv.mpf(eps0))
    alpha_iv = e0_iv / (e0_iv + 1)
    alpha_hi, alpha_lo = float(alpha_iv.b) * (1 + 2 * UNIT), float(alpha_iv.a) * (1 - 2 * UNIT)
    beta_iv = 1 / (e0_iv + 1)
    beta_hi, beta_lo = float(beta_iv.b) * (1 + 2 * UNIT), float(beta_iv.a) * (1 - 2 * UNIT)
    e0 = math.exp(eps0)
    losses_lo, losses_hi, masses_lo, masses_hi = [], [], [], []
    dropped = counts.dropped
    c = counts.lo
    while c <= counts.hi:
        end = min(max(c + 1, int(math.ceil(c * (1 + BLOCK_WIDTH)))), counts.hi + 1)
        block = slice(c - counts.lo, end - counts.lo)
        terms = end - c
        w_hi = float(np.sum(counts.upper[block])) * (1 + 1.001 * UNIT * (terms + 2))
        w_lo = float(np.sum(counts.lower[block])) * (1 - 1.001 * UNIT * (terms + 2))
        # Upper bound: the block's smallest count; lower bound: the next block's first count (larger than
        # every count of the block), so that both passes share the windows (`_half_window`, cached). A
        # block of one count is that count in both passes (no coarsening).
        rep = c if (pessimistic_blocks or end == c + 1) else end
        xs = _half_window(rep)
        dropped += xs.dropped * w_hi
        # x in lo..hi+1: P(x) = alpha b(x-1) + beta b(x), b zero outside the window (that mass is dropped).
        b_hi = np.concatenate(([0.0], xs.upper, [0.0]))
        b_lo = np.concatenate(([0.0], xs.lower, [0.0]))
        p_hi = (alpha_hi * b_hi[:-1] + beta_hi * b_hi[1:]) * (1 + 3 * UNIT) * w_hi * (1 + UNIT)
        p_lo = (alpha_lo * b_lo[:-1] + beta_lo * b_lo[1:]) * (1 - 3 * UNIT) * w_lo * (1 - UNIT)
        x = np.arange(xs.lo, xs.hi + 2, dtype=float)
        l_lo, l_hi = _clone_losses(x, rep, e0)
        losses_lo.append(l_lo)
        losses_hi.append(l_hi)
        masses_lo.append(np.maximum(p_lo, 0.0))
        masses_hi.append(p_hi)
        c = end
    name = "FMT21 clone pair" if kind == "fmt21" else "FMT23 stronger-clone pair"
    return PairPLD(
        np.concatenate(losses_lo), np.concatenate(losses_hi), np.concatenate(masses_lo), np.concatenate(masses_hi),
        float(dropped) * (1 + 1e-12), 0.0, float(eps0), f"{name}, eps0={eps0}, n={n}",
    )


def binary_rr_counts(n: int) -> tuple[int, ...]:
    """The counts k composed for the exact binary-RR pair: every k <= (n-1)/2 for n <= 40 (both
    directions cover the mirrors k -> n-1-k), else k = 0, 1, 2."""
    require_integer("n", n, minimum=1)
    if n <= BINARY_RR_ALL_COUNTS_UP_TO:
        return tuple(range(0, (n - 1) // 2 + 1))
    return tuple(range(0, min(BINARY_RR_COUNTS, n)))


def _binary_rr_pair_plds(eps0: float, n: int, k: int) -> tuple[PairPLD, PairPLD]:
    """PLDs of the exact pair (P_k, Q_k) of shuffled binary RR, both directions (P vs Q, Q vs P):
    P_k = Bern(p) + S_k, Q_k = Bern(1-p) + S_k, S_k = Bin(k, p) + Bin(n-1-k, 1-p); masses with the
    proven relative error of the certified windows and their convolution (as in reference.exact_binary_rr)."""
    keep = probability_pair("keep", eps0)
    flip = ProbabilityPair(keep.q_iv, keep.p_iv, keep.q, keep.p, keep.q_err, keep.p_err)
    p, q = keep.p, keep.q
    big = certified_window(n - 1 - k, flip, WINDOW_TAIL)
    small = certified_window(k, keep, 0.0) if k > 0 else None
    f = np.convolve(big.pmf, small.pmf) if small is not None else big.pmf.copy()
    rel = big.max_rel + (small.max_rel if small is not None else 0.0)
    f_s, f_prev = np.append(f, 0.0), np.insert(f, 0, 0.0)
    pp = p * f_prev + q * f_s  # Bern(p) + S_k at s = lo + index
    qq = q * f_prev + p * f_s
    rel_err = 1.01 * (rel + (k + len(pp) + 16) * UNIT + keep.p_err + keep.q_err)
    # pp[i] uses f at i-1 and i; f[j] misses window-dropped terms unless k <= j <= len(big) - 1 (or the
    # big window reaches the end of its support): only those points carry proven values and losses.
    first = k + 1 if big.lo > 0 else 0
    stop = len(f) - k if big.hi < n - 1 - k else len(f) + 1
    interior = np.zeros(len(pp), dtype=bool)
    interior[first:max(stop, first)] = True
    # Values near the subnormal range are not relatively certified (reference.binomial): dropped too.
    reliable = interior & (np.minimum(pp, qq) > 1e-270) | interior & (np.maximum(pp, qq) > 1e-270) & (np.minimum(pp, qq) == 0)
    outside = float(np.sum(pp[~reliable]) + np.sum(qq[~reliable])) * (1 + rel_err)
    dropped = (big.dropped + outside + (len(big.pmf) + k + 2) * SUBNORMAL_CAP * 4) * (1 + 1e-12)
    out = []
    for a, b, label in ((pp, qq, "P_k vs Q_k"), (qq, pp, "Q_k vs P_k")):
        finite = reliable & (a > 0) & (b > 0)
        inf_here = reliable & (a > 0) & (b <= 0)
        log_a, log_b = np.log(a[finite]), np.log(b[finite])
        loss = log_a - log_b
        margin = 2.5 * rel_err + 1e-12 * (1.0 + np.abs(log_a) + np.abs(log_b))
        m_hi = a[finite] * (1 + rel_err)
        m_lo = a[finite] * (1 - rel_err)
        inf_mass = float(np.sum(a[inf_here])) * (1 + rel_err)
        out.append(PairPLD(loss - margin, loss + margin, m_lo, m_hi, float(dropped), inf_mass, float(eps0), f"exact binary-RR pair k={k} ({label}), eps0={eps0}, n={n}"))
    return out[0], out[1]


def pair_pld(pair: str, *, eps0: float, n: int, k: int = 0, direction: int = 0, pessimistic: bool = True) -> PairPLD:
    """The privacy-loss distribution of one round's pair (module doc): `pair` in PAIRS; for
    "exact_binary_rr" the count k (ones among the other n-1 users) and direction 0 (P_k vs Q_k) or 1.
    Supported: 0 < eps0 <= 30, 1 <= n <= 1e9."""
    _validate_round(pair, eps0, n)
    if pair == "exact_binary_rr":
        require_integer("k", k, minimum=0)
        if k > n - 1:
            raise ParameterError("k", k, f"0 <= k <= n-1 = {n - 1}")
        if direction not in (0, 1):
            raise ParameterError("direction", direction, "0 (P_k vs Q_k) or 1 (Q_k vs P_k)")
        return _binary_rr_pair_plds(float(eps0), int(n), int(k))[direction]
    return _clone_pair_pld(float(eps0), int(n), "fmt21" if pair == "clones" else "fmt23", pessimistic)


# ---------------------------------------------------------------------------------------------------
# Public entry points.


@dataclass(frozen=True)
class Round:
    """`rounds` rounds of the shuffled protocol with local eps0 and n users, accounted by `pair`."""

    pair: str
    eps0: float
    n: int
    rounds: int = 1


def _validate_round(pair: str, eps0: float, n: int) -> None:
    if pair not in PAIRS:
        raise ParameterError("pair", pair, f"one of {', '.join(PAIRS)}")
    _check_eps0(eps0)
    if eps0 > MAX_EPS0:
        raise ParameterError("eps0", eps0, f"0 < eps0 <= {MAX_EPS0:g} (composition)")
    require_integer("n", n, minimum=1)
    if n > MAX_N:
        raise ParameterError("n", n, f"1 <= n <= {MAX_N:.0e} (composition)")


def _validate_rounds(rounds: Sequence[Round]) -> list[Round]:
    if isinstance(rounds, (str, bytes)) or not isinstance(rounds, Sequence) or len(rounds) == 0:
        raise ParameterError("rounds", rounds, "a non-empty list of Round(pair, eps0, n, rounds)")
    if len(rounds) > COMPOSE_SCHEDULE_MAX:
        raise ParameterError("rounds", f"a list of {len(rounds)} entries", f"at most {COMPOSE_SCHEDULE_MAX} entries (give repeated rounds once, with their count)")
    out = []
    for r in rounds:
        if not isinstance(r, Round):
            raise ParameterError("rounds", r, "Round(pair, eps0, n, rounds) entries")
        _validate_round(r.pair, r.eps0, r.n)
        require_integer("rounds", r.rounds, minimum=1)
        if r.rounds > MAX_ROUNDS:
            raise ParameterError("rounds", r.rounds, f"1 <= rounds <= {MAX_ROUNDS:.0e}")
        out.append(Round(r.pair, float(r.eps0), int(r.n), int(r.rounds)))
    if sum(r.rounds for r in out) > MAX_ROUNDS:
        raise ParameterError("rounds", sum(r.rounds for r in out), f"a total of at most {MAX_ROUNDS:.0e} rounds")
    if len({r.pair == "exact_binary_rr" for r in out}) > 1:
        raise ParameterError("rounds", [r.pair for r in out], "exact_binary_rr rounds only with other exact_binary_rr rounds (a lower bound does not mix with upper bounds)")
    if out[0].pair == "exact_binary_rr" and len({(r.eps0, r.n) for r in out}) > 1:
        raise ParameterError("rounds", [(r.eps0, r.n) for r in out], "exact_binary_rr rounds with one (eps0, n) (the dataset pair is fixed across rounds)")
    return out


class _Composer:
    """Builds the pair PLDs once and composes them on a grid chosen for the target."""

    def __init__(self, rounds: list[Round], plds: list[tuple[PairPLD, PairPLD]], tail: float):
        self.rounds = rounds
        self.plds = plds  # (pessimistic raw, optimistic raw) per round group
        self.tail = tail
        self.total = sum(r.rounds for r in rounds)

    def scale(self, delta: float) -> float:
        """Float estimate of the composed epsilon (Gaussian approximation), to choose the grid step."""
        mean = var = 0.0
        for r, (raw, _) in zip(self.rounds, self.plds, strict=True):
            m, v = raw.moments()
            mean += r.rounds * m
            var += r.rounds * v
        return max(mean + math.sqrt(var) * math.sqrt(2 * math.log(1.25 / delta)), math.sqrt(var), 1e-12)

    def step_for(self, target: float, refine: int = 1) -> float:
        """A power of 2 with T h <= GRID_FRACTION target, and at most target / 2^14 (few rounds: the
        FFT is cheap, so the grid is made finer than the accuracy target)."""
        step = min(GRID_FRACTION * target / self.total, target / 2**14) / refine
        return 2.0 ** math.floor(math.log2(step))

    def composed(self, step: float, pessimistic: bool) -> ComposedPLD:
        grids, powers = [], []
        per_round_tail = self.tail / (4 * self.total)
        for r, (raw_p, raw_o) in zip(self.rounds, self.plds, strict=True):
            raw = raw_p if pessimistic else raw_o
            grids.append(raw.discretise(step, pessimistic, per_round_tail))
            powers.append(r.rounds)
        for _ in range(40):
            try:
                return compose(grids, powers, tail=self.tail)
            except ParameterError:
                # Window too wide for MAX_FFT: a coarser grid is still sound (only less tight).
                step *= 2
                grids = [
                    (raw_p if pessimistic else raw_o).discretise(step, pessimistic, per_round_tail)
                    for (raw_p, raw_o) in self.plds
                ]
        raise ParameterError("rounds", self.total, "a composition whose loss window fits an FFT of MAX_FFT points")


def _composer(rounds: list[Round], tail: float) -> list[_Composer]:
    """One composer per evaluated neighbouring pair: one for the clone pairs; for the exact binary-RR
    pair one per (k, direction)."""
    if rounds[0].pair != "exact_binary_rr":
        plds = [(pair_pld(r.pair, eps0=r.eps0, n=r.n), pair_pld(r.pair, eps0=r.eps0, n=r.n, pessimistic=False)) for r in rounds]
        return [_Composer(rounds, plds, tail)]
    eps0, n = rounds[0].eps0, rounds[0].n
    out = []
    for k in binary_rr_counts(n):
        both = _binary_rr_pair_plds(eps0, n, k)
        for direction in (0, 1):
            out.append(_Composer(rounds, [(both[direction], both[direction])] * len(rounds), tail))
    return out


def _solve(composer: _Composer, delta: float, refine: int) -> BoundValue:
    step = composer.step_for(composer.scale(delta), refine)
    upper = composer.composed(step, True)
    lower = composer.composed(step, False)

    def bounds(eps: float) -> tuple[float, float]:
        return lower.delta(eps), upper.delta(eps)

    eps_max = upper.eps_max
    return solve_epsilon(bounds, eps0=eps_max, delta=delta, rel_tol=EPS_REL_TOL)


def composed_epsilon(rounds: Sequence[Round], *, delta: float, refine: int = 1) -> BoundValue:
    """compose.<pair>: the certified eps(delta) of the composition of `rounds` (heterogeneous allowed),
    as an interval containing the exact composed eps of the pair (module doc): for the clone pairs the
    upper end bounds the composed mechanism's true eps; for exact_binary_rr the value is the max over
    binary_rr_counts(n) and both directions (a lower bound on the worst case). `refine` makes the grid
    finer by that factor (accuracy checks). Supported: 0 < delta < 1, sum of rounds <= 1e6."""
    rounds = _validate_rounds(rounds)
    require_probability("delta", delta)
    require_integer("refine", refine, minimum=1)
    tail = max(delta * 1e-6, 1e-300)
    results = [_solve(c, delta, int(refine)) for c in _composer(rounds, tail)]
    worst = max(results, key=lambda r: r.upper)
    lower = max(r.lower for r in results)
    note = worst.note.replace("the local eps0 is returned", "the sum of eps0 over the rounds is returned")
    if rounds[0].pair == "exact_binary_rr":
        extra = f"exact pairs k in {list(binary_rr_counts(rounds[0].n))}, both directions: a lower bound on the worst case"
        note = f"{note}; {extra}" if note else extra
    return BoundValue(lower, worst.upper, note)


def composed_delta(rounds: Sequence[Round], *, eps: float, refine: int = 1) -> BoundValue:
    """compose.<pair>: the certified delta(eps) of the composition of `rounds`, as an interval
    (pessimistic upper end, optimistic lower end; max over the evaluated pairs for exact_binary_rr)."""
    rounds = _validate_rounds(rounds)
    require_positive("eps", eps, allow_zero=True)
    require_integer("refine", refine, minimum=1)
    lows, ups = [], []
    for composer in _composer(rounds, 1e-18):
        target = max(eps, composer.scale(1e-6))
        step = composer.step_for(target, int(refine))
        ups.append(composer.composed(step, True).delta(eps))
        lows.append(composer.composed(step, False).delta(eps))
    return BoundValue(max(lows), max(ups))


def rounds_from_json(data: object) -> list[Round]:
    """Rounds from parsed JSON: a list of {"pair": str, "eps0": float, "n": int, "rounds": int}
    (or {"rounds": [...]}) for the heterogeneous form of `shuffle-spec compose`."""
    if isinstance(data, dict) and "rounds" in data:
        data = data["rounds"]
    if not isinstance(data, list) or not data:
        raise ParameterError("rounds", data, "a non-empty JSON list of {pair, eps0, n, rounds} objects")
    out = []
    for item in data:
        if not isinstance(item, dict) or not {"pair", "eps0", "n"} <= set(item) or set(item) - {"pair", "eps0", "n", "rounds"}:
            raise ParameterError("rounds", item, "objects with keys pair, eps0, n and optional rounds")
        out.append(Round(item["pair"], item["eps0"], item["n"], item.get("rounds", 1)))
    return _validate_rounds(out)


# ---------------------------------------------------------------------------------------------------
# The registered statements' scalar entry points.


def compose_clones(*, eps0: float, n: int, delta: float, rounds: int) -> BoundValue:
    """compose.clones: certified eps(delta) after `rounds` rounds of a shuffled eps0-LDP protocol with n
    users, by the FMT21 clone pair composed `rounds` times. 0 < eps0 <= 30, 1 <= n <= 1e9, 0 < delta < 1,
    1 <= rounds <= 1e6."""
    return composed_epsilon([Round("clones", eps0, n, rounds)], delta=delta)


def compose_stronger_clones(*, eps0: float, n: int, delta: float, rounds: int) -> BoundValue:
    """compose.stronger_clones: as compose_clones with the FMT23 stronger-clone pair (k-RR, errata class)."""
    return composed_epsilon([Round("stronger_clones", eps0, n, rounds)], delta=delta)


def compose_exact_binary_rr(*, eps0: float, n: int, delta: float, rounds: int) -> BoundValue:
    """compose.exact_binary_rr (statement direction lower_bound): the LOWER end of the certified eps(delta) of
    the exact binary-RR pairs composed `rounds` times (max over binary_rr_counts(n), both directions) as the
    value, as exact.shuffled_binary_rr.pair does: a lower bound on the worst case must be at most the truth
    (the PLD interval's upper end lies above it); the certified interval is in the note."""
    result = composed_epsilon([Round("exact_binary_rr", eps0, n, rounds)], delta=delta)
    note = f"exact composed eps of the pairs in [{result.lower!r}, {result.upper!r}]; {result.note}"
    return BoundValue(result.lower, result.lower, note)


# ---------------------------------------------------------------------------------------------------
# High-precision paths (test vectors; `reference.high_precision_clones`): exact enumeration of the composed
# losses, small n and rounds only; the float answer seeds Newton's iteration.


def _composed_mp(pair: str, float_path: Callable[..., BoundValue], dps: int, eps0: float, n: int, delta: float, rounds: int) -> tuple[Any, Any]:
    from shuffle_spec.reference.high_precision_clones import composed_epsilon_mp  # lazy: keeps imports fast

    _validate_round(pair, eps0, n)
    require_probability("delta", delta)
    require_integer("rounds", rounds, minimum=1)

    def seed() -> tuple[float, float]:
        answer = float_path(eps0=eps0, n=n, delta=delta, rounds=rounds)
        return answer.lower, answer.upper

    return composed_epsilon_mp(pair, dps=dps, eps0=eps0, n=n, delta=delta, rounds=rounds, seed=seed)


def compose_clones_mp(*, dps: int, eps0: float, n: int, delta: float, rounds: int) -> tuple[Any, Any]:
    """compose.clones in high precision: a certified enclosure (lower, upper) of the exact composed eps of the
    FMT21 clone pair at `dps` digits, by exact enumeration of the composed losses; ValueError ("outside the
    high-precision range") beyond 2e5 composites per half (e.g. n <= 20 with rounds <= 4)."""
    return _composed_mp("clones", compose_clones, dps, eps0, n, delta, rounds)


def compose_stronger_clones_mp(*, dps: int, eps0: float, n: int, delta: float, rounds: int) -> tuple[Any, Any]:
    """compose.stronger_clones in high precision (as compose_clones_mp, FMT23 stronger-clone pair)."""
    return _composed_mp("stronger_clones", compose_stronger_clones, dps, eps0, n, delta, rounds)


def compose_exact_binary_rr_mp(*, dps: int, eps0: float, n: int, delta: float, rounds: int) -> tuple[Any, Any]:
    """compose.exact_binary_rr in high precision: a certified enclosure of the max over the counts k of
    binary_rr_counts(n) and both directions of the exact composed eps (as compose_clones_mp)."""
    return _composed_mp("exact_binary_rr", compose_exact_binary_rr, dps, eps0, n, delta, rounds)
