"""The catalog (`spec/catalog.json`, `shuffle_spec.spec.catalog`): current with the sources, and its SymPy-free
hypothesis checks refuse exactly where the SymPy statements do, with short readable reasons.

If `test_catalog_is_current` fails: regenerate with `python3 -m shuffle_spec.spec.registry`.
"""

from __future__ import annotations

import json
import sys

import pytest

from shuffle_spec.spec import catalog as sympy_free
from shuffle_spec.proofs_checks.bridge import evaluate
from shuffle_spec.spec import registry as reg
from shuffle_spec.spec.terms import HypothesisError

STATEMENTS = [s for s in reg.list_statements() if s.is_evaluable]
MAX_REASON = 200


def test_catalog_is_current():
    """Fails when a spec source, PAPER_MODULES or the catalog format changed without regenerating."""
    assert reg.catalog_problems() == []


def test_catalog_lists_every_statement_of_every_paper_module():
    entries = sympy_free.entries()
    assert entries is not None, "the catalog does not apply (stale?): regenerate it"
    assert list(entries) == [s.id for s in reg.list_statements()]
    for statement in reg.list_statements():
        entry = entries[statement.id]
        assert entry.module in reg.PAPER_MODULES and statement in sys.modules[entry.module].STATEMENTS
        assert entry.input_names == statement.input_names and entry.kind is statement.kind
        assert entry.is_amplification_bound == statement.is_amplification_bound


def _spec_verdict(statement, values):
    try:
        statement.check_hypotheses(values)
    except HypothesisError as failure:
        return failure.hypothesis
    return None


def _points(statement):
    yield from statement.examples
    yield from statement.invalid_examples
    first = dict(statement.examples[0]) if statement.examples else None
    if first:
        for name in statement.input_names:  # each assumption broken in turn
            yield {**first, name: -1}


# BBGN19.Cor5.3.1's SymPy Piecewise hypotheses take ~4 s of CPU to decide at these points: second tier.
SLOW_SYMPY_HYPOTHESES = ("BBGN19.Cor5.3.1",)


@pytest.mark.parametrize(
    "statement",
    [pytest.param(s, marks=pytest.mark.slow) if s.id in SLOW_SYMPY_HYPOTHESES else s for s in STATEMENTS],
    ids=lambda s: s.id,
)
def test_sympy_free_hypothesis_checks_agree_with_sympy(statement):
    entry = sympy_free.entry(statement.id)
    assert entry is not None
    for point in _points(statement):
        values = {k: point[k] for k in statement.input_names if k in point}
        if len(values) != len(statement.inputs):
            continue
        assert entry.failed_hypothesis(values) == _spec_verdict(statement, values), values


@pytest.mark.parametrize("statement", STATEMENTS, ids=lambda s: s.id)
def test_reasons_are_short_and_readable(statement):
    """A refusal names the hypothesis briefly, never as a raw SymPy Piecewise."""
    for point in statement.invalid_examples:
        for subject in (statement, sympy_free.entry(statement.id)):
            evaluation = evaluate(subject, {k: v for k, v in point.items() if k in statement.input_names})
            assert not evaluation.valid
            assert len(evaluation.reason) <= MAX_REASON and "Piecewise" not in evaluation.reason, evaluation.reason
    for hypothesis in statement.hypotheses:
        name = statement.hypothesis_name(hypothesis)
        assert len(name) <= 120 and "Piecewise" not in name


def test_a_named_hypothesis_is_reported_by_its_name():
    statement = reg.get_statement("BBGN19.Cor5.3.1")
    evaluation = evaluate(sympy_free.entry(statement.id), {"eps0": 4, "n": 1e6, "delta": 1e-6})
    assert not evaluation.valid and "Piecewise" not in evaluation.reason
    assert any(name in evaluation.reason for name in statement.hypothesis_names)


def test_a_stale_catalog_is_not_used(monkeypatch):
    monkeypatch.setattr(reg, "source_digest", lambda: "0" * 64)
    reg.catalog.cache_clear()
    try:
        assert reg.catalog() is None and sympy_free.entries() is None
        assert sympy_free.resolve("FMT21.Thm2.1") is reg.get_statement("FMT21.Thm2.1")  # the SymPy statement
    finally:
        monkeypatch.undo()
        reg.catalog.cache_clear()
    assert sympy_free.entries() is not None


def test_an_edited_catalog_is_reported_stale(tmp_path, monkeypatch):
    document = json.loads(reg.CATALOG_PATH.read_text())
    document["statements"][0]["title"] += " (edited)"
    edited = tmp_path / "catalog.json"
    edited.write_text(reg.catalog_text(document))
    monkeypatch.setattr(reg, "CATALOG_PATH", edited)
    problems = reg.catalog_problems()
    assert problems and "python3 -m shuffle_spec.spec.registry" in problems[0]


def test_near_ties_are_left_to_sympy(monkeypatch):
    """A difference within 1e-20 relative of the sides is undecided, and then the SymPy statement decides."""
    import mpmath

    # log(e^x) = x: equal, but not to every bit in floating point.
    assert sympy_free._decide("<=", (lambda a: mpmath.log(mpmath.exp(a)), lambda a: a), [1.5]) is None
    assert sympy_free._decide("<=", (lambda a: a, lambda a: a + 1), [1.5]) is True
    assert sympy_free._decide("<", (lambda a: mpmath.log(-a), lambda a: a), [1.5]) is False  # complex side fails
    entry = sympy_free.entry("FMT21.Thm2.1")
    calls = []
    original = sympy_free.Entry.statement

    def spy(self):
        calls.append(self.id)
        return original(self)

    monkeypatch.setattr(sympy_free.Entry, "statement", spy)
    point = {"eps0": 1.0, "n": 10_000, "delta": 1e-6}
    assert entry.failed_hypothesis(point) is None and calls == []
    monkeypatch.setattr(sympy_free, "_decide", lambda op, sides, values: None)  # every transcendental side a tie
    assert entry.failed_hypothesis(point) is None and calls == ["FMT21.Thm2.1"]
    assert entry.failed_hypothesis({**point, "eps0": 10.0}) == "eps0 <= log(n/(16*log(2/delta)))"


def test_rational_hypotheses_are_decided_exactly_at_their_boundary(monkeypatch):
    monkeypatch.setattr(sympy_free.Entry, "statement", lambda self: pytest.fail("SymPy was needed"))
    entry = sympy_free.entry("BBGN19.Lem4.3")
    statement = reg.get_statement("BBGN19.Lem4.3")
    for k in (1, 2, 3):
        assert entry.failed_hypothesis({"k": k}) == _spec_verdict(statement, {"k": k})


def test_power_of_two_is_decided_exactly_and_agrees_with_sympy():
    statement = reg.get_statement("EFMRTT19.Thm6.explicit")
    entry = sympy_free.entry(statement.id)
    base = dict(statement.examples[0])
    for t in (2, 3, 8, 12, 1024, 2**40, 2**40 + 2):
        values = {**base, "T": t}
        assert entry.failed_hypothesis(values) == _spec_verdict(statement, values), t
    assert entry.failed_hypothesis({**base, "T": 12}) is not None and entry.failed_hypothesis({**base, "T": 16}) is None
