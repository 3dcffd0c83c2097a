"""The one certified epsilon search (`shuffle_spec.reference.numerics.solver`): its contract on a profile whose
roots are known in closed form, its budget, and that `solve_epsilon` is the same search.

The profile: delta(eps) = exp(-a eps^2) - exp(-a eps0^2) (non-increasing, zero at eps0, Gaussian-shaped like the
amplification profiles), given as brackets [delta (1 - w), delta (1 + w)]. The exact eps at which the bracket's
upper end reaches the target is sqrt(-log(target / (1 + w) + exp(-a eps0^2)) / a) (solved by hand), and that of
its lower end the same with 1 - w."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.numerics.solver import solve_certified_epsilon, solve_epsilon


def _profile(a: float, eps0: float, w: float):
    floor = math.exp(-a * eps0 * eps0)
    calls: list[float] = []

    def bounds(eps: float) -> tuple[float, float]:
        calls.append(eps)
        value = max(0.0, math.exp(-a * eps * eps) - floor)
        return value * (1 - w), value * (1 + w)

    def root(delta: float, factor: float) -> float:
        """The exact eps where value * factor = delta (closed form above)."""
        return math.sqrt(-math.log(delta / factor + floor) / a)

    return bounds, root, calls


cases = st.tuples(
    st.floats(0.1, 1000.0),  # a
    st.floats(0.1, 8.0),  # eps0
    st.floats(-12.0, -2.0),  # log10 delta
    st.sampled_from([0.0, 1e-12, 1e-6, 0.3]),  # relative half-width of the brackets
    st.sampled_from([1e-3, 1e-6, 1e-7]),  # rel_tol
)


@settings(max_examples=60, deadline=None)
@given(case=cases, start=st.sampled_from(["none", "hint", "guess"]), offset=st.floats(-3.0, 3.0), tight=st.sampled_from(["both", "upper", "lower"]))
def test_both_ends_are_certified_and_the_upper_end_is_within_the_tolerance(case, start, offset, tight):
    a, eps0, log_delta, w, rel_tol = case
    delta = 10.0**log_delta
    bounds, root, calls = _profile(a, eps0, w)
    if bounds(eps0)[1] > delta or bounds(0.0)[1] <= delta:
        return  # the floor (found = False) and eps = 0 are tested below
    exact_up = root(delta, 1 + w)
    kwargs = {"hint": exact_up * 2.0**offset} if start == "hint" else {"guess": exact_up * (1 + offset * rel_tol)} if start == "guess" else {}
    calls.clear()
    lower, upper, found = solve_certified_epsilon(bounds, eps0=eps0, delta=delta, rel_tol=rel_tol, tight=tight, **kwargs)
    assert found
    # The contract: both ends evaluated and on their sides of the target.
    assert upper in calls and bounds(upper)[1] <= delta
    assert lower == 0 or (lower in calls and bounds(lower)[0] > delta)
    # The stated tolerance: the upper end within rel_tol of the exact eps of the bracket's upper end (and not
    # below it: that would put a delta above the target under the returned eps); the lower end likewise where asked.
    assert exact_up * (1 - 1e-12) <= upper
    if tight in ("both", "upper"):
        assert upper <= exact_up * (1 + rel_tol) * (1 + 1e-12)
    if tight in ("both", "lower"):
        assert lower >= root(delta, 1 - w) * (1 - 2 * rel_tol)


@pytest.mark.parametrize("tight", ["lower", "both", "upper"])
@pytest.mark.parametrize("delta", [1e-2, 1e-3, 0.05])
@pytest.mark.parametrize("power", [1.0, 2.0, 3.0])
def test_an_end_is_settled_within_the_tolerance_also_where_delta_is_not_gaussian_shaped(tight, delta, power):
    """delta(eps) = c (1 - eps/eps0)^power near eps0 (the shape of a pair's profile at small n, where delta reaches 0
    at eps0 like a polynomial, not like a Gaussian tail), exact root eps0 (1 - (delta/c)^(1/power)). The search's
    model (log delta quadratic in eps) predicts roots beyond eps0 there; a prediction resting on points all below the
    root settled the lower end 1.1% low (exact.krr_pair_x0 at eps0 = 4, n = 50, k = 3, delta = 0.01: 3.8925 for
    the pair's exact 3.9377). Every end asked for must be within rel_tol of its root."""
    eps0, c, rel_tol = 4.0, 0.5, 3e-4

    def bounds(eps: float) -> tuple[float, float]:
        value = c * max(0.0, 1 - eps / eps0) ** power
        return value, value

    exact = eps0 * (1 - (delta / c) ** (1 / power))
    lower, upper, found = solve_certified_epsilon(bounds, eps0=eps0, delta=delta, rel_tol=rel_tol, tight=tight, hint=0.27 * eps0)
    assert found and bounds(upper)[1] <= delta and (lower == 0 or bounds(lower)[0] > delta)
    if tight in ("lower", "both"):
        assert lower >= exact * (1 - 2 * rel_tol)
    if tight in ("upper", "both"):
        assert upper <= exact * (1 + 2 * rel_tol)


@pytest.mark.parametrize("budget", [1, 2, 3, 4, 5])
def test_a_search_cut_short_by_its_budget_returns_a_wider_certified_interval(budget):
    # Wide brackets (w = 0.3) and no start point: the unbudgeted search needs 6 evaluations here.
    bounds, _, calls = _profile(3.0, 4.0, 0.3)
    delta = 1e-9
    free = solve_certified_epsilon(bounds, eps0=4.0, delta=delta, rel_tol=1e-7)
    unbudgeted = len(calls)
    calls.clear()
    lower, upper, found = solve_certified_epsilon(bounds, eps0=4.0, delta=delta, rel_tol=1e-7, max_evaluations=budget)
    assert unbudgeted > 5 and len(calls) == budget
    assert found and lower <= free[0] <= free[1] <= upper  # the same sequence of points, stopped earlier
    assert bounds(upper)[1] <= delta and (lower == 0 or bounds(lower)[0] > delta)


def test_nothing_below_eps0_is_claimed_when_eps0_is_not_certified():
    # delta(eps0) = 0 exactly, but brackets that never drop below 1e-3 (a tail bound added to the upper end).
    def bounds(eps: float) -> tuple[float, float]:
        return 0.0, 1e-3 + math.exp(-eps)

    assert solve_certified_epsilon(bounds, eps0=2.0, delta=1e-6, rel_tol=1e-6) == (0.0, 2.0, False)
    floor = solve_epsilon(bounds, eps0=2.0, delta=1e-6)
    assert (floor.lower, floor.upper) == (0.0, 2.0) and "no amplification" in floor.note.lower()


def test_eps_zero_when_delta_at_zero_is_certified():
    bounds, _, _ = _profile(1.0, 1.0, 0.0)  # delta(0) = 1 - e^-1 ~ 0.632
    assert solve_certified_epsilon(bounds, eps0=1.0, delta=0.7, rel_tol=1e-6) == (0.0, 0.0, True)
    assert solve_epsilon(bounds, eps0=1.0, delta=0.7).upper == 0.0


@pytest.mark.parametrize("guess", [None, 0.3, 2.9])
def test_solve_epsilon_is_the_same_search(guess):
    bounds, _, calls = _profile(5.0, 3.0, 1e-6)
    got = solve_epsilon(bounds, eps0=3.0, delta=1e-8, rel_tol=1e-6, guess=guess)
    alias_calls = list(calls)
    calls.clear()
    lower, upper, _ = solve_certified_epsilon(bounds, eps0=3.0, delta=1e-8, rel_tol=1e-6, guess=guess)
    assert (got.lower, got.upper) == (lower, upper) and alias_calls == calls


def test_an_accurate_guess_settles_in_three_evaluations():
    # eps0, then guess (1 + rel_tol/4) and guess (1 - rel_tol/4), which straddle the exact root.
    bounds, root, calls = _profile(5.0, 3.0, 1e-12)
    exact = root(1e-8, 1 + 1e-12)
    solve_certified_epsilon(bounds, eps0=3.0, delta=1e-8, rel_tol=1e-6, guess=exact)
    assert len(calls) == 3


def test_the_callers_exceptions_propagate():
    class Stop(Exception):
        pass

    def bounds(eps: float) -> tuple[float, float]:
        if eps < 1.0:
            raise Stop
        return 0.0, 0.0

    with pytest.raises(Stop):
        solve_certified_epsilon(bounds, eps0=2.0, delta=1e-6, rel_tol=1e-6)


def test_bad_inputs_are_refused_before_any_evaluation():
    bounds, _, calls = _profile(1.0, 1.0, 0.0)
    for kwargs, name in (({"max_evaluations": 0}, "max_evaluations"), ({"tight": "middle"}, "tight"), ({"slope": 1.0}, "slope"), ({"rel_tol": 0.0}, "rel_tol")):
        arguments = {"eps0": 1.0, "delta": 1e-6, "rel_tol": 1e-6, **kwargs}
        with pytest.raises(ParameterError, match=name):
            solve_certified_epsilon(bounds, **arguments)
    assert calls == []


def test_the_lower_end_is_certified_also_when_eps0_is_not():
    # The profile with a tail bound of 1e-3 added to the upper end only: eps0 is not certified at delta = 1e-6,
    # but the lower end, where exp(-eps^2) - exp(-4) > 1e-6, still is (exact root sqrt(-log(1e-6 + e^-4)) ~ 1.99997).
    bounds_exact, root, _ = _profile(1.0, 2.0, 0.0)

    def bounds(eps: float) -> tuple[float, float]:
        low, high = bounds_exact(eps)
        return low, high + 1e-3

    lower, upper, found = solve_certified_epsilon(bounds, eps0=2.0, delta=1e-6, rel_tol=1e-9)
    assert not found and upper == 2.0
    assert bounds(lower)[0] > 1e-6 and root(1e-6, 1.0) * (1 - 1e-9) <= lower < root(1e-6, 1.0)
    assert solve_epsilon(bounds, eps0=2.0, delta=1e-6, rel_tol=1e-9).lower == lower


def test_a_search_below_the_square_root_of_the_smallest_double_does_not_divide_by_zero():
    # eps0 = 1e-300: eps^2 underflows to 0, so a secant in eps^2 through two distinct points has a zero
    # denominator (it raised ZeroDivisionError from the clone bounds at eps0 = 1e-300, n = 1). The search must
    # fall back to its bracketing and still certify: here delta(eps) = (1 - eps / eps0) / 2 with exact ends,
    # so the exact eps at delta = 0.25 is eps0 / 2.
    eps0 = 1e-300

    def bounds(eps: float) -> tuple[float, float]:
        value = max(0.0, 1 - eps / eps0) / 2
        return value, value

    lower, upper, found = solve_certified_epsilon(bounds, eps0=eps0, delta=0.25, rel_tol=1e-6, hint=0.3 * eps0)
    assert found and bounds(upper)[1] <= 0.25 and (lower == 0 or bounds(lower)[0] > 0.25)
    assert lower <= eps0 / 2 <= upper
