"""Unary encodings (symmetric RAPPOR / SUE, OUE): the exact LDP level, the closed-form blanket decomposition
against the full matrix, the certified bounds against exact shuffled epsilons by full enumeration (replace-one and
deletion), the rounding side of the parameters, monotonicity, and the upper bound above the lower bound."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import pytest

from shuffle_spec.reference.finite.distributions import Distribution
from shuffle_spec.reference.finite.divergences import ldp_ratio, min_e_eps_for_delta
from shuffle_spec.reference.finite.randomizers import Randomizer
from shuffle_spec.reference.finite.shuffling import exact_shuffled_e_eps, shuffled_distribution
from shuffle_spec.reference.randomizers import unary
from shuffle_spec.reference.randomizers.unary import UnaryEncoding

F = Fraction
# Exact encodings: RAPPOR with per-bit ratio 2 (p = 2/3) and 4 (p = 4/5); OUE with e^eps0 = 3 (q = 1/4).
ENCODINGS = [UnaryEncoding(F(2, 3), F(1, 3), 3), UnaryEncoding(F(1, 2), F(1, 4), 3), UnaryEncoding(F(4, 5), F(1, 5), 3)]


@pytest.mark.parametrize("d", [2, 3, 4])
@pytest.mark.parametrize("p, q", [(F(2, 3), F(1, 3)), (F(1, 2), F(1, 4)), (F(9, 10), F(1, 10))])
def test_ldp_ratio_is_the_full_matrix_maximum(p, q, d):
    # The closed form p (1 - q) / ((1 - p) q) against max_{x, x', y} mu_x(y) / mu_x'(y) of the 2^d-column matrix.
    encoding = UnaryEncoding(p, q, d)
    assert ldp_ratio(Randomizer.from_matrix(encoding.rows())) == encoding.ratio == p * (1 - q) / ((1 - p) * q)


def test_closed_forms_of_rappor_and_oue():
    # WBLJ17 Sec. 4.3: SUE p = h/(h+1), q = 1/(h+1), h = e^(eps0/2): ratio h^2; OUE p = 1/2, q = 1/(e^eps0+1): e^eps0.
    rappor = unary.symmetric_rappor(2.0, 5, side="lower")
    oue = unary.optimized_unary_encoding(2.0, 5, side="lower")
    with mpmath.workdps(40):
        assert mpmath.mpf(rappor.ratio.numerator) / rappor.ratio.denominator <= mpmath.exp(2) <= mpmath.mpf(unary.symmetric_rappor(2.0, 5).ratio.numerator) / unary.symmetric_rappor(2.0, 5).ratio.denominator
        assert mpmath.mpf(oue.ratio.numerator) / oue.ratio.denominator <= mpmath.exp(2) <= mpmath.mpf(unary.optimized_unary_encoding(2.0, 5).ratio.numerator) / unary.optimized_unary_encoding(2.0, 5).ratio.denominator
    assert rappor.p + rappor.q == 1 and oue.p == F(1, 2)


@pytest.mark.parametrize("encoding", ENCODINGS, ids=str)
def test_blanket_decomposition_matches_the_full_matrix(encoding):
    # gamma omega <= mu_x entrywise (omega = the all-zero vector's report law), and the groups of the pair (0, 1)
    # read off the full matrix (outputs merged by equal (mu_0/omega, mu_1/omega)) are the closed-form groups.
    rows = encoding.rows()
    outputs = list(itertools.product((0, 1), repeat=encoding.d))
    omega = [math.prod(((encoding.q if b else 1 - encoding.q) for b in y), start=F(1)) for y in outputs]
    pair = encoding.replace_pairs()[0]
    assert all(pair.gamma * w <= row[i] for row in rows for i, w in enumerate(omega))
    merged: dict[tuple[F, F], F] = {}
    for i, w in enumerate(omega):
        key = (rows[0][i] / w, rows[1][i] / w)
        merged[key] = merged.get(key, F(0)) + w
    assert merged == dict(zip(zip(pair.groups.alpha, pair.groups.beta, strict=True), pair.groups.p, strict=True))


@pytest.mark.parametrize("encoding", [ENCODINGS[1]] + [pytest.param(e, marks=pytest.mark.slow) for e in (ENCODINGS[0], ENCODINGS[2])], ids=str)
@pytest.mark.parametrize("n, delta", [(2, F(1, 10))])
def test_bounds_bracket_the_exact_shuffled_epsilon(encoding, n, delta):
    # The exact replace-one central eps: every neighbouring pair of datasets of size n (reference/finite, Fractions).
    exact = math.log(exact_shuffled_e_eps(Randomizer.from_matrix(encoding.rows()), n, delta))
    upper = unary.unary_epsilon_upper(encoding, n=n, delta=float(delta))
    lower = unary.unary_epsilon_lower(encoding, n=n, delta=float(delta))
    assert lower.value <= exact <= upper.value
    assert lower.direction == "lower_bound" and upper.direction == "upper_bound"


@pytest.mark.slow
@pytest.mark.parametrize("encoding", ENCODINGS, ids=str)
@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("delta", [F(1, 10), F(1, 100), F(1, 1000)])
def test_bounds_bracket_the_exact_shuffled_epsilon_grid(encoding, n, delta):
    exact = math.log(exact_shuffled_e_eps(Randomizer.from_matrix(encoding.rows()), n, delta))
    assert unary.unary_epsilon_lower(encoding, n=n, delta=float(delta)).value <= exact <= unary.unary_epsilon_upper(encoding, n=n, delta=float(delta)).value


def _exact_deletion_epsilon(encoding: UnaryEncoding, n: int, delta: F) -> float:
    """max over the others' multisets and x of the eps of (user 1 from input x) vs (user 1 from the all-zero
    reference), both directions, by enumeration (the reference is one more row of the matrix)."""
    rows = encoding.rows() + [[math.prod(((encoding.q if b else 1 - encoding.q) for b in y), start=F(1)) for y in itertools.product((0, 1), repeat=encoding.d)]]
    randomizer = Randomizer.from_matrix(rows)
    reference = encoding.d
    worst = F(1)
    for rest in itertools.combinations_with_replacement(range(encoding.d), n - 1):
        for x in range(encoding.d):
            p, q = shuffled_distribution(randomizer, rest + (x,)), shuffled_distribution(randomizer, rest + (reference,))
            worst = max(worst, min_e_eps_for_delta(p, q, delta), min_e_eps_for_delta(q, p, delta))
    assert isinstance(p, Distribution)
    return math.log(worst)


@pytest.mark.parametrize("n, delta", [(2, F(1, 10)), pytest.param(3, F(1, 50), marks=pytest.mark.slow)])
def test_deletion_bounds_bracket_the_exact_epsilon(n, delta):
    encoding = ENCODINGS[0]
    exact = _exact_deletion_epsilon(encoding, n, delta)
    assert unary.unary_epsilon_lower(encoding, n=n, delta=float(delta), relation="deletion").value <= exact
    assert exact <= unary.unary_epsilon_upper(encoding, n=n, delta=float(delta), relation="deletion").value


@pytest.mark.slow
def test_upper_bound_monotone_in_n_and_delta_and_above_the_lower_bound():
    # Central eps is non-increasing in n and in delta; the certified ends keep that order at factor-10 steps.
    kw = {"eps0": 2.0, "d": 1000}
    small_n = unary.oue_epsilon_upper(n=30, delta=1e-3, **kw)
    large_n = unary.oue_epsilon_upper(n=300, delta=1e-3, **kw)
    large_delta = unary.oue_epsilon_upper(n=30, delta=1e-2, **kw)
    assert large_n.value < small_n.value and large_delta.value < small_n.value
    lower = unary.oue_epsilon_lower(n=30, delta=1e-3, **kw)
    assert lower.value <= small_n.value < 2.0
    assert unary.oue_epsilon_lower(n=300, delta=1e-3, **kw).value < lower.value


@pytest.mark.slow
@pytest.mark.parametrize("name", ["rappor", "oue"])
@pytest.mark.parametrize("eps0", [0.5, 2.0, 8.0])
@pytest.mark.parametrize("n", [10**3, 10**5])
def test_upper_bound_above_lower_bound_on_a_grid(name, eps0, n):
    upper = getattr(unary, f"{'symmetric_rappor' if name == 'rappor' else 'oue'}_epsilon_upper")(eps0=eps0, n=n, delta=1e-6, d=10**6)
    lower = getattr(unary, f"{'symmetric_rappor' if name == 'rappor' else 'oue'}_epsilon_lower")(eps0=eps0, n=n, delta=1e-6, d=10**6)
    assert 0 < lower.value <= upper.value <= eps0


def test_deletion_upper_never_above_the_per_bit_level():
    # Deletion LDP of symmetric RAPPOR is the per-bit level eps0/2 (max(g(1), 1/g(0)) = h): the cap.
    value = unary.symmetric_rappor_deletion_epsilon_upper(eps0=2.0, n=2, delta=1e-9, d=4)
    assert value.value <= 1.0
