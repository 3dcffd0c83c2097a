"""The command-line contract: list / show / eval / check, JSON fields, exit codes.

Commands run in-process through `proofs_checks.cli.main` (fast), and once through the installed
console script to prove the entry point works.
"""

import json
import shutil
import subprocess
import sys

import pytest

from shuffle_spec.proofs_checks.cli import main
from shuffle_spec.spec.registry import list_statements


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_json_has_every_statement_with_the_contract_fields(capsys):
    code, out, _ = run_cli(capsys, "list", "--json")
    rows = json.loads(out)
    assert code == 0
    assert [r["id"] for r in rows] == [s.id for s in list_statements()]
    for row in rows:
        assert {"id", "kind", "title", "source", "direction"} <= set(row)


def test_show_prints_hypotheses_and_conclusion(capsys):
    code, out, _ = run_cli(capsys, "show", "EFMRTT19.Lem3.triangle", "--latex")
    assert code == 0 and r"\delta_1 + \delta_2 e^{\varepsilon_1}" in out


def test_show_json(capsys):
    code, out, _ = run_cli(capsys, "show", "BBGN19.Thm5.2", "--json")
    data = json.loads(out)
    assert code == 0 and data["id"] == "BBGN19.Thm5.2" and data["conclusion"]


def test_unknown_id_is_a_usage_error(capsys):
    code, out, err = run_cli(capsys, "show", "BBGN19.Thm99")
    assert code == 2 and out == "" and "BBGN19.Thm99" in err


def test_eval_of_a_definition_is_a_usage_error(capsys):
    code, _, err = run_cli(capsys, "eval", "BBGN19.Thm5.2", "--param", "eps=1")
    assert code == 2 and "not evaluable" in err


def test_malformed_param_is_a_usage_error(capsys):
    code, _, err = run_cli(capsys, "eval", "BBGN19.Thm5.2", "--param", "eps")
    assert code == 2 and "NAME=VALUE" in err


def test_check_passes_and_reports_counts(capsys):
    # One paper's checks: the CLI path is what is tested here; every check runs in test_proofs_checks.
    code, out, _ = run_cli(capsys, "check", "--json", "--id", "EFMRTT19.Lem3")
    data = json.loads(out)
    assert code == 0 and data["failed"] == 0 and data["passed"] == len(data["results"]) > 0


def test_bare_command_prints_the_report(capsys):
    code, out, _ = run_cli(capsys)
    assert code == 0 and "statements" in out


def test_console_script_entry_point():
    """The entry point of the environment under test, not whichever `shuffle-spec` is first on PATH.

    The console script declared in pyproject.toml resolves, in this interpreter, to the `main` under
    test; calling it the way the generated wrapper does (`sys.exit(main())`, in a subprocess of this
    interpreter) lists the statements. Where this environment has the distribution installed, its
    metadata declares the same target and this environment's own script (in its scripts directory,
    not the first one on PATH) runs.
    """
    import importlib
    import importlib.metadata
    import os
    import sysconfig
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    target = tomllib.loads((root / "pyproject.toml").read_text())["project"]["scripts"]["shuffle-spec"]
    assert target == "shuffle_spec.proofs_checks.cli:main"
    module_name, function_name = target.split(":")
    assert getattr(importlib.import_module(module_name), function_name) is main
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    wrapper = f"import sys; from {module_name} import {function_name}; sys.argv[0] = 'shuffle-spec'; sys.exit({function_name}())"
    done = subprocess.run([sys.executable, "-c", wrapper, "list", "--json"], capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 0 and any(row["id"] == "EFMRTT19.Def1" for row in json.loads(done.stdout))
    installed = [e for e in importlib.metadata.entry_points(group="console_scripts") if e.name == "shuffle-spec"]
    assert all(e.value == target for e in installed), installed
    own_script = Path(sysconfig.get_path("scripts")) / "shuffle-spec"
    if installed and own_script.is_file():  # this environment's script, wherever PATH points
        done = subprocess.run([str(own_script), "list", "--json"], capture_output=True, text=True, check=False)
        assert done.returncode == 0 and json.loads(done.stdout)


def test_module_entry_point():
    done = subprocess.run([sys.executable, "-m", "shuffle_spec", "list"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "EFMRTT19.Def1" in done.stdout
