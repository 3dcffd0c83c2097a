"""Limits of the command-line tool and the Python API: the supported parameter ranges, the largest
sweeps, and a time limit for computations that may not end (SymPy, exact enumerations).

Library code imports the time limit from here (never from a CLI command module). The supported
parameter ranges are defined once, in `reference/core/limits.py`; every command states them in its `--help`
and refuses a point outside them before doing any work (a one-line error naming the parameter, its value and
the range).
"""

from __future__ import annotations

import gc
import math
import os
import signal
import sys
import threading
import time
from types import FrameType, TracebackType
from typing import Any, Callable, ContextManager, Literal

from ..reference.core.errors import TimeLimitExceeded, TimeLimitInterrupt  # TimeLimitExceeded re-exported: the interface's name for it

from ..reference.core.limits import (
    DELTA_MIN,
    EPS0_MAX,
    K_MAX,
    MATRIX_DENOMINATOR_LCM_MAX_DIGITS,
    MATRIX_ENTRY_MAX_CHARS,
    MATRIX_ENTRY_MAX_DIGITS,
    N_MAX,
)

__all__ = [
    "DELTA_MIN",
    "EPS0_MAX",
    "K_MAX",
    "MALLOC_MMAP_THRESHOLD_BYTES",
    "MALLOC_TRIM_THRESHOLD_BYTES",
    "MEMORY_LIMIT_BYTES",
    "MAX_GRID_COUNT",
    "MAX_POINTS",
    "N_MAX",
    "RANGES_TEXT",
    "INVERSION_TIME_BUDGET",
    "INVERSION_TIME_BUDGET_MAX",
    "TimeLimitExceeded",
    "TimeLimitInterrupt",
    "budget_exceeded_message",
    "fewer_collections",
    "limit_memory",
    "reuse_freed_memory",
    "time_limit",
    "IMPORT_DEFERRAL",
    "importing",
]


# Every inversion (`calibrate`), composition (`compose`) and `tightest` run as a program stops after this many
# seconds by default (`time_budget=`, `--time-budget`).
INVERSION_TIME_BUDGET = 60.0
# The largest budget accepted: the interval timer that enforces it (`time_limit`, setitimer) overflows the
# platform's time_t a little above 1e9 s; 1e6 s (11.6 days) is far beyond any computation, and None means no limit.
INVERSION_TIME_BUDGET_MAX = 1e6

# Sweeps: at most this many values on one axis (a list or LOW:HIGH:COUNT) and points in the product.
MAX_GRID_COUNT = 1000
MAX_POINTS = 1000

RANGES_TEXT = (
    f"supported ranges: 0 < eps0 <= {EPS0_MAX:g}, 1 <= n <= {N_MAX:.0e} (an integer), "
    f"{DELTA_MIN:g} <= delta < 1, 2 <= k <= {K_MAX:.0e}; a sweep has at most {MAX_GRID_COUNT} values "
    f"per parameter and {MAX_POINTS} points"
)


# Address space of one `shuffle-spec` process (set when it runs as a program, not when `cli.main` is
# called in-process): a runaway allocation becomes a one-line MemoryError instead of swapping the
# machine. Python + numpy + scipy + SymPy take about 1-2 GB of it.
MEMORY_LIMIT_BYTES = 8 * 2**30


def limit_memory(limit: int = MEMORY_LIMIT_BYTES) -> None:
    """Lower this process's address-space limit (RLIMIT_AS) to `limit` bytes unless it is lower already
    (no-op where the platform has no such limit)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    if soft == resource.RLIM_INFINITY or soft > limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


# Freed memory of one `shuffle-spec` process (kept when it runs as a program, as the limit above). glibc's malloc
# returns a freed block of 128 KiB or more to the kernel (each such block is its own mapping, or it is trimmed off
# the top of the heap), so the next array of that size is paged in afresh, one page fault per 4 KiB: a k-RR
# `tightest` at n = 1e8 (k = 10, eps0 = 0.5, delta = 1e-6) took about 60 000 faults (0.15-0.25 s of system time) in its first call and 24 000 in
# each later one. Blocks below MALLOC_MMAP_THRESHOLD_BYTES now come from the heap, and a free heap top below
# MALLOC_TRIM_THRESHOLD_BYTES stays mapped for the next array (8 000 faults in the first call, 1 000 or fewer in later ones).
# Only where the memory comes from changes: every number is the same float.
MALLOC_MMAP_THRESHOLD_BYTES = 32 * 2**20  # glibc's own ceiling for the threshold it adapts by itself (64-bit)
MALLOC_TRIM_THRESHOLD_BYTES = 256 * 2**20
_M_TRIM_THRESHOLD = -1  # mallopt's parameter numbers (glibc's malloc.h)
_M_MMAP_THRESHOLD = -3


def reuse_freed_memory() -> bool:
    """Ask glibc's malloc to keep freed memory for the next allocation instead of returning it to the kernel (the
    comment above: MALLOC_MMAP_THRESHOLD_BYTES, MALLOC_TRIM_THRESHOLD_BYTES). True when both settings were taken;
    False, changing nothing, where the C library is not glibc (macOS, musl, Windows)."""
    try:
        if not (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc"):
            return False
    except (AttributeError, ValueError, OSError):  # no confstr (Windows) or no such name (not glibc)
        return False
    import ctypes  # here, not at the top: `--help` and usage errors do not pay its import

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    trim = mallopt(_M_TRIM_THRESHOLD, MALLOC_TRIM_THRESHOLD_BYTES)
    mapped = mallopt(_M_MMAP_THRESHOLD, MALLOC_MMAP_THRESHOLD_BYTES)
    return trim == 1 and mapped == 1


# The cyclic garbage collector's youngest generation is collected after this many net new container objects (Python's
# default is 700). A `shuffle-spec` program imports NumPy, mpmath and SymPy modules that create tens of thousands of
# containers, none of them garbage: about 60 young and 5 middle collections per `tightest` call, 0.02-0.03 s of CPU for
# nothing. At 100 000 a run such as `tightest` collects nothing; a long computation (compose, calibrate) still
# collects, its uncollected cyclic garbage bounded by the threshold's worth of objects (a few MB).
YOUNG_GENERATION_THRESHOLD = 100_000


def fewer_collections() -> None:
    """Collect the youngest generation after YOUNG_GENERATION_THRESHOLD new container objects (the comment above); the
    older generations' thresholds are kept. Only for a process run as the program: a library never changes its
    caller's collector."""
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_GENERATION_THRESHOLD, middle, oldest)


# NumPy's OpenBLAS starts its thread pool when NumPy is imported: about 0.02 s of CPU in every `shuffle-spec` process
# on a 2-core machine, for threads that the certified computations do not use (their sums are einsum or np.sum, not
# BLAS: its threads stall on a loaded machine). A user's own setting is kept.
BLAS_THREAD_VARIABLE = "OPENBLAS_NUM_THREADS"


def single_threaded_blas() -> bool:
    """Ask OpenBLAS for one thread (BLAS_THREAD_VARIABLE), unless the environment sets it already. Effective only
    before NumPy is imported (True then); False, changing nothing, once it is."""
    if "numpy" in sys.modules:
        return False
    os.environ.setdefault(BLAS_THREAD_VARIABLE, "1")
    return True


def budget_exceeded_message(what: str, budget: float, advice: str = "") -> str:
    """The one line of a computation stopped by its time budget (`time_budget=`, `--time-budget`): what ran out,
    the budget, and how to allow more."""
    return f"{what} ran out of its time budget ({budget:g} s); allow more time (time_budget / --time-budget, at most {INVERSION_TIME_BUDGET_MAX:g} s){advice}"


# An expiry that finds an import running is put off by this many seconds, again until none runs.
IMPORT_DEFERRAL = 0.005


def importing(frame: FrameType | None) -> bool:
    """Whether the interrupted code is inside an import (a frame of the import machinery on its stack). An exception
    raised there leaves a half-initialised module behind: NumPy's, interrupted by a 0.02 s budget of `tightest`, then
    failed on the next use with "ImportError: cannot load module more than once per process" (an internal error
    instead of the budget's one line). The limits put their expiry off until the import has finished."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def time_limit(seconds: float, *, exceeded: Callable[[str], Exception] = TimeLimitExceeded) -> ContextManager[None]:
    """Raise `TimeLimitExceeded` (or `exceeded`, an Exception class taking the message: a caller's own type) in the
    block after `seconds` of wall time (SIGALRM; only in the main thread, where signals work: elsewhere the block runs
    without a limit).

    Nests: an enclosing limit that expires first still fires (its remaining time is restored on exit). Inside the
    block the expiry is a TimeLimitInterrupt (a BaseException: no `except Exception` of the code it interrupts
    swallows it); out of the block it is a TimeLimitExceeded. An expiry during an import is put off until the import
    has finished (`importing`). An expiry while the limit itself is being armed (a limit of a few microseconds) is a
    TimeLimitExceeded before the block begins; one while it is being taken down, after the block has finished,
    ends nothing: either way the process's SIGALRM handler and timer are the ones it had before (`_WallClockLimit`).
    A computation inside one C call (a huge integer power, say) is interrupted only when that call
    returns: callers bound such operations before starting them.
    """
    if not seconds > 0 or not math.isfinite(seconds):
        raise ValueError(f"seconds = {seconds!r} is out of range: expected a finite number > 0")
    return _WallClockLimit(seconds, exceeded)


class _WallClockLimit:
    """The context manager of `time_limit`. A class, not a generator: its handler must tell an expiry inside the
    block (raised there, as TimeLimitInterrupt) from one that arrives while the limit's own code arms or takes down
    the timer (`_OWN_CODE`): raised there, it left the limit as TimeLimitInterrupt with its handler still installed
    (a budget of 1e-6 s expired during `setitimer` itself, before the block began)."""

    def __init__(self, seconds: float, exceeded: Callable[[str], Exception]) -> None:
        self.seconds = seconds
        self.exceeded = exceeded
        self.limited = False  # whether this limit armed the timer (the main thread, a platform with setitimer)
        self.expired_outside = False  # an expiry that arrived in the limit's own code, not in the block
        self.previous_handler: Any = None
        self.outer_remaining = 0.0
        self.start = 0.0

    def expire(self, signum: int, frame: FrameType | None) -> None:  # noqa: ARG002
        if importing(frame):  # not inside an import (see `importing`): once it has finished
            signal.setitimer(signal.ITIMER_REAL, IMPORT_DEFERRAL)
            return
        if frame is not None and frame.f_code in _OWN_CODE and frame.f_locals.get("self") is self:  # arming or taking down
            self.expired_outside = True
            return
        # A BaseException inside the block (TimeLimitInterrupt: no `except Exception` there swallows it), the
        # documented TimeLimitExceeded out of it (`__exit__`).
        raise TimeLimitInterrupt(f"over {self.seconds:g} s")

    def __enter__(self) -> None:
        if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
            return None
        self.start = time.monotonic()
        self.previous_handler = signal.signal(signal.SIGALRM, self.expire)
        self.limited = True
        try:
            self.outer_remaining, _ = signal.setitimer(signal.ITIMER_REAL, self.seconds)
            if self.outer_remaining and self.outer_remaining < self.seconds:  # the enclosing limit comes first
                signal.setitimer(signal.ITIMER_REAL, self.outer_remaining)
        except BaseException:  # a Ctrl-C (or an enclosing limit's expiry) while arming: handler and timer as they were
            self.take_down()
            raise
        if self.expired_outside:  # it ran out while being armed: the block never begins
            self.take_down()
            if isinstance(getattr(self.previous_handler, "__self__", None), _WallClockLimit):
                # Inside an enclosing limit the expiry may be that limit's (its timer was running): ending its block
                # is right either way, and no `except Exception` there may swallow it.
                raise TimeLimitInterrupt(f"over {self.seconds:g} s")
            raise self.exceeded(f"over {self.seconds:g} s")
        return None

    def __exit__(self, kind: type[BaseException] | None, failure: BaseException | None, trace: TracebackType | None) -> Literal[False]:
        if not self.limited:
            return False
        self.take_down()
        if isinstance(failure, TimeLimitInterrupt):
            raise self.exceeded(str(failure)) from None
        return False  # finished (an expiry during the take-down ended nothing: the block's work was done)

    def take_down(self) -> None:
        """Disarm this limit's timer and restore the handler and the enclosing limit's remaining time."""
        self.limited = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous_handler)
        if self.outer_remaining:
            left = self.outer_remaining - (time.monotonic() - self.start)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))


# The code of the limit's own arming and taking down: an expiry found running there is not inside the block.
_OWN_CODE = frozenset(method.__code__ for method in (_WallClockLimit.__enter__, _WallClockLimit.__exit__, _WallClockLimit.take_down))


# Finite randomizers given as matrices (`audit randomizer`, `tightest --randomizer matrix`, the API
# `audit_randomizer` / `tightest_randomizer`). The digit limits are the reference's (`shuffle_spec.reference.core.limits`, enforced by
# `shuffle_spec.reference.finite.randomizers.Randomizer.from_matrix` on the text of every entry before a number is built).
# At most this many entries: exact Fraction arithmetic costs O(k m) per pass over the matrix with big-integer work
# per entry; 250,000 entries (500 x 500) stay within about a minute.
MAX_MATRIX_ENTRIES = 250_000
# The exact small-n central epsilon of a matrix enumerates every pair of neighbouring datasets in exact
# Fractions (`shuffle_spec.interface.audit.randomizer.exact_small_n_epsilon`). Its work is estimated before it starts, in units of
# about 3 microseconds of one core: (pairs of datasets) x (shuffled support) x n x (outputs), the Fraction
# operations, times the cost of one operation on numbers of B bits, 1 + w/8 + w^2/400 with w = B/64 words
# (additions and products are linear in w, the gcd that reduces every result quadratic; fitted on 2 x 2 and
# 3 x 3 matrices with denominators of 1 to 3000 digits). B = n x the bits of the least common multiple
# of a row's denominators (every probability of n reports has a denominator dividing its n-th power), the
# largest over the rows. Over EXACT_WORK_LIMIT units (about 15 s) the value is not computed and the report says
# why; EXACT_ENUMERATION_SECONDS is a last guard on the wall time (a loaded machine), with the same outcome.
EXACT_WORK_LIMIT = 5_000_000
EXACT_ENUMERATION_SECONDS = 60.0
# `audit bound`: seconds for all the calls of one audit together (`--total-time-limit`).
AUDIT_TOTAL_SECONDS = 1800.0
MATRIX_LIMITS_TEXT = (
    f"matrix limits: at most {MAX_MATRIX_ENTRIES} entries; each entry a number or a string such as \"0.25\", "
    f"\"1e-3\" or \"1/4\" of at most {MATRIX_ENTRY_MAX_CHARS} characters whose numerator and denominator have at "
    f"most {MATRIX_ENTRY_MAX_DIGITS} digits; the denominators' least common multiple at most "
    f"{MATRIX_DENOMINATOR_LCM_MAX_DIGITS} digits; labels strings or integers, all different; the exact small-n value "
    f"only within {EXACT_WORK_LIMIT:.0e} units of work (operations x size of the numbers, about 15 s), else "
    "reported as not computed with the reason"
)

__all__ += [
    "EXACT_ENUMERATION_SECONDS",
    "EXACT_WORK_LIMIT",
    "MATRIX_DENOMINATOR_LCM_MAX_DIGITS",
    "MATRIX_ENTRY_MAX_CHARS",
    "MATRIX_ENTRY_MAX_DIGITS",
    "MATRIX_LIMITS_TEXT",
    "MAX_MATRIX_ENTRIES",
]


# `shuffle-spec tightest` run as a program computes its two sides in two processes where the machine has two cores or
# more (`interface/parallel_sides.py`); the Python API never forks the caller's process.
_worker_processes = False


def allow_worker_processes() -> None:
    """Let this process fork one worker for an independent part of a computation (`worker_processes_allowed`)."""
    global _worker_processes
    _worker_processes = True


def worker_processes_allowed() -> bool:
    """True when `allow_worker_processes` was called and this process may run on two cores or more."""
    if not _worker_processes:
        return False
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # no affinity call here (macOS, Windows)
        cores = os.cpu_count() or 1
    return cores >= 2
