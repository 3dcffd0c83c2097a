"""Certified lower bounds on the central epsilon of a shuffled structured randomizer (unary encodings, local
hashing, Hadamard response, subset selection): the exact epsilon of explicit neighbouring pairs, computed on a
projected pattern randomizer (statement exact.randomizer_pair, applied to the projection).

The pair: user 1 holds x vs x', the other n - 1 users all hold z. Every report is mapped by one fixed function
to a small pattern that depends only on (x, x', z) (for a unary encoding the three bits at coordinates x, x', z;
for local hashing whether the hash value's preimage contains x, x', z; ...). Applying one fixed function to
every report before shuffling is a post-processing of the shuffled output (the multiset of patterns is a
function of the multiset of reports), so the pattern histogram's divergence is at most the pair's, which is at
most the central delta: the pattern pair's epsilon is a lower bound on the central epsilon. The pattern
randomizer has 3 inputs (x, x', z) and a few outputs; its pair epsilon is the certified lattice sum of
`shuffle_spec.reference.lower_bounds.randomizer` (with its output merging, another post-processing), whose
interval's LOWER end is reported. Every (x, x', z) role assignment among the three rows is tried there, and
each is a replace-one pair of the original randomizer. Range: as `best_randomizer_pair` (k <= 16 rows, m <= 64
outputs, eps0 <= 50, n <= 1e8, delta in [1e-300, 1)).

The third bit kept apart (3 x 8 patterns). The lattice sums take at most 3 distinct coefficients, so the 8
patterns are merged into 3 bins first (a post-processing). `best_randomizer_pair` merges contiguously in the
order of mu_x / mu_x', which puts together patterns that differ only in the bit at z, and that bit is what
tells user 1's report apart from the others' (theirs is set with the probability of a held value, user 1's
with that of an unheld one); the same reason the k-RR pair keeps the third value apart (statement
exact.krr_pair_third_split). So `pattern_pair_epsilon` also tries, for every role assignment (x, x', z) of the
three bits, the partitions that keep the z-unset reports apart:
    A = {b_x = 1, b_x' = 0, b_z = 0},  B = {b_x' = 1, b_z = 0},  C = the rest    (and its mirror in x, x'),
    A = {(1, 0, 0)},                   B = {(0, 1, 0)},          C = the rest.
Each is a fixed function of one report, so the reasoning above holds unchanged: a certified lower end of the
merged pair's epsilon is a lower bound on the central epsilon. At eps0 = 8 (delta = 1e-6) this raises the
lower bound of symmetric RAPPOR at n = 1e4 from 3.50 to 4.56, of binary local hashing from 1.23 to 1.58, of
OUE at n = 1e6 from 0.176 to 0.208 (benchmarks/RANDOMIZERS_RESULTS.md has the grid). The partitions were chosen
by an exhaustive search over all 1093 partitions of the 8 patterns into 2 or 3 bins at those cells: the first
shape was the best there (the symmetric one the best for OUE), so only these three shapes are tried.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

from ..bounds.blanket_exact_randomizer import EPS_REL_TOL, check_count_and_delta, finite_randomizer
from ..core.errors import ParameterError, require_integer, require_positive
from ..core.results import BoundValue
from ..numerics.solver import solve_certified_epsilon
from .randomizer import NOTE, PairChoice, best_randomizer_pair, candidate_bins, pair_delta_chernoff_upper, ranked_candidates, pair_guess, randomizer_pair_delta, screened_out

__all__ = ["pattern_pair_epsilon", "pattern_roles_epsilon", "third_bit_partitions", "PATTERNS"]

PATTERNS = tuple(itertools.product((0, 1), repeat=3))  # the 8 patterns, in the column order of a 3 x 8 pattern matrix

STATEMENT = "exact.randomizer_pair"
FULL_SEARCH_N_MAX = 10**6  # above it, one candidate (the cost guard of `_pattern_search`)
SKIP_BY_AIM_N_MIN = 10**5  # from this n, candidates whose saddlepoint root is SKIP_BY_AIM_MARGIN below the bar are skipped
SKIP_BY_AIM_MARGIN = 0.02
AIMED = 6  # generic candidates (by chi-square) ranked with the third-bit partitions by their saddlepoint roots


def pattern_pair_epsilon(*, rows: Sequence[Sequence[Fraction]], n: int, delta: float, labels: Sequence[str] | None = None, full_search: bool = False,
                         floor: float = 0.0) -> BoundValue:
    """exact.randomizer_pair on a projected pattern randomizer (module doc): a certified lower bound (the lower
    end of the interval) on the central eps of n shuffled reports of the randomizer whose projection `rows` is
    (one row per input role, exact Fractions). `labels` name the rows in the note. A 3 x 8 pattern matrix at
    n > FULL_SEARCH_N_MAX solves only its best-aimed candidate (the cost guard of `_pattern_search`; the note says
    so) unless `full_search`. `floor` (a 3 x 8 pattern matrix only): a lower bound the caller already has; candidates
    that cannot beat it by more than the search tolerance are not solved, and (0, 0) with a note is returned when
    none does. Range: see the module doc; floor >= 0."""
    if labels is not None and (not isinstance(labels, Sequence) or len(labels) != len(rows)):
        raise ParameterError("labels", labels, "one label per row")
    require_positive("floor", floor, allow_zero=True)
    if len(rows) == 3 and all(isinstance(r, Sequence) and len(r) == len(PATTERNS) for r in rows):
        return _pattern_search(rows, n=n, delta=delta, labels=labels, full_search=full_search, floor=float(floor))
    value, choice = best_randomizer_pair(matrix=[list(r) for r in rows], n=n, delta=delta)
    if choice is None or labels is None:
        return BoundValue(value.lower, value.upper, value.note, direction="lower_bound")
    note = f"the certified lower bound is the interval's lower end; pair: user 1 at {labels[choice.x]} vs {labels[choice.x2]}, the other n-1 users at {labels[choice.z]} (reports projected to the pattern)"
    return BoundValue(value.lower, value.upper, note, direction="lower_bound")


def third_bit_partitions(x: int, x2: int, z: int, columns: Sequence[tuple[int, ...]]) -> list[tuple[tuple[int, ...], ...]]:
    """exact.randomizer_pair's output merging for a 3-bit pattern randomizer, the third bit kept apart (module
    doc): the partitions of the column indices of `columns` (the patterns of the kept columns) into
    A = {b_x = 1, b_x' = 0, b_z = 0}, B = {b_x' = 1, b_z = 0}, C = the rest; its mirror; and
    A = {(1, 0, 0)}, B = {(0, 1, 0)}, C = the rest (x, x', z: bit positions; partitions with an empty bin are
    left out). Range: x, x', z a permutation of 0, 1, 2."""
    if sorted((x, x2, z)) != [0, 1, 2]:
        raise ParameterError("(x, x', z)", (x, x2, z), "a permutation of the bit positions 0, 1, 2")
    if not isinstance(columns, Sequence) or not all(isinstance(b, tuple) and len(b) == 3 and set(b) <= {0, 1} for b in columns):
        raise ParameterError("columns", repr(columns)[:60], "a list of 3-bit patterns (tuples of 0 and 1)")
    # Each bin as the bits it requires: {bit position: value}.
    shapes: tuple[tuple[dict[int, int], dict[int, int]], ...] = (
        ({x: 1, x2: 0, z: 0}, {x2: 1, z: 0}),
        ({x: 1, z: 0}, {x: 0, x2: 1, z: 0}),
        ({x: 1, x2: 0, z: 0}, {x: 0, x2: 1, z: 0}),
    )
    out: list[tuple[tuple[int, ...], ...]] = []
    for need_a, need_b in shapes:
        a = tuple(i for i, b in enumerate(columns) if all(b[k] == v for k, v in need_a.items()))
        b_ = tuple(i for i, b in enumerate(columns) if all(b[k] == v for k, v in need_b.items()) and i not in a)
        c = tuple(i for i in range(len(columns)) if i not in a and i not in b_)
        if a and b_ and c:
            out.append((a, b_, c))
    return out


def _bit_symmetric(rows: Sequence[Sequence[Fraction]]) -> bool:
    """Whether rows[sigma(w)][sigma(b)] == rows[w][b] for every permutation sigma of the 3 bit positions."""
    index = {b: i for i, b in enumerate(PATTERNS)}
    for sigma in itertools.permutations(range(3)):
        for w in range(3):
            for b, i in index.items():
                moved = tuple(b[sigma.index(j)] for j in range(3))  # bit j of the moved pattern is bit sigma^-1(j) of b
                if Fraction(rows[sigma[w]][index[moved]]) != Fraction(rows[w][i]):
                    return False
    return True


def _pattern_search(rows: Sequence[Sequence[Fraction]], *, n: int, delta: float, labels: Sequence[str] | None, full_search: bool, floor: float = 0.0) -> BoundValue:
    """The best certified lower end over the third-bit partitions (module doc) of every role assignment, then over
    `best_randomizer_pair`'s candidates (every role assignment, contiguous merges): the same candidates and checks
    as `best_randomizer_pair` followed by the third-bit partitions, in the other order. The third-bit partitions
    come first because they are usually the best (eps0 >= 1, n >= 1e4): every later candidate is then screened at
    a larger eps, where the Chernoff screen alone rules most of them out instead of a lattice sum at n (the
    screens are exact: a candidate is skipped only when its certified delta at the current best eps is at most
    delta, so that its eps cannot be larger; delta is non-increasing in eps). The result is the largest certified
    lower end among the candidates solved; a different order may solve other candidates near the best, so the
    reported lower end can differ from the other order's by the search tolerance (EPS_REL_TOL) of near-tied
    candidates, never by more (each solved candidate's lower end is certified)."""
    randomizer = finite_randomizer([list(r) for r in rows])
    check_count_and_delta(n, delta)
    n = int(n)
    if randomizer.eps0 == 0 or randomizer.gamma == 1:
        return BoundValue(0.0, 0.0, "the output does not depend on the input: 0-DP", direction="lower_bound")
    keep = [j for j in range(len(PATTERNS)) if any(Fraction(r[j]) > 0 for r in rows)]  # finite_randomizer's kept columns
    columns = [PATTERNS[j] for j in keep]
    # Rows that map onto each other when the bit positions are permuted (row w's law at pattern b is row
    # sigma(w)'s at sigma(b): every mechanism here) give the same problem under every role assignment; one is
    # enough (each candidate costs a certified lattice sum at n).
    roles = [(0, 1, 2)] if _bit_symmetric(rows) else list(itertools.permutations(range(3)))
    split = [(PairChoice(x, x2, z, bins), True) for x, x2, z in roles for bins in third_bit_partitions(x, x2, z, columns)]
    generic = [(choice, False) for choice in ranked_candidates(randomizer)]
    # The likeliest winners first: the third-bit partitions and the AIMED first generic candidates by decreasing
    # saddlepoint root (`pair_guess`, uncertified, a few milliseconds each; None last), so that the first solve is
    # usually the best and the other candidates meet the screens at its eps (only the order changes).
    head = split + generic[:AIMED]
    guesses = [pair_guess(randomizer, choice, n, delta) for choice, _ in head]
    order = sorted(range(len(head)), key=lambda i: (guesses[i] is None, -(guesses[i] or 0.0), i))
    candidates = [(head[i][0], head[i][1], guesses[i]) for i in order] + [(choice, False, None) for choice, _ in generic[AIMED:]]
    aimed_only = not full_search and n > FULL_SEARCH_N_MAX
    if aimed_only:
        # The cost guard: one lattice sum at n = 1e8 costs seconds (a group of small probability, d = 1e9), and the
        # screens of the other candidates need up to twenty of them (minutes). Above FULL_SEARCH_N_MAX only the
        # candidate with the largest saddlepoint root is solved: its certified lower end is a lower bound all the
        # same; the others, near-tied at such n, could only raise it (the note names the full search).
        candidates = candidates[:1]
    best: tuple[float, float, PairChoice, bool] | None = None
    for choice, kept_apart, guess in candidates:
        def bounds(eps: float, choice: PairChoice = choice) -> tuple[float, float]:
            value = randomizer_pair_delta(matrix=randomizer, n=n, eps=eps, x=choice.x, x2=choice.x2, z=choice.z, bins=[list(b) for b in choice.bins], delta_hint=delta)
            return value.lower, value.upper

        # A candidate is solved only if its eps may exceed the best by more than the search tolerance: its certified
        # delta at best (1 + EPS_REL_TOL) above delta (screens first: the Chernoff bound, the coarse lattice sum).
        # Near-tied candidates (BLH at eps0 = 8: six within 1e-7 of each other) are not solved again.
        bar = max(best[0] if best is not None else 0.0, floor) * (1 + EPS_REL_TOL)
        if best is not None or floor > 0:
            if pair_delta_chernoff_upper(matrix=randomizer, n=n, eps=bar, x=choice.x, x2=choice.x2, z=choice.z, bins=[list(b) for b in choice.bins]) <= delta:
                continue  # exact: its delta at bar is at most delta
            if n >= SKIP_BY_AIM_N_MIN:
                # Uncertified, and sound all the same: skipping a candidate can only lower the result (every reported
                # lower end is a solved candidate's certified one). At n >= 1e5 the saddlepoint root is within 1e-3 of
                # the certified one (the aimed solves settle in two evaluations); a root SKIP_BY_AIM_MARGIN below bar
                # spares the coarse lattice sum (20-60 ms at n = 1e6, the larger part of the search there).
                guess = guess if guess is not None else pair_guess(randomizer, choice, n, delta)
                if guess is not None and guess < bar * (1 - SKIP_BY_AIM_MARGIN):
                    continue
            if screened_out(randomizer, choice, n, bar, delta) or bounds(bar)[0] <= delta:
                continue
        try:
            aim = guess if guess is not None else pair_guess(randomizer, choice, n, delta)
            lower, upper, _ = solve_certified_epsilon(bounds, eps0=randomizer.eps0, delta=delta, rel_tol=EPS_REL_TOL, guess=aim)
        except ParameterError:
            continue  # more than 3 distinct coefficients after merging (cannot happen with 3 bins)
        if (best is None or lower > best[0]) and lower > floor:
            best = (lower, max(lower, upper), choice, kept_apart)
    guard = (f"; only the candidate with the largest saddlepoint root solved (n > {FULL_SEARCH_N_MAX:.0e}): every candidate with "
             "shuffle_spec.reference.lower_bounds.structured.pattern_pair_epsilon(..., full_search=True), minutes at n = 1e8") if aimed_only else ""
    if best is None:
        return BoundValue(0.0, 0.0, NOTE + (f"; no candidate beats the floor {floor:.6g}" if floor > 0 else "") + guard, direction="lower_bound")
    lower, upper, choice, kept_apart = best
    if labels is None and not kept_apart:
        return BoundValue(lower, upper, f"{NOTE}; pair: {choice.describe()}{guard}", direction="lower_bound")
    if labels is None:
        who = f"rows {choice.x} vs {choice.x2}, the others at row {choice.z}"
    else:
        who = f"user 1 at {labels[choice.x]} vs {labels[choice.x2]}, the other n-1 users at {labels[choice.z]}"
    how = "reports projected to the pattern, the reports without the bit at z kept apart" if kept_apart else "reports projected to the pattern"
    return BoundValue(lower, upper, f"the certified lower bound is the interval's lower end; pair: {who} ({how}){guard}", direction="lower_bound")


def pattern_roles_epsilon(*, rows: Sequence[Sequence[Fraction]], roles: Sequence[tuple[int, int, int]], n: int, delta: float, labels: Sequence[str]) -> BoundValue:
    """exact.randomizer_pair on a projected pattern randomizer, restricted to the given role triples (x, x', z)
    (row indices: user 1 at row x vs row x', the other n - 1 at row z): for a neighbouring relation in which not
    every pair of rows is a neighbouring pair (the deletion relation: one row is the reference distribution, and
    only pairs with it are neighbours; the others must hold real inputs). Each triple is solved with every
    output partition of `candidate_bins` (merging is a post-processing); the largest certified lower end is
    returned. Range: as pattern_pair_epsilon; at least one triple."""
    if not isinstance(roles, Sequence) or not roles:
        raise ParameterError("roles", roles, "a non-empty list of (x, x', z) row-index triples")
    if not isinstance(labels, Sequence) or len(labels) != len(rows):
        raise ParameterError("labels", labels, "one label per row")
    randomizer = finite_randomizer([list(r) for r in rows])
    for triple in roles:
        if not (isinstance(triple, tuple) and len(triple) == 3):
            raise ParameterError("roles", triple, "(x, x', z) row-index triples")
        for value in triple:
            require_integer("roles", value, minimum=0)
            if value >= randomizer.k:
                raise ParameterError("roles", triple, f"row indices in [0, {randomizer.k - 1}]")
    best: tuple[float, float, str] | None = None
    for x, x2, z in roles:
        if x == x2:
            continue
        for bins in candidate_bins(randomizer, x, x2):
            def bounds(eps: float, x: int = x, x2: int = x2, z: int = z, bins: tuple[tuple[int, ...], ...] = bins) -> tuple[float, float]:
                value = randomizer_pair_delta(matrix=randomizer, n=n, eps=eps, x=x, x2=x2, z=z, bins=[list(b) for b in bins], delta_hint=delta)
                return value.lower, value.upper

            if best is not None and (screened_out(randomizer, PairChoice(x, x2, z, bins), n, best[0], delta) or bounds(best[0])[0] <= delta):
                continue  # its eps cannot beat the best certified lower end (delta is non-increasing in eps)
            try:
                lower, upper, _ = solve_certified_epsilon(bounds, eps0=randomizer.eps0, delta=delta, rel_tol=EPS_REL_TOL, guess=pair_guess(randomizer, PairChoice(x, x2, z, bins), n, delta))
            except ParameterError:
                continue  # more than 3 distinct coefficients for this partition
            if best is None or lower > best[0]:
                best = (lower, max(lower, upper), f"user 1 at {labels[x]} vs {labels[x2]}, the other n-1 users at {labels[z]}")
    if best is None:
        return BoundValue(0.0, 0.0, "no pair certified", direction="lower_bound")
    return BoundValue(best[0], best[1], f"the certified lower bound is the interval's lower end; pair: {best[2]} (reports projected to the pattern)", direction="lower_bound")
