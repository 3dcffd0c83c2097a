"""Starting points of the certified search (the normal approximation's root and slope) and the blocking grid.

Part of `shuffle_spec.reference.numerics.lattice_sums` (its package doc states the model and the proofs)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ...core.errors import require_integer, require_positive, require_probability

from .laws import N_STEP_LOG

__all__ = ["normal_guess", "normal_elasticity", "blocking_offsets", "search_start"]


def normal_guess(terms: Callable[[float], list[tuple[float, float]]], *, n: int, eps0: float, delta: float) -> float | None:
    """A starting point for solve_certified_epsilon (never a bound): the eps at which the normal approximation
    of (1/n) E[(sum_i c_i X_i)_+], X ~ Mult(n; p), equals delta, where terms(eps) = [(c_i, p_i)]; found by
    bisection on log delta. None when the approximation gives no crossing in (0, eps0). Range: n >= 1,
    eps0 > 0, 0 < delta < 1."""
    require_integer("n", n, minimum=1)
    require_positive("eps0", eps0)
    require_probability("delta", delta)

    def approx(eps: float) -> float:
        return _normal_delta(terms, n, eps)

    lo, hi = 0.0, float(eps0)
    if not approx(lo) > delta:
        return None
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if approx(mid) > delta:
            lo = mid
        else:
            hi = mid
    return hi if 0 < hi < eps0 else None


def normal_elasticity(terms: Callable[[float], list[tuple[float, float]]], *, n: int, eps: float) -> float | None:
    """d log delta / d log eps at `eps` of the normal approximation used by `normal_guess` (a central
    difference): a slope for the first step of solve_certified_epsilon (never a bound; the root search checks
    every point it keeps). None when it is not finite and negative. Range: n >= 1, eps > 0."""
    require_integer("n", n, minimum=1)
    require_positive("eps", eps)
    h = 1e-4
    values = [_normal_delta(terms, n, eps * (1 + side * h)) for side in (-1, 1)]
    if not all(v > 0 and math.isfinite(v) for v in values):
        return None
    slope = (math.log(values[1]) - math.log(values[0])) / (math.log1p(h) - math.log1p(-h))
    return slope if math.isfinite(slope) and slope < 0 else None


def _normal_delta(terms: Callable[[float], list[tuple[float, float]]], n: int, eps: float) -> float:
    """(1/n) E[(Y)_+] for Y normal with the mean and variance of sum_i c_i X_i, X ~ Mult(n; p)."""
    pairs = terms(eps)
    mean = n * sum(c * p for c, p in pairs)
    var = n * (sum(c * c * p for c, p in pairs) - sum(c * p for c, p in pairs) ** 2)
    if not var > 0:
        return max(mean, 0.0) / n
    sd = math.sqrt(var)
    z = mean / sd
    return (mean * 0.5 * math.erfc(-z / math.sqrt(2)) + sd * math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)) / n


def blocking_offsets(lo: int, hi: int, mean: float, sd: float, delta: float) -> np.ndarray:
    """Grid offsets (from lo) of a blocked sum over a binomial count N in [lo, hi] with the given mean and sd
    (the exact blanket bounds of k-RR and of finite randomizers): steps of N_STEP_LOG * N / log(1/delta) (D_N falls by about
    that fraction of log(1/delta) per step: the blocking slack of delta near N_STEP_LOG) within 4 sd of the
    mean, four times that beyond (where little mass is); a block reaching into the central zone is at most
    one zone step long. The grid only decides how tight the certified
    upper end is, never whether it is an upper bound."""
    require_probability("delta", delta)
    slack_step = N_STEP_LOG * max(mean, 1.0) / max(math.log(1.0 / delta), 1.0)
    points = [lo]
    x = float(lo)
    zone_lo, zone_hi = mean - 4 * sd, mean + 4 * sd
    big_step = 4 * slack_step
    while x < hi:
        if x < zone_lo:  # below the central zone: big steps, but a block reaching into it is a zone block
            target = x + big_step
            if target > zone_lo:
                target = min(target, max(zone_lo, x + slack_step))
        elif x < zone_hi:
            target = x + slack_step
        else:
            target = x + big_step
        x = max(x + 1.0, math.floor(target))
        points.append(min(int(x), hi))
    return np.array(sorted(set(points)), dtype=np.int64) - lo


def search_start(
    terms: Callable[[float], list[tuple[float, float]]], *, eps0: float, n: int, delta: float, fallback: Callable[[], float]
) -> tuple[float | None, float | None]:
    """(hint, slope): where the certified eps search of a k-RR expectation E[(sum of n draws of `terms`(eps))_+]
    starts (`shuffle_spec.reference.bounds.blanket_exact_krr` and `shuffle_spec.reference.lower_bounds.krr`; it only decides
    where delta is evaluated, never the answer). The eps at which the normal approximation of the same expectation equals delta, and its local slope
    (d log delta / d log eps): the approximation's slope is within a few percent of the exact one where its root
    is close (measured), so 3 evaluations usually settle both ends. Where it finds none, `fallback()` (the callers
    give Bennett's k-RR eps, BBGN19.bennett_krr, an upper bound on the blanket bound, hence on every pair) and no
    slope; None when the fallback refuses too (ValueError). Range: n >= 1, eps0 > 0, 0 < delta < 1."""
    hint = normal_guess(terms, n=n, eps0=eps0, delta=delta)
    slope = normal_elasticity(terms, n=n, eps=hint) if hint is not None else None
    if hint is None:
        try:
            hint = fallback()
        except ValueError:
            hint = None
    return hint, slope
