"""`pld.spectrum_power`, the one binary exponentiation of the FFT compositions (pld.compose and the batched blanket
sums of `bounds.blanket_powers`): equal to repeated multiplication up to its stated round-off count."""

from __future__ import annotations

import math

import numpy as np

from shuffle_spec.reference.numerics.binomial import UNIT
from shuffle_spec.reference.numerics.pld import spectrum_power


def test_spectrum_power_matches_repeated_products_within_its_round_off_count():
    rng = np.random.default_rng(7)
    z = np.fft.rfft(rng.random(64) / 64)
    for t in (1, 2, 3, 7, 8, 33, 100):
        naive = z.copy()
        for _ in range(t - 1):
            naive = naive * z
        products = t + 2 * math.log2(t) + 2
        # Each of the two computations is within (products) sqrt(5) u relative of z^t (to first order).
        slack = 2 * 1.02 * math.sqrt(5) * UNIT * products * np.abs(naive) + 1e-300
        assert np.all(np.abs(spectrum_power(z, t) - naive) <= slack * 4), t
    assert np.array_equal(spectrum_power(z, 1), z)
