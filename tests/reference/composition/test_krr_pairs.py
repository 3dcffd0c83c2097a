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


@pytest.mark.slow  # compose.krr's envelope at n = 1e7 (about a minute) and the binned pair's composition
def test_compose_krr_at_n_1e7_has_a_composed_lower_end_above_one_round():
    """eps0 = 2, k = 10, n = 1e7, T = 365 (docs/composition.md's worked example): both trinomial pairs exceed their
    cell budget, the binned pair answers, above one round's certified lower bound and below the composed upper end."""
    value = compose_krr(eps0=2.0, n=10**7, delta=1e-6, rounds=365, k=10)
    one = krr_pair_third_epsilon(eps0=2.0, n=10**7, delta=1e-6, k=10).lower
    assert one < value.lower <= value.upper
    lower = composed_lower_epsilon([MechanismRound("krr", 2.0, 10**7, 365, 10)], delta=1e-6)
    assert lower.lower == value.lower and "merged into {x0}" in lower.note
