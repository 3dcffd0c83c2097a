"""Run mypy over the installed layout of the package: strict on `shuffle_spec.reference`, default elsewhere.

mypy does not follow setuptools' `package-dir` mapping (the repository keeps `spec/`, `reference/` and
`proofs_checks/` at the top level; the wheel puts them inside `shuffle_spec/`), so this script builds that
layout from symbolic links in a temporary folder and checks it there. Exit status: mypy's.

    python3 tools/typecheck.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("spec", "reference", "proofs_checks")
# (mypy arguments, what they check); strict on the independent reference implementation.
RUNS = (
    (["--strict", "-p", "shuffle_spec.reference"], "shuffle_spec.reference (strict)"),
    (["-p", "shuffle_spec"], "shuffle_spec (default)"),
)


def build_layout(target: Path) -> None:
    package = target / "shuffle_spec"
    package.mkdir()
    for entry in (ROOT / "shuffle_spec").iterdir():
        if entry.name != "__pycache__":
            os.symlink(entry, package / entry.name)
    for layer in LAYERS:
        os.symlink(ROOT / layer, package / layer)
    os.symlink(ROOT / "pyproject.toml", target / "pyproject.toml")


def main() -> int:
    worst = 0
    with tempfile.TemporaryDirectory(prefix="shuffle-spec-typecheck-") as folder:
        build_layout(Path(folder))
        for arguments, label in RUNS:
            done = subprocess.run(
                [sys.executable, "-m", "mypy", "--no-incremental", *arguments], cwd=folder, check=False
            )
            print(f"typecheck: {label}: {'ok' if done.returncode == 0 else 'FAILED'}", flush=True)
            worst = max(worst, done.returncode)
    return worst


if __name__ == "__main__":
    sys.exit(main())
