"""shuffle-spec, the specification side: every statement as a SymPy object, by stable id.

This package imports only SymPy. Its independent twin is `reference/`.
"""

from shuffle_spec.spec.registry import get_statement, list_statements, registry
from shuffle_spec.spec.statement import Direction, HypothesisError, Kind, Source, Statement

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
