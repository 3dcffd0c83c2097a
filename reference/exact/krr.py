"""Exact central privacy of shuffled k-ary randomized response for moderate n (statement exact.shuffled_krr).

The shuffled output is the histogram of the n reports. Neighbouring datasets are (rest, x) and (rest, x')
with `rest` a multiset of n-1 inputs. k-RR commutes with every relabelling of [k] (applied to inputs and
outputs alike), and a relabelling only permutes histogram coordinates, which leaves every divergence
unchanged. So the pair can be taken to be x = 0, x' = 1; the counts of `rest` on the labels 2..k-1 can be
sorted; and, the privacy profile being symmetric in the pair, swapping labels 0 and 1 lets us take
m_0 >= m_1. Only these canonical count vectors are enumerated, and their histogram distributions are built
by a depth-first walk that shares the distribution of every common prefix of counts.

With a rational e^eps0 everything is an exact `Fraction`. From a float eps0 the two doubles around e^eps0
are used: k-RR at a smaller e^eps0 is a post-processing of k-RR at a larger one (report the input's
k-RR output, re-randomized by a k-RR channel), so the exact epsilon is non-decreasing in e^eps0 and the
two exact values bracket the truth.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Iterator, cast

import mpmath

from ..finite.distributions import Distribution, Probability
from ..finite.divergences import min_e_eps_for_delta, privacy_profile, safe_log
from ..core.errors import ParameterError, require_integer, require_positive, require_probability
from ..core.limits import EPS0_MAX_EXP, HIGH_PRECISION, KRR_EXACT_MAX_WORK, KRR_EXACT_MP_MAX_WORK
from ..core.parameters import check_eps0, check_k
from ..core.results import BoundValue
from ..core.rounding import mpf_to_float_down

__all__ = [
    "canonical_rest_counts",
    "exact_shuffled_krr_delta",
    "exact_shuffled_krr_e_eps",
    "exact_shuffled_krr_epsilon",
]

# The limits of this module, from the range table (`shuffle_spec.reference.core.limits` says why each is what it
# is), under the names other modules and tests import: the enumeration work (float-bracket and high-precision
# paths) and eps0 (e^eps0 a finite double).
MAX_WORK = KRR_EXACT_MAX_WORK
MAX_EPS0 = EPS0_MAX_EXP
MP_MAX_WORK = KRR_EXACT_MP_MAX_WORK
_WHY_EPS0 = "e^eps0 finite in double precision"

Histogram = tuple[int, ...]


def _validate_e_eps0(e_eps0: object) -> Fraction | float:
    if isinstance(e_eps0, bool) or not isinstance(e_eps0, (int, float, Fraction)) or not e_eps0 > 1:
        raise ParameterError("e_eps0", e_eps0, "a number e^eps0 > 1 (eps0 > 0)")
    if isinstance(e_eps0, float) and not math.isfinite(e_eps0):
        raise ParameterError("e_eps0", e_eps0, "a finite e^eps0 > 1")
    return Fraction(e_eps0) if isinstance(e_eps0, int) else e_eps0


def _histogram_count(n: int, k: int) -> int:
    return math.comb(n + k - 1, k - 1)


def _log_histogram_count(n: int, k: int) -> float:
    """log C(n+k-1, k-1) from log-gamma (relative error ~1e-15 of the log-gammas: far below one unit of log at any
    n, k of the declared ranges), without building the integer, which has ~1e8 digits at n = 1e8, k = 1e9."""
    return math.lgamma(n + k) - math.lgamma(k) - math.lgamma(n + 1)


def _validate_size(k: int, n: int) -> tuple[int, int]:
    check_k(k)
    require_integer("n", n, minimum=1)
    k, n = int(k), int(n)
    # Work ~ (number of canonical configurations) x (histogram support) x n (the size of the rationals),
    # configurations x support <= C(n+k-2, k-1) C(n+k-1, k-1) / 2. Where its log (from log-gamma) exceeds the
    # limit's by more than 1, the exact work is over the limit too: refused before the exact binomials are built
    # (their cost grows with their digits: minutes at n = 1e8, k = 1e9); elsewhere the exact count decides.
    log_work = _log_histogram_count(n - 1, k) + _log_histogram_count(n, k) - math.log(2) + math.log(n)
    work = MAX_WORK + 1 if log_work > math.log(MAX_WORK) + 1 else _histogram_count(n - 1, k) * _histogram_count(n, k) // 2 * n
    if work > MAX_WORK:
        raise ParameterError("n", n, f"a size with n C(n+k-2, k-1) C(n+k-1, k-1)/2 <= {MAX_WORK} (k = {k}; n <= 66 for k = 2, 15 for k = 3, 8 for k = 4): exact enumeration only for small n")
    return k, n


def canonical_rest_counts(k: int, n: int) -> Iterator[tuple[int, ...]]:
    """The count vectors (m_0, ..., m_{k-1}) of the n-1 common inputs that remain after the symmetry
    reduction: m_0 >= m_1 and m_2 >= m_3 >= ... >= m_{k-1}, summing to n - 1 (exact.shuffled_krr)."""
    require_integer("k", k, minimum=2)
    require_integer("n", n, minimum=1)
    k, total = int(k), int(n) - 1

    def tails(remaining: int, slots: int, cap: int) -> Iterator[tuple[int, ...]]:
        if slots == 0:
            if remaining == 0:
                yield ()
            return
        for m in range(min(cap, remaining), -1, -1):
            if m * slots < remaining:
                break
            for rest in tails(remaining - m, slots - 1, m):
                yield (m,) + rest

    for m0 in range(total, -1, -1):
        for m1 in range(min(m0, total - m0), -1, -1):
            if k == 2:
                if m0 + m1 == total:
                    yield (m0, m1)
                continue
            for rest in tails(total - m0 - m1, k - 2, total):
                yield (m0, m1) + rest


def _krr_row(k: int, e: Fraction | float, x: int) -> list[Probability]:
    denominator = e + k - 1
    other = 1 / denominator if isinstance(e, float) else Fraction(1) / denominator
    return [e / denominator if y == x else other for y in range(k)]


def _add_user(dist: dict[Histogram, Probability], row: list[Probability]) -> dict[Histogram, Probability]:
    out: dict[Histogram, Probability] = {}
    for histogram, p in dist.items():
        for y, py in enumerate(row):
            moved = histogram[:y] + (histogram[y] + 1,) + histogram[y + 1 :]
            out[moved] = out.get(moved, 0) + p * py
    return out


def _neighbouring_pairs(k: int, e: Fraction | float, n: int) -> Iterator[tuple[Distribution, Distribution]]:
    """(P, Q): the shuffled histograms of (rest, 0) and (rest, 1) for every canonical rest."""
    rows = [_krr_row(k, e, x) for x in range(k)]
    one = Fraction(1) if isinstance(e, Fraction) else 1.0
    # Exact rows as integer weights over their common denominator D: the histograms' weights stay integers (D^j times
    # the probabilities after j users) and become the same Fractions at the end, without Fraction's gcd at every
    # step (the rows of a double's e^eps0 have 50-bit numerators). Float rows keep their operations.
    denominator = math.lcm(*(p.denominator for row in rows for p in row if isinstance(p, Fraction))) if isinstance(e, Fraction) else None
    if denominator is not None:
        rows = [[int(p * denominator) for p in row] for row in rows]
        one = 1
    start: dict[Histogram, Probability] = {(0,) * k: one}
    wanted = set(canonical_rest_counts(k, n))
    prefixes = {c[:i] for c in wanted for i in range(k + 1)}

    def walk(prefix: tuple[int, ...], dist: dict[Histogram, Probability]) -> Iterator[dict[Histogram, Probability]]:
        level = len(prefix)
        if level == k:
            if prefix in wanted:
                yield dist
            return
        remaining = n - 1 - sum(prefix)
        current = dist
        for m in range(remaining + 1):
            if m > 0:
                current = _add_user(current, rows[level])
            candidate = prefix + (m,)
            if candidate in prefixes:
                yield from walk(candidate, current)

    def distribution(weights: dict[Histogram, Probability]) -> Distribution:
        if denominator is None:
            return Distribution(weights)
        scale = denominator**n
        return Distribution({histogram: Fraction(int(w), scale) for histogram, w in weights.items()})  # integer weights here

    for rest in walk((), start):
        yield distribution(_add_user(rest, rows[0])), distribution(_add_user(rest, rows[1]))


def exact_shuffled_krr_delta(k: int, e_eps0: Fraction | float, n: int, e_eps: Fraction | float) -> Probability:
    """exact.shuffled_krr: the worst-case delta(eps) of n shuffled k-RR reports at multiplier e^eps
    (exact for rational e_eps0 and e_eps)."""
    k, n = _validate_size(k, n)
    e = _validate_e_eps0(e_eps0)
    if isinstance(e_eps, bool) or not isinstance(e_eps, (int, float, Fraction)) or not e_eps >= 1:
        raise ParameterError("e_eps", e_eps, "a multiplier e^eps >= 1 (eps >= 0)")
    worst: Probability = Fraction(0)
    for p, q in _neighbouring_pairs(k, e, n):
        worst = max(worst, privacy_profile(p, q, e_eps))
    return worst


def exact_shuffled_krr_e_eps(k: int, e_eps0: Fraction | float, n: int, delta: Probability) -> Probability:
    """exact.shuffled_krr: the smallest e^eps for which n shuffled k-RR reports are (eps, delta)-DP."""
    k, n = _validate_size(k, n)
    e = _validate_e_eps0(e_eps0)
    if isinstance(delta, bool) or not isinstance(delta, (int, float, Fraction)) or not 0 <= delta <= 1:
        raise ParameterError("delta", delta, "a number in [0, 1]")
    worst: Probability = Fraction(1) if isinstance(e, Fraction) else 1.0
    for p, q in _neighbouring_pairs(k, e, n):
        worst = max(worst, min_e_eps_for_delta(p, q, delta))
    return worst


def _log_down(ratio: Fraction) -> float:
    """A float <= log(ratio) for a Fraction ratio > 1 (mpmath log1p at 40 digits, then rounded down)."""
    with mpmath.workdps(40):
        return mpf_to_float_down(mpmath.log1p(mpmath.mpf(ratio.numerator - ratio.denominator) / ratio.denominator))


def exact_shuffled_krr_epsilon(*, eps0: float, n: int, delta: float, k: int) -> BoundValue:
    """exact.shuffled_krr: the exact central eps of n shuffled eps0-k-RR reports at delta, certified.

    e^eps0 lies between two adjacent doubles e_lo <= e_hi; the exact epsilons at both (rational
    arithmetic) bracket the true one, by monotonicity in e^eps0 (module docstring)."""
    require_positive("eps0", eps0)
    require_probability("delta", delta, open_low=True, open_high=False)
    k, n = _validate_size(k, n)
    check_eps0(eps0, maximum=MAX_EPS0, why=_WHY_EPS0)
    e_float = math.exp(eps0)
    e_lo, e_hi = Fraction(math.nextafter(e_float, 0.0)), Fraction(math.nextafter(e_float, math.inf))
    exact_delta = Fraction(delta)
    upper = safe_log(exact_shuffled_krr_e_eps(k, e_hi, n, exact_delta))
    # Fraction in, Fraction out: e_lo and delta are exact here.
    lower_ratio = cast(Fraction, exact_shuffled_krr_e_eps(k, e_lo, n, exact_delta)) if e_lo > 1 else Fraction(1)
    # log of the exact ratio in mpmath, rounded down (log(num) - log(den) of long integers cancels: it was 3e-16
    # above the truth at eps0 = 1, n = 6, k = 3; tests/reference/numerics/test_high_precision_exact.py).
    lower = 0.0 if lower_ratio <= 1 else max(0.0, _log_down(lower_ratio))
    return BoundValue(min(lower, upper), upper, direction="exact")


# ---------------------------------------------------------------- high-precision path (bit-reproducible test vectors)


def exact_shuffled_krr_epsilon_mp(*, dps: int, eps0: float, n: int, delta: float, k: int) -> tuple[Fraction, Fraction]:
    """exact.shuffled_krr at `dps` digits: a certified enclosure (Fractions) of the exact central eps of n
    shuffled eps0-k-RR reports at delta. e^eps0 is bracketed by two rationals [e_lo, e_hi] from mpmath interval
    arithmetic at ~ 3.4 dps + 64 bits; the exact rational e^eps at both (the worst case over the canonical
    pairs, module doc: non-decreasing in e^eps0) brackets the truth, and the logs are rounded outward (interval
    logs). Declines (ValueError, outside the high-precision range) above MP_MAX_WORK."""
    from ..numerics.high_precision_exact import FixedPoint, log_bracket

    require_positive("eps0", eps0)
    require_probability("delta", delta, open_low=True, open_high=False)
    k, n = _validate_size(k, n)
    check_eps0(eps0, maximum=MAX_EPS0, why=_WHY_EPS0)
    if _histogram_count(n - 1, k) * _histogram_count(n, k) // 2 > MP_MAX_WORK:
        raise ParameterError("n", n, f"a size with C(n+k-2, k-1) C(n+k-1, k-1)/2 <= {MP_MAX_WORK} (k = {k}; {HIGH_PRECISION} of this _mp path)")
    fp = FixedPoint(int(dps * 3.33) + 64)
    iv = fp.iv
    e0 = iv.exp(iv.mpf(eps0))
    scale = Fraction(1, fp.one)
    e_lo, e_hi = fp.of_interval(e0)
    exact_delta = Fraction(delta)
    upper = cast(Fraction, exact_shuffled_krr_e_eps(k, Fraction(e_hi) * scale, n, exact_delta))
    lower = cast(Fraction, exact_shuffled_krr_e_eps(k, Fraction(e_lo) * scale, n, exact_delta))
    return log_bracket(fp, Fraction(lower), Fraction(upper))
