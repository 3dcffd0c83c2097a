"""Finite local randomizers as exact families of output distributions, and randomized response.

A `Randomizer` maps each input to a `Distribution` over a common output set. Randomized response is
parametrised by `e_eps0 = e^{eps0}` so that an exact instance has rational probabilities.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import Any, Callable, Hashable, ItemsView, Mapping, Sequence

from .distributions import Distribution, Probability, as_probability
from ..core.errors import ParameterError, require_integer, require_positive
from ..core.limits import MATRIX_DENOMINATOR_LCM_MAX_DIGITS, MATRIX_ENTRY_MAX_DIGITS

__all__ = [
    "Randomizer",
    "check_common_denominator",
    "check_exact_size",
    "check_labels",
    "binary_randomized_response",
    "k_randomized_response",
    "e_eps_from_eps",
]

Input = Hashable
Output = Hashable


class Randomizer:
    """A finite randomizer: input -> output distribution, all over one output set."""

    __slots__ = ("_table",)

    def __init__(self, table: Mapping[Any, Distribution]):  # Any: dict is invariant in its keys
        if not table:
            raise ParameterError("randomizer", table, "at least one input")
        for x, dist in table.items():
            if not isinstance(dist, Distribution):
                raise ParameterError(f"output distribution of input {x!r}", dist, "a Distribution")
        self._table: dict[Input, Distribution] = dict(table)

    @classmethod
    def from_matrix(
        cls,
        rows: Sequence[Sequence[object]],
        *,
        inputs: Sequence[Input] | None = None,
        outputs: Sequence[Output] | None = None,
    ) -> "Randomizer":
        """From a row-stochastic matrix (rows inputs, columns outputs).

        Entries may be ints, Fractions, floats or "p/q" / decimal strings; an exact entry's numerator and
        denominator have at most `shuffle_spec.reference.core.limits.MATRIX_ENTRY_MAX_DIGITS` digits (strings are checked before
        any number is built) and the least common multiple of the denominators at most
        MATRIX_DENOMINATOR_LCM_MAX_DIGITS. Labels (`check_labels`): one per row / column, hashable, no two
        equal (a repeated input label would make one row replace another). Errors name the row and column:
        ragged rows, negatives, non-numbers and rows not summing to 1 are all rejected.
        """
        if hasattr(rows, "tolist"):  # a numpy array: plain lists of numbers
            rows = rows.tolist()
        if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence) or len(rows) == 0:
            raise ParameterError("matrix", _short(rows), "a non-empty list of rows (one per input)")
        rows = [row.tolist() if hasattr(row, "tolist") else row for row in rows]
        first = rows[0]
        if isinstance(first, (str, bytes)) or not isinstance(first, Sequence) or len(first) == 0:
            raise ParameterError("matrix row 0", _short(first), "a non-empty list of probabilities (at least one column)")
        width = len(first)
        inputs = list(range(len(rows))) if inputs is None else check_labels("inputs", inputs, len(rows), "row")
        outputs = list(range(width)) if outputs is None else check_labels("outputs", outputs, width, "column")
        parsed: list[list[Probability]] = []
        for i, row in enumerate(rows):
            if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) != width:
                shown = f"{len(row)} entries" if isinstance(row, Sequence) and not isinstance(row, (str, bytes)) else _short(row)
                raise ParameterError(f"matrix row {i}", shown, f"{width} entries like row 0 (ragged matrix)")
            entries = []
            for j, raw in enumerate(row):
                p = as_probability(raw, f"matrix[{i}][{j}]")
                if isinstance(p, float) and not math.isfinite(p):
                    raise ParameterError(f"matrix[{i}][{j}]", raw, "a finite number in [0, 1]")
                if isinstance(p, Fraction):
                    check_exact_size(p, f"matrix[{i}][{j}]")
                if p < 0 or p > 1:
                    raise ParameterError(f"matrix[{i}][{j}]", _short(raw), "a number in [0, 1]")
                entries.append(p)
            parsed.append(entries)
        # Before any sum: an exact sum of entries has a denominator dividing their least common multiple.
        check_common_denominator(parsed, "matrix")
        table = {}
        for i, entries in enumerate(parsed):
            total = sum(entries, Fraction(0)) if all(isinstance(p, Fraction) for p in entries) else math.fsum(entries)
            if isinstance(total, Fraction) and total != 1:  # exact entries: exactly 1, what every matrix reader requires
                shown = _short_number(total)
                raise ParameterError(f"sum of matrix row {i}", f"{total.numerator}/{total.denominator}" if shown is total else shown,
                                     'exactly 1 (each row is a probability distribution; write its entries as exact decimals or fractions '
                                     'such as "1/3" that sum to 1)')
            if isinstance(total, float) and abs(total - 1) > 1e-9:  # a row holding a float: 1 up to float rounding
                raise ParameterError(f"sum of matrix row {i}", _short_number(total), "1 (each row is a probability distribution)")
            table[inputs[i]] = Distribution(zip(outputs, entries, strict=True))
        return cls(table)

    @property
    def inputs(self) -> tuple[Input, ...]:
        return tuple(self._table)

    @property
    def outputs(self) -> tuple[Output, ...]:
        """Every output with positive probability under some input, in first-seen order."""
        seen: dict[Output, None] = {}
        for dist in self._table.values():
            for y in dist:
                seen.setdefault(y, None)
        return tuple(seen)

    @property
    def is_exact(self) -> bool:
        return all(d.is_exact for d in self._table.values())

    def __call__(self, x: Input) -> Distribution:
        try:
            return self._table[x]
        except KeyError:
            raise ParameterError("input", x, f"one of the randomizer's inputs {list(self._table)}") from None

    def items(self) -> ItemsView[Input, Distribution]:
        return self._table.items()

    def matrix(self) -> list[list[Probability]]:
        """Rows indexed by `inputs`, columns by `outputs`."""
        outs = self.outputs
        return [[self._table[x][y] for y in outs] for x in self._table]

    def post_process(self, function: Callable[[Output], Output]) -> "Randomizer":
        """The randomizer followed by a deterministic map of its output."""
        return Randomizer({x: d.map(function) for x, d in self._table.items()})

    def __repr__(self) -> str:
        return f"Randomizer(inputs={list(self._table)}, outputs={list(self.outputs)})"


# Integer labels are those of a JSON document or a report: at most 64-bit (printable, portable).
LABEL_INTEGER_LIMIT = 2**63


def _short(value: object, limit: int = 60) -> object:
    """`value` itself when its repr is short, else a short description (errors stay one readable line)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value).bit_length() > 150:
        return f"an integer of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
    if isinstance(value, Fraction):
        return _short_number(value)
    try:
        text = repr(value)
    except ValueError:  # an object whose repr would print a huge integer
        return f"a {type(value).__name__}"
    if len(text) <= limit:
        return value
    if isinstance(value, str):
        return f"{value[:limit // 2]}... ({len(value)} characters)"
    return f"{text[:limit - 3]}..."


def _short_number(value: Fraction | float) -> object:
    if isinstance(value, Fraction) and max(abs(value.numerator).bit_length(), value.denominator.bit_length()) > 150:
        return f"a fraction of about {int(max(abs(value.numerator).bit_length(), value.denominator.bit_length()) * 0.30103) + 1} digits (~{float(value) if abs(value) < 10**300 else math.inf:.6g})"
    return value


def check_labels(field: str, labels: object, count: int, what: str, *, printable: bool = False) -> list[Any]:
    """The labels of a matrix's rows (`field` "inputs", `what` "row") or columns ("outputs", "column"),
    checked: a sequence (list, tuple, range) of exactly `count` labels, each hashable, no two equal (a repeated label would
    make two rows one: the second would silently replace the first). With `printable` (the labels of a
    randomizer file or of a report): each a string or an integer with |label| < 2^63 (never null, true/false,
    a fraction, a list or an object) and no two printed alike (1 and "1"). Returns the labels as a list
    (integers as `int`). ParameterError naming `field[i]`, the label and the position it repeats."""
    if hasattr(labels, "tolist"):  # a numpy array
        labels = labels.tolist()
    if isinstance(labels, (str, bytes)) or not isinstance(labels, Sequence):
        raise ParameterError(field, _short(labels), f"a list of {count} labels, one per {what}")
    if len(labels) != count:
        raise ParameterError(field, f"{len(labels)} labels", f"{count} labels, one per {what}")
    out: list[Any] = []
    seen: dict[Any, int] = {}
    for i, label in enumerate(labels):
        where = f"{field}[{i}]"
        if printable:
            if isinstance(label, bool) or not isinstance(label, (str, numbers.Integral)):
                raise ParameterError(where, _short(label), "a label: a string or an integer (not null, true/false, a fraction, a list or an object)")
            if not isinstance(label, str):
                label = int(label)
                if not -LABEL_INTEGER_LIMIT <= label < LABEL_INTEGER_LIMIT:
                    raise ParameterError(where, _short(label), "a label: a string or an integer with |label| < 2^63")
            key: Any = str(label)
        else:
            try:
                hash(label)
            except TypeError:
                raise ParameterError(where, _short(label), "a hashable label (a string, a number or a tuple), not a list, a set or a dict") from None
            key = label
        if key in seen:
            j = seen[key]
            if type(out[j]) is type(label) and out[j] == label:
                why = f"a label not used before ({field}[{j}] = {_short(out[j])!r}; each {what} needs its own label)"
            elif printable:
                why = f"a label printed differently from {field}[{j}] = {_short(out[j])!r} (both print as {_short(key)!r}; each {what} needs its own label)"
            else:
                why = f"a label different from {field}[{j}] = {_short(out[j])!r} (equal labels are one key: each {what} needs its own label)"
            raise ParameterError(where, _short(label), why)
        seen[key] = i
        out.append(label)
    return out


_ENTRY_BOUND = 10**MATRIX_ENTRY_MAX_DIGITS


def check_exact_size(value: Fraction, name: str) -> None:
    """ParameterError unless the numerator and the denominator of `value` have at most
    `shuffle_spec.reference.core.limits.MATRIX_ENTRY_MAX_DIGITS` digits (an entry given as a number, not as text)."""
    if abs(value.numerator) >= _ENTRY_BOUND or value.denominator >= _ENTRY_BOUND:
        raise ParameterError(name, _short_number(value), f"a number whose numerator and denominator have at most {MATRIX_ENTRY_MAX_DIGITS} digits each")


def check_common_denominator(rows: Sequence[Sequence[object]], name: str) -> None:
    """ParameterError when the least common multiple of the denominators of the exact entries of `rows` has
    more than `shuffle_spec.reference.core.limits.MATRIX_DENOMINATOR_LCM_MAX_DIGITS` digits (checked while it is built: it stops
    at the first denominator that takes it over). Every exact sum of entries has a denominator dividing it."""
    bound = 10**MATRIX_DENOMINATOR_LCM_MAX_DIGITS
    common = 1
    for denominator in {p.denominator for row in rows for p in row if isinstance(p, Fraction)}:
        if common % denominator:
            common = common // math.gcd(common, denominator) * denominator
            if common >= bound:
                raise ParameterError(
                    name, "entries over many different denominators",
                    f"entries whose denominators have a least common multiple of at most {MATRIX_DENOMINATOR_LCM_MAX_DIGITS} digits "
                    "(shuffle_spec.reference.core.limits.MATRIX_DENOMINATOR_LCM_MAX_DIGITS: exact sums of entries are over it)",
                )


def e_eps_from_eps(eps0: float) -> float:
    """e^{eps0} as a float, rejecting eps0 <= 0."""
    require_positive("eps0", eps0)
    return math.exp(eps0)


def _check_e_eps0(e_eps0: object) -> Fraction | float:
    if isinstance(e_eps0, bool) or not isinstance(e_eps0, (int, float, Fraction)):
        raise ParameterError("e_eps0", e_eps0, "a number e^eps0 > 1")
    if not e_eps0 > 1 or (isinstance(e_eps0, float) and not math.isfinite(e_eps0)):
        raise ParameterError("e_eps0", e_eps0, "a finite e^eps0 > 1 (eps0 > 0)")
    return Fraction(e_eps0) if isinstance(e_eps0, int) else e_eps0


def k_randomized_response(k: int, e_eps0: Fraction | float) -> Randomizer:
    """k-ary randomized response on {0, ..., k-1}: keep x w.p. e/(e+k-1), else each other value w.p. 1/(e+k-1).

    Its replacement LDP epsilon is exactly log(e_eps0) (BBGN19 Sec. 3; FMT21 Thm 2.3's randomizer).
    """
    require_integer("k", k, minimum=2)
    e = _check_e_eps0(e_eps0)
    k = int(k)
    denominator = e + k - 1
    keep, other = e / denominator, 1 / denominator if isinstance(e, float) else Fraction(1) / denominator
    return Randomizer(
        {x: Distribution({y: (keep if y == x else other) for y in range(k)}) for x in range(k)}
    )


def binary_randomized_response(e_eps0: Fraction | float) -> Randomizer:
    """Binary randomized response on {0, 1}: k-ary randomized response with k = 2."""
    return k_randomized_response(2, e_eps0)
