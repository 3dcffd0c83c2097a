"""Where things are, for the tests: the repository (the package's root), the committed vectors, the examples."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
ROOT = TESTS.parent
VECTORS = TESTS / "vectors"
EXAMPLES = ROOT / "examples"


def child_environment(*folders: Path) -> dict[str, str]:
    """The environment of a child Python process of a test: `folders` and tests/ (for `support`) first on its
    path, then whatever was there. The package itself comes from its installation (`pip install -e .`): the
    repository root is the package, so putting the root on the path would only add wrong top-level names."""
    import os

    existing = os.environ.get("PYTHONPATH", "")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([*(str(f) for f in folders), str(TESTS), *([existing] if existing else [])])}
