"""High-precision paths `<function>_mp` of the exact statements (bit-reproducible test vectors;
shuffle_spec.reference.numerics.high_precision_exact).

Each enclosure is compared with exact rational computations (shuffle_spec.reference.finite.shuffling, shuffle_spec.reference.exact.krr) on tiny
instances, checked to agree at 40 and 80 digits, and shown to contain the float reference's certified interval
point; planted errors are caught."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from shuffle_spec.interface.vectors.files import canonical_decimal
from shuffle_spec.reference.numerics import high_precision_exact as hp
from shuffle_spec.reference.bounds.blanket_exact_krr import exact_blanket_krr_epsilon, exact_blanket_krr_epsilon_mp
from shuffle_spec.reference.finite.divergences import _min_multiplier_one_way, min_e_eps_for_delta
from shuffle_spec.reference.exact.binary_rr import binary_rr_pair_epsilon, shuffled_binary_rr, shuffled_binary_rr_mp, shuffled_binary_rr_pair_mp
from shuffle_spec.reference.exact.krr import exact_shuffled_krr_e_eps, exact_shuffled_krr_epsilon, exact_shuffled_krr_epsilon_mp
from shuffle_spec.reference.lower_bounds.krr import krr_pair_third_epsilon, krr_pair_third_epsilon_mp, krr_pair_x0_epsilon, krr_pair_x0_epsilon_mp
from shuffle_spec.reference.finite.randomizers import k_randomized_response
from shuffle_spec.reference.finite.shuffling import shuffled_distribution

EPS0 = 1.0


def _e0_bracket(eps0: float) -> tuple[Fraction, Fraction]:
    """Rationals a < e^eps0 < b, 1e-40 apart (mpmath at 60 digits, widened far beyond its error)."""
    with mpmath.workdps(60):
        e = mpmath.exp(mpmath.mpf(eps0))
        mid = Fraction(int(e * 10**50), 10**50)
    return mid - Fraction(1, 10**40), mid + Fraction(1, 10**40)


def _log(x: Fraction) -> float:
    """log of an exact ratio (mpmath at 50 digits: log(num) - log(den) of long integers would cancel)."""
    with mpmath.workdps(50):
        return float(mpmath.log(mpmath.mpf(x.numerator) / x.denominator)) if x > 1 else 0.0


def _fraction(x: mpmath.mpf) -> Fraction:
    mantissa, exponent = x.man_exp
    return Fraction(mantissa) * Fraction(2) ** exponent


def _pair_e_eps(dataset_a, dataset_b, k, e0, delta, both):
    randomizer = k_randomized_response(k, e0)
    p, q = shuffled_distribution(randomizer, dataset_a), shuffled_distribution(randomizer, dataset_b)
    return min_e_eps_for_delta(p, q, delta) if both else _min_multiplier_one_way(p, q, delta)


def _bracketed(enclosure, exact_low, exact_high):
    """exact_low <= lower <= upper <= exact_high, up to float rounding of the exact logs (1e-14)."""
    lower, upper = (float(x) for x in enclosure)
    return exact_low - 1e-14 <= lower <= upper <= exact_high + 1e-14


# ---------------------------------------------------------------- exact rational comparisons (tiny instances)


@pytest.mark.parametrize("n, ones, delta", [(5, 0, Fraction(1, 100)), (6, 2, Fraction(1, 50)), (7, 6, Fraction(1, 1000))])
def test_binary_pair_matches_exact_rationals(n, ones, delta):
    """The pair's eps is non-decreasing in e^eps0 (a smaller e^eps0 is a post-processing): exact values at
    rationals around e^eps0 bracket the enclosure."""
    others = (1,) * ones + (0,) * (n - 1 - ones)
    low, high = _e0_bracket(EPS0)
    exact = [_log(_pair_e_eps((1,) + others, (0,) + others, 2, e, delta, True)) for e in (low, high)]
    got = shuffled_binary_rr_pair_mp(dps=40, eps0=EPS0, n=n, delta=float(delta), k=ones)
    assert _bracketed(got, *exact)
    assert exact[1] - exact[0] < 1e-12 and exact[0] > 0  # a test that can fail: the bracket is narrow


@pytest.mark.parametrize("n, delta", [(6, 0.01), (9, 1e-3)])
def test_binary_worst_case_matches_exact_enumeration(n, delta):
    low, high = _e0_bracket(EPS0)
    exact = [_log(exact_shuffled_krr_e_eps(2, e, n, Fraction(delta))) for e in (low, high)]
    assert _bracketed(shuffled_binary_rr_mp(dps=40, eps0=EPS0, n=n, delta=delta), *exact)


def test_krr_pairs_match_exact_rationals():
    """k = 3: the kept counts are the whole histogram, so the pair's eps is exact on the shuffled distributions."""
    k, n, delta = 3, 5, Fraction(1, 100)
    low, high = _e0_bracket(EPS0)
    third = [_log(_pair_e_eps((0,) + (2,) * (n - 1), (1,) + (2,) * (n - 1), k, e, delta, False)) for e in (low, high)]
    x0 = [_log(_pair_e_eps((0,) * n, (1,) + (0,) * (n - 1), k, e, delta, True)) for e in (low, high)]
    assert _bracketed(krr_pair_third_epsilon_mp(dps=40, eps0=EPS0, n=n, delta=float(delta), k=k), *third)
    assert _bracketed(krr_pair_x0_epsilon_mp(dps=40, eps0=EPS0, n=n, delta=float(delta), k=k), *x0)


def _blanket_delta(e0: Fraction, e: Fraction, n: int, k: int) -> Fraction:
    """BBGN19 Lemma 5.3's exact sum for k-RR (spec/derived/blanket_exact.py's conclusion), in rationals."""
    gamma = Fraction(k) / (e0 + k - 1)
    total = Fraction(0)
    for big_n in range(1, n + 1):
        weight = math.comb(n - 1, big_n - 1) * gamma ** (big_n - 1) * (1 - gamma) ** (n - big_n) * gamma / big_n
        inner = Fraction(0)
        for a in range(big_n + 1):
            for b in range(big_n - a + 1):
                r = big_n - a - b
                g = (e0 - e) * a - (e * e0 - 1) * b - (e - 1) * r
                if g > 0:
                    inner += Fraction(math.factorial(big_n), math.factorial(a) * math.factorial(b) * math.factorial(r)) * Fraction((k - 2) ** r, k**big_n) * g
        total += weight * inner
    return total


def test_blanket_matches_the_lemma_sum_in_rationals():
    n, k, delta = 6, 4, 0.05
    lower, upper = exact_blanket_krr_epsilon_mp(dps=40, eps0=EPS0, n=n, delta=delta, k=k)
    e0 = sum(_e0_bracket(EPS0)) / 2
    with mpmath.workdps(60):
        e_lo = _fraction(mpmath.exp(mpmath.mpf(lower.numerator) / lower.denominator) * (1 - mpmath.mpf(10) ** -25))
        e_hi = _fraction(mpmath.exp(mpmath.mpf(upper.numerator) / upper.denominator) * (1 + mpmath.mpf(10) ** -25))
    assert _blanket_delta(e0, e_lo, n, k) > Fraction(delta) >= _blanket_delta(e0, e_hi, n, k)


def test_shuffled_krr_enclosure_is_exact_at_rational_brackets():
    low, high = _e0_bracket(EPS0)
    lower, upper = exact_shuffled_krr_epsilon_mp(dps=40, eps0=EPS0, n=6, delta=0.01, k=3)
    exact = [_log(exact_shuffled_krr_e_eps(3, e, 6, Fraction(0.01))) for e in (low, high)]
    assert _bracketed((lower, upper), *exact)
    assert float(upper - lower) < 1e-40


# ---------------------------------------------------------------- precision agreement and the float references


def _digits(x: Fraction) -> str:
    return canonical_decimal(x, 20)


CASES = [
    (shuffled_binary_rr_mp, shuffled_binary_rr, {"eps0": 2.0, "n": 200, "delta": 1e-6}),
    (shuffled_binary_rr_pair_mp, binary_rr_pair_epsilon, {"eps0": 6.0, "n": 3000, "delta": 1e-6, "k": 5}),
    (exact_shuffled_krr_epsilon_mp, exact_shuffled_krr_epsilon, {"eps0": 2.0, "n": 10, "delta": 1e-3, "k": 2}),
    (krr_pair_third_epsilon_mp, krr_pair_third_epsilon, {"eps0": 1.0, "n": 30, "delta": 0.01, "k": 5}),
    (krr_pair_x0_epsilon_mp, krr_pair_x0_epsilon, {"eps0": 1.0, "n": 30, "delta": 0.01, "k": 5}),
    (exact_blanket_krr_epsilon_mp, exact_blanket_krr_epsilon, {"eps0": 0.5, "n": 20, "delta": 0.05, "k": 10}),
]


@pytest.mark.parametrize("path, reference, point", CASES, ids=[c[0].__name__ for c in CASES])
def test_precisions_agree_and_contain_the_float_reference(path, reference, point):
    at_40, at_80 = path(dps=40, **point), path(dps=80, **point)
    assert [_digits(x) for x in at_40] == [_digits(x) for x in at_80]
    assert at_80[0] <= at_80[1] and float(at_80[1] - at_80[0]) <= 1e-30 * float(at_80[1])
    floats = reference(**point)
    # The float reference's certified interval contains the exact value. The k-RR pair references return
    # [lower, lower] (their value is the lower end of the pair's interval): only the lower end is checked there.
    assert floats.lower <= float(at_80[0]) * (1 + 1e-15)
    if reference not in (krr_pair_third_epsilon, krr_pair_x0_epsilon):
        assert float(at_80[1]) <= floats.upper * (1 + 1e-15)
    assert floats.lower >= float(at_80[0]) * (1 - 1e-2)  # and it is not vacuous


def test_krr_pair_x0_at_k2_is_the_binary_pair_to_20_digits():
    """Two independent computations of one quantity: the k-RR pair "others all at x0" for k = 2 (a lattice of
    counts, shuffle_spec.reference.lower_bounds.krr) is shuffled binary RR's pair with the others all at one bit (a convolution
    of two binomials)."""
    point = {"eps0": 1.5, "n": 300, "delta": 1e-6}
    lattice = krr_pair_x0_epsilon_mp(dps=40, k=2, **point)
    convolution = shuffled_binary_rr_pair_mp(dps=40, k=0, **point)
    assert [_digits(x) for x in lattice] == [_digits(x) for x in convolution]


def test_krr_shuffled_float_lower_end_is_below_the_truth():
    """Regression: the float reference's lower end was log(num) - log(den) of huge integers (cancellation), 3e-16
    above the exact value at this point; it must be at most the high-precision lower end."""
    lower, _ = exact_shuffled_krr_epsilon_mp(dps=40, eps0=1.0, n=6, delta=0.01, k=3)
    assert exact_shuffled_krr_epsilon(eps0=1.0, n=6, delta=0.01, k=3).lower <= float(lower)


# ---------------------------------------------------------------- declines and planted errors


@pytest.mark.parametrize(
    "path, point",
    [
        (krr_pair_third_epsilon_mp, {"eps0": 1.0, "n": 10_000, "delta": 1e-6, "k": 10}),
        (exact_blanket_krr_epsilon_mp, {"eps0": 4.0, "n": 1000, "delta": 1e-6, "k": 100}),
        (shuffled_binary_rr_pair_mp, {"eps0": 1.0, "n": 10**7, "delta": 1e-6, "k": 0}),
    ],
)
def test_declines_outside_the_high_precision_range(path, point):
    with pytest.raises(ValueError, match="outside the high-precision range"):
        path(dps=40, **point)


def test_exact_krr_mp_refuses_what_the_reference_refuses():
    """exact.shuffled_krr's own size limit (a few seconds of rational enumeration) is below the _mp path's:
    a point beyond it is refused with the parameter named, and so left out of the vectors."""
    with pytest.raises(ValueError, match="n = 60"):
        exact_shuffled_krr_epsilon_mp(dps=40, eps0=1.0, n=60, delta=1e-6, k=3)


def test_a_planted_delta_error_is_caught(monkeypatch):
    """The exact comparison notices a planted bug in the solver (delta forgotten in the lower end's set value)."""
    n, ones, delta = 6, 1, Fraction(1, 50)
    others = (1,) * ones + (0,) * (n - 1 - ones)
    low, high = _e0_bracket(EPS0)
    exact = [_log(_pair_e_eps((1,) + others, (0,) + others, 2, e, delta, False)) for e in (low, high)]
    assert _bracketed(hp.binary_rr_eps_bracket(eps0=EPS0, n=n, k=ones, delta=float(delta), dps=40, both=False), *exact)
    original = hp.pair_e_eps
    monkeypatch.setattr(hp, "pair_e_eps", lambda *a, **kw: original(*a, **{**kw, "delta": kw["delta"] / 2}))
    bad = hp.binary_rr_eps_bracket(eps0=EPS0, n=n, k=ones, delta=float(delta), dps=40, both=False)
    assert not _bracketed(bad, *exact)


def test_a_planted_dropped_tail_is_caught(monkeypatch):
    """Windows cut short (dropping 1e-12 delta each side): with the dropped mass accounted the path cannot
    verify a 20-digit enclosure and declines; with the accounting removed (a planted bug) it returns a narrow
    enclosure that misses the exact value."""
    point = {"eps0": 1.0, "n": 400, "k": 0, "delta": 1e-6, "dps": 40, "both": False}
    honest = hp.binary_rr_eps_bracket(**point)
    monkeypatch.setattr(hp, "_tail_units", lambda fp, delta, dps: hp._floor(Fraction(delta) * fp.one / 10**12))
    with pytest.raises(ValueError, match="outside the high-precision range"):
        hp.binary_rr_eps_bracket(**point)
    original = hp.pair_e_eps
    monkeypatch.setattr(hp, "pair_e_eps", lambda *a, **kw: original(*a, **{**kw, "dropped_p": 0, "dropped_q": 0}))
    planted = hp.binary_rr_eps_bracket(**point)
    assert not planted[0] <= honest[0] <= honest[1] <= planted[1]  # the truth is outside: caught
    assert planted[1] - planted[0] < Fraction(1, 10**30)


def test_invalid_dps_is_refused():
    from shuffle_spec.reference.core.errors import ParameterError

    with pytest.raises(ParameterError, match="dps"):
        hp.bits_for(3, 1e-6)
