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

5. Tilted composition at small delta (`compose_tilted`, `TiltedPLD`). The round-off of point 4 is relative to
   the whole mass (~1e-13 of it), so below delta ~ 1e-12 the untilted curve certifies nothing. For a tilt
   lam >= 0 and floats L_r (one per grid, held exactly):
   T5.1 (identity, exact for every lam and eps) With mu~_r = e^{lam x - L_r} mu_r (mu_r the finite part of grid
        r), the composed finite measure c = *_r mu_r^{*T_r} is c(s) = e^{Lambda - lam s} c~(s), Lambda =
        sum_r T_r L_r, c~ = *_r mu~_r^{*T_r}; with e^{-lam s} = e^{-lam eps} e^{-lam (s - eps)}:
        sum_s g(s) c(s) = e^{Lambda - lam eps} sum_s G(s - eps) c~(s), G(u) = (1 - e^{-u})_+ e^{-lam u};
        delta(eps) = Pr[S = +inf] + that, Pr[S = +inf] <= sum_r T_r inf_r (upper end; 0 for the lower).
   T5.2 (masses) a_{r,i} >= m_{r,i} e^{lam x_{r,i} - L_r} (pessimistic grids; <= for optimistic ones): the
        exponent log m + lam x - L is within 4 u (|log m| + 2 |lam x| + |L|) + 1e-12 of the float one, and
        e^err <= 1 + 2 err. The convolution is monotone in each mass and G >= 0.
   T5.3 (trimmed entries) The entries of a_r at both ends of total <= TILT_TRIM (and those that underflow, each
        < 2^-1074) are dropped: the composites using one of them have tilted mass <= (sum_r T_r D_r) A^{T-1}
        (A >= every grid's tilted total; (k + d)^T - k^T <= T d (k + d)^{T-1}), each weighted by G <= G_max:
        added to the upper end, ignored by the lower one (G >= 0).
   T5.4 (the weight) 0 <= G(u) <= G_max := 1 / (1 + lam): G' = 0 at e^{-u} = lam / (1 + lam), where
        G = (1 / (1 + lam)) (lam / (1 + lam))^lam <= 1 / (1 + lam); and G(u) <= e^{-lam u} (1 - e^{-u} <= 1).
   T5.5 (window, aliasing) `compose` on the tilted grids (point 3): cyclic values >= linear ones, mass above the
        window <= tail_above, below <= tail_below (Chernoff on the tilted moment generating functions). Upper:
        sum_s G c~ <= sum_j G_j v_j + tail_above min(G_max, e^{-lam (top - eps)}) + tail_below G_max (the last
        only when the window starts above eps: G = 0 at s <= eps). Lower: >= sum_j G_j v_j - G_max (tail_above
        + tail_below) (the aliased mass, each window point weighted <= G_max).
   T5.6 (round-off) |sum_j G_j (v^_j - v_j)| <= ||G||_2 error_2norm (point 4; relative to the tilted total,
        about 1, so after the scale relative to delta itself), plus G's float error (expm1, exp, u = s - eps
        and lam u: relative <= 2e-12 + 4 u (2 + lam u_max)) and the sum's ((N + 4) u' sum |G_j v_j|).
   T5.7 (scale, log space) delta = e^{Lambda - lam eps} inner: Lambda's float sum within (R + 2) u' sum |T_r
        L_r|, the exponent within 4 u (|Lambda - lam eps| + |lam eps|) + 1e-12 (1 + |log inner|), exp within
        1e-12: an upper (lower) bound down to delta ~ 1e-300 (below, the upper end is the smallest double).
   T5.8 (cut) Beyond s_J = eps + 80 / lam the window is not summed: there G <= e^{-lam (s_J - eps)} (T5.4) and
        the tilted composed mass is at most prod_r A_r^{T_r} (the tilted grids' totals), their product is added
        to the upper end; the lower end drops those non-negative terms.
   lam (`saddle_tilt`: the tilted mean of the composed loss at the eps asked; `chernoff_epsilon` estimates
   that eps) is a float choice that decides tightness only. Reused from the single-round Laplace blanket
   engine (`tilted_lattice.log_positive_part_expectation`): the error model of the tilted masses (T5.2) and the
   log-space scale; new here: the weight G with e^{-lam eps} factored out, the +inf atom, T5.3, both ends.
   The SymPy checks of T5.1, T5.3 and T5.4 (T5.8 uses T5.4) are in `proofs_checks/derived/compose.py`.
6. Top cut before a tilt (`cut_top`). A grid's highest losses can carry a tiny mass that the tilt blows up (an
   envelope's last chord puts ~1e-34 at loss eps0: tilted by e^{lam x} with lam ~ 45 it outweighs the mass near
   eps, and the tilted round-off, relative to the tilted total, then exceeds delta). Moving the top entries of
   total mass <= budget to +inf (pessimistic grid: g is non-decreasing with g(+inf) = 1, point 1) or dropping
   them (optimistic grid: g >= 0) keeps each curve certified on its side; the moved mass is summed afresh with
   its float error rounded up. The delta(eps) path of the compositions cuts budget ~ 1e-3 x its best certified
   upper end / rounds (`composition.solve.tilted_delta`), so the cut costs at most 1e-3 of that end.

Written by hand rather than with dp_accounting's PLD: every step above is a proven bound in one direction,
where dp_accounting's discretisation is pessimistic but its FFT round-off and truncation are not accounted for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence, cast

import numpy as np

from ..core.errors import ParameterError, require_integer, require_probability
from ..core.rounding import fraction_to_float_up
from .binomial import UNIT

__all__ = ["C_FFT", "MAX_FFT", "ComposedPLD", "GridPLD", "PairPLD", "TiltedPLD", "chernoff_epsilon", "compose", "compose_tilted", "coarsen", "cut_top", "saddle_tilt", "spectrum_power"]

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

    def discretise(self, step: float, pessimistic: bool, tail: float, *, precise_tail: bool = False) -> "GridPLD":
        """The grid PLD on step * Z: losses rounded up (pessimistic) or down, masses' upper or lower
        bounds; for the upper bound the top tail of mass <= tail/2 goes to +inf and the bottom tail of mass
        <= tail/2 is moved up to the lowest kept grid point; for the lower bound both are moved inward.
        `precise_tail`: the top tail is located by suffix sums rather than by total - prefix sums (which cancel
        below ~1e-16 of the total and then cut up to that much mass to +inf: sound, but a floor under delta;
        the tilted compositions at small delta use it, point 5). The cut only decides which mass is moved, the
        moved mass is summed afresh, so either way is sound."""
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
        if precise_tail:
            rcum = np.cumsum(masses[::-1])[::-1]  # mass at indices >= j, from the top down (no cancellation)
        else:
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
        logs, grid = _support(self)
        expo = logs[None, :] + lam[:, None] * grid[None, :]
        top = np.max(expo, axis=1)
        value = top + np.log(np.sum(np.exp(expo - top[:, None]), axis=1))
        bound: np.ndarray = value + 1e-9 * np.abs(value) + 1e-12
        return bound


# Per-grid quantities of read-only grids that do not depend on the power (the log masses and losses of the support,
# the float variance, the norms), kept as the spectra below: a blanket sum composes one grid at ~200 sizes. Each is
# the same expression on the same array, so the same floats. As for the spectra, read-only is not immutable: an
# entry keeps a copy of the masses it was computed from and is reused only while the masses equal it.
_FACTS: dict[int, tuple[GridPLD, np.ndarray, dict[str, Any]]] = {}
_FACTS_KEPT = 16


def _facts(g: GridPLD) -> dict[str, Any] | None:
    """The kept quantities of a read-only grid (a dict filled by the callers), None for a writeable one."""
    if g.masses.flags.writeable:
        return None
    kept = _FACTS.get(id(g))
    if kept is not None and kept[0] is g and np.array_equal(kept[1], g.masses):
        return kept[2]
    _FACTS.pop(id(g), None)  # a changed grid's entry is replaced (and counted once)
    if len(_FACTS) >= _FACTS_KEPT:
        _FACTS.pop(next(iter(_FACTS)))
    facts: dict[str, Any] = {}
    _FACTS[id(g)] = (g, g.masses.copy(), facts)
    return facts


def _support(g: GridPLD) -> tuple[np.ndarray, np.ndarray]:
    """(log masses, losses) of the grid's positive masses (`GridPLD.log_mgf`), kept for a read-only grid."""
    facts = _facts(g)
    if facts is not None and "support" in facts:
        return cast(tuple[np.ndarray, np.ndarray], facts["support"])
    positive = g.masses > 0
    logs = np.log(g.masses[positive])
    grid = (g.offset + np.nonzero(positive)[0]).astype(float) * g.step
    if facts is not None:
        facts["support"] = (logs, grid)
    return logs, grid


def _norms(g: GridPLD) -> tuple[float, float]:
    """(upper bound of the 2-norm, upper bound of the 1-norm) of the grid's masses (`compose`), kept for a read-only
    grid."""
    facts = _facts(g)
    if facts is not None and "norms" in facts:
        return cast(tuple[float, float], facts["norms"])
    norms = (float(np.sqrt(np.sum(g.masses**2))) * (1 + 1e-12), float(np.sum(g.masses)) * (1 + 1e-12) * (1 + (len(g.masses) + 2) * UNIT))
    if facts is not None:
        facts["norms"] = norms
    return norms


def _variance(g: GridPLD) -> float:
    """The float variance of the grid's normalised masses (`_grid_scale`), kept for a read-only grid."""
    facts = _facts(g)
    if facts is not None and "variance" in facts:
        return cast(float, facts["variance"])
    w = g.masses / max(float(np.sum(g.masses)), 1e-300)
    x = (g.offset + np.arange(len(w))) * g.step
    mean = float(np.sum(w * x))
    variance = float(np.sum(w * (x - mean) ** 2))
    if facts is not None:
        facts["variance"] = variance
    return variance


def spectrum_power(z: np.ndarray, t: int) -> np.ndarray:
    """z ** t (entrywise, t >= 1) by binary exponentiation: at most t + 2 log2 t + 2 complex products' worth of
    relative round-off (module doc, point 4: FFT round-off). ParameterError for t < 1."""
    require_integer("t", t, minimum=1)
    base, acc, t = z, None, int(t)
    while t:
        if t & 1:
            acc = base if acc is None else acc * base
        t >>= 1
        if t:
            base = base * base
    return cast(np.ndarray, acc)


# The spectra of read-only grids, kept by (grid, FFT length): a blanket sum composes one grid at every block size N
# (`bounds.blanket_exact_randomizer.fft_count_expectation_upper`: about 200 sizes at n = 1e3, one rfft of 32768 points
# each, a third of subset selection's four-group evaluation), and neighbouring sizes share the grid object and the FFT
# length, so its zero-padded transform is the same array each time. Only grids whose masses are read-only are kept;
# an entry holds its grid, so the grid's id is not reused while it is kept, and a copy of the masses it was computed
# from: read-only is not immutable (a read-only view's base may be written, an array that owns its data may be made
# writeable again), so a kept transform is reused only while the masses equal that copy (an O(length) comparison
# against the transform's O(size log size)). The transform is the same call on the same input: the same floats.
_SPECTRA: dict[tuple[int, int], tuple[GridPLD, np.ndarray]] = {}
_SPECTRA_MASSES: dict[tuple[int, int], np.ndarray] = {}  # the masses each kept transform was computed from (a copy)
_SPECTRA_KEPT = 16
_SPECTRA_SIZE_MAX = 1 << 17  # FFT lengths kept: at most 16 spectra of 2 MB (the blanket sums' lengths are 2^12-2^16)


def _grid_spectrum(g: GridPLD, size: int) -> np.ndarray:
    """rfft of g's masses zero-padded to `size` (kept read-only for read-only grids: the comment above)."""
    key = (id(g), size)
    kept, masses = _SPECTRA.get(key), _SPECTRA_MASSES.get(key)
    if kept is not None and kept[0] is g and masses is not None and np.array_equal(masses, g.masses):
        return kept[1]
    padded = np.zeros(size)
    padded[: len(g.masses)] = g.masses
    spectrum = np.fft.rfft(padded)
    if not g.masses.flags.writeable and size <= _SPECTRA_SIZE_MAX:
        spectrum.setflags(write=False)
        _SPECTRA.pop(key, None)  # a changed grid's entry is replaced (and counted once)
        if len(_SPECTRA) >= _SPECTRA_KEPT:
            oldest = next(iter(_SPECTRA))
            del _SPECTRA[oldest]
            _SPECTRA_MASSES.pop(oldest, None)
        _SPECTRA[key] = (g, spectrum)
        _SPECTRA_MASSES[key] = padded[: len(g.masses)].copy()
    return spectrum


# The repeated squares z, z^2, z^4, ... of kept (read-only) spectra: a blanket sum raises one kept spectrum to ~200
# neighbouring powers N, and binary exponentiation squares the same array again for each (two thirds of its products
# at N ~ 500). `_kept_power` multiplies the kept squares in the order `spectrum_power` does, so the product is the
# same floats (the same operations on the same operands). At most _SQUARES_KEPT chains; each entry holds its
# spectrum, so its id is not reused while it is kept.
_SQUARES: dict[int, tuple[np.ndarray, list[np.ndarray]]] = {}
_SQUARES_KEPT = 2


def _kept_power(z: np.ndarray, t: int) -> np.ndarray:
    """z ** t for a read-only spectrum z, as `spectrum_power` computes it (the same products in the same order),
    its squares kept across calls (the comment above)."""
    kept = _SQUARES.get(id(z))
    if kept is None or kept[0] is not z:
        if len(_SQUARES) >= _SQUARES_KEPT:
            _SQUARES.pop(next(iter(_SQUARES)))
        kept = (z, [z])
        _SQUARES[id(z)] = kept
    squares = kept[1]
    acc: np.ndarray | None = None
    index = 0
    while t:
        if t & 1:
            acc = squares[index] if acc is None else acc * squares[index]
        t >>= 1
        index += 1
        if t and index == len(squares):
            squares.append(squares[-1] * squares[-1])
    return cast(np.ndarray, acc)


def _fft_power_product(spectra: list[np.ndarray], powers: list[int]) -> np.ndarray:
    """prod_r spectra[r] ** powers[r] by binary exponentiation (module doc, point 4: FFT round-off); the squares of a
    kept (read-only) spectrum are kept too (`_kept_power`: the same floats)."""
    result = None
    for z, t in zip(spectra, powers, strict=True):
        acc = spectrum_power(z, t) if z.flags.writeable or t < 1 else _kept_power(z, int(t))
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
    # The composed grids and their powers (kept for the tilted composition, point 5 of the module doc).
    grids: tuple[GridPLD, ...] = ()
    powers: tuple[int, ...] = ()
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
        # At eps >= top no window point lies above eps (g = 0 on the whole window): the empty sum, as the index
        # below would give, without forming int(eps / step) (an OverflowError at eps ~ 1e308).
        first = max(int(math.floor(eps / self.step)) + 1 - self.start, base) - base if eps < top else len(sum_v) - 1
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


_LAMBDAS = np.geomspace(1e-3, 1e3, 25)  # `_window`'s lam grid, times 1 / the scale
_LAMBDAS.setflags(write=False)


def _window(grids: list[GridPLD], powers: list[int], tail: float, scale: float) -> tuple[float, float, np.ndarray, np.ndarray, np.ndarray]:
    """Chernoff window [s_lo, s_hi] of the composed loss outside which each side has mass <= tail."""
    lam = _LAMBDAS / max(scale, 1e-12)
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
        spectra.append(_grid_spectrum(g, size))
        norm2, norm1 = _norms(g)
        a_norms2.append(norm2)
        a_norms1.append(norm1)
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
    return ComposedPLD(step, lo_index, values, error, tail_above, tail_below, inf_mass, pessimistic, eps_max, tuple(grids), tuple(powers))


def _grid_scale(grids: list[GridPLD], powers: list[int]) -> float:
    """Float standard deviation of the composed grid loss (to place the lam grid only)."""
    var = 0.0
    for g, t in zip(grids, powers, strict=True):
        var += t * _variance(g)
    return max(math.sqrt(var), grids[0].step)


# ---------------------------------------------------------------------------------------------------
# Point 5 of the module doc: the exponentially tilted composition (small delta).

# Mass of the tilted composed measure (total about 1) allowed outside its FFT window, each side (as
# `tilted_lattice.WINDOW_TAIL`), and the tilted mass per grid below which its entries are dropped (T5.3).
TILT_WINDOW_TAIL = 1e-30
TILT_TRIM = 1e-30
# Relative margin of numpy's exp / log / expm1 (a few ulps; 1e-12 as in `tilted_lattice.EXP_MARGIN`).
EXP_MARGIN = 1e-12
# The weight G is cut where lam u exceeds this (e^-80 ~ 2e-35 of the tilted mass beyond, added: T5.8).
CUT_EXPONENT = 80.0
# The smallest positive double (an entry that underflows is at most this) and the smallest normal one.
TINY = 2.0**-1074
SMALLEST_NORMAL = 2.0**-1022


def _check_grids(grids: Sequence[GridPLD], powers: Sequence[int]) -> None:
    """One power (an integer >= 1) per GridPLD, at least one grid, each with a positive mass."""
    if not grids or len(grids) != len(powers) or not all(isinstance(g, GridPLD) for g in grids):
        raise ParameterError("grids", grids, "a non-empty list of GridPLD, one power (rounds >= 1) each")
    for t in powers:
        require_integer("powers", t, minimum=1)
    if not all(np.any(g.masses > 0) for g in grids):
        raise ParameterError("grids", len(grids), "grid PLDs with a positive finite mass each")


def _log_mgf_float(grids: Sequence[GridPLD], powers: Sequence[int], lam: float) -> tuple[float, float]:
    """Float K(lam) = sum_r T_r log M_r(lam) and K'(lam) (the tilted mean of the composed finite loss);
    uncertified: they only choose the tilt."""
    value = slope = 0.0
    for g, t in zip(grids, powers, strict=True):
        positive = g.masses > 0
        x = (g.offset + np.nonzero(positive)[0]).astype(float) * g.step
        a = np.log(g.masses[positive]) + lam * x
        top = float(np.max(a))
        w = np.exp(a - top)
        total = float(np.sum(w))
        value += t * (top + math.log(total))
        slope += t * float(np.sum(w * x)) / total
    return value, slope


def saddle_tilt(grids: Sequence[GridPLD], powers: Sequence[int], eps: float) -> float:
    """lam >= 0 with K'(lam) ~ eps (the Chernoff saddle of the composed finite loss at eps; bisection on the
    non-decreasing tilted mean, float, uncertified: it only chooses the tilt, point 5). Range: grids with a
    positive mass each, one power >= 1 each; eps a finite float."""
    _check_grids(grids, powers)
    if not (isinstance(eps, (int, float)) and math.isfinite(eps)):
        raise ParameterError("eps", eps, "a finite float")
    if _log_mgf_float(grids, powers, 0.0)[1] >= eps:
        return 0.0
    top = sum(t * (g.offset + len(g.masses) - 1) * g.step for g, t in zip(grids, powers, strict=True))
    if eps >= top:  # beyond the largest finite composed loss: the steepest tilt that keeps log-space sums finite
        eps = top - grids[0].step / 2
    low, high = 0.0, 1.0
    while _log_mgf_float(grids, powers, high)[1] < eps and high < 1e6:
        low, high = high, 2 * high
    for _ in range(50):
        mid = 0.5 * (low + high)
        if _log_mgf_float(grids, powers, mid)[1] < eps:
            low = mid
        else:
            high = mid
    # The bracket doubles up to 2^20 > 1e6, compose_tilted's largest tilt; any tilt is a valid choice (it only aims).
    return min(high, 1e6)


def chernoff_epsilon(grids: Sequence[GridPLD], powers: Sequence[int], delta: float) -> float:
    """min over a grid of lam > 0 of (K(lam) - log delta) / lam: the eps at which the Chernoff bound of the
    composed finite loss reaches delta (float; a start for the tilt's eps, uncertified). Range: grids as
    `saddle_tilt`, 0 < delta < 1."""
    _check_grids(grids, powers)
    require_probability("delta", delta)
    lams = np.geomspace(1e-2, 1e3, 61)
    best = math.inf
    for lam in lams:
        value, _ = _log_mgf_float(grids, powers, float(lam))
        best = min(best, (value - math.log(delta)) / float(lam))
    return best


def cut_top(g: GridPLD, budget: float) -> GridPLD:
    """The grid with its highest losses of total mass <= budget moved to +inf (pessimistic grid) or dropped
    (optimistic grid), module doc point 6; the grid itself when nothing fits the budget. Range: a GridPLD,
    0 <= budget <= 1 finite."""
    if not isinstance(g, GridPLD):
        raise ParameterError("g", repr(g)[:60], "a GridPLD")
    if not (isinstance(budget, (int, float)) and math.isfinite(budget) and 0 <= budget <= 1):
        raise ParameterError("budget", budget, "a mass 0 <= budget <= 1")
    # Suffix sums from the top (no cancellation: the smallest entries are summed first); the float sums only
    # choose the cut, the moved mass is summed again below with its error bound.
    suffix = np.cumsum(g.masses[::-1])[::-1]
    keep = int(np.searchsorted(-suffix, -budget, side="left"))  # entries from `keep` on sum to <= budget
    keep = max(keep, 1)
    if keep >= len(g.masses):
        return g
    moved = float(np.sum(g.masses[keep:])) * (1 + (len(g.masses) - keep + 2) * 1.001 * UNIT)
    if g.pessimistic:
        return GridPLD(g.step, g.offset, g.masses[:keep].copy(), min((g.inf_mass + moved) * (1 + 2 * UNIT), 1.0), True, g.eps0)
    return GridPLD(g.step, g.offset, g.masses[:keep].copy(), g.inf_mass, False, g.eps0)


# The most doublings of a grid's step that `compose_tilted` accepts (2^16 times the step: far beyond any window).
MAX_COARSER = 16


def coarsen(g: GridPLD) -> GridPLD:
    """The grid on twice its step: each loss index i moves to ceil(i / 2) (pessimistic grid: the loss only grows) or
    floor(i / 2) (optimistic: it only falls), masses of the same new point summed (two terms: rounded up, resp.
    down, by the factor of `PairPLD.discretise`'s sums), `inf_mass` as it was. Since ceil(ceil(x / h) / 2) =
    ceil(x / 2h), this is point 1 at step 2h (floor likewise): a pessimistic grid stays an upper bound, an
    optimistic one a lower bound, for every eps. Used where a tilted window does not fit (`compose_tilted`).
    Range: a GridPLD."""
    if not isinstance(g, GridPLD):
        raise ParameterError("g", repr(g)[:60], "a GridPLD")
    index = g.offset + np.arange(len(g.masses), dtype=np.int64)
    # Floor division rounds toward -inf for negative indices too: floor(i / 2), and -((-i) // 2) = ceil(i / 2).
    coarse = -((-index) // 2) if g.pessimistic else index // 2
    lo = int(coarse[0]) if len(coarse) else 0
    masses: np.ndarray = np.bincount(coarse - lo, weights=g.masses) if len(coarse) else np.zeros(1)
    # Each new mass is a float sum of at most two non-negative terms: relative error <= u' per sum.
    sum_rel = 1.001 * UNIT * (2 + 2)
    masses = masses * (1 + sum_rel) if g.pessimistic else masses * (1 - sum_rel)
    return GridPLD(2 * g.step, lo, masses, g.inf_mass, g.pessimistic, g.eps0)


def _tilted_grid(g: GridPLD, lam: float) -> tuple[GridPLD, float, float, float]:
    """(tilted grid, L, dropped, total) for one grid (T5.1-T5.3): masses a_i bounding m_i e^{lam x_i - L} from
    above (pessimistic grid) or below (optimistic), L the float held (log-sum-exp of the float masses' tilt),
    entries of tilted mass <= TILT_TRIM in all dropped (their tilted mass bounded by `dropped` from above), and
    `total` an upper bound of the kept tilted masses' sum."""
    positive = g.masses > 0
    index = np.nonzero(positive)[0]
    logm = np.log(g.masses[positive])
    x = (g.offset + index).astype(float) * g.step  # exact: a power-of-2 step times an integer
    a_log = logm + lam * x
    top = float(np.max(a_log))
    log_c = top + math.log(float(np.sum(np.exp(a_log - top))))
    a = np.exp(a_log - log_c)
    # T5.2: the absolute error of the exponent log m + lam x - L (each operation within an ulp of its magnitude,
    # log within a few ulps) and exp's relative error: the model of `tilted_lattice.log_positive_part_expectation`.
    err = 4 * UNIT * (np.abs(logm) + 2 * np.abs(lam * x) + abs(log_c)) + EXP_MARGIN
    if g.pessimistic:
        a = a * (1 + 2 * err) * (1 + 2 * UNIT)
    else:
        a = a * (1 - 2 * err) * (1 - 2 * UNIT)
        # A subnormal result carries an absolute error up to TINY (its relative error is unbounded): lowered by it.
        a = np.where(a < SMALLEST_NORMAL, np.maximum(a - 2 * TINY, 0.0), a)
    # T5.3: drop the smallest entries (from both ends only: a contiguous grid), at most TILT_TRIM in all.
    order = np.cumsum(a)
    total = float(order[-1]) * (1 + (len(a) + 2) * 1.001 * UNIT)
    rcum = total - np.concatenate(([0.0], order[:-1]))
    first = int(np.searchsorted(order, TILT_TRIM / 2, side="right"))
    last = int(np.searchsorted(-rcum, -TILT_TRIM / 2, side="left"))
    first = min(first, len(a) - 1)
    last = min(max(last, first + 1), len(a))
    dropped = (float(np.sum(a[:first])) + float(np.sum(a[last:]))) * (1 + (len(a) + 2) * 1.001 * UNIT)
    # Entries that underflowed to 0 (the dense grid below has them as 0), and the absolute error of subnormal
    # ones: each below TINY (upper end; the lower end lowered its subnormals above).
    dropped += TINY * (len(g.masses) + 1) * 2
    lo, hi = int(index[first]), int(index[last - 1])
    dense = np.zeros(hi - lo + 1)
    dense[index[first:last] - lo] = a[first:last]
    grid = GridPLD(g.step, g.offset + lo, dense, 0.0, g.pessimistic, g.eps0)
    return grid, log_c, dropped, total


@dataclass
class TiltedPLD:
    """The composition of the exponentially tilted grids (module doc, point 5): `composed` is the certified FFT
    composition of the tilted measures (total mass about 1, its round-off and tails relative to that), with
    delta(eps) = e^{log_scale - lam eps} sum_j G(s_j - eps) c~_j + Pr[S = +inf], G(u) = (1 - e^{-u})_+ e^{-lam u}."""

    lam: float
    log_scale: float
    log_scale_err: float
    dropped: float
    composed: ComposedPLD
    inf_mass: float
    pessimistic: bool
    eps_max: float
    mass_total: float = 1.0  # an upper bound of the tilted composed measure's total mass (T5.8)

    def delta(self, eps: float) -> float:
        """Upper (pessimistic) or lower (optimistic) bound of the composed pair's delta(eps), eps >= 0 (T5.4-T5.7)."""
        c = self.composed
        lam = self.lam
        size = len(c.values)
        top = (c.start + size) * c.step
        # s_j > eps from `first` on (G = 0 below); at eps >= top none (the empty sum, without int(eps / step), an
        # OverflowError at eps ~ 1e308).
        first = max(int(math.floor(eps / c.step)) + 1 - c.start, 0) if eps < top else size
        # T5.8: beyond u = CUT_EXPONENT / lam, G <= e^{-CUT_EXPONENT} and the tilted mass is <= mass_total.
        last = size
        beyond = 0.0
        if lam > 0 and eps < top:  # (at eps >= top the window's sum is empty: nothing to cut)
            cut = int(math.floor((eps + CUT_EXPONENT / lam) / c.step)) + 1 - c.start
            if cut < size:
                last = max(cut, first)
                u_cut = (c.start + last) * c.step - eps
                beyond = math.exp(-lam * u_cut * (1 - 4 * UNIT)) * (1 + EXP_MARGIN) * self.mass_total + TINY
        s = (c.start + np.arange(first, last, dtype=float)) * c.step
        u = s - eps  # one correctly rounded subtraction: relative error <= UNIT
        weight = -np.expm1(-u) * np.exp(-lam * u)
        v = c.values[first:last]
        # G's relative error: expm1 / exp within EXP_MARGIN each, u's rounding (d log(1 - e^{-u}) / d log u <= 1),
        # the product lam u (absolute UNIT |lam u|) and the products (T5.5).
        g_rel = 2 * EXP_MARGIN + 4 * UNIT * (2 + lam * (float(u[-1]) if len(u) else 0.0))
        g_max = 1.0 / (1.0 + lam) * (1 + 1e-12)  # sup_u G(u) <= 1 / (1 + lam) (T5.4)
        terms = weight * v
        total = float(np.sum(terms))
        abs_total = float(np.sum(np.abs(terms)))
        slack = abs_total * (g_rel + (len(v) + 4) * 1.001 * UNIT) * 2
        slack += float(np.sqrt(np.sum(weight * weight))) * (1 + g_rel) * 1.0001 * c.error_2norm
        slack += TINY * (float(np.sum(np.abs(v))) + 1)  # weights that underflowed to 0 (each below TINY)
        # G(u) <= e^{-lam u} beyond the window (T5.4); the product lam (top - eps) rounded down by 4 ulps.
        above = c.tail_above * (min(g_max, math.exp(-lam * (top - eps) * (1 - 4 * UNIT)) * (1 + EXP_MARGIN) + TINY) if top > eps else g_max)
        below = c.tail_below * g_max if c.start * c.step > eps else 0.0
        if self.pessimistic:
            inner = total + slack + above + below + g_max * self.dropped + beyond
            exponent = self.log_scale - lam * eps
            err = self.log_scale_err + 4 * UNIT * (abs(exponent) + abs(lam * eps))
            if inner <= 0:
                finite = 0.0
            elif math.isinf(lam * eps) and self.log_scale + math.log(inner) < 1e307:
                # lam eps > 1.7e308 (its float overflowed): Lambda - lam eps + log(inner) < 1e307 - 1.7e308, far below
                # log of the smallest double (the log-space form below would be -inf + inf there).
                finite = TINY
            else:
                log_value = exponent + math.log(inner) + err + EXP_MARGIN * (1 + abs(math.log(inner)))
                finite = math.exp(log_value) * (1 + EXP_MARGIN) if log_value < MAX_EXP_ARGUMENT else math.inf
                finite = max(finite, TINY)
            upper: float = min((finite + self.inf_mass) * (1 + 8 * UNIT), 1.0)
            return upper
        inner = total - slack - g_max * (c.tail_above + c.tail_below)
        if inner <= 0:
            return 0.0
        exponent = self.log_scale - lam * eps
        err = self.log_scale_err + 4 * UNIT * (abs(exponent) + abs(lam * eps))
        log_value = exponent + math.log(inner) - err - EXP_MARGIN * (1 + abs(math.log(inner)))
        lower: float = min(math.exp(log_value) * (1 - EXP_MARGIN), 1.0) * (1 - 8 * UNIT) if log_value < MAX_EXP_ARGUMENT else 1.0
        return max(lower, 0.0)


def compose_tilted(grids: Sequence[GridPLD], powers: Sequence[int], lam: float, *, max_fft: int = MAX_FFT, coarser: int = 0) -> TiltedPLD | None:
    """The composition of the grids tilted by e^{lam x} (module doc, point 5): a curve delta(eps) certified for
    every eps >= 0 (upper for pessimistic grids, lower for optimistic ones), accurate relative to delta itself
    near the eps whose saddle is lam (`saddle_tilt`). Where the tilted window does not fit max_fft points, the
    grids' step is doubled (`coarsen`, point 1 at the coarser step) up to `coarser` times; None when it still does
    not fit (the caller keeps its untilted curve). Range: grids as `compose`, 0 <= lam <= 1e6 finite,
    0 <= coarser <= MAX_COARSER."""
    if not grids or len(grids) != len(powers) or not all(isinstance(g, GridPLD) for g in grids):
        raise ParameterError("grids", grids, "a non-empty list of GridPLD, one power (rounds >= 1) each")
    for t in powers:
        require_integer("powers", t, minimum=1)
    if not (isinstance(lam, (int, float)) and math.isfinite(lam) and 0 <= lam <= 1e6):
        raise ParameterError("lam", lam, "a finite tilt 0 <= lam <= 1e6")
    require_integer("coarser", coarser, minimum=0)
    if coarser > MAX_COARSER:
        raise ParameterError("coarser", coarser, f"0 <= coarser <= {MAX_COARSER} (doublings of the grid step)")
    grids = list(grids)
    for doublings in range(int(coarser) + 1):
        if doublings:
            grids = [coarsen(g) for g in grids]
        tilted = _compose_tilted_once(grids, powers, float(lam), max_fft)
        if tilted is not None:
            return tilted
    return None


def _compose_tilted_once(grids: list[GridPLD], powers: Sequence[int], lam: float, max_fft: int) -> TiltedPLD | None:
    """`compose_tilted` on the grids as given (validated by the caller): None when the window does not fit."""
    pessimistic = grids[0].pessimistic
    tilted, log_scale, abs_scale, dropped, total_power = [], 0.0, 0.0, 0.0, sum(int(t) for t in powers)
    largest = 1.0
    for g, t in zip(grids, powers, strict=True):
        if not np.any(g.masses > 0):
            continue  # a round whose finite part is empty: its finite composed part is 0 (only the +inf atom)
        grid, log_c, drop, total = _tilted_grid(g, lam)
        tilted.append((grid, int(t)))
        log_scale += int(t) * log_c
        abs_scale += abs(int(t) * log_c)
        dropped += int(t) * drop
        largest = max(largest, total)
    inf_mass = min(sum(int(t) * g.inf_mass for g, t in zip(grids, powers, strict=True)) * (1 + 8 * UNIT), 1.0) if pessimistic else 0.0
    eps_max = fraction_to_float_up(sum((Fraction(g.eps0) * int(t) for g, t in zip(grids, powers, strict=True)), Fraction(0)))
    if len(tilted) < len(grids):  # some round has no finite loss: S = +inf surely on the finite part's complement
        empty = ComposedPLD(grids[0].step, 0, np.zeros(1), 0.0, 0.0, 0.0, inf_mass, pessimistic, eps_max)
        return TiltedPLD(lam, 0.0, 0.0, 0.0, empty, inf_mass, pessimistic, eps_max)
    # T5.3: a composite with a dropped factor has tilted mass <= (its dropped mass) x (the others' totals).
    log_largest = (total_power - 1) * math.log(largest)
    mass_total = math.exp(total_power * math.log(largest)) * (1 + 1e-12) if total_power * math.log(largest) < MAX_EXP_ARGUMENT else math.inf
    dropped *= math.exp(log_largest) * (1 + 1e-12) if log_largest < MAX_EXP_ARGUMENT else math.inf
    # Float error of sum_r T_r L_r: (rounds + 2) ulps of the sum of magnitudes.
    log_scale_err = (len(tilted) + 2) * 1.001 * UNIT * abs_scale
    try:
        composed = compose([g for g, _ in tilted], [t for _, t in tilted], tail=TILT_WINDOW_TAIL, max_fft=max_fft)
    except ParameterError:
        return None
    return TiltedPLD(lam, log_scale, log_scale_err, dropped, composed, inf_mass, pessimistic, eps_max, mass_total)
