"""`pld.compose` reuses the kept spectrum of a read-only grid only for the same masses: a read-only VIEW of a writeable
array, or an array made writeable again, can change in place after its spectrum was kept, and the composition must
then follow the new masses (as a fresh transform of a copy does), never the kept transform of the old ones (its
delta(eps) was the old pair's: 0.0504 where the new pair's is 0.189, an upper bound below the value)."""

from __future__ import annotations

import numpy as np

from shuffle_spec.reference.numerics import pld

BEFORE = [0.2, 0.3, 0.4, 0.1 - 1e-9]
AFTER = [0.1, 0.1, 0.1, 0.7 - 1e-9]  # more mass at the top loss: a larger delta(eps)


def _grid(masses: np.ndarray) -> pld.GridPLD:
    return pld.GridPLD(2.0**-4, -1, masses, 1e-9, True, 1.0)


def _same(a: pld.ComposedPLD, b: pld.ComposedPLD) -> bool:
    return a.start == b.start and np.array_equal(a.values, b.values) and a.error_2norm == b.error_2norm


def test_a_read_only_view_whose_base_changed_is_transformed_again():
    base = np.array(BEFORE)
    view = base.view()
    view.setflags(write=False)  # read-only, but its base is not
    grid = _grid(view)
    first = pld.compose([grid], [3], tail=1e-12)
    base[:] = AFTER
    again = pld.compose([grid], [3], tail=1e-12)
    fresh = pld.compose([_grid(np.array(AFTER))], [3], tail=1e-12)
    assert _same(again, fresh)
    assert again.delta(0.05) == fresh.delta(0.05) > first.delta(0.05)


def test_an_array_made_writeable_again_and_changed_is_transformed_again():
    masses = np.array(BEFORE)
    masses.setflags(write=False)
    grid = _grid(masses)
    pld.compose([grid], [3], tail=1e-12)
    masses.setflags(write=True)  # an array that owns its data may be made writeable again
    masses[:] = AFTER
    masses.setflags(write=False)
    again = pld.compose([grid], [3], tail=1e-12)
    fresh = pld.compose([_grid(np.array(AFTER))], [3], tail=1e-12)
    assert _same(again, fresh)
