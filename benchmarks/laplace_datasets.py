"""Where the truth is for the shuffled Laplace mechanism on [0, 1] (scale 1/eps0, replace-one): near-exact eps of
explicit neighbouring datasets, and two candidate upper-bound reductions evaluated on their most favourable
configuration; prints a Markdown table (written to benchmarks/LAPLACE_DATASETS.md, cited by docs/tight_bounds.md).

    PYTHONPATH=. nice python3 benchmarks/laplace_datasets.py [--eps0 1,4,8] [--n 1e3,1e4] [--delta 1e-6] [--out FILE]

UNCERTIFIED numerics (float quadrature, a lattice spread and one FFT): these numbers locate the truth and judge
routes; none of them is a certified bound. The certified columns come from the package.

The datasets: user 1 holds 0 vs 1; the other n - 1 users are i.i.d. draws from a law pi on [0, 1] (a point mass:
the deterministic dataset "all others at y"). Their reports are i.i.d. from m = int mu_x dpi(x), mu_x the Laplace
density at x, so relative to m^n the shuffled output has density (1/n) sum_i mu_a(V_i) / m(V_i) and

    D_{e^eps}(P_0 || P_1) = (1/n) E[(Z_1 + ... + Z_n)_+],  Z = (mu_0(V) - e^eps mu_1(V)) / m(V),  V ~ m,

the reverse direction with 0 and 1 swapped (the same identity as exact.laplace_pair_x0's, where m = mu_0). For a
non-degenerate pi this is a LOWER bound on the worst deterministic dataset: the hockey-stick divergence is jointly
convex, so the i.i.d. mixture's divergence is at most the average over the deterministic datasets it mixes. "All
at 1" equals "all at 0" (the mirror v -> 1 - v swaps the pair; both directions are taken). Per user, V's law is
exact: the atoms V <= 0 and V >= 1 (Z is constant there for inputs in [0, 1]), and cells of (0, 1) contracted to
their exact conditional means (cell masses and moments from the Laplace CDF); the sum is taken on a lattice (each
value spread to its two neighbours, keeping the mean) by one exponentially tilted FFT, truncating Z at
-(n - 1) max Z (exact for the positive part, as in exact.laplace_pair_x0).

The tail-merged bounds (candidate upper bounds; written by hand because nothing in the package evaluates them).
Outputs <= 0 (and >= 1) are a sufficient statistic for inputs in [0, 1] (the shape of mu_x there does not depend
on x), so the view is the multiset with those outputs replaced by symbols L and R. Each other user at x then
draws L with probability a(x) = e^{-eps0 x}/2, R with b(x) = e^{-eps0 (1 - x)}/2, a draw of min(mu_0, mu_1) on
(0, 1) (mass c = e^{-eps0/2} - e^{-eps0}, the blanket's middle) or a residual that is revealed. With all others at
x the pool is i.i.d. and the identity above evaluates it ("tail-merged, others at 0"). Over every dataset: a(x) +
b(x) >= e^{-eps0/2} = A and a, b >= e = e^{-eps0}/2 (AM-GM, a b = e^{-eps0}/4), so each user's (a, b) dominates a
point of the segment between the two "types" (A - e, e) and (e, A - e); revealing more is post-processing and
the divergence is convex in each user's law, so the worst case is a configuration of k users of the first type
and n - 1 - k of the second. The column "two types, pure" is k = n - 1 (= k = 0 by the mirror); that mixed k is
never worse is NOT proven (checked at n <= 1000 only, `--mixed`), so this column is
not a certified upper bound. The blanket decomposition is the same computation with a = b = e.

The mixed configurations (`--mixed EPS0:N:EPS`): k users of the first type and n - 1 - k of the second are not
i.i.d., but their middle draws are (c does not depend on the type), so with the counts (N_L, N_R, m) of the pool
and its m middle values v_i the density relative to (counting measure) x nu^m is

    p_L(x) f(N_L - 1, N_R, m) + p_R(x) f(N_L, N_R - 1, m) + f(N_L, N_R, m - 1) (1/m) sum_i mu_x(v_i) / nu(v_i),

f the others' count law, nu the normalised middle. Whether a user emits a tail symbol, a middle draw or a residual
does not depend on its type, so f(l, r, m) = Pr[m middle draws, l + r tail symbols] psi_k(l | l + r), psi_k the law
of the L symbols among the tail symbols (a hypergeometric mixture of two binomials); the delta is a sum over the
counts within MIXED_WINDOW standard deviations of E[(alpha + beta S_m)_+], S_m the m-fold sum of the per-draw
ratio on a lattice. Its cost grows like n^2 per configuration and middle count: n is capped at MIXED_MAX_N.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np

from shuffle_spec.reference.bounds.blanket_exact_laplace import exact_blanket_laplace_epsilon
from shuffle_spec.reference.lower_bounds.laplace import laplace_pair_x0_interval

# Cells of (0, 1) and lattice steps per tilted standard deviation: 2e4 and 16 move eps by < 1e-4 relative
# against 2e5 and 32 at eps0 = 1, n = 1e4 (0.031306 and 0.031304).
CELLS = 20_000
STEPS = 16
DATASETS = {
    "all at 0": ((0.0,), (1.0,)),
    "all at 1/4": ((0.25,), (1.0,)),
    "all at 1/2": ((0.5,), (1.0,)),
    "iid 0 or 1 (1/2 each)": ((0.0, 1.0), (0.5, 0.5)),
    "iid 0 (0.9) or 1 (0.1)": ((0.0, 1.0), (0.9, 0.1)),
    "iid 0 or 1/2 (1/2 each)": ((0.0, 0.5), (0.5, 0.5)),
}


def _cdf(v: np.ndarray, x: float, eps0: float) -> np.ndarray:
    d = v - x
    return np.where(d < 0, 0.5 * np.exp(eps0 * np.minimum(d, 0)), 1 - 0.5 * np.exp(-eps0 * np.maximum(d, 0)))


def _mass(lo: np.ndarray, hi: np.ndarray, x: float, eps0: float) -> np.ndarray:
    return _cdf(hi, x, eps0) - _cdf(lo, x, eps0)


def _logsumexp(a: np.ndarray) -> float:
    top = float(np.max(a))
    return top + math.log(float(np.sum(np.exp(a - top))))


def dataset_law(eps0: float, eps: float, points: tuple[float, ...], weights: tuple[float, ...], a: float, b: float) -> tuple[np.ndarray, np.ndarray]:
    """(values, masses) of Z = (mu_a - e^eps mu_b) / m, V ~ m = sum_k weights_k mu_{points_k}."""
    e = math.exp(eps)
    left = sum(w * math.exp(-eps0 * y) for y, w in zip(points, weights, strict=True))  # m on V <= 0 is left * (eps0/2) e^{eps0 v}
    right = sum(w * math.exp(eps0 * y) for y, w in zip(points, weights, strict=True))  # m on V >= 1: right * (eps0/2) e^{-eps0 v}
    values = [(math.exp(-eps0 * a) - e * math.exp(-eps0 * b)) / left, (math.exp(eps0 * a) - e * math.exp(eps0 * b)) / right]
    masses = [0.5 * left, 0.5 * math.exp(-eps0) * right]
    breaks = sorted({0.0, 1.0, *points})
    edges = np.concatenate([np.linspace(s, t, max(2, int(CELLS * (t - s))) + 1)[:-1] for s, t in zip(breaks[:-1], breaks[1:], strict=True)] + [np.array([1.0])])
    lo, hi = edges[:-1], edges[1:]
    m = sum(w * _mass(lo, hi, y, eps0) for y, w in zip(points, weights, strict=True))
    moment = _mass(lo, hi, a, eps0) - e * _mass(lo, hi, b, eps0)
    return np.concatenate([values, moment / m]), np.concatenate([masses, m])


def tail_merged_law(eps0: float, eps: float, left: float, right: float, a: float, b: float) -> tuple[np.ndarray, np.ndarray]:
    """(values, masses) of Z for the tail-merged pool (module doc): L with mass `left`, R with `right`, the blanket's
    middle min(mu_0, mu_1) on (0, 1), the revealed rest at Z = 0."""
    e = math.exp(eps)
    values = [(0.5 * math.exp(-eps0 * a) - e * 0.5 * math.exp(-eps0 * b)) / left, (0.5 * math.exp(-eps0 * (1 - a)) - e * 0.5 * math.exp(-eps0 * (1 - b))) / right]
    edges = np.linspace(0.0, 1.0, CELLS + 1)  # CELLS even: 1/2 is an edge
    lo, hi = edges[:-1], edges[1:]
    m = np.minimum(_mass(lo, hi, 0.0, eps0), _mass(lo, hi, 1.0, eps0))
    moment = _mass(lo, hi, a, eps0) - e * _mass(lo, hi, b, eps0)
    rest = 1 - left - right - float(np.sum(m))
    return np.concatenate([values, moment / m, [0.0]]), np.concatenate([[left, right], m, [rest]])


def positive_part(values: np.ndarray, masses: np.ndarray, n: int) -> float:
    """(1/n) E[(sum of n i.i.d. copies)_+] by one tilted FFT (module doc; uncertified)."""
    top = float(np.max(values))
    if top <= 0:
        return 0.0
    v = np.maximum(values, -(n - 1) * top * (1 + 1e-6) - 1e-12)
    log_m = np.log(masses)

    def slope(theta: float) -> float:
        a = log_m + theta * v
        p = np.exp(a - np.max(a))
        return float(np.sum(p * v) / np.sum(p))

    low, high = 0.0, 1.0
    while slope(high) < 0:
        low, high = high, 2 * high
    for _ in range(80):
        mid = 0.5 * (low + high)
        low, high = (mid, high) if slope(mid) < 0 else (low, mid)
    theta = high
    a = log_m + theta * v
    q = np.exp(a - _logsumexp(a))
    mean = float(np.sum(q * v))
    sd = math.sqrt(float(np.sum(q * (v - mean) ** 2)))
    h = 2.0 ** math.floor(math.log2(sd / STEPS))
    j = np.floor(v / h)
    frac = v / h - j
    index = np.concatenate([j, j + 1]).astype(np.int64)
    w = np.concatenate([masses * (1 - frac), masses * frac])
    keep = w > 0
    index, log_w = index[keep], np.log(w[keep]) + theta * index[keep] * h
    log_c = _logsumexp(log_w)
    size = 1 << math.ceil(math.log2(max(80 * math.sqrt(n) * sd / h, 1024)))
    tilted = np.zeros(size)
    np.add.at(tilted, np.mod(index, size), np.exp(log_w - log_c))
    summed = np.fft.irfft(np.fft.rfft(tilted) ** n, size)
    k = np.arange(size)
    s = np.where(k >= size // 2, k - size, k) * h
    pos = s > 0
    return float(np.sum(s[pos] * np.exp(-theta * s[pos] + n * log_c) * summed[pos])) / n


def solve(delta_at, eps0: float, delta: float) -> float:
    """The eps where delta_at(eps) crosses delta (bisection to 1e-5 relative)."""
    lo, hi = 0.0, eps0
    while hi - lo > 1e-5 * hi:
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if delta_at(mid) > delta else (lo, mid)
    return 0.5 * (lo + hi)


def dataset_eps(eps0: float, n: int, delta: float, points: tuple[float, ...], weights: tuple[float, ...]) -> float:
    return solve(lambda eps: max(positive_part(*dataset_law(eps0, eps, points, weights, a, b), n) for a, b in ((0.0, 1.0), (1.0, 0.0))), eps0, delta)


def tail_merged_eps(eps0: float, n: int, delta: float, left: float, right: float) -> float:
    return solve(lambda eps: max(positive_part(*tail_merged_law(eps0, eps, left, right, a, b), n) for a, b in ((0.0, 1.0), (1.0, 0.0))), eps0, delta)


# The mixed check's largest n (its cost grows like n^2 per configuration and middle count).
MIXED_MAX_N = 1000
MIXED_LATTICE = 1 << 20
# Counts farther than this many standard deviations from their means are left out (mass below 1e-18).
MIXED_WINDOW = 9.0


def _log_choose(a: int, b: int) -> float:
    return math.lgamma(a + 1) - math.lgamma(b + 1) - math.lgamma(a - b + 1)


def _tail_symbol_law(n_others: int, k: int, tails: int, q: float) -> np.ndarray:
    """psi[l] = Pr[l of the `tails` tail symbols are L]: the tail emitters are a hypergeometric draw from the k
    users of the first type (L with probability 1 - q) and the others (L with probability q); by the generating
    function on the (tails + 1)-th roots of unity."""
    i = np.arange(max(0, tails - (n_others - k)), min(k, tails) + 1)
    weights = np.exp([_log_choose(k, int(v)) + _log_choose(n_others - k, tails - int(v)) - _log_choose(n_others, tails) for v in i])
    keep = weights > 1e-30
    i, weights = i[keep], weights[keep]
    z = np.exp(2j * np.pi * np.arange(tails + 1) / (tails + 1))[:, None]
    g = ((q + (1 - q) * z) ** i[None, :] * ((1 - q) + q * z) ** (tails - i)[None, :]) @ weights
    return np.maximum(np.real(np.fft.fft(g)) / (tails + 1), 0.0)


def mixed_configuration_deltas(eps0: float, n: int, eps: float, ks: list[int]) -> dict[int, tuple[float, float]]:
    """{k: (forward delta, backward delta)} of the tail-merged pool with k users of the first type (module doc)."""
    if not 2 <= n <= MIXED_MAX_N:
        raise SystemExit(f"--mixed: n={n} outside [2, {MIXED_MAX_N}]")
    big_a, e = math.exp(-eps0 / 2), 0.5 * math.exp(-eps0)
    c = big_a - math.exp(-eps0)
    others, q = n - 1, e / big_a

    def window(p: float) -> tuple[int, int]:
        mean, sd = others * p, math.sqrt(others * p * (1 - p))
        return max(0, int(mean - MIXED_WINDOW * sd) - 2), min(others, int(mean + MIXED_WINDOW * sd) + 3)

    (m_lo, m_hi), (s_lo, s_hi) = window(c), window(big_a)

    def counts(m: int, tails: int) -> float:
        """Pr[the others give m middle draws and `tails` tail symbols] (the type does not change it)."""
        if m < 0 or tails < 0 or m + tails > others:
            return 0.0
        log_p = _log_choose(others, m) + _log_choose(others - m, tails) + m * math.log(c) + tails * math.log(big_a)
        return math.exp(log_p + (others - m - tails) * math.log(1 - big_a - c))

    laws = {k: {s: _tail_symbol_law(others, k, s, q) for s in range(max(s_lo - 1, 0), s_hi + 1)} for k in ks}
    e_eps = math.exp(eps)
    edges = np.linspace(0.0, 1.0, CELLS + 1)
    lo, hi = edges[:-1], edges[1:]
    middle = np.minimum(_mass(lo, hi, 0.0, eps0), _mass(lo, hi, 1.0, eps0))
    total_middle = float(np.sum(middle))
    totals = {(k, name): 0.0 for k in ks for name in ("forward", "backward")}
    for name, (a, b) in (("forward", (0.0, 1.0)), ("backward", (1.0, 0.0))):
        ratio = (_mass(lo, hi, a, eps0) - e_eps * _mass(lo, hi, b, eps0)) / middle * total_middle  # (mu_a - e^eps mu_b) / nu
        low = float(np.min(ratio))
        h = (float(np.max(ratio)) - low) * m_hi / (MIXED_LATTICE - 8)
        j = np.floor((ratio - low) / h)
        frac = (ratio - low) / h - j
        w = np.zeros(MIXED_LATTICE)
        np.add.at(w, j.astype(np.int64), middle / total_middle * (1 - frac))
        np.add.at(w, j.astype(np.int64) + 1, middle / total_middle * frac)
        spectrum = np.fft.rfft(w)
        power = spectrum ** max(m_lo - 1, 0)
        d_left = 0.5 * (math.exp(-eps0 * a) - e_eps * math.exp(-eps0 * b))
        d_right = 0.5 * (math.exp(-eps0 * (1 - a)) - e_eps * math.exp(-eps0 * (1 - b)))
        if m_lo == 0:  # no middle value in the view: the user's report is a tail symbol, (alpha)_+ alone
            for s in range(max(s_lo, 1), s_hi + 1):
                for k in ks:
                    psi = counts(0, s - 1) * laws[k][s - 1]
                    totals[k, name] += float(np.sum(np.maximum(np.append(psi * d_right, 0.0) + np.append(0.0, psi * d_left), 0.0)))
        for m in range(max(m_lo, 1), m_hi + 1):
            power = power * spectrum
            law = np.maximum(np.fft.irfft(power, MIXED_LATTICE), 0.0)
            values = m * low + np.arange(MIXED_LATTICE) * h
            tail_mass = np.append(np.cumsum(law[::-1])[::-1], 0.0)
            tail_moment = np.append(np.cumsum((law * values)[::-1])[::-1], 0.0)
            for s in range(s_lo, s_hi + 1):  # s tail symbols in the view (N_L = 0..s), m middle values
                user_tail, user_middle = counts(m, s - 1), counts(m - 1, s) / m
                for k in ks:
                    alpha = np.zeros(s + 1)
                    if s >= 1:
                        psi = laws[k][s - 1]
                        alpha[1:] += user_tail * psi * d_left
                        alpha[:-1] += user_tail * psi * d_right
                    beta = user_middle * laws[k][s]
                    inside = beta > 0
                    t = -alpha[inside] / beta[inside]  # E[(alpha + beta S)_+] = beta E[(S - t)_+]
                    i = np.clip(np.floor((t - m * low) / h).astype(np.int64) + 1, 0, MIXED_LATTICE)
                    totals[k, name] += float(np.sum(np.maximum(alpha[~inside], 0.0))) + float(np.sum(beta[inside] * (tail_moment[i] - t * tail_mass[i])))
    return {k: (totals[k, "forward"], totals[k, "backward"]) for k in ks}


def row(eps0: float, n: int, delta: float) -> str:
    start = time.perf_counter()
    found = {name: dataset_eps(eps0, n, delta, *law) for name, law in DATASETS.items()}
    truth = max(found.values())
    pair = laplace_pair_x0_interval(eps0=eps0, n=n, delta=delta)
    blanket = exact_blanket_laplace_epsilon(eps0=eps0, n=n, delta=delta).upper
    e, big_a = 0.5 * math.exp(-eps0), math.exp(-eps0 / 2)
    at_zero = tail_merged_eps(eps0, n, delta, 0.5, e)
    two_types = tail_merged_eps(eps0, n, delta, big_a - e, e)
    cells = [f"{found[name]:.5g}" for name in DATASETS]
    return (
        f"| {eps0:g} | {n:.0e} | " + " | ".join(cells) + f" | [{pair.lower:.5g}, {pair.upper:.5g}] | {blanket:.5g} ({blanket / truth:.3f}) | "
        f"{at_zero:.5g} ({at_zero / truth:.3f}) | {two_types:.5g} ({two_types / truth:.3f}) | {time.perf_counter() - start:.0f} s |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--eps0", default="1,4,8")
    parser.add_argument("--n", default="1e3,1e4")
    parser.add_argument("--delta", type=float, default=1e-6)
    parser.add_argument("--out", default=None)
    parser.add_argument("--mixed", default=None, metavar="EPS0:N:EPS", help="only the mixed-configuration check at one point")
    args = parser.parse_args(argv)
    if args.mixed:
        eps0, n, eps = (float(x) for x in args.mixed.split(":"))
        size = int(n)
        ks = sorted({0, 1, size // 100, size // 20, size // 4, (size - 1) // 2})  # k and n - 1 - k mirror each other
        print(f"| k (users of type (A - e, e)) | forward delta | backward delta | max |  (eps0 = {eps0:g}, n = {size}, eps = {eps:g})")
        print("|---|---|---|---|")
        for k, (forward, backward) in mixed_configuration_deltas(eps0, size, eps, ks).items():
            print(f"| {k} | {forward:.4g} | {backward:.4g} | {max(forward, backward):.4g} |", flush=True)
        return 0
    lines = [
        f"`python benchmarks/laplace_datasets.py --eps0 {args.eps0} --n {args.n} --delta {args.delta:g}` (load average at start: {os.getloadavg()[0]:.1f})",
        "",
        "Uncertified near-exact eps per dataset (user 1 at 0 vs 1; module doc of the script), the certified interval of",
        "exact.laplace_pair_x0, the certified blanket upper bound (BBGN19.Lem5.3.exact_laplace) and two tail-merged",
        "candidates (uncertified; the second is a bound only if its mixed configurations are never worse); in",
        "parentheses: the value / the largest dataset eps.",
        "",
        "| eps0 | n | " + " | ".join(DATASETS) + " | pair, certified | blanket (upper) | tail-merged, others at 0 | two types, pure | time |",
        "|---" * (len(DATASETS) + 7) + "|",
    ]
    print("\n".join(lines), flush=True)
    for eps0 in (float(x) for x in args.eps0.split(",")):
        for n in (int(float(x)) for x in args.n.split(",")):
            lines.append(row(eps0, n, args.delta))
            print(lines[-1], flush=True)
    if args.out:
        with open(args.out, "w") as handle:
            handle.write("# Explicit datasets and tail-merged candidates: the Laplace mechanism on [0, 1]\n\n" + "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
