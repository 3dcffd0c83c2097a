"""Progress of long work: the hook the long loops call, and the context manager that listens to it.

A long loop of the reference or the interface (an inversion's bisection, an audit's scan, the generation of the
test vectors) calls `report(stage, done, total)` after each step. Without a listener that is a context-variable
lookup and nothing else: the numbers computed never depend on it. A caller who wants feedback installs a callback
for the duration of a block:

    with progress_callback(lambda stage, done, total: print(stage, done, total)):
        calibrate_epsilon0(...)

A loop wraps the work of each of its steps in `silenced()`, so that only the outermost loop is shown (a
calibration's bisection, not the bisection inside each bound it evaluates). The command-line tool installs one that draws a tqdm bar on stderr (`interface/cli/progress_bar.py`). The
listener lives in a `contextvars.ContextVar`, so threads and asyncio tasks each see their own (a new thread starts
without one). Only the standard library is imported here: this module sits at the bottom of the layers.
"""

from __future__ import annotations

import contextlib
import contextvars
from typing import Callable, Iterator

__all__ = ["ProgressCallback", "progress_callback", "report", "listening", "silenced"]

# (stage, done, total): `stage` names the work ("calibrate: bisection on eps0"), `done` counts finished steps, `total`
# is their number when known in advance, None when not (a bisection stops at a tolerance).
ProgressCallback = Callable[[str, int, "int | None"], None]

_LISTENER: contextvars.ContextVar[ProgressCallback | None] = contextvars.ContextVar("shuffle_spec_progress", default=None)


def report(stage: str, done: int, total: int | None = None) -> None:
    """Tell the listener, if any, that `done` of `total` steps of `stage` are finished; a no-op without one.
    An exception raised by the listener (Ctrl-C in a terminal, a caller's own stop) propagates: it ends the work."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(stage, done, total)


@contextlib.contextmanager
def silenced() -> Iterator[None]:
    """The reports of the block go nowhere: a loop wraps the work of one of its steps in it, so that an inner loop
    (the bisection inside one evaluation of a bound, itself inside a calibration) does not replace the outer
    loop's progress by its own. The listener is back on the way out."""
    token = _LISTENER.set(None)
    try:
        yield
    finally:
        _LISTENER.reset(token)


def listening() -> bool:
    """Whether a listener is installed (a loop may skip preparing a costly stage name when none is)."""
    return _LISTENER.get() is not None


def progress_callback(callback: ProgressCallback | None) -> contextlib.AbstractContextManager[None]:
    """Within the block, every `report(stage, done, total)` of this thread or task calls `callback(stage, done,
    total)`; `None` silences the block. The previous listener is restored on the way out, also on an exception.
    Range: `callback` is a callable or None; anything else is refused here, before the block runs (not at its first
    report in the middle of a computation)."""
    if callback is not None and not callable(callback):
        raise ValueError(f"callback = {callback!r} is out of range: expected a callable (stage, done, total) or None")
    return _listening_to(callback)


@contextlib.contextmanager
def _listening_to(callback: ProgressCallback | None) -> Iterator[None]:
    token = _LISTENER.set(callback)
    try:
        yield
    finally:
        _LISTENER.reset(token)
