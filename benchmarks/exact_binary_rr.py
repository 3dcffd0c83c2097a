"""Benchmark of the certified worst case of shuffled binary RR (`exact.shuffled_binary_rr`).

Run from the repository root:  python3 benchmarks/exact_binary_rr.py [--n 1e7,1e10] [--eps0 ...] [--delta ...] [--warm] [--timeout 120]

For eps0 in {0.1, 1, 4, 6, 8, 10, 15} (or `--eps0`), delta in {1e-6, 1e-12} (or `--delta`) and each n: the worst count found (k ones
among the other n-1 users; "mirror" = min(k, n-1-k), the issue's convention), the certified interval
[lower, upper], its relative width, the route that certified it (transport or removal), the number of
certified delta evaluations, the wall-clock and CPU time
of one call (each cell in its own process with a time limit; "timeout" or the refusal's reason otherwise;
on a shared machine the CPU time is the steadier figure). `--warm`: each cell's process first makes one call at
another point (eps0 = 2, the cell's n, delta = 1e-7) and times the second call only (what a process that already
answered pays: the first call's one-off costs, such as the interval anchors' set-up, left out), best of `--repeat`
calls with the caches of the binary-RR modules emptied before each (so the calls do not reuse each other's windows).
Prints a Markdown table (the grid that `docs/exact_binary_rr.md` names for its timings). Timings are measurements on
this machine, never asserted by tests.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

EPS0_GRID = (0.1, 1.0, 4.0, 6.0, 8.0, 10.0, 15.0)
DELTA_GRID = (1e-6, 1e-12)


def _empty_caches() -> None:
    """Empty the per-process caches of the binary-RR modules (they only save time: every value is a pure function of
    the arguments), so that a repeated call computes what a call at a new point computes."""
    from functools import _lru_cache_wrapper

    from shuffle_spec.reference.exact import binary_rr, binary_rr_transport

    for module in (binary_rr, binary_rr_transport):
        for name, value in vars(module).items():
            if isinstance(value, _lru_cache_wrapper):
                value.cache_clear()
            elif isinstance(value, dict) and name.startswith("_") and name.lstrip("_").isupper():
                value.clear()
    binary_rr._WINDOW_BYTES = 0


def _cell(eps0: float, n: int, delta: float, queue, warm: bool = False, repeat: int = 1) -> None:
    from shuffle_spec.reference.core.errors import ParameterError
    from shuffle_spec.reference.exact.binary_rr import worst_case

    if warm:
        try:
            worst_case(eps0=2.0, n=n, delta=1e-7)
        except ParameterError:  # a warm-up point outside the range warms nothing, and the timed runs say so themselves
            pass
        best = None
        for _ in range(max(repeat, 1)):
            _empty_caches()
            start, cpu = time.perf_counter(), time.process_time()
            try:
                result = worst_case(eps0=eps0, n=n, delta=delta)
            except ParameterError as error:
                queue.put(("refused", str(error), time.perf_counter() - start, time.process_time() - cpu))
                return
            timing = (time.perf_counter() - start, time.process_time() - cpu)
            if best is None or timing[1] < best[1]:
                best = timing
        queue.put(("ok", result, *best))
        return
    start, cpu = time.perf_counter(), time.process_time()
    try:
        result = worst_case(eps0=eps0, n=n, delta=delta)
    except ParameterError as error:
        queue.put(("refused", str(error), time.perf_counter() - start, time.process_time() - cpu))
        return
    except Exception as error:  # reported as a failure in the table, never a hang of the benchmark
        queue.put(("error", f"{type(error).__name__}: {error}", time.perf_counter() - start, time.process_time() - cpu))
        return
    queue.put(("ok", result, time.perf_counter() - start, time.process_time() - cpu))


def run_cell(eps0: float, n: int, delta: float, timeout: float, warm: bool = False, repeat: int = 1) -> tuple:
    queue = multiprocessing.Queue()
    process = multiprocessing.Process(target=_cell, args=(eps0, n, delta, queue, warm, repeat))
    process.start()
    process.join(timeout)
    if process.is_alive():
        process.terminate()
        process.join()
        return ("timeout", None, timeout, float("nan"))
    try:
        return queue.get(timeout=5)
    except Exception:
        return ("error", f"the cell's process ended without a result (exit code {process.exitcode})", timeout, float("nan"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", default="1e7,1e10", help="comma-separated n values")
    parser.add_argument("--eps0", default=",".join(f"{e:g}" for e in EPS0_GRID), help="comma-separated eps0 values")
    parser.add_argument("--delta", default=",".join(f"{d:g}" for d in DELTA_GRID), help="comma-separated delta values")
    parser.add_argument("--warm", action="store_true", help="time the second call of each cell's process (module doc)")
    parser.add_argument("--repeat", type=int, default=3, help="calls per cell with --warm (the least CPU time is shown)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per cell")
    args = parser.parse_args()
    sizes = [int(float(x)) for x in args.n.split(",")]
    eps0_grid = [float(x) for x in args.eps0.split(",")]
    delta_grid = [float(x) for x in args.delta.split(",")]
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; python {platform.python_version()}")
    print()
    print("| eps0 | n | delta | worst k (mirror) | certified eps interval | rel. width | route | evaluations | time (s) | CPU (s) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n in sizes:
        for delta in delta_grid:
            for eps0 in eps0_grid:
                status, result, seconds, cpu = run_cell(eps0, n, delta, args.timeout, args.warm, args.repeat)
                if status == "ok":
                    width = (result.upper - result.lower) / result.upper if result.upper > 0 else 0.0
                    mirror = min(result.worst_k, n - 1 - result.worst_k)
                    print(f"| {eps0:g} | {n:.0e} | {delta:g} | {result.worst_k} ({mirror}) | [{result.lower:.10g}, {result.upper:.10g}] | {width:.1e} | {result.route} | {result.evaluations} | {seconds:.2f} | {cpu:.2f} |", flush=True)
                else:
                    reason = "over the time limit" if status == "timeout" else result
                    print(f"| {eps0:g} | {n:.0e} | {delta:g} | - | {status}: {reason} | - | - | - | {seconds:.2f} | {cpu:.2f} |", flush=True)
    print()
    print(f"load at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
