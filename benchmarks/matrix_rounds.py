"""Benchmark: the profile envelopes of compose.finite and compose.randomizer (subset selection, piecewise) at
real n: CPU of one envelope, its certified evaluations, the composed certified upper end at T = 10 and 1000
(delta = 1e-6, without the generic minimum and the lower end), and the front door's cost estimate
(`blanket_rounds.envelope_seconds`). `reference/composition/blanket_rounds.py`, module doc B1 and Speed.

Run from the repository root (one JSON line per configuration on stdout; the envelope values and nodes too, so
that two versions can be compared node by node):
    python3 benchmarks/matrix_rounds.py [NAME:N ...]     default: c3 and k10 at n = 100, 1e3, 1e4, 1e6, subset:1e4, piecewise:100

Names: c3 = examples/circulant3.json (3 x 3, not k-RR); k10 = the 10 x 10 matrix keeping its input w.p. 3/10,
moving it to the next value w.p. 1/10 and elsewhere uniformly (not k-RR, 3 ordered pairs of distinct groups, the
batched FFT path of `reference/bounds/blanket_powers.py`); subset = k-subset selection at eps0 = 1, d = 100 (Ye and Barg's k); piecewise = Wang et al.'s mechanism
at eps0 = 1. Timings are measurements on this machine (process CPU), never asserted by tests; results in
benchmarks/MATRIX_ROUNDS.md.
"""

from __future__ import annotations

import json
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shuffle_spec.reference.composition import blanket_rounds as blanket  # noqa: E402

DELTA = 1e-6
ROUNDS = (10, 1000)
DEFAULT = ("c3:100", "c3:1000", "c3:1e4", "c3:1e6", "k10:100", "k10:1000", "k10:1e4", "k10:1e6", "subset:1e4", "piecewise:100")


def next_value_matrix(k: int = 10) -> list[list[str]]:
    rows = []
    for i in range(k):
        row = [Fraction(6, 10) / (k - 2)] * k
        row[i], row[(i + 1) % k] = Fraction(3, 10), Fraction(1, 10)
        rows.append([str(x) for x in row])
    return rows


def blanket_round(name: str, n: int, rounds: int) -> blanket.BlanketRound:
    if name == "c3":
        matrix = json.loads((ROOT / "examples" / "circulant3.json").read_text())["matrix"]
        return blanket.BlanketRound("matrix", None, n, rounds, matrix=matrix)
    if name == "k10":
        return blanket.BlanketRound("matrix", None, n, rounds, matrix=next_value_matrix())
    if name == "subset":
        return blanket.BlanketRound("subset", 1.0, n, rounds, d=100)
    if name == "piecewise":
        return blanket.BlanketRound("piecewise", 1.0, n, rounds)
    raise SystemExit(f"unknown configuration {name!r}: one of c3, k10, subset, piecewise")


def run(name: str, n: int) -> dict[str, object]:
    estimate = blanket.envelope_seconds(blanket_round(name, n, 1))
    started = time.process_time()
    envelope = blanket.round_envelope(blanket_round(name, n, 1))
    out: dict[str, object] = {"name": name, "n": n, "estimate_s": round(estimate, 2), "envelope_cpu_s": round(time.process_time() - started, 2),
                              "evaluations": envelope.evaluations, "step": envelope.step}
    for rounds in ROUNDS:
        value = blanket.composed_epsilon([blanket_round(name, n, rounds)], delta=DELTA, generic=False, lower=False)
        out[f"eps_T{rounds}"] = value.upper
    out["nodes"] = envelope.nodes.tolist()
    out["upper"] = envelope.upper.tolist()
    return out


def main(argv: list[str]) -> None:
    for item in argv or list(DEFAULT):
        name, _, size = item.partition(":")
        print(json.dumps(run(name, int(float(size)))), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
