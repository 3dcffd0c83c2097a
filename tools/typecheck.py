"""Run mypy over the package: strict on `shuffle_spec.reference`, default elsewhere.

The repository root is the package `shuffle_spec` (pyproject.toml, `package-dir`), but mypy names a package
after its folder: this script gives it a folder called `shuffle_spec` (a temporary directory holding a link
to each of the package's own entries: the face and the code folders, not tests/ or tools/) and checks it
there. Exit status: mypy's.

    python3 tools/typecheck.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What the wheel holds (pyproject.toml): the face and the four code folders.
PACKAGE_ENTRIES = ("__init__.py", "__main__.py", "py.typed", "spec", "reference", "proofs_checks", "interface")
# (mypy arguments, what they check); strict on the independent reference implementation.
RUNS = (
    # follow-imports=silent: the modules the reference imports through the face are checked in the second run.
    (["--strict", "--follow-imports=silent", "-p", "shuffle_spec.reference"], "shuffle_spec.reference (strict)"),
    (["-p", "shuffle_spec"], "shuffle_spec (default)"),
)


def build_layout(target: Path) -> None:
    package = target / "shuffle_spec"
    package.mkdir()
    for name in PACKAGE_ENTRIES:
        os.symlink(ROOT / name, package / name)
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
