"""Invalid inputs at the edges of the supported ranges: streamed binomial windows, the
range table of shuffle_spec.reference.core.limits, and out-of-range eps0 / n / delta for the amplification bounds."""

from shuffle_spec.reference.numerics import binomial
from shuffle_spec.reference.core import limits
from shuffle_spec.reference.bounds import (
    bennett,
    clone_closed_forms,
    clones,
    erlingsson,
    hoeffding,
    restated,
    shuffled_rr_cheu,
    stronger_clones,
)

from invalid_inputs import Case

PAIR = binomial.probability_pair("fmt21", 1.0)

CASES = [
    Case(binomial.window_edges, (-1, PAIR, 1e-9), fragment="m"),
    Case(binomial.window_edges, (10, PAIR, 1.0), fragment="tail"),
    Case(binomial.window_edges, (10, "pair", 1e-9), fragment="pair"),
    Case(binomial.certified_window_block, (10, PAIR, 5, 4), fragment="b"),
    Case(binomial.certified_window_block, (10, PAIR, 0, 11), fragment="b"),
    Case(binomial.certified_window_block, (10**9, PAIR, 0, binomial.BLOCK), fragment="b"),
    Case(binomial.certified_window_block, (10, PAIR, -1, 4), fragment="a"),
    Case(binomial.window_blocks, (binomial.window_edges(10, PAIR, 0.0), 0), fragment="block"),
    Case(binomial.certified_window, (10**14, PAIR, 1e-30), fragment="m"),
    Case(limits.check_range, ("FMT21.clones_numeric",), {"eps0": 701.0}, fragment="eps0"),
    Case(limits.check_range, ("FMT21.clones_numeric",), {"n": 10**12 + 1}, fragment="n"),
    Case(limits.check_range, ("BBGN19.Thm5.3",), {"delta": 1e-301}, fragment="delta"),
    Case(limits.check_range, ("BBGN19.Thm5.3",), {"eps0": float("nan")}, fragment="eps0"),
    Case(limits.check_range, ("NOPE.Thm1",), {"eps0": 1.0}, fragment="statement"),
    Case(limits.describe, ("NOPE.Thm1",), fragment="statement"),
    Case(clones.clones_numeric, (), {"eps0": 1.0, "n": 10**13, "delta": 1e-6}, fragment="n"),
    Case(clones.clones_numeric, (), {"eps0": 1.0, "n": 100, "delta": 1e-305}, fragment="delta"),
    Case(clones.clones_eps0_for_eps, (), {"eps": 0.1, "n": 100, "delta": 1e-6, "eps0_max": 800.0}, fragment="eps0"),
    Case(stronger_clones.stronger_clones, (), {"eps0": 1.0, "n": 1e30, "delta": 1e-6}, fragment="n"),
    # The smallest double: the clone probability ~eps0/2 is 0 as a double ("probability = 0.0" was blamed before).
    Case(stronger_clones.stronger_clones, (), {"eps0": 5e-324, "n": 2, "delta": 0.5, "k": 2}, fragment="eps0"),
    Case(binomial.probability_pair, ("fmt23", 5e-324), fragment="eps0"),
    Case(hoeffding.hoeffding_generic_epsilon, (), {"eps0": 1e308, "n": 100, "delta": 1e-6}, fragment="eps0"),
    Case(hoeffding.hoeffding_generic_eps0, (), {"eps": 1e5, "n": 100, "delta": 1e-6}, fragment="eps"),
    Case(bennett.bennett_generic_epsilon, (), {"eps0": 1e16, "n": 100, "delta": 1e-6}, fragment="eps0"),
    Case(bennett.bennett_krr_delta, (), {"eps": 0.1, "eps0": 1e5, "n": 100, "k": 2}, fragment="eps0"),
    Case(bennett.bennett_laplace_epsilon, (), {"eps0": 1.0, "n": 10**19, "delta": 1e-6}, fragment="n"),
    Case(erlingsson.erlingsson_v2_epsilon, (), {"eps0": 1e308, "n": 100, "delta": 1e-6}, fragment="eps0"),
    Case(erlingsson.erlingsson_v1_epsilon, (), {"eps0": 0.1, "n": 10**4, "delta": 1e-320}, fragment="delta"),
    Case(restated.corollary_5_3_1_epsilon, (), {"eps0": 2e4, "n": 100, "delta": 1e-6}, fragment="eps0"),
    Case(clone_closed_forms.thm21_seed_epsilon, (), {"eps0": 1e20, "n": 10**6, "delta": 1e-6}, fragment="eps0"),
    Case(shuffled_rr_cheu.shuffled_rr_epsilon, (), {"eps0": 1e308, "n": 10**6, "delta": 1e-6}, fragment="eps0"),
]
CASES.append(Case(clones.solve_epsilon, (lambda e: (0.0, 0.0),), {"eps0": 1.0, "delta": 1e-6, "max_evaluations": 0}, fragment="max_evaluations"))
