"""Invalid inputs of the lower bound on BBGN19 Lemma 5.3's delta for k-RR from one blanket size."""

from invalid_inputs import Case
from shuffle_spec.reference.bounds import blanket_krr_lower

GOOD = {"eps0": 1.0, "n": 100, "k": 2, "eps": 0.1}

CASES = [
    Case(blanket_krr_lower.blanket_krr_delta_lower, (), {**GOOD, "eps0": 0.0}, fragment="eps0"),
    Case(blanket_krr_lower.blanket_krr_delta_lower, (), {**GOOD, "eps0": 51.0}, fragment="eps0"),
    Case(blanket_krr_lower.blanket_krr_delta_lower, (), {**GOOD, "n": 0}, fragment="n"),
    Case(blanket_krr_lower.blanket_krr_delta_lower, (), {**GOOD, "n": 10**9}, fragment="n"),
    Case(blanket_krr_lower.blanket_krr_delta_lower, (), {**GOOD, "k": 1}, fragment="k"),
    Case(blanket_krr_lower.blanket_krr_delta_lower, (), {**GOOD, "eps": -0.1}, fragment="eps"),
    Case(blanket_krr_lower.blanket_krr_delta_lower, (), {**GOOD, "eps": float("nan")}, fragment="eps"),
    Case(blanket_krr_lower.blanket_krr_delta_lower, (), {**GOOD, "delta_hint": 0.0}, fragment="delta_hint"),
]
