"""Where the committed test vectors are: `tests/vectors/` of the repository, installed with the package.

The vectors ship inside the wheel as the data-only package `shuffle_spec.interface.vectors.data` (pyproject.toml
maps it to `tests/vectors/`), so a project that installs a release has the vectors of exactly that release, next to
the code that generated them: their version is the package's (`shuffle-spec --version`; `index.json` names its
generator). Installing them rather than publishing a separate artifact keeps one version number and one download
for both, and they are small (about 0.5 MB). In a checkout that was not installed (the repository root is the
package) the folder is `tests/vectors/` itself. `shuffle-spec vectors path` prints it.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["installed_vectors"]

_HERE = Path(__file__).resolve().parent
# The installed copy (a wheel), then the repository's own folder (a checkout: the root is the package).
_CANDIDATES = (_HERE / "data", _HERE.parent.parent / "tests" / "vectors")


def installed_vectors() -> Path:
    """The folder of the test vectors that came with this copy of shuffle-spec (`index.json`, one `<statement
    id>.json` per evaluable statement, `SCHEMA.md`). Raises FileNotFoundError when this copy has none (a build that
    left the package data out)."""
    for folder in _CANDIDATES:
        if (folder / "index.json").is_file():
            return folder
    raise FileNotFoundError(f"no test vectors installed with this copy of shuffle-spec (looked in {', '.join(map(str, _CANDIDATES))})")
