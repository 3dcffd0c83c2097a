"""Gap table of the structured randomizers (`shuffle_spec.reference.randomizers`): the certified upper bound, the
certified lower bound, their ratio and the seconds per call, at eps0 in {0.5, 1, 2, 4, 8}, n in {1e3, 1e4, 1e5,
1e6}, delta = 1e-6, two domain sizes (d = 1e3 and 1e6), replace-one.

    PYTHONPATH=. python3 benchmarks/randomizers.py            # computes (appends to benchmarks/RANDOMIZERS.jsonl)
    PYTHONPATH=. python3 benchmarks/randomizers.py --table    # writes benchmarks/RANDOMIZERS_RESULTS.md from it
    PYTHONPATH=. python3 benchmarks/randomizers.py --lower    # recomputes the lower bounds only (RANDOMIZERS_LOWER.jsonl)

`--lower` recomputes the lower-bound column of the points already computed (largest eps0 first) into
RANDOMIZERS_LOWER.jsonl; the table takes a point's lower bound and its seconds from there when it has one (the
upper bound is untouched), so the lower side can improve without recomputing the upper side.

The unary encodings, local hashing and Hadamard response have closed forms that do not depend on d (for d >= 4),
so they are computed once and their row holds for both domain sizes (Duchi's and the piecewise mechanism have no
domain: real inputs in [-1, 1]); subset selection depends on d (through
k = ceil(d / (e^eps0 + 1)) and the membership probabilities) and is computed at both. Points already in the JSONL
file are skipped, so an interrupted run resumes. Times are wall-clock seconds on the shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from shuffle_spec.reference.randomizers import RANDOMIZERS

ROOT = Path(__file__).resolve().parent
DATA = ROOT / "RANDOMIZERS.jsonl"
TABLE = ROOT / "RANDOMIZERS_RESULTS.md"
LOWER = ROOT / "RANDOMIZERS_LOWER.jsonl"
EPS0 = (0.5, 1.0, 2.0, 4.0, 8.0)
NS = (10**3, 10**4, 10**5, 10**6)
DELTA = 1e-6
DOMAINS = (10**3, 10**6)
PLAN = (("rappor", None), ("oue", None), ("olh", None), ("blh", None), ("hadamard", None), ("subset", 10**3), ("subset", 10**6), ("duchi", None), ("piecewise", None))


def _done() -> set[tuple[str, int, float, int]]:
    if not DATA.exists():
        return set()
    return {(r["name"], r["d"], r["eps0"], r["n"]) for r in map(json.loads, DATA.read_text().splitlines()) if r}


def compute() -> None:
    done = _done()
    # n outermost, then eps0, then the mechanisms: an interrupted run has every mechanism at the smaller n.
    for n in NS:
        for eps0 in EPS0:
            for name, domain in PLAN:
                d = domain if domain is not None else DOMAINS[-1]
                entry = RANDOMIZERS[name]
                if (name, d, eps0, n) in done:
                    continue
                extra = {"d": d} if entry.parameters else {}
                start = time.perf_counter()
                upper = entry.upper(eps0=eps0, n=n, delta=DELTA, **extra)
                middle = time.perf_counter()
                lower = entry.lower(eps0=eps0, n=n, delta=DELTA, **extra)
                end = time.perf_counter()
                row = {"name": name, "d": d, "any_d": domain is None, "eps0": eps0, "n": n, "delta": DELTA, "upper": upper.value, "upper_note": upper.note,
                       "lower": lower.value, "upper_seconds": round(middle - start, 2), "lower_seconds": round(end - middle, 2)}
                with DATA.open("a") as handle:
                    handle.write(json.dumps(row) + "\n")
                print(json.dumps(row), flush=True)


def _lower_rows() -> dict[tuple[str, int, float, int], dict[str, object]]:
    if not LOWER.exists():
        return {}
    return {(r["name"], r["d"], r["eps0"], r["n"]): r for r in map(json.loads, LOWER.read_text().splitlines()) if r}


def compute_lower() -> None:
    done = _lower_rows()
    points = [json.loads(line) for line in DATA.read_text().splitlines() if line]
    # eps0 descending, then n, then the mechanisms: the large-eps0 cells (where the gap is) first.
    points.sort(key=lambda r: (-r["eps0"], r["n"], [name for name, _ in PLAN].index(r["name"])))
    for r in points:
        key = (r["name"], r["d"], r["eps0"], r["n"])
        if key in done:
            continue
        entry = RANDOMIZERS[r["name"]]
        extra = {"d": r["d"]} if entry.parameters else {}
        start = time.perf_counter()
        lower = entry.lower(eps0=r["eps0"], n=r["n"], delta=r["delta"], **extra)
        row = {"name": r["name"], "d": r["d"], "eps0": r["eps0"], "n": r["n"], "lower": lower.value, "lower_note": lower.note,
               "lower_seconds": round(time.perf_counter() - start, 2), "lower_before": r["lower"]}
        with LOWER.open("a") as handle:
            handle.write(json.dumps(row) + "\n")
        print(json.dumps(row), flush=True)


def table() -> str:
    rows = sorted((json.loads(line) for line in DATA.read_text().splitlines() if line), key=lambda r: ([name for name, _ in PLAN].index(r["name"]), r["d"], r["eps0"], r["n"]))
    newer = _lower_rows()
    for r in rows:
        again = newer.get((r["name"], r["d"], r["eps0"], r["n"]))
        if again is not None:
            r["lower"], r["lower_seconds"] = again["lower"], again["lower_seconds"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        "# Structured randomizers: certified gap (generated by benchmarks/randomizers.py --table)",
        "",
        f"delta = {DELTA:g}, replace-one. upper: certified upper bound (BBGN19.Lem5.3.exact_* of the mechanism); lower: certified",
        "lower bound (exact.*_pattern_pair, exact.piecewise_partition_pair); ratio = upper / lower; seconds per call (upper, lower) on the shared machine",
        f"(load average when the table was written: {load:.1f}). `any d`: the closed forms do not depend on d >= 4, so the",
        "row holds for both domain sizes (1e3 and 1e6). `eps0*`: no amplification provable, eps0 returned.",
    ]
    if newer:
        lines += [
            "",
            f"Lower bounds and their seconds at {sum(1 for r in rows if (r['name'], r['d'], r['eps0'], r['n']) in newer)} of {len(rows)} points: recomputed by `--lower`",
            "(RANDOMIZERS_LOWER.jsonl, with the third bit kept apart and Hadamard's dependent triple; each row there also",
            "keeps the lower bound it replaces, `lower_before`); upper bounds and their seconds: the earlier run.",
        ]
    lines += [
        "",
        "| mechanism | d | eps0 | n | upper | lower | ratio | seconds (upper, lower) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        star = "*" if "no amplification" in r["upper_note"] else ""
        d = "none" if r["name"] in ("duchi", "piecewise") else "any d" if r["any_d"] else f"{r['d']:.0e}"
        ratio = r["upper"] / r["lower"] if r["lower"] > 0 else float("inf")
        lines.append(f"| {r['name']} | {d} | {r['eps0']:g} | {r['n']:.0e} | {r['upper']:.6g}{star} | {r['lower']:.6g} | {ratio:.4f} | {r['upper_seconds']:.1f}, {r['lower_seconds']:.1f} |")
    have = {(r["name"], r["d"], r["eps0"], r["n"]) for r in rows}
    missing = [f"{name}{'' if domain is None else f' d={domain:.0e}'} eps0={eps0:g} n={n:.0e}" for n in NS for eps0 in EPS0 for name, domain in PLAN
               if (name, domain if domain is not None else DOMAINS[-1], eps0, n) not in have]
    if missing:
        lines += ["", f"Not computed in the run this table comes from ({len(missing)} of {len(NS) * len(EPS0) * len(PLAN)} points): " + "; ".join(missing) + "."]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--table", action="store_true", help="write the markdown table from the computed points")
    parser.add_argument("--lower", action="store_true", help="recompute the lower bounds of the computed points")
    args = parser.parse_args()
    if args.lower:
        compute_lower()
    elif args.table:
        TABLE.write_text(table())
        print(TABLE.read_text())
    else:
        compute()


if __name__ == "__main__":
    main()
