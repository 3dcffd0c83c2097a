"""Benchmark and ratio table: the composed certified LOWER bounds of compose.laplace, compose.finite and
compose.randomizer (`reference/composition/blanket_lower.py`: binned explicit pairs composed by the optimistic
engine) against their composed certified upper bounds (the Lemma 5.3 envelope's dominating pair).

Run from the repository root:
    python3 benchmarks/compose_lower_pairs.py [MECHANISM ...]
                                              the table (markdown on stdout; all mechanisms, or the ones named),
                                              kept in benchmarks/COMPOSE_LOWER_RESULTS.md, copied into
                                              docs/composition.md

Per mechanism at eps0 in {0.5, 1, 4}, n in {1e3, 1e4}, T in {10, 100}, delta = 1e-6: the composed certified upper
end (the mechanism's envelope, without the generic minimum; rounded UP to 4 significant digits), the composed
certified lower end (rounded DOWN), their ratio, the seconds of the lower bound and which pair gave it. The
matrix is benchmarks/compose_blanket.py's 3 x 3 cyclic randomizer, the structured randomizers take d = 100, the
piecewise mechanism (no domain size) its cell pairs.
Timings are measurements on this machine, never asserted by tests.
"""

from __future__ import annotations

import math
import os
import platform
import sys
import time
from decimal import ROUND_FLOOR, Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compose_blanket import MECHANISMS, _up, round_of  # noqa: E402

from shuffle_spec.reference.composition import blanket_rounds as blanket  # noqa: E402
from shuffle_spec.reference.composition.blanket_lower import blanket_lower_epsilon  # noqa: E402

LOWER_MECHANISMS = (*MECHANISMS, "piecewise")
EPS0 = (0.5, 1.0, 4.0)
N = (10**3, 10**4)
ROUNDS = (10, 100)
DELTA = 1e-6


def _down(value: float) -> str:
    if value == 0 or not math.isfinite(value):
        return repr(value)
    digits = Decimal(repr(value))
    exponent = digits.adjusted() - 3
    return str(digits.quantize(Decimal(1).scaleb(exponent), rounding=ROUND_FLOOR).normalize())


def _short(which: str) -> str:
    """The pair in a few words: the others' input and the bins (or the binary / k-RR pair); "/" between bins."""
    if "binned at" in which:
        return "binned at " + which.split("binned at ")[1].split(" (")[0]
    if "merged into" in which:
        others = which.split("the other n-1 users at ")[1].split(",")[0]
        return f"others at {others}; bins " + which.split("merged into ")[1].split(" (")[0].replace(" | ", " / ")
    return which.split(" (")[0][:40]


def _round(mechanism: str, eps0: float, n: int, rounds: int) -> blanket.BlanketRound:
    if mechanism == "piecewise":
        return blanket.BlanketRound("piecewise", eps0, n, rounds)
    return round_of(mechanism, eps0, n, rounds)


def table(mechanisms: tuple[str, ...] = LOWER_MECHANISMS) -> None:
    print(f"Machine: {platform.machine()}, nproc {os.cpu_count()}, python {platform.python_version()}, load {os.getloadavg()}")
    print()
    print("| mechanism | eps0 | n | T | composed upper (envelope) | composed lower (explicit pairs) | upper / lower | lower s | pair |")
    print("|---|---|---|---|---|---|---|---|---|")
    for mechanism in mechanisms:
        for eps0 in EPS0:
            for n in N:
                for rounds in ROUNDS:
                    schedule = blanket._validate_schedule([_round(mechanism, eps0, n, rounds)])
                    upper = blanket.composed_epsilon(schedule, delta=DELTA, generic=False, lower=False).upper
                    start = time.perf_counter()
                    lower, which = blanket_lower_epsilon(schedule, delta=DELTA)
                    seconds = time.perf_counter() - start
                    ratio = f"{upper / lower:.3f}" if lower > 0 else "-"
                    print(f"| {mechanism} | {eps0:g} | {n:.0e} | {rounds} | {_up(upper)} | {_down(lower)} | {ratio} | {seconds:.1f} | {_short(which)} |", flush=True)


if __name__ == "__main__":
    table(tuple(sys.argv[1:]) or LOWER_MECHANISMS)
