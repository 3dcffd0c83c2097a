"""`krr_pair_delta(..., sharp_upper=False)` (the pair searches of exact.krr_pair_third / exact.krr_pair_x0 read the
lower end alone: their value is the lower end of the pair's eps interval): the lattice sums skip their shifted upper
bounds between grid rows. The lower end must be the same float as the full evaluation's (the pairs' values rest on
it), the upper end still above the full one's (certified, looser); and the searches must end at the lower end a
search over the full evaluations ends at (the same start, the same solver)."""

import math

import pytest

from shuffle_spec.reference.bounds.bennett import bennett_krr_epsilon
from shuffle_spec.reference.lower_bounds import krr as module
from shuffle_spec.reference.lower_bounds.krr import krr_pair_delta
from shuffle_spec.reference.numerics.lattice_sums import positive_part_expectations, search_start
from shuffle_spec.reference.numerics.solver import solve_certified_epsilon

# Windows of b wider than the every-b rows (EVERY_B_MAX = 160 values): grid rows with shifted bounds between them.
POINTS = [("third", 10, 0.5, 100_000, 0.005), ("x0", 10, 1.0, 100_000, 0.01), ("third", 3, 4.0, 200_000, 0.02), ("x0", 100, 1.0, 300_000, 0.004)]


@pytest.mark.parametrize(("pair", "k", "eps0", "n", "eps"), POINTS)
def test_the_lower_end_is_the_full_evaluations_float(pair, k, eps0, n, eps):
    full = krr_pair_delta(eps0=eps0, n=n, k=k, eps=eps, pair=pair, delta_hint=1e-6)
    lower_only = krr_pair_delta(eps0=eps0, n=n, k=k, eps=eps, pair=pair, delta_hint=1e-6, sharp_upper=False)
    assert full.lower > 0 and lower_only.lower == full.lower
    assert full.lower <= full.upper <= lower_only.upper <= 1.0


def test_the_engine_without_upper_queries_keeps_the_lower_ends_and_raises_the_upper_ones():
    # One batch of two m at once (the blanket bound's N grid evaluates several): per m, the lower end is the same
    # float and the upper end is at least the sharpened one, strictly above it somewhere (the shifted bounds between
    # rows are what the flag skips: a flag that skipped nothing would show no difference).
    ((law_b, law_a, coefficients),) = module._setups("third", 1.0, 10, 0.001)  # the third pair's laws and coefficients
    ms = [200_000, 260_000]
    lo, hi = positive_part_expectations(ms, law_b, law_a, coefficients, tail=1e-20)
    lo_rows, hi_rows = positive_part_expectations(ms, law_b, law_a, coefficients, tail=1e-20, upper=False)
    assert list(lo_rows) == list(lo) and all(lo > 0)
    assert all(hi_rows >= hi) and any(hi_rows > hi)


@pytest.mark.parametrize(("pair", "k", "eps0", "n", "delta"), [("third", 10, 1.0, 10**5, 1e-6), ("x0", 3, 0.5, 10**5, 1e-9), ("third", 100, 4.0, 10**5, 1e-6)])
def test_pair_search_without_sharp_upper_deltas_gives_the_same_lower_end(pair, k, eps0, n, delta):
    # The independent computation: solve_certified_epsilon on the full krr_pair_delta (every end sharpened) from the
    # statement's own start; the value (the lower end) must be the same float, certified (lower delta > delta there).
    hint, slope = search_start(lambda x: module._terms(pair, eps0, k, x), eps0=eps0, n=n, delta=delta,
                               fallback=lambda: bennett_krr_epsilon(eps0=eps0, n=n, delta=delta, k=k).value)

    def sharp(eps):
        value = krr_pair_delta(eps0=eps0, n=n, k=k, eps=eps, pair=pair, delta_hint=delta)
        return value.lower, value.upper

    lower_sharp, upper_sharp, _ = solve_certified_epsilon(sharp, eps0=eps0, delta=delta, rel_tol=module.EPS_REL_TOL, hint=hint, tight="lower", slope=slope)
    function = module.krr_pair_third_epsilon if pair == "third" else module.krr_pair_x0_epsilon
    got = function(eps0=eps0, n=n, delta=delta, k=k)
    assert 0 < got.value == lower_sharp
    assert krr_pair_delta(eps0=eps0, n=n, k=k, eps=got.value, pair=pair, delta_hint=delta).lower > delta
    # The pair's upper end (in the note) is a point whose certified upper delta is <= delta: at or above the sharp one.
    upper = float(got.note.split("[", 1)[1].split("]", 1)[0].split(", ")[1])
    assert upper >= upper_sharp and math.isfinite(upper)
