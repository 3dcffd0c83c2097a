"""Port of the R function `Shfflm` (an R package of textbook formulas; EFMRTT19 Theorem 7, arXiv v2).

Source: public R code found through this project's search of public code (a package file whose roxygen
header reads "Privacy amplification by shuffling: local DP to central DP ... Erlingsson et al., Theorem 7";
stored in the public-code index as file 58812797752, 3,588 characters, SPDX AGPL-3.0-or-later). The
index does not name the repository or commit of that file, and no search found them (the queries are listed
in docs/audits/README.md): the port cites the file's own lines. Function `Shfflm`, lines 43-67; the
general bound, lines 51-53:

    logd <- log(1 / d)
    e1 <- 2 * exp(2 * e0) * (exp(e0) - 1) / nn
    general <- e1 * sqrt(2 * nn * logd) + nn * e1 * (exp(e1) - 1)

returned as `estimate` (and `epsilon`, `epsilon_general`), "the only one whose side conditions always
hold". It also returns the refined form (lines 54-55, with `refined_valid`) and the simple form
12 eps0 sqrt(log(1/delta)/n) (line 56, with `simple_valid`), each with a validity flag. Inputs are refused
(R `stop`) when epsilon0 <= 0, n <= 1 or delta outside (0, 1) (lines 47-49); n is `as.numeric`, so a
non-integer n is accepted.

R arithmetic is IEEE double with overflow to Inf (`exp(800)` is Inf, not an error): `_exp` does the same,
so the port returns what R returns at every point, Inf included. Checked against a run of the R function
itself (Rscript, R 4.2.2) in `tests/interface/audit/test_adapters.py`.
"""

from __future__ import annotations

import math

__all__ = ["estimate", "shfflm"]


def _exp(x: float) -> float:
    """R's exp: IEEE double, +Inf on overflow (Python's math.exp raises OverflowError instead)."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def shfflm(eps0: float, n: float, delta: float) -> dict[str, float]:
    """The numeric fields of `Shfflm(epsilon0, n, delta)` (lines 43-67), in R's double arithmetic."""
    e0, nn, d = float(eps0), float(n), float(delta)
    if e0 <= 0:
        raise ValueError("shuffle_model: epsilon0 must be positive")
    if nn <= 1:
        raise ValueError("shuffle_model: n must exceed 1")
    if d <= 0 or d >= 1:
        raise ValueError("shuffle_model: delta must lie in (0, 1)")
    logd = math.log(1 / d)
    e1 = 2 * _exp(2 * e0) * (_exp(e0) - 1) / nn
    general = e1 * math.sqrt(2 * nn * logd) + nn * e1 * (_exp(e1) - 1)
    m1 = _exp(e0) - 1
    refined = _exp(2 * e0) * m1 * math.sqrt(8 * logd / nn) + 6 * _exp(4 * e0) * (m1 * m1) / nn  # R's ^2: x * x overflows to Inf, as R does
    simple = 12 * e0 * math.sqrt(logd / nn)
    return {
        "estimate": general,
        "epsilon_refined": refined,
        "epsilon_simple": simple,
        "epsilon1": e1,
        "refined_valid": 1.0 if e0 <= math.log(nn / 4) / 3 else 0.0,
        "simple_valid": 1.0 if (nn >= 1000 and e0 < 0.5 and d < 0.01) else 0.0,
        "amplifies": 1.0 if e0 <= math.log(nn / 2) / 3 else 0.0,
    }


def estimate(eps0: float, n: float, delta: float) -> float:
    """`Shfflm(eps0, n, delta)$estimate`: the general bound of EFMRTT19 Theorem 7 (arXiv v2), the field
    the package offers as the central epsilon."""
    return shfflm(eps0, n, delta)["estimate"]
