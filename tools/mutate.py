"""Mutation testing for shuffle-spec: plant one-line bugs and check that the tests notice.

Each mutant names a file, one line's exact text (it must occur exactly once in that file), the line
that replaces it and the test files (pytest arguments) that should kill it. For each mutant the script
edits a *temporary copy* of the repository (never the working tree), runs the related tests there with
`python -m pytest -x`, and, with `--full`, the whole default suite where the related tests passed.
A mutant is killed when pytest reports a failure (exit code 1) or times out. Any other exit code
(2-5: interrupted by a collection error, usage error, no tests selected) is reported as "error" and
left out of the kill rate: a mutant that only breaks collection says nothing about the tests.
`--baseline` first runs every related test file on the unmutated copy (it must pass).

Usage (from the repository root; the machine is shared, so be nice):

    nice -n 10 python3 tools/mutate.py                # every mutant, related tests only
    nice -n 10 python3 tools/mutate.py --only div.half_eps close.triangle  # some mutants, by id
    python3 tools/mutate.py --list                    # the mutants, without running anything
    nice -n 10 python3 tools/mutate.py --full          # survivors of the related tests get the full suite

`--json FILE` writes the per-mutant results. Survivors are listed in
`docs/testing.md` ("Mutation testing") with the reason each is acceptable.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IGNORED = shutil.ignore_patterns(".git", "__pycache__", "*.pyc", ".pytest_cache", ".hypothesis", "build", "dist", "*.egg-info")


@dataclass(frozen=True)
class Mutant:
    id: str
    path: str
    original: str  # the exact text of one line (without its newline), occurring once in the file
    mutated: str
    tests: tuple[str, ...]
    why: str = ""  # what the mutant breaks (shown by --list)


PROOFS = "tests/checks/test_proof_checks.py"
NEG = "tests/checks/test_checker_fails_false_statements.py"
MUT = "tests/project/test_mutants.py"
IND = "tests/properties/test_independent.py"
EFF = "tests/interface/test_effective_delta.py"

MUTANTS: tuple[Mutant, ...] = (
    # --- the seven survivors of earlier mutation runs, each now killed by a test in tests/project/test_mutants.py ---
    Mutant("div.half_eps", "reference/finite/divergences.py", "    return float(privacy_profile(p, q, math.exp(eps)))",
           "    return float(privacy_profile(p, q, math.exp(eps / 2)))", (MUT, "tests/reference/finite/test_divergences.py"), "delta_for_epsilon at e^{eps/2}"),
    Mutant("fw.simplify", "proofs_checks/framework.py", "    difference = sp.simplify(sp.expand(lhs - rhs))",
           "    return", (NEG,), "assert_identity returns without checking"),
    # The certified worst case replaced the scan of k <= 16: its analogue of "only k = 0" is skipping the
    # branch and bound over the other counts (the guided pairs alone).
    Mutant("ebr.transport", "reference/exact/binary_rr.py",
           "    eps_u, tolerance = min(results)",
           "    eps_u, tolerance = (best_upper, rel_tol)", ("tests/reference/exact/test_binary_rr_values.py",), "exact binary RR certifies only the guided pairs, not every k"),
    Mutant("cl.accept_up", "reference/numerics/solver.py", "    upper = min(x for x, (_, d_up) in cache.items() if d_up <= delta)",
           "    upper = min(x for x, (d_low, _) in cache.items() if d_low <= delta)", (MUT, "tests/reference/bounds/test_clones.py"), "the certified search accepts the upper end on delta's lower bracket end"),
    Mutant("sc.weight", "reference/bounds/stronger_clones.py", "    return 2.0 * r / (1.0 + r), -math.expm1(-eps0) / (1.0 + r)",
           "    return 2.0 * r / (1.0 + 2.0 * r), -math.expm1(-eps0) / (1.0 + r)", (MUT, "tests/reference/bounds/test_stronger_clones.py"), "stronger clone weight 2/(e^eps0 + 2)"),
    Mutant("cl.tail", "reference/bounds/clones.py", "        upper = upper_sum * (1.0 + 1.001 * terms * UNIT) + self.edges.dropped + terms * _SUBNORMAL_SLACK",
           "        upper = upper_sum * (1.0 + 1.001 * terms * UNIT) + terms * _SUBNORMAL_SLACK", (IND, "tests/reference/bounds/test_clones.py", "tests/reference/numerics/test_binomial.py"), "clone delta drops the Chernoff tail mass"),
    Mutant("close.triangle", "reference/finite/closeness.py", "    return eps1 + eps2, delta1 + math.exp(eps1) * delta2",
           "    return max(eps1, eps2), delta1 + math.exp(eps1) * delta2", (MUT, "tests/reference/finite/test_closeness.py"), "Lemma 3 triangle with max(eps1, eps2)"),
    # --- the checker ---
    Mutant("fw.nonneg", "proofs_checks/framework.py", "    if verdict is not True:",
           "    if verdict is False:", (NEG,), "assert_nonnegative accepts an undecided sign"),
    Mutant("fw.run", "proofs_checks/framework.py", "        return CheckResult(check.statement_id, check.name, False, str(failure) or \"assertion failed\", time.perf_counter() - start)",
           "        return CheckResult(check.statement_id, check.name, True, str(failure) or \"assertion failed\", time.perf_counter() - start)", (NEG, "tests/checks/test_proof_checks.py::test_a_failing_check_is_reported_as_failed"), "run_check reports a failed check as passed"),
    Mutant("fw.require", "proofs_checks/framework.py", "    if not condition:",
           "    if condition is None:", (NEG,), "require only fails on None"),
    Mutant("agr.slack", "proofs_checks/agreement.py", "    require(abs(got - exact) <= statement.rtol * scale, f\"reference {got!r} vs spec {exact!r} at {example} (rtol {statement.rtol})\")",
           "    require(abs(got - exact) <= 100 * statement.rtol * scale + 0.05 * scale, f\"reference {got!r} vs spec {exact!r} at {example} (rtol {statement.rtol})\")", (NEG,), "agreement tolerates 5% disagreement"),
    # --- divergences and closeness ---
    Mutant("div.hs", "reference/finite/divergences.py", "    terms = (p[z] - e_eps * q[z] for z in p)",
           "    terms = (p[z] - e_eps * q[z] for z in q)", ("tests/reference/finite/test_divergences.py", MUT), "hockey-stick sums over Q's support"),
    Mutant("div.profile", "reference/finite/divergences.py", "    return max(hockey_stick_divergence(p, q, e_eps), hockey_stick_divergence(q, p, e_eps))",
           "    return hockey_stick_divergence(p, q, e_eps)", ("tests/reference/finite/test_divergences.py", "tests/reference/finite/test_closeness.py", MUT), "privacy profile one direction only"),
    Mutant("div.close", "reference/finite/divergences.py", "    return privacy_profile(p, q, e_eps) <= delta",
           "    return privacy_profile(p, q, e_eps) <= 2 * delta", ("tests/reference/finite/test_divergences.py", "tests/reference/finite/test_closeness.py"), "closeness at twice delta"),
    Mutant("div.offsupport", "reference/finite/divergences.py", "    mass_off_support = sum((p[z] for z in p if q[z] == 0), zero)",
           "    mass_off_support = zero", ("tests/reference/finite/test_divergences.py", "tests/reference/finite/test_shuffling.py"), "min e^eps ignores mass off Q's support"),
    Mutant("div.safelog", "reference/finite/divergences.py", "            return mpf_to_float_up(mpmath.log1p(mpmath.mpf(ratio.numerator - ratio.denominator) / ratio.denominator))",
           "            return round_up(math.log(ratio.numerator) - math.log(ratio.denominator), 8)", (IND, "tests/reference/finite/test_divergences.py", "tests/properties/test_soundness.py"), "safe_log by log(num) - log(den) (the old cancellation)"),
    Mutant("div.safelog_float", "reference/finite/divergences.py", "    return round_up(math.log(ratio), 4)",
           "    return math.log(ratio)", (IND, "tests/reference/finite/test_divergences.py", "tests/properties/test_soundness.py"), "safe_log of a float not rounded up"),
    Mutant("div.min1", "reference/finite/divergences.py", "                return max(a, 1)",
           "                return a", ("tests/reference/finite/test_divergences.py", "tests/reference/finite/test_shuffling.py", IND), "min multiplier not clamped at 1 (equivalent: there a >= ratio > 1)"),
    Mutant("clo.delta", "reference/finite/closeness.py", "    return eps1 + eps2, delta1 + math.exp(eps1) * delta2",
           "    return eps1 + eps2, delta1 + delta2", (MUT, "tests/reference/finite/test_closeness.py"), "Lemma 3 with delta1 + delta2 (the seed's print)"),
    # --- subsampling, composition, rounding, inversion ---
    Mutant("sub.eps", "reference/finite/subsampling.py", "        value = mpmath.log1p(mpmath.mpf(q) * mpmath.expm1(mpmath.mpf(eps)))",
           "        value = mpmath.mpf(q) * mpmath.log1p(mpmath.expm1(mpmath.mpf(eps)))", ("tests/reference/composition/test_efmrtt19_composition.py", IND), "subsampled eps = q eps"),
    Mutant("sub.delta", "reference/finite/subsampling.py", "        return mpf_to_float_up(mpmath.mpf(q) * mpmath.mpf(delta))",
           "        return mpf_to_float_up(mpmath.mpf(delta))", ("tests/reference/composition/test_efmrtt19_composition.py", IND), "subsampled delta without q"),
    Mutant("cp.mass", "reference/composition/count_pairs.py", "        m_lo = np.where(window.lower > 0, window.lower * weight * (1 - rel_g) * (1 - 4 * UNIT) / n, 0.0)",
           "        m_lo = np.where(window.lower > 0, window.lower * weight * (1 - rel_g) * (1 - 4 * UNIT) / (n - 1), 0.0)",
           ("tests/reference/composition/test_composed_lower_pairs.py",), "binned pair mass W g / (n - 1): above the exact law"),
    Mutant("lp.scale", "reference/composition/laplace_pairs.py", "    return iv.exp(eps0 * d) / 2 if t <= x else 1 - iv.exp(-eps0 * d) / 2",
           "    return iv.exp(2 * eps0 * d) / 2 if t <= x else 1 - iv.exp(-2 * eps0 * d) / 2",
           ("tests/reference/composition/test_composed_lower_pairs.py",), "binned Laplace at scale 1/(2 eps0): a less private pair"),
    Mutant("adv.eps", "reference/composition/advanced.py", "        return mpmath.sqrt(2 * kk * mpmath.log(1 / dp)) * e + kk * e * mpmath.expm1(e)",
           "        return mpmath.sqrt(2 * kk * mpmath.log(1 / dp)) * e + kk * e * e", ("tests/reference/composition/test_efmrtt19_composition.py", IND), "advanced composition e^eps - 1 -> eps"),
    Mutant("adv.delta", "reference/composition/advanced.py", "        return mpf_to_float_up(int(k) * mpmath.mpf(delta) + mpmath.mpf(delta_prime))",
           "        return mpf_to_float_up(mpmath.mpf(delta) + mpmath.mpf(delta_prime))", ("tests/reference/composition/test_efmrtt19_composition.py", IND), "advanced composition delta without k"),
    Mutant("round.up", "reference/core/rounding.py", "        x = math.nextafter(x, math.inf)",
           "        x = math.nextafter(x, -math.inf)", ("tests/properties/test_soundness.py", "tests/reference/bounds/test_efmrtt19_bounds.py", IND), "round_up rounds down"),
    Mutant("inv.hi", "reference/numerics/inversion.py", "    if f(hi) <= target:",
           "    if f(hi) >= target:", ("tests/reference/numerics/test_inversion.py",), "largest_argument_within returns an unverified end"),
    # --- closed-form bounds ---
    Mutant("erl.v1", "reference/bounds/erlingsson.py", "    value = 12.0 * eps0 * math.sqrt(-math.log(delta) / n)",
           "    value = 11.0 * eps0 * math.sqrt(-math.log(delta) / n)", ("tests/reference/bounds/test_efmrtt19_bounds.py", f"{PROOFS}::test_proof_check", "-k", "EFMRTT19"), "EFMRTT19 v1 constant 11"),
    Mutant("erl.eps1", "reference/bounds/erlingsson.py", "    return 2 * mpmath.exp(2 * e0) * mpmath.expm1(e0) / int(n)",
           "    return 2 * mpmath.exp(e0) * mpmath.expm1(e0) / int(n)", ("tests/reference/bounds/test_efmrtt19_bounds.py", f"{PROOFS}::test_proof_check", "-k", "EFMRTT19"), "eps1 with e^eps0 for e^{2 eps0}"),
    Mutant("erl.refined", "reference/bounds/erlingsson.py", "        value = growth * mpmath.sqrt(8 * mpmath.log(1 / mpmath.mpf(delta)) / int(n)) + 6 * growth**2 / int(n)",
           "        value = growth * mpmath.sqrt(8 * mpmath.log(1 / mpmath.mpf(delta)) / int(n)) + 3 * growth**2 / int(n)", ("tests/reference/bounds/test_efmrtt19_bounds.py", f"{PROOFS}::test_proof_check", "-k", "EFMRTT19"), "refined form second term halved"),
    Mutant("erl.cap", "reference/bounds/erlingsson.py", "    if upper <= eps0 and not at_least:",
           "    if not at_least:", ("tests/reference/bounds/test_efmrtt19_bounds.py", f"{PROOFS}::test_proof_check", "-k", "EFMRTT19"), "no cap at eps0"),
    Mutant("hoef.q", "reference/bounds/hoeffding.py", "    q = one_minus_gamma + gamma * mpmath.exp(-2 * a**2 / width**2)",
           "    q = one_minus_gamma + gamma * mpmath.exp(-4 * a**2 / width**2)", ("tests/reference/bounds/test_bbgn19_bounds.py", f"{PROOFS}::test_proof_check", "-k", "BBGN19"), "Hoeffding exponent doubled"),
    Mutant("hoef.pref", "reference/bounds/hoeffding.py", "    return width**2 / (4 * a * gamma * n) * q**n",
           "    return width**2 / (8 * a * gamma * n) * q**n", ("tests/reference/bounds/test_bbgn19_bounds.py", f"{PROOFS}::test_proof_check", "-k", "BBGN19"), "Hoeffding prefactor halved"),
    Mutant("hoef.lemma", "reference/bounds/hoeffding.py", "        return upper_bound_with_margin(b_**2 / (4 * a_) * mpmath.exp(-2 * m * a_**2 / b_**2))",
           "        return upper_bound_with_margin(b_**2 / (4 * a_) * mpmath.exp(-2 * m * a_ / b_**2))", ("tests/reference/bounds/test_bbgn19_bounds.py", f"{PROOFS}::test_proof_check", "-k", "BBGN19"), "Lemma 5.5 with a for a^2"),
    Mutant("benn.lemma", "reference/bounds/bennett.py", "        return upper_bound_with_margin(b_ / mpmath.log1p(beta) * mpmath.exp(-m * c_ / b_**2 * _phi(beta)))",
           "        return upper_bound_with_margin(b_ / mpmath.log1p(beta) * mpmath.exp(-m * c_ / b_ * _phi(beta)))", ("tests/reference/bounds/test_bbgn19_bounds.py", f"{PROOFS}::test_proof_check", "-k", "BBGN19"), "Lemma 5.6 with b for b^2"),
    Mutant("benn.phi", "reference/bounds/bennett.py", "    return (1 + u) * mpmath.log1p(u) - u",
           "    return (1 + u) * mpmath.log1p(u) - u / 2", ("tests/reference/bounds/test_bbgn19_bounds.py", f"{PROOFS}::test_proof_check", "-k", "BBGN19"), "Bennett's phi wrong"),
    Mutant("cf.focs", "reference/bounds/clone_closed_forms.py", "        return mpmath.tanh(eps0 / 2)  # (e^eps0 - 1)/(e^eps0 + 1)",
           "        return mpmath.tanh(eps0 / 3)", ("tests/reference/bounds/test_fmt21_closed_forms.py", f"{PROOFS}::test_proof_check", "-k", "FMT21"), "FMT21 FOCS factor"),
    Mutant("cf.sqrt", "reference/bounds/clone_closed_forms.py", "    return 8 * mpmath.sqrt(e_eps0 * mpmath.log(4 / mpmath.mpf(delta)) / nn) + 8 * e_eps0 / nn",
           "    return 8 * mpmath.sqrt(e_eps0 * mpmath.log(2 / mpmath.mpf(delta)) / nn) + 8 * e_eps0 / nn", ("tests/reference/bounds/test_fmt21_closed_forms.py", f"{PROOFS}::test_proof_check", "-k", "FMT21"), "FMT21 log(4/delta) -> log(2/delta)"),
    Mutant("cf.seed", "reference/bounds/clone_closed_forms.py", "        return -mpmath.expm1(-2 * eps0)",
           "        return -mpmath.expm1(-eps0)", ("tests/reference/bounds/test_fmt21_closed_forms.py", f"{PROOFS}::test_proof_check", "-k", "FMT21"), "FMT21 seed factor"),
    # --- numeric clone bounds and the binomial window ---
    Mutant("cl.accept_low", "reference/numerics/solver.py", "    lower = max((x for x, (d_low, _) in cache.items() if d_low > delta and x <= upper), default=0.0)",
           "    lower = max((x for x, (_, d_up) in cache.items() if d_up > delta and x <= upper), default=0.0)", (MUT, "tests/reference/bounds/test_clones.py"), "the certified search's lower end on the upper bracket end"),
    Mutant("cl.lower", "reference/bounds/clones.py", "            lower_sum += float(np.sum(part.lower * b_low))",
           "            lower_sum += float(np.sum(part.upper * b_up))", ("tests/reference/bounds/test_clones.py", IND), "clone delta lower end from upper bounds"),
    Mutant("cl.upround", "reference/bounds/clones.py", "        return max(round_down(lower, 4), 0.0), min(round_up(upper, 4), 1.0)",
           "        return max(round_down(lower, 4), 0.0), min(round_down(upper, 4), 1.0)", ("tests/reference/bounds/test_clones_delta_ends.py", "tests/reference/bounds/test_clones.py", IND), "clone delta upper end rounded down"),
    Mutant("bin.below", "reference/numerics/binomial.py", "    below = 0.0 if lo == 0 else math.exp(_log_tail_iv(lo - 1, m, pair)) * (1 + 1e-12)",
           "    below = 0.0", ("tests/reference/numerics/test_binomial.py", "tests/reference/bounds/test_clones.py", IND), "window's lower tail mass not counted"),
    Mutant("bin.ratio", "reference/numerics/binomial.py", "        ratios = ((m - (ks - 1.0)) / ks) * rho  # ks = k0+1, ...; r_{k-1} = (m-k+1)/k * p/q",
           "        ratios = ((m - ks) / ks) * rho", ("tests/reference/numerics/test_binomial.py",), "binomial recurrence off by one"),
    # --- exact shuffled distributions ---
    Mutant("shuf.worst", "reference/finite/shuffling.py", "        worst = max(worst, privacy_profile(p, q, e_eps))",
           "        worst = min(worst, privacy_profile(p, q, e_eps))", (IND, "tests/reference/finite/test_shuffling.py", "tests/properties/test_soundness.py"), "exact shuffled delta takes the best pair"),
    Mutant("shuf.prefix", "reference/finite/shuffling.py", "        del prefixes[shared + 1 :]",
           "        del prefixes[shared + 2 :]", ("tests/reference/finite/test_shuffling.py",), "a stale prefix's distribution reused for the next dataset"),
    Mutant("ebr.all", "reference/exact/binary_rr.py", "    return one_direction_delta(eps0=eps0, n=int(n) - int(width), k=start, eps=eps)",
           "    return one_direction_delta(eps0=eps0, n=int(n) - int(width) // 2, k=start, eps=eps)", ("tests/reference/exact/test_binary_rr_values.py",), "removal bound of a block removes too few users"),
    Mutant("rr.keep", "reference/finite/randomizers.py", "    keep, other = e / denominator, 1 / denominator if isinstance(e, float) else Fraction(1) / denominator",
           "    keep, other = e / denominator, 1 / (denominator + 1) if isinstance(e, float) else Fraction(1) / denominator", (IND, "tests/reference/finite/test_distributions.py", "tests/reference/finite/test_divergences.py"), "float k-RR probabilities do not sum to 1"),
    # --- validation ---
    Mutant("err.prob", "reference/core/errors.py", "    high_ok = real < 1 if open_high else real <= 1",
           "    high_ok = real <= 1", ("tests/invalid_inputs/test_invalid_inputs.py",), "delta = 1 accepted where (0, 1) is required"),
    Mutant("err.prob_low", "reference/core/errors.py", "    low_ok = real > 0 if open_low else real >= 0",
           "    low_ok = real >= 0", ("tests/invalid_inputs/test_invalid_inputs.py",), "delta = 0 accepted where (0, 1) is required"),
    # --- an epsilon that holds at a delta other than the one asked for (FMT21 Prop 2.2's delta') ---
    Mutant("ed.holds", "proofs_checks/bridge.py", "        return effective is None or requested is None or effective <= requested",
           "        return True", (EFF,), "a value at delta' > delta counted as a bound at delta (bounds, tightest, audit)"),
    Mutant("ed.vacuous", "proofs_checks/bridge.py", "    if not effective < 1:",
           "    if not effective < math.inf:", (EFF,), "a delta' >= 1 (nothing certified) reported as valid"),
    Mutant("ed.api", "interface/api.py", "    if not evaluation.holds_at_requested_delta:",
           "    if False:", (EFF,), "the API's bare epsilon returned at delta' > delta"),
    Mutant("ed.total", "interface/api.py", '        statement.id, "delta", finite[best], (used[below] if below is not None else 0.0, finite[best]), recorder.cache[best], base,',
           '        statement.id, "delta", used[best], (used[below] if below is not None else 0.0, finite[best]), recorder.cache[best], base,', (EFF,),
           "shuffled_delta returns the input delta instead of the total delta'"),
    # --- derive: substitutions and the certified export ---
    Mutant("derive.subs", "interface/cli/commands/_derive.py", "                raise OutsideHypotheses(statement.id, statement.hypothesis_name(failed[0]), texts)",
           "                pass", ("tests/interface/derive/test_substitutions.py",), "derive shows a closed form at a point outside its hypotheses"),
    Mutant("derive.free", "interface/cli/commands/_derive.py", "            if holds is False:",
           "            if holds is None and False:", ("tests/interface/derive/test_substitutions.py",), "a partial substitution no completion can satisfy is not refused"),
    Mutant("enc.up", "interface/derive/enclosure.py", "    return nearest if Fraction(nearest) >= exact else math.nextafter(nearest, math.inf)",
           "    return nearest", ("tests/interface/derive/test_export.py",), "the exported upper bound is the nearest float, not rounded up"),
    Mutant("enc.log", "interface/derive/enclosure.py", "    if not mpf_lt(fzero, lo):",
           "    if False:", ("tests/interface/derive/test_export.py",), "the export takes the logarithm of an interval reaching 0"),
    # --- composition at small delta: the top cut before a tilt, the hull's kink minimum ---
    Mutant("pld.cut_inf", "reference/numerics/pld.py",
           "        return GridPLD(g.step, g.offset, g.masses[:keep].copy(), min((g.inf_mass + moved) * (1 + 2 * UNIT), 1.0), True, g.eps0)",
           "        return GridPLD(g.step, g.offset, g.masses[:keep].copy(), g.inf_mass, True, g.eps0)",
           ("tests/reference/composition/test_tilted_delta.py",), "the top cut of a pessimistic grid loses the mass it moves (not put at +inf)"),
    Mutant("ctd.kink_floor", "reference/composition/connect_the_dots.py",
           "        bad = [t for t, q in enumerate(kinks) if not q.a > kink_min]",
           "        bad = [t for t, q in enumerate(kinks) if not q.a > KINK_MIN]",
           ("tests/reference/composition/test_envelope_small_floor.py",), "the hull's kink minimum stays 1e-38 below a floor of 1e-38 (the tail goes to +inf)"),
    # --- audit bound: no PASS where the reference's certified interval is wider than the statement's rtol ---
    Mutant("audit.wide", "interface/audit/bound.py", "    return high_exact - low_exact > rtol * max(abs(low_exact), abs(high_exact))",
           "    return False", ("tests/interface/audit/test_acceptance_wide_reference.py",), "a claim inside a certified interval wider than rtol passes"),
    Mutant("audit.narrow", "interface/audit/bound.py", "    narrowed = max(low, low_hp), min(high, high_hp)",
           "    narrowed = min(low, low_hp), max(high, high_hp)", ("tests/interface/audit/test_acceptance_wide_reference.py",), "the high-precision enclosure widens the float interval instead of narrowing it"),
    Mutant("audit.infinite_end", "interface/audit/bound.py", "    if not (math.isfinite(low_exact) and math.isfinite(high_exact)):",
           "    if False:", ("tests/interface/audit/test_acceptance_wide_reference.py",), "an interval with an infinite end separates claims (every claim passes)"),
    Mutant("audit.pair_interval", "reference/exact/binary_rr.py", "    return BoundValue(pair.lower, pair.upper, note, direction=\"lower_bound\")",
           "    return BoundValue(pair.lower, pair.lower, note, direction=\"lower_bound\")", ("tests/interface/audit/test_acceptance_intervals.py",), "a pair lower bound's interval [lower, lower] misses its exact eps (a correct claim fails the audit)"),
    # exact binary RR: the threshold guess of a pair evaluation untilted (the mean: far from s*), and Lemma 5.3's k = 2
    # one-window lower bound with half its negative term (no longer below the 50-digit expectation).
    Mutant("ebr.guess_untilted", "reference/exact/binary_rr.py", "        p_r, q_r = p * r / (q + p * r), q * r / (p + q * r)  # a one's and a zero's tilted probability of 1",
           "        p_r, q_r = p, q  # a one's and a zero's tilted probability of 1", ("tests/reference/exact/test_binary_rr_threshold_guess.py",),
           "the threshold guess without the tilt: the search starts far from s*"),
    Mutant("bkl.binary_half", "reference/bounds/blanket_krr_lower.py", "    y = c1[0] * (float(size) - a)",
           "    y = c1[0] * (float(size) - a) / 2", ("tests/reference/bounds/test_blanket_krr_lower.py",), "k = 2 blanket lower bound with half its negative term"),
)


@dataclass
class Outcome:
    id: str
    status: str  # killed | survived | error
    stage: str  # related | full | -
    seconds: float
    detail: str = ""
    tests: list[str] = field(default_factory=list)


def _copy_tree(destination: Path) -> Path:
    """A copy of the repository in the folder shuffle_spec under `destination`: the repository root is the package, so the copy
    is imported as `shuffle_spec` when `destination` comes first on the path (see `_environment`)."""
    tree = destination / "shuffle_spec"
    shutil.copytree(ROOT, tree, ignore=IGNORED)
    return tree


def _environment(tree: Path) -> dict[str, str]:
    # The copy's parent first on the path: `import shuffle_spec` then finds the (mutated) copy before any
    # installed or editable shuffle_spec (an editable install's finder comes after the path's).
    return {**os.environ, "PYTHONPATH": str(tree.parent), "PYTHONDONTWRITEBYTECODE": "1", "HYPOTHESIS_PROFILE": "ci"}


def _check_the_copy_is_imported(tree: Path) -> None:
    """Refuse to run if `import shuffle_spec` would not load the copy: every mutant would 'survive'."""
    probe = [sys.executable, "-c", "import shuffle_spec, sys; sys.stdout.write(shuffle_spec.__file__)"]
    done = subprocess.run(probe, cwd=tree, env=_environment(tree), capture_output=True, text=True, check=False)
    if done.returncode != 0 or Path(done.stdout).resolve().parent != tree.resolve():
        raise SystemExit(f"the copy is not what `import shuffle_spec` loads ({done.stdout or done.stderr.strip()}): mutants would test the original")


def _pytest(tree: Path, arguments: list[str], timeout: float) -> tuple[int, str]:
    env = _environment(tree)
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-n", "0", "-p", "no:cacheprovider", *arguments]  # -x stops a serial run only
    try:
        done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return -1, "timeout"
    lines = [line for line in (done.stdout + done.stderr).strip().splitlines() if line.strip()]
    return done.returncode, lines[-1] if lines else ""


def _apply(tree: Path, mutant: Mutant) -> str:
    """Replace the mutant's line in the copy; return the original file text (to restore)."""
    path = tree / mutant.path
    text = path.read_text()
    lines = text.split("\n")
    hits = [index for index, line in enumerate(lines) if line == mutant.original]
    if len(hits) != 1:
        raise ValueError(f"{mutant.id}: the original line occurs {len(hits)} times in {mutant.path}, not once")
    lines[hits[0]] = mutant.mutated
    path.write_text("\n".join(lines))
    return text


def check_mutants(mutants: tuple[Mutant, ...]) -> list[str]:
    """Problems with the table itself: unknown files, lines not found exactly once, duplicate ids, no-op mutants."""
    problems = []
    if len({m.id for m in mutants}) != len(mutants):
        problems.append("duplicate mutant ids")
    for m in mutants:
        path = ROOT / m.path
        if not path.is_file():
            problems.append(f"{m.id}: no file {m.path}")
            continue
        count = path.read_text().split("\n").count(m.original)
        if count != 1:
            problems.append(f"{m.id}: original line found {count} times in {m.path}")
        if m.original == m.mutated:
            problems.append(f"{m.id}: mutated line equals the original")
        for test in m.tests:
            if test.startswith("tests/") and not (ROOT / test.split("::")[0]).is_file():
                problems.append(f"{m.id}: no test file {test}")
    return problems


def run(mutants: tuple[Mutant, ...], *, full: bool, timeout: float, baseline: bool) -> list[Outcome]:
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="shuffle-spec-mutants-") as scratch:
        tree = _copy_tree(Path(scratch))
        _check_the_copy_is_imported(tree)
        if baseline:
            files = sorted({t for m in mutants for t in m.tests if t.startswith("tests/") and "::" not in t})
            code, last = _pytest(tree, files, timeout * 4)
            print(f"baseline (unmutated copy, {len(files)} test files): exit {code}: {last}", flush=True)
            if code != 0:
                raise SystemExit("the related tests fail without any mutant: fix that first")
        for mutant in mutants:
            start = time.perf_counter()
            original_text = _apply(tree, mutant)
            try:
                code, last = _pytest(tree, list(mutant.tests), timeout)
                stage = "related"
                if code == 0 and full:
                    code, last = _pytest(tree, [], timeout * 20)
                    stage = "full"
            finally:
                (tree / mutant.path).write_text(original_text)
            if code == 0:
                status = "survived"
            elif code in (1, -1):
                status = "killed"
            else:
                status = "error"  # pytest could not run the tests (collection error, usage, none selected)
            outcome = Outcome(mutant.id, status, stage, round(time.perf_counter() - start, 1), last, list(mutant.tests))
            outcomes.append(outcome)
            print(f"{mutant.id:14s} {status:8s} ({stage}, {outcome.seconds:.0f} s) {mutant.why}: {last}", flush=True)
    return outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="ID", help="run only these mutants")
    parser.add_argument("--list", action="store_true", help="list the mutants and check the table; run nothing")
    parser.add_argument("--full", action="store_true", help="run the whole suite on mutants that survive their related tests")
    parser.add_argument("--baseline", action="store_true", help="first run every related test file on the unmutated copy")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per related-tests run (a timeout counts as killed)")
    parser.add_argument("--json", metavar="FILE", help="write the per-mutant results as JSON")
    args = parser.parse_args(argv)
    problems = check_mutants(MUTANTS)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 2
    selected = MUTANTS
    if args.only:
        unknown = set(args.only) - {m.id for m in MUTANTS}
        if unknown:
            print(f"unknown mutant ids: {sorted(unknown)}", file=sys.stderr)
            return 2
        selected = tuple(m for m in MUTANTS if m.id in args.only)
    if args.list:
        for m in selected:
            print(f"{m.id:14s} {m.path}: {m.why}")
        print(f"{len(selected)} mutants")
        return 0
    outcomes = run(selected, full=args.full, timeout=args.timeout, baseline=args.baseline)
    killed = sum(o.status == "killed" for o in outcomes)
    errors = [o.id for o in outcomes if o.status == "error"]
    survivors = [o.id for o in outcomes if o.status == "survived"]
    counted = killed + len(survivors)
    print(f"killed {killed} of {counted} ({100.0 * killed / max(counted, 1):.1f}%); survivors: {survivors or 'none'}; errors (not counted): {errors or 'none'}")
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(o) for o in outcomes], indent=1) + "\n")
    return 0 if not survivors and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
