"""The audit sandbox (`interface/audit/sandbox.py`) against audited code that misbehaves on purpose or by
accident: malformed messages on the result channel, prints that imitate a result, processes that outlive
the audit (a `fork()` + `setsid()` grandchild, a double-forked daemon), signs that would tell the code it
is being audited, resource limits, and Ctrl-C (one line, exit 130, no process left behind).

Every stand-in finds the result channel the way hostile code would, without knowing the protocol: it
writes to every open descriptor above stderr (`/proc/self/fd`, Linux only).
"""

from __future__ import annotations

import json
import math
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from support import statements as fx
from shuffle_spec.interface.audit.bound import audit_bound
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.audit.sandbox import CallOutcome, Sandbox, _ProtocolViolation, _validated
from shuffle_spec.interface.vectors.files import generate_group
from shuffle_spec.interface.audit.verdicts import BELOW_BOUND, CRASH, NON_NUMBER, PASS, judge
from support.paths import child_environment

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="the stand-ins and the process checks read /proc (Linux)")

POINT = {"eps0": 0.25, "n": 10_000, "delta": 1e-6}
ORDER = ["eps0", "n", "delta"]
# The V1 test statement's value at POINT: 12 eps0 sqrt(log(1/delta)/n) (`support.statements.V1`).
V1_AT_POINT = 12 * 0.25 * math.sqrt(math.log(1 / 1e-6) / 10_000)


@pytest.fixture
def v1(monkeypatch):
    """The V1 test statement alone in the registry (fast; no truth computed at n >= 1000)."""
    fx.install(monkeypatch)


BROADCAST = """
    import json, os, sys, time

    def broadcast(payload):
        # Wherever the result channel is: every descriptor above stderr that takes a write.
        for name in os.listdir("/proc/self/fd"):
            if int(name) > 2:
                try:
                    os.write(int(name), payload)
                except OSError:
                    pass
"""


def _write(directory: Path, name: str, source: str) -> Path:
    path = directory / name
    path.write_text(textwrap.dedent(source))
    return path


def _alive(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie is dead: it only waits to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def _gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while _alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _kill_quietly(pid: int) -> None:
    """Test cleanup: a process that should not exist any more must not stay around for 300 s either."""
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _session_members(sid: int) -> list[int]:
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[3]) == sid and fields[0] != "Z":
                members.append(int(entry.name))
    return members


def _wait_for(path: Path, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not (path.exists() and path.read_text().strip()):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


# -- malformed messages on the result channel ------------------------------------------------------

PAYLOADS = {
    "a list": b"[1]\n",
    "a string value": b'{"value":"abc"}\n',
    "a NaN string": b'{"value":"NaN"}\n',
    "a nested object": b'{"value":{"value":1.0}}\n',
    "a bool": b'{"value":true}\n',
    "an extra key": b'{"value":0.5,"type":"float","x":1}\n',
    "a huge string": b'{"raised":"' + b"x" * 3_000_000 + b'"}\n',
    "invalid UTF-8": b"\xff\xfe\xfd\n",
    "deep nesting": b"[" * 100_000 + b"]" * 100_000 + b"\n",
    "many result-like lines": b'{"value":0.5,"type":"float"}\n' * 5000,
}


def test_a_malformed_message_is_a_crash_of_that_call_not_of_the_auditor(tmp_path):
    # Call i writes payload i (a counter file survives the restarts); the call after the last is honest.
    # (Each costs a restart; the other payloads' shapes are checked in process below.)
    counter = tmp_path / "calls"
    names = sorted(set(PAYLOADS) - {"a bool", "an extra key", "deep nesting"})
    path = _write(tmp_path, "hostile.py", BROADCAST + f"""
    PAYLOADS = {[PAYLOADS[name] for name in names]!r}

    def f(eps0, n, delta):
        done = len(open({str(counter)!r}).read()) if os.path.exists({str(counter)!r}) else 0
        with open({str(counter)!r}, "a") as out:
            out.write("x")
        if done < len(PAYLOADS):
            broadcast(PAYLOADS[done])
        return 0.3
    """)
    with Sandbox(f"{path}:f", time_limit=5) as sandbox:
        outcomes = {name: sandbox.call(POINT, ORDER) for name in names}
        last = sandbox.call(POINT, ORDER)
    for name, outcome in outcomes.items():
        assert outcome.kind == "crash" and "result channel" in outcome.text, (name, outcome)
        assert len(outcome.text) < 500, name
    assert last.kind == "value" and last.value == 0.3  # the sandbox still works after all of them
    assert sandbox.starts == len(names) + 1


ANSWERS = ("value", "exit", "nonnumber", "raised")


@pytest.mark.parametrize("payload", sorted(set(PAYLOADS) - {"a huge string", "many result-like lines"}))
def test_a_message_with_the_right_token_is_still_checked_field_by_field(payload):
    # Code that found the call's token (it can, by inspecting its caller's frame) still cannot get a
    # malformed answer past the auditor: each message is checked against the protocol's exact shapes.
    token = "0123abcd"
    line = PAYLOADS[payload].split(b"\n")[0]
    with pytest.raises(_ProtocolViolation):
        _validated(token.encode() + b" " + line, token, ANSWERS)


@pytest.mark.parametrize(
    "sent, fragment",
    [(b'0123abcd {"raised": "' + b"x" * 70_000 + b'"}\n', "longer than"), (b'0123abcd {"value": 0.5, "type": "float"}\n' * 3, "more than one message")],
)
def test_a_long_message_or_a_second_one_with_the_right_token_is_refused(monkeypatch, sent, fragment):
    # The reading side: at most MAX_MESSAGE_BYTES per message and one message per call, whatever they say.
    sandbox = Sandbox("unused:f")
    ours, theirs = socket.socketpair()
    monkeypatch.setattr(Sandbox, "_has_exited", staticmethod(lambda process: False))
    sandbox._process, sandbox._channel = object(), ours  # type: ignore[assignment]
    try:
        theirs.sendall(sent)
        with pytest.raises(_ProtocolViolation, match=fragment):
            sandbox._read(5.0, "0123abcd", ANSWERS)
    finally:
        ours.close()
        theirs.close()


def test_the_protocol_accepts_exactly_its_answers():
    token, answers = "beef", ("value", "exit", "nonnumber", "raised")
    assert _validated(b'beef {"value": 0.25, "type": "float"}', token, answers) == ("value", {"value": 0.25, "type": "float"})
    kind, message = _validated(b'beef {"value": NaN, "type": "float64"}', token, answers)
    assert kind == "value" and message["value"] != message["value"]  # nan: judged as a refusal or NON-NUMBER
    assert _validated(b'beef {"raised": "ValueError: no"}', token, answers)[0] == "raised"
    assert _validated(b'beef {"value": 1e999, "type": "float"}', token, answers)[1]["value"] == float("inf")  # JSON's overflow: inf, a float
    for bad in (b'beef {"value": 1' + b"0" * 400 + b', "type": "float"}', b'beef {"ready": true}',
                b'beef {"raised": 3}', b'beef {"exit": "0", "raised": "x"}', b'bee {"value": 0.25, "type": "float"}', b'{"value": 0.25, "type": "float"}'):
        with pytest.raises(_ProtocolViolation):
            _validated(bad, token, answers)


def test_a_line_without_end_is_cut_off_and_the_process_killed(tmp_path):
    # 1 GB without a newline, written 1 MB at a time: the auditor must stop reading long before, and the
    # verdict is about the message, not a timeout.
    path = _write(tmp_path, "flood.py", BROADCAST + """
    def f(eps0, n, delta):
        chunk = b"7" * (1 << 20)
        for _ in range(1024):
            broadcast(chunk)
        return 0.3
    """)
    with Sandbox(f"{path}:f", time_limit=20) as sandbox:
        outcome = sandbox.call(POINT, ORDER)
    assert outcome.kind == "crash" and "result channel" in outcome.text, outcome


def test_exit_zero_without_an_answer_is_a_crash(tmp_path):
    path = _write(tmp_path, "quiet.py", "import os\n\ndef f(eps0, n, delta):\n    os._exit(0)\n")
    with Sandbox(f"{path}:f", time_limit=5) as sandbox:
        outcome = sandbox.call(POINT, ORDER)
    assert outcome.kind == "crash" and "exit status 0" in outcome.text, outcome


@pytest.mark.parametrize("payload", ["a list", "a string value"])
def test_the_cli_reports_a_crash_verdict_not_an_internal_error(v1, tmp_path, capsys, payload):
    marker = tmp_path / "written"
    path = _write(tmp_path, "hostile.py", BROADCAST + f"""
    def f(eps0, n, delta):
        if not os.path.exists({str(marker)!r}):  # at the first call only (each costs a restart)
            open({str(marker)!r}, "w").close()
            broadcast({PAYLOADS[payload]!r})
        return 12 * eps0 * (__import__("math").log(1 / delta) / n) ** 0.5
    """)
    code = main(["audit", "bound", f"{path}:f", "--id", fx.V1.id, "--time-limit", "5"])
    captured = capsys.readouterr()
    assert code == 1, captured.err
    assert "internal error" not in captured.err and CRASH in captured.out and "result channel" in captured.out


def test_a_module_that_cannot_be_imported_again_is_a_crash_verdict(tmp_path):
    # The first call kills the process; the restart's import fails: a verdict on the code, not an error.
    marker = tmp_path / "imported"
    path = _write(tmp_path, "once.py", f"""
    import os
    if os.path.exists({str(marker)!r}):
        raise ImportError("refusing a second import")
    open({str(marker)!r}, "w").close()

    def f(eps0, n, delta):
        os._exit(3)
    """)
    with Sandbox(f"{path}:f", time_limit=5) as sandbox:
        first = sandbox.call(POINT, ORDER)
        second = sandbox.call(POINT, ORDER)
        third = sandbox.call(POINT, ORDER)
    assert first.kind == "crash" and "exit status 3" in first.text
    assert second.kind == third.kind == "crash" and "refusing a second import" in second.text, second
    assert "refusing a second import" in third.text


def test_a_verdict_from_an_outcome_without_a_float_is_never_a_pass(v1):
    # Whatever reaches the judge (a caller's own outcome, a future outcome kind) is held to the worst.
    for outcome, verdict in ((CallOutcome("value", "abc"), NON_NUMBER), (CallOutcome("value", True), NON_NUMBER), (CallOutcome("value", None), NON_NUMBER), (CallOutcome("garbled", 0.1), CRASH)):
        finding = judge(fx.V1, POINT, outcome, inside=True, expected=repr(V1_AT_POINT), interval=[repr(V1_AT_POINT * 0.99), repr(V1_AT_POINT * 1.01)], check_truth=False)
        assert (finding.verdict, finding.severity) == (verdict, "failure"), (outcome, finding)


# -- prints cannot forge a result ----------------------------------------------------------------

FORGER = """
    import json, os, sys

    FAKE = json.dumps({"value": %r, "type": "float"})

    def prints_then_text(eps0, n, delta):
        print(FAKE)
        sys.stdout.flush()
        os.write(1, (FAKE + "\\n").encode())
        for prefix in ("", "0 ", "ok ", "1 2 "):
            print(prefix + FAKE, flush=True)
        return "0.1"

    def prints_then_zero(eps0, n, delta):
        print(FAKE, flush=True)
        os.write(1, (FAKE + "\\n").encode())
        return 0.0
""" % V1_AT_POINT


def test_printing_a_well_formed_result_does_not_change_the_verdict(v1, tmp_path):
    path = _write(tmp_path, "forger.py", FORGER)
    group = generate_group(fx.V1)
    one = {**group, "tests": [t for t in group["tests"] if t["result"] == "valid" and t["inputs"] == POINT]}
    assert len(one["tests"]) == 1
    text = audit_bound(f"{path}:prints_then_text", fx.V1.id, vectors=one, time_limit=5, quiet=True)
    zero = audit_bound(f"{path}:prints_then_zero", fx.V1.id, vectors=one, time_limit=5, quiet=True)
    assert [f.verdict for f in text.findings] == [NON_NUMBER]
    assert [f.verdict for f in zero.findings] == [BELOW_BOUND] and zero.findings[0].got == 0.0
    # and the honest formula at the same point passes (the forged value is the right one)
    honest = _write(tmp_path, "honest.py", "import math\n\ndef f(eps0, n, delta):\n    return 12 * eps0 * math.sqrt(math.log(1 / delta) / n)\n")
    assert [f.verdict for f in audit_bound(f"{honest}:f", fx.V1.id, vectors=one, time_limit=5, quiet=True).findings] == [PASS]


# -- processes that outlive the audit ------------------------------------------------------------

FORKER = """
    import os, time

    PIDS = {pids!r}

    def _sleeper():
        with open(PIDS + ".tmp", "w") as out:
            out.write(str(os.getpid()))
        os.rename(PIDS + ".tmp", PIDS)
        time.sleep(300)

    def setsid_grandchild(eps0, n, delta):
        if not os.path.exists(PIDS):
            if os.fork() == 0:
                os.setsid()
                _sleeper()
                os._exit(0)
            while not os.path.exists(PIDS):
                time.sleep(0.01)
        return 12 * eps0 * (__import__("math").log(1 / delta) / n) ** 0.5

    def daemon(eps0, n, delta):
        if not os.path.exists(PIDS):
            middle = os.fork()
            if middle == 0:
                os.setsid()
                if os.fork() == 0:
                    _sleeper()
                os._exit(0)
            os.waitpid(middle, 0)
            while not os.path.exists(PIDS):
                time.sleep(0.01)
        return 12 * eps0 * (__import__("math").log(1 / delta) / n) ** 0.5
"""


@pytest.mark.parametrize("how", ["setsid_grandchild", "daemon"])
def test_no_descendant_outlives_the_audit(v1, tmp_path, how):
    pids = tmp_path / "pids"
    path = _write(tmp_path, "forker.py", FORKER.format(pids=str(pids)))
    group = generate_group(fx.V1)
    two = {**group, "tests": [t for t in group["tests"] if t["result"] == "valid"][:2]}
    report = audit_bound(f"{path}:{how}", fx.V1.id, vectors=two, time_limit=10, quiet=True)
    sleeper = int(pids.read_text())
    try:
        assert [f.verdict for f in report.findings] == [PASS, PASS]
        assert _gone_within(sleeper, 1.0), f"the audited code's descendant {sleeper} survived the audit"
    finally:
        _kill_quietly(sleeper)


def test_a_timeout_kills_the_descendants_too(tmp_path):
    pids = tmp_path / "pids"
    path = _write(tmp_path, "forker.py", FORKER.format(pids=str(pids)) + """
    def forks_then_hangs(eps0, n, delta):
        setsid_grandchild(eps0, n, delta)
        time.sleep(60)
    """)
    with Sandbox(f"{path}:forks_then_hangs", time_limit=0.5) as sandbox:
        outcome = sandbox.call(POINT, ORDER)
        sleeper = int(pids.read_text())
        try:
            assert outcome.kind == "timeout"
            assert _gone_within(sleeper, 1.0), "a descendant survived the timeout's kill"
        finally:
            _kill_quietly(sleeper)


# -- resource limits -------------------------------------------------------------------------------

def test_the_child_runs_under_resource_limits(tmp_path):
    seen = tmp_path / "limits.json"
    path = _write(tmp_path, "limits.py", f"""
    import json, resource

    def f(eps0, n, delta):
        names = ("RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_CORE")
        with open({str(seen)!r}, "w") as out:
            json.dump({{name: resource.getrlimit(getattr(resource, name)) for name in names}}, out)
        return 0.5

    def big_file(eps0, n, delta):
        with open({str(tmp_path / "big")!r}, "wb") as out:
            out.write(b"x" * (3 << 20))
        return 0.5
    """)
    with Sandbox(f"{path}:f", time_limit=5, memory_mb=2048, cpu_seconds=100, file_mb=2) as sandbox:
        assert sandbox.call(POINT, ORDER).kind == "value"
    limits = json.loads(seen.read_text())
    assert limits["RLIMIT_AS"] == [2048 << 20] * 2
    assert limits["RLIMIT_CPU"] == [100, 100]
    assert limits["RLIMIT_FSIZE"] == [2 << 20] * 2
    assert limits["RLIMIT_CORE"] == [0, 0]  # a crash leaves no core file in the user's directory
    with Sandbox(f"{path}:big_file", time_limit=5, file_mb=2) as sandbox:
        outcome = sandbox.call(POINT, ORDER)
    assert outcome.kind == "raised" and "File too large" in outcome.text, outcome
    assert (tmp_path / "big").stat().st_size <= 2 << 20


# -- signs of being audited ------------------------------------------------------------------------

def test_the_audited_module_cannot_easily_tell_it_is_audited(tmp_path):
    seen = tmp_path / "seen.json"
    path = _write(tmp_path, "natural_name.py", f"""
    import json, os, sys

    def f(eps0, n, delta):
        main = sys.modules["__main__"]
        fds = sorted(int(name) for name in os.listdir("/proc/self/fd"))
        low_fds = [fd for fd in fds if 3 <= fd < 10 and os.path.exists("/proc/self/fd/%d" % fd)]
        with open("/proc/self/cmdline", "rb") as cmdline:
            command = cmdline.read().split(b"\\0")
        with open({str(seen)!r}, "w") as out:
            json.dump({{
                "name": __name__,
                "registered": getattr(sys.modules.get("natural_name"), "f", None) is f,
                "argv": sys.argv,
                "environ": dict(os.environ),
                "main_globals": sorted(k for k in vars(main) if not k.startswith("__")),
                "low_fds": low_fds,
                "cmdline": [part.decode("utf-8", "replace") for part in command if part],
                "path0": sys.path[0],
            }}, out)
        return 0.5
    """)
    with Sandbox(f"{path}:f", time_limit=5) as sandbox:
        assert sandbox.call(POINT, ORDER).kind == "value"
    seen_by_it = json.loads(seen.read_text())
    assert seen_by_it["name"] == "natural_name" and seen_by_it["registered"]
    assert len(seen_by_it["argv"]) == 1 and "natural_name" not in seen_by_it["argv"][0]
    # The environment any program started from here gets (C-level changes such as readline's LINES and
    # COLUMNS included, which `os.environ` does not show): nothing added, nothing removed.
    plain = subprocess.run([sys.executable, "-c", "import json, os; print(json.dumps(dict(os.environ)))"], capture_output=True, timeout=60, check=True)
    assert seen_by_it["environ"] == json.loads(plain.stdout)
    assert seen_by_it["main_globals"] == []
    assert seen_by_it["low_fds"] == []
    assert len(seen_by_it["cmdline"]) <= 2 and not any("import" in part or "audit" in part for part in seen_by_it["cmdline"])
    assert seen_by_it["path0"] == str(tmp_path)


# -- Ctrl-C -----------------------------------------------------------------------------------------

def _env() -> dict[str, str]:
    return child_environment()


def _interrupt(process: subprocess.Popen[bytes]) -> tuple[int, str]:
    """Ctrl-C as a terminal sends it: SIGINT to the whole foreground process group."""
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    return process.returncode, err.decode()


def test_ctrl_c_on_a_long_command_is_one_line_and_exit_130(tmp_path):
    # The console script's two lines, plus a marker just before `main` starts (`check` runs for minutes).
    started = tmp_path / "started"
    driver = (
        "import sys\n"
        "from shuffle_spec.interface.cli.main import main\n"
        f"open({str(started)!r}, 'w').write('1')\n"
        "sys.argv = ['shuffle-spec', 'check']\n"
        "sys.exit(main())\n"
    )
    process = subprocess.Popen([sys.executable, "-c", driver], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env(), start_new_session=True)
    try:
        assert _wait_for(started, 60)
        time.sleep(0.5)  # inside the command's work
        code, err = _interrupt(process)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        # After a failed wait the pipe is still open: closed here, it cannot surface later as a ResourceWarning
        # (an error under `filterwarnings = error`) in whichever test the garbage collector happens to run.
        process.stderr.close()
    assert code == 130 and err.splitlines() == ["shuffle-spec check: interrupted"], err[-2000:]
    assert _session_members(process.pid) == []


def test_ctrl_c_during_an_audit_kills_the_audited_process_tree(tmp_path):
    pids = tmp_path / "pids"
    path = _write(tmp_path, "slow.py", FORKER.format(pids=str(pids)) + """
    def slow(eps0, n, delta):
        setsid_grandchild(eps0, n, delta)
        with open(PIDS + ".worker.tmp", "w") as out:
            out.write(str(os.getpid()))
        os.rename(PIDS + ".worker.tmp", PIDS + ".worker")
        time.sleep(60)
    """)
    process = subprocess.Popen(
        [sys.executable, "-m", "shuffle_spec", "audit", "bound", f"{path}:slow", "--id", "FMT21.Thm2.1", "--time-limit", "100"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env(), start_new_session=True, cwd=tmp_path,
    )
    worker_file = Path(str(pids) + ".worker")
    try:
        assert _wait_for(worker_file, 60), "the audited function was never called"
        code, err = _interrupt(process)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        # After a failed wait the pipe is still open: closed here, it cannot surface later as a ResourceWarning
        # (an error under `filterwarnings = error`) in whichever test the garbage collector happens to run.
        process.stderr.close()
    worker, sleeper = int(worker_file.read_text()), int(pids.read_text())
    try:
        assert code == 130 and err.splitlines() == ["shuffle-spec audit: interrupted"], err[-2000:]
        assert _gone_within(worker, 1.0) and _gone_within(sleeper, 1.0)
        assert _session_members(process.pid) == []
    finally:
        _kill_quietly(worker)
        _kill_quietly(sleeper)


def test_interrupted_default_report_and_command_are_one_line(monkeypatch, capsys):
    from shuffle_spec.interface.cli import report

    def interrupted() -> int:
        raise KeyboardInterrupt

    def run(argv: list[str]) -> int:
        try:
            return main(argv)
        except KeyboardInterrupt:  # not handled: a failure of this test, not an interrupted test run
            pytest.fail(f"KeyboardInterrupt escaped main({argv})")

    monkeypatch.setattr(report, "run_default_report", interrupted)
    assert run([]) == 130
    assert capsys.readouterr().err.splitlines() == ["shuffle-spec: interrupted"]
    monkeypatch.setattr("shuffle_spec.interface.cli.commands.list.run", lambda args: interrupted())
    assert run(["list"]) == 130
    assert capsys.readouterr().err.splitlines() == ["shuffle-spec list: interrupted"]


def test_an_in_process_time_limit_keeps_an_enclosing_one_armed() -> None:
    """`tightest --matrix ... --time-budget 1` runs each row of the matrix gap under `in_process_time_limit(60)`
    inside the command's one-second budget. That inner limit replaced the process's interval timer by its own 60 s
    and, on the way out, disarmed it: the command's budget no longer held. It must nest as `limits.time_limit` does:
    an enclosing limit that expires first still fires, inside the block or after it."""
    from shuffle_spec.interface.audit.sandbox import InProcessTimeout, in_process_time_limit
    from shuffle_spec.interface.limits import TimeLimitExceeded, time_limit

    start = time.monotonic()
    with pytest.raises(TimeLimitExceeded):
        with time_limit(0.3):
            with in_process_time_limit(60):
                pass
            time.sleep(5)  # the enclosing budget ends this
    with pytest.raises((TimeLimitExceeded, InProcessTimeout)):
        with time_limit(0.3):
            with in_process_time_limit(60):
                time.sleep(5)  # the enclosing budget, shorter, ends this too
            time.sleep(5)
    assert time.monotonic() - start < 4  # 10 s or more where the inner limit disarms the outer one


def test_an_in_process_cpu_limit_is_not_swallowed_by_the_code_it_interrupts() -> None:
    """As the wall-clock limit (test_contract): the CPU timer fires once, so an expiry that an `except Exception` in
    the limited code swallowed left the rest of the block unlimited."""
    import contextlib

    from shuffle_spec.interface.audit.sandbox import InProcessTimeout, in_process_cpu_limit

    def spin(seconds: float) -> None:
        end = time.process_time() + seconds
        while time.process_time() < end:
            pass

    if signal.getitimer(signal.ITIMER_PROF)[0] > 0:
        pytest.skip("another CPU timer runs in this process: the limit does not apply")
    start = time.process_time()
    with pytest.raises(InProcessTimeout):
        with in_process_cpu_limit(0.2):
            with contextlib.suppress(Exception):
                spin(1.0)  # the limit expires here
            spin(5.0)
    assert time.process_time() - start < 3
