"""Corner-call benchmark: the CPU time and peak memory of single calls at the corners of the declared ranges.

Run from the repository root:  python3 benchmarks/corners.py [--only TEXT] [--root DIR] [--timeout 60] [--write]

Each call runs in a fresh `python3 -c` process (import included, as a user's first call pays it) under a wall
timeout; its CPU seconds (user + system) and peak resident memory come from `os.wait4`
(the process's own rusage), so a loaded machine inflates the wall time but hardly the CPU. A call still running at the timeout is
killed and reported as such (its CPU so far is a lower bound). The result column (the certified end the call
returns, or the first words of its refusal) is deterministic; the times are this machine's.

The calls: the eps0, n, delta corners (eps0 in {1e-3, 1, 8} and the statement's maximum, n in {1e4, 1e8, the
maximum}, delta in {1e-9, 1e-100, 1e-300}) where the sweep of every registered statement and of `certify`
found calls over a few seconds of CPU: the clone bounds FMT21.clones_numeric and FMT23.stronger_clones, exact
binary randomized response (`certify("binary_rr", ...)`, `exact.shuffled_binary_rr`) and the generic
front door `certify("generic", ...)`, with a cheap point of each for scale.

`--root DIR` measures another checkout (DIR holds the package as its folder shuffle_spec, e.g.
`mkdir -p DIR/shuffle_spec && git archive <commit> | tar -x -C DIR/shuffle_spec`); `--write` writes
`benchmarks/CORNERS.md`. Measurements on this machine, never asserted by tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

# (label, Python expression evaluated after `import shuffle_spec as s`; its repr is the result column)
CALLS: list[tuple[str, str]] = []
for _eps0, _n, _delta in [
    (1.0, "10**4", 1e-9), (1.0, "10**8", 1e-9), (1.0, "10**8", 1e-300), (1.0, "10**12", 1e-9), (1.0, "10**12", 1e-100),
    (1.0, "10**12", 1e-300), (0.001, "10**12", 1e-9), (0.001, "10**12", 1e-300), (8.0, "10**12", 1e-300),
]:
    for _id, _extra in (("FMT21.clones_numeric", ""), ("FMT23.stronger_clones", ", k=2")):
        CALLS.append((f"{_id} eps0={_eps0:g} n={_n} delta={_delta:g}",
                      f"s.shuffled_epsilon({_id!r}, eps0={_eps0!r}, n={_n}, delta={_delta!r}{_extra}).interval"))
for _eps0, _n, _delta in [(1.0, "10**4", 1e-9), (0.001, "10**4", 1e-9), (0.001, "10**8", 1e-300), (1.0, "10**12", 1e-9)]:
    for _randomizer in ("binary_rr", "generic"):
        CALLS.append((f"certify {_randomizer} eps0={_eps0:g} n={_n} delta={_delta:g}",
                      f"s.certify({_randomizer!r}, eps0={_eps0!r}, n={_n}, delta={_delta!r}).interval"))

CHILD = """
import sys
sys.path[:0] = {path!r}
import shuffle_spec as s
try:
    print(repr({expression}))
except Exception as error:
    print(type(error).__name__ + ": " + str(error).splitlines()[0][:80])
"""


def measure(expression: str, *, root: str | None, timeout: float) -> tuple[str, float, float, bool]:
    """(result, CPU seconds, peak resident MB, timed out) of one call in a fresh process (its own rusage, from
    os.wait4: the peak is that process's, not the largest of all children so far)."""
    code = CHILD.format(path=[root] if root else [], expression=expression)
    with tempfile.TemporaryFile(mode="w+") as out:
        process = subprocess.Popen([sys.executable, "-c", code], stdout=out, stderr=subprocess.DEVNULL, text=True)
        start = time.monotonic()
        timed_out = False
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > timeout:
                process.kill()
                pid, status, usage = os.wait4(process.pid, 0)
                timed_out = True
                break
            time.sleep(0.02)
        process.returncode = status  # reaped here: Popen must not wait for it again
        out.seek(0)
        result = out.read().strip() or "(no output)"
    return result, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, timed_out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="measure only the calls whose label contains this text")
    parser.add_argument("--root", default=None, help="measure the package under DIR/shuffle_spec instead")
    parser.add_argument("--timeout", type=float, default=60.0, help="wall seconds per call (default 60)")
    parser.add_argument("--write", action="store_true", help="write benchmarks/CORNERS.md")
    args = parser.parse_args()
    rows = []
    load = os.getloadavg()
    for label, expression in CALLS:
        if args.only not in label:
            continue
        result, cpu, rss, timed_out = measure(expression, root=args.root, timeout=args.timeout)
        cpu_text = f">= {cpu:.1f} (killed at {args.timeout:g} s wall)" if timed_out else f"{cpu:.2f}"
        rows.append(f"| `{label}` | {result if not timed_out else '-'} | {cpu_text} | {rss:.0f} |")
        print(rows[-1], flush=True)
    end = os.getloadavg()
    text = "\n".join([
        "# Corner calls (`python3 benchmarks/corners.py --write`)",
        "",
        f"Machine: `uname -m` = {platform.machine()}, `nproc` = {os.cpu_count()}, python {platform.python_version()}. "
        f"Load average (1/5/15 min) {load[0]:.2f}/{load[1]:.2f}/{load[2]:.2f} at the start, {end[0]:.2f}/{end[1]:.2f}/{end[2]:.2f} at the end. "
        "One fresh process per call (import included); CPU = user + system seconds of that process; peak = its maximum "
        "resident set. The result column is deterministic, the times are this machine's.",
        "",
        "| call | result (interval) | CPU s | peak MB |",
        "|---|---|---|---|",
        *rows,
        "",
    ])
    if args.write:
        (HERE / "CORNERS.md").write_text(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
