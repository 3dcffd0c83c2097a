"""Invalid inputs of the structured randomizers (unary encodings, the closed-form blanket engine, the pattern
lower bound, the registry)."""

from fractions import Fraction

from invalid_inputs import Case
from shuffle_spec import reference  # noqa: F401  (the package is importable before its modules)
from shuffle_spec.reference import randomizers
from shuffle_spec.reference.bounds import blanket_exact_randomizer as blanket
from shuffle_spec.reference.lower_bounds import structured as lower_structured
from shuffle_spec.reference.randomizers import blanket_pairs, common, duchi, hadamard, local_hashing, piecewise, raised, structured, subset_selection, unary

F = Fraction
ENCODING = unary.UnaryEncoding(F(2, 3), F(1, 3), 3)
PAIR = ENCODING.replace_pairs()[0]
GROUPS = [(F(2), F(1, 2), F(1, 2)), (F(0), F(3, 2), F(1, 2))]

CASES = [
    Case(blanket_pairs.check_blanket_pairs, ("not pairs",), fragment="pairs"),
    Case(blanket_pairs.blanket_delta_inputs, ([PAIR],), {"n": 10**9, "eps": 0.1, "delta_hint": 1e-6}, fragment="n"),
    Case(blanket_pairs.blanket_delta_inputs, ([PAIR],), {"n": 10, "eps": 0.1, "delta_hint": 0.0}, fragment="delta_hint"),
    Case(blanket.blanket_sum, (0, F(1, 2), lambda n: (0.0, 0.0), 1e-6), fragment="n"),
    Case(blanket.blanket_sum, (10, 0.5, lambda n: (0.0, 0.0), 1e-6), fragment="gamma"),
    Case(blanket.blanket_sum, (10, F(1, 2), lambda n: (0.0, 0.0), 0.0), fragment="delta_hint"),
    Case(structured.check_decomposition, (F(0), GROUPS), fragment="gamma"),
    Case(structured.check_decomposition, (F(1, 2), [(F(2), F(1, 2), F(1, 2))]), fragment="sum p"),
    Case(structured.check_decomposition, (F(1, 2), "abc"), fragment="groups"),
    Case(structured.blanket_pair, (F(1, 2), [(F(1), F(0), F(1, 2)), (F(1), F(2), F(1, 2))]), fragment="beta"),
    Case(structured.exp_bracket, (800.0,), fragment="x"),
    Case(structured.exp_bracket, ("1",), fragment="x"),
    Case(structured.structured_blanket_delta, ([],), {"n": 10, "eps": 0.1}, fragment="pairs"),
    Case(structured.structured_blanket_delta, ([PAIR],), {"n": 0, "eps": 0.1}, fragment="n"),
    Case(structured.structured_blanket_delta, ([PAIR],), {"n": 10, "eps": -0.1}, fragment="eps"),
    Case(structured.structured_blanket_epsilon, ([PAIR],), {"n": 10, "delta": 1.5, "eps0": 2.0}, fragment="delta"),
    Case(structured.structured_blanket_epsilon, ([PAIR],), {"n": 10, "delta": 1e-6, "eps0": 0.5}, fragment="eps0"),
    Case(structured.structured_blanket_epsilon, ("x",), {"n": 10, "delta": 1e-6, "eps0": 2.0}, fragment="pairs"),
    Case(structured.structured_blanket_epsilon, ([PAIR],), {"n": 10, "delta": 1e-6, "eps0": 2.0, "watch": "x"}, fragment="watch"),
    Case(common.check_domain, (1,), fragment="d"),
    Case(common.check_domain, (10**10,), fragment="d"),
    Case(common.check_randomizer_inputs, (41.0, 10, 1e-6), fragment="eps0"),
    # Below 1e-12 the exact brackets of e^eps0 (a few ulps wide) reach 1: refused naming eps0, not an internal
    # (p, q) or h.
    Case(common.check_randomizer_inputs, (1e-300, 10, 1e-6), fragment="eps0"),
    Case(randomizers.randomizer_bounds, ("piecewise",), {"eps0": 1e-300, "n": 10, "delta": 1e-6}, fragment="eps0"),
    # The piecewise upper bound's three-group lattice sums take minutes below delta = 1e-100 (49 s there): refused.
    Case(piecewise.piecewise_epsilon_upper, (), {"eps0": 1.0, "n": 10**4, "delta": 1e-300}, fragment="delta"),
    Case(randomizers.randomizer_bounds, ("oue",), {"eps0": 1e-300, "n": 10, "delta": 1e-6, "d": 10}, fragment="eps0"),
    Case(common.check_randomizer_inputs, (1.0, 10**9, 1e-6), fragment="n"),
    Case(lower_structured.pattern_pair_epsilon, (), {"rows": [[F(1, 2), F(1, 2)], [F(1, 3), F(2, 3)]], "n": 10, "delta": 1e-6, "labels": ["x"]}, fragment="labels"),
    Case(lower_structured.pattern_pair_epsilon, (), {"rows": [[F(1, 2), F(1, 2)], [F(1, 3), F(2, 3)]], "n": 0, "delta": 1e-6}, fragment="n"),
    Case(lower_structured.pattern_pair_epsilon, (), {"rows": [[F(1, 2), F(1, 2)], [F(1, 3), F(2, 3)]], "n": 10, "delta": 1e-6, "floor": -1.0}, fragment="floor"),
    Case(lower_structured.third_bit_partitions, (0, 1, 1, list(lower_structured.PATTERNS)), fragment="(x, x', z)"),
    Case(raised.raised_groups, ("groups",), fragment="groups"),
    Case(raised.raised_blanket_delta, ([],), {"n": 10, "eps": 0.1}, fragment="pairs"),
    Case(raised.raised_blanket_delta, ([PAIR],), {"n": 0, "eps": 0.1}, fragment="n"),
    Case(raised.raised_blanket_delta, ([PAIR],), {"n": 10, "eps": -1.0}, fragment="eps"),
    Case(raised.raised_blanket_epsilon, ([PAIR],), {"n": 10, "delta": 1.5, "eps0": 2.0}, fragment="delta"),
    Case(raised.raised_blanket_epsilon, ([PAIR],), {"n": 10, "delta": 1e-6, "eps0": 0.5}, fragment="eps0"),
    Case(raised.raised_epsilon_upper, ("krr",), {"eps0": 1.0, "n": 10, "delta": 1e-6, "d": 10}, fragment="name"),
    Case(raised.raised_epsilon_upper, ("oue",), {"eps0": 1.0, "n": 10, "delta": 1e-6, "d": 1}, fragment="d"),
    Case(raised.raised_epsilon_upper, ("oue",), {"eps0": 50.0, "n": 10, "delta": 1e-6, "d": 10}, fragment="eps0"),
    Case(lower_structured.third_bit_partitions, (0, 1, 2, [(0, 1)]), fragment="columns"),
    Case(unary.UnaryEncoding, (F(1, 3), F(2, 3), 3), fragment="(p, q)"),
    Case(unary.UnaryEncoding, (F(2, 3), F(1, 3), 1), fragment="d"),
    Case(unary.symmetric_rappor, (0.0, 3), fragment="eps0"),
    Case(unary.symmetric_rappor, (1.0, 3), {"side": "middle"}, fragment="side"),
    Case(unary.optimized_unary_encoding, (1.0, 1), fragment="d"),
    Case(unary.unary_epsilon_upper, ("enc",), {"n": 10, "delta": 1e-6}, fragment="encoding"),
    Case(unary.unary_epsilon_upper, (ENCODING,), {"n": 10, "delta": 1e-6, "relation": "add"}, fragment="relation"),
    Case(unary.unary_epsilon_lower, (ENCODING,), {"n": 10, "delta": 0.0}, fragment="delta"),
    Case(unary.unary_epsilon_lower, ("enc",), {"n": 10, "delta": 1e-6}, fragment="encoding"),
    Case(unary.symmetric_rappor_epsilon_upper, (), {"eps0": -1.0, "n": 10, "delta": 1e-6, "d": 3}, fragment="eps0"),
    Case(unary.symmetric_rappor_epsilon_lower, (), {"eps0": 1.0, "n": 10, "delta": 1e-6, "d": 1.5}, fragment="d"),
    Case(unary.oue_epsilon_upper, (), {"eps0": 1.0, "n": 10**9, "delta": 1e-6, "d": 3}, fragment="n"),
    Case(unary.oue_epsilon_lower, (), {"eps0": 1.0, "n": 10, "delta": 1e-301, "d": 3}, fragment="delta"),
    Case(unary.symmetric_rappor_deletion_epsilon_upper, (), {"eps0": 50.0, "n": 10, "delta": 1e-6, "d": 3}, fragment="eps0"),
    Case(unary.symmetric_rappor_deletion_epsilon_lower, (), {"eps0": 1.0, "n": 10, "delta": 1e-6, "d": 0}, fragment="d"),
    Case(randomizers.randomizer_entry, ("laplace-ish",), fragment="randomizer"),
    Case(randomizers.randomizer_bounds, ("oue",), {"eps0": 1.0, "n": 10, "delta": 1e-6}, fragment="parameters"),
    Case(randomizers.randomizer_bounds, ("oue",), {"eps0": 1.0, "n": 10, "delta": 1e-6, "d": 1}, fragment="d"),
]

CASES += [
    Case(unary.unary_coordinate_epsilon_lower, ("enc",), {"n": 10, "delta": 1e-6}, fragment="encoding"),
    Case(unary.symmetric_rappor_sum_epsilon, (), {"eps0": 1.0, "n": 10, "delta": 1e-6, "relation": "add"}, fragment="relation"),
    Case(unary.symmetric_rappor_sum_epsilon, (), {"eps0": 0.0, "n": 10, "delta": 1e-6}, fragment="eps0"),
    Case(lower_structured.pattern_roles_epsilon, (), {"rows": [[F(1, 2), F(1, 2)], [F(1, 3), F(2, 3)]], "roles": [], "n": 10, "delta": 1e-6, "labels": ["a", "b"]}, fragment="roles"),
    Case(lower_structured.pattern_roles_epsilon, (), {"rows": [[F(1, 2), F(1, 2)], [F(1, 3), F(2, 3)]], "roles": [(0, 5, 1)], "n": 10, "delta": 1e-6, "labels": ["a", "b"]}, fragment="roles"),
    Case(lower_structured.pattern_roles_epsilon, (), {"rows": [[F(1, 2), F(1, 2)], [F(1, 3), F(2, 3)]], "roles": [(0, 1, 1)], "n": 10, "delta": 1e-6, "labels": ["a"]}, fragment="labels"),
    Case(common.eps0_rounded_up, (F(1, 2),), fragment="ratio"),
    Case(common.cap_at_eps0, (3.0, 1.0), fragment="value"),
    Case(local_hashing.LocalHashing, (F(1), 2, 3), fragment="e0"),
    Case(local_hashing.LocalHashing, (F(3), 1, 3), fragment="g"),
    Case(local_hashing.LocalHashing, (F(3), 2, 1), fragment="d"),
    Case(local_hashing.olh_range, (20.0,), fragment="eps0"),
    Case(local_hashing.local_hashing, (1.0, 3, 2), {"side": "x"}, fragment="side"),
    Case(local_hashing.local_hashing_epsilon_upper, ("m",), {"n": 10, "delta": 1e-6}, fragment="mechanism"),
    Case(local_hashing.local_hashing_epsilon_lower, ("m",), {"n": 10, "delta": 1e-6}, fragment="mechanism"),
    Case(local_hashing.blh_epsilon_upper, (), {"eps0": 1.0, "n": 0, "delta": 1e-6, "d": 3}, fragment="n"),
    Case(local_hashing.blh_epsilon_lower, (), {"eps0": 1.0, "n": 10, "delta": 1e-6, "d": 1}, fragment="d"),
    Case(local_hashing.olh_epsilon_upper, (), {"eps0": 15.0, "n": 10, "delta": 1e-6, "d": 3}, fragment="eps0"),
    Case(local_hashing.olh_epsilon_lower, (), {"eps0": 1.0, "n": 10, "delta": 2.0, "d": 3}, fragment="delta"),
    Case(hadamard.HadamardResponse, (F(1, 2), 3), fragment="e0"),
    Case(hadamard.hadamard_response, (1.0, 3), {"side": "x"}, fragment="side"),
    Case(hadamard.hadamard_epsilon_upper, (), {"eps0": 1.0, "n": 10, "delta": 1e-6, "d": 10**10}, fragment="d"),
    Case(hadamard.hadamard_epsilon_lower, (), {"eps0": -1.0, "n": 10, "delta": 1e-6, "d": 3}, fragment="eps0"),
    Case(subset_selection.SubsetSelection, (F(3), 4, 4), fragment="k"),
    Case(subset_selection.SubsetSelection, (F(3), 4, 0), fragment="k"),
    Case(subset_selection.optimal_subset_size, (1.0, 1), fragment="d"),
    Case(subset_selection.subset_selection, (1.0, 4, 2), {"side": "x"}, fragment="side"),
    Case(subset_selection.subset_epsilon_upper, (), {"eps0": 1.0, "n": 10, "delta": 1e-6, "d": 4, "k": 9}, fragment="k"),
    Case(duchi.duchi_epsilon, (), {"eps0": 41.0, "n": 10, "delta": 1e-6}, fragment="eps0"),
    Case(duchi.duchi_epsilon_upper, (), {"eps0": 1.0, "n": 0, "delta": 1e-6}, fragment="n"),
    Case(duchi.duchi_epsilon_lower, (), {"eps0": 1.0, "n": 10, "delta": 1.0}, fragment="delta"),
    Case(subset_selection.subset_epsilon_lower, (), {"eps0": 1.0, "n": 10**9, "delta": 1e-6, "d": 4}, fragment="n"),
]

EXEMPT = {"shuffle_spec.reference.randomizers.names"}  # no inputs

# The aimed searches' estimates, the lower bounds' screens and the fixed raise (speed of the structured randomizers).
from shuffle_spec.reference.bounds.blanket_exact_randomizer import finite_randomizer as _finite  # noqa: E402
from shuffle_spec.reference.lower_bounds import randomizer as lower_pairs  # noqa: E402
from shuffle_spec.reference.randomizers import raised_candidate  # noqa: E402

_RANDOMIZER = _finite([[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]])
_CHOICE = lower_pairs.PairChoice(0, 1, 0, ((0,), (1,)))
CASES += [
    Case(blanket.saddle_expectations, ([0], PAIR.groups, 0.1), fragment="big_ns"),
    Case(blanket.saddle_expectations, ([10], "groups", 0.1), fragment="groups"),
    Case(blanket.saddle_expectations, ([10], PAIR.groups, -1.0), fragment="eps"),
    Case(blanket.saddle_blanket_delta, (0, PAIR.gamma, [PAIR.groups], 0.1, 1e-6), fragment="n"),
    Case(blanket.saddle_blanket_delta, (10, 0.5, [PAIR.groups], 0.1, 1e-6), fragment="gamma"),
    Case(blanket.saddle_blanket_delta, (10, PAIR.gamma, [PAIR.groups], 0.1, 0.0), fragment="delta_hint"),
    Case(blanket.saddle_blanket_root, (10, PAIR.gamma, []), {"delta": 1e-6, "eps0": 1.0}, fragment="groups"),
    Case(blanket.saddle_blanket_root, (10, PAIR.gamma, [PAIR.groups]), {"delta": 2.0, "eps0": 1.0}, fragment="delta"),
    Case(blanket.saddle_blanket_root, (10, PAIR.gamma, [PAIR.groups]), {"delta": 1e-6, "eps0": -1.0}, fragment="eps0"),
    Case(lower_pairs.pair_delta_chernoff_upper, (), {"matrix": [[F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]], "n": 10, "eps": 0.1, "x": 0, "x2": 5, "z": 0}, fragment="x2"),
    Case(lower_pairs.pair_delta_chernoff_upper, (), {"matrix": [[F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]], "n": 0, "eps": 0.1, "x": 0, "x2": 1, "z": 0}, fragment="n"),
    Case(lower_pairs.pair_guess, ("r", _CHOICE, 10, 1e-6), fragment="randomizer"),
    Case(lower_pairs.pair_guess, (_RANDOMIZER, lower_pairs.PairChoice(0, 3, 0, ((0,), (1,))), 10, 1e-6), fragment="choice"),
    Case(lower_pairs.pair_guess, (_RANDOMIZER, _CHOICE, 10, 1.5), fragment="delta"),
    Case(lower_pairs.screened_out, (_RANDOMIZER, _CHOICE, 0, 0.1, 1e-6), fragment="n"),
    Case(lower_pairs.screened_out, (_RANDOMIZER, _CHOICE, 10, -0.1, 1e-6), fragment="eps"),
    Case(raised_candidate.one_positive, ("g", 2.0), fragment="groups"),
    Case(raised_candidate.one_positive, (PAIR.groups, 0.0), fragment="e_hi"),
    Case(raised_candidate.raised_candidate_epsilon, (PAIR, PAIR.groups), {"n": 10, "delta": 1e-6, "eps0": 2.0}, fragment="groups"),
    Case(raised_candidate.raised_candidate_epsilon, (PAIR, PAIR.groups), {"n": 0, "delta": 1e-6, "eps0": 2.0}, fragment="n"),
]

# The tight keyword of the upper bounds (audits narrow both ends) and the lowered sums (`lowered`).
from shuffle_spec.reference.randomizers import lowered  # noqa: E402

CASES += [
    Case(structured.check_tight, ("lower",), fragment="tight"),
    Case(structured.structured_blanket_epsilon, ([PAIR],), {"n": 10, "delta": 1e-6, "eps0": 2.0, "tight": "x"}, fragment="tight"),
    Case(subset_selection.subset_epsilon_upper, (), {"eps0": 1.0, "n": 10, "delta": 1e-6, "d": 4, "tight": "lower"}, fragment="tight"),
    Case(hadamard.hadamard_epsilon_upper, (), {"eps0": 1.0, "n": 10, "delta": 1e-6, "d": 4, "tight": None}, fragment="tight"),
    Case(piecewise.piecewise_epsilon_upper, (), {"eps0": 1.0, "n": 10, "delta": 1e-6, "tight": "all"}, fragment="tight"),
    Case(raised.raised_epsilon_upper, ("oue",), {"eps0": 1.0, "n": 10, "delta": 1e-6, "d": 10, "tight": "x"}, fragment="tight"),
    Case(raised.raised_blanket_delta, ([PAIR],), {"n": 10, "eps": 0.1, "tight": "x"}, fragment="tight"),
    Case(lowered.lowered_groups, ("groups",), fragment="groups"),
    Case(raised_candidate.moved_groups, ("groups", lambda i, j: True), fragment="groups"),
    Case(lowered.lowered_delta_lower, (PAIR,), {"n": 0, "eps": 0.1, "delta_hint": 1e-6}, fragment="n"),
    Case(lowered.lowered_delta_lower, (PAIR,), {"n": 10, "eps": -1.0, "delta_hint": 1e-6}, fragment="eps"),
    Case(lowered.lowered_epsilon_lower, (PAIR,), {"n": 10, "delta": 2.0, "eps0": 2.0}, fragment="delta"),
]
