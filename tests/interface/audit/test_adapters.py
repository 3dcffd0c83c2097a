"""The adapters of the audit registry: each port reproduces what its original computes, the third-party
adapters refuse to run without the user's clone, and the registry judges recorded calls as the live audit
would (no third-party code runs here: only ports, recorded numbers and stand-ins)."""

from __future__ import annotations

import math

import mpmath
import pytest

from shuffle_spec.interface.audit import registry
from shuffle_spec.interface.audit.adapters import IMPLEMENTATIONS, ThirdPartyMissing, implementation
from shuffle_spec.interface.audit.adapters import aidotnet, optirs, python_codes, r_shfflm, rust_shuffle_dp, smartnoise
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


# --- The Rust crate's ShuffleDp::amplify: a run of the original ------------------------------------------------
# Printed by `ShuffleDp::amplify` (fmt_coefficient, amplify, validate_inputs compiled unchanged with `rustc -O`,
# rustc 1.95.0, with a two-variant stand-in for crate::error), `{:?}` of epsilon_central, 2026-11-26.
RUST_SHUFFLE_DP_RUN = [
    (1.0, 1_000_000, 1e-6, 0.084676368388105),
    (1.0, 10_000, 1e-6, 0.6332102183801624),
    (0.1, 10_000, 1e-6, 0.0339050787685125),
    (4.0, 100_000, 1e-6, 3.6904773158327964),
    (8.0, 10_000, 1e-5, 8.0),
    (0.5, 1000, 1e-6, 0.5),
    (10.0, 1_000_000_000, 1e-12, 8.401934048883835),
    (1.0, 2, 1e-6, 1.0),
]


@pytest.mark.parametrize("row", RUST_SHUFFLE_DP_RUN)
def test_rust_shuffle_dp_port_matches_the_rust_run(row):
    eps0, n, delta, printed = row
    assert rust_shuffle_dp.amplify(eps0, n, delta) == printed


def test_rust_shuffle_dp_is_above_fmt21_theorem_2_1_inside_its_hypothesis():
    # Module doc: dropping 1/(e^eps0 + 1) <= 1/2 outweighs dropping 8 e^eps0 / n inside the hypothesis
    # eps0 <= log(n / (16 log(2/delta))); checked against the registered closed form FMT21.Thm2.1.focs.
    from shuffle_spec.proofs_checks.bridge import evaluate

    statement = get_statement("FMT21.Thm2.1.focs")
    for eps0, n, delta in [(0.1, 10_000, 1e-6), (1.0, 10_000, 1e-6), (2.0, 1_000_000, 1e-8), (4.0, 10**7, 1e-6)]:
        assert eps0 <= math.log(n / (16 * math.log(2 / delta)))
        theorem = evaluate(statement, {"eps0": eps0, "n": n, "delta": delta})
        assert rust_shuffle_dp.amplify(eps0, n, delta) > float(theorem.interval[1] if theorem.interval else theorem.value)


def test_rust_shuffle_dp_refuses_what_validate_inputs_refuses_and_overflows_like_f64():
    for eps0, n, delta in [(-0.1, 1000, 1e-5), (1.0, 1, 1e-5), (1.0, 1000, 0.0), (1.0, 1000, 1.0)]:
        with pytest.raises(ValueError):
            rust_shuffle_dp.amplify(eps0, n, delta)
    assert rust_shuffle_dp.amplify(800.0, 10, 0.5) == 800.0  # exp overflows to inf, the clamp returns eps0
    assert rust_shuffle_dp.amplify(math.nan, 10_000, 1e-6) == 0.0  # NaN.min(NaN).max(0.0) is 0.0 in Rust
    assert rust_shuffle_dp.amplify(1e-300, 10_000, 1e-6) == 0.0  # exp(1e-300) - 1 == 0 in doubles


# --- The R function Shfflm: a run of the original -------------------------------------------------------------
# Printed by Rscript (R 4.2.2) running `Shfflm` unchanged (with `.t1_result <- function(...) list(...)`),
# sprintf("%.17g") of $estimate, $epsilon_refined, $epsilon_simple, 2026-11-26.
R_SHFFLM_RUN = [
    (0.1, 10_000, 1e-6, 0.013511240871665234, 0.013514540978204922, 0.044603066266198067),
    (0.25, 10_000, 1e-6, 0.049318066545213084, 0.049361919434399555, 0.11150766566549514),
    (0.5, 10_000, 1e-6, 0.1866318325237602, 0.18725353417810872, 0.22301533133099027),
    (1.0, 10_000, 1e-6, 1.3993487437334433, 1.4315069322326046, 0.44603066266198055),
    (1.0, 1_000_000, 1e-6, 0.13412346639209435, 0.13444585945594126, 0.04460306626619806),
    (3.0, 1_000_000, 1e-6, 319.92086170364001, 436.65494476668414, 0.13380919879859418),
    (0.1, 1000, 1e-2, 0.024721999573810566, 0.024754993007756704, 0.08143368509298135),
    (2.0, 100_000, 1e-8, 18.275313997279135, 20.691952121834642, 0.3257347403719254),
    (5.0, 5, 0.5, math.inf, 12651543357084.723, 22.339784466354203),
]


@pytest.mark.parametrize("row", R_SHFFLM_RUN)
def test_r_shfflm_port_matches_the_r_run(row):
    eps0, n, delta, general, refined, simple = row
    fields = r_shfflm.shfflm(eps0, n, delta)
    assert fields["estimate"] == pytest.approx(general, rel=1e-15)
    assert fields["epsilon_refined"] == pytest.approx(refined, rel=1e-15)
    assert fields["epsilon_simple"] == pytest.approx(simple, rel=1e-15)


def test_r_shfflm_estimate_is_the_registered_general_bound_and_cancels_at_tiny_eps0():
    from shuffle_spec.proofs_checks.bridge import evaluate

    statement = get_statement("EFMRTT19.Thm7.v2")
    for eps0, n, delta in [(0.1, 10_000, 1e-6), (0.5, 10_000, 1e-6), (1.0, 1_000_000, 1e-6)]:
        low, high = (float(x) for x in evaluate(statement, {"eps0": eps0, "n": n, "delta": delta}).interval)
        assert r_shfflm.estimate(eps0, n, delta) == pytest.approx(high, rel=1e-14) and low <= high
    # exp(e0) - 1 in doubles is 0 below 2^-53: the estimate is 0 where the theorem's value is positive.
    assert r_shfflm.estimate(1e-300, 10_000, 1e-6) == 0.0
    assert float(evaluate(statement, {"eps0": 1e-300, "n": 10_000, "delta": 1e-6}).interval[0]) > 0
    for eps0, n, delta in [(0.0, 10, 0.5), (1.0, 1, 0.5), (1.0, 10, 1.0)]:
        with pytest.raises(ValueError):
            r_shfflm.estimate(eps0, n, delta)


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


def test_the_cupy_stand_in_computes_numpy_s_transforms_and_re_exports_numpy():
    # In a child process (the stand-in must never be importable as `cupy` in this one): cupy.fft.fft/ifft
    # equal numpy.fft.fft/ifft up to float64 round-off on a probability vector like the audited code's grid,
    # and the other names the audited code uses are NumPy's own.
    import subprocess
    import sys
    from pathlib import Path

    from support.paths import child_environment

    script = (
        "import numpy as np, cupy as cp\n"
        "x = np.zeros(1 << 12); x[:300] = np.random.default_rng(1).random(300); x /= x.sum()\n"
        "f = cp.fft.fft(x); assert np.max(np.abs(f - np.fft.fft(x))) < 1e-14\n"
        "g = cp.fft.ifft(f ** 7); assert np.max(np.abs(g - np.fft.ifft(np.fft.fft(x) ** 7))) < 1e-15\n"
        "assert cp.pad is np.pad and cp.maximum is np.maximum and cp.sum is np.sum and cp.linspace is np.linspace and cp.asarray is np.asarray\n"
        "assert cp.fft.__name__ == 'cupy._fft'\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], env=child_environment(Path(python_codes.CUPY_STANDIN)), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
