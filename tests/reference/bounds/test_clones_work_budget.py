"""The clone bounds' certified search has a work budget that holds across the whole supported range.

FMT21.clones_numeric and FMT23.stronger_clones (`reference.bounds.clones.clone_pair_epsilon`) walk every count
of the clone-count window once per certified delta evaluation. At delta = 1e-300 the certified bracket of
delta cannot resolve the target and the search takes every evaluation its budget allows; a floor of 24
evaluations over the largest windows of the range (n = 1e12, eps0 near 1: 4.2e7 counts, about 3 s an
evaluation) let one call run for minutes. These tests count work, never time: speed is measured by
`benchmarks/corners.py`."""

import math

import pytest
import shuffle_spec.reference.bounds.clones as clones
from shuffle_spec.reference.bounds.clones import _clone_pair, clone_pair_epsilon, window_tail
from shuffle_spec.reference.numerics.binomial import probability_pair, window_edges

# About 0.1 us of CPU a count walked where the walk needs no fresh anchors (measured: 3 s an evaluation of a
# 3.7e7-count window): 1.6e8 counts keep the certified part of any solve near a quarter of a minute.
WORK_CEILING = 1.6e8


@pytest.mark.parametrize("kind", ["fmt21", "fmt23"])
def test_largest_windows_of_the_range_get_a_bounded_number_of_evaluations(kind):
    """The largest windows the range allows (n = 1e12, delta = 1e-300, the clone probability near 1/2 where
    the binomial's variance peaks) and a few around them: evaluations allowed times counts per evaluation stays
    under WORK_CEILING; and the small windows of ordinary points keep the search's own limit."""
    for eps0 in (0.5, math.log(2.0), 1.0, math.log(3.0)):
        for n, delta in ((10**12, 1e-300), (10**12, 1e-100), (10**11, 1e-300), (10**12, 1e-9)):
            size = window_edges(n - 1, probability_pair(kind, eps0), window_tail(delta)).size
            assert clones.certified_evaluation_budget(size) * size <= WORK_CEILING, (eps0, n, delta, size)
    small = window_edges(10**6 - 1, probability_pair(kind, 1.0), window_tail(1e-300)).size
    assert clones.certified_evaluation_budget(small) == clones.MAX_CERTIFIED_EVALUATIONS


def test_a_solve_stopped_by_its_budget_says_so_and_contains_the_free_one(monkeypatch):
    """At eps0 = 1, n = 1e4, delta = 1e-300 the search needs dozens of evaluations; a budget of 6 stops it.
    The answer keeps both ends verified, contains the unbudgeted interval, and its note says the budget was
    reached (it said nothing: the user saw a wide interval with no reason)."""
    eps0, n, delta = 1.0, 10**4, 1e-300
    pair = _clone_pair(eps0, n, probability_pair("fmt21", eps0), window_tail(delta))
    free = clone_pair_epsilon(eps0, n, delta, "fmt21")  # dozens of evaluations, far below its budget: no note
    assert free.note == ""
    monkeypatch.setattr(clones, "CERTIFIED_WORK", 6 * pair.edges.size)
    monkeypatch.setattr(clones, "MIN_CERTIFIED_EVALUATIONS", 1)
    stopped = clone_pair_epsilon(eps0, n, delta, "fmt21")
    assert stopped.lower <= free.lower <= free.upper <= stopped.upper
    assert stopped.upper - stopped.lower > clones.EPS_REL_TOL * stopped.upper
    assert pair.delta_bounds(stopped.upper)[1] <= delta
    assert "work budget" in stopped.note and "wider than the search tolerance" in stopped.note

def test_the_guess_stops_at_its_work_budget(monkeypatch):
    """The uncertified guess (`_ClonePair.guess_epsilon`) costs one pass over the window per estimate; at n = 1e12,
    delta = 1e-300 it made 38 estimates (20 s) for a root the 3 certified evaluations allowed there cannot use.
    With GUESS_WORK counts at most, it stops and returns None (no guess: the certified search brackets)."""
    eps0, n, delta = 1.0, 10**4, 1e-300
    pair = _clone_pair(eps0, n, probability_pair("fmt21", eps0), window_tail(delta))
    calls = []
    plain = clones._ClonePair.estimate

    def counted(self, eps):
        calls.append(eps)
        return plain(self, eps)

    monkeypatch.setattr(clones._ClonePair, "estimate", counted)
    free = pair.guess_epsilon(delta)
    assert len(calls) > 2
    monkeypatch.setattr(clones, "GUESS_WORK", 2 * pair.edges.size)
    calls.clear()
    assert pair.guess_epsilon(delta) is None and len(calls) == 2
    # The same budget is counted afresh by every guess; a larger one gives the free guess, the same float.
    monkeypatch.setattr(clones, "GUESS_WORK", (len(calls) + 100) * pair.edges.size)
    calls.clear()
    assert pair.guess_epsilon(delta) == free


def test_largest_windows_get_a_few_estimates_and_small_ones_many():
    """Estimates allowed: at the largest windows (4.2e7 counts) a handful; at n = 1e12, delta = 1e-9 (1.2e7
    counts) more than the 7 its guess takes; at windows of up to 1e6 counts (n <= 1e9) at least 100."""
    largest = window_edges(10**12 - 1, probability_pair("fmt21", 1.0), window_tail(1e-300)).size
    assert 1 <= clones.GUESS_WORK // largest <= 5
    assert clones.GUESS_WORK // window_edges(10**12 - 1, probability_pair("fmt21", 1.0), window_tail(1e-9)).size >= 14
    assert clones.GUESS_WORK // 10**6 >= 100
