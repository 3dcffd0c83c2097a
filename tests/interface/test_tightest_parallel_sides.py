"""`tightest` with its lower side in a forked child (`interface/parallel_sides.py`): the same Gap as `tightest`, float
for float and row for row; the side computed here when the child gives no answer; never used where the sides share
a statement (k = 2), nor by the Python API unless a program allowed it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from shuffle_spec.interface import limits, parallel_sides
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.tightest import tightest

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system: tightest_in_parallel is tightest")

POINTS = [
    {"randomizer": "krr", "k": 3, "eps0": 1.0, "n": 1000, "delta": 1e-6, "skip_dominated": True},
    {"randomizer": "krr", "k": 10, "eps0": 8.0, "n": 10_000, "delta": 1e-9, "skip_dominated": False},
    {"randomizer": "laplace", "eps0": 1.0, "n": 300, "delta": 1e-6, "skip_dominated": True},
]


@pytest.mark.parametrize("point", POINTS, ids=lambda p: f"{p['randomizer']}-{p.get('k')}-{p['eps0']}-{p['n']}")
def test_the_two_processes_give_tightests_answer_float_for_float(point):
    both = parallel_sides.tightest_in_parallel(**point)
    assert both == tightest(**point)  # ids, ends (floats compared exactly) and every row in its order
    assert both.upper_id is not None and both.lower_id is not None


def test_a_child_without_an_answer_leaves_the_side_to_this_process(monkeypatch):
    def fails(arguments):
        raise RuntimeError("the child's side failed")

    monkeypatch.setattr(parallel_sides, "lower_side", fails)  # the forked child inherits the failing function
    assert parallel_sides.tightest_in_parallel(**POINTS[0]) == tightest(**POINTS[0])


@pytest.mark.parametrize("ignored", [False, True])
def test_the_child_keeps_an_ignored_ctrl_c_ignored(monkeypatch, tmp_path, ignored):
    """Ctrl-C ends the child quietly (SIG_DFL), unless the program was started with SIGINT ignored (`nohup`, a
    background job of a script): then the child ignores it too, as its parent does. Before, it was reset to SIG_DFL
    always, so a Ctrl-C meant for the foreground killed the child of an ignoring parent."""
    import signal

    seen = tmp_path / "disposition"

    def report(arguments):
        seen.write_text(str(signal.getsignal(signal.SIGINT) is signal.SIG_IGN))
        raise RuntimeError("no answer: the parent computes the side itself")

    monkeypatch.setattr(parallel_sides, "lower_side", report)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN if ignored else signal.default_int_handler)
    try:
        assert parallel_sides.tightest_in_parallel(**POINTS[0]) == tightest(**POINTS[0])
    finally:
        signal.signal(signal.SIGINT, previous)
    assert seen.read_text() == str(ignored)


def _outcome(compute, **point):
    try:
        return compute(**point)
    except Exception as failure:  # noqa: BLE001 - the outcome compared is the error itself
        return (type(failure), str(failure))


@pytest.mark.parametrize("point", [{"n": -5}, {"k": 1}, {"delta": 2.0}, {"randomizer": "nope"}])
def test_points_outside_the_range_come_out_as_in_tightest(point):
    """The same rows (every statement refusing) or the same error as `tightest`'s, whichever side raises it."""
    point = {**POINTS[0], **point}
    assert _outcome(parallel_sides.tightest_in_parallel, **point) == _outcome(tightest, **point)


def test_sides_sharing_a_statement_are_not_split():
    assert parallel_sides.sides_are_separable("krr", 3) and parallel_sides.sides_are_separable("laplace", None)
    # k = 2 and the generic randomizer: exact.shuffled_binary_rr serves both sides (one evaluation).
    assert not parallel_sides.sides_are_separable("krr", 2) and not parallel_sides.sides_are_separable("binary_rr", None)


def test_the_python_api_never_forks_unless_a_program_allowed_it(capsys):
    assert not limits.worker_processes_allowed()
    main(["tightest", "--k", "3", "--eps0", "1", "--n", "1000", "--delta", "1e-6", "--json"])  # main(argv): not a program
    capsys.readouterr()
    assert not limits.worker_processes_allowed()


def test_the_program_prints_what_the_api_computes():
    """`shuffle-spec tightest` run as a program (where it may use two processes) prints the in-process answer."""
    argv = ["tightest", "--k", "3", "--eps0", "1", "--n", "1000", "--delta", "1e-6", "--json"]
    done = subprocess.run([sys.executable, "-m", "shuffle_spec", *argv], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    expected = tightest(**POINTS[0])
    printed = json.loads(done.stdout)
    assert (printed["upper"], printed["lower"]) == ({"id": expected.upper_id, "eps": expected.upper_eps}, {"id": expected.lower_id, "eps": expected.lower_eps})
    assert [(row["id"], row["eps"]) for row in printed["bounds"]] == [(row["id"], row["eps"]) for row in expected.rows]


# In a fresh interpreter: which of the modules both sides need are loaded when tightest_in_parallel forks (the child
# inherits them instead of importing NumPy and the lattice sums a second time).
FORK_PROBE = """
import json, os, sys
from shuffle_spec.interface import parallel_sides
names = ("numpy", "shuffle_spec.reference.numerics.lattice_sums", "shuffle_spec.reference.lower_bounds.krr")
seen = []
fork = os.fork
def probe():
    seen.append([name in sys.modules for name in names])
    return fork()
os.fork = probe
gap = parallel_sides.tightest_in_parallel(randomizer="krr", k=3, eps0=1.0, n=1000, delta=1e-6, skip_dominated=True)
print(json.dumps({"seen": seen, "lower": gap.lower_id}))
"""


def test_the_child_inherits_the_lower_sides_modules_loaded_before_the_fork():
    done = subprocess.run([sys.executable, "-c", FORK_PROBE], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    printed = json.loads(done.stdout)
    assert printed["seen"] == [[True, True, True]]  # one fork, NumPy, the lattice sums and the pairs' module loaded
    assert printed["lower"] == tightest(**POINTS[0]).lower_id
# A program whose two sides never end: the child prints its process id and sleeps, the parent sleeps in its own side.
_STUCK_PROGRAM = """
import os, sys, time
from shuffle_spec.interface import parallel_sides

def child_side(arguments):
    print(os.getpid(), flush=True)
    time.sleep(120)

def parent_side(**arguments):
    time.sleep(120)

parallel_sides.lower_side = child_side
parallel_sides.tightest = parent_side
parallel_sides.tightest_in_parallel(randomizer="krr", k=3, eps0=1.0, n=1000, delta=1e-6)
"""


def _gone(pid: int) -> bool:
    """True when the process has ended (reaped, or a zombie waiting for a parent that does not reap it)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as status:
            return status.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True
    except OSError:  # no /proc here: ask the process itself
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False


# SIGTERM (`kill PID`) in the default tier; SIGKILL, the same end of the life line, in the second.
@pytest.mark.parametrize("how", ["SIGTERM", pytest.param("SIGKILL", marks=pytest.mark.slow)])
def test_the_child_ends_when_its_parent_is_killed(how):
    """A parent killed (a signal Python does not turn into an exception: SIGKILL, SIGTERM, SIGHUP) must not leave its
    child computing on, reparented: before, the child of `shuffle-spec tightest --k 1000 --eps0 0.05 --n 1000 --delta
    1e-300` ran its 7 s lower side to the end after a SIGKILL or SIGTERM of the parent."""
    import signal
    import time

    child = None
    with subprocess.Popen([sys.executable, "-c", _STUCK_PROGRAM], stdout=subprocess.PIPE, text=True) as parent:
        try:
            child = int(parent.stdout.readline())
            parent.send_signal(getattr(signal, how))
            parent.wait(timeout=30)
            deadline = time.monotonic() + 10
            while not _gone(child) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert _gone(child), f"the child {child} still runs after its parent was killed by {how}"
        finally:
            parent.kill()
            if child is not None and not _gone(child):
                os.kill(child, signal.SIGKILL)
