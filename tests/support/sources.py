"""What the static house-keeping tests read from a source file, parsed once per test process.

Parsing every file of the repository with `ast` costs seconds; several tests read the same files (their imports,
their docstrings, whether a test module has tests). `outline(path)` parses a file once and keeps only what those
tests read: holding every parsed tree alive made the garbage collector's passes cost more than the parsing."""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

_DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass(frozen=True)
class Outline:
    imports: tuple[ast.Import | ast.ImportFrom, ...]  # every import statement, also inside functions
    docstrings: tuple[str, ...]  # of the module, its classes and functions (unindented as written)
    has_test: bool  # a function named test* or a class named Test* anywhere in the file


@functools.cache
def outline(path: Path) -> Outline:
    imports: list[ast.Import | ast.ImportFrom] = []
    docstrings: list[str] = []
    has_test = False
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imports.append(node)
        elif isinstance(node, _DOCUMENTED):
            docstring = ast.get_docstring(node, clean=False)
            if docstring:
                docstrings.append(docstring)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                has_test = True
            elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                has_test = True
    return Outline(tuple(imports), tuple(docstrings), has_test)
