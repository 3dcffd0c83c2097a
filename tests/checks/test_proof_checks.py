"""Every proof check and spec-vs-reference agreement check passes (the same as `shuffle-spec check`)."""

import pytest

from shuffle_spec.proofs_checks.framework import all_checks, run_check

CHECKS = all_checks()


@pytest.mark.parametrize("check", CHECKS, ids=[f"{c.statement_id}:{c.name}" for c in CHECKS])
def test_proof_check(check):
    result = run_check(check)
    assert result.passed, result.detail


def test_a_failing_check_is_reported_as_failed():
    from shuffle_spec.proofs_checks.framework import ProofCheck

    def broken():
        raise AssertionError("1 != 2")

    result = run_check(ProofCheck("EFMRTT19.Def1", "deliberately false", broken))
    assert not result.passed and "1 != 2" in result.detail
