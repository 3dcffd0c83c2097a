"""Benchmark: time per eps(delta) evaluation and the eps / ratio-to-exact table.

Run from the repository root:  python3 benchmarks/run.py [--skip-exact]   (writes benchmarks/RESULTS.md too)

The certified worst case `exact.shuffled_binary_rr` costs up to ~10 s per call at large n (a deterministic work
budget; it widens its interval or refuses past it), so Table 1 times it on a smaller grid (EXACT_TIMING_EPS0 x
delta = 1e-6) and `--skip-exact` leaves it out of Table 1 altogether; its own benchmark is
benchmarks/exact_binary_rr.py. Where it refuses, Tables 2 and 3 print no ratio.

Table 1: median wall-clock time of one eps(delta) evaluation (root finding included) over
eps0 in {0.1, 0.5, 1, 2, 4, 6, 8} x delta in {1e-6, 1e-8}, at n = 1e7 and 1e9, for the numerical clone,
stronger clone and exact binary RR computations and every other amplification bound in the registry.
Table 2: eps and its ratio to exact binary RR at eps0 in {1, 4, 8}, n in {1e4, 1e6, 1e8}, delta = 1e-6.
Table 3 (the ratio table): the same grid with eps, ratio and median time per evaluation for
every registered amplification bound (amplification_statements(None)) plus exact binary RR.
Timings are measurements on this machine, never asserted by tests.
"""

from __future__ import annotations

import math
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy
import scipy

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shuffle_spec.interface.amplification import EXACT_BINARY_RR_ID, amplification_statements  # noqa: E402
from shuffle_spec.proofs_checks.bridge import evaluate, reference_function  # noqa: E402
from shuffle_spec.spec.registry import get_statement  # noqa: E402

EPS0_GRID = (0.1, 0.5, 1.0, 2.0, 4.0, 6.0, 8.0)
DELTA_GRID = (1e-6, 1e-8)
TIMING_N = (10**7, 10**9)
TABLE_EPS0 = (1.0, 4.0, 8.0)
TABLE_N = (10**4, 10**6, 10**8)
EXTRA = {"k": 2}  # mechanism parameters: k-ary RR bounds are evaluated at k = 2 (binary RR)
NUMERIC = ("FMT21.clones_numeric", "FMT23.stronger_clones", EXACT_BINARY_RR_ID)
# The exact id is timed on this smaller grid only (each call may take seconds at n = 1e7 .. 1e9).
EXACT_TIMING_EPS0 = (1.0, 4.0, 8.0)
EXACT_TIMING_DELTA = (1e-6,)


def _statements():
    numeric = [get_statement(i) for i in NUMERIC]
    others = [s for s in amplification_statements(None) if s.id not in NUMERIC]
    return numeric + others


def _params(statement, eps0, n, delta):
    given = {"eps0": eps0, "n": n, "delta": delta, **EXTRA}
    if not set(statement.input_names) <= set(given):
        return None
    return {name: given[name] for name in statement.input_names}


def _time_one(statement, params) -> float | None:
    """Seconds for one evaluation of the reference (None when the point is outside its hypotheses)."""
    function = reference_function(statement)
    try:
        start = time.perf_counter()
        function(**params)
        return time.perf_counter() - start
    except ValueError:
        return None


def timing_table(statements, skip_exact: bool = False) -> list[str]:
    lines = ["| bound | " + " | ".join(f"median ms, n=1e{int(math.log10(n))} (points)" for n in TIMING_N) + " |", "|---|" + "---|" * len(TIMING_N)]
    for statement in statements:
        is_exact = statement.id == EXACT_BINARY_RR_ID
        if is_exact and skip_exact:
            lines.append(f"| `{statement.id}` | " + " | ".join("skipped (--skip-exact)" for _ in TIMING_N) + " |")
            print(lines[-1], flush=True)
            continue
        cells = []
        for n in TIMING_N:
            times = []
            for eps0 in EXACT_TIMING_EPS0 if is_exact else EPS0_GRID:
                for delta in EXACT_TIMING_DELTA if is_exact else DELTA_GRID:
                    params = _params(statement, eps0, n, delta)
                    if params is None:
                        continue
                    seconds = _time_one(statement, params)
                    if seconds is not None:
                        times.append(seconds)
            cells.append(f"{1000 * statistics.median(times):.3g} ({len(times)})" if times else "n/a (0)")
        name = f"`{statement.id}` (eps0 in {{1, 4, 8}}, delta = 1e-6)" if is_exact else f"`{statement.id}`"
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    return lines


def _exact_values() -> dict:
    """exact.shuffled_binary_rr (certified worst case, upper end) on the table grid; None where it refuses."""
    exact_statement = get_statement(EXACT_BINARY_RR_ID)
    values = {}
    for e in TABLE_EPS0:
        for n in TABLE_N:
            result = evaluate(exact_statement, {"eps0": e, "n": n, "delta": 1e-6})
            values[(e, n)] = result.value if result.valid and result.value else None
    return values


def _ratio(value: float, exact: float | None) -> str:
    return "no exact value" if exact is None else f"{value / exact:.3g}x"


def _median_ms(statement, params, runs: int = 3) -> float:
    """Median wall-clock ms of `runs` evaluations of the reference function at params."""
    function = reference_function(statement)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function(**params)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def closing_table(statements) -> list[str]:
    """The ratio table: eps, ratio to exact binary RR and median ms per evaluation, for every
    registered amplification bound plus the exact one, eps0 in {1, 4, 8}, n in {1e4, 1e6, 1e8}, delta = 1e-6."""
    header = [f"eps0={e:g}, n=1e{int(math.log10(n))}" for e in TABLE_EPS0 for n in TABLE_N]
    lines = ["| bound | " + " | ".join(header) + " |", "|---|" + "---|" * len(header)]
    exact = _exact_values()
    for statement in statements:
        cells = []
        for eps0 in TABLE_EPS0:
            for n in TABLE_N:
                params = _params(statement, eps0, n, 1e-6)
                result = None if params is None else evaluate(statement, params)
                if result is None or not result.valid or result.value is None:
                    cells.append("n/a" if params is None else "invalid")
                    continue
                ms = _median_ms(statement, params)
                cells.append(f"{result.value:.4g} ({_ratio(result.value, exact[(eps0, n)])}, {ms:.3g} ms)")
        lines.append(f"| `{statement.id}` | " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    return lines


def eps_table(statements) -> list[str]:
    header = [f"eps0={e:g}, n=1e{int(math.log10(n))}" for e in TABLE_EPS0 for n in TABLE_N]
    lines = ["| bound | " + " | ".join(header) + " |", "|---|" + "---|" * len(header)]
    exact = _exact_values()
    for statement in statements:
        cells = []
        for eps0 in TABLE_EPS0:
            for n in TABLE_N:
                params = _params(statement, eps0, n, 1e-6)
                if params is None:
                    cells.append("n/a")
                    continue
                result = evaluate(statement, params)
                if not result.valid or result.value is None:
                    cells.append("invalid")
                else:
                    cells.append(f"{result.value:.4g} ({_ratio(result.value, exact[(eps0, n)])})")
        lines.append(f"| `{statement.id}` | " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    return lines


def machine() -> str:
    import os

    return (
        f"`uname -m` = {platform.machine()}, `nproc` = {os.cpu_count()}, python {platform.python_version()}, "
        f"numpy {numpy.__version__}, scipy {scipy.__version__}"
    )


def load() -> str:
    """The 1/5/15-minute load averages: the timings are wall-clock, so a busy 2-core machine inflates them."""
    import os

    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-exact", action="store_true", help="leave exact.shuffled_binary_rr out of Table 1 (it is timed by benchmarks/exact_binary_rr.py)")
    args = parser.parse_args()
    statements = _statements()
    load_before = load()
    print(machine(), "load", load_before)
    print("\nTable 1: time per eps(delta) evaluation")
    t1 = timing_table(statements, skip_exact=args.skip_exact)
    print("\nTable 2: eps at delta = 1e-6 (ratio to exact binary RR)")
    t2 = eps_table(statements)
    print("\nTable 3 (the ratio table): eps (ratio to exact binary RR, median ms of 3 runs), delta = 1e-6")
    t3 = closing_table(statements)
    text = "\n".join(
        [
            "# Benchmark results (`python3 benchmarks/run.py`)",
            "",
            f"Machine: {machine()}. Load average (1/5/15 min) {load_before} at the start, {load()} at the end "
            "(other processes share the 2 cores: wall-clock figures are inflated accordingly).",
            "",
            "## Time per eps(delta) evaluation, root finding included",
            "",
            "Median over eps0 in {0.1, 0.5, 1, 2, 4, 6, 8} x delta in {1e-6, 1e-8} (points inside each bound's "
            "hypotheses counted in parentheses); k-RR bounds at k = 2; the certified exact binary RR on eps0 in "
            "{1, 4, 8} x delta = 1e-6 only (see benchmarks/exact_binary_rr.py for its full grid).",
            "",
            *t1,
            "",
            "## eps at delta = 1e-6 and ratio to exact binary RR",
            "",
            "`exact.shuffled_binary_rr` is the certified worst case over every neighbouring pair (the upper end of "
            "an interval of relative width 1e-6, or the wider width stated in its note when the work budget ran "
            "out), so ratios are ratios to that value; `no exact value` where it refuses. "
            "`invalid`: outside the bound's hypotheses.",
            "",
            *t2,
            "",
            "## The ratio table: eps (ratio to exact binary RR, median ms per evaluation over 3 runs), delta = 1e-6",
            "",
            *t3,
            "",
        ]
    )
    (Path(__file__).parent / "RESULTS.md").write_text(text)


if __name__ == "__main__":
    main()
