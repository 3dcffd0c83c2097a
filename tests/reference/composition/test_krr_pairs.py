"""The composed explicit k-RR pairs (reference/composition/krr_pairs.py, explicit_pairs.py): the lower end of
compose.krr.

The exact yardstick: at small n, k and T the pairs' datasets are written out (user 1 at value 0 vs 1; the others
at 0, at 1 for the mirrored round, or at the third value 2), each round's law is the exact law of the full
shuffled histogram (Fractions, every report enumerated), and a T-round pair is the product of the rounds'
laws. The certified lower end must be at most the exact eps of one of these realised T-round pairs: at
alpha = e^lower (rounded up to a rational) the largest exact hockey-stick divergence over them is >= delta.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from shuffle_spec.reference.composition.krr_pairs import krr_pair_finest_step, krr_pair_grids, krr_pair_moments
from shuffle_spec.reference.composition.mechanism_rounds import MechanismRound, compose_krr, composed_lower_epsilon
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.lower_bounds.krr import krr_pair_delta, krr_pair_third_epsilon, krr_pair_x0_epsilon
from shuffle_spec.reference.numerics.pld import compose

SLACK = Fraction(1, 10**9)


def _histogram_law(e0: Fraction, k: int, values: list[int]) -> dict[tuple[int, ...], Fraction]:
    """Exact law of the shuffled histogram of k-RR reports of `values` (each report enumerated)."""
    d = e0 + k - 1
    law: dict[tuple[int, ...], Fraction] = {tuple([0] * k): Fraction(1)}
    for x in values:
        nxt: dict[tuple[int, ...], Fraction] = {}
        for h, p in law.items():
            for y in range(k):
                key = tuple(c + (j == y) for j, c in enumerate(h))
                nxt[key] = nxt.get(key, Fraction(0)) + p * (e0 if y == x else 1) / d
        law = nxt
    return law


def _round_pairs(e0: Fraction, n: int, k: int) -> dict[str, tuple[dict, dict]]:
    """The realising datasets of each round's pair (module doc of explicit_pairs): (law under D, law under D')."""
    return {
        "x0 forward": (_histogram_law(e0, k, [0] + [0] * (n - 1)), _histogram_law(e0, k, [1] + [0] * (n - 1))),
        "x0 backward": (_histogram_law(e0, k, [0] + [1] * (n - 1)), _histogram_law(e0, k, [1] + [1] * (n - 1))),
        "third": (_histogram_law(e0, k, [0] + [2] * (n - 1)), _histogram_law(e0, k, [1] + [2] * (n - 1))),
    }


def _product(laws: list[dict]) -> dict:
    out: dict = {(): Fraction(1)}
    for law in laws:
        out = {key + (y,): v * w for key, v in out.items() for y, w in law.items()}
    return out


def _hockey(p: dict, q: dict, alpha: Fraction) -> Fraction:
    return sum((max(v - alpha * q.get(y, Fraction(0)), Fraction(0)) for y, v in p.items()), Fraction(0))


def _realised_worst(e0: Fraction, n: int, k: int, rounds: int, alpha: Fraction) -> Fraction:
    """The largest exact H_alpha over the realised T-round pairs of the candidates (x0 with a forward rounds
    and rounds - a mirrored ones, for every a; the third pair in every round)."""
    pairs = _round_pairs(e0, n, k)
    choices = [["x0 forward"] * a + ["x0 backward"] * (rounds - a) for a in range(rounds + 1)] + [["third"] * rounds]
    worst = Fraction(0)
    for choice in choices:
        p = _product([pairs[c][0] for c in choice])
        q = _product([pairs[c][1] for c in choice])
        worst = max(worst, _hockey(p, q, alpha))
    return worst


@pytest.mark.parametrize("n, k, rounds", [(3, 3, 1), (3, 3, 2), (2, 4, 3)])
def test_composed_lower_is_below_the_exact_eps_of_a_realised_pair(n, k, rounds):
    """Certified lower end <= the exact eps of a realised T-round pair (module doc) <= the composed upper end."""
    delta = 1e-2
    lower = composed_lower_epsilon([MechanismRound("krr", math.log(3), n, rounds, k)], delta=delta).lower
    assert lower > 0
    above = Fraction(math.exp(lower)) * (1 + SLACK)  # a rational >= e^lower
    assert _realised_worst(Fraction(3), n, k, rounds, above) >= Fraction(delta) * (1 - SLACK)
    upper = compose_krr(eps0=math.log(3), n=n, delta=delta, rounds=rounds, k=k)
    assert upper.lower == pytest.approx(lower, rel=0, abs=0) and lower <= upper.upper


@pytest.mark.parametrize("pair", ["x0", "third"])
def test_grid_delta_is_below_the_exact_delta_of_the_pair_and_close_to_it(pair):
    """One round at n = 4, k = 3: the optimistic grid's delta(eps) <= the exact one of the full histograms
    (both directions), and within the grid's rounding of it (a fine grid: could fail if masses went missing)."""
    n, k, e0 = 4, 3, Fraction(3)
    pairs = _round_pairs(e0, n, k)
    p, q = pairs["x0 forward"] if pair == "x0" else pairs["third"]
    step = krr_pair_finest_step(pair, eps0=math.log(3), n=n, k=k)
    forward, backward = krr_pair_grids(pair, eps0=math.log(3), n=n, k=k, step=step, tail=0.0)
    for grid, (a, b) in ((forward, (p, q)), (backward, (q, p))):
        composed = compose([grid], [1], tail=1e-15)
        for eps in (0.0, 0.05, 0.2, 0.5, 1.0):
            exact = float(_hockey(a, b, Fraction(math.exp(eps)) * (1 - SLACK)))
            assert composed.delta(eps) <= exact * (1 + 1e-9) + 1e-15
            assert composed.delta(eps) >= exact - 1e-3


@pytest.mark.slow
def test_one_round_reproduces_the_single_round_pair_values():
    """T = 1: the composed lower end is within 1% of the single-round pairs' certified eps
    (exact.krr_pair_third / exact.krr_pair_x0, a different engine: lattice sums), and not above the pairs'
    exact eps: the pairs' certified delta at the composed value is still >= delta."""
    eps0, n, k, delta = 1.0, 1000, 5, 1e-6
    composed = composed_lower_epsilon([MechanismRound("krr", eps0, n, 1, k)], delta=delta).lower
    single = max(krr_pair_third_epsilon(eps0=eps0, n=n, delta=delta, k=k).lower, krr_pair_x0_epsilon(eps0=eps0, n=n, delta=delta, k=k).lower)
    assert composed >= 0.99 * single
    at = max(krr_pair_delta(eps0=eps0, n=n, k=k, eps=composed, pair=pair, delta_hint=delta).upper for pair in ("third", "x0"))
    assert at >= delta


def test_moments_are_those_of_a_privacy_loss():
    """KL = E[L] >= 0 and, for these small losses, E[L] ~ Var[L]/2 (E[e^-L] = 1); a float property of the law."""
    mean, var = krr_pair_moments("x0", eps0=0.5, n=10**4, k=10)
    assert mean > 0 and var > 0
    assert mean == pytest.approx(var / 2, rel=0.05)


def test_coarser_grids_only_lower_delta():
    """A step twice as coarse (bins merged, losses rounded further down): delta never grows."""
    step = krr_pair_finest_step("third", eps0=1.0, n=200, k=4)
    fine = compose([krr_pair_grids("third", eps0=1.0, n=200, k=4, step=step, tail=1e-12)[0]], [3], tail=1e-12)
    coarse = compose([krr_pair_grids("third", eps0=1.0, n=200, k=4, step=4 * step, tail=1e-12)[0]], [3], tail=1e-12)
    for eps in np.linspace(0.0, 0.6, 7):
        assert coarse.delta(float(eps)) <= fine.delta(float(eps)) + 1e-15


def test_grids_refuse_a_step_that_is_not_a_power_of_two_multiple():
    step = krr_pair_finest_step("x0", eps0=1.0, n=100, k=3)
    with pytest.raises(ParameterError, match="step"):
        krr_pair_grids("x0", eps0=1.0, n=100, k=3, step=3 * step, tail=0.0)


@pytest.mark.slow
@pytest.mark.parametrize("pair", ["x0", "third"])
def test_one_round_grid_agrees_with_the_lattice_sum_engine(pair):
    """One round at n = 1e4, k = 100, eps0 = 4: the grid's delta(eps) (both directions) lies below the certified
    upper end of the same pair's delta by the lattice sums (reference.lower_bounds.krr, an independent engine) and
    within 1e-3 of its lower end (the grid's rounding and the dropped cells cost less)."""
    eps0, n, k = 4.0, 10**4, 100
    step = krr_pair_finest_step(pair, eps0=eps0, n=n, k=k)
    forward, backward = krr_pair_grids(pair, eps0=eps0, n=n, k=k, step=step, tail=1e-15)
    composed = [compose([grid], [1], tail=1e-18) for grid in (forward, backward)]
    for eps in (0.02, 0.1):
        mine = max(c.delta(eps) for c in composed)
        lattice = krr_pair_delta(eps0=eps0, n=n, k=k, eps=eps, pair=pair, delta_hint=1e-12)
        assert lattice.lower * (1 - 1e-3) <= mine <= lattice.upper


# ---------------------------------------------------------------------------------------------------
# The binned pair (count_pairs.krr_count_pair): user 1 at x0 vs x1, the others at x1, reports merged into {x0} and
# the rest; compose.krr's candidate where both trinomial pairs exceed their cell budget (n = 1e7 at eps0 = 2, k = 10).


def _binned(law: dict[tuple[int, ...], Fraction]) -> dict[int, Fraction]:
    """The law of the count of x0 (value 0) in a histogram law: the binned pair's output."""
    out: dict[int, Fraction] = {}
    for h, v in law.items():
        out[h[0]] = out.get(h[0], Fraction(0)) + v
    return out


@pytest.fixture
def binned_only(monkeypatch):
    """compose.krr's candidates as beyond the trinomial cell budget (the binned pair alone), at any n."""
    from shuffle_spec.reference.composition import explicit_pairs

    monkeypatch.setattr(explicit_pairs, "KRR_MAX_CELLS", -1)
    options = explicit_pairs._options
    monkeypatch.setattr(explicit_pairs, "_options", lambda g: [o for o in options(g) if o.pair != "third"])


@pytest.mark.parametrize("n, k, rounds", [(3, 3, 2), pytest.param(2, 4, 3, marks=pytest.mark.slow)])
def test_binned_pair_composed_lower_is_below_the_exact_eps_of_its_realised_pair(binned_only, n, k, rounds):
    """Certified lower end <= the exact eps of the realised T-round pair (user 1 at 0 vs 1, the others at 1; a
    forward rounds and rounds - a mirrored ones, full histograms, every a) <= the composed upper end."""
    delta = 1e-2
    value = composed_lower_epsilon([MechanismRound("krr", math.log(3), n, rounds, k)], delta=delta)
    lower = value.lower
    assert lower > 0 and "merged into {x0} and the rest" in value.note, value.note
    p, q = _round_pairs(Fraction(3), n, k)["x0 backward"]
    above = Fraction(math.exp(lower)) * (1 + SLACK)
    worst = max(_hockey(_product([p] * a + [q] * (rounds - a)), _product([q] * a + [p] * (rounds - a)), above) for a in range(rounds + 1))
    assert worst >= Fraction(delta) * (1 - SLACK)
    assert lower <= compose_krr(eps0=math.log(3), n=n, delta=delta, rounds=rounds, k=k).upper


def test_binned_pair_delta_is_below_the_exact_binned_delta_and_close_to_it(binned_only):
    """lower_delta of the binned pair (n = 4, k = 3, T = 3) <= the exact delta of its binned laws composed (the count
    of x0 in each round, a forward rounds for a in the candidates' mixes 3, 2, 0) and >= 0.99 of it (teeth)."""
    from shuffle_spec.reference.composition.explicit_pairs import Group, lower_delta

    n, k, rounds = 4, 3, 3
    p, q = (_binned(law) for law in _round_pairs(Fraction(3), n, k)["x0 backward"])
    for eps in (0.0, 0.3, 0.6):
        low, which = lower_delta([Group("krr", math.log(3), n, rounds, k)], eps=eps, delta_hint=1e-3)
        alpha = Fraction(math.exp(eps)) * (1 - SLACK)
        exact = max(float(_hockey(_product([p] * a + [q] * (rounds - a)), _product([q] * a + [p] * (rounds - a)), alpha)) for a in (3, 2, 0))
        assert "merged into {x0}" in which
        assert low <= exact * (1 + 1e-9), (eps, low, exact)
        assert low >= 0.99 * exact, (eps, low, exact)


def test_binned_pair_at_n_1e4_is_below_an_independent_pessimistic_composition(binned_only):
    """eps0 = 2, k = 10, n = 1e4, T = 10: the certified lower end of delta(eps) <= an independent upper estimate of the
    binned pair's exact composed delta, the largest over the candidates' direction mixes (the binomial pmf from
    log Gamma, losses rounded UP to a 1e-5 grid, the T-fold convolution by one numpy FFT: the pessimistic side), and
    >= 0.97 of it (teeth)."""
    from shuffle_spec.reference.composition.explicit_pairs import Group, lower_delta

    eps0, k, n, rounds = 2.0, 10, 10**4, 10
    e0 = math.exp(eps0)
    d = e0 + k - 1
    s = np.arange(n + 1)
    log_pmf = np.array([math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1) for j in range(n + 1)])
    w = np.exp(log_pmf + s * math.log(1 / d) + (n - s) * math.log1p(-1 / d))  # the count S of x0 among n reports of x1
    kept = w > 1e-30  # the counts beyond: their mass (at most `dropped` a round) is added to the estimate
    dropped = 2 * float(np.sum(w[~kept] * np.maximum(e0 * s[~kept], n) / n)) + 1e-300
    s, w = s[kept], w[kept]
    g_x0, g_x1 = e0 * s + (d - e0) / (d - 1) * (n - s), s + (n - s)  # g_x(s) = sum_y mu_x(y) h_y / mu_z(y)
    step = 1e-5
    spectra, index_pairs = [], []
    for g, g2 in ((g_x0, g_x1), (g_x1, g_x0)):  # x0 vs x1, and the mirrored round
        index = np.ceil((np.log(g) - np.log(g2)) / step).astype(np.int64)  # rounded up: the exact delta is at most this one's
        index_pairs.append((index, w * g / n))
    low_index = min(int(i.min()) for i, _ in index_pairs)
    width = max(int(i.max()) for i, _ in index_pairs) - low_index + 1
    size = 1 << int(math.ceil(math.log2(rounds * width + 1)))  # no wrap-around
    for index, mass in index_pairs:
        spectra.append(np.fft.rfft(np.bincount(index - low_index, weights=mass, minlength=width), size))
    values = (rounds * low_index + np.arange(size)) * step
    mixes = [np.maximum(np.fft.irfft(spectra[0] ** a * spectra[1] ** (rounds - a), size), 0.0) for a in (rounds, rounds // 2, 0)]
    for eps in (0.05, 0.1, 0.15):
        estimate = max(float(np.sum(c * np.maximum(1 - np.exp(eps - values), 0.0))) for c in mixes) * (1 + 1e-9) + 1e-13 + rounds * dropped
        low, _ = lower_delta([Group("krr", eps0, n, rounds, k)], eps=eps, delta_hint=1e-6)
        assert 0.97 * estimate <= low <= estimate, (eps, low, estimate)


@pytest.mark.slow  # compose.krr's envelope at n = 1e7 (about a minute) and the blocked pair's composition
def test_compose_krr_at_n_1e7_has_a_composed_lower_end_above_one_round():
    """eps0 = 2, k = 10, n = 1e7, T = 365 (docs/composition.md's worked example): both trinomial pairs exceed their
    cell budget, the third pair in diagonal blocks answers, above one round's certified lower bound, below the
    composed upper end and within 1.05 of it."""
    value = compose_krr(eps0=2.0, n=10**7, delta=1e-6, rounds=365, k=10)
    one = krr_pair_third_epsilon(eps0=2.0, n=10**7, delta=1e-6, k=10).lower
    assert one < value.lower <= value.upper <= 1.05 * value.lower
    lower = composed_lower_epsilon([MechanismRound("krr", 2.0, 10**7, 365, 10)], delta=1e-6)
    assert lower.lower == value.lower and "diagonal blocks" in lower.note


# ---------------------------------------------------------------------------------------------------
# The third pair in diagonal blocks (krr_pairs, stride > 1): the counts (A + j, B + j, R - 2j), j < stride, from a
# block start row B = stride i merged into one output; compose.krr's candidate beyond the cell budget.


def _blocked(law: dict[tuple[int, ...], Fraction], stride: int) -> dict[object, Fraction]:
    """The law of the blocked output of a histogram law at tiny n, where every count's window is the whole range
    0..n (mean +- 9 sd covers it): the cell (A, B) is in the block of start (A - j, B - j), j = B mod stride, kept
    where A - j >= 0 (the row's window), else merged into one dropped symbol."""
    out: dict[object, Fraction] = {}
    for h, v in law.items():
        a, b = h[0], h[1]
        key: object = (a - b, b // stride) if a >= b % stride else "dropped"
        out[key] = out.get(key, Fraction(0)) + v
    return out


def _kept_hockey(p: dict, q: dict, alpha: Fraction) -> Fraction:
    return sum((max(v - alpha * q.get(y, Fraction(0)), Fraction(0)) for y, v in p.items() if "dropped" not in y), Fraction(0))


def _block_bound_mass(n: int, k: int, e0: Fraction, stride: int) -> mpmath.mpf:
    """The forward mass the blocked grid must carry, from the bounds of the module doc of krr_pairs at 50 digits:
    per block start (A, B) (B = stride i, every A), the larger of W(A, B) sum_{j <= last} r^j (the tangent: r the
    block's last diagonal ratio W(A+i+1, B+i+1)/W(A+i, B+i), i = last - 1) and, where the next block's start
    (A + w, B + w) exists, sum_{j < w} W(A, B)^(1 - j/w) W(A+w, B+w)^(j/w) (the chord); times the smaller of
    g_x0 = e0 A + B + gam R at the block's two ends, over n (W: the multinomial pmf, pi = (1, 1, D - 2)/D)."""
    d = e0 + k - 1
    pi_a = pi_b = 1 / d
    pi_r = (d - 2) / d
    gam = Fraction(k - 2) / (e0 + k - 3)

    def pmf(a: int, b: int) -> Fraction:
        r = n - a - b
        return Fraction(math.factorial(n), math.factorial(a) * math.factorial(b) * math.factorial(r)) * pi_a**a * pi_b**b * pi_r**r

    with mpmath.workdps(50):
        total = mpmath.mpf(0)
        for b in range(0, n + 1, stride):
            for a in range(0, n - b + 1):
                r = n - a - b
                w = pmf(a, b)
                last = min(stride - 1, r // 2)
                ratio = Fraction(1)
                if last >= 1:
                    i = last - 1
                    ratio = Fraction((r - 2 * i) * (r - 2 * i - 1), (a + i + 1) * (b + i + 1)) * (pi_a / pi_r) * (pi_b / pi_r)
                block = _mp(w * sum(ratio**j for j in range(last + 1)))
                if r >= 2 * stride:
                    ahead = _mp(pmf(a + stride, b + stride))
                    block = max(block, mpmath.fsum(_mp(w) ** (1 - mpmath.mpf(j) / stride) * ahead ** (mpmath.mpf(j) / stride) for j in range(stride)))
                g = min(e0 * (a + j) + (b + j) + gam * (r - 2 * j) for j in (0, last))
                total += block * _mp(g) / n
        return total


def _mp(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


@pytest.mark.parametrize("stride", [2, 3])
def test_blocked_grid_delta_is_below_the_exact_blocked_delta_and_carries_the_bound_mass(stride):
    """n = 5, k = 3, the third pair in blocks, one and two rounds: the optimistic grid's delta(eps) <= the exact
    delta of the blocked laws (every histogram enumerated, Fractions; the dropped cells one more output) <= the
    unblocked pair's; and the grid's mass is the block bounds of the module doc computed at 50 digits (to 1e-9:
    the certified lower ends' margins), which is at most the blocked laws' kept mass."""
    n, k, e0 = 5, 3, Fraction(3)
    p, q = _round_pairs(e0, n, k)["third"]
    bp, bq = _blocked(p, stride), _blocked(q, stride)
    step = krr_pair_finest_step("third", eps0=math.log(3), n=n, k=k, stride=stride)
    forward, _ = krr_pair_grids("third", eps0=math.log(3), n=n, k=k, step=step, tail=0.0, stride=stride)
    bound = _block_bound_mass(n, k, e0, stride)
    assert bound <= _mp(sum((v for y, v in bp.items() if y != "dropped"), Fraction(0)))
    assert float(bound) * (1 - 1e-9) <= float(forward.masses.sum()) <= float(bound)
    for rounds in (1, 2):
        composed = compose([forward], [rounds], tail=1e-15)
        blocked_p, blocked_q = _product([bp] * rounds), _product([bq] * rounds)
        whole_p, whole_q = _product([p] * rounds), _product([q] * rounds)
        for eps in (0.0, 0.1, 0.3, 0.6):
            alpha = Fraction(math.exp(eps)) * (1 - SLACK)
            exact_blocked = _hockey(blocked_p, blocked_q, alpha)
            assert composed.delta(eps) <= float(exact_blocked) * (1 + 1e-9) + 1e-15
            assert exact_blocked <= _hockey(whole_p, whole_q, alpha)


def test_blocked_pair_composed_delta_is_below_the_unblocked_one_and_close_to_it():
    """eps0 = 2, k = 10, n = 1e4, T = 20 (both fit): the blocked third pair's composed optimistic delta(eps) <= the
    unblocked pair's on the same grid (merging cells is a post-processing; the block's loss is its smallest end's,
    its mass a lower end of the sum), and >= 0.98 of it at stride 2 (the block bound loses kappa w^2 / 3 of a
    round's mass, kappa ~ 2D/n the curvature of log W along the diagonal: about 2e-3 here)."""
    eps0, n, k, rounds = 2.0, 10**4, 10, 20
    steps = [krr_pair_finest_step("third", eps0=eps0, n=n, k=k, stride=s) for s in (1, 2, 4)]
    step = max(steps) * 4
    composed = {}
    for stride in (1, 2, 4):
        forward, _ = krr_pair_grids("third", eps0=eps0, n=n, k=k, step=step, tail=1e-15, stride=stride)
        composed[stride] = compose([forward], [rounds], tail=1e-14)
    for eps in np.linspace(0.0, 0.5, 6):
        whole = composed[1].delta(float(eps))
        for stride in (2, 4):
            assert composed[stride].delta(float(eps)) <= whole * (1 + 1e-9) + 1e-15
        assert composed[2].delta(float(eps)) >= 0.98 * whole
        assert composed[4].delta(float(eps)) <= composed[2].delta(float(eps)) * (1 + 1e-9) + 1e-15


@pytest.fixture
def blocked_only(monkeypatch):
    """compose.krr's candidates as beyond the trinomial cell budget, the third pair in blocks of 2 alone, at any n."""
    from shuffle_spec.reference.composition import explicit_pairs

    monkeypatch.setattr(explicit_pairs, "KRR_MAX_CELLS", -1)
    monkeypatch.setattr(explicit_pairs, "krr_pair_stride", lambda *args, **kwargs: 2)
    options = explicit_pairs._options
    monkeypatch.setattr(explicit_pairs, "_options", lambda g: [o for o in options(g) if o.pair == "third"])


@pytest.mark.parametrize("n, k, rounds", [(3, 3, 2), (4, 3, 3)])
def test_blocked_pair_composed_lower_is_below_the_exact_eps_of_its_realised_pair(blocked_only, n, k, rounds):
    """Certified lower end (the blocked third pair alone) <= the exact eps of the realised T-round pair (user 1 at
    0 vs 1, the others at 2, full histograms) <= the composed upper end."""
    delta = 1e-2
    value = composed_lower_epsilon([MechanismRound("krr", math.log(3), n, rounds, k)], delta=delta)
    assert value.lower > 0 and "diagonal blocks of 2" in value.note, value.note
    p, q = _round_pairs(Fraction(3), n, k)["third"]
    above = Fraction(math.exp(value.lower)) * (1 + SLACK)
    assert _hockey(_product([p] * rounds), _product([q] * rounds), above) >= Fraction(delta) * (1 - SLACK)
    assert value.lower <= compose_krr(eps0=math.log(3), n=n, delta=delta, rounds=rounds, k=k).upper


def test_the_stride_is_one_where_the_pair_fits_and_fits_the_block_budget_beyond():
    """krr_pair_stride: 1 where the window fits MAX_CELLS (every cell, today's numbers); beyond, the smallest block
    length whose block starts fit BLOCK_CELLS (counted only: no cell is evaluated here)."""
    from shuffle_spec.reference.composition.krr_pairs import BLOCK_CELLS, MAX_CELLS, krr_pair_cells, krr_pair_stride

    assert krr_pair_stride("third", eps0=2.0, n=10**6, k=10) == 1
    for eps0, n in ((2.0, 10**8),):
        assert krr_pair_cells("third", eps0=eps0, n=n, k=10) > MAX_CELLS
        stride = krr_pair_stride("third", eps0=eps0, n=n, k=10)
        assert krr_pair_cells("third", eps0=eps0, n=n, k=10, stride=stride) <= BLOCK_CELLS
        assert krr_pair_cells("third", eps0=eps0, n=n, k=10, stride=stride - 1) > BLOCK_CELLS
    with pytest.raises(ParameterError, match="stride"):
        krr_pair_grids("third", eps0=1.0, n=100, k=3, step=1.0, tail=0.0, stride=0)
