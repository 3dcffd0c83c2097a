"""The registry of every statement, by stable id.

Each paper module (`spec.efmrtt19`, `spec.bbgn19`, ...) defines `STATEMENTS`, a tuple of `Statement`s;
the registry is their union, built once, with ids checked for uniqueness. Ids are a public contract:
an id never changes meaning, a correction gets a new id.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from types import MappingProxyType
from typing import Mapping

from shuffle_spec.spec.statement import Statement

PAPER_MODULES: tuple[str, ...] = (
    "shuffle_spec.spec.efmrtt19",
    "shuffle_spec.spec.bbgn19",
    "shuffle_spec.spec.fmt21",
    "shuffle_spec.spec.fmt23",
    "shuffle_spec.spec.efmrstt20",
    "shuffle_spec.spec.exact",
    "shuffle_spec.spec.blanket_exact",
)


@lru_cache(maxsize=1)
def registry() -> Mapping[str, Statement]:
    """Every registered statement, keyed by id, in paper-module order."""
    found: dict[str, Statement] = {}
    for module_name in PAPER_MODULES:
        module = importlib.import_module(module_name)
        for statement in module.STATEMENTS:
            if statement.id in found:
                raise ValueError(f"statement id {statement.id} is registered twice")
            found[statement.id] = statement
    return MappingProxyType(found)


def get_statement(statement_id: str) -> Statement:
    """The statement with this id; `KeyError` listing near matches otherwise."""
    statements = registry()
    try:
        return statements[statement_id]
    except KeyError:
        near = [s for s in statements if s.lower().startswith(statement_id.split(".")[0].lower())]
        hint = f"; ids of that paper: {', '.join(near)}" if near else ""
        raise KeyError(f"no statement with id {statement_id!r}{hint}") from None


def list_statements() -> tuple[Statement, ...]:
    return tuple(registry().values())
