"""A certified search whose first aimed evaluation lands below the root is aimed again from what it found
(`solve_certified_epsilon`'s `reaim`, `structured.rescaled_aim`), and the aims are rounded up (`structured.aim_above`):
the returned end is still an evaluated point whose certified delta is <= delta, the corrected aim settles the upper end
in two evaluations where the first aim was low, and nothing changes where it was not."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

import shuffle_spec.reference.randomizers.structured as structured
from shuffle_spec.reference.bounds.blanket_exact_randomizer import saddle_blanket_delta
from shuffle_spec.reference.numerics.solver import solve_certified_epsilon
from shuffle_spec.reference.randomizers import subset_selection

DELTA, EPS0, TOL = 1e-6, 2.0, 1e-3
SCALE = 0.05
ROOT = SCALE * math.sqrt(math.log(1 / DELTA))  # delta(eps) = exp(-(eps / SCALE)^2) crosses DELTA here


def _search(guess: float, *, reaim=None, tight: str = "upper") -> tuple[tuple[float, float, bool], list[float]]:
    seen: list[float] = []

    def bounds(eps: float) -> tuple[float, float]:
        seen.append(eps)
        value = math.exp(-((eps / SCALE) ** 2)) if eps < EPS0 else 0.0
        return value * (1 - 1e-9), value  # a certified bracket of width 1e-9 relative

    return solve_certified_epsilon(bounds, eps0=EPS0, delta=DELTA, rel_tol=TOL, tight=tight, guess=guess, reaim=reaim), seen


def test_a_low_first_aim_is_corrected_and_settles_in_two_evaluations():
    low = ROOT / 1.004  # the estimate 0.4% below the root, as the FFT path's at n = 1e6
    calls: list[tuple[float, float]] = []

    def reaim(x: float, upper: float) -> float:
        calls.append((x, upper))
        return ROOT * (1 + 1e-4)

    (_, upper, found), seen = _search(low, reaim=reaim)
    assert found and math.exp(-((upper / SCALE) ** 2)) <= DELTA  # an evaluated point where delta <= DELTA
    assert seen[1:] == [low * (1 + TOL / 4), ROOT * (1 + 1e-4) * (1 + TOL / 4)]  # eps0 first, then two aims
    assert len(calls) == 1 and calls[0][1] > DELTA
    assert upper <= ROOT * (1 + TOL)
    # Without the correction the second aim goes below the estimate: a third evaluation is needed.
    (_, upper_plain, _), seen_plain = _search(low)
    assert len(seen_plain) == 4 and seen_plain[2] == low * (1 - TOL / 4)
    assert math.exp(-((upper_plain / SCALE) ** 2)) <= DELTA


def test_the_correction_is_not_asked_for_where_the_first_aim_is_certified_or_both_ends_are_wanted():
    def never(x: float, upper: float) -> float:
        raise AssertionError("reaim called")

    high = ROOT * 1.0001
    assert _search(high, reaim=never) == _search(high)  # the first aim is certified: the same search
    low = ROOT / 1.004
    assert _search(low, reaim=never, tight="both") == _search(low, tight="both")


@pytest.mark.parametrize("answer", [None, math.nan, ROOT / 1.01, 3.0])
def test_an_unusable_correction_leaves_the_search_as_it_was(answer):
    # None, nan, an aim below the first evaluated point, or at or above eps0: the former second aim.
    low = ROOT / 1.004
    assert _search(low, reaim=lambda x, upper: answer) == _search(low)


def test_aim_above_rounds_the_biased_estimate_up_to_thirty_bits():
    for root in (1e-9, 0.0228803974572657, 0.1, 1 / 3, 7.5):
        aim = structured.aim_above(root)
        biased = root * (1 + structured.GUESS_BIAS)
        assert biased <= aim <= biased * (1 + 2.0**-29)
        mantissa, exponent = math.frexp(aim)
        assert mantissa * 2**structured.AIM_BITS == int(mantissa * 2**structured.AIM_BITS)  # at most 30 bits
        assert structured.aim_above(root * (1 + 1e-13)) in (aim, math.ldexp(mantissa + 2.0**-structured.AIM_BITS, exponent))


def test_rescaled_aim_is_where_the_scaled_estimate_crosses_delta():
    # Subset selection d = 1e3, eps0 = 1, n = 1e4: a certified delta 5% above the estimate at x puts the aim where
    # the estimate is delta / 1.05 (the aim_above of that root).
    pair = subset_selection.subset_selection(1.0, 1000, subset_selection.optimal_subset_size(1.0, 1000)).replace_pairs()[0]
    n = 10**4
    aim = structured.rescaled_aim(pair.gamma, pair.groups, n=n, delta=DELTA, eps0=1.0)
    x = 0.0297
    answer = aim(x, 1.05 * saddle_blanket_delta(n, pair.gamma, [pair.groups], x, DELTA))
    assert answer is not None
    root = answer / (1 + structured.GUESS_BIAS)
    assert abs(saddle_blanket_delta(n, pair.gamma, [pair.groups], root, DELTA) / (DELTA / 1.05) - 1) < 1e-3
    assert aim(x, DELTA / 2) is None  # certified there already: no correction


def test_subset_selection_settles_in_two_certified_evaluations_where_the_first_aim_is_low(monkeypatch):
    # d = 1e3, eps0 = 1, n = 1e4: the FFT path's certified root lies 0.05% above the estimate's aim (measured): two
    # evaluations of the four groups, and the certified delta at the returned end is <= delta.
    evaluated: list[float] = []
    real = structured.structured_blanket_delta

    def counting(pairs, *, n, eps, delta_hint):
        evaluated.append(eps)
        return real(pairs, n=n, eps=eps, delta_hint=delta_hint)

    monkeypatch.setattr(structured, "structured_blanket_delta", counting)
    value = subset_selection.subset_epsilon_upper(eps0=1.0, n=10**4, delta=DELTA, d=1000)
    searched = [e for e in evaluated if e < 1.0]
    assert len(searched) == 2 and searched[1] > searched[0]
    assert value.upper == searched[1]
    pair = subset_selection.subset_selection(1.0, 1000, subset_selection.optimal_subset_size(1.0, 1000)).replace_pairs()[0]
    assert real([pair], n=10**4, eps=value.upper, delta_hint=DELTA).upper <= DELTA
    assert isinstance(pair.gamma, Fraction)
