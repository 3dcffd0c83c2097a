"""The piecewise mechanism (Wang et al., ICDE 2019, Sec. III-B) after shuffling: its certified upper bound (the
closed-form blanket, BBGN19 Lemma 5.3) and its certified lower bound (an explicit pair, reports coarsened to three
cells) against exact values.

What is exact here. The mechanism's output is continuous, so its shuffled epsilon is not enumerable; what is:
(a) the exact worst case over all neighbouring datasets of a FINITE coarsening (inputs on a grid, reports
coarsened to the cells of a fixed partition): a post-processing of the mechanism restricted to those inputs, so a
LOWER bound on the truth, which the certified upper bound must exceed; (b) the exact worst case of the lower bound's
own coarsening (inputs -1, 1, 0, three cells), which the certified lower bound must not exceed; (c)
Lemma 5.3's delta itself, computed in Fractions, which the certified interval must contain."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from shuffle_spec import certify
from shuffle_spec.reference.finite.randomizers import Randomizer
from shuffle_spec.reference.finite.shuffling import exact_shuffled_e_eps
from shuffle_spec.reference.lower_bounds.piecewise import partition_pair_epsilon
from shuffle_spec.reference.randomizers import RANDOMIZERS, piecewise, randomizer_bounds
from shuffle_spec.reference.randomizers.common import eps0_rounded_up
from shuffle_spec.reference.randomizers.structured import structured_blanket_delta, structured_blanket_epsilon

F = Fraction
INPUTS = [F(-1), F(-1, 3), F(0), F(1)]


def _tau(m: piecewise.PiecewiseMechanism) -> Fraction:
    return (m.c - 1) / 2 if m.h < 2 else F(1)


def _fine(m: piecewise.PiecewiseMechanism) -> Randomizer:
    """Inputs on a grid, reports coarsened to cells cut at +-tau, 0, 1/2 (a refinement of the lower bound's cells)."""
    tau = _tau(m)
    cuts = sorted({-tau, F(0), F(1, 2), tau})
    return Randomizer.from_matrix([m.cell_probabilities(t, cuts) for t in INPUTS])


def _coarse(m: piecewise.PiecewiseMechanism) -> Randomizer:
    """The lower bound's coarsening: inputs -1, 1, 0, reports cut at +-tau (three cells)."""
    tau = _tau(m)
    return Randomizer.from_matrix([m.cell_probabilities(t, [-tau, tau]) for t in (F(-1), F(1), F(0))])


@pytest.mark.parametrize("h, n, delta", [(F(2), 3, F(1, 10)), (F(3, 2), 3, F(1, 20)), (F(3), 3, F(1, 50))])
def test_certified_ends_bracket_the_exact_values_of_coarsenings(h, n, delta):
    # lower <= exact(coarse, worst case) <= exact(fine, worst case) <= upper: each exact value is the worst case of
    # a post-processing of the mechanism restricted to some inputs (so below the truth), the fine partition refines
    # the coarse one and its inputs contain -1, 0, 1. The lower bound is the best of the coarse randomizer's pairs
    # (every role of -1, 1, 0), so it is compared with the coarse worst case.
    m = piecewise.PiecewiseMechanism(h)
    upper = structured_blanket_epsilon(m.replace_pairs(), n=n, delta=float(delta), eps0=eps0_rounded_up(m.e0))
    tau = _tau(m)
    lower = partition_pair_epsilon(rows=[m.cell_probabilities(t, [-tau, tau]) for t in (F(-1), F(1), F(0))], n=n, delta=float(delta))
    coarse = math.log(exact_shuffled_e_eps(_coarse(m), n, delta))
    fine = math.log(exact_shuffled_e_eps(_fine(m), n, delta))
    assert lower.lower <= coarse <= fine * (1 + 1e-12)
    assert fine <= upper.upper
    # Not vacuous: the upper bound is below eps0 and within 10% of the fine coarsening at these points.
    assert upper.upper < math.log(m.e0) and upper.upper <= 1.1 * fine


def _lemma53_delta(h: Fraction, e: Fraction, n: int) -> Fraction:
    """Lemma 5.3's delta for the pair (-1, 1) in Fractions: (1/n) E[(Z_1 + ... + Z_n)_+], Z = h B L with values
    e0 - e, 1 - e, 1 - e e0, 0 and probabilities u, v, u, 1 - 2u - v (u = 1/(h(h+1)), v = (h-1)/(h(h+1)))."""
    u, v = 1 / (h * (h + 1)), (h - 1) / (h * (h + 1))
    law = [(h * h - e, u), (1 - e, v), (1 - e * h * h, u), (F(0), 1 - 2 * u - v)]
    total = F(0)
    for counts in itertools.product(range(n + 1), repeat=3):
        if sum(counts) > n:
            continue
        rest = n - sum(counts)
        weight = F(math.factorial(n), math.prod(math.factorial(c) for c in (*counts, rest)))
        weight *= math.prod((law[i][1] ** counts[i] for i in range(3)), start=F(1)) * law[3][1] ** rest
        total += weight * max(F(0), sum(law[i][0] * counts[i] for i in range(3)))
    return total / n


@pytest.mark.parametrize("h, n, eps", [(F(2), 5, 0.4), (F(3, 2), 6, 0.2), (F(5), 4, 1.5)])
def test_certified_interval_contains_lemma_53_in_fractions(h, n, eps):
    value = structured_blanket_delta(piecewise.PiecewiseMechanism(h).replace_pairs(), n=n, eps=eps, delta_hint=1e-3)
    exact = float(_lemma53_delta(h, F(math.exp(eps)), n))  # e^eps as the float's exact rational: within 1 ulp
    assert value.lower * (1 - 1e-12) <= exact <= value.upper * (1 + 1e-12)
    assert exact > 0


def test_public_bounds_at_a_float_eps0_bracket_the_exact_values_at_its_rational_h():
    # eps0 = 2 log 2 as a double: e^(eps0/2) is 2 to 16 digits; the exact values at h = 2 move by ~1e-16 relative.
    eps0, n, delta = 2 * math.log(2), 3, F(1, 10)
    m = piecewise.PiecewiseMechanism(F(2))
    upper = piecewise.piecewise_epsilon_upper(eps0=eps0, n=n, delta=float(delta))
    lower = piecewise.piecewise_epsilon_lower(eps0=eps0, n=n, delta=float(delta))
    assert upper.direction == "upper_bound" and lower.direction == "lower_bound"
    assert math.log(exact_shuffled_e_eps(_fine(m), n, delta)) <= upper.value * (1 + 1e-9)
    assert lower.value <= math.log(exact_shuffled_e_eps(_coarse(m), n, delta)) * (1 + 1e-9)


def test_public_lower_bound_below_h_2_is_below_the_exact_values_of_both_coarsenings():
    # eps0 = 2 log(3/2): h = 3/2 < 2, both coarsenings are tried (adaptive cells with -1, 1, 0; unit cells with
    # -1, 1); the certified lower end is below the larger exact worst case of the two.
    eps0, n, delta = 2 * math.log(1.5), 3, F(1, 20)
    m = piecewise.PiecewiseMechanism(F(3, 2))
    unit = Randomizer.from_matrix([m.cell_probabilities(t, [F(-1), F(1)]) for t in (F(-1), F(1))])
    exact = max(exact_shuffled_e_eps(_coarse(m), n, delta), exact_shuffled_e_eps(unit, n, delta))
    lower = piecewise.piecewise_epsilon_lower(eps0=eps0, n=n, delta=float(delta))
    assert 0 < lower.value <= math.log(exact) * (1 + 1e-9)


def test_rounded_rows_are_a_post_processing_of_the_true_cell_laws():
    # The rounding channel mixes every cell with one fixed law pi with probability t: rows' = (1 - t) rows + t pi.
    # At a rational h the true rows are exact; pi recovered from rows' and t must be one probability vector for
    # all three inputs, with non-negative entries. (eps0 such that e^(eps0/2) is the double nearest 3.)
    eps0 = 2 * math.log(3.0)
    rows2 = piecewise.partition_rows(eps0)
    h = F(math.exp(eps0 / 2))
    m = piecewise.PiecewiseMechanism(h)
    true = [m.cell_probabilities(t, [F(-1), F(1)]) for t in (F(-1), F(1), F(0))]
    kappa, kappa2 = true[0][0] - true[2][0], rows2[0][0] - rows2[2][0]
    t = 1 - kappa2 / kappa
    assert 0 < t < F(1, 10**8)
    mixed = [[(a - (1 - t) * b) / t for a, b in zip(r2, r, strict=True)] for r2, r in zip(rows2, true, strict=True)]
    assert mixed[0] == mixed[1] == mixed[2] and all(x >= 0 for x in mixed[0]) and sum(mixed[0]) == 1


def test_monotone_in_n_and_delta_and_upper_above_lower():
    grid = {(n, d): randomizer_bounds("piecewise", eps0=1.5, n=n, delta=d) for n, d in ((5, 1e-2), (20, 1e-2), (5, 1e-3))}
    for (n, d), (upper, lower) in grid.items():
        assert 0 < lower.value <= upper.value < 1.5, (n, d)
    # Points far apart (the solver's tolerance is 1e-3 relative): the bounds fall with n and with delta.
    for side in (0, 1):
        assert grid[(20, 1e-2)][side].value < grid[(5, 1e-2)][side].value < grid[(5, 1e-3)][side].value


def test_front_door_reports_the_mechanisms_own_bounds():
    entry = RANDOMIZERS["piecewise"]
    assert entry.parameters == () and entry.relation == "replace-one"
    result = certify("piecewise", eps0=1.5, n=5, delta=1e-3)
    upper, lower = randomizer_bounds("piecewise", eps0=1.5, n=5, delta=1e-3)
    assert result.lower == float(lower.lower) and result.lower_id == "exact.piecewise_partition_pair"
    assert result.value <= float(upper.upper) and result.neighbouring == "replace-one"


@pytest.mark.slow
@pytest.mark.parametrize("eps0", [0.5, 2.0, 8.0])
def test_gap_at_n_1e3(eps0):
    upper, lower = randomizer_bounds("piecewise", eps0=eps0, n=10**3, delta=1e-6)
    assert 0 < lower.value <= upper.value <= 1.3 * lower.value
