"""The saddlepoint aim of the structured upper bounds (`saddle_blanket_root`, uncertified: it only places the
certified search) with its eps-independent parts kept (`_saddle_sizes`: the blanket sizes and their binomial
weights; `_saddle_root`: the root of one (n, gamma, groups, delta, eps0)): the same floats as the computation from
scratch, so every certified search is aimed at the same points as before."""

import math
from fractions import Fraction

import numpy as np

from shuffle_spec.reference.bounds import blanket_exact_randomizer as bx
from shuffle_spec.reference.numerics.lattice_sums import binomial_law, binomial_window
from shuffle_spec.reference.randomizers.subset_selection import subset_selection

PAIR = subset_selection(2.0, 50, 7).replace_pairs()[0]  # four groups: the subset selection pair


def _delta_from_scratch(n, gamma, groups, eps, delta_hint):
    """saddle_blanket_delta as written before the sizes were kept (the window rebuilt at every eps)."""
    window = binomial_window(n - 1, binomial_law(gamma), max(min(1e-30, delta_hint * 1e-12), 1e-300))
    big_ns = np.arange(window.lo, window.hi + 1, dtype=float) + 1
    d = np.minimum(bx.saddle_expectations(big_ns, groups, eps) / big_ns, 1.0)
    return float(np.sum(window.upper * d))


def test_kept_sizes_give_the_same_delta_estimate():
    for n, eps in ((400, 0.3), (5000, 0.08), (5000, 1.2)):
        assert bx.saddle_blanket_delta(n, PAIR.gamma, [PAIR.groups], eps, 1e-6) == _delta_from_scratch(n, PAIR.gamma, PAIR.groups, eps, 1e-6)


def test_kept_root_is_the_root_found_from_scratch():
    n, delta, eps0 = 3000, 1e-6, 2.0000001
    bx._saddle_root.cache_clear()
    first = bx.saddle_blanket_root(n, PAIR.gamma, [PAIR.groups], delta=delta, eps0=eps0)
    again = bx.saddle_blanket_root(n, PAIR.gamma, [PAIR.groups], delta=delta, eps0=eps0)
    scratch = bx._saddle_root.__wrapped__(n, PAIR.gamma, (PAIR.groups,), delta, eps0)
    assert first is not None and first == again == scratch
    assert bx._saddle_root.cache_info().hits >= 1
    # The root is where the estimate crosses delta (relative 1e-6): below it the estimate is above delta.
    below = bx.saddle_blanket_delta(n, PAIR.gamma, [PAIR.groups], first * (1 - 1e-4), delta)
    above = bx.saddle_blanket_delta(n, PAIR.gamma, [PAIR.groups], first * (1 + 1e-4), delta)
    assert below > delta >= above
    assert not math.isnan(first) and 0 < first < eps0
    assert bx.saddle_blanket_root(n, Fraction(1), [PAIR.groups], delta=delta, eps0=eps0) is None  # gamma = 1: no blanket randomness
