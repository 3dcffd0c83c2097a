"""The binary RR envelope at tiny delta (floors far below 1e-17): nodes whose worst-end pairs the pair evaluator
cannot resolve to the sweep's tolerance (certified lower end 0, upper end at its resolution) are left out of the
block acceptance (reference/composition/mechanism_rounds.py, `_binary_rr_envelope`). The envelope must still lie
above every count's certified value at every node, and compose.binary_rr at delta = 1e-300 gives the answer it gave
before (the sum of eps0 over the rounds, basic composition, with the no-gain note) above its certified lower end."""

import numpy as np
import pytest

from shuffle_spec.reference.composition import mechanism_rounds as mech
from support.caches import fresh_mechanism_round_caches  # noqa: F401 - the fixture, named in pytestmark
from shuffle_spec.reference.core.results import NO_COMPOSITION_GAIN
from shuffle_spec.reference.exact.binary_rr import pair_delta_evaluator_many


pytestmark = pytest.mark.usefixtures("fresh_mechanism_round_caches")


@pytest.mark.slow
def test_tiny_floor_envelope_is_above_every_count():
    # eps0 = 2, n = 1000: the profile reaches the pair evaluator's resolution (~1e-39) before eps0, so the last
    # nodes are unresolved (checked below) and the rule that leaves them out of the acceptance is exercised.
    eps0, n = 2.0, 1000
    env = mech.profile_envelope("binary_rr", eps0=eps0, n=n, floor=1e-60)
    assert n > mech.ALL_COUNTS_UP_TO  # the block sweep, not the count-by-count path
    many = pair_delta_evaluator_many(eps0)
    ends = [many(n, k, env.nodes) for k in (n - 1, 0)]
    worst_lower = np.maximum(ends[0][0], ends[1][0])
    worst_upper = np.maximum(ends[0][1], ends[1][1])
    unresolved = np.nonzero(worst_upper > (1 + mech.ENVELOPE_TOLERANCE) * worst_lower)[0]
    assert len(unresolved) > 0  # the case the acceptance rule leaves out really occurs at this floor
    # Every ordered pair is some (P_k, Q_k), k ones among the n - 1 others (module doc, U1): the envelope is above
    # every count's certified lower end at the unresolved nodes and at every fifth node (each count evaluated on
    # its own, where the sweep bounded it inside a block by thinned removal).
    picked = np.union1d(unresolved, np.arange(0, len(env.nodes), 5))
    for k in range(n):
        lower, _ = many(n, k, env.nodes[picked])
        assert np.all(env.upper[picked] >= lower), (k, env.nodes[picked], env.upper[picked], lower)


def test_binary_rr_at_delta_1e_300_is_basic_composition_with_its_note():
    # At this delta the certified FFT's round-off (module doc of numerics/pld.py, point 4) exceeds delta inside the
    # loss window: nothing below eps0 T is certified, as before the sweep's change (it took about a minute then).
    got = mech.composed_epsilon([mech.MechanismRound("binary_rr", 4.0, 10**4, 2)], delta=1e-300, lower=False)
    assert got.upper == 8.0  # eps0 T: every eps0-LDP round is eps0-DP (basic composition)
    assert NO_COMPOSITION_GAIN in got.note
