"""Two-sided clones for the shuffled Laplace mechanism on [0, 1]: an UNCERTIFIED prototype of the clone route
(docs/tight_bounds.md, "Laplace: two-sided clones"), its value against the certified lower end of
exact.laplace_pair_x0 and the certified blanket bound BBGN19.Lem5.3.exact_laplace; prints Markdown tables (the
figures of benchmarks/LAPLACE_CLONES.md).

    PYTHONPATH=. nice python3 benchmarks/laplace_clones.py table [--eps0 0.5,1,2,4,8] [--n 1e3,1e4] [--delta 1e-6] [--pairs]
    PYTHONPATH=. nice python3 benchmarks/laplace_clones.py splits EPS0 M EPS [--cells 3|4]
    PYTHONPATH=. nice python3 benchmarks/laplace_clones.py corners EPS0 N EPS [--per-sd 3]

The route (q = e^{-eps0}, mu_x the law of x + Lap(1/eps0), victim 0 vs 1). Every other user at x is a mu_0-clone
with probability a(x) = (q^x - q^{2-x}) / (1 - q^2), a mu_1-clone with b(x) = (q^{1-x} - q^{1+x}) / (1 - q^2),
otherwise a draw of its residual law (mu_x >= a mu_0 + b mu_1 pointwise; a + b >= s = sech(eps0/2), at x = 1/2).
Revealing the residual draws and the clone counts (K0, K1) is a refinement of the view, so delta <= E[D(K0, K1)],
D(j, l) the divergence of the explicit dataset "victim 0 vs 1, j others at 0, l at 1"; D is non-increasing in j
and in l, so delta <= E_{M ~ Bin(n-1, s)}[D*(M)], D*(m) = max_j D(j, m - j) (the same function for both
directions: the mirror swaps j and l). Other victim pairs (x0, x0 + Delta): the (0, 1) route of Laplace with
eps0 Delta, with s(Delta) = min(sech(eps0 Delta / 2), e^{-eps0 (1 - Delta)}) (a user at the far end of [0, 1] is a
clone of the nearer victim input with probability e^{-eps0 d}, and no more), the smallest over placements.

What is computed (`table`): D*(m) is REPLACED by the end split D(m, 0) (all clones at 0) and D(0, m) (= the
backward direction of D(m, 0)): that is a LOWER bound on D*(m), so each figure is a lower bound on what the
route can certify (its floor), exact up to the lattice numerics of benchmarks/laplace_datasets.py. With the end
split the binomial mixture is one compound sum: Pr[Bin(n-1, s) = m] / (m + 1) = Pr[Bin(n, s) = m + 1] / (n s), so

    E_{M ~ Bin(n-1, s)}[D(M, 0)] = (1 / (n s)) E[(W_1 + ... + W_n)_+],  W = 0 w.p. 1 - s, Z w.p. s,

Z the per-report variable of the pair "others at 0" (`dataset_law` of laplace_datasets.py), one tilted FFT per
direction. The column "s = 1" is the dataset "all others at 0" itself (the truth's best estimate there).
`--pairs` adds the largest floor over the victim gaps Delta in PAIR_GAPS.

`splits`: is the worst split an end split? D(j, m - j) for Laplace with its outputs binned into 3 cells (y <= 0,
(0, 1), y >= 1) or 4 cells (the middle cut at 1/2), from the exact count laws (a multi-dimensional FFT of the
generating function). Binning is a post-processing, so these are lower bounds on the continuous D(j, l): evidence
about the shape in j, not a bound.

`corners`: the tangent refinement (docs): E[D(K0, K1)] is multilinear in each user's clone probabilities (a, b) and
non-increasing in them, and the curve x -> (a(x), b(x)) lies above the polyline A = (1, 0), P1, P2, B = (0, 1) of its
tangents at 0, 1/2 and 1, so every dataset is bounded by a configuration of those four types. The command compares,
on Laplace binned into 3 cells (the clone inequality survives binning), the corner "all A" (= all others at 0) with
"all P1" ((K0, K1) multinomial) and with the plain route's end split, each bracketed by the monotonicity of D.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np
from laplace_datasets import dataset_law, positive_part, solve

from shuffle_spec.reference.bounds.blanket_exact_laplace import exact_blanket_laplace_epsilon
from shuffle_spec.reference.lower_bounds.laplace import laplace_pair_x0_interval

# Victim gaps Delta = x1 - x0 tried by `--pairs` (Delta = 1 is the pair (0, 1)).
PAIR_GAPS = (0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0)


def clone_mass(eps0: float, gap: float = 1.0) -> float:
    """The smallest clone mass over inputs in [0, 1] for a victim pair at distance `gap` placed at an end of [0, 1]
    (the worst placement): sech(eps0 gap / 2) inside the pair, e^{-eps0 (1 - gap)} at the far end."""
    return min(1 / math.cosh(eps0 * gap / 2), math.exp(-eps0 * (1 - gap)))


def end_split_delta(eps0: float, n: int, s: float, eps: float) -> float:
    """E_{M ~ Bin(n-1, s)}[max(D(M, 0), D(0, M))] at eps, bounded below by the larger of the two directions'
    compound sums (module doc; uncertified lattice numerics)."""
    best = 0.0
    for a, b in ((0.0, 1.0), (1.0, 0.0)):
        values, masses = dataset_law(eps0, eps, (0.0,), (1.0,), a, b)
        if s < 1:  # the users that are not clones: a report of Z = 0
            values, masses = np.concatenate([values, [0.0]]), np.concatenate([masses * s, [1.0 - s]])
        best = max(best, positive_part(values, masses, n) / s)
    return best


def end_split_eps(eps0: float, n: int, delta: float, s: float) -> float:
    return solve(lambda eps: end_split_delta(eps0, n, s, eps), eps0, delta)


def row(eps0: float, n: int, delta: float, pairs: bool) -> str:
    start = time.perf_counter()
    lower = laplace_pair_x0_interval(eps0=eps0, n=n, delta=delta).lower
    blanket = exact_blanket_laplace_epsilon(eps0=eps0, n=n, delta=delta).value
    s = clone_mass(eps0)
    at_zero = end_split_eps(eps0, n, delta, 1.0)
    clones = end_split_eps(eps0, n, delta, s)
    cells = [
        f"{eps0:g}", f"{n:.0e}", f"{delta:g}", f"{lower:.5g}", f"{blanket:.5g} ({blanket / lower:.3f})", f"{at_zero:.5g} ({at_zero / lower:.3f})",
        f"{s:.4f}", f"{clones:.5g} ({clones / lower:.3f})",
    ]
    if pairs:
        found = {gap: end_split_eps(eps0 * gap, n, delta, clone_mass(eps0, gap)) for gap in PAIR_GAPS}
        worst = max(found, key=found.__getitem__)
        cells.append(f"{found[worst]:.5g} ({found[worst] / lower:.3f}) at {worst:g}")
        cells.append(" ".join(f"{found[gap]:.4g}" for gap in PAIR_GAPS))
        clones = found[worst]
    cells.append("yes" if clones < blanket else "no")
    cells.append(f"{time.perf_counter() - start:.0f} s")
    return "| " + " | ".join(cells) + " |"


def table(args: argparse.Namespace) -> int:
    command = f"python benchmarks/laplace_clones.py table --eps0 {args.eps0} --n {args.n} --delta {args.delta}" + (" --pairs" if args.pairs else "")
    header = ["eps0", "n", "delta", "pair x0, certified lower end", "blanket (certified upper)", "s = 1: all others at 0", "s = sech(eps0/2)", "clones (0, 1), end split"]
    if args.pairs:
        header += ["clones, worst gap", "per gap " + " / ".join(f"{gap:g}" for gap in PAIR_GAPS)]
    header += ["below the blanket", "time"]
    lines = [
        f"`{command}` (load average at start: {os.getloadavg()[0]:.1f})",
        "",
        "Uncertified floors of the clone route (module doc of the script); in parentheses: the value / the certified lower end.",
        "",
        "| " + " | ".join(header) + " |",
        "|---" * len(header) + "|",
    ]
    print("\n".join(lines), flush=True)
    for delta in (float(x) for x in args.delta.split(",")):
        for eps0 in (float(x) for x in args.eps0.split(",")):
            for n in (int(float(x)) for x in args.n.split(",")):
                print(row(eps0, n, delta, args.pairs), flush=True)
    return 0


def _count_law(p_first: np.ndarray, p_second: np.ndarray, first: int, second: int) -> np.ndarray:
    """The law of the counts of cells 0..d-1 (the last cell implied) of `first` draws of p_first and `second` of
    p_second: the coefficients of the generating function on the (first + second + 1)-th roots of unity."""
    size, d = first + second + 1, len(p_first) - 1
    z = np.meshgrid(*[np.exp(2j * np.pi * np.arange(size) / size)] * d, indexing="ij")
    g_first = p_first[-1] + sum(p_first[i] * z[i] for i in range(d))
    g_second = p_second[-1] + sum(p_second[i] * z[i] for i in range(d))
    return np.maximum(np.real(np.fft.fftn(g_first**first * g_second**second)) / size**d, 0.0)


def binned_split_deltas(eps0: float, j: int, others_at_one: int, eps: float, cells: int) -> tuple[float, float]:
    """(forward, backward) delta at eps of "victim 0 vs 1, j others at 0, the rest at 1" with the outputs binned
    (module doc): exact count laws, a lower bound on the continuous pair's deltas."""
    q = math.exp(-eps0)
    if cells == 3:
        p0 = np.array([0.5, (1 - q) / 2, q / 2])
    else:
        p0 = np.array([0.5, (1 - math.sqrt(q)) / 2, (math.sqrt(q) - q) / 2, q / 2])
    p1 = p0[::-1].copy()
    victim_at_zero = _count_law(p0, p1, j + 1, others_at_one)
    victim_at_one = _count_law(p0, p1, j, others_at_one + 1)
    e = math.exp(eps)
    return float(np.sum(np.maximum(victim_at_zero - e * victim_at_one, 0))), float(np.sum(np.maximum(victim_at_one - e * victim_at_zero, 0)))


def splits(args: argparse.Namespace) -> int:
    m = args.m
    print(f"| j (others at 0) | l (others at 1) | forward | backward | max |  (eps0 = {args.eps0:g}, m = {m}, eps = {args.eps:g}, {args.cells} cells)")
    print("|---|---|---|---|---|")
    for j in sorted({0, 1, m // 20, m // 10, m // 4, m // 2, 3 * m // 4, m - m // 10, m - 1, m}):
        forward, backward = binned_split_deltas(args.eps0, j, m - j, args.eps, args.cells)
        print(f"| {j} | {m - j} | {forward:.4g} | {backward:.4g} | {max(forward, backward):.4g} |", flush=True)
    return 0


def tangent_vertex(eps0: float) -> tuple[float, float]:
    """P1: where the tangent of x -> (a(x), b(x)) at x = 0 meets the tangent at x = 1/2 (a + b = sech(eps0/2))."""
    q, log_q = math.exp(-eps0), -eps0
    da, db = log_q * (1 + q * q) / (1 - q * q), -2 * log_q * q / (1 - q * q)  # (a'(0), b'(0))
    t = (1 - 1 / math.cosh(eps0 / 2)) / -(da + db)
    return 1 + t * da, t * db


def _binomial_log_pmf(k: np.ndarray, size: int, p: float) -> np.ndarray:
    from scipy.special import gammaln

    return gammaln(size + 1) - gammaln(k + 1) - gammaln(size - k + 1) + k * math.log(p) + (size - k) * math.log1p(-p)


def corners(args: argparse.Namespace) -> int:
    """All others of type A = (1, 0) (the dataset "all others at 0") against all of type P1, on Laplace binned into
    3 cells: E[D(K0, K1)] with (K0, K1) ~ Mult(n - 1; P1), bracketed on a grid of (j, l) by the monotonicity of D
    (a block's upper end: D at its low corner; lower end: D at its high corner); each direction separately."""
    eps0, n, eps = args.eps0, args.n, args.eps
    alpha, beta = tangent_vertex(eps0)
    others = n - 1
    at_zero = binned_split_deltas(eps0, others, 0, eps, 3)
    print(f"eps0 = {eps0:g}, n = {n}, eps = {eps:g}, 3 cells; P1 = ({alpha:.4f}, {beta:.4f})")
    print(f"all A (all others at 0): forward {at_zero[0]:.4g}, backward {at_zero[1]:.4g}")

    def grid(p: float) -> np.ndarray:
        mean, sd = others * p, math.sqrt(others * p * (1 - p))
        step = max(1, int(sd / args.per_sd))
        low, high = max(0, int(mean - 7 * sd)), min(others, int(mean + 7 * sd) + 1)
        return np.unique(np.append(np.arange(low, high + 1, step), high))

    js, ls = grid(alpha), grid(beta)  # the marginals: K0 ~ Bin(n - 1, alpha), K1 ~ Bin(n - 1, beta)
    values = {(j, k1): binned_split_deltas(eps0, int(j), int(k1), eps, 3) for j in js for k1 in ls if j + k1 <= others}
    # Pr[K0 = j] and Pr[K1 = l | K0 = j] (K1 | K0 ~ Bin(n - 1 - K0, beta / (1 - alpha))).
    upper, lower, covered = [0.0, 0.0], [0.0, 0.0], 0.0
    for ja, jb in zip(js[:-1], js[1:], strict=True):
        for j in range(int(ja), int(jb)):
            pj = math.exp(float(_binomial_log_pmf(np.array(j), others, alpha)))
            rest = others - j
            for la, lb in zip(ls[:-1], ls[1:], strict=True):
                if la > rest:
                    break
                l_values = np.arange(int(la), min(int(lb), rest + 1))
                mass = pj * float(np.sum(np.exp(_binomial_log_pmf(l_values, rest, beta / (1 - alpha)))))
                covered += mass
                top, bottom = values.get((ja, la)), values.get((jb, lb), (0.0, 0.0))
                for side in (0, 1):
                    upper[side] += mass * top[side]
                    lower[side] += mass * bottom[side]
    s, m_grid = alpha + beta, grid(alpha + beta)
    plain = [[0.0, 0.0], [0.0, 0.0]]  # the route without types: E_{M ~ Bin(n-1, s)}[D(M, 0)] (the end split), bracketed
    ends = {int(m): binned_split_deltas(eps0, int(m), 0, eps, 3) for m in m_grid}
    for ma, mb in zip(m_grid[:-1], m_grid[1:], strict=True):
        mass = float(np.sum(np.exp(_binomial_log_pmf(np.arange(int(ma), int(mb)), others, s))))
        for side in (0, 1):
            plain[0][side] += mass * ends[int(mb)][side]
            plain[1][side] += mass * ends[int(ma)][side]
    print(f"end split, M ~ Bin(n - 1, s): forward in [{plain[0][0]:.4g}, {plain[1][0]:.4g}], backward in [{plain[0][1]:.4g}, {plain[1][1]:.4g}]")
    print(f"all P1: forward in [{lower[0]:.4g}, {upper[0]:.4g}], backward in [{lower[1]:.4g}, {upper[1]:.4g}]"
          f" (mass of (K0, K1) in the grid's blocks: {covered:.6f}; the rest not counted)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    grid = commands.add_parser("table", help="the route's floor against the certified ends")
    grid.add_argument("--eps0", default="0.5,1,2,4,8")
    grid.add_argument("--n", default="1e3,1e4")
    grid.add_argument("--delta", default="1e-6")
    grid.add_argument("--pairs", action="store_true", help="also the worst victim gap of PAIR_GAPS (7 times the work)")
    split = commands.add_parser("splits", help="binned D(j, m - j) over the splits j")
    split.add_argument("eps0", type=float)
    split.add_argument("m", type=int)
    split.add_argument("eps", type=float)
    split.add_argument("--cells", type=int, choices=(3, 4), default=3)
    corner = commands.add_parser("corners", help="the vertex types A and P1 against each other, binned into 3 cells")
    corner.add_argument("eps0", type=float)
    corner.add_argument("n", type=int)
    corner.add_argument("eps", type=float)
    corner.add_argument("--per-sd", type=float, default=3.0, help="grid points per standard deviation of the counts")
    args = parser.parse_args(argv)
    return {"table": table, "splits": splits, "corners": corners}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
