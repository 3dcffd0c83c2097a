"""Invalid inputs of the audit tools: the sandbox's limits, bound audits, randomizer matrices."""

from fractions import Fraction

from shuffle_spec.interface.audit import bound, randomizer as audit, sandbox
from shuffle_spec.reference.finite import distributions, randomizers

from invalid_inputs import Case

TOO_BIG = [["1/501"] * 501] * 501  # 251,001 entries > audit.MAX_MATRIX_ENTRIES
# Rows over 11 different 1000-digit primes-to-be: the least common multiple of the denominators has ~11,000
# digits, over shuffle_spec.reference.core.limits.MATRIX_DENOMINATOR_LCM_MAX_DIGITS.
MANY_DENOMINATORS = [[Fraction(1, 10**999 + 2 * i + 1)] for i in range(11)]

CASES = [
    Case(sandbox.Sandbox, ("math:sqrt",), {"time_limit": 0}, fragment="time_limit"),
    Case(sandbox.Sandbox, ("math:sqrt",), {"time_limit": float("nan")}, fragment="time_limit"),
    Case(sandbox.Sandbox, ("math:sqrt",), {"memory_mb": 1}, fragment="memory_mb"),
    Case(sandbox.Sandbox, ("math:sqrt",), {"cpu_seconds": 0}, fragment="cpu_seconds"),
    Case(sandbox.Sandbox, ("math:sqrt",), {"file_mb": 0.5}, fragment="file_mb"),
    Case(bound.audit_bound, ("math:sqrt", "EFMRTT19.Def1"), fragment="nothing to audit"),
    Case(bound.audit_bound, ("math:sqrt", "NOPE.Thm1"), fragment="unknown statement id"),
    Case(bound.audit_bound, ("no colon", "FMT21.Thm2.1"), fragment="MODULE:FUNCTION"),
    Case(bound.audit_bound, ("math:sqrt", "FMT21.Thm2.1"), {"rtol": -1.0}, fragment="rtol"),
    Case(bound.audit_bound, ("math:sqrt", "FMT21.Thm2.1"), {"total_time_limit": 0.0}, fragment="total time limit"),
    Case(audit.audit_matrix, (TOO_BIG,), fragment="entries"),
    Case(audit.audit_matrix, ({"matrix": [["1/2", "1/2"], ["1", "0"]], "inputs": ["a", "a"]},), fragment="inputs[1]"),
    Case(audit.audit_matrix, ([["1e-999999999", "1"], ["1", "0"]],), fragment="matrix[0][0]"),
    Case(audit.audit_matrix, ([["1/2", "1/2"]],), {"n": 0, "delta": 1e-3}, fragment="n"),
    Case(distributions.exact_number_from_text, ("1e-999999999",), fragment="probability"),
    Case(distributions.exact_number_from_text, ("1/0", "matrix[0][0]"), fragment="matrix[0][0]"),
    Case(distributions.exact_number_from_text, ("1_0",), fragment="probability"),
    Case(randomizers.check_labels, ("inputs", ["a", "a"], 2, "row"), fragment="inputs[1]"),
    Case(randomizers.check_labels, ("inputs", [1, "1"], 2, "row"), {"printable": True}, fragment="inputs[1]"),
    Case(randomizers.check_labels, ("outputs", [[1]], 1, "column"), fragment="outputs[0]"),
    Case(randomizers.check_labels, ("outputs", "ab", 2, "column"), fragment="outputs"),
    Case(randomizers.check_exact_size, (Fraction(1, 10**1000), "matrix[0][0]"), fragment="matrix[0][0]"),
    Case(randomizers.check_common_denominator, (MANY_DENOMINATORS, "matrix"), fragment="matrix"),
]
