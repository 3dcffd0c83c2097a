"""The house rules, read from the code's own imports (`ast`, nothing is run).

- Floors run one way. The layers, from the ground up: reference/ (by concept: core, numerics, finite, bounds,
  exact, lower_bounds, randomizers, composition, protocols), spec/, proofs_checks/, interface/ and the package's face.
  A module imports only from its own floor or below; spec/ and reference/ never import each other (the
  specification and its independent implementation); neither imports SymPy's twin (reference never SymPy).
- Every import between the project's modules is relative (`from ..core.errors import ParameterError`), so a
  reader follows it to its file from the tree alone; `shuffle_spec.` appears only outside the package.
- No module imports another module's private name (`from .x import _helper`): what is shared is public.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from support.paths import ROOT
from support.sources import outline
CODE = ("reference", "spec", "proofs_checks", "interface")
# Floors, lowest first: a module may import from its own floor and the floors below.
FLOORS = (
    ("reference.core",),
    ("reference.numerics", "reference.finite"),
    ("reference.bounds",),
    ("reference.exact",),
    ("reference.lower_bounds",),
    ("reference.randomizers",),
    ("reference.composition",),
    ("reference.protocols",),
    ("spec",),
    ("proofs_checks",),
    ("interface",),
    ("",),  # the face (__init__.py, __main__.py)
)


def _modules() -> dict[str, tuple[Path, bool]]:
    found = {"": (ROOT / "__init__.py", True), "__main__": (ROOT / "__main__.py", False)}
    for top in CODE:
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


MODULES = _modules()


def _floor(module: str) -> int:
    best = len(FLOORS) - 1
    for index, prefixes in enumerate(FLOORS):
        if any(prefix and (module == prefix or module.startswith(prefix + ".")) for prefix in prefixes):
            return index
    return best


def _nodes(module: str) -> tuple[ast.Import | ast.ImportFrom, ...]:
    """The import statements of `module` (parsed once per test process: four tests here read each module)."""
    path, _ = MODULES[module]
    return outline(path).imports


def _imports(module: str) -> list[tuple[int, str, list[str], int]]:
    """(line, imported module, names, level) for every import of the project's modules by `module`."""
    _, is_package = MODULES[module]
    out = []
    for node in _nodes(module):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if module else []
                if not is_package:
                    base = base[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
                out.append((node.lineno, target, [a.name for a in node.names], node.level))
            elif node.module and (node.module == "shuffle_spec" or node.module.startswith("shuffle_spec.")):
                out.append((node.lineno, node.module.removeprefix("shuffle_spec").lstrip("."), [a.name for a in node.names], 0))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("shuffle_spec"):
                    out.append((node.lineno, alias.name.removeprefix("shuffle_spec").lstrip("."), [], 0))
    return out


def _third_party(module: str) -> set[str]:
    names = set()
    for node in _nodes(module):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("module", sorted(MODULES), ids=lambda m: m or "<face>")
def test_imports_run_down_the_floors(module):
    upward = [
        f"line {line}: {target or '<face>'}"
        for line, target, _, _ in _imports(module)
        if _floor(target) > _floor(module)
        or (module.startswith("spec") and target.startswith("reference"))
        or (module.startswith("reference") and target.startswith("spec"))
    ]
    assert not upward, f"{module} imports upward: {upward}"


@pytest.mark.parametrize("module", sorted(MODULES), ids=lambda m: m or "<face>")
def test_imports_between_the_projects_modules_are_relative(module):
    absolute = [f"line {line}: shuffle_spec.{target}" for line, target, _, level in _imports(module) if level == 0]
    assert not absolute, f"{module}: {absolute}"


@pytest.mark.parametrize("module", sorted(MODULES), ids=lambda m: m or "<face>")
def test_no_module_imports_another_modules_private_name(module):
    private = [
        f"line {line}: {name} from {target}"
        for line, target, names, _ in _imports(module)
        for name in names
        if name.startswith("_") and not name.startswith("__") and target not in MODULES.get(f"{target}.{name}", ("",))
        and f"{target}.{name}" not in MODULES
    ]
    assert not private, f"{module}: {private}"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("reference")))
def test_reference_never_imports_sympy(module):
    assert "sympy" not in _third_party(module)


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("spec")))
def test_spec_imports_only_sympy_and_its_numeric_library(module):
    # mpmath is SymPy's own numeric library: the catalog evaluates the hypotheses SymPy printed for it.
    assert not _third_party(module) & {"numpy", "scipy"}
