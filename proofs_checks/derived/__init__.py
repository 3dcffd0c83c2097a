"""Proofs of the project's own derived statements, checked step by step (SymPy identities and exact arithmetic)."""
