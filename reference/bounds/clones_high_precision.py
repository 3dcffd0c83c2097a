"""High-precision certified enclosures for the clone bounds and the composed pairs, for the test vectors
(`<function>_mp`, `interface/vectors/files.py`): `FMT21.clones_numeric`, `FMT23.stronger_clones`,
`compose.clones`, `compose.stronger_clones`, `compose.exact_binary_rr`.

Arithmetic. Everything that decides a returned number is exact or interval arithmetic, independent of the
float code of `reference.bounds.clones` and `shuffle_spec.reference.composition.shuffled_rounds`:
- transcendental constants (e^eps0, e^eps, the clone probability, binomial weights, per-round losses) in
  mpmath interval arithmetic (a private `MPIntervalContext`, outward rounding), converted to fixed point;
- the sums and recurrences in FIXED-POINT INTERVAL ARITHMETIC on Python integers: a number v is a pair of
  integers (lo, hi) with lo 2^-P <= v <= hi 2^-P; products and quotients round lo down and hi up
  (floor division), subtractions pair lo with hi. No rounding-error analysis is needed: the brackets carry
  every error. (Integer arithmetic is ~20 times faster than mpmath numbers, which is what makes n = 1e5
  affordable.) The working precision P grows with `dps`, with log(1/delta) and with the number of terms.
- The float reference's answer is used ONLY as the starting point of Newton's iteration (allowed by the
  vector protocol); the returned ends are verified: delta's certified upper end at the upper end is <= the
  target, its certified lower end at the lower end is > the target. Both ends are eps_root (1 -+ 10^-(dps-8)).

The quantity (`_single_round_epsilon`): eps = min{eps >= 0 : delta(eps) <= delta}, the FULL sum
delta(eps) = sum_{c=0}^{n-1} Bin(c; n-1, q) B(c), B(c) = D_{e^eps}(P_c || Q_c) (module doc of
`reference.bounds.clones`), q = e^-eps0 (fmt21) or 2/(e^eps0+1) (fmt23). delta(eps) = sum over outcomes of
(P - x Q)_+ with x = e^eps is convex, piecewise linear and non-increasing in x, so Newton's iteration in x
converges (monotonically after the first step); its derivative is -sum_c Bin(c) Q_c(cutoff set). Counts
outside a window of Bin(n-1, q) are bounded by their mass (0 <= B <= 1), which is computed as 1 minus the
window's certified mass (no tail inequality needed). B(c) by the cutoff formula
B(c) = a1 b_c(t) - (e^eps - 1) F_c(t - 1), t = floor(beta (c+1)), walked in c by the exact recurrences of
`reference.bounds.clones._walk_once`; where the bracket of beta (c+1) straddles an integer both candidates
t, t+1 are evaluated and the larger taken (the objective at any t is <= B, = B at the true cutoff).

Composition (`_composed_epsilon`): delta_T(eps) = E[(1 - e^{eps - S})_+], S the sum of T independent
per-round losses, each with finitely many values (`_RoundPLD`: the clone pair's outcomes grouped by their
likelihood ratio, or the n+1 outcomes of the exact binary-RR pair). The T rounds are split into two halves
whose composite losses are enumerated as MULTISETS of per-round values with multinomial weights; for each
left composite the right composites with total loss above eps form a suffix of the sorted right list, so
delta_T(eps) = sum_left p_l SP(suffix) - e^eps sum_left q_l SQ(suffix) exactly. Loss values are brackets:
a composite whose loss lies within eta (the brackets' width) of eps may be misclassified, which changes its
contribution (1 - e^{eps - s}) p by at most 2 eta p: the delta bracket is widened by 2 eta.

Supported ranges (the range table `shuffle_spec.reference.core.limits`, section "High precision", says why; outside
them a ParameterError, a ValueError whose range says "outside the high-precision range", is raised: the point is
left out of the vectors): clone bounds n <= N_MAX_CLONES = 2e5 (about 3 s at n = 1e6), eps0 <= 30, delta >= 1e-200; composition:
at most COMPOSED_MAX composites per half (e.g. n <= 20 with rounds <= 4 for the clone pairs), n <= 60 for
the clone pairs and n <= 400 for binary RR (COMPOSED_N_MAX), eps0 <= 30.
Cost at dps 40: ~0.1-0.5 s at n = 1e5 for the clone bounds, < 0.5 s for the registered compose examples.
"""

from __future__ import annotations

import bisect
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Sequence

import mpmath
from mpmath.ctx_iv import MPIntervalContext

from ..core.errors import ParameterError, require_integer, require_positive
from ..core.limits import (
    CLONES_MP_DELTA_MIN,
    CLONES_MP_EPS0_MAX,
    CLONES_MP_N_MAX,
    COMPOSED_MP_MAX,
    COMPOSED_MP_N_MAX,
    HIGH_PRECISION,
)
from ..core.parameters import check_delta, check_dps, check_eps0, check_n

__all__ = [
    "COMPOSED_MAX",
    "N_MAX_CLONES",
    "binary_rr_counts_mp",
    "clone_delta_bounds_mp",
    "clone_epsilon_mp",
    "composed_epsilon_mp",
    "composed_delta_bounds_mp",
    "round_pld_mp",
]

# The limits of this module, from the range table (`shuffle_spec.reference.core.limits`, which says why each is
# what it is), under the names other modules and tests import.
N_MAX_CLONES = CLONES_MP_N_MAX
EPS0_MAX_MP = CLONES_MP_EPS0_MAX
DELTA_MIN_MP = CLONES_MP_DELTA_MIN
COMPOSED_MAX = COMPOSED_MP_MAX
COMPOSED_N_MAX = COMPOSED_MP_N_MAX
DPS_RANGE = (15, 200)
OUTSIDE = HIGH_PRECISION
_WHY_CLONES = f"{HIGH_PRECISION} of the clone bounds: an interval walk over every clone count"
NEWTON_STEPS = 60


def _outside(what: str) -> ValueError:
    return ValueError(f"{what}: {OUTSIDE}")


def _iv(prec: int) -> MPIntervalContext:
    ctx = MPIntervalContext()
    ctx.prec = prec
    return ctx


def _mpf_of(raw: Any) -> mpmath.mpf:
    return mpmath.mpf(raw)


def _mpf_fraction(x: Fraction) -> mpmath.mpf:
    """A Fraction as an mpf at the current precision."""
    return mpmath.mpf(x.numerator) / x.denominator


def _fixed(x: Any, bits: int) -> tuple[int, int]:
    """An mpmath interval as fixed-point integers (floor(lo 2^bits), ceil(hi 2^bits)) (exact scalings)."""
    lo_raw, hi_raw = x._mpi_
    with mpmath.workprec(max(mpmath.mp.prec, lo_raw[3] + 8, hi_raw[3] + 8)):
        lo = int(mpmath.floor(mpmath.ldexp(_mpf_of(lo_raw), bits)))
        hi = int(mpmath.ceil(mpmath.ldexp(_mpf_of(hi_raw), bits)))
    return lo, hi


def _ceil_div(a: int, b: int) -> int:
    return -((-a) // b)


def _check_common(eps0: float, n: int, delta: float) -> None:
    check_eps0(eps0, maximum=EPS0_MAX_MP, why=HIGH_PRECISION)
    check_n(n)
    check_delta(delta, minimum=DELTA_MIN_MP, why=HIGH_PRECISION)


def _digits_of(delta: float) -> int:
    """Decimal digits below 1 of delta (the absolute precision needed to resolve it)."""
    return max(0, int(math.ceil(-math.log10(delta))))


def _bracket_ends(root: mpmath.mpf, dps: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """root (1 -+ 10^-(dps-8)) (exact binary numbers at the current precision)."""
    h = mpmath.mpf(10) ** (-(dps - 8))
    return root * (1 - h), root * (1 + h)


# ---------------------------------------------------------------------------------------------------
# One round of the clone pair: delta(eps) by a certified fixed-point walk over the clone counts.


class _CloneSum:
    """delta(eps) = sum_c Bin(c; m, q) B(c), m = n - 1, on a window of counts with certified weights."""

    def __init__(self, eps0: float, n: int, kind: str, dps: int, delta: float):
        self.eps0, self.m, self.kind = float(eps0), int(n) - 1, kind
        self.target = Fraction(delta)
        # Digits of the window's mass accounted for, and the fixed-point precision P (bits).
        self.tail_digits = dps + 8 + _digits_of(delta)
        self._choose_window(1.0)

    def _choose_window(self, widen: float) -> None:
        m = self.m
        q = math.exp(-self.eps0) if self.kind == "fmt21" else 2.0 / (math.exp(self.eps0) + 1.0)
        mean, sd = m * q, math.sqrt(m * q * (1 - q))
        # Only the place of the window comes from floats; its mass is certified below (tail = 1 - mass).
        z = widen * (math.sqrt(2.0 * math.log(10.0) * self.tail_digits) + 4.0)
        self.lo = max(0, int(math.floor(mean - z * sd - 10)))
        self.hi = min(m, int(math.ceil(mean + z * sd + 10 + z * z / 3)))
        size = self.hi - self.lo + 1
        self.bits = int(math.ceil((self.tail_digits + 6 + math.log10(size + 10)) * 3.33)) + 32
        self._weights()

    def _weights(self) -> None:
        """Certified fixed-point weights Bin(c; m, q), c in lo..hi, and the mass outside (upper bound)."""
        P, m, lo, hi = self.bits, self.m, self.lo, self.hi
        iv = _iv(P + 64 + int(math.log2(m + 2)) + max(0, int(-math.log2(self.eps0))))
        eps0 = iv.mpf(self.eps0)
        if self.kind == "fmt21":
            log_q, log_1mq = -eps0, iv.log(-iv.expm1(-eps0))
        else:  # q = 2/(e^eps0 + 1) = 2r/(1+r), 1 - q = (1 - r)/(1 + r), r = e^-eps0
            r = iv.exp(-eps0)
            log_q, log_1mq = iv.log(2 * r / (1 + r)), iv.log(-iv.expm1(-eps0) / (1 + r))
        # Anchored at the mode (full relative precision there), walked down to lo and up to hi:
        # w_{c+1} = w_c (m-c) r/(c+1), w_{c-1} = w_c c/((m-c+1) r), r = q/(1-q).
        mode = min(max(int((m + 1) * math.exp(float(log_q.mid))), lo), hi)
        w0 = iv.mpf(math.comb(m, mode)) * iv.exp(mode * log_q + (m - mode) * log_1mq)
        ratio_lo, ratio_hi = _fixed(iv.exp(log_q - log_1mq), P)
        w_lo, w_hi = _fixed(w0, P)
        highs_up, lows_up = [w_hi], [w_lo]
        for c in range(mode, hi):
            w_lo = (w_lo * (m - c) * ratio_lo) // ((c + 1) << P)
            w_hi = _ceil_div(w_hi * (m - c) * ratio_hi, (c + 1) << P)
            lows_up.append(w_lo)
            highs_up.append(w_hi)
        w_lo, w_hi = lows_up[0], highs_up[0]
        lows_down: list[int] = []
        highs_down: list[int] = []
        for c in range(mode, lo, -1):
            w_lo = ((w_lo * c) << P) // ((m - c + 1) * ratio_hi)
            w_hi = _ceil_div((w_hi * c) << P, (m - c + 1) * ratio_lo)
            lows_down.append(w_lo)
            highs_down.append(w_hi)
        lows, highs = lows_down[::-1] + lows_up, highs_down[::-1] + highs_up
        self.w_lo, self.w_hi = lows, highs
        self.tail = max((1 << P) - sum(lows), 0)  # units 2^-P: >= the true mass outside the window

    def ensure_tail(self) -> None:
        """Widen the window until its certified outside mass is at most 10^-(tail digits) (that is, about
        delta 10^-(dps+8)); ValueError when it cannot be reached."""
        for widen in (1.5, 2.25, 3.5, None):
            if Fraction(self.tail, 1 << self.bits) <= Fraction(1, 10**self.tail_digits):
                return
            if widen is None:
                raise _outside("the clone-count window's mass cannot be certified")
            self._choose_window(widen)

    def _coefficients(self, eps: mpmath.mpf) -> tuple[tuple[int, int], ...]:
        P = self.bits
        iv = _iv(P + 64)
        e0 = iv.exp(iv.mpf(self.eps0))
        e = iv.exp(iv.mpf(eps))
        a1 = (e0 - e) / (e0 + 1)
        em1 = iv.expm1(iv.mpf(eps))
        beta = (e0 - e) / ((e + 1) * (e0 - 1))
        k = 1 / (e0 + 1)
        x = e
        return _fixed(a1, P), _fixed(em1, P), _fixed(beta, P), _fixed(k, P), _fixed(x, P)

    def _binomial(self, c: int, t: int) -> int:
        """C(c, t), exact; stepped from the last one computed at this c (math.comb costs ~0.1 s at c ~ 1e5,
        a step C(c, t+1) = C(c, t) (c-t)/(t+1) microseconds; Newton's iterates move t by little)."""
        cached = getattr(self, "_comb", None)
        if cached is None or cached[0] != c or abs(cached[1] - t) > 64:
            value = math.comb(c, t)
        else:
            _, s, value = cached
            while s < t:
                value = value * (c - s) // (s + 1)
                s += 1
            while s > t:
                value = value * s // (c - s + 1)
                s -= 1
        self._comb = (c, t, value)
        return value

    def _anchor(self, c: int, t: int) -> tuple[int, int, int, int]:
        """Fixed-point brackets of b_c(t) and F_c(t-1) = sum_{a<t} b_c(a), b_c the Bin(c, 1/2) pmf."""
        P = self.bits
        num = self._binomial(c, t) << P
        u_lo, u_hi = num >> c, _ceil_div(num, 1 << c)
        f_lo = f_hi = 0
        if t >= 1:
            # Backwards from a = t-1: b(a-1) = b(a) a/(c-a+1); the ratio falls as a falls and is < 1
            # (t <= (c+1)/2), so once term * r/(1-r) <= 1 ulp the rest is bounded by 1 ulp.
            num = self._binomial(c, t - 1) << P
            term_lo, term_hi = num >> c, _ceil_div(num, 1 << c)
            a = t - 1
            while True:
                f_lo += term_lo
                f_hi += term_hi
                if a == 0:
                    break
                if term_hi * a <= c - 2 * a + 1:
                    f_hi += 1
                    break
                term_lo = (term_lo * a) // (c - a + 1)
                term_hi = _ceil_div(term_hi * a, c - a + 1)
                a -= 1
        return u_lo, u_hi, f_lo, f_hi

    def evaluate(self, eps: mpmath.mpf) -> tuple[Fraction, Fraction, Fraction]:
        """Certified [lower, upper] of delta(eps) and an (uncertified) value of Q(cutoff sets) = -d delta/dx."""
        P = self.bits
        if eps >= self.eps0:
            return Fraction(0), Fraction(0), Fraction(0)
        (a_lo, a_hi), (e_lo, e_hi), (b_lo, b_hi), (k_lo, _), _ = self._coefficients(eps)
        c = self.lo
        t = (b_lo * (c + 1)) >> P
        u_lo, u_hi, f_lo, f_hi = self._anchor(c, t)
        acc_lo = acc_hi = deriv = 0
        one2 = 1 << (2 * P)
        for w_lo, w_hi in zip(self.w_lo, self.w_hi, strict=True):
            g_lo = a_lo * u_lo - e_hi * f_hi
            g_hi = a_hi * u_hi - e_lo * f_lo
            t_up = (b_hi * (c + 1)) >> P
            if t_up > t:
                if t_up > t + 1:
                    raise _outside("the cutoff bracket spans two integers (raise the precision)")
                ua_lo, ua_hi = (u_lo * (c - t)) // (t + 1), _ceil_div(u_hi * (c - t), t + 1)
                g_lo = max(g_lo, a_lo * ua_lo - e_hi * (f_hi + u_hi))
                g_hi = max(g_hi, a_hi * ua_hi - e_lo * (f_lo + u_lo))
            acc_lo += w_lo * max(g_lo, 0)
            acc_hi += w_hi * min(max(g_hi, 0), one2)
            deriv += w_lo * (k_lo * u_lo + (f_lo << P))
            # c -> c + 1 (exact identities; module doc of reference.bounds.clones._walk_once).
            if ((b_lo * (c + 2)) >> P) == t:
                d = 2 * (c - t + 1)
                f_lo -= _ceil_div(u_hi * t, d)
                f_hi -= (u_lo * t) // d
                u_lo, u_hi = (u_lo * (c + 1)) // d, _ceil_div(u_hi * (c + 1), d)
            else:
                f_lo += u_lo // 2
                f_hi += _ceil_div(u_hi, 2)
                d = 2 * (t + 1)
                u_lo, u_hi = (u_lo * (c + 1)) // d, _ceil_div(u_hi * (c + 1), d)
                t += 1
            f_lo = max(f_lo, 0)
            c += 1
        scale = 1 << (3 * P)
        lower = Fraction(acc_lo, scale)
        upper = Fraction(acc_hi, scale) + Fraction(self.tail, 1 << P)
        return lower, min(upper, Fraction(1)), Fraction(deriv, scale)


def clone_delta_bounds_mp(*, dps: int, eps0: float, n: int, eps: float, kind: str = "fmt21") -> tuple[Fraction, Fraction]:
    """Certified [lower, upper] of the clone pair's delta(eps) (FMT21.clones_numeric, kind "fmt21";
    FMT23.stronger_clones, kind "fmt23"), the full sum over clone counts; width ~ 10^-dps of delta (1e-6 assumed
    for the precision). Supported: eps0 <= 30, n <= 1e6, eps >= 0."""
    dps = check_dps(dps, low=DPS_RANGE[0], high=DPS_RANGE[1])
    _check_common(eps0, n, 0.5)
    require_positive("eps", eps, allow_zero=True)
    if kind not in ("fmt21", "fmt23"):
        raise ParameterError("kind", kind, "'fmt21' or 'fmt23'")
    check_n(n, maximum=N_MAX_CLONES, why=_WHY_CLONES)
    walk = _CloneSum(eps0, int(n), kind, dps, 1e-6)
    walk.ensure_tail()
    with mpmath.workprec(walk.bits + 64):
        lower, upper, _ = walk.evaluate(mpmath.mpf(eps))
    return lower, upper


def _newton_then_bracket(evaluate: Callable[[mpmath.mpf], tuple[Fraction, Fraction, Fraction]], target: Fraction, seed: float, eps_max: float, dps: int, bits: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """eps with delta(eps) = target for a delta convex, piecewise linear, non-increasing in x = e^eps:
    Newton in x from the seed, then the bracket root (1 -+ 10^-(dps-8)), both ends verified (ValueError if
    a check fails). delta(0) <= target gives (0, 0)."""
    with mpmath.workprec(bits + 64):
        low0, up0, _ = evaluate(mpmath.mpf(0))
        if up0 <= target:
            return mpmath.mpf(0), mpmath.mpf(0)
        if low0 <= target:
            raise _outside("delta(0) is within its bracket of the target")
        eps = mpmath.mpf(seed) if 0 < seed < eps_max else mpmath.mpf(eps_max) / 2
        tolerance = mpmath.mpf(2) ** (-int((dps + 12) * 3.33))
        for _ in range(NEWTON_STEPS):
            low, up, slope = evaluate(eps)
            if slope <= 0:
                # Above the largest loss (delta = 0): halve towards 0.
                eps = eps / 2
                continue
            x = mpmath.exp(eps)
            gap = (low + up) / 2 - target
            x_new = x + _mpf_fraction(gap) / _mpf_fraction(slope)
            if x_new <= 1:
                x_new = (1 + x) / 2
            new_eps = mpmath.log(x_new)
            if new_eps >= eps_max:
                new_eps = (eps + eps_max) / 2
            step = abs(new_eps - eps)
            eps = new_eps
            if step <= tolerance * eps:
                break
        else:
            raise _outside("Newton's iteration did not converge")
        lower, upper = _bracket_ends(eps, dps)
        if not evaluate(upper)[1] <= target:
            raise _outside("the upper end could not be verified (delta's bracket too wide)")
        if not evaluate(lower)[0] > target:
            raise _outside("the lower end could not be verified (delta's bracket too wide)")
        return +lower, +upper


def clone_epsilon_mp(*, dps: int, eps0: float, n: int, delta: float, kind: str, seed: float | Callable[[], float]) -> tuple[mpmath.mpf, mpmath.mpf]:
    """FMT21.clones_numeric (kind "fmt21") / FMT23.stronger_clones (kind "fmt23"): a certified enclosure
    (lower, upper) of min{eps >= 0 : delta(eps) <= delta}, delta(eps) the full clone sum, at `dps` digits
    (module doc). `seed` (the float reference's answer, or a function computing it, called once the
    inputs are validated) only starts Newton's iteration.
    Supported: 0 < eps0 <= 30, 1 <= n <= 2e5, 1e-200 <= delta < 1; outside, ValueError (outside the
    high-precision range)."""
    dps = check_dps(dps, low=DPS_RANGE[0], high=DPS_RANGE[1])
    _check_common(eps0, n, delta)
    if kind not in ("fmt21", "fmt23"):
        raise ParameterError("kind", kind, "'fmt21' or 'fmt23'")
    check_n(n, maximum=N_MAX_CLONES, why=_WHY_CLONES)
    walk = _CloneSum(eps0, int(n), kind, dps, delta)
    walk.ensure_tail()
    start = seed() if callable(seed) else seed
    return _newton_then_bracket(walk.evaluate, Fraction(delta), start, float(eps0), dps, walk.bits)


# ---------------------------------------------------------------------------------------------------
# Composition: per-round PLDs with finitely many values, halves enumerated as multisets.


@dataclass(frozen=True)
class _RoundPLD:
    """Per-round outcomes grouped by loss: fixed-point brackets (units 2^-bits) of the loss, of the P mass and
    of the Q mass of each group."""

    loss_lo: tuple[int, ...]
    loss_hi: tuple[int, ...]
    p_lo: tuple[int, ...]
    p_hi: tuple[int, ...]
    q_lo: tuple[int, ...]
    q_hi: tuple[int, ...]
    bits: int

    def swapped(self) -> "_RoundPLD":
        """The pair in the other direction (Q vs P): masses swapped, losses negated."""
        return _RoundPLD(tuple(-x for x in self.loss_hi), tuple(-x for x in self.loss_lo), self.q_lo, self.q_hi, self.p_lo, self.p_hi, self.bits)


def _clone_round(eps0: float, n: int, kind: str, bits: int) -> _RoundPLD:
    """The clone pair's outcomes (c, a), a in 0..c+1, mass Bin(c; n-1, q) P_c(a) and ... Q_c(a); the
    likelihood ratio (e0 k + j)/(k + e0 j) (j = a, k = c+1-a) depends on j/k only: grouped by it."""
    m = n - 1
    iv = _iv(bits + 64 + 2 * int(math.log2(n + 2)))
    eps0_iv = iv.mpf(eps0)
    e0 = iv.exp(eps0_iv)
    if kind == "fmt21":
        q, one_minus_q = iv.exp(-eps0_iv), -iv.expm1(-eps0_iv)
    else:
        r = iv.exp(-eps0_iv)
        q, one_minus_q = 2 * r / (1 + r), -iv.expm1(-eps0_iv) / (1 + r)
    alpha = e0 / (e0 + 1)
    beta = 1 / (e0 + 1)
    groups: dict[tuple[int, int], list[Any]] = {}
    for c in range(m + 1):
        w = iv.mpf(math.comb(m, c)) * q**c * one_minus_q ** (m - c)
        for a in range(c + 2):
            b_here = Fraction(math.comb(c, a), 2**c) if a <= c else Fraction(0)
            b_prev = Fraction(math.comb(c, a - 1), 2**c) if a >= 1 else Fraction(0)
            bh, bp = iv.mpf(b_here.numerator) / b_here.denominator, iv.mpf(b_prev.numerator) / b_prev.denominator
            p_mass = w * (alpha * bh + beta * bp)
            q_mass = w * (beta * bh + alpha * bp)
            j, k = a, c + 1 - a
            g = math.gcd(j, k)
            key = (j // g, k // g)
            entry = groups.setdefault(key, [iv.mpf(0), iv.mpf(0)])
            entry[0] += p_mass
            entry[1] += q_mass
    return _round_from_groups(iv, e0, groups, bits, lambda key: (e0 * key[1] + key[0]) / (key[1] + e0 * key[0]))


def _round_from_groups(iv: MPIntervalContext, e0: Any, groups: dict[Any, list[Any]], bits: int, ratio: Callable[[Any], Any]) -> _RoundPLD:
    rows = []
    for key, (p_mass, q_mass) in groups.items():
        loss = iv.log(ratio(key))
        rows.append((_fixed(loss, bits), _fixed(p_mass, bits), _fixed(q_mass, bits)))
    rows.sort()
    return _RoundPLD(
        tuple(r[0][0] for r in rows), tuple(r[0][1] for r in rows), tuple(max(r[1][0], 0) for r in rows), tuple(r[1][1] for r in rows),
        tuple(max(r[2][0], 0) for r in rows), tuple(r[2][1] for r in rows), bits,
    )


def _binary_rr_round(eps0: float, n: int, k: int, bits: int) -> _RoundPLD:
    """The exact binary-RR pair (P_k, Q_k) on s in 0..n: P_k(s) = p f(s-1) + (1-p) f(s), Q_k(s) = (1-p) f(s-1) +
    p f(s), f the pmf of Bin(k, p) + Bin(n-1-k, 1-p), p = e^eps0/(e^eps0+1) (shuffle_spec.spec.derived.exact.binary_rr.pair_pmfs)."""
    iv = _iv(bits + 64 + 2 * int(math.log2(n + 2)))
    e0 = iv.exp(iv.mpf(eps0))
    p = e0 / (e0 + 1)
    one_minus_p = 1 / (e0 + 1)
    ones = [iv.mpf(math.comb(k, i)) * p**i * one_minus_p ** (k - i) for i in range(k + 1)]
    zeros = [iv.mpf(math.comb(n - 1 - k, i)) * one_minus_p**i * p ** (n - 1 - k - i) for i in range(n - k)]
    f = [iv.mpf(0)] * n
    for i, x in enumerate(ones):
        for j, y in enumerate(zeros):
            f[i + j] += x * y
    groups: dict[Any, list[Any]] = {}
    for s in range(n + 1):
        here = f[s] if s < n else iv.mpf(0)
        prev = f[s - 1] if s >= 1 else iv.mpf(0)
        p_mass = p * prev + one_minus_p * here
        q_mass = one_minus_p * prev + p * here
        groups[s] = [p_mass, q_mass]
    # The ratio is computed from the masses themselves (all positive: both pmfs have full support 0..n).
    rows = []
    for p_mass, q_mass in groups.values():
        rows.append((_fixed(iv.log(p_mass / q_mass), bits), _fixed(p_mass, bits), _fixed(q_mass, bits)))
    rows.sort()
    return _RoundPLD(
        tuple(r[0][0] for r in rows), tuple(r[0][1] for r in rows), tuple(max(r[1][0], 0) for r in rows), tuple(r[1][1] for r in rows),
        tuple(max(r[2][0], 0) for r in rows), tuple(r[2][1] for r in rows), bits,
    )


@dataclass(frozen=True)
class _Half:
    """Composites of `count` rounds (multisets of per-round groups with multinomial weights)."""

    loss_lo: list[int]
    width: int  # max over composites of loss_hi - loss_lo (units 2^-bits)
    p_lo: list[int]
    p_hi: list[int]
    q_lo: list[int]
    q_hi: list[int]


def _multisets(size: int, count: int) -> int:
    return math.comb(size + count - 1, count) if count > 0 else 1


def _half(pld: _RoundPLD, count: int) -> _Half:
    bits = pld.bits
    rows = []
    size = len(pld.loss_lo)
    for combo in itertools.combinations_with_replacement(range(size), count):
        # multinomial weight: count! / prod(multiplicity!)
        weight = math.factorial(count)
        for _, group in itertools.groupby(combo):
            weight //= math.factorial(len(list(group)))
        l_lo = sum(pld.loss_lo[i] for i in combo)
        l_hi = sum(pld.loss_hi[i] for i in combo)
        p_lo = p_hi = q_lo = q_hi = weight
        shift = 0
        for i in combo:
            p_lo, p_hi = p_lo * pld.p_lo[i], p_hi * pld.p_hi[i]
            q_lo, q_hi = q_lo * pld.q_lo[i], q_hi * pld.q_hi[i]
            shift += bits
        # back to units 2^-bits (products of fixed-point numbers: floor / ceil)
        scale = shift - bits
        if scale > 0:
            p_lo, q_lo = p_lo >> scale, q_lo >> scale
            p_hi, q_hi = _ceil_div(p_hi, 1 << scale), _ceil_div(q_hi, 1 << scale)
        elif scale < 0:  # count == 0: the empty composite, mass 1
            p_lo = p_hi = q_lo = q_hi = weight << bits
        rows.append((l_lo, l_hi - l_lo, p_lo, p_hi, q_lo, q_hi))
    rows.sort()
    return _Half([r[0] for r in rows], max(r[1] for r in rows), [r[2] for r in rows], [r[3] for r in rows], [r[4] for r in rows], [r[5] for r in rows])


class _ComposedSum:
    """delta_T(eps) of the T-fold product of one round's pair (module doc: meet in the middle)."""

    def __init__(self, pld: _RoundPLD, rounds: int):
        self.bits = pld.bits
        left_count = rounds // 2
        self.left = _half(pld, left_count)
        self.right = _half(pld, rounds - left_count)
        r = self.right

        def suffix(values: list[int]) -> list[int]:
            out = [0] * (len(values) + 1)
            for i in range(len(values) - 1, -1, -1):
                out[i] = out[i + 1] + values[i]
            return out

        self.sp_lo, self.sp_hi, self.sq_lo, self.sq_hi = suffix(r.p_lo), suffix(r.p_hi), suffix(r.q_lo), suffix(r.q_hi)
        # Misclassification margin: loss brackets of both halves plus the rounding of eps (module doc).
        self.eta = self.left.width + self.right.width + 2

    def evaluate(self, eps: mpmath.mpf) -> tuple[Fraction, Fraction, Fraction]:
        P = self.bits
        iv = _iv(P + 64)
        x_lo, x_hi = _fixed(iv.exp(iv.mpf(eps)), P)
        eps_fixed = int(mpmath.floor(mpmath.ldexp(eps, P)))
        left, right_loss = self.left, self.right.loss_lo
        a_lo = a_hi = b_lo = b_hi = 0
        for i in range(len(left.loss_lo)):
            j = bisect.bisect_right(right_loss, eps_fixed - left.loss_lo[i])
            a_lo += left.p_lo[i] * self.sp_lo[j]
            a_hi += left.p_hi[i] * self.sp_hi[j]
            b_lo += left.q_lo[i] * self.sq_lo[j]
            b_hi += left.q_hi[i] * self.sq_hi[j]
        # delta = A - x B, units 2^-3P; misclassification changes it by at most 2 eta (total mass <= 1).
        lower = Fraction((a_lo << P) - x_hi * b_hi, 1 << (3 * P)) - Fraction(2 * self.eta, 1 << P)
        upper = Fraction((a_hi << P) - x_lo * b_lo, 1 << (3 * P)) + Fraction(2 * self.eta, 1 << P)
        return max(lower, Fraction(0)), min(upper, Fraction(1)), Fraction(b_lo, 1 << (2 * P))


def round_pld_mp(pair: str, *, eps0: float, n: int, k: int = 0, bits: int = 200) -> _RoundPLD:
    """The per-round PLD of `pair` ("clones", "stronger_clones", "exact_binary_rr" at count k, 0 <= k <= n-1)
    in fixed point with `bits` fractional bits (loss, P mass and Q mass brackets per group of equal loss).
    Supported: 0 < eps0 <= 30, n <= COMPOSED_N_MAX[pair], 16 <= bits <= 4000."""
    check_eps0(eps0, maximum=EPS0_MAX_MP, why=HIGH_PRECISION)
    check_n(n, maximum=COMPOSED_N_MAX.get(pair), why=f"{HIGH_PRECISION} of the pair {pair}")
    require_integer("bits", bits, minimum=16)
    if bits > 4000:
        raise ParameterError("bits", bits, "16 <= bits <= 4000")
    if pair == "exact_binary_rr":
        require_integer("k", k, minimum=0)
        if k > n - 1:
            raise ParameterError("k", k, f"0 <= k <= n-1 = {n - 1}")
    if pair == "clones":
        return _clone_round(float(eps0), int(n), "fmt21", bits)
    if pair == "stronger_clones":
        return _clone_round(float(eps0), int(n), "fmt23", bits)
    if pair == "exact_binary_rr":
        return _binary_rr_round(float(eps0), int(n), int(k), bits)
    raise ParameterError("pair", pair, "'clones', 'stronger_clones' or 'exact_binary_rr'")


def _composed_sizes(pair: str, n: int, rounds: int) -> int:
    groups = n + 1 if pair == "exact_binary_rr" else (n + 1) * (n + 2) // 2  # at most (outcomes)
    return max(_multisets(groups, rounds // 2), _multisets(groups, rounds - rounds // 2))


def binary_rr_counts_mp(n: int) -> tuple[int, ...]:
    """The counts k of compose.exact_binary_rr's maximum (shuffle_spec.spec.derived.compose: 0..(n-1)/2 for n <= 40, else 0, 1, 2);
    n >= 1."""
    require_integer("n", n, minimum=1)
    if n <= 40:
        return tuple(range(0, (n - 1) // 2 + 1))
    return tuple(range(0, min(3, n)))


def _check_composed(pair: str, eps0: float, n: int, delta: float, rounds: int, dps: int) -> int:
    dps = check_dps(dps, low=DPS_RANGE[0], high=DPS_RANGE[1])
    if pair not in COMPOSED_N_MAX:
        raise ParameterError("pair", pair, "'clones', 'stronger_clones' or 'exact_binary_rr'")
    _check_common(eps0, n, delta)
    require_integer("rounds", rounds, minimum=1)
    check_n(n, maximum=COMPOSED_N_MAX[pair], why=f"{HIGH_PRECISION} of the pair {pair}")
    if _composed_sizes(pair, int(n), int(rounds)) > COMPOSED_MAX:
        raise ParameterError("rounds", rounds, f"at most {COMPOSED_MAX} composite losses per half of the rounds at n = {n} ({HIGH_PRECISION})")
    return dps


def _composed_bits(dps: int, delta: float, rounds: int) -> int:
    return int(math.ceil((dps + 14 + _digits_of(delta) + 2 * rounds) * 3.33)) + 32


def composed_delta_bounds_mp(pair: str, *, dps: int, eps0: float, n: int, eps: float, rounds: int, k: int = 0, direction: int = 0) -> tuple[Fraction, Fraction]:
    """Certified [lower, upper] of delta_T(eps) of `pair` composed `rounds` times (one direction, one k for
    exact_binary_rr), by the meet-in-the-middle enumeration (module doc)."""
    dps = _check_composed(pair, eps0, n, 0.5, rounds, dps)
    require_positive("eps", eps, allow_zero=True)
    if direction not in (0, 1):
        raise ParameterError("direction", direction, "0 (P vs Q) or 1 (Q vs P)")
    pld = round_pld_mp(pair, eps0=eps0, n=n, k=k, bits=_composed_bits(dps, 1e-6, int(rounds)))
    if direction == 1:
        pld = pld.swapped()
    composed = _ComposedSum(pld, int(rounds))
    with mpmath.workprec(pld.bits + 64):
        lower, upper, _ = composed.evaluate(mpmath.mpf(eps))
    return lower, upper


def composed_epsilon_mp(pair: str, *, dps: int, eps0: float, n: int, delta: float, rounds: int, seed: Sequence[float] | Callable[[], Sequence[float]]) -> tuple[mpmath.mpf, mpmath.mpf]:
    """compose.<pair>: a certified enclosure (lower, upper) of min{eps >= 0 : delta_T(eps) <= delta} for the
    T = rounds fold product of the pair (for exact_binary_rr the max over binary_rr_counts_mp(n) and both
    directions). `seed` = (lower, upper) of the float reference (starting point; and for exact_binary_rr its
    lower end screens out the pairs whose certified delta at it is already <= delta, which is verified here).
    Supported: at most COMPOSED_MAX composites per half (ValueError outside), 0 < eps0 <= 30."""
    dps = _check_composed(pair, eps0, n, delta, rounds, dps)
    seed = seed() if callable(seed) else seed
    bits = _composed_bits(dps, delta, int(rounds))
    target = Fraction(delta)
    eps_max = float(rounds) * float(eps0)
    if pair != "exact_binary_rr":
        composed = _ComposedSum(round_pld_mp(pair, eps0=eps0, n=n, bits=bits), int(rounds))
        return _newton_then_bracket(composed.evaluate, target, float(seed[1]), eps_max, dps, bits)
    sums = []
    for k in binary_rr_counts_mp(int(n)):
        pld = round_pld_mp(pair, eps0=eps0, n=n, k=k, bits=bits)
        sums.extend([_ComposedSum(pld, int(rounds)), _ComposedSum(pld.swapped(), int(rounds))])
    screen = mpmath.mpf(seed[0]) * (1 - mpmath.mpf(10) ** -6)
    with mpmath.workprec(bits + 64):
        kept = [s for s in sums if not s.evaluate(screen)[1] <= target] if screen > 0 else sums
    ends = [_newton_then_bracket(s.evaluate, target, float(seed[1]), eps_max, dps, bits) for s in (kept or sums)]
    lower, upper = max(e[0] for e in ends), max(e[1] for e in ends)
    if kept and len(kept) < len(sums) and not lower >= screen:
        # The excluded pairs have eps <= screen; they matter only if the max could be below it.
        ends = [_newton_then_bracket(s.evaluate, target, float(seed[1]), eps_max, dps, bits) for s in sums]
        lower, upper = max(e[0] for e in ends), max(e[1] for e in ends)
    return lower, upper
