"""Bounded memory for the clone bounds and the safe-side tail term of the clone-count window.

The clone-count window is streamed in blocks (shuffle_spec.reference.numerics.binomial.window_blocks): streamed and one-piece
evaluations must certify the same thing; memory per call stays bounded at n = 1e12 (checked in a
subprocess under RLIMIT_AS); above the supported n the call refuses before allocating; and the Chernoff
tail mass that the window drops must be added to delta's upper end (a test that fails without it)."""

import itertools
import os
import subprocess
import sys
import textwrap

import mpmath
import numpy as np
import pytest
from shuffle_spec.reference.numerics.binomial import (
    MAX_WINDOW,
    certified_window,
    certified_window_block,
    probability_pair,
    window_blocks,
    window_edges,
)
from shuffle_spec.reference.bounds.clones import (
    _clone_pair,
    clones_delta,
    clones_numeric,
    solve_epsilon,
    window_tail,
)
from shuffle_spec.reference.bounds.stronger_clones import stronger_clones
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.core.limits import N_MAX_WINDOW
from support.clones_mp import mp_clones_delta, mp_delta_by_walk

from support.paths import ROOT


def mp_pmf(k: int, m: int, p) -> mpmath.mpf:
    return mpmath.exp(mpmath.loggamma(m + 1) - mpmath.loggamma(k + 1) - mpmath.loggamma(m - k + 1) + k * mpmath.log(p) + (m - k) * mpmath.log1p(-p))


@pytest.mark.parametrize("a, b", [(0, 40), (300, 420), (369, 369), (500, 999)])
def test_a_window_block_anywhere_contains_the_mpmath_pmf(a, b):
    # Blocks below, around and above the mode (m p = 367.9), each anchored at its point nearest the mode.
    m, eps0 = 1000, 1.0
    block = certified_window_block(m, probability_pair("fmt21", eps0), a, b)
    with mpmath.workdps(50):
        p = mpmath.exp(-mpmath.mpf(eps0))
        for i in sorted({0, len(block.pmf) // 2, len(block.pmf) - 1}):
            exact = mp_pmf(a + i, m, p)
            assert block.lower[i] <= exact <= block.upper[i], a + i


def test_blocks_cover_the_window_exactly_once():
    edges = window_edges(10**6, probability_pair("fmt23", 0.7), 1e-20)
    ranges = window_blocks(edges, 997)
    assert ranges[0][0] == edges.lo and ranges[-1][1] == edges.hi
    assert all(b - a + 1 <= 997 for a, b in ranges)
    assert all(next_a == b + 1 for (_, b), (next_a, _) in itertools.pairwise(ranges))


@pytest.mark.parametrize("kind, eps0, delta", [("fmt21", 1.0, 1e-6), ("fmt23", 3.0, 1e-8)])
def test_streamed_evaluation_certifies_the_same_value_as_one_piece(kind, eps0, delta):
    n = 10**5
    pair_probability = probability_pair(kind, eps0)
    whole = _clone_pair(eps0, n, pair_probability, window_tail(delta))
    streamed = _clone_pair(eps0, n, pair_probability, window_tail(delta), block=300)
    assert len(window_blocks(streamed.edges, streamed.block)) > 5  # really streamed
    result = solve_epsilon(streamed.delta_bounds, eps0=eps0, delta=delta, guess=streamed.guess_epsilon(delta))
    assert 0 < result.lower < result.upper < eps0 and result.upper - result.lower <= 1e-7 * result.upper
    one_low, one_up = whole.delta_bounds(result.upper)
    low, up = streamed.delta_bounds(result.upper)
    exact = mp_delta_by_walk(kind, n, eps0, result.upper)
    assert low <= exact <= up and one_low <= exact <= one_up
    assert up - low <= 1e-8 * up  # block anchors cost no precision to speak of
    assert whole.delta_bounds(result.lower)[0] > delta  # the one-piece evaluation agrees on the lower end
    # The uncertified estimate is the same whether the window is streamed or not.
    assert abs(streamed.estimate(result.upper) - whole.estimate(result.upper)) <= 1e-9 * whole.estimate(result.upper)


def test_dropped_tail_mass_is_added_to_the_upper_end():
    """With a deliberately wide tail (half the clone-count mass dropped), the window sum
    alone is far below the exact delta; only the certified Chernoff tail term makes the upper end an upper
    bound. Fails if that term is dropped from `_ClonePair.delta_bounds`."""
    n, eps0, eps = 60, 1.0, 0.2
    pair = _clone_pair(eps0, n, probability_pair("fmt21", eps0), 0.5)
    assert pair.edges.lo > 0 and pair.edges.hi < n - 1  # both tails really cut
    with mpmath.workdps(40):
        exact = mp_clones_delta(n, mpmath.mpf(eps0), mpmath.mpf(eps))
    low, up = pair.delta_bounds(eps)
    assert low <= exact <= up
    assert up - pair.edges.dropped < exact  # the window mass alone would not be an upper bound


def test_n_above_the_supported_range_is_refused_before_any_work():
    for n in (10**13, 10**30, 1e30):
        with pytest.raises(ParameterError, match=r"n = .* out of range: expected an integer 1 <= n <= 1e\+12"):
            clones_numeric(eps0=1.0, n=n, delta=1e-6)
        with pytest.raises(ParameterError, match="n = "):
            stronger_clones(eps0=1.0, n=n, delta=1e-6, k=2)
        with pytest.raises(ParameterError, match="n = "):
            clones_delta(eps0=1.0, n=n, eps=0.1)
    assert N_MAX_WINDOW == 10**12


def test_one_piece_window_refuses_beyond_its_maximum_before_allocating():
    pair = probability_pair("fmt21", 0.7)
    edges = window_edges(10**14, pair, 1e-30)
    assert edges.size > MAX_WINDOW
    with pytest.raises(ParameterError, match="binomial window of at most"):
        certified_window(10**14, pair, 1e-30)


MEMORY_LIMIT = 2 * 1024**3

_CHILD = textwrap.dedent(
    """
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    from shuffle_spec.reference.numerics.binomial import window_edges, probability_pair, BLOCK
    from shuffle_spec.reference.bounds.clones import clones_delta, window_tail
    edges = window_edges(10**12 - 1, probability_pair("fmt21", 1.0), window_tail(1e-6))
    assert edges.size > 10 * BLOCK, edges.size  # ~ 100 MB per array in one piece: streamed here
    value = clones_delta(eps0=1.0, n=10**12, eps=2e-7)
    print(value.lower, value.upper, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    """
)


@pytest.mark.slow  # a child process at n = 1e12 (~5 s of CPU); the default tier keeps the streamed-vs-one-piece agreement below
def test_memory_stays_bounded_at_n_1e12():
    """One certified delta evaluation at n = 1e12 (a window of ~1.3e7 clone counts) under a 2 GiB address-
    space limit. In one piece the window and the walk took ~ 200 bytes per count (355 MB resident at n = 1e10,
1.3e6 counts), i.e. ~ 2.5 GB here, beyond the limit; streamed, the peak is ~ 0.3 GB whatever n."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    child = subprocess.run(
        [sys.executable, "-c", _CHILD.format(limit=MEMORY_LIMIT)], check=False, capture_output=True, text=True, env=env, timeout=300, cwd=ROOT
    )
    assert child.returncode == 0, child.stderr[-2000:]
    lower, upper, max_rss_kib = child.stdout.split()
    assert 0 < float(lower) <= float(upper) < 1
    assert int(max_rss_kib) < 3 * 1024**2 // 2  # resident set under 1.5 GiB (typically ~0.3 GB; the 2 GiB address-space limit is the bound)
    assert np.isfinite(float(upper))


def test_a_block_far_in_a_tail_is_capped_by_its_anchor():
    """Streaming at delta = 1e-300 puts whole blocks where the pmf is below the float range; the block is
    then certified as [0, bound at its point nearest the mode] (the pmf is unimodal). This crashed with
    'probability = 0.0' at n = 1e12, delta = 1e-300 before the cap."""
    m, eps0 = 10**6, 1.0
    block = certified_window_block(m, probability_pair("fmt21", eps0), 0, 100)
    with mpmath.workdps(50):
        p = mpmath.exp(-mpmath.mpf(eps0))
        for k in (0, 50, 100):
            assert block.lower[k] == 0 <= mp_pmf(k, m, p) <= block.upper[k]
        assert block.upper[100] < 1e-280


def test_streamed_solution_at_delta_1e_300_agrees_with_one_piece():
    eps0, n, delta = 1.0, 10**5, 1e-300
    pair_probability = probability_pair("fmt21", eps0)
    whole = _clone_pair(eps0, n, pair_probability, window_tail(delta))
    streamed = _clone_pair(eps0, n, pair_probability, window_tail(delta), block=3000)  # one block is capped
    one = solve_epsilon(whole.delta_bounds, eps0=eps0, delta=delta, guess=whole.guess_epsilon(delta))
    got = solve_epsilon(streamed.delta_bounds, eps0=eps0, delta=delta, guess=streamed.guess_epsilon(delta))
    assert got.upper >= one.lower and one.upper >= got.lower  # both contain the exact eps
    assert 0 < got.upper < eps0


def test_certified_evaluations_per_solve_are_bounded():
    """Bounded time: at delta = 1e-300 the certified bracket of delta cannot resolve the
    target (subnormal caps), and the bisection took ~50 evaluations here (hundreds at larger n, minutes at
    n = 1e12). With the budget the solve stops; the interval, both ends verified, contains the unbudgeted one
    (same deterministic sequence of probes, stopped earlier)."""
    eps0, n, delta = 1.0, 10**4, 1e-300
    pair = _clone_pair(eps0, n, probability_pair("fmt23", eps0), window_tail(delta))
    calls = []

    def counted(eps):
        calls.append(eps)
        return pair.delta_bounds(eps)

    free = solve_epsilon(counted, eps0=eps0, delta=delta, guess=pair.guess_epsilon(delta), max_evaluations=10**6)
    unbounded_calls = len(calls)
    calls.clear()
    capped = solve_epsilon(counted, eps0=eps0, delta=delta, guess=pair.guess_epsilon(delta), max_evaluations=20)
    assert unbounded_calls > 20 and len(calls) == 20
    assert capped.lower <= free.lower <= free.upper <= capped.upper
    assert counted(capped.upper)[1] <= delta and (capped.lower == 0 or counted(capped.lower)[0] > delta)
    # The clone bounds set the budget from the window: generous for small windows, bounded work for large.
    import shuffle_spec.reference.bounds.clones as clones_module

    assert clones_module.CERTIFIED_WORK / pair.edges.size >= clones_module.MAX_CERTIFIED_EVALUATIONS
    assert clones_module.CERTIFIED_WORK / 4e7 < clones_module.MIN_CERTIFIED_EVALUATIONS  # n = 1e12, delta = 1e-300
