"""certify(matrix, rounds > 1) of a matrix that IS k-ary randomized response (exact equality of its entries, as
Fractions or as floats): composed as k-RR (compose.krr) or binary RR (compose.binary_rr), not as a generic
randomizer, and the reason says so. Recognition is by `detect_mechanism` of the audit (exact equality)."""

from __future__ import annotations

import math
import re
from fractions import Fraction as F

import mpmath
import pytest

from shuffle_spec import certify

POINT = {"n": 20, "delta": 1e-6, "rounds": 2}


def _krr(k: int, keep: F, other: F) -> list[list[F]]:
    return [[keep if i == j else other for j in range(k)] for i in range(k)]


def test_an_exact_krr_matrix_is_composed_as_krr():
    matrix = _krr(3, F(3, 5), F(1, 5))  # e^eps0 = 3
    result = certify(matrix, **POINT)
    assert "exactly 3-ary randomized response" in result.reason
    assert any(row.statement_id == "compose.krr" and row.valid for row in result.rows)
    named = certify("krr", eps0=result.params["eps0"], k=3, **POINT)
    assert result.value == named.value and result.params["eps0"] >= math.log(3)


@pytest.mark.slow
def test_a_float_matrix_with_exactly_equal_entries_is_recognised():
    e = math.exp(1.0)
    keep, other = e / (e + 2), 1 / (e + 2)
    result = certify([[keep, other, other], [other, keep, other], [other, other, keep]], **POINT)
    assert "exactly 3-ary randomized response" in result.reason
    assert any(row.statement_id == "compose.krr" for row in result.rows)


def test_a_matrix_that_is_not_krr_stays_generic():
    """One entry moved (rows still stochastic): not k-RR, composed as a generic randomizer (compose.clones) and by
    the matrix's own blanket envelope (compose.finite), never by compose.krr."""
    matrix = [[F(3, 5), F(1, 5), F(1, 5)], [F(1, 5), F(3, 5), F(1, 5)], [F(1, 5), F(1, 4), F(11, 20)]]
    result = certify(matrix, **POINT)
    assert "randomized response" not in result.reason
    assert {row.statement_id for row in result.rows} == {"compose.clones", "compose.finite"}


@pytest.mark.slow
def test_a_two_by_two_symmetric_matrix_is_composed_as_binary_rr_with_a_lower_end_below_its_eps0():
    """k = 2: compose.binary_rr beside the generic pairs; the upper rows use eps0 rounded UP and the lower rows
    eps0 rounded DOWN (a lower bound must not use a larger eps0 than the matrix's): log 3 lies between the two
    (mpmath at 50 digits)."""
    result = certify(_krr(2, F(3, 4), F(1, 4)), **POINT)
    assert "exactly binary randomized response" in result.reason
    assert any(row.statement_id == "compose.binary_rr" for row in result.rows)
    assert result.lower is not None and 0 < result.lower <= result.value
    down = float(re.search(r"([0-9.e+-]+) down for the lower rows", result.reason).group(1))
    with mpmath.workdps(50):
        assert mpmath.mpf(down) < mpmath.log(3) < mpmath.mpf(result.params["eps0"])
