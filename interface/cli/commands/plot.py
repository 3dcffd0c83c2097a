"""`shuffle-spec plot --eps0 E --delta D --n 1e4:1e8 -o FILE.png [--randomizer NAME --k K]`.

Central epsilon against n (log x axis): one line per amplification bound that holds somewhere on the
grid, plus the exact value where one is registered. Needs matplotlib (`pip install
'shuffle-spec[plot]'`); without it the command says so and exits 2. `--csv` prints the data instead.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
from pathlib import Path

from ...amplification import GENERIC
from ....proofs_checks.bridge import UsageError, parse_number, require_supported
from .bounds import known_mechanisms, parse_grid, rows_at
from ...limits import DELTA_MIN, EPS0_MAX, K_MAX, MAX_GRID_COUNT, N_MAX, RANGES_TEXT
from ..output import print_csv, progress

NAME = "plot"
HELP = "plot central epsilon against n (log x) for every bound plus the exact value (needs the `plot` extra)"

MISSING_MATPLOTLIB = "plot needs matplotlib, which is not installed: pip install 'shuffle-spec[plot]' (or pip install matplotlib)"
DEFAULT_POINTS = 41
FORMATS = ("png", "pdf", "svg")
EPILOG = RANGES_TEXT


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--eps0", required=True, help=f"local epsilon, 0 < eps0 <= {EPS0_MAX:g}")
    parser.add_argument("--delta", required=True, help=f"central delta, {DELTA_MIN:g} <= delta < 1")
    parser.add_argument("--n", default="1e3:1e8", help=f"log grid LOW:HIGH[:COUNT] of n, 1 <= n <= {N_MAX:.0e}, COUNT <= {MAX_GRID_COUNT} (default 1e3:1e8, {DEFAULT_POINTS} points)")
    parser.add_argument("--randomizer", default=GENERIC, metavar="NAME", help="also mechanism-specific bounds (krr, binary_rr, laplace)")
    parser.add_argument("--k", help=f"domain size of k-RR, an integer 2 <= k <= {K_MAX:.0e}")
    parser.add_argument("-o", "--output", help="PNG (or PDF/SVG) file to write; its directory must exist (checked before computing)")
    parser.add_argument("--csv", action="store_true", help="print the plotted data as CSV instead of plotting")


def series(eps0: float, delta: float, grid: list[int], mechanism: str, extra: dict) -> dict[str, list[tuple[int, float]]]:
    """Label -> [(n, eps)] over the grid, only where the statement holds; exact values labelled as such."""
    lines: dict[str, list[tuple[int, float]]] = {}
    for index, n in enumerate(grid, start=1):
        rows, exact = rows_at(eps0, n, delta, mechanism, extra)
        for row in rows:
            if row.valid and row.eps is not None and math.isfinite(row.eps):
                lines.setdefault(row.id, []).append((n, row.eps))
        for item in exact:
            if item["valid"] and item["eps"] is not None:
                lines.setdefault(f"{item['id']} (exact)", []).append((n, item["eps"]))
        progress(index, len(grid), "n values")
    return lines


def check_output_path(path: str) -> None:
    """Refuse, before computing anything, an output file that cannot be written: a directory that does
    not exist or is not writable, a path that is a directory, or a format matplotlib does not write."""
    target = Path(path)
    suffix = target.suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise UsageError(f"-o {path!r}: the file name must end in one of {', '.join('.' + f for f in FORMATS)}")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"-o {path!r}: the directory {str(folder)!r} does not exist")
    if target.is_dir():
        raise UsageError(f"-o {path!r} is a directory; give a file name")
    if os.path.exists(target) and not target.is_file():  # a FIFO would block the write, a device take it all
        raise UsageError(f"-o {path!r} exists and is not a regular file; give a file name")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise UsageError(f"-o {path!r}: not writable")


def run(args: argparse.Namespace) -> int:
    extra = {}
    if args.k is not None:
        extra["k"] = parse_number("k", args.k, integer=True)
        require_supported("k", extra["k"])
    if args.randomizer not in known_mechanisms():
        raise UsageError(f"--randomizer {args.randomizer[:40]!r} is not known; known: {', '.join(sorted(known_mechanisms()))}")
    if args.randomizer == "krr" and args.k is None:
        raise UsageError("--randomizer krr needs --k K")
    if not args.csv and not args.output:
        raise UsageError("give -o FILE.png (or --csv for the data)")
    eps0 = float(parse_number("eps0", args.eps0))
    delta = float(parse_number("delta", args.delta))
    require_supported("eps0", eps0)
    require_supported("delta", delta)
    if not args.csv:
        check_output_path(args.output)
    # A missing optional dependency is said after the arguments are checked and before any bound is computed (the
    # statement catalogue, not the SymPy registry, answers the checks above: no seconds go by first).
    if not args.csv and importlib.util.find_spec("matplotlib") is None:
        raise UsageError(MISSING_MATPLOTLIB)
    grid = parse_grid(args.n, "n", integer=True, default_count=DEFAULT_POINTS)
    lines = series(eps0, delta, grid, args.randomizer, extra)
    if args.csv:
        print_csv(["series", "n", "eps"], [[label, n, eps] for label, points in lines.items() for n, eps in points])
        return 0
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # found above but broken (a missing dependency of its own)
        raise UsageError(MISSING_MATPLOTLIB) from None
    figure, axes = plt.subplots(figsize=(10, 5.5))
    colours = plt.get_cmap("tab20").colors
    styles = ("-", "-.", ":")
    ordered = sorted(lines.items(), key=lambda item: item[1][-1][1], reverse=True)
    for index, (label, points) in enumerate(ordered):
        xs, ys = zip(*points, strict=True)
        if label.endswith("(exact)"):
            axes.plot(xs, ys, label=label, color="black", linewidth=2.5, linestyle="--")
        else:  # 20 colours x 3 line styles keep every bound distinguishable
            axes.plot(xs, ys, label=label, color=colours[index % 20], linestyle=styles[(index // 20) % 3], linewidth=1.5)
    axes.axhline(eps0, color="grey", linewidth=1, linestyle=":", label="eps0 (no amplification)")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("n (users)")
    axes.set_ylabel("central epsilon (upper bound)")
    axes.set_title(f"shuffled {args.randomizer} randomizer, eps0 = {eps0:g}, delta = {delta:g}")
    axes.grid(True, which="both", alpha=0.3)
    if lines:
        axes.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    else:
        axes.text(0.5, 0.5, "no bound holds on this grid", transform=axes.transAxes, ha="center")
    figure.tight_layout()
    figure.savefig(args.output, dpi=120)
    plt.close(figure)
    print(args.output)
    return 0
