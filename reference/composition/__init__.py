"""Composition over rounds: the certified PLD of shuffled rounds, advanced composition, Bun-Steinke's concentrated-DP conversion."""
