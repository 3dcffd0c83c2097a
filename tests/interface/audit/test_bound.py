"""`shuffle-spec audit bound`: verdicts by consequence, the sandbox, importing, the sweep, and the
adapters of `docs/audits/adapters/` run against stand-in modules (no third-party code here).

Stand-ins reproduce each kind of behaviour seen in the public implementations: a formula-correct
function without input checks, a halved one, a function that returns 1e-6 at delta = 1 (harmless), a
negative epsilon for eps0 < 0, `sys.exit`, a hang, a non-number. They compute their formulas from the
spec's own closed form (`Statement.value`, lambdified), never from copied third-party code.
"""

from __future__ import annotations

import json
import math
import os
import textwrap
from pathlib import Path

import pytest
from support import statements as fx
from shuffle_spec.interface.audit.bound import audit_bound, grid_points
from shuffle_spec.proofs_checks.bridge import UsageError
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.audit.sandbox import CallOutcome, Sandbox
from shuffle_spec.interface.vectors.files import generate_group
from shuffle_spec.interface.audit.verdicts import (
    ACCEPTS_INVALID,
    BELOW_BOUND,
    CRASH,
    NON_NUMBER,
    PASS,
    TIMEOUT,
    UNSOUND,
    judge,
)
from shuffle_spec.spec.registry import get_statement, list_statements

from support.paths import ROOT, TESTS
ADAPTERS = ROOT / "docs" / "audits" / "adapters"


def _write(directory: Path, name: str, source: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(textwrap.dedent(source))
    return path


def _pythonpath(monkeypatch: pytest.MonkeyPatch, *folders: Path) -> None:
    """The child process sees the stand-ins first, then this checkout (stand-ins import shuffle_spec)."""
    existing = os.environ.get("PYTHONPATH", "")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([*(str(f) for f in folders), str(TESTS), existing]))


# A stand-in for apple/ml-shuffling-amplification's closed form: FMT21.Thm2.1.apple's formula as the
# spec states it (`shuffle-spec show FMT21.Thm2.1.apple`; checked against the spec's value below),
# eps0 outside the regime (as the public code does), no other input check.
APPLE_STANDIN = """
    import math

    FACTOR = {factor}

    def formula(eps0, n, delta):
        s = 8 * math.exp(eps0) / n + 8 * math.exp(eps0 / 2) * math.sqrt(math.log(4 / delta)) / math.sqrt(n)
        return math.log(1 + (1 - math.exp(-eps0)) * s / (1 + math.exp(-eps0) / (1 + s)))

    def closedformanalysis(n, epsorig, delta):
        if epsorig > math.log(n / (16 * math.log(4 / delta))):
            return epsorig
        return FACTOR * formula(epsorig, n, delta)
"""


def test_the_apple_stand_in_is_the_spec_formula(tmp_path):
    if not _real_registry_has("FMT21.Thm2.1.apple"):
        pytest.skip("FMT21.Thm2.1.apple not registered")
    namespace: dict = {}
    exec(textwrap.dedent(APPLE_STANDIN.format(factor=1)), namespace)
    statement = get_statement("FMT21.Thm2.1.apple")
    for point in ({"eps0": 1.0, "n": 10_000, "delta": 1e-6}, {"eps0": 3.0, "n": 10**6, "delta": 1e-9}):
        spec_value = float(statement.evaluate_value(point))
        assert namespace["closedformanalysis"](point["n"], point["eps0"], point["delta"]) == pytest.approx(spec_value, rel=1e-12)


def _real_registry_has(*ids: str) -> bool:
    known = {s.id for s in list_statements()}
    return all(i in known for i in ids)


@pytest.mark.skipif(not _real_registry_has("FMT21.Thm2.1.apple"), reason="FMT21.Thm2.1.apple not registered")
class TestAdaptersOnStandIns:
    def test_formula_correct_without_input_checks_passes_with_warnings(self, tmp_path, monkeypatch):
        _write(tmp_path / "good", "computeamplification.py", APPLE_STANDIN.format(factor=1))
        _pythonpath(monkeypatch, tmp_path / "good")
        report = audit_bound(f"{ADAPTERS / 'apple_adapters.py'}:closed_form", "FMT21.Thm2.1.apple", quiet=True)
        assert report.result == "warn" and report.ok, report.summary()
        assert not report.by_severity("failure")
        assert {f.verdict for f in report.by_severity("warning")} == {ACCEPTS_INVALID}
        assert report.counts().get(PASS, 0) >= 5 and report.truth_checked >= 5
        # --strict turns every number outside the hypotheses into a failure (Wycheproof style).
        strict = audit_bound(f"{ADAPTERS / 'apple_adapters.py'}:closed_form", "FMT21.Thm2.1.apple", strict=True, quiet=True)
        assert strict.result == "fail" and {f.verdict for f in strict.by_severity("failure")} == {ACCEPTS_INVALID}

    def test_halved_fails_below_bound(self, tmp_path, monkeypatch):
        _write(tmp_path / "halved", "computeamplification.py", APPLE_STANDIN.format(factor=0.5))
        _pythonpath(monkeypatch, tmp_path / "halved")
        report = audit_bound(f"{ADAPTERS / 'apple_adapters.py'}:closed_form", "FMT21.Thm2.1.apple", quiet=True)
        assert report.result == "fail" and report.worst in (UNSOUND, BELOW_BOUND)
        below = [f for f in report.findings if f.verdict == BELOW_BOUND]
        assert below and all(f.got < float(f.interval[0]) for f in below)
        for finding in report.findings:  # UNSOUND exactly where below the lower bound on the truth
            if finding.inside and finding.truth is not None and finding.got is not None:
                assert (finding.verdict == UNSOUND) == (finding.got < finding.truth)

    def test_cli_exit_codes_follow_the_worst(self, tmp_path, monkeypatch, capsys):
        _write(tmp_path / "good", "computeamplification.py", APPLE_STANDIN.format(factor=1))
        _pythonpath(monkeypatch, tmp_path / "good")
        assert main(["audit", "bound", f"{ADAPTERS / 'apple_adapters.py'}:closed_form", "--id", "FMT21.Thm2.1.apple"]) == 0
        out = capsys.readouterr().out
        assert "result: PASS WITH WARNINGS" in out and "ACCEPTS INVALID" in out and "summary:" in out


@pytest.fixture
def v1(monkeypatch):
    """The V1 test statement (12 eps0 sqrt(log(1/delta)/n)) alone in the registry: fast, no truth at n >= 1000."""
    fx.install(monkeypatch)


BEHAVIOURS = """
    import math, os, sys, time

    def formula(eps0, n, delta):
        if not (0 < eps0 < 0.5 and n >= 1000 and n == int(n) and 0 < delta < 0.01):
            raise ValueError("outside the regime")
        return 12 * eps0 * math.sqrt(math.log(1 / delta) / n)

    def balle_like(eps0, n, delta):
        # BBGN19's code: at delta = 1 every mechanism is (0, 1)-DP, it returns its floor 1e-6.
        if delta >= 1:
            return 1e-6
        return formula(eps0, n, delta)

    def negative(eps0, n, delta):
        # no input check: eps0 < 0 gives a negative "epsilon"; and a wrong branch at delta >= 1
        if delta >= 1:
            return -1e-3
        return 12 * eps0 * math.sqrt(abs(math.log(1 / delta)) / abs(n)) if delta > 0 and n != 0 else 0.0

    def exits(eps0, n, delta):
        sys.exit(0)

    def hangs(eps0, n, delta):
        time.sleep(60)

    def text(eps0, n, delta):
        return "0.1"

    def dies(eps0, n, delta):
        os._exit(7)

    def positional(a, b, c):
        return formula(a, b, c)
"""


class TestVerdicts:
    def test_balle_like_delta_one_is_harmless(self, v1, tmp_path):
        path = _write(tmp_path, "behaviours.py", BEHAVIOURS)
        report = audit_bound(f"{path}:balle_like", fx.V1.id, grid=True, grid_shape=(2, 2, 2), quiet=True)
        at_one = [f for f in report.findings if f.inputs["delta"] == 1.0]
        assert at_one and all(f.verdict == ACCEPTS_INVALID and f.severity == "warning" for f in at_one)
        assert report.result == "warn", report.summary()

    def test_negative_epsilon_outside_the_hypotheses(self, v1, tmp_path):
        # The rule for negative answers: a failure when below eps0 (eps0 > 0: claims more than anything certifies), a
        # warning when eps0 < 0 (no such randomizer; still reported: it would lower a composed budget).
        path = _write(tmp_path, "behaviours.py", BEHAVIOURS)
        report = audit_bound(f"{path}:negative", fx.V1.id, grid=True, grid_shape=(2, 2, 2), quiet=True)
        negative = [f for f in report.findings if f.got is not None and f.got < 0]
        assert negative and all(f.verdict == ACCEPTS_INVALID for f in negative)
        assert all(f.severity == ("warning" if f.inputs["eps0"] < 0 else "failure") for f in negative)
        assert any(f.severity == "failure" for f in negative) and report.result == "fail"

    @pytest.mark.parametrize(
        "name, verdict, fragment",
        [("exits", CRASH, "sys.exit(0)"), ("hangs", TIMEOUT, "no answer within"), ("text", NON_NUMBER, "'0.1'"), ("dies", CRASH, "exit status 7")],
    )
    def test_exits_hangs_and_non_numbers_are_verdicts(self, v1, tmp_path, name, verdict, fragment):
        path = _write(tmp_path, "behaviours.py", BEHAVIOURS)
        group = generate_group(fx.V1)
        two = {**group, "tests": [t for t in group["tests"] if t["result"] == "valid"][:2]}  # each call may cost a restart
        report = audit_bound(f"{path}:{name}", fx.V1.id, vectors=two, time_limit=0.5, quiet=True)
        inside = [f for f in report.findings if f.inside]
        assert inside and all(f.verdict == verdict and fragment in f.reason for f in inside)
        assert report.result == "fail"

    def test_positional_parameters_and_the_formula_pass(self, v1, tmp_path):
        path = _write(tmp_path, "behaviours.py", BEHAVIOURS)
        report = audit_bound(f"{path}:positional", fx.V1.id, quiet=True)
        assert report.counts()[PASS] == sum(f.inside for f in report.findings) >= len(fx.V1.examples)
        assert report.result == "pass", report.summary()

    def test_overall_time_limit_is_not_a_pass(self, v1, tmp_path):
        path = _write(tmp_path, "behaviours.py", BEHAVIOURS)
        report = audit_bound(f"{path}:hangs", fx.V1.id, time_limit=0.3, total_time_limit=0.5, quiet=True)
        assert report.not_run > 0 and report.result == "fail"

    def test_json_report_has_every_call(self, v1, tmp_path, capsys):
        path = _write(tmp_path, "behaviours.py", BEHAVIOURS)
        code = main(["audit", "bound", f"{path}:formula", "--id", fx.V1.id, "--json"])
        report = json.loads(capsys.readouterr().out)
        assert code == 0 and report["result"] in ("pass", "warn")
        assert report["calls"] == len(report["findings"]) > 0
        assert {"inputs", "got", "verdict", "severity", "reason"} <= set(report["findings"][0])
        assert report["direction"] == fx.V1.direction.value  # which side of the truth the audited bound claims

    def test_judge_above_bound_is_a_warning_with_the_gap(self, v1):
        finding = judge(fx.V1, {"eps0": 0.25, "n": 10_000, "delta": 1e-6}, CallOutcome("value", 0.2), inside=True, expected="0.1", interval=["0.0999", "0.1001"], check_truth=False)
        assert finding.verdict == "ABOVE BOUND" and finding.severity == "warning" and finding.relative_gap == pytest.approx(1.0)


class TestImporting:
    def test_module_function_resolves_against_the_current_directory(self, v1, tmp_path, monkeypatch, capsys):
        _write(tmp_path, "my_adapters.py", BEHAVIOURS)
        monkeypatch.chdir(tmp_path)
        assert main(["audit", "bound", "my_adapters:formula", "--id", fx.V1.id]) == 0
        capsys.readouterr()

    @pytest.mark.parametrize(
        "source, fragment",
        [("import no_such_module_xyz\n", "No module named 'no_such_module_xyz'"), ("def f(:\n", "SyntaxError"), ("import sys\nsys.exit(3)\n", "sys.exit(3)")],
    )
    def test_broken_modules_are_one_line_usage_errors(self, v1, tmp_path, capsys, source, fragment):
        path = _write(tmp_path, "broken.py", source)
        code = main(["audit", "bound", f"{path}:f", "--id", fx.V1.id])
        err = capsys.readouterr().err
        assert code == 2 and fragment in err and "Traceback" not in err and len(err.strip().splitlines()) == 1

    def test_missing_function_and_file(self, v1, tmp_path, capsys):
        path = _write(tmp_path, "behaviours.py", BEHAVIOURS)
        assert main(["audit", "bound", f"{path}:nope", "--id", fx.V1.id]) == 2
        assert main(["audit", "bound", f"{tmp_path / 'absent.py'}:f", "--id", fx.V1.id]) == 2
        assert "no such file" in capsys.readouterr().err


def test_a_statement_without_scalar_vectors_is_not_a_pass(tmp_path, capsys):
    # A regression: "0/0 vectors pass ... result: pass" was a false pass.
    if not _real_registry_has("EFMRTT19.Def1"):
        pytest.skip("EFMRTT19.Def1 not registered")
    path = _write(tmp_path, "behaviours.py", BEHAVIOURS)
    code = main(["audit", "bound", f"{path}:formula", "--id", "EFMRTT19.Def1"])
    assert code == 2 and "nothing to audit" in capsys.readouterr().err


def test_sandbox_isolates_the_parent(tmp_path):
    path = _write(tmp_path, "behaviours.py", BEHAVIOURS)
    with Sandbox(f"{path}:exits", time_limit=5) as sandbox:
        first = sandbox.call({"eps0": 1.0, "n": 10, "delta": 0.1}, ["eps0", "n", "delta"])
        second = sandbox.call({"eps0": 1.0, "n": 10, "delta": 0.1}, ["eps0", "n", "delta"])
    assert first.kind == second.kind == "exit"  # the parent is alive and the child answers again


def test_memory_limit_turns_a_huge_allocation_into_a_verdict(tmp_path):
    path = _write(tmp_path, "hog.py", "def f(eps0, n, delta):\n    return len(bytearray(8 * 1024**3))\n")
    with Sandbox(f"{path}:f", time_limit=20, memory_mb=512) as sandbox:
        outcome = sandbox.call({"eps0": 1.0, "n": 10, "delta": 0.1}, ["eps0", "n", "delta"])
    assert outcome.kind in ("raised", "crash") and ("MemoryError" in outcome.text or "died" in outcome.text)


def test_grid_covers_the_ranges_edges_and_degenerate_inputs(v1):
    points = grid_points(fx.V1, (3, 3, 2))
    sources = {p.source for p in points}
    assert {"grid", "edge", "degenerate"} <= sources
    grid = [p.inputs for p in points if p.source == "grid"]
    assert min(p["eps0"] for p in grid) == 0.05 and max(p["eps0"] for p in grid) == 10.0
    assert min(p["n"] for p in grid) == 10 and max(p["n"] for p in grid) == 10**9
    # The edge points straddle V1's regime eps0 < 1/2 along eps0.
    edges = [p for p in points if p.source == "edge"]
    assert any(p.inside for p in edges) and any(not p.inside for p in edges)
    assert all(abs(p.inputs["eps0"] - 0.5) < 0.01 for p in edges)
    degenerate = [p.inputs for p in points if p.source == "degenerate"]
    assert any(math.isnan(p["eps0"]) for p in degenerate) and any(p["n"] == 10_000.5 for p in degenerate)


def test_grid_refuses_statements_without_eps0_n_delta(v1):
    with pytest.raises(UsageError, match="--grid needs"):
        grid_points(fx.GAMMA)


def test_audit_bound_time_limit_option_is_checked(v1, tmp_path, capsys):
    path = _write(tmp_path, "behaviours.py", BEHAVIOURS)
    assert main(["audit", "bound", f"{path}:formula", "--id", fx.V1.id, "--time-limit", "-1"]) == 2
    assert main(["audit", "bound", f"{path}:formula", "--id", fx.V1.id, "--grid-shape", "0x1x1"]) == 2
    assert "out of range" in capsys.readouterr().err


def test_help_says_the_code_runs_with_the_users_rights(capsys):
    with pytest.raises(SystemExit):
        main(["audit", "bound", "--help"])
    assert "runs the given Python code with your user's rights" in " ".join(capsys.readouterr().out.split())


# The adapters' own logic (argument order, parameters from the repositories' READMEs), checked in
# process against recording stand-ins of the third-party modules.
BALLE_STANDINS = {
    "mechanisms.py": """
        class LDPMechanism:
            def __init__(self, eps0=1, name="Generic"):
                self.eps0, self.kind = eps0, ("generic",)
        class RRMechanism(LDPMechanism):
            def __init__(self, eps0=1, k=2, name="RR"):
                self.eps0, self.kind = eps0, ("krr", k)
        class LaplaceMechanism(LDPMechanism):
            def __init__(self, eps0=1, name="Laplace"):
                self.eps0, self.kind = eps0, ("laplace",)
    """,
    "amplification_bounds.py": """
        class _Bound:
            def __init__(self, mechanism=None):
                self.mechanism = mechanism
            def get_eps(self, eps0, n, delta):
                return (type(self).__name__, getattr(self.mechanism, "kind", None), self.mechanism.eps0 if self.mechanism else None, eps0, n, delta)
        class Hoeffding(_Bound): pass
        class BennettExact(_Bound): pass
        class Erlingsson(_Bound): pass
    """,
}
WANG_STANDIN = """
    def amplificationUB(p, beta, q0, q1, n, delta, T):
        return (p, beta, q0, q1, n, delta, T)
"""


def test_balle_adapters_build_the_right_objects(tmp_path, monkeypatch):
    from shuffle_spec.interface.audit.bound import load_bound_function

    for name, source in BALLE_STANDINS.items():
        _write(tmp_path, name, source)
    monkeypatch.syspath_prepend(str(tmp_path))
    adapters = ADAPTERS / "balle_adapters.py"
    assert load_bound_function(f"{adapters}:hoeffding_generic")(2.0, 100, 1e-6) == ("Hoeffding", ("generic",), 2.0, 2.0, 100, 1e-6)
    assert load_bound_function(f"{adapters}:bennett_krr")(2.0, 100, 1e-6, 5) == ("BennettExact", ("krr", 5), 2.0, 2.0, 100, 1e-6)
    assert load_bound_function(f"{adapters}:bennett_laplace")(1.0, 10, 0.1)[1] == ("laplace",)
    assert load_bound_function(f"{adapters}:erlingsson")(0.3, 1000, 1e-3) == ("Erlingsson", None, None, 0.3, 1000, 1e-3)


def test_wang_adapters_use_the_readme_parameters(tmp_path, monkeypatch):
    from shuffle_spec.interface.audit.bound import load_bound_function

    _write(tmp_path, "unifiedamplification.py", WANG_STANDIN)
    monkeypatch.syspath_prepend(str(tmp_path))
    adapters = ADAPTERS / "wang_adapters.py"
    e = math.exp(1.0)
    general = load_bound_function(f"{adapters}:general")
    krr = load_bound_function(f"{adapters}:krr")
    calls = []
    general.__globals__["amplificationUB"] = lambda *a: calls.append(a) or 0.5
    krr.__globals__["amplificationUB"] = lambda *a: calls.append(a) or 0.5
    assert general(1.0, 10, 1e-6) == 0.5 and krr(1.0, 10, 1e-6, 4) == 0.5
    assert calls[0] == pytest.approx((e, (e - 1) / (e + 1), e, e, 10, 1e-6, 20))
    assert calls[1] == pytest.approx((e, (e - 1) / (e + 3), e, e, 10, 1e-6, 20))


def test_apple_adapters_reorder_the_arguments(tmp_path, monkeypatch):
    from shuffle_spec.interface.audit.bound import load_bound_function

    _write(tmp_path, "computeamplification.py", """
        def closedformanalysis(n, epsorig, delta):
            return ("closed", n, epsorig, delta)
        def numericalanalysis(n, epsorig, delta, num_iterations, step, upperbound):
            return ("numeric", n, epsorig, delta, num_iterations, step, upperbound)
    """)
    monkeypatch.syspath_prepend(str(tmp_path))
    adapters = ADAPTERS / "apple_adapters.py"
    assert load_bound_function(f"{adapters}:closed_form")(1.0, 100, 1e-6) == ("closed", 100, 1.0, 1e-6)
    assert load_bound_function(f"{adapters}:numerical_upper")(1.0, 100, 1e-6) == ("numeric", 100, 1.0, 1e-6, 10, 100, True)
