"""`ShuffleBound` in dp_accounting's conventions: `get_epsilon(target_delta)`, `get_delta(target_epsilon)` (the old
keywords still work, with a DeprecationWarning), `compose(rounds)`, and `get_delta` of a composition read directly
from the composed privacy-loss distribution (no bisection)."""

from __future__ import annotations

import pytest

from shuffle_spec.interface import api
from shuffle_spec.interface.parameter_names import ParameterNameError
from shuffle_spec.reference.core.errors import ParameterError

# A composition cheap enough for the default tier (one PLD composition takes ~0.2 s here).
CHEAP = {"eps0": 1.0, "n": 10_000, "rounds": 10}


def test_new_names_and_old_keywords_give_the_same_numbers():
    bound = api.ShuffleBound("FMT21.clones_numeric", eps0=1.0, n=10_000)
    value = bound.get_epsilon(1e-6)
    assert bound.get_epsilon(target_delta=1e-6) == value
    with pytest.warns(DeprecationWarning, match="target_delta"):
        assert bound.get_epsilon(delta=1e-6) == value
    with pytest.raises(ParameterNameError, match="unexpected parameter delta"):
        bound.get_epsilon(1e-6, delta=1e-6)
    with pytest.raises(ParameterNameError, match="missing parameter target_delta"):
        bound.get_epsilon()
    # get_delta on a closed form with a registered delta(eps) (EFMRTT19 Thm 7's): both names, one number.
    closed = api.ShuffleBound("EFMRTT19.Thm7", eps0=0.25, n=100_000)
    delta = closed.get_delta(target_epsilon=0.1)
    with pytest.warns(DeprecationWarning, match="target_epsilon"):
        assert closed.get_delta(eps=0.1) == delta
    assert closed.get_delta(0.1) == delta


def test_get_delta_of_a_composition_is_the_certified_delta_of_its_pld():
    bound = api.ShuffleBound("compose.clones", **{k: v for k, v in CHEAP.items() if k != "rounds"}, rounds=CHEAP["rounds"])
    result = bound.delta_calibration(0.5)
    assert result.method.startswith("direct") and result.bracket[0] <= result.value == result.bracket[1] < 1e-6
    assert bound.get_delta(0.5) == result.value
    # Independent side: the composed eps at that delta is an interval around the pair's true eps(delta); the
    # true eps there is <= 0.5 (delta is certified for eps = 0.5), so the interval's LOWER end must be <= 0.5.
    # (Its upper end may exceed 0.5 by the eps-search's own discretisation: each path is certified on its own.)
    composed = api.composed_epsilon("compose.clones", delta=result.value, **CHEAP)
    assert composed.interval[0] <= 0.5
    # Monotone: a larger target epsilon needs no larger delta.
    assert bound.get_delta(0.6) <= result.value
    # A lower bound is not inverted (its delta would certify nothing).
    with pytest.raises(ParameterError, match="lower bound"):
        api.ShuffleBound("compose.exact_binary_rr", eps0=1.0, n=100, rounds=2).get_delta(0.5)


def test_compose_returns_the_composition_statement_for_t_rounds():
    generic = api.ShuffleBound("FMT21.clones_numeric", eps0=1.0, n=10_000).compose(10)
    assert (generic.statement_id, generic.params) == ("compose.clones", {"rounds": 10})
    assert generic.get_epsilon(1e-6) == api.composed_epsilon("compose.clones", delta=1e-6, **CHEAP).value
    krr = api.ShuffleBound("FMT23.stronger_clones", eps0=1.0, n=10_000, k=3).compose(10)
    assert krr.statement_id == "compose.krr"  # the mechanism's own composition (test_shuffle_bound_compose.py)
    again = krr.compose(5)  # T rounds of a 10-round composition: 50 rounds
    assert again.params == {"rounds": 50, "k": 3} and again is not krr and krr.params == {"rounds": 10, "k": 3}
    with pytest.raises(ParameterError) as lower:
        api.ShuffleBound("exact.krr_pair_x0", eps0=1.0, n=1000, k=3).compose(10)
    assert lower.value.name == "statement_id"
    with pytest.raises(ParameterError) as zero:
        generic.compose(0)
    assert zero.value.name == "rounds"


@pytest.mark.slow
def test_direct_composed_delta_agrees_with_the_bisection():
    """The direct delta's certified lower end is below the delta the bisection on eps(delta) certifies (both contain
    the pair's true delta(eps) on the safe side), and the direct upper end is not above it by more than the
    discretisation: above 1e-10 (eps = 0.2, both untilted) and below it (eps = 0.5, about 1e-27: both tilted; the
    direct delta there was the untilted round-off floor, 1.4e-12, before the direct path recomposed and tilted)."""
    bound = api.ShuffleBound("compose.clones", eps0=1.0, n=10_000, rounds=10)
    for eps, close in ((0.2, True), (0.5, True)):
        direct = bound.delta_calibration(eps)
        used: dict[float, float] = {}

        def eps_at(log10_delta: float) -> float:
            used[log10_delta] = 10.0**log10_delta
            return bound.get_epsilon(used[log10_delta])

        recorder = api._Recorder(eps_at, eps)
        api._smallest_log10_delta(recorder, used, eps)
        bisected = used[min(recorder.verified())]
        assert direct.bracket[0] <= bisected, (eps, direct, bisected)
        if close:
            assert direct.value <= bisected * 1.01, (eps, direct, bisected)
