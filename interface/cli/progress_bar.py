"""Progress bars on stderr for the long commands, drawn by tqdm from the reports of `reference.core.progress`.

Shown when stderr is a terminal, or when forced by `--progress` (anywhere on the command line) or the environment
variable SHUFFLE_SPEC_PROGRESS=1 (for a log file or a CI job); SHUFFLE_SPEC_PROGRESS=0 turns them off even in a
terminal. Stdout is never touched: the data a command prints are the same with and without bars. tqdm (a small,
pure-Python, widely used library) draws them: no terminal code of our own. It is imported on the first report
only, so a short command never pays for it.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any, Iterator

from ...reference.core.progress import progress_callback

__all__ = ["ENVIRONMENT_VARIABLE", "FLAG", "bars_wanted", "progress_bars"]

ENVIRONMENT_VARIABLE = "SHUFFLE_SPEC_PROGRESS"
FLAG = "--progress"


def bars_wanted(forced: bool = False) -> bool:
    """Whether to draw: forced by the flag, else the environment variable ("1" on, "0" off), else whether stderr is
    a terminal."""
    if forced:
        return True
    setting = os.environ.get(ENVIRONMENT_VARIABLE, "").strip()
    if setting in ("0", "1"):
        return setting == "1"
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty())


class _Bars:
    """One tqdm bar per stage: a new stage closes the previous bar (its last count stays on the line)."""

    def __init__(self) -> None:
        self.stage: str | None = None
        self.bar: Any = None

    def __call__(self, stage: str, done: int, total: int | None) -> None:
        if stage != self.stage or self.bar is None or (total is not None and self.bar.total != total):
            self.close()
            from tqdm import tqdm  # on the first report only

            # mininterval: a redraw at most 10 times a second; dynamic_ncols follows the terminal's width.
            self.bar = tqdm(total=total, desc=stage, file=sys.stderr, unit="step", leave=True, mininterval=0.1, dynamic_ncols=True)
            self.stage = stage
        if done >= self.bar.n:
            self.bar.update(done - self.bar.n)  # redraws at most every mininterval
        else:  # a count that went back (a stage restarted): shown as it is
            self.bar.n = done
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        self.bar, self.stage = None, None


@contextlib.contextmanager
def progress_bars(forced: bool = False) -> Iterator[None]:
    """Draw the reports of the block as tqdm bars on stderr when `bars_wanted(forced)`; else listen to nothing."""
    if not bars_wanted(forced):
        with progress_callback(None):
            yield
        return
    bars = _Bars()
    try:
        with progress_callback(bars):
            yield
    finally:
        bars.close()
