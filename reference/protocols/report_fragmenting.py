"""Report fragmenting with a backstop (EFMRSTT20 Alg. 2, Thm IV.1), the composition of two pure
local randomizers (Cor A.2) and its reduction to binary domains (Lemma A.1).

Alg. 2: x' = R_b(x) once (the backstop), then tau independent fragments y_i = R_f(x'). An adversary
seeing t of them sees x -> R_f^t(R_b(x)), the chain of an eps_b-DP randomizer and an
(t eps_f)-DP one (basic composition of t fragments), so Cor A.2 gives Thm IV.1:
    eps = ln((e^{eps_b + t eps_f} + 1) / (e^{eps_b} + e^{t eps_f})) <= min(eps_b, t eps_f).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Hashable, Sequence

import mpmath
import numpy as np

from ..finite.operations import compose_randomizers
from ..finite.distributions import Distribution, Probability
from ..core.errors import ParameterError, require_integer, require_multiplier, require_positive
from ..finite.randomizers import Randomizer
from ..core.results import BoundValue
from ..core.rounding import mpf_to_float_down, mpf_to_float_up

_DIGITS = 60

__all__ = [
    "composed_epsilon",
    "composed_ratio",
    "chain_randomizers",
    "report_fragment_epsilon",
    "report_fragment_randomizer",
    "binary_reduction",
    "report_fragmenting_bits",
]


def composed_epsilon(*, eps1: float, eps2: float) -> BoundValue:
    """ln((e^{eps1+eps2} + 1)/(e^{eps1} + e^{eps2})), the replacement LDP epsilon of R_2 o R_1 for an
    eps1-DP R_1 and an eps2-DP R_2 (EFMRSTT20.CorA.2); rounded up.

    In doubles, logaddexp(eps1 + eps2, 0) - logaddexp(eps1, eps2) cancels catastrophically for small
    arguments (the value is ~ eps1 eps2 / 2), so it is evaluated in mpmath at 60 digits as
    log1p(e^{-eps1-eps2}) + (eps1 + eps2) - logaddexp(eps1, eps2) with the difference taken exactly
    enough, then rounded to the doubles on either side: an upper bound whose `value` (the upper end) is the
    next double above the 60-digit value. At 60 digits the three terms' evaluation error is far below the
    1-ulp (2^-53 relative) step of the outward rounding, so [lower, upper] encloses the exact expression."""
    require_positive("eps1", eps1)
    require_positive("eps2", eps2)
    with mpmath.workdps(_DIGITS):
        return _composed_epsilon_enclosure(mpmath.mpf(eps1), mpmath.mpf(eps2))


def _composed_epsilon_enclosure(a: mpmath.mpf, b: mpmath.mpf) -> BoundValue:
    """Cor A.2's epsilon at mpmath arguments a, b (at the caller's precision), rounded to the doubles either side."""
    big, small = max(a, b), min(a, b)
    # (e^{a+b} + 1)/(e^a + e^b) = e^{small} (1 + e^{-a-b}) / (1 + e^{small - big}); in log form:
    value = small + mpmath.log1p(mpmath.exp(-a - b)) - mpmath.log1p(mpmath.exp(small - big))
    return BoundValue(mpf_to_float_down(value), mpf_to_float_up(value), direction="upper_bound")


def composed_ratio(e_eps1: Fraction | float, e_eps2: Fraction | float) -> Probability:
    """(e1 e2 + 1)/(e1 + e2) with e_i = e^{eps_i}: the composed LDP multiplier of EFMRSTT20.CorA.2,
    exact for exact (Fraction / int) multipliers."""
    for name, value in (("e_eps1", e_eps1), ("e_eps2", e_eps2)):
        if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)) or not value >= 1 or not math.isfinite(value):
            raise ParameterError(name, value, "a finite multiplier e^eps >= 1")
    e1 = Fraction(e_eps1) if isinstance(e_eps1, int) else e_eps1
    return (e1 * e_eps2 + 1) / (e1 + e_eps2)


def chain_randomizers(first: Randomizer, second: Randomizer) -> Randomizer:
    """x -> R_2(R_1(x)): the second randomizer applied to the first one's output (EFMRSTT20.CorA.2's
    R_2 o R_1). Every output of `first` must be an input of `second`."""
    missing = [y for y in first.outputs if y not in set(second.inputs)]
    if missing:
        raise ParameterError("second.inputs", second.inputs, f"every output of the first randomizer (missing {missing[:5]})")
    table = {}
    for x, dist in first.items():
        out: dict[Hashable, Probability] = {}
        for y, p in dist.items():
            for z, q in second(y).items():
                out[z] = out.get(z, 0) + p * q
        table[x] = Distribution(out)
    return Randomizer(table)


def report_fragment_epsilon(*, eps_b: float, eps_f: float, t: int) -> BoundValue:
    """LDP epsilon of any t fragments of r-frag with an eps_b backstop and eps_f fragments
    (EFMRSTT20.ThmIV.1): Cor A.2 with eps1 = eps_b, eps2 = t eps_f; rounded up. t = tau gives the
    paper's eps_l_inf, t = 1 its eps_l1. An upper bound: Cor A.2's enclosure (`composed_epsilon`)."""
    require_positive("eps_b", eps_b)
    require_positive("eps_f", eps_f)
    require_integer("t", t, minimum=1)
    # t eps_f is taken exactly (a double times an integer fits in 60 digits): the double product could round
    # below it, and the epsilon grows with eps2, so the upper end computed from it could fall below the truth.
    with mpmath.workdps(_DIGITS):
        return _composed_epsilon_enclosure(mpmath.mpf(eps_b), mpmath.mpf(int(t)) * mpmath.mpf(eps_f))


def report_fragment_randomizer(backstop: Randomizer, fragment: Randomizer, t: int) -> Randomizer:
    """The exact randomizer M_J of EFMRSTT20.Alg2 / ThmIV.1: x -> (y_i)_{i in J}, |J| = t, with
    x' = backstop(x) drawn once and each y_i = fragment(x') independently."""
    require_integer("t", t, minimum=1)
    fragments = compose_randomizers(*([fragment] * int(t)))
    return chain_randomizers(backstop, fragments)


def binary_reduction(first: Randomizer, second: Randomizer, x: Hashable, x2: Hashable, e_eps: Fraction | float) -> tuple[Randomizer, Randomizer]:
    """The binary pair (Q_1, Q_2) of the proof of EFMRSTT20.LemA.1 for the chain R_2 o R_1, inputs
    x, x' and multiplier e^eps.

    S = {z : P(z) > e^eps P'(z)} (P, P' the chain's outputs at x, x') is the event maximizing
    Pr[P in S] - e^eps Pr[P' in S]; y_0, y_1 minimize / maximize Pr[R_2(y) in S]; P_1 = {y :
    R_1(x)(y) > e^eps R_1(x')(y)}. Q_1(0) = 1(R_1(x) in P_1), Q_1(1) = 1(R_1(x') in P_1), Q_2(b) =
    1(R_2(y_b) in S). Q_1 restricts and post-processes R_1, Q_2 post-processes R_2 on two inputs, and
    Pr[Q_2 Q_1(0) = 1] - e^eps Pr[Q_2 Q_1(1) = 1] >= the chain's hockey-stick divergence.
    """
    require_multiplier("e_eps", e_eps)
    if x == x2 or x not in first.inputs or x2 not in first.inputs:
        raise ParameterError("x, x2", (x, x2), f"two distinct inputs of the first randomizer {first.inputs}")
    chain = chain_randomizers(first, second)
    p, p2 = chain(x), chain(x2)
    event = {z for z in p if p[z] > e_eps * p2[z]}

    def in_event(y: Hashable) -> Probability:
        return second(y).probability_of(lambda z: z in event)

    ys = first.outputs
    y0, y1 = min(ys, key=in_event), max(ys, key=in_event)
    p1_set = {y for y in ys if first(x)[y] > e_eps * first(x2)[y]}

    def bernoulli(prob: Probability) -> Distribution:
        return Distribution({1: prob, 0: 1 - prob})

    q1 = Randomizer({0: bernoulli(first(x).probability_of(lambda y: y in p1_set)), 1: bernoulli(first(x2).probability_of(lambda y: y in p1_set))})
    q2 = Randomizer({0: bernoulli(in_event(y0)), 1: bernoulli(in_event(y1))})
    return q1, q2


def report_fragmenting_bits(bits: Sequence[int], *, eps_b: float, eps_f: float, tau: int, seed: int | None = None) -> np.ndarray:
    """Run EFMRSTT20.Alg2 with binary randomized response as R_b and R_f on each coordinate of a
    one-hot report: returns the tau x k matrix M(x) of fragments (row i goes to shuffler S_i)."""
    require_positive("eps_b", eps_b)
    require_positive("eps_f", eps_f)
    require_integer("tau", tau, minimum=1)
    array = np.asarray(bits)
    if array.ndim != 1 or array.size == 0 or not np.isin(array, (0, 1)).all():
        raise ParameterError("bits", bits, "a non-empty sequence of 0/1 values")
    rng = np.random.default_rng(seed)
    flip_b = 1.0 / (1.0 + math.exp(eps_b))
    flip_f = 1.0 / (1.0 + math.exp(eps_f))
    backstop = array ^ (rng.random(array.size) < flip_b)
    return backstop[None, :] ^ (rng.random((int(tau), array.size)) < flip_f)
