"""The parameter ranges the numeric amplification bounds support, in one place.

Inside its range a bound answers with a sound value (an upper bound also in floating point) within
seconds and bounded memory; outside it, it raises `ParameterError` naming the parameter, its value and
the range, BEFORE doing any work. The CLI and the API print these ranges (`RANGES`, `describe`).

Why these numbers:
- eps0 <= EPS0_MAX_FLOAT = 700 where binary64 floats hold e^eps0 or e^-eps0 (the certified clone
  computations, exact binary randomized response): e^709.78 is the largest finite double and e^-745 the
  smallest subnormal. Above ~37 the answer there is eps0 minus a negligible amount anyway.
- eps0 <= EPS0_MAX = 1e4 for bounds evaluated in mpmath (arbitrary exponents): beyond it nothing changes
  (no amplification is possible at any n below 1e18) and the cost of e^(k eps0) grows with eps0.
- n <= N_MAX_WINDOW = 1e12 where the work and the memory grow like sqrt(n) (the binomial window of the
  clone count, streamed in blocks of at most `shuffle_spec.reference.numerics.binomial.BLOCK` counts, so memory is bounded;
  time at 1e12 is about a minute); integers up to 2^53 are exact in binary64, 1e12 is far inside.
- n <= N_MAX_CLOSED = 1e18 for closed forms in mpmath: their 80-digit evaluation loses at most 18
  digits to n (`shuffle_spec.reference.bounds.blanket_parameters.DPS`).
- delta >= DELTA_MIN = 1e-300: every bound is tested down to it; below, float tails (1e-300 of window
  mass, subnormals) are no longer negligible against delta.
- Finite randomizers given as matrices (`shuffle_spec.reference.finite.randomizers.Randomizer.from_matrix`, the finite-randomizer
  bounds of `reference.bounds.blanket_exact_randomizer`, `audit randomizer`, `tightest --randomizer matrix`):
  every entry is an exact rational whose numerator and denominator, as written, have at most
  MATRIX_ENTRY_MAX_DIGITS = 1000 decimal digits, and whose text has at most MATRIX_ENTRY_MAX_CHARS characters.
  It is checked on the text BEFORE any number is built: `Fraction("1e-999999999")` builds a billion-digit
  power of ten (minutes, gigabytes) from 12 characters. The least common multiple of all the denominators of
  the matrix has at most MATRIX_DENOMINATOR_LCM_MAX_DIGITS = 10,000 digits: every exact sum of entries (a row
  sum, the blanket mass gamma, the column sums of the removal reference) has a denominator dividing it, and
  big-integer arithmetic costs grow with the square of the digits (rows over many different 1000-digit
  denominators would make one addition cost seconds). Decimals up to 999 places and rows of counts divided by
  their own totals (k rows, 7-digit totals: 7k digits) stay far inside.
- The high-precision enclosures (the `_mp` paths the test vectors are written from; they decline with a
  ParameterError whose range says "outside the high-precision range", and the vector generator leaves such a
  point out): their work is exact big-integer or interval arithmetic over every outcome, so their limits are
  sizes of seconds of work at dps 40, stated beside each constant below (section "High precision").
- The exact k-ary randomized response (`reference.exact.krr`) and the protocols' domain sizes k: the work or
  the memory of an exact enumeration or of arrays indexed by k (section "Exact enumeration and protocols").
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import SupportsFloat, SupportsIndex, TypeGuard

from .errors import ParameterError

__all__ = [
    "COMPOSE_EPS0_MAX",
    "COMPOSE_N_MAX",
    "COMPOSE_ROUNDS_MAX",
    "COMPOSE_SCHEDULE_MAX",
    "DELTA_MIN",
    "MATRIX_DENOMINATOR_LCM_MAX_DIGITS",
    "MATRIX_ENTRY_MAX_CHARS",
    "MATRIX_ENTRY_MAX_DIGITS",
    "EPS0_MAX",
    "EPS0_MAX_FLOAT",
    "K_MAX",
    "N_MAX",
    "N_MAX_CLOSED",
    "N_MAX_WINDOW",
    "RANGES",
    "SupportedRange",
    "check_range",
    "describe",
    # high precision
    "HIGH_PRECISION",
    "CLONES_MP_N_MAX",
    "CLONES_MP_EPS0_MAX",
    "CLONES_MP_DELTA_MIN",
    "COMPOSED_MP_MAX",
    "COMPOSED_MP_N_MAX",
    "EXACT_MP_MAX_POINTS",
    "EXACT_MP_MAX_WINDOW_POINTS",
    "EXACT_MP_MAX_LATTICE_POINTS",
    # exact enumeration and protocols
    "EPS0_MAX_EXP",
    "KRR_EXACT_MAX_WORK",
    "KRR_EXACT_MP_MAX_WORK",
    "K_RAPPOR_K_MAX",
    "EXACT_RANDOMIZER_K_MAX",
    "PROTOCOL_ARRAY_K_MAX",
    "SUMMATION_INTERVALS_K_MAX",
    "ParameterLimit",
    "PARAMETER_LIMITS",
    "limits_table",
]

EPS0_MAX = 1e4
EPS0_MAX_FLOAT = 700.0
N_MAX_CLOSED = 10**18
N_MAX_WINDOW = 10**12
DELTA_MIN = 1e-300
# The ranges every command and the API check before any work (each bound's own range may stop lower):
# n up to 1e12 (the soundness tests cover it; the windowed bounds' limit), k-ary randomized response up to
# k = 1e9 (the lattice sums refuse larger k in their own range).
N_MAX = N_MAX_WINDOW
K_MAX = 10**9
MATRIX_ENTRY_MAX_DIGITS = 1000
MATRIX_ENTRY_MAX_CHARS = 2 * MATRIX_ENTRY_MAX_DIGITS + 16
MATRIX_DENOMINATOR_LCM_MAX_DIGITS = 10_000
# ---------------------------------------------------------------- High precision
# Every refusal of a high-precision (`_mp`) path says this: the vector generator (`interface/vectors/files.py`)
# reads any ValueError there as "no high-precision value at this point" and leaves the point out.
HIGH_PRECISION = "outside the high-precision range"
# The clone bounds' enclosures (`reference.bounds.clones_high_precision`): an interval walk over every clone
# count, O(n) interval operations at dps + 20 digits: ~0.1-0.5 s at n = 1e5, ~3 s at 1e6 (n <= 2e5 keeps a
# vector point under a second); e^eps0 and the binomial tails in interval arithmetic stay cheap up to eps0 = 30
# (beyond, no amplification is provable at these n anyway); delta >= 1e-200 bounds the digits the tail needs.
CLONES_MP_N_MAX = 200_000
CLONES_MP_EPS0_MAX = 30.0
CLONES_MP_DELTA_MIN = 1e-200
# Their composition over rounds: the composite losses of each half of the rounds are enumerated as multisets
# (at most COMPOSED_MP_MAX per half: ~0.5 s); the per-round outcomes of a clone pair are O(n^2) (n <= 60),
# those of the exact binary-RR pair n + 1 (n <= 400).
COMPOSED_MP_MAX = 200_000
COMPOSED_MP_N_MAX = {"clones": 60, "stronger_clones": 60, "exact_binary_rr": 400}
# The exact-pair enclosures (`reference.numerics.high_precision_exact`): fixed-point big-integer work per outcome
# (about 1 s at dps 40 for MAX_POINTS outcomes of a finite pair, a binomial window of MAX_WINDOW_POINTS counts,
# or a k-RR lattice of MAX_LATTICE_POINTS points, each of which costs a convolution row).
EXACT_MP_MAX_POINTS = 120_000
EXACT_MP_MAX_WINDOW_POINTS = 200_000
EXACT_MP_MAX_LATTICE_POINTS = 40_000

# ---------------------------------------------------------------- Exact enumeration and protocols
# e^eps0 as a finite double (log(DBL_MAX) = 709.78): exact k-RR (`reference.exact.krr`) and the protocols'
# float randomizers.
EPS0_MAX_EXP = 709.0
# Exact k-RR enumerates the histograms of n - 1 users for both neighbours: work n C(n+k-2, k-1) C(n+k-1, k-1)/2
# Fraction operations, at most 150,000 (about a second: n <= 66 for k = 2, 15 for k = 3, 8 for k = 4); its
# high-precision path (mpmath logs per term) 20,000.
KRR_EXACT_MAX_WORK = 150_000
KRR_EXACT_MP_MAX_WORK = 20_000
# k-RAPPOR's exact randomizer (`reference.protocols.attribute_fragmenting`) has 2^k outputs as exact Fractions:
# k <= 12 keeps it at 4096.
K_RAPPOR_K_MAX = 12
# The protocols' exact randomizers and output distributions over a domain of size k (Hadamard response, a k x K
# table of Fractions with K ~ 2k; the blanket k-RR of BBGN19.Alg1, k x k; the tree counter's client, a sum over
# its k possible changes): k <= 255 keeps each at most 65,536 exact entries (the tests use small k).
EXACT_RANDOMIZER_K_MAX = 255
# The protocols whose reports or estimates are arrays indexed by k (frequency estimation by k-RR or Hadamard
# response, K < 2k floats; attribute fragmenting, k bits per report): k < 2^24 keeps them under 256 MB.
PROTOCOL_ARRAY_K_MAX = 2**24 - 1
# The exact mean-squared-error set-up of the summation lower bound (`reference.protocols.summation_lower_bound`):
# k midpoints as Fractions and an O(k^2) exact minimum: k <= 1000 (a second).
SUMMATION_INTERVALS_K_MAX = 1000

# Composition of shuffled rounds (`shuffle_spec.reference.composition.shuffled_rounds`, `shuffle-spec compose`): one round group's eps0, n and
# number of rounds (the clone windows are built in memory: n <= 1e9; e^eps0 far from overflow: eps0 <= 30).
COMPOSE_EPS0_MAX = 30.0
COMPOSE_N_MAX = 10**9
COMPOSE_ROUNDS_MAX = 10**6
# Entries of a heterogeneous schedule: each costs its own pair PLD (~0.1 s), the rounds it repeats do not.
COMPOSE_SCHEDULE_MAX = 1000


@dataclass(frozen=True)
class SupportedRange:
    """eps0 in (0, eps0_max], n <= n_max, delta in [delta_min, 1) (each statement's own hypotheses,
    e.g. eps0 < 1/2, come on top); `why` says what limits it."""

    eps0_max: float
    n_max: int
    delta_min: float
    why: str

    def check(self, *, eps0: object = None, n: object = None, delta: object = None, eps: object = None) -> None:
        """ParameterError for the first value outside the range (values that are not numbers are left to
        the functions' own checks, which name them)."""
        checks: tuple[tuple[str, object, Callable[[float], bool], str], ...] = (
            ("eps0", eps0, lambda v: v <= self.eps0_max, f"0 < eps0 <= {self.eps0_max:g} ({self.why})"),
            ("eps", eps, lambda v: v <= self.eps0_max, f"0 < eps <= {self.eps0_max:g} ({self.why})"),
            ("n", n, lambda v: v <= self.n_max, f"an integer 1 <= n <= {self.n_max:.0e} ({self.why})"),
            ("delta", delta, lambda v: v >= self.delta_min, f"{self.delta_min:g} <= delta < 1 ({self.why})"),
        )
        for name, value, ok, allowed in checks:
            if value is None or not _is_number(value):
                continue
            if math.isnan(float(value)) or not ok(float(value)):
                raise ParameterError(name, value, allowed)


def _is_number(value: object) -> TypeGuard[SupportsFloat | SupportsIndex]:
    try:
        float(value)  # type: ignore[arg-type]  # probing: any object may come in
    except (TypeError, ValueError, OverflowError):
        return False
    return not isinstance(value, (bool, str, bytes))


_MPMATH = SupportedRange(EPS0_MAX, N_MAX_CLOSED, DELTA_MIN, "closed form evaluated in mpmath")
_FLOAT_CLOSED = SupportedRange(EPS0_MAX, N_MAX_CLOSED, DELTA_MIN, "closed form evaluated in floats with outward rounding")
_WINDOW = SupportedRange(EPS0_MAX_FLOAT, N_MAX_WINDOW, DELTA_MIN, "certified binomial window: e^eps0 a finite double, work O(sqrt n)")
# The certified worst case of exact binary RR (`shuffle_spec.reference.exact.binary_rr` reads MAX_EPS0, MAX_N, MIN_DELTA from here):
# windows of its pairs are refused above their own size limit, and a call whose work budget runs out
# widens its interval (stated in the note) or refuses.
_EXACT_WINDOW = SupportedRange(
    100.0, N_MAX_WINDOW, DELTA_MIN, "certified worst case over every pair: windows of bounded size, a deterministic work budget"
)

# The certified lattice sums (exact blanket bound and k-RR pair lower bounds,
# `shuffle_spec.reference.numerics.lattice_sums`): work grows with n and with e^eps0 (the blanket mass shrinks like e^-eps0).
# `shuffle_spec.reference.bounds.blanket_exact_krr` reads MAX_N and MAX_EPS0 from here (and `shuffle_spec.reference.lower_bounds.krr` from it).
_LATTICE = SupportedRange(50.0, 10**8, DELTA_MIN, "certified lattice sums: work grows with n and e^eps0")

# Statement id -> its supported range; every numeric amplification bound of reference/bounds and
# reference/exact (each module reads its own range from here and enforces it; the CLI lists them).
# The Laplace mechanism's exact blanket bound and pair lower bound (read and enforced by
# `reference.bounds.blanket_exact_laplace.check_laplace_inputs`): one tilted FFT of a lattice whose size grows
# with n and e^eps0.
_LAPLACE_FFT = SupportedRange(8.0, 10**6, DELTA_MIN, "lattice FFT of the Laplace amplification variable: work grows with n and e^eps0")

RANGES: dict[str, SupportedRange] = {
    "EFMRTT19.Thm7": _FLOAT_CLOSED,
    "EFMRTT19.Thm8": _FLOAT_CLOSED,
    "EFMRTT19.Cor9": _FLOAT_CLOSED,
    "BBGN19.Thm5.1": _FLOAT_CLOSED,
    "EFMRTT19.Thm7.v2": _MPMATH,
    "EFMRTT19.Thm8.v2": _MPMATH,
    "EFMRTT19.Thm7.v2_refined": _MPMATH,
    "BBGN19.Thm5.3": _MPMATH,
    "BBGN19.Cor5.3.1": _MPMATH,
    "BBGN19.bennett_generic": _MPMATH,
    "BBGN19.hoeffding_krr": _MPMATH,
    "BBGN19.bennett_krr": _MPMATH,
    "BBGN19.hoeffding_laplace": _MPMATH,
    "BBGN19.bennett_laplace": _MPMATH,
    "FMT21.Thm2.1": _MPMATH,
    "FMT21.Thm2.1.focs": _MPMATH,
    "FMT21.Thm2.1.apple": _MPMATH,
    "FMT21.Prop2.2": _MPMATH,
    "FMT21.Prop2.2.focs": _MPMATH,
    "EFMRSTT20.LemII.6": _MPMATH,
    "FMT21.clones_numeric": _WINDOW,
    "FMT23.stronger_clones": _WINDOW,
    "exact.shuffled_binary_rr": _EXACT_WINDOW,
    "BBGN19.Lem5.3.exact_krr": _LATTICE,
    "exact.krr_pair_third": _LATTICE,
    "exact.krr_pair_third_split": _LATTICE,
    "exact.krr_pair_x0": _LATTICE,
    "BBGN19.Lem5.3.exact_laplace": _LAPLACE_FFT,
    "exact.laplace_pair_x0": _LAPLACE_FFT,
}


def _range_of(statement: str) -> SupportedRange:
    if statement not in RANGES:
        raise ParameterError("statement", statement, f"a numeric amplification bound with a documented range: {', '.join(sorted(RANGES))}")
    return RANGES[statement]


def check_range(statement: str, **values: object) -> None:
    """Refuse (ParameterError) values outside `statement`'s supported range (`RANGES`)."""
    _range_of(statement).check(**values)


def describe(statement: str) -> str:
    """One line for users: the supported range of `statement`."""
    r = _range_of(statement)
    return f"{statement}: 0 < eps0 <= {r.eps0_max:g}, 1 <= n <= {r.n_max:.0e}, {r.delta_min:g} <= delta < 1 ({r.why})"


@dataclass(frozen=True)
class ParameterLimit:
    """One row of the range table for users: where the limit applies, the parameter, its allowed range, why."""

    where: str
    parameter: str
    allowed: str
    why: str


PARAMETER_LIMITS: tuple[ParameterLimit, ...] = (
    ParameterLimit("clone bounds, high precision (FMT21.clones_numeric, FMT23.stronger_clones _mp)", "n", f"1 <= n <= {CLONES_MP_N_MAX:.0e}", "an interval walk over every clone count"),
    ParameterLimit("clone bounds, high precision", "eps0", f"0 < eps0 <= {CLONES_MP_EPS0_MAX:g}", "no amplification beyond at these n"),
    ParameterLimit("clone bounds, high precision", "delta", f"{CLONES_MP_DELTA_MIN:g} <= delta < 1", "digits the binomial tail needs"),
    ParameterLimit("composition, high precision (compose.* _mp)", "n", ", ".join(f"n <= {v} ({k})" for k, v in COMPOSED_MP_N_MAX.items()), "per-round outcomes O(n^2) (clone pairs), n + 1 (binary RR)"),
    ParameterLimit("composition, high precision", "rounds", f"at most {COMPOSED_MP_MAX:.0e} composite losses per half of the rounds", "multisets of per-round losses enumerated"),
    ParameterLimit("exact pairs, high precision (exact.* _mp)", "n", f"at most {EXACT_MP_MAX_POINTS} outcomes, {EXACT_MP_MAX_WINDOW_POINTS} window counts, {EXACT_MP_MAX_LATTICE_POINTS} lattice points", "fixed-point big-integer work per outcome"),
    ParameterLimit("exact binary RR pair evaluators (exact.binary_rr.pair_delta_evaluator, pair_delta_evaluator_many)", "population", f"1 <= population <= {_EXACT_WINDOW.n_max:.0e}, 0 <= ones <= population - 1", "the n range of exact.shuffled_binary_rr"),
    ParameterLimit("exact k-ary randomized response (exact.krr)", "eps0", f"0 < eps0 <= {EPS0_MAX_EXP:g}", "e^eps0 a finite double"),
    ParameterLimit("exact k-ary randomized response", "n, k", f"n C(n+k-2, k-1) C(n+k-1, k-1)/2 <= {KRR_EXACT_MAX_WORK} ({KRR_EXACT_MP_MAX_WORK} high precision)", "exact enumeration of histograms"),
    ParameterLimit("k-RAPPOR randomizer (attribute fragmenting)", "k", f"2 <= k <= {K_RAPPOR_K_MAX}", "2^k exact outputs"),
    ParameterLimit("protocols' exact randomizers (Hadamard response, blanket k-RR, tree counter client)", "k", f"k <= {EXACT_RANDOMIZER_K_MAX}", "tables of exact Fractions"),
    ParameterLimit("frequency estimation, attribute fragmenting reports", "k", f"k <= {PROTOCOL_ARRAY_K_MAX}", "arrays indexed by k"),
    ParameterLimit("summation lower bound set-up (BBGN19.Lem4.3)", "k", f"1 <= k <= {SUMMATION_INTERVALS_K_MAX}", "k Fractions, O(k^2) exact minimum"),
    ParameterLimit("protocols' other domain sizes and counts", "k", f"k <= {K_MAX:.0e}", "the domain sizes of k-ary randomized response"),
)


def limits_table() -> str:
    """The supported ranges as text for users: every statement's range (`RANGES`), then the other limits
    (`PARAMETER_LIMITS`), one line each."""
    lines = [describe(statement) for statement in sorted(RANGES)]
    lines += [f"{row.where}: {row.parameter}: {row.allowed} ({row.why})" for row in PARAMETER_LIMITS]
    return "\n".join(lines)
