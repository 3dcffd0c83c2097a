"""Regression vectors of the audit findings: every point where an audited implementation claimed more
privacy than is certified (`docs/audits/registry.json`, failures UNSOUND and BELOW BOUND) becomes a test in
the vector format (`schema.json`, schema version shuffle-spec-vectors/2), flagged with the kind of bug, Wycheproof-style,
so that any implementation repeating the mistake fails the same vectors.

Layout: one file per audited implementation with failures, named after its registry key, and an index
(index.json) in the folder written; the committed copy is `tests/findings_vectors/`, written with the registry (`python3 -m
shuffle_spec.interface.audit.registry --write`), and `python3 -m shuffle_spec.interface.vectors.findings DIR`
writes them anywhere. Not by `shuffle-spec vectors generate`: that command writes
what the spec generates (its tests run it on stand-in registries without the audited statements), while
these files derive from the audits. Each file's group is the statement the
implementation was audited against (title, source, reference, rtol as its own vector file has them). Every
UNSOUND point is a test; a BELOW BOUND point is one when the implementation claims that statement
(`BELOW_BOUND_FLAGS`). Each test is `valid` with the statement's expected value and acceptance interval at that point, a `comment`
naming the implementation, what it returned and the certified truth, and `flags`:

| flag | meaning |
|---|---|
| `BelowTruth` | the implementation's value was below a certified lower bound on the true epsilon (UNSOUND) |
| `BelowCertified` | below the statement's certified value, above every known lower bound (BELOW BOUND) |
| `AboveCertifiedUpper` | a claimed *lower* bound above the certified upper bound of its randomizer |
| `TermsDropped` | the implementation's formula drops terms or constants of the theorem it cites |
| `HypothesisIgnored` | it evaluates a theorem outside the theorem's hypotheses |
| `MassDropped` | a numerical method drops probability mass (truncated tails, clipped negative entries) |
| `BinnedOutput` | a bound computed for a binned (discretised) randomizer is claimed for the continuous one |
| `WrongDirection` | a search or comparison returns the wrong end (a failing candidate, a class lower bound for a member) |
| `NegativeEpsilon` | a negative epsilon is returned (a conversion without the trivial floor max(0, .)) |
| `FloatCancellation` | the value comes from a floating-point cancellation (0 or denormal where the exact value is positive) |

A lower-bound claim's test is `valid` with interval [0, certified upper end]: the statement of its group
is the one certifying that upper end. The expected values are the registry's (doubles from the certified
reference), written as canonical 20-digit decimals, rounded outward; they are regenerated with the
registry (`python3 -m shuffle_spec.interface.audit.registry --write`, then this module).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from ...spec.registry import get_statement
from .files import SCHEMA_VERSION, canonical_decimal, expected_from

__all__ = ["REGISTRY_FILE", "findings_documents", "write_findings"]

REGISTRY_FILE = Path(__file__).resolve().parents[2] / "docs" / "audits" / "registry.json"
INDEX = "index.json"
VERDICT_FLAG = {"UNSOUND": "BelowTruth", "BELOW BOUND": "BelowCertified"}
# A BELOW BOUND point is a finding when the implementation claims the statement it was held to (it drops
# terms of it, evaluates it outside its hypotheses, or rounds it down); an implementation with its own
# analysis (Wang et al.'s k-RR row) below a registered statement is not shown wrong by that alone.
BELOW_BOUND_FLAGS = {"TermsDropped", "HypothesisIgnored", "FloatCancellation"}


def _dump(document: Mapping[str, Any]) -> str:
    return json.dumps(document, indent=1, sort_keys=False) + "\n"


def _group_head(statement_id: str) -> dict[str, Any]:
    """The group fields of the statement's own vector file (`generate_group`'s head, without its tests)."""
    statement = get_statement(statement_id)
    source = statement.source
    return {
        "statement_id": statement.id,
        "title": statement.title,
        "source": {"paper": source.paper, "locator": source.locator, "version": source.version, "confidence": source.confidence},
        "direction": statement.direction.value,
        "mechanism": statement.mechanism or "generic",
        "inputs": list(statement.input_names),
        "output": None if statement.output is None else str(statement.output),
        "expected_from": expected_from(statement),
        "reference": statement.reference,
        "rtol": statement.rtol,
    }


def _test(entry: Mapping[str, Any], failure: Mapping[str, Any], tc_id: int) -> dict[str, Any] | None:
    lower_claim = entry["claim_direction"] == "lower"
    certified = failure.get("certified")
    if certified is None:
        return None
    if lower_claim:
        interval = ["0", canonical_decimal(Fraction(certified), 20, "up")]
        flags = ["AboveCertifiedUpper"]
        truth = f"certified upper end {certified!r} ({failure.get('truth_source')})"
    else:
        if not failure.get("interval"):
            return None
        interval = [canonical_decimal(Fraction(failure["interval"][0]), 20, "down"), canonical_decimal(Fraction(failure["interval"][1]), 20, "up")]
        flags = [VERDICT_FLAG[failure["verdict"]]]
        truth = f"certified {certified!r}" + (f", truth >= {failure['truth_lower']!r} ({failure['truth_source']})" if failure.get("truth_lower") is not None else "")
    flags += [f for f in entry["flags"] if f not in flags]
    return {
        "tcId": tc_id,
        "comment": f"{entry['implementation']} ({entry['repository']} {entry['version'][:10]}) returned {failure['claimed']!r} here: {failure['verdict']}; {truth}",
        "inputs": dict(failure["inputs"]),
        "result": "valid",
        "expected": canonical_decimal(Fraction(certified), 20),
        "interval": interval,
        "flags": flags,
    }


def findings_documents(registry: Mapping[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """File name -> vector document, one per implementation with failures, plus the index."""
    if registry is None:
        registry = json.loads(REGISTRY_FILE.read_text())
    documents: dict[str, dict[str, Any]] = {}
    for entry in registry["entries"]:
        if not entry["failures"]:
            continue
        statement_id = entry["statement"]
        if entry["claim_direction"] == "lower":
            source = (entry["failures"][0].get("truth_source") or "")
            statement_id = source.rsplit("(", 1)[-1].rstrip(")")
        failures = [f for f in entry["failures"] if f["verdict"] == "UNSOUND" or set(entry["flags"]) & BELOW_BOUND_FLAGS]
        tests = [t for i, f in enumerate(failures, start=1) if (t := _test(entry, f, i)) is not None]
        if not tests:
            continue
        for index, test in enumerate(tests, start=1):
            test["tcId"] = index
        group = {**_group_head(statement_id), "tests": tests}
        documents[f"{entry['key']}.json"] = {
            "schema": SCHEMA_VERSION,
            "generator": "shuffle-spec audit registry (findings)",
            "statement_id": statement_id,
            "numberOfTests": len(tests),
            "notes": f"Regression vectors of the audit of {entry['implementation']} ({entry['repository']} at {entry['version']}): its failing points (docs/audits/{entry['page']}). Generated from docs/audits/registry.json; do not edit by hand.",
            "testGroups": [group],
        }
    documents[INDEX] = {
        "schema": SCHEMA_VERSION,
        "generator": "shuffle-spec audit registry (findings)",
        "files": sorted(documents),
        "numberOfTests": sum(d["numberOfTests"] for d in documents.values()),
        "sha256": {name: hashlib.sha256(_dump(documents[name]).encode("ascii")).hexdigest() for name in sorted(documents)},
    }
    return documents


def write_findings(directory: str | Path, registry: Mapping[str, Any] | None = None) -> list[Path]:
    """Write the findings' vector files into `directory` (created if needed); returns the paths written.
    Nothing is written when the registry file is absent (an installed package without the repository's docs)."""
    if registry is None and not REGISTRY_FILE.exists():
        return []
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, document in sorted(findings_documents(registry).items(), key=lambda item: item[0] == INDEX):
        path = directory / name
        path.write_text(_dump(document), encoding="ascii")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m shuffle_spec.interface.vectors.findings", description="write the audit findings' regression vectors")
    parser.add_argument("directory", help="where to write the files (the committed copy: tests/findings_vectors)")
    args = parser.parse_args(argv)
    for path in write_findings(Path(args.directory)):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
