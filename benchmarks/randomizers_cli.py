"""CPU and wall-clock seconds of the `tightest` CLI per structured randomizer and the Laplace mechanism, on the gap
table's grid: eps0 in {0.5, 1, 2, 4, 8}, n in {1e3, 1e4, 1e5, 1e6}, delta = 1e-6, d = 1e6 (subset selection also
d = 1e3, the only mechanism whose bounds depend on d >= 4; `--small-d` runs d = 1e3 for the others too; Duchi's
mechanism, the piecewise mechanism and Laplace take no d); `--extra`: the points off the grid at d = 1e9, eps0 = 8,
n = 1e8 (the cost guards).

    nice -n 5 python3 benchmarks/randomizers_cli.py --label before --root /tmp/old   # another checkout: /tmp/old/shuffle_spec
    PYTHONPATH=. python3 benchmarks/randomizers_cli.py --label before        # appends to benchmarks/RANDOMIZERS_CLI.jsonl
    PYTHONPATH=. python3 benchmarks/randomizers_cli.py --label after --only subset piecewise --eps0 1 8 --n 1e4 1e6
    PYTHONPATH=. python3 benchmarks/randomizers_cli.py --table before after  # writes benchmarks/RANDOMIZERS_CLI_RESULTS.md
    PYTHONPATH=. python3 benchmarks/randomizers_cli.py --upper-grid          # in-process upper bounds of subset selection
                                                                              # and the piecewise mechanism on the whole grid
    PYTHONPATH=. python3 benchmarks/randomizers_cli.py --upper-table         # writes benchmarks/RANDOMIZERS_UPPER_AIMED.md
    nice -n 5 python3 benchmarks/randomizers_cli.py --slowest structured-speed2 15 --root /tmp/old   # prints only
    nice -n 5 python3 benchmarks/randomizers_cli.py --label trial --data /tmp/trial.jsonl   # a run kept out of the repository

`--slowest LABEL K` measures the K points of LABEL with the most CPU seconds again, each as two CLI calls (`--root`'s
checkout, when given, then the installed one, interleaved so that both see the same load) and in-process (the
installed registry's upper and lower bound, or `tightest` for Laplace, CPU seconds each): one JSON line per point on
stdout, nothing written (the lead regenerates the committed files on an idle machine).

`--upper-grid` computes, in-process, the certified upper bounds of the two mechanisms whose upper-bound evaluation
changed (subset selection: raised or four-group evaluation, aimed searches; piecewise: aimed search) at every grid
point, next to the value and seconds recorded in benchmarks/RANDOMIZERS.jsonl (the previous code's), into
benchmarks/RANDOMIZERS_UPPER_AIMED.jsonl; `--upper-table` writes their comparison.

Each point is one subprocess `python -m shuffle_spec tightest --randomizer R ... --json` (start-up, every statement the
command evaluates, the certified upper and lower bounds): the number a user waits for. Its CPU seconds (the child's
user + system time, from resource.getrusage) are recorded beside the wall clock, and the 1-minute load average before
each call (the machine is shared: a load above the 2 cores inflates the wall clock, much less the CPU seconds). A call that
exceeds the timeout is recorded as such (seconds = the timeout, no values). Points already in the file under the same
label are skipped, so an interrupted run resumes. `--data PATH` reads and appends another file instead of
benchmarks/RANDOMIZERS_CLI.jsonl (a trial run, or one on a loaded machine, kept out of the committed data); `--table`
then writes its table beside it (PATH with the suffix .md), not the committed one. The table compares two labels point by point: seconds, and the
certified upper end and lower end with their relative change (after / before - 1).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DATA = ROOT / "RANDOMIZERS_CLI.jsonl"
TABLE = ROOT / "RANDOMIZERS_CLI_RESULTS.md"
EPS0 = (0.5, 1.0, 2.0, 4.0, 8.0)
NS = (10**3, 10**4, 10**5, 10**6)
DELTA = 1e-6
PLAN: tuple[tuple[str, int | None], ...] = (
    ("rappor", 10**6), ("oue", 10**6), ("olh", 10**6), ("blh", 10**6), ("hadamard", 10**6),
    ("subset", 10**3), ("subset", 10**6), ("duchi", None), ("piecewise", None), ("laplace", None),
)
# d = 1e3 for the mechanisms whose bounds do not depend on d >= 4 (the same numbers, the same work): `--small-d`.
SMALL_D: tuple[tuple[str, int | None], ...] = (("rappor", 10**3), ("oue", 10**3), ("olh", 10**3), ("blh", 10**3), ("hadamard", 10**3))
UPPER = ROOT / "RANDOMIZERS_UPPER_AIMED.jsonl"
UPPER_TABLE = ROOT / "RANDOMIZERS_UPPER_AIMED.md"
UPPER_PLAN: tuple[tuple[str, int | None], ...] = (("piecewise", None), ("subset", 10**3), ("subset", 10**6))
TIMEOUT = 180.0
TARGET = 2.0
CPU_TARGET = 1.5  # CPU seconds per call: what keeps the wall clock under TARGET on an idle machine
# Points off the grid (`--extra`): the largest domain and n, where one lattice sum costs seconds (the cost guards).
EXTRA: tuple[tuple[str, int | None, float, int], ...] = tuple(
    (name, 10**9, 8.0, 10**8) for name in ("rappor", "oue", "olh", "blh", "hadamard", "subset")
)


def _rows() -> list[dict[str, object]]:
    if not DATA.exists():
        return []
    return [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]


def _key(r: dict[str, object]) -> tuple[object, ...]:
    return (r["label"], r["name"], r["d"], r["eps0"], r["n"])


def run_point(name: str, d: int | None, eps0: float, n: int, root: str | None = None) -> dict[str, object]:
    command = [sys.executable, "-m", "shuffle_spec", "tightest", "--randomizer", name, "--eps0", repr(eps0), "--n", str(n), "--delta", repr(DELTA), "--json"]
    if d is not None:
        command += ["--d", str(d)]
    load = os.getloadavg()[0]
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        env = None if root is None else {**os.environ, "PYTHONPATH": root}  # another checkout: DIR/shuffle_spec
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, check=False, env=env, cwd=root)
    except subprocess.TimeoutExpired:
        return {"seconds": TIMEOUT, "timeout": True, "load": load}
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the child's user + system seconds: what the call costs, whatever the load
    cpu = (after.ru_utime - used.ru_utime) + (after.ru_stime - used.ru_stime)
    row: dict[str, object] = {"seconds": round(seconds, 3), "cpu": round(cpu, 3), "timeout": False, "load": round(load, 2), "exit": done.returncode}
    if done.returncode == 0:
        out = json.loads(done.stdout)
        row.update(upper=out["upper"]["eps"], upper_id=out["upper"]["id"], lower=(out.get("lower") or {}).get("eps"),
                   lower_id=(out.get("lower") or {}).get("id"))
    else:
        row["error"] = done.stderr.strip().splitlines()[-1:] or [""]
    return row


def compute(label: str, only: list[str] | None, eps0s: tuple[float, ...] = EPS0, ns: tuple[int, ...] = NS, root: str | None = None, extra: bool = False, small_d: bool = False) -> None:
    done = {_key(r) for r in _rows()}
    if extra:
        for name, d, eps0, n in EXTRA:
            base = {"label": label, "name": name, "d": d, "eps0": eps0, "n": n}
            if (only and name not in only) or _key(base) in done:
                continue
            row = {**base, **run_point(name, d, eps0, n, root)}
            with DATA.open("a") as handle:
                handle.write(json.dumps(row) + "\n")
            print(json.dumps(row), flush=True)
        return
    for name, d in SMALL_D if small_d else PLAN:
        if only and name not in only:
            continue
        for eps0 in eps0s:
            for n in ns:
                base = {"label": label, "name": name, "d": d, "eps0": eps0, "n": n}
                if _key(base) in done:
                    continue
                row = {**base, **run_point(name, d, eps0, n, root)}
                with DATA.open("a") as handle:
                    handle.write(json.dumps(row) + "\n")
                print(json.dumps(row), flush=True)


def _fmt(x: object) -> str:
    return "-" if x is None else f"{x:.7g}"


def _change(a: object, b: object) -> str:
    if not isinstance(a, float) or not isinstance(b, float) or a == 0:
        return "-"
    return f"{b / a - 1:+.2e}"


# The certified searches' relative tolerance (`reference.randomizers.structured.EPS_REL_TOL`): an end may land on
# another certified point within it, either way, when the search's path changes.
SEARCH_TOLERANCE = 1e-3


def _moved(before: object, after: object, side: str) -> str:
    """`=` when the certified end is the same float, `safe` when it moved the safe way (an upper end up, a lower end
    down), `tol` the other way by at most the search tolerance (another certified point of the search), `UNSAFE`
    beyond it; `-` when either run has no number."""
    if not isinstance(before, float) or not isinstance(after, float):
        return "-"
    if after == before:
        return "="
    if (after > before) == (side == "upper"):
        return "safe"
    return "tol" if abs(after - before) <= SEARCH_TOLERANCE * abs(before) else "UNSAFE"


def _seconds(row: dict[str, object] | None, key: str) -> str:
    if row is None:
        return "-"
    if row.get("timeout"):
        return f"timeout ({TIMEOUT:g} s)"
    value = row.get(key)
    return "-" if value is None else f"{float(value):.2f}"  # type: ignore[arg-type]


def table(before: str, after: str) -> str:
    rows = {_key(r): r for r in _rows()}
    chosen = [r for r in rows.values() if r["label"] in (before, after)]
    loads = [float(r["load"]) for r in chosen if "load" in r]  # type: ignore[arg-type]
    lines = [
        f"# `tightest --randomizer R`: CPU and wall-clock seconds, `{before}` and `{after}` (generated by benchmarks/randomizers_cli.py --table)",
        "",
        f"One subprocess per point (start-up included), delta = {DELTA:g}, replace-one, on the shared 2-core machine, run under `nice`.",
        "CPU = the child's user + system seconds (what the call costs whatever else runs; the wall clock on a loaded",
        f"machine is mostly waiting); load = the 1-minute load average before the call (from {min(loads, default=0):.1f} to {max(loads, default=0):.1f} in these",
        "runs: the wall seconds say little about an idle machine, and even CPU seconds run 10-30% higher under such load",
        "(shared caches)). upper / lower: the certified ends `tightest` reports (its tightest certified upper bound and largest",
        f"certified lower bound); change = {after} / {before} - 1; moved: `=` the same float, `safe` an upper end up or a lower",
        f"end down, `tol` the other way by at most the search tolerance {SEARCH_TOLERANCE:g} relative (each end is a certified",
        f"point of its own search), `UNSAFE` beyond it. Target: {TARGET:g} s wall on an idle machine, i.e. at most {CPU_TARGET:g} s of CPU (and at most",
        f"{TARGET:g} s of CPU under load).",
        "",
        f"| mechanism | d | points in both | CPU s {before} (median, max) | CPU s {after} (median, max) | over {CPU_TARGET:g} s CPU ({before}, {after}) | over {TARGET:g} s CPU ({before}, {after}) | wall s {before} (median, max) | wall s {after} (median, max) | load (max) | moved (upper, lower) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    detail = [
        "",
        f"| mechanism | d | eps0 | n | upper {before} | upper {after} | change | moved | lower {before} | lower {after} | change | moved | CPU s ({before}, {after}) | wall s ({before}, {after}) | load ({before}, {after}) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    plan = PLAN + SMALL_D + tuple((name, d) for name, d, _, _ in EXTRA if (name, d) not in PLAN)
    for name, d in plan:
        points = [(e, n) for e in EPS0 for n in NS] + [(e, n) for x, dd, e, n in EXTRA if (x, dd) == (name, d)]
        pairs = [(rows.get((before, name, d, e, n)), rows.get((after, name, d, e, n)), e, n) for e, n in points]
        pairs = [p for p in pairs if p[0] is not None or p[1] is not None]
        if not pairs:
            continue

        def summary(side: list[dict[str, object]], key: str) -> str:
            secs = sorted(float(r.get(key, TIMEOUT) if not r.get("timeout") else TIMEOUT) for r in side)  # type: ignore[arg-type]
            return "-" if not secs else f"{secs[len(secs) // 2]:.2f}, {secs[-1]:.2f}"

        both = [p for p in pairs if p[0] is not None and p[1] is not None and (p[0].get("cpu") is not None or p[0].get("timeout"))]  # the summary compares the same points
        b_side = [p[0] for p in both if p[0] is not None]
        a_side = [p[1] for p in both if p[1] is not None]
        dd = "none" if d is None else f"{d:.0e}"
        if both:
            def over(side: list[dict[str, object]], limit: float = CPU_TARGET) -> int:
                return sum(1 for r in side if r.get("timeout") or float(r.get("cpu", 0.0)) > limit)  # type: ignore[arg-type]

            def moves(side: str, b_side: list[dict[str, object]] = b_side, a_side: list[dict[str, object]] = a_side) -> str:
                marks = [_moved(b.get(side), a.get(side), side) for b, a in zip(b_side, a_side, strict=True)]
                return ", ".join(f"{marks.count(m)} {m}" for m in ("=", "safe", "tol", "UNSAFE", "-") if marks.count(m))

            load = max(float(r["load"]) for r in b_side + a_side)  # type: ignore[arg-type]
            lines.append(f"| {name} | {dd} | {len(both)} | {summary(b_side, 'cpu')} | {summary(a_side, 'cpu')} | {over(b_side)}, {over(a_side)} | "
                         f"{over(b_side, TARGET)}, {over(a_side, TARGET)} | {summary(b_side, 'seconds')} | {summary(a_side, 'seconds')} | {load:.1f} | "
                         f"{moves('upper')}; {moves('lower')} |")
        for b, a, e, n in pairs:
            bu, au = (b or {}).get("upper"), (a or {}).get("upper")
            bl, al = (b or {}).get("lower"), (a or {}).get("lower")
            bload = "-" if b is None else f"{float(b['load']):.1f}"  # type: ignore[arg-type]
            aload = "-" if a is None else f"{float(a['load']):.1f}"  # type: ignore[arg-type]
            detail.append(f"| {name} | {dd} | {e:g} | {n:.0e} | {_fmt(bu)} | {_fmt(au)} | {_change(bu, au)} | {_moved(bu, au, 'upper')} | {_fmt(bl)} | {_fmt(al)} | {_change(bl, al)} | {_moved(bl, al, 'lower')} | "
                          f"{_seconds(b, 'cpu')}, {_seconds(a, 'cpu')} | {_seconds(b, 'seconds')}, {_seconds(a, 'seconds')} | {bload}, {aload} |")
    return "\n".join(lines + detail) + "\n"


def upper_grid() -> None:
    from shuffle_spec.reference.randomizers import RANDOMIZERS

    previous = {(r["name"], None if r["name"] == "piecewise" else r["d"], r["eps0"], r["n"]): r for r in map(json.loads, (ROOT / "RANDOMIZERS.jsonl").read_text().splitlines()) if r}
    done = {(r["name"], r["d"], r["eps0"], r["n"]) for r in map(json.loads, UPPER.read_text().splitlines())} if UPPER.exists() else set()
    for name, d in UPPER_PLAN:
        for eps0 in EPS0:
            for n in NS:
                if (name, d, eps0, n) in done:
                    continue
                load = os.getloadavg()[0]
                start = time.perf_counter()
                value = RANDOMIZERS[name].upper(eps0=eps0, n=n, delta=DELTA, **({"d": d} if d else {}))
                seconds = time.perf_counter() - start
                before = previous.get((name, d, eps0, n), {})
                row = {"name": name, "d": d, "eps0": eps0, "n": n, "upper": value.upper, "note": value.note, "seconds": round(seconds, 2), "load": round(load, 2),
                       "upper_before": before.get("upper"), "seconds_before": before.get("upper_seconds")}
                with UPPER.open("a") as handle:
                    handle.write(json.dumps(row) + "\n")
                print(json.dumps(row), flush=True)


def upper_table() -> str:
    rows = [json.loads(line) for line in UPPER.read_text().splitlines() if line.strip()]
    load = max(float(r.get("load", 0.0)) for r in rows)
    lines = [
        "# Upper bounds of subset selection and the piecewise mechanism, aimed searches (generated by benchmarks/randomizers_cli.py --upper-table)",
        "",
        f"delta = {DELTA:g}, replace-one; in-process seconds per upper bound on the shared 2-core machine (1-minute load average up to {load:.1f}",
        "during the run; `before`: the value and seconds of benchmarks/RANDOMIZERS.jsonl, the previous code under other loads).",
        "change = after / before - 1 of the certified upper end: negative = tighter; positive = the aimed search stopped at",
        "another certified point within its 1e-3 tolerance (looser, the safe side). `raised`: the value comes from the raised",
        "evaluation (BBGN19.Lem5.3.exact_raised, one group raised; its delta bounds BBGN19.Lem5.3.exact_subset's).",
        "",
        "| mechanism | d | points | seconds before (median, max) | seconds after (median, max) | change (min, max) |",
        "|---|---|---|---|---|---|",
    ]
    detail = ["", "| mechanism | d | eps0 | n | upper before | upper after | change | seconds (before, after) |", "|---|---|---|---|---|---|---|---|"]
    for name, d in UPPER_PLAN:
        sel = [r for r in rows if r["name"] == name and r["d"] == d]
        if not sel:
            continue
        before = sorted(float(r["seconds_before"]) for r in sel if r["seconds_before"] is not None)
        after = sorted(float(r["seconds"]) for r in sel)
        changes = [r["upper"] / r["upper_before"] - 1 for r in sel if r["upper_before"]]
        dd = "none" if d is None else f"{d:.0e}"
        lines.append(f"| {name} | {dd} | {len(sel)} | {before[len(before) // 2]:.2f}, {before[-1]:.2f} | {after[len(after) // 2]:.2f}, {after[-1]:.2f} | {min(changes):+.2e}, {max(changes):+.2e} |")
        for r in sorted(sel, key=lambda r: (r["eps0"], r["n"])):
            tag = " (raised)" if "raised" in r["note"] else ""
            detail.append(f"| {name} | {dd} | {r['eps0']:g} | {r['n']:.0e} | {_fmt(r['upper_before'])} | {_fmt(r['upper'])}{tag} | {_change(r['upper_before'], r['upper'])} | {float(r['seconds_before']):.2f}, {float(r['seconds']):.2f} |")
    return "\n".join(lines + detail) + "\n"


def slowest(label: str, count: int, root: str | None) -> None:
    rows = sorted((r for r in _rows() if r["label"] == label and r.get("cpu") is not None), key=lambda r: -float(r["cpu"]))  # type: ignore[arg-type]
    from shuffle_spec.interface.tightest import tightest
    from shuffle_spec.reference.randomizers import RANDOMIZERS

    for r in rows[:count]:
        name, d, eps0, n = str(r["name"]), r["d"], float(r["eps0"]), int(r["n"])  # type: ignore[arg-type, call-overload]
        out: dict[str, object] = {"name": name, "d": d, "eps0": eps0, "n": n, "recorded_cpu": r["cpu"]}
        if root is not None:
            out["cli_root"] = run_point(name, d, eps0, n, root)  # type: ignore[arg-type]
        out["cli"] = run_point(name, d, eps0, n)  # type: ignore[arg-type]
        extra = {} if d is None else {"d": d}
        if name == "laplace":
            start = time.process_time()
            tightest(randomizer="laplace", eps0=eps0, n=n, delta=DELTA, skip_dominated=True)
            out["in_process"] = {"tightest": round(time.process_time() - start, 3)}
        else:
            seconds = {}
            for side in ("upper", "lower"):
                start = time.process_time()
                getattr(RANDOMIZERS[name], side)(eps0=eps0, n=n, delta=DELTA, **extra)
                seconds[side] = round(time.process_time() - start, 3)
            out["in_process"] = seconds
        out["load"] = round(os.getloadavg()[0], 2)
        print(json.dumps(out), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--label", default="run", help="the label of this run's rows (e.g. before, after)")
    parser.add_argument("--only", nargs="*", help="mechanism names to run (default: all)")
    parser.add_argument("--eps0", nargs="*", type=float, help="eps0 values to run (default: the grid's)")
    parser.add_argument("--n", nargs="*", type=float, help="n values to run (default: the grid's)")
    parser.add_argument("--small-d", action="store_true", help="d = 1e3 for the mechanisms whose bounds do not depend on d >= 4 (SMALL_D) instead of the grid")
    parser.add_argument("--extra", action="store_true", help="the points off the grid (EXTRA: d = 1e9, eps0 = 8, n = 1e8) instead of the grid")
    parser.add_argument("--root", help="measure another checkout: DIR holds the package as DIR/shuffle_spec (default: the installed one)")
    parser.add_argument("--upper-grid", action="store_true", help="in-process upper bounds of subset selection and the piecewise mechanism on the grid")
    parser.add_argument("--upper-table", action="store_true", help="write the table of --upper-grid")
    parser.add_argument("--slowest", nargs=2, metavar=("LABEL", "K"), help="measure the K slowest points of LABEL again, by CLI and in-process (prints only)")
    parser.add_argument("--data", help="the JSON-lines file of the runs (default: benchmarks/RANDOMIZERS_CLI.jsonl)")
    parser.add_argument("--table", nargs=2, metavar=("BEFORE", "AFTER"), help="write the comparison table of two labels")
    args = parser.parse_args()
    if args.data:
        global DATA
        DATA = Path(args.data)
    if args.slowest:
        slowest(args.slowest[0], int(args.slowest[1]), args.root)
    elif args.upper_grid:
        upper_grid()
    elif args.upper_table:
        UPPER_TABLE.write_text(upper_table())
        print(UPPER_TABLE.read_text())
    elif args.table:
        target = Path(args.data).with_suffix(".md") if args.data else TABLE  # beside a --data file, never the committed table
        target.write_text(table(*args.table))
        print(target.read_text())
    else:
        compute(args.label, args.only, tuple(args.eps0) if args.eps0 else EPS0, tuple(int(n) for n in args.n) if args.n else NS, args.root, args.extra, args.small_d)


if __name__ == "__main__":
    main()
