"""Attribute fragmenting of k-RAPPOR (EFMRSTT20 Alg. 1, Thms III.1, III.2) with its estimator.

Each respondent one-hot encodes x in {0,1}^k and sends bit j, randomized by binary RR with local
epsilon eps0 (keep w.p. e^eps0/(1+e^eps0)), to shuffler S_j. Shuffler S_j's output is equivalent to
the sum of its bits, so a whole run on n respondents with histogram (c_1, ..., c_k) is, in
distribution, k independent sums Binomial(c_j, keep) + Binomial(n - c_j, flip): that is how
`attribute_fragmenting_sums` runs domains of millions and hundreds of millions of respondents in
seconds. The estimator is h_j = ((e+1)/(e-1)) sum_j / n - 1/(e-1), unbiased per coordinate, with
per-respondent variance e/(e-1)^2 (the paper prints (e+1)/(e-1) - 1, which is not the variance).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Sequence

import mpmath
import numpy as np

from ..finite.distributions import Distribution
from ..core.errors import HypothesisViolation, ParameterError, require_integer, require_positive, require_probability
from ..core.limits import K_RAPPOR_K_MAX, PROTOCOL_ARRAY_K_MAX
from ..core.parameters import check_k
from ..finite.randomizers import Randomizer
from ..core.results import BoundValue
from ..core.rounding import mpf_to_float_down, mpf_to_float_up

__all__ = [
    "k_rappor_randomizer",
    "k_rappor_absent_reference",
    "attribute_fragmenting_report",
    "attribute_fragmenting_sums",
    "attribute_fragmenting_estimate",
    "attribute_fragmenting_run",
    "expected_reported_bits",
    "estimator_variance",
    "att_frag_central_epsilon",
]

_DIGITS = 60


def _e_eps(e_eps0: object) -> Fraction | float:
    if isinstance(e_eps0, bool) or not isinstance(e_eps0, (int, float, Fraction)) or not e_eps0 > 1 or not math.isfinite(e_eps0):
        raise ParameterError("e_eps0", e_eps0, "a finite e^eps0 > 1")
    return Fraction(e_eps0) if isinstance(e_eps0, int) else e_eps0


def _bit_distribution(bit: int, e: Fraction | float) -> dict[int, Fraction | float]:
    keep = e / (1 + e)
    return {bit: keep, 1 - bit: 1 - keep}


def k_rappor_randomizer(k: int, e_eps0: Fraction | float) -> Randomizer:
    """The exact k-RAPPOR randomizer of EFMRSTT20.Alg1: x in {0..k-1} -> k bits, bit j = RR(1[x = j]).
    Outputs are k-tuples of bits (2^k of them: for small k only)."""
    check_k(k, maximum=K_RAPPOR_K_MAX, why="the exact 2^k-output randomizer")
    e = _e_eps(e_eps0)
    table = {}
    for x in range(int(k)):
        per_bit = [_bit_distribution(int(j == x), e) for j in range(int(k))]
        out = {}
        for bits in itertools.product((0, 1), repeat=int(k)):
            p = Fraction(1) if isinstance(e, Fraction) else 1.0
            for j, b in enumerate(bits):
                p *= per_bit[j][b]
            out[bits] = p
        table[x] = Distribution(out)
    return Randomizer(table)


def k_rappor_absent_reference(k: int, e_eps0: Fraction | float) -> Distribution:
    """R_0 of EFMRSTT20.ThmIII.1: k-RAPPOR's output on the all-zeros vector (an absent respondent)."""
    check_k(k, maximum=K_RAPPOR_K_MAX, why="the exact 2^k-output distribution")
    e = _e_eps(e_eps0)
    zero = _bit_distribution(0, e)
    out = {}
    for bits in itertools.product((0, 1), repeat=int(k)):
        p = Fraction(1) if isinstance(e, Fraction) else 1.0
        for b in bits:
            p *= zero[b]
        out[bits] = p
    return Distribution(out)


def attribute_fragmenting_report(x: int, *, k: int, eps0: float, seed: int | None = None) -> np.ndarray:
    """One respondent's k fragments of EFMRSTT20.Alg1 (bit j goes to shuffler S_j). Range: 1 <= k <=
    PROTOCOL_ARRAY_K_MAX (`shuffle_spec.reference.core.limits`), 0 <= x < k, eps0 > 0."""
    check_k(k, minimum=1, maximum=PROTOCOL_ARRAY_K_MAX, why="a report of k bits")
    require_positive("eps0", eps0)
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or not 0 <= x < k:
        raise ParameterError("x", x, f"an integer in [0, {k})")
    rng = np.random.default_rng(seed)
    onehot = np.zeros(int(k), dtype=np.int64)
    onehot[int(x)] = 1
    flip = rng.random(int(k)) < 1.0 / (1.0 + math.exp(eps0))
    return onehot ^ flip


def _histogram(histogram: Sequence[int] | np.ndarray) -> np.ndarray:
    counts = np.asarray(histogram)
    if counts.ndim != 1 or counts.size == 0 or not np.issubdtype(counts.dtype, np.integer) or (counts < 0).any():
        raise ParameterError("histogram", histogram, "a non-empty sequence of non-negative integer counts")
    if counts.sum() == 0:
        raise ParameterError("histogram", histogram, "at least one respondent")
    return counts.astype(np.int64)


def attribute_fragmenting_sums(histogram: Sequence[int] | np.ndarray, *, eps0: float, seed: int | None = None) -> np.ndarray:
    """The k shufflers' sums of EFMRSTT20.Alg1 run on n = sum(histogram) respondents, sampled exactly
    in distribution as Binomial(c_j, keep) + Binomial(n - c_j, flip) per attribute."""
    counts = _histogram(histogram)
    require_positive("eps0", eps0)
    rng = np.random.default_rng(seed)
    n = int(counts.sum())
    flip = 1.0 / (1.0 + math.exp(eps0))
    return rng.binomial(counts, 1.0 - flip) + rng.binomial(n - counts, flip)


def attribute_fragmenting_estimate(sums: Sequence[int] | np.ndarray, *, n: int, eps0: float) -> np.ndarray:
    """The unbiased frequency estimates h_j = ((e+1)/(e-1)) sum_j / n - 1/(e-1) (EFMRSTT20.Alg1)."""
    require_integer("n", n, minimum=1)
    require_positive("eps0", eps0)
    array = np.asarray(sums, dtype=float)
    if array.ndim != 1 or array.size == 0 or (array < 0).any() or (array > n).any():
        raise ParameterError("sums", sums, f"a non-empty sequence of counts in [0, n = {n}]")
    em1 = math.expm1(eps0)
    return (em1 + 2.0) / em1 * array / n - 1.0 / em1


def attribute_fragmenting_run(histogram: Sequence[int], *, eps0: float, seed: int | None = None) -> tuple[np.ndarray, float]:
    """Run EFMRSTT20.Alg1 on a histogram of real data: (estimated frequencies, l_inf error alpha of
    Thm III.2 against the true frequencies c_j / n)."""
    counts = _histogram(histogram)
    n = int(counts.sum())
    estimate = attribute_fragmenting_estimate(attribute_fragmenting_sums(counts, eps0=eps0, seed=seed), n=n, eps0=eps0)
    return estimate, float(np.max(np.abs(estimate - counts / n)))


def expected_reported_bits(*, k: int, eps0: float) -> float:
    """Expected number of 1-bits in a k-RAPPOR report, p (k - 1) + (1 - p) with p = 1/(1+e^eps0)
    (EFMRSTT20 Sec. II-B; the #bits of Tables I and III; k = domain size or sketch size)."""
    require_integer("k", k, minimum=1)
    require_positive("eps0", eps0)
    p = 1.0 / (1.0 + math.exp(eps0))
    return p * (int(k) - 1) + (1.0 - p)


def estimator_variance(*, eps0: float) -> float:
    """Var of one respondent's debiased bit ((e+1) xhat - 1)/(e-1): e^eps0/(e^eps0 - 1)^2, whatever
    the true bit (EFMRSTT20.Alg1; the paper prints (e+1)/(e-1) - 1 = 2/(e-1), which is not it)."""
    require_positive("eps0", eps0)
    return math.exp(eps0) / math.expm1(eps0) ** 2


def att_frag_central_epsilon(*, eps0: float, n: int, delta: float) -> BoundValue:
    """sqrt(64 e^eps0 log(4/delta) / n): removal central epsilon of att-frag(k-RAPPOR) in the shuffle
    model (EFMRSTT20.ThmIII.1), for 1 <= eps0 <= log n - log(14 log(4/delta)) and delta >= n^{-log n}; an
    upper bound (value = upper end): evaluated in mpmath at 60 digits (relative error far below 1e-50), enclosed
    by the doubles one step below and above the nearest. It is >= Eq. (1) of Lemma II.6 at lambda = 2n/(1+e^eps0)."""
    require_positive("eps0", eps0)
    require_integer("n", n, minimum=1)
    require_probability("delta", delta, open_high=False)
    values = {"eps0": eps0, "n": n, "delta": delta}
    with mpmath.workdps(_DIGITS):
        e0, d, nn = mpmath.mpf(eps0), mpmath.mpf(delta), mpmath.mpf(int(n))
        if not e0 >= 1:
            raise HypothesisViolation("EFMRSTT20.ThmIII.1", "eps0 >= 1", values)
        if not e0 <= mpmath.log(nn) - mpmath.log(14 * mpmath.log(4 / d)):
            raise HypothesisViolation("EFMRSTT20.ThmIII.1", "eps0 <= log(n) - log(14 log(4/delta))", values)
        if not d >= nn ** (-mpmath.log(nn)):
            raise HypothesisViolation("EFMRSTT20.ThmIII.1", "delta >= n^(-log n)", values)
        eps = mpmath.sqrt(64 * mpmath.exp(e0) * mpmath.log(4 / d) / nn)
        return BoundValue(mpf_to_float_down(eps), mpf_to_float_up(eps), direction="upper_bound")
