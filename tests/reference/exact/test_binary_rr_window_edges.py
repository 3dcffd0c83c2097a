"""exact.shuffled_binary_rr's certified windows: the dropped mass of a window is the certified Chernoff tail just
outside each edge, whichever way it is computed. The edge searches keep the tail exponents they computed
(`_edge(..., memo)`), and the window reads the ones just outside its edges from there: each must be the value a
fresh `_log_tail` gives at that count (a wrong key, one count off, would move the dropped mass)."""

from __future__ import annotations

import math

import pytest

from shuffle_spec.reference.exact import binary_rr as ebr


@pytest.mark.parametrize("eps0, m, ones", [(0.5, 9_000, False), (0.5, 1_000, True), (4.0, 999_000, False), (4.0, 50_000, True), (8.0, 200, False), (1.0, 3, True)])
def test_the_dropped_mass_is_the_fresh_tail_just_outside_each_edge(eps0, m, ones):
    keep, flip = ebr._keep_pair(eps0)
    pair = keep if ones else flip
    log_tail, log_scale = ebr._tail_for(1e-9), 0.5 * ebr._log_scale(1e-9)
    window = ebr._scaled_window(m, pair, log_tail, log_scale)
    below = 0.0 if window.lo == 0 else ebr._exp_up(ebr._log_tail(window.lo - 1, m, pair) - log_scale)
    above = 0.0 if window.hi == m else ebr._exp_up(ebr._log_tail(window.hi + 1, m, pair) - log_scale)
    assert (below + above).hex() == window.dropped.hex()
    # The edges are where the search put them (the memo only saves recomputation): verified tails on both sides.
    for x in [x for x in (window.lo - 1, window.hi + 1) if 0 <= x <= m]:
        assert ebr._log_tail(x, m, pair) <= log_tail - math.log(2)


def test_the_memo_holds_every_tail_the_search_computed():
    keep, _ = ebr._keep_pair(1.0)
    memo: dict[int, float] = {}
    edge = ebr._edge(20_000, keep, -40.0, -1, memo)
    assert edge - 1 in memo  # the verified count just outside the edge
    assert all(value == ebr._log_tail(x, 20_000, keep) for x, value in memo.items())
    assert ebr._edge(20_000, keep, -40.0, -1) == edge  # the same edge without a memo
