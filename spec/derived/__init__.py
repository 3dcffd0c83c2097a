"""Statements the project derives itself (exact worst cases, exact blanket bounds, composition of shuffled rounds); their proofs are in `proofs_checks/derived/`."""
