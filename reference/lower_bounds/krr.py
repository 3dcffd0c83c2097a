"""Certified lower bounds on the central epsilon of shuffled k-ary randomized response: the exact epsilon
of explicit neighbouring pairs at large n (exact.krr_pair_third, exact.krr_pair_x0).

Every valid upper bound must be at least the epsilon of any particular neighbouring pair, so these say
"no valid bound can be below this". The pairs (e0 = e^eps0, D = e0 + k - 1, k-RR reports the input w.p.
e0/D and each other value w.p. 1/D):

- third (k >= 3): user 1 holds x0 vs x1, the other n-1 users all hold a third value z;
- x0 (k >= 2): user 1 holds x0 vs x1, the other n-1 users all hold x0 (both directions of the divergence;
  for k = 2 this is shuffled binary RR with all the others at one bit).

The statistic. The adversary keeps only (h0, h1, R) = the counts of x0, x1 and of every other value in the
shuffled histogram: a post-processing, so the divergence of the kept counts is at most the pair's, and the
epsilon computed is a lower bound on the pair's epsilon (for the x0 pair it is the pair's exact epsilon: the
other values are exchangeable there). With the n-draw reference measure W = Mult(n; pi0, pi1, pir) of the
others' report probabilities, the law of the counts under "user at x" is
P_x(h) = W(h) (mu_x(x0) h0/pi0 + mu_x(x1) h1/pi1 + mu_x(rest) R/pir) / n (checked in proofs_checks/derived/blanket_exact_krr.py), so

    D_{e^eps}(P_x0 || P_x1) = (1/n) E_W[(a0 h0 + a1 h1 + ar R)_+],   a_j = (mu_x0(j) - e^eps mu_x1(j)) / pi_j,

a lattice sum evaluated with the certified engine of `shuffle_spec.reference.numerics.lattice_sums`.

The third pair with the rest split (exact.krr_pair_third_split, k >= 4). For the third pair the counts (h0, h1, R)
lose information: R merges the count h_z of the others' value z (reported w.p. e0/D by each other user) with the
count R' of the k - 3 values nobody holds (w.p. (k-3)/D), and the two tell different stories (coefficients
(1 - e)/e0 and 1 - e below). The values outside {x0, x1, z} are exchangeable in this pair, so (h0, h1, h_z, R')
is sufficient and its divergence is the pair's EXACT one. With W = Mult(n; 1/D, 1/D, e0/D, (k-3)/D),

    D_{e^eps} = (1/n) E_W[(a0 h0 + a1 h1 + az h_z + ar R')_+],
    a0 = e0 - e, a1 = 1 - e e0, az = (1 - e)/e0, ar = 1 - e,

(the same form P_x(h) = W(h) sum_j mu_x(j) h_j / pi_j / n as above, with four classes; the pair is symmetric, one
direction). It is summed over h1 = j ~ Bin(n, 1/D) (a certified window; outside it the summand is at most
(e0 - e) n): given j, R' ~ Bin(n - j, (k-3)/(D-1)), h0 | R' ~ Bin(n - j - R', 1/(e0 + 1)), h_z the rest, and
a1 j = delta_j (h0 + R' + h_z) with delta_j = a1 j / (n - j) turns the summand into the engine's form
E[(c0 h0 + c1 R' + c2 h_z)_+] with (c0, c1, c2) = (a0, ar, az) + delta_j (c0 > 0 >= c2 >= c1 as the engine
needs). Since a1 = 1 - e e0 is very negative, c0 <= 0 (every coefficient <= 0: the summand is exactly 0) from
j >= (e0 - e) n / (e e0 - 1 + e0 - e) on, so only the first few values of j cost an engine call. The term given
h1 = j is non-increasing in j: one more x1 removes one of the others' draws (coefficient a0, az or ar >= ar = 1 - e)
and adds a1, so the sum inside the positive part moves by at most a1 - ar = e (1 - e0) < 0 (a coupling: the first
m - 1 of m draws are the m - 1 draws). An earlier j's certified upper end thus bounds every later term: a term whose
bound times its probability cannot change the running float sums is not summed (at eps0 = 8, n = 1e4, k = 100 the
terms past j = 1 are below 1e-41 and 2 of 40 lattice sums remain; the same floats). Its range:
n/D <= SPLIT_MAX_MEAN (beyond, refused: there x1 is no longer a rare report, the merged count loses less, and the
sum would cost seconds). This is where the pair's eps was loose at large eps0: at eps0 = 8, k = 10,
n = 1e4, delta = 1e-6 the merged counts give 6.806, the split ones 6.987 (the blanket bound: 7.023).

Supported range: eps0 in (0, 50], k in [2 (x0) or 3 (third), 10^6], n in [1, 10^8], delta in (0, 1); the split
third pair: k >= 4 and n/(e^eps0 + k - 1) <= SPLIT_MAX_MEAN (large eps0 or small n).
"""

from __future__ import annotations

import math
from typing import Any

import mpmath

from ..bounds.blanket_exact_krr import (
    MIN_EPS0,
    TINY_EPS0,
    bracket,
    check_krr_inputs,
)
from ..core.errors import ParameterError, require_flag, require_integer, require_positive
from ..bounds.bennett import bennett_krr_epsilon
from ..bounds.blanket_parameters import krr_blanket_delta_cap
from ..numerics.lattice_sums import U1, BinomialLaw, Coefficients, Window, binomial_law, binomial_window, positive_part_expectation, positive_part_expectations, search_start
from ..numerics.binomial import iv_context
from ..numerics.solver import solve_certified_epsilon
from ..core.results import BoundValue

__all__ = [
    "krr_pair_delta", "krr_pair_x0_chernoff_delta", "krr_pair_third_epsilon", "krr_pair_x0_epsilon", "krr_pair_third_split_delta", "krr_pair_third_split_epsilon",
    "krr_pair_third_split_epsilon_mp", "check_split_range", "PAIRS", "MAX_SPLIT_ROWS", "SPLIT_MAX_MEAN",
]

PAIRS = ("third", "x0")
EPS_REL_TOL = 3e-4
PER_SD = 4
# The split third pair makes one lattice-sum call per value j of h1 in its window (where the summand is not 0),
# tens of ms each under load. Its range: the expected count n/D of x1 at most SPLIT_MAX_MEAN (the spec's
# hypothesis; it matters where x1 is a rare report: large eps0, small n), where the window is short; a window
# beyond MAX_SPLIT_ROWS values is refused as well (a safety net).
SPLIT_MAX_MEAN = 8
MAX_SPLIT_ROWS = 400


def _setups(pair: str, eps0: float, k: int, eps: float) -> list[tuple[BinomialLaw, BinomialLaw, Coefficients]]:
    """[(law of b, law of a | b, coefficients)] of the divergences whose max is the pair's delta: the
    counts are relabelled so that the positive coefficient sits on a (module doc)."""
    with mpmath.workdps(40):
        e0, e = mpmath.exp(mpmath.mpf(eps0)), mpmath.exp(mpmath.mpf(eps))
        d = e0 + k - 1
        if pair == "third":
            # pi = (1/D, 1/D, (D-2)/D); a0 = e0 - e, a1 = 1 - e e0, ar = (1 - e)(k-2)/(e0+k-3). Symmetric pair.
            coefficients = Coefficients(bracket(e0 - e), bracket(1 - e * e0), bracket((1 - e) * (k - 2) / (e0 + k - 3)))
            return [(binomial_law(1 / d), binomial_law(1 / (d - 1)), coefficients)]
        # Others at x0: pi = (e0/D, 1/D, (k-2)/D). P_x0 - e P_x1: a0 = (e0 - e)/e0, a1 = 1 - e e0, ar = 1 - e
        # (a = h0, b = h1); P_x1 - e P_x0: a1 = e0 - e, a0 = 1/e0 - e, ar = 1 - e (a = h1, b = h0).
        inner = mpmath.mpf(1) if k == 2 else e0 / (e0 + k - 2)  # k = 2: no other value, a = n - b
        forward = (binomial_law(1 / d), binomial_law(inner), Coefficients(bracket((e0 - e) / e0), bracket(1 - e * e0), bracket(1 - e)))
        backward = (binomial_law(e0 / d), binomial_law(mpmath.mpf(1) / (k - 1)), Coefficients(bracket(e0 - e), bracket(1 / e0 - e), bracket(1 - e)))
        return [forward, backward]


def _terms(pair: str, eps0: float, k: int, eps: float) -> list[tuple[float, float]]:
    """(coefficient, probability) of the counts in the pair's delta (module doc), the larger-mean direction
    for x0: for the normal guess of the starting point only."""
    e0, e = math.exp(eps0), math.exp(eps)
    d = e0 + k - 1
    if pair == "third":
        return [(e0 - e, 1 / d), (1 - e * e0, 1 / d), ((1 - e) * (k - 2) / (e0 + k - 3), (d - 2) / d)]
    return [(e0 - e, 1 / d), (1 / e0 - e, e0 / d), (1 - e, (k - 2) / d)]


def krr_pair_delta(*, eps0: float, n: int, k: int, eps: float, pair: str = "third", delta_hint: float = 1e-6, sharp_lower: bool = True,
                   tail: float | None = None, per_sd: int = PER_SD, sharp_upper: bool = True) -> BoundValue:
    """A certified interval containing the hockey-stick divergence (max over both directions) at e^eps of the
    kept counts of the neighbouring pair `pair` ("third" or "x0", module doc) of n shuffled eps0-k-RR reports
    (exact.krr_pair_third / exact.krr_pair_x0). sharp_lower=False: for a caller that uses the upper end alone (the
    x0 test of `interface/tightest.py`), the lattice sums skip their lower queries (about a third less work): the
    upper end is the same float, the lower end is still certified but loose. sharp_upper=False: for a caller that
    uses the lower end alone (the pair's own eps search, whose value is its lower end), the lattice sums skip their
    shifted upper bounds between grid rows (about a third less work at n = 1e8): the lower end is the same float, the
    upper end is still certified but looser. `tail` (the mass of the count b left
    out on each side of its window; default max(min(1e-30, 1e-12 delta_hint), 1e-300), the statements' own) and
    `per_sd` (grid rows per standard deviation of b; default PER_SD = 4) decide only how tight the interval is:
    a larger tail or fewer rows give a certified interval, wider, for less work (that test takes 1e-4 delta / e^eps0
    and 1 row per sd). Range: see the module doc; eps >= 0, 0 < tail < 1, per_sd >= 1."""
    if pair not in PAIRS:
        raise ParameterError("pair", pair, "'third' or 'x0'")
    check_krr_inputs(eps0, n, 0.5, k, min_k=3 if pair == "third" else 2)
    require_positive("eps", eps, allow_zero=True)
    require_positive("delta_hint", delta_hint)
    if tail is not None and not (isinstance(tail, float) and 0 < tail < 1):
        raise ParameterError("tail", tail, "None or a float in (0, 1)")
    require_integer("per_sd", per_sd, minimum=1)
    require_flag("sharp_upper", sharp_upper)
    require_flag("sharp_lower", sharp_lower)
    if eps >= eps0:
        return BoundValue(0.0, 0.0, direction="exact")
    if eps0 < MIN_EPS0:
        # The divergence is at most the total variation of the pair, at most that of the one report that differs
        # (post-processing), (e^eps0 - 1)/(e^eps0 + k - 1) <= the blanket bound's gamma (e^eps0 - 1).
        return BoundValue(0.0, krr_blanket_delta_cap(eps0, int(k)), TINY_EPS0, direction="exact")
    if tail is None:
        tail = max(min(1e-30, delta_hint * 1e-12), 1e-300)
    lower = upper = 0.0
    for law_b, law_a, coefficients in _setups(pair, eps0, int(k), eps):
        if not coefficients.c1[1] <= coefficients.c2[0]:
            # c1 <= c2 holds exactly (x0 backward: c2 - c1 = 1 - 1/e0 > 0), but at eps0 >~ 36 its float
            # brackets (magnitude e^eps) overlap and the engine cannot certify the ordering it relies on. This
            # direction is left out of the lower end (a max over fewer directions is still a lower bound on the
            # pair's delta) and the upper end becomes the trivial 1.
            upper = 1.0
            continue
        # (positive_part_expectation(n, ...) is this call with every end sharpened: the same floats.)
        ends = positive_part_expectations([int(n)], law_b, law_a, coefficients, tail=tail, per_sd=per_sd, lower=sharp_lower, upper=sharp_upper)
        lo, hi = float(ends[0][0]), float(ends[1][0])
        lower, upper = max(lower, lo / n / (1 + 2 * U1)), max(upper, hi / n * (1 + 2 * U1))
    return BoundValue(min(lower, upper), min(upper, 1.0), direction="exact")


def _x0_directions(e0: Any, e: Any, k: int) -> list[tuple[tuple[Any, Any, Any], tuple[Any, Any, Any]]]:
    """[(pi, a)] of the x0 pair's two directions (module doc): the others' report law pi = (e0, 1, k - 2)/D over
    (x0, x1, the rest) and a_j = (mu_x(j) - e mu_x'(j)) / pi_j, for P_x0 - e P_x1 and P_x1 - e P_x0; e0, e numbers of
    one kind (floats, or intervals of one context)."""
    d = e0 + k - 1
    pi = (e0 / d, 1 / d, (k - 2) / d)
    return [(pi, ((e0 - e) / e0, 1 - e * e0, 1 - e)), (pi, (1 / e0 - e, e0 - e, 1 - e))]


def krr_pair_x0_chernoff_delta(*, eps0: float, n: int, k: int, eps: float) -> float:
    """A certified upper bound on exact.krr_pair_x0's divergence (the max over both directions) at e^eps, in closed
    form: each direction is E_W[(X)_+] / n with X = a0 h0 + a1 h1 + ar R, (h0, h1, R) ~ Mult(n; pi) (module doc), and
    x_+ <= e^(t x - 1) / t for every real x and t > 0 (e^y >= e y), so the direction is at most
    (sum_j pi_j e^(t a_j))^n / (e t n) (the multinomial's moment generating function), at any t > 0. t is chosen by a
    float search (convex in t: it only decides how tight the bound is); the bound at that t is evaluated in 100-bit
    interval arithmetic (`shuffle_spec.reference.numerics.binomial.iv_context`) and its upper end rounded up. Loose
    by a polynomial factor (a Chernoff bound), a few microseconds of work: the x0 test of `interface/tightest.py`
    tries it before the lattice sums, where the pair's delta is far below the target (large eps0). Range: eps0 in
    (0, 50], 2 <= k <= 1e6 (k = 2: no rest, pi_rest = 0), 1 <= n <= 1e8, eps >= 0; 0.0 at eps >= eps0."""
    check_krr_inputs(eps0, n, 0.5, k)
    require_positive("eps", eps, allow_zero=True)
    n, k = int(n), int(k)
    if eps >= eps0:
        return 0.0
    iv = iv_context()
    exact = _x0_directions(iv.exp(iv.mpf(eps0)), iv.exp(iv.mpf(eps)), k)
    floats = _x0_directions(math.exp(eps0), math.exp(eps), k)
    worst = 0.0
    for (pi_iv, a_iv), (pi_f, a_f) in zip(exact, floats, strict=True):
        top = max(a_f)  # > 0 in exact arithmetic (a0 > 0 for eps < eps0); its float only places the search

        def exponent(t: float, pi_f: tuple[float, ...] = pi_f, a_f: tuple[float, ...] = a_f) -> float:
            # n log M(t) - log t, M(t) - 1 = sum_j pi_j expm1(t a_j) (no cancellation near t = 0): placement only.
            m1 = sum(p * math.expm1(t * a) for p, a in zip(pi_f, a_f, strict=True))
            return n * math.log1p(m1) - math.log(t) if m1 > -1 else math.inf
        hi = math.log(600.0 / top) if top > 0 else 0.0  # log t; t a_j <= 600 keeps every float finite
        lo = min(-40.0, hi - 40.0)  # below hi also where a coefficient is ~e^eps0 (eps0 near 50: hi < -40)
        for _ in range(80):  # golden-section search of a convex function of t, on log t (unimodal there too)
            x1, x2 = lo + 0.382 * (hi - lo), hi - 0.382 * (hi - lo)
            if exponent(math.exp(x1)) <= exponent(math.exp(x2)):
                hi = x2
            else:
                lo = x1
        t = iv.mpf(math.exp(0.5 * (lo + hi)))
        moment = sum((p * iv.exp(t * a) for p, a in zip(pi_iv, a_iv, strict=True)), iv.mpf(0))
        bound = iv.exp(n * iv.log(moment) - 1) / (t * n)
        worst = max(worst, float(bound.b) * (1 + 2.0**-50) + 2.0**-1074)  # the float of the upper end, rounded up
    return min(worst, 1.0)


def _pair_epsilon(pair: str, eps0: float, n: int, delta: float, k: int) -> BoundValue:
    check_krr_inputs(eps0, n, delta, k, min_k=3 if pair == "third" else 2)
    if eps0 < MIN_EPS0:
        # Every epsilon is >= 0: a lower bound that needs no lattice (the pair's exact eps lies in [0, eps0]).
        return BoundValue(0.0, float(eps0), f"exact eps of the pair in [0.0, {float(eps0)!r}]; {TINY_EPS0}: 0 is returned, a lower bound on the truth", direction="lower_bound")

    def bounds(eps: float) -> tuple[float, float]:
        # The value is the lower end: the sums sharpen the lower deltas alone (sharp_upper=False: the lower deltas
        # are the same floats, about a third less work at n = 1e8). The upper deltas, still certified, only decide
        # the pair's upper end in the note (and a search stop when they fall within rel_tol of the lower end).
        value = krr_pair_delta(eps0=eps0, n=n, k=k, eps=eps, pair=pair, delta_hint=delta, sharp_upper=False)
        return value.lower, value.upper

    # The normal approximation's root and slope, else Bennett's eps (it only decides where delta is evaluated).
    hint, slope = search_start(
        lambda x: _terms(pair, eps0, k, x), eps0=eps0, n=n, delta=delta, fallback=lambda: bennett_krr_epsilon(eps0=eps0, n=n, delta=delta, k=k).value
    )
    # Only the lower end is the bound (its value): the search narrows that end alone (usually two evaluations besides
    # eps0 instead of three); the pair's upper end in the note is the smallest evaluated point certified (eps0 at worst).
    lower, upper, found = solve_certified_epsilon(bounds, eps0=eps0, delta=delta, rel_tol=EPS_REL_TOL, hint=hint, tight="lower", slope=slope)
    # A lower-bound statement's value must be at most the truth (vectors judge the value): the LOWER end is its value
    # (BoundValue.value of a lower bound), and the interval is the pair's certified one, which holds the pair's exact
    # eps (the statement's value, what `audit bound` judges claims against; [lower, lower] did not hold it).
    note = f"exact eps of the pair in [{lower!r}, {upper!r}]; the value is its lower end (a lower bound on the truth)"
    return BoundValue(lower, upper, note if found else "no eps < eps0 certified for this pair: eps0 returned; " + note, direction="lower_bound")


def krr_pair_third_epsilon(*, eps0: float, n: int, delta: float, k: int) -> BoundValue:
    """exact.krr_pair_third: the eps of the pair "user 1 holds x0 vs x1, the other n-1 users all hold a third
    value" (counts of x0, x1 and the rest kept), certified: the value is the lower end of the pair's interval
    (given in the note), a lower bound on the central eps of n shuffled eps0-k-RR reports at delta. Range: eps0 in (0, 50], 3 <= k <= 1e6,
    1 <= n <= 1e8, 0 < delta < 1."""
    return _pair_epsilon("third", eps0, n, delta, k)


def krr_pair_x0_epsilon(*, eps0: float, n: int, delta: float, k: int) -> BoundValue:
    """exact.krr_pair_x0: the exact eps of the pair "user 1 holds x0 vs x1, the other n-1 users all hold x0"
    (both directions), certified: the value is the lower end of the pair's interval (given in the note), a
    lower bound on the central eps of n shuffled eps0-k-RR reports at delta. Range: eps0 in (0, 50],
    2 <= k <= 1e6, 1 <= n <= 1e8, 0 < delta < 1."""
    return _pair_epsilon("x0", eps0, n, delta, k)


# ---------------------------------------------------------------- the third pair with the rest split


def check_split_range(eps0: float, n: int, k: int) -> None:
    """exact.krr_pair_third_split's own range (the spec's hypothesis): n/(e^eps0 + k - 1) <= SPLIT_MAX_MEAN
    (ParameterError on n beyond)."""
    if not int(n) / (math.exp(min(float(eps0), 700.0)) + int(k) - 1) <= SPLIT_MAX_MEAN:
        raise ParameterError("n", n, f"n/(e^eps0 + k - 1) <= {SPLIT_MAX_MEAN} (x1 a rare report; here eps0 = {eps0!r}, k = {k!r})")


def _split_window(eps0: float, n: int, k: int, tail: float) -> Window:
    """The certified window of h1 ~ Bin(n, 1/D) (its range checked first); ParameterError beyond MAX_SPLIT_ROWS
    values (a safety net: about 160 at n/D = 8 and a 1e-300 tail)."""
    check_split_range(eps0, n, k)
    with mpmath.workdps(40):
        law_1 = binomial_law(1 / (mpmath.exp(mpmath.mpf(eps0)) + k - 1))
    window = binomial_window(int(n), law_1, tail)
    rows = window.hi - window.lo + 1
    if rows > MAX_SPLIT_ROWS:
        raise ParameterError("n", n, f"at most {MAX_SPLIT_ROWS} values of the count of x1 in its window (here {rows}; smaller n or larger eps0)")
    return window


def _negligible(term: float, total: float) -> bool:
    """Whether adding any float in [0, term] to the positive float `total` leaves it unchanged: term below half the
    gap from total to the next float up (round to nearest: a sum closer to total than half that gap rounds to it),
    so a term certified below `term` need not be computed to get the same float. A product fl(w x) with x <= X is
    at most fl(w X) (rounding is monotone)."""
    return term < 0.5 * math.ulp(total)


def krr_pair_third_split_delta(*, eps0: float, n: int, k: int, eps: float, delta_hint: float = 1e-6, skip_negligible: bool = True) -> BoundValue:
    """exact.krr_pair_third_split: a certified interval containing the EXACT hockey-stick divergence at e^eps of the
    pair "user 1 holds x0 vs x1, the other n-1 users all hold a third value z" of n shuffled eps0-k-RR reports,
    from the sufficient counts (h0, h1, h_z, R') (module doc). skip_negligible (default): the values j of h1 whose
    terms cannot change the running float sums (their probability times the engine's cap 2 c0 m below half an ulp of
    both sums, `_negligible`; the cap is the smaller of 2 c0 m and the smallest upper end of an earlier j's term, module
    doc) are not summed: the same floats as skip_negligible=False, which sums every j (at eps0 = 8, n = 1e4, k = 100,
    eps = 5.01 two of the 40 lattice sums the cap 2 c0 m alone left remain). Range: eps0 in
    (0, 50], 4 <= k <= 1e6, 1 <= n <= 1e8 with n/(e^eps0 + k - 1) <= SPLIT_MAX_MEAN (= 8), eps >= 0."""
    check_krr_inputs(eps0, n, 0.5, k, min_k=4)
    require_flag("skip_negligible", skip_negligible)
    require_positive("eps", eps, allow_zero=True)
    require_positive("delta_hint", delta_hint)
    n, k = int(n), int(k)
    tail = max(min(1e-30, delta_hint * 1e-12), 1e-300)
    window = _split_window(eps0, n, k, tail)
    if eps >= eps0:
        return BoundValue(0.0, 0.0, direction="exact")
    if eps0 < MIN_EPS0:
        return BoundValue(0.0, krr_blanket_delta_cap(eps0, k), TINY_EPS0, direction="exact")
    lower = upper = 0.0
    trivial = False
    # The smallest certified upper end of a term summed so far: every later term (larger j) is at most it (module
    # doc: the terms are non-increasing in j), so it bounds them as 2 c0 m does, usually by many orders less.
    earlier_hi = math.inf
    with mpmath.workdps(40):
        e0, e = mpmath.exp(mpmath.mpf(eps0)), mpmath.exp(mpmath.mpf(eps))
        d = e0 + k - 1
        law_b, law_a = binomial_law((k - 3) / (d - 1)), binomial_law(1 / (e0 + 1))
        a0, a1, az, ar = e0 - e, 1 - e * e0, (1 - e) / e0, 1 - e
        c_top = bracket(a0)[1]
    for i in range(window.hi - window.lo + 1):
        j = window.lo + i
        m = n - j
        if m == 0:
            continue
        with mpmath.workdps(40):
            shift = a1 * j / m
            if a0 + shift <= 0:  # every coefficient <= 0 from here on: the summands are exactly 0
                break
            c = Coefficients(bracket(a0 + shift), bracket(ar + shift), bracket(az + shift))
        if not c.c1[1] <= c.c2[0]:  # the ordering holds exactly, but its float brackets overlap (eps0 >~ 36)
            trivial = True
            continue
        if skip_negligible and upper > 0:
            # A term that cannot change the running float sums is not evaluated (the same floats: module doc of
            # `_negligible`): the engine's upper end is at most about c0 m (every row is capped at c0 (m - beta)),
            # so twice that bounds this term's product with its probability, and the lower term is below it. An
            # earlier term's certified upper end bounds the exact term too (non-increasing in j): its engine lower end
            # is below it (the lower sum keeps its float), and the upper sum is then the float sum with that certified
            # bound in place of this term (the same float: the bound cannot change it either).
            cap = min(2.0 * c.c0[1] * m, earlier_hi)
            if _negligible(float(window.upper[i]) * cap, upper) and (c.c0[0] <= 0 or (lower > 0 and _negligible(float(window.lower[i]) * cap, lower))):
                continue
        if c.c0[0] <= 0:  # c0's bracket straddles 0: the upper end with c0 at its upper end only
            _, hi = positive_part_expectation(m, law_b, law_a, Coefficients((1e-300, c.c0[1]), c.c1, c.c2), tail=tail, per_sd=PER_SD)
            upper += float(window.upper[i]) * hi
            earlier_hi = min(earlier_hi, hi)
            continue
        lo, hi = positive_part_expectation(m, law_b, law_a, c, tail=tail, per_sd=PER_SD)
        lower += float(window.lower[i]) * lo
        upper += float(window.upper[i]) * hi
        earlier_hi = min(earlier_hi, hi)
    factor = 1 + (window.hi - window.lo + 5) * U1
    upper = upper * factor + (window.below + window.above) * c_top * n * (1 + 4 * U1)
    lower = lower / factor
    upper_delta = 1.0 if trivial else min(1.0, upper / n * (1 + 2 * U1))
    return BoundValue(min(lower / n / (1 + 2 * U1), upper_delta), upper_delta, direction="exact")


def krr_pair_third_split_epsilon(*, eps0: float, n: int, delta: float, k: int) -> BoundValue:
    """exact.krr_pair_third_split: the exact eps of the pair "user 1 holds x0 vs x1, the other n-1 users all hold a
    third value" from its sufficient counts (the rest split into the third value's count and the others'; module
    doc), certified: the value is the lower end of the pair's interval (given in the note), a lower bound on the
    central eps of n shuffled eps0-k-RR reports at delta. Range: eps0 in (0, 50], 4 <= k <= 1e6, 1 <= n <= 1e8,
    0 < delta < 1, n/(e^eps0 + k - 1) <= SPLIT_MAX_MEAN (= 8; ParameterError on n beyond: larger n or smaller
    eps0, where x1 is no longer a rare report)."""
    check_krr_inputs(eps0, n, delta, k, min_k=4)
    _split_window(eps0, int(n), int(k), max(min(1e-30, delta * 1e-12), 1e-300))
    if eps0 < MIN_EPS0:
        return BoundValue(0.0, float(eps0), f"exact eps of the pair in [0.0, {float(eps0)!r}]; {TINY_EPS0}: 0 is returned, a lower bound on the truth", direction="lower_bound")

    def bounds(eps: float) -> tuple[float, float]:
        value = krr_pair_third_split_delta(eps0=eps0, n=n, k=k, eps=eps, delta_hint=delta)
        return value.lower, value.upper

    def terms(x: float) -> list[tuple[float, float]]:
        e0, e = math.exp(eps0), math.exp(x)
        d = e0 + k - 1
        return [(e0 - e, 1 / d), (1 - e * e0, 1 / d), ((1 - e) / e0, e0 / d), (1 - e, (k - 3) / d)]

    hint, slope = search_start(terms, eps0=eps0, n=n, delta=delta, fallback=lambda: bennett_krr_epsilon(eps0=eps0, n=n, delta=delta, k=k).value)
    # The lower end alone is narrowed (as for the merged pairs above).
    lower, upper, found = solve_certified_epsilon(bounds, eps0=eps0, delta=delta, rel_tol=EPS_REL_TOL, hint=hint, tight="lower", slope=slope)
    note = f"exact eps of the pair in [{lower!r}, {upper!r}]; the value is its lower end (a lower bound on the truth)"
    return BoundValue(lower, upper, note if found else "no eps < eps0 certified for this pair: eps0 returned; " + note, direction="lower_bound")


# ---------------------------------------------------------------- high-precision paths (bit-reproducible test vectors)


def krr_pair_third_epsilon_mp(*, dps: int, eps0: float, n: int, delta: float, k: int) -> tuple[Any, Any]:
    """exact.krr_pair_third at `dps` digits: a certified enclosure (Fractions) of the exact eps of the kept
    counts of the pair (shuffle_spec.reference.numerics.high_precision_exact: the whole trinomial lattice on certified windows,
    integer brackets). Declines (ValueError, outside the high-precision range) above MAX_LATTICE_POINTS
    lattice points (about n <= 1e3 at eps0 = 4, k = 100; n <= 200 at eps0 = 1, k = 4)."""
    from ..numerics.high_precision_exact import krr_pair_eps_bracket

    check_krr_inputs(eps0, n, delta, k, min_k=3)
    return krr_pair_eps_bracket(eps0=float(eps0), n=int(n), k=int(k), delta=float(delta), dps=dps, pair="third")


def krr_pair_third_split_epsilon_mp(*, dps: int, eps0: float, n: int, delta: float, k: int) -> tuple[Any, Any]:
    """exact.krr_pair_third_split at `dps` digits for n = 1: one report, so the split and the merged counts are the
    same statistic (the report z and an unheld value have the same probability 1/D under both inputs: merging them
    loses nothing) and the enclosure is exact.krr_pair_third's (shuffle_spec.reference.numerics.high_precision_exact).
    ValueError (outside the high-precision range) for n > 1."""
    check_krr_inputs(eps0, n, delta, k, min_k=4)
    check_split_range(eps0, int(n), int(k))
    if int(n) != 1:
        raise ValueError(f"n = {n} is outside the high-precision range of exact.krr_pair_third_split (n = 1)")
    return krr_pair_third_epsilon_mp(dps=dps, eps0=eps0, n=1, delta=delta, k=k)


def krr_pair_x0_epsilon_mp(*, dps: int, eps0: float, n: int, delta: float, k: int) -> tuple[Any, Any]:
    """exact.krr_pair_x0 at `dps` digits: a certified enclosure (Fractions) of the exact eps of the pair (both
    directions; shuffle_spec.reference.numerics.high_precision_exact). Declines (ValueError) above MAX_LATTICE_POINTS lattice points."""
    from ..numerics.high_precision_exact import krr_pair_eps_bracket

    check_krr_inputs(eps0, n, delta, k, min_k=2)
    return krr_pair_eps_bracket(eps0=float(eps0), n=int(n), k=int(k), delta=float(delta), dps=dps, pair="x0")
