"""Benchmark of the certified gap for k-RR: tightest certified upper bound / largest certified lower bound on the central eps of
shuffled k-RR, and the time per epsilon, over a grid; prints a Markdown table (written to
benchmarks/TIGHT_RESULTS.md, which the docs' tightness page includes).

    PYTHONPATH=. python3 benchmarks/tight.py [--k 3,10,100] [--eps0 1,4] [--n 1e3,1e4] [--delta 1e-6] [--out FILE]

Per cell: the exact blanket bound (BBGN19.Lem5.3.exact_krr, upper end) and its time; the largest lower end among
exact.krr_pair_third / exact.krr_pair_x0 / exact.krr_pair_third_split (k = 2: exact.shuffled_binary_rr) and the
times of the pair bounds (third; x0 only up to --x0-max-n; third_split where its window is small enough, else
refused and left out); the tightest other registered k-RR upper bound (FMT23.stronger_clones,
BBGN19.bennett_krr); the ratio min(upper) / max(lower). k = 2 has its own table: exact.shuffled_binary_rr is the
certified worst case, evaluated once, its interval [lower, upper] on both sides of the gap (as `tightest` does);
it shows the relaxed bounds' ratio to the largest lower end (the old column) and the gap's ratio. Timing is wall clock per epsilon (root search
included) on this machine (load average recorded at the start of each block). The default grid is k in {2, 3, 10, 100} as in benchmarks/TIGHT_RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from shuffle_spec.reference.bounds.bennett import bennett_krr_epsilon
from shuffle_spec.reference.bounds.blanket_exact_krr import exact_blanket_krr_epsilon
from shuffle_spec.reference.bounds.stronger_clones import stronger_clones
from shuffle_spec.reference.exact.binary_rr import shuffled_binary_rr
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.lower_bounds.krr import krr_pair_third_epsilon, krr_pair_third_split_epsilon, krr_pair_x0_epsilon


def _timed(function, **kwargs):
    start = time.perf_counter()
    value = function(**kwargs)
    return value, time.perf_counter() - start


def cell(k: int, eps0: float, n: int, delta: float, x0_max_n: int = 10**5) -> dict:
    point = {"eps0": eps0, "n": n, "delta": delta}
    blanket, t_blanket = _timed(exact_blanket_krr_epsilon, k=k, **point)
    others = {"FMT23.stronger_clones": stronger_clones(k=k, **point).value, "BBGN19.bennett_krr": bennett_krr_epsilon(k=k, **point).value}
    lowers = {}
    exact = t_exact = None
    t_split = None
    if k >= 3:
        third, t_third = _timed(krr_pair_third_epsilon, k=k, **point)
        lowers["exact.krr_pair_third"] = (third.lower, t_third)
    if k >= 4:
        try:  # refused where the window of the count of x1 is too wide (small eps0, large n): left out there
            split, t_split = _timed(krr_pair_third_split_epsilon, k=k, **point)
            lowers["exact.krr_pair_third_split"] = (split.lower, t_split)
        except ParameterError:
            t_split = None
    else:
        t_third = None
        try:  # the certified worst case: ONE evaluation, both ends used (as interface/tightest.py does)
            exact, t_exact = _timed(shuffled_binary_rr, **point)
            lowers["exact.shuffled_binary_rr"] = (exact.lower, t_exact)
        except ValueError:  # refused (outside its certified range): the x0 pair is the k = 2 lower bound there
            x0, t_x0 = _timed(krr_pair_x0_epsilon, k=k, **point)
            lowers["exact.krr_pair_x0"] = (x0.lower, t_x0)
    t_x0 = lowers["exact.krr_pair_x0"][1] if "exact.krr_pair_x0" in lowers else None
    if n <= x0_max_n and t_x0 is None:
        x0, t_x0 = _timed(krr_pair_x0_epsilon, k=k, **point)
        lowers["exact.krr_pair_x0"] = (x0.lower, t_x0)
    lower_id = max(lowers, key=lambda name: lowers[name][0])
    lower = lowers[lower_id][0]
    # The relaxed side: the exact blanket bound and the other registered k-RR upper bounds (the old column).
    relaxed_id, relaxed = min([("BBGN19.Lem5.3.exact_krr", blanket.upper), *others.items()], key=lambda item: item[1])
    # The gap: for k = 2 the exact worst case's upper end competes too (a tie keeps the relaxed bound, listed first).
    candidates = [(relaxed_id, relaxed)] + ([("exact.shuffled_binary_rr", exact.upper)] if exact is not None else [])
    upper_id, upper = min(candidates, key=lambda item: item[1])
    return {
        "k": k, "eps0": eps0, "n": n, "delta": delta,
        "blanket": blanket.upper, "t_blanket": t_blanket, "others": others,
        "exact": None if exact is None else (exact.lower, exact.upper), "t_exact": t_exact,
        "upper_id": upper_id, "upper": upper, "lower_id": lower_id, "lower": lower, "t_lower": lowers[lower_id][1],
        "t_third": t_third, "t_x0": t_x0, "t_split": t_split,
        "relaxed_id": relaxed_id, "relaxed": relaxed,
        "relaxed_ratio": relaxed / lower if lower > 0 else float("inf"),
        "ratio": upper / lower if lower > 0 else float("inf"),
    }


def _ratio(value: float) -> str:
    """4 decimals, or 1 + x when the ratio would print as 1.0000 (the exact interval's width, k = 2)."""
    return f"1 + {value - 1:.1e}" if 1 < value < 1.00005 else f"{value:.4f}"


HEADER = "| k | eps0 | n | delta | exact blanket (upper) | s | best other upper | largest lower (id) | s third | s x0 | s split | tightest / lower |"
RULE = "|---|---|---|---|---|---|---|---|---|---|---|---|"
# k = 2: exact.shuffled_binary_rr is the certified worst case; its interval [lower, upper] gives both sides of
# the gap. "relaxed / lower" is the old column (the best relaxed upper bound over the largest lower end).
HEADER_K2 = ("| k | eps0 | n | delta | exact.shuffled_binary_rr [lower, upper] | s exact | exact blanket (upper) | s | "
             "best other upper | relaxed / lower | tightest upper (id) | largest lower (id) | gap ratio |")
RULE_K2 = "|---|---|---|---|---|---|---|---|---|---|---|---|---|"


def row(r: dict) -> str:
    """One Markdown row: the k = 2 layout (HEADER_K2) or the k >= 3 one (HEADER)."""
    k, eps0, n, delta = r["k"], r["eps0"], r["n"], r["delta"]
    best_other = min(r["others"].items(), key=lambda item: item[1])
    if k == 2:
        exact = "refused" if r["exact"] is None else f"[{r['exact'][0]:.7g}, {r['exact'][1]:.7g}]"
        return (
            f"| {k} | {eps0:g} | {n:.0e} | {delta:g} | {exact} | {_seconds(r['t_exact'])} | {r['blanket']:.6g} | {r['t_blanket']:.2f} "
            f"| {best_other[1]:.6g} ({best_other[0]}) | {r['relaxed_ratio']:.4f} | {r['upper']:.7g} ({r['upper_id']}) "
            f"| {r['lower']:.7g} ({r['lower_id']}) | {_ratio(r['ratio'])} |"
        )
    return (
        f"| {k} | {eps0:g} | {n:.0e} | {delta:g} | {r['blanket']:.6g} | {r['t_blanket']:.2f} | {best_other[1]:.6g} ({best_other[0]}) "
        f"| {r['lower']:.6g} ({r['lower_id']}) | {_seconds(r['t_third'])} | {_seconds(r['t_x0'])} | {_seconds(r['t_split'])} | {r['ratio']:.4f} |"
    )


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _floats(text: str) -> list[float]:
    return [float(x) for x in text.split(",")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", default="2,3,10,100")
    parser.add_argument("--eps0", default="0.5,1,4,8")
    parser.add_argument("--n", default="1e3,1e4,1e5,1e6,1e7,1e8")
    parser.add_argument("--delta", default="1e-6,1e-9")
    parser.add_argument("--x0-max-n", type=float, default=1e5, help="time exact.krr_pair_x0 up to this n")
    parser.add_argument("--out", default=None, help="also append the rows to this file as they come")
    parser.add_argument("--tightest", action="store_true", help="time the whole in-process `tightest` call per cell instead (imports done first)")
    args = parser.parse_args()
    out = open(args.out, "a") if args.out else None

    def emit(*lines: str) -> None:
        print("\n".join(lines), flush=True)
        if out:
            out.write("\n".join(lines) + "\n")
            out.flush()

    emit(f"load average at start: {os.getloadavg()[0]:.1f} (2 cores)")
    if args.tightest:
        from shuffle_spec.interface.tightest import tightest

        tightest(randomizer="krr", k=3, eps0=1.0, n=100, delta=1e-6)  # imports and caches first: the computation is timed
        emit("", "| k | eps0 | n | delta | tightest upper (id) | largest lower (id) | ratio | s in-process |", "|---|---|---|---|---|---|---|---|")
        for k in (int(x) for x in _floats(args.k)):
            for eps0 in _floats(args.eps0):
                for n in (int(x) for x in _floats(args.n)):
                    for delta in _floats(args.delta):
                        gap, seconds = _timed(tightest, randomizer="krr", k=k, eps0=eps0, n=n, delta=delta)
                        emit(f"| {k} | {eps0:g} | {n:.0e} | {delta:g} | {gap.upper_eps:.6g} ({gap.upper_id}) | {gap.lower_eps:.6g} ({gap.lower_id}) "
                             f"| {gap.ratio:.4f} | {seconds:.2f} |")
        return 0
    layout = None
    for k in (int(x) for x in _floats(args.k)):
        if layout is None or (k == 2) != (layout == 2):  # a new table at the start and when switching between the k = 2 and k >= 3 layouts
            layout = 2 if k == 2 else 3
            emit("", HEADER_K2 if k == 2 else HEADER, RULE_K2 if k == 2 else RULE)
        for eps0 in _floats(args.eps0):
            for n in (int(x) for x in _floats(args.n)):
                for delta in _floats(args.delta):
                    emit(row(cell(k, eps0, n, delta, int(args.x0_max_n))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
