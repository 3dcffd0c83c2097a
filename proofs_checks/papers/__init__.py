"""Proof-step checks of the papers' statements, one module per paper."""
