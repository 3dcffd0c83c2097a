"""Binomial probabilities in log space and the central window of Bin(m, p), for the numeric bounds.

The log-pmf uses Loader's saddle-point form (Stirling remainders and the deviance `bd0`), which keeps
its absolute error near machine precision at any m, unlike the `lgamma` difference (which at
m = 1e12 cancels ~1e13-sized terms and loses ~1e-3 in the log).

A window [lo, hi] holds all but a proven tail mass: by the Chernoff bound,
Pr[X <= x] <= exp(-m KL(x/m || p)) for x <= mp and Pr[X >= x] <= exp(-m KL(x/m || p)) for x >= mp,
with m KL(x/m || p) = bd0(x, mp) + bd0(m - x, mq). The dropped mass is returned so that callers add
it to delta on the safe side (FMT21.clones_numeric, FMT23.stronger_clones, exact.shuffled_binary_rr).

Error budget: `relative_error_budget(m)` is the relative error allowed for each float probability of
Bin(m, .) computed here or by scipy's (Boost) incomplete beta. It covers float rounding of the
parameters (p from e^eps0 moves a pmf value by about u * z * sqrt(m) relative) and of the
special functions, with a margin of 30x or more over the largest error measured against 50-digit
mpmath (tests/test_clones_binomial.py checks it up to m = 1e9).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from reference.errors import ParameterError, require_integer, require_positive, require_probability

__all__ = ["BinomialWindow", "binomial_log_pmf", "central_window", "relative_error_budget"]

_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
_STIRLING_SMALL = 15  # below this the Stirling remainder is taken from lgamma directly


def relative_error_budget(m: int | float) -> float:
    """The relative error allowed for one float probability of Bin(m, .) (see the module docstring)."""
    require_positive("m", m, allow_zero=True)
    return 1e-12 + 1e-13 * math.sqrt(float(m))


def _stirlerr(x: np.ndarray) -> np.ndarray:
    """log(x!) - [(x + 1/2) log x - x + log sqrt(2 pi)] for integers x >= 1 (Loader 2000)."""
    out = np.empty_like(x)
    small = x <= _STIRLING_SMALL
    if np.any(small):
        xs = x[small]
        out[small] = np.array([math.lgamma(v + 1.0) for v in xs]) - (xs + 0.5) * np.log(xs) + xs - _LOG_SQRT_2PI
    big = ~small
    if np.any(big):
        xb = x[big]
        inv2 = 1.0 / (xb * xb)
        s0, s1, s2, s3, s4 = 1 / 12, 1 / 360, 1 / 1260, 1 / 1680, 1 / 1188
        out[big] = (s0 - (s1 - (s2 - (s3 - s4 * inv2) * inv2) * inv2) * inv2) / xb
    return out


def _bd0(x: np.ndarray, mean: np.ndarray | float) -> np.ndarray:
    """x log(x / mean) + mean - x, accurate also when x is close to mean (series in v = (x-mean)/(x+mean))."""
    x = np.asarray(x, dtype=float)
    mean = np.broadcast_to(np.asarray(mean, dtype=float), x.shape)
    out = np.empty_like(x)
    diff = x - mean
    near = np.abs(diff) < 0.1 * (x + mean)
    if np.any(near):
        d, xs, ms = diff[near], x[near], mean[near]
        v = d / (xs + ms)
        s = d * v
        ej = 2.0 * xs * v
        v2 = v * v
        # |v| < 0.1: 12 further terms bring the truncation below 1e-24 relative.
        for j in range(1, 13):
            ej = ej * v2
            s = s + ej / (2 * j + 1)
        out[near] = s
    far = ~near
    if np.any(far):
        xs, ms = x[far], mean[far]
        with np.errstate(divide="ignore", invalid="ignore"):
            out[far] = np.where(xs > 0, xs * np.log(xs / ms), 0.0) + ms - xs
    return out


def _log_pmf(k: np.ndarray, m: np.ndarray, log_p: float, log_q: float, p: float, q: float) -> np.ndarray:
    """log Pr[Bin(m, p) = k] for arrays k, m of integers (as floats) with 0 <= k <= m; 0 < p < 1."""
    k, m = np.broadcast_arrays(np.asarray(k, dtype=float), np.asarray(m, dtype=float))
    out = np.empty(k.shape)
    low, high = k == 0, k == m
    out[low] = m[low] * log_q
    out[high & ~low] = m[high & ~low] * log_p
    mid = ~(low | high)
    if np.any(mid):
        x, mm = k[mid], m[mid]
        y = mm - x
        out[mid] = (
            _stirlerr(mm)
            - _stirlerr(x)
            - _stirlerr(y)
            - _bd0(x, mm * p)
            - _bd0(y, mm * q)
            + 0.5 * (np.log(mm) - np.log(x) - np.log(y))
            - _LOG_SQRT_2PI
        )
    return out


def binomial_log_pmf(k: np.ndarray | int, m: int, p: float, q: float | None = None) -> np.ndarray:
    """log Pr[Bin(m, p) = k], elementwise; -inf outside 0..m. `q` = 1 - p may be passed when p is
    close to 1 and q is known more accurately than 1 - p."""
    require_integer("m", m, minimum=0)
    require_probability("p", p, open_low=False, open_high=False)
    q = 1.0 - p if q is None else q
    require_probability("q", q, open_low=False, open_high=False)
    kk = np.atleast_1d(np.asarray(k, dtype=float))
    out = np.full(kk.shape, -np.inf)
    inside = (kk >= 0) & (kk <= float(m)) & (kk == np.floor(kk))
    if p == 0.0 or q == 0.0:
        out[kk == (float(m) if q == 0.0 else 0.0)] = 0.0
        return out
    if np.any(inside):
        out[inside] = _log_pmf(kk[inside], np.full(int(inside.sum()), float(m)), math.log(p), math.log(q), p, q)
    return out


def _log_tail_bound(x: float, m: int, p: float, q: float) -> float:
    """log of the Chernoff bound on Pr[X <= x] (x <= mp) or Pr[X >= x] (x >= mp): -m KL(x/m || p)."""
    deviance = _bd0(np.array([x]), m * p)[0] + _bd0(np.array([m - x]), m * q)[0]
    # The deviance is evaluated in floats; shrinking it by a relative 1e-9 keeps the bound safe.
    return -deviance * (1.0 - 1e-9)


@dataclass(frozen=True)
class BinomialWindow:
    """pmf[i] ~ Pr[Bin(m, p) = lo + i] for lo <= lo + i <= hi; `dropped` >= Pr[X < lo] + Pr[X > hi]
    (proven Chernoff bound); `below`, `above` bound the two tails separately."""

    m: int
    lo: int
    hi: int
    pmf: np.ndarray
    below: float
    above: float

    @property
    def dropped(self) -> float:
        return self.below + self.above

    @property
    def support(self) -> np.ndarray:
        return np.arange(self.lo, self.hi + 1, dtype=float)


def central_window(m: int, p: float, tail: float, q: float | None = None) -> BinomialWindow:
    """The central window of Bin(m, p) whose two tails each have mass <= tail / 2 (Chernoff).

    Its width is O(sqrt(m p q log(1/tail))), so work on it grows like sqrt(m).
    """
    require_integer("m", m, minimum=0)
    require_probability("p", p, open_low=False, open_high=False)
    require_probability("tail", tail)
    q = 1.0 - p if q is None else q
    m = int(m)
    half_log = math.log(tail / 2.0)
    mean = m * p
    sd = math.sqrt(max(m * p * q, 1e-300))
    z = math.sqrt(-2.0 * half_log)

    def bound_ok(x: float) -> bool:
        return _log_tail_bound(x, m, p, q) <= half_log

    # Start at the Gaussian z, widen geometrically until the Chernoff bound certifies the tail.
    lo = math.floor(mean - z * sd)
    step = max(1.0, 0.25 * z * sd)
    while lo > 0 and not bound_ok(lo - 1):
        lo = math.floor(lo - step)
        step *= 2
    lo = max(lo, 0)
    hi = math.ceil(mean + z * sd)
    step = max(1.0, 0.25 * z * sd)
    while hi < m and not bound_ok(hi + 1):
        hi = math.ceil(hi + step)
        step *= 2
    hi = min(hi, m)
    # Pr[X < lo] = Pr[X <= lo - 1] <= exp(-m KL((lo-1)/m || p)) since lo - 1 < mean.
    below = 0.0 if lo == 0 else math.exp(_log_tail_bound(lo - 1, m, p, q))
    above = 0.0 if hi == m else math.exp(_log_tail_bound(hi + 1, m, p, q))
    pmf = np.exp(binomial_log_pmf(np.arange(lo, hi + 1), m, p, q))
    return BinomialWindow(m, lo, hi, pmf, below, above)
