"""Every entry point of the API names a missing or stray parameter as such (`interface/parameter_names.py`),
before any value is evaluated, and never blames the range of another parameter or names a command-line flag.

One row per mistake: (call, the error type, the parameter named, a phrase the message must contain). The
rows are cheap: a name check raises before any bound is evaluated (the closed forms cost microseconds)."""

from __future__ import annotations

import math

import pytest

from shuffle_spec.interface import api
from shuffle_spec.interface.parameter_names import ParameterNameError
from shuffle_spec.proofs_checks.bridge import UsageError
from shuffle_spec.reference.core.errors import ParameterError

POINT = {"n": 10**5, "delta": 1e-6}

ROWS = [
    # k forgotten: the inversion blamed the searched eps0 ("eps0 = 6.2e-62 is out of range").
    ("calibrate_epsilon0 without k", lambda: api.calibrate_epsilon0("FMT23.stronger_clones", eps=0.1, **POINT),
     "k", "missing parameter k (FMT23.stronger_clones needs eps0, n, delta, k; calibrate_epsilon0 searches eps0)"),
    ("calibrate_epsilon0 with a stray k", lambda: api.calibrate_epsilon0("FMT21.clones_numeric", eps=0.1, k=3, **POINT),
     "k", "unexpected parameter k (FMT21.clones_numeric needs eps0, n, delta"),
    ("calibrate_epsilon0 with a stray delta0", lambda: api.calibrate_epsilon0("FMT21.clones_numeric", eps=0.1, delta0=1e-9, **POINT),
     "delta0", "unexpected parameter delta0"),
    ("calibrate_epsilon0 given the searched eps0", lambda: api.calibrate_epsilon0("FMT21.clones_numeric", eps=0.1, eps0=1.0, **POINT),
     "eps0", "calibrate_epsilon0 searches eps0"),
    ("calibrate_n without k", lambda: api.calibrate_n("FMT23.stronger_clones", eps=0.1, eps0=1.0, delta=1e-6),
     "k", "missing parameter k (FMT23.stronger_clones needs eps0, n, delta, k; calibrate_n searches n)"),
    ("calibrate_n without delta0", lambda: api.calibrate_n("FMT21.Prop2.2", eps=0.1, eps0=1.0, delta=1e-6),
     "delta0", "missing parameter delta0 (FMT21.Prop2.2 needs eps0, delta0, n, delta"),
    ("shuffled_delta with a stray k", lambda: api.shuffled_delta("FMT21.clones_numeric", eps=0.1, eps0=1.0, n=10**4, k=3),
     "k", "unexpected parameter k"),
    ("shuffled_epsilon without k", lambda: api.shuffled_epsilon("FMT23.stronger_clones", eps0=1.0, **POINT),
     "k", "missing parameter k (FMT23.stronger_clones needs eps0, n, delta, k)"),
    ("shuffled_epsilon with a stray rounds", lambda: api.shuffled_epsilon("FMT21.clones_numeric", eps0=1.0, rounds=10, **POINT),
     "rounds", "unexpected parameter rounds"),
    ("ShuffleBound without delta0", lambda: api.ShuffleBound("FMT21.Prop2.2", eps0=1.0, n=10**4),
     "delta0", "missing parameter delta0"),
    ("ShuffleBound given delta at construction", lambda: api.ShuffleBound("FMT21.clones_numeric", eps0=1.0, n=10**4, delta=1e-6),
     "delta", "unexpected parameter delta"),
    ("composed_epsilon without rounds", lambda: api.composed_epsilon("compose.clones", eps0=1.0, **POINT),
     "rounds", "missing parameter rounds"),
]


@pytest.mark.parametrize(("label", "call", "name", "phrase"), ROWS, ids=[row[0] for row in ROWS])
def test_a_wrong_parameter_name_is_named_as_such(label, call, name, phrase):
    with pytest.raises(ParameterNameError) as failure:
        call()
    error = failure.value
    assert isinstance(error, ParameterError) and isinstance(error, UsageError)  # old handlers still catch it
    assert error.name == name and phrase in str(error)
    message = str(error)
    assert "\n" not in message and "--" not in message and "out of range" not in message


def test_tightest_names_python_parameters_not_flags():
    with pytest.raises(ParameterNameError) as missing:
        api.tightest(eps0=1.0, n=10**6, delta=1e-6)  # randomizer defaults to k-RR, which needs k
    assert missing.value.name == "k" and str(missing.value).startswith("missing parameter k") and "--" not in str(missing.value)
    with pytest.raises(ParameterNameError) as stray:
        api.tightest(randomizer="laplace", k=3, eps0=1.0, n=1000, delta=1e-6)
    assert stray.value.name == "k" and str(stray.value).startswith("unexpected parameter k")
    with pytest.raises(ParameterError) as unknown:
        api.tightest(randomizer="gaussian", eps0=1.0, n=1000, delta=1e-6)
    assert unknown.value.name == "randomizer" and "'generic'" in unknown.value.allowed and "--" not in str(unknown.value)
    with pytest.raises(ParameterError) as bad_k:
        api.tightest(randomizer="krr", k=1, eps0=1.0, n=1000, delta=1e-6)
    assert bad_k.value.name == "k" and "k >= 2" in bad_k.value.allowed and "--" not in str(bad_k.value)


def test_calibrate_n_says_where_the_statements_range_of_n_ends(monkeypatch):
    """A statement that refuses n beyond its own range (the composition stops at n = 1e9) must be reported
    with that range, not as "at n = 1e+12 it gives inf". The bound is replaced by eps = 1/sqrt(n) refusing
    n > 1e9 as the composition does (its message), so that the search logic is tested in microseconds; the real
    composition is the slow-tier test below."""

    def bound(statement, *, eps0, n, delta, **params):
        if n > 10**9:
            raise ParameterError("n", n, "an integer 1 <= n <= 1e+09 (composition)")
        return 1 / math.sqrt(n)

    monkeypatch.setattr(api, "shuffled_epsilon", bound)
    assert api.calibrate_n("FMT21.clones_numeric", eps=0.01, eps0=1.0, delta=1e-6).value == 10**4  # 1/sqrt(n) <= 0.01
    with pytest.raises(ParameterError) as failure:
        api.calibrate_n("FMT21.clones_numeric", eps=1e-6, eps0=1.0, delta=1e-6)  # needs n = 1e12
    message = str(failure.value)
    assert failure.value.name == "eps" and "1 <= n <= 1e+09" in message and "inf" not in message
    assert "it refuses n = 1073741824" in message and "n = 536870912" in message  # the doubling's last two points


@pytest.mark.slow
def test_calibrate_n_of_the_composition_names_its_n_range():
    # eps0 = 1, 1000 rounds: the clone composition needs far more than 1e9 users for eps = 1e-3 (it is ~0.18 at 1e6).
    with pytest.raises(ParameterError) as failure:
        api.calibrate_n("compose.clones", eps=1e-3, eps0=1.0, delta=1e-6, rounds=1000)
    assert failure.value.name == "eps" and "1e+09" in str(failure.value) and "inf" not in str(failure.value)
