"""compose.clones with many rounds where the TILTED composition's window does not fit an FFT of MAX_FFT points
(`numerics.pld.compose_tilted` returned None and the tilted passes of `composition.solve` were skipped): eps0 = 0.2,
n = 1e6, T = 10000, whose untilted window already fills MAX_FFT. The answer was then the untilted curve's, set by
its round-off floor (about 2.3e-8): upper ends [0.0987, 0.2819] at delta = 1e-9, 0.2801 at 1e-10, 0.2751 at 1e-12
and 0.2548 at 1e-20, so the upper end FELL as delta fell (an end certified at a smaller delta holds at every larger
one), 2.5 times the lower end. The tilted composition on the grids coarsened to twice the step fits (its certified
delta at eps = 0.14 is 5.4e-13). Replace-one relation, adaptive composition of T rounds."""

from __future__ import annotations

import pytest

from shuffle_spec.reference.composition.shuffled_rounds import compose_clones

EPS0, N, T = 0.2, 10**6, 10**4


@pytest.mark.slow
def test_the_upper_end_with_many_rounds_does_not_fall_with_delta_and_is_tightened_by_the_tilt() -> None:
    at_1e9 = compose_clones(eps0=EPS0, n=N, delta=1e-9, rounds=T)
    at_1e12 = compose_clones(eps0=EPS0, n=N, delta=1e-12, rounds=T)
    # eps(delta) is non-increasing: the end at 1e-9 may exceed the one at 1e-12 by the search's tolerance only
    # (EPS_REL_TOL = 1e-6; the grids at both deltas share their step here).
    assert at_1e9.upper <= at_1e12.upper * (1 + 1e-4), (at_1e9.upper, at_1e12.upper)
    # The tilted composition at twice the step certifies delta(0.14) = 5.4e-13 (measured), far below 1e-9: the
    # upper end is below 0.14, and the interval is within a factor 1.5 (its lower end, 0.0987, is the optimistic
    # curves' own).
    assert at_1e9.upper < 0.14, at_1e9
    assert at_1e9.lower <= at_1e9.upper < 1.5 * at_1e9.lower, at_1e9
