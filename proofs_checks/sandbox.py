"""Run third-party Python code in a child process with time and memory limits.

`shuffle-spec audit bound` imports and runs code it did not write. Anything that code does to its own
process (`sys.exit`, `os._exit`, a segfault, an infinite loop, a `MemoryError`, printing to stdout)
must end up as a verdict about that code, not as the death or the silence of the auditing tool. So
the code runs in a child Python process:

- the child imports the target like `python -c "import MODULE"` would (the current directory first,
  then `PYTHONPATH`), or loads `path/to/file.py` with that file's directory first on `sys.path`
  (as `python path/to/file.py` would);
- each call is sent as one JSON line and answered by one JSON line on a private pipe (the child's
  own stdout is redirected to its stderr, so prints cannot corrupt the protocol);
- each call has a wall-clock limit (`time_limit`), after which the child is killed and a fresh one is
  started for the next call; the child's address space is capped with `RLIMIT_AS` (`memory_mb`);
- a child that dies (exit, signal, `sys.exit` inside the function) is reported with its exit status
  and the tail of its stderr.

Nothing here runs the code with fewer rights than the user's: it is isolation against accidents and
hangs, not a security boundary. The README and `shuffle-spec audit bound --help` say so.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

__all__ = ["DEFAULT_MEMORY_MB", "DEFAULT_TIME_LIMIT", "MAX_TIME_LIMIT", "CallOutcome", "InProcessTimeout", "LoadError", "Sandbox", "call_in_process", "in_process_time_limit"]

DEFAULT_TIME_LIMIT = 10.0  # seconds per call
MAX_TIME_LIMIT = 3600.0
DEFAULT_MEMORY_MB = 4096  # address space of the child; numpy/scipy need ~1 GB of address space to import
STARTUP_LIMIT = 120.0  # seconds to import the target (scipy-heavy modules take several seconds on a busy machine)
_STDERR_TAIL = 600

# The child: a self-contained script (it must not import shuffle_spec: the user's PYTHONPATH decides
# what it sees). Protocol: one JSON line per call on fd PROTO_OUT, answers on fd PROTO_IN.
_CHILD = r'''
import importlib, importlib.util, inspect, json, os, sys, traceback
proto_in = os.fdopen(int(sys.argv[2]), "r")
proto_out = os.fdopen(int(sys.argv[3]), "w")
os.dup2(2, 1)  # the audited code's prints go to stderr, never into the protocol
def send(obj):
    proto_out.write(json.dumps(obj) + "\n"); proto_out.flush()
def short(exc):
    text = str(exc).strip().splitlines()
    return type(exc).__name__ + (": " + text[0][:300] if text else "")
target = sys.argv[1]
module_name, _, function_name = target.rpartition(":")
try:
    if module_name.endswith(".py") or "/" in module_name or os.sep in module_name:
        path = os.path.abspath(module_name)
        sys.path.insert(0, os.path.dirname(path))
        spec = importlib.util.spec_from_file_location("_audited_" + os.path.splitext(os.path.basename(path))[0], path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(module_name)
except SystemExit as exc:
    send({"load_error": "importing %s called sys.exit(%r)" % (module_name, exc.code)}); sys.exit(0)
except BaseException as exc:
    where = ""
    if isinstance(exc, SyntaxError) and exc.lineno:
        where = " (%s line %s)" % (exc.filename, exc.lineno)
    send({"load_error": "cannot import %s: %s%s" % (module_name, short(exc), where)}); sys.exit(0)
function = getattr(module, function_name, None)
if not callable(function):
    send({"load_error": "%s has no function %s" % (module_name, function_name)}); sys.exit(0)
try:
    names = set(inspect.signature(function).parameters)
except (TypeError, ValueError):
    names = set()
send({"ready": True})
for line in proto_in:
    request = json.loads(line)
    kwargs = request["kwargs"]
    try:
        if set(kwargs) <= names:
            result = function(**kwargs)
        else:
            result = function(*[kwargs[name] for name in request["order"]])
    except SystemExit as exc:
        send({"exit": repr(exc.code)}); continue
    except MemoryError:
        send({"raised": "MemoryError: out of memory (limit %s MB)" % request.get("memory_mb")}); continue
    except BaseException as exc:
        send({"raised": short(exc)}); continue
    if isinstance(result, bool) or isinstance(result, (str, bytes)) or result is None:
        send({"nonnumber": repr(result)[:200]}); continue
    try:
        value = float(result)
    except BaseException:
        send({"nonnumber": (type(result).__name__ + " " + repr(result))[:200]}); continue
    send({"value": value, "type": type(result).__name__})
'''


class LoadError(Exception):
    """The target could not be imported or has no such function (a usage error: exit 2)."""


@dataclass(frozen=True)
class CallOutcome:
    """What one call did: kind is "value", "raised", "exit" (sys.exit inside the function), "crash"
    (the process died), "nonnumber" or "timeout"; `text` explains everything but "value"."""

    kind: str
    value: float | None = None
    text: str = ""
    seconds: float = 0.0


def _limit_memory(memory_mb: int) -> Any:
    def apply() -> None:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        os.setsid()  # its own process group, so a kill reaches whatever it spawned

    return apply


class Sandbox:
    """A child process that imports `target` ("MODULE:FUNCTION" or "path/file.py:FUNCTION") and calls
    the function on request. Use as a context manager; `call` never raises for what the function does."""

    def __init__(self, target: str, *, time_limit: float = DEFAULT_TIME_LIMIT, memory_mb: int = DEFAULT_MEMORY_MB, cwd: str | None = None) -> None:
        if not (isinstance(time_limit, (int, float)) and 0 < time_limit <= MAX_TIME_LIMIT):
            raise ValueError(f"time_limit = {time_limit!r} is out of range: expected seconds in (0, {MAX_TIME_LIMIT:g}]")
        if not (isinstance(memory_mb, int) and 64 <= memory_mb <= 1 << 20):
            raise ValueError(f"memory_mb = {memory_mb!r} is out of range: expected an integer in [64, 1048576]")
        self.target = target
        self.time_limit = float(time_limit)
        self.memory_mb = memory_mb
        self.cwd = cwd or os.getcwd()
        self._process: subprocess.Popen[bytes] | None = None
        self._stderr: Any = None
        self._to_child: Any = None
        self._from_child: Any = None
        self._buffer = b""
        self._eof = False
        self.starts = 0

    # -- process management -------------------------------------------------------------------

    def _start(self) -> None:
        self._stderr = tempfile.TemporaryFile()
        child_reads, parent_writes = os.pipe()
        parent_reads, child_writes = os.pipe()
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-c", _CHILD, self.target, str(child_reads), str(child_writes)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=self._stderr,
                cwd=self.cwd,
                pass_fds=(child_reads, child_writes),
                preexec_fn=_limit_memory(self.memory_mb),
            )
        finally:
            os.close(child_reads)
            os.close(child_writes)
        self._to_child = os.fdopen(parent_writes, "w")
        self._from_child = parent_reads
        self._buffer = b""
        self.starts += 1
        answer = self._read(STARTUP_LIMIT)
        if answer is None or "load_error" in answer:
            text = answer["load_error"] if answer else self._death_text("while importing") if self._eof else f"importing {self.target} took more than {STARTUP_LIMIT:g} s"
            self.close()
            raise LoadError(text)

    def _read(self, limit: float) -> dict[str, Any] | None:
        """The next JSON line from the child, or None on timeout / end of file."""
        deadline = time.monotonic() + limit
        self._eof = False
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self._from_child], [], [], left)
            if not ready:
                return None
            chunk = os.read(self._from_child, 65536)
            if not chunk:
                self._eof = True
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return json.loads(line)

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0, os.SEEK_END)
        size = self._stderr.tell()
        self._stderr.seek(max(0, size - _STDERR_TAIL))
        lines = [line for line in self._stderr.read().decode("utf-8", "replace").splitlines() if line.strip()]
        return lines[-1].strip()[:300] if lines else ""

    def _death_text(self, when: str) -> str:
        if self._process is None:
            raise RuntimeError("the audited child process is not running")
        code = self._process.wait()
        how = f"killed by signal {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"
        tail = self._stderr_tail()
        return f"the process died {when} ({how})" + (f": {tail}" if tail else "")

    def close(self) -> None:
        if self._process is not None:
            if self._process.poll() is None:
                try:
                    os.killpg(self._process.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    self._process.kill()
            self._process.wait()
            self._process = None
        if self._to_child is not None:
            # Closing flushes what is buffered; a pipe that broke when the child died raises here, and there is
            # then nothing left to release, so the error is dropped on purpose.
            with contextlib.suppress(OSError):
                self._to_child.close()
        if self._from_child is not None:
            os.close(self._from_child)
            self._from_child = None
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
        self._to_child = None

    def __enter__(self) -> Sandbox:
        self._start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- calls --------------------------------------------------------------------------------

    def call(self, kwargs: Mapping[str, Any], order: Sequence[str], *, time_limit: float | None = None) -> CallOutcome:
        """Call the function with `kwargs` (by keyword when its parameters have those names, else
        positionally in `order`) within the time limit."""
        if self._process is None or self._process.poll() is not None:
            self.close()
            self._start()
        if self._process is None:  # `_start` always sets it (or raises)
            raise RuntimeError("sandbox: no child process after start")
        limit = self.time_limit if time_limit is None else max(0.001, min(time_limit, self.time_limit))
        start = time.monotonic()
        try:
            self._to_child.write(json.dumps({"kwargs": dict(kwargs), "order": list(order), "memory_mb": self.memory_mb}) + "\n")
            self._to_child.flush()
        except (BrokenPipeError, OSError):
            text = self._death_text("before the call")
            self.close()
            return CallOutcome("crash", text=text)
        answer = self._read(limit)
        seconds = time.monotonic() - start
        if answer is None:
            if not self._eof and self._process.poll() is None:
                self.close()
                return CallOutcome("timeout", text=f"no answer within {limit:g} s (the process was killed)", seconds=seconds)
            text = self._death_text("during the call")
            self.close()
            return CallOutcome("crash", text=text, seconds=seconds)
        if "value" in answer:
            value = answer["value"]
            return CallOutcome("value", value=float(value), text=answer.get("type", ""), seconds=seconds)
        if "exit" in answer:
            return CallOutcome("exit", text=f"the function called sys.exit({answer['exit']})", seconds=seconds)
        if "nonnumber" in answer:
            return CallOutcome("nonnumber", text=f"returned {answer['nonnumber']}", seconds=seconds)
        return CallOutcome("raised", text=str(answer.get("raised", "")), seconds=seconds)


def call_in_process(function: Any, kwargs: Mapping[str, Any], order: Sequence[str]) -> CallOutcome:
    """The same protocol without a child process, for trusted callables (the project's own reference
    functions, tests' stand-ins): exceptions become outcomes, nothing is time-limited."""
    import inspect

    try:
        names = set(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        names = set()
    start = time.monotonic()
    try:
        result = function(**kwargs) if set(kwargs) <= names else function(*[kwargs[name] for name in order])
    except SystemExit as exc:
        return CallOutcome("exit", text=f"the function called sys.exit({exc.code!r})")
    except Exception as exc:  # a third-party function may raise anything to refuse
        lines = str(exc).strip().splitlines()
        return CallOutcome("raised", text=type(exc).__name__ + (": " + lines[0][:300] if lines else ""))
    seconds = time.monotonic() - start
    if isinstance(result, (bool, str, bytes)) or result is None:
        return CallOutcome("nonnumber", text=f"returned {result!r}"[:200], seconds=seconds)
    try:
        value = float(result)
    except (TypeError, ValueError, OverflowError):
        return CallOutcome("nonnumber", text=f"returned {type(result).__name__} {result!r}"[:200], seconds=seconds)
    return CallOutcome("value", value=value, text=type(result).__name__, seconds=seconds)


def finite(x: float | None) -> bool:
    return x is not None and math.isfinite(x)


class InProcessTimeout(Exception):
    """A trusted in-process computation did not finish within its time limit."""


@contextmanager
def in_process_time_limit(seconds: float) -> Iterator[None]:
    """Abort a trusted in-process computation after `seconds` (SIGALRM: main thread only; elsewhere
    it runs unlimited). Untrusted code never runs in process: use `Sandbox`."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM"):
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise InProcessTimeout()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
