"""The audit of a finite randomizer given as a matrix (`shuffle-spec audit randomizer`, `audit_randomizer`):
its local privacy exactly, its blanket, and every applicable shuffled bound with the gap.

Randomizer files (`shuffle-spec audit randomizer FILE.json`) are a JSON object

    {
      "name": "optional label",
      "inputs": ["optional", "labels"],        # one per row; default 0, 1, ...
      "outputs": ["optional", "labels"],       # one per column; default 0, 1, ...
      "matrix": [["3/4", "1/4"], ["1/4", "3/4"]],   # rows inputs, columns outputs
      "removal_reference": ["1/2", "1/2"]      # optional: R_0, the output of an absent respondent
    }

or a bare matrix `[[...], ...]`. Entries are JSON numbers, decimal strings ("0.25", "1e-3") or fractions
("1/4"); numbers and decimal strings are read exactly (0.1 is 1/10, not the nearest double), so the
audit is exact. Rows must sum to exactly 1. Labels (inputs, outputs) are strings or integers, one per row /
column, all different, also as printed (1 and "1" are one label): a repeated input label would make one
row silently replace another. "name" is a string; "comment" is ignored. Sizes are limited
(`shuffle_spec.interface.limits.MATRIX_LIMITS_TEXT`): the digits of every entry are checked on its text before a
number is built, the least common multiple of the denominators is bounded, and the exact small-n value is
computed only when its estimated work (operations times the size of the numbers) is within
EXACT_WORK_LIMIT; otherwise `exact` is null and `exact_reason` says why.

The blanket (BBGN19 Sec. 5.1) comes from `shuffle_spec.reference.finite.blanket` with exact rationals:
gamma = sum_y min_x P_x(y) and omega(y) = min_x P_x(y) / gamma. The removal LDP epsilon (EFMRSTT20 Def II.4) is reported w.r.t. the
file's `removal_reference` when given, else w.r.t. the best reference distribution, found exactly:
with M_y = max_x P_x(y) and m_y = min_x P_x(y), a reference R_0 has ratio at most a iff
M_y / a <= R_0(y) <= a m_y for every y and the R_0(y) sum to 1, so the optimal ratio is
a* = max( sqrt(max_y M_y / m_y), sum_y M_y, 1 / sum_y m_y ); a witness R_0 is built at a rational
a >= a* and its ratio is re-computed by `shuffle_spec.reference.finite.divergences.removal_ldp_ratio`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath

from ..amplification import EXACT_BINARY_RR_ID, GENERIC, evaluate_bounds
from ...proofs_checks.bridge import UsageError, evaluate, require_supported
from ..input_files import load_json_file
from ..limits import EXACT_ENUMERATION_SECONDS, EXACT_WORK_LIMIT, MAX_MATRIX_ENTRIES, TimeLimitExceeded, time_limit
from ..cli.output import progress
from ...reference.core.progress import report, silenced
from .sandbox import (
    InProcessTimeout,
    in_process_time_limit,
)
from ...reference.finite.blanket import blanket_distribution, total_variation_similarity
from ...reference.finite.distributions import Distribution, as_probability
from ...reference.core.errors import ParameterError
from ...reference.finite.divergences import ldp_ratio, removal_ldp_ratio, safe_log
from ...reference.finite.randomizers import Randomizer, check_exact_size, check_labels
from ...reference.finite.removal_ldp import optimal_removal_e_eps_squared, optimal_removal_reference
from ...reference.core.rounding import round_down
from ...reference.finite.enumeration import enumeration_work, exact_shuffled_e_eps_enumerated
from ...spec.registry import get_statement, list_statements
from ...spec.terms import Direction

__all__ = [
    "RANDOMIZER_FILE_FIELDS",
    "RandomizerAudit",
    "audit_matrix",
    "blanket",
    "exact_enumeration_work",
    "exact_small_n_epsilon",
    "load_randomizer_file",
    "smallest_removal_ratio",
]

# The size limits of a matrix (entries, digits, the exact enumeration's work) are in `shuffle_spec.interface.limits`
# (EXACT_WORK_LIMIT, MAX_MATRIX_ENTRIES, MATRIX_LIMITS_TEXT) and `shuffle_spec.reference.core.limits` (the digits).
MAX_FILE_BYTES = 64 * 1024 * 1024


# ---------------------------------------------------------------------------------------------------
# Randomizer files


def load_randomizer_file(path: str | Path) -> dict[str, Any]:
    """The parsed randomizer file (see the module docstring), with decimals kept as exact strings.
    Raises `UsageError` with the line/column of a JSON syntax error or the field that is wrong. The file
    must be a regular file of at most MAX_FILE_BYTES bytes (`interface/input_files.py`)."""
    data = load_json_file(path, what="randomizer file", limit=MAX_FILE_BYTES, exact_numbers=True)
    try:
        return _normalise_document(data, str(path))
    except ParameterError as failure:  # a field's content (a label, an entry of removal_reference): name the file
        raise UsageError(f"{path}: {failure}") from None


# The fields of a randomizer document (also what `composed_epsilon` accepts beside "matrix" in a matrix given as one).
RANDOMIZER_FILE_FIELDS = ("name", "inputs", "outputs", "matrix", "removal_reference", "comment")


def _shown(value: object) -> str:
    """A short repr for error messages (a 60 MB string or a huge integer stays one readable line)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value).bit_length() > 150:
        return f"an integer of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
    if isinstance(value, Fraction) and max(abs(value.numerator).bit_length(), value.denominator.bit_length()) > 150:
        return "a fraction with numbers of hundreds of digits"
    try:
        text = repr(value)
    except ValueError:
        return f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def _normalise_document(data: Any, where: str) -> dict[str, Any]:
    """The randomizer document (module docstring) checked before any number is built: its shape (UsageError
    naming `where`), its labels (`shuffle_spec.reference.finite.randomizers.check_labels`: strings or integers, all different, as
    many as the rows / columns) and its removal reference (ParameterError naming `removal_reference[j]`); the
    entries themselves are read by `Randomizer.from_matrix` (size-checked text, errors name matrix[i][j])."""
    if isinstance(data, tuple):
        data = list(data)
    if isinstance(data, list):
        data = {"matrix": data}
    if not isinstance(data, Mapping):
        raise UsageError(f"{where}: expected a JSON object with a \"matrix\" or a list of rows, got {type(data).__name__}")
    if not all(isinstance(key, str) for key in data):
        raise UsageError(f"{where}: every field name is a string; allowed: {', '.join(RANDOMIZER_FILE_FIELDS)}")
    unknown = sorted(set(data) - set(RANDOMIZER_FILE_FIELDS))
    if unknown:
        raise UsageError(f"{where}: unknown field(s) {', '.join(_shown(u)[1:-1] for u in unknown)}; allowed: {', '.join(RANDOMIZER_FILE_FIELDS)}")
    document = dict(data)
    if "name" in document and not isinstance(document["name"], str):
        raise ParameterError("name", _shown(document["name"]), "a string (the randomizer's name in reports)")
    matrix = document.get("matrix")
    if isinstance(matrix, tuple):
        matrix = document["matrix"] = list(matrix)
    if not isinstance(matrix, list) or not matrix:
        raise UsageError(f"{where}: \"matrix\" must be a non-empty list of rows, got {_shown(matrix)}")
    entries = sum(len(row) if isinstance(row, (list, tuple)) else 1 for row in matrix)
    if entries > MAX_MATRIX_ENTRIES:
        raise UsageError(f"{where}: the matrix has {entries} entries; at most {MAX_MATRIX_ENTRIES} are audited (every entry is an exact fraction: a 200 x 200 matrix takes about 2 s, the cost grows with the entries and their denominators)")
    width = len(matrix[0]) if isinstance(matrix[0], (list, tuple)) else 0
    for i, row in enumerate(matrix):
        if not isinstance(row, (list, tuple)):
            raise UsageError(f"{where}: matrix row {i} is not a list of probabilities: {_shown(row)}")
        if not row:
            raise UsageError(f"{where}: matrix row {i} is empty; expected one probability per output")
        if len(row) != width:
            raise UsageError(f"{where}: matrix row {i} has {len(row)} entries; expected {width} like row 0 (one per output)")
        for j, entry in enumerate(row):
            if not isinstance(entry, (str, int, float, Fraction)) or isinstance(entry, bool):
                raise UsageError(f"{where}: matrix[{i}][{j}] = {_shown(entry)} is not a number (use 0.25 or \"1/4\")")
    for field_name, count, what in (("inputs", len(matrix), "row"), ("outputs", width, "column")):
        if document.get(field_name) is not None:
            document[field_name] = check_labels(field_name, document[field_name], count, what, printable=True)
    if document.get("removal_reference") is not None:
        document["removal_reference"] = _removal_reference(document["removal_reference"], width)
    return document


def _removal_reference(given: object, width: int) -> list[Fraction | float]:
    """R_0 of the file: a list of `width` probabilities (one per column, in the matrix's order) summing to 1."""
    if isinstance(given, tuple):
        given = list(given)
    if not isinstance(given, list) or len(given) != width:
        shown = f"{len(given)} entries" if isinstance(given, list) else _shown(given)
        raise ParameterError("removal_reference", shown, f"a list of {width} probabilities, one per column of the matrix")
    out: list[Fraction | float] = []
    for j, raw in enumerate(given):
        name = f"removal_reference[{j}]"
        if not isinstance(raw, (str, int, float, Fraction)) or isinstance(raw, bool):
            raise ParameterError(name, _shown(raw), 'a probability such as "0.25" or "1/4"')
        p = as_probability(raw, name)  # size-checked text (shuffle_spec.reference.core.limits)
        if isinstance(p, Fraction):
            check_exact_size(p, name)
        if (isinstance(p, float) and not math.isfinite(p)) or not 0 <= p <= 1:
            raise ParameterError(name, _shown(raw), "a probability in [0, 1]")
        out.append(p)
    total = sum(out, Fraction(0)) if all(isinstance(p, Fraction) for p in out) else math.fsum(out)
    if (isinstance(total, Fraction) and total != 1) or (isinstance(total, float) and abs(total - 1) > 1e-9):
        raise ParameterError("sum of removal_reference", _shown(total), "1 (R_0 is a probability distribution over the outputs)")
    return out


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
    # The tightest certified upper / largest certified lower bound and their ratio (shuffle_spec.proofs_checks.derived.blanket_exact_randomizer).
    gap: dict[str, Any] | None = None
    # Why `exact` is None at the given (n, delta): the enumeration's estimated work or time was over its limit.
    exact_reason: str = ""

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
            "gap": self.gap,
            "exact_reason": self.exact_reason,
        }


# Exact fractions are printed in full up to this many bits in their numerator or denominator (about 3,900
# digits: Python refuses to print integers of more than 4,300 digits); longer ones as "~" and 20 significant digits.
TEXT_MAX_BITS = 13_000


def _text(p: Fraction | float) -> str:
    """"p/q" (or "p") for an exact fraction, `str` for a float; a fraction too long to print in full (more than
    TEXT_MAX_BITS bits: exact values of many reports of a matrix with long denominators) is "~" followed by its
    value to 20 significant digits."""
    if not isinstance(p, Fraction):
        return str(p)
    if max(abs(p.numerator).bit_length(), p.denominator.bit_length()) > TEXT_MAX_BITS:
        with mpmath.workdps(30):
            return "~" + mpmath.nstr(mpmath.mpf(p.numerator) / p.denominator, 20)
    return f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)


def blanket(randomizer: Randomizer) -> tuple[Fraction | float, dict[Any, Fraction | float]]:
    """gamma = sum_y min_x P_x(y) and the blanket distribution omega(y) = min_x P_x(y) / gamma
    (BBGN19 Sec. 5.1, through `shuffle_spec.reference.finite.blanket`); omega is empty when gamma = 0 (no blanket)."""
    gamma = total_variation_similarity(randomizer)
    if gamma == 0:
        return gamma, {}
    omega = blanket_distribution(randomizer)
    return gamma, {y: omega[y] for y in randomizer.outputs}


def _sqrt_at_least(x: Fraction) -> Fraction:
    """The smallest multiple of 10^-6 that is >= sqrt(x), exactly (integer square root: no float, so no
    overflow for the ratio of a 1e-999 entry to a 1/2 one)."""
    scale = 10**6
    # sqrt(x) * scale = sqrt(num * den * scale^2) / den; round the integer square root up.
    target = x.numerator * x.denominator * scale * scale
    root = math.isqrt(target)
    if root * root < target:
        root += 1
    # root / den >= sqrt(x) * scale; round up to an integer multiple (a short witness to check).
    units = -(-root // x.denominator)
    return Fraction(units, scale)


def _exact_sqrt(x: Fraction) -> Fraction | None:
    """sqrt(x) when it is rational (numerator and denominator perfect squares), else None."""
    top, bottom = math.isqrt(x.numerator), math.isqrt(x.denominator)
    return Fraction(top, bottom) if top * top == x.numerator and bottom * bottom == x.denominator else None


def smallest_removal_ratio(randomizer: Randomizer) -> tuple[Fraction | float, Distribution | None]:
    """The smallest removal-LDP ratio over all reference distributions R_0 (EFMRSTT20 Def II.4), and a
    witness R_0 whose ratio is at most a rational just above it (None when every reference gives infinity).

    Both come from the reference (`shuffle_spec.reference.finite.removal_ldp`): the optimum's square
    `optimal_removal_e_eps_squared` and the witness `optimal_removal_reference`, built at a multiplier a >= the
    optimum: the optimum itself when it is rational, else the smallest multiple of 10^-6 above it (exact
    randomizers), or the float square root moved up until it squares to at least the optimum's square (float
    ones), so that the reference accepts it."""
    square = optimal_removal_e_eps_squared(randomizer)
    if square == math.inf:
        return math.inf, None
    if isinstance(square, Fraction):
        root = _exact_sqrt(square)
        if root is not None:
            return root, optimal_removal_reference(randomizer, root)
        a = _sqrt_at_least(square)
        try:
            optimum: Fraction | float = math.sqrt(square)
        except OverflowError:  # beyond the doubles (entries below 1e-308 next to large ones): the rational above it
            optimum = a
        return optimum, optimal_removal_reference(randomizer, a)
    optimum = multiplier = math.sqrt(square)
    while multiplier * multiplier < square:
        multiplier = math.nextafter(multiplier, math.inf)
    return optimum, optimal_removal_reference(randomizer, multiplier)


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


def exact_enumeration_work(randomizer: Randomizer, n: int) -> int:
    """The estimated work of `exact_small_n_epsilon` at n >= 1, in the units of
    `shuffle_spec.interface.limits.EXACT_WORK_LIMIT` (about 3 microseconds of one core each; the estimate is
    `shuffle_spec.reference.finite.enumeration.enumeration_work`)."""
    return enumeration_work(randomizer, n, limit=EXACT_WORK_LIMIT).units


def exact_enumeration_refusal(randomizer: Randomizer, n: int) -> str:
    """"" when `exact_small_n_epsilon` would run at n, else the reason it does not (one line, for reports)."""
    work = enumeration_work(randomizer, n, limit=EXACT_WORK_LIMIT)
    if work.units <= EXACT_WORK_LIMIT:
        return ""
    count = f"{work.operations:.3g}" if work.operations < 10**299 else "more than 1e+299"
    head = f"not computed: enumerating every pair of neighbouring datasets at n = {n} takes {count} exact operations"
    if not work.bits:  # the operations alone are over the limit (the size of the numbers was not needed)
        return f"{head}, over the limit of {EXACT_WORK_LIMIT:.0e} units of work (shuffle_spec.interface.limits.EXACT_WORK_LIMIT)"
    return (f"{head} on numbers of up to {int(work.bits * 0.30103) + 1} digits, about {work.units:.2g} units of work (operations x "
            f"size of the numbers); the limit is {EXACT_WORK_LIMIT:.0e} (shuffle_spec.interface.limits.EXACT_WORK_LIMIT)")


def _enumerate_exact(randomizer: Randomizer, n: int, delta: float) -> tuple[dict[str, Any] | None, str]:
    """(the exact value or None, the reason it is None): `exact_small_n_epsilon` with its reason. The
    enumeration itself is the reference's (`shuffle_spec.reference.finite.enumeration`); the audit adds the
    refusal before it starts, the time limit and the progress line."""
    refusal = exact_enumeration_refusal(randomizer, n)
    if refusal:
        return None, refusal

    def on_pair(done: int, total: int) -> None:
        progress(done, total, "exact: neighbouring datasets")

    try:
        with time_limit(EXACT_ENUMERATION_SECONDS):
            worst = exact_shuffled_e_eps_enumerated(randomizer, n, Fraction(delta), progress=on_pair)
    except TimeLimitExceeded:
        return None, f"not computed: the enumeration ran over {EXACT_ENUMERATION_SECONDS:g} s (shuffle_spec.interface.limits.EXACT_ENUMERATION_SECONDS)"
    method = "enumeration of all neighbouring datasets (shuffle_spec.reference.finite.shuffling)"
    return {"eps": safe_log(worst), "e_eps": _text(worst) if isinstance(worst, Fraction) else worst, "method": method}, ""


def exact_small_n_epsilon(randomizer: Randomizer, n: int, delta: float) -> dict[str, Any] | None:
    """The exact central epsilon of the shuffled randomizer at (n, delta) by enumerating every pair of
    neighbouring datasets (`shuffle_spec.reference.finite.shuffling`), or None when that is too much work: its estimate
    (`exact_enumeration_work`, the size of the numbers counted) is over EXACT_WORK_LIMIT, or it runs
    longer than EXACT_ENUMERATION_SECONDS (`exact_enumeration_refusal` gives the first reason)."""
    return _enumerate_exact(randomizer, n, delta)[0]


def audit_matrix(
    matrix: Sequence[Sequence[object]] | Mapping[str, Any],
    *,
    n: int | None = None,
    delta: float | None = None,
    removal_reference: Sequence[object] | None = None,
    name: str = "",
) -> RandomizerAudit:
    """Audit a finite randomizer (see the module docstring for the accepted forms and
    `shuffle_spec.interface.limits.MATRIX_LIMITS_TEXT` for the limits). n: an integer in [1, N_MAX]; delta: a number
    in [0, 1) (0: pure DP, the exact value only). Raises UsageError / ParameterError (one line, naming the
    field: a label, matrix[i][j], removal_reference[j]) for a malformed matrix."""
    if (n is None) != (delta is None):
        raise UsageError("give both n and delta for the shuffled bounds, or neither")
    if n is not None:
        if isinstance(n, bool) or not isinstance(n, int):
            raise ParameterError("n", _shown(n), "an integer 1 <= n (the number of users)")
        require_supported("n", n)
    if delta is not None and not (isinstance(delta, (int, float)) and not isinstance(delta, bool) and 0 <= delta < 1):
        raise ParameterError("delta", _shown(delta), "a number in [0, 1)")
    if isinstance(matrix, Mapping):
        document = dict(matrix)
    elif isinstance(matrix, (list, tuple)):
        document = {"matrix": list(matrix)}
    else:
        raise UsageError(f"randomizer: expected a list of rows or an object (a mapping) with a \"matrix\", got {type(matrix).__name__}")
    if removal_reference is not None:
        document["removal_reference"] = removal_reference
    document = _normalise_document(document, "randomizer")
    randomizer = Randomizer.from_matrix(document["matrix"], inputs=document.get("inputs"), outputs=document.get("outputs"))
    columns = list(document.get("outputs") or range(len(document["matrix"][0])))
    ratio = ldp_ratio(randomizer)
    reference_distribution: Distribution | None
    if document.get("removal_reference") is not None:
        reference_distribution = Distribution(dict(zip(columns, document["removal_reference"], strict=True)))
        kind = "given in the file"
        removal = safe_log(removal_ldp_ratio(randomizer, reference_distribution))
    else:
        _, witness = smallest_removal_ratio(randomizer)
        kind = "optimal (smallest removal epsilon over all reference distributions; see shuffle_spec.interface.audit.randomizer)"
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
    if len({tuple(row) for row in randomizer.matrix()}) == 1:
        # One input (k = 1) or equal rows (compared exactly): every dataset has the same shuffled output
        # distribution, so the central epsilon is exactly 0 at every n and delta. A verdict, not a problem.
        object.__setattr__(audit, "exact", {"eps": 0.0, "method": "0-DP: the output does not depend on the input (eps0 = 0), nor does the shuffled output"})
        return audit
    if not math.isfinite(eps0) or eps0 <= 0:
        why = "the randomizer is not eps0-LDP for any finite eps0" if eps0 > 0 else "the rows differ but no likelihood ratio exceeds 1 in floating point (eps0 = 0): give exact fractions"
        audit.problems.append(f"no amplification bound applies: {why}")
        return audit
    # Bounds are non-decreasing in eps0 and non-increasing in gamma, so the rounded-up eps0 and the
    # rounded-down gamma keep them upper bounds.
    extra: dict[str, float | int] = {"gamma": audit.gamma_float}
    # Three stages, each seconds at large n: the registered bounds, the exact value, the gap. The loops inside the
    # bounds and the gap (a bound's own bisection) are silenced, so that one bar counts the stages; the exact
    # enumeration shows its own (one step per neighbouring pair).
    stage = "audit randomizer: bounds, exact value, gap"
    report(stage, 0, 3)
    with silenced():
        rows = evaluate_bounds(eps0, n, delta, mechanism=GENERIC, extra=extra)
        mechanism_rows: list = []
        if audit.mechanism != GENERIC:
            mechanism_rows = evaluate_bounds(eps0, n, delta, mechanism=audit.mechanism, extra={**extra, "k": audit.k})
            if audit.mechanism == "binary_rr":
                mechanism_rows += evaluate_bounds(eps0, n, delta, mechanism="krr", extra={**extra, "k": 2})
    report(stage, 1, 3)
    if mechanism_rows:
        seen = {r.id for r in rows}
        for r in mechanism_rows:  # each id once, in order
            if r.id not in seen:
                seen.add(r.id)
                rows.append(r)
    audit.bounds.extend(r.to_json() for r in rows if _direction(r.id) is not Direction.EXACT)
    exact, reason = _enumerate_exact(randomizer, n, delta)  # a bar of its own: one step per neighbouring pair
    if exact is None and audit.mechanism != GENERIC:
        # A registered exact statement for the recognised mechanism (time-limited, like `bounds`).
        with silenced():
            exact = _registered_exact(eps0, n, delta, audit.mechanism, {"k": audit.k})
    report(stage, 2, 3)
    object.__setattr__(audit, "exact", exact)
    object.__setattr__(audit, "exact_reason", "" if exact is not None else reason)
    if exact is not None:
        for row in audit.bounds:
            if row["valid"] and _direction(row["id"]) is Direction.UPPER_BOUND and row["eps"] < _truth_lower(exact):
                audit.problems.append(f"{row['id']} gives {row['eps']!r} < exact {exact['eps']!r}: the bound is unsound here")
    with silenced():
        _with_gap(audit, randomizer, n, delta, eps0)
    report(stage, 3, 3)
    return audit


def _with_gap(audit: RandomizerAudit, randomizer: Randomizer, n: int, delta: float, eps0: float) -> None:
    """The gap between the tightest certified upper and the largest certified lower bound:
    the exact blanket bound and the pair lower bound of the matrix next to the registered rows."""
    from ..randomizer_gap import randomizer_gap

    gap = randomizer_gap(randomizer.matrix(), n=n, delta=delta, bound_rows=audit.bounds, exact=audit.exact, eps0=eps0)
    object.__setattr__(audit, "gap", gap.to_json())
    if gap.upper_eps is not None and gap.lower_eps is not None and gap.lower_eps > gap.upper_eps:
        audit.problems.append(f"certified lower bound {gap.lower_eps!r} ({gap.lower_id}) exceeds the certified upper bound {gap.upper_eps!r} ({gap.upper_id}): one of them is unsound")
    if audit.exact is not None:
        for row in gap.rows:
            truth = _truth_lower(audit.exact)
            if row["valid"] and row["direction"] == "upper_bound" and row["eps"] < truth:
                audit.problems.append(f"{row['id']} gives {row['eps']!r} < exact {audit.exact['eps']!r}: the bound is unsound here")
            if row["valid"] and row["direction"] == "lower_bound" and row["eps"] > audit.exact["eps"] * (1 + 1e-12):
                audit.problems.append(f"{row['id']} gives {row['eps']!r} > exact {audit.exact['eps']!r}: the lower bound is unsound here")


def _truth_lower(exact: dict[str, Any]) -> float:
    """What the exact value certifies the truth is at least: its interval's lower end when it has one (a
    registered certified exact statement), else its value rounded down by 16 ulps (an enumeration)."""
    return float(exact["interval"][0]) if exact.get("interval") else round_down(exact["eps"], 16)


# Seconds allowed to a registered exact statement in `audit randomizer` (as in `shuffle-spec bounds`).
EXACT_SECONDS = 20


def _registered_exact(eps0: float, n: int, delta: float, mechanism: str, extra: Mapping[str, Any]) -> dict[str, Any] | None:
    """The first registered exact statement about the shuffled `mechanism` valid at the point, time-limited."""
    given = {"eps0": eps0, "n": n, "delta": delta, **extra}
    for statement in list_statements():
        if statement.direction is not Direction.EXACT or not {"eps0", "n", "delta"} <= set(statement.input_names) <= set(given):
            continue
        if not ((statement.mechanism or GENERIC) == mechanism or (statement.id == EXACT_BINARY_RR_ID and mechanism == "binary_rr")):
            continue
        try:
            with in_process_time_limit(EXACT_SECONDS):
                item = evaluate(statement, {k: given[k] for k in statement.input_names})
        except InProcessTimeout:
            continue
        if item.valid and item.value is not None:
            # "interval": the certified [lower, upper] (eps is its upper end): checks and the gap use each end on its side.
            return {"eps": item.value, "method": f"{statement.id} at eps0 = {eps0!r}" + (f" ({item.reason})" if item.reason else ""),
                    "id": statement.id, "interval": None if item.interval is None else list(item.interval)}
    return None


def is_registered(statement_id: str) -> bool:
    return any(s.id == statement_id for s in list_statements())


def _direction(statement_id: str) -> Direction:
    return get_statement(statement_id).direction




