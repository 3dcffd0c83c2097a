"""BBGN19 numerical amplification bounds (Thm 5.3, Bennett generic, k-RR and Laplace Hoeffding/Bennett,
Thm 5.1, Cor 5.3.1): soundness against exact shuffled instances, monotonicity, inversions, and the
Bennett erratum (the pre-2020 form is below the exact expectation)."""

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_spec.reference.finite.blanket import amplification_variable, expected_positive_part_of_sum
from shuffle_spec.reference.bounds import bennett, hoeffding, restated
from shuffle_spec.reference.finite.randomizers import binary_randomized_response, k_randomized_response
from shuffle_spec.reference.core.rounding import round_down, round_up
from shuffle_spec.reference.finite.shuffling import exact_shuffled_delta, exact_shuffled_e_eps
from support.strategies import ldp_randomizers

GENERIC_DELTA = [hoeffding.hoeffding_generic_delta, bennett.bennett_generic_delta]
GENERIC_EPS = [hoeffding.hoeffding_generic_epsilon, bennett.bennett_generic_epsilon]
KRR_DELTA = [hoeffding.hoeffding_krr_delta, bennett.bennett_krr_delta]
KRR_EPS = [hoeffding.hoeffding_krr_epsilon, bennett.bennett_krr_epsilon]
LAPLACE_EPS = [hoeffding.hoeffding_laplace_epsilon, bennett.bennett_laplace_epsilon]


@settings(max_examples=15)
@given(ldp_randomizers(max_inputs=3, max_outputs=3), st.integers(1, 5), st.fractions(Fraction(9, 8), 3, max_denominator=8))
def test_generic_delta_bounds_exceed_exact_shuffled_delta(pair, n, e_eps):
    """delta form: exact delta(eps) of S o R^n <= bound(eps, eps0, n) for random eps0-LDP R, eps0 = log e
    rounded up (R is eps0-LDP for every eps0 >= log e) and eps = log(e_eps) rounded down (delta(eps) is
    non-increasing, so the bound at a smaller eps also bounds the exact delta at e_eps)."""
    r, e = pair
    eps0 = round_up(math.log(e), 4)
    eps = round_down(math.log(e_eps), 4)
    if eps > eps0:
        return
    exact = exact_shuffled_delta(r, n, e_eps)
    for bound in GENERIC_DELTA:
        assert exact <= bound(eps=eps, eps0=eps0, n=n)


@settings(max_examples=10)
@given(ldp_randomizers(max_inputs=3, max_outputs=3), st.integers(2, 5), st.sampled_from([Fraction(1, 2), Fraction(1, 10), Fraction(1, 100)]))
def test_generic_epsilon_bounds_exceed_exact_shuffled_epsilon(pair, n, delta):
    r, e = pair
    eps0 = round_up(math.log(e), 4)
    exact_e = exact_shuffled_e_eps(r, n, delta)
    for bound in GENERIC_EPS:
        value = bound(eps0=eps0, n=n, delta=float(delta)).value
        assert exact_e <= Fraction(math.exp(value)) * (1 + Fraction(1, 10**12)), bound.__name__


# k = 4 (2.6 s of CPU: every dataset of 4 users over 4 values) is the second tier's; k = 2 and 3 stay in the default.
@pytest.mark.parametrize("k, e0, n", [(2, Fraction(3), 6), (3, Fraction(5), 5), (2, Fraction(20), 7), pytest.param(4, Fraction(8), 4, marks=pytest.mark.slow)])
def test_krr_bounds_exceed_exact_shuffled_krr(k, e0, n):
    """Against exact shuffled k-RR at e^eps0 = e0; the bound is called at eps0 = log(e0) rounded up, which is
    safe: k-RR at a smaller eps0 is a post-processing of k-RR at a larger one (blankets compose)."""
    r = k_randomized_response(k, e0)
    eps0 = round_up(math.log(e0), 4)
    for e_eps in (Fraction(11, 10), Fraction(3, 2), Fraction(2)):
        eps = round_down(math.log(e_eps), 4)
        if eps >= eps0:
            continue
        exact = exact_shuffled_delta(r, n, e_eps)
        for bound in KRR_DELTA:
            assert exact <= bound(eps=eps, eps0=eps0, n=n, k=k)
    for delta in (0.5, 0.1, 0.01):
        exact_e = exact_shuffled_e_eps(r, n, Fraction(delta))
        for bound in KRR_EPS + GENERIC_EPS:
            kwargs = {"k": k} if bound in KRR_EPS else {}
            assert exact_e <= math.exp(bound(eps0=eps0, n=n, delta=delta, **kwargs).value) * (1 + 1e-12), bound.__name__


@pytest.mark.slow  # n = 60 by the count-vector shuffler (~4 s of CPU); the default tier keeps the small-n comparisons above
def test_bounds_exceed_exact_binary_rr_at_larger_n():
    """n = 60 binary RR, exact by the count-vector shuffler (61 outcomes, 60 neighbouring pairs)."""
    e0 = Fraction(3)
    r = binary_randomized_response(e0)
    eps0 = round_up(math.log(3), 4)
    exact_e = exact_shuffled_e_eps(r, 60, Fraction(1, 100))
    for bound in GENERIC_EPS + KRR_EPS:
        kwargs = {"k": 2} if bound in KRR_EPS else {}
        value = bound(eps0=eps0, n=60, delta=0.01, **kwargs).value
        assert exact_e <= math.exp(value) * (1 + 1e-12)


def _all_epsilon_bounds():
    for f in GENERIC_EPS + LAPLACE_EPS:
        yield f, {}
    for f in KRR_EPS:
        yield f, {"k": 2}
        yield f, {"k": 10}


@pytest.mark.parametrize("bound, extra", list(_all_epsilon_bounds()), ids=lambda v: getattr(v, "__name__", str(v)))
def test_monotone_in_n_eps0_delta(bound, extra):
    def eps(eps0, n, delta):
        return bound(eps0=eps0, n=n, delta=delta, **extra).value

    for n0 in (300, 10_000):
        ns = [n0, 2 * n0, 10 * n0, 100 * n0]
        values = [eps(1.0, n, 1e-6) for n in ns]
        assert all(a >= b for a, b in itertools.pairwise(values)), values
    eps0s = [0.25, 0.5, 1.0, 2.0, 3.0, 4.0]
    values = [eps(e0, 50_000, 1e-6) for e0 in eps0s]
    assert all(a <= b for a, b in itertools.pairwise(values)), values
    deltas = [1e-10, 1e-8, 1e-6, 1e-4, 1e-2]
    values = [eps(1.0, 50_000, d) for d in deltas]
    assert all(a >= b for a, b in itertools.pairwise(values)), values


@pytest.mark.parametrize("pair", [
    (hoeffding.hoeffding_generic_delta, hoeffding.hoeffding_generic_epsilon, hoeffding.hoeffding_generic_eps0, {}),
    (bennett.bennett_generic_delta, bennett.bennett_generic_epsilon, bennett.bennett_generic_eps0, {}),
    (hoeffding.hoeffding_krr_delta, hoeffding.hoeffding_krr_epsilon, hoeffding.hoeffding_krr_eps0, {"k": 3}),
    (bennett.bennett_krr_delta, bennett.bennett_krr_epsilon, bennett.bennett_krr_eps0, {"k": 3}),
    (hoeffding.hoeffding_laplace_delta, hoeffding.hoeffding_laplace_epsilon, hoeffding.hoeffding_laplace_eps0, {}),
    (bennett.bennett_laplace_delta, bennett.bennett_laplace_epsilon, bennett.bennett_laplace_eps0, {}),
], ids=lambda p: p[0].__name__)
def test_inversions_are_verified_and_tight(pair):
    delta_f, eps_f, eps0_f, extra = pair
    n, delta, eps0 = 20_000, 1e-6, 1.5
    eps = eps_f(eps0=eps0, n=n, delta=delta, **extra)
    assert not eps.note and 0 < eps.lower <= eps.upper < eps0
    assert delta_f(eps=eps.upper, eps0=eps0, n=n, **extra) <= delta  # verified at the returned point
    assert delta_f(eps=eps.upper * (1 - 1e-6), eps0=eps0, n=n, **extra) > delta  # and within tolerance
    best = eps0_f(eps=eps.upper, n=n, delta=delta, **extra)
    assert delta_f(eps=eps.upper, eps0=best, n=n, **extra) <= delta
    assert best >= eps0 * (1 - 1e-8)  # eps0 = 1.5 is certified at this eps, so the largest is at least it
    assert delta_f(eps=eps.upper, eps0=best * (1 + 1e-6), n=n, **extra) > delta


def test_no_amplification_returns_eps0_with_a_note():
    value = hoeffding.hoeffding_generic_epsilon(eps0=4.0, n=1_000_000, delta=1e-6)
    assert value.value == 4.0 and "no amplification" in value.note


@pytest.mark.parametrize(
    "k, e0, e_eps, prefix_fails",
    [(2, Fraction(3), Fraction(3, 2), True), (3, Fraction(4), Fraction(6, 5), False), (10, Fraction(30), Fraction(2), False)],
)
def test_lemma_5_5_and_fixed_lemma_5_6_bound_the_exact_expectation_and_the_2019_form_does_not(k, e0, e_eps, prefix_fails):
    """E[(L_1+...+L_m)_+] exactly for k-RR's L (Lemma 5.7's parameters) vs Lemma 5.5 and the corrected
    Lemma 5.6; the pre-2020 code form b+/(m a log(1+beta)) e^{-m alpha phi(beta)} falls below it (binary RR,
    e^eps0 = 3, e^eps = 3/2, m = 32: 0.0236 < exact 0.0273; found by this exact computation)."""
    r = k_randomized_response(k, e0)
    L = amplification_variable(r, 0, 1, e_eps)
    a = float(e_eps - 1)
    b_plus = float(max(L.support))
    width = float(max(L.support) - min(L.support))
    c = float(L.expectation(lambda v: v * v))
    prefix_below_truth = False
    for m in (1, 2, 3, 4, 8, 16, 32):
        exact = float(expected_positive_part_of_sum(L, m))
        hoeffding_bound = hoeffding.hoeffding_expectation_bound(a=a, b=width, m=m)
        assert hoeffding_bound.direction == "upper_bound" and exact <= hoeffding_bound.value == hoeffding_bound.upper
        fixed = bennett.bennett_expectation_bound(a=a, b_plus=b_plus, c=c, m=m).value
        assert exact <= fixed
        prefix_2019 = fixed / (m * a / b_plus)
        prefix_below_truth |= prefix_2019 < exact
    if prefix_fails:
        assert prefix_below_truth


def test_theorem_5_1_and_corollary_5_3_1():
    # Thm 5.1 = 12 eps0 sqrt(log(1/delta)/n) (EFMRTT19 Thm 7 as restated), rounded up.
    value = restated.bbgn19_theorem_5_1_epsilon(eps0=0.4, n=10_000, delta=1e-6).value
    assert value >= 12 * 0.4 * math.sqrt(math.log(1e6) / 10_000) and math.isclose(value, 0.17841, rel_tol=1e-4)
    # Cor 5.3.1 is certified by Thm 5.3, so it is never below it.
    for eps0, n, delta in ((1.0, 10_000, 1e-6), (0.5, 1000, 1e-3), (0.05, 300, 1e-12), (1.5, 10**6, 1e-9)):
        cor = restated.corollary_5_3_1_epsilon(eps0=eps0, n=n, delta=delta).value
        assert cor >= hoeffding.hoeffding_generic_epsilon(eps0=eps0, n=n, delta=delta).value or cor >= eps0


# --- large eps0: the blanket probability gamma ~ e^-eps0 is far below the working
# precision there, so the bracket (1 - gamma + gamma e^-s)^n - (1 - gamma)^n must not cancel. ---------


def _binary_rr_event_epsilon(eps0: float, n: int, delta: float) -> float:
    """A lower bound on the exact eps of shuffled binary RR (hence on every generic or k-RR bound): user 1
    holds 0 or 1, everyone else 0, E = {no report is 1}. P(E) = (1-f)^n vs f (1-f)^(n-1), f = 1/(e^eps0+1),
    so delta(eps) >= (1-f)^(n-1) ((1-f) - e^eps f) and eps >= log(((1-f) - delta/(1-f)^(n-1)) / f)."""
    import mpmath

    with mpmath.workdps(60):
        f = 1 / (mpmath.exp(eps0) + 1)
        rest = (1 - f) ** (n - 1)
        return float(mpmath.log(((1 - f) - delta / rest) / f))


def _laplace_event_epsilon(eps0: float, n: int, delta: float) -> float:
    """The same for the Laplace mechanism x + Lap(1/eps0) on [0, 1] with E = {every output <= 1/2}:
    P(E) = (1-h)^n vs h (1-h)^(n-1), h = e^(-eps0/2)/2 = P[0 + Lap > 1/2] = P[1 + Lap <= 1/2]."""
    import mpmath

    with mpmath.workdps(60):
        h = mpmath.exp(-mpmath.mpf(eps0) / 2) / 2
        rest = (1 - h) ** (n - 1)
        return float(mpmath.log(((1 - h) - delta / rest) / h))


@pytest.mark.parametrize("eps0", [150.0, 188.0, 200.0, 400.0, 700.0])
def test_epsilon_bounds_at_large_eps0_stay_above_an_event_lower_bound(eps0):
    """Above eps0 ~ 187 the Bennett bounds once returned eps0 * 1e-12 (unsound): the regression guard."""
    n, delta = 10_000, 1e-6
    truth = _binary_rr_event_epsilon(eps0, n, delta)
    assert truth > eps0 - 1e-3  # no one else flips: essentially no amplification
    for bound in GENERIC_EPS:
        assert bound(eps0=eps0, n=n, delta=delta).value >= truth
    for bound in KRR_EPS:
        assert bound(eps0=eps0, n=n, delta=delta, k=2).value >= truth
    laplace_truth = _laplace_event_epsilon(eps0, n, delta)
    assert laplace_truth > eps0 / 2
    for bound in LAPLACE_EPS:
        assert bound(eps0=eps0, n=n, delta=delta).value >= laplace_truth


@pytest.mark.parametrize("eps0, eps, n", [(20.0, 0.5, 1000), (188.0, 1e-3, 10_000), (300.0, 0.1, 10**8), (300.0, 250.0, 7)])
def test_bennett_delta_agrees_with_a_direct_evaluation_at_huge_precision(eps0, eps, n):
    """The Bennett closed form evaluated naively at 900 digits (enough to resolve 1 - e^-300 ... to the
    e^-600-sized difference) against the reference's cancellation-free evaluation at 80 digits."""
    import mpmath

    with mpmath.workdps(900):
        gamma = mpmath.exp(-mpmath.mpf(eps0))
        e, e0 = mpmath.exp(mpmath.mpf(eps)), mpmath.exp(mpmath.mpf(eps0))
        b_plus = e0 * (1 - e * mpmath.exp(-2 * mpmath.mpf(eps0)))
        c = e0 * (e**2 + 1) - 2 * e * mpmath.exp(-3 * mpmath.mpf(eps0))
        a = e - 1
        beta = a * b_plus / c
        s = c / b_plus**2 * ((1 + beta) * mpmath.log(1 + beta) - beta)
        bracket = (1 - gamma + gamma * mpmath.exp(-s)) ** n - (1 - gamma) ** n
        direct = b_plus / mpmath.log(1 + beta) * bracket / (gamma * n)
    value = bennett.bennett_generic_delta(eps=eps, eps0=eps0, n=n)
    assert float(direct) <= value <= float(direct) * (1 + 1e-12)
