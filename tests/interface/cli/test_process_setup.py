"""What `shuffle-spec` does to its own process when it runs as a program (and only then): glibc's malloc keeps freed
memory for the next allocation (`interface.limits.reuse_freed_memory`), and the objects alive at exit are frozen so
that the interpreter's shutdown does not walk them in its garbage collections (`interface/cli/main.py`). Each check
runs in a fresh child process: both settings are process-wide."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest


def _glibc() -> bool:
    try:
        return (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc")
    except (AttributeError, ValueError, OSError):
        return False


def _child(code: str, *arguments: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *arguments], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


# Arrays of growing size (256 KiB to 1.75 MiB, each freed before the next one), written in full: by default glibc
# maps each one afresh (its adaptive threshold only rises to the size of the last block freed), one page fault per
# 4 KiB written; with freed memory kept, each one reuses the heap the previous one left and faults only for its
# growth. Below 2 MiB a block cannot hold a transparent huge page, so the counts do not depend on that setting.
GROWING_ALLOCATIONS = """
import resource, sys
from shuffle_spec.interface.limits import reuse_freed_memory
if sys.argv[1] == "reuse":
    assert reuse_freed_memory()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for size in range(2, 15):
    block = bytearray(size * 2**17)  # zero-filled: every page written
    del block
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


@pytest.mark.skipif(not _glibc(), reason="the setting is glibc's (elsewhere reuse_freed_memory changes nothing and returns False)")
def test_freed_memory_is_reused_instead_of_paged_in_again():
    default = int(_child(GROWING_ALLOCATIONS, "default"))
    kept = int(_child(GROWING_ALLOCATIONS, "reuse"))
    pages = sum(size * 2**17 for size in range(2, 15)) // 4096  # 3328: every block paged in afresh
    assert default >= pages // 2, (default, pages)  # the check can fail: the default does page every block in
    assert kept <= default // 3, (kept, default)  # kept: about the largest block's 448 pages


def test_the_process_settings_are_made_only_when_run_as_a_program():
    # In-process calls (`main(argv)`, the tests, an embedding program) leave the caller's process alone; a program run
    # (`main()`, as the console script and `python -m shuffle_spec` call it) makes both settings, the allocator's once a
    # command is about to run (not for `--version`, which exits first).
    code = """
    import contextlib, gc, io, json, sys
    import shuffle_spec.interface.cli.main as cli

    calls = []
    cli.reuse_freed_memory = lambda: calls.append("reuse") or True
    cli.limit_memory = lambda: None  # the test's own process limits are not the point here
    seen = {}
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(["limits", "--json"]) == 0
        seen["in_process"] = [list(calls), gc.get_freeze_count()]
        sys.argv = ["shuffle-spec", "--version"]
        with contextlib.suppress(SystemExit):  # --version exits after printing; the test reads the calls made before
            cli.main()
        seen["version"] = list(calls)
        gc.unfreeze()
        sys.argv = ["shuffle-spec", "limits", "--json"]
        assert cli.main() == 0
        seen["program"] = [list(calls), gc.get_freeze_count() > 0]
    print(json.dumps(seen))
    """
    seen = json.loads(_child(code))
    assert seen["in_process"] == [[], 0]
    assert seen["version"] == []
    assert seen["program"] == [["reuse"], True]


def test_a_program_run_still_writes_its_whole_output_and_runs_its_exit_handlers():
    # Freezing the objects at exit must not lose output: stdout is flushed and atexit handlers still run.
    code = """
    import atexit, sys
    from shuffle_spec.interface.cli.main import main
    atexit.register(lambda: print("exit handler ran"))
    sys.argv = ["shuffle-spec", "limits", "--json"]
    sys.exit(main())
    """
    out = _child(code)
    table, _, rest = out.rpartition("}")
    assert json.loads(table + "}")["statements"] and rest.strip() == "exit handler ran"


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts the process's threads in /proc")
def test_a_program_run_asks_openblas_for_one_thread_unless_the_user_set_it():
    # `single_threaded_blas` (run by `main()` as a program, before NumPy is imported): OpenBLAS then starts no thread
    # pool, so NumPy's import leaves the process with its one thread; a value in the environment is the user's and
    # is kept; once NumPy is imported the setting could not act and nothing is changed.
    code = """
    import json, os, sys
    from shuffle_spec.interface.limits import BLAS_THREAD_VARIABLE, single_threaded_blas
    before = os.environ.get(BLAS_THREAD_VARIABLE)
    first = single_threaded_blas()
    value = os.environ.get(BLAS_THREAD_VARIABLE)
    import numpy
    numpy.ones(4) @ numpy.ones(4)
    print(json.dumps([before, first, value, single_threaded_blas(), len(os.listdir("/proc/self/task"))]))
    """
    environment = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120, check=True, env=environment)
    assert json.loads(done.stdout) == [None, True, "1", False, 1]
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120, check=True,
                          env={**environment, "OPENBLAS_NUM_THREADS": "2"})
    before, first, value, again, _ = json.loads(done.stdout)
    assert (before, first, value, again) == ("2", True, "2", False)


def test_only_a_program_run_sets_the_blas_threads():
    code = """
    import contextlib, io, json, os, sys
    import shuffle_spec.interface.cli.main as cli

    cli.limit_memory = lambda: None
    os.environ.pop("OPENBLAS_NUM_THREADS", None)
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(["limits", "--json"]) == 0
        in_process = os.environ.get("OPENBLAS_NUM_THREADS")
        sys.argv = ["shuffle-spec", "limits", "--json"]
        assert cli.main() == 0
    print(json.dumps([in_process, os.environ.get("OPENBLAS_NUM_THREADS")]))
    """
    # The command line imports no NumPy before a command runs, so the program run's setting takes effect.
    assert json.loads(_child(code)) == [None, "1"]


def test_only_a_program_run_collects_its_youngest_generation_less_often():
    # `fewer_collections` (run by `main()` as a program): the youngest generation's threshold is raised, the older
    # ones' kept; an in-process call leaves the caller's collector as it was.
    code = """
    import contextlib, gc, io, json, sys
    import shuffle_spec.interface.cli.main as cli
    from shuffle_spec.interface.limits import YOUNG_GENERATION_THRESHOLD

    cli.limit_memory = lambda: None
    default = gc.get_threshold()
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(["limits", "--json"]) == 0
        in_process = gc.get_threshold()
        sys.argv = ["shuffle-spec", "limits", "--json"]
        assert cli.main() == 0
    print(json.dumps([default, in_process, gc.get_threshold(), YOUNG_GENERATION_THRESHOLD]))
    """
    default, in_process, program, young = json.loads(_child(code))
    assert in_process == default and young > default[0]
    assert program == [young, default[1], default[2]]


def test_an_output_that_cannot_be_written_is_said_so():
    # stdout on a full device (/dev/full: every write fails with ENOSPC): one line saying the output could not be
    # written, exit 2; not "cannot compute this", which would blame the computation.
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "shuffle_spec", "limits", "--json"], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert "cannot write the output" in lines[0] and "No space left" in lines[0], lines[0]
