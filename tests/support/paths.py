"""Where things are, for the tests: the repository (the package's root), the committed vectors, the examples."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
ROOT = TESTS.parent
VECTORS = TESTS / "vectors"
EXAMPLES = ROOT / "examples"
