"""Adapters for apple/ml-shuffling-amplification (FMT21's code), for `shuffle-spec audit bound`.

The project does not ship that code: clone it yourself and put its folder on PYTHONPATH, e.g.

    git clone https://github.com/apple/ml-shuffling-amplification /tmp/apple
    PYTHONPATH=/tmp/apple shuffle-spec audit bound docs/audits/adapters/apple_adapters.py:numerical_upper --id FMT21.clones_numeric --grid

`closedformanalysis(n, eps0, delta)` takes n first, so it needs an adapter too (a function whose
parameters are named eps0, n, delta is called by keyword).
"""

import computeamplification as CA  # third-party code on PYTHONPATH


def closed_form(eps0, n, delta):
    return CA.closedformanalysis(n, eps0, delta)


def numerical_upper(eps0, n, delta):
    # The settings of the repository's example.py: 10 bisection steps, step 100.
    return CA.numericalanalysis(n, eps0, delta, 10, 100, True)


def numerical_upper_fine(eps0, n, delta):
    # A finer bisection (30 steps) with the same step: separates search error from the analysis.
    return CA.numericalanalysis(n, eps0, delta, 30, 100, True)
