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


@pytest.mark.skipif(shutil.which("shuffle-spec") is None, reason="console script not installed")
def test_console_script_entry_point():
    done = subprocess.run(["shuffle-spec", "list", "--json"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and json.loads(done.stdout)


def test_module_entry_point():
    done = subprocess.run([sys.executable, "-m", "shuffle_spec", "list"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "EFMRTT19.Def1" in done.stdout
