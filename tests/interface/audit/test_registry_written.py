"""The numbers the audit registry writes: every certified end rounded outward to `WRITTEN_DIGITS` significant
digits (upper ends up, lower ends down), so that `docs/audits/registry.json` and the findings' vectors are the
same on every machine; more digits only where fewer would cross the claimed value. And a sample of the registry
recomputed today equals the committed entries exactly (the fingerprint test alone does not see a value that
went stale)."""

from __future__ import annotations

import json
import math
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shuffle_spec.interface.audit import registry
from shuffle_spec.interface.audit.adapters import implementation

# Cheap entries (under a second each once the statements are loaded) that still cover every kind of written
# number: a lower-bound claim judged against a certified upper end (wang_laplace_lower), UNSOUND calls with a lower
# bound on the truth and a BELOW BOUND call with its relative gap (koskela_fa), a port audited live (r_shfflm).
# wang_general (15 failures, two seconds) in the second tier.
SAMPLE = ("wang_laplace_lower", "koskela_fa", "r_shfflm", pytest.param("wang_general", marks=pytest.mark.slow))


def _decimal_outward(value: float, side: str, digits: int) -> float:
    """The same rounding by the standard library's decimal module (an independent computation)."""
    with localcontext() as context:
        context.prec = digits
        context.rounding = ROUND_CEILING if side == "up" else ROUND_FLOOR
        return float(+Decimal(value))  # unary plus rounds the exact value to the context's precision


def _significant_digits(number: float) -> int:
    digits = Decimal(repr(number)).normalize().as_tuple().digits
    return len(digits)


finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300)


@given(finite, st.sampled_from(["up", "down"]), st.integers(min_value=1, max_value=15))
def test_outward_rounds_away_from_what_it_bounds(value, side, digits):
    rounded = registry.outward(value, side, digits)
    assert rounded >= value if side == "up" else rounded <= value
    assert rounded == _decimal_outward(value, side, digits)
    assert _significant_digits(rounded) <= digits  # its repr is the decimal itself


def test_outward_leaves_what_it_cannot_round():
    assert registry.outward(math.inf, "up") == math.inf
    assert registry.outward(1.7976931348623157e308, "up") == 1.7976931348623157e308  # 1.797694e308 overflows
    assert registry.outward(0.0, "down") == 0.0


def test_a_claim_within_the_rounding_keeps_its_side():
    # wang_general's closest BELOW BOUND call: claimed 1.709996738433838 below the interval's lower end
    # 1.7099979976407944 (7.4e-7 relative). Seven digits (1.709997) keep the claim below; a claim at 1.70999795
    # would be above 1.709997 and above 1.7099979 (8 digits), so the end keeps 9 digits: 1.70999799.
    assert registry.written(1.7099979976407944, "down", 1.709996738433838) == 1.709997
    assert registry.written(1.7099979976407944, "down", 1.70999795) == 1.70999799
    # An upper end rounded up: a claimed lower bound above it stays above it (0.3000001 and 0.30000001 would not
    # be below a claim of 0.30000001; 0.300000001 is).
    assert registry.written(0.30000000001, "up", 0.3000002) == 0.3000001
    assert registry.written(0.30000000001, "up", 0.30000001) == 0.300000001


def _committed() -> dict[str, dict]:
    return {e["key"]: e for e in json.loads(registry.REGISTRY_FILE.read_text())["entries"]}


def test_the_committed_numbers_have_the_written_digits():
    # Every certified number of every failing call has at most WRITTEN_DIGITS digits, unless fewer would put it
    # on the other side of the claimed value (then the fewest that do not).
    checked = 0
    for entry in _committed().values():
        side = registry.certified_side(implementation(entry["key"]))
        for failure in entry["failures"]:
            claimed = failure["claimed"]
            numbers = [(failure["certified"], side), (failure["truth_lower"], "down")]
            if failure["interval"]:
                numbers += [(float(failure["interval"][0]), "down"), (float(failure["interval"][1]), "up")]
            for number, end in numbers:
                if number is None:
                    continue
                digits = _significant_digits(number)
                if digits > registry.WRITTEN_DIGITS:
                    fewer = registry.outward(number, end, digits - 1)
                    assert (fewer - claimed) * (number - claimed) <= 0, (entry["key"], number, claimed)
                checked += 1
    assert checked > 300


@pytest.mark.parametrize("key", SAMPLE)
def test_a_sample_of_the_registry_recomputes_to_the_committed_entries(key):
    record = implementation(key)
    fresh = json.loads(json.dumps(registry.entry(record, registry.audit_implementation(record))))
    assert fresh == _committed()[key], f"{key} is stale: python3 -m shuffle_spec.interface.audit.registry --write"
    assert fresh["failures"], key  # the sample holds written numbers to compare
