"""The node placement of the Lemma 5.3 envelopes (`blanket_rounds._nodes`, module doc B1): the bisection that places
the end of the range stops as soon as the grid step is decided, and the nodes (hence every certified value and the
composition) are those of the bisection run to its full width. Checked on explicit decreasing profiles against a
re-implementation of the full bisection."""

from __future__ import annotations

import math

import pytest

from shuffle_spec.reference.composition import blanket_rounds


def _full_bisection_nodes(upper_at, eps0, floor, count):
    """The node placement with the bisection run to its END_TOLERANCE width (no early stop)."""
    lo, hi = 0.0, eps0
    if upper_at(hi * 0.999) > floor:
        end = eps0
    else:
        while hi - lo > blanket_rounds.END_TOLERANCE * hi:
            mid = 0.5 * (lo + hi)
            if upper_at(mid) > floor:
                lo = mid
            else:
                hi = mid
        end = hi
    step = 2.0 ** math.floor(math.log2(end / count))
    nodes = []
    i = 0
    while i * step < eps0:
        nodes.append(i * step)
        i += 1
        if upper_at(nodes[-1]) < floor:
            break
    return step, nodes


@pytest.mark.parametrize("rate", [0.5, 3.0, 7.5, 21.0, 40.0, 55.0, 130.0, 400.0])
def test_early_stopped_bisection_places_the_same_nodes_with_fewer_evaluations(rate):
    """Profiles e^(-rate eps^2) and e^(-rate eps) on [0, eps0 = 4] with the floor 1e-17 (rate 0.5: no crossing
    below eps0, the nodes span it): the same step, nodes and values as the full bisection, in at most as many
    evaluations."""
    for shape in (lambda eps: math.exp(-rate * eps * eps), lambda eps: math.exp(-rate * eps)):
        calls: list[float] = []

        def upper_at(eps, shape=shape):
            calls.append(eps)
            return shape(eps)

        step, nodes, values = blanket_rounds._nodes(upper_at, 4.0, 1e-17, 16)
        used = len(calls)
        calls.clear()
        full_step, full_nodes = _full_bisection_nodes(upper_at, 4.0, 1e-17, 16)
        assert step == full_step and list(nodes) == full_nodes
        assert list(values) == [min(shape(x), 1.0) for x in full_nodes]
        assert used <= len(calls)
