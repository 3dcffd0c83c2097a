"""Test vectors: generation from the spec, schema, staleness, and the committed copy in tests/vectors."""

import json
import math
from pathlib import Path

import pytest

import tool_fixtures as fx
from shuffle_spec.proofs_checks.bridge import reference_function
from shuffle_spec.proofs_checks.cli import main
from shuffle_spec.proofs_checks.vectors import SCHEMA_VERSION, check_vectors, generate_all, generate_group, validate_document, write_vectors

COMMITTED = Path(__file__).parent / "vectors"


def v1(eps0, n, delta):
    return 12 * eps0 * math.sqrt(math.log(1 / delta) / n)


class TestGeneration:
    @pytest.fixture(autouse=True)
    def registry(self, monkeypatch):
        fx.install(monkeypatch, (fx.V1, fx.TRIVIAL))

    def test_group_contents(self):
        group = generate_group(fx.V1)
        by_result = {r: [t for t in group["tests"] if t["result"] == r] for r in ("valid", "invalid", "acceptable")}
        assert group["statement_id"] == fx.V1.id and group["source"]["version"] == "v1"
        assert len(by_result["valid"]) >= 3 + 2  # the examples plus grid points inside the hypotheses
        for test in by_result["valid"] + by_result["acceptable"]:
            inputs = test["inputs"]
            exact = v1(inputs["eps0"], inputs["n"], inputs["delta"])
            assert float(test["expected"]) == pytest.approx(exact, rel=1e-15)
            assert len(test["expected"].replace("0.", "", 1).lstrip("0")) >= 25  # 30 significant digits
            low, high = map(float, test["interval"])
            assert low <= exact <= high and low >= exact * (1 - 2e-12) and high <= exact * (1 + 2e-9)
        # n = 1000 satisfies n >= 1000: acceptable; eps0 = 1/2 breaks eps0 < 1/2: invalid.
        assert any(t["inputs"]["n"] == 1000 and t["inputs"]["eps0"] == 0.25 for t in by_result["acceptable"])
        assert any(t["inputs"]["eps0"] == 0.5 for t in by_result["invalid"])
        invalid_inputs = [t["inputs"] for t in by_result["invalid"]]
        assert {"eps0": 0.6, "n": 10_000, "delta": 1e-6} in invalid_inputs  # registered invalid example
        assert {"eps0": 0, "n": 10_000, "delta": 1e-6} in invalid_inputs  # generated: eps0 > 0 fails
        assert {"eps0": 0.25, "n": 10_000.5, "delta": 1e-6} in invalid_inputs  # generated: n integer
        reference = reference_function(fx.V1)
        for inputs in invalid_inputs:
            with pytest.raises(ValueError):
                reference(**inputs)

    def test_generation_is_deterministic_and_conforms(self):
        first, second = generate_all(), generate_all()
        assert first == second
        assert sorted(first) == sorted([f"{fx.V1.id}.json", f"{fx.TRIVIAL.id}.json", "index.json"])
        for name, document in first.items():
            assert document["schema"] == SCHEMA_VERSION
            assert validate_document(json.loads(json.dumps(document)), name) == []

    def test_check_finds_edits_and_missing_files(self, tmp_path):
        write_vectors(tmp_path)
        assert check_vectors(tmp_path) == []
        path = tmp_path / f"{fx.V1.id}.json"
        document = json.loads(path.read_text())
        document["testGroups"][0]["tests"][0]["expected"] = "0.1"
        path.write_text(json.dumps(document))
        problems = check_vectors(tmp_path, run_reference=False)
        assert any("differs from a fresh generation" in p for p in problems)
        (tmp_path / f"{fx.TRIVIAL.id}.json").unlink()
        assert any(p.startswith(f"{fx.TRIVIAL.id}.json: missing") for p in check_vectors(tmp_path, run_reference=False))

    def test_schema_problems_are_reported(self):
        document = generate_all()[f"{fx.V1.id}.json"]
        broken = json.loads(json.dumps(document))
        broken["numberOfTests"] += 1
        broken["testGroups"][0]["tests"][0]["result"] = "maybe"
        problems = validate_document(broken, "x.json")
        assert any("numberOfTests" in p for p in problems) and any("'maybe'" in p for p in problems)
        assert validate_document({"schema": "other"}, "y.json") == [f"y.json: not a {SCHEMA_VERSION} document"]

    def test_cli(self, tmp_path, capsys):
        assert main(["vectors", "generate", str(tmp_path)]) == 0
        assert main(["vectors", "check", str(tmp_path), "--json"]) == 0
        out = capsys.readouterr().out
        assert json.loads(out[out.index("{\n  \"directory\""):])["result"] == "pass"
        assert main(["vectors", "check", str(tmp_path / "nope")]) == 2


def test_committed_vectors_match_a_fresh_generation():
    """tests/vectors is generated, never edited: regenerate with `shuffle-spec vectors generate tests/vectors`."""
    problems = check_vectors(COMMITTED, run_reference=False)
    assert problems == [], "\n".join(problems[:20])
