"""A time limit at its edges: an expiry that arrives while the limit itself is being armed or taken down.

A budget of a few microseconds (`time_budget=1e-6`, `1e-9`) expired before the limited block had begun, inside the
limit's own set-up: the expiry left the API as `TimeLimitInterrupt` (a BaseException, which `except Exception` of a
service does not catch, instead of the one-line `TimeLimitExceeded`) and the limit's SIGALRM handler stayed installed
after the call. A long-lived process (a notebook, a service) must find the signal state it had before the call.
"""

import signal

import pytest

import shuffle_spec
from shuffle_spec.interface.limits import TimeLimitExceeded, time_limit


def signal_state():
    return signal.getsignal(signal.SIGALRM), signal.getitimer(signal.ITIMER_REAL)


def test_a_limit_that_expires_before_its_block_begins_is_a_time_limit_exceeded_and_leaves_no_handler():
    before = signal_state()
    for seconds in (1e-9, 1e-6, 2e-6):
        with pytest.raises(TimeLimitExceeded, match="over"):
            with time_limit(seconds):
                sum(range(10**6))  # 20-40 ms: the limit expires, during its set-up or in the block
        assert signal_state() == before


def test_limits_expiring_around_their_own_set_up_and_take_down_never_escape_untyped():
    """Expiries from before the block to after it: each limit ends as TimeLimitExceeded or, when the block had
    finished, not at all, and the process's signal state is the one before."""
    before = signal_state()
    outcomes = set()
    for i in range(300):
        try:
            with time_limit(1e-6 * (1 + i % 60)):
                pass
            outcomes.add("finished")
        except TimeLimitExceeded:
            outcomes.add("expired")
        assert signal_state() == before
    assert "expired" in outcomes  # the limits did expire, at some of these points


@pytest.mark.parametrize("call", [
    lambda budget: shuffle_spec.tightest(eps0=1.0, n=1000, delta=1e-6, k=3, time_budget=budget),
    lambda budget: shuffle_spec.shuffled_delta("EFMRTT19.Thm7", eps=0.2, eps0=0.4, n=10_000, time_budget=budget),
    lambda budget: shuffle_spec.composed_epsilon("compose.clones", rounds=10, eps0=1.0, n=10_000, delta=1e-6, time_budget=budget),
], ids=["tightest", "shuffled_delta", "composed_epsilon"])
def test_a_tiny_time_budget_of_the_api_is_the_budget_line_and_leaves_no_handler(call):
    before = signal_state()
    for budget in (1e-9, 1e-6):
        with pytest.raises(TimeLimitExceeded) as stopped:
            call(budget)
        assert "time budget" in str(stopped.value) and "\n" not in str(stopped.value)
        assert signal_state() == before
