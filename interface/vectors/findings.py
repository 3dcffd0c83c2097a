"""Regression vectors of the audit findings: every point where an audited implementation claimed more
privacy than is certified (`docs/audits/registry.json`, failures UNSOUND and BELOW BOUND) becomes a test in
the vector format (`schema.json`, schema version shuffle-spec-vectors/2), flagged with the kind of bug, Wycheproof-style,
so that any implementation repeating the mistake fails the same vectors.

Layout: one file per audited implementation with failures, named after its registry key, and an index
(index.json, also the manifest) in the folder written. The committed copy is `tests/findings_vectors/`,
written by any of: the registry (`python3 -m shuffle_spec.interface.audit.registry --write`);
`shuffle-spec vectors generate tests/vectors` run in a checkout of the repository (the spec's vectors into
tests/vectors, then these into the sibling tests/findings_vectors: `checkout_findings_directory`);
`shuffle-spec vectors generate DIR --findings FDIR` (anywhere); `python3 -m
shuffle_spec.interface.vectors.findings DIR`. All write through the one writer of vector files,
`files.write_documents` (same bytes on every machine, same never-overwrite-what-is-not-ours rules). The
documents derive from the committed `docs/audits/registry.json` alone, so an installed package without the
repository's docs writes none. Each file's group is the statement the
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
is the one certifying that upper end. The expected values and intervals are the registry's numbers as
written there (the registry rounds every certified end outward to a few significant digits, the same on every
machine: `registry.written`), read as the exact decimals they are (`_decimal`) and written as canonical 20-digit
decimals; they are regenerated with the registry (`python3 -m shuffle_spec.interface.audit.registry --write`,
then this module).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from ...spec.registry import get_statement
from .files import SCHEMA_VERSION, canonical_decimal, document_bytes, group_head, write_documents

__all__ = ["FINDINGS_DIRECTORY", "REGISTRY_FILE", "checkout_findings_directory", "findings_documents", "write_findings"]

CHECKOUT = Path(__file__).resolve().parents[2]  # the repository root when the package runs from a checkout
REGISTRY_FILE = CHECKOUT / "docs" / "audits" / "registry.json"
FINDINGS_DIRECTORY = CHECKOUT / "tests" / "findings_vectors"  # the committed copy
SPEC_VECTORS_DIRECTORY = CHECKOUT / "tests" / "vectors"
INDEX = "index.json"
VERDICT_FLAG = {"UNSOUND": "BelowTruth", "BELOW BOUND": "BelowCertified"}
# A BELOW BOUND point is a finding when the implementation claims the statement it was held to (it drops
# terms of it, evaluates it outside its hypotheses, or rounds it down); an implementation with its own
# analysis (Wang et al.'s k-RR row) below a registered statement is not shown wrong by that alone.
BELOW_BOUND_FLAGS = {"TermsDropped", "HypothesisIgnored", "FloatCancellation"}


def _decimal(number: float | str) -> Fraction:
    """The exact decimal the registry wrote: a JSON number is read back as a double, whose repr is that decimal
    again (the registry writes at most 17 significant digits), not the double's binary expansion."""
    return Fraction(repr(number) if isinstance(number, float) else str(number))


def _test(entry: Mapping[str, Any], failure: Mapping[str, Any], tc_id: int) -> dict[str, Any] | None:
    lower_claim = entry["claim_direction"] == "lower"
    certified = failure.get("certified")
    if certified is None:
        return None
    if lower_claim:
        interval = ["0", canonical_decimal(_decimal(certified), 20, "up")]
        flags = ["AboveCertifiedUpper"]
        truth = f"certified upper end {certified!r} ({failure.get('truth_source')})"
    else:
        if not failure.get("interval"):
            return None
        interval = [canonical_decimal(_decimal(failure["interval"][0]), 20, "down"), canonical_decimal(_decimal(failure["interval"][1]), 20, "up")]
        flags = [VERDICT_FLAG[failure["verdict"]]]
        truth = f"certified {certified!r}" + (f", truth >= {failure['truth_lower']!r} ({failure['truth_source']})" if failure.get("truth_lower") is not None else "")
    flags += [f for f in entry["flags"] if f not in flags]
    return {
        "tcId": tc_id,
        "comment": f"{entry['implementation']} ({entry['repository']} {entry['version'][:10]}) returned {failure['claimed']!r} here: {failure['verdict']}; {truth}",
        "inputs": dict(failure["inputs"]),
        "result": "valid",
        "expected": canonical_decimal(_decimal(certified), 20),
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
        group = {**group_head(get_statement(statement_id)), "tests": tests}
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
        "sha256": {name: hashlib.sha256(document_bytes(documents[name])).hexdigest() for name in sorted(documents)},
    }
    return documents


def write_findings(directory: str | Path, registry: Mapping[str, Any] | None = None, *, command: str = "python3 -m shuffle_spec.interface.vectors.findings") -> list[Path]:
    """Write the findings' vector files into `directory` (created if needed) through the one writer of
    vector files (`files.write_documents`); returns the paths written. Nothing is written when the
    registry file is absent (an installed package without the repository's docs)."""
    if registry is None and not REGISTRY_FILE.exists():
        return []
    return write_documents(directory, findings_documents(registry), command=command)


def checkout_findings_directory(spec_vectors_directory: str | Path) -> Path | None:
    """Where `shuffle-spec vectors generate DIR` also writes the findings' vectors: the checkout's
    `tests/findings_vectors` when DIR is the checkout's own `tests/vectors` and its audit registry is there
    (regenerating the committed spec vectors regenerates the committed findings too); None otherwise (any
    other DIR, or an installed package: nothing is written beside a folder the user chose)."""
    if not REGISTRY_FILE.exists():
        return None
    try:
        same = os.path.samefile(spec_vectors_directory, SPEC_VECTORS_DIRECTORY)
    except OSError:
        return None
    return FINDINGS_DIRECTORY if same else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m shuffle_spec.interface.vectors.findings", description="write the audit findings' regression vectors")
    parser.add_argument("directory", help="where to write the files (the committed copy: tests/findings_vectors)")
    args = parser.parse_args(argv)
    for path in write_findings(Path(args.directory)):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
