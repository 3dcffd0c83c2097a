"""The front door's choice of the mechanism compositions by BBGN19 Lemma 5.3's envelope (compose.finite,
compose.randomizer for subset selection and the piecewise mechanism): tried where the envelope's estimated cost
(`reference.composition.blanket_rounds.envelope_seconds`, blanket sizes and pairs, no evaluation) is at most
BLANKET_ROUNDS_SECONDS_MAX, above n = 100 too; elsewhere the row names the direct call. Replace-one throughout."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import pytest

import shuffle_spec
from shuffle_spec.interface.certify import BLANKET_ROUNDS_SECONDS_MAX
from shuffle_spec.reference.composition.blanket_rounds import BlanketRound, envelope_seconds
from shuffle_spec.reference.core.errors import ParameterError

# Not randomized response (its middle output ignores the input): composed by its own envelope, not as k-RR.
TWO_BY_THREE = [[Fraction(1, 2), Fraction(3, 10), Fraction(1, 5)], [Fraction(1, 5), Fraction(3, 10), Fraction(1, 2)]]
CIRCULANT = [[Fraction(5, 10), Fraction(3, 10), Fraction(2, 10)], [Fraction(2, 10), Fraction(5, 10), Fraction(3, 10)], [Fraction(3, 10), Fraction(2, 10), Fraction(5, 10)]]


def test_front_door_composes_a_matrix_by_its_envelope_above_n_100():
    """At n = 120 (the old cap was n = 100) the compose.finite row is present and certified, at most the generic
    clone pair's (its composition returns the smaller of the two) and above its own certified lower end."""
    assert envelope_seconds(BlanketRound("matrix", None, 120, 1, matrix=TWO_BY_THREE)) <= BLANKET_ROUNDS_SECONDS_MAX
    result = shuffle_spec.certify(shuffle_spec.FiniteMatrix(TWO_BY_THREE), n=120, delta=1e-6, rounds=10)
    upper = {row.statement_id: row for row in result.rows if row.side == "upper"}
    assert upper["compose.finite"].valid and upper["compose.clones"].valid
    assert upper["compose.finite"].eps is not None and upper["compose.clones"].eps is not None
    assert upper["compose.finite"].eps <= upper["compose.clones"].eps
    assert result.value == min(upper["compose.finite"].eps, upper["compose.clones"].eps)
    assert result.lower is not None and 0 < result.lower <= result.value


def test_front_door_names_the_direct_call_where_the_envelope_is_costly():
    """A 3 x 3 matrix at n = 1e4: about 20-60 s of envelope, so its row names the direct call and the generic pair
    answers (nothing is evaluated for the matrix's envelope)."""
    assert envelope_seconds(BlanketRound("matrix", None, 10**4, 1, matrix=CIRCULANT)) > BLANKET_ROUNDS_SECONDS_MAX
    result = shuffle_spec.certify(shuffle_spec.FiniteMatrix(CIRCULANT), n=10**4, delta=1e-6, rounds=10)
    row = next(row for row in result.rows if row.statement_id == "compose.finite")
    assert not row.valid and "composed_epsilon('compose.finite'" in row.reason
    assert result.statement_id == "compose.clones"


def test_envelope_cost_grows_with_the_pairs_and_refuses_other_mechanisms():
    """More ordered pairs of distinct groups (3 x 3 circulant: 2, 2 x 3 mirror: 1) cost more at the same n; a
    mechanism without a cost model is refused by name."""
    assert envelope_seconds(BlanketRound("matrix", None, 500, 1, matrix=CIRCULANT)) > envelope_seconds(BlanketRound("matrix", None, 500, 1, matrix=TWO_BY_THREE)) > 0
    with pytest.raises(ParameterError, match="mechanism"):
        envelope_seconds(BlanketRound("laplace", 1.0, 100, 1))
    with pytest.raises(ParameterError, match="n"):
        envelope_seconds(BlanketRound("subset", 1.0, 0, 1, d=100))


# The 10 x 10 "next value" matrix of benchmarks/matrix_rounds.py (keep w.p. 3/10, next value 1/10, each other 3/40):
# 3 ordered pairs of distinct groups, each with more than 3 groups (the batched FFT path).
NEXT_VALUE = [[Fraction(3, 10) if j == i else Fraction(1, 10) if j == (i + 1) % 10 else Fraction(3, 40) for j in range(10)] for i in range(10)]


@pytest.mark.parametrize("n", [10**3, 10**4, 10**6])
def test_front_door_tries_the_batched_fft_envelope_at_large_n(n, monkeypatch):
    """The decision, not the time: the 10 x 10 matrix's envelope (one batched FFT per pair and evaluation) is
    estimated at most BLANKET_ROUNDS_SECONDS_MAX at n = 1e3, 1e4 and 1e6 (the per-size estimate was 30-57 s), so the
    front door calls compose.finite (the composition itself is replaced by a stub recording the call)."""
    import shuffle_spec.interface.certify as front

    assert envelope_seconds(BlanketRound("matrix", None, n, 1, matrix=NEXT_VALUE)) <= BLANKET_ROUNDS_SECONDS_MAX
    called: list[str] = []

    def stub(statement_id, **kwargs):
        called.append(statement_id)
        return SimpleNamespace(direction="upper", value=1.0, interval=(0.0, 1.0), reason="stub")

    monkeypatch.setattr(front, "composed_epsilon", stub)
    result = shuffle_spec.certify(shuffle_spec.FiniteMatrix(NEXT_VALUE), n=n, delta=1e-6, rounds=10)
    assert "compose.finite" in called
    row = next(row for row in result.rows if row.statement_id == "compose.finite" and row.side == "upper")
    assert "not tried" not in row.reason
