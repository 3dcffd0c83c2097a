"""The linters are part of the suite: ruff (the bug-finding rule set in `pyproject.toml`) and mypy
(`tools/typecheck.py`: strict on `shuffle_spec.reference`, the default mode elsewhere) must be clean."""

import subprocess
import sys

import pytest

from support.paths import ROOT


def _run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *command], cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_is_clean():
    done = _run("-m", "ruff", "check", ".")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


@pytest.mark.slow  # about 20 s from a fresh clone (no mypy cache): second tier; ruff stays in the default one
def test_mypy_is_clean():
    done = _run("tools/typecheck.py")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
