"""One computation at a time in a process: the API's entry points hold one re-entrant lock while they compute.

The certified computations set mpmath's working precision for their blocks (`mpmath.workdps`, `workprec`), and
mpmath's context is one per process, shared by every thread. Two API calls made at once from two threads
interleaved their precision changes: a block ran at the other call's precision, and `BBGN19.Lem5.3.exact_laplace`,
`exact.laplace_pair_x0` (eps0 = 1, n = 1000, delta = 1e-6) were refused ("lower lattice law ... a group whose mean
reaches its point") in 3 of 26 concurrent calls where one thread answers, and the process was left at 103 bits
of mpmath precision instead of 53 (one call's block, entered before the other's ended, was "restored" last). The
entry points (`interface/api.py`, `certify`, the accountants' exports) now run one at a time: a call from a second
thread waits until the first has finished, and its own time budget starts when it runs. The lock is re-entrant
(an entry point calls others). What it cannot cover: a caller's own mpmath work in another thread during a call
changes the same process-wide precision (the computations assume none does)."""

from __future__ import annotations

import functools
import threading
from typing import Any, Callable, TypeVar

__all__ = ["CALL_LOCK", "one_at_a_time"]

CALL_LOCK = threading.RLock()

Function = TypeVar("Function", bound=Callable[..., Any])


def one_at_a_time(function: Function) -> Function:
    """`function` holding CALL_LOCK while it runs (module doc): the same arguments, result and exceptions."""

    @functools.wraps(function)
    def serialized(*args: Any, **kwargs: Any) -> Any:
        with CALL_LOCK:
            return function(*args, **kwargs)

    return serialized  # type: ignore[return-value]
