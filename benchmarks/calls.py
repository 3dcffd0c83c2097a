"""Call-time benchmark: what one command-line call or the first API call costs.

Run from the repository root:  python3 benchmarks/calls.py [--repeat 5] [--root DIR] [--write]

- `eval`: median wall time of `python3 -m shuffle_spec eval ID -p ... --json` (a fresh process, as a CI
  loop calls it) for every closed-form evaluable statement, at its first registered example;
- `main job`: median wall time of a bare `python3 -m shuffle_spec` (the default report);
- `first API call`: in a fresh process, the time of the first `shuffle_spec.shuffled_epsilon(...)` on a
  closed form after `import shuffle_spec`;
- `batch`: one `eval --batch -` process answering every closed-form example many times, per line;
- `python3 -c pass`: the interpreter's own start-up, the floor under every call;
- `tightest`: median wall time of `python3 -m shuffle_spec tightest ...` for k-RR at n = 1e4, 1e6, 1e8 (target
  0.5 s) and for two structured randomizers at n = 1e4 (their upper and lower bound and the generic bounds; the
  target of 2 s is the upper bound's, whose per-call seconds `benchmarks/randomizers.py` records).

`--only-tightest` measures the `tightest` calls alone (and the floor).

`--root DIR` measures another checkout: a directory DIR holding the package as its folder shuffle_spec (e.g.
`mkdir -p DIR/shuffle_spec && git archive <commit> | tar -x -C DIR/shuffle_spec` for a before/after comparison);
by default the installed (editable) package of this checkout. `--write` writes `benchmarks/CALLS.md`. Measurements on this machine, never asserted by tests.
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
LIST_CLOSED_FORMS = """
import json
from shuffle_spec.spec.registry import list_statements
print(json.dumps([
    {"id": s.id, "params": {k: s.examples[0][k] for k in s.input_names}}
    for s in list_statements() if s.is_evaluable and s.value is not None and s.examples
]))
"""
FIRST_API_CALL = """
import time
import shuffle_spec
start = time.perf_counter()
shuffle_spec.shuffled_epsilon("FMT21.Thm2.1", eps0=1.0, n=10_000, delta=1e-6)
print(time.perf_counter() - start)
"""


TIGHTEST = (
    # (label, arguments, target seconds)
    ("k-RR, k = 10, eps0 = 1, n = 1e4", ["--randomizer", "krr", "--k", "10", "--eps0", "1", "--n", "1e4", "--delta", "1e-6"], 0.5),
    ("k-RR, k = 10, eps0 = 1, n = 1e6", ["--randomizer", "krr", "--k", "10", "--eps0", "1", "--n", "1e6", "--delta", "1e-6"], 0.5),
    ("k-RR, k = 10, eps0 = 1, n = 1e8", ["--randomizer", "krr", "--k", "10", "--eps0", "1", "--n", "1e8", "--delta", "1e-6"], 0.5),
    ("OUE, d = 1000, eps0 = 1, n = 1e4", ["--randomizer", "oue", "--d", "1000", "--eps0", "1", "--n", "1e4", "--delta", "1e-6"], 2.0),
    ("subset selection, d = 1000, eps0 = 1, n = 1e4", ["--randomizer", "subset", "--d", "1000", "--eps0", "1", "--n", "1e4", "--delta", "1e-6"], 2.0),
)


def _env(root: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}


def _wall(args: list[str], root: Path, stdin: str | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(args, cwd=root, env=_env(root), input=stdin, capture_output=True, text=True, check=True)
    return time.perf_counter() - start


def _median(args: list[str], root: Path, repeat: int) -> float:
    return statistics.median(_wall(args, root) for _ in range(repeat))


def _load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def _cpu(args: list[str], root: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds user + system) of one child process: the CPU time is what the call costs on an idle
    machine (the wall time on a shared one also holds the time spent waiting for a core)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = _wall(args, root)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure_tightest(root: Path, repeat: int) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) seconds of each `tightest` call of TIGHTEST (a fresh process each)."""
    python = sys.executable
    out = {}
    for label, arguments, _ in TIGHTEST:
        runs = [_cpu([python, "-m", "shuffle_spec", "tightest", *arguments], root) for _ in range(repeat)]
        out[label] = (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs))
    return out


def measure(root: Path, repeat: int, limit: int | None, only_tightest: bool = False) -> dict:
    python = sys.executable
    if only_tightest:
        load_start = _load()
        tightest = measure_tightest(root, repeat)
        return {"root": str(root), "eval": {}, "tightest": tightest, "startup": _median([python, "-c", "pass"], root, repeat), "main_job": None,
                "first_api_call": None, "batch_per_line": None, "batch_lines": 0, "load": (load_start, _load()), "repeat": repeat}
    closed = json.loads(subprocess.run([python, "-c", LIST_CLOSED_FORMS], cwd=root, env=_env(root), capture_output=True, text=True, check=True).stdout)
    if limit is not None:
        closed = closed[:limit]
    load_start = _load()
    evals = {}
    for item in closed:
        args = [python, "-m", "shuffle_spec", "eval", item["id"], *[a for k, v in item["params"].items() for a in ("-p", f"{k}={v}")], "--json"]
        evals[item["id"]] = _median(args, root, repeat)
    main_job = _median([python, "-m", "shuffle_spec"], root, repeat)
    first_call = statistics.median(
        float(subprocess.run([python, "-c", FIRST_API_CALL], cwd=root, env=_env(root), capture_output=True, text=True, check=True).stdout)
        for _ in range(repeat)
    )
    startup = _median([python, "-c", "pass"], root, repeat)
    lines = [json.dumps({"id": item["id"], "params": item["params"]}) for item in closed] * 5
    batch = None
    help_text = subprocess.run([python, "-m", "shuffle_spec", "eval", "--help"], cwd=root, env=_env(root), capture_output=True, text=True).stdout
    if "--batch" in help_text:
        batch = _wall([python, "-m", "shuffle_spec", "eval", "--batch", "-"], root, stdin="\n".join(lines) + "\n") / len(lines)
    tightest = measure_tightest(root, repeat)
    return {
        "root": str(root),
        "tightest": tightest,
        "eval": evals,
        "main_job": main_job,
        "first_api_call": first_call,
        "startup": startup,
        "batch_per_line": batch,
        "batch_lines": len(lines),
        "load": (load_start, _load()),
        "repeat": repeat,
    }


def report(result: dict) -> str:
    evals = result["eval"]
    worst = max(evals, key=evals.get) if evals else None
    out = [
        "# Call times (`python3 benchmarks/calls.py --write`)",
        "",
        f"Machine: `uname -m` = {platform.machine()}, `nproc` = {os.cpu_count()}, python {platform.python_version()}. "
        f"Load average (1/5/15 min) {result['load'][0]} at the start, {result['load'][1]} at the end; medians of "
        f"{result['repeat']} runs (other processes share the cores: wall-clock figures are inflated accordingly).",
        "",
        "| call | median wall time (s) | target (s) |",
        "|---|---|---|",
        f"| `python3 -c pass` (interpreter start-up, the floor) | {result['startup']:.3f} | |",
        f"| `shuffle-spec eval ID ... --json`, median over {len(evals)} closed forms | {statistics.median(evals.values()):.3f} | 0.5 |" if evals else None,
        f"| the same, slowest closed form (`{worst}`) | {evals[worst]:.3f} | 0.5 |" if worst else None,
        f"| `shuffle-spec` (the main job, default report) | {result['main_job']:.3f} | 1.5 |" if result["main_job"] is not None else None,
        f"| first API call after `import shuffle_spec` (`FMT21.Thm2.1`) | {result['first_api_call']:.3f} | 0.3 |" if result["first_api_call"] is not None else None,
    ]
    targets = {label: target for label, _, target in TIGHTEST}
    out += [f"| `shuffle-spec tightest`, {label} (CPU {cpu:.3f} s) | {wall:.3f} | {targets.get(label, float('nan')):g} |"
            for label, (wall, cpu) in result.get("tightest", {}).items()]
    if result["batch_per_line"] is not None:
        out.append(f"| `eval --batch -`, per line ({result['batch_lines']} lines, one process) | {result['batch_per_line']:.4f} | |")
    if not evals:
        return "\n".join(line for line in out if line is not None) + "\n"
    out += ["", "Per statement (`eval`, median s):", "", "| statement | s |", "|---|---|"]
    out += [f"| `{k}` | {v:.3f} |" for k, v in sorted(evals.items(), key=lambda kv: -kv[1])]
    return "\n".join(line for line in out if line is not None) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HERE.parent, help="the checkout to measure (default: this one)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--limit", type=int, default=None, help="only the first N closed forms")
    parser.add_argument("--write", action="store_true", help="write benchmarks/CALLS.md")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only-tightest", action="store_true", help="only the `tightest` calls (and the floor); not with --write")
    args = parser.parse_args()
    if args.only_tightest and args.write:
        parser.error("--only-tightest measures a part of the table: --write needs the whole")
    result = measure(args.root.resolve(), args.repeat, args.limit, args.only_tightest)
    text = report(result)
    if args.write:
        (HERE / "CALLS.md").write_text(text)
    print(json.dumps(result, indent=1) if args.json else text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
