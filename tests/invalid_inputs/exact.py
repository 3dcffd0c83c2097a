"""Invalid inputs of the certified exact binary RR (exact.shuffled_binary_rr, exact.shuffled_binary_rr.pair)."""

from invalid_inputs import Case
from shuffle_spec.reference.exact import binary_rr as rr

CASES = [
    Case(rr.worst_case, (), {"eps0": 1.0, "n": 100, "delta": 1e-6, "rel_tol": 0.0}, fragment="rel_tol"),
    Case(rr.worst_case, (), {"eps0": 1.0, "n": 100, "delta": 1e-6, "rel_tol": 0.5}, fragment="rel_tol"),
    Case(rr.shuffled_binary_rr, (), {"eps0": 1.0, "n": 100, "delta": 1e-301}, fragment="delta"),
    Case(rr.shuffled_binary_rr, (), {"eps0": rr.MAX_EPS0 + 1, "n": 100, "delta": 1e-6}, fragment="eps0"),
    Case(rr.shuffled_binary_rr, (), {"eps0": 1.0, "n": 10**13, "delta": 1e-6}, fragment="n"),
    Case(rr.shuffled_binary_rr, (), {"eps0": float("inf"), "n": 100, "delta": 1e-6}, fragment="eps0"),
    Case(rr.shuffled_binary_rr_delta, (), {"eps0": 1.0, "n": 3000, "eps": 0.1}, fragment="n"),
    Case(rr.binary_rr_pair_epsilon, (), {"eps0": 1.0, "n": 10, "delta": 1e-6, "k": 10}, fragment="k"),
    Case(rr.binary_rr_pair_epsilon, (), {"eps0": 1.0, "n": 10, "delta": 0.0, "k": 0}, fragment="delta"),
    Case(rr.shuffled_binary_rr_pair, (), {"eps0": 1.0, "n": 10, "delta": 1e-6, "k": -1}, fragment="k"),
    Case(rr.one_direction_delta, (), {"eps0": 1.0, "n": 10, "k": 10, "eps": 0.1}, fragment="k"),
    Case(rr.one_direction_delta, (), {"eps0": 1.0, "n": 10, "k": 0, "eps": -0.1}, fragment="eps"),
    Case(rr.block_delta_bound, (), {"eps0": 1.0, "n": 10, "start": 0, "width": 10, "eps": 0.1}, fragment="width"),
    Case(rr.block_delta_bound, (), {"eps0": 1.0, "n": 10, "start": 5, "width": 5, "eps": 0.1}, fragment="start"),
    Case(rr.counts_evaluated, (10**7,), fragment="n"),
    Case(rr.thinned_block_delta_bound, (), {"eps0": 1.0, "n": 10, "start": 0, "width": 10, "eps": 0.1}, fragment="width"),
    Case(rr.thinned_block_delta_bound, (), {"eps0": 1.0, "n": 10, "start": 5, "width": 5, "eps": 0.1}, fragment="start"),
    Case(rr.thinned_block_delta_bound, (), {"eps0": 1.0, "n": 10, "start": 0, "width": 3, "eps": 0.1, "tail": 0.0}, fragment="tail"),
    Case(rr.thinned_block_delta_bound, (), {"eps0": -1.0, "n": 10, "start": 0, "width": 3, "eps": 0.1}, fragment="eps0"),
]
