"""High-precision paths of the clone bounds and the composed pairs (`shuffle_spec.reference.bounds.clones_high_precision`, the
`_mp` wrappers of `FMT21.clones_numeric`, `FMT23.stronger_clones`, `compose.*`).

What is checked:
- the enclosures at dps 40 and 80 agree to the 20 digits the vectors write;
- the float reference's certified interval contains the high-precision value (two independent
  computations: float walk with proven error bounds / FFT PLD vs fixed-point interval walk / exact
  enumeration), and the float answer lies in the vector acceptance interval built from it;
- the high-precision delta against a brute-force mpmath sum of the pair's definition (every outcome, no
  cutoff formula, no walk, no grouping, no meet-in-the-middle) on tiny instances;
- planted errors are caught (a wrong root fails the sign checks; a wrong weight leaves the float interval).
"""

import itertools
from fractions import Fraction

import mpmath
import pytest

from shuffle_spec.interface.vectors.files import DIGITS, MP_PRECISIONS, _high_precision, canonical_decimal
from shuffle_spec.reference.bounds import clones_high_precision as hp
from shuffle_spec.reference.composition import shuffled_rounds as pld
from shuffle_spec.reference.bounds.clones import clones_numeric, clones_numeric_mp
from shuffle_spec.reference.bounds.stronger_clones import stronger_clones, stronger_clones_mp
from shuffle_spec.spec.registry import get_statement


def _strings(enclosure):
    return tuple(canonical_decimal(Fraction(x) if isinstance(x, Fraction) else x, DIGITS) for x in enclosure)


def _close(fraction, value, digits=40):
    """|fraction - value| < 10^-digits, compared at 60 digits."""
    with mpmath.workdps(60):
        return abs(mpmath.mpf(fraction.numerator) / fraction.denominator - value) < mpmath.mpf(10) ** -digits


def _as_fraction(x):
    if isinstance(x, Fraction):
        return x
    mantissa, exponent = x.man_exp
    return Fraction(mantissa) * Fraction(2) ** exponent


SINGLE = [
    (clones_numeric_mp, clones_numeric, {"eps0": 1.0, "n": 10_000, "delta": 1e-6}),
    (stronger_clones_mp, stronger_clones, {"eps0": 4.0, "n": 3_000, "delta": 1e-7}),
    (clones_numeric_mp, clones_numeric, {"eps0": 12.0, "n": 50, "delta": 1e-3}),  # large eps0, tiny n
]


@pytest.mark.parametrize("mp_path,float_path,point", SINGLE)
def test_clone_bounds_agree_at_40_and_80_digits_and_lie_in_the_float_interval(mp_path, float_path, point):
    enclosures = [mp_path(dps=dps, **point) for dps in MP_PRECISIONS]
    assert len({_strings(e) for e in enclosures}) == 1
    low, high = (_as_fraction(x) for x in enclosures[-1])
    assert low <= high and high - low <= Fraction(1, 10**25) * high
    answer = float_path(**point)
    assert Fraction(answer.lower) <= low and high <= Fraction(answer.upper)


def test_the_float_answers_lie_in_the_acceptance_intervals_of_the_vectors():
    """The group as `vectors check` runs it: expected values from the _mp paths at the registered examples."""
    from shuffle_spec.interface.vectors.files import generate_group
    from shuffle_spec.proofs_checks.bridge import reference_function
    from shuffle_spec.interface.audit.verdicts import judge_group

    for statement_id in ("compose.clones", "compose.exact_binary_rr"):
        statement = get_statement(statement_id)
        group = generate_group(statement)
        valid = [t for t in group["tests"] if t["result"] == "valid"]
        assert len(valid) >= 2 and group["expected_from"].startswith("reference high-precision path")
        findings = judge_group(reference_function(statement), statement, group, strict=True)
        assert all(f.severity == "pass" for f in findings), [f.reason for f in findings if f.severity != "pass"]


def _brute_clone_delta(eps0, n, eps, q):
    """sum over c and a of max(0, P - e^eps Q), P = Bin(c; n-1, q) P_c(a) (shuffle_spec.spec.papers.fmt21.clones.pair_pmfs), in mpmath."""
    with mpmath.workdps(50):
        e0, x = mpmath.exp(mpmath.mpf(eps0)), mpmath.exp(mpmath.mpf(eps))
        alpha = e0 / (e0 + 1)
        total = mpmath.mpf(0)
        for c in range(n):
            w = mpmath.binomial(n - 1, c) * q(e0) ** c * (1 - q(e0)) ** (n - 1 - c)
            for a in range(c + 2):
                here = mpmath.binomial(c, a) / mpmath.mpf(2) ** c if a <= c else 0
                prev = mpmath.binomial(c, a - 1) / mpmath.mpf(2) ** c if a >= 1 else 0
                p, qq = alpha * here + (1 - alpha) * prev, (1 - alpha) * here + alpha * prev
                total += w * max(0, p - x * qq)
        return total


@pytest.mark.parametrize("kind,q", [("fmt21", lambda e0: 1 / e0), ("fmt23", lambda e0: 2 / (e0 + 1))])
@pytest.mark.parametrize("eps0,n,eps", [(1.0, 7, 0.3), (3.0, 12, 0.9), (0.5, 1, 0.1), (2.0, 9, 0.0)])
def test_clone_delta_against_a_brute_force_sum(kind, q, eps0, n, eps):
    low, high = hp.clone_delta_bounds_mp(dps=40, eps0=eps0, n=n, eps=eps, kind=kind)
    brute = _brute_clone_delta(eps0, n, eps, q)
    assert low <= high and high - low < Fraction(1, 10**35)
    assert _close(low, brute)


def _brute_composed_delta(masses, eps, rounds):
    """delta_T(eps) = sum over ORDERED outcome tuples of max(0, prod P - e^eps prod Q), in mpmath."""
    with mpmath.workdps(50):
        x = mpmath.exp(mpmath.mpf(eps))
        total = mpmath.mpf(0)
        for combo in itertools.product(range(len(masses)), repeat=rounds):
            p = mpmath.fprod(masses[i][0] for i in combo)
            q = mpmath.fprod(masses[i][1] for i in combo)
            total += max(0, p - x * q)
        return total


def _binary_rr_masses(eps0, n, k):
    with mpmath.workdps(50):
        e0 = mpmath.exp(mpmath.mpf(eps0))
        p = e0 / (e0 + 1)

        def others(s):  # Pr[Bin(k, p) + Bin(n-1-k, 1-p) = s]
            return mpmath.fsum(mpmath.binomial(k, i) * p**i * (1 - p) ** (k - i) * mpmath.binomial(n - 1 - k, s - i) * (1 - p) ** (s - i) * p ** (n - 1 - k - s + i) for i in range(0, k + 1) if 0 <= s - i <= n - 1 - k)

        return [(p * others(s - 1) + (1 - p) * others(s), (1 - p) * others(s - 1) + p * others(s)) for s in range(n + 1)]


@pytest.mark.parametrize("eps0,n,k,rounds,eps", [(1.0, 5, 1, 3, 0.7), (2.0, 4, 0, 2, 1.5), (0.7, 6, 2, 1, 0.2)])
def test_composed_binary_rr_delta_against_ordered_enumeration(eps0, n, k, rounds, eps):
    masses = _binary_rr_masses(eps0, n, k)
    for direction in (0, 1):
        low, high = hp.composed_delta_bounds_mp("exact_binary_rr", dps=40, eps0=eps0, n=n, eps=eps, rounds=rounds, k=k, direction=direction)
        pairs = masses if direction == 0 else [(b, a) for a, b in masses]
        brute = _brute_composed_delta(pairs, eps, rounds)
        assert low <= high and high - low < Fraction(1, 10**35)
        assert _close(high, brute)


def test_composed_clone_delta_against_ordered_enumeration_of_the_ungrouped_outcomes():
    eps0, n, rounds, eps = 1.5, 4, 2, 0.8
    with mpmath.workdps(50):
        e0 = mpmath.exp(mpmath.mpf(eps0))
        q, alpha = 1 / e0, e0 / (e0 + 1)
        masses = []
        for c in range(n):
            w = mpmath.binomial(n - 1, c) * q**c * (1 - q) ** (n - 1 - c)
            for a in range(c + 2):
                here = mpmath.binomial(c, a) / mpmath.mpf(2) ** c if a <= c else 0
                prev = mpmath.binomial(c, a - 1) / mpmath.mpf(2) ** c if a >= 1 else 0
                masses.append((w * (alpha * here + (1 - alpha) * prev), w * ((1 - alpha) * here + alpha * prev)))
    brute = _brute_composed_delta(masses, eps, rounds)
    low, high = hp.composed_delta_bounds_mp("clones", dps=40, eps0=eps0, n=n, eps=eps, rounds=rounds)
    assert _close(low, brute)


COMPOSED = [
    (pld.compose_clones_mp, pld.compose_clones, {"eps0": 1.0, "n": 20, "delta": 1e-6, "rounds": 3}),
    (pld.compose_stronger_clones_mp, pld.compose_stronger_clones, {"eps0": 0.5, "n": 12, "delta": 1e-3, "rounds": 4}),
    (pld.compose_exact_binary_rr_mp, pld.compose_exact_binary_rr, {"eps0": 1.0, "n": 20, "delta": 1e-6, "rounds": 3}),
]


@pytest.mark.parametrize("mp_path,float_path,point", COMPOSED)
def test_composed_paths_agree_at_40_and_80_digits_and_lie_in_the_float_pld_interval(mp_path, float_path, point):
    enclosures = [mp_path(dps=dps, **point) for dps in MP_PRECISIONS]
    assert len({_strings(e) for e in enclosures}) == 1
    low, high = (_as_fraction(x) for x in enclosures[-1])
    certified = pld.composed_epsilon([pld.Round(point_pair(float_path), point["eps0"], point["n"], point["rounds"])], delta=point["delta"])
    assert Fraction(certified.lower) <= low <= high <= Fraction(certified.upper)


def point_pair(float_path):
    return {pld.compose_clones: "clones", pld.compose_stronger_clones: "stronger_clones", pld.compose_exact_binary_rr: "exact_binary_rr"}[float_path]


def test_the_lower_bound_statement_reports_the_lower_end():
    """compose.exact_binary_rr is a LOWER bound on the worst case: its value must not exceed the exact
    composed eps of the pairs (it used to report the PLD interval's upper end, above the truth)."""
    point = {"eps0": 1.0, "n": 20, "delta": 1e-6, "rounds": 3}
    exact_low, _ = pld.compose_exact_binary_rr_mp(dps=40, **point)
    assert Fraction(float(pld.compose_exact_binary_rr(**point))) <= _as_fraction(exact_low)


def test_the_binary_rr_counts_are_those_of_the_float_reference():
    for n in (1, 2, 3, 20, 40, 41, 1000):
        assert hp.binary_rr_counts_mp(n) == pld.binary_rr_counts(n)


def test_outside_the_high_precision_range_the_path_declines_with_a_value_error():
    # (the vector generator leaves such points out: `_high_precision` returns None)
    with pytest.raises(ValueError, match="outside the high-precision range"):
        clones_numeric_mp(dps=40, eps0=1.0, n=10**7, delta=1e-6)
    with pytest.raises(ValueError, match="outside the high-precision range"):
        pld.compose_clones_mp(dps=40, eps0=1.0, n=200, delta=1e-6, rounds=5)
    assert _high_precision(pld.compose_clones_mp, get_statement("compose.clones"), {"eps0": 1.0, "n": 200, "delta": 1e-6, "rounds": 5}, (40,)) is None


def test_a_planted_wrong_root_fails_the_sign_checks(monkeypatch):
    """The returned ends are verified: a bracket moved off the root by 1e-12 relative is refused."""
    point = {"eps0": 1.0, "n": 300, "delta": 1e-5}
    honest = clones_numeric_mp(dps=40, **point)
    original = hp._bracket_ends

    def shifted(root, dps):
        low, high = original(root, dps)
        return low * (1 + mpmath.mpf(10) ** -12), high * (1 + mpmath.mpf(10) ** -12)

    monkeypatch.setattr(hp, "_bracket_ends", shifted)
    with pytest.raises(ValueError, match="could not be verified"):
        clones_numeric_mp(dps=40, **point)
    monkeypatch.setattr(hp, "_bracket_ends", original)
    assert clones_numeric_mp(dps=40, **point) == honest


def test_a_planted_wrong_weight_leaves_the_float_interval(monkeypatch):
    """A clone probability off by one part in 1e6 (a wrong constant) moves the value out of the float
    reference's certified interval, so the agreement tests above would catch it."""
    point = {"eps0": 1.0, "n": 10_000, "delta": 1e-6}
    answer = clones_numeric(**point)
    original = hp._CloneSum._weights

    def skewed(self):
        self.eps0 *= 1 + 1e-6
        try:
            original(self)
        finally:
            self.eps0 /= 1 + 1e-6

    monkeypatch.setattr(hp._CloneSum, "_weights", skewed)
    low, high = (_as_fraction(x) for x in clones_numeric_mp(dps=40, **point))
    assert not (Fraction(answer.lower) <= low and high <= Fraction(answer.upper))


SWEEP_SINGLE = [
    ("fmt21", {"eps0": 0.2, "n": 1000, "delta": 1e-9}),
    ("fmt23", {"eps0": 3.0, "n": 37, "delta": 1e-3}),
    ("fmt21", {"eps0": 9.0, "n": 5000, "delta": 1e-12}),
    ("fmt23", {"eps0": 0.05, "n": 2, "delta": 1e-2}),
]


@pytest.mark.parametrize("kind,point", SWEEP_SINGLE)
def test_the_float_clone_walk_contains_the_high_precision_value_across_the_range(kind, point):
    float_path = clones_numeric if kind == "fmt21" else stronger_clones
    answer = float_path(**point)
    low, high = (_as_fraction(x) for x in hp.clone_epsilon_mp(dps=40, kind=kind, seed=answer.upper, **point))
    assert Fraction(answer.lower) <= low <= high <= Fraction(answer.upper)


SWEEP_COMPOSED = [
    ("clones", {"eps0": 0.3, "n": 15, "delta": 1e-4, "rounds": 2}),
    ("stronger_clones", {"eps0": 2.0, "n": 9, "delta": 1e-7, "rounds": 4}),
    ("clones", {"eps0": 5.0, "n": 30, "delta": 1e-6, "rounds": 1}),
    ("exact_binary_rr", {"eps0": 3.0, "n": 60, "delta": 1e-8, "rounds": 2}),
    ("exact_binary_rr", {"eps0": 0.4, "n": 7, "delta": 1e-3, "rounds": 4}),
]


@pytest.mark.parametrize("pair,point", SWEEP_COMPOSED)
def test_the_float_pld_interval_contains_the_exact_composed_value_across_the_range(pair, point):
    """An independent test of shuffle_spec.reference.composition.shuffled_rounds (discretisation, FFT, Chernoff tails, clone blocks) against exact
    enumeration of the composed losses."""
    certified = pld.composed_epsilon([pld.Round(pair, point["eps0"], point["n"], point["rounds"])], delta=point["delta"])
    low, high = (_as_fraction(x) for x in hp.composed_epsilon_mp(pair, dps=40, seed=(certified.lower, certified.upper), **point))
    assert Fraction(certified.lower) <= low <= high <= Fraction(certified.upper)
