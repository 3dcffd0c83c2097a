"""Exact finite objects: distributions, randomizers, divergences, shuffled output distributions, operations, closeness and removal LDP."""
