"""exact.randomizer_pair's candidate order (`ranked_candidates`, shared by the finite-matrix pair search and the
structured randomizers' pattern search): one candidate per distinct (coefficients, law), sorted by decreasing
chi-square distance sum_y (p_x(y) - p_x'(y))^2 / p_z(y) of the merged rows. Checked against a recomputation from
the definition with exact Fractions."""

from fractions import Fraction

from shuffle_spec.reference.bounds.blanket_exact_randomizer import finite_randomizer, group_outputs
from shuffle_spec.reference.lower_bounds.randomizer import MAX_CANDIDATES, candidate_bins, ranked_candidates

MATRIX = [["1/2", "3/10", "1/5"], ["1/5", "1/2", "3/10"], ["3/10", "1/5", "1/2"], ["1/3", "1/3", "1/3"]]


def _merged(row, bins):
    return [sum((row[y] for y in b), Fraction(0)) for b in bins]


def test_candidates_are_distinct_and_sorted_by_decreasing_chi_square():
    randomizer = finite_randomizer(MATRIX)
    rows = randomizer.rows
    found = ranked_candidates(randomizer)
    assert 0 < len(found) <= MAX_CANDIDATES

    def chi(c):
        px, px2, pz = (_merged(rows[i], c.bins) for i in (c.x, c.x2, c.z))
        return sum((a - b) ** 2 / w for a, b, w in zip(px, px2, pz, strict=True))

    values = [chi(c) for c in found]
    assert all(a >= b for a, b in zip(values, values[1:], strict=False))  # decreasing chi-square (exact Fractions)
    keys = [group_outputs(*(_merged(rows[i], c.bins) for i in (c.x, c.x2, c.z))) for c in found]
    assert len(set(keys)) == len(keys)  # one candidate per distinct (coefficients, law)
    # Every (x, x', z, bins) of the definition has its (coefficients, law) among the candidates (none lost).
    every = {
        group_outputs(_merged(rows[x], bins), _merged(rows[x2], bins), _merged(rows[z], bins))
        for x in range(randomizer.k) for x2 in range(randomizer.k) if x != x2
        for bins in candidate_bins(randomizer, x, x2) for z in range(randomizer.k)
    }
    assert every == set(keys)
