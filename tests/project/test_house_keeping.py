"""House-keeping that helps the next maintainer, checked statically with `ast`:

- no import cycles among the package's modules (every `import`, also inside functions: a cycle hidden
  in a function body is still two modules that need each other; `importlib.import_module` by name is
  how a registry loads plug-ins without one);
- no `tests/test_*.py` without a test in it;
- every path cited in backticks in CONTRIBUTING.md and in the docstrings exists in the repository.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path


from support.paths import ROOT
from support.sources import outline
# Folder -> package name: the repository root is the package `shuffle_spec` (pyproject.toml,
# [tool.setuptools.package-dir]); its code lives in these four folders (and the root's __init__/__main__).
LAYERS = {
    "spec": "shuffle_spec.spec",
    "reference": "shuffle_spec.reference",
    "proofs_checks": "shuffle_spec.proofs_checks",
    "interface": "shuffle_spec.interface",
}


def _modules() -> dict[str, Path]:
    modules = {"shuffle_spec": ROOT / "__init__.py", "shuffle_spec.__main__": ROOT / "__main__.py"}
    for folder, package in LAYERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join([package, *parts])] = path
    return modules


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package modules `name` imports (anywhere in the file), by their full names."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in outline(path).imports:
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")[: len(name.split(".")) - node.level + (1 if is_package else 0)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # `from package import module` imports the submodule; `from module import name`, the module.
            targets = [f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module for alias in node.names]
        else:
            continue
        found.update(target for target in targets if target in known and target != name)
    return found


@functools.cache  # two tests read it; building it parses every module of the package
def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(name, path, known) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return components


def test_the_cycle_finder_finds_a_planted_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_import_graph_sees_the_package():
    graph = _graph()
    assert len(graph) > 60
    # Edges it must see: an absolute import, and a `from package import module`.
    assert "shuffle_spec.proofs_checks.framework" in graph["shuffle_spec.proofs_checks.agreement"]
    assert "shuffle_spec.reference.core.errors" in graph["shuffle_spec.reference.finite.divergences"]
    # ... and the interface on top, down to the face.
    assert "shuffle_spec.interface.cli.main" in graph["shuffle_spec.__main__"]
    assert any(name.startswith("shuffle_spec.interface.audit") for name in graph)


def test_no_import_cycles():
    assert _cycles(_graph()) == []


def test_every_test_module_has_tests():
    empty = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if not outline(path).has_test:
            empty.append(str(path.relative_to(ROOT)))
    assert empty == [], f"test modules without tests (rename helpers without the test_ prefix): {empty}"


# Backticked tokens that look like repository paths: a slash or a file extension, no placeholders.
_BACKTICKED = re.compile(r"`([^`\s]+)`")
_EXTENSION = re.compile(r"\.(py|md|toml|json|jsonl|txt|cfg|ini|yml|yaml|csv|png|svg)$")
_PLACEHOLDER = re.compile(r"[<>*{}$|]|://|^path/to/|^\.\.\.|^[\d/.]+$")
# Nothing outside the repository is cited by path: a user has only the repository and the papers.
EXTERNAL_PREFIXES: tuple[str, ...] = ()


def _cited_paths() -> list[tuple[str, str, Path]]:
    """(where, token, citing file's folder) for every path-like backticked token."""
    texts = [("CONTRIBUTING.md", (ROOT / "CONTRIBUTING.md").read_text(), ROOT)]
    for folder in (*LAYERS, "tests", "tools", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for docstring in outline(path).docstrings:
                texts.append((str(path.relative_to(ROOT)), docstring, path.parent))
    cited = []
    for where, text, folder in texts:
        for token in _BACKTICKED.findall(text):
            token = token.split("::")[0].rstrip(".,;:")
            if ("/" in token or _EXTENSION.search(token)) and not _PLACEHOLDER.search(token):
                cited.append((where, token, folder))
    return cited


def _exists(token: str, folder: Path, names: set[str]) -> bool:
    if token.startswith(EXTERNAL_PREFIXES):
        return True
    if (ROOT / token).exists() or (folder / token).exists():
        return True
    return "/" not in token and token in names  # a bare file name, cited where its folder is obvious


def test_cited_paths_exist():
    cited = _cited_paths()
    assert len(cited) > 30 and any(where == "CONTRIBUTING.md" for where, _, _ in cited)
    names = {path.name for path in ROOT.rglob("*") if ".git" not in path.parts}
    missing = [f"{where}: `{token}`" for where, token, folder in cited if not _exists(token, folder, names)]
    assert missing == [], "paths cited but not in the repository:\n" + "\n".join(missing)


def test_a_missing_cited_path_is_noticed():
    names = {"agreement.py"}
    assert not _exists("spec/exact.py", ROOT, names)  # spec/exact is a package now
    assert not _exists("reference/nonexistent.py", ROOT, names)
    assert _exists("reference/bounds/clones.py", ROOT, names) and _exists("agreement.py", ROOT, names)


def test_the_face_can_be_executed_on_its_own():
    """A test runner collecting from a clone in a folder whose name is not a Python name (`shuffle-spec`,
    `my-clone`) executes the root `__init__.py` as a module without a package: it must not fail there (a
    relative import at its top made every test of such a clone an error)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("not-a-package-name", ROOT / "__init__.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert "shuffled_epsilon" in module.__all__ and "__version__" in module.__all__
