"""reference/randomizers/blanket_pairs.py: the input check and the pair filter shared by the structured and the
raised blanket deltas (BBGN19 Lemma 5.3: a pair's delta is 0 once e^eps >= max alpha / beta)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.randomizers import raised, structured, unary
from shuffle_spec.reference.randomizers.blanket_pairs import blanket_delta_inputs

F = Fraction
PAIR = unary.UnaryEncoding(F(2, 3), F(1, 3), 3).replace_pairs()[0]


def test_tail_and_n() -> None:
    n, tail, live = blanket_delta_inputs([PAIR], n=10.0, eps=0.0, delta_hint=1e-6)  # type: ignore[arg-type]
    assert (n, tail, live) == (10, 1e-30, [PAIR])  # min(1e-30, 1e-6 * 1e-12) = 1e-30
    assert blanket_delta_inputs([PAIR], n=10, eps=0.0, delta_hint=1e-300)[1] == 1e-300


def test_a_pair_is_skipped_exactly_when_every_coefficient_is_non_positive() -> None:
    log_ratio = math.log(PAIR.ratio)
    assert blanket_delta_inputs([PAIR], n=10, eps=log_ratio * (1 - 1e-9), delta_hint=1e-6)[2] == [PAIR]
    assert blanket_delta_inputs([PAIR], n=10, eps=log_ratio * (1 + 1e-9), delta_hint=1e-6)[2] == []
    # Both deltas agree that it is 0 there (no pair left: the empty maximum).
    for delta in (structured.structured_blanket_delta, raised.raised_blanket_delta):
        assert delta([PAIR], n=10, eps=log_ratio * (1 + 1e-9)).upper == 0.0


@pytest.mark.parametrize(("kwargs", "name"), [({"n": 0}, "n"), ({"eps": -1.0}, "eps"), ({"delta_hint": 1.0}, "delta_hint")])
def test_both_deltas_refuse_the_same_inputs_naming_the_parameter(kwargs: dict[str, float], name: str) -> None:
    args: dict[str, float] = {"n": 10, "eps": 0.1, "delta_hint": 1e-6, **kwargs}
    messages = []
    for delta in (structured.structured_blanket_delta, raised.raised_blanket_delta):
        with pytest.raises(ParameterError) as caught:
            delta([PAIR], **args)  # type: ignore[arg-type]
        messages.append(str(caught.value))
    assert messages[0] == messages[1] and name in messages[0] and "\n" not in messages[0]
