"""High-precision certified enclosures of exact shuffled epsilons (for bit-reproducible test vectors).

The engine behind the `<function>_mp(*, dps, **inputs) -> (lower, upper)` paths of `exact.shuffled_binary_rr`,
`exact.shuffled_binary_rr.pair`, `exact.shuffled_krr`, `BBGN19.Lem5.3.exact_krr`, `exact.krr_pair_third` and
`exact.krr_pair_x0`. Every number it returns comes from integer, `Fraction` and mpmath interval (`iv`, outward
rounding) arithmetic only, so the same inputs give the same bits on every machine.

Fixed point with rigorous rounding. A probability x is held as two Python integers [lo, hi] with
lo <= x 2^B <= hi (B bits, a unit of 2^-B): products and quotients of such brackets are rounded down for lo and
up for hi (floor / ceiling integer division), so every bracket is proven; transcendental constants (e^eps0,
logs) come from mpmath's interval context (`mpmath.iv`), whose operations round outward.

Binomial windows (`binomial_window`). Pr[Bin(m, p) = j] at the mode j0 (exact `math.comb` times an interval
exp), then the ratio recurrence pmf(j+1) = pmf(j) (m - j)/(j + 1) rho (rho = p/q) upwards and
pmf(j-1) = pmf(j) j/((m - j + 1) rho) downwards, each step rounded outward. The ratio r(j) = pmf(j+1)/pmf(j) is
non-increasing in j (log-concavity), so once r(j) < 1, sum_{i >= j} pmf(i) <= pmf(j)/(1 - r(j)) (geometric
series); the walk stops when that certified remainder is <= the allowed tail, which is then carried as the
dropped mass. The same holds downwards.

The exact epsilon of a pair of finite distributions (`pair_e_eps`). For the hockey-stick divergence
d(e) = max_A P(A) - e Q(A) (sets A of outcomes), the smallest e >= 1 with d(e) <= delta is

    e* = max(1, sup_A (P(A) - delta) / Q(A)),

and the sup is attained at a likelihood-ratio superlevel set {P > e* Q} (Neyman-Pearson). Lower end: the
value of (P_lo(A) - delta)/(Q_hi(A) + dropped Q) for the best prefix A of the outcomes sorted by their ratio
(any set gives a valid lower bound). Upper end: a candidate e_hi slightly above it is VERIFIED by
sum_x max(0, P_hi(x) - e_hi Q_lo(x)) + (P mass dropped) <= delta, an upper bound on d(e_hi) whatever the sets;
so e* <= e_hi. The returned epsilon bracket is [log e_lo rounded down, log e_hi rounded up].

Precision. B is chosen from `dps` (and delta): about dps + 12 decimal digits beyond the scale of delta; the
allowed dropped tail is delta 10^-(dps+6). The enclosure width is then far below 10^-dps relative, which the
vector generator checks (dps 40 and 80 must agree to 20 digits). Outside the stated sizes (lattice points,
window lengths; the range table `shuffle_spec.reference.core.limits`, section "High precision", says why) the functions
raise ValueError("... outside the high-precision range ..."), a ParameterError naming n where n alone decides.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from fractions import Fraction
from typing import Any, Sequence

from mpmath.ctx_iv import MPIntervalContext

from ..core.errors import ParameterError, require_integer
from ..core.limits import EXACT_MP_MAX_LATTICE_POINTS, EXACT_MP_MAX_POINTS, EXACT_MP_MAX_WINDOW_POINTS, HIGH_PRECISION
from ..core.parameters import check_delta, check_dps, check_eps0, check_n

__all__ = [
    "FixedPoint",
    "MAX_LATTICE_POINTS",
    "MAX_POINTS",
    "Window",
    "binary_rr_direction_e_eps",
    "binary_rr_eps_bracket",
    "binomial_window",
    "bits_for",
    "blanket_krr_eps_bracket",
    "high_precision_context",
    "krr_pair_eps_bracket",
    "log_bracket",
    "pair_e_eps",
]

# The limits of this module, from the range table (`shuffle_spec.reference.core.limits` says why), under the names
# other modules import: outcomes of a finite pair, the longest binomial window walked, lattice points.
MAX_POINTS = EXACT_MP_MAX_POINTS
MAX_WINDOW_POINTS = EXACT_MP_MAX_WINDOW_POINTS
MAX_LATTICE_POINTS = EXACT_MP_MAX_LATTICE_POINTS


def _outside_range(what: str) -> ValueError:
    """The ValueError the vector generator reads as 'no high-precision value here' (COMMON protocol), for sizes
    found during the computation (the parameters' own limits are ParameterErrors naming them)."""
    return ValueError(f"{what}: {HIGH_PRECISION} of this _mp path")


@lru_cache(maxsize=16)
def _context(bits: int) -> Any:
    iv = MPIntervalContext()
    iv.prec = bits
    return iv


def high_precision_context(bits: int) -> Any:
    """A fresh mpmath interval context (outward rounding) at `bits` bits (never the shared global one);
    8 <= bits <= 100000."""
    require_integer("bits", bits, minimum=8)
    if bits > 100_000:
        raise ParameterError("bits", bits, "8 <= bits <= 100000")
    return _context(int(bits))  # shared per precision: nothing here changes a context's precision


def _check_inputs(eps0: float, n: int, delta: float, dps: int, k: int | None = None, min_k: int = 0) -> None:
    """The common inputs of the high-precision paths (ParameterError naming the parameter)."""
    check_eps0(eps0, maximum=700)
    check_n(n)
    check_delta(delta)
    check_dps(dps)
    if k is not None:
        require_integer("k", k, minimum=min_k)


@dataclass(frozen=True)
class FixedPoint:
    """Brackets in units of 2^-bits, with an interval context of `bits` + 64 bits for the constants."""

    bits: int

    @property
    def iv(self) -> Any:
        return high_precision_context(self.bits + 64)

    @property
    def one(self) -> int:
        return 1 << self.bits

    def of_interval(self, x: Any) -> tuple[int, int]:
        """[floor(x.a 2^B), ceil(x.b 2^B)] of an mpmath interval x (exact: mpf endpoints are dyadic)."""
        lo, hi = _fraction_of(x.a), _fraction_of(x.b)
        return _floor(lo * self.one), _ceil(hi * self.one)

    def of_fraction(self, x: Fraction) -> tuple[int, int]:
        return _floor(x * self.one), _ceil(x * self.one)


def _fraction_of(x: Any) -> Fraction:
    """The exact value of an mpmath interval endpoint (a point interval) or mpf."""
    raw = x._mpi_[0] if hasattr(x, "_mpi_") else x._mpf_
    sign, man, exp, _ = raw
    if man == 0 and exp == 0 and not sign:
        return Fraction(0)
    if man == 0:
        raise ParameterError("value", x, "a finite real number")
    value: Fraction = Fraction(int(man)) * (Fraction(2) ** int(exp))
    return -value if sign else value


def _floor(x: Fraction) -> int:
    return x.numerator // x.denominator


def _ceil(x: Fraction) -> int:
    return -((-x.numerator) // x.denominator)


def _div_floor(a: int, b: int) -> int:
    return a // b


def _div_ceil(a: int, b: int) -> int:
    return -((-a) // b)


@dataclass(frozen=True)
class Window:
    """Pr[Bin(m, p) = lo + i] in [low[i], high[i]] units 2^-B; `below` and `above` bound (units, rounded up)
    the mass outside [lo, lo + len - 1]."""

    lo: int
    low: list[int]
    high: list[int]
    below: int
    above: int

    @property
    def hi(self) -> int:
        return self.lo + len(self.low) - 1


def binomial_window(fp: FixedPoint, m: int, p: Any, tail_units: int) -> Window:
    """Certified window of Bin(m, p) (p an mpmath interval in (0, 1], or the integer 1 for the degenerate law)
    whose dropped mass on each side is <= tail_units (module doc). tail_units = 0 keeps the whole support."""
    if m < 0:
        raise ParameterError("m", m, "a non-negative integer")
    if isinstance(p, int) and p == 1:
        return Window(m, [fp.one], [fp.one], 0, 0)
    if m == 0:
        return Window(0, [fp.one], [fp.one], 0, 0)
    iv = fp.iv
    q = 1 - p
    if not (p.a > 0 and q.a > 0):
        raise ParameterError("p", p, "a probability strictly inside (0, 1)")
    rho_lo, rho_hi = fp.of_interval(p / q)
    inv_lo, inv_hi = fp.of_interval(q / p)
    j0 = min(max(int(math.floor((m + 1) * float(p.mid))), 0), m)
    log_pmf = iv.log(iv.mpf(math.comb(m, j0))) + j0 * iv.log(p) + (m - j0) * iv.log(q)
    a_lo, a_hi = fp.of_interval(iv.exp(log_pmf))
    one = fp.one
    up_lo, up_hi = [a_lo], [a_hi]
    above = 0
    j, f_lo, f_hi = j0, a_lo, a_hi
    while j < m:
        # r(j) = (m - j)/(j + 1) rho, an upper bracket in units: ceil((m - j) rho_hi / (j + 1)).
        r_hi = _div_ceil((m - j) * rho_hi, j + 1)
        if tail_units > 0 and r_hi < one:
            remainder = _div_ceil(f_hi * one, one - r_hi)  # >= sum_{i >= j} pmf(i)
            if remainder <= tail_units and j > j0:
                up_lo.pop()
                up_hi.pop()
                above = remainder
                break
        f_lo = _div_floor(f_lo * (m - j) * rho_lo, (j + 1) * one)
        f_hi = _div_ceil(f_hi * (m - j) * rho_hi, (j + 1) * one)
        j += 1
        up_lo.append(f_lo)
        up_hi.append(f_hi)
        if len(up_lo) > MAX_WINDOW_POINTS:
            raise _outside_range(f"a binomial window of Bin({m}, p) longer than {MAX_WINDOW_POINTS} points")
    down_lo: list[int] = []
    down_hi: list[int] = []
    below = 0
    j, f_lo, f_hi = j0, a_lo, a_hi
    while j > 0:
        # s(j) = pmf(j - 1)/pmf(j) = j/((m - j + 1) rho); non-increasing as j decreases.
        s_hi = _div_ceil(j * inv_hi, m - j + 1)
        if tail_units > 0 and s_hi < one and j < j0:
            remainder = _div_ceil(f_hi * one, one - s_hi)  # >= sum_{i <= j} pmf(i)
            if remainder <= tail_units:
                down_lo.pop()
                down_hi.pop()
                below = remainder
                break
        f_lo = _div_floor(f_lo * j * inv_lo, (m - j + 1) * one)
        f_hi = _div_ceil(f_hi * j * inv_hi, (m - j + 1) * one)
        j -= 1
        down_lo.append(f_lo)
        down_hi.append(f_hi)
        if len(down_lo) > MAX_WINDOW_POINTS:
            raise _outside_range(f"a binomial window of Bin({m}, p) longer than {MAX_WINDOW_POINTS} points")
    low = down_lo[::-1] + up_lo
    high = down_hi[::-1] + up_hi
    return Window(j0 - len(down_lo), low, high, below, above)


def _log_float(x: int) -> float:
    return math.log(x) if x > 0 else -math.inf


def pair_e_eps(
    p_lo: Sequence[int], p_hi: Sequence[int], q_lo: Sequence[int], q_hi: Sequence[int], *, dropped_p: int, dropped_q: int, delta: Fraction, e_cap: Fraction, dps: int
) -> tuple[Fraction, Fraction]:
    """[e_lo, e_hi] containing the smallest e >= 1 with D_e(P || Q) <= delta, for a pair of finite measures
    given by brackets (integers in one common unit, `delta` in that unit as an exact Fraction) plus the mass
    of P and Q outside the listed outcomes (`dropped_*`, upper bounds). `e_cap`: a proven upper bound on the
    answer (e^eps0's upper end; D at e^eps0 is 0 for every eps0-LDP pair), used only when the verification
    cannot separate the answer from it. Module doc: lower end from a set, upper end verified."""
    size = len(p_lo)
    if not len(p_hi) == len(q_lo) == len(q_hi) == size:
        raise ParameterError("p_hi", len(p_hi), f"four bracket lists of the same length ({size})")
    if not (isinstance(delta, Fraction) and delta >= 0):
        raise ParameterError("delta", delta, "a Fraction >= 0 in the units of the brackets")
    check_dps(dps)
    if size > MAX_POINTS:
        raise _outside_range(f"a pair with {size} outcomes (at most {MAX_POINTS})")
    # Outcomes of negligible P mass (together <= delta 10^-(dps+8)) are moved into the dropped P mass: the upper
    # end's check counts them in full, the lower end's sets simply leave them out. Same result, less work.
    small = _floor(delta / (10 ** (dps + 8) * max(size, 1)))
    if small > 0:
        keep = [i for i in range(size) if p_hi[i] > small]
        dropped_p += sum(p_hi[i] for i in range(size) if p_hi[i] <= small)
        p_lo, p_hi, q_lo, q_hi = [p_lo[i] for i in keep], [p_hi[i] for i in keep], [q_lo[i] for i in keep], [q_hi[i] for i in keep]
        size = len(keep)

    def d_upper_ok(e: Fraction) -> bool:
        """sum max(0, P_hi - e Q_lo) + dropped_p <= delta (an upper bound on D_e <= delta)."""
        num, den = e.numerator, e.denominator
        total = dropped_p * den
        for a, b in zip(p_hi, q_lo, strict=True):
            t = a * den - num * b
            if t > 0:
                total += t
        return total * delta.denominator <= delta.numerator * den

    if d_upper_ok(Fraction(1)):
        return Fraction(1), Fraction(1)
    # Order by the ratio P/Q (floats only choose the order; every set gives a valid lower bound).
    keys = [_log_float(a) - _log_float(b) if b > 0 else math.inf for a, b in zip(p_lo, q_hi, strict=True)]
    order = sorted(range(size), key=lambda i: -keys[i])
    cum_p, cum_q = 0, dropped_q
    approx: list[float] = []
    prefix_p: list[int] = []
    prefix_q: list[int] = []
    delta_ceil = _ceil(delta)
    for i in order:
        cum_p += p_lo[i]
        cum_q += q_hi[i]
        prefix_p.append(cum_p)
        prefix_q.append(cum_q)
        num = cum_p - delta_ceil
        approx.append(math.exp(_log_float(num) - _log_float(cum_q)) if num > 1 and cum_q > 0 else -math.inf)
    best = max(range(size), key=lambda i: approx[i])
    e_lo = Fraction(1)
    for i in range(max(best - 3, 0), min(best + 4, size)):
        if prefix_q[i] > 0:
            candidate = (prefix_p[i] - delta) / prefix_q[i]
            e_lo = max(e_lo, candidate)
    # Dinkelbach (Newton) steps on the brackets: the set maximising P_lo(A) - e Q_hi(A) is {P_lo > e Q_hi}; its
    # value (P_lo(A) - delta)/(Q_hi(A) + dropped) is again a valid lower end, and the steps stop when it no
    # longer grows (floats cannot rank prefixes whose values differ below 1e-16 relative: tails of tiny mass).
    for _ in range(8):
        num, den = e_lo.numerator, e_lo.denominator
        sum_p, sum_q = 0, dropped_q
        for a, b in zip(p_lo, q_hi, strict=True):
            if a * den > num * b:
                sum_p += a
                sum_q += b
        if sum_q <= 0:
            break
        step = (sum_p - delta) / sum_q
        if step <= e_lo:
            break
        e_lo = step
    gap = Fraction(1, 10 ** (dps + 4))
    for _ in range(6):
        e_hi = e_lo * (1 + gap)
        e_hi = Fraction(_ceil(e_hi * 2 ** (4 * dps)), 2 ** (4 * dps))  # a short rational, still >= e_lo (1 + gap)
        if e_hi >= e_cap:
            return min(e_lo, e_cap), e_cap
        if d_upper_ok(e_hi):
            return e_lo, e_hi
        gap *= 100
    raise _outside_range("the certified upper end could not be verified close to the lower end")


def log_bracket(fp: FixedPoint, e_lo: Fraction, e_hi: Fraction) -> tuple[Fraction, Fraction]:
    """[log e_lo rounded down, log e_hi rounded up] as exact Fractions (interval logs); 0 for e <= 1.
    Requires e_lo <= e_hi."""
    if not e_lo <= e_hi:
        raise ParameterError("e_lo", e_lo, f"e_lo <= e_hi = {e_hi}")
    iv = fp.iv
    lo = Fraction(0) if e_lo <= 1 else _fraction_of(iv.log(iv.mpf(e_lo.numerator) / iv.mpf(e_lo.denominator)).a)
    hi = Fraction(0) if e_hi <= 1 else _fraction_of(iv.log(iv.mpf(e_hi.numerator) / iv.mpf(e_hi.denominator)).b)
    return max(lo, Fraction(0)), hi


def bits_for(dps: int, delta: float) -> int:
    """Fixed-point bits for `dps` digits of a quantity measured against delta (module doc)."""
    check_dps(dps)
    return int((dps + 16) * 3.33) + max(0, int(-math.log2(delta))) + 48


# ---------------------------------------------------------------- shuffled binary randomized response


def _keep_probabilities(fp: FixedPoint, eps0: float) -> tuple[Any, Any, Any]:
    """(p, q, e^eps0) as intervals: p = e^eps0/(1 + e^eps0), q = 1/(1 + e^eps0)."""
    iv = fp.iv
    e0 = iv.exp(iv.mpf(eps0))
    return e0 / (1 + e0), 1 / (1 + e0), e0


def _tail_units(fp: FixedPoint, delta: float, dps: int) -> int:
    """The mass each window may drop: delta 10^-(dps+6), in units (rounded down)."""
    return _floor(Fraction(delta) * fp.one / 10 ** (dps + 6))


def binary_rr_direction_e_eps(*, eps0: float, n: int, k: int, delta: float, dps: int) -> tuple[Fraction, Fraction]:
    """[e_lo, e_hi] around e^eps_k, the exact one-direction eps of shuffled binary RR: D(P_k || Q_k) with
    P_k = Bern(p) + S, Q_k = Bern(q) + S, S = Bin(k, p) + Bin(n - 1 - k, q) (exact.shuffled_binary_rr).
    Range: 0 < eps0 <= 700, 0 <= k <= n - 1, 0 < delta < 1, 15 <= dps <= 400 (ValueError beyond the sizes)."""
    _check_inputs(eps0, n, delta, dps, k)
    if k > n - 1:
        raise ParameterError("k", k, f"0 <= k <= n - 1 = {n - 1}")
    fp = FixedPoint(bits_for(dps, delta))
    p, q, e0 = _keep_probabilities(fp, eps0)
    tail = _tail_units(fp, delta, dps)
    x = binomial_window(fp, k, p, tail)
    y = binomial_window(fp, n - 1 - k, q, tail)
    if len(x.low) * len(y.low) > 4 * MAX_POINTS:
        raise _outside_range(f"a convolution of {len(x.low)} x {len(y.low)} points")
    size = len(x.low) + len(y.low) - 1
    f_lo, f_hi = [0] * size, [0] * size
    short, long_ = (x, y) if len(x.low) <= len(y.low) else (y, x)
    for i, (a_lo, a_hi) in enumerate(zip(short.low, short.high, strict=True)):
        for j, (b_lo, b_hi) in enumerate(zip(long_.low, long_.high, strict=True)):
            f_lo[i + j] += a_lo * b_lo
            f_hi[i + j] += a_hi * b_hi
    one = fp.one
    # Mass of S not in the convolution of the windows: at most the dropped masses of the two factors (2B units).
    extra = (x.below + x.above + y.below + y.above) * one
    p_lo, p_hi = fp.of_interval(p)
    q_lo, q_hi = fp.of_interval(q)
    padded_lo, padded_hi = [0] + f_lo + [0], [0] + f_hi + [0]  # index t + 1 holds f(s_lo + t)
    pl, ph, ql, qh = [], [], [], []
    for t in range(size + 1):  # s = s_lo + t: P(s) = p f(s - 1) + q f(s)
        prev_lo, prev_hi, here_lo, here_hi = padded_lo[t], padded_hi[t], padded_lo[t + 1], padded_hi[t + 1]
        pl.append(p_lo * prev_lo + q_lo * here_lo)
        ph.append(p_hi * prev_hi + q_hi * here_hi)
        ql.append(q_lo * prev_lo + p_lo * here_lo)
        qh.append(q_hi * prev_hi + p_hi * here_hi)
    dropped = extra * one  # P and Q put at most the dropped mass of S outside (3B units)
    unit = 2 ** (3 * fp.bits)
    e_cap = _fraction_of(e0.b)
    return pair_e_eps(pl, ph, ql, qh, dropped_p=dropped, dropped_q=dropped, delta=Fraction(delta) * unit, e_cap=e_cap, dps=dps)


def binary_rr_eps_bracket(*, eps0: float, n: int, k: int, delta: float, dps: int, both: bool) -> tuple[Fraction, Fraction]:
    """[eps_lo, eps_hi] of the pair with k ones among the others: one direction, or (both) the max with the
    mirror n - 1 - k (D(Q_k||P_k) = D(P_{n-1-k}||Q_{n-1-k})). Range: as binary_rr_direction_e_eps."""
    _check_inputs(eps0, n, delta, dps, k)
    fp = FixedPoint(bits_for(dps, delta))
    brackets = [binary_rr_direction_e_eps(eps0=eps0, n=n, k=k, delta=delta, dps=dps)]
    if both and n - 1 - k != k:
        brackets.append(binary_rr_direction_e_eps(eps0=eps0, n=n, k=n - 1 - k, delta=delta, dps=dps))
    e_lo = max(b[0] for b in brackets)
    e_hi = max(b[1] for b in brackets)
    return log_bracket(fp, e_lo, e_hi)


# ---------------------------------------------------------------- k-ary randomized response: lattice sums


def _scaled_points(fp: FixedPoint, weights: list[tuple[int, int]], counts: list[tuple[int, int, int]], u: Sequence[Any], v: Sequence[Any]) -> tuple[list[int], list[int], list[int], list[int]]:
    """P = weight (u . h), Q = weight (v . h) as brackets, h = (h0, h1, R) >= 0 and u, v >= 0 intervals."""
    (u0l, u0h), (u1l, u1h), (u2l, u2h) = (fp.of_interval(c) for c in u)
    (v0l, v0h), (v1l, v1h), (v2l, v2h) = (fp.of_interval(c) for c in v)
    pl, ph, ql, qh = [], [], [], []
    for (w_lo, w_hi), (h0, h1, r) in zip(weights, counts, strict=True):
        pl.append(w_lo * (u0l * h0 + u1l * h1 + u2l * r))
        ph.append(w_hi * (u0h * h0 + u1h * h1 + u2h * r))
        ql.append(w_lo * (v0l * h0 + v1l * h1 + v2l * r))
        qh.append(w_hi * (v0h * h0 + v1h * h1 + v2h * r))
    return pl, ph, ql, qh


def _trinomial_lattice(fp: FixedPoint, n: int, p1: Any, p0_given: Any, tail: int) -> tuple[list[tuple[int, int]], list[tuple[int, int, int]], int]:
    """Certified weights (2B units) of the trinomial h1 ~ Bin(n, p1), h0 | h1 ~ Bin(n - h1, p0_given) (the integer
    1 for the degenerate law) on windows, the counts (h0, h1, R), and an upper bound on the mass left out."""
    outer = binomial_window(fp, n, p1, tail)
    weights: list[tuple[int, int]] = []
    counts: list[tuple[int, int, int]] = []
    dropped = (outer.below + outer.above) * fp.one
    for i, (r_lo, r_hi) in enumerate(zip(outer.low, outer.high, strict=True)):
        h1 = outer.lo + i
        row = binomial_window(fp, n - h1, p0_given, tail)
        dropped += r_hi * (row.below + row.above)
        for j, (c_lo, c_hi) in enumerate(zip(row.low, row.high, strict=True)):
            h0 = row.lo + j
            weights.append((r_lo * c_lo, r_hi * c_hi))
            counts.append((h0, h1, n - h0 - h1))
        if len(counts) > MAX_LATTICE_POINTS:
            raise _outside_range(f"a k-RR pair lattice with more than {MAX_LATTICE_POINTS} points (n = {n})")
    return weights, counts, dropped


def _window_estimate(m: int, p: float, delta: float, dps: int) -> float:
    """Uncertified length of a binomial window (only decides early whether to decline, never a value)."""
    # At the largest precision the vectors use (80 digits) whatever dps is: the decision to decline must not
    # depend on the precision of the call (both precisions answer, or neither).
    z = math.sqrt(2 * math.log(10) * (max(dps, 80) + 8) + 2 * max(0.0, -math.log(delta))) + 3
    return 2 * z * math.sqrt(max(m * p * (1 - p), 0.0)) + 12


def krr_pair_eps_bracket(*, eps0: float, n: int, k: int, delta: float, dps: int, pair: str) -> tuple[Fraction, Fraction]:
    """[eps_lo, eps_hi] of the kept counts (h0, h1, R) of the k-RR pair `pair` (exact.krr_pair_third: the others
    all at a third value; exact.krr_pair_x0: all at x0, both directions). Under the others' n-draw law W,
    P_x(h) = W(h) (u_x . h)/n (shuffle_spec.reference.lower_bounds.krr module doc): third u = (e0, 1, c), v = (1, e0, c),
    c = (k-2)/(e0+k-3), W = Mult(n; 1/D, 1/D); x0 u = (1, 1, 1), v = (1/e0, e0, 1), W = Mult(n; e0/D, 1/D).
    Range: 0 < eps0 <= 700, k >= 3 (third) or 2 (x0), 0 < delta < 1, 15 <= dps <= 400; ValueError above
    MAX_LATTICE_POINTS lattice points."""
    if pair not in ("third", "x0"):
        raise ParameterError("pair", pair, "'third' or 'x0'")
    _check_inputs(eps0, n, delta, dps, k, 3 if pair == "third" else 2)
    d_float = math.exp(min(eps0, 700.0)) + k - 1
    inner = 1 / (d_float - 1) if pair == "third" else (1.0 if k == 2 else 1 / (1 + (k - 2) * math.exp(-min(eps0, 700.0))))
    estimate = min(_window_estimate(n, 1 / d_float, delta, dps), n + 1) * min(_window_estimate(n, inner, delta, dps), n + 1)
    if estimate > MAX_LATTICE_POINTS:
        raise ParameterError("n", n, f"a k-RR pair lattice of at most {MAX_LATTICE_POINTS} points (about {estimate:.0f} at k = {k}; {HIGH_PRECISION})")
    fp = FixedPoint(bits_for(dps, delta) + n.bit_length())
    iv = fp.iv
    e0 = iv.exp(iv.mpf(eps0))
    d = e0 + k - 1
    tail = _tail_units(fp, delta, dps)
    one = iv.mpf(1)
    if pair == "third":
        c = iv.mpf(k - 2) / (e0 + k - 3)
        directions = [((e0, one, c), (one, e0, c))]
        p0_given: Any = 1 / (d - 1)
    else:
        directions = [((one, one, one), (1 / e0, e0, one)), ((1 / e0, e0, one), (one, one, one))]
        p0_given = 1 if k == 2 else e0 / (e0 + k - 2)
    weights, counts, dropped_w = _trinomial_lattice(fp, n, 1 / d, p0_given, tail)
    e_cap = _fraction_of(e0.b)
    unit = Fraction(n) * 2 ** (3 * fp.bits)  # P in units of 2^-3B / n
    best: tuple[Fraction, Fraction] | None = None
    for u, v in directions:
        pl, ph, ql, qh = _scaled_points(fp, weights, counts, u, v)
        # Mass outside the lattice window: P(h) <= W(h) max(u) (u . h <= max(u) n), in units 2^-3B / n.
        u_max = max(fp.of_interval(x)[1] for x in u) * n
        v_max = max(fp.of_interval(x)[1] for x in v) * n
        e_lo, e_hi = pair_e_eps(pl, ph, ql, qh, dropped_p=dropped_w * u_max, dropped_q=dropped_w * v_max, delta=Fraction(delta) * unit, e_cap=e_cap, dps=dps)
        best = (e_lo, e_hi) if best is None else (max(best[0], e_lo), max(best[1], e_hi))
    e_lo, e_hi = best if best is not None else (Fraction(1), Fraction(1))
    return log_bracket(fp, e_lo, e_hi)


def blanket_krr_eps_bracket(*, eps0: float, n: int, k: int, delta: float, dps: int) -> tuple[Fraction, Fraction]:
    """[eps_lo, eps_hi] of BBGN19 Lemma 5.3's exact delta(eps) for k-RR (BBGN19.Lem5.3.exact_krr): with
    Pr[Bin(n-1, gamma) = N-1] gamma / N = Pr[Bin(n, gamma) = N] / n, delta(e) = D_e(P || Q) for the pair of
    distributions on (N, a, b), N >= 1,
        P = Pr[Bin(n, gamma) = N] M_N(a, b) (e0 a + b + R) / n,   Q = ... (a + e0 b + R) / n,
    M_N(a, b) = N!/(a! b! R!) (k-2)^R / k^N (exact rationals), R = N - a - b, gamma = k/(e0 + k - 1).
    Every (a, b) is enumerated for each N in a certified window of Bin(n, gamma). Range: 0 < eps0 <= 700,
    k >= 2, 0 < delta < 1, 15 <= dps <= 400; ValueError above MAX_LATTICE_POINTS lattice points."""
    _check_inputs(eps0, n, delta, dps, k, 2)
    gamma_float = k / (math.exp(min(eps0, 700.0)) + k - 1)
    top = min(n, n * gamma_float + _window_estimate(n, gamma_float, delta, dps))
    if top**3 / 6 > MAX_LATTICE_POINTS:
        raise ParameterError("n", n, f"a blanket lattice of at most {MAX_LATTICE_POINTS} points (about {top**3 / 6:.0f} at k = {k}; {HIGH_PRECISION})")
    fp = FixedPoint(bits_for(dps, delta) + n.bit_length())
    iv = fp.iv
    e0 = iv.exp(iv.mpf(eps0))
    gamma = iv.mpf(k) / (e0 + k - 1)
    tail = _tail_units(fp, delta, dps)
    outer = binomial_window(fp, n, gamma, tail)
    size = sum((big_n + 1) * (big_n + 2) // 2 for big_n in range(max(outer.lo, 1), outer.hi + 1))
    if size > MAX_LATTICE_POINTS:
        raise ParameterError("n", n, f"a blanket lattice of at most {MAX_LATTICE_POINTS} points ({size} at k = {k}; {HIGH_PRECISION})")
    weights: list[tuple[int, int]] = []
    counts: list[tuple[int, int, int]] = []
    one = fp.one
    powers = [(k - 2) ** r for r in range(outer.hi + 1)]
    for i, (w_lo, w_hi) in enumerate(zip(outer.low, outer.high, strict=True)):
        big_n = outer.lo + i
        if big_n == 0:
            continue  # no draw: the N = 0 term is not part of the sum (it carries P = Q = 0)
        denominator = k**big_n
        for a in range(big_n + 1):
            for b in range(big_n - a + 1):
                r = big_n - a - b
                if k == 2 and r > 0:
                    continue
                numerator = math.comb(big_n, a) * math.comb(big_n - a, b) * powers[r]
                m_lo = (numerator * one) // denominator
                m_hi = -((-numerator * one) // denominator)
                weights.append((w_lo * m_lo, w_hi * m_hi))
                counts.append((a, b, r))
    u = (e0, iv.mpf(1), iv.mpf(1))
    v = (iv.mpf(1), e0, iv.mpf(1))
    pl, ph, ql, qh = _scaled_points(fp, weights, counts, u, v)
    # N outside the window: its P mass is Pr[N] N / (n gamma) <= Pr[N] / gamma; units 2^-3B / n.
    inv_gamma_hi = fp.of_interval(1 / gamma)[1]
    dropped = (outer.below + outer.above) * inv_gamma_hi * one * n
    e_cap = _fraction_of(e0.b)
    unit = Fraction(n) * 2 ** (3 * fp.bits)
    e_lo, e_hi = pair_e_eps(pl, ph, ql, qh, dropped_p=dropped, dropped_q=dropped, delta=Fraction(delta) * unit, e_cap=e_cap, dps=dps)
    return log_bracket(fp, e_lo, e_hi)
