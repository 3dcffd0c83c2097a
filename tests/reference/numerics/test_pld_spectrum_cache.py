"""`pld.compose` keeps the zero-padded spectrum of a read-only grid, its repeated squares and its power-independent
quantities (the blanket sums compose one grid at about 200 sizes): the composition with the kept ones is the same
floats as with a fresh computation on a writeable copy, and a writeable grid is never kept (it could change in
place)."""

from __future__ import annotations

import numpy as np

from shuffle_spec.reference.numerics import pld


def _grid(masses: np.ndarray) -> pld.GridPLD:
    return pld.GridPLD(2.0**-6, -40, masses, 0.0, True, 1.0)


def test_a_kept_spectrum_gives_the_same_composition_as_a_fresh_transform():
    rng = np.random.default_rng(3)
    masses = rng.random(90)
    masses /= masses.sum() * (1 + 1e-9)
    frozen = masses.copy()
    frozen.setflags(write=False)
    grid, fresh = _grid(frozen), _grid(masses.copy())
    for power in (30, 31, 29):  # neighbouring sizes: the same FFT length, the kept spectrum is reused
        kept = pld.compose([grid], [power], tail=1e-30)
        plain = pld.compose([fresh], [power], tail=1e-30)
        assert kept.start == plain.start and np.array_equal(kept.values, plain.values)
        assert kept.error_2norm == plain.error_2norm and kept.delta(0.1) == plain.delta(0.1)
        # The kept support, norms and variance of the read-only grid (`pld._facts`) give the same floats too.
        lam = np.geomspace(0.01, 10.0, 7)
        assert np.array_equal(grid.log_mgf(lam), fresh.log_mgf(lam)) and np.array_equal(grid.log_mgf(-lam), fresh.log_mgf(-lam))
    assert pld._facts(fresh) is None and {"support", "norms", "variance"} <= set(pld._facts(grid) or {})
    kept_keys = [key for key, (g, _) in pld._SPECTRA.items() if g is grid]
    assert kept_keys and not pld._SPECTRA[kept_keys[0]][1].flags.writeable
    assert all(g is not fresh for g, _ in pld._SPECTRA.values())


def test_the_kept_squares_give_the_same_powers_as_binary_exponentiation():
    # `_kept_power` reuses the squares of a read-only spectrum across powers; it must multiply the same operands in
    # the same order as `spectrum_power` (the reference: a fresh binary exponentiation of a writeable copy).
    rng = np.random.default_rng(5)
    z = np.fft.rfft(rng.random(64) / 40)
    frozen = z.copy()
    frozen.setflags(write=False)
    for power in (1, 2, 7, 500, 37, 1024, 999, 3):  # out of order: later powers reuse squares kept by earlier ones
        assert np.array_equal(pld._kept_power(frozen, power), pld.spectrum_power(z.copy(), power)), power
    chain = pld._SQUARES[id(frozen)]
    assert chain[0] is frozen and len(chain[1]) == 11  # z^(2^0) .. z^(2^10) = z^1024 (the top bit), nothing beyond
