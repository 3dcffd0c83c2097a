"""Tables of invalid inputs, one module per area; `tests/invalid_inputs/test_invalid_inputs.py` runs their union.

Each module defines CASES: a list of `Case(function, args, kwargs, fragment)`: calling
`function(*args, **kwargs)` must raise ValueError whose message contains `fragment` (the parameter's
name, so the message says which parameter is wrong).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass(frozen=True)
class Case:
    function: Callable[..., Any]
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    fragment: str = ""

    @property
    def label(self) -> str:
        shown = ", ".join([repr(a)[:30] for a in self.args] + [f"{k}={v!r}"[:30] for k, v in self.kwargs.items()])
        return f"{self.function.__module__}.{self.function.__name__}({shown})"
