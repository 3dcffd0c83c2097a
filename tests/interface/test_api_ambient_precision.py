"""An API call computes at mpmath's default precision whatever precision its caller's process was left at.

After `mpmath.mp.dps = 5` in a notebook, `composed_epsilon("compose.krr", rounds=2, eps0=1, n=50, delta=1e-6, k=3)`
gave the certified upper end 0.9371181353024648 instead of 0.937118137191899 (lower: steps outside their own
precision blocks rounded at the caller's 5 digits), and the caches kept such values for later calls
(`interface/entry_points.py`).
"""

import sys

import mpmath

import shuffle_spec

MATRIX = [["3/4", "1/4"], ["1/4", "3/4"]]


def empty_the_caches():
    """The lru_caches of the compositions and of the matrix's blanket bound: the next composition is computed afresh
    (caches only save time)."""
    for name, module in list(sys.modules.items()):
        if name.startswith(("shuffle_spec.reference.composition", "shuffle_spec.reference.bounds.blanket_exact_randomizer")) and module is not None:
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def composed():
    return shuffle_spec.composed_epsilon("compose.finite", rounds=2, n=21, delta=1e-6, matrix=MATRIX)


def test_a_composition_is_the_same_float_at_any_precision_of_the_caller():
    empty_the_caches()
    at_default = composed()
    empty_the_caches()
    with mpmath.workdps(5):
        at_five_digits = composed()
        assert mpmath.mp.dps == 5  # the caller's precision, back after the call
    empty_the_caches()
    assert (at_five_digits.interval, at_five_digits.value) == (at_default.interval, at_default.value)
