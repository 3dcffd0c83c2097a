"""shuffle-spec: the formally-checked reference specification of privacy amplification by shuffling.

`import shuffle_spec` is the public Python API. The repository keeps three layers as top-level
folders, installed as subpackages of this one (see `pyproject.toml`, `package-dir`):

- `shuffle_spec.spec` (folder `spec/`): every statement as a SymPy object, registered by stable id;
- `shuffle_spec.reference` (folder `reference/`): the independent numeric / exact implementation;
- `shuffle_spec.proofs_checks` (folder `proofs_checks/`): proof-step checks, spec-vs-reference
  agreement, the API functions and the `shuffle-spec` command-line tool.

Installing creates no other top-level importable name.
"""

from __future__ import annotations

from pathlib import Path as _Path
from typing import Any


def _source_checkout_layers() -> list[str]:
    """In a source checkout the layers sit beside this folder, not inside it: search there too.

    A wheel copies them inside (`package-dir`), so nothing is added there. An editable install and a
    plain checkout on `sys.path` both resolve `shuffle_spec.reference` to the checkout's own
    `reference/`, never to another checkout's.
    """
    here = _Path(__file__).resolve().parent
    root = here.parent
    if (here / "reference").is_dir():
        return []
    if all((root / layer / "__init__.py").is_file() for layer in ("spec", "reference", "proofs_checks")) and (
        root / "pyproject.toml"
    ).is_file():
        return [str(root)]
    return []


__path__ += _source_checkout_layers()  # noqa: F821 - the package's own search path

__version__ = "0.1.0"

# The public API lives in `shuffle_spec.proofs_checks.api`; it is loaded on first use (PEP 562), so
# that importing one layer (`shuffle_spec.reference...`) does not pay for SymPy and the registry.
_API_MODULE = "shuffle_spec.proofs_checks.api"


def __getattr__(name: str) -> Any:
    import importlib

    api = importlib.import_module(_API_MODULE)
    if name in api.__all__:
        return getattr(api, name)
    raise AttributeError(f"module 'shuffle_spec' has no attribute {name!r}")


def __dir__() -> list[str]:
    import importlib

    return sorted(set(globals()) | set(importlib.import_module(_API_MODULE).__all__))
