"""The dominating pair's construction leaves mpmath's global interval context to its caller.

`connect_the_dots` set the precision of `mpmath.iv`, the process-wide interval context that a caller's own code
uses, and never set it back: after one composition (`composed_epsilon("compose.krr", ...)`) a notebook's
`mpmath.iv` computed at 169 bits instead of 53. It now works in a private context of the same precision.
"""

import math

import mpmath

from shuffle_spec.reference.composition.connect_the_dots import connect_the_dots


def test_the_construction_leaves_the_global_interval_precision_as_it_was():
    before = (mpmath.iv.prec, mpmath.mp.prec)
    # Binary randomized response at eps0 = 1: delta(eps) = p - e^eps q at eps = 0, 0.5 (p = e/(1 + e), q = 1 - p),
    # 0 at eps0, rounded up at the 4th digit (upper bounds): 0.4621 -> 0.4622, 0.2878 -> 0.2879.
    pair = connect_the_dots(0.5, [0, 0.5, 1.0], [0.4622, 0.2879, 0.0], eps0=1.0)
    assert (mpmath.iv.prec, mpmath.mp.prec) == before
    # The pair is the randomized response's own (p, q) at the nodes -eps0 and eps0, rounded up.
    p = math.e / (1 + math.e)
    assert list(pair.index) == [-2, 2]
    assert 0 <= pair.p_mass[1] - p < 1e-3 and 0 <= pair.q_mass[0] - p < 1e-3
