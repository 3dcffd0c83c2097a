"""High-precision reference sums of the clone pairs (FMT21 Appendix E), by the definition: independent of
`reference/bounds/clones.py`."""

from __future__ import annotations

import mpmath

# Every sum is computed at 50 digits, whatever the caller's precision (the decorator sets it for the call).
DPS = 50


@mpmath.workdps(DPS)
def mp_per_count(c: int, eps0, eps) -> mpmath.mpf:
    """D_{e^eps}(P_c || Q_c) by the definition: sum over a of the positive parts (50 digits)."""
    e0, e = mpmath.exp(eps0), mpmath.exp(eps)
    alpha = e0 / (e0 + 1)
    b = [mpmath.binomial(c, a) / mpmath.mpf(2) ** c for a in range(c + 1)]
    total = mpmath.mpf(0)
    for a in range(c + 2):
        here = b[a] if a <= c else 0
        prev = b[a - 1] if a >= 1 else 0
        p, q = alpha * here + (1 - alpha) * prev, (1 - alpha) * here + alpha * prev
        total += max(p - e * q, 0)
    return total


@mpmath.workdps(DPS)
def mp_clones_delta(n: int, eps0, eps, clone_probability=None) -> mpmath.mpf:
    q = mpmath.exp(-mpmath.mpf(eps0)) if clone_probability is None else clone_probability
    return mpmath.fsum(mpmath.binomial(n - 1, c) * q**c * (1 - q) ** (n - 1 - c) * mp_per_count(c, eps0, eps) for c in range(n))


@mpmath.workdps(DPS)
def mp_delta_by_walk(kind: str, n: int, eps0: float, eps: float, width: float = 12.0) -> mpmath.mpf:
    """delta(eps) = sum_c Bin(c; n-1, q) B(c) in 50 digits over mean +- width sd of the clone count (the rest
    is < 1e-30): B(c) = a1 b_c(t) - (e^eps - 1) F_c(t-1) at the exact cutoff t = floor(beta (c+1)) (check F1's
    formula), b and F carried along c by their exact recurrences, F anchored by direct summation."""
    e0, e = mpmath.exp(mpmath.mpf(eps0)), mpmath.exp(mpmath.mpf(eps))
    r = 1 / e0
    q = {"fmt21": r, "fmt23": 2 * r / (1 + r)}[kind]
    a1, em1, beta = (e0 - e) / (e0 + 1), e - 1, (e0 - e) / ((e + 1) * (e0 - 1))
    m = n - 1
    mean, sd = float(m * q), float(mpmath.sqrt(m * q * (1 - q)))
    c_lo, c_hi = max(0, int(mean - width * sd)), min(m, int(mean + width * sd) + 1)
    weight = mpmath.exp(mpmath.loggamma(m + 1) - mpmath.loggamma(c_lo + 1) - mpmath.loggamma(m - c_lo + 1) + c_lo * mpmath.log(q) + (m - c_lo) * mpmath.log1p(-q))
    t = int(mpmath.floor(beta * (c_lo + 1)))
    b = mpmath.exp(mpmath.loggamma(c_lo + 1) - mpmath.loggamma(t + 1) - mpmath.loggamma(c_lo - t + 1)) / mpmath.mpf(2) ** c_lo
    f = mp_lower_tail(c_lo, t) if t > 0 else mpmath.mpf(0)
    total = mpmath.mpf(0)
    for c in range(c_lo, c_hi + 1):
        total += weight * max(a1 * b - em1 * f, 0)
        # to c + 1: F_{c+1}(a) = F_c(a) - b_c(a)/2 at a = t-1 (b_c(t-1) = b_c(t) t/(c-t+1)),
        # b_{c+1}(t) = b_c(t)(c+1)/(2(c+1-t)); then move the cutoff.
        f -= b * t / (2 * (c - t + 1))
        b = b * (c + 1) / (2 * (c + 1 - t))
        weight = weight * mpmath.mpf(m - c) / (c + 1) * q / (1 - q)
        t_next = int(mpmath.floor(beta * (c + 2)))
        while t < t_next:  # b_{c+1}(t+1) = b_{c+1}(t)(c+1-t)/(t+1), F(t) = F(t-1) + b(t)
            f += b
            b = b * (c + 1 - t) / (t + 1)
            t += 1
    return total


@mpmath.workdps(DPS)
def mp_lower_tail(c: int, t: int) -> mpmath.mpf:
    """F_c(t-1) = sum_{a < t} b_c(a) (50 digits; terms decrease geometrically below the mean)."""
    term = mpmath.exp(mpmath.loggamma(c + 1) - mpmath.loggamma(t) - mpmath.loggamma(c - t + 2)) / mpmath.mpf(2) ** c
    total, a = term, t - 1
    while a > 0 and term > mpmath.mpf(10) ** -45 * total:
        term *= mpmath.mpf(a) / (c - a + 1)
        total += term
        a -= 1
    return total
