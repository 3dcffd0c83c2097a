"""The composed certified LOWER bound of the schedules of `blanket_rounds` (compose.laplace, compose.finite,
compose.randomizer, and their mixes with binary RR and k-RR rounds): each round group mapped to its explicit
neighbouring pairs and composed by the optimistic path of the certified engine (`explicit_pairs`).

- Laplace rounds: the binned pairs of `laplace_pairs` (exact.laplace_pair_x0's pair, reports binned);
- a finite matrix: the binned pairs of `finite_pairs.matrix_count_pairs` (exact.randomizer_pair's pairs);
- RAPPOR, OUE, BLH, OLH, Hadamard, subset selection: the binned pattern pairs of
  `finite_pairs.structured_count_pairs` (exact.randomizer_pair on the pattern projections);
- the piecewise mechanism: the binned cell pairs of `finite_pairs.piecewise_count_pairs`
  (exact.piecewise_partition_pair's coarsenings of the reports to three cells);
- Duchi et al.'s mechanism: binary RR's pairs (its inputs +-1 ARE binary RR at eps0, exact.shuffled_duchi step (1));
- binary RR and k-RR rounds: their own pairs (`binary_rr_pairs`, `krr_pairs`).
Neighbouring relation: replace-one; in every round user 1 is the only user whose input differs, so the chosen pairs
of all the groups form ONE pair of neighbouring datasets of the whole schedule (module doc of `explicit_pairs`): its
composed delta(eps) is at most the worst case's, and the largest certified lower end over the candidates is a lower
bound on the composed worst-case eps(delta). A group whose pairs cannot be built (outside their ranges) leaves the
lower end at 0, said in the note.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..core.errors import ParameterError, require_positive, require_probability
from .explicit_pairs import Group, lower_delta, lower_epsilon
from .finite_pairs import STRUCTURED as PATTERN_RANDOMIZERS
from .finite_pairs import matrix_count_pairs, piecewise_count_pairs, structured_count_pairs
from .laplace_pairs import laplace_count_pairs

__all__ = ["lower_groups", "blanket_lower_epsilon", "blanket_lower_delta"]


def _group(r: Any) -> Group:
    """The explicit-pair group of one validated round group (fields of blanket_rounds.BlanketRound)."""
    if r.mechanism == "laplace":
        return Group("count", r.eps0, r.n, r.rounds, pairs=laplace_count_pairs(eps0=r.eps0))
    if r.mechanism == "matrix":
        return Group("count", r.eps0, r.n, r.rounds, pairs=matrix_count_pairs(r.matrix))
    if r.mechanism in PATTERN_RANDOMIZERS:
        return Group("count", r.eps0, r.n, r.rounds, pairs=structured_count_pairs(randomizer=r.mechanism, eps0=r.eps0, d=r.d))
    if r.mechanism == "piecewise":
        return Group("count", r.eps0, r.n, r.rounds, pairs=piecewise_count_pairs(eps0=r.eps0))
    if r.mechanism in ("duchi", "binary_rr") or (r.mechanism == "krr" and r.k == 2):
        return Group("binary_rr", r.eps0, r.n, r.rounds)
    if r.mechanism == "krr":
        return Group("krr", r.eps0, r.n, r.rounds, r.k)
    raise ParameterError("mechanism", r.mechanism, "a mechanism of blanket_rounds.MECHANISMS")


FIELDS = ("mechanism", "eps0", "n", "rounds", "d", "k", "matrix")


def lower_groups(rounds: Sequence[Any]) -> list[Group] | None:
    """The groups of the validated rounds (module doc; blanket_rounds.BlanketRound entries after its validation), or
    None when some group's pairs cannot be built."""
    if isinstance(rounds, (str, bytes)) or not isinstance(rounds, Sequence) or not rounds or not all(all(hasattr(r, f) for f in FIELDS) for r in rounds):
        raise ParameterError("rounds", repr(rounds)[:60], "a non-empty list of validated BlanketRound(mechanism, eps0, n, rounds, d, k, matrix)")
    try:
        return [_group(r) for r in rounds]
    except ParameterError:
        return None


def blanket_lower_epsilon(rounds: Sequence[Any], *, delta: float) -> tuple[float, str]:
    """A certified LOWER bound on the composed worst-case eps(delta) of the validated rounds (module doc) and the
    pairs that gave it ("" with 0.0 when none could be composed). Ranges: as blanket_rounds.composed_epsilon."""
    require_probability("delta", delta)
    groups = lower_groups(rounds)
    if groups is None:
        return 0.0, ""
    return lower_epsilon(groups, delta=delta)


def blanket_lower_delta(rounds: Sequence[Any], *, eps: float, delta_hint: float) -> tuple[float, str]:
    """A certified LOWER bound on the composed worst-case delta(eps) of the validated rounds (module doc) and the
    pairs that gave it. Ranges: as blanket_rounds.composed_delta; 0 < delta_hint < 1 sets the grid."""
    require_positive("eps", eps, allow_zero=True)
    require_probability("delta_hint", delta_hint)
    groups = lower_groups(rounds)
    if groups is None:
        return 0.0, ""
    return lower_delta(groups, eps=eps, delta_hint=delta_hint)
