"""The tangent-type reduction for the shuffled Laplace mechanism on [0, 1]: a candidate upper bound, measured
(UNCERTIFIED prototype; docs/tight_bounds.md, "Where the gap stays open", Laplace). Prints Markdown tables.

    PYTHONPATH=. nice python3 benchmarks/laplace_tangent_types.py pure [--eps0 1,2] [--n 1e3,1e4] [--delta 1e-6] [--out FILE]
    PYTHONPATH=. nice python3 benchmarks/laplace_tangent_types.py mixed EPS0 N EPS [--step 8] [--types A,B,C]
    PYTHONPATH=. nice python3 benchmarks/laplace_tangent_types.py two-users
    PYTHONPATH=. nice python3 benchmarks/laplace_tangent_types.py pairs
    PYTHONPATH=. nice python3 benchmarks/laplace_tangent_types.py pair-eps EPS0 N DELTA

The reduction (each step checked in the docs page). Outputs <= 0 and >= 1 are replaced by symbols L and R (a
sufficient statistic for inputs in [0, 1]). Another user at x emits L with probability a(x) = e^{-eps0 x}/2, R with
b(x) = e^{-eps0 (1 - x)}/2, a draw of the blanket's middle nu (density proportional to e^{-eps0 max(v, 1 - v)} on
(0, 1)) with probability w = e^{-eps0/2} - e^{-eps0}, and otherwise a residual revealed to the adversary. Lowering a
or b (the difference joins the revealed residual) is post-processing, and the divergence is convex in each user's
law. The points (a(x), b(x)) lie on the arc a b = e^{-eps0}/4 between A = (1/2, e^{-eps0}/2) (x = 0) and
B = (e^{-eps0}/2, 1/2) (x = 1); every point of the arc dominates a point of the polygon of tangents (tangents at
x = 0 and 1 meet at C = (1/(e^{eps0} + 1), 1/(e^{eps0} + 1)); adding the tangent at x = 1/2 replaces C by
P1 = (s/(1 + s), s^2/(1 + s)) and its mirror P2, s = e^{-eps0/2}). So every dataset's divergence is at most the
largest over configurations in which each other user has one of the polygon's vertex types: the max over O(n^2)
configurations (n_A, n_B, n_C) is the step NOT proven here.

Subcommands:
- `pure`: the eps of the configurations with every other user of one type (i.i.d. pools, by the tilted lattice
  sum of `laplace_datasets.py`), against the certified interval's lower end of exact.laplace_pair_x0 and the
  certified blanket bound BBGN19.Lem5.3.exact_laplace; in parentheses the ratio to that lower end. All A is the
  tail-merged pool of the dataset "all others at 0": no choice of tangents can bring the reduction below it.
- `mixed`: the delta at one eps of every configuration (n_A, n_B, n_C) on a grid of the simplex (both directions,
  their max), the victim at 0 vs 1. With the others' counts (l L's, r R's, k middle draws) of law O (exact, the
  coefficients of prod_T (a_T X + b_T Y + w Z + rest_T)^{n_T} by a 3-D FFT on roots of unity), the view's density
  relative to counting measure x nu^k is p_L O(l - 1, r, k) + p_R O(l, r - 1, k) + O(l, r, k - 1) (1/k) sum_j
  f(v_j)/nu(v_j) (p_L, p_R, f the victim's tail masses and middle density), so delta = sum_{l, r, k} E[(alpha +
  beta S_k)_+] with S_k the k-fold sum of (f_0 - e^eps f_1)/nu under nu, on a lattice (cells spread to their
  two lattice neighbours). Cost ~ n^3 memory: n <= MIXED_MAX_N.
- `two-users`: n = 2, the exact divergence of the continuous pair (victim 0 vs 1, the other user at o on a grid of
  [0, 1], by quadrature over the middle, tails as symbols) against the reduction's value (max over the other's
  type A, B, C), the latter both by the same quadrature and by the `mixed` lattice code.
- `pairs`: the pure configurations' delta for victim pairs (x0, x1) on a grid, against the pair (0, 1).
- `pair-eps`: the eps of the pure pool all A for the victim pairs (x0, 1), x0 in {0, 0.05, 0.1, 0.2, 0.3}.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from laplace_datasets import _mass, positive_part, solve, tail_merged_eps, tail_merged_law  # noqa: E402

from shuffle_spec.reference.bounds.blanket_exact_laplace import exact_blanket_laplace_epsilon  # noqa: E402
from shuffle_spec.reference.lower_bounds.laplace import laplace_pair_x0_interval  # noqa: E402

# The mixed check: cells of (0, 1) and lattice points of the middle sums. The lattice spans the whole range of the
# k-fold sum, whose per-draw ratio reaches e^{eps0}: 2^16 points agree with the pure pools of laplace_datasets.py
# to 0.005-0.5% relative at eps0 = 1, 4 (n = 50) but were 2x above them at eps0 = 8, n = 100 (a coarse spread only
# raises E[(.)_+]); 2^20 points agree to 0.1% there. Its largest n (memory ~ n^3 complex numbers).
MIXED_CELLS = 4000
MIXED_LATTICE = 1 << 16
MIXED_LATTICE_LARGE_EPS0 = 1 << 20
LARGE_EPS0 = 6.0
MIXED_MAX_N = 200
# Quadrature cells of (0, 1) in `two-users`.
TWO_USER_CELLS = 3000


def vertex_types(eps0: float) -> dict[str, tuple[float, float]]:
    """(a, b) of the vertices: A and B (the arc's ends), C (tangents at 0 and 1), P1 and P2 (tangents at 0, 1/2, 1)."""
    big, s = math.exp(eps0), math.exp(-eps0 / 2)
    return {
        "A": (0.5, 0.5 / big),
        "B": (0.5 / big, 0.5),
        "C": (1 / (big + 1), 1 / (big + 1)),
        "P1": (s / (1 + s), s * s / (1 + s)),
        "P2": (s * s / (1 + s), s / (1 + s)),
    }


def middle_weight(eps0: float) -> float:
    """w: the mass of the blanket's middle on (0, 1)."""
    return math.exp(-eps0 / 2) - math.exp(-eps0)


def count_law(eps0: float, config: dict[tuple[float, float], int]) -> np.ndarray:
    """O[l, r, k] = Pr[the others give l L's, r R's and k middle draws]; config maps a type (a, b) to its count."""
    w = middle_weight(eps0)
    size = sum(config.values()) + 1
    root = np.exp(-2j * np.pi * np.arange(size) / size)
    x, y, z = np.meshgrid(root, root, root, indexing="ij")
    log_g = np.zeros(x.shape, dtype=complex)
    for (a, b), count in config.items():
        if count:
            log_g += count * np.log(a * x + b * y + w * z + (1 - a - b - w))
    # With roots e^{-2 pi i j / size}, G(root^j) is the DFT of the coefficients: ifftn returns them.
    return np.maximum(np.real(np.fft.ifftn(np.exp(log_g))), 0.0)


def config_delta(eps0: float, eps: float, config: dict[tuple[float, float], int], x0: float = 0.0, x1: float = 1.0) -> float:
    """D_{e^eps} of the reduced view, victim x0 vs x1, the others in `config` (module doc, `mixed`)."""
    counts = count_law(eps0, config)
    size = counts.shape[0]
    e = math.exp(eps)
    alpha = 0.5 * (math.exp(-eps0 * x0) - e * math.exp(-eps0 * x1))
    beta = 0.5 * (math.exp(-eps0 * (1 - x0)) - e * math.exp(-eps0 * (1 - x1)))
    edges = np.linspace(0.0, 1.0, MIXED_CELLS + 1)
    lo, hi = edges[:-1], edges[1:]
    nu = np.minimum(_mass(lo, hi, 0.0, eps0), _mass(lo, hi, 1.0, eps0))
    nu = nu / nu.sum()
    z = (_mass(lo, hi, x0, eps0) - e * _mass(lo, hi, x1, eps0)) / nu
    # padded[l + 1, r + 1, k + 1] = O[l, r, k]; the view's counts run to `size` (the victim adds one).
    top = size + 1
    padded = np.zeros((top + 1, top + 1, top + 1))
    padded[1 : size + 1, 1 : size + 1, 1 : size + 1] = counts
    constant = alpha * padded[0:top, 1 : top + 1, 1 : top + 1] + beta * padded[1 : top + 1, 0:top, 1 : top + 1]
    middle = padded[1 : top + 1, 1 : top + 1, 0:top]  # O(l, r, k - 1)
    total = float(np.sum(np.maximum(constant[:, :, 0], 0.0)))
    z_lo, z_hi = float(z.min()), float(z.max())
    k_max = top - 1
    points = MIXED_LATTICE_LARGE_EPS0 if eps0 > LARGE_EPS0 else MIXED_LATTICE
    h = (z_hi - z_lo) * k_max / (points - 8)
    j = np.floor((z - z_lo) / h)
    frac = (z - z_lo) / h - j
    one = np.zeros(points)
    np.add.at(one, j.astype(np.int64), nu * (1 - frac))
    np.add.at(one, j.astype(np.int64) + 1, nu * frac)
    spectrum = np.fft.rfft(one)
    power = np.ones_like(spectrum)
    for k in range(1, k_max + 1):
        power = power * spectrum
        coef, const = middle[:, :, k] / k, constant[:, :, k]
        inside = coef > 0
        total += float(np.sum(np.maximum(const[~inside], 0.0)))
        if not np.any(inside):
            continue
        law = np.maximum(np.fft.irfft(power, points), 0.0)
        values = k * z_lo + np.arange(points) * h
        tail_mass = np.append(np.cumsum(law[::-1])[::-1], 0.0)
        tail_moment = np.append(np.cumsum((law * values)[::-1])[::-1], 0.0)
        t = -const[inside] / coef[inside]  # E[(const + coef S)_+] = coef E[(S - t)_+]
        i = np.clip(np.floor((t - k * z_lo) / h).astype(np.int64) + 1, 0, points)
        total += float(np.sum(coef[inside] * (tail_moment[i] - t * tail_mass[i])))
    return total


def pure_row(eps0: float, n: int, delta: float) -> str:
    start = time.perf_counter()
    lower = laplace_pair_x0_interval(eps0=eps0, n=n, delta=delta).lower
    blanket = exact_blanket_laplace_epsilon(eps0=eps0, n=n, delta=delta).upper
    types = vertex_types(eps0)
    cells = [blanket] + [tail_merged_eps(eps0, n, delta, *types[name]) for name in ("A", "C", "P1")]
    shown = " | ".join(f"{v:.5g} ({v / lower:.3f})" for v in cells)
    return f"| {eps0:g} | {n:.0e} | {delta:g} | {lower:.5g} | {shown} | {time.perf_counter() - start:.0f} s |"


def _compositions(total: int, parts: int, step: int) -> list[tuple[int, ...]]:
    """Counts of `parts` types summing to `total`, each but the last on the grid step Z (plus the end point)."""
    if parts == 1:
        return [(total,)]
    return [(c, *rest) for c in sorted({*range(0, total + 1, step), total}) for rest in _compositions(total - c, parts - 1, step)]


def mixed_table(eps0: float, n: int, eps: float, step: int, names: list[str]) -> list[str]:
    if not 2 <= n <= MIXED_MAX_N:
        raise SystemExit(f"mixed: n={n} outside [2, {MIXED_MAX_N}]")
    types, others = vertex_types(eps0), n - 1
    found = {}
    for counts in _compositions(others, len(names), step):
        config: dict[tuple[float, float], int] = {}
        for name, count in zip(names, counts, strict=True):
            config[types[name]] = config.get(types[name], 0) + count
        found[counts] = max(config_delta(eps0, eps, config, 0.0, 1.0), config_delta(eps0, eps, config, 1.0, 0.0))
    corners = {name: found[tuple(others if j == i else 0 for j in range(len(names)))] for i, name in enumerate(names)}
    corner = max(corners.values())
    worst = max(found, key=found.__getitem__)
    lines = [
        f"eps0 = {eps0:g}, n = {n}, eps = {eps:g}, types {', '.join(names)}: corners "
        + ", ".join(f"all {name} {value:.4e}" for name, value in corners.items())
        + f"; largest {worst}: {found[worst]:.4e} ({found[worst] / corner:.4f} x the largest corner)",
        "",
        "| " + " | ".join(f"n_{name}" for name in names) + " | max of both directions | / largest corner |",
        "|---" * (len(names) + 2) + "|",
    ]
    lines += ["| " + " | ".join(map(str, k)) + f" | {v:.4e} | {v / corner:.3f} |" for k, v in sorted(found.items())]
    return lines


def _density(v: np.ndarray, x: float, eps0: float) -> np.ndarray:
    return 0.5 * eps0 * np.exp(-eps0 * np.abs(v - x))


def _quadrature_vector(x: float, eps0: float, middle: np.ndarray) -> np.ndarray:
    """(mass of L, mass of R, middle masses by the midpoint rule) of one report."""
    return np.concatenate([[0.5 * math.exp(-eps0 * x), 0.5 * math.exp(-eps0 * (1 - x))], middle / TWO_USER_CELLS])


def _two_user_delta(p0: np.ndarray, p1: np.ndarray, other: np.ndarray, e: float, revealed: float = 0.0) -> float:
    """D_e of the shuffled pair (victim p0 vs p1, the other `other`); `revealed`: the other's revealed residual mass."""
    first = 0.5 * (np.outer(p0, other) + np.outer(other, p0))
    second = 0.5 * (np.outer(p1, other) + np.outer(other, p1))
    return float(np.sum(np.maximum(first - e * second, 0.0))) + revealed * float(np.sum(np.maximum(p0 - e * p1, 0.0)))


def two_user_table() -> list[str]:
    v = (np.arange(TWO_USER_CELLS) + 0.5) / TWO_USER_CELLS
    lines = [
        "| eps0 | eps | exact, max over o in {0, 1/20, ..., 1} (argmax) | reduction, quadrature (A, C) | reduction, lattice (A, C) | reduction / exact |",
        "|---|---|---|---|---|---|",
    ]
    for eps0 in (1.0, 4.0, 8.0):
        p0, p1 = _quadrature_vector(0.0, eps0, _density(v, 0.0, eps0)), _quadrature_vector(1.0, eps0, _density(v, 1.0, eps0))
        blanket_middle = 0.5 * eps0 * np.exp(-eps0 * np.maximum(v, 1 - v))
        w = middle_weight(eps0)
        for eps in (0.25 * eps0, 0.5 * eps0, 0.75 * eps0):
            e = math.exp(eps)
            exact = max(
                (max(_two_user_delta(p0, p1, q, e), _two_user_delta(p1, p0, q, e)), o)
                for o in np.linspace(0.0, 1.0, 21)
                for q in [_quadrature_vector(o, eps0, _density(v, o, eps0))]
            )
            quad, lattice = [], []
            for name in ("A", "C"):  # B is A's mirror (both directions are taken)
                a, b = vertex_types(eps0)[name]
                other = np.concatenate([[a, b], blanket_middle / TWO_USER_CELLS])
                quad.append(max(_two_user_delta(p0, p1, other, e, 1 - a - b - w), _two_user_delta(p1, p0, other, e, 1 - a - b - w)))
                lattice.append(max(config_delta(eps0, eps, {(a, b): 1}, 0.0, 1.0), config_delta(eps0, eps, {(a, b): 1}, 1.0, 0.0)))
            lines.append(
                f"| {eps0:g} | {eps:g} | {exact[0]:.6e} ({exact[1]:g}) | {quad[0]:.6e}, {quad[1]:.6e} | {lattice[0]:.6e}, {lattice[1]:.6e} | "
                f"{max(quad) / exact[0]:.4f} |"
            )
    return lines


def pair_table() -> list[str]:
    grid = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)
    lines = ["| eps0 | n | eps | type | pair (0, 1), both directions | largest pair on the grid | ratio |", "|---|---|---|---|---|---|---|"]
    for eps0, n, eps in ((1.0, 100, 0.5), (4.0, 100, 2.5), (8.0, 100, 5.0), (4.0, 1000, 1.0)):
        for name in ("A", "C", "P1"):
            left, right = vertex_types(eps0)[name]
            found = {(x0, x1): positive_part(*tail_merged_law(eps0, eps, left, right, x0, x1), n) for x0 in grid for x1 in grid if x0 != x1}
            ends = max(found[0.0, 1.0], found[1.0, 0.0])
            worst = max(found, key=found.__getitem__)
            lines.append(f"| {eps0:g} | {n} | {eps:g} | {name} | {ends:.4e} | {worst}: {found[worst]:.4e} | {found[worst] / ends:.4f} |")
    return lines


def pair_eps_table(eps0: float, n: int, delta: float) -> list[str]:
    """eps of the pure pool all A for the victim pairs (x0, 1), both directions, x0 near 0."""
    a, b = vertex_types(eps0)["A"]
    lines = ["| eps0 | n | delta | x0 | eps (all A, victim x0 vs 1) |", "|---|---|---|---|---|"]
    for x0 in (0.0, 0.05, 0.1, 0.2, 0.3):
        found = solve(lambda eps: max(positive_part(*tail_merged_law(eps0, eps, a, b, u, v), n) for u, v in ((x0, 1.0), (1.0, x0))), eps0, delta)  # noqa: B023
        lines.append(f"| {eps0:g} | {n} | {delta:g} | {x0:g} | {found:.5g} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    pure = sub.add_parser("pure")
    pure.add_argument("--eps0", default="0.5,1,2,4,8")
    pure.add_argument("--n", default="1e3,1e4")
    pure.add_argument("--delta", type=float, default=1e-6)
    pure.add_argument("--out", default=None)
    mixed = sub.add_parser("mixed")
    mixed.add_argument("eps0", type=float)
    mixed.add_argument("n", type=int)
    mixed.add_argument("eps", type=float)
    mixed.add_argument("--step", type=int, default=8)
    mixed.add_argument("--types", default="A,B,C", help="vertex types among A, B, C, P1, P2 (comma-separated)")
    sub.add_parser("two-users")
    sub.add_parser("pairs")
    pair_eps = sub.add_parser("pair-eps")
    pair_eps.add_argument("eps0", type=float)
    pair_eps.add_argument("n", type=int)
    pair_eps.add_argument("delta", type=float)
    args = parser.parse_args(argv)
    if args.command == "mixed":
        print("\n".join(mixed_table(args.eps0, args.n, args.eps, args.step, args.types.split(","))))
        return 0
    if args.command == "two-users":
        print("\n".join(two_user_table()))
        return 0
    if args.command == "pair-eps":
        print("\n".join(pair_eps_table(args.eps0, args.n, args.delta)))
        return 0
    if args.command == "pairs":
        print("\n".join(pair_table()))
        return 0
    lines = [
        f"`python benchmarks/laplace_tangent_types.py pure --eps0 {args.eps0} --n {args.n} --delta {args.delta:g}` (load average at start: {os.getloadavg()[0]:.1f})",
        "",
        "Uncertified eps of the pure configurations of the tangent-type reduction (module doc) against the certified",
        "lower end of exact.laplace_pair_x0 and the certified blanket upper bound; in parentheses: value / that lower end.",
        "",
        "| eps0 | n | delta | exact.laplace_pair_x0, lower end | blanket (upper) | all A (= tail-merged, others at 0) | all C (tangents at 0, 1) | all P1 (tangents at 0, 1/2, 1) | time |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    print("\n".join(lines), flush=True)
    for eps0 in (float(x) for x in args.eps0.split(",")):
        for n in (int(float(x)) for x in args.n.split(",")):
            lines.append(pure_row(eps0, n, args.delta))
            print(lines[-1], flush=True)
    if args.out:
        with open(args.out, "w") as handle:
            handle.write("# The tangent-type reduction for the Laplace mechanism on [0, 1]: pure configurations\n\n" + "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
