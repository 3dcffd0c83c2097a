"""Certified positive-part expectations of sums of n i.i.d. lattice variables, by a tilted FFT convolution: the
engine of the exact Laplace blanket bound (`shuffle_spec.reference.bounds.blanket_exact_laplace`, BBGN19 Lemma 5.3
for the Laplace mechanism) and of the Laplace pair lower bound (`shuffle_spec.reference.lower_bounds.laplace`).

A per-user law is put on the lattice h Z as groups (mass, point) whose masses are rounded to the safe side by
the caller (`leftover_groups`, `lattice_law`; `laplace_x_masses` gives the cell masses of the Laplace
mechanism's X = e^{eps0 (...)} on [1/c, c]); `log_positive_part_expectation` bounds log E[(S + n shift)_+] of the
n-fold sum from above or below: the law is exponentially tilted (`_tilt`, uncertified: it only chooses the tilt),
convolved n times on a window by `shuffle_spec.reference.numerics.pld.compose` (its certified error and tails), and
every float operation is charged its rounding error (the model of the bound's module doc). `lattice_step`
chooses h (tightness only, never validity).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np

from ..core.errors import ParameterError
from .pld import GridPLD, compose

__all__ = [
    "EXP_MARGIN",
    "STEPS",
    "UNIT",
    "WINDOW_TAIL",
    "laplace_x_masses",
    "lattice_law",
    "lattice_step",
    "leftover_groups",
    "tilted_step",
    "log_positive_part_expectation",
]

UNIT = 2.0**-53
# Lattice steps per standard deviation of the variable: the spread adds at most h^2/4 to its variance
# (1/(4 STEPS^2) relative, about 0.1% on eps at STEPS = 8); it decides tightness, never validity.
STEPS = 8
# Mass outside the FFT window (each side), relative to the tilted measure (total mass about 1).
WINDOW_TAIL = 1e-30
# Relative margin of exp / log (numpy's are accurate to a few ulps; 1e-12 as in
# shuffle_spec.reference.numerics.lattice_sums).
EXP_MARGIN = 1e-12


def laplace_x_masses(c: float, xa: np.ndarray, xb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For X's density f on [xa, xb] (xa <= xb inside [1/c, c]): (int f, int (x - xa) f, int (xb - x) f), each
    a product / quotient of positive numbers (module doc)."""
    ra, rb = np.sqrt(xa), np.sqrt(xb)
    d = (xb - xa) / (ra + rb)  # sqrt xb - sqrt xa without cancellation
    k = 1 / math.sqrt(c)
    return k * d / (ra * rb), k * d * d / rb, k * d * d / ra


def leftover_groups(mass: mpmath.mpf, mom: mpmath.mpf, final: mpmath.mpf, top: mpmath.mpf, hh: mpmath.mpf) -> list[tuple[mpmath.mpf, mpmath.mpf]]:
    """The leftover (mass, moment; mean mu in [t0 h, (t0+1) h)) below the final group (mass `final`, mean
    exactly top h; h = hh): a fraction phi of the final group's law joins the leftover so that their mean is
    (t0 + 1) h (possible when top >= t0 + 2); the final group's rest keeps its mean top h. Otherwise the
    leftover is contracted to its mean and moved down to t0 h. Shared by the lower groups of `shuffle_spec.reference.bounds.blanket_exact_laplace`
    and of `shuffle_spec.reference.lower_bounds.laplace` (the pair's law)."""
    if mass <= 0:
        return [(final, top)]
    t0 = mpmath.floor(mom / mass / hh)
    if top >= t0 + 2:
        part = (mass * (t0 + 1) * hh - mom) / ((top - t0 - 1) * hh) * (1 + mpmath.mpf(10) ** -20)
        if 0 <= part <= final and mom + part * top * hh >= (t0 + 1) * hh * (mass + part):
            return [(mass + part, t0 + 1), (final - part, top)]
    return [(mass, t0), (final, top)]


def lattice_law(groups: list[tuple[mpmath.mpf, mpmath.mpf]]) -> tuple[int, np.ndarray]:
    """(offset, w) with w[p - offset] the total float mass of the groups at lattice point p (groups: (mass,
    point index)); the caller rounds the masses down by its margin. A negative group mass is refused: the lower
    law would not be a law dominated by L."""
    points = [int(p) for _, p in groups]
    lo = min(points)
    w = np.zeros(max(points) - lo + 1)
    for (mass, _), p in zip(groups, points, strict=True):
        if mass < 0:
            raise ParameterError("lower lattice law", float(mass), "non-negative group masses")
        w[p - lo] += float(mass)
    return lo, w


def _tilt(offset: int, w: np.ndarray, gamma: float, h: float, shift: float = 0.0) -> float:
    """theta >= 0 (nearly) minimising sum_j v_j e^{theta (j h + shift)}, v = (1 - gamma) delta_0 + gamma w (Newton
    on the convex log-mgf, in log space; uncertified: it only chooses the tilt)."""
    positive = w > 0
    s = (offset + np.nonzero(positive)[0]) * h + shift
    logs = np.log(gamma * w[positive])
    if gamma < 1:
        s = np.append(s, shift)
        logs = np.append(logs, math.log(1 - gamma))

    def slope(theta: float) -> float:  # d/dtheta of the log-mgf: the tilted mean, non-decreasing in theta
        a = logs + theta * s
        p = np.exp(a - np.max(a))
        return float(np.sum(p * s)) / float(np.sum(p))

    if slope(0.0) >= 0:
        return 0.0
    cap = 600.0 / max(float(np.max(np.abs(s))), 1e-300)
    low, high = 0.0, min(1.0 / max(float(np.std(s)), 1e-300), cap)
    while slope(high) < 0 and high < cap:
        low, high = high, min(2 * high, cap)
    for _ in range(60):
        mid = 0.5 * (low + high)
        if slope(mid) < 0:
            low = mid
        else:
            high = mid
    return high


def lattice_step(variance: float) -> float:
    """The lattice step: a power of 2 near sd / STEPS (float, uncertified: it decides tightness only)."""
    sd = math.sqrt(max(variance, 1e-300))
    return 2.0 ** math.floor(math.log2(sd / STEPS))


def tilted_step(offset: int, w: np.ndarray, gamma: float, h: float, steps: int) -> float:
    """A power of 2 near sd_theta / steps, sd_theta the standard deviation of the per-user law (1 - gamma) delta_0 +
    gamma sum_j w_j delta_{jh} under the tilt `log_positive_part_expectation` applies (float, uncertified: it decides
    tightness only). Where the law has a heavy far tail the tilt suppresses it, and the sum's positive part is
    resolved by this step rather than by the untilted standard deviation."""
    theta = _tilt(offset, w, gamma, h)
    s = np.append((offset + np.arange(len(w))) * h, 0.0)
    p = np.append(gamma * w, 1 - gamma)
    keep = p > 0
    a = np.log(p[keep]) + theta * s[keep]
    q = np.exp(a - np.max(a))
    q /= np.sum(q)
    mean = float(np.sum(q * s[keep]))
    var = max(float(np.sum(q * (s[keep] - mean) ** 2)), 1e-300)
    return 2.0 ** math.floor(math.log2(math.sqrt(var) / steps))


def log_positive_part_expectation(offset: int, w: np.ndarray, gamma: tuple[float, float], h: float, n: int, upper: bool, eps0: float, shift: float = 0.0) -> float:
    """A certified upper (upper=True, w upper masses) or lower (w lower masses) bound on log E[(S + n shift)_+] of
    S = sum of n i.i.d. copies of (1 - gamma) delta_0 + gamma sum_j w_j delta_{jh} (module doc of
    `shuffle_spec.reference.bounds.blanket_exact_laplace`); -inf if 0.
    `gamma` = (lower, upper) bracket: each mass of the per-user law is bounded on the requested side. `shift`
    (a float, exact as given) moves every user's value: with T = n shift (bracketed), E[(S + T)_+] =
    e^{theta T} sum_k (kh + T)_+ e^{-theta (kh + T)} (r^{*n})_k."""
    g_lo, g_hi = gamma
    lo = min(offset, 0)
    size = max(offset + len(w), 1) - lo
    v = np.zeros(size)
    v[offset - lo: offset - lo + len(w)] += (g_hi if upper else g_lo) * w
    v[-lo] += (1 - g_lo) if upper else (1 - g_hi)
    v *= (1 + 4 * UNIT) if upper else (1 - 4 * UNIT)
    theta = _tilt(offset, w, g_hi, h, shift)
    shift_total = n * shift
    t_err = 2 * UNIT * abs(shift_total)
    shift_total = shift_total + t_err if upper else shift_total - t_err  # (s + T)_+ is non-decreasing in T
    s = (lo + np.arange(size)) * h
    positive = v > 0
    logs = np.full(size, -np.inf)
    logs[positive] = np.log(v[positive]) + theta * s[positive]
    top = float(np.max(logs))
    log_c = top + math.log(float(np.sum(np.exp(logs - top))))
    a = np.exp(logs - log_c)
    # Relative error of each a_j: the exponent's absolute error (each of log, product, sums, subtraction within
    # a few ulps of its magnitude) plus exp's; and of log_c (a sum of positives).
    exponent_err = 4 * UNIT * (np.abs(np.where(positive, np.log(np.where(positive, v, 1.0)), 0.0)) + 2 * np.abs(theta * s) + abs(log_c) + abs(top)) + EXP_MARGIN
    log_c_err = 4 * UNIT * (abs(log_c) + abs(top)) + size * 1.001 * UNIT + EXP_MARGIN
    if upper:
        a = a * (1 + exponent_err) * (1 + 2 * UNIT)
        log_scale = n * (log_c + log_c_err)
    else:
        a = a * (1 - exponent_err) * (1 - 2 * UNIT)
        log_scale = n * (log_c - log_c_err)
    keep = a > 0
    first, last = int(np.argmax(keep)), len(a) - int(np.argmax(keep[::-1]))
    grid = GridPLD(h, lo + first, a[first:last], 0.0, upper, eps0)
    composed = compose([grid], [n], tail=WINDOW_TAIL)
    values = composed.values
    k = composed.start + np.arange(len(values))
    sk = k * h + shift_total
    pos = sk > 0
    kk = sk[pos]
    g = kk * np.exp(-theta * kk)  # (kh + T)_+ e^{-theta (kh + T)}
    vals = values[pos]
    log_scale += theta * shift_total
    if upper:
        log_scale += 4 * UNIT * abs(theta * shift_total)
    else:
        log_scale -= 4 * UNIT * abs(theta * shift_total)
    total = float(np.sum(g * vals))
    abs_total = float(np.sum(np.abs(g * vals)))
    slack = abs_total * (EXP_MARGIN + (len(vals) + 4) * 1.001 * UNIT) * 2
    slack += float(np.sqrt(np.sum(g * g))) * (1 + 1e-12) * composed.error_2norm
    # Largest g beyond the window's top: g(s) = s e^{-theta s} is decreasing for s > 1/theta.
    top_s = (composed.start + len(values)) * h + shift_total
    g_max = 1 / (math.e * theta) if theta > 0 else math.inf
    g_beyond = top_s * math.exp(-theta * top_s) * (1 + EXP_MARGIN) if theta * top_s >= 1 else g_max
    if upper:
        value = total + slack + g_beyond * composed.tail_above
        if not math.isfinite(value) or value <= 0:
            return math.inf if not math.isfinite(value) else -math.inf
        return log_scale + math.log(value) + 1e-12
    # Cyclic values exceed the linear ones by the aliased mass (outside the window), at most
    # tail_above + tail_below, each point weighted by at most g_max.
    window_g = float(np.max(g)) if len(g) else 0.0
    value = total - slack - min(window_g, g_max) * (composed.tail_above + composed.tail_below)
    if value <= 0:
        return -math.inf
    return log_scale + math.log(value) - 1e-12
