"""Audits: a finite randomizer given as a matrix, and a third-party bound function.

Randomizer files (`shuffle-spec audit randomizer FILE.json`) are a JSON object

    {
      "name": "optional label",
      "inputs": ["optional", "labels"],        # one per row; default 0, 1, ...
      "outputs": ["optional", "labels"],       # one per column; default 0, 1, ...
      "matrix": [["3/4", "1/4"], ["1/4", "3/4"]],   # rows inputs, columns outputs
      "removal_reference": ["1/2", "1/2"]      # optional: R_0, the output of an absent respondent
    }

or a bare matrix `[[...], ...]`. Entries are JSON numbers, decimal strings ("0.25") or fractions
("1/4"); numbers and decimal strings are read exactly (0.1 is 1/10, not the nearest double), so the
audit is exact. Rows must sum to exactly 1.

The blanket (BBGN19 Sec. 5.1) comes from `reference.blanket` with exact rationals:
gamma = sum_y min_x P_x(y) and omega(y) = min_x P_x(y) / gamma. The removal LDP epsilon (EFMRSTT20 Def II.4) is reported w.r.t. the
file's `removal_reference` when given, else w.r.t. the best reference distribution, found exactly:
with M_y = max_x P_x(y) and m_y = min_x P_x(y), a reference R_0 has ratio at most a iff
M_y / a <= R_0(y) <= a m_y for every y and the R_0(y) sum to 1, so the optimal ratio is
a* = max( sqrt(max_y M_y / m_y), sum_y M_y, 1 / sum_y m_y ); a witness R_0 is built at a rational
a >= a* and its ratio is re-computed by `reference.divergences.removal_ldp_ratio`.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import math
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from shuffle_spec.proofs_checks.amplification import EXACT_BINARY_RR_ID, GENERIC, evaluate_bounds
from shuffle_spec.proofs_checks.bridge import UsageError, evaluate
from shuffle_spec.proofs_checks.output import progress
from shuffle_spec.reference.blanket import blanket_distribution, total_variation_similarity
from shuffle_spec.reference.distributions import Distribution
from shuffle_spec.reference.divergences import ldp_ratio, min_e_eps_for_delta, removal_ldp_ratio, safe_log
from shuffle_spec.reference.randomizers import Randomizer, binary_randomized_response
from shuffle_spec.reference.rounding import round_down
from shuffle_spec.reference.shuffling import neighbouring_datasets, shuffled_distribution
from shuffle_spec.spec.registry import get_statement, list_statements
from shuffle_spec.spec.statement import Direction, Statement

__all__ = [
    "BoundAudit",
    "RandomizerAudit",
    "audit_bound",
    "audit_matrix",
    "blanket",
    "exact_small_n_epsilon",
    "load_bound_function",
    "load_randomizer_file",
    "optimal_removal_reference",
    "truth_lower_bound",
]

# Exact small-n central epsilon is computed when (neighbouring pairs) x (shuffled support) x n, a
# measure of the Fraction operations, stays below this: a few seconds at most.
EXACT_WORK_LIMIT = 2_000_000
# n up to which exact shuffled binary RR is computed by enumeration when no exact statement is registered.
BINARY_RR_ENUMERATION_MAX_N = 40


# ---------------------------------------------------------------------------------------------------
# Randomizer files


def load_randomizer_file(path: str | Path) -> dict[str, Any]:
    """The parsed randomizer file (see the module docstring), with decimals kept as exact strings.
    Raises `UsageError` with the line/column of a JSON syntax error or the field that is wrong."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as failure:
        raise UsageError(f"cannot read randomizer file {path}: {failure.strerror}") from None
    try:
        data = json.loads(text, parse_float=str, parse_int=str)
    except json.JSONDecodeError as failure:
        raise UsageError(f"{path}: not JSON: {failure.msg} at line {failure.lineno} column {failure.colno}") from None
    return _normalise_document(data, str(path))


def _normalise_document(data: Any, where: str) -> dict[str, Any]:
    if isinstance(data, list):
        data = {"matrix": data}
    if not isinstance(data, dict):
        raise UsageError(f"{where}: expected a JSON object with a \"matrix\" or a list of rows, got {type(data).__name__}")
    unknown = sorted(set(data) - {"name", "inputs", "outputs", "matrix", "removal_reference", "comment"})
    if unknown:
        raise UsageError(f"{where}: unknown field(s) {', '.join(unknown)}; allowed: name, inputs, outputs, matrix, removal_reference, comment")
    matrix = data.get("matrix")
    if not isinstance(matrix, list) or not matrix:
        raise UsageError(f"{where}: \"matrix\" must be a non-empty list of rows")
    for i, row in enumerate(matrix):
        if not isinstance(row, list):
            raise UsageError(f"{where}: matrix row {i} is not a list of probabilities: {row!r}")
        for j, entry in enumerate(row):
            if not isinstance(entry, (str, int, float, Fraction)) or isinstance(entry, bool):
                raise UsageError(f"{where}: matrix[{i}][{j}] = {entry!r} is not a number (use 0.25 or \"1/4\")")
    return dict(data)


@dataclass(frozen=True)
class RandomizerAudit:
    """Everything `shuffle-spec audit randomizer` reports; probabilities as exact "p/q" strings."""

    name: str
    inputs: list[Any]
    outputs: list[Any]
    ldp_epsilon: float
    ldp_ratio: str
    removal_epsilon: float
    removal_reference: list[str]
    removal_reference_kind: str
    gamma: str
    gamma_float: float
    blanket_distribution: list[str]
    mechanism: str
    k: int | None
    n: int | None = None
    delta: float | None = None
    bounds: list[dict[str, Any]] = field(default_factory=list)
    exact: dict[str, Any] | None = None
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "inputs": self.inputs,
            "outputs": self.outputs,
            "ldp_epsilon": self.ldp_epsilon,
            "ldp_ratio": self.ldp_ratio,
            "removal_epsilon": self.removal_epsilon,
            "removal_reference": self.removal_reference,
            "removal_reference_kind": self.removal_reference_kind,
            "blanket_gamma": self.gamma,
            "blanket_gamma_float": self.gamma_float,
            "blanket_distribution": self.blanket_distribution,
            "mechanism": self.mechanism,
            "k": self.k,
            "n": self.n,
            "delta": self.delta,
            "bounds": self.bounds,
            "exact": self.exact,
            "problems": self.problems,
        }


def _text(p: Fraction | float) -> str:
    return f"{p.numerator}/{p.denominator}" if isinstance(p, Fraction) and p.denominator != 1 else str(p)


def blanket(randomizer: Randomizer) -> tuple[Fraction | float, dict[Any, Fraction | float]]:
    """gamma = sum_y min_x P_x(y) and the blanket distribution omega(y) = min_x P_x(y) / gamma
    (BBGN19 Sec. 5.1, through `reference.blanket`); omega is empty when gamma = 0 (no blanket)."""
    gamma = total_variation_similarity(randomizer)
    if gamma == 0:
        return gamma, {}
    omega = blanket_distribution(randomizer)
    return gamma, {y: omega[y] for y in randomizer.outputs}


def _rational_at_least(x: float) -> Fraction:
    """A rational >= the float x with a short denominator (for a witness that is cheap to check)."""
    candidate = Fraction(x).limit_denominator(10**6)
    return candidate if candidate >= Fraction(x) else candidate + Fraction(1, 10**6)


def optimal_removal_reference(randomizer: Randomizer) -> tuple[Fraction | float, Distribution | None]:
    """The smallest removal-LDP ratio over all reference distributions R_0, and a witness R_0 whose
    ratio is at most a rational just above it (None when every reference gives infinity)."""
    outputs = randomizer.outputs
    big = {y: max(d[y] for _, d in randomizer.items()) for y in outputs}
    small = {y: min(d[y] for _, d in randomizer.items()) for y in outputs}
    if any(small[y] == 0 < big[y] for y in outputs):
        return math.inf, None
    exact = randomizer.is_exact
    one = Fraction(1) if exact else 1.0
    square = max((big[y] / small[y] for y in outputs if big[y] > 0), default=one)
    linear = max(sum(big.values(), 0 * one), one / sum(small.values(), 0 * one))
    # a* = max(sqrt(square), linear); compare squares to stay exact.
    if linear * linear >= square:
        a: Fraction | float = linear
        optimum: Fraction | float = linear
    else:
        optimum = math.sqrt(square)
        a = _rational_at_least(math.sqrt(float(square))) if exact else optimum
        while exact and a * a < square:
            a += Fraction(1, 10**6)
    lower = {y: big[y] / a for y in outputs}
    upper = {y: a * small[y] for y in outputs}
    total_low, total_high = sum(lower.values(), 0 * one), sum(upper.values(), 0 * one)
    t = (one - total_low) / (total_high - total_low) if total_high > total_low else 0 * one
    witness = Distribution({y: lower[y] + t * (upper[y] - lower[y]) for y in outputs})
    return optimum, witness


def detect_mechanism(randomizer: Randomizer) -> tuple[str, int | None]:
    """("binary_rr", 2) or ("krr", k) when the matrix is k-ary randomized response, else ("generic", None)."""
    rows = randomizer.matrix()
    k = len(rows)
    if k < 2 or len(randomizer.outputs) != k:
        return GENERIC, None
    keep, other = rows[0][0], rows[0][1]
    if keep <= other:
        return GENERIC, None
    for i, row in enumerate(rows):
        for j, p in enumerate(row):
            if p != (keep if i == j else other):
                return GENERIC, None
    return ("binary_rr", 2) if k == 2 else ("krr", k)


def exact_small_n_epsilon(randomizer: Randomizer, n: int, delta: float) -> dict[str, Any] | None:
    """The exact central epsilon of the shuffled randomizer at (n, delta) by enumerating every pair of
    neighbouring datasets (`reference.shuffling`), or None when that is too much work."""
    k, m = len(randomizer.inputs), len(randomizer.outputs)
    pairs = math.comb(n - 1 + k - 1, k - 1) * math.comb(k, 2)
    support = math.comb(n + m - 1, m - 1)
    if pairs * support * max(1, n) > EXACT_WORK_LIMIT:
        return None
    target = Fraction(delta)
    worst: Fraction | float = Fraction(1)
    all_pairs = list(neighbouring_datasets(randomizer.inputs, n))
    for index, (d, d2) in enumerate(all_pairs, start=1):
        worst = max(worst, min_e_eps_for_delta(shuffled_distribution(randomizer, d), shuffled_distribution(randomizer, d2), target))
        progress(index, len(all_pairs), "exact: neighbouring datasets")
    return {"eps": safe_log(worst), "e_eps": _text(worst) if isinstance(worst, Fraction) else worst, "method": "enumeration of all neighbouring datasets (reference.shuffling)"}


def audit_matrix(
    matrix: Sequence[Sequence[object]] | Mapping[str, Any],
    *,
    n: int | None = None,
    delta: float | None = None,
    removal_reference: Sequence[object] | None = None,
    name: str = "",
) -> RandomizerAudit:
    """Audit a finite randomizer (see the module docstring for the accepted forms)."""
    document = _normalise_document(dict(matrix) if isinstance(matrix, Mapping) else list(matrix), "randomizer")
    if removal_reference is not None:
        document["removal_reference"] = list(removal_reference)
    randomizer = Randomizer.from_matrix(document["matrix"], inputs=document.get("inputs"), outputs=document.get("outputs"))
    columns = list(document.get("outputs") or range(len(document["matrix"][0])))
    if (n is None) != (delta is None):
        raise UsageError("give both n and delta for the shuffled bounds, or neither")
    ratio = ldp_ratio(randomizer)
    if document.get("removal_reference") is not None:
        given = document["removal_reference"]
        if not isinstance(given, list) or len(given) != len(columns):
            raise UsageError(f"removal_reference must list {len(columns)} probabilities, one per column")
        reference_distribution = Distribution(dict(zip(columns, given)))
        kind = "given in the file"
        removal = safe_log(removal_ldp_ratio(randomizer, reference_distribution))
    else:
        _, witness = optimal_removal_reference(randomizer)
        kind = "optimal (smallest removal epsilon over all reference distributions; see proofs_checks.audit)"
        reference_distribution = witness
        removal = math.inf if witness is None else safe_log(removal_ldp_ratio(randomizer, witness))
    gamma, omega = blanket(randomizer)
    mechanism, k = detect_mechanism(randomizer)
    audit = RandomizerAudit(
        name=str(document.get("name", name)),
        inputs=list(randomizer.inputs),
        outputs=list(randomizer.outputs),
        ldp_epsilon=safe_log(ratio),
        ldp_ratio=_text(ratio) if ratio != math.inf else "inf",
        removal_epsilon=removal,
        removal_reference=[] if reference_distribution is None else [_text(reference_distribution[y]) for y in randomizer.outputs],
        removal_reference_kind=kind,
        gamma=_text(gamma),
        gamma_float=round_down(float(gamma), 2) if gamma else 0.0,
        blanket_distribution=[_text(omega[y]) for y in randomizer.outputs] if omega else [],
        mechanism=mechanism,
        k=k,
        n=n,
        delta=delta,
    )
    if n is None or delta is None:
        return audit
    return _with_shuffled_bounds(audit, randomizer, int(n), float(delta))


def _with_shuffled_bounds(audit: RandomizerAudit, randomizer: Randomizer, n: int, delta: float) -> RandomizerAudit:
    eps0 = audit.ldp_epsilon
    if not math.isfinite(eps0) or eps0 <= 0:
        why = "the randomizer is not eps0-LDP for any finite eps0" if eps0 > 0 else "the randomizer's output does not depend on its input (eps0 = 0): it is 0-DP"
        audit.problems.append(f"no amplification bound applies: {why}")
        return audit
    # Bounds are non-decreasing in eps0 and non-increasing in gamma, so the rounded-up eps0 and the
    # rounded-down gamma keep them upper bounds.
    extra: dict[str, float | int] = {"gamma": audit.gamma_float}
    rows = evaluate_bounds(eps0, n, delta, mechanism=GENERIC, extra=extra)
    if audit.mechanism != GENERIC:
        mechanism_rows = evaluate_bounds(eps0, n, delta, mechanism=audit.mechanism, extra={**extra, "k": audit.k})
        if audit.mechanism == "binary_rr":
            mechanism_rows += evaluate_bounds(eps0, n, delta, mechanism="krr", extra={**extra, "k": 2})
        seen = {r.id for r in rows}
        rows += [r for r in mechanism_rows if r.id not in seen and not seen.add(r.id)]
    audit.bounds.extend(r.to_json() for r in rows if _direction(r.id) is not Direction.EXACT)
    exact = exact_small_n_epsilon(randomizer, n, delta)
    if exact is None and audit.mechanism != GENERIC:
        # A registered exact statement for the recognised mechanism (time-limited, like `bounds`).
        from shuffle_spec.proofs_checks.commands.bounds import rows_at

        for item in rows_at(eps0, n, delta, audit.mechanism, {"k": audit.k})[1]:
            if item["valid"] and item["eps"] is not None:
                exact = {"eps": item["eps"], "method": f"{item['id']} at eps0 = {eps0!r}" + (f" ({item['reason']})" if item["reason"] else "")}
                break
    object.__setattr__(audit, "exact", exact)
    if exact is not None:
        for row in audit.bounds:
            if row["valid"] and _direction(row["id"]) is Direction.UPPER_BOUND and row["eps"] < round_down(exact["eps"], 16):
                audit.problems.append(f"{row['id']} gives {row['eps']!r} < exact {exact['eps']!r}: the bound is unsound here")
    return audit


def is_registered(statement_id: str) -> bool:
    return any(s.id == statement_id for s in list_statements())


def _direction(statement_id: str) -> Direction:
    return get_statement(statement_id).direction


# ---------------------------------------------------------------------------------------------------
# Third-party bound functions


def load_bound_function(target: str) -> Callable[..., Any]:
    """`module:function` or `path/to/file.py:function` -> the function (UsageError when missing)."""
    module_name, sep, function_name = target.rpartition(":")
    if not sep or not module_name or not function_name:
        raise UsageError(f"expected MODULE:FUNCTION or FILE.py:FUNCTION, got {target!r}")
    if module_name.endswith(".py") or "/" in module_name:
        path = Path(module_name)
        if not path.is_file():
            raise UsageError(f"no such file: {path}")
        spec = importlib.util.spec_from_file_location(f"_audited_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    else:
        try:
            module = importlib.import_module(module_name)
        except ImportError as failure:
            raise UsageError(f"cannot import {module_name}: {failure}") from None
    function = getattr(module, function_name, None)
    if not callable(function):
        raise UsageError(f"{module_name} has no function {function_name}")
    return function


def _call(function: Callable[..., Any], inputs: Mapping[str, Any], order: Sequence[str]) -> float:
    """By keyword when the function names its parameters like the spec, else positionally in `order`."""
    try:
        names = set(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        names = set()
    if set(inputs) <= names:
        return float(function(**inputs))
    return float(function(*[inputs[name] for name in order]))


def truth_lower_bound(statement: Statement, inputs: Mapping[str, Any]) -> dict[str, Any] | None:
    """A number the true central epsilon is at least, where the statement's claim covers binary RR:
    the exact shuffled binary RR (registered exact statement, or enumeration for small n). Only for
    amplification bounds on the central eps (not, say, a delta' they also state)."""
    if not statement.is_amplification_bound or (statement.output is not None and str(statement.output) != "eps"):
        return None
    if statement.mechanism not in ("", GENERIC, "binary_rr") and not (statement.mechanism == "krr" and inputs.get("k") == 2):
        return None
    eps0, n, delta = inputs.get("eps0"), inputs.get("n"), inputs.get("delta")
    if eps0 is None or n is None or delta is None:
        return None
    if is_registered(EXACT_BINARY_RR_ID):
        evaluation = evaluate(get_statement(EXACT_BINARY_RR_ID), {"eps0": eps0, "n": n, "delta": delta})
        if evaluation.valid and evaluation.value is not None:
            low = evaluation.interval[0] if evaluation.interval else round_down(evaluation.value, 16)
            return {"eps": low, "source": EXACT_BINARY_RR_ID}
    if int(n) <= BINARY_RR_ENUMERATION_MAX_N:
        # Binary RR at a rational e' <= e^eps0 is eps0-LDP, and its shuffled epsilon is at most that at
        # e^eps0 (it is a post-processing of it): a valid lower bound on the truth either way.
        e_low = Fraction(round_down(math.exp(float(eps0)), 4)).limit_denominator(10**6)
        while e_low > Fraction(round_down(math.exp(float(eps0)), 4)):
            e_low -= Fraction(1, 10**6)
        if e_low <= 1:
            return None
        rr = binary_randomized_response(e_low)
        from shuffle_spec.reference.shuffling import exact_shuffled_e_eps

        ratio = exact_shuffled_e_eps(rr, int(n), Fraction(delta))
        if ratio <= 1:
            return {"eps": 0.0, "source": "exact enumeration of shuffled binary RR"}
        return {"eps": round_down(math.log(ratio.numerator) - math.log(ratio.denominator), 16), "source": "exact enumeration of shuffled binary RR"}
    return None


@dataclass(frozen=True)
class BoundAudit:
    statement_id: str
    function: str
    tests: int
    passed: int
    mismatches: list[dict[str, Any]]
    unsound: list[dict[str, Any]]
    accepted_invalid: list[dict[str, Any]]
    truth_checked: int

    @property
    def ok(self) -> bool:
        return not (self.mismatches or self.unsound or self.accepted_invalid)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.statement_id,
            "function": self.function,
            "result": "pass" if self.ok else "fail",
            "tests": self.tests,
            "passed": self.passed,
            "truth_checked": self.truth_checked,
            "unsound": self.unsound,
            "mismatches": self.mismatches,
            "accepted_invalid": self.accepted_invalid,
        }


def audit_bound(function: Callable[..., Any], statement_id: str, *, rtol: float | None = None, vectors: Mapping[str, Any] | None = None, label: str = "") -> BoundAudit:
    """Run `function` over the test vectors of `statement_id` (generated from the spec unless given):
    values outside the expected interval (widened by `rtol`, default the statement's), values below
    the exact truth (unsound), and values returned for inputs outside the hypotheses are reported."""
    from shuffle_spec.proofs_checks.vectors import generate_group

    statement = get_statement(statement_id)
    group = vectors if vectors is not None else generate_group(statement)
    tolerance = statement.rtol if rtol is None else rtol
    order = [name for name in group["inputs"]]
    mismatches, unsound, accepted = [], [], []
    passed = truth_checked = 0
    tests = group["tests"]
    for index, test in enumerate(tests, start=1):
        progress(index, len(tests), f"audit {statement_id}")
        inputs = test["inputs"]
        try:
            got = _call(function, inputs, order)
            error = ""
        except Exception as failure:  # a third-party function may raise anything to refuse
            got, error = None, f"{type(failure).__name__}: {failure}"
        record = {"tcId": test["tcId"], "inputs": inputs, "result": test["result"], "got": got, "error": error}
        if test["result"] == "invalid":
            if got is not None and math.isfinite(got):
                accepted.append({**record, "reason": "returned a number outside the hypotheses: " + test.get("comment", "")})
            else:
                passed += 1
            continue
        if got is None or not math.isfinite(got):
            if test["result"] == "valid":
                mismatches.append({**record, "expected": test["expected"], "reason": "refused an input inside the hypotheses"})
            else:
                passed += 1
            continue
        low, high = (float(x) for x in test["interval"])
        slack = tolerance * max(abs(float(test["expected"])), 1e-300)
        ok = low - slack <= got <= high + slack
        truth = truth_lower_bound(statement, inputs) if statement.direction is Direction.UPPER_BOUND else None
        if truth is not None:
            truth_checked += 1
            if got < truth["eps"]:
                unsound.append({**record, "truth": truth["eps"], "truth_source": truth["source"], "reason": "below the exact epsilon of shuffled binary RR"})
                ok = False
        if not (low - slack <= got <= high + slack):
            mismatches.append({**record, "expected": test["expected"], "interval": test["interval"], "reason": f"outside the interval (rtol {tolerance:g})"})
        elif ok:
            passed += 1
    return BoundAudit(statement.id, label or getattr(function, "__qualname__", str(function)), len(tests), passed, mismatches, unsound, accepted, truth_checked)

