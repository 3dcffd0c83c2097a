"""ShuffleBound.compose routes to the mechanism's own composition (compose.krr, compose.binary_rr,
compose.laplace) inside its range and to the generic pair (compose.stronger_clones, compose.clones) outside it,
saying which in `composition_note` and in every answer's reason. The numeric properties (the routed value is
between the composed lower end and the generic value) are in the second tier: each envelope takes seconds."""

from __future__ import annotations

import pytest

from shuffle_spec.interface import api
from shuffle_spec.reference.composition.mechanism_rounds import MechanismRound, composed_lower_epsilon
from shuffle_spec.reference.core.errors import ParameterError

DELTA = 1e-6


@pytest.mark.parametrize(("statement_id", "params", "target", "generic"), [
    ("FMT23.stronger_clones", {"k": 3}, "compose.krr", "compose.stronger_clones"),
    ("BBGN19.Lem5.3.exact_krr", {"k": 100}, "compose.krr", "compose.stronger_clones"),
    ("EFMRSTT20.LemII.6", {}, "compose.binary_rr", "compose.stronger_clones"),
    ("exact.shuffled_binary_rr", {}, "compose.binary_rr", "compose.stronger_clones"),
    ("BBGN19.hoeffding_laplace", {}, "compose.laplace", "compose.clones"),
])
def test_a_mechanism_s_statement_composes_by_the_mechanism_s_own_composition(statement_id, params, target, generic):
    rounds = api.ShuffleBound(statement_id, eps0=1.0, n=1000, **params).compose(10)
    assert rounds.statement_id == target
    assert rounds.params == {"rounds": 10, **({"k": params["k"]} if target == "compose.krr" else {})}
    assert rounds.composition_note.startswith(f"{target}: the ") and "own composition" in rounds.composition_note
    again = rounds.compose(3)  # 3 times the 10 rounds: the same statement and note
    assert (again.statement_id, again.params["rounds"], again.composition_note) == (target, 30, rounds.composition_note)


@pytest.mark.parametrize(("statement_id", "params", "eps0", "n", "generic", "why"), [
    ("FMT23.stronger_clones", {"k": 3}, 1.0, 10**9, "compose.stronger_clones", "n = 1000000000 is outside its range n <= 1e+08"),
    ("FMT23.stronger_clones", {"k": 3}, 1e-4, 1000, "compose.stronger_clones", "eps0 = 0.0001 is outside its range 0.001 <= eps0 <= 30"),
    ("EFMRSTT20.LemII.6", {}, 1.0, 2 * 10**7, "compose.stronger_clones", "n = 20000000 is outside its range n <= 1e+07"),
    ("BBGN19.hoeffding_laplace", {}, 10.0, 1000, "compose.clones", "eps0 = 10.0 is outside its range 0.001 <= eps0 <= 8"),
    ("BBGN19.hoeffding_laplace", {}, 1.0, 2 * 10**6, "compose.clones", "n = 2000000 is outside its range n <= 1e+06"),
])
def test_outside_the_mechanism_s_range_the_generic_pair_is_used_and_the_note_says_why(statement_id, params, eps0, n, generic, why):
    rounds = api.ShuffleBound(statement_id, eps0=eps0, n=n, **params).compose(10)
    assert (rounds.statement_id, rounds.params) == (generic, {"rounds": 10})
    assert rounds.composition_note.startswith(f"{generic}: the generic pair") and rounds.composition_note.endswith(why)


def test_a_generic_statement_composes_by_the_clone_pair_and_a_lower_bound_is_refused():
    rounds = api.ShuffleBound("FMT21.clones_numeric", eps0=1.0, n=1000).compose(10)
    assert rounds.statement_id == "compose.clones" and "no mechanism-specific composition" in rounds.composition_note
    for statement_id, params in (("exact.krr_pair_x0", {"k": 3}), ("exact.laplace_pair_x0", {}), ("exact.shuffled_binary_rr.pair", {"k": 1})):
        with pytest.raises(ParameterError, match="lower bound") as refused:
            api.ShuffleBound(statement_id, eps0=1.0, n=1000, **params).compose(10)
        assert refused.value.name == "statement_id"


@pytest.mark.slow
@pytest.mark.parametrize(("statement_id", "params", "eps0"), [
    ("FMT23.stronger_clones", {"k": 3}, 1.0),
    ("FMT23.stronger_clones", {"k": 10}, 4.0),
    ("EFMRSTT20.LemII.6", {}, 1.0),
    ("EFMRSTT20.LemII.6", {}, 4.0),
])
def test_the_routed_value_lies_between_the_composed_lower_end_and_the_generic_pair(statement_id, params, eps0):
    """compose.krr / compose.binary_rr after 10 rounds at n = 1000: <= the generic stronger-clone pair's value
    (both certified upper bounds; the mechanism's envelope is the tighter one here) and >= the certified lower
    bound of composed explicit neighbouring dataset pairs (mechanism_rounds.composed_lower_epsilon)."""
    rounds = api.ShuffleBound(statement_id, eps0=eps0, n=1000, **params).compose(10)
    value = rounds.get_epsilon(DELTA)
    generic = api.composed_epsilon("compose.stronger_clones", rounds=10, eps0=eps0, n=1000, delta=DELTA).value
    mechanism = rounds.statement_id.split(".", 1)[1]
    lower = composed_lower_epsilon([MechanismRound(mechanism, eps0, 1000, 10, int(params.get("k", 2)))], delta=DELTA).lower
    assert 0 < lower <= value < generic
    assert value.statement_id == rounds.statement_id and value.reason.startswith(rounds.composition_note)
    assert rounds.evaluation(DELTA).reason.startswith(rounds.composition_note)


@pytest.mark.slow
def test_laplace_rounds_lie_between_one_round_s_lower_bound_and_the_clone_pair():
    """compose.laplace after 10 rounds: <= compose.clones (the envelope composition takes the clone pair's value
    where smaller) and >= the certified lower bound of ONE round (exact.laplace_pair_x0: T rounds leak at least
    what one does, dropping rounds is a post-processing). get_delta(eps) is certified for eps: eps at that delta
    is at most eps (up to the eps search's relative tolerance)."""
    rounds = api.ShuffleBound("BBGN19.bennett_laplace", eps0=1.0, n=1000).compose(10)
    assert rounds.statement_id == "compose.laplace"
    value = rounds.get_epsilon(DELTA)
    generic = api.composed_epsilon("compose.clones", rounds=10, eps0=1.0, n=1000, delta=DELTA).value
    one_round = api.shuffled_epsilon("exact.laplace_pair_x0", eps0=1.0, n=1000, delta=DELTA)
    assert one_round.direction == "lower"
    assert 0 < one_round <= value < generic
    assert value.reason.startswith(rounds.composition_note) and rounds.interval(DELTA)[1] == value
    delta = rounds.get_delta(value)
    assert 0 < delta <= 1.01 * DELTA
    assert rounds.get_epsilon(delta) <= value * (1 + 1e-5)


def test_the_guide_quotes_the_worked_example_s_table():
    """docs/guides/compose.md quotes the year of daily 10-RR reports at eps0 = 2, n = 1e7 (ShuffleBound.compose
    routes it to compose.krr): its mechanism-specific and generic figures are the cells of docs/composition.md's
    table (which `benchmarks/compose.py --worked` writes), so regenerating the table without the guide fails."""
    import re

    from support.paths import ROOT

    guide = (ROOT / "docs" / "guides" / "compose.md").read_text()
    table = (ROOT / "docs" / "composition.md").read_text()
    quoted = re.search(r"`year.get_epsilon\(1e-6\)` is ([0-9.]+) .*?pair gives\s+([0-9.]+)", guide, re.S)
    row = re.search(r"^\| 2 \| 1e\+07 \| ([0-9.]+) \| ([0-9.]+) \|", table, re.M)
    assert quoted is not None and row is not None
    assert (quoted.group(1), quoted.group(2)) == (row.group(2), row.group(1))
    assert "compose(365)" in guide and "ShuffleBound('compose.krr', eps0=2.0, n=10000000, rounds=365, k=10)" in guide


def test_get_delta_of_composed_k_rr_rounds_passes_k():
    """compose.krr's direct delta(eps) needs k: ShuffleBound.get_delta of composed k-RR rounds (what compose
    routes a k-RR statement to) gives the certified delta, at which the composed eps is at most the target."""
    rounds = api.ShuffleBound("FMT23.stronger_clones", eps0=1.0, n=20, k=3).compose(2)
    calibration = rounds.delta_calibration(1.0)
    direct = api.composed_delta("compose.krr", rounds=2, eps0=1.0, n=20, k=3, eps=1.0)
    assert calibration.value == direct.upper and calibration.bracket == (direct.lower, direct.upper)
    assert 0 < calibration.value < 1
    assert api.composed_epsilon("compose.krr", rounds=2, eps0=1.0, n=20, k=3, delta=calibration.value).interval[0] <= 1.0


def test_composed_delta_past_its_deadline_keeps_the_first_composition_only() -> None:
    # compose.clones at eps0 = 4, n = 4000, T = 2, eps = 4: delta ~ 1.87e-17, far below 1e-10 (measured). With the
    # deadline already past no recomposition starts (only the first tilt: about 1e-15); the interval is still
    # certified, so it contains the unlimited one (0.3 s).
    import time

    from shuffle_spec.reference.composition.shuffled_rounds import Round, composed_delta

    eps, rounds = 4.0, [Round("clones", eps0=4.0, n=4000, rounds=2)]
    unlimited = composed_delta(rounds, eps=eps)
    spent = composed_delta(rounds, eps=eps, deadline=time.monotonic())
    assert unlimited.upper < 1e-10
    assert spent.lower <= unlimited.lower <= unlimited.upper <= spent.upper
    assert spent.upper > unlimited.upper  # the recompositions did not run
    with pytest.raises(ParameterError, match="time_budget"):
        api.composed_delta("compose.clones", rounds=2, eps0=4.0, n=4000, eps=eps, time_budget=0)


def _sleeper(seconds: float):
    import time

    def sleep(*args, **kwargs):
        time.sleep(seconds)
        raise AssertionError("the time budget did not stop this")
    return sleep


@pytest.mark.parametrize(("statement_id", "module", "name", "params"), [
    ("compose.binary_rr", "mechanism_rounds", "lower_delta", {"eps0": 1.0, "n": 10}),
    ("compose.krr", "mechanism_rounds", "lower_delta", {"eps0": 1.0, "n": 10, "k": 3}),
    ("compose.laplace", "blanket_rounds", "blanket_lower_delta", {"eps0": 1.0, "n": 10}),
])
def test_composed_delta_time_budget_covers_the_lower_end(monkeypatch, statement_id, module, name, params) -> None:
    # The lower end's explicit pairs took 13 of 15 s of compose.krr at k = 1000, n = 1e8, T = 1000, eps = 0.5 under
    # time_budget = 3 (measured). Stand-in: pairs that would take 20 s. The budget stops them; the certified upper
    # end stands (the same float: the first composition is cached, so it fits the budget), the lower end is 0 and
    # the reason says why.
    import importlib
    import time

    unlimited = api.composed_delta(statement_id, rounds=2, eps=0.5, **params)
    monkeypatch.setattr(importlib.import_module(f"shuffle_spec.reference.composition.{module}"), name, _sleeper(20))
    start = time.monotonic()
    stopped = api.composed_delta(statement_id, rounds=2, eps=0.5, time_budget=0.5, **params)
    assert time.monotonic() - start < 10  # 20 s without the budget
    assert stopped.upper == unlimited.upper and stopped.lower == 0.0 < unlimited.lower
    assert "time budget" in stopped.reason


@pytest.mark.parametrize(("statement_id", "module", "params"), [
    ("compose.binary_rr", "mechanism_rounds", {"eps0": 1.0, "n": 100}),
    ("compose.laplace", "blanket_rounds", {"eps0": 1.0, "n": 100}),
])
def test_composed_delta_stops_at_its_time_budget_with_one_line(monkeypatch, statement_id, module, params) -> None:
    # The first composition itself ran 6-12 s (compose.binary_rr T = 100, n = 1e6; compose.randomizer subset d = 100,
    # T = 10, n = 1e4: measured under time_budget = 3). Stand-in: one that would take 20 s.
    import importlib
    import time

    from shuffle_spec.interface.limits import TimeLimitExceeded

    monkeypatch.setattr(importlib.import_module(f"shuffle_spec.reference.composition.{module}"), "_composed_upper", _sleeper(20))
    start = time.monotonic()
    with pytest.raises(TimeLimitExceeded) as stopped:
        api.composed_delta(statement_id, rounds=2, eps=0.5, time_budget=0.5, **params)
    assert time.monotonic() - start < 10
    message = str(stopped.value)
    assert "time budget" in message and "\n" not in message and statement_id in message


@pytest.mark.parametrize(("statement_id", "module", "name", "params"), [
    ("compose.binary_rr", "mechanism_rounds", "composed_lower_epsilon", {"eps0": 1.0, "n": 10}),
    ("compose.laplace", "blanket_rounds", "blanket_lower_epsilon", {"eps0": 1.0, "n": 10}),
])
def test_composed_epsilon_time_budget_drops_the_lower_end_not_the_answer(monkeypatch, statement_id, module, name, params) -> None:
    # As composed_delta (above): the lower end's explicit pairs are a refinement. Stand-in: pairs that would take
    # 20 s; the budget drops them and the certified upper end stands (the same float).
    import importlib
    import time

    unlimited = api.composed_epsilon(statement_id, rounds=2, delta=1e-6, **params)
    monkeypatch.setattr(importlib.import_module(f"shuffle_spec.reference.composition.{module}"), name, _sleeper(20))
    start = time.monotonic()
    stopped = api.composed_epsilon(statement_id, rounds=2, delta=1e-6, time_budget=0.5, **params)
    assert time.monotonic() - start < 10  # 20 s without the budget
    assert stopped.interval[1] == unlimited.interval[1] and stopped.interval[0] == 0.0 < unlimited.interval[0]
    assert "time budget" in stopped.reason
