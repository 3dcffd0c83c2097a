"""One family of typed results (`interface/results.py`): every public answer carries value, interval, direction,
statement_id, reason and neighbouring, and the old shapes still hold (a float, a tuple, the dataclasses'
attributes)."""

from __future__ import annotations

import pickle

import pytest

import shuffle_spec
from shuffle_spec.interface.results import NEIGHBOURING, neighbouring_of, width_note
from shuffle_spec.reference.bounds.clones import clones_numeric
from shuffle_spec.spec.catalog import all_statements

POINT = {"eps0": 1.0, "n": 10_000, "delta": 1e-6}
ROUNDS = {"eps0": 1.0, "n": 1000, "rounds": 10}


def test_shuffled_epsilon_is_the_same_float_with_the_fields():
    value = shuffle_spec.shuffled_epsilon("FMT21.clones_numeric", **POINT)
    reference = clones_numeric(**POINT)  # the reference's BoundValue: the float is its upper end, bit for bit
    assert isinstance(value, float) and float(value) == reference.upper == value.value
    assert value.interval == (reference.lower, reference.upper) and value.direction == "upper"
    assert (value.statement_id, value.neighbouring) == ("FMT21.clones_numeric", "replace-one")
    assert type(value + 1.0) is float  # arithmetic gives plain floats
    with pytest.raises(AttributeError):
        value.reason = "changed"  # type: ignore[misc]
    copy = pickle.loads(pickle.dumps(value))
    assert copy == value and copy.interval == value.interval and copy.statement_id == value.statement_id
    lower = shuffle_spec.shuffled_epsilon("exact.krr_pair_x0", k=3, **POINT)
    assert lower.direction == "lower" and float(lower) == lower.interval[0]  # a lower bound reports its lower end


def test_composed_results_keep_their_shapes_and_say_when_wide():
    low, high = shuffle_spec.composed_delta("compose.clones", eps=0.5, **ROUNDS)  # still a 2-tuple
    delta = shuffle_spec.composed_delta("compose.clones", eps=0.5, **ROUNDS)
    assert (delta.lower, delta.upper) == (low, high) and delta.value == high and delta.direction == "upper" and len(delta) == 2
    assert ("wide" in delta.reason) == ((high - low) / high > 0.01)
    composed = shuffle_spec.composed_epsilon("compose.clones", delta=1e-6, **ROUNDS)
    lower, upper = composed.interval
    assert composed.value == upper and composed.direction == "upper" and composed.statement_id == "compose.clones"
    assert ("wide" in composed.reason) == ((upper - lower) / upper > 0.01)
    exact = shuffle_spec.composed_epsilon("compose.exact_binary_rr", delta=1e-6, **ROUNDS)
    assert exact.direction == "lower" and exact.value == exact.interval[0]


def test_calibration_and_gap_carry_the_fields():
    calibration = shuffle_spec.calibrate_epsilon0("EFMRTT19.Thm7", eps=0.2, n=10_000, delta=1e-6)
    assert calibration.direction == "lower" and calibration.statement_id == "EFMRTT19.Thm7"
    assert calibration.interval[0] == calibration.value <= calibration.interval[1] and calibration.neighbouring == "replace-one"
    gap = shuffle_spec.tightest(randomizer="krr", k=3, eps0=1.0, n=1000, delta=1e-6)
    assert gap.value == gap.upper_eps and gap.interval == (gap.lower_eps, gap.upper_eps) and gap.direction == "interval"
    assert gap.statement_id == gap.upper_id and gap.upper_id in gap.reason
    assert ("wide" in gap.reason) == ((gap.upper_eps - gap.lower_eps) / gap.upper_eps > 0.01)


def test_every_amplification_and_composition_statement_has_a_neighbouring_relation():
    statements = [s for s in all_statements() if s.is_amplification_bound or s.id.startswith("compose.")]
    relations = {s.id: neighbouring_of(s.id) for s in statements}
    assert len(relations) > 20
    # Removal central DP is said in the statement's own title (EFMRSTT20 Thm III.1: "removal central eps in the
    # shuffle model"; its notes: "a respondent's removal"); every other one is replace-one.
    removal = {s.id for s in statements if "removal central" in s.title}
    assert removal == {"EFMRSTT20.ThmIII.1"}
    assert {i for i, relation in relations.items() if relation == "add-remove"} == removal
    assert set(NEIGHBOURING.values()) <= {"replace-one", "add-remove"}
    with pytest.raises(ValueError):
        neighbouring_of("XYZ99.unknown")


@pytest.mark.parametrize(("lower", "upper", "wide"), [(0.995, 1.0, False), (0.985, 1.0, True), (0.0, 1.0, True), (1.0, 1.0, False)])
def test_width_note_marks_intervals_wider_than_one_percent(lower, upper, wide):
    assert bool(width_note(lower, upper)) is wide


def test_the_result_types_are_exported():
    for name in ("Gap", "RandomizerGap", "RandomizerAudit", "Certification", "EpsilonBound", "DeltaInterval", "KRR", "certify", "ParameterNameError"):
        assert name in shuffle_spec.__all__ and getattr(shuffle_spec, name) is not None
