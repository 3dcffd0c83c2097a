"""The test vectors for other projects: every committed file conforms to the JSON Schema (checked with jsonschema
itself, not through our reader), the manifest's SHA-256 matches each file's bytes, and the installed folder that
`shuffle-spec vectors path` prints is, in a checkout, the committed one."""

import functools
import hashlib
import json

import jsonschema
import pytest

from shuffle_spec.interface.vectors.files import SCHEMA_FILE
from shuffle_spec.interface.vectors.paths import installed_vectors
from support.cli import call
from support.paths import VECTORS

SCHEMA = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
INDEX = json.loads((VECTORS / "index.json").read_text(encoding="utf-8"))


@functools.cache
def _validator(definition: str | None = None) -> jsonschema.Draft202012Validator:
    schema = SCHEMA if definition is None else {"$schema": SCHEMA["$schema"], "$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{definition}"}
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_the_manifest_lists_every_vector_file_and_conforms_to_the_index_schema():
    _validator("index").validate(INDEX)
    on_disk = sorted(p.name for p in VECTORS.glob("*.json") if p.name != "index.json")
    assert sorted(INDEX["files"]) == on_disk and len(on_disk) > 50


@pytest.mark.parametrize("name", [name for name in INDEX["files"] if name != "index.json"])
def test_every_vector_file_conforms_to_the_json_schema_and_to_its_manifest_digest(name):
    data = (VECTORS / name).read_bytes()
    document = json.loads(data)
    errors = sorted(_validator().iter_errors(document), key=lambda e: list(e.absolute_path))
    assert not errors, f"{name}: {errors[0].message} at {list(errors[0].absolute_path)}"
    assert hashlib.sha256(data).hexdigest() == INDEX["sha256"][name]
    assert document["statement_id"] + ".json" == name


def test_the_schema_refuses_a_file_with_a_result_it_does_not_know():
    """The validation above could fail: a test whose `result` is not valid / invalid / acceptable is refused."""
    document = json.loads((VECTORS / "FMT21.Thm2.1.json").read_text(encoding="utf-8"))
    document["testGroups"][0]["tests"][0]["result"] = "probably"
    assert list(_validator().iter_errors(document))


def test_the_installed_folder_is_the_committed_one_in_a_checkout_and_the_command_prints_it():
    assert installed_vectors() == VECTORS.resolve()
    code, out, err, _ = call(["vectors", "path"])
    assert code == 0 and err == "" and out == f"{VECTORS.resolve()}\n"
    code, out, err, _ = call(["vectors", "path", "--json"])
    assert code == 0 and json.loads(out) == {"directory": str(VECTORS.resolve())}


@pytest.mark.parametrize("argv, message", [(["vectors", "path", "tests/vectors"], "takes no directory"), (["vectors", "check"], "needs a directory")])
def test_a_misplaced_or_missing_directory_is_refused_in_one_line(argv, message):
    code, out, err, _ = call(argv)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1
