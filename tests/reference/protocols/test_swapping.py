"""EFMRTT19 Sec. 4: Algs 3-5 and Cor 9's algorithm on exact output distributions; Thm 8 (swapping, at
index 1) and Thm 7 (shuffling) checked against the exact privacy of small instances with binary
randomizers, fixed and adaptive; the reduction of Thm 7 to Thm 8 checked as an identity of laws."""

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from shuffle_spec.reference.bounds.erlingsson import erlingsson_v2_epsilon, swapping_v2_epsilon
from shuffle_spec.reference.finite.operations import mixture
from shuffle_spec.reference.finite.divergences import min_e_eps_for_delta
from shuffle_spec.reference.protocols.swapping import (
    fixed_randomizers,
    index_neighbour_laws,
    local_responses,
    local_responses_distribution,
    protocol_ldp_ratio,
    shuffled_reports,
    shuffled_reports_distribution,
    shuffled_responses,
    shuffled_responses_distribution,
    swapped_responses,
    swapped_responses_distribution,
)
from shuffle_spec.reference.finite.randomizers import binary_randomized_response, k_randomized_response
from shuffle_spec.reference.core.rounding import round_up
from shuffle_spec.reference.finite.shuffling import exact_shuffled_e_eps

DELTAS = (Fraction(1, 1000), Fraction(1, 100), Fraction(1, 10), Fraction(1, 2), Fraction(9, 10))


def _log(ratio) -> float:
    with mpmath.workdps(50):
        return float(mpmath.log(mpmath.mpf(ratio.numerator)) - mpmath.log(mpmath.mpf(ratio.denominator)))


def _eps0(e: Fraction) -> float:
    """A float eps0 >= log(e): the protocol satisfies (H) with it as well."""
    return round_up(_log(e), 2)


def adaptive_binary(e: Fraction):
    """A^(i)(z_{1:i-1}, .): randomized response whose orientation follows the parity of the previous
    outputs and whose strength 1 + (e - 1)/i weakens with i; every step is log(e)-LDP."""
    rr = {i: binary_randomized_response(1 + (e - 1) / i) for i in range(1, 12)}
    flipped = {i: r.post_process(lambda y: 1 - y) for i, r in rr.items()}
    return lambda i, prefix: flipped[i] if sum(prefix) % 2 else rr[i]


PROTOCOLS = {
    "rr3": (Fraction(3), lambda e: fixed_randomizers(binary_randomized_response(e))),
    "rr11/10": (Fraction(11, 10), lambda e: fixed_randomizers(binary_randomized_response(e))),
    "adaptive2": (Fraction(2), adaptive_binary),
}


def test_distributions_are_exact_and_algorithms_have_the_stated_structure():
    e = Fraction(2)
    protocol = adaptive_binary(e)
    data = (0, 1, 1)
    for law in (local_responses_distribution, shuffled_responses_distribution, swapped_responses_distribution, shuffled_reports_distribution):
        dist = law(data, protocol)
        assert dist.is_exact and sum(dist.values()) == 1
    # Alg. 5 is the mixture over I of Alg. 3 on the swapped data; I = 1 leaves the data unchanged.
    assert swapped_responses_distribution(data, protocol) == mixture(
        [(Fraction(1, 3), local_responses_distribution(d, protocol)) for d in [(0, 1, 1), (1, 0, 1), (1, 1, 0)]]
    )
    assert protocol_ldp_ratio(protocol, 5) == e  # hypothesis (H) with eps0 = log(e)


@pytest.mark.parametrize("name", sorted(PROTOCOLS))
@pytest.mark.parametrize("n", [3, pytest.param(4, marks=pytest.mark.slow)])  # n = 4: 1-1.5 s each; n = 3 stays in the default tier
def test_thm7_reduction_to_thm8_is_an_identity_of_laws(name, n):
    # Proof of Thm 7: move x_i first, place the rest by a uniform injection pi*, then run A_swap;
    # over pi* this is distributed exactly as A_sl (Alg. 4).
    e, make = PROTOCOLS[name]
    protocol = make(e)
    for data in itertools.product((0, 1), repeat=n):
        target = shuffled_responses_distribution(data, protocol)
        for i in range(n):
            others = [j for j in range(n) if j != i]
            injections = list(itertools.permutations(others))
            moved = [(data[i],) + tuple(data[j] for j in order) for order in injections]
            composed = mixture([(Fraction(1, len(moved)), swapped_responses_distribution(d, protocol)) for d in moved])
            assert composed == target


@pytest.mark.parametrize("e", [Fraction(3), Fraction(3, 2)])
@pytest.mark.parametrize("n", [2, 3])
def test_cor9_shuffled_reports_equal_shuffled_data_for_one_randomizer(e, n):
    # Sec. 4.1: with one fixed randomizer, shuffling the responses equals shuffling the data first;
    # and the exact privacy of Alg. 4 equals the shuffle model's (shuffle_spec.reference.finite.shuffling, count vectors).
    randomizer = k_randomized_response(3, e)
    protocol = fixed_randomizers(randomizer)
    for data in itertools.product(range(3), repeat=n):
        assert shuffled_reports_distribution(data, protocol) == shuffled_responses_distribution(data, protocol)
    for delta in (Fraction(0), Fraction(1, 10)):
        pairs = index_neighbour_laws(shuffled_responses_distribution, protocol, range(3), n)
        assert max(min_e_eps_for_delta(p, q, delta) for p, q in pairs) == exact_shuffled_e_eps(randomizer, n, delta)


@pytest.mark.parametrize("name", sorted(PROTOCOLS))
@pytest.mark.parametrize("n", [2, 3, 4, 5, pytest.param(6, marks=pytest.mark.slow)])  # n = 6: 1.3-1.8 s each; n <= 5 in the default tier
def test_thm8_v2_bounds_the_exact_swapping_epsilon_at_index_1(name, n):
    e, make = PROTOCOLS[name]
    protocol = make(e)
    assert protocol_ldp_ratio(protocol, n) <= e  # (H) holds with eps0 = log(e)
    pairs = index_neighbour_laws(swapped_responses_distribution, protocol, (0, 1), n, index=1)
    eps0 = _eps0(e)
    for delta in DELTAS:
        exact = max(min_e_eps_for_delta(p, q, delta) for p, q in pairs)
        assert _log(exact) <= swapping_v2_epsilon(eps0=eps0, n=n, delta=float(delta)).value, (n, delta)
        assert _log(exact) <= eps0  # one report carries x_1: never worse than local privacy
    # Swapping does amplify: at index 1 the exact eps at delta = 1/1000 is below eps0 for n >= 3.
    if n >= 3:
        assert _log(max(min_e_eps_for_delta(p, q, Fraction(1, 1000)) for p, q in pairs)) < _log(e)


@pytest.mark.parametrize("name", sorted(PROTOCOLS))
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_thm7_v2_bounds_the_exact_shuffling_epsilon_at_every_index(name, n):
    e, make = PROTOCOLS[name]
    protocol = make(e)
    eps0 = _eps0(e)
    for index in sorted({1, n}):
        pairs = index_neighbour_laws(shuffled_responses_distribution, protocol, (0, 1), n, index=index)
        for delta in DELTAS:
            exact = max(min_e_eps_for_delta(p, q, delta) for p, q in pairs)
            assert _log(exact) <= erlingsson_v2_epsilon(eps0=eps0, n=n, delta=float(delta)).value, (n, index, delta)


@pytest.mark.parametrize(
    "sampler, law",
    [
        (local_responses, local_responses_distribution),
        (shuffled_responses, shuffled_responses_distribution),
        (swapped_responses, swapped_responses_distribution),
        (shuffled_reports, shuffled_reports_distribution),
    ],
)
def test_samplers_follow_their_exact_laws(sampler, law):
    protocol = adaptive_binary(Fraction(3))
    data = (0, 1, 1)
    exact = law(data, protocol)
    rng = np.random.default_rng(8)
    runs = 4000
    counts: dict = {}
    for _ in range(runs):
        z = sampler(data, protocol, rng)
        counts[z] = counts.get(z, 0) + 1
    assert set(counts) <= set(exact.support)
    for z, p in exact.items():
        p = float(p)
        assert abs(counts.get(z, 0) / runs - p) <= 5 * math.sqrt(p * (1 - p) / runs)
