"""The dp_accounting event and accountants of interface/accountants.py (ShuffledRoundDpEvent,
ShuffledPLDAccountant, ShuffledRdpAccountant): they compose exactly what the exports compose, inside nested
events too, refuse another neighbouring relation, and stay above the certified lower bound on the truth.
Every test needs the `accountants` extra (skipped without it); the compositions are in the second tier."""

from __future__ import annotations

import math
import sys

import pytest

from shuffle_spec.interface import accountants
from shuffle_spec.interface.accountants import shuffled_round_pld, shuffled_round_rdp
from shuffle_spec.reference.composition.mechanism_rounds import MechanismRound, composed_lower_epsilon
from shuffle_spec.reference.core.errors import ParameterError

DELTA = 1e-6
INTERVAL = 1e-4  # dp_accounting's default grid


def _dp():
    return pytest.importorskip("dp_accounting")


def _pld_accountant(dp):
    return accountants.ShuffledPLDAccountant(neighboring_relation=dp.NeighboringRelation.REPLACE_ONE, value_discretization_interval=INTERVAL)


def test_missing_extra_is_one_clear_line_for_the_classes(monkeypatch):
    monkeypatch.setitem(sys.modules, "dp_accounting", None)  # `import dp_accounting` raises ImportError
    for name in accountants.ACCOUNTANT_CLASSES:
        with pytest.raises(ImportError, match=r"accountants.*dp-accounting>=0.4") as info:
            getattr(accountants, name)
        assert len(str(info.value).splitlines()) == 1


def test_an_unknown_name_is_still_an_attribute_error():
    with pytest.raises(AttributeError, match="ShuffledAccountant"):
        accountants.ShuffledAccountant  # noqa: B018


@pytest.mark.parametrize("relation", ["ADD_OR_REMOVE_ONE", "REPLACE_SPECIAL"])
@pytest.mark.parametrize("kind", ["ShuffledPLDAccountant", "ShuffledRdpAccountant"])
def test_another_neighbouring_relation_is_refused_by_dp_accounting_s_own_error(relation, kind):
    """As dp_accounting refuses its RandomizedResponseDpEvent: `supports` is False and `compose` raises
    UnsupportedEventError naming the relation; nothing is composed (no envelope is built: instant)."""
    dp = _dp()
    accountant = getattr(accountants, kind)(neighboring_relation=getattr(dp.NeighboringRelation, relation))
    event = accountants.ShuffledRoundDpEvent("binary_rr", eps0=1.0, n=100)
    assert not accountant.supports(event)
    assert not accountant.supports(dp.ComposedDpEvent([dp.GaussianDpEvent(1.0), event]))
    with pytest.raises(dp.UnsupportedEventError, match=f"REPLACE_ONE.*{relation}"):
        accountant.compose(dp.SelfComposedDpEvent(event, 3))
    assert accountant.get_epsilon(DELTA) == 0.0


def test_out_of_range_parameters_raise_before_the_ledger_changes():
    dp = _dp()
    accountant = _pld_accountant(dp)
    with pytest.raises(ParameterError, match=r"^n = 1000000000 .*1e\+08") as info:
        accountant.compose(accountants.ShuffledRoundDpEvent("krr", eps0=1.0, n=10**9, k=3))
    assert len(str(info.value).splitlines()) == 1
    assert accountant.ledger == dp.NoOpDpEvent() and accountant.get_epsilon(DELTA) == 0.0
    with pytest.raises(ParameterError, match="mechanism"):
        accountant.compose(accountants.ShuffledRoundDpEvent("laplace", eps0=1.0, n=100))


def test_the_event_survives_dp_accounting_s_named_tuple_round_trip():
    dp = _dp()
    event = accountants.ShuffledRoundDpEvent("krr", eps0=2.0, n=1000, k=10)
    nested = dp.ComposedDpEvent([event, dp.SelfComposedDpEvent(dp.GaussianDpEvent(1.0), 5)])
    assert event.to_named_tuple().mechanism == "krr"
    assert dp.DpEvent.from_named_tuple(nested.to_named_tuple()) == nested


@pytest.mark.slow
@pytest.mark.parametrize(("mechanism", "k", "rounds"), [("binary_rr", 2, 1), ("binary_rr", 2, 30), ("krr", 10, 30)])
def test_the_event_alone_is_the_export_composed_by_hand(mechanism, k, rounds):
    """count rounds of the event = shuffled_round_pld(rounds=count) at the accountant's grid (the same PLD,
    composed with the accountant's identity start); as a SelfComposedDpEvent and as count at compose alike."""
    dp = _dp()
    event = accountants.ShuffledRoundDpEvent(mechanism, eps0=1.0, n=1000, k=k)
    by_hand = shuffled_round_pld(mechanism, eps0=1.0, n=1000, k=k, rounds=rounds, value_discretization_interval=INTERVAL).get_epsilon_for_delta(DELTA)
    by_count = _pld_accountant(dp).compose(event, rounds).get_epsilon(DELTA)
    by_event = _pld_accountant(dp).compose(dp.SelfComposedDpEvent(event, rounds)).get_epsilon(DELTA)
    assert by_count == pytest.approx(by_hand, rel=1e-9)
    assert by_event == pytest.approx(by_hand, rel=1e-9)


@pytest.mark.slow
def test_inside_a_composed_event_with_a_poisson_sampled_gaussian_it_is_the_hand_composed_pld():
    """The federated schedule: 20 shuffled rounds and 200 Poisson-subsampled Gaussian steps as one nested event,
    against the same two PLDs composed by hand (dp_accounting's own Gaussian PLD, as its accountant builds it)."""
    dp = _dp()
    from dp_accounting.pld import privacy_loss_distribution as pld_module

    shuffled = accountants.ShuffledRoundDpEvent("binary_rr", eps0=1.0, n=1000)
    sampled = dp.PoissonSampledDpEvent(0.01, dp.GaussianDpEvent(1.1))
    schedule = dp.ComposedDpEvent([dp.SelfComposedDpEvent(shuffled, 20), dp.SelfComposedDpEvent(sampled, 200)])
    value = _pld_accountant(dp).compose(schedule).get_epsilon(DELTA)
    gaussian = pld_module.from_gaussian_mechanism(
        1.1, value_discretization_interval=INTERVAL, sampling_prob=0.01, neighboring_relation=dp.NeighboringRelation.REPLACE_ONE,
    ).self_compose(200)
    by_hand = shuffled_round_pld("binary_rr", eps0=1.0, n=1000, rounds=20, value_discretization_interval=INTERVAL).compose(gaussian)
    assert value == pytest.approx(by_hand.get_epsilon_for_delta(DELTA), rel=1e-9)
    assert value > gaussian.get_epsilon_for_delta(DELTA)  # the shuffled rounds add something


@pytest.mark.slow
@pytest.mark.parametrize(("mechanism", "k", "eps0", "rounds"), [("binary_rr", 2, 1.0, 10), ("binary_rr", 2, 4.0, 100), ("krr", 10, 4.0, 10)])
def test_both_accountants_are_above_the_certified_lower_bound(mechanism, k, eps0, rounds):
    """get_epsilon of the shuffled rounds alone >= the certified LOWER bound on the composed worst case
    (composed explicit neighbouring dataset pairs, compose.binary_rr / compose.krr's lower end); a wrong
    grid direction or an optimistic export would fall below it."""
    dp = _dp()
    event = dp.SelfComposedDpEvent(accountants.ShuffledRoundDpEvent(mechanism, eps0=eps0, n=1000, k=k), rounds)
    lower = composed_lower_epsilon([MechanismRound(mechanism, eps0, 1000, rounds, k)], delta=DELTA).lower
    assert lower > 0
    pld_value = _pld_accountant(dp).compose(event).get_epsilon(DELTA)
    rdp_value = accountants.ShuffledRdpAccountant(neighboring_relation=dp.NeighboringRelation.REPLACE_ONE).compose(event).get_epsilon(DELTA)
    assert pld_value >= lower
    assert rdp_value >= pld_value * (1 - 1e-9)  # RDP's conversion is looser, never tighter


@pytest.mark.slow
def test_the_rdp_accountant_adds_the_exported_curve():
    """count times shuffled_round_rdp at the accountant's orders; eps0 at an order outside (1, 1e4]."""
    dp = _dp()
    orders = [1.5, 2.0, 8.0, 64.0, 2e4]
    accountant = accountants.ShuffledRdpAccountant(orders, neighboring_relation=dp.NeighboringRelation.REPLACE_ONE)
    accountant.compose(accountants.ShuffledRoundDpEvent("binary_rr", eps0=1.0, n=1000), 7)
    curve = shuffled_round_rdp("binary_rr", eps0=1.0, n=1000, orders=orders[:-1])
    assert list(accountant._rdp[:-1]) == pytest.approx([7 * r for r in curve], rel=1e-12)
    assert accountant._rdp[-1] == pytest.approx(7 * 1.0, rel=1e-12)
    assert all(math.isfinite(r) and 0 < r <= 7.0 for r in accountant._rdp)


@pytest.mark.slow
def test_the_worked_federated_example_of_the_docs_prints_its_table():
    """docs/composition.md's federated-learning schedule written with the event and the accountant: the block
    is run as it is on the page and each printed epsilon, to the table's 4 significant digits, is the table's."""
    _dp()
    import contextlib
    import io
    import re

    from support.paths import ROOT

    page = (ROOT / "docs" / "composition.md").read_text()
    section = page[page.index("### Worked example: a federated-learning schedule in dp_accounting"):]
    block = re.search(r"```text\n(.*?)```", section, re.S)
    assert block is not None and "ShuffledPLDAccountant" in block.group(1)
    table = dict(re.findall(r"^\| ([^|]+?) \| ([0-9.]+) \|$", section[: section.index("The same by hand")], re.M))
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block.group(1), "docs/composition.md", "exec"), {})
    lines = printed.getvalue().splitlines()
    assert len(lines) == len(table) == 3
    for line in lines:
        name, value = line.rsplit(" ", 1)
        assert f"{float(value):.4g}" == table[name]


def test_too_many_rounds_at_once_are_refused_before_the_ledger_changes():
    """count x the counts of nested SelfComposedDpEvents above 1e6 (shuffled_round_pld's range): one line,
    naming rounds, before anything is composed (the RDP accountant adds and takes any count)."""
    dp = _dp()
    accountant = _pld_accountant(dp)
    event = dp.SelfComposedDpEvent(accountants.ShuffledRoundDpEvent("binary_rr", eps0=1.0, n=20), 1000)
    with pytest.raises(ParameterError, match=r"^rounds = 2000000 .*1e\+06"):
        accountant.compose(event, 2000)
    assert accountant.ledger == dp.NoOpDpEvent() and accountant.get_epsilon(DELTA) == 0.0
