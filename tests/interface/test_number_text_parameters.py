"""The API's functions read k as they read eps0, n and delta (`parse_number`): a number written as text is that
number. `shuffled_epsilon` and `composed_epsilon` took k = "3", `tightest` and `certify` refused it; now every function
taking k gives the same answer for "3", 3 and 3.0 (the refusals are rows of `tests/invalid_inputs/api.py`)."""

from __future__ import annotations

import pytest

import shuffle_spec

POINT = {"eps0": 1.0, "n": 100, "delta": 1e-6}


@pytest.mark.parametrize("compute", [
    # The lower side at n = 1e12 (no lower bound holds there: the rows say why): the k check at a hundredth of the cost.
    lambda k: shuffle_spec.tightest(randomizer="krr", k=k, include_upper=False, **{**POINT, "n": 10**12}),
    lambda k: shuffle_spec.shuffled_epsilon("BBGN19.bennett_krr", k=k, **POINT),
    # certify: a tenth of a second a call; the second tier's (the same checker as tightest's).
    pytest.param(lambda k: shuffle_spec.certify("krr", k=k, **POINT), marks=pytest.mark.slow),
], ids=["tightest", "shuffled_epsilon", "certify"])
def test_k_written_as_text_is_that_number_everywhere(compute):
    as_int = compute(3)
    assert compute("3") == as_int and compute(3.0) == as_int
