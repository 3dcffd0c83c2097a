"""Test vectors for other implementations, generated from the spec (Wycheproof-like).

One JSON file per evaluable statement plus `index.json`; the schema is documented in
`tests/vectors/SCHEMA.md`. The files are generated, never edited by hand: `shuffle-spec vectors
generate DIR` writes them and `shuffle-spec vectors check DIR` re-generates and compares, then runs
the reference implementation over them.

Expected values come from the statement's closed form (`value`, evaluated by SymPy to 30 significant
digits) where it has one, else from the reference's certified interval. Each test's `interval` is the
acceptance interval: a conforming implementation returns a number inside it. For an upper bound it
reaches below the expected value only by float rounding (1e-12 relative) and above it by the
statement's tolerance `rtol`: an implementation may be more conservative, never less.
"""

from __future__ import annotations

import json
import math
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable, Mapping

import sympy as sp

from shuffle_spec.proofs_checks.bridge import UsageError, evaluate, reference_function
from shuffle_spec.proofs_checks.output import progress
from shuffle_spec.spec.registry import list_statements
from shuffle_spec.spec.statement import Direction, Statement, assumption_text, to_exact

__all__ = [
    "SCHEMA_VERSION",
    "generate_all",
    "generate_group",
    "write_vectors",
    "check_vectors",
    "validate_document",
]

SCHEMA_VERSION = "shuffle-spec-vectors/1"
DIGITS = 30
# Float rounding of a correct upper bound cannot put it further below the exact value than this.
ROUNDING_SLACK = 1e-12
# Extra points for closed-form amplification bounds (kept where the hypotheses hold). Small on
# purpose: deciding a complicated hypothesis exactly costs about a second per point.
GRID_EPS0 = (0.1, 1.0, 3.0)
GRID_N = (10_000, 1_000_000)
GRID_DELTA = (1e-6,)


def _generator() -> str:
    try:
        return f"shuffle-spec {metadata.version('shuffle-spec')}"
    except metadata.PackageNotFoundError:
        return "shuffle-spec"


def _json_number(value: Any) -> int | float:
    if isinstance(value, bool):
        raise TypeError(value)
    if isinstance(value, int):
        return value
    as_float = float(value)
    return int(as_float) if isinstance(value, sp.Integer) else as_float


def _point(statement: Statement, values: Mapping[str, Any]) -> dict[str, int | float]:
    return {name: _json_number(values[name]) for name in statement.input_names if name in values}


def _decimal(x: float) -> str:
    return repr(float(x))


def _expected(statement: Statement, point: Mapping[str, Any]) -> tuple[str, list[str]] | None:
    """(expected decimal string, acceptance interval) at a point inside the hypotheses, or None when
    neither the closed form nor the reference gives a finite real number there."""
    rtol = statement.rtol
    if statement.value is not None:
        exact = sp.N(statement.value.subs(statement.substitution(point)), DIGITS)
        if not (exact.is_real and exact.is_finite):
            return None
        text = sp.sstr(exact, full_prec=False)
        low_exact = high_exact = float(exact)
    else:
        evaluation = evaluate(statement, point)
        if not evaluation.valid or evaluation.value is None or not math.isfinite(evaluation.value):
            return None
        text = _decimal(evaluation.value)
        low_exact, high_exact = evaluation.interval if evaluation.interval else (evaluation.value, evaluation.value)
    scale = max(abs(low_exact), abs(high_exact))
    if statement.direction is Direction.UPPER_BOUND:
        low, high = low_exact - ROUNDING_SLACK * scale, high_exact + rtol * scale
    elif statement.direction is Direction.LOWER_BOUND:
        low, high = low_exact - rtol * scale, high_exact + ROUNDING_SLACK * scale
    else:
        low, high = low_exact - rtol * scale, high_exact + rtol * scale
    return text, [_decimal(low), _decimal(high)]


def _assumption_failures(statement: Statement, point: Mapping[str, Any]) -> list[str]:
    failures = []
    for symbol in statement.inputs:
        value = point[str(symbol)]
        if (symbol.is_positive and not value > 0) or (symbol.is_nonnegative and not value >= 0) or (symbol.is_integer and value != int(value)):
            failures.append(assumption_text(symbol))
    return failures


def failures(statement: Statement, point: Mapping[str, Any]) -> list[str] | None:
    """The assumptions and hypotheses that fail at `point`, as text (empty inside the hypotheses;
    None when SymPy cannot evaluate a hypothesis there, e.g. a division by zero: such points are
    ambiguous and left out of the vectors).

    The assumptions are checked first: substituting a value that breaks one (delta = 0 into
    log(1/delta)) can make SymPy refuse to evaluate a hypothesis at all."""
    broken = _assumption_failures(statement, point)
    if broken:
        return broken
    try:
        return [sp.sstr(h) for h in statement.failed_hypotheses(point)]
    except (TypeError, ValueError, ZeroDivisionError):
        return None


def _reference_accepts(statement: Statement, point: Mapping[str, Any]) -> bool:
    try:
        return evaluate(statement, point).valid
    except UsageError:
        return False


def _grid_points(statement: Statement) -> Iterable[dict[str, Any]]:
    if not (statement.is_amplification_bound and statement.value is not None and statement.examples):
        return
    extras = {k: v for k, v in statement.examples[0].items() if k not in ("eps0", "n", "delta")}
    for eps0 in GRID_EPS0:
        for n in GRID_N:
            for delta in GRID_DELTA:
                yield {"eps0": eps0, "n": n, "delta": delta, **extras}


def _boundary_points(statement: Statement, example: Mapping[str, Any]) -> Iterable[tuple[dict[str, Any], str]]:
    """Points where one hypothesis `symbol (op) expression` holds with equality, when the boundary is a
    number a float represents exactly (an irrational boundary has no unambiguous float test)."""
    inputs = set(statement.inputs)
    for hypothesis in statement.hypotheses:
        if not isinstance(hypothesis, sp.core.relational.Relational):
            continue
        for side, other in ((hypothesis.lhs, hypothesis.rhs), (hypothesis.rhs, hypothesis.lhs)):
            if side not in inputs:
                continue
            rest = {k: v for k, v in example.items() if k != str(side)}
            bound = other.subs(statement.substitution(rest))
            if bound.free_symbols or not bound.is_Rational:
                continue
            if side.is_integer and not bound.is_Integer:
                continue
            value: int | float = int(bound) if side.is_integer else float(bound)
            if to_exact(value) != bound:
                continue
            yield {**example, str(side): value}, sp.sstr(hypothesis)


def _invalid_points(statement: Statement, example: Mapping[str, Any]) -> Iterable[dict[str, Any]]:
    """Each input pushed outside its symbol's assumptions, one at a time."""
    for symbol in statement.inputs:
        name, value = str(symbol), example[str(symbol)]
        if symbol.is_positive:
            yield {**example, name: 0}
        if symbol.is_positive or symbol.is_nonnegative:
            yield {**example, name: -1}
        if symbol.is_integer:
            yield {**example, name: float(value) + 0.5}


def generate_group(statement: Statement) -> dict[str, Any]:
    """The test group of one evaluable statement."""
    tests: list[dict[str, Any]] = []
    seen: set[str] = set()

    def add(point: Mapping[str, Any], result: str, comment: str) -> None:
        inputs = _point(statement, point)
        key = json.dumps(inputs, sort_keys=True)
        if key in seen or len(inputs) != len(statement.inputs):
            return
        test: dict[str, Any] = {"tcId": 0, "comment": comment, "inputs": inputs, "result": result}
        if result != "invalid":
            expected = _expected(statement, inputs)
            if expected is None:
                return
            test["expected"], test["interval"] = expected
        seen.add(key)
        test["tcId"] = len(tests) + 1
        tests.append(test)

    for example in statement.examples:
        add(example, "valid", "example registered with the statement")
    for point in _grid_points(statement):
        if failures(statement, point) == [] and _reference_accepts(statement, point):
            add(point, "valid", "grid point inside the hypotheses")
    for example in statement.examples:
        for point, hypothesis in _boundary_points(statement, example):
            failed = failures(statement, point)
            if failed is None:
                continue
            if failed:
                add(point, "invalid", f"on the boundary of the strict hypothesis {hypothesis}")
            elif _reference_accepts(statement, point):
                add(point, "acceptable", f"on the boundary of {hypothesis}: an implementation may be stricter, but if it answers it must match")
    for example in statement.invalid_examples:
        failed = failures(statement, example)
        add(example, "invalid", f"registered invalid example: {failed[0] if failed else 'outside the hypotheses'} fails")
    for example in statement.examples[:1]:
        for point in _invalid_points(statement, example):
            failed = failures(statement, point)
            if failed:
                add(point, "invalid", f"{failed[0]} fails")
    source = statement.source
    return {
        "statement_id": statement.id,
        "title": statement.title,
        "source": {"paper": source.paper, "locator": source.locator, "version": source.version, "confidence": source.confidence},
        "direction": statement.direction.value,
        "mechanism": statement.mechanism or "generic",
        "inputs": list(statement.input_names),
        "output": None if statement.output is None else str(statement.output),
        "expected_from": "closed form (spec value, SymPy, 30 digits)" if statement.value is not None else "reference (certified interval)",
        "reference": statement.reference,
        "rtol": statement.rtol,
        "tests": tests,
    }


def _file_name(statement_id: str) -> str:
    return f"{statement_id}.json"


def generate_all(statements: Iterable[Statement] | None = None) -> dict[str, dict[str, Any]]:
    """File name -> document, for every evaluable statement, plus `index.json`."""
    chosen = [s for s in (list_statements() if statements is None else statements) if s.is_evaluable]
    documents: dict[str, dict[str, Any]] = {}
    for index, statement in enumerate(chosen, start=1):
        group = generate_group(statement)
        documents[_file_name(statement.id)] = {
            "schema": SCHEMA_VERSION,
            "generator": _generator(),
            "statement_id": statement.id,
            "numberOfTests": len(group["tests"]),
            "notes": "Generated from the spec by `shuffle-spec vectors generate`; do not edit by hand.",
            "testGroups": [group],
        }
        progress(index, len(chosen), "vectors")
    documents["index.json"] = {
        "schema": SCHEMA_VERSION,
        "generator": _generator(),
        "files": sorted(name for name in documents),
        "numberOfTests": sum(d["numberOfTests"] for d in documents.values()),
    }
    return documents


def _dump(document: Mapping[str, Any]) -> str:
    return json.dumps(document, indent=1, sort_keys=False) + "\n"


def write_vectors(directory: str | Path, statements: Iterable[Statement] | None = None) -> list[Path]:
    """Write the vectors into `directory` (created if needed); stale vector files are removed."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    documents = generate_all(statements)
    for old in directory.glob("*.json"):
        if old.name not in documents:
            old.unlink()
    written = []
    for name, document in documents.items():
        path = directory / name
        path.write_text(_dump(document))
        written.append(path)
    return written


_TEST_KEYS = {"tcId", "comment", "inputs", "result"}
_GROUP_KEYS = {"statement_id", "source", "direction", "inputs", "rtol", "tests"}


def validate_document(document: Any, name: str = "") -> list[str]:
    """Schema problems of one vector file (empty when it conforms)."""
    problems = []
    if not isinstance(document, dict) or document.get("schema") != SCHEMA_VERSION:
        return [f"{name}: not a {SCHEMA_VERSION} document"]
    if name == "index.json":
        return [] if isinstance(document.get("files"), list) else [f"{name}: no file list"]
    groups = document.get("testGroups")
    if not isinstance(groups, list) or not groups:
        return [f"{name}: no testGroups"]
    count = 0
    for group in groups:
        missing = _GROUP_KEYS - set(group)
        if missing:
            problems.append(f"{name}: group lacks {sorted(missing)}")
            continue
        for test in group["tests"]:
            count += 1
            lacking = _TEST_KEYS - set(test)
            if lacking:
                problems.append(f"{name}: test {test.get('tcId')} lacks {sorted(lacking)}")
            if test.get("result") not in ("valid", "invalid", "acceptable"):
                problems.append(f"{name}: test {test.get('tcId')} has result {test.get('result')!r}")
            if test.get("result") in ("valid", "acceptable"):
                interval = test.get("interval")
                if not (isinstance(test.get("expected"), str) and isinstance(interval, list) and len(interval) == 2 and float(interval[0]) <= float(interval[1])):
                    problems.append(f"{name}: test {test.get('tcId')} needs an expected string and an interval [low, high]")
    if count != document.get("numberOfTests"):
        problems.append(f"{name}: numberOfTests {document.get('numberOfTests')} but {count} tests")
    return problems


def check_vectors(directory: str | Path, *, run_reference: bool = True) -> list[str]:
    """Problems with the vectors in `directory`: schema, staleness against a fresh generation, and
    (with `run_reference`) the reference implementation failing any of them."""
    from shuffle_spec.proofs_checks.verdicts import judge_group

    directory = Path(directory)
    if not directory.is_dir():
        raise UsageError(f"no such directory: {directory}")
    problems: list[str] = []
    on_disk = {}
    for path in sorted(directory.glob("*.json")):
        try:
            on_disk[path.name] = json.loads(path.read_text())
        except json.JSONDecodeError as failure:
            problems.append(f"{path.name}: not JSON: {failure.msg} at line {failure.lineno}")
            continue
        problems += validate_document(on_disk[path.name], path.name)
    fresh = generate_all()
    for name in sorted(set(fresh) - set(on_disk)):
        problems.append(f"{name}: missing (regenerate with `shuffle-spec vectors generate {directory}`)")
    for name in sorted(set(on_disk) - set(fresh)):
        problems.append(f"{name}: no longer generated (its statement is gone or not evaluable)")
    for name in sorted(set(on_disk) & set(fresh)):
        if _comparable(on_disk[name]) != _comparable(json.loads(_dump(fresh[name]))):
            problems.append(f"{name}: differs from a fresh generation (stale or edited by hand)")
    if run_reference:
        from shuffle_spec.spec.registry import get_statement

        for name, document in on_disk.items():
            if name == "index.json" or not isinstance(document, dict):
                continue
            for group in document.get("testGroups", []):
                statement = get_statement(group["statement_id"])
                for finding in judge_group(reference_function(statement), statement, group, strict=True):
                    if finding.severity != "pass":
                        problems.append(f"{name}: reference {statement.reference} {finding.verdict} at {finding.source}: {finding.reason}")
    return problems


def _comparable(document: Mapping[str, Any]) -> Any:
    """The document without the generator's version string (a release bump is not a stale vector)."""
    return {k: v for k, v in document.items() if k != "generator"}
