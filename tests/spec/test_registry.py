"""The registry: ids follow the public scheme, are unique, and every statement is well formed; the
dependency direction between spec and reference holds."""


import pytest

from shuffle_spec.proofs_checks.bridge import reference_function
from shuffle_spec.spec.registry import PAPER_MODULES, get_statement, list_statements
from shuffle_spec.spec.statement import is_valid_statement_id

from support.paths import ROOT


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


def test_every_paper_module_is_registered():
    """Every module of spec/papers/ and spec/derived/ (a package counts once) is in PAPER_MODULES: a statement
    module left out would be missing from the registry without a word. (The layer rules: tests/project.)"""
    modules = set()
    for folder in ("papers", "derived"):
        for path in (ROOT / "spec" / folder).iterdir():
            if path.suffix == ".py" and path.stem != "__init__" or (path / "__init__.py").is_file():
                modules.add(f"shuffle_spec.spec.{folder}.{path.stem if path.suffix == '.py' else path.name}")
    assert modules == set(PAPER_MODULES)
