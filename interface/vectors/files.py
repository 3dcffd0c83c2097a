"""Test vectors for other implementations, generated from the spec (Wycheproof-like).

One JSON file per evaluable statement plus `index.json`; the schema is documented in
`tests/vectors/SCHEMA.md`. The files are generated, never edited by hand: `shuffle-spec vectors
generate DIR` writes them and `shuffle-spec vectors check DIR` re-generates and compares, then runs
the reference implementation over them.

Bit-reproducible (schema 2): every number written is a canonical decimal string computed in exact or
high-precision arithmetic, so that any machine writes the same bytes. Floating-point values computed
by reference code are checked against the vectors (`vectors check`), never written into them.

- A statement with a closed form (`value`): SymPy `evalf` at 50 and at 70 digits.
- A statement whose reference module exposes a high-precision path `<function>_mp(*, dps, **inputs)`
  returning a certified enclosure `(lower, upper)` (mpmath numbers or Fractions): called at 40 and 80
  digits. A point where it declines (ValueError, e.g. "outside the high-precision range") is left out.
- Otherwise (a reference-only statement without `_mp`) there is no value to write: the group keeps its
  `invalid` tests only (`expected_from` says so).

At each precision the enclosure [low, high] (a single point for a closed form) is turned into three
`DIGITS`-digit strings: the expected value rounded to nearest, low rounded down, high rounded up. All
precisions must give the same three strings (else generation fails: raise the precision), and every
byte written is computed from those strings alone (the acceptance interval in exact rational
arithmetic from the two rounded ends, then rounded outward). So a generation at the first precision
alone writes the same files as one at both whenever the latter succeeds: the freshness check
(`check_vectors`, `tests/interface/vectors/test_generation.py`) regenerates at the first precision only (40 digits for
`_mp` paths, 50 for closed forms), which halves its cost; `generate` keeps requiring agreement.

Each test's `interval` is the acceptance interval: a conforming implementation returns a number inside
it. For an upper bound it reaches below the expected value only by float rounding (`ROUNDING_SLACK`
relative) and above it by the statement's tolerance `rtol`: an implementation may be more conservative,
never less.

Files read (`audit bound --vectors`, `vectors check`) are trusted only as far as they are checked: a
vector file is used only when it matches the JSON Schema `interface/vectors/schema.json` and equals
a fresh generation from the spec (every field but `generator`, types included), else it is refused in
one line naming the file, the test and what differs. A forged file (intervals widened so that a wrong
bound passes, a result flipped, tests left out) is therefore never used, whatever its `schema` string
says.

Files written (`vectors generate`): `index.json` is also the manifest (`sha256`: the SHA-256 of every
file's bytes as written). A later generation removes a file that is no longer generated only when the
manifest lists it and it still has those bytes, and overwrites only files that are vector files; any
other file (a package.json, a file edited since) is left alone and named on stderr.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from fractions import Fraction
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import sympy as sp

from ...proofs_checks.bridge import UsageError, evaluate, reference_function, reference_module
from ..input_files import load_json_file, loads_json, read_limited
from ..cli.output import progress
from ...reference.core.progress import silenced
from ...spec.registry import list_statements
from ...spec.statement import Direction, Statement, assumption_text, to_exact

__all__ = [
    "READABLE_SCHEMAS",
    "SCHEMA_FILE",
    "SCHEMA_VERSION",
    "canonical_decimal",
    "checked_group",
    "differences",
    "document_bytes",
    "fresh_document",
    "generate_all",
    "generate_group",
    "group_head",
    "has_high_precision_value",
    "high_precision_enclosure",
    "load_vector_group",
    "write_documents",
    "write_vectors",
    "check_vectors",
    "validate_document",
]

SCHEMA_VERSION = "shuffle-spec-vectors/2"
# The schema strings `vectors check` recognises as vector files. Version 1 (repr-of-double strings) is
# recognised in order to be reported as stale, never used: its numbers are not a fresh generation's.
READABLE_SCHEMAS = ("shuffle-spec-vectors/1", SCHEMA_VERSION)
# The JSON Schema of a vector file (its root) and of index.json (`#/$defs/index`).
SCHEMA_FILE = Path(__file__).with_name("schema.json")
INDEX = "index.json"
# The largest vector file read: the largest one generated is about 11 KB (a thousand times less).
VECTOR_FILE_LIMIT = 16 * 1024 * 1024
DIGITS = 20
PRECISIONS = (50, 70)  # closed forms: evalf digits, must agree to DIGITS
MP_PRECISIONS = (40, 80)  # `<function>_mp` paths: mpmath dps, must agree to DIGITS
# Float rounding of a correct upper bound cannot put it further below the exact value than this.
ROUNDING_SLACK = 1e-12
FROM_CLOSED_FORM = f"closed form (spec value, SymPy evalf, {DIGITS} significant digits)"
FROM_MP = f"reference high-precision path <function>_mp ({DIGITS} significant digits)"
FROM_NONE = "none: reference-only statement without a high-precision path <function>_mp (invalid tests only)"
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


def _exact_fraction(value: Any) -> Fraction:
    """The exact rational value of an int, float, Fraction, SymPy Float/Rational or mpmath mpf."""
    if isinstance(value, (int, float, Fraction)):
        return Fraction(value)
    if isinstance(value, sp.Rational):
        return Fraction(int(value.p), int(value.q))
    if isinstance(value, sp.Float):
        mantissa, exponent = value._mpf_[1], value._mpf_[2]
        sign = -1 if value._mpf_[0] else 1
        return sign * (Fraction(mantissa) * Fraction(2) ** exponent)
    man_exp = getattr(value, "man_exp", None)  # mpmath mpf
    if man_exp is not None:
        mantissa, exponent = man_exp
        return Fraction(mantissa) * Fraction(2) ** exponent
    raise TypeError(f"not an exact real number: {value!r}")


def canonical_decimal(value: Any, digits: int, rounding: str = "nearest") -> str:
    """`value` (exact: see `_exact_fraction`) as `d.ddd...e<exp>` with exactly `digits` significant
    digits, rounded to nearest (ties to even), `down` (towards -inf) or `up` (towards +inf); "0" for 0.

    Exact rational arithmetic throughout: the same value gives the same string on every machine."""
    x = _exact_fraction(value)
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    magnitude = abs(x)
    exponent = len(str(magnitude.numerator)) - len(str(magnitude.denominator))
    while Fraction(10) ** exponent > magnitude:
        exponent -= 1
    while Fraction(10) ** (exponent + 1) <= magnitude:
        exponent += 1
    scaled = x * Fraction(10) ** (digits - 1 - exponent)  # |scaled| in [10^(digits-1), 10^digits)
    floor = scaled.numerator // scaled.denominator
    if rounding == "down":
        integer = floor
    elif rounding == "up":
        integer = -((-scaled.numerator) // scaled.denominator)
    elif rounding == "nearest":
        remainder = scaled - floor
        integer = floor + (1 if remainder > Fraction(1, 2) or (remainder == Fraction(1, 2) and floor % 2) else 0)
    else:
        raise ValueError(f"rounding = {rounding!r}: expected 'nearest', 'down' or 'up'")
    text = str(abs(integer))
    if len(text) > digits:  # rounding carried into a new decade (9.99... -> 10.0...)
        text, exponent = text[:digits], exponent + 1
    return f"{sign}{text[0]}.{text[1:]}e{exponent}" if digits > 1 else f"{sign}{text}e{exponent}"


@dataclass(frozen=True)
class _Digits:
    """What a precision contributes to a test: the `DIGITS`-digit strings of the expected value (rounded
    to nearest) and of the enclosure's ends (low rounded down, high rounded up). Everything written is
    a function of these strings alone."""

    expected: str
    low: str
    high: str


def _digits(statement: Statement, low_exact: Fraction, high_exact: Fraction) -> _Digits:
    if statement.direction is Direction.UPPER_BOUND:
        expected_value = high_exact
    elif statement.direction is Direction.LOWER_BOUND:
        expected_value = low_exact
    else:
        expected_value = (low_exact + high_exact) / 2
    return _Digits(canonical_decimal(expected_value, DIGITS), canonical_decimal(low_exact, DIGITS, "down"), canonical_decimal(high_exact, DIGITS, "up"))


def _acceptance(statement: Statement, digits: _Digits) -> list[str]:
    """[low, high] around the rounded enclosure, widened by the statement's tolerance on the side an
    implementation may err to, in exact rational arithmetic from the strings, and rounded outward."""
    low_exact, high_exact = Fraction(digits.low), Fraction(digits.high)
    rtol = Fraction(statement.rtol)
    slack = Fraction(ROUNDING_SLACK)
    scale = max(abs(low_exact), abs(high_exact))
    if statement.direction is Direction.UPPER_BOUND:
        low, high = low_exact - slack * scale, high_exact + rtol * scale
    elif statement.direction is Direction.LOWER_BOUND:
        low, high = low_exact - rtol * scale, high_exact + slack * scale
    else:
        low, high = low_exact - rtol * scale, high_exact + rtol * scale
    return [canonical_decimal(low, DIGITS, "down"), canonical_decimal(high, DIGITS, "up")]


def _agreeing(values: list[_Digits], what: str) -> _Digits:
    """The strings every precision gives (ValueError when two precisions disagree)."""
    if len(set(values)) != 1:
        shown = sorted({(v.expected, v.low, v.high) for v in values})
        raise ValueError(f"{what}: the precisions disagree at {DIGITS} digits ({shown}); raise the precision")
    return values[0]


def _mp_path(statement: Statement) -> Callable[..., Any] | None:
    """The high-precision path `<function>_mp` of a statement's reference, where it has one."""
    function_name = statement.reference.partition(":")[2]
    try:
        return getattr(reference_module(statement), f"{function_name}_mp", None)
    except ImportError:
        return None


def high_precision_enclosure(statement: Statement, point: Mapping[str, Any]) -> tuple[Fraction, Fraction] | None:
    """The certified enclosure (low, high) of the statement's value at `point` from its high-precision path
    `<function>_mp` at the vectors' first precision (MP_PRECISIONS[0] digits), exactly as Fractions; None where the
    statement has no such path or it declines there (a ValueError: outside its high-precision range, or a refusal).
    For `audit bound`, which narrows a float reference's interval too wide to separate claims with it."""
    path = _mp_path(statement)
    if path is None:
        return None
    try:
        answer = path(dps=MP_PRECISIONS[0], **point)
    except ValueError:
        return None
    low, high = answer if isinstance(answer, tuple) else (answer, answer)
    return _exact_fraction(low), _exact_fraction(high)


def has_high_precision_value(statement: Statement) -> bool:
    """Whether the vectors can carry values for `statement`: a closed form or a `<function>_mp` path."""
    return statement.value is not None or _mp_path(statement) is not None


def _closed_form(statement: Statement, point: Mapping[str, Any], precisions: tuple[int, ...]) -> _Digits | None:
    substituted = statement.value.subs(statement.substitution(point))  # type: ignore[union-attr]
    if isinstance(substituted, sp.Rational):  # exact already: no approximation at all
        exact = _exact_fraction(substituted)
        return _digits(statement, exact, exact)
    values = []
    for digits in precisions:
        approx = sp.N(substituted, digits)
        if not (approx.is_real and approx.is_finite and approx.is_number):
            return None
        if not isinstance(approx, (sp.Float, sp.Rational)):
            return None
        exact = _exact_fraction(approx)
        values.append(_digits(statement, exact, exact))
    return _agreeing(values, f"{statement.id} at {dict(point)}")


def _high_precision(path: Callable[..., Any], statement: Statement, point: Mapping[str, Any], precisions: tuple[int, ...]) -> _Digits | None:
    values: list[_Digits] = []
    for dps in precisions:
        try:
            answer = path(dps=dps, **point)
        except ValueError as declined:
            if values:  # the first precision answered: the check at one precision would keep the point
                raise ValueError(f"{statement.id}_mp at {dict(point)} declines at dps {dps} but not at dps {precisions[0]}: {declined}") from declined
            return None  # declined (outside its high-precision range, or a refusal): the point is left out
        low, high = answer if isinstance(answer, tuple) else (answer, answer)
        low_exact, high_exact = _exact_fraction(low), _exact_fraction(high)
        if not low_exact <= high_exact:
            raise ValueError(f"{statement.id}_mp at {dict(point)}, dps {dps}: enclosure ({low}, {high}) is not ordered")
        values.append(_digits(statement, low_exact, high_exact))
    return _agreeing(values, f"{statement.id}_mp at {dict(point)}")


def _expected(statement: Statement, point: Mapping[str, Any], *, one_precision: bool = False) -> tuple[str, list[str]] | None:
    """(expected decimal string, acceptance interval) at a point inside the hypotheses, or None when no
    high-precision value exists there (no closed form nor `_mp` path, a value that is not a finite real
    number, or an `_mp` path that declines). `one_precision`: the first precision only (see module doc)."""
    if statement.value is not None:
        digits = _closed_form(statement, point, PRECISIONS[:1] if one_precision else PRECISIONS)
    elif (path := _mp_path(statement)) is not None:
        digits = _high_precision(path, statement, point, MP_PRECISIONS[:1] if one_precision else MP_PRECISIONS)
    else:
        return None
    if digits is None:
        return None
    return digits.expected, _acceptance(statement, digits)


def expected_from(statement: Statement) -> str:
    """Where a statement's expected values come from (the group's `expected_from`)."""
    if statement.value is not None:
        return FROM_CLOSED_FORM
    return FROM_MP if _mp_path(statement) is not None else FROM_NONE


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
    # Whether the reference answers, not whether the delta' of an `effective_delta` statement is < 1: the
    # vectors test an implementation of the value's formula (the group's `effective_delta` says at which delta).
    try:
        return evaluate(statement, point, with_effective_delta=False).valid
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


def generate_group(statement: Statement, *, one_precision: bool = False) -> dict[str, Any]:
    """The test group of one evaluable statement. `one_precision`: evaluate at the first precision only,
    as the freshness check does (the same group whenever the full generation succeeds; module doc)."""
    tests: list[dict[str, Any]] = []
    seen: set[str] = set()
    # Without a closed form or an `_mp` path there is no value to write: invalid tests only (vectors are
    # bit-reproducible: reference floats are checked against the vectors, never written into them).
    has_values = has_high_precision_value(statement)

    def add(point: Mapping[str, Any], result: str, comment: str) -> None:
        inputs = _point(statement, point)
        key = json.dumps(inputs, sort_keys=True)
        if key in seen or len(inputs) != len(statement.inputs):
            return
        test: dict[str, Any] = {"tcId": 0, "comment": comment, "inputs": inputs, "result": result}
        if result != "invalid":
            expected = _expected(statement, inputs, one_precision=one_precision)
            if expected is None:
                return
            test["expected"], test["interval"] = expected
        seen.add(key)
        test["tcId"] = len(tests) + 1
        tests.append(test)

    if has_values:
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
            elif has_values and _reference_accepts(statement, point):
                add(point, "acceptable", f"on the boundary of {hypothesis}: an implementation may be stricter, but if it answers it must match")
    for example in statement.invalid_examples:
        failed = failures(statement, example)
        add(example, "invalid", f"registered invalid example: {failed[0] if failed else 'outside the hypotheses'} fails")
    for example in statement.examples[:1]:
        for point in _invalid_points(statement, example):
            failed = failures(statement, point)
            if failed:
                add(point, "invalid", f"{failed[0]} fails")
    return {**group_head(statement), "tests": tests}


def group_head(statement: Statement) -> dict[str, Any]:
    """The fields of a test group before its tests: what the statement is, where it comes from, how its expected
    values are computed. The same head for the spec's vector file of the statement and for the audit findings'
    vectors held to it (`interface/vectors/findings.py`)."""
    source = statement.source
    return {
        "statement_id": statement.id,
        "title": statement.title,
        "source": {"paper": source.paper, "locator": source.locator, "version": source.version, "confidence": source.confidence},
        "direction": statement.direction.value,
        "mechanism": statement.mechanism or "generic",
        "inputs": list(statement.input_names),
        "output": None if statement.output is None else str(statement.output),
        # The expected value holds at a delta other than the input delta (FMT21 Prop 2.2's delta'): say which.
        **({"effective_delta": statement.effective_delta.to_json()} if statement.effective_delta is not None else {}),
        "expected_from": expected_from(statement),
        "reference": statement.reference,
        "rtol": statement.rtol,
    }


def _file_name(statement_id: str) -> str:
    return f"{statement_id}.json"


def _document(statement: Statement, group: dict[str, Any]) -> dict[str, Any]:
    """The vector file of one statement around its test group."""
    return {
        "schema": SCHEMA_VERSION,
        "generator": _generator(),
        "statement_id": statement.id,
        "numberOfTests": len(group["tests"]),
        "notes": "Generated from the spec by `shuffle-spec vectors generate`; do not edit by hand.",
        "testGroups": [group],
    }


def generate_all(statements: Iterable[Statement] | None = None, *, one_precision: bool = False) -> dict[str, dict[str, Any]]:
    """File name -> document, for every evaluable statement, plus `index.json` (`one_precision`: see
    `generate_group`). The index lists the files and, as the manifest `sha256`, the SHA-256 of the bytes
    each is written as (`write_vectors`)."""
    chosen = [s for s in (list_statements() if statements is None else statements) if s.is_evaluable]
    documents: dict[str, dict[str, Any]] = {}
    progress(0, len(chosen), "vectors")
    for index, statement in enumerate(chosen, start=1):
        with silenced():  # one step per statement: the bisections inside its evaluations are not shown
            documents[_file_name(statement.id)] = _document(statement, generate_group(statement, one_precision=one_precision))
        progress(index, len(chosen), "vectors")
    documents[INDEX] = {
        "schema": SCHEMA_VERSION,
        "generator": _generator(),
        "files": sorted(name for name in documents),
        "numberOfTests": sum(d["numberOfTests"] for d in documents.values()),
        "sha256": {name: _sha256(_dump(documents[name]).encode("ascii")) for name in sorted(documents)},
    }
    return documents


def fresh_document(statement: Statement) -> dict[str, Any]:
    """The vector file of `statement` as a fresh generation at the first precision writes it (the same
    content as a full generation: module doc), read back from its JSON text (JSON types only)."""
    return json.loads(_dump(_document(statement, generate_group(statement, one_precision=True))))


def _dump(document: Mapping[str, Any]) -> str:
    return json.dumps(document, indent=1, sort_keys=False) + "\n"


def document_bytes(document: Mapping[str, Any]) -> bytes:
    """The bytes a vector document is written as (`write_documents`; its SHA-256 goes into the manifest)."""
    return _dump(document).encode("ascii")


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --- reading vector files: schema, then a fresh generation ------------------------------------------


@functools.cache
def _validators() -> dict[str, Any]:
    """JSON Schema validators (draft 2020-12) of a vector file, of index.json and of one test group."""
    import jsonschema

    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator

    def part(name: str) -> Any:
        return validator({"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": f"#/$defs/{name}"})

    return {"file": validator(schema), "index": part("index"), "group": part("group")}


def _short(value: Any, limit: int = 80) -> str:
    """`value` as compact one-line JSON, cut to about `limit` characters."""
    try:
        text = json.dumps(value, ensure_ascii=True, allow_nan=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}..."


def _one_line(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else f"{text[:limit]}..."


def _test_label(tests: Any, index: int) -> str:
    """How a message names the test at `index` of a `tests` list: by its tcId when it has one."""
    test = tests[index] if isinstance(tests, list) and index < len(tests) else None
    tc_id = test.get("tcId") if isinstance(test, dict) else None
    if isinstance(tc_id, int) and not isinstance(tc_id, bool):
        return f"tcId {tc_id}"
    return f"test #{index + 1} (no valid tcId)"


def _location(path: Iterable[Any], document: Any) -> str:
    """A place in a vector document, e.g. `tcId 3: interval[1]` or `testGroups[0].rtol` ("the top
    level" for the document itself). A test is named by its tcId in `document`."""
    steps = list(path)
    test, rest = "", ""
    node = document
    for position, step in enumerate(steps):
        if isinstance(step, int) and position >= 1 and steps[position - 1] == "tests":
            test, rest = _test_label(node, step), ""
        elif isinstance(step, int):
            rest += f"[{step}]"
        else:
            key = str(step)
            rest += ("." if rest else "") + (key if key.isidentifier() else _short(key, 40))
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            node = None
    if test:
        return f"{test}: {rest}" if rest else test
    return rest or "the top level"


def _schema_problem(document: Any, kind: str) -> str | None:
    """The most relevant JSON Schema error of `document` (`kind`: file, index or group) in one line:
    where in the document, and jsonschema's message; None when it conforms."""
    from jsonschema.exceptions import best_match

    if kind != "group" and isinstance(document, dict) and document.get("schema") in READABLE_SCHEMAS[:-1]:
        return f"schema {document['schema']} is an older version, whose numbers a fresh generation no longer writes: regenerate with `shuffle-spec vectors generate`"
    errors = list(itertools.islice(_validators()[kind].iter_errors(document), 100))
    if not errors:
        return None
    best = best_match(errors)
    # Among equally relevant errors, the first in the document (tcId 1 before tcId 14).
    error = min(
        (e for e in errors if len(e.absolute_path) == len(best.absolute_path) and e.validator == best.validator),
        key=lambda e: [(0, step, "") if isinstance(step, int) else (1, 0, str(step)) for step in e.absolute_path],
    )
    message = error.message
    if error.validator == "pattern" and isinstance(error.schema, dict) and "description" in error.schema:
        message = f"{_short(error.instance, 60)} is not {error.schema['description']}"
    if error.validator == "required":  # name every missing property of that object in the one line
        missing = [e.message.split(" is a required property")[0] for e in errors if e.validator == "required" and e.absolute_path == error.absolute_path]
        message = f"{', '.join(missing)} {'is a required property' if len(missing) == 1 else 'are required properties'}"
    return f"at {_location(error.absolute_path, document)}: {_one_line(message)} (schema `{SCHEMA_FILE.name}`)"


def _decimal_order_problems(group: Mapping[str, Any]) -> list[str]:
    problems = []
    for test in group["tests"]:
        if "interval" in test and Fraction(test["interval"][0]) > Fraction(test["interval"][1]):
            problems.append(f"tcId {test['tcId']}: interval {_short(test['interval'])} is not ordered (low > high)")
    return problems


def _problems(document: Any, kind: str) -> list[str]:
    """Schema problems of a vector file or index (`kind`), without a file name."""
    problem = _schema_problem(document, kind)
    if problem is not None:
        return [problem]
    if kind != "file":
        return []
    problems = []
    count = sum(len(group["tests"]) for group in document["testGroups"])
    if count != document["numberOfTests"]:
        problems.append(f"numberOfTests {document['numberOfTests']} but {count} tests")
    for group in document["testGroups"]:
        problems += _decimal_order_problems(group)
    return problems


def validate_document(document: Any, name: str = "") -> list[str]:
    """Schema problems of one vector file (`index.json` when `name` says so), one line each, prefixed
    with `name`: the JSON Schema `interface/vectors/schema.json`, then the test count and the order
    of each interval. Empty when it conforms (which says nothing yet of its values: `differences`)."""
    return [f"{name}: {problem}" for problem in _problems(document, "index" if name == INDEX else "file")]


def _same(mine: Any, fresh: Any) -> bool:
    """Equal as JSON values, types included: 1 and 1.0 differ, true is not 1, -0.0 is not 0.0."""
    if type(mine) is not type(fresh):
        return False
    if isinstance(mine, dict):
        return mine.keys() == fresh.keys() and all(_same(mine[k], fresh[k]) for k in mine)
    if isinstance(mine, list):
        return len(mine) == len(fresh) and all(_same(a, b) for a, b in zip(mine, fresh, strict=True))
    if isinstance(mine, float):
        return repr(mine) == repr(fresh)
    return bool(mine == fresh)


def _differences(mine: Any, fresh: Any, path: tuple[Any, ...], found: list[tuple[tuple[Any, ...], str]], limit: int) -> None:
    if len(found) >= limit:
        return
    if isinstance(mine, dict) and isinstance(fresh, dict):
        for key in fresh:
            if key not in mine:
                found.append((path + (key,), f"is missing (a fresh generation has {_short(fresh[key])})"))
            else:
                _differences(mine[key], fresh[key], path + (key,), found, limit)
        for key in mine:
            if key not in fresh:
                found.append((path + (key,), f"is not in a fresh generation (the file has {_short(mine[key])})"))
    elif isinstance(mine, list) and isinstance(fresh, list):
        if len(mine) != len(fresh) and path and path[-1] == "tests":
            found.append((path, f"has {len(mine)} tests, a fresh generation {len(fresh)}"))
        for index in range(min(len(mine), len(fresh))):
            _differences(mine[index], fresh[index], path + (index,), found, limit)
        if len(mine) != len(fresh) and not (path and path[-1] == "tests"):
            found.append((path, f"has {len(mine)} items, a fresh generation {len(fresh)}"))
    elif not _same(mine, fresh):
        found.append((path, f"is {_short(mine)} but a fresh generation from the spec gives {_short(fresh)}"))


def differences(document: Any, fresh: Mapping[str, Any], *, ignore: Iterable[str] = ("generator",), limit: int = 20) -> list[str]:
    """Where `document` differs from the `fresh` generation, one line each (at most `limit`), e.g.
    `tcId 3: interval is ["0", "1e300"] but a fresh generation from the spec gives [...]`. Top-level
    keys in `ignore` are not compared (the generator's version: a release is not a stale vector). The
    comparison is exact and typed (`_same`)."""
    skipped = set(ignore)
    if not isinstance(document, dict):
        return [f"the top level is {_short(document)}, not a vector document"]
    mine = {k: v for k, v in document.items() if k not in skipped}
    theirs = {k: v for k, v in fresh.items() if k not in skipped}
    found: list[tuple[tuple[Any, ...], str]] = []
    _differences(mine, theirs, (), found, limit)
    return [f"{_location(path, document)} {what}" for path, what in found]


def _refusal(where: str, problem: str) -> UsageError:
    return UsageError(f"{where}: {problem}")


STALE_HINT = "the file is stale or was edited; regenerate it with `shuffle-spec vectors generate DIR`"


def load_vector_group(location: str | os.PathLike[str], statement: Statement, *, fresh: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The test group of `statement` from a vector file, once checked: `location` is the file or a
    directory holding `<statement id>.json` (`audit bound --vectors DIR`).

    The file is read with a byte limit (`shuffle_spec.interface.input_files`), must match the JSON Schema and
    must equal `fresh` (default: `fresh_document(statement)`, a fresh generation from the spec) in
    every field but `generator`. Anything else is a one-line `UsageError` naming the file, the place
    (the test's tcId) and what differs: a forged or stale file is never used."""
    path = Path(location)
    if path.is_dir():
        path = path / _file_name(statement.id)
        if not os.path.lexists(path):
            raise UsageError(f"no vectors for {statement.id} in {location} (expected {path.name}; write them with `shuffle-spec vectors generate {location}`)")
    document = load_json_file(path, what="vector file", limit=VECTOR_FILE_LIMIT)
    where = f"vector file {path}"
    problems = _problems(document, "file")
    if problems:
        raise _refusal(where, problems[0])
    if fresh is None:
        fresh = fresh_document(statement)
    found = differences(document, fresh)
    if found:
        raise _refusal(where, f"{found[0]} ({STALE_HINT})")
    return dict(document["testGroups"][0])


def checked_group(group: Any, statement: Statement, *, fresh: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A test group handed to `audit_bound` as a mapping, once checked: it must match the schema's
    `group`, equal the fresh generation's group in every field but `tests`, and each of its tests must
    equal the fresh test with the same tcId (a subset of the tests, each at most once, is allowed: a
    caller may audit fewer points, never other values). `UsageError` otherwise."""
    where = "vectors (test group)"
    problem = _schema_problem(group, "group")
    if problem is not None:
        raise _refusal(where, problem)
    fresh_group = (fresh if fresh is not None else fresh_document(statement))["testGroups"][0]
    found = differences({k: v for k, v in group.items() if k != "tests"}, {k: v for k, v in fresh_group.items() if k != "tests"})
    if found:
        raise _refusal(where, f"{found[0]} (a group of another statement, stale or edited)")
    by_id = {test["tcId"]: test for test in fresh_group["tests"]}
    seen: set[int] = set()
    for test in group["tests"]:
        label = f"tcId {test['tcId']}"
        if test["tcId"] in seen:
            raise _refusal(where, f"{label} appears twice")
        seen.add(test["tcId"])
        if test["tcId"] not in by_id:
            raise _refusal(where, f"{label} is not in a fresh generation from the spec")
        found = differences(test, by_id[test["tcId"]], ignore=())
        if found:
            raise _refusal(where, f"{label}: {found[0]} (stale or edited)")
    problems = _decimal_order_problems(group)
    if problems:
        raise _refusal(where, problems[0])
    return json.loads(json.dumps(dict(group)))


# --- writing vector files: never delete or overwrite a file that is not ours ------------------------


def _looks_like_vectors(document: Any) -> bool:
    schema = document.get("schema") if isinstance(document, dict) else None
    return isinstance(schema, str) and schema.startswith("shuffle-spec-vectors/")


def _read_ours(path: Path) -> tuple[bytes | None, Any]:
    """(bytes, parsed JSON or None) of a regular file that is not a symbolic link, read with the vector
    file limit; (None, None) for anything else (a link, a FIFO, a directory, too large, unreadable)."""
    if path.is_symlink():
        return None, None
    try:
        raw = read_limited(path, what="vector file", limit=VECTOR_FILE_LIMIT)
    except UsageError:
        return None, None
    try:
        return raw, loads_json(raw.decode("utf-8"), where=str(path))
    except (UsageError, UnicodeDecodeError):
        return raw, None


def _manifest(directory: Path) -> dict[str, str]:
    """File name -> SHA-256 from the directory's index.json when it is a current index (else empty:
    then no file is removed)."""
    _, document = _read_ours(directory / INDEX)
    if document is None or _problems(document, "index"):
        return {}
    return {name: digest for name, digest in document["sha256"].items() if Path(name).name == name}


def _overwrite_refusal(path: Path) -> str | None:
    """Why the generator must not overwrite `path`, or None: absent, or a vector document (every file
    the generator writes is one; a vector file edited by hand is regenerated, as it should be)."""
    if not os.path.lexists(path):
        return None
    if path.is_symlink():
        return "a symbolic link"
    raw, document = _read_ours(path)
    if raw is None:
        return "not a regular file this command can read"
    return None if _looks_like_vectors(document) else "not a vector file"


def _write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to a temporary file beside `path`, then rename it over `path`: an interrupted
    generation leaves no half-written vector file, and a link at `path` is replaced, never followed."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(descriptor, 0o666 & ~mask)  # the mode a plain open() would give, not mkstemp's 0600
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except BaseException:
        if os.path.lexists(temporary):
            os.unlink(temporary)
        raise


def _stderr_note(text: str) -> None:
    print(f"shuffle-spec vectors: {text}", file=sys.stderr)


def write_vectors(directory: str | Path, statements: Iterable[Statement] | None = None, *, note: Callable[[str], None] = _stderr_note) -> list[Path]:
    """Write the vectors into `directory` (created if needed) and return the paths written: the documents
    of `generate_all(statements)`, by `write_documents` (its rules: never deletes nor overwrites a file it
    did not write)."""
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise UsageError(f"vectors generate: {directory} is not a directory")
    return write_documents(directory, generate_all(statements), note=note)


def write_documents(directory: str | Path, documents: Mapping[str, Mapping[str, Any]], *, note: Callable[[str], None] = _stderr_note, command: str = "vectors generate") -> list[Path]:
    """Write vector documents (file name -> document, `index.json` among them: the manifest) into
    `directory` (created if needed) and return the paths written. The one writer of vector files: the
    spec's (`write_vectors`) and the audit findings' (`shuffle_spec.interface.vectors.findings`). Every
    file is `json.dumps(document, indent=1)` plus a newline in ASCII (`_dump`), so the bytes depend on the
    documents alone, never on the machine.

    Never deletes nor overwrites a file it did not write. Before anything is written, every file about
    to be replaced must be a vector file: else a one-line `UsageError` naming `command` (the writer, as
    its user types it) and nothing is written. A file no longer generated is removed only when the previous manifest (`index.json`,
    `sha256`) lists it with the bytes it still has and it is a vector document. Any other `*.json` is left
    alone; one that looks like a vector file is named through `note` ("not ours, left alone"), as is a
    listed file that changed since it was written."""
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise UsageError(f"{command}: {directory} is not a directory")
    writer = f"shuffle-spec {command}" if command == "vectors generate" else command
    directory.mkdir(parents=True, exist_ok=True)
    manifest = _manifest(directory)
    data = {name: document_bytes(document) for name, document in documents.items()}
    for name in data:
        reason = _overwrite_refusal(directory / name)
        if reason is not None:
            raise UsageError(f"{command}: {directory / name} exists and is {reason}, not a file written by `{writer}`; nothing was written (move it away or choose another directory)")
    written = []
    for name in sorted(data, key=lambda n: n == INDEX):  # the index (the manifest) last
        _write_atomically(directory / name, data[name])
        written.append(directory / name)
    removed = set()
    for name, digest in sorted(manifest.items()):
        path = directory / name
        if name in data or not os.path.lexists(path):
            continue
        raw, document = _read_ours(path)
        # Removed only if it still has the bytes written AND is a vector document (a manifest edited
        # by hand to list another file with its hash removes nothing).
        if raw is not None and _sha256(raw) == digest and _looks_like_vectors(document):
            path.unlink()
            removed.add(name)
            note(f"{name}: removed (no longer generated; unchanged since it was written)")
        else:
            why = "not a vector file" if raw is not None and _sha256(raw) == digest else "changed since it was written"
            note(f"{name}: left alone (listed in the previous manifest, but {why}; delete it yourself if it is stale)")
            removed.add(name)
    for path in sorted(directory.glob("*.json")):
        if path.name in data or path.name in removed:
            continue
        _, document = _read_ours(path)
        if _looks_like_vectors(document):
            note(f"{path.name}: not ours, left alone (a vector file that the manifest does not list with this content; delete it yourself if it is stale)")
    return written


# --- `vectors check` -----------------------------------------------------------------------------------


def _index_problems(document: Any, fresh: Mapping[str, Any], disk_hashes: Mapping[str, str]) -> list[str]:
    """index.json: its schema, its content against a fresh generation's (but for the manifest), and the
    manifest against the bytes of the files on disk (a generator release changes every file's
    `generator` line, hence its hash: the manifest is checked against the files themselves)."""
    problems = _problems(document, "index")
    if problems:
        return [f"{INDEX}: {problems[0]}"]
    found = differences(document, fresh, ignore=("generator", "sha256"))
    if found:
        return [f"{INDEX}: differs from a fresh generation (stale or edited by hand): {found[0]}"]
    listed = document["sha256"]
    if sorted(listed) != sorted(fresh["sha256"]):
        return [f"{INDEX}: the manifest sha256 lists {len(listed)} files, a fresh generation {len(fresh['sha256'])} (stale or edited by hand)"]
    for name, digest in sorted(listed.items()):
        if name in disk_hashes and disk_hashes[name] != digest:
            return [f"{INDEX}: the manifest's sha256 of {name} is not the SHA-256 of that file (edited after it was written; regenerate)"]
    return []


def check_vectors(directory: str | Path, *, run_reference: bool = True) -> list[str]:
    """Problems with the vectors in `directory`, one line each: every vector file (the names a fresh
    generation writes, plus any `*.json` that says it is a vector file) must match the JSON Schema and
    equal a fresh generation (at the first precision only: module doc), whatever its `schema` string;
    and (with `run_reference`) the reference implementation must pass every vector of the files that
    do. Other `*.json` files (a package.json) are not vector files and are not looked at further.
    Files are read one at a time with a byte limit (`shuffle_spec.interface.input_files`)."""
    from ..audit.verdicts import judge_group
    from ...spec.registry import get_statement

    directory = Path(directory)
    if not directory.is_dir():
        raise UsageError(f"no such directory: {directory}")
    fresh = generate_all(one_precision=True)
    fresh_json = {name: json.loads(_dump(document)) for name, document in fresh.items()}
    problems: list[str] = []
    disk_hashes: dict[str, str] = {}
    present = {path.name for path in directory.glob("*.json")}
    index_document: Any = None
    for name in sorted(present, key=lambda n: (n == INDEX, n)):
        path = directory / name
        expected = name in fresh
        try:
            raw = read_limited(path, what="vector file", limit=VECTOR_FILE_LIMIT)
            document = loads_json(raw.decode("utf-8"), where=f"vector file {path}")
        except UnicodeDecodeError as failure:  # a *.json file that cannot be read is reported, vector or not
            problems.append(f"{name}: not a UTF-8 text file (byte {failure.start}); expected JSON")
            continue
        except UsageError as failure:  # not a regular file, too large, not JSON, a key twice
            problems.append(f"{name}: {_one_line(str(failure), 400)}")
            continue
        if not expected:
            if _looks_like_vectors(document):
                problems.append(f"{name}: no longer generated (its statement is gone or not evaluable)")
            continue
        disk_hashes[name] = _sha256(raw)
        if name == INDEX:
            index_document = document
            continue
        schema_problems = validate_document(document, name)
        if schema_problems:
            problems += schema_problems[:3]
            continue
        found = differences(document, fresh_json[name])
        if found:
            problems.append(f"{name}: differs from a fresh generation (stale or edited by hand): {found[0]}")
            continue
        if run_reference:
            for group in document["testGroups"]:
                statement = get_statement(group["statement_id"])
                for finding in judge_group(reference_function(statement), statement, group, strict=True):
                    if finding.severity != "pass":
                        problems.append(f"{name}: reference {statement.reference} {finding.verdict} at {finding.source}: {finding.reason}")
    for name in sorted(set(fresh) - present):
        problems.append(f"{name}: missing (regenerate with `shuffle-spec vectors generate {directory}`)")
    if INDEX in present and index_document is not None:
        problems += _index_problems(index_document, fresh_json[INDEX], disk_hashes)
    return problems
