"""BBGN19's real summation protocol in the single-message shuffle model (Sec. 4: Algs 2-3, Thm 4.1,
Cor 4.1.1), vectorised with numpy.

Algorithm 2 (randomizer): randomized rounding of x in [0, 1] to xbar in {0, ..., k} with E[xbar/k] = x,
then Algorithm 1 with blanket probability gamma on the k + 1 values {0, ..., k}.
Algorithm 3 (analyzer): z = (sum_i y_i / k - gamma n / 2) / (1 - gamma), unbiased for sum_i x_i since
E[y_i / k] = (1 - gamma) x_i + gamma / 2.
Privacy: the randomizer's randomized-response step runs on k + 1 values, so gamma is Theorem 3.1's value
with k + 1 in place of the paper's k (the conservative reading; see the statement's notes).
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np

from ..core.errors import HypothesisViolation, ParameterError, require_integer, require_positive, require_probability
from ..core.parameters import check_k
from .shuffled_krr import theorem_3_1_gamma
from ..core.results import BoundValue
from ..core.rounding import round_down, round_up

__all__ = [
    "randomized_rounding",
    "summation_randomizer",
    "summation_analyzer",
    "summation_protocol",
    "summation_gamma",
    "summation_mse_bound",
    "summation_accuracy_bound",
    "statistical_query_std_bound",
]


def _inputs(x: object) -> np.ndarray:
    values = np.asarray(x, dtype=float)
    if values.ndim == 0 or values.size == 0 or not np.all(np.isfinite(values)) or np.any(values < 0) or np.any(values > 1):
        raise ParameterError("x", x, "a non-empty array of inputs in [0, 1]")
    return values


def _gamma(gamma: object) -> float:
    require_probability("gamma", gamma, open_low=False, open_high=True)
    return float(cast(float, gamma))


def randomized_rounding(x: object, *, k: int, rng: np.random.Generator) -> np.ndarray:
    """xbar = floor(x k) + Bernoulli(x k - floor(x k)) in {0, ..., k}, elementwise (BBGN19.Alg2, step 1)."""
    check_k(k, minimum=1)
    values = _inputs(x) * int(k)
    low = np.floor(values)
    rounded: np.ndarray = (low + (rng.random(values.shape) < values - low)).astype(np.int64)
    return rounded


def summation_randomizer(x: object, *, gamma: float, k: int, rng: np.random.Generator) -> np.ndarray:
    """Algorithm 2 (BBGN19.Alg2): randomized rounding, then with probability gamma a uniform value of
    {0, ..., k} instead of the rounded one. Elementwise over an array of inputs (any shape)."""
    g = _gamma(gamma)
    xbar = randomized_rounding(x, k=k, rng=rng)
    blanket = rng.random(xbar.shape) < g
    uniform = rng.integers(0, int(k) + 1, size=xbar.shape)
    return np.where(blanket, uniform, xbar)


def summation_analyzer(y: object, *, gamma: float, k: int) -> np.ndarray | float:
    """Algorithm 3 (BBGN19.Alg3): z = (sum_i y_i/k - gamma n/2) / (1 - gamma), summing over the last axis
    (a batch of runs is a 2-D array, one run per row)."""
    g = _gamma(gamma)
    check_k(k, minimum=1)
    messages = np.asarray(y)
    if messages.ndim == 0 or messages.size == 0 or np.any(messages < 0) or np.any(messages > int(k)):
        raise ParameterError("y", y, f"a non-empty array of messages in {{0, ..., {k}}}")
    n = messages.shape[-1]
    estimate: np.ndarray | float = (messages.sum(axis=-1) / int(k) - g * n / 2) / (1 - g)
    return estimate


def summation_protocol(x: object, *, gamma: float, k: int, rng: np.random.Generator) -> np.ndarray | float:
    """The protocol P = Alg 3 o shuffle o Alg 2^n on inputs x (last axis = users); the shuffle is omitted
    since the analyzer is symmetric (BBGN19.Alg2, BBGN19.Alg3)."""
    return summation_analyzer(summation_randomizer(x, gamma=gamma, k=k, rng=rng), gamma=gamma, k=k)


def summation_gamma(*, eps: float, delta: float, n: int, k: int) -> float:
    """Theorem 3.1's gamma for the k + 1 message values of Algorithm 2 (BBGN19.Thm4.1's privacy choice)."""
    check_k(k, minimum=1)
    return theorem_3_1_gamma(eps=eps, n=n, delta=delta, k=int(k) + 1, statement="BBGN19.Thm4.1").value


def _mse_unrounded(n: int, g: float, k: int) -> float:
    return int(n) / (1 - g) ** 2 * (1 / (4 * int(k) ** 2) + g / 2)


def summation_mse_bound(*, n: int, gamma: float, k: int) -> float:
    """MSE(P) <= n / (1-gamma)^2 (1/(4k^2) + gamma/2): rounding variance at most 1/(4k^2) and a blanket
    message's squared error at most 1/2 per user (BBGN19.Thm4.1, displayed bound); rounded up."""
    require_integer("n", n, minimum=1)
    check_k(k, minimum=1)
    g = _gamma(gamma)
    return round_up(_mse_unrounded(n, g, k), 8)


def summation_accuracy_bound(*, eps: float, delta: float, n: int, k: int) -> BoundValue:
    """The MSE bound at the private gamma = summation_gamma(eps, delta, n, k) (BBGN19.Thm4.1); refused when
    that gamma is not below 1. An upper bound: the MSE bound grows with gamma, so its upper end (the `value`,
    `summation_mse_bound` at gamma's upper end) and its lower end (at gamma's lower end) are each evaluated in
    doubles, six correctly rounded operations, and moved out by 8 ulps."""
    check_k(k, minimum=1)
    gamma = theorem_3_1_gamma(eps=eps, n=n, delta=delta, k=int(k) + 1, statement="BBGN19.Thm4.1")
    if not gamma.upper < 1:
        raise HypothesisViolation("BBGN19.Thm4.1", "gamma < 1", {"eps": eps, "delta": delta, "n": n, "k": k})
    upper = summation_mse_bound(n=n, gamma=gamma.upper, k=k)
    return BoundValue(min(upper, round_down(_mse_unrounded(n, gamma.lower, k), 8)), upper, direction="upper_bound")


def statistical_query_std_bound(*, eps: float, delta: float, n: int, k: int) -> BoundValue:
    """Standard deviation of the unbiased estimate of sum_i q(x_i), q: X -> [0, 1]: the square root of the
    Theorem 4.1 MSE bound (BBGN19.Cor4.1.1). An upper bound: the square roots of the MSE bound's ends, each a
    correctly rounded sqrt moved out by 2 ulps; `value` the upper end."""
    require_positive("eps", eps)
    mse = summation_accuracy_bound(eps=eps, delta=delta, n=n, k=k)
    return BoundValue(round_down(math.sqrt(mse.lower), 2), round_up(math.sqrt(mse.upper), 2), direction="upper_bound")
