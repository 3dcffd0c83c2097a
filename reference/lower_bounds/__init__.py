"""Certified lower bounds on the central epsilon: neighbouring pairs of k-RR, the Laplace mechanism and any finite randomizer."""
