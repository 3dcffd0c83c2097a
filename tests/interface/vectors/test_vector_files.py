"""Vector files that commands read or write: `audit bound --vectors`, `vectors check`, `vectors generate`.

- A vector file is used only when it matches the JSON Schema (`interface/vectors/schema.json`) and
  a fresh generation from the spec: a forged file (intervals widened so that a wrong bound passes, a
  result flipped, tests removed) is refused in one line naming the file, the test and what differs.
- Malformed JSON input (`[1, 2]`, `{"testGroups": []}`, a missing field, a wrong type) is a one-line
  error naming the file and the place in it, never an "internal error".
- `vectors generate` never deletes nor overwrites a file it did not write: it removes a stale file only
  when its manifest (`index.json`, `sha256`) lists it with the content it still has.
"""

from __future__ import annotations

import json
import os
import shutil
import textwrap
from pathlib import Path

import pytest

from support import statements as fx
from shuffle_spec.interface.cli.main import main

from support.paths import TESTS
from support.paths import VECTORS as COMMITTED


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def _pythonpath(monkeypatch: pytest.MonkeyPatch, *folders: Path) -> None:
    """The audited child process imports this checkout (the stand-ins below import shuffle_spec)."""
    existing = os.environ.get("PYTHONPATH", "")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([*(str(f) for f in folders), str(TESTS), existing]))


# A wrong implementation of FMT21.Thm2.1: 0.6 times the reference's own value. It is above the exact
# epsilon of shuffled binary RR at every vector (so the truth check alone does not catch it) and below
# the statement's interval at every valid vector (BELOW BOUND).
WRONG_THM21 = """
    def f(eps0, n, delta):
        from shuffle_spec.reference.bounds.clone_closed_forms import thm21_seed_epsilon
        return 0.6 * float(thm21_seed_epsilon(eps0=eps0, n=n, delta=delta))
"""

# A bound function that is never called when the vectors are refused (no import of this project).
CONSTANT = """
    def f(eps0, n, delta):
        return 1.0
"""


def _widened_copy(source: Path, target: Path, *, schema: str | None = None) -> Path:
    """`source` with every acceptance interval widened to [0, 1e300] (and optionally another schema string)."""
    document = json.loads(source.read_text())
    for test in document["testGroups"][0]["tests"]:
        if "interval" in test:
            test["interval"] = ["0", "1e300"]
    if schema is not None:
        document["schema"] = schema
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(document, indent=1))
    return target


class TestForgedVectors:
    def test_widened_intervals_do_not_make_a_wrong_bound_pass_audit_bound(self, tmp_path, monkeypatch, capsys):
        """0.6 x FMT21.Thm2.1 fails against the spec (BELOW BOUND); with the intervals of its vector file
        widened to [0, 1e300] the file is refused (exit 2, one line naming the file and a test), not used."""
        _pythonpath(monkeypatch)
        function = _write(tmp_path / "wrong.py", WRONG_THM21)
        forged = _widened_copy(COMMITTED / "FMT21.Thm2.1.json", tmp_path / "forged" / "FMT21.Thm2.1.json")
        code = main(["audit", "bound", f"{function}:f", "--id", "FMT21.Thm2.1", "--vectors", str(forged.parent)])
        captured = capsys.readouterr()
        assert code == 2, captured.out[-2000:]
        lines = captured.err.strip().splitlines()
        assert len(lines) == 1 and "internal error" not in lines[0], captured.err
        assert str(forged) in lines[0] and "tcId 1" in lines[0] and "interval" in lines[0], lines[0]


# --- malformed vector files ------------------------------------------------------------------------

MALFORMED = [
    ("a list", "[1, 2]"),
    ("no groups", '{"testGroups": []}'),
    ("a schema string only", '{"schema": "shuffle-spec-vectors/2"}'),
    ("a group that is a list", '{"schema": "shuffle-spec-vectors/2", "statement_id": "EFMRTT19.Thm97", "numberOfTests": 1, "testGroups": [[1]]}'),
    ("null", "null"),
    ("not JSON", "{"),
]


class TestMalformedVectorFiles:
    @pytest.fixture(autouse=True)
    def registry(self, monkeypatch):
        fx.install(monkeypatch, (fx.V1, fx.TRIVIAL))

    @pytest.mark.parametrize("what, text", MALFORMED, ids=[m[0] for m in MALFORMED])
    def test_audit_bound_refuses_in_one_line(self, tmp_path, capsys, what, text):
        function = _write(tmp_path / "constant.py", CONSTANT)
        vector_file = _write(tmp_path / "vectors" / f"{fx.V1.id}.json", text)
        code = main(["audit", "bound", f"{function}:f", "--id", fx.V1.id, "--vectors", str(vector_file.parent)])
        err = capsys.readouterr().err
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1, err
        assert "internal error" not in err and str(vector_file) in lines[0], err

    def test_a_missing_field_is_named_with_its_place(self, tmp_path, capsys):
        function = _write(tmp_path / "constant.py", CONSTANT)
        vector_file = _write(tmp_path / "vectors" / f"{fx.V1.id}.json", '{"schema": "shuffle-spec-vectors/2"}')
        assert main(["audit", "bound", f"{function}:f", "--id", fx.V1.id, "--vectors", str(vector_file.parent)]) == 2
        err = capsys.readouterr().err
        assert "'testGroups' is a required property" in err or "testGroups" in err.split(":", 2)[-1], err
        assert err.strip() != "shuffle-spec audit: error: testGroups"

    @pytest.mark.parametrize("what, text", MALFORMED, ids=[m[0] for m in MALFORMED])
    def test_vectors_check_reports_a_problem_without_failing_itself(self, tmp_path, what, text):
        from shuffle_spec.interface.vectors.files import check_vectors, write_vectors

        write_vectors(tmp_path)
        (tmp_path / f"{fx.V1.id}.json").write_text(text)
        problems = check_vectors(tmp_path)
        mine = [p for p in problems if p.startswith(f"{fx.V1.id}.json")]
        assert mine and all("\n" not in p for p in problems), problems


# --- files the generator did not write ---------------------------------------------------------------

PACKAGE_JSON = '{"name": "my-project", "version": "1.0.0"}\n'
SETTINGS_JSON = '{"editor.tabSize": 4}\n'


class TestGenerateKeepsOtherFiles:
    @pytest.fixture(autouse=True)
    def registry(self, monkeypatch):
        fx.install(monkeypatch, (fx.V1, fx.TRIVIAL))

    def test_generate_leaves_package_json_and_settings_json_alone(self, tmp_path, capsys):
        (tmp_path / "package.json").write_text(PACKAGE_JSON)
        (tmp_path / "settings.json").write_text(SETTINGS_JSON)
        assert main(["vectors", "generate", str(tmp_path)]) == 0
        assert (tmp_path / "package.json").read_text() == PACKAGE_JSON
        assert (tmp_path / "settings.json").read_text() == SETTINGS_JSON
        assert (tmp_path / f"{fx.V1.id}.json").is_file()

    def test_generate_in_the_current_directory_keeps_its_package_json(self, tmp_path, monkeypatch, capsys):
        (tmp_path / "package.json").write_text(PACKAGE_JSON)
        monkeypatch.chdir(tmp_path)
        assert main(["vectors", "generate", "."]) == 0
        assert (tmp_path / "package.json").read_text() == PACKAGE_JSON

    def test_a_stale_file_listed_in_the_manifest_is_removed_only_while_unchanged(self, tmp_path, monkeypatch):
        notes: list[str] = []
        from shuffle_spec.interface.vectors.files import write_vectors

        write_vectors(tmp_path, note=notes.append)
        index = json.loads((tmp_path / "index.json").read_text())
        assert sorted(index["sha256"]) == sorted([f"{fx.V1.id}.json", f"{fx.TRIVIAL.id}.json"])
        edited = json.loads((tmp_path / f"{fx.V1.id}.json").read_text())
        edited["notes"] = "edited by hand"
        (tmp_path / f"{fx.V1.id}.json").write_text(json.dumps(edited))
        fx.install(monkeypatch, ())  # neither statement is generated any more: both files are stale
        write_vectors(tmp_path, note=notes.append)
        assert not (tmp_path / f"{fx.TRIVIAL.id}.json").exists()  # listed, unchanged: ours to remove
        assert json.loads((tmp_path / f"{fx.V1.id}.json").read_text()) == edited  # changed since: left alone
        assert any(n.startswith(f"{fx.TRIVIAL.id}.json: removed") for n in notes), notes
        assert any(n.startswith(f"{fx.V1.id}.json: left alone") for n in notes), notes

    def test_an_unlisted_vector_file_is_reported_not_ours_and_kept(self, tmp_path, capsys):
        from shuffle_spec.interface.vectors.files import write_vectors

        write_vectors(tmp_path)
        # A vector file the manifest does not list (copied in by hand): not deleted, named on stderr.
        shutil.copy(tmp_path / f"{fx.V1.id}.json", tmp_path / "EFMRTT19.Thm96.json")
        capsys.readouterr()
        assert main(["vectors", "generate", str(tmp_path)]) == 0
        assert (tmp_path / "EFMRTT19.Thm96.json").is_file()
        assert "EFMRTT19.Thm96.json: not ours, left alone" in capsys.readouterr().err

    def test_a_manifest_listing_a_file_that_is_not_a_vector_removes_nothing(self, tmp_path):
        """Even a manifest that lists package.json with its exact hash (written by hand) removes only
        vector files: removal needs the manifest's hash AND a vector document."""
        import hashlib

        from shuffle_spec.interface.vectors.files import write_vectors

        write_vectors(tmp_path)
        (tmp_path / "package.json").write_text(PACKAGE_JSON)
        index = json.loads((tmp_path / "index.json").read_text())
        index["sha256"]["package.json"] = hashlib.sha256(PACKAGE_JSON.encode()).hexdigest()
        (tmp_path / "index.json").write_text(json.dumps(index, indent=1))
        write_vectors(tmp_path)
        assert (tmp_path / "package.json").read_text() == PACKAGE_JSON

    @pytest.mark.parametrize("occupant", ["user index", "symlink", "directory"])
    def test_a_name_taken_by_a_file_that_is_not_ours_stops_generation_before_any_write(self, tmp_path, capsys, occupant):
        target = tmp_path / "index.json"
        if occupant == "user index":
            target.write_text('{"pages": ["a.html"]}\n')
        elif occupant == "symlink":
            (tmp_path / "elsewhere.txt").write_text("keep me\n")
            target.symlink_to(tmp_path / "elsewhere.txt")
        else:
            target.mkdir()
        before = sorted(p.name for p in tmp_path.iterdir())
        assert main(["vectors", "generate", str(tmp_path)]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and str(target) in err and "nothing was written" in err, err
        assert sorted(p.name for p in tmp_path.iterdir()) == before
        if occupant == "symlink":
            assert (tmp_path / "elsewhere.txt").read_text() == "keep me\n"

    def test_regenerating_is_byte_identical_manifest_included(self, tmp_path):
        from shuffle_spec.interface.vectors.files import write_vectors

        write_vectors(tmp_path / "a")
        write_vectors(tmp_path / "b")
        write_vectors(tmp_path / "b")  # over its own output
        first = {p.name: p.read_bytes() for p in (tmp_path / "a").iterdir()}
        assert first == {p.name: p.read_bytes() for p in (tmp_path / "b").iterdir()}
        import hashlib

        index = json.loads(first["index.json"])
        assert index["sha256"] == {name: hashlib.sha256(first[name]).hexdigest() for name in first if name != "index.json"}


# --- forged vector files: more forgeries, and what is still accepted -------------------------------------


def test_the_committed_vectors_are_used_and_a_wrong_bound_fails_on_them():
    """The control of the forgery test: with the committed (fresh) file, 0.6 x FMT21.Thm2.1 fails."""
    from shuffle_spec.interface.audit.bound import audit_bound
    from shuffle_spec.reference.bounds.clone_closed_forms import thm21_seed_epsilon

    def wrong(eps0, n, delta):
        return 0.6 * float(thm21_seed_epsilon(eps0=eps0, n=n, delta=delta))

    report = audit_bound(wrong, "FMT21.Thm2.1", vectors=COMMITTED, quiet=True)
    assert report.result == "fail" and report.counts().get("BELOW BOUND", 0) >= 5, report.summary()


# Module-scoped fixtures: pytest 9 deprecates a class-scoped fixture written as an instance method (and warnings
# are errors here). `name=` keeps the names the tests take.
@pytest.fixture(scope="module", name="fresh")
def _forged_fresh():
    """One fresh generation of FMT21.Thm2.1, shared by the forged-file cases."""
    from shuffle_spec.interface.vectors.files import fresh_document
    from shuffle_spec.spec.registry import get_statement

    return fresh_document(get_statement("FMT21.Thm2.1"))


class TestForgedFiles:
    """FMT21.Thm2.1's committed file, forged in ways that pass the JSON Schema; compared with one fresh
    generation (`fresh` argument) so that each case costs a read and a comparison only."""

    def _load(self, tmp_path, document, fresh):
        from shuffle_spec.interface.vectors.files import load_vector_group
        from shuffle_spec.spec.registry import get_statement

        path = tmp_path / "FMT21.Thm2.1.json"
        path.write_text(json.dumps(document, indent=1))
        return path, (lambda: load_vector_group(tmp_path, get_statement("FMT21.Thm2.1"), fresh=fresh))

    def test_canonical_widened_interval_flipped_result_and_removed_test_are_refused(self, tmp_path, fresh):
        from shuffle_spec.proofs_checks.bridge import UsageError

        original = json.loads((COMMITTED / "FMT21.Thm2.1.json").read_text())
        tests = original["testGroups"][0]["tests"]
        first_valid = next(t for t in tests if t["result"] == "valid")
        first_invalid = next(t for t in tests if t["result"] == "invalid")
        cases = []
        widened = json.loads(json.dumps(original))
        next(t for t in widened["testGroups"][0]["tests"] if t["tcId"] == first_valid["tcId"])["interval"][0] = "0"
        cases.append((widened, f"tcId {first_valid['tcId']}: interval[0] is \"0\""))
        flipped = json.loads(json.dumps(original))
        test = next(t for t in flipped["testGroups"][0]["tests"] if t["tcId"] == first_invalid["tcId"])
        test.update(result="acceptable", expected=first_valid["expected"], interval=first_valid["interval"])
        cases.append((flipped, f"tcId {first_invalid['tcId']}: result is \"acceptable\""))
        fewer = json.loads(json.dumps(original))
        fewer["testGroups"][0]["tests"] = [t for t in fewer["testGroups"][0]["tests"] if t["result"] != "valid"]
        fewer["numberOfTests"] = len(fewer["testGroups"][0]["tests"])
        cases.append((fewer, "numberOfTests is"))
        for document, fragment in cases:
            path, load = self._load(tmp_path, document, fresh)
            with pytest.raises(UsageError) as refused:
                load()
            message = str(refused.value)
            assert "\n" not in message and message.startswith(f"vector file {path}: ") and fragment in message, message

    def test_a_reformatted_file_with_another_generator_is_accepted(self, tmp_path, fresh):
        """Key order, layout and the generator's version are not content: such a file is used."""
        original = json.loads((COMMITTED / "FMT21.Thm2.1.json").read_text())
        reordered = {k: original[k] for k in reversed(list(original))}
        reordered["generator"] = "shuffle-spec 99.0"
        path, load = self._load(tmp_path, reordered, fresh)
        path.write_text(json.dumps(reordered, sort_keys=True))
        assert load() == fresh["testGroups"][0]

    def test_a_test_group_given_to_the_api_is_checked_test_by_test(self, fresh):
        """`audit_bound(vectors=group)`: a subset of the fresh tests is allowed; another value is not."""
        from shuffle_spec.proofs_checks.bridge import UsageError
        from shuffle_spec.interface.vectors.files import checked_group
        from shuffle_spec.spec.registry import get_statement

        statement = get_statement("FMT21.Thm2.1")
        group = fresh["testGroups"][0]
        subset = {**group, "tests": group["tests"][:2]}
        assert checked_group(subset, statement, fresh=fresh) == subset
        forged = json.loads(json.dumps(subset))
        forged["tests"][1]["interval"] = ["0", "9.9999999999999999999e299"]
        with pytest.raises(UsageError, match=r"tcId 2: interval\[0\] is \"0\""):
            checked_group(forged, statement, fresh=fresh)
        with pytest.raises(UsageError, match=r"inputs"):
            checked_group({**subset, "inputs": ["n", "eps0", "delta"]}, statement, fresh=fresh)  # swapped arguments
        with pytest.raises(UsageError, match="appears twice"):
            checked_group({**group, "tests": [group["tests"][0]] * 2}, statement, fresh=fresh)


# --- fuzz: random mutations of a real vector file ----------------------------------------------------
# BBGN19.Lem5.1.krr's committed file (valid, acceptable and invalid tests; a fresh generation costs
# milliseconds). Every mutated file must be refused with one line naming the file, or, if accepted, be
# equal in content to a fresh generation: the same JSON text once the generator's version is dropped and
# the keys sorted (json.dumps tells 1 from 1.0, true from 1 and -0.0 from 0.0).

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

FUZZED = "BBGN19.Lem5.1.krr"
JSON_VALUES = [None, True, False, 0, 1, -1, 1.0, 0.5, -0.0, 1e300, "", "x", "valid", "1.0000000000000000000e0", [], {}, [1, 2], {"a": 1}]
MUTATIONS = [
    "widen", "shift expected", "flip result", "remove", "extra field", "wrong type", "drop test", "duplicate test",
    "swap tests", "change input", "int to float", "renumber", "count", "schema string", "generator", "reorder keys",
]


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, path + (index,))


def _parent(document, path):
    node = document
    for step in path[:-1]:
        node = node[step]
    return node


def _canonical(document) -> str:
    return json.dumps({k: v for k, v in document.items() if k != "generator"} if isinstance(document, dict) else document, sort_keys=True)


def _tests(document):
    return document["testGroups"][0]["tests"]


@st.composite
def mutated(draw, original):
    import copy
    from fractions import Fraction

    from shuffle_spec.interface.vectors.files import canonical_decimal

    document = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        if not (isinstance(document, dict) and isinstance(document.get("testGroups"), list) and document["testGroups"]
                and isinstance(document["testGroups"][0], dict) and isinstance(document["testGroups"][0].get("tests"), list)
                and document["testGroups"][0]["tests"] and all(isinstance(t, dict) for t in document["testGroups"][0]["tests"])):
            break  # an earlier mutation broke the structure the test-level mutations need
        kind = draw(st.sampled_from(MUTATIONS))
        tests = _tests(document)
        test = draw(st.sampled_from(tests))
        paths = [p for p in _paths(document) if p]
        if kind == "widen" and isinstance(test.get("interval"), list) and len(test["interval"]) == 2:
            factor = Fraction(draw(st.integers(1, 10**6)), 10**6)
            try:
                low, high = Fraction(test["interval"][0]), Fraction(test["interval"][1])
            except (TypeError, ValueError):
                continue
            test["interval"] = draw(st.sampled_from([
                [canonical_decimal(low * (1 - factor), 20, "down"), test["interval"][1]],
                [test["interval"][0], canonical_decimal(high * (1 + factor), 20, "up")],
                ["0", "1e300"],
            ]))
        elif kind == "shift expected" and isinstance(test.get("expected"), str) and "e" in test["expected"]:
            mantissa, exponent = test["expected"].split("e")
            digits = str(int(mantissa.replace(".", "").replace("-", "")) + draw(st.sampled_from([1, -1, 10**10])))
            test["expected"] = f"{digits[0]}.{digits[1:]}e{exponent}"
        elif kind == "flip result":
            test["result"] = draw(st.sampled_from([r for r in ("valid", "invalid", "acceptable") if r != test.get("result")]))
            if draw(st.booleans()) and test["result"] == "invalid":
                test.pop("expected", None)
                test.pop("interval", None)
        elif kind == "remove":
            path = draw(st.sampled_from(paths))
            parent = _parent(document, path)
            del parent[path[-1]]
        elif kind == "extra field":
            objects = [p for p in _paths(document) if isinstance(_parent(document, p + ("x",)), dict)]
            target = _parent(document, draw(st.sampled_from(objects)) + ("x",))
            target[draw(st.sampled_from(["extra", "tcId2", "x" * 30, "", "interval "]))] = draw(st.sampled_from(JSON_VALUES))
        elif kind == "wrong type":
            path = draw(st.sampled_from(paths))
            _parent(document, path)[path[-1]] = draw(st.sampled_from(JSON_VALUES))
        elif kind == "drop test":
            tests.remove(test)
        elif kind == "duplicate test":
            tests.append(copy.deepcopy(test))
        elif kind == "swap tests" and len(tests) > 1:
            i, j = draw(st.sampled_from([(a, b) for a in range(len(tests)) for b in range(len(tests)) if a < b]))
            tests[i], tests[j] = tests[j], tests[i]
        elif kind == "change input" and isinstance(test.get("inputs"), dict) and test["inputs"]:
            name = draw(st.sampled_from(sorted(test["inputs"])))
            test["inputs"][name] = draw(st.one_of(st.integers(-5, 10**7), st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([0, 0.0, -0.0, 2])))
        elif kind == "int to float" and isinstance(test.get("inputs"), dict):
            for name, value in test["inputs"].items():
                if isinstance(value, int) and not isinstance(value, bool):
                    test["inputs"][name] = float(value)
                    break
            else:
                test["tcId"] = float(test["tcId"]) if isinstance(test.get("tcId"), int) else test.get("tcId")
        elif kind == "renumber":
            test["tcId"] = draw(st.integers(-1, 1000))
        elif kind == "count" and isinstance(document.get("numberOfTests"), int):
            document["numberOfTests"] += draw(st.sampled_from([-1, 1, 100]))
        elif kind == "schema string":
            document["schema"] = draw(st.sampled_from(["shuffle-spec-vectors/1", "shuffle-spec-vectors/3", "", None]))
        elif kind == "generator":  # not content: still accepted when nothing else changed
            document["generator"] = draw(st.sampled_from(["shuffle-spec 99.0", "other tool", ""]))
        elif kind == "reorder keys":  # not content either
            document = {k: document[k] for k in reversed(list(document))}
    return document


@pytest.fixture(scope="module", name="setup")
def _fuzzing_setup():
    from shuffle_spec.interface.vectors.files import fresh_document
    from shuffle_spec.spec.registry import get_statement

    statement = get_statement(FUZZED)
    original = json.loads((COMMITTED / f"{FUZZED}.json").read_text())
    fresh = fresh_document(statement)
    assert _canonical(original) == _canonical(fresh)  # the committed file is fresh to begin with
    return statement, original, fresh


class TestFuzzedVectorFiles:
    def test_every_mutated_file_is_refused_in_one_line_or_equal_to_a_fresh_generation(self, setup, tmp_path_factory):
        from shuffle_spec.proofs_checks.bridge import UsageError
        from shuffle_spec.interface.vectors.files import load_vector_group

        statement, original, fresh = setup
        directory = tmp_path_factory.mktemp("fuzzed")
        path = directory / f"{FUZZED}.json"
        outcomes = {"refused": 0, "accepted": 0}

        @settings(max_examples=max(120, settings().max_examples), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
        @given(document=mutated(original), layout=st.sampled_from([None, 1, "sorted"]))
        def check(document, layout):
            text = json.dumps(document, sort_keys=True) if layout == "sorted" else json.dumps(document, indent=layout)
            path.write_text(text)
            try:
                group = load_vector_group(directory, statement, fresh=fresh)
            except UsageError as refused:
                message = str(refused)
                assert "\n" not in message and message.startswith(f"vector file {path}: "), message
                outcomes["refused"] += 1
                return
            assert _canonical(document) == _canonical(fresh), "accepted a file that differs from a fresh generation"
            assert group == fresh["testGroups"][0]
            outcomes["accepted"] += 1

        check()
        assert outcomes["refused"] > 0 and outcomes["accepted"] > 0, outcomes  # both branches were exercised

    @pytest.mark.parametrize(
        "text",
        ['{"schema": "shuffle-spec-vectors/2", "schema": "shuffle-spec-vectors/2"}', "\ufeff{}", "{\"a\": 1e99999}", "[" * 100_000, "", "\x00"],
        ids=["repeated key", "byte order mark", "huge exponent", "deep nesting", "empty", "NUL"],
    )
    def test_files_that_are_not_clean_json_are_refused_in_one_line(self, setup, tmp_path, text):
        from shuffle_spec.proofs_checks.bridge import UsageError
        from shuffle_spec.interface.vectors.files import load_vector_group

        statement, _, fresh = setup
        (tmp_path / f"{FUZZED}.json").write_text(text)
        with pytest.raises(UsageError) as refused:
            load_vector_group(tmp_path, statement, fresh=fresh)
        assert "\n" not in str(refused.value) and f"{FUZZED}.json" in str(refused.value)

    def test_non_utf8_and_special_files_are_refused_in_one_line(self, setup, tmp_path):
        from shuffle_spec.proofs_checks.bridge import UsageError
        from shuffle_spec.interface.vectors.files import load_vector_group

        statement, _, fresh = setup
        path = tmp_path / f"{FUZZED}.json"
        path.write_bytes(b'{"schema": "\xff"}')
        with pytest.raises(UsageError, match="UTF-8"):
            load_vector_group(tmp_path, statement, fresh=fresh)
        path.unlink()
        path.symlink_to("/dev/zero")
        with pytest.raises(UsageError, match="character device"):
            load_vector_group(tmp_path, statement, fresh=fresh)
        path.unlink()
        os.mkfifo(path)
        with pytest.raises(UsageError, match="FIFO"):
            load_vector_group(tmp_path, statement, fresh=fresh)


DIRECTORY_CHANGES = ["package.json", "mutate", "delete", "dev zero link", "fifo", "directory", "copy under another name", "manifest hash", "reformat"]


class TestFuzzedVectorDirectories:
    """`vectors check` over a generated directory changed at random: every problem is one line, and an
    empty list of problems means that every vector file there equals a fresh generation."""

    @pytest.fixture(autouse=True)
    def registry(self, monkeypatch):
        fx.install(monkeypatch, (fx.V1, fx.TRIVIAL))

    def test_every_changed_directory_is_reported_in_one_line_problems_or_fresh(self, tmp_path_factory, monkeypatch):
        from shuffle_spec.interface.vectors import files as vectors

        template = tmp_path_factory.mktemp("template")
        vectors.write_vectors(template)
        fresh = vectors.generate_all(one_precision=True)
        monkeypatch.setattr(vectors, "generate_all", lambda statements=None, *, one_precision=False: fresh)
        names = sorted(fresh)
        original = json.loads((template / f"{fx.V1.id}.json").read_text())
        root = tmp_path_factory.mktemp("changed")
        counter = iter(range(10**6))

        @settings(max_examples=max(40, settings().max_examples), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
        @given(changes=st.lists(st.tuples(st.sampled_from(DIRECTORY_CHANGES), st.sampled_from(names)), min_size=1, max_size=3), document=mutated(original))
        def check(changes, document):
            directory = root / str(next(counter))
            shutil.copytree(template, directory)
            for change, name in changes:
                path = directory / name
                if os.path.lexists(path) and not path.is_symlink() and path.is_dir():
                    continue
                if change == "package.json":
                    (directory / "package.json").write_text(PACKAGE_JSON)
                elif change == "mutate":
                    (directory / f"{fx.V1.id}.json").write_text(json.dumps(document, indent=1))
                elif change in ("delete", "dev zero link", "fifo", "directory") and os.path.lexists(path):
                    path.unlink()
                    if change == "dev zero link":
                        path.symlink_to("/dev/zero")
                    elif change == "fifo":
                        os.mkfifo(path)
                    elif change == "directory":
                        path.mkdir()
                elif change == "copy under another name" and path.is_file():
                    shutil.copy(path, directory / f"old.{name}")
                elif change == "manifest hash" and (directory / "index.json").is_file():
                    index = json.loads((directory / "index.json").read_text())
                    if isinstance(index.get("sha256"), dict) and index["sha256"]:
                        index["sha256"][sorted(index["sha256"])[0]] = "0" * 64
                    (directory / "index.json").write_text(json.dumps(index, indent=1))
                elif change == "reformat" and path.is_file() and not path.is_symlink():
                    path.write_text(json.dumps(json.loads(path.read_text()), sort_keys=True))
            problems = vectors.check_vectors(directory, run_reference=False)
            assert all(isinstance(p, str) and "\n" not in p and p for p in problems), problems
            if not problems:
                for name in names:
                    assert (directory / name).is_file() and _canonical(json.loads((directory / name).read_text())) == _canonical(json.loads(vectors._dump(fresh[name]))), name

        check()


def test_the_consumer_recipe_in_schema_md_runs_and_catches_wrong_implementations():
    """The recipe in tests/vectors/SCHEMA.md, run as written: the reference passes it; 0.6 x the bound and
    a function that answers outside the hypotheses fail it."""
    import re

    from shuffle_spec.reference.bounds.clone_closed_forms import thm21_seed_epsilon

    text = (COMMITTED / "SCHEMA.md").read_text()
    (code,) = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    namespace: dict = {}
    exec(compile(code, "SCHEMA.md", "exec"), namespace)
    run_vectors = namespace["run_vectors"]

    def reference(**inputs):
        return float(thm21_seed_epsilon(**inputs))

    run_vectors(COMMITTED, {"FMT21.Thm2.1": reference})
    with pytest.raises(AssertionError, match="not in"):
        run_vectors(COMMITTED, {"FMT21.Thm2.1": lambda **inputs: 0.6 * reference(**inputs)})
    def never_refuses(**inputs):
        try:
            return reference(**inputs)
        except ValueError:
            return 1.0

    with pytest.raises(AssertionError, match="must refuse"):
        run_vectors(COMMITTED, {"FMT21.Thm2.1": never_refuses})
