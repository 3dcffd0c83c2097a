"""The reversed tail sums of a binary-RR pair's long window are filled on demand (`_Pair._reversed_tail`,
`reference/exact/binary_rr.py`): every entry must be the same float as one cumulative sum over the whole window gives
(numpy's cumsum, the former set-up), whatever order the queries come in, so that every certified value stays the
same bit for bit."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_spec.reference.exact.binary_rr import _Pairs


@settings(max_examples=15, deadline=None)
@given(ones=st.integers(0, 30), stops=st.lists(st.integers(0, 5000), min_size=1, max_size=6))
def test_on_demand_tail_sums_are_the_full_cumulative_sums(ones, stops):
    pair = _Pairs(1.0, 1e-9).get(4000, ones)
    _, short, long_, _, _, _ = pair._setup
    reversed_long = long_.pmf[::-1].copy()
    full = np.concatenate(([0.0], np.cumsum(reversed_long)))  # the former set-up, in one pass
    for stop in stops:
        stop = min(stop, len(full))
        got = pair._reversed_tail(stop)
        assert got[:stop].tobytes() == full[:stop].tobytes()
    assert pair._reversed_tail(len(full)).tobytes() == full.tobytes()


def test_tail_probabilities_read_the_filled_sums():
    # T(t) = Pr[S >= t] from the on-demand sums against the sum of the windowed pmf (the same up to rounding), at
    # counts from below the window (the whole tail: the last entry) to above it (nothing).
    pair = _Pairs(1.0, 1e-9).get(4000, 7)
    bottom, top = pair.support
    for t in (bottom - 5, bottom, (bottom + top) // 2, top, top + 3):
        f = [pair._f(s) for s in range(max(t, bottom), top + 1)]
        assert abs(pair._t(t) - sum(f)) <= 1e-12 * max(sum(f), 1e-300)


def test_a_windows_total_and_largest_are_its_fresh_reductions():
    """`_Window.total` / `.largest` (computed once: a pair's set-up and its point bound read them up to four times)
    are the floats np.sum and np.max give on the window, for the short and the long window of a pair (the values of
    exact.shuffled_binary_rr at the 24 points of benchmarks/tightest_speed.py's k = 2 grid were compared with the
    code that reduced each time: identical)."""
    pair = _Pairs(1.0, 1e-9).get(4000, 7)
    _, short, long_, _, _, _ = pair._setup
    for window in (short, long_):
        assert window.total == float(np.sum(window.pmf)) and window.largest == float(np.max(window.pmf))
