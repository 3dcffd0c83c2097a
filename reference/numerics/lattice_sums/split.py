"""The split and shifted-row lattice sums (large n: the blocking of the count and its certified slack).

Part of `shuffle_spec.reference.numerics.lattice_sums` (its package doc states the model and the proofs)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...core.errors import ParameterError, require_integer

from .laws import BinomialLaw, EXP_MARGIN, LOG_MARGIN, ROW_SD, TINY, U1, exp_bounds, log_pmf, binomial_window

__all__ = ["split_cost", "split_positive_part"]


@dataclass(frozen=True)
class _SplitPlan:
    """The eps-independent layout of `split_positive_part`: the s window and, per s, the window of r (flat,
    row after row: r, its pmf bracket, and r times it; `r_start` the flat index of each row's first r)."""

    s: np.ndarray
    s_lo: np.ndarray
    s_hi: np.ndarray
    s_below: float
    s_above: float
    s_first: int
    r: np.ndarray
    r_group: np.ndarray
    r_lo: np.ndarray
    r_hi: np.ndarray
    r_sizes: np.ndarray
    r_below: np.ndarray
    r_above: np.ndarray
    r_last: np.ndarray
    r_start: np.ndarray
    r_first: np.ndarray
    rr_lo: np.ndarray
    rr_hi: np.ndarray


def _log_chernoff_upper_array(x: np.ndarray, m: np.ndarray, law: BinomialLaw) -> np.ndarray:
    """`_log_chernoff_upper` elementwise (the same terms and margin; 0 <= x <= m)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        t1 = np.where(x > 0, x * (np.log(np.maximum(x, 1.0)) - np.log(m) - law.log_p), 0.0)
        t2 = np.where(m - x > 0, (m - x) * (np.log(np.maximum(m - x, 1.0)) - np.log(m) - law.log_q), 0.0)
    return -(t1 + t2) + LOG_MARGIN * (np.abs(t1) + np.abs(t2)) + law.err * m + 1e-15


def _edges_array(m: np.ndarray, law: BinomialLaw, log_tail: float, direction: int) -> np.ndarray:
    """`_edge` for every m >= 1 at once (the same search: outward steps doubling until the Chernoff bound on the
    mass beyond the edge is <= e^log_tail)."""
    mean = m * law.p
    sd = np.sqrt(np.maximum(m * law.p * (1 - law.p), 1e-300))
    z = math.sqrt(max(-2.0 * log_tail, 1.0)) + 1.0
    step = np.maximum(1.0, 0.25 * z * sd)
    x = np.floor(mean - z * sd) if direction < 0 else np.ceil(mean + z * sd)
    result = np.full(len(m), -1.0)
    for _ in range(200):
        todo = result < 0
        if not np.any(todo):
            break
        if direction < 0:
            hit_end = todo & (x <= 0)
            beyond = np.clip(x - 1, 0.0, m)
            found = todo & ~hit_end & (x - 1 < mean) & (_log_chernoff_upper_array(beyond, m, law) <= log_tail)
            result = np.where(hit_end, 0.0, np.where(found, x, result))
            x = np.where(todo & ~hit_end & ~found, np.floor(x - step), x)
        else:
            hit_end = todo & (x >= m)
            beyond = np.clip(x + 1, 0.0, m)
            found = todo & ~hit_end & (x + 1 > mean) & (_log_chernoff_upper_array(beyond, m, law) <= log_tail)
            result = np.where(hit_end, m, np.where(found, x, result))
            x = np.where(todo & ~hit_end & ~found, np.ceil(x + step), x)
        step = step * 2
    if np.any(result < 0):  # cannot happen (the steps double up to the ends); refuse rather than guess
        raise ParameterError("tail", log_tail, "a tail the Chernoff window search reaches")
    return result


# Pmf anchors (gammaln) every ANCHOR_STEP values of r; the ratio recurrence in between (module doc).
ANCHOR_STEP = 32


def _window_rows(m: np.ndarray, law: BinomialLaw, tail: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`binomial_window(m_i, law, tail)` for every m_i >= 0 at once: (lo, size, lower, upper, below, above) with
    the pmf brackets as (rows, width) arrays (entries at or beyond each row's size are not part of it). The
    pmf is anchored by gammaln every ANCHOR_STEP values and carried between anchors by the ratio recurrence
    (module doc's error model; the two products after it cost 2 roundings, 4u' reserved)."""
    log_tail = math.log(tail)
    positive = m > 0
    mm = np.maximum(m, 1.0)
    lo = np.where(positive, _edges_array(mm, law, log_tail, -1), 0.0)
    hi = np.where(positive, _edges_array(mm, law, log_tail, +1), 0.0)
    with np.errstate(over="ignore"):
        below = np.where(lo > 0, np.exp(_log_chernoff_upper_array(np.maximum(lo - 1, 0.0), mm, law)) * (1 + EXP_MARGIN), 0.0)
        above = np.where(hi < m, np.exp(_log_chernoff_upper_array(np.minimum(hi + 1, mm), mm, law)) * (1 + EXP_MARGIN), 0.0)
    size = (hi - lo + 1).astype(np.int64)
    lower, upper = _pmf_rows(m, lo, int(np.max(size)), law)
    return lo, size, lower, upper, below, above


def _pmf_rows(m: np.ndarray, first: np.ndarray, width: int, law: BinomialLaw) -> tuple[np.ndarray, np.ndarray]:
    """Certified brackets (lower, upper), (rows, width) arrays, of Pr[Bin(m_i, p) = first_i + t], t < width,
    for 0 <= first_i: anchored by gammaln every ANCHOR_STEP values and carried between anchors by the ratio
    recurrence (module doc's error model; the two products after it cost 2 roundings, 4u' reserved). Entries
    with first_i + t > m_i are not brackets (the caller masks them); values below TINY as in binomial_window."""
    rows = len(m)
    blocks = max(1, int(math.ceil(width / ANCHOR_STEP)))
    full = blocks * ANCHOR_STEP
    steps = np.arange(ANCHOR_STEP, dtype=float)
    base = first[:, None] + (np.arange(blocks, dtype=float) * ANCHOR_STEP)[None, :]
    anchor, anchor_err = log_pmf(np.broadcast_to(m[:, None], base.shape), np.minimum(base, m[:, None]), law)
    anchor_lo, anchor_hi = exp_bounds(anchor, anchor_err)
    # Ratios pmf(j + 1) / pmf(j) (exact where j < m; entries past m are masked by the caller).
    # (m - j) / (j + 1) rho formed in place (the same operations in the same order: the same floats, fewer
    # temporaries of the rows x width size, each of which costs a pass and its first-touch page faults).
    j = base[:, :, None] + steps[None, None, :-1]
    ratio = m[:, None, None] - j
    j += 1.0
    ratio /= j
    ratio *= law.rho
    del j
    rel = np.empty(base.shape + (ANCHOR_STEP,))
    rel[:, :, 0] = 1.0
    with np.errstate(under="ignore", invalid="ignore", over="ignore"):
        np.cumprod(ratio, axis=2, out=rel[:, :, 1:])
    rel_err = np.expm1((3.0 * steps + 2.0) * U1 + steps * law.err) * 1.01
    factor_hi = (1 + rel_err) * (1 + 4 * U1)
    factor_lo = (1 - rel_err) / (1 + 4 * U1)
    upper = rel * factor_hi
    upper *= anchor_hi[:, :, None]
    upper = upper.reshape(rows, full)
    lower = rel * factor_lo
    lower *= anchor_lo[:, :, None]
    lower = lower.reshape(rows, full)
    small = rel.reshape(rows, full) < TINY
    if np.any(small):  # an underflowed ratio product is < TINY (1 + err) + 2^-1074
        upper[small] = (2 * TINY * np.broadcast_to(anchor_hi[:, :, None], rel.shape)).reshape(rows, full)[small]
        lower[small] = 0.0
    deep = anchor_lo <= 0.0
    if np.any(deep):
        # Anchors below TINY (windows reaching below 1e-280, tails < 1e-270): their blocks by gammaln at every
        # point, as binomial_window (the recurrence from a clamped anchor would be valid but loose).
        rows_deep, blocks_deep = np.nonzero(deep)
        j_deep = base[rows_deep, blocks_deep][:, None] + steps[None, :]
        m_deep = np.broadcast_to(m[rows_deep][:, None], j_deep.shape)
        value, err = log_pmf(m_deep, np.minimum(j_deep, m_deep), law)
        low_deep, high_deep = exp_bounds(value, err)
        columns = blocks_deep[:, None] * ANCHOR_STEP + np.arange(ANCHOR_STEP)[None, :]
        upper[rows_deep[:, None], columns] = high_deep
        lower[rows_deep[:, None], columns] = low_deep
    # The first `width` columns, clamped in place (views of the arrays above: the same values as new arrays).
    upper = upper[:, :width]
    np.maximum(upper, TINY, out=upper)
    lower = lower[:, :width]
    lower[lower < TINY] = 0.0
    return lower, upper


@lru_cache(maxsize=4)
def _split_plan(n: int, law_s: BinomialLaw, law_r: BinomialLaw | None, tail: float) -> _SplitPlan:
    window = binomial_window(n, law_s, tail)
    s = np.arange(window.lo, window.hi + 1, dtype=np.int64)
    rows = len(s)
    if law_r is None:  # r = 0 exactly
        lo_r, sizes = np.zeros(rows), np.ones(rows, dtype=np.int64)
        lower, upper, below, above = np.ones((rows, 1)), np.ones((rows, 1)), np.zeros(rows), np.zeros(rows)
    else:
        lo_r, sizes, lower, upper, below, above = _window_rows((n - s).astype(float), law_r, tail)
    inside = np.arange(lower.shape[1])[None, :] < sizes[:, None]
    r_values = (lo_r[:, None] + np.arange(lower.shape[1], dtype=float)[None, :])[inside]
    groups = np.broadcast_to(np.arange(rows, dtype=np.int64)[:, None], inside.shape)[inside]
    r_lo, r_hi = lower[inside], upper[inside]
    last = np.cumsum(sizes) - 1
    start = last - sizes + 1
    return _SplitPlan(
        s.astype(float), window.lower, window.upper, window.below, window.above, window.lo,
        r_values, groups, r_lo, r_hi, sizes.astype(float), below, above, last.astype(np.int64),
        start.astype(np.int64), lo_r, r_lo * r_values, r_hi * r_values,
    )


def _count_rows(values: np.ndarray, threshold: np.ndarray) -> np.ndarray:
    """For each row i of `values` (non-decreasing rows): the number of entries <= threshold[i], exactly (a
    vectorised bisection on the float values themselves)."""
    rows, length = values.shape
    lo = np.zeros(rows, dtype=np.int64)  # values[:lo] <= threshold
    hi = np.full(rows, length, dtype=np.int64)  # values[hi:] > threshold
    index = np.arange(rows)
    while True:
        active = lo < hi
        if not np.any(active):
            return lo
        mid = (lo + hi) // 2
        at_most = values[index, np.minimum(mid, length - 1)] <= threshold
        lo = np.where(active & at_most, mid + 1, lo)
        hi = np.where(active & ~at_most, mid, hi)


def _thresholds(scale: float, r: np.ndarray, side: int) -> np.ndarray:
    """The float threshold t(r) = fl(fl(tau_end r) (1 -/+ 2u')) of the split sums (tau_end (1 -/+ 2u') = scale:
    the safe end of tau); non-decreasing in r (rounding is monotone). Below (side +1) or above (-1) tau r."""
    factor = (1 - 2 * U1) if side > 0 else (1 + 2 * U1)
    tau_end = scale / factor
    result: np.ndarray = (tau_end * r) * factor
    return result


def _split_segments(
    plan: _SplitPlan, x: np.ndarray, p_suffix: np.ndarray, q_suffix: np.ndarray, scale: float, side: int, pad_factor: float, remainder: np.ndarray,
    starts_ok: np.ndarray, cap: np.ndarray,
) -> np.ndarray:
    """Per row s: the bound (side +1: upper, -1: lower) on F(s) = sum_r Pr[r | s] H(r), H(r) = E[(X - tau r)_+ | s],
    from the row's non-decreasing float values x (x_hi or x_lo) with suffix sums P = sum x pmf and Q = sum pmf.

    Per r the bound is P[c] - t Q[c] with c = #{x <= t}, t = t(r) (`_thresholds`) the threshold on the safe
    side of tau r (module doc). c is non-decreasing in r: the r with the same c are one segment, found exactly
    from the breakpoints r_c = min{r: t(r) >= x[c - 1]} (estimated, then verified on the float t). On a segment
    sum_r w(r) (P - t(r) Q) = P sum w - Q sum w t(r), and sum w t(r) is bracketed by tau_end (1 -/+ 2u')^2 sum w r
    (t(r) lies between tau_end r (1 -/+ 2u')^2 and tau r); upper: t smaller than t(r) only raises each term,
    lower: larger only lowers it. Sums of the plan's non-negative w and w r over a segment of length <= L carry
    relative error <= (L + 2) u' (w r itself one rounding)."""
    rows = len(plan.s)
    first, size = plan.r_first, plan.r_sizes.astype(np.int64)
    r_first, r_last = first, first + size - 1
    row_index = np.arange(rows)
    weights = plan.r_hi if side > 0 else plan.r_lo
    weighted = plan.rr_hi if side > 0 else plan.rr_lo

    c_first = _count_rows(x, _thresholds(scale, r_first, side))
    c_last = _count_rows(x, _thresholds(scale, r_last, side))
    # Breakpoints for c = c_first + 1 .. c_last of every row.
    extra = (c_last - c_first).astype(np.int64)
    seg_row = np.repeat(row_index, extra)
    seg_c = np.repeat(c_first, extra) + (np.arange(int(np.sum(extra))) - np.repeat(np.cumsum(extra) - extra, extra)) + 1
    target = x[seg_row, seg_c - 1]
    lo_r, hi_r = r_first[seg_row], r_last[seg_row]
    tau_end = scale / ((1 - 2 * U1) if side > 0 else (1 + 2 * U1))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        guess = np.ceil(target / (tau_end * ((1 - 2 * U1) if side > 0 else (1 + 2 * U1))))
    r_c = np.clip(np.nan_to_num(guess, nan=0.0, posinf=1e300, neginf=-1e300), lo_r, hi_r + 1)
    for _ in range(64):
        at_ok = (r_c > hi_r) | (_thresholds(scale, np.minimum(r_c, hi_r), side) >= target)
        before_ok = (r_c <= lo_r) | (_thresholds(scale, np.maximum(r_c - 1, lo_r), side) < target)
        if np.all(at_ok & before_ok):
            break
        r_c = np.where(~at_ok, r_c + 1, np.where(~before_ok, r_c - 1, r_c))
    else:
        # The float threshold is within a few ulps of tau_end r: the estimate is off by at most a couple of r.
        raise ParameterError("tau", tau_end, "a threshold whose breakpoints the segment search settles")
    # Segments: (row, c, first r), the row's own first segment included; empty ones (two x crossed at one r) dropped.
    all_row = np.concatenate((row_index, seg_row))
    all_c = np.concatenate((c_first, seg_c))
    all_r = np.concatenate((r_first, r_c))
    order = np.lexsort((all_c, all_r, all_row))
    all_row, all_c, all_r = all_row[order], all_c[order], all_r[order]
    # Keep, among segments starting at the same r of a row, the one with the largest c (the others are empty).
    keep = np.ones(len(all_row), dtype=bool)
    keep[:-1] = ~((all_row[1:] == all_row[:-1]) & (all_r[1:] == all_r[:-1]))
    keep &= all_r <= r_last[all_row]
    all_row, all_c, all_r = all_row[keep], all_c[keep], all_r[keep]
    starts = plan.r_start[all_row] + (all_r - r_first[all_row]).astype(np.int64)
    seg_len = np.diff(np.concatenate((starts, [len(weights)])))
    w_sum = np.add.reduceat(weights, starts)
    wr_sum = np.add.reduceat(weighted, starts)
    err = (seg_len + 4) * U1
    big_p, big_q = p_suffix[all_row, all_c], q_suffix[all_row, all_c]
    two = (1 - 2 * U1) ** 2 if side > 0 else (1 + 2 * U1) ** 2
    if side > 0:
        w_bound = w_sum * (1 + err)  # >= sum w
        t_bound = tau_end * two * wr_sum / (1 + err) * (1 - 4 * U1)  # <= sum w tau_end (1 - 2u')^2 r
        first_term = (big_p * (1 + pad_factor) + remainder[all_row]) * w_bound
        second_term = big_q * (1 - pad_factor) * t_bound
        value = first_term - second_term + 8 * U1 * (first_term + second_term)
        value = np.where(starts_ok[all_row], np.minimum(value, cap[all_row] * w_bound), cap[all_row] * w_bound)
        value = np.maximum(value, 0.0)
    else:
        w_bound = w_sum / (1 + err)  # <= sum w
        t_bound = tau_end * two * wr_sum * (1 + err) * (1 + 4 * U1)  # >= sum w tau_end (1 + 2u')^2 r
        first_term = big_p * (1 - pad_factor) * w_bound
        second_term = big_q * (1 + pad_factor) * t_bound
        value = np.maximum(first_term - second_term - 8 * U1 * (first_term + second_term), 0.0)
    counts = np.bincount(all_row, minlength=rows)
    total: np.ndarray = np.bincount(all_row, weights=value, minlength=rows).astype(float)
    if side > 0:
        total = total * (1 + (counts + 4) * U1)
        # r above the window: H <= H(r_last) (H is non-increasing in r), the last segment's per-r bound.
        c_end = c_last
        t_end = _thresholds(scale, r_last, side)
        h_end = p_suffix[row_index, c_end] * (1 + pad_factor) + remainder - q_suffix[row_index, c_end] * t_end * (1 - pad_factor)
        h_end = np.maximum(h_end + 8 * U1 * (p_suffix[row_index, c_end] + q_suffix[row_index, c_end] * t_end + remainder), 0.0)
        h_end = np.where(starts_ok, np.minimum(h_end, cap), cap)
        total = total + plan.r_above * h_end * (1 + 4 * U1)
        return total
    lower: np.ndarray = total / (1 + (counts + 4) * U1)
    return lower


def split_cost(n: int, p_s: float, p_a: float, p_r: float, shift_a: float = 0.0) -> float:
    """The number of array element operations `split_positive_part` performs (about): a cost estimate for
    choosing it; shift_a: how far (values of a) the largest threshold shift moves the zero. Range: integer
    n >= 1, probabilities p_s, p_a, p_r in [0, 1], shift_a >= 0."""
    require_integer("n", n, minimum=1)
    for name, value in (("p_s", p_s), ("p_a", p_a), ("p_r", p_r)):
        if not (isinstance(value, (int, float)) and 0 <= value <= 1):
            raise ParameterError(name, value, "a probability in [0, 1]")
    sd_s = math.sqrt(max(n * p_s * (1 - p_s), 1.0))
    mean_s = n * p_s
    sd_a = math.sqrt(max(mean_s * p_a * (1 - p_a), 1.0))
    sd_r = math.sqrt(max(n * (1 - p_s) * p_r * (1 - p_r), 1.0))
    return (24 * sd_s + 1) * (12 * (5 * sd_a + 16 + max(shift_a, 0.0)) + 20 * (24 * sd_r + 1))


def split_positive_part(
    n: int, law_s: BinomialLaw, law_a: BinomialLaw, law_r: BinomialLaw | None, lam: tuple[float, float], kappa: tuple[float, float], tau: tuple[float, float], *, tail: float
) -> tuple[float, float]:
    """[lower, upper] containing E[(lam a + kappa s - tau r)_+], s ~ Bin(n, p_s), a | s ~ Bin(s, p_a),
    r | s ~ Bin(n - s, p_r) (law_r None: r = 0) independent of a given s; lam > 0, kappa <= 0, tau >= 0 given as
    [lo, hi] brackets (module doc "split sums"). No blocking: for each s one row of a carries suffix sums, and
    every r is an exact shift t = tau r of its threshold (E[(X - t)_+] = sum_{X > t} X pmf - t sum_{X > t} pmf).
    Range: n >= 1, binomial laws from binomial_law(), 0 < tail < 1."""
    require_integer("n", n, minimum=1)
    for name, pair in (("lam", lam), ("kappa", kappa), ("tau", tau)):
        if not (isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(v, float) and math.isfinite(v) for v in pair) and pair[0] <= pair[1]):
            raise ParameterError(name, pair, "a bracket (lo, hi) of finite floats")
    if not (lam[0] > 0 and kappa[1] <= 0 and tau[0] >= 0):
        raise ParameterError("coefficients", (lam, kappa, tau), "lam > 0, kappa <= 0, tau >= 0")
    if not isinstance(law_s, BinomialLaw) or not isinstance(law_a, BinomialLaw) or not (law_r is None or isinstance(law_r, BinomialLaw)):
        raise ParameterError("law", (law_s, law_a, law_r), "BinomialLaws from binomial_law() (law_r may be None)")
    if not (isinstance(tail, (int, float)) and 0 < tail < 1):
        raise ParameterError("tail", tail, "0 < tail < 1")
    if law_a.degenerate or law_s.degenerate:
        raise ParameterError("law", (law_s, law_a), "non-degenerate laws of s and a")
    plan = _split_plan(int(n), law_s, law_r, float(tail))
    s = plan.s
    p = law_a.p
    mean = s * p
    sd = np.sqrt(np.maximum(s * p * (1 - p), 0.0))
    # X_hi(a) = lam_hi a + kappa_hi s (+ pad) >= X(a) for 0 <= a <= s; X_lo likewise below.
    pad_s = 6 * U1 * (lam[1] * s + abs(kappa[0]) * s) + 1e-300
    k_hi = kappa[1] * s + pad_s
    k_lo = kappa[0] * s - pad_s
    zero = np.maximum(-k_hi / lam[1], 0.0)
    start = np.clip(np.floor(zero * (1 - 1e-9)) - 2.0, 0.0, s)
    # The row reaches ROW_SD sd past the mode and past the largest threshold used (the zero moved up by
    # tau r / lam for the window's largest r), so that the shifted sums are summed, not bounded.
    top_zero = zero + tau[1] * plan.r[plan.r_last] / lam[0]
    end = np.minimum(np.ceil(np.maximum(mean, top_zero) + max(ROW_SD, 4.0) * sd) + 16.0, s)
    length = int(np.max(end - start, initial=0.0)) + 1
    steps = np.arange(length, dtype=float)
    a = start[:, None] + steps[None, :]
    inside = a <= s[:, None]
    a_safe = np.minimum(a, s[:, None])
    pmf_lo, pmf_hi = _pmf_rows(s, start, length, law_a)
    pmf_lo = np.where(inside, pmf_lo, 0.0)
    pmf_hi = np.where(inside, pmf_hi, 0.0)
    x_hi = lam[1] * a_safe + k_hi[:, None]
    x_lo = lam[0] * a_safe + k_lo[:, None]
    starts_ok = (start <= 0) | (x_hi[:, 0] <= 0)
    # Beyond the row end e (a > e): geometric bound, ratio pmf(a+1)/pmf(a) <= r_end < 1 past the mode.
    last = a_safe[:, -1]
    r_end = (s - last) / (last + 1.0) * law_a.rho * (1 + 4 * U1 + law_a.err)
    more = last < s
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        geometric = pmf_hi[:, -1] * (np.maximum(x_hi[:, -1], 0.0) * r_end / (1 - r_end) + lam[1] * r_end / (1 - r_end) ** 2)
    remainder = np.where(more, np.where(r_end < 1, geometric, np.inf), 0.0) * (1 + 8 * U1)
    zeros = np.zeros((len(s), 1))

    def suffix(values: np.ndarray) -> np.ndarray:
        return np.concatenate((np.cumsum(values[:, ::-1], axis=1)[:, ::-1], zeros), axis=1)

    p_hi, q_hi = suffix(x_hi * pmf_hi), suffix(pmf_hi)
    p_lo, q_lo = suffix(x_lo * pmf_lo), suffix(pmf_lo)
    pad_factor = (length + 8) * U1
    # Every r is an exact threshold shift; the r of a row with the same crossing index (the number of row values
    # <= t) form one segment, summed from the plan's eps-independent sums of pmf and r pmf (module doc).
    cap = lam[1] * s * (1 + 4 * U1)
    f_hi = _split_segments(plan, x_hi, p_hi, q_hi, tau[0] * (1 - 2 * U1), +1, pad_factor, remainder, starts_ok, cap)
    f_lo = _split_segments(plan, x_lo, p_lo, q_lo, tau[1] * (1 + 2 * U1), -1, pad_factor, remainder, starts_ok, cap)
    # r outside its window: H is non-increasing in r (below: H <= max X <= lam s; above: H <= H at the window's
    # last r, in `_split_segments`).
    f_hi = f_hi + plan.r_below * cap
    f_hi = np.minimum(np.where(np.isfinite(f_hi), f_hi, cap), cap)
    total_factor = 1 + (len(s) + 4) * U1
    upper = float(np.sum(plan.s_hi * f_hi)) * total_factor
    # s outside its window: F(s) <= lam s <= lam n.
    upper += (plan.s_below + plan.s_above) * lam[1] * n * (1 + 4 * U1)
    lower = float(np.sum(plan.s_lo * f_lo)) / total_factor
    return max(0.0, min(lower, upper)), upper
