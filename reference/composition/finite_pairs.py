"""Binned explicit pairs of shuffled finite randomizers and of the structured randomizers (through their pattern
projections), for the composed LOWER bounds of `compose.finite` and `compose.randomizer` (`explicit_pairs`,
group "count").

The pairs are those of the single-round lower bounds (statement exact.randomizer_pair,
`reference.lower_bounds.randomizer` and `reference.lower_bounds.structured`): user 1 holds x in D and x' in D',
the other n - 1 users hold z, each report's output merged into 2 or 3 bins (a post-processing: module doc of
`count_pairs`). For a structured randomizer every report is first projected to a small pattern that depends only
on (x, x', z) (the three bits at x, x', z of a unary encoding, ...; `reference.lower_bounds.structured`): one fixed
function of each report, a post-processing too. Each candidate is therefore a binned pair of the mechanism itself
(the structured ones built at e^eps0 rounded DOWN to a rational, `side="lower"`: the mechanism at the true
eps0 is at least as distinguishable, module docs of `reference.randomizers`), and its composed certified lower
end is a lower bound on the composed worst case.

Which candidates: every ordered role triple (x, x', z) of rows and every partition of the kept outputs into 2 or 3
bins when there are at most EXHAUSTIVE_OUTPUTS outputs (the pattern matrices: at most 8), else the contiguous
partitions in the likelihood-ratio order of `candidate_bins` (the single round's); ranked by the chi-square
distance sum_y (mu_x(y) - mu_x'(y))^2 / mu_z(y) of the binned pair (the loss's variance is about it over n: it
drives the composed epsilon; floats, ranking only). The THREE_BINS best three-bin candidates and the best two-bin
one (one count: no cell budget at any n) are returned.

Why one pair of neighbouring T-round datasets realises the composition: as in `explicit_pairs` (user 1 the only
user whose inputs differ; the mirrored direction is user 1 at x' in D and x in D'; a fixed pair, no adaptivity).

The piecewise mechanism (Wang et al., ICDE 2019, Sec. III-B; `piecewise_count_pairs`): the pairs of its single-round
lower bound (statement exact.piecewise_partition_pair, `reference.randomizers.piecewise.partition_rows`): every
report coarsened to the cell of (-inf, -tau), [-tau, tau], (tau, inf) it falls in, then a fixed rounding channel
shared by every input (both post-processings of the shuffled output; module doc of `reference.randomizers.piecewise`,
whose exact rational rows are checked there to be a channel applied to the true cell laws at the true eps0), for
the inputs -1, 1, 0; and the cells cut at +-1 for the inputs -1, 1 (the same rows -1 and 1 when e^(eps0/2) >= 2). Each 3 x 3 (or 2 x 3)
matrix of cell laws is a finite randomizer of which every candidate above is a binned pair; each is therefore a
binned pair of the piecewise mechanism itself.

Ranges: a finite matrix as `reference.bounds.blanket_exact_randomizer.finite_randomizer` (k <= 16 rows, m <= 64
outputs, LDP epsilon <= 50); the structured randomizers as their lower bounds (`reference.randomizers`); the
piecewise mechanism eps0 in [1e-12, 40].
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache
from typing import Sequence

import numpy as np

from ..bounds.blanket_exact_randomizer import FiniteRandomizer, finite_randomizer
from ..core.errors import ParameterError
from ..lower_bounds.randomizer import candidate_bins
from ..randomizers.common import check_domain
from ..randomizers.hadamard import hadamard_response
from ..randomizers.local_hashing import local_hashing, olh_range
from ..randomizers.piecewise import partition_rows
from ..randomizers.subset_selection import optimal_subset_size, subset_selection
from ..randomizers.unary import optimized_unary_encoding, symmetric_rappor
from .count_pairs import CountPair, count_pair, count_pair_chi_square

__all__ = ["matrix_count_pairs", "structured_count_pairs", "piecewise_count_pairs", "partitions", "EXHAUSTIVE_OUTPUTS", "THREE_BINS", "STRUCTURED"]

EXHAUSTIVE_OUTPUTS = 8
THREE_BINS = 2
STRUCTURED = ("rappor", "oue", "blh", "olh", "hadamard", "subset")

Partition = tuple[tuple[int, ...], ...]


def partitions(m: int) -> list[Partition]:
    """Every partition of the outputs 0..m-1 into 2 or 3 non-empty bins (each once). Range: 2 <= m <= 8."""
    if not (isinstance(m, int) and 2 <= m <= EXHAUSTIVE_OUTPUTS):
        raise ParameterError("m", m, f"2 <= m <= {EXHAUSTIVE_OUTPUTS} outputs")
    return list(_partitions(m))


@lru_cache(maxsize=8)
def _partitions(m: int) -> tuple[Partition, ...]:
    out: set[Partition] = set()
    for labels in itertools.product(range(3), repeat=m):
        bins = tuple(tuple(y for y in range(m) if labels[y] == b) for b in range(3))
        bins = tuple(b for b in bins if b)
        if len(bins) >= 2:
            out.add(tuple(sorted(bins)))
    return tuple(sorted(out))


def _candidates(randomizer: FiniteRandomizer, labels: Sequence[str] | None, what: str) -> tuple[CountPair, ...]:
    rows = randomizer.rows
    k, m = randomizer.k, randomizer.m
    floats = np.array([[float(v) for v in row] for row in rows])
    ranked: list[tuple[float, int, int, int, Partition]] = []
    every = _partitions(m) if m <= EXHAUSTIVE_OUTPUTS else None
    for x, x2 in itertools.permutations(range(k), 2):
        for bins in every if every is not None else candidate_bins(randomizer, x, x2):
            indicator = np.zeros((m, len(bins)))
            for j, b in enumerate(bins):
                indicator[list(b), j] = 1.0
            merged = floats @ indicator
            chi = ((merged[x] - merged[x2]) ** 2 / merged).sum(axis=1)  # one value per z
            z = int(np.argmax(chi))
            ranked.append((-float(chi[z]), x, x2, z, bins))
    ranked.sort(key=lambda c: c[0])
    chosen: list[tuple[int, int, int, Partition]] = []
    threes = 0
    two = False
    for _, x, x2, z, bins in ranked:
        if len(bins) == 3 and threes < THREE_BINS:
            threes += 1
            chosen.append((x, x2, z, bins))
        elif len(bins) == 2 and not two:
            two = True
            chosen.append((x, x2, z, bins))
        if threes >= THREE_BINS and two:
            break
    out = []
    for x, x2, z, bins in chosen:
        laws = [[sum((rows[r][y] for y in b), Fraction(0)) for b in bins] for r in (x, x2, z)]
        names = list(labels) if labels is not None else [f"row {r}" for r in range(k)]
        where = " | ".join(",".join(map(str, b)) for b in bins)
        description = f"{what}: user 1 at {names[x]} vs {names[x2]}, the other n-1 users at {names[z]}, outputs merged into {where}"
        out.append(count_pair(laws[0], laws[1], laws[2], description))
    return tuple(out)


def matrix_count_pairs(matrix: object) -> tuple[CountPair, ...]:
    """The candidate binned pairs of a finite randomizer (module doc; outputs numbered as the matrix's kept
    columns), best-ranked first. Range: as `finite_randomizer` (k <= 16, m <= 64); ParameterError for a matrix
    whose output does not depend on its input."""
    randomizer = matrix if isinstance(matrix, FiniteRandomizer) else finite_randomizer(matrix)
    if randomizer.eps0 == 0:
        raise ParameterError("matrix", "an input-independent matrix", "a matrix whose output depends on the input (eps0 > 0)")
    return _cached_matrix(randomizer)


@lru_cache(maxsize=16)
def _cached_matrix(randomizer: FiniteRandomizer) -> tuple[CountPair, ...]:
    return _candidates(randomizer, None, "matrix pair")


def _pattern_rows(name: str, eps0: float, d: int) -> list[tuple[list[list[Fraction]], list[str]]]:
    """The pattern projections the single-round lower bound uses (each a matrix with one row per input role, and
    the roles' names), of the mechanism built with e^eps0 rounded down."""
    roles = ["x", "x'", "z"]
    if name == "rappor":
        return [(symmetric_rappor(eps0, d, side="lower").pattern_rows(), roles)]
    if name == "oue":
        return [(optimized_unary_encoding(eps0, d, side="lower").pattern_rows(), roles)]
    if name in ("blh", "olh"):
        return [(local_hashing(eps0, d, 2 if name == "blh" else olh_range(eps0), side="lower").pattern_rows(), roles)]
    if name == "hadamard":
        mechanism = hadamard_response(eps0, d, side="lower")
        if d <= 3:
            return [(mechanism.pattern_rows(), [f"input {i}" for i in range(d)])]
        return [(mechanism.pattern_rows(), roles), (mechanism.dependent_pattern_rows(), ["x", "x'", "z = x XOR x'"])]
    return [(subset_selection(eps0, d, optimal_subset_size(eps0, d), side="lower").pattern_rows(), roles)]


@lru_cache(maxsize=32)
def structured_count_pairs(*, randomizer: str, eps0: float, d: int) -> tuple[CountPair, ...]:
    """The candidate binned pattern pairs of a structured randomizer (rappor, oue, blh, olh, hadamard, subset; module
    doc), best-ranked first. Ranges: as the randomizer's lower bound (eps0 in [1e-12, 40], OLH <= 13.8; 2 <= d <= 1e9)."""
    if randomizer not in STRUCTURED:
        raise ParameterError("randomizer", randomizer, f"one of {', '.join(STRUCTURED)}")
    d = check_domain(d)
    out: list[CountPair] = []
    for rows, labels in _pattern_rows(randomizer, float(eps0), d):
        kept = [j for j in range(len(rows[0])) if any(Fraction(r[j]) > 0 for r in rows)]
        projected = finite_randomizer([[Fraction(r[j]) for j in kept] for r in rows])
        out += _candidates(projected, labels[: projected.k], f"{randomizer} pattern pair (d = {d})")
    out.sort(key=lambda p: -count_pair_chi_square(p))
    threes = [p for p in out if len(p.x) == 3][:THREE_BINS]
    twos = [p for p in out if len(p.x) == 2][:1]
    return tuple(threes + twos)


@lru_cache(maxsize=32)
def piecewise_count_pairs(*, eps0: float) -> tuple[CountPair, ...]:
    """The candidate binned cell pairs of the piecewise mechanism at eps0 (module doc; statement
    exact.piecewise_partition_pair's coarsenings), best-ranked first: the THREE_BINS best three-cell pairs and the
    best two-bin one over the adaptive cells (inputs -1, 1, 0) and the cells at +-1 (inputs -1, 1). Replace-one. Range: eps0 in [1e-12, 40] (ParameterError beyond)."""
    out: list[CountPair] = []
    # Both coarsenings at every eps0: at e^(eps0/2) >= 2 the unit cells' rows are the adaptive ones' rows -1 and 1
    # (their pairs come out twice and are kept once).
    for cells, labels, what in (("adaptive", ["-1", "1", "0"], "cells cut at +-tau"), ("unit", ["-1", "1"], "cells cut at +-1")):
        rows = partition_rows(eps0, cells=cells)
        for pair in _candidates(finite_randomizer(rows), labels[: len(rows)], f"piecewise cell pair ({what})"):
            if all((p.x, p.x2, p.z) != (pair.x, pair.x2, pair.z) for p in out):
                out.append(pair)
    out.sort(key=lambda p: -count_pair_chi_square(p))
    threes = [p for p in out if len(p.x) == 3][:THREE_BINS]
    twos = [p for p in out if len(p.x) == 2][:1]
    return tuple(threes + twos)
