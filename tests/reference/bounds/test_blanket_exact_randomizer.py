"""A finite randomizer given as a matrix: the exact blanket bound (BBGN19.Lem5.3.exact_randomizer),
the pair lower bound (exact.randomizer_pair) and the gap in `audit randomizer` / the API.

Soundness is checked against the exact central epsilon of the full shuffled distribution (shuffle_spec.reference.finite.shuffling,
Fractions); the count expectations against brute-force enumeration; the k-RR case against
BBGN19.Lem5.3.exact_krr. Speed is not tested here (benchmarks/tight_randomizer.py)."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_spec.interface.audit.randomizer import audit_matrix
from shuffle_spec.reference.bounds.blanket_exact_krr import exact_blanket_krr_delta, exact_blanket_krr_epsilon
from shuffle_spec.reference.bounds.blanket_exact_randomizer import (
    blanket_pair_delta,
    count_expectation,
    exact_blanket_randomizer_delta,
    exact_blanket_randomizer_epsilon,
    fft_count_expectation_upper,
    finite_randomizer,
    group_outputs,
)
from shuffle_spec.reference.finite.divergences import hockey_stick_divergence
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.lower_bounds.randomizer import best_randomizer_pair, randomizer_pair_delta
from shuffle_spec.reference.finite.randomizers import Randomizer
from shuffle_spec.reference.finite.shuffling import exact_shuffled_delta, exact_shuffled_epsilon, shuffled_distribution
from shuffle_spec.spec.catalog import resolve
from shuffle_spec.proofs_checks.derived.blanket_exact_randomizer import brute_force_expectation



def random_matrix(seed: int, k: int, m: int) -> list[list[Fraction]]:
    rng = random.Random(seed)
    rows = []
    for _ in range(k):
        weights = [Fraction(rng.randint(1, 9)) for _ in range(m)]
        rows.append([w / sum(weights) for w in weights])
    return rows


def krr_matrix(k: int, eps0: float) -> list[list[float]]:
    e0 = math.exp(eps0)
    d = e0 + k - 1
    return [[e0 / d if i == j else 1 / d for j in range(k)] for i in range(k)]


def as_randomizer(rows: list[list[Fraction]]) -> Randomizer:
    return Randomizer.from_matrix([[str(v) for v in row] for row in rows])


# ---------------------------------------------------------------------------------------------------
# Soundness on small instances: lower <= exact central eps <= upper.

SMALL = [(seed, k, m, n) for seed, (k, m, n) in enumerate([(2, 2, 10), (2, 3, 8), (3, 2, 8), (3, 3, 6), (2, 4, 6), (4, 3, 4), (3, 4, 4), (4, 4, 3)])]


@pytest.mark.parametrize("seed,k,m,n", SMALL)
def test_upper_and_lower_bracket_the_exact_central_epsilon(seed, k, m, n):
    rows = random_matrix(seed, k, m)
    delta = 1e-3
    truth = exact_shuffled_epsilon(as_randomizer(rows), n, Fraction(1, 1000))
    upper = exact_blanket_randomizer_epsilon(matrix=rows, n=n, delta=delta)
    lower, choice = best_randomizer_pair(matrix=rows, n=n, delta=delta)
    assert upper.value >= truth * (1 - 1e-12), (upper, truth)
    assert lower.lower <= truth * (1 + 1e-12), (lower, truth)
    assert upper.value >= lower.lower
    assert choice is not None and choice.x != choice.x2


@settings(max_examples=12)
@given(
    st.integers(2, 3),
    st.integers(2, 3),
    st.integers(2, 6),
    st.lists(st.integers(1, 12), min_size=9, max_size=9),
    st.sampled_from([1e-2, 1e-4]),
)
def test_property_random_randomizers(k, m, n, weights, delta):
    rows = []
    for i in range(k):
        w = [Fraction(weights[(i * m + j) % 9]) for j in range(m)]
        rows.append([x / sum(w) for x in w])
    randomizer = finite_randomizer(rows)
    if randomizer.eps0 == 0:
        return
    truth = exact_shuffled_epsilon(as_randomizer(rows), n, Fraction(delta))
    upper = exact_blanket_randomizer_epsilon(matrix=rows, n=n, delta=delta)
    lower, _ = best_randomizer_pair(matrix=rows, n=n, delta=delta)
    assert lower.lower <= truth * (1 + 1e-12) + 1e-15 <= upper.value * (1 + 2e-12) + 2e-15
    assert upper.value <= randomizer.eps0


def test_blanket_delta_is_above_the_exact_delta_at_several_eps():
    rows = random_matrix(41, 3, 4)  # 4 outputs: groups may exceed 3 (the FFT path)
    randomizer = as_randomizer(rows)
    for eps in (0.0, 0.05, 0.2, 0.6):
        exact = float(exact_shuffled_delta(randomizer, 4, math.exp(eps)))
        assert exact_blanket_randomizer_delta(matrix=rows, n=4, eps=eps).upper >= exact * (1 - 1e-12)


def test_lemma_5_3_sum_is_evaluated_exactly_at_tiny_n():
    """The reference's certified interval contains Lemma 5.3's value computed directly from its definition:
    sum_N C(n, N) gamma^N (1-gamma)^(n-N) E[(L_1 + ... + L_N)_+] / (gamma n) by enumeration."""
    rows = random_matrix(7, 3, 3)
    randomizer = finite_randomizer(rows)
    gamma = float(randomizer.gamma)
    omega = [c / randomizer.gamma for c in randomizer.column_min()]
    n, eps = 6, 0.1
    for x, x2 in ((0, 1), (2, 0)):
        groups = group_outputs(randomizer.rows[x], randomizer.rows[x2], omega)
        value = sum(math.comb(n, big_n) * gamma**big_n * (1 - gamma) ** (n - big_n) * brute_force_expectation(big_n, groups, eps) for big_n in range(1, n + 1)) / (gamma * n)
        got = blanket_pair_delta(randomizer, x, x2, n=n, eps=eps)
        assert got.lower * (1 - 1e-9) <= value <= got.upper * (1 + 1e-9), (x, x2, value, got)


# ---------------------------------------------------------------------------------------------------
# The count expectation: lattice path (one or two positive coefficients) and FFT path.


@pytest.mark.parametrize("big_n", [1, 7, 25])
def test_lattice_count_expectation_matches_enumeration(big_n):
    # (0, 1): one positive coefficient; (0, 2): two positive ones at eps = 0.02 (the complement path).
    rows = [[Fraction(5, 10), Fraction(3, 10), Fraction(2, 10)], [Fraction(2, 10), Fraction(5, 10), Fraction(3, 10)], [Fraction(3, 10), Fraction(2, 10), Fraction(5, 10)]]
    omega = [Fraction(1, 3)] * 3
    for x2 in (1, 2):
        groups = group_outputs(rows[0], rows[x2], omega)
        for eps in (0.02, 0.3):
            lo, hi = count_expectation(big_n, groups, eps)
            exact = brute_force_expectation(big_n, groups, eps)
            assert lo * (1 - 1e-9) - 1e-300 <= exact <= hi * (1 + 1e-9) + 1e-300, (x2, eps, lo, exact, hi)
            assert hi - lo <= 1e-3 * hi + 1e-12  # the complement path loses a few digits to cancellation


@pytest.mark.parametrize("big_n,eps", [(1, 0.1), (6, 0.05), (20, 0.3), (40, 0.6)])
def test_fft_upper_bound_is_above_and_close_to_enumeration(big_n, eps):
    mu_x = [Fraction(4, 10), Fraction(3, 10), Fraction(2, 10), Fraction(1, 10)]
    mu_x2 = [Fraction(1, 10), Fraction(2, 10), Fraction(3, 10), Fraction(4, 10)]
    omega = [Fraction(2, 10), Fraction(2, 10), Fraction(3, 10), Fraction(3, 10)]
    groups = group_outputs(mu_x, mu_x2, omega)
    assert len(groups) == 4
    exact = brute_force_expectation(big_n, groups, eps)
    upper = fft_count_expectation_upper(big_n, groups, eps)
    assert exact <= upper <= exact * (1 + 2e-3) + 1e-10  # randomized rounding: a small variance increase


def test_fft_upper_bound_against_lattice_at_large_n():
    groups = group_outputs([Fraction(5, 10), Fraction(3, 10), Fraction(2, 10)], [Fraction(2, 10), Fraction(3, 10), Fraction(5, 10)], [Fraction(3, 10), Fraction(3, 10), Fraction(4, 10)])
    for big_n, eps in ((2000, 0.05), (20000, 0.01)):
        lo, hi = count_expectation(big_n, groups, eps)
        upper = fft_count_expectation_upper(big_n, groups, eps)
        assert upper >= lo * (1 - 1e-12)
        assert upper <= hi * 1.01  # randomized rounding: error ~ N h^2, small


# ---------------------------------------------------------------------------------------------------
# k-RR as a matrix equals BBGN19.Lem5.3.exact_krr.


@pytest.mark.parametrize("k,eps0,n", [(3, 1.0, 2000), (10, 1.0, 10_000), (2, 2.0, 500)])
def test_krr_matrix_equals_exact_krr_delta(k, eps0, n):
    randomizer = finite_randomizer(krr_matrix(k, eps0))
    for eps in (0.02, 0.1):
        mine = exact_blanket_randomizer_delta(matrix=randomizer, n=n, eps=eps)
        theirs = exact_blanket_krr_delta(eps0=eps0, n=n, k=k, eps=eps)
        assert mine.lower <= theirs.upper * (1 + 1e-9) + 1e-300 and theirs.lower <= mine.upper * (1 + 1e-9) + 1e-300, (eps, mine, theirs)


def test_krr_matrix_equals_exact_krr_epsilon():
    mine = exact_blanket_randomizer_epsilon(matrix=krr_matrix(3, 1.0), n=100, delta=1e-6)
    theirs = exact_blanket_krr_epsilon(eps0=1.0, n=100, delta=1e-6, k=3)
    assert mine.lower <= theirs.upper and theirs.lower <= mine.upper
    assert abs(mine.value / theirs.value - 1) < 2e-3  # both within the solver's 1e-3 tolerance


# ---------------------------------------------------------------------------------------------------
# The pair.


@pytest.mark.parametrize("seed,k,m", [(1, 2, 2), (2, 3, 3), (3, 3, 2)])
def test_pair_delta_equals_exact_shuffled_divergence(seed, k, m):
    rows = random_matrix(seed, k, m)
    randomizer = as_randomizer(rows)
    n = 6
    inputs = randomizer.inputs
    for x, x2, z in ((0, 1, 0), (1, 0, k - 1), (0, k - 1, 1 % k)):
        if x == x2:
            continue
        rest = (inputs[z],) * (n - 1)
        exact = float(hockey_stick_divergence(shuffled_distribution(randomizer, rest + (inputs[x],)), shuffled_distribution(randomizer, rest + (inputs[x2],)), math.exp(0.15)))
        got = randomizer_pair_delta(matrix=rows, n=n, eps=0.15, x=x, x2=x2, z=z)
        assert got.lower * (1 - 1e-9) - 1e-15 <= exact <= got.upper * (1 + 1e-9) + 1e-15


def test_merged_pair_is_the_post_processed_randomizer():
    rows = random_matrix(5, 3, 5)
    bins = ((0, 3), (1,), (2, 4))
    merged = [[sum((row[y] for y in b), Fraction(0)) for b in bins] for row in rows]
    randomizer = as_randomizer(merged)
    n = 5
    rest = (randomizer.inputs[2],) * (n - 1)
    exact = float(hockey_stick_divergence(shuffled_distribution(randomizer, rest + (randomizer.inputs[0],)), shuffled_distribution(randomizer, rest + (randomizer.inputs[1],)), math.exp(0.1)))
    got = randomizer_pair_delta(matrix=rows, n=n, eps=0.1, x=0, x2=1, z=2, bins=[list(b) for b in bins])
    assert got.lower * (1 - 1e-9) - 1e-15 <= exact <= got.upper * (1 + 1e-9) + 1e-15
    # Post-processing: the merged pair's divergence is at most the unmerged one's (exact).
    full = as_randomizer(rows)
    rest_full = (full.inputs[2],) * (n - 1)
    unmerged = float(hockey_stick_divergence(shuffled_distribution(full, rest_full + (full.inputs[0],)), shuffled_distribution(full, rest_full + (full.inputs[1],)), math.exp(0.1)))
    assert exact <= unmerged * (1 + 1e-12)


def test_lower_bound_below_upper_bound_at_moderate_n():
    # n = 100 (beyond the enumerable n of the exact tests above): the same property as at n = 300, a third of the
    # work (measured: ratio 1.126 at n = 100, 1.123 at n = 300; the upper end's solve is 2.3 s vs 6.7 s CPU).
    rows = random_matrix(11, 3, 3)
    lower, _ = best_randomizer_pair(matrix=rows, n=100, delta=1e-6)
    upper = exact_blanket_randomizer_epsilon(matrix=rows, n=100, delta=1e-6, hint=1.25 * lower.lower)
    assert 0 < lower.lower <= upper.value
    assert upper.value / lower.lower < 1.5  # the exact blanket is close to the pair on a 3 x 3 randomizer


# ---------------------------------------------------------------------------------------------------
# Audit, API, registry.

MATRIX = [["1/2", "3/10", "1/5"], ["1/5", "1/2", "3/10"], ["3/10", "1/5", "1/2"]]


def test_audit_reports_the_gap():
    report = audit_matrix(MATRIX, n=8, delta=1e-3)
    gap = report.to_json()["gap"]
    assert gap["upper"] is not None and gap["lower"] is not None
    assert gap["ratio"] >= 1
    assert report.exact is not None  # small n: enumerated, and it lies inside the gap
    assert gap["lower"]["eps"] <= report.exact["eps"] * (1 + 1e-12) <= gap["upper"]["eps"] * (1 + 1e-12)
    ids = {row["id"] for row in gap["bounds"]}
    assert {"BBGN19.Lem5.3.exact_randomizer", "exact.randomizer_pair"} <= ids
    assert not report.problems
    # The existing JSON fields are unchanged.
    assert {"ldp_epsilon", "blanket_gamma", "bounds", "exact", "problems"} <= set(report.to_json())


def test_audit_cli_prints_the_gap(tmp_path, capsys):
    from shuffle_spec.interface.cli.main import main

    path = tmp_path / "r.json"
    path.write_text(json.dumps({"matrix": [["3/4", "1/4"], ["1/3", "2/3"]]}))
    assert main(["audit", "randomizer", str(path), "--n", "6", "--delta", "1e-2"]) == 0
    out = capsys.readouterr().out
    assert "gap: tightest certified upper" in out and "lower-bound pair:" in out


def test_api_tightest_randomizer():
    import shuffle_spec

    gap = shuffle_spec.tightest_randomizer([["3/4", "1/4"], ["1/3", "2/3"]], n=6, delta=1e-2)
    assert gap.ratio is not None and gap.ratio >= 1
    assert gap.upper_eps >= gap.lower_eps
    assert gap.pair["x"] != gap.pair["x2"]


def test_statements_are_registered_and_not_evaluable():
    # The catalog (generated from the registry, kept current by tests/spec/test_catalog.py): no SymPy needed here.
    for statement_id, direction in (("BBGN19.Lem5.3.exact_randomizer", "upper_bound"), ("exact.randomizer_pair", "lower_bound")):
        statement = resolve(statement_id)
        assert not statement.is_evaluable
        assert not statement.is_amplification_bound  # not evaluated by bounds / compare / vectors from scalars
        assert statement.direction.value == direction
        assert statement.reference.split(":")[1] in ("exact_blanket_randomizer_epsilon", "randomizer_pair_epsilon")


def test_refusals_name_the_parameter():
    with pytest.raises(ParameterError, match="column 1"):
        finite_randomizer([[Fraction(1, 2), Fraction(1, 2)], [Fraction(1), Fraction(0)]])
    with pytest.raises(ParameterError, match="sum of matrix"):
        finite_randomizer([[0.5, 0.6], [0.5, 0.5]])
    with pytest.raises(ParameterError, match="n"):
        exact_blanket_randomizer_epsilon(matrix=MATRIX, n=10**9, delta=1e-6)
    # eps0 = 0: the output ignores the input.
    assert exact_blanket_randomizer_epsilon(matrix=[[0.5, 0.5], [0.5, 0.5]], n=10, delta=1e-6).value == 0.0


def test_gap_outside_the_matrix_range_uses_the_registered_bounds_only():
    rows = [["3/4", "1/4"]] + [["1/3", "2/3"]] * 16  # 17 inputs: outside k <= 16
    gap = audit_matrix(rows, n=1000, delta=1e-6).gap  # n too large for enumeration: fast
    mine = {row["id"]: row for row in gap["bounds"]}
    for statement_id in ("BBGN19.Lem5.3.exact_randomizer", "exact.randomizer_pair"):
        assert not mine[statement_id]["valid"] and "k <= 16" in mine[statement_id]["reason"]
    assert gap["upper"] is not None and gap["upper"]["id"] not in mine
