"""The progress hook (reference/core/progress.py): a no-op without a listener, the listener of the block only,
restored on the way out, silenced inner loops; and an inversion reports its steps without changing its answer."""

import math
import threading

import pytest

from shuffle_spec.reference.core.progress import listening, progress_callback, report, silenced
from shuffle_spec.reference.numerics.inversion import largest_argument_within


def test_report_without_a_listener_does_nothing_and_listening_says_so():
    assert not listening()
    report("stage", 1, 2)  # nothing to call: no error, no output


def test_the_listener_hears_its_block_only_and_the_previous_one_comes_back():
    outer, inner = [], []
    with progress_callback(lambda *a: outer.append(a)):
        report("a", 1, 3)
        with progress_callback(lambda *a: inner.append(a)):
            report("b", 2, None)
        report("a", 3, 3)
        with pytest.raises(RuntimeError):
            with progress_callback(lambda *a: inner.append(a)):
                raise RuntimeError("the block failed")
        report("a", 4, 4)  # the outer listener is back after the exception too
    report("a", 5, 5)
    assert outer == [("a", 1, 3), ("a", 3, 3), ("a", 4, 4)] and inner == [("b", 2, None)]
    assert not listening()


def test_silenced_blocks_drop_their_reports():
    heard = []
    with progress_callback(lambda *a: heard.append(a)):
        with silenced():
            report("inner", 1, 1)
            assert not listening()
        report("outer", 1, 1)
    assert heard == [("outer", 1, 1)]


def test_a_new_thread_starts_without_the_listener():
    heard = []
    with progress_callback(lambda *a: heard.append(a)):
        worker = threading.Thread(target=report, args=("thread", 1, 1))
        worker.start()
        worker.join()
    assert heard == []


def test_an_inversion_reports_its_outer_steps_only_and_returns_the_same_answer():
    """largest x in [0, 4] with x^2 <= 2: the answer is sqrt(2) to rel_tol, with and without a listener; the
    evaluations' own reports (an inner loop) are silenced."""

    def f(x: float) -> float:
        report("inner loop", 1, 1)
        return x * x

    quiet = largest_argument_within(f, 2.0, 0.0, 4.0, name="x", rel_tol=1e-12)
    heard = []
    with progress_callback(lambda *a: heard.append(a)):
        loud = largest_argument_within(f, 2.0, 0.0, 4.0, name="x", rel_tol=1e-12)
    assert loud == quiet and quiet * quiet <= 2.0 and math.isclose(quiet, math.sqrt(2), rel_tol=1e-11)
    assert heard and {stage for stage, _, _ in heard} == {"solving for x"}
    assert [done for _, done, _ in heard] == list(range(len(heard)))  # one report per step, counted from 0
