"""exact.randomizer_pair's candidate terms kept across a search's evaluations (`_choice_terms` in
reference/lower_bounds/randomizer.py: the exact merged rows, their groups and floats of one candidate, computed once
per candidate instead of at every eps): equal to the definition recomputed with exact Fractions, and every number
the search derives from them (the Chernoff screen, the certified pair delta, the pattern search's result) the same
float whether the cache is cold or warm."""

from fractions import Fraction

from shuffle_spec.reference.bounds.blanket_exact_randomizer import finite_randomizer, group_outputs
from shuffle_spec.reference.lower_bounds import randomizer as pair_module
from shuffle_spec.reference.lower_bounds.randomizer import PairChoice, pair_delta_chernoff_upper, randomizer_pair_delta
from shuffle_spec.reference.lower_bounds.structured import pattern_pair_epsilon
from shuffle_spec.reference.randomizers.subset_selection import subset_selection

MATRIX = [["1/2", "3/10", "1/5"], ["1/5", "1/2", "3/10"], ["3/10", "1/5", "1/2"]]
CHOICE = PairChoice(0, 1, 2, ((0,), (1, 2)))


def _merged(row, bins):
    return [sum((row[y] for y in b), Fraction(0)) for b in bins]


def test_terms_equal_the_definition_and_are_kept_per_rows_object():
    randomizer = finite_randomizer(MATRIX)
    terms = pair_module._choice_terms(randomizer.rows, CHOICE)
    px, px2, pz = (_merged(randomizer.rows[i], CHOICE.bins) for i in (0, 1, 2))
    assert (list(terms.px), list(terms.px2), list(terms.pz)) == (px, px2, pz)  # exact Fractions: 1/2 vs 4/5 etc.
    assert terms.groups == group_outputs(px, px2, pz)
    assert terms.floats == tuple(tuple(float(v) for v in r) for r in (px, px2, pz))
    assert pair_module._choice_terms(randomizer.rows, CHOICE) is terms  # the second call reads the cache
    # An equal matrix built again is another rows object: its own entry, equal values.
    again = pair_module._choice_terms(finite_randomizer(MATRIX).rows, CHOICE)
    assert again == terms


def test_screen_and_pair_delta_are_the_same_floats_cold_and_warm():
    randomizer = finite_randomizer(MATRIX)
    for eps in (0.05, 0.2):
        pair_module._TERMS.clear()
        cold = (pair_delta_chernoff_upper(matrix=randomizer, n=500, eps=eps, x=0, x2=1, z=2, bins=[[0], [1, 2]]),
                randomizer_pair_delta(matrix=randomizer, n=500, eps=eps, x=0, x2=1, z=2, bins=[[0], [1, 2]], delta_hint=1e-6))
        warm = (pair_delta_chernoff_upper(matrix=randomizer, n=500, eps=eps, x=0, x2=1, z=2, bins=[[0], [1, 2]]),
                randomizer_pair_delta(matrix=randomizer, n=500, eps=eps, x=0, x2=1, z=2, bins=[[0], [1, 2]], delta_hint=1e-6))
        assert cold == warm  # bit-identical: the cache only keeps exact inputs
        assert cold[1].lower <= cold[1].upper <= cold[0] * (1 + 1e-9)  # the screen bounds the certified delta from above


def test_pattern_search_result_is_the_same_cold_and_warm():
    rows = subset_selection(2.0, 40, 6, side="lower").pattern_rows()
    pair_module._TERMS.clear()
    cold = pattern_pair_epsilon(rows=rows, n=300, delta=1e-6, labels=["x", "x'", "z"])
    warm = pattern_pair_epsilon(rows=rows, n=300, delta=1e-6, labels=["x", "x'", "z"])
    assert (cold.lower, cold.upper, cold.note) == (warm.lower, warm.upper, warm.note)
    assert 0 < cold.lower < 2.0
