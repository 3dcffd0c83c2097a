"""shuffle-spec: the formally-checked reference specification of privacy amplification by shuffling.

`import shuffle_spec` is the public Python API (this file re-exports `interface/api.py`). The repository
is the package; each of its code folders is one kind of thing, and imports run one way, down:

- `interface/` (`shuffle_spec.interface`): what users call: the API, the `shuffle-spec` command line, the
  audits of randomizers and of other implementations, the test vectors;
- `proofs_checks/` (`shuffle_spec.proofs_checks`): symbolic checks of proof steps and the agreement of
  every statement with its reference implementation;
- `spec/` (`shuffle_spec.spec`): every statement as a SymPy object, registered by stable id;
- `reference/` (`shuffle_spec.reference`): the independent numeric and exact implementation.

`spec/` and `reference/` never import each other; installing creates no other top-level importable name.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# No import runs at the top of this file: a test runner may execute it on its own, as the __init__.py of the
# folder it collects from (a clone in a folder whose name is not a Python name), where a relative import has
# no package to start from. Everything, `__version__` included, is loaded on first use (`__getattr__`).
if TYPE_CHECKING:  # the names as type checkers see them; at run time each is loaded on first use (below)
    from .interface.version import __version__
    from .interface.api import (
        INVERSION_TIME_BUDGET,
        KRR,
        BinaryRR,
        Calibration,
        Composition,
        DeltaInterval,
        EpsilonBound,
        FiniteMatrix,
        Gap,
        Generic,
        InversionTimeout,
        Laplace,
        ParameterNameError,
        RandomizerAudit,
        RandomizerGap,
        ShuffleBound,
        StatementInfo,
        audit_randomizer,
        calibrate_epsilon0,
        calibrate_n,
        composed_delta,
        composed_epsilon,
        delta_provider,
        list_statements,
        shuffled_delta,
        shuffled_epsilon,
        tightest,
        tightest_randomizer,
    )
    from .reference.core.errors import HypothesisViolation, ParameterError
    from .interface.certify import CandidateRow, Certification, certify
    from .reference.core.progress import progress_callback

__all__ = [
    "INVERSION_TIME_BUDGET",
    "BinaryRR",
    "Calibration",
    "CandidateRow",
    "Certification",
    "Composition",
    "DeltaInterval",
    "EpsilonBound",
    "FiniteMatrix",
    "Gap",
    "Generic",
    "HypothesisViolation",
    "InversionTimeout",
    "KRR",
    "Laplace",
    "ParameterError",
    "ParameterNameError",
    "RandomizerAudit",
    "RandomizerGap",
    "ShuffleBound",
    "StatementInfo",
    "__version__",
    "audit_randomizer",
    "calibrate_epsilon0",
    "calibrate_n",
    "certify",
    "composed_delta",
    "composed_epsilon",
    "delta_provider",
    "list_statements",
    "progress_callback",
    "shuffled_delta",
    "shuffled_epsilon",
    "tightest",
    "tightest_randomizer",
]


# Where a public name lives when not in the API module (the front door is built on the API's functions).
_MODULES = {"__version__": ".interface.version", "certify": ".interface.certify", "Certification": ".interface.certify",
            "CandidateRow": ".interface.certify",
            "progress_callback": ".reference.core.progress"}


def __getattr__(name: str) -> Any:
    """The public API, loaded on first use (PEP 562): importing one layer (`shuffle_spec.reference...`) does
    not pay for the API, the catalog and the command line."""
    if name in __all__:
        module = _MODULES.get(name, ".interface.api")
        value = getattr(importlib.import_module(module, __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
