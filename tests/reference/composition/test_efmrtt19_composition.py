"""EFMRTT19 Thm 2 (advanced composition) and Lemma 4 (amplification by subsampling) on exact
distributions: composed / subsampled exact (eps, delta) never exceed what the statements promise."""

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_spec.reference.composition.advanced import (
    advanced_composition_delta,
    advanced_composition_epsilon,
    advanced_composition_per_step_epsilon,
)
from shuffle_spec.reference.finite.operations import compose_adaptively, compose_randomizers
from shuffle_spec.reference.finite.distributions import Distribution
from shuffle_spec.reference.finite.divergences import is_close, ldp_ratio, min_e_eps_for_delta
from shuffle_spec.reference.finite.randomizers import Randomizer, binary_randomized_response
from shuffle_spec.reference.core.rounding import round_up
from shuffle_spec.reference.finite.subsampling import subsample_mixture, subsampled_delta, subsampled_e_eps, subsampled_epsilon
from support.strategies import distribution_pairs, ldp_randomizers, small_probabilities

DELTA_PRIMES = (Fraction(1, 100), Fraction(1, 10), Fraction(1, 2))


def _log(ratio: Fraction) -> mpmath.mpf:
    with mpmath.workdps(50):
        return mpmath.log(mpmath.mpf(ratio.numerator)) - mpmath.log(mpmath.mpf(ratio.denominator))


def _step_eps(e: Fraction) -> float:
    """A float eps >= log(e): the randomizer is also eps-DP at it, so Thm 2 applies with it."""
    return round_up(float(_log(e)), 2)


def _worst_pair_e_eps(randomizer: Randomizer, delta: Fraction) -> Fraction:
    return max(min_e_eps_for_delta(randomizer(x), randomizer(x2), delta) for x in randomizer.inputs for x2 in randomizer.inputs if x != x2)


def _assert_composition_within_thm2(composed: Randomizer, e: Fraction, k: int, step_delta: Fraction) -> None:
    for delta_prime in DELTA_PRIMES:
        exact = _worst_pair_e_eps(composed, k * step_delta + delta_prime)
        bound = advanced_composition_epsilon(eps=_step_eps(e), k=k, delta_prime=float(delta_prime)).value
        assert _log(exact) <= bound, (k, delta_prime, float(_log(exact)), bound)


@settings(max_examples=15)
@given(st.data())
def test_non_adaptive_composition_of_pure_ldp_randomizers_within_thm2(data):
    # Thm 2 with delta = 0: k randomizers, each log(e)-LDP by construction (strategies.ldp_randomizers).
    first, e = data.draw(ldp_randomizers(max_inputs=2, max_outputs=3))
    k = data.draw(st.integers(2, 3))
    others = [data.draw(ldp_randomizers(max_inputs=2, max_outputs=3, e_eps0=e))[0] for _ in range(k - 1)]
    # The strategy draws the input count independently; keep randomizers over first's inputs.
    others = [r for r in others if set(r.inputs) == set(first.inputs)]
    composed = compose_randomizers(first, *others)
    assert ldp_ratio(first) <= e
    _assert_composition_within_thm2(composed, e, 1 + len(others), Fraction(0))


def _revealing_rr(e: Fraction, delta: Fraction) -> Randomizer:
    """(log e, delta)-DP on {0, 1}: with probability delta output ("reveal", x), else binary RR(e)."""
    rr = binary_randomized_response(e)
    return Randomizer({x: Distribution({**{y: (1 - delta) * p for y, p in rr(x).items()}, ("reveal", x): delta}) for x in (0, 1)})


@pytest.mark.parametrize("e, delta", [(Fraction(3, 2), Fraction(1, 50)), (Fraction(2), Fraction(1, 10)), (Fraction(11, 10), Fraction(1, 200))])
def test_composition_with_per_step_delta_within_thm2(e, delta):
    step = _revealing_rr(e, delta)
    # Its pairs are exactly (log e, delta)-close: the premise of Thm 2.
    assert _worst_pair_e_eps(step, delta) == e
    for k in (2, 3, 4):
        _assert_composition_within_thm2(compose_randomizers(*([step] * k)), e, k, delta)


def _flip(randomizer: Randomizer) -> Randomizer:
    return randomizer.post_process(lambda y: 1 - y)


@pytest.mark.parametrize("e", [Fraction(3, 2), Fraction(3), Fraction(21, 20)])
def test_adaptive_composition_within_thm2(e):
    # The second (and third) randomizer is chosen from the previous outputs ("Moreover A_i may be
    # chosen adaptively"): flip the report, or use a weaker randomized response, depending on them.
    rr, weaker = binary_randomized_response(e), binary_randomized_response(1 + (e - 1) / 2)
    two = compose_adaptively(rr, lambda y1: _flip(rr) if y1 == 1 else weaker)
    assert all(ldp_ratio(r) <= e for r in (rr, weaker, _flip(rr)))
    _assert_composition_within_thm2(two, e, 2, Fraction(0))
    three = compose_adaptively(two, lambda ys: rr if ys[0] == ys[1] else _flip(weaker))
    _assert_composition_within_thm2(three, e, 3, Fraction(0))


def test_thm2_delta_is_k_delta_plus_delta_prime():
    # EFMRTT19 Thm 2: the composed delta is k delta + delta'; upward rounding keeps it above.
    got = advanced_composition_delta(delta=1e-7, k=30, delta_prime=1e-6)
    assert got >= 30 * 1e-7 + 1e-6 and got <= (30 * 1e-7 + 1e-6) * (1 + 1e-12)


@pytest.mark.parametrize("target, k, delta_prime", [(1.0, 10, 1e-5), (0.5, 1000, 1e-9), (3.0, 2, 0.3)])
def test_per_step_inversion_is_certified_and_nearly_tight(target, k, delta_prime):
    step = advanced_composition_per_step_epsilon(eps=target, k=k, delta_prime=delta_prime)
    assert advanced_composition_epsilon(eps=step, k=k, delta_prime=delta_prime).value <= target
    assert advanced_composition_epsilon(eps=step * (1 + 1e-8), k=k, delta_prime=delta_prime).value > target


@pytest.mark.parametrize("eps, k, delta_prime", [(0.1, 10, 1e-5), (1.0, 3, 0.5), (0.01, 10_000, 1e-9)])
def test_thm2_epsilon_is_rounded_up_from_the_closed_form(eps, k, delta_prime):
    with mpmath.workdps(60):
        e = mpmath.mpf(eps)
        exact = mpmath.sqrt(2 * k * mpmath.log(1 / mpmath.mpf(delta_prime))) * e + k * e * mpmath.expm1(e)
        result = advanced_composition_epsilon(eps=eps, k=k, delta_prime=delta_prime)
        got = result.value
        assert result.direction == "upper_bound" and got == result.upper
        assert result.lower <= exact <= got <= exact * (1 + 1e-15)


# ---------------------------------------------------------------- Lemma 4 (subsampling)


@settings(max_examples=60)
@given(distribution_pairs(max_size=4, full_support=True), small_probabilities, st.sampled_from([Fraction(0), Fraction(1, 20), Fraction(1, 5)]))
def test_subsampled_mixture_is_close_with_lemma4_parameters(pair, q, delta):
    mu0, mu1 = pair
    e = min_e_eps_for_delta(mu1, mu0, delta)  # mu1 ~(log e, delta) mu0, exactly the smallest such e
    mu = subsample_mixture(mu0, mu1, q)
    assert is_close(mu, mu0, subsampled_e_eps(e, q), q * delta)


@settings(max_examples=40)
@given(distribution_pairs(max_size=4, full_support=True), small_probabilities)
def test_lemma4_multiplier_is_attained_in_the_forward_direction(pair, q):
    # With delta = 0 the largest ratio mu(z)/mu0(z) is 1 + q (r - 1), r the largest mu1(z)/mu0(z):
    # Lemma 4's eps is tight in that direction (so the test above could fail for a smaller eps').
    mu0, mu1 = pair
    r = max(mu1[z] / mu0[z] for z in mu0)
    mu = subsample_mixture(mu0, mu1, q)
    assert max(mu[z] / mu0[z] for z in mu0) == subsampled_e_eps(max(r, 1), q) or r < 1


@pytest.mark.parametrize("eps, q", [(1.0, 0.1), (0.5, 1.0), (3.0, 1e-3), (1e-8, 0.5), (20.0, 1e-6)])
def test_subsampled_epsilon_is_an_upper_bound_of_log1p(eps, q):
    with mpmath.workdps(60):
        exact = mpmath.log1p(mpmath.mpf(q) * mpmath.expm1(mpmath.mpf(eps)))
        result = subsampled_epsilon(eps=eps, q=q)
        got = result.value
        assert result.direction == "upper_bound" and got == result.upper
        assert result.lower <= exact <= got <= exact * (1 + 1e-15)
    # log(1 + q(e^eps - 1)) <= min(eps, q (e^eps - 1)).
    assert got <= round_up(eps, 1)
    assert subsampled_delta(delta=0.5, q=q) >= 0.5 * q
