"""Tables of invalid inputs, one module per area; `tests/invalid_inputs/test_invalid_inputs.py` runs their union.

Each module defines CASES: a list of `Case(function, args, kwargs, fragment)`: calling
`function(*args, **kwargs)` must raise ValueError whose message contains `fragment` (the parameter's
name, so the message says which parameter is wrong).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


@dataclass(frozen=True)
class Case:
    function: Callable[..., Any]
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    fragment: str = ""

    @property
    def label(self) -> str:
        # Without memory addresses (a lambda's repr has one): the ids must be the same in every process, or
        # pytest-xdist's workers would collect different tests.
        shown = ", ".join([_ADDRESS.sub("", repr(a))[:30] for a in self.args] + [_ADDRESS.sub("", f"{k}={v!r}")[:30] for k, v in self.kwargs.items()])
        return f"{self.function.__module__}.{self.function.__name__}({shown})"
