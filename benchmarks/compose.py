"""Benchmark and comparison table: epsilon after many shuffled rounds.

Run from the repository root:
    python3 benchmarks/compose.py            timings (T = 1000 and 10000 at n = 1e6) and the 10x-finer-grid check
    python3 benchmarks/compose.py --table    the comparison table (markdown on stdout) and the PLD / advanced ratios;
                                             kept in benchmarks/COMPOSE_RESULTS.md, which the docs include
    python3 benchmarks/compose.py --mechanism [--n 1e4]
                                             the mechanism-specific table (compose.binary_rr, compose.krr): per cell
                                             the generic composed value (stronger clones), the mechanism-specific
                                             one, the certified lower bound and their ratio, with the times
                                             (envelope once per (eps0, n, k); composition per T), then the
                                             end-to-end times below
    python3 benchmarks/compose.py --mechanism-times
                                             end-to-end times of compose.binary_rr / compose.krr from empty caches
                                             (T = 1000 and 10000, the cells of the mechanism-specific table),
                                             CPU and wall seconds
    python3 benchmarks/compose.py --krr-nodes [eps0 k n]
                                             where the seconds of one k-RR envelope go (default eps0 = 4, k = 3,
                                             n = 1e6, the floor of delta = 1e-6 at T = 1000): per node its eps, the
                                             lattice sum's precision hint, its certified upper value, CPU ms, and the
                                             size of its sum (N grid points, rows (N, b), row elements a, b values
                                             queried); then the totals per hint
    python3 benchmarks/compose.py --krr-moments
                                             a measurement for a batched k-RR envelope (uncertified, nothing in the
                                             package uses it): the row sums over a of one lattice-sum layout (eps0 = 4,
                                             k = 3, n = 1e6, the nodes of precision 1e-12) from eps-independent suffix
                                             moments of one pmf row per (N, b) over the union of the nodes' ranges,
                                             against the engine's certified row bounds: one-time and per-node CPU,
                                             and their ratio at three nodes
    python3 benchmarks/compose.py --worked   the worked examples of docs/composition.md: a year of daily k-RR
                                             reports (T = 365, k = 10, eps0 in {2, 4, 8}, n in {1e7, 1e8}) and a
                                             federated-learning schedule in dp_accounting (needs the extra
                                             `accountants`); tests/reference/composition/test_worked_examples.py
                                             recomputes one row

Table: epsilon after T in {1, 10, 100, 1000, 10000} rounds, eps0 in {0.5, 1, 4}, n in {1e4, 1e6},
delta = 1e-6, by
- advanced composition (EFMRTT19 Thm 2) of the single-round FMT21 clone bound, per-round delta/(2T), delta' = delta/2,
  or basic composition T eps_1(delta/T) where that is smaller (few rounds);
- Bun-Steinke (EFMRSTT20 Thm II.7) of the same single-round bound and split (same minimum with basic);
- the certified PLD composition of the FMT21 clone pair (compose.clones), of the FMT23 stronger-clone pair
  (compose.stronger_clones, k-RR) and of the exact binary-RR pairs (compose.exact_binary_rr, a lower bound).
Printed values are the certified upper ends rounded UP to 4 significant digits (lower bound: rounded down),
so the table is the same on every machine unless a value sits within float noise of a 4-digit boundary.
Timings are measurements on this machine, never asserted by tests.
"""

from __future__ import annotations

import math
import os
import platform
import statistics
import sys
import time
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shuffle_spec.reference.composition import bun_steinke as composition_bun_steinke  # noqa: E402
from shuffle_spec.reference.composition.advanced import advanced_composition_epsilon  # noqa: E402
from shuffle_spec.reference.bounds.clones import clones_numeric  # noqa: E402
from shuffle_spec.reference.core.errors import ParameterError  # noqa: E402
from shuffle_spec.reference.composition.shuffled_rounds import Round, composed_epsilon  # noqa: E402

ROUNDS = (1, 10, 100, 1000, 10000)
EPS0 = (0.5, 1.0, 4.0)
N = (10**4, 10**6)
DELTA = 1e-6


def _digits(value: float, up: bool = True) -> str:
    """4 significant digits, rounded up (or down), as a canonical decimal string."""
    if value == 0:
        return "0"
    d = Decimal(repr(value))
    exponent = d.adjusted() - 3
    q = Decimal(1).scaleb(exponent)
    out = d.quantize(q, rounding=ROUND_CEILING if up else ROUND_FLOOR)
    return format(out.normalize(), "f") if abs(exponent) < 12 else str(out)


def advanced(eps0: float, n: int, rounds: int) -> tuple[float, float]:
    """(advanced composition, Bun-Steinke) of the single-round clone bound at per-round delta/(2T),
    delta' = delta/2; each never above basic composition T eps_1(delta/T) (also valid, and the better one
    for few rounds) nor T eps0."""
    single = clones_numeric(eps0=eps0, n=n, delta=DELTA / (2 * rounds)).upper
    basic = rounds * clones_numeric(eps0=eps0, n=n, delta=DELTA / rounds).upper
    adv = advanced_composition_epsilon(eps=single, k=rounds, delta_prime=DELTA / 2).value
    try:
        bs = composition_bun_steinke.advanced_composition_epsilon(eps=single, k=rounds, delta_prime=DELTA / 2).value
    except ParameterError:
        bs = math.inf
    return min(adv, basic, rounds * eps0), min(bs, basic, rounds * eps0)


def table() -> None:
    print("| eps0 | n | T | advanced (EFMRTT19 Thm 2) | Bun-Steinke (EFMRSTT20 Thm II.7) | PLD clones | PLD stronger clones (k-RR) | PLD exact binary RR (lower bound) | clones PLD / advanced |")
    print("|---|---|---|---|---|---|---|---|---|")
    ratios = []
    for eps0 in EPS0:
        for n in N:
            for rounds in ROUNDS:
                adv, bs = advanced(eps0, n, rounds)
                clones = composed_epsilon([Round("clones", eps0, n, rounds)], delta=DELTA)
                stronger = composed_epsilon([Round("stronger_clones", eps0, n, rounds)], delta=DELTA)
                exact = composed_epsilon([Round("exact_binary_rr", eps0, n, rounds)], delta=DELTA)
                ratio = clones.upper / adv
                ratios.append(ratio)
                bs_text = _digits(bs)
                print(
                    f"| {eps0:g} | {n:.0e} | {rounds} | {_digits(adv)} | {bs_text} | {_digits(clones.upper)} | "
                    f"{_digits(stronger.upper)} | {_digits(exact.lower, up=False)} | {_digits(ratio)} |",
                    flush=True,
                )
    print()
    print(f"PLD clones / advanced composition: min {_digits(min(ratios))}, median {_digits(statistics.median(ratios))}, max {_digits(max(ratios))}")


def _timed(rounds: list[Round], refine: int = 1) -> tuple[float, float]:
    start = time.perf_counter()
    value = composed_epsilon(rounds, delta=DELTA, refine=refine)
    return value.upper, time.perf_counter() - start


def timings() -> None:
    print(f"Machine: {platform.machine()}, nproc {os.cpu_count()}, python {platform.python_version()}, load {os.getloadavg()}")
    print("| pair | eps0 | n | T | epsilon (upper) | seconds (interval: both passes) |")
    print("|---|---|---|---|---|---|")
    for pair in ("clones", "stronger_clones"):
        for eps0 in EPS0:
            for rounds in (1000, 10000):
                value, seconds = _timed([Round(pair, eps0, 10**6, rounds)])
                print(f"| {pair} | {eps0:g} | 1e6 | {rounds} | {value:.6g} | {seconds:.2f} |", flush=True)
    print()
    print("| pair | eps0 | n | T | epsilon | epsilon, 10x finer grid | relative difference |")
    print("|---|---|---|---|---|---|---|")
    for eps0 in EPS0:
        for n, rounds in ((10**6, 100), (10**6, 1000), (10**4, 1000)):
            coarse, _ = _timed([Round("clones", eps0, n, rounds)])
            fine, _ = _timed([Round("clones", eps0, n, rounds)], refine=10)
            print(f"| clones | {eps0:g} | {n:.0e} | {rounds} | {coarse:.6g} | {fine:.6g} | {coarse / fine - 1:.2%} |", flush=True)


MECHANISM_ROUNDS = (2, 10, 100, 1000)
KS = (3, 10, 100)


def mechanism_table(ns: tuple[int, ...] = N, timings_table: bool = True) -> None:
    """The mechanism-specific table (module doc) at the n in `ns`. Envelope seconds: the one-time cost per
    (mechanism, eps0, n, k) (cached afterwards); compose seconds: the composition of T rounds once the envelope
    exists; lower seconds: the composed explicit pairs (binary RR, k-RR), the first T of a row building the k-RR
    pairs' fine grids (cached for the other T)."""
    from shuffle_spec.reference.composition import mechanism_rounds as mech

    print(f"Machine: {platform.machine()}, nproc {os.cpu_count()}, python {platform.python_version()}, load {os.getloadavg()}")
    print()
    print("| mechanism | eps0 | n | T | generic composed (stronger clones) | mechanism-specific composed | lower bound | upper / lower | envelope s | compose s | lower s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    ratios: dict[str, list[float]] = {"binary RR": [], "k-RR": []}
    for eps0 in EPS0:
        for n in ns:
            for mechanism, k in [("binary_rr", 2)] + [("krr", k) for k in KS]:
                name = "binary RR" if mechanism == "binary_rr" else f"k-RR k={k}"
                start = time.perf_counter()
                mech.profile_envelope(mechanism, eps0=eps0, n=n, k=k)
                envelope_seconds = time.perf_counter() - start
                for rounds in MECHANISM_ROUNDS:
                    generic = composed_epsilon([Round("stronger_clones", eps0, n, rounds)], delta=DELTA).upper
                    schedule = [mech.MechanismRound(mechanism, eps0, n, rounds, k)]
                    start = time.perf_counter()
                    upper = mech.composed_epsilon(schedule, delta=DELTA, lower=False).upper
                    compose_seconds = time.perf_counter() - start
                    start = time.perf_counter()
                    lower = mech.composed_lower_epsilon(schedule, delta=DELTA).lower
                    lower_seconds = time.perf_counter() - start
                    ratio = upper / lower if lower > 0 else math.inf
                    if lower > 0:
                        ratios["binary RR" if mechanism == "binary_rr" else "k-RR"].append(ratio)
                    print(
                        f"| {name} | {eps0:g} | {n:.0e} | {rounds} | {_digits(generic)} | {_digits(upper)} | "
                        f"{_digits(lower, up=False) if lower > 0 else 'not evaluated'} | {_digits(ratio) if lower > 0 else '-'} | "
                        f"{envelope_seconds:.2f} | {compose_seconds:.2f} | {lower_seconds:.2f} |",
                        flush=True,
                    )
                    envelope_seconds = 0.0
    print()
    for family, values in ratios.items():
        if values:
            print(f"upper / lower ({family}): min {_digits(min(values))}, median {_digits(statistics.median(values))}, max {_digits(max(values))}")
            print()
    if timings_table:
        mechanism_times()


def mechanism_times() -> None:
    """End-to-end times of compose.binary_rr / compose.krr (the certified upper end; the lower bound is timed in
    the table above): each cell from empty caches (envelope, dominating pair, composition, eps search), at
    T = 1000 and T = 10000. CPU seconds of this process (the machine is shared: wall seconds vary with its load,
    printed with the load average) and wall seconds."""
    from shuffle_spec.reference.composition import mechanism_rounds as mech

    print(f"End to end, from empty caches (load {os.getloadavg()[0]:.1f} at the start)")
    print()
    print("| mechanism | eps0 | n | T | epsilon (upper) | CPU s | wall s |")
    print("|---|---|---|---|---|---|---|")
    for n in N:
        for eps0 in EPS0:
            for mechanism, k in [("binary_rr", 2)] + [("krr", k) for k in KS]:
                name = "binary RR" if mechanism == "binary_rr" else f"k-RR k={k}"
                for rounds in (1000, 10000):
                    mech._envelope_cached.cache_clear()
                    mech._pair_on_cached.cache_clear()
                    mech._directional_pair_on.cache_clear()
                    wall, cpu = time.perf_counter(), time.process_time()
                    value = mech.composed_epsilon([mech.MechanismRound(mechanism, eps0, n, rounds, k)], delta=DELTA, lower=False).upper
                    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                    print(f"| {name} | {eps0:g} | {n:.0e} | {rounds} | {value:.6g} | {cpu:.2f} | {wall:.2f} |", flush=True)


def krr_nodes(eps0: float = 4.0, k: int = 3, n: int = 10**6) -> None:
    """The k-RR envelope's cost per node (module doc of `mechanism_rounds`, "Where the k-RR seconds go"): each
    lattice sum timed (CPU) with the size of its work, counted by wrapping the lattice-sum functions (measurement
    only: the values are the envelope's own)."""
    from collections import Counter

    from shuffle_spec.reference.bounds import blanket_exact_krr as krr
    from shuffle_spec.reference.composition import mechanism_rounds as mech
    from shuffle_spec.reference.numerics.lattice_sums import expectations

    size: Counter[str] = Counter()
    rows_of, suffix_sums = expectations._row_bounds, expectations._suffix_sums_at

    def counted_rows(ms, betas, back, law_a, c, queries, lower=True):  # type: ignore[no-untyped-def]
        size["rows"] += len(ms)
        size["b values"] += len(queries.up_row)
        size["N"] = max(size["N"], len(set(ms.tolist())))
        return rows_of(ms, betas, back, law_a, c, queries, lower)

    def counted_suffix(arrays, powers, rows, idx):  # type: ignore[no-untyped-def]
        size["row elements"] += arrays[0].size
        return suffix_sums(arrays, powers, rows, idx)

    evaluate = krr.exact_blanket_krr_delta
    per_hint: dict[float, list[float]] = {}
    print(f"k-RR envelope, eps0 = {eps0:g}, k = {k}, n = {n:.0e} (load {os.getloadavg()[0]:.1f} at the start)")
    print()
    print("| eps | hint | upper | CPU ms | N | rows | row elements (upward) | b values |")
    print("|---|---|---|---|---|---|---|---|")

    def timed(**kwargs):  # type: ignore[no-untyped-def]
        size.clear()
        start = time.process_time()
        value = evaluate(**kwargs)
        ms = 1000 * (time.process_time() - start)
        per_hint.setdefault(kwargs["delta_hint"], []).append(ms)
        print(f"| {kwargs['eps']:.6g} | {kwargs['delta_hint']:.0e} | {value.upper:.4g} | {ms:.0f} | {size['N']} | {size['rows']} | {size['row elements']} | {size['b values']} |", flush=True)
        return value

    expectations._row_bounds, expectations._suffix_sums_at = counted_rows, counted_suffix
    mech.exact_blanket_krr_delta = timed
    try:
        mech._envelope_cached.cache_clear()
        start = time.process_time()
        env = mech.profile_envelope("krr", eps0=eps0, n=n, k=k, floor=mech._floor_for(DELTA, 1000))
        total = time.process_time() - start
    finally:
        expectations._row_bounds, expectations._suffix_sums_at = rows_of, suffix_sums
        mech.exact_blanket_krr_delta = evaluate
    print()
    print(f"{len(env.nodes)} nodes, {env.evaluations} lattice sums, envelope {total:.2f} CPU s")
    for hint, times in sorted(per_hint.items(), reverse=True):
        print(f"hint {hint:.0e}: {len(times)} sums, {sum(times) / 1000:.2f} s, median {statistics.median(times):.0f} ms")


def krr_moments(eps0: float = 4.0, k: int = 3, n: int = 10**6) -> None:
    """Rows by moments (module doc, --krr-moments). For a row (N, b), M = N - b, a ~ Bin(M, p_a), the summand of
    BBGN19 Lemma 5.3 is G(a) = lam a + kappa (lam = c0 - c2 > 0, kappa = c1 b + c2 N, padded up as the engine
    pads it), so with one ratio-product row rel(t) = Pr[a = A0 + t] / Pr[a = A0] over a fixed range [A0, A1] and
    its suffix sums Q_p(t) = sum_{t' >= t} rel(t') t'^p, the row sum is E[G_+] ~ Pr[A0] (lam Q_1(t0) + G(A0) Q_0(t0)),
    t0 the first t with G > 0: O(1) per node and row once the Q_p exist (the per-b bounds between rows need
    Q_0..Q_3 the same way). Printed: the sizes, the CPU of the moments (once) and of all nodes' row sums, the
    engine's CPU per node for the whole lattice sum, and moment / engine row bound over the rows carrying the
    sum. Uncertified (no outward rounding of the anchor, no remainder past A1): a measurement of the design only."""
    from shuffle_spec.reference.bounds import blanket_exact_krr as krr
    from shuffle_spec.reference.numerics.lattice_sums import expectations
    from shuffle_spec.reference.numerics.lattice_sums.laws import U1, log_pmf

    import numpy as np

    captured = []
    evaluate = krr.positive_part_expectations

    def capture(*args, **kwargs):  # type: ignore[no-untyped-def]
        captured.append((args, kwargs))
        return evaluate(*args, **kwargs)

    krr.positive_part_expectations = capture
    try:
        for i in range(11, 52):  # the nodes of eps0 = 4, k = 3, n = 1e6 that the envelope evaluates at precision 1e-12
            krr.exact_blanket_krr_delta(eps0=eps0, n=n, k=k, eps=i * 2.0**-10, delta_hint=1e-12, sharp_lower=False)
    finally:
        krr.positive_part_expectations = evaluate
    start = time.process_time()
    for args, kwargs in captured:
        expectations._plan.cache_clear()
        evaluate(*args, **kwargs)
    engine = (time.process_time() - start) / len(captured)
    (ms_list, law_b, law_a, _), kwargs = captured[0][0][:4], captured[0][1]
    plan = expectations._plan(tuple(int(m) for m in ms_list), law_b, kwargs["tail"], kwargs.get("per_sd", 4), False, 0.5, 0.25, (-12.0, 3.0))
    ms, betas = plan.ms, plan.betas
    big_m = ms - betas
    mean, sd = big_m * law_a.p, np.sqrt(big_m * law_a.p * (1 - law_a.p))
    cs = [args[3] for args, _ in captured]

    def line(c):  # type: ignore[no-untyped-def]
        lam = c.c0[1] - c.c2[1]
        return lam, (c.c1[1] - c.c2[1]) * betas + c.c2[1] * ms + 12 * U1 * c.magnitude() * ms

    zeros = np.array([np.maximum(-kappa / lam, 0.0) for lam, kappa in map(line, cs)])
    a0 = np.clip(np.floor(np.minimum(zeros.min(axis=0), mean - 6 * sd)) - 30, 0, big_m)
    a1 = np.clip(np.ceil(np.maximum(zeros.max(axis=0), mean) + 5 * sd) + 16, 0, big_m)
    length = (a1 - a0 + 1).astype(np.int64)
    width = int(length.max())
    start = time.process_time()
    moments = np.zeros((2, len(ms), width + 1))
    per_chunk = max(1, (1 << 16) // width)
    for first in range(0, len(ms), per_chunk):
        rows = np.arange(first, min(first + per_chunk, len(ms)))
        steps = np.arange(width, dtype=float)
        a = a0[rows, None] + steps[None, :]
        safe = np.minimum(a, big_m[rows, None])
        ratio = np.where(a[:, :-1] < big_m[rows, None], (big_m[rows, None] - safe[:, :-1]) / (safe[:, :-1] + 1.0) * law_a.rho, 0.0)
        rel = np.empty((len(rows), width))
        rel[:, 0] = 1.0
        np.cumprod(ratio, axis=1, out=rel[:, 1:])
        for p in range(2):  # Q_0, Q_1 for the rows (the per-b bounds would add Q_2, Q_3)
            moments[p, rows, :width] = np.cumsum((rel * steps**p)[:, ::-1], axis=1)[:, ::-1]
    anchor = log_pmf(big_m, a0, law_a)[0]
    once = time.process_time() - start
    index = np.arange(len(ms))

    def rows_by_moments(c):  # type: ignore[no-untyped-def]
        lam, kappa = line(c)
        g0 = lam * a0 + kappa
        t0 = np.clip(np.floor(-g0 / lam) + 1, 0, length).astype(np.int64)
        q0, q1 = moments[0, index, t0], moments[1, index, t0]
        total = lam * q1 + g0 * q0
        pad = (lam * q1 + np.abs(g0) * q0) * (length + 4) * U1
        return np.exp(anchor) * (np.maximum(total, 0.0) + pad)

    start = time.process_time()
    for c in cs:
        rows_by_moments(c)
    per_node = (time.process_time() - start) / len(cs)
    print(f"{len(cs)} nodes of eps0 = {eps0:g}, k = {k}, n = {n:.0e}; one layout: {len(ms)} rows, {int(length.sum())} values of a over the union of the nodes' ranges")
    print(f"engine: {1000 * engine:.0f} ms per node (whole lattice sum); moments once: {once:.2f} s; row sums by moments: {1000 * per_node:.2f} ms per node")
    for c in (cs[0], cs[len(cs) // 2], cs[-1]):
        row_hi = expectations._row_bounds(ms, betas, plan.back, law_a, c, plan.queries, False)[1]
        carried = row_hi > 1e-3 * row_hi.max()
        ratio = rows_by_moments(c)[carried] / row_hi[carried]
        print(f"moments / engine row bound over {int(carried.sum())} rows: {ratio.min():.9f} to {ratio.max():.9f}")


WORKED_EPS0 = (2.0, 4.0, 8.0)
WORKED_N = (10**7, 10**8)
WORKED_K = 10
WORKED_ROUNDS = 365


def worked_row(eps0: float, n: int) -> tuple[str, str, str]:
    """(generic, mechanism-specific, lower bound) for T = 365 daily k-RR reports, as printed (4 digits, upper
    ends rounded up, the lower bound down). The lower bound is compose.krr's lower end: explicit neighbouring
    datasets composed over the 365 rounds by the optimistic engine (`explicit_pairs`; the trinomial pairs where
    they fit their cell budget, else the third pair in diagonal blocks beside the pair binned into {x0} and the rest)."""
    from shuffle_spec.reference.composition import mechanism_rounds as mech

    rounds = [mech.MechanismRound("krr", eps0, n, WORKED_ROUNDS, WORKED_K)]
    generic = composed_epsilon([Round("stronger_clones", eps0, n, WORKED_ROUNDS)], delta=DELTA).upper
    specific = mech.composed_epsilon(rounds, delta=DELTA, lower=False).upper
    lower = mech.composed_lower_epsilon(rounds, delta=DELTA).lower
    return _digits(generic), _digits(specific), _digits(lower, up=False)


def federated_schedule() -> list[tuple[str, float]]:
    """A federated-learning schedule in dp_accounting: 50 shuffled binary-RR rounds (eps0 = 1, n = 1e4, exported
    at dp_accounting's 1e-4 grid) and 1000 Poisson-subsampled Gaussian steps (noise multiplier 1.1, sampling
    probability 0.01, replace-one), composed by dp_accounting; eps at delta = 1e-6 of each part and of both."""
    import dp_accounting

    from shuffle_spec.interface.accountants import shuffled_round_pld

    interval = 1e-4
    shuffled = shuffled_round_pld("binary_rr", eps0=1.0, n=10**4, rounds=50, value_discretization_interval=interval)
    gaussian = dp_accounting.pld.privacy_loss_distribution.from_gaussian_mechanism(
        1.1, sampling_prob=0.01, value_discretization_interval=interval, use_connect_dots=True,
        neighboring_relation=dp_accounting.NeighboringRelation.REPLACE_ONE,
    ).self_compose(1000)
    both = shuffled.compose(gaussian)
    return [(name, pld.get_epsilon_for_delta(DELTA)) for name, pld in (("50 shuffled rounds", shuffled), ("1000 Gaussian steps", gaussian), ("both", both))]


def worked() -> None:
    print("| eps0 | n | generic composed (stronger clones) | mechanism-specific composed (compose.krr) | lower bound (composed explicit pairs, compose.krr's lower end) |")
    print("|---|---|---|---|---|")
    for eps0 in WORKED_EPS0:
        for n in WORKED_N:
            generic, specific, lower = worked_row(eps0, n)
            print(f"| {eps0:g} | {n:.0e} | {generic} | {specific} | {lower} |", flush=True)
    print()
    print("| dp_accounting schedule (delta = 1e-6) | epsilon |")
    print("|---|---|")
    for name, value in federated_schedule():
        print(f"| {name} | {_digits(value)} |")


if __name__ == "__main__":
    if "--worked" in sys.argv[1:]:
        worked()
    elif "--krr-moments" in sys.argv[1:]:
        krr_moments()
    elif "--krr-nodes" in sys.argv[1:]:
        rest = sys.argv[sys.argv.index("--krr-nodes") + 1 :]
        krr_nodes(*(float(rest[0]), int(rest[1]), int(float(rest[2]))) if len(rest) >= 3 else ())
    elif "--mechanism-times" in sys.argv[1:]:
        mechanism_times()
    elif "--mechanism" in sys.argv[1:]:
        # --n 1e4 (or 1e6): one size only (the n = 1e6 envelopes take minutes each); the timings table with both.
        chosen = tuple(int(float(sys.argv[sys.argv.index("--n") + 1])) for _ in [0]) if "--n" in sys.argv else N
        mechanism_table(chosen, timings_table=chosen == N or 10**6 in chosen)
    elif "--table" in sys.argv[1:]:
        table()
    else:
        timings()
