"""The FFT path of BBGN19 Lemma 5.3's blanket sum for a finite randomizer, all blanket sizes in one inverse FFT
(statement BBGN19.Lem5.3.exact_randomizer; used by `blanket_exact_randomizer.blanket_pair_delta` for pairs with more
than 3 groups and for the blanket sizes whose lattice interval cancels, and by `blanket_pair_fft_delta`).

The blocked blanket sum of `blanket_exact_randomizer.blanket_sum` is an upper bound of the form
sum_b w_b E[(L_1 + ... + L_{N_b})_+] with blocks b, their first blanket sizes N_b and weights
w_b = (block mass upper bound) / N_b >= 0 (D_N is non-increasing in N, module doc there). The per-size FFT path
bounds each E[(S_N)_+] by its own FFT (one forward and one inverse transform, a Chernoff window and cutoff per
size: hundreds of small FFTs per evaluation at n = 1e3, most of the envelope's cost). Here the SAME randomized
rounding to the grid h Z (h a power of 2; module doc of `blanket_exact_randomizer`, convex order: E f(sum L_i) <=
E f(sum L'_i) for f(s) = s_+) turns L into a grid measure x (upper brackets of the masses), and the weighted sum is
one expectation under one non-negative measure:

    sum_b w_b E[(S'_{N_b})_+] = sum_s s_+ M(s),   M = sum_b w_b x^{*N_b}   (linear in the measure),

whose discrete Fourier transform on a cyclic window of L points is sum_b w_b X^{N_b}, X the transform of x placed
at its absolute grid indices modulo L (so no phase factor: the power of X is the transform of x^{*N} at absolute
indices modulo L). One forward transform, the powers X^{N_b} in increasing N (X^{N_b} = X^{N_{b-1}} X^{N_b - N_{b-1}},
the step's power by binary exponentiation and kept per step), their weighted sum, one inverse transform.

Why the result is an upper bound (each step one direction; the error model of `reference/numerics/pld.py`, point 4,
with its assumption about pocketfft, C_FFT):
1. Cyclic window [A, A + L) (absolute grid indices): the cyclic mixture at position p is the sum of M over the
   indices congruent to A + p, all non-negative, so it is >= M(A + p): the window's positive points bound the part
   of the sum on (0, c], c <= the window's top (`cutoff`).
2. Above c: for each b, E[S' 1{S' > c}] <= M_x(lam)^N e^{-lam c} (c + 1/lam) (Chernoff for a non-negative
   measure, as `blanket_exact_randomizer._chernoff_cutoff`), minimised over a lam grid; weighted by w_b.
   Below the window (A h > 0 only): s_+ <= A h there, times the Chernoff lower-tail mass.
3. Round-off. The forward transform's 2-norm error is at most eps_f sqrt(L) ||x||_2 (Higham, the pld assumption),
   entrywise too; |Z^N - X^N| <= N R^(N-1) |Z - X| with R >= every |Z|, |X| (R = ||x||_1 + that error). Every
   computed power is fl(Z^{N_b}) = Z^{N_b} (1 + theta_b) with |theta_b| <= 1.02 sqrt(5) u k_b (Brent, Percival,
   Zimmermann 2007: a complex product has relative error <= sqrt(5) u; the relative errors of the factors of a
   product add up to first order, a squaring doubles one; 1.02 covers the second order while sqrt(5) u k_b <=
   0.01, checked): binary exponentiation to the power t has k <= t + 2 log2 t + 2 (pld's count), and
   k_b = k_{b-1} + k(N_b - N_{b-1}) + 1 for the product of the previous power and the step's. The weighted sum adds
   at most 1.5 (B + 2) u sum_b w_b |fl(Z^{N_b})| entrywise (each real component (B + 2) u' of its terms' moduli). The 2-norm of the spectrum's error (half spectrum, as
   pld) becomes the values' 2-norm error sqrt(2/L) e (1 + eps_f) + eps_f (mass + sqrt(2/L) e) (mass =
   sum_b w_b ||x||_1^{N_b} >= the exact values' 2-norm), and |sum_s s v_hat - sum_s s v| <= ||s||_2 times it
   (Cauchy-Schwarz), added. Underflow of the powers: at most 2^-1074 per entry and product, L (k + B) 2^-1070 in
   all, added.
4. The float sum of the positive window points: (L + 4) 1.001 u 4 times the sum of |terms|, added; the total
   times (1 + 8 u).
The lower end is 0 on this path (as the per-size FFT path's).

Tightness: the grid step is the per-size path's at the largest N (0.05 standard deviations of L, coarser only
where the FFT length asks for it), so the randomized rounding's variance increase is the same; the Chernoff and
round-off terms are of the per-size path's size, and the cap D_N <= 1 of each block is replaced by the cap
sum_b (block mass) of the whole sum. When the window would exceed MAX_FFT points even at a coarser step the
function returns None and the caller uses the per-size path.

Written by hand: no library composes a weighted sum of convolution powers with a certified round-off bound
(`reference/numerics/pld.py`'s module doc says why its own FFT engine is written by hand; this module uses its
public names only).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..core.errors import ParameterError, require_probability
from ..numerics.binomial import UNIT
from ..numerics.pld import C_FFT, GridPLD, spectrum_power

__all__ = ["mixture_positive_part_upper", "mixture_points", "rounded_grid", "MAX_FFT", "MAX_VALUE", "H_OVER_SD", "FFT_TARGET"]

# As the per-size path (`blanket_exact_randomizer`): the grid step targets H_OVER_SD standard deviations of L, the
# window at most FFT_TARGET points at the step's choice and MAX_FFT in all.
H_OVER_SD = 0.05
FFT_TARGET = 2**18
MAX_FFT = 2**19
# Chernoff: lam grid (times 1 / the scale) and the tail level placing the window (the window only decides
# tightness: every mass outside it is accounted for in step 1-2 of the module doc).
LAM_GRID = np.geomspace(1e-3, 1e3, 48)
WINDOW_LOG_TAIL = 92.2  # 1e-40
SQRT5_U = math.sqrt(5.0) * UNIT
# The smallest positive double: a term that underflows to 0 (or is rounded as a subnormal) is off by less than it.
TINY = 2.0**-1074
# Cutoffs tried (module doc, step 2).
CUTOFF_CANDIDATES = 16
# The grid step is at least 2^-GRID_BITS of the largest |value| of L (`_step`).
GRID_BITS = 40
# The largest |value| of L accepted (privacy-loss coefficients are at most e^(2 x 50); beyond, squares of the window's
# points overflow a double).
MAX_VALUE = 1e100


def _power(z: np.ndarray, t: int) -> tuple[np.ndarray, float]:
    """z^t (t >= 1) by binary exponentiation and k with |fl(z^t) - z^t| <= 1.02 sqrt(5) u k |z^t| to first order:
    squaring doubles a relative error, so base^(2^j) carries (2^j - 1) products' worth and the result at most
    t + 2 log2 t + 2 (pld's count, module doc step 3)."""
    acc = spectrum_power(z, t)  # ParameterError for t < 1
    return acc, t + 2 * math.log2(t) + 2


def rounded_grid(l_hi: np.ndarray, p_hi: np.ndarray, h: float, *, unit: float = UNIT) -> tuple[int, np.ndarray]:
    """Randomized rounding of L (values l_hi, probability upper brackets p_hi) to h Z (module doc of
    `blanket_exact_randomizer`, convex order): L' = h floor(l/h) + h B, B ~ Bernoulli(q), q >= (l - h floor(l/h))/h.
    Returns the index of the first point and the masses (upper brackets), the one grid of both callers: this module's
    batched sum (`unit` = UNIT) and `blanket_exact_randomizer._fft_grid` (`unit` = 1.001 UNIT, lattice_sums.U1): each
    rounding is charged `unit` per operation (any unit >= UNIT is sound; the two callers keep their own floats).
    Range: l_hi, p_hi finite 1-d arrays of one length (p_hi >= 0), h a positive power of 2 with l_hi / h within
    int64, UNIT <= unit < 1e-10."""
    if not (isinstance(unit, float) and UNIT <= unit < 1e-10):
        raise ParameterError("unit", unit, f"a float in [{UNIT!r}, 1e-10) (the unit roundoff charged per operation)")
    if not (isinstance(h, float) and h > 0 and math.isfinite(h) and math.frexp(h)[0] == 0.5):
        raise ParameterError("h", h, "a positive finite power of 2")
    l_arr = np.asarray(l_hi, dtype=float)
    p_arr = np.asarray(p_hi, dtype=float)
    if l_arr.ndim != 1 or l_arr.shape != p_arr.shape or len(l_arr) == 0 or not bool(np.all(np.isfinite(l_arr))) or not bool(np.all(p_arr >= 0)):
        raise ParameterError("l_hi", l_arr.tolist()[:4], "finite values, one probability upper bracket >= 0 each")
    base = np.floor(l_arr / h)
    frac = np.clip((l_arr - base * h) / h, 0.0, 1.0)
    # q >= the exact fraction: (l_hi - base h) is exact (Sterbenz / a power-of-2 h) up to one rounding.
    q = np.minimum(frac * (1 + 4 * unit) + 1e-300, 1.0)
    lo = int(np.min(base))
    size = int(np.max(base)) - lo + 2
    masses = np.zeros(size)
    np.add.at(masses, (base - lo).astype(np.int64), p_arr * (1.0 - q) * (1 + 4 * unit))
    np.add.at(masses, (base - lo).astype(np.int64) + 1, p_arr * q * (1 + 4 * unit))
    masses *= 1 + (len(p_arr) + 2) * unit
    return lo, masses


def mixture_positive_part_upper(l_hi: Sequence[float] | np.ndarray, p_hi: Sequence[float] | np.ndarray, big_ns: Sequence[int] | np.ndarray, weights: Sequence[float] | np.ndarray, *, tail: float = 1e-30) -> float | None:
    """BBGN19.Lem5.3.exact_randomizer (module doc): an upper bound on sum_b weights[b] E[(L_1 + ... + L_{N_b})_+],
    L_i i.i.d. copies of L with values at most l_hi[g] with probability at most p_hi[g] (upper brackets of the
    group coefficients and probabilities; sum_g p_hi[g] >= 1), for the blanket sizes big_ns (integers >= 1) and
    non-negative float weights. None when the window does not fit MAX_FFT points (the caller then takes the
    per-size path). Range: 1 to 64 groups of l_hi with |l_hi| <= MAX_VALUE = 1e100 and p_hi in [0, 1]; 1 <= N <= 1e8;
    weights finite >= 0;
    0 < tail < 1 (only where the window is placed)."""
    l_arr = np.asarray(l_hi, dtype=float)
    p_arr = np.asarray(p_hi, dtype=float)
    if l_arr.ndim != 1 or not 1 <= len(l_arr) <= 64 or p_arr.shape != l_arr.shape or not bool(np.all(np.abs(l_arr) <= MAX_VALUE)):
        raise ParameterError("l_hi", l_arr.tolist()[:4], f"1 to 64 group coefficients |l| <= {MAX_VALUE:g}, one probability each")
    if not bool(np.all((p_arr >= 0) & (p_arr <= 1))):
        raise ParameterError("p_hi", p_arr.tolist()[:4], "probabilities in [0, 1]")
    ns = np.asarray(big_ns, dtype=np.int64)
    w = np.asarray(weights, dtype=float)
    if ns.ndim != 1 or len(ns) == 0 or w.shape != ns.shape:
        raise ParameterError("big_ns", len(ns), "a non-empty list of blanket sizes, one weight each")
    if not bool(np.all((ns >= 1) & (ns <= 10**8))):
        raise ParameterError("big_ns", int(np.min(ns)), "blanket sizes 1 <= N <= 1e8")
    if not bool(np.all(np.isfinite(w) & (w >= 0))):
        raise ParameterError("weights", w.tolist()[:4], "finite non-negative weights")
    require_probability("tail", tail)
    order = np.argsort(ns, kind="stable")
    ns, w = ns[order], w[order]
    if float(np.max(l_arr)) <= 0 or float(np.sum(w)) == 0:
        return 0.0  # S <= 0 surely (or nothing weighted)
    h, sd = _step(l_arr, p_arr, int(ns[-1]))
    for _ in range(8):
        result = _evaluate(l_arr, p_arr, ns, w, h, float(tail), sd)
        if result is not None:
            return result
        h *= 2.0
    return None


def _step(l_hi: np.ndarray, p_hi: np.ndarray, n_max: int) -> tuple[float, float]:
    """The grid step (the per-size path's rule at the largest size) and the float standard deviation of L."""
    p_float = p_hi / np.sum(p_hi)
    mean = float(np.sum(p_float * l_hi))
    sd = math.sqrt(max(float(np.sum(p_float * (l_hi - mean) ** 2)), 1e-300))
    spread = float(np.max(l_hi) - np.min(l_hi))
    span = min(n_max * spread, 30.0 * math.sqrt(n_max) * sd + 2 * spread)
    # At least 2^-GRID_BITS of the largest |value|: grid indices stay below 2^GRID_BITS, exact in float (the grid values
    # index * h are assumed exact) and in int64, also where L is (nearly) constant and sd ~ 0.
    floor = float(np.max(np.abs(l_hi))) * 2.0**-GRID_BITS
    return 2.0 ** math.floor(math.log2(max(min(H_OVER_SD * sd, span / 1024), span / FFT_TARGET, spread / (MAX_FFT // 4), floor, 1e-300))), sd


def _window(grid: GridPLD, n_float: np.ndarray, sd: float, tail: float) -> tuple[int, int, np.ndarray, np.ndarray, np.ndarray]:
    """(first index, FFT length, lam grid, log M(lam), log M(-lam)): the union over the sizes of the Chernoff windows
    at `tail` (placement only, module doc steps 1-2), the length a power of 2."""
    h = grid.step
    scale = max(math.sqrt(float(n_float[-1])) * sd + h, h)
    lam = LAM_GRID / scale
    log_up = grid.log_mgf(lam)  # upper bounds of log M(lam) (pld)
    log_down = grid.log_mgf(-lam)
    log_inv = math.log(1.0 / tail)
    s_hi = float(np.max(np.min((n_float[:, None] * log_up[None, :] + log_inv) / lam[None, :], axis=1)))
    s_lo = float(np.min(np.max(-(n_float[:, None] * log_down[None, :] + log_inv) / lam[None, :], axis=1)))
    lo_index = int(math.floor(s_lo / h)) - 1
    hi_index = int(math.ceil(s_hi / h)) + 1
    need = max(hi_index - lo_index + 1, len(grid.masses), 16)
    size = 1 << (need - 1).bit_length()
    spare = size - (hi_index - lo_index + 1)
    return lo_index - spare // 4, size, lam, log_up, log_down  # a little room below, the rest above (as pld)


def mixture_points(l_values: Sequence[float] | np.ndarray, p_values: Sequence[float] | np.ndarray, n_lo: int, n_hi: int, *, tail: float = 1e-30) -> int:
    """Uncertified, for cost estimates: the FFT length `mixture_positive_part_upper` takes for L with these values and
    probabilities (floats) and the sizes n_lo..n_hi (at the first grid step tried; at most MAX_FFT beyond which it
    coarsens the step). Range: as mixture_positive_part_upper; 1 <= n_lo <= n_hi <= 1e8."""
    l_arr = np.asarray(l_values, dtype=float)
    p_arr = np.asarray(p_values, dtype=float)
    if l_arr.ndim != 1 or not 1 <= len(l_arr) <= 64 or p_arr.shape != l_arr.shape or not bool(np.all(np.abs(l_arr) <= MAX_VALUE)):
        raise ParameterError("l_values", l_arr.tolist()[:4], f"1 to 64 group coefficients |l| <= {MAX_VALUE:g}, one probability each")
    if not bool(np.all((p_arr >= 0) & (p_arr <= 1))) or not float(np.sum(p_arr)) > 0:
        raise ParameterError("p_values", p_arr.tolist()[:4], "probabilities in [0, 1] with a positive sum")
    if not (isinstance(n_lo, int) and isinstance(n_hi, int) and 1 <= n_lo <= n_hi <= 10**8):
        raise ParameterError("n_hi", n_hi, "blanket sizes 1 <= n_lo <= n_hi <= 1e8")
    require_probability("tail", tail)
    h, sd = _step(l_arr, p_arr, n_hi)
    lo, masses = rounded_grid(l_arr, p_arr, h)
    _, size, _, _, _ = _window(GridPLD(h, lo, masses, 0.0, True, 0.0), np.array([float(n_lo), float(n_hi)]), sd, float(tail))
    return min(size, MAX_FFT)


def _evaluate(l_hi: np.ndarray, p_hi: np.ndarray, ns: np.ndarray, w: np.ndarray, h: float, tail: float, sd: float) -> float | None:
    lo, masses = rounded_grid(l_hi, p_hi, h)
    grid = GridPLD(h, lo, masses, 0.0, True, 0.0)
    n_float = ns.astype(float)
    lo_index, size, lam, log_up, log_down = _window(grid, n_float, sd, tail)
    if size > MAX_FFT:
        return None
    # x at its absolute indices modulo the window length: X^N is then the transform of x^{*N} at absolute indices
    # modulo L (module doc).
    placed = np.zeros(size)
    np.add.at(placed, (lo + np.arange(len(masses))) % size, masses)
    spectrum = np.fft.rfft(placed)
    eps_f = C_FFT * math.log2(size) * UNIT
    norm2 = float(np.sqrt(np.sum(masses**2))) * (1 + 1e-12)
    norm1 = float(np.sum(masses)) * (1 + 1e-12) * (1 + (len(masses) + 2) * UNIT)
    z_err = eps_f * math.sqrt(size) * norm2  # the spectrum's 2-norm (hence entrywise) error
    radius = norm1 + z_err
    # Powers in increasing N, each from the previous one and the step's power (kept per step).
    step_powers: dict[int, tuple[np.ndarray, float]] = {}
    mixture = np.zeros(len(spectrum), dtype=complex)
    current: np.ndarray | None = None
    products = 0.0  # the relative-error count of the current power (module doc, step 3)
    previous = 0
    e_power = 0.0  # 2-norm bound of the spectrum error of the weighted sum (before the sum's own rounding)
    abs_sum = 0.0  # sum_b w_b ||fl(Z^{N_b})||_2, for the weighted sum's rounding
    mass_total = 0.0
    for big_n, weight in zip(ns.tolist(), w.tolist(), strict=True):
        if current is None or big_n != previous:
            if current is None:
                current, products = _power(spectrum, big_n)
            else:
                delta_n = big_n - previous
                if delta_n not in step_powers:
                    step_powers[delta_n] = _power(spectrum, delta_n)
                factor, factor_products = step_powers[delta_n]
                current = current * factor
                products += factor_products + 1
            previous = big_n
        if weight == 0:
            continue
        theta = 1.02 * SQRT5_U * (products + 1)
        if not theta <= 0.01:
            return None  # outside the first-order bound (N ~ 1e13: never in range)
        p_norm = float(np.sqrt(np.sum(np.abs(current) ** 2))) * (1 + 1e-12)
        log_r = (big_n - 1) * math.log(max(radius, 1e-300))
        r_pow = math.exp(log_r) * (1 + 1e-12) if log_r < 700 else math.inf
        e_power += weight * (r_pow * big_n * z_err + theta / (1 - theta) * p_norm)
        abs_sum += weight * p_norm
        log_mass = big_n * math.log(norm1)
        mass_total += weight * (math.exp(log_mass) * (1 + 1e-12) if log_mass < 700 else math.inf)
        mixture += weight * current
    blocks = len(ns)
    # The weighted sum: each real component within (B + 2) u' of the sum of the terms' moduli, so the complex
    # entry within sqrt(2) times that.
    e_power = (e_power + 1.5 * (blocks + 2) * UNIT * abs_sum) * (1 + 1e-12)
    values = np.fft.irfft(mixture, n=size)
    error = math.sqrt(2.0 / size) * e_power * (1 + eps_f) + eps_f * (mass_total + math.sqrt(2.0 / size) * e_power)
    error += size * (products + blocks + 8) * 2.0**-1070  # underflow in the products and the sum (products >= their number)
    error *= 1 + 1e-12
    # Window position j holds the absolute index lo_index + j (the cyclic array index (lo_index + j) mod L).
    values = np.roll(values, -(lo_index % size))
    s = (lo_index + np.arange(size, dtype=float)) * h
    # Cutoff c in [0, the window's last point]: any is valid (module doc, step 2); the bound is evaluated at the
    # sizes' own Chernoff cutoffs (tail 1e-40; a smaller c shortens the round-off term's ||s||_2, a larger one the
    # Chernoff terms of the smaller sizes) and the smallest value is kept.
    last = max((lo_index + size - 1) * h, 0.0)  # c = 0 when no window point is positive
    cuts = np.min((n_float[:, None] * log_up[None, :] + WINDOW_LOG_TAIL) / lam[None, :], axis=1)
    candidates = np.unique(np.clip(np.quantile(cuts, np.linspace(0.0, 1.0, min(len(cuts), CUTOFF_CANDIDATES))), 0.0, last))
    first = int(np.searchsorted(s, 0.0, side="right"))  # the first window point with s > 0
    vs_all = values[first:] * s[first:]
    sums = np.concatenate(([0.0], np.cumsum(vs_all)))
    abs_sums = np.concatenate(([0.0], np.cumsum(np.abs(vs_all))))
    squares = np.concatenate(([0.0], np.cumsum(s[first:] ** 2)))
    # Each weighted Chernoff term w_b e^x whose e^x or product underflows (or is subnormal) is off by less than
    # (w_b + 1) TINY, the sum of subnormal terms by less than TINY each: (sum_b w_b + 2 B) TINY in all, an integer
    # multiple of TINY so that the margin itself is exact.
    underflow = TINY * math.ceil((float(np.sum(w)) + 2 * len(w)) * (1 + 1e-12))
    best_value = math.inf
    for cutoff in candidates.tolist():
        count = int(np.searchsorted(s[first:], cutoff, side="right"))  # the points with 0 < s <= cutoff
        total = float(sums[count])
        # The float sums (prefix sums of at most L terms): (L + 4) u' of the sum of |terms|, times 4 as pld.
        slack = (size + 4) * 1.001 * UNIT * float(abs_sums[count]) * 4
        slack += math.sqrt(float(squares[count]) * (1 + (size + 4) * UNIT)) * 1.0001 * error
        # Beyond the cutoff: sum_b w_b min_lam M(lam)^N e^{-lam c} (c + 1/lam) (module doc, step 2).
        expo = n_float[:, None] * log_up[None, :] - lam[None, :] * cutoff + np.log(cutoff + 1.0 / lam)[None, :]
        best = np.min(expo, axis=1)
        beyond = float(np.sum(w * np.where(best < 700, np.exp(np.minimum(best, 700.0)), math.inf))) * (1 + (len(w) + 4) * UNIT) * (1 + 1e-12)
        beyond += underflow  # terms below the smallest double came out as 0 (or subnormal)
        best_value = min(best_value, total + slack + beyond)
    below = 0.0
    if lo_index > 0:  # s_+ <= lo_index h below the window; its mass by the lower Chernoff tail
        expo_low = n_float[:, None] * log_down[None, :] + lam[None, :] * (lo_index * h)
        low_mass = np.minimum(np.exp(np.minimum(np.min(expo_low, axis=1), 700.0)), np.exp(np.minimum(n_float * math.log(norm1), 700.0)))
        below = float(np.sum(w * low_mass)) * lo_index * h * (1 + (len(w) + 4) * UNIT) * (1 + 1e-12)
        below += TINY * math.ceil(float(underflow / TINY) * lo_index * h * (1 + 1e-12) + 1)  # the same underflow, times the s_+ cap
    value = (best_value + below) * (1 + 8 * UNIT)
    if not math.isfinite(value):
        return None
    return max(value, 0.0)

