"""The far-tail truncation of the Laplace pair lower bound (exact.laplace_pair_x0; module doc of
`shuffle_spec.reference.lower_bounds.laplace`, "The far tail"): one report with Z <= -(n - 1) z_max makes the
sum <= 0, so the truncated laws give a certified interval of the SAME divergence. Checked against the exact
divergence at n = 2 by quadrature (independent closed forms below), against the untruncated lattice where both
can be computed, and at the point where the untruncated lattice certified nothing (eps0 = 8, n = 1e3)."""

from __future__ import annotations

import math

import mpmath
import pytest

from shuffle_spec.reference.exact.binary_rr import binary_rr_pair_epsilon
from shuffle_spec.reference.lower_bounds import laplace as pair


def _pair_delta_n2(eps0: float, eps: float) -> mpmath.mpf:
    """max over both directions of (1/2) E[(Z_1 + Z_2)_+] for the pair "0 vs 1, the other user at 0" (n = 2),
    by quadrature. R = mu_1(V)/mu_0(V), V ~ mu_0: an atom 1/C of mass 1/2 (V <= 0) and, with mass 1/2, X with
    Pr[X >= x] = (C x)^{-1/2} on [1/C, C] (density C^{-1/2} x^{-3/2} / 2, atom 1/C at C). Forward Z = 1 - e R,
    backward Z = R - e. E[(X - b)_+] = 2 - 2 sqrt(b/C) on [1/C, C] (2 - 1/C - b below, 0 above)."""
    with mpmath.workdps(30):
        big_c, e = mpmath.exp(mpmath.mpf(eps0)), mpmath.exp(mpmath.mpf(eps))
        f = lambda x: x ** mpmath.mpf(-1.5) / (2 * mpmath.sqrt(big_c))

        def x_above(b):  # E[(X - b)_+]
            if b >= big_c:
                return mpmath.mpf(0)
            if b <= 1 / big_c:
                return 2 - 1 / big_c - b
            return 2 - 2 * mpmath.sqrt(b / big_c)

        def r_below(b):  # E[(b - R)_+]
            return (max(b - 1 / big_c, 0) + (b - (2 - 1 / big_c) + x_above(b))) / 2

        def r_above(b):  # E[(R - b)_+]
            return (max(1 / big_c - b, 0) + x_above(b)) / 2

        def expect(g, z_of_x, z_atom):  # E[g(Z_2)] over the law of Z_2
            kinks = sorted({1 / big_c, big_c} | {k for k in (2 / e - 1 / big_c, 2 * e - 1 / big_c, 2 * e - big_c) if 1 / big_c < k < big_c})
            inner = mpmath.quad(lambda x: f(x) * g(z_of_x(x)), kinks) + g(z_of_x(big_c)) / big_c
            return (g(z_atom) + inner) / 2

        forward = expect(lambda a: e * r_below((1 + a) / e), lambda x: 1 - e * x, 1 - e / big_c) / 2
        backward = expect(lambda a: r_above(e - a), lambda x: x - e, 1 / big_c - e) / 2
        return max(forward, backward)


def test_quadrature_helper_within_its_jensen_and_triangle_bounds():
    # The helper's own check (so that a wrong helper cannot pass the test below). At eps = 0, E[Z] = 0 and E[Z_+]
    # is the total variation 1 - e^{-eps0/2} (the n = 1 profile); (1/2) E[(Z_1 + Z_2)_+] is at least
    # (1/2) E[(Z_1 + E Z_2)_+] = E[Z_+]/2 (Jensen) and at most (1/2)(E[Z_1+] + E[Z_2+]) = E[Z_+].
    eps0 = 2.0
    value = float(_pair_delta_n2(eps0, 0.0))
    single = 1 - math.exp(-eps0 / 2)  # the Laplace profile at eps = 0 (n = 1): E[Z_+]
    assert single / 2 <= value <= single


@pytest.mark.parametrize("eps0,eps", [(8.0, 2.0), (8.0, 5.0), (6.0, 3.0)])
def test_truncated_interval_contains_the_exact_n2_divergence(eps0, eps):
    assert pair._cut_depth(eps0, eps, "forward", 2) is not None  # the truncated path is the one tested
    exact = float(_pair_delta_n2(eps0, eps))
    got = pair.laplace_pair_delta(eps0=eps0, n=2, eps=eps)
    assert got.lower * (1 - 1e-9) <= exact <= got.upper * (1 + 1e-9), (exact, got)
    assert got.upper <= 1.1 * exact  # and it is tight


def test_truncated_and_untruncated_intervals_intersect(monkeypatch):
    """Both are certified intervals of the same divergence (the truncation is exact): they must intersect, and
    the truncated one is narrower where the tail dominates the variance."""
    eps0, n, eps = 6.0, 300, 3.0
    assert pair._cut_depth(eps0, eps, "forward", n) is not None
    cut = pair.laplace_pair_delta(eps0=eps0, n=n, eps=eps)
    monkeypatch.setattr(pair, "_cut_depth", lambda *args: None)
    whole = pair.laplace_pair_delta(eps0=eps0, n=n, eps=eps)
    assert max(cut.lower, whole.lower) <= min(cut.upper, whole.upper) * (1 + 1e-12), (cut, whole)
    assert cut.upper / max(cut.lower, 1e-300) < whole.upper / max(whole.lower, 1e-300)


@pytest.mark.slow
def test_large_eps0_small_n_pair_is_certified_above_the_binned_bound():
    """eps0 = 8, n = 1e3, delta = 1e-6: the untruncated lattice (step 8192 for a bulk of width 1) certified no
    eps below eps0, leaving the binned binary RR bound (4.674); the truncated one brackets the pair's eps in an
    interval of relative width < 1%, above the binned bound (both lower bounds on the same pair's eps: the binned
    reports are a post-processing of the continuous ones)."""
    eps0, n, delta = 8.0, 1000, 1e-6
    got = pair.laplace_pair_x0_interval(eps0=eps0, n=n, delta=delta)
    binned = binary_rr_pair_epsilon(eps0=pair.binned_binary_rr_eps0(eps0=eps0), n=n, delta=delta, k=0)
    assert binned.lower < got.lower <= got.upper < eps0
    assert got.upper - got.lower < 1e-2 * got.upper
