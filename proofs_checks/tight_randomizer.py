"""A finite randomizer given as a matrix (issue 15): proof checks of the exact blanket bound
(BBGN19.Lem5.3.exact_randomizer) and of the pair lower bound (exact.randomizer_pair), and the gap between the
tightest certified upper bound and the largest certified lower bound (`randomizer_gap`, used by
`audit randomizer` and `shuffle_spec.tightest_randomizer`).

The gap. Upper bounds: BBGN19.Lem5.3.exact_randomizer (its value, the upper end of its certified interval) and
every registered amplification bound that applies at the randomizer's eps0 (generic ones, and those of its
mechanism when the matrix is k-RR), as `audit randomizer` evaluates them. Lower bounds: exact.randomizer_pair
(the LOWER end of its certified interval), the lower-bound statements of the recognised mechanism (lower ends),
and the exact central epsilon when `audit randomizer` enumerated it (rounded down). ratio = upper / lower.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from shuffle_spec.proofs_checks.framework import assert_identity, assert_nonnegative, proof_check, require
from shuffle_spec.reference.bounds.blanket_exact_randomizer import (
    blanket_pair_delta,
    exact_blanket_randomizer_delta,
    exact_blanket_randomizer_epsilon,
    fft_count_expectation_upper,
    finite_randomizer,
    group_outputs,
)
from shuffle_spec.reference.lower_bounds_randomizer import best_randomizer_pair, randomizer_pair_delta

__all__ = ["RandomizerGap", "randomizer_gap", "UPPER_ID", "LOWER_ID"]

UPPER_ID = "BBGN19.Lem5.3.exact_randomizer"
LOWER_ID = "exact.randomizer_pair"
# Seconds allowed to each of the two computations in an audit (like the registered exact statements).
SECONDS = 60


# ---------------------------------------------------------------------------------------------------
# Proof checks


def _random_matrix(seed: int, k: int, m: int) -> list[list[Fraction]]:
    rng = random.Random(seed)
    rows = []
    for _ in range(k):
        weights = [Fraction(rng.randint(1, 9)) for _ in range(m)]
        total = sum(weights)
        rows.append([w / total for w in weights])
    return rows


@proof_check(UPPER_ID, "best blanket: mu_x = gamma omega + (1 - gamma) nu_x with nu_x >= 0 summing to 1; no decomposition has a larger gamma")
def _decomposition() -> None:
    # Symbolically: with c_y = min_x mu_x(y) = mu_x(y) - d_y (d_y >= 0), gamma = sum c, omega = c / gamma,
    # nu_x = d / (1 - gamma): the mixture gives mu_x back, nu_x sums to 1 when mu_x does.
    size = 4
    mus = sp.symbols(f"mu0:{size}", positive=True)
    ds = sp.symbols(f"d0:{size}", nonnegative=True)
    cs = [mu - d for mu, d in zip(mus, ds, strict=True)]
    gamma = sp.Add(*cs)
    for y in range(size):
        omega, nu = cs[y] / gamma, ds[y] / (1 - gamma)
        assert_identity(gamma * omega + (1 - gamma) * nu, mus[y], f"mixture at output {y}")
        assert_nonnegative(ds[y], "nu_x(y) (1 - gamma) = mu_x(y) - min_x' mu_x'(y)")
    total_nu = sp.Add(*ds) / (1 - gamma)
    assert_identity(total_nu.subs(mus[-1], 1 - sp.Add(*mus[:-1])), 1, "nu_x sums to 1 when mu_x does")
    # Exact instances: any decomposition mu_x = g w + (1 - g) v_x has g w(y) <= min_x mu_x(y), so g <= gamma.
    for seed, (k, m) in enumerate(((2, 2), (3, 3), (3, 5), (4, 4))):
        rows = _random_matrix(seed, k, m)
        mins = [min(r[y] for r in rows) for y in range(m)]
        gamma_exact = sum(mins, Fraction(0))
        require(finite_randomizer(rows).gamma == gamma_exact, "reference gamma = sum of column minima")
        for r in rows:
            nu = [(r[y] - mins[y]) / (1 - gamma_exact) for y in range(m)]
            require(all(v >= 0 for v in nu) and sum(nu) == 1, f"nu_x is a distribution (seed {seed})")


@proof_check(UPPER_ID, "sum_y omega(y) l_y = 1 - e^eps, so E[L_1 + ... + L_N] = N (1 - e^eps); (s)_+ = s + (-s)_+")
def _mean_and_complement() -> None:
    e = sp.Symbol("e", positive=True)
    size = 4
    mu_x = sp.symbols(f"a0:{size}", positive=True)
    mu_x2 = sp.symbols(f"b0:{size}", positive=True)
    omega = sp.symbols(f"w0:{size}", positive=True)
    mean = sp.Add(*[w * (a - e * b) / w for a, b, w in zip(mu_x, mu_x2, omega, strict=True)])
    constraints = {mu_x[-1]: 1 - sp.Add(*mu_x[:-1]), mu_x2[-1]: 1 - sp.Add(*mu_x2[:-1])}
    assert_identity(mean.subs(constraints), 1 - e, "E[L] = 1 - e^eps")
    s = sp.Symbol("s", positive=True)
    assert_identity(sp.Max(s, 0), s + sp.Max(-s, 0), "(s)_+ = s + (-s)_+ for s > 0")
    assert_identity(sp.Max(-s, 0), -s + sp.Max(s, 0), "(s)_+ = s + (-s)_+ for s < 0")


@proof_check(UPPER_ID, "randomized rounding: E[L' | L] = h floor(l/h) + q h >= l when q >= (l - h floor(l/h))/h (convex order)")
def _randomized_rounding() -> None:
    h, t, slack = sp.symbols("h t slack", positive=True)  # l = h b + t, 0 <= t < h; q = t/h + slack
    b = sp.Symbol("b", integer=True)
    q = t / h + slack
    conditional_mean = (1 - q) * (h * b) + q * (h * (b + 1))
    assert_nonnegative(sp.simplify(conditional_mean - (h * b + t)), "E[L' | L] - L = slack h >= 0")
    # Jensen + monotonicity: f(s) = (s)_+ is convex and non-decreasing, so E f(sum L) <= E f(sum E[L'|L]) <= E f(sum L').
    # Checked on an exact instance: the FFT upper bound is >= the brute-force expectation (4 groups, N = 6).
    mu_x = [Fraction(4, 10), Fraction(3, 10), Fraction(2, 10), Fraction(1, 10)]
    mu_x2 = [Fraction(1, 10), Fraction(2, 10), Fraction(3, 10), Fraction(4, 10)]
    omega = [Fraction(2, 10), Fraction(2, 10), Fraction(3, 10), Fraction(3, 10)]
    groups = group_outputs(mu_x, mu_x2, omega)
    for eps in (0.05, 0.4):
        exact = _brute_force_expectation(6, groups, eps)
        upper = fft_count_expectation_upper(6, groups, eps)
        require(exact <= upper <= exact * (1 + 1e-6) + 1e-12, f"FFT upper {upper} vs exact {exact} at eps {eps}")


def _brute_force_expectation(big_n: int, groups: Any, eps: float) -> float:
    """E[(sum_g l_g c_g)_+], c ~ Mult(N; p), by enumeration (float, for small N)."""
    e = math.exp(eps)
    coefficients = [float(a) - e * float(b) for a, b in zip(groups.alpha, groups.beta, strict=True)]
    probs = [float(p) for p in groups.p]
    total = 0.0
    for counts in itertools.product(range(big_n + 1), repeat=len(probs) - 1):
        rest = big_n - sum(counts)
        if rest < 0:
            continue
        full = (*counts, rest)
        weight = float(math.factorial(big_n))
        for c, p in zip(full, probs, strict=True):
            weight *= p**c / math.factorial(c)
        total += weight * max(0.0, sum(c * coef for c, coef in zip(full, coefficients, strict=True)))
    return total


@proof_check(LOWER_ID, "multinomial shift, m = 4: Mult(n-1; h - e_1) prod p^(h - e_1) = Mult(n; h) prod p^h h_1 / (n p_1)")
def _multinomial_shift() -> None:
    n = sp.Symbol("n", integer=True, positive=True)
    h = sp.symbols("h0:4", integer=True, positive=True)
    p = sp.symbols("p0:4", positive=True)
    rest = n - h[0] - h[1] - h[2]
    shifted = sp.factorial(n - 1) / (sp.factorial(h[0] - 1) * sp.factorial(h[1]) * sp.factorial(h[2]) * sp.factorial(rest)) * p[0] ** (h[0] - 1) * p[1] ** h[1] * p[2] ** h[2] * p[3] ** rest
    full = sp.factorial(n) / (sp.factorial(h[0]) * sp.factorial(h[1]) * sp.factorial(h[2]) * sp.factorial(rest)) * p[0] ** h[0] * p[1] ** h[1] * p[2] ** h[2] * p[3] ** rest
    require(sp.simplify(sp.combsimp(shifted / (full * h[0] / (n * p[0])))) == 1, "multinomial shift")


def _exact_pair_delta(rows: Sequence[Sequence[Fraction]], x: int, x2: int, z: int, n: int, eps: float) -> float:
    from shuffle_spec.reference.divergences import hockey_stick_divergence
    from shuffle_spec.reference.randomizers import Randomizer
    from shuffle_spec.reference.shuffling import shuffled_distribution

    randomizer = Randomizer.from_matrix([[str(v) for v in row] for row in rows])
    inputs = randomizer.inputs
    rest = (inputs[z],) * (n - 1)
    p = shuffled_distribution(randomizer, rest + (inputs[x],))
    q = shuffled_distribution(randomizer, rest + (inputs[x2],))
    return float(hockey_stick_divergence(p, q, math.exp(eps)))  # one direction, as the reference's


@proof_check(LOWER_ID, "reference pair delta = exact shuffled divergence (Fractions) at n = 5, random 3 x 3 and 2 x 2 matrices")
def _pair_vs_exact() -> None:
    for seed, (k, m) in enumerate(((3, 3), (2, 2), (3, 2))):
        rows = _random_matrix(seed + 10, k, m)
        for x, x2, z in ((0, 1, 2 % k), (1, 0, 0)):
            value = _exact_pair_delta(rows, x, x2, z, 5, 0.1)
            got = randomizer_pair_delta(matrix=rows, n=5, eps=0.1, x=x, x2=x2, z=z)
            require(got.lower * (1 - 1e-9) - 1e-15 <= value <= got.upper * (1 + 1e-9) + 1e-15, f"exact {value} outside {got} (seed {seed}, {x}, {x2}, {z})")


@proof_check(UPPER_ID, "reference blanket delta >= exact shuffled delta of every neighbouring dataset (n = 4, random 3 x 3 and 3 x 4)")
def _blanket_vs_exact() -> None:
    from shuffle_spec.reference.randomizers import Randomizer
    from shuffle_spec.reference.shuffling import exact_shuffled_delta

    for seed, (k, m) in enumerate(((3, 3), (3, 4))):
        rows = _random_matrix(seed + 20, k, m)
        randomizer = Randomizer.from_matrix([[str(v) for v in row] for row in rows])
        for eps in (0.05, 0.3):
            exact = float(exact_shuffled_delta(randomizer, 4, math.exp(eps)))
            got = exact_blanket_randomizer_delta(matrix=rows, n=4, eps=eps)
            require(got.upper >= exact * (1 - 1e-12), f"blanket {got} below the exact {exact} (seed {seed}, eps {eps})")


@proof_check(UPPER_ID, "equals BBGN19.Lem5.3.exact_krr on k-RR matrices (k = 3, 5) at n = 200, eps = 0.2 (certified intervals overlap)")
def _equals_krr() -> None:
    from shuffle_spec.reference.bounds.blanket_exact import exact_blanket_krr_delta

    for k in (3, 5):
        e0 = math.exp(1.0)
        d = e0 + k - 1
        rows = [[e0 / d if i == j else 1 / d for j in range(k)] for i in range(k)]
        krr = exact_blanket_krr_delta(eps0=1.0, n=200, k=k, eps=0.2)
        exact_rows = finite_randomizer(rows)
        mine = blanket_pair_delta(exact_rows, 0, 1, n=200, eps=0.2)
        require(mine.lower <= krr.upper * (1 + 1e-9) and krr.lower <= mine.upper * (1 + 1e-9), f"k = {k}: {mine} vs exact_krr {krr}")
        require(len(group_outputs(exact_rows.rows[0], exact_rows.rows[1], exact_rows.column_min())) == 3, "k-RR groups into 3")


# ---------------------------------------------------------------------------------------------------
# The gap


@dataclass
class RandomizerGap:
    """The tightest certified upper bound and the largest certified lower bound for a matrix at (n, delta)."""

    n: int
    delta: float
    eps0: float
    upper_id: str | None = None
    upper_eps: float | None = None
    lower_id: str | None = None
    lower_eps: float | None = None
    pair: dict | None = None
    rows: list[dict] = field(default_factory=list)

    @property
    def ratio(self) -> float | None:
        if self.upper_eps is None or self.lower_eps is None or not self.lower_eps > 0:
            return None
        return self.upper_eps / self.lower_eps

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "delta": self.delta,
            "eps0": self.eps0,
            "upper": None if self.upper_id is None else {"id": self.upper_id, "eps": self.upper_eps},
            "lower": None if self.lower_id is None else {"id": self.lower_id, "eps": self.lower_eps},
            "ratio": self.ratio,
            "pair": self.pair,
            "bounds": self.rows,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "RandomizerGap":
        upper, lower = data.get("upper"), data.get("lower")
        return cls(
            data["n"], data["delta"], data["eps0"],
            None if upper is None else upper["id"], None if upper is None else upper["eps"],
            None if lower is None else lower["id"], None if lower is None else lower["eps"],
            data.get("pair"), list(data.get("bounds", [])),
        )

    def line(self) -> str:
        up = "none valid" if self.upper_id is None else f"{self.upper_eps:.6g} ({self.upper_id})"
        low = "none valid" if self.lower_id is None else f"{self.lower_eps:.6g} ({self.lower_id})"
        ratio = "-" if self.ratio is None else f"{self.ratio:.4f}"
        return f"gap: tightest certified upper {up}, largest certified lower {low}, ratio {ratio}"


def _timed(function: Any, **kwargs: Any) -> tuple[Any, str, float]:
    from shuffle_spec.proofs_checks.sandbox import InProcessTimeout, in_process_time_limit

    start = time.perf_counter()
    try:
        with in_process_time_limit(SECONDS):
            return function(**kwargs), "", time.perf_counter() - start
    except InProcessTimeout:
        return None, f"not computed: over {SECONDS} s", time.perf_counter() - start
    except ValueError as failure:  # ParameterError / HypothesisViolation: outside the supported range
        return None, str(failure), time.perf_counter() - start


def randomizer_gap(
    matrix: object, *, n: int, delta: float, bound_rows: Sequence[dict] = (), exact: dict | None = None, eps0: float | None = None
) -> RandomizerGap:
    """The gap for the finite randomizer `matrix` at (n, delta) (module doc). `bound_rows`: the registered
    bounds already evaluated at its eps0 (`BoundRow.to_json()` dicts, as `audit randomizer` has them);
    `exact`: the enumerated exact central eps ({"eps": ...}) when known. For a matrix
    outside the supported range of the two statements (module doc of reference.bounds.blanket_exact_randomizer):
    then only the registered rows count (the two rows say why)."""
    refused = ""
    try:
        randomizer = finite_randomizer(matrix)
    except ValueError as failure:  # outside the matrix range of the two statements: the registered rows only
        randomizer, refused = None, str(failure)
    gap = RandomizerGap(int(n), float(delta), (randomizer.eps0 if randomizer is not None else math.nan) if eps0 is None else eps0)
    best_up: tuple[float, str] | None = None
    best_low: tuple[float, str] | None = None

    def offer(eps: float | None, statement_id: str, lower: bool) -> None:
        nonlocal best_up, best_low
        if eps is None or not math.isfinite(eps):
            return
        if lower and (best_low is None or eps > best_low[0]):
            best_low = (eps, statement_id)
        if not lower and (best_up is None or eps < best_up[0]):
            best_up = (eps, statement_id)

    if randomizer is None:
        for statement_id, direction in ((UPPER_ID, "upper_bound"), (LOWER_ID, "lower_bound")):
            gap.rows.append({"id": statement_id, "direction": direction, "eps": None, "interval": None, "valid": False, "reason": refused, "seconds": 0.0})
        return _registered(gap, bound_rows, exact, offer, lambda: (best_up, best_low))
    found, reason, seconds = _timed(best_randomizer_pair, matrix=randomizer, n=n, delta=delta)
    value, choice = (None, None) if found is None else found
    lower_row = ({"id": LOWER_ID, "direction": "lower_bound", "eps": None if value is None else value.lower,
                     "interval": None if value is None else [value.lower, value.upper], "valid": value is not None,
                     "reason": reason, "seconds": round(seconds, 3)})
    if choice is not None:
        gap.pair = {**choice.to_json(), "description": choice.describe()}
    offer(None if value is None else value.lower, LOWER_ID, True)
    # The pair first: a little above its eps is where the upper bound's root search starts (verified there).
    hint = 1.25 * value.lower if value is not None and value.lower > 0 else None
    upper, reason, seconds = _timed(exact_blanket_randomizer_epsilon, matrix=randomizer, n=n, delta=delta, hint=hint)
    gap.rows.append({"id": UPPER_ID, "direction": "upper_bound", "eps": None if upper is None else upper.value,
                     "interval": None if upper is None else [upper.lower, upper.upper], "valid": upper is not None,
                     "reason": reason or (upper.note if upper is not None else ""), "seconds": round(seconds, 3)})
    offer(None if upper is None else upper.value, UPPER_ID, False)
    gap.rows.append(lower_row)
    return _registered(gap, bound_rows, exact, offer, lambda: (best_up, best_low))


def _registered(gap: RandomizerGap, bound_rows: Sequence[dict], exact: dict | None, offer: Any, best: Any) -> RandomizerGap:
    """Offer the registered rows and the enumerated exact value, then record the best of each side."""
    from shuffle_spec.reference.rounding import round_down
    from shuffle_spec.spec.registry import get_statement
    from shuffle_spec.spec.statement import Direction

    for row in bound_rows:
        if not row.get("valid") or row.get("eps") is None:
            continue
        try:
            direction = get_statement(row["id"]).direction
        except KeyError:
            continue
        if direction is Direction.UPPER_BOUND:
            offer(float(row["eps"]), row["id"], False)
        elif direction is Direction.LOWER_BOUND:
            interval = row.get("interval")
            offer(float(interval[0]) if interval else float(row["eps"]), row["id"], True)
    if exact is not None and exact.get("eps") is not None and math.isfinite(exact["eps"]):
        if exact.get("interval"):  # a registered certified exact statement (exact.shuffled_binary_rr): both ends
            offer(float(exact["interval"][0]), exact.get("id", "exact"), True)
            offer(float(exact["interval"][1]), exact.get("id", "exact"), False)
        else:
            offer(round_down(float(exact["eps"]), 15), "exact (enumeration)", True)
    best_up, best_low = best()
    if best_up is not None:
        gap.upper_eps, gap.upper_id = best_up
    if best_low is not None:
        gap.lower_eps, gap.lower_id = best_low
    return gap


