"""Certified binomial probabilities for the numeric bounds (FMT21.clones_numeric, FMT23.stronger_clones,
exact.shuffled_binary_rr): every float comes with a PROVEN error bound.

Floating-point model (the only assumptions): IEEE-754 binary64 with round-to-nearest, so each of
+, -, *, / on floats returns the exact result times (1 + d), |d| <= u = 2^-53, for results in the normal
range (>= 2^-1022); below it the absolute error is <= 2^-1075. Integers up to 2^53 are exact floats.
No libm result enters a value without a margin: every transcendental quantity of a value (log x!,
log p, e^eps0, ...) is computed in mpmath interval arithmetic (`MPIntervalContext`, 100 bits, outward
rounding) and its float carries the interval's rigorous distance to it; libm exp/expm1 are used only to
turn already-bounded exponents into bounds, with margins of 1e-12 relative or 1% (>> their few-ulp error).

Method and its bound, step by step (`certified_window`):
1. Anchor. log Pr[Bin(m, p) = k0] at one point k0 (the mode) as an interval: log x! by Stirling's
   series (x + 1/2) log x - x + log(2 pi)/2 + 1/(12x) - 1/(360x^3) + R, 0 <= R <= 1/(1260 x^5) for x >= 1
   (the remainder of Stirling's series lies between 0 and the first omitted term), or exactly
   (log of the exact integer x!) for x < 20; log p, log q as intervals from eps0. Its exp rounded to
   the float A0 has relative error eps_a (read off the interval).
2. Recurrence. pmf(k+1) = pmf(k) * r_k, r_k = ((m-k)/(k+1)) * (p/q) (downwards (k/(m-k+1)) * (q/p)),
   where m - k and k + 1 are exact, the float rho = fl(p/q) has relative error e_rho <= e_p + e_q + u
   (+ second order), and each r_k costs 2 roundings, the running product (np.cumprod) 1 more, the
   final scaling by A0 1 more. So j steps from the anchor the relative error is at most
   (1 + eps_a)(1 + u)^(3j+1)(1 + e_rho)^j - 1 <= expm1(eps_a + (3j + 1) u' + j e_rho'), u' = 1.001 u,
   e_rho' = 1.001 e_rho (log(1 + x) <= x); the bound is evaluated in floats with 1% extra margin.
   Values that reach the subnormal range are certified only as lying in [0, 2^-960] (the recurrence
   moves away from the mode, where |r_k| < 1, so accumulated absolute errors stay below j 2^-1074).
3. Tails. Outside the window [lo, hi], Pr[X < lo] <= exp(-m KL((lo-1)/m || p)) and
   Pr[X > hi] <= exp(-m KL((hi+1)/m || p)) (Chernoff), evaluated in interval arithmetic (upper end).
The window is the O(sqrt(m p q log(1/tail))) central part, so the work grows like sqrt(m).

Memory: the window has O(sqrt(m log(1/tail))) counts, ~ 3.7e7 at m = 1e12 and tail 1e-300.
`window_edges` finds [lo, hi] and the tails without allocating anything; `certified_window_block` gives
the proven values on any sub-range [a, b] (anchored in interval arithmetic at the point of [a, b] nearest
the mode, so each block is independent and carries the bound above with j counted from its own anchor);
callers stream the window in blocks of at most BLOCK counts (`window_blocks`), so memory per call is
O(BLOCK) whatever m. `certified_window` (the whole window as one array) refuses windows longer than
MAX_WINDOW before allocating.

`certified_half_binomial` gives b_c(t) = Pr[Bin(c, 1/2) = t] and F_c(t-1) = Pr[Bin(c, 1/2) <= t-1]
with proven brackets, the anchors of the clone-count walk in `reference.bounds.clones`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from mpmath.ctx_iv import MPIntervalContext

from ..core.errors import ParameterError, require_integer, require_positive

__all__ = [
    "BLOCK",
    "MAX_WINDOW",
    "CertifiedWindow",
    "WindowBlock",
    "WindowEdges",
    "certified_window_block",
    "window_blocks",
    "window_edges",
    "certified_half_binomial",
    "certified_window",
    "exp_upper",
    "iv_context",
    "log_binomial_pmf_interval",
    "probability_pair",
]

UNIT = 2.0**-53  # unit roundoff u of binary64 with round-to-nearest
TINY = 1e-280  # below this a float is treated as possibly subnormal-contaminated
SUBNORMAL_CAP = 2.0**-960  # certified upper bound for values that went below TINY
_IV = MPIntervalContext()
_IV.prec = 100
_EXACT_FACTORIAL_BELOW = 20
# Counts per block of a streamed window: the arrays of one block (here and in the clone walk, ~30
# float64 arrays at the peak) take ~ 250 MiB at 2^20 counts.
BLOCK = 1 << 20
# Longest window `certified_window` materialises in one piece (~ 10 float64 arrays: ~ 350 MiB).
MAX_WINDOW = 1 << 22


def iv_context() -> MPIntervalContext:
    """The private 100-bit mpmath interval context used by the certified computations (not the global mpmath.iv)."""
    return _IV


def exp_upper(log_value: float) -> float:
    """A float >= e^log_value for a float log_value (1e-12 relative margin over libm's exp, and at least
    the smallest subnormal so that underflow cannot produce 0)."""
    return max(math.exp(log_value) * (1 + 1e-12), 2.0**-1074)


# Intervals of log(x!) and log(2 pi) / 2 by (x, precision): each a pure function of its key (interval arithmetic at a
# fixed precision is deterministic), so the caches only save time (the anchors of exact.shuffled_binary_rr ask for the
# same factorials again: the two windows of one population, the same population at another delta). Cleared when full.
_LOG_FACTORIALS: dict[tuple[int, int], Any] = {}
_HALF_LOG_TWO_PI: dict[int, Any] = {}
LOG_FACTORIAL_CACHE_SIZE = 4096


def _log_factorial_iv(x: int) -> Any:
    """Interval containing log(x!) (Stirling's series with its remainder enclosed; exact for small x)."""
    iv = _IV
    key = (x, iv.prec)
    found = _LOG_FACTORIALS.get(key)
    if found is not None:
        return found
    if x < _EXACT_FACTORIAL_BELOW:
        found = iv.log(iv.mpf(math.factorial(x)))
    else:
        half_log_two_pi = _HALF_LOG_TWO_PI.get(iv.prec)
        if half_log_two_pi is None:
            half_log_two_pi = _HALF_LOG_TWO_PI[iv.prec] = iv.log(2 * iv.pi) / 2
        xx = iv.mpf(x)
        series = (xx + iv.mpf(0.5)) * iv.log(xx) - xx + half_log_two_pi + 1 / (12 * xx) - 1 / (360 * xx**3)
        found = series + iv.mpf([0, 1]) / (1260 * xx**5)
    if len(_LOG_FACTORIALS) >= LOG_FACTORIAL_CACHE_SIZE:
        _LOG_FACTORIALS.clear()
    _LOG_FACTORIALS[key] = found
    return found


def log_binomial_pmf_interval(k: int, m: int, log_p: Any, log_q: Any) -> Any:
    """Interval containing log Pr[Bin(m, p) = k] given intervals log_p, log_q (anchor of `certified_window`)."""
    require_integer("m", m, minimum=0)
    require_integer("k", k, minimum=0)
    if k > m:
        raise ParameterError("k", k, f"0 <= k <= m = {m}")
    k, m = int(k), int(m)
    log_choose = _log_factorial_iv(m) - _log_factorial_iv(k) - _log_factorial_iv(m - k)
    return log_choose + (k * log_p if k else 0) + ((m - k) * log_q if m - k else 0)


def _float_with_error(x: Any) -> tuple[float, float]:
    """A float near the interval x (> 0) and a bound on its relative distance to every point of x."""
    value = float(x.mid)
    if value <= 0.0 or not math.isfinite(value):
        raise ParameterError("probability", value, "a positive normal float")
    lo, hi = x.a, x.b
    worst = max(abs(hi - value), abs(value - lo)) / lo
    return value, float(worst.b) * (1 + 1e-6) + 2.0**-1074


@dataclass(frozen=True)
class ProbabilityPair:
    """p and q = 1 - p as intervals (exact reals inside) and as floats with relative error bounds."""

    p_iv: Any  # mpmath intervals (mpmath ships no type information)
    q_iv: Any
    p: float
    q: float
    p_err: float
    q_err: float


def probability_pair(kind: str, eps0: float) -> ProbabilityPair:
    """The probability p of a numeric bound as a function of the float eps0, with q = 1 - p:
    "fmt21" p = e^-eps0; "fmt23" p = 2/(e^eps0+1); "keep" p = e^eps0/(e^eps0+1) (binary RR)."""
    require_positive("eps0", eps0)
    iv = _IV
    r = iv.exp(-iv.mpf(eps0))
    if kind == "fmt21":
        p = r
    elif kind == "fmt23":
        p = 2 * r / (1 + r)
    elif kind == "keep":
        p = 1 / (1 + r)
    else:
        raise ParameterError("kind", kind, "'fmt21', 'fmt23' or 'keep'")
    q = 1 - p
    if eps0 <= _SMALL_EPS0:
        # 1 - p cancels: at eps0 below the context's 2^-100 its interval would straddle 0 (and its float be
        # negative or zero). The same q without the cancellation, from 1 - e^-eps0 by its Taylor series.
        one_minus_r = _one_minus_exp_neg(eps0)
        q = {"fmt21": one_minus_r, "fmt23": one_minus_r / (1 + r), "keep": r / (1 + r)}[kind]
    if not float(q.mid) > 0.0:
        # q ~ eps0 / 2 ("fmt23") rounds to 0 at the smallest subnormal eps0 (5e-324): name the parameter given.
        raise ParameterError("eps0", eps0, "eps0 >= 1e-323 (below, the clone probability 1 - p, about eps0 / 2, is 0 as a double)")
    pf, pe = _float_with_error(p)
    qf, qe = _float_with_error(q)
    return ProbabilityPair(p, q, pf, qf, pe, qe)


_SMALL_EPS0 = 2.0**-30


def _one_minus_exp_neg(x: float) -> Any:
    """An interval containing 1 - e^-x for a float 0 < x <= 2^-30 with relative width below the context's
    2^-100: the Taylor series alternates with decreasing terms, so its partial sums S_4 <= 1 - e^-x <= S_5 =
    S_4 + x^5/120 (relative width x^4/120 < 2^-126)."""
    iv = _IV
    xx = iv.mpf(x)
    low = xx - xx**2 / 2 + xx**3 / 6 - xx**4 / 24
    high = low + xx**5 / 120
    return iv.mpf([low.a, high.b])


@dataclass(frozen=True)
class CertifiedWindow:
    """Pr[Bin(m, p) = lo + i] lies in [lower[i], upper[i]] for lo <= lo + i <= hi (proven; module doc);
    `below` >= Pr[X < lo], `above` >= Pr[X > hi]; `pmf` are the float values, `rel` their relative error bounds."""

    m: int
    lo: int
    hi: int
    pmf: np.ndarray
    rel: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    below: float
    above: float

    @property
    def dropped(self) -> float:
        return self.below + self.above

    @property
    def support(self) -> np.ndarray:
        return np.arange(self.lo, self.hi + 1, dtype=float)

    @property
    def max_rel(self) -> float:
        return float(np.max(self.rel)) if len(self.rel) else 0.0


def _log_tail_iv(x: int, m: int, pair: ProbabilityPair) -> float:
    """Upper end of log of the Chernoff bound -m KL(x/m || p) (x <= mp: lower tail; x >= mp: upper)."""
    iv = _IV
    terms = iv.mpf(0)
    if x > 0:
        terms += x * iv.log(iv.mpf(x) / (m * pair.p_iv))
    if m - x > 0:
        terms += (m - x) * iv.log(iv.mpf(m - x) / (m * pair.q_iv))
    return float((-terms).b) + 1e-12


def _bin_search_edge(m: int, mean: float, sd: float, log_target: float, pair: ProbabilityPair, direction: int) -> int:
    """A window edge beyond which the certified Chernoff tail is <= exp(log_target)."""
    z = math.sqrt(max(-2.0 * log_target, 1.0))
    x = math.floor(mean - z * sd) if direction < 0 else math.ceil(mean + z * sd)
    step = max(1.0, 0.25 * z * sd)
    while True:
        if direction < 0:
            if x <= 0:
                return 0
            if x - 1 < mean and _log_tail_iv(int(x - 1), m, pair) <= log_target:
                return int(x)
            x = math.floor(x - step)
        else:
            if x >= m:
                return m
            if x + 1 > mean and _log_tail_iv(int(x + 1), m, pair) <= log_target:
                return int(x)
            x = math.ceil(x + step)
        step *= 2


def _recurrence(anchor: float, k0: int, ks: np.ndarray, m: int, rho: float, up: bool) -> np.ndarray:
    """pmf at k0+1.. (up) or k0-1.. (down) by the ratio recurrence (module doc step 2)."""
    if len(ks) == 0:
        return np.empty(0)
    if up:
        ratios = ((m - (ks - 1.0)) / ks) * rho  # ks = k0+1, ...; r_{k-1} = (m-k+1)/k * p/q
    else:
        ratios = ((ks + 1.0) / (m - ks)) * rho  # ks = k0-1, ...; pmf(k) = pmf(k+1) (k+1)/(m-k) q/p
    return anchor * np.cumprod(ratios)


@dataclass(frozen=True)
class WindowEdges:
    """The central window [lo, hi] of Bin(m, p) and certified upper bounds on the mass it leaves out."""

    m: int
    lo: int
    hi: int
    below: float
    above: float

    @property
    def dropped(self) -> float:
        return self.below + self.above

    @property
    def size(self) -> int:
        return self.hi - self.lo + 1


def _check_window_inputs(m: int, pair: ProbabilityPair) -> None:
    require_integer("m", m, minimum=0)
    if not isinstance(pair, ProbabilityPair):
        raise ParameterError("pair", pair, "a ProbabilityPair from probability_pair()")


def window_edges(m: int, pair: ProbabilityPair, tail: float) -> WindowEdges:
    """The central window of Bin(m, p) with each tail certified <= tail/2 (tail = 0: the full support);
    O(log) work, nothing allocated."""
    _check_window_inputs(m, pair)
    if not (isinstance(tail, (int, float)) and 0 <= tail < 1):
        raise ParameterError("tail", tail, "0 <= tail < 1")
    m = int(m)
    p, q = pair.p, pair.q
    mean = m * p
    sd = math.sqrt(max(m * p * q, 1e-300))
    if tail == 0 or m == 0:
        return WindowEdges(m, 0, m, 0.0, 0.0)
    log_half = math.log(tail / 2.0)
    lo = _bin_search_edge(m, mean, sd, log_half, pair, -1)
    hi = _bin_search_edge(m, mean, sd, log_half, pair, +1)
    below = 0.0 if lo == 0 else math.exp(_log_tail_iv(lo - 1, m, pair)) * (1 + 1e-12)
    above = 0.0 if hi == m else math.exp(_log_tail_iv(hi + 1, m, pair)) * (1 + 1e-12)
    return WindowEdges(m, lo, hi, below, above)


@dataclass(frozen=True)
class WindowBlock:
    """Pr[Bin(m, p) = lo + i] lies in [lower[i], upper[i]] for lo <= lo + i <= hi (proven; module doc);
    `pmf` are the float values, `rel` their relative error bounds."""

    lo: int
    hi: int
    pmf: np.ndarray
    rel: np.ndarray
    lower: np.ndarray
    upper: np.ndarray

    @property
    def support(self) -> np.ndarray:
        return np.arange(self.lo, self.hi + 1, dtype=float)


def certified_window_block(m: int, pair: ProbabilityPair, a: int, b: int) -> WindowBlock:
    """Proven brackets of Pr[Bin(m, p) = k] for a <= k <= b (at most BLOCK counts), anchored at the
    point of [a, b] nearest the mode (module doc steps 1-2)."""
    _check_window_inputs(m, pair)
    require_integer("a", a, minimum=0)
    require_integer("b", b, minimum=int(a))
    m, a, b = int(m), int(a), int(b)
    if b > m:
        raise ParameterError("b", b, f"a <= b <= m = {m}")
    if b - a + 1 > BLOCK:
        raise ParameterError("b", b, f"a block of at most {BLOCK} counts (b - a + 1 <= {BLOCK}); stream longer ranges with window_blocks")
    p, q = pair.p, pair.q
    k0 = min(max(int(math.floor((m + 1) * p)), a), b)
    iv = _IV
    log_anchor = log_binomial_pmf_interval(k0, m, iv.log(pair.p_iv), iv.log(pair.q_iv))
    log_anchor_upper = float(log_anchor.b) + 1e-15
    if log_anchor_upper < math.log(TINY):
        # A block far out in a tail (only when streaming: a one-piece window is anchored at the mode). The
        # pmf is unimodal and k0 is the block's point nearest the mode, so every value of the block is at
        # most the anchor's: certified as [0, that upper bound] (as the module doc's values below TINY).
        size = b - a + 1
        cap = exp_upper(log_anchor_upper)
        return WindowBlock(a, b, np.zeros(size), np.full(size, math.inf), np.zeros(size), np.full(size, cap))
    anchor_iv = iv.exp(log_anchor)
    anchor, eps_a = _float_with_error(anchor_iv)
    e_rho = 1.001 * (pair.p_err + pair.q_err + UNIT) + 1e-300
    up = _recurrence(anchor, k0, np.arange(k0 + 1, b + 1, dtype=float), m, p / q, True)
    down = _recurrence(anchor, k0, np.arange(k0 - 1, a - 1, -1, dtype=float), m, q / p, False)
    pmf = np.concatenate((down[::-1], [anchor], up))
    steps = np.abs(np.arange(a, b + 1, dtype=float) - k0)
    rel = np.expm1(eps_a + (3.0 * steps + 1.0) * 1.001 * UNIT + steps * e_rho) * 1.01
    tiny = pmf < TINY
    lower = np.where(tiny, 0.0, pmf * (1.0 - rel))
    # Below TINY: a normal float keeps its relative bound; a subnormal one is off by <= (steps + 1) 2^-1074.
    upper = pmf * (1.0 + rel) * (1 + 2 * UNIT) + np.where(tiny, (steps + 1.0) * 2.0**-1073, 0.0)
    return WindowBlock(a, b, pmf, rel, lower, upper)


def window_blocks(edges: WindowEdges, block: int = BLOCK) -> list[tuple[int, int]]:
    """[lo, hi] cut into consecutive ranges (a, b) of at most `block` counts."""
    require_integer("block", block, minimum=1)
    block = min(int(block), BLOCK)
    return [(a, min(a + block - 1, edges.hi)) for a in range(edges.lo, edges.hi + 1, block)]


def certified_window(m: int, pair: ProbabilityPair, tail: float) -> CertifiedWindow:
    """The central window of Bin(m, p) with each tail certified <= tail/2 (tail = 0: the full support),
    with proven bounds on every probability (module doc), as one array: refused (ParameterError) when
    longer than MAX_WINDOW counts, before allocating; stream longer ones (window_edges + blocks)."""
    edges = window_edges(m, pair, tail)
    if edges.size > MAX_WINDOW:
        raise ParameterError(
            "m", m, f"a binomial window of at most {MAX_WINDOW} counts in one piece (this one has {edges.size}); it is streamed in blocks where supported"
        )
    if edges.size <= BLOCK:
        block = certified_window_block(edges.m, pair, edges.lo, edges.hi)
        return CertifiedWindow(edges.m, edges.lo, edges.hi, block.pmf, block.rel, block.lower, block.upper, edges.below, edges.above)
    parts = [certified_window_block(edges.m, pair, a, b) for a, b in window_blocks(edges)]
    pmf, rel, lower, upper = (np.concatenate([getattr(part, name) for part in parts]) for name in ("pmf", "rel", "lower", "upper"))
    return CertifiedWindow(edges.m, edges.lo, edges.hi, pmf, rel, lower, upper, edges.below, edges.above)


@dataclass(frozen=True)
class HalfBinomialAnchor:
    """b = Pr[Bin(c, 1/2) = t] in [b_lo, b_hi] (b its float, b_rel its relative error bound) and
    F = Pr[Bin(c, 1/2) <= t - 1] in [f_lo, f_hi] (f its float); log_b_upper: upper end of log b."""

    c: int
    t: int
    b: float
    b_rel: float
    f: float
    f_lo: float
    f_hi: float
    log_b_upper: float


def certified_half_binomial(c: int, t: int) -> HalfBinomialAnchor:
    """Proven brackets of b_c(t) and F_c(t-1) for Bin(c, 1/2), 0 <= t <= (c+1)/2 (below the median).

    b_c(t) from the interval anchor (module doc step 1). F_c(t-1) = sum_{a < t} b_c(a), summed downwards
    from a = t-1 by the ratio b(a-1) = b(a) a/(c-a+1) (2 roundings + 1 for the running product per step,
    so term j has relative error <= expm1((3j + 3) u')); the terms are positive, so the float sum of J
    terms has relative error <= J u'; once stopped at a_last, the rest is at most
    b(a_last) r/(1-r), r = a_last/(c-a_last+1) < 1 (the ratios decrease further down: log-concavity).
    Values below 1e-280 are certified only through their upper bound (see the module doc)."""
    require_integer("c", c, minimum=0)
    require_integer("t", t, minimum=0)
    c, t = int(c), int(t)
    if 2 * t > c + 1:
        raise ParameterError("t", t, f"0 <= t <= (c+1)/2 = {(c + 1) / 2}")
    iv = _IV
    half = iv.log(iv.mpf(0.5))
    log_b = log_binomial_pmf_interval(t, c, half, half)
    log_b_upper = float(log_b.b) + 1e-15
    if log_b_upper < math.log(TINY):
        # Both values are negligible: certify them only as [0, upper bound] (F <= t b_c(t-... ) <= (c+1) b).
        cap = exp_upper(log_b_upper)
        return HalfBinomialAnchor(c, t, 0.0, math.inf, 0.0, 0.0, cap * (c + 1), log_b_upper)
    b, b_rel = _float_with_error(iv.exp(log_b))
    if t == 0:
        return HalfBinomialAnchor(c, t, b, b_rel, 0.0, 0.0, 0.0, log_b_upper)
    top = b * (t / (c - t + 1.0))  # b_c(t-1)
    length = min(t, int(4 * math.sqrt(c)) + 64)
    while True:
        a = np.arange(t - 1, t - length, -1, dtype=float)  # a = t-1, ..., t-length+1: ratio to a-1
        terms = top * np.concatenate(([1.0], np.cumprod(a / (c - a + 1.0))))
        total = float(np.sum(terms))
        a_last = t - length  # the last term included is b(a_last)
        if a_last == 0:
            rest = 0.0
        else:
            r = a_last / (c - a_last + 1.0)
            rest = terms[-1] * r / (1.0 - r) * (1 + 8 * UNIT)
        if rest <= 1e-17 * total or length == t:
            break
        length = min(t, 2 * length)
    j = float(length)
    term_rel = math.expm1(b_rel + 1.001 * UNIT * (3.0 * j + 4.0)) * 1.01
    sum_rel = 1.001 * UNIT * j
    f_lo = total * (1.0 - term_rel) * (1.0 - sum_rel)
    f_hi = (total * (1.0 + sum_rel) + rest) * (1.0 + term_rel) * (1 + 4 * UNIT)
    if total < TINY:
        f_lo, f_hi = 0.0, max(f_hi, SUBNORMAL_CAP)
    return HalfBinomialAnchor(c, t, b, b_rel, total, f_lo, f_hi, log_b_upper)
