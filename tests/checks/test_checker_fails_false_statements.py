"""The checker is checked: false statements are reported as failures, also under `python -O`.

Why: a checker whose helpers return without checking (or whose
failures are `assert`s that `python -O` strips) would "prove" everything. Each check helper gets a
planted false statement (it must raise `CheckFailed`) and a true one (it must not: the negative test
alone would pass for a helper that always raises). The subprocess test repeats this with `-O`.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
import sympy as sp

from shuffle_spec.proofs_checks.papers import efmrtt19 as efmrtt19_checks
from shuffle_spec.proofs_checks.papers import fmt21 as fmt21_checks
from shuffle_spec.proofs_checks.framework import (
    CheckFailed,
    ProofCheck,
    assert_identity,
    assert_nonnegative,
    require,
    run_check,
)

from support.paths import ROOT, child_environment
x = sp.Symbol("x", nonnegative=True)
y = sp.Symbol("y", positive=True)


# (helper call on a false statement, the same helper on a true one)
HELPER_CASES = {
    "require": (lambda: require(1 == 2, "1 == 2"), lambda: require(2 == 2, "2 == 2")),
    "require, lazy message": (lambda: require(False, lambda: "lazy"), lambda: require(True, lambda: 1 / 0)),
    "require, SymPy relation": (lambda: require(sp.Integer(1) > 2, "1 > 2"), lambda: require(sp.Integer(3) > 2, "3 > 2")),
    "assert_identity": (
        lambda: assert_identity((x + 1) ** 2, x**2 + 1, "(x+1)^2 = x^2 + 1"),
        lambda: assert_identity((x + 1) ** 2, x**2 + 2 * x + 1, "(x+1)^2 = x^2 + 2x + 1"),
    ),
    "assert_identity, off by a constant factor": (
        lambda: assert_identity(sp.exp(2 * x), 2 * sp.exp(x), "e^{2x} = 2e^x"),
        lambda: assert_identity(sp.exp(2 * x), sp.exp(x) ** 2, "e^{2x} = (e^x)^2"),
    ),
    "assert_nonnegative": (
        lambda: assert_nonnegative(x - 1, "x - 1 >= 0"),
        lambda: assert_nonnegative(x**2 + x, "x^2 + x >= 0"),
    ),
    "assert_nonnegative, through e^x = 1 + w": (
        lambda: assert_nonnegative(1 - sp.exp(x), "1 - e^x >= 0"),
        lambda: assert_nonnegative(sp.exp(x) - 1, "e^x - 1 >= 0"),
    ),
    "efmrtt19 positive number": (
        lambda: efmrtt19_checks._assert_positive_number(sp.log(2) - 1, "log 2 - 1 > 0"),
        lambda: efmrtt19_checks._assert_positive_number(1 - sp.log(2), "1 - log 2 > 0"),
    ),
    "efmrtt19 non-negative on an interval": (
        lambda: efmrtt19_checks._assert_nonnegative_on(x - x**2 - sp.Rational(1, 10), x, 0, 1, "x - x^2 - 1/10 on [0, 1]"),
        lambda: efmrtt19_checks._assert_nonnegative_on(x - x**2, x, 0, 1, "x - x^2 on [0, 1]"),
    ),
    "efmrtt19 non-negative on an interval, not concave": (
        lambda: efmrtt19_checks._assert_nonnegative_on(x**3 - x**2 + sp.Rational(1, 10), x, 0, 1, "not concave"),
        lambda: efmrtt19_checks._assert_nonnegative_on(1 - x**2, x, 0, 1, "1 - x^2 on [0, 1]"),
    ),
    "fmt21 positive rational": (
        lambda: fmt21_checks._assert_positive_rational((fmt21_checks.u - 1) / (fmt21_checks.v + 1), "(u - 1)/(v + 1)"),
        lambda: fmt21_checks._assert_positive_rational((fmt21_checks.u + 1) / (fmt21_checks.v + 2), "(u + 1)/(v + 2)"),
    ),
}


@pytest.mark.parametrize("name", list(HELPER_CASES))
def test_helper_reports_a_false_statement(name):
    false_statement, true_statement = HELPER_CASES[name]
    with pytest.raises(CheckFailed):
        false_statement()
    true_statement()  # the helper is not "always fail" either


@pytest.mark.parametrize("name", list(HELPER_CASES))
def test_run_check_reports_a_planted_false_check(name):
    false_statement, true_statement = HELPER_CASES[name]
    failed = run_check(ProofCheck("PLANTED", name, false_statement))
    passed = run_check(ProofCheck("PLANTED", name, true_statement))
    assert not failed.passed and failed.detail
    assert passed.passed, passed.detail


def test_an_undecidable_relation_is_a_failure_not_a_pass():
    z = sp.Symbol("z", real=True)
    result = run_check(ProofCheck("PLANTED", "z > 0 for a real z", lambda: require(z > 0, "z > 0")))
    assert not result.passed and result.detail.startswith("error:")


def _asserts_in(path: Path) -> list[int]:
    return [node.lineno for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Assert)]


def test_no_check_and_no_library_code_relies_on_assert():
    # python -O strips `assert`: no proof check, agreement check, verdict or input validation may use it.
    library = [*sorted((ROOT / "proofs_checks").rglob("*.py")), *sorted((ROOT / "reference").rglob("*.py")), *sorted((ROOT / "spec").rglob("*.py"))]
    assert len(library) > 40
    offenders = {str(path.relative_to(ROOT)): lines for path in library if (lines := _asserts_in(path))}
    assert not offenders, f"assert statements (stripped by python -O) in library code: {offenders}"


# Run in a subprocess with -O: planted false checks through every helper must fail, true ones pass;
# real proof and agreement checks pass, and fail once the spec or reference they check is planted wrong.
_OPTIMIZED_SCRIPT = r"""
import dataclasses, json, sys
import sympy as sp
assert False, "not reached under -O"  # proves the asserts really are stripped in this process
sys.path.insert(0, sys.argv[1])
from test_checker_fails_false_statements import HELPER_CASES
from shuffle_spec.proofs_checks import agreement
from shuffle_spec.proofs_checks.papers import efmrtt19
from shuffle_spec.proofs_checks.framework import ProofCheck, all_checks, run_check

out = {"optimize": sys.flags.optimize, "planted": {}, "real": {}, "real_planted_wrong": {}, "real_planted_high": {}}
for name, (false_statement, true_statement) in HELPER_CASES.items():
    out["planted"][name] = [run_check(ProofCheck("PLANTED", name, false_statement)).passed,
                            run_check(ProofCheck("PLANTED", name, true_statement)).passed]
chosen = [c for c in all_checks() if c.statement_id in ("EFMRTT19.Lem4", "EFMRTT19.Thm8.v2")]
for c in chosen:
    out["real"][c.statement_id + ":" + c.name] = run_check(c).passed
# Plant a wrong spec (Lemma 4's eps' doubled) and a wrong reference (1% low) and rerun.
efmrtt19.S.LEM4_EPS = 2 * efmrtt19.S.LEM4_EPS
real_evaluate = agreement.evaluate
def low_by_one_percent(statement, example):
    result = real_evaluate(statement, example)
    return dataclasses.replace(result, value=result.value * 0.99) if result.valid else result
agreement.evaluate = low_by_one_percent
for c in chosen:
    out["real_planted_wrong"][c.statement_id + ":" + c.name] = run_check(c).passed
# A reference 1% high: on the safe side of an upper bound, but not the closed form it implements.
def high_by_one_percent(statement, example):
    result = real_evaluate(statement, example)
    return dataclasses.replace(result, value=result.value * 1.01) if result.valid else result
agreement.evaluate = high_by_one_percent
out["real_planted_high"] = {c.statement_id + ":" + c.name: run_check(c).passed for c in chosen if "spec = reference" in c.name}
print(json.dumps(out))
"""


@pytest.mark.slow  # a fresh interpreter under -O re-imports the registry (about 12 s): second tier; the same
# planted checks run in the default tier without -O above
def test_planted_false_checks_fail_under_python_O():
    script = _OPTIMIZED_SCRIPT
    done = subprocess.run(
        [sys.executable, "-O", "-c", script, str(Path(__file__).parent)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=child_environment(Path(__file__).parent),
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout)
    assert out["optimize"] == 1
    assert out["planted"] and all(verdicts == [False, True] for verdicts in out["planted"].values()), out["planted"]
    assert out["real"] and all(out["real"].values()), out["real"]
    wrong = out["real_planted_wrong"]
    must_fail = [name for name in wrong if "eps' = eps at q = 1" in name or "per-step eps1" in name or "spec = reference" in name]
    assert len(must_fail) >= 6 and not any(wrong[name] for name in must_fail), wrong
    assert len(out["real_planted_high"]) >= 6 and not any(out["real_planted_high"].values()), out["real_planted_high"]
    # Checks that do not involve the planted parts still pass: the failures are the planted ones.
    assert all(wrong[name] for name in wrong if "both refuse" in name or "reference exists" in name), wrong
