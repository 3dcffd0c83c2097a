"""Frequency estimation in the shuffle model (FMT21 Thm 2.3): a low-communication eps0-LDP randomizer, the
shuffler, and the debiasing estimator, with eps0 calibrated so the shuffled reports are (eps, delta)-DP.

Two randomizers, both eps0-LDP (replacement) with O(log k) bits per report:
- Hadamard response [ASZ19, the symmetric two-set form]: K = the smallest power of two > k; input x owns
  C_x = {j in [K]: H[x+1, j] = +1} (half of the columns, H the Sylvester-Hadamard matrix). Report a
  uniform column of C_x w.p. e/(e+1), else a uniform column outside it. For x' != x, |C_x n C_x'| = K/4,
  so a report of x' lands in C_x w.p. 1/2; hence E[fraction of reports in C_x] = 1/2 + p_x (e-1)/(2(e+1))
  and p_hat_x = (2(e+1)/(e-1)) (fraction in C_x - 1/2) is unbiased.
- k-ary randomized response: p_hat_y = (fraction of reports equal to y - q) / (p - q), p = e/(e+k-1),
  q = 1/(e+k-1).
The protocol uses whichever has the smaller worst-case estimator variance at the calibrated eps0 (the
largest eps0 whose FMT21.Thm2.1.focs bound is <= eps). Hadamard response wins for small eps0, k-RR once
e^eps0 is large compared with k; that is what gives Thm 2.3's O(sqrt(log k log(1/delta))/(eps n)) rate
at fixed k. (ASZ19's blocked Hadamard response would remove the remaining factor in k for
1 < eps0 < log k; it is not implemented.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from ..bounds.clone_closed_forms import largest_eps0_for_epsilon
from ..finite.distributions import Distribution
from ..core.errors import ParameterError, require_integer, require_positive, require_probability
from ..core.limits import EPS0_MAX_EXP, EXACT_RANDOMIZER_K_MAX, PROTOCOL_ARRAY_K_MAX
from ..core.parameters import check_eps0, check_k
from ..finite.randomizers import Randomizer

__all__ = [
    "FrequencyEstimate",
    "hadamard_size",
    "hadamard_response_randomizer",
    "hadamard_response_encode",
    "hadamard_response_estimate",
    "krr_encode",
    "krr_estimate",
    "estimator_variance_bound",
    "estimator_range",
    "shuffled_frequency_estimation",
]

HADAMARD, KRR = "hadamard", "krr"
METHODS = (HADAMARD, KRR)


@dataclass(frozen=True)
class FrequencyEstimate:
    """The estimated relative frequencies, the calibrated local eps0, the randomizer used, its report
    size in bits, and the shuffled reports (what the analyzer sees)."""

    estimate: np.ndarray
    eps0: float
    method: str
    bits_per_report: int
    reports: np.ndarray


# What the encoders accept as randomness: a seed for numpy's default generator, or a generator.
Seed = int | np.random.Generator | None

def _require_k(k: int) -> int:
    return check_k(k, maximum=PROTOCOL_ARRAY_K_MAX, why="arrays of k floats")


def _require_eps0(eps0: float) -> float:
    check_eps0(eps0, maximum=EPS0_MAX_EXP, why="e^eps0 finite in double precision")
    return float(eps0)


def _require_values(values: ArrayLike, k: int) -> np.ndarray:
    array = np.asarray(values)
    if array.ndim != 1 or array.size == 0 or not np.issubdtype(array.dtype, np.integer):
        raise ParameterError("values", values if array.size < 8 else f"array of shape {array.shape}", "a non-empty 1-D integer array")
    if array.min() < 0 or array.max() >= k:
        raise ParameterError("values", f"entries in [{array.min()}, {array.max()}]", f"entries in 0..{k - 1}")
    return array.astype(np.int64)


def _rng(seed: Seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def hadamard_size(k: int) -> int:
    """K = the smallest power of two with K >= k + 1 (row 0 of H, all ones, is not used) (FMT21.Thm2.3)."""
    k = _require_k(k)
    return 1 << k.bit_length()


def _parity(a: np.ndarray) -> np.ndarray:
    """popcount(a) mod 2, elementwise, for non-negative int64 below 2^62."""
    a = a.copy()
    for shift in (32, 16, 8, 4, 2, 1):
        a ^= a >> shift
    return a & 1


def _in_set(rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """Whether column j lies in C_x for row r = x + 1: H[r, j] = (-1)^popcount(r & j) = +1."""
    inside: np.ndarray = _parity(rows & columns) == 0
    return inside


def hadamard_response_randomizer(k: int, e_eps0: Fraction | float) -> Randomizer:
    """Hadamard response as an exact finite `Randomizer` on inputs 0..k-1, outputs 0..K-1 (FMT21.Thm2.3).

    For tests on small k: its LDP ratio is exactly e_eps0 and the estimator's expectation can be computed
    exactly from it."""
    k = check_k(k, maximum=EXACT_RANDOMIZER_K_MAX, why="an exact k x K table")
    if isinstance(e_eps0, bool) or not isinstance(e_eps0, (int, float, Fraction)) or not e_eps0 > 1:
        raise ParameterError("e_eps0", e_eps0, "a number e^eps0 > 1")
    e = Fraction(e_eps0) if isinstance(e_eps0, int) else e_eps0
    size = hadamard_size(k)
    half = size // 2
    inside, outside = e / (e + 1) / half, 1 / (e + 1) / half
    table = {}
    for x in range(k):
        member = _in_set(np.full(size, x + 1, dtype=np.int64), np.arange(size, dtype=np.int64))
        table[x] = Distribution({j: (inside if member[j] else outside) for j in range(size)})
    return Randomizer(table)


def hadamard_response_encode(values: ArrayLike, k: int, eps0: float, seed: Seed = None) -> np.ndarray:
    """One Hadamard-response report (a column index in [K]) per value, vectorised (FMT21.Thm2.3).

    A uniform column is drawn and, when its membership in C_x is not the wanted one, its bit at the lowest
    set bit of r = x + 1 is flipped: that toggles popcount(r & j) and is a bijection between C_x and its
    complement, so the report is uniform on the wanted side."""
    k = _require_k(k)
    eps0 = _require_eps0(eps0)
    x = _require_values(values, k)
    rng = _rng(seed)
    size = hadamard_size(k)
    rows = x + 1
    columns = rng.integers(0, size, size=x.size, dtype=np.int64)
    want_inside = rng.random(x.size) < math.exp(eps0) / (math.exp(eps0) + 1)
    wrong = _in_set(rows, columns) != want_inside
    columns[wrong] ^= rows[wrong] & -rows[wrong]
    return columns


def _walsh_hadamard(vector: np.ndarray) -> np.ndarray:
    """H @ vector for the Sylvester-Hadamard matrix of the vector's (power-of-two) length, O(K log K)."""
    out = vector.astype(np.float64).copy()
    h = 1
    while h < out.size:
        view = out.reshape(-1, 2 * h)
        left, right = view[:, :h].copy(), view[:, h:].copy()
        view[:, :h], view[:, h:] = left + right, left - right
        h *= 2
    return out


def hadamard_response_estimate(reports: ArrayLike, k: int, eps0: float) -> np.ndarray:
    """Unbiased relative frequencies from Hadamard-response reports (FMT21.Thm2.3's estimator f)."""
    k = _require_k(k)
    eps0 = _require_eps0(eps0)
    size = hadamard_size(k)
    columns = _require_values(reports, size)
    counts = np.bincount(columns, minlength=size)
    in_set = (columns.size + _walsh_hadamard(counts)) / 2  # reports in C_r for every row r
    fraction = in_set[1 : k + 1] / columns.size
    e = math.exp(eps0)
    return 2 * (e + 1) / (e - 1) * (fraction - 0.5)


def krr_encode(values: ArrayLike, k: int, eps0: float, seed: Seed = None) -> np.ndarray:
    """k-ary randomized response reports, vectorised: keep x w.p. e/(e+k-1), else a uniform other value."""
    k = _require_k(k)
    eps0 = _require_eps0(eps0)
    x = _require_values(values, k)
    rng = _rng(seed)
    e = math.exp(eps0)
    keep = rng.random(x.size) < e / (e + k - 1)
    other = (x + rng.integers(1, k, size=x.size)) % k
    return np.where(keep, x, other)


def krr_estimate(reports: ArrayLike, k: int, eps0: float) -> np.ndarray:
    """Unbiased relative frequencies from k-RR reports: (fraction equal to y - q)/(p - q)."""
    k = _require_k(k)
    eps0 = _require_eps0(eps0)
    y = _require_values(reports, k)
    e = math.exp(eps0)
    p, q = e / (e + k - 1), 1 / (e + k - 1)
    return (np.bincount(y, minlength=k) / y.size - q) / (p - q)


def _require_method(method: str) -> None:
    if method not in METHODS:
        raise ParameterError("method", method, f"one of {METHODS}")


def estimator_range(method: str, k: int, eps0: float) -> float:
    """The length L of the interval each report's contribution to p_hat_x lies in (for Hoeffding:
    Pr[|p_hat_x - p_x| >= t] <= 2 exp(-2 n t^2 / L^2))."""
    _require_method(method)
    k = _require_k(k)
    e = math.exp(_require_eps0(eps0))
    return 2 * (e + 1) / (e - 1) if method == HADAMARD else (e + k - 1) / (e - 1)


def estimator_variance_bound(method: str, k: int, eps0: float, n: int) -> float:
    """The largest variance of one coordinate of p_hat over all datasets of n users.

    Hadamard: each report's indicator of C_x is Bernoulli(e/(e+1)) or Bernoulli(1/2), variance <= 1/4, so
    Var <= (2(e+1)/(e-1))^2 / (4n). k-RR: Bernoulli(p) or Bernoulli(q), Var <= max(p(1-p), q(1-q)) / (n (p-q)^2)."""
    _require_method(method)
    k = _require_k(k)
    e = math.exp(_require_eps0(eps0))
    require_integer("n", n, minimum=1)
    if method == HADAMARD:
        return (2 * (e + 1) / (e - 1)) ** 2 / (4 * n)
    p, q = e / (e + k - 1), 1 / (e + k - 1)
    return max(p * (1 - p), q * (1 - q)) / (n * (p - q) ** 2)


def shuffled_frequency_estimation(values: ArrayLike, k: int, *, eps: float, delta: float, seed: Seed = None, method: str | None = None) -> FrequencyEstimate:
    """Run FMT21 Thm 2.3's protocol: calibrate eps0, randomize each value locally, shuffle, estimate.

    eps0 is the largest local epsilon whose FMT21.Thm2.1.focs bound at (n, delta) is <= eps, so the
    shuffled reports are (eps, delta)-DP; `method` None picks the randomizer with the smaller
    `estimator_variance_bound` there."""
    k = _require_k(k)
    x = _require_values(values, k)
    require_positive("eps", eps)
    require_probability("delta", delta)
    if method is not None:
        _require_method(method)
    n = int(x.size)
    eps0 = largest_eps0_for_epsilon(eps=eps, n=n, delta=delta, variant="focs")
    if method is None:
        method = min(METHODS, key=lambda m: estimator_variance_bound(m, k, eps0, n))
    rng = _rng(seed)
    if method == HADAMARD:
        reports = rng.permutation(hadamard_response_encode(x, k, eps0, rng))
        estimate = hadamard_response_estimate(reports, k, eps0)
        bits = hadamard_size(k).bit_length() - 1
    else:
        reports = rng.permutation(krr_encode(x, k, eps0, rng))
        estimate = krr_estimate(reports, k, eps0)
        bits = max(1, (k - 1).bit_length())
    return FrequencyEstimate(estimate, eps0, method, bits, reports)
