"""The Chernoff screen of the pair lower bounds (exact.randomizer_pair, `reference.lower_bounds.randomizer`): an upper
bound on the pair's exact delta, so that skipping a candidate on it skips only what the certified lattice-sum check
would skip; and the lower bounds it speeds up are the same numbers with and without it."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import pytest

import shuffle_spec.reference.lower_bounds.randomizer as pair_module
import shuffle_spec.reference.lower_bounds.structured as structured_module
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.lower_bounds.randomizer import pair_delta_chernoff_upper, randomizer_pair_delta
from shuffle_spec.reference.randomizers import local_hashing, unary

F = Fraction


def _exact_pair_delta(rows: list[list[Fraction]], x: int, x2: int, z: int, n: int, eps: float) -> mpmath.mpf:
    """(1/n) E[(sum_y a_y h_y)_+], h ~ Mult(n; mu_z), a_y = (mu_x(y) - e^eps mu_x'(y)) / mu_z(y): every histogram
    of n reports enumerated, at 50 digits (the exact pair divergence of the module doc, term by term)."""
    m = len(rows[0])
    with mpmath.workdps(50):
        e = mpmath.exp(mpmath.mpf(eps))
        mp_rows = [[mpmath.mpf(v.numerator) / v.denominator for v in row] for row in rows]
        a = [(mp_rows[x][y] - e * mp_rows[x2][y]) / mp_rows[z][y] for y in range(m)]
        total = mpmath.mpf(0)
        for h in itertools.product(range(n + 1), repeat=m):
            if sum(h) != n:
                continue
            s = mpmath.fsum(c * k for c, k in zip(a, h, strict=True))
            if s > 0:
                weight = mpmath.factorial(n) * mpmath.fprod(mp_rows[z][y] ** h[y] / mpmath.factorial(h[y]) for y in range(m))
                total += weight * s
        return total / n


@pytest.mark.parametrize("eps", [0.05, 0.4, 0.9])
def test_chernoff_screen_is_above_the_exact_pair_delta(eps):
    # A 3 x 3 randomizer with unequal rows (ratio 3, eps0 = log 3 = 1.0986): every ordered (x, x', z), n = 6, full enumeration.
    rows = [[F(1, 2), F(1, 3), F(1, 6)], [F(1, 6), F(1, 2), F(1, 3)], [F(1, 3), F(1, 6), F(1, 2)]]
    checked = 0
    for x, x2, z in itertools.permutations(range(3)):
        exact = _exact_pair_delta(rows, x, x2, z, 6, eps)
        screen = pair_delta_chernoff_upper(matrix=rows, n=6, eps=eps, x=x, x2=x2, z=z)
        assert screen >= exact
        checked += exact > 0
    assert checked > 0  # the comparison is not only between zeros


def test_chernoff_screen_is_above_the_certified_lattice_sum_at_large_n():
    # The OUE pattern randomizer merged into 3 bins, user 1 at x' vs x: the screen is above the certified interval's
    # lower end, and within a factor 10 of its upper end at n = 1e4 where delta is 1e-2 .. 1e-6 (the screen can
    # skip: Chernoff is only polynomially loose; 1.8x at delta ~ 3e-3, 3.5x at ~ 5e-6 measured).
    rows = unary.optimized_unary_encoding(2.0, 1000, side="lower").pattern_rows()
    keep = [j for j in range(8) if any(r[j] > 0 for r in rows)]
    matrix = [[r[j] for j in keep] for r in rows]
    bins = [[0, 1], [2, 3], list(range(4, len(keep)))]
    for eps in (0.01, 0.03, 0.05):
        certified = randomizer_pair_delta(matrix=matrix, n=10**4, eps=eps, x=1, x2=0, z=0, bins=bins)
        screen = pair_delta_chernoff_upper(matrix=matrix, n=10**4, eps=eps, x=1, x2=0, z=0, bins=bins)
        assert 1e-6 < certified.lower <= screen <= 10 * certified.upper


def test_chernoff_screen_refuses_bad_inputs_in_one_line():
    rows = [[F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]]
    with pytest.raises(ParameterError, match="x2"):
        pair_delta_chernoff_upper(matrix=rows, n=10, eps=0.1, x=0, x2=5, z=0)
    with pytest.raises(ParameterError, match="eps"):
        pair_delta_chernoff_upper(matrix=rows, n=10, eps=-1.0, x=0, x2=1, z=0)


@pytest.mark.parametrize("mechanism", ["rappor", pytest.param("blh", marks=pytest.mark.slow)])
def test_lower_bounds_are_the_same_numbers_with_and_without_the_screen(monkeypatch, mechanism):
    # The screen only skips candidates the lattice-sum check would skip: the lower bound is bit-identical.
    rows = (unary.symmetric_rappor(2.0, 100, side="lower") if mechanism == "rappor" else local_hashing.local_hashing(4.0, 100, 2, side="lower")).pattern_rows()
    with_screen = structured_module.pattern_pair_epsilon(rows=rows, n=300, delta=1e-6, labels=["x", "x'", "z"])
    monkeypatch.setattr(pair_module, "screened_out", lambda *args: False)
    monkeypatch.setattr(structured_module, "screened_out", lambda *args: False)
    without = structured_module.pattern_pair_epsilon(rows=rows, n=300, delta=1e-6, labels=["x", "x'", "z"])
    assert with_screen.lower == without.lower and with_screen.note == without.note
    assert with_screen.lower > 0 and math.isfinite(with_screen.lower)
