"""The audit of another implementation's bound function (`shuffle-spec audit bound`, `audit_bound`): every call
judged against what the statement it claims to implement certifies.

The audited code runs in a child process (`shuffle_spec.interface.audit.sandbox`: what it isolates and what it
does not is in its module doc); each call is judged by `shuffle_spec.interface.audit.verdicts`. Points: the
statement's test vectors (generated from the spec, or a vector file checked against a fresh generation), and
with `grid=True` a sweep over eps0 in [0.05, 10], n in [10, 1e9], delta in [1e-12, 0.5], the statement's regime
edges along eps0 (found by bisection) and degenerate inputs (0, negative, non-integer n, delta >= 1, nan, inf).

The acceptance interval at a sweep point is the reference's certified interval [L, H] of the statement's value
(asked with `tight="both"`), widened by the statement's `rtol` on the side an implementation may err to and by
float rounding (`ROUNDING_SLACK`) on the other: for an upper bound [L - slack, H + rtol s], for a lower bound
[L - rtol s, H + slack], for an exact value [L - rtol s, H + rtol s], s = max(|L|, |H|). A claim inside it is
within the tolerance of the statement's value only if the certified interval itself is: a PASS is given only where
H - L <= rtol s (with `audit_bound(rtol=...)`, the statement's rtol plus the one given). Where the reference's
interval is wider, it is first intersected with the enclosure of the statement's high-precision path
`<function>_mp` (what the test vectors are generated from; `_narrowed`), where there is one and it answers within
NARROWING_SECONDS of CPU. Where it stays wider (its search or its certified sums cannot narrow it further), a claim inside the acceptance
interval may lie more than the tolerance on the wrong side of the value (below it, for an upper bound) and cannot be
told from a correct one: its verdict is INCONCLUSIVE (a warning, with the certified interval in the finding's
`certified_interval`), never PASS. A claim outside the acceptance interval is judged as anywhere else (BELOW BOUND
below L: it claims more than the theorem proves whatever the width; ABOVE BOUND above it), and every claim is still
held to the lower bounds on the truth (UNSOUND). The test vectors never carry such a point (their enclosures agree
to 20 digits).
"""

from __future__ import annotations
import functools
import inspect
import itertools
import importlib
import importlib.util
import math
import os
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any
from ...proofs_checks.bridge import UsageError, reference_function, reference_result
from ..input_files import read_limited
from ..limits import AUDIT_TOTAL_SECONDS
from ..cli.output import progress
from ...reference.core.progress import listening, silenced
from .sandbox import (
    DEFAULT_MEMORY_MB,
    DEFAULT_TIME_LIMIT,
    InProcessTimeout,
    LoadError,
    Sandbox,
    call_in_process,
    cpu_budget,
    in_process_cpu_limit,
)
from ..vectors.files import checked_group, generate_group, high_precision_enclosure, load_vector_group
from .verdicts import (
    ABOVE_BOUND,
    ACCEPTS_INVALID,
    BELOW_BOUND,
    CRASH,
    INCONCLUSIVE,
    NON_NUMBER,
    SEVERITY_ORDER,
    TIMEOUT,
    UNSOUND,
    VERDICT_ORDER,
    Finding,
    judge,
)
from ...spec.registry import get_statement
from ...spec.statement import Direction, HypothesisError, Statement

__all__ = ["AuditPoint", "BoundAudit", "audit_bound", "audit_point", "grid_points", "load_bound_function", "too_wide", "vector_points"]

# Size limit of a bound-function module given as FILE.py (`audit bound`): hand-written bounds are a few
# KB; the limit keeps a mistaken path (a data file, a log) from being read whole and compiled.
MAX_SOURCE_BYTES = 8 * 1024 * 1024


# Float rounding of a correct upper bound cannot put it further below the exact value than this
# (the same slack as the test vectors' intervals, `shuffle_spec.interface.vectors.files`).
ROUNDING_SLACK = 1e-12


GRID_EPS0_RANGE = (0.05, 10.0)


GRID_N_RANGE = (10, 10**9)


GRID_DELTA_RANGE = (1e-12, 0.5)


DEFAULT_GRID_SHAPE = (8, 9, 5)  # eps0 x n x delta: 360 points


DEFAULT_TOTAL_TIME_LIMIT = AUDIT_TOTAL_SECONDS  # the limits table's (the CLI's --help reads it from there)


EDGE_BISECTION_STEPS = 12


# CPU seconds allowed to a statement's high-precision path where the float reference's interval is too wide to
# separate claims (`_narrowed`): the 40-digit paths of the closed-form bounds take milliseconds (BBGN19.Thm5.3 at
# eps0 = 0.05, n = 1e9, delta = 0.5: 0.03 s); slower ones are not waited for (the point is then INCONCLUSIVE where a
# claim lies inside its acceptance interval). CPU, not wall time: the verdicts must not depend on the machine's load.
NARROWING_SECONDS = 10.0


@dataclass(frozen=True)
class AuditPoint:
    """A point of the audit: inside the hypotheses or not, the statement's expected value and acceptance interval
    there, and `wide_interval`: the reference's certified interval [L, H] of the statement's value where it is wider
    than the tolerance (module doc), None where it separates claims (a claim inside the acceptance interval there is
    INCONCLUSIVE, not PASS)."""

    source: str
    inputs: dict[str, Any]
    inside: bool
    expected: str | None = None
    interval: list[str] | None = None
    hypothesis: str = ""
    wide_interval: list[str] | None = None


def load_bound_function(target: str) -> Callable[..., Any]:
    """`module:function` or `path/to/file.py:function` -> the function, imported into THIS process
    (trusted code only; `audit_bound` with a string target runs it in a child process instead).
    Raises `UsageError` when it cannot be imported or has no such function."""
    module_name, sep, function_name = target.rpartition(":")
    if not sep or not module_name or not function_name:
        raise UsageError(f"expected MODULE:FUNCTION or FILE.py:FUNCTION, got {target!r}")
    try:
        if module_name.endswith(".py") or "/" in module_name:
            path = _check_source_file(module_name)
            spec = importlib.util.spec_from_file_location(f"_audited_{path.stem}", path)
            module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
            spec.loader.exec_module(module)  # type: ignore[union-attr]
        else:
            module = importlib.import_module(module_name)
    except UsageError:
        raise
    except (Exception, SystemExit) as failure:  # noqa: BLE001 - any failure to import is the caller's file
        raise UsageError(f"cannot import {module_name}: {type(failure).__name__}: {failure}") from None
    function = getattr(module, function_name, None)
    if not callable(function):
        raise UsageError(f"{module_name} has no function {function_name}")
    return function


def _check_target(target: str) -> None:
    module_name, sep, function_name = target.rpartition(":")
    if not sep or not module_name or not function_name:
        raise UsageError(f"expected MODULE:FUNCTION or path/to/file.py:FUNCTION, got {target!r}")
    if module_name.endswith(".py") or "/" in module_name:
        _check_source_file(module_name)


def _check_source_file(name: str) -> Path:
    """The module file of a FILE.py:FUNCTION target, refused before it is imported unless it is a
    regular file of at most MAX_SOURCE_BYTES bytes (a FIFO would block the import, /dev/zero fill it)."""
    path = Path(name)
    if not os.path.lexists(path):
        raise UsageError(f"no such file: {path}")
    read_limited(path, what="bound module", limit=MAX_SOURCE_BYTES)
    return path


def _sharp_reference(statement: Statement) -> Callable[..., Any]:
    """The statement's reference function, asked for an interval narrowed at BOTH ends where it offers that
    (`tight="both"`): bounds that narrow only the end they certify (for speed) keep the other end certified but
    loose, and the acceptance interval's far end must be sharp, else a claim below the theorem's value passes."""
    function = reference_function(statement)
    if "tight" in inspect.signature(function).parameters:
        return functools.partial(function, tight="both")
    return function


def _classify_point(statement: Statement, inputs: dict[str, Any]) -> tuple[bool, str | None, list[str] | None, str] | None:
    """(inside, expected, interval, failed hypothesis) at a point; None when it is inside the
    hypotheses but the reference has no finite value there (left out)."""
    point = audit_point(statement, inputs, "")
    return None if point is None else (point.inside, point.expected, point.interval, point.hypothesis)


def too_wide(low_exact: float, high_exact: float, rtol: float) -> bool:
    """Whether a certified interval [low_exact, high_exact] of a statement's value is too wide to separate claims at
    relative tolerance `rtol` (module doc): its width above rtol x max(|low_exact|, |high_exact|), or an end not finite
    (an unbounded interval separates nothing, although its width inf is not above rtol x inf)."""
    if not (math.isfinite(low_exact) and math.isfinite(high_exact)):
        return True
    return high_exact - low_exact > rtol * max(abs(low_exact), abs(high_exact))


def _finite_scale(low_exact: float, high_exact: float) -> float:
    """The scale of a certified interval's tolerance: max |end| over its finite ends (an infinite end would make the
    tolerance infinite and the acceptance interval the whole line; the value's own end is finite)."""
    return max((abs(x) for x in (low_exact, high_exact) if math.isfinite(x)), default=0.0)


def audit_point(statement: Statement, inputs: dict[str, Any], source: str) -> AuditPoint | None:
    """One point as the sweep classifies it (inside the hypotheses or not, the statement's expected value
    and acceptance interval, and whether the reference's certified interval is too wide there to certify a PASS:
    `AuditPoint.wide_interval`, module doc); None where the reference has no finite value (the sweep leaves it
    out)."""
    try:
        if statement.input_names:
            statement.check_hypotheses(inputs)
        # else: a statement evaluated through the randomizer registry (its symbols are the mechanism's, not the
        # function's keywords eps0, n, delta, d): its reference function checks its own range, and a point it
        # refuses (ParameterError, a ValueError) is left out below.
    except HypothesisError as failure:
        return AuditPoint(source, inputs, False, hypothesis=getattr(failure, "hypothesis", str(failure)))
    except (ValueError, TypeError, ZeroDivisionError, OverflowError) as failure:
        return AuditPoint(source, inputs, False, hypothesis=f"degenerate input: {failure}")
    try:
        result = _sharp_reference(statement)(**inputs)
    except ValueError:
        return None
    except (ArithmeticError, RecursionError) as failure:
        # The project's own reference failed here (a bug to report, not the audited code's fault): the
        # point is still judged against the truth and the certificates, without an expected value.
        return AuditPoint(source, inputs, True, hypothesis=f"reference failed: {type(failure).__name__}")
    # The one result type (`bridge.reference_result`): a lower bound's value is its certified lower end (the
    # upper end may exceed the truth), an upper bound's or an exact value's its upper end.
    value, interval, _ = reference_result(statement, result)
    low_exact, high_exact = interval if interval is not None else (value, value)
    if not math.isfinite(value):
        return None
    rtol = statement.rtol
    if too_wide(low_exact, high_exact, rtol):
        sharper = _narrowed(statement, inputs, low_exact, high_exact)
        if sharper is not None:
            low_exact, high_exact = sharper
            value = low_exact if statement.direction is Direction.LOWER_BOUND else high_exact
    scale = _finite_scale(low_exact, high_exact)
    if statement.direction is Direction.UPPER_BOUND:
        low, high = low_exact - ROUNDING_SLACK * scale, high_exact + rtol * scale
    elif statement.direction is Direction.LOWER_BOUND:
        low, high = low_exact - rtol * scale, high_exact + ROUNDING_SLACK * scale
    else:
        low, high = low_exact - rtol * scale, high_exact + rtol * scale
    wide = [repr(low_exact), repr(high_exact)] if too_wide(low_exact, high_exact, rtol) else None
    return AuditPoint(source, inputs, True, repr(value), [repr(low), repr(high)], "", wide)


def _narrowed(statement: Statement, inputs: dict[str, Any], low: float, high: float) -> tuple[float, float] | None:
    """[low, high] (the float reference's certified interval of the statement's value) intersected with the
    enclosure of the statement's high-precision path (`high_precision_enclosure`, what the test vectors are generated
    from), its ends rounded outward to doubles: both enclose the same value, so their intersection does. None where
    there is no such path, it declines, it takes longer than NARROWING_SECONDS, or the two do not meet (then the
    reference's own interval stands)."""
    try:
        with in_process_cpu_limit(NARROWING_SECONDS):
            enclosure = high_precision_enclosure(statement, inputs)
    except (InProcessTimeout, ArithmeticError, TypeError):
        return None
    if enclosure is None:
        return None
    low_hp, high_hp = _float_down(enclosure[0]), _float_up(enclosure[1])
    narrowed = max(low, low_hp), min(high, high_hp)
    return narrowed if narrowed[0] <= narrowed[1] else None


def _float_down(x: Fraction) -> float:
    """The largest double <= x (float() rounds to nearest)."""
    nearest = float(x)
    return nearest if Fraction(nearest) <= x else math.nextafter(nearest, -math.inf)


def _float_up(x: Fraction) -> float:
    """The smallest double >= x."""
    nearest = float(x)
    return nearest if Fraction(nearest) >= x else math.nextafter(nearest, math.inf)


def _log_grid(low: float, high: float, count: int, integer: bool = False) -> list[Any]:
    if count == 1:
        return [int(low) if integer else low]
    values = [low * (high / low) ** (i / (count - 1)) for i in range(count)]
    if integer:
        return sorted({int(round(v)) for v in values})
    return [float(f"{v:.4g}") for v in values]


def grid_points(statement: Statement, shape: tuple[int, int, int] = DEFAULT_GRID_SHAPE) -> list[AuditPoint]:
    """The sweep for an amplification bound: the grid, its regime edges along eps0, degenerate inputs."""
    names = set(statement.input_names)
    if not {"eps0", "n", "delta"} <= names:
        raise UsageError(f"--grid needs a statement with inputs eps0, n, delta; {statement.id} has {', '.join(statement.input_names)}")
    example = dict(statement.examples[0]) if statement.examples else {}
    extras = {k: (int(v) if float(v) == int(v) else float(v)) for k, v in example.items() if k not in ("eps0", "n", "delta")}
    eps0s = _log_grid(*GRID_EPS0_RANGE, shape[0])
    ns = _log_grid(*GRID_N_RANGE, shape[1], integer=True)
    deltas = _log_grid(*GRID_DELTA_RANGE, shape[2])
    points: list[AuditPoint] = []

    def make(inputs: dict[str, Any], source: str) -> AuditPoint | None:
        return audit_point(statement, inputs, source)

    for n in ns:
        for delta in deltas:
            line = []
            for eps0 in eps0s:
                point = make({"eps0": eps0, "n": n, "delta": delta, **extras}, "grid")
                if point is not None:
                    points.append(point)
                line.append((eps0, point.inside if point is not None else True))
            # Regime edge along eps0: bisect between neighbours whose validity differs.
            for (a, inside_a), (b, inside_b) in itertools.pairwise(line):
                if inside_a == inside_b:
                    continue
                for _ in range(EDGE_BISECTION_STEPS):
                    middle = math.sqrt(a * b)
                    mid_point = audit_point(statement, {"eps0": middle, "n": n, "delta": delta, **extras}, "edge")
                    if (mid_point is None or mid_point.inside) == inside_a:
                        a = middle
                    else:
                        b = middle
                for eps0 in (a, b):
                    point = make({"eps0": eps0, "n": n, "delta": delta, **extras}, "edge")
                    if point is not None:
                        points.append(point)
    base = {"eps0": 1.0, "n": 10_000, "delta": 1e-6, **extras}
    degenerate: list[dict[str, Any]] = []
    for value in (0.0, -1.0, 1e-300, 50.0, math.inf, math.nan):
        degenerate.append({**base, "eps0": value})
    for value in (0, -10, 1, 2, 10_000.5):
        degenerate.append({**base, "n": value})
    for value in (0.0, -1e-6, 1.0, 1.5, 1e-300, math.nan):
        degenerate.append({**base, "delta": value})
    for inputs in degenerate:
        point = make(inputs, "degenerate")
        if point is not None:
            points.append(point)
    return points


def vector_points(statement: Statement, group: Mapping[str, Any]) -> list[AuditPoint]:
    return [
        AuditPoint(f"vector {t['tcId']}", dict(t["inputs"]), t["result"] != "invalid", t.get("expected"), t.get("interval"), t.get("comment", ""))
        for t in group["tests"]
    ]


@dataclass
class BoundAudit:
    """Everything `shuffle-spec audit bound` reports (see `shuffle_spec.interface.audit.verdicts` for the verdicts)."""

    statement_id: str
    function: str
    findings: list[Finding]
    strict: bool = False
    not_run: int = 0
    seconds: float = 0.0
    rtol: float | None = None  # the tolerance the caller granted (`audit_bound(rtol=...)`, `--rtol`), None if none

    @property
    def truth_checked(self) -> int:
        return sum(1 for f in self.findings if f.truth is not None)

    @property
    def inside_checked(self) -> int:
        return sum(1 for f in self.findings if f.inside and f.got is not None)

    def counts(self) -> dict[str, int]:
        counts = {verdict: 0 for verdict in VERDICT_ORDER}
        for finding in self.findings:
            key = f"{finding.verdict} (warning)" if finding.verdict == ACCEPTS_INVALID and finding.severity == "warning" else finding.verdict
            counts[key] = counts.get(key, 0) + 1
        return {k: v for k, v in counts.items() if v}

    @property
    def inside_decided(self) -> int:
        """Calls inside the hypotheses whose number got a verdict other than INCONCLUSIVE (PASS, ABOVE BOUND, a
        failure, ...): the claims the audit could tell from wrong ones."""
        return sum(1 for f in self.findings if f.inside and f.got is not None and f.verdict != INCONCLUSIVE)

    @property
    def result(self) -> str:
        """"fail" (a failure, or nothing inside the hypotheses checked), "inconclusive" (no failure, but every call
        inside the hypotheses INCONCLUSIVE: nothing was decided, the run proves nothing), "warn" or "pass"."""
        if self.not_run or self.inside_checked == 0 or any(f.severity == "failure" for f in self.findings):
            return "fail"
        if self.inside_decided == 0:
            return "inconclusive"
        return "warn" if any(f.severity == "warning" for f in self.findings) else "pass"

    @property
    def ok(self) -> bool:
        """Passed, with warnings at most: neither a failure nor a run that decided nothing."""
        return self.result in ("pass", "warn")

    @property
    def worst(self) -> str:
        for severity in SEVERITY_ORDER:
            for verdict in VERDICT_ORDER:
                if any(f.verdict == verdict and f.severity == severity for f in self.findings):
                    return verdict
        return "NOTHING CHECKED"

    def by_severity(self, severity: str) -> list[Finding]:
        return [f for f in self.findings if f.severity == severity]

    def summary(self) -> str:
        parts = ", ".join(f"{count} {verdict}" for verdict, count in self.counts().items())
        tail = f"; {self.not_run} not run (overall time limit)" if self.not_run else ""
        nothing = "; NOTHING checked inside the hypotheses" if self.inside_checked == 0 else ""
        if self.inside_checked and not self.inside_decided:
            nothing = f"; NOTHING decided inside the hypotheses (all {self.inside_checked} calls there INCONCLUSIVE)"
        granted = "" if self.rtol is None else f"; rtol {self.rtol:g} granted (looser claims accepted by that much more)"
        return f"{len(self.findings)} calls: {parts}{tail}{nothing}; truth checked at {self.truth_checked}{granted}"

    # Compatibility with the first version of this report (fields `unsound`, `mismatches`, `accepted_invalid`).
    @property
    def unsound(self) -> list[dict[str, Any]]:
        return [f.to_json() for f in self.findings if f.verdict == UNSOUND]

    @property
    def mismatches(self) -> list[dict[str, Any]]:
        return [f.to_json() for f in self.findings if f.verdict in (BELOW_BOUND, ABOVE_BOUND) or (f.inside and f.verdict in (CRASH, NON_NUMBER, TIMEOUT))]

    @property
    def accepted_invalid(self) -> list[dict[str, Any]]:
        return [f.to_json() for f in self.findings if f.verdict == ACCEPTS_INVALID]

    @property
    def tests(self) -> int:
        return len(self.findings)

    @property
    def passed(self) -> int:
        return sum(1 for f in self.findings if f.severity == "pass")

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.statement_id,
            "function": self.function,
            "result": self.result,
            "worst": self.worst,
            "strict": self.strict,
            "counts": self.counts(),
            "calls": len(self.findings),
            "not_run": self.not_run,
            "inside_checked": self.inside_checked,
            "inside_decided": self.inside_decided,
            "truth_checked": self.truth_checked,
            "rtol": self.rtol,
            "seconds": round(self.seconds, 2),
            "summary": self.summary(),
            "findings": [f.to_json() for f in self.findings],
            "direction": get_statement(self.statement_id).direction.value,
        }


def _statement_for_audit(statement_id: str) -> Statement:
    try:
        statement = get_statement(statement_id)
    except KeyError:
        raise UsageError(f"unknown statement id {statement_id!r} (see `shuffle-spec list`)") from None
    if not statement.is_evaluable:
        raise UsageError(f"{statement.id} is a {statement.kind.name.lower()} about distributions, not a function of scalar parameters: there is nothing to audit (choose a statement that `shuffle-spec list` marks evaluable, e.g. FMT21.Thm2.1)")
    return statement


def audit_bound(
    function: Callable[..., Any] | str,
    statement_id: str,
    *,
    rtol: float | None = None,
    vectors: Mapping[str, Any] | str | Path | None = None,
    grid: bool = False,
    grid_shape: tuple[int, int, int] = DEFAULT_GRID_SHAPE,
    strict: bool = False,
    time_limit: float = DEFAULT_TIME_LIMIT,
    total_time_limit: float = DEFAULT_TOTAL_TIME_LIMIT,
    memory_mb: int = DEFAULT_MEMORY_MB,
    label: str = "",
    quiet: bool = False,
) -> BoundAudit:
    """Audit a bound function f(eps0, n, delta[, ...]) -> eps against statement `statement_id`.

    `function` is a target string ("MODULE:FUNCTION" or "path/file.py:FUNCTION", imported and run in a
    child process with `time_limit` seconds per call, `memory_mb` of address space and
    `total_time_limit` seconds in all; what that child process isolates and what it does not is in
    `interface/audit/sandbox.py`) or a callable (trusted: called in this process, no limits).
    Points: the statement's test vectors, generated from the spec, or `vectors`: a vector file or a
    directory holding `<statement id>.json` (`load_vector_group`: used only if it matches the schema
    and equals a fresh generation), or a test group (`checked_group`: each of its tests must be the
    fresh generation's test with that tcId); and, with `grid`, the sweep of `grid_points`. Each call
    gets a verdict (`shuffle_spec.interface.audit.verdicts`); `rtol` widens every acceptance interval by that
    relative amount on the side an implementation may err to (`_widened`: never below an upper bound's interval). Raises `UsageError` for an unknown or non-evaluable statement, for a target that
    cannot be imported and for vectors that are refused."""
    started = time.monotonic()
    statement = _statement_for_audit(statement_id)
    if rtol is not None and not (math.isfinite(rtol) and 0 <= rtol < 1):
        raise UsageError(f"rtol = {rtol!r} is out of range: expected a number in [0, 1)")
    if not (math.isfinite(total_time_limit) and total_time_limit > 0):
        raise UsageError(f"total time limit = {total_time_limit!r} is out of range: expected seconds > 0")
    if isinstance(function, str):
        _check_target(function)
    if vectors is None:
        group = generate_group(statement)
    elif isinstance(vectors, Mapping):
        group = checked_group(vectors, statement)
    else:
        group = load_vector_group(vectors, statement)
    order = list(group.get("inputs") or statement.input_names)
    points = vector_points(statement, group)
    if grid:
        points += grid_points(statement, grid_shape)
    if not points:
        raise UsageError(f"{statement.id} has no test points: nothing to audit")
    if rtol is not None:
        points = [_widened(p, rtol, statement) for p in points]
    findings: list[Finding] = []
    not_run = 0
    name = label or (function if isinstance(function, str) else getattr(function, "__qualname__", str(function)))
    sandbox: Sandbox | None = None
    try:
        if isinstance(function, str):
            sandbox = Sandbox(function, time_limit=time_limit, memory_mb=memory_mb, cpu_seconds=cpu_budget(total_time_limit))
            try:
                sandbox.__enter__()
            except LoadError as failure:
                raise UsageError(str(failure)) from None
        for index, point in enumerate(points, start=1):
            left = total_time_limit - (time.monotonic() - started)
            if left <= 0:
                not_run = len(points) - index + 1
                break
            with silenced():  # one step per call: the bisections inside the reference's evaluation are not shown
                if sandbox is not None:
                    outcome = sandbox.call(point.inputs, order, time_limit=left)
                else:
                    outcome = call_in_process(function, point.inputs, order)  # type: ignore[arg-type]
                findings.append(judge(statement, point.inputs, outcome, inside=point.inside, expected=point.expected, interval=point.interval, strict=strict, source=point.source, hypothesis=point.hypothesis, wide_interval=point.wide_interval))
            if not quiet:
                _progress(index, len(points), f"audit {statement.id}", findings[-1])
    finally:
        if sandbox is not None:
            sandbox.close()
    return BoundAudit(statement.id, name, findings, strict=strict, not_run=not_run, seconds=time.monotonic() - started, rtol=rtol)


def _widened(point: AuditPoint, rtol: float, statement: Statement) -> AuditPoint:
    """The point with its acceptance interval widened by `rtol` x |expected| on the side an implementation may err to,
    as the statement's own rtol widens it (module doc): above an upper bound, below a lower bound, on both sides of an
    exact value. The other end stays: a claim below an upper bound's interval (above a lower bound's) claims more than
    the theorem proves whatever tolerance is granted. A certified interval too wide for the statement's tolerance may
    be narrow enough for the tolerance granted now (the statement's rtol plus `rtol`), and then certifies a PASS
    again (module doc)."""
    if point.interval is None or point.expected is None:
        return point
    slack = rtol * abs(float(point.expected))
    below = 0.0 if statement.direction is Direction.UPPER_BOUND else slack
    above = 0.0 if statement.direction is Direction.LOWER_BOUND else slack
    interval = [repr(float(point.interval[0]) - below), repr(float(point.interval[1]) + above)]
    wide = point.wide_interval
    if wide is not None and not too_wide(float(wide[0]), float(wide[1]), statement.rtol + rtol):
        wide = None
    return AuditPoint(point.source, point.inputs, point.inside, point.expected, interval, point.hypothesis, wide)


def _progress(done: int, total: int, label: str, last: Finding) -> None:
    """Progress on stderr: a bar where the command line installed one (a terminal, or `--progress`), else a line
    every 10 % (for CI logs)."""
    if listening():
        progress(done, total, label)
    elif not sys.stderr.isatty() and total >= 50 and (done == total or done % max(1, total // 10) == 0):
        sys.stderr.write(f"{label}: {done}/{total} calls (last: {last.verdict})\n")
        sys.stderr.flush()
