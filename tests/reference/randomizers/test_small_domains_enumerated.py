"""Every deployed randomizer's certified bounds, through the front door (`certify`), against the exact central epsilon
by full enumeration of every pair of neighbouring datasets (`reference/finite/shuffling.py`, exact_shuffled_e_eps)
on the smallest domains, d = 2 included (where no third input exists: a lower bound's pair may put the others only
at x or x'). e^eps0 is irrational: the bounds are computed at exact rationals around it (each module's `side`), and the
exact value is non-decreasing in e^eps0 (a post-processing of each report: the modules' docs), so the upper bound must
be at least the exact value at the rational just below e^eps0 and the lower bound at most the one just above it."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from shuffle_spec.interface.certify import certify
from shuffle_spec.reference.finite.randomizers import Randomizer
from shuffle_spec.reference.finite.shuffling import exact_shuffled_e_eps
from shuffle_spec.reference.randomizers import hadamard, local_hashing, subset_selection, unary

N, DELTA = 2, Fraction(1, 10)


def _mechanism(name: str, eps0: float, d: int, side: str):
    if name == "rappor":
        return unary.symmetric_rappor(eps0, d, side=side)
    if name == "oue":
        return unary.optimized_unary_encoding(eps0, d, side=side)
    if name == "blh":
        return local_hashing.local_hashing(eps0, d, 2, side=side)
    if name == "olh":
        return local_hashing.local_hashing(eps0, d, local_hashing.olh_range(eps0), side=side)
    if name == "hadamard":
        return hadamard.hadamard_response(eps0, d, side=side)
    return subset_selection.subset_selection(eps0, d, subset_selection.optimal_subset_size(eps0, d), side=side)


CASES = [(name, d, eps0) for name in ("rappor", "oue", "blh", "hadamard", "subset") for d in (2, 3) for eps0 in (0.5, 1.5)]
CASES += [("olh", 2, 0.5), ("olh", 2, 1.5), ("olh", 3, 0.5)]  # OLH's g = round(e^eps0) + 1: 3, 5, 3 hash values


@pytest.mark.slow
@pytest.mark.parametrize(("name", "d", "eps0"), CASES, ids=lambda v: str(v))
def test_certified_bounds_bracket_the_enumerated_value(name, d, eps0):
    answer = certify(name, d=d, eps0=eps0, n=N, delta=float(DELTA))
    below = math.log(exact_shuffled_e_eps(Randomizer.from_matrix(_mechanism(name, eps0, d, "lower").rows()), N, DELTA))
    above = math.log(exact_shuffled_e_eps(Randomizer.from_matrix(_mechanism(name, eps0, d, "upper").rows()), N, DELTA))
    assert below <= above
    assert answer.upper >= below * (1 - 1e-12), (answer.upper, below)
    if answer.lower is not None:
        assert answer.lower <= above * (1 + 1e-12), (answer.lower, above)
