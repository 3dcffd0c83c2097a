"""The adapters of the audit registry: each port reproduces what its original computes, the third-party
adapters refuse to run without the user's clone, and the registry judges recorded calls as the live audit
would (no third-party code runs here: only ports, recorded numbers and stand-ins)."""

from __future__ import annotations

import math

import mpmath
import pytest

from shuffle_spec.interface.audit import registry
from shuffle_spec.interface.audit.adapters import IMPLEMENTATIONS, ThirdPartyMissing, implementation
from shuffle_spec.interface.audit.adapters import aidotnet, optirs, python_codes, smartnoise
from shuffle_spec.interface.audit.sandbox import CallOutcome
from shuffle_spec.interface.audit.verdicts import BELOW_BOUND, PASS, UNSOUND
from shuffle_spec.spec.registry import get_statement

def _truth_lower(eps0: float, n: int, delta: float) -> float:
    """A certified lower bound on the true central epsilon of the worst eps0-LDP randomizer: the exact epsilon
    of one neighbouring pair of shuffled binary RR (exact.shuffled_binary_rr.pair at k = 0, milliseconds)."""
    from shuffle_spec.proofs_checks.bridge import evaluate

    result = evaluate(get_statement("exact.shuffled_binary_rr.pair"), {"eps0": eps0, "n": n, "delta": delta, "k": 0})
    return float(result.interval[0]) if result.interval is not None else float(result.value)


# --- AiDotNet (C#; no dotnet here): the port against the method's own doc comment, in exact arithmetic ---


def _aidotnet_documented(eps0: float, n: int, delta: float) -> float:
    """min of the two formulas of ShuffleModelDP.cs's doc comment (lines 266-278), at 60 digits."""
    with mpmath.workdps(60):
        e, nn, d = mpmath.mpf(eps0), mpmath.mpf(n), mpmath.mpf(delta)
        tight = (1 - 1 / nn) * mpmath.log(1 + (mpmath.exp(e) - 1) / nn) + e / nn
        asymptotic = e * mpmath.sqrt(mpmath.log(1 / d) / nn)
        return float(min(tight, asymptotic))


@pytest.mark.parametrize("point", [(8.0, 10_000, 1e-5), (1.0, 10_000, 1e-6), (4.0, 100_000, 1e-6), (0.5, 1000, 1e-8), (10.0, 50, 0.1)])
def test_aidotnet_port_computes_the_documented_formula(point):
    assert aidotnet.compute_effective_epsilon(*point) == pytest.approx(_aidotnet_documented(*point), rel=1e-13)


def test_aidotnet_port_refuses_what_the_csharp_method_refuses_and_returns_eps0_at_one_client():
    for bad in [(0.0, 10, 1e-6), (-1.0, 10, 1e-6), (1.0, 0, 1e-6), (1.0, 10, 1.0), (1.0, 10, -1e-9), (1.0, 10, math.nan)]:
        with pytest.raises(ValueError):
            aidotnet.compute_effective_epsilon(*bad)
    assert aidotnet.compute_effective_epsilon(3.0, 1, 1e-6) == 3.0
    # delta = 0 selects the delta-free term alone (lines 306-308).
    assert aidotnet.compute_effective_epsilon(1.0, 100, 0.0) == pytest.approx((1 - 1 / 100) * math.log(1 + (math.e - 1) / 100) + 1 / 100, rel=1e-15)


def test_aidotnet_default_point_is_below_the_exact_shuffled_binary_rr():
    """Its own default (eps0 = 8, n = 1e4, delta = 1e-5): the delta-free term (1 - 1e-4) ln(1 + (e^8 - 1)/1e4)
    + 8e-4 = 0.2616 is the smaller; a certified lower bound on the truth (one pair of shuffled binary RR) is
    above it (the truth there is 7.9997, `tightest --randomizer binary_rr`)."""
    claimed = aidotnet.compute_effective_epsilon(8.0, 10_000, 1e-5)
    assert claimed == pytest.approx((1 - 1e-4) * math.log(1 + math.expm1(8.0) / 1e4) + 8e-4, rel=1e-13)
    assert claimed < _truth_lower(8.0, 10_000, 1e-5)


# --- SmartNoise (Rust): the port against a run of the original ---------------------------------------------
# Printed by the original shuffling.rs (commit 5cea85df1), its functions compiled unchanged with `rustc -O`
# and called as shuffle_amplification(eps0, 0.0, delta, n, Bound::...).0 on 2026-11-26 (Rust 1.x, x86-64).
RUST_RUN = [
    # (eps0, n, delta, Theoretical, Empirical)
    (0.5, 1000, 1e-6, 0.27263760920041036, 0.0625),
    (0.1, 1000, 1e-8, 0.05786659657381941, 0.0125),
    (0.2, 500, 1e-3, 0.10925065288546135, 0.00625),
    (2.0, 2000, 1e-6, 0.9027683555763244, 0.25),
    (1.0, 10_000, 1e-6, 0.21402565193083783, 0.03125),
]


@pytest.mark.parametrize("row", RUST_RUN)
def test_smartnoise_theoretical_port_matches_the_rust_run_and_the_registered_statement(row):
    eps0, n, delta, theoretical, _ = row
    assert smartnoise.theoretical(eps0, n, delta) == pytest.approx(theoretical, rel=1e-14)
    spec_value = float(get_statement("FMT21.Thm2.1.focs").evaluate_value({"eps0": eps0, "n": n, "delta": delta}))
    assert theoretical == pytest.approx(spec_value, rel=1e-12)


@pytest.mark.parametrize("row", RUST_RUN[:3])
def test_smartnoise_empirical_port_matches_the_rust_run(row):
    eps0, n, delta, _, empirical = row
    assert smartnoise.empirical(eps0, n, delta) == empirical


@pytest.mark.slow
@pytest.mark.parametrize("row", RUST_RUN[3:])
def test_smartnoise_empirical_port_matches_the_rust_run_at_larger_n(row):
    eps0, n, delta, _, empirical = row
    assert smartnoise.empirical(eps0, n, delta) == empirical


def test_smartnoise_empirical_returns_a_failing_candidate():
    """The bug the port keeps: a bisection midpoint eps0 / 2^j whose own delta EXCEEDED the target is returned
    (m1 returns exactly delta_u when the running delta exceeds it, line 79, and the search returns on
    Ordering::Equal, line 59): at eps0 = 0.5, n = 1000, delta = 1e-6 it returns 0.0625, and m1 itself says
    0.0625 fails (its sum passed delta)."""
    claimed = smartnoise.empirical(0.5, 1000, 1e-6)
    assert claimed == 0.5 / 8
    assert smartnoise._m1(1000, 0.5, 1e-6, 5, claimed) == 1e-6


@pytest.mark.slow
def test_smartnoise_empirical_is_below_the_truth_at_n_1e4():
    """At eps0 = 1, n = 1e4, delta = 1e-6 the returned 0.03125 is below a certified lower bound on the true
    epsilon of shuffled binary RR (one pair's exact epsilon; the worst case is 0.035659)."""
    claimed = smartnoise.empirical(1.0, 10_000, 1e-6)
    assert claimed == 1 / 32
    assert claimed < _truth_lower(1.0, 10_000, 1e-6)


def test_smartnoise_refuses_outside_its_hypothesis():
    with pytest.raises(ValueError, match="step_epsilon"):
        smartnoise.theoretical(5.0, 1000, 1e-6)  # eps0 > ln(1000 / (16 ln(2e6)))


# --- OptiRS (Rust): its own test's numbers ---------------------------------------------------------------


def test_optirs_factor_reproduces_its_own_test_values():
    # amplification_analyzer.rs lines 318-330: factor(100) > 1 (it is 1 + 0.1 * 10 = 2), factor(1) = 1.
    assert optirs.shuffling_amplification_factor(100) == 2.0
    assert optirs.shuffling_amplification_factor(1) == 1.0
    assert optirs.central_epsilon(4.0, 100, 1e-6) == 2.0


# --- third-party Python: never run here --------------------------------------------------------------------


def test_third_party_adapters_name_the_variable_to_set(monkeypatch):
    for record in IMPLEMENTATIONS:
        if record.kind != "recorded":
            continue
        monkeypatch.delenv(f"SHUFFLE_SPEC_AUDIT_{record.key.upper()}", raising=False)
        function = record.function()
        arguments = {"eps0": 1.0, "n": 1000, "delta": 1e-6, "k": 10}
        with pytest.raises(ThirdPartyMissing, match=f"SHUFFLE_SPEC_AUDIT_{record.key.upper()}"):
            function(**{name: arguments[name] for name in record.inputs})
    assert callable(python_codes.su_fft_krr)


# --- the registry's judging of recorded calls ----------------------------------------------------------------


def test_a_recorded_call_is_judged_as_the_live_call_would_be(monkeypatch, tmp_path):
    """A recording of FMT21.Thm2.1.apple's own values passes; the same values halved are BELOW BOUND, and far
    below the truth UNSOUND (the verdicts recomputed from the recorded numbers today)."""
    record = implementation("apple_closed_form")
    statement = get_statement(record.statement)
    inputs = {"eps0": 1.0, "n": 100_000, "delta": 1e-6}
    value = float(statement.evaluate_value(inputs))
    monkeypatch.setattr(registry, "RECORDED_DIR", tmp_path)
    verdicts = []
    for factor in (1.0, 0.9, 0.1):
        registry.write_recorded(record, [{"inputs": inputs, "kind": "value", "value": value * factor, "text": "float"}], "test")
        audit = registry.audit_implementation(record)
        verdicts.append(audit.findings[0].verdict)
    assert verdicts == [PASS, BELOW_BOUND, UNSOUND]
    assert registry._outcome({"inputs": inputs, "kind": "raised", "value": None, "text": "ValueError: no"}) == CallOutcome("raised", text="ValueError: no")


def test_the_registry_is_not_stale():
    """registry.json was computed from today's adapters, recordings, verdict rules and spec (fingerprint), and
    registry.md is its table. Regenerate: python3 -m shuffle_spec.interface.audit.registry --write."""
    assert registry.stale() == []


def test_the_registry_lists_ten_implementations_with_a_page_each():
    import json

    document = json.loads(registry.REGISTRY_FILE.read_text())
    keys = [e["key"] for e in document["entries"]]
    assert len(keys) >= 10 and len(set(keys)) == len(keys)
    assert {e["repository"] for e in document["entries"]} >= {"ooples/AiDotNet", "wangsw/PrivacyAmplification", "DPBayes/numerical-shuffler-experiments"}
    for e in document["entries"]:
        assert (registry.AUDITS_DIR / e["page"]).exists(), e["page"]


@pytest.mark.deep
def test_the_registry_regenerates_to_the_committed_file():
    """The whole registry recomputed (tens of minutes on a loaded machine: the certified truths at n <= 1e4)
    equals the committed file: the deep tier, run by hand after a change of the reference."""
    import json

    fresh = json.loads(registry._dump(registry.build_registry()))
    assert fresh == json.loads(registry.REGISTRY_FILE.read_text())
