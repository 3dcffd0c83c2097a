"""Run third-party Python code in a child process with time and resource limits.

`shuffle-spec audit bound` imports and runs code it did not write. Anything that code does to its own
process (`sys.exit`, `os._exit`, a segfault, an infinite loop, a `MemoryError`, printing to stdout,
writing garbage where the auditor reads its answers) must end up as a verdict about that code, not as
the death, the silence or an internal error of the auditing tool.

**This is not a security boundary.** The audited code runs with the user's rights: it can read and
write every file the user can, use the network, start programs, and, if it sets out to, recognise that
it is audited, fake its answers or kill the processes around it. Audit only code you would run
yourself. What the sandbox does guarantee against code that is merely careless or broken:

- **Time.** Each call has a wall-clock limit (`time_limit`), after which the child is killed (with its
  descendants) and a fresh one is started for the next call; importing has `STARTUP_LIMIT`. A call's
  verdict is TIMEOUT, never a hang of the auditor.
- **Process-tree cleanup.** The child is started in its own session (`start_new_session`). Its first
  process is a small supervisor that runs the audited code in a forked worker. On Linux the supervisor
  is a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`): every process the audited code starts, also
  one that calls `setsid()` or is double-forked as a daemon, stays its descendant, and when the worker
  dies, times out or the auditor closes the sandbox, the supervisor kills every descendant (listed in
  `/proc/<pid>/task/<pid>/children`, else by scanning `/proc/*/stat`) and reaps them before it exits;
  it gets SIGTERM (`PR_SET_PDEATHSIG`) if the auditor dies first. Then the auditor kills the session's
  process group as well. Elsewhere (no `prctl`, no `/proc`) only that process group is killed: a
  descendant that called `setsid()` may survive. Code that kills its own supervisor escapes the
  subreaper (its orphans are then only caught by the process-group kill and `RLIMIT_CPU`).
- **Result validation.** The worker answers on a private channel (a socket moved to a high, random
  file descriptor; fds 0 and 1 become /dev/null and a copy of stderr, so prints cannot reach it). Each
  request carries a fresh random token that its answer must repeat; the auditor reads at most
  `MAX_MESSAGE_BYTES` per message and accepts only the exact shapes below (`_validated`). Anything
  else (not JSON, invalid UTF-8, a wrong token, extra keys, a value that is not a float, a line that
  never ends, a second message) is a CRASH verdict for that call and the child is replaced: never an
  exception in the auditor. The text the code controls (exception messages, repr of what it
  returned, its last stderr line) is cut to 300 printable characters.
- **Resource limits** (POSIX `setrlimit`, soft = hard, in the supervisor before the fork so every
  descendant inherits them): address space `RLIMIT_AS` (`memory_mb`), CPU seconds `RLIMIT_CPU`
  (`cpu_seconds`: by default what every core could spend within the default overall audit time, so a
  call within its wall-clock limit never reaches it; it stops an escaped descendant), the size of any
  file written `RLIMIT_FSIZE` (`file_mb`, which also caps the captured stderr), and no core files
  (`RLIMIT_CORE` 0). `RLIMIT_NPROC` is not set: it counts every process of the user, not of the
  child, so a limit that stops a fork bomb would also make unrelated work of the same user fail (and
  it does not bind root); a fork bomb is bounded only by the time limit and the cleanup.

Being audited is made hard to notice where that is cheap: the target is imported under its natural
module name (`path/to/file.py` as module `file`, its directory first on `sys.path`, as `import file`
next to it would; `MODULE` as `import MODULE` from the current directory), `sys.argv` is `['-']`, the
command line is `python -` (the child's program comes on stdin), the environment is the user's
unchanged, and the `__main__` module holds no names of the sandbox. A determined author can still
tell (the caller's stack frame, the parent process, the resource limits).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import secrets
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Any, ContextManager

from ..limits import IMPORT_DEFERRAL, TimeLimitInterrupt, importing, time_limit

__all__ = [
    "DEFAULT_CPU_SECONDS",
    "DEFAULT_FILE_MB",
    "DEFAULT_MEMORY_MB",
    "DEFAULT_TIME_LIMIT",
    "MAX_MESSAGE_BYTES",
    "MAX_TIME_LIMIT",
    "CallOutcome",
    "InProcessTimeout",
    "LoadError",
    "Sandbox",
    "call_in_process",
    "cpu_budget",
    "in_process_cpu_limit",
    "in_process_time_limit",
]

DEFAULT_TIME_LIMIT = 10.0  # seconds per call
MAX_TIME_LIMIT = 3600.0
DEFAULT_MEMORY_MB = 4096  # address space of the child; numpy/scipy need ~1 GB of address space to import
STARTUP_LIMIT = 120.0  # seconds to import the target (scipy-heavy modules take several seconds on a busy machine)


def cpu_budget(total_seconds: float) -> int:
    """CPU seconds for each child process of an audit that runs at most `total_seconds` (> 0): every
    core busy for that long plus an import, so a call held to its wall-clock limit never reaches it;
    it stops what escapes the cleanup. At most 10**7."""
    return int(min(10**7, (os.cpu_count() or 1) * (math.ceil(min(total_seconds, 10**7)) + int(STARTUP_LIMIT))))


DEFAULT_CPU_SECONDS = cpu_budget(1800.0)  # the default overall time of `audit bound`
DEFAULT_FILE_MB = 512  # largest file the child may write (its captured stderr included)
MAX_MESSAGE_BYTES = 64 * 1024  # one answer of the child; a real one is under 1 KB
CLEANUP_GRACE = 5.0  # seconds for the supervisor to kill and reap the tree before the auditor kills its group
_TEXT_CHARS = 300
_STDERR_TAIL = 600

# The child: a self-contained program read from stdin by `python -` (it must not import shuffle_spec: the
# user's PYTHONPATH decides what the audited code sees). Everything runs inside one function that is
# removed from `__main__` before it starts, so the audited code finds no sandbox names there.
_CHILD = r'''
def _sandboxed(serve, target, ready_token, limits):
    import os, signal, sys

    try:
        import resource
        for name, value in limits:
            which = getattr(resource, name, None)
            if which is None:
                continue
            hard = resource.getrlimit(which)[1]
            if hard != resource.RLIM_INFINITY:
                value = min(value, hard)
            try:
                resource.setrlimit(which, (value, value))
            except (ValueError, OSError):
                pass
    except ImportError:
        pass

    libc = None
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: orphans of the audited code stay ours
            libc.prctl(1, int(signal.SIGTERM), 0, 0, 0)  # PR_SET_PDEATHSIG: the auditor died -> clean up
        except Exception:
            libc = None

    me = os.getpid()

    def children():
        try:
            with open("/proc/%d/task/%d/children" % (me, me)) as listing:
                return [int(pid) for pid in listing.read().split()]
        except (OSError, ValueError):
            pass
        found = []
        try:
            names = os.listdir("/proc")
        except OSError:
            return found
        for name in names:
            if name.isdigit():
                try:
                    with open("/proc/%s/stat" % name) as stat:
                        if int(stat.read().rpartition(")")[2].split()[1]) == me:
                            found.append(int(name))
                except (OSError, ValueError, IndexError):
                    pass
        return found

    def kill_descendants():
        import time
        deadline = time.monotonic() + 4.0
        while time.monotonic() < deadline:
            found = children()
            found += [pid for pid in unreaped if pid not in found]  # the worker, even without /proc
            for pid in found:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            for pid in found:
                try:
                    os.waitpid(pid, 0)  # its own children are ours once it is gone (subreaper)
                except ChildProcessError:
                    pass
                if pid in unreaped:
                    unreaped.remove(pid)
            try:
                while os.waitpid(-1, os.WNOHANG)[0]:
                    pass
            except ChildProcessError:
                return  # no child left, dead or alive
            if not found:
                return  # children we cannot list: the auditor's process-group kill is the fallback

    def on_terminate(signum, frame):
        kill_descendants()
        os._exit(0)

    signal.signal(signal.SIGTERM, on_terminate)
    signal.signal(signal.SIGHUP, on_terminate)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    unreaped = []
    worker = os.fork()
    if worker == 0:
        for number in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(number, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if libc is not None:
            try:
                libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # the supervisor died -> so does the worker
            except Exception:
                pass
        return serve(target, ready_token)

    # The supervisor: holds nothing of the channel, waits for the worker, then cleans up and exits
    # with the worker's status (an exit code, or the same signal), which the auditor reports.
    unreaped.append(worker)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    status = None
    while status is None:
        try:
            pid, code = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        if pid == worker:
            status = code
            unreaped.remove(worker)
    kill_descendants()
    if status is not None and os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            signal.signal(number, signal.SIG_DFL)
            os.kill(os.getpid(), number)
        except (OSError, ValueError):
            pass
        os._exit(128 + number)
    os._exit(os.WEXITSTATUS(status) if status is not None and os.WIFEXITED(status) else 1)


def _serve(target, ready_token):
    import fcntl, importlib, importlib.util, inspect, json, os, sys

    # The channel (fd 1 at start) moves to a high, random descriptor; fd 0 reads /dev/null and fd 1 is
    # stderr, so the audited code's input() and prints never touch it.
    soft = 1024
    try:
        import resource
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        pass
    top = min(soft if soft > 0 else 1024, 1024)
    low = max(10, top // 2)
    base = low + int.from_bytes(os.urandom(2), "big") % max(1, top - low - 1) if top > 11 else 3
    channel = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, base)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    requests = open(channel, "rb", closefd=False)

    def send(token, obj):
        data = token.encode() + b" " + json.dumps(obj).encode() + b"\n"
        while data:
            data = data[os.write(channel, data):]

    def text(thing, limit=300):
        try:
            return str(thing)[:limit]
        except BaseException:
            return "(unprintable)"

    def short(exc):
        lines = text(exc, 2000).strip().splitlines()
        return text(type(exc).__name__, 100) + (": " + lines[0][:300] if lines else "")

    module_name, _, function_name = target.rpartition(":")
    try:
        if module_name.endswith(".py") or "/" in module_name or os.sep in module_name:
            path = os.path.abspath(module_name)
            sys.path.insert(0, os.path.dirname(path))
            name = os.path.splitext(os.path.basename(path))[0]
            if name == "__main__":  # as `import package.__main__` names it: its main block must not run
                name = os.path.basename(os.path.dirname(path)) + ".__main__"
            spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(spec)
            if name not in sys.modules:  # registered as `import name` would (unless that name is taken)
                sys.modules[name] = module
            spec.loader.exec_module(module)
        else:
            module = importlib.import_module(module_name)
    except SystemExit as exc:
        send(ready_token, {"load_error": "importing %s called sys.exit(%s)" % (module_name, text(repr(exc.code), 100))})
        return
    except BaseException as exc:
        where = ""
        if isinstance(exc, SyntaxError) and exc.lineno:
            where = " (%s line %s)" % (exc.filename, exc.lineno)
        send(ready_token, {"load_error": "cannot import %s: %s%s" % (module_name, short(exc), where)})
        return
    function = getattr(module, function_name, None)
    if not callable(function):
        send(ready_token, {"load_error": "%s has no function %s" % (module_name, function_name)})
        return
    try:
        names = set(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        names = set()
    send(ready_token, {"ready": True})
    for line in requests:
        request = json.loads(line)
        token, kwargs = request["token"], request["kwargs"]
        try:
            if set(kwargs) <= names:
                result = function(**kwargs)
            else:
                result = function(*[kwargs[name] for name in request["order"]])
        except SystemExit as exc:
            send(token, {"exit": text(repr(exc.code), 100)}); continue
        except MemoryError:
            send(token, {"raised": "MemoryError: out of memory (limit %s MB)" % request["memory_mb"]}); continue
        except BaseException as exc:
            send(token, {"raised": short(exc)}); continue
        if isinstance(result, (bool, str, bytes)) or result is None:
            send(token, {"nonnumber": text(repr(result), 200)}); continue
        try:
            value = float(result)
        except BaseException:
            send(token, {"nonnumber": text(type(result).__name__, 100) + " " + text(repr(result), 200)}); continue
        send(token, {"value": value, "type": text(type(result).__name__, 100)})


globals().pop("_sandboxed")(globals().pop("_serve"), *globals().pop("CONFIG"))
'''


class LoadError(Exception):
    """The target could not be imported or has no such function (a usage error: exit 2)."""


@dataclass(frozen=True)
class CallOutcome:
    """What one call did: kind is "value", "raised", "exit" (sys.exit inside the function), "crash"
    (the process died, or broke the result protocol), "nonnumber" or "timeout"; `text` explains
    everything but "value"."""

    kind: str
    value: float | None = None
    text: str = ""
    seconds: float = 0.0


class _ProtocolViolation(Exception):
    """The child sent something that is not an answer of the protocol (the message says what)."""


def _printable(text: str, limit: int = _TEXT_CHARS) -> str:
    """Text the audited code controls, made safe to show on one line: control characters and line
    breaks become spaces, runs of spaces one, at most `limit` characters."""
    cleaned = "".join(ch if ch.isprintable() else " " for ch in text[: 4 * limit])
    return " ".join(cleaned.split())[:limit]


def _preview(line: bytes) -> str:
    return _printable(repr(line[:60]) + ("..." if len(line) > 60 else ""), 80)


# The answers the child may send (every key required, no other): a key's value is checked by its test.
def _is_text(x: object) -> bool:
    return isinstance(x, str)


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


_SHAPES: dict[str, dict[str, Any]] = {
    "ready": {"ready": lambda x: x is True},
    "load_error": {"load_error": _is_text},
    "value": {"value": _is_number, "type": _is_text},
    "exit": {"exit": _is_text},
    "nonnumber": {"nonnumber": _is_text},
    "raised": {"raised": _is_text},
}


def _validated(line: bytes, token: str, expected: Sequence[str]) -> tuple[str, dict[str, Any]]:
    """(kind, message) for one line from the child, which must be `token`, a space and a JSON object of
    one of the `expected` shapes; raises `_ProtocolViolation` saying what is wrong otherwise."""
    prefix = token.encode() + b" "
    if not line.startswith(prefix):
        raise _ProtocolViolation(f"a message without this call's token: {_preview(line)}")
    body = line[len(prefix):]
    try:
        message = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise _ProtocolViolation(f"a message that is not valid UTF-8: {_preview(body)}") from None
    except (ValueError, RecursionError):
        raise _ProtocolViolation(f"a message that is not JSON: {_preview(body)}") from None
    if isinstance(message, dict):
        for kind in expected:
            shape = _SHAPES[kind]
            if set(message) == set(shape) and all(check(message[key]) for key, check in shape.items()):
                if kind == "value":
                    try:
                        message["value"] = float(message["value"])
                    except OverflowError:
                        raise _ProtocolViolation(f"a value too large for a float: {_preview(body)}") from None
                return kind, message
    raise _ProtocolViolation(f"an unexpected message: {_preview(body)}")


@contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) until the block is done, then deliver it: starting or killing the child must
    not be cut in half, or a process could outlive the audit. Main thread only (elsewhere Python runs
    no signal handlers, so nothing can interrupt the block)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    try:
        previous = signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    except (ValueError, OSError):  # not the main interpreter
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)
        if held and previous is not signal.SIG_IGN:
            if callable(previous):
                previous(signal.SIGINT, None)
            else:
                raise KeyboardInterrupt


def _resource_limits(memory_mb: int, cpu_seconds: int, file_mb: int) -> list[tuple[str, int]]:
    return [("RLIMIT_AS", memory_mb << 20), ("RLIMIT_CPU", cpu_seconds), ("RLIMIT_FSIZE", file_mb << 20), ("RLIMIT_CORE", 0)]


class Sandbox:
    """A child process that imports `target` ("MODULE:FUNCTION" or "path/file.py:FUNCTION") and calls
    the function on request (see the module docstring for what is isolated and what is not). Use as a
    context manager; `call` never raises for what the function does. Use it from the thread that
    created it: Linux sends the parent-death signal when the thread that started the child ends."""

    def __init__(
        self,
        target: str,
        *,
        time_limit: float = DEFAULT_TIME_LIMIT,
        memory_mb: int = DEFAULT_MEMORY_MB,
        cpu_seconds: int = DEFAULT_CPU_SECONDS,
        file_mb: int = DEFAULT_FILE_MB,
        cwd: str | None = None,
    ) -> None:
        if not (isinstance(time_limit, (int, float)) and 0 < time_limit <= MAX_TIME_LIMIT):
            raise ValueError(f"time_limit = {time_limit!r} is out of range: expected seconds in (0, {MAX_TIME_LIMIT:g}]")
        if not (isinstance(memory_mb, int) and 64 <= memory_mb <= 1 << 20):
            raise ValueError(f"memory_mb = {memory_mb!r} is out of range: expected an integer in [64, 1048576]")
        if not (isinstance(cpu_seconds, int) and not isinstance(cpu_seconds, bool) and 1 <= cpu_seconds <= 10**7):
            raise ValueError(f"cpu_seconds = {cpu_seconds!r} is out of range: expected an integer in [1, 10000000]")
        if not (isinstance(file_mb, int) and not isinstance(file_mb, bool) and 1 <= file_mb <= 1 << 20):
            raise ValueError(f"file_mb = {file_mb!r} is out of range: expected an integer in [1, 1048576]")
        self.target = target
        self.time_limit = float(time_limit)
        self.memory_mb = memory_mb
        self.cpu_seconds = cpu_seconds
        self.file_mb = file_mb
        self.cwd = cwd or os.getcwd()
        self._process: subprocess.Popen[bytes] | None = None
        self._stderr: Any = None
        self._channel: socket.socket | None = None
        self._buffer = b""
        self._broken = ""  # why the child cannot be restarted (every later call is then a crash)
        self.starts = 0

    # -- process management -------------------------------------------------------------------

    def _start(self, startup_limit: float = STARTUP_LIMIT) -> None:
        self._stderr = tempfile.TemporaryFile()
        token = secrets.token_hex(16)
        config = (self.target, token, _resource_limits(self.memory_mb, self.cpu_seconds, self.file_mb))
        program = f"CONFIG = {config!r}\n" + _CHILD
        ours, theirs = socket.socketpair()
        try:
            with _interrupts_deferred():
                try:
                    self._process = subprocess.Popen(
                        [sys.executable, "-"],
                        stdin=subprocess.PIPE,
                        stdout=theirs.fileno(),
                        stderr=self._stderr,
                        cwd=self.cwd,
                        start_new_session=True,
                    )
                finally:
                    theirs.close()
                self._channel = ours
            self._buffer = b""
            self.starts += 1
            stdin = self._process.stdin
            if stdin is None:  # Popen(stdin=PIPE) always opens it
                raise RuntimeError("sandbox: no pipe to the child's stdin")
            with contextlib.suppress(OSError):  # a child that died at once is reported below
                stdin.write(program.encode())
            with contextlib.suppress(OSError):
                stdin.close()
            try:
                kind, answer = self._read(startup_limit, token, ("ready", "load_error"))
            except _ProtocolViolation as violation:
                raise LoadError(f"importing {self.target} wrote to the auditor's result channel ({violation})") from None
            if kind == "load_error":
                raise LoadError(_printable(answer["load_error"], 2 * _TEXT_CHARS))
            if kind == "eof":
                raise LoadError(self._death_text("while importing"))
            if kind == "timeout":
                raise LoadError(f"importing {self.target} took more than {startup_limit:g} s")
        except BaseException:
            if self._channel is not ours:
                ours.close()
            self.close()
            raise

    def _read(self, limit: float, token: str, expected: Sequence[str]) -> tuple[str, dict[str, Any]]:
        """The next message from the child as (kind, message); kind "timeout" when none came within
        `limit` seconds, "eof" when the child is gone. Raises `_ProtocolViolation` for anything else."""
        if self._channel is None or self._process is None:
            raise RuntimeError("sandbox: the child process is not running")
        deadline = time.monotonic() + limit
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_MESSAGE_BYTES:
                raise _ProtocolViolation(f"a message longer than {MAX_MESSAGE_BYTES} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                return "timeout", {}
            # Wake up now and then: descendants of a dead worker may hold the channel open (no end of
            # file), but the supervisor's exit says the worker is gone.
            ready, _, _ = select.select([self._channel], [], [], min(left, 0.5))
            if not ready:
                if self._has_exited(self._process):
                    return "eof", {}
                continue
            try:
                chunk = self._channel.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                return "eof", {}
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        if len(line) > MAX_MESSAGE_BYTES:
            raise _ProtocolViolation(f"a message longer than {MAX_MESSAGE_BYTES} bytes")
        kind, message = _validated(line, token, expected)
        if self._buffer:
            raise _ProtocolViolation(f"more than one message for one call: {_preview(self._buffer)}")
        return kind, message

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0, os.SEEK_END)
        size = self._stderr.tell()
        self._stderr.seek(max(0, size - _STDERR_TAIL))
        lines = [line for line in self._stderr.read().decode("utf-8", "replace").splitlines() if line.strip()]
        return _printable(lines[-1]) if lines else ""

    @staticmethod
    def _has_exited(process: subprocess.Popen[bytes]) -> bool:
        """Whether the supervisor has exited, WITHOUT reaping it: while it is an unreaped zombie its id
        (which is also the session's process-group id) cannot be reused, so killing that group later
        reaches only what the audited code left in it."""
        if process.returncode is not None:
            return True
        try:
            return os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
        except ChildProcessError:
            return True
        except (AttributeError, OSError):  # no waitid: reaping is the only way to ask
            return process.poll() is not None

    def _wait_exited(self, process: subprocess.Popen[bytes], seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while not self._has_exited(process):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True

    def _terminate(self, process: subprocess.Popen[bytes]) -> int:
        """Kill the child and every descendant; returns the supervisor's exit status (the worker's,
        relayed, when the worker died on its own)."""
        with _interrupts_deferred():
            if process.returncode is not None:
                return process.returncode
            if not self._has_exited(process):
                # The supervisor kills and reaps every descendant, then exits.
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(process.pid, signal.SIGTERM)
                self._wait_exited(process, CLEANUP_GRACE)
            # Then whatever is left in the session's process group (the supervisor is not reaped yet,
            # so the group id still names this group and nothing else).
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            return process.wait()

    def _death_text(self, when: str) -> str:
        """Why the child stopped answering (it is killed, with its descendants, if it is still alive)."""
        if self._process is None:
            raise RuntimeError("the audited child process is not running")
        exited = self._wait_exited(self._process, CLEANUP_GRACE)
        code = self._terminate(self._process)
        if not exited:
            return f"the process closed the auditor's result channel {when} without exiting (it was killed)"
        if code < 0:
            try:
                how = f"killed by signal {signal.Signals(-code).name}"
            except ValueError:
                how = f"killed by signal {-code}"
        else:
            how = f"exit status {code}"
        tail = self._stderr_tail()
        return f"the process died {when} ({how})" + (f": {tail}" if tail else "")

    def close(self) -> None:
        """Kill the child and every descendant (see the module docstring) and release the channel."""
        with _interrupts_deferred():
            process, self._process = self._process, None
            if process is not None:
                self._terminate(process)
                if process.stdin is not None:
                    with contextlib.suppress(OSError):
                        process.stdin.close()
            if self._channel is not None:
                self._channel.close()
                self._channel = None
            if self._stderr is not None:
                self._stderr.close()
                self._stderr = None
            self._buffer = b""

    def __enter__(self) -> Sandbox:
        self._start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- calls --------------------------------------------------------------------------------

    def call(self, kwargs: Mapping[str, Any], order: Sequence[str], *, time_limit: float | None = None) -> CallOutcome:
        """Call the function with `kwargs` (by keyword when its parameters have those names, else
        positionally in `order`) within the time limit. Whatever the child does, the result is an
        outcome: a dead child is restarted first; one that cannot be restarted makes every later call
        a "crash" saying why."""
        limit = self.time_limit if time_limit is None else max(0.001, min(time_limit, self.time_limit))
        if self._broken:
            return CallOutcome("crash", text=self._broken)
        if self._process is None or self._has_exited(self._process):
            self.close()
            try:
                self._start(STARTUP_LIMIT if time_limit is None else min(STARTUP_LIMIT, max(time_limit, 0.001)))
            except LoadError as failure:
                self._broken = _printable(f"the process could not be restarted: {failure}", 2 * _TEXT_CHARS)
                return CallOutcome("crash", text=self._broken)
        if self._process is None or self._channel is None:  # `_start` always sets them (or raises)
            raise RuntimeError("sandbox: no child process after start")
        token = secrets.token_hex(16)
        start = time.monotonic()
        try:
            self._channel.sendall(json.dumps({"token": token, "kwargs": dict(kwargs), "order": list(order), "memory_mb": self.memory_mb}).encode() + b"\n")
        except OSError:
            text = self._death_text("before the call")
            self.close()
            return CallOutcome("crash", text=text)
        try:
            kind, answer = self._read(limit, token, ("value", "exit", "nonnumber", "raised"))
        except _ProtocolViolation as violation:
            self.close()
            return CallOutcome("crash", text=f"wrote {violation} to the auditor's result channel (the process was killed)", seconds=time.monotonic() - start)
        seconds = time.monotonic() - start
        if kind == "timeout":
            self.close()
            return CallOutcome("timeout", text=f"no answer within {limit:g} s (the process was killed)", seconds=seconds)
        if kind == "eof":
            text = self._death_text("during the call")
            self.close()
            return CallOutcome("crash", text=text, seconds=seconds)
        if kind == "value":
            return CallOutcome("value", value=answer["value"], text=_printable(answer["type"], 100), seconds=seconds)
        if kind == "exit":
            return CallOutcome("exit", text=f"the function called sys.exit({_printable(answer['exit'], 100)})", seconds=seconds)
        if kind == "nonnumber":
            return CallOutcome("nonnumber", text=f"returned {_printable(answer['nonnumber'])}", seconds=seconds)
        return CallOutcome("raised", text=_printable(answer["raised"]), seconds=seconds)


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
def in_process_cpu_limit(seconds: float) -> Iterator[None]:
    """Abort a trusted in-process computation after `seconds` of this process's CPU time (SIGPROF: main thread only,
    and only where no other CPU timer runs; elsewhere it runs unlimited). CPU time, not wall time, so that whether it
    finishes does not depend on the machine's load (the audit registry's verdicts must not)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGPROF") or signal.getitimer(signal.ITIMER_PROF)[0] > 0:
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        if importing(frame):  # not inside an import (`limits.importing`): once it has finished
            signal.setitimer(signal.ITIMER_PROF, IMPORT_DEFERRAL)
            return
        raise TimeLimitInterrupt("over the CPU limit")  # a BaseException in the block: no `except Exception` swallows it

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, max(seconds, 0.001))
    try:
        yield
    except TimeLimitInterrupt:
        raise InProcessTimeout() from None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def in_process_time_limit(seconds: float) -> ContextManager[None]:
    """Abort a trusted in-process computation after `seconds` of wall time with InProcessTimeout (the interface's
    one wall-clock limit, `interface.limits.time_limit`: SIGALRM, main thread only, elsewhere unlimited). It nests:
    an enclosing limit (a command's `--time-budget`) that expires first still fires, here (as InProcessTimeout: the
    caller drops this computation) and again just after the block, where the enclosing one ends its own (an
    earlier version replaced the process's timer and disarmed it on the way out). The limit itself, not a generator
    around it: an expiry between such a generator's yield and the caller's block escaped as TimeLimitInterrupt.
    Untrusted code never runs in process: use `Sandbox`."""
    return time_limit(max(seconds, 0.001), exceeded=InProcessTimeout)
