"""The certified positive-part expectations E[(g(a, b))_+] over two binomial counts: rows, plans and the sums.

Part of `shuffle_spec.reference.numerics.lattice_sums` (its package doc states the model and the proofs)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...core.errors import ParameterError, require_flag, require_integer

from .laws import BinomialLaw, CHUNK_ELEMENTS, QUERY_BLOCK, EVERY_B_MAX, EXP_MARGIN, NEAR_SD, PER_SD, QUERY_BATCH, ROW_SD, ROW_SD_NEAR, TINY, U1, UPWARD_SD, WIDTH_CLASS, binomial_window, combine_log_terms, exp_bounds, log_gamma, log_pmf

__all__ = ["Coefficients", "positive_part_expectation", "positive_part_expectations"]


@dataclass(frozen=True)
class Coefficients:
    """[lo, hi] brackets of c0 > 0 >= c2 >= c1 (module doc)."""

    c0: tuple[float, float]
    c1: tuple[float, float]
    c2: tuple[float, float]

    def magnitude(self) -> float:
        return max(abs(v) for pair in (self.c0, self.c1, self.c2) for v in pair)


def _g(c: Coefficients, a: np.ndarray, b: np.ndarray, m: float | np.ndarray, upper: bool) -> np.ndarray:
    """g(a; b) = c0 a + c1 b + c2 (m - a - b) rounded to the safe side (a, b, R >= 0, so each coefficient's
    end decides; the float evaluation error <= 4u' times the sum of the magnitudes)."""
    i = 1 if upper else 0
    r = m - a - b
    value = c.c0[i] * a + c.c1[i] * b + c.c2[i] * r
    pad = 4 * U1 * (abs(c.c0[i]) * a + abs(c.c1[i]) * b + abs(c.c2[i]) * r) + 1e-300
    rounded: np.ndarray = value + pad if upper else value - pad
    return rounded


def _log_ratio(
    m_from: np.ndarray, m_to: np.ndarray, a: np.ndarray, law: BinomialLaw, log_gamma_from: np.ndarray | None = None, log_gamma_to: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """log(Pr[Bin(m_to, p) = a] / Pr[Bin(m_from, p) = a]) = log(m_to!/(m_to-a)!) - log(m_from!/(m_from-a)!)
    + (m_to - m_from) log q (0 <= a <= min(m_from, m_to)), and a bound on its absolute error (module doc).
    `log_gamma_from`: log_gamma(m_from + 1) when the caller has it (the queries of a row share their m_from: it is
    evaluated once per row and gathered; log_gamma is elementwise, so these are the same floats); `log_gamma_to` likewise
    log_gamma(m_to + 1) (the window of b already holds it: m_to = m - b for both shifted bounds)."""
    t1 = log_gamma(m_to + 1.0) if log_gamma_to is None else log_gamma_to
    t2 = log_gamma(m_to - a + 1.0)
    t3, t4 = (log_gamma(m_from + 1.0) if log_gamma_from is None else log_gamma_from), log_gamma(m_from - a + 1.0)
    steps = m_to - m_from
    t5 = steps * law.log_q
    # value and err = LOG_MARGIN (|t1| + ... + |t5|) + err_law |m_to - m_from| + 1e-15 (one entry per b of the window:
    # 10^5 at n = 1e8).
    value, err = combine_log_terms(t1, t2, t3, t4, t5)
    law_part = np.abs(steps)
    law_part *= law.err
    err += law_part
    err += 1e-15
    return value, err


def _mean_g(c: Coefficients, m: np.ndarray, b: np.ndarray, law_a: BinomialLaw) -> tuple[np.ndarray, np.ndarray]:
    """[lo, hi] of E[g | b] = (c0 - c2) E[a] + c1 b + c2 (m - b), E[a] = (m - b) p_a."""
    mean = (m - b) * law_a.p
    mean_hi = mean * (1 + law_a.err + 2 * U1)
    mean_lo = mean * (1 - law_a.err - 2 * U1)
    # Each term bounded on its own: c2 <= 0 multiplies R = m - b - E[a] >= 0.
    eg_hi = c.c0[1] * mean_hi + c.c1[1] * b + c.c2[1] * (m - b - mean_hi)
    eg_lo = c.c0[0] * mean_lo + c.c1[0] * b + c.c2[0] * (m - b - mean_lo)
    pad = 8 * U1 * (c.magnitude() * (mean_hi + b + m)) + 1e-300
    return eg_lo - pad, eg_hi + pad


def _count_at_most(values: np.ndarray, rows: np.ndarray, threshold: np.ndarray, estimate: np.ndarray) -> np.ndarray:
    """For each query q: the number of entries of the non-decreasing row values[rows[q]] that are <= threshold[q]
    (exact: `estimate`, the real index where the row crosses the threshold, only says where to look; each
    answer is verified on its two neighbours, else found in a window around the estimate, else searched)."""
    length = values.shape[1]
    flat = values.ravel()
    offset = rows * length
    # floor(estimate) + 1 clipped to [0, length]; a NaN estimate guesses 1 (an infinite one clips to an end).
    guess_float = np.floor(estimate)
    guess_float += 1.0
    np.clip(guess_float, 0.0, float(length), out=guess_float)
    undefined = np.isnan(guess_float)
    if undefined.any():
        guess_float[undefined] = min(1.0, float(length))
    guess = guess_float.astype(np.int64)
    # The entries just below and at the guess (index guess - 1 and guess, kept inside the row).
    below_guess = offset + guess
    below_guess -= 1
    np.maximum(below_guess, offset, out=below_guess)
    at_guess = offset + np.minimum(guess, length - 1)
    ok = ((guess == 0) | (np.take(flat, below_guess) <= threshold)) & ((guess == length) | (np.take(flat, at_guess) > threshold))
    count: np.ndarray = guess
    retry = np.nonzero(~ok)[0]
    if len(retry) == 0:
        return count
    r_rows, r_thr, r_off = rows[retry], threshold[retry], offset[retry]
    base = np.clip(guess[retry] - 3, 0, length)
    found = base.copy()
    for i in range(5):
        col = base + i
        found += (col < length) & (np.take(flat, r_off + np.minimum(col, length - 1)) <= r_thr)
    before_ok = (base == 0) | (np.take(flat, r_off + np.maximum(base - 1, 0)) <= r_thr)
    after = base + 5
    after_ok = (after >= length) | (np.take(flat, r_off + np.minimum(after, length - 1)) > r_thr)
    # Rows entirely above or at most the threshold (e.g. flat where a is clipped at m - beta) need no search.
    all_at_most = np.take(flat, r_off + length - 1) <= r_thr
    none_at_most = np.take(flat, r_off) > r_thr
    found = np.where(all_at_most, length, np.where(none_at_most, 0, found))
    for q in np.nonzero(~(before_ok & after_ok) & ~all_at_most & ~none_at_most)[0]:
        found[q] = int(np.searchsorted(values[r_rows[q]], r_thr[q], side="right"))
    count[retry] = found
    return count


@dataclass(frozen=True)
class _Queries:
    """Per b of a window: the row (grid point beta <= b) bounding F(b) from above, shift j = b - beta >= 0, and
    the row (beta' >= b) bounding it from below, shift j' = beta' - b >= 0."""

    up_row: np.ndarray
    up_shift: np.ndarray
    lo_row: np.ndarray
    lo_shift: np.ndarray
    # Per b: log((m - b)!), the same floats as log_gamma(m - b + 1.0) (`binomial_window` formed them for the pmf of b):
    # the log weights of both shifted bounds at b need exactly this term (None: computed where needed).
    log_factorial_rest: np.ndarray | None = None
    # Per b: b itself and the m of its group, as floats (the same as betas[up_row] + up_shift and ms[up_row]; None:
    # gathered where needed).
    b_values: np.ndarray | None = None
    m_values: np.ndarray | None = None


def _row_bounds(
    ms: np.ndarray, betas: np.ndarray, back: np.ndarray, law_a: BinomialLaw, c: Coefficients, queries: _Queries, lower: bool = True, upper: bool = True,
    left_out: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Certified bounds on F(beta) = E[g(a; beta)_+ | b = beta], a ~ Bin(m - beta, p_a), per row (m, beta), and
    on F(b) for the b between rows (`queries`): (row_lo, row_hi, query_hi, query_lo).

    Between rows (upward rows, module doc "shifted rows"): for b = beta + j, g(a; b) = g(a; beta) - j (c2 - c1)
    and Pr[Bin(M - j, p) = a] = Pr[Bin(M, p) = a] w_j(a) with w_j(a) = prod_{i<j} (M - a - i) / ((M - i) q)
    non-increasing in a (M = m - beta); so F(b) <= w_j(a_j) E_M[(g(a; beta) - j (c2 - c1))_+], a_j the first a
    with a positive term; the sum is a suffix sum of the row (formed at the start indices the queries use). For
    b = beta' - j' the row at beta' gives F(b) >= v(a_j') E_M'[(g(a; beta') + j' (c2 - c1))_+] over the row's
    terms, v(a) = Pr[Bin(M' + j') = a] / Pr[Bin(M') = a] non-decreasing in a. A query on a downward row (or one
    whose shifted bound is not finite) takes the row's own value: F is non-increasing in b.

    lower=False: the lower ends are not computed (row_lo, query_lo only from the rows' trivial bounds); the
    upper ends are the same floats as with lower=True (no upper quantity reads a lower one). upper=False: the
    shifted upper bounds between rows are not computed (query_hi from the monotone and mean-plus-negative-part
    bounds only: valid, looser); the lower ends are the same floats as with upper=True (no lower quantity reads a
    query's upper bound; the rows' own upper bounds, which row_lo is clipped to, are still summed). `left_out` (a mask
    of rows, read where a | b is not degenerate): those rows are not summed and get the trivial bracket
    [0, c0 (m - beta)], as do the b they bound; every other row and b has the same floats as without it (rows are
    chunked over every row, the left-out ones included, as the one-sided rows are: a chunk's length and error bound
    are the whole chunk's, and every other quantity is per row or per b)."""
    n_rows = len(ms)
    row_lo = np.zeros(n_rows)
    row_hi = np.zeros(n_rows)
    n_up, n_lo = len(queries.up_row), len(queries.lo_row)
    query_hi = np.full(n_up, np.inf)
    query_lo = np.zeros(n_lo)
    ma = ms - betas
    cap = np.maximum(c.c0[1] * ma * (1 + 4 * U1), 0.0)  # F <= max_a g_+ <= c0 (m - beta)
    if law_a.degenerate:  # a = m - beta exactly, R = 0: no rows needed
        row_lo = np.maximum(_g(c, ma, betas, ms, False), 0.0)
        row_hi = np.maximum(_g(c, ma, betas, ms, True), 0.0)
        return row_lo, row_hi, row_hi[queries.up_row], row_lo[queries.lo_row]
    p = law_a.p
    mean = ma * p
    sd = np.sqrt(np.maximum(ma * p * (1 - p), 0.0))
    slope_hi = c.c0[1] - c.c2[0]
    slope_lo = c.c0[0] - c.c2[1]
    # The b-slope of g, a lower bound on c2 - c1 >= 0 (differences and products rounded down).
    shift_unit = max((c.c2[0] - c.c1[1]) * (1 - 2 * U1), 0.0) * (1 - 2 * U1)
    # The zero of g (within the brackets): a* = -(c1 beta + c2 (m - beta)) / (c0 - c2); start one below. Whether a
    # row really starts below every positive term (upward) or above every negative one (downward) is verified
    # on its first value below; a row failing that is charged its cap.
    kappa_hi = c.c1[1] * betas + c.c2[1] * (ms - betas)
    zero = np.where(kappa_hi >= 0, 0.0, -kappa_hi / max(slope_hi, 1e-300))
    unshifted_start = np.clip(np.floor(zero * (1 - 1e-9)) - 2.0, 0.0, ma)
    # Rows also serve b up to `back` below them (g larger by up to back (c2 - c1)): they start that much lower.
    back_a = back * (c.c2[1] - c.c1[0]) / max(slope_lo, 1e-300)
    start_up = np.clip(np.floor((zero - back_a) * (1 - 1e-9)) - 2.0, 0.0, ma)
    start_down = np.clip(np.ceil(zero * (1 + 1e-9)) + 2.0, 0.0, ma)
    # Upward rows (shifted bounds between them) unless the zero is more than UPWARD_SD sd below the mean.
    upward = unshifted_start >= mean - UPWARD_SD * sd
    # Downward rows: bounds on E[g_-] (non-decreasing in b: g falls and a | b falls stochastically as b grows).
    neg_lo = np.zeros(n_rows)
    neg_hi = np.full(n_rows, np.inf)
    reach = np.where(upward & (unshifted_start < mean + NEAR_SD * sd), ROW_SD_NEAR, ROW_SD) * sd
    # Rows on one side of the zero of g (or whose summed terms all lie below TINY) cost O(1): `_one_sided_rows`.
    closed = _one_sided_rows(upward, ms, betas, back, ma, start_up, start_down, law_a, c, slope_hi, row_lo, row_hi, neg_lo, neg_hi)
    if left_out is not None and np.any(left_out):
        # Not summed: row_hi = inf becomes the cap below, row_lo = 0; their b keep query_hi = inf and query_lo = 0 (no
        # row sum writes them) and so end at the cap and 0 too (the mean-plus-negative-part bound reads neg_hi = inf).
        closed = closed | left_out
        row_lo[left_out] = 0.0
        row_hi[left_out] = np.inf
        neg_lo[left_out] = 0.0
        neg_hi[left_out] = np.inf
    up_ranges = _query_ranges(queries.up_row, n_rows)
    lo_ranges = _query_ranges(queries.lo_row, n_rows) if lower else None
    # The log-pmf at every row's start in its direction, once for all chunks (elementwise: a chunk's entries are the
    # same floats as a call on the chunk alone).
    anchors = log_pmf(ma, np.where(upward, start_up, start_down), law_a)
    for direction in (+1, -1):
        all_rows = np.nonzero(upward if direction > 0 else ~upward)[0]
        if len(all_rows) == 0:
            continue
        # Chunks of rows bound the memory (rows x length doubles per temporary).
        span = (np.maximum(unshifted_start[all_rows], mean[all_rows]) - start_up[all_rows]) if direction > 0 else np.zeros(len(all_rows))
        width = reach[all_rows] + np.abs(span) + 16.0
        # Rows of similar width share a chunk (a chunk's arrays are as wide as its widest row): width classes
        # a factor WIDTH_CLASS apart, each cut to CHUNK_ELEMENTS.
        width_class = np.floor(np.log(np.maximum(width, 1.0)) / math.log(WIDTH_CLASS)).astype(np.int64)
        chunks = []
        # sorted(set(...)), not np.unique: np.unique imports numpy.ma (about 20 ms at the first call).
        for value in sorted(set(width_class.tolist())):
            members = all_rows[width_class == value]
            per_chunk = max(1, int(CHUNK_ELEMENTS // max(float(np.max(width[width_class == value])), 1.0)))
            chunks += [members[i : i + per_chunk] for i in range(0, len(members), per_chunk)]
        # The chunks are formed over every row, then the one-sided rows are left out of the sums: a summed row keeps
        # its chunk's length and error bound, so its bounds are those it had before the one-sided rows existed.
        for chunk in chunks:
            summed = ~closed[chunk]
            rows = chunk[summed]
            if len(rows):
                _direction_rows(
                    direction, rows, ms, betas, ma, mean, reach, start_up, start_down, unshifted_start, law_a, c, slope_hi, shift_unit, queries, row_lo, row_hi, query_hi, query_lo, neg_lo, neg_hi,
                    lower, chunk=chunk, summed=summed, up_ranges=up_ranges, lo_ranges=lo_ranges, upper=upper, anchors=anchors,
                )
    row_hi = np.minimum(np.where(np.isfinite(row_hi), row_hi, cap), np.maximum(cap, 0.0))
    row_lo = np.minimum(row_lo, row_hi)
    # Between any two rows: F(b) = E[g | b] + E[g_- | b], the mean exact at b, the negative part between its
    # values at the two rows (it is non-decreasing in b: g falls and a | b falls stochastically as b grows).
    # A row's negative part: summed (downward rows), or F - E[g] from its bounds (any row).
    row_eg_lo, row_eg_hi = _mean_g(c, ms, betas, law_a)
    with np.errstate(invalid="ignore"):
        neg_hi = np.minimum(neg_hi, np.maximum(row_hi - row_eg_lo, 0.0) * (1 + 2 * U1))
    neg_lo = np.maximum(neg_lo, np.maximum(row_lo - row_eg_hi, 0.0) / (1 + 2 * U1))
    # Per block of QUERY_BLOCK values of b (elementwise: the same floats as over the whole window at once; the
    # blocks' temporaries stay in cache, where a window of 10^5 values made each pass several times slower).
    for start in range(0, n_up, QUERY_BLOCK):
        block = slice(start, start + QUERY_BLOCK)
        rows_left, rows_right = queries.up_row[block], queries.lo_row[block]
        if queries.b_values is not None and queries.m_values is not None:
            b, m_b = queries.b_values[block], queries.m_values[block]
        else:
            b, m_b = betas[rows_left] + queries.up_shift[block], ms[rows_left]
        eg_lo, eg_hi = _mean_g(c, m_b, b, law_a)
        with np.errstate(invalid="ignore"):
            block_hi = np.minimum(query_hi[block], np.maximum(eg_hi + neg_hi[rows_right], 0.0) * (1 + 2 * U1))
        block_lo = np.maximum(query_lo[block], np.maximum(eg_lo + neg_lo[rows_left], 0.0) / (1 + 2 * U1))
        # Monotonicity: F(beta + j) <= F(beta), F(beta' - j') >= F(beta'); either bound is valid, keep the better.
        query_hi[block] = np.minimum(np.where(np.isfinite(block_hi), block_hi, np.inf), row_hi[rows_left])
        query_lo[block] = np.maximum(np.where(np.isfinite(block_lo), block_lo, 0.0), row_lo[rows_right])
    return row_lo, row_hi, query_hi, query_lo


def _one_sided_rows(
    upward: np.ndarray, ms: np.ndarray, betas: np.ndarray, back: np.ndarray, ma: np.ndarray, start_up: np.ndarray, start_down: np.ndarray, law_a: BinomialLaw, c: Coefficients,
    slope_hi: float, row_lo: np.ndarray, row_hi: np.ndarray, neg_lo: np.ndarray, neg_hi: np.ndarray,
) -> np.ndarray:
    """The rows of `_row_bounds` that need no sum over a (a mask; their bounds written in place, O(1) per row).

    g(a; beta) is affine in a with slope c0 - c2 > 0, so on the row's support 0 <= a <= M = m - beta it lies
    between its end values; the upper one is bracketed by `_g` (every coefficient at its safe end, the float
    error padded):
    - g_hi(M) <= 0: g <= 0 on the whole row, F(beta) = 0 exactly; closed when the row serves no b below it
      (back = 0) or its start's pmf is below TINY (as below): otherwise its shifted lower bounds on F(b) for the
      b below it (where g is larger) come from its sums and are kept. (No row is entirely positive: g(0) = c1 beta +
      c2 (m - beta) <= 0 as c1, c2 <= 0. The rows whose zero lies far below the mean already use a closed form,
      F = E[g] + E[g_-] with E[g] exact, `_mean_g`, and only the negative part summed.)
    - the row's summed terms are all below TINY: an upward row whose start a0 has g_hi(a0) <= 0 (or a0 = 0) and
      Pr[Bin(M) = a0] < TINY (certified: exp of the log-pmf's upper end), and whose pmf ratio r0 at a0 is < 1
      (past the mode; log-concavity makes the ratio non-increasing, so pmf(a0 + i) <= pmf(a0) r0^i) has
      F <= TINY sum_{i >= 0} (g_hi(a0)_+ + slope i) r0^i = TINY (g_+/(1 - r0) + slope r0/(1 - r0)^2), and its
      lower end 0; a downward row likewise bounds E[g_-] (from g_lo(a0) >= 0 downwards) and F = E[g] + E[g_-].
      These are the bounds the summed path gives such a row (its lower anchor is 0 below TINY, its upper anchor
      TINY), with the geometric series of its remainder taken from the start instead of the end.
    The same outward rounding as the summed rows: the geometric terms by (1 + 8u') as the summed rows'
    remainder, the anchor by (1 + 4u'), E[g] + E[g_-] by (1 +- 2u') as the downward rows."""
    # The start's pmf certified below TINY (the summed path's lower anchor is then 0, its upper anchor TINY).
    first = np.where(upward, start_up, start_down)
    anchor, anchor_err = log_pmf(ma, first, law_a)
    with np.errstate(over="ignore"):
        below_tiny = np.exp(anchor + anchor_err) * (1 + EXP_MARGIN) < TINY
    none_positive = (_g(c, ma, betas, ms, True) <= 0) & ((back <= 0) | below_tiny)  # a = M, R = 0: the largest g
    row_lo[none_positive] = 0.0
    row_hi[none_positive] = 0.0
    tiny = below_tiny & ~none_positive
    # g at the start as `_direction_rows` evaluates it (the affine form, its float error <= 12 u' max|c| m).
    pad = 12 * U1 * c.magnitude() * ms + 1e-300
    g_hi = (c.c0[1] - c.c2[1]) * first + ((c.c1[1] - c.c2[1]) * betas + c.c2[1] * ms + pad)
    g_lo = (c.c0[0] - c.c2[0]) * first + ((c.c1[0] - c.c2[0]) * betas + c.c2[0] * ms - pad)
    with np.errstate(divide="ignore", invalid="ignore"):
        r_up = (ma - first) / (first + 1.0) * law_a.rho
        r_dn = np.where(first > 0, first / ((ma - first + 1.0) * law_a.rho), 0.0)
    ratio = np.where(upward, r_up, r_dn) * (1 + 4 * U1 + law_a.err)
    start = np.where(upward, np.maximum(g_hi, 0.0), np.maximum(-g_lo, 0.0))
    starts_ok = np.where(upward, (first <= 0) | (g_hi <= 0), (first >= ma) | (g_lo >= 0))
    tail = tiny & starts_ok & (ratio < 1)
    if np.any(tail):
        eg_lo, eg_hi = _mean_g(c, ms, betas, law_a)
        r = ratio[tail]
        with np.errstate(over="ignore"):
            geometric = (start[tail] / (1 - r) + slope_hi * r / (1 - r) ** 2) * (1 + 8 * U1)
        part_hi = TINY * geometric * (1 + 4 * U1)
        up = upward[tail]
        rows_up, rows_dn = np.nonzero(tail)[0][up], np.nonzero(tail)[0][~up]
        row_lo[rows_up] = 0.0
        row_hi[rows_up] = part_hi[up]
        neg_lo[rows_dn] = 0.0
        neg_hi[rows_dn] = part_hi[~up]
        row_hi[rows_dn] = np.maximum(eg_hi[rows_dn] + part_hi[~up], 0.0) * (1 + 2 * U1)
        row_lo[rows_dn] = np.maximum(eg_lo[rows_dn], 0.0) / (1 + 2 * U1)
    closed: np.ndarray = none_positive | tail
    return closed


def _direction_rows(
    direction: int, rows: np.ndarray, ms: np.ndarray, betas: np.ndarray, ma_all: np.ndarray, mean_all: np.ndarray, reach_all: np.ndarray,
    start_up: np.ndarray, start_down: np.ndarray, unshifted_start: np.ndarray, law_a: BinomialLaw, c: Coefficients, slope_hi: float, shift_unit: float, queries: _Queries,
    row_lo: np.ndarray, row_hi: np.ndarray, query_hi: np.ndarray, query_lo: np.ndarray, neg_lo: np.ndarray, neg_hi: np.ndarray,
    lower: bool = True,
    chunk: np.ndarray | None = None,
    summed: np.ndarray | None = None,
    up_ranges: tuple[np.ndarray, np.ndarray] | None = None,
    lo_ranges: tuple[np.ndarray, np.ndarray] | None = None,
    upper: bool = True,
    anchors: tuple[np.ndarray, np.ndarray] | None = None,
) -> None:
    """One chunk of upward (+1) or downward (-1) rows of `_row_bounds` (results written in place): `rows`, the
    summed rows of `chunk` (default: all of it), whose length and error bound are the whole chunk's. lower=False
    skips the lower queries (the shifted lower bounds between rows): the upper results do not read them.
    `summed`: the mask of `chunk` that selects `rows` (rows == chunk[summed]); with it the anchors' log-pmf is
    evaluated once for the chunk (an elementwise function: the rows' entries are the same floats). `up_ranges`:
    `_query_ranges` of queries.up_row (the upper queries of the rows found without scanning every query); `lo_ranges`
    the same for queries.lo_row. upper=False skips the upper queries (the shifted upper bounds between rows): the
    lower results do not read them. `anchors` (with `summed`): log_pmf(ma_all, start in each row's direction) of every
    row, gathered for the chunk instead of evaluated again (the same floats)."""
    group = rows if chunk is None else chunk
    beta, m_row, m_a = betas[rows], ms[rows], ma_all[rows]
    first = start_up[rows] if direction > 0 else start_down[rows]  # downward: a = start_down, start_down - 1, ...
    # Upward rows reach ROW_SD sd past the unshifted zero (or the mean, whichever is higher) however far below
    # it they start (their back span): past the mode, so that the geometric bound applies.
    group_first = start_up[group] if direction > 0 else start_down[group]
    span = np.maximum(np.maximum(unshifted_start[group], mean_all[group]) - group_first, 0.0) if direction > 0 else np.zeros(len(group))
    length = int(math.ceil(float(np.max(reach_all[group] + span, initial=0.0)))) + 16
    steps = np.arange(length, dtype=float)
    # The chunk's largest anchor error (a larger error is still a bound), the rows left out included.
    if chunk is None:
        anchor, anchor_err = log_pmf(m_a, first, law_a)
        chunk_err = float(np.max(anchor_err, initial=0.0))
    elif summed is not None:
        group_anchor, group_err = log_pmf(ma_all[group], group_first, law_a) if anchors is None else (anchors[0][group], anchors[1][group])
        anchor, anchor_err = group_anchor[summed], group_err[summed]
        chunk_err = float(np.max(group_err, initial=0.0))
    else:
        anchor, anchor_err = log_pmf(m_a, first, law_a)
        chunk_err = float(np.max(log_pmf(ma_all[group], group_first, law_a)[1], initial=0.0))
    a = first[:, None] + direction * steps[None, :]
    everywhere = _rows_inside(first, m_a, direction, length)
    inside = np.zeros((0, 0), dtype=bool) if everywhere else (a >= 0) & (a <= m_a[:, None])  # read only when not everywhere
    a_safe = a if everywhere else np.clip(a, 0.0, m_a[:, None])  # the clip is the identity when every a is inside
    # The pmf ratios formed in place: the same operations in the same order as (m - a) / (a + 1) rho and
    # a / ((m - a + 1) rho) (m - a and a + 1 are exact integers), so the same floats with two fewer temporaries
    # of the chunk's size.
    ratio = m_a[:, None] - a_safe[:, :-1]
    if direction > 0:
        denominator = a_safe[:, :-1] + 1.0
        ratio /= denominator
        del denominator
        ratio *= law_a.rho
    else:
        ratio += 1.0
        ratio *= law_a.rho
        np.divide(a_safe[:, :-1], ratio, out=ratio)
    if not everywhere:
        ratio = np.where(inside[:, 1:], ratio, 0.0)
    rel = np.empty((len(rows), length))
    rel[:, 0] = 1.0
    with np.errstate(under="ignore"):
        np.cumprod(ratio, axis=1, out=rel[:, 1:])
    # The error bound of every row at once: the largest anchor error of the chunk (a larger error is still a bound).
    # Along the whole row only where some product underflows; else its last entry alone is read (the same float:
    # each entry of `_ratio_error` depends on its own step only).
    small = rel < TINY
    if np.any(small):
        rel_err = _ratio_error(chunk_err, steps, law_a)
        rel_hi = rel * (1 + rel_err)
        rel_hi[small] = 2 * TINY  # an underflowed ratio is < TINY (1 + err) + 2^-1074
        if not everywhere:
            rel_hi = np.where(inside, rel_hi, 0.0)
        if lower:
            rel_lo = rel * (1 - rel_err)
            rel_lo[small] = 0.0
            if not everywhere:
                rel_lo = np.where(inside, rel_lo, 0.0)
        else:
            rel_lo = rel_hi  # not read: the lower sums are skipped
        scale_hi = scale_lo = 1.0
    else:
        # The true ratio products lie in rel (1 +- rel_err) with rel_err increasing along the row: every sum of
        # non-negative terms below uses rel itself and is scaled by 1 +- (its largest rel_err + 4u') at the end
        # (rel is already 0 past the row's end: its ratio there is 0).
        rel_hi = rel_lo = rel
        rel_err_end = float(_ratio_error(chunk_err, steps[-1:], law_a)[0])
        scale_hi = 1 + rel_err_end + 4 * U1
        scale_lo = 1 - rel_err_end - 4 * U1
    # g_hi(a) = (c0_hi - c2_hi) a + (c1_hi - c2_hi) beta + c2_hi m (= c0_hi a + c1_hi b + c2_hi R exactly),
    # evaluated per row as an affine function; its float error <= 12 u' max|c| m.
    pad = 12 * U1 * c.magnitude() * m_row + 1e-300
    lam_hi, lam_lo = c.c0[1] - c.c2[1], c.c0[0] - c.c2[0]
    k_hi = (c.c1[1] - c.c2[1]) * beta + c.c2[1] * m_row + pad
    k_lo = (c.c1[0] - c.c2[0]) * beta + c.c2[0] * m_row - pad
    # Without the lower ends (lower=False) the terms only they read are not formed: upward rows need g_hi alone,
    # downward rows g_lo alone; s_lo = 0 is then the row's (valid, loose) lower sum.
    w_lo: np.ndarray | None = None
    g_hi = g_lo = a_safe  # placeholders, replaced below by the arrays the direction reads
    # (lam a + k, each formed in place: the same two operations in the same order.)
    if direction > 0:
        g_hi = lam_hi * a_safe
        g_hi += k_hi[:, None]
        w_hi = np.maximum(g_hi, 0.0)
        if lower:
            g_lo = lam_lo * a_safe
            g_lo += k_lo[:, None]
            w_lo = np.maximum(g_lo, 0.0)
        # Every positive term lies in the row: its first point has g_hi <= 0 (or is a = 0).
        starts_ok = (first <= 0) | (g_hi[:, 0] <= 0)
    else:
        g_lo = lam_lo * a_safe
        g_lo += k_lo[:, None]
        w_hi = np.maximum(-g_lo, 0.0)
        if lower:
            g_hi = lam_hi * a_safe
            g_hi += k_hi[:, None]
            w_lo = np.maximum(-g_hi, 0.0)
        # Every negative term lies in the row: its first point has g_lo >= 0 (or is a = m - beta).
        starts_ok = (first >= m_a) | (g_lo[:, 0] >= 0)
    sum_factor = 1 + (length + 2) * U1
    # The products w rel overwrite w (read again only at the row's last point, kept first): the same floats summed.
    w_end = w_hi[:, -1].copy()
    s_hi = np.sum(np.multiply(w_hi, rel_hi, out=w_hi), axis=1) * (sum_factor * scale_hi)
    s_lo = np.sum(np.multiply(w_lo, rel_lo, out=w_lo), axis=1) / sum_factor * scale_lo if w_lo is not None else np.zeros(len(rows))
    # Remainder beyond the last summed point e (geometric bound, module doc).
    last = a[:, -1]
    more = (last < m_a) if direction > 0 else (last > 0)
    if direction > 0:
        r_end = (m_a - last) / (last + 1.0) * law_a.rho
    else:
        r_end = np.where(last > 0, last / ((m_a - last + 1.0) * law_a.rho), 0.0)
    r_end = r_end * (1 + 4 * U1 + law_a.err)
    rel_end = rel_hi[:, -1] * scale_hi
    ok = r_end < 1
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        geometric = rel_end * (w_end * r_end / (1 - r_end) + slope_hi * r_end / (1 - r_end) ** 2)
    # No geometric bound (the end is not past the mode): the row is charged its cap (F <= max g_+).
    remainder = np.where(more, np.where(ok, geometric, np.inf), 0.0) * (1 + 8 * U1)
    s_hi = s_hi + remainder
    lo_anchor, hi_anchor = exp_bounds(anchor, anchor_err)
    with np.errstate(over="ignore", invalid="ignore"):
        part_hi = np.where(s_hi > 0, hi_anchor * s_hi, 0.0) * (1 + 4 * U1)
    part_lo = lo_anchor * s_lo / (1 + 4 * U1)
    if direction < 0:
        # E[g_+] = E[g] + E[g_-]; E[g] = (c0 - c2) E[a] + c1 beta + c2 (m - beta), E[a] = (m - beta) p.
        eg_lo, eg_hi = _mean_g(c, m_row, beta, law_a)
        neg_hi[rows] = np.where(starts_ok, part_hi, np.inf)
        neg_lo[rows] = part_lo
        part_hi = np.maximum(eg_hi + part_hi, 0.0) * (1 + 2 * U1)
        part_lo = np.maximum(eg_lo + part_lo, 0.0) / (1 + 2 * U1)
    part_hi = np.where(starts_ok, part_hi, np.inf)
    part_lo = np.where(starts_ok, part_lo, 0.0)
    row_hi[rows] = part_hi
    row_lo[rows] = part_lo
    if direction < 0:
        return
    # Shifted rows (upward only, module doc "shifted rows"): suffix moments P_k = sum_{t' >= t} g rel t'^k and
    # Q_k = sum_{t' >= t} rel t'^k, k = 0, 1, 2 (0 past the row's end), for g_hi rel_hi (upper queries) and
    # g_lo rel_lo (lower queries), at the indices the queries use only (`_suffix_sums_at`). Sums of non-negative
    # terms on the suffixes used: relative error <= (length + 2) u'.
    position = np.full(len(ms), -1, dtype=np.int64)
    position[rows] = np.arange(len(rows))
    powers = (None, steps, steps * steps)

    pad_factor = (length + 16) * U1
    if not upper:
        sel = np.zeros(0, dtype=np.int64)
    else:
        sel = np.nonzero(position[queries.up_row] >= 0)[0] if up_ranges is None else _queries_of(rows, up_ranges)
    if len(sel):
        # F(beta + j) <= hi_anchor w_j(a0) sum_{t >= idx} (g_hi - s) rel_hi (1 - x + x^2/2) + remainder, with
        # s <= j (c2 - c1), a0 = the first a with a positive term, x = sigma (a - a0), sigma = j / (M - a0) <=
        # -(log w_j)'(a0) (log w_j is concave: its tangent lies above it; e^-x <= 1 - x + x^2/2 for x >= 0).
        local = position[queries.up_row[sel]]
        j = queries.up_shift[sel]
        s = j * shift_unit * (1 - 2 * U1)
        idx = _count_at_most(g_hi, local, s, (s - k_hi[local]) / lam_hi - first[local])
        # The suffixes from idx on read only terms with g_hi > s >= 0, where g_hi rel_hi is the product w_hi rel_hi
        # already formed in w_hi for the row sums (w_hi = max(g_hi, 0) = g_hi there): the same floats on every piece a
        # query reads (a piece before a row's first query start is summed but read by no query), one pass fewer.
        p_up, q_up = _suffix_sums_at((w_hi, rel_hi), powers, local, idx)
        a_first = first[local] + idx
        m_from = m_a[local]
        m_to = m_from - j
        reach = a_first <= m_to
        with np.errstate(divide="ignore", invalid="ignore"):
            sigma = np.where(reach & (j > 0), j / np.maximum(m_from - a_first, 1.0), 0.0) * (1 - 4 * U1)
        ci = idx.astype(float)
        coef = (1 + sigma * ci + sigma * sigma * ci * ci / 2, -(sigma + sigma * sigma * ci), sigma * sigma / 2)
        poly = np.zeros(len(sel))
        size = np.zeros(len(sel))
        for kk in range(3):
            big_p, big_q = p_up[kk], q_up[kk]
            poly += coef[kk] * (big_p - s * big_q)
            size += np.abs(coef[kk]) * (big_p + s * big_q)
        # Every term of the combination is non-negative ((g_hi - s) > 0 and 1 - x + x^2/2 > 0): the plain-rel sum
        # times scale_hi bounds the sum with the ratio products' upper ends.
        h = np.maximum(poly + pad_factor * size, 0.0) * scale_hi + remainder[local]
        rest = None if queries.log_factorial_rest is None else queries.log_factorial_rest[sel]  # log((m - b)!) = log_gamma(m_to + 1)
        log_w, log_w_err = _log_ratio(m_from, m_to, np.minimum(a_first, m_to), law_a, log_gamma(m_a + 1.0)[local], rest)
        with np.errstate(over="ignore", invalid="ignore"):
            weight = np.where(reach, np.exp(log_w + log_w_err) * (1 + EXP_MARGIN), 0.0)
            bound = np.where(h > 0, hi_anchor[local] * weight * h, 0.0) * (1 + 6 * U1)
        query_hi[sel] = np.where(starts_ok[local] & np.isfinite(bound), bound, np.inf)
    if not lower:
        sel = np.zeros(0, dtype=np.int64)
    else:
        sel = np.nonzero(position[queries.lo_row] >= 0)[0] if lo_ranges is None else _queries_of(rows, lo_ranges)
    if len(sel):
        # F(beta' - j') >= lo_anchor v(a0) sum_{t >= idx} (g_lo + s') rel_lo (1 + x + x^2/2) over the row, with
        # s' <= j' (c2 - c1), x = sigma (a - a0), sigma = j' / (M' - a0 + j') <= (log v)'(a0) (log v is convex:
        # its tangent lies below it; e^x >= 1 + x + x^2/2 for x >= 0). Every term is non-negative.
        local = position[queries.lo_row[sel]]
        j = queries.lo_shift[sel]
        s = j * shift_unit * (1 - 2 * U1)
        idx = _count_at_most(g_lo, local, -s, (-s - k_lo[local]) / lam_lo - first[local])
        p_dn, q_dn = _suffix_sums_at((g_lo * rel_lo, rel_lo), powers, local, idx)
        a_first = np.minimum(first[local] + idx, m_a[local])
        sigma = j / (m_a[local] - a_first + j + 1.0) * (1 - 4 * U1)
        ci = idx.astype(float)
        coef = (1 - sigma * ci + sigma * sigma * ci * ci / 2, sigma - sigma * sigma * ci, sigma * sigma / 2)
        poly = np.zeros(len(sel))
        size = np.zeros(len(sel))
        for kk in range(3):
            value = p_dn[kk] + s * q_dn[kk]
            poly += coef[kk] * value
            size += np.abs(coef[kk]) * value
        h = np.maximum(poly - pad_factor * size, 0.0) * scale_lo  # non-negative terms (g_lo + s' >= 0)
        rest = None if queries.log_factorial_rest is None else queries.log_factorial_rest[sel]  # log((m - b)!), m_to = m - b
        log_v, log_v_err = _log_ratio(m_a[local], m_a[local] + j, a_first, law_a, log_gamma(m_a + 1.0)[local], rest)
        with np.errstate(under="ignore"):  # a smaller weight keeps a lower bound: capped below overflow
            weight = np.exp(np.minimum(log_v - log_v_err, 700.0)) * (1 - EXP_MARGIN)
        bound = lo_anchor[local] * weight * h / (1 + 6 * U1)
        query_lo[sel] = np.where(starts_ok[local], bound, 0.0)


def _ratio_error(chunk_err: float, steps: np.ndarray, law: BinomialLaw) -> np.ndarray:
    """The relative error bound of the ratio products `steps` values from the anchor (package doc, "the ratio
    recurrence"): expm1(e_anchor + (3j + 2) u' + j e_rho) with 1% extra, elementwise in j."""
    bound: np.ndarray = np.expm1(chunk_err + ((3.0 * steps + 2.0) * U1 + steps * law.err)) * 1.01
    return bound


def _rows_inside(first: np.ndarray, m_a: np.ndarray, direction: int, length: int) -> bool:
    """Whether every a = first + direction t (0 <= t < length) of every row lies in [0, m_a]: the same answer as
    the rows x length mask (a >= 0) & (a <= m_a) being all True, from the rows' two ends (a row is an arithmetic run
    of integers, exact in floats, so it lies in the interval when its ends do), without forming the mask."""
    ends = first + direction * float(length - 1)
    return bool(np.all((first >= 0) & (first <= m_a) & (ends >= 0) & (ends <= m_a)))


def _query_ranges(query_row: np.ndarray, n_rows: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Per row r: [first, end) of the queries whose row is r, when `query_row` is non-decreasing (as `_plan` builds
    it: the queries run through each group's window in order); None otherwise (the callers then scan)."""
    if len(query_row) > 1 and not bool(np.all(query_row[1:] >= query_row[:-1])):
        return None
    rows = np.arange(n_rows)
    return np.searchsorted(query_row, rows, side="left"), np.searchsorted(query_row, rows, side="right")


def _queries_of(rows: np.ndarray, ranges: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The indices of the queries whose row is in `rows` (ascending rows: the indices come out ascending, the same
    array as np.nonzero over a mask of those rows)."""
    first, end = ranges[0][rows], ranges[1][rows]
    counts = end - first
    starts = np.cumsum(counts) - counts
    total = int(np.sum(counts))
    out: np.ndarray = np.arange(total, dtype=np.int64) + np.repeat(first - starts, counts)
    return out


def _suffix_sums_at(arrays: tuple[np.ndarray, ...], powers: tuple[np.ndarray | None, ...], rows: np.ndarray, idx: np.ndarray) -> list[list[np.ndarray]]:
    """For each array V of `arrays` (rows x length, non-negative), each power w (None: 1) and each query q:
    sum_{t >= idx[q]} V[rows[q], t] w[t] (0 when idx[q] is the row's length), w non-negative.

    Only the suffixes the queries use are formed: the rows are cut at every index a query starts from (and at
    every row's start), each piece is summed by np.add.reduceat, and the pieces of a row are added from its end
    (a reverse cumulative sum over the pieces, a few per query instead of one per array element: the full
    reverse cumulative sums along the rows cost about ten times more). Each result is a sum of at most `length`
    non-negative floats, computed by some tree of additions: its relative error is <= (length - 1) u', the bound
    the callers already account for (`length + 2` u', package doc), whatever the order."""
    n_rows, length = arrays[0].shape
    inside = idx < length
    cuts, where = _cuts(rows[inside].astype(np.int64), idx[inside].astype(np.int64), n_rows, length)
    piece_row = cuts // length
    # Column of each piece within its row's run of pieces (the pieces are sorted by row, then by index).
    first_piece = np.searchsorted(piece_row, np.arange(n_rows), side="left")
    column = np.arange(len(cuts)) - first_piece[piece_row]
    width = int(np.max(column, initial=0)) + 1
    # Flat positions: of each piece in the rows x width grid, and of each query's suffix in the grid's row-reversed
    # cumulative sum (the suffix from column c is the reversed sum's entry width - 1 - c).
    piece_at = piece_row * width + column
    query_at = piece_row[where] * width + (width - 1 - column[where])
    every_query_inside = bool(np.all(inside))
    weighted = np.empty(arrays[0].shape)  # one buffer for every product values * power (the same floats as a new array)
    # One grid of pieces for every sum: its entries off `piece_at` stay 0, those on it are overwritten each time (the
    # same array as a new zeroed one); one buffer for the cumulative sums.
    grid = np.zeros(n_rows * width)
    reversed_tails = np.empty((n_rows, width))
    out = []
    for values in arrays:
        sums = []
        for power in powers:
            if power is not None:
                np.multiply(values, power, out=weighted)
            grid[piece_at] = np.add.reduceat((values if power is None else weighted).ravel(), cuts)
            # Reverse cumulative sum over a row's pieces: the suffix from each cut to the row's end.
            np.cumsum(grid.reshape(n_rows, width)[:, ::-1], axis=1, out=reversed_tails)
            found = np.take(reversed_tails.ravel(), query_at)
            if every_query_inside:
                sums.append(found)
            else:
                result = np.zeros(len(idx))
                result[inside] = found
                sums.append(result)
        out.append(sums)
    return out

def _cuts(rows: np.ndarray, idx: np.ndarray, n_rows: int, length: int) -> tuple[np.ndarray, np.ndarray]:
    """The cut points of `_suffix_sums_at` in the flat rows x length array (every row's start and every query's start
    rows * length + idx, 0 <= idx < length, sorted, each once) and, per query, the index of its start among them.

    The queries of the lattice sums come ordered (rows ascending, idx non-decreasing within a row: their thresholds
    grow with b); their starts are then merged with the rows' starts by position (a start of row r has r + 1 row
    starts at or below it; a row start r * length has r row starts and the query starts below it before it), the same
    sorted array as a sort of both, and a query's index among the distinct cuts is the count of distinct values up to
    its position, the same as a search. Unordered queries are sorted and searched."""
    starts = rows * length + idx
    row_starts = np.arange(n_rows, dtype=np.int64) * length
    ordered = len(starts) < 2 or bool(np.all(starts[1:] >= starts[:-1]))
    if ordered:
        merged = np.empty(n_rows + len(starts), dtype=np.int64)
        at_start = np.arange(len(starts), dtype=np.int64) + rows + 1
        merged[at_start] = starts
        merged[np.arange(n_rows, dtype=np.int64) + np.searchsorted(starts, row_starts, side="left")] = row_starts
    else:
        merged = np.sort(np.concatenate((row_starts, starts)))
    distinct = np.empty(len(merged), dtype=bool)
    distinct[0] = True
    np.not_equal(merged[1:], merged[:-1], out=distinct[1:])
    cuts = merged[distinct]
    if ordered:
        where: np.ndarray = np.cumsum(distinct)[at_start] - 1
    else:
        where = np.searchsorted(cuts, starts)
    return cuts, where


@dataclass(frozen=True)
class _Plan:
    """The eps-independent layout of a batch of lattice sums (one group per m): rows (m, beta), and per b of each
    group's window its probability bracket and the rows bounding F(b) (`_Queries`)."""

    ms: np.ndarray
    betas: np.ndarray
    back: np.ndarray
    queries: _Queries
    group: np.ndarray
    p_lo: np.ndarray
    p_hi: np.ndarray
    group_m: np.ndarray
    group_size: np.ndarray
    below: np.ndarray
    above: np.ndarray
    last_query: np.ndarray


def _grid_offsets(size: int, mean: float, sd: float, per_sd: int, max_step: int, zone: tuple[float, float]) -> np.ndarray:
    """Row offsets in a window of `size` points: per_sd per standard deviation of b within `zone` (in sd of b
    from its mean: where P(b) F(b) is carried), one per sd elsewhere, and never more than max_step apart
    (the shift of the zero of g between rows stays within about one sd of a). The grid only decides how
    tight the bounds are, never whether they hold."""
    fine = max(1, min(int(sd // per_sd), max_step))
    coarse = max(fine, min(int(sd), 4 * max_step))
    points = [0]
    x = 0
    while x < size - 1:
        z = (x - mean) / max(sd, 1e-300)
        x = min(size - 1, x + (fine if zone[0] <= z <= zone[1] else coarse))
        points.append(x)
    return np.array(points, dtype=np.int64)


@lru_cache(maxsize=4)
def _plan(
    ms: tuple[int, ...], law_b: BinomialLaw, tail: float, per_sd: int, every_b: bool, sd_a_unit: float = math.inf, tangent_unit: float = math.inf,
    zone: tuple[float, float] = (-12.0, 3.0),
) -> _Plan:
    """The layout for `ms`: sqrt(m q_b) times sd_a_unit (the zero's shift) and times tangent_unit (the
    curvature of the binomial weights) bound the row spacing (`_grid_offsets`)."""
    row_m: list[np.ndarray] = []
    row_beta: list[np.ndarray] = []
    row_back: list[np.ndarray] = []
    up_row: list[np.ndarray] = []
    up_shift: list[np.ndarray] = []
    lo_row: list[np.ndarray] = []
    lo_shift: list[np.ndarray] = []
    group: list[np.ndarray] = []
    p_lo: list[np.ndarray] = []
    p_hi: list[np.ndarray] = []
    rest: list[np.ndarray] = []
    b_values: list[np.ndarray] = []
    sizes, below, above, last = [], [], [], []
    n_rows = n_queries = 0
    for g_index, m in enumerate(ms):
        window = binomial_window(m, law_b, tail)
        size = window.hi - window.lo + 1
        sd_b = math.sqrt(max(m * law_b.p * (1 - law_b.p), 0.0))
        scale = math.sqrt(max(m * (1 - law_b.p), 0.0))
        max_step = int(min(max(scale * sd_a_unit, 1.0), max(scale * tangent_unit, 1.0), 1e15))
        # Small windows: a row at every b (cheap, and no slack at all).
        offsets = np.arange(size, dtype=np.int64) if every_b or size <= EVERY_B_MAX else _grid_offsets(size, m * law_b.p - window.lo, sd_b, per_sd, max_step, zone)
        positions = np.arange(size, dtype=np.int64)
        left = np.searchsorted(offsets, positions, side="right") - 1  # largest offset <= position
        right = np.searchsorted(offsets, positions, side="left")  # smallest offset >= position
        back = np.zeros(len(offsets))
        back[1:] = np.diff(offsets) - 1
        row_m.append(np.full(len(offsets), float(m)))
        row_beta.append((window.lo + offsets).astype(float))
        row_back.append(back)
        up_row.append(n_rows + left)
        up_shift.append((positions - offsets[left]).astype(float))
        lo_row.append(n_rows + right)
        lo_shift.append((offsets[right] - positions).astype(float))
        group.append(np.full(size, g_index, dtype=np.int64))
        p_lo.append(window.lower)
        p_hi.append(window.upper)
        b_values.append(np.arange(window.lo, window.hi + 1, dtype=float))
        rest.append(window.log_factorial_rest if window.log_factorial_rest is not None else log_gamma(m - np.arange(window.lo, window.hi + 1, dtype=float) + 1.0))
        sizes.append(size)
        below.append(window.below)
        above.append(window.above)
        n_queries += size
        last.append(n_queries - 1)
        n_rows += len(offsets)
    queries = _Queries(
        np.concatenate(up_row), np.concatenate(up_shift), np.concatenate(lo_row), np.concatenate(lo_shift), np.concatenate(rest),
        np.concatenate(b_values), np.concatenate([np.full(size, float(m)) for m, size in zip(ms, sizes, strict=True)]),
    )
    return _Plan(
        np.concatenate(row_m), np.concatenate(row_beta), np.concatenate(row_back), queries, np.concatenate(group),
        np.concatenate(p_lo), np.concatenate(p_hi), np.array(ms, dtype=float), np.array(sizes, dtype=float),
        np.array(below), np.array(above), np.array(last, dtype=np.int64),
    )


def _fine_zone(m_min: int, m_max: int, law_b: BinomialLaw, law_a: BinomialLaw, c: Coefficients) -> tuple[float, float]:
    """Where P(b) F(b) is carried, in sd of b from its mean: around E[b | g = 0] of the normal approximation
    (the counts are Mult(m; p_b, (1 - p_b) p_a, (1 - p_b)(1 - p_a))), -6 to +4 sd, rounded to halves so that
    the layout stays cached across nearby eps. Only tightness depends on it; (-12, 3) when degenerate."""
    pi = (law_b.p, (1 - law_b.p) * law_a.p, (1 - law_b.p) * (1 - law_a.p))
    coef = (0.5 * (c.c1[0] + c.c1[1]), 0.5 * (c.c0[0] + c.c0[1]), 0.5 * (c.c2[0] + c.c2[1]))
    mean1 = sum(p * x for p, x in zip(pi, coef, strict=True))
    var1 = sum(p * x * x for p, x in zip(pi, coef, strict=True)) - mean1 * mean1
    var_b = pi[0] * (1 - pi[0])
    if not (var1 > 0 and var_b > 0):
        return (-12.0, 3.0)
    cov1 = pi[0] * coef[0] - pi[0] * mean1
    centres = [-cov1 * mean1 * math.sqrt(m) / (var1 * math.sqrt(var_b)) for m in (m_min, m_max)]
    low, high = min(centres), max(centres)
    if not (math.isfinite(low) and math.isfinite(high)):
        return (-12.0, 3.0)
    return (math.floor(2 * (low - 6.0)) / 2, math.ceil(2 * (high + 4.0)) / 2)


def positive_part_expectations(
    ms: list[int], law_b: BinomialLaw, law_a: BinomialLaw, c: Coefficients, *, tail: float, per_sd: int = PER_SD, lower: bool = True, upper: bool = True,
    needed: list[bool] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """[lower, upper] (arrays, one entry per m) containing G(m) = E[(c0 a + c1 b + c2 (m - a - b))_+],
    b ~ Bin(m, p_b), a | b ~ Bin(m - b, p_a), for every m in `ms` (module doc), computed in one batch.
    `tail`: the b mass outside the summed window (each side); `per_sd`: grid rows per standard deviation of b
    (how tight the blocking is). lower=False: only the upper ends are sharpened (the same floats as with
    lower=True, about a third less work); the lower ends are then valid but loose. upper=False: only the lower
    ends are sharpened between the grid's rows (the same floats as with upper=True, about a third less work at
    large m); the upper ends are then valid but looser. `needed` (one flag per m; default all True): the rows of an m
    flagged False are not summed; its upper end is c0 m (1 + 4u') (G <= c0 E[a] <= c0 m: c1, c2 <= 0), its lower end
    what the bounds without rows give (E[g | b]_+ per b: valid, never above the end with rows summed); every other m
    gets the same floats as without the flags (its batch and rows are laid out over every m, `_row_bounds`).
    Range: integers m >= 0, c0 > 0 >= c2 >= c1, needed None or a list of True/False as long as ms."""
    if not isinstance(c, Coefficients):
        raise ParameterError("coefficients", c, "a lattice_sums.Coefficients")
    require_integer("per_sd", per_sd, minimum=1)
    require_flag("lower", lower)
    require_flag("upper", upper)
    if not isinstance(law_b, BinomialLaw) or not isinstance(law_a, BinomialLaw):
        raise ParameterError("law", (law_b, law_a), "BinomialLaws from binomial_law()")
    if not (isinstance(tail, (int, float)) and 0 < tail < 1):
        raise ParameterError("tail", tail, "0 < tail < 1")
    for m in ms:
        require_integer("m", m, minimum=0)
    if needed is not None:
        if not isinstance(needed, (list, tuple)) or len(needed) != len(ms):
            raise ParameterError("needed", needed if isinstance(needed, (list, tuple)) and len(needed) < 8 else type(needed).__name__, f"None or a list of {len(ms)} flags (one per m)")
        for flag in needed:
            require_flag("needed", flag)
    if not (c.c0[0] > 0 and c.c2[1] <= 0 and c.c1[1] <= c.c2[0]):
        raise ParameterError("coefficients", c, "c0 > 0 >= c2 >= c1 (the blocking needs F non-increasing in b)")
    total_lo = np.zeros(len(ms))
    total_hi = np.zeros(len(ms))
    nonzero = [i for i, m in enumerate(ms) if int(m) > 0]
    if not nonzero:
        return total_lo, total_hi
    # Row spacing: the zero of g moves by (c2 - c1)/(c0 - c2) values of a per unit of b; keep that within one sd
    # of a | b (sd = sqrt((m - b) p_a q_a), m - b ~ m q_b). A power of two keeps the layout cached across eps.
    # Both units are capped at 2^60 below (the batch's rows): capping the argument of log2 there too gives the same
    # unit wherever it is finite, and 2^60 where c2 = c1 (e.g. the split third pair at eps = 0) makes it infinite.
    ratio = (c.c0[0] - c.c2[1]) / max(c.c2[1] - c.c1[0], 1e-300)
    sd_a_unit = 2.0 ** math.floor(math.log2(min(max(ratio * math.sqrt(law_a.p * (1 - law_a.p)), 1e-300), 2.0**60))) if not law_a.degenerate else 1.0
    # And keep the weights' exponent sigma (a - a0) ~ j sd_a / (M q_a) below about 1/4 over a standard deviation
    # (j <= sqrt(M q_a / p_a) / 4), where the quadratic bound on e^-x is tight.
    tangent_unit = 2.0 ** math.floor(math.log2(max(0.25 * math.sqrt((1 - law_a.p) / law_a.p), 1e-300))) if not law_a.degenerate else 1.0
    chosen = [int(ms[i]) for i in nonzero]
    zone = _fine_zone(min(chosen), max(chosen), law_b, law_a, c)
    # Batches of groups with at most QUERY_BATCH values of b in all: the memory stays bounded (one batch's
    # per-b arrays and one chunk of rows at a time).
    batches: list[list[int]] = [[]]
    load = 0
    for position, m in enumerate(chosen):
        window = binomial_window(m, law_b, float(tail))
        size = window.hi - window.lo + 1
        if batches[-1] and load + size > QUERY_BATCH:
            batches.append([])
            load = 0
        batches[-1].append(position)
        load += size
    for batch in batches:
        batch_ms = tuple(chosen[i] for i in batch)
        batch_needed = None if needed is None else tuple(bool(needed[nonzero[i]]) for i in batch)
        lo, hi = _batch_expectations(batch_ms, law_b, law_a, c, float(tail), int(per_sd), min(sd_a_unit, 2.0**60), min(tangent_unit, 2.0**60), zone, lower, upper,
                                     needed=batch_needed)
        for j, position in enumerate(batch):
            total_lo[nonzero[position]] = lo[j]
            total_hi[nonzero[position]] = hi[j]
    if needed is not None:
        # The m left out: the trivial interval (c0's upper end, the product rounded up).
        for i, m in enumerate(ms):
            if int(m) > 0 and not needed[i]:
                total_hi[i] = max(c.c0[1], 0.0) * int(m) * (1 + 4 * U1)
    return total_lo, total_hi


def _batch_expectations(
    ms: tuple[int, ...], law_b: BinomialLaw, law_a: BinomialLaw, c: Coefficients, tail: float, per_sd: int, sd_a_unit: float, tangent_unit: float, zone: tuple[float, float],
    lower: bool = True, upper: bool = True, needed: tuple[bool, ...] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """`positive_part_expectations` for one batch of groups (all m >= 1); lower=False: the upper ends only (the
    lower ends returned are then valid but loose); upper=False: the lower ends only (the upper ends valid, looser);
    `needed` (one flag per group): the rows of a group flagged False are left out (its ends valid, trivial)."""
    plan = _plan(ms, law_b, tail, per_sd, law_a.degenerate, sd_a_unit, tangent_unit, zone)
    left_out = None
    if needed is not None and not all(needed):
        # Every row is the upper row of its own b (shift 0): the queries' groups give the rows' groups.
        row_group = np.empty(len(plan.ms), dtype=np.int64)
        row_group[plan.queries.up_row] = plan.group
        left_out = ~np.array(needed, dtype=bool)[row_group]
    _, _, f_hi, f_lo = _row_bounds(plan.ms, plan.betas, plan.back, law_a, c, plan.queries, lower, upper, left_out)
    groups = len(plan.group_m)
    # Sums of non-negative terms per group (relative error <= (size + 4) u'); b below the window: F <= c0 m;
    # above it: F <= F(window.hi).
    factor = 1 + (plan.group_size + 4) * U1
    hi = np.bincount(plan.group, weights=plan.p_hi * f_hi, minlength=groups) * factor
    hi = hi + plan.above * f_hi[plan.last_query] * (1 + 4 * U1)
    hi = hi + plan.below * max(c.c0[1], 0.0) * plan.group_m * (1 + 4 * U1)
    lo = np.bincount(plan.group, weights=plan.p_lo * f_lo, minlength=groups) / factor
    return np.maximum(np.minimum(lo, hi), 0.0), hi


def positive_part_expectation(m: int, law_b: BinomialLaw, law_a: BinomialLaw, c: Coefficients, *, tail: float, per_sd: int = PER_SD) -> tuple[float, float]:
    """[lower, upper] containing G = E[(c0 a + c1 b + c2 (m - a - b))_+], b ~ Bin(m, p_b), a | b ~ Bin(m - b, p_a)
    (module doc). `tail`: the b mass outside the summed window (each side); `per_sd`: grid rows per standard
    deviation of b (how tight the blocking is). Range: integer m >= 0, c0 > 0 >= c2 >= c1."""
    require_integer("m", m, minimum=0)
    lo, hi = positive_part_expectations([int(m)], law_b, law_a, c, tail=tail, per_sd=per_sd)
    return float(lo[0]), float(hi[0])
