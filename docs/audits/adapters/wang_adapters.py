"""Adapters for wangsw/PrivacyAmplification (Wang et al., VLDB 2024), for `shuffle-spec audit bound`.

The project does not ship that code: clone it yourself and put its folder on PYTHONPATH, e.g.

    git clone https://github.com/wangsw/PrivacyAmplification /tmp/wang
    PYTHONPATH=/tmp/wang shuffle-spec audit bound docs/audits/adapters/wang_adapters.py:general --id FMT21.clones_numeric --grid

The parameters (p, beta, q) are the repository README's table: "general mechanisms" p = q = e^eps0,
beta = (e^eps0 - 1)/(e^eps0 + 1); "general RR on d options" beta = (e^eps0 - 1)/(e^eps0 + d - 1).
T = 20 bisection steps (the README suggests 8 for speed; more steps only tighten).
"""

import math

from unifiedamplification import amplificationUB  # third-party code on PYTHONPATH

STEPS = 20


def general(eps0, n, delta):
    """Their bound for every eps0-LDP randomizer ("general mechanisms")."""
    p = math.exp(eps0)
    return float(amplificationUB(p, (p - 1) / (p + 1), p, p, n, delta, STEPS))


def krr(eps0, n, delta, k):
    """Their bound for k-ary randomized response ("general RR on d options")."""
    p = math.exp(eps0)
    return float(amplificationUB(p, (p - 1) / (p + k - 1), p, p, n, delta, STEPS))
