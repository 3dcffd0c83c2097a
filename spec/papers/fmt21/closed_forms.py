"""FMT21 closed forms: Definitions 1.1-1.2, Theorem 2.1 (three printed prefactors), Proposition 2.2 (seed and
full version) and Theorem 2.3 (frequency estimation).

Sources: the extended abstract (version "seed 003"; the notes call it "the seed") and the full version,
arXiv 2012.12803 (FOCS 2021), whose numbering the full-version ids cite.
"""

from __future__ import annotations

import sympy as sp

from ...statement import Direction, EffectiveDelta, Kind, Source, Statement
from ...symbols import delta, delta0, delta_prime, eps, eps0, k, n

PAPER = "FMT21"
SEED = "extended abstract (seed 003)"
FULL = "arXiv 2012.12803 full version / FOCS 2021"

# Symbols of this module only.
max_error = sp.Symbol("max_error", nonnegative=True)  # max_i |p(i) - p_hat(i)| of Thm 2.3
C = sp.Symbol("C", positive=True)  # the constant hidden in Thm 2.3's O(.)
P_E, Q_E = sp.symbols("P_E Q_E", nonnegative=True)  # Pr[A(x) in E], Pr[A(x') in E]

# FMT21 eq. (1): G, the concentration term shared by every variant.
G = 8 * sp.sqrt(sp.exp(eps0) * sp.log(4 / delta)) / sp.sqrt(n) + 8 * sp.exp(eps0) / n
PREFACTOR_SEED = 1 - sp.exp(-2 * eps0)
PREFACTOR_FOCS = (sp.exp(eps0) - 1) / (sp.exp(eps0) + 1)
# Apple's eps1 = log(1 + G), so e^{-eps0 - eps1} = e^{-eps0} / (1 + G).
PREFACTOR_APPLE = (1 - sp.exp(-eps0)) / (1 + sp.exp(-eps0) / (1 + G))

EPS_SEED = sp.log(1 + PREFACTOR_SEED * G)
EPS_FOCS = sp.log(1 + PREFACTOR_FOCS * G)
EPS_APPLE = sp.log(1 + PREFACTOR_APPLE * G)

REGIME = sp.Le(eps0, sp.log(n / (16 * sp.log(2 / delta))))
REGIME_APPLE = sp.Le(eps0, sp.log(n / (16 * sp.log(4 / delta))))
DELTA_AT_MOST_ONE = sp.Le(delta, 1)
DELTA0_AT_MOST_ONE = sp.Le(delta0, 1)

AMPLIFICATION = frozenset({"amplification"})

EXAMPLES = (
    {"eps0": 1.0, "n": 10_000, "delta": 1e-6},
    {"eps0": 4.0, "n": 100_000, "delta": 1e-6},
    {"eps0": 0.1, "n": 1_000_000, "delta": 1e-6},
    {"eps0": 8.0, "n": 1_000_000, "delta": 1e-6},
    {"eps0": 0.5, "n": 100_000, "delta": 1e-8},
)
INVALID_EXAMPLES = (
    {"eps0": 8.0, "n": 10_000, "delta": 1e-6},  # log(1e4/(16 log 2e6)) = 3.76 < 8
    {"eps0": 1.0, "n": 100, "delta": 1e-6},  # log(100/232) < 0
    {"eps0": 1.0, "n": 10_000, "delta": 1.5},  # delta > 1
)

SETUP = (
    "Setup (seed): A_ldp^(i)(z_{1:i-1}, x) is eps0-DP in x for all auxiliary inputs; A_s samples a ~ Unif[n] and "
    "runs the randomizers on x_{tau_{1,a}(i)} (one random transposition), X, X' differ in x_1; conclusion: "
    "A_s(X), A_s(X') are (eps, delta)-indistinguishable. The full version states it for a uniformly random "
    "permutation ('A_s is (eps, delta)-DP'); the seed derives that as a corollary. "
)

VARIANTS_NOTE = (
    "Prefactor variants: seed eq. (1) prints 1 - e^{-2 eps0} (FMT21.Thm2.1); the full "
    "version Thm 3.1 has (e^eps0 - 1)/(e^eps0 + 1) (FMT21.Thm2.1.focs; from opendp/smartnoise-core utilities/shuffling.rs, which cites 'theorem 3.1', and "
    "third-party notes, medium-high); Apple's code uses (1 - e^-eps0)/(1 + e^{-eps0-eps1}), eps1 = log(1+G) "
    "(FMT21.Thm2.1.apple). Exact ordering, proved in proofs_checks/papers/fmt21.py: focs <= apple <= 1 - e^-eps0 <= seed, "
    "so the seed's form is the loosest and remains valid wherever the full version's is. The abstract's "
    "Theta((1 - e^-eps0) sqrt(e^eps0 log(1/delta)/n)) rate is asymptotic only and not registered."
)

THM2_1 = Statement(
    id="FMT21.Thm2.1",
    kind=Kind.THEOREM,
    title="Amplification by shuffling for eps0-LDP randomizers, closed form (seed prefactor 1 - e^{-2 eps0})",
    source=Source(PAPER, "Theorem 2.1, equation (1)", SEED, "high"),
    symbols=(eps0, n, delta, eps),
    hypotheses=(REGIME, DELTA_AT_MOST_ONE),
    conclusion=(sp.Le(eps, EPS_SEED),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.clone_closed_forms:thm21_seed_epsilon",
    notes=SETUP + VARIANTS_NOTE + " This id is the seed's verbatim form (the byte string is '-2\\varepsilon_0').",
    inputs=(eps0, n, delta),
    output=eps,
    value=EPS_SEED,
    mechanism="generic",
    examples=EXAMPLES,
    invalid_examples=INVALID_EXAMPLES,
    tags=AMPLIFICATION,
)

THM2_1_FOCS = Statement(
    id="FMT21.Thm2.1.focs",
    kind=Kind.THEOREM,
    title="Amplification by shuffling for eps0-LDP randomizers, closed form (full version, prefactor tanh(eps0/2))",
    source=Source(PAPER, "Theorem 3.1 (full version; Theorem 2.1 of the seed)", FULL, "medium-high"),
    symbols=(eps0, n, delta, eps),
    hypotheses=(REGIME, DELTA_AT_MOST_ONE),
    conclusion=(sp.Le(eps, EPS_FOCS),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.clone_closed_forms:thm21_focs_epsilon",
    notes=SETUP + VARIANTS_NOTE + " This id is the full version's (tightest) form; the published regime is the seed's.",
    inputs=(eps0, n, delta),
    output=eps,
    value=EPS_FOCS,
    mechanism="generic",
    examples=EXAMPLES,
    invalid_examples=INVALID_EXAMPLES,
    tags=AMPLIFICATION,
)

THM2_1_APPLE = Statement(
    id="FMT21.Thm2.1.apple",
    kind=Kind.THEOREM,
    title="Amplification by shuffling, closed form as Apple's ml-shuffling-amplification computes it",
    source=Source(PAPER, "Theorem 2.1 as computed by Apple ml-shuffling-amplification closedformanalysis", "code, commits 9d07720..993d285", "high"),
    symbols=(eps0, n, delta, eps),
    hypotheses=(REGIME_APPLE, DELTA_AT_MOST_ONE),
    conclusion=(sp.Le(eps, EPS_APPLE),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.bounds.clone_closed_forms:thm21_apple_epsilon",
    notes=(
        SETUP + VARIANTS_NOTE + " Apple checks the stricter regime eps0 <= log(n/(16 log(4/delta))) and returns eps0 "
        "(with a warning) outside it; here that is a failed hypothesis. Since the Apple prefactor is >= the full "
        "version's, this bound is valid wherever FMT21.Thm2.1.focs is."
    ),
    inputs=(eps0, n, delta),
    output=eps,
    value=EPS_APPLE,
    mechanism="generic",
    examples=EXAMPLES[:3],
    invalid_examples=INVALID_EXAMPLES,
    tags=AMPLIFICATION,
)

PROP_EXAMPLES = tuple({**e, "delta0": d0} for e, d0 in zip(EXAMPLES, (0.0, 1e-12, 1e-10, 0.0, 1e-14), strict=True))
PROP_INVALID = tuple({**e, "delta0": 1e-12} for e in INVALID_EXAMPLES) + (
    {"eps0": 1.0, "n": 10_000, "delta": 1e-6, "delta0": 2.0},
)
PROP_SETUP = (
    "Each A_ldp^(i) is (eps0, delta0)-DP for all auxiliary inputs; A_s applies a uniformly random permutation. "
    "Conclusion: A_s is (eps, delta')-DP. Proof idea (seed): convert each (eps0, delta0)-LDP randomizer to an "
    "eps0-LDP one with almost the same output distributions. delta' increases with eps, so the reference "
    "evaluates it at the certified upper end of eps. "
)
DELTA_PRIME_SEED = delta + (sp.exp(EPS_SEED) + 1) * (1 + sp.exp(-eps0)) * n * delta0
DELTA_PRIME_FOCS = delta + (sp.exp(EPS_FOCS) + 1) * (1 + sp.exp(-eps0) / 2) * n * delta0


def _prop(statement_id: str, title: str, source: Source, output, value, reference: str, notes: str, tags, effective_delta: EffectiveDelta | None = None) -> Statement:
    return Statement(
        id=statement_id,
        kind=Kind.PROPOSITION,
        title=title,
        source=source,
        symbols=(eps0, delta0, n, delta, eps, delta_prime),
        hypotheses=(REGIME, DELTA_AT_MOST_ONE, DELTA0_AT_MOST_ONE),
        conclusion=(sp.Le(output, value),),
        direction=Direction.UPPER_BOUND,
        reference=reference,
        notes=PROP_SETUP + notes,
        inputs=(eps0, delta0, n, delta),
        output=output,
        value=value,
        mechanism="generic",
        examples=PROP_EXAMPLES,
        invalid_examples=PROP_INVALID,
        tags=tags,
        effective_delta=effective_delta,
    )


SEED_PROP = Source(PAPER, "Proposition 2.2", SEED, "high")
FULL_PROP = Source(PAPER, "Theorem 3.8 (full version; Proposition 2.2 of the seed)", FULL, "medium")
PROP_SEED_NOTE = "Seed: eps as in eq. (1) (prefactor 1 - e^{-2 eps0}), delta' = delta + (e^eps + 1)(1 + e^{-eps0}) n delta0."
PROP_FOCS_NOTE = (
    "Full version Thm 3.8 (from opendp/smartnoise-core utilities/shuffling.rs `compose_delta`, 'theorem 3.8'): eps as in Thm 3.1 (prefactor "
    "(e^eps0-1)/(e^eps0+1)), delta' = delta + (e^eps + 1)(1 + e^{-eps0}/2) n delta0: smaller than the seed's."
)

# What is reported (eval, bounds, compare, calibrate, the API), for both versions' eps ids.
PROP_REPORTED = (
    " Reported: the eps holds at delta' (the id named below), not at the input delta; delta' >= delta, with equality "
    "exactly at delta0 = 0 (then this is Thm 2.1). `eval` shows delta' next to eps (JSON field delta_effective) and "
    "refuses when delta' >= 1 (nothing certified); `bounds` and `compare` count the row as a bound at the requested "
    "delta only when delta' <= delta; the API functions returning a bare eps (shuffled_epsilon, get_epsilon, interval, "
    "calibrate_epsilon0, calibrate_n) refuse when delta' > delta; the delta inversions (shuffled_delta, get_delta, "
    "calibrate --target delta) return the total delta' at which the target eps is certified, and refuse when it is >= 1."
)
SEED_DELTA = EffectiveDelta("FMT21.Prop2.2.delta_prime", "delta' = delta + (e^eps + 1)(1 + e^-eps0) n delta0 (FMT21.Prop2.2.delta_prime)")
FOCS_DELTA = EffectiveDelta("FMT21.Prop2.2.focs_delta_prime", "delta' = delta + (e^eps + 1)(1 + e^-eps0/2) n delta0 (FMT21.Prop2.2.focs_delta_prime)")

PROP2_2 = _prop(
    "FMT21.Prop2.2", "Amplification for (eps0, delta0)-LDP randomizers: central eps (seed)", SEED_PROP, eps, EPS_SEED,
    "shuffle_spec.reference.bounds.clone_closed_forms:prop22_seed_epsilon",
    PROP_SEED_NOTE + " This id gives eps; delta' is FMT21.Prop2.2.delta_prime." + PROP_REPORTED, AMPLIFICATION, SEED_DELTA,
)
PROP2_2_DELTA_PRIME = _prop(
    "FMT21.Prop2.2.delta_prime", "Amplification for (eps0, delta0)-LDP randomizers: central delta' (seed)", SEED_PROP, delta_prime,
    DELTA_PRIME_SEED, "shuffle_spec.reference.bounds.clone_closed_forms:prop22_seed_delta_prime", PROP_SEED_NOTE, frozenset(),
)
PROP2_2_FOCS = _prop(
    "FMT21.Prop2.2.focs", "Amplification for (eps0, delta0)-LDP randomizers: central eps (full version Thm 3.8)", FULL_PROP, eps,
    EPS_FOCS, "shuffle_spec.reference.bounds.clone_closed_forms:prop22_focs_epsilon",
    PROP_FOCS_NOTE + " delta' is FMT21.Prop2.2.focs_delta_prime." + PROP_REPORTED, AMPLIFICATION, FOCS_DELTA,
)
PROP2_2_FOCS_DELTA_PRIME = _prop(
    "FMT21.Prop2.2.focs_delta_prime", "Amplification for (eps0, delta0)-LDP randomizers: central delta' (full version Thm 3.8)",
    FULL_PROP, delta_prime, DELTA_PRIME_FOCS, "shuffle_spec.reference.bounds.clone_closed_forms:prop22_focs_delta_prime", PROP_FOCS_NOTE, frozenset(),
)

THM2_3 = Statement(
    id="FMT21.Thm2.3",
    kind=Kind.THEOREM,
    title="Frequency estimation in the shuffle model with O(log k) communication",
    source=Source(PAPER, "Theorem 2.3 (Section 2.1)", SEED, "high"),
    symbols=(eps, delta, n, k, C, max_error),
    hypotheses=(sp.Le(delta, 1), sp.Ge(k, 2)),
    conclusion=(sp.Le(max_error, C * sp.sqrt(sp.log(k) * sp.log(1 / delta)) / (eps * n)),),
    direction=Direction.UPPER_BOUND,
    reference="shuffle_spec.reference.protocols.frequency_estimation:shuffled_frequency_estimation",
    notes=(
        "There is a local randomizer with O(log k) communication whose shuffled outputs are (eps, delta)-DP and an "
        "estimator f with max_i |p(i) - p_hat(i)| = O(sqrt(log k log(1/delta))/(eps n)) with high probability "
        "(C is the constant hidden in the O). The seed builds it from Hadamard response [ASZ19] with eps0 set "
        "by the amplification bound. The reference runs Hadamard response (sets of half the Hadamard columns, "
        "log2 K bits) or k-RR (ceil(log2 k) bits), whichever has the smaller exact estimator variance at the "
        "calibrated eps0 (largest eps0 whose FMT21.Thm2.1.focs bound is <= eps), and debiases. Central "
        "optimum for comparison: Theta(min(log k, log(1/delta))/(eps n))."
    ),
)

LDP_SYMBOLS_NOTE = "P_E, Q_E stand for Pr[A(x) in E] and Pr[A(x') in E]; checked on finite randomizers through hockey-stick divergences."
DEF1_1 = Statement(
    id="FMT21.Def1.1",
    kind=Kind.DEFINITION,
    title="(eps, delta)-local differential privacy",
    source=Source(PAPER, "Definition 1.1", SEED, "high"),
    symbols=(eps, delta, P_E, Q_E),
    hypotheses=(sp.Le(delta, 1),),
    conclusion=(sp.Le(sp.exp(-eps) * Q_E - delta, P_E), sp.Le(P_E, sp.exp(eps) * Q_E + delta)),
    direction=Direction.DEFINITION,
    reference="shuffle_spec.reference.finite.divergences:approximate_ldp_epsilon",
    notes="A: D -> O is (eps, delta)-LDP if A(x), A(x') are (eps, delta)-indistinguishable for all x, x' in D. " + LDP_SYMBOLS_NOTE,
)
DEF1_2 = Statement(
    id="FMT21.Def1.2",
    kind=Kind.DEFINITION,
    title="(eps, delta)-central differential privacy (replacement neighbours)",
    source=Source(PAPER, "Definition 1.2", SEED, "high"),
    symbols=(eps, delta, P_E, Q_E),
    hypotheses=(sp.Le(delta, 1),),
    conclusion=(sp.Le(sp.exp(-eps) * Q_E - delta, P_E), sp.Le(P_E, sp.exp(eps) * Q_E + delta)),
    direction=Direction.DEFINITION,
    reference="shuffle_spec.reference.finite.closeness:is_dp_on_neighbours",
    notes=(
        "A: D^n -> O is (eps, delta)-DP if A(X), A(X') are (eps, delta)-indistinguishable for all neighbouring X, X' "
        "(differing in one individual's data). delta = 0 is pure DP. Same as EFMRTT19.Def1. " + LDP_SYMBOLS_NOTE
    ),
)

STATEMENTS: tuple[Statement, ...] = (
    DEF1_1,
    DEF1_2,
    THM2_1,
    THM2_1_FOCS,
    THM2_1_APPLE,
    PROP2_2,
    PROP2_2_DELTA_PRIME,
    PROP2_2_FOCS,
    PROP2_2_FOCS_DELTA_PRIME,
    THM2_3,
)
