"""composed_delta at the supported range's edges (eps up to 1e308, eps0 down to 1e-320): an answer, no NumPy
warning (the suite turns warnings into errors, as a caller's `python -W error` does) and no traceback.

Every eps0-LDP round is eps0-DP centrally (post-processing of the one changed report), so T rounds are
(sum_r T_r eps0_r)-DP with delta = 0 (basic composition): at eps >= that sum the exact delta of the mechanism and of
every pair composed (each round's privacy loss lies in [-eps0, eps0]) is 0, both ends."""

from __future__ import annotations

import pytest

from shuffle_spec.interface import api


@pytest.mark.parametrize("eps0", [1.0, 1e-320])
@pytest.mark.parametrize("statement_id", ["compose.clones", "compose.stronger_clones", "compose.exact_binary_rr"])
def test_delta_beyond_the_basic_composition_eps_is_exactly_zero(statement_id: str, eps0: float) -> None:
    # eps = 1e308 and eps = T eps0 itself (the smallest eps of the basic composition's delta = 0).
    for eps in (1e308, 2 * eps0):
        value = api.composed_delta(statement_id, rounds=2, eps0=eps0, n=2, eps=eps)
        assert (value.lower, value.upper) == (0.0, 0.0)


@pytest.mark.parametrize("statement_id, extra", [("compose.binary_rr", {}), ("compose.krr", {"k": 3})])
def test_mechanism_pairs_at_eps_1e308_answer_zero(statement_id: str, extra: dict[str, int]) -> None:
    # Before: OverflowError (int(inf) of eps / step in ComposedPLD.delta).
    value = api.composed_delta(statement_id, rounds=2, eps0=1.0, n=2, eps=1e308, **extra)
    assert (value.lower, value.upper) == (0.0, 0.0)


def test_just_below_the_basic_composition_eps_is_still_composed() -> None:
    # Below T eps0 the composition answers (no early zero): the upper end is positive at eps = 0 (delta(0) is the
    # total variation of the composed pair, > 0 for eps0 > 0).
    value = api.composed_delta("compose.clones", rounds=2, eps0=1.0, n=2, eps=0.0)
    assert value.upper > 0
