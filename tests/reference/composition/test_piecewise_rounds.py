"""compose.randomizer for the piecewise mechanism (reference/composition/blanket_rounds.py, B1's piecewise entry).

The exact yardstick (as for Laplace in test_blanket_rounds.py): every report binned to the cells (-inf, -1),
[-1, 1], (1, inf) is a post-processing of the shuffled piecewise reports, so the exact epsilon of T rounds of the
binned mechanism (inputs -1, 0, 1; every neighbouring pair of datasets and every mix of directions, enumerated)
is a LOWER bound on the piecewise mechanism's. At h = e^(eps0/2) = 3 the cell laws are exact rationals
(module doc of reference/randomizers/piecewise.py, tau = 1 since h >= 2): s = 1/(h (h + 1)) = 1/12,
kappa = (h - 1)/h = 2/3, input -1: (3/4, 1/6, 1/12), input 0: (1/12, 5/6, 1/12), input 1: (1/12, 1/6, 3/4).
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from shuffle_spec.reference.composition.blanket_rounds import BlanketRound, compose_randomizer, composed_epsilon
from shuffle_spec.reference.finite.randomizers import Randomizer
from shuffle_spec.reference.randomizers.piecewise import piecewise_epsilon_upper

from .test_blanket_rounds import DELTA, _worst_product_delta

S, KAPPA = Fraction(1, 12), Fraction(2, 3)
BINNED = [[S + KAPPA, 1 - 2 * S - KAPPA, S], [S, 1 - 2 * S, S], [S, 1 - 2 * S - KAPPA, S + KAPPA]]
# eps0 a little above log 9: the reference rounds h = e^(eps0/2) up to a rational >= 3, and its bound at h' >= 3
# is >= the bound at h = 3 (module doc of piecewise.py, "Rounding h"), so it covers the mechanism at h = 3.
EPS0 = math.log(9) + 1e-9


def test_binned_laws_are_the_piecewise_cells_at_h_3():
    """The rows above from the density (C = 2, p = 3/4, low density p / 9 = 1/12 over length 3 - 1 = 2 for the
    centre cell): the piece of -1 is [-2, -1] with mass h / (h + 1) = 3/4."""
    h = Fraction(3)
    c = (h + 1) / (h - 1)
    p = h * (h - 1) / (2 * (h + 1))
    low = p / h**2
    assert (c, p, low) == (2, Fraction(3, 4), Fraction(1, 12))
    assert BINNED[0] == [p * (c - 1), low * 2, low * (c - 1)]  # piece [-2, -1]; centre [-1, 1]; (1, 2]
    assert all(sum(row) == 1 for row in BINNED)


@pytest.mark.slow  # the piecewise envelope at n = 3 (Lemma 5.3 lattice sums at each node) and the enumeration
def test_piecewise_composed_upper_is_above_the_binned_lower_bound():
    n, rounds = 3, 3
    value = composed_epsilon([BlanketRound("piecewise", EPS0, n, rounds)], delta=DELTA, generic=False)
    binned = Randomizer.from_matrix(BINNED)
    assert _worst_product_delta(binned, n, rounds, value.upper) <= DELTA * (1 + 1e-12), value.upper
    # Teeth: the binned mechanism's composed delta at half the certified value is above delta.
    assert _worst_product_delta(binned, n, rounds, value.upper / 2, mixed=False) > DELTA


@pytest.mark.slow
def test_piecewise_one_round_and_many_rounds():
    """T = 1 is at least the single-round certified value's lower end and within 2% of its upper end (the
    chord between nodes); T = 10 is below the generic clone pair's composition (the point of the envelope)."""
    eps0, n = 1.0, 30
    single = piecewise_epsilon_upper(eps0=eps0, n=n, delta=1e-6)
    one = composed_epsilon([BlanketRound("piecewise", eps0, n, 1)], delta=1e-6, generic=False).upper
    assert single.lower <= one <= single.upper * 1.02
    ten = compose_randomizer(randomizer="piecewise", eps0=eps0, n=n, delta=1e-6, rounds=10)
    assert "generic clone pair" not in ten.note  # the envelope's value, below the clones'
