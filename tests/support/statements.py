"""Fixtures (no tests here): statements of our own for the tool's tests, so they do not depend on which papers have landed.

`V1` is EFMRTT19 Thm 7 (v1) as restated in BBGN19 Thm 5.1: eps = 12 eps0 sqrt(log(1/delta)/n) for
eps0 < 1/2, n >= 1000, delta < 1/100 (BBGN19 Thm 5.1), with its existing
reference `shuffle_spec.reference.bounds.erlingsson:erlingsson_v1_epsilon`. `TRIVIAL` is the trivial bound eps = eps0
(every eps0-LDP protocol is eps0-DP after shuffling: post-processing), valid at every n, so small-n
vectors can be checked against the exact truth. `GAMMA` is BBGN19 Lemma 5.1's Laplace blanket written
as the integral of the pointwise minimum density (by symmetry twice the left half), whose closed form is
e^{-eps0/2}. `DELTA_OF_V1` gives delta(eps) for V1 directly: delta = exp(-n (eps / (12 eps0))^2).
"""

from __future__ import annotations

import math

import sys
from types import MappingProxyType

import sympy as sp

from shuffle_spec.spec.statement import Direction, Kind, Source, Statement
from shuffle_spec.spec.symbols import delta, eps, eps0, gamma, n

y = sp.Symbol("y", real=True)

V1 = Statement(
    id="EFMRTT19.Thm97",
    kind=Kind.THEOREM,
    title="EFMRTT19 Thm 7 (v1), restated by BBGN19 Thm 5.1 (test copy)",
    source=Source("EFMRTT19", "Theorem 7", "v1", "high"),
    symbols=(eps0, n, delta, eps),
    hypotheses=(sp.Lt(eps0, sp.Rational(1, 2)), sp.Ge(n, 1000), sp.Lt(delta, sp.Rational(1, 100))),
    conclusion=(sp.Eq(eps, 12 * eps0 * sp.sqrt(sp.log(1 / delta) / n)),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.erlingsson:erlingsson_v1_epsilon",
    inputs=(eps0, n, delta),
    output=eps,
    value=12 * eps0 * sp.sqrt(sp.log(1 / delta) / n),
    examples=({"eps0": 0.25, "n": 10_000, "delta": 1e-6}, {"eps0": 0.1, "n": 1000, "delta": 1e-3}, {"eps0": 0.4, "n": 10**6, "delta": 1e-9}),
    invalid_examples=({"eps0": 0.6, "n": 10_000, "delta": 1e-6}, {"eps0": 0.25, "n": 999, "delta": 1e-6}),
    tags=frozenset({"amplification"}),
)

TRIVIAL = Statement(
    id="exact.trivial_tooltest",
    kind=Kind.PROCEDURE,
    title="Trivial bound eps = eps0 (test statement)",
    source=Source("exact", "post-processing", "", "high"),
    symbols=(eps0, n, delta, eps),
    hypotheses=(sp.Lt(delta, 1),),
    conclusion=(sp.Le(eps, eps0),),
    direction=Direction.UPPER_BOUND,
    reference="support.statements:trivial_bound",
    inputs=(eps0, n, delta),
    output=eps,
    value=eps0,
    examples=({"eps0": 1.0, "n": 5, "delta": 1e-3}, {"eps0": 2.0, "n": 8, "delta": 1e-2}, {"eps0": 0.5, "n": 3, "delta": 0.1}),
    invalid_examples=({"eps0": 1.0, "n": 5, "delta": 2.0},),
    tags=frozenset({"amplification"}),
)

GAMMA = Statement(
    id="BBGN19.Lem5.1.laplace_tooltest",
    kind=Kind.LEMMA,
    title="Blanket probability of Laplace on [0, 1] as an integral (test statement)",
    source=Source("BBGN19", "Lemma 5.1", "v2", "high"),
    symbols=(eps0, gamma),
    hypotheses=(),
    conclusion=(sp.Eq(gamma, 2 * sp.Integral(eps0 / 2 * sp.exp(-eps0 * (1 - y)), (y, -sp.oo, sp.Rational(1, 2)))),),
    direction=Direction.EXACT,
    reference="support.statements:trivial_number",
    inputs=(eps0,),
    output=gamma,
    value=2 * sp.Integral(eps0 / 2 * sp.exp(-eps0 * (1 - y)), (y, -sp.oo, sp.Rational(1, 2))),
)

DELTA_OF_V1 = Statement(
    id="EFMRTT19.Thm97.delta",
    kind=Kind.THEOREM,
    title="delta(eps) of the V1 test bound",
    source=Source("EFMRTT19", "Theorem 7", "v1", "high"),
    symbols=(eps0, n, eps, delta),
    hypotheses=(sp.Lt(eps0, sp.Rational(1, 2)), sp.Ge(n, 1000)),
    conclusion=(sp.Eq(delta, sp.exp(-n * (eps / (12 * eps0)) ** 2)),),
    direction=Direction.UPPER_BOUND,
    reference="support.statements:v1_delta",
    inputs=(eps0, n, eps),
    output=delta,
    value=sp.exp(-n * (eps / (12 * eps0)) ** 2),
)

ALL = (V1, TRIVIAL, GAMMA, DELTA_OF_V1)


def trivial_bound(*, eps0: float, n: int = 1, delta: float = 0.5):
    """eps = eps0 (TRIVIAL), an amplification bound's result: the exact [eps0, eps0], direction upper_bound;
    refuses delta >= 1 and eps0 <= 0 like a reference does."""
    from shuffle_spec.reference.core.results import BoundValue

    value = trivial_number(eps0=eps0, n=n, delta=delta)
    return BoundValue(value, value, direction="upper_bound")


def trivial_number(*, eps0: float, n: int = 1, delta: float = 0.5) -> float:
    """eps0 as a plain number (GAMMA's reference: not an amplification bound); the refusals of trivial_bound."""
    from shuffle_spec.reference.core.errors import HypothesisViolation, require_integer, require_positive

    require_positive("eps0", eps0)
    require_integer("n", n)
    require_positive("delta", delta)
    if not delta < 1:
        raise HypothesisViolation(TRIVIAL.id, "delta < 1", {"delta": delta})
    return float(eps0)


def v1_delta(*, eps0: float, n: int, eps: float):
    """exp(-n (eps / (12 eps0))^2), the delta at which V1 gives eps (DELTA_OF_V1), an upper bound like every
    bound's reference: the 50-digit value between the doubles on either side, `value` the one above."""
    import mpmath

    from shuffle_spec.reference.core.results import BoundValue
    from shuffle_spec.reference.core.rounding import mpf_to_float_down, mpf_to_float_up

    if not (0 < eps0 < 0.5 and n >= 1000):
        raise ValueError(f"eps0 = {eps0!r}, n = {n!r}: expected eps0 < 1/2 and n >= 1000")
    with mpmath.workdps(50):
        value = mpmath.exp(-int(n) * (mpmath.mpf(eps) / (12 * mpmath.mpf(eps0))) ** 2)
    return BoundValue(mpf_to_float_down(value), mpf_to_float_up(value), direction="upper_bound")


def install(monkeypatch, statements=ALL, *, only: bool = True) -> None:
    """Make the registry hold `statements` (alone, or added to the real ones with only=False)."""
    module = sys.modules["shuffle_spec.spec.registry"]
    base = {} if only else dict(module.registry())
    base.update({s.id: s for s in statements})
    frozen = MappingProxyType(base)
    monkeypatch.setattr(module, "registry", lambda: frozen)


# References of statements made inside single tests (each names its function as support.statements:NAME).


def v1_numeric(*, eps0, n, delta):
    """V1 without its closed form on the spec side: a float reference (V1's own, refusals included)..."""
    from shuffle_spec.reference.bounds.erlingsson import erlingsson_v1_epsilon

    return erlingsson_v1_epsilon(eps0=eps0, n=n, delta=delta)


def v1_numeric_mp(*, dps, eps0, n, delta):
    """...with a high-precision path (the `<function>_mp` protocol of shuffle_spec.interface.vectors.files)."""
    import mpmath

    with mpmath.workdps(dps):
        value = 12 * mpmath.mpf(eps0) * mpmath.sqrt(mpmath.log(1 / mpmath.mpf(delta)) / n)
        return (value, value)


def overflowing_reference(*, eps0, n, delta):
    raise OverflowError("too many digits in integer")


def non_finite_reference(*, eps0, n, delta):
    """An amplification bound's result with a non-finite value (a NaN end is refused by BoundValue itself)."""
    from shuffle_spec.reference.core.results import BoundValue

    return BoundValue(math.inf, math.inf, direction="upper_bound") if eps0 > 0.3 else BoundValue(0.0, math.inf, direction="upper_bound")


def wide_upper_reference(*, eps0, n, delta):
    """V1's value v (its own reference, refusals included) with the certified interval [0.9 v, v]: true (v is in it),
    but 10% wide, far wider than V1's rtol of 1e-9, as a reference whose search cannot narrow its lower end returns."""
    from shuffle_spec.reference.core.results import BoundValue
    from shuffle_spec.reference.core.rounding import round_down

    value = v1_numeric(eps0=eps0, n=n, delta=delta)
    return BoundValue(round_down(0.9 * value.lower), value.upper, direction="upper_bound")


def wide_lower_reference(*, eps0, n, delta):
    """The same value v as a LOWER bound's reference with the certified interval [v, 1.1 v] (10% wide above it)."""
    from shuffle_spec.reference.core.results import BoundValue
    from shuffle_spec.reference.core.rounding import round_up

    value = v1_numeric(eps0=eps0, n=n, delta=delta)
    return BoundValue(value.lower, round_up(1.1 * value.upper), direction="lower_bound")


def v1_lower_reference(*, eps0, n, delta):
    """V1's value v as a LOWER bound's reference, with V1's own (narrow) certified interval."""
    from shuffle_spec.reference.core.results import BoundValue

    value = v1_numeric(eps0=eps0, n=n, delta=delta)
    return BoundValue(value.lower, value.upper, direction="lower_bound")


def unbounded_lower_reference(*, eps0, n, delta):
    """V1's value v as a LOWER bound's reference whose certified interval has no upper end: [v, +inf] (true, and as wide
    as an interval gets; BoundValue allows infinite ends)."""
    from shuffle_spec.reference.core.results import BoundValue

    return BoundValue(v1_numeric(eps0=eps0, n=n, delta=delta).lower, math.inf, direction="lower_bound")


def unbounded_upper_reference(*, eps0, n, delta):
    """V1's value v as an upper bound's reference whose certified interval has no lower end: [-inf, v]."""
    from shuffle_spec.reference.core.results import BoundValue

    return BoundValue(-math.inf, v1_numeric(eps0=eps0, n=n, delta=delta).upper, direction="upper_bound")
