"""The gap between the tightest certified upper bound and the largest certified lower bound on the central
epsilon of a shuffled randomizer: `tightest(...)`, used by `shuffle-spec tightest` and the gap
lines of `bounds`, `compare` and `calibrate --randomizer`.

Upper bounds: every registered amplification statement with direction upper_bound that applies to the
randomizer (generic ones and those of its mechanism), valid at the point; the reported eps is each one's
value (the upper end of its certified interval); statements in NOT_FULLY_PROVEN (a step only checked
numerically) are left out. Lower bounds: the registered statements with direction
lower_bound for the mechanism (k-RR: exact.krr_pair_third, exact.krr_pair_x0); each contributes the LOWER end
of its certified interval. ratio = upper / lower (>= 1 whenever both are sound).

k = 2 (binary RR, = k-RR with k = 2): exact.shuffled_binary_rr is the CERTIFIED worst case over every
neighbouring pair (direction exact): an interval [lower, upper] of relative width <= 1e-6 (or the
wider one stated in its note when its work budget widened it) that contains the true eps. It is evaluated
once and competes on BOTH sides: its lower end as a lower bound, its upper end as an upper bound, so the
ratio there is at most 1 / (1 - the stated width). Where it refuses (outside its range or work budget), both
of its rows say why and the gap is the one of the other bounds.

skip_dominated=True (what `shuffle-spec tightest` uses; `--all-bounds` turns it off): the candidates that cost tenths of
a second at large n and usually lose (DOMINATED_CHECKS) are evaluated last, and each is first put to one cheap
certified test against the best end already in hand; where the test passes the candidate CANNOT beat that end and is
not evaluated (its row says so: "eps" null, "valid" false, "skipped" true). The answer (ids and ends) is then the one
of the full computation, bit for bit: a skipped upper bound's value is certified to lie strictly above an upper end in
hand (and a skipped lower bound's strictly below a lower end in hand), so neither the minimum nor the maximum nor a
tie can change. The tests, each ONE certified delta evaluation where the candidate's own search takes 3-5 and the
window set-up (the k-RR pair lower bounds, BBGN19.Lem5.3.exact_krr and the clone bounds all return an end at which
their own certified delta function was verified: `solve_certified_epsilon` / `solve_epsilon` return evaluated points
only; every one of these delta functions is a hockey-stick divergence D_{e^eps}, an expectation of them, or (BBGN19's
Hoeffding and Bennett forms) a bound non-increasing in eps, as `closed_form_epsilon` requires):
- FMT21.clones_numeric and FMT23.stronger_clones, against the smallest upper end U in hand: the stronger-clone pair's
  certified delta at U has its lower end above delta. Then FMT23's value v (its delta at v is at most delta) is > U;
  and FMT21's delta is at least FMT23's at every eps (FMT21 arXiv:2012.12803 App. E: the same per-count divergence
  B(c), non-increasing in the clone count c, averaged over Bin(n-1, e^-eps0) instead of the stochastically larger
  Bin(n-1, 2/(e^eps0+1)), e^-eps0 <= 2/(e^eps0+1)), so FMT21's value is > U too. One evaluation serves both: first
  with a window of the clone count dropping up to COARSE_CLONE_TAIL of mass per side (its lower end is still
  certified: it falls by at most that mass; about half the work at n = 1e8, where FMT23's delta at U is hundreds of
  times delta), and only where that lower end is not above delta with the window of 1e-4 delta.
- BBGN19.Lem5.3.exact_krr at k = 2 (binary RR's certified worst case in hand): a certified lower bound on Lemma 5.3's
  delta at U is above delta, so its value is > U: first the bound from one blanket size
  (`blanket_krr_delta_lower`: Pr[N <= N*] D_{N*}, D_N non-increasing in the blanket size N; at k = 2 one certified
  binomial window), else
  the lower end of the exact delta from whichever of its two exact evaluations, the split sum or the N grid, has the
  smaller work estimate (`exact_blanket_krr_delta(path="estimate")`).
- BBGN19.Cor5.3.1 (the closed form 4 min(eps0, 1) e^eps0 sqrt(log(1/delta)/n), returned rounded up by 16 ulps where its
  regime and Thm 5.3 certify it: deciding that takes its hypotheses at 30 and 60 digits): the same float 16 ulps DOWN,
  below the exact closed form (its eight operations are each within one ulp), is above U, so its value is > U.
- BBGN19.Thm5.3, BBGN19.hoeffding_krr, BBGN19.bennett_generic, BBGN19.bennett_krr (closed forms, each inverted by
  `closed_form_epsilon` at a point where its float delta, rounded up, is at most delta): the float delta at U above
  delta (1 + CLOSED_FORM_SLACK); the float is at most the exact delta times (1 + 1e-40)^2 (1 + 2^-52), so the exact
  delta at U is above delta, while at the candidate's value it is at most delta: its value is > U.
- exact.krr_pair_x0, against the largest lower end L > 0 in hand: the x0 pair's certified delta (both directions) at L
  has its upper end at most delta, so the pair's exact eps is <= L and the candidate's value (a point whose certified
  lower delta exceeds delta, or 0) is < L. At k >= 3 that delta is bounded first by the pair's Chernoff bound
  (`krr_pair_x0_chernoff_delta`: the multinomial's moment generating function, closed form, ~1 ms), else by the pair's
  own lattice sums (`krr_pair_delta`, one per direction, the upper end only, sharp_lower=False, with a tail of
  1e-4 delta / e^eps0: any certified upper end serves), first from the grid rows alone (4 per sd of b, the monotone
  bounds between them, sharp_upper=False), else with the shifted upper bounds between rows on a coarser grid
  (1 per sd); at k = 2 the x0 pair IS a binary-RR pair (user 1 holds one bit or the other, the n - 1 others all
  hold x0: `reference/lower_bounds/krr.py`, module doc), with delta = max(d_{n-1}, d_0) in the notation of
  `reference/exact/binary_rr.py` (its D(Q_k||P_k) = D(P_{n-1-k}||Q_{n-1-k})), certified there by `binary_rr_pair_delta`
  on the windows exact.shuffled_binary_rr has just built at this delta (a few dot products; L is then its lower end,
  the worst pair's, and the test passes wherever the all-x0 pair is not itself within the worst case's width of it).
A test that fails, or that refuses its inputs, costs its one evaluation and the candidate is evaluated as usual.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from .results import BracketFields
from ..reference.core.errors import ParameterError

from .amplification import EXACT_BINARY_RR_ID, GENERIC, amplification_statements
from ..proofs_checks.bridge import BadParameter, Evaluation, evaluate
from .mechanisms import MECHANISMS, describe
from .certified import Candidate, best_certified, certified_end
from ..spec.catalog import Entry, all_statements, resolve  # no SymPy when the catalog applies
from ..spec.terms import Direction

if TYPE_CHECKING:  # the SymPy statement type, for the annotation only
    from ..spec.statement import Statement

__all__ = ["DOMINATED_CHECKS", "Gap", "NOT_FULLY_PROVEN", "RANDOMIZERS", "tightest", "candidate_upper_bounds", "gap_from_rows", "lower_side_statements"]

RANDOMIZERS = tuple(MECHANISMS)  # the registry of interface/mechanisms.py
# Upper bounds whose certificate rests on a step that is only checked numerically, not proven: they stay
# registered (eval, bounds, compare show them) but are never chosen as "the tightest certified" bound, so the
# gap and `calibrate --randomizer` rely on proven bounds only (soundness first).
NOT_FULLY_PROVEN: dict[str, str] = {}
# The candidates put last and tested before they are evaluated (skip_dominated; module doc): id -> the side it certifies.
DOMINATED_CHECKS: dict[str, Literal["lower", "upper"]] = {
    "FMT21.clones_numeric": "upper",
    "FMT23.stronger_clones": "upper",
    "BBGN19.Lem5.3.exact_krr": "upper",  # only at k = 2, where exact.shuffled_binary_rr is in hand
    "exact.krr_pair_x0": "lower",  # k >= 3: its own delta; k = 2: the binary-RR pair's (module doc)
    # BBGN19's closed forms: each inversion takes ~40 evaluations at 80 digits (20-30 ms), the test one.
    "BBGN19.Thm5.3": "upper",
    "BBGN19.hoeffding_krr": "upper",
    "BBGN19.bennett_generic": "upper",
    "BBGN19.bennett_krr": "upper",
    # BBGN19's corollary: its regime hypothesis at 30 and 60 digits (10 ms), the test a few float operations.
    "BBGN19.Cor5.3.1": "upper",
}
# A closed form's float delta is at most its exact value times (1 + 1e-40)^2 (1 + 2^-52) (`reference.bounds.
# blanket_parameters.delta_rounded_up`: 80 digits, a relative margin of 1e-40, then rounded up to a float): a float
# above delta (1 + CLOSED_FORM_SLACK) proves the exact value above delta.
CLOSED_FORM_SLACK = 1e-12
# The x0 test's first lattice sums (module doc): grid rows per standard deviation of b, without shifted bounds between rows.
PER_SD_X0_ROWS = 4
# The clone test's first window (module doc): the clone-count mass it may drop on each side.
COARSE_CLONE_TAIL = 1e-2


@dataclass(frozen=True)
class Gap(BracketFields):
    """The tightest certified upper bound and the largest certified lower bound at one point."""

    randomizer: str
    params: dict
    upper_id: str | None
    upper_eps: float | None
    lower_id: str | None
    lower_eps: float | None
    rows: list = field(default_factory=list)

    @property
    def ratio(self) -> float | None:
        if self.upper_eps is None or self.lower_eps is None or not self.lower_eps > 0:
            return None
        return self.upper_eps / self.lower_eps

    def to_json(self) -> dict:
        return {
            "randomizer": self.randomizer,
            "params": self.params,
            "upper": None if self.upper_id is None else {"id": self.upper_id, "eps": self.upper_eps},
            "lower": None if self.lower_id is None else {"id": self.lower_id, "eps": self.lower_eps},
            "ratio": self.ratio,
            "bounds": self.rows,
            "neighbouring": self.neighbouring,
        }

    def line(self) -> str:
        """One line for the text output of bounds / compare / tightest."""
        up = "none valid" if self.upper_id is None else f"{self.upper_eps:.6g} ({self.upper_id})"
        low = "none valid" if self.lower_id is None else f"{self.lower_eps:.6g} ({self.lower_id})"
        ratio = "-" if self.ratio is None else format_ratio(self.ratio)
        return f"gap: tightest certified upper {up}, largest certified lower {low}, ratio {ratio}"


def format_ratio(ratio: float) -> str:
    """4 decimals, or `1 + 9.0e-07` when that would print 1.0000 for a ratio above 1 (k = 2: the exact
    interval's width), so the line still says how far apart the two ends are."""
    return f"1 + {ratio - 1:.1e}" if 1 < ratio < 1.00005 else f"{ratio:.4f}"


def _mechanism(randomizer: str, k: int | None) -> tuple[str, dict]:
    """(mechanism, its extra parameters) from the front door's registry (`interface/mechanisms.py`). Errors name the
    Python parameter (`randomizer`, `k`), never a flag: the command line shows them as they are (its parameters
    have the same names)."""
    mechanism, extra = describe(randomizer, {} if k is None else {"k": k})
    if mechanism == "matrix":  # a matrix has its own gap (`tightest_randomizer`, `interface/randomizer_gap.py`)
        raise BadParameter("randomizer", "matrix", "a named randomizer here (a matrix: tightest_randomizer / certify)")
    return mechanism, extra


def candidate_upper_bounds(randomizer: str, k: int | None = None) -> list:
    """The registered upper bounds that apply to the randomizer (generic + its mechanism; k = 2 also binary RR).
    `calibrate --randomizer` inverts each of them. exact.shuffled_binary_rr (direction exact) is not among them
    on purpose: its upper end is certified, but one evaluation costs 0.1 s to tens of seconds (its deterministic
    work budget; more at n >= 1e6 and under load) and an inversion needs 20-40 evaluations or more, so for k = 2
    calibrate it explicitly (`calibrate exact.shuffled_binary_rr --eps E --n N --delta D`); `tightest` and the
    gap lines use it (one evaluation, module doc)."""
    mechanism, extra = _mechanism(randomizer, k)
    # A list, not a set: the order decides ties (the first in the list wins), and a set of strings iterates in an
    # order that changes with each process's hash seed.
    mechanisms = [mechanism] + ([m for m in ("binary_rr", "krr") if m != mechanism] if extra.get("k") == 2 else [])
    found = {}
    for m in mechanisms:
        for statement in amplification_statements(m):
            if statement.direction is Direction.UPPER_BOUND and statement.id not in found and statement.id not in NOT_FULLY_PROVEN:
                found[statement.id] = statement
    return list(found.values())


def _exact_statement() -> Entry | Statement:
    """exact.shuffled_binary_rr from the catalog: evaluating it needs neither SymPy nor the registry, whose first
    build takes seconds to a minute (the exact statements' symbolic forms)."""
    return resolve(EXACT_BINARY_RR_ID)


def _lower_statements(mechanism: str, k: int | None) -> list:
    if mechanism == GENERIC:
        # Binary RR is an eps0-LDP randomizer, so its certified worst case is a lower bound on the worst case over
        # every eps0-LDP randomizer (what a generic bound bounds): a mechanism-specific lower bound, used for its
        # lower end only (its upper end bounds binary RR alone).
        return [_exact_statement()]
    out = [s for s in amplification_statements(mechanism) if s.direction is Direction.LOWER_BOUND and s.mechanism == mechanism]
    if k == 2:
        out.append(_exact_statement())
    return out


def sides_are_separable(randomizer: str, k: int | None) -> bool:
    """True when no statement on either side of `tightest` has direction exact (k-RR with k >= 3, Laplace): then
    its upper and its lower side share no evaluation and no skip test (`interface/parallel_sides.py`)."""
    mechanism, extra = _mechanism(randomizer, k)
    statements = candidate_upper_bounds(randomizer, k) + _lower_statements(mechanism, extra.get("k"))
    return all(s.direction is not Direction.EXACT for s in statements)


def lower_side_statements(randomizer: str, k: int | None) -> list:
    """The statements of `tightest`'s lower side for the randomizer (those whose inputs the point has are evaluated):
    `interface/parallel_sides.py` imports their reference modules before it forks. Range: as `tightest`'s randomizer
    and k (UsageError otherwise)."""
    mechanism, extra = _mechanism(randomizer, k)
    return _lower_statements(mechanism, extra.get("k"))


def _exact_k2(params: dict, evaluated: Evaluation | None = None) -> tuple[Candidate, str]:
    """exact.shuffled_binary_rr evaluated ONCE at the point (eps0, n, delta): the candidate (direction exact,
    both ends certified) and the refusal reason ("" when valid). `evaluated`: the caller's own evaluation of it
    at the same point (`bounds` and `compare` show it too; one evaluation costs seconds at large n), used as is."""
    point = {name: params[name] for name in ("eps0", "n", "delta")}
    if evaluated is None:
        result = evaluate(_exact_statement(), point)
    else:
        if not (evaluated.id == EXACT_BINARY_RR_ID and evaluated.params == point):
            from ..proofs_checks.framework import CheckFailed  # imports SymPy: only on this failure

            raise CheckFailed(f"the evaluation passed in is {evaluated.id} at {evaluated.params}, not {EXACT_BINARY_RR_ID} at {point}")
        result = evaluated
    return (EXACT_BINARY_RR_ID, Direction.EXACT, result.valid, result.value, result.interval), result.reason


def _exact_rows(candidate: Candidate, reason: str, *, include_upper: bool) -> list[dict]:
    """The exact statement's rows in the gap's table: one per side it certifies (same evaluation)."""
    statement_id, direction, valid, value, interval = candidate
    sides: tuple[Literal["lower", "upper"], ...] = ("lower", "upper") if include_upper else ("lower",)
    return [
        {"id": statement_id, "direction": f"{side}_bound", "eps": certified_end(direction, side=side, valid=valid, value=value, interval=interval),
         "valid": valid, "reason": reason, "interval": None if interval is None else list(interval)}
        for side in sides
    ]


def _deferred(statement_id: str, k: int | None) -> bool:
    """Whether `statement_id` is evaluated last and tested first at this k (DOMINATED_CHECKS)."""
    if statement_id == "BBGN19.Lem5.3.exact_krr":
        return k == 2
    if statement_id == "exact.krr_pair_x0":
        return k is not None and k >= 2
    return statement_id in DOMINATED_CHECKS


def _closed_form_delta(statement_id: str, *, eps: float, eps0: float, n: int, k: int | None) -> float | None:
    """The float delta(eps) (rounded up) of one of BBGN19's closed forms in DOMINATED_CHECKS, or None for another id
    (or a k-RR form without k)."""
    from ..reference.bounds.bennett import bennett_generic_delta, bennett_krr_delta
    from ..reference.bounds.hoeffding import hoeffding_generic_delta, hoeffding_krr_delta

    if statement_id == "BBGN19.Thm5.3":
        return hoeffding_generic_delta(eps=eps, eps0=eps0, n=n)
    if statement_id == "BBGN19.bennett_generic":
        return bennett_generic_delta(eps=eps, eps0=eps0, n=n)
    if k is None:
        return None
    if statement_id == "BBGN19.hoeffding_krr":
        return hoeffding_krr_delta(eps=eps, eps0=eps0, n=n, k=k)
    if statement_id == "BBGN19.bennett_krr":
        return bennett_krr_delta(eps=eps, eps0=eps0, n=n, k=k)
    return None


def _cannot_beat(statement_id: str, params: dict, end: float | None, found: dict[str, bool]) -> str:
    """The reason, when ONE certified delta evaluation shows that `statement_id` cannot beat `end` (the smallest upper
    end in hand for an upper bound, the largest lower end for a lower bound; module doc), else "". `found` keeps the
    stronger-clone test's outcome for the two clone bounds. A refusal of the test's inputs is a failed test."""
    eps0, n, delta, k = params["eps0"], params["n"], params["delta"], params.get("k")
    if end is None or not 0 < end < eps0:
        return ""
    try:
        if statement_id in ("FMT21.clones_numeric", "FMT23.stronger_clones"):
            if "clones" not in found:
                from ..reference.bounds.clones import clone_pair_delta, window_tail

                # A window dropping up to COARSE_CLONE_TAIL, else 1e-4 delta, of mass on each side (instead of the
                # statement's 1e-30): the lower end falls by at most that mass (every divergence term is <= 1) and the
                # window is about a third, else half, as wide. The first decides wherever FMT23's delta at the end is far
                # above delta (every point of the benchmark); the second only where it is not.
                tails = (COARSE_CLONE_TAIL, max(window_tail(delta), 1e-4 * delta))
                found["clones"] = any(clone_pair_delta(eps0=eps0, n=n, eps=end, kind="fmt23", tail=tail).lower > delta for tail in tails)
            why = "FMT23's stronger-clone delta" + (" (FMT21's is at least it)" if statement_id == "FMT21.clones_numeric" else "")
            return f"not evaluated: {why} at eps = {end!r} is certified above delta, so its eps is larger" if found["clones"] else ""
        if statement_id == "BBGN19.Lem5.3.exact_krr" and k is not None:
            from ..reference.bounds.blanket_exact_krr import exact_blanket_krr_delta
            from ..reference.bounds.blanket_krr_lower import blanket_krr_delta_lower

            # First the lower bound from one blanket size (at k = 2 one certified binomial window, 2-17 ms, where the
            # exact evaluation takes 10-200 ms; ~1% below the exact delta at large n). Else either exact evaluation of the sum: the one
            # with the smaller work estimate (path "estimate"; at eps0 = 4, n = 1e6 the statement's own rule takes the
            # split sum, ten times slower there).
            if (blanket_krr_delta_lower(eps0=eps0, n=n, k=k, eps=end, delta_hint=delta) > delta
                    or exact_blanket_krr_delta(eps0=eps0, n=n, k=k, eps=end, delta_hint=delta, path="estimate").lower > delta):
                return f"not evaluated: its delta at eps = {end!r} is certified above delta, so its eps is larger"
            return ""
        if statement_id == "BBGN19.Cor5.3.1":
            from ..reference.bounds.restated import COROLLARY_5_3_1_CONSTANT
            from ..reference.core.rounding import round_down

            # Its eps, where valid, is the closed form rounded up by 16 ulps (or more: eps0), and that many ulps down
            # the float is below the exact closed form (`corollary_5_3_1_epsilon`): above the end, it is larger.
            closed_form = COROLLARY_5_3_1_CONSTANT * min(eps0, 1.0) * math.exp(eps0) * math.sqrt(-math.log(delta) / n)
            if math.isfinite(closed_form) and round_down(closed_form, 16) > end:
                return f"not evaluated: its closed form is certified above eps = {end!r}, so its eps is larger"
            return ""
        closed = _closed_form_delta(statement_id, eps=end, eps0=eps0, n=n, k=k)
        if closed is not None:
            if closed > delta * (1 + CLOSED_FORM_SLACK):
                return f"not evaluated: its delta at eps = {end!r} is certified above delta, so its eps is larger"
            return ""
        if statement_id == "exact.krr_pair_x0" and k is not None:
            if k == 2:  # the binary-RR pair with the n - 1 others at one bit (module doc), both directions
                from ..reference.exact.binary_rr import binary_rr_pair_delta

                pair_upper = binary_rr_pair_delta(eps0=eps0, n=n, k=0, eps=end, delta_hint=delta).upper
            else:
                from ..reference.lower_bounds.krr import krr_pair_delta, krr_pair_x0_chernoff_delta

                # First the pair's Chernoff bound (closed form, ~1 ms; within 2-7x of the pair's delta): enough where
                # that delta is far below delta (eps0 >= 1 at n = 1e8). Else the lattice sums: the upper end alone
                # decides, so they skip their lower queries, and a coarser certified interval serves (one grid row per
                # sd of b; a tail of 1e-4 delta / e^eps0 on each side, which adds at most 1e-4 delta to the upper end:
                # the tail's summand is capped by c0 m <= e^eps0 n).
                pair_upper = krr_pair_x0_chernoff_delta(eps0=eps0, n=n, k=k, eps=end)
                tail = max(min(1e-30, delta * 1e-12), 1e-4 * delta / math.exp(min(eps0, 700.0)), 1e-300)
                # Then the grid rows alone (4 per sd of b, no shifted bounds between them: sharp_upper=False): 15-20%
                # above the sharpened upper end at n = 1e8, eps0 = 0.5, for about 60% of its time; where that is
                # still above delta, the rows with the shifted upper bounds between them (1 per sd).
                for per_sd, sharp_upper in ((PER_SD_X0_ROWS, False), (1, True)):
                    if pair_upper <= delta:
                        break
                    pair_upper = krr_pair_delta(eps0=eps0, n=n, k=k, eps=end, pair="x0", delta_hint=delta, sharp_lower=False, tail=tail, per_sd=per_sd,
                                                sharp_upper=sharp_upper).upper
            if pair_upper <= delta:
                return f"not evaluated: the pair's delta at eps = {end!r} is certified at most delta, so its eps is not larger"
            return ""
    except ParameterError:  # outside a test's range: no test, the candidate is evaluated
        return ""
    return ""


def tightest(*, randomizer: str = "krr", eps0: float, n: int, delta: float, k: int | None = None, include_upper: bool = True,
             exact_evaluation: Evaluation | None = None, include_lower: bool = True, skip_dominated: bool = False) -> Gap:
    """The tightest certified upper bound and the largest certified lower bound on the central eps of n
    shuffled eps0-LDP reports of `randomizer` ("krr" with domain size k >= 2, "binary_rr", or "laplace": the
    Laplace mechanism on [0, 1], no k) at delta, and
    their ratio (module doc; for k = 2 exact.shuffled_binary_rr takes part on both sides). Refuses
    (UsageError) an unknown randomizer or a bad k; a point outside every statement's range gives None for
    that side. Each row: {"id", "direction" (the side it certifies), "eps" (that side's certified end),
    "valid", "reason", "interval" (the certified interval, or None)}. `exact_evaluation`: the caller's
    evaluation of exact.shuffled_binary_rr at this (eps0, n, delta), used instead of evaluating it again.
    `include_lower=False`: the upper rows only (a caller that has its own lower bounds skips the lower statements'
    evaluation, e.g. exact.shuffled_binary_rr for the generic randomizer, seconds at large n). `skip_dominated=True`:
    the candidates of DOMINATED_CHECKS are evaluated last and left out where one certified evaluation shows that they
    cannot beat the best end in hand (module doc; the answer is the full computation's, only their rows differ:
    "eps" None, "valid" False, "skipped" True, the reason). Every row has "skipped" (False when evaluated)."""
    mechanism, extra = _mechanism(randomizer, k)
    params = {"eps0": eps0, "n": n, "delta": delta, **extra}
    # Generic: the exact binary-RR worst case is a lower bound only (its upper end holds for binary RR alone).
    exact_upper = include_upper and mechanism != GENERIC
    placed: list[tuple[int, list[dict]]] = []  # (position in the statement list, its rows): rows keep the list's order
    evaluated: list[Candidate] = []
    order: list[int] = []  # the list position of each evaluated candidate: ties go to the first in the list, as before
    uppers = candidate_upper_bounds(randomizer, k) if include_upper else []
    statements = [s for s in uppers + (_lower_statements(mechanism, extra.get("k")) if include_lower else [])
                  if set(s.input_names) <= set(params)]
    later = [i for i, s in enumerate(statements) if skip_dominated and _deferred(s.id, extra.get("k"))]
    found: dict[str, bool] = {}
    for index in [i for i in range(len(statements)) if i not in later] + later:
        statement = statements[index]
        inputs = {name: params[name] for name in statement.input_names}
        if statement.direction is Direction.EXACT:  # k = 2: the certified worst case, both ends
            candidate, reason = _exact_k2(params, exact_evaluation)
            evaluated.append(candidate if exact_upper else candidate[:1] + (Direction.LOWER_BOUND,) + candidate[2:])
            order.append(index)
            placed.append((index, _exact_rows(candidate, reason, include_upper=exact_upper)))
            continue
        is_lower = statement.direction is not Direction.UPPER_BOUND
        if index in later:
            side: Literal["lower", "upper"] = "lower" if is_lower else "upper"
            pool = evaluated if is_lower else [c for c in evaluated if c[1] is not Direction.LOWER_BOUND]
            best = best_certified(pool, side=side)
            skipped = _cannot_beat(statement.id, params, None if best is None else best[0], found)
            if skipped:
                placed.append((index, [{"id": statement.id, "direction": f"{side}_bound", "eps": None, "valid": False,
                                        "reason": f"{skipped} than {best[1]}'s {best[0]!r}" if best else skipped, "interval": None,
                                        "skipped": True}]))
                continue
        result = evaluate(statement, inputs)
        # Certified at this delta only: an epsilon that holds at a larger delta' is no bound here.
        valid = result.holds_at_requested_delta
        evaluated.append((statement.id, statement.direction, valid, result.value, result.interval))
        order.append(index)
        eps = certified_end(statement.direction, side="lower" if is_lower else "upper", valid=valid, value=result.value, interval=result.interval)
        placed.append((index, [{"id": statement.id, "direction": "lower_bound" if is_lower else "upper_bound", "eps": eps, "valid": valid,
                                "reason": result.reason, "interval": None if result.interval is None else list(result.interval)}]))
    rows = [{**row, "skipped": row.get("skipped", False)} for _, group in sorted(placed, key=lambda item: item[0]) for row in group]
    evaluated = [candidate for _, candidate in sorted(zip(order, evaluated, strict=True), key=lambda item: item[0])]
    best_up = best_certified([c for c in evaluated if c[1] is not Direction.LOWER_BOUND], side="upper")
    best_low = best_certified(evaluated, side="lower")
    return Gap(
        randomizer,
        params,
        None if best_up is None else best_up[1],
        None if best_up is None else best_up[0],
        None if best_low is None else best_low[1],
        None if best_low is None else best_low[0],
        rows,
    )


def gap_from_rows(randomizer: str, params: dict, rows: list, *, exact_evaluation: Evaluation | None = None) -> Gap:
    """The gap from already evaluated `BoundRow`s (the `bounds` command's rows at one point): upper bounds give
    their value, lower bounds the lower end of their interval; for k = 2 exact.shuffled_binary_rr is
    evaluated here once (or `exact_evaluation`, the caller's evaluation of it at this point, is used) and
    competes on both sides (module doc)."""
    evaluated: list[Candidate] = [(row.id, resolve(row.id).direction, row.valid, row.eps, row.interval) for row in rows if row.id not in NOT_FULLY_PROVEN]
    # Only upper bounds (and the exact worst case) on the upper side; only lower bounds (and it) on the lower.
    uppers = [c for c in evaluated if c[1] is Direction.UPPER_BOUND]
    lowers = [c for c in evaluated if c[1] is Direction.LOWER_BOUND]
    if params.get("k") == 2 and any(s.id == EXACT_BINARY_RR_ID for s in all_statements()):
        candidate, _ = _exact_k2(params, exact_evaluation)
        uppers.append(candidate)
        lowers.append(candidate)
    best_up = best_certified(uppers, side="upper")
    best_low = best_certified(lowers, side="lower")
    return Gap(
        randomizer, params,
        None if best_up is None else best_up[1], None if best_up is None else best_up[0],
        None if best_low is None else best_low[1], None if best_low is None else best_low[0],
    )
