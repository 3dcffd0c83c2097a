"""shuffle-spec, the specification side: every statement as a SymPy object, by stable id.

This package imports only SymPy. Its independent twin is `reference/`. Its names are loaded on first
use (PEP 562), so that the SymPy-free parts (`spec.terms`, the catalog in `spec.registry`) stay fast.
"""

from __future__ import annotations

import importlib

__all__ = [
    "Direction",
    "HypothesisError",
    "Kind",
    "Source",
    "Statement",
    "get_statement",
    "list_statements",
    "registry",
]

_HOME = {
    "Direction": "terms",
    "HypothesisError": "terms",
    "Kind": "terms",
    "Source": "terms",
    "Statement": "statement",
    "get_statement": "registry",
    "list_statements": "registry",
}


def __getattr__(name: str):
    if name == "registry":  # the submodule (the import system binds it so as soon as it is loaded)
        return importlib.import_module(f"{__name__}.registry")
    if name in _HOME:
        return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
