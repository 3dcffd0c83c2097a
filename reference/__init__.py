"""shuffle-spec, the reference side: direct numeric and exact implementations of every statement.

Written independently of `spec/` (this package never imports SymPy or `spec`), organised by concept, one
sub-package per floor (from the ground up): core, numerics, finite, bounds, exact, lower_bounds, composition,
protocols. Nothing imports upward.
"""
