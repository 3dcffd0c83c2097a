"""Closed-form FMT21 bounds: Theorem 2.1 (pure eps0-LDP) in its three printed forms and Proposition 2.2
((eps0, delta0)-LDP), as the seed and as the full version (arXiv 2012.12803 Thm 3.1 / Thm 3.8) state them.

    eps <= log(1 + F(eps0) * G),   G = 8 sqrt(e^eps0 log(4/delta) / n) + 8 e^eps0 / n,
    valid for eps0 <= log(n / (16 log(2/delta))), delta in (0, 1].

F is 1 - e^{-2 eps0} in the seed (FMT21.Thm2.1), (e^eps0 - 1)/(e^eps0 + 1) in the full version
(FMT21.Thm2.1.focs), and (1 - e^{-eps0}) / (1 + e^{-eps0 - eps1}) with eps1 = log(1 + G) in Apple's
`closedformanalysis` (FMT21.Thm2.1.apple, regime log(4/delta) instead of log(2/delta)).

Soundness: every value is computed with mpmath at 128 bits (relative error far below 1e-30) and then
moved to the next double outward (`shuffle_spec.reference.core.rounding.mpf_to_float_up`), whose margin of at least half
an ulp dominates that error; so the returned float is >= the exact real value of the formula. The
regime hypothesis is decided at rising precision and refused when undecidable (the safe side).

Supported range (`shuffle_spec.reference.core.limits.RANGES`, refused with ParameterError before any work outside it):
0 < eps0 <= 1e4, 1 <= n <= 1e18, 1e-300 <= delta < 1 (eps <= 1e4 for the inversions).
"""

from __future__ import annotations

import math

import mpmath

from ..core.errors import HypothesisViolation, ParameterError, require_integer, require_positive, require_probability
from ..core.parameters import check_amplification_inputs
from ..numerics.inversion import largest_argument_within
from ..core.results import BoundValue
from ..core.rounding import mpf_to_float_down, mpf_to_float_up

__all__ = [
    "thm21_seed_epsilon",
    "thm21_focs_epsilon",
    "thm21_apple_epsilon",
    "prop22_seed_epsilon",
    "prop22_seed_delta_prime",
    "prop22_focs_epsilon",
    "prop22_focs_delta_prime",
    "largest_eps0_for_epsilon",
]

WORKING_BITS = 128
# Precisions tried, in bits, when deciding the regime inequality; undecided after the last is refused.
DECISION_BITS = (128, 512, 2048)

SEED, FOCS, APPLE = "seed", "focs", "apple"
VARIANT_IDS = {SEED: "FMT21.Thm2.1", FOCS: "FMT21.Thm2.1.focs", APPLE: "FMT21.Thm2.1.apple"}


def _regime_holds(eps0: float, n: int, delta: float, numerator: int) -> bool:
    """Whether eps0 <= log(n / (16 log(numerator/delta))), i.e. 16 e^eps0 log(numerator/delta) <= n.

    Decided exactly for the binary inputs by evaluating the difference at rising precision; a
    difference too close to 0 to be signed at 2048 bits counts as a failure (refusing is safe)."""
    for bits in DECISION_BITS:
        with mpmath.workprec(bits):
            gap = mpmath.mpf(n) - 16 * mpmath.exp(mpmath.mpf(eps0)) * mpmath.log(mpmath.mpf(numerator) / mpmath.mpf(delta))
            if abs(gap) > mpmath.mpf(2) ** (16 - bits) * max(mpmath.mpf(1), mpmath.mpf(n)):
                return bool(gap > 0)
    return False


def _require_regime(statement: str, eps0: float, n: int, delta: float, numerator: int, values: dict[str, object]) -> None:
    if not _regime_holds(eps0, n, delta, numerator):
        raise HypothesisViolation(statement, f"eps0 <= log(n/(16*log({numerator}/delta)))", values)


def _concentration_term(e_eps0: mpmath.mpf, n: int, delta: float) -> mpmath.mpf:
    """G = 8 sqrt(e^eps0 log(4/delta) / n) + 8 e^eps0 / n (FMT21 eq. (1))."""
    nn = mpmath.mpf(n)
    return 8 * mpmath.sqrt(e_eps0 * mpmath.log(4 / mpmath.mpf(delta)) / nn) + 8 * e_eps0 / nn


def _prefactor(variant: str, eps0: mpmath.mpf, e_eps0: mpmath.mpf, g: mpmath.mpf) -> mpmath.mpf:
    """F(eps0), written without cancellation (expm1, tanh): as 1 - e^{-2 eps0} at 128 bits it was 0 below
    eps0 ~ 3e-39, and the bound 0 (5e-324 once rounded up) where its value is ~ eps0 G."""
    if variant == SEED:
        return -mpmath.expm1(-2 * eps0)
    if variant == FOCS:
        return mpmath.tanh(eps0 / 2)  # (e^eps0 - 1)/(e^eps0 + 1)
    # APPLE: (1 - e^-eps0) / (1 + e^(-eps0 - eps1)) with e^eps1 = 1 + G.
    return -mpmath.expm1(-eps0) / (1 + 1 / (e_eps0 * (1 + g)))


def _closed_form(variant: str, eps0: float, n: int, delta: float) -> BoundValue:
    with mpmath.workprec(WORKING_BITS):
        e_eps0 = mpmath.exp(mpmath.mpf(eps0))
        g = _concentration_term(e_eps0, n, delta)
        eps = mpmath.log1p(_prefactor(variant, mpmath.mpf(eps0), e_eps0, g) * g)
        return BoundValue(mpf_to_float_down(eps), mpf_to_float_up(eps), direction="upper_bound")


def _thm21(variant: str, numerator: int, eps0: float, n: int, delta: float) -> BoundValue:
    check_amplification_inputs(eps0, n, delta, statement="FMT21.Thm2.1", closed_high=True)  # the variants and Prop 2.2 share its range
    _require_regime(VARIANT_IDS[variant], eps0, n, delta, numerator, {"eps0": eps0, "n": n, "delta": delta})
    return _closed_form(variant, eps0, n, delta)


def thm21_seed_epsilon(*, eps0: float, n: int, delta: float) -> BoundValue:
    """FMT21.Thm2.1 (seed eq. (1)): log(1 + (1 - e^{-2 eps0}) G), for eps0 <= log(n/(16 log(2/delta))).
    Supported range: shuffle_spec.reference.core.limits.RANGES['FMT21.Thm2.1'] (module docstring); refused outside it."""
    return _thm21(SEED, 2, eps0, n, delta)


def thm21_focs_epsilon(*, eps0: float, n: int, delta: float) -> BoundValue:
    """FMT21.Thm2.1.focs (full version Thm 3.1): log(1 + (e^eps0 - 1)/(e^eps0 + 1) G), same regime.
    Supported range: shuffle_spec.reference.core.limits.RANGES['FMT21.Thm2.1.focs'] (module docstring); refused outside it."""
    return _thm21(FOCS, 2, eps0, n, delta)


def thm21_apple_epsilon(*, eps0: float, n: int, delta: float) -> BoundValue:
    """FMT21.Thm2.1.apple (Apple `closedformanalysis`): log(1 + (1 - e^-eps0)/(1 + e^{-eps0-eps1}) G),
    eps1 = log(1 + G), for eps0 <= log(n/(16 log(4/delta))) (Apple's stricter regime check).
    Supported range: shuffle_spec.reference.core.limits.RANGES['FMT21.Thm2.1.apple'] (module docstring); refused outside it."""
    return _thm21(APPLE, 4, eps0, n, delta)


def _prop22_validate(statement: str, eps0: float, delta0: float, n: int, delta: float) -> None:
    check_amplification_inputs(eps0, n, delta, statement="FMT21.Thm2.1", closed_high=True)  # the variants and Prop 2.2 share its range
    require_probability("delta0", delta0, open_low=False, open_high=False)
    _require_regime(statement, eps0, n, delta, 2, {"eps0": eps0, "delta0": delta0, "n": n, "delta": delta})


def prop22_seed_epsilon(*, eps0: float, delta0: float, n: int, delta: float) -> BoundValue:
    """FMT21.Prop2.2 (seed): the central eps for (eps0, delta0)-LDP reports, equation (1) (seed prefactor).
    Supported range: shuffle_spec.reference.core.limits.RANGES['FMT21.Prop2.2'] (module docstring); refused outside it."""
    _prop22_validate("FMT21.Prop2.2", eps0, delta0, n, delta)
    return _closed_form(SEED, eps0, n, delta)


def prop22_focs_epsilon(*, eps0: float, delta0: float, n: int, delta: float) -> BoundValue:
    """FMT21.Prop2.2.focs (full version Thm 3.8): the central eps, Thm 3.1's form (prefactor tanh(eps0/2)).
    Supported range: shuffle_spec.reference.core.limits.RANGES['FMT21.Prop2.2.focs'] (module docstring); refused outside it."""
    _prop22_validate("FMT21.Prop2.2.focs", eps0, delta0, n, delta)
    return _closed_form(FOCS, eps0, n, delta)


def _delta_prime(variant: str, eps0: float, delta0: float, n: int, delta: float, eps_upper: float) -> BoundValue:
    """delta + (e^eps + 1) c n delta0 with c = 1 + e^-eps0 (seed) or 1 + e^-eps0 / 2 (full version).

    It increases with eps, so evaluating it at the certified upper end of eps keeps it an upper bound. At
    delta0 = 0 it is delta exactly (pure LDP, Thm 2.1), returned as such: the epsilon then holds at the delta
    asked for, not one ulp above it."""
    if delta0 == 0:
        return BoundValue(float(delta), float(delta), direction="upper_bound")
    with mpmath.workprec(WORKING_BITS):
        e_neg = mpmath.exp(-mpmath.mpf(eps0))
        c = 1 + e_neg if variant == SEED else 1 + e_neg / 2
        value = mpmath.mpf(delta) + (mpmath.exp(mpmath.mpf(eps_upper)) + 1) * c * mpmath.mpf(n) * mpmath.mpf(delta0)
        return BoundValue(mpf_to_float_down(value), mpf_to_float_up(value), direction="upper_bound")


def prop22_seed_delta_prime(*, eps0: float, delta0: float, n: int, delta: float) -> BoundValue:
    """FMT21.Prop2.2.delta_prime (seed): delta' = delta + (e^eps + 1)(1 + e^-eps0) n delta0."""
    _prop22_validate("FMT21.Prop2.2.delta_prime", eps0, delta0, n, delta)
    eps = _closed_form(SEED, eps0, n, delta).upper
    return _delta_prime(SEED, eps0, delta0, n, delta, eps)


def prop22_focs_delta_prime(*, eps0: float, delta0: float, n: int, delta: float) -> BoundValue:
    """FMT21.Prop2.2.focs_delta_prime (full version Thm 3.8): delta' = delta + (e^eps + 1)(1 + e^-eps0/2) n delta0."""
    _prop22_validate("FMT21.Prop2.2.focs_delta_prime", eps0, delta0, n, delta)
    eps = _closed_form(FOCS, eps0, n, delta).upper
    return _delta_prime(FOCS, eps0, delta0, n, delta, eps)


def _largest_eps0_in_regime(n: int, delta: float, numerator: int) -> float:
    """The largest double eps0 inside the regime eps0 <= log(n/(16 log(numerator/delta))), or 0 if none."""
    with mpmath.workprec(WORKING_BITS):
        edge = mpmath.log(mpmath.mpf(n) / (16 * mpmath.log(mpmath.mpf(numerator) / mpmath.mpf(delta))))
    if edge <= 0:
        return 0.0
    eps0 = mpf_to_float_down(edge)
    while eps0 > 0 and not _regime_holds(eps0, n, delta, numerator):
        eps0 = math.nextafter(eps0, 0.0)
    return eps0


def largest_eps0_for_epsilon(*, eps: float, n: int, delta: float, variant: str = FOCS) -> float:
    """The largest local eps0 whose FMT21 Thm 2.1 bound (variant "seed", "focs" or "apple") is <= eps.

    Used to calibrate a shuffled protocol to a central target (FMT21 Thm 2.3 sets eps0 this way). The
    answer is a point where the bound was evaluated and found <= eps (`shuffle_spec.reference.numerics.inversion`), inside
    the theorem's regime. Raises ParameterError when no eps0 > 0 in the regime meets the target."""
    require_positive("eps", eps)
    require_integer("n", n, minimum=1)
    require_probability("delta", delta, open_low=True, open_high=False)
    if variant not in VARIANT_IDS:
        raise ParameterError("variant", variant, f"one of {sorted(VARIANT_IDS)}")
    numerator = 4 if variant == APPLE else 2
    top = _largest_eps0_in_regime(n, delta, numerator)
    if top <= 0:
        raise ParameterError("n", n, f"n > 16 log({numerator}/delta) so that the FMT21 regime contains some eps0 > 0")
    bound = {SEED: thm21_seed_epsilon, FOCS: thm21_focs_epsilon, APPLE: thm21_apple_epsilon}[variant]
    floor = min(top, 1e-12)
    return largest_argument_within(lambda e0: bound(eps0=e0, n=n, delta=delta).upper, eps, floor, top, name="eps0", rel_tol=1e-12)
