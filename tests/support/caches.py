"""Fixtures that reset the reference's memoised values around a test, so that a test sees what a fresh process
computes (and leaves nothing cached for the next test). Import the fixture into a test module and name it in
`pytestmark = pytest.mark.usefixtures(...)`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from shuffle_spec.reference.composition import mechanism_rounds


def clear_mechanism_round_caches() -> None:
    """Forget the profile envelopes and the pairs on their grids of compose.binary_rr / compose.krr
    (`reference/composition/mechanism_rounds.py`, both `functools.lru_cache`d)."""
    mechanism_rounds._envelope_cached.cache_clear()
    mechanism_rounds._pair_on_cached.cache_clear()


@pytest.fixture
def fresh_mechanism_round_caches() -> Iterator[None]:
    """The mechanism-round caches empty before the test and after it."""
    clear_mechanism_round_caches()
    yield
    clear_mechanism_round_caches()
