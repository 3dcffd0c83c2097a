"""`krr_pair_delta(..., tail=, per_sd=)` and `krr_pair_x0_chernoff_delta`: a larger tail and fewer grid rows (what the x0 test of `interface/tightest.py`
uses: 1e-4 delta / e^eps0 and one row per sd) still give a certified interval of the same divergence: it contains the
exact divergence of the shuffled pair (full enumeration, small n) and meets the default evaluation's interval."""

import math

import pytest

from shuffle_spec.reference.finite.divergences import hockey_stick_divergence
from shuffle_spec.reference.finite.randomizers import k_randomized_response
from shuffle_spec.reference.finite.shuffling import shuffled_distribution
from shuffle_spec.reference.lower_bounds.krr import krr_pair_delta, krr_pair_x0_chernoff_delta

REL = 1e-11  # float rounding of the enumerated reference itself


@pytest.mark.parametrize(("k", "n", "eps0", "eps"), [(3, 6, 1.0, 0.3), (4, 5, 2.0, 0.5), (5, 5, 0.5, 0.05), (3, 6, 4.0, 1.0)])
def test_the_coarse_x0_interval_contains_the_enumerated_divergence(k, n, eps0, eps):
    randomizer = k_randomized_response(k, math.exp(eps0))
    p = shuffled_distribution(randomizer, [0] * (n - 1) + [0])
    q = shuffled_distribution(randomizer, [0] * (n - 1) + [1])
    exact = max(hockey_stick_divergence(p, q, math.exp(eps)), hockey_stick_divergence(q, p, math.exp(eps)))
    coarse = krr_pair_delta(eps0=eps0, n=n, k=k, eps=eps, pair="x0", tail=1e-4 * 1e-3 / math.exp(eps0), per_sd=1)
    assert coarse.lower * (1 - REL) <= exact <= coarse.upper * (1 + REL), (exact, coarse)


@pytest.mark.parametrize(("k", "eps0", "n", "eps", "delta"), [(10, 1.0, 10**6, 0.0019, 1e-6), (100, 4.0, 10**5, 0.08, 1e-9), (3, 0.5, 10**5, 0.004, 1e-6)])
def test_the_coarse_x0_interval_meets_the_default_one_at_large_n(k, eps0, n, eps, delta):
    """Grids of many rows (n = 1e5-1e6): both are certified intervals of the same divergence, so they meet; the
    coarse upper end is above the divergence's lower end and at most 1e-4 delta plus the blocking slack above it."""
    default = krr_pair_delta(eps0=eps0, n=n, k=k, eps=eps, pair="x0", delta_hint=delta, sharp_lower=False)
    sharp = krr_pair_delta(eps0=eps0, n=n, k=k, eps=eps, pair="x0", delta_hint=delta)
    coarse = krr_pair_delta(eps0=eps0, n=n, k=k, eps=eps, pair="x0", delta_hint=delta, sharp_lower=False, tail=1e-4 * delta / math.exp(eps0), per_sd=1)
    assert sharp.upper == default.upper and sharp.lower > 0
    assert sharp.lower <= coarse.upper and coarse.lower <= sharp.upper
    assert coarse.upper <= sharp.upper * 1.01 + 1e-4 * delta, (coarse, sharp)


# The x0 pair's Chernoff bound (`krr_pair_x0_chernoff_delta`), tried first by the x0 test of `interface/tightest.py`.


@pytest.mark.parametrize(("k", "n", "eps0", "eps"), [(3, 6, 1.0, 0.3), (4, 5, 2.0, 0.5), (5, 5, 0.5, 0.05), (3, 6, 4.0, 1.0), (2, 6, 1.0, 0.2),
                                                   # large eps0: a coefficient ~e^eps0 put the tilt search's upper end
                                                   # below its lower end (an OverflowError traceback)
                                                   (2, 2, 50.0, 0.0), (3, 3, 48.0, 1.0)])
def test_the_chernoff_bound_is_above_the_enumerated_divergence(k, n, eps0, eps):
    randomizer = k_randomized_response(k, math.exp(eps0))
    p = shuffled_distribution(randomizer, [0] * (n - 1) + [0])
    q = shuffled_distribution(randomizer, [0] * (n - 1) + [1])
    exact = max(hockey_stick_divergence(p, q, math.exp(eps)), hockey_stick_divergence(q, p, math.exp(eps)))
    bound = krr_pair_x0_chernoff_delta(eps0=eps0, n=n, k=k, eps=eps)
    assert exact * (1 - REL) <= bound <= 1.0, (exact, bound)


# (k, eps0, n, eps, delta): the largest lower ends in hand at points of benchmarks/tightest_speed.py's grid (n = 1e8: the
# lattice sums take 0.05-0.15 s there) and two at n = 1e4-1e6.
LARGE = [
    (100, 0.5, 10**8, 7.792373811677477e-06, 1e-6), (10, 8.0, 10**4, 6.987080289590278, 1e-6), (3, 1.0, 10**6, 0.003, 1e-6),
    pytest.param(10, 1.0, 10**8, 0.00012809804761571987, 1e-6, marks=pytest.mark.slow),  # 0.5-0.7 s each
    pytest.param(10, 4.0, 10**8, 0.004195516583092594, 1e-9, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("k", "eps0", "n", "eps", "delta"), LARGE)
def test_the_chernoff_bound_is_above_the_lattice_interval_and_not_far(k, eps0, n, eps, delta):
    """Above the certified lower end of the pair's delta (the lattice sums), and within 10x of its upper end."""
    lattice = krr_pair_delta(eps0=eps0, n=n, k=k, eps=eps, pair="x0", delta_hint=delta)
    bound = krr_pair_x0_chernoff_delta(eps0=eps0, n=n, k=k, eps=eps)
    assert lattice.lower <= bound <= 10 * lattice.upper, (lattice, bound)
    assert krr_pair_x0_chernoff_delta(eps0=eps0, n=n, k=k, eps=eps0) == 0.0  # X <= 0 at eps = eps0
