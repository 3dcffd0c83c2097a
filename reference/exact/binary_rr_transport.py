"""Transport bound: every pair of a block [K, K+B] of shuffled binary RR against the two pairs at its ends
(the flat regime; used by `shuffle_spec.reference.exact.binary_rr`; proof checks "transport" in
`proofs_checks/derived/exact_binary_rr.py`).

Notation (module doc of `shuffle_spec.reference.exact.binary_rr`): m = n - 1 other users, S_k = Bin(k, p) + Bin(m - k, q)
their count of ones when k of them hold 1, f_k its pmf, a = p - e q, b = e p - q (e = e^eps), and

    G(k, s) = a Pr[S_k >= s - 1] - b Pr[S_k >= s] = sum_x f_k(x) kappa_s(x),   d_k(eps) = max_s G(k, s),
    kappa_s(x) = (a - b) 1{x >= s} + a 1{x = s - 1}.

Why removal-type bounds fail there: the variance m p q of S_k does not depend on k, so every pair has almost
the same eps (eps_k varies by ~1/sqrt(n) relative over all k), while removing B users costs ~B/(2n).

The bound. Fix a block, k = K + j (0 <= j <= B), lambda = 1 - j/B. Moving from k to k' shifts the mean of S_k
by (k' - k)(p - q); the transport x = j (p - q) is split into its integer part r0 and fraction f0
(and -(B - j)(p - q) into r1, f1). The mixture of the two ends, shifted,

    mix(s) = lambda [(1 - f0) G(K, s - r0) + f0 G(K, s - r0 - 1)] + (1 - lambda)[(1 - f1) G(K+B, s - r1) + f1 G(K+B, s - r1 - 1)]

is at most max(d_K, d_{K+B}) (a convex combination of values of the ends' curves), and exactly
G(k, s) = mix(s) + sum_x nu(x) kappa_s(x) with nu = f_k - (the same mixture of shifted f_K, f_{K+B}), a signed
measure of mass 0. With P(z) = q + p e^{iz}, Q(z) = p + q e^{iz} (the characteristic functions of a user
holding 1 and 0), w = (P/Q) e^{-iz(p - q)}, the mixture's offsets X0 in {-f0, 1 - f0} (weights 1 - f0, f0:
mean 0, variance <= 1/4) and X1 likewise,

    nu^(z) = P^K Q^(m-K) e^{iz j (p - q)} [ t(w) - lambda (E e^{izX0} - 1) - (1 - lambda) w^B (E e^{izX1} - 1) ],
    t(w) = w^j - lambda - (1 - lambda) w^B = -(w - 1)^2 sum_{i <= B-2} D_i w^i,  D_i >= 0, sum D_i = j (B - j)/2.

Every term is second order: t(w) because the mixture matches the mean of the transport (w - 1 = O(z^3): the
two users' laws differ in odd cumulants only, and the first one is the transport), the offsets because
their means are 0. So |t(w)| <= (B^2/8) |w - 1|^2 max(1, |w|^B) and |E e^{izX} - 1| <= |z|^2 e^tau / 8.
Three-point mixture (quadratic=True): each end at the three counts nearest its transported point with the
quadratic Lagrange weights (one of them negative, >= -1/8); the offsets then have mean 0 AND second moment 0,
so |E e^{izX} - 1| <= |z|^3 e^{1.5 tau} LAGRANGE_CUBE / 6, and the mixture is lambda Q_K(s') + (1 - lambda)
Q_{K+B}(s' + B(p - q)) with Q the ends' quadratic interpolants (bounded cell by cell: `quadratic_cell_upper`).
The lattice error of the two-point mixture is real (a pair between the ends can sit nearer the continuous
peak than either end's counts) and ~1/(8 n p q) relative; the three-point mixture moves it into the
interpolants, which the caller evaluates, and leaves a third-order remainder.
Fourier inversion along Im z = -tau (tau > 0: exponential tilting, which makes the error relative to the tail
where the threshold sits instead of absolute):

    |sum_x nu(x) kappa_s(x)| <= e^{-tau s'} C_tau,   s' = s - j (p - q),
    C_tau = M_p^K M_q^(m-K) (1/pi) int_0^pi D(theta) Psi(theta) |kappa^(theta)| dtheta,

M_p = q + p e^tau, M_q = p + q e^tau (moment generating functions), y = 1 - cos theta, and:
- D = max(e^{-c y}, R e^{-c_B y}) bounds |P|^K |Q|^(m-K) max(1, |w|^B) / (M_p^K M_q^(m-K)): with |w|^B folded in,
  |P|^(K+B) |Q|^(m-K-B) e^{-B tau (p - q)}, and |P|^2 = M_p^2 (1 - 2pq e^tau y / M_p^2) <= M_p^2 e^{-2pq e^tau y / M_p^2}
  (likewise Q); c = p q e^tau (K/M_p^2 + (m-K)/M_q^2), c_B the same with K + B, R = (M_p/M_q)^B e^{-B tau (p - q)};
- Psi = (B^2/8) |N|^2/|Q|^2 + (the lattice term above), N = Q (w - 1) bounded by its Taylor series (`_n_series`);
- |kappa^| = |a e^{tau + i theta} - b| / |1 - e^{-tau - i theta}| (the tilted transform of kappa_s, times e^{tau s}):
  near the saddle point a e^tau ~ b and the two parts of kappa cancel, as they do in G itself.
The bound does not depend on j: the whole block is covered by one integral per tilt.

Rigour of the numbers. On [0, pi] the integrand is (decreasing factors) x (increasing factors): D and
1/|1 - e^{-tau - i theta}| decrease; |a e^{tau + i theta} - b|, |z|, |N|'s bound and 1/|Q| increase. So the
integral over each grid interval is at most its width x the decreasing factors at its left end x the
increasing ones at its right end: an upper Riemann sum, whatever the grid. Each factor is a few libm
operations (within 1 ulp each, the floating-point model of `shuffle_spec.reference.numerics.binomial`); exponents of size X carry
an absolute error <= 8 u X, which is added; the result is multiplied by 1 + 1e-8, far above the remaining
relative rounding (< 1e-12) and the effect of p, q's float error (<= 1e-16 relative: it moves log C_tau by
about m tau q 1e-16, below 1e-9 wherever the windows fit: tau ~ z / sqrt(n p q), z <= 40).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import mpmath
import numpy as np

from ..core.errors import ParameterError, require_positive

__all__ = ["LAGRANGE_CUBE", "log_error_constant", "max_pmf_bound", "n_series_coefficients", "nu_hat_bound", "q_modulus_squared_lower", "quadratic_cell_upper", "saddle_tilt"]

UNIT = 2.0**-53
# Grid of the upper Riemann sum, in units of the damping scale theta_s = (p q e^tau Lambda)^-1/2: steps of
# STEP theta_s up to REACH theta_s (the damping is then e^-REACH^2/2), geometric refinement towards 0.
STEP = 1.0 / 16.0
REACH = 40.0
ZERO_LEVELS = 24
# Relative margin of the result (module doc).
MARGIN = 1e-8
# max over u in [-1/2, 1/2] of sum_d |L_d(u)| |d - u|^3 for the quadratic Lagrange weights on the nodes
# d in {-1, 0, 1} (attained at u = +-1/2; proof checks "transport: three-point lattice constant").
LAGRANGE_CUBE = 9.0 / 16.0


@lru_cache(maxsize=256)
def n_series_coefficients(eps0: float) -> tuple[float, float]:
    """Upper bounds of |c3|, |c4|, the first two non-zero Taylor coefficients (times r!) of
    N(u) = q e^{-(p - q) u} + p e^{2 q u} - p - q e^u (u = i z), c_r = q (q - p)^r + p (2 q)^r - q
    (c_1 = c_2 = 0; c_3 = -2 p q (p - q): proof checks). 60-digit mpmath from the float eps0, then up 1e-12.
    Range: eps0 a finite float >= 0."""
    require_positive("eps0", eps0, allow_zero=True)
    with mpmath.workdps(60):
        e = mpmath.mpf(eps0)
        q = 1 / (1 + mpmath.exp(e))
        p = 1 - q
        c3 = q * (q - p) ** 3 + p * (2 * q) ** 3 - q
        c4 = q * (q - p) ** 4 + p * (2 * q) ** 4 - q
        return float(abs(c3)) * (1 + 1e-12), float(abs(c4)) * (1 + 1e-12)


def _n_series(eps0: float, zabs: np.ndarray) -> np.ndarray:
    """Upper bound of |N(z)| at |z| = zabs: |c3| |z|^3/6 + |c4| |z|^4/24 + 1.5 |z|^5 e^|z| / 120 (for r >= 5,
    |c_r| <= q |p - q|^r + p (2q)^r + q <= 1.5 since q <= 1/2, and sum_{r >= 5} |u|^r / r! <= |u|^5 e^|u| / 120)."""
    c3, c4 = n_series_coefficients(eps0)
    bound: np.ndarray = (c3 * zabs**3 / 6 + c4 * zabs**4 / 24 + 1.5 * zabs**5 * np.exp(zabs) / 120) * (1 + 16 * UNIT)
    return bound


def _grid(theta_s: float) -> np.ndarray:
    """Grid points of [0, pi]: 0, geometric towards STEP theta_s, then steps of STEP theta_s up to REACH theta_s."""
    first = STEP * theta_s
    if first >= math.pi:
        return np.linspace(0.0, math.pi, 257)
    small = first * 2.0 ** -np.arange(ZERO_LEVELS, 0, -1, dtype=float)
    last = min(REACH * theta_s, math.pi)
    regular = np.arange(first, last, first)
    points = np.concatenate(([0.0], small, regular, [last]))
    if last < math.pi:
        points = np.concatenate((points, [math.pi]))
    # np.unique's values, sorted and without repeats (it would import numpy.ma on its first call: ~20 ms of a fresh
    # process).
    points = np.sort(points)
    kept: np.ndarray = points[np.concatenate(([True], points[1:] != points[:-1]))]
    return kept


def q_modulus_squared_lower(*, p: float, q: float, tau: float, theta: np.ndarray) -> np.ndarray:
    """Lower bound of |Q(theta - i tau)|^2 = |p + q e^tau e^{i theta}|^2 at each theta (module doc: the
    denominator of the smooth term), for the floats p, q as given, written as a sum of two non-negative terms,

        |Q|^2 = (p - q e^tau)^2 + 4 p q e^tau cos^2(theta / 2),

    so that no cancellation occurs: the form (q e^tau + p)^2 - 2 p q e^tau (1 - cos theta) subtracts two numbers
    near 1 whose difference at theta = pi is (p - q e^tau)^2, about (eps0 / 2 - tau / 2)^2; at eps0 = 1e-6 that form
    came out 0.17% above the true value (a denominator too large: the bound too small) and at eps0 = 1e-9 it was
    0 (a division by zero). p - q e^tau = (p - q) - q expm1(tau) is computed with an absolute error below
    4 UNIT (|p - q| + q expm1(tau)) (the subtraction p - q, expm1, the product, the last subtraction: one rounding
    each), taken off before squaring; the squares, products and the cosine (theta a float, cos to 1 ulp) take a
    relative 16 UNIT. Supported: 1/2 <= p < 1 with q = 1 - p, finite tau >= 0, finite theta (else ParameterError)."""
    _check_probabilities(p, q)
    if not (tau >= 0.0 and math.isfinite(tau)):
        raise ParameterError("tau", tau, "a finite tau >= 0")
    angles = np.asarray(theta, dtype=float)
    if not np.all(np.isfinite(angles)):
        raise ParameterError("theta", theta, "finite angles")
    x = math.expm1(tau)
    gap = (p - q) - q * x  # p - q e^tau
    gap_error = 4 * UNIT * (abs(p - q) + q * x)
    gap_low = max(abs(gap) - gap_error, 0.0)
    half_cos = np.cos(0.5 * angles)
    bound: np.ndarray = (gap_low * gap_low + 4.0 * p * q * math.exp(tau) * half_cos * half_cos) * (1 - 16 * UNIT)
    return bound


@dataclass(frozen=True)
class _Factors:
    """The monotone factors of the integrand at the points theta (module doc): log_m + log_damp + log psi bounds
    log |nu^(theta - i tau)| - tau j (p - q) (the j-independent bound on the Fourier transform of the error
    measure); kern_num * kern_inv bounds |kappa^| (times e^{tau s}). log_damp and kern_inv decrease in theta,
    kern_num and psi increase."""

    theta: np.ndarray
    log_m: float
    log_damp: np.ndarray
    kern_num: np.ndarray
    kern_inv: np.ndarray
    psi: np.ndarray


def _factors(eps0: float, p: float, q: float, eps: float, m: int, ones: int, width: int, tau: float, smooth: bool, quadratic: bool, theta: np.ndarray | None = None) -> _Factors:
    """The integrand's factors on `theta` (default: the integration grid). Inputs as `log_error_constant`."""
    _check_probabilities(p, q)
    if not (0.0 < eps0 <= 100.0):
        raise ParameterError("eps0", eps0, "0 < eps0 <= 100")
    if not (0.0 < tau < 0.5 * eps0):
        raise ParameterError("tau", tau, f"0 < tau < eps0 / 2 = {0.5 * eps0:g}")
    if not (0 <= ones and 1 <= width and ones + width <= m):
        raise ParameterError("width", width, f"a block inside the population: 0 <= ones, 1 <= width, ones + width <= m = {m} (ones = {ones})")
    if not (0.0 <= eps < eps0):
        raise ParameterError("eps", eps, f"0 <= eps < eps0 = {eps0:g} (a = p - e^eps q > 0)")
    a = p - math.exp(eps) * q
    if not a > 0:
        raise ParameterError("eps", eps, f"eps < eps0 with a = p - e^eps q > 0 (here a = {a:g})")
    if theta is None:
        shared = _tilt_factors(eps0, p, q, eps, int(m), int(ones), int(width), tau)
    else:
        shared = _tilt_factors.__wrapped__(eps0, p, q, eps, int(m), int(ones), int(width), tau, theta)
    return _Factors(shared.theta, shared.log_m, shared.log_damp, shared.kern_num, shared.kern_inv, _psi(shared, eps0, tau, int(width), smooth, quadratic))


@dataclass(frozen=True)
class _TiltFactors:
    """The factors of the integrand that do not depend on the mixture (`smooth`, `quadratic`): every block and tilt
    of the transport check is bounded with two mixtures (two calls of `log_error_constant` with the same block and
    tilt), which share these arrays (`_tilt_factors`, cached); `head` is the part of the Riemann sum's log terms
    that they alone give (log widths + log damp + log kern_inv, left to right as `log_error_constant` adds them);
    `n_abs` the bound of |N| (`_n_series`), which both smooth mixtures use."""

    theta: np.ndarray
    log_m: float
    log_damp: np.ndarray
    kern_num: np.ndarray
    kern_inv: np.ndarray
    q_abs2: np.ndarray
    zabs: np.ndarray
    et: float
    head: np.ndarray
    n_abs: np.ndarray


@lru_cache(maxsize=128)
def _tilt_factors(eps0: float, p: float, q: float, eps: float, m: int, ones: int, width: int, tau: float, theta: np.ndarray | None = None) -> _TiltFactors:
    """The mixture-independent factors (`_TiltFactors`) for inputs already checked by `_factors`; cached on the
    default grid (theta None; an explicit theta is computed by `__wrapped__`, uncached). The same floats, computed
    by the same operations in the same order, as when each call computed its own."""
    K, B = int(ones), int(width)
    e = math.exp(eps)
    a = p - e * q
    et = math.exp(tau)
    x = math.expm1(tau)
    m_p, m_q = 1.0 + p * x, 1.0 + q * x  # q + p e^tau, p + q e^tau
    log_mp, log_mq = math.log1p(p * x), math.log1p(q * x)
    lam = K / (m_p * m_p) + (m - K) / (m_q * m_q)
    lam_b = (K + B) / (m_p * m_p) + (m - K - B) / (m_q * m_q)
    c, c_b = p * q * et * lam, p * q * et * lam_b
    cached = theta is None
    if theta is None:
        theta = _grid(1.0 / math.sqrt(min(c, c_b)))
    y = 2.0 * np.sin(0.5 * theta) ** 2  # 1 - cos theta without cancellation
    # |P|^K |Q|^(m-K) max(1, |w|^B) = max(|P|^K |Q|^(m-K), |P|^(K+B) |Q|^(m-K-B) e^{-B tau (p - q)})
    #   <= M_p^K M_q^(m-K) max(e^{-c y}, R e^{-c_B y}),  R = (M_p / M_q)^B e^{-B tau (p - q)}: decreasing in theta.
    log_r = B * (log_mp - log_mq - tau * (p - q))
    log_r += B * 8 * UNIT * (abs(log_mp) + abs(log_mq) + tau * abs(p - q))
    log_damp = np.maximum(-c * y, log_r - c_b * y)
    log_damp = log_damp + 8 * UNIT * np.abs(log_damp) + 1e-300  # rounding of the exponents, outwards
    # |kappa^| = |a e^{tau + i theta} - b| / |1 - e^{-tau - i theta}|: the numerator increases with theta, the
    # denominator too (its inverse decreases). Near the saddle point a e^tau ~ b, so the numerator is ~ a theta:
    # the two parts of kappa cancel, as they do in H itself (bounding them separately costs ~z^2).
    r = 1.0 / et
    b = e * p - q
    # a = p - e q and b = e p - q are differences of numbers near 1/2 (about eps0 - eps at small eps0): each carries an
    # absolute error below 4 UNIT (p + e q), resp. 4 UNIT (e p + q) (e, the product, the difference), which is not
    # small against a or b themselves when eps0 is; both are taken on the large side.
    a_error, b_error = 4 * UNIT * (p + e * q), 4 * UNIT * (e * p + q)
    gap = abs(a * et - b) + 4 * UNIT * (a * et + abs(b)) + et * a_error + b_error
    kern_num = np.sqrt(gap * gap + 2.0 * (a + a_error) * (abs(b) + b_error) * et * y) * (1 + 8 * UNIT)
    # |1 - e^{-tau - i theta}|^2 = (1 - r)^2 + 2 r y with 1 - r = -expm1(-tau) (1 - 1/e^tau would lose all digits as
    # tau -> 0) and hypot, which neither underflows when tau is tiny nor rounds by more than an ulp.
    kern_inv = (1 + 8 * UNIT) / (np.hypot(-math.expm1(-tau), np.sqrt(2.0 * r * y)) * (1 - 8 * UNIT))
    q_abs2 = q_modulus_squared_lower(p=p, q=q, tau=tau, theta=theta)
    zabs = np.sqrt(theta * theta + tau * tau) * (1 + 4 * UNIT)
    log_m = K * log_mp + (m - K) * log_mq
    log_m += 8 * UNIT * (K * abs(log_mp) + (m - K) * abs(log_mq))
    # The Riemann sum's head on the integration grid only (an explicit theta, as `nu_hat_bound` passes, need not be
    # increasing: it has no Riemann sum).
    head = np.log(np.diff(theta)) + log_damp[:-1] + np.log(kern_inv[:-1]) if cached else np.zeros(0)
    n_abs = _n_series(eps0, zabs)
    if cached:
        for array in (theta, log_damp, kern_num, kern_inv, q_abs2, zabs, head, n_abs):
            array.setflags(write=False)  # shared by the cache
    return _TiltFactors(theta, log_m, log_damp, kern_num, kern_inv, q_abs2, zabs, et, head, n_abs)


def _psi(shared: _TiltFactors, eps0: float, tau: float, width: int, smooth: bool, quadratic: bool) -> np.ndarray:
    """The increasing factor psi of the mixture (`smooth`, `quadratic`; module doc) on the tilt's grid."""
    zabs, B = shared.zabs, width
    if quadratic:
        psi = (zabs**3 * math.exp(1.5 * tau) * LAGRANGE_CUBE / 6) * (1 + 8 * UNIT)
    else:
        psi = (zabs * zabs * shared.et / 8) * (1 + 8 * UNIT)
    if smooth:
        n_abs = shared.n_abs  # the same floats as _n_series(eps0, zabs), computed once per tilt
        psi = psi + (B * B / 8.0) * n_abs * n_abs / shared.q_abs2 * (1 + 8 * UNIT)
    return psi


def nu_hat_bound(*, eps0: float, p: float, q: float, eps: float, m: int, ones: int, width: int, tau: float, theta: np.ndarray, smooth: bool = True, quadratic: bool = False) -> np.ndarray:
    """Upper bound of |nu^(theta - i tau)| e^{-tau j (p - q)} at each theta, for every j of the block (module doc):
    the pointwise inequality that `log_error_constant` integrates (checked against exact transforms in the proof
    checks). Inputs as `log_error_constant`."""
    f = _factors(eps0, p, q, eps, m, ones, width, tau, smooth, quadratic, np.abs(np.asarray(theta, dtype=float)))
    bound: np.ndarray = np.exp(f.log_m + f.log_damp) * f.psi
    return bound


def log_error_constant(*, eps0: float, p: float, q: float, eps: float, m: int, ones: int, width: int, tau: float, smooth: bool = True, quadratic: bool = False) -> float:
    """Upper bound of log C_tau (module doc) for the block [ones, ones + width] of a population of m other
    users at tau > 0 (tau < eps0 / 2, so that |Q| > 0 on the circle Im z = -tau). smooth=False drops the
    B^2 term (the lattice term alone: a lower limit of what any split of the block can reach). quadratic=True:
    the constant of the three-point mixture (each end at the three counts nearest the transported point, with
    the quadratic Lagrange weights: they match the mean and the variance of a point mass, so the lattice term
    is third order: |E e^{izX} - 1| <= |z|^3 e^{1.5 tau} LAGRANGE_CUBE / 6).
    Supported: 0 < eps0 <= 100, p = e^eps0/(1 + e^eps0) and q = 1 - p as floats, 0 <= eps < eps0 (a = p - e q > 0),
    0 <= ones, 1 <= width, ones + width <= m, 0 < tau < eps0 / 2 (else ParameterError)."""
    f = _factors(eps0, p, q, eps, m, ones, width, tau, smooth, quadratic)
    # Upper Riemann sum in log space (the decreasing factors at the left end of each interval, the increasing
    # ones at its right end): log widths + log damp + log kern_inv (the tilt's shared head, same additions in the
    # same order) + log(kern_num psi).
    head = _tilt_factors(eps0, p, q, eps, int(m), int(ones), int(width), tau).head
    logs = head + np.log(f.kern_num[1:] * f.psi[1:])
    top = float(np.max(logs))
    if not math.isfinite(top):
        return math.inf
    log_total = top + math.log(float(np.sum(np.exp(logs - top))) * (1 + 1e-12)) - math.log(math.pi)
    return f.log_m + log_total + math.log1p(MARGIN) + 1e-12 * (1 + abs(log_total))


def _check_probabilities(p: float, q: float) -> None:
    if not (0.0 < q <= 0.5 <= p < 1.0 and abs(p + q - 1.0) <= 1e-12):
        raise ParameterError("p", p, f"binary RR's keep probability: 1/2 <= p < 1 with q = 1 - p (q = {q})")


def saddle_tilt(*, p: float, q: float, m: int, ones: int, target: float) -> float:
    """Uncertified: the tilt tau >= 0 at which the tilted mean of S_ones is `target` (the saddle point of the
    Chernoff bound at `target`; it only chooses where the certified bound is evaluated). 0 when target is at
    or below the mean. Supported: 1/2 <= p < 1, 0 <= ones <= m, finite target."""
    _check_probabilities(p, q)
    if not (0 <= ones <= m):
        raise ParameterError("ones", ones, f"0 <= ones <= m = {m}")
    if not math.isfinite(target):
        raise ParameterError("target", target, "a finite count")
    K = int(ones)
    mean = K * p + (m - K) * q
    if target <= mean:
        return 0.0

    def tilted_mean(t: float) -> float:
        return K * p * math.exp(t) / (q + p * math.exp(t)) + (m - K) * q * math.exp(t) / (p + q * math.exp(t))

    lo, hi = 0.0, 1.0
    while tilted_mean(hi) < target and hi < 700:
        hi *= 2
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        if tilted_mean(mid) < target:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@lru_cache(maxsize=64)  # every block of one transport check asks for the same (p, q, m): ~3 ms of mpmath each
def max_pmf_bound(*, p: float, q: float, m: int) -> float:
    """Upper bound of max_x Pr[S_k = x] for every k: (1/2 pi) int |phi_k| = (1/2 pi) int (1 - 2pq(1 - cos))^(m/2)
    <= e^{-m p q} I_0(m p q) (|phi_k| does not depend on k). e^-x I_0(x) by mpmath at 30 digits; 1e-12 added.
    Supported: 1/2 <= p < 1, m >= 0."""
    _check_probabilities(p, q)
    if not m >= 0:
        raise ParameterError("m", m, "m >= 0")
    # e^-x I_0(x) at 30 digits by mpmath (already loaded; scipy.special's i0e cost a 0.2-0.3 s import on every
    # k = 2 `tightest` call): its float is within one rounding of the 30-digit value, far inside the 1e-12 margin.
    x = m * p * q * (1 - 8 * UNIT)
    with mpmath.workdps(30):
        scaled = mpmath.besseli(0, x) * mpmath.exp(-mpmath.mpf(x))
    return float(scaled) * (1 + 1e-12)


def quadratic_cell_upper(below: tuple[float, float], at: tuple[float, float], above: tuple[float, float]) -> float:
    """Upper bound of max over u in [-1/2, 1/2] of the quadratic through (-1, g_-), (0, g_0), (1, g_+),
    g_- in `below`, g_0 in `at`, g_+ in `above` ([lower, upper] each):
    Q(u) = g_- u (u - 1)/2 + g_0 (1 - u^2) + g_+ u (u + 1)/2. On [0, 1/2] the weight of g_- is <= 0 and the
    others >= 0 (on [-1/2, 0] that of g_+ is <= 0), so each half is bounded by one quadratic in u, whose
    maximum on the half is at an end or at its vertex. A relative slack of 16 u of the magnitudes covers the
    roundings. Each interval must be finite with lower <= upper."""
    for name, (lo, up) in (("below", below), ("at", at), ("above", above)):
        if not (math.isfinite(lo) and math.isfinite(up) and lo <= up):
            raise ParameterError(name, (lo, up), "a finite interval [lower, upper]")
    best = -math.inf
    for low_end, high_end in ((below[0], above[1]), (above[0], below[1])):
        # u = v (first) or u = -v (second), v in [0, 1/2]: the node on the far side enters with its lower end.
        g_far, g_near, g0 = low_end, high_end, at[1]
        # Q = g0 + v (g_near - g_far)/2 + v^2 (g_far + g_near - 2 g0)/2
        lin, quad = (g_near - g_far) / 2, (g_far + g_near - 2 * g0) / 2
        candidates = [0.0, 0.5]
        if quad < 0 and 0 < -lin / (2 * quad) < 0.5:
            candidates.append(-lin / (2 * quad))
        value = max(g0 + v * lin + v * v * quad for v in candidates)
        slack = 16 * UNIT * (abs(g_far) + abs(g_near) + 2 * abs(g0))
        best = max(best, value + slack)
    return best
