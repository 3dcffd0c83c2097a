"""Statements of the five papers, one module per paper (EFMRTT19, BBGN19 v1/v2, FMT21 and its SODA 2023 follow-up, EFMRSTT20)."""
