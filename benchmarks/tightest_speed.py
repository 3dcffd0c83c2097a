"""Wall clock of `shuffle-spec tightest` over the k-RR grid (target 0.5 s per call at n <= 1e8), and its values.

Run from the repository root:

    nice -n 5 python3 benchmarks/tightest_speed.py [--repeat 3] [--root DIR] [--json OUT] [--before BEFORE.json] [--profile] [--warm] [--write]

Each point is a fresh process `python3 -m shuffle_spec tightest ... --json` (what a user or a CI loop pays:
interpreter start-up, imports and the computation), timed by the wall clock, best of `--repeat` runs (the best
run is the one least disturbed by other processes on a shared machine); the CPU seconds (user + system) of that
run are recorded beside it. The grid: k-RR with k in {2, 10, 100}, eps0 in {0.5, 1, 4, 8}, n in {1e4, 1e6,
1e8}, delta in {1e-6, 1e-9}; and one line each for the Laplace mechanism and the structured randomizers at
eps0 = 1, n = 1e4, delta = 1e-6 (target 2 s).

The values printed by each call (the tightest certified upper bound and the largest certified lower bound, with
their statement ids) are kept: `--before BEFORE.json` (the `--json` output of a run on another checkout) adds
the before/after comparison of times and values, and flags every upper bound that moved down by more than the
solver's tolerance or lower bound that moved up by more (the certified ends may move only within the search
tolerance or to the safe side).

`--profile` adds where the time of one call goes (k = 10, eps0 = 1, delta = 1e-6, n = 1e4, 1e6, 1e8): the import of
the front door and each statement's seconds in a fresh process (as the command computes: with the costly candidates
that cannot win skipped, each such test listed as "test <id>"), the seconds spent in root searches (every certified
eps search, `solve_certified_epsilon`, with its delta evaluations), and the import of scipy.special alone.

`--warm` adds the computation alone: in ONE process per checkout, each k-RR point's `tightest(..., skip_dominated=True)`
(what the command computes) called once to warm up (imports, caches of other points stay), then the best CPU seconds
(`time.process_time`) of `--repeat` further calls: the part of a call that start-up and imports do not explain.

`--from-json RUN.json` reports an earlier run's measurements (and, with `--profile`, adds a profile of `--root` measured
now: a run's profile can thus be added to its JSON afterwards).

`--root DIR` measures another checkout: DIR holds the package as its folder shuffle_spec (e.g.
`mkdir -p DIR/shuffle_spec && git archive <commit> | tar -x -C DIR/shuffle_spec`); by default the installed
(editable) package of this checkout. `--write` writes `benchmarks/TIGHTEST_SPEED.md` with the load average at
the start and end of the run. Measurements on this machine, never asserted by tests.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
KS = (2, 10, 100)
EPS0S = (0.5, 1.0, 4.0, 8.0)
NS = (10**4, 10**6, 10**8)
DELTAS = (1e-6, 1e-9)
KRR_TARGET = 0.5
OTHER_TARGET = 2.0
OTHERS = (
    # (label, arguments): one point each, eps0 = 1, n = 1e4, delta = 1e-6
    ("laplace", ["--randomizer", "laplace"]),
    ("rappor, d = 1000", ["--randomizer", "rappor", "--d", "1000"]),
    ("oue, d = 1000", ["--randomizer", "oue", "--d", "1000"]),
    ("blh, d = 1000", ["--randomizer", "blh", "--d", "1000"]),
    ("olh, d = 1000", ["--randomizer", "olh", "--d", "1000"]),
    ("hadamard, d = 1000", ["--randomizer", "hadamard", "--d", "1000"]),
    ("subset, d = 1000", ["--randomizer", "subset", "--d", "1000"]),
    ("piecewise", ["--randomizer", "piecewise"]),
)
# The k-RR bounds' search tolerance (relative, on eps): a certified end may move by this much either way when the
# search stops at another evaluated point (BBGN19.Lem5.3.exact_krr and the pair lower bounds use 3e-4).
SEARCH_TOLERANCE = 3e-4


PROFILE_CHILD = """
import json, sys, time
start = time.process_time()
from shuffle_spec.interface import tightest as front
from shuffle_spec.proofs_checks import bridge
imported = time.process_time() - start
seconds = {}
# The root searches (every certified eps search goes through solve_certified_epsilon, with the delta evaluations it makes).
searching = {"seconds": 0.0, "depth": 0}
try:
    from shuffle_spec.reference.numerics import solver
    solve = solver.solve_certified_epsilon
    def solve_timed(*args, **kwargs):
        searching["depth"] += 1
        begin = time.process_time()
        try:
            return solve(*args, **kwargs)
        finally:
            searching["depth"] -= 1
            if searching["depth"] == 0:
                searching["seconds"] += time.process_time() - begin
    solver.solve_certified_epsilon = solve_timed
    for module in list(sys.modules.values()):  # the modules that imported it by name (those loaded later import the timed one)
        if getattr(module, "__name__", "").startswith("shuffle_spec") and getattr(module, "solve_certified_epsilon", None) is solve:
            module.solve_certified_epsilon = solve_timed
except ImportError:
    pass
evaluate = bridge.evaluate
def timed(statement, inputs, *args, **kwargs):
    begin = time.process_time()
    try:
        return evaluate(statement, inputs, *args, **kwargs)
    finally:
        seconds[statement.id] = time.process_time() - begin
front.evaluate = timed
cannot_beat = getattr(front, "_cannot_beat", None)  # the command's tests of the costly candidates (absent before)
def tested(statement_id, *args):
    begin = time.process_time()
    try:
        return cannot_beat(statement_id, *args)
    finally:
        seconds["test " + statement_id] = time.process_time() - begin
if cannot_beat is not None:
    front._cannot_beat = tested
k, eps0, n, delta = int(sys.argv[1]), float(sys.argv[2]), int(float(sys.argv[3])), float(sys.argv[4])
# What the command computes: the costly candidates that cannot win are skipped (where the checkout has the option).
options = {"skip_dominated": True} if cannot_beat is not None else {}
begin = time.process_time()
front.tightest(randomizer="krr", k=k, eps0=eps0, n=n, delta=delta, **options)
total = time.process_time() - begin
print(json.dumps({"imports": imported, "total": total, "statements": seconds, "scipy": "scipy.special" in sys.modules, "searches": searching["seconds"]}))
"""
PROFILE_POINTS = ((10, 1.0, 10**4, 1e-6), (10, 1.0, 10**6, 1e-6), (10, 1.0, 10**8, 1e-6))
WARM_CHILD = """
import json, sys, time
from shuffle_spec.interface import tightest as front
points, repeat = json.loads(sys.argv[1]), int(sys.argv[2])
options = {"skip_dominated": True} if hasattr(front, "_cannot_beat") else {}
seconds = {}
for label, k, eps0, n, delta in points:
    front.tightest(randomizer="krr", k=k, eps0=eps0, n=n, delta=delta, **options)  # warm-up: imports, this point's caches
    runs = []
    for _ in range(repeat):
        begin = time.process_time()
        front.tightest(randomizer="krr", k=k, eps0=eps0, n=n, delta=delta, **options)
        runs.append(time.process_time() - begin)
    seconds[label] = min(runs)
print(json.dumps(seconds))
"""
SCIPY_IMPORT = "import time, numpy, mpmath; start = time.process_time(); import scipy.special; print(time.process_time() - start)"


def profile(root: Path) -> dict:
    """Where the time of one k-RR `tightest` goes (k = 10, eps0 = 1, delta = 1e-6, n = 1e4, 1e6, 1e8): in a fresh
    process, the CPU seconds (this process's, so that other processes on a shared machine do not count) of importing
    the front door and of each statement's evaluation (the first statement that
    needs a module pays its import: FMT21.clones_numeric pays scipy.special's), best of 2 runs by total; and the
    CPU seconds of `import scipy.special` after NumPy and mpmath (best of 3)."""
    python = sys.executable
    points = []
    for k, eps0, n, delta in PROFILE_POINTS:
        runs = [json.loads(subprocess.run([python, "-c", PROFILE_CHILD, str(k), str(eps0), str(n), str(delta)], cwd=root, env=_env(root),
                                          capture_output=True, text=True, check=True).stdout) for _ in range(2)]
        points.append({"k": k, "eps0": eps0, "n": n, "delta": delta, **min(runs, key=lambda r: r["total"])})
    scipy = min(float(subprocess.run([python, "-c", SCIPY_IMPORT], cwd=root, env=_env(root), capture_output=True, text=True, check=True).stdout) for _ in range(3))
    return {"points": points, "scipy_special_import": scipy}


def warm(root: Path, repeat: int, only: str | None = None) -> dict:
    """The warm in-process CPU seconds of each k-RR point (`--warm`, module doc), in one fresh process."""
    chosen = [(label, int(arguments[3]), float(arguments[5]), int(float(arguments[7])), float(arguments[9]))
              for label, arguments, _ in points() if label.startswith("krr") and (only is None or only in label)]
    done = subprocess.run([sys.executable, "-c", WARM_CHILD, json.dumps(chosen), str(max(repeat, 1))], cwd=root, env=_env(root),
                          capture_output=True, text=True, check=True)
    found: dict = json.loads(done.stdout)
    return found


def _env(root: Path) -> dict[str, str]:
    # Byte code is written (PYTHONDONTWRITEBYTECODE dropped: a shell that sets it would make every fresh process
    # compile the package again, ~0.1 s): a best run reads it, as an installed package does.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPATH": str(root)}


def _run(arguments: list[str], root: Path) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds of the child, its JSON answer) of one fresh `tightest --json` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "shuffle_spec", "tightest", *arguments, "--json"], cwd=root, env=_env(root),
                          capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), json.loads(done.stdout)


def _ends(answer: dict) -> dict:
    """The certified ends of a `tightest --json` answer (both of its JSON forms: the gap's and `certify`'s)."""
    upper, lower = answer.get("upper") or {}, answer.get("lower") or {}
    return {"upper_id": upper.get("id"), "upper": upper.get("eps"), "lower_id": lower.get("id"), "lower": lower.get("eps")}


def points() -> list[tuple[str, list[str], float]]:
    out = []
    for k in KS:
        for eps0 in EPS0S:
            for n in NS:
                for delta in DELTAS:
                    label = f"krr k={k} eps0={eps0:g} n={n:.0e} delta={delta:g}"
                    out.append((label, ["--randomizer", "krr", "--k", str(k), "--eps0", f"{eps0:g}", "--n", f"{n:.0e}", "--delta", f"{delta:g}"], KRR_TARGET))
    for label, arguments in OTHERS:
        out.append((f"{label} eps0=1 n=1e+04 delta=1e-06", [*arguments, "--eps0", "1", "--n", "1e4", "--delta", "1e-6"], OTHER_TARGET))
    return out


def measure(root: Path, repeat: int, only: str | None = None, with_profile: bool = False, with_warm: bool = False) -> dict:
    load_start = "/".join(f"{x:.2f}" for x in os.getloadavg())
    found = profile(root) if with_profile else None
    in_process = warm(root, repeat, only) if with_warm else None
    rows = []
    for label, arguments, target in points():
        if only is not None and only not in label:
            continue
        runs = [_run(arguments, root) for _ in range(repeat)]
        wall, cpu, answer = min(runs, key=lambda r: r[0])
        rows.append({"label": label, "wall": wall, "cpu": cpu, "target": target, **_ends(answer)})
        print(f"{label}: {wall:.3f} s wall ({cpu:.3f} s CPU)", file=sys.stderr, flush=True)
    load_end = "/".join(f"{x:.2f}" for x in os.getloadavg())
    return {"root": str(root), "repeat": repeat, "load": [load_start, load_end], "rows": rows, "profile": found, "warm": in_process}


def _moved(before: float | None, after: float | None, side: str) -> str:
    """How a certified end moved: 'safe' (up for an upper end, down for a lower), 'tol' (within the search tolerance
    on the other side), 'UNSAFE' (beyond it), '=' (identical) or '-' (missing)."""
    if before is None or after is None:
        return "-"
    if after == before:
        return "="
    safe = after > before if side == "upper" else after < before
    if safe:
        return "safe"
    return "tol" if abs(after - before) <= SEARCH_TOLERANCE * 1.01 * abs(before) else "UNSAFE"


def report(result: dict, before: dict | None = None, note: str = "") -> str:
    previous = {row["label"]: row for row in before["rows"]} if before else {}
    out = [
        "# `shuffle-spec tightest` wall clock (`python3 benchmarks/tightest_speed.py --write`)",
        "",
        *([note, ""] if note else []),
        f"Machine: `uname -m` = {platform.machine()}, `nproc` = {os.cpu_count()}, python {platform.python_version()}. Load average "
        f"(1/5/15 min) {result['load'][0]} at the start, {result['load'][1]} at the end; best of {result['repeat']} fresh processes per "
        "point (wall seconds; the CPU seconds of the same run beside it). Targets: k-RR 0.5 s, the others 2 s.",
    ]
    if before:
        out += ["", f"Before: the same grid on `{before['root']}` (load {before['load'][0]} / {before['load'][1]}). Value columns: how the "
                "certified ends moved (`=` identical, `safe` up for the upper bound / down for the lower bound, `tol` the other way "
                f"by at most the search tolerance {SEARCH_TOLERANCE:g} relative, `UNSAFE` beyond it)."]
    head = "| point | wall s | CPU s | target s | upper | lower |"
    rule = "|---|---|---|---|---|---|"
    if before:
        head = "| point | wall s (before) | CPU s (before) | target s | upper (before) | moved | lower (before) | moved |"
        rule = "|---|---|---|---|---|---|---|---|"
    out += ["", head, rule]
    for row in result["rows"]:
        up = "-" if row["upper"] is None else f"{row['upper']:.7g} ({row['upper_id']})"
        low = "-" if row["lower"] is None else f"{row['lower']:.7g} ({row['lower_id']})"
        old = previous.get(row["label"])
        if old is None:
            out.append(f"| {row['label']} | {row['wall']:.3f} | {row['cpu']:.3f} | {row['target']:g} | {up} | {low} |" if not before else
                       f"| {row['label']} | {row['wall']:.3f} | {row['cpu']:.3f} | {row['target']:g} | {up} | - | {low} | - |")
            continue
        old_up = "-" if old["upper"] is None else f"{old['upper']:.7g}"
        old_low = "-" if old["lower"] is None else f"{old['lower']:.7g}"
        out.append(f"| {row['label']} | {row['wall']:.3f} ({old['wall']:.3f}) | {row['cpu']:.3f} ({old['cpu']:.3f}) | {row['target']:g} | "
                   f"{up} ({old_up}) | {_moved(old['upper'], row['upper'], 'upper')} | {low} ({old_low}) | {_moved(old['lower'], row['lower'], 'lower')} |")
    for name, found in (("before", (before or {}).get("profile")), ("this checkout", result.get("profile"))):
        if not found:
            continue
        out += ["", f"Where the time goes, {name} (k = 10, eps0 = 1, delta = 1e-6; in-process CPU seconds of one fresh process, best "
                f"of 2; `import scipy.special` after NumPy and mpmath: {found['scipy_special_import']:.3f} s CPU):", "",
                "| n | import of the front door | all statements | of which root searches | slowest statements (s) | scipy.special loaded |", "|---|---|---|---|---|---|"]
        for point in found["points"]:
            slowest = sorted(point["statements"].items(), key=lambda item: -item[1])[:5]
            listed = ", ".join(f"{statement} {value:.3f}" for statement, value in slowest)
            searches = "-" if point.get("searches") is None else f"{point['searches']:.3f}"
            out.append(f"| {point['n']:.0e} | {point['imports']:.3f} | {point['total']:.3f} | {searches} | {listed} | {'yes' if point['scipy'] else 'no'} |")
    warm_now, warm_before = result.get("warm") or {}, (before or {}).get("warm") or {}
    if warm_now:
        out += ["", f"The computation alone (`--warm`): CPU seconds of a warm in-process `tightest(..., skip_dominated=True)`, best of "
                f"{result['repeat']} calls after one warm-up, one process per checkout{'; before in parentheses' if warm_before else ''}:", "",
                "| point | warm CPU s |", "|---|---|"]
        for label, seconds in warm_now.items():
            old_seconds = warm_before.get(label)
            out.append(f"| {label} | {seconds:.3f}{'' if old_seconds is None else f' ({old_seconds:.3f})'} |")
        line = f"Warm CPU seconds: sum {sum(warm_now.values()):.3f}, max {max(warm_now.values()):.3f}"
        common = [label for label in warm_now if label in warm_before]
        if common:
            line += (f" (the same points before: sum {sum(warm_before[label] for label in common):.3f}, "
                     f"max {max(warm_before[label] for label in common):.3f}; now {sum(warm_now[label] for label in common):.3f})")
        out.append(line + ".")
    krr = [row for row in result["rows"] if row["label"].startswith("krr")]
    if krr:
        met = sum(row["wall"] <= row["target"] for row in krr)
        out += ["", f"k-RR: {met} of {len(krr)} points within {KRR_TARGET:g} s wall; slowest {max(row['wall'] for row in krr):.3f} s."]
        for n in NS:
            label = f"n={n:.0e}"
            cells = [row for row in krr if f" {label} " in row["label"]]
            if not cells:  # `--only` left this n out
                continue
            line = f"k-RR at {label}: CPU seconds per call, median {statistics.median(r['cpu'] for r in cells):.3f}, max {max(r['cpu'] for r in cells):.3f}"
            old = [previous[r["label"]] for r in cells if r["label"] in previous]
            if old:
                line += f" (before: median {statistics.median(r['cpu'] for r in old):.3f}, max {max(r['cpu'] for r in old):.3f})"
            out.append(line + ".")
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HERE.parent, help="the checkout to measure (default: this one)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default=None, help="only the points whose label contains this text")
    parser.add_argument("--json", type=Path, default=None, help="write the raw measurements here")
    parser.add_argument("--before", type=Path, default=None, help="a --json file of another checkout: before/after columns")
    parser.add_argument("--write", action="store_true", help="write benchmarks/TIGHTEST_SPEED.md")
    parser.add_argument("--profile", action="store_true", help="also where the time of three k-RR calls goes (in-process seconds)")
    parser.add_argument("--warm", action="store_true", help="also the warm in-process CPU seconds of each k-RR point (the computation alone)")
    parser.add_argument("--note", default="", help="a paragraph printed under the title (what was compared, when)")
    parser.add_argument("--from-json", type=Path, default=None, help="report a --json file of an earlier run instead of measuring "
                        "(with --profile: its profile measured now)")
    args = parser.parse_args()
    if args.from_json is not None:
        result = json.loads(args.from_json.read_text())
        if args.profile:
            result["profile"] = profile(args.root.resolve())
    else:
        result = measure(args.root.resolve(), args.repeat, args.only, args.profile, args.warm)
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    before = json.loads(args.before.read_text()) if args.before is not None else None
    text = report(result, before, args.note)
    if args.write:
        (HERE / "TIGHTEST_SPEED.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
