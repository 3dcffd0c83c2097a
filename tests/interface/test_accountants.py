"""Exports to accountants (interface/accountants.py): the dp_accounting PLD and the Renyi-DP curve of a
shuffled round, the neighbouring relation, and the missing extra. Interop with dp_accounting is in the
second tier (the extra is installed there by .ci/run)."""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import pytest

from shuffle_spec.interface.accountants import shuffled_round_pld, shuffled_round_rdp
from shuffle_spec.reference.composition import mechanism_rounds
from shuffle_spec.reference.composition.mechanism_rounds import compose_binary_rr
from shuffle_spec.reference.core.errors import ParameterError


@pytest.mark.parametrize("relation", ["add_or_remove_one", "REPLACE_SPECIAL", None])
def test_another_neighbouring_relation_is_refused(relation):
    with pytest.raises(ParameterError, match="neighboring_relation"):
        shuffled_round_pld("binary_rr", eps0=1.0, n=100, neighboring_relation=relation)
    with pytest.raises(ParameterError, match="neighboring_relation"):
        shuffled_round_rdp("binary_rr", eps0=1.0, n=100, orders=[2.0], neighboring_relation=relation)


def test_missing_extra_is_one_clear_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "dp_accounting", None)  # `import dp_accounting` raises ImportError
    with pytest.raises(ImportError, match=r"accountants.*dp-accounting>=0.4") as info:
        shuffled_round_pld("binary_rr", eps0=1.0, n=100)
    assert len(str(info.value).splitlines()) == 1


def _binary_rr_pairs(e0: Fraction, n: int) -> list[tuple[list[Fraction], list[Fraction]]]:
    from math import comb

    keep = e0 / (e0 + 1)
    out = []
    for ones in range(n):
        others = [Fraction(0)] * n
        for a in range(ones + 1):
            for b in range(n - ones):
                others[a + b] += comb(ones, a) * keep**a * (1 - keep) ** (ones - a) * comb(n - 1 - ones, b) * (1 - keep) ** b * keep ** (n - 1 - ones - b)
        p = [(1 - keep) * (others[s] if s < n else 0) + keep * (others[s - 1] if s > 0 else 0) for s in range(n + 1)]
        q = [keep * (others[s] if s < n else 0) + (1 - keep) * (others[s - 1] if s > 0 else 0) for s in range(n + 1)]
        out += [(p, q), (q, p)]
    return out


@pytest.mark.slow
def test_rdp_curve_is_above_every_neighbouring_pair():
    """D_order(P || Q) of every ordered neighbouring pair of 4 shuffled binary-RR reports (e^eps0 = 3, exact
    sums in floats at 1e-12 relative) is below the exported curve at each order."""
    orders = [1.5, 2.0, 4.0, 16.0]
    curve = shuffled_round_rdp("binary_rr", eps0=math.log(3), n=4, orders=orders)
    for order, bound in zip(orders, curve, strict=True):
        for p, q in _binary_rr_pairs(Fraction(3), 4):
            moment = sum(float(x) ** order * float(y) ** (1 - order) for x, y in zip(p, q, strict=True) if x > 0)
            assert math.log(moment) / (order - 1) <= bound * (1 + 1e-12)
        assert bound <= math.log(3)


@pytest.mark.slow
@pytest.mark.parametrize("rounds", [1, 10, 1000])
def test_dp_accounting_composition_of_the_export_lies_in_the_certified_interval(rounds, monkeypatch):
    """dp_accounting's own composition of the exported PLD (its grid = the pair's own) approximates the pair's
    exact eps: above the certified lower bound on the truth, below the certified upper end of the same pair (the
    exported pair composed by the certified FFT alone: compose.binary_rr may be smaller still, through the
    directional programme over the pair and its reverse, which no single exported PLD represents)."""
    pytest.importorskip("dp_accounting")
    certified = compose_binary_rr(eps0=1.0, n=10**4, delta=1e-6, rounds=rounds)
    with monkeypatch.context() as patched:
        patched.setattr(mechanism_rounds, "_uses_directional", lambda schedule: False)
        same_pair = compose_binary_rr(eps0=1.0, n=10**4, delta=1e-6, rounds=rounds)
    pld = shuffled_round_pld("binary_rr", eps0=1.0, n=10**4, rounds=rounds)
    value = pld.get_epsilon_for_delta(1e-6)
    assert certified.lower <= value <= same_pair.upper
    assert certified.upper <= same_pair.upper
    # A coarser dp_accounting grid (its default 1e-4) rounds losses up: never below the pair's value.
    coarse = shuffled_round_pld("binary_rr", eps0=1.0, n=10**4, rounds=rounds, value_discretization_interval=1e-4)
    assert coarse.get_epsilon_for_delta(1e-6) >= value * (1 - 1e-9)


@pytest.mark.slow
def test_rdp_composed_and_converted_is_above_the_certified_lower_bound_and_the_pld():
    """RDP conversion is looser, never tighter: T rounds of the curve, converted by dp_accounting, are above the
    certified lower bound on the truth and above the PLD value of the same pair (T = 1000)."""
    pytest.importorskip("dp_accounting")
    from dp_accounting.rdp.rdp_privacy_accountant import compute_epsilon

    orders = [1.25, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 32.0, 64.0, 128.0]
    curve = shuffled_round_rdp("binary_rr", eps0=1.0, n=10**4, orders=orders)
    certified = compose_binary_rr(eps0=1.0, n=10**4, delta=1e-6, rounds=1000)
    eps, _ = compute_epsilon(orders, [1000 * r for r in curve], 1e-6)
    assert eps >= certified.lower
    assert eps >= shuffled_round_pld("binary_rr", eps0=1.0, n=10**4, rounds=1000).get_epsilon_for_delta(1e-6)


@pytest.mark.slow
def test_exported_pld_composes_with_a_gaussian_step_in_dp_accounting():
    """The federated-learning use: shuffled rounds composed with a Poisson-subsampled Gaussian in dp_accounting;
    the composition is above each part alone (a property of composition that could fail with a wrong grid)."""
    dp = pytest.importorskip("dp_accounting")
    interval = 1e-4
    shuffled = shuffled_round_pld("binary_rr", eps0=1.0, n=10**4, rounds=10, value_discretization_interval=interval)
    gaussian = dp.pld.privacy_loss_distribution.from_gaussian_mechanism(
        1.0, sampling_prob=0.01, value_discretization_interval=interval, use_connect_dots=True,
        neighboring_relation=dp.NeighboringRelation.REPLACE_ONE,
    ).self_compose(100)
    both = shuffled.compose(gaussian)
    for part in (shuffled, gaussian):
        assert both.get_epsilon_for_delta(1e-6) > part.get_epsilon_for_delta(1e-6)


