"""Tests that kill the planted bugs a mutation run found undetected.

Each test names the mutant it kills (see `tools/mutate.py`, which plants them and reruns these tests).
Expected values come from the formula they check or from an independent computation (mpmath at 50
digits, or exact `Fraction`s), never from the code under test.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from shuffle_spec.reference.bounds.clones import solve_epsilon
from shuffle_spec.reference.bounds.stronger_clones import is_in_stronger_clone_class, stronger_clone_probabilities
from shuffle_spec.reference.finite.closeness import triangle_parameters
from shuffle_spec.reference.finite.distributions import Distribution
from shuffle_spec.reference.finite.divergences import delta_for_epsilon, is_close, privacy_profile
from shuffle_spec.reference.finite.randomizers import k_randomized_response


@pytest.fixture(autouse=True)
def _fifty_digits():
    """This module's mpmath computations run at 50 digits; the precision is restored after each test."""
    with mpmath.workdps(50):
        yield


def _mp_privacy_profile(p: dict, q: dict, eps: float) -> mpmath.mpf:
    """max of the two hockey-stick divergences sum_z [P(z) - e^eps Q(z)]_+, in mpmath (50 digits)."""
    e = mpmath.exp(mpmath.mpf(eps))

    def mp(value: Fraction) -> mpmath.mpf:
        return mpmath.mpf(value.numerator) / value.denominator

    def one_way(a: dict, b: dict) -> mpmath.mpf:
        return mpmath.fsum(max(mp(a.get(z, Fraction(0))) - e * mp(b.get(z, Fraction(0))), 0) for z in set(a) | set(b))

    return max(one_way(p, q), one_way(q, p))


# Mutant div.half_eps: delta_for_epsilon computing privacy_profile(p, q, exp(eps / 2)).
@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 1.7])
def test_delta_for_epsilon_matches_an_independent_hockey_stick_sum(eps):
    p = {"a": Fraction(6, 10), "b": Fraction(3, 10), "c": Fraction(1, 10)}
    q = {"a": Fraction(1, 10), "b": Fraction(3, 10), "c": Fraction(6, 10)}
    expected = _mp_privacy_profile(p, q, eps)
    assert expected > 0  # a point where the multiplier matters: delta(eps) > 0 and strictly decreasing
    got = delta_for_epsilon(Distribution(p), Distribution(q), eps)
    assert abs(got - float(expected)) <= 1e-14 * float(expected)
    # The factor matters at this point: the profile at e^{eps/2} differs by far more than the tolerance.
    assert abs(float(_mp_privacy_profile(p, q, eps / 2)) - float(expected)) > 1e-3


def test_privacy_profile_is_exact_at_a_rational_multiplier():
    p = Distribution({0: Fraction(6, 10), 1: Fraction(3, 10), 2: Fraction(1, 10)})
    q = Distribution({0: Fraction(1, 10), 1: Fraction(3, 10), 2: Fraction(6, 10)})
    # By hand: [6/10 - 2 * 1/10]_+ + [3/10 - 2 * 3/10]_+ + [1/10 - 2 * 6/10]_+ = 4/10 (same both ways by symmetry).
    assert privacy_profile(p, q, Fraction(2)) == Fraction(4, 10)


# Mutant cl.accept_up: solve_epsilon accepting the upper end when delta's *lower* bracket end is within the target.
def _wide_brackets(eps0: float):
    """A non-increasing delta(eps) = (1 - eps/eps0)^3 / 2 with deliberately wide certified brackets
    [delta/2, min(2 delta, 1)] (a correct solver must still return an eps whose whole bracket is <= target)."""

    def bounds(eps: float) -> tuple[float, float]:
        value = (1 - min(eps, eps0) / eps0) ** 3 / 2
        return value / 2, min(2 * value, 1.0)

    return bounds


@pytest.mark.parametrize("guess", [None, 0.9, 1.3])
@pytest.mark.parametrize("delta", [0.05, 1e-4])
def test_solve_epsilon_certifies_the_whole_delta_bracket(delta, guess):
    eps0 = 3.0
    bounds = _wide_brackets(eps0)
    result = solve_epsilon(bounds, eps0=eps0, delta=delta, guess=guess)
    assert bounds(result.upper)[1] <= delta, f"upper {result.upper}: bracket {bounds(result.upper)} not within {delta}"
    assert result.lower == 0 or bounds(result.lower)[0] > delta
    # Exact eps for the three possible brackets: the certified interval contains the true root of the
    # pessimistic end (2 delta(eps) = target) and lies above the optimistic one's (delta(eps)/2 = target).
    pessimistic_root = eps0 * (1 - (delta) ** (1 / 3))
    assert result.lower <= pessimistic_root <= result.upper * (1 + 1e-12)


# Mutant sc.weight: stronger_clone_probabilities returning 2/(e^eps0 + 2).
@pytest.mark.parametrize("eps0", [1e-6, 0.1, 1.0, 2.5, 10.0, 40.0, 700.0])
def test_stronger_clone_probabilities_match_the_formula(eps0):
    q, rest = stronger_clone_probabilities(eps0)
    exact_q = 2 / (mpmath.exp(mpmath.mpf(eps0)) + 1)
    assert abs(mpmath.mpf(q) - exact_q) <= mpmath.mpf(2) ** -50 * exact_q  # a few ulps of a double
    assert abs(mpmath.mpf(rest) - (1 - exact_q)) <= mpmath.mpf(2) ** -50 * (1 - exact_q)


@pytest.mark.parametrize("k", [2, 3, 5])
@pytest.mark.parametrize("e_eps0", [Fraction(2), Fraction(7, 2), Fraction(20)])
def test_stronger_clone_probability_is_the_kRR_decomposition_weight(k, e_eps0):
    # FMT23 (errata class): R(x) = (q/2)(R(x0) + R(x1)) + (1 - q) LO(x) with q = 2/(e^eps0 + 1). For k-RR
    # the weight is exactly the largest possible: LO(x)(x0) = 0 for x != x0, x1 (k >= 3), i.e.
    # R(x)(x0) = (q/2)(R(x0)(x0) + R(x1)(x0)); and LO(x) >= 0 with total mass 1 - q.
    randomizer = k_randomized_response(k, e_eps0)
    assert is_in_stronger_clone_class(randomizer, e_eps0)
    q_exact = Fraction(2) / (e_eps0 + 1)
    q, rest = stronger_clone_probabilities(math.log(e_eps0))
    assert abs(q - float(q_exact)) <= 1e-15 * float(q_exact) and abs(rest - float(1 - q_exact)) <= 1e-15
    x0, x1 = 0, 1
    for x in range(k):
        leftover = {y: randomizer(x)[y] - q_exact / 2 * (randomizer(x0)[y] + randomizer(x1)[y]) for y in range(k)}
        assert all(v >= 0 for v in leftover.values()) and sum(leftover.values()) == 1 - q_exact
        if x not in (x0, x1):
            assert leftover[x0] == 0  # tight: a larger clone weight would make LO(x) negative
            # The float q from the public function reproduces the tight identity to rounding.
            assert abs(float(randomizer(x)[x0]) - q / 2 * float(randomizer(x0)[x0] + randomizer(x1)[x0])) <= 1e-15


# EFMRTT19 Lemma 3's triangle inequality returning max(eps1, eps2) instead of eps1 + eps2.
def test_triangle_parameters_add_the_epsilons():
    eps, delta = triangle_parameters(0.3, 0.01, 0.2, 0.02)
    assert eps == 0.3 + 0.2
    assert delta == 0.01 + math.exp(0.3) * 0.02


def test_triangle_parameters_are_needed_and_sufficient_on_exact_distributions():
    # P, Q, R on {0, 1}: P and Q are (log 3/2, 0)-close both ways, so are Q and R; P and R have
    # likelihood ratios 2 and 1/2, so they are (log 2, 0)-close and not (log 3/2, 0)-close.
    p = Distribution({0: Fraction(2, 3), 1: Fraction(1, 3)})
    q = Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)})
    r = Distribution({0: Fraction(1, 3), 1: Fraction(2, 3)})
    e1 = e2 = Fraction(3, 2)
    assert is_close(p, q, e1, 0) and is_close(q, r, e2, 0)
    eps, delta = triangle_parameters(math.log(e1), 0.0, math.log(e2), 0.0)
    assert delta == 0 and abs(eps - math.log(Fraction(9, 4))) <= 1e-15
    assert is_close(p, r, e1 * e2, 0)  # what the lemma promises holds
    assert not is_close(p, r, max(e1, e2), 0)  # max(eps1, eps2) would claim what is false


def test_every_mutant_of_the_mutation_table_still_finds_its_line():
    """A refactor that moves or rewrites a mutant's line must re-point the mutant (`tools/mutate.py`):
    otherwise the mutation run reports it as unrunnable and the kill rate silently loses it."""
    import importlib.util
    import sys

    from support.paths import ROOT

    spec = importlib.util.spec_from_file_location("mutate", ROOT / "tools" / "mutate.py")
    assert spec is not None and spec.loader is not None
    mutate = importlib.util.module_from_spec(spec)
    sys.modules["mutate"] = mutate  # its dataclasses look their module up by name
    try:
        spec.loader.exec_module(mutate)
    finally:
        del sys.modules["mutate"]
    assert len(mutate.MUTANTS) >= 47
    assert mutate.check_mutants(mutate.MUTANTS) == []
    planted = mutate.Mutant("planted", "reference/core/rounding.py", "no such line anywhere", "x", ())
    assert mutate.check_mutants((planted,)) != []
