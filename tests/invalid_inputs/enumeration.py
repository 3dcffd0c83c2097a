"""Invalid inputs of the exact enumeration of a small shuffled randomizer over every pair of neighbouring datasets
(`shuffle_spec.reference.finite.enumeration`) and of its work estimate."""

from fractions import Fraction

from invalid_inputs import Case
from shuffle_spec.reference.finite import enumeration
from shuffle_spec.reference.finite.randomizers import binary_randomized_response

RR = binary_randomized_response(Fraction(3))

CASES = [
    Case(enumeration.exact_shuffled_e_eps_enumerated, ([[1, 0], [0, 1]], 2, 0.1), fragment="randomizer"),
    Case(enumeration.exact_shuffled_e_eps_enumerated, (RR, 0, 0.1), fragment="n"),
    Case(enumeration.exact_shuffled_e_eps_enumerated, (RR, 2.5, 0.1), fragment="n"),
    Case(enumeration.exact_shuffled_e_eps_enumerated, (RR, 2, 1.5), fragment="delta"),
    Case(enumeration.exact_shuffled_e_eps_enumerated, (RR, 2, float("nan")), fragment="delta"),
    Case(enumeration.enumeration_work, (RR, 0), {"limit": 10}, fragment="n"),
    Case(enumeration.enumeration_work, (RR, 2), {"limit": 0}, fragment="limit"),
    Case(enumeration.enumeration_work, ("rr", 2), {"limit": 10}, fragment="randomizer"),
    Case(enumeration.neighbouring_pair_count, (0, 2), fragment="inputs"),
    Case(enumeration.neighbouring_pair_count, (2, -1), fragment="n"),
]
