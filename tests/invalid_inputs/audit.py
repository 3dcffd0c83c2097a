"""Invalid inputs of the audit tools: the sandbox's limits, bound audits, randomizer matrices."""

from shuffle_spec.proofs_checks import audit, sandbox

from invalid_inputs import Case

TOO_BIG = [["1/501"] * 501] * 501  # 251,001 entries > audit.MAX_MATRIX_ENTRIES

CASES = [
    Case(sandbox.Sandbox, ("math:sqrt",), {"time_limit": 0}, fragment="time_limit"),
    Case(sandbox.Sandbox, ("math:sqrt",), {"time_limit": float("nan")}, fragment="time_limit"),
    Case(sandbox.Sandbox, ("math:sqrt",), {"memory_mb": 1}, fragment="memory_mb"),
    Case(sandbox.Sandbox, ("math:sqrt",), {"cpu_seconds": 0}, fragment="cpu_seconds"),
    Case(sandbox.Sandbox, ("math:sqrt",), {"file_mb": 0.5}, fragment="file_mb"),
    Case(audit.audit_bound, ("math:sqrt", "EFMRTT19.Def1"), fragment="nothing to audit"),
    Case(audit.audit_bound, ("math:sqrt", "NOPE.Thm1"), fragment="unknown statement id"),
    Case(audit.audit_bound, ("no colon", "FMT21.Thm2.1"), fragment="MODULE:FUNCTION"),
    Case(audit.audit_bound, ("math:sqrt", "FMT21.Thm2.1"), {"rtol": -1.0}, fragment="rtol"),
    Case(audit.audit_bound, ("math:sqrt", "FMT21.Thm2.1"), {"total_time_limit": 0.0}, fragment="total time limit"),
    Case(audit.audit_matrix, (TOO_BIG,), fragment="entries"),
]
