"""The audit findings' regression vectors: schema-valid, generated from the registry (not stale), every
test flagged, and each test fails the implementation whose mistake it records (its recorded value lies
outside the test's acceptance interval)."""

from __future__ import annotations

import json

import pytest

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


# --- written through the one writer of vector files, by the registry and by `vectors generate` -------------


def _bytes_of(directory):
    return {path.name: path.read_bytes() for path in sorted(directory.glob("*.json"))}


def test_the_writer_reproduces_the_committed_bytes(tmp_path):
    # Byte-identical on every machine: the bytes derive from registry.json alone (canonical decimals, fixed
    # generator string), so a fresh write equals the committed copy byte for byte, manifest included.
    from shuffle_spec.interface.vectors.findings import write_findings

    written = write_findings(tmp_path)
    assert {path.name for path in written} == set(_bytes_of(FINDINGS))
    assert _bytes_of(tmp_path) == _bytes_of(FINDINGS)


def test_vectors_generate_writes_the_findings_where_asked(tmp_path, monkeypatch, capsys):
    # The spec's own generation is stubbed out (it is tested in test_generation.py and costs minutes here):
    # what is checked is that `vectors generate` also writes the findings, through the same writer.
    from shuffle_spec.interface.cli.main import main
    from shuffle_spec.interface.vectors import files

    monkeypatch.setattr(files, "write_vectors", lambda directory: [])
    target = tmp_path / "findings"
    assert main(["vectors", "generate", str(tmp_path / "spec"), "--findings", str(target)]) == 0
    assert _bytes_of(target) == _bytes_of(FINDINGS)
    assert f"audit findings' vector files to {target}" in capsys.readouterr().out
    # Without --findings, into a folder that is not the checkout's tests/vectors: nothing beside it, one line.
    assert main(["vectors", "generate", str(tmp_path / "elsewhere")]) == 0
    assert "audit findings' vectors: not written here" in capsys.readouterr().out
    assert not (tmp_path / "findings_vectors").exists()


def test_the_checkout_s_own_vectors_folder_brings_the_committed_findings_folder(tmp_path):
    from shuffle_spec.interface.vectors.findings import checkout_findings_directory

    from support.paths import VECTORS

    assert checkout_findings_directory(VECTORS) == FINDINGS
    assert checkout_findings_directory(VECTORS / ".." / "vectors") == FINDINGS
    assert checkout_findings_directory(tmp_path) is None
    assert checkout_findings_directory(tmp_path / "absent") is None


def test_a_file_that_is_not_a_vector_file_is_never_overwritten(tmp_path):
    from shuffle_spec.interface.vectors.findings import write_findings
    from shuffle_spec.proofs_checks.bridge import UsageError

    (tmp_path / "index.json").write_text('{"name": "a package.json-like file"}\n')
    with pytest.raises(UsageError, match="exists and is not a vector file"):
        write_findings(tmp_path)
    assert list(tmp_path.glob("*.json")) == [tmp_path / "index.json"]
