"""The exact blanket bound for any finite randomizer given as a matrix, certified (BBGN19.Lem5.3.exact_randomizer).

The randomizer: a k x m row-stochastic matrix, mu_x(y) = matrix[x][y]. Decomposition (the best blanket):
gamma = sum_y min_x mu_x(y), omega(y) = min_x mu_x(y) / gamma, so mu_x = gamma omega + (1 - gamma) nu_x with
nu_x = (mu_x - gamma omega)/(1 - gamma) a probability distribution (non-negative because gamma omega <= mu_x;
checked in `proofs_checks/derived/blanket_exact_randomizer.py`). It is the largest gamma any decomposition can have (omega's
mass at y is at most min_x mu_x(y) / gamma for every valid one). With it BBGN19 Lemma 5.3 gives, for user 1
at x vs x' and any other n - 1 inputs,

    delta_{x,x'}(eps) = sum_{N >= 1} Pr[Bin(n-1, gamma) = N - 1] D_N,   D_N = (1/N) E[(L_1 + ... + L_N)_+],

L_i i.i.d. copies of L = l_W, W ~ omega, l_y = (mu_x(y) - e^eps mu_x'(y)) / omega(y). A finite eps0 makes
every non-zero column positive in every row (all-zero columns are dropped), so mu_x << omega and D_N is
exactly the divergence of "one report from mu_x plus N - 1 blanket draws" vs the same with mu_x', hence
non-increasing in N (adding an independent blanket draw is a post-processing). The bound reported is the
max over ordered pairs (x, x'), solved for eps (each pair's certified eps; the largest is returned: every
pair's true delta is non-increasing in eps).

Evaluation of D_N. Outputs whose (mu_x(y)/omega(y), mu_x'(y)/omega(y)) coincide (exact rationals) carry the
same l_y for every eps and are merged (the counts of a union of outputs of a multinomial are multinomial):
k-RR of any k gives 3 groups. Always sum_y omega(y) l_y = 1 - e^eps, so E[S] = N (1 - e^eps).
- At most 3 groups (every randomizer with m <= 3 outputs): S is a function of the multinomial counts and D_N
  is the certified lattice sum of `shuffle_spec.reference.numerics.lattice_sums` (one positive coefficient directly; two positive
  ones through (S)_+ = S + (-S)_+, E[S] exact).
- More groups: randomized rounding to the grid h Z (h a power of 2): L' = h floor(l/h) + h B, B ~ Bernoulli(q),
  q >= (l - h floor(l/h))/h, so E[L' | L] >= L. For f increasing and convex (f(s) = s_+) and independent
  pairs, E f(sum L_i) <= E f(sum E[L'_i | L_i]) <= E f(sum L'_i) (monotonicity, then Jensen given the L_i):
  an upper bound whose error grows like N h^2 (a variance), not N h (the bias of rounding every L up). The
  N-fold convolution of the grid masses (upper brackets) is `shuffle_spec.reference.composition.shuffled_rounds.compose` (FFT with a proven
  round-off bound and Chernoff tails); E[S'_+] adds the round-off (Cauchy-Schwarz), the mass above the
  window times N max l and below it times the window's lowest point. The lower end is 0 on this path. The blanket
  sum takes all its blocks (and the lattice path its cancelled sizes) in one batched FFT instead
  (`shuffle_spec.reference.bounds.blanket_powers`, proven in its module doc); the per-size FFT above where that window
  does not fit.

The N-sum is blocked on a grid as in `shuffle_spec.reference.bounds.blanket_exact_krr` (D_N non-increasing in N). On
the lattice path the D_N of all blocks come from one batched call of the lattice sums (`count_expectations`: the
layout and binomial rows are built once; the certified intervals equal the per-N ones up to the rows' float
padding, about 1e-10 relative, either way); a composition envelope evaluates many eps through `PairProfiles`,
which skips a pair whose certified value at a smaller eps already lies below the maximum found (each pair's delta
is non-increasing in eps).

Aiming the search (uncertified). Each certified evaluation of delta(eps) costs a lattice sum or an FFT per blanket
size N; the certified solver needs 2-3 of them when it is given an estimate of the root accurate to about its
tolerance (`solve_certified_epsilon`'s `guess`), 8-15 without. `saddle_expectations` estimates E[(L_1 + ... + L_N)_+]
by the saddlepoint (Bahadur-Rao) approximation: tilt L by e^(lam L) with lam > 0 the root of K'(lam) = 0 (K the
cumulant generating function of L: the tilted sum has mean 0), and treat the tilted sum as Gaussian,
E[S_+] ~ e^(N K(lam)) sigma (1/sqrt(2 pi) - u e^(u^2/2) Phi_bar(u)), sigma^2 = N K''(lam), u = lam sigma. The tilt
does not depend on N, so every N of the blanket sum costs a few floating-point operations; `saddle_blanket_root`
solves the float blanket sum for eps. These estimates only decide where the certified delta is evaluated, never a
number that is reported (the solver's result holds whatever the guess).

Supported range: k (rows) in [2, 16], m (outputs) in [2, 64], the randomizer's eps0 in (0, 50] (eps0 = 0: the
output ignores the input, eps = 0 is returned), n in [1, 10^8], delta in [1e-300, 1), every positive entry at
least MIN_ENTRY = 1e-200 (after the all-zero columns are dropped). Entries: numbers,
Fractions or decimal strings in [0, 1], of at most `shuffle_spec.reference.core.limits.MATRIX_ENTRY_MAX_DIGITS` digits in numerator
and denominator (strings checked before a number is built), the denominators' least common multiple of at most
MATRIX_DENOMINATOR_LCM_MAX_DIGITS digits; each row must sum to 1 within 1e-9 (it is then divided by its exact
sum: the randomizer analysed is the normalised one).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import mpmath
import numpy as np

from .blanket_exact_krr import bracket
from .blanket_powers import mixture_positive_part_upper, rounded_grid
from ..finite.distributions import exact_number_from_text
from ..finite.randomizers import check_common_denominator, check_exact_size
from ..core.errors import ParameterError, require_integer, require_positive, require_probability
from ..numerics.lattice_sums import U1, BinomialLaw, Coefficients, binomial_law, binomial_window, blocking_offsets, positive_part_expectations
from ..numerics.solver import solve_certified_epsilon, uncertified_root
from ..core.limits import DELTA_MIN
from ..core.parameters import check_delta, check_n
from ..core.results import NO_AMPLIFICATION, BoundValue

__all__ = [
    "FiniteRandomizer",
    "finite_randomizer",
    "count_expectation",
    "count_expectations",
    "fft_count_expectation_upper",
    "ProductForm",
    "product_form",
    "product_count_expectation",
    "ProductSums",
    "product_sums",
    "group_outputs",
    "check_pair_indices",
    "pair_groups",
    "blanket_pair_delta",
    "blanket_pair_fft_delta",
    "groups_fft_delta",
    "blanket_sum",
    "PairProfiles",
    "exact_blanket_randomizer_delta",
    "exact_blanket_randomizer_epsilon",
    "MAX_N",
    "saddle_expectations",
    "saddle_blanket_delta",
    "saddle_blanket_root",
    "check_count_and_delta",
    "MAX_K",
    "MAX_M",
    "MAX_EPS0",
    "MIN_ENTRY",
]

STATEMENT = "BBGN19.Lem5.3.exact_randomizer"
MAX_N = 10**8
MAX_K = 16
MAX_M = 64
MAX_EPS0 = 50.0
# Smallest positive entry: every probability, weight and ratio the certified float sums meet then stays a normal
# double (1e-200 .. 1e200; the lattice sums certify values below 1e-280 only as [0, 1e-280], and an entry of 1e-400
# would underflow to 0 in them).
MIN_ENTRY = Fraction(1, 10**200)
ROW_SUM_TOLERANCE = Fraction(1, 10**9)
EPS_REL_TOL = 1e-3
PER_SD = 16
# FFT path: the grid step h targets H_OVER_SD standard deviations of L (randomized rounding adds at most h^2/4
# to each summand's variance: 0.06% here), with at least about 1024 and at most FFT_TARGET points over S's window.
H_OVER_SD = 0.05
FFT_TARGET = 2**18
MAX_FFT = 2**19
DPS = 40
# The lam grid of the FFT path's Chernoff tail (`_chernoff_cutoff`), in units of 1 / scale (read only).
CHERNOFF_LAMBDAS = np.geomspace(1e-3, 1e3, 48)
CHERNOFF_LAMBDAS.setflags(write=False)


@dataclass(frozen=True)
class FiniteRandomizer:
    """A validated randomizer: exact rational rows (all-zero columns dropped), its LDP ratio and eps0
    (eps0 rounded up: e^eps0 >= the largest likelihood ratio)."""

    rows: tuple[tuple[Fraction, ...], ...]
    ratio: Fraction
    eps0: float

    @property
    def k(self) -> int:
        return len(self.rows)

    @property
    def m(self) -> int:
        return len(self.rows[0])

    def column_min(self) -> tuple[Fraction, ...]:
        return tuple(min(row[y] for row in self.rows) for y in range(self.m))

    @property
    def gamma(self) -> Fraction:
        return sum(self.column_min(), Fraction(0))


def _entry(value: object, i: int, j: int) -> Fraction:
    where = f"matrix[{i}][{j}]"
    if isinstance(value, bool):
        raise ParameterError(where, value, "a probability in [0, 1] (number, Fraction or decimal string)")
    if isinstance(value, str):  # size-checked before the number is built (shuffle_spec.reference.core.limits)
        x = exact_number_from_text(value, where)
        if not 0 <= x <= 1:
            raise ParameterError(where, value, "a probability in [0, 1]")
        return x
    try:
        if isinstance(value, Fraction):
            x = value
        elif isinstance(value, int):
            x = Fraction(value)
        else:
            f = float(value)  # type: ignore[arg-type]
            if not math.isfinite(f):
                raise ValueError
            x = Fraction(f)
    except (ValueError, TypeError, ZeroDivisionError, OverflowError):
        raise ParameterError(where, value, "a probability in [0, 1] (number, Fraction or decimal string)") from None
    check_exact_size(x, where)  # first: the message below prints the value
    if not 0 <= x <= 1:
        raise ParameterError(where, _short(value), "a probability in [0, 1]")
    return x


def finite_randomizer(matrix: object, *, max_k: int = MAX_K, max_m: int = MAX_M) -> FiniteRandomizer:
    """Validate a k x m row-stochastic matrix (module doc) into a FiniteRandomizer (the input of
    BBGN19.Lem5.3.exact_randomizer and exact.randomizer_pair); ParameterError naming
    the entry, row or limit otherwise. Range: 2 <= k <= max_k inputs, 2 <= m <= max_m outputs with
    positive probability, finite eps0 <= 50."""
    if isinstance(matrix, FiniteRandomizer):
        return matrix
    if isinstance(matrix, np.ndarray):
        matrix = matrix.tolist()
    if not isinstance(matrix, Sequence) or isinstance(matrix, (str, bytes)) or len(matrix) < 2:
        raise ParameterError("matrix", _short(matrix), "a list of at least 2 rows (one per input) of output probabilities")
    if len(matrix) > max_k:
        raise ParameterError("matrix", f"{len(matrix)} rows", f"2 <= k <= {max_k} rows (inputs)")
    parsed: list[list[Fraction]] = []
    width = None
    for i, row in enumerate(matrix):
        if isinstance(row, np.ndarray):
            row = row.tolist()
        if not isinstance(row, Sequence) or isinstance(row, (str, bytes)) or len(row) == 0:
            raise ParameterError(f"matrix[{i}]", _short(row), "a non-empty list of probabilities")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise ParameterError(f"matrix[{i}]", f"{len(row)} entries", f"{width} entries (every row has one per output)")
        parsed.append([_entry(v, i, j) for j, v in enumerate(row)])
    check_common_denominator(parsed, "matrix")  # before any sum (shuffle_spec.reference.core.limits)
    rows: list[list[Fraction]] = []
    for i, entries in enumerate(parsed):
        total = sum(entries, Fraction(0))
        if abs(total - 1) > ROW_SUM_TOLERANCE:
            raise ParameterError(f"sum of matrix[{i}]", float(total), "1 (within 1e-9)")
        rows.append([x / total for x in entries])
    keep = [y for y in range(len(rows[0])) if any(r[y] > 0 for r in rows)]
    for y in keep:
        if any(r[y] == 0 for r in rows):
            raise ParameterError(f"matrix column {y}", [str(r[y]) for r in rows], "all zero or all positive (a zero next to a positive entry makes eps0 infinite)")
    if len(keep) > max_m:
        raise ParameterError("matrix", f"{len(keep)} outputs", f"at most {max_m} outputs with positive probability")
    exact_rows = tuple(tuple(r[y] for y in keep) for r in rows)
    smallest = min(v for row in exact_rows for v in row)
    if smallest < MIN_ENTRY:
        with mpmath.workdps(10):
            shown = mpmath.nstr(_mpf(smallest), 3)
        raise ParameterError("smallest positive entry of the matrix", shown, "at least 1e-200 (the certified sums work in binary64)")
    ratio = max((r1[y] / r2[y] for r1 in exact_rows for r2 in exact_rows for y in range(len(keep))), default=Fraction(1))
    with mpmath.workdps(DPS):
        log_ratio = mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)
    eps0 = math.nextafter(math.nextafter(float(log_ratio), math.inf), math.inf) if ratio > 1 else 0.0
    if eps0 > MAX_EPS0:
        raise ParameterError("eps0 of the matrix", eps0, f"0 <= eps0 <= {MAX_EPS0:g}")
    return FiniteRandomizer(exact_rows, ratio, eps0)


def _short(x: object) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


# ---------------------------------------------------------------------------------------------------
# E[(sum_g c_g h_g)_+], h ~ Mult(N; p): groups of equal coefficients.


@dataclass(frozen=True)
class Groups:
    """Outputs merged by equal (alpha, beta): l_g = alpha_g - e^eps beta_g, with probability p_g (exact)."""

    alpha: tuple[Fraction, ...]
    beta: tuple[Fraction, ...]
    p: tuple[Fraction, ...]

    def __len__(self) -> int:
        return len(self.p)


def group_outputs(mu_x: Sequence[Fraction], mu_x2: Sequence[Fraction], weight: Sequence[Fraction]) -> Groups:
    """Groups of outputs y with equal (mu_x(y)/w(y), mu_x2(y)/w(y)); weight w > 0 everywhere (exact rationals).
    Used by BBGN19.Lem5.3.exact_randomizer (w = omega) and exact.randomizer_pair (w = mu_z)."""
    if not (len(mu_x) == len(mu_x2) == len(weight)) or not all(isinstance(w, Fraction) and w > 0 for w in weight):
        raise ParameterError("weight", _short(weight), "positive Fractions, one per output (as many as mu_x and mu_x2 have)")
    merged: dict[tuple[Fraction, Fraction], Fraction] = {}
    for a, b, w in zip(mu_x, mu_x2, weight, strict=True):
        key = (a / w, b / w)
        merged[key] = merged.get(key, Fraction(0)) + w
    keys = sorted(merged)
    return Groups(tuple(k[0] for k in keys), tuple(k[1] for k in keys), tuple(merged[k] for k in keys))


def _mpf(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


@lru_cache(maxsize=256)
def _coefficient_brackets(groups: Groups, eps: float) -> list[tuple[float, float, mpmath.mpf]]:
    """[(lo, hi, value)] brackets of l_g = alpha_g - e^eps beta_g (computed at 40 digits; kept: the blanket sum asks
    for the same eps at every N). Callers must not modify the list."""
    out = []
    with mpmath.workdps(DPS):
        e = mpmath.exp(mpmath.mpf(eps))
        for a, b in zip(groups.alpha, groups.beta, strict=True):
            value = _mpf(a) - e * _mpf(b)
            lo, hi = bracket(value)
            out.append((lo, hi, value))
    return out


def _merge_overlapping(items: list[tuple[float, float, mpmath.mpf, Fraction]]) -> list[tuple[float, float, Fraction]]:
    """Sorted by coefficient (descending); groups whose brackets overlap are merged with the bracket hull
    (valid for both ends: each true coefficient lies in the hull). Returns [(lo, hi, probability)], the
    probabilities exact (a group of probability 1 - 1e-45 must not round to 1: `binomial_law`)."""
    items = sorted(items, key=lambda t: -t[2])
    out: list[list[Any]] = []
    for lo, hi, _, p in items:
        if out and hi >= out[-1][0]:
            out[-1][0] = min(out[-1][0], lo)
            out[-1][1] = max(out[-1][1], hi)
            out[-1][2] = out[-1][2] + p
        else:
            out.append([lo, hi, p])
    return [(a, b, c) for a, b, c in out]


def _lattice_three(big_ns: Sequence[int], merged: list[tuple[float, float, Fraction]], tail: float, per_sd: int) -> tuple[np.ndarray, np.ndarray]:
    """E[(sum c_g h_g)_+] for at most 3 groups with exactly one positive coefficient first (descending), for every N
    of `big_ns` in one batched lattice call (`positive_part_expectations`: the layout and the binomial rows are
    built once for all N): a = the positive group, b = the most negative, R = the middle. The laws come from the
    exact group probabilities (`binomial_law` of a Fraction)."""
    if len(merged) == 2:
        (c0lo, c0hi, _), (c1lo, c1hi, p1) = merged
        law_b = binomial_law(min(p1, Fraction(1)))
        law_a = binomial_law(Fraction(1))
        coefficients = Coefficients((c0lo, c0hi), (c1lo, c1hi), (0.0, 0.0))
    else:
        (c0lo, c0hi, p0), (c2lo, c2hi, _), (c1lo, c1hi, p1) = merged
        law_b = binomial_law(p1)
        law_a = binomial_law(min(p0 / (1 - p1), Fraction(1)))
        coefficients = Coefficients((c0lo, c0hi), (c1lo, c1hi), (c2lo, c2hi))
    return positive_part_expectations([int(m) for m in big_ns], law_b, law_a, coefficients, tail=tail, per_sd=per_sd)


def count_expectation(big_n: int, groups: Groups, eps: float, *, tail: float = 1e-30, per_sd: int = PER_SD) -> tuple[float, float]:
    """BBGN19.Lem5.3.exact_randomizer / exact.randomizer_pair: [lower, upper] containing E[(sum_g l_g h_g)_+],
    h ~ Mult(N; p), l_g = alpha_g - e^eps beta_g, for
    groups whose weighted mean is sum_g p_g l_g = 1 - e^eps (module doc) and at most 3 distinct
    coefficients. Raises ParameterError for more (use the FFT path)."""
    require_integer("N", big_n, minimum=0)
    lo, hi = count_expectations([int(big_n)], groups, eps, tail=tail, per_sd=per_sd)
    return float(lo[0]), float(hi[0])


def count_expectations(
    big_ns: Sequence[int], groups: Groups, eps: float, *, tail: float = 1e-30, per_sd: int = PER_SD, opened: list[int] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """`count_expectation` for every N of `big_ns` (integers >= 0) at once: [lower, upper] arrays, one entry per N.
    The coefficient brackets and their merging depend on eps only, and the lattice sums of all N run as one batch
    (`_lattice_three`). `opened` (a list): the indices of the sizes whose interval cancelled (two positive
    coefficients) are appended to it and their upper ends are the lattice's (the caller batches the FFT for them,
    `blanket_sum`); without it each gets its own FFT here. Range: as count_expectation."""
    require_positive("eps", eps, allow_zero=True)
    for big_n in big_ns:
        require_integer("N", big_n, minimum=0)
    ns = np.array([int(m) for m in big_ns], dtype=np.int64)
    lower, upper = np.zeros(len(ns)), np.zeros(len(ns))
    live = np.nonzero(ns > 0)[0]
    if len(live) == 0:
        return lower, upper
    sizes = ns[live].astype(float)
    brackets = _coefficient_brackets(groups, float(eps))
    items = [(lo, hi, value, p) for (lo, hi, value), p in zip(brackets, groups.p, strict=True)]
    merged = _merge_overlapping(items)
    if len(merged) > 3:
        raise ParameterError("groups", len(merged), "at most 3 distinct coefficients (the lattice path)")
    if merged[0][1] <= 0:
        return lower, upper  # S <= 0 surely
    # S <= N max c: safe; the answer where the top coefficient is within rounding of 0 (and for one coefficient:
    # S = N c, c in the bracket, of mean 1 - e^eps <= 0).
    crude = sizes * max(merged[0][1], 0.0) * (1 + 2 * U1)
    if len(merged) == 1 or merged[0][0] <= 0:
        upper[live] = crude
        return lower, upper
    if merged[1][1] <= 0:
        lo, hi = _lattice_three(ns[live].tolist(), merged, tail, per_sd)  # exactly one positive coefficient
        lower[live], upper[live] = lo, hi
        return lower, upper
    if len(merged) == 3 and merged[1][0] > 0 and merged[2][1] < 0:
        # Two positive coefficients: (S)_+ = S + (-S)_+, E[S] = N (1 - e^eps) exactly.
        flipped = [(-hi, -lo, p) for lo, hi, p in reversed(merged)]
        lo_neg, hi_neg = _lattice_three(ns[live].tolist(), flipped, tail, per_sd)
        for j, i in enumerate(live):
            with mpmath.workdps(DPS):
                mean_lo, mean_hi = bracket(int(ns[i]) * (1 - mpmath.exp(mpmath.mpf(eps))))
            low = max((mean_lo + lo_neg[j]) - 4 * U1 * (abs(mean_lo) + lo_neg[j]), 0.0)
            high = max((mean_hi + hi_neg[j]) + 4 * U1 * (abs(mean_hi) + hi_neg[j]), 0.0)
            if high - low > 1e-4 * high and opened is not None:
                opened.append(int(i))
            elif high - low > 1e-4 * high:
                # Cancellation (E[(-S)_+] ~ -E[S] when S is mostly negative) widened the interval: the FFT path's
                # upper bound is also valid; the smaller of two upper bounds is one.
                high = min(high, fft_count_expectation_upper(int(ns[i]), groups, eps, tail=tail))
            lower[i], upper[i] = min(low, high), high
        return lower, upper
    upper[live] = crude  # a coefficient within rounding of 0
    return lower, upper


@lru_cache(maxsize=64)
def _probability_upper(groups: Groups) -> np.ndarray:
    """Upper brackets of the group probabilities (40 digits), kept per groups (read only)."""
    with mpmath.workdps(DPS):
        values = np.array([bracket(_mpf(p))[1] for p in groups.p])
    values.setflags(write=False)
    return values


@lru_cache(maxsize=256)
def _fft_terms(groups: Groups, eps: float) -> tuple[np.ndarray, float, float] | None:
    """The N-independent part of `fft_count_expectation_upper` at eps: (upper brackets of the coefficients, the
    float sd of L (it only places the grid step), the spread max - min of the brackets), or None when every
    coefficient is <= 0 (S <= 0). Kept: the blanket sum asks for every block size N at the same eps (arrays read
    only)."""
    brackets = _coefficient_brackets(groups, eps)
    l_hi = np.array([hi for _, hi, _ in brackets])
    p_hi = _probability_upper(groups)
    if float(np.max(l_hi)) <= 0:
        return None
    p_float = p_hi / np.sum(p_hi)
    mean = float(np.sum(p_float * l_hi))
    sd = math.sqrt(max(float(np.sum(p_float * (l_hi - mean) ** 2)), 1e-300))
    spread = float(np.max(l_hi) - np.min(l_hi))
    l_hi.setflags(write=False)
    return l_hi, sd, spread


@lru_cache(maxsize=256)
def _fft_grid(groups: Groups, eps: float, h: float) -> Any:
    """The randomized-rounding grid law of L at eps on the grid h Z (module doc), as a pessimistic GridPLD of step h:
    it depends on N only through h, a power of 2 shared by neighbouring blanket sizes, and is kept (read only)."""
    from ..numerics.pld import GridPLD

    brackets = _coefficient_brackets(groups, eps)
    l_hi = np.array([hi for _, hi, _ in brackets])
    p_hi = _probability_upper(groups)
    lo, masses = rounded_grid(l_hi, p_hi, h, unit=U1)  # the one grid (blanket_powers), charged U1 per rounding as before
    masses.setflags(write=False)
    return GridPLD(h, lo, masses, 0.0, True, 0.0)


def fft_count_expectation_upper(big_n: int, groups: Groups, eps: float, *, tail: float = 1e-30) -> float:
    """BBGN19.Lem5.3.exact_randomizer: an upper bound on E[(sum_g l_g h_g)_+], h ~ Mult(N; p), any number of
    groups: randomized rounding to
    a power-of-2 grid (convex order, module doc) and the certified FFT convolution of `shuffle_spec.reference.composition.shuffled_rounds`."""
    from ..numerics.pld import compose

    require_integer("N", big_n, minimum=1)
    big_n = int(big_n)
    terms = _fft_terms(groups, float(eps))
    if terms is None:
        return 0.0
    l_hi, sd, spread = terms
    span = min(big_n * spread, 30.0 * math.sqrt(big_n) * sd + 2 * spread)
    h = 2.0 ** math.floor(math.log2(max(min(H_OVER_SD * sd, span / 1024), span / FFT_TARGET, spread / (MAX_FFT // 4), 1e-300)))
    for _ in range(8):
        grid = _fft_grid(groups, float(eps), h)
        lo, size = grid.offset, len(grid.masses)
        try:
            composed = compose([grid], [big_n], tail=tail, max_fft=MAX_FFT)
            break
        except ParameterError:
            h *= 2.0
    else:
        return big_n * float(np.max(l_hi)) * (1 + 4 * U1)
    values = composed.values
    s = (composed.start + np.arange(len(values), dtype=float)) * h
    cutoff, beyond = _chernoff_cutoff(grid, big_n, math.sqrt(big_n) * sd + h)
    top = (composed.start + len(values)) * h
    keep = (s > 0) & (s <= cutoff)
    vs = values[keep] * s[keep]
    total = float(np.sum(vs))
    slack = (len(values) + 4) * 1.001 * U1 * float(np.sum(np.abs(vs))) * 4
    slack += math.sqrt(float(np.sum(s[keep] ** 2))) * 1.0001 * composed.error_2norm
    # S' above the cutoff: the Chernoff term; if the cutoff lies above the window, the mass above the window
    # (tail_above) at S' <= N times the largest grid value covers (top, cutoff].
    above = beyond
    if cutoff >= top:
        above += composed.tail_above * max(big_n * (lo + size - 1) * h, 0.0)
    below = composed.tail_below * max(composed.start * h, 0.0)
    return max((total + slack + above + below) * (1 + 8 * U1), 0.0)


# ---------------------------------------------------------------------------------------------------
# Independent product groups: E[(C + a K_I - b K_J)_+] with K_I, K_J independent binomials, summed exactly.


@dataclass(frozen=True)
class ProductForm:
    """Groups whose coefficient is l = alpha(I) - e^eps beta(J) with I, J independent two-valued labels under the
    blanket: alpha in {a0 < a1} with Pr[alpha = a1] = p_i, beta in {b0 < b1} with Pr[beta = b1] = p_j, every one of
    the four combinations a group of probability (product of the marginals), exact rationals. Unary encodings,
    local hashing and Hadamard response have this form (their module docs: two independent indicators per pair)."""

    a0: Fraction
    a1: Fraction
    b0: Fraction
    b1: Fraction
    p_i: Fraction
    p_j: Fraction


def product_form(groups: Groups) -> ProductForm | None:
    """The ProductForm of `groups` when their four (alpha, beta) combinations are exactly a product law (module
    doc, "Independent product groups"); None otherwise (then the FFT path applies). Exact Fraction checks.
    Range: groups a Groups (from group_outputs or the structured randomizers' pairs)."""
    if not isinstance(groups, Groups):
        raise ParameterError("groups", _short(groups), "a Groups of (alpha, beta, p) from group_outputs()")
    if len(groups) != 4 or not all(isinstance(v, Fraction) for v in groups.alpha + groups.beta + groups.p):
        return None
    alphas, betas = sorted(set(groups.alpha)), sorted(set(groups.beta))
    if len(alphas) != 2 or len(betas) != 2:
        return None
    law = {(a, b): p for a, b, p in zip(groups.alpha, groups.beta, groups.p, strict=True)}
    if len(law) != 4:
        return None
    p_i = law[(alphas[1], betas[0])] + law[(alphas[1], betas[1])]
    p_j = law[(alphas[0], betas[1])] + law[(alphas[1], betas[1])]
    marginal_i, marginal_j = {alphas[0]: 1 - p_i, alphas[1]: p_i}, {betas[0]: 1 - p_j, betas[1]: p_j}
    if any(law[(a, b)] != marginal_i[a] * marginal_j[b] for a in alphas for b in betas) or not (0 < p_i < 1 and 0 < p_j < 1):
        return None
    return ProductForm(alphas[0], alphas[1], betas[0], betas[1], p_i, p_j)


def _product_coefficients(form: ProductForm, eps: float) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
    """Brackets (lo, hi) of c = a0 - e^eps b0, alpha = a1 - a0 > 0 and beta = e^eps (b1 - b0) > 0 (40 digits):
    with N draws, S = N c + alpha K_I - beta K_J."""
    with mpmath.workdps(DPS):
        e = mpmath.exp(mpmath.mpf(eps))
        return bracket(_mpf(form.a0) - e * _mpf(form.b0)), bracket(_mpf(form.a1 - form.a0)), bracket(e * _mpf(form.b1 - form.b0))


def _times_n(big_n: int, c: tuple[float, float]) -> tuple[float, float]:
    """A bracket of N c from a bracket of c (one rounding each, widened outward)."""
    lo, hi = big_n * c[0], big_n * c[1]
    return lo - abs(lo) * 2 * U1, hi + abs(hi) * 2 * U1


@dataclass(frozen=True)
class _Row:
    """The eps-independent part of one row sum (`_inner_sums`): suffix sums U0 of the pmf brackets and U1 of r
    times them (r = 0 .. L-1 the offset in the row), each with a trailing 0."""

    u0: np.ndarray
    u1: np.ndarray

    @staticmethod
    def of(row: np.ndarray) -> _Row:
        r = np.arange(len(row), dtype=float)
        return _Row(np.concatenate((np.cumsum(row[::-1])[::-1], [0.0])), np.concatenate((np.cumsum((r * row)[::-1])[::-1], [0.0])))

    def sums(self, constant: np.ndarray, slope: float, upper: bool) -> np.ndarray:
        """For each K in `constant`: a certified bound on sum_r (K + slope r)_+ row[r] (slope > 0, row >= 0): the
        terms with K + slope r > 0 are the suffix from t = floor(-K / slope) + 1, summed as K U0[t] + slope U1[t].
        Float error (non-negative suffix sums within (L + 2) u', the combination within a few u' of its two
        terms' magnitudes): pad (L + 8) u' (|K| U0 + slope U1), added (`upper`: plus 8 u' (|K| + slope L) U0[t-1]
        for a threshold misplaced by the float division, whose term then lies within u |K| of 0) or subtracted
        (a lower bound: a misplaced term only lowers it)."""
        size = len(self.u0) - 1
        # |K / slope| below 2^40 keeps the float quotient within 2^-12 of the exact one (one index at most);
        # beyond the row the threshold is clipped (every term or none is in the suffix either way).
        ratio = np.minimum(np.maximum(-constant / slope, -2.0), size + 1.0)
        t = np.minimum(np.maximum(np.floor(ratio).astype(np.int64) + 1, 0), size)
        u0, u1 = self.u0[t], self.u1[t]
        total = constant * u0 + slope * u1
        pad = (size + 8) * U1 * (np.abs(constant) * u0 + slope * u1)
        if not upper:
            lower: np.ndarray = np.maximum(total - pad, 0.0)
            return lower
        around = 8 * U1 * (np.abs(constant) + slope * size) * self.u0[np.maximum(t - 1, 0)]
        bound: np.ndarray = np.maximum(total + pad + around, 0.0) * (1 + 4 * U1)
        return bound


@dataclass(frozen=True)
class _Count:
    """The eps-independent data of one N: the windows of K_I and K_J and the row suffix sums of K_I's."""

    lo_i: int
    j: np.ndarray
    row_hi: _Row
    row_lo: _Row
    i_above: float
    i_below: float
    j_upper: np.ndarray
    j_lower: np.ndarray
    j_above: float
    j_below: float


class ProductSums:
    """E[(L_1 + ... + L_N)_+] for groups of product form (module doc) at any N and eps: the binomial laws, windows
    and row suffix sums depend on neither eps nor the other N and are kept (the solver evaluates delta at many
    eps, each at many N); only the thresholds of each row depend on eps."""

    def __init__(self, form: ProductForm, tail: float) -> None:
        self.form = form
        self.tail = float(tail)
        self.law_i: BinomialLaw = binomial_law(form.p_i)
        self.law_j: BinomialLaw = self.law_i if form.p_j == form.p_i else binomial_law(form.p_j)
        self._counts: dict[int, _Count] = {}
        self._coefficients: dict[float, tuple[tuple[float, float], tuple[float, float], tuple[float, float]]] = {}

    def _count(self, big_n: int) -> _Count:
        if big_n not in self._counts:
            window_i = binomial_window(big_n, self.law_i, self.tail)
            window_j = binomial_window(big_n, self.law_j, self.tail)
            self._counts[big_n] = _Count(
                window_i.lo, np.arange(window_j.lo, window_j.hi + 1, dtype=float), _Row.of(window_i.upper), _Row.of(window_i.lower),
                window_i.above, window_i.below, window_j.upper, window_j.lower, window_j.above, window_j.below,
            )
        return self._counts[big_n]

    def expectation(self, big_n: int, eps: float) -> tuple[float, float]:
        """[lower, upper] containing E[(L_1 + ... + L_N)_+] (`product_count_expectation`)."""
        if eps not in self._coefficients:
            self._coefficients[eps] = _product_coefficients(self.form, eps)
        c, alpha, beta = self._coefficients[eps]
        c_lo, c_hi = _times_n(big_n, c)
        count = self._count(big_n)
        j = count.j
        # K = C + alpha lo_I - beta j: S at the row's first K_I; its float error (a few roundings of terms of at
        # most these magnitudes) moves it outward.
        upper_k = c_hi + alpha[1] * count.lo_i - beta[0] * j
        upper_k = upper_k + 8 * U1 * (abs(c_hi) + alpha[1] * count.lo_i + beta[0] * j)
        lower_k = c_lo + alpha[0] * count.lo_i - beta[1] * j
        lower_k = lower_k - 8 * U1 * (abs(c_lo) + alpha[0] * count.lo_i + beta[1] * j)
        f_hi = count.row_hi.sums(upper_k, alpha[1], True)
        f_lo = count.row_lo.sums(lower_k, alpha[0], False)
        # K_I outside its window: S increases with K_I, so above it S <= S(K_I = N), below it S <= S(lo_I - 1).
        s_top = np.maximum(c_hi + alpha[1] * big_n - beta[0] * j + 8 * U1 * (abs(c_hi) + alpha[1] * big_n + beta[0] * j), 0.0)
        s_low = np.maximum(upper_k - alpha[1] + 4 * U1 * (np.abs(upper_k) + alpha[1]), 0.0)
        f_hi = (f_hi + count.i_above * s_top + count.i_below * s_low) * (1 + 4 * U1)
        size = len(j)
        upper = float(np.sum(count.j_upper * f_hi)) * (1 + (size + 4) * U1)  # not np.dot: BLAS threads stall on a loaded machine
        # K_J outside its window: below it S is at most C + alpha N for every K_I; above it the row at the window's
        # last K_J bounds every larger K_J (S decreases with K_J).
        upper += count.j_below * max(c_hi + alpha[1] * big_n, 0.0) * (1 + 4 * U1) + count.j_above * float(f_hi[-1])
        upper *= 1 + 4 * U1
        lower = float(np.sum(count.j_lower * f_lo)) / (1 + (size + 4) * U1)
        return min(lower, upper), upper


@lru_cache(maxsize=32)
def product_sums(form: ProductForm, tail: float) -> ProductSums:
    """The ProductSums of `form` at window tail `tail`, kept across calls (the solver's evaluations at many eps)."""
    return ProductSums(form, tail)


def product_count_expectation(big_n: int, form: ProductForm, eps: float, *, tail: float = 1e-30) -> tuple[float, float]:
    """BBGN19.Lem5.3.exact_randomizer: [lower, upper] containing E[(L_1 + ... + L_N)_+] for groups of product form
    (module doc): S = N c + alpha K_I - beta K_J with K_I ~ Bin(N, p_i), K_J ~ Bin(N, p_j) independent, summed
    exactly over the certified binomial windows of `shuffle_spec.reference.numerics.lattice_sums` (each tail <= tail): for each
    K_J one suffix of K_I's window. The K_I tails are charged S at their largest K_I (upper) or dropped (lower);
    the K_J tails likewise (S decreases with K_J). Range: N >= 1, eps >= 0, 0 < tail < 1."""
    require_integer("N", big_n, minimum=1)
    require_positive("eps", eps, allow_zero=True)
    if not isinstance(form, ProductForm):
        raise ParameterError("form", _short(form), "a ProductForm from product_form()")
    if not (isinstance(tail, (int, float)) and not isinstance(tail, bool) and 0 < tail < 1):
        raise ParameterError("tail", tail, "0 < tail < 1")
    return product_sums(form, float(tail)).expectation(int(big_n), float(eps))

def _chernoff_cutoff(grid: object, big_n: int, scale: float) -> tuple[float, float]:
    """(c, T) with c >= 0 and T >= E[S' 1{S' > c}] for S' the N-fold sum of the grid measure (any non-negative
    measure: mu(S' > t) <= e^{-lam t} M(lam)^N): E[S' 1{S' > c}] = c mu(S' > c) + int_c^inf mu(S' > t) dt
    <= M(lam)^N e^{-lam c} (c + 1/lam), minimised over a grid of lam; c is where the tail is below 1e-40."""
    lam = CHERNOFF_LAMBDAS / max(scale, 1e-300)
    log_m = big_n * grid.log_mgf(lam)  # type: ignore[attr-defined]
    cutoff = max(0.0, float(np.min((log_m + 92.2) / lam)))
    expo = log_m - lam * cutoff + np.log(cutoff + 1.0 / lam)
    best = float(np.min(expo))
    return cutoff, (math.exp(best) * (1 + 1e-12) if best < 700 else math.inf)


# ---------------------------------------------------------------------------------------------------
# The blanket sum over N, one ordered pair.


def _saddle_tilt(coefficients: np.ndarray, weights: np.ndarray) -> tuple[float, float, float] | None:
    """(lam, K(lam), K''(lam)) at the root lam > 0 of K'(lam) = 0 for L = coefficients with probabilities weights
    (floats), or None when there is none (every coefficient <= 0, or a mean >= 0). A handful of groups: plain
    floats, Newton steps kept inside a bisection bracket (K' is increasing)."""
    cs = [float(c) for c in coefficients]
    ws = [float(w) for w in weights]
    top = max(cs)
    if top <= 0 or sum(w * c for w, c in zip(ws, cs, strict=True)) >= 0:
        return None

    def moments(lam: float) -> tuple[float, float, float]:
        terms = [w * math.exp(lam * (c - top)) for w, c in zip(ws, cs, strict=True)]  # <= w: no overflow
        total = sum(terms)
        mean = sum(t * c for t, c in zip(terms, cs, strict=True)) / total
        second = sum(t * c * c for t, c in zip(terms, cs, strict=True)) / total
        return lam * top + math.log(total), mean, max(second - mean * mean, 0.0)

    low, high = 0.0, 1.0 / top
    for _ in range(2000):
        if moments(high)[1] > 0:
            break
        low, high = high, 2 * high
    else:
        return None
    lam = 0.5 * (low + high)
    scale = max(abs(c) for c in cs)
    for _ in range(100):
        _, mean, var = moments(lam)
        if abs(mean) <= 1e-14 * scale:
            break  # lam is the root (to rounding)
        if mean > 0:
            high = lam
        else:
            low = lam
        if high - low <= 1e-13 * high:
            break
        step = lam - mean / var if var > 0 else 0.5 * (low + high)
        lam = step if low < step < high else 0.5 * (low + high)
    k, _, k2 = moments(lam)
    return lam, k, k2


def _check_saddle_groups(groups_list: object, eps: object) -> None:
    if not isinstance(groups_list, Sequence) or not groups_list or not all(isinstance(g, Groups) for g in groups_list):
        raise ParameterError("groups", _short(groups_list), "a Groups of (alpha, beta, p) (a non-empty list of them for the blanket sums)")
    require_positive("eps", eps, allow_zero=True)
    if float(eps) > 700:  # type: ignore[arg-type]
        raise ParameterError("eps", eps, "0 <= eps <= 700 (e^eps a finite double)")


def saddle_expectations(big_ns: np.ndarray, groups: Groups, eps: float) -> np.ndarray:
    """Uncertified (module doc, "Aiming the search"): saddlepoint estimates of E[(L_1 + ... + L_N)_+] for each N of
    `big_ns`, L = alpha_g - e^eps beta_g with probability p_g. Only for placing a certified search. Range: big_ns
    integers >= 1, groups a Groups, 0 <= eps <= 700."""
    _check_saddle_groups([groups], eps)
    big_ns = np.asarray(big_ns, dtype=float)
    if big_ns.ndim != 1 or not bool(np.all(big_ns >= 1)) or not bool(np.all(big_ns == np.floor(big_ns))):
        raise ParameterError("big_ns", _short(big_ns), "a list of integers N >= 1")
    e = math.exp(eps)
    coefficients = np.array([float(a) - e * float(b) for a, b in zip(groups.alpha, groups.beta, strict=True)])
    weights = np.array([float(p) for p in groups.p])
    big_ns = np.asarray(big_ns, dtype=float)
    tilt = _saddle_tilt(coefficients, weights)
    if tilt is None:
        return np.zeros(len(big_ns)) if float(np.max(coefficients)) <= 0 else big_ns * float(np.max(coefficients))
    lam, k, k2 = tilt
    sigma = np.sqrt(np.maximum(big_ns * k2, 1e-300))
    u = lam * sigma
    scaled = _erfcx(u / math.sqrt(2)) if len(big_ns) <= SMALL_SADDLE else _erfcx_many(u / math.sqrt(2))
    gauss = sigma * np.maximum(1 / math.sqrt(2 * math.pi) - u * 0.5 * scaled, 0.0)
    with np.errstate(under="ignore", over="ignore"):
        value: np.ndarray = np.exp(np.minimum(big_ns * k, 700.0)) * gauss
    return value


def _erfcx(x: np.ndarray) -> np.ndarray:
    """e^(x^2) erfc(x) elementwise, for the uncertified saddlepoint estimates of a few sizes (`saddle_expectations`):
    scipy.special.erfcx's value within 1e-13 relative (tested against it), written here so that the estimates of
    one size, which aim every structured randomizer's pair search, do not load SciPy (a third of a second of
    start-up). math.erfc up to x = 25 (erfc(25) ~ 1e-273, a normal double), above it the asymptotic series
    1/(x sqrt(pi)) sum_k (-1)^k (2k-1)!! / (2 x^2)^k to k = 6 (remainder below 1e-16 relative); inf where e^(x^2)
    overflows (x < -26.6), as SciPy's. One Python call per element: long arrays use `_erfcx_many`."""
    out = np.empty(np.shape(x))
    for i, value in enumerate(np.asarray(x, dtype=float).ravel()):
        v = float(value)
        if v > 25.0:
            term, total, w = 1.0, 1.0, 1.0 / (2.0 * v * v)
            for k in range(1, 7):
                term *= -(2 * k - 1) * w
                total += term
            out.flat[i] = total / (v * math.sqrt(math.pi))
        elif v < -26.6:
            out.flat[i] = math.inf
        else:
            out.flat[i] = math.exp(v * v) * math.erfc(v)
    return out


def _erfcx_many(x: np.ndarray) -> np.ndarray:
    """e^(x^2) erfc(x) elementwise for the long size grids of the saddlepoint estimates (`saddle_expectations`: up to
    about 1e4 sizes, evaluated some 20 times per root), in NumPy, so that no SciPy is loaded (a third of a second of
    CPU, more than these estimates cost). Within 1e-13 relative of the exact value (tested against mpmath). Three
    ranges, each a fixed number of whole-array steps:
    x >= 1.5: the continued fraction erfcx(x) = (2x / sqrt(pi)) / (2x^2 + 1 - 1*2 / (2x^2 + 5 - 3*4 / (2x^2 + 9 - ...)))
    (the even part of Laplace's fraction for erfc), evaluated from its CF_DEPTHS-th level down; the depth needed for
    1e-15 falls with x (40 at 1.5, 5 at 8), so it is chosen by the smallest x of the array;
    0 <= x < 1.5: e^(x^2) - e^(x^2) erf(x), with e^(x^2) erf(x) = (2 / sqrt(pi)) sum_j 2^j x^(2j+1) / (2j+1)!! (positive
    terms, summed until the last is below 1e-17 of the sum, at most 40: 1e-17 relative at x = 1.5, where the subtraction loses a factor e^(x^2) / erfcx(x) < 30);
    negative or non-finite x, and x above FRACTION_MAX (where 2 x^2 overflows): the scalar `_erfcx`."""
    values = np.asarray(x, dtype=float)
    flat = values.ravel()
    if flat.size and float(np.min(flat)) >= 1.5 and float(np.max(flat)) <= FRACTION_MAX:  # the usual case (u = lam sigma grows like sqrt(N)): no masks
        return _erfcx_fraction(flat).reshape(values.shape)
    result = np.empty(flat.shape)
    far = (flat >= 1.5) & (flat <= FRACTION_MAX)
    if np.any(far):
        result[far] = _erfcx_fraction(flat[far])
    near = (flat >= 0) & (flat < 1.5)
    if np.any(near):
        z = flat[near]
        twice = 2.0 * z * z
        term, total = z.copy(), z.copy()
        for j in range(1, SERIES_TERMS):
            term *= twice
            term /= 2 * j + 1
            total += term
            if j % 4 == 0 and float(np.max(term)) <= 1e-17 * float(np.min(total)):
                break  # the remaining terms fall faster than geometrically (ratio 2 x^2 / (2 j + 1) < 1 / 2 here)
        result[near] = np.exp(z * z) - (2.0 / math.sqrt(math.pi)) * total
    rest = ~(far | near)  # negative, nan, or above FRACTION_MAX (+inf too): the scalar's asymptotic series
    if np.any(rest):
        result[rest] = _erfcx(flat[rest])
    return result.reshape(values.shape)


def _erfcx_fraction(z: np.ndarray) -> np.ndarray:
    """`_erfcx_many`'s continued fraction for z >= 1.5 (a 1-d array), in place on two work arrays."""
    depth = next(k for edge, k in CF_DEPTHS if float(np.min(z)) >= edge)
    y = 2.0 * z * z
    tail = np.zeros_like(z)
    for k in range(depth, 0, -1):
        np.subtract(y, tail, out=tail)
        tail += 4 * k + 1
        np.divide((2 * k - 1) * (2 * k), tail, out=tail)
    y += 1.0
    y -= tail
    fraction: np.ndarray = (2.0 / math.sqrt(math.pi)) * z / y
    return fraction


# (smallest x, depth of the continued fraction) for `_erfcx_many`: the depth at which the fraction is within 1.2e-15
# relative of mpmath's value on [edge, 1.5 edge] (it converges faster as x grows), listed from the largest edge down.
CF_DEPTHS: tuple[tuple[float, int], ...] = ((30.0, 3), (15.0, 4), (10.0, 5), (8.0, 6), (6.0, 7), (5.0, 8), (4.0, 10), (3.0, 14), (2.5, 18), (2.0, 26), (1.5, 42))
SERIES_TERMS = 40
# The continued fraction's 2 x^2 overflows a double above ~1.34e154 (it then gave 0, and nan at +inf): larger x go to
# the scalar `_erfcx`'s asymptotic series.
FRACTION_MAX = 1e150
SMALL_SADDLE = 8  # at most this many sizes: the scalar `_erfcx`; more (a blanket sum's N grid): `_erfcx_many`


def saddle_blanket_delta(n: int, gamma: Fraction, groups_list: Sequence[Groups], eps: float, delta_hint: float) -> float:
    """Uncertified: the blanket sum of `blanket_sum` (the same N grid) with D_N from `saddle_expectations`, max over
    the pairs' groups. Only for placing a certified search. Range: n in [1, MAX_N], gamma a Fraction in (0, 1],
    groups_list non-empty Groups, 0 <= eps <= 700, delta_hint in (0, 1)."""
    check_n(n, maximum=MAX_N)
    if not isinstance(gamma, Fraction) or not 0 < gamma <= 1:
        raise ParameterError("gamma", gamma, "an exact Fraction in (0, 1] (the blanket mass)")
    _check_saddle_groups(groups_list, eps)
    require_probability("delta_hint", delta_hint)
    weights, big_ns = _saddle_sizes(int(n), gamma, max(min(1e-30, delta_hint * 1e-12), 1e-300))
    best = 0.0
    for groups in groups_list:
        d = np.minimum(saddle_expectations(big_ns, groups, eps) / big_ns, 1.0)
        best = max(best, float(np.sum(weights * d)))
    return best


@lru_cache(maxsize=64)
def _saddle_sizes(n: int, gamma: Fraction, tail: float) -> tuple[np.ndarray, np.ndarray]:
    """The blanket sizes N of `saddle_blanket_delta` and the upper brackets of their probabilities (the window of
    Bin(n - 1, gamma) at `tail`), read only: they do not depend on eps, and a root search evaluates 20-30 eps."""
    window = binomial_window(n - 1, binomial_law(gamma), tail)
    big_ns = np.arange(window.lo, window.hi + 1, dtype=float) + 1
    weights = np.array(window.upper, dtype=float)
    big_ns.setflags(write=False)
    weights.setflags(write=False)
    return weights, big_ns


def saddle_blanket_root(n: int, gamma: Fraction, groups_list: Sequence[Groups], *, delta: float, eps0: float) -> float | None:
    """Uncertified: the eps in (0, eps0) where `saddle_blanket_delta` crosses delta (relative 1e-6), or None when it
    does not cross there. Only for placing a certified search (`solve_certified_epsilon`'s guess). Range: as
    saddle_blanket_delta, delta in (0, 1), eps0 > 0."""
    check_n(n, maximum=MAX_N)
    if not isinstance(gamma, Fraction) or not 0 < gamma <= 1:
        raise ParameterError("gamma", gamma, "an exact Fraction in (0, 1] (the blanket mass)")
    _check_saddle_groups(groups_list, 0.0)
    require_probability("delta", delta)
    require_positive("eps0", eps0)
    return _saddle_root(int(n), gamma, tuple(groups_list), float(delta), float(eps0))


@lru_cache(maxsize=64)
def _saddle_root(n: int, gamma: Fraction, groups_list: tuple[Groups, ...], delta: float, eps0: float) -> float | None:
    """`saddle_blanket_root` on checked inputs, kept: a mechanism's upper bound asks for the same pair's root twice
    (to choose its evaluation, then to aim the chosen search); a deterministic float function, so the kept value
    is the one a new search would find."""
    if not 0 < eps0 < 700 or gamma == 1:
        return None
    log_target = math.log(delta)

    def f(eps: float) -> float:
        value = saddle_blanket_delta(n, gamma, groups_list, eps, delta)
        return (math.log(value) if value > 0 else -800.0) - log_target

    low, high = eps0 * 1e-9, eps0 * (1 - 1e-9)
    try:
        if not (f(low) > 0 >= f(high)):
            return None
        return uncertified_root(f, low, high, 1e-6)
    except (ValueError, OverflowError, FloatingPointError):
        return None


def check_pair_indices(randomizer: FiniteRandomizer, x: int, x2: int) -> None:
    """`randomizer` a FiniteRandomizer and x, x2 its row indices in [0, k - 1], else a one-line ParameterError."""
    if not isinstance(randomizer, FiniteRandomizer):
        raise ParameterError("randomizer", _short(randomizer), "a FiniteRandomizer from finite_randomizer()")
    for name, value in (("x", x), ("x2", x2)):
        require_integer(name, value, minimum=0)
        if value >= randomizer.k:
            raise ParameterError(name, value, f"an input index in [0, {randomizer.k - 1}]")


def pair_groups(randomizer: FiniteRandomizer, x: int, x2: int) -> Groups:
    """The merged groups (alpha, beta, p) of the ordered pair (x, x') under the best blanket (module doc).
    Range: x, x2 row indices of `randomizer`."""
    check_pair_indices(randomizer, x, x2)
    gamma = randomizer.gamma
    omega = [c / gamma for c in randomizer.column_min()]
    return group_outputs(randomizer.rows[x], randomizer.rows[x2], omega)


def blanket_pair_delta(randomizer: FiniteRandomizer, x: int, x2: int, *, n: int, eps: float, delta_hint: float = 1e-6) -> BoundValue:
    """BBGN19.Lem5.3.exact_randomizer: a certified interval of Lemma 5.3's delta(eps) for the ordered pair
    (x, x') (module doc). Range: the module doc's; x, x' row indices; eps >= 0."""
    check_pair_indices(randomizer, x, x2)
    check_n(n, maximum=MAX_N)
    require_positive("eps", eps, allow_zero=True)
    require_probability("delta_hint", delta_hint)
    n = int(n)
    if x == x2 or eps >= randomizer.eps0:
        return BoundValue(0.0, 0.0, direction="upper_bound")
    groups = pair_groups(randomizer, x, x2)
    distinct = len(groups)
    tail = max(min(1e-30, delta_hint * 1e-12), 1e-300)

    def d_n(big_n: int) -> tuple[float, float]:
        if distinct <= 3:
            lo, hi = count_expectation(big_n, groups, eps, tail=tail)
        else:
            lo, hi = 0.0, fft_count_expectation_upper(big_n, groups, eps, tail=tail)
        return lo / big_n / (1 + 2 * U1), min(1.0, hi / big_n * (1 + 2 * U1))

    def d_ns(big_ns: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        opened: list[int] = []  # sizes whose lattice interval cancelled: `blanket_sum` batches their FFT
        lo, hi = count_expectations(big_ns.tolist(), groups, eps, tail=tail, opened=opened)
        marks = np.zeros(len(big_ns), dtype=bool)
        marks[opened] = True
        return lo / big_ns / (1 + 2 * U1), np.minimum(1.0, hi / big_ns * (1 + 2 * U1)), marks

    if randomizer.gamma == 1:
        # Every row equal: the output ignores the input; D = 0 for eps >= 0 (L = 1 - e <= 0 surely).
        return BoundValue(0.0, 0.0, direction="upper_bound")
    return blanket_sum(n, randomizer.gamma, d_n, delta_hint, batch=d_ns if distinct <= 3 else None, mixture=_fft_mixture(groups, eps, tail))


def blanket_pair_fft_delta(randomizer: FiniteRandomizer, x: int, x2: int, *, n: int, eps: float, delta_hint: float = 1e-6) -> BoundValue:
    """BBGN19.Lem5.3.exact_randomizer through the batched FFT alone, whatever the number of groups: a certified upper
    end of Lemma 5.3's delta(eps) for the ordered pair (x, x') (`blanket_powers`; lower end 0), cheap where the
    lattice path is dear (its upper end is usually a little above the lattice's; the smaller of the two is an
    upper bound too). The per-size FFT path where the batched window does not fit. Range: as blanket_pair_delta."""
    check_pair_indices(randomizer, x, x2)
    check_n(n, maximum=MAX_N)
    require_positive("eps", eps, allow_zero=True)
    require_probability("delta_hint", delta_hint)
    n = int(n)
    if x == x2 or eps >= randomizer.eps0 or randomizer.gamma == 1:
        return BoundValue(0.0, 0.0, direction="upper_bound")
    return groups_fft_delta(n, randomizer.gamma, pair_groups(randomizer, x, x2), eps=eps, delta_hint=delta_hint)


def groups_fft_delta(n: int, gamma: Fraction, groups: Groups, *, eps: float, delta_hint: float = 1e-6) -> BoundValue:
    """BBGN19.Lem5.3.exact_randomizer through the batched FFT alone for one ordered pair given by its blanket mass
    gamma and its groups (`blanket_pair_fft_delta` without the matrix: the structured randomizers' pairs): a certified
    upper end of Lemma 5.3's delta(eps) (lower end 0); the per-size FFT path where the batched window does not fit.
    Range: n in [1, MAX_N], gamma a Fraction in (0, 1], groups a Groups (any number), eps >= 0, delta_hint in (0, 1)."""
    check_n(n, maximum=MAX_N)
    require_positive("eps", eps, allow_zero=True)
    require_probability("delta_hint", delta_hint)
    if not isinstance(groups, Groups):
        raise ParameterError("groups", _short(groups), "a Groups of (alpha, beta, p) from group_outputs()")
    tail = max(min(1e-30, delta_hint * 1e-12), 1e-300)

    def d_n(big_n: int) -> tuple[float, float]:
        return 0.0, min(1.0, fft_count_expectation_upper(big_n, groups, eps, tail=tail) / big_n * (1 + 2 * U1))

    return blanket_sum(int(n), gamma, d_n, delta_hint, mixture=_fft_mixture(groups, eps, tail))


def _fft_mixture(groups: Groups, eps: float, tail: float) -> Callable[[np.ndarray, np.ndarray], float | None]:
    """The FFT path's blanket sum over all blanket sizes at once (`blanket_powers`): sum_b w_b E[(S_{N_b})_+]
    bounded from above with the upper brackets of the coefficients and probabilities (as
    `fft_count_expectation_upper`), or None (the per-size path then)."""
    l_hi = [hi for _, hi, _ in _coefficient_brackets(groups, float(eps))]
    p_hi = _probability_upper(groups)

    def mixture(big_ns: np.ndarray, weights: np.ndarray) -> float | None:
        return mixture_positive_part_upper(l_hi, p_hi, big_ns.tolist(), weights, tail=tail)

    return mixture


def blanket_sum(
    n: int, gamma: Fraction, d_n: Callable[[int], tuple[float, float]], delta_hint: float, *, batch: Callable[[np.ndarray], tuple[np.ndarray, ...]] | None = None,
    mixture: Callable[[np.ndarray, np.ndarray], float | None] | None = None,
) -> BoundValue:
    """BBGN19.Lem5.3.exact_randomizer: sum_N Pr[Bin(n-1, gamma) = N-1] D_N blocked on a grid (D_N non-increasing in N, as in
    `shuffle_spec.reference.bounds.blanket_exact_krr`); gamma exact (rows within 1e-45 of each other give gamma = 1 - 1e-45).
    d_n(N) -> a certified (lower, upper) of D_N, non-increasing in N; `batch` (optional): the same for an array of N
    at once (arrays of lower and upper ends, and optionally a boolean array of the sizes whose upper end the
    `mixture` should try), used instead of d_n when given. `mixture` (optional, the FFT path, `blanket_powers`):
    mixture(N, w) >= sum_b w_b E[(L_1 + ... + L_{N_b})_+] for the blocks' first sizes N_b and weights
    w_b >= block mass / N_b, or None. Without `batch`, when it is not None the upper end is that (capped by the sum
    of the block masses: every D_N <= 1) and the lower end 0; with `batch`, the marked blocks' part of the upper end
    is the smaller of their batch values and the mixture's (d_n per block where the mixture gives None). The
    interval is well formed, 0 <= lower <= upper <= 1: lower ends of D_N above 1 (a raised sum's, whose upper ends
    the callers cap at 1) count as 1 (a lower end of min(D_N, 1), the quantity the capped ends bound).
    Range: n in [1, MAX_N], gamma a Fraction in (0, 1], delta_hint in (0, 1)."""
    require_integer("n", n, minimum=1)
    if not isinstance(gamma, Fraction) or not 0 < gamma <= 1:
        raise ParameterError("gamma", gamma, "an exact Fraction in (0, 1] (the blanket mass)")
    require_probability("delta_hint", delta_hint)
    law_n = binomial_law(gamma)
    tail = max(min(1e-30, delta_hint * 1e-12), 1e-300)
    window = binomial_window(n - 1, law_n, tail)
    offsets = blocking_offsets(window.lo, window.hi, (n - 1) * law_n.p, math.sqrt(max((n - 1) * law_n.p * (1 - law_n.p), 0.0)), delta_hint)
    step = int(np.max(np.diff(offsets))) if len(offsets) > 1 else 1
    block_hi = np.add.reduceat(window.upper, offsets) * (1 + (step + 2) * U1)
    block_hi[-1] += window.above
    sizes = window.lo + offsets + 1
    if mixture is not None and batch is None:
        # w_b >= block mass / N_b (one division, rounded up by the factor); the sum's float error as below.
        combined = mixture(sizes, block_hi / sizes * (1 + 2 * U1))
        if combined is not None:
            cap = float(np.sum(block_hi)) * (1 + (len(offsets) + 4) * U1)
            upper = min(combined * (1 + 4 * U1), cap) + window.below
            return BoundValue(0.0, min(upper * (1 + 2 * U1), 1.0), direction="upper_bound")
    opened = np.zeros(len(offsets), dtype=bool)
    if batch is not None:
        found = batch(sizes)
        d_lo, d_hi = (np.asarray(v, dtype=float) for v in found[:2])
        if len(found) > 2:
            opened = np.asarray(found[2], dtype=bool)
    else:
        d_lo = np.empty(len(offsets))
        d_hi = np.empty(len(offsets))
        for i, offset in enumerate(offsets):
            d_lo[i], d_hi[i] = d_n(int(window.lo + offset) + 1)
    # Lower ends above 1 are lowered to 1: D_N <= 1 for every valid decomposition (E[(S)_+] <= N E[alpha] = N), and
    # a raised sum's D'_N, which may exceed 1, has its upper ends capped at 1 by its callers, so the interval is one
    # of the sum of min(D_N, 1); min(lo, 1) is a lower end of min(D_N, 1) whenever lo is one of D_N.
    d_lo = np.minimum(d_lo, 1.0)
    starts = np.concatenate(([0], offsets[:-1] + 1))
    block_lo = np.add.reduceat(window.lower, starts) / (1 + (step + 2) * U1)
    factor = 1 + (len(offsets) + 4) * U1
    open_part = 0.0
    if bool(np.any(opened)):
        # Blocks whose lattice interval lost its digits to cancellation: their part of the sum by one batched FFT
        # (`mixture`, the smaller of it and their lattice part: two upper bounds of the same part), else by d_n
        # (the per-size FFT path) block by block.
        lattice_part = float(np.sum(block_hi[opened] * d_hi[opened])) * factor
        combined = mixture(sizes[opened], block_hi[opened] / sizes[opened] * (1 + 2 * U1)) if mixture is not None else None
        if combined is None:
            for i in np.nonzero(opened)[0].tolist():
                d_hi[i] = min(d_hi[i], d_n(int(sizes[i]))[1])
            opened[:] = False
        else:
            open_part = min(lattice_part, combined * (1 + 4 * U1))
    upper = float(np.sum(block_hi[~opened] * d_hi[~opened])) * factor
    if open_part > 0:
        upper = (upper + open_part) * (1 + 2 * U1)  # one more rounding
    upper += window.below
    lower = float(np.sum(block_lo * d_lo)) / (1 + (len(offsets) + 4) * U1)
    upper = min(upper, 1.0)
    return BoundValue(max(0.0, min(lower, upper)), upper, direction="upper_bound")


def _pair_order(randomizer: FiniteRandomizer, weight: Sequence[Fraction]) -> list[tuple[int, int]]:
    """Ordered pairs, the likely worst first (largest chi-square distance sum (mu_x - mu_x')^2 / w): only
    decides how many pairs are solved in full, never the result."""
    scores = []
    for x in range(randomizer.k):
        for x2 in range(randomizer.k):
            if x != x2:
                chi = sum(float((a - b) ** 2 / w) for a, b, w in zip(randomizer.rows[x], randomizer.rows[x2], weight, strict=True))
                scores.append((-chi, x, x2))
    # Pairs with the same groups (alpha, beta, p) have the same delta at every eps: one of each is kept.
    seen: set[Groups] = set()
    out = []
    for _, x, x2 in sorted(scores):
        key = group_outputs(randomizer.rows[x], randomizer.rows[x2], weight)
        if key not in seen:
            seen.add(key)
            out.append((x, x2))
    return out


def check_count_and_delta(n: int, delta: float) -> None:
    """The inputs shared by the finite-randomizer bounds (this module and `shuffle_spec.reference.lower_bounds.randomizer`):
    n an integer in [1, MAX_N], delta in [DELTA_MIN, 1) (`shuffle_spec.reference.core.limits`)."""
    check_n(n, maximum=MAX_N)
    check_delta(delta, minimum=DELTA_MIN, why="shuffle_spec.reference.core.limits")


def exact_blanket_randomizer_delta(*, matrix: object, n: int, eps: float, delta_hint: float = 1e-6) -> BoundValue:
    """BBGN19.Lem5.3.exact_randomizer: the certified interval of Lemma 5.3's delta(eps) maximised over the
    ordered pairs of inputs, an upper bound on the central delta(eps) of n shuffled reports of `matrix`
    (module doc). Range: see the module doc; eps >= 0."""
    randomizer = finite_randomizer(matrix)
    check_count_and_delta(n, 0.5)
    require_positive("eps", eps, allow_zero=True)
    lower = upper = 0.0
    if randomizer.gamma == 1:
        return BoundValue(0.0, 0.0, direction="upper_bound")
    omega = [c / randomizer.gamma for c in randomizer.column_min()]
    for x, x2 in _pair_order(randomizer, omega):  # every ordered pair up to equal groups (equal deltas)
        value = blanket_pair_delta(randomizer, x, x2, n=n, eps=eps, delta_hint=delta_hint)
        lower, upper = max(lower, value.lower), max(upper, value.upper)
    return BoundValue(lower, upper, direction="upper_bound")


class PairProfiles:
    """BBGN19.Lem5.3.exact_randomizer at many eps for one randomizer and n (the nodes of a composition envelope):
    `upper(eps)` is the upper end of `exact_blanket_randomizer_delta` at eps, or lower, never below the bound's
    maximum over the ordered pairs. Each pair's true delta is non-increasing in eps (D_N falls with e^eps, module
    doc), so a pair whose certified upper end at some evaluated eps' <= eps is already <= the largest value found
    at eps cannot raise the maximum there and is not evaluated again; the pairs are tried in the order of their
    last values (largest first). The values returned are the maximum over the pairs evaluated: unchanged where
    no pair is skipped, lower (and still an upper bound) where one is. Range: as exact_blanket_randomizer_delta;
    eps >= 0."""

    def __init__(self, matrix: object, *, n: int, delta_hint: float = 1e-6) -> None:
        self.randomizer = finite_randomizer(matrix)
        check_count_and_delta(n, 0.5)
        require_probability("delta_hint", delta_hint)
        self.n = int(n)
        self.delta_hint = float(delta_hint)
        omega = [c / self.randomizer.gamma for c in self.randomizer.column_min()]
        self.pairs = _pair_order(self.randomizer, omega) if self.randomizer.gamma < 1 else []
        self.seen: dict[tuple[int, int], list[tuple[float, float]]] = {pair: [] for pair in self.pairs}
        self.evaluated = 0
        self.skipped = 0

    def _known(self, pair: tuple[int, int], eps: float) -> float:
        """The smallest certified upper end of the pair at an evaluated eps' <= eps (inf when none)."""
        return min((upper for at, upper in self.seen[pair] if at <= eps), default=math.inf)

    def upper(self, eps: float) -> float:
        require_positive("eps", eps, allow_zero=True)
        eps = float(eps)
        best = 0.0
        for pair in sorted(self.pairs, key=lambda q: -self._known(q, eps)):  # never evaluated (inf) first
            if self._known(pair, eps) <= best:
                self.skipped += 1
                continue  # its delta at eps is at most its certified value at a smaller eps, <= best
            value = blanket_pair_delta(self.randomizer, *pair, n=self.n, eps=eps, delta_hint=self.delta_hint)
            self.evaluated += 1
            self.seen[pair].append((eps, value.upper))
            best = max(best, value.upper)
        return best


def solve_over_pairs(
    pairs: list[tuple[int, int]], pair_delta: Callable[[int, int, float], BoundValue], *, eps0: float, delta: float, hint: float | None = None
) -> tuple[float, float, bool, tuple[int, int] | None]:
    """BBGN19.Lem5.3.exact_randomizer: the largest certified eps over ordered pairs: each pair solved by
    `solve_certified_epsilon` unless its
    certified delta at the current largest eps is already <= delta (then it cannot raise it: delta is
    non-increasing in eps). `hint`: an eps believed just above the answer, tried first (verified like every
    point: it only decides where delta is evaluated). Returns (lower, upper, found, the pair giving upper)."""
    lower, upper, worst = 0.0, 0.0, None
    for x, x2 in pairs:
        if worst is not None and pair_delta(x, x2, upper).upper <= delta:
            continue

        def bounds(eps: float, x: int = x, x2: int = x2) -> tuple[float, float]:
            value = pair_delta(x, x2, eps)
            return value.lower, value.upper

        lo, up, found = solve_certified_epsilon(bounds, eps0=eps0, delta=delta, rel_tol=EPS_REL_TOL, hint=hint if worst is None else None)
        if not found:
            return lower, float(eps0), False, (x, x2)
        if worst is None or up > upper:
            upper, worst = up, (x, x2)
        lower = max(lower, lo)
    return min(lower, upper), upper, True, worst


def exact_blanket_randomizer_epsilon(*, matrix: object, n: int, delta: float, hint: float | None = None) -> BoundValue:
    """BBGN19.Lem5.3.exact_randomizer: the smallest eps whose certified Lemma 5.3 delta(eps), maximised over
    the ordered pairs of inputs (best blanket decomposition, module doc), is <= delta for n shuffled reports
    of the finite randomizer `matrix` (k x m, rows inputs): a certified interval, value = its upper end, an
    upper bound on the central eps; the randomizer's eps0 with a note when nothing below it is certified.
    Range: 2 <= k <= 16, 2 <= m <= 64, eps0 <= 50, 1 <= n <= 1e8, 1e-300 <= delta < 1. `hint` (optional, e.g.
    a little above a known lower bound) only narrows the first bracket of the root search."""
    randomizer = finite_randomizer(matrix)
    check_count_and_delta(n, delta)
    if hint is not None and not (isinstance(hint, (int, float)) and math.isfinite(hint)):
        raise ParameterError("hint", hint, "a finite eps (or None)")
    n = int(n)
    if randomizer.eps0 == 0 or randomizer.gamma == 1:
        return BoundValue(0.0, 0.0, "the output does not depend on the input: 0-DP", direction="upper_bound")
    omega = [c / randomizer.gamma for c in randomizer.column_min()]

    def pair_delta(x: int, x2: int, eps: float) -> BoundValue:
        return blanket_pair_delta(randomizer, x, x2, n=n, eps=eps, delta_hint=delta)

    lower, upper, found, _ = solve_over_pairs(_pair_order(randomizer, omega), pair_delta, eps0=randomizer.eps0, delta=delta, hint=hint)
    return BoundValue(lower, upper, "" if found else NO_AMPLIFICATION, direction="upper_bound")
