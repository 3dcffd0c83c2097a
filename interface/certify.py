"""The mechanism-first front door: `certify(randomizer, eps0=, n=, delta=, rounds=)` answers "what central epsilon
do n users of this eps0-LDP randomizer get after T rounds?" with ONE typed result, `Certification`: the best
certified upper bound (the number to report) and the statement behind it, the best certified lower bound (labelled
as a lower bound, and with the randomizer it is about when that is not the one asked for), their ratio, the
neighbouring relation and the reason.

Which statements compete (the registry of randomizers: `interface/mechanisms.py`):

- one round, a named randomizer: every registered amplification statement for it and the generic ones, ranked by
  `interface/tightest.py` (upper bounds by their certified upper end, lower bounds by their certified lower end;
  for binary RR the certified worst case exact.shuffled_binary_rr on both sides). For `generic` the upper bounds
  are the generic statements only (they hold for every eps0-LDP randomizer), and the lower bound is binary RR's
  certified worst case: binary RR is one eps0-LDP randomizer, so no generic bound can be below it (the user's own
  randomizer may do better: the lower bound is about binary RR, and says so). As `shuffle-spec tightest`: the costly
  candidates that one certified delta evaluation shows cannot beat the best end in hand are not evaluated (their
  rows: eps None, valid False, skipped True, the test as the reason); the certified ends are the full computation's;
- one round, a finite matrix: `tightest_randomizer` (BBGN19 Lemma 5.3 evaluated exactly for the matrix, every
  registered bound at the matrix's eps0, the best explicit neighbouring pair below);
- T > 1 rounds: the composition statements (spec/derived/compose.py): compose.clones (FMT21's clone pair
  dominates every eps0-LDP round) and, for k-RR and binary RR, compose.stronger_clones (FMT23's stronger clones,
  the k-RR class) and the mechanism's own composition (compose.krr, compose.binary_rr: up to n = 1e5, see
  MECHANISM_ROUNDS_N_MAX) for the upper side, and for Laplace, a matrix and the structured randomizers their own
  compositions by BBGN19 Lemma 5.3's envelope (compose.laplace, compose.finite, compose.randomizer; a matrix and
  subset selection where their envelope's estimated cost is at most BLANKET_ROUNDS_SECONDS_MAX: tens of seconds beyond) beside compose.clones; compose.exact_binary_rr, the exact epsilon of T rounds of binary RR on
  fixed neighbouring datasets, is a LOWER bound, for binary RR and hence for the generic worst case; a matrix
  is composed as a generic eps0-LDP randomizer at its LDP epsilon (rounded up) and by compose.finite, unless it IS
  k-ary randomized response (exact equality of its entries): then as k-RR (upper rows at its eps0 rounded up, lower
  rows rounded down).

Neighbouring relation: replace-one for every statement used (`interface/results.py`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal, Mapping

import mpmath

from ..proofs_checks.bridge import parse_number, require_supported, supported_point
from .api import audit_randomizer, composed_epsilon, tightest_randomizer
from ..reference.core.errors import HypothesisViolation, ParameterError
from ..reference.core.rounding import mpf_to_float_down, round_down
from .mechanisms import MECHANISMS, STRUCTURED, RandomizerDescription, describe
from .entry_points import entry_point
from .results import Neighbouring, ResultDirection, join_reasons, neighbouring_of, width_note

__all__ = ["CandidateRow", "Certification", "certify"]


@dataclass(frozen=True)
class CandidateRow:
    """One statement's certified end on one side at the point: `eps` None when it certifies nothing there."""

    statement_id: str
    side: Literal["upper", "lower"]
    eps: float | None
    valid: bool
    reason: str
    about: str  # the randomizer the statement is about ("generic": every eps0-LDP randomizer)
    # A costly candidate that one certified delta evaluation showed cannot beat the best end in hand, so it was not
    # evaluated (`interface/tightest.py`, skip_dominated): eps None, valid False, the reason says which test.
    skipped: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"id": self.statement_id, "side": self.side, "eps": self.eps, "valid": self.valid, "reason": self.reason, "about": self.about,
                "skipped": self.skipped}


@dataclass(frozen=True)
class Certification:
    """The answer of `certify` (module doc). `value` is the best certified upper bound on the central epsilon (the
    number to report), `interval` = (best certified lower end or 0, `value`), `direction` "interval" when both
    sides are certified ("upper" when no lower bound is), `statement_id` the upper bound's statement. `lower` is a
    LOWER bound (below the truth): never a number to report as the privacy guarantee; `lower_about` says which
    randomizer it is about when that is not the one asked for. `rows`: every candidate, upper bounds first."""

    randomizer: str
    params: dict[str, Any]
    value: float
    interval: tuple[float, float]
    direction: ResultDirection
    statement_id: str
    reason: str
    neighbouring: Neighbouring
    lower: float | None
    lower_id: str | None
    lower_about: str
    rows: tuple[CandidateRow, ...]

    @property
    def upper(self) -> float:
        return self.value

    @property
    def upper_id(self) -> str:
        return self.statement_id

    @property
    def ratio(self) -> float | None:
        """upper / lower (>= 1 when both are sound), None without a positive lower bound."""
        return None if self.lower is None or not self.lower > 0 else self.value / self.lower

    def to_json(self) -> dict[str, Any]:
        return {
            "randomizer": self.randomizer,
            "params": self.params,
            "value": self.value,
            "interval": list(self.interval),
            "direction": self.direction,
            "statement_id": self.statement_id,
            "upper": {"id": self.statement_id, "eps": self.value},
            "lower": None if self.lower_id is None else {"id": self.lower_id, "eps": self.lower, "about": self.lower_about, "is": "a lower bound"},
            "ratio": self.ratio,
            "neighbouring": self.neighbouring,
            "reason": self.reason,
            "bounds": [row.to_json() for row in self.rows],
        }

    def lines(self) -> list[str]:
        """The text answer: the certified upper bound first (the headline), then the lower bound, labelled."""
        out = [f"certified upper bound: eps <= {self.value:.6g} ({self.statement_id}; {self.neighbouring} neighbours)"]
        if self.lower_id is not None and self.lower is not None:
            about = f", about {self.lower_about}" if self.lower_about else ""
            ratio = "" if self.ratio is None else f"; upper / lower = {_ratio_text(self.ratio)}"
            out.append(f"lower bound (not a guarantee): eps >= {self.lower:.6g} ({self.lower_id}{about}){ratio}")
        else:
            out.append("lower bound: none certified here")
        if self.reason:
            out.append(f"reason: {self.reason}")
        return out


def _ratio_text(ratio: float) -> str:
    """4 decimals, or `1 + 9.0e-07` when 4 decimals would print 1.0000 for a ratio above 1."""
    return f"1 + {ratio - 1:.1e}" if 1 < ratio < 1.00005 else f"{ratio:.4f}"


@entry_point
def certify(
    randomizer: RandomizerDescription = "generic",
    *,
    eps0: float | None = None,
    n: int,
    delta: float,
    rounds: int = 1,
    k: int | None = None,
    d: int | None = None,
) -> Certification:
    """The best certified upper bound and the best certified lower bound on the central epsilon of n users each
    sending one report of `randomizer` per round, shuffled, after `rounds` rounds, at `delta` (module doc).

    `randomizer`: "generic" (any eps0-LDP randomizer; the default), "binary_rr", "krr" (with `k`), "laplace" (on
    [0, 1]), a typed description (`Generic()`, `BinaryRR()`, `KRR(k=10)`, `Laplace()`, `FiniteMatrix(m)`), or a
    finite matrix (numpy array, nested lists, or the JSON object of `audit randomizer`; then no eps0: the matrix's
    own LDP epsilon is used); the structured randomizers "rappor", "oue", "blh", "olh", "hadamard", "subset" (with
    the domain size `d`), "duchi" and "piecewise" (`reference/randomizers/`). Ranges: eps0 > 0 (at most 30 for rounds > 1), n an integer >= 1 (at most 1e9 for
    rounds > 1), 0 < delta < 1 (at least 1e-300), rounds an integer 1 <= rounds <= 1e6, k an integer >= 2, d an integer >= 2 (at most 1e9; eps0 at most 40
    and n at most 1e8 for the structured randomizers' own bounds).
    A missing or stray parameter raises `ParameterNameError`; a value outside its range `ParameterError`; a point
    where no registered statement certifies an upper bound `HypothesisViolation` (never a number it cannot back)."""
    name, extra = describe(randomizer, {key: value for key, value in (("k", k), ("d", d)) if value is not None})
    count = parse_number("rounds", rounds, integer=True)
    if count < 1:
        raise ParameterError("rounds", rounds, "an integer rounds >= 1")
    if name == "matrix":
        if eps0 is not None:
            raise ParameterError("eps0", eps0, "no eps0 with a matrix (its eps0 is the matrix's own LDP epsilon)")
        n = parse_number("n", n, integer=True)
        delta = float(parse_number("delta", delta))
        require_supported("n", n)
        require_supported("delta", delta)
        return _matrix(extra["matrix"], n=n, delta=delta, rounds=count)
    if eps0 is None:
        from .parameter_names import ParameterNameError

        raise ParameterNameError("eps0", None, ("eps0", "n", "delta"), missing=True, owner=f"randomizer {name!r}")
    # numpy, Fraction, Decimal and "1e6"-style numbers, as every entry point; the supported range, before any work: a
    # bad value is named, not "no bound"
    point = supported_point(eps0, n, delta)
    eps0, n, delta = float(point["eps0"]), int(point["n"]), float(point["delta"])
    for parameter, value in extra.items():
        require_supported(parameter, value)
    if count == 1:
        return _one_round(name, extra, eps0=eps0, n=n, delta=delta)
    return _rounds(name, extra, eps0=eps0, n=n, delta=delta, rounds=count)


def _label(name: str, extra: Mapping[str, Any]) -> str:
    return name if not extra or name == "binary_rr" else f"{name}(" + ", ".join(f"{key}={value}" for key, value in extra.items()) + ")"


def _about(statement_id: str, asked: str) -> str:
    """The randomizer a statement is about, in words, when it is not the one asked for ("" when it is)."""
    from ..spec.catalog import resolve

    try:
        mechanism = resolve(statement_id).mechanism or "generic"
    except KeyError:  # not a registered statement (the enumerated exact value of a matrix): about the matrix itself
        return ""
    if mechanism == asked or mechanism == "generic":
        return ""
    if {asked, mechanism} == {"binary_rr", "krr"}:  # binary RR is k-RR with k = 2 (the only k where both are ranked)
        return ""
    title = MECHANISMS[mechanism].title if mechanism in MECHANISMS else mechanism
    if asked == "generic":
        return f"{title}, one eps0-LDP randomizer: the worst case over all of them is at least this; yours may do better"
    return title


def _one_round(name: str, extra: dict[str, Any], *, eps0: float, n: int, delta: float) -> Certification:
    if name in STRUCTURED:
        return _structured(name, extra, eps0=eps0, n=n, delta=delta)
    from .tightest import tightest as ranked

    # As `shuffle-spec tightest` computes: the costly candidates that one certified delta evaluation shows cannot beat
    # the best end in hand are not evaluated (their rows say so, "skipped"); the certified ends are the full
    # computation's, bit for bit (`interface/tightest.py`, module doc).
    gap = ranked(randomizer=name, eps0=eps0, n=n, delta=delta, k=extra.get("k") if name == "krr" else None, skip_dominated=True)
    rows = [
        CandidateRow(row["id"], "upper" if row["direction"] == "upper_bound" else "lower", row["eps"], bool(row["valid"] and row["eps"] is not None),
                     row["reason"] or "", _about(row["id"], name), skipped=bool(row.get("skipped", False)))
        for row in gap.rows
    ]
    return _assemble(_label(name, extra), {"eps0": gap.params["eps0"], "n": gap.params["n"], "delta": gap.params["delta"], "rounds": 1, **extra},
                     rows, gap.upper_id, gap.upper_eps, gap.lower_id, gap.lower_eps, name)


def _structured(name: str, extra: dict[str, Any], *, eps0: float, n: int, delta: float) -> Certification:
    """One round of a structured randomizer: its own certified bounds (`reference/randomizers/`: the closed-form
    blanket bound above, the explicit pattern pair below) beside the generic upper bounds, which hold for it too
    (binary RR's worst case is NOT a lower bound for it: only its own pair is)."""
    from ..reference.randomizers import RANDOMIZERS
    from .tightest import tightest as generic_tightest

    entry = RANDOMIZERS[name]
    # The generic upper rows only: the generic lower row (binary RR's worst case) is no lower bound for this mechanism.
    generic = generic_tightest(randomizer="generic", eps0=eps0, n=n, delta=delta, include_lower=False)
    rows = [CandidateRow(row["id"], "upper", row["eps"], bool(row["valid"] and row["eps"] is not None), row["reason"] or "", "")
            for row in generic.rows if row["direction"] == "upper_bound"]
    sides: tuple[tuple[Literal["upper", "lower"], Any, str], ...] = (("upper", entry.upper, entry.statements[0]), ("lower", entry.lower, entry.statements[1]))
    for side, function, statement_id in sides:
        try:
            bound = function(eps0=eps0, n=n, delta=delta, **extra)
        except (HypothesisViolation, ParameterError) as failure:  # outside this bound's range: it certifies nothing here
            rows.append(CandidateRow(statement_id, side, None, False, str(failure), ""))
            continue
        end = float(bound.upper if side == "upper" else bound.lower)
        rows.append(CandidateRow(statement_id, side, end, math.isfinite(end) and (side == "upper" or end > 0), bound.note, ""))
    result = _pick(_label(name, extra), {"eps0": eps0, "n": n, "delta": delta, "rounds": 1, **extra}, rows, name)
    own = next(row for row in rows if row.statement_id == entry.statements[0] and row.side == "upper")
    if not own.valid:
        # Outside the mechanism's own bound's range (e.g. d above it): the generic bound answers, soundly (it holds for
        # every eps0-LDP randomizer) but looser; the reason says so, not only the refusal row.
        fallback = (f"the {name} bound {own.statement_id} does not apply here ({own.reason}); the upper end is a generic bound, "
                    f"valid for every eps0-LDP randomizer and so for {name}, usually looser")
        result = replace(result, reason=join_reasons(fallback, result.reason))
    return result


# The mechanism-specific compositions (compose.binary_rr, compose.krr: a certified envelope of one round's privacy
# profile, built once per (eps0, n, k)) cost seconds at n = 1e4 and tens of seconds at n = 1e5, minutes beyond: the
# front door tries them up to this n and says so above it (the generic pairs still certify; call
# `composed_epsilon("compose.krr", ...)` directly for the tighter number at larger n).
MECHANISM_ROUNDS_N_MAX = 10**5
MECHANISM_ROUNDS = ("compose.binary_rr", "compose.krr")
# The envelopes of a matrix, subset selection and the piecewise mechanism cost one certified Lemma 5.3 evaluation per
# node and ordered pair: 0.05-0.6 s each on the lattice path (at most 3 groups) and the per-size FFT (subset
# selection), 12-30 s of CPU per envelope at n >= 1e3; 5-90 ms on a matrix's batched FFT (more than 3 groups), 1.6-7.5
# s per envelope at n = 1e3..1e6. The front door tries them where the cost model of
# `reference.composition.blanket_rounds.envelope_seconds` (blanket sizes, pairs and FFT lengths, no evaluation; an
# upper end of the CPU seconds measured) is at most this, and names the direct call elsewhere (a 3 x 3 matrix up to
# n ~ 420; the 10 x 10 matrix of benchmarks/matrix_rounds.py at every n in [1e2, 1e8] except about 2e5..3e5 where
# its FFT length doubles; subset selection on d = 100 ~ 370, piecewise ~ 520).
# compose.laplace's envelope and those of the randomizers whose Lemma 5.3 sum is exact in product form
# (BLANKET_ROUNDS_FAST, `reference.bounds.blanket_exact_randomizer.product_form`; Duchi's is binary RR's) take about a
# second over their whole range (0.3-1.3 s of CPU at eps0 in [0.05, 8], n in [1e3, 1e8], T = 100-1000) and are
# always tried.
BLANKET_ROUNDS_SECONDS_MAX = 10.0
BLANKET_ROUNDS_FAST = ("rappor", "oue", "blh", "olh", "hadamard", "duchi")
# The compositions by BBGN19 Lemma 5.3's envelope (`reference/composition/blanket_rounds.py`): outside their own
# ranges (Laplace n <= 1e6, eps0 <= 8, ...) their row certifies nothing and the generic pair still does.
BLANKET_ROUNDS = ("compose.laplace", "compose.finite", "compose.randomizer")


def _envelope_cost(mechanism: str, *, eps0: float | None, n: int, d: int | None = None, matrix: object = None) -> float:
    """`envelope_seconds` of one round, 0 where it refuses the inputs (the composition's own row then says why)."""
    from ..reference.composition.blanket_rounds import BlanketRound, envelope_seconds  # lazy: only for T > 1

    if isinstance(matrix, Mapping):  # a matrix file's object, read as `composed_epsilon` reads it
        matrix = matrix.get("matrix")
    try:
        return envelope_seconds(BlanketRound(mechanism, eps0, n, 1, d=d, matrix=matrix))
    except ParameterError:
        return 0.0


def _not_tried(statement_id: str, cost: float, side: Literal["upper", "lower"] = "upper") -> CandidateRow:
    return CandidateRow(statement_id, side, None, False, f"not tried by the front door: its profile envelope would take about {cost:.0f} s of CPU here (more than {BLANKET_ROUNDS_SECONDS_MAX:g} s, "
                        f"estimated from its blanket sizes and pairs): call composed_epsilon({statement_id!r}, ...) for it", "")


def _rounds(name: str, extra: dict[str, Any], *, eps0: float, n: int, delta: float, rounds: int, eps0_lower: float | None = None) -> Certification:
    """T > 1 rounds of a named randomizer (module doc); `eps0_lower`: the eps0 of the lower rows when it must
    differ from the upper rows' (a matrix's LDP epsilon rounded down; default eps0)."""
    entry = MECHANISMS[name]
    uppers = entry.compose_upper
    lowers = entry.compose_lower + (("compose.exact_binary_rr",) if name == "krr" and extra.get("k") == 2 else ())
    sides: tuple[tuple[Literal["upper", "lower"], tuple[str, ...]], ...] = (("upper", uppers), ("lower", lowers))
    # A mechanism composition's lower end is a lower bound at the eps0 it was run with: only when the lower rows
    # use the same eps0 (not a matrix's, whose upper rows run at its LDP epsilon rounded up).
    lower_ends: list[CandidateRow] | None = [] if eps0_lower is None else None
    rows = [
        CandidateRow(statement_id, side, None, False, f"not tried by the front door at n > {MECHANISM_ROUNDS_N_MAX:.0e} (its profile envelope costs minutes there): call composed_epsilon({statement_id!r}, ...) for it", "")
        if statement_id in MECHANISM_ROUNDS and n > MECHANISM_ROUNDS_N_MAX
        else _not_tried(statement_id, cost, side)
        if statement_id == "compose.randomizer" and name not in BLANKET_ROUNDS_FAST and (cost := _envelope_cost(name, eps0=eps0, n=n, d=extra.get("d"))) > BLANKET_ROUNDS_SECONDS_MAX
        else _composed_row(statement_id, side, name, eps0=eps0 if side == "upper" or eps0_lower is None else eps0_lower, n=n, delta=delta, rounds=rounds, k=extra.get("k") if statement_id == "compose.krr" else None,
                           own={"randomizer": name, "d": extra.get("d")} if statement_id == "compose.randomizer" else None,
                           lower_ends=lower_ends if side == "upper" else None)
        for side, ids in sides for statement_id in ids
    ]
    rows += lower_ends or []
    return _pick(_label(name, extra), {"eps0": eps0, "n": n, "delta": delta, "rounds": rounds, **extra}, rows, name)


def _composed_row(statement_id: str, side: Literal["upper", "lower"], asked: str, *, eps0: float | None, n: int, delta: float, rounds: int, k: int | None = None,
                  own: Mapping[str, Any] | None = None, lower_ends: list[CandidateRow] | None = None) -> CandidateRow:
    """The row of one composition statement; with `lower_ends`, a mechanism composition's certified lower end
    (compose.krr, compose.binary_rr, compose.laplace, compose.finite, compose.randomizer: composed explicit
    neighbouring dataset pairs, a lower bound on the mechanism's worst case at this eps0) is appended there as a
    lower row."""
    about = _about(statement_id, asked) if side == "lower" else ""
    try:
        result = composed_epsilon(statement_id, rounds=rounds, eps0=eps0, n=n, delta=delta, k=k, **(own or {}))
    except ParameterError as failure:
        # The generic composition's range is the front door's for T > 1; the blanket envelopes' narrower ranges
        # only take their own row out.
        if failure.name in ("eps0", "n", "delta", "rounds") and statement_id not in BLANKET_ROUNDS:
            raise
        return CandidateRow(statement_id, side, None, False, str(failure), about)
    except HypothesisViolation as failure:  # this statement certifies nothing at the point
        return CandidateRow(statement_id, side, None, False, str(failure), about)
    # The certified end on this side: an upper pair's upper end; compose.exact_binary_rr's lower end (its value).
    if result.direction != side:
        return CandidateRow(statement_id, side, None, False, f"{statement_id} is a{'n upper' if result.direction == 'upper' else ' lower'} bound, not a {side} bound", about)
    if lower_ends is not None and (statement_id in MECHANISM_ROUNDS or statement_id in BLANKET_ROUNDS) and result.interval[0] > 0:
        lower_ends.append(CandidateRow(statement_id, "lower", float(result.interval[0]), True,
                                       f"the lower end of {statement_id}'s certified interval: composed explicit neighbouring dataset pairs", ""))
    return CandidateRow(statement_id, side, float(result.value), True, result.reason, about)


def _pick(label: str, params: dict[str, Any], rows: list[CandidateRow], asked: str) -> Certification:
    valid_up = [row for row in rows if row.side == "upper" and row.valid and row.eps is not None and math.isfinite(row.eps)]
    valid_low = [row for row in rows if row.side == "lower" and row.valid and row.eps is not None and math.isfinite(row.eps)]
    up = min(valid_up, key=lambda row: row.eps or 0.0) if valid_up else None
    low = max(valid_low, key=lambda row: row.eps or 0.0) if valid_low else None
    return _assemble(label, params, rows, None if up is None else up.statement_id, None if up is None else up.eps,
                     None if low is None else low.statement_id, None if low is None else low.eps, asked)


def _assemble(label: str, params: dict[str, Any], rows: list[CandidateRow], upper_id: str | None, upper: float | None,
              lower_id: str | None, lower: float | None, asked: str) -> Certification:
    if upper_id is None or upper is None:
        refusals = "; ".join(f"{row.statement_id}: {row.reason}" for row in rows if row.side == "upper")[:600]
        raise HypothesisViolation(f"certify({label})", f"some registered statement certifies an upper bound here (none does: {refusals or 'no candidate'})", params)
    if lower is not None and lower > upper:  # two certified statements contradict each other: a defect, never an answer
        raise HypothesisViolation(f"certify({label})", f"the certified lower bound {lower!r} ({lower_id}) is at most the certified upper bound {upper!r} ({upper_id})", params)
    upper_rows = sorted((row for row in rows if row.side == "upper"), key=lambda row: (row.eps is None, row.eps or 0.0))
    lower_rows = sorted((row for row in rows if row.side == "lower"), key=lambda row: (row.eps is None, -(row.eps or 0.0)))
    lower_about = "" if lower_id is None else next((row.about for row in lower_rows if row.statement_id == lower_id), "")
    chosen = next((row for row in upper_rows if row.statement_id == upper_id), None)
    interval = (0.0 if lower is None else lower, upper)
    reason = join_reasons(
        f"upper end by {upper_id}" + (f" (its own note: {chosen.reason})" if chosen is not None and chosen.reason else ""),
        f"lower end by {lower_id}" + (f", a lower bound about {lower_about}" if lower_about else "") if lower_id else "no certified lower bound (lower end 0)",
        width_note(*interval, what="interval between the certified upper and lower bounds") if lower_id is not None else "",
    )
    return Certification(label, params, float(upper), interval, "interval" if lower_id is not None else "upper", upper_id, reason,
                         neighbouring_of(upper_id), lower, lower_id, lower_about, tuple(upper_rows + lower_rows))


def _matrix_as_krr(k: int, ratio: str, eps0_up: float, *, n: int, delta: float, rounds: int) -> Certification:
    """A matrix that IS k-ary randomized response (every diagonal entry equal and every other entry equal, as exact
    rationals: `detect_mechanism` of the audit) composed over rounds as k-RR (compose.krr beside the generic
    pairs; k = 2: as binary RR, compose.binary_rr): the upper rows at its LDP epsilon log(ratio) rounded up, the
    lower rows at it rounded down (a lower bound must not use a larger eps0 than the matrix's)."""
    with mpmath.workdps(60):
        exact = Fraction(ratio)
        eps0_down = round_down(mpf_to_float_down(mpmath.log(mpmath.mpf(exact.numerator) / exact.denominator)), 2)
    name, extra = ("binary_rr", {}) if k == 2 else ("krr", {"k": k})
    result = _rounds(name, extra, eps0=eps0_up, n=n, delta=delta, rounds=rounds, eps0_lower=eps0_down)
    what = "binary randomized response: composed as binary RR" if k == 2 else f"{k}-ary randomized response: composed as k-RR"
    note = f"the matrix is exactly {what} (eps0 = log({ratio}), {eps0_up!r} rounded up for the upper rows, {eps0_down!r} down for the lower rows)"
    return replace(result, randomizer="matrix", params={**result.params, "k": k}, reason=join_reasons(note, result.reason))


def _matrix(matrix: object, *, n: int, delta: float, rounds: int) -> Certification:
    if rounds == 1:
        gap = tightest_randomizer(matrix, n=n, delta=delta)  # type: ignore[arg-type]
        rows = [CandidateRow(row["id"], "upper" if row.get("direction") == "upper_bound" else "lower", row.get("eps"),
                             bool(row.get("valid")) and row.get("eps") is not None, row.get("reason", ""), "") for row in gap.rows if "id" in row]
        # The winners among the registered statements the audit evaluated at the matrix's eps0 (not in gap.rows).
        if gap.upper_id is not None and not any((row.statement_id, row.side) == (gap.upper_id, "upper") for row in rows):
            rows.append(CandidateRow(gap.upper_id, "upper", gap.upper_eps, True, f"a registered bound at the matrix's eps0 = {gap.eps0!r}", ""))
        if gap.lower_id is not None and not any((row.statement_id, row.side) == (gap.lower_id, "lower") for row in rows):
            rows.append(CandidateRow(gap.lower_id, "lower", gap.lower_eps, True, f"at the matrix's eps0 = {gap.eps0!r}", ""))
        return _assemble("matrix", {"eps0": gap.eps0, "n": gap.n, "delta": gap.delta, "rounds": 1}, rows, gap.upper_id, gap.upper_eps,
                         gap.lower_id, gap.lower_eps, "matrix")
    audit = audit_randomizer(matrix)  # type: ignore[arg-type]
    eps0 = audit.ldp_epsilon  # rounded up (reference.finite.divergences.safe_log): the safe side for an upper bound
    if not (eps0 > 0 and math.isfinite(eps0)):
        raise ParameterError("randomizer", "matrix", f"a matrix with a finite LDP epsilon > 0 (its LDP epsilon is {eps0!r})")
    if audit.mechanism in ("krr", "binary_rr") and audit.k is not None:
        return _matrix_as_krr(audit.k, audit.ldp_ratio, eps0, n=n, delta=delta, rounds=rounds)
    rows = [_composed_row("compose.clones", "upper", "generic", eps0=eps0, n=n, delta=delta, rounds=rounds)]
    lower_ends: list[CandidateRow] = []
    cost = _envelope_cost("matrix", eps0=None, n=n, matrix=matrix)
    rows.append(_not_tried("compose.finite", cost) if cost > BLANKET_ROUNDS_SECONDS_MAX else
                _composed_row("compose.finite", "upper", "matrix", eps0=None, n=n, delta=delta, rounds=rounds, own={"matrix": matrix}, lower_ends=lower_ends))
    rows += lower_ends  # compose.finite's lower end: the matrix's own explicit pairs, exact rationals
    return _pick("matrix", {"eps0": eps0, "n": n, "delta": delta, "rounds": rounds}, rows, "matrix")
