"""The exact pair (P_k, Q_k) of shuffled binary randomized response as privacy-loss distributions on certified
windows, both directions: the pair of `compose.exact_binary_rr` (module doc of `shuffled_rounds`) and of the
lower end of `compose.binary_rr` (module doc of `mechanism_rounds`). In a module of its own so that both use it
without importing each other."""

from __future__ import annotations

import numpy as np

from ..core.errors import ParameterError, require_integer
from ..core.parameters import check_eps0, check_n
from ..numerics.binomial import SUBNORMAL_CAP, UNIT, ProbabilityPair, certified_window, probability_pair
from ..numerics.pld import PairPLD

__all__ = ["WINDOW_TAIL", "binary_rr_pair_plds"]

# Tail mass each binomial window may drop (it goes to the infinite-loss atom); `shuffled_rounds` uses it too.
WINDOW_TAIL = 1e-24


def binary_rr_pair_plds(eps0: float, n: int, k: int, *, window_tail: float = WINDOW_TAIL) -> tuple[PairPLD, PairPLD]:
    """PLDs of the exact pair (P_k, Q_k) of shuffled binary RR, both directions (P vs Q, Q vs P):
    P_k = Bern(p) + S_k, Q_k = Bern(1-p) + S_k, S_k = Bin(k, p) + Bin(n-1-k, 1-p); masses with the
    proven relative error of the certified windows and their convolution (as in shuffle_spec.reference.exact.binary_rr).
    `window_tail`: the mass the binomial window of Bin(n-1-k, 1-p) may leave out (it goes to `dropped`: +inf for an
    upper curve, dropped for a lower one; smaller at small delta, as the clone pairs' `shuffled_rounds.pair_pld`).
    Range: 0 < eps0 <= 30, 1 <= n <= 1e9, 0 <= k <= n-1, 1e-300 <= window_tail <= WINDOW_TAIL."""
    check_eps0(eps0, maximum=30.0, why="the exact binary-RR pair PLDs")
    check_n(n, maximum=10**9, why="the exact binary-RR pair PLDs")
    require_integer("k", k, minimum=0)
    if k > n - 1:
        raise ParameterError("k", k, f"0 <= k <= n-1 = {n - 1}")
    if not (isinstance(window_tail, float) and 1e-300 <= window_tail <= WINDOW_TAIL):
        raise ParameterError("window_tail", window_tail, f"a float in [1e-300, {WINDOW_TAIL}]")
    eps0, n, k = float(eps0), int(n), int(k)
    keep = probability_pair("keep", eps0)
    flip = ProbabilityPair(keep.q_iv, keep.p_iv, keep.q, keep.p, keep.q_err, keep.p_err)
    p, q = keep.p, keep.q
    big = certified_window(n - 1 - k, flip, window_tail)
    small = certified_window(k, keep, 0.0) if k > 0 else None
    f = np.convolve(big.pmf, small.pmf) if small is not None else big.pmf.copy()
    rel = big.max_rel + (small.max_rel if small is not None else 0.0)
    f_s, f_prev = np.append(f, 0.0), np.insert(f, 0, 0.0)
    pp = p * f_prev + q * f_s  # Bern(p) + S_k at s = lo + index
    qq = q * f_prev + p * f_s
    rel_err = 1.01 * (rel + (k + len(pp) + 16) * UNIT + keep.p_err + keep.q_err)
    # pp[i] uses f at i-1 and i; f[j] misses window-dropped terms unless k <= j <= len(big) - 1 (or the
    # big window reaches the end of its support): only those points carry proven values and losses.
    first = k + 1 if big.lo > 0 else 0
    stop = len(f) - k if big.hi < n - 1 - k else len(f) + 1
    interior = np.zeros(len(pp), dtype=bool)
    interior[first:max(stop, first)] = True
    # Values near the subnormal range are not relatively certified (shuffle_spec.reference.numerics.binomial): dropped too.
    reliable = interior & (np.minimum(pp, qq) > 1e-270) | interior & (np.maximum(pp, qq) > 1e-270) & (np.minimum(pp, qq) == 0)
    outside = float(np.sum(pp[~reliable]) + np.sum(qq[~reliable])) * (1 + rel_err)
    dropped = (big.dropped + outside + (len(big.pmf) + k + 2) * SUBNORMAL_CAP * 4) * (1 + 1e-12)
    out = []
    for a, b, label in ((pp, qq, "P_k vs Q_k"), (qq, pp, "Q_k vs P_k")):
        finite = reliable & (a > 0) & (b > 0)
        inf_here = reliable & (a > 0) & (b <= 0)
        log_a, log_b = np.log(a[finite]), np.log(b[finite])
        loss = log_a - log_b
        margin = 2.5 * rel_err + 1e-12 * (1.0 + np.abs(log_a) + np.abs(log_b))
        m_hi = a[finite] * (1 + rel_err)
        m_lo = a[finite] * (1 - rel_err)
        inf_mass = float(np.sum(a[inf_here])) * (1 + rel_err)
        out.append(PairPLD(loss - margin, loss + margin, m_lo, m_hi, float(dropped), inf_mass, float(eps0), f"exact binary-RR pair k={k} ({label}), eps0={eps0}, n={n}"))
    return out[0], out[1]
