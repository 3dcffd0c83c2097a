"""proofs_checks/derived/."""
