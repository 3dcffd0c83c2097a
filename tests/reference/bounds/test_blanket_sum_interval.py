"""`blanket_exact_randomizer.blanket_sum` returns a well-formed certified interval (0 <= lower <= upper <= 1) also
where a caller's lower ends of D_N lie above 1: a raised sum (BBGN19.Lem5.3.exact_raised, one group's coefficient
raised to another's), whose D'_N = E[(L'_1 + ... + L'_N)_+] / N may exceed 1, with its upper ends capped at 1 as
every caller caps them. Both ends are checked against the sum from its definition (enumeration of the counts)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shuffle_spec.proofs_checks.derived.blanket_exact_randomizer import brute_force_expectation
from shuffle_spec.reference.bounds.blanket_exact_randomizer import blanket_sum, count_expectation, count_expectations
from shuffle_spec.reference.numerics.lattice_sums import U1
from shuffle_spec.reference.randomizers.raised_candidate import raised_groups
from shuffle_spec.reference.randomizers.subset_selection import subset_selection


@pytest.mark.parametrize("batched", [False, True])
def test_lower_ends_above_one_give_a_well_formed_interval_around_the_capped_sum(batched):
    # Subset selection d = 10, k = 3 at eps0 = 3, the raise of its first group to its third group's coefficient, at
    # eps = 0: the raised coefficients have mean sum_g p_g c'_g = 1.399 > 0 and D'_N >= 1.399 for every N (the lattice
    # sums' lower end; enumeration agrees). Before the fix the lower end of the sum (1 + 1.7e-12 here) exceeded its upper end,
    # capped at 1, and building the interval raised ValueError.
    pair = subset_selection(3.0, 10, 3).replace_pairs()[0]
    groups = next(g for i, j, g in raised_groups(pair.groups) if (i, j) == (0, 2))
    n, eps = 5, 0.0

    def d_n(big_n: int) -> tuple[float, float]:
        lo, hi = count_expectation(big_n, groups, eps)
        return lo / big_n / (1 + 2 * U1), min(1.0, hi / big_n * (1 + 2 * U1))

    def d_ns(big_ns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = count_expectations(big_ns.tolist(), groups, eps)
        return lo / big_ns / (1 + 2 * U1), np.minimum(1.0, hi / big_ns * (1 + 2 * U1))

    assert d_n(1)[0] > 1.39  # the case: a lower end of D'_1 above the capped upper end
    value = blanket_sum(n, pair.gamma, d_n, 0.5, batch=d_ns if batched else None)
    assert 0.0 <= value.lower <= value.upper <= 1.0
    # The quantity the capped ends bound: sum_N Pr[Bin(n - 1, gamma) = N - 1] min(D'_N, 1), D'_N by enumeration.
    gamma = float(pair.gamma)
    capped = sum(math.comb(n - 1, m - 1) * gamma ** (m - 1) * (1 - gamma) ** (n - m) * min(brute_force_expectation(m, groups, eps) / m, 1.0) for m in range(1, n + 1))
    assert value.lower <= capped * (1 + 1e-12) and capped <= value.upper * (1 + 1e-12)
