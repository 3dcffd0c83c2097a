"""Invalid inputs of the structured randomizers (unary encodings, the closed-form blanket engine, the pattern
lower bound, the registry)."""

from fractions import Fraction

from invalid_inputs import Case
from shuffle_spec import reference  # noqa: F401  (the package is importable before its modules)
from shuffle_spec.reference import randomizers
from shuffle_spec.reference.bounds import blanket_exact_randomizer as blanket
from shuffle_spec.reference.lower_bounds import structured as lower_structured
from shuffle_spec.reference.randomizers import common, structured, unary

F = Fraction
ENCODING = unary.UnaryEncoding(F(2, 3), F(1, 3), 3)
PAIR = ENCODING.replace_pairs()[0]
GROUPS = [(F(2), F(1, 2), F(1, 2)), (F(0), F(3, 2), F(1, 2))]

CASES = [
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
    Case(common.check_domain, (1,), fragment="d"),
    Case(common.check_domain, (10**10,), fragment="d"),
    Case(common.check_randomizer_inputs, (41.0, 10, 1e-6), fragment="eps0"),
    Case(common.check_randomizer_inputs, (1.0, 10**9, 1e-6), fragment="n"),
    Case(lower_structured.pattern_pair_epsilon, (), {"rows": [[F(1, 2), F(1, 2)], [F(1, 3), F(2, 3)]], "n": 10, "delta": 1e-6, "labels": ["x"]}, fragment="labels"),
    Case(lower_structured.pattern_pair_epsilon, (), {"rows": [[F(1, 2), F(1, 2)], [F(1, 3), F(2, 3)]], "n": 0, "delta": 1e-6}, fragment="n"),
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

EXEMPT = {"shuffle_spec.reference.randomizers.names"}  # no inputs
