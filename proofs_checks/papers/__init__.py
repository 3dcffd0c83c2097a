"""proofs_checks/papers/."""
