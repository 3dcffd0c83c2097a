"""FMT21 Thm 2.1 (three prefactors) and Prop 2.2: values, ordering, monotonicity, the regime, outward rounding,
the eps0 inversion, and the CLI."""

import json
import math

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_spec.interface.cli.main import main
from shuffle_spec.reference.bounds import clone_closed_forms as cf
from shuffle_spec.reference.core.errors import HypothesisViolation
from shuffle_spec.spec.registry import get_statement

DELTA = 1e-6


def _in_regime(eps0, n, delta, numerator=2):
    return eps0 <= math.log(n / (16 * math.log(numerator / delta))) - 1e-9


# The statements' cross-check F3 of FMT21 Thm 2.1: the FOCS, seed and Apple versions' values (5 decimals).
F3_TABLE = [
    (100_000, 4.0, 1e-6, 0.53463, 0.54983, 0.53780),
    (10_000, 1.0, 1e-6, 0.21403, 0.36918, 0.23327),
    (1_000_000, 0.1, 1e-6, 0.00164, 0.00593, 0.00166),
    (1_000_000, 6.0, 1e-6, 0.48650, 0.48841, 0.48687),
    (100_000, 0.5, 1e-8, 0.03483, 0.08752, 0.03654),
    (10_000, 3.0, 1e-5, 0.77937, 0.83314, 0.79419),
    (1_000_000, 8.0, 1e-6, 1.00272, 1.00315, 1.00286),
]


@pytest.mark.parametrize("n, eps0, delta, focs, seed, apple", F3_TABLE)
def test_values_match_the_recovery_table_f3(n, eps0, delta, focs, seed, apple):
    assert cf.thm21_focs_epsilon(eps0=eps0, n=n, delta=delta).value == pytest.approx(focs, abs=6e-6)
    assert cf.thm21_seed_epsilon(eps0=eps0, n=n, delta=delta).value == pytest.approx(seed, abs=6e-6)
    assert cf.thm21_apple_epsilon(eps0=eps0, n=n, delta=delta).value == pytest.approx(apple, abs=6e-6)


def test_apple_readme_example():
    # Apple ml-shuffling-amplification README: n = 1e5, eps0 = 4, delta = 1e-6, closed form 0.53780.
    assert round(cf.thm21_apple_epsilon(eps0=4.0, n=100_000, delta=1e-6).value, 5) == 0.53780


def _exact_closed_form(variant, eps0, n, delta, bits=400):
    """eps of eq. (1) at 400 bits, written out independently of the reference's helpers."""
    with mpmath.workprec(bits):
        e = mpmath.exp(mpmath.mpf(eps0))
        g = 8 * mpmath.sqrt(e * mpmath.log(4 / mpmath.mpf(delta)) / n) + 8 * e / n
        prefactor = {
            "seed": 1 - mpmath.exp(-2 * mpmath.mpf(eps0)),
            "focs": (e - 1) / (e + 1),
            "apple": (1 - 1 / e) / (1 + mpmath.exp(-mpmath.mpf(eps0) - mpmath.log(1 + g))),
        }[variant]
        return mpmath.log(1 + prefactor * g)


points = st.tuples(st.floats(1e-6, 12.0), st.integers(1_000, 10**12), st.sampled_from([1e-3, 1e-6, 1e-9, 1e-12]))


@settings(max_examples=60)
@given(points)
def test_reported_value_is_an_upper_bound_on_the_exact_formula(point):
    eps0, n, delta = point
    for variant, function, numerator in (("seed", cf.thm21_seed_epsilon, 2), ("focs", cf.thm21_focs_epsilon, 2), ("apple", cf.thm21_apple_epsilon, 4)):
        margin = math.log(n / (16 * math.log(numerator / delta))) - eps0
        if abs(margin) < 1e-9:
            continue  # too close to the edge for this float check; test_regime_boundary covers it
        if margin < 0:
            with pytest.raises(HypothesisViolation):
                function(eps0=eps0, n=n, delta=delta)
            continue
        result = function(eps0=eps0, n=n, delta=delta)
        exact = _exact_closed_form(variant, eps0, n, delta)
        assert mpmath.mpf(result.upper) >= exact >= mpmath.mpf(result.lower)
        assert result.upper - result.lower <= 4 * math.ulp(result.upper)


@pytest.mark.parametrize("eps0", [1e-300, 1e-40, 1e-20])
def test_reported_value_is_an_upper_bound_at_a_tiny_eps0(eps0):
    # The prefactor 1 - e^{-2 eps0} (and its variants) cancels catastrophically at 128 bits when eps0 is
    # below ~1e-30: it must still enclose the exact value (4000 bits resolve 1 - e^{-2e-300}).
    for variant, function in (("seed", cf.thm21_seed_epsilon), ("focs", cf.thm21_focs_epsilon), ("apple", cf.thm21_apple_epsilon)):
        result = function(eps0=eps0, n=10_000, delta=1e-6)
        exact = _exact_closed_form(variant, eps0, 10_000, 1e-6, bits=4000)
        assert mpmath.mpf(result.upper) >= exact >= mpmath.mpf(result.lower), (variant, result, exact)
        assert result.upper - result.lower <= 4 * math.ulp(result.upper)


@settings(max_examples=60)
@given(points)
def test_prefactor_ordering_focs_apple_seed(point):
    # Exact ordering (proofs_checks/papers/fmt21.py): focs <= apple <= seed at every point of the common regime.
    eps0, n, delta = point
    if not _in_regime(eps0, n, delta, 4):
        return
    focs = cf.thm21_focs_epsilon(eps0=eps0, n=n, delta=delta).value
    apple = cf.thm21_apple_epsilon(eps0=eps0, n=n, delta=delta).value
    seed = cf.thm21_seed_epsilon(eps0=eps0, n=n, delta=delta).value
    assert focs <= apple <= seed


@pytest.mark.parametrize("function", [cf.thm21_seed_epsilon, cf.thm21_focs_epsilon, cf.thm21_apple_epsilon])
def test_monotone_increasing_in_eps0_and_decreasing_in_n(function):
    eps0s = [0.05, 0.2, 1.0, 2.0, 4.0, 6.0]
    by_eps0 = [function(eps0=e, n=10**7, delta=DELTA).value for e in eps0s]
    assert by_eps0 == sorted(by_eps0) and len(set(by_eps0)) == len(by_eps0)
    by_n = [function(eps0=2.0, n=n, delta=DELTA).value for n in (10**4, 10**5, 10**6, 10**8)]
    assert by_n == sorted(by_n, reverse=True) and len(set(by_n)) == len(by_n)


def test_large_n_rate():
    # For large n, eps ~ F(eps0) 8 sqrt(e^eps0 log(4/delta)/n): eps sqrt(n) tends to that constant.
    eps0 = 1.0
    limit = math.tanh(eps0 / 2) * 8 * math.sqrt(math.e * math.log(4 / DELTA))
    scaled = [cf.thm21_focs_epsilon(eps0=eps0, n=n, delta=DELTA).value * math.sqrt(n) for n in (10**8, 10**10, 10**12)]
    errors = [abs(s - limit) / limit for s in scaled]
    assert errors == sorted(errors, reverse=True) and errors[-1] < 1e-3


def test_regime_boundary():
    n, delta = 10_000, DELTA
    edge = math.log(n / (16 * math.log(2 / delta)))
    inside, outside = math.nextafter(edge, 0.0), math.nextafter(edge, 10.0)
    # The regime is decided on the exact binary inputs: just inside is accepted, just outside refused.
    with mpmath.workprec(300):
        exact_edge = mpmath.log(n / (16 * mpmath.log(2 / mpmath.mpf(delta))))
    below = [x for x in (math.nextafter(inside, 0.0), inside, edge, outside) if mpmath.mpf(x) <= exact_edge]
    above = [x for x in (math.nextafter(inside, 0.0), inside, edge, outside) if mpmath.mpf(x) > exact_edge]
    assert below and above
    for eps0 in below:
        assert cf.thm21_seed_epsilon(eps0=eps0, n=n, delta=delta).value > 0
    for eps0 in above:
        with pytest.raises(HypothesisViolation, match="eps0 <= log"):
            cf.thm21_seed_epsilon(eps0=eps0, n=n, delta=delta)
    # Apple's regime uses log(4/delta): stricter, so the seed's edge lies outside it.
    with pytest.raises(HypothesisViolation):
        cf.thm21_apple_epsilon(eps0=inside, n=n, delta=delta)


def test_spec_and_reference_agree_on_the_regime():
    statement = get_statement("FMT21.Thm2.1")
    for eps0, n in [(3.7, 10_000), (3.8, 10_000), (0.1, 233), (0.1, 260)]:
        spec_ok = not statement.failed_hypotheses({"eps0": eps0, "n": n, "delta": DELTA}, first_only=True)
        try:
            cf.thm21_seed_epsilon(eps0=eps0, n=n, delta=DELTA)
            reference_ok = True
        except HypothesisViolation:
            reference_ok = False
        assert spec_ok == reference_ok, (eps0, n)


def test_prop22_eps_equals_thm21_and_delta_prime_formulas():
    eps0, n, delta, delta0 = 2.0, 10**6, 1e-6, 1e-12
    seed_eps = cf.prop22_seed_epsilon(eps0=eps0, delta0=delta0, n=n, delta=delta)
    focs_eps = cf.prop22_focs_epsilon(eps0=eps0, delta0=delta0, n=n, delta=delta)
    assert seed_eps == cf.thm21_seed_epsilon(eps0=eps0, n=n, delta=delta)
    assert focs_eps == cf.thm21_focs_epsilon(eps0=eps0, n=n, delta=delta)
    # Seed: delta + (e^eps + 1)(1 + e^-eps0) n delta0; full version Thm 3.8: (1 + e^-eps0 / 2).
    seed_dp = delta + (math.exp(seed_eps.value) + 1) * (1 + math.exp(-eps0)) * n * delta0
    focs_dp = delta + (math.exp(focs_eps.value) + 1) * (1 + math.exp(-eps0) / 2) * n * delta0
    assert cf.prop22_seed_delta_prime(eps0=eps0, delta0=delta0, n=n, delta=delta).value == pytest.approx(seed_dp, rel=1e-14)
    assert cf.prop22_focs_delta_prime(eps0=eps0, delta0=delta0, n=n, delta=delta).value == pytest.approx(focs_dp, rel=1e-14)
    assert cf.prop22_focs_delta_prime(eps0=eps0, delta0=delta0, n=n, delta=delta).value < cf.prop22_seed_delta_prime(
        eps0=eps0, delta0=delta0, n=n, delta=delta
    ).value
    # delta0 = 0: delta' = delta exactly (pure LDP reduces to Thm 2.1).
    assert cf.prop22_seed_delta_prime(eps0=eps0, delta0=0.0, n=n, delta=delta).value == pytest.approx(delta, rel=1e-15)
    assert cf.prop22_seed_delta_prime(eps0=eps0, delta0=0.0, n=n, delta=delta).value >= delta


@pytest.mark.parametrize("variant, function", [("seed", cf.thm21_seed_epsilon), ("focs", cf.thm21_focs_epsilon), ("apple", cf.thm21_apple_epsilon)])
@pytest.mark.parametrize("eps, n", [(0.1, 10**5), (1.0, 10**6), (0.5, 10**8)])
def test_largest_eps0_for_epsilon_is_certified_and_nearly_tight(variant, function, eps, n):
    eps0 = cf.largest_eps0_for_epsilon(eps=eps, n=n, delta=DELTA, variant=variant)
    assert function(eps0=eps0, n=n, delta=DELTA).value <= eps
    bigger = eps0 * (1 + 1e-9)
    try:
        assert function(eps0=bigger, n=n, delta=DELTA).value > eps
    except HypothesisViolation:
        pass  # eps0 is at the regime's edge: no larger eps0 is certified at all


def test_eval_cli_json(capsys):
    assert main(["eval", "FMT21.Thm2.1.focs", "--param", "eps0=1", "--param", "n=10000", "--param", "delta=1e-6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is True and out["value"] == pytest.approx(0.21403, abs=6e-6)
    assert main(["eval", "FMT21.Thm2.1", "--param", "eps0=8", "--param", "n=10000", "--param", "delta=1e-6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is False and "log" in out["reason"]
    assert main(["eval", "FMT21.Prop2.2.focs_delta_prime", "-p", "eps0=1", "-p", "delta0=1e-12", "-p", "n=10000", "-p", "delta=1e-6", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] > 1e-6
