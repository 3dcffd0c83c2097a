"""Fuzzing the files a user hands to the tool, and unit tests of the bounded reader behind them
(`interface/input_files.py`).

Surfaces: rounds files (`compose --rounds-file`), batch files and stdin (`eval --batch`), randomizer
files (`audit randomizer`, `tightest --matrix`), vector directories (`audit bound --vectors`,
`vectors check`), bound-function modules (`audit bound FILE.py:f`), and special files in each place:
a FIFO nobody writes to, a symbolic link to `/dev/zero`, a directory, a file one byte over the limit.

The contract is the one of `tests/interface/test_fuzz_commands.py`: a valid answer, or a one-line error with exit 2
(`vectors check` reports a problem and exits 1), within `PER_CALL_SECONDS` and, for the special files,
within `SPECIAL_MEMORY_BYTES` of address space; never a traceback, an "internal error" or a number
the statements do not certify. Special files that can hang (a FIFO) or grow without end (`/dev/zero`)
run in one child process with a `timeout=` and an address-space limit; everything else runs
in-process through `cli.main`. Byte limits are module constants, lowered here by `monkeypatch` so that
no test writes 64 MB.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.cli import PER_CALL_SECONDS, call, check_outcome

from shuffle_spec.interface import input_files
from shuffle_spec.interface.api import composed_epsilon
from shuffle_spec.proofs_checks.bridge import UsageError
from shuffle_spec.interface.limits import time_limit

from support.paths import child_environment
# Address space of the child that opens the special files: the commands need about 0.8 GB to import
# numpy and scipy; reading /dev/zero whole would pass this within a second.
SPECIAL_MEMORY_BYTES = 1536 * 2**20
# Wall time for the child answering every special-file case (a FIFO opened for reading blocks until a
# writer comes, which here is never: the timeout is how a hang shows).
SPECIAL_SECONDS = 120
POINT = {"eps0": 1, "n": 10000, "delta": 1e-6}

# Where a pair's composition certifies a statement's claim (`docs/composition.md`, "Which pair, which relation"): the
# clone pair dominates every eps0-LDP round, so it also bounds the k-RR rounds of compose.stronger_clones.
CERTIFYING_PAIRS = {
    "compose.clones": {"clones"},
    "compose.stronger_clones": {"stronger_clones", "clones"},
    "compose.exact_binary_rr": {"exact_binary_rr"},
}


def one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


# ---------------------------------------------------------------------------------------------------
# input_files: the bounded reader


def test_read_limited_returns_the_bytes_of_a_file_of_exactly_the_limit_and_refuses_one_more(tmp_path):
    path = tmp_path / "f.json"
    path.write_bytes(b"x" * 100)
    assert input_files.read_limited(path, what="--thing", limit=100) == b"x" * 100
    with pytest.raises(UsageError) as refused:
        input_files.read_limited(path, what="--thing", limit=99)
    message = str(refused.value)
    assert "--thing" in message and str(path) in message and "99 bytes" in message


def test_the_default_limit_is_read_when_the_call_is_made(tmp_path, monkeypatch):
    # Lowering the module constant must lower every default (tests and callers rely on it).
    path = tmp_path / "f.json"
    path.write_bytes(b"[1, 2, 3]")
    monkeypatch.setattr(input_files, "MAX_INPUT_BYTES", 8)
    with pytest.raises(UsageError, match="8 bytes"):
        input_files.read_limited(path, what="--thing")
    with pytest.raises(UsageError, match="8 bytes"):
        input_files.load_json_file(path, what="--thing")


def test_read_limited_reads_at_most_the_limit_of_a_huge_file(tmp_path):
    # A sparse 1 GiB file costs no disk; reading it whole would allocate 1 GiB.
    path = tmp_path / "sparse.json"
    with open(path, "wb") as handle:
        try:
            handle.truncate(2**30)
        except OSError:
            pytest.skip("this file system has no sparse files")
    tracemalloc.start()
    try:
        with pytest.raises(UsageError, match="larger than 4096 bytes"):
            input_files.read_limited(path, what="--thing", limit=4096)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2**20, peak


def _unix_socket(directory: str) -> socket.socket:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(os.path.join(directory, "s.json"))
    return server


@pytest.mark.parametrize(
    "kind, word",
    [("directory", "directory"), ("fifo", "FIFO"), ("device", "character device"), ("link_to_zero", "character device"),
     ("link_to_fifo", "FIFO"), ("socket", "socket"), ("missing", "cannot read"), ("dangling_link", "cannot read"), ("nul", "cannot read")],
)
def test_only_regular_files_are_opened(tmp_path, kind, word):
    path = tmp_path / "input.json"
    with contextlib.ExitStack() as stack:
        if kind == "directory":
            path.mkdir()
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "device":
            path = Path("/dev/null")
        elif kind == "link_to_zero":
            path.symlink_to("/dev/zero")
        elif kind == "link_to_fifo":
            os.mkfifo(tmp_path / "pipe")
            path.symlink_to(tmp_path / "pipe")
        elif kind == "socket":  # an AF_UNIX path must be short: tmp_path may be too long
            short = stack.enter_context(tempfile.TemporaryDirectory(prefix="s"))
            stack.enter_context(_unix_socket(short))
            path = Path(short) / "s.json"
        elif kind == "dangling_link":
            path.symlink_to(tmp_path / "nowhere")
        elif kind == "nul":
            path = Path(str(tmp_path) + "/a\x00b.json")
        # Refused before opening: opening a FIFO nobody writes to would block (the limit turns a
        # regression into a failure instead of a hung suite).
        with time_limit(20):
            for read in (input_files.read_limited, input_files.load_json_file):
                with pytest.raises(UsageError) as refused:
                    read(path, what="--thing")
                message = str(refused.value)
                assert word in message and "--thing" in message and "\n" not in message, message


def short_id(value: object) -> str:
    """A readable test id for a long parameter (a 100,000-bracket document would be the id itself)."""
    text = value.decode("latin-1") if isinstance(value, bytes) else str(value)
    return text if len(text) <= 40 else f"{text[:30]}...({len(text)} chars)"


@pytest.mark.parametrize(
    "text, fragment",
    [
        ('{"delta": 1e-6, "delta": 0.5}', "'delta' appears twice"),
        ('[{"a": 1}, {"b": {"c": 1, "c": 2}}]', "'c' appears twice"),
        ("[1, 2", "not JSON"),
        ("", "not JSON"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("[1" + "0" * 5000 + "]", "cannot be read"),
    ],
    ids=short_id,
)
def test_loads_json_refuses_repeated_keys_and_bad_json_in_one_line(text, fragment):
    with pytest.raises(UsageError) as refused:
        input_files.loads_json(text, where="--thing f.json")
    message = str(refused.value)
    assert fragment in message and message.startswith("--thing f.json: ") and "\n" not in message


def test_loads_json_keeps_the_last_key_nowhere_and_numbers_exact_on_request():
    assert input_files.loads_json('{"a": 1, "b": [0.1, 2]}', where="x") == {"a": 1, "b": [0.1, 2]}
    assert input_files.loads_json('{"a": 0.1, "b": 10}', where="x", exact_numbers=True) == {"a": "0.1", "b": "10"}


def test_load_json_file_names_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "f.json"
    path.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(UsageError, match="not a UTF-8 text file"):
        input_files.load_json_file(path, what="--thing")
    path.write_text('{"a": [1, "2"]}')
    assert input_files.load_json_file(path, what="--thing") == {"a": [1, "2"]}


class CountingZeros(io.RawIOBase):
    """An endless stream of zero bytes (what `/dev/zero` on stdin gives), counting what was read."""

    def __init__(self) -> None:
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        size = len(buffer)
        buffer[:size] = b"\0" * size
        self.given += size
        return size


def test_read_lines_limited_splits_lines_and_keeps_a_last_line_without_newline():
    stream = io.BytesIO(b"one\ntwo\r\n\nlast")
    assert list(input_files.read_lines_limited(stream, what="--batch -", line_limit=10)) == [b"one\n", b"two\r\n", b"\n", b"last"]


def test_read_lines_limited_accepts_a_line_of_exactly_the_limit_and_refuses_one_more():
    assert list(input_files.read_lines_limited(io.BytesIO(b"12345\n12345"), what="w", line_limit=5)) == [b"12345\n", b"12345"]
    for data in (b"123456\n", b"ok\n123456"):
        with pytest.raises(UsageError) as refused:
            list(input_files.read_lines_limited(io.BytesIO(data), what="--batch -", line_limit=5))
        message = str(refused.value)
        assert message.startswith("--batch -: line ") and "longer than 5 bytes" in message


def test_read_lines_limited_stops_an_endless_line_after_the_limit():
    zeros = CountingZeros()
    with pytest.raises(UsageError, match="line 1 is longer than 1000 bytes"):
        list(input_files.read_lines_limited(io.BufferedReader(zeros, buffer_size=4096), what="--batch -", line_limit=1000))
    assert zeros.given <= 1000 + 2 * 4096  # the line limit plus at most the buffer's read-ahead


def test_read_lines_limited_bounds_the_total():
    lines = input_files.read_lines_limited(io.BytesIO(b"abc\n" * 10), what="--batch -", line_limit=10, limit=25)
    with pytest.raises(UsageError, match="more than 25 bytes"):
        list(lines)
    assert len(list(input_files.read_lines_limited(io.BytesIO(b"abc\n" * 10), what="w", line_limit=10, limit=40))) == 10


# ---------------------------------------------------------------------------------------------------
# Special files on every surface: one child process, memory-limited, with a timeout


_DRIVER = r"""
import contextlib, io, json, sys, time
from shuffle_spec.interface.vectors import files as vectors
from shuffle_spec.interface.cli.main import main
# `vectors check` compares with a fresh generation (about a minute): what is tested here is the reading.
vectors.generate_all = lambda **_: {}
for case in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if case["stdin"]:
        sys.stdin = io.TextIOWrapper(open(case["stdin"], "rb"))
    start = time.monotonic()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(case["argv"])
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 2
        except BaseException as failure:
            code = "raised " + type(failure).__name__
    seconds = time.monotonic() - start
    sys.stdin = saved
    print(json.dumps({"name": case["name"], "code": code, "out": out.getvalue()[-3000:], "err": err.getvalue()[-3000:], "seconds": seconds}), flush=True)
"""

# In the order they run: a FIFO last, so that a hang there leaves the other answers in.
KIND_WORDS = {"directory": "directory", "zero_link": "character device", "fifo": "FIFO"}
SURFACES = ["compose", "batch", "randomizer", "tightest", "bound_target", "bound_vectors", "vectors_check"]
SPECIAL_CASE_NAMES = sorted([f"{surface}-{kind}" for surface in SURFACES for kind in KIND_WORDS] + ["batch_stdin-zero"])
BOUND_SOURCE = "def f(eps0, n, delta):\n    return eps0\n"


def _make_special(path: Path, kind: str) -> Path:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero_link":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    return path


def _special_cases(root: Path) -> dict[str, dict]:
    """name -> {"argv", "stdin", "code", "fragments"}: each surface with each kind of special file.
    The folders are numbered, not named after the kind, so that no fragment matches a path."""
    good_target = root / "good_bound.py"
    good_target.write_text(BOUND_SOURCE)
    cases = {"batch_stdin-zero": {"argv": ["eval", "--batch", "-"], "stdin": "/dev/zero", "code": 2, "fragments": ["--batch -", "line 1", "longer than"]}}
    for number, kind in enumerate(KIND_WORDS):
        base = root / f"case{number}"
        base.mkdir()
        special = _make_special(base / "input.json", kind)
        source = _make_special(base / "bound.py", kind)
        vector_dir = base / "vectors"
        vector_dir.mkdir()
        _make_special(vector_dir / "FMT21.Thm2.1.json", kind)
        word = KIND_WORDS[kind]
        surfaces = {
            "compose": (["compose", "compose.clones", "--rounds-file", str(special), "--delta", "1e-6"], ["--rounds-file"]),
            "batch": (["eval", "--batch", str(special)], ["--batch"]),
            "randomizer": (["audit", "randomizer", str(special), "--n", "5", "--delta", "1e-3"], []),
            "tightest": (["tightest", "--randomizer", "matrix", "--matrix", str(special), "--n", "5", "--delta", "1e-3"], []),
            "bound_target": (["audit", "bound", f"{source}:f", "--id", "FMT21.Thm2.1"], []),
            "bound_vectors": (["audit", "bound", f"{good_target}:f", "--id", "FMT21.Thm2.1", "--vectors", str(vector_dir)], ["vector file"]),
        }
        for surface, (argv, fragments) in surfaces.items():
            cases[f"{surface}-{kind}"] = {"argv": argv, "stdin": None, "code": 2, "fragments": [*fragments, word]}
        cases[f"vectors_check-{kind}"] = {"argv": ["vectors", "check", str(vector_dir), "--no-reference"], "stdin": None, "code": 1, "fragments": ["FMT21.Thm2.1.json", word]}
    return cases


def _limit_address_space() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (SPECIAL_MEMORY_BYTES, SPECIAL_MEMORY_BYTES))


@pytest.fixture(scope="module")
def special_answers(tmp_path_factory):
    root = tmp_path_factory.mktemp("special")
    cases = _special_cases(root)
    assert sorted(cases) == SPECIAL_CASE_NAMES
    plan = [{"name": name, "argv": case["argv"], "stdin": case["stdin"]} for name, case in cases.items()]
    env = child_environment()
    started = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-c", _DRIVER, json.dumps(plan)], cwd=root, env=env, capture_output=True, text=True,
            timeout=SPECIAL_SECONDS, preexec_fn=_limit_address_space, check=False,
        )
        stdout, ended = done.stdout, f"exit {done.returncode}: {done.stderr[-500:]}"
    except subprocess.TimeoutExpired as late:
        stdout = late.stdout.decode() if isinstance(late.stdout, bytes) else (late.stdout or "")
        ended = f"killed after {time.monotonic() - started:.0f} s (a hang)"
    answers = {json.loads(line)["name"]: json.loads(line) for line in stdout.splitlines() if line.startswith("{")}
    return cases, answers, ended


@pytest.mark.parametrize("name", SPECIAL_CASE_NAMES)
def test_special_files_are_refused_in_one_line_without_hanging_or_growing(special_answers, name):
    cases, answers, ended = special_answers
    case = cases[name]
    assert name in answers, f"{name}: no answer; the child {ended}"
    answer = answers[name]
    assert answer["seconds"] < PER_CALL_SECONDS, answer
    assert answer["code"] == case["code"], answer
    text = answer["err"] if case["code"] == 2 else answer["out"]
    for bad in ("Traceback", "internal error", "MemoryError"):
        assert bad not in answer["err"] + answer["out"], answer
    if case["code"] == 2:
        assert answer["out"] == "", answer
        line = one_error_line(answer["err"])
        assert "error: " in line, answer
    else:
        line = next((row for row in text.splitlines() if case["fragments"][0] in row), "")
    for fragment in case["fragments"]:
        assert fragment in line, (fragment, answer)


# ---------------------------------------------------------------------------------------------------
# Files one byte over the limit (the limit lowered by monkeypatch), in-process


def _padded(text: str, size: int) -> bytes:
    """`text` padded with trailing spaces (still the same JSON) to exactly `size` bytes."""
    data = text.encode()
    assert len(data) <= size
    return data + b" " * (size - len(data))


LIMIT = 200


def test_a_rounds_file_over_the_limit_is_refused(tmp_path, monkeypatch):
    from shuffle_spec.interface.cli.commands import compose

    monkeypatch.setattr(compose, "MAX_ROUNDS_FILE_BYTES", LIMIT)
    path = tmp_path / "rounds.json"
    path.write_bytes(_padded('[{"eps0": 1, "n": 100, "rounds": 2}]', LIMIT + 1))
    argv = ["compose", "compose.clones", "--rounds-file", str(path), "--delta", "1e-6"]
    code, out, err, seconds = call(argv)
    check_outcome(argv, code, out, err, seconds)
    assert code == 2 and f"larger than {LIMIT} bytes" in err and "--rounds-file" in err


def test_a_rounds_file_with_too_many_rounds_is_refused(tmp_path, monkeypatch):
    from shuffle_spec.interface.cli.commands import compose

    path = tmp_path / "rounds.json"
    path.write_text(json.dumps([{"eps0": 1, "n": 100}] * (compose.MAX_SCHEDULE_ENTRIES + 1)))
    argv = ["compose", "compose.clones", "--rounds-file", str(path), "--delta", "1e-6"]
    code, out, err, seconds = call(argv)
    check_outcome(argv, code, out, err, seconds)
    assert code == 2 and f"at most {compose.MAX_SCHEDULE_ENTRIES}" in err


def test_a_batch_file_over_the_limit_is_refused(tmp_path, monkeypatch):
    from shuffle_spec.interface.cli.commands import eval as eval_command

    monkeypatch.setattr(eval_command, "MAX_BATCH_BYTES", LIMIT)
    path = tmp_path / "batch.jsonl"
    path.write_bytes(_padded(json.dumps({"id": "FMT21.Thm2.1", "params": POINT}) + "\n", LIMIT + 1))
    argv = ["eval", "--batch", str(path)]
    code, out, err, seconds = call(argv)
    check_outcome(argv, code, out, err, seconds)
    assert code == 2 and f"larger than {LIMIT} bytes" in err and "--batch" in err


def _stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_a_batch_line_over_the_line_limit_on_stdin_is_refused(monkeypatch):
    from shuffle_spec.interface.cli.commands import eval as eval_command

    monkeypatch.setattr(eval_command, "MAX_BATCH_LINE_BYTES", 64)
    _stdin(monkeypatch, b" " * 65 + b"\n")
    code, out, err, _ = call(["eval", "--batch", "-"])
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert "--batch -" in line and "line 1 is longer than 64 bytes" in line


def test_batch_stdin_over_the_total_limit_is_refused_after_the_lines_before_it(monkeypatch):
    from shuffle_spec.interface.cli.commands import eval as eval_command

    line = json.dumps({"id": "FMT21.Thm2.1", "params": POINT}).encode() + b"\n"
    monkeypatch.setattr(eval_command, "MAX_BATCH_BYTES", 2 * len(line) + 10)
    _stdin(monkeypatch, line * 5)
    code, out, err, _ = call(["eval", "--batch", "-"])
    assert code == 2
    assert [json.loads(row)["valid"] for row in out.splitlines()] == [True, True]  # answered, then the limit
    assert f"more than {2 * len(line) + 10} bytes" in one_error_line(err)


def test_a_randomizer_file_over_the_limit_is_refused(tmp_path, monkeypatch):
    from shuffle_spec.interface.audit import randomizer as audit

    monkeypatch.setattr(audit, "MAX_FILE_BYTES", LIMIT)
    path = tmp_path / "m.json"
    path.write_bytes(_padded('{"matrix": [["3/4", "1/4"], ["1/4", "3/4"]]}', LIMIT + 1))
    for argv in (["audit", "randomizer", str(path)], ["tightest", "--randomizer", "matrix", "--matrix", str(path), "--n", "5", "--delta", "1e-3"]):
        code, out, err, seconds = call(argv)
        check_outcome(argv, code, out, err, seconds)
        assert code == 2 and f"larger than {LIMIT} bytes" in err and str(path) in err


def test_a_bound_module_over_the_limit_is_refused_before_it_is_imported(tmp_path, monkeypatch):
    from shuffle_spec.interface.audit import bound as bound_audit

    monkeypatch.setattr(bound_audit, "MAX_SOURCE_BYTES", LIMIT)
    marker = tmp_path / "imported"
    path = tmp_path / "bound.py"
    path.write_bytes(_padded(f"open({str(marker)!r}, 'w').close()\n" + BOUND_SOURCE, LIMIT + 1))
    argv = ["audit", "bound", f"{path}:f", "--id", "FMT21.Thm2.1"]
    code, out, err, seconds = call(argv)
    check_outcome(argv, code, out, err, seconds)
    assert code == 2 and f"larger than {LIMIT} bytes" in err and not marker.exists()
    with pytest.raises(UsageError, match=f"larger than {LIMIT} bytes"):
        bound_audit.load_bound_function(f"{path}:f")
    assert not marker.exists()


def test_a_bound_module_that_is_not_a_regular_file_is_named_as_such(tmp_path):
    from shuffle_spec.interface.audit import bound as bound_audit

    directory = tmp_path / "package.py"
    directory.mkdir()
    with pytest.raises(UsageError, match="is a directory"):
        bound_audit.load_bound_function(f"{directory}:f")


def test_a_vector_file_over_the_limit_is_refused(tmp_path, monkeypatch):
    from shuffle_spec.interface.vectors import files as vectors

    monkeypatch.setattr(vectors, "VECTOR_FILE_LIMIT", LIMIT)
    (tmp_path / "FMT21.Thm2.1.json").write_bytes(_padded('{"testGroups": []}', LIMIT + 1))
    target = tmp_path / "bound.py"
    target.write_text(BOUND_SOURCE)
    argv = ["audit", "bound", f"{target}:f", "--id", "FMT21.Thm2.1", "--vectors", str(tmp_path)]
    code, out, err, seconds = call(argv)
    check_outcome(argv, code, out, err, seconds)
    assert code == 2 and f"larger than {LIMIT} bytes" in err and "vector file" in err


def test_vectors_check_reports_a_file_over_the_limit(tmp_path, monkeypatch):
    from shuffle_spec.interface.vectors import files as vectors

    monkeypatch.setattr(vectors, "VECTOR_FILE_LIMIT", LIMIT)
    monkeypatch.setattr(vectors, "generate_all", lambda **_: {})  # the freshness comparison takes a minute
    (tmp_path / "big.json").write_bytes(_padded("{}", LIMIT + 1))
    problems = vectors.check_vectors(tmp_path, run_reference=False)
    assert any(p.startswith("big.json: ") and f"larger than {LIMIT} bytes" in p for p in problems), problems


def test_vector_files_with_repeated_keys_are_refused(tmp_path, monkeypatch):
    from shuffle_spec.interface.vectors import files as vectors

    monkeypatch.setattr(vectors, "generate_all", lambda **_: {})
    (tmp_path / "twice.json").write_text('{"schema": "a", "schema": "b"}')
    problems = vectors.check_vectors(tmp_path, run_reference=False)
    assert any(p.startswith("twice.json: ") and "'schema' appears twice" in p for p in problems), problems
    target = tmp_path / "bound.py"
    target.write_text(BOUND_SOURCE)
    (tmp_path / "FMT21.Thm2.1.json").write_text('{"testGroups": [], "testGroups": []}')
    argv = ["audit", "bound", f"{target}:f", "--id", "FMT21.Thm2.1", "--vectors", str(tmp_path)]
    code, out, err, seconds = call(argv)
    check_outcome(argv, code, out, err, seconds)
    assert code == 2 and "'testGroups' appears twice" in err


# ---------------------------------------------------------------------------------------------------
# Rounds files: malformed-but-JSON documents and a fuzz of their content


def _compose_file(tmp_path: Path, data: bytes | str, statement: str = "compose.clones") -> tuple[int, str, str, list[str]]:
    path = tmp_path / "rounds.json"
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    argv = ["compose", statement, "--rounds-file", str(path), "--delta", "1e-6", "--json"]
    code, out, err, seconds = call(argv)
    check_outcome(argv, code, out, err, seconds)
    return code, out, err, argv


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("[1,2]", "round 0"),
        ('[{"eps0":"x"}]', "round 0"),
        ('[{"eps0":"x","n":10}]', "eps0"),
        ('{"rounds": 5}', "--rounds-file"),
        ('[{"eps0":1,"n":10,"rounds":1,"extra":1}]', "extra"),
        ('[{"eps0":1,"n":10,"eps0":2}]', "'eps0' appears twice"),
        ('{"rounds":[{"eps0":1,"n":10}],"rounds":[{"eps0":5,"n":10}]}', "'rounds' appears twice"),
        ('{"rounds":[{"eps0":1,"n":10}],"note":1}', "note"),
        ("[]", "rounds"),
        ("{}", "--rounds-file"),
        ("null", "--rounds-file"),
        ('"x"', "--rounds-file"),
        ('[{"eps0":true,"n":10}]', "eps0"),
        ('[{"eps0":1,"n":[10]}]', "n"),
        ('[{"eps0":1,"n":10,"rounds":null}]', "rounds"),
        ('[{"eps0":1,"n":10,"pair":[1]}]', "pair"),
        ('[{"eps0":1,"n":10,"pair":{"a":1}}]', "pair"),
        ('[{"eps0":1,"n":10,"pair":"nope"}]', "pair"),
        ('[{"eps0":1,"n":1' + "0" * 5000 + "}]", "--rounds-file"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (b'[{"eps0":1,"n":10,"pair":"\xff"}]', "UTF-8"),
        ("", "not JSON"),
    ],
    ids=short_id,
)
def test_malformed_rounds_files_are_one_line_errors(tmp_path, text, fragment):
    code, _, err, argv = _compose_file(tmp_path, text)
    assert code == 2 and fragment in err and "internal error" not in err, (argv, err)


@pytest.mark.parametrize(
    "statement, pair",
    [("compose.clones", "exact_binary_rr"), ("compose.clones", "stronger_clones"), ("compose.exact_binary_rr", "clones"),
     ("compose.exact_binary_rr", "stronger_clones"), ("compose.stronger_clones", "exact_binary_rr")],
)
def test_a_round_may_not_name_a_pair_that_does_not_certify_the_statement(tmp_path, statement, pair):
    # compose.exact_binary_rr with the clone pair reported the clone composition's lower end (3.332 at
    # eps0 = 2, n = 100, 2 rounds) as a lower bound on the composed exact binary-RR epsilon, whose
    # certified upper end there is 2.089: a lower bound above the truth.
    code, _, err, argv = _compose_file(tmp_path, json.dumps([{"eps0": 2, "n": 100, "rounds": 2, "pair": pair}]), statement)
    assert code == 2 and "pair" in err and pair in err and statement in err, (argv, err)


def test_a_certifying_pair_named_in_a_round_is_accepted(tmp_path):
    code, out, _, _ = _compose_file(tmp_path, json.dumps([{"eps0": 2, "n": 100, "rounds": 1, "pair": "clones"}]), "compose.stronger_clones")
    clones = composed_epsilon("compose.clones", rounds=1, eps0=2, n=100, delta=1e-6)
    assert code == 0 and json.loads(out)["value"] == clones.value


numbers_or_junk = st.one_of(
    st.sampled_from([None, True, "1", "x", [1], {"a": 1}, 0, -1, 1e400, -0.0, 10**30, 0.5, 1.5]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(10**6), 10**7),
)
valid_round = st.fixed_dictionaries(
    {"eps0": st.floats(0.1, 4.0), "n": st.integers(2, 300)},
    optional={"rounds": st.integers(1, 3), "pair": st.sampled_from(["clones", "stronger_clones", "exact_binary_rr"])},
)
junk_round = st.one_of(
    st.fixed_dictionaries({}, optional={"eps0": numbers_or_junk, "n": numbers_or_junk, "rounds": numbers_or_junk,
                                        "pair": st.one_of(numbers_or_junk, st.text(max_size=16)), "extra": numbers_or_junk}),
    numbers_or_junk,
)
rounds_documents = st.one_of(
    st.lists(valid_round.map(lambda r: {k: v for k, v in r.items() if k != "pair"}), min_size=1, max_size=2),
    st.lists(valid_round, min_size=1, max_size=2),
    st.lists(st.one_of(valid_round, junk_round), max_size=3),
    st.lists(st.one_of(valid_round, junk_round), max_size=3).map(lambda rounds: {"rounds": rounds}),
    st.dictionaries(st.sampled_from(["rounds", "round", "eps0", ""]), st.one_of(numbers_or_junk, st.lists(junk_round, max_size=2)), max_size=2),
    numbers_or_junk,
)


@settings(max_examples=max(10, settings.default.max_examples // 2), deadline=None)
@given(document=rounds_documents, statement=st.sampled_from(sorted(CERTIFYING_PAIRS)))
def test_fuzz_rounds_files(tmp_path_factory, document, statement):
    tmp_path = tmp_path_factory.mktemp("rounds")
    code, out, _, argv = _compose_file(tmp_path, json.dumps(document), statement)
    if code != 0:
        return
    # An answer: the schedule as written, every pair certifying the statement, the API's value.
    rounds = document["rounds"] if isinstance(document, dict) else document
    pairs = {item.get("pair", statement.split(".", 1)[1]) for item in rounds}
    assert pairs <= CERTIFYING_PAIRS[statement], (argv, document)
    data = json.loads(out)
    assert data["rounds"] == sum(item.get("rounds", 1) for item in rounds)
    assert data["value"] == composed_epsilon(statement, delta=1e-6, schedule=rounds).value
    # No composition exceeds basic composition (the sum of the rounds' eps0, returned when nothing better is provable).
    basic = sum(item["eps0"] * item.get("rounds", 1) for item in rounds)
    assert math.isfinite(data["value"]) and 0 <= data["value"] <= basic * (1 + 1e-12), (document, data)


# ---------------------------------------------------------------------------------------------------
# Batch files: malformed-but-JSON lines and a fuzz of their content


def _batch(tmp_path: Path, data: bytes, default_id: str | None = None) -> tuple[int, list[dict], str]:
    path = tmp_path / "batch.jsonl"
    path.write_bytes(data)
    argv = ["eval", "--batch", str(path)] + ([default_id] if default_id else [])
    code, out, err, seconds = call(argv)
    assert seconds < PER_CALL_SECONDS and "Traceback" not in err and "internal error" not in err, (argv, err)
    return code, [json.loads(row) for row in out.splitlines()], err


BAD_LINES = [
    (b"[1]", "JSON object"),
    (b'{"params":[1]}', "params"),
    (b'{"id":"FMT21.Thm2.1","params":{"eps0":1,"n":10000,"delta":1e-6,"delta":0.5}}', "'delta' appears twice"),
    (b'{"id":"FMT21.Thm2.1","id":"EFMRTT19.Thm7","params":{"eps0":1,"n":10000,"delta":1e-6}}', "'id' appears twice"),
    (b'{"id":[1],"params":{}}', "id"),
    (b'{"params":{"eps0":{"a":1},"n":10000,"delta":1e-6}}', "params"),
    (b'{"params":{"eps0":1,"n":1' + b"0" * 5000 + b',"delta":1e-6}}', "cannot be read"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"params":{"eps0":"\xff","n":10000,"delta":1e-6}}', "UTF-8"),
    (b"\xef\xbb\xbf{}", "not JSON"),
    (b"null", "JSON object"),
    (b'{"params":{"eps0":1e400,"n":10000,"delta":1e-6}}', "eps0"),
    (b'{"params":{"eps0":true,"n":10000,"delta":1e-6}}', "params"),
]


def test_malformed_batch_lines_each_get_a_one_line_error_and_the_batch_goes_on(tmp_path):
    good = json.dumps({"params": POINT}).encode()
    data = b"\n".join([line for line, _ in BAD_LINES] + [good]) + b"\n"
    code, answers, err = _batch(tmp_path, data, default_id="FMT21.Thm2.1")
    assert code == 2 and err == ""
    assert len(answers) == len(BAD_LINES) + 1
    for number, ((line, fragment), answer) in enumerate(zip(BAD_LINES, answers, strict=False), start=1):
        assert answer.get("line") == number and fragment in answer.get("error", ""), (line[:80], answer)
        assert "\n" not in answer["error"]
    assert answers[-1]["valid"] is True and answers[-1]["params"]["delta"] == 1e-6


def test_a_batch_file_with_crlf_lines_and_no_final_newline_is_answered(tmp_path):
    line = json.dumps({"id": "FMT21.Thm2.1", "params": POINT}).encode()
    code, answers, err = _batch(tmp_path, line + b"\r\n\r\n" + line)
    assert code == 0 and err == "" and [a["valid"] for a in answers] == [True, True]


batch_params = st.dictionaries(
    st.sampled_from(["eps0", "n", "delta", "k", "x", ""]),
    st.one_of(st.floats(0.05, 6.0), st.integers(1, 10**6), st.floats(1e-12, 0.5), numbers_or_junk, st.sampled_from(["1/3", "1e-6", "1_0", "x"])),
    max_size=4,
)
batch_lines = st.one_of(
    st.builds(lambda i, p: json.dumps({"id": i, "params": p}), st.sampled_from(["FMT21.Thm2.1", "EFMRTT19.Thm7", "BBGN19.Thm5.3", "NOPE", ""]), batch_params),
    st.builds(lambda p: json.dumps({"params": p}), batch_params),
    st.fixed_dictionaries({"eps0": st.floats(0.05, 6.0), "n": st.integers(10, 10**6), "delta": st.floats(1e-12, 0.5)}).map(lambda p: json.dumps({"params": p})),
    st.text(max_size=20),
    st.binary(max_size=12).map(lambda b: b.decode("utf-8", "surrogateescape")),
)


@settings(max_examples=max(10, settings.default.max_examples // 2), deadline=None)
@given(lines=st.lists(batch_lines, min_size=1, max_size=6))
def test_fuzz_batch_files(tmp_path_factory, lines):
    tmp_path = tmp_path_factory.mktemp("batch")
    rows = [line.replace("\n", " ").replace("\r", " ") for line in lines]
    data = "\n".join(rows).encode("utf-8", "surrogateescape") + b"\n"
    code, answers, err = _batch(tmp_path, data, default_id="FMT21.Thm2.1")
    assert err == ""  # every problem is answered in its line
    assert len(answers) == sum(1 for row in rows if row.strip())
    errors = [a for a in answers if "error" in a]
    assert code == (2 if errors else 0)
    for answer in answers:
        if "error" in answer:
            assert isinstance(answer["line"], int) and "\n" not in answer["error"], answer
        elif answer["valid"]:
            assert isinstance(answer["value"], (int, float)) and math.isfinite(answer["value"]), answer
