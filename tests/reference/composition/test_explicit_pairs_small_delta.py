"""The composed LOWER ends of compose.binary_rr and compose.krr below delta = 1e-10 (reference/composition/
explicit_pairs.py, module doc, Below the floor): the curves composed at delta = 1e-12 certify nothing below their
round-off (~1e-13 of the mass), so the lower end stayed at its 1e-12 value (binary RR eps0 = 1, n = 100, T = 2:
1.0804 at every delta from 1e-15 to 1e-100); each candidate's lower end is now also searched on its grids tilted at
the eps judged (`solve.tilted_lower_epsilon`).

The yardstick: a certified lower end L of the worst case means that some candidate pair of neighbouring T-round
datasets has exact delta(L) > delta. For binary RR at n = 100 the candidates are the pairs (P_k, Q_k) with k = n-1 and
n-2 ones among the others, composed with a = 2, 1, 0 of the T = 2 rounds forward (module doc of explicit_pairs);
their exact delta(L) is evaluated here at 40 digits over the 101^2 composed outcomes (an independent computation)."""

from __future__ import annotations

import math

import mpmath
import pytest

from shuffle_spec.reference.composition import mechanism_rounds as mech
from shuffle_spec.reference.composition.mechanism_rounds import MechanismRound


def _binary_rr_law(eps0: float, n: int, k: int, bit: int) -> list[mpmath.mpf]:
    """Law of the number of ones among n binary-RR reports (truth kept w.p. e^eps0 / (e^eps0 + 1)): the user holding
    `bit`, k others holding 1, n - 1 - k holding 0 (exact binomial convolution at the working precision)."""
    p = mpmath.e ** mpmath.mpf(eps0) / (mpmath.e ** mpmath.mpf(eps0) + 1)
    ones = [mpmath.binomial(k, j) * p**j * (1 - p) ** (k - j) for j in range(k + 1)]
    zeros = [mpmath.binomial(n - 1 - k, j) * (1 - p) ** j * p ** (n - 1 - k - j) for j in range(n - k)]
    user = [1 - p, p] if bit == 1 else [p, 1 - p]
    law = [mpmath.mpf(0)] * (n + 1)
    for a, x in enumerate(ones):
        for b, y in enumerate(zeros):
            for c, z in enumerate(user):
                law[a + b + c] += x * y * z
    return law


def _composed_delta(eps: float, laws: list[tuple[list[mpmath.mpf], list[mpmath.mpf]]]) -> mpmath.mpf:
    """Exact hockey-stick divergence at e^eps of the product of the rounds' pairs (P_r, Q_r) over all outcomes."""
    total = mpmath.mpf(0)
    threshold = mpmath.e ** mpmath.mpf(eps)
    (p1, q1), (p2, q2) = laws
    for x1 in range(len(p1)):
        for x2 in range(len(p2)):
            gap = p1[x1] * p2[x2] - threshold * q1[x1] * q2[x2]
            if gap > 0:
                total += gap
    return total


@pytest.mark.parametrize("delta", [1e-30, pytest.param(1e-50, marks=pytest.mark.slow)])  # 1e-30 stays in the default tier
def test_binary_rr_lower_end_below_the_floor_is_certified_by_an_exact_candidate_and_rises(delta: float) -> None:
    eps0, n = 1.0, 100
    rounds = [MechanismRound("binary_rr", eps0, n, 2)]
    low = mech.composed_lower_epsilon(rounds, delta=delta).value
    floor_value = mech.composed_lower_epsilon(rounds, delta=1e-12).value
    with mpmath.workdps(40):
        best = mpmath.mpf(0)
        for k in (n - 1, n - 2):
            forward = (_binary_rr_law(eps0, n, k, 1), _binary_rr_law(eps0, n, k, 0))
            backward = (forward[1], forward[0])
            for laws in ([forward, forward], [forward, backward], [backward, backward]):
                best = max(best, _composed_delta(low, laws))
    assert best > delta, (low, best)  # some candidate's exact delta at the lower end is above delta
    # Below the floor the lower end rises with 1/delta (it stayed at the 1e-12 curves' value before): at least half
    # way from that value to eps0 x T = 2, where the exact eps of the k = n - 1 pair lies at these deltas.
    assert low >= floor_value + 0.5 * (2 * eps0 - floor_value), (low, floor_value)


@pytest.mark.slow  # the k-RR envelope and trinomial pairs: about 3.5 s; binary RR above keeps the default tier's instance
def test_krr_lower_end_below_the_floor_stays_below_the_dominating_upper_end() -> None:
    # k-RR k = 3, eps0 = 1, n = 1000, T = 2 at delta = 1e-30: the lower end (explicit pairs x0 and third, tilted lower
    # search) against the certified upper end of the same worst case by an independent route (BBGN19 Lemma 5.3
    # envelope, connect-the-dots dominating pair, pessimistic FFT): lower <= upper, and the lower end rose from
    # 0.3068 (its value at every delta below 1e-12 before the tilted search) to within 15% of the upper end.
    rounds = [MechanismRound("krr", 1.0, 1000, 2, 3)]
    low = mech.composed_lower_epsilon(rounds, delta=1e-30).value
    upper = mech.composed_epsilon(rounds, delta=1e-30, lower=False).upper
    assert low <= upper
    assert low >= 0.85 * upper, (low, upper)
    assert math.isfinite(low)
