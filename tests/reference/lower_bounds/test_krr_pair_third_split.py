"""The third k-RR pair with the rest split (exact.krr_pair_third_split; module doc of
`shuffle_spec.reference.lower_bounds.krr`): its certified interval contains the pair's exact divergence computed
from the whole shuffled histogram (full enumeration, independent of the sufficient-count formula), it lies below
the exact worst case, and it is at least the merged counts' (exact.krr_pair_third: a post-processing of it)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from shuffle_spec.reference.bounds.blanket_exact_krr import exact_blanket_krr_delta, exact_blanket_krr_epsilon
from shuffle_spec.reference.exact.krr import exact_shuffled_krr_delta
from shuffle_spec.reference.finite.divergences import hockey_stick_divergence
from shuffle_spec.reference.finite.randomizers import k_randomized_response
from shuffle_spec.reference.finite.shuffling import shuffled_distribution
from shuffle_spec.reference.lower_bounds.krr import (
    MAX_SPLIT_ROWS,
    SPLIT_MAX_MEAN,
    krr_pair_delta,
    krr_pair_third_epsilon,
    krr_pair_third_split_delta,
    krr_pair_third_split_epsilon,
)

REL = 1e-11  # float rounding of the exact-convolution references themselves


@pytest.mark.parametrize("k, n, eps0", [(4, 5, 1.0), (4, 6, 4.0), (5, 4, 2.0), (6, 4, 6.0), (5, 4, 12.0)])
def test_interval_contains_the_exact_divergence_of_the_whole_histogram(k, n, eps0):
    randomizer = k_randomized_response(k, math.exp(eps0))
    p = shuffled_distribution(randomizer, [2] * (n - 1) + [0])
    q = shuffled_distribution(randomizer, [2] * (n - 1) + [1])
    for fraction in (0.05, 0.3, 0.7):
        eps = fraction * eps0
        exact = max(hockey_stick_divergence(p, q, math.exp(eps)), hockey_stick_divergence(q, p, math.exp(eps)))
        got = krr_pair_third_split_delta(eps0=eps0, n=n, k=k, eps=eps)
        assert got.lower * (1 - REL) <= exact <= got.upper * (1 + REL), (eps, exact, got)
        merged = krr_pair_delta(eps0=eps0, n=n, k=k, eps=eps, pair="third")
        assert merged.lower <= got.upper * (1 + REL)  # the merged counts are a post-processing of the split ones
        worst = float(exact_shuffled_krr_delta(k, math.exp(eps0), n, math.exp(eps)))
        assert got.lower <= worst * (1 + REL)  # a pair is at most the worst case


@pytest.mark.parametrize("eps0", [20.0, 50.0])
def test_at_eps_zero_the_interval_contains_the_total_variation(eps0):
    """At eps = 0 the coefficients of h_z and R' are both 0 ((1 - e)/e0 and 1 - e), so the lattice sum's c1 = c2 and
    its row spacing (c0 - c2)/(c2 - c1) is infinite: from eps0 ~ 19.7 on (e0 over ~3.6e8) the pair raised
    OverflowError ("cannot convert float infinity to integer") instead of an interval. The pair's divergence at
    e^0 is the total variation of the whole histograms (exact enumeration, as above)."""
    n, k = 3, 4
    randomizer = k_randomized_response(k, math.exp(eps0))
    p = shuffled_distribution(randomizer, [2] * (n - 1) + [0])
    q = shuffled_distribution(randomizer, [2] * (n - 1) + [1])
    exact = max(hockey_stick_divergence(p, q, 1.0), hockey_stick_divergence(q, p, 1.0))
    got = krr_pair_third_split_delta(eps0=eps0, n=n, k=k, eps=0.0)
    assert got.lower * (1 - REL) <= exact <= got.upper * (1 + REL), (exact, got)


def test_split_counts_beat_the_merged_counts_at_large_eps0_and_stay_below_the_blanket_bound():
    """eps0 = 6, k = 10, n = 300, delta = 1e-6: the merged counts lose the distinction between the third value's
    count and the unheld values' (module doc), so the split pair's certified eps is strictly larger; both are
    lower bounds, so both stay below the certified upper bound (the exact blanket bound)."""
    eps0, n, k, delta = 6.0, 300, 10, 1e-6
    split = krr_pair_third_split_epsilon(eps0=eps0, n=n, delta=delta, k=k)
    merged = krr_pair_third_epsilon(eps0=eps0, n=n, delta=delta, k=k)
    upper = exact_blanket_krr_epsilon(eps0=eps0, n=n, delta=delta, k=k)
    assert merged.value < split.value <= upper.upper
    # And in delta at the split pair's value: the blanket's certified delta is above the pair's lower end.
    pair = krr_pair_third_split_delta(eps0=eps0, n=n, k=k, eps=split.value, delta_hint=delta)
    assert pair.lower <= exact_blanket_krr_delta(eps0=eps0, n=n, k=k, eps=split.value, delta_hint=delta).upper


def test_refused_beyond_its_range_with_the_parameter_named():
    from shuffle_spec.reference.core.errors import ParameterError

    with pytest.raises(ParameterError, match=f"n/\\(e\\^eps0 \\+ k - 1\\) <= {SPLIT_MAX_MEAN}"):
        krr_pair_third_split_epsilon(eps0=1.0, n=10**6, delta=1e-6, k=10)
    assert MAX_SPLIT_ROWS >= 200  # the safety net is never what refuses inside the range (about 160 rows at most)


@pytest.mark.parametrize("k, n, delta, merged_value", [pytest.param(10, 10**4, 1e-6, 6.80632, marks=pytest.mark.slow), (100, 10**3, 1e-9, 6.37979)])
def test_the_large_eps0_cells_of_the_gap_benchmark(k, n, delta, merged_value):
    """eps0 = 8 (benchmarks/TIGHT_RESULTS.md): the split pair is within 2% of the exact blanket bound where the
    merged counts were 3-6% below it (merged_value: exact.krr_pair_third's lower end in that table)."""
    eps0 = 8.0
    split = krr_pair_third_split_epsilon(eps0=eps0, n=n, delta=delta, k=k)
    upper = exact_blanket_krr_epsilon(eps0=eps0, n=n, delta=delta, k=k).upper
    assert merged_value < split.value <= upper <= 1.02 * split.value


@pytest.mark.parametrize(("eps0", "n", "k", "eps", "delta"), [(8.0, 10_000, 100, 4.69, 1e-6), (8.0, 10_000, 100, 5.01, 1e-9), (7.0, 2_000, 200, 3.5, 1e-6)])
def test_skipping_negligible_terms_keeps_every_float_and_skips_some(monkeypatch, eps0, n, k, eps, delta):
    """The values j of h1 whose terms cannot change the running float sums are not summed (`_negligible`): the
    interval is the same pair of floats as with every term summed, with fewer lattice sums."""
    from shuffle_spec.reference.lower_bounds import krr as pair_module

    calls = []
    engine = pair_module.positive_part_expectation

    def counted(*args, **kwargs):
        calls.append(args[0])
        return engine(*args, **kwargs)

    monkeypatch.setattr(pair_module, "positive_part_expectation", counted)
    full = pair_module.krr_pair_third_split_delta(eps0=eps0, n=n, k=k, eps=eps, delta_hint=delta, skip_negligible=False)
    summed = len(calls)
    calls.clear()
    skipping = pair_module.krr_pair_third_split_delta(eps0=eps0, n=n, k=k, eps=eps, delta_hint=delta)
    assert (skipping.lower, skipping.upper) == (full.lower, full.upper) and 0 < full.lower <= full.upper
    assert 0 < len(calls) < summed, (len(calls), summed)


def test_negligible_is_below_half_an_ulp():
    from shuffle_spec.reference.lower_bounds.krr import _negligible

    total = 0.3
    assert _negligible(0.49 * math.ulp(total), total) and total + 0.49 * math.ulp(total) == total
    assert not _negligible(0.5 * math.ulp(total), total)


def _exact_term(e0: Fraction, e: Fraction, k: int, n: int, j: int) -> Fraction:
    """E[(a0 h0 + a1 j + az h_z + ar R')_+] given h1 = j (module doc), by enumerating the trinomial of the m = n - j
    others' counts (h0, R', h_z) ~ Mult(m; (1, k - 3, e0) / (D - 1)), in exact rationals."""
    d1 = e0 + k - 2
    probabilities = (1 / d1, Fraction(k - 3) / d1, e0 / d1)
    a0, a1, az, ar = e0 - e, 1 - e * e0, (1 - e) / e0, 1 - e
    m = n - j
    total = Fraction(0)
    for h0 in range(m + 1):
        for r in range(m - h0 + 1):
            hz = m - h0 - r
            x = a0 * h0 + a1 * j + az * hz + ar * r
            if x > 0:
                total += math.comb(m, h0) * math.comb(m - h0, r) * probabilities[0] ** h0 * probabilities[1] ** r * probabilities[2] ** hz * x
    return total


@pytest.mark.parametrize(("e0", "e", "k", "n"), [(Fraction(3), Fraction(2), 4, 7), (Fraction(20), Fraction(3, 2), 6, 6), (Fraction(5, 4), Fraction(9, 8), 5, 8)])
def test_the_term_of_each_count_of_x1_is_non_increasing_in_it(e0, e, k, n):
    """The split pair's term given h1 = j is non-increasing in j (module doc: one more x1 removes one of the others'
    draws, whose coefficient is at least ar, and adds a1: the sum moves by at most a1 - ar = e (1 - e0) < 0), the fact
    that lets a term be skipped on an earlier term's certified upper end. Exact rationals, every j of small n."""
    terms = [_exact_term(e0, e, k, n, j) for j in range(n + 1)]
    assert terms[0] > 0
    assert all(later <= earlier for earlier, later in zip(terms[:-1], terms[1:], strict=True)), [float(t) for t in terms]


@pytest.mark.parametrize(("eps0", "n", "k", "eps", "delta", "most"), [(8.0, 10_000, 100, 5.01, 1e-9, 3), (8.0, 10_000, 10, 7.3, 1e-9, 6)])
def test_terms_below_an_earlier_terms_bound_are_skipped_with_the_same_floats(monkeypatch, eps0, n, k, eps, delta, most):
    """A term whose certified bound (an earlier j's upper end: the terms are non-increasing in j) cannot change the
    running float sums is not summed: the same interval as summing every j, with at most `most` lattice sums (the
    bound 2 c0 m alone left 40 of them at the first point: the terms past j = 1 are below 1e-41 there)."""
    from shuffle_spec.reference.lower_bounds import krr as pair_module

    calls = []
    engine = pair_module.positive_part_expectation

    def counted(*args, **kwargs):
        calls.append(args[0])
        return engine(*args, **kwargs)

    monkeypatch.setattr(pair_module, "positive_part_expectation", counted)
    full = pair_module.krr_pair_third_split_delta(eps0=eps0, n=n, k=k, eps=eps, delta_hint=delta, skip_negligible=False)
    calls.clear()
    skipping = pair_module.krr_pair_third_split_delta(eps0=eps0, n=n, k=k, eps=eps, delta_hint=delta)
    assert (skipping.lower.hex(), skipping.upper.hex()) == (full.lower.hex(), full.upper.hex()) and 0 < full.lower <= full.upper
    assert 0 < len(calls) <= most, len(calls)
