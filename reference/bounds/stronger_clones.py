"""FMT23 stronger clones (`FMT23.stronger_clones`): the FMT21 clone pair with clone probability
2/(e^eps0 + 1) instead of e^-eps0 (Feldman, McMillan, Talwar, SODA 2023).

ERRATA restriction: FMT23's general upper bounds (Thm 3.1, 3.2, Cor 4.3, Thm 5.2) were published with
an error in the proof of Lemma 3.5 (the case p < 1/(e^eps0+1)); the corrected paper states them for a
restricted class of randomizers only. This module certifies them for the class of randomizers with

    R(x)(y) >= (R(x0)(y) + R(x1)(y)) / (e^eps0 + 1)   for all inputs x, x0 != x1 and outputs y,

the sufficient condition for the decomposition R(x) = Q0/(e^eps0+1) + Q1/(e^eps0+1) + (1 - 2/(e^eps0+1)) LO(x)
(Q0 + Q1 = R(x0) + R(x1)). k-ary and binary randomized response satisfy it (with equality at x != x0, x1
and y = x0); a generic eps0-LDP randomizer need not (Laplace on [0, 1], x = 0, x0 = 1, x1 = 0.99, y -> inf).
The scalar (eps0, n, delta) entry point is therefore registered for k-RR only (mechanism "krr").

Supported range (`shuffle_spec.reference.core.limits.RANGES`, refused with ParameterError before any work outside it):
0 < eps0 <= 700, 1 <= n <= 1e12, 1e-300 <= delta < 1. Memory: the clone-count window is streamed in blocks of
at most `shuffle_spec.reference.numerics.binomial.BLOCK` counts, ~0.5 GB peak whatever n; time O(sqrt(n log(1/delta))), about a
minute at n = 1e12. Below delta ~ 1e-280 the certified float arithmetic (subnormal caps) widens the
returned interval: still sound, less tight, and slower (more certified evaluations).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from .clones import check_clone_inputs, clone_pair_delta, clone_pair_epsilon
from ..core.parameters import check_eps0, check_n
from ..finite.divergences import ldp_ratio
from ..core.errors import HypothesisViolation, ParameterError, require_integer, require_probability
from ..finite.randomizers import Randomizer
from ..core.results import BoundValue

__all__ = [
    "is_in_stronger_clone_class",
    "stronger_clone_probabilities",
    "stronger_clones",
    "stronger_clones_delta",
    "stronger_clones_for_randomizer",
]

STATEMENT = "FMT23.stronger_clones"


def stronger_clone_probabilities(eps0: float) -> tuple[float, float]:
    """q = 2/(e^eps0 + 1) and 1 - q = (e^eps0 - 1)/(e^eps0 + 1), both to full relative precision."""
    check_eps0(eps0, statement=STATEMENT)
    # 2/(e^eps0+1) = 1 - tanh(eps0/2); computed from e^-eps0 to avoid overflow at large eps0.
    r = math.exp(-eps0)
    return 2.0 * r / (1.0 + r), -math.expm1(-eps0) / (1.0 + r)


def is_in_stronger_clone_class(randomizer: Randomizer, e_eps0: Fraction | float | None = None) -> bool:
    """Whether R(x)(y) >= (R(x0)(y) + R(x1)(y)) / (e^eps0 + 1) for all x, x0 != x1, y (FMT23.stronger_clones,
    ERRATA class). `e_eps0` defaults to the randomizer's own LDP ratio; exact for exact randomizers."""
    if not isinstance(randomizer, Randomizer):
        raise ParameterError("randomizer", randomizer, "a shuffle_spec.reference.finite.randomizers.Randomizer")
    e = ldp_ratio(randomizer) if e_eps0 is None else e_eps0
    if isinstance(e, bool) or not isinstance(e, (int, float, Fraction)) or not e >= 1:
        raise ParameterError("e_eps0", e_eps0, "a multiplier e^eps0 >= 1")
    if e == math.inf:
        return False
    rows = [dist for _, dist in randomizer.items()]
    for y in randomizer.outputs:
        column = [dist[y] for dist in rows]
        # x0 != x1 (the two inputs of the neighbouring pair); x is any input, possibly x0 or x1.
        for i0 in range(len(column)):
            for i1 in range(i0 + 1, len(column)):
                if min(column) * (e + 1) < column[i0] + column[i1]:
                    return False
    return True


def stronger_clones_delta(*, eps0: float, n: int, eps: float) -> BoundValue:
    """Certified delta(eps) of the stronger-clone pair, clone counts Bin(n-1, 2/(e^eps0+1)) (FMT23.stronger_clones)."""
    check_eps0(eps0, statement=STATEMENT)
    check_n(n, statement=STATEMENT)
    return clone_pair_delta(eps0=eps0, n=n, eps=eps, kind="fmt23")


def stronger_clones(*, eps0: float, n: int, delta: float, k: int = 2) -> BoundValue:
    """FMT23.stronger_clones for n users of k-ary randomized response with local eps0 (any k >= 2):
    the smallest eps with delta_sc(eps) <= delta, as a certified interval;
    delta_sc(eps) = sum_c Bin(c; n-1, 2/(e^eps0+1)) D_{e^eps}(P_c || Q_c). k-RR is in the ERRATA class,
    so the bound does not depend on k.
    Supported range: shuffle_spec.reference.core.limits.RANGES['FMT23.stronger_clones'] (module docstring); refused outside it."""
    check_clone_inputs(eps0, n, delta, statement=STATEMENT)  # the range of shuffle_spec.reference.core.limits (same as FMT21.clones_numeric)
    require_integer("k", k, minimum=2)
    return clone_pair_epsilon(eps0, int(n), delta, "fmt23")


def stronger_clones_for_randomizer(randomizer: Randomizer, *, n: int, delta: float) -> BoundValue:
    """FMT23.stronger_clones for a given finite randomizer: its eps0 is its exact LDP ratio; refused
    (HypothesisViolation) unless it is in the ERRATA class R(x) >= (R(x0) + R(x1))/(e^eps0 + 1)."""
    if not isinstance(randomizer, Randomizer):
        raise ParameterError("randomizer", randomizer, "a shuffle_spec.reference.finite.randomizers.Randomizer")
    check_n(n, statement=STATEMENT)
    require_probability("delta", delta)
    ratio = ldp_ratio(randomizer)
    if ratio == math.inf or ratio <= 1:
        raise ParameterError("randomizer", randomizer, "a randomizer with a finite LDP ratio e^eps0 > 1")
    if not is_in_stronger_clone_class(randomizer, ratio):
        raise HypothesisViolation(
            STATEMENT,
            "R(x)(y) >= (R(x0)(y) + R(x1)(y))/(e^eps0 + 1) for all x, x0 != x1, y (FMT23 errata class)",
            {"randomizer": randomizer, "e_eps0": ratio},
        )
    # eps0 as a float rounded up: an eps0-LDP randomizer in the class is also eps0'-LDP and in the
    # class for every eps0' >= eps0 (the class condition only weakens), so the bound at eps0' applies.
    eps0 = math.log(ratio.numerator) - math.log(ratio.denominator) if isinstance(ratio, Fraction) else math.log(ratio)
    eps0 = math.nextafter(math.nextafter(eps0, math.inf), math.inf)
    return clone_pair_epsilon(eps0, int(n), delta, "fmt23")



def stronger_clones_mp(*, dps: int, eps0: float, n: int, delta: float, k: int = 2) -> tuple[Any, Any]:
    """FMT23.stronger_clones in high precision (test vectors): a certified enclosure (lower, upper), mpmath
    numbers, of the exact value at `dps` digits (`shuffle_spec.reference.bounds.clones_high_precision.clone_epsilon_mp`, kind
    "fmt23"; the float answer only seeds Newton's iteration). Supported: 0 < eps0 <= 30, 1 <= n <= 2e5,
    1e-200 <= delta < 1, k >= 2; ValueError ("outside the high-precision range") elsewhere."""
    from .clones_high_precision import clone_epsilon_mp  # lazy: keeps imports fast

    check_clone_inputs(eps0, n, delta, statement=STATEMENT)
    require_integer("k", k, minimum=2)
    return clone_epsilon_mp(dps=dps, eps0=eps0, n=n, delta=delta, kind="fmt23", seed=lambda: stronger_clones(eps0=eps0, n=n, delta=delta, k=k).upper)
