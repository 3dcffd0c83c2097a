"""A deliberately wrong third-party implementation of FMT21 Thm 2.1, for `shuffle-spec audit bound`.

The intended formula (the spec's `shuffle-spec show FMT21.Thm2.1`) is
    eps = log(1 + (1 - e^{-2 eps0}) (8 e^{eps0/2} sqrt(log(4/delta)) / sqrt(n) + 8 e^{eps0} / n)).
This version has two bugs a reviewer could miss:
  1. a transcription slip: `/ n` where the paper has `/ sqrt(n)`, so the bound is far too small
     (unsound: below the exact epsilon of shuffled binary randomized response);
  2. no check of the hypotheses (eps0 <= log(n / (16 log(2/delta))), delta <= 1): it answers for
     inputs where the theorem says nothing.
`shuffle-spec audit bound examples/wrong_bound.py:fmt21_epsilon --id FMT21.Thm2.1` catches both.
"""

import math


def fmt21_epsilon(eps0, n, delta):
    shrink = 1 - math.exp(-2 * eps0)
    return math.log1p(shrink * (8 * math.exp(eps0 / 2) * math.sqrt(math.log(4 / delta)) / n + 8 * math.exp(eps0) / n))


def fmt21_epsilon_fixed(eps0, n, delta):
    """The same function with both bugs fixed (passes the audit up to rounding)."""
    if not (eps0 > 0 and n >= 1 and n == int(n) and 0 < delta <= 1 and eps0 <= math.log(n / (16 * math.log(2 / delta)))):
        raise ValueError("outside the hypotheses of FMT21 Thm 2.1")
    shrink = 1 - math.exp(-2 * eps0)
    return math.log1p(shrink * (8 * math.exp(eps0 / 2) * math.sqrt(math.log(4 / delta)) / math.sqrt(n) + 8 * math.exp(eps0) / n))
