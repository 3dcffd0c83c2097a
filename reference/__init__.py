"""shuffle-spec, the reference side: direct numeric and exact implementations of every statement.

Written independently of `spec/` (this package never imports SymPy or `spec`), organised by concept:
distributions, randomizers, divergences, composition, shuffling, and the bounds.
"""
