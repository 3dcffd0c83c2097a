"""Many rounds: the composition of shuffled rounds by privacy-loss distributions (`compose.clones`,
`compose.stronger_clones`, `compose.exact_binary_rr`, and the mechanism-specific `compose.binary_rr`,
`compose.krr`).

Neighbouring relation: replace one user's input, n fixed (as in every single-round statement). For a pair
(P, Q) on a finite set the privacy-loss variable is L = log(P(Y)/Q(Y)), Y ~ P, and

    D_{e^eps}(P || Q) = E[max(0, 1 - e^{eps - L})]   (the hockey-stick divergence, with L = +inf where Q = 0).

The T-fold product pair (P^T, Q^T) has the loss S = L_1 + ... + L_T of independent copies, so
delta_T(eps) = E[max(0, 1 - e^{eps - S})]. A pair dominates a round when every neighbouring pair of datasets
is a post-processing of it (or has a smaller privacy profile at every eps); dominating pairs compose
(Zhu, Dong, Wang 2022, Thm 10), adaptively chosen randomizers included when the pair does not depend on them.

- `compose.clones`: the FMT21 clone pair (shuffle_spec.spec.papers.fmt21.clones.pair_pmfs with clone counts Bin(n-1, e^-eps0)),
  a dominating pair of every shuffled eps0-LDP round (FMT21's reduction is one post-processing); symmetric
  (swapping coordinates maps P to Q), so one direction of the loss suffices. Upper bound.
- `compose.stronger_clones`: the FMT23 pair, clone counts Bin(n-1, 2/(e^eps0+1)), for k-RR (errata class). Upper bound.
- `compose.exact_binary_rr`: the exact pair (P_m, Q_m) of shuffled binary RR for fixed datasets (m ones
  among the other n-1 users), both directions, composed T times: the exact eps of T rounds on those
  datasets, so a LOWER bound on the worst case of the composed mechanism.
- `compose.binary_rr`, `compose.krr`: the mechanism's own worst-case privacy profile delta*(eps) (max over every
  ordered neighbouring pair of one round), bounded from above at grid nodes, turned into a dominating pair by
  "connect the dots" (Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022): the lower convex hull H of the points
  (0, 1), (e^{eps_i}, h_i) and their mirror images 1 - alpha + alpha h(-eps) is the hockey-stick curve of an
  explicit pair (`ctd_pair_masses`: Q'(v) = the slope increase at breakpoint v, P'(v) = alpha_v Q'(v)).
  Composed T times (adaptive composition: Zhu, Dong, Wang 2022 Thm 10). Upper bounds.
- `compose.laplace`, `compose.finite`, `compose.randomizer`: the same construction with BBGN19 Lemma 5.3's exact
  blanket bound as the envelope (the Laplace mechanism on [0, 1], any finite randomizer matrix, the structured
  randomizers); Lemma 5.3 bounds the hockey-stick divergence of EVERY neighbouring pair, so the certified upper
  end of its value at a node bounds delta* there. Upper bounds; heterogeneous schedules mix them. Their
  interval's lower end: the single-round lower bounds' explicit pairs, binned, composed as one fixed pair of
  neighbouring T-round datasets (a lower bound on the same worst case).
"""

from __future__ import annotations

import sympy as sp

from .exact.binary_rr import pair_pmfs as binary_rr_pair_pmfs
from ..papers.fmt21.clones import a, c, pair_pmfs as clone_pair_pmfs
from ..statement import Direction, Kind, Source, Statement
from ..symbols import delta, eps, eps0, k, m, n

__all__ = [
    "STATEMENTS",
    "clone_loss",
    "clone_loss_closed_form",
    "ctd_curve",
    "ctd_pair_masses",
    "composed_delta",
    "hockey_stick_from_loss",
    "rounds",
]

rounds = sp.Symbol("rounds", integer=True, positive=True)  # number of composed rounds T
s_loss = sp.Symbol("s", real=True)  # a value of the (composed) privacy loss


def hockey_stick_from_loss(loss: sp.Expr, epsilon: sp.Expr = eps) -> sp.Expr:
    """The integrand of delta(eps) = E_P[max(0, 1 - e^{eps - L})] at loss value `loss`: non-decreasing in
    the loss (the fact behind the pessimistic discretisation, checked in shuffle_spec.proofs_checks.derived.compose)."""
    return sp.Max(0, 1 - sp.exp(epsilon - loss))


def clone_loss(count: sp.Expr = c, at: sp.Expr = a) -> sp.Expr:
    """log(P_c(a) / Q_c(a)) of the clone pair (the loss of one round, given c clones)."""
    p_c, q_c = clone_pair_pmfs(count, at)
    return sp.log(p_c / q_c)


def clone_loss_closed_form(count: sp.Expr = c, at: sp.Expr = a) -> sp.Expr:
    """The same loss without binomials: b_c(a-1)/b_c(a) = a/(c-a+1) gives
    log((e^eps0 (c+1-a) + a) / ((c+1-a) + e^eps0 a)) (what the reference evaluates, mirrored a -> c+1-a)."""
    e0 = sp.exp(eps0)
    return sp.log((e0 * (count + 1 - at) + at) / ((count + 1 - at) + e0 * at))


def ctd_pair_masses(alphas: list[sp.Expr], values: list[sp.Expr]) -> tuple[list[sp.Expr], list[sp.Expr], sp.Expr]:
    """The connect-the-dots pair of a convex piecewise-linear curve H with H(0) = 1, breakpoints alphas
    (ascending, > 0) and H(alphas[i]) = values[i], flat after the last: (P' masses at log alpha_v, Q' masses
    there, P'(+inf)). Q'(v) = slope right of v - slope left of v, P'(v) = alpha_v Q'(v), P'(+inf) = H(last)."""
    xs = [sp.Integer(0)] + list(alphas)
    ys = [sp.Integer(1)] + list(values)
    slopes = [(ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i]) for i in range(len(alphas))] + [sp.Integer(0)]
    q = [slopes[i + 1] - slopes[i] for i in range(len(alphas))]
    p = [alphas[i] * q[i] for i in range(len(alphas))]
    return p, q, ys[-1]


def ctd_curve(alpha: sp.Expr, alphas: list[sp.Expr], values: list[sp.Expr]) -> sp.Expr:
    """H_alpha(P' || Q') of the connect-the-dots pair: P'(+inf) + sum_v Q'(v) max(0, alpha_v - alpha)."""
    p, q, top = ctd_pair_masses(alphas, values)
    return top + sum(qv * sp.Max(0, av - alpha) for qv, av in zip(q, alphas, strict=True))


# delta_T(eps) of the product pair: E over T independent copies of the loss. SymPy has no T-fold sum of
# symbolic length, so the T-fold expectation is stated through the composed-loss distribution's
# defining property (an undefined function of its arguments, fixed by the notes and checked numerically).
composed_delta = sp.Function("delta_T")(eps, rounds, eps0, n)


def _statement(name: str, title: str, source: Source, direction: Direction, mechanism: str, notes: str, reference: str,
               with_k: bool = False) -> Statement:
    extra = {"k": 3} if with_k else {}
    mechanism_specific = name in ("binary_rr", "krr")
    return Statement(
        id=f"compose.{name}",
        kind=Kind.PROCEDURE,
        title=title,
        source=source,
        symbols=(eps0, n, delta, rounds, eps, m) + ((k,) if with_k else ()),
        hypotheses=(sp.Lt(delta, 1),) + ((sp.Ge(k, 2),) if with_k else ()),
        conclusion=(sp.Le(composed_delta, delta),),
        direction=direction,
        reference=reference,
        inputs=(eps0, n, delta, rounds) + ((k,) if with_k else ()),
        output=eps,
        value=None,
        mechanism=mechanism,
        tags=frozenset({"composition"}),
        examples=tuple(dict(e, **extra) for e in (
            # The mechanism-specific pairs build a profile envelope per (eps0, n): a small first example keeps
            # the checks that vary it (degenerate inputs) cheap.
            *(({"eps0": 1.0, "n": 20, "delta": 1e-6, "rounds": 3},) if mechanism_specific else ()),
            {"eps0": 1.0, "n": 200, "delta": 1e-6, "rounds": 5},
            {"eps0": 4.0, "n": 1000, "delta": 1e-6, "rounds": 20},
            # Small enough for the exact enumeration of shuffle_spec.reference.bounds.clones_high_precision (20-digit vectors).
            *(() if mechanism_specific else ({"eps0": 1.0, "n": 20, "delta": 1e-6, "rounds": 3},)),
            {"eps0": 0.5, "n": 12, "delta": 1e-3, "rounds": 4},
        )),
        # The PLD reference is certified but only to its grid: its interval is ~1e-4 .. 1e-2 wide
        # (shuffle_spec.reference.composition.shuffled_rounds GRID_FRACTION), so an implementation may be that far on its safe side.
        rtol=1e-2,
        invalid_examples=tuple(dict(e, **extra) for e in (
            {"eps0": 1.0, "n": 100, "delta": 1.0, "rounds": 10},
            {"eps0": -1.0, "n": 100, "delta": 1e-6, "rounds": 10},
            {"eps0": 1.0, "n": 0, "delta": 1e-6, "rounds": 10},
            {"eps0": 1.0, "n": 100, "delta": 1e-6, "rounds": 0},
        )) + (({"eps0": 1.0, "n": 100, "delta": 1e-6, "rounds": 10, "k": 1},) if with_k else ()),
        notes=notes,
    )


_COMMON = (
    "eps(delta) = min{eps >= 0 : delta_T(eps) <= delta}, delta_T(eps) = E[max(0, 1 - e^{eps - (L_1 + ... + L_T)})] "
    "with L_i independent copies of the one-round privacy loss of the pair (neighbouring relation: replace one "
    "user, n fixed). The reference (shuffle_spec.reference.composition.shuffled_rounds) returns a certified interval: the upper end from a "
    "pessimistic discretisation (losses rounded up to a power-of-2 grid, proven upper bounds on every "
    "probability, truncated binomial tails on the infinite-loss atom, FFT round-off and aliasing bounded), "
    "the lower end from the optimistic one. Never above rounds * eps0 (basic composition of the eps0-DP rounds), "
    "returned with a note when nothing smaller is certified. Heterogeneous rounds (different eps0, n, pair): "
    "`shuffle-spec compose --rounds-file` / shuffle_spec.reference.composition.shuffled_rounds.composed_epsilon."
)

COMPOSE_CLONES = _statement(
    "clones",
    "eps after T rounds of a shuffled eps0-LDP protocol: the FMT21 clone pair composed T times (PLD, certified)",
    Source("FMT21", "clone reduction (Thm 3.2 / App. E) + dominating-pair composition (Zhu-Dong-Wang 2022 Thm 10)", "derived", "high"),
    Direction.UPPER_BOUND,
    "generic",
    _COMMON + " Pair: shuffle_spec.spec.papers.fmt21.clones.pair_pmfs with clone counts Bin(n-1, e^-eps0), one loss "
    "log(P_c(a)/Q_c(a)) = clone_loss_closed_form; the clone counts are grouped in blocks of relative width "
    "2e-3 represented by their smallest count (a dominating pair: P_{c+1}, Q_{c+1} is a post-processing of "
    "P_c, Q_c). Valid for every eps0-LDP randomizer, also chosen adaptively per round.",
    "shuffle_spec.reference.composition.shuffled_rounds:compose_clones",
)

COMPOSE_STRONGER_CLONES = _statement(
    "stronger_clones",
    "eps after T rounds of shuffled k-RR: the FMT23 stronger-clone pair composed T times (PLD, certified)",
    Source("FMT23", "stronger clones (Lemma 3.5 with the errata) + dominating-pair composition", "derived", "medium"),
    Direction.UPPER_BOUND,
    "krr",
    _COMMON + " Pair: the clone pair with clone counts Bin(n-1, 2/(e^eps0+1)); valid for randomizers of the "
    "FMT23 errata class (k-RR), as FMT23.stronger_clones.",
    "shuffle_spec.reference.composition.shuffled_rounds:compose_stronger_clones",
)

COMPOSE_EXACT_BINARY_RR = _statement(
    "exact_binary_rr",
    "Lower bound: eps after T rounds of shuffled binary RR on fixed neighbouring datasets (one pair's exact eps, composed T times)",
    Source(
        "BBGN19",
        "the neighbouring pair of exact.shuffled_binary_rr.pair, T-fold product; derived here, proof in proofs_checks/derived/compose.py",
        "derived",
        "high",
    ),
    Direction.LOWER_BOUND,
    "binary_rr",
    _COMMON + " Pair: shuffle_spec.spec.derived.exact.binary_rr.pair_pmfs(m) in both directions, for m in 0..(n-1)/2 when n <= 40, "
    "else m in {0, 1, 2}; the value is the max over them: the exact eps of T rounds on those fixed datasets, "
    "hence a LOWER bound on the composed mechanism's worst case (the worst single-round m need not be the worst "
    "after composition; no dominating claim). Every composed upper bound must lie above it.",
    "shuffle_spec.reference.composition.shuffled_rounds:compose_exact_binary_rr",
)

_MECHANISM = (
    " Mechanism-specific pair (shuffle_spec.reference.composition.mechanism_rounds, module doc U1-U4): certified upper "
    "bounds h_i of the worst-case profile delta*(eps_i) = max over ordered neighbouring pairs of one round at grid "
    "nodes eps_i = i h (h a power of 2, ~64 nodes up to where delta* < 1e-17 or eps0); the lower convex hull H of "
    "(0, 1), (e^eps_i, h_i) and the mirror points (e^-eps_i, 1 - e^-eps_i + e^-eps_i h_i) (replace-one is symmetric) "
    "is >= delta* everywhere (delta* is convex and non-increasing in alpha = e^eps) and is the hockey-stick curve of "
    "the explicit pair ctd_pair_masses (Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022, connect the dots), certified "
    "in interval arithmetic (shuffle_spec.reference.composition.connect_the_dots); that pair dominates the round at "
    "every alpha, so its T-fold product dominates T adaptively chosen rounds (Zhu, Dong, Wang 2022 Thm 10; Dong, Roth, "
    "Su 2019). Heterogeneous rounds: shuffle_spec.reference.composition.mechanism_rounds.composed_epsilon. The "
    "interval's lower end is a certified LOWER bound on the same worst case (composed explicit binary-RR dataset "
    "pairs, both directions; 0 when none is evaluated), so the interval contains the truth; the value is the upper end."
)

COMPOSE_BINARY_RR = _statement(
    "binary_rr",
    "eps after T rounds of shuffled binary RR: the certified worst-case profile of the mechanism, connect-the-dots pair composed T times",
    Source(
        "BBGN19",
        "exact.shuffled_binary_rr's per-pair profile with thinned removal (envelope) + connect the dots (DGKKM22) + "
        "dominating-pair composition (Zhu-Dong-Wang 2022 Thm 10), and for one group of T >= 2 rounds the directional "
        "programme over the pair and its reverse (Blackwell dominance, chain rule of the hockey-stick divergence); "
        "derived here, proof checks in proofs_checks/derived/compose_mechanism.py and compose_directional.py",
        "derived",
        "high",
    ),
    Direction.UPPER_BOUND,
    "binary_rr",
    _COMMON + _MECHANISM + " Envelope: max over k of d_k(eps) = D_{e^eps}(P_k || Q_k) (k ones among the other n-1 users; "
    "D(Q_k||P_k) = d_{n-1-k}), k = n-1 and k = 0 evaluated alone, the other counts covered by blocks whose thinned "
    "removal bound (exact.shuffled_binary_rr) holds at every eps at once. One group of T >= 2 rounds: also the halves "
    "k >= n/2 and k < n/2 give a pair A and its reverse (bit flip), and T rounds each dominated by A or its reverse, "
    "chosen adaptively, are composed by a certified dynamic programme "
    "(shuffle_spec.reference.composition.directional_rounds, steps D1-D4); the value is the smaller of the two. "
    "Range 1e-3 <= eps0 <= 30, n <= 1e7.",
    "shuffle_spec.reference.composition.mechanism_rounds:compose_binary_rr",
)

COMPOSE_KRR = _statement(
    "krr",
    "eps after T rounds of shuffled k-RR: BBGN19 Lemma 5.3's exact bound as the profile envelope, connect-the-dots pair composed T times",
    Source(
        "BBGN19",
        "Lemma 5.3 evaluated exactly (BBGN19.Lem5.3.exact_krr) at grid nodes + connect the dots (DGKKM22) + "
        "dominating-pair composition (Zhu-Dong-Wang 2022 Thm 10); derived here, proof checks in proofs_checks/derived/compose_mechanism.py",
        "derived",
        "high",
    ),
    Direction.UPPER_BOUND,
    "krr",
    _COMMON + _MECHANISM + " Envelope: the certified upper end of BBGN19.Lem5.3.exact_krr's delta(eps) at each node (Lemma "
    "5.3 bounds D_{e^eps} of every neighbouring pair of n shuffled k-RR reports). The interval's lower end: the explicit "
    "k-RR pairs (others at x0, or at a third value) composed by the optimistic engine (shuffle_spec.reference.composition."
    "explicit_pairs), a lower bound on the worst case. Range 1e-3 <= eps0 <= 30, n <= 1e8, 2 <= k <= 1e6.",
    "shuffle_spec.reference.composition.mechanism_rounds:compose_krr",
    with_k=True,
)

_BLANKET = (
    " Blanket envelope (shuffle_spec.reference.composition.blanket_rounds, module doc B1-B4): h_i = the certified upper "
    "end of BBGN19 Lemma 5.3's exact delta(eps_i) for the mechanism, at nodes eps_i = i h (h a power of 2, 16 to 64 "
    "nodes up to where the bound falls below a floor far under delta / T); Lemma 5.3 bounds H_{e^eps}(M(D) || M(D')) "
    "for every ordered pair of neighbouring datasets (replace one user's input; its maximum over the ordered pairs of "
    "inputs is taken), so h_i >= delta*(eps_i), the worst-case profile of one round. Then the connect-the-dots pair "
    "(ctd_pair_masses; C1-C5 of shuffle_spec.reference.composition.connect_the_dots), closed by delta*(e0) = 0 at a "
    "float e0 >= the round's LDP level, composed T times by the certified FFT (adaptive composition: Zhu, Dong, Wang "
    "2022 Thm 10); heterogeneous schedules (mechanism, eps0, n per round, binary RR and k-RR rounds included) compose "
    "the rounds' pairs. The value is the smaller of this certified upper end and compose.clones' (both upper bounds; "
    "the note says when the generic pair is smaller). The interval's lower end is a certified LOWER bound on the same "
    "worst case: explicit neighbouring dataset pairs of one round (user 1 at x vs x', the other n-1 users at z), each "
    "report merged into 2 or 3 bins (a post-processing), composed over the rounds as one fixed pair of neighbouring "
    "T-round datasets by the optimistic path of the certified engine (shuffle_spec.reference.composition.blanket_lower, "
    ".count_pairs, .explicit_pairs); so the interval contains the truth."
)


def _blanket_statement(name: str, title: str, locator: str, mechanism: str, notes: str, reference: str) -> Statement:
    # No examples: each evaluation builds a certified envelope (seconds to a minute); the tests evaluate them.
    return Statement(
        id=f"compose.{name}",
        kind=Kind.PROCEDURE,
        title=title,
        source=Source("BBGN19", locator + " + connect the dots (DGKKM22) + dominating-pair composition (Zhu-Dong-Wang 2022 Thm 10); "
                      "derived here, proof checks in proofs_checks/derived/compose_blanket.py", "derived", "high"),
        symbols=(eps0, n, delta, rounds, eps),
        hypotheses=(sp.Lt(delta, 1),),
        conclusion=(sp.Le(composed_delta, delta),),
        direction=Direction.UPPER_BOUND,
        reference=reference,
        mechanism=mechanism,
        tags=frozenset({"composition"}),
        notes=_COMMON + _BLANKET + notes,
    )


COMPOSE_LAPLACE = _blanket_statement(
    "laplace",
    "eps after T rounds of the shuffled Laplace mechanism on [0, 1]: BBGN19 Lemma 5.3's exact bound as the profile envelope, connect-the-dots pair composed T times",
    "Lemma 5.3 evaluated exactly for Laplace (BBGN19.Lem5.3.exact_laplace) at grid nodes",
    "laplace",
    " Envelope: BBGN19.Lem5.3.exact_laplace (the pair of inputs (0, 1) is the worst for every eps). Lower end: the pair "
    "of exact.laplace_pair_x0 (user 1 at 0 vs 1, the others at 0) with the reports binned at fixed thresholds "
    "(shuffle_spec.reference.composition.laplace_pairs). Range 1e-3 <= eps0 <= 8, n <= 1e6.",
    "shuffle_spec.reference.composition.blanket_rounds:compose_laplace",
)

COMPOSE_FINITE = _blanket_statement(
    "finite",
    "eps after T rounds of a shuffled finite randomizer (a matrix): BBGN19 Lemma 5.3's exact bound as the profile envelope, connect-the-dots pair composed T times",
    "Lemma 5.3 evaluated exactly for a matrix, best blanket decomposition (BBGN19.Lem5.3.exact_randomizer), at grid nodes",
    "",
    " Envelope: BBGN19.Lem5.3.exact_randomizer, the maximum over every ordered pair of rows. eps0 is the matrix's own "
    "LDP epsilon (rounded up). Lower end: exact.randomizer_pair's pairs with the outputs merged "
    "(shuffle_spec.reference.composition.finite_pairs). Range: 2..16 rows, 2..64 outputs, LDP epsilon in [1e-3, 30], n <= 1e8.",
    "shuffle_spec.reference.composition.blanket_rounds:compose_finite",
)

COMPOSE_RANDOMIZER = _blanket_statement(
    "randomizer",
    "eps after T rounds of a shuffled structured randomizer (RAPPOR, OUE, BLH, OLH, Hadamard, subset selection, Duchi, piecewise): the blanket bound as the profile envelope, connect-the-dots pair composed T times",
    "Lemma 5.3 evaluated exactly from each mechanism's closed-form decomposition (BBGN19.Lem5.3.exact_unary, "
    "exact_local_hashing, exact_hadamard, exact_subset, exact_piecewise) at grid nodes",
    "",
    " Envelope: the mechanism's certified Lemma 5.3 delta over its replace_pairs() (every ordered pair of inputs), "
    "built with e^eps0 rounded up (the mechanism at the true e^eps0 is a post-processing of it, so its profile is "
    "smaller at every eps). Duchi et al.'s mechanism: binary RR's envelope (compose.binary_rr; every pair of "
    "Duchi's profile is below binary RR's worst case at every eps, exact.shuffled_duchi). The piecewise mechanism: its worst pair (-1, 1) and the mirror, with e^(eps0/2) rounded up (BBGN19.Lem5.3.exact_piecewise: both hold at every eps). Lower end: the pattern pairs "
    "of the single-round lower bounds (exact.randomizer_pair on the mechanism's pattern projection, e^eps0 rounded "
    "down), binned (shuffle_spec.reference.composition.finite_pairs); Duchi's: binary RR's pairs. Range 1e-3 <= eps0 <= 30 "
    "(OLH <= 13.8), d in [2, 1e9], n <= 1e8 (Duchi 1e7).",
    "shuffle_spec.reference.composition.blanket_rounds:compose_randomizer",
)

# The one-round pairs whose losses are composed (for the proof checks and the docs).
PAIR_PMFS = {"clones": clone_pair_pmfs, "exact_binary_rr": binary_rr_pair_pmfs}

STATEMENTS: tuple[Statement, ...] = (COMPOSE_CLONES, COMPOSE_STRONGER_CLONES, COMPOSE_EXACT_BINARY_RR, COMPOSE_BINARY_RR, COMPOSE_KRR,
                                    COMPOSE_LAPLACE, COMPOSE_FINITE, COMPOSE_RANDOMIZER)
