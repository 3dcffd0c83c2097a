"""The one range table (`shuffle_spec.reference.core.limits`): the modules whose limits moved there read them from
it under their old names, the refusals sit exactly at the table's values, and the table lists every row."""

from __future__ import annotations

import pytest

from shuffle_spec.reference.bounds import clones_high_precision
from shuffle_spec.reference.core import limits
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.exact import krr
from shuffle_spec.reference.numerics import high_precision_exact
from shuffle_spec.reference.protocols import attribute_fragmenting, summation_lower_bound


def test_the_modules_read_their_limits_from_the_table():
    assert clones_high_precision.N_MAX_CLONES == limits.CLONES_MP_N_MAX == 200_000
    assert clones_high_precision.EPS0_MAX_MP == limits.CLONES_MP_EPS0_MAX == 30.0
    assert clones_high_precision.DELTA_MIN_MP == limits.CLONES_MP_DELTA_MIN == 1e-200
    assert clones_high_precision.COMPOSED_MAX == limits.COMPOSED_MP_MAX
    assert clones_high_precision.COMPOSED_N_MAX is limits.COMPOSED_MP_N_MAX
    assert high_precision_exact.MAX_POINTS == limits.EXACT_MP_MAX_POINTS
    assert high_precision_exact.MAX_WINDOW_POINTS == limits.EXACT_MP_MAX_WINDOW_POINTS
    assert high_precision_exact.MAX_LATTICE_POINTS == limits.EXACT_MP_MAX_LATTICE_POINTS
    assert krr.MAX_EPS0 == limits.EPS0_MAX_EXP == 709.0  # log(DBL_MAX) = 709.78: e^709 is a finite double
    assert krr.MAX_WORK == limits.KRR_EXACT_MAX_WORK and krr.MP_MAX_WORK == limits.KRR_EXACT_MP_MAX_WORK


def test_refusals_sit_at_the_table_values():
    # k-RAPPOR: 2^13 outputs refused in one line naming k, its value and the range (2^12 takes seconds to build).
    with pytest.raises(ParameterError) as refused:
        attribute_fragmenting.k_rappor_randomizer(limits.K_RAPPOR_K_MAX + 1, 2)
    assert str(refused.value) == "k = 13 is out of range: expected 2 <= k <= 12 (the exact 2^k-output randomizer)"
    assert len(summation_lower_bound.midpoints(limits.SUMMATION_INTERVALS_K_MAX)) == limits.SUMMATION_INTERVALS_K_MAX
    with pytest.raises(ParameterError, match="k = 1001 is out of range"):
        summation_lower_bound.midpoints(limits.SUMMATION_INTERVALS_K_MAX + 1)
    # The high-precision refusals say so (the vector generator leaves such points out) in one line.
    with pytest.raises(ParameterError) as declined:
        clones_high_precision.round_pld_mp("clones", eps0=1.0, n=limits.COMPOSED_MP_N_MAX["clones"] + 1)
    assert "outside the high-precision range" in str(declined.value) and "\n" not in str(declined.value)


def test_the_table_for_users_lists_every_statement_range_and_every_other_limit():
    text = limits.limits_table()
    for statement in limits.RANGES:
        assert limits.describe(statement) in text
    for row in limits.PARAMETER_LIMITS:
        assert f"{row.where}: {row.parameter}: {row.allowed} ({row.why})" in text
    assert f"2 <= k <= {limits.K_RAPPOR_K_MAX}" in text and f"1 <= n <= {limits.CLONES_MP_N_MAX:.0e}" in text
