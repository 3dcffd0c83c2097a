"""Start-up and first-call cost of `shuffle-spec tightest`: what every call pays before and around its computation.

Run from the repository root:

    nice -n 5 python3 benchmarks/startup.py [--repeat 7] [--root DIR ...] [--note TEXT] [--write] [-- TIGHTEST ARGUMENTS]

For one point (default: k-RR, k = 10, eps0 = 0.5, n = 1e8, delta = 1e-6), for each checkout (`--root DIR`, the package
as DIR/shuffle_spec, as `benchmarks/tightest_speed.py` takes it; default this checkout), the runs alternating between
checkouts so that a change of load hits both:
- fresh: a fresh `python3 -m shuffle_spec tightest ... --json` process, wall and CPU seconds (user + system) and page
  faults (minor), best of `--repeat` by wall (the CPU and faults of that run; their medians beside them);
- in one fresh child run as the program runs (`main()` with `sys.argv`, so with the program's process settings): CPU
  seconds of importing the command line, of the first call (its lazy imports, per-process set-up and the point's caches
  included) and of a second call at the same point (warm), and the first call's page faults; best of `--repeat` runs;
- overhead: fresh wall minus the second call's wall (what a fresh process pays beyond the warm computation), and the
  same in CPU seconds (less disturbed by other processes on a loaded machine).
`python3 -c pass` is measured beside them (the interpreter alone). Measurements on this machine, never asserted by
tests; on a shared machine compare checkouts within one run. `--write` writes `benchmarks/STARTUP.md` (included in
`docs/benchmarks/speed.md`).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_POINT = ["--randomizer", "krr", "--k", "10", "--eps0", "0.5", "--n", "1e8", "--delta", "1e-6"]

CHILD = """
import contextlib, io, json, resource, sys, time
def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
start = time.process_time()
from shuffle_spec.interface.cli.main import main
imported = time.process_time() - start
sys.argv = ["shuffle-spec", "tightest", *sys.argv[1:], "--json"]
calls = []
for _ in range(2):
    cpu, wall, before = time.process_time(), time.perf_counter(), faults()
    with contextlib.redirect_stdout(io.StringIO()):
        main()
    calls.append({"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall, "faults": faults() - before})
print(json.dumps({"import": imported, "first": calls[0], "second": calls[1]}))
"""


def _env(root: Path) -> dict[str, str]:
    # Byte code is written and read (as an installed package's is): a shell's PYTHONDONTWRITEBYTECODE would make every
    # fresh process compile the package again.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPATH": str(root)}


def _fresh(root: Path, arguments: list[str]) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, *arguments], cwd=root, env=_env(root), capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"wall": wall, "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "system": after.ru_stime - before.ru_stime, "faults": after.ru_minflt - before.ru_minflt}


def _in_process(root: Path, point: list[str]) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, *point], cwd=root, env=_env(root), capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def measure(roots: list[Path], point: list[str], repeat: int) -> dict:
    fresh: dict[str, list[dict]] = {str(r): [] for r in roots}
    inside: dict[str, list[dict]] = {str(r): [] for r in roots}
    bare: list[dict] = []
    for root in roots:  # warm-up: byte code written, files in the page cache
        _fresh(root, ["-m", "shuffle_spec", "tightest", *point, "--json"])
    for _ in range(repeat):
        bare.append(_fresh(roots[0], ["-c", "pass"]))
        for root in roots:
            fresh[str(root)].append(_fresh(root, ["-m", "shuffle_spec", "tightest", *point, "--json"]))
            inside[str(root)].append(_in_process(root, point))
    load = "/".join(f"{x:.2f}" for x in os.getloadavg())
    out = {"point": point, "repeat": repeat, "load_at_end": load, "python_pass_wall": min(r["wall"] for r in bare), "roots": {}}
    for root in map(str, roots):
        best = min(fresh[root], key=lambda r: r["wall"])
        second = min(r["second"]["wall"] for r in inside[root])
        out["roots"][root] = {
            "fresh": best,
            "fresh_median": {key: statistics.median(r[key] for r in fresh[root]) for key in ("wall", "cpu", "system", "faults")},
            "import_cpu": min(r["import"] for r in inside[root]),
            "first_cpu": min(r["first"]["cpu"] for r in inside[root]),
            "second_cpu": min(r["second"]["cpu"] for r in inside[root]),
            "first_faults": statistics.median(r["first"]["faults"] for r in inside[root]),
            "second_wall": second,
            "overhead_wall": best["wall"] - second,
            "overhead_cpu": best["cpu"] - min(r["second"]["cpu"] for r in inside[root]),
        }
    return out


def report(result: dict, note: str = "") -> str:
    lines = ["# Start-up and first call of `shuffle-spec tightest` (`python3 benchmarks/startup.py --write`)", "",
             *([note, ""] if note else []),
             f"`tightest {' '.join(result['point'])}`: best of {result['repeat']} (load average {result['load_at_end']} at the end; "
             f"`python3 -c pass` {result['python_pass_wall']:.3f} s wall)", "",
             "| checkout | fresh wall s | fresh CPU s (system) | fresh page faults | import CPU s | 1st call CPU s | 2nd call CPU s | "
             "1st call faults | overhead wall s (fresh - 2nd call) | overhead CPU s (fresh - 2nd call) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for root, row in result["roots"].items():
        fresh, median = row["fresh"], row["fresh_median"]
        lines.append(f"| {root} | {fresh['wall']:.3f} (median {median['wall']:.3f}) | {fresh['cpu']:.3f} ({fresh['system']:.3f}) | "
                     f"{fresh['faults']} | {row['import_cpu']:.3f} | {row['first_cpu']:.3f} | {row['second_cpu']:.3f} | "
                     f"{row['first_faults']:.0f} | {row['overhead_wall']:.3f} | {row['overhead_cpu']:.3f} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, action="append", default=None, help="a checkout to measure (repeatable; default this one)")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--json", type=Path, default=None, help="write the raw measurements here")
    parser.add_argument("--note", default="", help="a paragraph printed under the title (what was compared, when)")
    parser.add_argument("--write", action="store_true", help="write benchmarks/STARTUP.md")
    parser.add_argument("point", nargs="*", help="the tightest arguments after `--` (default: " + " ".join(DEFAULT_POINT) + ")")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error(f"--repeat {args.repeat} is out of range: expected an integer >= 1")
    roots = [root.resolve() for root in (args.root or [HERE.parent])]
    result = measure(roots, args.point or DEFAULT_POINT, args.repeat)
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    text = report(result, args.note)
    if args.write:
        (HERE / "STARTUP.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
