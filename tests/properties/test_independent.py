"""Public functions of `reference/` that compute a divergence, a delta or an epsilon, each compared with
an independent computation (mpmath at 40+ digits from the paper's formula, or exact `Fraction`s) at a
point where a wrong constant would show.

Functions registered as a statement's reference with a closed-form `value` and `examples` are already
compared with the SymPy closed form (an independent 30-digit computation) by the generated agreement
checks (`proofs_checks/agreement.py`, run by tests/checks/test_proof_checks.py); this module covers the ones
that have no such comparison. What is compared, and what not yet, is listed in `docs/testing.md` ("Independent computations").
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from shuffle_spec.reference.composition.advanced import (
    advanced_composition_delta,
    advanced_composition_epsilon,
    advanced_composition_per_step_epsilon,
)
from shuffle_spec.reference.bounds.clones import (
    clone_pair_delta,
    clones_delta,
    clones_eps0_for_eps,
    clones_numeric,
    per_count_divergence,
    per_count_divergence_bounds,
)
from shuffle_spec.reference.bounds.erlingsson import erlingsson_eps1
from shuffle_spec.reference.bounds.hoeffding import hoeffding_generic_delta
from shuffle_spec.reference.bounds.stronger_clones import stronger_clones, stronger_clones_delta
from shuffle_spec.reference.finite.distributions import Distribution
from shuffle_spec.reference.finite.divergences import approximate_ldp_epsilon, epsilon_for_delta, ldp_epsilon, min_e_eps_for_delta, safe_log
from shuffle_spec.reference.finite.randomizers import k_randomized_response
from shuffle_spec.reference.finite.shuffling import exact_shuffled_delta
from shuffle_spec.reference.finite.subsampling import subsampled_delta, subsampled_e_eps, subsampled_epsilon

DPS = 50


def mpf(x: float | int | Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else mpmath.mpf(x)


def close_above(got: float, exact: mpmath.mpf, rel: float = 1e-13) -> bool:
    """An upper bound: not below the exact value, and within `rel` of it."""
    return mpf(got) >= exact and mpf(got) <= exact * (1 + mpf(rel)) + mpf(1e-300)


# --- divergences ---------------------------------------------------------------------------------

P3 = {0: Fraction(6, 10), 1: Fraction(3, 10), 2: Fraction(1, 10)}
Q3 = {0: Fraction(1, 10), 1: Fraction(3, 10), 2: Fraction(6, 10)}


def _mp_profile(e: mpmath.mpf) -> mpmath.mpf:
    one = mpmath.fsum(max(mpf(P3[z]) - e * mpf(Q3[z]), 0) for z in P3)
    two = mpmath.fsum(max(mpf(Q3[z]) - e * mpf(P3[z]), 0) for z in P3)
    return max(one, two)


@pytest.mark.parametrize("delta", [Fraction(1, 10), Fraction(3, 10), Fraction(1, 100)])
def test_min_e_eps_and_epsilon_for_delta_match_a_bisection_in_mpmath(delta):
    with mpmath.workdps(DPS):
        low, high = mpmath.mpf(1), mpmath.mpf(6)  # the profile is 0 at the largest ratio 6
        for _ in range(200):
            mid = (low + high) / 2
            low, high = (low, mid) if _mp_profile(mid) <= mpf(delta) else (mid, high)
        got = min_e_eps_for_delta(Distribution(P3), Distribution(Q3), delta)
        assert abs(mpf(got) - high) < mpmath.mpf(10) ** -40
        eps = epsilon_for_delta(Distribution(P3), Distribution(Q3), delta)
        assert close_above(eps, mpmath.log(high))


def test_safe_log_rounds_up():
    # 120 digits: the ratio 1 + 1e-40 keeps 80 significant digits of its excess, so the log is exact enough.
    with mpmath.workdps(120):
        # Huge numerators and denominators (as exact shuffled distributions produce), a ratio near 1, floats.
        huge = (Fraction(3 * 10**400 + 1, 2 * 10**400), Fraction(7 * 10**300 + 3, 10**300 + 1))
        for ratio in (Fraction(7, 3), Fraction(10**40 + 1, 10**40), 2.5, Fraction(3, 1), *huge):
            assert close_above(safe_log(ratio), mpmath.log(mpf(ratio)), 1e-14)


def test_safe_log_of_floats_rounds_up():
    # Round-to-nearest lands below the exact log for about half of all inputs: 200 of them.
    ratios = [1.0 + i / 7.0 + i * 1e-9 for i in range(1, 201)]
    with mpmath.workdps(40):
        below_nearest = sum(mpf(math.log(r)) < mpmath.log(mpf(r)) for r in ratios)
        assert below_nearest > 20  # the test has inputs where rounding matters
        assert all(close_above(safe_log(r), mpmath.log(mpf(r)), 1e-15) for r in ratios)


@pytest.mark.parametrize("k, e", [(2, Fraction(3)), (4, Fraction(5, 2))])
def test_ldp_epsilons_of_krr(k, e):
    randomizer = k_randomized_response(k, e)
    with mpmath.workdps(DPS):
        assert close_above(ldp_epsilon(randomizer), mpmath.log(mpf(e)), 1e-14)
        # (eps, delta)-LDP of k-RR: D_a(R(x) || R(x')) = [e - a]_+/(e + k - 1), so a = e - delta (e + k - 1).
        delta = Fraction(1, 20)
        exact = mpmath.log(mpf(e) - mpf(delta) * (mpf(e) + k - 1))
        assert close_above(approximate_ldp_epsilon(randomizer, delta), exact, 1e-14)


# --- subsampling and composition ---------------------------------------------------------------------


@pytest.mark.parametrize("eps, q", [(0.5, 0.01), (3.0, 0.2), (1e-8, 0.5)])
def test_subsampling_matches_the_formula(eps, q):
    # EFMRTT19 Lemma 4: eps' = log(1 + q (e^eps - 1)), delta' = q delta.
    with mpmath.workdps(DPS):
        assert close_above(subsampled_epsilon(eps=eps, q=q).value, mpmath.log(1 + mpf(q) * mpmath.expm1(mpf(eps))), 1e-15)
        assert close_above(subsampled_delta(delta=1e-5, q=q), mpf(q) * mpf(1e-5), 1e-15)
    assert subsampled_e_eps(Fraction(3), Fraction(1, 4)) == Fraction(3, 2)


@pytest.mark.parametrize("eps, k, delta_prime", [(0.01, 1000, 1e-6), (0.5, 10, 1e-3)])
def test_advanced_composition_matches_the_formula(eps, k, delta_prime):
    # EFMRTT19 Thm 2: eps' = sqrt(2 k log(1/delta')) eps + k eps (e^eps - 1), delta_total = k delta + delta'.
    with mpmath.workdps(DPS):
        exact = mpmath.sqrt(2 * k * mpmath.log(1 / mpf(delta_prime))) * mpf(eps) + k * mpf(eps) * mpmath.expm1(mpf(eps))
        assert close_above(advanced_composition_epsilon(eps=eps, k=k, delta_prime=delta_prime).value, exact, 1e-14)
        assert close_above(advanced_composition_delta(delta=1e-7, k=k, delta_prime=delta_prime), k * mpf(1e-7) + mpf(delta_prime), 1e-14)
        step = advanced_composition_per_step_epsilon(eps=1.0, k=k, delta_prime=delta_prime)
        composed = mpmath.sqrt(2 * k * mpmath.log(1 / mpf(delta_prime))) * mpf(step) + k * mpf(step) * mpmath.expm1(mpf(step))
        assert composed <= 1 and composed > 1 - mpf(1e-9)  # certified and (nearly) the largest


def test_erlingsson_eps1_matches_the_formula():
    # EFMRTT19 Thm 8 (v2): eps1 = 2 e^{2 eps0} (e^eps0 - 1) / n.
    with mpmath.workdps(DPS):
        for eps0, n in ((0.5, 1000), (2.0, 10**6)):
            exact = 2 * mpmath.exp(2 * mpf(eps0)) * mpmath.expm1(mpf(eps0)) / n
            assert close_above(erlingsson_eps1(eps0=eps0, n=n), exact, 1e-15)


def test_hoeffding_generic_delta_matches_the_formula():
    # BBGN19 Thm 5.3 as written in the docstring of hoeffding_generic_delta.
    eps0, eps, n = 1.0, 0.3, 10_000
    with mpmath.workdps(DPS):
        e0, e = mpmath.exp(mpf(eps0)), mpmath.exp(mpf(eps))
        spread = (e0 - 1 / e0) ** 2
        exact = e0 * (e + 1) ** 2 * spread / (4 * n * (e - 1)) * (1 - (1 / e0) * (1 - mpmath.exp(-2 * (e - 1) ** 2 / ((e + 1) ** 2 * spread)))) ** n
        assert close_above(hoeffding_generic_delta(eps=eps, eps0=eps0, n=n), exact, 1e-12)


# --- numeric clone bounds (FMT21 clones, FMT23 stronger clones) ---------------------------------------


def _mp_clone_divergence(c: int, eps0: float, eps: float) -> mpmath.mpf:
    """D_{e^eps}(P_c || Q_c), P_c = A + Delta, Q_c = A + 1 - Delta, A ~ Bin(c, 1/2), Delta ~ Bern(e^eps0/(e^eps0+1))."""
    e0, e = mpmath.exp(mpf(eps0)), mpmath.exp(mpf(eps))
    p = e0 / (e0 + 1)
    b = [mpmath.binomial(c, a) / mpmath.mpf(2) ** c for a in range(c + 1)]
    pmf_p = [(b[y - 1] * p if y >= 1 else 0) + (b[y] * (1 - p) if y <= c else 0) for y in range(c + 2)]
    pmf_q = [(b[y - 1] * (1 - p) if y >= 1 else 0) + (b[y] * p if y <= c else 0) for y in range(c + 2)]
    return mpmath.fsum(max(x - e * z, 0) for x, z in zip(pmf_p, pmf_q, strict=True))


def _mp_clone_delta(n: int, eps0: float, eps: float, q: mpmath.mpf) -> mpmath.mpf:
    """delta(eps) = sum_c Bin(c; n-1, q) D_{e^eps}(P_c || Q_c), over every count (no window, no tail)."""
    return mpmath.fsum(mpmath.binomial(n - 1, c) * q**c * (1 - q) ** (n - 1 - c) * _mp_clone_divergence(c, eps0, eps) for c in range(n))


def test_per_count_divergence_matches_mpmath():
    counts = np.array([0, 1, 2, 7, 30])
    with mpmath.workdps(40):
        exact = [_mp_clone_divergence(int(c), 2.0, 0.5) for c in counts]
    low, up = per_count_divergence_bounds(counts, eps0=2.0, eps=0.5)
    estimate = per_count_divergence(counts, eps0=2.0, eps=0.5)
    for value, lo, hi, est in zip(exact, low, up, estimate, strict=True):
        assert mpf(lo) <= value <= mpf(hi) and abs(mpf(est) - value) <= 1e-12 * value


@pytest.mark.parametrize("kind", ["fmt21", "fmt23"])
@pytest.mark.parametrize("n", [20, 120])
def test_clone_pair_delta_contains_the_full_sum(kind, n):
    eps0, eps = 2.0, 0.5
    with mpmath.workdps(40):
        q = mpmath.exp(-mpf(eps0)) if kind == "fmt21" else 2 / (mpmath.exp(mpf(eps0)) + 1)
        exact = _mp_clone_delta(n, eps0, eps, q)
    for tail in (1e-30, 0.5):  # 0.5: the window drops a large tail mass, which must be added to the upper end
        got = clone_pair_delta(eps0=eps0, n=n, eps=eps, kind=kind, tail=tail)
        assert mpf(got.lower) <= exact <= mpf(got.upper), (tail, got, exact)
    public = clones_delta(eps0=eps0, n=n, eps=eps) if kind == "fmt21" else stronger_clones_delta(eps0=eps0, n=n, eps=eps)
    assert mpf(public.lower) <= exact <= mpf(public.upper) and public.upper - public.lower <= 1e-10 * float(exact)


@pytest.mark.parametrize("kind", ["fmt21", "fmt23"])
def test_clone_epsilon_brackets_the_root_of_the_full_sum(kind):
    eps0, n, delta = 2.0, 60, 1e-2
    got = clones_numeric(eps0=eps0, n=n, delta=delta) if kind == "fmt21" else stronger_clones(eps0=eps0, n=n, delta=delta)
    with mpmath.workdps(30):
        q = mpmath.exp(-mpf(eps0)) if kind == "fmt21" else 2 / (mpmath.exp(mpf(eps0)) + 1)
        # delta(eps) is non-increasing: the exact root lies in [lower, upper] iff delta(upper) <= target < delta(lower).
        assert _mp_clone_delta(n, eps0, got.upper, q) <= delta
        assert got.lower == 0 or _mp_clone_delta(n, eps0, got.lower, q) > delta
    assert 0 < got.lower <= got.upper < eps0


# --- exact shuffled distributions and randomizers -------------------------------------------------------


def _brute_shuffled(rows: dict, dataset: tuple) -> dict:
    """Distribution of the sorted tuple of reports, by enumerating every report vector (no count vectors)."""
    out: dict = {}
    for reports in itertools.product(*(list(rows[x].items()) for x in dataset)):
        key = tuple(sorted(y for y, _ in reports))
        out[key] = out.get(key, Fraction(0)) + math.prod((p for _, p in reports), start=Fraction(1))
    return out


def _brute_profile(p: dict, q: dict, e: Fraction) -> Fraction:
    support = set(p) | set(q)
    one = sum((max(p.get(z, 0) - e * q.get(z, 0), 0) for z in support), Fraction(0))
    two = sum((max(q.get(z, 0) - e * p.get(z, 0), 0) for z in support), Fraction(0))
    return max(one, two)


@pytest.mark.parametrize("k, e_eps0, n", [(2, Fraction(3), 2), (2, Fraction(3), 3), (3, Fraction(2), 2)])
def test_exact_shuffled_delta_is_the_worst_neighbouring_pair(k, e_eps0, n):
    randomizer = k_randomized_response(k, e_eps0)
    rows = {x: dict(randomizer(x).items()) for x in range(k)}
    e = Fraction(3, 2)
    worst = Fraction(0)
    for dataset in itertools.product(range(k), repeat=n):  # every ordered dataset and every one-position change
        for position, other in itertools.product(range(n), range(k)):
            if other != dataset[position]:
                neighbour = dataset[:position] + (other,) + dataset[position + 1 :]
                worst = max(worst, _brute_profile(_brute_shuffled(rows, dataset), _brute_shuffled(rows, neighbour), e))
    assert worst > 0
    assert exact_shuffled_delta(randomizer, n, e) == worst
    # By hand for binary RR (e^eps0 = 3, p = 3/4), n = 2, at e^eps = 2: S ~ Bin(2, 1/4) = (9, 6, 1)/16 vs
    # Bern(1/4) + Bern(3/4) = (3, 10, 3)/16: [9 - 6]_+ / 16 = 3/16 (the other direction gives 1/16).
    if (k, e_eps0, n) == (2, Fraction(3), 2):
        assert exact_shuffled_delta(randomizer, n, Fraction(2)) == Fraction(3, 16)


@pytest.mark.parametrize("k", [2, 3, 7])
@pytest.mark.parametrize("e_eps0", [1.5, math.e, 20.0])
def test_float_krr_probabilities_match_the_formula(k, e_eps0):
    # k-RR keeps x with probability e/(e + k - 1) and reports each other value with 1/(e + k - 1).
    randomizer = k_randomized_response(k, e_eps0)
    with mpmath.workdps(40):
        denominator = mpf(e_eps0) + k - 1
        for x in range(k):
            for y in range(k):
                exact = (mpf(e_eps0) if y == x else mpmath.mpf(1)) / denominator
                assert abs(mpf(randomizer(x)[y]) - exact) <= 4 * mpmath.mpf(2) ** -53 * exact


def test_clones_eps0_for_eps_against_the_full_sum():
    # The largest eps0 whose clone bound gives (eps, delta)-DP: the full mpmath sum holds there and fails
    # a little above (delta_clones(eps) grows with eps0 in this range).
    eps, n, delta = 1.0, 60, 1e-2
    eps0 = clones_eps0_for_eps(eps=eps, n=n, delta=delta)
    assert eps < eps0 < 30
    with mpmath.workdps(30):
        assert _mp_clone_delta(n, eps0, eps, mpmath.exp(-mpf(eps0))) <= delta
        above = eps0 * (1 + 1e-6)
        assert _mp_clone_delta(n, above, eps, mpmath.exp(-mpf(above))) > delta
