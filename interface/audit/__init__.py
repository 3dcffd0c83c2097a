"""Audits of other implementations: a bound function checked against certified values, a randomizer matrix checked exactly, run in a sandbox."""
