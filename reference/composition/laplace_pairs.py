"""Binned explicit pairs of the shuffled Laplace mechanism on [0, 1], for the composed LOWER bound of
`compose.laplace` (`explicit_pairs`, group "count").

The pair is the single-round lower bound's (statement exact.laplace_pair_x0, `reference.lower_bounds.laplace`):
user 1 holds 0 in D and 1 in D', the other n - 1 users hold 0; each reports x + Lap(1/eps0). Every report is
then binned by fixed thresholds t_1 < t_2 into (-inf, t_1], (t_1, t_2], (t_2, inf) (three bins) or by one
threshold into two: a fixed function of each report, so a post-processing of the shuffled output, and the
binned pair's composed delta(eps) is at most the continuous pair's, at most the worst case's (module doc of
`count_pairs`). With F_x(t) = e^{eps0 (t - x)} / 2 for t <= x and 1 - e^{-eps0 (t - x)} / 2 for t >= x (the
Laplace CDF), the bins' probabilities under x are differences of F_x at the thresholds, enclosed by 100-bit
interval arithmetic (`count_pair_from_intervals`).

The thresholds: those that maximise the chi-square distance sum_y (mu_1(y) - mu_0(y))^2 / mu_0(y) of the binned
pair (the loss's variance is about it over n, which drives the composed epsilon), found by a float grid search
(it decides tightness only, never validity); the two-bin cut at 1/2 (binary randomized response with
e^{eps0'} = 2 e^{eps0/2} - 1, `reference.lower_bounds.laplace.binned_binary_rr_eps0`) and the best two-bin cut are
candidates too (one count: no cell budget at any n).

Why one pair of neighbouring T-round datasets realises the composition: user 1 is the only user whose inputs
differ (0 in D, 1 in D' in every round, or the reverse in some rounds: the mirrored direction), the others
hold 0 throughout; the rounds use independent randomness, so the T-round output law is the product of the
rounds' and its privacy-loss distribution the convolution of theirs. A fixed pair needs no adaptivity: its
exact composed delta is at most the worst case over adaptive choices of inputs.

Range: 1e-3 <= eps0 <= 8 (as compose.laplace).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from ..core.errors import ParameterError
from ..core.parameters import check_eps0
from ..numerics.binomial import iv_context
from .count_pairs import CountPair, count_pair_from_intervals

__all__ = ["laplace_count_pairs", "laplace_candidate_thresholds", "laplace_binned_laws", "MAX_EPS0"]

MAX_EPS0 = 8.0
# Threshold grid of the chi-square search (in units of the input range [0, 1]), around and beyond it: multiples of
# 1/32 (exact floats, short in the notes).
_GRID = np.arange(-48, 81) / 32.0


def _cdf_float(eps0: float, x: float, t: np.ndarray) -> np.ndarray:
    return np.where(t <= x, 0.5 * np.exp(np.minimum(eps0 * (t - x), 0.0)), 1 - 0.5 * np.exp(-np.maximum(eps0 * (t - x), 0.0)))


def _chi_square(eps0: float, cuts: np.ndarray) -> np.ndarray:
    """Float chi-square of the binned pair for rows of sorted cuts (uncertified: ranking only)."""
    edges = [np.zeros(len(cuts))] + [cuts[:, j] for j in range(cuts.shape[1])] + [np.ones(len(cuts))]
    total = np.zeros(len(cuts))
    for j in range(len(edges) - 1):
        lo = _cdf_float(eps0, 0.0, edges[j]) if j else np.zeros(len(cuts))
        hi = _cdf_float(eps0, 0.0, edges[j + 1]) if j + 1 < len(edges) - 1 else np.ones(len(cuts))
        lo1 = _cdf_float(eps0, 1.0, edges[j]) if j else np.zeros(len(cuts))
        hi1 = _cdf_float(eps0, 1.0, edges[j + 1]) if j + 1 < len(edges) - 1 else np.ones(len(cuts))
        p0, p1 = hi - lo, hi1 - lo1
        total += np.where(p0 > 1e-300, (p1 - p0) ** 2 / np.maximum(p0, 1e-300), np.inf)
    return total


def _cdf(eps0: Any, x: int, t: float) -> Any:
    iv = iv_context()
    d = iv.mpf(t) - x
    return iv.exp(eps0 * d) / 2 if t <= x else 1 - iv.exp(-eps0 * d) / 2


def laplace_binned_laws(*, eps0: float, thresholds: tuple[float, ...]) -> tuple[list[Any], list[Any]]:
    """Interval enclosures of the bin probabilities of one eps0-Laplace report of input 0 and of input 1 on [0, 1],
    binned by the sorted `thresholds` (1 or 2 floats; module doc). Range: 1e-3 <= eps0 <= 8."""
    check_eps0(eps0, maximum=MAX_EPS0, why="the binned Laplace pairs")
    if not (isinstance(thresholds, tuple) and len(thresholds) in (1, 2) and all(isinstance(t, float) and math.isfinite(t) for t in thresholds)
            and list(thresholds) == sorted(set(thresholds))):
        raise ParameterError("thresholds", thresholds, "1 or 2 increasing finite floats")
    iv = iv_context()
    e = iv.mpf(float(eps0))
    laws = []
    for x in (0, 1):
        cdf = [_cdf(e, x, t) for t in thresholds]
        bins = [cdf[0]] + [cdf[i + 1] - cdf[i] for i in range(len(cdf) - 1)] + [1 - cdf[-1]]
        laws.append(bins)
    return laws[0], laws[1]


def _best_cuts(eps0: float) -> tuple[tuple[float, float], float]:
    """The two thresholds (and the one) of largest float chi-square on the search grid (module doc)."""
    t1, t2 = np.meshgrid(_GRID, _GRID, indexing="ij")
    keep = t1 < t2
    cuts = np.stack([t1[keep], t2[keep]], axis=1)
    values = _chi_square(eps0, cuts)
    i = int(np.argmax(values))
    ones = _chi_square(eps0, _GRID[:, None])
    j = int(np.argmax(ones))
    return (float(cuts[i, 0]), float(cuts[i, 1])), float(_GRID[j])


def laplace_candidate_thresholds(*, eps0: float) -> list[tuple[float, ...]]:
    """The thresholds of the candidate binned pairs (module doc), best-ranked first: the two of largest chi-square,
    the best one, and 1/2 (once). Range: 1e-3 <= eps0 <= 8."""
    check_eps0(eps0, maximum=MAX_EPS0, why="the binned Laplace pairs")
    three, one = _best_cuts(float(eps0))
    out: list[tuple[float, ...]] = [three]
    if one != 0.5:
        out.append((one,))
    out.append((0.5,))
    return out


@lru_cache(maxsize=32)
def laplace_count_pairs(*, eps0: float) -> tuple[CountPair, ...]:
    """The candidate binned pairs of the shuffled eps0-Laplace mechanism (module doc; user 1 at 0 vs 1, the others
    at 0), best-ranked first, binned at `laplace_candidate_thresholds`. Range: 1e-3 <= eps0 <= 8."""
    out: list[CountPair] = []
    for cuts in laplace_candidate_thresholds(eps0=eps0):
        zero, unit = laplace_binned_laws(eps0=float(eps0), thresholds=cuts)
        where = " and ".join(repr(c) for c in cuts)
        name = f"Laplace pair user 1 at 0 vs 1, the other n-1 users at 0, reports binned at {where}"
        try:
            out.append(count_pair_from_intervals(zero, unit, zero, name))
        except ParameterError:
            continue  # a bin of probability 0 in floats (never at these cuts): not a candidate
    return tuple(out)
