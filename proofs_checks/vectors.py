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
(`check_vectors`, `tests/test_tool_vectors.py`) regenerates at the first precision only (40 digits for
`_mp` paths, 50 for closed forms), which halves its cost; `generate` keeps requiring agreement.

Each test's `interval` is the acceptance interval: a conforming implementation returns a number inside
it. For an upper bound it reaches below the expected value only by float rounding (`ROUNDING_SLACK`
relative) and above it by the statement's tolerance `rtol`: an implementation may be more conservative,
never less.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from fractions import Fraction
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import sympy as sp

from shuffle_spec.proofs_checks.bridge import UsageError, evaluate, reference_function
from shuffle_spec.proofs_checks.input_files import load_json_file
from shuffle_spec.proofs_checks.output import progress
from shuffle_spec.spec.registry import list_statements
from shuffle_spec.spec.statement import Direction, Statement, assumption_text, to_exact

__all__ = [
    "READABLE_SCHEMAS",
    "SCHEMA_VERSION",
    "canonical_decimal",
    "generate_all",
    "generate_group",
    "has_high_precision_value",
    "write_vectors",
    "check_vectors",
    "validate_document",
]

SCHEMA_VERSION = "shuffle-spec-vectors/2"
# `vectors check` still reads version 1 (repr-of-double strings): schema and reference run, no freshness.
READABLE_SCHEMAS = ("shuffle-spec-vectors/1", SCHEMA_VERSION)
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
    module_name, _, function_name = statement.reference.partition(":")
    if module_name.split(".")[0] == "reference":
        module_name = f"shuffle_spec.{module_name}"
    try:
        return getattr(importlib.import_module(module_name), f"{function_name}_mp", None)
    except ImportError:
        return None


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
    # Without a closed form or an `_mp` path there is no value to write: invalid tests only (issue 16:
    # reference floats are checked against the vectors, never written into them).
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
        "tests": tests,
    }


def _file_name(statement_id: str) -> str:
    return f"{statement_id}.json"


def generate_all(statements: Iterable[Statement] | None = None, *, one_precision: bool = False) -> dict[str, dict[str, Any]]:
    """File name -> document, for every evaluable statement, plus `index.json` (`one_precision`: see
    `generate_group`)."""
    chosen = [s for s in (list_statements() if statements is None else statements) if s.is_evaluable]
    documents: dict[str, dict[str, Any]] = {}
    for index, statement in enumerate(chosen, start=1):
        group = generate_group(statement, one_precision=one_precision)
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
    if not isinstance(document, dict) or document.get("schema") not in READABLE_SCHEMAS:
        return [f"{name}: not a {SCHEMA_VERSION} document (nor of an older readable schema: {', '.join(READABLE_SCHEMAS[:-1])})"]
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
    """Problems with the vectors in `directory`: schema, staleness against a fresh generation (at the
    first precision only: module doc), and (with `run_reference`) the reference implementation failing
    any of them."""
    from shuffle_spec.proofs_checks.verdicts import judge_group

    directory = Path(directory)
    if not directory.is_dir():
        raise UsageError(f"no such directory: {directory}")
    problems: list[str] = []
    on_disk = {}
    for path in sorted(directory.glob("*.json")):
        try:
            on_disk[path.name] = load_json_file(path, what="vector file")
        except UsageError as failure:  # not a regular file, too large, not UTF-8 or JSON, a key twice
            problems.append(f"{path.name}: {failure}")
            continue
        problems += validate_document(on_disk[path.name], path.name)
    fresh = generate_all(one_precision=True)
    for name in sorted(set(fresh) - set(on_disk)):
        problems.append(f"{name}: missing (regenerate with `shuffle-spec vectors generate {directory}`)")
    for name in sorted(set(on_disk) - set(fresh)):
        problems.append(f"{name}: no longer generated (its statement is gone or not evaluable)")
    for name in sorted(set(on_disk) & set(fresh)):
        old = on_disk[name]
        if isinstance(old, dict) and old.get("schema") != SCHEMA_VERSION:
            # An older schema is still read (schema, reference run) but cannot match a new generation.
            continue
        if not _same_content(old, json.loads(_dump(fresh[name]))):
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


def _same_content(committed: Any, fresh: Mapping[str, Any]) -> bool:
    """Canonical content equal (every string byte for byte; only the generator's version may differ)."""
    return isinstance(committed, dict) and _comparable(committed) == _comparable(fresh)
