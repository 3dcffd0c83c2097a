"""Closed forms for researchers: SymPy expressions of the statements, substitutions, and certified stand-alone Python exports."""
