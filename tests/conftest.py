"""Shared set-up of the tests: Hypothesis profiles, and mpmath's precision restored around every test.

Profiles: `ci` (the default; derandomized, so every run is the same) and `thorough` (deep runs), selected with
HYPOTHESIS_PROFILE=thorough or `pytest --hypothesis-profile=thorough`. The folder of this file is put first on
`sys.path`, so that tests import the shared helpers as `support.*` and the invalid-input table as
`invalid_inputs` (test modules themselves are imported by path: pytest's importlib mode).
"""

import os
import sys
from pathlib import Path

import mpmath
import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    max_examples=40,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "thorough",
    max_examples=600,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _mpmath_precision_is_the_tests_own():
    """Each test sets the precision it needs (`mpmath.workdps`); whatever it does, the next test starts at
    mpmath's default (15 digits), never at a precision another test left behind."""
    saved = mpmath.mp.prec
    mpmath.mp.prec = 53
    try:
        yield
    finally:
        mpmath.mp.prec = saved
