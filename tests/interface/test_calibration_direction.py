"""Calibrating on a lower bound certifies nothing: a lower bound's value at a point is at most the true central
epsilon, so the largest eps0 (smallest n, smallest delta) at which it stays within a target says nothing about
the truth there. `calibrate` and the API's inversions refuse a statement of direction lower_bound, naming it,
before any evaluation (they used to return, e.g., eps0 = 2.69 for exact.krr_pair_x0 at eps = 0.5, n = 1000,
k = 4, where the true epsilon is at least 0.5)."""

from __future__ import annotations

import pytest

from shuffle_spec.interface import api
from shuffle_spec.proofs_checks import bridge
from shuffle_spec.reference.core.errors import ParameterError
from support.cli import call

LOWER = "exact.krr_pair_x0"


@pytest.fixture()
def no_evaluation(monkeypatch):
    monkeypatch.setattr(bridge, "reference_function", lambda statement: pytest.fail("evaluated before refusing"))


@pytest.mark.parametrize(
    ("inversion", "arguments"),
    [
        (api.calibrate_epsilon0, {"eps": 0.5, "n": 1000, "delta": 1e-6, "k": 4}),
        (api.calibrate_n, {"eps": 0.5, "eps0": 1.0, "delta": 1e-6, "k": 4}),
        (api.shuffled_delta, {"eps": 0.5, "eps0": 1.0, "n": 1000, "k": 4}),
    ],
)
def test_api_inversions_refuse_a_lower_bound(no_evaluation, inversion, arguments) -> None:
    with pytest.raises(ParameterError, match="lower bound") as refused:
        inversion(LOWER, **arguments)
    assert refused.value.statement_id == LOWER


def test_calibrate_refuses_a_lower_bound_in_one_line(no_evaluation) -> None:
    code, out, err, _ = call(["calibrate", LOWER, "--eps", "0.5", "--n", "1000", "--delta", "1e-6", "--k", "4", "--json"])
    assert code == 2 and not out
    assert LOWER in err and "lower bound" in err and len(err.strip().splitlines()) == 1
