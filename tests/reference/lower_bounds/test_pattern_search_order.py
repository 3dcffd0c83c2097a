"""The pattern lower bound's search order (`pattern_pair_epsilon` on a 3 x 8 pattern matrix: the third-bit
partitions and the likeliest contiguous merges first, by their saddlepoint roots, then the other contiguous merges
behind the exact screens). The candidates and their certified checks are those of the previous order
(`best_randomizer_pair`'s contiguous merges, then the third-bit partitions), so the result is the largest certified
lower end over the same candidates: equal to the previous order's up to the search tolerance EPS_REL_TOL of
near-tied candidates. The previous order's value is recomputed here from the public pieces: the maximum of
`best_randomizer_pair`'s lower end and every third-bit partition's solved lower end (each a certified lower bound,
exact.randomizer_pair)."""

from __future__ import annotations

import itertools

import pytest

from shuffle_spec.reference.bounds.blanket_exact_randomizer import EPS_REL_TOL, finite_randomizer
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.lower_bounds.randomizer import PairChoice, best_randomizer_pair, pair_guess, randomizer_pair_delta
from shuffle_spec.reference.lower_bounds.structured import PATTERNS, pattern_pair_epsilon, third_bit_partitions
from shuffle_spec.reference.numerics.solver import solve_certified_epsilon
from shuffle_spec.reference.randomizers import local_hashing, unary


def _previous_order(rows, n, delta):
    """max(best_randomizer_pair's certified lower end, each third-bit partition's, every role assignment)."""
    generic, _ = best_randomizer_pair(matrix=[list(r) for r in rows], n=n, delta=delta)
    randomizer = finite_randomizer([list(r) for r in rows])
    keep = [j for j in range(8) if any(r[j] > 0 for r in rows)]
    columns = [PATTERNS[j] for j in keep]
    best = generic.lower
    for x, x2, z in itertools.permutations(range(3)):
        for bins in third_bit_partitions(x, x2, z, columns):
            def bounds(eps, x=x, x2=x2, z=z, bins=bins):
                value = randomizer_pair_delta(matrix=randomizer, n=n, eps=eps, x=x, x2=x2, z=z, bins=[list(b) for b in bins], delta_hint=delta)
                return value.lower, value.upper

            try:
                guess = pair_guess(randomizer, PairChoice(x, x2, z, bins), n, delta)  # where it evaluates, not what it certifies
                lower, _, _ = solve_certified_epsilon(bounds, eps0=randomizer.eps0, delta=delta, rel_tol=EPS_REL_TOL, guess=guess)
            except ParameterError:
                continue
            best = max(best, lower)
    return best


@pytest.mark.parametrize(
    "rows, n",
    [
        # symmetric RAPPOR at eps0 = 4 (a third-bit partition wins), OUE at eps0 = 0.5 (a contiguous merge with
        # z = x wins), OLH at eps0 = 2 (rows not bit-symmetric: every role assignment is tried)
        pytest.param(unary.symmetric_rappor(4.0, 1000, side="lower").pattern_rows(), 10**3, marks=pytest.mark.slow),
        pytest.param(unary.optimized_unary_encoding(0.5, 1000, side="lower").pattern_rows(), 10**3, marks=pytest.mark.slow),
        pytest.param(local_hashing.local_hashing(2.0, 1000, 8, side="lower").pattern_rows(), 10**3, marks=pytest.mark.slow),
    ],
    ids=["rappor-eps0-4", "oue-eps0-0.5", "olh-eps0-2"],
)
def test_pattern_search_equals_the_previous_order_within_the_search_tolerance(rows, n):
    delta = 1e-6
    new = pattern_pair_epsilon(rows=rows, n=n, delta=delta, labels=["x", "x'", "z"])
    old = _previous_order(rows, n, delta)
    assert old > 0
    # Same candidates, each certified: the two orders can differ only where near-tied candidates' certified
    # intervals (relative width EPS_REL_TOL) overlap.
    assert abs(new.lower - old) <= 2 * EPS_REL_TOL * old
    assert new.lower <= new.upper and new.direction == "lower_bound"
    if n == 10**3 and "kept apart" in new.note:  # the note names the route and the roles of the winning pair
        assert "user 1 at x" in new.note



def test_above_the_full_search_range_one_aimed_candidate_is_solved_and_the_note_says_so():
    # OUE at eps0 = 8, n = 1e8 (d = 1e9): the cost guard solves the best-aimed candidate only; its lower end is a
    # certified lower bound all the same (below the mechanism's certified upper bound, BBGN19.Lem5.3.exact_unary).
    rows = unary.optimized_unary_encoding(8.0, 10**9, side="lower").pattern_rows()
    value = pattern_pair_epsilon(rows=rows, n=10**8, delta=1e-6, labels=["x", "x'", "z"])
    assert "full_search=True" in value.note
    upper = unary.oue_epsilon_upper(eps0=8.0, n=10**8, delta=1e-6, d=10**9)
    assert 0 < value.lower <= upper.upper


@pytest.mark.slow
def test_the_aimed_candidate_is_below_the_full_search_and_close_to_it():
    # Symmetric RAPPOR at eps0 = 1, n = 2e6: the aimed candidate is one of the full search's candidates, so its
    # certified lower end is at most the full search's (up to the search tolerance); at such n the candidates are
    # near-tied and the saddlepoint ranking picks the winner, here within 1%.
    rows = unary.symmetric_rappor(1.0, 1000, side="lower").pattern_rows()
    aimed = pattern_pair_epsilon(rows=rows, n=2 * 10**6, delta=1e-6)
    full = pattern_pair_epsilon(rows=rows, n=2 * 10**6, delta=1e-6, full_search=True)
    assert "full_search=True" in aimed.note and "full_search" not in full.note
    assert aimed.lower <= full.lower * (1 + EPS_REL_TOL)
    assert aimed.lower >= 0.99 * full.lower


@pytest.mark.slow
def test_skipping_by_the_saddlepoint_root_leaves_the_lower_end_unchanged(monkeypatch):
    # OUE at eps0 = 1, n = 1e5: with and without the skip (SKIP_BY_AIM_N_MIN moved beyond n) the same lower end; the
    # skip is sound either way (a skipped candidate can only lower the result), this checks it costs nothing here.
    from shuffle_spec.reference.lower_bounds import structured

    rows = unary.optimized_unary_encoding(1.0, 1000, side="lower").pattern_rows()
    skipping = pattern_pair_epsilon(rows=rows, n=10**5, delta=1e-6)
    monkeypatch.setattr(structured, "SKIP_BY_AIM_N_MIN", 10**9)
    checking = pattern_pair_epsilon(rows=rows, n=10**5, delta=1e-6)
    assert skipping.lower == checking.lower > 0



@pytest.mark.slow
def test_hadamard_searches_the_independent_rows_above_the_dependent_triple():
    # d = 1000, eps0 = 4, n = 1e3: the registry's lower bound (dependent triple first, the independent rows with it
    # as their floor) is the larger of the two searches run on their own, up to the search tolerance.
    from shuffle_spec.reference.randomizers import hadamard

    mechanism = hadamard.hadamard_response(4.0, 1000, side="lower")
    dependent = pattern_pair_epsilon(rows=mechanism.dependent_pattern_rows(), n=10**3, delta=1e-6)
    independent = pattern_pair_epsilon(rows=mechanism.pattern_rows(), n=10**3, delta=1e-6)
    registry = hadamard.hadamard_epsilon_lower(eps0=4.0, n=10**3, delta=1e-6, d=1000)
    best = max(dependent.lower, independent.lower)
    assert best * (1 - EPS_REL_TOL) <= registry.lower <= best


def test_a_floor_no_candidate_can_beat_gives_zero_and_says_why():
    # floor = eps0 (symmetric RAPPOR at eps0 = 4): every candidate's delta is 0 at or above eps0, none is solved.
    rows = unary.symmetric_rappor(4.0, 1000, side="lower").pattern_rows()
    above = pattern_pair_epsilon(rows=rows, n=10**3, delta=1e-6, floor=4.0)
    assert above.lower == 0.0 and "floor" in above.note
    with pytest.raises(ParameterError, match="floor"):
        pattern_pair_epsilon(rows=rows, n=10**3, delta=1e-6, floor=-1.0)
