"""Two threads calling the API at once get the answers one thread gets, and leave mpmath's precision as it was.

mpmath's working precision is one per process: two calls whose `mpmath.workdps` blocks interleave left the process
at the precision of one of them (103 bits instead of 53 after concurrent Laplace calls), and ran a block at the
other call's precision (concurrent `BBGN19.Lem5.3.exact_laplace` calls were refused in 3 of 26). The entry points
run one at a time (`interface/entry_points.py`).
"""

import threading

import mpmath

import shuffle_spec
from shuffle_spec.reference.bounds import erlingsson

POINT = dict(eps0=0.5, n=10_000, delta=1e-6)


def test_two_threads_calling_at_once_leave_the_precision_and_the_values_of_one_thread(monkeypatch):
    alone = float(shuffle_spec.shuffled_epsilon("EFMRTT19.Thm7.v2", **POINT))
    precision = mpmath.mp.prec
    first_inside, second_inside, first_done = threading.Event(), threading.Event(), threading.Event()
    evaluate = erlingsson._general_v2_mp

    def held_open(*args):
        # Inside the statement's 60-digit block: the first call waits for the second to be inside its own block
        # too, and the second stays there until the first has returned (the interleaving that left the process
        # at the first call's precision). One call at a time: the first waits in vain (a timeout), then the second runs.
        if threading.current_thread().name == "first":
            first_inside.set()
            second_inside.wait(0.3)
        else:
            second_inside.set()
            first_done.wait(5)
        return evaluate(*args)

    monkeypatch.setattr(erlingsson, "_general_v2_mp", held_open)
    results = {}

    def call(name):
        results[name] = float(shuffle_spec.shuffled_epsilon("EFMRTT19.Thm7.v2", **POINT))

    first = threading.Thread(target=call, args=("first",), name="first")
    second = threading.Thread(target=call, args=("second",), name="second")
    first.start()
    assert first_inside.wait(5)
    second.start()
    first.join(10)
    first_done.set()
    second.join(10)
    assert results == {"first": alone, "second": alone}
    assert mpmath.mp.prec == precision


def test_a_time_budget_of_tightest_outside_the_main_thread_is_refused_naming_it():
    """The budget is enforced by SIGALRM, which only the main thread receives: in another thread `tightest(...,
    time_budget=0.01)` at k = 3, n = 1e6, delta = 1e-9 ran 9.6 s and answered, the budget silently ignored."""
    outcome = {}

    def call():
        try:
            outcome["answer"] = shuffle_spec.tightest(eps0=1.0, n=1000, delta=1e-6, k=3, time_budget=0.01)
        except shuffle_spec.ParameterError as refusal:
            outcome["refusal"] = refusal

    worker = threading.Thread(target=call)
    worker.start()
    worker.join(30)
    assert "refusal" in outcome, outcome
    assert outcome["refusal"].name == "time_budget" and "main thread" in str(outcome["refusal"]) and "\n" not in str(outcome["refusal"])
