"""The registry: ids follow the public scheme, are unique, and every statement is well formed; the
dependency direction between spec and reference holds."""

import ast
from pathlib import Path

import pytest

from shuffle_spec.proofs_checks.bridge import reference_function
from shuffle_spec.spec.registry import PAPER_MODULES, get_statement, list_statements
from shuffle_spec.spec.statement import is_valid_statement_id

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "statement_id, valid",
    [
        ("BBGN19.Thm5.3", True),
        ("BBGN19.Lem5.1.krr", True),
        ("FMT21.Thm2.1", True),
        ("EFMRSTT20.LemII.6", True),
        ("EFMRSTT20.CorA.2", True),
        ("EFMRTT19.Thm7", True),
        ("BBGN19v1.Thm3.1", True),
        ("FMT21.clones_numeric", True),
        ("exact.shuffled_binary_rr", True),
        ("FMT23.stronger_clones", True),
        ("exact.shuffled_binary_rr.pair", True),
        ("compose.clones", True),
        ("compose.Thm1", False),
        ("exact.shuffled_binary_rr.pair.more", False),
        ("exact.shuffled_binary_rr.Pair", False),
        ("BBGN19.Theorem5.3", False),
        ("bbgn19.Thm5.3", False),
        ("exact.Thm1", False),
        ("XYZ20.Thm1", False),
        ("FMT21.Thm", False),
        ("FMT21.Clones", False),
    ],
)
def test_id_scheme(statement_id, valid):
    assert is_valid_statement_id(statement_id) is valid


def test_ids_are_unique_and_valid():
    ids = [s.id for s in list_statements()]
    assert len(ids) == len(set(ids))
    assert all(is_valid_statement_id(i) for i in ids)


@pytest.mark.parametrize("statement", list_statements(), ids=lambda s: s.id)
def test_statement_is_well_formed(statement):
    assert statement.title and statement.source.locator
    assert callable(reference_function(statement))
    assert get_statement(statement.id) is statement
    assert statement.paper in statement.id


def test_unknown_id_error_names_the_id():
    with pytest.raises(KeyError, match="BBGN19.Thm99"):
        get_statement("BBGN19.Thm99")


def _layer(module: str) -> str:
    """The top-level name, or the layer for `shuffle_spec.<layer>...` (`shuffle_spec` itself is the API)."""
    parts = module.split(".")
    return parts[1] if parts[0] == "shuffle_spec" and len(parts) > 1 else parts[0]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(_layer(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(_layer(node.module))
    return names


@pytest.mark.parametrize("path", sorted((ROOT / "reference").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_reference_never_imports_sympy_or_spec(path):
    assert not _imports(path) & {"sympy", "spec", "proofs_checks"}


@pytest.mark.parametrize("path", sorted((ROOT / "spec").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_spec_imports_only_sympy(path):
    assert not _imports(path) & {"numpy", "scipy", "mpmath", "reference", "proofs_checks"}


def test_every_paper_module_is_registered():
    prefix = "shuffle_spec.spec."
    modules = {prefix + p.stem for p in (ROOT / "spec").glob("*.py")} - {prefix + m for m in ("__init__", "statement", "symbols", "registry", "terms")}
    modules |= {prefix + p.parent.name for p in (ROOT / "spec").glob("*/__init__.py")}
    assert modules == set(PAPER_MODULES)
