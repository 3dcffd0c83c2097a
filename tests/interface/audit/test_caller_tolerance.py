"""`audit bound --rtol R` (`audit_bound(rtol=...)`): the tolerance a caller grants widens the acceptance interval on
the side an implementation may err to (above an upper bound, below a lower bound, both sides of an exact value), as
the statement's own rtol does; a claim below an upper bound's interval still claims more than the theorem proves and
fails, whatever R (docs/guides/audit.md: "A claim below L still fails (BELOW BOUND ... whatever the width)")."""

from __future__ import annotations

import functools

from shuffle_spec.interface.api import shuffled_epsilon
from shuffle_spec.interface.audit.bound import audit_bound
from shuffle_spec.interface.cli.commands.audit import bound_exit_code
from shuffle_spec.interface.audit.verdicts import ABOVE_BOUND, BELOW_BOUND, PASS

STATEMENT = "FMT21.Thm2.1"  # a closed form: its vectors' intervals are 20-digit enclosures of the value


def _value(eps0, n, delta):
    return shuffled_epsilon(STATEMENT, eps0=eps0, n=n, delta=delta).value


def _forty_percent_low(eps0, n, delta):
    return 0.6 * _value(eps0, n, delta)


def _ten_percent_high(eps0, n, delta):
    return 1.1 * _value(eps0, n, delta)


@functools.lru_cache(maxsize=1)
def _vector_group() -> dict:
    """The statement's vector group with two of its tests inside the hypotheses (a subset is allowed: `checked_group`),
    at n > 1e4, where the truth the audit also holds each claim to is the cheap k = 0 pair (verdicts.TRUTH_MAX_N): so
    that the audit costs tenths of a second."""
    from shuffle_spec.interface.vectors.files import generate_group
    from shuffle_spec.spec.registry import get_statement

    group = generate_group(get_statement(STATEMENT))
    return {**group, "tests": [t for t in group["tests"] if t["result"] == "valid" and t["inputs"]["n"] > 10**4][:2]}


def _two_vectors() -> dict:
    group = _vector_group()
    return {**group, "tests": [dict(t) for t in group["tests"]]}


def _inside(audit):
    return [f for f in audit.findings if f.inside and f.got is not None]


def test_a_claim_below_the_value_fails_whatever_tolerance_the_caller_grants():
    # Before: with rtol = 0.5 every vector inside the hypotheses was a PASS (all 14 of `audit bound` on the command line), result "pass", exit code 0,
    # for a function claiming 40% less epsilon than the theorem proves.
    audit = audit_bound(_forty_percent_low, STATEMENT, rtol=0.5, vectors=_two_vectors(), quiet=True)
    assert _inside(audit) and {f.verdict for f in _inside(audit)} == {BELOW_BOUND}
    assert audit.result == "fail" and bound_exit_code(audit) == 1
    assert audit.to_json()["rtol"] == 0.5


def test_the_tolerance_still_admits_a_looser_claim():
    strict = audit_bound(_ten_percent_high, STATEMENT, vectors=_two_vectors(), quiet=True)
    assert {f.verdict for f in _inside(strict)} == {ABOVE_BOUND}
    lenient = audit_bound(_ten_percent_high, STATEMENT, rtol=0.2, vectors=_two_vectors(), quiet=True)
    assert {f.verdict for f in _inside(lenient)} == {PASS} and bound_exit_code(lenient) == 0
    assert lenient.to_json()["rtol"] == 0.2 and strict.to_json()["rtol"] is None
    assert "rtol 0.2" in lenient.summary()
