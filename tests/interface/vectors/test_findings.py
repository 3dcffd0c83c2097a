"""The audit findings' regression vectors: schema-valid, generated from the registry (not stale), every
test flagged, and each test fails the implementation whose mistake it records (its recorded value lies
outside the test's acceptance interval)."""

from __future__ import annotations

import json

from shuffle_spec.interface.vectors.files import validate_document
from shuffle_spec.interface.vectors.findings import findings_documents

from support.paths import ROOT

FINDINGS = ROOT / "tests" / "findings_vectors"


def test_findings_files_are_the_registry_s_and_valid():
    fresh = findings_documents()
    on_disk = {path.name: json.loads(path.read_text()) for path in FINDINGS.glob("*.json")}
    assert set(on_disk) == set(fresh), "regenerate: python3 -m shuffle_spec.interface.audit.registry --write"
    for name, document in fresh.items():
        assert on_disk[name] == json.loads(json.dumps(document)), f"{name} is stale"
        if name != "index.json":
            assert validate_document(document, name) == [], name


def test_every_finding_fails_the_implementation_it_came_from():
    registry = json.loads((ROOT / "docs" / "audits" / "registry.json").read_text())
    claimed = {e["key"]: {json.dumps(f["inputs"], sort_keys=True): f["claimed"] for f in e["failures"]} for e in registry["entries"]}
    checked = 0
    for name, document in findings_documents(registry).items():
        if name == "index.json":
            continue
        key = name.removesuffix(".json")
        for test in document["testGroups"][0]["tests"]:
            assert test["flags"], test
            value = claimed[key][json.dumps(test["inputs"], sort_keys=True)]
            low, high = (float(x) for x in test["interval"])
            assert not (low <= value <= high), (key, test)
            checked += 1
    assert checked > 0


def test_the_schema_accepts_flags_and_refuses_a_malformed_flag():
    document = next(d for n, d in findings_documents().items() if n != "index.json")
    assert validate_document(document, "x") == []
    broken = json.loads(json.dumps(document))
    broken["testGroups"][0]["tests"][0]["flags"] = ["not a flag"]
    assert validate_document(broken, "x") != []
