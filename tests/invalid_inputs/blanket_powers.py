"""Invalid inputs of the batched FFT blanket sum (`reference.bounds.blanket_powers`)."""

from invalid_inputs import Case
from shuffle_spec.reference.bounds import blanket_exact_randomizer as blanket
from shuffle_spec.reference.bounds import blanket_powers as powers

CASES = [
    Case(powers.mixture_positive_part_upper, ([0.1, float("nan")], [0.5, 0.5], [3], [1.0]), fragment="l_hi"),
    Case(powers.mixture_positive_part_upper, ([0.1, -0.2], [0.5, 1.5], [3], [1.0]), fragment="p_hi"),
    Case(powers.mixture_positive_part_upper, ([0.1, -0.2], [0.5, 0.5], [0], [1.0]), fragment="big_ns"),
    Case(powers.mixture_positive_part_upper, ([0.1, -0.2], [0.5, 0.5], [3, 4], [1.0]), fragment="big_ns"),
    Case(powers.mixture_positive_part_upper, ([0.1, -0.2], [0.5, 0.5], [3], [-1.0]), fragment="weights"),
    Case(powers.mixture_positive_part_upper, ([0.1, -0.2], [0.5, 0.5], [3], [1.0]), {"tail": 1.5}, fragment="tail"),
    Case(powers.mixture_positive_part_upper, ([2e100, -0.2], [0.5, 0.5], [3], [1.0]), fragment="l_hi"),
]
CASES += [
    Case(powers.mixture_points, ([0.1, -0.2], [0.5, 0.5], 5, 3), fragment="n_hi"),
    Case(powers.mixture_points, ([0.1, -0.2], [0.0, 0.0], 3, 5), fragment="p_values"),
    Case(powers.mixture_points, ([float("inf"), -0.2], [0.5, 0.5], 3, 5), fragment="l_values"),
    Case(powers.mixture_points, ([0.1, -1e101], [0.5, 0.5], 3, 5), fragment="l_values"),
    Case(powers.rounded_grid, ([0.1, -0.2], [0.5, 0.5], 2.0**-10), {"unit": 2.0**-60}, fragment="unit"),
    Case(powers.rounded_grid, ([0.1, -0.2], [0.5, 0.5], 0.3), fragment="h"),
    Case(powers.rounded_grid, ([0.1, float("nan")], [0.5, 0.5], 2.0**-10), fragment="l_hi"),
    Case(powers.rounded_grid, ([0.1, -0.2], [0.5, -0.5], 2.0**-10), fragment="l_hi"),
]

# The FFT-only pair value of the exact blanket bound (`blanket_exact_randomizer.blanket_pair_fft_delta`).
RANDOMIZER = blanket.finite_randomizer([["1/2", "3/10", "1/5"], ["1/5", "1/2", "3/10"], ["3/10", "1/5", "1/2"]])
CASES += [
    Case(blanket.blanket_pair_fft_delta, ("r", 0, 1), {"n": 10, "eps": 0.1}, fragment="randomizer"),
    Case(blanket.blanket_pair_fft_delta, (RANDOMIZER, 0, 3), {"n": 10, "eps": 0.1}, fragment="x2"),
    Case(blanket.blanket_pair_fft_delta, (RANDOMIZER, 0, 1), {"n": 10**9, "eps": 0.1}, fragment="n"),
    Case(blanket.blanket_pair_fft_delta, (RANDOMIZER, 0, 1), {"n": 10, "eps": -0.1}, fragment="eps"),
    Case(blanket.blanket_pair_fft_delta, (RANDOMIZER, 0, 1), {"n": 10, "eps": 0.1, "delta_hint": 2.0}, fragment="delta_hint"),
]

# The same value from a pair's blanket mass and groups (`blanket_exact_randomizer.groups_fft_delta`).
GROUPS = blanket.pair_groups(RANDOMIZER, 0, 1)
CASES += [
    Case(blanket.groups_fft_delta, (10, RANDOMIZER.gamma, "g"), {"eps": 0.1}, fragment="groups"),
    Case(blanket.groups_fft_delta, (10**9, RANDOMIZER.gamma, GROUPS), {"eps": 0.1}, fragment="n"),
    Case(blanket.groups_fft_delta, (10, 0.5, GROUPS), {"eps": 0.1}, fragment="gamma"),
    Case(blanket.groups_fft_delta, (10, RANDOMIZER.gamma, GROUPS), {"eps": -0.1}, fragment="eps"),
    Case(blanket.groups_fft_delta, (10, RANDOMIZER.gamma, GROUPS), {"eps": 0.1, "delta_hint": 2.0}, fragment="delta_hint"),
]
