"""A structured randomizer's certification reads the generic upper rows only (`tightest(..., include_lower=False)`):
the generic lower row (binary RR's worst case) is no lower bound for that mechanism, and computing it cost seconds
at large n. The upper rows are the same either way."""

from __future__ import annotations

from shuffle_spec.interface.tightest import tightest


def test_generic_upper_rows_are_the_same_without_the_lower_statements():
    point = {"eps0": 1.0, "n": 1000, "delta": 1e-6}
    full = tightest(randomizer="generic", **point)
    upper_only = tightest(randomizer="generic", include_lower=False, **point)
    assert [r for r in full.rows if r["direction"] == "upper_bound"] == upper_only.rows
    assert all(r["direction"] == "upper_bound" for r in upper_only.rows)
    assert any(r["direction"] == "lower_bound" for r in full.rows)  # the check can fail: the full call has one
    assert (upper_only.upper_id, upper_only.upper_eps) == (full.upper_id, full.upper_eps)
    assert upper_only.lower_eps is None
