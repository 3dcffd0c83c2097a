"""Proof checks for the exact central privacy of small shuffled finite randomizers (`exact.shuffled_finite`,
`exact.shuffled_krr`, spec/derived/exact/finite.py): the reference's exact delta equals an independent brute force in
SymPy rationals over every neighbouring dataset."""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp

from ..framework import proof_check, require
from ...reference.exact.krr import exact_shuffled_krr_delta
from ...reference.finite.randomizers import Randomizer
from ...reference.finite.shuffling import exact_shuffled_delta


def _brute_force_delta(rows: list[list[sp.Rational]], n_users: int, e_eps: sp.Rational) -> sp.Rational:
    """max over ordered datasets differing in the last user of max(D(P||Q), D(Q||P)), histograms of reports,
    by enumerating every sequence of outputs (no symmetry, no shared code with the reference)."""
    inputs, outputs = range(len(rows)), range(len(rows[0]))

    def histogram_distribution(dataset):
        dist: dict[tuple, sp.Rational] = {}
        for sequence in itertools.product(outputs, repeat=len(dataset)):
            probability = sp.prod([rows[x][y] for x, y in zip(dataset, sequence, strict=True)])
            key = tuple(sequence.count(y) for y in outputs)
            dist[key] = dist.get(key, 0) + probability
        return dist

    def hockey(p, q):
        return sum((sp.Max(p[z] - e_eps * q.get(z, 0), 0) for z in p), sp.Integer(0))

    worst = sp.Integer(0)
    for rest in itertools.product(inputs, repeat=n_users - 1):
        for x, x2 in itertools.permutations(inputs, 2):
            p, q = histogram_distribution(rest + (x,)), histogram_distribution(rest + (x2,))
            worst = sp.Max(worst, hockey(p, q), hockey(q, p))
    return worst


def _to_fraction(value: sp.Rational) -> Fraction:
    value = sp.Rational(value)
    return Fraction(int(value.p), int(value.q))


@proof_check("exact.shuffled_krr", "symmetry-reduced exact delta = SymPy brute force over all datasets (k, n small)")
def krr_matches_brute_force() -> None:
    for k, n_users, e0, e in ((2, 4, sp.Rational(3), sp.Rational(3, 2)), (3, 3, sp.Rational(2), sp.Rational(5, 4)), (4, 2, sp.Rational(5), sp.Integer(2))):
        keep, other = e0 / (e0 + k - 1), 1 / (e0 + k - 1)
        rows = [[keep if y == x else other for y in range(k)] for x in range(k)]
        expected = _to_fraction(_brute_force_delta(rows, n_users, e))
        got = exact_shuffled_krr_delta(k, _to_fraction(e0), n_users, _to_fraction(e))
        require(got == expected, f"k={k}, n={n_users}: reference {got} vs brute force {expected}")


@proof_check("exact.shuffled_finite", "exact shuffled delta of a finite randomizer = SymPy brute force")
def finite_matches_brute_force() -> None:
    rows = [[sp.Rational(1, 2), sp.Rational(1, 3), sp.Rational(1, 6)], [sp.Rational(1, 4), sp.Rational(1, 4), sp.Rational(1, 2)], [sp.Rational(1, 3), sp.Rational(1, 2), sp.Rational(1, 6)]]
    randomizer = Randomizer.from_matrix([[_to_fraction(p) for p in row] for row in rows])
    for n_users, e in ((2, sp.Rational(6, 5)), (3, sp.Integer(1)), (3, sp.Rational(3, 2))):
        expected = _to_fraction(_brute_force_delta(rows, n_users, e))
        got = exact_shuffled_delta(randomizer, n_users, _to_fraction(e))
        require(got == expected, f"n={n_users}, e^eps={e}: reference {got} vs brute force {expected}")
