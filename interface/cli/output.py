"""Output helpers for the CLI: data on stdout (tables, JSON, CSV), progress and errors on stderr."""

from __future__ import annotations

import csv
import json
import math
import sys
from typing import Any, Iterable, Sequence

from ...reference.core.progress import report

__all__ = ["jsonable", "print_json", "print_table", "print_csv", "progress", "format_number", "holds_for"]

# Which randomizers a number holds for, as every listing labels it: a mechanism-specific value (the exact worst case
# of binary RR, a k-RR bound) is never a bound for another randomizer, so it is never shown without this label.
MECHANISM_LABELS = {"binary_rr": "binary RR only", "krr": "k-RR only", "laplace": "Laplace only"}
GENERIC_LABEL = "every eps0-LDP randomizer"


def holds_for(mechanism: str | None) -> str:
    """The label of a number's scope: `GENERIC_LABEL` for a generic statement (mechanism None or "generic"), else
    "<mechanism> only"."""
    if mechanism is None or mechanism == "generic":
        return GENERIC_LABEL
    return MECHANISM_LABELS.get(mechanism, f"{mechanism} only")


def jsonable(value: Any) -> Any:
    """`value` with every non-finite float (at any depth of dicts, lists and tuples) written as the string
    "inf", "-inf" or "nan": the JSON the CLI prints is strict JSON, which has no such numbers."""
    if isinstance(value, float) and not math.isfinite(value):
        return "inf" if value > 0 else ("-inf" if value < 0 else "nan")
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def print_json(obj) -> None:
    json.dump(jsonable(obj), sys.stdout, indent=2, sort_keys=False)
    sys.stdout.write("\n")


def format_number(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def print_table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    cells = [[format_number(c) for c in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    print(line.rstrip())
    print("  ".join("-" * w for w in widths))
    for r in cells:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())


def print_csv(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(headers)
    for row in rows:
        writer.writerow(["" if c is None else c for c in row])


def progress(done: int, total: int, label: str = "") -> None:
    """Report `done` of `total` steps of `label` to the progress listener (`reference.core.progress.report`): a
    tqdm bar on stderr when the command line installed one (`progress_bar.py`), nothing otherwise."""
    report(label, done, total)
