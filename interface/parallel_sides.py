"""`tightest` with its two sides computed at once: the lower bounds in a forked child process while this process
computes the upper bounds (`shuffle-spec tightest` run as a program, on a machine with two cores or more).

Why: at k-RR with k >= 3 and for Laplace the two sides share nothing. The upper side (BBGN19.Lem5.3.exact_krr,
the clone bounds, ...) and the lower side (the explicit pairs' lattice sums) each cost about a tenth to a few tenths of
a second after a start-up of about 0.3 s; run one after the other, the lower side adds its whole time to the wall
clock. Each side's skip tests (`tightest`, skip_dominated) read that side's results only: the upper side's the
smallest upper end in hand, the lower side's the largest lower end (`certified.best_certified` never takes an upper
bound's value as a lower end, nor the converse). So `tightest(include_lower=False)` and `tightest(include_upper=False)`
evaluate exactly the statements, in the same order, with the same skips, as one `tightest` call, and their rows
concatenated are its rows (its rows are sorted by the statement list, the upper bounds first): the same answer, float
for float. Where a side holds a statement of direction exact (k = 2, and the generic randomizer's lower side:
exact.shuffled_binary_rr, which one evaluation serves on both sides) the sides are not separable and this is
`tightest` as is.

Why by hand (os.fork and a pipe, not multiprocessing or concurrent.futures): the child must start from this process
as it is (the package and NumPy imported, the memory limit set) and answer within milliseconds; a pool's spawn
start-up would cost more than the side it computes. The child sends its Gap pickled and ends with os._exit (no
atexit handler, no flush of a copied output buffer). Anything but an answer from the child (an exception, a signal,
no fork on this system) and the lower side is computed here, one after the other, as `tightest` does: the same
answer and the same errors, only slower.

What the child inherits: before forking, this process imports the reference modules of the lower side's statements
(at k-RR `reference/lower_bounds/krr.py`, and with it NumPy, the lattice sums and the exact blanket bound, which the
upper side needs as well). Imported after the fork, they were imported twice, once in each process: about 0.1-0.15 s
of CPU more per call (NumPy alone is most of it), which a loaded machine pays in wall time too. A module imported
earlier computes nothing different (the floats are the same); an import that fails here is left to fail where
`tightest` imports it (the same error, raised from the same place).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import threading
import time
from typing import Any

from ..proofs_checks.bridge import reference_module
from .tightest import Gap, lower_side_statements, sides_are_separable, tightest

__all__ = ["tightest_in_parallel"]

# Seconds the parent waits for the child's first or next bytes after its own side is done (at least; ten times the
# time its own side took if that is longer). The lower side costs less than the upper one at every benchmark point (at
# n = 1e12, k = 3: nothing against 40 s); a wait this long only guards against a child that can never answer, and a
# child cut short costs time, never a different answer (its side is then computed here).
CHILD_PATIENCE = 60.0


def tightest_in_parallel(**arguments: Any) -> Gap:
    """`tightest(**arguments)` (both sides included), the lower side computed in a forked child process (module doc).
    The same Gap as `tightest(**arguments)`, float for float; `tightest` itself where fork is unavailable or the sides
    are not separable. Range: as `tightest`'s (its errors are raised here, from this process)."""
    if arguments.get("include_upper") is False or arguments.get("include_lower") is False:
        return tightest(**arguments)
    if not hasattr(os, "fork") or not sides_are_separable(arguments.get("randomizer", "krr"), arguments.get("k")):
        return tightest(**arguments)
    _import_lower_side(arguments)
    read_end, write_end = os.pipe()
    # The parent's life line: only this process holds its write end, so the child reads end-of-file on it the moment
    # this process ends, however it ends (SIGKILL and SIGTERM run no Python code here), and then ends too.
    life_read, life_write = os.pipe()
    try:
        child = os.fork()
    except OSError:  # no process to spare (a limit on processes, no memory): one after the other
        for end in (read_end, write_end, life_read, life_write):
            os.close(end)
        return tightest(**arguments)
    if child == 0:  # the child: the lower side, its Gap down the pipe, then out without running any exit handler
        _answer(read_end, write_end, life_read, life_write, arguments)
    os.close(write_end)
    os.close(life_read)
    try:
        start = time.monotonic()
        upper = tightest(**arguments, include_lower=False)
        # A child that has not answered long after this side ended is stuck (a lock copied held by fork, say): stop
        # it and compute its side here.
        lower = _receive(read_end, patience=max(CHILD_PATIENCE, 10 * (time.monotonic() - start)))
        if lower is None:
            _stop(child)
    except BaseException:
        _stop(child)
        raise
    finally:
        os.close(read_end)
        os.close(life_write)
    _reap(child)
    if lower is None:  # the child gave no answer (module doc): the lower side here
        lower = tightest(**arguments, include_upper=False)
    return Gap(upper.randomizer, upper.params, upper.upper_id, upper.upper_eps, lower.lower_id, lower.lower_eps, upper.rows + lower.rows)


def _import_lower_side(arguments: dict[str, Any]) -> None:
    """Import the reference modules of the lower side's statements here, before the fork (module doc, "What the child
    inherits"). Any failure is left to `tightest`, which imports them where it evaluates them."""
    with contextlib.suppress(Exception):  # the same error is raised later, from `tightest`
        for statement in lower_side_statements(arguments.get("randomizer", "krr"), arguments.get("k")):
            reference_module(statement)


def lower_side(arguments: dict[str, Any]) -> Gap:
    """The child's computation: `tightest` with the lower bounds only."""
    return tightest(**arguments, include_upper=False)


def _answer(read_end: int, write_end: int, life_read: int, life_write: int, arguments: dict[str, Any]) -> None:
    """The child's whole life: its side's Gap down the pipe, then os._exit (never a return into the caller's code);
    it ends at once when its parent does (end-of-file on the life line: `_end_with_parent`)."""
    code = 1  # no answer unless the pipe was written
    try:
        os.close(read_end)
        os.close(life_write)
        _end_with_parent(life_read)
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # a parent started with Ctrl-C ignored: the child too
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C ends the child quietly; the parent reports it
        payload = pickle.dumps(lower_side(arguments))
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(payload)
        code = 0
    except BaseException:  # noqa: BLE001 - any failure: no answer; the parent computes the side itself
        code = 1
    finally:
        os._exit(code)


def _end_with_parent(life_read: int) -> None:
    """Watch the parent's life line from a thread of the child: its end-of-file (the parent has ended: killed, say,
    with no chance to stop the child) ends the child with no answer, rather than letting it compute on, reparented,
    for nobody (a lower side can take seconds: 7 s at k = 1000, eps0 = 0.05, n = 1000, delta = 1e-300)."""

    def watch() -> None:
        with contextlib.suppress(OSError):  # a failed read is no news of the parent either: end as on end-of-file
            while os.read(life_read, 1):
                pass  # the parent never writes; a byte (none is sent) would be ignored
        os._exit(1)

    threading.Thread(target=watch, name="parent-life-line", daemon=True).start()


def _receive(read_end: int, *, patience: float) -> Gap | None:
    """The child's Gap, or None when it ended without one or sent nothing for `patience` seconds."""
    chunks = []
    while True:
        ready, _, _ = select.select([read_end], [], [], patience)
        if not ready:
            return None
        chunk = os.read(read_end, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    if not chunks:
        return None
    try:
        answer = pickle.loads(b"".join(chunks))  # noqa: S301 - our own child's bytes, through our own pipe
    except Exception:  # noqa: BLE001 - a truncated answer: none
        return None
    return answer if isinstance(answer, Gap) else None


def _reap(child: int) -> None:
    """Wait for the child's exit (no zombie left behind); a child already reaped is not an error."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(child, 0)


def _stop(child: int) -> None:
    """End the child now (this process is leaving with an exception, or the child is silent) and reap it."""
    with contextlib.suppress(ProcessLookupError):  # it has ended already
        os.kill(child, signal.SIGKILL)
    _reap(child)
