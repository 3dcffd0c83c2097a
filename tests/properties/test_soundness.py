"""Soundness of every registered amplification upper bound against the truth.

- Small n: for eps0-LDP randomizers drawn at random (exact rationals), every generic bound whose hypotheses
  hold is >= the exact central eps of the shuffled randomizer (`shuffle_spec.reference.finite.shuffling`); k-RR-specific bounds
  are compared on k-RR (`shuffle_spec.reference.exact.krr`), binary-RR-specific ones on binary RR.
- Moderate n: the same on exact shuffled binary RR and 3-RR computed with their symmetry (`exact.shuffled_krr`),
  where the FMT21 closed forms' regime is reachable.
- Large n: every generic bound >= `exact.shuffled_binary_rr` on a grid (when that statement is registered).
- Closed forms FMT21.Thm2.1 (seed and full version) >= `FMT21.clones_numeric` wherever both apply.

A bound evaluated outside its hypotheses answers valid=false, which is fine; the tests count the bounds
actually compared so that a test which compares nothing fails instead of passing vacuously.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_spec.interface.amplification import EXACT_BINARY_RR_ID, amplification_statements, evaluate_bounds
from shuffle_spec.proofs_checks.bridge import evaluate
from shuffle_spec.reference.exact.krr import exact_shuffled_krr_e_eps
from shuffle_spec.reference.core.rounding import round_down, round_up
from shuffle_spec.reference.finite.shuffling import exact_shuffled_e_eps
from shuffle_spec.spec.registry import registry
from shuffle_spec.spec.statement import Direction
from support.strategies import ldp_randomizers

CLONES_NUMERIC = "FMT21.clones_numeric"
CLOSED_FORMS = ("FMT21.Thm2.1", "FMT21.Thm2.1.focs")
# Local-delta inputs of approximate-LDP bounds: the randomizers here are pure, so delta0 = 0.
PURE_LDP_EXTRAS = {"delta0": 0.0}


def _log_down(ratio: Fraction) -> float:
    """log(ratio) rounded down: the exact eps a sound bound must not be below."""
    if ratio <= 1:
        return 0.0
    return max(0.0, round_down(math.log(ratio.numerator) - math.log(ratio.denominator), 8))


def _eps0_for(e_eps0: Fraction) -> float:
    """A float eps0 >= log(e_eps0): the randomizer is eps0-LDP for it too, so every bound must hold there."""
    return round_up(math.log(e_eps0.numerator) - math.log(e_eps0.denominator), 8)


def _upper_bounds(mechanism: str):
    """Registered upper bounds that apply to `mechanism` (generic ones always do)."""
    return [s for s in amplification_statements(mechanism) if s.direction is Direction.UPPER_BOUND]


def _compare(statements, eps0: float, n: int, delta: float, exact_eps: float, extra: dict) -> int:
    """Assert every applicable bound is >= exact_eps; return how many were valid (and so compared)."""
    compared = 0
    given_params = {"eps0": eps0, "n": n, "delta": delta, **PURE_LDP_EXTRAS, **extra}
    for statement in statements:
        if not set(statement.input_names) <= set(given_params):
            continue
        result = evaluate(statement, {name: given_params[name] for name in statement.input_names})
        if not result.valid:
            continue
        compared += 1
        assert result.value >= exact_eps, f"{statement.id} = {result.value} < exact {exact_eps} at eps0={eps0}, n={n}, delta={delta}, {extra}"
    return compared


@settings(max_examples=20)
@given(ldp_randomizers(max_inputs=3, max_outputs=3), st.sampled_from([2, 3]), st.sampled_from([Fraction(1, 10), Fraction(1, 100)]))
def test_generic_bounds_at_least_exact_on_random_small_randomizers(drawn, n, delta):
    randomizer, e_eps0 = drawn
    exact = _log_down(exact_shuffled_e_eps(randomizer, n, delta))
    compared = _compare(_upper_bounds("generic"), _eps0_for(e_eps0), n, float(delta), exact, {})
    # Closed forms need n >= 16 log(2/delta) e^eps0 > 2; the numeric clone bound holds at every n.
    if CLONES_NUMERIC in registry():
        assert compared >= 1


# Exact shuffled k-RR at moderate n (exact.shuffled_krr). The first two cases are inside FMT21 Thm 2.1's
# regime n >= 16 log(2/delta) e^eps0 (exact eps is 0 there: delta exceeds the total variation); the others
# have exact eps > 0 and exercise the numeric and mechanism-specific bounds.
KRR_CASES = [
    (2, Fraction(3, 2), 40, Fraction(1, 2)),
    (2, Fraction(5, 4), 30, Fraction(9, 10)),
    (2, Fraction(3, 2), 20, Fraction(1, 100)),
    (2, Fraction(2), 30, Fraction(1, 1000)),
    (2, Fraction(4), 16, Fraction(1, 100)),
    (3, Fraction(2), 8, Fraction(1, 50)),
    (3, Fraction(3), 10, Fraction(1, 100)),
    (4, Fraction(3), 6, Fraction(1, 20)),
]


def test_bounds_at_least_exact_shuffled_krr_moderate_n():
    closed_forms = specific = positive = 0
    for k, e_eps0, n, delta in KRR_CASES:
        exact = _log_down(exact_shuffled_krr_e_eps(k, e_eps0, n, delta))
        positive += exact > 0
        mechanisms = ("krr", "binary_rr") if k == 2 else ("krr",)
        statements = list({s.id: s for m in mechanisms for s in _upper_bounds(m)}.values())
        eps0 = _eps0_for(e_eps0)
        closed_forms += _compare([s for s in statements if s.id in CLOSED_FORMS], eps0, n, float(delta), exact, {"k": k})
        specific += _compare([s for s in statements if s.mechanism in mechanisms and exact > 0], eps0, n, float(delta), exact, {"k": k})
        _compare([s for s in statements if s.id not in CLOSED_FORMS and s.mechanism not in mechanisms], eps0, n, float(delta), exact, {"k": k})
    assert positive == len(KRR_CASES) - 2
    assert closed_forms == 2 * len(CLOSED_FORMS)  # both variants at the first two cases
    if any(s.mechanism == "krr" for s in _upper_bounds("krr")):
        assert specific > 0, "no k-RR-specific bound was valid at any case with a positive exact eps"


GRID = [(eps0, n, 1e-6) for eps0 in (0.1, 1.0, 4.0, 8.0) for n in (1_000, 10**5, 10**8)] + [(0.5, 10**4, 1e-9), (2.0, 10**6, 1e-9)]


def test_generic_bounds_at_least_exact_binary_rr_large_n():
    if EXACT_BINARY_RR_ID not in registry():
        pytest.skip(f"{EXACT_BINARY_RR_ID} is not registered yet")
    exact_statement = registry()[EXACT_BINARY_RR_ID]
    compared = 0
    for eps0, n, delta in GRID:
        # Soundness needs a LOWER bound on the truth: the certified worst case up to n = 1e3 (its lower end),
        # the exact pair k = 0 (exact.shuffled_binary_rr.pair, a lower bound on it) above, where the worst
        # case's branch and bound costs seconds per point (`docs/exact_binary_rr.md`).
        if n <= 1_000:
            truth = evaluate(exact_statement, {"eps0": eps0, "n": n, "delta": delta})
        else:
            truth = evaluate(registry()[EXACT_BINARY_RR_ID + ".pair"], {"eps0": eps0, "n": n, "delta": delta, "k": 0})
        assert truth.valid, truth.reason
        exact_low = truth.interval[0] if truth.interval else round_down(truth.value, 4)
        for row in evaluate_bounds(eps0, n, delta, mechanism="binary_rr", extra={"k": 2, **PURE_LDP_EXTRAS}):
            if row.valid:
                compared += 1
                assert row.eps >= exact_low, f"{row.id} = {row.eps} < exact binary RR {exact_low} at eps0={eps0}, n={n}, delta={delta}"
    assert compared >= len(GRID)


def test_closed_forms_at_least_numeric_clone_bound():
    if CLONES_NUMERIC not in registry():
        pytest.skip(f"{CLONES_NUMERIC} is not registered yet")
    numeric = registry()[CLONES_NUMERIC]
    compared = 0
    for eps0, n, delta in GRID:
        if n > 10**6:
            continue  # the closed forms' regime is covered by smaller n; keeps the numeric evaluations cheap
        clones = evaluate(numeric, {"eps0": eps0, "n": n, "delta": delta})
        for statement_id in CLOSED_FORMS:
            closed = evaluate(registry()[statement_id], {"eps0": eps0, "n": n, "delta": delta})
            if closed.valid and clones.valid:
                compared += 1
                assert closed.value >= clones.value, f"{statement_id} = {closed.value} < {CLONES_NUMERIC} = {clones.value} at {eps0, n, delta}"
    assert compared > 0


def test_every_registered_amplification_bound_is_exercised_somewhere():
    # The FMT21 closed forms must be among the compared bounds above; this guards against a registry
    # change that silently removes them from `amplification_statements`.
    ids = {s.id for s in _upper_bounds("generic")}
    assert set(CLOSED_FORMS) <= ids
