"""The front door for the structured randomizers (reference/randomizers/): `certify` takes their own certified
bounds and the generic upper bounds, which hold for them too, and never binary RR's worst case as their lower
bound (binary RR is not the mechanism asked about)."""

import pytest

from shuffle_spec import ParameterNameError, certify
from shuffle_spec.reference.randomizers import RANDOMIZERS, randomizer_bounds

POINT = {"eps0": 1.0, "n": 200, "delta": 1e-6}


@pytest.mark.parametrize("name", ["oue"])  # one family per call costs ~2 s: the others are checked in tests/reference/randomizers
def test_certify_reports_the_tightest_certified_ends_of_the_mechanism(name):
    result = certify(name, d=50, **POINT)
    upper, lower = randomizer_bounds(name, d=50, **POINT)
    generic = certify("generic", **POINT)
    # The headline is the smaller of the mechanism's own upper bound and the generic one (both certified for it).
    assert result.value == min(float(upper.upper), generic.value)
    assert result.lower == float(lower.lower) and result.lower_id == RANDOMIZERS[name].statements[1]
    assert result.lower_id != "exact.shuffled_binary_rr" and 0 < result.lower <= result.value
    assert result.neighbouring == "replace-one"


def test_a_missing_domain_size_is_named():
    with pytest.raises(ParameterNameError, match="missing parameter d"):
        certify("oue", **POINT)


def test_several_rounds_of_a_structured_randomizer_take_the_smaller_of_its_own_and_the_generic_composition():
    result = certify("oue", d=50, rounds=3, **POINT)
    rows = {row.statement_id: row for row in result.rows if row.valid and row.side == "upper"}
    assert set(rows) == {"compose.randomizer", "compose.clones"}
    assert result.value == min(row.eps for row in rows.values())
    # The lower end: compose.randomizer's composed explicit pattern pairs, below the value.
    assert result.lower_id == "compose.randomizer" and result.lower is not None and 0 < result.lower <= result.value


@pytest.mark.slow  # the piecewise envelope (Lemma 5.3 lattice sums at each node): ~10 s at n = 30
def test_several_rounds_of_the_piecewise_mechanism_are_composed_by_its_own_envelope_at_small_n():
    """certify("piecewise", rounds=T): compose.randomizer beside compose.clones at n <= 100 (the front door's cap
    for the envelopes that take minutes beyond), and its value is the smaller one; beyond the cap it is named, not
    tried."""
    result = certify("piecewise", eps0=1.0, n=30, delta=1e-6, rounds=10)
    rows = {row.statement_id: row for row in result.rows if row.valid and row.side == "upper"}
    assert set(rows) == {"compose.randomizer", "compose.clones"}
    assert result.value == min(row.eps for row in rows.values()) and rows["compose.randomizer"].eps < rows["compose.clones"].eps
    above = certify("piecewise", eps0=1.0, n=1000, delta=1e-6, rounds=10)
    skipped = [row for row in above.rows if row.statement_id == "compose.randomizer"]
    assert skipped and not skipped[0].valid and "not tried by the front door" in skipped[0].reason
