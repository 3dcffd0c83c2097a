"""The locally private tree counter for longitudinal boolean data (EFMRTT19 Sec. 3, Algs 1 and 2).

n users hold boolean states x[1..T] (T a power of two, x[0] = 0) with at most k changes each. Each
client (Alg. 1) picks once and for all the one change j in [k] it will ever report and the one level h
in [L] of the binary tree over [1, T] it reports on; it keeps only four integers (j, h, the change
counter c, the current node value v) and, whenever a level-h node completes, sends randomized
response on v in {-1, 0, +1} (uniform +-1 when v = 0). The server (Alg. 2) adds the reports per node
and answers F[t] = sum_i x_i[t] by the disjoint cover C(t) of [1, t] by tree nodes, scaled by
c_a k L with c_a = (e^a + 1)/(e^a - 1).

Reconstruction choices (the seed lost the formulas; see spec `EFMRTT19.Alg1`, `EFMRTT19.Alg2`):
- the tree has L = log2(T) + 1 levels (leaves are level 1, the root [1, T] is level L); the server
  scales by the same L the client samples from, which makes the estimate unbiased;
- the per-node randomized-response parameter is a = eps/2 (the paper's two-node sensitivity
  argument); the client is then exactly a-LDP = (eps/2)-LDP, within Thm 5's eps;
- the j-th change has the data-independent sign (-1)^(j+1) since x[0] = 0.

Outputs of a client are transcripts: a tuple of length T whose entry t-1 is the report sent at time t,
`(h, m, b)` (level, node index, bit), or None. Timing is therefore part of the output.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping, NamedTuple, Sequence, cast

import mpmath
import numpy as np
from numpy.typing import ArrayLike

from ..finite.distributions import Distribution
from ..core.errors import ParameterError, require_integer, require_positive, require_probability
from ..core.limits import EXACT_RANDOMIZER_K_MAX, K_MAX
from ..core.parameters import check_k
from ..finite.randomizers import Randomizer
from ..core.results import BoundValue
from ..core.rounding import mpf_to_float_down, mpf_to_float_up

__all__ = [
    "Report",
    "PrivacyGuarantee",
    "TreeCounterClient",
    "TreeCounterServer",
    "TreeCounterRun",
    "tree_depth",
    "default_levels",
    "changes_of",
    "cover",
    "estimate_from_node_sums",
    "client_output_distribution",
    "client_randomizer",
    "run_tree_counter",
    "shuffled_tree_counter_epsilon",
    "simulate_node_sums",
    "tree_counter_error_bound",
]

Report = tuple[int, int, int]  # (level h, node index m, bit b in {-1, +1})

# Exact enumeration of Alg. 1's transcripts is refused beyond this horizon (2^T transcripts at level 1).
MAX_EXACT_T = 16


def tree_depth(T: int) -> int:
    """log2(T) for T a power of two (T >= 1); ParameterError naming T otherwise."""
    require_integer("T", T, minimum=1)
    T = int(T)
    if T & (T - 1):
        raise ParameterError("T", T, "a power of two (the number of periods, EFMRTT19 Sec. 3)")
    return T.bit_length() - 1


def default_levels(T: int) -> int:
    """L = log2(T) + 1: every level of the complete binary tree over [1, T], root included."""
    return tree_depth(T) + 1


def _check_levels(T: int, levels: int | None) -> int:
    full = default_levels(T)
    if levels is None:
        return full
    require_integer("levels", levels, minimum=1)
    if levels > full:
        raise ParameterError("levels", levels, f"1 <= levels <= log2(T) + 1 = {full}")
    return int(levels)


def _check_k(k: int, maximum: int = K_MAX) -> int:
    """k (the most changes a user's states may have) an integer in [1, maximum]: K_MAX for the simulations (k only
    bounds a random draw), EXACT_RANDOMIZER_K_MAX for the exact client distributions (a sum over the k changes)."""
    return check_k(k, minimum=1, maximum=maximum, why="" if maximum == K_MAX else "an exact distribution summed over the k changes")


def _rr_parameter(eps: float) -> float:
    """a = eps/2, the per-node randomized-response parameter (reconstruction, see module doc)."""
    require_positive("eps", eps)
    return float(eps) / 2


def changes_of(states: Sequence[int]) -> tuple[int, ...]:
    """x~[t] = x[t] - x[t-1] with x[0] = 0: the change stream Alg. 1 consumes (EFMRTT19.Alg1)."""
    previous = 0
    out = []
    for index, x in enumerate(states):
        if isinstance(x, bool) or x not in (0, 1):
            raise ParameterError(f"states[{index}]", x, "a boolean state 0 or 1")
        out.append(int(x) - previous)
        previous = int(x)
    if not out:
        raise ParameterError("states", states, "at least one period")
    return tuple(out)


def cover(t: int, *, T: int, levels: int | None = None) -> tuple[tuple[int, int], ...]:
    """The set C of Alg. 2 (lines 7-10) for time t: start from the leaves T_1[1..t] and merge two
    siblings into their parent while both are in C and the parent's level exists (EFMRTT19.Alg2).

    Returns (h, m) pairs, node T_h[m] covering [(m-1) 2^(h-1) + 1, m 2^(h-1)], sorted by position.
    """
    L = _check_levels(T, levels)
    require_integer("t", t, minimum=1)
    if t > T:
        raise ParameterError("t", t, f"1 <= t <= T = {T}")
    # Merging level by level is one order of the loop's merges; C does not depend on the order
    # (seed, proof of Thm 6; tests/reference/protocols/test_tree_counter.py merges in random orders). At each
    # level the nodes of C form the prefix T_h[1..count]; siblings (2i-1, 2i) merge, an odd last stays.
    nodes: list[tuple[int, int]] = []
    count = int(t)
    for h in range(1, L + 1):
        if h == L:
            nodes.extend((h, m) for m in range(1, count + 1))
            break
        if count % 2 == 1:
            nodes.append((h, count))
        count //= 2
        if count == 0:
            break
    return tuple(sorted(nodes, key=lambda node: (node[1] - 1) * 2 ** (node[0] - 1)))


@dataclass(frozen=True)
class PrivacyGuarantee:
    """The statement that covers a protocol's output: its id, (eps, delta) and the model."""

    statement: str
    eps: float
    delta: float
    model: str
    note: str = ""


class TreeCounterClient:
    """Alg. 1 (A_cl) for one user, online: call `observe(change)` once per period t = 1..T.

    The data-dependent state is exactly four integers, `state == (j, h, c, v)`; `t` is the clock.
    Privacy: EFMRTT19.Thm5 (eps-LDP of the whole transcript, for any input stream).
    """

    __slots__ = ("T", "k", "levels", "a", "_rng", "j", "h", "c", "v", "t")

    def __init__(self, *, T: int, k: int, eps: float, rng: np.random.Generator, levels: int | None = None):
        self.T = 2 ** tree_depth(T)
        self.k = _check_k(k)
        self.levels = _check_levels(T, levels)
        self.a = _rr_parameter(eps)
        if not isinstance(rng, np.random.Generator):
            raise ParameterError("rng", rng, "a numpy.random.Generator")
        self._rng = rng
        self.j = int(rng.integers(1, self.k + 1))  # line 1: the only change that will be reported
        self.h = int(rng.integers(1, self.levels + 1))  # line 2: the only level that will be reported
        self.c = 0  # line 3: changes seen so far
        self.v = 0  # line 4: value of the current level-h node
        self.t = 0

    @property
    def state(self) -> tuple[int, int, int, int]:
        return (self.j, self.h, self.c, self.v)

    def _advance(self, change: int) -> tuple[int, int, int] | None:
        """Lines 5-12 and 21: the deterministic part; returns (h, m, v) when node T_h[m] completes."""
        if isinstance(change, bool) or change not in (-1, 0, 1):
            raise ParameterError("change", change, "a change -1, 0 or +1")
        if self.t >= self.T:
            raise ParameterError("t", self.t + 1, f"at most T = {self.T} periods")
        self.t += 1
        if change != 0:
            self.c += 1
            if self.c == self.j:
                self.v = int(change)
        width = 2 ** (self.h - 1)
        if self.t % width == 0:
            completed = (self.h, self.t // width, self.v)
            self.v = 0
            return completed
        return None

    def observe(self, change: int) -> Report | None:
        """Consume x~[t]; return the report (h, m, b) sent at this period, or None (lines 5-23)."""
        completed = self._advance(change)
        if completed is None:
            return None
        h, m, v = completed
        if v == 0:
            bit = 1 if self._rng.random() < 0.5 else -1  # line 15: E[b] = 0
        else:
            keep = 1.0 / (1.0 + math.exp(-self.a))  # line 17: e^a / (1 + e^a)
            bit = v if self._rng.random() < keep else -v
        return (h, m, bit)


def _node_values(changes: Sequence[int], *, T: int, k: int, levels: int, j: int, h: int) -> list[tuple[int, int, int]]:
    """(h, m, v) for every level-h node, from the client's own deterministic transition."""
    client = TreeCounterClient.__new__(TreeCounterClient)
    # No generator: `_advance` is deterministic and never draws (only `observe` does).
    client.T, client.k, client.levels, client.a, client._rng = T, k, levels, 1.0, cast(np.random.Generator, None)
    client.j, client.h, client.c, client.v, client.t = j, h, 0, 0, 0
    return [done for change in changes if (done := client._advance(change)) is not None]


def _check_e_a(e_a: object) -> Fraction | float:
    if isinstance(e_a, bool) or not isinstance(e_a, (int, float, Fraction)) or not e_a > 1 or (isinstance(e_a, float) and not math.isfinite(e_a)):
        raise ParameterError("e_a", e_a, "a finite multiplier e^a > 1 (the per-node randomized-response parameter)")
    return Fraction(e_a) if isinstance(e_a, int) else e_a


def client_output_distribution(states: Sequence[int], *, k: int, e_a: Fraction | float, levels: int | None = None) -> Distribution:
    """The exact distribution of Alg. 1's transcript on the boolean stream `states` (EFMRTT19.Alg1,
    EFMRTT19.Thm5), with per-node multiplier e_a = e^a (exact for a rational e_a).

    j and h are uniform; given them the node values are deterministic and each level-h node is
    randomized independently: v = 0 -> +-1 w.p. 1/2; v != 0 -> v w.p. e_a/(1+e_a), -v w.p. 1/(1+e_a).
    """
    changes = changes_of(states)
    T = 2 ** tree_depth(len(changes))
    if T > MAX_EXACT_T:
        raise ParameterError("len(states)", T, f"T <= {MAX_EXACT_T} for exact enumeration")
    k = _check_k(k, EXACT_RANDOMIZER_K_MAX)
    L = _check_levels(T, levels)
    e = _check_e_a(e_a)
    exact = isinstance(e, Fraction)
    one = Fraction(1) if exact else 1.0
    keep, flip, half = e / (1 + e), one / (1 + e), one / 2
    weight = one / (k * L)
    table: dict[tuple[Report | None, ...], Fraction | float] = {}
    for j in range(1, k + 1):
        for h in range(1, L + 1):
            nodes = _node_values(changes, T=T, k=k, levels=L, j=j, h=h)
            width = 2 ** (h - 1)
            options = []
            for _, m, v in nodes:
                if v == 0:
                    options.append(((m, 1, half), (m, -1, half)))
                else:
                    options.append(((m, v, keep), (m, -v, flip)))
            for choice in itertools.product(*options):
                transcript: list[Report | None] = [None] * T
                p = weight
                for m, bit, pb in choice:
                    transcript[m * width - 1] = (h, m, bit)
                    p = p * pb
                key = tuple(transcript)
                table[key] = table.get(key, 0) + p
    return Distribution(table)


def client_randomizer(inputs: Iterable[Sequence[int]], *, k: int, e_a: Fraction | float, levels: int | None = None) -> Randomizer:
    """Alg. 1 as a `Randomizer` over the given boolean streams (for LDP checks of EFMRTT19.Thm5)."""
    table = {tuple(x): client_output_distribution(x, k=k, e_a=e_a, levels=levels) for x in inputs}
    if not table:
        raise ParameterError("inputs", table, "at least one boolean stream")
    return Randomizer(table)


def estimate_from_node_sums(
    node_sums: Mapping[tuple[int, int], int | Fraction | float], t: int, *, T: int, k: int, e_a: Fraction | float, levels: int | None = None
) -> Fraction | float:
    """F^[t] = c_a k L sum_{T_h[m] in C(t)} T^_h[m], c_a = (e_a + 1)/(e_a - 1): Alg. 2 line 11
    (EFMRTT19.Alg2). `node_sums[(h, m)]` are the aggregated reports (missing nodes count 0).
    Exact for Fraction sums and rational e_a."""
    L = _check_levels(T, levels)
    k = _check_k(k)
    e = _check_e_a(e_a)
    scale = (e + 1) / (e - 1) * k * L
    return scale * sum((node_sums.get(node, 0) for node in cover(t, T=T, levels=L)), 0)


class TreeCounterServer:
    """Alg. 2 (A_sv), online: `receive` reports as they arrive, `estimate(t)` once time t has passed."""

    def __init__(self, *, T: int, k: int, eps: float, levels: int | None = None):
        self.T = 2 ** tree_depth(T)
        self.k = _check_k(k)
        self.levels = _check_levels(T, levels)
        self.a = _rr_parameter(eps)
        self.node_sums: dict[tuple[int, int], int] = {}

    def receive(self, report: Report) -> None:
        """Line 3: add a client's bit b to node T_h[m]."""
        if not (isinstance(report, tuple) and len(report) == 3):
            raise ParameterError("report", report, "a tuple (h, m, b)")
        h, m, b = report
        if not (isinstance(h, int) and 1 <= h <= self.levels and isinstance(m, int) and 1 <= m <= self.T >> (h - 1) and b in (-1, 1)):
            raise ParameterError("report", report, f"(h, m, b) with 1 <= h <= {self.levels}, 1 <= m <= T/2^(h-1), b = +-1")
        self.node_sums[(h, m)] = self.node_sums.get((h, m), 0) + int(b)

    def estimate(self, t: int) -> float:
        """Line 11: the scaled sum over the cover C(t)."""
        return float(estimate_from_node_sums(self.node_sums, t, T=self.T, k=self.k, e_a=math.exp(self.a), levels=self.levels))

    def estimates(self) -> np.ndarray:
        return np.array([self.estimate(t) for t in range(1, self.T + 1)])


@dataclass(frozen=True)
class TreeCounterRun:
    """The server's estimates F^[1..T] of the running counts, the node sums they come from, and the
    privacy guarantee covering every user's reports."""

    estimates: np.ndarray
    node_sums: dict[tuple[int, int], int]
    privacy: PrivacyGuarantee


def _check_states(states: ArrayLike) -> np.ndarray:
    array = np.asarray(states)
    if array.ndim != 2 or array.shape[0] < 1:
        raise ParameterError("states", getattr(array, "shape", None), "an (n users, T periods) array of 0/1")
    if not ((array == 0) | (array == 1)).all():
        raise ParameterError("states", "non-boolean entries", "entries 0 or 1")
    tree_depth(array.shape[1])
    return array.astype(np.int8)


def _changes_matrix(states: np.ndarray, k: int) -> np.ndarray:
    changes = np.diff(states, axis=1, prepend=np.int8(0))
    counts = np.count_nonzero(changes, axis=1)
    too_many = np.flatnonzero(counts > k)
    if too_many.size:
        user = int(too_many[0])
        raise ParameterError(f"states[{user}]", f"{int(counts[user])} changes", f"at most k = {k} changes per user")
    return changes


def _reported_nodes(changes: np.ndarray, k: int, L: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per user (vectorised): level h, node index m of the j-th change (0 if none) and its sign."""
    n, T = changes.shape
    # Arrays (size=n); numpy's stubs pick the scalar overload for the untyped n of `.shape`.
    j = cast(np.ndarray, rng.integers(1, k + 1, size=n))
    h = cast(np.ndarray, rng.integers(1, L + 1, size=n))
    # The nonzero entries in row-major order; an entry's rank within its row numbers the change.
    rows, cols = np.nonzero(changes)
    first = np.searchsorted(rows, np.arange(n))
    rank = np.arange(rows.size) - first[rows] + 1
    chosen = rank == j[rows]
    m = np.zeros(n, dtype=np.int64)
    users = rows[chosen]
    m[users] = cols[chosen] // (2 ** (h[users] - 1)) + 1  # cols is the 0-based time of the j-th change
    sign = np.where(j % 2 == 1, 1, -1)
    return h, m, sign


class _Clients(NamedTuple):
    """The checked inputs and every client's reported node (h its level, m its index, sign its value)."""

    a: float
    k: int
    T: int
    L: int
    h: np.ndarray
    m: np.ndarray
    sign: np.ndarray
    keep: float  # e^a / (e^a + 1): the probability that a node's randomized response keeps its value


def _prepared_clients(states: ArrayLike, *, eps: float, k: int, rng: np.random.Generator, levels: int | None) -> _Clients:
    """Input checks and the clients' first draws, shared by `run_tree_counter` and `simulate_node_sums`
    (the same draws from rng in the same order, so one seed gives both the same reported nodes)."""
    array = _check_states(states)
    k = _check_k(k)
    a = _rr_parameter(eps)
    if not isinstance(rng, np.random.Generator):
        raise ParameterError("rng", rng, "a numpy.random.Generator")
    T = array.shape[1]
    L = _check_levels(T, levels)
    h, m, sign = _reported_nodes(_changes_matrix(array, k), k, L, rng)
    return _Clients(a, k, T, L, h, m, sign, 1.0 / (1.0 + math.exp(-a)))


def run_tree_counter(states: ArrayLike, *, eps: float, k: int, rng: np.random.Generator, levels: int | None = None) -> TreeCounterRun:
    """Run the tree counter (EFMRTT19.Alg1 clients, EFMRTT19.Alg2 server) on your data.

    `states`: an (n, T) array of 0/1 states (T a power of two), each user with at most k changes
    (x[0] = 0 counts: a user starting in state 1 has made a change). Every client runs Alg. 1 (vectorised
    over users: per user one j, one h and one randomized-response bit per level-h node, exactly as
    `TreeCounterClient`); the server aggregates and returns F^[t] for t = 1..T. The result's `privacy`
    is EFMRTT19.Thm5: each user's whole transcript is eps-LDP (pure, delta = 0).
    """
    a, k, T, L, h, m, sign, keep = _prepared_clients(states, eps=eps, k=k, rng=rng, levels=levels)
    node_sums: dict[tuple[int, int], int] = {}
    for level in range(1, L + 1):
        users = np.flatnonzero(h == level)
        width = 2 ** (level - 1)
        nodes = T // width
        # Value v of every (user, node) at this level: the sign at the node of the j-th change.
        values = np.zeros((users.size, nodes), dtype=np.int64)
        present = m[users] > 0
        values[np.flatnonzero(present), m[users][present] - 1] = sign[users][present]
        uniform_bits = np.where(rng.random(values.shape) < 0.5, 1, -1)
        kept = rng.random(values.shape) < keep
        bits = np.where(values == 0, uniform_bits, np.where(kept, values, -values))
        totals = bits.sum(axis=0)
        for index in range(nodes):
            node_sums[(level, index + 1)] = int(totals[index])
    e_a = math.exp(a)
    estimates = np.array([float(estimate_from_node_sums(node_sums, t, T=T, k=k, e_a=e_a, levels=L)) for t in range(1, T + 1)])
    privacy = PrivacyGuarantee(
        statement="EFMRTT19.Thm5",
        eps=float(eps),
        delta=0.0,
        model="local",
        note=f"each user's transcript is eps-LDP for any input stream; per-node randomized response a = {a!r} (exactly a-LDP)",
    )
    return TreeCounterRun(estimates=estimates, node_sums=node_sums, privacy=privacy)


def simulate_node_sums(states: ArrayLike, *, eps: float, k: int, rng: np.random.Generator, levels: int | None = None) -> dict[tuple[int, int], int]:
    """Node sums of Alg. 2 with the same distribution as `run_tree_counter`'s, sampled by counts:
    per node, the numbers of users with v = +1, -1, 0 at its level, then three binomials for their
    bits (no per-user bit arrays, no Python loop over users). For the utility simulation of EFMRTT19.Thm6."""
    a, k, T, L, h, m, sign, keep = _prepared_clients(states, eps=eps, k=k, rng=rng, levels=levels)
    node_sums: dict[tuple[int, int], int] = {}
    for level in range(1, L + 1):
        at_level = h == level
        nodes = T >> (level - 1)
        users_here = int(at_level.sum())
        plus = np.bincount(m[at_level & (sign == 1)], minlength=nodes + 1)[1:]
        minus = np.bincount(m[at_level & (sign == -1)], minlength=nodes + 1)[1:]
        zero = users_here - plus - minus
        sums = (2 * rng.binomial(zero, 0.5) - zero) + (2 * rng.binomial(plus, keep) - plus) - (2 * rng.binomial(minus, keep) - minus)
        for index in range(nodes):
            node_sums[(level, index + 1)] = int(sums[index])
    return node_sums


def tree_counter_error_bound(*, n: int, T: int, k: int, eps: float, beta: float) -> BoundValue:
    """An explicit form of EFMRTT19.Thm6 for Algs 1-2 as reconstructed (EFMRTT19.Thm6.explicit):
    with probability >= 1 - beta, for all t in [T] simultaneously,

        |F^[t] - F[t]| <= k c_a (sqrt(2 n L log2(T) log(2T/beta)) + (4/3) L log(2T/beta)),

    c_a = (e^a + 1)/(e^a - 1), a = eps/2, L = log2(T) + 1 (Bernstein's inequality on a sum of n
    independent terms in {-1, 0, 1} with variance at most |C(t)|/L <= log2(T)/L each, union bound
    over t). Requires T >= 2 and every user with at most k changes. An upper bound: the 60-digit value
    rounded to the doubles on either side (its error is far below the 1-ulp step), `value` the next double above.
    """
    require_integer("n", n, minimum=1)
    depth = tree_depth(T)
    if depth < 1:
        raise ParameterError("T", T, "a power of two T >= 2")
    k = _check_k(k)
    require_positive("eps", eps)
    require_probability("beta", beta)
    L = depth + 1
    with mpmath.workdps(60):
        a = mpmath.mpf(eps) / 2
        c = (mpmath.exp(a) + 1) / mpmath.expm1(a)
        ell = mpmath.log(2 * mpmath.mpf(int(T)) / mpmath.mpf(beta))
        bound = k * c * (mpmath.sqrt(2 * int(n) * L * depth * ell) + mpmath.mpf(4) / 3 * L * ell)
        return BoundValue(mpf_to_float_down(bound), mpf_to_float_up(bound), direction="upper_bound")


def shuffled_tree_counter_epsilon(*, eps: float, n: int, delta: float) -> BoundValue:
    """The central eps of the tree counter run by n users through a shuffler, all T periods together
    (re-accounted with the shuffle model's bounds). By EFMRTT19.Thm5 each user's WHOLE transcript is one eps-LDP randomizer, so the
    T periods are not composed: shuffling the n transcripts is one shuffled round, and shuffling the reports
    of each period separately reveals a post-processing of it (each period's multiset of reports is read off
    the multiset of transcripts). The FMT21 clone bound at eps0 = eps (FMT21.clones_numeric, certified
    interval) therefore covers every period at once; composing T per-period bounds would be loose by ~sqrt(T).
    Supported: 0 < eps <= 700, n >= 1, 0 < delta < 1."""
    from ..bounds.clones import clones_numeric

    require_positive("eps", eps)
    return clones_numeric(eps0=eps, n=n, delta=delta)
