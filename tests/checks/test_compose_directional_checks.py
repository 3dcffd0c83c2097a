"""The directional composition's proof checks (proofs_checks/derived/compose_directional.py) can fail: each is run
with one ingredient made wrong and must then report a failure (the passing runs are in test_proof_checks.py)."""

from shuffle_spec.proofs_checks.derived import compose_directional as checks
from shuffle_spec.proofs_checks.framework import ProofCheck, run_check


def _run(function) -> bool:
    return run_check(ProofCheck("compose.binary_rr", "planted", function)).passed


def test_domination_fails_when_a_alone_must_dominate_the_reverse_family(monkeypatch):
    """D3: A does not dominate (P_k, Q_k) for k < floor(n/2) at n = 4 (the reversed half is needed)."""
    monkeypatch.setattr(checks, "_reverse_curve", checks._pair_curve)
    assert not _run(checks._directional_domination)


def test_programme_check_fails_for_a_programme_one_round_short(monkeypatch):
    """D4: W_{T-1} is below the exact V_T somewhere (T = 2, 3 at n = 3), so the check compares the right rounds."""
    original = checks.compose_directional
    monkeypatch.setattr(checks, "compose_directional", lambda pair, *, rounds, **kw: original(pair, rounds=rounds - 1, **kw))
    assert not _run(checks._programme_above_worst_case)


def test_chain_rule_check_fails_when_the_product_ignores_the_adaptive_choice(monkeypatch):
    """D1: the product laws built with the same second-round pair after every y1 do not match the chained sum
    over the pairs chosen by y1."""
    product = checks._adaptive_product
    monkeypatch.setattr(checks, "_adaptive_product", lambda first, second: product(first, [second[0]] * len(second)))
    assert not _run(checks._chain_rule)
