"""The proof-check modules are all run and all about registered statements, and a statement that names the module
holding its proof ("derived here, proof in proofs_checks/derived/...") has checks of its own id there."""

import re

import pytest

from shuffle_spec.proofs_checks.framework import CHECK_MODULES, all_checks
from shuffle_spec.spec.registry import list_statements

from support.paths import ROOT

CHECKS = all_checks()
STATEMENT_IDS = {s.id for s in list_statements()}
PACKAGE = "shuffle_spec.proofs_checks"


def _module_files() -> set[str]:
    found = set()
    for folder in ("papers", "derived"):
        for path in (ROOT / "proofs_checks" / folder).glob("*.py"):
            if path.stem != "__init__":
                found.add(f"{PACKAGE}.{folder}.{path.stem}")
    return found


def test_every_check_module_is_run():
    """A module of proofs_checks/papers or proofs_checks/derived left out of CHECK_MODULES would never run."""
    assert _module_files() <= set(CHECK_MODULES)
    assert len(CHECK_MODULES) == len(set(CHECK_MODULES))


@pytest.mark.parametrize("module", sorted(_module_files()))
def test_every_check_module_checks_something(module):
    own = [c for c in CHECKS if c.function.__module__ == module]
    assert own, f"{module} registers no check"


def test_every_check_is_about_a_registered_statement():
    unknown = sorted({c.statement_id for c in CHECKS} - STATEMENT_IDS)
    assert not unknown


_PROOF_IN = re.compile(r"proof in (proofs_checks/derived/[a-z_0-9]+\.py)")
CITED = [(s.id, m.group(1)) for s in list_statements() for m in _PROOF_IN.finditer(f"{s.source.locator} {s.source.version}")]


def test_derived_statements_name_their_proof_module():
    """Not vacuous: the derived bounds cite their proof modules in their source."""
    assert {"exact.krr_pair_third", "exact.randomizer_pair", "exact.laplace_pair_x0", "compose.exact_binary_rr"} <= {i for i, _ in CITED}


@pytest.mark.parametrize("statement_id, path", CITED, ids=[i for i, _ in CITED])
def test_the_cited_proof_module_checks_that_statement(statement_id, path):
    assert (ROOT / path).is_file(), path
    module = f"{PACKAGE}.{path[len('proofs_checks/'):-3].replace('/', '.')}"
    assert any(c.function.__module__ == module and c.statement_id == statement_id for c in CHECKS), (
        f"{path} has no check of {statement_id}"
    )


@pytest.mark.parametrize("statement", list_statements(), ids=lambda s: s.id)
def test_every_proofs_checks_file_a_statement_mentions_exists(statement):
    for path in re.findall(r"proofs_checks/[a-z_0-9/]+\.py", f"{statement.source.locator} {statement.source.version} {statement.notes}"):
        assert (ROOT / path).is_file(), f"{statement.id} mentions {path}, which does not exist"
