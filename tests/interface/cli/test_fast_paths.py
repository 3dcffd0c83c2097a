"""Fast calls: the closed-form paths need no SymPy, and `eval --batch` answers
JSON lines exactly as single `eval` calls do. Times are measured by `benchmarks/calls.py`, not here."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from shuffle_spec.proofs_checks.bridge import evaluate
from shuffle_spec.spec.catalog import Entry, resolve
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.cli.commands.eval import run_batch
from shuffle_spec.spec.registry import get_statement

from support.paths import ROOT, child_environment
POINT = {"eps0": 1.0, "n": 10_000, "delta": 1e-6}


def _fresh_python(code: str) -> str:
    env = child_environment()
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


@pytest.mark.parametrize(
    "call",
    [
        "from shuffle_spec.interface.cli.main import main; main(['eval', 'FMT21.Thm2.1', '-p', 'eps0=1', '-p', 'n=10000', '-p', 'delta=1e-6', '--json'])",
        "import shuffle_spec; shuffle_spec.shuffled_epsilon('FMT21.Thm2.1', eps0=1.0, n=10_000, delta=1e-6)",
        "import shuffle_spec; shuffle_spec.ShuffleBound('BBGN19.Cor5.3.1', eps0=1.0, n=10_000).get_epsilon(1e-6)",
        "from shuffle_spec.interface.cli.main import main; main(['list', '--json'])",
    ],
    ids=["cli-eval", "api-call", "shuffle-bound", "cli-list"],
)
def test_closed_form_paths_do_not_load_sympy(call):
    out = _fresh_python(f"import sys\n{call}\nprint('SYMPY', 'sympy' in sys.modules)")
    assert out.strip().endswith("SYMPY False")


def test_the_api_resolves_closed_forms_to_catalog_entries_that_agree_with_the_statement():
    entry = resolve("FMT21.Thm2.1")
    assert isinstance(entry, Entry)
    assert evaluate(entry, POINT).to_json() == evaluate(get_statement("FMT21.Thm2.1"), POINT).to_json()


def test_batch_answers_each_line_like_a_single_eval():
    lines = [
        json.dumps({"id": "FMT21.Thm2.1", "params": POINT}),
        "",
        json.dumps({"id": "BBGN19.Cor5.3.1", "params": {"eps0": 4, "n": 1e6, "delta": 1e-6}}),
        json.dumps({"params": {**POINT, "delta": "1/1000000"}}),
    ]
    out = io.StringIO()
    assert run_batch(lines, default_id="FMT21.Thm2.1", out=out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 3  # the blank line is skipped
    # what `eval --json` prints: the evaluation and the neighbouring relation of its statement
    assert answers[0] == json.loads(json.dumps(dict(evaluate(get_statement("FMT21.Thm2.1"), POINT).to_json(), neighbouring="replace-one")))
    assert answers[1]["valid"] is False and "Piecewise" not in answers[1]["reason"]
    assert answers[2]["id"] == "FMT21.Thm2.1" and answers[2]["valid"] is True


def test_batch_reports_bad_lines_in_line_and_exits_2():
    lines = ["not json", json.dumps({"id": "NOPE.Thm1", "params": {}}), json.dumps({"id": "FMT21.Thm2.1", "params": {"eps0": 1}}), json.dumps({"id": "FMT21.Thm2.1", "params": POINT, "extra": 1}), json.dumps({"id": "FMT21.Thm2.1", "params": POINT})]
    out = io.StringIO()
    assert run_batch(lines, out=out) == 2
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a.get("line") for a in answers[:4]] == [1, 2, 3, 4] and all("error" in a for a in answers[:4])
    assert "needs parameter" in answers[2]["error"] and "unknown field" in answers[3]["error"]
    assert answers[4]["valid"] is True  # a bad line does not stop the batch


def test_batch_from_a_file_and_usage_errors(tmp_path, capsys):
    path = tmp_path / "points.jsonl"
    path.write_text(json.dumps({"id": "FMT21.Thm2.1", "params": POINT}) + "\n")
    assert main(["eval", "--batch", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["valid"] is True
    assert main(["eval", "--batch", str(tmp_path / "missing.jsonl")]) == 2
    assert main(["eval", "--batch", str(path), "-p", "eps0=1"]) == 2
    assert main(["eval"]) == 2
    assert "eval" in capsys.readouterr().err


def _lines_without_end():
    """A batch that never ends (a generator of lines): only a time budget can stop it."""
    line = json.dumps({"id": "FMT21.Thm2.1", "params": POINT})
    while True:
        yield line


def test_batch_stops_at_its_time_budget_after_answering_the_lines_before():
    """`eval --batch` stops at its time budget with one error naming it and how to allow more: before, a batch of
    200,000 lines (5.6 MB, within the 64 MB limit) ran past 60 s with no way to bound it."""
    import time

    from shuffle_spec.proofs_checks.bridge import UsageError

    out = io.StringIO()
    start = time.monotonic()
    with pytest.raises(UsageError, match=r"time budget of 0\.1 s.*--time-budget"):
        run_batch(_lines_without_end(), out=out, time_budget=0.1)
    assert time.monotonic() - start < 10
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers and all(answer["valid"] is True for answer in answers)  # every line before the stop is whole


def test_batch_time_budget_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "many.jsonl"
    path.write_text((json.dumps({"id": "FMT21.Thm2.1", "params": POINT}) + "\n") * 20_000)  # about 6 s of lines
    assert main(["eval", "--batch", str(path), "--time-budget", "0.1"]) == 2
    out, err = capsys.readouterr()
    assert len(err.strip().splitlines()) == 1 and "--time-budget" in err
    assert 0 < len(out.splitlines()) < 20_000
    for bad in ("0", "-1", "nan", "2e6", "soon"):
        assert main(["eval", "--batch", str(path), "--time-budget", bad]) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1 and "time_budget" in err, (bad, err)
