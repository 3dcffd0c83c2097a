"""Benchmark of the certified gap, the Laplace mechanism on [0, 1]: tightest certified upper bound / largest certified lower
bound on the central eps and the time per epsilon, over a grid; prints a Markdown table (written to
benchmarks/TIGHT_LAPLACE_RESULTS.md, which the docs' tightness page includes).

    PYTHONPATH=. nice python3 benchmarks/tight_laplace.py [--eps0 0.5,1,2,4,8] [--n 1e3,1e4,1e5,1e6] [--delta 1e-6,1e-9] [--out FILE]

Per cell: the exact blanket bound (BBGN19.Lem5.3.exact_laplace, upper end) and its time; BBGN19.bennett_laplace
(the best relaxation); the certified lower end of exact.laplace_pair_x0 (the exact eps of the pair "0 vs 1, the
others at 0", continuous outputs) and its time; the binned lower bound (binary RR with e^{eps0'} = 2 e^{eps0/2} - 1,
the pair k = 0 of exact.shuffled_binary_rr.pair) for comparison; ratio = upper / lower. Wall clock on this
machine (load average recorded: the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from shuffle_spec.reference.bounds.bennett import bennett_laplace_epsilon
from shuffle_spec.reference.bounds.blanket_exact_laplace import exact_blanket_laplace_epsilon
from shuffle_spec.reference.exact.binary_rr import binary_rr_pair_epsilon
from shuffle_spec.reference.lower_bounds.laplace import binned_binary_rr_eps0, laplace_pair_x0_interval


def _timed(function, **kwargs):
    start = time.perf_counter()
    value = function(**kwargs)
    return value, time.perf_counter() - start


def cell(eps0: float, n: int, delta: float) -> dict:
    point = {"eps0": eps0, "n": n, "delta": delta}
    blanket, t_blanket = _timed(exact_blanket_laplace_epsilon, **point)
    bennett = bennett_laplace_epsilon(**point).value
    pair, t_pair = _timed(laplace_pair_x0_interval, **point)
    binned = binary_rr_pair_epsilon(eps0=binned_binary_rr_eps0(eps0=eps0), n=n, delta=delta, k=0).lower
    upper = min(blanket.upper, bennett)
    lower = max(pair.lower, binned)
    return {
        "eps0": eps0, "n": n, "delta": delta, "blanket": blanket.upper, "t_blanket": t_blanket, "bennett": bennett,
        "pair": pair.lower, "t_pair": t_pair, "binned": binned, "ratio": upper / lower if lower > 0 else float("inf"),
    }


def _floats(text: str) -> list[float]:
    return [float(x) for x in text.split(",")]


HEADER = (
    "| eps0 | n | delta | exact blanket (upper) | time | bennett_laplace | pair lower end | time | binned RR lower | ratio |\n"
    "|---|---|---|---|---|---|---|---|---|---|"
)


def row(r: dict) -> str:
    return (
        f"| {r['eps0']:g} | {r['n']:.0e} | {r['delta']:g} | {r['blanket']:.5g} | {r['t_blanket']:.2f} s | {r['bennett']:.5g} | "
        f"{r['pair']:.5g} | {r['t_pair']:.2f} s | {r['binned']:.5g} | {r['ratio']:.3f} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--eps0", default="0.5,1,2,4,8")
    parser.add_argument("--n", default="1e3,1e4,1e5,1e6")
    parser.add_argument("--delta", default="1e-6,1e-9")
    parser.add_argument("--out", default=None, help="also append the rows to this file as they come")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()}", flush=True)
    print(HEADER, flush=True)
    if args.out:
        with open(args.out, "a") as handle:
            handle.write(f"load average at start: {os.getloadavg()}\n{HEADER}\n")
    for n in _floats(args.n):
        for eps0 in _floats(args.eps0):
            for delta in _floats(args.delta):
                line = row(cell(eps0, int(n), delta))
                print(line, flush=True)
                if args.out:
                    with open(args.out, "a") as handle:
                        handle.write(line + "\n")
    print(f"load average at end: {os.getloadavg()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
