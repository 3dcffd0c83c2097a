"""The certified upper route shared by the structured randomizers: BBGN19 Lemma 5.3 evaluated exactly from a
closed-form blanket decomposition (statement BBGN19.Lem5.3.exact_randomizer, applied to a decomposition given
in closed form instead of one read off a matrix).

Why not the matrix route (`shuffle_spec.reference.bounds.blanket_exact_randomizer`): a unary encoding of a domain
of d values has 2^d outputs, local hashing |H| g, subset selection C(d, k); the matrix route stops at 64 outputs.
What the blanket bound needs is much smaller and independent of d: for an ordered pair (x, x') of inputs,

    mu_x = gamma omega + (1 - gamma) nu_x  for every input x (omega, nu_x probability distributions),
    delta_{x,x'}(eps) <= sum_{N >= 1} Pr[Bin(n-1, gamma) = N-1] D_N,   D_N = (1/N) E[(L_1 + ... + L_N)_+],

L_i i.i.d. copies of l_W = (mu_x(W) - e^eps mu_x'(W)) / omega(W), W ~ omega (BBGN19 Lemma 5.3; the form and its
proof steps are those of BBGN19.Lem5.3.exact_randomizer, proofs_checks/derived/blanket_exact_randomizer.py). L
takes one value per group of outputs with equal (alpha, beta) = (mu_x / omega, mu_x' / omega); a group has
omega-probability p. A mechanism module states (gamma, [(alpha, beta, p)]) in closed form, proves that
gamma omega <= mu_x for every input (the decomposition is valid: any valid one gives an upper bound, the best
one the smallest), and that the pair it gives is a worst pair (or gives every pair). `check_decomposition`
verifies the exact identities every valid pair has: sum p = 1 and sum p alpha = sum p beta = 1 (mu_x and
mu_x' are probability distributions), all terms non-negative.

Evaluation of D_N (certified; `shuffle_spec.reference.bounds.blanket_exact_randomizer`): at most 3 distinct
coefficients, the exact lattice sums (every block of the blanket sum in one batched call, `count_expectations`); four groups of product form (alpha(I) - e^eps beta(J), I and J independent
under the blanket: unary encodings, local hashing, Hadamard response), the exact sum over two independent
binomial counts (`product_count_expectation`, its eps-independent windows and suffix sums kept across the
solver's evaluations: about 0.1-1 s per bound where the FFT path took 1-40 s); otherwise (subset selection,
whose two memberships are dependent) the randomized-rounding FFT upper bound (lower end 0). (Raising the
coefficient of one group to merge it with another puts the four groups on the lattice path: statement
BBGN19.Lem5.3.exact_raised, `reference.randomizers.raised`. On unary encodings it is looser than the exact
product-form sum (4-5% at eps0 <= 1, equal at eps0 = 8), so the registry does not use it; for subset selection at
large eps0 and n it is far below the FFT bound, see benchmarks/RANDOMIZERS_RAISED.md.)

The central bound is the maximum over the pairs a mechanism lists (every ordered neighbouring pair, up to pairs
with equal groups), solved for eps by the one certified solver. Where a pair is not of product form (the lattice
path of the piecewise mechanism, subset selection's FFT path: 0.3-1 s per evaluated eps) the solver is aimed by
the saddlepoint estimate of the root (`saddle_blanket_root`, uncertified: it only places the evaluations, raised by
GUESS_BIAS because the certified delta lies a little above the estimate), which settles the upper end in 2-3
evaluations instead of 8-15; the lower end of the interval is then the best evaluated point below (often 0). Neighbouring relation: the one the mechanism's
pairs describe (replace-one unless it says otherwise).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import mpmath
import numpy as np

from ..bounds.blanket_exact_krr import bracket
from ..bounds.blanket_exact_randomizer import (
    Groups, blanket_sum, count_expectation, count_expectations, fft_count_expectation_upper, product_form, product_sums, saddle_blanket_delta, saddle_blanket_root,
)
from ..core.errors import ParameterError, require_positive, require_real
from ..core.parameters import check_delta, check_n
from ..core.limits import DELTA_MIN
from ..core.results import NO_AMPLIFICATION, BoundValue
from ..numerics.lattice_sums import U1
from ..numerics.solver import solve_certified_epsilon
from .blanket_pairs import DPS, BlanketPair, blanket_delta_inputs, check_blanket_pairs

__all__ = [
    "BlanketPair",
    "blanket_pair",
    "check_decomposition",
    "structured_blanket_delta",
    "structured_blanket_epsilon",
    "exp_bracket",
    "MAX_N",
    "EPS_REL_TOL",
    "check_tight",
    "aim_above",
    "rescaled_aim",
]

STATEMENT = "BBGN19.Lem5.3.exact_randomizer"
MAX_N = 10**8
EPS_REL_TOL = 1e-3
GUESS_BIAS = 5e-4  # the certified root lies above the saddlepoint root by the blocking and rounding slack (~1e-4)
AIM_BITS = 30  # an aim is rounded up to this many significant bits (`aim_above`)

Triple = tuple[Fraction, Fraction, Fraction]


def _merge(triples: Sequence[Triple]) -> Groups:
    merged: dict[tuple[Fraction, Fraction], Fraction] = {}
    for a, b, p in triples:
        if p > 0:
            merged[(a, b)] = merged.get((a, b), Fraction(0)) + p
    keys = sorted(merged)
    return Groups(tuple(k[0] for k in keys), tuple(k[1] for k in keys), tuple(merged[k] for k in keys))


def check_decomposition(gamma: object, groups: object) -> None:
    """BBGN19.Lem5.3.exact_randomizer: the exact identities of a valid blanket pair (module doc): gamma a Fraction
    in (0, 1], groups [(alpha, beta, p)] of non-negative Fractions with sum p = 1, sum p alpha = 1, sum p beta = 1
    and p > 0 somewhere. ParameterError naming the identity that fails."""
    if not isinstance(gamma, Fraction) or not 0 < gamma <= 1:
        raise ParameterError("gamma", gamma, "an exact Fraction in (0, 1] (the blanket mass)")
    if not isinstance(groups, Sequence) or not groups or not all(isinstance(g, tuple) and len(g) == 3 and all(isinstance(v, Fraction) for v in g) for g in groups):
        raise ParameterError("groups", repr(groups)[:60], "a non-empty list of (alpha, beta, p) triples of Fractions")
    if any(v < 0 for g in groups for v in g):
        raise ParameterError("groups", repr(groups)[:60], "non-negative alpha, beta, p")
    for name, total in (("sum p", sum((p for _, _, p in groups), Fraction(0))), ("sum p alpha", sum((a * p for a, _, p in groups), Fraction(0))), ("sum p beta", sum((b * p for _, b, p in groups), Fraction(0)))):
        if total != 1:
            raise ParameterError(f"groups ({name})", str(total), "exactly 1 (omega, mu_x and mu_x' are probability distributions)")


def blanket_pair(gamma: Fraction, groups: Sequence[Triple]) -> BlanketPair:
    """BBGN19.Lem5.3.exact_randomizer: a checked BlanketPair (module doc); ParameterError naming what fails."""
    check_decomposition(gamma, groups)
    ratio = max((a / b for a, b, p in groups if p > 0 and b > 0), default=Fraction(1))
    if any(b == 0 and a > 0 and p > 0 for a, b, p in groups):
        raise ParameterError("groups", repr(groups)[:60], "beta > 0 wherever alpha > 0 (a finite eps0)")
    return BlanketPair(gamma, _merge(groups), ratio)


def exp_bracket(x: float) -> tuple[Fraction, Fraction]:
    """Exact rationals (lo, hi) with lo <= e^x <= hi (e^x at 40 digits, widened outward by 4 ulps): the
    parameters of a mechanism stated in e^eps0, rounded to the safe side of each bound. Range: |x| <= 700."""
    x = require_real("x", x)
    if abs(x) > 700:
        raise ParameterError("x", x, "|x| <= 700 (e^x a finite double)")
    with mpmath.workdps(DPS):
        lo, hi = bracket(mpmath.exp(mpmath.mpf(x)))
    return Fraction(lo), Fraction(hi)


def _d_n(pair: BlanketPair, eps: float, tail: float) -> Callable[[int], tuple[float, float]]:
    form = product_form(pair.groups)
    sums = None if form is None else product_sums(form, tail)  # kept across the solver's evaluations

    def d_n(big_n: int) -> tuple[float, float]:
        if len(pair.groups) <= 3:
            lo, hi = count_expectation(big_n, pair.groups, eps, tail=tail)
        elif sums is not None:
            lo, hi = sums.expectation(big_n, eps)
        else:
            lo, hi = 0.0, fft_count_expectation_upper(big_n, pair.groups, eps, tail=tail)
        return lo / big_n / (1 + 2 * U1), min(1.0, hi / big_n * (1 + 2 * U1))

    return d_n


def _d_ns(pair: BlanketPair, eps: float, tail: float) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None:
    """At most 3 groups: the D_N of every blanket size in one batched lattice call (`count_expectations`), the same
    certified interval as `_d_n`'s per-N calls up to the lattice rows' float padding; None otherwise."""
    if len(pair.groups) > 3:
        return None

    def d_ns(big_ns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = count_expectations(big_ns.tolist(), pair.groups, eps, tail=tail)
        return lo / big_ns / (1 + 2 * U1), np.minimum(1.0, hi / big_ns * (1 + 2 * U1))

    return d_ns


def structured_blanket_delta(pairs: Sequence[BlanketPair], *, n: int, eps: float, delta_hint: float = 1e-6) -> BoundValue:
    """BBGN19.Lem5.3.exact_randomizer: a certified interval of max over `pairs` of Lemma 5.3's delta(eps) (module
    doc), an upper bound on the central delta(eps) of n shuffled reports under the pairs' neighbouring relation.
    Range: n in [1, 1e8], eps >= 0, delta_hint in (0, 1)."""
    n, tail, live = blanket_delta_inputs(pairs, n=n, eps=eps, delta_hint=delta_hint)
    lower = upper = 0.0
    for pair in live:
        value = blanket_sum(n, pair.gamma, _d_n(pair, eps, tail), delta_hint, batch=_d_ns(pair, eps, tail))
        lower, upper = max(lower, value.lower), max(upper, value.upper)
    return BoundValue(min(lower, upper), upper, direction="upper_bound")


def check_tight(tight: object) -> None:
    """The `tight` keyword of the structured upper bounds: "upper" (narrow the certified end alone, the default) or
    "both" (narrow the lower end of the interval too, for audits); a one-line ParameterError otherwise."""
    if tight not in ("upper", "both"):
        raise ParameterError("tight", tight, "'upper' or 'both'")


def check_blanket_search(pairs: Sequence[BlanketPair], *, n: int, delta: float, eps0: float) -> None:
    """The inputs of a certified epsilon search over blanket pairs (this module's and `raised`'s): a non-empty list of
    BlanketPair, n in [1, 1e8], delta in [1e-300, 1), eps0 > 0 at least the pairs' largest log(alpha/beta) (the
    search's no-amplification end must be a valid LDP level of the pairs)."""
    check_blanket_pairs(pairs)
    check_n(n, maximum=MAX_N)
    check_delta(delta, minimum=DELTA_MIN, why="shuffle_spec.reference.core.limits")
    require_positive("eps0", eps0)
    with mpmath.workdps(DPS):
        top = max(mpmath.log(mpmath.mpf(p.ratio.numerator) / p.ratio.denominator) for p in pairs)
    if top > eps0:
        raise ParameterError("eps0", eps0, f"at least the pairs' largest log(alpha/beta) = {float(top):.17g}")


def structured_blanket_epsilon(
    pairs: Sequence[BlanketPair], *, n: int, delta: float, eps0: float, tight: str = "upper", watch: Callable[[float, float], None] | None = None
) -> BoundValue:
    """BBGN19.Lem5.3.exact_randomizer: the smallest eps whose certified delta (max over `pairs`, module doc) is
    <= delta: a certified interval, value = its upper end, an upper bound on the central eps of n shuffled
    reports; `eps0` (the mechanism's LDP level) with the no-amplification note when nothing below it is
    certified. `tight` = "upper" (default) narrows the upper end alone (the bound; the lower end is certified but
    may be loose, 0 on the FFT path); "both" narrows the lower end to the same tolerance where the delta has
    certified lower ends (product form, lattice sums: what `audit bound` asks for, so that its acceptance interval
    is sharp at both ends); the upper end is then found by the same search and may differ in its last digits.
    `watch` (optional): called with (eps, certified upper delta) after each evaluation; an exception it raises ends
    the search and propagates (a caller that learns it needs no more of it, `subset_selection`'s "Skipping").
    Range: n in [1, 1e8], delta in [1e-300, 1), eps0 > 0 at least the pairs' log max alpha/beta, tight in
    {"upper", "both"}, watch None or a callable."""
    check_tight(tight)
    check_blanket_search(pairs, n=n, delta=delta, eps0=eps0)
    if watch is not None and not callable(watch):
        raise ParameterError("watch", repr(watch)[:60], "None or a callable (eps, upper delta)")

    def bounds(eps: float) -> tuple[float, float]:
        value = structured_blanket_delta(pairs, n=n, eps=eps, delta_hint=delta)
        if watch is not None:
            watch(eps, value.upper)
        return value.lower, value.upper

    guess = _guess(pairs, n=int(n), delta=delta, eps0=float(eps0))
    # One pair (the piecewise mechanism, subset selection's four groups): a first aim found low is corrected by what it found.
    reaim = rescaled_aim(pairs[0].gamma, pairs[0].groups, n=n, delta=delta, eps0=eps0) if guess is not None and tight == "upper" and len(pairs) == 1 else None
    lower, upper, found = solve_certified_epsilon(bounds, eps0=float(eps0), delta=delta, rel_tol=EPS_REL_TOL, tight=tight, guess=guess, reaim=reaim)
    if not found:
        # No amplification certified: the lower end is the solver's only where it was asked for (tight="both").
        return BoundValue(min(lower, float(eps0)) if tight == "both" else 0.0, float(eps0), NO_AMPLIFICATION, direction="upper_bound")
    return BoundValue(min(lower, upper), upper, direction="upper_bound")


def _guess(pairs: Sequence[BlanketPair], *, n: int, delta: float, eps0: float) -> float | None:
    """Where to aim the certified search (module doc): None when every pair is of product form (its evaluations are
    cheap) or when the saddlepoint estimate has no root below eps0; else the largest pair root times 1 + GUESS_BIAS."""
    if all(product_form(p.groups) is not None for p in pairs):
        return None
    roots = [saddle_blanket_root(n, p.gamma, [p.groups], delta=delta, eps0=eps0) for p in pairs if p.gamma < 1]
    if not roots or any(r is None for r in roots):
        return None
    return aim_above(max(r for r in roots if r is not None))


def aim_above(root: float) -> float:
    """Where a certified upper-bound search is aimed for an uncertified estimate `root` of its root: root times
    1 + GUESS_BIAS, rounded up to AIM_BITS significant bits. The estimate is good to about 1e-6 (`uncertified_root`'s
    tolerance), so the rounding (at most 2^-30 relative) costs nothing, and it keeps the certified end from following
    the last bits of the float estimate (they differ with the implementation of erfcx and the platform's libm),
    erring on the upper side, an upper end's safe side. Range: root > 0 finite."""
    require_positive("root", root)
    biased = float(root) * (1 + GUESS_BIAS)
    if not math.isfinite(biased):
        return biased
    mantissa, exponent = math.frexp(biased)
    return max(math.ldexp(math.ceil(mantissa * 2**AIM_BITS), exponent - AIM_BITS), biased)  # max: subnormals round


def rescaled_aim(gamma: Fraction, groups: Groups, *, n: int, delta: float, eps0: float) -> Callable[[float, float], float | None]:
    """The `reaim` of a certified search aimed by the saddlepoint estimate of one pair's blanket sum (`gamma`,
    `groups`): where the first evaluation, at x, is not certified, the certified delta there lies some factor r above
    the estimate (the FFT path's rounding and grid slack: 0.05-1% in eps at n >= 1e4 on subset selection's grid; the
    lattice sums' blocking), and r varies slowly with eps, so the estimate's root at delta / r is where the certified
    delta crosses delta; returned as `aim_above` of it. Uncertified: it only places an evaluation; None where the
    estimate has no such root. Range: gamma a Fraction in (0, 1], groups a Groups, n in [1, 1e8], delta in [1e-300, 1),
    eps0 > 0."""
    if not isinstance(gamma, Fraction) or not 0 < gamma <= 1:
        raise ParameterError("gamma", gamma, "an exact Fraction in (0, 1] (the blanket mass)")
    if not isinstance(groups, Groups):
        raise ParameterError("groups", repr(groups)[:60], "a Groups of (alpha, beta, p)")
    check_n(n, maximum=MAX_N)
    check_delta(delta)
    require_positive("eps0", eps0)
    n, delta, eps0 = int(n), float(delta), float(eps0)

    def aim(x: float, upper: float) -> float | None:
        estimate = saddle_blanket_delta(n, gamma, [groups], x, delta)
        if not estimate > 0 or not upper > delta:
            return None
        target = delta * (estimate / upper)
        if not DELTA_MIN <= target < 1:
            return None
        root = saddle_blanket_root(n, gamma, [groups], delta=target, eps0=eps0)
        return None if root is None else aim_above(root)

    return aim
