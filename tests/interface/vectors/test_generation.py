"""Test vectors: generation from the spec, schema, staleness, and the committed copy in tests/vectors."""

import json
import math

import pytest

from support import statements as fx
from shuffle_spec.proofs_checks.bridge import reference_function
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.vectors.files import DIGITS, SCHEMA_VERSION, check_vectors, generate_all, generate_group, validate_document, write_vectors

from support.paths import VECTORS as COMMITTED


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
            mantissa = test["expected"].split("e")[0]
            assert len(mantissa.replace(".", "").lstrip("-")) == DIGITS  # canonical: DIGITS significant digits
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
        document["testGroups"][0]["tests"][0]["expected"] = "0.1"  # not a canonical decimal: the schema refuses it
        path.write_text(json.dumps(document))
        problems = check_vectors(tmp_path, run_reference=False)
        assert any(p.startswith(f"{fx.V1.id}.json: at tcId 1: expected: \"0.1\" is not a canonical decimal") for p in problems), problems
        document["testGroups"][0]["tests"][0]["expected"] = "1.0000000000000000000e-1"  # canonical, but not the value
        path.write_text(json.dumps(document))
        problems = check_vectors(tmp_path, run_reference=False)
        assert any(p.startswith(f"{fx.V1.id}.json: differs from a fresh generation (stale or edited by hand): tcId 1: expected is") for p in problems), problems
        (tmp_path / f"{fx.TRIVIAL.id}.json").unlink()
        assert any(p.startswith(f"{fx.TRIVIAL.id}.json: missing") for p in check_vectors(tmp_path, run_reference=False))

    def test_schema_problems_are_reported(self):
        document = generate_all()[f"{fx.V1.id}.json"]
        broken = json.loads(json.dumps(document))
        broken["testGroups"][0]["tests"][0]["result"] = "maybe"
        (problem,) = validate_document(broken, "x.json")
        assert problem.startswith("x.json: at tcId 1: result: 'maybe' is not one of"), problem
        miscounted = json.loads(json.dumps(document))
        miscounted["numberOfTests"] += 1
        assert validate_document(miscounted, "x.json") == [f"x.json: numberOfTests {document['numberOfTests'] + 1} but {document['numberOfTests']} tests"]
        assert validate_document({"schema": "other"}, "y.json")[0].startswith("y.json: at the top level:")
        assert validate_document(generate_all()["index.json"], "index.json") == []

    def test_cli(self, tmp_path, capsys):
        assert main(["vectors", "generate", str(tmp_path)]) == 0
        assert main(["vectors", "check", str(tmp_path), "--json"]) == 0
        out = capsys.readouterr().out
        assert json.loads(out[out.index("{\n  \"directory\""):])["result"] == "pass"
        assert main(["vectors", "check", str(tmp_path / "nope")]) == 2


# --- freshness of the committed copy ---------------------------------------------------------------
# A generation asks the float reference whether it answers at each boundary (and grid) point, and keeps an
# answered point only if it also has a high-precision value there (`add` in `generate_group` drops a point
# whose `_expected` is None). For the reference-only lattice and FFT statements almost every such question is
# wasted: at their n = 1e6 / 1e8 boundary points the float reference takes 1-9 s and says yes, then the `_mp`
# path declines (outside its high-precision range) and the point is dropped: 41 s of the 43 s spent in the
# reference during a whole generation (measured 2026-11-23). The freshness check below therefore asks the
# value first and the reference only where a value exists. The group written is the same (a point is kept
# iff the reference accepts it AND `_expected` is not None; both are deterministic, so the order of the two
# questions does not matter); `test_asking_the_value_first_writes_the_same_group` guards that equivalence
# against a change of `generate_group`, and `test_an_edited_or_stale_committed_file_is_detected` shows that
# the shortened check still catches edits of the real committed files.


def _value_first(reference_accepts):
    """`vectors._reference_accepts` that first asks, for a statement without a closed form, whether the point
    has a value at the first precision (what the freshness check generates at), and answers False without
    running the reference where it has none (the point would be dropped whatever the reference says). Where
    asking the value raises, the real question is asked, so that any error surfaces exactly as before."""
    from shuffle_spec.interface.vectors import files as vectors

    skipped: list = []

    def accepts(statement, point) -> bool:
        if statement.value is None:
            try:
                expected = vectors._expected(statement, vectors._point(statement, point), one_precision=True)
            except Exception:  # raised again, if at all, by the generation itself (the real question below)
                expected = ()
            if expected is None:
                skipped.append((statement.id, dict(point)))
                return False
        return reference_accepts(statement, point)

    accepts.skipped = skipped  # the points whose reference call was skipped (asserted on by the guard test)
    return accepts


@pytest.fixture(scope="module")
def fresh_generation():
    """One fresh generation at the first precision (as `check_vectors` makes), value first (see above)."""
    from shuffle_spec.interface.vectors import files as vectors

    patch = pytest.MonkeyPatch()
    patch.setattr(vectors, "_reference_accepts", _value_first(vectors._reference_accepts))
    try:
        return vectors.generate_all(one_precision=True)
    finally:
        patch.undo()  # at once: the other tests of this module see the real generation


def _check_against(monkeypatch, fresh, directory):
    """`check_vectors(directory, run_reference=False)` comparing with the shared fresh generation."""
    from shuffle_spec.interface.vectors import files as vectors

    def generate_all_once(statements=None, *, one_precision=False):
        assert statements is None and one_precision, "check_vectors asked for another generation than the shared one"
        return fresh

    monkeypatch.setattr(vectors, "generate_all", generate_all_once)
    return check_vectors(directory, run_reference=False)


# The default tier's instance of the freshness checks below (each regenerates every file: ~25 s of CPU, second
# tier): five statements of different kinds whose files take about 0.1 s each to generate.
FRESHNESS_SAMPLE = ("BBGN19.Thm5.3", "EFMRSTT20.ThmII.7", "EFMRTT19.Thm7", "compose.binary_rr", "FMT21.Prop2.2.delta_prime")


def test_a_sample_of_the_committed_vectors_is_what_a_fresh_generation_writes():
    """Byte for byte, as `test_regenerating_the_committed_vectors_writes_the_same_bytes` checks every file; and a
    committed sample file with one digit of one expected value changed is reported stale by the same comparison
    `check_vectors` makes."""
    from shuffle_spec.interface.vectors import files as vectors
    from shuffle_spec.spec.registry import get_statement

    fresh = vectors.generate_all([get_statement(i) for i in FRESHNESS_SAMPLE], one_precision=True)
    assert sorted(fresh) == sorted([*(vectors._file_name(i) for i in FRESHNESS_SAMPLE), "index.json"])
    edited = 0
    for name, document in fresh.items():
        if name == "index.json":
            continue
        committed = json.loads((COMMITTED / name).read_text())
        assert (COMMITTED / name).read_bytes() == vectors.document_bytes({**document, "generator": committed["generator"]}), name
        numeric = [t for group in committed["testGroups"] for t in group["tests"] if str(t.get("expected", ""))[:1].isdigit()]
        if numeric:
            edited += 1
            numeric[0]["expected"] = str((int(numeric[0]["expected"][0]) % 9) + 1) + numeric[0]["expected"][1:]
            assert vectors.document_bytes({**document, "generator": committed["generator"]}) != vectors.document_bytes(committed), name
    assert edited >= 3


@pytest.mark.slow  # a whole generation (~25 s of CPU): the sample test below is the default tier's instance
def test_committed_vectors_match_a_fresh_generation(monkeypatch, fresh_generation):
    """tests/vectors is generated, never edited: regenerate with `shuffle-spec vectors generate tests/vectors`."""
    problems = _check_against(monkeypatch, fresh_generation, COMMITTED)
    assert problems == [], "\n".join(problems[:20])


@pytest.mark.slow  # a whole generation (~25 s of CPU): the sample test below is the default tier's instance
def test_regenerating_the_committed_vectors_writes_the_same_bytes(fresh_generation):
    """Byte for byte, manifest included: each file is what `vectors generate` writes (with the generator
    string the committed copy carries, so that a release alone does not count), and index.json's
    sha256 are the hashes of those bytes. Only the vector files (and SCHEMA.md) are in the folder."""
    import hashlib

    from shuffle_spec.interface.vectors.files import _dump

    written = {}
    for name, document in fresh_generation.items():
        if name == "index.json":
            continue
        committed = json.loads((COMMITTED / name).read_text())
        written[name] = _dump({**document, "generator": committed["generator"]}).encode("ascii")
        assert (COMMITTED / name).read_bytes() == written[name], name
    index = json.loads((COMMITTED / "index.json").read_text())
    expected_index = {**fresh_generation["index.json"], "generator": index["generator"], "sha256": {name: hashlib.sha256(data).hexdigest() for name, data in sorted(written.items())}}
    assert (COMMITTED / "index.json").read_bytes() == _dump(expected_index).encode("ascii")
    assert sorted(p.name for p in COMMITTED.iterdir()) == sorted([*fresh_generation, "SCHEMA.md"])


@pytest.mark.slow  # a whole generation (~25 s of CPU): the sample test below is the default tier's instance
def test_an_edited_or_stale_committed_file_is_detected(monkeypatch, fresh_generation, tmp_path):
    """The shortened check on a copy of the committed files: one unit in the last digit of an expected value,
    and a boundary point whose reference call the check skipped (n = 1e6: the `_mp` path declines there)
    written in as `acceptable`, are each reported as stale; a missing file as missing."""
    import shutil

    name = "exact.laplace_pair_x0.json"
    if name not in fresh_generation:
        pytest.skip(f"{name} is no longer generated")
    copy = tmp_path / "vectors"
    shutil.copytree(COMMITTED, copy)
    assert _check_against(monkeypatch, fresh_generation, copy) == []
    original = json.loads((copy / name).read_text())

    edited = json.loads(json.dumps(original))
    test = next(t for t in edited["testGroups"][0]["tests"] if t["result"] == "valid")
    mantissa, exponent = test["expected"].split("e")
    digits = str(int(mantissa.replace(".", "")) + 1)
    test["expected"] = f"{digits[0]}.{digits[1:]}e{exponent}"
    (copy / name).write_text(json.dumps(edited))
    assert any(p.startswith(f"{name}: differs from a fresh generation (stale or edited by hand): tcId {test['tcId']}: expected is") for p in _check_against(monkeypatch, fresh_generation, copy))

    stale = json.loads(json.dumps(original))
    tests = stale["testGroups"][0]["tests"]
    kept = next(t for t in tests if t["result"] == "acceptable")
    tests.append({**kept, "tcId": len(tests) + 1, "inputs": {**kept["inputs"], "eps0": 0.5, "n": 1_000_000}})
    stale["numberOfTests"] += 1
    (copy / name).write_text(json.dumps(stale))
    assert any(p.startswith(f"{name}: differs from a fresh generation (stale or edited by hand):") for p in _check_against(monkeypatch, fresh_generation, copy))

    (copy / name).unlink()
    assert any(p.startswith(f"{name}: missing") for p in _check_against(monkeypatch, fresh_generation, copy))


@pytest.mark.slow  # a whole generation (~25 s of CPU): the sample test below is the default tier's instance
def test_a_forged_committed_file_fails_the_check_whatever_its_schema_string(monkeypatch, fresh_generation, tmp_path):
    """FMT21.Thm2.1's intervals widened to [0, 1e300] (so that 0.6 x the bound would pass) are stale for the
    current schema and for a file that says it is of the older schema "shuffle-spec-vectors/1": the
    freshness comparison is never skipped because of a schema string."""
    import shutil

    name = "FMT21.Thm2.1.json"
    copy = tmp_path / "vectors"
    shutil.copytree(COMMITTED, copy)
    document = json.loads((copy / name).read_text())
    for test in document["testGroups"][0]["tests"]:
        if "interval" in test:
            test["interval"] = ["0", "1e300"]
    for schema in (SCHEMA_VERSION, "shuffle-spec-vectors/1"):
        document["schema"] = schema
        (copy / name).write_text(json.dumps(document, indent=1))
        problems = _check_against(monkeypatch, fresh_generation, copy)
        assert any(p.startswith(f"{name}: ") for p in problems), (schema, problems)


# --- bit-reproducible vectors ---------------------------------------------------------------------------


def test_canonical_decimal_matches_the_decimal_module():
    """An independent computation: Python's decimal module with the matching rounding modes."""
    import decimal
    from fractions import Fraction

    from shuffle_spec.interface.vectors.files import canonical_decimal

    modes = {"nearest": decimal.ROUND_HALF_EVEN, "down": decimal.ROUND_FLOOR, "up": decimal.ROUND_CEILING}
    samples = [Fraction(1, 3), Fraction(-2, 7), Fraction(0.1), Fraction(6225, 10000), Fraction(999999, 10**6), Fraction(10**30 + 1, 7), Fraction(1, 10**40 - 3), Fraction(5, 2)]
    for x in samples:
        for digits in (1, 5, 12, 20):
            for name, mode in modes.items():
                context = decimal.Context(prec=digits, rounding=mode)
                want = context.divide(decimal.Decimal(x.numerator), decimal.Decimal(x.denominator))
                got = canonical_decimal(x, digits, name)
                assert decimal.Decimal(got) == want, (x, digits, name, got, want)
                assert len(got.split("e")[0].replace(".", "").lstrip("-")) == digits
    assert canonical_decimal(0.1, 20) == "1.0000000000000000555e-1"  # the double 0.1, exactly rounded


class TestReproducibility:
    @pytest.fixture(autouse=True)
    def registry(self, monkeypatch):
        import dataclasses

        numeric = dataclasses.replace(fx.V1, id="EFMRTT19.Thm96", value=None, reference="support.statements:v1_numeric")
        self.numeric = numeric
        fx.install(monkeypatch, (fx.V1, numeric))

    def test_closed_form_vectors_do_not_depend_on_the_reference_floats(self, monkeypatch):
        import dataclasses

        import shuffle_spec.reference.bounds.erlingsson as module

        before = generate_group(fx.V1)
        original = module.erlingsson_v1_epsilon
        # Another machine's libm: the same reference, one ulp off.
        def one_ulp_off(**kw):
            value = original(**kw)
            return dataclasses.replace(value, upper=math.nextafter(value.upper, math.inf))

        monkeypatch.setattr(module, "erlingsson_v1_epsilon", one_ulp_off)
        assert generate_group(fx.V1) == before

    def test_the_high_precision_path_gives_the_expected_values(self):
        import mpmath

        from shuffle_spec.interface.vectors.files import FROM_MP, canonical_decimal

        group = generate_group(self.numeric)
        assert group["expected_from"] == FROM_MP
        for test in group["tests"]:
            if test["result"] == "valid":
                i = test["inputs"]
                with mpmath.workdps(60):
                    exact = 12 * mpmath.mpf(i["eps0"]) * mpmath.sqrt(mpmath.log(1 / mpmath.mpf(i["delta"])) / i["n"])
                assert test["expected"] == canonical_decimal(exact, DIGITS)

    def test_a_statement_without_a_high_precision_path_gets_invalid_tests_only(self, monkeypatch):
        """Reference floats are checked against the vectors, never written into them (vectors are bit-reproducible)."""
        from support import statements as here

        from shuffle_spec.interface.vectors.files import FROM_NONE

        with_path = generate_group(self.numeric)
        monkeypatch.delattr(here, "v1_numeric_mp")
        group = generate_group(self.numeric)
        assert group["expected_from"] == FROM_NONE
        assert {t["result"] for t in group["tests"]} == {"invalid"}
        # ...and exactly the invalid tests the group had with its high-precision path.
        assert [t["inputs"] for t in group["tests"]] == [t["inputs"] for t in with_path["tests"] if t["result"] == "invalid"]

    def test_one_unit_in_the_last_digit_is_a_stale_vector(self, tmp_path):
        """No tolerance any more: every string is reproducible, so any difference is staleness."""
        write_vectors(tmp_path)
        path = tmp_path / f"{self.numeric.id}.json"
        document = json.loads(path.read_text())
        assert check_vectors(tmp_path, run_reference=False) == []
        test = next(t for t in document["testGroups"][0]["tests"] if t["result"] == "valid")
        mantissa, exponent = test["interval"][1].split("e")
        digits = str(int(mantissa.replace(".", "")) + 1)
        test["interval"][1] = f"{digits[0]}.{digits[1:]}e{exponent}"
        path.write_text(json.dumps(document))
        assert any(p.startswith(f"{self.numeric.id}.json: differs from a fresh generation") for p in check_vectors(tmp_path, run_reference=False))

    def test_written_bytes_depend_only_on_the_agreed_digits(self, monkeypatch):
        """Enclosures that differ between precisions below the 20th digit (as a real `_mp` path's do) give
        the same group at 40 digits alone, at 80 alone and at both; a difference at the 20th digit fails."""
        import mpmath

        from support import statements as here
        from shuffle_spec.interface.vectors import files as vectors

        def widened(*, dps, eps0, n, delta):
            with mpmath.workdps(dps):
                value = 12 * mpmath.mpf(eps0) * mpmath.sqrt(mpmath.log(1 / mpmath.mpf(delta)) / n)
                width = value * mpmath.mpf(10) ** (8 - dps)  # 1e-32 relative at dps 40, 1e-72 at dps 80
                return value - width, value + width

        monkeypatch.setattr(here, "v1_numeric_mp", widened)
        both = generate_group(self.numeric)
        assert generate_group(self.numeric, one_precision=True) == both
        monkeypatch.setattr(vectors, "MP_PRECISIONS", (80,))
        assert generate_group(self.numeric) == both
        assert any(t["result"] == "valid" for t in both["tests"])

        def drifting(*, dps, eps0, n, delta):
            low, high = widened(dps=dps, eps0=eps0, n=n, delta=delta)
            return low * (1 + mpmath.mpf(10) ** -15 * (dps == 40)), high * (1 + mpmath.mpf(10) ** -15 * (dps == 40))

        monkeypatch.setattr(vectors, "MP_PRECISIONS", (40, 80))
        monkeypatch.setattr(here, "v1_numeric_mp", drifting)
        with pytest.raises(ValueError, match="precisions disagree"):
            generate_group(self.numeric)

    def test_a_declining_high_precision_path_leaves_the_point_out(self, monkeypatch):
        from support import statements as here

        original = here.v1_numeric_mp

        def declining(*, dps, eps0, n, delta):
            if eps0 == 0.25:
                raise ValueError("eps0 = 0.25: outside the high-precision range")
            return original(dps=dps, eps0=eps0, n=n, delta=delta)

        monkeypatch.setattr(here, "v1_numeric_mp", declining)
        group = generate_group(self.numeric)
        valid = [t["inputs"] for t in group["tests"] if t["result"] != "invalid"]
        assert valid and all(i["eps0"] != 0.25 for i in valid)
        assert any(t["inputs"]["eps0"] == 0.25 for t in generate_group(fx.V1)["tests"] if t["result"] == "valid")

        def declining_at_80_only(*, dps, eps0, n, delta):
            if dps == 80:
                raise ValueError("outside the high-precision range")
            return original(dps=dps, eps0=eps0, n=n, delta=delta)

        # The check at one precision would keep such a point: generation refuses the inconsistency.
        monkeypatch.setattr(here, "v1_numeric_mp", declining_at_80_only)
        with pytest.raises(ValueError, match="declines at dps 80 but not at dps 40"):
            generate_group(self.numeric)

    def test_asking_the_value_first_writes_the_same_group(self, monkeypatch):
        """The freshness check's shortcut (`_value_first`) against the real generation, where it matters: the
        reference accepts a boundary point (n = 1000 on n >= 1000) at which the `_mp` path declines. Same
        group, and the shortcut did skip that reference call; also where the `_mp` path answers everywhere."""
        from support import statements as here
        from shuffle_spec.interface.vectors import files as vectors

        original = here.v1_numeric_mp

        def declining(*, dps, eps0, n, delta):
            if n == 1000:
                raise ValueError("n = 1000: outside the high-precision range")
            return original(dps=dps, eps0=eps0, n=n, delta=delta)

        real = vectors._reference_accepts
        for mp_path in (declining, original):
            monkeypatch.setattr(here, "v1_numeric_mp", mp_path)
            want = generate_group(self.numeric, one_precision=True)
            shortcut = _value_first(real)
            monkeypatch.setattr(vectors, "_reference_accepts", shortcut)
            assert generate_group(self.numeric, one_precision=True) == want
            monkeypatch.setattr(vectors, "_reference_accepts", real)
            if mp_path is declining:
                assert real(self.numeric, {"eps0": 0.25, "n": 1000, "delta": 1e-6})  # the reference does accept it
                assert any(point["n"] == 1000 for _, point in shortcut.skipped)
                assert not any(t["inputs"]["n"] == 1000 for t in want["tests"] if t["result"] != "invalid")
            else:
                assert shortcut.skipped == [] and any(t["result"] == "acceptable" for t in want["tests"])

    def test_version_1_documents_are_reported_stale_not_used(self, tmp_path):
        """A file of the older schema is recognised (named as such) and refused: its numbers are not what
        a fresh generation writes, and a schema string never exempts a file from the comparison."""
        write_vectors(tmp_path)
        path = tmp_path / f"{fx.V1.id}.json"
        document = json.loads(path.read_text())
        document["schema"] = "shuffle-spec-vectors/1"
        for test in document["testGroups"][0]["tests"]:  # version 1 wrote repr() of doubles
            if "expected" in test:
                test["expected"] = repr(float(test["expected"]))
        path.write_text(json.dumps(document))
        problems = check_vectors(tmp_path)
        assert [p for p in problems if p.startswith(f"{fx.V1.id}.json")] == [f"{fx.V1.id}.json: schema shuffle-spec-vectors/1 is an older version, whose numbers a fresh generation no longer writes: regenerate with `shuffle-spec vectors generate`"]


# --- every reference-only statement has a high-precision path ----------------------------------------

# Reference-only statements allowed, for now, to lack an `_mp` path (none: every one has its own).
# compose.binary_rr, compose.krr: no high-precision path yet (their envelope sweeps many certified evaluations).
PENDING_HIGH_PRECISION: frozenset[str] = frozenset({"compose.binary_rr", "compose.krr"})


def test_every_reference_only_statement_has_a_high_precision_path():
    """Without a closed form or a `<function>_mp` path a statement's vectors carry no values at all."""
    from shuffle_spec.interface.vectors.files import has_high_precision_value
    from shuffle_spec.spec.registry import list_statements

    lacking = {s.id for s in list_statements() if s.is_evaluable and not has_high_precision_value(s)}
    missing = sorted(lacking - PENDING_HIGH_PRECISION)
    assert not missing, f"reference-only statements without a `<function>_mp` path (no valid vectors): {missing}"
    stale = sorted(PENDING_HIGH_PRECISION - lacking)
    assert not stale, f"PENDING_HIGH_PRECISION lists statements that now have values (remove them): {stale}"


def test_a_real_group_is_the_same_at_one_precision_and_at_two():
    """The freshness check's shortcut on real `_mp` paths (Lemma II.6 inverted: cheap; Hoeffding k-RR:
    a boundary point `acceptable`)."""
    from shuffle_spec.spec.registry import get_statement

    for statement_id in ("EFMRSTT20.LemII.6.inverse", "BBGN19.hoeffding_krr"):
        statement = get_statement(statement_id)
        group = generate_group(statement)
        assert generate_group(statement, one_precision=True) == group
        assert sum(t["result"] != "invalid" for t in group["tests"]) >= 3
