"""The flat Python API (`shuffle_spec.interface.api`): evaluation and safe-side inversions.

The statements are our own (`tests/support/statements.py`), so the expected numbers come from one closed form:
EFMRTT19 Thm 7 (v1), eps = 12 eps0 sqrt(log(1/delta)/n), whose inverses are
eps0 = eps / (12 sqrt(log(1/delta)/n)), n = 144 eps0^2 log(1/delta) / eps^2 and
delta = exp(-n (eps / (12 eps0))^2).
"""

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support import statements as fx
from shuffle_spec.interface import api
from shuffle_spec.reference.core.errors import HypothesisViolation, ParameterError


@pytest.fixture(autouse=True)
def registry(monkeypatch):
    fx.install(monkeypatch)


def v1(eps0, n, delta):
    return 12 * eps0 * math.sqrt(math.log(1 / delta) / n)


def test_shuffled_epsilon_is_the_closed_form_rounded_up():
    got = api.shuffled_epsilon(fx.V1.id, eps0=0.25, n=10_000, delta=1e-6)
    exact = v1(0.25, 10_000, 1e-6)
    assert exact <= got <= exact * (1 + 1e-14)


def test_shuffled_epsilon_outside_the_hypotheses_names_the_hypothesis():
    with pytest.raises(HypothesisViolation) as failure:
        api.shuffled_epsilon(fx.V1.id, eps0=0.6, n=10_000, delta=1e-6)
    assert "eps0 < 1/2" in str(failure.value) and str(failure.value).count("hypothesis") == 1


def test_calibrate_epsilon0_is_certified_and_tight():
    result = api.calibrate_epsilon0(fx.V1.id, eps=0.1, n=10_000, delta=1e-6)
    optimum = 0.1 / (12 * math.sqrt(math.log(1e6) / 10_000))
    assert result.bound_at_value <= 0.1
    assert api.shuffled_epsilon(fx.V1.id, eps0=result.value, n=10_000, delta=1e-6) <= 0.1
    assert optimum * (1 - 1e-8) <= result.value <= optimum
    low, high = result.bracket
    assert low == result.value and high > optimum and high - low <= 1e-8


def test_calibrate_epsilon0_stops_at_the_hypothesis_edge():
    # With eps = 1 the bound (at most 12 * 0.5 * sqrt(log(1e6)/1e4) = 0.22) is within the target for
    # every eps0 < 1/2, and certifies nothing from 1/2 on: the answer is just below 1/2.
    result = api.calibrate_epsilon0(fx.V1.id, eps=1.0, n=10_000, delta=1e-6)
    assert 0.5 - 1e-8 <= result.value < 0.5 and result.bracket[1] >= 0.5


def test_calibrate_n_is_the_smallest_integer():
    result = api.calibrate_n(fx.V1.id, eps=0.1, eps0=0.25, delta=1e-6)
    expected = math.ceil(144 * 0.25**2 * math.log(1e6) / 0.1**2)
    assert result.value == expected
    assert result.bracket == (expected - 1, expected)
    assert api.shuffled_epsilon(fx.V1.id, eps0=0.25, n=expected, delta=1e-6) <= 0.1 < v1(0.25, expected - 1, 1e-6)


def test_calibrate_n_respects_the_n_hypothesis():
    # Without n >= 1000 the closed form would allow n = ceil(144 * 0.1^2 * log(1000) / 0.5^2) = 40.
    result = api.calibrate_n(fx.V1.id, eps=0.5, eps0=0.1, delta=1e-3)
    assert result.value == 1000


def test_shuffled_delta_by_inversion_is_safe(monkeypatch):
    fx.install(monkeypatch, (fx.V1,))
    result = api.shuffled_delta(fx.V1.id, eps=0.1, eps0=0.25, n=100_000)
    exact = math.exp(-100_000 * (0.1 / (12 * 0.25)) ** 2)
    assert result.method.startswith("bisection")
    assert exact <= result.value <= exact * (1 + 1e-9)
    assert api.shuffled_epsilon(fx.V1.id, eps0=0.25, n=100_000, delta=result.value) <= 0.1


def test_shuffled_delta_refuses_when_no_allowed_delta_reaches_eps(monkeypatch):
    fx.install(monkeypatch, (fx.V1,))
    # delta < 1/100 is required; at delta -> 1/100 the bound is 12 * 0.25 * sqrt(log(100)/1000) = 0.2.
    with pytest.raises(ValueError, match="eps"):
        api.shuffled_delta(fx.V1.id, eps=0.1, eps0=0.25, n=1000)


def test_shuffled_delta_uses_a_registered_delta_statement():
    assert api.delta_provider(fx.V1.id) is fx.DELTA_OF_V1
    result = api.shuffled_delta(fx.V1.id, eps=0.1, eps0=0.25, n=100_000)
    assert result.method == f"direct ({fx.DELTA_OF_V1.id})"
    assert result.value == pytest.approx(math.exp(-100_000 * (0.1 / 3) ** 2), rel=1e-12)


def test_list_statements_mirrors_the_registry():
    infos = api.list_statements()
    assert [i.id for i in infos] == [s.id for s in fx.ALL]
    amplification = api.list_statements(tag="amplification")
    assert {i.id for i in amplification} == {fx.V1.id, fx.TRIVIAL.id}
    assert infos[0].to_json()["source"]["paper"] == "EFMRTT19"


@settings(max_examples=15)
@given(
    eps=st.floats(0.01, 0.3),
    n=st.integers(1000, 10**7),
    delta=st.sampled_from([1e-3, 1e-6, 1e-10]),
)
def test_calibrated_eps0_never_exceeds_the_target(eps, n, delta):
    try:
        result = api.calibrate_epsilon0(fx.V1.id, eps=eps, n=n, delta=delta)
    except ValueError:
        return  # no eps0 works (cannot happen here: the bound tends to 0 with eps0)
    assert api.shuffled_epsilon(fx.V1.id, eps0=result.value, n=n, delta=delta) <= eps
    assert result.value < 0.5


# --- ShuffleBound and typed errors -------------------------------------------------------------------


def test_shuffle_bound_answers_like_the_functions():
    bound = api.ShuffleBound(fx.V1.id, eps0=0.25, n=100_000)
    exact_eps = v1(0.25, 100_000, 1e-6)
    assert exact_eps <= bound.get_epsilon(1e-6) <= exact_eps * (1 + 1e-14)
    low, high = bound.interval(1e-6)
    assert low <= high and high == bound.get_epsilon(1e-6) and low <= exact_eps * (1 + 1e-14)
    # delta(eps) read from the registered delta statement: exp(-n (eps / (12 eps0))^2).
    assert bound.get_delta(0.1) == pytest.approx(math.exp(-100_000 * (0.1 / 3) ** 2), rel=1e-12)
    assert bound.hypotheses[:3] == ("eps0 > 0", "n integer >= 1", "delta > 0")
    assert set(bound.hypotheses[3:]) == {"eps0 < 1/2", "n >= 1000", "delta < 1/100"}


def test_shuffle_bound_refuses_with_typed_errors_and_their_fields():
    bound = api.ShuffleBound(fx.V1.id, eps0=0.25, n=100_000)
    with pytest.raises(HypothesisViolation) as failure:
        bound.get_epsilon(0.5)
    error = failure.value
    assert (error.statement_id, error.hypothesis, error.values["delta"]) == (fx.V1.id, "delta < 1/100", 0.5)
    with pytest.raises(ParameterError) as bad:
        api.ShuffleBound(fx.V1.id, eps0=-1.0, n=100_000)
    assert (bad.value.name, bad.value.value) == ("eps0", -1.0) and "eps0 > 0" in bad.value.allowed
    with pytest.raises(ParameterError) as not_a_bound:
        api.ShuffleBound(fx.GAMMA.id, eps0=1.0, n=10)
    assert not_a_bound.value.statement_id == fx.GAMMA.id and not_a_bound.value.name == "statement_id"
    with pytest.raises(ParameterError) as bad_n:
        api.ShuffleBound(fx.V1.id, eps0=0.25, n=10.5)
    assert bad_n.value.name == "n"


def test_typed_errors_come_from_fields_not_from_the_message(monkeypatch):
    """A hypothesis name that looks like the message format must survive unchanged (no regex parsing)."""
    from shuffle_spec.proofs_checks import bridge
    from shuffle_spec.spec.terms import HypothesisError

    tricky = "delta fails for hypothesis x: hypothesis y fails for z"

    def refuse(statement, params):
        error = HypothesisError(statement.id, tricky, params)
        return bridge.Evaluation(statement.id, dict(params), None, False, str(error), error=error)

    monkeypatch.setattr(api, "evaluate", refuse)
    with pytest.raises(HypothesisViolation) as failure:
        api.shuffled_epsilon(fx.V1.id, eps0=0.25, n=10_000, delta=1e-6)
    assert failure.value.hypothesis == tricky and failure.value.statement_id == fx.V1.id


def test_reference_refusals_keep_their_type_and_fields():
    # The spec side accepts delta = 1e-6 with eps0 = 0.25 for TRIVIAL; its reference refuses delta >= 1
    # itself, as a HypothesisViolation naming "delta < 1".
    with pytest.raises(HypothesisViolation) as failure:
        api.shuffled_epsilon(fx.TRIVIAL.id, eps0=1.0, n=5, delta=1.5)
    assert failure.value.statement_id == fx.TRIVIAL.id and failure.value.hypothesis == "delta < 1"


def test_the_package_exposes_the_api_and_reserves_tightest():
    import shuffle_spec

    assert shuffle_spec.ShuffleBound is api.ShuffleBound
    assert shuffle_spec.HypothesisViolation is HypothesisViolation and shuffle_spec.ParameterError is ParameterError
    assert "ShuffleBound" in dir(shuffle_spec)
    source = (Path(api.__file__)).read_text()
    assert '# "tightest",  # RESERVED' in source  # the place kept for the certified gap at the face
    assert "re.search" not in source and "import re\n" not in source


def test_bad_parameters_are_parameter_errors_naming_the_parameter():
    with pytest.raises(ParameterError) as nan:
        api.shuffled_epsilon(fx.V1.id, eps0=float("nan"), n=10_000, delta=1e-6)
    assert (nan.value.name, nan.value.statement_id) == ("eps0", fx.V1.id)
    with pytest.raises(ParameterError) as unknown:
        api.ShuffleBound(fx.V1.id, eps0=0.25, n=10_000, k=3)
    assert (unknown.value.name, unknown.value.value) == ("k", 3)
    with pytest.raises(ParameterError) as text:
        api.shuffled_epsilon(fx.V1.id, eps0=0.25, n=10_000, delta="tiny")
    assert text.value.statement_id == fx.V1.id and "delta" in str(text.value)
