"""Output helpers for the CLI: data on stdout (tables, JSON, CSV), progress and errors on stderr."""

from __future__ import annotations

import csv
import json
import math
import sys
from typing import Any, Iterable, Sequence

__all__ = ["jsonable", "print_json", "print_table", "print_csv", "progress", "format_number"]


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
    """A progress line on stderr, only when stderr is a terminal."""
    if sys.stderr.isatty():
        end = "\n" if done >= total else ""
        sys.stderr.write(f"\r{label} {done}/{total}{end}")
        sys.stderr.flush()
