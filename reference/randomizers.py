"""Finite local randomizers as exact families of output distributions, and randomized response.

A `Randomizer` maps each input to a `Distribution` over a common output set. Randomized response is
parametrised by `e_eps0 = e^{eps0}` so that an exact instance has rational probabilities.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable, Hashable, ItemsView, Mapping, Sequence

from shuffle_spec.reference.distributions import Distribution, Probability, as_probability
from shuffle_spec.reference.errors import ParameterError, require_integer, require_positive

__all__ = [
    "Randomizer",
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

        Entries may be ints, Fractions, floats or "p/q" / decimal strings. Errors name the row and
        column: ragged rows, negatives, non-numbers and rows not summing to 1 are all rejected.
        """
        if len(rows) == 0:
            raise ParameterError("matrix", rows, "at least one row")
        width = len(rows[0])
        if width == 0:
            raise ParameterError("matrix row 0", rows[0], "at least one column")
        inputs = list(range(len(rows))) if inputs is None else list(inputs)
        outputs = list(range(width)) if outputs is None else list(outputs)
        if len(inputs) != len(rows):
            raise ParameterError("inputs", inputs, f"{len(rows)} labels, one per row")
        if len(outputs) != width or len(set(outputs)) != width:
            raise ParameterError("outputs", outputs, f"{width} distinct labels, one per column")
        table = {}
        for i, row in enumerate(rows):
            if len(row) != width:
                raise ParameterError(f"matrix row {i}", list(row), f"{width} entries like row 0 (ragged matrix)")
            entries = []
            for j, raw in enumerate(row):
                p = as_probability(raw, f"matrix[{i}][{j}]")
                if isinstance(p, float) and not math.isfinite(p):
                    raise ParameterError(f"matrix[{i}][{j}]", raw, "a finite number in [0, 1]")
                if p < 0 or p > 1:
                    raise ParameterError(f"matrix[{i}][{j}]", raw, "a number in [0, 1]")
                entries.append(p)
            total = sum(entries, Fraction(0)) if all(isinstance(p, Fraction) for p in entries) else math.fsum(entries)
            if (isinstance(total, Fraction) and total != 1) or (isinstance(total, float) and abs(total - 1) > 1e-9):
                raise ParameterError(f"sum of matrix row {i}", total, "1 (each row is a probability distribution)")
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
