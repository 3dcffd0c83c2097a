"""What every entry point of the API holds while it computes: one re-entrant lock, and mpmath's default precision.

One computation at a time. The certified computations set mpmath's working precision for their blocks
(`mpmath.workdps`, `workprec`), and mpmath's context is one per process, shared by every thread. Two API calls made
at once from two threads interleaved their precision changes: a block ran at the other call's precision (the upper
end of `EFMRTT19.Thm7.v2` at eps0 = 0.5, n = 1e4, delta = 1e-6 came out 0.18663183252376056 instead of
0.18663183252376062), `BBGN19.Lem5.3.exact_laplace` and `exact.laplace_pair_x0` (eps0 = 1, n = 1000, delta = 1e-6)
were refused ("lower lattice law ... a group whose mean reaches its point") in 3 of 26 concurrent calls, and the
process was left at 103 bits of mpmath precision instead of 53 (one call's block, entered before the other's ended,
was "restored" last). A call from a second thread now waits until the first has finished; its time budget starts
when it runs. The lock is re-entrant (an entry point calls others).

The default precision. Some steps of the compositions convert or combine mpmath numbers outside their own precision
blocks, at whatever precision the caller's process was left at: after `mpmath.mp.dps = 5` in a notebook,
`composed_epsilon("compose.krr", rounds=2, eps0=1, n=50, delta=1e-6, k=3)` gave the certified upper end
0.9371181353024648 instead of 0.937118137191899 (lower: the outward margins are sized for 53 bits), and the caches
kept such values for later calls. An entry point computes at mpmath's default precision (53 bits, a fresh process's),
and the caller's precision is back on the way out.

What this cannot cover: a caller's own mpmath work in another thread during a call changes the same process-wide
precision (the computations assume none does)."""

from __future__ import annotations

import functools
import threading
from typing import Any, Callable, TypeVar

import mpmath

__all__ = ["CALL_LOCK", "DEFAULT_PRECISION", "entry_point"]

CALL_LOCK = threading.RLock()
# mpmath's default working precision in bits (that of a process that never set one).
DEFAULT_PRECISION = 53

Function = TypeVar("Function", bound=Callable[..., Any])


def entry_point(function: Function) -> Function:
    """`function` holding CALL_LOCK and computing at DEFAULT_PRECISION while it runs (module doc): the same
    arguments, result and exceptions."""

    @functools.wraps(function)
    def held(*args: Any, **kwargs: Any) -> Any:
        with CALL_LOCK, mpmath.workprec(DEFAULT_PRECISION):
            return function(*args, **kwargs)

    return held  # type: ignore[return-value]
