"""Invalid inputs of the batched FFT blanket sum (`reference.bounds.blanket_powers`)."""

from invalid_inputs import Case
from shuffle_spec.reference.bounds import blanket_powers as powers

CASES = [
    Case(powers.mixture_positive_part_upper, ([0.1, float("nan")], [0.5, 0.5], [3], [1.0]), fragment="l_hi"),
    Case(powers.mixture_positive_part_upper, ([0.1, -0.2], [0.5, 1.5], [3], [1.0]), fragment="p_hi"),
    Case(powers.mixture_positive_part_upper, ([0.1, -0.2], [0.5, 0.5], [0], [1.0]), fragment="big_ns"),
    Case(powers.mixture_positive_part_upper, ([0.1, -0.2], [0.5, 0.5], [3, 4], [1.0]), fragment="big_ns"),
    Case(powers.mixture_positive_part_upper, ([0.1, -0.2], [0.5, 0.5], [3], [-1.0]), fragment="weights"),
    Case(powers.mixture_positive_part_upper, ([0.1, -0.2], [0.5, 0.5], [3], [1.0]), {"tail": 1.5}, fragment="tail"),
]
