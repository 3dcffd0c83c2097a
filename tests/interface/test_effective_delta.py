"""Statements whose epsilon holds at a delta other than the one asked for (FMT21 Prop 2.2: shuffled
(eps0, delta0)-LDP randomizers are (eps, delta')-DP with delta' = delta + (e^eps + 1)(1 + e^-eps0) n delta0 in
the seed, (1 + e^-eps0/2) in the full version, arXiv 2012.12803 Thm 3.8).

Every surface reports such an epsilon together with the delta' at which it holds, or refuses: `eval` (JSON field
`delta_effective`), `bounds` / `compare` (never a bound at the requested delta unless delta' <= delta), the
inversions (`calibrate --target delta`, `shuffled_delta`, `get_delta` return the total delta'), and the API
functions that return a bare epsilon (they refuse when delta' > delta). Expected deltas come from the formula,
evaluated independently here in mpmath at 50 digits.
"""

from __future__ import annotations

import json
import math

import mpmath
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shuffle_spec.interface.api import ShuffleBound, calibrate_epsilon0, shuffled_delta, shuffled_epsilon
from shuffle_spec.proofs_checks.bridge import evaluate
from shuffle_spec.spec.catalog import entry, resolve
from shuffle_spec.interface.cli.main import main
from shuffle_spec.reference.core.errors import HypothesisViolation
from shuffle_spec.spec.registry import get_statement, registry

SEED, FOCS = "FMT21.Prop2.2", "FMT21.Prop2.2.focs"
PROVIDERS = {SEED: "FMT21.Prop2.2.delta_prime", FOCS: "FMT21.Prop2.2.focs_delta_prime"}


def _mp_eps(variant: str, eps0: float, n: int, delta: float) -> mpmath.mpf:
    """FMT21 eq. (1): log(1 + F G), G = 8 sqrt(e^eps0 log(4/delta) / n) + 8 e^eps0 / n; F = 1 - e^{-2 eps0} (seed)
    or (e^eps0 - 1)/(e^eps0 + 1) (full version)."""
    with mpmath.workdps(50):
        e0 = mpmath.exp(mpmath.mpf(eps0))
        g = 8 * mpmath.sqrt(e0 * mpmath.log(4 / mpmath.mpf(delta)) / n) + 8 * e0 / n
        f = 1 - mpmath.exp(-2 * mpmath.mpf(eps0)) if variant == SEED else (e0 - 1) / (e0 + 1)
        return mpmath.log(1 + f * g)


def _mp_delta_prime(variant: str, eps: float, eps0: float, delta0: float, n: int, delta: float) -> mpmath.mpf:
    """delta + (e^eps + 1) c n delta0 with c = 1 + e^-eps0 (seed) or 1 + e^-eps0 / 2 (full version)."""
    with mpmath.workdps(50):
        tail = mpmath.exp(-mpmath.mpf(eps0))
        c = 1 + tail if variant == SEED else 1 + tail / 2
        return mpmath.mpf(delta) + (mpmath.exp(mpmath.mpf(eps)) + 1) * c * n * mpmath.mpf(delta0)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- the reproducers ---------------------------------------------------------------------------------------


def test_bounds_does_not_present_an_epsilon_at_a_larger_delta_as_a_bound_at_delta(capsys):
    argv = ("bounds", "--eps0", "1", "--n", "1e4", "--delta", "1e-6", "--param", "delta0=1e-5")
    code, out, _ = run(capsys, *argv, "--json")
    assert code == 0
    rows = {row["id"]: row for row in json.loads(out)["points"][0]["bounds"]}
    for statement_id in (SEED, FOCS):
        row = rows[statement_id]
        expected = _mp_delta_prime(statement_id, row["eps"], 1.0, 1e-5, 10_000, 1e-6)
        assert row["valid"] is False, "an epsilon that holds only at delta' > delta is no bound at delta"
        assert row["delta_effective"] >= expected and row["delta_effective"] == pytest.approx(float(expected), rel=1e-12)
        assert "delta'" in row["reason"]
    code, out, _ = run(capsys, *argv)
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("FMT21.Prop2.2")}
    assert "True" not in lines[SEED] and "at delta' = 0.3346" in lines[SEED]
    # The table lists the bounds at the requested delta first, by increasing eps: Prop 2.2 is not among them.
    table = [line.split()[0] for line in out.splitlines()[2:] if line and not line.startswith(("not applicable", "gap"))]
    assert table.index(SEED) > table.index("FMT21.Thm2.1") and table.index(FOCS) > table.index("FMT21.Thm2.1")


def test_bounds_with_delta0_zero_reports_prop22_at_the_requested_delta(capsys):
    code, out, _ = run(capsys, "bounds", "--eps0", "1", "--n", "1e4", "--delta", "1e-6", "--param", "delta0=0", "--json")
    rows = {row["id"]: row for row in json.loads(out)["points"][0]["bounds"]}
    assert code == 0 and rows[SEED]["valid"] is True and rows[SEED]["delta_effective"] == 1e-6
    assert rows[SEED]["eps"] == rows["FMT21.Thm2.1"]["eps"]


def test_calibrate_target_delta_refuses_a_randomizer_that_certifies_nothing(capsys):
    # delta0 = 1/2: the randomizer reveals its input with probability 1/2; delta' >= 2 n delta0 = 1e4.
    code, out, err = run(capsys, "calibrate", SEED, "--target", "delta", "--eps", "0.5", "--eps0", "1", "--n", "10000", "-p", "delta0=0.5")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "delta'" in err and "nothing" in err


def test_calibrate_target_delta_returns_the_total_delta_prime(capsys):
    code, out, _ = run(capsys, "calibrate", SEED, "--target", "delta", "--eps", "0.5", "--eps0", "1", "--n", "10000", "-p", "delta0=1e-12", "--json")
    assert code == 0
    answer = json.loads(out)
    input_delta = answer["input_delta"]
    assert _mp_eps(SEED, 1.0, 10_000, input_delta) <= 0.5
    assert answer["value"] >= _mp_delta_prime(SEED, answer["bound_at_value"], 1.0, 1e-12, 10_000, input_delta)
    assert answer["value"] > input_delta + 2 * 10_000 * 1e-12  # the delta0 term is counted


def test_api_get_delta_refuses_where_nothing_is_certified():
    bound = ShuffleBound(SEED, eps0=1, n=10000, delta0=0.5)
    with pytest.raises(HypothesisViolation, match="delta'"):
        bound.get_delta(0.5)
    with pytest.raises(HypothesisViolation, match="delta'"):
        shuffled_delta(FOCS, eps=0.5, eps0=1, n=10000, delta0=0.5)


def test_api_bare_epsilons_refuse_when_delta_prime_exceeds_delta():
    bound = ShuffleBound(SEED, eps0=1, n=10000, delta0=1e-5)
    for call in (lambda: bound.get_epsilon(1e-6), lambda: bound.interval(1e-6), lambda: shuffled_epsilon(SEED, eps0=1, n=10000, delta=1e-6, delta0=1e-5)):
        with pytest.raises(HypothesisViolation, match="delta'"):
            call()
    with pytest.raises(HypothesisViolation, match="delta'"):
        calibrate_epsilon0(SEED, eps=0.5, n=10000, delta=1e-6, delta0=1e-5)
    # The pair is available: the evaluation carries the delta' at which the epsilon holds.
    evaluation = bound.evaluation(1e-6)
    assert evaluation.valid and evaluation.delta_effective >= _mp_delta_prime(SEED, evaluation.value, 1, 1e-5, 10000, 1e-6)
    # delta0 = 0: delta' = delta, the bare epsilon is certified at delta (Thm 2.1's).
    pure = ShuffleBound(SEED, eps0=1, n=10000, delta0=0)
    assert pure.get_epsilon(1e-6) == shuffled_epsilon("FMT21.Thm2.1", eps0=1, n=10000, delta=1e-6)


def test_eval_json_and_text_carry_the_delta_prime(capsys):
    params = ("-p", "eps0=1", "-p", "n=1e4", "-p", "delta=1e-6", "-p", "delta0=1e-5")
    code, out, _ = run(capsys, "eval", SEED, *params, "--json")
    answer = json.loads(out)
    provider = json.loads(run(capsys, "eval", PROVIDERS[SEED], *params, "--json")[1])
    assert code == 0 and answer["valid"] is True and answer["params"]["delta"] == 1e-6
    assert answer["delta_effective"] == provider["value"] >= _mp_delta_prime(SEED, answer["value"], 1, 1e-5, 10_000, 1e-6)
    assert PROVIDERS[SEED] in answer["delta_effective_formula"]
    code, out, _ = run(capsys, "eval", SEED, *params)
    assert code == 0 and "at delta' = 0.3346" in out.splitlines()[0]


def test_eval_refuses_a_delta_prime_of_one_or_more(capsys):
    code, out, _ = run(capsys, "eval", FOCS, "-p", "eps0=1", "-p", "n=1e4", "-p", "delta=1e-6", "-p", "delta0=0.5", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["valid"] is False and answer["value"] is None and "nothing" in answer["reason"]


# --- every such statement is marked (or refused) --------------------------------------------------------


def _delta_like(name: str) -> bool:
    return name.startswith("delta") and name != "delta"


# Statements the walk below flags whose value is claimed at no delta other than the one given, with the reason.
CONCLUSION_AT_ITS_OWN_DELTA = {
    "EFMRSTT20.ThmV.2": "the deleted-count bound holds with probability >= 1 - delta_cr, the delta_cr given",
    "BBGN19.Lem4.5": "its delta is the DP level assumed of the protocol (delta <= 1/8); the value is a probability floor, not a privacy claim",
}


def test_every_statement_with_a_second_delta_is_marked_with_its_delta_prime():
    """A statement whose conclusion holds at a delta other than its input `delta` (a delta0 / delta_prime input, or
    a delta in its conclusion that is not an input) carries `effective_delta` (its provider, or the formula when
    the delta depends on a quantity that is not an input), or is itself the delta' (output delta-like), or is
    listed above with the reason its conclusion holds at the delta given. A new statement cannot slip through."""
    unmarked = []
    for statement in registry().values():
        if not statement.is_evaluable:
            continue
        inputs = set(statement.input_names)
        in_conclusion = {str(s) for c in statement.conclusion for s in c.free_symbols}
        second_delta = any(_delta_like(name) for name in inputs) or any(name.startswith("delta") and name not in inputs for name in in_conclusion)
        symbols = {str(s) for s in statement.symbols}
        second_delta = second_delta or ("delta0" in symbols)
        if not second_delta or statement.id in CONCLUSION_AT_ITS_OWN_DELTA:
            continue
        if statement.output is not None and str(statement.output).startswith("delta"):
            continue  # it is a delta' itself
        if statement.effective_delta is None:
            unmarked.append(statement.id)
    assert unmarked == []


def test_marks_are_well_formed_and_reach_the_catalog():
    marked = [s for s in registry().values() if s.effective_delta is not None]
    assert {SEED, FOCS} <= {s.id for s in marked}
    for statement in marked:
        mark = statement.effective_delta
        assert mark.formula
        catalogued = entry(statement.id)
        assert catalogued is not None and catalogued.effective_delta == mark
        if statement.is_amplification_bound:
            # An epsilon offered at a requested delta must say at which delta' it holds: a provider is required.
            assert mark.provider, f"{statement.id}: an amplification bound needs a delta' provider"
        if mark.provider:
            provider = get_statement(mark.provider)
            assert str(provider.output).startswith("delta") and set(provider.input_names) <= set(statement.input_names)
            assert provider.direction.value == "upper_bound" and provider.effective_delta is None
            for example in statement.examples:
                answer = evaluate(resolve(statement.id), example)
                direct = evaluate(resolve(provider.id), {k: example[k] for k in provider.input_names})
                assert answer.valid and answer.delta_effective == direct.value >= example.get("delta", 0)


def test_statements_whose_delta_is_not_an_input_say_so():
    # Advanced composition: eps' holds at k delta + delta' with delta the per-step delta (not an input).
    answer = evaluate(resolve("EFMRTT19.Thm2"), {"eps": 0.1, "k": 10, "delta_prime": 1e-5})
    assert answer.valid and answer.delta_effective is None
    assert "k*delta + delta_prime" in answer.to_json()["delta_effective_formula"]
    assert "delta_effective" not in answer.to_json()


# --- property: every reported (eps, delta) pair satisfies the formula -------------------------------------


def _regime(eps0: float, n: int, delta: float) -> bool:
    return eps0 <= math.log(n / (16 * math.log(2 / delta))) - 1e-9


DELTA_PRIME_POINTS = dict(
    variant=st.sampled_from((SEED, FOCS)),
    eps0=st.floats(0.05, 6.0),
    log_n=st.floats(3.0, 9.0),
    log_delta=st.floats(-14.0, -2.0),
    delta0=st.one_of(st.just(0.0), st.floats(-16.0, -3.0).map(lambda x: 10.0**x)),
)


# Each draw evaluates, inverts and recomputes in mpmath (~0.1 s): 12 derandomized draws in the default tier, the
# profile's number (40 under `ci`) in the second tier (the same check, more points).
@settings(max_examples=12)
@given(**DELTA_PRIME_POINTS)
def test_every_reported_pair_is_at_or_above_the_formulas_delta_prime(variant, eps0, log_n, log_delta, delta0):
    _assert_pairs_at_or_above_the_delta_prime(variant, eps0, log_n, log_delta, delta0)


@pytest.mark.slow
@given(**DELTA_PRIME_POINTS)
def test_every_reported_pair_is_at_or_above_the_formulas_delta_prime_at_more_points(variant, eps0, log_n, log_delta, delta0):
    _assert_pairs_at_or_above_the_delta_prime(variant, eps0, log_n, log_delta, delta0)


def _assert_pairs_at_or_above_the_delta_prime(variant, eps0, log_n, log_delta, delta0) -> None:
    n, delta = int(10**log_n), 10.0**log_delta
    assume(_regime(eps0, n, delta))
    params = {"eps0": eps0, "delta0": delta0, "n": n, "delta": delta}
    # eval / the API evaluation: (value, delta_effective).
    answer = evaluate(resolve(variant), params)
    if answer.valid:
        assert answer.value >= _mp_eps(variant, eps0, n, delta) * (1 - 1e-15)
        assert answer.delta_effective >= _mp_delta_prime(variant, answer.value, eps0, delta0, n, delta)
        assert answer.delta_effective < 1
    # bounds / compare / tightest: a row counts as a bound at the requested delta only if it holds there
    # (`BoundRow.valid` is this; the whole `bounds` path is tested above, once: it evaluates every bound).
    if answer.holds_at_requested_delta:
        assert delta >= _mp_delta_prime(variant, answer.value, eps0, delta0, n, delta)
    # a bare epsilon: certified at the requested delta.
    try:
        eps = shuffled_epsilon(variant, eps0=eps0, n=n, delta=delta, delta0=delta0)
    except HypothesisViolation:
        assert delta0 > 0
    else:
        assert delta >= _mp_delta_prime(variant, eps, eps0, delta0, n, delta)
    # the inversion: the total delta' at which a target eps is certified.
    target = 2 * float(_mp_eps(variant, eps0, n, delta))
    try:
        result = shuffled_delta(variant, eps=target, eps0=eps0, n=n, delta0=delta0)
    except ValueError:
        return  # refused: nothing reported
    input_delta = result.extra["input_delta"]
    assert _mp_eps(variant, eps0, n, input_delta) <= target
    assert result.bound_at_value <= target
    assert result.value >= _mp_delta_prime(variant, result.bound_at_value, eps0, delta0, n, input_delta)
    assert result.value < 1
