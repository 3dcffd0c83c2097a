"""Certified numerics: binomial windows and tails, lattice sums, high-precision enclosures, inversion of monotone bounds, the PLD engine."""
