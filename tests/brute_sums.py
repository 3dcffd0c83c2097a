"""Term-by-term reference sums shared by the lattice-sum tests (independent of `reference.lattice_sums`)."""

from __future__ import annotations

import math

import numpy as np
from scipy.special import gammaln


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
