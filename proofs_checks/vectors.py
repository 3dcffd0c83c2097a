"""Test vectors for other implementations, generated from the spec (Wycheproof-like).

One JSON file per evaluable statement plus `index.json`; the schema is documented in
`tests/vectors/SCHEMA.md`. The files are generated, never edited by hand: `shuffle-spec vectors
generate DIR` writes them and `shuffle-spec vectors check DIR` re-generates and compares, then runs
the reference implementation over them.

Bit-reproducible (schema 2): every number written is a canonical decimal string computed in exact or
high-precision arithmetic, so that any machine writes the same bytes.

- A statement with a closed form (`value`): SymPy `evalf` at 50 and at 70 digits, which must agree to
  the `DIGITS` significant digits written; interval ends are computed from that value in exact rational
  arithmetic and rounded outward (low down, high up) to `DIGITS` digits.
- A statement whose reference module exposes a high-precision path `<function>_mp(*, dps, **inputs)`
  returning a certified enclosure `(lower, upper)` (mpmath numbers or Fractions): called at 40 and 80
  digits, which must agree to the digits written; written like a closed form.
- Otherwise the reference's double-precision answer is all there is. It is widened by `FLOAT_NOISE`
  (1e-11) relative (more than any libm / SIMD difference between machines) and rounded outward to
  `FLOAT_DIGITS` significant digits; `expected_from` says so, and the freshness check accepts a fresh
  generation whose strings differ from the committed ones by at most one unit in the last digit
  (a rounding boundary crossed by machine noise), never more.

Each test's `interval` is the acceptance interval: a conforming implementation returns a number inside
it. For an upper bound it reaches below the expected value only by float rounding (`ROUNDING_SLACK`
relative) and above it by the statement's tolerance `rtol`: an implementation may be more conservative,
never less.
"""

from __future__ import annotations

import importlib
import json
import math
from fractions import Fraction
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import sympy as sp

from shuffle_spec.proofs_checks.bridge import UsageError, evaluate, reference_function
from shuffle_spec.proofs_checks.output import progress
from shuffle_spec.spec.registry import list_statements
from shuffle_spec.spec.statement import Direction, Statement, assumption_text, to_exact

__all__ = [
    "READABLE_SCHEMAS",
    "SCHEMA_VERSION",
    "canonical_decimal",
    "generate_all",
    "generate_group",
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
# Nine digits after widening by 1e-11: machine noise (~1e-15 relative) then changes a written string only
# when a value lies within ~1e-15 of a 1e-9 rounding boundary (about one string in a million).
FLOAT_DIGITS = 9
FLOAT_NOISE = Fraction(1, 10**11)
# Float rounding of a correct upper bound cannot put it further below the exact value than this.
ROUNDING_SLACK = 1e-12
FROM_CLOSED_FORM = f"closed form (spec value, SymPy evalf, {DIGITS} significant digits)"
FROM_MP = f"reference high-precision path <function>_mp ({DIGITS} significant digits)"
FROM_FLOAT = f"reference (double precision, widened by 1e-11 and rounded outward to {FLOAT_DIGITS} significant digits)"
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


def _acceptance(statement: Statement, low_exact: Fraction, high_exact: Fraction, digits: int) -> list[str]:
    """[low, high] around the certified [low_exact, high_exact], widened by the statement's tolerance on
    the side an implementation may err to, and rounded outward."""
    rtol = Fraction(statement.rtol)
    slack = Fraction(ROUNDING_SLACK)
    scale = max(abs(low_exact), abs(high_exact))
    if statement.direction is Direction.UPPER_BOUND:
        low, high = low_exact - slack * scale, high_exact + rtol * scale
    elif statement.direction is Direction.LOWER_BOUND:
        low, high = low_exact - rtol * scale, high_exact + slack * scale
    else:
        low, high = low_exact - rtol * scale, high_exact + rtol * scale
    return [canonical_decimal(low, digits, "down"), canonical_decimal(high, digits, "up")]


def _agreeing(values: list[tuple[Fraction, Fraction]], digits: int, what: str) -> tuple[Fraction, Fraction]:
    """The last (most precise) enclosure, once every precision gives the same strings at `digits`."""
    shown = {(canonical_decimal(low, digits), canonical_decimal(high, digits)) for low, high in values}
    if len(shown) != 1:
        raise ValueError(f"{what}: the precisions disagree at {digits} digits ({sorted(shown)}); raise the precision")
    return values[-1]


def _mp_path(statement: Statement) -> Callable[..., Any] | None:
    module_name, _, function_name = statement.reference.partition(":")
    if module_name.split(".")[0] == "reference":
        module_name = f"shuffle_spec.{module_name}"
    try:
        return getattr(importlib.import_module(module_name), f"{function_name}_mp", None)
    except ImportError:
        return None


def _closed_form(statement: Statement, point: Mapping[str, Any]) -> tuple[Fraction, Fraction] | None:
    substituted = statement.value.subs(statement.substitution(point))  # type: ignore[union-attr]
    if isinstance(substituted, sp.Rational):  # exact already: no approximation at all
        exact = _exact_fraction(substituted)
        return exact, exact
    values = []
    for digits in PRECISIONS:
        approx = sp.N(substituted, digits)
        if not (approx.is_real and approx.is_finite and approx.is_number):
            return None
        if not isinstance(approx, (sp.Float, sp.Rational)):
            return None
        exact = _exact_fraction(approx)
        values.append((exact, exact))
    return _agreeing(values, DIGITS, f"{statement.id} at {dict(point)}")


def _high_precision(path: Callable[..., Any], statement: Statement, point: Mapping[str, Any]) -> tuple[Fraction, Fraction] | None:
    values = []
    for dps in MP_PRECISIONS:
        try:
            answer = path(dps=dps, **point)
        except ValueError:
            return None
        low, high = answer if isinstance(answer, tuple) else (answer, answer)
        values.append((_exact_fraction(low), _exact_fraction(high)))
    return _agreeing(values, DIGITS, f"{statement.id}_mp at {dict(point)}")


def _expected(statement: Statement, point: Mapping[str, Any]) -> tuple[str, list[str]] | None:
    """(expected decimal string, acceptance interval) at a point inside the hypotheses, or None when
    neither the closed form nor the reference gives a finite real number there."""
    if statement.value is not None:
        enclosure = _closed_form(statement, point)
        digits = DIGITS
    elif (path := _mp_path(statement)) is not None:
        enclosure = _high_precision(path, statement, point)
        digits = DIGITS
    else:
        evaluation = evaluate(statement, point)
        if not evaluation.valid or evaluation.value is None or not math.isfinite(evaluation.value):
            return None
        low, high = evaluation.interval if evaluation.interval else (evaluation.value, evaluation.value)
        low_exact, high_exact = Fraction(low), Fraction(high)
        # Machine noise moves a double by far less than FLOAT_NOISE: widen, then round outward.
        enclosure = (low_exact - FLOAT_NOISE * abs(low_exact), high_exact + FLOAT_NOISE * abs(high_exact))
        digits = FLOAT_DIGITS
        expected = canonical_decimal(Fraction(evaluation.value), digits)
        return expected, _acceptance(statement, *enclosure, digits)
    if enclosure is None:
        return None
    low_exact, high_exact = enclosure
    expected_value = high_exact if statement.direction is Direction.UPPER_BOUND else low_exact if statement.direction is Direction.LOWER_BOUND else (low_exact + high_exact) / 2
    return canonical_decimal(expected_value, digits), _acceptance(statement, low_exact, high_exact, digits)


def expected_from(statement: Statement) -> str:
    """Where a statement's expected values come from (the group's `expected_from`)."""
    if statement.value is not None:
        return FROM_CLOSED_FORM
    return FROM_MP if _mp_path(statement) is not None else FROM_FLOAT


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
        "expected_from": expected_from(statement),
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
    """Canonical content equal; in groups whose values come from double precision (`FROM_FLOAT`) the
    decimal strings may also differ by one unit in their last digit (machine noise crossing a rounding
    boundary), nothing else."""
    if not isinstance(committed, dict):
        return False
    left, right = _comparable(committed), _comparable(fresh)
    if left == right:
        return True
    try:
        groups = list(zip(left["testGroups"], right["testGroups"], strict=True))
        if {k: v for k, v in left.items() if k != "testGroups"} != {k: v for k, v in right.items() if k != "testGroups"}:
            return False
        for old, new in groups:
            if old.get("expected_from") != FROM_FLOAT or new.get("expected_from") != FROM_FLOAT:
                if old != new:
                    return False
                continue
            if {k: v for k, v in old.items() if k != "tests"} != {k: v for k, v in new.items() if k != "tests"}:
                return False
            for a, b in zip(old["tests"], new["tests"], strict=True):
                if {k: v for k, v in a.items() if k not in ("expected", "interval")} != {k: v for k, v in b.items() if k not in ("expected", "interval")}:
                    return False
                pairs = [(a.get("expected"), b.get("expected"))] + list(zip(a.get("interval", []), b.get("interval", []), strict=True))
                if not all(_within_last_digit(x, y) for x, y in pairs):
                    return False
    except (KeyError, TypeError, ValueError):
        return False
    return True


def _within_last_digit(a: Any, b: Any) -> bool:
    """Two canonical decimal strings of the same format at most one unit apart in their last digit."""
    if a == b:
        return True
    if not (isinstance(a, str) and isinstance(b, str)) or "e" not in a or "e" not in b:
        return False
    unit = Fraction(10) ** (int(a.split("e")[1]) - len(a.split("e")[0].replace("-", "").replace(".", "")) + 1)
    return abs(Fraction(a) - Fraction(b)) <= unit
