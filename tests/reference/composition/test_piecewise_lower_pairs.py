"""The composed LOWER bound of compose.randomizer for the piecewise mechanism (reference/composition/finite_pairs.py,
`piecewise_count_pairs`, composed by explicit_pairs through blanket_lower).

The exact yardstick: the lower bound's pairs are binned pairs of the coarsened piecewise mechanism whose rows
`partition_rows(eps0)` gives in exact Fractions (reports cut into three cells, then a rounding channel shared by every
input: a post-processing, module doc of reference/randomizers/piecewise.py). At n = 3, T = 2 and n = 2, T = 3 the shuffled
outputs of every pair of neighbouring datasets of that 3 x 3 randomizer are enumerated exactly and the T-fold
product's hockey-stick divergence evaluated, maximised over the datasets and the mixes of directions: that maximum is
at most the piecewise mechanism's worst case, and the certified composed lower bound must be at most it.
"""

from __future__ import annotations

import math

import pytest

from shuffle_spec.reference.composition.blanket_lower import blanket_lower_epsilon
from shuffle_spec.reference.composition.blanket_rounds import BlanketRound, _validate_schedule, compose_randomizer
from shuffle_spec.reference.composition.finite_pairs import piecewise_count_pairs
from shuffle_spec.reference.composition.shuffled_rounds import Round
from shuffle_spec.reference.composition.shuffled_rounds import composed_epsilon as clones_composed_epsilon
from shuffle_spec.reference.finite.randomizers import Randomizer
from shuffle_spec.reference.randomizers.piecewise import partition_rows, piecewise_epsilon_lower

from .test_blanket_rounds import _worst_product_delta

DELTA = 0.01


def _lower(eps0: float, n: int, rounds: int, delta: float = DELTA) -> tuple[float, str]:
    return blanket_lower_epsilon(_validate_schedule([BlanketRound("piecewise", eps0, n, rounds)]), delta=delta)


def test_the_pairs_are_binned_pairs_of_the_coarsened_rows():
    """Every candidate's three laws are rows of partition_rows (adaptive or unit cells), or two of their cells
    merged: binned pairs of the coarsened mechanism itself (module doc of finite_pairs)."""
    for eps0 in (0.5, 1.0, 4.0):
        rows = [tuple(r) for cells in ("adaptive", "unit") for r in partition_rows(eps0, cells=cells)]
        merged = {tuple(sorted(((r[0] + r[1], r[2]), (r[0], r[1] + r[2]), (r[0] + r[2], r[1])))) for r in rows}
        for pair in piecewise_count_pairs(eps0=eps0):
            for law in (pair.x, pair.x2, pair.z):
                assert all(lo == hi for lo, hi in law)  # exact rationals
                values = tuple(lo for lo, _ in law)
                assert values in rows or any(values in group for group in merged), (eps0, pair.description)


@pytest.mark.parametrize(("eps0", "n", "rounds"), [(math.log(9), 3, 2), pytest.param(1.0, 2, 3, marks=pytest.mark.slow)])  # T = 3: 3 s
def test_composed_lower_is_below_the_exact_composed_epsilon_and_close_to_it(eps0, n, rounds):
    """Below the enumerated worst case of the coarsened mechanism (every neighbouring pair of datasets and every
    direction mix) and, teeth, within 10% of it: the lower bound times 1.1 is above the truth of the coarsened
    mechanism (a planted 1.1x inflation would fail the first assertion)."""
    low, which = _lower(eps0, n, rounds)
    assert low > 0 and "piecewise cell pair" in which
    coarsened = Randomizer.from_matrix(partition_rows(eps0))
    assert _worst_product_delta(coarsened, n, rounds, low * (1 - 1e-9)) > DELTA, low
    assert _worst_product_delta(coarsened, n, rounds, low * 1.1) <= DELTA, low


@pytest.mark.parametrize("eps0", [0.5, 4.0])  # the unit cells win at 0.5, the adaptive ones at 4
def test_one_round_is_the_single_round_lower_bound(eps0):
    """T = 1 composes one round of the single-round lower bound's best pair: at most the upper end of its certified
    interval (the pair's exact epsilon lies in it) and within 0.1% of its lower end (n = 1e3, delta = 1e-6)."""
    n = 10**3
    single = piecewise_epsilon_lower(eps0=eps0, n=n, delta=1e-6)
    one, _ = _lower(eps0, n, 1, 1e-6)
    assert one <= single.upper
    assert one >= 0.999 * single.lower


@pytest.mark.parametrize(("eps0", "n", "rounds"), [pytest.param(1.0, 10**4, 100, marks=pytest.mark.slow), (4.0, 10**4, 100)])
def test_composed_lower_is_below_the_generic_composed_upper(eps0, n, rounds):
    """Below the clone pair's certified composition (compose.clones, valid for every eps0-LDP randomizer,
    FMT21) and rising with T (more rounds of the same pair leak more: the pair composed fewer times is a
    post-processing of it)."""
    low, _ = _lower(eps0, n, rounds, 1e-6)
    fewer, _ = _lower(eps0, n, rounds // 10, 1e-6)
    clones = clones_composed_epsilon([Round("clones", eps0, n, rounds)], delta=1e-6).upper
    assert 0 < fewer < low <= clones


@pytest.mark.slow  # the piecewise envelope (Lemma 5.3 lattice sums at each node): about 10 s each at n = 30
@pytest.mark.parametrize("eps0", [0.5, 4.0])
def test_compose_randomizer_piecewise_has_a_positive_lower_end_below_its_upper_end(eps0):
    """compose.randomizer's interval: its lower end (this composition; it was 0) below its certified upper end."""
    value = compose_randomizer(randomizer="piecewise", eps0=eps0, n=30, delta=1e-6, rounds=10)
    assert 0 < value.lower <= value.upper
    assert "piecewise cell pair" in value.note
