"""Term-by-term reference sums shared by the tests: the lattice sums (independent of `shuffle_spec.reference.numerics.lattice_sums`) and
the every-pair scan of shuffled binary RR (independent of `shuffle_spec.reference.exact.binary_rr`)."""

from __future__ import annotations

import math

import numpy as np
from scipy.special import gammaln


def _convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The full convolution of two non-negative arrays: by FFT (negative round-off clipped) when both are long."""
    if min(len(a), len(b)) <= 64:
        return np.convolve(a, b)
    from scipy.signal import fftconvolve  # here, not at import: SciPy's signal package costs every test worker ~1 s to collect

    return np.clip(fftconvolve(a, b), 0, None)


def brute_split(n: int, p1: float, p3: float, c0: float, c1: float, c2: float) -> float:
    """E[(c0 a + c1 b + c2 R)_+] over (a, b, R, rest) ~ Mult(n; p1, p1, p3, rest), term by term (float64 with
    gammaln: relative error far below the 1e-9 the tests allow)."""
    total = 0.0
    log_fact = gammaln(np.arange(n + 2, dtype=float) + 1)
    rest = 1 - 2 * p1 - p3
    for a in range(n + 1):
        b = np.arange(n - a + 1, dtype=float)[:, None]
        r = np.arange(n - a + 1, dtype=float)[None, :]
        ok = a + b + r <= n
        g = c0 * a + c1 * b + c2 * r
        left = np.where(ok, n - a - b - r, 0.0)
        log_pmf = log_fact[n] - log_fact[a] - gammaln(b + 1) - gammaln(r + 1) - gammaln(left + 1)
        log_pmf = log_pmf + (a + b) * math.log(p1) + r * math.log(p3) + (left * math.log(rest) if rest > 0 else 0.0)
        total += float(np.sum(np.where(ok & (g > 0), g * np.exp(log_pmf), 0.0)))
    return total


def float_scan_pairs(n: int, eps0: float, eps_values: list[float]) -> np.ndarray:
    """Independent float computation: for every k in [0, n-1], D_{e^eps}(P_k || Q_k) from scipy's binomial pmfs
    (S_k = Bin(k, p) + Bin(n-1-k, q) by FFT convolution, truncated where the pmf is below 1e-40). Returns
    an array [len(eps_values), n]."""
    p = math.exp(eps0) / (math.exp(eps0) + 1)
    q = 1 / (math.exp(eps0) + 1)
    out = np.zeros((len(eps_values), n))
    es = np.exp(np.array(eps_values))[:, None]

    def part(m, r):
        sd = math.sqrt(m * r * (1 - r)) + 1
        lo, hi = max(0, int(m * r - 14 * sd) - 5), min(m, int(m * r + 14 * sd) + 5)
        i = np.arange(lo, hi + 1, dtype=float)
        return np.exp(gammaln(m + 1) - gammaln(i + 1) - gammaln(m - i + 1) + i * math.log(r) + (m - i) * math.log1p(-r))

    for k in range(n):
        a, b = part(k, p), part(n - 1 - k, q)
        f = _convolve(a, b)
        f_s, f_prev = np.append(f, 0.0), np.insert(f, 0, 0.0)
        big_p, big_q = p * f_prev + q * f_s, q * f_prev + p * f_s
        out[:, k] = np.sum(np.maximum(big_p[None, :] - es * big_q[None, :], 0.0), axis=1)
    return out


def float_pair_deltas(n: int, eps0: float, ks: list[int], eps_values: list[float]) -> np.ndarray:
    """Independent float computation of D_{e^eps}(P_k || Q_k) for the listed counts k only (large n: a scan of every
    k is out of reach there): S_k = Bin(k, p) + Bin(n-1-k, q) from scipy.stats.binom's pmf (accurate to a few ulps
    at any size, where the gammaln differences of `float_scan_pairs` lose ~1e-7 relative at n = 1e8), truncated
    16 standard deviations out, convolved by FFT. Returns an array [len(eps_values), len(ks)]."""
    from scipy.stats import binom

    p = math.exp(eps0) / (math.exp(eps0) + 1)
    q = 1 / (math.exp(eps0) + 1)
    es = np.exp(np.array(eps_values, dtype=float))[:, None]
    out = np.zeros((len(eps_values), len(ks)))

    def part(m: int, r: float) -> np.ndarray:
        sd = math.sqrt(m * r * (1 - r)) + 1
        lo, hi = max(0, int(m * r - 16 * sd) - 5), min(m, int(m * r + 16 * sd) + 5)
        return binom.pmf(np.arange(lo, hi + 1), m, r)

    for column, k in enumerate(ks):
        a, b = part(k, p), part(n - 1 - k, q)
        f = _convolve(a, b)
        f_s, f_prev = np.append(f, 0.0), np.insert(f, 0, 0.0)
        big_p, big_q = p * f_prev + q * f_s, q * f_prev + p * f_s
        out[:, column] = np.sum(np.maximum(big_p[None, :] - es * big_q[None, :], 0.0), axis=1)
    return out
