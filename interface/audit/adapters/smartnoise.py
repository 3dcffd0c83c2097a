"""Port of opendp/smartnoise-core's `shuffle_amplification` (Rust), both of its bounds.

Source: repository opendp/smartnoise-core, commit 5cea85df1fe369cc08574df85eeebbe6c02469e5 ("initial
shuffling implementation"; the only later change, 7d0358d0c, rewords the error message), file
runtime-rust/src/utilities/shuffling.rs:

- `shuffle_amplification(step_epsilon, step_delta, delta, n, bound)` (lines 12-28): refuses
  step_epsilon > ln(n / (16 ln(2/delta))), then returns (epoch_epsilon, epoch_delta); the doc comment says
  it "computes in add/remove symmetric distance; substitute is 2 * eps".
- `compose_epsilon_theoretical` (lines 35-40), "theorem 3.1": FMT21 full version Theorem 3.1,
  ln(1 + (e^eps0 - 1)/(e^eps0 + 1) (8 sqrt(e^eps0 ln(4/delta)/n) + 8 e^eps0/n)). Registered here as
  `FMT21.Thm2.1.focs` (replace-one neighbours, FMT21 Def 1.2; the crate's add/remove reading is its own).
- `compose_epsilon_empirical`, `m1`, `integrate_hockey_stick`, `binomial_cdf` (lines 43-140), "Appendix E",
  "Algorithm 5", "Algorithm 4": FMT21's numerical clone bound with skip S = 5. Audited against
  `FMT21.clones_numeric`.

Only the pure-LDP case is ported (step_delta = 0: the adapters take eps0, n, delta). Rust `u64`
arithmetic: `n / skip` is integer division, `tau as u64` saturates (a negative tau becomes 0, the
"TODO: tau can be negative" of line 119). The binomial CDF of the Rust code sums the pmf from k = 0 in
order on every call; the port keeps the same terms in the same order but computes them as NumPy prefix
sums (`numpy.cumsum` accumulates sequentially), so a call costs O(x) vectorised instead of an O(x)
Python loop: values agree with the Rust code to the last bits of libm's log/exp (checked against a run
of the original, tests/interface/audit/test_adapters.py).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["empirical", "theoretical"]


def _check(eps0: float, n: int, delta: float) -> None:
    # shuffle_amplification, lines 15-17 (f64 arithmetic; ln of a non-positive number is nan or -inf in Rust)
    with np.errstate(all="ignore"):
        limit = float(np.log(np.float64(n) / (16.0 * np.log(2.0 / np.float64(delta)))))
    if eps0 > limit:
        raise ValueError(f"step_epsilon ({eps0!r}) must be <= ln(n / (16 ln(2 / delta))) ({limit!r})")


def _u64(n: float) -> int:
    if not (n >= 0) or math.isinf(n):
        raise ValueError("n is a u64")
    return int(n)


def theoretical(eps0: float, n: float, delta: float) -> float:
    """shuffle_amplification(eps0, 0, delta, n, Bound::Theoretical).0 (lines 12-40)."""
    count = _u64(n)
    _check(eps0, count, delta)
    exp_eps = math.exp(eps0)
    with np.errstate(all="ignore"):  # Rust's f64: a negative delta gives NaN, not an exception
        x = float(np.sqrt(np.float64(_div(exp_eps * _ln(_div(4.0, delta)), count)))) + _div(exp_eps, count)
        return _ln(1.0 + _div(math.expm1(eps0), exp_eps + 1.0) * 8.0 * x)


def _binomial_cdf_table(x_max: int, n: int, p: float) -> np.ndarray:
    """cdf[x] = binomial_cdf(x, n, p) of lines 131-140 for x = 0..x_max (same terms, same order)."""
    k = np.arange(0, x_max + 1, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        steps = np.log(n - k[1:] + 1.0) - np.log(k[1:])
        b = np.concatenate(([0.0], np.cumsum(steps)))
        log_pmf = b + k * np.log(p) + (n - k) * np.log(1.0 - p)
        return np.cumsum(np.exp(log_pmf))


def _fmax(a: float, b: float) -> float:
    """Rust's f64::max: a NaN operand is ignored (Python's max depends on the order)."""
    return b if math.isnan(a) else a if math.isnan(b) else max(a, b)


def _fmin(a: float, b: float) -> float:
    return b if math.isnan(a) else a if math.isnan(b) else min(a, b)


def _as_u64(x: float) -> int:
    """Rust's `x as u64`: saturating, NaN and negatives to 0."""
    if math.isnan(x) or x <= 0:
        return 0
    return min(int(x), 2**64 - 1)


def _div(a: float, b: float) -> float:
    """IEEE division as Rust's f64 does it (inf or nan, never an exception)."""
    with np.errstate(all="ignore"):
        return float(np.float64(a) / np.float64(b))


def _ln(x: float) -> float:
    with np.errstate(all="ignore"):
        return float(np.log(np.float64(x)))


def _binomial_cdf(x: int, n: int, p: float) -> float:
    if x < 0:
        return 0.0
    return float(_binomial_cdf_table(x, n, p)[x])


def _integrate_hockey_stick(c: int, epsilon: float, step_epsilon: float, upper: bool) -> float:
    """integrate_hockey_stick (lines 105-126)."""
    q = _div(math.exp(step_epsilon), math.exp(step_epsilon) + 1.0)
    exp_eps = math.exp(epsilon)
    with np.errstate(all="ignore"):
        epsilon_q = _ln(_div((exp_eps + 1.0) * q - 1.0, (exp_eps + 1.0) * q - exp_eps))
        beta = _div(1.0, float(np.exp(np.float64((1.0 if upper else -1.0) * epsilon_q))) + 1.0)
    tau = beta * (c + 1)
    cdf_tau = _binomial_cdf(_as_u64(tau), c, 0.5)  # `tau as u64` saturates (NaN and negatives to 0)
    cdf_tau_m1 = _binomial_cdf(_as_u64(tau - 1.0), c, 0.5)
    gamma_p = q * cdf_tau + (1.0 - q) * cdf_tau_m1
    gamma_q = (1.0 - q) * cdf_tau + q * cdf_tau_m1
    if upper:
        return gamma_p - exp_eps * gamma_q
    return (1.0 - gamma_q) - exp_eps * (1.0 - gamma_p)


def _m1(n: int, step_epsilon: float, delta_u: float, skip: int, epsilon: float) -> float:
    """m1 (lines 71-102), "Algorithm 5"."""
    delta_p = delta_q = zeta_c = pr_prev = 0.0
    p = math.exp(-step_epsilon)
    steps = n // skip
    cdf = _binomial_cdf_table(max(steps * skip - 1, 0), n - 1, p) if steps else np.zeros(1)
    for t in range(steps):
        if _fmax(delta_p, delta_q) > delta_u:
            return delta_u
        if 1.0 - zeta_c < _fmin(delta_p, delta_q):
            return _fmax(delta_p, delta_q) + 1.0 - zeta_c
        c_min, c_max = t * skip, (t + 1) * skip - 1
        pr_next = float(cdf[c_max])
        pr_interval = pr_next - pr_prev
        pr_prev = pr_next
        c_p = _fmax(_integrate_hockey_stick(c_max, epsilon, step_epsilon, True), _integrate_hockey_stick(c_min, epsilon, step_epsilon, True))
        delta_p += pr_interval * c_p
        c_q = _fmax(_integrate_hockey_stick(c_max, epsilon, step_epsilon, False), _integrate_hockey_stick(c_min, epsilon, step_epsilon, False))
        delta_q += pr_interval * c_q
        zeta_c += pr_interval
    return _fmax(delta_p, delta_q)


def empirical(eps0: float, n: float, delta: float) -> float:
    """shuffle_amplification(eps0, 0, delta, n, Bound::Empirical).0 (lines 12-28, 43-68).

    Note the search (lines 56-60): `m1` returns exactly `delta` when the candidate's delta exceeds it
    (line 79), and `Ordering::Equal` returns the candidate at once: a candidate that FAILS is returned as
    the answer. The port keeps it (that is the audited behaviour)."""
    count = _u64(n)
    _check(eps0, count, delta)
    eps_inf, eps_sup = 0.0, eps0
    delta_prior = math.nan
    tol = 1e-20
    while True:
        candidate = eps_inf + (eps_sup - eps_inf) / 2.0
        delta_candidate = _m1(count, eps0, delta, 5, candidate)
        if math.isnan(delta_candidate):
            raise ValueError("non-comparable delta")
        if delta_candidate < delta:
            eps_sup = candidate
        elif delta_candidate > delta:
            eps_inf = candidate
        else:
            return candidate
        is_stuck = delta_prior == delta_candidate
        is_close = delta_candidate < delta and (delta - delta_candidate) <= tol
        if is_close or is_stuck:
            return eps_sup
        delta_prior = delta_candidate
