"""Randomized report deletion for Crowd IDs (EFMRSTT20 Alg. 3, Thms V.1 and V.2).

Per crowd i with n_i reports: n_hat_i = max(floor(n_i + Lap(2/eps_cr) - s), 0), s = (2/eps_cr)
log(2/delta_cr); abort if n_hat_i > n_i, else keep n_hat_i uniformly chosen reports. The paper's
n_hat_i is real-valued; rounding down (post-processing of the Laplace count) is this module's choice.
With it, abort happens iff Lap >= s + 1 (probability (delta_cr/4) e^{-eps_cr/2} per crowd), and the
number deleted is n_i - n_hat_i <= ceil(s - Lap) < s - Lap + 1.

The released counts (n_hat_i, or one abort symbol for the whole run) have an exact distribution:
n_hat = j for 1 <= j <= n_i iff n_i + Lap - s in [j, j+1); n_hat = 0 iff n_i + Lap - s < 1; abort
iff Lap >= s + 1. `released_counts_distribution` computes it with the Laplace CDF in mpmath (60
digits) and `report_deletion_delta` the exact delta(eps_cr) between two neighbouring count vectors.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import mpmath
import numpy as np

from ..core.errors import ParameterError, require_integer, require_positive, require_probability
from ..core.results import BoundValue
from ..core.rounding import mpf_to_float_down, mpf_to_float_up

__all__ = [
    "randomized_report_deletion",
    "released_counts_distribution",
    "report_deletion_delta",
    "deletion_bound",
    "deletion_bound_failure_probability",
]

ABORT = "abort"
_DIGITS = 60


def _check_privacy(eps_cr: float, delta_cr: float) -> None:
    require_positive("eps_cr", eps_cr)
    require_probability("delta_cr", delta_cr)


def _shift(eps_cr: float, delta_cr: float) -> float:
    return (2.0 / eps_cr) * math.log(2.0 / delta_cr)


def randomized_report_deletion(crowds: Sequence[Sequence[object]], *, eps_cr: float, delta_cr: float, seed: int | None = None) -> list[list[object]] | None:
    """Run EFMRSTT20.Alg3 on reports partitioned by Crowd ID: the kept reports per crowd, or None
    when the algorithm aborts (some n_hat_i > n_i)."""
    _check_privacy(eps_cr, delta_cr)
    if len(crowds) == 0:
        raise ParameterError("crowds", crowds, "at least one crowd (a list of reports)")
    rng = np.random.default_rng(seed)
    shift = _shift(eps_cr, delta_cr)
    kept = []
    for reports in crowds:
        n_i = len(reports)
        n_hat = max(math.floor(n_i + rng.laplace(0.0, 2.0 / eps_cr) - shift), 0)
        if n_hat > n_i:
            return None
        chosen: Sequence[int] | np.ndarray = rng.choice(n_i, size=n_hat, replace=False) if n_hat else []
        kept.append([reports[j] for j in sorted(chosen)])
    return kept


def _laplace_cdf(x: mpmath.mpf, scale: mpmath.mpf) -> mpmath.mpf:
    return mpmath.exp(x / scale) / 2 if x < 0 else 1 - mpmath.exp(-x / scale) / 2


def released_counts_distribution(count: int, *, eps_cr: float, delta_cr: float) -> dict[object, mpmath.mpf]:
    """The exact distribution (mpmath, 60 digits) of one crowd's released n_hat in EFMRSTT20.Alg3:
    {0, ..., count} plus ABORT."""
    require_integer("count", count, minimum=0)
    _check_privacy(eps_cr, delta_cr)
    with mpmath.workdps(_DIGITS):
        scale = 2 / mpmath.mpf(eps_cr)
        shift = scale * mpmath.log(2 / mpmath.mpf(delta_cr))
        # n_hat >= j  iff  Lap >= j - count + shift (for j >= 1)
        def at_least(j: int) -> mpmath.mpf:
            return 1 - _laplace_cdf(j - count + shift, scale)

        out: dict[object, mpmath.mpf] = {0: 1 - at_least(1)}
        for j in range(1, int(count) + 1):
            out[j] = at_least(j) - at_least(j + 1)
        out[ABORT] = at_least(int(count) + 1)
        return out


def _joint(counts: Sequence[int], eps_cr: float, delta_cr: float) -> dict[object, mpmath.mpf]:
    joint: dict[Any, mpmath.mpf] = {(): mpmath.mpf(1)}  # keys: tuples of released counts, or ABORT
    for c in counts:
        single = released_counts_distribution(c, eps_cr=eps_cr, delta_cr=delta_cr)
        nxt: dict[Any, mpmath.mpf] = {}
        for prefix, p in joint.items():
            for value, q in single.items():
                key = ABORT if prefix == ABORT or value == ABORT else prefix + (value,)
                nxt[key] = nxt.get(key, mpmath.mpf(0)) + p * q
        joint = nxt
    return joint


def report_deletion_delta(counts: Sequence[int], counts2: Sequence[int], *, eps_cr: float, delta_cr: float) -> float:
    """The exact delta at eps = eps_cr between the released counts of EFMRSTT20.Alg3 on two count
    vectors (the larger hockey-stick divergence, both directions), rounded up; Thm V.1 says it is
    <= delta_cr for neighbouring vectors (one report changes crowd, or one is added or removed)."""
    _check_privacy(eps_cr, delta_cr)
    if len(counts) == 0 or len(counts) != len(counts2):
        raise ParameterError("counts2", counts2, f"a count vector of the same non-zero length as counts ({len(counts)})")
    for c in (*counts, *counts2):
        require_integer("count", c, minimum=0)
    with mpmath.workdps(_DIGITS):
        p, q = _joint(counts, eps_cr, delta_cr), _joint(counts2, eps_cr, delta_cr)
        e = mpmath.exp(mpmath.mpf(eps_cr))
        keys = set(p) | set(q)
        zero = mpmath.mpf(0)
        forward = sum((max(p.get(z, zero) - e * q.get(z, zero), zero) for z in keys), zero)
        backward = sum((max(q.get(z, zero) - e * p.get(z, zero), zero) for z in keys), zero)
        return mpf_to_float_up(max(forward, backward))


def deletion_bound(*, eps_cr: float, delta_cr: float, P: int) -> BoundValue:
    """(4/eps_cr) log(2P/delta_cr): with probability >= 1 - delta_cr no crowd loses more reports
    (EFMRSTT20.ThmV.2), for eps_cr > 0, delta_cr in (0, 1), P >= 1. An upper bound: evaluated at 60 digits and
    rounded to the doubles on either side, `value` the one above (a smaller number of lost reports would
    not be certified; the double evaluation used before could fall an ulp or two below it)."""
    _check_privacy(eps_cr, delta_cr)
    require_integer("P", P, minimum=1)
    with mpmath.workdps(_DIGITS):
        bound = 4 / mpmath.mpf(eps_cr) * mpmath.log(2 * int(P) / mpmath.mpf(delta_cr))
        return BoundValue(mpf_to_float_down(bound), mpf_to_float_up(bound), direction="upper_bound")


def deletion_bound_failure_probability(*, eps_cr: float, delta_cr: float, P: int) -> float:
    """An upper bound (rounded up) on the probability that some crowd of EFMRSTT20.Alg3 loses more
    than B = `deletion_bound` reports (EFMRSTT20.ThmV.2 for this module's rounding).

    Deleted = ceil(s - Lap) when n_hat > 0 and = n_i < s + 1 - Lap when clipped to 0; either way
    deleted > B implies Lap < -(B - s - 1). Per crowd that has probability (1/2) e^{-(B - s - 1)/b},
    b = 2/eps_cr (when B >= s + 1), and a union bound over the P crowds multiplies it by P.
    """
    _check_privacy(eps_cr, delta_cr)
    require_integer("P", P, minimum=1)
    with mpmath.workdps(_DIGITS):
        scale = 2 / mpmath.mpf(eps_cr)
        shift = scale * mpmath.log(2 / mpmath.mpf(delta_cr))
        bound = 4 / mpmath.mpf(eps_cr) * mpmath.log(2 * int(P) / mpmath.mpf(delta_cr))
        margin = bound - shift - 1
        per_crowd = mpmath.exp(-margin / scale) / 2 if margin >= 0 else mpmath.mpf(1)
        return mpf_to_float_up(min(mpmath.mpf(1), int(P) * per_crowd))
