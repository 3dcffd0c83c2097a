"""Benchmark and comparison table: many rounds of the randomizers certified by BBGN19 Lemma 5.3's blanket bound
(compose.laplace, compose.finite, compose.randomizer; `reference/composition/blanket_rounds.py`).

Run from the repository root:
    python3 benchmarks/compose_blanket.py [MECHANISM ...]
                                              the table (markdown on stdout; all mechanisms, or the ones named),
                                              kept in benchmarks/COMPOSE_BLANKET_RESULTS.md, copied into
                                              docs/composition.md

Per mechanism at eps0 in {1, 4}, n in {1e4, 1e6}, T in {10, 1000}, delta = 1e-6: the generic composed value
(compose.clones, FMT21's clone pair: every eps0-LDP round), the mechanism-specific composed value (the Lemma 5.3
envelope's dominating pair composed T times, without the generic minimum), their ratio, and the times: the
envelope (once per mechanism, eps0 and n; cached afterwards) and the composition of T rounds once it exists.
The matrix is the 3 x 3 cyclic randomizer with rows proportional to (e^eps0, e^(eps0/2), 1) (its own LDP epsilon
is eps0 up to float rounding); the structured randomizers take d = 100. Laplace stops at n = 1e6 (its range),
Duchi's mechanism uses binary RR's envelope (`mechanism_rounds`). Printed values are certified upper ends rounded
UP to 4 significant digits. Timings are measurements on this machine, never asserted by tests.
"""

from __future__ import annotations

import math
import os
import platform
import sys
import time
from decimal import ROUND_CEILING, Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shuffle_spec.reference.composition import blanket_rounds as blanket  # noqa: E402
from shuffle_spec.reference.composition.shuffled_rounds import Round, composed_epsilon  # noqa: E402

EPS0 = (1.0, 4.0)
N = (10**4, 10**6)
ROUNDS = (10, 1000)
DELTA = 1e-6
D = 100
MECHANISMS = ("laplace", "matrix", "rappor", "oue", "blh", "olh", "hadamard", "subset", "duchi")


def _up(value: float) -> str:
    if value == 0 or not math.isfinite(value):
        return repr(value)
    digits = Decimal(repr(value))
    exponent = digits.adjusted() - 3
    return str(digits.quantize(Decimal(1).scaleb(exponent), rounding=ROUND_CEILING).normalize())


def cyclic_matrix(eps0: float) -> list[list[float]]:
    """Rows proportional to (e^eps0, e^(eps0/2), 1), shifted cyclically (module doc)."""
    weights = [math.exp(eps0), math.exp(eps0 / 2), 1.0]
    total = sum(weights)
    base = [w / total for w in weights]
    base[-1] = 1.0 - base[0] - base[1]
    return [base[-i:] + base[:-i] for i in range(3)]


def round_of(mechanism: str, eps0: float, n: int, rounds: int) -> blanket.BlanketRound:
    if mechanism == "matrix":
        return blanket.BlanketRound("matrix", None, n, rounds, matrix=cyclic_matrix(eps0))
    d = None if mechanism in ("laplace", "duchi") else D
    return blanket.BlanketRound(mechanism, eps0, n, rounds, d=d)


def table(mechanisms: tuple[str, ...] = MECHANISMS) -> None:
    print(f"Machine: {platform.machine()}, nproc {os.cpu_count()}, python {platform.python_version()}, load {os.getloadavg()}")
    print()
    print("| mechanism | eps0 | n | T | generic composed (clones) | mechanism-specific composed | specific / generic | envelope s | compose s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for mechanism in mechanisms:
        for eps0 in EPS0:
            for n in N:
                start = time.perf_counter()
                envelope = blanket.round_envelope(round_of(mechanism, eps0, n, 1), floor=blanket._floor_for(DELTA, max(ROUNDS)))
                envelope_seconds = time.perf_counter() - start
                for rounds in ROUNDS:
                    schedule = [round_of(mechanism, eps0, n, rounds)]
                    # The floor depends on delta / T: the smaller T's envelope is another cached one.
                    start = time.perf_counter()
                    specific = blanket.composed_epsilon(schedule, delta=DELTA, generic=False).upper
                    seconds = time.perf_counter() - start
                    generic = composed_epsilon([Round("clones", envelope.eps0_bound if mechanism == "matrix" else eps0, n, rounds)], delta=DELTA).upper
                    print(f"| {mechanism} | {eps0:g} | {n:.0e} | {rounds} | {_up(generic)} | {_up(specific)} | {specific / generic:.3f} | "
                          f"{envelope_seconds:.1f} | {seconds:.1f} |", flush=True)
                    envelope_seconds = 0.0


if __name__ == "__main__":
    table(tuple(sys.argv[1:]) or MECHANISMS)
